// libjpeg-turbo behind setjmp/longjmp guards: the decoder and the encoder. See include/cjpeg_shim.h for the contract,
// and shim_internal.h for what the other parts (errors.c, coefficient_stores.c, ac_skipping_decoder.c) give them.

#include "shim_internal.h"
#include "ac_skipping_decoder.h"

// CropCodecs' ShimStatus maps the status codes of both shims with one table: keep the numbers in step.
_Static_assert(CK_JPEG_OK == 0 && CK_JPEG_ERR_CORRUPT == 1 && CK_JPEG_ERR_TRUNCATED == 2 && CK_JPEG_ERR_STRICT_WARNING == 3 && CK_JPEG_ERR_MEMORY == 5 && CK_JPEG_ERR_USAGE == 8 && CK_JPEG_ERR_NOT_JPEG == 6,
               "status codes must match CropCodecs' ShimStatus");

#include <jerror.h>
#include <errno.h>
#include <setjmp.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>


static const JOCTET ck_fake_eoi[2] = {0xFF, JPEG_EOI};

static void ck_src_init(j_decompress_ptr cinfo) { (void)cinfo; }

// Reads the next chunk of a file input; returns the bytes read (0 at the end of the file). Fails on a read error.
static size_t ck_src_read(ck_jpeg_decoder *dec) {
  for (;;) {
    ssize_t n = read(dec->fd, dec->input, CK_JPEG_IO_CHUNK);
    if (n >= 0) {
      dec->file_read += (uint64_t)n;
      return (size_t)n;
    }
    if (errno == EINTR) continue;
    char buffer[CK_JPEG_MESSAGE_LENGTH];
    snprintf(buffer, sizeof buffer, "cannot read the input: %s", strerror(errno));
    ck_fail(&dec->err, CK_JPEG_ERR_IO, -1, buffer);
  }
}

static boolean ck_src_fill(j_decompress_ptr cinfo) {
  ck_jpeg_decoder *dec = (ck_jpeg_decoder *)cinfo->client_data;
  if (dec->fd >= 0) {
    size_t n = ck_src_read(dec);
    if (n > 0) {
      cinfo->src->next_input_byte = dec->input;
      cinfo->src->bytes_in_buffer = n;
      return TRUE;
    }
  }
  if (dec->phase == PHASE_HEADER) {
    ck_fail(&dec->err, CK_JPEG_ERR_TRUNCATED, JERR_INPUT_EOF,
            "Premature end of JPEG data in the header (the file is truncated)");
  }
  // Hand libjpeg an EOI marker, as its own memory source does, and remember that the data ran out. Whether that is
  // truncation (data needed) or only a missing EOI is decided by whoever sees the consequences.
  dec->err.eof_hit = 1;
  cinfo->src->next_input_byte = ck_fake_eoi;
  cinfo->src->bytes_in_buffer = 2;
  return TRUE;
}

static void ck_src_skip(j_decompress_ptr cinfo, long num_bytes) {
  struct jpeg_source_mgr *src = cinfo->src;
  ck_jpeg_decoder *dec = (ck_jpeg_decoder *)cinfo->client_data;
  if (num_bytes <= 0) return;
  if ((size_t)num_bytes > src->bytes_in_buffer) {
    if (dec->fd >= 0 && src->next_input_byte != ck_fake_eoi) {
      // Skip the rest in the file; a seek past its end reads as the end of the data next time.
      off_t rest = (off_t)((size_t)num_bytes - src->bytes_in_buffer);
      src->bytes_in_buffer = 0;
      dec->file_read += (uint64_t)rest;
      if (lseek(dec->fd, rest, SEEK_CUR) < 0) {
        char buffer[CK_JPEG_MESSAGE_LENGTH];
        snprintf(buffer, sizeof buffer, "cannot skip in the input: %s", strerror(errno));
        ck_fail(&dec->err, CK_JPEG_ERR_IO, -1, buffer);
      }
      (void)ck_src_fill(cinfo);
      return;
    }
    // Skipping past the end: the data has run out.
    src->bytes_in_buffer = 0;
    (void)ck_src_fill(cinfo);
    return;
  }
  src->next_input_byte += num_bytes;
  src->bytes_in_buffer -= (size_t)num_bytes;
}

static void ck_src_term(j_decompress_ptr cinfo) { (void)cinfo; }

// Reads one byte through the source manager (which longjmps on a header truncation).
static int ck_next_byte(j_decompress_ptr cinfo) {
  struct jpeg_source_mgr *src = cinfo->src;
  if (src->bytes_in_buffer == 0) (void)(*src->fill_input_buffer)(cinfo);
  src->bytes_in_buffer--;
  return *src->next_input_byte++;
}

