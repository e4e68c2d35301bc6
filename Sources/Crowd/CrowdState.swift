import Foundation

/// A device key packed into four words plus its length, for hashing without an array: keys of
/// 1 to 32 bytes (the server's HMAC-SHA-256 keys are 32).
struct CrowdDeviceID: Hashable {
    var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0
    var count: UInt8 = 0

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard (1...32).contains(bytes.count) else { return nil }
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
        (w0, w1, w2, w3) = words
        count = UInt8(bytes.count)
    }

    init?(_ key: DeviceKey) {
        guard let id = key.bytes.withUnsafeBytes({ CrowdDeviceID($0) }) else { return nil }
        self = id
    }

    /// The key's bytes as a blob (built outside the engine's lock, by the writer).
    var data: Data {
        var words = (w0, w1, w2, w3)
        return withUnsafeBytes(of: &words) { Data($0.prefix(Int(count))) }
    }

    var bytes: [UInt8] {
        var words = (w0, w1, w2, w3)
        return withUnsafeBytes(of: &words) { Array($0.prefix(Int(count))) }
    }
}

/// The whole crowd in memory, and the semantics over it (docs/crowd.md). Not thread-safe: the
/// engine keeps it behind one lock. Every change marks what it touched, so the store can write
/// the current rows of exactly those (``takeBatch()``).
struct CrowdState {
    struct Device {
        var id: CrowdDeviceID
        /// Slot of its location.
        var location: Int32
        /// Seconds since the reference date.
        var lastSeen: Double
        /// -1: not given.
        var age: Int16
        var sex: CrowdSex?
        /// Neighbours in the expiry list (oldest report first); -1 at the ends.
        var older: Int32
        var newer: Int32
    }

    struct StoredComment {
        var id: Int64
        var text: String
        var time: Double
    }

    struct Location {
        var id: Int64
        var lat: Double
        var lon: Double
        /// `cos(lat · π/180)`, for ``CrowdRules/distance(lat1:lon1:cosLat1:lat2:lon2:cosLat2:)``.
        var cosLat: Double
        var people = 0
        var ageSum = 0
        var ageCount = 0
        var men = 0
        var women = 0
        var row: Int32
        var column: Int32
    }

    let settings: CrowdSettings
    private(set) var grid: CrowdGrid
    private var devices: [Device] = []
    private var freeDevices: [Int32] = []
    private var deviceIndex: [CrowdDeviceID: Int32] = [:]
    private var oldest: Int32 = -1
    private var newest: Int32 = -1
    private var locations: [Location] = []
    private var freeLocations: [Int32] = []
    private var locationIndex: [Int64: Int32] = [:]
    /// The latest comments of the locations that have any, oldest first (at most
    /// ``CrowdRules/commentsShown``), by location slot. Kept apart so a location is plain data
    /// the search can copy for free.
    private var comments: [Int32: [StoredComment]] = [:]
    private(set) var nextLocationID: Int64 = 1
    private(set) var nextCommentID: Int64 = 1
    private(set) var commentCount = 0
    /// Bumped by every call that changed something.
    private(set) var changeNumber: UInt64 = 0

    private var dirtyDevices: Set<CrowdDeviceID> = []
    /// Locations founded or deleted since the last batch.
    private var dirtyLocations: Set<Int64> = []
    /// Locations whose statistics changed since they were last written. The stored statistics
    /// are a summary refreshed at ``CrowdEngine/close()`` (and after loading); the devices are
    /// the truth and loading recomputes them, so a report need not rewrite its locations' rows.
    private var staleStatistics: Set<Int64> = []
    /// Deleted locations that had comments (theirs go too).
    private var commentsOfDeleted: [Int64] = []
    private var newComments: [CrowdCommentRow] = []
    private var droppedComments: [Int64] = []
    /// The stored rows while loading, to write back only the statistics that differ.
    private var loadedRows: [Int64: CrowdLocationRow] = [:]

    init(settings: CrowdSettings, cellsPerDegree: Int = 1000) {
        self.settings = settings
        self.grid = CrowdGrid(cellsPerDegree: cellsPerDegree)
    }

    var deviceCount: Int { deviceIndex.count }
    var locationCount: Int { locationIndex.count }

    // MARK: loading

    /// Re-creates a stored location (empty: its members come with ``loadDevice``).
    mutating func loadLocation(_ row: CrowdLocationRow) {
        guard locationIndex[row.id] == nil, (try? CrowdRules.validate(lat: row.lat, lon: row.lon)) != nil else { return }
        _ = newLocationSlot(id: row.id, lat: row.lat, lon: row.lon)
        loadedRows[row.id] = row
        nextLocationID = Swift.max(nextLocationID, row.id + 1)
    }

