// libpng behind setjmp/longjmp guards. See include/cpng_shim.h for the contract.

#include "cpng_shim.h"

// CropCodecs' ShimStatus maps the status codes of both shims with one table: keep the numbers in step.
_Static_assert(CK_PNG_OK == 0 && CK_PNG_ERR_CORRUPT == 1 && CK_PNG_ERR_TRUNCATED == 2 && CK_PNG_ERR_STRICT_WARNING == 3 && CK_PNG_ERR_MEMORY == 5 && CK_PNG_ERR_USAGE == 8 && CK_PNG_ERR_NOT_PNG == 6 && CK_PNG_ERR_IO == 9,
               "status codes must match CropCodecs' ShimStatus");

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Messages shared by the decoder and the encoder

typedef struct {
  jmp_buf jump;
  size_t input_bytes;  // > 0: the input's size, for the message of a chunk past the chunk limit
  int strict;
  int status;
  int truncated;
  int io;  // the failure is the file's (read or write), not the data's
  int in_finish;
  char message[CK_PNG_MESSAGE_LENGTH];
  int warning_count;
  char warnings[CK_PNG_MAX_WARNINGS][CK_PNG_MESSAGE_LENGTH];
} ck_png_messages;

static void ck_png_copy(char *dst, const char *src) {
  strncpy(dst, src ? src : "", CK_PNG_MESSAGE_LENGTH - 1);
  dst[CK_PNG_MESSAGE_LENGTH - 1] = '\0';
}

static void ck_png_fail(ck_png_messages *m, int status, const char *message) {
  m->status = status;
  ck_png_copy(m->message, message);
  longjmp(m->jump, 1);
}

static void ck_png_record_warning(ck_png_messages *m, const char *message) {
  if (m->warning_count < CK_PNG_MAX_WARNINGS) ck_png_copy(m->warnings[m->warning_count], message);
  m->warning_count++;
}

static void ck_png_on_error(png_structp png, png_const_charp message) {
  ck_png_messages *m = (ck_png_messages *)png_get_error_ptr(png);
  // libpng's check of a chunk's length against the chunk malloc max ("NAME: chunk data is too large"): the limit is
  // the file's size plus slack, so the chunk cannot be in the file.
  const char *too_large = message ? strstr(message, "chunk data is too large") : NULL;
  if (too_large != NULL && m->input_bytes > 0 && too_large - message == 6) {
    char buffer[CK_PNG_MESSAGE_LENGTH];
    snprintf(buffer, sizeof buffer, "the %.4s chunk claims more bytes than the %zu-byte file holds", message,
             m->input_bytes);
    ck_png_fail(m, CK_PNG_ERR_TRUNCATED, buffer);
  }
  ck_png_fail(m, m->io ? CK_PNG_ERR_IO : m->truncated ? CK_PNG_ERR_TRUNCATED : CK_PNG_ERR_CORRUPT, message);
}

static void ck_png_on_warning(png_structp png, png_const_charp message) {
  ck_png_messages *m = (ck_png_messages *)png_get_error_ptr(png);
  if (m->strict) ck_png_fail(m, CK_PNG_ERR_STRICT_WARNING, message);
  ck_png_record_warning(m, message);
}

// MARK: - Decoder

enum { STATE_NEW = 0, STATE_HEADER = 1, STATE_STARTED = 2, STATE_DONE = 3 };

struct ck_png_decoder {
  ck_png_messages m;
  png_structp png;
  png_infop info;
  png_infop end_info;
  const uint8_t *data;  // memory input; for a file input, `input` holds the bytes read and not yet consumed
  size_t size;
  size_t position;
  int fd;               // >= 0: read from this file, refilling `input` (CK_PNG_IO_CHUNK bytes)
  uint8_t *input;
  int eof;
  int state;
  uint32_t rows_read;
  ck_png_output output;
  png_bytep *row_pointers;
  // The chunk walk (see ck_png_check_chunk): bytes handed to libpng so far, where the next chunk header starts, and
  // the input's size (0: unknown, no check).
  uint64_t served;
  uint64_t next_chunk;
  uint64_t input_bytes;
  uint8_t pending[8];
  // A colour key libpng dropped (see ck_png_late_key): applied to each row here, adding the alpha channel.
  int late_key;
  uint16_t key[3];
};

