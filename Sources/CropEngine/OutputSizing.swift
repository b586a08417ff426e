import CropGeometry

/// The one rule that turns a crop's real size into an integer output size. Everything in CropKit that needs an
/// output size calls it.
///
/// **Rule.** The output is the largest integer size that does not exceed the crop's real size (after the optional
/// scale-down), where "does not exceed" allows ``tolerance`` pixels of floating-point noise:
/// - free: `(max(1, ⌊f·(w + ε)⌋), max(1, ⌊f·(h + ε)⌋))`;
/// - locked to a reduced `W:H`: `(k·W, k·H)` with `k = ⌊min(f·(w + ε)/W, f·(h + ε)/H)⌋`, so the output is *exactly*
///   proportional (1:1 ⇒ width == height). When `k` would be 0 (a crop smaller than `W×H` pixels, possible only
///   with large coprime terms such as the `.original` ratio of a 4031×3023 picture) no exactly proportional size
///   fits, and the free rule is used instead.
///
/// `f ≤ 1` is the scale-down for a maximum output size, `ε` = ``tolerance``. Since a crop never exceeds the picture,
/// the output is never upscaled, and an untouched 4032×3024 crop gives exactly 4032×3024.
public enum OutputSizing {
    /// ε: how much floating-point noise (in source pixels) a crop side may carry and still count as reaching the
    /// next whole pixel. A crop computed as 4031.9999999997 px wide renders 4032 px; one of 4031.99 renders 4031.
    public static let tolerance = 1e-6

    /// The output pixel size for a crop of `cropSize` source pixels, scaled by `scale` (≤ 1), under the lock's
    /// ratio.
    public static func outputSize(cropSize: Size, aspectRatio: AspectRatio?, scale: Double = 1) -> PixelSize {
        let w = scale * (cropSize.width + tolerance), h = scale * (cropSize.height + tolerance)
        if let r = aspectRatio {
            let k = Swift.min(w / Double(r.width), h / Double(r.height)).rounded(.down)
            if k >= 1 { return PixelSize(validWidth: Int(k) * r.width, height: Int(k) * r.height) }
        }
        return PixelSize(validWidth: Swift.max(1, Int(w.rounded(.down))), height: Swift.max(1, Int(h.rounded(.down))))
    }
}
