import Foundation

/// Quintet's cadence estimator: a timeline of steps per minute, one reading per second,
/// from timestamped 3-axis accelerometer samples at any rate from 20 to 200 Hz.
///
/// The chain (docs/runner.md): samples → magnitude resampled to a 50 Hz grid (gaps over
/// 0.5 s split the log) → minus gravity → band-pass 0.5–5 Hz → for each second, the
/// normalised unbiased autocorrelation of the 4 s window centred on it (after
/// Moe-Nilssen & Helbostad, J. Biomech. 2004) → the step lag, told from the stride lag
/// (the first peak that reaches 20 % of the strongest, repeats at twice its lag and, if
/// under 40 % and at a running cadence, comes with a running intensity) → sub-sample lags
/// by parabolic interpolation → cadence = 60 / step period. Still: too little signal in the
/// window, in its central 2 s or in its central second (against the window's), or no
/// autocorrelation peak of 0.3. When the steps counted in the window (zero crossings of a
/// band-pass at the step rate; only when the step lag's autocorrelation reaches 0.2 and the
/// intervals are regular) disagree with that period by 3–30 % (the pace changed within it),
/// the counted cadence wins, since the truth for a second is the mean step interval around
/// it. Step/stride slips: the readings are tracked across seconds (a Viterbi path through
/// each second's reading, half and double it, an octave jump between seconds costing more
/// than a few seconds read at the other octave), and a second the path moves is taken again
/// at that lag. What tells a stride from a step there is the signal's own evidence: the jerk's
/// repetition at half the lag read, and the three axes' power at the rate read against twice
/// it (issue 21: a phone swung in a hand turns, and its magnitude shows the swing's stride).
///
/// ```swift
/// let analysis = CadenceEstimator().analyze(samples)
/// analysis.readings.last?.spm   // 171.8
/// ```
public struct CadenceEstimator: CadenceEstimating {
    /// Grid rate (Hz) the samples are resampled to.
    public var gridRate = 50.0
    /// Window length, seconds (the truth for a second is the mean step over 4 s around it).
    public var window = 4.0
    /// Shortest window (s) worth estimating when a segment is shorter than `window`.
    public var minimumWindow = 2.5
    /// Gaps (s) longer than this split the log.
    public var maxGap = 0.5
    /// Cadences outside this range are not reported (spm).
    public var cadenceRange: ClosedRange<Double> = 60...230
    /// Below this RMS of the band-passed magnitude (g) the wearer is still.
    public var stillRMS = 0.04
    /// Below this share of the window's RMS in its central second, the wearer has stopped or
    /// not yet started there.
    public var coreShare = 0.4
    /// Below this autocorrelation peak the signal is not periodic enough to be gait.
    public var minimumPeak = 0.3
    /// Cadence (spm) from which a moving window counts as running.
    public var runningCadence = 140.0
    /// A peak at a shorter lag than the strongest one may be the step when it reaches this share of it…
    public var stepShare = 0.2
    /// …and is when it reaches this share, or gives a walking cadence, or the window is intense enough.
    public var strongStepShare = 0.4
    /// Band-passed RMS (g) from which a window may be running.
    public var runningRMS = 0.25

    /// Relative gap between the counted and the autocorrelation cadence above which the
    /// window is taken to hold a change of pace.
    public var changeTolerance = 0.03
    /// The counted steps are trusted only when every interval lies within this share of
    /// their median and its inverse.
    public var countRegularity = 0.75
    /// …and when the autocorrelation at the step lag reaches this.
    public var countPeak = 0.2

