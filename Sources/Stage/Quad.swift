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

/// A line of text in a box: drawn by the host's font, vertically centred, aligned left, centre
/// or right. Its bounds are its box.
open class TextField: DisplayObject {
    public var text: String
    public var boxWidth: Double
    public var boxHeight: Double
    public var fontSize: Double
    public var color: UInt32
    public var alignment: TextAlignment

    public init(width: Double, height: Double, text: String = "", fontSize: Double = 16,
                color: UInt32 = Color.black, alignment: TextAlignment = .center) {
        self.text = text; boxWidth = width; boxHeight = height
        self.fontSize = fontSize; self.color = color; self.alignment = alignment
        super.init()
    }

    open override var localBounds: Rectangle { Rectangle(x: 0, y: 0, width: boxWidth, height: boxHeight) }

    open override func render(into list: inout DrawList, matrix: Matrix, alpha: Double) {
        list.addText(matrix: matrix, alpha: alpha, width: boxWidth, height: boxHeight, fontSize: fontSize,
                     color: color, alignment: alignment, text: text)
    }
}
