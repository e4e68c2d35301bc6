import Foundation
import Testing
@testable import MediaTags

@Suite("Text decoding fast paths")
struct TextDecodingTests {
    @Test("UTF-16 transcoding agrees with the standard library, lone surrogates included")
    func utf16() {
        var random = SystemRandomNumberGenerator()
        let interesting: [UInt16] = [0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x4E2D, 0xD7FF, 0xD800, 0xD83D, 0xDBFF,
                                     0xDC00, 0xDE00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF, 0]
        for _ in 0..<5_000 {
            let units = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                Bool.random(using: &random) ? interesting.randomElement(using: &random)! : UInt16.random(in: 0...UInt16.max, using: &random)
            }
            #expect(ID3Text.utf16(units) == String(decoding: units, as: UTF16.self), "\(units)")
        }
        #expect(ID3Text.utf16([0xD83D, 0xDE00]) == "😀")
    }

    @Test("ISO-8859-1: every byte is the scalar of its value")
    func latin1() {
        let all = (0...255).map { UInt8($0) }
        let decoded = ID3Text.latin1(all)
        #expect(decoded.unicodeScalars.map(\.value) == all.map(UInt32.init))
        #expect(ID3Text.latin1(Array("Caf".utf8) + [0xE9]) == "Café")
        #expect(ID3Text.latin1(Array("plain".utf8)) == "plain")
    }

    @Test("trimming spaces agrees with Foundation's .whitespaces")
    func trimming() {
        let pieces = [" ", "\t", "\u{A0}", "\u{2003}", "\u{3000}", "\n", "a", "é", "b c", "\u{200B}", "", "日本"]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces), "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test("MP4 atom constants are the codes of their names")
    func atoms() {
        let pairs: [(UInt32, String)] = [
            (Atom.freeform, "----"), (Atom.cART, "\u{A9}ART"), (Atom.cAlb, "\u{A9}alb"), (Atom.cCmt, "\u{A9}cmt"),
            (Atom.cDay, "\u{A9}day"), (Atom.cGen, "\u{A9}gen"), (Atom.cNam, "\u{A9}nam"), (Atom.cWrt, "\u{A9}wrt"),
            (Atom.aART, "aART"), (Atom.alac, "alac"), (Atom.covr, "covr"), (Atom.cpil, "cpil"), (Atom.data, "data"),
            (Atom.disk, "disk"), (Atom.esds, "esds"), (Atom.gnre, "gnre"), (Atom.ilst, "ilst"), (Atom.mdhd, "mdhd"),
            (Atom.mdia, "mdia"), (Atom.meta, "meta"), (Atom.minf, "minf"), (Atom.moov, "moov"), (Atom.mp4a, "mp4a"),
            (Atom.mvhd, "mvhd"), (Atom.name, "name"), (Atom.stbl, "stbl"), (Atom.stsd, "stsd"), (Atom.tmpo, "tmpo"),
            (Atom.trak, "trak"), (Atom.trkn, "trkn"), (Atom.udta, "udta"), (Atom.wave, "wave"),
        ]
        for (code, name) in pairs { #expect(code == MP4File.fourCC(name), "\(name)") }
    }
}