    /// Re-creates a stored device in its location; a device whose location is gone is dropped.
    mutating func loadDevice(key: UnsafeRawBufferPointer, locationID: Int64, lastSeen: Double, age: Int?, sex: CrowdSex?) {
        guard let id = CrowdDeviceID(key) else { return }
        guard deviceIndex[id] == nil, let location = locationIndex[locationID] else {
            dirtyDevices.insert(id)
            return
        }
        let age16 = age.map { Int16(clamping: $0) } ?? -1
        _ = newDeviceSlot(Device(id: id, location: location, lastSeen: lastSeen, age: age16, sex: sex, older: -1, newer: -1))
        join(location, age: age16, sex: sex)
    }

    /// Re-attaches a stored comment (in id order).
    mutating func loadComment(_ row: CrowdCommentRow) {
        nextCommentID = Swift.max(nextCommentID, row.id + 1)
        guard let slot = locationIndex[row.locationID] else {
            droppedComments.append(row.id)
            return
        }
        addComment(StoredComment(id: row.id, text: row.text, time: row.time), to: slot)
    }

    /// After loading: orders the expiry list, deletes locations nobody is in, and takes the
    /// stored counters if they are ahead. The stored statistics are recomputed from the devices
    /// rather than trusted; whatever differed is marked to be written back.
    mutating func finishLoading(nextLocationID storedLocationID: Int64, nextCommentID storedCommentID: Int64) {
        nextLocationID = Swift.max(nextLocationID, storedLocationID)
        nextCommentID = Swift.max(nextCommentID, storedCommentID)
        var order = deviceIndex.values.map { $0 }
        order.sort { devices[Int($0)].lastSeen < devices[Int($1)].lastSeen }
        for slot in order { appendNewest(slot) }
        dirtyLocations.removeAll()
        staleStatistics.removeAll()
        for (id, stored) in loadedRows {
            guard let slot = locationIndex[id] else { continue }
            let l = locations[Int(slot)]
            if (l.people, l.ageSum, l.ageCount, l.men, l.women) != (stored.people, stored.ageSum, stored.ageCount, stored.men, stored.women) {
                dirtyLocations.insert(id)
            }
        }
        loadedRows = [:]
        for slot in Array(locationIndex.values) where locations[Int(slot)].people == 0 {
            deleteLocation(slot)
        }
    }

    // MARK: the semantics

    /// Drops every device whose last report is more than `expiry` seconds before `now`.
    /// Answers whether anything changed.
    @discardableResult
    mutating func expire(now: Double) -> Bool {
        var changed = false
        while oldest >= 0, now - devices[Int(oldest)].lastSeen > settings.expiry {
            removeDevice(oldest)
            changed = true
        }
        if changed { changeNumber &+= 1 }
        return changed
    }

    /// Applies a validated report at `now` (seconds since the reference date) and answers it.
    mutating func report(_ report: CrowdReport, id: CrowdDeviceID, now: Double) -> CrowdReportResult {
        expire(now: now)
        let age16: Int16 = report.age.map { Int16($0) } ?? -1
        let target: Int32
        if let slot = deviceIndex[id] {
            let device = devices[Int(slot)]
            let current = locations[Int(device.location)]
            if CrowdRules.distance(lat1: report.lat, lon1: report.lon, lat2: current.lat, lon2: current.lon) <= CrowdRules.joinDistance {
                target = device.location
                restate(target, from: (device.age, device.sex), to: (age16, report.sex))
            } else {
                leave(device.location, age: device.age, sex: device.sex)
                target = nearestLocation(lat: report.lat, lon: report.lon) ?? foundLocation(lat: report.lat, lon: report.lon)
                join(target, age: age16, sex: report.sex)
            }
            devices[Int(slot)].location = target
            devices[Int(slot)].age = age16
            devices[Int(slot)].sex = report.sex
            unlink(slot)
            devices[Int(slot)].lastSeen = now
            appendNewest(slot)
        } else {
            target = nearestLocation(lat: report.lat, lon: report.lon) ?? foundLocation(lat: report.lat, lon: report.lon)
            join(target, age: age16, sex: report.sex)
            let slot = newDeviceSlot(Device(id: id, location: target, lastSeen: now, age: age16, sex: report.sex, older: -1, newer: -1))
            appendNewest(slot)
        }
        dirtyDevices.insert(id)
        if let text = report.comment {
            let comment = StoredComment(id: nextCommentID, text: text, time: now)
            nextCommentID += 1
            newComments.append(CrowdCommentRow(id: comment.id, locationID: locations[Int(target)].id, text: text, time: now))
            addComment(comment, to: target)
        }
        changeNumber &+= 1
        let location = locations[Int(target)]
        let own = CrowdOwnLocation(id: location.id, lat: location.lat, lon: location.lon,
                                   people: location.people >= settings.minGroup ? location.people : nil)
        return CrowdReportResult(location: own, search: search(report.search))
    }

