import AudioCore
import Cadence
import Foundation

/// A third gait model, written for issue 21 apart from `GaitGenerator` and `GaitGeneratorB`
/// (which model the accelerations directly, or the feet's ground reaction forces): here the
/// model is *kinematic*. The positions of body segments and of the phone are written as
/// functions of time, differentiated twice numerically, gravity added, and the result turned
/// into the phone's frame by the phone's orientation, which follows the segment it rides on.
///
/// - Steps: a cadence per stretch (linear ramps), each interval varied by white noise of
///   1.5–4 % and by a limp (left and right intervals differing by up to 6 %). The gait phase
///   ψ (π per step) is a C¹ cubic Hermite curve through the step times, so velocities are
///   continuous and accelerations bounded.
/// - Trunk: a vertical bounce −A·(cos(2ψ − c) + h₂·cos(4ψ − c₂)) at the step rate (running
///   6–11 cm peak to peak, walking 2–5 cm), its amplitude differing between left and right
///   steps by up to ±25 %; a lateral sway and a yaw (±4–10°) at the stride rate; a fore-aft
///   surge at the step rate. Foot strikes add a damped 9–25 Hz ringing (heel strikers) or a
///   weak one (fore-foot), unequal between the feet.
/// - Carriage, blended over 1–3 s when it changes within a trace:
///   `swing` — a phone held in a running (or walking) hand: a two-link arm (upper arm
///   0.27–0.33 m, forearm and hand 0.25–0.32 m) hanging from the shoulder, the upper arm
///   swinging at the stride rate around a forward offset, the elbow flexing with the swing,
///   the wrist rolling; the phone turns with the forearm. The arm attenuates and low-passes
///   the foot strikes. A "straight-arm" swinger variant (elbow at 15–35°) exists.
///   `chest` — the phone held still against the chest (the trunk's motion and yaw only, a
///   little hand wobble).
///   `armband` — on the upper arm 0.1–0.18 m below the shoulder, turning with it.
///   `pocket` — on the thigh 0.18–0.3 m below the hip, swinging at the stride rate with it;
///   the near foot's strikes are the stronger.
///   `belt` — on the hip, with the pelvis's yaw, roll and drop.
/// - Standing: sway, breathing, weight shifts and, with the phone in a hand or at the
///   chest, the phone picked up, turned and put back, and hand tremor.
/// - Sensor: each sample integrates (box average) the acceleration over its interval, on a
///   randomly oriented grip; per-axis bias, noise 0.004–0.04 g, optional quantisation,
///   clipping at ±8 or ±16 g; sample clock off by up to 2 %, jitter, 0–2 dropouts.
struct GaitGeneratorC {
    enum Carry: String, CaseIterable, Sendable { case swing, chest, armband, pocket, belt }
    enum Gait: String, Sendable { case still, walk, run }

    /// A stretch of the trace: a gait, its cadence ramping from `from` to `to`, the phone
    /// carried as `carry` (blended from the previous stretch's over `blend` seconds).
    struct Stretch {
        var seconds: Double
        var gait: Gait
        var from: Double = 0
        var to: Double = 0
        var carry: Carry
        var blend: Double = 1.5
    }

    /// Variants of the model; some are held out of the tuned part (CadenceSetC).
    struct Variant: Sendable {
        var straightArm = false
        var foreFoot = false
    }

    struct Trace: SpanTrace {
        var name: String
        var samples: [AccelerationSample]
        var steps: [Double]
        var moving: [(Double, Double)]
        /// The carriage and gait of each stretch, with its start and end.
        var stretches: [(start: Double, end: Double, carry: Carry, gait: Gait)]
        var rate: Double
        var duration: Double

        /// The carriage throughout [second − half, second + half], nil when it changes there.
        func carry(at second: Double, half: Double = 2) -> Carry? {
            let kinds = Set(stretches.filter { $0.end > second - half && $0.start < second + half }.map(\.carry))
            return kinds.count == 1 ? kinds.first : nil
        }
    }

