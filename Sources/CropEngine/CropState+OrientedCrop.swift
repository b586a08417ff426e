import CropGeometry

extension CropState {
    /// Centres the crop on `rect`, a rectangle of the *oriented* picture (the stored picture with its EXIF
    /// orientation applied, as a viewer shows it, before this state's turns and flips), at `rect`'s size.
    ///
    /// This is how a crop chosen on the picture as shown (CropKit's attention or entropy proposal, a face, a
    /// rectangle stored elsewhere) is given to a state that is turned, flipped or straightened:
    /// - The part of `rect` inside the picture is used. A locked crop takes the largest size of the lock's
    ///   proportions inside it, and a free crop takes its size. A side under the minimum grows about the centre.
    /// - The content under that part's centre becomes the crop's content point. Where the straightened picture
    ///   cannot hold the whole size there, the crop shrinks about that point (minimal zoom), as any wanted crop does;
    ///   it is not moved.
    /// - Turns, flips, the angle and the lock are kept.
    ///
    /// - Throws: `GeometryError.invalidRect` when `rect` is not finite, is empty, or lies outside the picture.
    public mutating func setCrop(orientedRect rect: Rect) throws(GeometryError) {
        try requireValid(rect, "crop")
        guard let inside = rect.intersection(Rect(size: orientedSize.size)) else {
            throw .invalidRect("crop \(rect) lies outside the \(orientedSize) picture")
        }
        // The lock is in upright terms; the oriented picture's axes are swapped by an odd number of turns.
        let unit = lockUnit.map { userOrientation.swapsDimensions ? $0.transposed : $0 }
        setWanted(oriented: ContentCrop(center: inside.center, size: wantedSize(inside: inside.size, unit: unit)))
    }
}
