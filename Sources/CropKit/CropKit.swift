@_exported import CropGeometry
@_exported import CropPixels
@_exported import CropCodecs
