// A baseline JPEG encoded in stripes on two threads.
//
// libjpeg-turbo encodes one row of MCUs after another on one thread. With restart markers, though, the entropy-coded
// data falls into independent intervals: each starts with every DC predictor at zero and ends byte-aligned. So the
// picture is cut into stripes of R rows of MCUs, one restart interval each (DRI = R × MCUs per row), and each stripe is
// encoded as a small picture of its own by one of two worker threads: the same quality, subsampling and tables, so
// its entropy-coded data is, bit for bit, the interval a single encoder with that DRI writes. The file is the first
// stripe's header (its SOF given the whole height), the stripes' data in order with RST0…RST7 between them, and an EOI:
// byte-identical to libjpeg's own encode with that restart interval, and so the same pixels as without one, for about
// 2.5 bytes per stripe.
//
// Only baseline files with standard Huffman tables are striped (optimised tables and progressive scans need the whole
// picture). Rows are copied into stripe buffers as they come (at most CK_STRIPES_IN_FLIGHT stripes wait), so the
// caller goes on while the workers encode; each stripe's bytes go to the output, in order, as soon as the stripes
// before it have gone, so only the stripes in flight are held.

#include "shim_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/// Stripe height to aim for, in pixel rows, and how many raw stripes may wait for the workers.
enum { CK_STRIPE_TARGET_ROWS = 64, CK_STRIPES_IN_FLIGHT = 4, CK_STRIPE_WORKERS = 2 };
/// The smallest picture worth striping in CK_JPEG_STRIPES_AUTO: 1 megapixel.
#define CK_STRIPES_MIN_PIXELS ((uint64_t)1 << 20)

typedef struct {
  uint8_t *bytes;  // the stripe encoded as a picture of its own (malloc'd), or NULL until done
  size_t length;
} ck_stripe_result;

typedef struct {
  uint8_t *rows;  // stripe_rows rows of `stride` bytes
  int index;      // the stripe these rows are (-1: free)
  uint32_t height;
} ck_stripe_job;

struct ck_stripes {
  ck_jpeg_encode_params params;  // one stripe's: its height is set per stripe
  uint32_t height, stripe_rows, stripe_count;
  size_t stride;
  // Markers (APPn) for the first stripe's header, in order: concatenated (marker, 2-byte length, payload) records.
  uint8_t *markers;
  size_t markers_length;
  ck_stripe_result *results;
  ck_stripe_job jobs[CK_STRIPES_IN_FLIGHT];
  int filling;  // the job being filled by the caller, or -1
  uint32_t filled;  // rows in it
  uint32_t rows_received;
  // Under `lock`: jobs handed over and not yet taken (a FIFO of job slots), the first failure, whether to stop.
  pthread_mutex_t lock;
  pthread_cond_t changed;
  int queue[CK_STRIPES_IN_FLIGHT];
  int queued;
  int stopping;
  int status;
  char message[CK_JPEG_MESSAGE_LENGTH];
  pthread_t workers[CK_STRIPE_WORKERS];
  int worker_count;
  // The output, in order: the caller's thread hands the stripes on (`emit`) once those before them have gone.
  ck_stripes_emit emit;
  void *emit_context;
  uint32_t emitted;  // stripes handed on
};

int ck_jpeg_stripe_layout(const ck_jpeg_encode_params *p, uint32_t *stripe_rows, uint32_t *restart_interval) {
  *stripe_rows = 0;
  *restart_interval = 0;
  uint32_t mcu_width = p->components == 3 && p->subsampling > 0 ? 16 : 8;
  uint32_t mcu_height = p->components == 3 && p->subsampling == 2 ? 16 : 8;
  uint32_t per_row = (p->width + mcu_width - 1) / mcu_width;
  if (per_row == 0 || per_row > 65535) return 0;
  uint32_t mcu_rows = CK_STRIPE_TARGET_ROWS / mcu_height;
  if (mcu_rows * per_row > 65535) mcu_rows = 65535 / per_row;
  *stripe_rows = mcu_rows * mcu_height;
  *restart_interval = mcu_rows * per_row;
  return p->height > 2 * *stripe_rows;
}