    var seed: UInt64
    var rate: Double
    var variant = Variant()

    private static let fine = 400.0

    // swiftlint:disable:next function_body_length
    func make(_ name: String, _ stretches: [Stretch]) -> Trace {
        var rng = SplitMix64(seed: (seed &+ 0x5EED_C0DE) &* 0xD6E8_FEB8_6659_FD93)
        func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * rng.nextUnit() }
        func normal() -> Double {
            let u = max(rng.nextUnit(), 1e-12), v = rng.nextUnit()
            return (-2 * log(u)).squareRoot() * sin(2 * .pi * v)
        }
        let duration = stretches.reduce(0) { $0 + $1.seconds }
        let dt = 1 / Self.fine
        let n = Int(duration * Self.fine) + 2
        var starts = [Double](), t0 = 0.0
        for s in stretches { starts.append(t0); t0 += s.seconds }
        func stretchIndex(_ t: Double) -> Int {
            var i = 0
            while i + 1 < stretches.count && starts[i + 1] <= t { i += 1 }
            return i
        }

        // MARK: The runner.
        let jitter = uniform(0.015, 0.04)
        let limp = uniform(-0.06, 0.06)
        let bounceAsym = uniform(-0.25, 0.25)
        let impactAsym = uniform(-0.35, 0.35)
        let h2 = uniform(0.05, 0.3), c = uniform(0.2, 1.2), c2 = uniform(0, 2 * .pi)
        let runBounce = uniform(0.03, 0.055), walkBounce = uniform(0.01, 0.025)
        let impactFreq = uniform(9, 25), impactDecay = uniform(0.008, 0.03)
        let runImpact = variant.foreFoot ? uniform(0.1, 0.4) : uniform(1.0, 3.5)
        let walkImpact = uniform(0.1, 0.5)
        let yawAmp = uniform(0.07, 0.18), swayAmp = uniform(0.01, 0.03), surgeAmp = uniform(0.005, 0.02)
        let side = rng.nextUnit() < 0.5 ? 1.0 : -1.0 // the phone's side (left +1)

        // MARK: Steps, moving spans.
        var spans = [(start: Double, end: Double)]()
        for (i, s) in stretches.enumerated() where s.gait != .still {
            if let last = spans.last, abs(last.end - starts[i]) < 1e-9 { spans[spans.count - 1].end = starts[i] + s.seconds } else { spans.append((starts[i], starts[i] + s.seconds)) }
        }
        var steps = [Double](), spanSteps = [[Double]]()
        var foot = rng.nextUnit() < 0.5 ? 1.0 : -1.0
        for span in spans {
            var t = span.start + uniform(0.1, 0.4)
            var list = [Double]()
            while t < span.end {
                list.append(t)
                let s = stretches[stretchIndex(t)]
                let progress = (t - starts[stretchIndex(t)]) / s.seconds
                let spm = s.from + (s.to - s.from) * progress
                var period = 60 / spm * (1 + foot * limp / 2) * (1 + jitter * normal())
                if list.count <= 2 { period *= 1.08 }
                t += max(0.2, period)
                foot = -foot
            }
            steps += list
            spanSteps.append(list)
        }