// libpng cancels a truecolor or grey tRNS that comes before a (suggested) PLTE chunk ("tRNS must be after", a benign
// error), though its header flag stays and Pillow, pypng and browsers keep the transparency. Rows then come without
// the alpha channel that tRNS_to_alpha promised: ck_png_decoder_start notices, and each row gains it here, in place
// from the right (the row buffers are sized for the alpha channel).
static void ck_png_apply_late_key(const ck_png_decoder *dec, uint8_t *row) {
  uint32_t width = dec->output.width;
  int channels = dec->output.channels - 1;
  if (dec->output.bit_depth == 16) {
    uint16_t *p = (uint16_t *)row;
    for (uint32_t x = width; x-- > 0;) {
      const uint16_t *in = p + (size_t)x * channels;
      uint16_t *out = p + (size_t)x * (channels + 1);
      int match = 1;
      uint16_t v[3];
      for (int c = 0; c < channels; c++) {
        v[c] = in[c];
        match &= v[c] == dec->key[c];
      }
      for (int c = 0; c < channels; c++) out[c] = v[c];
      out[channels] = match ? 0 : 0xFFFF;
    }
  } else {
    for (uint32_t x = width; x-- > 0;) {
      const uint8_t *in = row + (size_t)x * channels;
      uint8_t *out = row + (size_t)x * (channels + 1);
      int match = 1;
      uint8_t v[3];
      for (int c = 0; c < channels; c++) {
        v[c] = in[c];
        match &= v[c] == dec->key[c];
      }
      for (int c = 0; c < channels; c++) out[c] = v[c];
      out[channels] = match ? 0 : 0xFF;
    }
  }
}

// Refills a file input's buffer with the next chunk (keeping nothing: callers consume what is there first).
static void ck_png_refill(png_structp png, ck_png_decoder *dec) {
  for (;;) {
    ssize_t n = read(dec->fd, dec->input, CK_PNG_IO_CHUNK);
    if (n >= 0) {
      dec->data = dec->input;
      dec->size = (size_t)n;
      dec->position = 0;
      if (n == 0) dec->eof = 1;
      return;
    }
    if (errno == EINTR) continue;
    char buffer[CK_PNG_MESSAGE_LENGTH];
    snprintf(buffer, sizeof buffer, "cannot read the input: %s", strerror(errno));
    dec->m.io = 1;
    png_error(png, buffer);
  }
}

// libpng reads a chunk's data into a buffer of the declared length, zeroed, before reading the bytes (and with
// benign errors as warnings it only warns when the length passes the chunk malloc max): a 57-byte file claiming a
// 1 GiB pCAL touched 1 GiB. libpng reads the stream in order, never seeking, so the shim walks the chunks as it hands
// the bytes over: once a chunk's 8-byte header has been served, a length running past the end of the input fails
// here, before libpng allocates anything for it. IDAT is exempt: libpng reads it through a fixed buffer, and a cut
// IDAT keeps its own "premature end" message.
static void ck_png_check_chunk(png_structp png, ck_png_decoder *dec, png_const_bytep served_bytes, size_t count) {
  if (dec->input_bytes == 0) return;
  uint64_t start = dec->served, end = dec->served + count;
  while (dec->next_chunk + 8 <= end) {
    uint64_t header = dec->next_chunk;
    if (header + 8 <= start) break;  // already checked
    // The header's bytes were served in this call or earlier ones; only this call's part is in served_bytes, so the
    // header is kept whole in `pending` as it arrives.
    uint8_t bytes[8];
    for (int i = 0; i < 8; i++) {
      uint64_t at = header + (uint64_t)i;
      bytes[i] = at >= start ? served_bytes[at - start] : dec->pending[at - header];
    }
    uint32_t length = ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) | bytes[3];
    uint64_t left = dec->input_bytes > header + 8 ? dec->input_bytes - header - 8 : 0;
    int idat = memcmp(bytes + 4, "IDAT", 4) == 0;
    if (!idat && (uint64_t)length + 4 > left) {
      char message[CK_PNG_MESSAGE_LENGTH];
      char name[5];
      for (int i = 0; i < 4; i++) name[i] = (bytes[4 + i] >= 32 && bytes[4 + i] < 127) ? (char)bytes[4 + i] : '?';
      name[4] = '\0';
      snprintf(message, sizeof message,
               "the %s chunk claims %u bytes, more than the %llu left in the file (the file is truncated or corrupt)",
               name, length, (unsigned long long)(left >= 4 ? left - 4 : 0));
      dec->m.truncated = 1;
      png_error(png, message);
    }
    dec->next_chunk = header + 12 + (uint64_t)length;
  }
  // Keep the bytes of a header that straddles this call's end.
  if (dec->next_chunk < end && dec->next_chunk + 8 > end) {
    for (uint64_t at = dec->next_chunk > start ? dec->next_chunk : start; at < end; at++) {
      dec->pending[at - dec->next_chunk] = served_bytes[at - start];
    }
  }
}