    /// Tracking across seconds (step/stride slips): the cost of reading a second at half or
    /// double its own cadence, of a jump of more than `jumpRatio` from one reading to the
    /// next, and the longest run of seconds without a reading the track bridges.
    public var octaveCost = 1.0
    public var unsupportedCost = 2.0
    public var jumpCost = 5.0
    public var jumpRatio = 1.7
    public var trackGap = 2
    /// Cadence (spm) under which a reading costs `slowCost` per spm in the tracking.
    public var slowCadence = 80.0
    public var slowCost = 0.2
    /// Band-passed RMS (g) from which a window whose jerk repeats at half the lag read (see
    /// `impactsAtHalf`) is taken for a stride: the reading then costs `octaveCost` and its
    /// double nothing in the tracking.
    public var impactRMS = 0.2
    /// Normalised autocorrelation of the jerk at half the lag read above which the impacts
    /// come twice per period read.
    public var impactShare = 0.2
    /// Share of the three axes' power at twice the rate read (against the rate read and twice
    /// it) from which the reading is taken for a stride whatever the jerk says (see
    /// `doubleRateShare`)…
    public var vectorShare = 0.6
    /// …and under which the jerk's evidence (`impactsAtHalf`) is not enough: a walk on a belt
    /// or a run with the phone at the chest has a jerk that repeats at half its step too.
    public var impactVectorShare = 0.45
    /// Share of the axes' power at twice the rate read above which the rate read is nearly
    /// absent from the axes: then, if the stride at two thirds of it and the step at four
    /// thirds show (`vectorShare`), the reading is a third harmonic of the stride (seen in a
    /// swinging hand sampled at 20 Hz) and four thirds of it is the step.
    public var absentShare = 0.9

    public init() {}

    public func analyze(_ samples: [AccelerationSample]) -> CadenceAnalysis {
        var grid = UniformGrid(samples: samples, rate: gridRate, maxGap: maxGap)
        guard !grid.values.isEmpty else { return CadenceAnalysis(readings: []) }
        for segment in grid.segments {
            bandPass(&grid.values, segment)
            bandPass(&grid.x, segment); bandPass(&grid.y, segment); bandPass(&grid.z, segment)
        }
        let seconds = Int(Double(grid.values.count - 1) / gridRate)
        var readings = [CadenceReading]()
        readings.reserveCapacity(seconds + 1)
        let width = Int(window * gridRate), minimum = Int(minimumWindow * gridRate)
        var windows = [Range<Int>?](repeating: nil, count: seconds + 1)
        var estimates = [WindowEstimate](repeating: WindowEstimate(), count: seconds + 1)
        grid.values.withUnsafeBufferPointer { values in
            for second in 0...seconds {
                let centre = grid.index(at: Double(second))
                var reading = CadenceReading(t: Double(second), spm: nil, confidence: 0, regularity: 0, state: .still, steps: 0)
                if let segment = grid.segments.first(where: { $0.contains(centre) }), segment.count >= minimum {
                    let length = min(width, segment.count)
                    let lower = min(max(centre - length / 2, segment.lowerBound), segment.upperBound - length)
                    windows[second] = lower..<(lower + length)
                    var estimate = estimateWindow(UnsafeBufferPointer(rebasing: values[lower..<(lower + length)]))
                    if let spm = estimate.spm {
                        let range = lower..<(lower + length), period = 60 * gridRate / spm
                        let share = doubleRateShare(grid, range, period: period)
                        estimate.doubleRateShare = share
                        if share >= absentShare, cadenceRange.contains(4 * spm / 3),
                           case let (step, double) = vectorPowers(grid, range, 4 / (3 * period), 2 / period), step > double,
                           doubleRateShare(grid, range, period: 1.5 * period) >= vectorShare {
                            estimate.threeHalvesStride = true
                            estimate.impactsAtHalf = false
                        } else if cadenceRange.contains(2 * spm) {
                            estimate.impactsAtHalf = share >= vectorShare || (estimate.impactsAtHalf && share >= impactVectorShare)
                        }
                    }
                    estimates[second] = estimate
                    reading.spm = estimate.spm
                    reading.confidence = estimate.confidence
                    reading.regularity = estimate.regularity
                }
                readings.append(reading)
            }
            track(&readings, estimates: estimates, windows: windows, values: values)
        }
        var steps = 0.0
        for i in readings.indices {
            if let spm = readings[i].spm { readings[i].state = spm >= runningCadence ? .running : .walking; steps += spm / 60 }
            readings[i].steps = Int(steps.rounded())
        }
        return CadenceAnalysis(readings: readings)
    }

