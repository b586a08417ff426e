// A progressive JPEG's scans, decoded on two cores.
//
// A progressive file is a series of scans; each adds some coefficients of the image (one spectral band of one
// component, or the DC terms of several, at some precision). libjpeg decodes the scans one after another into its
// whole-image coefficient arrays, and that entropy decoding is most of the time of decoding such a file: the output
// pass cannot start before the last scan is in. Yet scans that touch different coefficients do not depend on each
// other. So the scans are split into two sets, balanced by their bytes: the decoder reads every DC scan and the AC
// scans of some components, and a helper decoder on a second thread reads the AC scans of the others into the same
// coefficient arrays. Each writes only its own coefficients (an AC scan writes its component's blocks, and never a
// DC term), so nothing is shared but memory, and no coefficient array is duplicated. The output pass runs as it
// always does, over the coefficients a serial decode would have: the output is byte-identical.
//
// Each decoder reads a copy of the file with the other's scans cut out. The tables (DHT, DQT, DRI) stay in both, in
// their order, so every scan is decoded with the tables it was written with.
//
// The decoder's output pass does not wait for the helper to end: it reads a component the helper writes once the
// helper's last scan of it has moved past the rows it needs (the helper publishes its progress as it goes), so the
// output pass (IDCT, colour conversion, and whatever the caller does with the rows) overlaps the helper's last scan.
// The helper's warnings join the decoder's when the decode finishes; its error, if any, fails the first row read
// that needs its coefficients (or the finish), with the message a serial decode gives.
//
// Only a file that parses cleanly gets split: one progressive Huffman frame, every segment where it should be, a
// progression libjpeg would not warn about, and every coefficient final by the end (a file that stops early is
// smoothed by libjpeg, which needs every scan). Anything else is read serially, and libjpeg reports what is wrong.

#include "shim_internal.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
  CK_SEGMENT_MARKER = 0,  // a table or other marker segment: both decoders read it
  CK_SEGMENT_APP = 1,     // APPn or COM: only the decoder reads it (it keeps EXIF and ICC)
  CK_SEGMENT_SCAN = 2,    // SOS and its entropy-coded data: one decoder reads it
};

/// The most segments and scans a file may have to be split (more is read serially, under the scan limit).
enum { CK_SPLIT_MAX_SEGMENTS = 4096, CK_SPLIT_MAX_SCANS = 1024 };
/// The largest file split: bigger ones are read serially, so the copies never cost more than this.
#define CK_SPLIT_MAX_FILE ((size_t)64 << 20)
/// The fewest bytes of scans worth a second thread in CK_JPEG_PARALLEL_SCANS_AUTO (about 3 ms of decoding).
#define CK_SPLIT_MIN_HELPER_BYTES ((size_t)64 << 10)

typedef struct {
  size_t start, end;  // the segment's bytes, from its marker to the end of its entropy-coded data
  uint8_t kind;
  uint8_t components;  // a scan's components, bit i for component index i
  uint8_t ss, se, ah, al;
  uint8_t helper;  // a scan the helper decodes
} ck_segment;

typedef struct {
  ck_segment *segments;
  int count;
  int num_components;
  int component_ids[4];
  size_t first_scan_start;  // where the first scan's SOS marker is
  size_t first_scan_data;   // where its entropy-coded data starts
  size_t eoi;
  int scans, helper_scans;
  size_t helper_bytes;           // bytes of the helper's scans
  uint8_t helper_owns[4][DCTSIZE2];  // (component, zigzag index) the helper's scans write
} ck_scan_plan;

static size_t ck_be16(const uint8_t *p) { return (size_t)p[0] << 8 | p[1]; }

// Where the entropy-coded data that starts at `j` ends: at the first marker that is not a restart marker, a stuffed
// zero or a fill byte. Returns 0 when the data runs out first.
static size_t ck_scan_data_end(const uint8_t *d, size_t n, size_t j) {
  for (;;) {
    if (j >= n) return 0;
    const uint8_t *ff = (const uint8_t *)memchr(d + j, 0xFF, n - j);
    if (ff == NULL) return 0;
    j = (size_t)(ff - d);
    if (j + 1 >= n) return 0;
    uint8_t next = d[j + 1];
    if (next == 0x00 || (next >= 0xD0 && next <= 0xD7)) {
      j += 2;
    } else if (next == 0xFF) {
      j += 1;
    } else {
      return j;
    }
  }
}

