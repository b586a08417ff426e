/// A `multipart/form-data` body (RFC 7578) split into its parts. Only what the render API needs: each part's name,
/// file name, content type and bytes. Parts are slices of the body, not copies.
package struct MultipartForm {
    /// One part of the form.
    package struct Part {
        /// The `name` of its `Content-Disposition: form-data`.
        package var name: String
        /// The `filename`, if any.
        package var filename: String?
        /// Its `Content-Type`, if given.
        package var contentType: String?
        /// Its bytes.
        package var body: ArraySlice<UInt8>
    }

    /// The parts in body order.
    package var parts: [Part]

    /// The first part called `name`.
    package func part(named name: String) -> Part? { parts.first { $0.name == name } }

    /// Parses `body` with the boundary from `contentType` (`multipart/form-data; boundary=…`).
    /// - Throws: `EditorError.malformedMultipart(reason:)` naming what is wrong.
    package init(body: [UInt8], contentType: String) throws(EditorError) {
        guard let boundary = Self.parameter("boundary", in: contentType), !boundary.isEmpty, boundary.utf8.count <= 70
        else {
            throw .malformedMultipart(reason: "the content type has no valid boundary parameter")
        }
        let delimiter = Array("--\(boundary)".utf8)
        guard var cursor = Self.find(delimiter, in: body, from: 0) else {
            throw .malformedMultipart(reason: "the boundary '\(boundary)' never occurs in the body")
        }
        var parts: [Part] = []
        while true {
            cursor += delimiter.count
            // "--" after a delimiter closes the form.
            if body.count >= cursor + 2, body[cursor] == UInt8(ascii: "-"), body[cursor + 1] == UInt8(ascii: "-") {
                break
            }
            guard let lineEnd = Self.find(Self.crlf, in: body, from: cursor) else {
                throw .malformedMultipart(reason: "a boundary line does not end")
            }
            let headerStart = lineEnd + 2
            guard let headerEnd = Self.find(Self.crlf + Self.crlf, in: body, from: headerStart) else {
                throw .malformedMultipart(reason: "a part's headers do not end with an empty line")
            }
            let contentStart = headerEnd + 4
            guard let next = Self.find(Self.crlf + delimiter, in: body, from: headerEnd + 2) else {
                throw .malformedMultipart(reason: "a part is not followed by the closing boundary")
            }
            let headers = String(decoding: body[headerStart..<headerEnd], as: UTF8.self)
            parts.append(try Self.part(headers: headers, body: body[contentStart..<max(contentStart, next)]))
            cursor = next + 2
        }
        self.parts = parts
    }

    private static let crlf: [UInt8] = [13, 10]

    private static func part(headers: String, body: ArraySlice<UInt8>) throws(EditorError) -> Part {
        var name: String?, filename: String?, contentType: String?
        for line in headers.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let field = line[..<colon].trimmingSpaces.lowercased()
            let value = String(line[line.index(after: colon)...].trimmingSpaces)
            switch field {
            case "content-disposition":
                name = parameter("name", in: value)
                filename = parameter("filename", in: value)
            case "content-type":
                contentType = value
            default:
                break
            }
        }
        guard let name else { throw .malformedMultipart(reason: "a part has no Content-Disposition name") }
        return Part(name: name, filename: filename, contentType: contentType, body: body)
    }

    /// The value of `; key=value` or `; key="value"` in a header value, case-insensitive on the key.
    static func parameter(_ key: String, in header: String) -> String? {
        for item in header.split(separator: ";").dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == key.lowercased() else { continue }
            var value = pair[1].trimmingSpaces
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = value.dropFirst().dropLast()
            }
            return String(value)
        }
        return nil
    }

    /// The first index at or after `start` where `needle` occurs in `haystack`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        let last = haystack.count - needle.count
        var i = start
        return haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                while i <= last {
                    if h[i] == first {
                        var j = 1
                        while j < n.count, h[i + j] == n[j] { j += 1 }
                        if j == n.count { return i }
                    }
                    i += 1
                }
                return nil
            }
        }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }
}
