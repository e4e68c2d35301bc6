import Foundation

/// The outcome of a request's `Range` header for a file of known length (RFC 9110 §14).
public enum ByteRangeAnswer: Sendable, Hashable {
    /// Send the whole file with 200 (no Range header, or one to ignore).
    case whole
    /// Send these bytes with 206 and `Content-Range: bytes a-b/length`.
    case partial(ClosedRange<Int64>)
    /// Answer 416 with `Content-Range: bytes */length`.
    case unsatisfiable

    /// Resolves a `Range` header value against a file of `length` bytes.
    ///
    /// - `bytes=a-b` (b clamped to the last byte), `bytes=a-`, `bytes=-n` (the last n bytes;
    ///   the whole file when n ≥ length); the unit is case-insensitive, spaces around parts are
    ///   allowed.
    /// - Several ranges: only the **first satisfiable** one is served, as a single-part 206
    ///   (podcast apps and browsers ask for one range; no multipart/byteranges); none
    ///   satisfiable → 416.
    /// - A syntactically invalid header (another unit, `a-b` with b < a, not a number) is
    ///   ignored: the whole file (RFC 9110 §14.2 lets a server ignore Range).
    /// - Satisfiable means the first position is below `length` (`-n` needs n > 0 and a
    ///   non-empty file).
    ///
    /// ```swift
    /// ByteRangeAnswer(header: "bytes=0-99", length: 1000)   // .partial(0...99)
    /// ```
    public init(header: String?, length: Int64) {
        guard let header else { self = .whole; return }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard let eq = trimmed.firstIndex(of: "="),
              trimmed[..<eq].trimmingCharacters(in: .whitespaces).lowercased() == "bytes"
        else { self = .whole; return }
        var specs: [(first: Int64?, last: Int64?)] = []
        for part in trimmed[trimmed.index(after: eq)...].split(separator: ",", omittingEmptySubsequences: false) {
            let spec = part.trimmingCharacters(in: .whitespaces)
            if spec.isEmpty { continue }  // RFC 9110 allows empty list elements
            guard let dash = spec.firstIndex(of: "-") else { self = .whole; return }
            let a = spec[..<dash].trimmingCharacters(in: .whitespaces)
            let b = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
            let first = a.isEmpty ? nil : Self.number(a)
            let last = b.isEmpty ? nil : Self.number(b)
            if (!a.isEmpty && first == nil) || (!b.isEmpty && last == nil) || (a.isEmpty && b.isEmpty) {
                self = .whole
                return
            }
            if let first, let last, last < first { self = .whole; return }
            specs.append((first, last))
        }
        guard !specs.isEmpty else { self = .whole; return }
        for spec in specs {
            if let first = spec.first {
                guard first < length else { continue }
                self = .partial(first...min(spec.last ?? (length - 1), length - 1))
                return
            } else if let suffix = spec.last, suffix > 0, length > 0 {
                self = .partial(max(0, length - suffix)...(length - 1))
                return
            }
        }
        self = .unsatisfiable
    }

    /// Digits only; values beyond `Int64.max` saturate (they are past any file's end).
    private static func number(_ s: String) -> Int64? {
        guard !s.isEmpty, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(s) ?? .max
    }

    /// The `Content-Range` value for this answer (`nil` for ``whole``).
    public func contentRange(length: Int64) -> String? {
        switch self {
        case .whole: nil
        case .partial(let r): "bytes \(r.lowerBound)-\(r.upperBound)/\(length)"
        case .unsatisfiable: "bytes */\(length)"
        }
    }
}
