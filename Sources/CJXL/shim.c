// See include/cjxl_shim.h. The declarations below are the subset of libjxl's public ABI (jxl/decode.h,
// jxl/codestream_header.h, jxl/types.h, jxl/memory_manager.h, jxl/thread_parallel_runner.h, 0.7 to 0.11) that the
// shim uses, written from the library's documentation.
#include "cjxl_shim.h"

#include "runtime_library.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef int JXL_BOOL;
enum {
  DEC_SUCCESS = 0, DEC_ERROR = 1, DEC_NEED_MORE_INPUT = 2, DEC_NEED_IMAGE_OUT_BUFFER = 5,
  DEC_BOX_NEED_MORE_OUTPUT = 7, DEC_BASIC_INFO = 0x40, DEC_COLOR_ENCODING = 0x100, DEC_FRAME = 0x400,
  DEC_FULL_IMAGE = 0x1000, DEC_BOX = 0x4000,
};
enum { TYPE_UINT8 = 2, TYPE_UINT16 = 3 };
enum { ENC_SUCCESS = 0, ENC_ERROR = 1, ENC_NEED_MORE_OUTPUT = 2 };
enum { ENC_SETTING_EFFORT = 0 };
enum { NATIVE_ENDIAN = 0 };
enum { TARGET_ORIGINAL = 0, TARGET_DATA = 1 };

typedef struct { uint32_t num_channels; int data_type; int endianness; size_t align; } JxlPixelFormat;

/// libjxl's JxlBasicInfo (unchanged from 0.7 to 0.11; it ends with 100 reserved bytes).
typedef struct {
  JXL_BOOL have_container;
  uint32_t xsize, ysize, bits_per_sample, exponent_bits_per_sample;
  float intensity_target, min_nits;
  JXL_BOOL relative_to_max_display;
  float linear_below;
  JXL_BOOL uses_original_profile, have_preview, have_animation;
  int orientation;
  uint32_t num_color_channels, num_extra_channels, alpha_bits, alpha_exponent_bits;
  JXL_BOOL alpha_premultiplied;
  struct { uint32_t xsize, ysize; } preview;
  struct { uint32_t tps_numerator, tps_denominator, num_loops; JXL_BOOL have_timecodes; } animation;
  uint32_t intrinsic_xsize, intrinsic_ysize;
  uint8_t padding[100];
} JxlBasicInfo;

/// libjxl's JxlColorEncoding (unchanged from 0.7 to 0.11).
typedef struct {
  int color_space, white_point;
  double white_point_xy[2];
  int primaries;
  double primaries_red_xy[2], primaries_green_xy[2], primaries_blue_xy[2];
  int transfer_function;
  double gamma;
  int rendering_intent;
} JxlColorEncoding;
enum { SPACE_RGB = 0, SPACE_GRAY = 1, WHITE_D65 = 1, PRIMARIES_SRGB = 1, TRANSFER_SRGB = 13 };

/// Room for a JxlColorEncoding, should a release append to it.
typedef union { JxlColorEncoding value; unsigned char bytes[512]; } ColorEncodingRoom;

typedef void *(*alloc_func)(void *opaque, size_t size);
typedef void (*free_func)(void *opaque, void *address);
typedef struct { void *opaque; alloc_func alloc; free_func free; } JxlMemoryManager;

typedef int (*parallel_runner)(void *, void *, void *, void *, uint32_t, uint32_t);

typedef struct {
  uint32_t (*version)(void);
  void *(*create)(const JxlMemoryManager *);
  void (*destroy)(void *);
  int (*subscribe)(void *, int);
  int (*keep_orientation)(void *, JXL_BOOL);
  int (*unpremultiply)(void *, JXL_BOOL);
  int (*set_runner)(void *, parallel_runner, void *);
  int (*set_input)(void *, const uint8_t *, size_t);
  void (*close_input)(void *);
  int (*process)(void *);
  int (*basic_info)(const void *, JxlBasicInfo *);
  // Before 0.9 the three colour-profile calls took an unused pixel format after the decoder; `profile_format`
  // says which form the library speaks.
  void *icc_size;
  void *icc;
  void *encoded_profile;
  int (*preferred_profile)(void *, const void *);
  int (*out_buffer_size)(const void *, const JxlPixelFormat *, size_t *);
  int (*set_out_buffer)(void *, const JxlPixelFormat *, void *, size_t);
  int (*set_decompress_boxes)(void *, JXL_BOOL);
  int (*box_type)(void *, char *, JXL_BOOL);
  int (*set_box_buffer)(void *, uint8_t *, size_t);
  size_t (*release_box_buffer)(void *);
  void (*srgb)(void *, JXL_BOOL);
  int (*frame_header)(const void *, void *);
  // The encoder.
  void *(*enc_create)(const JxlMemoryManager *);
  void (*enc_destroy)(void *);
  int (*enc_set_runner)(void *, parallel_runner, void *);
  void (*enc_init_basic_info)(JxlBasicInfo *);
  int (*enc_set_basic_info)(void *, const JxlBasicInfo *);
  int (*enc_set_color)(void *, const void *);
  int (*enc_set_icc)(void *, const uint8_t *, size_t);
  void *(*enc_settings)(void *, const void *);
  int (*enc_set_option)(void *, int, int64_t);
  int (*enc_distance)(void *, float);
  int (*enc_lossless)(void *, JXL_BOOL);
  int (*enc_add_image)(const void *, const JxlPixelFormat *, const void *, size_t);
  int (*enc_add_jpeg)(const void *, const uint8_t *, size_t);
  int (*enc_store_jpeg_metadata)(void *, JXL_BOOL);
  int (*enc_use_boxes)(void *);
  int (*enc_add_box)(void *, const char *, const uint8_t *, size_t, JXL_BOOL);
  void (*enc_close_input)(void *);
  int (*enc_process_output)(void *, uint8_t **, size_t *);
} lib_functions;
static lib_functions lib;
static int profile_format;  // 1: the calls take the unused pixel format (libjxl 0.7 and 0.8)