static void ck_png_read(png_structp png, png_bytep out, size_t length) {
  ck_png_decoder *dec = (ck_png_decoder *)png_get_io_ptr(png);
  png_bytep first = out;
  size_t requested = length;
  while (length > 0) {
    if (dec->position == dec->size && dec->fd >= 0 && !dec->eof) ck_png_refill(png, dec);
    size_t available = dec->size - dec->position;
    if (available == 0) {
      dec->m.truncated = 1;
      png_error(png, "Premature end of PNG data (the file is truncated)");
    }
    size_t n = length < available ? length : available;
    memcpy(out, dec->data + dec->position, n);
    dec->position += n;
    out += n;
    length -= n;
  }
  ck_png_check_chunk(png, dec, first, requested);
  dec->served += requested;
}

static ck_png_decoder *ck_png_decoder_new(const uint8_t *data, size_t size, int fd, int strict) {
  ck_png_decoder *dec = (ck_png_decoder *)calloc(1, sizeof(ck_png_decoder));
  if (dec == NULL) return NULL;
  dec->m.strict = strict;
  dec->data = data;
  dec->size = size;
  dec->fd = fd;
  if (fd >= 0) {
    dec->input = (uint8_t *)malloc(CK_PNG_IO_CHUNK);
    if (dec->input == NULL) {
      free(dec);
      return NULL;
    }
  }
  dec->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &dec->m, ck_png_on_error, ck_png_on_warning);
  if (dec->png == NULL) {
    free(dec->input);
    free(dec);
    return NULL;
  }
  if (setjmp(dec->m.jump)) {
    png_destroy_read_struct(&dec->png, &dec->info, &dec->end_info);
    free(dec->input);
    free(dec);
    return NULL;
  }
  dec->info = png_create_info_struct(dec->png);
  dec->end_info = png_create_info_struct(dec->png);
  if (dec->info == NULL || dec->end_info == NULL) {
    png_destroy_read_struct(&dec->png, &dec->info, &dec->end_info);
    free(dec->input);
    free(dec);
    return NULL;
  }
  png_set_read_fn(dec->png, dec, ck_png_read);
  // Benign errors are errors in strict mode and warnings otherwise (libpng's release default).
  png_set_benign_errors(dec->png, strict ? 0 : 1);
  // Keep unknown chunks out of memory, and the known ones CropKit does not use that can be large or numerous
  // (text and suggested palettes: up to 1000 chunks of up to 8 MB decompressed each). iCCP and eXIf are still read.
  png_set_keep_unknown_chunks(dec->png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
  static const png_byte ignored[] = "tEXt\0zTXt\0iTXt\0sPLT\0";
  png_set_keep_unknown_chunks(dec->png, PNG_HANDLE_CHUNK_NEVER, ignored, 4);
#ifndef PNG_cICP_SUPPORTED
  // cICP (PNG third edition) is unknown to libpng before 1.6.45: kept as an unknown chunk (4 bytes) to be read here.
  static const png_byte cicp[] = "cICP";
  png_set_keep_unknown_chunks(dec->png, PNG_HANDLE_CHUNK_ALWAYS, cicp, 1);
#endif
  return dec;
}

