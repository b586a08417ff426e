// See include/cheif_shim.h. The declarations below are the part of libheif's C API (heif.h of libheif 1.x) the
// shim calls, written from the library's documentation; all of it is functions on opaque handles.
#include "cheif_shim.h"


#include "runtime_library.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct heif_error {
  int code;
  int subcode;
  const char *message;
};
enum { HEIF_OK = 0, HEIF_INPUT_DOES_NOT_EXIST = 1, HEIF_INVALID_INPUT = 2, HEIF_UNSUPPORTED_FILETYPE = 3,
       HEIF_UNSUPPORTED_FEATURE = 4, HEIF_USAGE = 5, HEIF_MEMORY = 6, HEIF_DECODER_PLUGIN = 7 };
enum { SUB_END_OF_DATA = 100 };
enum { COLORSPACE_RGB = 1, CHANNEL_INTERLEAVED = 10 };
enum { CHROMA_RGB = 10, CHROMA_RGBA = 11, CHROMA_RRGGBB_LE = 14, CHROMA_RRGGBBAA_LE = 15 };
typedef uint32_t heif_item_id;
// The leading fields of libheif's decoding options (version 1 onwards); the library allocates the whole structure.
struct heif_decoding_options {
  uint8_t version;
  uint8_t ignore_transformations;
};

/// libheif's heif_color_profile_nclx (version 1 fields, then the primaries it decodes from them).
struct nclx_profile {
  uint8_t version;
  int color_primaries, transfer_characteristics, matrix_coefficients;
  uint8_t full_range_flag;
  float red_x, red_y, green_x, green_y, blue_x, blue_y, white_x, white_y;
};

typedef struct {
  const char *(*get_version)(void);
  void *(*context_alloc)(void);
  void (*context_free)(void *);
  struct heif_error (*read_from_memory_without_copy)(void *, const void *, size_t, const void *);
  struct heif_error (*get_primary_image_handle)(void *, void **);
  int (*number_of_top_level_images)(void *);
  void (*handle_release)(const void *);
  int (*handle_width)(const void *);
  int (*handle_height)(const void *);
  int (*handle_has_alpha)(const void *);
  int (*handle_luma_bits)(const void *);
  uint32_t (*handle_profile_type)(const void *);
  size_t (*handle_icc_size)(const void *);
  struct heif_error (*handle_icc)(const void *, void *);
  struct heif_error (*handle_nclx)(const void *, struct nclx_profile **);
  void (*nclx_free)(struct nclx_profile *);
  int (*metadata_count)(const void *, const char *);
  int (*metadata_ids)(const void *, const char *, heif_item_id *, int);
  size_t (*metadata_size)(const void *, heif_item_id);
  struct heif_error (*metadata)(const void *, heif_item_id, void *);
  struct heif_error (*decode_image)(const void *, void **, int, int, const void *);
  const uint8_t *(*plane_readonly)(const void *, int, int *);
  int (*image_width)(const void *, int);
  int (*image_height)(const void *, int);
  int (*image_bits_range)(const void *, int);
  void (*image_release)(const void *);
  struct heif_error (*init)(void *);
  void (*set_max_decoding_threads)(void *, int);
  void (*set_maximum_image_size_limit)(void *, int);
  int (*ispe_width)(const void *);
  int (*ispe_height)(const void *);
  struct heif_decoding_options *(*decoding_options_alloc)(void);
  void (*decoding_options_free)(struct heif_decoding_options *);
  // Encoding; NULL when the library has no encoder API (the decoder still works).
  struct heif_error (*get_encoder_for_format)(void *, int, void **);
  void (*encoder_release)(void *);
  struct heif_error (*encoder_set_lossy_quality)(void *, int);
  struct heif_error (*encoder_set_lossless)(void *, int);
  struct heif_error (*encoder_set_parameter_integer)(void *, const char *, int);
  struct heif_error (*image_create)(int, int, int, int, void **);
  struct heif_error (*image_add_plane)(void *, int, int, int, int);
  uint8_t *(*image_get_plane)(void *, int, int *);
  struct heif_error (*image_set_raw_color_profile)(void *, const char *, const void *, size_t);
  struct heif_error (*encode_image)(void *, const void *, void *, const void *, void **);
  struct heif_error (*add_exif_metadata)(void *, const void *, const void *, int);
  struct heif_error (*context_write)(void *, void *, void *);
} lib_functions;
static lib_functions lib;