typedef struct {
  void *(*create)(const JxlMemoryManager *, size_t);
  void (*destroy)(void *);
  parallel_runner run;
} threads_functions;
static threads_functions threads_lib;

static ck_load_state loading = CK_LOAD_STATE_INIT;

#define say(message, ...) ck_runtime_message(message, CK_JXL_MESSAGE_LENGTH, __VA_ARGS__)

static void load(void) {
  void *handle = ck_runtime_library_load(CK_LIBRARY_JXL, loading.message, sizeof loading.message);
  if (!handle) return;
  static const ck_binding bindings[] = {
      CK_BINDING(lib_functions, version, "JxlDecoderVersion"),
      CK_BINDING(lib_functions, create, "JxlDecoderCreate"),
      CK_BINDING(lib_functions, destroy, "JxlDecoderDestroy"),
      CK_BINDING(lib_functions, subscribe, "JxlDecoderSubscribeEvents"),
      CK_BINDING(lib_functions, keep_orientation, "JxlDecoderSetKeepOrientation"),
      CK_BINDING(lib_functions, unpremultiply, "JxlDecoderSetUnpremultiplyAlpha"),
      CK_BINDING(lib_functions, set_runner, "JxlDecoderSetParallelRunner"),
      CK_BINDING(lib_functions, set_input, "JxlDecoderSetInput"),
      CK_BINDING(lib_functions, close_input, "JxlDecoderCloseInput"),
      CK_BINDING(lib_functions, process, "JxlDecoderProcessInput"),
      CK_BINDING(lib_functions, basic_info, "JxlDecoderGetBasicInfo"),
      CK_BINDING(lib_functions, icc_size, "JxlDecoderGetICCProfileSize"),
      CK_BINDING(lib_functions, icc, "JxlDecoderGetColorAsICCProfile"),
      CK_BINDING(lib_functions, encoded_profile, "JxlDecoderGetColorAsEncodedProfile"),
      CK_BINDING(lib_functions, preferred_profile, "JxlDecoderSetPreferredColorProfile"),
      CK_BINDING(lib_functions, out_buffer_size, "JxlDecoderImageOutBufferSize"),
      CK_BINDING(lib_functions, set_out_buffer, "JxlDecoderSetImageOutBuffer"),
      CK_BINDING(lib_functions, set_decompress_boxes, "JxlDecoderSetDecompressBoxes"),
      CK_BINDING(lib_functions, box_type, "JxlDecoderGetBoxType"),
      CK_BINDING(lib_functions, set_box_buffer, "JxlDecoderSetBoxBuffer"),
      CK_BINDING(lib_functions, release_box_buffer, "JxlDecoderReleaseBoxBuffer"),
      CK_BINDING(lib_functions, srgb, "JxlColorEncodingSetToSRGB"),
      CK_BINDING(lib_functions, frame_header, "JxlDecoderGetFrameHeader"),
      CK_BINDING(lib_functions, enc_create, "JxlEncoderCreate"),
      CK_BINDING(lib_functions, enc_destroy, "JxlEncoderDestroy"),
      CK_BINDING(lib_functions, enc_set_runner, "JxlEncoderSetParallelRunner"),
      CK_BINDING(lib_functions, enc_init_basic_info, "JxlEncoderInitBasicInfo"),
      CK_BINDING(lib_functions, enc_set_basic_info, "JxlEncoderSetBasicInfo"),
      CK_BINDING(lib_functions, enc_set_color, "JxlEncoderSetColorEncoding"),
      CK_BINDING(lib_functions, enc_set_icc, "JxlEncoderSetICCProfile"),
      CK_BINDING(lib_functions, enc_settings, "JxlEncoderFrameSettingsCreate"),
      CK_BINDING(lib_functions, enc_set_option, "JxlEncoderFrameSettingsSetOption"),
      CK_BINDING(lib_functions, enc_distance, "JxlEncoderSetFrameDistance"),
      CK_BINDING(lib_functions, enc_lossless, "JxlEncoderSetFrameLossless"),
      CK_BINDING(lib_functions, enc_add_image, "JxlEncoderAddImageFrame"),
      CK_BINDING(lib_functions, enc_add_jpeg, "JxlEncoderAddJPEGFrame"),
      CK_BINDING(lib_functions, enc_store_jpeg_metadata, "JxlEncoderStoreJPEGMetadata"),
      CK_BINDING(lib_functions, enc_use_boxes, "JxlEncoderUseBoxes"),
      CK_BINDING(lib_functions, enc_add_box, "JxlEncoderAddBox"),
      CK_BINDING(lib_functions, enc_close_input, "JxlEncoderCloseInput"),
      CK_BINDING(lib_functions, enc_process_output, "JxlEncoderProcessOutput"),
  };
  if (!ck_runtime_library_bind_all(handle, &lib, bindings, sizeof bindings / sizeof *bindings, "libjxl",
                                   "libjxl 0.7 or later is needed", loading.message, sizeof loading.message))
    return;
  uint32_t version = lib.version();
  if (version < 7000 || version >= 1000000) {
    say(loading.message, "the libjxl found is %u.%u.%u; the shim speaks libjxl 0.7 to 0.11", version / 1000000,
        version / 1000 % 1000, version % 1000);
    return;
  }
  profile_format = version < 9000;
  void *threads = ck_runtime_library_load(CK_LIBRARY_JXL_THREADS, loading.message, sizeof loading.message);
  if (!threads) return;
  static const ck_binding thread_bindings[] = {
      CK_BINDING(threads_functions, create, "JxlThreadParallelRunnerCreate"),
      CK_BINDING(threads_functions, destroy, "JxlThreadParallelRunnerDestroy"),
      CK_BINDING(threads_functions, run, "JxlThreadParallelRunner"),
  };
  if (!ck_runtime_library_bind_all(threads, &threads_lib, thread_bindings,
                                   sizeof thread_bindings / sizeof *thread_bindings, "libjxl_threads",
                                   "libjxl_threads 0.7 or later is needed", loading.message, sizeof loading.message))
    return;
  loading.status = CK_OK;
}

