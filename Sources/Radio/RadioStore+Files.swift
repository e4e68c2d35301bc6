import AudioCore
import Foundation
import GRDB
import MediaTags
import QuintetStore
import WireFormats

/// Recordings as files: importing one as an episode, measuring a file's exact duration and size,
/// and its waveform peaks (split from RadioStore.swift, which keeps shows and episodes' rows).
extension RadioStore {
    /// Imports an existing recording (MP3 or ADTS AAC) as a finished episode of show `showID`:
    /// the file is copied to the episode's place, measured and (by the show's rule, or
    /// `publish` when given) published. The start time is the file's modification time
    /// minus its duration.
    public func importEpisode(showID: Int64, file source: URL, title: String? = nil, description: String = "",
                              publish: Bool? = nil, computePeaks: Bool = true) throws -> RadioEpisode {
        let contentType = source.pathExtension.lowercased() == "aac" ? "audio/aac" : "audio/mpeg"
        let summary = try Self.summarize(fileAt: source, contentType: contentType)
        let modified = (try? source.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? Date()
        let start = modified.addingTimeInterval(-summary.duration)
        if let owner = try show(id: showID)?.ownerID {
            // PlanLimitError when longer than the plan's longest episode or past its storage.
            try RadioPlans(database: database).checkNewEpisode(ownerID: owner, seconds: summary.duration, bytes: summary.size)
        }
        let episode = try newEpisode(showID: showID, title: title ?? source.deletingPathExtension().lastPathComponent,
                                     description: description, contentType: contentType, state: .live, start: start)
        do {
            try FileManager.default.copyItem(at: source, to: fileURL(of: episode))
            var done = try finalise(episode, endedAt: modified, computePeaks: computePeaks)
            if publish == true, done.state != .published, let owner = try show(id: showID)?.ownerID {
                try RadioPlans(database: database).checkPublish(ownerID: owner)
            }
            if let publish, publish != (done.state == .published) {
                try database.pool.write { db in
                    done.state = publish ? .published : .recorded
                    done.publishedAt = publish ? modified : nil
                    try done.update(db)
                }
            }
            return done
        } catch {
            try? purgeEpisode(id: episode.id!)
            throw error
        }
    }

    // MARK: files

    /// A file's exact audio duration (the frame scanner's count of samples, the Xing/Info frame,
    /// a leading ID3v2 tag and a cut-off last frame excluded, as ``AudioStreamSummary``) and its
    /// size, read in pieces so long recordings never sit in memory whole.
    /// Throws ``RadioStoreError/badAudio(_:)`` when the file cannot be read or has no frame.
    public static func summarize(fileAt url: URL, contentType: String) throws -> (duration: Double, size: Int64) {
        var framing = AudioFraming(contentType: contentType)
        if framing == .none { framing = .mpegAudio }
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw RadioStoreError.badAudio("cannot read \(url.path)")
        }
        defer { try? handle.close() }
        let chunkSize = 1 << 20
        var head = [UInt8]((try? handle.read(upToCount: chunkSize)) ?? Data())
        var size = Int64(head.count)
        var tag = 0
        if framing == .mpegAudio, head.count >= 10 {
            tag = ID3v2.Header(head)?.totalSize ?? 0  // declared, not clamped to the bytes at hand
            if tag > head.count {
                // A tag longer than the first read (a big cover): audio starts after it.
                guard (try? handle.seek(toOffset: UInt64(tag))) != nil else {
                    throw RadioStoreError.badAudio("cannot read \(url.path)")
                }
                head = [UInt8]((try? handle.read(upToCount: chunkSize)) ?? Data())
                size = Int64(tag) + Int64(head.count)
            } else {
                head = Array(head[tag...])
            }
        }
        // `head` now starts at file offset `tag`; frame offsets are relative to it.
        var scanner = AudioFrameScanner(framing: framing)
        var seconds = 0.0
        var frames = 0
        var first: AudioFrame?
        var last: AudioFrame?
        var xingChecked = framing != .mpegAudio
        var xingSeconds = 0.0
        func take(_ found: [AudioFrame], window: [UInt8]) {
            for frame in found {
                if first == nil { first = frame }
                seconds += Double(frame.samples) / Double(frame.sampleRate)
                frames += 1
                last = frame
            }
            if !xingChecked, let f = first, Int(f.offset) + f.length <= window.count {
                xingChecked = true
                if AudioStreamSummary.isXingFrame(window, at: Int(f.offset)) {
                    xingSeconds = Double(f.samples) / Double(f.sampleRate)
                }
            }
        }
        take(scanner.append(head), window: head)
        let firstWindow = head
        head = []
        while let data = try? handle.read(upToCount: chunkSize), !data.isEmpty {
            size += Int64(data.count)
            take(scanner.append(data), window: firstWindow)
        }
        take(scanner.finish(), window: firstWindow)
        if let l = last, Int64(tag) + l.offset + Int64(l.length) > size {
            seconds -= Double(l.samples) / Double(l.sampleRate)  // cut short by the crash
            frames -= 1
        }
        if xingSeconds > 0 { seconds -= xingSeconds; frames -= 1 }
        guard frames > 0 else { throw RadioStoreError.badAudio("no audio frames in \(url.lastPathComponent)") }
        return (seconds, size)
    }

    /// Waveform peaks (``waveformBuckets`` buckets, AudioCore's `WaveformPeaks`) of an audio
    /// file decoded at 8 kHz mono by the store's decoder, as JSON; nil without a decoder or when
    /// it fails. Memory stays small: the file is decoded in pieces, and each run of 32 samples is
    /// reduced to its minimum and maximum first.
    public func waveformJSON(of url: URL) -> String? {
        guard let decoder,
              let peaks = try? WaveformPeaks(file: url, decoder: decoder, bucketCount: Self.waveformBuckets),
              let json = try? JSONEncoder().encode(peaks) else { return nil }
        return String(decoding: json, as: UTF8.self)
    }
}
