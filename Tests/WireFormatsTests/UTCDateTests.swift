import Foundation
import WireFormats
import Testing

@Suite("UTCDate: calendar fields by arithmetic")
struct UTCDateTests {
    /// Foundation's `.gregorian` calendar is Julian before the 1582 reform; `UTCDate` is the
    /// proleptic Gregorian calendar (as RFC 3339 and HTTP dates are), so they are compared from 1583.
    @Test("agrees with Foundation's Gregorian calendar in UTC on fixed and random instants since 1583")
    func agreesWithCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var generator = SystemRandomNumberGenerator()
        var instants: [Double] = [0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 4_107_542_400, -2_208_988_800,
                                  1_764_098_415.75, -12_212_553_600]
        for _ in 0..<5000 { instants.append(Double.random(in: -12_212_553_600...6e10, using: &generator).rounded(.down)) }
        for t in instants {
            let date = Date(timeIntervalSince1970: t)
            let mine = UTCDate(date)
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
            let expected: [Int] = [c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!, c.weekday!]
            let got: [Int] = [mine.year, mine.month, mine.day, mine.hour, mine.minute, mine.second, mine.weekday]
            #expect(got == expected, "t = \(t)")
        }
    }

    @Test("RFC 822 texts of known instants, both zone spellings")
    func knownTexts() {
        #expect(UTCDate.rfc822(Date(timeIntervalSince1970: 0), zone: .numeric) == "Thu, 01 Jan 1970 00:00:00 +0000")
        #expect(UTCDate.rfc822(Date(timeIntervalSince1970: 951_782_400), zone: .numeric) == "Tue, 29 Feb 2000 00:00:00 +0000")
        #expect(UTCDate.rfc822(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        // The fraction is dropped, not rounded; negative instants round down to the second.
        #expect(UTCDate.http(Date(timeIntervalSince1970: 1_764_098_415.999)) == "Tue, 25 Nov 2025 19:20:15 GMT")
        #expect(UTCDate.http(Date(timeIntervalSince1970: -0.5)) == "Wed, 31 Dec 1969 23:59:59 GMT")
        // Proleptic Gregorian before 1970 and before the reform (Python's datetime agrees).
        let c = UTCDate(Date(timeIntervalSince1970: -62_135_596_800))
        #expect([c.year, c.month, c.day, c.weekday] as [Int] == [1, 1, 1, 2])
    }
}
