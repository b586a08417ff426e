// `import CropKit` shows what an app needs to crop, turn, straighten, resize and encode a picture: the pipeline
// (declared in this module) and, from the floors below, the types its calls take and return. Each is re-exported by
// name, so a type added to a lower floor stays out of an app's namespace until it is listed here.
//
// Left out on purpose (import their module to use them): the engine's render plan and the picture a straighten
// leaves (`RenderPlan`: CropEngine), the interaction models of a native crop UI (CropInteraction, a product of its
// own), and the codecs' decoders and encoders (`package`, for the faces and tests). `scripts/public-surface`
// counts what this file shows.

// The primitives, whole: points, sizes and rectangles are every floor's vocabulary, and their arithmetic operators
// (`Point + Point`, `Size * Double`) reach an app only through a whole-module import.
@_exported import CropGeometry

@_exported import struct CropAnalysis.Face
@_exported import protocol CropAnalysis.FaceDetecting
// Analysis: what a smart fill or an automatic straighten measures.
@_exported import enum CropAnalysis.Gravity
@_exported import struct CropAnalysis.HOGFaceDetector
@_exported import struct CropAnalysis.InterestMap
@_exported import enum CropAnalysis.ResizeMode
@_exported import enum CropAnalysis.StraightenDetector
@_exported import struct CropAnalysis.StraightenEstimate
@_exported import enum CropCodecs.ChromaSubsampling
@_exported import enum CropCodecs.CodecError
@_exported import struct CropCodecs.CodecWarning
@_exported import struct CropCodecs.FontFace
// Codecs: what a file is and what reading it found.
@_exported import enum CropCodecs.ImageFormat
@_exported import struct CropCodecs.ImageInfo
@_exported import struct CropCodecs.ImageMetadata
@_exported import enum CropCodecs.JPEGEarlyStop
@_exported import enum CropCodecs.JPEGScale
@_exported import struct CropCodecs.TextMetrics
@_exported import enum CropEngine.CropHandle
// The crop engine: a crop kept as a state and a recipe.
@_exported import struct CropEngine.CropState
@_exported import enum CropEngine.FlipAxis
@_exported import enum CropEngine.OutputSizing
@_exported import enum CropEngine.QuarterTurn
@_exported import struct CropEngine.Recipe
@_exported import enum CropEngine.RotationAspectPolicy
@_exported import enum CropPixels.BitDepth
@_exported import enum CropPixels.BlurHash
@_exported import enum CropPixels.ChannelLayout
// Pixels.
@_exported import struct CropPixels.PixelBuffer
@_exported import struct CropPixels.PixelColor
@_exported import enum CropPixels.PixelError
@_exported import struct CropPixels.PixelFormat
@_exported import struct CropPixels.PixelLimits
@_exported import struct CropPixels.ResampleOptions
@_exported import enum CropPixels.ResamplingFilter
@_exported import enum CropPixels.ThumbHash
