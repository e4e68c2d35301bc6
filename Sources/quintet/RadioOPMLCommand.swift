import ArgumentParser
import Foundation
import QuintetStore
import Radio

extension RadioCommand {
    /// `quintet radio opml --user NAME`: the OPML 2.0 list of the shows a user follows, as
    /// `GET /api/radio/following.opml` answers it (docs/radio.md, "Community: sharing…").
    struct OPML: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "opml",
            abstract: "Print the OPML 2.0 list of the shows a user follows (for podcast apps).",
            discussion: "Deleted shows are left out. Feed and page URLs start with --public-url.")
        @Option(help: "The user's name.") var user: String
        @OptionGroup var urlOptions: RadioCommand.URLOptions
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let base = try urlOptions.base()
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            guard let found = try UserStore(database: database).find(name: user), let id = found.id else {
                throw ValidationError("no user named '\(user)'")
            }
            var root = base
            root.query = nil
            let text = root.string ?? ""
            print(try radioCall { try RadioStore(database: database).followingOPML(userID: id, userName: found.name, base: text) },
                  terminator: "")
        }
    }
}
