// ShipWorld's art: the regions of its texture atlas and their sizes in points.
//
// scripts/build-atlas draws Web/playground/art/shipworld/*.svg into Web/playground/atlas/
// shipworld.png and shipworld.json (docs/playground.md, "Atlases"): one region per SVG, indexed
// in the byte order of the file names. The sizes below are the SVGs' own width and height,
// written here by hand; Tests/PlaygroundTests/ShipWorldTests.swift builds the atlas and checks
// that every region's name and size match.

/// The texture atlas of ShipWorld: which region to draw and how big it is.
public enum ShipWorldArt {
    /// The atlas number ShipWorld's image commands carry (its art, `shipworld.png`).
    public static let atlas: UInt32 = 0

    /// A region of the atlas; the raw value is its index in shipworld.json's `regions`.
    public enum Region: UInt32, CaseIterable, Sendable {
        case background = 0
        case boat, buoy, disc, duck, harbour, log, ripple, splash, star

        /// The SVG's file name without `.svg` (the region's name in the atlas index).
        public var name: String {
            switch self {
            case .background: "background"
            case .boat: "boat"
            case .buoy: "buoy"
            case .disc: "disc"
            case .duck: "duck"
            case .harbour: "harbour"
            case .log: "log"
            case .ripple: "ripple"
            case .splash: "splash"
            case .star: "star"
            }
        }

        /// Width in points (the SVG's `width`).
        public var width: Float { size.width }
        /// Height in points (the SVG's `height`).
        public var height: Float { size.height }

        var size: (width: Float, height: Float) {
            switch self {
            case .background: (1024, 768)
            case .boat: (60, 34)
            case .buoy: (30, 30)
            case .disc: (64, 64)
            case .duck: (40, 34)
            case .harbour: (150, 190)
            case .log: (72, 22)
            case .ripple: (36, 14)
            case .splash: (64, 64)
            case .star: (120, 120)
            }
        }
    }
}
