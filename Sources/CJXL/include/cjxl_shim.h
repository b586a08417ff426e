// A small C layer over libjxl (JPEG XL) for CropCodecs, loaded at run time: decoding, encoding, and the lossless
// recompression of JPEG files.
//
// libjxl and libjxl_threads are opened with dlopen the first time a JPEG XL file is read, not linked: the build needs
// no libjxl headers or development package, only the runtime library (Debian 12's libjxl0.7; later releases' 0.8 to
// 0.11, whose three colour-profile calls lost an unused argument, are spoken too). Every allocation libjxl makes goes
// through the shim's memory manager, which refuses any that would take its total past a cap, so a hostile file cannot
// make libjxl allocate more than the caller allows.
//
// The picture is decoded as stored: the orientation in the codestream is reported, never applied (CropKit applies it
// once, like an EXIF orientation). The first frame is decoded (an animation's, composited), or an animation's frames one
// at a time; premultiplied alpha is unpremultiplied. Pixels come out as 8 or 16-bit samples, 1 to 4 channels, in the colour space the data's ICC
// profile describes: the original's for lossless files and for lossy (XYB) files whose colour space libjxl can name,
// sRGB for a lossy file made from an arbitrary ICC profile (which libjxl 0.7 would otherwise give as linear sRGB).
//
// Every entry point returns a status (CK_JXL_OK or a CK_JXL_ERR_* value, numbered as the other shims' codes) and
// never aborts.

#pragma once
#include "ck_status.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  CK_JXL_OK = CK_OK,
  /// libjxl rejected the data.
  CK_JXL_ERR_CORRUPT = CK_ERR_CORRUPT,
  /// The data ended before the picture was complete.
  CK_JXL_ERR_TRUNCATED = CK_ERR_TRUNCATED,
  /// A picture libjxl cannot take (a JPEG it cannot recompress losslessly).
  CK_JXL_ERR_UNSUPPORTED = CK_ERR_UNSUPPORTED,
  /// Out of memory, or an allocation past the cap.
  CK_JXL_ERR_MEMORY = CK_ERR_MEMORY,
  /// Calls made out of order, or a buffer of the wrong size.
  CK_JXL_ERR_USAGE = CK_ERR_USAGE,
  /// The runtime library is missing, lacks a symbol or is a release the shim does not speak; the message says which.
  CK_JXL_ERR_UNAVAILABLE = CK_ERR_UNAVAILABLE,
};

#define CK_JXL_MESSAGE_LENGTH 200

/// Loads libjxl and libjxl_threads once per process (thread-safe). CK_JXL_OK, or CK_JXL_ERR_UNAVAILABLE with the
/// reason in `message` (NUL-terminated, at most CK_JXL_MESSAGE_LENGTH bytes).
int ck_jxl_load(char *message);

typedef struct ck_jxl ck_jxl;

/// What the codestream's header says.
typedef struct {
  /// The stored size (before the orientation is applied).
  uint32_t width, height;
  /// Bits per colour sample (8 to 16 for integers; 32 with exponent bits for floats) and exponent bits (0: integers).
  uint32_t bits_per_sample, exponent_bits;
  /// 1 (gray) or 3 (colour).
  uint32_t color_channels;
  /// Bits of the alpha channel (0: none); whether it is premultiplied in the file.
  uint32_t alpha_bits;
  int alpha_premultiplied;
  /// Extra channels besides alpha (depth, spot colours …), which are not decoded.
  uint32_t other_extra_channels;
  /// 1…8, as EXIF counts.
  int orientation;
  /// Whether the file is an animation.
  int animation;
  /// Whether the pixels are coded in the original colour space (lossless, or lossy without XYB): 0 for XYB.
  int uses_original_profile;
  /// Whether the file is in the ISO BMFF container, and whether it carries a JPEG reconstruction (jbrd) box.
  int container, jpeg_reconstruction;
  /// The ICC profile of the decoded pixels, valid while the handle is open, or NULL.
  const uint8_t *icc;
  uint32_t icc_size;
  /// The EXIF box's TIFF data (its 4-byte offset skipped), valid while the handle is open, or NULL.
  const uint8_t *exif;
  uint32_t exif_size;
  /// Whether the profile of the pixels is not the original's (a lossy file from an arbitrary ICC profile, given in
  /// sRGB).
  int profile_converted;
  /// Whether the file names sRGB as its colour space (then libjxl made the ICC profile above; the file has none).
  int names_srgb;
} ck_jxl_info;

