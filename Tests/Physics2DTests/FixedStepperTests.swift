import Testing
@testable import Physics2D

/// The fixed-step accumulator.
@Suite struct FixedStepperTests {
    /// Four seconds at different frame rates; dt and the frame times are exact binary fractions.
    func run(frame: Double, frames: Int) -> (Int, Vec2) {
        let world = World(gravity: Vec2(0, -10))
        let b = world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 100)))
        world.createShape(on: b, ShapeDef(.circle(center: .zero, radius: 0.5)))
        var stepper = FixedStepper(dt: 1.0 / 64)
        var steps = 0
        for _ in 0..<frames { steps += stepper.advance(world, by: frame) }
        return (steps, b.position)
    }

    @Test func stepsDoNotDependOnTheFrameRate() {
        let slow = run(frame: 1.0 / 32, frames: 128)     // two steps per frame
        let even = run(frame: 1.0 / 64, frames: 256)     // one per frame
        let fast = run(frame: 1.0 / 128, frames: 512)    // one every other frame
        #expect(slow.0 == 256 && even.0 == 256 && fast.0 == 256)
        #expect(slow.1 == even.1 && even.1 == fast.1)    // bit for bit
    }

    @Test func longPausesAreCappedAndAlphaIsTheRemainder() {
        let world = World()
        var stepper = FixedStepper(dt: 0.25, maxStepsPerFrame: 5)
        #expect(stepper.advance(world, by: 10) == 5)
        #expect(stepper.accumulator == 0)                // the rest of the pause is dropped
        #expect(world.stepCount == 5)
        #expect(stepper.advance(world, by: 0.125) == 0)
        #expect(stepper.alpha == 0.5)
        #expect(stepper.advance(world, by: 0.125) == 1)
        #expect(stepper.advance(world, by: -1) == 0)     // negative time is ignored
        #expect(world.stepCount == 6)
    }
}
