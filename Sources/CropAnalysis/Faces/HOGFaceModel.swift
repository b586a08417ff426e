/// A sliding-window face detector's model in dlib's form: HOG features (Felzenszwalb's 31 per 8-pixel cell) scanned
/// over an image pyramid shrinking by 5/6 a level, with linear filters each written as a sum of separable terms.
///
/// ``frontal`` is dlib's frontal face detector (generated from dlib 19.24 by `scripts/faces/make-model`).
/// ``detect(_:)`` runs it the way dlib's `object_detector<scan_fhog_pyramid<pyramid_down<6>>>` does, so its boxes are
/// dlib's on the same pixels (`HOGFaceDetectorTests` checks them against dlib's output).
package struct HOGFaceModel: Sendable {
    /// One separable term of a filter on one HOG plane: the filter is the outer product `column · rowᵀ`.
    package struct Term: Sendable {
        /// Taps across a row (the filter's width).
        package var row: [Float]
        /// Taps down a column (the filter's height).
        package var column: [Float]
    }

    /// One of the model's filters (front, left, right, …): its threshold and its terms per HOG plane.
    package struct Filter: Sendable {
        /// A window scores a detection when its filter response reaches this.
        package var threshold: Double
        /// Per plane (31), the separable terms whose sum is the filter on that plane.
        package var planes: [[Term]]
    }

    /// Pixels per HOG cell.
    package let cellSize: Int
    /// The detection window, in pixels at a pyramid level.
    package let windowWidth: Int, windowHeight: Int
    /// The filter's size in cells.
    package let filterRows: Int, filterColumns: Int
    /// The pyramid stops before a level narrower or lower than this.
    package let minimumLayerWidth: Int, minimumLayerHeight: Int
    /// Non-maximum suppression drops a box whose intersection over union with a kept one exceeds `overlapIoU`, or
    /// which covers or is covered by a kept one by more than `overlapCovered` of its area.
    package let overlapIoU: Double, overlapCovered: Double
    /// The filters.
    package let filters: [Filter]

    /// The number of HOG planes (18 contrast-sensitive and 9 insensitive orientations, 4 texture measures).
    package static let planeCount = 31

    /// A model from its settings and its filters' taps: per filter, per plane, the term count, then each term's row
    /// and column taps, as little-endian `Float32` in base64 (whitespace ignored).
    init(
        cellSize: Int, windowWidth: Int, windowHeight: Int, filterRows: Int, filterColumns: Int,
        minimumLayerWidth: Int, minimumLayerHeight: Int, overlapIoU: Double, overlapCovered: Double,
        thresholds: [Double], taps: String
    ) {
        self.cellSize = cellSize
        self.windowWidth = windowWidth
        self.windowHeight = windowHeight
        self.filterRows = filterRows
        self.filterColumns = filterColumns
        self.minimumLayerWidth = minimumLayerWidth
        self.minimumLayerHeight = minimumLayerHeight
        self.overlapIoU = overlapIoU
        self.overlapCovered = overlapCovered
        let values = Self.floats(base64: taps)
        var next = 0
        func take(_ count: Int) -> [Float] {
            defer { next += count }
            return Array(values[next..<next + count])
        }
        filters = thresholds.map { threshold in
            Filter(
                threshold: threshold,
                planes: (0..<Self.planeCount).map { _ in
                    let terms = Int(take(1)[0])
                    return (0..<terms).map { _ in Term(row: take(filterColumns), column: take(filterRows)) }
                })
        }
        precondition(next == values.count, "model taps: \(values.count) values, \(next) read")
    }

    /// Little-endian `Float32`s from base64 text.
    static func floats(base64 text: String) -> [Float] {
        var sextets = [UInt8]()
        sextets.reserveCapacity(text.utf8.count)
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextets.append(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): sextets.append(c - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sextets.append(c - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"): sextets.append(62)
            case UInt8(ascii: "/"): sextets.append(63)
            default: continue  // whitespace and '=' padding
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(sextets.count * 3 / 4)
        var i = 0
        while i + 1 < sextets.count {
            let n =
                (UInt32(sextets[i]) << 18) | (UInt32(sextets[i + 1]) << 12)
                | (i + 2 < sextets.count ? UInt32(sextets[i + 2]) << 6 : 0)
                | (i + 3 < sextets.count ? UInt32(sextets[i + 3]) : 0)
            bytes.append(UInt8(truncatingIfNeeded: n >> 16))
            if i + 2 < sextets.count { bytes.append(UInt8(truncatingIfNeeded: n >> 8)) }
            if i + 3 < sextets.count { bytes.append(UInt8(truncatingIfNeeded: n)) }
            i += 4
        }
        return stride(from: 0, to: bytes.count - 3, by: 4).map { (j: Int) -> Float in
            var bits = UInt32(bytes[j])
            bits |= UInt32(bytes[j + 1]) << 8
            bits |= UInt32(bytes[j + 2]) << 16
            bits |= UInt32(bytes[j + 3]) << 24
            return Float(bitPattern: bits)
        }
    }
}
