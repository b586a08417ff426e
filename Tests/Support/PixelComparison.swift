import CropPixels

/// The largest per-sample difference between two buffers of the same size and format.
public func maxDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
    precondition(a.width == b.width && a.height == b.height && a.format == b.format, "\(a) and \(b) differ in shape")
    return zip(a.samples, b.samples).map { abs($0 - $1) }.max() ?? 0
}

/// The mean absolute difference per sample between two buffers of the same size and format.
public func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
    precondition(a.width == b.width && a.height == b.height && a.format == b.format, "\(a) and \(b) differ in shape")
    let d = zip(a.samples, b.samples).map { Double(abs($0 - $1)) }
    return d.isEmpty ? 0 : d.reduce(0, +) / Double(d.count)
}
