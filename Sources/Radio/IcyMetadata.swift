import Foundation

/// A stream title as it goes out in ICY metadata: the bytes on the wire and the text for status
/// pages.
///
/// Icecast 2.4.4's observed charset handling of `/admin/metadata?song=` (PROTOCOL.md §2.3):
/// - no `charset` parameter: the bytes pass through unchanged (UTF-8 stays UTF-8);
/// - `charset=UTF-8`: the text is re-encoded to ISO-8859-1 (characters outside Latin-1 become
///   `?`, our choice; invalid UTF-8 is decoded with U+FFFD first, so also `?`);
/// - `charset=ISO-8859-1` (or `latin1`): the bytes pass through unchanged.
/// Any other charset is passed through unchanged (not observed on icecast).
public struct IcyTitle: Sendable, Hashable {
    /// The title's bytes as sent inside `StreamTitle='…';`.
    public let bytes: [UInt8]
    /// The title as text (UTF-8 when the bytes are valid UTF-8, else read as ISO-8859-1).
    public let text: String

    /// The empty title, sent as `StreamTitle='';` before any title is set.
    public static let empty = IcyTitle(bytes: [], text: "")

    private init(bytes: [UInt8], text: String) {
        self.bytes = bytes
        self.text = text
    }

    /// A title whose text goes out as UTF-8 (what an update without `charset` gives).
    public init(_ text: String) {
        self.init(bytes: Array(text.utf8), text: text)
    }

    /// The title of a metadata update: the percent-decoded bytes of `song` and the request's
    /// `charset` parameter, if any.
    public init(song: [UInt8], charset: String?) {
        let name = charset?.lowercased().trimmingCharacters(in: .whitespaces)
        switch name {
        case "utf-8", "utf8":
            let text = String(decoding: song, as: UTF8.self)
            self.init(bytes: text.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : 0x3F }, text: text)
        default:
            self.init(bytes: song, text: Self.text(of: song, latin1: name == "iso-8859-1" || name == "latin1"))
        }
    }

    private static func text(of bytes: [UInt8], latin1: Bool) -> String {
        if !latin1, let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}

/// ICY metadata blocks, the SHOUTcast/Icecast in-band title format (PROTOCOL.md §2.3).
///
/// A block is one length byte L, then L×16 bytes: `StreamTitle='<title>';` followed by at least
/// one NUL and NUL padding to the next multiple of 16 (so `StreamTitle='';` gives L=1, as
/// icecast sends). Quotes inside the title are not escaped, as icecast. L=0 (a single zero
/// byte) means "no change".
public enum IcyMetadata {
    /// The longest block body: 255 × 16 bytes.
    public static let maxBodyLength = 255 * 16
    /// The longest title that fits: the body minus `StreamTitle='` , `';` and one NUL.
    public static let maxTitleLength = maxBodyLength - 16
    /// The "no change" block.
    public static let emptyBlock: [UInt8] = [0]

    /// The block carrying `title`, truncated to ``maxTitleLength`` bytes (on a UTF-8 character
    /// boundary when the title is UTF-8).
    public static func block(for title: IcyTitle) -> [UInt8] {
        var titleBytes = title.bytes
        if titleBytes.count > maxTitleLength {
            var cut = maxTitleLength
            if String(validating: titleBytes, as: UTF8.self) != nil {
                while cut > 0, titleBytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            }
            titleBytes = Array(titleBytes[..<cut])
        }
        let content = Array("StreamTitle='".utf8) + titleBytes + Array("';".utf8)
        let units = (content.count + 1 + 15) / 16
        var block = [UInt8(units)]
        block += content
        block += [UInt8](repeating: 0, count: units * 16 - content.count)
        return block
    }
}

/// The titles of one mount attached to stream positions: a title set at absolute byte offset X
/// applies to the audio from X on. A listener that joins with a burst therefore first gets the
/// title of the replayed burst position, as icecast does (PROTOCOL.md §2.3).
///
/// Owned by the mount's isolation domain, like ``StreamBuffer``; each entry keeps its encoded
/// block so thousands of listeners share one array.
public struct IcyTitleHistory: Sendable {
    /// One title and where it starts.
    public struct Entry: Sendable {
        /// Absolute stream offset from which the title applies.
        public let offset: Int64
        /// The title.
        public let title: IcyTitle
        /// Its encoded metadata block.
        public let block: [UInt8]
    }

