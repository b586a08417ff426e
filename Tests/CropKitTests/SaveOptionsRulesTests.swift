import CropCodecs
import CropPixels
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

/// `SaveOptions` owns the output rules: every range and every format's capability from `ImageFormat`'s one table,
/// checked before anything is decoded. `OutputRuleCase.all` is the table the command line's and the services' tests
/// read too, so a rule refused here is refused alike everywhere.
@Suite("SaveOptions: the output rules, owned once")
struct SaveOptionsRulesTests {
    /// The options a case sets.
    static func options(_ rule: OutputRuleCase) throws -> (SaveOptions, ImageFormat) {
        let format = try #require(OptionValue.format(rule.format))
        var options = SaveOptions(format: format)
        switch rule.key {
        case "quality": options.quality = Int(rule.value)
        case "effort": options.effort = Int(rule.value)
        case "bit-depth": options.bitDepth = Int(rule.value)
        case "compression": options.pngCompressionLevel = try #require(Int(rule.value))
        case "lossless": options.lossless = true
        case "metadata": options.metadata = try #require(MetadataPolicy(rawValue: rule.value))
        default: Issue.record("no setting \(rule.key)")
        }
        return (options, format)
    }

    @Test(
        "each rule is refused before any work, naming the setting, by validate and by a run",
        arguments: OutputRuleCase.all)
    func refusals(_ rule: OutputRuleCase) throws {
        let (options, format) = try Self.options(rule)
        let setting = try #require(SaveOptions.Setting(rawValue: rule.key))
        let expected = CropKitError.invalidOption(setting, reason: rule.reason)
        if rule.flag == "strip" {
            #expect(throws: expected) { try SaveOptions.metadata(strip: true, policy: options.metadata) }
            return
        }
        #expect(throws: expected) { try options.validate(for: format) }
        // A run refuses it too, and writes nothing: the file sink's output never appears.
        let source = try ImageCodec.encode(
            try randomBuffer(width: 16, height: 12, format: .rgb8, seed: 7), as: .png)
        try withScratchFolder { folder in
            let path = folder + "/out." + format.fileExtension
            #expect(throws: expected) {
                try ImagePipeline().run(.data(source), [.fit(8, 8)], to: .file(path, options: options))
            }
            #expect(!FileManager.default.fileExists(atPath: path))
            var named = options
            named.format = nil
            #expect(throws: expected) { try ImagePipeline().run(.data(source), [], to: .file(path, options: named)) }
        }
    }

    @Test("the edges of every range pass, and a setting a format has no use for is ignored")
    func edges() throws {
        for format in ImageFormat.writable {
            for quality in [ImageFormat.qualityRange.lowerBound, ImageFormat.qualityRange.upperBound] {
                try SaveOptions(format: format, quality: quality).validate(for: format)
            }
            if let range = format.effortRange {
                try SaveOptions(effort: range.lowerBound).validate(for: format)
                try SaveOptions(effort: range.upperBound).validate(for: format)
                #expect(throws: CropKitError.self) {
                    try SaveOptions(effort: range.upperBound + 1).validate(for: format)
                }
            } else {
                try SaveOptions(effort: 9).validate(for: format)  // JPEG, PNG and GIF have no effort to spend
            }
            for depth in format.selectableBitDepths { try SaveOptions(bitDepth: depth).validate(for: format) }
            try SaveOptions(bitDepth: 8).validate(for: format)
        }
        // Before the format is known, only what no format takes is refused.
        try SaveOptions(quality: 1, lossless: true, effort: 9, bitDepth: 10).validate()
        #expect(throws: CropKitError.invalidOption(.effort, reason: "10 is outside 0…9")) {
            try SaveOptions(effort: 10).validate()
        }
        // PNG is lossless anyway.
        try SaveOptions(lossless: true).validate(for: .png)
        #expect(try SaveOptions.metadata(strip: true, policy: .strip) == .strip)
        #expect(try SaveOptions.metadata(strip: false, policy: .iccAndCopyright) == .iccAndCopyright)
        #expect(try SaveOptions.metadata(strip: false, policy: nil) == .keep)
    }

    @Test("defaults come from the same table: each format's default quality and effort lie in its ranges")
    func defaults() throws {
        for format in ImageFormat.writable {
            if let quality = format.defaultQuality { #expect(ImageFormat.qualityRange.contains(quality)) }
            #expect((format.defaultEffort == nil) == (format.effortRange == nil), "\(format)")
            if let effort = format.defaultEffort, let range = format.effortRange { #expect(range.contains(effort)) }
            let options = SaveOptions().encodeOptions
            switch format {
            case .webp: #expect(options.webp.effort == format.defaultEffort)
            case .heif, .avif: #expect(options.heif.effort == format.defaultEffort)
            case .jxl: #expect(options.jxl.effort == format.defaultEffort)
            default: break
            }
        }
        #expect(ImageFormat.allCases.filter(\.writesAnimation) == [.webp, .avif, .gif])
    }
}
