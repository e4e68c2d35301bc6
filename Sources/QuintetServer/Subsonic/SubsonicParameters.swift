import Foundation

/// The parameters of a Subsonic call: the query string and, for a POST, the form-encoded
/// body, both read by `FormFields` (`+` is a space, `%XX` a byte of UTF-8). A name may
/// repeat (`songId=1&songId=2`); `all(_:)` returns every value in order, query first.
struct SubsonicParameters: Sendable {
    private var fields: [FormFields] = []

    init() {}

    init(formEncoded text: String) {
        add(formEncoded: text)
    }

    mutating func add(formEncoded text: String) {
        fields.append(FormFields(text))
    }

    /// The first value of a parameter, or nil.
    subscript(_ name: String) -> String? { fields.lazy.compactMap { $0.get(name) }.first }

    /// Every value of a repeated parameter, in order.
    func all(_ name: String) -> [String] { fields.flatMap { $0.all(name) } }

    /// A value that must be present and not empty (error 10 otherwise).
    func required(_ name: String) throws -> String {
        guard let value = self[name], !value.isEmpty else { throw SubsonicError.missing(name) }
        return value
    }

    /// An integer parameter clamped into `range` (clients send sizes beyond the limits; a
    /// clamp serves them better than an error); nil when absent, error 0 when not a number.
    func int(_ name: String, clampedTo range: ClosedRange<Int>) throws -> Int? {
        guard let text = self[name], !text.isEmpty else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let unsigned = trimmed.hasPrefix("-") || trimmed.hasPrefix("+") ? trimmed.dropFirst() : Substring(trimmed)
        guard !unsigned.isEmpty, unsigned.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw SubsonicError.invalid(name, text, expected: "an integer")
        }
        // A number too long for Int is still a number: clamp it by its sign.
        guard let number = Int(trimmed) else { return trimmed.hasPrefix("-") ? range.lowerBound : range.upperBound }
        return min(max(number, range.lowerBound), range.upperBound)
    }

    /// `true`/`false` (also `1`/`0`); nil when absent, error 0 otherwise.
    func bool(_ name: String) throws -> Bool? {
        guard let text = self[name]?.lowercased(), !text.isEmpty else { return nil }
        switch text {
        case "true", "1": return true
        case "false", "0": return false
        default: throw SubsonicError.invalid(name, text, expected: "true or false")
        }
    }
}