struct ck_heif {
  void *context;
  void *handle;
  heif_item_id exif_id;
  size_t exif_skip;
  size_t exif_size;
};

static ck_load_state loading = CK_LOAD_STATE_INIT;

#define say(message, ...) ck_runtime_message(message, CK_HEIF_MESSAGE_LENGTH, __VA_ARGS__)

static void load(void) {
  void *handle = ck_runtime_library_load(CK_LIBRARY_HEIF, loading.message, sizeof loading.message);
  if (!handle) return;
  static const ck_binding bindings[] = {
      CK_BINDING(lib_functions, get_version, "heif_get_version"),
      CK_BINDING(lib_functions, context_alloc, "heif_context_alloc"),
      CK_BINDING(lib_functions, context_free, "heif_context_free"),
      CK_BINDING(lib_functions, read_from_memory_without_copy, "heif_context_read_from_memory_without_copy"),
      CK_BINDING(lib_functions, get_primary_image_handle, "heif_context_get_primary_image_handle"),
      CK_BINDING(lib_functions, number_of_top_level_images, "heif_context_get_number_of_top_level_images"),
      CK_BINDING(lib_functions, handle_release, "heif_image_handle_release"),
      CK_BINDING(lib_functions, handle_width, "heif_image_handle_get_width"),
      CK_BINDING(lib_functions, handle_height, "heif_image_handle_get_height"),
      CK_BINDING(lib_functions, handle_has_alpha, "heif_image_handle_has_alpha_channel"),
      CK_BINDING(lib_functions, handle_luma_bits, "heif_image_handle_get_luma_bits_per_pixel"),
      CK_BINDING(lib_functions, handle_profile_type, "heif_image_handle_get_color_profile_type"),
      CK_BINDING(lib_functions, handle_icc_size, "heif_image_handle_get_raw_color_profile_size"),
      CK_BINDING(lib_functions, handle_icc, "heif_image_handle_get_raw_color_profile"),
      CK_BINDING(lib_functions, handle_nclx, "heif_image_handle_get_nclx_color_profile"),
      CK_BINDING(lib_functions, nclx_free, "heif_nclx_color_profile_free"),
      CK_BINDING(lib_functions, metadata_count, "heif_image_handle_get_number_of_metadata_blocks"),
      CK_BINDING(lib_functions, metadata_ids, "heif_image_handle_get_list_of_metadata_block_IDs"),
      CK_BINDING(lib_functions, metadata_size, "heif_image_handle_get_metadata_size"),
      CK_BINDING(lib_functions, metadata, "heif_image_handle_get_metadata"),
      CK_BINDING(lib_functions, decode_image, "heif_decode_image"),
      CK_BINDING(lib_functions, plane_readonly, "heif_image_get_plane_readonly"),
      CK_BINDING(lib_functions, image_width, "heif_image_get_width"),
      CK_BINDING(lib_functions, image_height, "heif_image_get_height"),
      CK_BINDING(lib_functions, image_bits_range, "heif_image_get_bits_per_pixel_range"),
      CK_BINDING(lib_functions, image_release, "heif_image_release"),
      CK_BINDING(lib_functions, ispe_width, "heif_image_handle_get_ispe_width"),
      CK_BINDING(lib_functions, ispe_height, "heif_image_handle_get_ispe_height"),
      CK_BINDING(lib_functions, decoding_options_alloc, "heif_decoding_options_alloc"),
      CK_BINDING(lib_functions, decoding_options_free, "heif_decoding_options_free"),
  };
  if (!ck_runtime_library_bind_all(handle, &lib, bindings, sizeof bindings / sizeof *bindings, "libheif",
                                   "libheif 1.x is needed", loading.message, sizeof loading.message))
    return;
  ck_runtime_library_bind(handle, "heif_context_get_encoder_for_format", (void **)&lib.get_encoder_for_format);
  ck_runtime_library_bind(handle, "heif_encoder_release", (void **)&lib.encoder_release);
  ck_runtime_library_bind(handle, "heif_encoder_set_lossy_quality", (void **)&lib.encoder_set_lossy_quality);
  ck_runtime_library_bind(handle, "heif_encoder_set_lossless", (void **)&lib.encoder_set_lossless);
  ck_runtime_library_bind(handle, "heif_encoder_set_parameter_integer", (void **)&lib.encoder_set_parameter_integer);
  ck_runtime_library_bind(handle, "heif_image_create", (void **)&lib.image_create);
  ck_runtime_library_bind(handle, "heif_image_add_plane", (void **)&lib.image_add_plane);
  ck_runtime_library_bind(handle, "heif_image_get_plane", (void **)&lib.image_get_plane);
  ck_runtime_library_bind(handle, "heif_image_set_raw_color_profile", (void **)&lib.image_set_raw_color_profile);
  ck_runtime_library_bind(handle, "heif_context_encode_image", (void **)&lib.encode_image);
  ck_runtime_library_bind(handle, "heif_context_add_exif_metadata", (void **)&lib.add_exif_metadata);
  ck_runtime_library_bind(handle, "heif_context_write", (void **)&lib.context_write);
  // heif_init (1.13+) loads plugins; older libraries have their codecs built in and need no call.
  ck_runtime_library_bind(handle, "heif_init", (void **)&lib.init);
  // Grid tiles decode on several threads where the library can (1.14+).
  ck_runtime_library_bind(handle, "heif_context_set_max_decoding_threads", (void **)&lib.set_max_decoding_threads);
  ck_runtime_library_bind(handle, "heif_context_set_maximum_image_size_limit", (void **)&lib.set_maximum_image_size_limit);
  if (lib.init) lib.init(NULL);
  loading.status = CK_OK;
}

