import Foundation
import GRDB
import QuintetStore

/// Editing shows and episodes (issue 24 §2): the rules the API, the CLI and the pages share.
/// Only a show's owner or an admin may change it (``editableShow(id:by:includeDeleted:)``).
extension RadioStore {
    /// Longest title of a show or episode, in characters.
    public static let maxTitleLength = 200
    /// Longest description, in characters.
    public static let maxDescriptionLength = 4000

    /// What an edit of a show changes; nil fields stay as they are. An empty `cover`
    /// removes the cover; an empty `category` removes category and subcategory.
    public struct ShowChanges: Sendable, Equatable {
        public var title: String?
        public var description: String?
        public var cover: String?
        public var language: String?
        public var explicit: Bool?
        public var category: String?
        public var subcategory: String?
        public var publishAutomatically: Bool?

        /// No change yet.
        public init(title: String? = nil, description: String? = nil, cover: String? = nil, language: String? = nil,
                    explicit: Bool? = nil, category: String? = nil, subcategory: String? = nil,
                    publishAutomatically: Bool? = nil) {
            self.title = title
            self.description = description
            self.cover = cover
            self.language = language
            self.explicit = explicit
            self.category = category
            self.subcategory = subcategory
            self.publishAutomatically = publishAutomatically
        }
    }

    /// What an edit of an episode changes; nil fields stay. `published` true publishes a
    /// recorded episode, false takes a published one out of the feed (back to `recorded`).
    public struct EpisodeChanges: Sendable, Equatable {
        public var title: String?
        public var description: String?
        public var published: Bool?

        /// No change yet.
        public init(title: String? = nil, description: String? = nil, published: Bool? = nil) {
            self.title = title
            self.description = description
            self.published = published
        }
    }

    /// The show `id` when `user` may edit it (its owner or an admin). Throws
    /// ``RadioStoreError/showNotFound(_:)`` (also for a deleted show unless `includeDeleted`)
    /// or ``RadioStoreError/forbidden(_:)``.
    public func editableShow(id: Int64, by user: User, includeDeleted: Bool = false) throws -> RadioShow {
        guard let show = try show(id: id, includeDeleted: includeDeleted) else {
            throw RadioStoreError.showNotFound("with id \(id)")
        }
        guard Self.may(user, edit: show) else {
            throw RadioStoreError.forbidden("only the owner of show \(id) or an admin may change it")
        }
        return show
    }

    /// Whether `user` may edit `show`: its owner or an admin.
    public static func may(_ user: User, edit show: RadioShow) -> Bool {
        user.role == .admin || (user.id != nil && user.id == show.ownerID)
    }

    /// The episode `id` and its show when `user` may edit them (see ``editableShow(id:by:includeDeleted:)``).
    public func editableEpisode(id: Int64, by user: User, includeDeleted: Bool = false) throws -> (RadioEpisode, RadioShow) {
        guard let episode = try episode(id: id, includeDeleted: includeDeleted) else { throw RadioStoreError.episodeNotFound(id) }
        let show = try editableShow(id: episode.showID, by: user, includeDeleted: includeDeleted)
        return (episode, show)
    }

    /// Changes show `id` as `user` (owner or admin; nil: no check, the CLI on the server's
    /// machine). Every field is checked before anything is written.
    @discardableResult
    public func editShow(id: Int64, by user: User?, _ changes: ShowChanges) throws -> RadioShow {
        var show = try user.map { try editableShow(id: id, by: $0) }
            ?? Self.required(self.show(id: id), RadioStoreError.showNotFound("with id \(id)"))
        if let title = changes.title { show.title = try Self.checkedTitle(title) }
        if let description = changes.description { show.description = try Self.checkedDescription(description) }
        if let cover = changes.cover { show.cover = try normalizedCover(cover) }
        if let language = changes.language { show.language = try Self.checkedLanguage(language) }
        if let explicit = changes.explicit { show.explicit = explicit }
        if let publish = changes.publishAutomatically { show.publishAutomatically = publish }
        if changes.category != nil || changes.subcategory != nil {
            let category = changes.category ?? show.category
            let subcategory = changes.subcategory ?? (changes.category == nil || changes.category == show.category ? show.subcategory : nil)
            let valid = try PodcastCategory.validate(category, subcategory)
            show.category = valid.category
            show.subcategory = valid.subcategory
        }
        let updated = show
        try database.pool.write { db in try updated.update(db) }
        return updated
    }

