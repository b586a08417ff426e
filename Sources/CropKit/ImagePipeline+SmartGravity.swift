import CropAnalysis
import CropCodecs
import CropGeometry
import CropPixels

extension ImageOperation {
    /// The gravity of a fill resize or a thumbnail.
    var fillGravity: Gravity? {
        switch self {
        case .resize(let request):
            if case .fill(let gravity) = request.mode { return gravity }
            return nil
        case .thumbnail(let request):
            return request.gravity
        default:
            return nil
        }
    }

    /// The gravity of a fill resize or a thumbnail, when it is ``Gravity/attention``, ``Gravity/entropy`` or
    /// ``Gravity/face``.
    var smartGravity: Gravity? { fillGravity.flatMap { $0.isSmart ? $0 : nil } }

    /// Whether the step is placed by measuring the picture: a fill or thumbnail by attention, entropy or faces, or an
    /// aspect crop so placed.
    var placesBySmartGravity: Bool {
        if case .aspectCrop(_, let gravity) = self { return gravity.isSmart }
        return smartGravity != nil
    }

    /// The same step with `gravity` in place of its fill gravity when `replaced` says so.
    func replacingFillGravity(with gravity: Gravity, where replaced: (Gravity) -> Bool = { _ in true })
        -> ImageOperation
    {
        switch self {
        case .resize(var request):
            guard case .fill(let old) = request.mode, replaced(old) else { return self }
            request.mode = .fill(gravity: gravity)
            return .resize(request)
        case .thumbnail(var request):
            guard replaced(request.gravity) else { return self }
            request.gravity = gravity
            return .thumbnail(request)
        default:
            return self
        }
    }

    /// The same step with `gravity` in place of a smart one.
    func replacingSmartGravity(with gravity: Gravity) -> ImageOperation {
        replacingFillGravity(with: gravity, where: \.isSmart)
    }
}

extension ImagePipeline {
    /// Resolves a smart gravity in `operations` to the focal point of the window it keeps, decoding the picture once
    /// when it is small enough to hold.
    ///
    /// The picture is decoded whole at the scale the centred plan would decode it at, if that is at most
    /// `predecodeLimit` pixels; the region the size step crops from (after every geometric step: orientation, crop,
    /// straighten) is sampled from it onto a copy of at most 384 pixels, and the decoded picture is handed to the
    /// render, which then reads no file. A larger picture (a PNG or TIFF of many megapixels, which cannot shrink on
    /// load) is not held: the copy is rendered through the streaming pipeline instead, and the render decodes again,
    /// so memory stays bounded. ``InterestMap`` finds the window of the fill's size holding the most interest in the
    /// copy, and that window becomes a ``Gravity/focus(_:)``, which places exactly it.
    ///
    /// ``Gravity/face`` finds the faces in the same region (``scanFaces(_:_:_:predecodeLimit:)``, on a
    /// larger copy) and keeps the window ``Face/window(_:keeping:in:)`` places; with no face it measures attention.
    /// `faces` says which placed the window.
    func resolveSmartGravity(
        _ image: ImageSource, _ source: OpenedSource, _ operations: [ImageOperation], _ gravity: Gravity,
        predecodeLimit: Int = PredecodedPicture.pixelBudget
    ) throws(CropKitError) -> (
        operations: [ImageOperation], source: OpenedSource, window: Rect, share: Double, faces: FacePlacement?
    ) {
        let centred = operations.map { $0.replacingSmartGravity(with: .center) }
        let plan = try PipelinePlan(
            centred, storedSize: source.storedSize, orientation: source.info.orientation, maxThreads: maxThreads)
        let scale = decodeScale(for: source, reduction: plan.geometry.reduction)

        // The crop state's render (the picture after orientation, crop and straighten), and the window the fill
        // keeps of it, in its output pixels.
        let region = plan.state.renderPlan()
        let natural = region.outputSize
        let kept = plan.geometry.region
        if gravity == .face {
            let scan = try scanFaces(image, source, centred, predecodeLimit: predecodeLimit)
            let bounds = Rect(x: 0, y: 0, width: Double(natural.width), height: Double(natural.height))
            guard let placed = Face.window(kept.size, keeping: scan.faces, in: bounds) else {
                let attention = operations.map { $0.replacingSmartGravity(with: .attention) }
                var resolved = try resolveSmartGravity(
                    image, scan.source, attention, .attention, predecodeLimit: predecodeLimit)
                resolved.faces = FacePlacement(faces: [], kept: 0, placedBy: .attention)
                return resolved
            }
            // Hand the render the picture the scan decoded only when the render decodes at that scale too; else
            // the render decodes its own, and the scan's would only be held through it.
            var resolved = scan.source
            if resolved.predecoded?.scale != scale { resolved.predecoded = source.predecoded }
            let focus = Gravity.focus(on: placed.rect, in: bounds)
            return (
                operations.map { $0.replacingSmartGravity(with: focus) }, resolved, placed.rect,
                Double(placed.kept.count) / Double(scan.faces.count),
                FacePlacement(faces: scan.displayed, kept: placed.kept.count, placedBy: .face)
            )
        }
        let f = Swift.min(1, 384 / Double(Swift.max(natural.width, natural.height)))
        let (width, height) = (
            Swift.max(1, Int((Double(natural.width) * f).rounded())),
            Swift.max(1, Int((Double(natural.height) * f).rounded()))
        )
        let (sample, resolved) = try regionCopy(
            image, source, centred, transform: region.transform, natural: natural, scale: scale, width: width,
            height: height, predecodeLimit: predecodeLimit)
        let map = try mappingErrors {
            try InterestMap(sample, measure: InterestMap.measure(for: gravity) ?? .attention)
        }
        let sx = Double(sample.width) / Double(natural.width), sy = Double(sample.height) / Double(natural.height)
        let (found, share) = map.bestWindow(Size(width: kept.width * sx, height: kept.height * sy))
        let window = Rect(x: found.minX / sx, y: found.minY / sy, width: kept.width, height: kept.height)
        let focus = Gravity.focus(
            on: window, in: Rect(x: 0, y: 0, width: Double(natural.width), height: Double(natural.height)))
        return (operations.map { $0.replacingSmartGravity(with: focus) }, resolved, window, share, nil)
    }

