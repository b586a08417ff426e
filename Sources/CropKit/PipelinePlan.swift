import CropAnalysis
import CropEngine
import CropGeometry
import CropPixels

/// A chain of ``ImageOperation``s folded, once the header is read, into what one decode, one resampling pass and
/// one encode need: the crop state, the map from output pixels to stored pixels, the filter, and the pixel steps
/// that follow the resample.
struct PipelinePlan {
    /// The geometric steps folded into one state.
    var state: CropState
    /// Output pixels → stored pixels.
    var geometry: RenderGeometry
    /// The separable resampler's settings (the straightened path always filters with Catmull-Rom).
    var resample: ResampleOptions
    /// What happens to the whole output after the resample, in order.
    var pixelSteps: [PixelStep]
    /// Problems worked around while planning (a clipped crop, an automatic straighten not applied).
    var warnings: [PipelineWarning]
    /// What an ``ImageOperation/autoStraighten(minimumConfidence:)`` step measured, once resolved.
    var autoStraighten: StraightenEstimate?
    /// What a step placed by ``Gravity/face`` found, once resolved.
    var faces: FacePlacement?
    /// The part of the crop state's full render (`state.renderPlan()`'s output pixels) the output covers.
    private var region: Rect
    /// The finished output's size before ``reduce(toSide:)`` made it smaller; `nil` when it did not.
    var unreducedSize: PixelSize?

    /// Checks the order of the steps (geometry, then at most one size step, then pixel steps) and the values that
    /// need no picture, so a bad chain fails before anything is read.
    static func validate(_ operations: [ImageOperation]) throws(CropKitError) {
        var previous = ImageOperation.Group.geometry
        var sizeStep: ImageOperation?
        for (index, operation) in operations.enumerated() {
            let group = operation.group
            guard group >= previous else {
                throw .invalidRequest(
                    name: "operations",
                    reason:
                        "step \(index + 1) (\(operation.name)) comes after a \(previous == .size ? "size" : "pixel") "
                        + "step; the order is geometry, then one size step, then pixel steps")
            }
            if group == .size {
                if let sizeStep {
                    throw .invalidRequest(
                        name: "operations",
                        reason: "step \(index + 1) (\(operation.name)) is a second size step after \(sizeStep.name)")
                }
                sizeStep = operation
            }
            if case .recipe = operation, index > 0 { try requireFirst(operation, index, operations) }
            if case .cropState = operation, index > 0 { try requireFirst(operation, index, operations) }
            if case .aspectCrop = operation, index > 0 { try requireFirst(operation, index, operations) }
            if case .autoStraighten = operation,
                operations[..<index].contains(where: { if case .autoStraighten = $0 { true } else { false } })
            {
                throw .invalidRequest(name: "operations", reason: "step \(index + 1) is a second autoStraighten")
            }
            try operation.checkValues()
            previous = group
        }
    }

    private static func requireFirst(_ operation: ImageOperation, _ index: Int, _ operations: [ImageOperation])
        throws(CropKitError)
    {
        if operations[..<index].contains(where: { $0.group == .geometry }) {
            throw .invalidRequest(
                name: "operations",
                reason: "\(operation.name) must be the first geometric step (it is step \(index + 1))")
        }
    }

