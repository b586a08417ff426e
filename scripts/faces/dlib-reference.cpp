// The faces dlib's frontal face detector finds in a PNG, enlarged `scale` times first by dlib's bilinear
// resize_image: the reference HOGFaceDetectorTests compares CropKit's detector with. Prints one face per line,
// "left top right bottom confidence filter" (dlib's inclusive rectangle). Built by scripts/faces/make-references.
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_io.h>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc < 3) { std::fprintf(stderr, "usage: dlib-reference FILE.png SCALE\n"); return 2; }
    dlib::array2d<dlib::rgb_pixel> image, scaled;
    dlib::load_png(image, argv[1]);
    const double scale = std::atof(argv[2]);
    scaled.set_size((long)(image.nr() * scale + 0.5), (long)(image.nc() * scale + 0.5));
    dlib::resize_image(image, scaled);
    dlib::frontal_face_detector detector = dlib::get_frontal_face_detector();
    std::vector<dlib::rect_detection> found;
    detector(scaled, found);
    for (const auto& d : found)
        std::printf("%ld %ld %ld %ld %.6f %lu\n", d.rect.left(), d.rect.top(), d.rect.right(), d.rect.bottom(),
            d.detection_confidence, d.weight_index);
    return 0;
}
