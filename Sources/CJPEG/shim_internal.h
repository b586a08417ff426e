// What the parts of the JPEG shim share (not part of its contract, which is include/cjpeg_shim.h): the error manager
// that turns libjpeg's errors into status codes through a longjmp, the decoder's state, and the coefficient stores'
// entry points. Each part is its own file: errors.c, coefficient_stores.c, ac_skipping_decoder.c and shim.c (the
// decoder and encoder behind setjmp guards).

#pragma once

#include "ac_skipping_decoder.h"
#include "cjpeg_shim.h"

#include <jerror.h>
#include <setjmp.h>
#include <sys/types.h>

// MARK: - Error manager shared by the decoder and the encoder

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  int strict;
  int status;
  int message_code;
  char message[CK_JPEG_MESSAGE_LENGTH];
  int warning_count;
  char warnings[CK_JPEG_MAX_WARNINGS][CK_JPEG_MESSAGE_LENGTH];
  // Set by the decoder's source manager: once the data has run out, the data phase's warning that the entropy
  // decoder needed bytes that are not there means the file is truncated.
  int eof_hit;
  int in_data_phase;
  // Set in the helper decoder of a progressive file read by two (parallel_scans.c): libjpeg's warning that a
  // component's AC scan came before its DC scan is then about the split, not the file, and is dropped.
  int ignore_bogus_progression;
} ck_error_mgr;

/// Records a failure (`status`, libjpeg's message `code` and text) in `err` and longjmps to its guard.
void ck_fail(ck_error_mgr *err, int status, int code, const char *message) __attribute__((noreturn));

/// Keeps a warning's text (the first CK_JPEG_MAX_WARNINGS) and counts it.
void ck_record_warning(ck_error_mgr *err, const char *message);

/// Sets up `err` over libjpeg's standard error manager: errors longjmp with a status, warnings are kept, and a
/// corrupt-data warning fails a strict decode (and, once the data has run out, running out is the file's truncation).
void ck_init_error(ck_error_mgr *err, int strict);

// MARK: - Decoder

enum { PHASE_HEADER = 0, PHASE_DATA = 1, PHASE_FINISH = 2 };
enum { STATE_NEW = 0, STATE_HEADER = 1, STATE_STARTED = 2, STATE_DONE = 3 };

struct ck_jpeg_decoder {
  struct jpeg_decompress_struct cinfo;
  ck_error_mgr err;
  struct jpeg_source_mgr src;
  struct jpeg_progress_mgr progress;
  const uint8_t *data;
  size_t size;
  int fd;              // >= 0: read the input from this file, through `input`
  off_t fd_origin;     // where `fd` stood when the decoder was made (-1: not seekable, or no file)
  uint8_t *input;      // CK_JPEG_IO_CHUNK bytes, for fd input
  uint64_t file_read;  // bytes read (or skipped) from `fd` so far
  int phase;
  int state;
  int created;
  int max_scans;
  int cmyk;
  int adobe_inverted;
  int buffered;
  int libjpeg_entropy;  // 1: never install CropKit's entropy decoders (the AC-skipping one, the DC-first one)
  // A full read of a progressive file: CropKit's decoder reads its AC refinement scans (installed by the mapped
  // store's realize_virt_arrays, before the first scan starts); `own_progressive` says whether it was.
  int wants_own_progressive;
  int own_progressive;
  int helper_own_progressive;  // the helper's own_progressive, kept when the helper is destroyed (ck_split_finish)
  ck_jpeg_output output;
  uint8_t *scratch;  // one CMYK row
  ck_jpeg_cmyk_converter cmyk_converter;  // colour management for CMYK rows, or NULL for the naive conversion
  void *cmyk_context;
  // Metadata kept by ck_read_app_marker: the first EXIF APP1 and up to CK_JPEG_MAX_ICC_SEGMENTS ICC APP2 payloads.
  uint8_t *marker_buffer;  // 65533 bytes, for one payload at a time
  uint8_t *exif;
  size_t exif_length;
  uint8_t *icc[CK_JPEG_MAX_ICC_SEGMENTS];
  size_t icc_length[CK_JPEG_MAX_ICC_SEGMENTS];
  int icc_count;
  int icc_dropped;
  uint64_t coefficient_bytes;  // see ck_jpeg_output
  struct ck_mapped_store *mapped;  // the whole-image coefficient arrays of a multi-scan file (see ck_use_mapped_store)
  void (*libjpeg_realize)(j_common_ptr);  // the memory manager's own realize_virt_arrays
  int mapped_requests;  // the mapped stores requested so far (libjpeg asks for one per component, in order)
  ck_dc_values dc_values[MAX_COMPONENTS];  // the DC stores' values, in the order requested (one per component)
  int dc_requests;
  int parallel_scans;   // CK_JPEG_PARALLEL_SCANS_*
  struct ck_split *split;  // a progressive file read by two decoders (parallel_scans.c), or NULL
  // A helper decoder's: the decoder whose coefficient arrays it writes into (its own stores borrow them).
  struct ck_jpeg_decoder *lender;
};