int ck_jxl_load(char *message) { return ck_load_once(&loading, load, message, CK_JXL_MESSAGE_LENGTH); }

// The three colour-profile calls, in whichever form the library speaks.
static int get_icc_size(void *dec, int target, size_t *size) {
  if (profile_format) return ((int (*)(const void *, const void *, int, size_t *))lib.icc_size)(dec, NULL, target, size);
  return ((int (*)(const void *, int, size_t *))lib.icc_size)(dec, target, size);
}
static int get_icc(void *dec, int target, uint8_t *icc, size_t size) {
  if (profile_format) return ((int (*)(const void *, const void *, int, uint8_t *, size_t))lib.icc)(dec, NULL, target, icc, size);
  return ((int (*)(const void *, int, uint8_t *, size_t))lib.icc)(dec, target, icc, size);
}
static int get_encoded_profile(void *dec, int target, void *encoding) {
  if (profile_format) return ((int (*)(const void *, const void *, int, void *))lib.encoded_profile)(dec, NULL, target, encoding);
  return ((int (*)(const void *, int, void *))lib.encoded_profile)(dec, target, encoding);
}

// The memory manager: every block carries its size in a 16-byte header (keeping malloc's alignment), and the running
// total may not pass the cap.
typedef struct {
  pthread_mutex_t lock;
  size_t cap, total, peak;
  int refused;
} budget;

static void *budget_alloc(void *opaque, size_t size) {
  budget *b = opaque;
  if (size > SIZE_MAX - 16) return NULL;
  pthread_mutex_lock(&b->lock);
  int allowed = size <= b->cap - b->total;  // total ≤ cap always holds
  if (allowed) {
    b->total += size;
    if (b->total > b->peak) b->peak = b->total;
  } else {
    b->refused = 1;
  }
  pthread_mutex_unlock(&b->lock);
  if (!allowed) return NULL;
  unsigned char *block = malloc(size + 16);
  if (!block) {
    pthread_mutex_lock(&b->lock);
    b->total -= size;
    b->refused = 1;
    pthread_mutex_unlock(&b->lock);
    return NULL;
  }
  memcpy(block, &size, sizeof size);
  return block + 16;
}

