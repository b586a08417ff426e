import CropCodecs
import CropPixels

/// The colour decision for one output: the metadata it is written with, and the conversion its rows go through.
///
/// A profile other than sRGB is converted to sRGB when ``SaveOptions/colorProfile`` asks for it, and also when
/// ``SaveOptions/stripMetadata`` drops it, so stripping never changes how the colours look. The conversion runs on the
/// output rows, the fewest pixels of the run when it shrinks. Gray pixels with a gray profile become gray with sRGB's
/// tone curve, written without a profile (a gray picture without one is read that way). Any run where lcms2 or the
/// profile fails keeps its pixels, with a warning.
struct OutputColor {
    /// The metadata to write.
    let metadata: ImageMetadata
    /// The conversion the rows need, if any.
    let transform: ColorTransform?
    /// Why a conversion that was asked for did not happen.
    let warnings: [PipelineWarning]

    init(metadata source: ImageMetadata, pixelFormat: PixelFormat, options: SaveOptions) {
        var metadata = options.metadata.applied(to: source)
        var transform: ColorTransform?
        var warnings: [PipelineWarning] = []
        if let profile = source.iccProfile, options.colorProfile == .sRGB || options.stripMetadata,
            ColorTransform.isSRGB(profile) != true
        {
            do {
                guard let layout = ColorTransform.Layout(pixelFormat) else {
                    throw CodecError.unsupportedFeature(format: .png, feature: "converting \(pixelFormat) pixels")
                }
                transform = try ColorTransform(profile: profile, layout: layout, format: options.format ?? .jpeg)
                if !options.stripMetadata {
                    metadata.iccProfile = pixelFormat.layout.isColor ? ColorTransform.sRGBProfile : nil
                }
            } catch {
                warnings.append(.codec(CodecWarning(.icc, "colours not converted to sRGB: \(error)")))
            }
        }
        self.metadata = metadata
        self.transform = transform
        self.warnings = warnings
    }
}

/// Converts rows to sRGB, then hands them on.
final class ColorConvertingSink: RowSink {
    private let next: any RowSink
    private let transform: ColorTransform

    init(_ next: any RowSink, transform: ColorTransform) {
        self.next = next
        self.transform = transform
    }

    func write(_ rows: PixelBuffer, start: Int, count: Int) throws(CropKitError) {
        try next.write(try converted(rows, start: start, count: count), start: 0, count: count)
    }

    func writeLater(_ rows: PixelBuffer) throws(CropKitError) {
        try next.writeLater(try converted(rows, start: 0, count: rows.height))
    }

    func drain() {
        next.drain()
    }

    /// A converted copy of `count` rows from `start` (the caller may reuse its buffer).
    private func converted(_ rows: PixelBuffer, start: Int, count: Int) throws(CropKitError) -> PixelBuffer {
        var copy = try mappingErrors { try rows.cropped(x: 0, y: start, width: rows.width, height: count) }
        let transform = transform
        copy.withUnsafeMutableRows { out in
            for y in 0..<count { transform.convert(out.row(y), to: out.row(y), pixels: out.width) }
        }
        return copy
    }
}
