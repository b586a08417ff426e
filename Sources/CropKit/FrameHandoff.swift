import CropCodecs
import CropPixels
import Dispatch

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An animation's frames decoded on a thread of their own and handed over through a queue of at most `capacity`
/// frames, so that decoding the next frame overlaps rendering and encoding this one (on two cores, the slower of the
/// two sets the pace instead of their sum).
///
/// The reader is touched only by the decoding thread, which ``close()`` stops and waits for: call it once, on every
/// path, before the reader goes.
final class FrameHandoff: @unchecked Sendable {
    // @unchecked Sendable: `queue`, `ended`, `failure` and `cancelled` are touched only under `condition`; the reader
    // only by the decoding thread until `close()` has joined it.
    private let condition = Condition()
    private var queue: [(picture: PixelBuffer, delayMilliseconds: Int)] = []
    private var ended = false
    private var failure: CodecError?
    private var cancelled = false
    private let capacity: Int
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts decoding `frames` at once.
    init(_ frames: any AnimationFrames, capacity: Int = 2) {
        self.capacity = Swift.max(1, capacity)
        let reader = UncheckedFrames(frames)
        Parallel.detach { [self] in decode(reader.frames) }
    }

    private func decode(_ frames: any AnimationFrames) {
        defer { stopped.signal() }
        while true {
            condition.lock()
            while queue.count >= capacity && !cancelled { condition.wait() }
            let stop = cancelled
            condition.unlock()
            if stop { return }
            var frame: (picture: PixelBuffer, delayMilliseconds: Int)?
            var error: CodecError?
            do { frame = try frames.next() } catch let e { error = e }
            condition.lock()
            if let frame { queue.append(frame) } else { (ended, failure) = (true, error) }
            condition.broadcast()
            condition.unlock()
            if frame == nil { return }
        }
    }

    /// The next frame and its delay, `nil` after the last.
    ///
    /// - Throws: the reader's error, once the frames before it have been handed over.
    func next() throws(CodecError) -> (picture: PixelBuffer, delayMilliseconds: Int)? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !ended { condition.wait() }
        if !queue.isEmpty {
            condition.broadcast()
            return queue.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops decoding and waits until the decoding thread has let go of the reader.
    func close() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        stopped.wait()
    }
}

/// A reader handed to the decoding thread, which alone uses it.
private struct UncheckedFrames: @unchecked Sendable {
    let frames: any AnimationFrames
    init(_ frames: any AnimationFrames) { self.frames = frames }
}
