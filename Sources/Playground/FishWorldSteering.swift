// FishWorld's steering (docs/playground.md, "FishWorld"): before each fixed physics step every
// fish gets a force, computed as an acceleration in points/s² and handed to its body in
// newtons (mass × acceleration / points per metre). The water's drag is the bodies' linear
// damping; the world has no gravity.

import Physics2D
import Stage

extension FishWorld {
    /// Applies this step's steering force to every fish.
    func steer(dt: Double) {
        let ppm = physics.pointsPerMeter
        var velocities: [Vec2] = []
        velocities.reserveCapacity(fish.count)
        for f in fish { velocities.append(ppm * f.sprite.body.linearVelocity) }
        for f in fish {
            let p = Vec2(f.x, f.y)
            let v = velocities[f.index]
            var a = Vec2.zero
            if f.isHome {
                // To its place in the reef, bobbing a little.
                let reef = rules.reefs[f.colour.rawValue]
                let slot = FishWorldRules.slots[f.slot]
                let bob = 5 * PortableMath.sin(1.7 * time + Double(f.index))
                let target = Vec2(reef.x + slot.x, reef.y + slot.y + bob)
                let k = rules.settleGain
                a = a + (k * k) * (target - p) - k * v
            } else if f.leaving > 0 {
                // Out of the reef, back to where it started.
                a = a + arrive(from: p, velocity: v, to: Vec2(f.start.x, f.start.y))
                f.leaving -= dt
            } else {
                a = a + school(f, p, v, velocities)
                for lure in lures where lure.colour == f.colour {
                    a = a + arrive(from: p, velocity: v, to: Vec2(lure.x, lure.y))
                    break
                }
                a = a + reefs(f, p)
                a = a + rules.tiltCurrent * Vec2(tilt.x, tilt.y)
            }
            a = a + separate(f, p) + walls(p)
            f.sprite.body.applyForceToCenter((f.sprite.body.mass / ppm) * a)
        }
    }

    /// Toward `target` at up to the lure's speed, slowing down close to it.
    func arrive(from p: Vec2, velocity v: Vec2, to target: Vec2) -> Vec2 {
        let d = target - p
        let length = d.length
        guard length > 0.5 else { return -rules.lureGain * v }
        let speed = rules.lureSpeed * min(1, length / rules.lureSlowRadius)
        let desired = (speed / length) * d
        return rules.lureGain * (desired - v)
    }

    /// Wander, cohesion and alignment with the free fish of its colour in reach.
    func school(_ f: Fish, _ p: Vec2, _ v: Vec2, _ velocities: [Vec2]) -> Vec2 {
        f.wanderAngle += (2 * random.unit() - 1) * rules.wanderTurn
        if f.wanderAngle > Double.pi { f.wanderAngle -= 2 * Double.pi }
        if f.wanderAngle < -Double.pi { f.wanderAngle += 2 * Double.pi }
        var a = rules.wander * Vec2(PortableMath.cos(f.wanderAngle), PortableMath.sin(f.wanderAngle))
        var centre = Vec2.zero, mean = Vec2.zero
        var n = 0.0
        let reach = rules.schoolRadius * rules.schoolRadius
        for o in fish where o !== f && o.isFree && o.colour == f.colour {
            let q = Vec2(o.x, o.y)
            guard (q - p).lengthSquared < reach else { continue }
            centre = centre + q
            mean = mean + velocities[o.index]
            n += 1
        }
        if n > 0 {
            a = a + rules.cohesion * ((1 / n) * centre - p)
            a = a + rules.alignment * ((1 / n) * mean - v)
        }
        return a
    }

    /// Away from every fish closer than the separation radius (fish do not collide).
    func separate(_ f: Fish, _ p: Vec2) -> Vec2 {
        var a = Vec2.zero
        for o in fish where o !== f {
            let d = p - Vec2(o.x, o.y)
            let length = d.length
            guard length < rules.separationRadius else { continue }
            // Two fish at the same point part along a direction of their own (by index).
            let away = length > 0.01 ? (1 / length) * d
                : Vec2(PortableMath.cos(Double(f.index)), PortableMath.sin(Double(f.index)))
            a = a + (rules.separation * (1 - length / rules.separationRadius)) * away
        }
        return a
    }

    /// Its own reef's call, and a reef of another colour's push (with an event on entering it).
    func reefs(_ f: Fish, _ p: Vec2) -> Vec2 {
        var a = Vec2.zero
        var inside = -1
        for colour in FishColour.allCases {
            let reef = rules.reefs[colour.rawValue]
            let d = p - Vec2(reef.x, reef.y)
            let length = d.length
            if colour == f.colour {
                if length < rules.reefCallRadius && length > 0.01 { a = a - (rules.reefCall / length) * d }
                continue
            }
            guard length < rules.wrongReefRadius else { continue }
            inside = colour.rawValue
            let away = length > 0.01 ? (1 / length) * d : Vec2(0, -1)
            a = a + (rules.wrongReefPush * (0.4 + 0.6 * (1 - length / rules.wrongReefRadius))) * away
        }
        if inside >= 0 && f.inWrongReef != inside {
            emit(FishWorldEvent.wrongReef, subject: UInt16(f.index), value: Int32(inside), x: p.x, y: p.y)
            emit(PlaygroundEvent.sound, subject: FishWorldSound.wrongReef, x: p.x, y: p.y)
        }
        f.inWrongReef = inside
        return a
    }

    /// The soft walls: pushed back in, harder the farther past the margin.
    func walls(_ p: Vec2) -> Vec2 {
        var a = Vec2.zero
        let m = rules.wallMargin, k = rules.wallPush
        if p.x < m { a.x += k * (m - p.x) }
        if p.x > Self.width - m { a.x -= k * (p.x - (Self.width - m)) }
        if p.y < rules.surfaceY { a.y += k * (rules.surfaceY - p.y) }
        if p.y > rules.sandY { a.y -= k * (p.y - rules.sandY) }
        return a
    }

    /// Turns a fish's image the way it swims (mirrored when it swims left), nose a little up or down.
    func face(_ f: Fish) {
        let v = f.sprite.body.linearVelocity
        if v.x < -0.25 { f.image.scaleX = -1 } else if v.x > 0.25 { f.image.scaleX = 1 }
        let tiltAngle = max(-0.5, min(0.5, 0.5 * PortableMath.atan2(v.y, abs(v.x) + 0.3)))
        f.image.rotation = f.image.scaleX < 0 ? -tiltAngle : tiltAngle
    }
}
