// A small C layer over libpng for CropCodecs.
//
// libpng reports errors through an error callback that must not return. Every entry point below sets a jump target,
// calls libpng, and turns a longjmp from the callback into a status code (CK_PNG_OK or a CK_PNG_ERR_* value). The
// message of the failure and the first warnings are kept in the decoder/encoder for Swift to read as values; Swift
// never sees a longjmp.

#pragma once
#include "ck_status.h"
#include <stddef.h>
#include <stdint.h>
#include <png.h>

#ifdef __cplusplus
extern "C" {
#endif

// The status codes have the same values as CJPEG's (CK_JPEG_ERR_*), so CropCodecs maps both with one function.
enum {
  CK_PNG_OK = CK_OK,
  /// libpng rejected the data; the message says why.
  CK_PNG_ERR_CORRUPT = CK_ERR_CORRUPT,
  /// The data ended before the image was complete.
  CK_PNG_ERR_TRUNCATED = CK_ERR_TRUNCATED,
  /// Strict mode: libpng emitted a warning, turned into an error.
  CK_PNG_ERR_STRICT_WARNING = CK_ERR_STRICT_WARNING,
  /// malloc failed.
  CK_PNG_ERR_MEMORY = CK_ERR_MEMORY,
  /// The data does not start with the PNG signature.
  CK_PNG_ERR_NOT_PNG = CK_ERR_NOT_AN_IMAGE,
  /// The calls were made in the wrong order (a programming error in the caller).
  CK_PNG_ERR_USAGE = CK_ERR_USAGE,
  /// Reading the input file or writing the output file failed; the message has the system's reason.
  CK_PNG_ERR_IO = CK_ERR_IO,
};

/// Bytes read from an input file, or written to an output file, per system call.
#define CK_PNG_IO_CHUNK 65536

#define CK_PNG_MAX_WARNINGS 8
#define CK_PNG_MESSAGE_LENGTH 200

/// What png_read_info found (the IHDR and the ancillary chunks before the first IDAT).
typedef struct {
  uint32_t width;
  uint32_t height;
  /// 1, 2, 4, 8 or 16.
  int32_t bit_depth;
  /// PNG_COLOR_TYPE_GRAY (0), _RGB (2), _PALETTE (3), _GRAY_ALPHA (4), _RGB_ALPHA (6).
  int32_t color_type;
  int32_t interlaced;
  /// 1 when a tRNS chunk applies (it becomes an alpha channel on decode).
  int32_t has_trns;
} ck_png_header;

/// The decoded layout set up by ck_png_decoder_start.
typedef struct {
  uint32_t width;
  uint32_t height;
  /// 1 (gray), 2 (gray+alpha), 3 (RGB), 4 (RGBA).
  int32_t channels;
  /// 8 or 16 (16-bit samples in native byte order).
  int32_t bit_depth;
  /// Bytes per decoded row.
  size_t rowbytes;
  /// 1 when the image is Adam7-interlaced: read it with ck_png_decoder_read_image.
  int32_t interlaced;
} ck_png_output;

typedef struct ck_png_decoder ck_png_decoder;

/// Creates a decoder over `size` bytes at `data` (not copied: keep them valid until destroy). `strict` turns libpng
/// warnings into CK_PNG_ERR_STRICT_WARNING. Returns NULL only when memory runs out.
ck_png_decoder *ck_png_decoder_create(const uint8_t *data, size_t size, int strict);
/// Creates a decoder reading the open file `fd` from its current offset through a CK_PNG_IO_CHUNK buffer, so the
/// file is never held whole. The caller keeps `fd` open until ck_png_decoder_destroy (which does not close it).
ck_png_decoder *ck_png_decoder_create_fd(int fd, int strict);
void ck_png_decoder_destroy(ck_png_decoder *dec);

/// Bounds what libpng may allocate: no chunk (nor a decompressed iCCP profile) larger than `max_chunk_bytes`
/// (libpng's chunk malloc max), no side longer than `max_side` (its user limits). A chunk claiming more fails with
/// CK_PNG_ERR_TRUNCATED naming the chunk and `input_bytes`, before anything is allocated for it. Call before
/// ck_png_decoder_read_header; without it libpng's own defaults apply (no chunk limit).
void ck_png_decoder_set_limits(ck_png_decoder *dec, size_t max_chunk_bytes, uint32_t max_side, size_t input_bytes);

/// Checks the signature and reads the chunks up to the first IDAT. Allocates no pixel memory.
int ck_png_decoder_read_header(ck_png_decoder *dec, ck_png_header *header);

/// The ICC profile from iCCP (decompressed), if any: returns 1 and sets *data/*length, else returns 0.
int ck_png_decoder_icc(ck_png_decoder *dec, const uint8_t **data, uint32_t *length);

/// The colour chunks other than iCCP, as libpng read and checked them.
typedef struct {
  /// An sRGB chunk.
  int srgb;
  /// A gAMA chunk, and its file gamma (0.45455 for a picture encoded with 1/2.2).
  int has_gamma;
  double gamma;
  /// A cHRM chunk: red x, y, green x, y, blue x, y, white x, y.
  int has_chromaticities;
  double chromaticities[8];
  /// A cICP chunk: colour primaries, transfer characteristics, matrix coefficients (ITU-T H.273), full-range flag.
  int has_cicp;
  uint8_t cicp[4];
} ck_png_color_chunks;

/// Fills `out` from the chunks before the image data; returns 0 before the header is read.
int ck_png_decoder_color_chunks(ck_png_decoder *dec, ck_png_color_chunks *out);
/// The eXIf chunk's TIFF bytes, if any (after ck_png_decoder_finish this includes an eXIf after the IDATs).
int ck_png_decoder_exif(ck_png_decoder *dec, const uint8_t **data, uint32_t *length);

/// Sets up the transformations (palette → RGB, tRNS → alpha, low depths → 8 bits, 16-bit → native byte order; no
/// gamma correction) and reports the decoded layout.
int ck_png_decoder_start(ck_png_decoder *dec, ck_png_output *output);

/// Reads the next `rows` rows of a non-interlaced image into dst (row y at dst + y * stride).
int ck_png_decoder_read_rows(ck_png_decoder *dec, uint8_t *dst, size_t stride, uint32_t rows);

/// Reads a whole (interlaced or not) image into dst (row y at dst + y * stride); dst holds height rows.
int ck_png_decoder_read_image(ck_png_decoder *dec, uint8_t *dst, size_t stride);

/// Reads the chunks after the image data up to IEND. Data ending before IEND is a warning (an error when strict).
int ck_png_decoder_finish(ck_png_decoder *dec);

const char *ck_png_decoder_message(const ck_png_decoder *dec);
int ck_png_decoder_warning_count(const ck_png_decoder *dec);
const char *ck_png_decoder_warning(const ck_png_decoder *dec, int index);

/// Encoder parameters. `icc`/`exif` may be NULL.
typedef struct {
  uint32_t width;
  uint32_t height;
  /// 1 (gray), 2 (gray+alpha), 3 (RGB), 4 (RGBA).
  int32_t channels;
  /// 8 or 16 (16-bit rows are given in native byte order).
  int32_t bit_depth;
  /// zlib level 0…9.
  int32_t compression_level;
  const uint8_t *icc;
  uint32_t icc_length;
  const uint8_t *exif;
  uint32_t exif_length;
} ck_png_encode_params;

typedef struct ck_png_encoder ck_png_encoder;

ck_png_encoder *ck_png_encoder_create(void);
/// Creates an encoder writing to the open file `fd` through a CK_PNG_IO_CHUNK buffer (ck_png_encoder_output then
/// gives no bytes; ck_png_encoder_written the count). The caller keeps `fd` open until ck_png_encoder_destroy.
ck_png_encoder *ck_png_encoder_create_fd(int fd);
/// The bytes written to the output so far (memory or file).
uint64_t ck_png_encoder_written(const ck_png_encoder *enc);
void ck_png_encoder_destroy(ck_png_encoder *enc);
/// Writes the signature, IHDR and the metadata chunks. A metadata chunk libpng rejects becomes a warning.
int ck_png_encoder_start(ck_png_encoder *enc, const ck_png_encode_params *params);
int ck_png_encoder_write_rows(ck_png_encoder *enc, const uint8_t *src, size_t stride, uint32_t rows);
int ck_png_encoder_finish(ck_png_encoder *enc);
const uint8_t *ck_png_encoder_output(const ck_png_encoder *enc, size_t *length);
const char *ck_png_encoder_message(const ck_png_encoder *enc);
int ck_png_encoder_warning_count(const ck_png_encoder *enc);
const char *ck_png_encoder_warning(const ck_png_encoder *enc, int index);

#ifdef __cplusplus
}
#endif
