// The body of the whole-picture decoder fuzz targets (FuzzGIF, FuzzTIFF): one control byte, then the file.
import CropCodecs
import CropPixels

/// Reads the control byte (bit 2: strict; bit 3: decode whole rather than a few rows), makes a decoder of the rest
/// with `make` under a 4-megapixel limit, and exercises it (see ``exercise(_:whole:rows:extraStride:)``).
func fuzzDecoder(
    _ data: UnsafePointer<UInt8>, _ size: Int, make: ([UInt8], DecodeOptions) throws -> any ImageRowDecoder
) -> Int32 {
    guard size >= 1 else { return 0 }
    let control = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let options = DecodeOptions(limits: PixelLimits(maxPixels: 4_000_000), strict: control & 4 != 0)
    guard let decoder = try? make(bytes, options) else { return 0 }
    exercise(decoder, whole: control & 8 != 0, rows: 3)
    return 0
}

/// The limits animation readers are fuzzed under: a canvas of 1 MP.
let frameOptions = DecodeOptions(limits: PixelLimits(maxPixels: 1_000_000))

/// Reads up to 64 frames of `frames`, each of which must be the canvas's size; a broken frame ends the reading.
func exerciseFrames(_ frames: (any AnimationFrames)?) {
    guard let frames else { return }
    for _ in 0..<64 {
        guard let frame = try? frames.next() else { return }
        guard frame.picture.width == frames.width, frame.picture.height == frames.height else {
            fatalError(
                "a frame of \(frame.picture.width)×\(frame.picture.height) on a \(frames.width)×\(frames.height) canvas"
            )
        }
    }
}
