import ArgumentParser
import CropKit
import Foundation

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
}
