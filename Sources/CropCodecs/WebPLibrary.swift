import CWebP
import CropPixels

/// libwebp, opened at run time by the CWebP shim (no WebP headers or development package are needed to build
/// CropKit; the system's runtime library is used). Every call maps the shim's status to a ``CodecError``; when the
/// library is missing or speaks another ABI, the error is ``CodecError/libraryUnavailable(format:reason:)``.
package enum WebPLibrary {
    /// Whether libwebp could be loaded (it is loaded on the first call).
    package static var isAvailable: Bool { ck_webp_load(nil) == CK_WEBP_OK }

    /// The bitstream features of a still WebP.
    static func features(_ bytes: [UInt8]) throws(CodecError) -> ck_webp_features {
        var features = ck_webp_features()
        try ShimStatus.call(format: .webp) { message in
            bytes.withUnsafeBufferPointer { ck_webp_get_features($0.baseAddress, $0.count, &features, message) }
        }
        guard features.width > 0, features.height > 0 else {
            throw .corruptData(format: .webp, message: "a picture of \(features.width)×\(features.height)")
        }
        return features
    }

    /// Decodes a still WebP into `buffer` (8-bit RGB or RGBA, chosen by the buffer's format), rescaled by libwebp to
    /// the buffer's size when `scaled` is true.
    static func decode(_ bytes: [UInt8], into buffer: inout PixelBuffer, scaled: Bool) throws(CodecError) {
        let alpha: Int32 = buffer.format.hasAlpha ? 1 : 0
        let width = Int32(buffer.width), height = Int32(buffer.height)
        try buffer.withUnsafeMutableRows { rows throws(CodecError) in
            try ShimStatus.call(format: .webp) { message in
                bytes.withUnsafeBufferPointer { data in
                    ck_webp_decode(
                        data.baseAddress, data.count, alpha, scaled ? width : 0, scaled ? height : 0,
                        rows.row(0).assumingMemoryBound(to: UInt8.self), Int32(rows.bytesPerRow),
                        rows.bytesPerRow * rows.height, message)
                }
            }
        }
    }

    /// Encodes 8-bit RGB or RGBA rows into a plain WebP file (no metadata chunks).
    static func encode(
        _ pixels: UnsafePixelRows, params: ck_webp_encode_params
    ) throws(CodecError) -> [UInt8] {
        var params = params
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        try ShimStatus.call(format: .webp, role: "encoder") { message in
            ck_webp_encode(
                pixels.row(0).assumingMemoryBound(to: UInt8.self), Int32(pixels.width), Int32(pixels.height),
                Int32(pixels.bytesPerRow), &params, &output, &size, message)
        }
        defer { ck_webp_free(output) }
        guard let output else { throw .corruptData(format: .webp, message: "libwebp returned no bytes") }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
