import CropGeometry
import Foundation
import Testing

@testable import CropPixels

@Suite("AffineRenderer column strips")
struct ColumnStripTests {
    /// The strips' memory, freed with it: the strips' row pointers stay valid while it lives.
    final class Storage {
        private var buffers: [UnsafeMutableRawBufferPointer] = []

        func allocate(_ byteCount: Int) -> UnsafeMutableRawBufferPointer {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 16)
            buffers.append(buffer)
            return buffer
        }

        deinit { for buffer in buffers { buffer.deallocate() } }
    }

    /// Copies columns `columns` of picture rows `rows` into memory of their own from `storage`, the rest of
    /// it poison (8 bytes after each row, 16 after the last), and returns the strip addressing them as the renderer
    /// expects (each pointer at its row's column 0). A render that reads a column or row the strip does not hold
    /// reads poison, or clamps to the wrong row.
    static func strip(
        _ image: PixelBuffer, owned: Range<Int>, columns: Range<Int>, rows: Range<Int>, into storage: Storage,
        seed: UInt64
    ) -> AffineRenderer.ColumnStrip {
        let bpp = image.format.bytesPerPixel
        let rowBytes = columns.count * bpp + 8
        var rng = SplitMix64(seed: seed)
        let bytes = storage.allocate(rows.count * rowBytes + 16)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
        image.withUnsafeRows { src in
            for (i, y) in rows.enumerated() {
                let from = UnsafeRawPointer(src.row(y)) + columns.lowerBound * bpp
                (bytes.baseAddress! + i * rowBytes).copyMemory(from: from, byteCount: columns.count * bpp)
            }
        }
        let base = UnsafeRawPointer(bytes.baseAddress!)
        let pointers = (0..<rows.count).map { base + $0 * rowBytes - columns.lowerBound * bpp }
        return AffineRenderer.ColumnStrip(
            owned: owned,
            rows: SourceRows(firstRow: rows.lowerBound, width: image.width, format: image.format, pointers: pointers))
    }

    @Test(
        "column strips holding only the rows and columns they report render a band byte for byte as whole rows",
        arguments: [PixelFormat.gray8, .grayAlpha8, .rgb8, .rgba8, .rgb16, .rgba16])
    func stripsMatchWholeRows(_ format: PixelFormat) throws {
        var rng = SplitMix64(seed: 4242 &+ UInt64(format.bytesPerPixel))
        func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(rng.next() >> 11) / 0x1p53 }
        var rendered = 0
        for case_ in 0..<40 {
            let w = 30 + Int(rng.next() % 150), h = 20 + Int(rng.next() % 100)
            let image = try randomBuffer(width: w, height: h, format: format, seed: UInt64(case_))
            let out = PixelSize(validWidth: 10 + Int(rng.next() % 110), height: 4 + Int(rng.next() % 60))
            // Any turn, up to 4× enlargement or 5× reduction (no pre-shrink), centred anywhere near the picture.
            let t = AffineRendererTests.plan(
                angle: uniform(-.pi, .pi), scale: uniform(0.2, 4), output: (out.width, out.height),
                center: Point(x: uniform(-0.2, 1.2) * Double(w), y: uniform(-0.2, 1.2) * Double(h)))
            let filter = [ResamplingFilter.catmullRom, .lanczos3, .mitchell, .nearest][Int(rng.next() % 4)]
            var renderer = try AffineRenderer(
                sourceSize: PixelSize(validWidth: w, height: h), outputSize: out, transform: t, rotationFilter: filter)
            #expect(renderer.rendersColumnStrips)
            guard renderer.rendersColumnStrips else { continue }
            // Even strips, or random cuts (some strips narrower than the kernel, some owning no pixel).
            var owned = renderer.columnStrips(count: 1 + Int(rng.next() % 9))
            if case_ % 2 == 1 {
                let cuts = Set((0..<Int(rng.next() % 7)).map { _ in Int(rng.next() % UInt64(w + 8)) - 4 }).sorted()
                let bounds = [Int.min] + cuts + [Int.max]
                owned = (0..<(bounds.count - 1)).map { bounds[$0]..<bounds[$0 + 1] }
            }
            let first = Int(rng.next() % UInt64(out.height))
            let band = first..<min(out.height, first + 1 + Int(rng.next() % 20))
            for portable in format.depth == .eight ? [false, true] : [false] {
                renderer.forcesPortableKernel = portable
                let whole = try renderer.render(image, outputRows: band)
                let storage = Storage()
                defer { withExtendedLifetime(storage) {} }  // the strips point into it
                let strips = owned.enumerated().map { i, range in
                    let rows = renderer.sourceRows(forOutputRows: band, owning: range)
                    return Self.strip(
                        image, owned: range, columns: renderer.sourceColumns(owning: range), rows: rows,
                        into: storage, seed: UInt64(i))
                }
                let striped = try renderer.render(strips, outputRows: band)
                #expect(
                    striped == whole,
                    "\(format) case \(case_) \(filter) \(owned) portable \(portable): \(maxDifference(striped, whole))")
                rendered += 1
            }
        }
        #expect(rendered >= 40)
    }

    @Test("a strip that misses a row its pixels read, or cuts that leave columns unowned, are refused")
    func refusesShortStrips() throws {
        let image = try randomBuffer(width: 80, height: 60, format: .rgb8, seed: 3)
        let out = PixelSize(validWidth: 60, height: 40)
        let t = AffineRendererTests.plan(angle: 0.4, scale: 1, output: (60, 40), center: Point(x: 40, y: 30))
        let renderer = try AffineRenderer(
            sourceSize: PixelSize(validWidth: 80, height: 60), outputSize: out, transform: t)
        let owned = renderer.columnStrips(count: 3)
        let band = 10..<20
        let storage = Storage()
        defer { withExtendedLifetime(storage) {} }  // the strips point into it
        func strips(dropRowOf victim: Int?) -> [AffineRenderer.ColumnStrip] {
            owned.enumerated().map { i, range in
                var rows = renderer.sourceRows(forOutputRows: band, owning: range)
                if i == victim { rows = rows.dropLast() }
                return Self.strip(
                    image, owned: range, columns: renderer.sourceColumns(owning: range), rows: rows, into: storage,
                    seed: 1)
            }
        }
        #expect(
            try renderer.render(strips(dropRowOf: nil), outputRows: band)
                == (try renderer.render(image, outputRows: band)))
        for victim in owned.indices {
            #expect(throws: PixelError.self) { try renderer.render(strips(dropRowOf: victim), outputRows: band) }
        }
        let gap = strips(dropRowOf: nil)
        #expect(throws: PixelError.self) { try renderer.render(Array(gap.dropFirst()), outputRows: band) }
        #expect(throws: PixelError.self) { try renderer.render([gap[0], gap[2]], outputRows: band) }
        // An axis-aligned render takes the separable path, which reads whole rows.
        let straight = try AffineRenderer(
            sourceSize: PixelSize(validWidth: 80, height: 60), outputSize: out,
            transform: .translation(x: 3.5, y: 2.25))
        #expect(!straight.rendersColumnStrips)
        #expect(throws: PixelError.self) { try straight.render(gap, outputRows: band) }
    }

    @Test("the pixels of a row whose base column falls in a range are the run found by brute force, any step sign")
    func ownedColumnRuns() {
        var rng = SplitMix64(seed: 77)
        for _ in 0..<2000 {
            let width = 1 + Int(rng.next() % 300)
            let du: Int64 =
                rng.next() % 10 == 0 ? 0 : Int64(bitPattern: rng.next() % (1 << 35)) - (1 << 34)
            let u = Int64(bitPattern: rng.next() % (1 << 42)) - (1 << 41)
            let row = AffineKernel.RowStart(u: u, v: 0, du: du, dv: 0)
            let a = Int(rng.next() % 1200) - 600
            let lower = rng.next() % 8 == 0 ? Int.min : a
            let upper = rng.next() % 8 == 0 ? Int.max : a + Int(rng.next() % 300)
            let owned = lower..<Swift.max(lower, upper)
            let run = row.columns(owning: owned, width: width)
            let expected = (0..<width).filter { x in owned.contains(Int((u + Int64(x) * du) >> 32)) }
            #expect(Array(run) == expected, "u \(u) du \(du) owned \(owned) width \(width)")
        }
    }
}
