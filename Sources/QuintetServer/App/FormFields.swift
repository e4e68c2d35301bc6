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

    static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
