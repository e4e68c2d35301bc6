// CarWorld's art: the regions of its texture atlas and their sizes in points.
//
// scripts/build-atlas draws Web/playground/art/carworld/*.svg into Web/playground/atlas/
// carworld.png and carworld.json (docs/playground.md, "Atlases"): one region per SVG, indexed
// in the byte order of the file names, each drawn at 2 pixels per point. The sizes below are
// the SVGs' own width and height, written here by hand; Tests/PlaygroundTests/AtlasTests.swift
// builds the atlas and checks that every region's name and size match.

/// The texture atlas of CarWorld: which region to draw and how big it is.
public enum CarWorldArt {
    /// The atlas number CarWorld's image commands carry (its art, `carworld.png`).
    public static let atlas: UInt32 = 0
    /// The atlas number of its text's font (`round.png`, Quintet Round).
    public static let fontAtlas: UInt32 = 1

    /// A region of the atlas; the raw value is its index in carworld.json's `regions`.
    public enum Region: UInt32, CaseIterable, Sendable {
        case background = 0
        case carBlue, carPurple, carRed, carYellow
        case cloud, crossingGlow
        case lampGreen, lampRed, lampYellow, lightPost
        case point, scorePanel, trophy

        /// The SVG's file name without `.svg` (the region's name in the atlas index).
        public var name: String {
            switch self {
            case .background: "background"
            case .carBlue: "car-blue"
            case .carPurple: "car-purple"
            case .carRed: "car-red"
            case .carYellow: "car-yellow"
            case .cloud: "cloud"
            case .crossingGlow: "crossing-glow"
            case .lampGreen: "lamp-green"
            case .lampRed: "lamp-red"
            case .lampYellow: "lamp-yellow"
            case .lightPost: "light-post"
            case .point: "point"
            case .scorePanel: "score-panel"
            case .trophy: "trophy"
            }
        }

        /// Width in points (the SVG's `width`).
        public var width: Float { size.width }
        /// Height in points (the SVG's `height`).
        public var height: Float { size.height }

        var size: (width: Float, height: Float) {
            switch self {
            case .background: (1024, 768)
            case .carBlue, .carPurple, .carRed, .carYellow: (60, 30)
            case .cloud: (88, 60)
            case .crossingGlow: (48, 48)
            case .lampGreen, .lampRed, .lampYellow: (18, 18)
            case .lightPost: (28, 80)
            case .point: (44, 44)
            case .scorePanel: (180, 56)
            case .trophy: (160, 180)
            }
        }
    }

    /// The car images, one per colour, in the order cars are given them.
    public static let cars: [Region] = [.carRed, .carBlue, .carYellow, .carPurple]

    /// Where a lit lamp's top-left corner sits on the light post (lightPost's local points): the
    /// sockets are centred on (14, 11) red, (14, 29) yellow, (14, 47) green.
    public static func lampOffset(_ lamp: Region) -> (x: Float, y: Float) {
        switch lamp {
        case .lampRed: (5, 2)
        case .lampYellow: (5, 20)
        default: (5, 38)
        }
    }
}
