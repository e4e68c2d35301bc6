// swift-tools-version:6.2
// Fuzz targets for Quintet's parsers of untrusted bytes (libFuzzer, `-sanitize=fuzzer`).
// A separate package so the fuzzing instrumentation never touches the main build:
// `make fuzz` (scripts/fuzz.sh) builds each target and runs it for a set time.
import PackageDescription

let package = Package(
    name: "quintet-fuzz",
    dependencies: [
        .package(name: "quintet", path: ".."),
        // ByteBuffer and HTTP1Channel, for the Icecast sniffer's end-of-head search (both are
        // already in the graph through the root package).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        // libFuzzer's driver for SwiftPM executables.
        .target(name: "FuzzDriver"),
        // WAV audio: AudioCore's WAVReader.
        .executableTarget(name: "FuzzWAV", dependencies: ["FuzzDriver", .product(name: "AudioCore", package: "quintet")]),
        // MP3 files (ID3v1, ID3v2.2–2.4, MPEG frames, Xing/VBRI/LAME): MediaTags.
        .executableTarget(name: "FuzzMP3", dependencies: ["FuzzDriver", .product(name: "MediaTags", package: "quintet")]),
        // FLAC metadata blocks, Ogg Vorbis/Opus pages and headers, MP4 atoms: MediaTags.
        .executableTarget(name: "FuzzFLAC", dependencies: ["FuzzDriver", .product(name: "MediaTags", package: "quintet")]),
        .executableTarget(name: "FuzzOgg", dependencies: ["FuzzDriver", .product(name: "MediaTags", package: "quintet")]),
        .executableTarget(name: "FuzzMP4", dependencies: ["FuzzDriver", .product(name: "MediaTags", package: "quintet")]),
        // WAV tags (RIFF INFO, id3 chunk): MediaTags.
        .executableTarget(name: "FuzzWAVTags", dependencies: ["FuzzDriver", .product(name: "MediaTags", package: "quintet")]),
        // Performer credits (TMCL, TIPL, IPLS, IPL, PERFORMER) and MusicBrainz ids in ID3, FLAC and MP4: MediaTags.
        .executableTarget(name: "FuzzCredits", dependencies: ["FuzzDriver", .product(name: "MediaTags", package: "quintet")]),
        // Accelerometer logs (CSV, JSON Lines) and the cadence estimators behind them: Cadence.
        .executableTarget(name: "FuzzSensorLog", dependencies: ["FuzzDriver", .product(name: "Cadence", package: "quintet")]),
        // A live source's bytes through the radio's MPEG audio / ADTS frame scanner: Radio.
        .executableTarget(name: "FuzzAudioFrames", dependencies: ["FuzzDriver", .product(name: "Radio", package: "quintet"),
                                                                .product(name: "MediaTags", package: "quintet")]),
        // What reaches the server from anyone: the Icecast request head on the shared port, a
        // crowd report's JSON, query strings and form bodies. Internal types of QuintetServer,
        // reached with `@testable import` (debug builds are compiled for testing).
        .executableTarget(name: "FuzzIcecastHead", dependencies: [
            "FuzzDriver", .product(name: "QuintetServer", package: "quintet"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
        ]),
        .executableTarget(name: "FuzzCrowdJSON", dependencies: ["FuzzDriver", .product(name: "QuintetServer", package: "quintet")]),
        .executableTarget(name: "FuzzFormFields", dependencies: ["FuzzDriver", .product(name: "QuintetServer", package: "quintet")]),
    ]
)
