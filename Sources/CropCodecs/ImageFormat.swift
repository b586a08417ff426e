/// Placeholder until the codecs land.
public enum ImageFormat: String, Sendable { case jpeg, png }
