import ArgumentParser
import Foundation
import QuintetStore

/// `quintet users`: the accounts every system shares.
struct Users: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage the user accounts shared by every system (Subsonic, radio, web).",
        subcommands: [Add.self, List.self, Remove.self, Passwd.self, Invite.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a user; the password is read from standard input (or asked for on a terminal).")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The user's name (1-64 characters).") var name: String
        @Option(help: "admin or user (default user).") var role: UserRole = .user
        @Flag(help: "Print the new user as JSON.") var json = false

        func run() throws {
            let users = UserStore(database: try dataOptions.openDatabase())
            let user = try storeCall { try users.create(name: name, password: try readPassword(), role: role) }
            if json { try printJSON(UserSummary(user)) } else { print("added \(user.role.rawValue) '\(user.name)'") }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List users.")
        @OptionGroup var dataOptions: DataOptions
        @Flag(help: "Print as JSON.") var json = false

        func run() throws {
            let all = try UserStore(database: try dataOptions.openDatabase()).list()
            if json { try printJSON(all.map(UserSummary.init)); return }
            if all.isEmpty { print("no users yet: add one with 'quintet users add NAME --role admin'") }
            for user in all { print("\(user.name)\t\(user.role.rawValue)") }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a user.")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The user's name.") var name: String

        func run() throws {
            let users = UserStore(database: try dataOptions.openDatabase())
            try storeCall { try users.delete(name: name) }
            print("removed '\(name)'")
        }
    }

    struct Passwd: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a user's password, read from standard input (or asked for on a terminal).")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The user's name.") var name: String

        func run() throws {
            let users = UserStore(database: try dataOptions.openDatabase())
            try storeCall { try users.setPassword(name: name, password: try readPassword()) }
            print("password of '\(name)' changed")
        }
    }
}

/// A user without the password hash, for printing.
struct UserSummary: Encodable {
    let id: Int64?
    let name: String
    let role: String
    let createdAt: Date
    init(_ user: User) { id = user.id; name = user.name; role = user.role.rawValue; createdAt = user.createdAt }
}

extension UserRole: ExpressibleByArgument {}

/// Turns store errors into command-line errors with their message.
func storeCall<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as StoreError { throw ValidationError(error.description) }
}

/// The first line of standard input, or a hidden prompt on a terminal.
func readPassword() throws -> String {
    if isatty(STDIN_FILENO) != 0 {
        guard let raw = getpass("Password: ") else { throw ValidationError("no password given") }
        return String(cString: raw)
    }
    guard let line = readLine(strippingNewline: true) else {
        throw ValidationError("no password on standard input (pipe one line, e.g. echo \"$PASS\" | quintet users add NAME)")
    }
    return line
}
