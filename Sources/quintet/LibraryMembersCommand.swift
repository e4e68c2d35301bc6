import ArgumentParser
import Foundation
import LibraryCore

/// `quintet library members add|remove|list`: band ↔ member relations neither the tags nor
/// MusicBrainz know (docs/graph.md, "Band members").
struct LibraryMembersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "Band ↔ member relations: add or remove your own, list every link.",
        discussion: """
        Relations you add link two artists of the library (by name; kept across rescans). \
        Works while `quintet serve` runs on the same data folder.
        """,
        subcommands: [Add.self, Remove.self, List.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Record that PERSON is (or was) a member of BAND.")
        @Argument(help: "The band, as named in the library.") var band: String
        @Argument(help: "The member, as named in the library.") var person: String
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let relation = try catalogErrorsAsValidation { try Catalog(database: database).addMemberRelation(band: .name(band), member: .name(person)) }
            print("\(relation.member) is a member of \(relation.band)")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a relation added with `add`.")
        @Argument(help: "The band.") var band: String
        @Argument(help: "The member.") var person: String
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            guard try catalogErrorsAsValidation({ try Catalog(database: database).removeMemberRelation(band: .name(band), member: .name(person)) }) else {
                throw ValidationError("no relation you added makes \(person) a member of \(band)")
            }
            print("removed: \(person) as a member of \(band)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every band ↔ member link of the library, with its sources (tags, musicbrainz, user).",
            discussion: "With --json: {\"links\": [{\"band\", \"member\", \"sources\"}], \"user\": [{\"band\", \"member\", \"in_library\"}]}.")
        @OptionGroup var dataOptions: DataOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let catalog = Catalog(database: database)
            let names = Dictionary(uniqueKeysWithValues: try catalog.artists(userID: nil).map { ($0.id, $0.name) })
            let links = try catalog.memberLinks()
            let user = try catalog.userMemberRelations()
            if json {
                struct Link: Encodable { let band: String; let member: String; let sources: [String] }
                struct Relation: Encodable { let band: String; let member: String; let in_library: Bool }
                struct Output: Encodable { let links: [Link]; let user: [Relation] }
                try printJSON(Output(
                    links: links.map { Link(band: names[$0.band] ?? "", member: names[$0.member] ?? "", sources: $0.sources) },
                    user: user.map { Relation(band: $0.band, member: $0.member, in_library: $0.bandID != nil && $0.memberID != nil) }))
                return
            }
            if links.isEmpty { print("no band ↔ member links") }
            for link in links {
                print("\(names[link.band] ?? "?") ← \(names[link.member] ?? "?")  (\(link.sources.joined(separator: ", ")))")
            }
            for relation in user where relation.bandID == nil || relation.memberID == nil {
                print("not in the library now: \(relation.member) as a member of \(relation.band) (added by you)")
            }
        }
    }
}

/// Catalog errors as command-line errors (a message and exit code 64).
private func catalogErrorsAsValidation<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as CatalogError { throw ValidationError(error.description) }
}
