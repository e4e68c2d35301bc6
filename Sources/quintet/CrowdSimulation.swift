import AudioCore
import Crowd
import Foundation
import WireFormats

/// A moving crowd for demos and load tests (`quintet crowd simulate`): devices gather around
/// hotspots (bars, squares, stops) scattered uniformly over a disc, each standing within 4 m of
/// its hotspot, so every hotspot makes one location of several people. One hotspot in a
/// hundred is popular and draws a twentieth of everyone. Each round every device reports
/// once: in the first it arrives; later, four in five shuffle a few metres (and stay in their
/// location) and one in five walks to another hotspot. Seven in ten give an age (16–70),
/// four in five a sex, one in fifty a comment. Deterministic for a seed.
///
/// ```swift
/// var crowd = CrowdSimulation(devices: 1000, area: .init(lat: 45.4642, lon: 9.19, radius: 2000), hotspots: 200, seed: 1)
/// let first = crowd.round(0)   // 1,000 reports
/// ```
struct CrowdSimulation: Sendable {
    /// The disc the crowd stands in.
    struct Area: Sendable, Hashable {
        var lat: Double
        var lon: Double
        /// Metres.
        var radius: Double

        init(lat: Double, lon: Double, radius: Double) {
            self.lat = lat
            self.lon = lon
            self.radius = radius
        }

        /// Parses `LAT,LON,RADIUS_M` (`45.4642,9.19,8000`); throws a ``CrowdValidationError`` naming `area` otherwise.
        static func parse(_ text: String) throws -> Area {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 3, let lat = Double(parts[0]), let lon = Double(parts[1]), let radius = Double(parts[2]) else {
                throw CrowdValidationError(field: "area", reason: "must be LAT,LON,RADIUS_M like 45.4642,9.19,8000, not '\(text.prefix(60))'")
            }
            do { try CrowdRules.validate(lat: lat, lon: lon) } catch let error as CrowdValidationError {
                throw CrowdValidationError(field: "area", reason: "\(error.field == "lat" ? "latitude" : "longitude") \(error.reason)")
            }
            guard radius.isFinite, (10...100_000).contains(radius) else {
                throw CrowdValidationError(field: "area", reason: "radius must be 10 to 100000 metres")
            }
            guard abs(lat) < 85 else { throw CrowdValidationError(field: "area", reason: "latitude must be within ±85° (the disc is laid out on a local plane)") }
            return Area(lat: lat, lon: lon, radius: radius)
        }
    }

    /// One report as the API takes it.
    struct Report: Sendable, Hashable {
        var device: String
        var lat: Double
        var lon: Double
        var age: Int?
        var sex: CrowdSex?
        var comment: String?

        /// The JSON body of `POST /api/crowd/reports` (radius 200, the defaults otherwise).
        var json: String {
            var text = "{\"device\":" + JSONString.quoted(device) + ",\"lat\":\(lat),\"lon\":\(lon)"
            if let age { text += ",\"age\":\(age)" }
            if let sex { text += ",\"sex\":" + JSONString.quoted(sex.rawValue) }
            if let comment { text += ",\"comment\":" + JSONString.quoted(comment) }
            return text + "}"
        }

        /// The core's report for `key`.
        func report(device key: DeviceKey) -> CrowdReport {
            CrowdReport(device: key, lat: lat, lon: lon, age: age, sex: sex, comment: comment)
        }
    }

    let area: Area
    let deviceCount: Int
    private let seed: UInt64
    private var random: SplitMix64
    private var hotspots: [(lat: Double, lon: Double)] = []
    private var hotspotOf: [Int32]
    private var ageOf: [UInt8]      // 0: none, else age + 1
    private var sexOf: [UInt8]      // 0: none, 1: m, 2: f

    static let comments = ["great music here", "long queue at the bar", "free seats inside", "nice sunset",
                           "street food is good", "too crowded", "live band starting", "quiet tonight"]

    /// A crowd of `devices` around `hotspots` hotspots (at least 1) in `area`.
    init(devices: Int, area: Area, hotspots: Int, seed: UInt64) {
        self.area = area
        self.deviceCount = devices
        self.seed = seed
        random = SplitMix64(seed: seed)
        let count = Swift.max(1, hotspots)
        self.hotspots.reserveCapacity(count)
        for _ in 0..<count {
            // Uniform over the disc: r = R·√u.
            let r = area.radius * random.nextUnit().squareRoot(), angle = 2 * Double.pi * random.nextUnit()
            self.hotspots.append(Self.offset(area.lat, area.lon, north: r * cos(angle), east: r * sin(angle)))
        }
        hotspotOf = []
        ageOf = []
        sexOf = []
        hotspotOf.reserveCapacity(devices)
        ageOf.reserveCapacity(devices)
        sexOf.reserveCapacity(devices)
        for _ in 0..<devices {
            hotspotOf.append(pickHotspot())
            ageOf.append(random.nextUnit() < 0.7 ? UInt8(16 + random.next() % 55) + 1 : 0)
            let u = random.nextUnit()
            sexOf.append(u < 0.4 ? 1 : u < 0.8 ? 2 : 0)
        }
    }

    private mutating func pickHotspot() -> Int32 {
        let count = hotspots.count
        if count >= 100, random.nextUnit() < 0.05 { return Int32(random.next() % UInt64(count / 100)) }
        return Int32(random.next() % UInt64(count))
    }

    /// The device token of device `index` (the same for every round of this seed).
    func token(_ index: Int) -> String { "sim-\(seed)-\(index)" }

    /// Every device's report of round `round` (0 = arrival), in device order.
    mutating func round(_ round: Int) -> [Report] {
        var reports: [Report] = []
        reports.reserveCapacity(deviceCount)
        for index in 0..<deviceCount {
            if round > 0, random.nextUnit() < 0.2 { hotspotOf[index] = pickHotspot() }
            let spot = hotspots[Int(hotspotOf[index])]
            let r = 4 * random.nextUnit().squareRoot(), angle = 2 * Double.pi * random.nextUnit()
            let (lat, lon) = Self.offset(spot.lat, spot.lon, north: r * cos(angle), east: r * sin(angle))
            let comment = random.nextUnit() < 0.02 ? Self.comments[Int(random.next() % UInt64(Self.comments.count))] : nil
            reports.append(Report(device: token(index), lat: lat, lon: lon,
                                  age: ageOf[index] == 0 ? nil : Int(ageOf[index]) - 1,
                                  sex: sexOf[index] == 1 ? .male : sexOf[index] == 2 ? .female : nil,
                                  comment: comment))
        }
        return reports
    }

    /// A point `north` and `east` metres from (lat, lon), on the local tangent plane.
    static func offset(_ lat: Double, _ lon: Double, north: Double, east: Double) -> (lat: Double, lon: Double) {
        let dLat = north / CrowdRules.earthRadius * 180 / .pi
        let dLon = east / (CrowdRules.earthRadius * cos(lat * .pi / 180)) * 180 / .pi
        var newLon = lon + dLon
        if newLon > 180 { newLon -= 360 } else if newLon < -180 { newLon += 360 }
        return (Swift.min(90, Swift.max(-90, lat + dLat)), newLon)
    }
}