static void budget_free(void *opaque, void *address) {
  if (!address) return;
  budget *b = opaque;
  unsigned char *block = (unsigned char *)address - 16;
  size_t size;
  memcpy(&size, block, sizeof size);
  pthread_mutex_lock(&b->lock);
  b->total -= size;
  pthread_mutex_unlock(&b->lock);
  free(block);
}

struct ck_jxl {
  budget memory;
  JxlMemoryManager manager;
  void *decoder;
  uint8_t *data;
  size_t size;
  JxlBasicInfo basic;
  uint8_t *icc, *exif;
  int prefer_srgb;
  /// While frames are read (ck_jxl_frames_start … close): the thread runner, and the next frame's duration in ticks.
  void *runner;
  uint32_t frame_ticks;
};

/// Room for libjxl's JxlFrameHeader, whose first field is the frame's duration in ticks (the rest is not read).
typedef union {
  uint32_t duration;
  unsigned char bytes[256];
} FrameHeaderRoom;

/// The status for a libjxl failure (an allocation the budget refused is named as such).
static int failure(ck_jxl *jxl, int status, const char *doing, char *message) {
  if (jxl->memory.refused) {
    say(message, "%s: libjxl needed more than the %zu MB allowed", doing, jxl->memory.cap >> 20);
    return CK_JXL_ERR_MEMORY;
  }
  if (status == DEC_NEED_MORE_INPUT) {
    say(message, "%s: the data ended early", doing);
    return CK_JXL_ERR_TRUNCATED;
  }
  say(message, "%s: libjxl could not decode the data", doing);
  return CK_JXL_ERR_CORRUPT;
}

/// A fresh decoder over the handle's data, subscribed to `events`, keeping the stored orientation.
static int start(ck_jxl *jxl, int events, char *message) {
  if (jxl->decoder) lib.destroy(jxl->decoder);
  jxl->decoder = lib.create(&jxl->manager);
  if (!jxl->decoder) {
    say(message, "libjxl could not create a decoder");
    return CK_JXL_ERR_MEMORY;
  }
  if (lib.subscribe(jxl->decoder, events) != DEC_SUCCESS || lib.keep_orientation(jxl->decoder, 1) != DEC_SUCCESS ||
      lib.set_input(jxl->decoder, jxl->data, jxl->size) != DEC_SUCCESS) {
    say(message, "libjxl refused the decoder's settings");
    return CK_JXL_ERR_USAGE;
  }
  lib.close_input(jxl->decoder);
  return CK_JXL_OK;
}

/// Asks for sRGB when the file is lossy (XYB) from a colour space libjxl cannot name (an arbitrary ICC profile): the
/// pixels would otherwise come out in linear sRGB. Call at the colour-encoding event.
static void prefer_srgb_if_needed(ck_jxl *jxl) {
  ColorEncodingRoom original;
  if (jxl->basic.uses_original_profile || get_encoded_profile(jxl->decoder, TARGET_ORIGINAL, &original) == DEC_SUCCESS)
    return;
  ColorEncodingRoom srgb;
  memset(&srgb, 0, sizeof srgb);
  lib.srgb(&srgb, jxl->basic.num_color_channels == 1);
  if (lib.preferred_profile(jxl->decoder, &srgb) == DEC_SUCCESS) jxl->prefer_srgb = 1;
}

