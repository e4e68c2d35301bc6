import Foundation
import Radio
import Testing

@Suite("ICY metadata")
struct IcyMetadataTests {
    static func body(_ block: [UInt8]) -> [UInt8] { Array(block.dropFirst()) }

    @Test("blocks as icecast sends them (PROTOCOL.md §2.3 captures)")
    func blocks() {
        let empty = IcyMetadata.block(for: .empty)
        #expect(empty == [1] + Array("StreamTitle='';".utf8) + [0])
        let before = IcyMetadata.block(for: IcyTitle("Before Listening"))
        #expect(before == [2] + Array("StreamTitle='Before Listening';".utf8) + [0])
        let changed = IcyMetadata.block(for: IcyTitle("Changed While Listening"))
        #expect(changed.count == 1 + 48 && changed[0] == 3)
        #expect(changed.suffix(10).allSatisfy { $0 == 0 } && changed[changed.count - 11] == UInt8(ascii: ";"))
        // Quotes are not escaped: Café 'quoted' (UTF-8) → 2 blocks, 3 NULs.
        let quoted = IcyMetadata.block(for: IcyTitle("Café 'quoted'"))
        #expect(quoted == [2] + Array("StreamTitle='Café 'quoted'';".utf8) + [0, 0, 0])
        // 17 characters: 32 bytes of text need a third unit for the terminating NUL.
        #expect(IcyMetadata.block(for: IcyTitle(String(repeating: "x", count: 17)))[0] == 3)
        #expect(IcyMetadata.emptyBlock == [0])
    }

    @Test("long titles are truncated to 255×16 bytes, on a UTF-8 boundary")
    func truncation() throws {
        let ascii = IcyMetadata.block(for: IcyTitle(String(repeating: "a", count: 5000)))
        #expect(ascii[0] == 255 && ascii.count == 1 + 4080 && ascii.last == 0)
        #expect(Array(ascii[4077..<4080]) == Array("a';".utf8))
        let accented = IcyMetadata.block(for: IcyTitle(String(repeating: "é", count: 3000)))
        #expect(accented[0] == 255 && accented.count == 4081)
        let text = Self.body(accented).prefix { $0 != 0 }
        let decoded = try #require(String(validating: Array(text), as: UTF8.self))
        #expect(decoded.hasPrefix("StreamTitle='éé") && decoded.hasSuffix("é';"))
    }

    @Test("charset handling: passthrough, UTF-8 re-encoded to Latin-1, Latin-1 passthrough")
    func charsets() {
        let utf8: [UInt8] = [0x43, 0x61, 0x66, 0xC3, 0xA9]  // Café in UTF-8
        let noCharset = IcyTitle(song: utf8, charset: nil)
        #expect(noCharset.bytes == utf8 && noCharset.text == "Café")
        let declared = IcyTitle(song: utf8, charset: "UTF-8")
        #expect(declared.bytes == [0x43, 0x61, 0x66, 0xE9] && declared.text == "Café")
        let latin1 = IcyTitle(song: [0x43, 0x61, 0x66, 0xE9], charset: "ISO-8859-1")
        #expect(latin1.bytes == [0x43, 0x61, 0x66, 0xE9] && latin1.text == "Café")
        // Latin-1 bytes without charset are passed through; the text falls back to Latin-1.
        #expect(IcyTitle(song: [0x43, 0xE9], charset: nil).text == "Cé")
        // Outside Latin-1 there is no ISO-8859-1 byte: '?'.
        #expect(IcyTitle(song: Array("5 €".utf8), charset: "utf-8").bytes == Array("5 ?".utf8))
    }

    /// Splits an ICY body back into audio and the metadata blocks with their audio positions.
    static func parse(_ body: [UInt8], metaint: Int) -> (audio: [UInt8], blocks: [(at: Int, body: [UInt8])]) {
        var audio: [UInt8] = []
        var blocks: [(Int, [UInt8])] = []
        var i = 0
        while i < body.count {
            let n = min(metaint, body.count - i)
            audio += body[i..<i + n]
            i += n
            guard n == metaint, i < body.count else { break }
            let length = Int(body[i]) * 16
            blocks.append((audio.count, Array(body[i + 1..<min(body.count, i + 1 + length)])))
            i += 1 + length
        }
        return (audio, blocks)
    }

    static func title(of body: [UInt8]) -> String? {
        guard !body.isEmpty else { return nil }
        let text = String(decoding: body.prefix { $0 != 0 }, as: UTF8.self)
        return String(text.dropFirst("StreamTitle='".count).dropLast(2))
    }

    @Test("interleaving: audio byte-identical, titles follow stream positions, any split points")
    func interleave() {
        let stream = (0..<120_000).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
        var titles = IcyTitleHistory()
        titles.set(IcyTitle("T1"), at: 20_000)
        titles.set(IcyTitle("T2 (replaces T1 a moment later)"), at: 20_500)
        titles.set(IcyTitle("T3"), at: 70_000)
        for step in [1, 999, 16_000, 16_001, 50_000] {
            var icy = IcyInterleaver(metaint: 16_000, startingAt: 10_000)
            var body: [UInt8] = []
            var end: Int64 = 10_000
            while end < Int64(stream.count) {
                end = min(Int64(stream.count), end + Int64(step))
                for piece in icy.advance(to: end, titles: titles) {
                    switch piece {
                    case .audio(let r): body += stream[Int(r.lowerBound)..<Int(r.upperBound)]
                    case .metadata(let block): body += block
                    }
                }
            }
            let (audio, blocks) = Self.parse(body, metaint: 16_000)
            #expect(audio == Array(stream[10_000...]), "step \(step)")
            // Blocks after 16,000k audio bytes, i.e. before stream offsets 26k, 42k, 58k, 74k, 90k, 106k.
            #expect(blocks.map(\.at) == [16_000, 32_000, 48_000, 64_000, 80_000, 96_000], "step \(step)")
            #expect(blocks.map { Self.title(of: $0.body) } ==
                    ["T2 (replaces T1 a moment later)", nil, nil, "T3", nil, nil], "step \(step)")
            #expect(icy.position == Int64(stream.count))
        }
    }

    @Test("the first block is never empty: the empty title when none is set yet")
    func firstBlock() {
        var icy = IcyInterleaver(metaint: 100, startingAt: 0)
        let titles = IcyTitleHistory()
        let pieces = icy.advance(to: 250, titles: titles)
        #expect(pieces == [.audio(0..<100), .metadata(IcyMetadata.block(for: .empty)),
                           .audio(100..<200), .metadata([0]), .audio(200..<250)])
        #expect(icy.bytesUntilBlock == 50)
    }

    @Test("history: same offset replaces, earlier offsets are moved up, pruning keeps the title in force")
    func history() {
        var h = IcyTitleHistory()
        h.set(IcyTitle("a"), at: 100)
        h.set(IcyTitle("b"), at: 100)
        #expect(h.entries.count == 2 && h.entry(at: 100).title.text == "b" && h.entry(at: 99).title == .empty)
        h.set(IcyTitle("c"), at: 50)  // before the newest: applies from 100 on
        #expect(h.entry(at: 100).title.text == "c")
        h.set(IcyTitle("d"), at: 300)
        h.prune(before: 200)
        #expect(h.entries.map(\.title.text) == ["c", "d"])
        #expect(h.entry(at: 250).title.text == "c" && h.current.text == "d")
    }
}
