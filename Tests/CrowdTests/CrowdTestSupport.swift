import Crowd
import Foundation

/// A 32-byte device key made from a number (the server's keys are HMAC-SHA-256 hashes).
func deviceKey(_ n: Int) -> DeviceKey {
    var bytes = [UInt8](repeating: 0xA5, count: 32)
    withUnsafeBytes(of: UInt64(n).littleEndian) { for (i, b) in $0.enumerated() { bytes[i] = b } }
    return DeviceKey(bytes: bytes)
}

/// Metres of one degree of latitude on the rules' sphere.
let metresPerDegree = CrowdRules.earthRadius * Double.pi / 180

/// A latitude north of `lat` (same longitude) whose haversine distance from (`lat`, `lon`) is
/// exactly `metres` as ``CrowdRules/distance`` computes it, found by stepping ulps; nil if no
/// double lands exactly (use a `lat` near 0, where latitudes are finer than metres' ulps).
func latitude(exactly metres: Double, northOf lat: Double, lon: Double) -> Double? {
    var candidate = lat + metres / metresPerDegree
    for _ in 0..<10_000 {
        let d = CrowdRules.distance(lat1: lat, lon1: lon, lat2: candidate, lon2: lon)
        if d == metres { return candidate }
        candidate = d < metres ? candidate.nextUp : candidate.nextDown
    }
    return nil
}

/// The smallest latitude north of `lat` whose distance is strictly more than `metres`.
func latitude(justBeyond metres: Double, northOf lat: Double, lon: Double) -> Double {
    var candidate = latitude(exactly: metres, northOf: lat, lon: lon) ?? (lat + metres / metresPerDegree)
    while CrowdRules.distance(lat1: lat, lon1: lon, lat2: candidate, lon2: lon) <= metres { candidate = candidate.nextUp }
    return candidate
}

/// A clock the tests move by hand.
struct TestClock {
    var seconds: Double = 800_000_000
    var now: Date { Date(timeIntervalSinceReferenceDate: seconds) }
    mutating func advance(_ s: Double) { seconds += s }
}

/// A fresh folder under the temporary directory.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("crowd-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
