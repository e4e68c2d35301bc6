import Foundation
import Crowd
@testable import QuintetServer
import Testing

@Suite("Crowd JSON reader")
struct CrowdJSONReaderTests {
    static func read(_ text: String) -> [String: CrowdJSONValue]? { CrowdJSONReader.object(Array(text.utf8)) }

    @Test("members as they came: numbers, strings with escapes, booleans, null, nested structures")
    func members() throws {
        let object = try #require(Self.read(#" { "a": -12.5e1, "b": "x\"y\\z\/\n\u00e9\ud83d\ude00", "c": true, "d": null, "e": [1, {"f": []}], "g": 0, "h": 1e400 } "#))
        #expect(object["a"] == .number(-125))
        #expect(object["b"] == .string("x\"y\\z/\né😀"))
        #expect(object["c"] == .bool(true))
        #expect(object["d"] == .null)
        #expect(object["e"] == .structure)
        #expect(object["g"] == .number(0))
        #expect(object["h"] == .hugeNumber)
        #expect(Self.read("{}")?.isEmpty == true)
    }

    @Test("a member named twice is reported (a report with one is refused naming the field)")
    func duplicates() throws {
        let read = try #require(CrowdJSONReader.members(Array(#"{"lat": 1, "lon": 2, "lat": 1000}"#.utf8)))
        #expect(read.duplicate == "lat")
        #expect(try #require(CrowdJSONReader.members(Array(#"{"lat": 1, "x": {"lat": 2}}"#.utf8))).duplicate == nil)
        let error = #expect(throws: APIError.self) {
            try CrowdRequests.reportFields(json: Array(#"{"device": "d", "lat": 1, "lon": 2, "lat": 1000}"#.utf8))
        }
        #expect(error?.field == "lat")
    }

    @Test("anything but one JSON object is refused", arguments: [
        "", " ", "[]", "1", "\"x\"", "{", "{\"a\":1", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{'a':1}",
        "{\"a\":NaN}", "{\"a\":Infinity}", "{\"a\":-Infinity}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":1e}",
        "{\"a\":+1}", "{\"a\":0x10}", "{\"a\":tru}", "{\"a\":nul}", "{\"a\":\"\\x\"}", "{\"a\":\"\\ud800\"}",
        "{\"a\":\"\\udc00\"}", "{\"a\":\"line\nbreak\"}", "{\"a\":1}{}", "{\"a\":1} x", "{\"a\":[1,]}", "{\"a\":{\"b\"}}",
        "{\"a\":1 /* c */}",
    ])
    func refused(text: String) {
        #expect(Self.read(text) == nil)
    }

    @Test("invalid UTF-8 in a string is refused")
    func invalidUTF8() {
        #expect(CrowdJSONReader.object(Array("{\"a\":\"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)) == nil)
        #expect(CrowdJSONReader.object(Array("{\"a\":\"".utf8) + [0xFF] + Array("\"}".utf8)) == nil)
    }

    @Test("deep nesting stops at the limit instead of recursing without end")
    func depth() {
        let deep = "{\"a\":" + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
        #expect(Self.read(deep) == nil)
        let fine = "{\"a\":" + String(repeating: "[", count: 30) + String(repeating: "]", count: 30) + "}"
        #expect(Self.read(fine)?["a"] == .structure)
    }

