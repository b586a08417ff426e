// swift-tools-version: 6.1
//
// CropKit reads top to bottom as the data flows, one job per floor; a floor imports only floors below it:
//
//   primitives    CropGeometry      Point Size Rect AffineTransform2D Orientation AspectRatio Alignment EdgeInsets
//   crop engine   CropEngine        CropState StraightenedPicture OutputSizing RenderPlan Recipe      (primitives)
//   interaction   CropInteraction   CropSession RectangleSelection ZoomViewport DisplayLayout         (engine)
//   in the page   CropWasm          the three floors above as WebAssembly: numeric events and view states,
//                                   the module's C exports (scripts/build-wasm)                  (interaction)
//   pixels        CropPixels        PixelBuffer, resampler, kernels, pixel operations, affine render  (primitives)
//   analysis      CropAnalysis      what looks at a picture to decide geometry: auto-straighten          (pixels)
//                                   (StraightenDetector), smart crop (InterestMap), Gravity, ResizeMode
//   codecs        CropCodecs        JPEG, PNG (linked), WebP, HEIF/AVIF, GIF, TIFF, BMP, lcms2 (opened at run
//                                   time) behind C shims; EXIF, ICC, format detection                  (pixels)
//   pipeline      CropKit           one verb: source + [ImageOperation] → typed result or sink        (all above)
//   web           CropWeb           what the browser-facing faces share: MemoryBudget, RenderQueue, MediaRanges,
//                                   WebError and its middleware                                      (pipeline)
//   faces         cropkit (CLI: CropCLI; serve, edit, sign in cropkit-server) · CropEditor (browser editor +
//                 render API) · CropServer (cropkit serve)                                                   (web)
//
// Faces parse their input, call the pipeline and report; wire formats (the editor's JSON) live in their face.
// See docs/architecture.md.

import PackageDescription

