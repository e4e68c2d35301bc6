import Foundation
import GRDB

/// The live chat's storage: messages kept with their episode, deletions, mutes.
///
/// ```swift
/// let message = try radio.postChatMessage(showID: show.id!, episodeID: live.id!, userID: ada.id!,
///                                         name: ada.name, text: "hello")
/// let history = try radio.chatMessages(episodeID: live.id!, last: 50)   // oldest first
/// try radio.muteChatUser(showID: show.id!, userID: troll.id!, until: Date() + 600)
/// ```
extension RadioStore {
    /// Messages a client gets when it joins a live chat.
    public static let chatHistoryCount = 50

    /// Stores a message of user `userID` (shown as `name`) in the chat of show `showID`, tied to
    /// episode `episodeID`. The text is cleaned by ``RadioChatText/clean(_:)``; throws
    /// ``RadioStoreError/invalid(_:)`` when it is empty or too long, or when the episode is not
    /// one of the show's.
    public func postChatMessage(showID: Int64, episodeID: Int64, userID: Int64, name: String, text: String,
                                at date: Date = Date()) throws -> RadioChatMessage {
        guard let clean = RadioChatText.clean(text) else {
            throw RadioStoreError.invalid("a chat message has 1 to \(RadioChatText.maxScalars) characters")
        }
        return try database.pool.write { db in
            guard let episode = try RadioEpisode.fetchOne(db, key: episodeID), episode.showID == showID else {
                throw RadioStoreError.invalid("episode \(episodeID) is not an episode of show \(showID)")
            }
            var message = RadioChatMessage(id: nil, showID: showID, episodeID: episodeID, userID: userID,
                                           name: name, text: clean, sentAt: date, deleted: false)
            try message.insert(db)
            return message
        }
    }

    /// The chat of episode `episodeID`, oldest first: the `last` newest messages (all when
    /// nil). Deleted messages are left out unless `includeDeleted`.
    public func chatMessages(episodeID: Int64, last: Int? = nil, includeDeleted: Bool = false) throws -> [RadioChatMessage] {
        try database.pool.read { db in
            var request = RadioChatMessage.filter(Column("episode_id") == episodeID)
            if !includeDeleted { request = request.filter(Column("deleted") == false) }
            if let last {
                return try request.order(Column("id").desc).limit(max(last, 0)).fetchAll(db).reversed()
            }
            return try request.order(Column("id")).fetchAll(db)
        }
    }

    /// The message with this id, deleted or not, or nil.
    public func chatMessage(id: Int64) throws -> RadioChatMessage? {
        try database.pool.read { db in try RadioChatMessage.fetchOne(db, key: id) }
    }

    /// Marks message `id` of show `showID` deleted and returns it; nil when the show has no
    /// such message. Deleting twice is harmless.
    @discardableResult
    public func deleteChatMessage(id: Int64, showID: Int64) throws -> RadioChatMessage? {
        try database.pool.write { db in
            guard var message = try RadioChatMessage.fetchOne(db, key: id), message.showID == showID else { return nil }
            message.deleted = true
            try message.update(db)
            return message
        }
    }

    /// Mutes user `userID` in show `showID`'s chat until `until` (replacing an earlier mute;
    /// a time in the past lifts it). Throws ``RadioStoreError/invalid(_:)`` when there is no
    /// such user or show.
    public func muteChatUser(showID: Int64, userID: Int64, until: Date) throws {
        try database.pool.write { db in
            guard try RadioShow.fetchOne(db, key: showID) != nil,
                  try Row.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [userID]) != nil else {
                throw RadioStoreError.invalid("no user \(userID) or no show \(showID) to mute in")
            }
            try RadioChatMute(showID: showID, userID: userID, until: until).save(db)
        }
    }

    /// Until when user `userID` is muted in show `showID`, or nil when not muted at `now`.
    public func chatMutedUntil(showID: Int64, userID: Int64, at now: Date = Date()) throws -> Date? {
        try database.pool.read { db in
            guard let mute = try RadioChatMute.fetchOne(db, key: ["show_id": showID, "user_id": userID]),
                  mute.until > now else { return nil }
            return mute.until
        }
    }
}
