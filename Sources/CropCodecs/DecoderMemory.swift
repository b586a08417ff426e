/// What a decoder holds whole while it decodes, per pixel: the part of a run's memory that grows with the picture
/// rather than with its width. Each decoder states its own when it reads the header; the pipeline's memory plan
/// (`ImagePipeline.memoryPlan`) adds the rows, resampler and encoder around it.
///
/// Measured against `/usr/bin/time` on a 4032×2688 photo in every format (docs/serve.md, "Memory"): each figure is at or
/// above what the decoder was seen to hold.
package struct DecoderMemory: Hashable, Sendable {
    /// Bytes held per stored pixel, whatever the shrink-on-load scale (coefficient arrays of a progressive JPEG,
    /// libheif's planes, a GIF's canvas, libtiff's RGBA raster, an interlaced PNG's whole picture).
    package var perStoredPixel: Double
    /// Bytes held per decoded pixel, at the shrink-on-load scale (a lossy WebP's rescaled picture, HEIF's averaged
    /// copy).
    package var perDecodedPixel: Double
    /// Bytes held whatever the size (a progressive JPEG's coefficient stores are mapped in 2 MiB huge pages, so each
    /// may hold up to 2 MiB more than its coefficients).
    package var fixedBytes: Int

    /// A decoder that streams rows and holds nothing whole (a baseline JPEG, a non-interlaced PNG).
    package static let rows = DecoderMemory(perStoredPixel: 0, perDecodedPixel: 0)

    package init(perStoredPixel: Double, perDecodedPixel: Double = 0, fixedBytes: Int = 0) {
        self.perStoredPixel = max(0, perStoredPixel)
        self.perDecodedPixel = max(0, perDecodedPixel)
        self.fixedBytes = max(0, fixedBytes)
    }

    /// The bytes held for a `width × height` stored picture decoded at 1/`scale`, saturating.
    package func bytes(width: Int, height: Int, scale: Int) -> Int {
        let s = max(1, scale)
        let stored = Double(max(0, width)) * Double(max(0, height))
        let decoded = Double((max(0, width) + s - 1) / s) * Double((max(0, height) + s - 1) / s)
        let total = stored * perStoredPixel + decoded * perDecodedPixel + Double(fixedBytes)
        return total < Double(Int.max / 2) ? Int(total.rounded(.up)) : Int.max / 2
    }
}
