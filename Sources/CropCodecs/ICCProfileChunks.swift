/// Splitting an ICC profile into JPEG APP2 `ICC_PROFILE` segments and putting it back together.
///
/// Each segment holds `ICC_PROFILE\0`, a 1-based sequence number, the total number of segments, and a part of the
/// profile. A set is accepted only when every segment agrees on the total, every sequence number 1…total appears
/// (a segment repeated with the same bytes counts once), and no part is empty.
package enum ICCProfileChunks {
    /// The identifier that starts an ICC APP2 segment.
    static let identifier: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
    /// The largest profile part one segment can hold (65 533 payload bytes minus 14 header bytes).
    static let maxPartLength = 65_533 - 14
    /// The most segments a profile can use (the count is one byte).
    static let maxSegments = 255

    /// Whether an APP2 payload is an ICC segment.
    static func isICCSegment(_ payload: [UInt8]) -> Bool {
        payload.count >= identifier.count + 2 && payload.starts(with: identifier)
    }

    /// Reassembles a profile from the payloads of the ICC APP2 segments, in file order.
    ///
    /// - Returns: the profile, or `nil` with a warning when the set is inconsistent; `(nil, nil)` when there are no
    ///   segments.
    /// - Complexity: O(total size + segments × log segments).
    package static func assemble(_ payloads: [[UInt8]]) -> (profile: [UInt8]?, warning: String?) {
        guard !payloads.isEmpty else { return (nil, nil) }
        // Callers pass ICC segments only, but the sequence and count bytes are read below: check, never trust.
        guard payloads.allSatisfy(isICCSegment) else {
            return (nil, "an APP2 segment is not an ICC profile segment; profile ignored")
        }
        let header = identifier.count
        let total = Int(payloads[0][header + 1])
        var parts = [ArraySlice<UInt8>?](repeating: nil, count: total + 1)
        for payload in payloads {
            let sequence = Int(payload[header]), count = Int(payload[header + 1])
            guard count == total, total >= 1 else {
                return (nil, "ICC profile segments disagree on their count (\(total) and \(count)); profile ignored")
            }
            guard sequence >= 1, sequence <= total else {
                return (nil, "ICC profile segment number \(sequence) is outside 1…\(total); profile ignored")
            }
            if let seen = parts[sequence] {
                // The same segment written twice (a profile repeated after SOF, as some writers do) is one segment;
                // two different parts under one number cannot be told apart.
                guard seen.elementsEqual(payload[(header + 2)...]) else {
                    return (nil, "ICC profile segment \(sequence) appears twice with different parts; profile ignored")
                }
                continue
            }
            guard payload.count > header + 2 else {
                return (nil, "ICC profile segment \(sequence) is empty; profile ignored")
            }
            parts[sequence] = payload[(header + 2)...]
        }
        var profile: [UInt8] = []
        for sequence in 1...total {
            guard let part = parts[sequence] else {
                return (nil, "ICC profile segment \(sequence) of \(total) is missing; profile ignored")
            }
            profile += part
        }
        return (profile, nil)
    }

    /// Splits a profile into APP2 payloads, or returns `nil` when it is empty or needs more than 255 segments
    /// (over about 16 MB).
    package static func split(_ profile: [UInt8]) -> [[UInt8]]? {
        guard !profile.isEmpty else { return nil }
        let count = (profile.count + maxPartLength - 1) / maxPartLength
        guard count <= maxSegments else { return nil }
        return (0..<count).map { i in
            let start = i * maxPartLength
            let end = min(start + maxPartLength, profile.count)
            return identifier + [UInt8(i + 1), UInt8(count)] + profile[start..<end]
        }
    }
}