// Encodes one stripe into a fresh buffer with a memory encoder; on failure records the first error.
static void ck_stripes_encode(struct ck_stripes *s, const ck_stripe_job *job) {
  ck_jpeg_encode_params p = s->params;
  p.height = job->height;
  ck_jpeg_encoder *enc = ck_jpeg_encoder_create();
  int status = enc == NULL ? CK_JPEG_ERR_MEMORY : ck_jpeg_encoder_start(enc, &p);
  for (size_t at = 0; status == CK_JPEG_OK && job->index == 0 && at < s->markers_length;) {
    int marker = s->markers[at];
    size_t length = (size_t)s->markers[at + 1] << 8 | s->markers[at + 2];
    status = ck_jpeg_encoder_write_marker(enc, marker, s->markers + at + 3, length);
    at += 3 + length;
  }
  if (status == CK_JPEG_OK) status = ck_jpeg_encoder_write_rows(enc, job->rows, s->stride, job->height);
  if (status == CK_JPEG_OK) status = ck_jpeg_encoder_finish(enc);
  size_t length = 0;
  const uint8_t *bytes = status == CK_JPEG_OK ? ck_jpeg_encoder_output(enc, &length) : NULL;
  uint8_t *copy = bytes != NULL ? (uint8_t *)malloc(length) : NULL;
  if (status == CK_JPEG_OK && copy == NULL) status = CK_JPEG_ERR_MEMORY;
  if (copy != NULL) memcpy(copy, bytes, length);
  pthread_mutex_lock(&s->lock);
  if (status == CK_JPEG_OK) {
    s->results[job->index].bytes = copy;
    s->results[job->index].length = length;
  } else if (s->status == CK_JPEG_OK) {
    s->status = status;
    snprintf(s->message, sizeof s->message, "%s", enc != NULL ? ck_jpeg_encoder_message(enc) : "Insufficient memory");
  }
  pthread_mutex_unlock(&s->lock);
  if (status != CK_JPEG_OK) free(copy);
  ck_jpeg_encoder_destroy(enc);
}

static void *ck_stripes_work(void *argument) {
  struct ck_stripes *s = (struct ck_stripes *)argument;
  pthread_mutex_lock(&s->lock);
  for (;;) {
    while (s->queued == 0 && !s->stopping) pthread_cond_wait(&s->changed, &s->lock);
    if (s->queued == 0) break;  // stopping, and nothing left
    int slot = s->queue[0];
    memmove(s->queue, s->queue + 1, (size_t)(s->queued - 1) * sizeof(int));
    s->queued--;
    pthread_mutex_unlock(&s->lock);
    ck_stripes_encode(s, &s->jobs[slot]);
    pthread_mutex_lock(&s->lock);
    s->jobs[slot].index = -1;  // free again
    pthread_cond_broadcast(&s->changed);
  }
  pthread_mutex_unlock(&s->lock);
  return NULL;
}

struct ck_stripes *ck_stripes_create(const ck_jpeg_encode_params *p, ck_stripes_emit emit, void *context) {
  uint32_t stripe_rows = 0, restart_interval = 0;
  if (!ck_jpeg_stripe_layout(p, &stripe_rows, &restart_interval) || p->progressive || p->optimize_coding ||
      p->restart_interval != 0) {
    return NULL;
  }
  if (p->stripes != CK_JPEG_STRIPES_ALWAYS && (uint64_t)p->width * p->height < CK_STRIPES_MIN_PIXELS) return NULL;
  struct ck_stripes *s = (struct ck_stripes *)calloc(1, sizeof(struct ck_stripes));
  if (s == NULL) return NULL;
  s->params = *p;
  s->params.restart_interval = (int32_t)restart_interval;
  s->params.stripes = CK_JPEG_STRIPES_OFF;
  s->height = p->height;
  s->stripe_rows = stripe_rows;
  s->stripe_count = (p->height + s->stripe_rows - 1) / s->stripe_rows;
  s->stride = (size_t)p->width * (size_t)p->components;
  s->filling = -1;
  s->emit = emit;
  s->emit_context = context;
  s->results = (ck_stripe_result *)calloc(s->stripe_count, sizeof(ck_stripe_result));
  int ok = s->results != NULL;
  for (int i = 0; ok && i < CK_STRIPES_IN_FLIGHT; i++) {
    s->jobs[i].index = -1;
    s->jobs[i].rows = (uint8_t *)malloc(s->stride * s->stripe_rows);
    ok = s->jobs[i].rows != NULL;
  }
  if (ok) ok = pthread_mutex_init(&s->lock, NULL) == 0;
  if (ok && pthread_cond_init(&s->changed, NULL) != 0) {
    pthread_mutex_destroy(&s->lock);
    ok = 0;
  }
  for (int i = 0; ok && i < CK_STRIPE_WORKERS; i++) {
    if (pthread_create(&s->workers[i], NULL, ck_stripes_work, s) == 0) s->worker_count++;
  }
  if (ok && s->worker_count == 0) {
    pthread_cond_destroy(&s->changed);
    pthread_mutex_destroy(&s->lock);
    ok = 0;
  }
  if (!ok) {
    for (int i = 0; i < CK_STRIPES_IN_FLIGHT; i++) free(s->jobs[i].rows);
    free(s->results);
    free(s);
    return NULL;
  }
  return s;
}

