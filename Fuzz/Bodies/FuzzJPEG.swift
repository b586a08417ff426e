import CropCodecs
import CropPixels
// libFuzzer target: JPEG decoding through CropKit's shim, at every DCT scale, with and without the progressive
// early stop and strict mode, reading some or all rows, then finishing. Any crash, trap or sanitizer report is a bug;
// errors are the expected outcome for most inputs. Options come from the first byte, the file from the rest.
// With bit 64 set the input is decoded twice at the control byte's scale, by CropKit's entropy decoder for sequential
// files and by libjpeg's, and the target traps unless both fail or both give the same pixels (a differential check
// of CropKit's decoder, value tables and AC skipping alike; for a progressive file read whole, of its readers of AC
// first and refinement scans; for a progressive file's DC-only decode, of its reader of DC-first scans and its
// output pass, warnings included). With bit
// 128 set a progressive file is decoded by one thread and by two (its scans split between them, even when small), and
// the target traps unless both give the same outcome and pixels (a differential check of the split).
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
    if control & 128 != 0 {
        compareParallelScans(bytes, scale: scale, strict: control & 16 != 0)
        return 0
    }
    if control & 64 != 0 {
        compareEntropyDecoders(bytes, scale: scale, earlyStop: earlyStop)
        return 0
    }
    guard let decoder = try? JPEGDecoder(data: bytes, options: options) else { return 0 }
    exercise(decoder, whole: control & 32 != 0, rows: 5, extraStride: 8)
    return 0
}

/// Decodes `bytes` at `scale` (lenient) with both entropy decoders; traps when their outcomes or pixels differ, or,
/// for a progressive file's DC-only decode (CropKit's reader of DC-first scans, its output pass), their warnings.
private func compareEntropyDecoders(_ bytes: [UInt8], scale: JPEGScale, earlyStop: JPEGEarlyStop) {
    func decode(libjpeg: Bool, _ stop: JPEGEarlyStop) -> (pixels: PixelBuffer, warnings: [CodecWarning], rows: Bool)? {
        var options = DecodeOptions(limits: PixelLimits(maxPixels: 4_000_000), jpegScale: scale, jpegEarlyStop: stop)
        options.jpegLibjpegEntropy = libjpeg
        guard let decoder = try? JPEGDecoder(data: bytes, options: options), let pixels = try? decoder.decodeAll()
        else { return nil }
        return (pixels, decoder.warnings, decoder.ownDCRows)
    }
    if earlyStop == .dcOnly, let fast = decode(libjpeg: false, .dcOnly), fast.rows {
        let reference = decode(libjpeg: true, .dcOnly)
        guard fast.pixels == reference?.pixels, fast.warnings == reference?.warnings else {
            fatalError("CropKit's DC-only decode gives \(fast), libjpeg's \(String(describing: reference))")
        }
        return
    }
    // A sequential file's DC-only decode changes the 4:2:0 chroma on purpose; compare the exact paths.
    let stop: JPEGEarlyStop = earlyStop == .dcOnly ? .exact : earlyStop
    let skipping = decode(libjpeg: false, stop)?.pixels, reference = decode(libjpeg: true, stop)?.pixels
    guard skipping == reference else {
        fatalError(
            "CropKit's entropy decoder gives \(String(describing: skipping)), libjpeg \(String(describing: reference))")
    }
}

/// Decodes `bytes` whole with every scan on one thread, then with the scans split between two; traps unless both
/// fail or both give the same pixels and warning count. (In strict mode each thread stops at the first damage in its
/// own scans, so only success and failure are compared.)
private func compareParallelScans(_ bytes: [UInt8], scale: JPEGScale, strict: Bool) {
    func decode(_ mode: JPEGParallelScans) -> (PixelBuffer, Int)? {
        var options = DecodeOptions(
            limits: PixelLimits(maxPixels: 4_000_000), strict: strict, jpegScale: scale, jpegEarlyStop: .off)
        options.jpegParallelScans = mode
        guard let decoder = try? JPEGDecoder(data: bytes, options: options), let pixels = try? decoder.decodeAll()
        else { return nil }
        return (pixels, decoder.warnings.count)
    }
    let serial = decode(.off), parallel = decode(.always)
    guard (serial == nil) == (parallel == nil), strict || serial?.0 == parallel?.0, serial?.1 == parallel?.1 else {
        fatalError("one thread gives \(String(describing: serial)), two \(String(describing: parallel))")
    }
}
