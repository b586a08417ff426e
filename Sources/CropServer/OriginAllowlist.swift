/// The HTTP origins `cropkit serve` may fetch sources from, as URL prefixes such as
/// `https://images.example.com/photos/`.
///
/// A URL is allowed when its scheme, host and port equal a prefix's and its path starts with the prefix's path (so
/// `https://images.example.com/photos/` allows `…/photos/a/b.jpg` but not `…/photosecret.jpg` or `…/admin`).
/// Redirects are checked against the same list, hop by hop.
public struct OriginAllowlist: Sendable {
    /// The prefixes.
    public let prefixes: [OriginURL]

    /// - Throws: ``ServiceSetupError/badOrigin(_:)`` for a prefix that is not an absolute http(s) URL, or has a query.
    public init(_ prefixes: [String]) throws(ServiceSetupError) {
        self.prefixes = try prefixes.map { (text) throws(ServiceSetupError) in
            guard let url = OriginURL(text), !url.target.contains("?") else { throw .badOrigin(text) }
            return url
        }
    }

    /// Whether `url` lies under one of the prefixes.
    public func allows(_ url: OriginURL) -> Bool {
        prefixes.contains { prefix in
            guard prefix.scheme == url.scheme, prefix.host == url.host, prefix.port == url.port else { return false }
            // A prefix path without a trailing slash names a folder or a file: `/photos` allows `/photos` and
            // `/photos/…`, not `/photosecret`.
            let base = prefix.path
            return url.path == base || url.path.hasPrefix(base.hasSuffix("/") ? base : base + "/")
        }
    }
}
