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
}
