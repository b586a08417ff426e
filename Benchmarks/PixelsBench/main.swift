// PixelsBench: release-mode micro-benchmarks of the CropPixels engine on synthetic buffers.
//
//   swift run -c release PixelsBench                 # every benchmark, medians of several runs
//   swift run -c release PixelsBench resize rotate   # only those whose name contains a word given
//   swift run -c release PixelsBench raw-resize IN.rgb W H OUT_W OUT_H OUT.rgb
//                                                    # resizes raw RGB8 bytes (for comparisons with Pillow)
//
// Timings are wall-clock medians; the machine's other load shows up in them, so compare runs made side by side.

import CropGeometry
import CropPixels
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A deterministic generator (SplitMix64) for synthetic content.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A photo-like synthetic image: smooth gradients, edges and some noise.
func syntheticImage(width: Int, height: Int, format: PixelFormat) -> PixelBuffer {
    var buffer = try! PixelBuffer(width: width, height: height, format: format)
    var rng = SplitMix64(state: 42)
    let c = format.channelCount
    let maxValue = format.depth.maxValue
    buffer.withUnsafeMutableRows { rows in
        for y in 0..<height {
            let row = rows.row(y)
            for x in 0..<width {
                let noise = Int(rng.next() & 31)
                for ch in 0..<c {
                    var v = ((x * (ch + 1) + y * (3 - ch % 3)) % 512)
                    if v > 255 { v = 511 - v }
                    if (x / 97 + y / 89) % 2 == 0 { v = 255 - v }
                    if format.hasAlpha && ch == c - 1 { v = 255 }
                    v = min(255, v + noise - 16 < 0 ? 0 : v + noise - 16)
                    let sample = v * maxValue / 255
                    if format.depth == .eight {
                        row.storeBytes(of: UInt8(sample), toByteOffset: x * c + ch, as: UInt8.self)
                    } else {
                        row.storeBytes(of: UInt16(sample), toByteOffset: (x * c + ch) * 2, as: UInt16.self)
                    }
                }
            }
        }
    }
    return buffer
}

/// Runs `body` `runs` times after one warm-up and returns the median wall time in milliseconds.
func medianMilliseconds(runs: Int, _ body: () throws -> Void) rethrows -> Double {
    try body()
    var times: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let d = try clock.measure { try body() }
        times.append(Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
    }
    times.sort()
    return times[times.count / 2]
}

func report(_ name: String, _ ms: Double, note: String = "") {
    let padded = name.padding(toLength: 58, withPad: " ", startingAt: 0)
    print("\(padded) \(String(format: "%8.2f", ms)) ms  \(note)")
}

// MARK: Raw resize (for comparisons with Pillow)

func rawResize(_ args: [String]) throws {
    guard args.count == 6, let w = Int(args[1]), let h = Int(args[2]), let ow = Int(args[3]), let oh = Int(args[4]) else {
        print("usage: PixelsBench raw-resize IN.rgb W H OUT_W OUT_H OUT.rgb")
        exit(2)
    }
    guard let file = fopen(args[0], "rb") else { print("cannot open \(args[0])"); exit(1) }
    var bytes = [UInt8](repeating: 0, count: w * h * 3)
    _ = fread(&bytes, 1, bytes.count, file)
    fclose(file)
    let image = try PixelBuffer(width: w, height: h, layout: .rgb, samples: bytes)
    let out = try image.resized(width: ow, height: oh)
    let samples = out.samples.map { UInt8($0) }
    guard let o = fopen(args[5], "wb") else { print("cannot write \(args[5])"); exit(1) }
    _ = fwrite(samples, 1, samples.count, o)
    fclose(o)
}

// MARK: Benchmarks

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "raw-resize" {
    try rawResize(Array(arguments.dropFirst()))
    exit(0)
}

func selected(_ name: String) -> Bool {
    arguments.isEmpty || arguments.contains { name.lowercased().contains($0.lowercased()) }
}

print("PixelsBench: median wall time, \(ProcessInfoShim.cores) cores")

let big = syntheticImage(width: 6000, height: 4000, format: .rgb8)
let small = syntheticImage(width: 750, height: 500, format: .rgb8)

if selected("resize rgb8 6000x4000 -> 1920x1280 lanczos3") {
    let ms = try medianMilliseconds(runs: 7) { _ = try big.resized(width: 1920, height: 1280) }
    report("resize RGB8 6000×4000 → 1920×1280 Lanczos3", ms, note: "(target ≲ 40)")
}
if selected("resize rgb8 750x500 -> 256x171 lanczos3") {
    let ms = try medianMilliseconds(runs: 31) { _ = try small.resized(width: 256, height: 171) }
    report("resize RGB8 750×500 → 256×171 Lanczos3", ms, note: "(target ≲ 3)")
}

/// Output → source for a picture straightened by `degrees` about its centre and cropped to `output` at scale 1.
func straighten(degrees: Double, source: PixelSize, output: PixelSize, scale: Double = 1) -> AffineTransform2D {
    AffineTransform2D.translation(x: -Double(output.width) / 2, y: -Double(output.height) / 2)
        .concatenating(.rotation(counterClockwiseOnScreen: degrees * Double.pi / 180))
        .scaledBy(x: 1 / scale, y: 1 / scale)
        .translatedBy(x: Double(source.width) / 2, y: Double(source.height) / 2)
}