    /// Changes episode `id` as `user` (nil: no check). Title and description are checked;
    /// publishing needs a finished episode (a live one is ``RadioStoreError/wrongState(_:)``).
    @discardableResult
    public func editEpisode(id: Int64, by user: User?, _ changes: EpisodeChanges, at date: Date = Date()) throws -> RadioEpisode {
        var episode = try user.map { try editableEpisode(id: id, by: $0).0 }
            ?? Self.required(self.episode(id: id), RadioStoreError.episodeNotFound(id))
        if let title = changes.title { episode.title = try Self.checkedTitle(title) }
        if let description = changes.description { episode.description = try Self.checkedDescription(description) }
        if let published = changes.published, published != (episode.state == .published) {
            guard episode.state != .live else {
                throw RadioStoreError.wrongState("episode \(id) is still live: publish or unpublish it when it ends")
            }
            episode.state = published ? .published : .recorded
            episode.publishedAt = published ? date : nil
        }
        let updated = episode
        try database.pool.write { db in try updated.update(db) }
        return updated
    }

    /// Takes a published episode out of the feed (back to `recorded`); others stay as they are.
    @discardableResult
    public func unpublish(episodeID: Int64) throws -> RadioEpisode {
        try editEpisode(id: episodeID, by: nil, EpisodeChanges(published: false))
    }

    // MARK: checks

    /// A trimmed title of 1 to ``maxTitleLength`` characters, else ``RadioStoreError/invalid(_:)``.
    public static func checkedTitle(_ text: String) throws -> String {
        let title = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw RadioStoreError.invalid("a title cannot be empty") }
        guard title.count <= maxTitleLength else {
            throw RadioStoreError.invalid("a title has at most \(maxTitleLength) characters, not \(title.count)")
        }
        return title
    }

    /// A description of at most ``maxDescriptionLength`` characters (trimmed).
    public static func checkedDescription(_ text: String) throws -> String {
        let description = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard description.count <= maxDescriptionLength else {
            throw RadioStoreError.invalid("a description has at most \(maxDescriptionLength) characters, not \(description.count)")
        }
        return description
    }

    /// A BCP 47-looking language tag: 2–3 letters, then `-` and 1–8 letters or digits per part
    /// (`en`, `it-IT`, `es-419`, `zh-Hant-TW`), at most 35 characters.
    public static func checkedLanguage(_ text: String) throws -> String {
        let tag = text.trimmingCharacters(in: .whitespaces)
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        let ok = tag.count <= 35 && !parts.isEmpty
            && (2...3).contains(parts[0].count) && parts[0].allSatisfy { $0.isASCII && $0.isLetter }
            && parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        guard ok else { throw RadioStoreError.invalid("language must be a tag like en, it-IT or es-419, not '\(tag.prefix(40))'") }
        return tag
    }

    // MARK: covers

    /// A cover as stored: nil for none (nil or empty), an `http(s)` URL as given, or a file
    /// path made relative to the data folder — relative paths are taken from the data folder,
    /// absolute ones must lie inside it. A path outside it (or `..` climbing out) is refused.
    public func normalizedCover(_ text: String?) throws -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        let lower = text.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard text.count <= 2000, URL(string: text)?.host != nil else {
                throw RadioStoreError.invalid("the cover URL is not a valid http(s) URL")
            }
            return text
        }
        guard !lower.contains("://") else {
            throw RadioStoreError.invalid("a cover is an http(s) URL or a file inside the data folder")
        }
        guard let relative = relativeToData(text) else {
            throw RadioStoreError.invalid("the cover '\(text.prefix(200))' is outside the data folder \(dataDirectory.path): copy it there first")
        }
        return relative
    }

    /// The cover's file inside the data folder, for a show whose cover is a path (relative,
    /// or absolute inside the data folder as older versions stored it); nil for a URL, no
    /// cover, or a path outside the data folder.
    public func coverFile(of show: RadioShow) -> URL? {
        guard let cover = show.cover, !cover.contains("://"), let relative = relativeToData(cover) else { return nil }
        return dataDirectory.appendingPathComponent(relative)
    }

    /// `path` (absolute, or relative to the data folder) as a path relative to the data folder,
    /// or nil when it leads outside it.
    func relativeToData(_ path: String) -> String? {
        let roots = [dataDirectory.standardizedFileURL.path, dataDirectory.resolvingSymlinksInPath().path]
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : dataDirectory.appendingPathComponent(path)
        for candidate in [url.standardizedFileURL.path, url.resolvingSymlinksInPath().path] {
            for root in roots where candidate.hasPrefix(root + "/") {
                let rest = String(candidate.dropFirst(root.count + 1))
                if !rest.isEmpty, !rest.split(separator: "/").contains("..") { return rest }
            }
        }
        return nil
    }
}

extension RadioStore {
    /// `value`, or `error` thrown when it is nil.
    static func required<T>(_ value: T?, _ error: @autoclosure () -> RadioStoreError) throws -> T {
        guard let value else { throw error() }
        return value
    }
}