    /// Folds `operations` (already validated) for a source stored at `storedSize` with EXIF `orientation`.
    init(
        _ operations: [ImageOperation], storedSize: PixelSize, orientation: Orientation, maxThreads: Int
    ) throws(CropKitError) {
        var warnings: [PipelineWarning] = []
        state = try Self.fold(operations, storedSize: storedSize, orientation: orientation, warnings: &warnings)
        let full = state.renderPlan()
        let natural = full.outputSize
        var steps: [PixelStep] = []
        resample = ResampleOptions(filter: .lanczos3, maxThreads: maxThreads)
        region = Rect(size: natural.size)
        switch operations.first(where: { $0.group == .size }) {
        case .fit(let box, let allowUpscale):
            let f = Swift.min(Double(box.width) / Double(natural.width), Double(box.height) / Double(natural.height))
            if allowUpscale, f > 1 {
                // Enlarging keeps the lock's exact proportions through the same sizing rule.
                let out = OutputSizing.outputSize(cropSize: natural.size, aspectRatio: state.aspectRatio, scale: f)
                geometry = RenderGeometry(plan: full, region: Rect(size: natural.size), outputSize: out)
            } else {
                geometry = RenderGeometry(plan: state.renderPlan(maximumOutputSize: box))
            }
        case .resize(let request):
            let box = try request.target.box(for: natural)
            let layout = try request.plan(shown: natural, box: box)
            region = layout.sourceRect
            geometry = RenderGeometry(plan: full, region: layout.sourceRect, outputSize: layout.imageSize)
            resample = ResampleOptions(filter: request.filter, linearLight: request.linearLight, maxThreads: maxThreads)
            if let pad = layout.pad {
                steps.append(.pad(pad.size, x: pad.x, y: pad.y, background: pad.background))
            }
        case .thumbnail(let request):
            let inner = request.side - 2 * request.border
            let layout = try mappingErrors {
                try ResizeMode.fill(gravity: request.gravity).layout(
                    sourceWidth: natural.width, sourceHeight: natural.height, width: inner, height: inner)
            }
            region = layout.sourceRect
            geometry = RenderGeometry(plan: full, region: layout.sourceRect, outputSize: layout.imageSize)
            resample = ResampleOptions(filter: request.filter, linearLight: request.linearLight, maxThreads: maxThreads)
            steps.append(.frame(border: request.border, cornerRadius: request.cornerRadius))
        default:
            geometry = RenderGeometry(plan: full)
        }
        for operation in operations {
            if case .blurFaces(let blur) = operation {
                // On the picture itself, before a frame, padding or border changes its size.
                steps.insert(.blurFaces(blur, detector: HOGFaceDetector(maxThreads: maxThreads)), at: 0)
            }
        }
        for operation in operations {
            switch operation {
            case .roundCorners(let radius, let border): steps.append(.round(radius, border: border))
            case .border(let width, let color): steps.append(.border(width, color: color))
            case .background(let color): steps.append(.background(color))
            default: break
            }
        }
        // A mark goes over the finished canvas, after every other step.
        for case .watermark(let mark) in operations { steps.append(.watermark(mark)) }
        pixelSteps = steps
        self.warnings = warnings
    }

    /// The marks, when every pixel step is a mark: they can be laid over the rows as they stream to the encoder.
    var streamableMarks: [Watermark]? {
        let marks = pixelSteps.compactMap { if case .watermark(let mark) = $0 { mark } else { nil } }
        return marks.count == pixelSteps.count ? marks : nil
    }

    /// The finished output's size: the resample's, through the pixel steps.
    var outputSize: PixelSize { pixelSteps.reduce(geometry.outputSize) { $1.size(after: $0) } }

    /// Renders the same picture at most `side` pixels on its finished output's longer side (a placeholder's copy):
    /// the output grid and the pixel steps scale down together, so the decode shrinks on load as for any small
    /// output. Records the size it would have had in ``unreducedSize``.
    mutating func reduce(toSide side: Int) {
        let finished = outputSize
        let f = Double(side) / Double(Swift.max(finished.width, finished.height))
        guard f < 1 else { return }
        unreducedSize = finished
        func scaled(_ v: Int) -> Int { Swift.max(1, Int((Double(v) * f).rounded())) }
        let small = PixelSize(validWidth: scaled(geometry.outputSize.width), height: scaled(geometry.outputSize.height))
        geometry = RenderGeometry(plan: state.renderPlan(), region: region, outputSize: small)
        pixelSteps = pixelSteps.map { step in
            switch step {
            case .pad(let size, let x, let y, let background):
                let canvas = PixelSize(
                    validWidth: Swift.max(scaled(size.width), small.width),
                    height: Swift.max(scaled(size.height), small.height))
                return .pad(
                    canvas, x: Swift.min(Int((Double(x) * f).rounded()), canvas.width - small.width),
                    y: Swift.min(Int((Double(y) * f).rounded()), canvas.height - small.height), background: background)
            case .frame(let border, let radius):
                return .frame(border: Int((Double(border) * f).rounded()), cornerRadius: radius * f)
            case .round(.pixels(let radius), let border):
                return .round(.pixels(radius * f), border: Int((Double(border) * f).rounded()))
            case .round(.circle, let border): return .round(.circle, border: Int((Double(border) * f).rounded()))
            case .border(let width, let color): return .border(scaled(width), color: color)
            case .background, .blurFaces, .watermark: return step
            }
        }
    }

