import CropKit
import Foundation
import Testing

/// Runs the built `cropkit` binary and makes small fixture images, for end-to-end tests.
enum CLI {
    /// What one run produced.
    struct Run: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String

        var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    /// The `cropkit` executable: `$CROPKIT_BIN`, else the one SwiftPM built beside this test bundle.
    static let binary: String? = {
        if let path = ProcessInfo.processInfo.environment["CROPKIT_BIN"] { return path }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        // Linux: .build/debug/CropKitPackageTests.xctest; macOS: …/CropKitPackageTests.xctest/Contents/MacOS/….
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("cropkit").path
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDir), !isDir.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
            dir.deleteLastPathComponent()
        }
        return nil
    }()

    /// The bundled samples folder in the source tree.
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/CropSamples/Samples").standardized.path

    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized.path

    /// Runs `cropkit ARGS…` in `directory` (with `environment` added to this process's) and waits for it.
    static func run(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Run {
        let binary = try #require(binary, "the cropkit binary was not found next to the test bundle")
        return try runProgram(binary, arguments, in: directory, environment: environment)
    }

    /// Runs the program at `path` with `arguments` in `directory` and waits for it.
    static func runProgram(
        _ path: String, _ arguments: [String], in directory: String, environment: [String: String] = [:]
    ) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // Files, not pipes: a chatty child can never block on a full pipe.
        let outPath = directory + "/.stdout-\(UUID().uuidString)", errPath = directory + "/.stderr-\(UUID().uuidString)"
        try Data().write(to: URL(fileURLWithPath: outPath))
        try Data().write(to: URL(fileURLWithPath: errPath))
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Run(
            status: process.terminationStatus,
            stdout: try String(contentsOfFile: outPath, encoding: .utf8),
            stderr: try String(contentsOfFile: errPath, encoding: .utf8))
    }

    /// A new empty folder, removed by the caller with `removeItem`.
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "cropkit-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes a `width × height` RGB(A) picture whose *displayed* pixel (x, y) is `color(x, y)`, stored with EXIF
    /// `orientation` (so the stored pixels are turned the other way), as PNG or JPEG by the extension.
    static func writePicture(
        _ path: String, width: Int, height: Int, orientation: Orientation = .up, alpha: Bool = false,
        quality: Int = 95, color: (Int, Int) -> [UInt8]
    ) throws {
        var samples: [UInt8] = []
        samples.reserveCapacity(width * height * (alpha ? 4 : 3))
        for y in 0..<height {
            for x in 0..<width {
                let c = color(x, y)
                samples += alpha ? (c.count == 4 ? c : c + [255]) : Array(c.prefix(3))
            }
        }
        let displayed = try PixelBuffer(width: width, height: height, layout: alpha ? .rgba : .rgb, samples: samples)
        let stored = displayed.applyingOrientation(orientation.inverse)
        try Image(pixels: stored, metadata: ImageMetadata(orientation: orientation))
            .write(toFile: path, options: SaveOptions(quality: quality))
    }

    /// Decodes an output upright, as a viewer shows it.
    static func load(_ path: String) throws -> PixelBuffer {
        try Image(contentsOfFile: path).pixels
    }
}

/// A position-coded picture: red = x, green = y, blue = 128 (so any pixel tells where it came from).
func positionColor(_ x: Int, _ y: Int) -> [UInt8] {
    [UInt8(x & 0xFF), UInt8(y & 0xFF), 128]
}

/// Asserts that `pixel` is within `tolerance` of `expected` on every channel.
func expectPixel(
    _ pixel: [Int], _ expected: [Int], tolerance: Int = 0, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let close =
        pixel.count >= expected.count
        && zip(pixel, expected).allSatisfy { abs($0 - $1) <= tolerance }
    #expect(
        close, "pixel \(pixel) is not within \(tolerance) of \(expected)\(comment.map { ": \($0)" } ?? "")",
        sourceLocation: sourceLocation)
}