    /// A `width × height` copy of the region the geometric steps of `operations` leave (the crop state's render of
    /// `natural` pixels, `transform` mapping them to stored pixels), for measuring: from the picture already decoded
    /// at that scale (an animation's mean frame, or what another measure decoded), or decoded whole at 1/`scale`
    /// when that is at most `predecodeLimit` pixels (then kept in the returned source for the render), or else
    /// rendered through the streaming pipeline, so memory stays bounded. `bilinear` as for
    /// ``sample(_:decodedAt:transform:natural:width:height:bilinear:)``.
    func regionCopy(
        _ image: ImageSource, _ source: OpenedSource, _ operations: [ImageOperation], transform: AffineTransform2D,
        natural: PixelSize, scale: Int, width: Int, height: Int, bilinear: Bool = false, predecodeLimit: Int
    ) throws(CropKitError) -> (PixelBuffer, OpenedSource) {
        var resolved = source
        let decoded: PredecodedPicture
        if let predecoded = source.predecoded, predecoded.scale == scale {
            decoded = predecoded
        } else if ((source.storedSize.width + scale - 1) / scale) * ((source.storedSize.height + scale - 1) / scale)
            <= predecodeLimit
        {
            let decoder = try makeDecoder(source, scale: JPEGScale(rawValue: scale) ?? .full)
            let pixels = try mappingErrors { try decoder.decodeAll() }
            decoded = PredecodedPicture(
                scale: scale, pixels: pixels, info: decoder.info, metadata: decoder.metadata, warnings: decoder.warnings
            )
            resolved.predecoded = decoded
        } else {
            let geometric = operations.filter { $0.group == .geometry }
            let copy = ResizeRequest(.box(PixelSize(validWidth: width, height: height)), mode: .stretch)
            return (try run(image, geometric + [.resize(copy)]).pixels, source)
        }
        let sample = try mappingErrors {
            try Self.sample(
                decoded.pixels, decodedAt: Double(decoded.scale), transform: transform, natural: natural, width: width,
                height: height, bilinear: bilinear, threads: maxThreads)
        }
        return (sample, resolved)
    }

