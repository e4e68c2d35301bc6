import Foundation
import Hummingbird

/// The one JSON convention of `/api`: keys in snake_case (`album_artist_id`), dates in
/// ISO 8601 UTC (`2026-11-25T18:04:05Z`), `/` unescaped, keys sorted, and the non-finite
/// doubles a core might produce as the strings `"inf"`, `"-inf"`, `"nan"`. Every JSON answer
/// of `/api` is written here, either by returning a value (the context's ``ResponseEncoder``)
/// or through ``response(_:status:headers:)`` when the status or headers differ:
///
/// ```swift
/// router.get("api/radio/shows") { _, _ in try APIJSON.response(shows) }          // 200
/// router.post("api/library/scan") { _, _ in try APIJSON.response(status, status: .accepted) }
/// ```
///
/// Two answers keep another document's keys, on purpose: `POST /api/library/tags` and
/// `POST /api/runner/cadence` answer exactly what `quintet tags --json` and
/// `quintet cadence --json` print (see docs/architecture.md, "JSON convention"). Crowd writes
/// its hot answers by hand (``CrowdJSONWriter``), in this same convention.
public enum APIJSON {
    /// The media type of every JSON answer.
    public static let contentType = "application/json; charset=utf-8"

    /// How keys are written.
    public enum Keys: Sendable {
        /// The convention: `albumArtistID` → `album_artist_id`.
        case snakeCase
        /// As the type declares them: only for answers that are another document verbatim
        /// (`quintet tags --json`'s), whose keys clients already read.
        case asDeclared
    }

    /// A new encoder with the convention's settings.
    public static func encoder(keys: Keys = .snakeCase) -> JSONEncoder {
        let encoder = JSONEncoder()
        if keys == .snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    /// `value` as a JSON answer.
    public static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok,
                                headers: HTTPFields = [:], keys: Keys = .snakeCase) throws -> Response {
        let data = try encoder(keys: keys).encode(value)
        var fields: HTTPFields = [.contentType: contentType]
        fields.append(contentsOf: headers)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Writes the values routes return (``QuintetRequestContext/responseEncoder``).
    public struct ResponseEncoder: Hummingbird.ResponseEncoder {
        public init() {}

        public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
            try APIJSON.response(value)
        }
    }
}
