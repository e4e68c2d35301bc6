import Crowd
import Foundation
import QuintetServer
import Testing

@Suite("Crowd server parts")
struct CrowdPartsTests {
    @Test("durations: 90s, 30m, 24h, 7d, plain seconds; junk is refused")
    func durations() {
        #expect(CrowdDuration.seconds("90s") == 90)
        #expect(CrowdDuration.seconds("30m") == 1800)
        #expect(CrowdDuration.seconds("24h") == 86_400)
        #expect(CrowdDuration.seconds("7d") == 604_800)
        #expect(CrowdDuration.seconds("45") == 45)
        #expect(CrowdDuration.seconds("30M") == 1800)
        for junk in ["", "m", "1.5h", "-5s", "10x", "ten", "99999999999999999999d", "1 h"] {
            #expect(CrowdDuration.seconds(junk) == nil, "\(junk)")
        }
    }

    @Test("the rate limiter counts per device and per address in one-minute windows and forgets old windows")
    func limiter() {
        let limiter = CrowdRateLimiter(limit: 2)
        let a = DeviceKey(bytes: [1]), b = DeviceKey(bytes: [2]), c = DeviceKey(bytes: [3])
        let start = Date(timeIntervalSince1970: 6_000) // a window boundary
        #expect(limiter.admit(device: a, address: "x", now: start) == nil)
        #expect(limiter.admit(device: a, address: "y", now: start + 1) == nil)
        #expect(limiter.admit(device: a, address: "z", now: start + 10) == 50)
        #expect(limiter.admit(device: b, address: "x", now: start + 20) == nil)
        #expect(limiter.admit(device: c, address: "x", now: start + 30) == 30) // address x is spent
        #expect(limiter.admit(device: c, address: nil, now: start + 59.5) == nil)
        #expect(limiter.trackedKeys.devices == 3)
        #expect(limiter.admit(device: a, address: "x", now: start + 60) == nil)
        #expect(limiter.trackedKeys.devices == 1 && limiter.trackedKeys.addresses == 1)
        #expect(CrowdRateLimiter(limit: 0).admit(device: a, address: "x", now: start) == nil)
    }

    @Test("the rate limiter's memory is bounded: keys beyond maxKeys are not tracked")
    func limiterBound() {
        let limiter = CrowdRateLimiter(limit: 1, maxKeys: 100)
        let now = Date(timeIntervalSince1970: 6_000)
        for i in 0..<1000 {
            _ = limiter.admit(device: DeviceKey(bytes: [UInt8(i & 255), UInt8(i >> 8)]), address: "10.0.\(i / 256).\(i % 256)", now: now)
        }
        #expect(limiter.trackedKeys.devices == 100 && limiter.trackedKeys.addresses == 100)
    }

    @Test("device keys: HMAC-SHA-256 under the data folder's secret, the same after reopening, different per folder")
    func deviceKeys() throws {
        let one = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-crowd-keys-\(UUID().uuidString)")
        let two = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-crowd-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: one); try? FileManager.default.removeItem(at: two) }
        let first = try CrowdDeviceKeys(dataDirectory: one).key(for: "token")
        #expect(first.bytes.count == 32)
        #expect(try CrowdDeviceKeys(dataDirectory: one).key(for: "token") == first)
        #expect(try CrowdDeviceKeys(dataDirectory: one).key(for: "token2") != first)
        #expect(try CrowdDeviceKeys(dataDirectory: two).key(for: "token") != first)
        // RFC 4231 test case 2: HMAC-SHA-256(key "Jefe", "what do ya want for nothing?").
        let known = CrowdDeviceKeys(secret: Array("Jefe".utf8)).key(for: "what do ya want for nothing?")
        #expect(known.bytes.map { String(format: "%02x", $0) }.joined() == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        try Data([1, 2, 3]).write(to: one.appendingPathComponent(CrowdDeviceKeys.fileName))
        #expect(throws: CrowdKeyError.self) { try CrowdDeviceKeys(dataDirectory: one) }
    }

    @Test("--crowd-database: none or postgres URLs; anything else is refused with a clear message")
    func databaseURL() throws {
        try CrowdBackend.validate(url: nil)
        try CrowdBackend.validate(url: "postgres://quintet@localhost:5432/quintet")
        try CrowdBackend.validate(url: "postgresql://u:p@db.example.org/crowd")
        for bad in ["mysql://localhost/x", "crowd.sqlite", "postgres://", "http://localhost"] {
            #expect(throws: CrowdBackendError.self, "\(bad)") { try CrowdBackend.validate(url: bad) }
        }
    }
}