    /// Answers a validated search (after ``expire(now:)``).
    func search(_ search: CrowdSearch) -> CrowdSearchResult {
        let lower = Swift.max(search.min, settings.minGroup), upper = search.max
        guard lower <= upper else { return CrowdSearchResult(locations: [], truncated: false) }
        struct Hit {
            var distance: Double
            var entry: CrowdGrid.Entry
        }
        var hits: [Hit] = []
        hits.reserveCapacity(64)
        let radius = Double(search.radius)
        let lat = search.lat, lon = search.lon, cosLat = cos(lat * (Double.pi / 180))
        // A cheap sure rejection before the haversine: sin²x ≥ x²(1 − x²/3) for |x| < 1, so
        // x²(1 − x²/3) + cos φ₁ cos φ₂ · y²(1 − y²/3) (x, y half the latitude and longitude
        // differences in radians) never exceeds the haversine's `a`. When it is clearly above the
        // `a` of the radius (by a relative 1e-6, far beyond rounding), the distance is over the
        // radius; anything else is measured exactly.
        let halfRadians = Double.pi / 360
        let aMax = { let s = sin(radius / CrowdRules.earthRadius / 2); return s * s * (1 + 1e-6) }()
        grid.forEachEntry(lat: lat, lon: lon, radius: radius) { entry in
            let people = Int(entry.people)
            guard people >= lower, people <= upper else { return }
            let x = (entry.lat - lat) * halfRadians, y = (entry.lon - lon) * halfRadians
            if abs(x) < 0.5, abs(y) < 0.5 {
                let x2 = x * x, y2 = y * y
                if x2 * (1 - x2 / 3) + cosLat * entry.cosLat * (y2 * (1 - y2 / 3)) > aMax { return }
            }
            let d = CrowdRules.distance(lat1: lat, lon1: lon, cosLat1: cosLat, lat2: entry.lat, lon2: entry.lon, cosLat2: entry.cosLat)
            if d <= radius { hits.append(Hit(distance: d, entry: entry)) }
        }
        var truncated = false
        if hits.count > search.limit {
            truncated = true
            hits.sort { a, b in
                if a.entry.people != b.entry.people { return a.entry.people > b.entry.people }
                if a.distance != b.distance { return a.distance < b.distance }
                return a.entry.id < b.entry.id
            }
            hits.removeSubrange(search.limit...)
        }
        // Ordered by distance, then id: sorted as small keys (the bits of a non-negative double
        // order as the double does; ids are unique, so no stability is needed), not as hits.
        var order = [(distance: UInt64, id: Int64, hit: Int32)]()
        order.reserveCapacity(hits.count)
        for (index, hit) in hits.enumerated() {
            order.append((hit.distance.bitPattern, hit.entry.id, Int32(truncatingIfNeeded: index)))
        }
        order.sort { a, b in a.distance != b.distance ? a.distance < b.distance : a.id < b.id }
        let found = order.map { key in
            let hit = hits[Int(key.hit)], e = hit.entry
            return CrowdLocation(id: e.id, lat: e.lat, lon: e.lon, people: Int(e.people),
                                 averageAge: e.ageCount > 0 ? Double(e.ageSum) / Double(e.ageCount) : nil,
                                 men: Int(e.men), women: Int(e.women), distance: hit.distance)
        }
        return CrowdSearchResult(locations: found, truncated: truncated)
    }

    /// One location with its latest comments, newest first; nil when absent or below the
    /// minimum group.
    func detail(id: Int64) -> CrowdLocationDetail? {
        guard let slot = locationIndex[id] else { return nil }
        let location = locations[Int(slot)]
        guard location.people >= settings.minGroup else { return nil }
        let comments = (self.comments[slot] ?? []).reversed().map {
            CrowdComment(text: $0.text, time: Date(timeIntervalSinceReferenceDate: $0.time))
        }
        return CrowdLocationDetail(location: describe(location, distance: 0), comments: comments)
    }

    private func describe(_ location: Location, distance: Double) -> CrowdLocation {
        CrowdLocation(id: location.id, lat: location.lat, lon: location.lon, people: location.people,
                      averageAge: location.ageCount > 0 ? Double(location.ageSum) / Double(location.ageCount) : nil,
                      men: location.men, women: location.women, distance: distance)
    }

