// The draw list (docs/playground.md, "Draw list"): the frame as a buffer of little-endian 4-byte
// words that the JavaScript host reads from the module's memory. Header `QDL1`, command count,
// total bytes; then per command the op, the transform to stage space (a b c d tx ty), the alpha,
// and the op's fields. The buffer is kept between frames: once it has grown to a frame's size,
// writing the next frame allocates nothing.

/// The draw list's op codes.
public enum DrawOp: UInt32, Sendable {
    case quad = 1
    case image = 2
    case text = 3
}

/// Text alignment inside a text field's box (the draw list's `align`).
public enum TextAlignment: UInt32, Sendable {
    case left = 0
    case center = 1
    case right = 2
}

/// A reusable draw-list buffer.
public struct DrawList {
    /// `'QDL1'` read as a little-endian `u32`.
    public static let magic: UInt32 = 0x314C_4451
    /// Words of the header: magic, command count, total bytes.
    public static let headerWords = 3

    /// The words, each stored little-endian (so the memory holds the contract's bytes on any host).
    public private(set) var storage: [UInt32]
    /// Commands written since `begin()`.
    public private(set) var commandCount = 0

    public init(reservingWords capacity: Int = 4096) {
        storage = []
        storage.reserveCapacity(capacity)
        begin()
    }

    /// Empties the list (keeping its memory) and writes a fresh header.
    public mutating func begin() {
        storage.removeAll(keepingCapacity: true)
        commandCount = 0
        storage.append(DrawList.magic.littleEndian)
        storage.append(0)
        storage.append(UInt32(DrawList.headerWords * 4).littleEndian)
    }

    /// Total bytes, header included.
    public var byteCount: Int { storage.count * 4 }

    /// Calls `body` with the bytes (valid during the call only).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        storage.withUnsafeBytes(body)
    }

    /// A copy of the bytes (tests, tools).
    public var bytes: [UInt8] { storage.withUnsafeBytes { Array($0) } }

    /// Replaces `out`'s contents with the bytes, reusing its memory (no allocation once it is
    /// large enough).
    public func copyBytes(into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        storage.withUnsafeBytes { out.append(contentsOf: $0) }
    }

    @inline(__always) mutating func word(_ w: UInt32) { storage.append(w.littleEndian) }
    @inline(__always) mutating func float(_ f: Double) { storage.append(Float(f).bitPattern.littleEndian) }

    mutating func header(_ op: DrawOp, _ m: Matrix, _ alpha: Double) {
        word(op.rawValue)
        float(m.a); float(m.b); float(m.c); float(m.d); float(m.tx); float(m.ty)
        float(alpha)
    }

    mutating func finishCommand() {
        commandCount += 1
        storage[1] = UInt32(commandCount).littleEndian
        storage[2] = UInt32(storage.count * 4).littleEndian
    }

    /// Op 1: the rectangle (0,0)–(w,h) with a colour per vertex (top-left, top-right,
    /// bottom-left, bottom-right; `0xRRGGBBAA`).
    public mutating func addQuad(matrix: Matrix, alpha: Double, width: Double, height: Double,
                                 colors: (UInt32, UInt32, UInt32, UInt32)) {
        header(.quad, matrix, alpha)
        float(width); float(height)
        word(colors.0); word(colors.1); word(colors.2); word(colors.3)
        finishCommand()
    }

    /// Op 2: region `region` of atlas `atlas` drawn into (0,0)–(w,h), multiplied by `tint`.
    public mutating func addImage(matrix: Matrix, alpha: Double, width: Double, height: Double,
                                  atlas: UInt32, region: UInt32, tint: UInt32) {
        header(.image, matrix, alpha)
        float(width); float(height)
        word(atlas); word(region); word(tint)
        finishCommand()
    }

    /// Op 3: `text` (UTF-8, zero-padded to whole words) in the box (0,0)–(w,h).
    public mutating func addText(matrix: Matrix, alpha: Double, width: Double, height: Double,
                                 fontSize: Double, color: UInt32, alignment: TextAlignment, text: String) {
        header(.text, matrix, alpha)
        float(width); float(height); float(fontSize)
        word(color); word(alignment.rawValue)
        let utf8 = text.utf8
        word(UInt32(utf8.count))
        var w: UInt32 = 0, shift: UInt32 = 0
        for byte in utf8 {
            w |= UInt32(byte) << shift
            shift += 8
            if shift == 32 { word(w); w = 0; shift = 0 }
        }
        if shift != 0 { word(w) }
        finishCommand()
    }
}