    /// Magnitude minus gravity, then a 0.5 Hz high-pass and a 5 Hz low-pass (Butterworth, 2nd order each).
    func bandPass(_ values: inout [Float], _ segment: Range<Int>) {
        let settle = segment.prefix(Int(gridRate))
        let mean = settle.reduce(Float(0)) { $0 + values[$1] } / Float(max(settle.count, 1))
        var high = Biquad(lowPass: false, cutoff: 0.5, rate: gridRate)
        var low = Biquad(lowPass: true, cutoff: 5, rate: gridRate)
        for i in segment { values[i] = low.process(high.process(values[i] - mean)) }
    }

    struct WindowEstimate {
        var spm: Double?; var confidence = 0.0; var regularity = 0.0
        /// The autocorrelation at the step lag found, and at half and twice it (nil: no positive
        /// peak there): the evidence for the cadence read, for double it and for half it.
        var stepPeak = 0.0, doublePeak: Double?, halfPeak: Double?
        /// The window is as intense as running and its jerk (the impacts) repeats at half
        /// the lag read: that lag is a stride (a swinging hand or a pocket while running).
        var impactsAtHalf = false
        /// The share of the three axes' power at twice the rate read, against that at the rate
        /// read and twice it (`doubleRateShare`).
        var doubleRateShare = 0.0
        /// The rate read is 3/2 of the stride's: the axes hold almost nothing at it
        /// (`absentShare`), while at two thirds of it (the stride) and four thirds (the step)
        /// they show a gait whose step dominates (`vectorShare`).
        var threeHalvesStride = false
    }

    /// Of the acceleration vector's power (the three band-passed axes, each a Goertzel
    /// filter over the window) at the rate read, 1 / `period`, and at twice it, the share at
    /// twice it. The axes keep what the magnitude loses: a limb swinging at the stride rate
    /// turns the phone, and the magnitude, which ignores the turn, still shows the swing's
    /// own acceleration at the stride rate, while the body's bounce — at the step rate, in the
    /// world's vertical — is in the axes whole (issue 21; docs/runner.md, step 8).
    func doubleRateShare(_ grid: UniformGrid, _ range: Range<Int>, period: Double) -> Double {
        let (atRate, atDouble) = vectorPowers(grid, range, 1 / period, 2 / period)
        return atRate + atDouble > 0 ? atDouble / (atRate + atDouble) : 0
    }

    /// The power of the band-passed acceleration vector over `range` at two frequencies
    /// (cycles per grid sample): the sum of the three axes' (Goertzel filters, one pass), which
    /// the phone's orientation does not change.
    func vectorPowers(_ grid: UniformGrid, _ range: Range<Int>, _ f1: Double, _ f2: Double) -> (Double, Double) {
        let c1 = Float(2 * cos(2 * Double.pi * f1)), c2 = Float(2 * cos(2 * Double.pi * f2))
        // Per axis and frequency, the Goertzel state (s1, s2).
        var a1 = SIMD4<Float>(), a2 = SIMD4<Float>(), b1 = SIMD4<Float>(), b2 = SIMD4<Float>()
        grid.x.withUnsafeBufferPointer { x in
            grid.y.withUnsafeBufferPointer { y in
                grid.z.withUnsafeBufferPointer { z in
                    for i in range {
                        let v = SIMD4<Float>(x[i], y[i], z[i], 0)
                        let a0 = v + c1 * a1 - a2; a2 = a1; a1 = a0
                        let b0 = v + c2 * b1 - b2; b2 = b1; b1 = b0
                    }
                }
            }
        }
        let p1 = a1 * a1 + a2 * a2 - c1 * a1 * a2, p2 = b1 * b1 + b2 * b2 - c2 * b1 * b2
        return (Double(p1.sum()), Double(p2.sum()))
    }