    /// A `width × height` copy of a crop state's render (`natural` output pixels, `transform` mapping them to stored
    /// pixels) taken from `pixels`, the stored picture decoded at 1/`decodedAt`. The picture is first box-shrunk to
    /// about two of its pixels per sample, so the copy does not alias, then each sample takes the nearest pixel, or
    /// with `bilinear` the four nearest weighted (for a face detector, which reads gradients that nearest-pixel
    /// sampling would break into steps). Rows are split over `threads` (`0`: every core).
    static func sample(
        _ pixels: PixelBuffer, decodedAt scale: Double, transform: AffineTransform2D, natural: PixelSize,
        width: Int, height: Int, bilinear: Bool = false, threads: Int = 0
    ) throws(PixelError) -> PixelBuffer {
        let stepX = Double(natural.width) / Double(width), stepY = Double(natural.height) / Double(height)
        let linear = (transform.a * transform.a + transform.b * transform.b).squareRoot()
        let k = Swift.max(1, Int(linear * Swift.min(stepX, stepY) / scale / 2))
        let shrunk =
            k == 1
            ? pixels
            : try pixels.resized(
                width: Swift.max(1, pixels.width / k), height: Swift.max(1, pixels.height / k),
                options: ResampleOptions(filter: .box))
        let fx = Double(shrunk.width) / Double(pixels.width), fy = Double(shrunk.height) / Double(pixels.height)
        let layout = shrunk.format.layout, channels = layout.channelCount
        var samples = [UInt8](repeating: 0, count: width * height * channels)
        // Output (i, j) samples the shrunk picture at transform((i + ½)·stepX, (j + ½)·stepY) scaled by (kx, ky): a
        // row starts at `origin` and moves by `step` a sample.
        let kx = fx / scale, ky = fy / scale
        let step = (x: transform.a * stepX * kx, y: transform.b * stepX * ky)
        shrunk.withUnsafeRows { rows in
            samples.withUnsafeMutableBufferPointer { out in
                let shared = UncheckedSendable((rows, out.baseAddress!))
                let parts = Parallel.chunks(0..<height, parts: Parallel.threads(threads))
                Parallel.forEach(parts.count) { part in
                    let (rows, out) = shared.value
                    let maxX = rows.width - 1, maxY = rows.height - 1
                    let eight = rows.format.depth == .eight
                    for j in parts[part] {
                        let start = transform.apply(to: Point(x: 0.5 * stepX, y: (Double(j) + 0.5) * stepY))
                        var o = j * width * channels
                        for i in 0..<width {
                            let px = start.x * kx + Double(i) * step.x, py = start.y * ky + Double(i) * step.y
                            if bilinear {
                                let sx = Swift.min(Swift.max(px - 0.5, 0), Double(maxX))
                                let sy = Swift.min(Swift.max(py - 0.5, 0), Double(maxY))
                                let x0 = Int(sx), y0 = Int(sy)
                                let x1 = Swift.min(x0 + 1, maxX), y1 = Swift.min(y0 + 1, maxY)
                                let tx = Float(sx - Double(x0)), ty = Float(sy - Double(y0))
                                let w00 = (1 - tx) * (1 - ty), w10 = tx * (1 - ty), w01 = (1 - tx) * ty, w11 = tx * ty
                                let a = x0 * channels, b = x1 * channels
                                if eight {
                                    let r0 = rows.row8(y0), r1 = rows.row8(y1)
                                    for c in 0..<channels {
                                        let v =
                                            w00 * Float(r0[a + c]) + w10 * Float(r0[b + c])
                                            + w01 * Float(r1[a + c]) + w11 * Float(r1[b + c])
                                        // v ≥ 0: + 0.5 and truncation round it
                                        out[o + c] = UInt8(Swift.min(255, v + 0.5))
                                    }
                                } else {
                                    let r0 = rows.row16(y0), r1 = rows.row16(y1)
                                    for c in 0..<channels {
                                        let v =
                                            w00 * Float(r0[a + c] >> 8) + w10 * Float(r0[b + c] >> 8)
                                            + w01 * Float(r1[a + c] >> 8) + w11 * Float(r1[b + c] >> 8)
                                        out[o + c] = UInt8(Swift.min(255, v + 0.5))
                                    }
                                }
                            } else {
                                let x = Swift.min(Swift.max(Int(px), 0), maxX),
                                    y = Swift.min(Swift.max(Int(py), 0), maxY)
                                // The nearest pixel's samples, 16-bit ones by their high byte.
                                if eight {
                                    let pixel = rows.row8(y) + x * channels
                                    for c in 0..<channels { out[o + c] = pixel[c] }
                                } else {
                                    let pixel = rows.row16(y) + x * channels
                                    for c in 0..<channels { out[o + c] = UInt8(pixel[c] >> 8) }
                                }
                            }
                            o += channels
                        }
                    }
                }
            }
        }
        return try PixelBuffer(width: width, height: height, layout: layout, samples: samples)
    }
}
