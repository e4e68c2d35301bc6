// The bench of `make bench-playground`'s CarWorld half: `carworld-crowded` (game 1, 50+ cars)
// run frame by frame at the page's 60 Hz clock, each frame's draw list and event records folded
// into an FNV-1a hash. One loop for both sides: `quintet playground bench carworld-crowded`
// runs it natively and the wasm module's `pg_bench_game_*` exports (Wasm/Bench.swift) run it in
// the browser; equal hashes mean the two builds drew the same frames bit for bit.

public final class CarWorldBench {
    public static let name = PlaygroundGames.names[1]
    public let host = Host()
    public let world: CarWorld
    public private(set) var frames = 0
    public private(set) var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    /// The fewest and most cars on the map after any frame of the last `run`.
    public private(set) var fewestCars = 0
    public private(set) var mostCars = 0

    public init(seed: UInt32) {
        world = CarWorld(seed: seed, rules: .crowded)
        host.start(world)
    }

    /// Runs `count` more frames of 16 or 17 ms (50/3 ms on average, as a 60 Hz page).
    public func run(_ count: Int) {
        fewestCars = Int.max
        mostCars = 0
        var h = hash
        for _ in 0..<count {
            host.frame(milliseconds: Int32((frames + 1) * 50 / 3 - frames * 50 / 3))
            frames += 1
            let draw = UnsafeRawBufferPointer(start: host.drawListPointer, count: Int(host.drawListSize))
            for b in draw { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
            let events = UnsafeRawBufferPointer(start: host.eventsPointer, count: Int(host.eventsCount) * 20)
            for b in events { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
            let cars = world.cars.count
            fewestCars = min(fewestCars, cars)
            mostCars = max(mostCars, cars)
        }
        hash = h
        if count <= 0 { fewestCars = world.cars.count; mostCars = fewestCars }
    }
}
