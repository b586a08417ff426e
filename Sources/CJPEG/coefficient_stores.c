// The JPEG decoder's coefficient stores: where libjpeg keeps a whole image's DCT coefficients, installed through its
// memory manager's virtual-array methods. Each store states its invariant below.

#include "shim_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

// MARK: - DC coefficient store

// In the DC-only early stop (CK_JPEG_EARLY_STOP_DC), libjpeg's whole-image coefficient arrays (64 coefficients per
// 8×8 block: 72 MB for a 24-megapixel 4:2:0 photo, every byte touched by the first scan) are replaced through the
// memory manager's virtual-array methods by a store of DC coefficients alone (2 bytes per block) and a window of
// full blocks for the rows libjpeg is working on.
//
// Invariant: `dc` holds every block's DC coefficient, except for the window's rows while the window is writable,
// where the window holds the newer value (written back on the next access). The window's AC coefficients are zero
// unless `window_ac_dirty` (an AC scan wrote into it), and are zeroed before the window is filled again. AC
// coefficients are thus never kept: the output pass sees DC-only blocks, which is all the 1×1 IDCT reads.
typedef struct {
  JDIMENSION blocks_per_row, rows, max_access;
  JCOEF *dc;               // rows × blocks_per_row
  JBLOCKARRAY window;      // window_capacity rows of blocks_per_row blocks
  JDIMENSION window_capacity;
  JDIMENSION window_first, window_rows;
  boolean window_writable;
  boolean window_ac_dirty;
} ck_dc_store;

// The checks both coefficient stores make: a request must be for the image pool with positive sizes, and an access
// must stay within the array and its declared maximum.
static void ck_check_request(j_common_ptr cinfo, int pool_id, JDIMENSION blocks_per_row, JDIMENSION rows,
                             JDIMENSION max_access) {
  if (pool_id != JPOOL_IMAGE || blocks_per_row == 0 || rows == 0 || max_access == 0)
    ERREXIT1(cinfo, JERR_BAD_POOL_ID, pool_id);
}

static void ck_check_access(j_common_ptr cinfo, JDIMENSION rows, JDIMENSION max_access, JDIMENSION start_row,
                            JDIMENSION num_rows) {
  if (num_rows > max_access || start_row > rows || num_rows > rows - start_row) ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
}

static jvirt_barray_ptr ck_dc_request(j_common_ptr cinfo, int pool_id, boolean pre_zero, JDIMENSION blocks_per_row,
                                      JDIMENSION rows, JDIMENSION max_access) {
  (void)pre_zero;  // the store always starts at zero
  ck_check_request(cinfo, pool_id, blocks_per_row, rows, max_access);
  ck_jpeg_decoder *dec = (ck_jpeg_decoder *)cinfo->client_data;
  ck_dc_store *store = (ck_dc_store *)(*cinfo->mem->alloc_small)(cinfo, JPOOL_IMAGE, sizeof(ck_dc_store));
  memset(store, 0, sizeof *store);
  store->blocks_per_row = blocks_per_row;
  store->rows = rows;
  store->max_access = max_access;
  size_t dc_bytes = (size_t)blocks_per_row * rows * sizeof(JCOEF);
  store->dc = (JCOEF *)(*cinfo->mem->alloc_large)(cinfo, JPOOL_IMAGE, dc_bytes);
  memset(store->dc, 0, dc_bytes);
  dec->coefficient_bytes += dc_bytes;
  if (dec->dc_requests < MAX_COMPONENTS) {
    dec->dc_values[dec->dc_requests] = (ck_dc_values){(jvirt_barray_ptr)(void *)store, store->dc, blocks_per_row};
  }
  dec->dc_requests++;
  return (jvirt_barray_ptr)(void *)store;
}