        // Phase ψ (π per step), its step index and the gait envelope (0 standing, 1 moving).
        var psi = [Double](repeating: 0, count: n), envelope = [Double](repeating: 0, count: n)
        var stepOf = [Int](repeating: -1, count: n), running = [Bool](repeating: false, count: n)
        var base = 0.0, globalIndex = 0
        for list in spanSteps where list.count >= 2 {
            // Hermite knots: the steps, their phase π·k, slopes from the neighbours.
            let m = list.count
            var slope = [Double](repeating: 0, count: m)
            for k in 0..<m {
                let a = list[max(0, k - 1)], b = list[min(m - 1, k + 1)]
                slope[k] = .pi * Double(min(m - 1, k + 1) - max(0, k - 1)) / (b - a)
            }
            let lower = Int(list[0] * Self.fine), upper = min(n, Int(list[m - 1] * Self.fine))
            var k = 0
            for i in max(0, lower)..<upper {
                let t = Double(i) * dt
                while k + 2 < m && list[k + 1] <= t { k += 1 }
                let h = list[k + 1] - list[k], u = max(0, min(1, (t - list[k]) / h))
                let h00 = 2 * u * u * u - 3 * u * u + 1, h10 = u * u * u - 2 * u * u + u
                let h01 = -2 * u * u * u + 3 * u * u, h11 = u * u * u - u * u
                psi[i] = base + .pi * Double(k) * h00 + h * slope[k] * h10 + .pi * Double(k + 1) * h01 + h * slope[k + 1] * h11
                stepOf[i] = globalIndex + k
                let fromStart = t - list[0], toEnd = list[m - 1] - t
                let e = min(1, fromStart / 0.6, toEnd / 0.6)
                envelope[i] = e * e * (3 - 2 * e)
                running[i] = stretches[stretchIndex(t)].gait == .run
            }
            for i in upper..<n { psi[i] = psi[max(0, upper - 1)] }
            base = psi[max(0, upper - 1)]
            globalIndex += m
        }

        // Walking → running blends over about a second (muscles do not jump).
        var runness = [Double](repeating: 0, count: n)
        do {
            var r = 0.0
            for i in 0..<n { r += ((running[i] ? 1 : 0) - r) * dt / 0.5; runness[i] = r }
        }

        // MARK: Carriage weights (blended over each stretch's `blend`).
        let carries = Carry.allCases
        var weight = [[Double]](repeating: [Double](repeating: 0, count: n), count: carries.count)
        for i in 0..<n {
            let t = Double(i) * dt, s = stretchIndex(t)
            let now = carries.firstIndex(of: stretches[s].carry)!
            var w = 1.0
            if s > 0, stretches[s - 1].carry != stretches[s].carry, t - starts[s] < stretches[s].blend {
                let u = (t - starts[s]) / stretches[s].blend
                w = u * u * (3 - 2 * u)
                weight[carries.firstIndex(of: stretches[s - 1].carry)!][i] = 1 - w
            }
            weight[now][i] += w
        }

        // MARK: Arm, leg and trunk parameters.
        let upperArm = uniform(0.27, 0.33), forearm = uniform(0.25, 0.32)
        let armOffset = uniform(0.0, 0.3), armPhase = uniform(-0.4, 0.4)
        let runArm = uniform(0.35, 0.75), walkArm = uniform(0.2, 0.45)
        let elbowRun = variant.straightArm ? uniform(0.25, 0.6) : uniform(1.2, 1.7)
        let elbowWalk = variant.straightArm ? uniform(0.1, 0.3) : uniform(0.2, 0.6)
        let elbowSwing = uniform(0.1, 0.4), elbowLag = uniform(-0.5, 0.5)
        let wristRoll = uniform(0.05, 0.35)
        let bandDistance = uniform(0.1, 0.18)
        let thighDistance = uniform(0.18, 0.3), runThigh = uniform(0.45, 0.75), walkThigh = uniform(0.25, 0.4)
        let pelvisYaw = uniform(0.05, 0.15), pelvisRoll = uniform(0.03, 0.1)
        let chestPitch = uniform(0.8, 1.4), chestWobble = uniform(0.01, 0.05)