    /// A step read as a stride (or the reverse) halves (doubles) the cadence from one second
    /// to the next, which no runner does, and a whole stretch may slip at once. The readings
    /// are tracked as a path through each second's candidates — the cadence read, half it
    /// and double it when the window has a positive autocorrelation peak there — costing
    /// `octaveCost` for each candidate other than the reading (less when its peak is as
    /// strong) and `jumpCost` for each jump of more than `jumpRatio` between consecutive
    /// readings (a Viterbi path). A second whose best path goes through another candidate
    /// is taken again at that lag, and the result kept if it lies within 20 % of it.
    func track(_ readings: inout [CadenceReading], estimates: [WindowEstimate], windows: [Range<Int>?], values: UnsafeBufferPointer<Float>) {
        let count = readings.count
        var start = 0
        while start < count {
            guard readings[start].spm != nil else { start += 1; continue }
            // A run of seconds with readings, nil gaps of up to `trackGap` seconds bridged.
            var end = start + 1, lastRead = start
            while end < count, end - lastRead <= trackGap + 1 {
                if readings[end].spm != nil { lastRead = end }
                end += 1
            }
            let run = (start...lastRead).filter { readings[$0].spm != nil }
            start = lastRead + 1
            guard run.count >= 3 else { continue }
            // Candidates: 0 the reading, 1 double, 2 half, 3 four thirds (a reading at 3/2 the stride rate).
            var cost = [[Double]](), back = [[Int]]()
            cost.reserveCapacity(run.count); back.reserveCapacity(run.count)
            // Walking is slower than `slowCadence` only at a shuffle: such a reading is more
            // likely a stride read as a step.
            func slow(_ spm: Double) -> Double { max(0, slowCadence - spm) * slowCost }
            func candidates(_ second: Int) -> [(spm: Double, cost: Double)?] {
                let e = estimates[second], spm = readings[second].spm!
                func alternative(_ factor: Double, _ peak: Double?) -> (spm: Double, cost: Double)? {
                    guard cadenceRange.contains(spm * factor) else { return nil }
                    return (spm * factor, (peak == nil ? unsupportedCost : octaveCost) + slow(spm * factor))
                }
                if e.threeHalvesStride {
                    return [(spm, octaveCost + slow(spm)), alternative(2, e.doublePeak), alternative(0.5, e.halfPeak), (4 * spm / 3, slow(4 * spm / 3))]
                }
                if e.impactsAtHalf, cadenceRange.contains(2 * spm) {
                    return [(spm, octaveCost + slow(spm)), (2 * spm, slow(2 * spm)), alternative(0.5, e.halfPeak), nil]
                }
                return [(spm, slow(spm)), alternative(2, e.doublePeak), alternative(0.5, e.halfPeak), nil]
            }
            var previous = candidates(run[0])
            cost.append(previous.map { $0?.cost ?? .infinity })
            back.append([0, 0, 0, 0])
            for second in run.dropFirst() {
                let current = candidates(second)
                var row = [Double](repeating: .infinity, count: 4), from = [0, 0, 0, 0]
                for j in 0..<4 {
                    guard let c = current[j] else { continue }
                    for i in 0..<4 {
                        guard let p = previous[i], cost.last![i].isFinite else { continue }
                        let ratio = c.spm / p.spm
                        let total = cost.last![i] + (ratio > jumpRatio || ratio < 1 / jumpRatio ? jumpCost : 0)
                        if total < row[j] { row[j] = total; from[j] = i }
                    }
                    row[j] += c.cost
                }
                cost.append(row); back.append(from)
                previous = current
            }
            var state = cost.last!.indices.min { cost.last![$0] < cost.last![$1] }!
            for k in stride(from: run.count - 1, through: 0, by: -1) {
                let second = run[k]
                if state != 0, let range = windows[second], let spm = readings[second].spm {
                    let target = state == 1 ? 2 * spm : state == 2 ? spm / 2 : 4 * spm / 3
                    let estimate = estimateWindow(UnsafeBufferPointer(rebasing: values[range]), prior: target)
                    if let again = estimate.spm, abs(again / target - 1) < 0.2 {
                        readings[second].spm = again
                        readings[second].confidence = estimate.confidence
                        readings[second].regularity = estimate.regularity
                    } else {
                        readings[second].spm = target
                    }
                }
                state = back[k][state]
            }
        }
    }

