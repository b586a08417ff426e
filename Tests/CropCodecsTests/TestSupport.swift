import CropGeometry
import CropPixels
@_exported import CropTestSupport  // the seeded generator, for every file of this target
import Foundation
import Testing

@testable import CropCodecs

/// The fixtures folder copied into the test bundle.
enum Fixtures {
    static let root: URL = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    static func url(_ name: String) -> URL { root.appendingPathComponent(name) }

    static func path(_ name: String) -> String { url(name).path }

    static func bytes(_ name: String) throws -> [UInt8] { try FileIO.readFile(atPath: path(name)) }
}

/// Builders for synthetic test images.
enum TestImages {
    /// `count` seeded random JPEGs for invariant tests: each up to `maxWidth`×`maxHeight`, gray one time in five, any
    /// subsampling, quality 20–100, optimised Huffman tables one time in two (baseline only), restart intervals one
    /// time in three, of a smooth scene or (with `noise`, one time in three) seeded noise.
    static func randomJPEGs(
        _ count: Int, seed: UInt64, maxWidth: Int, maxHeight: Int, progressive: Bool, noise: Bool = false
    ) throws -> [(data: [UInt8], width: Int, height: Int, description: String)] {
        var rng = SplitMix64(seed: seed)
        return try (0..<count).map { index in
            try randomJPEG(
                &rng, seed: UInt64(index), maxWidth: maxWidth, maxHeight: maxHeight,
                progressive: progressive, noise: noise)
        }
    }

    private static func randomJPEG(
        _ rng: inout SplitMix64, seed: UInt64, maxWidth: Int, maxHeight: Int, progressive: Bool, noise: Bool
    ) throws -> (data: [UInt8], width: Int, height: Int, description: String) {
        let width = 1 + Int(rng.next() % UInt64(maxWidth)), height = 1 + Int(rng.next() % UInt64(maxHeight))
        let layout: ChannelLayout = rng.next() % 5 == 0 ? .gray : .rgb
        let subsampling = [ChromaSubsampling.s444, .s422, .s420][Int(rng.next() % 3)]
        var options = JPEGEncodeOptions(
            quality: 20 + Int(rng.next() % 81), subsampling: subsampling, progressive: progressive,
            optimizeHuffman: !progressive && rng.next() % 2 == 0)
        options.restartInterval = rng.next() % 3 == 0 ? 1 + Int(rng.next() % 12) : 0
        let image =
            noise && rng.next() % 3 == 0
            ? try random(width: width, height: height, format: PixelFormat(layout), seed: seed)
            : try smooth(width: width, height: height, layout: layout, seed: seed)
        let data = try JPEGEncoder.encode(image, options: options)
        return (data, width, height, "\(width)×\(height) \(layout) \(subsampling) \(options)")
    }

    /// Random samples (full range) in any format.
    static func random(width: Int, height: Int, format: PixelFormat, seed: UInt64) throws -> PixelBuffer {
        var rng = SplitMix64(seed: seed)
        var buffer = try PixelBuffer(width: width, height: height, format: format)
        let maxValue = format.depth.maxValue
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<format.channelCount {
                    buffer[x: x, y: y, channel: c] = Int(rng.next() % UInt64(maxValue + 1))
                }
            }
        }
        return buffer
    }

    /// A smooth, photo-like 8-bit picture: gradients, a few soft blobs and a little seeded noise.
    static func smooth(width: Int, height: Int, layout: ChannelLayout = .rgb, seed: UInt64) throws -> PixelBuffer {
        var rng = SplitMix64(seed: seed)
        var buffer = try PixelBuffer(width: width, height: height, format: PixelFormat(layout))
        let blobs = (0..<4).map { _ in
            (Double(rng.next() % UInt64(width)), Double(rng.next() % UInt64(height)), Double(8 + rng.next() % 24))
        }
        for y in 0..<height {
            for x in 0..<width {
                var glow = 0.0
                for (bx, by, r) in blobs {
                    let d2 = (Double(x) - bx) * (Double(x) - bx) + (Double(y) - by) * (Double(y) - by)
                    glow += 90 * exp(-d2 / (2 * r * r))
                }
                let noise = Double(rng.next() % 7) - 3
                for c in 0..<layout.channelCount {
                    let base: Double
                    switch c {
                    case 0: base = 40 + 150 * Double(x) / Double(width)
                    case 1: base = 60 + 120 * Double(y) / Double(height)
                    case 2: base = 200 - 100 * Double(x + y) / Double(width + height)
                    default: base = 128 + 120 * sin(Double(x) / 7)
                    }
                    buffer[x: x, y: y, channel: c] = max(0, min(255, Int((base + glow + noise).rounded())))
                }
            }
        }
        return buffer
    }
}