// The APP1/APP2 marker processor. Unlike jpeg_save_markers, which keeps every marker, it keeps only what CropKit
// uses, so memory stays bounded however many markers a file has: the first EXIF APP1 (64 KB at most) and the first
// 255 ICC APP2 segments (16 MB at most). Everything else is skipped.
static boolean ck_read_app_marker(j_decompress_ptr cinfo) {
  ck_jpeg_decoder *dec = (ck_jpeg_decoder *)cinfo->client_data;
  int high = ck_next_byte(cinfo);
  int low = ck_next_byte(cinfo);
  long length = (long)((high << 8) | low) - 2;
  if (length < 0) ck_fail(&dec->err, CK_JPEG_ERR_CORRUPT, JERR_BAD_LENGTH, "Bogus marker length");
  struct jpeg_source_mgr *src = cinfo->src;
  size_t filled = 0;
  while (filled < (size_t)length) {
    if (src->bytes_in_buffer == 0) (void)(*src->fill_input_buffer)(cinfo);
    size_t n = (size_t)length - filled;
    if (n > src->bytes_in_buffer) n = src->bytes_in_buffer;
    memcpy(dec->marker_buffer + filled, src->next_input_byte, n);
    src->next_input_byte += n;
    src->bytes_in_buffer -= n;
    filled += n;
  }
  const uint8_t *payload = dec->marker_buffer;
  size_t size = (size_t)length;
  if (cinfo->unread_marker == JPEG_APP0 + 1 && dec->exif == NULL && size > 6 && memcmp(payload, "Exif\0", 5) == 0) {
    dec->exif = (uint8_t *)malloc(size);
    if (dec->exif == NULL) ck_fail(&dec->err, CK_JPEG_ERR_MEMORY, JERR_OUT_OF_MEMORY, "Insufficient memory");
    memcpy(dec->exif, payload, size);
    dec->exif_length = size;
  } else if (cinfo->unread_marker == JPEG_APP0 + 2 && size >= 14 && memcmp(payload, "ICC_PROFILE\0", 12) == 0) {
    if (dec->icc_count >= CK_JPEG_MAX_ICC_SEGMENTS) {
      dec->icc_dropped++;
    } else {
      uint8_t *copy = (uint8_t *)malloc(size);
      if (copy == NULL) ck_fail(&dec->err, CK_JPEG_ERR_MEMORY, JERR_OUT_OF_MEMORY, "Insufficient memory");
      memcpy(copy, payload, size);
      dec->icc[dec->icc_count] = copy;
      dec->icc_length[dec->icc_count] = size;
      dec->icc_count++;
    }
  }
  return TRUE;
}

static void ck_progress(j_common_ptr cinfo) {
  j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
  ck_jpeg_decoder *dec = (ck_jpeg_decoder *)dinfo->client_data;
  if (dec->max_scans > 0 && dinfo->input_scan_number > dec->max_scans) {
    char buffer[CK_JPEG_MESSAGE_LENGTH];
    snprintf(buffer, sizeof buffer, "Progressive JPEG has more than %d scans", dec->max_scans);
    ck_fail(&dec->err, CK_JPEG_ERR_TOO_MANY_SCANS, -1, buffer);
  }
}

static ck_jpeg_decoder *ck_decoder_new(const uint8_t *data, size_t size, int fd, int strict) {
  ck_jpeg_decoder *dec = (ck_jpeg_decoder *)calloc(1, sizeof(ck_jpeg_decoder));
  if (dec == NULL) return NULL;
  dec->marker_buffer = (uint8_t *)malloc(65536);
  dec->input = fd >= 0 ? (uint8_t *)malloc(CK_JPEG_IO_CHUNK) : NULL;
  if (dec->marker_buffer == NULL || (fd >= 0 && dec->input == NULL)) {
    free(dec->marker_buffer);
    free(dec->input);
    free(dec);
    return NULL;
  }
  ck_init_error(&dec->err, strict);
  dec->data = data;
  dec->size = size;
  dec->fd = fd;
  dec->fd_origin = fd >= 0 ? lseek(fd, 0, SEEK_CUR) : -1;
  dec->cinfo.err = &dec->err.pub;
  if (setjmp(dec->err.jump)) {
    free(dec->marker_buffer);
    free(dec->input);
    free(dec);
    return NULL;
  }
  jpeg_create_decompress(&dec->cinfo);
  dec->created = 1;
  dec->cinfo.client_data = dec;
  dec->src.init_source = ck_src_init;
  dec->src.fill_input_buffer = ck_src_fill;
  dec->src.skip_input_data = ck_src_skip;
  dec->src.resync_to_restart = jpeg_resync_to_restart;
  dec->src.term_source = ck_src_term;
  dec->src.next_input_byte = data;
  dec->src.bytes_in_buffer = size;
  dec->cinfo.src = &dec->src;
  dec->progress.progress_monitor = ck_progress;
  jpeg_set_marker_processor(&dec->cinfo, JPEG_APP0 + 1, ck_read_app_marker);
  jpeg_set_marker_processor(&dec->cinfo, JPEG_APP0 + 2, ck_read_app_marker);
  return dec;
}

ck_jpeg_decoder *ck_jpeg_decoder_create(const uint8_t *data, size_t size, int strict) {
  return ck_decoder_new(data, size, -1, strict);
}

