import ArgumentParser
import CropKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a finished job reports.
package struct FileOutcome: Sendable {
    /// The output's size in pixels.
    package var size: PixelSize
    /// The bytes written.
    package var byteCount: Int
    /// Seconds taken.
    package var seconds: Double
    /// Recoverable problems (codec warnings, a clipped rectangle …).
    package var warnings: [String]
    /// What the run decided by itself (an automatic straighten).
    package var notes: [String] = []
    /// The frames written: more than 1 for an animation.
    package var frames = 1

    /// `160×120`, or `160×120, 12 frames` for an animation: the output's size as the progress lines give it.
    package var sizeDescription: String {
        frames > 1 ? "\(Console.size(size)), \(frames) frames" : Console.size(size)
    }
}
