import Foundation

/// The engine's spatial index: a uniform grid in degrees over the whole sphere.
///
/// Cells are `1 / cellsPerDegree` degrees on a side (0.001° by default: 111 m north–south,
/// about 80 m east–west at 44° N). Rows are numbered by latitude from the south pole, columns
/// by longitude from the antimeridian; each row that holds anything keeps a map from its
/// columns to the slots of the locations whose centre lies in that cell. A location never
/// moves, so it is filed once, when it is founded, and removed once, when it empties.
///
/// A query for "everything within `r` metres of a point" returns a superset (the caller
/// filters by ``CrowdRules/distance(lat1:lon1:lat2:lon2:)``, inclusive):
/// - the rows between `φ₀ − δ` and `φ₀ + δ` (`δ = r / R`, the angular radius), clamped to the
///   poles;
/// - in each row, the columns within `Δλ` of the centre's longitude, where `Δλ` is the exact
///   spherical half-width of the circle at the row's worst latitude: from the haversine,
///   `hav Δλ = (hav δ − hav(φ − φ₀)) / (cos φ₀ cos φ)`, largest at `sin φ* = sin φ₀ / cos δ`
///   (or at the band's edge nearest to it). When that has no answer (`hav Δλ ≥ 1`: the circle
///   reaches over a pole) the row is taken whole;
/// - longitudes wrap across ±180°, so a search beside the antimeridian finds both sides.
///
/// All bounds carry a small relative margin, so rounding can only add candidates, never drop
/// one.
struct CrowdGrid {
    /// What a cell keeps of each location: enough to measure and filter it without touching
    /// the location's record (a search reads cells, which sit together in memory; the records
    /// are scattered and each would cost a cache miss).
    struct Entry {
        var lat: Double
        var lon: Double
        /// `cos(lat · π/180)`.
        var cosLat: Double
        var id: Int64
        var ageSum: Int64
        var slot: Int32
        var people: Int32
        var ageCount: Int32
        var men: Int32
        var women: Int32
    }

    /// Cells per degree (1000: 0.001° cells).
    let cellsPerDegree: Double
    /// Columns around the sphere.
    let columnCount: Int
    /// Rows from pole to pole (the last holds exactly +90°).
    let rowCount: Int
    private var rows: [Int32: [Int32: [Entry]]] = [:]

    init(cellsPerDegree: Int = 1000) {
        self.cellsPerDegree = Double(cellsPerDegree)
        self.columnCount = 360 * cellsPerDegree
        self.rowCount = 180 * cellsPerDegree + 1
    }

    /// The row of a latitude in degrees.
    @inline(__always)
    func row(lat: Double) -> Int32 {
        let r = Int(((lat + 90) * cellsPerDegree).rounded(.down))
        return Int32(Swift.min(Swift.max(r, 0), rowCount - 1))
    }

    /// The column of a longitude in degrees (+180° and −180° share one).
    @inline(__always)
    func column(lon: Double) -> Int32 {
        let c = Int(((lon + 180) * cellsPerDegree).rounded(.down))
        return Int32(wrap(c))
    }

    @inline(__always)
    private func wrap(_ column: Int) -> Int {
        let m = column % columnCount
        return m < 0 ? m + columnCount : m
    }

    /// Files a location under its cell.
    mutating func insert(_ entry: Entry, row: Int32, column: Int32) {
        rows[row, default: [:]][column, default: []].append(entry)
    }

    /// Files a location's slot under its cell (tests: the measuring fields are left empty).
    mutating func insert(slot: Int32, row: Int32, column: Int32) {
        insert(Entry(lat: 0, lon: 0, cosLat: 0, id: Int64(slot), ageSum: 0, slot: slot, people: 0, ageCount: 0, men: 0, women: 0),
               row: row, column: column)
    }

    /// Edits a location's entry in place (its statistics change with every join and leave).
    mutating func update(slot: Int32, row: Int32, column: Int32, _ body: (inout Entry) -> Void) {
        guard let index = rows[row]?[column]?.firstIndex(where: { $0.slot == slot }) else { return }
        body(&rows[row]![column]![index])
    }

