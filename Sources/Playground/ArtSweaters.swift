// The sweater pile's art: the regions of its texture atlas and their sizes in points.
//
// scripts/build-atlas draws Web/playground/art/sweaters/*.svg into Web/playground/atlas/
// sweaters.png and sweaters.json (docs/playground.md, "Atlases"): one region per SVG, indexed in
// the byte order of the file names, each drawn at 2 pixels per point. The sizes are the SVGs'
// own width and height; Tests/PlaygroundTests/SweaterPileTests.swift builds the atlas and checks
// every region's name and size.

/// The texture atlas of the sweater pile.
public enum SweatersArt {
    /// The atlas number the pile's image commands carry (`sweaters.png`, the page's atlases[0]).
    public static let atlas: UInt32 = 0

    /// A region of the atlas; the raw value is its index in sweaters.json's `regions`.
    public enum Region: UInt32, CaseIterable, Sendable {
        case background = 0
        case sweaterBlue, sweaterGreen, sweaterPurple, sweaterRed, sweaterYellow

        /// The SVG's file name without `.svg`.
        public var name: String {
            switch self {
            case .background: "background"
            case .sweaterBlue: "sweater-blue"
            case .sweaterGreen: "sweater-green"
            case .sweaterPurple: "sweater-purple"
            case .sweaterRed: "sweater-red"
            case .sweaterYellow: "sweater-yellow"
            }
        }

        /// Width in points (the SVG's `width`).
        public var width: Float { self == .background ? 1024 : 150 }
        /// Height in points (the SVG's `height`).
        public var height: Float { self == .background ? 768 : 42 }
    }

    /// The sweaters' colours in the order they drop (the fifth repeats from the first).
    public static let sweaters: [Region] = [.sweaterRed, .sweaterBlue, .sweaterYellow, .sweaterGreen, .sweaterPurple]
}