// Reads the SOF2 segment's body (`length` bytes at `p`): 8-bit samples, 1 to 4 components with distinct ids.
static int ck_parse_frame(const uint8_t *p, size_t length, ck_scan_plan *plan) {
  if (length < 6 || p[0] != 8) return 0;
  int count = p[5];
  if (count < 1 || count > 4 || length != 6 + 3 * (size_t)count) return 0;
  for (int c = 0; c < count; c++) {
    plan->component_ids[c] = p[6 + 3 * c];
    for (int other = 0; other < c; other++) {
      if (plan->component_ids[other] == plan->component_ids[c]) return 0;
    }
  }
  plan->num_components = count;
  return 1;
}

// Reads an SOS header's body (`length` bytes at `p`) into `scan` and checks it against the progression so far,
// `bits` (the precision each coefficient has reached, −1 before its first scan), which it then advances. Fails on
// anything libjpeg would warn about or reject.
static int ck_parse_scan(const uint8_t *p, size_t length, const ck_scan_plan *plan, int bits[4][DCTSIZE2],
                         ck_segment *scan) {
  if (length < 1) return 0;
  int count = p[0];
  if (count < 1 || count > plan->num_components || length != 4 + 2 * (size_t)count) return 0;
  unsigned mask = 0;
  for (int i = 0; i < count; i++) {
    int index = -1;
    for (int c = 0; c < plan->num_components; c++) {
      if (plan->component_ids[c] == p[1 + 2 * i]) index = c;
    }
    if (index < 0 || (mask & (1u << index))) return 0;
    mask |= 1u << index;
  }
  int ss = p[1 + 2 * count], se = p[2 + 2 * count], ah = p[3 + 2 * count] >> 4, al = p[3 + 2 * count] & 15;
  if (ss == 0 ? se != 0 : (se < ss || se >= DCTSIZE2 || count != 1)) return 0;
  if (al > 13 || (ah != 0 && al != ah - 1)) return 0;
  for (int c = 0; c < plan->num_components; c++) {
    if (!(mask & (1u << c))) continue;
    if (ss > 0 && bits[c][0] < 0) return 0;  // AC before the component's DC
    for (int k = ss; k <= se; k++) {
      if (ah == 0 ? bits[c][k] >= 0 : bits[c][k] != ah) return 0;
      bits[c][k] = al;
    }
  }
  scan->components = (uint8_t)mask;
  scan->ss = (uint8_t)ss;
  scan->se = (uint8_t)se;
  scan->ah = (uint8_t)ah;
  scan->al = (uint8_t)al;
  return 1;
}

// Splits the file into segments up to its EOI, checking what the header comment above requires. Returns 1 on
// success; the plan's segments are then malloc'd.
static int ck_parse_segments(const uint8_t *d, size_t n, ck_scan_plan *plan) {
  if (n < 4 || d[0] != 0xFF || d[1] != 0xD8) return 0;
  plan->segments = (ck_segment *)malloc(CK_SPLIT_MAX_SEGMENTS * sizeof(ck_segment));
  if (plan->segments == NULL) return 0;
  int bits[4][DCTSIZE2];
  for (int c = 0; c < 4; c++) {
    for (int k = 0; k < DCTSIZE2; k++) bits[c][k] = -1;
  }
  size_t i = 2;
  for (;;) {
    if (i + 1 >= n || d[i] != 0xFF) return 0;
    while (d[i + 1] == 0xFF) {  // fill bytes before a marker
      if (++i + 1 >= n) return 0;
    }
    uint8_t marker = d[i + 1];
    if (marker == 0xD9) {
      plan->eoi = i;
      break;
    }
    if (marker == 0x00 || marker == 0x01 || marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7)) return 0;
    if (i + 4 > n) return 0;
    size_t length = ck_be16(d + i + 2);
    if (length < 2 || length > n - i - 2) return 0;
    const uint8_t *body = d + i + 4;
    size_t end = i + 2 + length;
    if (plan->count == CK_SPLIT_MAX_SEGMENTS) return 0;
    ck_segment *segment = &plan->segments[plan->count];
    memset(segment, 0, sizeof *segment);
    segment->start = i;
    segment->kind = CK_SEGMENT_MARKER;
    if (marker == 0xC2) {
      if (plan->num_components != 0 || !ck_parse_frame(body, length - 2, plan)) return 0;
    } else if ((marker >= 0xC0 && marker <= 0xCF && marker != 0xC4) || marker == 0xDC) {
      return 0;  // another frame type, arithmetic coding (DAC) or a DNL
    } else if ((marker >= 0xE0 && marker <= 0xEF) || marker == 0xFE) {
      segment->kind = CK_SEGMENT_APP;
    } else if (marker == 0xDA) {
      if (plan->num_components == 0 || plan->scans == CK_SPLIT_MAX_SCANS) return 0;
      if (!ck_parse_scan(body, length - 2, plan, bits, segment)) return 0;
      segment->kind = CK_SEGMENT_SCAN;
      if (plan->scans == 0) {
        plan->first_scan_start = i;
        plan->first_scan_data = end;
      }
      plan->scans++;
      end = ck_scan_data_end(d, n, end);
      if (end == 0) return 0;
    } else if (plan->scans > 0 && marker != 0xC4 && marker != 0xDB && marker != 0xDD) {
      return 0;  // between scans, only tables and APPn/COM
    }
    segment->end = end;
    plan->count++;
    i = end;
  }
  if (plan->scans == 0) return 0;
  for (int c = 0; c < plan->num_components; c++) {
    for (int k = 0; k < DCTSIZE2; k++) {
      if (bits[c][k] != 0) return 0;  // the progression never completes
    }
  }
  return 1;
}

