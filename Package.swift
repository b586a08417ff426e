// swift-tools-version: 6.1
//
// CropKit reads top to bottom as the data flows:
//   CropGeometry → CropPixels → CropCodecs (CJPEG, CPNG) → CropKit → CropEditor (web) → cropkit (CLI)
// A lower layer never imports a higher one. CropGeometry imports only the standard library and Foundation.

import PackageDescription

let package = Package(
    name: "CropKit",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "CropKit", targets: ["CropKit"]),
        .library(name: "CropGeometry", targets: ["CropGeometry"]),
        .library(name: "CropEditor", targets: ["CropEditor"]),
        .executable(name: "cropkit", targets: ["cropkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", exact: "2.8.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
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

        // The web editor and render API: a Hummingbird server over the crop engine's editor session.
        .target(
            name: "CropEditor",
            dependencies: [
                "CropKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            resources: [.copy("Resources")]
        ),

        // The command-line tool.
        .executableTarget(
            name: "cropkit",
            dependencies: [
                "CropKit", "CropEditor", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
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
        .testTarget(
            name: "CropEditorTests",
            dependencies: [
                "CropEditor",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ]
)
