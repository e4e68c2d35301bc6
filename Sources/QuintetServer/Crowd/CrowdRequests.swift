import Crowd
import Foundation
import Hummingbird

/// One JSON value of a report body, kept as it came so that each field can be checked on its
/// own and a wrong one named: `true` is not a number, `200.5` is not an integer, `1e400` is a
/// number no double holds. Read by ``CrowdJSONReader``.
enum CrowdJSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    /// A number literal too large for a double (`1e400`).
    case hugeNumber
    case string(String)
    /// An array or an object: never a valid field value here.
    case structure
}

/// Turns requests into the core's ``CrowdReport`` and ``CrowdSearch``, strictly: every
/// missing-but-required, wrongly typed, non-integral or out-of-range field is a 400 naming it
/// (`{"error": {"code": "invalid_input", "message": …, "field": "lat"}}`); unknown fields are
/// ignored. The ranges are ``CrowdRules``'s, checked by ``CrowdRules/validate(_:)-(CrowdReport)``.
enum CrowdRequests {
    /// The largest report body read (bytes); a longer one is a 413, refused before it is all read.
    static let maxBodyBytes = 16 * 1024

    /// A 400 naming `field`.
    static func invalid(_ field: String, _ reason: String) -> APIError {
        var error = APIError(.badRequest, code: "invalid_input", message: "\(field) \(reason)")
        error.field = field
        return error
    }

    /// The same 400 for a rule the core states.
    static func invalid(_ error: CrowdValidationError) -> APIError {
        invalid(error.field, error.reason)
    }

    // MARK: report bodies

    /// A report body's fields as sent, before the token is keyed.
    struct ReportFields: Sendable {
        var device: String
        var lat: Double
        var lon: Double
        var age: Int?
        var sex: CrowdSex?
        var comment: String?
        var radius: Int
        var min: Int
        var max: Int
        var limit: Int

        /// The core's report for the device key of ``device``.
        func report(device key: DeviceKey) -> CrowdReport {
            CrowdReport(device: key, lat: lat, lon: lon, age: age, sex: sex, comment: comment,
                        radius: radius, min: min, max: max, limit: limit)
        }
    }

    /// Parses and checks a report body (JSON object). Throws the 400 of the first bad field, in
    /// the order device, lat, lon, age, sex, comment, radius, min, max, limit.
    static func reportFields(json bytes: some Collection<UInt8>) throws -> ReportFields {
        guard let (object, duplicate) = CrowdJSONReader.members(Array(bytes)) else {
            throw invalid("body", "must be a JSON object (the report)")
        }
        if let duplicate { throw invalid(duplicate, "appears more than once in the report") }
        guard let deviceValue = present(object["device"]) else { throw invalid("device", "is required (a string of 1 to 64 characters)") }
        guard case .string(let device) = deviceValue else { throw invalid("device", "must be a string of 1 to 64 characters") }
        do { try CrowdRules.validate(deviceToken: device) } catch let error as CrowdValidationError { throw invalid(error) }
        let lat = try requiredNumber(object, "lat", "must be a number in [-90, 90]")
        let lon = try requiredNumber(object, "lon", "must be a number in [-180, 180]")
        let age = try optionalInteger(object, "age", "must be an integer in [0, 150]")
        var sex: CrowdSex?
        if let value = present(object["sex"]) {
            guard case .string(let text) = value, let parsed = CrowdSex(rawValue: text) else {
                throw invalid("sex", "must be \"m\" or \"f\"")
            }
            sex = parsed
        }
        var comment: String?
        if let value = present(object["comment"]) {
            guard case .string(let text) = value else { throw invalid("comment", "must be a string of 1 to 200 characters") }
            comment = text
        }
        let fields = ReportFields(
            device: device, lat: lat, lon: lon, age: age, sex: sex, comment: comment,
            radius: try optionalInteger(object, "radius", "must be an integer in [15, 2000] (metres)") ?? CrowdRules.defaultRadius,
            min: try optionalInteger(object, "min", "must be an integer in [1, 100]") ?? CrowdRules.defaultMin,
            max: try optionalInteger(object, "max", "must be an integer in [1, 100]") ?? CrowdRules.defaultMax,
            limit: try optionalInteger(object, "limit", "must be an integer in [1, 20000]") ?? CrowdRules.defaultLimit)
        do {
            try CrowdRules.validate(fields.report(device: DeviceKey(bytes: [])))
        } catch let error as CrowdValidationError {
            throw invalid(error)
        }
        return fields
    }

