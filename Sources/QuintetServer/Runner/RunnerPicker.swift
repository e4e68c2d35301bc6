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
                "every song with a BPM has been played (excluded) already"
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

    /// The best song for `cadence`, never one of `exclude` (song ids).
    public func pick(cadence: Double, mode: SongMatcher.Mode = .nearest, sprint: Bool = false,
                     exclude: Set<Int64> = []) throws -> Pick {
        guard cadence.isFinite, Self.cadenceRange.contains(cadence) else { throw Failure.cadenceOutOfRange(cadence) }
        let songs = try catalog.songs(where: "s.bpm IS NOT NULL AND s.bpm > 0", userID: nil)
        if songs.isEmpty {
            throw Failure.noSong(try catalog.counts().songs == 0 ? .emptyLibrary : .noTempo)
        }
        let byID = Dictionary(songs.map { (String($0.id), $0) }, uniquingKeysWith: { a, _ in a })
        let matcher = SongMatcher(mode: mode)
        let candidates = songs.map { SongCandidate(id: String($0.id), bpm: $0.bpm ?? 0) }
        switch matcher.pick(cadence: cadence, sprint: sprint, from: candidates, played: Set(exclude.map(String.init))) {
        case .none(let reason):
            throw Failure.noSong(reason)
        case .song(let match):
            let reason = Self.fallbackReason(match, matcher: matcher)
            return Pick(song: byID[match.id]!, match: match, reason: reason)
        }
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