    /// The cadence of one band-passed window.
    func estimateWindow(_ x: UnsafeBufferPointer<Float>, prior: Double? = nil) -> WindowEstimate {
        let n = x.count
        var energy = 0.0
        for v in x { energy += Double(v * v) }
        guard (energy / Double(n)).squareRoot() >= stillRMS else { return WindowEstimate() }
        // The wearer may have stopped (or not yet started) around the centre: the 2 s there decide.
        let centre = UnsafeBufferPointer(rebasing: x[max(0, n / 2 - Int(gridRate))..<min(n, n / 2 + Int(gridRate))])
        var centreEnergy = 0.0
        for v in centre { centreEnergy += Double(v * v) }
        guard (centreEnergy / Double(max(centre.count, 1))).squareRoot() >= stillRMS else { return WindowEstimate() }
        // Its central second must hold a share of the window's motion, too.
        let core = UnsafeBufferPointer(rebasing: x[max(0, n / 2 - Int(gridRate / 2))..<min(n, n / 2 + Int(gridRate / 2))])
        var coreEnergy = 0.0
        for v in core { coreEnergy += Double(v * v) }
        let coreRMS = (coreEnergy / Double(max(core.count, 1))).squareRoot()
        guard coreRMS >= stillRMS, coreRMS >= coreShare * (energy / Double(n)).squareRoot() else { return WindowEstimate() }
        let minLag = Int((60 / cadenceRange.upperBound * gridRate).rounded(.down))
        let maxStep = 60 / cadenceRange.lowerBound * gridRate
        let maxLag = min(Int(2 * maxStep) + 2, n * 2 / 3)
        let r = Autocorrelation.normalized(x, maxLag: maxLag)
        let peaks = Autocorrelation.peaks(r, from: max(minLag, 2))
        guard let strongest = peaks.filter({ $0.lag <= 2 * maxStep }).max(by: { $0.value < $1.value }),
              strongest.value >= minimumPeak else { return WindowEstimate() }
        // Step or stride? Every multiple of the step lag is a peak; with asymmetric gaits
        // the even ones (strides) are the higher. The step is the first peak in the step
        // range that reaches `stepShare` of the strongest; failing that, half the strongest.
        let threshold = max(0.15, stepShare * strongest.value)
        var step = strongest.lag > maxStep ? strongest.lag / 2 : strongest.lag
        let rms = (energy / Double(n)).squareRoot()
        if let first = peaks.first(where: { $0.lag <= maxStep && $0.value >= threshold && accepts($0, strongest: strongest, rms: rms, peaks: peaks) }),
           first.lag < step * 0.9 {
            step = first.lag
        }
        if let prior {
            // The step lag the neighbouring seconds imply, if the window has a peak there.
            let expected = 60 * gridRate / prior
            guard let near = peaks.filter({ abs($0.lag - expected) <= 0.2 * expected }).max(by: { $0.value < $1.value }),
                  near.value > 0 else { return WindowEstimate() }
            step = near.lag
        }
        guard step <= maxStep + 1 else { return WindowEstimate() }
        // The stride peak (two steps) fixes the mean step more finely than the step peak.
        var period = step, regularity = Autocorrelation.value(r, near: step, tolerance: 0.05)
        if 2 * step <= Double(maxLag - 1), let stridePeak = Autocorrelation.peak(near: 2 * step, in: peaks, tolerance: 0.1), stridePeak.value > 0 {
            period = stridePeak.lag / 2
            regularity = stridePeak.value
        }
        var spm = 60 * gridRate / period
        // When the pace changes inside the window, the autocorrelation follows the dominant
        // pace while the truth is the mean step interval: count the steps instead.
        // Only when the steps stand out: with the step lag's autocorrelation low (a pocket's
        // stride-periodic swing), the crossings at the step rate are noise.
        let stepPeak = Autocorrelation.value(r, near: step, tolerance: 0.05)
        if stepPeak >= countPeak, let counted = countedCadence(x, period: period), abs(counted - spm) > changeTolerance * spm, abs(counted / spm - 1) < 0.3 {
            spm = counted
        }
        guard cadenceRange.contains(spm) else { return WindowEstimate() }
        let confidence = min(1, max(0, (max(regularity, strongest.value) - minimumPeak) / (0.9 - minimumPeak)))
        var estimate = WindowEstimate(spm: spm, confidence: confidence, regularity: max(0, min(1, regularity)))
        estimate.stepPeak = stepPeak
        if period / 2 >= Double(max(minLag, 2)), let half = Autocorrelation.peak(near: period / 2, in: peaks, tolerance: 0.1), half.value > 0 {
            estimate.doublePeak = half.value
        }
        if let twice = Autocorrelation.peak(near: 2 * period, in: peaks, tolerance: 0.1), twice.value > 0 {
            estimate.halfPeak = twice.value
        }
        if rms >= impactRMS { estimate.impactsAtHalf = jerkCorrelation(x, lag: period / 2) > impactShare }
        return estimate
    }

