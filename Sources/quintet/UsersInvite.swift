import ArgumentParser
import Foundation
import QuintetStore

extension Users {
    /// `quintet users invite [--days N] [--json]`: a single-use registration link.
    struct Invite: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a single-use invitation link to register (as an admin); prints the link.",
            discussion: "The link is <public URL>/radio/account/?invite=<token>; with --json prints {\"url\", \"token\", \"expires_at\"}.")
        @OptionGroup var dataOptions: DataOptions
        @OptionGroup var urlOptions: RadioCommand.URLOptions
        @Option(help: "Days until it expires, 1-365 (default 7).") var days: Int = 7
        @Flag(help: "Print as JSON.") var json = false

        func run() throws {
            let base = try urlOptions.base().string ?? ""
            let invites = InviteStore(database: try dataOptions.openDatabase())
            let made: (token: String, expiresAt: Date)
            do { made = try invites.create(by: nil, days: days) } catch let error as InviteError {
                throw ValidationError(error.description)
            }
            let url = "\(base)/radio/account/?invite=\(made.token)"
            if json {
                struct Line: Encodable {
                    let url: String; let token: String; let expiresAt: Date
                    enum CodingKeys: String, CodingKey { case url, token, expiresAt = "expires_at" }
                }
                try printJSON(Line(url: url, token: made.token, expiresAt: made.expiresAt))
            } else {
                print(url)
                print("single use, expires \(ISO8601DateFormatter().string(from: made.expiresAt))")
            }
        }
    }
}