/// Routes the coefficient controller's whole-image arrays to DC stores (the DC-only early stop). Call before
/// jpeg_start_decompress.
void ck_use_dc_store(ck_jpeg_decoder *dec);

/// Routes the whole-image coefficient arrays to mapped stores (a multi-scan file). Call before jpeg_start_decompress.
void ck_use_mapped_store(ck_jpeg_decoder *dec);

/// Unmaps and frees the decoder's mapped stores.
void ck_free_mapped_stores(ck_jpeg_decoder *dec);
// Faults in `dec`'s realized arrays from their ends backwards (see coefficient_stores.c); called by the helper thread.
void ck_populate_mapped_stores_backwards(ck_jpeg_decoder *dec);


// MARK: - Progressive scans on two cores (parallel_scans.c)

struct ck_split;

/// Call after jpeg_read_header, before jpeg_start_decompress of a full read: when the file qualifies, plans which
/// scans a helper decoder reads, makes the helper, and switches `dec` to its copy of the file without them. Returns
/// 1 when it did. Needs no guard: it never longjmps.
int ck_split_begin(ck_jpeg_decoder *dec, long max_memory);

/// Starts the helper's thread; the mapped store calls it once the decoder's coefficient arrays exist.
void ck_split_launch(ck_jpeg_decoder *dec);

/// Waits for the helper's thread; with `run_unlaunched`, runs the helper here if no thread could be started.
void ck_split_join(ck_jpeg_decoder *dec, int run_unlaunched);

/// Call once the decoder has read its scans (jpeg_start_decompress returned): reads the helper's scans here if its
/// thread could not start (longjmps on its error), and completes `output`.
void ck_split_started(ck_jpeg_decoder *dec, ck_jpeg_output *output);

/// The helper's coefficient stores call this on each access: in its last scan of `component`, the rows above
/// `start_row` are final.
void ck_split_progress(ck_jpeg_decoder *helper, int component, JDIMENSION start_row);

/// The decoder's coefficient stores call this before the output pass reads rows of `component` up to `end_row`:
/// waits until the helper has finished them; longjmps with the helper's error if it failed.
void ck_split_wait(ck_jpeg_decoder *dec, int component, JDIMENSION end_row);

/// Call when the decode finishes (or is abandoned): waits for the helper, takes its warnings, frees it, and fails
/// (longjmps) with its error, if any. Does nothing the second time.
void ck_split_finish(ck_jpeg_decoder *dec);

/// Waits for the helper's thread, if any, and frees everything the split holds.
void ck_split_free(ck_jpeg_decoder *dec);

// MARK: - Striped encoding (striped_encoder.c)

struct ck_stripes;

/// Where a striped encode's bytes go, in order; returns a status (or longjmps through the encoder's guard).
typedef int (*ck_stripes_emit)(void *context, const uint8_t *bytes, size_t length);

/// Sets up a striped encode of `params` whose bytes go to `emit` (NULL when it does not qualify or its threads
/// cannot start).
struct ck_stripes *ck_stripes_create(const ck_jpeg_encode_params *params, ck_stripes_emit emit, void *context);

/// Keeps a marker (APPn) for the file's header; before the first row.
int ck_stripes_marker(struct ck_stripes *stripes, int marker, const uint8_t *data, size_t length);

/// Copies `rows` rows into stripes, handing each full one to the workers and the finished ones, in order, to `emit`;
/// on a failure, returns its status and writes its message into `message` (CK_JPEG_MESSAGE_LENGTH bytes).
int ck_stripes_write(struct ck_stripes *stripes, const uint8_t *src, size_t stride, uint32_t rows, char *message);

/// After the last row: waits for the workers and hands the remaining stripes and the EOI to `emit`.
int ck_stripes_finish(struct ck_stripes *stripes, char *message);

/// Stops the workers and frees everything.
void ck_stripes_destroy(struct ck_stripes *stripes);