        // Still-time handling: bumps of position (m) and of pitch/roll (rad) for the hand-held phone.
        var fidgetPos = [Double](repeating: 0, count: n), fidgetTurn = [Double](repeating: 0, count: n)
        var shift = [Double](repeating: 0, count: n)
        for (i, s) in stretches.enumerated() where s.gait == .still {
            var t = starts[i] + uniform(1, 4)
            while t < starts[i] + s.seconds - 1.5 {
                let width = uniform(0.3, 0.9), centre = Int(t * Self.fine)
                let lift = uniform(0.02, 0.12), turn = uniform(-1.2, 1.2), sh = uniform(-0.04, 0.04)
                for j in max(0, centre - Int(4 * width * Self.fine))..<min(n, centre + Int(4 * width * Self.fine)) {
                    let u = Double(j - centre) * dt / width
                    let bump = exp(-0.5 * u * u)
                    fidgetPos[j] += lift * bump
                    fidgetTurn[j] += turn * bump
                    shift[j] += sh * bump
                }
                t += uniform(2.5, 8)
            }
        }

        // MARK: Positions (world: x forward, y left, z up; m) and orientation angles (rad).
        var px = [Double](repeating: 0, count: n), py = px, pz = px
        var pitch = px, roll = px, yaw = px, impactGain = px
        let breath = 0.0
        let breathRate = uniform(0.2, 0.35)
        for i in 0..<n {
            let t = Double(i) * dt, e = envelope[i], p = psi[i]
            let isRun = runness[i]
            // Trunk.
            // Left and right steps bounce unequally: a smooth modulation at the stride rate.
            let bounceA = (walkBounce + (runBounce - walkBounce) * runness[i]) * e * (1 + bounceAsym * cos(p))
            let tz = -bounceA * (cos(2 * p - c) + h2 * cos(4 * p - c2)) + 0.003 * sin(2 * .pi * breathRate * t + breath)
            let ty = swayAmp * e * sin(p) + shift[i]
            let tx = surgeAmp * e * sin(2 * p + 0.5)
            let tyaw = yawAmp * e * sin(p + 0.3)
            var x = 0.0, y = 0.0, z = 0.0, ptch = 0.0, rl = 0.0, gain = 0.0
            for (ci, carry) in carries.enumerated() {
                let w = weight[ci][i]
                guard w > 0 else { continue }
                var cx = 0.0, cy = 0.0, cz = 0.0, cp = 0.0, cr = 0.0, g = 0.0
                switch carry {
                case .swing:
                    let a = armOffset * e + (walkArm + (runArm - walkArm) * isRun) * e * sin(p * side + armPhase)
                    let elbow = (elbowWalk + (elbowRun - elbowWalk) * isRun) * max(e, 0.3) + elbowSwing * e * sin(p * side + armPhase + elbowLag)
                    let shoulder = (0.0, side * 0.19, 0.45)
                    cx = shoulder.0 + upperArm * sin(a) + forearm * sin(a + elbow)
                    cy = shoulder.1 - 0.04 * e * sin(p * side + armPhase)
                    cz = shoulder.2 - upperArm * cos(a) - forearm * cos(a + elbow) + fidgetPos[i]
                    cp = a + elbow + fidgetTurn[i]
                    cr = wristRoll * e * cos(p * side + armPhase) + 0.5 * fidgetTurn[i]
                    g = 0.35
                case .chest:
                    cx = 0.12; cy = side * 0.05; cz = 0.25 + 0.5 * fidgetPos[i]
                    cp = chestPitch + chestWobble * e * sin(2 * p) + fidgetTurn[i]
                    cr = chestWobble * e * sin(p) + 0.3 * fidgetTurn[i]
                    g = 0.8
                case .armband:
                    let a = 0.5 * armOffset * e + (walkArm + (runArm - walkArm) * isRun) * e * sin(p * side + armPhase)
                    cx = bandDistance * sin(a); cy = side * 0.22; cz = 0.45 - bandDistance * cos(a)
                    cp = a + 0.3 * shift[i]; cr = 0.02 * e * sin(2 * p)
                    g = 0.55
                case .pocket:
                    let a = (walkThigh + (runThigh - walkThigh) * isRun) * e * sin(-p * side + 0.2) + 0.1 * e
                    cx = thighDistance * sin(a); cy = side * 0.1; cz = -0.1 - thighDistance * cos(a)
                    cp = a; cr = 0.05 * e * sin(p)
                    g = 1.0
                case .belt:
                    cx = 0.0; cy = side * 0.16; cz = -0.05 - 0.015 * e * cos(p * side)
                    cp = 0.02 * e * sin(2 * p); cr = pelvisRoll * e * sin(p * side + 0.6)
                    g = 1.0
                }
                if carry != .swing && carry != .chest {
                    cz += 0.15 * fidgetPos[i]; cp += 0.1 * fidgetTurn[i]
                }
                x += w * cx; y += w * cy; z += w * cz; ptch += w * cp; rl += w * cr; gain += w * g
                if carry == .belt { yaw[i] += w * pelvisYaw * e * sin(p + 0.2) }
            }
            // The carriage's point turns with the trunk's yaw, then the trunk translates.
            let cyw = cos(tyaw), syw = sin(tyaw)
            px[i] = tx + cyw * x - syw * y
            py[i] = ty + syw * x + cyw * y
            pz[i] = tz + z
            pitch[i] = ptch; roll[i] = rl; yaw[i] += tyaw; impactGain[i] = gain
        }