int ck_heif_load(char *message) { return ck_load_once(&loading, load, message, CK_HEIF_MESSAGE_LENGTH); }

const char *ck_heif_version(void) { return loading.status == CK_OK ? lib.get_version() : ""; }

static int status_of(struct heif_error error, char *message) {
  if (error.code == HEIF_OK) return CK_HEIF_OK;
  say(message, "%s", error.message ? error.message : "libheif error");
  switch (error.code) {
    case HEIF_MEMORY: return CK_HEIF_ERR_MEMORY;
    case HEIF_UNSUPPORTED_FEATURE:
    case HEIF_UNSUPPORTED_FILETYPE:
    case HEIF_DECODER_PLUGIN: return CK_HEIF_ERR_UNSUPPORTED;
    default: return error.subcode == SUB_END_OF_DATA ? CK_HEIF_ERR_TRUNCATED : CK_HEIF_ERR_CORRUPT;
  }
}

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

int ck_heif_open(const uint8_t *data, size_t size, ck_heif **out, ck_heif_info *info, char *message) {
  *out = NULL;
  int status = ck_heif_load(message);
  if (status != CK_HEIF_OK) return status;
  ck_heif *heif = calloc(1, sizeof *heif);
  if (!heif || !(heif->context = lib.context_alloc())) {
    free(heif);
    say(message, "cannot allocate a libheif context");
    return CK_HEIF_ERR_MEMORY;
  }
  if (lib.set_max_decoding_threads) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    lib.set_max_decoding_threads(heif->context, cores > 1 ? (int)(cores < 64 ? cores : 64) : 1);
  }
  status = status_of(lib.read_from_memory_without_copy(heif->context, data, size, NULL), message);
  if (status == CK_HEIF_OK) status = status_of(lib.get_primary_image_handle(heif->context, &heif->handle), message);
  if (status != CK_HEIF_OK) {
    ck_heif_close(heif);
    return status;
  }
  memset(info, 0, sizeof *info);
  info->width = lib.handle_width(heif->handle);
  info->height = lib.handle_height(heif->handle);
  int ispe_width = lib.ispe_width(heif->handle), ispe_height = lib.ispe_height(heif->handle);
  info->stored_width = ispe_width > 0 ? ispe_width : info->width;
  info->stored_height = ispe_height > 0 ? ispe_height : info->height;
  // A grid's canvas (from its descriptor in idat) or a tile may claim more than the image's own ispe, which CropKit
  // checks against its pixel limits: hold libheif near the checked size so such a file cannot allocate gigabytes.
  // (libheif 1.15 counts the limit against more than the picture itself, so it gets twice the longest side.)
  if (lib.set_maximum_image_size_limit) {
    int side = info->stored_width > info->stored_height ? info->stored_width : info->stored_height;
    int shown = info->width > info->height ? info->width : info->height;
    int longest = side > shown ? side : shown;
    lib.set_maximum_image_size_limit(heif->context, longest < (1 << 29) ? 2 * longest + 16 : INT32_MAX);
  }
  info->has_alpha = lib.handle_has_alpha(heif->handle);
  info->bits = lib.handle_luma_bits(heif->handle);
  info->profile_type = lib.handle_profile_type(heif->handle);
  info->icc_size = (info->profile_type == 0x72494343 /* rICC */ || info->profile_type == 0x70726f66 /* prof */)
                       ? lib.handle_icc_size(heif->handle) : 0;
  struct nclx_profile *nclx = NULL;
  // libheif 1.15 may hand out the structure along with an error (invalid code points): it is freed either way.
  int nclx_ok = info->profile_type == 0x6E636C78 /* nclx */ && lib.handle_nclx(heif->handle, &nclx).code == HEIF_OK;
  if (nclx_ok && nclx) {
    info->nclx_primaries = nclx->color_primaries;
    info->nclx_transfer = nclx->transfer_characteristics;
    info->nclx_matrix = nclx->matrix_coefficients;
    const float xy[8] = {nclx->red_x, nclx->red_y, nclx->green_x, nclx->green_y,
                         nclx->blue_x, nclx->blue_y, nclx->white_x, nclx->white_y};
    for (int i = 0; i < 8; i++) info->nclx_chromaticities[i] = xy[i];
  }
  if (nclx) lib.nclx_free(nclx);
  info->image_count = lib.number_of_top_level_images(heif->context);
  // The EXIF block: a 4-byte offset to the TIFF header, then the block (often with an "Exif\0\0" prefix there).
  heif_item_id id;
  if (lib.metadata_count(heif->handle, "Exif") > 0 && lib.metadata_ids(heif->handle, "Exif", &id, 1) == 1) {
    size_t length = lib.metadata_size(heif->handle, id);
    uint8_t *block = length >= 4 && length < (64u << 20) ? malloc(length) : NULL;
    if (block && lib.metadata(heif->handle, id, block).code == HEIF_OK) {
      size_t skip = 4 + (size_t)be32(block);
      if (skip < length) {
        heif->exif_id = id;
        heif->exif_skip = skip;
        heif->exif_size = length - skip;
        info->exif_size = heif->exif_size;
      }
    }
    free(block);
  }
  *out = heif;
  return CK_HEIF_OK;
}

