import CropGeometry
import Testing

@testable import CropPixels

@Suite("ResizeStream")
struct ResizeStreamTests {
    /// Pushes `image` in random chunks (or, `inPlace`, pushes the rows above the ones the resize reads and writes
    /// the rest into the stream with ``ResizeStream/write(maxRows:_:)``, in random chunks of which the writer fills
    /// a random part), pulls at random moments, and returns the assembled output.
    static func streamed(
        _ image: PixelBuffer, width: Int, height: Int, rect: Rect?, options: ResampleOptions, groupRows: Int,
        concurrency: ResizeStream.Concurrency = .parallel, inPlace: Bool = false, rng: inout SplitMix64
    ) throws -> PixelBuffer {
        let stream = try ResizeStream(
            sourceWidth: image.width, sourceHeight: image.height, format: image.format, outputWidth: width,
            outputHeight: height, sourceRect: rect, options: options, groupRows: groupRows, concurrency: concurrency)
        var output = try PixelBuffer(width: width, height: height, format: image.format)
        var pulled = 0
        var y = 0
        let pushedEnd = inPlace ? stream.sourceRowsNeeded.lowerBound : image.height
        while y < pushedEnd {
            let n = min(Int(rng.next() % 7) + 1, pushedEnd - y)
            try stream.push(try image.cropped(x: 0, y: y, width: image.width, height: n))
            y += n
            if rng.next() % 3 == 0 { pulled += try stream.pull(into: &output, startRow: pulled) }
        }
        if inPlace {
            while true {
                let maxRows = Int(rng.next() % 20) + 1, wanted = Int(rng.next() % 20) + 1
                let n = stream.write(maxRows: maxRows) { rows in
                    #expect(rows.height >= 1 && rows.height <= maxRows && rows.width == image.width)
                    let count = min(wanted, rows.height)
                    image.withUnsafeRows { src in
                        for i in 0..<count {
                            rows.row(i).copyMemory(from: src.row(y + i), byteCount: image.bytesPerPackedRow)
                        }
                    }
                    return count
                }
                if n == 0 { break }
                y += n
                if rng.next() % 3 == 0 { pulled += try stream.pull(into: &output, startRow: pulled) }
            }
            #expect(y == stream.sourceRowsNeeded.upperBound)
        }
        #expect(stream.hasAllSourceRows)
        stream.waitUntilFiltered()
        while let band = try stream.pull(maxRows: 3) {
            band.withUnsafeRows { src in
                output.withUnsafeMutableRows { dst in
                    for i in 0..<band.height {
                        dst.row(pulled + i).copyMemory(from: src.row(i), byteCount: band.bytesPerPackedRow)
                    }
                }
            }
            pulled += band.height
        }
        #expect(pulled == height && stream.isFinished)
        return output
    }

    @Test(
        "streamed output is identical to the whole-buffer resize, for every format and filter, pushed or written in place"
    )
    func identicalToWholeBuffer() throws {
        var rng = SplitMix64(seed: 2024)
        for format in allFormats {
            let image = try randomBuffer(width: 37, height: 45, format: format, seed: rng.next())
            for filter in [ResamplingFilter.lanczos3, .nearest, .mitchell, .box] {
                for linear in [false, true] {
                    let options = ResampleOptions(filter: filter, linearLight: linear, maxThreads: Int(rng.next() % 3))
                    for (w, h, rect) in [
                        (17, 11, nil), (50, 61, nil), (9, 14, Rect(x: 2.5, y: 7.25, width: 30, height: 20.5)),
                    ] {
                        let whole =
                            try rect.map { try image.resized(width: w, height: h, from: $0, options: options) }
                            ?? image.resized(width: w, height: h, options: options)
                        let group = [8, 16, 24][Int(rng.next() % 3)]
                        for concurrency in [ResizeStream.Concurrency.parallel, .background] {
                            for inPlace in [false, true] {
                                let streamed = try Self.streamed(
                                    image, width: w, height: h, rect: rect, options: options, groupRows: group,
                                    concurrency: concurrency, inPlace: inPlace, rng: &rng)
                                #expect(
                                    streamed == whole,
                                    "\(format) \(filter) linear \(linear) \(concurrency) in place \(inPlace) → \(w)×\(h) rect \(String(describing: rect))"
                                )
                            }
                        }
                    }
                }
            }
        }
    }

    @Test("wide outputs split across threads by columns still match the whole-buffer resize exactly")
    func columnSlices() throws {
        var rng = SplitMix64(seed: 77)
        for format in [PixelFormat.rgb8, .rgba8, .gray16, .grayAlpha8] {
            let image = try randomBuffer(width: 300, height: 37, format: format, seed: rng.next())
            for (w, h, filter) in [(130, 21, ResamplingFilter.lanczos3), (257, 60, .catmullRom), (140, 9, .nearest)] {
                let options = ResampleOptions(filter: filter, maxThreads: 2)
                let whole = try image.resized(width: w, height: h, options: options)
                let streamed = try Self.streamed(
                    image, width: w, height: h, rect: nil, options: options, groupRows: 16, rng: &rng)
                #expect(streamed == whole, "\(format) \(filter) → \(w)×\(h)")
            }
        }
    }

    @Test("only the rows the resize reads are needed; rows outside them are skipped")
    func sourceRowsNeeded() throws {
        let image = try randomBuffer(width: 20, height: 40, format: .rgb8, seed: 5)
        let rect = Rect(x: 0, y: 10, width: 20, height: 10)
        let stream = try ResizeStream(
            sourceWidth: 20, sourceHeight: 40, format: .rgb8, outputWidth: 10, outputHeight: 5, sourceRect: rect)
        let needed = stream.sourceRowsNeeded
        #expect(needed.lowerBound >= 4 && needed.lowerBound <= 10 && needed.upperBound >= 20 && needed.upperBound <= 26)
        try stream.push(try image.cropped(x: 0, y: 0, width: 20, height: needed.upperBound))
        #expect(stream.availableRows == 5)
        let out = try #require(try stream.pull())
        #expect(out == (try image.resized(width: 10, height: 5, from: rect)))
        #expect(throws: PixelError.self) { try stream.push(try image.cropped(x: 0, y: 0, width: 20, height: 40)) }
        #expect(throws: PixelError.self) { try stream.push(try image.cropped(x: 0, y: 0, width: 10, height: 1)) }
    }
}
