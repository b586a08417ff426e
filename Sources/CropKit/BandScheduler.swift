import Dispatch
import Foundation

/// Renders and encodes a straightened output band by band on two workers while the source is still being decoded.
///
/// The work after libjpeg's entropy decoding has three parts: turning coefficients into rows (serial, the decoding
/// thread), rendering output bands (independent of each other, each needs the source rows up to some row), and
/// encoding the bands (serial, in order). The caller decodes into a shared window and publishes how many rows are
/// ready; a helper worker renders each band as soon as its rows are there and encodes finished bands in order; when
/// decoding is done the caller joins the same loop. Encoding always has priority over rendering, so at most a few
/// rendered bands wait in memory (``maximumPendingBands``), and the output never exists whole.
final class BandScheduler: @unchecked Sendable {
    /// Rendered bands allowed to wait for the encoder before renderers pause.
    static let maximumPendingBands = 6

    private let condition = NSCondition()
    private let bands: [Range<Int>]
    /// For each band, the window rows (counted from the window's first row) it reads: ready once `decodedRows` ≥ it.
    private let needs: [Int]
    private let render: (Range<Int>) throws -> PixelBuffer
    private let encode: (PixelBuffer) throws -> Void

    // Guarded by `condition`.
    private var decodedRows = 0
    private var nextToRender = 0
    private var nextToEncode = 0
    private var rendered: [Int: PixelBuffer] = [:]
    private var encoding = false
    private var failure: (any Error)?

    /// - Parameters:
    ///   - bands: the output row ranges, in order.
    ///   - needs: for each band, how many window rows must be decoded before it can be rendered.
    ///   - render: renders one band; called from either worker, concurrently for different bands.
    ///   - encode: encodes one band; called in band order, never concurrently.
    init(
        bands: [Range<Int>], needs: [Int], render: @escaping (Range<Int>) throws -> PixelBuffer,
        encode: @escaping (PixelBuffer) throws -> Void
    ) {
        precondition(bands.count == needs.count)
        self.bands = bands
        self.needs = needs
        self.render = render
        self.encode = encode
    }

    /// Runs `decode` on the calling thread (it reports progress through the closure it receives) while a helper
    /// renders and encodes; then helps until every band is encoded. Rethrows the first error from any part.
    func run(decode: ((Int) -> Void) throws -> Void) throws {
        let helper = DispatchGroup()
        DispatchQueue.global(qos: .userInitiated).async(group: helper) { self.work() }
        do {
            try decode { rows in
                self.condition.lock()
                self.decodedRows = rows
                self.condition.broadcast()
                self.condition.unlock()
            }
            condition.lock()
            decodedRows = .max
            condition.broadcast()
            condition.unlock()
        } catch {
            fail(error)
        }
        work()
        helper.wait()
        if let failure { throw failure }
    }

    private func fail(_ error: any Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    /// The worker loop: encode the next band when it is rendered and nobody is encoding, otherwise render the next
    /// band whose rows are decoded, otherwise wait.
    private func work() {
        condition.lock()
        while failure == nil && nextToEncode < bands.count {
            if !encoding, let band = rendered.removeValue(forKey: nextToEncode) {
                encoding = true
                condition.unlock()
                do { try encode(band) } catch { fail(error) }
                condition.lock()
                encoding = false
                nextToEncode += 1
                condition.broadcast()
            } else if nextToRender < bands.count, decodedRows >= needs[nextToRender],
                rendered.count < Self.maximumPendingBands
            {
                let index = nextToRender
                nextToRender += 1
                condition.unlock()
                do {
                    let band = try render(bands[index])
                    condition.lock()
                    rendered[index] = band
                    condition.broadcast()
                } catch {
                    fail(error)
                    condition.lock()
                }
            } else {
                condition.wait()
            }
        }
        condition.unlock()
    }
}
