import AudioCore
import Cadence
import Foundation

/// A second synthetic gait generator, designed apart from `GaitGenerator` so that the
/// estimator is not tuned to one model of walking and running. Everything is in g.
///
/// Body: the vertical specific force is the sum of the ground reaction forces of the feet
/// (in body weights), each foot's impulse equal to its step's duration so that the mean is
/// 1 g. Walking is an inverted pendulum with double support: each foot is on the ground for
/// its step plus 15–25 % of the next, with an M-shaped force (loading peak, a mid-stance
/// valley, push-off peak) and a soft heel strike. Running is a spring-mass model: a
/// half-sine force over a contact of 55–80 % of the step, flight (0 g) in between, and an
/// impact transient (heel strikers) of per-trace width 3–15 ms and per-step strength, or
/// none (fore-foot strikers). Fore-aft braking/propulsion and lateral push per stance.
///
/// Steps: a cadence profile (stretches with linear ramps, cosine transitions of 0.5–3 s,
/// a slow wander), step intervals with AR(1) variability of 2–5 %, a left/right timing and
/// force asymmetry, occasional irregular steps (±12–25 %, then a compensating one), and the
/// first steps after a start slower.
///
/// Carriage (all on a 1 kHz internal grid): a pocket on the thigh (rotating with the hip
/// at the stride rate, 0.25–0.35 m from it) with a loose phone — a spring-damper of
/// 8–25 Hz along the thigh that slaps against the pocket's ends; a swinging hand (a
/// 0.35–0.7 m pendulum at the stride rate, a wrist roll, the arm softening the impacts);
/// a belt clip (pelvis yaw and roll at the stride rate, a stiff clip resonance); an
/// armband (a short pendulum on the upper arm). The phone sits at a random orientation.
/// Standing: sway, weight shifts, phone handling (turning it over, lifting it) and, in a
/// hand, tremor and screen taps — motion that must not read as a cadence.
///
/// Sensor: a low-pass at 0.45 × the rate, per-axis bias and scale error, noise of
/// 0.005–0.03 g, quantisation, clipping at ±4 or ±8 g; sample times from a rate off by up
/// to 3 % with Gaussian jitter, and 1–4 dropouts of 0.1–2 s.
struct GaitGeneratorB {
    enum Carry: String, CaseIterable { case pocket, hand, belt, armband }
    enum Gait { case still, walk, run }

    /// A stretch of the trace: a gait with a cadence ramping from `from` to `to` spm; `blend`
    /// seconds of cosine transition from the previous stretch's final cadence.
    struct Stretch {
        var seconds: Double
        var gait: Gait
        var from: Double = 0
        var to: Double = 0
        var blend: Double = 0
    }

    struct Trace: SpanTrace {
        var name: String
        var samples: [AccelerationSample]
        var steps: [Double]
        /// Spans [start, end) during which the wearer moves.
        var moving: [(Double, Double)]
        var duration: Double
    }

    var seed: UInt64
    var carry: Carry
    var rate: Double

    private static let fine = 1000.0

    func make(_ name: String, _ stretches: [Stretch]) -> Trace {
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 77)
        let duration = stretches.reduce(0) { $0 + $1.seconds }
        let n = Int(duration * Self.fine) + 1
        let dt = 1 / Self.fine

        // MARK: The wearer's traits.
        let variability = 0.02 + 0.03 * rng.nextUnit()
        let correlation = 0.5 * rng.nextUnit()
        let timingAsymmetry = 0.04 * (rng.nextUnit() - 0.5)
        let forceAsymmetry = 0.2 * (rng.nextUnit() - 0.5)
        let heelStriker = rng.nextUnit() < 0.7
        let impactWidth = 0.003 + 0.012 * rng.nextUnit()
        let impactStrength = 0.5 + 2.0 * rng.nextUnit()
        let walkImpact = 0.1 + 0.5 * rng.nextUnit()
        let doubleSupport = 0.15 + 0.1 * rng.nextUnit()
        let mShape = 0.3 + 0.15 * rng.nextUnit()
        let duty = 0.55 + 0.25 * rng.nextUnit()
        let wanderAmplitude = 2 * rng.nextUnit(), wanderPeriod = 20 + 20 * rng.nextUnit(), wanderPhase = 2 * .pi * rng.nextUnit()