int ck_heif_copy_metadata(ck_heif *heif, uint8_t *icc, uint8_t *exif, char *message) {
  if (icc) {
    int status = status_of(lib.handle_icc(heif->handle, icc), message);
    if (status != CK_HEIF_OK) return status;
  }
  if (exif && heif->exif_size > 0) {
    size_t length = lib.metadata_size(heif->handle, heif->exif_id);
    uint8_t *block = length == heif->exif_skip + heif->exif_size ? malloc(length) : NULL;
    if (!block) {
      say(message, "the EXIF block changed size");
      return CK_HEIF_ERR_CORRUPT;
    }
    int status = status_of(lib.metadata(heif->handle, heif->exif_id, block), message);
    if (status == CK_HEIF_OK) memcpy(exif, block + heif->exif_skip, heif->exif_size);
    free(block);
    return status;
  }
  return CK_HEIF_OK;
}

/// Decodes the primary image's stored pixels (transform properties not applied) as interleaved RGB in `chroma` and
/// checks that libheif's picture has the stored size. On success `*image` is libheif's, to release, and `*pixels`,
/// `*stride` its rows.
static int decode_interleaved(ck_heif *heif, int chroma, void **image, const uint8_t **pixels, int *stride,
                              char *message) {
  *image = NULL;
  struct heif_decoding_options *options = lib.decoding_options_alloc();
  if (!options) {
    say(message, "cannot allocate libheif decoding options");
    return CK_HEIF_ERR_MEMORY;
  }
  options->ignore_transformations = 1;
  int status = status_of(lib.decode_image(heif->handle, image, COLORSPACE_RGB, chroma, options), message);
  lib.decoding_options_free(options);
  if (status != CK_HEIF_OK) return status;
  int ispe_width = lib.ispe_width(heif->handle), ispe_height = lib.ispe_height(heif->handle);
  int stored_width = ispe_width > 0 ? ispe_width : lib.handle_width(heif->handle);
  int stored_height = ispe_height > 0 ? ispe_height : lib.handle_height(heif->handle);
  int width = lib.image_width(*image, CHANNEL_INTERLEAVED), height = lib.image_height(*image, CHANNEL_INTERLEAVED);
  *pixels = lib.plane_readonly(*image, CHANNEL_INTERLEAVED, stride);
  if (*pixels && width == stored_width && height == stored_height) return CK_HEIF_OK;
  if (*pixels) say(message, "libheif decoded %d×%d, the file says %d×%d", width, height, stored_width, stored_height);
  else say(message, "libheif gave no pixels");
  lib.image_release(*image);
  *image = NULL;
  return CK_HEIF_ERR_CORRUPT;
}

