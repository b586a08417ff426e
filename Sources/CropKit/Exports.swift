// `import CropKit` gives the whole toolkit: geometry, pixels, codecs and the pipelines defined here.
@_exported import CropCodecs
@_exported import CropGeometry
@_exported import CropPixels
@_exported import CropAnalysis
@_exported import CropEngine
