import CropGeometry

extension Face {
    /// The part of the picture a crop keeps to show this face whole: the detector's box (brow to chin, cheek to
    /// cheek) grown by half its height above for the forehead and hair, and by 15% of its size below (the chin) and
    /// on each side (the ears).
    public var head: Rect {
        Rect(
            x: rect.minX - 0.15 * rect.width, y: rect.minY - 0.5 * rect.height, width: 1.3 * rect.width,
            height: 1.65 * rect.height)
    }

    /// The window of `size` inside `bounds` that keeps people whole, and the faces it keeps; `nil` when `faces` is
    /// empty.
    ///
    /// The rule: every face's ``head`` (clipped to `bounds`) inside the window when they fit together; otherwise the
    /// largest group that fits with the largest face in it (the person nearest the camera is the subject: an avatar
    /// of a group photo keeps them whole, and as many others as fit), then the most face area; the window is centred
    /// on the kept heads and moved inside `bounds`. When the largest head does not fit (a window smaller than a
    /// face), the largest group of others that fits; when none does, the window is centred on the largest face's
    /// box and keeps none whole.
    ///
    /// - Complexity: O(n³) for n faces (candidate windows are aligned with the heads' edges).
    public static func window(_ size: Size, keeping faces: [Face], in bounds: Rect) -> (rect: Rect, kept: [Face])? {
        guard !faces.isEmpty else { return nil }
        let w = Swift.min(size.width, bounds.width), h = Swift.min(size.height, bounds.height)
        let heads = faces.map { $0.head.intersection(bounds) ?? $0.rect }
        func inside(_ value: Double, _ low: Double, _ length: Double, _ extent: Double) -> Double {
            Swift.min(Swift.max(value, low), low + extent - length)
        }
        func placed(_ x: Double, _ y: Double) -> Rect {
            Rect(
                x: inside(x, bounds.minX, w, bounds.width), y: inside(y, bounds.minY, h, bounds.height), width: w,
                height: h)
        }
        // A tolerance of a thousandth of a pixel, so a head exactly as wide as the window still fits.
        let slack = 1e-3
        func contains(_ window: Rect, _ head: Rect) -> Bool {
            head.minX >= window.minX - slack && head.maxX <= window.maxX + slack
                && head.minY >= window.minY - slack && head.maxY <= window.maxY + slack
        }
        let xs = heads.flatMap { [$0.minX, $0.maxX - w] }, ys = heads.flatMap { [$0.minY, $0.maxY - h] }
        func area(_ i: Int) -> Double { faces[i].rect.width * faces[i].rect.height }
        let largest = faces.indices.max { area($0) < area($1) }!
        var best: (subject: Bool, count: Int, area: Double, members: [Int]) = (false, 0, 0, [])
        for x in xs {
            for y in ys {
                let window = placed(x, y)
                let members = heads.indices.filter { contains(window, heads[$0]) }
                let subject = members.contains(largest)
                let total = members.reduce(0) { $0 + area($1) }
                let better =
                    subject != best.subject
                    ? subject : members.count != best.count ? members.count > best.count : total > best.area
                if better { best = (subject, members.count, total, members) }
            }
        }
        guard !best.members.isEmpty else {
            let face = faces[largest].rect
            return (placed(face.midX - w / 2, face.midY - h / 2), [])
        }
        let group = best.members.map { heads[$0] }
        let minX = group.map(\.minX).min()!, maxX = group.map(\.maxX).max()!
        let minY = group.map(\.minY).min()!, maxY = group.map(\.maxY).max()!
        let window = placed((minX + maxX) / 2 - w / 2, (minY + maxY) / 2 - h / 2)
        // Centred, the window still holds the group (it fits, and lies in bounds), and perhaps another head too.
        return (window, faces.indices.filter { contains(window, heads[$0]) }.map { faces[$0] })
    }
}