    /// The entries, by increasing offset; never empty (the first is the empty title at 0 unless
    /// pruned).
    public private(set) var entries: [Entry]

    /// A history whose only title is `initial` from offset 0.
    public init(initial: IcyTitle = .empty) {
        entries = [Entry(offset: 0, title: initial, block: IcyMetadata.block(for: initial))]
    }

    /// The newest title.
    public var current: IcyTitle { entries[entries.count - 1].title }

    /// Sets `title` for the audio from `offset` on (normally the mount's current end offset).
    /// An offset before the newest entry's is moved up to it; a title at the same offset
    /// replaces the previous one.
    public mutating func set(_ title: IcyTitle, at offset: Int64) {
        let at = max(offset, entries[entries.count - 1].offset)
        if entries[entries.count - 1].offset == at { entries.removeLast() }
        entries.append(Entry(offset: at, title: title, block: IcyMetadata.block(for: title)))
    }

    /// The entry in force at `offset`: the last one starting at or before it (the first entry
    /// for earlier offsets).
    public func entry(at offset: Int64) -> Entry {
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].offset <= offset { low = mid + 1 } else { high = mid }
        }
        return entries[max(0, low - 1)]
    }

    /// Forgets titles that no longer apply to any offset at or after `offset` (call it with the
    /// buffer's start offset).
    public mutating func prune(before offset: Int64) {
        while entries.count > 1, entries[1].offset <= offset { entries.removeFirst() }
    }
}

/// What an ICY listener's connection carries: audio bytes (an absolute range of the mount's
/// stream) or a metadata block.
public enum IcyPiece: Sendable, Hashable {
    /// Audio bytes of the mount's stream, by absolute offsets.
    case audio(Range<Int64>)
    /// A metadata block (length byte and body).
    case metadata([UInt8])
}

/// One ICY listener's interleaving state: after every `metaint` audio bytes it inserts a
/// metadata block. The first block carries the title in force (never L=0, possibly
/// `StreamTitle='';`); later blocks are L=0 unless the title in force differs from the last
/// one sent to this listener, which is then sent once (PROTOCOL.md §2.3). The title of a block
/// is the one in force at the audio byte that follows it.
///
/// ```swift
/// var icy = IcyInterleaver(startingAt: buffer.burstStart())
/// for piece in icy.advance(to: buffer.endOffset, titles: history) { send(piece) }
/// ```
public struct IcyInterleaver: Sendable {
    /// Audio bytes between metadata blocks (icecast: 16,000).
    public let metaint: Int
    /// Absolute offset of the next audio byte this listener gets.
    public private(set) var position: Int64
    /// Audio bytes left before the next block.
    public private(set) var bytesUntilBlock: Int
    private var lastSent: [UInt8]?

    /// A listener that starts at absolute offset `offset` with `metaint` audio bytes per block.
    public init(metaint: Int = 16000, startingAt offset: Int64) {
        precondition(metaint > 0, "metaint must be positive")
        self.metaint = metaint
        position = offset
        bytesUntilBlock = metaint
    }

    /// The same listener carried over to another stream (a show's fallback mount) at absolute
    /// offset `offset` of that stream: the block rhythm goes on where it was (``bytesUntilBlock``
    /// kept, so the client's metaint count stays right) and the next block carries the title in
    /// force there, even if its text equals the last one sent.
    public func continuing(at offset: Int64) -> IcyInterleaver {
        var next = IcyInterleaver(metaint: metaint, startingAt: offset)
        next.bytesUntilBlock = bytesUntilBlock
        return next
    }

    /// The pieces to send for the audio from ``position`` up to `end` (exclusive), blocks
    /// included; afterwards ``position`` is `end`.
    public mutating func advance(to end: Int64, titles: IcyTitleHistory) -> [IcyPiece] {
        var pieces: [IcyPiece] = []
        while position < end {
            let n = Int(min(Int64(bytesUntilBlock), end - position))
            pieces.append(.audio(position..<position + Int64(n)))
            position += Int64(n)
            bytesUntilBlock -= n
            if bytesUntilBlock == 0 {
                pieces.append(.metadata(nextBlock(titles: titles)))
                bytesUntilBlock = metaint
            }
        }
        return pieces
    }

    private mutating func nextBlock(titles: IcyTitleHistory) -> [UInt8] {
        let entry = titles.entry(at: position)
        if lastSent == entry.title.bytes { return IcyMetadata.emptyBlock }
        lastSent = entry.title.bytes
        return entry.block
    }
}