// Narrows the window (left, top, width, height; a width or height of 0 or less: the whole picture) to the decoded
// picture. Returns 0 when nothing is left.
static int clip_window(int picture_width, int picture_height, int *left, int *top, int *width, int *height) {
  if (*width <= 0 || *height <= 0) {
    *left = 0, *top = 0, *width = picture_width, *height = picture_height;
    return 1;
  }
  if (*left < 0 || *top < 0 || *left >= picture_width || *top >= picture_height) return 0;
  if (*width > picture_width - *left) *width = picture_width - *left;
  if (*height > picture_height - *top) *height = picture_height - *top;
  return 1;
}

int ck_heif_decode(ck_heif *heif, int alpha, int wide, int left, int top, int width, int height, uint8_t *output,
                   size_t stride, char *message) {
  int chroma = wide ? (alpha ? CHROMA_RRGGBBAA_LE : CHROMA_RRGGBB_LE) : (alpha ? CHROMA_RGBA : CHROMA_RGB);
  void *image = NULL;
  const uint8_t *plane = NULL;
  int plane_stride = 0;
  int status = decode_interleaved(heif, chroma, &image, &plane, &plane_stride, message);
  if (status != CK_HEIF_OK) return status;
  if (!clip_window(lib.image_width(image, CHANNEL_INTERLEAVED), lib.image_height(image, CHANNEL_INTERLEAVED), &left,
                   &top, &width, &height)) {
    lib.image_release(image);
    say(message, "the clean aperture lies outside the decoded picture");
    return CK_HEIF_ERR_CORRUPT;
  }
  size_t channels = alpha ? 4 : 3;
  size_t row_bytes = (size_t)width * channels * (wide ? 2 : 1);
  int bits = wide ? lib.image_bits_range(image, CHANNEL_INTERLEAVED) : 8;
  for (int y = 0; y < height; y++) {
    const uint8_t *source = plane + (size_t)(y + top) * (size_t)plane_stride + (size_t)left * channels * (wide ? 2 : 1);
    uint8_t *target = output + (size_t)y * stride;
    if (!wide || bits >= 16 || bits <= 8) {
      memcpy(target, source, row_bytes);
      continue;
    }
    // 10/12-bit samples in 16-bit little-endian words: widen to 0…65535 by bit replication.
    uint16_t *samples = (uint16_t *)target;
    for (size_t i = 0; i < (size_t)width * channels; i++) {
      unsigned value = (unsigned)source[2 * i] | (unsigned)source[2 * i + 1] << 8;
      if (value >= (1u << bits)) value = (1u << bits) - 1;
      samples[i] = (uint16_t)(value << (16 - bits) | value >> (2 * bits - 16));
    }
  }
  lib.image_release(image);
  return CK_HEIF_OK;
}

int ck_heif_decode_shrunk(ck_heif *heif, int factor, int left, int top, int width, int height, uint8_t *output,
                          size_t stride, char *message) {
  if (factor != 2 && factor != 4 && factor != 8) {
    say(message, "a shrink-on-load factor of %d (2, 4 or 8 are allowed)", factor);
    return CK_HEIF_ERR_UNSUPPORTED;
  }
  // Averaged straight from libheif's picture: CropKit never copies it whole. (libheif 1.15 asked for the Y'CbCr
  // planes converts them to RGB and back, so averaging those would be slower, not faster.)
  void *image = NULL;
  const uint8_t *pixels = NULL;
  int plane_stride = 0;
  int status = decode_interleaved(heif, CHROMA_RGB, &image, &pixels, &plane_stride, message);
  if (status != CK_HEIF_OK) return status;
  if (!clip_window(lib.image_width(image, CHANNEL_INTERLEAVED), lib.image_height(image, CHANNEL_INTERLEAVED), &left,
                   &top, &width, &height)) {
    lib.image_release(image);
    say(message, "the clean aperture lies outside the decoded picture");
    return CK_HEIF_ERR_CORRUPT;
  }
  int shrunk_width = (width + factor - 1) / factor, shrunk_height = (height + factor - 1) / factor;
  for (int y = 0; y < shrunk_height; y++) {
    uint8_t *target = output + (size_t)y * stride;
    for (int x = 0; x < shrunk_width; x++) {
      unsigned sums[3] = {0, 0, 0}, count = 0;
      for (int j = y * factor; j < (y + 1) * factor && j < height; j++) {
        const uint8_t *row = pixels + (size_t)(j + top) * (size_t)plane_stride + 3 * (size_t)left;
        for (int i = x * factor; i < (x + 1) * factor && i < width; i++, count++)
          for (int c = 0; c < 3; c++) sums[c] += row[3 * (size_t)i + c];
      }
      for (int c = 0; c < 3; c++) target[3 * x + c] = (uint8_t)((sums[c] + count / 2) / count);
    }
  }
  lib.image_release(image);
  return CK_HEIF_OK;
}

