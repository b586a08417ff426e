/// The CropKit release this code is (semantic versioning; `CHANGELOG.md` says what each release changed).
///
/// `cropkit --version` prints it, and the service puts it in every `ETag` (a new release may render differently).
public enum CropKitRelease {
    /// The version: `MAJOR.MINOR.PATCH`. Before 1.0 a minor release may still change the public API.
    public static let version = "0.9.0"
}
