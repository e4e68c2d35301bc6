import AudioCore
import Cadence
import Foundation

/// Synthetic accelerometer traces of walking, running and standing, with the true step
/// times, for testing cadence estimators. Everything is in g, world z up.
///
/// Per step: a heel-strike impulse (a 20 ms Gaussian and a damped 18 Hz ringing), a body
/// bounce at the step rate, fore-aft braking, and a lateral sway at the stride rate; the
/// two sides differ in amplitude and timing (asymmetry), every step interval varies by
/// 2–5 %. The phone sits in a pocket (tilting with the thigh each stride), on an armband
/// or a belt (a fixed random orientation), or in a swinging hand (a 0.6 m pendulum at the
/// stride rate, rotating with it). Gravity points in a random direction of the phone's
/// frame; then noise, sample-time jitter and gaps.
struct GaitGenerator {
    enum Placement: String, CaseIterable { case pocket, armband, belt, hand }

    /// A stretch of the trace: moving with a cadence ramping from `from` to `to` spm, or still.
    struct Segment { var seconds: Double; var from: Double; var to: Double; var moving: Bool }

    struct Trace {
        var name: String
        var samples: [AccelerationSample]
        var steps: [Double]
        var segments: [Segment]
        var duration: Double

        /// Whether the wearer moves (true) or stands (false) throughout [second − half, second + half]; nil if mixed.
        func activity(at second: Double, half: Double = 2) -> Bool? {
            var start = 0.0
            var kinds = Set<Bool>()
            for segment in segments {
                let end = start + segment.seconds
                if end > second - half && start < second + half { kinds.insert(segment.moving) }
                start = end
            }
            return kinds.count == 1 ? kinds.first : nil
        }
    }

    var seed: UInt64
    var placement: Placement
    var rate: Double
    var jitter = 0.2
    var gaps = 2
    var noise = 0.02