ck_jpeg_decoder *ck_jpeg_decoder_create_fd(int fd, int strict) {
  if (fd < 0) return NULL;
  return ck_decoder_new(NULL, 0, fd, strict);
}

void ck_jpeg_decoder_destroy(ck_jpeg_decoder *dec) {
  if (dec == NULL) return;
  ck_split_free(dec);  // first: a helper may still be writing into this decoder's coefficient arrays
  if (dec->created) {
    // jpeg_destroy only frees memory pools; it cannot fail, but guard anyway so no longjmp can escape.
    if (setjmp(dec->err.jump) == 0) jpeg_destroy_decompress(&dec->cinfo);
  }
  ck_free_mapped_stores(dec);
  free(dec->scratch);
  free(dec->input);
  free(dec->marker_buffer);
  free(dec->exif);
  for (int i = 0; i < dec->icc_count; i++) free(dec->icc[i]);
  free(dec);
}

int ck_jpeg_decoder_read_header(ck_jpeg_decoder *dec, ck_jpeg_header *header) {
  memset(header, 0, sizeof(*header));
  if (dec->state != STATE_NEW) return CK_JPEG_ERR_USAGE;
  dec->phase = PHASE_HEADER;
  if (setjmp(dec->err.jump)) return dec->err.status;
  (void)jpeg_read_header(&dec->cinfo, TRUE);
  dec->state = STATE_HEADER;
  struct jpeg_decompress_struct *c = &dec->cinfo;
  header->width = c->image_width;
  header->height = c->image_height;
  header->components = c->num_components;
  header->color_space = (int32_t)c->jpeg_color_space;
  header->progressive = c->progressive_mode ? 1 : 0;
  header->arithmetic = c->arith_code ? 1 : 0;
  header->data_precision = c->data_precision;
  header->saw_adobe_marker = c->saw_Adobe_marker ? 1 : 0;
  header->adobe_transform = c->Adobe_transform;
  header->saw_jfif_marker = c->saw_JFIF_marker ? 1 : 0;
  for (int i = 0; i < 4 && i < c->num_components; i++) {
    header->h_samp[i] = c->comp_info[i].h_samp_factor;
    header->v_samp[i] = c->comp_info[i].v_samp_factor;
  }
  return CK_JPEG_OK;
}

int ck_jpeg_decoder_exif(const ck_jpeg_decoder *dec, const uint8_t **data, size_t *length) {
  *data = dec->exif;
  *length = dec->exif_length;
  return dec->exif != NULL;
}

int ck_jpeg_decoder_icc_segment_count(const ck_jpeg_decoder *dec) { return dec->icc_count; }

int ck_jpeg_decoder_icc_segment(const ck_jpeg_decoder *dec, int index, const uint8_t **data, size_t *length) {
  *data = NULL;
  *length = 0;
  if (index < 0 || index >= dec->icc_count) return 0;
  *data = dec->icc[index];
  *length = dec->icc_length[index];
  return 1;
}

int ck_jpeg_decoder_icc_segments_dropped(const ck_jpeg_decoder *dec) { return dec->icc_dropped; }

// Natural-order position of each zigzag index (the order coef_bits uses).
static const int ck_natural_order[DCTSIZE2] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
};

// Whether libjpeg's reduced IDCT of size `size` (1, 2: jidctred.c) reads the coefficient at natural position `pos`.
// The 1×1 IDCT reads the DC term only; the 2×2 IDCT reads rows and columns 0, 1, 3, 5 and 7. Larger sizes are
// treated as reading everything.
static int ck_idct_reads(int size, int pos) {
  int row = pos / DCTSIZE, col = pos % DCTSIZE;
  if (size == 1) return pos == 0;
  if (size == 2) {
    int row_used = row == 0 || row == 1 || row == 3 || row == 5 || row == 7;
    int col_used = col == 0 || col == 1 || col == 3 || col == 5 || col == 7;
    return row_used && col_used;
  }
  return 1;
}

// Whether every coefficient the output pass needs is final (coef_bits == 0).
static int ck_needed_coefficients_final(j_decompress_ptr cinfo, int mode) {
  if (cinfo->coef_bits == NULL) return 0;
  for (int ci = 0; ci < cinfo->num_components; ci++) {
    const int *bits = cinfo->coef_bits[ci];
    int size = mode == CK_JPEG_EARLY_STOP_DC ? 1 : cinfo->comp_info[ci].DCT_scaled_size;
    for (int k = 0; k < DCTSIZE2; k++) {
      if (ck_idct_reads(size, ck_natural_order[k]) && bits[k] != 0) return 0;
    }
  }
  return 1;
}

// Whether every coefficient of every component is final: the progression is complete.
static int ck_all_coefficients_final(j_decompress_ptr cinfo) {
  if (cinfo->coef_bits == NULL) return 0;
  for (int ci = 0; ci < cinfo->num_components; ci++) {
    for (int k = 0; k < DCTSIZE2; k++) {
      if (cinfo->coef_bits[ci][k] != 0) return 0;
    }
  }
  return 1;
}

