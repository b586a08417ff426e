import CropKit
import Foundation
import Testing

@testable import CropEditor

@Suite struct EditedImageTests {
    @Test func previewKeepsTheStoredOrientationAndIsDownscaledOnce() throws {
        // Given a 160×240 JPEG stored sideways (orientation 6)
        let image = try EditedImage(
            name: "dir/\(quadrantsName)", bytes: try fixture(quadrantsName),
            previewMaximumSide: 120)
        // Then the preview is the stored pixels (portrait), its longer side 120
        #expect(image.name == quadrantsName)
        #expect(image.info.orientation.exifValue == 6)
        #expect(image.previewSize == PixelSize(validWidth: 80, height: 120))
        #expect(image.previewFormat == .webp)
        let preview = try Image(source: .data(image.preview), appliesOrientation: false)
        #expect(preview.size == image.previewSize)
        #expect(preview.metadata.orientation == .up)  // no EXIF turn left for the browser to apply
        // Stored quadrants: red top-left, green top-right, blue bottom-left, yellow bottom-right (JPEG ± 24)
        let probes: [(Int, Int, [Int])] = [(20, 30, red), (60, 30, green), (20, 90, blue), (60, 90, yellow)]
        for (x, y, colour) in probes {
            #expect(close(preview.pixels.pixel(x: x, y: y), colour, tolerance: 24), "preview at \(x),\(y)")
        }
    }

    @Test func pngPreviewKeepsAlpha() throws {
        let image = try EditedImage(name: halvesName, bytes: try fixture(halvesName), previewMaximumSide: 60)
        #expect(image.previewFormat == .webp)  // lossless for a PNG source
        #expect(image.previewContentType == "image/webp")
        #expect(image.previewSize == PixelSize(validWidth: 60, height: 40))
        let pixels = try Image(source: .data(image.preview)).pixels
        #expect(close(pixels.pixel(x: 10, y: 20), [240, 140, 20, 255], tolerance: 2))
        #expect(close(pixels.pixel(x: 50, y: 20), [20, 160, 160, 128], tolerance: 2))
    }

    @Test(
        "the preview's steps undo every EXIF orientation: the pipeline then renders the stored pixels",
        arguments: Orientation.allCases)
    func storedOrientationUndoesEveryOrientation(_ orientation: Orientation) throws {
        var info = try ImageSource.data(try fixture(quadrantsName)).info()
        info.orientation = orientation
        // The steps were made for `orientation`: apply them to a state of a picture stored with it.
        var check = try CropState(sourceSize: info.storedSize, orientation: orientation)
        for step in ImageOperation.undoing(info.orientation) {
            switch step {
            case .turn(let direction): check.rotate(direction, aspectPolicy: .followPicture)
            case .flip(let axis): check.flip(axis)
            default: Issue.record("unexpected step \(step)")
            }
        }
        #expect(check.orientation == .up)
        #expect(check.outputSize == info.storedSize)
    }

    @Test func notAnImageIsRefusedWithItsReason() {
        #expect(throws: CropKitError.self) {
            try EditedImage(name: "x.jpg", bytes: Array("hello".utf8))
        }
    }

    @Test func pixelLimitApplies() throws {
        let tight = ImagePipeline(limits: PixelLimits(maxPixels: 1000))
        #expect(throws: CropKitError.self) {
            try EditedImage(name: quadrantsName, bytes: try fixture(quadrantsName), pipeline: tight)
        }
    }
}

@Suite struct MultipartFormTests {
    private func body(_ parts: [(String, String?, String)], boundary: String = "XyZ") -> [UInt8] {
        var text = ""
        for (name, filename, content) in parts {
            text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
            if let filename { text += "; filename=\"\(filename)\"" }
            text += "\r\nContent-Type: application/octet-stream\r\n\r\n\(content)\r\n"
        }
        return Array((text + "--\(boundary)--\r\n").utf8)
    }

    @Test func splitsPartsWithNamesFileNamesAndBytes() throws {
        let form = try MultipartForm(
            body: body([("recipe", nil, "{\"version\":1}"), ("image", "a.jpg", "\r\n--not-the-boundary\r\n")]),
            contentType: "multipart/form-data; boundary=XyZ")
        #expect(form.parts.map(\.name) == ["recipe", "image"])
        #expect(String(decoding: try #require(form.part(named: "recipe")).body, as: UTF8.self) == "{\"version\":1}")
        let image = try #require(form.part(named: "image"))
        #expect(image.filename == "a.jpg")
        #expect(image.contentType == "application/octet-stream")
        #expect(String(decoding: image.body, as: UTF8.self) == "\r\n--not-the-boundary\r\n")
    }

    @Test func quotedBoundaryAndEmptyPart() throws {
        let form = try MultipartForm(
            body: body([("image", nil, "")], boundary: "a b"),
            contentType: "multipart/form-data; boundary=\"a b\"")
        #expect(try #require(form.part(named: "image")).body.isEmpty)
    }

    @Test(arguments: [
        ("multipart/form-data", "--XyZ\r\n\r\n"),  // no boundary parameter
        ("multipart/form-data; boundary=Q", "--XyZ\r\n"),  // boundary never occurs
        ("multipart/form-data; boundary=XyZ", "--XyZ\r\nContent-Disposition: form-data; name=\"a\""),  // no blank line
        // no end
        ("multipart/form-data; boundary=XyZ", "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nabc"),
        ("multipart/form-data; boundary=XyZ", "--XyZ\r\nContent-Type: text/plain\r\n\r\nabc\r\n--XyZ--"),  // no name
    ])
    func malformedBodiesAreRefused(_ contentType: String, _ text: String) {
        #expect(throws: EditorError.self) { try MultipartForm(body: Array(text.utf8), contentType: contentType) }
    }
}

@Suite struct RenderQueueTests {
    @Test func refusesBeyondCapacityAndHandsSlotsOverInOrder() async throws {
        let queue = RenderQueue(concurrency: 1, capacity: 1)
        try await queue.acquire()  // running 1
        let waiter = Task { try await queue.acquire() }  // waits (capacity 1)
        while await queue.waitingCount < 1 { await Task.yield() }
        await #expect(throws: EditorError.busy(queued: 1)) { try await queue.acquire() }
        #expect(await queue.refused == 1)
        await queue.release()  // hands the slot to the waiter
        try await waiter.value
        #expect(await queue.runningCount == 1)
        await queue.release()
        #expect(await queue.runningCount == 0)
        #expect(await queue.peakRunning == 1)
    }

    @Test func runsUpToItsConcurrencyAtOnce() async throws {
        let queue = RenderQueue(concurrency: 3, capacity: 100)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await queue.withSlot {
                        try await queue.perform { usleep(20_000) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await queue.peakRunning == 3)
        #expect(await queue.runningCount == 0)
    }
}