let package = Package(
    name: "CropKit",
    // The floors of the highest dependency: hummingbird-websocket needs macOS 14 and iOS 17 (swift-prometheus and
    // swift-websocket 13 and 16, Hummingbird 11 and 15).
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "CropKit", targets: ["CropKit"]),
        .library(name: "CropGeometry", targets: ["CropGeometry", "CropEngine", "CropInteraction"]),
        .library(name: "CropEditor", targets: ["CropEditor"]),
        .library(name: "CropServer", targets: ["CropServer"]),
        .executable(name: "cropkit", targets: ["cropkit"]),
        .executable(name: "cropkit-server", targets: ["cropkit-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // Imported directly (loggers, NIO's buffers), though the packages above bring them.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
    ],
    targets: [
        // Primitives: points, sizes, rectangles, transforms, the 8 orientations, aspect ratios, alignments.
        .target(name: "CropGeometry"),

        // The crop engine: a non-destructive crop state whose every operation keeps the crop inside the
        // straightened picture at minimal zoom, its render plan and its recipe.
        .target(name: "CropEngine", dependencies: ["CropGeometry"]),

        // Interaction models that drive any crop UI (no UI framework, no wire format).
        .target(name: "CropInteraction", dependencies: ["CropEngine", "CropGeometry"]),

        // The engine's WebAssembly face: events and view states as numbers and the C functions the module exports.
        // Natively an ordinary target (its tests drive it to record the states the module must reproduce);
        // scripts/build-wasm compiles it with the three floors above for the page (Embedded Swift, wasm32).
        .target(name: "CropWasm", dependencies: ["CropInteraction", "CropEngine", "CropGeometry"]),

        // The pixel buffer, resampling and every pixel operation.
        .target(name: "CropPixels", dependencies: ["CropGeometry", "CPixelKernels"]),
        // Its kernels for instruction sets beyond the baseline (AVX2), in C for the per-function target attribute
        // Swift lacks; chosen at run time, the portable Swift kernels kept as the reference they must match.
        .target(name: "CPixelKernels"),

        // Image analysis: photo-tuned heuristics that look at a picture to decide geometry (auto-straighten, smart
        // crop). They read only PixelBuffer's public face; the pixel floor never calls up into them.
        .target(name: "CropAnalysis", dependencies: ["CropGeometry", "CropPixels"]),

        // The two C libraries CropKit links, as system libraries: pkg-config finds their headers and library
        // wherever the system keeps them (Debian's /usr, Homebrew's prefix), and the providers name the packages.
        .systemLibrary(
            name: "CLibJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(
            name: "CLibPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev", "zlib1g-dev"]), .brew(["libpng"])]),
        // zlib itself, for the editor's gzip-compressed page.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),

        // C shims: libjpeg-turbo and libpng report errors through setjmp/longjmp, which Swift cannot call.
        .target(name: "CJPEG", dependencies: ["CLibJPEG", "CRuntimeLibrary"]),
        .target(name: "CPNG", dependencies: ["CLibPNG", "CRuntimeLibrary"]),

        // Finding a library at run time (dlopen), by one table of file names per platform, shared by the nine shims
        // below, which open libwebp, libheif, libavif, giflib, libtiff, Little CMS, libjxl, OpenJPEG, FreeType and
        // HarfBuzz: the build needs none of their headers, only the system's runtime libraries.
        .target(name: "CRuntimeLibrary", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "CWebP", dependencies: ["CRuntimeLibrary"]),
        .target(name: "CLCMS", dependencies: ["CRuntimeLibrary"]),
        .target(name: "CHEIF", dependencies: ["CRuntimeLibrary"]),
        .target(name: "CGIF", dependencies: ["CRuntimeLibrary"]),  // read only
        .target(name: "CTIFF", dependencies: ["CRuntimeLibrary"]),  // read only
        // libavif 0.11: 10-bit AVIF output, which libheif 1.15's AV1 path aborts on.
        .target(name: "CAVIF", dependencies: ["CRuntimeLibrary"]),
        .target(name: "CJXL", dependencies: ["CRuntimeLibrary"]),
        .target(name: "CJP2", dependencies: ["CRuntimeLibrary"]),
        // FreeType and HarfBuzz: text watermarks.
        .target(name: "CFont", dependencies: ["CRuntimeLibrary"]),

        // Codecs: JPEG, PNG, WebP, HEIF/AVIF, GIF, TIFF, BMP; EXIF, ICC, colour conversion, format detection.
        .target(
            name: "CropCodecs",
            dependencies: [
                "CropGeometry", "CropPixels", "CJPEG", "CPNG", "CWebP", "CHEIF", "CGIF", "CTIFF", "CAVIF", "CLCMS",
                "CJXL", "CJP2", "CFont", "CRuntimeLibrary",
            ]),

        // The public face: load/save with orientation, thumbnail and render pipelines.
        .target(
            name: "CropKit", dependencies: ["CropGeometry", "CropEngine", "CropPixels", "CropAnalysis", "CropCodecs"]),

        // What the browser-facing faces share: admission by memory, the render queue, `Accept` negotiation and the one
        // HTTP error type with its middleware.
        .target(
            name: "CropWeb",
            dependencies: [
                "CropKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),

        // The web editor and render API: a Hummingbird server over the crop engine's editor session.
        .target(
            name: "CropEditor",
            dependencies: [
                "CropKit", "CropCodecs", "CropInteraction", "CropWeb", "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources")]
        ),

        // `cropkit serve`: the image service (signed GET URLs whose options are the CLI's flags).
        .target(
            name: "CropServer",
            dependencies: [
                "CropKit", "CropCodecs", "CropWeb", "CropEditor",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),

        // The command-line tool: its commands (CropCLI, with the bundled samples) and two binaries, so that `cropkit`
        // builds without the web stack: `cropkit` itself, and `cropkit-server` (serve, edit, sign), which `cropkit
        // serve|edit|sign` runs in its place.
        //
        // `cropkit` starts with FoundationEssentials alone (loading Foundation, its internationalisation and ICU cost
        // each run 3-4 ms): its modules import FoundationEssentials where it exists, and the bundled samples are a C
        // target's resources (SwiftPM gives a Swift target with resources an accessor that imports Foundation).
        .target(
            name: "CropCLI",
            dependencies: [
                "CropKit", "CropCodecs", "CropSamples",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "CropSamples", resources: [.copy("Samples")]),
        .executableTarget(name: "cropkit", dependencies: ["CropCLI"]),
        .executableTarget(
            name: "cropkit-server",
            dependencies: [
                "CropCLI", "CropKit", "CropCodecs", "CropEditor", "CropServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The fuzz targets' bodies, one per parser of untrusted bytes (Fuzz/README.md): run by libFuzzer through
        // CropKitFuzz, and on every seed by FuzzReplayTests.
        .target(
            name: "FuzzBodies",
            dependencies: [
                "CropCodecs", "CropPixels", "CropGeometry", "CropEngine", "CropInteraction", "CropAnalysis",
                "CropKit", "CropEditor", "CropServer", "CropWasm",
            ],
            path: "Fuzz/Bodies"),

        // Helpers shared by the tests and benchmarks (a seeded random generator).
        .target(name: "CropTestSupport", dependencies: ["CropEngine", "CropPixels"], path: "Tests/Support"),

        .testTarget(name: "CropGeometryTests", dependencies: ["CropGeometry", "CropTestSupport"]),
        .testTarget(name: "CropEngineTests", dependencies: ["CropEngine", "CropTestSupport"]),
        .testTarget(name: "CropInteractionTests", dependencies: ["CropInteraction", "CropTestSupport"]),
        .testTarget(
            name: "CropWasmTests",
            dependencies: [
                "CropWasm", "CropInteraction", "CropEngine", "CropGeometry", "CropEditor", "CropTestSupport",
            ]),
        .testTarget(
            name: "CropPixelsTests", dependencies: ["CropPixels", "CropGeometry", "CropAnalysis", "CropTestSupport"]),
        .testTarget(
            name: "CropAnalysisTests", dependencies: ["CropAnalysis", "CropPixels", "CropGeometry", "CropTestSupport"]),
        .testTarget(
            name: "CropCodecsTests",
            dependencies: ["CropCodecs", "CropPixels", "CropTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CropKitTests",
            dependencies: ["CropKit", "CropCodecs", "CropPixels", "CropInteraction", "CropTestSupport"],
            resources: [.copy("Fixtures")]),
        // End-to-end tests of the built `cropkit` binary; depending on it makes SwiftPM build it first.
        .testTarget(
            name: "CLITests",
            dependencies: ["CropKit", "CropCodecs", "CropCLI", "cropkit", "cropkit-server", "CropTestSupport"]),
        .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzBodies"]),
        .testTarget(
            name: "CropEditorTests",
            dependencies: [
                "CropEditor", "CropCodecs", "CropWasm", "CropTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CropServerTests",
            dependencies: [
                "CropServer", "CropCodecs", "CropTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ]
)

// Release-mode benchmarks, built only when asked for, so a plain `swift build` of the library never compiles them
// (`CROPKIT_BENCHMARKS=1 swift run -c release PixelsBench`, see Benchmarks/): the pixel engine's micro-benchmarks, and
// the CLI's commands timed inside one process.
if Context.environment["CROPKIT_BENCHMARKS"] != nil {
    package.targets.append(
        .executableTarget(
            name: "PixelsBench", dependencies: ["CropPixels", "CropAnalysis", "CropTestSupport"],
            path: "Benchmarks/PixelsBench"))
    // A `cropkit` command run several times in one process (compare.py's "cropkit in", beside "vips 8.18 in").
    package.targets.append(
        .executableTarget(
            name: "CropKitTasks",
            dependencies: ["CropCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Benchmarks/CropKitTasks"))
}

// libFuzzer: one executable for every target (`Fuzz/run.sh TARGET SECONDS` picks one with CROPKIT_FUZZ_TARGET),
// built only when asked for, with the fuzzer and address sanitizer. The targets' bodies (FuzzBodies, above) are
// ordinary code: FuzzReplayTests replays every seed corpus through them in `swift test`.
if Context.environment["CROPKIT_FUZZ"] != nil {
    package.targets.append(.target(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"))
    package.targets.append(
        .executableTarget(
            name: "CropKitFuzz", dependencies: ["CFuzzDriver", "FuzzBodies"], path: "Fuzz/Driver"))
}

// The portable build (`.ci/portable-test`): CROPKIT_PORTABLE=1 compiles the pixel floor and the JPEG shim without
// their x86-64 intrinsics, as on arm64, and keeps only the library floors and their tests, so no server package is
// fetched or built.
if Context.environment["CROPKIT_PORTABLE"] != nil {
    // The library products' targets and every target they use, and the test targets that use nothing else: derived
    // from the targets' own dependencies, so a new floor or shim needs no second list.
    let byName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    func uses(_ target: Target) -> [String] {
        target.dependencies.compactMap { dependency in
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): name
            default: nil
            }
        }
    }
    var library: Set<String> = []
    var pending = ["CropKit", "CropGeometry", "CropEngine", "CropInteraction", "CropTestSupport"]
    while let name = pending.popLast() {
        guard library.insert(name).inserted, let target = byName[name] else { continue }
        pending += uses(target)
    }
    let tests = package.targets.filter { $0.type == .test && Set(uses($0)).isSubset(of: library) }.map(\.name)
    let kept = library.union(tests)
    package.targets = package.targets.filter { kept.contains($0.name) }
    package.products = package.products.filter { ["CropKit", "CropGeometry"].contains($0.name) }
    package.dependencies = []
    for target in package.targets where target.name == "CropPixels" {
        target.swiftSettings = [.define("CROPKIT_PORTABLE")]
    }
    for target in package.targets where ["CPixelKernels", "CJPEG"].contains(target.name) {
        target.cSettings = [.define("CROPKIT_PORTABLE")]
    }
}

// CROPKIT_OPTIMIZE=1 (CI's build and test steps, .ci/run) compiles the pixel, analysis, codec, engine and pipeline
// floors (and the tests' support library) with -O while keeping their asserts (-assert-config Debug): the test suite
// runs the code that ships, several times faster than unoptimized pixel loops, with every debug check still on. Only
// for this package as the root (SwiftPM refuses unsafe flags in a dependency, and nothing sets the variable there).
if Context.environment["CROPKIT_OPTIMIZE"] != nil {
    // And the tests' support library, which draws their synthetic pictures pixel by pixel: unoptimized, a 384×256
    // tilted scene (16 samples a pixel) took 2.6 s, and the straighten detector's 24-scene test 64 s (2.8 s now).
    let optimized: Set<String> = [
        "CropGeometry", "CropEngine", "CropPixels", "CropAnalysis", "CropCodecs", "CropKit", "CropTestSupport",
    ]
    for target in package.targets where optimized.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-O", "-assert-config", "Debug"])]
    }
    // The pixel floor's C kernels with it: at -O0 every intrinsic would go through the stack.
    for target in package.targets where target.name == "CPixelKernels" {
        target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-O2"])]
    }
}
