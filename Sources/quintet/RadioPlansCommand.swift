import ArgumentParser
import Foundation
import QuintetStore
import Radio

/// `quintet radio plans`: the limits an admin gives users (issue 24 §1, docs/radio.md).
struct RadioPlansCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plans",
        abstract: "Plans: named limits (longest episode, episodes online, storage) given to users.",
        subcommands: [Add.self, List.self, SetLimits.self, Remove.self, Assign.self, Default.self]
    )

    struct Limits: ParsableArguments {
        @Option(name: .customLong("max-episode"), help: ArgumentHelp("Longest episode: 4h, 90m, 3600 or 1:30:00.", valueName: "duration"))
        var maxEpisode: String?
        @Option(name: .customLong("max-online"), help: ArgumentHelp("Episodes online (published) at once; 'none' for no limit.", valueName: "n"))
        var maxOnline: String?
        @Option(name: .customLong("max-storage-mb"), help: ArgumentHelp("Storage of all episodes in MB; 'none' for no limit.", valueName: "mb"))
        var maxStorage: String?

        func seconds() throws -> Int? {
            guard let maxEpisode else { return nil }
            guard let s = RadioCommand.seconds(maxEpisode), s > 0 else {
                throw ValidationError("--max-episode: expected a duration like 4h, 90m, 3600 or 1:30:00, not '\(maxEpisode)'")
            }
            return s
        }

        /// nil: not given; .some(nil): `none`.
        static func count(_ text: String?, _ flag: String) throws -> Int64?? {
            guard let text else { return nil }
            if text.lowercased() == "none" { return .some(nil) }
            guard let n = Int64(text), n >= 0 else { throw ValidationError("\(flag): a whole number ≥ 0 or 'none', not '\(text)'") }
            return .some(n)
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a plan (--max-episode is required).")
        @Argument(help: "The plan's name.") var name: String
        @OptionGroup var limits: Limits
        @Flag(name: .customLong("default"), help: "Make it the plan of users without one.") var isDefault = false
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            guard let seconds = try limits.seconds() else { throw ValidationError("--max-episode is required") }
            let online = try Limits.count(limits.maxOnline, "--max-online") ?? nil
            let storage = try Limits.count(limits.maxStorage, "--max-storage-mb") ?? nil
            let plans = RadioPlans(database: try dataOptions.openDatabase())
            let plan = try radioCall {
                try plans.add(name: name, maxEpisodeSeconds: seconds, maxEpisodesOnline: online.map { Int($0) },
                              maxStorageBytes: storage.map { $0 * 1_048_576 }, isDefault: isDefault)
            }
            print("added plan '\(plan.name)'")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List plans.")
        @Flag(help: "Print as JSON.") var json = false
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let all = try RadioPlans(database: try dataOptions.openDatabase()).list()
            if json { try printJSON(all); return }
            if all.isEmpty { print("no plans: users have no limits (add one with 'quintet radio plans add NAME --max-episode 2h')") }
            for plan in all {
                let online = plan.maxEpisodesOnline.map(String.init) ?? "unlimited"
                let storage = plan.maxStorageBytes.map { "\($0 / 1_048_576) MB" } ?? "unlimited"
                print("\(plan.name)\t\(plan.maxEpisodeSeconds) s\t\(online) online\t\(storage)\(plan.isDefault ? "\tdefault" : "")")
            }
        }
    }

    struct SetLimits: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Change a plan's limits.")
        @Argument(help: "The plan's name.") var name: String
        @OptionGroup var limits: Limits
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let online = try Limits.count(limits.maxOnline, "--max-online")
            let storage = try Limits.count(limits.maxStorage, "--max-storage-mb")
            let seconds = try limits.seconds()
            let plans = RadioPlans(database: try dataOptions.openDatabase())
            let plan = try radioCall {
                try plans.set(name: name, maxEpisodeSeconds: seconds, maxEpisodesOnline: (online ?? nil).map { Int($0) },
                              maxStorageBytes: (storage ?? nil).map { $0 * 1_048_576 },
                              clearEpisodesOnline: online.map { $0 == nil } ?? false, clearStorage: storage.map { $0 == nil } ?? false)
            }
            print("plan '\(plan.name)' changed")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a plan (its users fall back to the default).")
        @Argument(help: "The plan's name.") var name: String
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let plans = RadioPlans(database: try dataOptions.openDatabase())
            try radioCall { try plans.remove(name: name) }
            print("removed plan '\(name)'")
        }
    }

    struct Assign: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give a user a plan ('default' returns them to the default plan).")
        @Argument(help: "The user's name.") var user: String
        @Argument(help: "The plan's name, or 'default'.") var plan: String
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let database = try dataOptions.openDatabase()
            guard let found = try UserStore(database: database).find(name: user) else { throw ValidationError("no user named '\(user)'") }
            try radioCall { try RadioPlans(database: database).assign(userID: found.id!, plan: plan == "default" ? nil : plan) }
            print("'\(found.name)' has plan '\(plan)'")
        }
    }

    struct Default: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a plan the default for users without one ('none': no default).")
        @Argument(help: "The plan's name, or 'none'.") var name: String
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            try radioCall { try RadioPlans(database: try dataOptions.openDatabase()).setDefault(name: name == "none" ? nil : name) }
            print(name == "none" ? "no default plan" : "'\(name)' is the default plan")
        }
    }
}
