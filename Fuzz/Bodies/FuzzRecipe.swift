// libFuzzer target: recipe JSON → CropState on a picture whose size and EXIF orientation come from the input. A
// recipe either fails with GeometryError or gives a state whose crop lies inside the straightened picture and whose
// render plan maps every output corner inside the stored picture.
import CropEngine
import CropGeometry
import Foundation

/// One input of `FuzzRecipe`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzRecipe(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 5 else { return 0 }
    let width = 1 + Int(data[0]) * 37 + Int(data[1])
    let height = 1 + Int(data[2]) * 29 + Int(data[3])
    let orientation = Orientation.allCases[Int(data[4]) % 8]
    let json = Data(UnsafeBufferPointer(start: data + 5, count: size - 5))
    guard let recipe = try? Recipe(json: json),
        let state = try? CropState(
            recipe: recipe, sourceSize: PixelSize(validWidth: width, height: height), orientation: orientation)
    else { return 0 }
    guard state.cropIsInsidePicture() else { fatalError("crop \(state.crop) outside the picture: \(recipe)") }
    let plan = state.renderPlan()
    let tolerance = CropState.constraintTolerance + OutputSizing.tolerance + 1e-6
    for corner in Rect(size: plan.outputSize.size).corners {
        let p = plan.transform.apply(to: corner)
        guard p.x >= -tolerance, p.y >= -tolerance, p.x <= Double(width) + tolerance, p.y <= Double(height) + tolerance
        else { fatalError("output corner maps to \(p), outside \(width)×\(height): \(recipe)") }
    }
    // The state's own recipe reads back.
    guard (try? Recipe(json: state.recipe.json())) != nil else { fatalError("the state's recipe does not read back") }
    return 0
}
