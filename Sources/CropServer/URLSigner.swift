import CropKit
import Crypto
import Foundation

/// Signs and checks image URLs: `sig` is the unpadded base64url HMAC-SHA256 of the request target (path and query,
/// exactly as sent) without its `&sig=…` (or `?sig=…`) part, and is the target's last parameter.
///
/// Several keys may be active at once so that keys can rotate: a URL signed with any of them is accepted, and new
/// URLs are signed with the first.
public struct URLSigner: Sendable {
    /// The keys' bytes, the signing one first.
    public let keys: [[UInt8]]

    /// - Precondition: `keys` is not empty.
    public init(keys: [[UInt8]]) {
        precondition(!keys.isEmpty, "a URL signer needs at least one key")
        self.keys = keys
    }

    /// Keys from hex text: one key per line or comma-separated, blank lines and `#` comments ignored.
    ///
    /// - Throws: ``SigningKeyError`` naming the entry that is not even-length hex or is shorter than 16 bytes.
    public init(hexKeys text: String) throws(SigningKeyError) {
        var keys: [[UInt8]] = []
        for (index, line) in text.split(whereSeparator: { $0 == "\n" || $0 == "," }).enumerated() {
            let entry = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces)
            guard !entry.isEmpty else { continue }
            guard let bytes = Self.hexBytes(entry) else { throw .notHex(entry: index + 1) }
            guard bytes.count >= 16 else { throw .tooShort(entry: index + 1, bytes: bytes.count) }
            keys.append(bytes)
        }
        guard !keys.isEmpty else { throw .none }
        self.init(keys: keys)
    }

    /// The signature of `target` (a path and query without `sig`) with the first key.
    public func signature(of target: String) -> String {
        Self.signature(of: target, key: keys[0])
    }

    /// `target` with its signature appended as the last parameter.
    public func signed(_ target: String) -> String {
        target + (target.contains("?") ? "&" : "?") + "sig=" + signature(of: target)
    }

    /// Whether `target` (as sent, `sig` last) carries a signature made with one of the keys. Constant-time in the
    /// signature's bytes.
    public func verify(_ target: String) -> Bool {
        guard let (unsigned, signature) = Self.split(target), let mac = Self.base64URLDecoded(signature) else {
            return false
        }
        return keys.contains { key in
            HMAC<SHA256>.isValidAuthenticationCode(
                mac, authenticating: Data(unsigned.utf8), using: SymmetricKey(data: key))
        }
    }

    /// `target` cut before its final `sig` parameter, and that parameter's value; `nil` when `sig` is not last.
    package static func split(_ target: String) -> (unsigned: String, signature: String)? {
        // The last `&sig=` or `?sig=`, whichever comes later (an earlier one belongs to the signed part).
        let found = ["&sig=", "?sig="].compactMap { target.range(of: $0, options: .backwards) }
        guard let range = found.max(by: { $0.lowerBound < $1.lowerBound }) else { return nil }
        let value = target[range.upperBound...]
        guard !value.contains("&"), !value.contains("?") else { return nil }
        return (String(target[..<range.lowerBound]), String(value))
    }

    static func signature(of target: String, key: [UInt8]) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(target.utf8), using: SymmetricKey(data: key))
        return base64URLEncoded(Data(mac))
    }

    /// Unpadded base64url (RFC 4648 §5), as signatures and `recipe=` values are written.
    static func base64URLEncoded(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base64URLDecoded(_ text: String) -> Data? { OptionValue.base64URLDecoded(text) }

    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[i]), let low = hexValue(digits[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Why signing keys could not be read.
public enum SigningKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Entry `entry` (1-based) is not an even number of hex digits.
    case notHex(entry: Int)
    /// Entry `entry` has fewer than 16 bytes.
    case tooShort(entry: Int, bytes: Int)
    /// No key was given.
    case none

    public var description: String {
        switch self {
        case .notHex(let entry): "signing key \(entry) is not an even number of hex digits"
        case .tooShort(let entry, let bytes): "signing key \(entry) has \(bytes) bytes; at least 16 are needed"
        case .none: "no signing key was given"
        }
    }
}
