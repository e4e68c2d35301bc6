import Foundation
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

    @Test("strings escape quotes, backslashes and control characters and keep the rest")
    func strings() throws {
        var writer = CrowdJSONWriter()
        let text = "a\"b\\c\u{1}\n é😀 </script>"
        writer.string(text)
        let parsed = try JSONSerialization.jsonObject(with: Data(("[" + String(decoding: writer.bytes, as: UTF8.self) + "]").utf8)) as? [String]
        #expect(parsed == [text])
    }
}