// Gives whole components' AC scans to the helper, largest first, while that balances the bytes. The decoder keeps
// every DC scan: libjpeg latches a component's quantization table at its first scan (a DC scan), and the output
// pass needs it in the decoder. A component's AC scans stay together, read in file order by one thread, because
// damaged data can make libjpeg write past a scan's band (up to 16 zigzag positions, in the same block): split by
// band, two threads could write the same coefficient, where one thread in file order gives a serial decode's result.
static void ck_assign_scans(ck_scan_plan *plan) {
  size_t component_bytes[4] = {0, 0, 0, 0};
  size_t dc_bytes = 0;
  for (int i = 0; i < plan->count; i++) {
    const ck_segment *segment = &plan->segments[i];
    if (segment->kind != CK_SEGMENT_SCAN) continue;
    size_t bytes = segment->end - segment->start;
    if (segment->ss == 0) {
      dc_bytes += bytes;
    } else {
      for (int c = 0; c < plan->num_components; c++) {
        if (segment->components & (1u << c)) component_bytes[c] += bytes;
      }
    }
  }
  size_t bins[2] = {dc_bytes, 0};
  int to_helper[4] = {0, 0, 0, 0};
  uint8_t placed[4] = {0, 0, 0, 0};
  for (int round = 0; round < plan->num_components; round++) {
    int largest = -1;
    for (int c = 0; c < plan->num_components; c++) {
      if (!placed[c] && (largest < 0 || component_bytes[c] > component_bytes[largest])) largest = c;
    }
    placed[largest] = 1;
    to_helper[largest] = bins[1] < bins[0];
    bins[to_helper[largest]] += component_bytes[largest];
  }
  plan->helper_bytes = bins[1];
  for (int i = 0; i < plan->count; i++) {
    ck_segment *segment = &plan->segments[i];
    if (segment->kind != CK_SEGMENT_SCAN || segment->ss == 0) continue;
    for (int c = 0; c < plan->num_components; c++) {
      if (!(segment->components & (1u << c)) || !to_helper[c]) continue;
      segment->helper = 1;
      plan->helper_scans++;
      for (int k = segment->ss; k <= segment->se; k++) plan->helper_owns[c][k] = 1;
    }
  }
}

// Plans the split of `d`; returns 1 when the helper gets at least `min_helper_bytes` of scans (and one scan).
static int ck_plan_split(const uint8_t *d, size_t n, size_t min_helper_bytes, ck_scan_plan *plan) {
  memset(plan, 0, sizeof *plan);
  if (!ck_parse_segments(d, n, plan)) return 0;
  ck_assign_scans(plan);
  return plan->helper_scans > 0 && plan->helper_bytes >= min_helper_bytes;
}

static void ck_plan_free(ck_scan_plan *plan) {
  free(plan->segments);
  plan->segments = NULL;
}

int ck_jpeg_plan_parallel_scans(const uint8_t *data, size_t size, int *decoder_scans, int *helper_scans) {
  ck_scan_plan plan;
  int planned = ck_plan_split(data, size, 1, &plan);
  *decoder_scans = planned ? plan.scans - plan.helper_scans : 0;
  *helper_scans = planned ? plan.helper_scans : 0;
  ck_plan_free(&plan);
  return planned;
}

// MARK: - The two decoders

