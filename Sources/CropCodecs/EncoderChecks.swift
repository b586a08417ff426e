/// Checks shared by the encoders.
enum EncoderChecks {
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
}
