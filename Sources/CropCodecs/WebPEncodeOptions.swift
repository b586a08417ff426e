import CWebP

/// Options for WebP encoding (libwebp's own settings, named as `cwebp` names them).
package struct WebPEncodeOptions: Hashable, Sendable {
    /// 1…100 (``ImageFormat/qualityRange``). Lossy: the quality (libwebp's scale, default 80). Lossless: how hard to compress (100 = smallest).
    package var quality: Int
    /// Lossless encoding: every pixel kept exactly.
    package var lossless: Bool
    /// The speed/size trade-off, 0 (fastest) … 6 (smallest). Default 4, as `cwebp`.
    package var effort: Int
    /// Keep the colour under fully transparent pixels (libwebp otherwise replaces it to compress better).
    package var exact: Bool

    /// Creates options.
    package init(quality: Int = 80, lossless: Bool = false, effort: Int = 4, exact: Bool = false) {
        self.quality = quality
        self.lossless = lossless
        self.effort = effort
        self.exact = exact
    }
}

extension WebPEncodeOptions {
    /// The options as the CWebP shim takes them, for rows with or without `alpha` (one encoding thread).
    func shimParameters(alpha: Bool) -> ck_webp_encode_params {
        var params = ck_webp_encode_params()
        params.quality = Float(quality)
        params.lossless = lossless ? 1 : 0
        params.method = Int32(effort)
        params.exact = exact ? 1 : 0
        params.alpha = alpha ? 1 : 0
        params.threads = 1
        return params
    }
}