    // MARK: the store's batches

    /// The current rows of everything changed since the last batch (with `statistics`, also of
    /// every location whose statistics changed); clears the marks.
    mutating func takeBatch(statistics: Bool = false) -> CrowdChangeBatch {
        var batch = CrowdChangeBatch()
        batch.upsertDevices.reserveCapacity(dirtyDevices.count)
        for id in dirtyDevices {
            if let slot = deviceIndex[id] {
                let d = devices[Int(slot)]
                batch.upsertDevices.append(CrowdDeviceRow(key: id, locationID: locations[Int(d.location)].id,
                                                          lastSeen: d.lastSeen, age: d.age >= 0 ? Int(d.age) : nil, sex: d.sex))
            } else {
                batch.deleteDevices.append(id)
            }
        }
        for id in dirtyLocations {
            if let slot = locationIndex[id] {
                let l = locations[Int(slot)]
                batch.upsertLocations.append(CrowdLocationRow(id: l.id, lat: l.lat, lon: l.lon, people: l.people, ageSum: l.ageSum,
                                                              ageCount: l.ageCount, men: l.men, women: l.women))
            } else {
                batch.deleteLocations.append(id)
            }
        }
        if statistics {
            for id in staleStatistics where !dirtyLocations.contains(id) {
                guard let slot = locationIndex[id] else { continue }
                let l = locations[Int(slot)]
                batch.upsertLocations.append(CrowdLocationRow(id: l.id, lat: l.lat, lon: l.lon, people: l.people, ageSum: l.ageSum,
                                                              ageCount: l.ageCount, men: l.men, women: l.women))
            }
            staleStatistics.removeAll()
        }
        batch.deleteCommentsOf = commentsOfDeleted
        commentsOfDeleted.removeAll(keepingCapacity: true)
        batch.insertComments = newComments
        batch.deleteComments = droppedComments
        batch.nextLocationID = nextLocationID
        batch.nextCommentID = nextCommentID
        dirtyDevices.removeAll(keepingCapacity: true)
        dirtyLocations.removeAll(keepingCapacity: true)
        newComments.removeAll(keepingCapacity: true)
        droppedComments.removeAll(keepingCapacity: true)
        return batch
    }

    // MARK: pieces

    /// The nearest location within the join distance (inclusive; ties: lowest id).
    private func nearestLocation(lat: Double, lon: Double) -> Int32? {
        var best: Int32 = -1
        var bestDistance = Double.infinity
        var bestID = Int64.max
        let cosLat = cos(lat * (Double.pi / 180))
        grid.forEachEntry(lat: lat, lon: lon, radius: CrowdRules.joinDistance) { entry in
            let d = CrowdRules.distance(lat1: lat, lon1: lon, cosLat1: cosLat, lat2: entry.lat, lon2: entry.lon, cosLat2: entry.cosLat)
            guard d <= CrowdRules.joinDistance else { return }
            let id = entry.id
            if d < bestDistance || (d == bestDistance && id < bestID) {
                best = entry.slot
                bestDistance = d
                bestID = id
            }
        }
        return best >= 0 ? best : nil
    }

    private mutating func foundLocation(lat: Double, lon: Double) -> Int32 {
        let id = nextLocationID
        nextLocationID += 1
        let slot = newLocationSlot(id: id, lat: lat, lon: lon)
        dirtyLocations.insert(id)
        return slot
    }

    private mutating func newLocationSlot(id: Int64, lat: Double, lon: Double) -> Int32 {
        let row = grid.row(lat: lat), column = grid.column(lon: lon)
        let location = Location(id: id, lat: lat, lon: lon, cosLat: cos(lat * (Double.pi / 180)), row: row, column: column)
        let slot: Int32
        if let free = freeLocations.popLast() {
            slot = free
            locations[Int(slot)] = location
        } else {
            slot = Int32(locations.count)
            locations.append(location)
        }
        locationIndex[id] = slot
        grid.insert(CrowdGrid.Entry(lat: lat, lon: lon, cosLat: location.cosLat, id: id, ageSum: 0, slot: slot, people: 0,
                                    ageCount: 0, men: 0, women: 0), row: row, column: column)
        return slot
    }

    private mutating func newDeviceSlot(_ device: Device) -> Int32 {
        let slot: Int32
        if let free = freeDevices.popLast() {
            slot = free
            devices[Int(slot)] = device
        } else {
            slot = Int32(devices.count)
            devices.append(device)
        }
        deviceIndex[device.id] = slot
        return slot
    }

