// Leaves that draw (Sparrow's SPQuad, SPImage, SPTextField): a rectangle (0,0)–(width, height)
// in local space, with a colour per vertex, a texture-atlas region or a line of text.

/// A rectangle with a colour per vertex, blended between them (two top vertices of one colour
/// and two bottom ones of another make a vertical gradient).
open class Quad: DisplayObject {
    /// The unscaled size (`width`/`height` are the scaled bounds in the parent).
    public var quadWidth: Double
    public var quadHeight: Double
    /// Vertex colours `0xRRGGBBAA`: top-left, top-right, bottom-left, bottom-right.
    public var vertexColors: (UInt32, UInt32, UInt32, UInt32)

    public init(width: Double, height: Double, color: UInt32 = Color.white) {
        quadWidth = width; quadHeight = height
        vertexColors = (color, color, color, color)
        super.init()
    }

    /// All four vertices' colour (the top-left one when they differ); setting it sets all four.
    public var color: UInt32 {
        get { vertexColors.0 }
        set { vertexColors = (newValue, newValue, newValue, newValue) }
    }

    /// The colour of vertex 0…3 (top-left, top-right, bottom-left, bottom-right).
    public func color(ofVertex i: Int) -> UInt32 {
        switch i {
        case 0: return vertexColors.0
        case 1: return vertexColors.1
        case 2: return vertexColors.2
        case 3: return vertexColors.3
        default: preconditionFailure("vertex index out of range")
        }
    }

    /// Sets the colour of vertex 0…3.
    public func setColor(_ color: UInt32, ofVertex i: Int) {
        switch i {
        case 0: vertexColors.0 = color
        case 1: vertexColors.1 = color
        case 2: vertexColors.2 = color
        case 3: vertexColors.3 = color
        default: preconditionFailure("vertex index out of range")
        }
    }

    open override var localBounds: Rectangle { Rectangle(x: 0, y: 0, width: quadWidth, height: quadHeight) }

    open override func render(into list: inout DrawList, matrix: Matrix, alpha: Double) {
        list.addQuad(matrix: matrix, alpha: alpha, width: quadWidth, height: quadHeight, colors: vertexColors)
    }
}

/// A region of a texture atlas. The game supplies the ids and the region's size in points
/// (from its atlas description); the host maps the ids to pixels.
public struct TextureRegion: Equatable, Sendable {
    public var atlas: UInt32
    public var region: UInt32
    public var width: Double
    public var height: Double
    public init(atlas: UInt32, region: UInt32, width: Double, height: Double) {
        self.atlas = atlas; self.region = region; self.width = width; self.height = height
    }
}

/// A textured rectangle: an atlas region drawn into (0,0)–(width, height), its colours
/// multiplied by `tint`.
open class Image: DisplayObject {
    public var texture: TextureRegion
    /// The unscaled size; the region's size by default.
    public var imageWidth: Double
    public var imageHeight: Double
    /// Multiplied into the texture's colours (`0xRRGGBBAA`; white leaves them unchanged).
    public var tint: UInt32 = Color.white

    public init(texture: TextureRegion) {
        self.texture = texture
        imageWidth = texture.width; imageHeight = texture.height
        super.init()
    }

    /// Shows another region and takes its size.
    public func setTexture(_ t: TextureRegion) {
        texture = t
        imageWidth = t.width; imageHeight = t.height
    }

    open override var localBounds: Rectangle { Rectangle(x: 0, y: 0, width: imageWidth, height: imageHeight) }

    open override func render(into list: inout DrawList, matrix: Matrix, alpha: Double) {
        list.addImage(matrix: matrix, alpha: alpha, width: imageWidth, height: imageHeight,
                      atlas: texture.atlas, region: texture.region, tint: tint)
    }
}

/// Text in a box (Sparrow's SPTextField). With a `font` (a `BitmapFont`), the text is laid out
/// here — broken into lines at spaces to fit the box's width, each line aligned by `alignment`,
/// the block by `verticalAlignment`, optionally shrunk to fit (`autoScale`) — and drawn as one
/// image command per glyph, tinted by `color`. Without one, the host draws a single line in its
/// own font (the draw list's text command: vertically centred, no measuring on this side).
/// Its bounds are its box.
open class TextField: DisplayObject {
    public var text: String { didSet { cachedLayout = nil } }
    public var boxWidth: Double { didSet { cachedLayout = nil } }
    public var boxHeight: Double { didSet { cachedLayout = nil } }
    public var fontSize: Double { didSet { cachedLayout = nil } }
    public var color: UInt32
    public var alignment: TextAlignment { didSet { cachedLayout = nil } }
    /// Where the lines sit in the box's height (bitmap fonts; the host's font is always centred).
    public var verticalAlignment: VerticalAlignment = .center { didSet { cachedLayout = nil } }
    /// Shrinks the font size, a point at a time, until the text fits the box (bitmap fonts).
    public var autoScale = false { didSet { cachedLayout = nil } }
    /// The bitmap font; nil draws with the host's font.
    public var font: BitmapFont? { didSet { cachedLayout = nil } }

    private var cachedLayout: TextLayout?

    public init(width: Double, height: Double, text: String = "", fontSize: Double = 16,
                color: UInt32 = Color.black, alignment: TextAlignment = .center, font: BitmapFont? = nil) {
        self.text = text; boxWidth = width; boxHeight = height
        self.fontSize = fontSize; self.color = color; self.alignment = alignment; self.font = font
        super.init()
    }

    /// The text laid out in the box with the bitmap font (nil without one); kept until the text,
    /// the box, the size, the alignment or the font change.
    public var textLayout: TextLayout? {
        guard let font else { return nil }
        if let cachedLayout { return cachedLayout }
        let layout = font.layout(text, fontSize: fontSize, width: boxWidth, height: boxHeight, alignment: alignment,
                                 verticalAlignment: verticalAlignment, autoScale: autoScale)
        cachedLayout = layout
        return layout
    }

    /// The text's own bounds in the field's space (bitmap fonts; the box with the host's font).
    public var textBounds: Rectangle {
        textLayout?.bounds ?? Rectangle(x: 0, y: 0, width: boxWidth, height: boxHeight)
    }

    open override var localBounds: Rectangle { Rectangle(x: 0, y: 0, width: boxWidth, height: boxHeight) }

    open override func render(into list: inout DrawList, matrix: Matrix, alpha: Double) {
        guard let font, let layout = textLayout else {
            list.addText(matrix: matrix, alpha: alpha, width: boxWidth, height: boxHeight, fontSize: fontSize,
                         color: color, alignment: alignment, text: text)
            return
        }
        let height = font.lineHeight(fontSize: layout.fontSize)
        for placed in layout.glyphs {
            list.addImage(matrix: Matrix(tx: placed.x, ty: placed.y).concatenated(matrix), alpha: alpha,
                          width: font.advance(ofGlyph: placed.glyph, fontSize: layout.fontSize), height: height,
                          atlas: font.atlas, region: UInt32(placed.glyph), tint: color)
        }
    }
}
