/// Checks shared by the encoders.
package enum EncoderChecks {
    /// Throws unless `width × height` is at least 1×1 and at most `maxDimension` per side.
    static func size(width: Int, height: Int, maxDimension: Int, format: ImageFormat) throws(CodecError) {
        guard width >= 1, height >= 1 else {
            throw .invalidArgument(name: "size", reason: "\(width)×\(height): both dimensions must be at least 1")
        }
        guard width <= maxDimension, height <= maxDimension else {
            throw .unsupportedFeature(
                format: format,
                feature: "\(width)×\(height) pixels; \(format) allows at most \(maxDimension) per side")
        }
    }

    /// Throws unless `quality` is on ``ImageFormat/qualityRange`` and `effort` (when given) on `format`'s
    /// ``ImageFormat/effortRange``: the same table ``SaveOptions`` checks a request against before anything is decoded.
    static func settings(format: ImageFormat, quality: Int?, effort: Int? = nil) throws(CodecError) {
        if let quality, !ImageFormat.qualityRange.contains(quality) {
            throw .invalidArgument(
                name: "quality", reason: "\(quality) is outside \(describe(ImageFormat.qualityRange))")
        }
        if let effort, let range = format.effortRange, !range.contains(effort) {
            throw .invalidArgument(name: "effort", reason: "\(effort) is outside \(format)'s \(describe(range))")
        }
    }

    /// `1…100`.
    package static func describe(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound)…\(range.upperBound)" }
}
