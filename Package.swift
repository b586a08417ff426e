// swift-tools-version: 6.1
//
// CropKit reads top to bottom as the data flows:
//   CropGeometry → CropPixels → CropCodecs (CJPEG, CPNG) → CropKit → cropkit (CLI)
// A lower layer never imports a higher one. CropGeometry imports only the standard library and Foundation.

import PackageDescription

let package = Package(
    name: "CropKit",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "CropKit", targets: ["CropKit"]),
        .library(name: "CropGeometry", targets: ["CropGeometry"]),
        .executable(name: "cropkit", targets: ["cropkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Pure geometry: orientations, content modes, the crop engine and interaction models. No pixels, no UI.
        .target(name: "CropGeometry"),

        // The pixel buffer, resampling and every pixel operation.
        .target(name: "CropPixels", dependencies: ["CropGeometry"]),

        // C shims: libjpeg-turbo and libpng report errors through setjmp/longjmp, which Swift cannot call.
        .target(
            name: "CJPEG",
            linkerSettings: [.linkedLibrary("jpeg")]
        ),
        .target(
            name: "CPNG",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]
        ),

        // Codecs: JPEG, PNG, EXIF, ICC, format detection.
        .target(name: "CropCodecs", dependencies: ["CropGeometry", "CropPixels", "CJPEG", "CPNG"]),

        // The public face: load/save with orientation, thumbnail and render pipelines.
        .target(name: "CropKit", dependencies: ["CropGeometry", "CropPixels", "CropCodecs"]),

        // The command-line tool.
        .executableTarget(
            name: "cropkit",
            dependencies: ["CropKit", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            resources: [.copy("Samples")]
        ),

        // Release-mode micro-benchmarks of the pixel engine (not a test).
        .executableTarget(
            name: "PixelsBench", dependencies: ["CropPixels", "CropTestSupport"], path: "Benchmarks/PixelsBench"),

        // Helpers shared by the tests and benchmarks (a seeded random generator).
        .target(name: "CropTestSupport", path: "Tests/Support"),

        .testTarget(name: "CropGeometryTests", dependencies: ["CropGeometry", "CropTestSupport"]),
        .testTarget(name: "CropPixelsTests", dependencies: ["CropPixels", "CropGeometry", "CropTestSupport"]),
        .testTarget(
            name: "CropCodecsTests",
            dependencies: ["CropCodecs", "CropPixels", "CropTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "CropKitTests", dependencies: ["CropKit"], resources: [.copy("Fixtures")]),
        // End-to-end tests of the built `cropkit` binary; depending on it makes SwiftPM build it first.
        .testTarget(name: "CLITests", dependencies: ["CropKit", "cropkit"]),
    ]
)
