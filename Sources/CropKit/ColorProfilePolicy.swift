/// What happens to the colours of an output whose source carries an ICC profile.
public enum ColorProfilePolicy: String, CaseIterable, Hashable, Sendable, Codable {
    /// Keep the pixels and their profile as they are (the default, right for a crop tool: nothing changes).
    case keep
    /// Convert the pixels to sRGB through their profile (Little CMS) and embed the sRGB profile, so viewers that
    /// ignore profiles show the right colours too. Pixels already in sRGB are left alone.
    case sRGB = "srgb"
}
