// swift-tools-version:6.2
// Fuzz targets for Quintet's parsers of untrusted bytes (libFuzzer, `-sanitize=fuzzer`).
// A separate package so the fuzzing instrumentation never touches the main build:
// `make fuzz` (scripts/fuzz.sh) builds each target and runs it for a set time.
import PackageDescription

let package = Package(
    name: "quintet-fuzz",
    dependencies: [.package(name: "quintet", path: "..")],
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
        // Accelerometer logs (CSV, JSON Lines) and the cadence estimators behind them: Cadence.
        .executableTarget(name: "FuzzSensorLog", dependencies: ["FuzzDriver", .product(name: "Cadence", package: "quintet")]),
    ]
)
