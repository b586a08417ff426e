import CropPixels

/// One window the model scores as a face, in the scanned picture's pixels.
package struct HOGDetection: Sendable, Equatable {
    /// dlib's inclusive pixel rectangle: columns `left...right`, rows `top...bottom`.
    package var left: Int, top: Int, right: Int, bottom: Int
    /// The filter response above the filter's threshold (dlib's `detection_confidence`).
    package var confidence: Double
    /// Which of the model's filters found it.
    package var filter: Int

    /// Pixels inside, as dlib counts them (0 when empty).
    var area: Double {
        right < left || bottom < top ? 0 : Double(right - left + 1) * Double(bottom - top + 1)
    }
}

extension HOGFaceModel {
    /// The sizes of the pyramid's levels for a `width × height` picture, largest first, as dlib's
    /// `create_fhog_pyramid` with `pyramid_down<6>` counts them.
    package func pyramid(width: Int, height: Int) -> [(width: Int, height: Int)] {
        // dlib counts levels by shrinking the picture's rectangle until it is smaller than a layer's minimum.
        var levels = 0
        var left = 0.0, top = 0.0, right = Double(width - 1), bottom = Double(height - 1)
        repeat {
            func down(_ v: Double) -> Double { ((v - 0.3) * (5.0 / 6.0) + 0.5).rounded(.down) }
            (left, top, right, bottom) = (down(left), down(top), down(right), down(bottom))
            levels += 1
        } while right - left + 1 >= Double(minimumLayerWidth) && bottom - top + 1 >= Double(minimumLayerHeight)
            && levels < 1000
        var sizes = [(width: width, height: height)]
        while sizes.count < levels {
            let last = sizes[sizes.count - 1]
            sizes.append((width: 5 * last.width / 6, height: 5 * last.height / 6))
        }
        return sizes
    }

    /// Every face the model finds in `image` at its own scale (dlib finds faces from about 80 pixels up; scale the
    /// picture so the smallest face wanted is that large), strongest first, after dlib's non-maximum suppression.
    ///
    /// `threshold` is added to each filter's threshold: negative finds more (and more false) faces.
    ///
    /// - Complexity: O(pixels · terms): about 6,100 multiply-adds per 8×8 cell per pyramid level.
    package func detect(_ image: RGBImage, threshold: Double = 0, threads: Int = 1) -> [HOGDetection] {
        let sizes = pyramid(width: image.width, height: image.height)
        // Three rounds, each spread over the threads as they come free (so no thread waits on a long task): the
        // pyramid's pictures (each from the one above, as dlib makes them) beside the first level's features; the
        // other levels' features; then every level with every filter, largest first. The pictures go once their
        // features are made; the features of all levels are held (about 6.5 bytes per pixel of the picture scanned,
        // 9.8 with the pictures, besides the picture itself).
        var pictures = [image]
        var features = [HOGFeatures?](repeating: nil, count: sizes.count)
        func makeFeatures(_ level: Int) -> HOGFeatures {
            HOGFeatures(pictures[level], cellSize: cellSize, filterRows: filterRows, filterColumns: filterColumns)
        }
        features.withUnsafeMutableBufferPointer { features in
            let out = UncheckedSendable(features.baseAddress!)
            withUnsafeMutablePointer(to: &pictures) { pictures in
                let chain = UncheckedSendable(pictures)
                Parallel.forEachTaken(2, threads: threads) { task in
                    if task == 0 {
                        out.value[0] = HOGFeatures(
                            image, cellSize: cellSize, filterRows: filterRows, filterColumns: filterColumns)
                    } else {
                        var levels = [image]
                        for size in sizes.dropFirst() {
                            levels.append(levels[levels.count - 1].dlibResized(width: size.width, height: size.height))
                        }
                        chain.value.pointee = levels
                    }
                }
            }
        }
        features.withUnsafeMutableBufferPointer { features in
            let out = UncheckedSendable(features.baseAddress!)
            Parallel.forEachTaken(sizes.count - 1, threads: threads) { out.value[$0 + 1] = makeFeatures($0 + 1) }
        }
        pictures = []
        let levels = features.map { $0! }
        let tasks = levels.indices.flatMap { level in filters.indices.map { (level, $0) } }
        var results = [[HOGDetection]](repeating: [], count: tasks.count)
        results.withUnsafeMutableBufferPointer { results in
            let out = UncheckedSendable(results.baseAddress!)
            Parallel.forEachTaken(tasks.count, threads: threads) { i in
                let (level, filter) = tasks[i]
                out.value[i] = scan(levels[level], level: level, filter: filter, threshold: threshold)
            }
        }
        let found = Array(results.joined())
        // dlib's non-maximum suppression: strongest first, a box overlapping a kept one is dropped.
        let all = found.sorted { $0.confidence > $1.confidence }
        var kept = [HOGDetection]()
        for candidate in all where !kept.contains(where: { overlaps($0, candidate) }) {
            kept.append(candidate)
        }
        return kept
    }