    /// The normalised autocorrelation of the first difference of `x` (its jerk, which the
    /// impacts dominate) at `lag` (rounded). A swing at the stride rate hides the steps from
    /// the autocorrelation of `x`, not from that of its jerk.
    func jerkCorrelation(_ x: UnsafeBufferPointer<Float>, lag: Double) -> Double {
        let n = x.count, k = Int(lag.rounded())
        guard k >= 1, n - k > 2 else { return 0 }
        var energy = 0.0, product = 0.0
        for i in 1..<n { let d = Double(x[i] - x[i - 1]); energy += d * d }
        for i in 1..<(n - k) { product += Double(x[i] - x[i - 1]) * Double(x[i + k] - x[i + k - 1]) }
        guard energy > 0 else { return 0 }
        return product / Double(n - 1 - k) / (energy / Double(n - 1))
    }

    /// Whether a peak at a shorter lag than the strongest may be the step. A peak of
    /// `strongStepShare` of the strongest may; a weaker one (a stride-dominated pocket or
    /// belt) only when its cadence is a walking one or the window is as intense as running
    /// is (feet leave the ground: `runningRMS`), since a walk's second harmonic also makes
    /// a weak peak at half the step lag.
    /// Either way the lag must repeat: twice it, there must be a positive peak too (a walk
    /// in a pocket, whose left and right steps differ, has none at twice half its step).
    func accepts(_ peak: Autocorrelation.Peak, strongest: Autocorrelation.Peak, rms: Double, peaks: [Autocorrelation.Peak]) -> Bool {
        guard peak.value >= strongStepShare * strongest.value || 60 * gridRate / peak.lag < runningCadence + 10 || rms >= runningRMS
        else { return false }
        guard let twice = Autocorrelation.peak(near: 2 * peak.lag, in: peaks, tolerance: 0.1) else { return 2 * peak.lag > Double(peaks.last?.lag ?? 0) }
        return twice.value > 0
    }

    /// 60 / the mean interval between the steps of the window, the steps being the upward
    /// zero crossings of the window band-passed around the step rate 1 / `period` (a
    /// resonator of Q 2, run forward and backward: no delay, the stride rate and the
    /// heel-strike's harmonics ten times down). Nil when fewer than three steps are found or
    /// one interval looks like a missed or an extra step (outside 0.6–1.6× their median).
    func countedCadence(_ x: UnsafeBufferPointer<Float>, period: Double) -> Double? {
        let n = x.count
        guard n >= 8, period > 2 else { return nil }
        var filter = Biquad(bandPass: gridRate / period, q: 2, rate: gridRate)
        var y = [Float](repeating: 0, count: n)
        for i in 0..<n { y[i] = filter.process(x[i]) }
        filter.reset()
        for i in stride(from: n - 1, through: 0, by: -1) { y[i] = filter.process(y[i]) }
        var times = [Double]()
        for i in 1..<n where y[i - 1] < 0 && y[i] >= 0 {
            times.append(Double(i - 1) + Double(-y[i - 1] / (y[i] - y[i - 1])))
        }
        guard times.count >= 3 else { return nil }
        let intervals = zip(times, times.dropFirst()).map { $1 - $0 }.sorted()
        let median = intervals[intervals.count / 2]
        guard intervals.first! > countRegularity * median, intervals.last! < median / countRegularity else { return nil }
        return 60 * gridRate * Double(times.count - 1) / (times.last! - times.first!)
    }
}