void ck_heif_close(ck_heif *heif) {
  if (!heif) return;
  if (heif->handle) lib.handle_release(heif->handle);
  if (heif->context) lib.context_free(heif->context);
  free(heif);
}

// The writer libheif calls with the file's bytes: they are appended to a growing buffer.
struct output_buffer {
  uint8_t *bytes;
  size_t size, capacity;
  int failed;
};

static struct heif_error append(void *context, const void *data, size_t size, void *userdata) {
  (void)context;
  struct output_buffer *out = userdata;
  struct heif_error ok = {HEIF_OK, 0, "ok"};
  if (out->failed) return ok;
  if (out->size + size > out->capacity) {
    size_t capacity = out->capacity ? out->capacity : 65536;
    while (capacity < out->size + size) capacity *= 2;
    uint8_t *grown = realloc(out->bytes, capacity);
    if (!grown) {
      out->failed = 1;
      struct heif_error error = {HEIF_MEMORY, 0, "out of memory"};
      return error;
    }
    out->bytes = grown;
    out->capacity = capacity;
  }
  memcpy(out->bytes + out->size, data, size);
  out->size += size;
  return ok;
}

struct heif_writer_v1 {
  int writer_api_version;
  struct heif_error (*write)(void *, const void *, size_t, void *);
};

/// Copies the rows into libheif's interleaved plane: 8-bit, or 10-bit little-endian words.
static void fill_plane(const uint8_t *pixels, int width, int height, size_t stride, const ck_heif_encode_params *params,
                       uint8_t *plane, size_t plane_stride) {
  size_t samples = (size_t)width * (size_t)(params->alpha ? 4 : 3);
  unsigned full = params->wide ? 65535u : 255u;
  for (int y = 0; y < height; y++) {
    const uint8_t *source = pixels + (size_t)y * stride;
    uint8_t *target = plane + (size_t)y * plane_stride;
    for (size_t i = 0; i < samples; i++) {
      unsigned value = params->wide ? ((const uint16_t *)source)[i] : source[i];
      if (params->bit_depth > 8) {
        unsigned v = (value * 1023u + full / 2) / full;
        target[2 * i] = (uint8_t)(v & 255);
        target[2 * i + 1] = (uint8_t)(v >> 8);
      } else {
        target[i] = (uint8_t)(params->wide ? (value * 255u + 32767u) / 65535u : value);
      }
    }
  }
}

static int encode(const uint8_t *pixels, int width, int height, size_t stride, const ck_heif_encode_params *params,
                  const uint8_t *icc, size_t icc_size, const uint8_t *exif, size_t exif_size, uint8_t **output,
                  size_t *output_size, char *message);

// x265 (libheif's HEVC encoder) keeps process-wide state and aborts when two encoders open or run at once (seen with
// Debian's libx265 199 under parallel tests), so HEIC encodes take turns; AV1 encoders are independent.
static pthread_mutex_t hevc_turn = PTHREAD_MUTEX_INITIALIZER;

int ck_heif_encode(const uint8_t *pixels, int width, int height, size_t stride, const ck_heif_encode_params *params,
                   const uint8_t *icc, size_t icc_size, const uint8_t *exif, size_t exif_size, uint8_t **output,
                   size_t *output_size, char *message) {
  if (params->av1) return encode(pixels, width, height, stride, params, icc, icc_size, exif, exif_size, output, output_size, message);
  pthread_mutex_lock(&hevc_turn);
  int status = encode(pixels, width, height, stride, params, icc, icc_size, exif, exif_size, output, output_size, message);
  pthread_mutex_unlock(&hevc_turn);
  return status;
}