// Makes the window at least `rows` rows tall. libjpeg asks for room for 5 iMCU rows (for block smoothing, which is
// off) but reads one at a time, so the window is sized by the accesses actually made. A taller window replaces the
// old one, which stays in the image pool until the image is done (this happens at most a few times).
static void ck_dc_grow_window(j_common_ptr cinfo, ck_dc_store *store, JDIMENSION rows) {
  if (rows <= store->window_capacity) return;
  ck_jpeg_decoder *dec = (ck_jpeg_decoder *)cinfo->client_data;
  size_t window_bytes = (size_t)store->blocks_per_row * rows * sizeof(JBLOCK);
  JBLOCKROW blocks = (JBLOCKROW)(*cinfo->mem->alloc_large)(cinfo, JPOOL_IMAGE, window_bytes);
  memset(blocks, 0, window_bytes);
  JBLOCKARRAY window = (JBLOCKARRAY)(*cinfo->mem->alloc_small)(cinfo, JPOOL_IMAGE, rows * sizeof(JBLOCKROW));
  for (JDIMENSION r = 0; r < rows; r++) window[r] = blocks + (size_t)r * store->blocks_per_row;
  store->window = window;
  store->window_capacity = rows;
  store->window_rows = 0;  // the old window was written back by the caller
  store->window_writable = FALSE;
  store->window_ac_dirty = FALSE;
  dec->coefficient_bytes += window_bytes;
}

static void ck_dc_realize(j_common_ptr cinfo) {
  (void)cinfo;  // every store was allocated when requested
}

static JBLOCKARRAY ck_dc_access(j_common_ptr cinfo, jvirt_barray_ptr ptr, JDIMENSION start_row, JDIMENSION num_rows,
                                boolean writable) {
  ck_dc_store *store = (ck_dc_store *)(void *)ptr;
  ck_check_access(cinfo, store->rows, store->max_access, start_row, num_rows);
  const JDIMENSION width = store->blocks_per_row;
  if (store->window_writable) {
    for (JDIMENSION r = 0; r < store->window_rows; r++) {
      JCOEF *dc = store->dc + (size_t)(store->window_first + r) * width;
      JBLOCKROW row = store->window[r];
      for (JDIMENSION b = 0; b < width; b++) dc[b] = row[b][0];
    }
  }
  if (store->window_ac_dirty && store->window_capacity > 0) {
    memset(store->window[0], 0, (size_t)width * store->window_capacity * sizeof(JBLOCK));
    store->window_ac_dirty = FALSE;
  }
  ck_dc_grow_window(cinfo, store, num_rows);
  for (JDIMENSION r = 0; r < num_rows; r++) {
    const JCOEF *dc = store->dc + (size_t)(start_row + r) * width;
    JBLOCKROW row = store->window[r];
    for (JDIMENSION b = 0; b < width; b++) row[b][0] = dc[b];
  }
  store->window_first = start_row;
  store->window_rows = num_rows;
  store->window_writable = writable;
  // An AC scan (Se > 0) writes AC coefficients into the window: zero them before it shows other rows.
  if (writable && ((j_decompress_ptr)cinfo)->Se > 0) store->window_ac_dirty = TRUE;
  return store->window;
}

// Routes the coefficient controller's whole-image arrays to DC stores. Call before jpeg_start_decompress.
void ck_use_dc_store(ck_jpeg_decoder *dec) {
  dec->cinfo.mem->request_virt_barray = ck_dc_request;
  dec->cinfo.mem->realize_virt_arrays = ck_dc_realize;
  dec->cinfo.mem->access_virt_barray = ck_dc_access;
}

// MARK: - Mapped coefficient store

// A multi-scan file (progressive, or sequential with a scan per component) keeps every coefficient of the image
// while its scans arrive: libjpeg's whole-image arrays, 72 MB for a 24-megapixel 4:2:0 photo, every page touched by
// the first scan. libjpeg takes them from malloc and zeroes them, and each 4 KiB page then costs the kernel a fault
// and a clear: about a third of a 1/4-scale decode. This store maps each array as one anonymous mapping, which is
// already zero, and asks for transparent huge pages (MADV_HUGEPAGE, where the system offers them), so one fault
// covers 2 MiB. A 6000×4000 progressive photo then decodes at 1/4 scale in about 79 ms instead of 116 ms, and in
// full in 96 ms instead of 130 ms; without huge pages (THP off) it is as fast as libjpeg's own arrays. As with any
// MADV_HUGEPAGE memory, a kernel set to defragment for it ("madvise") may compact memory on the first faults.
//
// Invariant: every store on `dec->mapped` is malloc'd and owns `length` bytes at `base` (NULL until realized) until
// ck_free_mapped_stores; `row_pointers` (in libjpeg's image pool) points at its `rows` block rows once realized. A
// helper decoder's store (one with a `lender`) owns nothing: its `base` stays NULL and its `row_pointers` are the
// lender's. libjpeg's memory limit applies as to its own arrays: more than max_memory_to_use bytes of them is
// JERR_NO_BACKING_STORE.
typedef struct ck_mapped_store {
  int index;  // the order of its request: libjpeg's coefficient controller asks for one array per component, in order
  JDIMENSION blocks_per_row, rows, max_access;
  size_t row_bytes;  // blocks_per_row blocks
  JBLOCKARRAY row_pointers;
  void *base;
  size_t length;
  struct ck_mapped_store *next;
} ck_mapped_store;

