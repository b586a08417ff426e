/// The eight EXIF/TIFF orientations, which are also the eight symmetries of a rectangle (the dihedral group D4).
///
/// The raw value is the EXIF `Orientation` tag (1…8). Case names are TIFF's: where the stored 0th row and
/// 0th column appear once the picture is displayed (`rightTop`: the 0th row is the visual right side, the 0th column
/// the visual top).
///
/// An orientation is a transform from *stored* pixels to *displayed* pixels. Each is "turn clockwise by
/// ``quarterTurnsClockwise`` × 90°, then mirror left–right if ``isMirrored``": the one convention CropKit uses for
/// turns and flips everywhere (`CropState`'s turns and flip and a recipe's `quarterTurns` and `flipHorizontal`
/// mean the same). User edits (quarter turns, flips) are more elements of the same group, so an orientation composed
/// with any number of edits is again one of these eight values; that is how CropKit stays exact and never rotates a
/// picture twice.
public enum Orientation: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// 1: displayed as stored.
    case topLeft = 1
    /// 2: mirrored left–right.
    case topRight = 2
    /// 3: turned 180°.
    case bottomRight = 3
    /// 4: mirrored top–bottom.
    case bottomLeft = 4
    /// 5: transposed (mirrored about the main diagonal).
    case leftTop = 5
    /// 6: turned 90° clockwise to display (the common portrait phone photo).
    case rightTop = 6
    /// 7: transversed (mirrored about the anti-diagonal).
    case rightBottom = 7
    /// 8: turned 90° counter-clockwise (270° clockwise) to display.
    case leftBottom = 8

    /// The identity: stored pixels are displayed as they are.
    public static let up = Orientation.topLeft

    /// Creates an orientation from an EXIF value. Values outside 1…8 (0 included) are `nil`; readers treat them as
    /// ``up``.
    @inlinable
    public init?(exifValue: Int) {
        self.init(rawValue: exifValue)
    }

    /// Creates the element "turn clockwise by `quarterTurns` × 90° (any whole number; negative turns
    /// counter-clockwise), then mirror left–right if `mirrored`".
    public init(quarterTurnsClockwise quarterTurns: Int, mirrored: Bool) {
        let k = ((quarterTurns % 4) + 4) % 4
        switch (k, mirrored) {
        case (0, false): self = .topLeft
        case (1, false): self = .rightTop
        case (2, false): self = .bottomRight
        case (3, false): self = .leftBottom
        case (0, true): self = .topRight
        case (1, true): self = .leftTop
        case (2, true): self = .bottomLeft
        default: self = .rightBottom
        }
    }

    /// Clockwise quarter turns (0…3) applied *before* the optional mirror.
    public var quarterTurnsClockwise: Int {
        switch self {
        case .topLeft, .topRight: 0
        case .rightTop, .leftTop: 1
        case .bottomRight, .bottomLeft: 2
        case .leftBottom, .rightBottom: 3
        }
    }

    /// Whether the transform includes a mirror (orientations 2, 4, 5 and 7).
    public var isMirrored: Bool {
        switch self {
        case .topRight, .bottomLeft, .leftTop, .rightBottom: true
        default: false
        }
    }

    /// Whether width and height are exchanged between stored and displayed pixels (orientations 5–8).
    @inlinable
    public var swapsDimensions: Bool { quarterTurnsClockwise % 2 == 1 }

    /// The EXIF tag value, 1…8.
    @inlinable
    public var exifValue: Int { rawValue }

    // MARK: Group structure

    /// `self` followed by `other`: the single orientation that has the same effect as applying `self`, then `other`
    /// to the result.
    public func concatenating(_ other: Orientation) -> Orientation {
        // Elements are s^m ∘ r^k (r: quarter turn clockwise, applied first; s: left–right mirror). Since
        // r^k ∘ s = s ∘ r^−k, (s^m2 r^k2) ∘ (s^m1 r^k1) = s^(m1 ⊕ m2) r^(k1 ± k2), with − when m1 is set.
        let k1 = quarterTurnsClockwise, k2 = other.quarterTurnsClockwise
        let turns = isMirrored ? k1 - k2 : k1 + k2
        return Orientation(quarterTurnsClockwise: turns, mirrored: isMirrored != other.isMirrored)
    }

    /// The orientation that undoes this one: `o.concatenating(o.inverse) == .up`.
    public var inverse: Orientation {
        isMirrored ? self : Orientation(quarterTurnsClockwise: -quarterTurnsClockwise, mirrored: false)
    }

    /// This orientation followed by a quarter turn clockwise of the displayed picture.
    @inlinable
    public func rotatedClockwise() -> Orientation { concatenating(.rightTop) }

    /// This orientation followed by a quarter turn counter-clockwise of the displayed picture.
    @inlinable
    public func rotatedCounterClockwise() -> Orientation { concatenating(.leftBottom) }

    /// This orientation followed by a left–right mirror of the displayed picture.
    @inlinable
    public func flippedHorizontally() -> Orientation { concatenating(.topRight) }

    /// This orientation followed by a top–bottom mirror of the displayed picture.
    @inlinable
    public func flippedVertically() -> Orientation { concatenating(.bottomLeft) }

    // MARK: Sizes and coordinates

    /// The displayed size of a picture stored at `storedSize`.
    @inlinable
    public func displayedSize(of storedSize: Size) -> Size {
        swapsDimensions ? storedSize.transposed : storedSize
    }

    /// The displayed size of a picture stored at `storedSize`.
    @inlinable
    public func displayedSize(of storedSize: PixelSize) -> PixelSize {
        swapsDimensions ? storedSize.transposed : storedSize
    }

    /// The transform from stored pixel coordinates to displayed pixel coordinates, for a picture stored at
    /// `storedSize`. It maps the stored rectangle `(0, 0, storedSize)` exactly onto `(0, 0, displayedSize)`.
    public func transform(storedSize: Size) -> AffineTransform2D {
        // Quarter turns clockwise first; each maps (x, y) in a W×H picture to (H − y, x) in an H×W one.
        var t = AffineTransform2D.identity
        var current = (width: storedSize.width, height: storedSize.height)
        for _ in 0..<quarterTurnsClockwise {
            t = t.concatenating(AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: current.height, ty: 0))
            current = (current.height, current.width)
        }
        // Then the mirror of the turned picture: x → W′ − x.
        if isMirrored { t = t.concatenating(AffineTransform2D(a: -1, b: 0, c: 0, d: 1, tx: current.width, ty: 0)) }
        return t
    }

    /// The transform from displayed pixel coordinates back to stored pixel coordinates; the inverse of
    /// ``transform(storedSize:)``.
    public func inverseTransform(storedSize: Size) -> AffineTransform2D {
        inverse.transform(storedSize: displayedSize(of: storedSize))
    }

    /// Maps a rectangle in stored pixel coordinates to displayed pixel coordinates.
    public func displayedRect(fromStored rect: Rect, storedSize: Size) -> Rect {
        transform(storedSize: storedSize).apply(to: rect)
    }

    /// Maps a rectangle in displayed pixel coordinates to stored pixel coordinates.
    public func storedRect(fromDisplayed rect: Rect, storedSize: Size) -> Rect {
        inverseTransform(storedSize: storedSize).apply(to: rect)
    }

    public var description: String {
        switch self {
        case .topLeft: "1 (normal)"
        case .topRight: "2 (mirrored horizontally)"
        case .bottomRight: "3 (rotated 180°)"
        case .bottomLeft: "4 (mirrored vertically)"
        case .leftTop: "5 (transposed)"
        case .rightTop: "6 (rotated 90° clockwise)"
        case .rightBottom: "7 (transversed)"
        case .leftBottom: "8 (rotated 90° counter-clockwise)"
        }
    }
}
