// CropCodecs' layer over libjpeg-turbo (linked): decoding (whole, by rows, at 1/2 to 1/8 scale, stopped early after
// a progressive file's DC scans; errors.c), CropKit's own entropy decoder for baseline files at 1/8
// (ac_skipping_decoder.c), the coefficient stores of lossless transforms (coefficient_stores.c) and encoding.
//
// libjpeg reports fatal errors by calling error_exit(), whose default implementation calls exit(). Swift cannot use
// setjmp/longjmp, so every entry point below sets a jump target, calls libjpeg, and turns a longjmp into a status
// code (CK_JPEG_OK or one of the CK_JPEG_ERR_* values). The formatted libjpeg message of the failure and the first
// warnings (corrupt-data messages) are kept in the decoder/encoder object for Swift to read as values.
//
// Swift never sees a longjmp: no Swift frame is ever between a setjmp here and the longjmp that returns to it.

#pragma once
#include "ck_status.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jpeglib.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes returned by every ck_jpeg_* call that can fail.
enum {
  CK_JPEG_OK = CK_OK,
  /// libjpeg rejected the data; the message says why.
  CK_JPEG_ERR_CORRUPT = CK_ERR_CORRUPT,
  /// The data ended before the image was complete.
  CK_JPEG_ERR_TRUNCATED = CK_ERR_TRUNCATED,
  /// Strict mode: libjpeg emitted a corrupt-data warning, turned into an error.
  CK_JPEG_ERR_STRICT_WARNING = CK_ERR_STRICT_WARNING,
  /// A JPEG feature libjpeg-turbo or CropKit does not support (12-bit, lossless, unknown SOF …).
  CK_JPEG_ERR_UNSUPPORTED = CK_ERR_UNSUPPORTED,
  /// libjpeg needed more working memory than the configured limit, or malloc failed.
  CK_JPEG_ERR_MEMORY = CK_ERR_MEMORY,
  /// The data does not start with a JPEG SOI marker.
  CK_JPEG_ERR_NOT_JPEG = CK_ERR_NOT_AN_IMAGE,
  /// A progressive file has more scans than the configured limit (a CPU-exhaustion guard).
  CK_JPEG_ERR_TOO_MANY_SCANS = CK_ERR_TOO_MANY_SCANS,
  /// The calls were made in the wrong order (a programming error in the caller).
  CK_JPEG_ERR_USAGE = CK_ERR_USAGE,
  /// Reading the input file or writing the output file failed; the message has the system's reason.
  CK_JPEG_ERR_IO = CK_ERR_IO,
};

/// Bytes read from an input file, or written to an output file, per system call.
#define CK_JPEG_IO_CHUNK 65536

/// Early-stop policies for progressive files (see ck_jpeg_decoder_start).
enum {
  /// Always read every scan.
  CK_JPEG_EARLY_STOP_OFF = 0,
  /// Stop once every coefficient the scaled IDCT of every component reads is final: output is byte-identical.
  CK_JPEG_EARLY_STOP_EXACT = 1,
  /// Stop once every component's DC coefficient is final, and keep only DC coefficients while reading: 2 bytes per
  /// 8×8 block instead of libjpeg's 128 (approximate when chroma uses a 2×2 IDCT, which then sees no AC).
  CK_JPEG_EARLY_STOP_DC = 2,
};

/// How many warning messages are kept (the count of all warnings is kept separately).
#define CK_JPEG_MAX_WARNINGS 8
#define CK_JPEG_MESSAGE_LENGTH 200
/// The most ICC APP2 segments kept (a profile has at most 255).
#define CK_JPEG_MAX_ICC_SEGMENTS 255

/// What jpeg_read_header found.
typedef struct {
  uint32_t width;
  uint32_t height;
  int32_t components;
  /// libjpeg's J_COLOR_SPACE of the file (JCS_GRAYSCALE, JCS_YCbCr, JCS_RGB, JCS_CMYK, JCS_YCCK …).
  int32_t color_space;
  int32_t progressive;
  int32_t arithmetic;
  int32_t data_precision;
  int32_t saw_adobe_marker;
  int32_t adobe_transform;
  int32_t saw_jfif_marker;
  /// Sampling factors of the first four components (0 when absent).
  int32_t h_samp[4];
  int32_t v_samp[4];
} ck_jpeg_header;