int ck_stripes_marker(struct ck_stripes *s, int marker, const uint8_t *data, size_t length) {
  if (s->rows_received != 0 || length > 65533 || marker < 0 || marker > 255) return CK_JPEG_ERR_USAGE;
  uint8_t *grown = (uint8_t *)realloc(s->markers, s->markers_length + 3 + length);
  if (grown == NULL) return CK_JPEG_ERR_MEMORY;
  s->markers = grown;
  s->markers[s->markers_length] = (uint8_t)marker;
  s->markers[s->markers_length + 1] = (uint8_t)(length >> 8);
  s->markers[s->markers_length + 2] = (uint8_t)length;
  memcpy(s->markers + s->markers_length + 3, data, length);
  s->markers_length += 3 + length;
  return CK_JPEG_OK;
}

static int ck_stripes_drain(struct ck_stripes *s, char *message);

// Hands the stripe being filled to the workers.
static void ck_stripes_submit(struct ck_stripes *s) {
  pthread_mutex_lock(&s->lock);
  s->jobs[s->filling].height = s->filled;
  s->queue[s->queued++] = s->filling;
  pthread_cond_broadcast(&s->changed);
  pthread_mutex_unlock(&s->lock);
  s->filling = -1;
  s->filled = 0;
}

int ck_stripes_write(struct ck_stripes *s, const uint8_t *src, size_t stride, uint32_t rows, char *message) {
  if (rows > s->height - s->rows_received) return CK_JPEG_ERR_USAGE;
  for (uint32_t done = 0; done < rows;) {
    if (s->filling < 0) {
      // Take a free slot, waiting for a worker to free one.
      pthread_mutex_lock(&s->lock);
      for (;;) {
        if (s->status != CK_JPEG_OK) break;
        for (int i = 0; i < CK_STRIPES_IN_FLIGHT && s->filling < 0; i++) {
          if (s->jobs[i].index < 0) s->filling = i;  // neither being filled, nor queued, nor being encoded
        }
        if (s->filling >= 0) break;
        pthread_cond_wait(&s->changed, &s->lock);
      }
      int status = s->status;
      if (status != CK_JPEG_OK) snprintf(message, CK_JPEG_MESSAGE_LENGTH, "%s", s->message);
      if (s->filling >= 0) s->jobs[s->filling].index = (int)(s->rows_received / s->stripe_rows);
      pthread_mutex_unlock(&s->lock);
      if (status != CK_JPEG_OK) return status;
    }
    uint32_t take = s->stripe_rows - s->filled;
    if (take > rows - done) take = rows - done;
    for (uint32_t i = 0; i < take; i++) {
      memcpy(s->jobs[s->filling].rows + (size_t)(s->filled + i) * s->stride, src + (size_t)(done + i) * stride,
             s->stride);
    }
    s->filled += take;
    s->rows_received += take;
    done += take;
    if (s->filled == s->stripe_rows || s->rows_received == s->height) {
      ck_stripes_submit(s);
      int status = ck_stripes_drain(s, message);
      if (status != CK_JPEG_OK) return status;
    }
  }
  return CK_JPEG_OK;
}

// Stops the workers once the queue is empty and waits for them.
static void ck_stripes_join(struct ck_stripes *s) {
  if (s->worker_count == 0) return;
  pthread_mutex_lock(&s->lock);
  s->stopping = 1;
  pthread_cond_broadcast(&s->changed);
  pthread_mutex_unlock(&s->lock);
  for (int i = 0; i < s->worker_count; i++) (void)pthread_join(s->workers[i], NULL);
  s->worker_count = 0;
}

