import CropAnalysis
import CropGeometry
import CropPixels

extension ResizeRequest {
    /// How a size box is met, by the name the faces give it (`--mode` in `cropkit resize`, `mode=` in the service).
    public enum ModeName: String, CaseIterable, Hashable, Sendable {
        case fit, fill, pad, stretch
    }

    /// A resize from its options as the faces name them (`cropkit resize`'s flags, the service's query parameters),
    /// with every rule between them checked here, once, for every face:
    ///
    /// - exactly one of `width`, `height` or `size`, each side in 1…`maximumSide`;
    /// - `background` only with `pad`;
    /// - `focus` (a focal point) only with `fill`, and not with a `gravity` too;
    /// - `gravity` only with `fill` or `pad` (a fit or stretch keeps the whole picture, so a gravity given with one
    ///   would be silently ignored: `size=128x128&gravity=face` would be a fitted picture, not a square placed by
    ///   faces);
    /// - `pad` places the picture by an alignment (`center`, `top` … `bottom-right`), not by attention or entropy.
    ///
    /// - Parameters:
    ///   - width: the output width (the height keeps the aspect ratio).
    ///   - height: the output height (the width keeps the aspect ratio).
    ///   - size: the box to resize into, met as `mode` says.
    ///   - mode: how the picture meets a `size` box (and a width or height): fit, fill, pad or stretch.
    ///   - gravity: what a fill keeps, or where a pad puts the picture; `nil` when not given (`center`).
    ///   - focus: a `Gravity.focus` or `Gravity.pixelFocus` instead of `gravity`.
    ///   - background: the colour around a padded picture (transparent when not given).
    ///   - filter: the resampling filter.
    ///   - linearLight: filter in linear light.
    ///   - allowUpscale: let the output be larger than the source.
    ///   - maximumSide: the largest width, height or box side allowed (the service's output cap).
    /// - Throws: `CropKitError.invalidRequest(name:reason:)` naming the option: `width`, `height` or `size`,
    ///   `background`, `focus` or `gravity`. A face maps it to its own words (`--background`, `background=`).
    public init(
        width: Int? = nil, height: Int? = nil, size: PixelSize? = nil, mode: ModeName = .fit, gravity: Gravity? = nil,
        focus: Gravity? = nil, background: PixelColor? = nil, filter: ResamplingFilter = .lanczos3,
        linearLight: Bool = false, allowUpscale: Bool = false, maximumSide: Int = .max
    ) throws(CropKitError) {
        let given = [("width", width != nil), ("height", height != nil), ("size", size != nil)].filter(\.1).map(\.0)
        guard given.count == 1 else {
            throw .invalidRequest(
                name: given.count > 1 ? given[1] : "size",
                reason: given.count > 1
                    ? "give one of width, height or size, not \(given.joined(separator: " and "))"
                    : "give one of width, height or size")
        }
        func side(_ name: String, _ value: Int) throws(CropKitError) -> Int {
            guard value >= 1, value <= maximumSide else {
                throw .invalidRequest(
                    name: name,
                    reason: maximumSide == .max ? "\(value) must be at least 1" : "\(value) is not in 1…\(maximumSide)")
            }
            return value
        }
        let target: Target
        if let width {
            target = .width(try side("width", width))
        } else if let height {
            target = .height(try side("height", height))
        } else {
            let box = size!
            guard Swift.max(box.width, box.height) <= maximumSide else {
                throw .invalidRequest(name: "size", reason: "sides above \(maximumSide) pixels are not allowed")
            }
            target = .box(box)
        }
        if background != nil, mode != .pad {
            throw .invalidRequest(name: "background", reason: "applies only with mode pad")
        }
        if focus != nil {
            guard gravity == nil else {
                throw .invalidRequest(name: "focus", reason: "give focus or gravity, not both")
            }
            guard mode == .fill else { throw .invalidRequest(name: "focus", reason: "applies only with mode fill") }
        }
        if gravity != nil, mode == .fit || mode == .stretch {
            throw .invalidRequest(
                name: "gravity",
                reason: "applies only with mode fill or pad (a \(mode.rawValue) keeps the whole picture)")
        }
        let placement = focus ?? gravity ?? .center
        let resizeMode: ResizeMode
        switch mode {
        case .fit: resizeMode = .fit
        case .fill: resizeMode = .fill(gravity: placement)
        case .stretch: resizeMode = .stretch
        case .pad:
            guard case .alignment(let alignment) = placement else {
                throw .invalidRequest(
                    name: "gravity", reason: "mode pad places the picture by an alignment (center, top … bottom-right)")
            }
            resizeMode = .pad(background: background ?? .transparent, alignment: alignment)
        }
        self.init(target, mode: resizeMode, filter: filter, linearLight: linearLight, allowUpscale: allowUpscale)
    }
}