/// Measurements on decoded images.
enum Measure {
    /// Peak signal-to-noise ratio in dB between two 8-bit images of the same size and format.
    static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.width == b.width && a.height == b.height && a.format == b.format)
        let sa = a.samples, sb = b.samples
        var sum = 0.0
        for i in 0..<sa.count {
            let d = Double(sa[i] - sb[i])
            sum += d * d
        }
        let mse = sum / Double(sa.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// Mean absolute difference per sample.
    static func meanAbsoluteDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.width == b.width && a.height == b.height && a.format == b.format)
        let sa = a.samples, sb = b.samples
        return Double(zip(sa, sb).reduce(0) { $0 + abs($1.0 - $1.1) }) / Double(sa.count)
    }

    /// The image as displayed: stored pixels moved by `orientation` (nearest pixel centre).
    static func displayed(_ image: PixelBuffer, orientation: Orientation) throws -> PixelBuffer {
        let stored = Size(width: image.width, height: image.height)
        let size = orientation.displayedSize(of: stored)
        let back = orientation.inverseTransform(storedSize: stored)
        var out = try PixelBuffer(width: Int(size.width), height: Int(size.height), format: image.format)
        for y in 0..<out.height {
            for x in 0..<out.width {
                let p = back.apply(to: Point(x: Double(x) + 0.5, y: Double(y) + 0.5))
                out.setPixel(x: x, y: y, image.pixel(x: Int(p.x.rounded(.down)), y: Int(p.y.rounded(.down))))
            }
        }
        return out
    }

    /// Peak resident memory of this process so far, in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}

/// Byte-level helpers for crafting files.
enum Bytes {
    /// CRC-32 as PNG uses it.
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// The offsets of each JPEG marker segment before SOS: (marker, offset of 0xFF, segment end).
    static func jpegSegments(_ data: [UInt8]) -> [(marker: UInt8, start: Int, end: Int)] {
        var out: [(UInt8, Int, Int)] = []
        var i = 2
        while i + 4 <= data.count, data[i] == 0xFF {
            let marker = data[i + 1]
            let length = Int(data[i + 2]) << 8 | Int(data[i + 3])
            out.append((marker, i, i + 2 + length))
            if marker == 0xDA { break }
            i += 2 + length
        }
        return out
    }

    /// Each scan of a well-formed JPEG: its spectral band, its successive-approximation high bit, and its
    /// entropy-coded data (from the end of its SOS header to the next marker that is not a restart marker or a
    /// stuffed byte).
    static func jpegScans(_ data: [UInt8]) -> [(ss: UInt8, se: UInt8, ah: UInt8, data: Range<Int>)] {
        var scans: [(UInt8, UInt8, UInt8, Range<Int>)] = []
        var i = 2
        while i + 4 <= data.count, data[i] == 0xFF, data[i + 1] != 0xD9 {
            var end = i + 2 + (Int(data[i + 2]) << 8 | Int(data[i + 3]))
            guard end <= data.count else { break }
            if data[i + 1] == 0xDA {
                let header = i + 5 + 2 * Int(data[i + 4])
                guard header + 2 < end else { break }
                let start = end
                while end + 1 < data.count,
                    !(data[end] == 0xFF && data[end + 1] != 0 && !(0xD0...0xD7).contains(data[end + 1]))
                {
                    end += 1
                }
                scans.append((data[header], data[header + 1], data[header + 2] >> 4, start..<end))
            }
            i = end
        }
        return scans
    }

    /// Damages `data` at a seeded place in `region`, one of four ways: cut short there, 1-4 bits flipped in the
    /// region, a marker put in (a restart marker, the wrong one, EOI or DHT), or up to 8 bytes overwritten (0xFF
    /// among them).
    static func damage(_ data: inout [UInt8], in region: Range<Int>, _ rng: inout SplitMix64) {
        let at = region.lowerBound + Int(rng.next() % UInt64(max(1, region.count - 8)))
        switch rng.next() % 4 {
        case 0:
            data.removeLast(data.count - at)
        case 1:
            for _ in 0..<(1 + rng.next() % 4) {
                let position = region.lowerBound + Int(rng.next() % UInt64(max(1, region.count)))
                data[position] ^= UInt8(1 << (rng.next() % 8))
            }
        case 2:
            data.insert(contentsOf: [0xFF, [0xD0, 0xD3, 0xD7, 0xD9, 0xC4][Int(rng.next() % 5)]], at: at)
        default:
            for i in 0..<Int(1 + rng.next() % 8) where at + i < data.count {
                data[at + i] = rng.next() % 3 == 0 ? 0xFF : UInt8(rng.next() & 0xFF)
            }
        }
    }
}