        // MARK: Moving spans and the cadence profile.
        var spans = [(start: Double, end: Double, first: Int)]() // stretch indices
        var starts = [Double]()
        var t0 = 0.0
        for (i, s) in stretches.enumerated() {
            starts.append(t0)
            if s.gait != .still {
                if let last = spans.last, abs(last.end - t0) < 1e-9 { spans[spans.count - 1].end = t0 + s.seconds } else { spans.append((t0, t0 + s.seconds, i)) }
            }
            t0 += s.seconds
        }
        func stretchIndex(_ t: Double) -> Int {
            var i = 0
            while i + 1 < stretches.count && starts[i + 1] <= t { i += 1 }
            return i
        }
        func cadence(_ t: Double) -> Double {
            let i = stretchIndex(t), s = stretches[i]
            let progress = (t - starts[i]) / s.seconds
            var spm = s.from + (s.to - s.from) * progress
            if s.blend > 0, i > 0, stretches[i - 1].gait != .still, t - starts[i] < s.blend {
                let w = 0.5 - 0.5 * cos(.pi * (t - starts[i]) / s.blend)
                spm = stretches[i - 1].to * (1 - w) + spm * w
            }
            return spm + wanderAmplitude * sin(2 * .pi * t / wanderPeriod + wanderPhase)
        }

        // MARK: Steps.
        struct Step { var t: Double; var period: Double; var side: Double; var run: Bool; var strength: Double }
        var steps = [Step]()
        var side = rng.nextUnit() < 0.5 ? 1.0 : -1.0
        for span in spans {
            var t = span.start + 0.05 + 0.25 * rng.nextUnit()
            var e = 0.0, index = 0, compensate = 0.0
            while t < span.end {
                let spm = cadence(t)
                e = correlation * e + (1 - correlation * correlation).squareRoot() * variability * gaussian(&rng)
                var period = 60 / spm * (1 + side * timingAsymmetry) * (1 + e)
                if index == 0 { period *= 1.1 + 0.1 * rng.nextUnit() } else if index == 1 { period *= 1.05 }
                if compensate != 0 { period *= compensate; compensate = 0 } else if rng.nextUnit() < 0.015 {
                    let change = (0.12 + 0.13 * rng.nextUnit()) * (rng.nextUnit() < 0.5 ? -1 : 1)
                    period *= 1 + change
                    compensate = 1 - change * 0.6
                }
                let run = stretches[stretchIndex(t)].gait == .run
                let strength = 1 + 0.25 * (rng.nextUnit() - 0.5)
                steps.append(Step(t: t, period: period, side: side, run: run, strength: strength))
                t += period
                side = -side
                index += 1
            }
        }

        // MARK: Body specific force (world: x forward, y left, z up).
        var fx = [Double](repeating: 0, count: n), fy = [Double](repeating: 0, count: n)
        var fz = [Double](repeating: 1, count: n)
        var inGait = [Bool](repeating: false, count: n)
        // During the gait the feet carry the body (0 g in flight); before the first contact and
        // after the last step, it stands on both (1 g).
        for step in steps {
            let a = Int(step.t * Self.fine), b = min(n, Int((step.t + step.period) * Self.fine))
            for i in a..<b { inGait[i] = true; fz[i] = 0 }
        }
        for step in steps {
            let a = Int(step.t * Self.fine)
            let asym = 1 + step.side * forceAsymmetry
            if step.run {
                let contact = duty * step.period
                let peak = step.period / (contact * 2 / .pi) * asym * step.strength
                let end = min(n, Int((step.t + contact) * Self.fine))
                for i in a..<end {
                    let s = (Double(i) * dt - step.t) / contact
                    let grf = peak * sin(.pi * s)
                    fz[i] += grf
                    fx[i] += -0.3 * grf * sin(2 * .pi * s)
                    fy[i] += -step.side * 0.1 * grf
                }
                if heelStriker {
                    let width = impactWidth * (0.7 + 0.6 * rng.nextUnit()), strength = impactStrength * step.strength * (0.6 + 0.8 * rng.nextUnit())
                    let lower = max(0, Int((step.t - 0.01) * Self.fine)), upper = min(n, Int((step.t + 0.01 + 6 * width) * Self.fine))
                    for i in lower..<upper {
                        let tau = Double(i) * dt - step.t - 1.5 * width
                        let bump = strength * exp(-0.5 * tau * tau / (width * width))
                        fz[i] += bump; fx[i] -= 0.4 * bump
                    }
                }
            } else {
                let stance = (1 + doubleSupport) * step.period
                let shape = 2 / Double.pi + mShape * 2 / (3 * .pi)
                let amplitude = step.period / (stance * shape) * asym * step.strength
                let end = min(n, Int((step.t + stance) * Self.fine))
                for i in a..<end {
                    let s = (Double(i) * dt - step.t) / stance
                    let grf = amplitude * (sin(.pi * s) + mShape * sin(3 * .pi * s))
                    fz[i] += grf
                    fx[i] += -0.2 * grf * sin(2 * .pi * s)
                    fy[i] += -step.side * 0.06 * grf
                }
                let width = 0.01 + 0.02 * rng.nextUnit(), strength = walkImpact * step.strength
                let upper = min(n, Int((step.t + 6 * width) * Self.fine))
                for i in a..<upper {
                    let tau = Double(i) * dt - step.t - 2 * width
                    fz[i] += strength * exp(-0.5 * tau * tau / (width * width))
                }
            }
        }