struct ck_split {
  ck_scan_plan plan;
  uint8_t *stream;  // the decoder's copy: the file without the helper's scans
  uint8_t *helper_stream;  // SOI, the markers but APPn and COM, the helper's scans, EOI
  ck_jpeg_decoder *helper;
  long max_memory;
  int launched, joined;
  pthread_t thread;
  // The helper's progress. `last_scan[c]`: the helper's scan number (1-based, in its own file) of its last scan of
  // component c, 0 when it has none. `done_rows[c]`: the block rows of component c it has finished (stored by the
  // helper with release order, read by the decoder with acquire order). `status` and `finished` are set once, at its
  // end, under `lock`; `advanced` is signalled at each publication.
  int last_scan[4];
  _Atomic JDIMENSION done_rows[4];
  pthread_mutex_t lock;
  pthread_cond_t advanced;
  int finished;
  int status;  // the helper's outcome, once finished
  int synchronised;  // `lock` and `advanced` were made
};

// Writes one decoder's copy of the file into `out` and returns its length: for the decoder (`for_helper` 0), the
// bytes up to the first scan as they are, then every segment but the helper's scans; for the helper, an SOI and every
// segment but APPn, COM and the decoder's scans. Both end with an EOI.
static size_t ck_copy_segments(const uint8_t *d, const ck_scan_plan *plan, int for_helper, uint8_t *out) {
  size_t at = 0;
  if (for_helper) {
    out[at++] = 0xFF;
    out[at++] = 0xD8;
  } else {
    memcpy(out, d, plan->first_scan_start);  // as read: the decoder has read this far already
    at = plan->first_scan_start;
  }
  for (int i = 0; i < plan->count; i++) {
    const ck_segment *segment = &plan->segments[i];
    if (!for_helper && segment->start < plan->first_scan_start) continue;
    int keep = segment->kind == CK_SEGMENT_SCAN ? segment->helper == for_helper
                                                 : !(for_helper && segment->kind == CK_SEGMENT_APP);
    if (!keep) continue;
    memcpy(out + at, d + segment->start, segment->end - segment->start);
    at += segment->end - segment->start;
  }
  out[at++] = 0xFF;
  out[at++] = 0xD9;
  return at;
}

