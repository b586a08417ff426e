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

static struct {
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
  int (*ispe_width)(const void *);
  int (*ispe_height)(const void *);
  struct heif_decoding_options *(*decoding_options_alloc)(void);
  void (*decoding_options_free)(struct heif_decoding_options *);
} lib;

struct ck_heif {
  void *context;
  void *handle;
  heif_item_id exif_id;
  size_t exif_skip;
  size_t exif_size;
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = CK_HEIF_ERR_UNAVAILABLE;
static char load_message[CK_HEIF_MESSAGE_LENGTH];

#define say(message, ...) ck_runtime_message(message, CK_HEIF_MESSAGE_LENGTH, __VA_ARGS__)

static void load(void) {
  static const char *names[] = {"libheif.so.1", "libheif.1.dylib", "/opt/homebrew/lib/libheif.1.dylib",
                                "/usr/local/lib/libheif.1.dylib"};
  void *handle = ck_runtime_library_open(names, sizeof names / sizeof names[0]);
  if (!handle) {
    say(load_message, "libheif is not installed (looked for libheif.so.1; on Debian/Ubuntu: apt install libheif1)");
    return;
  }
#define BIND(field, symbol)                                                              \
  if (!ck_runtime_library_bind(handle, symbol, (void **)&lib.field)) {                                 \
    say(load_message, "the libheif found lacks %s (libheif 1.x is needed)", symbol);    \
    return;                                                                              \
  }
  BIND(get_version, "heif_get_version")
  BIND(context_alloc, "heif_context_alloc")
  BIND(context_free, "heif_context_free")
  BIND(read_from_memory_without_copy, "heif_context_read_from_memory_without_copy")
  BIND(get_primary_image_handle, "heif_context_get_primary_image_handle")
  BIND(number_of_top_level_images, "heif_context_get_number_of_top_level_images")
  BIND(handle_release, "heif_image_handle_release")
  BIND(handle_width, "heif_image_handle_get_width")
  BIND(handle_height, "heif_image_handle_get_height")
  BIND(handle_has_alpha, "heif_image_handle_has_alpha_channel")
  BIND(handle_luma_bits, "heif_image_handle_get_luma_bits_per_pixel")
  BIND(handle_profile_type, "heif_image_handle_get_color_profile_type")
  BIND(handle_icc_size, "heif_image_handle_get_raw_color_profile_size")
  BIND(handle_icc, "heif_image_handle_get_raw_color_profile")
  BIND(metadata_count, "heif_image_handle_get_number_of_metadata_blocks")
  BIND(metadata_ids, "heif_image_handle_get_list_of_metadata_block_IDs")
  BIND(metadata_size, "heif_image_handle_get_metadata_size")
  BIND(metadata, "heif_image_handle_get_metadata")
  BIND(decode_image, "heif_decode_image")
  BIND(plane_readonly, "heif_image_get_plane_readonly")
  BIND(image_width, "heif_image_get_width")
  BIND(image_height, "heif_image_get_height")
  BIND(image_bits_range, "heif_image_get_bits_per_pixel_range")
  BIND(image_release, "heif_image_release")
  BIND(ispe_width, "heif_image_handle_get_ispe_width")
  BIND(ispe_height, "heif_image_handle_get_ispe_height")
  BIND(decoding_options_alloc, "heif_decoding_options_alloc")
  BIND(decoding_options_free, "heif_decoding_options_free")
#undef BIND
  // heif_init (1.13+) loads plugins; older libraries have their codecs built in and need no call.
  ck_runtime_library_bind(handle, "heif_init", (void **)&lib.init);
  // Grid tiles decode on several threads where the library can (1.14+).
  ck_runtime_library_bind(handle, "heif_context_set_max_decoding_threads", (void **)&lib.set_max_decoding_threads);
  if (lib.init) lib.init(NULL);
  load_status = CK_HEIF_OK;
}

int ck_heif_load(char *message) {
  pthread_once(&load_once, load);
  if (load_status != CK_HEIF_OK) say(message, "%s", load_message);
  return load_status;
}

const char *ck_heif_version(void) { return load_status == CK_HEIF_OK ? lib.get_version() : ""; }

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
  info->has_alpha = lib.handle_has_alpha(heif->handle);
  info->bits = lib.handle_luma_bits(heif->handle);
  info->profile_type = lib.handle_profile_type(heif->handle);
  info->icc_size = (info->profile_type == 0x72494343 /* rICC */ || info->profile_type == 0x70726f66 /* prof */)
                       ? lib.handle_icc_size(heif->handle) : 0;
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

int ck_heif_decode(ck_heif *heif, int alpha, int wide, uint8_t *output, size_t stride, char *message) {
  int chroma = wide ? (alpha ? CHROMA_RRGGBBAA_LE : CHROMA_RRGGBB_LE) : (alpha ? CHROMA_RGBA : CHROMA_RGB);
  void *image = NULL;
  struct heif_decoding_options *options = lib.decoding_options_alloc();
  if (!options) {
    say(message, "cannot allocate libheif decoding options");
    return CK_HEIF_ERR_MEMORY;
  }
  options->ignore_transformations = 1;
  int status = status_of(lib.decode_image(heif->handle, &image, COLORSPACE_RGB, chroma, options), message);
  lib.decoding_options_free(options);
  if (status != CK_HEIF_OK) return status;
  int ispe_width = lib.ispe_width(heif->handle), ispe_height = lib.ispe_height(heif->handle);
  int stored_width = ispe_width > 0 ? ispe_width : lib.handle_width(heif->handle);
  int stored_height = ispe_height > 0 ? ispe_height : lib.handle_height(heif->handle);
  int width = lib.image_width(image, CHANNEL_INTERLEAVED), height = lib.image_height(image, CHANNEL_INTERLEAVED);
  int plane_stride = 0;
  const uint8_t *plane = lib.plane_readonly(image, CHANNEL_INTERLEAVED, &plane_stride);
  if (!plane || width != stored_width || height != stored_height) {
    lib.image_release(image);
    say(message, "libheif decoded %d×%d, the file says %d×%d", width, height, stored_width, stored_height);
    return CK_HEIF_ERR_CORRUPT;
  }
  size_t channels = alpha ? 4 : 3;
  size_t row_bytes = (size_t)width * channels * (wide ? 2 : 1);
  int bits = wide ? lib.image_bits_range(image, CHANNEL_INTERLEAVED) : 8;
  for (int y = 0; y < height; y++) {
    const uint8_t *source = plane + (size_t)y * (size_t)plane_stride;
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

void ck_heif_close(ck_heif *heif) {
  if (!heif) return;
  if (heif->handle) lib.handle_release(heif->handle);
  if (heif->context) lib.context_free(heif->context);
  free(heif);
}