enum { CK_HUGE_PAGE = 2 << 20 };

static jvirt_barray_ptr ck_mapped_request(j_common_ptr cinfo, int pool_id, boolean pre_zero,
                                          JDIMENSION blocks_per_row, JDIMENSION rows, JDIMENSION max_access) {
  (void)pre_zero;  // a fresh mapping is zero
  ck_check_request(cinfo, pool_id, blocks_per_row, rows, max_access);
  ck_jpeg_decoder *dec = (ck_jpeg_decoder *)cinfo->client_data;
  ck_mapped_store *store = (ck_mapped_store *)calloc(1, sizeof(ck_mapped_store));
  if (store == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
  store->blocks_per_row = blocks_per_row;
  store->rows = rows;
  store->max_access = max_access;
  store->row_bytes = (size_t)blocks_per_row * sizeof(JBLOCK);
  store->index = dec->mapped_requests++;
  store->next = dec->mapped;
  dec->mapped = store;
  return (jvirt_barray_ptr)(void *)store;
}

// A helper decoder's stores (parallel_scans.c) are the decoder's: the same memory, written at other coefficients.
// Each points at the lender's store of the same index, which must have the same shape and exist already.
static void ck_mapped_borrow(j_common_ptr cinfo, ck_jpeg_decoder *dec) {
  for (ck_mapped_store *s = dec->mapped; s != NULL; s = s->next) {
    if (s->row_pointers != NULL) continue;
    const ck_mapped_store *lent = dec->lender->mapped;
    while (lent != NULL && lent->index != s->index) lent = lent->next;
    if (lent == NULL || lent->row_pointers == NULL || lent->blocks_per_row != s->blocks_per_row ||
        lent->rows != s->rows) {
      ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
    }
    s->row_pointers = lent->row_pointers;  // the lender's image pool outlives the helper
  }
}

static void ck_mapped_realize(j_common_ptr cinfo) {
  ck_jpeg_decoder *dec = (ck_jpeg_decoder *)cinfo->client_data;
  dec->libjpeg_realize(cinfo);  // any arrays libjpeg manages itself (none while decoding without quantization)
  // The entropy decoder exists and the first scan has not started: CropKit's reader of refinement scans goes in now.
  if (dec->wants_own_progressive) dec->own_progressive = ck_install_progressive_decoder((j_decompress_ptr)cinfo);
  if (dec->lender != NULL) {
    ck_mapped_borrow(cinfo, dec);
    return;
  }
  size_t total = 0;
  for (ck_mapped_store *s = dec->mapped; s != NULL; s = s->next) {
    if (s->base != NULL) continue;
    if (s->rows > (SIZE_MAX / 4 - CK_HUGE_PAGE) / s->row_bytes) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
    s->length = (s->row_bytes * s->rows + CK_HUGE_PAGE - 1) / CK_HUGE_PAGE * CK_HUGE_PAGE;
    total += s->length;
  }
  long limit = cinfo->mem->max_memory_to_use;
  if (limit > 0 && total > (size_t)limit) ERREXIT(cinfo, JERR_NO_BACKING_STORE);
  for (ck_mapped_store *s = dec->mapped; s != NULL; s = s->next) {
    if (s->base != NULL) continue;
    void *base = mmap(NULL, s->length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
      s->length = 0;
      ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 2);
    }
    s->base = base;
#ifdef MADV_HUGEPAGE
    (void)madvise(base, s->length, MADV_HUGEPAGE);  // a hint: 4 KiB pages where refused
#endif
    s->row_pointers = (JBLOCKARRAY)(*cinfo->mem->alloc_large)(cinfo, JPOOL_IMAGE, s->rows * sizeof(JBLOCKROW));
    for (JDIMENSION r = 0; r < s->rows; r++) s->row_pointers[r] = (JBLOCKROW)((char *)base + r * s->row_bytes);
  }
  ck_split_launch(dec);  // a helper reading some of the scans can start now that the arrays exist
}

