import AudioCore
import Foundation
import LibraryCore

/// Writes `DemoLibrary` as real, tagged audio files: each song rendered in Swift, encoded
/// and tagged by ffmpeg (MP3 with ID3v2.4, FLAC, M4A, Ogg Vorbis), with a generated cover
/// image attached where the container carries pictures. Runs on Linux and macOS (ffmpeg).
public struct DemoLibraryWriter: Sendable {
    private let ffmpeg: FFmpegDecoder

    /// Locates ffmpeg as `FFmpegDecoder` does; throws `AudioError.decoderMissing`.
    public init() throws {
        ffmpeg = try FFmpegDecoder()
    }

    /// Writes every song under `root` (created if needed); existing files are kept unless
    /// `overwrite`. `progress` gets (done, total, relative path). Returns the paths written.
    /// Each file is encoded beside the others in a scratch folder and moved into place when
    /// whole, so a cancelled or interrupted write never leaves half a song behind; once
    /// `cancellation` is cancelled the running ffmpeg stops and this throws `CancellationError`.
    @discardableResult
    public func write(to root: URL, overwrite: Bool = false, cancellation: CancellationFlag? = nil,
                      progress: (Int, Int, String) -> Void = { _, _, _ in }) throws -> [String] {
        let fm = FileManager.default
        try fm.createDirectory(at: root, withIntermediateDirectories: true)
        let scratch = fm.temporaryDirectory.appendingPathComponent("quintet-demo-\(UUID().uuidString)")
        try fm.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: scratch) }
        var written: [String] = []
        for (index, song) in DemoLibrary.songs.enumerated() {
            let target = root.appendingPathComponent(song.relativePath)
            defer { progress(index + 1, DemoLibrary.songs.count, song.relativePath) }
            if fm.fileExists(atPath: target.path) && !overwrite { continue }
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            let wav = scratch.appendingPathComponent("song.wav")
            try WAVWriter.write(DemoLibrary.render(song), to: wav)
            var args = ["-y", "-i", wav.path]
            let carriesPictures = song.format != "ogg"
            if carriesPictures {
                let cover = try coverImage(for: song.album, in: scratch)
                args += ["-i", cover.path, "-map", "0:a", "-map", "1:v", "-c:v", song.format == "m4a" ? "copy" : "png",
                         "-disposition:v", "attached_pic"]
            }
            let encoded = scratch.appendingPathComponent("song." + target.pathExtension)
            args += codecArguments(song.format) + metadataArguments(song) + [encoded.path]
            try ffmpeg.run(args, cancellation: cancellation)
            if fm.fileExists(atPath: target.path) { try fm.removeItem(at: target) }
            try fm.moveItem(at: encoded, to: target)
            written.append(song.relativePath)
        }
        return written
    }

    private func codecArguments(_ format: String) -> [String] {
        switch format {
        case "mp3": ["-c:a", "libmp3lame", "-b:a", "160k", "-id3v2_version", "4"]
        case "flac": ["-c:a", "flac"]
        case "m4a": ["-c:a", "aac", "-b:a", "160k"]
        default: ["-c:a", "libvorbis", "-q:a", "5"]
        }
    }

    private func metadataArguments(_ song: DemoLibrary.Song) -> [String] {
        var tags: [(String, String)] = [
            ("title", song.title), ("artist", song.artist), ("album", song.album), ("album_artist", song.albumArtist),
            ("composer", song.composer), ("track", "\(song.track)/\(song.trackTotal)"), ("date", String(song.year)),
            ("genre", song.genre),
        ]
        // ID3 takes the frame name; Vorbis comments and MP4 take their own keys.
        switch song.format {
        case "mp3": tags.append(("TBPM", String(Int(song.bpm))))
        case "m4a": break
        default: tags.append(("BPM", String(Int(song.bpm))))
        }
        if song.compilation { tags.append(("compilation", "1")) }
        return tags.flatMap { ["-metadata", "\($0.0)=\($0.1)"] }
    }

    private func coverImage(for album: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("cover-\(abs(album.hashValue)).png")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let colour = DemoLibrary.coverColours[album] ?? "777777"
        try ffmpeg.run(["-y", "-f", "lavfi", "-i", "color=c=0x\(colour):s=300x300", "-frames:v", "1", url.path])
        return url
    }
}