// Reads the file of a decoder reading a file descriptor, from where it started; NULL when the input is not a regular
// file, is larger than CK_SPLIT_MAX_FILE, or changes size.
static uint8_t *ck_read_whole_file(const ck_jpeg_decoder *dec, size_t *size) {
  struct stat st;
  if (dec->fd_origin < 0 || fstat(dec->fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= dec->fd_origin) {
    return NULL;
  }
  uint64_t length = (uint64_t)(st.st_size - dec->fd_origin);
  if (length > CK_SPLIT_MAX_FILE || length != (uint64_t)(size_t)length) return NULL;
  uint8_t *bytes = (uint8_t *)malloc((size_t)length);
  if (bytes == NULL) return NULL;
  size_t done = 0;
  while (done < length) {
    ssize_t got = pread(dec->fd, bytes + done, (size_t)length - done, dec->fd_origin + (off_t)done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      free(bytes);
      return NULL;
    }
    done += (size_t)got;
  }
  *size = done;
  return bytes;
}

// Reads the helper's scans into the decoder's arrays; returns its status.
static int ck_split_read(struct ck_split *split) {
  ck_jpeg_decoder *helper = split->helper;
  if (setjmp(helper->err.jump)) return helper->err.status;
  helper->phase = PHASE_HEADER;
  (void)jpeg_read_header(&helper->cinfo, TRUE);
  helper->phase = PHASE_DATA;
  helper->err.in_data_phase = 1;
  helper->cinfo.mem->max_memory_to_use = split->max_memory;
  ck_use_mapped_store(helper);
  (void)jpeg_read_coefficients(&helper->cinfo);
  return helper->err.eof_hit ? CK_JPEG_ERR_TRUNCATED : CK_JPEG_OK;
}

static void *ck_split_run(void *argument) {
  struct ck_split *split = (struct ck_split *)argument;
  ck_populate_mapped_stores_backwards(split->helper->lender);  // stops at once when run after the decoder's scans
  int status = ck_split_read(split);
  pthread_mutex_lock(&split->lock);
  split->status = status;
  split->finished = 1;
  if (status == CK_JPEG_OK) {
    for (int c = 0; c < 4; c++) atomic_store_explicit(&split->done_rows[c], UINT_MAX, memory_order_release);
  }
  pthread_cond_broadcast(&split->advanced);
  pthread_mutex_unlock(&split->lock);
  return NULL;
}

void ck_split_progress(ck_jpeg_decoder *helper, int component, JDIMENSION start_row) {
  struct ck_split *split = helper->lender->split;
  if (component < 0 || component >= 4 || helper->cinfo.input_scan_number != split->last_scan[component]) return;
  // The helper's last scan of the component asks for rows from `start_row`: every row above is final.
  atomic_store_explicit(&split->done_rows[component], start_row, memory_order_release);
  pthread_mutex_lock(&split->lock);
  pthread_cond_broadcast(&split->advanced);
  pthread_mutex_unlock(&split->lock);
}

void ck_split_wait(ck_jpeg_decoder *dec, int component, JDIMENSION end_row) {
  struct ck_split *split = dec->split;
  if (component < 0 || component >= 4 || split->last_scan[component] == 0) return;
  if (atomic_load_explicit(&split->done_rows[component], memory_order_acquire) >= end_row) return;
  pthread_mutex_lock(&split->lock);
  while (!split->finished && atomic_load_explicit(&split->done_rows[component], memory_order_acquire) < end_row) {
    pthread_cond_wait(&split->advanced, &split->lock);
  }
  int failed = split->finished && split->status != CK_JPEG_OK;
  pthread_mutex_unlock(&split->lock);
  if (failed) {
    ck_jpeg_decoder *helper = split->helper;
    ck_fail(&dec->err, split->status, helper->err.message_code, helper->err.message);
  }
}

int ck_split_begin(ck_jpeg_decoder *dec, long max_memory) {
  struct jpeg_decompress_struct *c = &dec->cinfo;
  if (dec->parallel_scans == CK_JPEG_PARALLEL_SCANS_OFF || !c->progressive_mode || c->arith_code ||
      c->data_precision != 8 || c->num_components > 4 || dec->err.eof_hit || dec->split != NULL) {
    return 0;
  }
  const uint8_t *whole;
  size_t size, position;
  uint8_t *read = NULL;
  if (dec->fd >= 0) {
    read = ck_read_whole_file(dec, &size);
    if (read == NULL) return 0;
    whole = read;
    position = (size_t)(dec->file_read - c->src->bytes_in_buffer);
  } else {
    whole = dec->data;
    size = dec->size;
    position = (size_t)(c->src->next_input_byte - dec->data);
  }
  struct ck_split *split = (struct ck_split *)calloc(1, sizeof(struct ck_split));
  if (split == NULL) {
    free(read);
    return 0;
  }
  size_t least = dec->parallel_scans == CK_JPEG_PARALLEL_SCANS_ALWAYS ? 1 : CK_SPLIT_MIN_HELPER_BYTES;
  int planned = size <= CK_SPLIT_MAX_FILE && ck_plan_split(whole, size, least, &split->plan);
  ck_scan_plan *plan = &split->plan;
  // The plan must describe what libjpeg read: the same components, and its first scan where libjpeg stands now.
  if (planned) {
    planned = plan->num_components == c->num_components && plan->first_scan_data == position &&
              (dec->max_scans <= 0 || plan->scans <= dec->max_scans);
    for (int ci = 0; planned && ci < c->num_components; ci++) {
      planned = plan->component_ids[ci] == c->comp_info[ci].component_id;
    }
  }
  if (planned) {
    for (int i = 0, number = 0; i < plan->count; i++) {
      const ck_segment *segment = &plan->segments[i];
      if (segment->kind != CK_SEGMENT_SCAN || !segment->helper) continue;
      number++;
      for (int ci = 0; ci < plan->num_components; ci++) {
        if (segment->components & (1u << ci)) split->last_scan[ci] = number;
      }
    }
    split->stream = (uint8_t *)malloc(size + 2);
    split->helper_stream = (uint8_t *)malloc(size + 4);
    planned = split->stream != NULL && split->helper_stream != NULL;
  }
  if (planned) {
    planned = pthread_mutex_init(&split->lock, NULL) == 0;
    if (planned && pthread_cond_init(&split->advanced, NULL) != 0) {
      pthread_mutex_destroy(&split->lock);
      planned = 0;
    }
    split->synchronised = planned;
  }
  if (planned) {
    size_t stream_size = ck_copy_segments(whole, plan, 0, split->stream);
    size_t helper_size = ck_copy_segments(whole, plan, 1, split->helper_stream);
    split->helper = ck_jpeg_decoder_create(split->helper_stream, helper_size, dec->err.strict);
    planned = split->helper != NULL;
    if (planned) {
      split->max_memory = max_memory;
      split->helper->lender = dec;
      // The helper reads AC scans whose components' DC scans the decoder has: the progression as a whole was
      // checked above, so libjpeg's warning about that says nothing.
      split->helper->err.ignore_bogus_progression = 1;
      split->helper->wants_own_progressive = !dec->libjpeg_entropy;  // as the decoder reads its own scans
      // From here on the decoder reads its copy, from where it stands.
      dec->fd = -1;
      dec->data = split->stream;
      dec->size = stream_size;
      c->src->next_input_byte = split->stream + position;
      c->src->bytes_in_buffer = stream_size - position;
    }
  }
  free(read);
  if (!planned) {
    ck_plan_free(plan);
    if (split->helper != NULL) ck_jpeg_decoder_destroy(split->helper);
    if (split->synchronised) {
      pthread_cond_destroy(&split->advanced);
      pthread_mutex_destroy(&split->lock);
    }
    free(split->stream);
    free(split->helper_stream);
    free(split);
    return 0;
  }
  dec->split = split;
  return 1;
}

void ck_split_launch(ck_jpeg_decoder *dec) {
  struct ck_split *split = dec->split;
  if (split == NULL || split->launched) return;
  // If no thread can be started the helper's scans are read after the decoder's, on this thread.
  split->launched = pthread_create(&split->thread, NULL, ck_split_run, split) == 0;
}

void ck_split_join(ck_jpeg_decoder *dec, int run_unlaunched) {
  struct ck_split *split = dec->split;
  if (split == NULL || split->joined) return;
  if (split->launched) {
    (void)pthread_join(split->thread, NULL);
  } else if (run_unlaunched) {
    (void)ck_split_run(split);
  } else {
    return;
  }
  split->joined = 1;
}

void ck_split_started(ck_jpeg_decoder *dec, ck_jpeg_output *output) {
  struct ck_split *split = dec->split;
  if (!split->launched) {
    // No second thread: the helper's scans are read here, before the output pass, as a serial decode would.
    ck_split_join(dec, 1);
    if (split->status != CK_JPEG_OK) {
      ck_fail(&dec->err, split->status, split->helper->err.message_code, split->helper->err.message);
    }
  }
  output->scans_read = split->plan.scans;
  output->helper_scans = split->plan.helper_scans;
  output->bytes_consumed = split->plan.eoi + 2;  // through the EOI, as a serial read
}

void ck_split_finish(ck_jpeg_decoder *dec) {
  struct ck_split *split = dec->split;
  if (split->joined && split->helper == NULL) return;  // finished already
  ck_split_join(dec, 1);
  ck_jpeg_decoder *helper = split->helper;
  int kept = helper->err.warning_count < CK_JPEG_MAX_WARNINGS ? helper->err.warning_count : CK_JPEG_MAX_WARNINGS;
  for (int i = 0; i < kept; i++) ck_record_warning(&dec->err, helper->err.warnings[i]);
  dec->err.warning_count += helper->err.warning_count - kept;
  // The decoder's record of the progression, completed with the helper's part (nothing reads it but checks).
  struct jpeg_decompress_struct *c = &dec->cinfo;
  if (c->coef_bits != NULL && helper->cinfo.coef_bits != NULL) {
    for (int ci = 0; ci < c->num_components; ci++) {
      for (int k = 0; k < DCTSIZE2; k++) {
        if (split->plan.helper_owns[ci][k]) c->coef_bits[ci][k] = helper->cinfo.coef_bits[ci][k];
      }
    }
  }
  dec->helper_own_progressive = helper->own_progressive;
  int status = split->status, code = helper->err.message_code;
  char message[CK_JPEG_MESSAGE_LENGTH];
  memcpy(message, helper->err.message, sizeof message);
  ck_jpeg_decoder_destroy(helper);  // its memory now; it borrowed the arrays, so they stay
  split->helper = NULL;
  if (status != CK_JPEG_OK) ck_fail(&dec->err, status, code, message);
}

void ck_split_free(ck_jpeg_decoder *dec) {
  struct ck_split *split = dec->split;
  if (split == NULL) return;
  ck_split_join(dec, 0);
  if (split->helper != NULL) ck_jpeg_decoder_destroy(split->helper);
  pthread_cond_destroy(&split->advanced);
  pthread_mutex_destroy(&split->lock);
  ck_plan_free(&split->plan);
  free(split->stream);
  free(split->helper_stream);
  free(split);
  dec->split = NULL;
}
