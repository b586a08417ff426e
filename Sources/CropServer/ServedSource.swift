import CropKit

/// Where one request's source came from: a file under the root folder or the body an HTTP origin sent.
enum ServedSource: Sendable {
    case file(SourceFolder.Source)
    case fetched(OriginFetcher.Fetched)

    /// The pipeline's source.
    var image: ImageSource {
        switch self {
        case .file(let file): .file(file.path)
        case .fetched(let fetched): .data(fetched.bytes)
        }
    }

    /// What identifies this version of the source, for the `ETag`.
    var identity: [String] {
        switch self {
        case .file(let file): ["file", file.path, String(file.size), String(file.modified)]
        case .fetched(let fetched): ["url", fetched.url.description, fetched.validator]
        }
    }

    /// The source's size in bytes.
    var byteCount: Int {
        switch self {
        case .file(let file): file.size
        case .fetched(let fetched): fetched.bytes.count
        }
    }
}