// The bytes libjpeg's whole-image coefficient arrays take for this file (progressive or buffered decoding).
static uint64_t ck_full_coefficient_bytes(j_decompress_ptr c) {
  uint64_t total = 0;
  for (int ci = 0; ci < c->num_components; ci++) {
    const jpeg_component_info *comp = &c->comp_info[ci];
    uint64_t w = (comp->width_in_blocks + comp->h_samp_factor - 1) / comp->h_samp_factor * comp->h_samp_factor;
    uint64_t h = (comp->height_in_blocks + comp->v_samp_factor - 1) / comp->v_samp_factor * comp->v_samp_factor;
    total += w * h * sizeof(JBLOCK);
  }
  return total;
}

int ck_jpeg_decoder_start(ck_jpeg_decoder *dec, int scale_denom, int early_stop, long max_memory, int max_scans,
                          ck_jpeg_output *output) {
  memset(output, 0, sizeof(*output));
  if (dec->state != STATE_HEADER) return CK_JPEG_ERR_USAGE;
  if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) return CK_JPEG_ERR_USAGE;
  struct jpeg_decompress_struct *c = &dec->cinfo;
  dec->phase = PHASE_DATA;
  dec->err.in_data_phase = 1;
  if (setjmp(dec->err.jump)) {
    ck_split_join(dec, 0);  // a failed decode leaves no thread behind
    return dec->err.status;
  }

  switch (c->jpeg_color_space) {
    case JCS_GRAYSCALE:
      c->out_color_space = JCS_GRAYSCALE;
      break;
    case JCS_YCbCr:
    case JCS_RGB:
      c->out_color_space = JCS_RGB;
      break;
    case JCS_CMYK:
    case JCS_YCCK:
      c->out_color_space = JCS_CMYK;
      dec->cmyk = 1;
      // Photoshop writes CMYK inverted and marks it with an Adobe APP14 segment; treat every Adobe CMYK file so.
      dec->adobe_inverted = c->saw_Adobe_marker ? 1 : 0;
      break;
    default: {
      char buffer[CK_JPEG_MESSAGE_LENGTH];
      snprintf(buffer, sizeof buffer, "Unsupported JPEG colour space with %d components", c->num_components);
      ck_fail(&dec->err, CK_JPEG_ERR_UNSUPPORTED, -1, buffer);
    }
  }
  c->scale_num = 1;
  c->scale_denom = (unsigned int)scale_denom;
  c->dct_method = JDCT_ISLOW;
  // Block smoothing only changes files whose progression never completes; leaving it off keeps the early-stop
  // output identical to a full decode in every case.
  c->do_block_smoothing = FALSE;
  c->mem->max_memory_to_use = max_memory;
  dec->max_scans = max_scans;
  if (max_scans > 0) c->progress = &dec->progress;

  int use_early_stop = 0;
  if (c->progressive_mode && early_stop != CK_JPEG_EARLY_STOP_OFF && scale_denom == 8) {
    jpeg_calc_output_dimensions(c);
    use_early_stop = 1;
    if (early_stop == CK_JPEG_EARLY_STOP_EXACT) {
      for (int ci = 0; ci < c->num_components; ci++) {
        if (c->comp_info[ci].DCT_scaled_size > 2) use_early_stop = 0;  // would need every coefficient anyway
      }
    }
  }

  if (use_early_stop) {
    dec->buffered = 1;
    c->buffered_image = TRUE;
    // libjpeg's realize_virt_arrays checks max_memory_to_use against its own arrays only; the DC stores are 1/64
    // of them and are allocated from the image pool, so they are freed with it.
    if (early_stop == CK_JPEG_EARLY_STOP_DC) ck_use_dc_store(dec); else ck_use_mapped_store(dec);
    (void)jpeg_start_decompress(c);
    // The DC store holds one array per component, requested in component order (jdcoefct.c). Its AC scans are
    // passed over whichever entropy decoder reads the rest.
    const ck_dc_values *values = dec->dc_requests == c->num_components ? dec->dc_values : NULL;
    int installed = ck_install_dc_first_decoder(c, values, !dec->libjpeg_entropy);
    output->own_entropy = (installed & CK_DC_FIRST_OWN) != 0;
    output->own_dc_rows = (installed & CK_DC_FIRST_ROWS) != 0;
    if (early_stop != CK_JPEG_EARLY_STOP_DC) dec->coefficient_bytes = ck_full_coefficient_bytes(c);
    int needed_final = 0;
    for (;;) {
      ck_progress((j_common_ptr)c);
      int status = jpeg_consume_input(c);
      if (status == JPEG_SUSPENDED) {
        ck_fail(&dec->err, CK_JPEG_ERR_TRUNCATED, JERR_INPUT_EOF, "Premature end of JPEG data");
      }
      if (status == JPEG_SCAN_COMPLETED && ck_needed_coefficients_final(c, early_stop)) {
        needed_final = 1;
        output->early_stopped = dec->err.eof_hit ? 0 : 1;
        break;
      }
      if (status == JPEG_REACHED_EOI) {
        needed_final = ck_needed_coefficients_final(c, early_stop);
        break;
      }
    }
    if (dec->err.eof_hit && !needed_final) {
      ck_fail(&dec->err, CK_JPEG_ERR_TRUNCATED, JERR_INPUT_EOF,
              "Premature end of JPEG data: scans are missing (the file is truncated)");
    }
    output->scans_read = c->input_scan_number;
    (void)jpeg_start_output(c, c->input_scan_number);
    if (output->own_dc_rows) output->own_output = ck_install_dc_output(c);
  } else {
    (void)ck_split_begin(dec, max_memory);
    ck_use_mapped_store(dec);
    dec->wants_own_progressive = !dec->libjpeg_entropy;
    (void)jpeg_start_decompress(c);
    if (dec->split != NULL) ck_split_started(dec, output);
    if (c->progressive_mode || c->buffered_image) dec->coefficient_bytes = ck_full_coefficient_bytes(c);
    // Multi-scan files were read completely by jpeg_start_decompress. Running out of data there is truncation
    // unless the progression was already complete (then only the EOI marker is missing).
    if (dec->err.eof_hit && !(c->progressive_mode && ck_all_coefficients_final(c))) {
      ck_fail(&dec->err, CK_JPEG_ERR_TRUNCATED, JERR_INPUT_EOF,
              "Premature end of JPEG data: scans are missing (the file is truncated)");
    }
    if (dec->split == NULL) output->scans_read = c->input_scan_number;
    if (!dec->libjpeg_entropy) {
      // DC alone is an approximation meant for 1/8 only, as for progressive files.
      int installed = ck_install_ac_skipping_decoder(c, early_stop == CK_JPEG_EARLY_STOP_DC && scale_denom == 8);
      output->own_entropy = dec->own_progressive || (installed & CK_OWN_ENTROPY) != 0;
      output->own_output = (installed & CK_OWN_OUTPUT) != 0;
    }
  }
  if (dec->split == NULL) {
    uint64_t total = dec->fd >= 0 ? dec->file_read : (uint64_t)dec->size;
    output->bytes_consumed = total - (dec->err.eof_hit ? 0 : (uint64_t)c->src->bytes_in_buffer);
  }
  if (dec->cmyk) {
    if (c->output_components != 4) ck_fail(&dec->err, CK_JPEG_ERR_UNSUPPORTED, -1, "Unexpected CMYK output layout");
    dec->scratch = (uint8_t *)malloc((size_t)c->output_width * 4);
    if (dec->scratch == NULL) ck_fail(&dec->err, CK_JPEG_ERR_MEMORY, JERR_OUT_OF_MEMORY, "Insufficient memory");
  }
  output->width = c->output_width;
  output->height = c->output_height;
  output->components = dec->cmyk ? 3 : c->output_components;
  output->coefficient_bytes = dec->coefficient_bytes;
  dec->output = *output;
  dec->state = STATE_STARTED;
  return CK_JPEG_OK;
}

