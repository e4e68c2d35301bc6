// Bitmap fonts (Sparrow's SPBitmapFont): every glyph is a region of a texture atlas, one cell
// `advance` units wide and `lineHeight` units high, so laying out a line is adding advances and
// drawing it is one image command per glyph. The layout (line breaks, alignment, shrinking to
// fit) happens here, in Swift, so it is the same in the native and the WebAssembly build and a
// game can measure its text. docs/playground.md, "Bitmap font".

/// Vertical alignment of a text block inside a text field's box.
public enum VerticalAlignment: UInt32, Sendable {
    case top = 0
    case center = 1
    case bottom = 2
}

/// A glyph placed by a layout: its index in the font (the atlas region) and its cell's top-left
/// corner in the text field's box, in points.
public struct PlacedGlyph: Equatable, Sendable {
    public var glyph: Int
    public var x: Double
    public var y: Double
}

/// A text laid out in a box.
public struct TextLayout: Equatable, Sendable {
    /// The visible glyphs (spaces take room but are not listed), in reading order.
    public var glyphs: [PlacedGlyph] = []
    /// The size the text was laid out at: the field's, or smaller when it was shrunk to fit.
    public var fontSize: Double = 0
    /// Lines after breaking (at least 1).
    public var lineCount: Int = 0
    /// The widest line, in points (trailing spaces not counted).
    public var width: Double = 0
    /// `lineCount` line heights, in points.
    public var height: Double = 0
    /// The text's bounds in the box's space: its lines' extent after alignment.
    public var bounds: Rectangle = .zero
    /// Whether the text fits the box: no line wider than the box, not taller than it, and no word
    /// cut because it was wider than the box.
    public var fits: Bool = true
}

/// A font whose glyphs are atlas regions, indexed by code point (ascending).
public struct BitmapFont: Sendable {
    public let name: String
    /// The atlas number the glyph image commands carry (which of the game's atlases holds it).
    public var atlas: UInt32
    /// Font units per em: a text field's `fontSize` points are this many units.
    public let unitsPerEm: Double
    /// A line's height (the glyph cells' height), in font units.
    public let lineHeight: Double
    /// The baseline's distance from the top of a cell, in font units.
    public let baseline: Double
    /// The code points that have a glyph, ascending; glyph i is atlas region i.
    public let codePoints: [UInt32]
    /// Each glyph's advance (its cell's width), in font units.
    public let advances: [UInt16]
    /// The glyph shown for a character the font lacks: "?" when it has one.
    public let fallback: Int?

    /// A font from its metrics. `codePoints` must be strictly ascending, one advance each
    /// (a font that breaks this has its extra or unordered entries dropped, never trapped on).
    public init(name: String, atlas: UInt32, unitsPerEm: Double, lineHeight: Double, baseline: Double,
                codePoints: [UInt32], advances: [UInt16]) {
        var points: [UInt32] = []
        var widths: [UInt16] = []
        let n = codePoints.count < advances.count ? codePoints.count : advances.count
        points.reserveCapacity(n); widths.reserveCapacity(n)
        for i in 0..<n where points.isEmpty || codePoints[i] > points[points.count - 1] {
            points.append(codePoints[i]); widths.append(advances[i])
        }
        self.name = name
        self.atlas = atlas
        self.unitsPerEm = unitsPerEm > 0 ? unitsPerEm : 1
        self.lineHeight = lineHeight
        self.baseline = baseline
        self.codePoints = points
        self.advances = widths
        fallback = BitmapFont.search(points, 0x3F)
    }

    /// Number of glyphs (= regions of the font's atlas).
    public var glyphCount: Int { codePoints.count }

    /// The glyph of a code point, or nil when the font has none.
    public func glyph(for codePoint: UInt32) -> Int? { BitmapFont.search(codePoints, codePoint) }

    static func search(_ points: [UInt32], _ codePoint: UInt32) -> Int? {
        var low = 0, high = points.count
        while low < high {
            let mid = (low + high) / 2
            if points[mid] < codePoint { low = mid + 1 } else { high = mid }
        }
        return low < points.count && points[low] == codePoint ? low : nil
    }

    /// A glyph's advance in points at `fontSize`.
    public func advance(ofGlyph glyph: Int, fontSize: Double) -> Double {
        Double(advances[glyph]) * fontSize / unitsPerEm
    }

    /// A line's height in points at `fontSize`.
    public func lineHeight(fontSize: Double) -> Double { lineHeight * fontSize / unitsPerEm }

    /// The atlas region of a glyph and its size in points at `fontSize`.
    public func region(ofGlyph glyph: Int, fontSize: Double) -> TextureRegion {
        TextureRegion(atlas: atlas, region: UInt32(glyph), width: advance(ofGlyph: glyph, fontSize: fontSize),
                      height: lineHeight(fontSize: fontSize))
    }

    /// The size of `text` at `fontSize` with no box: lines break only at "\n".
    public func size(of text: String, fontSize: Double) -> (width: Double, height: Double) {
        let layout = layout(text, fontSize: fontSize, width: .infinity, height: .infinity)
        return (layout.width, layout.height)
    }