/// The output that ck_jpeg_decoder_start set up.
typedef struct {
  uint32_t width;
  uint32_t height;
  /// 1 (gray) or 3 (RGB; CMYK/YCCK files are converted to RGB).
  int32_t components;
  /// 1 when a progressive file was decoded from the first scans only (early stop), else 0.
  int32_t early_stopped;
  /// Bytes of the input consumed when the output pass started (the whole input unless early_stopped).
  uint64_t bytes_consumed;
  /// Scans read before the output pass started.
  int32_t scans_read;
  /// Bytes held for coefficients: libjpeg's whole-image arrays (64 per block) for progressive files, or the DC
  /// store of CK_JPEG_EARLY_STOP_DC; 0 for baseline files, which keep no coefficients.
  uint64_t coefficient_bytes;
  /// 1 when CropKit's entropy decoder (ac_skipping_decoder.c) reads the file rather than libjpeg's: a sequential
  /// file's scan, or a progressive file's DC-first scans in an early stop, else 0.
  int32_t own_entropy;
  /// 1 when, at 1/8, CropKit's entropy decoder also runs the output pass and writes the pixels itself: a sequential
  /// file's one-pixel blocks (ac_skipping_decoder.c's ck_decompress_eighth), or a DC-only early stop's blocks straight
  /// from the DC store (ck_decompress_dc); else 0.
  int32_t own_output;
  /// 1 when a progressive file's DC-first scans are written straight into the DC store (CK_JPEG_EARLY_STOP_DC), a
  /// whole row of MCUs per call, else 0.
  int32_t own_dc_rows;
  /// Scans read on a second thread, by the helper decoder (see ck_jpeg_decoder_set_parallel_scans); 0 when one
  /// thread read them all.
  int32_t helper_scans;
} ck_jpeg_output;

/// Whether a progressive file read whole is read on two threads (ck_jpeg_decoder_set_parallel_scans).
enum {
  /// One thread reads every scan.
  CK_JPEG_PARALLEL_SCANS_OFF = 0,
  /// A second thread reads the scans of some coefficients while the first reads the others, when the file parses
  /// cleanly, is complete, and gives the second at least 64 KiB of scans.
  CK_JPEG_PARALLEL_SCANS_AUTO = 1,
  /// As AUTO, however few bytes the second thread gets (for tests).
  CK_JPEG_PARALLEL_SCANS_ALWAYS = 2,
};

typedef struct ck_jpeg_decoder ck_jpeg_decoder;

/// Creates a decoder over `size` bytes at `data`. The bytes are not copied: they must stay valid until
/// ck_jpeg_decoder_destroy. `strict` turns libjpeg's corrupt-data warnings into CK_JPEG_ERR_STRICT_WARNING.
/// Keeps the first EXIF APP1 segment and the ICC APP2 segments. Returns NULL only when memory runs out.
ck_jpeg_decoder *ck_jpeg_decoder_create(const uint8_t *data, size_t size, int strict);
/// Creates a decoder reading the open file `fd` from its current offset, CK_JPEG_IO_CHUNK bytes at a time, so the
/// file is never held whole. The caller keeps `fd` open until ck_jpeg_decoder_destroy (which does not close it).
ck_jpeg_decoder *ck_jpeg_decoder_create_fd(int fd, int strict);
void ck_jpeg_decoder_destroy(ck_jpeg_decoder *dec);

/// Reads the markers up to the first SOS. Cheap: allocates no pixel or coefficient memory.
int ck_jpeg_decoder_read_header(ck_jpeg_decoder *dec, ck_jpeg_header *header);

/// The payload of the first EXIF APP1 segment (starting with "Exif\0"), if any: returns 1 and sets *data/*length.
/// Owned by the decoder, valid until it is destroyed.
int ck_jpeg_decoder_exif(const ck_jpeg_decoder *dec, const uint8_t **data, size_t *length);
/// How many ICC APP2 segments (payloads starting with "ICC_PROFILE\0") were kept, in file order.
int ck_jpeg_decoder_icc_segment_count(const ck_jpeg_decoder *dec);
/// ICC segment `index`'s payload; returns 0 when out of range.
int ck_jpeg_decoder_icc_segment(const ck_jpeg_decoder *dec, int index, const uint8_t **data, size_t *length);
/// How many ICC segments beyond CK_JPEG_MAX_ICC_SEGMENTS were skipped.
int ck_jpeg_decoder_icc_segments_dropped(const ck_jpeg_decoder *dec);

