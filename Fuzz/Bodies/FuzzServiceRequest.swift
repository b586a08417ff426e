// libFuzzer target: what `cropkit serve` reads from a request before any pixel: the target (path and query) and the
// Accept header, as the input's first and second lines. The signature is split off and checked (a URL the signer
// made always verifies, and a split target puts itself back together), the path resolves inside the served folder
// or not at all, the query parses to a pipeline that always ends in a size step or fails with a typed error, and
// Accept picks a writable format. The second line is also read as an origin URL (`/fetch?url=…`, a redirect's
// Location): one that parses prints back to a URL that parses to the same, has no dot segment, and is allowed by
// the allowlist only under its prefix. The query is also read as a signed editor URL's options (`EditQuery`), and the
// target as a hosted editor's path.
import CropEditor
import CropKit
import CropServer
import Foundation

private let signer = try! URLSigner(hexKeys: "000102030405060708090a0b0c0d0e0f")
private let allowlist = try! OriginAllowlist(["https://cdn.example.com/photos/", "http://127.0.0.1:8080/a"])
private let base = OriginURL("https://cdn.example.com/photos/x/y.jpg")!
private let mark = try! Watermark(
    image: try! PixelBuffer(width: 2, height: 1, layout: .rgba, samples: [UInt8](repeating: 200, count: 8)))
private let folder: SourceFolder = {
    let path = NSTemporaryDirectory() + "fuzz-serve-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path + "/sub", withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: path + "/a.jpg", contents: Data([0xFF, 0xD8]))
    FileManager.default.createFile(atPath: path + "/sub/b.png", contents: Data([0x89]))
    return try! SourceFolder(root: path)
}()

/// One input of `FuzzServiceRequest`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzServiceRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let target = String(lines[0]), accept = lines.count > 1 ? String(lines[1]) : nil

    if let (unsigned, signature) = URLSigner.split(target) {
        guard target == unsigned + "&sig=" + signature || target == unsigned + "?sig=" + signature else {
            fatalError("split \(target) into \(unsigned) and \(signature)")
        }
    }
    guard signer.verify(signer.signed(target)) else { fatalError("a signed URL does not verify: \(target)") }
    _ = signer.verify(target)

    let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
    if let source = try? folder.resolve(target[..<pathEnd]) {
        guard source.path.hasPrefix(folder.root + "/") else { fatalError("\(target) resolved outside: \(source.path)") }
    }
    let query = pathEnd < target.endIndex ? String(target[target.index(after: pathEnd)...]) : ""
    do {
        let parsed = try ImageQuery(
            query: query, presets: ["p": "width=10&format=auto"], maximumOutputSide: 4096, watermarks: ["logo": mark])
        // A size step ends the pipeline, or comes just before round's corners and the mark.
        var steps = parsed.operations
        if case .watermark? = steps.last { steps.removeLast() }
        if case .roundCorners? = steps.last { steps.removeLast() }
        guard let last = steps.last, last.group == .size else {
            fatalError("\(query) parsed to \(parsed.operations) with no size step")
        }
        // Components only with a BlurHash placeholder, and only counts the encoder takes.
        if let counts = parsed.components {
            guard parsed.placeholder == .blurhash, BlurHash.componentRange.contains(counts.width),
                BlurHash.componentRange.contains(counts.height)
            else {
                fatalError("\(query) parsed to components \(counts) with \(String(describing: parsed.placeholder))")
            }
        }
    } catch {
        _ = error.description  // typed: EditorError
    }
    // The same query as a signed editor URL's options: constraints that hold, or a typed error; the done URL's
    // output part carries only format and quality.
    do {
        let edit = try EditQuery(query: query)
        guard edit.constraints.minimumCropSize >= 1 else {
            fatalError("\(query): minimum \(edit.constraints.minimumCropSize)")
        }
        guard !edit.outputQuery.contains("recipe"), !edit.outputQuery.contains("size") else {
            fatalError("\(query): output query \(edit.outputQuery)")
        }
    } catch {
        _ = error.description  // typed: EditorError
    }
    // An editor path: a token (an instance name, a dash and hex digits, or hex digits alone: only a-z, 0-9 and
    // dashes, at most 128) and the path after it, or a typed refusal.
    if let (token, _) = try? ImageService.editorPath(target) {
        guard !token.isEmpty, token.count <= 128,
            token.allSatisfy({ $0 == "-" || ($0.isASCII && ($0.isLowercase || $0.isNumber)) })
        else { fatalError("\(target): token \(token)") }
    }
    if let accept {
        for candidate in [OriginURL(accept), base.resolving(accept)] {
            guard let url = candidate else { continue }
            guard OriginURL(url.description) == url else { fatalError("\(accept) does not round-trip: \(url)") }
            let segments = url.path.split(separator: "/").map { $0.removingPercentEncoding ?? "" }
            guard !segments.contains(".."), !segments.contains(".") else { fatalError("dot segment in \(url)") }
            if allowlist.allows(url) {
                let under =
                    (url.host == "cdn.example.com" && url.path.hasPrefix("/photos/"))
                    || (url.host == "127.0.0.1" && (url.path == "/a" || url.path.hasPrefix("/a/")))
                guard under else { fatalError("\(url) allowed outside its prefix") }
            }
        }
    }
    for alpha in [false, true] {
        guard FormatNegotiation.format(accept: accept, hasAlpha: alpha).isWritable else {
            fatalError("unwritable format")
        }
    }
    return 0
}
