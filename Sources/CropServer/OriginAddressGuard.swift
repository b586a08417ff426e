#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which network addresses an HTTP origin may resolve to: the guard against a signed URL (or a redirect) that makes
/// the service fetch from its own machine or private network (server-side request forgery).
///
/// Refused unless ``allowPrivate`` is set: loopback, private (RFC 1918, unique-local fc00::/7), link-local,
/// carrier-grade NAT (100.64/10), unspecified, multicast, broadcast, and the IETF's reserved and documentation ranges.
/// IPv4 addresses inside IPv6 (mapped `::ffff:a.b.c.d`, compatible, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged
/// by the IPv4 address they carry. Every address a host name resolves to must pass, so that one public and one
/// private answer cannot slip through.
public struct OriginAddressGuard: Sendable {
    /// Allow every address (for origins on a private network, stated explicitly).
    public var allowPrivate: Bool

    /// A guard that refuses private, loopback, link-local and reserved addresses unless `allowPrivate`.
    public init(allowPrivate: Bool = false) {
        self.allowPrivate = allowPrivate
    }

    /// Why an address is refused.
    public enum Refusal: String, Hashable, Sendable {
        case loopback
        case privateNetwork = "private"
        case linkLocal = "link-local"
        case sharedAddressSpace = "carrier-grade NAT"
        case unspecified, multicast, broadcast, reserved
        case notAnAddress = "not an IP address"
    }

    /// `nil` when `address` (an IPv4 or IPv6 literal) may be fetched from, else why not.
    public func refusal(of address: String) -> Refusal? {
        guard let bytes = Self.parse(address) else { return .notAnAddress }
        guard !allowPrivate else { return nil }
        return bytes.count == 4 ? Self.refusal(ipv4: bytes) : Self.refusal(ipv6: bytes)
    }

    /// The IPv4 or IPv6 address bytes of a literal (brackets and an IPv6 zone allowed), or `nil`.
    static func parse(_ text: String) -> [UInt8]? {
        var literal = text
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        if let zone = literal.firstIndex(of: "%") { literal = String(literal[..<zone]) }
        var v4 = in_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, literal, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    static func refusal(ipv4 b: [UInt8]) -> Refusal? {
        switch (b[0], b[1], b[2]) {
        case (0, _, _): return .unspecified
        case (10, _, _): return .privateNetwork
        case (100, 64...127, _): return .sharedAddressSpace
        case (127, _, _): return .loopback
        case (169, 254, _): return .linkLocal
        case (172, 16...31, _): return .privateNetwork
        case (192, 0, 0), (192, 0, 2), (192, 88, 99), (198, 18...19, _), (198, 51, 100), (203, 0, 113): return .reserved
        case (192, 168, _): return .privateNetwork
        case (224...239, _, _): return .multicast
        case (240...255, _, _): return b == [255, 255, 255, 255] ? .broadcast : .reserved
        default: return nil
        }
    }

    static func refusal(ipv6 b: [UInt8]) -> Refusal? {
        let zeros = { (range: Range<Int>) in b[range].allSatisfy { $0 == 0 } }
        if zeros(0..<16) { return .unspecified }
        if zeros(0..<15) && b[15] == 1 { return .loopback }
        // IPv4 inside IPv6: mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d, 6to4 2002:AABB:CCDD::.
        if zeros(0..<10) && b[10] == 0xFF && b[11] == 0xFF { return refusal(ipv4: Array(b[12..<16])) }
        if zeros(0..<12) { return refusal(ipv4: Array(b[12..<16])) }
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B && zeros(4..<12) {
            return refusal(ipv4: Array(b[12..<16]))
        }
        if b[0] == 0x20 && b[1] == 0x02 { return refusal(ipv4: Array(b[2..<6])) }
        if b[0] & 0xFE == 0xFC { return .privateNetwork }  // fc00::/7 unique local
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return .linkLocal }  // fe80::/10
        if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return .privateNetwork }  // fec0::/10 site-local (deprecated)
        if b[0] == 0xFF { return .multicast }
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8 { return .reserved }  // 2001:db8::/32
        if b[0] == 0x01 && b[1] == 0x00 && zeros(2..<8) { return .reserved }  // 100::/64 discard
        return nil
    }

    /// The addresses `host` resolves to (getaddrinfo, TCP), as literals; empty when it does not resolve.
    public static func resolve(_ host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #elseif canImport(Musl)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [String] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let entry = node {
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            if let address = entry.pointee.ai_addr {
                if entry.pointee.ai_family == AF_INET {
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                        var a = v4.pointee.sin_addr
                        _ = inet_ntop(AF_INET, &a, &text, socklen_t(text.count))
                    }
                } else if entry.pointee.ai_family == AF_INET6 {
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                        var a = v6.pointee.sin6_addr
                        _ = inet_ntop(AF_INET6, &a, &text, socklen_t(text.count))
                    }
                }
            }
            let literal = String(cString: text)
            if !literal.isEmpty, !addresses.contains(literal) { addresses.append(literal) }
            node = entry.pointee.ai_next
        }
        return addresses
    }

    /// Checks every address `host` resolves to; returns them when all may be fetched from.
    ///
    /// - Throws: ``OriginRefusal`` naming the host, the address and why, or that it does not resolve.
    public func check(host: String) throws(OriginRefusal) -> [String] {
        let addresses = Self.parse(host) != nil ? [host] : Self.resolve(host)
        guard !addresses.isEmpty else { throw OriginRefusal(host: host, address: nil, reason: "does not resolve") }
        for address in addresses {
            if let refusal = refusal(of: address) {
                throw OriginRefusal(host: host, address: address, reason: refusal.rawValue)
            }
        }
        return addresses
    }
}

/// An origin host the service will not fetch from.
public struct OriginRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The origin's host name, as the URL gave it.
    public var host: String
    /// The address it resolved to that was refused; `nil` when the host itself is an address.
    public var address: String?
    /// Why, in words that follow the address: its kind (`private`, `loopback`, `link-local` or `reserved`), or
    /// `does not resolve`.
    public var reason: String

    public var description: String {
        if let address { return "\(host) resolves to \(address), a \(reason) address" }
        return "\(host) \(reason)"
    }
}