    func make(_ name: String, _ segments: [Segment]) -> Trace {
        var rng = SplitMix64(seed: seed)
        let duration = segments.reduce(0) { $0 + $1.seconds }
        // Step times and the motion per step.
        var steps = [Double]()
        var stepInfo = [(t: Double, period: Double, side: Double, amplitude: Double)]()
        let variability = 0.02 + 0.03 * rng.nextUnit()
        let asymmetryTime = 0.03 * rng.nextUnit(), asymmetryAmplitude = 0.05 + 0.25 * rng.nextUnit()
        var start = 0.0, side = 1.0
        var t = 0.1 * rng.nextUnit()
        for segment in segments {
            if segment.moving {
                t = max(t, start)
                while t < start + segment.seconds {
                    let progress = (t - start) / segment.seconds
                    let spm = segment.from + (segment.to - segment.from) * progress
                    let period = 60 / spm * (1 + side * asymmetryTime) * (1 + variability * gaussian(&rng))
                    let running = spm >= 140
                    let amplitude = (running ? 1.0 + 0.8 * rng.nextUnit() : 0.3 + 0.25 * rng.nextUnit()) * (1 + side * asymmetryAmplitude)
                    steps.append(t)
                    stepInfo.append((t, period, side, amplitude))
                    t += period
                    side = -side
                }
            }
            start += segment.seconds
            if !segment.moving { t = start + 0.1 * rng.nextUnit() }
        }
        // Orientation: gravity in a random direction of the phone's frame.
        let base = randomRotation(&rng)
        let swing = placement == .hand ? 0.4 + 0.3 * rng.nextUnit() : 0.35
        // Sample times with jitter and gaps.
        var times = [Double]()
        t = 0.0
        let gapStarts = (0..<gaps).map { _ in 5 + (duration - 10) * rng.nextUnit() }
        let gapLengths = (0..<gaps).map { _ in 0.2 + 1.0 * rng.nextUnit() }
        while t < duration {
            if !zip(gapStarts, gapLengths).contains(where: { t >= $0 && t < $0 + $1 }) { times.append(t) }
            t += (1 + jitter * (2 * rng.nextUnit() - 1)) / rate
        }
        var samples = [AccelerationSample]()
        samples.reserveCapacity(times.count)
        var stepIndex = 0
        var sway = (0.0, 0.0, 0.0)
        for time in times {
            while stepIndex + 1 < stepInfo.count && stepInfo[stepIndex + 1].t <= time { stepIndex += 1 }
            var a = (x: 0.0, y: 0.0, z: 0.0)
            var tilt = 0.0
            if let info = stepInfo.indices.contains(stepIndex) ? stepInfo[stepIndex] : nil,
               time >= info.t, time < info.t + info.period * 1.5 {
                let tau = time - info.t
                let phase = tau / info.period
                let impulse = 1.6 * exp(-0.5 * pow((tau - 0.02) / 0.012, 2)) + 0.5 * exp(-tau / 0.03) * sin(2 * .pi * 18 * tau)
                a.z = info.amplitude * (impulse + 0.6 * cos(2 * .pi * phase))
                a.y = info.amplitude * (-0.5 * impulse + 0.3 * sin(2 * .pi * phase))
                a.x = info.amplitude * 0.25 * info.side * sin(.pi * min(phase, 1))
                // Stride phase: 0…1 over two steps.
                let stride = (Double(stepIndex % 2) + min(phase, 1)) / 2
                switch placement {
                case .pocket:
                    tilt = 0.5 * sin(2 * .pi * stride)
                    a.y += 0.3 * info.amplitude * sin(2 * .pi * stride)
                case .hand:
                    let omega = 2 * .pi / (2 * info.period)
                    let phi = swing * sin(2 * .pi * stride), dphi = swing * omega * cos(2 * .pi * stride)
                    let ddphi = -swing * omega * omega * sin(2 * .pi * stride)
                    let radius = 0.6 / 9.80665
                    a.y += radius * (ddphi * cos(phi) - dphi * dphi * sin(phi))
                    a.z += radius * (ddphi * sin(phi) + dphi * dphi * cos(phi))
                    tilt = phi
                case .armband, .belt:
                    tilt = 0.05 * sin(2 * .pi * stride)
                }
            } else {
                // Standing: slow sway and, in a hand, a little tremor.
                sway.0 = 0.995 * sway.0 + 0.002 * gaussian(&rng)
                sway.1 = 0.995 * sway.1 + 0.002 * gaussian(&rng)
                sway.2 = 0.995 * sway.2 + 0.002 * gaussian(&rng)
                a = (sway.0, sway.1, sway.2)
                if placement == .hand { a.z += 0.004 * sin(2 * .pi * 9 * time) }
            }
            let f = (a.x, a.y * cos(tilt) - (a.z + 1) * sin(tilt), a.y * sin(tilt) + (a.z + 1) * cos(tilt))
            let d = multiply(base, f)
            samples.append(AccelerationSample(t: time, x: d.0 + noise * gaussian(&rng), y: d.1 + noise * gaussian(&rng),
                                              z: d.2 + noise * gaussian(&rng)))
        }
        return Trace(name: name, samples: samples, steps: steps, segments: segments, duration: duration)
    }

    private func gaussian(_ rng: inout SplitMix64) -> Double {
        let u = max(rng.nextUnit(), 1e-12), v = rng.nextUnit()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    private func randomRotation(_ rng: inout SplitMix64) -> [[Double]] {
        // A random unit quaternion (Shoemake 1992) as a matrix.
        let u1 = rng.nextUnit(), u2 = rng.nextUnit(), u3 = rng.nextUnit()
        let q0 = (1 - u1).squareRoot() * sin(2 * .pi * u2), q1 = (1 - u1).squareRoot() * cos(2 * .pi * u2)
        let q2 = u1.squareRoot() * sin(2 * .pi * u3), q3 = u1.squareRoot() * cos(2 * .pi * u3)
        return [[1 - 2 * (q2 * q2 + q3 * q3), 2 * (q1 * q2 - q0 * q3), 2 * (q1 * q3 + q0 * q2)],
                [2 * (q1 * q2 + q0 * q3), 1 - 2 * (q1 * q1 + q3 * q3), 2 * (q2 * q3 - q0 * q1)],
                [2 * (q1 * q3 - q0 * q2), 2 * (q2 * q3 + q0 * q1), 1 - 2 * (q1 * q1 + q2 * q2)]]
    }

    private func multiply(_ m: [[Double]], _ v: (Double, Double, Double)) -> (Double, Double, Double) {
        (m[0][0] * v.0 + m[0][1] * v.1 + m[0][2] * v.2,
         m[1][0] * v.0 + m[1][1] * v.1 + m[1][2] * v.2,
         m[2][0] * v.0 + m[2][1] * v.1 + m[2][2] * v.2)
    }
}
