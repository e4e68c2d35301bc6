import Foundation

/// Decoding of ID3v2 text fields: encoding byte 0 ISO-8859-1, 1 UTF-16 with a byte-order
/// mark, 2 UTF-16BE, 3 UTF-8 (ID3v2.4.0 Main Structure §4). Unknown encoding bytes are read
/// as ISO-8859-1; UTF-16 without a BOM is read as little-endian; an odd trailing byte is dropped.
enum ID3Text {
    /// Bytes per NUL terminator for `encoding` (2 for UTF-16, else 1).
    static func terminatorWidth(_ encoding: UInt8) -> Int { encoding == 1 || encoding == 2 ? 2 : 1 }

    /// Splits `bytes` at the first terminator: (text before it, bytes after it). With no
    /// terminator the whole input is the text and the rest is empty.
    static func splitTerminated(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
        let width = terminatorWidth(encoding)
        var i = bytes.startIndex
        while i + width <= bytes.endIndex {
            if width == 1 ? bytes[i] == 0 : (bytes[i] == 0 && bytes[i + 1] == 0) {
                return (bytes[bytes.startIndex..<i], bytes[(i + width)...])
            }
            i += width
        }
        return (bytes, bytes[bytes.endIndex...])
    }

    /// Every NUL-separated value in `bytes`, empty ones dropped (ID3v2.4 multiple values).
    static func values(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> [String] {
        var result: [String] = []
        var rest = bytes
        var bigEndian = encoding == 2
        while !rest.isEmpty {
            let (head, tail) = splitTerminated(rest, encoding: encoding)
            let text = decode(head, encoding: encoding, bigEndian: &bigEndian)
            if !text.isEmpty { result.append(text) }
            rest = tail
        }
        return result
    }

    /// Every NUL-separated string in `bytes`, empty ones kept (role/name pairs may have an
    /// empty role); the empty string after a final terminator is not a value.
    static func allValues(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> [String] {
        var result: [String] = []
        var rest = bytes
        var bigEndian = encoding == 2
        while !rest.isEmpty {
            let (head, tail) = splitTerminated(rest, encoding: encoding)
            result.append(decode(head, encoding: encoding, bigEndian: &bigEndian))
            rest = tail
        }
        return result
    }

    /// The text of `bytes` up to its first terminator.
    static func string(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> String {
        var bigEndian = encoding == 2
        return decode(splitTerminated(bytes, encoding: encoding).0, encoding: encoding, bigEndian: &bigEndian)
    }

    /// ISO-8859-1 bytes as a string (each byte is the Unicode scalar of the same value).
    static func latin1(_ bytes: some Collection<UInt8>) -> String {
        // ASCII is the same in UTF-8; other bytes become their two-byte UTF-8 form.
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            if byte < 0x80 {
                utf8.append(byte)
            } else {
                utf8.append(0xC0 | byte >> 6)
                utf8.append(0x80 | byte & 0x3F)
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// UTF-16 code units as a string, transcoded to UTF-8 here (the standard library's
    /// UTF-16 path is several times slower); a lone surrogate becomes U+FFFD, as
    /// `String(decoding:as: UTF16.self)` makes it.
    static func utf16(_ units: [UInt16]) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(units.count * 3)
        var i = 0
        while i < units.count {
            let unit = units[i]
            i += 1
            var scalar = UInt32(unit)
            if unit >= 0xD800 && unit < 0xE000 {
                if unit < 0xDC00, i < units.count, units[i] >= 0xDC00 && units[i] < 0xE000 {
                    scalar = 0x10000 + (UInt32(unit - 0xD800) << 10 | UInt32(units[i] - 0xDC00))
                    i += 1
                } else {
                    scalar = 0xFFFD
                }
            }
            switch scalar {
            case ..<0x80:
                utf8.append(UInt8(scalar))
            case ..<0x800:
                utf8.append(UInt8(0xC0 | scalar >> 6))
                utf8.append(UInt8(0x80 | scalar & 0x3F))
            case ..<0x10000:
                utf8.append(UInt8(0xE0 | scalar >> 12))
                utf8.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                utf8.append(UInt8(0x80 | scalar & 0x3F))
            default:
                utf8.append(UInt8(0xF0 | scalar >> 18))
                utf8.append(UInt8(0x80 | scalar >> 12 & 0x3F))
                utf8.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                utf8.append(UInt8(0x80 | scalar & 0x3F))
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Decodes one value; `bigEndian` carries a UTF-16 BOM's byte order to the next value.
    private static func decode(_ bytes: ArraySlice<UInt8>, encoding: UInt8, bigEndian: inout Bool) -> String {
        switch encoding {
        case 1, 2:
            var body = bytes
            if encoding == 1, body.count >= 2 {
                let b0 = body[body.startIndex], b1 = body[body.startIndex + 1]
                if b0 == 0xFF && b1 == 0xFE { bigEndian = false; body = body.dropFirst(2) }
                else if b0 == 0xFE && b1 == 0xFF { bigEndian = true; body = body.dropFirst(2) }
            }
            var units: [UInt16] = []
            units.reserveCapacity(body.count / 2)
            var i = body.startIndex
            while i + 1 < body.endIndex {
                let a = UInt16(body[i]), b = UInt16(body[i + 1])
                units.append(bigEndian ? (a << 8 | b) : (b << 8 | a))
                i += 2
            }
            return utf16(units)
        case 3:
            return String(decoding: bytes, as: UTF8.self)
        default:
            return latin1(bytes)
        }
    }
}

/// Collects decoded ID3v2 frames into a `TagSet` (frame semantics from ID3v2.3.0 §4 and
/// ID3v2.4.0 Native Frames §4): text frames, TCON genre references, TYER+TDAT or TDRC
/// dates, COMM, TXXX and APIC/PIC. Frame ids are v2.3/2.4 names; v2.2 ids go through `v22`.
struct ID3FrameCollector {
    private(set) var tags = TagSet()
    private var tyer: String?
    private var tdat: String?
    private var tdrc: String?
    private var commentRank = Int.max

    /// ID3v2.2 three-letter ids and their v2.3 names (PIC stays "PIC": its layout differs).
    static let v22: [String: String] = [
        "TT1": "TIT1", "TT2": "TIT2", "TT3": "TIT3", "TP1": "TPE1", "TP2": "TPE2", "TP3": "TPE3",
        "TP4": "TPE4", "TAL": "TALB", "TCM": "TCOM", "TCO": "TCON", "TRK": "TRCK", "TPA": "TPOS",
        "TYE": "TYER", "TDA": "TDAT", "TBP": "TBPM", "TCP": "TCMP", "COM": "COMM", "TXX": "TXXX",
        "PIC": "PIC", "TLA": "TLAN", "TLE": "TLEN", "TPB": "TPUB", "TSS": "TSSE", "TEN": "TENC",
        "TCR": "TCOP", "TOR": "TORY", "TRD": "TRDA", "TKE": "TKEY", "TOA": "TOPE", "TOT": "TOAL",
        "TOL": "TOLY", "TXT": "TEXT", "TRC": "TSRC", "TMT": "TMED", "TFT": "TFLT", "TST": "TSOT",
        "TSP": "TSOP", "TSA": "TSOA", "TS2": "TSO2", "TSC": "TSOC", "IPL": "IPLS",
    ]

    /// Adds one frame's (already de-unsynchronised) body.
    mutating func add(id: String, body: [UInt8]) {
        guard let encoding = body.first else { return }
        let payload = body[1...]
        switch id {
        case "COMM": addComment(payload, encoding: encoding)
        case "TXXX":
            let (desc, rest) = ID3Text.splitTerminated(payload, encoding: encoding)
            let key = ID3Text.string(desc, encoding: encoding).uppercased()
            let values = ID3Text.values(rest, encoding: encoding)
            if !key.isEmpty, !values.isEmpty { tags.custom[key, default: []] += values }
        case "APIC", "PIC": addPicture(payload, encoding: encoding, v22: id == "PIC")
        case "TMCL", "TIPL", "IPLS":
            // Role/name pairs (ID3v2.4 Native Frames §4.2.2, ID3v2.3.0 §4.4); a lone last role is dropped.
            let strings = ID3Text.allValues(payload, encoding: encoding)
            for pair in stride(from: 0, to: strings.count - 1, by: 2) {
                let role = strings[pair].trimmingSpaces(), name = strings[pair + 1].trimmingSpaces()
                if !name.isEmpty { tags.credits.append(TagSet.Credit(name: name, role: role)) }
            }
        default:
            guard id.hasPrefix("T") else { return }
            addText(id, ID3Text.values(payload, encoding: encoding))
        }
    }

    /// The tags, with TYER/TDAT folded into `date` when there was no TDRC.
    func finished() -> TagSet {
        var result = tags
        if let tdrc {
            result.date = tdrc
            result.year = TagValues.year(tdrc)
        } else if let tyer, let year = TagValues.year(tyer) {
            result.year = year
            let digits = tdat.map { Array($0.utf8) } ?? []
            if digits.count == 4, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }), let d = tdat {
                let day = d.prefix(2), month = d.suffix(2)
                result.date = "\(year)-\(month)-\(day)"
            } else {
                result.date = String(year)
            }
        }
        return result
    }

    private mutating func addText(_ id: String, _ values: [String]) {
        guard let first = values.first else { return }
        switch id {
        case "TIT2": tags.title = tags.title ?? first
        case "TPE1": tags.artists += values
        case "TALB": tags.album = tags.album ?? first
        case "TPE2": tags.albumArtists += values
        case "TCOM": tags.composers += values
        case "TCON":
            for genre in values.flatMap(Self.genres) where !tags.genres.contains(genre) { tags.genres.append(genre) }
        case "TRCK":
            let pair = TagValues.numberPair(first)
            tags.trackNumber = pair.number; tags.trackTotal = pair.total
        case "TPOS":
            let pair = TagValues.numberPair(first)
            tags.discNumber = pair.number; tags.discTotal = pair.total
        case "TDRC": tdrc = first
        case "TYER": tyer = first
        case "TDAT": tdat = first
        case "TBPM": tags.bpm = TagValues.bpm(first)
        case "TCMP": tags.compilation = TagValues.flag(first)
        default: tags.custom[id, default: []] += values
        }
    }

    /// Resolves one TCON value: "17", "(17)", "(17)Rock", "(17)(6)", "(RX)", "(CR)", "((text".
    static func genres(_ value: String) -> [String] {
        func reference(_ ref: Substring) -> String? {
            if ref == "RX" { return "Remix" }
            if ref == "CR" { return "Cover" }
            return Int(ref).flatMap(ID3Genre.name)
        }
        let trimmed = value.trimmingSpaces()
        if let whole = reference(Substring(trimmed)) { return [whole] }
        var result: [String] = []
        var rest = Substring(trimmed)
        while rest.hasPrefix("("), !rest.hasPrefix("(("), let close = rest.firstIndex(of: ")") {
            let inner = rest[rest.index(after: rest.startIndex)..<close]
            guard let name = reference(inner) else { break }
            result.append(name)
            rest = rest[rest.index(after: close)...]
        }
        if rest.hasPrefix("((") { rest = rest.dropFirst() }
        let refinement = String(rest).trimmingSpaces()
        if !refinement.isEmpty, !result.contains(refinement) { result.append(refinement) }
        return result
    }

    private mutating func addComment(_ payload: ArraySlice<UInt8>, encoding: UInt8) {
        guard payload.count >= 3 else { return }
        let language = ID3Text.latin1(payload.prefix(3)).lowercased()
        let (desc, rest) = ID3Text.splitTerminated(payload.dropFirst(3), encoding: encoding)
        let description = ID3Text.string(desc, encoding: encoding)
        guard !description.hasPrefix("iTun"), let text = ID3Text.values(rest, encoding: encoding).first else { return }
        // Prefer a comment with no description, then one in English, then the first.
        let rank = (description.isEmpty ? 0 : 2) + (language == "eng" ? 0 : 1)
        if rank < commentRank { commentRank = rank; tags.comment = text }
    }

    private mutating func addPicture(_ payload: ArraySlice<UInt8>, encoding: UInt8, v22: Bool) {
        var rest = payload
        var mime: String
        if v22 {
            guard rest.count >= 3 else { return }
            mime = ID3Text.latin1(rest.prefix(3))
            rest = rest.dropFirst(3)
        } else {
            let (m, after) = ID3Text.splitTerminated(rest, encoding: 0)
            mime = ID3Text.latin1(m)
            rest = after
        }
        guard let type = rest.first else { return }
        let (desc, data) = ID3Text.splitTerminated(rest.dropFirst(), encoding: encoding)
        guard !data.isEmpty else { return }
        let bytes = Array(data)
        switch mime.lowercased() {
        case "jpg", "jpeg", "image/jpg": mime = "image/jpeg"
        case "png": mime = "image/png"
        case let m where !m.contains("/"): mime = TagValues.imageMimeType(bytes)
        default: mime = mime.lowercased()
        }
        tags.pictures.append(.init(type: Int(type), mimeType: mime,
                                   description: ID3Text.string(desc, encoding: encoding), data: Data(bytes)))
    }
}