    /// Whether dlib's `test_box_overlap` calls two boxes the same object.
    func overlaps(_ a: HOGDetection, _ b: HOGDetection) -> Bool {
        let inner = HOGDetection(
            left: Swift.max(a.left, b.left), top: Swift.max(a.top, b.top), right: Swift.min(a.right, b.right),
            bottom: Swift.min(a.bottom, b.bottom), confidence: 0, filter: 0
        ).area
        guard inner > 0 else { return false }
        let outer = HOGDetection(
            left: Swift.min(a.left, b.left), top: Swift.min(a.top, b.top), right: Swift.max(a.right, b.right),
            bottom: Swift.max(a.bottom, b.bottom), confidence: 0, filter: 0
        ).area
        return inner / outer > overlapIoU || inner / a.area > overlapCovered || inner / b.area > overlapCovered
    }

    /// The windows of one pyramid level that `filter` scores at or above its threshold, in level-0 pixels.
    func scan(_ features: HOGFeatures, level: Int, filter index: Int, threshold: Double) -> [HOGDetection] {
        let rows = features.rows, columns = features.columns
        guard rows > 0, columns > 0 else { return [] }
        let filter = filters[index]
        let planeSize = rows * columns
        var saliency = [Float](repeating: 0, count: planeSize)
        var scratch = [Float](repeating: 0, count: planeSize)
        let firstRow = filterRows / 2, firstColumn = filterColumns / 2
        let lastRow = rows - (filterRows - 1) / 2, lastColumn = columns - (filterColumns - 1) / 2
        guard firstRow < lastRow, firstColumn < lastColumn else { return [] }
        features.values.withUnsafeBufferPointer { planes in
            saliency.withUnsafeMutableBufferPointer { out in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    for (p, terms) in filter.planes.enumerated() where !terms.isEmpty {
                        let plane = planes.baseAddress! + p * planeSize
                        for term in terms {
                            separableFilter(
                                plane, into: out.baseAddress!, scratch: scratch.baseAddress!, rows: rows,
                                columns: columns, row: term.row, column: term.column)
                        }
                    }
                }
            }
        }
        let limit = filter.threshold + threshold
        var found = [HOGDetection]()
        let boxWidth = windowWidth / cellSize, boxHeight = windowHeight / cellSize
        for r in firstRow..<lastRow {
            for c in firstColumn..<lastColumn where Double(saliency[r * columns + c]) >= limit {
                // dlib's centred box of the window's cells, mapped to the centres of its corner cells' pixels.
                let left = c - boxWidth / 2, top = r - boxHeight / 2
                let (x0, y0) = cellToImage(left, top)
                let (x1, y1) = cellToImage(left + boxWidth - 1, top + boxHeight - 1)
                // Up the pyramid: each level is 5/6 of the one below, offset by 0.3 pixels.
                func up(_ v: Int) -> Int {
                    var d = Double(v)
                    for _ in 0..<level { d = d * (6.0 / 5.0) + 0.3 }
                    return Int((d + 0.5).rounded(.down))
                }
                found.append(
                    HOGDetection(
                        left: up(x0), top: up(y0), right: up(x1), bottom: up(y1),
                        confidence: Double(saliency[r * columns + c]) - filter.threshold, filter: index))
            }
        }
        return found
    }

    /// dlib's `fhog_to_image`: a cell's position in the padded feature planes to its centre pixel.
    func cellToImage(_ column: Int, _ row: Int) -> (Int, Int) {
        let x = (column + 1 - (filterColumns - 1) / 2) * cellSize + 1
        let y = (row + 1 - (filterRows - 1) / 2) * cellSize + 1
        let offset = cellSize / 2
        return (x >= 0 ? x + offset : x - offset, y >= 0 ? y + offset : y - offset)
    }
}

