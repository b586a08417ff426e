// A small C layer over libheif for CropCodecs, loaded at run time.
//
// libheif is opened with dlopen the first time a HEIF is read, not linked: the build needs no libheif headers or
// development package, only the runtime library the system already has (Debian/Ubuntu's libheif1, soname
// libheif.so.1; Homebrew's libheif.1.dylib on macOS). libheif's C API is opaque handles and functions; the only
// structure crossing it is `struct heif_error`, declared in shim.c as libheif 1.x defines it.
//
// The shim has libheif decode the stored pixels without the transform properties (irot, imir, clap): CropKit reads
// those itself and applies them once (libheif 1.15 applies them to HEIC but not to AVIF). The EXIF orientation inside
// a HEIF is informative only.

#pragma once
#include "ck_status.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  CK_HEIF_OK = CK_OK,
  /// libheif rejected the file (a broken box, an undecodable bitstream); the message is libheif's.
  CK_HEIF_ERR_CORRUPT = CK_ERR_CORRUPT,
  /// The data ended before the file was complete.
  CK_HEIF_ERR_TRUNCATED = CK_ERR_TRUNCATED,
  /// A feature libheif does not decode here (a codec without a plugin, an unsupported colour layout).
  CK_HEIF_ERR_UNSUPPORTED = CK_ERR_UNSUPPORTED,
  /// libheif could not allocate memory.
  CK_HEIF_ERR_MEMORY = CK_ERR_MEMORY,
  /// The runtime library is missing or lacks a symbol; the message says which.
  CK_HEIF_ERR_UNAVAILABLE = CK_ERR_UNAVAILABLE,
};

#define CK_HEIF_MESSAGE_LENGTH 200

/// An open HEIF file: libheif's context and its primary image.
typedef struct ck_heif ck_heif;

/// What the primary image's handle says, before decoding.
typedef struct {
  /// The size once the transform properties are applied.
  int width;
  int height;
  /// The stored size, before the transform properties (what ck_heif_decode gives).
  int stored_width;
  int stored_height;
  int has_alpha;
  /// Bits per luma sample: 8, 10 or 12 (-1 when unknown).
  int bits;
  /// 0 none, else the four-character code of the colour box ('nclx', 'rICC' or 'prof'), big-endian.
  uint32_t profile_type;
  /// For an 'nclx' colour box: its ITU-T H.273 code points and the chromaticities libheif derives from the primaries
  /// (red x, y, green x, y, blue x, y, white x, y); zeros otherwise.
  int nclx_primaries, nclx_transfer, nclx_matrix;
  double nclx_chromaticities[8];
  /// Bytes of the ICC profile (0 when there is none).
  size_t icc_size;
  /// Bytes of the first EXIF block after its TIFF-header offset (0 when there is none).
  size_t exif_size;
  /// Top-level images in the file (the primary one is decoded).
  int image_count;
} ck_heif_info;

/// Loads libheif once per process (thread-safe).
int ck_heif_load(char *message);

/// The libheif version string, or "" before a successful load.
const char *ck_heif_version(void);

/// Reads the file's boxes and opens its primary image. `data` must stay valid until ck_heif_close.
int ck_heif_open(const uint8_t *data, size_t size, ck_heif **heif, ck_heif_info *info, char *message);

/// Copies the ICC profile (info.icc_size bytes) and the EXIF block (info.exif_size bytes, bare TIFF).
int ck_heif_copy_metadata(ck_heif *heif, uint8_t *icc, uint8_t *exif, char *message);

/// Decodes the primary image's stored pixels (tiles and alpha plane included, transform properties not applied),
/// the window `left`, `top`, `width` × `height` of them (the clean aperture; a width or height of 0: all
/// stored_width × stored_height) into `output`: 8-bit RGB(A) when `wide` is
/// 0, else 16-bit native-endian RGB(A) with samples scaled to the full 0…65535 range; `stride` bytes per row.
int ck_heif_decode(ck_heif *heif, int alpha, int wide, int left, int top, int width, int height, uint8_t *output,
                   size_t stride, char *message);

/// Decodes the window `left`, `top`, `width` × `height` of the primary image's stored pixels (0 × 0: all of them)
/// shrunk by `factor` (2, 4 or 8) into `output`, 8-bit RGB, ceil(width / factor) × ceil(height / factor), `stride` bytes per row: each pixel the mean of the
/// factor × factor block it covers (clipped at the edges), taken straight from libheif's picture, which is never
/// copied whole. For pictures without alpha.
int ck_heif_decode_shrunk(ck_heif *heif, int factor, int left, int top, int width, int height, uint8_t *output,
                          size_t stride, char *message);
void ck_heif_close(ck_heif *heif);

/// Encoding parameters.
typedef struct {
  /// 0: HEIC (HEVC), 1: AVIF (AV1).
  int av1;
  /// 0…100 on libheif's scale.
  int quality;
  int lossless;
  /// AV1 encoder speed 0 (slowest, smallest) … 9, or -1 for the encoder's default; HEVC ignores it.
  int speed;
  /// 8 or 10 bits per sample in the file.
  int bit_depth;
  /// Non-zero: the rows carry alpha (RGBA), else RGB.
  int alpha;
  /// Non-zero: the rows are 16-bit native-endian samples, else 8-bit.
  int wide;
} ck_heif_encode_params;

/// Encodes `width × height` upright rows (`stride` bytes apart) as a HEIF file with one primary image and no
/// transform properties, its ICC profile (`icc_size` bytes, or none) and its EXIF block (bare TIFF bytes, or none).
/// On success `*output` holds `*output_size` bytes, to release with ck_heif_free_output. CK_HEIF_ERR_UNSUPPORTED when
/// this libheif has no encoder for the format.
int ck_heif_encode(const uint8_t *pixels, int width, int height, size_t stride, const ck_heif_encode_params *params,
                   const uint8_t *icc, size_t icc_size, const uint8_t *exif, size_t exif_size, uint8_t **output,
                   size_t *output_size, char *message);

void ck_heif_free_output(uint8_t *output);

#ifdef __cplusplus
}
#endif