static int encode(const uint8_t *pixels, int width, int height, size_t stride, const ck_heif_encode_params *params,
                  const uint8_t *icc, size_t icc_size, const uint8_t *exif, size_t exif_size, uint8_t **output,
                  size_t *output_size, char *message) {
  *output = NULL;
  *output_size = 0;
  int status = ck_heif_load(message);
  if (status != CK_HEIF_OK) return status;
  if (!lib.get_encoder_for_format || !lib.image_create || !lib.encode_image || !lib.context_write ||
      !lib.image_get_plane || !lib.image_add_plane || !lib.encoder_set_lossy_quality || !lib.encoder_release) {
    say(message, "this libheif has no encoding API");
    return CK_HEIF_ERR_UNSUPPORTED;
  }
  int ten = params->bit_depth > 8;
  void *context = lib.context_alloc(), *encoder = NULL, *image = NULL, *handle = NULL;
  struct output_buffer out = {0};
  if (!context) {
    say(message, "cannot allocate a libheif context");
    return CK_HEIF_ERR_MEMORY;
  }
  status = status_of(lib.get_encoder_for_format(context, params->av1 ? 4 : 1, &encoder), message);
  if (status != CK_HEIF_OK) {
    say(message, "this libheif has no %s encoder", params->av1 ? "AV1 (AVIF)" : "HEVC (HEIC)");
    status = CK_HEIF_ERR_UNSUPPORTED;
    goto done;
  }
  status = status_of(lib.encoder_set_lossy_quality(encoder, params->quality), message);
  if (status == CK_HEIF_OK && params->lossless && lib.encoder_set_lossless)
    status = status_of(lib.encoder_set_lossless(encoder, 1), message);
  if (status == CK_HEIF_OK && params->av1 && params->speed >= 0 && lib.encoder_set_parameter_integer)
    status = status_of(lib.encoder_set_parameter_integer(encoder, "speed", params->speed), message);
  if (status != CK_HEIF_OK) goto done;
  int chroma = ten ? (params->alpha ? CHROMA_RRGGBBAA_LE : CHROMA_RRGGBB_LE) : (params->alpha ? CHROMA_RGBA : CHROMA_RGB);
  status = status_of(lib.image_create(width, height, COLORSPACE_RGB, chroma, &image), message);
  if (status == CK_HEIF_OK)
    status = status_of(lib.image_add_plane(image, CHANNEL_INTERLEAVED, width, height, ten ? 10 : 8), message);
  if (status != CK_HEIF_OK) goto done;
  int plane_stride = 0;
  uint8_t *plane = lib.image_get_plane(image, CHANNEL_INTERLEAVED, &plane_stride);
  if (!plane) {
    say(message, "libheif gave no plane to fill");
    status = CK_HEIF_ERR_MEMORY;
    goto done;
  }
  fill_plane(pixels, width, height, stride, params, plane, (size_t)plane_stride);
  if (icc && icc_size && lib.image_set_raw_color_profile) {
    status = status_of(lib.image_set_raw_color_profile(image, "prof", icc, icc_size), message);
    if (status != CK_HEIF_OK) goto done;
  }
  status = status_of(lib.encode_image(context, image, encoder, NULL, &handle), message);
  if (status != CK_HEIF_OK) goto done;
  if (exif && exif_size && exif_size < (64u << 20) && lib.add_exif_metadata) {
    status = status_of(lib.add_exif_metadata(context, handle, exif, (int)exif_size), message);
    if (status != CK_HEIF_OK) goto done;
  }
  struct heif_writer_v1 writer = {1, append};
  status = status_of(lib.context_write(context, &writer, &out), message);
  if (status == CK_HEIF_OK && out.failed) {
    say(message, "out of memory");
    status = CK_HEIF_ERR_MEMORY;
  }
done:
  if (handle) lib.handle_release(handle);
  if (image) lib.image_release(image);
  if (encoder) lib.encoder_release(encoder);
  lib.context_free(context);
  if (status == CK_HEIF_OK) {
    *output = out.bytes;
    *output_size = out.size;
  } else {
    free(out.bytes);
  }
  return status;
}

void ck_heif_free_output(uint8_t *output) { free(output); }
