// What the decoder fuzz targets (FuzzJPEG, FuzzPNG, FuzzWebP, FuzzHEIF) do with a decoder once its header parsed.
import CropCodecs
import CropPixels

/// Either decodes the whole picture, trapping unless it has the size the header promised, or reads the first few
/// rows into a buffer `extraStride` bytes wider per row than a row and abandons the picture (the teardown path).
func exercise(_ decoder: any ImageRowDecoder, whole: Bool, rows: Int, extraStride: Int = 0) {
    if whole {
        guard let pixels = try? decoder.decodeAll() else { return }
        guard pixels.width == decoder.outputWidth, pixels.height == decoder.outputHeight else {
            fatalError(
                "decoded \(pixels.width)×\(pixels.height), promised \(decoder.outputWidth)×\(decoder.outputHeight)")
        }
    } else {
        let rowBytes = decoder.outputWidth * decoder.outputFormat.bytesPerPixel
        let count = min(decoder.outputHeight, rows)
        let buffer = UnsafeMutableRawPointer.allocate(
            byteCount: max(1, (rowBytes + extraStride) * count), alignment: 16)
        defer { buffer.deallocate() }
        _ = try? decoder.readRows(into: buffer, bytesPerRow: rowBytes + extraStride, maxRows: count)
        try? decoder.finish()
    }
}
