/// The outcome of a request's `Range` header for a representation of known length
/// (RFC 9110 §14): one rule for every file Quintet serves (library songs, covers, podcast
/// episodes).
///
/// The rule:
/// - **One range** (`bytes=a-b`, `bytes=a-`, `bytes=-n`): ``partial(_:)`` with the end
///   clamped to the last byte (`-n` past the start is the whole file as a 206), or
///   ``unsatisfiable`` when it starts at or past the end (`bytes=-0` included).
/// - **Two or more ranges**: ``whole``. Quintet writes no `multipart/byteranges`, and serving
///   only some of the ranges asked for is not an answer RFC 9110 describes; ignoring the
///   header is (§14.2). Empty list elements do not count (`bytes=0-9,` is one range).
/// - **Anything malformed** (another unit, `b < a`, a sign, not a number, nothing at all):
///   ``whole``, ignored as §14.2 allows. The unit is case-insensitive; spaces around the
///   parts are allowed; numbers past `Int64.max` saturate (they lie past any end).
/// - **An empty representation**: ``whole`` (there is no byte to point at).
/// - **`If-Range`** (§13.1.5): the range applies only when the validator matches the current
///   ETag or `Last-Modified` exactly; else ``whole``.
///
/// ```swift
/// ByteRangeAnswer(header: "bytes=0-99", length: 1000)          // .partial(0...99)
/// ByteRangeAnswer(header: "bytes=0-9,20-29", length: 1000)     // .whole
/// ```
public enum ByteRangeAnswer: Sendable, Hashable {
    /// Send the whole representation with 200 (no Range header, or one to ignore).
    case whole
    /// Send these bytes with 206 and `Content-Range: bytes a-b/length`.
    case partial(ClosedRange<Int64>)
    /// Answer 416 with `Content-Range: bytes */length`.
    case unsatisfiable

    /// Resolves a `Range` header value against `length` bytes (the rule above).
    public init(header: String?, length: Int64) {
        guard let header, length > 0, let specs = Self.specs(header), specs.count == 1 else {
            self = .whole
            return
        }
        let (first, last) = specs[0]
        if let first {
            self = first < length ? .partial(first...min(last ?? (length - 1), length - 1)) : .unsatisfiable
        } else if let suffix = last, suffix > 0 {
            self = .partial(max(0, length - suffix)...(length - 1))
        } else {
            self = .unsatisfiable
        }
    }

    /// Resolves `header` only when `ifRange` is absent or names the representation's current
    /// `etag` or `lastModified` (an HTTP date, compared as text: RFC 9110 §13.1.5 asks for an
    /// exact match); a stale validator means the file changed, so the whole of it is sent.
    public init(header: String?, ifRange: String?, etag: String, lastModified: String, length: Int64) {
        let current = ifRange == nil || ifRange == etag || ifRange == lastModified
        self.init(header: current ? header : nil, length: length)
    }

    /// The `Content-Range` value for this answer (`nil` for ``whole``).
    public func contentRange(length: Int64) -> String? {
        switch self {
        case .whole: nil
        case .partial(let r): "bytes \(r.lowerBound)-\(r.upperBound)/\(length)"
        case .unsatisfiable: "bytes */\(length)"
        }
    }

    /// The range specs of a `bytes=` header, or nil when the header is malformed.
    private static func specs(_ header: String) -> [(first: Int64?, last: Int64?)]? {
        let trimmed = Substring(header).trimmingSpaces
        guard let eq = trimmed.firstIndex(of: "="), trimmed[..<eq].trimmingSpaces.lowercased() == "bytes" else {
            return nil
        }
        var specs: [(first: Int64?, last: Int64?)] = []
        for part in trimmed[trimmed.index(after: eq)...].split(separator: ",", omittingEmptySubsequences: false) {
            let spec = part.trimmingSpaces
            if spec.isEmpty { continue }  // RFC 9110 §5.6.1 allows empty list elements
            guard let dash = spec.firstIndex(of: "-") else { return nil }
            let a = spec[..<dash].trimmingSpaces, b = spec[spec.index(after: dash)...].trimmingSpaces
            if a.isEmpty && b.isEmpty { return nil }
            let first = a.isEmpty ? nil : number(a), last = b.isEmpty ? nil : number(b)
            if (!a.isEmpty && first == nil) || (!b.isEmpty && last == nil) { return nil }
            if let first, let last, last < first { return nil }
            specs.append((first, last))
        }
        return specs.isEmpty ? nil : specs
    }

    /// Digits only; values beyond `Int64.max` saturate.
    private static func number(_ s: Substring) -> Int64? {
        guard !s.isEmpty, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(s) ?? .max
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        return self[start...lastIndex(where: { !isSpace($0) })!]
    }
}
