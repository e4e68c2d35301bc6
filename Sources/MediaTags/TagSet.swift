import Foundation

/// The tags of one audio file, in one shape whatever the container (ID3, Vorbis comments,
/// MP4 atoms, RIFF INFO). Multi-valued fields keep every value in file order; empty
/// strings are dropped. Text is as the file stores it (no case or Unicode normalisation:
/// the catalog normalises for comparison).
public struct TagSet: Sendable, Equatable, Codable {
    public var title: String?
    /// Track artists: TPE1's values (NUL-separated in ID3v2.4; never split on "/", which
    /// would break "AC/DC"), repeated Vorbis ARTIST comments, MP4 ©ART.
    public var artists: [String] = []
    public var album: String?
    /// Album artists (TPE2, ALBUMARTIST, aART).
    public var albumArtists: [String] = []
    /// Composers (TCOM, COMPOSER, ©wrt).
    public var composers: [String] = []
    /// Genres, with ID3 references such as "(17)" resolved to their names ("Rock").
    public var genres: [String] = []
    public var trackNumber: Int?
    public var trackTotal: Int?
    public var discNumber: Int?
    public var discTotal: Int?
    /// The recording date as written (e.g. "1997", "1997-05-12").
    public var date: String?
    /// The year from `date` (or TYER), if it has one.
    public var year: Int?
    /// Beats per minute from the tag (TBPM, BPM, tmpo); nil if absent or not a positive number.
    public var bpm: Double?
    /// Whether the file says it belongs to a compilation (TCMP, COMPILATION, cpil).
    public var compilation: Bool = false
    public var comment: String?
    /// Every other text field by upper-cased key: TXXX descriptions, Vorbis comment names,
    /// MP4 freeform `----` names ("MUSICBRAINZ_TRACKID", "REPLAYGAIN_TRACK_GAIN", …).
    public var custom: [String: [String]] = [:]
    /// Embedded pictures (APIC/PIC, FLAC PICTURE, METADATA_BLOCK_PICTURE, covr).
    public var pictures: [Picture] = []
    /// People credited with a role, in file order: ID3v2.4 `TMCL` (musicians) and `TIPL`
    /// (involved people), ID3v2.3 `IPLS` and v2.2 `IPL` (role/name pairs), Vorbis `PERFORMER`
    /// and MP4 freeform `PERFORMER` written `Name (role)` (the form MusicBrainz Picard writes;
    /// a value without a final parenthesis has the role ""). Production roles (TIPL's
    /// "producer", "engineer", …) are kept as written: deciding who is a musician is the
    /// catalog's business.
    public var credits: [Credit] = []

    public init() {}

    /// A person (or group) credited on the recording, and the role as the file writes it
    /// ("guitar", "lead vocals", "producer"; "" when none is given).
    public struct Credit: Sendable, Equatable, Codable {
        public var name: String
        public var role: String

        public init(name: String, role: String) {
            self.name = name
            self.role = role
        }

        /// A `Name (role)` value (Vorbis `PERFORMER`): the role is the text inside the last,
        /// balanced parenthesis group ending the value ("Ann (drums (drum set))" → "drums (drum
        /// set)"); without one, or with nothing before it, the whole value is the name. Nil
        /// for an empty value.
        public init?(performer value: String) {
            let text = value.trimmingSpaces()
            guard !text.isEmpty else { return nil }
            var name = text, role = ""
            if text.hasSuffix(")") {
                var depth = 0
                var index = text.endIndex
                while index > text.startIndex {
                    index = text.index(before: index)
                    if text[index] == ")" { depth += 1 }
                    if text[index] == "(" {
                        depth -= 1
                        if depth == 0 { break }
                    }
                }
                let before = text[..<index].trimmingSpaces()
                if depth == 0, text[index] == "(", !before.isEmpty {
                    name = before
                    role = String(text[text.index(after: index)..<text.index(before: text.endIndex)]).trimmingSpaces()
                }
            }
            self.init(name: name, role: role)
        }
    }

