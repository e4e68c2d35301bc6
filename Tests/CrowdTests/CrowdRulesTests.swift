import Crowd
import Foundation
import Testing

@Suite("Crowd rules: haversine and validation")
struct CrowdRulesTests {
    @Test("one degree of latitude is R·π/180 metres; the distance is symmetric and zero at a point")
    func haversine() {
        let d = CrowdRules.distance(lat1: 44.0, lon1: 11.0, lat2: 45.0, lon2: 11.0)
        #expect(abs(d - CrowdRules.earthRadius * Double.pi / 180) < 1e-6)
        #expect(CrowdRules.distance(lat1: 44.5, lon1: 11.3, lat2: 44.5, lon2: 11.3) == 0)
        let ab = CrowdRules.distance(lat1: 44.49, lon1: 11.34, lat2: 44.50, lon2: 11.35)
        let ba = CrowdRules.distance(lat1: 44.50, lon1: 11.35, lat2: 44.49, lon2: 11.34)
        #expect(ab == ba)
        // Antipodes: half the circumference.
        #expect(abs(CrowdRules.distance(lat1: 0, lon1: 0, lat2: 0, lon2: 180) - CrowdRules.earthRadius * Double.pi) < 1e-6)
    }

    @Test("each bad field is named", arguments: [
        ("lat", CrowdSearch(lat: .nan, lon: 0)), ("lat", CrowdSearch(lat: 90.0001, lon: 0)),
        ("lon", CrowdSearch(lat: 0, lon: -.infinity)), ("radius", CrowdSearch(lat: 0, lon: 0, radius: 0)),
        ("radius", CrowdSearch(lat: 0, lon: 0, radius: 1_000_000_000)), ("min", CrowdSearch(lat: 0, lon: 0, min: 30, max: 20)),
        ("max", CrowdSearch(lat: 0, lon: 0, max: 101)), ("limit", CrowdSearch(lat: 0, lon: 0, limit: 20_001)),
    ])
    func badSearch(field: String, search: CrowdSearch) {
        let error = #expect(throws: CrowdValidationError.self) { try CrowdRules.validate(search) }
        #expect(error?.field == field)
    }

    @Test("comments: plain text of 1 to 200 characters")
    func comments() throws {
        try CrowdRules.validate(comment: "Piazza Maggiore è piena 🎉")
        try CrowdRules.validate(comment: String(repeating: "a", count: 200))
        for bad in ["", String(repeating: "a", count: 201), "<script>alert(1)</script>", "a > b", "line\nbreak", "nul\u{0}"] {
            #expect(throws: CrowdValidationError.self) { try CrowdRules.validate(comment: bad) }
        }
    }
}

@Suite("Crowd rules: the distance with given cosines")
struct CrowdDistanceFormsTests {
    @Test("the cosine-taking form is bit for bit the plain one, everywhere")
    func sameBits() {
        var random = SeededRandom(state: 7)
        for _ in 0..<20_000 {
            let lat1 = Double.random(in: -90...90, using: &random), lon1 = Double.random(in: -180...180, using: &random)
            let near = Bool.random(using: &random)
            let lat2 = near ? max(-90, min(90, lat1 + Double.random(in: -0.02...0.02, using: &random))) : Double.random(in: -90...90, using: &random)
            let lon2 = near ? lon1 + Double.random(in: -0.02...0.02, using: &random) : Double.random(in: -180...180, using: &random)
            let plain = CrowdRules.distance(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
            let cached = CrowdRules.distance(lat1: lat1, lon1: lon1, cosLat1: cos(lat1 * (Double.pi / 180)),
                                             lat2: lat2, lon2: lon2, cosLat2: cos(lat2 * (Double.pi / 180)))
            #expect(plain.bitPattern == cached.bitPattern)
        }
    }
}
