import Foundation

/// A bounds-checked cursor over bytes: every read checks its length first and throws
/// `MediaTagsError.malformed` instead of trapping, so hostile files cannot crash a reader.
///
/// ```swift
/// var r = ByteReader(data)
/// let magic = try r.bytes(4)
/// let size = try r.uint32BE()
/// ```
public struct ByteReader {
    public let data: [UInt8]
    /// Index of the next byte to read.
    public private(set) var offset: Int
    /// The first byte this reader may read.
    public let start: Int
    /// One past the last byte this reader may read (a sub-range of `data`).
    public let end: Int

    public init(_ data: [UInt8], offset: Int = 0, end: Int? = nil) {
        self.data = data
        self.offset = max(0, min(offset, data.count))
        self.start = self.offset
        self.end = max(self.offset, min(end ?? data.count, data.count))
    }

    public init(_ data: Data) { self.init([UInt8](data)) }

    public var remaining: Int { end - offset }
    public var isAtEnd: Bool { offset >= end }

    /// Throws unless `count` more bytes are available.
    public func require(_ count: Int, _ what: @autoclosure () -> String = "data") throws {
        guard count >= 0, count <= remaining else {
            throw MediaTagsError.malformed("\(what()) needs \(count) bytes at offset \(offset), only \(remaining) left")
        }
    }

    public mutating func skip(_ count: Int) throws {
        try require(count, "skip")
        offset += count
    }

    /// Moves to `position`, which must lie within this reader's range (a sub-reader cannot
    /// seek into its parent's bytes).
    public mutating func seek(to position: Int) throws {
        guard position >= start, position <= end else {
            throw MediaTagsError.malformed("seek to \(position) outside \(start)..<\(end)")
        }
        offset = position
    }

    /// The next `count` bytes without advancing.
    public func peek(_ count: Int) throws -> [UInt8] {
        try require(count)
        return Array(data[offset..<(offset + count)])
    }

    public mutating func uint8() throws -> UInt8 {
        try require(1)
        defer { offset += 1 }
        return data[offset]
    }

    public mutating func bytes(_ count: Int) throws -> [UInt8] {
        try require(count)
        defer { offset += count }
        return Array(data[offset..<(offset + count)])
    }

    /// A reader over the next `count` bytes (advancing past them).
    public mutating func subReader(_ count: Int) throws -> ByteReader {
        try require(count)
        defer { offset += count }
        return ByteReader(data, offset: offset, end: offset + count)
    }

    public mutating func uint16BE() throws -> UInt16 { UInt16(try uint(2, bigEndian: true)) }
    public mutating func uint16LE() throws -> UInt16 { UInt16(try uint(2, bigEndian: false)) }
    public mutating func uint24BE() throws -> UInt32 { UInt32(try uint(3, bigEndian: true)) }
    public mutating func uint32BE() throws -> UInt32 { UInt32(try uint(4, bigEndian: true)) }
    public mutating func uint32LE() throws -> UInt32 { UInt32(try uint(4, bigEndian: false)) }
    public mutating func uint64BE() throws -> UInt64 { try uint(8, bigEndian: true) }
    public mutating func uint64LE() throws -> UInt64 { try uint(8, bigEndian: false) }

    /// An ID3v2 "synchsafe" integer: `count` bytes of 7 bits each.
    public mutating func synchsafe(_ count: Int = 4) throws -> UInt32 {
        try require(count, "synchsafe integer")
        var value: UInt32 = 0
        for _ in 0..<count { value = (value << 7) | UInt32(data[offset] & 0x7F); offset += 1 }
        return value
    }

    /// Four characters (chunk, atom and frame identifiers), one per byte as ISO-8859-1, so
    /// MP4's "©nam" (0xA9 …) reads as written.
    public mutating func fourCC() throws -> String {
        String(String.UnicodeScalarView(try bytes(4).map { Unicode.Scalar($0) }))
    }

    private mutating func uint(_ count: Int, bigEndian: Bool) throws -> UInt64 {
        try require(count)
        var value: UInt64 = 0
        for i in 0..<count {
            let byte = UInt64(data[offset + (bigEndian ? i : count - 1 - i)])
            value = (value << 8) | byte
        }
        offset += count
        return value
    }
}
