/// Every fuzz target's body by name: what `CropKitFuzz` runs (`CROPKIT_FUZZ_TARGET=NAME`) and what `FuzzReplayTests`
/// feeds each target's seed corpus (`Fuzz/Corpus/NAME`) to.
public let fuzzTargets: [String: @Sendable (UnsafePointer<UInt8>, Int) -> Int32] = [
    "FuzzBMP": fuzzBMP,
    "FuzzEXIF": fuzzEXIF,
    "FuzzEditorEvents": fuzzEditorEvents,
    "FuzzFaces": fuzzFaces,
    "FuzzFormat": fuzzFormat,
    "FuzzGIF": fuzzGIF,
    "FuzzHEIF": fuzzHEIF,
    "FuzzICC": fuzzICC,
    "FuzzJP2": fuzzJP2,
    "FuzzJPEG": fuzzJPEG,
    "FuzzJXL": fuzzJXL,
    "FuzzMultipart": fuzzMultipart,
    "FuzzNumericEvents": fuzzNumericEvents,
    "FuzzPNG": fuzzPNG,
    "FuzzPipeline": fuzzPipeline,
    "FuzzRecipe": fuzzRecipe,
    "FuzzServiceRequest": fuzzServiceRequest,
    "FuzzStraighten": fuzzStraighten,
    "FuzzTIFF": fuzzTIFF,
    "FuzzWebP": fuzzWebP,
]
