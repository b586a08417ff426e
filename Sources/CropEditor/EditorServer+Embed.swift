import CropEngine
import CropKit
import Foundation
import Hummingbird

extension EditorServer {
    /// What Done tells a host page (`POST /api/sessions/{id}/done`): the session's recipe, the exact size it renders
    /// to (the host's output size when it set one), and the image URL ``EditorServer/Configuration/resultURL`` makes.
    struct DoneAnswer: Encodable {
        var recipe: Recipe
        var width: Int
        var height: Int
        var url: String?
    }

    /// Done in a host page: nothing is rendered here; the host gets the recipe and where to fetch its pixels.
    func finishSession(id: String) async throws -> Response {
        let (imageID, image, recipe) = try await sessionRecipe(id)
        let state = try CropState(
            recipe: recipe, sourceSize: image.info.storedSize, orientation: image.info.orientation)
        let size = configuration.constraints.outputSize ?? state.outputSize
        return try jsonResponse(
            DoneAnswer(
                recipe: recipe, width: size.width, height: size.height, url: configuration.resultURL?(imageID, recipe)))
    }
}
