/// How `cropkit info` words an image's facts: one line, or a JSON object per file. Kept beside ``ImageInfo`` so
/// that each codec's tests can check how its facts read without running the binary.
extension ImageInfo {
    /// The facts in one line, as `cropkit info` prints them after the file's name, e.g.
    /// `JPEG 6000×4000, orientation 6 (rotated 90° clockwise), displayed 4000×6000, 3 channels (RGB from
    /// YCbCr 4:2:0), 8-bit, no alpha, ICC profile (540 bytes), progressive`.
    package var summary: String {
        let info = self
        var parts: [String] = []
        parts.append("\(info.format.displayName) \(info.width)×\(info.height)")
        parts.append("orientation \(info.orientation)")
        parts.append("displayed \(info.displayedSize.width)×\(info.displayedSize.height)")
        let channels = info.channelCount == 1 ? "1 channel" : "\(info.channelCount) channels"
        parts.append("\(channels) (\(info.layout) from \(info.colorModel))")
        parts.append(
            info.bitDepth == info.decodedDepth.rawValue
                ? "\(info.bitDepth)-bit" : "\(info.bitDepth)-bit (decoded as \(info.decodedDepth.rawValue)-bit)")
        parts.append(info.hasAlpha ? "alpha" : "no alpha")
        parts.append(info.iccProfileSize.map { "ICC profile (\($0) bytes)" } ?? "no ICC profile")
        switch info.format {
        case .jpeg:
            parts.append(
                info.isArithmeticCoded
                    ? (info.isProgressive ? "progressive, arithmetic-coded" : "sequential, arithmetic-coded")
                    : (info.isProgressive ? "progressive" : "baseline"))
        case .png: parts.append(info.isInterlaced ? "interlaced" : "not interlaced")
        case .heif, .bmp, .jxl, .jp2: break
        case .webp, .gif, .avif:
            if let frames = info.frameCount { parts.append("\(frames) frames") }
            if let plays = info.playCount { parts.append(plays == 0 ? "looping forever" : "playing \(plays) times") }
            if let duration = info.duration { parts.append("\(Self.seconds(duration)) s") }
        case .tiff: if let pages = info.frameCount { parts.append("\(pages) pages (the first is read)") }
        }
        return parts.joined(separator: ", ")
    }

    /// A JSON array with one object per file: the same facts as ``summary``, keys in a fixed order (`cropkit info
    /// --json`; docs/cli.md lists them).
    package static func json(_ entries: [(path: String, info: ImageInfo)]) -> String {
        let objects = entries.map { entry -> String in
            let info = entry.info
            let fields: [(String, String)] = [
                ("file", quoted(entry.path)),
                ("format", quoted(info.format.rawValue)),
                ("width", "\(info.width)"),
                ("height", "\(info.height)"),
                ("orientation", "\(info.orientation.exifValue)"),
                ("displayedWidth", "\(info.displayedSize.width)"),
                ("displayedHeight", "\(info.displayedSize.height)"),
                ("channels", "\(info.channelCount)"),
                ("layout", quoted(info.layout.rawValue)),
                ("colorModel", quoted(info.colorModel)),
                ("bitDepth", "\(info.bitDepth)"),
                ("decodedBitDepth", "\(info.decodedDepth.rawValue)"),
                ("alpha", "\(info.hasAlpha)"),
                ("icc", "\(info.iccProfileSize != nil)"),
                ("iccBytes", info.iccProfileSize.map { "\($0)" } ?? "null"),
                ("exif", "\(info.hasEXIF)"),
                ("progressive", "\(info.isProgressive)"),
                ("arithmeticCoded", "\(info.isArithmeticCoded)"),
                ("interlaced", "\(info.isInterlaced)"),
                ("frames", "\(info.frameCount ?? 1)"),
                ("playCount", info.playCount.map { "\($0)" } ?? "null"),
                ("durationSeconds", info.duration.map(seconds) ?? "null"),
            ]
            return "  {" + fields.map { "\(quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
        }
        return objects.isEmpty ? "[]" : "[\n" + objects.joined(separator: ",\n") + "\n]"
    }

    /// Seconds to the hundredth, as GIF delays are given: "1.5", "0.07".
    static func seconds(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded()), whole = hundredths / 100, part = hundredths % 100
        guard part != 0 else { return "\(whole)" }
        let text = "\(whole).\(part < 10 ? "0" : "")\(part)"
        return text.hasSuffix("0") ? String(text.dropLast()) : text
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
