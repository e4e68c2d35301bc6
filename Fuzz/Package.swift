// swift-tools-version:6.2
// Fuzz targets for Quintet's parsers of untrusted bytes (libFuzzer, `-sanitize=fuzzer`).
// A separate package so the fuzzing instrumentation never touches the main build:
// `make fuzz` (or scripts/fuzz.sh) builds each target and runs it for a set time.
import PackageDescription

let package = Package(
    name: "quintet-fuzz",
    dependencies: [.package(name: "quintet", path: "..")],
    targets: [
        // WAV files: AudioCore's WAVReader.
        .executableTarget(name: "FuzzWAV", dependencies: [.product(name: "AudioCore", package: "quintet")]),
    ]
)