int ck_jxl_open(const uint8_t *data, size_t size, size_t max_memory, ck_jxl **out, ck_jxl_info *info, char *message) {
  *out = NULL;
  memset(info, 0, sizeof *info);
  int status = ck_jxl_load(message);
  if (status != CK_JXL_OK) return status;
  ck_jxl *jxl = calloc(1, sizeof *jxl);
  if (!jxl) {
    say(message, "out of memory");
    return CK_JXL_ERR_MEMORY;
  }
  *out = jxl;
  pthread_mutex_init(&jxl->memory.lock, NULL);
  jxl->memory.cap = max_memory;
  jxl->manager = (JxlMemoryManager){&jxl->memory, budget_alloc, budget_free};
  jxl->data = malloc(size ? size : 1);
  if (!jxl->data) {
    say(message, "out of memory");
    return CK_JXL_ERR_MEMORY;
  }
  memcpy(jxl->data, data, size);
  jxl->size = size;
  status = start(jxl, DEC_BASIC_INFO | DEC_COLOR_ENCODING | DEC_BOX | DEC_FRAME, message);
  if (status != CK_JXL_OK) return status;
  lib.set_decompress_boxes(jxl->decoder, 1);  // a brob-compressed Exif box too (fails harmlessly without brotli)
  int have_info = 0, have_color = 0;
  size_t exif_capacity = 0, exif_used = 0;
  int in_exif = 0;
  for (;;) {
    int event = lib.process(jxl->decoder);
    if (event == DEC_BOX_NEED_MORE_OUTPUT && in_exif) {
      // Grow the Exif buffer (at most 16 MB: EXIF cannot be larger than 64 KB in a JPEG, and no reader needs more).
      size_t left = lib.release_box_buffer(jxl->decoder);
      exif_used = exif_capacity - left;
      if (exif_capacity >= (16u << 20)) {
        in_exif = 0;
        continue;
      }
      size_t grown = exif_capacity * 2;
      uint8_t *bigger = realloc(jxl->exif, grown);
      if (!bigger) {
        say(message, "out of memory");
        return CK_JXL_ERR_MEMORY;
      }
      jxl->exif = bigger;
      exif_capacity = grown;
      lib.set_box_buffer(jxl->decoder, jxl->exif + exif_used, exif_capacity - exif_used);
      continue;
    }
    if (in_exif && (event == DEC_BOX || event == DEC_FRAME || event == DEC_SUCCESS)) {
      size_t left = lib.release_box_buffer(jxl->decoder);
      exif_used = exif_capacity - left;
      in_exif = 0;
    }
    if (event == DEC_BASIC_INFO) {
      if (lib.basic_info(jxl->decoder, &jxl->basic) != DEC_SUCCESS) return failure(jxl, DEC_ERROR, "reading the header", message);
      have_info = 1;
    } else if (event == DEC_COLOR_ENCODING) {
      prefer_srgb_if_needed(jxl);
      size_t icc_size = 0;
      if (get_icc_size(jxl->decoder, TARGET_DATA, &icc_size) == DEC_SUCCESS && icc_size > 0 && icc_size < (64u << 20)) {
        jxl->icc = malloc(icc_size);
        if (jxl->icc && get_icc(jxl->decoder, TARGET_DATA, jxl->icc, icc_size) == DEC_SUCCESS) {
          info->icc = jxl->icc;
          info->icc_size = (uint32_t)icc_size;
        }
      }
      have_color = 1;
    } else if (event == DEC_BOX) {
      char type[4] = {0};
      if (lib.box_type(jxl->decoder, type, 1) == DEC_SUCCESS && memcmp(type, "Exif", 4) == 0 && !jxl->exif) {
        exif_capacity = 4096;
        jxl->exif = malloc(exif_capacity);
        if (!jxl->exif) {
          say(message, "out of memory");
          return CK_JXL_ERR_MEMORY;
        }
        in_exif = 1;
        lib.set_box_buffer(jxl->decoder, jxl->exif, exif_capacity);
      } else if (memcmp(type, "jbrd", 4) == 0) {
        info->jpeg_reconstruction = 1;
      }
    } else if (event == DEC_FRAME || event == DEC_SUCCESS) {
      break;  // the header, profile and boxes before the first frame are read
    } else {
      if (have_info && have_color && event == DEC_NEED_MORE_INPUT) break;  // a box-less stream cut after its header
      return failure(jxl, event, "reading the header", message);
    }
  }
  if (!have_info || !have_color) return failure(jxl, DEC_NEED_MORE_INPUT, "reading the header", message);
  const JxlBasicInfo *b = &jxl->basic;
  info->width = b->xsize;
  info->height = b->ysize;
  info->bits_per_sample = b->bits_per_sample;
  info->exponent_bits = b->exponent_bits_per_sample;
  info->color_channels = b->num_color_channels;
  info->alpha_bits = b->alpha_bits;
  info->alpha_premultiplied = b->alpha_premultiplied;
  info->other_extra_channels = b->num_extra_channels - (b->alpha_bits > 0 && b->num_extra_channels > 0 ? 1 : 0);
  info->orientation = b->orientation >= 1 && b->orientation <= 8 ? b->orientation : 1;
  info->animation = b->have_animation;
  info->uses_original_profile = b->uses_original_profile;
  info->container = b->have_container;
  info->profile_converted = jxl->prefer_srgb;
  ColorEncodingRoom named;
  if (get_encoded_profile(jxl->decoder, TARGET_ORIGINAL, &named) == DEC_SUCCESS) {
    const JxlColorEncoding *c = &named.value;
    info->names_srgb = (c->color_space == SPACE_GRAY || (c->color_space == SPACE_RGB && c->primaries == PRIMARIES_SRGB)) &&
                       c->white_point == WHITE_D65 && c->transfer_function == TRANSFER_SRGB;
  }
  // The Exif box starts with a 4-byte offset to the TIFF header.
  if (jxl->exif && exif_used > 4) {
    uint32_t offset = (uint32_t)jxl->exif[0] << 24 | (uint32_t)jxl->exif[1] << 16 | (uint32_t)jxl->exif[2] << 8 | jxl->exif[3];
    if (offset < exif_used - 4) {
      info->exif = jxl->exif + 4 + offset;
      info->exif_size = (uint32_t)(exif_used - 4 - offset);
    }
  }
  return CK_JXL_OK;
}

