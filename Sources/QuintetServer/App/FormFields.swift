import Foundation

/// Fields of a query string or an `application/x-www-form-urlencoded` body, decoded the way
/// browsers and HTML forms encode them: `+` is a space, `%XX` a byte of UTF-8. (Hummingbird's
/// `queryParameters` leaves `+` as it is and keys undecoded, so `q=copper+sky` would search
/// for "copper+sky".) Keys may repeat (`id=1&id=2`); a malformed escape keeps its raw text.
public struct FormFields: Sendable {
    public private(set) var pairs: [(name: String, value: String)] = []

    public init(_ encoded: String?) {
        guard let encoded, !encoded.isEmpty else { return }
        for part in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring, value: Substring
            if let equals = part.firstIndex(of: "=") {
                name = part[..<equals]
                value = part[part.index(after: equals)...]
            } else {
                name = part
                value = ""
            }
            pairs.append((Self.decode(name), Self.decode(value)))
        }
    }

    /// The first value of `name`, or nil.
    public func get(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value of `name`, in order.
    public func all(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// `+` as a space and `%XX` as a byte; a malformed escape, or escaped bytes that are not
    /// UTF-8, leave the text as it came (with `+` as spaces). Byte by byte: Foundation's
    /// `replacingOccurrences` and `removingPercentEncoding` were a sixth of a small request's CPU.
    static func decode(_ text: Substring) -> String {
        let plus = UInt8(ascii: "+"), percent = UInt8(ascii: "%")
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == plus || $0 == percent }) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var malformed = false
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            utf8.formIndex(after: &index)
            if byte == plus {
                bytes.append(UInt8(ascii: " "))
            } else if byte == percent {
                guard index != utf8.endIndex, let high = utf8[index].hexDigitValue else { malformed = true; break }
                utf8.formIndex(after: &index)
                guard index != utf8.endIndex, let low = utf8[index].hexDigitValue else { malformed = true; break }
                utf8.formIndex(after: &index)
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        if !malformed, let decoded = String(validating: bytes, as: UTF8.self) { return decoded }
        return String(decoding: utf8.map { $0 == plus ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }
}

extension UInt8 {
    /// The value of an ASCII hex digit (`0-9`, `a-f`, `A-F`), nil for anything else.
    var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
