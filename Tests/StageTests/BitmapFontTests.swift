import Testing
@testable import Stage

/// Bitmap fonts: glyph lookup, measuring, line breaking, alignment, shrinking to fit, and the
/// image commands a text field draws with one.
@Suite struct BitmapFontTests {
    /// A font with easy numbers: 10 units to the em, so at size 10 a unit is a point.
    /// " " 3, "?" 5, "a" 5, "b" 6, "é" 5; lines 12 high.
    static let tiny = BitmapFont(name: "tiny", atlas: 4, unitsPerEm: 10, lineHeight: 12, baseline: 9,
                                 codePoints: [0x20, 0x3F, 0x61, 0x62, 0xE9], advances: [3, 5, 5, 6, 5])
    var font: BitmapFont { Self.tiny }

    func glyphs(_ layout: TextLayout) -> [Int] { layout.glyphs.map(\.glyph) }

    @Test func glyphsAreFoundByCodePoint() {
        #expect(font.glyphCount == 5)
        #expect([0x20, 0x3F, 0x61, 0x62, 0xE9].map { font.glyph(for: $0) } == [0, 1, 2, 3, 4])
        #expect(font.glyph(for: 0x63) == nil && font.glyph(for: 0) == nil && font.glyph(for: 0x1F600) == nil)
        #expect(font.fallback == 1)
        #expect(font.region(ofGlyph: 3, fontSize: 20) == TextureRegion(atlas: 4, region: 3, width: 12, height: 24))
    }

    @Test func entriesOutOfOrderOrWithoutAnAdvanceAreDropped() {
        let odd = BitmapFont(name: "odd", atlas: 0, unitsPerEm: 10, lineHeight: 12, baseline: 9,
                             codePoints: [0x61, 0x61, 0x20, 0x62, 0x63], advances: [5, 7, 3, 6])
        #expect(odd.codePoints == [0x61, 0x62] && odd.advances == [5, 6])
        #expect(odd.fallback == nil)
        // Without a fallback, a missing character takes no room.
        #expect(odd.size(of: "a?b", fontSize: 10).width == 11)
    }

    @Test func measuringAddsAdvancesAndLines() {
        #expect(font.size(of: "ab", fontSize: 10) == (11, 12))
        #expect(font.size(of: "ab", fontSize: 20) == (22, 24))
        #expect(font.size(of: "ab\nb", fontSize: 10) == (11, 24))
        #expect(font.size(of: "", fontSize: 10) == (0, 12))
        // Spaces count between words, not at the end of a line.
        #expect(font.size(of: "a b", fontSize: 10).width == 14)
        #expect(font.size(of: "ab  ", fontSize: 10).width == 11)
    }

    @Test func textIsDecodedFromUTF8AndUnknownCharactersShowTheFallback() {
        let layout = font.layout("éa😀\rb\tb", fontSize: 10, width: .infinity, height: .infinity)
        #expect(glyphs(layout) == [4, 2, 1, 3, 3])
        #expect(layout.glyphs.map(\.x) == [0, 5, 10, 15, 24])   // the tab is a space (3)
        #expect(layout.lineCount == 1)
    }

    @Test func linesBreakAtTheLastSpaceThatKeepsThemInsideTheBox() {
        // "ab" is 11 wide, "ab ab" 25.
        let narrow = font.layout("ab ab ab", fontSize: 10, width: 12, height: 100)
        #expect(narrow.lineCount == 3 && narrow.fits)
        #expect(narrow.glyphs.map(\.x) == [0, 5, 0, 5, 0, 5])
        #expect(narrow.glyphs.map(\.y) == [0, 0, 12, 12, 24, 24])
        let wider = font.layout("ab ab ab", fontSize: 10, width: 25, height: 100)
        #expect(wider.lineCount == 2 && wider.width == 25)
        #expect(wider.glyphs.map(\.x) == [0, 5, 14, 19, 0, 5])
        // Several spaces at a break all go.
        let spaced = font.layout("ab   ab", fontSize: 10, width: 12, height: 100)
        #expect(spaced.lineCount == 2 && spaced.glyphs.map(\.x) == [0, 5, 0, 5])
        // "\n" always breaks.
        #expect(font.layout("a\n\nb", fontSize: 10, width: 100, height: 100).lineCount == 3)
    }

    @Test func aWordWiderThanTheBoxIsCutAndDoesNotFit() {
        let layout = font.layout("aaaa", fontSize: 10, width: 12, height: 100)
        #expect(layout.lineCount == 2 && !layout.fits)
        #expect(layout.glyphs.map(\.x) == [0, 5, 0, 5])
        // Too many lines for the box's height: laid out all the same, but it does not fit.
        let tall = font.layout("ab ab", fontSize: 10, width: 12, height: 20)
        #expect(tall.lineCount == 2 && !tall.fits)
    }