    @Test("agrees with JSONSerialization on random report-like objects")
    func differential() throws {
        var random = SystemRandomNumberGenerator()
        let pieces = ["\"device\"", "\"lat\"", "\"comment\"", ":", ",", "{", "}", "[", "]", "1", "-0.5", "2e3", "\"é\\n\"",
                      "true", "null", " ", "\"\\u0041\"", "01", "\"a", "x"]
        var agreed = 0
        for _ in 0..<5000 {
            let text: String
            if Bool.random(using: &random) {
                // A well-formed object with random values.
                let values = ["1", "-0.25", "1e2", "\"s\"", "true", "false", "null", "[1,[2]]", "{\"k\":\"v\"}", "\"\\\"q\\\"\""]
                let count = Int.random(in: 0...5, using: &random)
                text = "{" + (0..<count).map { "\"k\($0)\": " + values.randomElement(using: &random)! }.joined(separator: ",") + "}"
            } else {
                text = (0..<Int.random(in: 1...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            }
            let ours = Self.read(text)
            let theirs = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
            #expect((ours == nil) == (theirs == nil), "\(text)")
            if let ours, let theirs {
                #expect(Set(ours.keys) == Set(theirs.keys), "\(text)")
                agreed += 1
            }
        }
        #expect(agreed > 1000)
    }
}

@Suite("Crowd JSON writer")
struct CrowdJSONWriterTests {
    @Test("whole numbers are written as Swift prints them, both signs, every length")
    func integers() {
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, Int64.max - 1, 1_000_000_000_000_000, 9_999_999_999_999_999, 10_000_000_000_000_000]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 { values.append(Int64.random(in: .min ... .max, using: &random) >> Int64.random(in: 0...62, using: &random)) }
        for value in values {
            var writer = CrowdJSONWriter()
            writer.int(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
    }

    /// What the writer wrote for one double.
    static func written(_ value: Double) -> String {
        var writer = CrowdJSONWriter()
        writer.double(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test("every double parses back to itself, in the shortest form (as many digits as Swift prints)")
    func doubles() throws {
        var random = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 1, -1, 0.5, 10, 45.4642, -122.4194, 180, -180, 90, 1e-7, 0.1 + 0.2,
                                34.333333333333336, 9.999999999999998, 99.99999999999999, 999.9999999999999,
                                0.0039, 0x1p-8, 0x1p-8.nextDown, 99_999_999.999_999_9, 1e8, 410_012_731.505496, 1e15.nextDown, 1e15, 1e300,
                                5e-324, Double.greatestFiniteMagnitude, 2000, 1999.9999999999998, 0.00390625]
        for _ in 0..<20_000 {
            switch Int.random(in: 0..<6, using: &random) {
            case 0: values.append(Double.random(in: -180...180, using: &random)) // a coordinate
            case 1: values.append((Double.random(in: -180...180, using: &random) * 1e7).rounded() / 1e7) // as a phone sends it
            case 2: values.append(Double.random(in: 0...2000, using: &random)) // a distance
            case 3: values.append(Double(Int.random(in: 0...150_000, using: &random)) / Double(Int.random(in: 1...1000, using: &random))) // an average age
            case 4: values.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random))) // any bits
            default: values.append(Double.random(in: 0...1, using: &random) * pow(10, Double(Int.random(in: -10...16, using: &random))))
            }
        }
        for value in values where value.isFinite {
            let text = Self.written(value)
            let parsed = try #require(Double(text), "\(text) for \(value)")
            #expect(parsed == value && parsed.sign == value.sign, "\(text) parsed as \(parsed), not \(value)")
            #expect(text.utf8.allSatisfy { "0123456789.-eE+".utf8.contains($0) }, "\(text)")
            // Swift prints the shortest round trip: as many significant digits (where it has no
            // exponent; with two shortest candidates the last digit may differ).
            let swift = value.description
            if !swift.contains("e") {
                let digits = { (t: String) in t.drop { $0 == "-" || $0 == "0" || $0 == "." }.filter(\.isNumber).reversed().drop { $0 == "0" }.count }
                #expect(digits(text) <= digits(swift), "\(value): \(text), Swift \(swift)")
                if value.magnitude < 1e8, let point = swift.firstIndex(of: "."), swift[swift.index(after: point)...].count <= 7 {
                    #expect(text == swift, "\(value): \(text), Swift \(swift)")
                }
            }
        }
        #expect(Self.written(.nan) == "null" && Self.written(.infinity) == "null")
    }

    @Test("a listed location is written as the JSON the API documents, every field parsed back exactly")
    func location() throws {
        let location = CrowdLocation(id: 123_456_789, lat: 45.4642123, lon: -9.19, people: 7, averageAge: 100.0 / 3,
                                     men: 3, women: 2, distance: 1234.5678901234567)
        var writer = CrowdJSONWriter()
        writer.location(location)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any])
        #expect(object["id"] as? Int == 123_456_789)
        #expect(object["lat"] as? Double == 45.4642123 && object["lon"] as? Double == -9.19)
        #expect(object["people"] as? Int == 7 && object["men"] as? Int == 3 && object["women"] as? Int == 2)
        // The doubles by their text (JSONSerialization on Linux may miss the last bit).
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.contains(#""avg_age":\#(Self.written(100.0 / 3)),"#) && Double(Self.written(100.0 / 3)) == 100.0 / 3)
        #expect(text.hasSuffix(#""distance_m":\#(Self.written(1234.5678901234567))}"#) && Double(Self.written(1234.5678901234567)) == 1234.5678901234567)
        var none = CrowdJSONWriter()
        none.location(CrowdLocation(id: 1, lat: 0, lon: 0, people: 1, averageAge: nil, men: 0, women: 0, distance: 0))
        #expect(String(decoding: none.bytes, as: UTF8.self)
            == #"{"id":1,"lat":0.0,"lon":0.0,"people":1,"avg_age":null,"men":0,"women":0,"distance_m":0.0}"#)
    }

    @Test("strings escape quotes, backslashes and control characters and keep the rest")
    func strings() throws {
        var writer = CrowdJSONWriter()
        let text = "a\"b\\c\u{1}\n é😀 </script>"
        writer.string(text)
        let parsed = try JSONSerialization.jsonObject(with: Data(("[" + String(decoding: writer.bytes, as: UTF8.self) + "]").utf8)) as? [String]
        #expect(parsed == [text])
    }
}
