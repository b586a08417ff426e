import CropCodecs
import CropPixels
// libFuzzer target: JPEG decoding through CropKit's shim, at every DCT scale, with and without the progressive
// early stop and strict mode, reading some or all rows, then finishing. Any crash, trap or sanitizer report is a bug;
// errors are the expected outcome for most inputs. Options come from the first byte, the file from the rest.
// With bit 64 set the input is decoded at 1/8 twice, by the AC-skipping entropy decoder and by libjpeg's, and the
// target traps unless both fail or both give the same pixels (a differential check of the skipping decoder).
import Foundation

/// One input of `FuzzJPEG`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let control = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let scale = JPEGScale.allCases[Int(control & 3)]
    let earlyStop: JPEGEarlyStop = [.off, .exact, .dcOnly][Int(control >> 2 & 3) % 3]
    let options = DecodeOptions(
        limits: PixelLimits(maxPixels: 4_000_000), strict: control & 16 != 0, jpegScale: scale, jpegEarlyStop: earlyStop
    )
    if control & 64 != 0 {
        compareEntropyDecoders(bytes, earlyStop: earlyStop)
        return 0
    }
    guard let decoder = try? JPEGDecoder(data: bytes, options: options) else { return 0 }
    exercise(decoder, whole: control & 32 != 0, rows: 5, extraStride: 8)
    return 0
}

/// Decodes `bytes` at 1/8 (lenient) with both entropy decoders; traps when their outcomes or pixels differ.
private func compareEntropyDecoders(_ bytes: [UInt8], earlyStop: JPEGEarlyStop) {
    // DC-only changes the 4:2:0 chroma on purpose; compare the exact paths.
    let stop: JPEGEarlyStop = earlyStop == .dcOnly ? .exact : earlyStop
    func decode(libjpeg: Bool) -> PixelBuffer? {
        var options = DecodeOptions(limits: PixelLimits(maxPixels: 4_000_000), jpegScale: .eighth, jpegEarlyStop: stop)
        options.jpegLibjpegEntropy = libjpeg
        return try? JPEGDecoder(data: bytes, options: options).decodeAll()
    }
    let skipping = decode(libjpeg: false), reference = decode(libjpeg: true)
    guard skipping == reference else {
        fatalError(
            "the AC-skipping decoder gives \(String(describing: skipping)), libjpeg \(String(describing: reference))")
    }
}