ck_png_decoder *ck_png_decoder_create(const uint8_t *data, size_t size, int strict) {
  return ck_png_decoder_new(data, size, -1, strict);
}

ck_png_decoder *ck_png_decoder_create_fd(int fd, int strict) {
  return fd < 0 ? NULL : ck_png_decoder_new(NULL, 0, fd, strict);
}

void ck_png_decoder_destroy(ck_png_decoder *dec) {
  if (dec == NULL) return;
  if (setjmp(dec->m.jump) == 0) png_destroy_read_struct(&dec->png, &dec->info, &dec->end_info);
  free(dec->row_pointers);
  free(dec->input);
  free(dec);
}

void ck_png_decoder_set_limits(ck_png_decoder *dec, size_t max_chunk_bytes, uint32_t max_side, size_t input_bytes) {
  if (dec->state != STATE_NEW) return;
  uint32_t side = max_side < PNG_UINT_31_MAX ? max_side : PNG_UINT_31_MAX;
  png_set_user_limits(dec->png, side ? side : 1, side ? side : 1);
  // libpng reads a chunk into a buffer of its declared length, zeroed, before reading the bytes: a 57-byte file
  // claiming 1 GiB touched 1 GiB. It checks each length against this first.
  png_set_chunk_malloc_max(dec->png, max_chunk_bytes);
  dec->m.input_bytes = input_bytes;
  dec->input_bytes = input_bytes;
  dec->next_chunk = 8;  // after the signature
}

