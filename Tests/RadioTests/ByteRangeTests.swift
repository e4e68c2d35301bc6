import Radio
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
        ("bytes=0-", 0, .unsatisfiable),
        ("bytes=-10", 0, .unsatisfiable),
        ("bytes=5000-6000, 10-20", 1000, .partial(10...20)),   // first satisfiable
        ("bytes=0-9, 20-29", 1000, .partial(0...9)),
        ("bytes=99999999999999999999999-", 1000, .unsatisfiable),
        ("bytes=20-10", 1000, .whole),        // invalid: ignored
        ("bytes=abc", 1000, .whole),
        ("bytes=1-2-3", 1000, .whole),
        ("bytes=-", 1000, .whole),
        ("items=0-10", 1000, .whole),
        ("bytes=", 1000, .whole),
        ("bytes=+1-2", 1000, .whole),
    ] as [(String?, Int64, ByteRangeAnswer)])
    func resolve(header: String?, length: Int64, expected: ByteRangeAnswer) {
        #expect(ByteRangeAnswer(header: header, length: length) == expected)
    }

    @Test("Content-Range values")
    func contentRange() {
        #expect(ByteRangeAnswer.partial(0...99).contentRange(length: 1000) == "bytes 0-99/1000")
        #expect(ByteRangeAnswer.unsatisfiable.contentRange(length: 1000) == "bytes */1000")
        #expect(ByteRangeAnswer.whole.contentRange(length: 1000) == nil)
    }
}
