// dlib 19.24's frontal face detector timed on a WIDTH x HEIGHT picture of noise (its cost does not depend on what the
// picture shows): the median of RUNS scans, in milliseconds, on one thread. Built and run by Benchmarks/faces-scan.sh
// beside CropKit's detector on a picture of the same size.
#include <dlib/image_processing/frontal_face_detector.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 4) { std::fprintf(stderr, "usage: dlib-time WIDTH HEIGHT RUNS\n"); return 2; }
    const long width = std::atol(argv[1]), height = std::atol(argv[2]);
    const int runs = std::atoi(argv[3]);
    dlib::array2d<dlib::rgb_pixel> image(height, width);
    std::mt19937 random(42);
    for (long r = 0; r < height; r++)
        for (long c = 0; c < width; c++)
            image[r][c] = dlib::rgb_pixel(random() & 255, random() & 255, random() & 255);
    dlib::frontal_face_detector detector = dlib::get_frontal_face_detector();
    std::vector<double> times;
    for (int i = 0; i <= runs; i++) {
        const auto start = std::chrono::steady_clock::now();
        std::vector<dlib::rect_detection> found;
        detector(image, found, -0.1);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (i > 0) times.push_back(ms);  // the first run warms up
    }
    std::sort(times.begin(), times.end());
    std::printf("%.1f\n", times[times.size() / 2]);
    return 0;
}
