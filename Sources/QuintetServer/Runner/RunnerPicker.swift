import Cadence
import Foundation
import LibraryCore

/// The song of the library that fits a cadence: the catalog's songs with a BPM, through
/// `SongMatcher`. Shared by `GET /api/runner/next` and `quintet runner pick`.
public struct RunnerPicker: Sendable {
    /// The cadences accepted, steps per minute.
    public static let cadenceRange: ClosedRange<Double> = 30...300

    public struct Pick: Sendable {
        public var song: CatalogSong
        public var match: SongMatch
        /// Why the song does not fit, when it is a fallback.
        public var reason: String?
    }

    public enum Failure: Error, CustomStringConvertible, Sendable, Equatable {
        case cadenceOutOfRange(Double)
        case noSong(NoMatchReason)

        public var description: String {
            switch self {
            case .cadenceOutOfRange(let c):
                "the cadence must be from \(Int(cadenceRange.lowerBound)) to \(Int(cadenceRange.upperBound)) steps per minute, not \(c)"
            case .noSong(.emptyLibrary):
                "the library has no songs: scan a music folder first (quintet scan DIR)"
            case .noSong(.noTempo):
                "no song of the library has a BPM: analyse them first (quintet scan --bpm DIR)"
            case .noSong(.allPlayed):
                "every song with a BPM has been played (excluded) already or is on the never-while-running list"
            }
        }

        /// A stable machine-readable code.
        public var code: String {
            switch self {
            case .cadenceOutOfRange: "invalid_input"
            case .noSong(.emptyLibrary): "empty_library"
            case .noSong(.noTempo): "no_tempo"
            case .noSong(.allPlayed): "all_played"
            }
        }
    }

    public var catalog: Catalog

    public init(catalog: Catalog) { self.catalog = catalog }

    /// The best song for `cadence` (by each song's effective BPM), never one of `exclude` (song
    /// ids) nor one of `userID`'s "never while running" list.
    public func pick(cadence: Double, mode: SongMatcher.Mode = .nearest, sprint: Bool = false,
                     exclude: Set<Int64> = [], userID: Int64? = nil) throws -> Pick {
        guard cadence.isFinite, Self.cadenceRange.contains(cadence) else { throw Failure.cadenceOutOfRange(cadence) }
        let matcher = SongMatcher(mode: mode)
        let candidates = Self.candidates(try catalog.songTempos())
        let never = try userID.map { try catalog.neverWhileRunning(userID: $0) } ?? []
        switch matcher.pick(cadence: cadence, sprint: sprint, from: candidates, played: Set(exclude.union(never).map(String.init))) {
        case .none(let reason):
            throw Failure.noSong(try Self.reason(reason, librarySongs: catalog.counts().songs))
        case .song(let match):
            let reason = Self.fallbackReason(match, matcher: matcher)
            return Pick(song: try catalog.song(id: Int64(match.id)!), match: match, reason: reason)
        }
    }

    /// The matcher's candidates: the library's songs with a known tempo, by catalog id.
    static func candidates(_ tempos: [(id: Int64, bpm: Double)]) -> [SongCandidate] {
        tempos.filter { $0.bpm > 0 && $0.bpm.isFinite }.map { SongCandidate(id: String($0.id), bpm: $0.bpm) }
    }

    /// The matcher says "empty library" when it has no candidates; a library that has songs
    /// but none with a BPM yet is "no tempo". `librarySongs` is read only in that case.
    static func reason(_ why: NoMatchReason, librarySongs: @autoclosure () throws -> Int) rethrows -> NoMatchReason {
        try why == .emptyLibrary && librarySongs() > 0 ? .noTempo : why
    }

    /// Why a fallback song does not fit (nil for a song that fits).
    public static func fallbackReason(_ match: SongMatch, matcher: SongMatcher) -> String? {
        guard match.isFallback else { return nil }
        let target = String(format: "%.1f", match.target)
        let away = String(format: "the nearest is %.1f %% away", match.relativeDistance * 100)
        switch matcher.mode {
        case .nearest:
            return "no song within ±\(Int((matcher.tolerance * 100).rounded())) % of \(target) BPM; " + away
        case .ranges:
            let band = SongMatcher.band(of: match.target)
            return "no song in the \(Int(band.lowerBound))–\(Int(band.upperBound)) BPM band of \(target) BPM; " + away
        }
    }
}
