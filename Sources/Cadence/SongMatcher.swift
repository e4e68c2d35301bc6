import Foundation

/// A song the matcher may choose: an id (any string the caller understands) and its tempo.
public struct SongCandidate: Sendable, Equatable, Hashable {
    public var id: String
    /// Beats per minute; 0 or less means unknown (never chosen).
    public var bpm: Double

    public init(id: String, bpm: Double) { self.id = id; self.bpm = bpm }
}

/// The song chosen for a cadence.
public struct SongMatch: Sendable, Equatable {
    public var id: String
    /// The song's own tempo.
    public var bpm: Double
    /// The tempo it is heard at against the steps: `bpm`, twice it (half time) or half of it (double time).
    public var effectiveBPM: Double
    /// The step rate aimed at (the cadence, ×1.05 in sprint mode).
    public var target: Double
    /// |effectiveBPM / target − 1|.
    public var relativeDistance: Double
    /// True when nothing fitted (outside the tolerance, or outside the cadence's band) and
    /// this is the nearest song left: play it, but say it does not fit.
    public var isFallback: Bool
}

/// Why no song was chosen.
public enum NoMatchReason: String, Sendable, Equatable {
    /// No candidates at all.
    case emptyLibrary = "the library is empty"
    /// No candidate has a known tempo.
    case noTempo = "no song has a known tempo"
    /// Every song with a tempo has been played in this session.
    case allPlayed = "every song with a tempo has been played in this session"
}

/// The matcher's answer.
public enum SongPick: Sendable, Equatable {
    case song(SongMatch)
    case none(NoMatchReason)

    public var match: SongMatch? { if case .song(let m) = self { m } else { nil } }
}

/// Chooses the song whose tempo fits a cadence: one beat per step, with half- and double-time
/// songs counted at twice and half their tempo (an 85 BPM song fits 170 spm).
///
/// - `nearest` (default): the song whose tempo is nearest the target as a ratio, if within
///   `tolerance` (±4 %); otherwise the nearest anyway, flagged `isFallback`.
/// - `ranges`: the original app's 20-BPM bands, [0, 20), [20, 40) … [160, 180), [180, 200) …
///   (the thesis leaves the edges open; multiples of 20 are Quintet's reading). A song fits
///   when its tempo, halved or doubled, falls in the target's band; among those the nearest
///   wins; an empty band falls back to the nearest song, flagged.
///
/// Songs whose ids are in `played` are never chosen again (no repeats within a session);
/// ties go to the lower tempo distance, then the smaller id, so a pick is reproducible.
///
/// ```swift
/// let pick = SongMatcher().pick(cadence: 170, from: [SongCandidate(id: "a", bpm: 85)])
/// pick.match?.effectiveBPM   // 170
/// ```
public struct SongMatcher: Sendable {
    public enum Mode: String, Sendable, CaseIterable { case nearest, ranges }

    public var mode: Mode
    /// Largest relative tempo distance that counts as a fit in `nearest` mode.
    public var tolerance: Double
    /// Target = cadence × this in sprint mode.
    public var sprintFactor = 1.05
    /// Band width of `ranges` mode, BPM.
    public static let bandWidth = 20.0

    public init(mode: Mode = .nearest, tolerance: Double = 0.04) {
        self.mode = mode; self.tolerance = tolerance
    }

    /// The band [lower, lower + 20) holding `bpm`.
    public static func band(of bpm: Double) -> Range<Double> {
        let lower = (bpm / bandWidth).rounded(.down) * bandWidth
        return lower..<(lower + bandWidth)
    }

    /// The best song for `cadence` (steps per minute) among `candidates`, skipping `played` ids.
    public func pick(cadence: Double, sprint: Bool = false, from candidates: [SongCandidate],
                     played: Set<String> = []) -> SongPick {
        guard !candidates.isEmpty else { return .none(.emptyLibrary) }
        let known = candidates.filter { $0.bpm > 0 && $0.bpm.isFinite }
        guard !known.isEmpty else { return .none(.noTempo) }
        let fresh = known.filter { !played.contains($0.id) }
        guard !fresh.isEmpty else { return .none(.allPlayed) }
        let target = sprint ? cadence * sprintFactor : cadence
        let scored = fresh.map { song -> SongMatch in
            let effective = [song.bpm, song.bpm * 2, song.bpm / 2].min { abs(log($0 / target)) < abs(log($1 / target)) }!
            return SongMatch(id: song.id, bpm: song.bpm, effectiveBPM: effective, target: target,
                             relativeDistance: abs(effective / target - 1), isFallback: false)
        }.sorted { ($0.relativeDistance, $0.id) < ($1.relativeDistance, $1.id) }
        var best = scored[0]
        switch mode {
        case .nearest:
            best.isFallback = best.relativeDistance > tolerance + 1e-12
        case .ranges:
            let band = Self.band(of: target)
            let inBand = fresh.compactMap { song -> SongMatch? in
                guard let effective = [song.bpm, song.bpm * 2, song.bpm / 2].filter(band.contains)
                    .min(by: { abs($0 - target) < abs($1 - target) }) else { return nil }
                return SongMatch(id: song.id, bpm: song.bpm, effectiveBPM: effective, target: target,
                                 relativeDistance: abs(effective / target - 1), isFallback: false)
            }.sorted { ($0.relativeDistance, $0.id) < ($1.relativeDistance, $1.id) }
            if let first = inBand.first { best = first } else { best.isFallback = true }
        }
        return .song(best)
    }
}
