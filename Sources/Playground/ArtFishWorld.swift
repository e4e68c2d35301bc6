// FishWorld's art: the regions of its texture atlas and their sizes in points.
//
// scripts/build-atlas draws Web/playground/art/fishworld/*.svg into Web/playground/atlas/
// fishworld.png and fishworld.json (docs/playground.md, "Atlases"): one region per SVG, indexed
// in the byte order of the file names, each drawn at 2 pixels per point. The sizes below are
// the SVGs' own width and height, written here by hand; Tests/PlaygroundTests/FishWorldTests.swift
// builds the atlas and checks that every region's name and size match.

/// The texture atlas of FishWorld: which region to draw and how big it is.
public enum FishWorldArt {
    /// The atlas number FishWorld's image commands carry (its art, `fishworld.png`).
    public static let atlas: UInt32 = 0

    /// A region of the atlas; the raw value is its index in fishworld.json's `regions`.
    public enum Region: UInt32, CaseIterable, Sendable {
        case background = 0
        case bubble
        case fishPurple, fishRed, fishYellow
        case reefPurple, reefRed, reefYellow
        case starfish

        /// The SVG's file name without `.svg` (the region's name in the atlas index).
        public var name: String {
            switch self {
            case .background: "background"
            case .bubble: "bubble"
            case .fishPurple: "fish-purple"
            case .fishRed: "fish-red"
            case .fishYellow: "fish-yellow"
            case .reefPurple: "reef-purple"
            case .reefRed: "reef-red"
            case .reefYellow: "reef-yellow"
            case .starfish: "starfish"
            }
        }

        /// Width in points (the SVG's `width`).
        public var width: Float { size.width }
        /// Height in points (the SVG's `height`).
        public var height: Float { size.height }

        var size: (width: Float, height: Float) {
            switch self {
            case .background: (1024, 768)
            case .bubble: (24, 24)
            case .fishPurple, .fishRed, .fishYellow: (60, 40)
            case .reefPurple, .reefRed, .reefYellow: (200, 150)
            case .starfish: (180, 180)
            }
        }
    }

    /// The fish image of each colour (by `FishColour` raw value).
    public static let fish: [Region] = [.fishRed, .fishYellow, .fishPurple]
    /// The reef image of each colour (by `FishColour` raw value).
    public static let reefs: [Region] = [.reefRed, .reefYellow, .reefPurple]
}