/// Hands libjxl `output` for the picture (`format`'s channels and row stride, the basic info's height), after checking
/// that libjxl needs no more than that.
static int set_output(ck_jxl *jxl, const JxlPixelFormat *format, uint8_t *output, char *message) {
  const size_t needed = format->align * jxl->basic.ysize;
  size_t size = 0;
  if (lib.out_buffer_size(jxl->decoder, format, &size) != DEC_SUCCESS || size > needed ||
      lib.set_out_buffer(jxl->decoder, format, output, needed) != DEC_SUCCESS) {
    say(message, "libjxl refused a %u×%u buffer of %u channels, %zu bytes a row", jxl->basic.xsize, jxl->basic.ysize,
        format->num_channels, format->align);
    return CK_JXL_ERR_USAGE;
  }
  return CK_JXL_OK;
}

int ck_jxl_decode(ck_jxl *jxl, uint8_t *output, size_t stride, int channels, int sixteen, int threads, char *message) {
  if (!jxl || !jxl->data || channels < 1 || channels > 4) {
    say(message, "ck_jxl_decode called without an open file or with %d channels", channels);
    return CK_JXL_ERR_USAGE;
  }
  int status = start(jxl, DEC_COLOR_ENCODING | DEC_FULL_IMAGE, message);
  if (status != CK_JXL_OK) return status;
  lib.unpremultiply(jxl->decoder, 1);
  void *runner = NULL;
  if (threads > 1) {
    runner = threads_lib.create(&jxl->manager, (size_t)threads);
    if (runner) lib.set_runner(jxl->decoder, threads_lib.run, runner);
  }
  const JxlPixelFormat format = {(uint32_t)channels, sixteen ? TYPE_UINT16 : TYPE_UINT8, NATIVE_ENDIAN, stride};
  for (;;) {
    int event = lib.process(jxl->decoder);
    if (event == DEC_COLOR_ENCODING) {
      jxl->prefer_srgb = 0;
      prefer_srgb_if_needed(jxl);
    } else if (event == DEC_NEED_IMAGE_OUT_BUFFER) {
      status = set_output(jxl, &format, output, message);
      if (status != CK_JXL_OK) break;
    } else if (event == DEC_FULL_IMAGE) {
      status = CK_JXL_OK;
      break;
    } else {
      status = failure(jxl, event, "decoding", message);
      break;
    }
  }
  lib.destroy(jxl->decoder);  // before the runner it uses
  jxl->decoder = NULL;
  if (runner) threads_lib.destroy(runner);
  return status;
}

/// Milliseconds of `ticks` at the animation's tick rate (at least 1 tick a second; rounded).
static int32_t milliseconds(const ck_jxl *jxl, uint64_t ticks) {
  uint64_t numerator = jxl->basic.animation.tps_numerator, denominator = jxl->basic.animation.tps_denominator;
  if (numerator == 0) return 0;
  uint64_t ms = (ticks * denominator * 1000 + numerator / 2) / numerator;
  return ms > INT32_MAX ? INT32_MAX : (int32_t)ms;
}

int ck_jxl_count_frames(ck_jxl *jxl, uint32_t *frames, double *seconds, uint32_t *loops, char *message) {
  *frames = 0, *seconds = 0, *loops = 0;
  if (!jxl || !jxl->data) {
    say(message, "ck_jxl_count_frames called without an open file");
    return CK_JXL_ERR_USAGE;
  }
  // Subscribed to frame headers only, libjxl skips the frames' pixels.
  int status = start(jxl, DEC_FRAME, message);
  if (status != CK_JXL_OK) return status;
  uint64_t ticks = 0;
  for (;;) {
    int event = lib.process(jxl->decoder);
    if (event == DEC_FRAME) {
      FrameHeaderRoom header = {0};
      if (lib.frame_header(jxl->decoder, &header) != DEC_SUCCESS) {
        status = failure(jxl, DEC_ERROR, "reading a frame header", message);
        break;
      }
      *frames += 1;
      ticks += header.duration;
    } else if (event == DEC_SUCCESS) {
      break;
    } else {
      status = failure(jxl, event, "counting the frames", message);
      break;
    }
  }
  lib.destroy(jxl->decoder);
  jxl->decoder = NULL;
  uint64_t numerator = jxl->basic.animation.tps_numerator;
  *seconds = numerator ? (double)ticks * jxl->basic.animation.tps_denominator / (double)numerator : 0;
  *loops = jxl->basic.animation.num_loops;
  return status;
}

int ck_jxl_frames_start(ck_jxl *jxl, int threads, char *message) {
  if (!jxl || !jxl->data) {
    say(message, "ck_jxl_frames_start called without an open file");
    return CK_JXL_ERR_USAGE;
  }
  int status = start(jxl, DEC_COLOR_ENCODING | DEC_FRAME | DEC_FULL_IMAGE, message);
  if (status != CK_JXL_OK) return status;
  lib.unpremultiply(jxl->decoder, 1);
  if (threads > 1 && !jxl->runner) jxl->runner = threads_lib.create(&jxl->manager, (size_t)threads);
  if (jxl->runner) lib.set_runner(jxl->decoder, threads_lib.run, jxl->runner);
  return CK_JXL_OK;
}

