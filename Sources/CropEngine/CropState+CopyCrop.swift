import CropGeometry

extension CropState {
    /// Gives this picture the crop of another picture (`source`), as a person copying a crop across a folder of
    /// photos means it: the same quarter turns and flip, the same straighten angle, the same crop proportions, and a
    /// crop of the same share of the picture on the same relative point.
    ///
    /// - The crop's **aspect** is the source crop's: its lock's ratio, or for a free crop its exact proportions. A
    ///   W:H lock is kept as it is; a free crop stays free; `.original` stays `.original` only when this picture
    ///   has the source's proportions (otherwise it becomes that W:H).
    /// - Its **size** covers the same fraction of the upright picture's area, and its content point sits at the
    ///   same fractions of the upright picture's width and height.
    /// - Every invariant holds as for any operation: a crop that would reach outside this straightened picture is
    ///   moved and shrunk (keeping the aspect) to fit, at minimal zoom.
    ///
    /// This picture's own turns, straighten and crop are replaced; its source size, EXIF orientation and minimum
    /// crop size stay. Copying onto a picture of the same displayed size gives the source's crop back within a
    /// pixel. The undo history, if any, is the caller's.
    public mutating func copyCrop(from source: CropState) {
        setUserOrientation(source.userOrientation)
        setAngle(upright: source.straightenAngle)
        let from = source.uprightSize.size, to = uprightSize.size
        let ratio = source.aspectRatio
        let r = ratio.map { Double($0.width) / Double($0.height) } ?? source.crop.width / source.crop.height
        switch (source.aspectLock, ratio) {
        case (.free, _), (_, nil):
            setLock(.free)
        case (.original, let ratio?) where AspectRatio(of: uprightSize) == ratio:
            setLock(.original)
        case (_, let ratio?):
            setLock(.ratio(ratio))
        }
        let share = (source.crop.width * source.crop.height) / (from.width * from.height)
        let area = share * to.width * to.height
        let center = Point(
            x: source.cropContentCenter.x / from.width * to.width,
            y: source.cropContentCenter.y / from.height * to.height)
        let wanted = ContentCrop(
            center: center, size: Size(width: (area * r).squareRoot(), height: (area / r).squareRoot()))
        // Moved the shortest way inside, and shrunk about its centre only if it cannot fit at all: a uniform
        // shrink, so the proportions stay exact.
        setWanted(upright: uprightPicture.settle(wanted, minimumSide: effectiveMinimumCropSize))
    }
}
