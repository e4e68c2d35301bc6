import Foundation
import Testing
import WireFormats

@Suite("Content-Disposition (RFC 6266)")
struct ContentDispositionTests {
    @Test("an ASCII name: both parameters, spaces encoded in filename* only")
    func ascii() {
        #expect(ContentDisposition.attachment(filename: "Glass River.mp3")
            == "attachment; filename=\"Glass River.mp3\"; filename*=UTF-8''Glass%20River.mp3")
    }

    @Test("accents dropped in the fallback, UTF-8 bytes in filename*")
    func accents() {
        #expect(ContentDisposition.attachment(filename: "03 - Café de Noche.ogg")
            == "attachment; filename=\"03 - Cafe de Noche.ogg\"; filename*=UTF-8''03%20-%20Caf%C3%A9%20de%20Noche.ogg")
        // Decomposed input folds the same way.
        #expect(ContentDisposition.asciiFallback("Cafe\u{301}") == "Cafe")
    }

    @Test("quotes, backslashes, percent signs, controls and non-Latin text never reach the fallback")
    func hostile() {
        let name = "a\"b\\c%41d\u{0}e\u{1F}f\u{7F}g\r\nh東京😀.mp3"
        let fallback = ContentDisposition.asciiFallback(name)
        #expect(fallback == "a_b_c_41d_e_f_g__h___.mp3")
        #expect(fallback.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) && !"\"\\%".unicodeScalars.contains($0) })
        let header = ContentDisposition.attachment(filename: name)
        #expect(header.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) })
        // filename* decodes back to the exact name.
        let encoded = String(header[header.range(of: "UTF-8''")!.upperBound...])
        #expect(encoded.removingPercentEncoding == name)
        #expect(encoded.allSatisfy { $0.isLetter || $0.isNumber || "!#$&+-.^_`|~%".contains($0) })
    }

    @Test("an empty name is \"download\"")
    func empty() {
        #expect(ContentDisposition.attachment(filename: "") == "attachment; filename=\"download\"; filename*=UTF-8''download")
        #expect(ContentDisposition.asciiFallback("") == "download")
    }
}
