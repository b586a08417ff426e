import CJPEG
import CropGeometry
import CropPixels

/// A streaming JPEG decoder over libjpeg-turbo.
///
/// The initialiser reads the header and the APP1 (EXIF) and APP2 (ICC) segments and checks the stored size against
/// ``DecodeOptions/limits``; nothing large is allocated before that check. The first
/// ``readRows(into:bytesPerRow:maxRows:)`` starts decompression: a baseline file is then decoded as rows are asked
/// for (libjpeg keeps a few rows of state); a progressive file is first read into libjpeg's coefficient buffer
/// (2 bytes per stored sample). Output: grayscale files give `gray8`, YCbCr and RGB files `rgb8`, CMYK and YCCK files
/// (Adobe's inverted CMYK included) `rgb8` in sRGB: converted row by row through the file's own ICC profile by Little
/// CMS, with ``metadata`` then carrying the sRGB profile; without a profile (or lcms2), through a naive conversion,
/// with a warning.
///
/// With ``DecodeOptions/jpegScale`` the output is the stored size divided by 2, 4 or 8 (rounded up). At 1/8 a
/// progressive file may stop reading early (``DecodeOptions/jpegEarlyStop``). A sequential file is read by CropKit's
/// entropy decoder (``ownEntropyDecoder``), which gives libjpeg's pixels: most coefficients come from one table
/// lookup each, code and value together (a fifth faster than libjpeg's at 1/2 on camera photos), and at 1/8 it walks
/// past the AC coefficients the scaled IDCT never reads several symbols per lookup (about half libjpeg's time). With
/// ``JPEGEarlyStop/dcOnly`` at 1/8 it skips the chroma's AC coefficients too, the approximation progressive files
/// get. A progressive file that stops early at 1/8 has its DC-first scans read by the same decoder (every other scan
/// by libjpeg's), with ``JPEGEarlyStop/dcOnly`` a row of blocks per call straight into its DC store
/// (``ownDCRows``), and its pixels written from there: about 40% off a thumbnail of a 24-megapixel photo, the same
/// pixels. A progressive file read whole has its AC scans read by CropKit's decoder, on both threads: first scans
/// with the sequential decoder's one lookup for code and value (a 24-megapixel photo's luma bands in 32 ms instead
/// of 43), refinement scans with each block's nonzero coefficients as a bit mask instead of testing them one by one
/// (its four chroma refinement scans in 24 ms instead of 44), same coefficients and warnings.
package final class JPEGDecoder: ImageRowDecoder {
    package let info: ImageInfo
    package let metadata: ImageMetadata
    package let outputWidth: Int
    package let outputHeight: Int
    package let outputFormat: PixelFormat
    public private(set) var rowsRead = 0
    public private(set) var warnings: [CodecWarning] = []

    /// Whether a progressive file was decoded from its first scans only (set once decoding started).
    public private(set) var stoppedEarly = false
    /// How many bytes of the file were read before the first row was produced (set once decoding started): the
    /// whole file, unless ``stoppedEarly``.
    public private(set) var bytesConsumedBeforeOutput: Int?
    /// How many scans were read before the first row was produced (set once decoding started).
    public private(set) var scansRead: Int?
    /// Bytes held for DCT coefficients once decoding started: libjpeg's whole-image arrays (128 per 8×8 block) for
    /// a progressive file, 2 per block plus a few rows of blocks with ``JPEGEarlyStop/dcOnly``, 0 for a baseline file.
    public private(set) var coefficientBytes: Int?
    /// Whether CropKit's entropy decoder read the file rather than libjpeg's (set once decoding started): a
    /// sequential file, a progressive file's DC-first scans when it stops early at 1/8, or its AC scans when it is
    /// read whole.
    public private(set) var ownEntropyDecoder = false
    /// Whether a progressive file's DC-first scans went straight into the DC store of ``JPEGEarlyStop/dcOnly``, a
    /// row of MCUs at a time, instead of through libjpeg's coefficient controller (set once decoding started).
    public private(set) var ownDCRows = false
    /// Whether, at 1/8, that decoder also ran the output pass, writing each block's pixels itself instead of
    /// through libjpeg's coefficient controller and IDCT: a sequential file's one-pixel blocks, or a progressive
    /// file's blocks straight from the DC store of ``JPEGEarlyStop/dcOnly`` (same pixels; set once decoding started).
    public private(set) var ownOutputPass = false
    /// How many of a progressive file's scans a second thread read (``DecodeOptions/jpegParallelScans``; set once
    /// decoding started): 0 when one thread read them all.
    public private(set) var scansReadInParallel = 0
    /// Whether that second thread read its AC scans with CropKit's decoder (set once decoding finished).
    package private(set) var helperOwnEntropyDecoder = false

    private let handle: OpaquePointer
    private let input: DecoderInput
    private let options: DecodeOptions
    /// libjpeg's working-memory cap (`max_memory_to_use`), from the declared picture: its whole coefficient arrays
    /// (what a multi-scan file needs) plus 32 MiB, so a header claiming a picture within the pixel limit gets what
    /// that picture needs and no more.
    private let memoryCap: Int
    private var started = false
    private var finished = false
    private var failure: CodecError?
    private var warningLog = ShimWarningLog()
    /// The CMYK → sRGB conversion the shim calls for each row (kept alive here).
    private var cmykTransform: ColorTransform?

    /// Reads the header and metadata of `data`.
    ///
    /// - Throws: ``CodecError/notAnImage(reason:)`` when the data is not a JPEG, ``CodecError/truncated(format:detail:)``
    ///   when it ends inside the header, ``CodecError/tooManyPixels(width:height:limit:)`` above the limits,
    ///   ``CodecError/unsupportedFeature(format:feature:)`` for 12-bit, lossless or exotic colour spaces,
    ///   ``CodecError/corruptData(format:message:)`` with libjpeg's message otherwise.
    package convenience init(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        try self.init(input: .memory(InputBytes(data)), options: options)
    }

    /// Reads the header and metadata of `input` (bytes in memory, or a file read a chunk at a time); see
    /// ``init(data:options:)``. A file that cannot be read fails with ``CodecError/ioFailure(path:operation:reason:)``.
    package init(input: DecoderInput, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let strict: Int32 = options.strict ? 1 : 0
        let created: OpaquePointer? =
            switch input {
            case .memory(let bytes): ck_jpeg_decoder_create(bytes.pointer, bytes.count, strict)
            case .file(let file): ck_jpeg_decoder_create_fd(file.descriptor, strict)
            }
        guard let handle = created else {
            throw .resourceLimit(format: .jpeg, message: "cannot allocate a libjpeg decoder")
        }
        self.handle = handle
        self.input = input
        self.options = options
        var header = ck_jpeg_header()
        let status = ck_jpeg_decoder_read_header(handle, &header)
        if status != ShimStatus.ok {
            let error = Self.error(status, handle, path: input.path)
            ck_jpeg_decoder_destroy(handle)
            throw error
        }
        var warnings: [CodecWarning] = []
        var metadata = Self.readMetadata(handle, warnings: &warnings)
        let described = Self.describe(header)
        guard let layout = described.layout else {
            ck_jpeg_decoder_destroy(handle)
            throw .unsupportedFeature(
                format: .jpeg, feature: "\(header.components)-component image in \(described.model) colour")
        }
        let width = Int(header.width), height = Int(header.height)
        do {
            try options.limits.check(width: width, height: height)
        } catch {
            ck_jpeg_decoder_destroy(handle)
            throw CodecError(error)
        }
        var info = ImageInfo(
            format: .jpeg, width: width, height: height, orientation: metadata.orientation, layout: layout,
            bitDepth: Int(header.data_precision), decodedDepth: .eight, iccProfileSize: metadata.iccProfile?.count,
            hasEXIF: metadata.exif != nil, isProgressive: header.progressive != 0, isInterlaced: false,
            colorModel: described.model)
        if UInt32(bitPattern: header.color_space) == JCS_YCbCr.rawValue {
            info.chromaSubsampling = ChromaSubsampling.allCases.first { $0.rawValue == Self.subsampling(header) }
        }
        info.isArithmeticCoded = header.arithmetic != 0
        let coefficients = Self.coefficientMemory(header)
        if header.progressive != 0 { info.decoderMemory = coefficients }
        memoryCap = coefficients.bytes(width: width, height: height, scale: 1) + 32 << 20
        let colorSpace = UInt32(bitPattern: header.color_space)
        if colorSpace == JCS_CMYK.rawValue || colorSpace == JCS_YCCK.rawValue {
            let fallback = metadata.iccProfile == nil ? options.defaultCMYKProfile : nil
            if let profile = metadata.iccProfile ?? fallback?.bytes {
                if let fallback {
                    warnings.append(
                        CodecWarning(
                            .icc,
                            "CMYK JPEG without an ICC profile: converted through the default CMYK profile \(fallback.path)"
                        ))
                }
                do {
                    let transform = try DefaultCMYKProfile.transform(
                        profile: profile, layout: header.saw_adobe_marker != 0 ? .cmyk8Inverted : .cmyk8, format: .jpeg)
                    let (function, context) = transform.rowConverter
                    ck_jpeg_decoder_set_cmyk_converter(handle, function, context)
                    cmykTransform = transform
                    metadata.iccProfile = ColorTransform.sRGBProfile
                } catch {
                    warnings.append(CodecWarning(.icc, "CMYK converted to RGB without colour management: \(error)"))
                }
            } else {
                warnings.append(
                    CodecWarning(
                        .icc, "CMYK JPEG without an ICC profile: converted to RGB without colour management"))
            }
        }
        self.info = info
        self.metadata = metadata
        let scaled = options.jpegScale.scaledSize(width: width, height: height)
        outputWidth = scaled.width
        outputHeight = scaled.height
        outputFormat = PixelFormat(layout, .eight)
        self.warnings = warnings
        syncWarnings()
    }

    deinit {
        ck_jpeg_decoder_destroy(handle)
    }

    /// Decodes a whole JPEG.
    package static func decode(_ data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError)
        -> DecodedImage
    {
        let decoder = try JPEGDecoder(data: data, options: options)
        let pixels = try decoder.decodeAll()
        return DecodedImage(pixels: pixels, metadata: decoder.metadata, info: decoder.info, warnings: decoder.warnings)
    }

    package func decodeAll() throws(CodecError) -> PixelBuffer { try decodeAllRows() }

    package func readRows(into destination: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int)
        throws(CodecError) -> Int
    {
        if let failure { throw failure }
        try checkRowArguments(bytesPerRow: bytesPerRow, maxRows: maxRows)
        guard !finished else { return 0 }
        if !started { try start() }
        var read: UInt32 = 0
        let want = UInt32(clamping: min(maxRows, outputHeight - rowsRead))
        let status = ck_jpeg_decoder_read_rows(
            handle, destination.assumingMemoryBound(to: UInt8.self), bytesPerRow, want, &read)
        rowsRead += Int(read)
        syncWarnings()
        if status != ShimStatus.ok { throw fail(status) }
        return Int(read)
    }

    package func finish() throws(CodecError) {
        if let failure { throw failure }
        guard !finished else { return }
        finished = true
        let status = ck_jpeg_decoder_finish(handle)
        helperOwnEntropyDecoder = ck_jpeg_decoder_helper_own_entropy(handle) != 0
        syncWarnings()
        if status != ShimStatus.ok { throw fail(status) }
        let count = Int(ck_jpeg_decoder_warning_count(handle))
        if count > Int(CK_JPEG_MAX_WARNINGS) {
            warnings.append(CodecWarning(.jpeg, "\(count - Int(CK_JPEG_MAX_WARNINGS)) more warnings not shown"))
        }
    }

    private func start() throws(CodecError) {
        started = true
        var output = ck_jpeg_output()
        if options.jpegLibjpegEntropy { ck_jpeg_decoder_use_libjpeg_entropy(handle, 1) }
        ck_jpeg_decoder_set_parallel_scans(handle, options.jpegParallelScans.shimMode)
        let mode: Int32 =
            switch options.jpegEarlyStop {
            case .off: Int32(CK_JPEG_EARLY_STOP_OFF)
            case .exact: Int32(CK_JPEG_EARLY_STOP_EXACT)
            case .dcOnly: Int32(CK_JPEG_EARLY_STOP_DC)
            }
        let status = ck_jpeg_decoder_start(
            handle, Int32(options.jpegScale.denominator), mode, memoryCap,
            Int32(clamping: max(options.maxProgressiveScans, 0)), &output)
        syncWarnings()
        if status != ShimStatus.ok { throw fail(status) }
        guard Int(output.width) == outputWidth, Int(output.height) == outputHeight,
            Int(output.components) == outputFormat.channelCount
        else {
            throw fail(
                .corruptData(
                    format: .jpeg,
                    message: "libjpeg produces \(output.width)×\(output.height)×\(output.components), "
                        + "expected \(outputWidth)×\(outputHeight)×\(outputFormat.channelCount)"))
        }
        stoppedEarly = output.early_stopped != 0
        bytesConsumedBeforeOutput = Int(output.bytes_consumed)
        scansRead = Int(output.scans_read)
        coefficientBytes = Int(output.coefficient_bytes)
        ownEntropyDecoder = output.own_entropy != 0
        ownDCRows = output.own_dc_rows != 0
        ownOutputPass = output.own_output != 0
        scansReadInParallel = Int(output.helper_scans)
    }

    /// How the scans of the progressive file in `data` would be split between two threads
    /// (``DecodeOptions/jpegParallelScans``, with no minimum): each side's scan count, or `nil` when the file does not
    /// qualify. Reads nothing but `data`.
    package static func parallelScanPlan(_ data: UnsafeBufferPointer<UInt8>) -> (decoder: Int, helper: Int)? {
        guard let base = data.baseAddress else { return nil }
        var decoderScans: Int32 = 0, helperScans: Int32 = 0
        guard ck_jpeg_plan_parallel_scans(base, data.count, &decoderScans, &helperScans) != 0 else { return nil }
        return (Int(decoderScans), Int(helperScans))
    }

    private func fail(_ status: Int32) -> CodecError { fail(Self.error(status, handle, path: input.path)) }

    private func fail(_ error: CodecError) -> CodecError {
        failure = error
        return error
    }

    private func syncWarnings() {
        warningLog.sync(
            into: &warnings, source: .jpeg, count: ck_jpeg_decoder_warning_count(handle),
            capacity: Int32(CK_JPEG_MAX_WARNINGS)
        ) { ck_jpeg_decoder_warning(handle, $0) }
    }

    private static func error(_ status: Int32, _ handle: OpaquePointer, path: String?) -> CodecError {
        ShimStatus.error(
            status, format: .jpeg, message: String(cString: ck_jpeg_decoder_message(handle)), role: "decoder",
            path: path)
    }

    // MARK: Header and metadata

    private static func describe(_ header: ck_jpeg_header) -> (layout: ChannelLayout?, model: String) {
        let space = UInt32(bitPattern: header.color_space)
        switch space {
        case JCS_GRAYSCALE.rawValue where header.components == 1:
            return (.gray, "grayscale")
        case JCS_YCbCr.rawValue where header.components == 3:
            return (.rgb, "YCbCr \(subsampling(header))")
        case JCS_RGB.rawValue where header.components == 3:
            return (.rgb, "RGB")
        case JCS_CMYK.rawValue where header.components == 4:
            return (.rgb, header.saw_adobe_marker != 0 ? "CMYK (Adobe, inverted)" : "CMYK")
        case JCS_YCCK.rawValue where header.components == 4:
            return (.rgb, "YCCK (Adobe, inverted)")
        default:
            return (nil, "unknown")
        }
    }

    /// A progressive file's coefficient arrays, held whole until the last scan: 64 coefficients of 2 bytes for each
    /// 8×8 block of each component, a subsampled component having fewer blocks (plus 3% for blocks padding the MCUs),
    /// each array in a store mapped with 2 MiB huge pages (up to 2 MiB more each).
    private static func coefficientMemory(_ header: ck_jpeg_header) -> DecoderMemory {
        let count = Int(max(1, min(4, header.components)))
        let h = withUnsafeBytes(of: header.h_samp) { Array($0.bindMemory(to: Int32.self).prefix(count)) }
        let v = withUnsafeBytes(of: header.v_samp) { Array($0.bindMemory(to: Int32.self).prefix(count)) }
        let hMax = Double(max(1, h.max() ?? 1)), vMax = Double(max(1, v.max() ?? 1))
        let share = zip(h, v).reduce(0.0) { $0 + Double(max(1, $1.0)) * Double(max(1, $1.1)) / (hMax * vMax) }
        return DecoderMemory(perStoredPixel: 2 * share * 1.03, fixedBytes: count * (2 << 20))
    }

    private static func subsampling(_ header: ck_jpeg_header) -> String {
        let (h, v) = (header.h_samp, header.v_samp)
        guard h.1 == 1, v.1 == 1, h.2 == 1, v.2 == 1 else {
            return "\(h.0)×\(v.0), \(h.1)×\(v.1), \(h.2)×\(v.2)"
        }
        switch (h.0, v.0) {
        case (1, 1): return "4:4:4"
        case (2, 1): return "4:2:2"
        case (2, 2): return "4:2:0"
        case (1, 2): return "4:4:0"
        case (4, 1): return "4:1:1"
        default: return "\(h.0)×\(v.0), 1×1, 1×1"
        }
    }

    private static func readMetadata(_ handle: OpaquePointer, warnings: inout [CodecWarning]) -> ImageMetadata {
        var metadata = ImageMetadata()
        var data: UnsafePointer<UInt8>?
        var length = 0
        if ck_jpeg_decoder_exif(handle, &data, &length) != 0, let data,
            let tiff = EXIF.tiffBytes(fromAPP1: Array(UnsafeBufferPointer(start: data, count: length)))
        {
            let reading = EXIF.readOrientation(tiff: tiff)
            metadata.exif = tiff
            metadata.orientation = reading.orientation
            if let warning = reading.warning { warnings.append(CodecWarning(.exif, warning)) }
        }
        let dropped = Int(ck_jpeg_decoder_icc_segments_dropped(handle))
        if dropped > 0 {
            warnings.append(
                CodecWarning(.icc, "more than \(CK_JPEG_MAX_ICC_SEGMENTS) ICC profile segments; profile ignored"))
            return metadata
        }
        var payloads: [[UInt8]] = []
        for index in 0..<ck_jpeg_decoder_icc_segment_count(handle) {
            if ck_jpeg_decoder_icc_segment(handle, index, &data, &length) != 0, let data {
                payloads.append(Array(UnsafeBufferPointer(start: data, count: length)))
            }
        }
        let icc = ICCProfileChunks.assemble(payloads)
        metadata.iccProfile = icc.profile
        if let warning = icc.warning { warnings.append(CodecWarning(.icc, warning)) }
        return metadata
    }
}
