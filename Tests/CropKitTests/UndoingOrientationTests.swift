import CropTestSupport
import Testing

@testable import CropKit

@Suite("Undoing the EXIF orientation")
struct UndoingOrientationTests {
    @Test(
        "ImageOperation.undoing(orientation) renders the stored pixels, for every EXIF orientation of the sample set",
        arguments: 1...8)
    func storedPixels(_ value: Int) throws {
        let source = Fixtures.landscape(value)
        let orientation = try source.info().orientation
        #expect(orientation.exifValue == value)
        let stored = try Image(source: source, appliesOrientation: false).pixels
        let rendered = try ImagePipeline().run(source, ImageOperation.undoing(orientation)).pixels
        #expect(rendered == stored)
    }
}
