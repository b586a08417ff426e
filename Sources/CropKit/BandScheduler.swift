import CropPixels
import Dispatch

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Renders and encodes a straightened output band by band on two workers while the source is still being decoded.
///
/// The work after libjpeg's entropy decoding has three parts: turning coefficients into rows (serial, the decoding
/// thread), rendering output bands (independent of each other, each reads a range of source rows), and encoding
/// the bands (serial, in order). The caller decodes into a ``SourceRowWindow`` and reports how many rows are ready; a
/// helper worker renders each band as soon as its rows are there and encodes finished bands in order; when decoding
/// is done the caller joins the same loop. Encoding has priority over rendering, so at most
/// ``maximumPendingBands`` rendered bands wait in memory and the output never exists whole. As bands finish, the
/// scheduler tells the window which source rows no band will read again, so the decoder can reuse their slots.
final class BandScheduler: @unchecked Sendable {
    // @unchecked Sendable: every mutable field is guarded by `condition`; the closures are called from the two
    // workers as documented on `init`.

    /// Rendered bands allowed to wait for the encoder before renderers pause.
    static let maximumPendingBands = 2

    private let condition = Condition()
    private let bands: [Range<Int>]
    /// For each band, how many source rows (counted from the first the render reads) must be decoded before it can
    /// be rendered.
    private let needs: [Int]
    /// For each part of the window (its column strips; one for whole rows), for each band, the first source row it
    /// reads there (`Int.max`: none); and the smallest of those from each band on.
    private let firstRows: [[Int]]
    private let firstRowFrom: [[Int]]
    private let render: (Int) throws -> PixelBuffer
    private let encode: (PixelBuffer) throws -> Void
    private let release: ([Int]) -> Void
    private let stop: () -> Void

    // Guarded by `condition`.
    private var decodedRows = 0
    private var nextToRender = 0
    private var nextToEncode = 0
    private var rendering: Set<Int> = []
    private var rendered: [Int: PixelBuffer] = [:]
    private var encoding = false
    private var failure: (any Error)?

    /// - Parameters:
    ///   - bands: the output row ranges, in order.
    ///   - needs: for each band, how many source rows must be decoded before it can be rendered.
    ///   - firstRows: for each part of the window (one for whole rows, or each column strip), for each band, the
    ///     first source row the band reads there (`Int.max` when it reads none).
    ///   - render: renders band `index`; called from either worker, concurrently for different bands.
    ///   - encode: encodes one band; called in band order, never concurrently.
    ///   - release: told, for each part of the window, the first source row any band still to render reads there,
    ///     after each band is rendered (never decreasing; `Int.max` when none does).
    ///   - stop: called once when any part fails, so that a decoder waiting for window slots stops waiting.
    init(
        bands: [Range<Int>], needs: [Int], firstRows: [[Int]], render: @escaping (Int) throws -> PixelBuffer,
        encode: @escaping (PixelBuffer) throws -> Void, release: @escaping ([Int]) -> Void,
        stop: @escaping () -> Void
    ) {
        precondition(bands.count == needs.count && firstRows.allSatisfy { $0.count == bands.count })
        self.bands = bands
        self.needs = needs
        self.firstRows = firstRows
        firstRowFrom = firstRows.map { rows in
            var from = rows
            for i in from.indices.reversed().dropFirst() { from[i] = Swift.min(from[i], from[i + 1]) }
            return from
        }
        self.render = render
        self.encode = encode
        self.release = release
        self.stop = stop
    }

    /// What the decoding side can do besides decoding.
    struct Decoding {
        fileprivate let scheduler: BandScheduler

        /// Reports that `rows` source rows (counted from the first the render reads) are decoded.
        func decoded(_ rows: Int) {
            scheduler.condition.lock()
            scheduler.decodedRows = rows
            scheduler.condition.broadcast()
            scheduler.condition.unlock()
        }

        /// Encodes or renders one band if one is ready, on the calling thread, and says whether it did: what a decoder
        /// does instead of waiting when the window is full.
        func helpOnce() -> Bool {
            scheduler.condition.lock()
            defer { scheduler.condition.unlock() }
            return scheduler.step()
        }
    }

    /// Runs `decode` on the calling thread (it reports progress, and helps when it must wait, through the
    /// ``Decoding`` it receives) while a helper renders and encodes; then helps until every band is encoded.
    /// Rethrows the first error from any part.
    func run(decode: (Decoding) throws -> Void) throws {
        // Rows above the first each part of the window reads are not kept from the start.
        condition.lock()
        let keep = firstRowStillRead
        condition.unlock()
        release(keep)
        let helper = DispatchGroup()
        DispatchQueue.global(qos: .userInitiated).async(group: helper) { self.work() }
        do {
            try decode(Decoding(scheduler: self))
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
        let first = failure == nil
        if first { failure = error }
        condition.broadcast()
        condition.unlock()
        if first { stop() }
    }

    /// For each part of the window, the first source row a band still to render (or being rendered) reads there;
    /// with the lock held.
    private var firstRowStillRead: [Int] {
        firstRows.indices.map { part in
            let pending = nextToRender < bands.count ? firstRowFrom[part][nextToRender] : Int.max
            return rendering.reduce(pending) { Swift.min($0, firstRows[part][$1]) }
        }
    }

    /// The worker loop: do the next step while there is one, otherwise wait, until every band is encoded.
    private func work() {
        condition.lock()
        while failure == nil && nextToEncode < bands.count {
            if !step() { condition.wait() }
        }
        condition.unlock()
    }

    /// One step, with the lock held (released while working): encode the next band when it is rendered and nobody
    /// is encoding, otherwise render the next band whose rows are decoded. Returns `false` when neither is possible.
    private func step() -> Bool {
        guard failure == nil else { return false }
        if !encoding, let band = rendered.removeValue(forKey: nextToEncode) {
            encoding = true
            condition.unlock()
            do { try encode(band) } catch { fail(error) }
            condition.lock()
            encoding = false
            nextToEncode += 1
            condition.broadcast()
            return true
        }
        guard nextToRender < bands.count, decodedRows >= needs[nextToRender],
            rendered.count < Self.maximumPendingBands
        else { return false }
        let index = nextToRender
        nextToRender += 1
        rendering.insert(index)
        condition.unlock()
        let result = Result { try render(index) }
        condition.lock()
        rendering.remove(index)
        switch result {
        case .success(let band):
            rendered[index] = band
            let keep = firstRowStillRead
            condition.broadcast()
            condition.unlock()
            release(keep)
            condition.lock()
        case .failure(let error):
            condition.unlock()
            fail(error)
            condition.lock()
        }
        return true
    }
}