        // MARK: Standing: sway, weight shifts, phone handling, tremor, taps.
        var handling = [Double](repeating: 0, count: n) // rotation angle of the phone in the hand
        var sway = (0.0, 0.0, 0.0)
        for i in 0..<n where !inGait[i] {
            sway.0 = 0.998 * sway.0 + 0.0004 * gaussian(&rng)
            sway.1 = 0.998 * sway.1 + 0.0004 * gaussian(&rng)
            sway.2 = 0.998 * sway.2 + 0.0003 * gaussian(&rng)
            fx[i] += sway.0; fy[i] += sway.1; fz[i] += sway.2
            if carry == .hand { fz[i] += 0.004 * sin(2 * .pi * 9.5 * Double(i) * dt) }
        }
        for (i, s) in stretches.enumerated() where s.gait == .still {
            var t = starts[i] + 1 + 3 * rng.nextUnit()
            while t < starts[i] + s.seconds - 1 {
                let kind = rng.nextUnit()
                let centre = Int(t * Self.fine)
                if kind < 0.35 {
                    // Weight shift: a slow bump, mostly sideways.
                    let size = 0.02 + 0.04 * rng.nextUnit(), width = 0.25 + 0.3 * rng.nextUnit()
                    for j in max(0, centre - 2000)..<min(n, centre + 2000) {
                        let u = (Double(j - centre) * dt) / width
                        let d = -u * exp(-0.5 * u * u)
                        fy[j] += size * d; fz[j] += 0.3 * size * (1 - u * u) * exp(-0.5 * u * u)
                    }
                } else if kind < 0.75 {
                    // Handling: the phone lifted, turned and put back (hand and pocket most).
                    let size = (carry == .hand || carry == .pocket ? 0.1 + 0.3 * rng.nextUnit() : 0.03 + 0.08 * rng.nextUnit())
                    let width = 0.2 + 0.4 * rng.nextUnit(), turn = (0.5 + 1.5 * rng.nextUnit()) * (rng.nextUnit() < 0.5 ? -1 : 1)
                    let ux = gaussian(&rng), uy = gaussian(&rng), uz = gaussian(&rng), norm = (ux * ux + uy * uy + uz * uz).squareRoot()
                    for j in max(0, centre - 3000)..<min(n, centre + 3000) {
                        let u = (Double(j - centre) * dt) / width
                        let d = (1 - u * u) * exp(-0.5 * u * u) * size
                        fx[j] += d * ux / norm; fy[j] += d * uy / norm; fz[j] += d * uz / norm
                        handling[j] += turn * 0.5 * (1 + tanh(u)) * exp(-0.02 * u * u)
                    }
                } else if carry == .hand {
                    // Taps on the screen, 2–6 of them, 2–4 a second.
                    let count = 2 + Int(5 * rng.nextUnit()), gap = 0.25 + 0.25 * rng.nextUnit()
                    for m in 0..<count {
                        let c = centre + Int(Double(m) * gap * Self.fine), size = 0.03 + 0.07 * rng.nextUnit()
                        // A tap past the trace's end is dropped (its range would be reversed).
                        for j in max(0, c - 30)..<max(max(0, c - 30), min(n, c + 30)) {
                            let u = Double(j - c) * dt / 0.006
                            fz[j] -= size * exp(-0.5 * u * u)
                        }
                    }
                } else {
                    // A small rock on the toes.
                    let size = 0.02 + 0.05 * rng.nextUnit(), width = 0.3 + 0.3 * rng.nextUnit()
                    for j in max(0, centre - 2000)..<min(n, centre + 2000) {
                        let u = (Double(j - centre) * dt) / width
                        fz[j] += size * (1 - u * u) * exp(-0.5 * u * u)
                    }
                }
                t += 2 + 5 * rng.nextUnit()
            }
        }

