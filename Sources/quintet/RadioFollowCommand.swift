import ArgumentParser
import Foundation
import QuintetStore
import Radio

/// `quintet radio follow|unfollow|following`: the follow graph of one user from the command line
/// (what the Follow buttons of `/radio/`, the show pages and `/radio/people/` do through
/// `PUT`/`DELETE /api/radio/shows/{id}/follow` and `…/users/{name}/follow`).
extension RadioCommand {
    /// What to follow: a show by id, or a person by name.
    struct FollowTarget: ParsableArguments {
        @Option(help: "The show's id (quintet radio shows).") var show: Int64?
        @Option(help: ArgumentHelp("The user to follow, by name.", valueName: "name")) var person: String?

        func validate() throws {
            guard (show == nil) != (person == nil) else { throw ValidationError("give either --show ID or --person NAME") }
        }
    }

    struct Follow: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a user follow a show or another user (following twice changes nothing).")
        @Option(help: "The user who follows.") var user: String
        @OptionGroup var target: FollowTarget
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            try RadioCommand.changeFollow(user: user, target: target, data: dataOptions, follow: true)
        }
    }

    struct Unfollow: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a user stop following a show or another user (no error when they did not).")
        @Option(help: "The user who stops following.") var user: String
        @OptionGroup var target: FollowTarget
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            try RadioCommand.changeFollow(user: user, target: target, data: dataOptions, follow: false)
        }
    }

    struct Following: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the shows and people a user follows.",
            discussion: "With --json prints {\"shows\": [{\"id\", \"title\"}], \"people\": [{\"name\", \"display_name\"}]}; deleted shows are left out.")
        @Option(help: "The user's name.") var user: String
        @Flag(help: "Print as JSON.") var json = false
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let follows = RadioFollows(database: database)
            let id = try radioCall { try follows.userID(named: user) }
            let store = RadioStore(database: database)
            let shows = try follows.followedShowIDs(id).compactMap { try store.show(id: $0) }
            let people = try radioCall { try follows.following(of: user) }
            if json {
                struct Show: Encodable { let id: Int64; let title: String }
                struct Person: Encodable {
                    let name: String, displayName: String
                    enum CodingKeys: String, CodingKey { case name; case displayName = "display_name" }
                }
                struct Listing: Encodable { let shows: [Show]; let people: [Person] }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let listing = Listing(shows: shows.map { Show(id: $0.id ?? 0, title: $0.title) },
                                      people: people.map { Person(name: $0.name, displayName: $0.displayName) })
                print(String(decoding: try encoder.encode(listing), as: UTF8.self))
                return
            }
            print("Shows (\(shows.count)):")
            for show in shows { print("  \(show.id ?? 0)  \(show.title)") }
            print("People (\(people.count)):")
            for person in people { print("  \(person.name)" + (person.displayName.isEmpty ? "" : "  (\(person.displayName))")) }
        }
    }

    static func changeFollow(user: String, target: FollowTarget, data: DataOptions, follow: Bool) throws {
        let database = try data.openDatabase()
        defer { try? database.close() }
        let follows = RadioFollows(database: database)
        try radioCall {
            let id = try follows.userID(named: user)
            switch (target.show, target.person, follow) {
            case (let show?, _, true): try follows.followShow(follower: id, showID: show)
            case (let show?, _, false): try follows.unfollowShow(follower: id, showID: show)
            case (_, let person?, true): try follows.followUser(follower: id, name: person)
            case (_, let person?, false): try follows.unfollowUser(follower: id, name: person)
            default: break
            }
        }
        let what = target.show.map { "show \($0)" } ?? "user \(target.person ?? "")"
        print(follow ? "\(user) follows \(what)" : "\(user) no longer follows \(what)")
    }
}
