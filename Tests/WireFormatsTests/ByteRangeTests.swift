import WireFormats
import Testing

@Suite("HTTP Range")
struct ByteRangeTests {
    @Test("Range header resolution (RFC 9110 §14)", arguments: [
        (nil, 1000, ByteRangeAnswer.whole),
        ("bytes=0-99", 1000, .partial(0...99)),
        ("bytes=500-", 1000, .partial(500...999)),
        ("bytes=-100", 1000, .partial(900...999)),
        ("bytes=-5000", 1000, .partial(0...999)),
        ("bytes=900-5000", 1000, .partial(900...999)),
        ("BYTES = 10 - 20", 1000, .partial(10...20)),
        ("bytes=999-999", 1000, .partial(999...999)),
        ("bytes=1000-", 1000, .unsatisfiable),
        ("bytes=1000-2000", 1000, .unsatisfiable),
        ("bytes=-0", 1000, .unsatisfiable),
        ("bytes=0-", 0, .whole),                // empty file: nothing to point at
        ("bytes=-10", 0, .whole),
        ("bytes=5000-6000, 10-20", 1000, .whole),   // several ranges: ignored
        ("bytes=0-9, 20-29", 1000, .whole),
        ("bytes=0-9,0-9", 1000, .whole),
        ("bytes=2000-3000, 4000-5000", 1000, .whole),
        ("bytes=0-9,", 1000, .partial(0...9)),      // empty list elements do not count
        (" bytes = , 5-9 ,", 1000, .partial(5...9)),
        ("bytes=-1", 1, .partial(0...0)),
        ("bytes=\t1-2", 1000, .partial(1...2)),
        ("bytes=99999999999999999999999-", 1000, .unsatisfiable),
        ("bytes=20-10", 1000, .whole),        // invalid: ignored
        ("bytes=abc", 1000, .whole),
        ("bytes=1-2-3", 1000, .whole),
        ("bytes=-", 1000, .whole),
        ("items=0-10", 1000, .whole),
        ("bytes=", 1000, .whole),
        ("bytes=+1-2", 1000, .whole),
        ("bytes=1-+2", 1000, .whole),
        ("bytes=0x10-", 1000, .whole),
        ("bytes=5", 1000, .whole),
        ("bytes=0-9,abc", 1000, .whole),            // one bad spec spoils the header
    ] as [(String?, Int64, ByteRangeAnswer)])
    func resolve(header: String?, length: Int64, expected: ByteRangeAnswer) {
        #expect(ByteRangeAnswer(header: header, length: length) == expected)
    }

    @Test("If-Range: a stale validator sends the whole file; the ETag or the date keeps the range")
    func ifRange() {
        let etag = "\"3e8-5f\"", date = "Tue, 25 Nov 2025 19:20:15 GMT"
        func answer(_ ifRange: String?) -> ByteRangeAnswer {
            ByteRangeAnswer(header: "bytes=10-19", ifRange: ifRange, etag: etag, lastModified: date, length: 1000)
        }
        #expect(answer(nil) == .partial(10...19))
        #expect(answer(etag) == .partial(10...19))
        #expect(answer(date) == .partial(10...19))
        #expect(answer("\"stale\"") == .whole)
        #expect(answer("W/" + etag) == .whole)
        #expect(ByteRangeAnswer(header: "bytes=5000-", ifRange: "\"stale\"", etag: etag, lastModified: date, length: 1000) == .whole)
    }

    @Test("Content-Range values")
    func contentRange() {
        #expect(ByteRangeAnswer.partial(0...99).contentRange(length: 1000) == "bytes 0-99/1000")
        #expect(ByteRangeAnswer.unsatisfiable.contentRange(length: 1000) == "bytes */1000")
        #expect(ByteRangeAnswer.whole.contentRange(length: 1000) == nil)
    }
}