        // MARK: Specific force in the world (g): position's second derivative plus gravity.
        var fx = [Double](repeating: 0, count: n), fy = fx, fz = [Double](repeating: 1, count: n)
        let gN = 9.80665
        for i in 1..<(n - 1) {
            fx[i] = (px[i + 1] - 2 * px[i] + px[i - 1]) / (dt * dt) / gN
            fy[i] = (py[i + 1] - 2 * py[i] + py[i - 1]) / (dt * dt) / gN
            fz[i] = 1 + (pz[i + 1] - 2 * pz[i] + pz[i - 1]) / (dt * dt) / gN
        }
        // Foot strikes: a damped ringing, transmitted by the carriage (`impactGain`) through a
        // low-pass whose cut-off falls as the gain does (an arm is softer than a hip).
        var shock = [Double](repeating: 0, count: n)
        var footIndex = 0
        for step in steps {
            let footSide = footIndex % 2 == 0 ? 1.0 : -1.0
            footIndex += 1
            let i0 = Int(step * Self.fine)
            guard i0 < n else { continue }
            let isRun = running[min(n - 1, i0 + 1)]
            let size = (isRun ? runImpact : walkImpact) * (1 + impactAsym * footSide) * uniform(0.7, 1.3)
            for j in i0..<min(n, i0 + Int(0.15 * Self.fine)) {
                let tau = Double(j - i0) * dt
                shock[j] += size * exp(-tau / impactDecay) * sin(2 * .pi * impactFreq * tau)
            }
        }
        var smooth = 0.0, smooth2 = 0.0
        for i in 0..<n {
            let gain = impactGain[i]
            // The pocket's near leg: its strikes the stronger (the side alternates with the foot).
            let cutoff = 4 + 30 * gain
            let alpha = 1 - exp(-2 * .pi * cutoff * dt)
            smooth += alpha * (shock[i] - smooth); smooth2 += alpha * (smooth - smooth2)
            fz[i] += gain * smooth2
            fx[i] -= 0.3 * gain * smooth2
        }
        // Standing hand tremor (8–12 Hz, a few mg) when in a hand.
        let tremor = uniform(8, 12)
        for i in 0..<n {
            let hand = weight[0][i] + weight[1][i]
            fz[i] += hand * 0.003 * (1 - envelope[i]) * sin(2 * .pi * tremor * Double(i) * dt)
        }

