// PixelsBench: release-mode micro-benchmarks of the CropPixels engine on synthetic buffers.
//
//   CROPKIT_BENCHMARKS=1 swift run -c release PixelsBench                 # every benchmark, medians of several runs
//   CROPKIT_BENCHMARKS=1 swift run -c release PixelsBench resize rotate   # only those whose name contains a word given
//   CROPKIT_BENCHMARKS=1 swift run -c release PixelsBench raw-resize IN.rgb W H OUT_W OUT_H OUT.rgb
//                                                    # resizes raw RGB8 bytes (for comparisons with Pillow)
//   CROPKIT_BENCHMARKS=1 swift run -c release PixelsBench stream-rss      # peak memory of a streamed 6000×4000 → 1920×1280 resize
//
// Timings are wall-clock medians; the machine's other load shows up in them, so compare runs made side by side.

import CropAnalysis
import CropGeometry
import CropPixels
import CropTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A photo-like synthetic image: smooth gradients, edges and some noise.
func syntheticImage(width: Int, height: Int, format: PixelFormat) -> PixelBuffer {
    var buffer = try! PixelBuffer(width: width, height: height, format: format)
    var rng = SplitMix64(seed: 42)
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

// MARK: Peak memory of a streamed resize

/// `PixelsBench stream-rss`: resizes a synthetic 6000×4000 RGB8 image generated 16 rows at a time through a
/// ResizeStream (the whole source never exists) and prints the peak resident set size.
func streamPeakMemory() throws {
    var band = try PixelBuffer(width: 6000, height: 16, format: .rgb8)
    let stream = try ResizeStream(
        sourceWidth: 6000, sourceHeight: 4000, format: .rgb8, outputWidth: 1920, outputHeight: 1280,
        concurrency: .background)
    var out = try PixelBuffer(width: 1920, height: 1280, format: .rgb8)
    var row = 0
    for b in 0..<250 {
        band.withUnsafeMutableRows { rows in
            for y in 0..<16 {
                let r = rows.row8(y)
                for i in 0..<(6000 * 3) { r[i] = UInt8(truncatingIfNeeded: i &* 7 &+ (b * 16 + y) &* 13) }
            }
        }
        try stream.push(band)
        row += try stream.pull(into: &out, startRow: row)
    }
    stream.waitUntilFiltered()
    row += try stream.pull(into: &out, startRow: row)
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let peakMB = usage.ru_maxrss / 1024
    #else
    getrusage(RUSAGE_SELF, &usage)
    let peakMB = usage.ru_maxrss / (1024 * 1024)
    #endif
    print("streamed 6000×4000 → 1920×1280 (\(row) rows out): peak RSS \(peakMB) MB "
        + "(the decoded source alone would be 72 MB, the output is 7 MB)")
}

// MARK: Benchmarks

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "raw-resize" {
    try rawResize(Array(arguments.dropFirst()))
    exit(0)
}
if arguments.first == "stream-rss" {
    try streamPeakMemory()
    exit(0)
}

/// Whether a benchmark runs: all of them without arguments, else those whose name contains an argument.
func selected(_ name: String) -> Bool {
    arguments.isEmpty || arguments.contains { name.lowercased().contains($0.lowercased()) }
}

/// Runs `body(threads)` for all cores and for one thread, and prints both medians.
func bench(_ name: String, runs: Int, target: String = "", _ body: (Int) throws -> Void) rethrows {
    guard selected(name) else { return }
    let all = try medianMilliseconds(runs: runs) { try body(0) }
    let one = try medianMilliseconds(runs: runs) { try body(1) }
    report(name, all, note: "(1 thread \(String(format: "%.2f", one)) ms) \(target)")
}

/// Output → source for a picture straightened by `degrees` about its centre and cropped to `output` at `scale`.
func straighten(degrees: Double, source: PixelSize, output: PixelSize, scale: Double = 1) -> AffineTransform2D {
    AffineTransform2D.translation(x: -Double(output.width) / 2, y: -Double(output.height) / 2)
        .concatenating(.rotation(counterClockwiseOnScreen: degrees * Double.pi / 180))
        .scaledBy(x: 1 / scale, y: 1 / scale)
        .translatedBy(x: Double(source.width) / 2, y: Double(source.height) / 2)
}

print("PixelsBench: median wall time over several runs, \(ProcessInfo.processInfo.activeProcessorCount) cores")
print("(the machine is shared: compare runs made side by side; one-thread figures are the steadier ones)")

let big = syntheticImage(width: 6000, height: 4000, format: .rgb8)
let bigSize = PixelSize(validWidth: 6000, height: 4000)
let small = syntheticImage(width: 750, height: 500, format: .rgb8)

// Resampler
try bench("resize RGB8 6000×4000 → 1920×1280 Lanczos3", runs: 7, target: "target ≲ 40") { t in
    _ = try big.resized(width: 1920, height: 1280, options: ResampleOptions(maxThreads: t))
}
try bench("resize RGB8 750×500 → 256×171 Lanczos3", runs: 31, target: "target ≲ 3") { t in
    _ = try small.resized(width: 256, height: 171, options: ResampleOptions(maxThreads: t))
}
try bench("resize RGB8 6000×4000 → 1920×1280 Lanczos3, linear light", runs: 3) { t in
    _ = try big.resized(width: 1920, height: 1280, options: ResampleOptions(linearLight: true, maxThreads: t))
}
for format in [PixelFormat.rgba8, .rgb16] {
    let name = "resize \(format) 6000×4000 → 1920×1280 Lanczos3"
    if selected(name) {
        let image = syntheticImage(width: 6000, height: 4000, format: format)
        try bench(name, runs: 3) { t in
            _ = try image.resized(width: 1920, height: 1280, options: ResampleOptions(maxThreads: t))
        }
    }
}

// Streaming
let streamNames = ["ResizeStream parallel RGB8 6000×4000 → 1920×1280, 16-row pushes", "ResizeStream background"]
let bands = streamNames.contains(where: selected)
    ? (0..<250).map { try! big.cropped(x: 0, y: $0 * 16, width: 6000, height: 16) } : []
try bench(streamNames[0], runs: 5) { t in
    let s = try ResizeStream(
        sourceWidth: 6000, sourceHeight: 4000, format: .rgb8, outputWidth: 1920, outputHeight: 1280,
        options: ResampleOptions(maxThreads: t))
    var out = try PixelBuffer(width: 1920, height: 1280, format: .rgb8)
    var row = 0
    for b in bands {
        try s.push(b)
        row += try s.pull(into: &out, startRow: row)
    }
}
if selected(streamNames[1]) {
    // A stand-in decoder: each 16-row band costs the caller some work (copying it twice), as decoding would.
    var pushTimes: [Double] = [], totals: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<5 {
        var pushing = Duration.zero
        let total = try clock.measure {
            let s = try ResizeStream(
                sourceWidth: 6000, sourceHeight: 4000, format: .rgb8, outputWidth: 1920, outputHeight: 1280,
                concurrency: .background)
            var out = try PixelBuffer(width: 1920, height: 1280, format: .rgb8)
            var row = 0
            for b in bands {
                var decoded = b
                decoded[x: 0, y: 0, channel: 0] = 1  // forces a copy, like a decoder writing its rows
                pushing += try clock.measure { try s.push(decoded) }
                row += try s.pull(into: &out, startRow: row)
            }
            s.waitUntilFiltered()
            row += try s.pull(into: &out, startRow: row)
        }
        pushTimes.append(Double(pushing.components.attoseconds) / 1e15 + Double(pushing.components.seconds) * 1000)
        totals.append(Double(total.components.attoseconds) / 1e15 + Double(total.components.seconds) * 1000)
    }
    report("ResizeStream background, 16-row pushes: total", totals.sorted()[2],
           note: "(caller blocked in push \(String(format: "%.2f", pushTimes.sorted()[2])) ms)")
}

// Renderer
for filter in [ResamplingFilter.catmullRom, .lanczos3] {
    let out = PixelSize(validWidth: 4700, height: 3100)
    let name = "render straighten 7.5° 6000×4000 → 4700×3100 RGB8 \(filter)"
    if selected(name) {
        let r = try AffineRenderer(
            sourceSize: bigSize, outputSize: out, transform: straighten(degrees: 7.5, source: bigSize, output: out),
            rotationFilter: filter)
        try bench(name, runs: 5, target: filter == .catmullRom ? "target ≲ 90" : "") { t in
            _ = try r.render(big, maxThreads: t)
        }
    }
}
for format in [PixelFormat.rgba8, .rgb16] {
    let name = "render straighten 7.5° 3000×2000 → 2350×1550 \(format) Catmull-Rom"
    if selected(name) {
        let image = syntheticImage(width: 3000, height: 2000, format: format)
        let size = PixelSize(validWidth: 3000, height: 2000), out = PixelSize(validWidth: 2350, height: 1550)
        let r = try AffineRenderer(
            sourceSize: size, outputSize: out, transform: straighten(degrees: 7.5, source: size, output: out))
        try bench(name, runs: 3) { t in _ = try r.render(image, maxThreads: t) }
    }
}
if selected("render straighten 7.5° reduced 4× → 1175×775 RGB8 Catmull-Rom") {
    let out = PixelSize(validWidth: 1175, height: 775)
    let r = try AffineRenderer(
        sourceSize: bigSize, outputSize: out,
        transform: straighten(degrees: 7.5, source: bigSize, output: out, scale: 0.25))
    try bench("render straighten 7.5° reduced 4× → 1175×775 RGB8 Catmull-Rom", runs: 5) { t in
        _ = try r.render(big, maxThreads: t)
    }
}
if selected("render straighten 7.5° reduced 20× → 235×155 RGB8 Catmull-Rom (box pre-shrink 6×)") {
    let out = PixelSize(validWidth: 235, height: 155)
    let r = try AffineRenderer(
        sourceSize: bigSize, outputSize: out,
        transform: straighten(degrees: 7.5, source: bigSize, output: out, scale: 0.05))
    try bench("render straighten 7.5° reduced 20× → 235×155 RGB8 Catmull-Rom (box pre-shrink 6×)", runs: 5) { t in
        _ = try r.render(big, maxThreads: t)
    }
}
if selected("render quarter turn + resize (separable path) → 1280×1920") {
    let t = Orientation.rightTop.inverseTransform(storedSize: Size(width: 1920, height: 1280)).scaledBy(x: 3.125, y: 3.125)
    let r = try AffineRenderer(sourceSize: bigSize, outputSize: PixelSize(validWidth: 1280, height: 1920), transform: t)
    try bench("render quarter turn + resize (separable path) → 1280×1920", runs: 5) { t in
        _ = try r.render(big, maxThreads: t)
    }
}

// The face scan: dlib's HOG detector (features, five filters, the 5/6 pyramid) on the copy HOGFaceDetector makes of a
// 3:2 photo for faces of 6% of its short side; its cost does not depend on what the picture shows.
// Benchmarks/faces-scan.sh runs dlib itself on a picture of the same size beside it.
if selected("face scan 2000×1333 (HOG, 5 filters, pyramid)") {
    let copy = syntheticImage(width: 2000, height: 1333, format: .rgb8)
    try bench("face scan 2000×1333 (HOG, 5 filters, pyramid)", runs: 5) { t in
        _ = try HOGFaceDetector(maxThreads: t).faces(in: copy)
    }
}

// Other operations
try bench("orientation bake 6 (90° clockwise) 6000×4000 RGB8", runs: 5) { t in
    _ = big.applyingOrientation(.rightTop, maxThreads: t)
}
try bench("thumbnail 256 px, 8 px border, radius 24, from 750×500", runs: 31) { t in
    _ = try small.thumbnail(side: 256, border: 8, cornerRadius: 24, options: ResampleOptions(maxThreads: t))
}
