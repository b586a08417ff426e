import Testing

@testable import CropServer

@Suite("The origin address guard (no traffic leaves loopback)")
struct OriginAddressGuardTests {
    @Test(
        "private, loopback, link-local and reserved addresses are refused; public ones pass",
        arguments: [
            ("127.0.0.1", "loopback"), ("127.255.0.9", "loopback"), ("::1", "loopback"), ("[::1]", "loopback"),
            ("10.1.2.3", "private"), ("172.16.0.1", "private"), ("172.31.255.255", "private"),
            ("192.168.1.1", "private"),
            ("fc00::1", "private"), ("fd12:3456::1", "private"), ("169.254.169.254", "link-local"),
            ("fe80::1%eth0", "link-local"),
            ("100.64.0.1", "carrier-grade NAT"), ("0.0.0.0", "unspecified"), ("::", "unspecified"),
            ("224.0.0.1", "multicast"),
            ("ff02::1", "multicast"), ("255.255.255.255", "broadcast"), ("240.0.0.1", "reserved"),
            ("192.0.2.10", "reserved"),
            ("2001:db8::1", "reserved"), ("::ffff:127.0.0.1", "loopback"), ("::ffff:10.0.0.1", "private"),
            ("64:ff9b::a9fe:a9fe", "link-local"), ("2002:c0a8:0101::1", "private"), ("::7f00:1", "loopback"),
            ("localhost", "not an IP address"), ("1.2.3", "not an IP address"),
        ])
    func refused(_ address: String, _ reason: String) {
        #expect(OriginAddressGuard().refusal(of: address)?.rawValue == reason, "\(address)")
    }

    @Test(
        "public addresses pass, and everything passes when private origins are allowed",
        arguments: [
            "93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "192.169.0.1", "2606:4700::6810:85e5",
            "::ffff:93.184.216.34", "2002:5db8:d822::1",
        ])
    func allowed(_ address: String) {
        #expect(OriginAddressGuard().refusal(of: address) == nil, "\(address)")
    }

    @Test("with private origins allowed, every address passes but a non-address is still refused")
    func allowPrivate() {
        let open = OriginAddressGuard(allowPrivate: true)
        #expect(["127.0.0.1", "10.0.0.1", "fe80::1", "::1"].allSatisfy { open.refusal(of: $0) == nil })
        #expect(open.refusal(of: "localhost") == .notAnAddress)
    }

    @Test("a host is checked by every address it resolves to: localhost is refused, unless private origins are allowed")
    func hosts() throws {
        #expect(throws: OriginRefusal.self) { try OriginAddressGuard().check(host: "127.0.0.1") }
        #expect(throws: OriginRefusal.self) { try OriginAddressGuard().check(host: "no-such-host.invalid") }
        let addresses = try OriginAddressGuard(allowPrivate: true).check(host: "localhost")
        #expect(!addresses.isEmpty && addresses.allSatisfy { OriginAddressGuard().refusal(of: $0) == .loopback })
        let refusal = #expect(throws: OriginRefusal.self) { try OriginAddressGuard().check(host: "localhost") }
        #expect(refusal?.description.contains("localhost resolves to") == true)
        #expect(refusal?.description.contains("loopback") == true)
    }
}
