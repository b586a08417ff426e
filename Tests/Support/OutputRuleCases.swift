/// One refusal of an output setting, as every face must give it: the library's ``SaveOptions/validate(for:)``, the
/// command line (`--key value`) and, where the setting is a URL parameter, the image service and the render API
/// (`key=value`). The reason is the library's, word for word; each face only names the setting its own way.
public struct OutputRuleCase: Sendable, CustomStringConvertible {
    /// The setting's name: the flag without its dashes, and the query key.
    public let key: String
    /// Its value as text; empty for a flag.
    public let value: String
    /// The output format's name (`jpeg`, `webp` …), as `--format` and `format=` take it.
    public let format: String
    /// Another setting the case needs, as a flag (`strip`).
    public let flag: String?
    /// The library's reason, word for word.
    public let reason: String
    /// Whether the image service and the render API take the setting.
    public let inURLs: Bool

    public var description: String { "\(key)=\(value) for \(format)\(flag.map { " with \($0)" } ?? "")" }

    /// The command-line arguments that set it (after the input and output).
    public var arguments: [String] {
        ["--format", format, "--\(key)"] + (value.isEmpty ? [] : [value]) + (flag.map { ["--\($0)"] } ?? [])
    }

    /// The query that sets it.
    public var query: String { "format=\(format)&\(key)=\(value)" + (flag.map { "&\($0)" } ?? "") }

    /// Every rule ``SaveOptions`` holds, one case each.
    public static let all: [OutputRuleCase] = [
        OutputRuleCase(
            key: "quality", value: "0", format: "jpeg", flag: nil, reason: "0 is outside 1…100", inURLs: true),
        OutputRuleCase(
            key: "quality", value: "101", format: "webp", flag: nil, reason: "101 is outside 1…100", inURLs: true),
        OutputRuleCase(
            key: "effort", value: "7", format: "webp", flag: nil, reason: "7 is outside WebP's 0…6", inURLs: false),
        OutputRuleCase(
            key: "effort", value: "10", format: "avif", flag: nil, reason: "10 is outside 0…9", inURLs: false),
        OutputRuleCase(
            key: "effort", value: "0", format: "jxl", flag: nil, reason: "0 is outside JPEG XL's 1…9", inURLs: false),
        OutputRuleCase(
            key: "bit-depth", value: "12", format: "avif", flag: nil, reason: "12 is not 8 or 10", inURLs: false),
        OutputRuleCase(
            key: "bit-depth", value: "10", format: "png", flag: nil,
            reason: "PNG takes no bit depth; 10 bits are for HEIF or AVIF",
            inURLs: false),
        OutputRuleCase(
            key: "compression", value: "10", format: "png", flag: nil, reason: "10 is outside 0…9", inURLs: false),
        OutputRuleCase(
            key: "metadata", value: "icc-copyright", format: "jpeg", flag: "strip",
            reason: "strip contradicts metadata icc-copyright", inURLs: true),
        OutputRuleCase(
            key: "metadata", value: "keep", format: "png", flag: "strip", reason: "strip contradicts metadata keep",
            inURLs: true),
        OutputRuleCase(
            key: "lossless", value: "", format: "jpeg", flag: nil,
            reason: "JPEG cannot be lossless; write PNG, WebP, HEIF, AVIF or JPEG XL", inURLs: false),
    ]
}