static void ck_cmyk_to_rgb(const uint8_t *src, uint8_t *dst, uint32_t width, int inverted) {
  for (uint32_t x = 0; x < width; x++) {
    unsigned c = src[0], m = src[1], y = src[2], k = src[3];
    if (!inverted) {
      c = 255 - c;
      m = 255 - m;
      y = 255 - y;
      k = 255 - k;
    }
    // Inverted (Adobe) values are "amount of light": R = (1 − C)(1 − K) becomes c·k / 255.
    dst[0] = (uint8_t)((c * k + 127) / 255);
    dst[1] = (uint8_t)((m * k + 127) / 255);
    dst[2] = (uint8_t)((y * k + 127) / 255);
    src += 4;
    dst += 3;
  }
}

void ck_jpeg_decoder_use_libjpeg_entropy(ck_jpeg_decoder *dec, int enabled) { dec->libjpeg_entropy = enabled ? 1 : 0; }

int ck_jpeg_decoder_helper_own_entropy(const ck_jpeg_decoder *dec) { return dec->helper_own_progressive; }

void ck_jpeg_decoder_set_parallel_scans(ck_jpeg_decoder *dec, int mode) {
  if (mode >= CK_JPEG_PARALLEL_SCANS_OFF && mode <= CK_JPEG_PARALLEL_SCANS_ALWAYS) dec->parallel_scans = mode;
}

void ck_jpeg_decoder_set_cmyk_converter(ck_jpeg_decoder *dec, ck_jpeg_cmyk_converter converter, void *context) {
  dec->cmyk_converter = converter;
  dec->cmyk_context = context;
}