    /// The geometric steps as one crop state.
    private static func fold(
        _ operations: [ImageOperation], storedSize: PixelSize, orientation: Orientation,
        warnings: inout [PipelineWarning]
    ) throws(CropKitError) -> CropState {
        var state = try mappingErrors { try CropState(sourceSize: storedSize, orientation: orientation) }
        let geometric = operations.filter { $0.group == .geometry }
        let choosesRegion = geometric.contains {
            switch $0 {
            case .crop, .aspect, .aspectCrop, .recipe, .cropState: true
            default: false
            }
        }
        if !choosesRegion {
            // Keep the picture's exact proportions, through straightening too.
            state.setLock(.original)
            state.resetCrop()
        }
        for operation in geometric {
            switch operation {
            case .recipe(let recipe):
                state = try mappingErrors {
                    try CropState(recipe: recipe, sourceSize: storedSize, orientation: orientation)
                }
            case .cropState(let given):
                guard given.sourceSize == storedSize, given.sourceOrientation == orientation else {
                    throw .invalidRequest(
                        name: "crop state",
                        reason: "made for a \(given.sourceSize) picture with orientation "
                            + "\(given.sourceOrientation.exifValue), the source is \(storedSize) with orientation "
                            + "\(orientation.exifValue)")
                }
                state = given
            case .crop(let rect):
                let picture = Rect(size: state.uprightSize.size)
                guard let inside = rect.intersection(picture), !inside.isEmpty else {
                    throw .invalidRequest(
                        name: "crop", reason: "\(rect) lies entirely outside the \(state.uprightSize) picture")
                }
                if inside != rect {
                    warnings.append(.cropClipped(requested: rect, clipped: inside, picture: picture.size))
                }
                try mappingErrors { try state.setCrop(inside) }
            case .aspectCrop(let ratio, let gravity):
                // A smart gravity was resolved to a focal point before planning; unresolved, it centres.
                let picture = Rect(size: state.uprightSize.size)
                state.setLock(.ratio(ratio))
                try mappingErrors { try state.setCrop(gravity.place(ratio.largestSize(in: picture.size), in: picture)) }
            case .aspect(let lock):
                state.setLock(lock)
                if lock != .free { try mappingErrors { try state.setCrop(state.crop) } }
            case .turn(let direction):
                state.rotate(direction, aspectPolicy: .followPicture)
            case .flip(let axis):
                state.flip(axis)
            case .straighten(let degrees):
                let total = state.straightenAngle + degrees
                guard abs(total) <= CropState.maximumStraightenAngle else {
                    throw .invalidRequest(
                        name: "straighten",
                        reason: "\(state.straightenAngle)° + \(degrees)° leaves −45…45")
                }
                try mappingErrors { try state.setStraightenAngle(total) }
            default:
                break
            }
        }
        return state
    }
}

extension ImageOperation {
    /// Checks the values a step carries that need no picture to judge.
    func checkValues() throws(CropKitError) {
        switch self {
        case .crop(let rect):
            guard rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite,
                rect.width > 0, rect.height > 0
            else { throw .invalidRequest(name: "crop", reason: "\(rect) must be finite with a positive size") }
        case .straighten(let degrees):
            guard degrees.isFinite, abs(degrees) <= CropState.maximumStraightenAngle else {
                throw .invalidRequest(name: "straighten", reason: "\(degrees) must be a number of degrees in −45…45")
            }
        case .autoStraighten(let minimum):
            guard minimum.isFinite, (0...1).contains(minimum) else {
                throw .invalidRequest(name: "minimum confidence", reason: "\(minimum) must be a number in 0…1")
            }
        case .thumbnail(let request):
            guard request.side >= 1, request.border >= 0, request.side - 2 * request.border >= 1 else {
                throw .invalidRequest(
                    name: "thumbnail", reason: "side \(request.side) with border \(request.border) leaves no picture")
            }
            guard request.cornerRadius >= 0, request.cornerRadius.isFinite else {
                throw .invalidRequest(name: "corner radius", reason: "\(request.cornerRadius) must be a number ≥ 0")
            }
        case .roundCorners(let radius, let border):
            if case .pixels(let r) = radius, !(r >= 0 && r.isFinite) {
                throw .invalidRequest(name: "radius", reason: "\(r) must be a number ≥ 0")
            }
            guard border >= 0 else { throw .invalidRequest(name: "border", reason: "\(border) must be at least 0") }
        case .border(let width, _):
            guard width >= 0 else { throw .invalidRequest(name: "border", reason: "\(width) must be at least 0") }
        case .blurFaces(let blur):
            guard blur.strength.isFinite, (0.02...1).contains(blur.strength) else {
                throw .invalidRequest(name: "blur strength", reason: "\(blur.strength) must be a number in 0.02…1")
            }
            guard blur.padding.isFinite, (0...2).contains(blur.padding) else {
                throw .invalidRequest(name: "blur padding", reason: "\(blur.padding) must be a number in 0…2")
            }
        default:
            break
        }
    }
}
