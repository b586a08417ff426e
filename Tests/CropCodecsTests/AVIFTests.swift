import CropGeometry
import CropPixels
import Foundation
import Testing

@testable import CropCodecs

/// The link-u AVIF samples (CC BY-SA 4.0, `Fixtures/avif/LICENSE…`) against their PNGs: the 128×128 region at
/// (200, 300) of each PNG, cut with vips, compared with the same region of our decode. Stated bound: mean difference
/// ≤ 3.5/255 (a correct decoder gets about 3/255 on these lossy files); a wrong turn or mirror lands far past it.
///
/// link-u's Makefile makes `kimono.rotate90.avif` by encoding `kimono.rotate90.png` (the kimono turned) with
/// `--rotation 270`, and `kimono.mirror-horizontal.avif` from the mirrored PNG with `--mirror horizontal`: each PNG is
/// the *stored* picture, and the transform property turns it back, so every kimono file *displays* as `kimono.png`.
@Suite("AVIF through libheif, with irot/imir read and applied by CropKit")
struct AVIFTests {
    static func displayed(_ name: String) throws -> (image: DecodedImage, upright: PixelBuffer) {
        let decoded = try ImageCodec.decode(Fixtures.bytes("avif/\(name).avif"))
        let upright = decoded.pixels.applyingOrientation(decoded.metadata.orientation)
        return (decoded, upright)
    }

    static func region(_ image: PixelBuffer) throws -> PixelBuffer {
        try image.cropped(x: 200, y: 300, width: 128, height: 128)
    }

    static func reference(_ name: String) throws -> PixelBuffer {
        try PNGDecoder.decode(Fixtures.bytes("avif/\(name).crop-200-300-128.png")).pixels
    }

    @Test(
        "rotated and mirrored kimono: stored pixels as encoded, each transform applied once, displayed as kimono.png",
        arguments: [
            ("kimono", Orientation.up, 722, 1024), ("kimono.rotate90", .rightTop, 1024, 722),
            ("kimono.mirror-horizontal", .topRight, 722, 1024),
        ])
    func kimono(_ name: String, _ orientation: Orientation, _ width: Int, _ height: Int) throws {
        let (decoded, upright) = try Self.displayed(name)
        #expect(decoded.info.format == .avif)
        #expect(decoded.metadata.orientation == orientation && decoded.info.orientation == orientation)
        #expect(decoded.pixels.width == width && decoded.pixels.height == height)
        let stored = meanDifference(try Self.region(decoded.pixels), try Self.reference(name))
        #expect(stored <= 3.5, "stored pixels: mean difference \(stored)")
        #expect(upright.width == 722 && upright.height == 1024)
        let shown = meanDifference(try Self.region(upright), try Self.reference("kimono"))
        #expect(shown <= 3.5, "displayed: mean difference \(shown) from kimono.png")
        for wrong in Orientation.allCases
        where wrong != orientation && !wrong.swapsDimensions == !orientation.swapsDimensions {
            let other = meanDifference(
                try Self.region(decoded.pixels.applyingOrientation(wrong)), try Self.reference("kimono"))
            #expect(other > 10, "\(wrong) gives \(other)")
        }
    }

    @Test("10-bit AVIF decodes to 16-bit rows, within the bound of its reference")
    func tenBit() throws {
        let (decoded, upright) = try Self.displayed("fox.profile0.10bpc.yuv420")
        #expect(decoded.info.bitDepth == 10 && decoded.pixels.format == .rgb16)
        #expect(upright.width == 1204 && upright.height == 800)
        var narrowed = try PixelBuffer(width: 128, height: 128, format: .rgb8)
        let region = try Self.region(upright)
        for y in 0..<128 {
            for x in 0..<128 {
                for c in 0..<3 { narrowed[x: x, y: y, channel: c] = (region[x: x, y: y, channel: c] + 128) / 257 }
            }
        }
        let mean = meanDifference(narrowed, try Self.reference("fox"))
        #expect(mean <= 3.5, "mean difference \(mean)")
        #expect(decoded.pixels.samples.contains { $0 % 257 != 0 })
    }

    @Test("an AVIF with a full-range alpha plane decodes to RGBA within the bound of its reference")
    func alpha() throws {
        let (decoded, upright) = try Self.displayed("plum-blossom-large.profile0.8bpc.yuv420.alpha-full")
        #expect(decoded.pixels.format == .rgba8 && upright.width == 2048 && upright.height == 2048)
        let mean = meanDifference(try Self.region(upright), try Self.reference("plum-blossom-large"))
        #expect(mean <= 3.5, "mean difference \(mean)")
    }

    @Test("transform boxes read from hand-built meta boxes: ipma order, both axes, wide indices, garbage")
    func transformBoxes() throws {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = 8 + payload.count
            return [UInt8(size >> 24 & 255), UInt8(size >> 16 & 255), UInt8(size >> 8 & 255), UInt8(size & 255)]
                + Array(type.utf8) + payload
        }
        func file(_ properties: [[UInt8]], _ indices: [Int], wide: Bool = false) -> [UInt8] {
            let ipco = box("ipco", properties.flatMap { $0 })
            var entry: [UInt8] = [0, 1, UInt8(indices.count)]
            for i in indices { entry += wide ? [UInt8(i >> 8), UInt8(i & 255)] : [UInt8(i)] }
            let ipma = box("ipma", [0, 0, 0, wide ? 1 : 0, 0, 0, 0, 1] + entry)
            let meta = box("meta", [0, 0, 0, 0] + box("pitm", [0, 0, 0, 0, 0, 1]) + box("iprp", ipco + ipma))
            return box("ftyp", Array("heicmif1".utf8)) + meta
        }
        // imirH: about the horizontal axis
        let irot90 = box("irot", [1]), imirH = box("imir", [0]), imirV = box("imir", [1])
        #expect(HEIFTransforms(file([irot90], [1])).orientation == .leftBottom)
        #expect(HEIFTransforms(file([imirH], [1])).orientation == .bottomLeft)  // axis 0: top and bottom exchanged
        #expect(HEIFTransforms(file([imirV], [1])).orientation == .topRight)  // axis 1: left and right exchanged
        // Rotate then mirror is not mirror then rotate.
        let rotateThenMirror = HEIFTransforms(file([irot90, imirH], [1, 2])).orientation
        let mirrorThenRotate = HEIFTransforms(file([irot90, imirH], [2, 1])).orientation
        #expect(rotateThenMirror == Orientation.up.rotatedCounterClockwise().flippedVertically())
        #expect(mirrorThenRotate == Orientation.up.flippedVertically().rotatedCounterClockwise())
        #expect(rotateThenMirror != mirrorThenRotate)
        #expect(HEIFTransforms(file([irot90], [1], wide: true)).orientation == .leftBottom)
        #expect(HEIFTransforms(file([irot90], [0x8001], wide: true)).orientation == .leftBottom)  // essential bit
        #expect(HEIFTransforms(file([irot90], [5])).orientation == .up)  // no such property
        var rng = SplitMix64(seed: 90)
        let good = file([irot90, imirV], [1, 2])
        for _ in 0..<2_000 {
            var bytes = good
            for _ in 0..<rng.int(1...4) {
                bytes[rng.int(0...(bytes.count - 1))] = UInt8(truncatingIfNeeded: rng.next())
            }
            _ = HEIFTransforms(Array(bytes.prefix(rng.int(0...bytes.count))))
        }
    }
}
