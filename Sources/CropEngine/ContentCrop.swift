import CropGeometry

/// A crop as the picture point under its centre and its size: the form in which a ``CropState`` keeps its crops.
///
/// ``center`` is the *content point* `q` in picture coordinates (not a frame position), and ``size`` the crop's
/// extents along the frame's axes. Straightening turns the frame about the picture centre, so the crop's frame
/// centre `c = centre + R(θ)(q − centre)` moves with the angle while `q` stays: the content under the crop's centre
/// stays there.
package struct ContentCrop: Hashable, Sendable {
    /// The content point under the crop's centre, in picture coordinates.
    package var center: Point
    /// Width and height along the frame's axes.
    package var size: Size

    /// The whole axis-aligned `bounds`.
    package init(whole bounds: Rect) {
        self.init(center: bounds.center, size: bounds.size)
    }

    package init(center: Point, size: Size) {
        self.center = center
        self.size = size
    }

    package func isApproximatelyEqual(to other: ContentCrop, tolerance: Double) -> Bool {
        center.isApproximatelyEqual(to: other.center, tolerance: tolerance)
            && size.isApproximatelyEqual(to: other.size, tolerance: tolerance)
    }
}
