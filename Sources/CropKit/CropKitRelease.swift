/// The CropKit release this code is (semantic versioning; `CHANGELOG.md` says what each release changed).
///
/// `cropkit --version` prints it, and the service puts it in every `ETag` (a new release may render differently).
public enum CropKitRelease {
    /// The version: a release's `MAJOR.MINOR.PATCH`, or between releases the next minor release with `-dev`
    /// (`0.10.0-dev`: built from main after 0.9.0). Before 1.0 a minor release may still change the public API.
    public static let version = "0.10.0-dev"

    /// The newest published release: what a package depends on (`from:`) and what `CHANGELOG.md` last dates.
    public static let published = "0.9.0"
}