int ck_png_decoder_read_header(ck_png_decoder *dec, ck_png_header *header) {
  memset(header, 0, sizeof(*header));
  if (dec->state != STATE_NEW) return CK_PNG_ERR_USAGE;
  if (dec->fd >= 0 && dec->position == dec->size && !dec->eof) {
    // The signature comes from the first chunk of the file (a read error here is reported as the read's).
    if (setjmp(dec->m.jump)) return dec->m.status;
    ck_png_refill(dec->png, dec);
  }
  if (dec->size - dec->position < 8 || png_sig_cmp(dec->data + dec->position, 0, 8) != 0) {
    if (dec->size - dec->position < 8 && png_sig_cmp(dec->data + dec->position, 0, dec->size - dec->position) == 0) {
      ck_png_copy(dec->m.message, "Premature end of PNG data in the signature (the file is truncated)");
      return CK_PNG_ERR_TRUNCATED;
    }
    ck_png_copy(dec->m.message, "Not a PNG file: the signature is wrong");
    return CK_PNG_ERR_NOT_PNG;
  }
  if (setjmp(dec->m.jump)) return dec->m.status;
  png_read_info(dec->png, dec->info);
  png_uint_32 width = 0, height = 0;
  int bit_depth = 0, color_type = 0, interlace = 0;
  png_get_IHDR(dec->png, dec->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
  header->width = width;
  header->height = height;
  header->bit_depth = bit_depth;
  header->color_type = color_type;
  header->interlaced = interlace != PNG_INTERLACE_NONE;
  header->has_trns = png_get_valid(dec->png, dec->info, PNG_INFO_tRNS) ? 1 : 0;
  dec->state = STATE_HEADER;
  return CK_PNG_OK;
}

int ck_png_decoder_icc(ck_png_decoder *dec, const uint8_t **data, uint32_t *length) {
  *data = NULL;
  *length = 0;
  if (dec->state < STATE_HEADER || !png_get_valid(dec->png, dec->info, PNG_INFO_iCCP)) return 0;
  png_charp name = NULL;
  int compression = 0;
  png_bytep profile = NULL;
  png_uint_32 profile_length = 0;
  if (setjmp(dec->m.jump)) return 0;
  if (png_get_iCCP(dec->png, dec->info, &name, &compression, &profile, &profile_length) == 0) return 0;
  *data = profile;
  *length = profile_length;
  return profile != NULL && profile_length > 0;
}

int ck_png_decoder_color_chunks(ck_png_decoder *dec, ck_png_color_chunks *out) {
  memset(out, 0, sizeof *out);
  if (dec->state < STATE_HEADER) return 0;
  if (setjmp(dec->m.jump)) return 0;
  out->srgb = png_get_valid(dec->png, dec->info, PNG_INFO_sRGB) ? 1 : 0;
  double gamma = 0;
  if (png_get_valid(dec->png, dec->info, PNG_INFO_gAMA) && png_get_gAMA(dec->png, dec->info, &gamma) && gamma > 0) {
    out->has_gamma = 1;
    out->gamma = gamma;
  }
  double w[2], r[2], g[2], b[2];
  if (png_get_valid(dec->png, dec->info, PNG_INFO_cHRM) &&
      png_get_cHRM(dec->png, dec->info, &w[0], &w[1], &r[0], &r[1], &g[0], &g[1], &b[0], &b[1])) {
    out->has_chromaticities = 1;
    const double values[8] = {r[0], r[1], g[0], g[1], b[0], b[1], w[0], w[1]};
    memcpy(out->chromaticities, values, sizeof values);
  }
#ifdef PNG_cICP_SUPPORTED
  png_byte primaries, transfer, matrix, full_range;
  if (png_get_cICP(dec->png, dec->info, &primaries, &transfer, &matrix, &full_range)) {
    out->has_cicp = 1;
    out->cicp[0] = primaries, out->cicp[1] = transfer, out->cicp[2] = matrix, out->cicp[3] = full_range;
  }
#else
  png_unknown_chunkp unknown = NULL;
  int count = png_get_unknown_chunks(dec->png, dec->info, &unknown);
  for (int i = 0; i < count; i++) {
    if (memcmp(unknown[i].name, "cICP", 4) == 0 && unknown[i].size == 4 && unknown[i].data) {
      out->has_cicp = 1;
      memcpy(out->cicp, unknown[i].data, 4);
    }
  }
#endif
  return 1;
}

int ck_png_decoder_exif(ck_png_decoder *dec, const uint8_t **data, uint32_t *length) {
  *data = NULL;
  *length = 0;
  if (dec->state < STATE_HEADER) return 0;
  png_bytep exif = NULL;
  png_uint_32 exif_length = 0;
  if (setjmp(dec->m.jump)) return 0;
  png_infop sources[2] = {dec->info, dec->end_info};
  for (int i = 0; i < 2; i++) {
    if (png_get_valid(dec->png, sources[i], PNG_INFO_eXIf) &&
        png_get_eXIf_1(dec->png, sources[i], &exif_length, &exif) != 0 && exif != NULL && exif_length > 0) {
      *data = exif;
      *length = exif_length;
      return 1;
    }
  }
  return 0;
}

int ck_png_decoder_start(ck_png_decoder *dec, ck_png_output *output) {
  memset(output, 0, sizeof(*output));
  if (dec->state != STATE_HEADER) return CK_PNG_ERR_USAGE;
  if (setjmp(dec->m.jump)) return dec->m.status;
  png_structp png = dec->png;
  png_infop info = dec->info;
  int color_type = png_get_color_type(png, info);
  int bit_depth = png_get_bit_depth(png, info);
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
  if (bit_depth == 16) {
    uint16_t probe = 1;
    if (*(uint8_t *)&probe == 1) png_set_swap(png);  // PNG stores big-endian; the buffer holds native order
  }
  int interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
  if (interlaced) (void)png_set_interlace_handling(png);
  png_read_update_info(png, info);
  output->width = png_get_image_width(png, info);
  output->height = png_get_image_height(png, info);
  output->channels = png_get_channels(png, info);
  output->bit_depth = png_get_bit_depth(png, info);
  output->rowbytes = png_get_rowbytes(png, info);
  output->interlaced = interlaced;
  png_bytep trans_alpha = NULL;
  int num_trans = 0;
  png_color_16p trans = NULL;
  if ((output->channels == 1 || output->channels == 3) && (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_RGB) &&
      png_get_tRNS(png, info, &trans_alpha, &num_trans, &trans) != 0 && trans != NULL) {
    // The late tRNS (see ck_png_apply_late_key): the key in the decoded rows' depth.
    dec->late_key = 1;
    if (color_type == PNG_COLOR_TYPE_GRAY) {
      uint32_t gray = trans->gray, top = (1u << bit_depth) - 1;
      dec->key[0] = (uint16_t)(bit_depth < 8 ? gray * 255 / top : gray);
    } else {
      dec->key[0] = trans->red;
      dec->key[1] = trans->green;
      dec->key[2] = trans->blue;
    }
    output->channels += 1;
    output->rowbytes = (size_t)output->width * output->channels * (output->bit_depth / 8);
  }
  if (output->channels < 1 || output->channels > 4 || (output->bit_depth != 8 && output->bit_depth != 16)) {
    ck_png_fail(&dec->m, CK_PNG_ERR_CORRUPT, "Unexpected decoded PNG layout");
  }
  dec->output = *output;
  dec->state = STATE_STARTED;
  return CK_PNG_OK;
}

int ck_png_decoder_read_rows(ck_png_decoder *dec, uint8_t *dst, size_t stride, uint32_t rows) {
  if (dec->state != STATE_STARTED || dec->output.interlaced) return CK_PNG_ERR_USAGE;
  if (rows > dec->output.height - dec->rows_read) return CK_PNG_ERR_USAGE;
  if (setjmp(dec->m.jump)) {
    dec->state = STATE_DONE;
    return dec->m.status;
  }
  for (uint32_t i = 0; i < rows; i++) {
    png_read_row(dec->png, dst + (size_t)i * stride, NULL);
    if (dec->late_key) ck_png_apply_late_key(dec, dst + (size_t)i * stride);
    dec->rows_read++;
  }
  return CK_PNG_OK;
}

int ck_png_decoder_read_image(ck_png_decoder *dec, uint8_t *dst, size_t stride) {
  if (dec->state != STATE_STARTED || dec->rows_read != 0) return CK_PNG_ERR_USAGE;
  uint32_t height = dec->output.height;
  free(dec->row_pointers);
  dec->row_pointers = (png_bytep *)malloc(sizeof(png_bytep) * (height ? height : 1));
  if (dec->row_pointers == NULL) {
    ck_png_copy(dec->m.message, "Insufficient memory for the row pointers");
    return CK_PNG_ERR_MEMORY;
  }
  for (uint32_t y = 0; y < height; y++) dec->row_pointers[y] = dst + (size_t)y * stride;
  if (setjmp(dec->m.jump)) {
    dec->state = STATE_DONE;
    return dec->m.status;
  }
  png_read_image(dec->png, dec->row_pointers);
  if (dec->late_key) {
    for (uint32_t y = 0; y < height; y++) ck_png_apply_late_key(dec, dst + (size_t)y * stride);
  }
  dec->rows_read = height;
  return CK_PNG_OK;
}

int ck_png_decoder_finish(ck_png_decoder *dec) {
  if (dec->state != STATE_STARTED) return dec->state == STATE_DONE ? CK_PNG_OK : CK_PNG_ERR_USAGE;
  if (dec->rows_read < dec->output.height) {
    dec->state = STATE_DONE;  // abandoned early: nothing to verify
    return CK_PNG_OK;
  }
  dec->state = STATE_DONE;
  if (setjmp(dec->m.jump)) {
    if (dec->m.status == CK_PNG_ERR_TRUNCATED) {
      // Every row was decoded; only the trailing chunks are missing.
      const char *message = "PNG data ends before the IEND chunk";
      if (dec->m.strict) {
        ck_png_copy(dec->m.message, message);
        dec->m.status = CK_PNG_ERR_STRICT_WARNING;
        return CK_PNG_ERR_STRICT_WARNING;
      }
      ck_png_record_warning(&dec->m, message);
      return CK_PNG_OK;
    }
    return dec->m.status;
  }
  png_read_end(dec->png, dec->end_info);
  return CK_PNG_OK;
}

const char *ck_png_decoder_message(const ck_png_decoder *dec) { return dec->m.message; }
int ck_png_decoder_warning_count(const ck_png_decoder *dec) { return dec->m.warning_count; }
const char *ck_png_decoder_warning(const ck_png_decoder *dec, int index) {
  if (index < 0 || index >= dec->m.warning_count || index >= CK_PNG_MAX_WARNINGS) return "";
  return dec->m.warnings[index];
}

// MARK: - Encoder

struct ck_png_encoder {
  ck_png_messages m;
  png_structp png;
  png_infop info;
  uint8_t *buffer;
  size_t capacity;
  size_t length;
  int fd;            // >= 0: write to this file whenever `buffer` holds CK_PNG_IO_CHUNK bytes
  uint64_t written;  // bytes written to `fd`
  int state;
  uint32_t height;
  uint32_t rows_written;
};

// Writes the buffered bytes to the output file and empties the buffer.
static void ck_png_drain(png_structp png, ck_png_encoder *enc) {
  size_t done = 0;
  while (done < enc->length) {
    ssize_t n = write(enc->fd, enc->buffer + done, enc->length - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      char message[CK_PNG_MESSAGE_LENGTH];
      snprintf(message, sizeof message, "cannot write the output: %s", n < 0 ? strerror(errno) : "no progress");
      enc->m.io = 1;
      png_error(png, message);
    }
    done += (size_t)n;
  }
  enc->written += enc->length;
  enc->length = 0;
}

static void ck_png_write(png_structp png, png_bytep data, size_t length) {
  ck_png_encoder *enc = (ck_png_encoder *)png_get_io_ptr(png);
  if (enc->fd >= 0 && enc->length + length > CK_PNG_IO_CHUNK) {
    ck_png_drain(png, enc);
    if (length >= CK_PNG_IO_CHUNK) {
      // A large piece goes straight to the file.
      uint8_t *saved = enc->buffer;
      size_t saved_length = enc->length;
      enc->buffer = data;
      enc->length = length;
      ck_png_drain(png, enc);
      enc->buffer = saved;
      enc->length = saved_length;
      return;
    }
  }
  if (length > SIZE_MAX - enc->length) png_error(png, "Output too large");
  size_t needed = enc->length + length;
  if (needed > enc->capacity) {
    size_t capacity = enc->capacity ? enc->capacity : 65536;
    while (capacity < needed) {
      if (capacity > SIZE_MAX / 2) png_error(png, "Output too large");
      capacity *= 2;
    }
    uint8_t *buffer = (uint8_t *)realloc(enc->buffer, capacity);
    if (buffer == NULL) png_error(png, "Insufficient memory for the output");
    enc->buffer = buffer;
    enc->capacity = capacity;
  }
  memcpy(enc->buffer + enc->length, data, length);
  enc->length = needed;
}

static void ck_png_flush(png_structp png) {
  ck_png_encoder *enc = (ck_png_encoder *)png_get_io_ptr(png);
  if (enc->fd >= 0) ck_png_drain(png, enc);
}

static ck_png_encoder *ck_png_encoder_new(int fd) {
  ck_png_encoder *enc = (ck_png_encoder *)calloc(1, sizeof(ck_png_encoder));
  if (enc == NULL) return NULL;
  enc->fd = fd;
  enc->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &enc->m, ck_png_on_error, ck_png_on_warning);
  if (enc->png == NULL) {
    free(enc);
    return NULL;
  }
  if (setjmp(enc->m.jump)) {
    png_destroy_write_struct(&enc->png, &enc->info);
    free(enc);
    return NULL;
  }
  enc->info = png_create_info_struct(enc->png);
  if (enc->info == NULL) {
    png_destroy_write_struct(&enc->png, &enc->info);
    free(enc);
    return NULL;
  }
  png_set_write_fn(enc->png, enc, ck_png_write, ck_png_flush);
  // A metadata chunk libpng refuses (say, an ICC profile it finds invalid) is dropped with a warning.
  png_set_benign_errors(enc->png, 1);
  return enc;
}

