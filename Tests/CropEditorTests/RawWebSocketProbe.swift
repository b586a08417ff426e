import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A WebSocket handshake over a plain loopback socket that reads what the server sends until its close frame, with
/// a receive deadline, so a test sees the server's own bytes.
///
/// For a server that answers and closes at once (an unknown picture), the WebSocket client of the test framework
/// can miss frames that arrive in the same read as the `101` response: under load it waited for ever (3 of 26
/// filtered runs). This probe parses the bytes itself, and can only fail, never hang.
struct RawWebSocketProbe {
    /// One frame from the server: its opcode (1 text, 8 close) and payload.
    struct Frame: Equatable {
        var opcode: UInt8
        var payload: [UInt8]
        var text: String { String(decoding: payload, as: UTF8.self) }
    }

    /// A socket error, with the call that failed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int
    var deadline: TimeInterval = 30

    /// ``frames(of:)`` on a thread of its own, so the blocking reads never hold one of the few threads that run
    /// Swift tasks (the server's handler needs one to answer).
    func answer(to path: String) async throws -> (status: String, frames: [Frame]) {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try frames(of: path) }) }.start()
        }
    }

    /// Opens `path` and returns the server's frames up to and including its close frame (or what came before EOF or
    /// the deadline).
    func frames(of path: String) throws -> (status: String, frames: [Frame]) {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #elseif canImport(Musl)
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: Int(deadline), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect: \(errno)") }
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        let bytes = Array(request.utf8)
        guard send(fd, bytes, bytes.count, 0) == bytes.count else { throw Failure(description: "send: \(errno)") }

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let started = Date()
        while Date().timeIntervalSince(started) < deadline {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
            if let parsed = Self.parse(received), parsed.frames.last?.opcode == 8 { return parsed }
        }
        return Self.parse(received) ?? (String(decoding: received, as: UTF8.self), [])
    }

    /// The status line and the complete frames after the response head, or nil before the head is complete.
    static func parse(_ bytes: [UInt8]) -> (status: String, frames: [Frame])? {
        let end: [UInt8] = [13, 10, 13, 10]
        guard
            let headEnd = (0...max(0, bytes.count - 4)).first(where: {
                Array(bytes[$0..<min($0 + 4, bytes.count)]) == end
            })
        else { return nil }
        let head = String(decoding: bytes[0..<headEnd], as: UTF8.self)
        var frames: [Frame] = []
        var at = headEnd + 4
        while at + 2 <= bytes.count {
            let opcode = bytes[at] & 0x0F
            var length = Int(bytes[at + 1] & 0x7F)
            var start = at + 2
            if length == 126 {
                guard start + 2 <= bytes.count else { break }
                length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
                start += 2
            } else if length == 127 {
                break  // the server's answers here are small
            }
            guard start + length <= bytes.count else { break }
            frames.append(Frame(opcode: opcode, payload: Array(bytes[start..<start + length])))
            at = start + length
        }
        return (head.components(separatedBy: "\r\n").first ?? "", frames)
    }
}