    @Test func linesAlignInTheBoxAndTheBlockInItsHeight() {
        func origin(_ h: TextAlignment, _ v: VerticalAlignment) -> [Double] {
            let layout = font.layout("ab", fontSize: 10, width: 31, height: 30, alignment: h, verticalAlignment: v)
            return [layout.glyphs[0].x, layout.glyphs[0].y]
        }
        #expect(origin(.left, .top) == [0, 0])
        #expect(origin(.center, .center) == [10, 9])
        #expect(origin(.right, .bottom) == [20, 18])
        let two = font.layout("ab\nb", fontSize: 10, width: 31, height: 30, alignment: .right, verticalAlignment: .center)
        #expect(two.glyphs.map(\.x) == [20, 25, 25])
        #expect(two.glyphs.map(\.y) == [3, 3, 15])
        #expect(two.bounds == Rectangle(x: 20, y: 3, width: 11, height: 24))
    }

    @Test func autoScaleShrinksUntilTheTextFits() {
        // At 10 "ab ab" needs two lines (24 high) in a box 11 × 12; at 5 each word is 5.5 wide and
        // two lines are 12 high.
        let layout = font.layout("ab ab", fontSize: 10, width: 11, height: 12, autoScale: true)
        #expect(layout.fontSize == 5 && layout.fits && layout.lineCount == 2)
        let fixed = font.layout("ab ab", fontSize: 10, width: 11, height: 12)
        #expect(fixed.fontSize == 10 && !fixed.fits)
        // Text that fits is left at its size; text that never fits stops at 1 point.
        #expect(font.layout("ab", fontSize: 10, width: 11, height: 12, autoScale: true).fontSize == 10)
        #expect(font.layout("ab", fontSize: 10, width: 0.5, height: 12, autoScale: true).fontSize == 1)
    }

    @Test func aTextFieldWithAFontDrawsItsGlyphsAsTintedImages() {
        let stage = Stage(width: 100, height: 100, color: 0)
        let field = TextField(width: 31, height: 30, text: "a b", fontSize: 10, color: 0x1122_33FF,
                              alignment: .left, font: font)
        field.x = 7; field.y = 8; field.alpha = 0.5; field.verticalAlignment = .top
        stage.addChild(field)
        var list = DrawList()
        stage.render(into: &list)
        var r = DrawListReader(list.bytes)
        #expect(r.u32() == DrawList.magic && r.u32() == 2)   // "a" and "b": the space is not drawn
        _ = r.u32()
        for (glyph, x) in [(2, 0.0), (3, 8.0)] {
            #expect(r.u32() == DrawOp.image.rawValue)
            #expect(r.matrix() == [1, 0, 0, 1, Float(7 + x), 8])
            #expect(r.f32() == 0.5)
            #expect(r.f32() == Float(font.advances[glyph]) && r.f32() == 12)
            #expect(r.u32() == 4 && r.u32() == UInt32(glyph) && r.u32() == 0x1122_33FF)
        }
        #expect(r.offset == list.bytes.count)
        #expect(field.textBounds == Rectangle(x: 0, y: 0, width: 14, height: 12))
        // A change of text is laid out again.
        field.text = "bbb"
        #expect(field.textBounds.width == 18)
        field.alignment = .right
        #expect(field.textBounds.x == 13)
        field.font = nil
        #expect(field.textLayout == nil && field.textBounds == Rectangle(x: 0, y: 0, width: 31, height: 30))
    }

    @Test func quintetRoundHasEveryLetterOfItalianEnglishAndFrench() {
        let round = BitmapFont.round(atlas: 1)
        let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .,;:!?'\"()-+=/*&%€@#«»’“”…–—"
            + "àèéìíòóùúÀÈÉÌÍÒÓÙÚ âêîôûçëïüœ ÂÊÎÔÛÇËÏÜŒ"
        var missing: [UInt32] = []
        forEachScalar(letters) { if round.glyph(for: $0) == nil { missing.append($0) } }
        #expect(missing.isEmpty, "no glyph for \(missing.map { String($0, radix: 16) })")
        #expect(round.atlas == 1 && round.unitsPerEm == 100 && round.lineHeight > 100 && round.fallback != nil)
        // "Hi" at 100 points is H's advance plus i's, in points.
        let h = round.glyph(for: 0x48)!, i = round.glyph(for: 0x69)!
        #expect(round.size(of: "Hi", fontSize: 100).width == Double(round.advances[h]) + Double(round.advances[i]))
    }
}
