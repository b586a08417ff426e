// A small C layer over libwebp for CropCodecs, loaded at run time.
//
// libwebp is opened with dlopen the first time a WebP is read or written, not linked: the build needs no WebP
// headers or development package, only the runtime library the system already has (Debian/Ubuntu's libwebp7,
// soname libwebp.so.7; Homebrew's libwebp.7.dylib on macOS). The few structures the shim fills are declared in
// shim.c from the library's stable ABI; libwebp's own version handshake (the *Internal init functions take the ABI
// version the caller was written for and refuse another major version) checks them at run time, so a mismatched
// library is refused with CK_WEBP_ERR_UNAVAILABLE, never misread.
//
// Every entry point returns a status (CK_WEBP_OK or a CK_WEBP_ERR_* value, numbered as the JPEG and PNG shims'
// codes) and never aborts.

#pragma once
#include "ck_status.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  CK_WEBP_OK = CK_OK,
  /// libwebp rejected the bitstream.
  CK_WEBP_ERR_CORRUPT = CK_ERR_CORRUPT,
  /// The data ended before the picture was complete.
  CK_WEBP_ERR_TRUNCATED = CK_ERR_TRUNCATED,
  /// A feature libwebp does not decode here (an animation's container given to the still-image decoder …).
  CK_WEBP_ERR_UNSUPPORTED = CK_ERR_UNSUPPORTED,
  /// libwebp could not allocate memory.
  CK_WEBP_ERR_MEMORY = CK_ERR_MEMORY,
  /// An argument libwebp refused (a dimension past 16383, a quality out of range …).
  CK_WEBP_ERR_USAGE = CK_ERR_USAGE,
  /// The runtime library is missing, lacks a symbol, or speaks another ABI; the message says which.
  CK_WEBP_ERR_UNAVAILABLE = CK_ERR_UNAVAILABLE,
};

#define CK_WEBP_MESSAGE_LENGTH 200

/// Loads libwebp once per process (thread-safe). CK_WEBP_OK, or CK_WEBP_ERR_UNAVAILABLE with the reason in
/// `message` (NUL-terminated, at most CK_WEBP_MESSAGE_LENGTH bytes).
int ck_webp_load(char *message);

/// What the bitstream header says (libwebp's WebPGetFeatures).
typedef struct {
  int width;
  int height;
  int has_alpha;
  int has_animation;
  /// 0 mixed or undefined, 1 lossy, 2 lossless.
  int format;
} ck_webp_features;

/// Reads the features of a still WebP (a RIFF file, or a bare VP8/VP8L bitstream). Loads the library if needed.
int ck_webp_get_features(const uint8_t *data, size_t size, ck_webp_features *features, char *message);

/// Decodes a still WebP into `output` (`stride` bytes per row, `output_size` bytes in all), as RGBA when `alpha` is
/// non-zero, else RGB. When `scaled_width`/`scaled_height` are positive and smaller than the picture, libwebp's
/// rescaler decodes straight to that size (shrink-on-load).
int ck_webp_decode(const uint8_t *data, size_t size, int alpha, int scaled_width, int scaled_height,
                   uint8_t *output, int stride, size_t output_size, char *message);

/// Encoding parameters.
typedef struct {
  /// 0…100: for lossy, the quality; for lossless, the effort spent on compression.
  float quality;
  int lossless;
  /// 0 (fast) … 6 (slower, smaller).
  int method;
  /// Keep the colour under fully transparent pixels (otherwise libwebp may change it to compress better).
  int exact;
  /// Non-zero: the rows carry alpha (RGBA), else RGB.
  int alpha;
  /// Let libwebp use a second thread.
  int threads;
} ck_webp_encode_params;

/// Encodes `width × height` 8-bit RGB or RGBA rows (`stride` bytes apart). On success `*output` holds `*output_size`
/// bytes of a plain WebP file (no metadata chunks), to release with ck_webp_free.
int ck_webp_encode(const uint8_t *pixels, int width, int height, int stride, const ck_webp_encode_params *params,
                   uint8_t **output, size_t *output_size, char *message);

/// Releases memory ck_webp_encode handed out.
void ck_webp_free(void *pointer);

/// An animated WebP read frame by frame through libwebpdemux (opened at run time like libwebp): each frame the whole
/// canvas with libwebp's blending and disposal applied, as browsers show it.
typedef struct ck_webp_frames ck_webp_frames;

/// Opens the animation in `data` (which must stay alive until ck_webp_frames_close); refuses a canvas above
/// `max_pixels`. Gives the canvas, the frame count and the ANIM loop count (0: for ever).
int ck_webp_frames_open(const uint8_t *data, size_t size, int max_pixels, ck_webp_frames **frames, int *width,
                        int *height, int *frame_count, int *loop_count, char *message);

/// Copies the next frame (8-bit RGBA) into `output`, `stride` bytes per row, with its duration in milliseconds;
/// `*decoded` is 0 once there is no further frame.
int ck_webp_frames_next(ck_webp_frames *frames, uint8_t *output, size_t stride, int *duration_ms, int *decoded,
                        char *message);

void ck_webp_frames_close(ck_webp_frames *frames);

/// An animated WebP written frame by frame through libwebpmux's WebPAnimEncoder (opened at run time like libwebp),
/// which keeps only what changed between frames and assembles the file in memory.
typedef struct ck_webp_anim_writer ck_webp_anim_writer;

/// Starts a `width × height` animation that loops `loop_count` times (0: for ever), each frame encoded with
/// `params` (`alpha` is ignored: frames are RGBA).
int ck_webp_anim_open(int width, int height, int loop_count, const ck_webp_encode_params *params,
                      ck_webp_anim_writer **writer, char *message);

/// Adds a whole-canvas frame of 8-bit RGBA rows (`stride` bytes apart) shown for `duration_ms` milliseconds.
int ck_webp_anim_add(ck_webp_anim_writer *writer, const uint8_t *rgba, int stride, int duration_ms, char *message);

/// Assembles the file. On success `*output` holds `*output_size` bytes, to release with ck_webp_free.
int ck_webp_anim_finish(ck_webp_anim_writer *writer, uint8_t **output, size_t *output_size, char *message);

/// Releases a writer, finished or not.
void ck_webp_anim_close(ck_webp_anim_writer *writer);

#ifdef __cplusplus
}
#endif