ck_png_encoder *ck_png_encoder_create(void) { return ck_png_encoder_new(-1); }

ck_png_encoder *ck_png_encoder_create_fd(int fd) { return fd < 0 ? NULL : ck_png_encoder_new(fd); }

uint64_t ck_png_encoder_written(const ck_png_encoder *enc) {
  return enc->fd >= 0 ? enc->written + enc->length : (uint64_t)enc->length;
}

void ck_png_encoder_destroy(ck_png_encoder *enc) {
  if (enc == NULL) return;
  if (setjmp(enc->m.jump) == 0) png_destroy_write_struct(&enc->png, &enc->info);
  free(enc->buffer);
  free(enc);
}

int ck_png_encoder_start(ck_png_encoder *enc, const ck_png_encode_params *p) {
  if (enc->state != STATE_NEW) return CK_PNG_ERR_USAGE;
  if (p->channels < 1 || p->channels > 4 || (p->bit_depth != 8 && p->bit_depth != 16)) return CK_PNG_ERR_USAGE;
  if (p->compression_level < 0 || p->compression_level > 9) return CK_PNG_ERR_USAGE;
  if (setjmp(enc->m.jump)) {
    enc->state = STATE_DONE;
    return enc->m.status;
  }
  static const int color_types[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                     PNG_COLOR_TYPE_RGB_ALPHA};
  png_set_IHDR(enc->png, enc->info, p->width, p->height, p->bit_depth, color_types[p->channels],
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(enc->png, p->compression_level);
  if (p->icc != NULL && p->icc_length > 0) {
    png_set_iCCP(enc->png, enc->info, "ICC Profile", PNG_COMPRESSION_TYPE_BASE, p->icc, p->icc_length);
  }
  if (p->exif != NULL && p->exif_length > 0) {
    png_set_eXIf_1(enc->png, enc->info, p->exif_length, (png_bytep)p->exif);
  }
  png_write_info(enc->png, enc->info);
  if (p->bit_depth == 16) {
    uint16_t probe = 1;
    if (*(uint8_t *)&probe == 1) png_set_swap(enc->png);
  }
  enc->height = p->height;
  enc->state = STATE_STARTED;
  return CK_PNG_OK;
}

int ck_png_encoder_write_rows(ck_png_encoder *enc, const uint8_t *src, size_t stride, uint32_t rows) {
  if (enc->state != STATE_STARTED || rows > enc->height - enc->rows_written) return CK_PNG_ERR_USAGE;
  if (setjmp(enc->m.jump)) {
    enc->state = STATE_DONE;
    return enc->m.status;
  }
  for (uint32_t i = 0; i < rows; i++) {
    png_write_row(enc->png, src + (size_t)i * stride);
    enc->rows_written++;
  }
  return CK_PNG_OK;
}

int ck_png_encoder_finish(ck_png_encoder *enc) {
  if (enc->state != STATE_STARTED || enc->rows_written != enc->height) return CK_PNG_ERR_USAGE;
  if (setjmp(enc->m.jump)) {
    enc->state = STATE_DONE;
    return enc->m.status;
  }
  png_write_end(enc->png, NULL);
  if (enc->fd >= 0) ck_png_drain(enc->png, enc);
  enc->state = STATE_DONE;
  return CK_PNG_OK;
}

const uint8_t *ck_png_encoder_output(const ck_png_encoder *enc, size_t *length) {
  *length = enc->fd >= 0 ? 0 : enc->length;
  return enc->fd >= 0 ? NULL : enc->buffer;
}

const char *ck_png_encoder_message(const ck_png_encoder *enc) { return enc->m.message; }
int ck_png_encoder_warning_count(const ck_png_encoder *enc) { return enc->m.warning_count; }
const char *ck_png_encoder_warning(const ck_png_encoder *enc, int index) {
  if (index < 0 || index >= enc->m.warning_count || index >= CK_PNG_MAX_WARNINGS) return "";
  return enc->m.warnings[index];
}
