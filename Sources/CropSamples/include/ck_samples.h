// CropSamples has no API: it carries the sample pictures as resources (see samples.c).