        // MARK: The limb carrying the phone.
        // Stride phase, advancing π per step, its rate smoothed (muscles do not jerk).
        var phase = [Double](repeating: 0, count: n), envelope = [Double](repeating: 0, count: n)
        do {
            var omega = 0.0, phi = 0.0, k = 0
            var env = 0.0
            for i in 0..<n {
                let t = Double(i) * dt
                while k + 1 < steps.count && steps[k + 1].t <= t { k += 1 }
                var target = omega, on = false
                if !steps.isEmpty, t >= steps[k].t, t < steps[k].t + steps[k].period * 1.2 {
                    target = .pi / steps[k].period
                    on = true
                }
                omega += (target - omega) * dt / 0.08
                phi += omega * dt
                env += ((on ? 1 : 0) - env) * dt / 0.35
                phase[i] = phi; envelope[i] = env
            }
        }
        var angle = [Double](repeating: 0, count: n), roll = [Double](repeating: 0, count: n)
        let walkSwing: Double, runSwing: Double, radius: Double, lag: Double, softening: Double
        switch carry {
        case .pocket:
            walkSwing = 0.35 + 0.15 * rng.nextUnit(); runSwing = 0.5 + 0.3 * rng.nextUnit()
            radius = 0.25 + 0.1 * rng.nextUnit(); lag = 0.3 * rng.nextUnit(); softening = 0
        case .hand:
            walkSwing = 0.2 + 0.3 * rng.nextUnit(); runSwing = 0.4 + 0.5 * rng.nextUnit()
            radius = 0.35 + 0.35 * rng.nextUnit(); lag = .pi + 0.6 * (rng.nextUnit() - 0.5); softening = 0.02 + 0.02 * rng.nextUnit()
        case .armband:
            walkSwing = 0.15 + 0.25 * rng.nextUnit(); runSwing = 0.35 + 0.35 * rng.nextUnit()
            radius = 0.15 + 0.1 * rng.nextUnit(); lag = .pi + 0.6 * (rng.nextUnit() - 0.5); softening = 0.01
        case .belt:
            walkSwing = 0.07 + 0.1 * rng.nextUnit(); runSwing = 0.1 + 0.12 * rng.nextUnit()
            radius = 0.12 + 0.06 * rng.nextUnit(); lag = 0.5 * rng.nextUnit(); softening = 0
        }
        let wristRoll = carry == .hand ? 0.2 + 0.4 * rng.nextUnit() : 0
        var k = 0
        for i in 0..<n {
            let t = Double(i) * dt
            while k + 1 < steps.count && steps[k + 1].t <= t { k += 1 }
            let swing = !steps.isEmpty && steps[k].run ? runSwing : walkSwing
            let e = envelope[i] * envelope[i] * (3 - 2 * envelope[i])
            angle[i] = swing * e * cos(phase[i] + lag)
            roll[i] = wristRoll * e * sin(phase[i] + lag + 0.8)
        }
        // The arm (hand, armband) softens the body's impacts: two one-pole low-passes.
        if softening > 0 {
            let alpha = dt / (softening + dt)
            for _ in 0..<2 {
                var sx = fx[0], sy = fy[0], sz = fz[0]
                for i in 0..<n {
                    sx += alpha * (fx[i] - sx); sy += alpha * (fy[i] - sy); sz += alpha * (fz[i] - sz)
                    fx[i] = sx; fy[i] = sy; fz[i] = sz
                }
            }
        }
        // Rotation kinematics: tangential and centripetal acceleration of the phone.
        for i in 1..<(n - 1) {
            let th = angle[i]
            let d1 = (angle[i + 1] - angle[i - 1]) / (2 * dt)
            let d2 = (angle[i + 1] - 2 * angle[i] + angle[i - 1]) / (dt * dt)
            let r = radius / 9.80665
            switch carry {
            case .belt:
                // Pelvis yaw: the clip on the hip moves around the spine (horizontal plane),
                // and a roll of a third of it lifts and lowers the hip.
                fx[i] += r * (-d2 * sin(th) - d1 * d1 * cos(th))
                fy[i] += r * (d2 * cos(th) - d1 * d1 * sin(th))
                let rollAngle = th / 3, rd2 = d2 / 3, rd1 = d1 / 3
                fz[i] += r * (rd2 * cos(rollAngle) - rd1 * rd1 * sin(rollAngle))
            default:
                // A pendulum hanging from the hip or the shoulder, swinging fore and aft.
                fx[i] += r * (d2 * cos(th) - d1 * d1 * sin(th))
                fz[i] += r * (d2 * sin(th) + d1 * d1 * cos(th))
            }
        }
        // A loose phone: a spring-damper along the limb that slaps the pocket's ends.
        if carry == .pocket || carry == .belt {
            let loose = rng.nextUnit()
            let frequency = carry == .pocket ? 8 + 17 * loose : 20 + 15 * loose
            let damping = 0.1 + 0.3 * rng.nextUnit(), clearance = (carry == .pocket ? 0.0005 + 0.0025 * rng.nextUnit() : .infinity)
            let restitution = 0.2 + 0.3 * rng.nextUnit()
            let w = 2 * .pi * frequency
            var u = 0.0, v = 0.0
            for i in 0..<n {
                let base = (fz[i] - 1) * cos(angle[i]) + fx[i] * sin(angle[i]) // along the limb, gravity's static part left out
                var acc = -base * 9.80665 - 2 * damping * w * v - w * w * u
                v += acc * dt
                u += v * dt
                if abs(u) > clearance {
                    let before = v
                    u = clearance * (u > 0 ? 1 : -1)
                    v = -restitution * v
                    acc += (v - before) / dt
                }
                let extra = acc / 9.80665
                fz[i] += extra * cos(angle[i]); fx[i] += extra * sin(angle[i])
            }
        }

