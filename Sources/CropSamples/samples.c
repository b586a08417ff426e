// CropSamples holds the sample pictures `cropkit demo` runs on (Samples/, copied by SwiftPM into the resource bundle
// CropKit_CropSamples.resources beside the executables). It is a C target because SwiftPM generates, for a Swift
// target with resources, an accessor that imports Foundation, which would make every `cropkit` start load Foundation,
// its internationalisation and ICU (3-4 ms); a C target's bundle comes without one. SwiftPM needs one source file.
typedef int ck_samples_bundle_only;