let bigSize = PixelSize(6000, 4000)
for filter in [ResamplingFilter.catmullRom, .lanczos3] {
    let name = "render straighten 7.5° 6000×4000 → 4700×3100 RGB8 \(filter)"
    if selected(name) {
        let out = PixelSize(4700, 3100)
        let r = try AffineRenderer(
            sourceSize: bigSize, outputSize: out, transform: straighten(degrees: 7.5, source: bigSize, output: out),
            rotationFilter: filter)
        let ms = try medianMilliseconds(runs: 5) { _ = try r.render(big) }
        report(name, ms, note: filter == .catmullRom ? "(target ≲ 90)" : "")
    }
}
if selected("render straighten 7.5° reduced 4× 6000×4000 → 1175×775 RGB8 catmull-rom") {
    let out = PixelSize(1175, 775)
    let r = try AffineRenderer(
        sourceSize: bigSize, outputSize: out,
        transform: straighten(degrees: 7.5, source: bigSize, output: out, scale: 0.25))
    let ms = try medianMilliseconds(runs: 5) { _ = try r.render(big) }
    report("render straighten 7.5° reduced 4× → 1175×775 RGB8 Catmull-Rom", ms)
}
if selected("render axis-aligned crop+turn+scale (separable) 6000×4000 → 1280×1920") {
    let t = Orientation.rightTop.inverseTransform(storedSize: Size(width: 1920, height: 1280))
        .scaledBy(x: 3.125, y: 3.125)
    let r = try AffineRenderer(sourceSize: bigSize, outputSize: PixelSize(1280, 1920), transform: t)
    let ms = try medianMilliseconds(runs: 5) { _ = try r.render(big) }
    report("render quarter turn + resize (separable) → 1280×1920", ms)
}
if selected("orientation bake rotate 90 6000×4000 rgb8") {
    let ms = medianMilliseconds(runs: 5) { _ = big.applyingOrientation(.rightTop) }
    report("orientation bake 6 (90° cw) 6000×4000 RGB8", ms)
}
if selected("stream resize rgb8 6000x4000 -> 1920x1280 pushed 16 rows at a time") {
    let bands = (0..<250).map { try! big.cropped(x: 0, y: $0 * 16, width: 6000, height: 16) }
    let ms = try medianMilliseconds(runs: 5) {
        let s = try ResizeStream(sourceWidth: 6000, sourceHeight: 4000, format: .rgb8, outputWidth: 1920, outputHeight: 1280)
        var out = try PixelBuffer(width: 1920, height: 1280, format: .rgb8)
        var row = 0
        for b in bands {
            try s.push(b)
            row += try s.pull(into: &out, startRow: row)
        }
    }
    report("ResizeStream RGB8 6000×4000 → 1920×1280, 16-row pushes", ms)
}
for format in [PixelFormat.rgba8, .rgb16] {
    let name = "resize \(format) 6000x4000 -> 1920x1280 lanczos3"
    if selected(name) {
        let image = syntheticImage(width: 6000, height: 4000, format: format)
        let ms = try medianMilliseconds(runs: 3) { _ = try image.resized(width: 1920, height: 1280) }
        report("resize \(format) 6000×4000 → 1920×1280 Lanczos3", ms)
    }
}
if selected("resize rgb8 linear light 6000x4000 -> 1920x1280") {
    let ms = try medianMilliseconds(runs: 3) {
        _ = try big.resized(width: 1920, height: 1280, options: ResampleOptions(linearLight: true))
    }
    report("resize RGB8 linear light 6000×4000 → 1920×1280", ms)
}

enum ProcessInfoShim {
    static var cores: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
if selected("threads1") {
    let ms = try medianMilliseconds(runs: 5) { _ = try big.resized(width: 1920, height: 1280, options: ResampleOptions(maxThreads: 1)) }
    report("resize 1 thread", ms)
    let bands = (0..<250).map { try! big.cropped(x: 0, y: $0 * 16, width: 6000, height: 16) }
    for threads in [1, 2] {
        let ms2 = try medianMilliseconds(runs: 5) {
            let s = try ResizeStream(sourceWidth: 6000, sourceHeight: 4000, format: .rgb8, outputWidth: 1920, outputHeight: 1280, options: ResampleOptions(maxThreads: threads))
            var out = try PixelBuffer(width: 1920, height: 1280, format: .rgb8)
            var row = 0
            for b in bands { try s.push(b); row += try s.pull(into: &out, startRow: row) }
        }
        report("stream \(threads) threads", ms2)
    }
}
if selected("groupsweep") {
    let bands = (0..<250).map { try! big.cropped(x: 0, y: $0 * 16, width: 6000, height: 16) }
    for g in [16, 32, 64, 128, 256] {
        let ms2 = try medianMilliseconds(runs: 5) {
            let s = try ResizeStream(sourceWidth: 6000, sourceHeight: 4000, format: .rgb8, outputWidth: 1920, outputHeight: 1280, groupRows: g)
            var out = try PixelBuffer(width: 1920, height: 1280, format: .rgb8)
            var row = 0
            for b in bands { try s.push(b); row += try s.pull(into: &out, startRow: row) }
        }
        report("stream group \(g)", ms2)
    }
    let ms3 = try medianMilliseconds(runs: 5) {
        let s = try ResizeStream(sourceWidth: 6000, sourceHeight: 4000, format: .rgb8, outputWidth: 1920, outputHeight: 1280)
        try s.push(big)
    }
    report("stream one push", ms3)
}
if selected("onepushonly") {
    for t in [1, 2] {
        let ms3 = try medianMilliseconds(runs: 9) {
            let s = try ResizeStream(sourceWidth: 6000, sourceHeight: 4000, format: .rgb8, outputWidth: 1920, outputHeight: 1280, options: ResampleOptions(maxThreads: t))
            try s.push(big)
        }
        report("stream one push threads \(t)", ms3)
    }
}