/// Chooses the output (scale 1/scale_denom with scale_denom 1, 2, 4 or 8) and starts decompression. For a
/// progressive file this reads the scans into libjpeg's coefficient buffer (stopping early as `early_stop` allows
/// when scale_denom is 8). A single-scan sequential file is read by CropKit's entropy decoder at every scale, which
/// at 1/8 with CK_JPEG_EARLY_STOP_DC skips every component's AC coefficients (the same chroma approximation).
/// `max_memory` caps libjpeg's working memory in bytes (0: no cap); `max_scans` caps the
/// number of scans of a progressive file (0: no cap). Call after ck_jpeg_decoder_read_header.
int ck_jpeg_decoder_start(ck_jpeg_decoder *dec, int scale_denom, int early_stop, long max_memory, int max_scans,
                          ck_jpeg_output *output);

/// Makes the decoder keep libjpeg's own Huffman decoders instead of CropKit's (for sequential files, and for
/// progressive files' DC-first scans at 1/8 and AC scans read whole), which are byte-identical (except with
/// CK_JPEG_EARLY_STOP_DC at 1/8, whose chroma then comes from DC alone) and faster: about twice at 1/8, 15-29% less
/// time at the other scales. For comparisons; call before ck_jpeg_decoder_start.
void ck_jpeg_decoder_use_libjpeg_entropy(ck_jpeg_decoder *dec, int enabled);

/// After ck_jpeg_decoder_finish of a progressive file read on two threads: 1 when the helper thread's AC scans were
/// read by CropKit's decoder (as the decoder's own are unless ck_jpeg_decoder_use_libjpeg_entropy), else 0.
int ck_jpeg_decoder_helper_own_entropy(const ck_jpeg_decoder *dec);
/// Sets whether a progressive file read whole is read on two threads (a CK_JPEG_PARALLEL_SCANS_* value; the default
/// is OFF). Scans that touch disjoint coefficients are independent: a helper decoder on a second thread reads one set
/// into the decoder's own coefficient arrays while the decoder reads the other, and the output is byte-identical.
/// Call before ck_jpeg_decoder_start.
void ck_jpeg_decoder_set_parallel_scans(ck_jpeg_decoder *dec, int mode);
/// Plans how the scans of the progressive JPEG in `data` would be split between two threads (with no minimum):
/// returns 1 and each side's scan count when the file qualifies, else 0. Reads nothing but `data` (for the fuzz
/// target and tests).
int ck_jpeg_plan_parallel_scans(const uint8_t *data, size_t size, int *decoder_scans, int *helper_scans);

/// Converts one row of `pixels` CMYK samples (4 bytes each, as stored: inverted in Adobe files) to RGB (3 bytes each).
/// It runs inside ck_jpeg_decoder_read_rows, between libjpeg calls, so it must be C that never longjmps.
typedef void (*ck_jpeg_cmyk_converter)(void *context, const uint8_t *cmyk, uint8_t *rgb, uint32_t pixels);

/// Makes a CMYK/YCCK decoder convert its rows with `converter` (colour management through the file's profile)
/// instead of the naive conversion; `context` is passed back on each call and must outlive the decoder's reads.
void ck_jpeg_decoder_set_cmyk_converter(ck_jpeg_decoder *dec, ck_jpeg_cmyk_converter converter, void *context);

/// Reads up to `max_rows` output rows into `dst` (row y at dst + y * stride, each width × components bytes).
/// `*rows_read` receives the number of rows written (0 once all rows were read).
int ck_jpeg_decoder_read_rows(ck_jpeg_decoder *dec, uint8_t *dst, size_t stride, uint32_t max_rows,
                              uint32_t *rows_read);

/// Ends decompression. When every row was read, reads the rest of the data up to EOI (a missing EOI is a warning);
/// otherwise abandons the image. The decoder can then only be destroyed.
int ck_jpeg_decoder_finish(ck_jpeg_decoder *dec);

