import Foundation
import HTTPTypes
import Hummingbird
import MediaTags
import WireFormats

/// A file on disk answered over HTTP: `Range` and `If-Range` (``ByteRangeAnswer``'s rule: one
/// range; several are answered with the whole file), `ETag`, `Last-Modified`, `HEAD`, and an
/// optional download name. The one copy behind the library's and Subsonic's streams and the
/// radio's episode downloads.
///
/// ```swift
/// return try await FileAnswer(path: url.path, contentType: "audio/mpeg", cacheControl: "private, max-age=3600",
///                             missing: APIError(.notFound, code: "file_missing", message: "…"))
///     .response(to: request, context: context)
/// ```
struct FileAnswer: Sendable {
    var path: String
    var contentType: String
    var cacheControl: String
    /// The error thrown when the file is not there.
    var missing: APIError
    /// A name for `Content-Disposition: attachment` (nil: no such header), written by
    /// ``ContentDisposition`` (an ASCII `filename` and the exact `filename*`).
    var downloadName: String? = nil
    /// How the file is named in a 416's message ("the file", "episode 4").
    var described = "the file"

    /// The answer. `beforeBody` runs once the range is known and before any byte is sent
    /// (nil: the whole file); it does not run for `HEAD` or an empty file.
    func response(to request: Request, context: some RequestContext,
                  beforeBody: (@Sendable (ClosedRange<Int64>?) async throws -> Void)? = nil) async throws -> Response {
        let path = self.path
        guard let facts = try await Blocking.run({ FileFacts(path: path) }) else { throw missing }
        let size = Int64(facts.size)
        let modified = UTCDate.http(Date(timeIntervalSince1970: Double(facts.modified)))
        let etag = "\"\(String(size, radix: 16))-\(String(facts.modified, radix: 16))\""
        var headers: HTTPFields = [
            .contentType: contentType, .acceptRanges: "bytes", .eTag: etag,
            .lastModified: modified, .cacheControl: cacheControl,
        ]
        if let downloadName {
            headers[.contentDisposition] = ContentDisposition.attachment(filename: downloadName)
        }
        // If-Range with another validator: the file changed, send it whole (RFC 9110 §13.1.5).
        let rangeHeader = request.headers[.range]
        var range: ClosedRange<Int64>?
        switch ByteRangeAnswer(header: rangeHeader, ifRange: request.headers[.ifRange], etag: etag,
                               lastModified: modified, length: size) {
        case .whole: break
        case .partial(let r): range = r
        case .unsatisfiable:
            var error = APIError(.rangeNotSatisfiable, code: "range_not_satisfiable",
                                 message: "\(described) has \(size) bytes; the range \(rangeHeader ?? "") lies outside")
            error.headers = [.contentRange: "bytes */\(size)"]
            throw error
        }
        let length = range.map { $0.upperBound - $0.lowerBound + 1 } ?? size
        headers[.contentLength] = String(length)
        if let range { headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)" }
        let status: HTTPResponse.Status = range == nil ? .ok : .partialContent
        if request.method == .head || length == 0 {
            return Response(status: status, headers: headers, body: ResponseBody())
        }
        try await beforeBody?(range)
        let span = range.map { Int($0.lowerBound)...Int($0.upperBound) } ?? 0...Int(size - 1)
        let body = try await FileIO().loadFile(path: path, range: span, context: context)
        return Response(status: status, headers: headers, body: body)
    }
}
