import CropGeometry
import Testing

@testable import CropPixels

/// A stream abandoned mid-picture (its producer failed) must be torn down cleanly on whatever thread lets go of it
/// last. Regression: a background stream released while its worker was still filtering was deinitialised on that
/// worker, whose `deinit` then waited for its own queue: a libdispatch trap (SIGILL) instead of the decoder's error.
@Suite("ResizeStream teardown")
struct ResizeStreamTeardownTests {
    @Test(
        "a stream dropped right after a push tears down without a trap, in every concurrency mode",
        arguments: [ResizeStream.Concurrency.background, .parallel])
    func droppedMidPicture(_ concurrency: ResizeStream.Concurrency) throws {
        // Wide rows make each background block slow to filter, so the caller lets go while the worker still runs:
        // the worker then holds the last reference.
        let band = try PixelBuffer(width: 1024, height: 64, format: .rgba8)
        for _ in 0..<50 {
            var stream: ResizeStream? = try ResizeStream(
                sourceWidth: 1024, sourceHeight: 4096, format: .rgba8, outputWidth: 333, outputHeight: 601,
                groupRows: 64, concurrency: concurrency)
            try stream?.push(band)
            #expect(stream?.rowsPushed == 64)
            stream = nil
        }
    }

    @Test("waitUntilFiltered after an abandoned push leaves no work behind and the rows pushed are filtered")
    func waitAfterAbandon() throws {
        let band = try PixelBuffer(width: 512, height: 64, format: .rgb8)
        let stream = try ResizeStream(
            sourceWidth: 512, sourceHeight: 1024, format: .rgb8, outputWidth: 128, outputHeight: 256,
            groupRows: 64, concurrency: .background)
        try stream.push(band)
        stream.waitUntilFiltered()
        // 64 source rows complete the output rows whose Lanczos3 support (3 taps × 4 at this reduction) ends by row
        // 64: at least 10 of the 16 they span.
        #expect(stream.availableRows >= 10 && stream.availableRows < 16)
    }
}