int ck_jpeg_decoder_read_rows(ck_jpeg_decoder *dec, uint8_t *dst, size_t stride, uint32_t max_rows,
                              uint32_t *rows_read) {
  *rows_read = 0;
  if (dec->state != STATE_STARTED) return CK_JPEG_ERR_USAGE;
  struct jpeg_decompress_struct *c = &dec->cinfo;
  dec->phase = PHASE_DATA;
  if (setjmp(dec->err.jump)) return dec->err.status;
  uint32_t done = 0;
  while (done < max_rows && c->output_scanline < c->output_height) {
    if (dec->cmyk) {
      JSAMPROW row = dec->scratch;
      JDIMENSION got = jpeg_read_scanlines(c, &row, 1);
      if (got == 0) break;
      if (dec->cmyk_converter)
        dec->cmyk_converter(dec->cmyk_context, dec->scratch, dst + (size_t)done * stride, c->output_width);
      else
        ck_cmyk_to_rgb(dec->scratch, dst + (size_t)done * stride, c->output_width, dec->adobe_inverted);
      done += 1;
    } else {
      JSAMPROW rows[16];
      uint32_t want = max_rows - done;
      if (want > 16) want = 16;
      for (uint32_t i = 0; i < want; i++) rows[i] = dst + (size_t)(done + i) * stride;
      JDIMENSION got = jpeg_read_scanlines(c, rows, want);
      if (got == 0) break;
      done += got;
    }
    *rows_read = done;
  }
  *rows_read = done;
  return CK_JPEG_OK;
}

int ck_jpeg_decoder_finish(ck_jpeg_decoder *dec) {
  if (dec->state == STATE_DONE) return CK_JPEG_OK;
  struct jpeg_decompress_struct *c = &dec->cinfo;
  int state = dec->state;
  dec->state = STATE_DONE;
  if (setjmp(dec->err.jump)) return dec->err.status;
  if (dec->split != NULL) ck_split_finish(dec);  // first: the helper writes into libjpeg's image memory
  if (state != STATE_STARTED || c->output_scanline < c->output_height || dec->output.early_stopped) {
    // Nothing more to check: abandon the image (frees libjpeg's image memory, keeps the object).
    jpeg_abort_decompress(c);
    return CK_JPEG_OK;
  }
  dec->phase = PHASE_FINISH;
  dec->err.in_data_phase = 0;
  if (dec->buffered) {
    (void)jpeg_finish_output(c);
  }
  (void)jpeg_finish_decompress(c);
  // Every row was decoded, so if the data ran out (here, or while the entropy decoder read ahead past the last
  // needed byte) only the EOI marker is missing.
  if (dec->err.eof_hit) {
    const char *message = "Premature end of JPEG file: the EOI marker is missing";
    if (dec->err.strict) ck_fail(&dec->err, CK_JPEG_ERR_STRICT_WARNING, JWRN_JPEG_EOF, message);
    ck_record_warning(&dec->err, message);
  }
  return CK_JPEG_OK;
}

const char *ck_jpeg_decoder_message(const ck_jpeg_decoder *dec) { return dec->err.message; }
int ck_jpeg_decoder_message_code(const ck_jpeg_decoder *dec) { return dec->err.message_code; }
int ck_jpeg_decoder_warning_count(const ck_jpeg_decoder *dec) { return dec->err.warning_count; }
const char *ck_jpeg_decoder_warning(const ck_jpeg_decoder *dec, int index) {
  if (index < 0 || index >= dec->err.warning_count || index >= CK_JPEG_MAX_WARNINGS) return "";
  return dec->err.warnings[index];
}

// MARK: - Encoder

struct ck_jpeg_encoder {
  struct jpeg_compress_struct cinfo;
  ck_error_mgr err;
  struct jpeg_destination_mgr dest;
  uint8_t *buffer;
  size_t capacity;
  size_t length;  // valid after finish; before, computed from next_output_byte
  int fd;           // >= 0: write the output to this file; `buffer` is then one CK_JPEG_IO_CHUNK
  uint64_t written; // bytes written to `fd`
  int created;
  int state;
  struct ck_stripes *stripes;  // a striped encode (striped_encoder.c), or NULL
};

// Writes `length` bytes from `bytes` to the output file. Fails on a write error.
static void ck_write_all(ck_jpeg_encoder *enc, const uint8_t *bytes, size_t length) {
  size_t done = 0;
  while (done < length) {
    ssize_t n = write(enc->fd, bytes + done, length - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      char buffer[CK_JPEG_MESSAGE_LENGTH];
      snprintf(buffer, sizeof buffer, "cannot write the output: %s", n < 0 ? strerror(errno) : "no progress");
      ck_fail(&enc->err, CK_JPEG_ERR_IO, -1, buffer);
    }
    done += (size_t)n;
  }
  enc->written += length;
}

// Writes `length` bytes of the buffer to the output file. Fails on a write error.
static void ck_dest_write(ck_jpeg_encoder *enc, size_t length) { ck_write_all(enc, enc->buffer, length); }