    /// A value that is there and not `null` (`null` counts as absent).
    private static func present(_ value: CrowdJSONValue?) -> CrowdJSONValue? {
        if case .null = value { return nil }
        return value
    }

    private static func requiredNumber(_ object: [String: CrowdJSONValue], _ field: String, _ reason: String) throws -> Double {
        guard let value = present(object[field]) else { throw invalid(field, "is required: it " + reason) }
        guard case .number(let number) = value, number.isFinite else { throw invalid(field, reason) }
        return number
    }

    private static func optionalInteger(_ object: [String: CrowdJSONValue], _ field: String, _ reason: String) throws -> Int? {
        guard let value = present(object[field]) else { return nil }
        guard case .number(let number) = value, let integer = integral(number) else { throw invalid(field, reason) }
        return integer
    }

    /// A double that is a whole number within ±2⁵³ (`200.0` is 200, `200.5` is not an integer).
    static func integral(_ number: Double) -> Int? {
        guard number.isFinite, number.rounded(.towardZero) == number, abs(number) <= 9_007_199_254_740_992 else { return nil }
        return Int(number)
    }

    /// The field whose string value runs past the end of a body cut at ``maxBodyBytes``: a
    /// 1 MB `comment` is a 400 naming `comment` (its length is out of range whatever follows),
    /// found without reading the rest. Nil when the cut falls elsewhere (the answer is then 413).
    static func overlongStringField(prefix bytes: some Collection<UInt8>) -> String? {
        var depth = 0
        var inString = false, escaped = false
        var stringStart = bytes.startIndex
        var lastKey: String?
        var expectingValue = false
        var valueKey: String?
        for index in bytes.indices {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 1, !expectingValue, valueKey == nil {
                        lastKey = String(decoding: bytes[bytes.index(after: stringStart)..<index], as: UTF8.self)
                    }
                    valueKey = nil
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                stringStart = index
                if expectingValue, depth == 1 { valueKey = lastKey; expectingValue = false }
            case UInt8(ascii: ":"): expectingValue = depth == 1
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1; expectingValue = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ","): expectingValue = false; lastKey = nil
            default: break
            }
        }
        guard inString, let key = valueKey, key == "comment" || key == "device" else { return nil }
        return key
    }

    // MARK: query strings

    /// Parses and checks a search's query string (`lat`, `lon` required; `radius`, `min`, `max`,
    /// `limit` optional with the defaults of ``CrowdRules``). `nan`, `inf` and the like are 400.
    static func search(query: String?) throws -> CrowdSearch {
        let fields = FormFields(query)
        let lat = try queryNumber(fields, "lat", "must be a number in [-90, 90]")
        let lon = try queryNumber(fields, "lon", "must be a number in [-180, 180]")
        let search = CrowdSearch(
            lat: lat, lon: lon,
            radius: try queryInteger(fields, "radius", "must be an integer in [15, 2000] (metres)") ?? CrowdRules.defaultRadius,
            min: try queryInteger(fields, "min", "must be an integer in [1, 100]") ?? CrowdRules.defaultMin,
            max: try queryInteger(fields, "max", "must be an integer in [1, 100]") ?? CrowdRules.defaultMax,
            limit: try queryInteger(fields, "limit", "must be an integer in [1, 20000]") ?? CrowdRules.defaultLimit)
        do { try CrowdRules.validate(search) } catch let error as CrowdValidationError { throw invalid(error) }
        return search
    }

    /// A decimal number as JSON writes one (`-12.5`, `1e3`): no `nan`, `inf`, hex or spaces.
    static func decimal(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 43 || $0 == 46 || $0 == 101 || $0 == 69 }),
              let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// A required decimal query field (400 naming it when missing or not a finite decimal).
    static func queryNumber(_ fields: FormFields, _ field: String, _ reason: String) throws -> Double {
        guard let text = fields.get(field) else { throw invalid(field, "is required: it " + reason) }
        guard let value = decimal(text) else { throw invalid(field, reason) }
        return value
    }

    private static func queryInteger(_ fields: FormFields, _ field: String, _ reason: String) throws -> Int? {
        guard let text = fields.get(field) else { return nil }
        guard let value = decimal(text), let integer = integral(value) else { throw invalid(field, reason) }
        return integer
    }
}
