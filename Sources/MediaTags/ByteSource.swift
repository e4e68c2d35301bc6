import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

/// A file on disk, read with `pread` (POSIX: Foundation's FileHandle costs several system
/// calls and allocations per read, which showed in library scans); the descriptor closes
/// when the source is released.
public final class FileByteSource: ByteSource {
    private let descriptor: Int32
    public let count: Int
    public let path: String

    /// Opens `path`. A caller that has just listed the file (a library scan) passes its
    /// `size` and saves the `fstat`; the file must then be known to be a regular file.
    public init(path: String, size: Int? = nil) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw MediaTagsError.io("\(path): cannot open (\(String(cString: strerror(errno))))")
        }
        if let size, size >= 0 {
            descriptor = fd
            self.path = path
            count = size
            return
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw MediaTagsError.io("\(path): not a regular file")
        }
        descriptor = fd
        self.path = path
        count = Int(info.st_size)
    }

    deinit { close(descriptor) }

    /// The last window read from the file: readers ask for many small pieces close together
    /// (a header, then a frame, then the next), so each miss reads at least `windowSize`
    /// bytes and later requests inside it cost no system call.
    private var window: [UInt8] = []
    private var windowStart = 0
    public static let windowSize = 32 * 1024

    public func read(_ range: Range<Int>) throws -> [UInt8] {
        let lo = max(0, min(range.lowerBound, count)), hi = max(lo, min(range.upperBound, count))
        guard hi > lo else { return [] }
        if lo >= windowStart, hi <= windowStart + window.count {
            return Array(window[(lo - windowStart)..<(hi - windowStart)])
        }
        if hi - lo >= Self.windowSize { return try pread(lo, hi - lo) } // large pieces (pictures) are not kept
        // Near the end of the file, the window ends at the end (tail tags, the last Ogg page).
        let start = min(lo, max(0, count - Self.windowSize))
        window = try pread(start, min(Self.windowSize, count - start))
        windowStart = start
        let end = min(hi, windowStart + window.count)
        return Array(window[(lo - windowStart)..<(end - windowStart)])
    }

    private func pread(_ offset: Int, _ wanted: Int) throws -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            var done = 0
            while done < wanted {
                #if canImport(Glibc)
                let n = Glibc.pread(descriptor, buffer.baseAddress! + done, wanted - done, off_t(offset + done))
                #else
                let n = Darwin.pread(descriptor, buffer.baseAddress! + done, wanted - done, off_t(offset + done))
                #endif
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break } // the file shrank under us: return what there is
                done += n
            }
            initialized = done
        }
        if failure != 0 { throw MediaTagsError.io("\(path): \(String(cString: strerror(failure)))") }
        return bytes
    }
}