        // MARK: Sensor: low-pass, orientation, sampling.
        let mount = randomRotation(&rng)
        let handlingAxis = randomUnit(&rng)
        let cutoff = min(0.45 * rate, 100)
        let alpha = 1 - exp(-2 * .pi * cutoff * dt)
        var lx = fx[0], ly = fy[0], lz = fz[0]
        for i in 0..<n {
            lx += alpha * (fx[i] - lx); ly += alpha * (fy[i] - ly); lz += alpha * (fz[i] - lz)
            fx[i] = lx; fy[i] = ly; fz[i] = lz
        }
        let noise = 0.005 + 0.025 * rng.nextUnit()
        let bias = (0.02 * (2 * rng.nextUnit() - 1), 0.02 * (2 * rng.nextUnit() - 1), 0.02 * (2 * rng.nextUnit() - 1))
        let scale = (1 + 0.02 * (2 * rng.nextUnit() - 1), 1 + 0.02 * (2 * rng.nextUnit() - 1), 1 + 0.02 * (2 * rng.nextUnit() - 1))
        let quantum = [0.0, 1.0 / 1024, 1.0 / 256][Int(3 * rng.nextUnit())]
        let limit = rng.nextUnit() < 0.3 ? 4.0 : 8.0
        let trueRate = rate * (1 + 0.03 * (2 * rng.nextUnit() - 1))
        let jitter = 0.05 + 0.25 * rng.nextUnit()
        let dropouts = (0..<(1 + Int(4 * rng.nextUnit()))).map { _ -> (Double, Double) in
            (5 + (duration - 10) * rng.nextUnit(), 0.1 + 1.9 * rng.nextUnit())
        }
        var samples = [AccelerationSample]()
        samples.reserveCapacity(Int(duration * trueRate) + 8)
        var t = 0.01 * rng.nextUnit()
        while t < duration - 0.002 {
            defer { t += max(0.1, 1 + jitter * gaussian(&rng)) / trueRate }
            if dropouts.contains(where: { t >= $0.0 && t < $0.0 + $0.1 }) { continue }
            let x = t * Self.fine, i = min(Int(x), n - 2), w = x - Double(i)
            let world = (fx[i] * (1 - w) + fx[i + 1] * w, fy[i] * (1 - w) + fy[i + 1] * w, fz[i] * (1 - w) + fz[i + 1] * w)
            let th = angle[i] * (1 - w) + angle[i + 1] * w, ro = roll[i] * (1 - w) + roll[i + 1] * w
            // Into the limb's frame (rotated by the swing about y, or the yaw about z), then the wrist roll, then handling.
            var v: (Double, Double, Double)
            if carry == .belt {
                v = (cos(th) * world.0 + sin(th) * world.1, -sin(th) * world.0 + cos(th) * world.1, world.2)
            } else {
                v = (cos(th) * world.0 - sin(th) * world.2, world.1, sin(th) * world.0 + cos(th) * world.2)
            }
            v = (v.0, cos(ro) * v.1 + sin(ro) * v.2, -sin(ro) * v.1 + cos(ro) * v.2)
            let h = handling[i]
            if h != 0 { v = rotate(v, about: handlingAxis, by: h) }
            let d = multiply(mount, v)
            func sense(_ value: Double, _ b: Double, _ s: Double) -> Double {
                var y = value * s + b + noise * gaussian(&rng)
                if quantum > 0 { y = (y / quantum).rounded() * quantum }
                return max(-limit, min(limit, y))
            }
            samples.append(AccelerationSample(t: t, x: sense(d.0, bias.0, scale.0), y: sense(d.1, bias.1, scale.1), z: sense(d.2, bias.2, scale.2)))
        }
        return Trace(name: name, samples: samples, steps: steps.map(\.t), moving: spans.map { ($0.start, $0.end) }, duration: duration)
    }

    private func gaussian(_ rng: inout SplitMix64) -> Double {
        let u = max(rng.nextUnit(), 1e-12), v = rng.nextUnit()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    private func randomUnit(_ rng: inout SplitMix64) -> (Double, Double, Double) {
        let x = gaussian(&rng), y = gaussian(&rng), z = gaussian(&rng), norm = max(1e-9, (x * x + y * y + z * z).squareRoot())
        return (x / norm, y / norm, z / norm)
    }

    /// Rodrigues' rotation of `v` about the unit `axis` by `angle`.
    private func rotate(_ v: (Double, Double, Double), about k: (Double, Double, Double), by angle: Double) -> (Double, Double, Double) {
        let c = cos(angle), s = sin(angle)
        let dot = k.0 * v.0 + k.1 * v.1 + k.2 * v.2
        let cross = (k.1 * v.2 - k.2 * v.1, k.2 * v.0 - k.0 * v.2, k.0 * v.1 - k.1 * v.0)
        return (v.0 * c + cross.0 * s + k.0 * dot * (1 - c), v.1 * c + cross.1 * s + k.1 * dot * (1 - c), v.2 * c + cross.2 * s + k.2 * dot * (1 - c))
    }

    /// A random rotation: Euler angles from three uniform draws, composed (z, then y, then x).
    private func randomRotation(_ rng: inout SplitMix64) -> [[Double]] {
        let a = 2 * .pi * rng.nextUnit(), b = acos(2 * rng.nextUnit() - 1), c = 2 * .pi * rng.nextUnit()
        let rz = [[cos(a), -sin(a), 0], [sin(a), cos(a), 0], [0, 0, 1]]
        let ry = [[cos(b), 0, sin(b)], [0, 1, 0], [-sin(b), 0, cos(b)]]
        let rx = [[1, 0, 0], [0, cos(c), -sin(c)], [0, sin(c), cos(c)]]
        func product(_ p: [[Double]], _ q: [[Double]]) -> [[Double]] {
            (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + p[i][$1] * q[$1][j] } } }
        }
        return product(rx, product(ry, rz))
    }

    private func multiply(_ m: [[Double]], _ v: (Double, Double, Double)) -> (Double, Double, Double) {
        (m[0][0] * v.0 + m[0][1] * v.1 + m[0][2] * v.2,
         m[1][0] * v.0 + m[1][1] * v.1 + m[1][2] * v.2,
         m[2][0] * v.0 + m[2][1] * v.1 + m[2][2] * v.2)
    }
}