        // MARK: Into the phone's frame: R = Rz(yaw)·Ry(pitch)·Rx(roll)·grip; device = Rᵀ·f.
        let grip = randomRotation(&rng)
        var dx = [Double](repeating: 0, count: n), dy = dx, dz = dx
        for i in 0..<n {
            let (cy_, sy_) = (cos(yaw[i]), sin(yaw[i]))
            let (cp_, sp_) = (cos(pitch[i]), sin(pitch[i]))
            let (cr_, sr_) = (cos(roll[i]), sin(roll[i]))
            // Rᵀ f applied as the inverse rotations in reverse order.
            var v = (cy_ * fx[i] + sy_ * fy[i], -sy_ * fx[i] + cy_ * fy[i], fz[i])
            v = (cp_ * v.0 - sp_ * v.2, v.1, sp_ * v.0 + cp_ * v.2)
            v = (v.0, cr_ * v.1 + sr_ * v.2, -sr_ * v.1 + cr_ * v.2)
            let g = grip
            dx[i] = g[0][0] * v.0 + g[1][0] * v.1 + g[2][0] * v.2
            dy[i] = g[0][1] * v.0 + g[1][1] * v.1 + g[2][1] * v.2
            dz[i] = g[0][2] * v.0 + g[1][2] * v.1 + g[2][2] * v.2
        }

        // MARK: Sensor.
        var prefix = [[Double]](repeating: [Double](repeating: 0, count: n + 1), count: 3)
        for i in 0..<n { prefix[0][i + 1] = prefix[0][i] + dx[i]; prefix[1][i + 1] = prefix[1][i] + dy[i]; prefix[2][i + 1] = prefix[2][i] + dz[i] }
        let clock = rate * uniform(0.98, 1.02)
        let timing = uniform(0.02, 0.2)
        let noise = uniform(0.004, 0.04)
        let bias = (uniform(-0.03, 0.03), uniform(-0.03, 0.03), uniform(-0.03, 0.03))
        let quantum = [0.0, 1.0 / 2048, 1.0 / 512][Int(uniform(0, 2.999))]
        let clip = rng.nextUnit() < 0.5 ? 8.0 : 16.0
        let dropouts = (0..<Int(uniform(0, 2.999))).map { _ in (uniform(5, max(6, duration - 5)), uniform(0.2, 1.5)) }
        var samples = [AccelerationSample]()
        samples.reserveCapacity(Int(duration * clock) + 4)
        var j = 0
        while true {
            let t = (Double(j) + 0.5) / clock + timing / clock * normal()
            j += 1
            if t >= duration - 0.01 { break }
            if t < 0 || dropouts.contains(where: { t >= $0.0 && t < $0.0 + $0.1 }) { continue }
            let hi = min(n, max(1, Int(t * Self.fine))), lo = max(0, min(hi - 1, Int((t - 1 / clock) * Self.fine)))
            let count = Double(hi - lo)
            func read(_ a: Int, _ b: Double) -> Double {
                var v = (prefix[a][hi] - prefix[a][lo]) / count + b + noise * normal()
                if quantum > 0 { v = (v / quantum).rounded() * quantum }
                return max(-clip, min(clip, v))
            }
            samples.append(AccelerationSample(t: t, x: read(0, bias.0), y: read(1, bias.1), z: read(2, bias.2)))
        }
        samples.sort { $0.t < $1.t }
        let layout = stretches.indices.map { (starts[$0], starts[$0] + stretches[$0].seconds, stretches[$0].carry, stretches[$0].gait) }
        return Trace(name: name, samples: samples, steps: steps, moving: spans.map { ($0.start, $0.end) },
                     stretches: layout, rate: rate, duration: duration)
    }

    /// A uniformly random rotation (from a random unit quaternion, Marsaglia's method).
    private func randomRotation(_ rng: inout SplitMix64) -> [[Double]] {
        var a = 0.0, b = 0.0, s1 = 2.0, c = 0.0, d = 0.0, s2 = 2.0
        while s1 >= 1 { a = 2 * rng.nextUnit() - 1; b = 2 * rng.nextUnit() - 1; s1 = a * a + b * b }
        while s2 >= 1 || s2 == 0 { c = 2 * rng.nextUnit() - 1; d = 2 * rng.nextUnit() - 1; s2 = c * c + d * d }
        let f = ((1 - s1) / s2).squareRoot()
        let (w, x, y, z) = (a, b, c * f, d * f)
        return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
    }
}