    /// Removes a location's slot from its cell (dropping the cell and row once empty).
    mutating func remove(slot: Int32, row: Int32, column: Int32) {
        // No local copy of the cell: the edits below stay in place.
        guard let index = rows[row]?[column]?.firstIndex(where: { $0.slot == slot }), let count = rows[row]?[column]?.count else { return }
        let last = count - 1
        if last == 0 {
            rows[row]?[column] = nil
            if rows[row]?.isEmpty == true { rows[row] = nil }
        } else {
            rows[row]?[column]?.swapAt(index, last)
            rows[row]?[column]?.removeLast()
        }
    }

    /// Number of non-empty cells (for tests and figures).
    var cellCount: Int { rows.values.reduce(0) { $0 + $1.count } }

    /// Calls `body` with the slot of every location filed in a cell that may hold points
    /// within `radius` metres of (`lat`, `lon`). A superset: filter by distance.
    func forEachCandidate(lat: Double, lon: Double, radius: Double, _ body: (Int32) -> Void) {
        forEachEntry(lat: lat, lon: lon, radius: radius) { body($0.slot) }
    }

    /// Calls `body` with the entry of every location filed in a cell that may hold points
    /// within `radius` metres of (`lat`, `lon`). A superset: filter by distance.
    func forEachEntry(lat: Double, lon: Double, radius: Double, _ body: (Entry) -> Void) {
        let toRadians = Double.pi / 180
        let delta = radius / CrowdRules.earthRadius * (1 + 1e-9) + 1e-12
        let deltaDegrees = delta / toRadians
        let latLo = Swift.max(-90, lat - deltaDegrees)
        let latHi = Swift.min(90, lat + deltaDegrees)
        let rowLo = row(lat: latLo), rowHi = row(lat: latHi)
        let phi0 = lat * toRadians
        let cosPhi0 = cos(phi0)
        let sinHalfDelta = sin(delta / 2)
        let havDelta = sinHalfDelta * sinHalfDelta
        // The latitude where the circle is widest in longitude.
        let sinStar = sin(phi0) / cos(delta)
        let phiStar = sinStar >= 1 ? Double.pi / 2 : (sinStar <= -1 ? -Double.pi / 2 : asin(sinStar))
        let slack = 1e-9 / cellsPerDegree
        for r in rowLo...rowHi {
            guard let cells = rows[r] else { continue }
            // This row's band of latitudes, within the circle's.
            let bandLo = Swift.max(latLo, Double(r) / cellsPerDegree - 90 - slack) * toRadians
            let bandHi = Swift.min(latHi, Double(r + 1) / cellsPerDegree - 90 + slack) * toRadians
            let phi = Swift.min(Swift.max(phiStar, bandLo), bandHi)
            let s = sin((phi - phi0) / 2)
            let h = Swift.max(0, (havDelta - s * s) / (cosPhi0 * cos(phi)))
            guard h.isFinite, h < 1 - 1e-9 else {
                for cell in cells.values { for entry in cell { body(entry) } }
                continue
            }
            let halfWidth = 2 * asin(h.squareRoot()) * (1 + 1e-9) / toRadians + slack
            let lo = lon - halfWidth, hi = lon + halfWidth
            var cLo = Int(((lo + 180) * cellsPerDegree).rounded(.down))
            var cHi = Int(((hi + 180) * cellsPerDegree).rounded(.down))
            if lo < -180 || hi > 180 {
                // Rounding across the wrap is not monotonic: take one more column each side.
                cLo -= 1
                cHi += 1
            }
            let span = cHi - cLo + 1
            if span >= columnCount {
                for cell in cells.values { for entry in cell { body(entry) } }
            } else if span > cells.count {
                // Fewer filed cells than columns in range: walk the row's map.
                let start = wrap(cLo)
                for (column, cell) in cells {
                    var offset = Int(column) - start
                    if offset < 0 { offset += columnCount }
                    if offset < span { for entry in cell { body(entry) } }
                }
            } else {
                for c in cLo...cHi {
                    if let cell = cells[Int32(wrap(c))] { for entry in cell { body(entry) } }
                }
            }
        }
    }
}
