// A small C layer over libtiff for CropCodecs, loaded at run time.
//
// libtiff is opened with dlopen the first time a TIFF is read, not linked: the build needs no libtiff headers or
// development package, only the runtime library the system already has (Debian/Ubuntu's libtiff6, soname
// libtiff.so.6, libtiff 4.5 or later; Homebrew's libtiff.6.dylib on macOS). Files are read from memory through
// libtiff's client callbacks, with per-file error handlers and a cap on any single allocation (libtiff 4.5's
// TIFFOpenOptions), so nothing is printed and a hostile strip size cannot make libtiff allocate gigabytes.
//
// Two ways to the pixels:
// - direct: 8 or 16-bit unsigned gray or RGB, with an alpha extra sample or not, contiguous or planar, in strips or
//   tiles, any compression libtiff has (JPEG-in-TIFF YCbCr is asked for as RGB): samples are copied as stored (16-bit
//   in native byte order), MinIsWhite is inverted and associated alpha is unpremultiplied; gray and RGB samples of
//   other formats are converted on the way (unsigned of 1–16 and 32 bits scaled to 8 or 16, signed offset, floats from
//   0…1 or SMinSampleValue…SMaxSampleValue, clamped);
// - through libtiff's RGBA reader (8-bit): palettes, 1/2/4-bit, subsampled YCbCr, CIELab, CMYK without an ICC profile
//   (naive), and anything else that reader takes.
// 8-bit CMYK with an ICC profile is handed over as stored (4 channels, 0 = no ink) for CropCodecs to convert.
// The picture is read in stored order; the Orientation tag is reported, never applied.
//
// Every entry point returns a status (CK_TIFF_OK or a CK_TIFF_ERR_* value, numbered as the other shims' codes) and
// never aborts.

#pragma once
#include "ck_status.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  CK_TIFF_OK = CK_OK,
  /// libtiff rejected the data (broken tags, strips, compressed data …).
  CK_TIFF_ERR_CORRUPT = CK_ERR_CORRUPT,
  /// The data ended before the picture was complete.
  CK_TIFF_ERR_TRUNCATED = CK_ERR_TRUNCATED,
  /// A layout CropKit does not decode (an unknown sample format or photometric, 32-bit CMYK …).
  CK_TIFF_ERR_UNSUPPORTED = CK_ERR_UNSUPPORTED,
  /// Out of memory, or an allocation over the cap.
  CK_TIFF_ERR_MEMORY = CK_ERR_MEMORY,
  /// The runtime library is missing or lacks a symbol; the message says which.
  CK_TIFF_ERR_UNAVAILABLE = CK_ERR_UNAVAILABLE,
};

#define CK_TIFF_MESSAGE_LENGTH 200

/// How ck_tiff_decode produces the pixels.
enum {
  /// Samples as stored: `channels` of `bits`.
  CK_TIFF_DIRECT = 0,
  /// libtiff's RGBA reader: 8-bit RGB, or RGBA when `alpha`.
  CK_TIFF_RGBA_READER = 1,
  /// 8-bit CMYK as stored (0 = no ink), 4 channels, for a colour-managed conversion.
  CK_TIFF_CMYK = 2,
  /// An 8-bit palette picture with an alpha sample: 8-bit RGBA, the colours looked up in the colour map.
  CK_TIFF_PALETTE = 3,
  /// CIE L*a*b* (D50), 8- or 16-bit, 3 channels in Little CMS's encoding (CK_LCMS_LAB8/16), for a colour-managed
  /// conversion.
  CK_TIFF_LAB = 4,
};

/// Loads libtiff once per process (thread-safe). CK_TIFF_OK, or CK_TIFF_ERR_UNAVAILABLE with the reason in `message`
/// (NUL-terminated, at most CK_TIFF_MESSAGE_LENGTH bytes).
int ck_tiff_load(char *message);

typedef struct ck_tiff ck_tiff;

/// What the first page's tags say, and how it will be decoded.
typedef struct {
  uint32_t width, height;
  int bits_per_sample, samples_per_pixel, sample_format, photometric, planar_separate, compression;
  /// Non-zero when the Photometric tag is missing (then guessed from the samples).
  int photometric_guessed;
  int tiled;
  /// 1…8; 0 when the tag holds something else.
  int orientation;
  /// Pages (image file directories) in the file.
  int page_count;
  /// One of CK_TIFF_DIRECT, CK_TIFF_RGBA_READER, CK_TIFF_CMYK, CK_TIFF_PALETTE, CK_TIFF_LAB.
  int mode;
  /// Channels and bits per channel ck_tiff_decode produces.
  int channels, bits;
  /// Whether the output has an alpha channel; whether the file's alpha is associated (premultiplied).
  int alpha, alpha_associated;
  /// The ICC profile, valid while the handle is open, or NULL.
  const uint8_t *icc;
  uint32_t icc_size;
  /// libtiff's warnings while reading the tags, and the first of them.
  int warning_count;
  char first_warning[CK_TIFF_MESSAGE_LENGTH];
} ck_tiff_info;

/// Opens TIFF data (copied; the caller's bytes may go) and reads its first page's tags. No single allocation of
/// libtiff's may exceed `max_allocation` bytes. 8-bit CMYK is handed over as stored (CK_TIFF_CMYK) when the file has
/// an ICC profile or `cmyk_profile_available` says the caller has a default one. Release the handle with
/// ck_tiff_close, also after a failure.
int ck_tiff_open(const uint8_t *data, size_t size, size_t max_allocation, int cmyk_profile_available, ck_tiff **tiff,
                 ck_tiff_info *info, char *message);

/// Decodes the first page into `output` (`stride` bytes per row, width × height of the info), as the info's mode,
/// channels and bits say.
int ck_tiff_decode(ck_tiff *tiff, uint8_t *output, size_t stride, char *message);

void ck_tiff_close(ck_tiff *tiff);

#ifdef __cplusplus
}
#endif
