import Foundation
import QuintetServer
import Testing

@Suite("Form-encoded fields")
struct FormFieldsTests {
    @Test("plus is a space, percent escapes are UTF-8, keys decode and repeat, malformed escapes stay raw")
    func decoding() {
        let fields = FormFields("q=copper+sky&a%20b=%C3%A9t%C3%A9&id=1&id=2&plus=1%2B1&bad=%ZZ%&flag&=x&&")
        #expect(fields.get("q") == "copper sky")
        #expect(fields.get("a b") == "été")
        #expect(fields.all("id") == ["1", "2"])
        #expect(fields.get("plus") == "1+1")
        #expect(fields.get("bad") == "%ZZ%")
        #expect(fields.get("flag") == "")
        #expect(fields.get("") == "x")
        #expect(fields.get("missing") == nil)
        #expect(FormFields(nil).pairs.isEmpty && FormFields("").pairs.isEmpty)
    }

    @Test("decodes random texts as Foundation's replacingOccurrences + removingPercentEncoding; escapes that are not UTF-8 stay raw")
    func sameAsFoundation() {
        // Escaped bytes that are not UTF-8: raw (Foundation on Linux repairs some and refuses others).
        #expect(FormFields("a=%FF+x&b=%C3&c=%A9%C3%A9").get("a") == "%FF x")
        #expect(FormFields("a=%FF+x&b=%C3&c=%A9%C3%A9").get("b") == "%C3")
        #expect(FormFields("a=%FF+x&b=%C3&c=%A9%C3%A9").get("c") == "%A9%C3%A9")
        let pieces = ["a", "Z", "0", "+", "%", "%2", "%20", "%2B", "%2b", "%C3%A9", "%F0%9F%98%80", "%G1", "é", "😀", " ", "~", "%25", "%00", "%7e"]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let spaced = text.replacingOccurrences(of: "+", with: " ")
            let expected = spaced.removingPercentEncoding ?? spaced
            let fields = FormFields("k=" + text.replacingOccurrences(of: "&", with: "").replacingOccurrences(of: "=", with: ""))
            #expect(fields.get("k") == expected, "\(text)")
        }
    }
}