/// Adds the separable filter `column · rowᵀ` of `input` (`rows × columns`) to `output` where the filter fits, as
/// dlib's `float_spatially_filter_image_separable` does (8 columns at a time, taps summed in three interleaved
/// partial sums, the last columns one by one), so the sums round as dlib's do.
private func separableFilter(
    _ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
    rows: Int, columns: Int, row: [Float], column: [Float]
) {
    let firstRow = column.count / 2, firstColumn = row.count / 2
    let lastRow = rows - (column.count - 1) / 2, lastColumn = columns - (row.count - 1) / 2
    row.withUnsafeBufferPointer { taps in
        for r in 0..<rows {
            let line = input + r * columns - firstColumn, out = scratch + r * columns
            var c = firstColumn
            while c < lastColumn - 7 {
                UnsafeMutableRawPointer(out + c).storeBytes(of: dot8(line + c, stride: 1, taps), as: SIMD8<Float>.self)
                c += 8
            }
            while c < lastColumn {
                var sum: Float = 0
                for n in 0..<taps.count { sum += line[c + n] * taps[n] }
                out[c] = sum
                c += 1
            }
        }
    }
    column.withUnsafeBufferPointer { taps in
        for r in firstRow..<lastRow {
            let top = scratch + (r - firstRow) * columns, out = output + r * columns
            var c = firstColumn
            while c < lastColumn - 7 {
                let sum = dot8(top + c, stride: columns, taps)
                let target = UnsafeMutableRawPointer(out + c)
                target.storeBytes(of: target.loadUnaligned(as: SIMD8<Float>.self) + sum, as: SIMD8<Float>.self)
                c += 8
            }
            while c < lastColumn {
                var sum: Float = 0
                for m in 0..<taps.count { sum += top[c + m * columns] * taps[m] }
                out[c] += sum
                c += 1
            }
        }
    }
}

/// Eight neighbouring outputs of a 1-D filter: `Σ source[n·stride + lane] · taps[n]`, summed as dlib does (taps
/// 0, 3, 6 … in one partial sum, 1, 4, 7 … and 2, 5, 8 … in two others, then `first + (second + third)`).
@inline(__always)
private func dot8(_ source: UnsafePointer<Float>, stride: Int, _ taps: UnsafeBufferPointer<Float>) -> SIMD8<Float> {
    @inline(__always) func load(_ n: Int) -> SIMD8<Float> {
        UnsafeRawPointer(source + n * stride).loadUnaligned(as: SIMD8<Float>.self)
    }
    var a = SIMD8<Float>(repeating: 0), b = a, c = a
    var n = 0
    while n < taps.count - 2 {
        a += load(n) * taps[n]
        b += load(n + 1) * taps[n + 1]
        c += load(n + 2) * taps[n + 2]
        n += 3
    }
    while n < taps.count {
        a += load(n) * taps[n]
        n += 1
    }
    return a + (b + c)
}
