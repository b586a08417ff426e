import CropEngine
import CropGeometry

/// Random states and operations for the property tests.
public enum Random {
    public static let locks: [AspectLock] = [
        .free, .original, .square, ratio(3, 2), ratio(2, 3), ratio(16, 9), ratio(4, 5),
    ]

    /// The lock of a W:H ratio given by whole numbers (reduced; never fails, unlike parsing a string).
    static func ratio(_ w: Int, _ h: Int) -> AspectLock {
        .ratio(AspectRatio(of: PixelSize(validWidth: w, height: h)))
    }

    public static func sourceSize(_ rng: inout SplitMix64) -> PixelSize {
        switch rng.int(0...9) {
        case 0: PixelSize(validWidth: rng.int(1...12), height: rng.int(1...12))  // tiny, odd and even
        case 1: PixelSize(validWidth: 4032, height: 3024)
        default: PixelSize(validWidth: rng.int(16...6000), height: rng.int(16...6000))
        }
    }

    public static func state(_ rng: inout SplitMix64) throws -> CropState {
        let size = sourceSize(&rng)
        let minimum = rng.pick([1.0, 1.0, 8.0, 32.0, rng.double(0.5...64)])
        var s = try CropState(sourceSize: size, orientation: rng.pick(Orientation.allCases), minimumCropSize: minimum)
        for _ in 0..<rng.int(0...4) { try operate(&s, &rng) }
        return s
    }

    /// A random point roughly over the picture (sometimes well outside it).
    public static func point(_ s: CropState, _ rng: inout SplitMix64) -> Point {
        let u = s.uprightSize.size
        return Point(x: rng.double(-0.3...1.3) * u.width, y: rng.double(-0.3...1.3) * u.height)
    }

    /// Applies one random operation; returns its name.
    @discardableResult
    public static func operate(_ s: inout CropState, _ rng: inout SplitMix64) throws -> String {
        let u = s.uprightSize.size
        switch rng.int(0...12) {
        case 0:
            try s.setStraightenAngle(rng.pick([0, rng.double(-45...45), rng.double(-3...3), 45, -45]))
            return "straighten"
        case 1:
            try s.moveCrop(by: Point(x: rng.double(-0.5...0.5) * u.width, y: rng.double(-0.5...0.5) * u.height))
            return "move"
        case 2:
            try s.zoom(by: rng.double(0.2...5), anchor: point(s, &rng))
            return "zoom"
        case 3:
            try s.resizeCrop(rng.pick(CropHandle.allCases), to: point(s, &rng))
            return "resize"
        case 4:
            try s.drawCrop(from: point(s, &rng), to: point(s, &rng))
            return "draw"
        case 5:
            s.rotate(rng.pick(QuarterTurn.allCases), aspectPolicy: rng.pick(RotationAspectPolicy.allCases))
            return "rotate"
        case 6:
            s.flip(rng.pick(FlipAxis.allCases))
            return "flip"
        case 7:
            s.setAspectLock(rng.pick(locks))
            return "aspect"
        case 8:
            s.resetCrop()
            return "resetCrop"
        case 9:
            let r = Rect(
                x: rng.double(-0.2...0.9) * u.width, y: rng.double(-0.2...0.9) * u.height,
                width: rng.double(0.001...1.2) * u.width, height: rng.double(0.001...1.2) * u.height)
            try s.setCrop(r)
            return "setCrop"
        case 10:
            try s.straighten(by: rng.double(-20...20))
            return "straightenBy"
        case 11:
            try s.panPicture(by: Point(x: rng.double(-100...100), y: rng.double(-100...100)))
            return "pan"
        default:
            s.swapAspect()
            return "swapAspect"
        }
    }
}