    /// Lays `text` out in a `width` × `height` box: lines break at "\n" and, when a line would be
    /// wider than the box, at the last space before it (a word wider than the box is cut where it
    /// overflows); each line is aligned by `alignment`, the block by `verticalAlignment`. With
    /// `autoScale` the font size goes down a point at a time (not below 1) until the text fits.
    /// Characters the font lacks show as its fallback glyph ("?"); "\r" is ignored, "\t" is a space.
    public func layout(_ text: String, fontSize: Double, width: Double, height: Double,
                       alignment: TextAlignment = .left, verticalAlignment: VerticalAlignment = .top,
                       autoScale: Bool = false) -> TextLayout {
        var size = fontSize > 0 ? fontSize : 0
        var (result, lines) = arrange(text, fontSize: size, width: width)
        if autoScale {
            while size > 1 && !(result.fits && result.height <= height) {
                size = size - 1 < 1 ? 1 : size - 1
                (result, lines) = arrange(text, fontSize: size, width: width)
            }
        }
        result.fits = result.fits && result.height <= height

        // Alignment: each line in the box's width, the block in its height (an unbounded side
        // aligns to 0).
        let lineHeight = lineHeight(fontSize: size)
        var top = 0.0
        if height.isFinite {
            switch verticalAlignment {
            case .top: top = 0
            case .center: top = (height - result.height) / 2
            case .bottom: top = height - result.height
            }
        }
        var left = Double.infinity
        for (number, line) in lines.enumerated() {
            var dx = 0.0
            if width.isFinite {
                switch alignment {
                case .left: dx = 0
                case .center: dx = (width - line.width) / 2
                case .right: dx = width - line.width
                }
            }
            if line.width > 0 || lines.count == 1 { left = dx < left ? dx : left }
            for i in line.first..<line.end {
                result.glyphs[i].x += dx
                result.glyphs[i].y = top + Double(number) * lineHeight
            }
        }
        result.bounds = Rectangle(x: left.isFinite ? left : 0, y: top, width: result.width, height: result.height)
        return result
    }

    /// One line: glyphs [first, end) of the layout and its width (to its last visible glyph).
    struct Line { var first: Int; var end: Int; var width: Double }

    /// Breaks the text into lines at `fontSize`, glyph x relative to the line's start.
    func arrange(_ text: String, fontSize: Double, width: Double) -> (TextLayout, [Line]) {
        var lines: [Line] = []
        var glyphs: [PlacedGlyph] = []
        let spaceAdvance = glyph(for: 0x20).map { advance(ofGlyph: $0, fontSize: fontSize) } ?? fontSize / 4
        var lineStart = 0
        var x = 0.0          // the pen
        var ink = 0.0        // the line's width to the end of its last visible glyph
        var fits = true
        // The last space of the current line: where the next word starts (glyph index and x)
        // and the line's width before the spaces.
        var breakGlyph = -1, breakX = 0.0, breakInk = 0.0

        forEachScalar(text) { scalar in
            switch scalar {
            case 0x0A:
                lines.append(Line(first: lineStart, end: glyphs.count, width: ink))
                lineStart = glyphs.count
                x = 0; ink = 0; breakGlyph = -1
            case 0x0D:
                break
            case 0x20, 0x09:
                if breakGlyph != glyphs.count { breakInk = ink }   // the first space of a run
                x += spaceAdvance
                breakGlyph = glyphs.count; breakX = x
            default:
                guard let g = glyph(for: scalar) ?? fallback else { return }
                let advance = self.advance(ofGlyph: g, fontSize: fontSize)
                if x + advance > width && x > 0 {
                    if breakGlyph > lineStart {
                        // Wrap at the last space: the word begun there moves to a new line.
                        lines.append(Line(first: lineStart, end: breakGlyph, width: breakInk))
                        lineStart = breakGlyph
                        for i in breakGlyph..<glyphs.count { glyphs[i].x -= breakX }
                        x -= breakX; ink = x
                        breakGlyph = -1
                    }
                    if x + advance > width && glyphs.count > lineStart {
                        // A word wider than the box: cut where it overflows.
                        lines.append(Line(first: lineStart, end: glyphs.count, width: ink))
                        lineStart = glyphs.count
                        x = 0; ink = 0; breakGlyph = -1
                        fits = false
                    }
                }
                glyphs.append(PlacedGlyph(glyph: g, x: x, y: 0))
                x += advance
                ink = x
                if x > width { fits = false }
            }
        }
        lines.append(Line(first: lineStart, end: glyphs.count, width: ink))

        var layout = TextLayout()
        layout.fontSize = fontSize
        layout.glyphs = glyphs
        layout.lineCount = lines.count
        for line in lines where line.width > layout.width { layout.width = line.width }
        layout.height = Double(lines.count) * lineHeight(fontSize: fontSize)
        layout.fits = fits
        return (layout, lines)
    }
}

/// Calls `body` with each Unicode scalar of `text`, decoded from its UTF-8 (no Unicode tables, so
/// the same in Embedded Swift). A String's UTF-8 is always valid.
func forEachScalar(_ text: String, _ body: (UInt32) -> Void) {
    var scalar: UInt32 = 0
    var remaining = 0
    for byte in text.utf8 {
        if byte < 0x80 {
            body(UInt32(byte)); remaining = 0
        } else if byte >= 0xC0 {
            remaining = byte >= 0xF0 ? 3 : (byte >= 0xE0 ? 2 : 1)
            scalar = UInt32(byte) & (byte >= 0xF0 ? 0x07 : (byte >= 0xE0 ? 0x0F : 0x1F))
        } else if remaining > 0 {
            scalar = scalar << 6 | UInt32(byte & 0x3F)
            remaining -= 1
            if remaining == 0 { body(scalar) }
        }
    }
}