/// Opens JPEG XL data (a bare codestream or the container; copied, so the caller's bytes may go) and reads its header,
/// colour profile and EXIF box. libjxl's allocations may not total more than `max_memory` bytes, for this handle's
/// whole life. Release the handle with ck_jxl_close, also after a failure.
int ck_jxl_open(const uint8_t *data, size_t size, size_t max_memory, ck_jxl **jxl, ck_jxl_info *info, char *message);

/// Decodes the first frame into `output` (`stride` bytes per row, the info's width × height), as `channels` (1 to 4:
/// gray, gray and alpha, RGB, RGBA) samples of 8 bits, or of 16 bits in native byte order when `sixteen`, on up to
/// `threads` threads (0 or 1: the calling thread only).
int ck_jxl_decode(ck_jxl *jxl, uint8_t *output, size_t stride, int channels, int sixteen, int threads, char *message);

/// An animation's frames as a browser shows them, without decoding their pixels: how many, how long one play lasts
/// in seconds, and how many times it plays (0: for ever). Call after ck_jxl_open, before ck_jxl_frames_start.
int ck_jxl_count_frames(ck_jxl *jxl, uint32_t *frames, double *seconds, uint32_t *loops, char *message);

/// Starts reading an animation's frames one at a time (after ck_jxl_open), on up to `threads` threads.
int ck_jxl_frames_start(ck_jxl *jxl, int threads, char *message);

/// Decodes the next frame as shown (libjxl blends each frame onto the canvas: the whole picture, 8-bit RGBA,
/// unpremultiplied, in stored orientation and the colour space ck_jxl_decode gives) into `output` (`stride` bytes a
/// row, the info's width × height), with its delay in milliseconds; `*decoded` is 0 after the last frame.
int ck_jxl_frames_next(ck_jxl *jxl, uint8_t *output, size_t stride, int32_t *delay, int32_t *decoded, char *message);

void ck_jxl_close(ck_jxl *jxl);

/// How ck_jxl_encode compresses.
typedef struct {
  /// Lossy: the butteraugli distance (0.1 = visually lossless … 25; cjxl's quality 90 is distance 1). Ignored when
  /// `lossless`.
  float distance;
  /// Every sample kept (modular mode, the original colour space).
  int lossless;
  /// 1 (fastest) … 9 (smallest), libjxl's effort.
  int effort;
  /// Threads to encode on (0 or 1: the calling thread only).
  int threads;
  /// The orientation to record in the codestream, 1…8 as EXIF counts (the pixels are stored as given).
  int orientation;
} ck_jxl_encode_params;

/// Encodes `height` rows of `width` pixels (`stride` bytes apart; `channels` 1 to 4: gray, gray and alpha, RGB, RGBA;
/// 8-bit samples, or 16-bit in native byte order when `sixteen`) as a JPEG XL file, tagged with the ICC profile when
/// given (else sRGB; a lossy picture with a profile is coded in the profile's own space rather than XYB, so the profile
/// and the colours come back exactly from any decoder, libjxl 0.7's included, which has no colour management to turn
/// XYB back into an arbitrary profile), with the EXIF block (TIFF data, without the "Exif\0\0" prefix) in an Exif box when given.
/// On success `*output` holds `*output_size` bytes to release with ck_jxl_free.
int ck_jxl_encode(const uint8_t *pixels, int width, int height, size_t stride, int channels, int sixteen,
                  const ck_jxl_encode_params *params, const uint8_t *icc, size_t icc_size, const uint8_t *exif,
                  size_t exif_size, uint8_t **output, size_t *output_size, char *message);

/// Recompresses JPEG data losslessly: the JPEG's DCT coefficients are kept, with the reconstruction data that lets
/// djxl give back the JPEG file byte for byte, and its EXIF and XMP. `effort` and `threads` as for ck_jxl_encode.
/// CK_JXL_ERR_UNSUPPORTED when libjxl cannot represent the JPEG (arithmetic coding, CMYK, some restart layouts).
int ck_jxl_recompress_jpeg(const uint8_t *jpeg, size_t size, int effort, int threads, uint8_t **output,
                           size_t *output_size, char *message);

void ck_jxl_free(uint8_t *output);

#ifdef __cplusplus
}
#endif