/// Invariant checks shared by the property and regression tests. Each returns a failure description or `nil`.
public enum Invariants {
    /// The render plan's output rectangle, mapped to the stored image, lies inside it: no fill pixel is possible.
    public static func noFillPixels(_ s: CropState) -> String? {
        guard s.cropIsInsidePicture(tolerance: CropState.constraintTolerance) else {
            return "crop \(s.crop) outside picture \(s.uprightSize) at \(s.straightenAngle)°"
        }
        let plan = s.renderPlan()
        let out = plan.outputSize.size, source = s.sourceSize.size
        let tolerance = CropState.constraintTolerance + OutputSizing.tolerance
        for corner in Rect(size: out).corners {
            let p = plan.transform.apply(to: corner)
            guard p.x >= -tolerance, p.y >= -tolerance, p.x <= source.width + tolerance,
                p.y <= source.height + tolerance
            else { return "output corner \(corner) maps to \(p), outside source \(source)" }
        }
        return nil
    }

    /// With a W:H lock the integer output is exactly (k·W, k·H), k the largest that fits the crop; free, the output
    /// is the crop's size rounded down (within the rounding tolerance).
    public static func exactAspect(_ s: CropState) -> String? {
        let out = s.outputSize, crop = s.crop.size, e = OutputSizing.tolerance
        guard Double(out.width) <= max(1, crop.width + e), Double(out.height) <= max(1, crop.height + e) else {
            return "output \(out) exceeds crop \(crop)"
        }
        guard let r = s.aspectRatio else {
            if out.width != max(1, Int((crop.width + e).rounded(.down)))
                || out.height != max(1, Int((crop.height + e).rounded(.down)))
            {
                return "free output \(out) is not the crop \(crop) rounded down"
            }
            return nil
        }
        let cropRatio = crop.width / crop.height
        guard abs(cropRatio / r.value - 1) < 1e-9 else { return "crop \(crop) does not have ratio \(r)" }
        let k = min((crop.width + e) / Double(r.width), (crop.height + e) / Double(r.height)).rounded(.down)
        if k >= 1 {
            guard out.width * r.height == out.height * r.width, out.width == Int(k) * r.width else {
                return "output \(out) is not the largest exact multiple of \(r) in \(crop)"
            }
        }
        return nil
    }

    /// The allowed crop is the wanted one shrunk about its centre by the smallest factor (so 0.1 % more breaks the
    /// constraint), or, at the minimum size, moved the shortest way.
    public static func minimalZoom(_ s: CropState) -> String? {
        let allowed = s.crop, wanted = s.wantedCrop
        guard allowed != wanted else { return nil }
        let m = s.effectiveMinimumCropSize
        if min(wanted.width, wanted.height) < m * (1 - 1e-9) {
            // A wanted crop under the minimum (possible only where the picture could not host the minimum when it
            // was set): the allowed one is the minimum size, or the largest that fits.
            let atMinimum = abs(min(allowed.width, allowed.height) - m) <= 1e-9 * m
            let largest = s.uprightPicture.largestScale(for: allowed.size) <= 1 + 1e-9
            return atMinimum || largest ? nil : "wanted \(wanted) under the minimum \(m) gave \(allowed)"
        }
        let scale = allowed.width / wanted.width
        guard scale < 1 + 1e-9, abs(allowed.height / wanted.height - scale) < 1e-9 * max(1, scale) else {
            return "allowed \(allowed) is not a uniform shrink of wanted \(wanted)"
        }
        let bigger = Rect(center: allowed.center, size: allowed.size * 1.001)
        if s.uprightPicture.contains(bigger, tolerance: CropState.constraintTolerance) {
            return "a 0.1 % larger crop \(bigger) still fits at \(s.straightenAngle)° in \(s.uprightSize)"
        }
        let moved = allowed.center.distance(to: wanted.center) > 1e-6 * max(1, wanted.width + wanted.height)
        if moved {
            // Only at the minimum size (or the largest possible crop) may the centre move.
            let atMinimum = min(allowed.width, allowed.height) <= m * (1 + 1e-9)
            let largest = s.uprightPicture.largestScale(for: allowed.size) <= 1 + 1e-9
            guard atMinimum || largest else { return "allowed \(allowed) moved from wanted \(wanted)" }
        }
        return nil
    }

    public static func all(_ s: CropState) -> String? {
        noFillPixels(s) ?? exactAspect(s) ?? minimalZoom(s)
    }
}
