// A small C layer over OpenJPEG (JPEG 2000) for CropCodecs, loaded at run time.
//
// libopenjp2 is opened with dlopen the first time a JPEG 2000 file is read, not linked: the build needs no OpenJPEG
// headers or development package, only the runtime library (Debian 12's libopenjp2-7, OpenJPEG 2.5; any 2.3 or later
// with the same structures). Files are read from memory (JP2 files and raw J2K codestreams), at full resolution or
// reduced by a power of two (OpenJPEG decodes only the resolution levels it needs: shrink-on-load), on several threads.
// Components become 8-bit samples, or 16-bit when any has more than 8 bits; signed ones are offset; subsampled ones
// (sYCC 4:2:0) are brought to full size and sYCC is turned into RGB; an alpha component is kept. OpenJPEG's messages
// go to the handle, never to the terminal.
//
// Every entry point returns a status (CK_JP2_OK or a CK_JP2_ERR_* value, numbered as the other shims' codes) and
// never aborts.

#pragma once
#include "ck_status.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  CK_JP2_OK = CK_OK,
  /// OpenJPEG rejected the data.
  CK_JP2_ERR_CORRUPT = CK_ERR_CORRUPT,
  /// A layout CropKit does not decode (CMYK, more than four components of different sizes …).
  CK_JP2_ERR_UNSUPPORTED = CK_ERR_UNSUPPORTED,
  /// Out of memory.
  CK_JP2_ERR_MEMORY = CK_ERR_MEMORY,
  /// Calls made out of order, or a buffer of the wrong size.
  CK_JP2_ERR_USAGE = CK_ERR_USAGE,
  /// The runtime library is missing or lacks a symbol; the message says which.
  CK_JP2_ERR_UNAVAILABLE = CK_ERR_UNAVAILABLE,
};

#define CK_JP2_MESSAGE_LENGTH 200

/// Loads libopenjp2 once per process (thread-safe). CK_JP2_OK, or CK_JP2_ERR_UNAVAILABLE with the reason in `message`.
int ck_jp2_load(char *message);

typedef struct ck_jp2 ck_jp2;

/// What the main header says.
typedef struct {
  /// The picture's size at full resolution.
  uint32_t width, height;
  /// Components in the file, and the channels ck_jp2_decode produces (1 gray, 2 gray and alpha, 3 RGB, 4 RGBA).
  uint32_t components, channels;
  /// The deepest component's bits, whether the output samples are 16-bit, whether any component is signed.
  uint32_t precision;
  int sixteen, is_signed;
  /// Whether the channels end with alpha; whether colour components are subsampled (sYCC 4:2:0 and the like).
  int alpha, subsampled;
  /// OpenJPEG's colour space (0 unspecified, 1 sRGB, 2 gray, 3 sYCC, 4 e-YCC, 5 CMYK).
  int color_space;
  /// Resolution levels (reductions by 2 up to levels − 1 are possible), tiles and their size.
  uint32_t resolutions, tiles, tile_width, tile_height;
  /// Whether the data is a JP2 file (else a raw codestream).
  int jp2;
  /// The ICC profile (JP2 `colr` method 2), valid while the handle is open, or NULL.
  const uint8_t *icc;
  uint32_t icc_size;
} ck_jp2_info;

/// Opens JPEG 2000 data (copied, so the caller's bytes may go) and reads its main header. Release the handle with
/// ck_jp2_close, also after a failure.
int ck_jp2_open(const uint8_t *data, size_t size, ck_jp2 **jp2, ck_jp2_info *info, char *message);

/// The size of the picture reduced `reduce` times by 2 (0 ≤ reduce < resolutions).
void ck_jp2_reduced_size(const ck_jp2 *jp2, int reduce, uint32_t *width, uint32_t *height);

/// Decodes the picture reduced `reduce` times by 2 into `output` (`stride` bytes a row, the size
/// ck_jp2_reduced_size gives; the info's channels of 8 or 16-bit native-endian samples), on up to `threads` threads.
int ck_jp2_decode(ck_jp2 *jp2, int reduce, int threads, uint8_t *output, size_t stride, char *message);

void ck_jp2_close(ck_jp2 *jp2);

#ifdef __cplusplus
}
#endif
