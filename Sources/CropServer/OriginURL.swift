import Foundation

/// An absolute `http` or `https` URL of a source on an HTTP origin, parsed strictly enough to compare with an
/// allowlist: no user information, a host, a port (the scheme's default when absent), and a path with no `.` or `..`
/// segment, plain or percent-encoded (a server would resolve them, so a prefix check on the text could be escaped).
public struct OriginURL: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host in lowercase: a name, an IPv4 literal, or an IPv6 literal without brackets.
    public let host: String
    /// The port.
    public let port: Int
    /// The path and query, percent-encoded as received, starting with `/`.
    public let target: String

    /// Parses `text`; `nil` unless it is an absolute http(s) URL as described above.
    public init?(_ text: String) {
        guard text.count <= 4096, !text.contains(where: { $0.isWhitespace || $0 == "\\" }),
            let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", components.user == nil, components.password == nil,
            var host = components.percentEncodedHost?.lowercased(), !host.isEmpty, !host.contains("%")
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port) else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        guard path.hasPrefix("/") else { return nil }
        for segment in path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            guard let name = String(segment).removingPercentEncoding, name != ".", name != "..",
                !name.contains("/"), !name.contains("\0")
            else { return nil }
        }
        self.scheme = scheme
        self.host = host
        self.port = port
        self.target = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// The path without the query.
    public var path: Substring { target[..<(target.firstIndex(of: "?") ?? target.endIndex)] }

    /// Whether ``port`` is the scheme's default.
    var hasDefaultPort: Bool { port == (scheme == "https" ? 443 : 80) }

    /// The host as it goes into a URL or a `Host` header: IPv6 literals in brackets.
    var hostInURL: String { host.contains(":") ? "[\(host)]" : host }

    /// The `Host` header value: the host, and the port unless it is the default.
    public var hostHeader: String { hasDefaultPort ? hostInURL : "\(hostInURL):\(port)" }

    /// The URL's text, with `address` (an IP literal) in place of the host when given.
    func string(connectingTo address: String? = nil) -> String {
        let host = address.map { $0.contains(":") ? "[\($0)]" : $0 } ?? hostInURL
        return "\(scheme)://\(host)\(hasDefaultPort ? "" : ":\(port)")\(target)"
    }

    public var description: String { string() }

    /// The URL a `Location` header names, resolved against this one; `nil` when it is not a valid origin URL.
    public func resolving(_ location: String) -> OriginURL? {
        guard let base = URL(string: string()), let resolved = URL(string: location, relativeTo: base) else {
            return nil
        }
        return OriginURL(resolved.absoluteString)
    }
}
