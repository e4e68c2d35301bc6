// FishWorld's scripted player (docs/playground.md, "FishWorld", "The autopilot"): it presses on
// the first free fish, which makes that fish's group follow the finger, drags the finger toward
// the group's reef at 150 points/s (waiting while a fish of the group is more than 110 points
// behind), holds it on the reef until the group is home, lifts, and does the next group.

/// The autopilot's memory between frames: its finger and the group it leads.
struct FishAutopilot {
    static let touchID: Int32 = 9
    /// Points the finger moves per call (a frame): 2.5, about 150 points/s at 60 Hz.
    static let step = 2.5
    /// The finger waits while a fish of its group is farther than this from it.
    static let straggler = 110.0
    /// A drag that has not brought its group home in this many ms is let go and started again.
    static let patience = 20_000
    var isDown = false
    var x = 0.0, y = 0.0
    var colour = FishColour.red
    var since = 0
}

extension FishWorld {
    /// The inputs a scripted player gives now (called before this frame's inputs are applied):
    /// one touch, id 9, that leads each group of fish home in turn. Reads only the game's state.
    public func autopilotInputs() -> [PlaygroundInput] {
        let id = FishAutopilot.touchID
        var pilot = autopilot
        defer { autopilot = pilot }
        if hasWon {
            guard pilot.isDown else { return [] }
            pilot.isDown = false
            return [.touch(id, .ended, x: Float(pilot.x), y: Float(pilot.y))]
        }
        if !pilot.isDown {
            guard let first = fish.first(where: { $0.isFree }) else { return [] }
            pilot.isDown = true
            pilot.x = first.x
            pilot.y = first.y
            pilot.colour = first.colour
            pilot.since = elapsedMilliseconds
            return [.touch(id, .began, x: Float(pilot.x), y: Float(pilot.y))]
        }
        // The group the game gave the finger (the nearest free fish's when it began).
        if let lure = lures.first(where: { $0.id == id }) { pilot.colour = lure.colour }
        let group = fish.filter { $0.colour == pilot.colour && !$0.isHome }
        if group.isEmpty || elapsedMilliseconds - pilot.since > FishAutopilot.patience {
            pilot.isDown = false
            return [.touch(id, .ended, x: Float(pilot.x), y: Float(pilot.y))]
        }
        var farthest = 0.0
        for f in group {
            let d = ((f.x - pilot.x) * (f.x - pilot.x) + (f.y - pilot.y) * (f.y - pilot.y)).squareRoot()
            farthest = max(farthest, d)
        }
        if farthest < FishAutopilot.straggler {
            let reef = rules.reefs[pilot.colour.rawValue]
            let dx = reef.x - pilot.x, dy = reef.y - pilot.y
            let d = (dx * dx + dy * dy).squareRoot()
            if d <= FishAutopilot.step {
                pilot.x = reef.x
                pilot.y = reef.y
            } else {
                pilot.x += FishAutopilot.step * dx / d
                pilot.y += FishAutopilot.step * dy / d
            }
        }
        return [.touch(id, .moved, x: Float(pilot.x), y: Float(pilot.y))]
    }
}
