import AsyncHTTPClient
import CropWeb
import Crypto
import Foundation
import NIOCore
import NIOHTTP1

/// Fetches sources from HTTP(S) origins for `GET /fetch?url=…`: only URLs under the ``allowlist``, only from
/// addresses the ``addressGuard`` passes, at most ``maximumBytes``, within ``timeout`` seconds, following at most
/// ``maximumRedirects`` redirects, each checked again like the first URL.
///
/// Against DNS rebinding (a name that resolves to a public address when checked and a private one when connected):
/// a plain `http` URL is fetched from the very address that was checked, with the name in the `Host` header; an
/// `https` URL is fetched by name with full certificate verification, which a rebound address cannot pass (it would
/// need a certificate for the attacker's name).
public struct OriginFetcher: Sendable {
    /// Where sources may come from.
    public var allowlist: OriginAllowlist
    /// Which addresses may be connected to.
    public var addressGuard: OriginAddressGuard
    /// The largest source, in bytes.
    public var maximumBytes: Int
    /// The longest a fetch (every redirect and the body) may take, in seconds.
    public var timeout: Double
    /// The most redirects followed.
    public var maximumRedirects: Int

    /// A fetcher with the given limits.
    public init(
        allowlist: OriginAllowlist, addressGuard: OriginAddressGuard = OriginAddressGuard(),
        maximumBytes: Int = 64 << 20, timeout: Double = 10, maximumRedirects: Int = 5
    ) {
        self.allowlist = allowlist
        self.addressGuard = addressGuard
        self.maximumBytes = maximumBytes
        self.timeout = timeout
        self.maximumRedirects = maximumRedirects
    }

    /// A fetched source.
    public struct Fetched: Sendable {
        /// The URL the bytes came from (after redirects).
        public var url: OriginURL
        /// The body.
        public var bytes: [UInt8]
        /// What identifies this version: the origin's `ETag` when it sent one, else a SHA-256 of the bytes.
        public var validator: String
    }

    /// One client for the process, never shut down: redirects are followed here, so they can be checked.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(30))
        configuration.decompression = .disabled
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Fetches `text`.
    ///
    /// - Throws: `WebError`: `invalidParameter` for a URL that is not an absolute http(s) URL, `forbidden` for one
    ///   outside the allowlist or resolving to a refused address, `notFound` when the origin answers 404 or 410,
    ///   `sourceTooLarge` past ``maximumBytes``, `originTimedOut` past ``timeout``, `originFailed` otherwise.
    public func fetch(_ text: String) async throws(WebError) -> Fetched {
        guard var url = OriginURL(text) else {
            throw .invalidParameter(name: "url", reason: "not an absolute http(s) URL without '.' or '..' segments")
        }
        let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout * 1e9))
        for _ in 0...maximumRedirects {
            let response = try await request(url, deadline: deadline)
            switch response.status.code {
            case 200:
                return try await body(of: response, from: url, deadline: deadline)
            case 301, 302, 303, 307, 308:
                guard let location = response.headers.first(name: "Location"), let next = url.resolving(location) else {
                    throw .originFailed(url: url.description, reason: "a redirect without a valid http(s) Location")
                }
                url = next
            case 404, 410:
                throw .notFound(path: url.description)
            default:
                throw .originFailed(url: url.description, reason: "it answered \(response.status.code)")
            }
        }
        throw .originFailed(url: url.description, reason: "more than \(maximumRedirects) redirects")
    }

    /// Sends the GET for `url` after checking it: the allowlist, then every address its host resolves to.
    func request(_ url: OriginURL, deadline: NIODeadline) async throws(WebError) -> HTTPClientResponse {
        guard allowlist.allows(url) else {
            throw .forbidden(reason: "\(url) is not under an allowed origin")
        }
        let addresses: [String]
        do {
            addresses = try addressGuard.check(host: url.host)
        } catch {
            guard error.address != nil else { throw .originFailed(url: url.description, reason: error.description) }
            throw .forbidden(reason: error.description)
        }
        // http: connect to a checked address (the next one if it fails; async-http-client retries a refused connection
        // until the deadline); https: by name, verified (see above).
        let ordered = addresses.filter { !$0.contains(":") } + addresses.filter { $0.contains(":") }  // IPv4 first
        let targets = url.scheme == "http" ? ordered.map(Optional.some) : [nil]
        var failure = "no address to connect to"
        for address in targets {
            var request = HTTPClientRequest(url: url.string(connectingTo: address))
            request.headers.add(name: "Host", value: url.hostHeader)
            request.headers.add(name: "User-Agent", value: "cropkit-serve")
            request.headers.add(name: "Accept", value: "image/*")
            do {
                return try await Self.client.execute(request, deadline: deadline)
            } catch let error as HTTPClientError where error == .deadlineExceeded {
                throw .originTimedOut(url: url.description, seconds: timeout)
            } catch {
                failure = "\(error)"
            }
        }
        throw .originFailed(url: url.description, reason: failure)
    }

    /// Reads the body of a 200 answer, refusing it past ``maximumBytes`` (from `Content-Length` when sent, before
    /// reading anything).
    func body(of response: HTTPClientResponse, from url: OriginURL, deadline: NIODeadline) async throws(WebError)
        -> Fetched
    {
        if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > maximumBytes {
            throw .sourceTooLarge(bytes: length, limit: maximumBytes)
        }
        let buffer: ByteBuffer
        do {
            buffer = try await response.body.collect(upTo: maximumBytes)
        } catch is NIOTooManyBytesError {
            throw .sourceTooLarge(bytes: nil, limit: maximumBytes)
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            throw .originTimedOut(url: url.description, seconds: timeout)
        } catch {
            throw .originFailed(url: url.description, reason: "the body broke off: \(error)")
        }
        let bytes = Array(buffer.readableBytesView)
        let validator =
            response.headers.first(name: "ETag")
            ?? SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        return Fetched(url: url, bytes: bytes, validator: validator)
    }
}