    private mutating func join(_ slot: Int32, age: Int16, sex: CrowdSex?) {
        let i = Int(slot)
        locations[i].people += 1
        if age >= 0 {
            locations[i].ageSum += Int(age)
            locations[i].ageCount += 1
        }
        if sex == .male { locations[i].men += 1 } else if sex == .female { locations[i].women += 1 }
        staleStatistics.insert(locations[i].id)
        refreshEntry(slot)
    }

    /// Copies a location's statistics into its grid entry (which searches read).
    private mutating func refreshEntry(_ slot: Int32) {
        let l = locations[Int(slot)]
        grid.update(slot: slot, row: l.row, column: l.column) { entry in
            entry.people = Int32(clamping: l.people)
            entry.ageSum = Int64(l.ageSum)
            entry.ageCount = Int32(clamping: l.ageCount)
            entry.men = Int32(clamping: l.men)
            entry.women = Int32(clamping: l.women)
        }
    }

    /// A member stays but its age and sex are replaced.
    private mutating func restate(_ slot: Int32, from old: (Int16, CrowdSex?), to new: (Int16, CrowdSex?)) {
        let i = Int(slot)
        if old.0 >= 0 {
            locations[i].ageSum -= Int(old.0)
            locations[i].ageCount -= 1
        }
        if new.0 >= 0 {
            locations[i].ageSum += Int(new.0)
            locations[i].ageCount += 1
        }
        if old.1 == .male { locations[i].men -= 1 } else if old.1 == .female { locations[i].women -= 1 }
        if new.1 == .male { locations[i].men += 1 } else if new.1 == .female { locations[i].women += 1 }
        staleStatistics.insert(locations[i].id)
        refreshEntry(slot)
    }

    /// Takes a member out; the location goes at once (with its comments) when it empties.
    private mutating func leave(_ slot: Int32, age: Int16, sex: CrowdSex?) {
        let i = Int(slot)
        locations[i].people -= 1
        if age >= 0 {
            locations[i].ageSum -= Int(age)
            locations[i].ageCount -= 1
        }
        if sex == .male { locations[i].men -= 1 } else if sex == .female { locations[i].women -= 1 }
        staleStatistics.insert(locations[i].id)
        if locations[i].people == 0 { deleteLocation(slot) } else { refreshEntry(slot) }
    }

    private mutating func deleteLocation(_ slot: Int32) {
        let i = Int(slot)
        let location = locations[i]
        grid.remove(slot: slot, row: location.row, column: location.column)
        locationIndex[location.id] = nil
        if let gone = comments.removeValue(forKey: slot) {
            commentCount -= gone.count
            commentsOfDeleted.append(location.id)
        }
        dirtyLocations.insert(location.id)
        freeLocations.append(slot)
    }

    private mutating func addComment(_ comment: StoredComment, to slot: Int32) {
        comments[slot, default: []].append(comment)
        commentCount += 1
        if let kept = comments[slot]?.count, kept > CrowdRules.commentsShown, let dropped = comments[slot]?.removeFirst() {
            droppedComments.append(dropped.id)
            commentCount -= 1
        }
    }

    private mutating func removeDevice(_ slot: Int32) {
        let device = devices[Int(slot)]
        unlink(slot)
        leave(device.location, age: device.age, sex: device.sex)
        deviceIndex[device.id] = nil
        dirtyDevices.insert(device.id)
        freeDevices.append(slot)
    }

    /// Files a device in the expiry list by its `lastSeen`: at the newest end unless the clock
    /// went back, in which case it walks back to its place, so the list stays ordered.
    private mutating func appendNewest(_ slot: Int32) {
        let time = devices[Int(slot)].lastSeen
        var before = newest
        while before >= 0, devices[Int(before)].lastSeen > time { before = devices[Int(before)].older }
        let after = before >= 0 ? devices[Int(before)].newer : oldest
        devices[Int(slot)].older = before
        devices[Int(slot)].newer = after
        if before >= 0 { devices[Int(before)].newer = slot } else { oldest = slot }
        if after >= 0 { devices[Int(after)].older = slot } else { newest = slot }
    }

    private mutating func unlink(_ slot: Int32) {
        let older = devices[Int(slot)].older, newer = devices[Int(slot)].newer
        if older >= 0 { devices[Int(older)].newer = newer } else { oldest = newer }
        if newer >= 0 { devices[Int(newer)].older = older } else { newest = older }
        devices[Int(slot)].older = -1
        devices[Int(slot)].newer = -1
    }
}