static void ck_grow(ck_jpeg_encoder *enc, size_t minimum) {
  size_t capacity = enc->capacity ? enc->capacity : 65536;
  while (capacity < minimum) {
    if (capacity > SIZE_MAX / 2) ck_fail(&enc->err, CK_JPEG_ERR_MEMORY, JERR_OUT_OF_MEMORY, "Insufficient memory");
    capacity *= 2;
  }
  if (capacity == enc->capacity) return;
  uint8_t *buffer = (uint8_t *)realloc(enc->buffer, capacity);
  if (buffer == NULL) ck_fail(&enc->err, CK_JPEG_ERR_MEMORY, JERR_OUT_OF_MEMORY, "Insufficient memory");
  enc->buffer = buffer;
  enc->capacity = capacity;
}

static void ck_dest_init(j_compress_ptr cinfo) {
  ck_jpeg_encoder *enc = (ck_jpeg_encoder *)cinfo->client_data;
  ck_grow(enc, enc->fd >= 0 ? CK_JPEG_IO_CHUNK : 65536);
  enc->length = 0;
  cinfo->dest->next_output_byte = enc->buffer;
  cinfo->dest->free_in_buffer = enc->capacity;
}

static boolean ck_dest_empty(j_compress_ptr cinfo) {
  // Called when the whole buffer is full (libjpeg ignores next_output_byte/free_in_buffer here).
  ck_jpeg_encoder *enc = (ck_jpeg_encoder *)cinfo->client_data;
  if (enc->fd >= 0) {
    ck_dest_write(enc, enc->capacity);
    cinfo->dest->next_output_byte = enc->buffer;
    cinfo->dest->free_in_buffer = enc->capacity;
    return TRUE;
  }
  size_t used = enc->capacity;
  ck_grow(enc, enc->capacity * 2);
  cinfo->dest->next_output_byte = enc->buffer + used;
  cinfo->dest->free_in_buffer = enc->capacity - used;
  return TRUE;
}

static void ck_dest_term(j_compress_ptr cinfo) {
  ck_jpeg_encoder *enc = (ck_jpeg_encoder *)cinfo->client_data;
  size_t pending = enc->capacity - cinfo->dest->free_in_buffer;
  if (enc->fd >= 0) {
    ck_dest_write(enc, pending);
    enc->length = 0;
  } else {
    enc->length = pending;
  }
}

// A striped encode's bytes, in order: into the file, or appended to the memory output. Longjmps on a failure.
static int ck_encoder_emit(void *context, const uint8_t *bytes, size_t length) {
  ck_jpeg_encoder *enc = (ck_jpeg_encoder *)context;
  if (enc->fd >= 0) {
    ck_write_all(enc, bytes, length);
  } else {
    if (length > SIZE_MAX - enc->length) ck_fail(&enc->err, CK_JPEG_ERR_MEMORY, JERR_OUT_OF_MEMORY, "Insufficient memory");
    ck_grow(enc, enc->length + length);
    memcpy(enc->buffer + enc->length, bytes, length);
    enc->length += length;
  }
  return CK_JPEG_OK;
}

static ck_jpeg_encoder *ck_encoder_new(int fd) {
  ck_jpeg_encoder *enc = (ck_jpeg_encoder *)calloc(1, sizeof(ck_jpeg_encoder));
  if (enc == NULL) return NULL;
  enc->fd = fd;
  ck_init_error(&enc->err, 0);
  enc->cinfo.err = &enc->err.pub;
  if (setjmp(enc->err.jump)) {
    free(enc);
    return NULL;
  }
  jpeg_create_compress(&enc->cinfo);
  enc->created = 1;
  enc->cinfo.client_data = enc;
  enc->dest.init_destination = ck_dest_init;
  enc->dest.empty_output_buffer = ck_dest_empty;
  enc->dest.term_destination = ck_dest_term;
  enc->cinfo.dest = &enc->dest;
  return enc;
}

ck_jpeg_encoder *ck_jpeg_encoder_create(void) { return ck_encoder_new(-1); }

ck_jpeg_encoder *ck_jpeg_encoder_create_fd(int fd) { return fd < 0 ? NULL : ck_encoder_new(fd); }

uint64_t ck_jpeg_encoder_written(const ck_jpeg_encoder *enc) {
  return enc->fd >= 0 ? enc->written : (uint64_t)enc->length;
}

void ck_jpeg_encoder_destroy(ck_jpeg_encoder *enc) {
  if (enc == NULL) return;
  ck_stripes_destroy(enc->stripes);
  if (enc->created) {
    if (setjmp(enc->err.jump) == 0) jpeg_destroy_compress(&enc->cinfo);
  }
  free(enc->buffer);
  free(enc);
}