/// The message of the last error (empty when none).
const char *ck_jpeg_decoder_message(const ck_jpeg_decoder *dec);
/// libjpeg's message code of the last error (a J_MESSAGE_CODE), or -1.
int ck_jpeg_decoder_message_code(const ck_jpeg_decoder *dec);
/// How many warnings libjpeg emitted in all (only the first CK_JPEG_MAX_WARNINGS are kept).
int ck_jpeg_decoder_warning_count(const ck_jpeg_decoder *dec);
/// Warning `index` (< min(count, CK_JPEG_MAX_WARNINGS)).
const char *ck_jpeg_decoder_warning(const ck_jpeg_decoder *dec, int index);

/// Encoder parameters.
typedef struct {
  uint32_t width;
  uint32_t height;
  /// 1 (gray) or 3 (RGB).
  int32_t components;
  /// 1…100.
  int32_t quality;
  /// Chroma sampling factor of the luma component: 0 → 4:4:4, 1 → 4:2:2, 2 → 4:2:0.
  int32_t subsampling;
  int32_t progressive;
  int32_t optimize_coding;
  /// MCUs between restart markers (0: none), ≤ 65535.
  int32_t restart_interval;
  /// Whether to encode in stripes on two threads (a CK_JPEG_STRIPES_* value; 0 is OFF).
  int32_t stripes;
} ck_jpeg_encode_params;

/// Whether a baseline JPEG is encoded in stripes on two threads (ck_jpeg_encode_params.stripes). The picture is cut
/// into stripes of about 64 rows, one restart interval each, encoded by two worker threads as pictures of their own
/// and joined: the file is byte-identical to libjpeg's single-threaded encode with that restart interval (DRI), so
/// the pixels are those of an encode without one. Only for standard Huffman tables, no progression, no restart
/// interval asked for, and more than two stripes.
enum {
  CK_JPEG_STRIPES_OFF = 0,
  /// Stripes for pictures of a megapixel or more.
  CK_JPEG_STRIPES_AUTO = 1,
  /// Stripes whatever the size (for tests).
  CK_JPEG_STRIPES_ALWAYS = 2,
};

/// The stripes a striped encode of `params` uses: their height in pixel rows and the restart interval (MCUs) that
/// makes one encoder write the same file. Returns 1 when the picture has more than two stripes, else 0 (its size
/// alone; the other conditions are the encoder's).
int ck_jpeg_stripe_layout(const ck_jpeg_encode_params *params, uint32_t *stripe_rows, uint32_t *restart_interval);

typedef struct ck_jpeg_encoder ck_jpeg_encoder;

/// Creates an encoder writing into a growable memory buffer it owns. Returns NULL only when memory runs out.
ck_jpeg_encoder *ck_jpeg_encoder_create(void);
/// Creates an encoder writing to the open file `fd` through a CK_JPEG_IO_CHUNK buffer, so the output is never held
/// whole; ck_jpeg_encoder_output then gives no bytes, and ck_jpeg_encoder_written the count. The caller keeps `fd`
/// open until ck_jpeg_encoder_destroy (which does not close it).
ck_jpeg_encoder *ck_jpeg_encoder_create_fd(int fd);
/// The bytes written to the output so far (memory or file).
uint64_t ck_jpeg_encoder_written(const ck_jpeg_encoder *enc);
void ck_jpeg_encoder_destroy(ck_jpeg_encoder *enc);

/// Sets the parameters and writes SOI, the JFIF header and the tables.
int ck_jpeg_encoder_start(ck_jpeg_encoder *enc, const ck_jpeg_encode_params *params);

/// Writes one marker (APPn, COM); call after ck_jpeg_encoder_start and before the first row. `length` ≤ 65533.
int ck_jpeg_encoder_write_marker(ck_jpeg_encoder *enc, int marker, const uint8_t *data, size_t length);

/// Compresses `rows` rows from `src` (row y at src + y * stride, width × components bytes each).
int ck_jpeg_encoder_write_rows(ck_jpeg_encoder *enc, const uint8_t *src, size_t stride, uint32_t rows);

/// Writes the rest (EOI). Afterwards ck_jpeg_encoder_output returns the whole file.
int ck_jpeg_encoder_finish(ck_jpeg_encoder *enc);

/// The bytes written so far and their count; valid until the encoder is destroyed.
const uint8_t *ck_jpeg_encoder_output(const ck_jpeg_encoder *enc, size_t *length);

const char *ck_jpeg_encoder_message(const ck_jpeg_encoder *enc);

#ifdef __cplusplus
}
#endif
