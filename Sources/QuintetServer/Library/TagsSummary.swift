import Foundation
import MediaTags

/// A file's tags as JSON for people and scripts: pictures are described (type, MIME,
/// description, size), not embedded. Used by `quintet tags --json` and `POST /api/library/tags`.
public struct TagsSummary: Encodable, Sendable {
    public struct Picture: Encodable, Sendable {
        public let type: Int
        public let mimeType: String
        public let description: String
        public let bytes: Int
    }

    public let file: String?
    public let format: String
    public let tags: TagSet
    public let pictures: [Picture]
    public let stream: StreamInfo

    public init(file: String?, info: MediaInfo) {
        self.file = file
        format = info.format.rawValue
        var tags = info.tags
        pictures = tags.pictures.map { Picture(type: $0.type, mimeType: $0.mimeType, description: $0.description, bytes: $0.data.count) }
        tags.pictures = []
        self.tags = tags
        stream = info.stream
    }
}