int ck_jpeg_encoder_start(ck_jpeg_encoder *enc, const ck_jpeg_encode_params *p) {
  if (enc->state != STATE_NEW) return CK_JPEG_ERR_USAGE;
  if (p->components != 1 && p->components != 3) return CK_JPEG_ERR_USAGE;
  if (p->quality < 1 || p->quality > 100 || p->subsampling < 0 || p->subsampling > 2) return CK_JPEG_ERR_USAGE;
  if (p->stripes != CK_JPEG_STRIPES_OFF && (enc->stripes = ck_stripes_create(p, ck_encoder_emit, enc)) != NULL) {
    enc->state = STATE_STARTED;
    return CK_JPEG_OK;
  }
  if (setjmp(enc->err.jump)) {
    enc->state = STATE_DONE;
    return enc->err.status;
  }
  struct jpeg_compress_struct *c = &enc->cinfo;
  c->image_width = p->width;
  c->image_height = p->height;
  c->input_components = p->components;
  c->in_color_space = p->components == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(c);
  jpeg_set_quality(c, p->quality, TRUE);
  c->dct_method = JDCT_ISLOW;
  if (p->components == 3) {
    c->comp_info[0].h_samp_factor = p->subsampling == 0 ? 1 : 2;
    c->comp_info[0].v_samp_factor = p->subsampling == 2 ? 2 : 1;
    for (int i = 1; i < 3; i++) {
      c->comp_info[i].h_samp_factor = 1;
      c->comp_info[i].v_samp_factor = 1;
    }
  }
  if (p->progressive) jpeg_simple_progression(c);
  c->optimize_coding = p->optimize_coding ? TRUE : FALSE;
  c->restart_interval = (unsigned int)(p->restart_interval > 0 && p->restart_interval <= 65535 ? p->restart_interval : 0);
  jpeg_start_compress(c, TRUE);
  enc->state = STATE_STARTED;
  return CK_JPEG_OK;
}

int ck_jpeg_encoder_write_marker(ck_jpeg_encoder *enc, int marker, const uint8_t *data, size_t length) {
  if (enc->stripes != NULL) return enc->state == STATE_STARTED ? ck_stripes_marker(enc->stripes, marker, data, length)
                                                                 : CK_JPEG_ERR_USAGE;
  if (enc->state != STATE_STARTED || enc->cinfo.next_scanline != 0 || length > 65533) return CK_JPEG_ERR_USAGE;
  if (setjmp(enc->err.jump)) {
    enc->state = STATE_DONE;
    return enc->err.status;
  }
  jpeg_write_marker(&enc->cinfo, marker, data, (unsigned int)length);
  return CK_JPEG_OK;
}

int ck_jpeg_encoder_write_rows(ck_jpeg_encoder *enc, const uint8_t *src, size_t stride, uint32_t rows) {
  if (enc->state != STATE_STARTED) return CK_JPEG_ERR_USAGE;
  if (enc->stripes != NULL) {
    if (setjmp(enc->err.jump)) {  // the output could not be written
      enc->state = STATE_DONE;
      return enc->err.status;
    }
    int status = ck_stripes_write(enc->stripes, src, stride, rows, enc->err.message);
    if (status != CK_JPEG_OK && status != CK_JPEG_ERR_USAGE) enc->state = STATE_DONE;
    return status;
  }
  struct jpeg_compress_struct *c = &enc->cinfo;
  if (rows > c->image_height - c->next_scanline) return CK_JPEG_ERR_USAGE;
  if (setjmp(enc->err.jump)) {
    enc->state = STATE_DONE;
    return enc->err.status;
  }
  uint32_t done = 0;
  while (done < rows) {
    JSAMPROW pointers[16];
    uint32_t want = rows - done;
    if (want > 16) want = 16;
    for (uint32_t i = 0; i < want; i++) pointers[i] = (JSAMPROW)(src + (size_t)(done + i) * stride);
    JDIMENSION wrote = jpeg_write_scanlines(c, pointers, want);
    if (wrote == 0) ck_fail(&enc->err, CK_JPEG_ERR_USAGE, -1, "libjpeg accepted no rows");
    done += wrote;
  }
  return CK_JPEG_OK;
}

// Finishes a striped encode: the last stripes and the EOI go to the output.
static int ck_encoder_finish_stripes(ck_jpeg_encoder *enc) {
  if (setjmp(enc->err.jump)) {
    enc->state = STATE_DONE;
    return enc->err.status;
  }
  int status = ck_stripes_finish(enc->stripes, enc->err.message);
  if (status == CK_JPEG_ERR_USAGE) return status;  // rows are missing
  enc->state = STATE_DONE;
  return status;
}

int ck_jpeg_encoder_finish(ck_jpeg_encoder *enc) {
  if (enc->state != STATE_STARTED) return CK_JPEG_ERR_USAGE;
  if (enc->stripes != NULL) return ck_encoder_finish_stripes(enc);
  if (enc->cinfo.next_scanline != enc->cinfo.image_height) return CK_JPEG_ERR_USAGE;
  if (setjmp(enc->err.jump)) {
    enc->state = STATE_DONE;
    return enc->err.status;
  }
  jpeg_finish_compress(&enc->cinfo);
  enc->state = STATE_DONE;
  return CK_JPEG_OK;
}

const uint8_t *ck_jpeg_encoder_output(const ck_jpeg_encoder *enc, size_t *length) {
  *length = enc->fd >= 0 ? 0 : enc->length;
  return enc->fd >= 0 ? NULL : enc->buffer;
}

const char *ck_jpeg_encoder_message(const ck_jpeg_encoder *enc) { return enc->err.message; }
