import CropPixels

/// A smart-crop test scene: mid-gray with a saturated red disc of radius 30 centred at (`x`, `y`).
public func redDiscScene(x: Int, y: Int, width: Int = 600, height: Int = 300) throws -> PixelBuffer {
    var samples: [UInt8] = []
    samples.reserveCapacity(width * height * 3)
    for row in 0..<height {
        for column in 0..<width {
            let inside = (column - x) * (column - x) + (row - y) * (row - y) <= 900
            samples += inside ? [210, 30, 25] : [128, 128, 128]
        }
    }
    return try PixelBuffer(width: width, height: height, layout: .rgb, samples: samples)
}

/// Pixels clearly red (the disc of ``redDiscScene(x:y:width:height:)``) in `image`.
public func redPixels(_ image: PixelBuffer) -> Int {
    var count = 0
    for y in 0..<image.height {
        for x in 0..<image.width {
            let p = image.pixel(x: x, y: y)
            if p[0] > 150 && p[1] < 90 && p[2] < 90 { count += 1 }
        }
    }
    return count
}
