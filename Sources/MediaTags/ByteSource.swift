import Foundation

/// Random access to the bytes of a file, so readers fetch only what they need (the head
/// with the tags, the tail with an ID3v1 tag or the last Ogg page, an MP4 `moov` atom
/// wherever it sits) instead of reading whole songs.
public protocol ByteSource {
    /// Total length in bytes.
    var count: Int { get }
    /// The bytes in `range`, clamped to the source (fewer at the end, none past it).
    func read(_ range: Range<Int>) throws -> [UInt8]
}

extension ByteSource {
    /// Up to `length` bytes from `offset`.
    public func read(at offset: Int, length: Int) throws -> [UInt8] {
        guard offset >= 0, length > 0, offset < count else { return [] }
        return try read(offset..<(offset + min(length, count - offset))) // no overflow for huge lengths
    }
}

/// Bytes already in memory (tests, fuzzing, uploads).
public struct DataByteSource: ByteSource {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public init(_ data: Data) { self.bytes = [UInt8](data) }
    public var count: Int { bytes.count }
    public func read(_ range: Range<Int>) throws -> [UInt8] {
        let lo = max(0, min(range.lowerBound, bytes.count)), hi = max(lo, min(range.upperBound, bytes.count))
        return Array(bytes[lo..<hi])
    }
}

/// A file on disk, read with seeks; the handle closes when the source is released.
public final class FileByteSource: ByteSource {
    private let handle: FileHandle
    public let count: Int
    public let path: String

    public init(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw MediaTagsError.io("\(path): cannot open (missing, unreadable or a folder)")
        }
        self.handle = handle
        self.path = path
        do {
            count = Int(try handle.seekToEnd())
        } catch {
            try? handle.close()
            throw MediaTagsError.io("\(path): \(error.localizedDescription)")
        }
    }

    deinit { try? handle.close() }

    public func read(_ range: Range<Int>) throws -> [UInt8] {
        let lo = max(0, min(range.lowerBound, count)), hi = max(lo, min(range.upperBound, count))
        guard hi > lo else { return [] }
        do {
            try handle.seek(toOffset: UInt64(lo))
            return [UInt8](try handle.read(upToCount: hi - lo) ?? Data())
        } catch {
            throw MediaTagsError.io("\(path): \(error.localizedDescription)")
        }
    }
}
