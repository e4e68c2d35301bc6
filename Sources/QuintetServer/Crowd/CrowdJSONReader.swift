import Foundation

/// Reads a report body: one JSON object (RFC 8259) whose members are kept as
/// ``CrowdJSONValue``s, so that each field is judged on its own. Strict: anything that is not
/// exactly one JSON object (trailing bytes, `NaN`, `Infinity`, single quotes, comments, invalid
/// UTF-8, a lone surrogate escape) is refused as a whole. Nested arrays and objects are checked
/// and kept as ``CrowdJSONValue/structure`` (never a valid field here). Written by hand because a
/// report is the hot path (a few hundred bytes, ten fields at most): no tree of Foundation
/// objects, no thrown errors per field.
struct CrowdJSONReader {
    private let bytes: [UInt8]
    private var index = 0
    /// Deepest nesting accepted (the body is small anyway: 16 KiB).
    static let maxDepth = 64

    /// The members of the object in `bytes`, or nil when `bytes` is not one JSON object.
    static func object(_ bytes: [UInt8]) -> [String: CrowdJSONValue]? {
        members(bytes)?.members
    }

    /// The members of the object in `bytes` and the first member name that appears more than
    /// once (RFC 8259 leaves duplicates to the reader; readers differ — first or last wins — so
    /// a report with one is refused, naming the field), or nil when `bytes` is not one object.
    static func members(_ bytes: [UInt8]) -> (members: [String: CrowdJSONValue], duplicate: String?)? {
        var reader = CrowdJSONReader(bytes: bytes)
        guard let object = reader.readObject(), reader.atEnd() else { return nil }
        return (object, reader.duplicate)
    }

    /// The first top-level member name seen twice.
    private var duplicate: String?

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func atEnd() -> Bool {
        skipSpace()
        return index == bytes.count
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func readObject() -> [String: CrowdJSONValue]? {
        guard consume(UInt8(ascii: "{")) else { return nil }
        var members: [String: CrowdJSONValue] = [:]
        if consume(UInt8(ascii: "}")) { return members }
        repeat {
            skipSpace()
            guard let key = readString(), consume(UInt8(ascii: ":")), let value = readValue(depth: 1) else { return nil }
            if duplicate == nil, members[key] != nil { duplicate = key }
            members[key] = value
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else { return nil }
        return members
    }

    private mutating func readValue(depth: Int) -> CrowdJSONValue? {
        skipSpace()
        guard index < bytes.count, depth <= Self.maxDepth else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return readString().map { .string($0) }
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "{"):
            index += 1
            if consume(UInt8(ascii: "}")) { return .structure }
            repeat {
                skipSpace()
                guard readString() != nil, consume(UInt8(ascii: ":")), readValue(depth: depth + 1) != nil else { return nil }
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "}")) ? .structure : nil
        case UInt8(ascii: "["):
            index += 1
            if consume(UInt8(ascii: "]")) { return .structure }
            repeat {
                guard readValue(depth: depth + 1) != nil else { return nil }
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "]")) ? .structure : nil
        default: return readNumber()
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; a value beyond a double is ``CrowdJSONValue/hugeNumber``.
    private mutating func readNumber() -> CrowdJSONValue? {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return nil }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { return nil }
        return value.isFinite ? .number(value) : .hugeNumber
    }

    /// A string at `index` (which must be `"`): escapes decoded, UTF-8 checked.
    private mutating func readString() -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: bytes[start..<index], as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { return nil }
            index += 1
        }
        var out = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard var code = hex4() else { return nil }
                    if (0xD800...0xDBFF).contains(code) {
                        guard literal("\\u"), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        return nil
                    }
                    guard let scalar = Unicode.Scalar(code) else { return nil }
                    out.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                out.append(byte)
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
