import CropGeometry
import CropPixels

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A straight edge found in a picture by ``LineSegmentDetector``: its two ends, in the analysed plane's pixels (x to
/// the right, y down), and how wide the band of pixels behind it was.
package struct LineSegment: Hashable, Sendable {
    /// One end.
    package var start: Point
    /// The other end.
    package var end: Point
    /// The width of the pixel region the segment was fitted to, in pixels (≥ 1).
    package var width: Double

    /// Creates a segment.
    package init(start: Point, end: Point, width: Double) {
        self.start = start
        self.end = end
        self.width = width
    }

    /// The distance between the ends.
    package var length: Double { hypot(end.x - start.x, end.y - start.y) }

    /// The midpoint.
    package var center: Point { Point(x: (start.x + end.x) / 2, y: (start.y + end.y) / 2) }

    /// The segment's direction in degrees, in −90…90: 0 is horizontal, positive descends to the right on screen
    /// (a clockwise turn from horizontal, y pointing down), ±90 is vertical.
    package var direction: Double {
        var degrees = atan2(end.y - start.y, end.x - start.x) * 180 / .pi
        if degrees > 90 { degrees -= 180 } else if degrees <= -90 { degrees += 180 }
        return degrees
    }

    /// How far the segment is turned clockwise from the nearer of horizontal and vertical, in degrees (−45…45), and
    /// which of the two that is. A horizontal line turned clockwise by 3° and a vertical one turned clockwise by 3°
    /// both give 3.
    package var tiltFromAxis: (degrees: Double, isVertical: Bool) {
        let d = direction
        if abs(d) <= 45 { return (d, false) }
        return (d > 0 ? d - 90 : d + 90, true)
    }
}