static JBLOCKARRAY ck_mapped_access(j_common_ptr cinfo, jvirt_barray_ptr ptr, JDIMENSION start_row,
                                    JDIMENSION num_rows, boolean writable) {
  ck_mapped_store *store = (ck_mapped_store *)(void *)ptr;
  if (store->row_pointers == NULL) ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);  // not realized
  ck_check_access(cinfo, store->rows, store->max_access, start_row, num_rows);
  ck_jpeg_decoder *dec = (ck_jpeg_decoder *)cinfo->client_data;
  if (dec->lender != NULL && writable) {
    ck_split_progress(dec, store->index, start_row);  // a helper reading its scans
  } else if (dec->split != NULL && !writable) {
    ck_split_wait(dec, store->index, start_row + num_rows);  // the output pass, behind the helper
  }
  return store->row_pointers + start_row;
}

// Routes the whole-image coefficient arrays to mapped stores. Call before jpeg_start_decompress.
void ck_use_mapped_store(ck_jpeg_decoder *dec) {
  dec->libjpeg_realize = dec->cinfo.mem->realize_virt_arrays;
  dec->cinfo.mem->request_virt_barray = ck_mapped_request;
  dec->cinfo.mem->realize_virt_arrays = ck_mapped_realize;
  dec->cinfo.mem->access_virt_barray = ck_mapped_access;
}

#if defined(__linux__) && !defined(MADV_POPULATE_WRITE)
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels refuse it (EINVAL) and nothing is populated
#endif

// The first scan of a progressive file touches every block of every array, top to bottom, and its thread spends most
// of that scan in the kernel, faulting and clearing the fresh pages (on a virtual machine whose host backs memory
// lazily, a cold 2 MiB page costs far more than its clear). The helper thread, which has scans of its own to read
// later, first faults the arrays in from their ends backwards, 2 MiB at a time and every array in proportion, until it
// meets pages the decoder has touched: the two threads share the faults instead of one thread taking them all.
void ck_populate_mapped_stores_backwards(ck_jpeg_decoder *dec) {
#ifndef MADV_POPULATE_WRITE
  (void)dec;  // not Linux: the decoder takes the faults
#else
  enum { MAX_STORES = 4 };
  ck_mapped_store *stores[MAX_STORES];
  size_t chunks[MAX_STORES], next[MAX_STORES];  // next: chunks still to populate, from the end
  int n = 0;
  size_t most = 0;
  for (ck_mapped_store *s = dec->mapped; s != NULL && n < MAX_STORES; s = s->next) {
    if (s->base == NULL || s->length == 0) continue;
    stores[n] = s;
    chunks[n] = next[n] = s->length / CK_HUGE_PAGE;
    if (chunks[n] > most) most = chunks[n];
    n++;
  }
  for (size_t step = 1; step <= most; step++) {
    int active = 0;
    for (int i = 0; i < n; i++) {
      // This store's share of the first `step` of `most` steps, counted from its end.
      size_t until = chunks[i] - (chunks[i] * step + most - 1) / most;
      while (next[i] > until) {
        char *chunk = (char *)stores[i]->base + (next[i] - 1) * (size_t)CK_HUGE_PAGE;
        unsigned char resident = 0;
        if (mincore(chunk, 1, &resident) != 0 || (resident & 1) ||
            madvise(chunk, CK_HUGE_PAGE, MADV_POPULATE_WRITE) != 0) {
          next[i] = 0;  // met the decoder's pages (or the kernel said no): this array is done
          break;
        }
        next[i]--;
      }
      if (next[i] > 0) active = 1;
    }
    if (!active) break;
  }
#endif
}

void ck_free_mapped_stores(ck_jpeg_decoder *dec) {
  while (dec->mapped != NULL) {
    ck_mapped_store *next = dec->mapped->next;
    if (dec->mapped->base != NULL) munmap(dec->mapped->base, dec->mapped->length);
    free(dec->mapped);
    dec->mapped = next;
  }
}

