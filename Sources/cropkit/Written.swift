import ArgumentParser
import CropKit
import Foundation

/// What an operation wrote: a pipeline's result, or the CLI's own writes.
struct Written: Sendable {
    /// The output's size in pixels.
    var size: PixelSize
    /// The bytes written.
    var byteCount: Int
    /// Recoverable problems met on the way.
    var warnings: [String]

    init(size: PixelSize, byteCount: Int, warnings: [String] = []) {
        self.size = size
        self.byteCount = byteCount
        self.warnings = warnings
    }

    init(_ result: PipelineResult) {
        self.init(size: result.size, byteCount: result.byteCount, warnings: result.warnings.map(\.description))
    }
}
