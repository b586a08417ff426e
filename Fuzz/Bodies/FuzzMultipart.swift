import CropEditor
// libFuzzer target: the render API's multipart/form-data parser. The first line of the input is the Content-Type
// header, the rest the body. Parts found must lie within the body.
import Foundation

/// One input of `FuzzMultipart`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzMultipart(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.firstIndex(of: 10) ?? bytes.count
    let contentType = String(decoding: bytes[..<split], as: UTF8.self)
    let body = split < bytes.count ? Array(bytes[(split + 1)...]) : []
    guard let form = try? MultipartForm(body: body, contentType: contentType) else { return 0 }
    for part in form.parts {
        guard part.body.startIndex >= 0, part.body.endIndex <= body.count else { fatalError("part outside the body") }
        _ = form.part(named: part.name)
    }
    return 0
}