/// Generator B's fixed trace set: four carriages × seven scenarios, the paces drawn per
/// trace around the scenario's, rates cycling through 25, 30, 50, 60, 100, 200 Hz.
enum TraceSetB {
    typealias Stretch = GaitGeneratorB.Stretch

    static func scenario(_ name: String, _ rng: inout SplitMix64) -> [Stretch] {
        func near(_ spm: Double, _ spread: Double = 6) -> Double { spm + spread * (2 * rng.nextUnit() - 1) }
        func blend() -> Double { 0.5 + 2.5 * rng.nextUnit() }
        switch name {
        case "walk":
            let a = near(105, 8)
            return [Stretch(seconds: 70, gait: .walk, from: a, to: a + 12 * rng.nextUnit())]
        case "run":
            let a = near(168, 12)
            return [Stretch(seconds: 80, gait: .run, from: a, to: a + 8 * (rng.nextUnit() - 0.5))]
        case "intervals":
            let easy = near(165, 4), hard = near(185, 5)
            return [Stretch(seconds: 8, gait: .still),
                    Stretch(seconds: 40, gait: .run, from: easy, to: easy),
                    Stretch(seconds: 25, gait: .run, from: hard, to: hard, blend: blend()),
                    Stretch(seconds: 30, gait: .run, from: easy, to: easy, blend: blend()),
                    Stretch(seconds: 10, gait: .still)]
        case "walkrun":
            let walk = near(110), run = near(168, 8), back = near(115)
            return [Stretch(seconds: 25, gait: .walk, from: walk, to: walk),
                    Stretch(seconds: 30, gait: .run, from: run, to: run, blend: 1 + 2 * rng.nextUnit()),
                    Stretch(seconds: 20, gait: .walk, from: back, to: back, blend: 1 + 2 * rng.nextUnit()),
                    Stretch(seconds: 12, gait: .still),
                    Stretch(seconds: 15, gait: .walk, from: near(105), to: near(105))]
        case "ramp":
            let low = near(142, 3), high = near(196, 4)
            return [Stretch(seconds: 60, gait: .run, from: low, to: high),
                    Stretch(seconds: 20, gait: .run, from: high, to: near(150, 5))]
        case "stopgo":
            let run = near(175, 8)
            return [Stretch(seconds: 10, gait: .still),
                    Stretch(seconds: 20, gait: .run, from: run, to: run),
                    Stretch(seconds: 10, gait: .still),
                    Stretch(seconds: 20, gait: .walk, from: near(100, 5), to: near(100, 5)),
                    Stretch(seconds: 10, gait: .still)]
        default: // still
            return [Stretch(seconds: 45, gait: .still)]
        }
    }

    static let names = ["walk", "run", "intervals", "walkrun", "ramp", "stopgo", "still"]
    static let rates: [Double] = [25, 50, 100, 200, 30, 60]

    static func traces(seedBase: UInt64 = 5000) -> [GaitGeneratorB.Trace] {
        var traces = [GaitGeneratorB.Trace]()
        var index = 0
        for carry in GaitGeneratorB.Carry.allCases {
            for name in names {
                let rate = rates[index % rates.count]
                let seed = seedBase + UInt64(index)
                var rng = SplitMix64(seed: seed ^ 0xC0FFEE)
                let stretches = scenario(name, &rng)
                let generator = GaitGeneratorB(seed: seed, carry: carry, rate: rate)
                traces.append(generator.make("\(name)-\(carry.rawValue)-\(Int(rate))Hz", stretches))
                index += 1
            }
        }
        return traces
    }

    static func score(_ estimator: any CadenceEstimating, margin: Double = 2, seedBase: UInt64 = 5000) -> CadenceScore {
        var score = CadenceScore()
        score.margin = margin
        for trace in traces(seedBase: seedBase) { score.add(trace, estimator.analyze(trace.samples)) }
        return score
    }
}