    /// MusicBrainz artist ids of the track artists, in credit order: Vorbis
    /// `MUSICBRAINZ_ARTISTID`, ID3 `TXXX:MusicBrainz Artist Id`, MP4
    /// `----:com.apple.iTunes:MusicBrainz Artist Id`. Values joined by "/" or ";" (Picard's
    /// ID3v2.3 multi-value form) are split; only well-formed ids (36 characters, hex and
    /// dashes, lower-cased) are kept.
    public var musicBrainzArtistIDs: [String] {
        Self.musicBrainzIDs(custom["MUSICBRAINZ_ARTISTID"] ?? custom["MUSICBRAINZ ARTIST ID"] ?? [])
    }

    /// MusicBrainz artist ids of the album artists (`MUSICBRAINZ_ALBUMARTISTID`,
    /// `MusicBrainz Album Artist Id`), as ``musicBrainzArtistIDs``.
    public var musicBrainzAlbumArtistIDs: [String] {
        Self.musicBrainzIDs(custom["MUSICBRAINZ_ALBUMARTISTID"] ?? custom["MUSICBRAINZ ALBUM ARTIST ID"] ?? [])
    }

    /// The well-formed MusicBrainz ids (UUIDs) in `values`, lower-cased, in order.
    public static func musicBrainzIDs(_ values: [String]) -> [String] {
        var out: [String] = []
        for value in values {
            for token in value.split(whereSeparator: { !($0.isHexDigit || $0 == "-") }) where token.count == 36 {
                let dashes = token.indices.filter { token[$0] == "-" }.map { token.distance(from: token.startIndex, to: $0) }
                if dashes == [8, 13, 18, 23] { out.append(token.lowercased()) }
            }
        }
        return out
    }

    /// An embedded image.
    public struct Picture: Sendable, Equatable, Codable {
        /// The ID3/FLAC picture type (3 = front cover, 0 = other).
        public var type: Int
        /// "image/jpeg", "image/png", …; guessed from the bytes when the file does not say.
        public var mimeType: String
        public var description: String
        public var data: Data

        public init(type: Int, mimeType: String, description: String, data: Data) {
            self.type = type
            self.mimeType = mimeType
            self.description = description
            self.data = data
        }
    }

    /// The front cover if there is one, else the first picture.
    public var cover: Picture? { pictures.first { $0.type == 3 } ?? pictures.first }
}

/// What the audio stream itself says: codec, duration and format.
public struct StreamInfo: Sendable, Equatable, Codable {
    /// "mp3", "flac", "aac", "alac", "vorbis", "opus", "pcm", "float" (WAV; rarer WAV
    /// encodings: "alaw", "mulaw", "mp3", "wav-0x…"), or "unknown" (an MP4 with no audio track).
    public var codec: String
    /// Seconds; nil when the file gives no way to know.
    public var duration: Double?
    /// Average bits per second of the audio stream.
    public var bitrate: Int?
    public var sampleRate: Int?
    public var channels: Int?
    public var bitsPerSample: Int?

    public init(codec: String, duration: Double? = nil, bitrate: Int? = nil, sampleRate: Int? = nil,
                channels: Int? = nil, bitsPerSample: Int? = nil) {
        self.codec = codec
        self.duration = duration
        self.bitrate = bitrate
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
    }
}

/// Containers MediaTags reads.
public enum MediaFormat: String, Sendable, Codable, CaseIterable {
    case mp3, flac, mp4, ogg, wav
}

/// A file's container, tags and stream.
public struct MediaInfo: Sendable, Equatable, Codable {
    public var format: MediaFormat
    public var tags: TagSet
    public var stream: StreamInfo

    public init(format: MediaFormat, tags: TagSet, stream: StreamInfo) {
        self.format = format
        self.tags = tags
        self.stream = stream
    }
}

/// Why a file's tags could not be read. Messages say what is wrong and where.
public enum MediaTagsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No supported container signature.
    case unrecognized(String)
    /// The container is recognised but a structure is inconsistent (a length past the end, …).
    case malformed(String)
    /// The file could not be read.
    case io(String)

    public var description: String {
        switch self {
        case .unrecognized(let m): "not a supported audio file: \(m)"
        case .malformed(let m): "malformed file: \(m)"
        case .io(let m): "cannot read file: \(m)"
        }
    }
}
