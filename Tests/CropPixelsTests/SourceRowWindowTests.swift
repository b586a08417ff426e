import CropGeometry
import Dispatch
import Testing

@testable import CropPixels

@Suite("SourceRowWindow")
struct SourceRowWindowTests {
    /// Writes row `y`'s bytes as `y` (mod 256) in every sample.
    static func fill(_ rows: UnsafePixelRows, firstRow: Int) -> Int {
        for i in 0..<rows.height {
            rows.row8(i).update(repeating: UInt8(truncatingIfNeeded: firstRow + i), count: rows.width * 3)
        }
        return rows.height
    }

    @Test("rows come back as written through a ring smaller than the picture; released slots are reused")
    func ringRoundTrip() throws {
        let window = SourceRowWindow(rows: 10..<110, width: 7, format: .rgb8, capacity: 12)
        var next = 10
        var checked = 0
        while next < 110 {
            if window.freeSlots == 0 {
                // Read the oldest rows once more, then let them go.
                let rows = try window.rows(checked..<(checked + 4 <= next ? checked + 4 : next))
                for y in rows.range { #expect(rows.row(y).load(as: UInt8.self) == UInt8(y)) }
                window.release(below: rows.range.upperBound)
                checked = rows.range.upperBound
                continue
            }
            let n = try window.write(maxRows: 5) { Self.fill($0, firstRow: next) }
            #expect(n >= 1 && n <= 5)
            next += n
            if checked == 0 { checked = 10 }
        }
        #expect(window.publishedRows == 110)
        let tail = try window.rows(100..<110)
        for y in tail.range { #expect(tail.row(y).load(as: UInt8.self) == UInt8(y)) }
        #expect(
            try window.write(maxRows: 5) { _ in
                Issue.record("no rows left to write")
                return 0
            } == 0)
    }

    @Test("unpublished or released rows are refused")
    func boundsAreChecked() throws {
        let window = SourceRowWindow(rows: 0..<20, width: 4, format: .rgb8, capacity: 8)
        _ = try window.write(maxRows: 6) { Self.fill($0, firstRow: 0) }
        #expect(throws: PixelError.self) { try window.rows(4..<7) }
        window.release(below: 3)
        #expect(throws: PixelError.self) { try window.rows(2..<5) }
        #expect(try window.rows(3..<6).count == 3)
        // The mark never moves back; past what is published, the rows still to come are written but never read,
        // and they take no slot from the rows after the mark.
        window.release(below: 1)
        #expect(try window.rows(3..<6).count == 3)
        window.release(below: 12)
        #expect(throws: PixelError.self) { try window.rows(5..<6) }
        #expect(window.freeSlots == 14)
        var written = 6
        while written < 20 {
            written += try window.write(maxRows: 20) { Self.fill($0, firstRow: written) }
        }
        let held = try window.rows(12..<20)
        for y in 12..<20 { #expect(held.row(y).load(fromByteOffset: 5, as: UInt8.self) == UInt8(y)) }
    }

    @Test("a writer waiting for a free slot wakes on release, and a failed window ends the wait with an error")
    func waitsAndFailure() throws {
        let window = SourceRowWindow(rows: 0..<20, width: 4, format: .rgb8, capacity: 4)
        _ = try window.write(maxRows: 4) { Self.fill($0, firstRow: 0) }
        #expect(window.freeSlots == 0)
        let released = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            window.release(below: 2)
            released.signal()
        }
        #expect(try window.write(maxRows: 4) { Self.fill($0, firstRow: 4) } == 2)  // waited for the release
        released.wait()
        DispatchQueue.global().async { window.fail() }
        #expect(throws: PixelError.self) { try window.write(maxRows: 4) { Self.fill($0, firstRow: 6) } }
    }

    @Test("a straightened render from the ring's row tables equals the render of the whole picture, row band by band")
    func renderFromRing() throws {
        let picture = try randomBuffer(width: 90, height: 70, format: .rgba8, seed: 9)
        let t = AffineTransform2D.rotation(counterClockwiseOnScreen: 0.2).translatedBy(x: 8, y: 12)
        let renderer = try AffineRenderer(
            sourceSize: PixelSize(validWidth: 90, height: 70), outputSize: PixelSize(validWidth: 60, height: 40),
            transform: t)
        #expect(renderer.path == .general)
        let whole = try renderer.render(picture)
        let needed = renderer.sourceRows(forOutputRows: 0..<40)
        let window = SourceRowWindow(rows: needed, width: 90, format: .rgba8, capacity: 30)
        #expect(window.capacity < needed.count)
        var out: [PixelBuffer] = []
        for band in stride(from: 0, to: 40, by: 5).map({ $0..<min($0 + 5, 40) }) {
            let rows = renderer.sourceRows(forOutputRows: band)
            while window.publishedRows < rows.upperBound {
                let first = window.publishedRows
                _ = try window.write(maxRows: 7) { target in
                    picture.withUnsafeRows { src in
                        for i in 0..<target.height {
                            target.row(i).copyMemory(from: src.row(first + i), byteCount: 90 * 4)
                        }
                    }
                    return target.height
                }
            }
            out.append(try renderer.render(try window.rows(rows), outputRows: band))
            window.release(below: rows.lowerBound)
        }
        for (i, band) in out.enumerated() {
            #expect(band == (try whole.cropped(x: 0, y: i * 5, width: 60, height: band.height)))
        }
    }
}