int ck_jxl_frames_next(ck_jxl *jxl, uint8_t *output, size_t stride, int32_t *delay, int32_t *decoded, char *message) {
  *delay = 0, *decoded = 0;
  if (!jxl || !jxl->decoder) {
    say(message, "ck_jxl_frames_next called before ck_jxl_frames_start");
    return CK_JXL_ERR_USAGE;
  }
  const JxlPixelFormat format = {4, TYPE_UINT8, NATIVE_ENDIAN, stride};
  for (;;) {
    int event = lib.process(jxl->decoder);
    if (event == DEC_COLOR_ENCODING) {
      jxl->prefer_srgb = 0;
      prefer_srgb_if_needed(jxl);
    } else if (event == DEC_FRAME) {
      FrameHeaderRoom header = {0};
      if (lib.frame_header(jxl->decoder, &header) != DEC_SUCCESS) return failure(jxl, DEC_ERROR, "reading a frame header", message);
      jxl->frame_ticks = header.duration;
    } else if (event == DEC_NEED_IMAGE_OUT_BUFFER) {
      int status = set_output(jxl, &format, output, message);
      if (status != CK_JXL_OK) return status;
    } else if (event == DEC_FULL_IMAGE) {
      *delay = milliseconds(jxl, jxl->frame_ticks);
      *decoded = 1;
      return CK_JXL_OK;
    } else if (event == DEC_SUCCESS) {
      return CK_JXL_OK;
    } else {
      return failure(jxl, event, "decoding a frame", message);
    }
  }
}

void ck_jxl_close(ck_jxl *jxl) {
  if (!jxl) return;
  if (jxl->decoder) lib.destroy(jxl->decoder);
  if (jxl->runner) threads_lib.destroy(jxl->runner);  // after the decoder that uses it
  free(jxl->data);
  free(jxl->icc);
  free(jxl->exif);
  pthread_mutex_destroy(&jxl->memory.lock);
  free(jxl);
}

// Encoding.

/// The encoder's output so far, grown as libjxl asks for room.
typedef struct {
  uint8_t *bytes;
  size_t size, capacity;
} growing;

/// Runs the encoder to the end of its output, into `*output`.
static int drain(void *enc, uint8_t **output, size_t *output_size, char *message) {
  growing out = {malloc(1 << 16), 0, 1 << 16};
  if (!out.bytes) {
    say(message, "out of memory");
    return CK_JXL_ERR_MEMORY;
  }
  for (;;) {
    uint8_t *next = out.bytes + out.size;
    size_t room = out.capacity - out.size;
    int status = lib.enc_process_output(enc, &next, &room);
    out.size = (size_t)(next - out.bytes);
    if (status == ENC_SUCCESS) break;
    if (status != ENC_NEED_MORE_OUTPUT) {
      free(out.bytes);
      say(message, "libjxl could not encode the picture");
      return CK_JXL_ERR_CORRUPT;
    }
    uint8_t *bigger = realloc(out.bytes, out.capacity * 2);
    if (!bigger) {
      free(out.bytes);
      say(message, "out of memory");
      return CK_JXL_ERR_MEMORY;
    }
    out.bytes = bigger;
    out.capacity *= 2;
  }
  *output = out.bytes;
  *output_size = out.size;
  return CK_JXL_OK;
}

/// A new encoder on `threads` threads (its runner in `*runner`, to destroy after the encoder), or NULL.
static void *new_encoder(int threads, void **runner) {
  *runner = NULL;
  void *enc = lib.enc_create(NULL);
  if (enc && threads > 1) {
    *runner = threads_lib.create(NULL, (size_t)threads);
    if (*runner) lib.enc_set_runner(enc, threads_lib.run, *runner);
  }
  return enc;
}

static void end_encoder(void *enc, void *runner) {
  if (enc) lib.enc_destroy(enc);
  if (runner) threads_lib.destroy(runner);
}

