import ArgumentParser
import Foundation
import QuintetServer
import QuintetStore
import Radio

/// `quintet radio edit-show`, `delete-show`, `restore-show`, `delete-episode`, `restore-episode`
/// (issue 24 §2): the editors' rules (RadioStore+Editing, +Trash) on the command line, run by
/// whoever administers the data folder (no owner check).
extension RadioCommand {
    /// `quintet radio edit-show ID --title …`.
    struct EditShow: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit-show",
            abstract: "Change a show's title, description, cover, language, explicit flag, category or auto-publishing.",
            discussion: "Only the options given change. --cover '' removes the cover; --category '' removes category and subcategory.")
        @Argument(help: "The show's id.") var id: Int64
        @Option(help: "The title (1-200 characters).") var title: String?
        @Option(help: "A plain-text description (at most 4000 characters).") var description: String?
        @Option(help: "Cover art: an http(s) URL or a path inside the data folder (absolute or relative to it).") var cover: String?
        @Option(help: "Language tag, e.g. en, it-IT.") var language: String?
        @Option(help: ArgumentHelp("Mark the show explicit: true or false.", valueName: "true|false")) var explicit: Bool?
        @Option(help: "Apple Podcasts category, e.g. Music.") var category: String?
        @Option(help: "A subcategory of the category, e.g. \"Music Commentary\".") var subcategory: String?
        @Option(name: .customLong("auto-publish"), help: ArgumentHelp("Publish finished broadcasts at once: true or false.", valueName: "true|false"))
        var autoPublish: Bool?
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let changes = RadioStore.ShowChanges(title: title, description: description, cover: cover, language: language,
                                                 explicit: explicit, category: category, subcategory: subcategory,
                                                 publishAutomatically: autoPublish)
            let show = try radioCall { try RadioStore(database: database).editShow(id: id, by: nil, changes) }
            let category = [show.category, show.subcategory].compactMap { $0 }.joined(separator: " › ")
            print("show \(show.id!) '\(show.title)' (\(show.language)\(category.isEmpty ? "" : ", \(category)")\(show.cover.map { ", cover \($0)" } ?? ""))")
        }
    }

    /// `quintet radio delete-show ID`.
    struct DeleteShow: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete-show",
            abstract: "Delete a show: hidden at once, restorable with restore-show for 30 days, then purged.")
        @Argument(help: "The show's id.") var id: Int64
        @Flag(help: "Remove the show, its episodes and files now (no undo).") var purge = false
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let radio = RadioStore(database: database)
            if purge {
                try radioCall { try radio.purgeShow(id: id) }
                print("purged show \(id) and its episodes")
            } else {
                try radioCall { _ = try radio.deleteShow(id: id, by: nil) }
                print("deleted show \(id): 'quintet radio restore-show \(id)' undoes it within \(RadioStore.undoDays) days")
            }
        }
    }

    /// `quintet radio restore-show ID`.
    struct RestoreShow: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "restore-show", abstract: "Undo delete-show (within 30 days).")
        @Argument(help: "The show's id.") var id: Int64
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let show = try radioCall { try RadioStore(database: database).restoreShow(id: id, by: nil) }
            print("restored show \(show.id!) '\(show.title)'")
        }
    }

    /// `quintet radio delete-episode ID`.
    struct DeleteEpisode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete-episode",
            abstract: "Delete an episode: hidden at once, restorable with restore-episode for 30 days, then purged.")
        @Argument(help: "The episode's id.") var id: Int64
        @Flag(help: "Remove the episode and its file now (no undo).") var purge = false
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let radio = RadioStore(database: database)
            if purge {
                try radioCall { try radio.purgeEpisode(id: id) }
                print("purged episode \(id) and its file")
            } else {
                try radioCall { _ = try radio.deleteEpisode(id: id) }
                print("deleted episode \(id): 'quintet radio restore-episode \(id)' undoes it within \(RadioStore.undoDays) days")
            }
        }
    }

    /// `quintet radio restore-episode ID`.
    struct RestoreEpisode: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "restore-episode", abstract: "Undo delete-episode (within 30 days).")
        @Argument(help: "The episode's id.") var id: Int64
        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let database = try dataOptions.openDatabase()
            defer { try? database.close() }
            let episode = try radioCall { try RadioStore(database: database).restoreEpisode(id: id, by: nil) }
            print("restored episode \(episode.id!) '\(episode.title)' (\(episode.state.rawValue))")
        }
    }
}
