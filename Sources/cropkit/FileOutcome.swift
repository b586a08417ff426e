import ArgumentParser
import CropKit
import Foundation

/// What a finished job reports.
struct FileOutcome: Sendable {
    /// The output's size in pixels.
    var size: PixelSize
    /// The bytes written.
    var byteCount: Int
    /// Seconds taken.
    var seconds: Double
    /// Recoverable problems (codec warnings, a clipped rectangle …).
    var warnings: [String]
    /// What the run decided by itself (an automatic straighten).
    var notes: [String] = []
}
