import Foundation

/// Parsing of the small values every tag format writes as text.
public enum TagValues {
    /// "3", "03", "3/12", " 3 / 12 " → (3, 12); (nil, nil) when not numbers.
    public static func numberPair(_ text: String) -> (number: Int?, total: Int?) {
        let parts = text.split(separator: "/", maxSplits: 1).map { $0.trimmingSpaces() }
        let number = parts.first.flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
        let total = parts.count > 1 ? Int(parts[1]).flatMap { $0 >= 0 ? $0 : nil } : nil
        return (number, total)
    }

    /// The year of a date written as "1997", "1997-05-12", "1997/05", "12.05.1997" or
    /// "1997-05-12T10:00:00": the first run of four digits between 1000 and 2999.
    public static func year(_ text: String) -> Int? {
        var digits = ""
        for ch in text + " " {
            if ch.isASCII && ch.isNumber { digits.append(ch); continue }
            if digits.count == 4, let y = Int(digits), (1000...2999).contains(y) { return y }
            digits = ""
        }
        return nil
    }

    /// A positive BPM from text such as "128", "128.5", "128,5"; nil otherwise.
    public static func bpm(_ text: String) -> Double? {
        let cleaned = text.trimmingSpaces().replacingOccurrences(of: ",", with: ".")
        guard let value = Double(cleaned), value.isFinite, value > 0, value < 1_000 else { return nil }
        return value
    }

    /// "1", "true", "yes" (any case) → true.
    public static func flag(_ text: String) -> Bool {
        ["1", "true", "yes"].contains(text.trimmingSpaces().lowercased())
    }

    /// The image type of picture bytes from their signature, else "application/octet-stream".
    public static func imageMimeType(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        if bytes.starts(with: Array("BM".utf8)) { return "image/bmp" }
        return "application/octet-stream"
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs — what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` removes (Unicode category Zs, U+0009 and, as
    /// Foundation has it, U+200B ZERO WIDTH SPACE), without
    /// its round trip through UTF-16, which showed in library scans.
    package func trimmingSpaces() -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return "" }
        if !isSpace(first) && !isSpace(last) { return String(self) }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = scalars.lastIndex(where: { !isSpace($0) })!
        return String(String.UnicodeScalarView(scalars[start...end]))
    }
}
