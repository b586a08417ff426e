import Foundation

/// The web origins whose pages may embed the editor in a frame and receive its messages (`ready`, `change`, `done`,
/// `cancel`; see <doc:Embedding>).
///
/// Empty, the default, means no page may frame the editor (`frame-ancestors 'none'`) and the page posts no
/// messages. Each origin is exact: a scheme (`http` or `https`), a host and an optional port, with no path, no
/// wildcard and no `*`, because a recipe and a signed image URL go only where the server was told.
public struct HostPageOrigins: Sendable, Hashable, Encodable {
    /// The origins, normalised (`https://app.example.com`, `http://127.0.0.1:8080`), in the order given.
    public let origins: [String]

    /// No host page.
    public static let none = HostPageOrigins(checked: [])

    /// Checks and normalises `origins`.
    ///
    /// - Parameter origins: each `scheme://host[:port]`, with `http` or `https`.
    /// - Throws: `EditorError.invalidParameter(name:reason:)` naming `embed-origin` and what is wrong with the
    ///   first bad origin.
    public init(_ origins: [String]) throws(EditorError) {
        var normalised: [String] = []
        for origin in origins {
            let value = try Self.normalise(origin)
            if !normalised.contains(value) { normalised.append(value) }
        }
        self.init(checked: normalised)
    }

    private init(checked: [String]) { self.origins = checked }

    /// True when no page may embed the editor.
    public var isEmpty: Bool { origins.isEmpty }

    /// The Content-Security-Policy `frame-ancestors` source list: `'none'`, or the origins.
    public var frameAncestors: String { origins.isEmpty ? "'none'" : origins.joined(separator: " ") }

    /// Encodes the origins as a JSON array of strings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(origins)
    }

    private static func normalise(_ origin: String) throws(EditorError) -> String {
        func refuse(_ reason: String) -> EditorError {
            .invalidParameter(name: "embed-origin", reason: "'\(origin)' \(reason)")
        }
        guard let components = URLComponents(string: origin), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty
        else { throw refuse("is not an origin like https://app.example.com") }
        guard scheme == "http" || scheme == "https" else { throw refuse("must start with http:// or https://") }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil
        else { throw refuse("must be only a scheme, a host and a port, with no path or query") }
        guard
            host.allSatisfy({
                $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "[" || $0 == "]" || $0 == ":"
            }),
            !host.contains("*")
        else { throw refuse("has a character a host name cannot have (no wildcards)") }
        let defaultPort = scheme == "https" ? 443 : 80
        if let port = components.port {
            guard (1...65535).contains(port) else { throw refuse("has a port outside 1…65535") }
            return port == defaultPort ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(port)"
        }
        return "\(scheme)://\(host)"
    }
}
