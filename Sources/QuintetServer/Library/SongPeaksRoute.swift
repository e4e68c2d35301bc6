import AudioCore
import Foundation
import Hummingbird
import LibraryCore
import NIOConcurrencyHelpers

/// `GET /api/library/songs/{id}/peaks?buckets=N`: a song's waveform peaks — the minimum and
/// maximum sample of each of N buckets (16…4000, default 800) over the whole song, decoded at
/// 8 kHz mono by ffmpeg (AudioCore's `WaveformPeaks(file:decoder:bucketCount:)`, the same
/// reduction as a radio episode's peaks). The studio's decks draw them, with a cursor.
///
/// Answers `{"buckets", "duration", "minima": [...], "maxima": [...]}` (duration in seconds of
/// the decoded audio). Decoding is CPU work: it goes through the server's `WorkLimiter`, and the
/// last answers (up to ``cacheSize``) are kept in memory, keyed by song, bucket count and the
/// file's size and modification time, so a deck loaded twice decodes once.
enum SongPeaksRoute {
    static let buckets = 16...4000
    static let cacheSize = 128

    struct Peaks: Encodable, Sendable {
        let buckets: Int
        let duration: Double
        let minima: [Float]
        let maxima: [Float]
    }

    final class Cache: Sendable {
        private let entries = NIOLockedValueBox([String: (peaks: Peaks, used: UInt64)]())
        private let clock = NIOLockedValueBox(UInt64(0))

        func get(_ key: String) -> Peaks? {
            let tick = clock.withLockedValue { $0 += 1; return $0 }
            return entries.withLockedValue { entries in
                guard var entry = entries[key] else { return nil }
                entry.used = tick
                entries[key] = entry
                return entry.peaks
            }
        }

        func put(_ key: String, _ peaks: Peaks) {
            let tick = clock.withLockedValue { $0 += 1; return $0 }
            entries.withLockedValue { entries in
                entries[key] = (peaks, tick)
                if entries.count > SongPeaksRoute.cacheSize,
                   let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key {
                    entries[oldest] = nil
                }
            }
        }
    }

    static func add(to api: RouterGroup<QuintetRequestContext>, catalog: Catalog, limiter: WorkLimiter,
                    decoder: any AudioDecoding = AudioFileDecoder()) {
        let cache = Cache()
        api.get("songs/:id/peaks") { request, context -> Response in
            _ = try context.requireUser()
            let id = try context.parameters.id()
            let count = try LibraryRoutes.int(request, "buckets", default: 800, range: buckets)
            let url = try await LibraryRoutes.catalogWork { try catalog.fileURL(of: try catalog.song(id: id)) }
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            let key = "\(id):\(count):\(size):\(modified)"
            if let peaks = cache.get(key) { return try APIJSON.response(peaks) }
            let flag = CancellationFlag()
            let peaks: Peaks
            do {
                peaks = try await withTaskCancellationHandler {
                    try await limiter.run {
                        let (reduced, seconds) = try WaveformPeaks.reading(file: url, decoder: decoder, bucketCount: count,
                                                                           cancellation: flag)
                        return Peaks(buckets: count, duration: seconds, minima: reduced.minima, maxima: reduced.maxima)
                    }
                } onCancel: { flag.cancel() }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw APIError(.unprocessableContent, code: "undecodable",
                               message: "the song's audio could not be decoded: \(error)")
            }
            cache.put(key, peaks)
            return try APIJSON.response(peaks)
        }
    }
}