// Where a picture's entropy-coded data starts (after its SOS segment) and its SOF0's height field; 0 when the bytes
// are not the baseline file libjpeg writes.
static size_t ck_stripes_scan_start(const uint8_t *d, size_t n, size_t *height_at) {
  size_t i = 2;
  while (i + 4 <= n && d[i] == 0xFF) {
    uint8_t marker = d[i + 1];
    size_t length = (size_t)d[i + 2] << 8 | d[i + 3];
    if (i + 2 + length > n) return 0;
    if (marker == 0xC0 && height_at != NULL) *height_at = i + 5;
    if (marker == 0xDA) return i + 2 + length;
    i += 2 + length;
  }
  return 0;
}

// Hands on every finished stripe whose predecessors have gone: the first with its header (its SOF given the whole
// height), the others after their RST marker. Call on the caller's thread, without the lock.
static int ck_stripes_drain(struct ck_stripes *s, char *message) {
  for (;;) {
    pthread_mutex_lock(&s->lock);
    ck_stripe_result result = s->emitted < s->stripe_count ? s->results[s->emitted] : (ck_stripe_result){NULL, 0};
    pthread_mutex_unlock(&s->lock);
    if (result.bytes == NULL) return CK_JPEG_OK;
    uint32_t i = s->emitted;
    size_t height_at = 0;
    size_t start = ck_stripes_scan_start(result.bytes, result.length, i == 0 ? &height_at : NULL);
    if (start == 0 || result.length < start + 2 || result.bytes[result.length - 2] != 0xFF ||
        result.bytes[result.length - 1] != 0xD9 || (i == 0 && height_at == 0)) {
      snprintf(message, CK_JPEG_MESSAGE_LENGTH, "stripe %u of the JPEG is not what libjpeg writes", i);
      return CK_JPEG_ERR_CORRUPT;
    }
    int status;
    if (i == 0) {
      result.bytes[height_at] = (uint8_t)(s->height >> 8);
      result.bytes[height_at + 1] = (uint8_t)s->height;
      status = s->emit(s->emit_context, result.bytes, result.length - 2);  // SOI … SOS, the data; not the EOI
    } else {
      const uint8_t restart[2] = {0xFF, (uint8_t)(0xD0 + (i - 1) % 8)};
      status = s->emit(s->emit_context, restart, 2);
      if (status == CK_JPEG_OK) status = s->emit(s->emit_context, result.bytes + start, result.length - 2 - start);
    }
    if (status != CK_JPEG_OK) return status;
    pthread_mutex_lock(&s->lock);
    free(s->results[i].bytes);
    s->results[i].bytes = NULL;
    s->emitted++;
    pthread_mutex_unlock(&s->lock);
  }
}

int ck_stripes_finish(struct ck_stripes *s, char *message) {
  if (s->rows_received != s->height) return CK_JPEG_ERR_USAGE;
  ck_stripes_join(s);
  if (s->status != CK_JPEG_OK) {
    snprintf(message, CK_JPEG_MESSAGE_LENGTH, "%s", s->message);
    return s->status;
  }
  int status = ck_stripes_drain(s, message);
  if (status != CK_JPEG_OK) return status;
  if (s->emitted != s->stripe_count) {
    snprintf(message, CK_JPEG_MESSAGE_LENGTH, "%u of %u JPEG stripes were encoded", s->emitted, s->stripe_count);
    return CK_JPEG_ERR_CORRUPT;
  }
  const uint8_t end[2] = {0xFF, 0xD9};
  return s->emit(s->emit_context, end, 2);
}

void ck_stripes_destroy(struct ck_stripes *s) {
  if (s == NULL) return;
  ck_stripes_join(s);
  pthread_cond_destroy(&s->changed);
  pthread_mutex_destroy(&s->lock);
  for (uint32_t i = 0; i < s->stripe_count; i++) free(s->results[i].bytes);
  for (int i = 0; i < CK_STRIPES_IN_FLIGHT; i++) free(s->jobs[i].rows);
  free(s->results);
  free(s->markers);
  free(s);
}
