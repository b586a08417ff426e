// A small C layer over libavif for CropCodecs, loaded at run time: the 10-bit AVIF encoder, and the decoder of AVIFs
// whose alpha libheif 1.15 mishandles (alpha with `irot`/`imir`).
//
// CropKit writes AVIF through libheif, whose 1.15 AV1 path aborts the process on 10-bit input; libavif (Debian's
// libavif15, soname libavif.so.15, on the same libaom) encodes 10-bit correctly, so 10-bit AVIF goes through it.
// libavif is opened with dlopen on first use, like the other codec libraries: the build needs no headers. Its
// structures changed between 0.11 and 1.0, so the shim declares libavif 0.11's and refuses any other version
// (avifVersion()) with CK_AVIF_ERR_UNAVAILABLE rather than misread a structure.
//
// Every entry point returns a status (CK_AVIF_OK or a CK_AVIF_ERR_* value, numbered as the other shims' codes) and
// never aborts.

#pragma once
#include "ck_status.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  CK_AVIF_OK = CK_OK,
  /// libavif or the AV1 encoder failed; the message says how.
  CK_AVIF_ERR_CORRUPT = CK_ERR_CORRUPT,
  /// libavif could not allocate memory.
  CK_AVIF_ERR_MEMORY = CK_ERR_MEMORY,
  /// An argument libavif refused.
  CK_AVIF_ERR_USAGE = CK_ERR_USAGE,
  /// The runtime library is missing, lacks a symbol, or is not libavif 0.11; the message says which.
  CK_AVIF_ERR_UNAVAILABLE = CK_ERR_UNAVAILABLE,
};

#define CK_AVIF_MESSAGE_LENGTH 300

/// Loads libavif once per process (thread-safe) and checks its version. CK_AVIF_OK, or CK_AVIF_ERR_UNAVAILABLE with
/// the reason in `message` (NUL-terminated, at most CK_AVIF_MESSAGE_LENGTH bytes).
int ck_avif_load(char *message);

/// Encoding parameters.
typedef struct {
  /// 0…100 (100: lossless quantizers).
  int quality;
  /// 0 (slowest) … 10 (fastest), as libavif's speed.
  int speed;
  /// Bits per sample of the AV1 stream: 8, 10 or 12.
  int bit_depth;
  /// Non-zero: rows are RGBA, else RGB.
  int alpha;
  /// Non-zero: samples are 16-bit (native order), else 8-bit.
  int wide;
  /// Non-zero: 4:4:4 chroma, else 4:2:0.
  int full_chroma;
  /// Threads the AV1 encoder may use.
  int threads;
} ck_avif_encode_params;

/// Encodes `width × height` rows (`stride` bytes apart) into an AVIF file with the ICC profile and the EXIF block
/// (either may be NULL). On success `*output` holds `*output_size` bytes, to release with ck_avif_free.
int ck_avif_encode(const uint8_t *pixels, int width, int height, size_t stride, const ck_avif_encode_params *params,
                   const uint8_t *icc, size_t icc_size, const uint8_t *exif, size_t exif_size, uint8_t **output,
                   size_t *output_size, char *message);

/// Decodes an AVIF's primary image with libavif into `output` as RGBA, 8-bit or (`wide`) 16-bit samples in native
/// order, `stride` bytes per row: the stored picture, without its `irot`, `imir` or `clap` (CropKit applies those),
/// its alpha item whether or not the file ties it to those transforms, limited-range alpha expanded; opaque when there
/// is no alpha. `width × height` is the size the caller read from the header and checked against its limits: libavif
/// is told to decode nothing larger. `strict` keeps libavif's strict checks (missing `pixi`, invalid `clap` …).
int ck_avif_decode(const uint8_t *data, size_t size, int width, int height, int wide, int strict, uint8_t *output,
                   size_t stride, char *message);

/// Releases memory ck_avif_encode and ck_avif_sequence_finish handed out.
void ck_avif_free(void *pointer);

/// An AVIF image sequence read frame by frame through libavif's track decoding (each frame a whole picture, 8-bit
/// RGBA; alpha in limited range is expanded by libavif).
typedef struct ck_avif_frames ck_avif_frames;

/// Opens the sequence in `data` (which must stay alive until ck_avif_frames_close); refuses a frame above
/// `max_pixels`. Gives the frame size, the frame count and the duration of one play in seconds.
int ck_avif_frames_open(const uint8_t *data, size_t size, int max_pixels, int strict, ck_avif_frames **frames,
                        int *width, int *height, int *frame_count, double *duration, char *message);

/// Decodes the next frame into `output` (8-bit RGBA, `stride` bytes per row) with its duration in milliseconds;
/// `*decoded` is 0 once there is no further frame.
int ck_avif_frames_next(ck_avif_frames *frames, uint8_t *output, size_t stride, int *duration_ms, int *decoded,
                        char *message);

void ck_avif_frames_close(ck_avif_frames *frames);

/// An AVIF image sequence written frame by frame (libavif's avifEncoderAddImage; durations in milliseconds).
typedef struct ck_avif_sequence ck_avif_sequence;

/// Starts a `width × height` sequence encoded with `params` (`alpha` and `wide` are ignored: frames are 8-bit RGBA).
int ck_avif_sequence_open(int width, int height, const ck_avif_encode_params *params, ck_avif_sequence **sequence,
                          char *message);

/// Encodes a frame of 8-bit RGBA rows (`stride` bytes apart) shown for `duration_ms` milliseconds.
int ck_avif_sequence_add(ck_avif_sequence *sequence, const uint8_t *rgba, size_t stride, int duration_ms,
                         char *message);

/// Ends the sequence. On success `*output` holds `*output_size` bytes, to release with ck_avif_free.
int ck_avif_sequence_finish(ck_avif_sequence *sequence, uint8_t **output, size_t *output_size, char *message);

void ck_avif_sequence_close(ck_avif_sequence *sequence);

#ifdef __cplusplus
}
#endif