int ck_jxl_encode(const uint8_t *pixels, int width, int height, size_t stride, int channels, int sixteen,
                  const ck_jxl_encode_params *params, const uint8_t *icc, size_t icc_size, const uint8_t *exif,
                  size_t exif_size, uint8_t **output, size_t *output_size, char *message) {
  *output = NULL;
  *output_size = 0;
  int status = ck_jxl_load(message);
  if (status != CK_JXL_OK) return status;
  if (width < 1 || height < 1 || channels < 1 || channels > 4 || params->effort < 1 || params->effort > 9 ||
      (!params->lossless && !(params->distance >= 0.1f && params->distance <= 25.0f))) {
    say(message, "invalid arguments (%d×%d, %d channels, effort %d, distance %.2f)", width, height, channels,
        params->effort, params->distance);
    return CK_JXL_ERR_USAGE;
  }
  void *runner;
  void *enc = new_encoder(params->threads, &runner);
  if (!enc) {
    say(message, "libjxl could not create an encoder");
    return CK_JXL_ERR_MEMORY;
  }
  JxlBasicInfo basic;
  lib.enc_init_basic_info(&basic);
  const int alpha = channels == 2 || channels == 4;
  basic.xsize = (uint32_t)width;
  basic.ysize = (uint32_t)height;
  basic.bits_per_sample = sixteen ? 16 : 8;
  basic.num_color_channels = channels >= 3 ? 3 : 1;
  basic.num_extra_channels = alpha ? 1 : 0;
  basic.alpha_bits = alpha ? basic.bits_per_sample : 0;
  basic.uses_original_profile = params->lossless || (icc && icc_size);
  basic.orientation = params->orientation >= 1 && params->orientation <= 8 ? params->orientation : 1;
  status = CK_JXL_ERR_CORRUPT;
  const char *doing = "setting the header";
  if (lib.enc_set_basic_info(enc, &basic) != ENC_SUCCESS) goto done;
  doing = "setting the colour profile";
  if (icc && icc_size) {
    if (lib.enc_set_icc(enc, icc, icc_size) != ENC_SUCCESS) goto done;
  } else {
    ColorEncodingRoom srgb;
    memset(&srgb, 0, sizeof srgb);
    lib.srgb(&srgb, basic.num_color_channels == 1);
    if (lib.enc_set_color(enc, &srgb) != ENC_SUCCESS) goto done;
  }
  doing = "adding the Exif box";
  if (exif && exif_size) {
    // The box holds a 4-byte offset to the TIFF header (0: it starts right after), then the TIFF data.
    uint8_t *box = malloc(exif_size + 4);
    if (!box) goto done;
    memset(box, 0, 4);
    memcpy(box + 4, exif, exif_size);
    int added = lib.enc_use_boxes(enc) == ENC_SUCCESS && lib.enc_add_box(enc, "Exif", box, exif_size + 4, 0) == ENC_SUCCESS;
    free(box);
    if (!added) goto done;
  }
  doing = "setting the compression";
  void *settings = lib.enc_settings(enc, NULL);
  if (!settings || lib.enc_set_option(settings, ENC_SETTING_EFFORT, params->effort) != ENC_SUCCESS) goto done;
  if (params->lossless ? lib.enc_lossless(settings, 1) != ENC_SUCCESS
                       : lib.enc_distance(settings, params->distance) != ENC_SUCCESS)
    goto done;
  doing = "adding the picture";
  const JxlPixelFormat format = {(uint32_t)channels, sixteen ? TYPE_UINT16 : TYPE_UINT8, NATIVE_ENDIAN, stride};
  if (lib.enc_add_image(settings, &format, pixels, stride * (size_t)height) != ENC_SUCCESS) goto done;
  lib.enc_close_input(enc);
  status = drain(enc, output, output_size, message);
  doing = NULL;
done:
  if (doing) say(message, "libjxl refused the picture while %s", doing);
  end_encoder(enc, runner);
  return status;
}

int ck_jxl_recompress_jpeg(const uint8_t *jpeg, size_t size, int effort, int threads, uint8_t **output,
                           size_t *output_size, char *message) {
  *output = NULL;
  *output_size = 0;
  int status = ck_jxl_load(message);
  if (status != CK_JXL_OK) return status;
  if (effort < 1 || effort > 9) {
    say(message, "invalid effort %d", effort);
    return CK_JXL_ERR_USAGE;
  }
  void *runner;
  void *enc = new_encoder(threads, &runner);
  if (!enc) {
    say(message, "libjxl could not create an encoder");
    return CK_JXL_ERR_MEMORY;
  }
  void *settings = lib.enc_settings(enc, NULL);
  if (!settings || lib.enc_store_jpeg_metadata(enc, 1) != ENC_SUCCESS ||
      lib.enc_set_option(settings, ENC_SETTING_EFFORT, effort) != ENC_SUCCESS) {
    say(message, "libjxl refused the recompression's settings");
    status = CK_JXL_ERR_USAGE;
  } else if (lib.enc_add_jpeg(settings, jpeg, size) != ENC_SUCCESS) {
    say(message, "libjxl cannot recompress this JPEG losslessly (arithmetic coding, CMYK or an unusual layout)");
    status = CK_JXL_ERR_UNSUPPORTED;
  } else {
    lib.enc_close_input(enc);
    status = drain(enc, output, output_size, message);
  }
  end_encoder(enc, runner);
  return status;
}

void ck_jxl_free(uint8_t *output) { free(output); }
