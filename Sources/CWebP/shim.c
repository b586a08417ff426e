// See include/cwebp_shim.h. The declarations below are the subset of libwebp's public ABI (decode.h, encode.h and
// types.h of libwebp 1.x: decoder ABI 0x0209, encoder ABI 0x020f) that the shim uses, written from the library's
// documentation. Each structure the library initialises sits in a union with spare room, so a newer 1.x library that
// appended fields (allowed within a major ABI version) writes into that room, never past it.
#include "cwebp_shim.h"


#include "runtime_library.h"
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

enum { DECODER_ABI = 0x0209, ENCODER_ABI = 0x020f };
enum { MODE_RGB = 0, MODE_RGBA = 1 };
enum { STATUS_OK = 0, STATUS_OUT_OF_MEMORY = 1, STATUS_INVALID_PARAM = 2, STATUS_BITSTREAM_ERROR = 3,
       STATUS_UNSUPPORTED_FEATURE = 4, STATUS_SUSPENDED = 5, STATUS_USER_ABORT = 6, STATUS_NOT_ENOUGH_DATA = 7 };
enum { ENC_OUT_OF_MEMORY = 1, ENC_BITSTREAM_OUT_OF_MEMORY = 2, ENC_BAD_DIMENSION = 5, ENC_FILE_TOO_BIG = 9 };

typedef struct {
  int width, height, has_alpha, has_animation, format;
  uint32_t pad[5];
} WebPBitstreamFeatures;

typedef struct {
  uint8_t *rgba;
  int stride;
  size_t size;
} WebPRGBABuffer;

typedef struct {
  uint8_t *y, *u, *v, *a;
  int y_stride, u_stride, v_stride, a_stride;
  size_t y_size, u_size, v_size, a_size;
} WebPYUVABuffer;

typedef struct {
  int colorspace;
  int width, height;
  int is_external_memory;
  union {
    WebPRGBABuffer RGBA;
    WebPYUVABuffer YUVA;
  } u;
  uint32_t pad[4];
  uint8_t *private_memory;
} WebPDecBuffer;

typedef struct {
  int bypass_filtering, no_fancy_upsampling, use_cropping, crop_left, crop_top, crop_width, crop_height;
  int use_scaling, scaled_width, scaled_height, use_threads, dithering_strength, flip, alpha_dithering_strength;
  uint32_t pad[5];
} WebPDecoderOptions;

typedef struct {
  WebPBitstreamFeatures input;
  WebPDecBuffer output;
  WebPDecoderOptions options;
} WebPDecoderConfig;

typedef struct {
  int lossless;
  float quality;
  int method;
  int image_hint;
  int target_size;
  float target_PSNR;
  int segments, sns_strength, filter_strength, filter_sharpness, filter_type, autofilter;
  int alpha_compression, alpha_filtering, alpha_quality, pass, show_compressed, preprocessing, partitions;
  int partition_limit, emulate_jpeg_size, thread_level, low_memory, near_lossless, exact, use_delta_palette;
  int use_sharp_yuv, qmin, qmax;
} WebPConfig;

typedef struct WebPPicture WebPPicture;
typedef int (*WebPWriterFunction)(const uint8_t *data, size_t size, const WebPPicture *picture);
struct WebPPicture {
  int use_argb;
  int colorspace;
  int width, height;
  uint8_t *y, *u, *v;
  int y_stride, uv_stride;
  uint8_t *a;
  int a_stride;
  uint32_t pad1[2];
  uint32_t *argb;
  int argb_stride;
  uint32_t pad2[3];
  WebPWriterFunction writer;
  void *custom_ptr;
  int extra_info_type;
  uint8_t *extra_info;
  void *stats;
  int error_code;
  void *progress_hook;
  void *user_data;
  uint32_t pad3[3];
  uint8_t *pad4, *pad5;
  uint32_t pad6[8];
  void *memory_;
  void *memory_argb_;
  void *pad7[2];
};

typedef struct {
  uint8_t *mem;
  size_t size;
  size_t max_size;
  uint32_t pad[1];
} WebPMemoryWriter;

// Room for fields a later 1.x library may append to the structures it initialises.
#define SPARE 512
typedef union { WebPDecoderConfig value; unsigned char room[sizeof(WebPDecoderConfig) + SPARE]; } DecoderConfigRoom;
typedef union { WebPConfig value; unsigned char room[sizeof(WebPConfig) + SPARE]; } ConfigRoom;
typedef union { WebPPicture value; unsigned char room[sizeof(WebPPicture) + SPARE]; } PictureRoom;
typedef union { WebPMemoryWriter value; unsigned char room[sizeof(WebPMemoryWriter) + SPARE]; } WriterRoom;
typedef union { WebPBitstreamFeatures value; unsigned char room[sizeof(WebPBitstreamFeatures) + SPARE]; } FeaturesRoom;

typedef struct {
  int (*GetFeaturesInternal)(const uint8_t *, size_t, WebPBitstreamFeatures *, int);
  int (*InitDecoderConfigInternal)(WebPDecoderConfig *, int);
  int (*Decode)(const uint8_t *, size_t, WebPDecoderConfig *);
  void (*FreeDecBuffer)(WebPDecBuffer *);
  int (*ConfigInitInternal)(WebPConfig *, int, float, int);
  int (*ValidateConfig)(const WebPConfig *);
  int (*PictureInitInternal)(WebPPicture *, int);
  int (*PictureImportRGB)(WebPPicture *, const uint8_t *, int);
  int (*PictureImportRGBA)(WebPPicture *, const uint8_t *, int);
  void (*PictureFree)(WebPPicture *);
  int (*Encode)(const WebPConfig *, WebPPicture *);
  void (*MemoryWriterInit)(WebPMemoryWriter *);
  void (*MemoryWriterClear)(WebPMemoryWriter *);
  int (*MemoryWrite)(const uint8_t *, size_t, const WebPPicture *);
  void (*Free)(void *);
} lib_functions;
static lib_functions lib;

static ck_load_state loading = CK_LOAD_STATE_INIT;

#define say(message, ...) ck_runtime_message(message, CK_WEBP_MESSAGE_LENGTH, __VA_ARGS__)

static void load(void) {
  void *handle = ck_runtime_library_load(CK_LIBRARY_WEBP, loading.message, sizeof loading.message);
  if (!handle) return;
  static const ck_binding bindings[] = {
      CK_BINDING(lib_functions, GetFeaturesInternal, "WebPGetFeaturesInternal"),
      CK_BINDING(lib_functions, InitDecoderConfigInternal, "WebPInitDecoderConfigInternal"),
      CK_BINDING(lib_functions, Decode, "WebPDecode"),
      CK_BINDING(lib_functions, FreeDecBuffer, "WebPFreeDecBuffer"),
      CK_BINDING(lib_functions, ConfigInitInternal, "WebPConfigInitInternal"),
      CK_BINDING(lib_functions, ValidateConfig, "WebPValidateConfig"),
      CK_BINDING(lib_functions, PictureInitInternal, "WebPPictureInitInternal"),
      CK_BINDING(lib_functions, PictureImportRGB, "WebPPictureImportRGB"),
      CK_BINDING(lib_functions, PictureImportRGBA, "WebPPictureImportRGBA"),
      CK_BINDING(lib_functions, PictureFree, "WebPPictureFree"),
      CK_BINDING(lib_functions, Encode, "WebPEncode"),
      CK_BINDING(lib_functions, MemoryWriterInit, "WebPMemoryWriterInit"),
      CK_BINDING(lib_functions, MemoryWriterClear, "WebPMemoryWriterClear"),
      CK_BINDING(lib_functions, MemoryWrite, "WebPMemoryWrite"),
      CK_BINDING(lib_functions, Free, "WebPFree"),
  };
  if (!ck_runtime_library_bind_all(handle, &lib, bindings, sizeof bindings / sizeof *bindings, "libwebp",
                                   "a libwebp 1.x is needed", loading.message, sizeof loading.message))
    return;
  // The ABI handshake: the library refuses a structure written for another major version.
  DecoderConfigRoom config;
  ConfigRoom encoder;
  PictureRoom picture;
  if (!lib.InitDecoderConfigInternal(&config.value, DECODER_ABI) ||
      !lib.ConfigInitInternal(&encoder.value, 0, 75.f, ENCODER_ABI) ||
      !lib.PictureInitInternal(&picture.value, ENCODER_ABI)) {
    say(loading.message, "the libwebp found speaks another ABI than 1.x");
    return;
  }
  loading.status = CK_OK;
}

int ck_webp_load(char *message) { return ck_load_once(&loading, load, message, CK_WEBP_MESSAGE_LENGTH); }

static int decode_status(int status, char *message) {
  switch (status) {
    case STATUS_OK: return CK_WEBP_OK;
    case STATUS_OUT_OF_MEMORY: say(message, "out of memory"); return CK_WEBP_ERR_MEMORY;
    case STATUS_INVALID_PARAM: say(message, "invalid parameter"); return CK_WEBP_ERR_USAGE;
    case STATUS_UNSUPPORTED_FEATURE: say(message, "a feature libwebp does not decode"); return CK_WEBP_ERR_UNSUPPORTED;
    case STATUS_NOT_ENOUGH_DATA:
    case STATUS_SUSPENDED: say(message, "the bitstream ends before the picture is complete"); return CK_WEBP_ERR_TRUNCATED;
    default: say(message, "invalid WebP bitstream"); return CK_WEBP_ERR_CORRUPT;
  }
}

int ck_webp_get_features(const uint8_t *data, size_t size, ck_webp_features *features, char *message) {
  int status = ck_webp_load(message);
  if (status != CK_WEBP_OK) return status;
  FeaturesRoom room;
  memset(&room, 0, sizeof room);
  status = decode_status(lib.GetFeaturesInternal(data, size, &room.value, DECODER_ABI), message);
  if (status != CK_WEBP_OK) return status;
  features->width = room.value.width;
  features->height = room.value.height;
  features->has_alpha = room.value.has_alpha;
  features->has_animation = room.value.has_animation;
  features->format = room.value.format;
  return CK_WEBP_OK;
}

int ck_webp_decode(const uint8_t *data, size_t size, int alpha, int scaled_width, int scaled_height,
                   uint8_t *output, int stride, size_t output_size, char *message) {
  int status = ck_webp_load(message);
  if (status != CK_WEBP_OK) return status;
  DecoderConfigRoom room;
  WebPDecoderConfig *config = &room.value;
  if (!lib.InitDecoderConfigInternal(config, DECODER_ABI)) {
    say(message, "the libwebp found speaks another ABI than 1.x");
    return CK_WEBP_ERR_UNAVAILABLE;
  }
  if (scaled_width > 0 && scaled_height > 0) {
    config->options.use_scaling = 1;
    config->options.scaled_width = scaled_width;
    config->options.scaled_height = scaled_height;
  }
  config->output.colorspace = alpha ? MODE_RGBA : MODE_RGB;
  config->output.is_external_memory = 1;
  config->output.u.RGBA.rgba = output;
  config->output.u.RGBA.stride = stride;
  config->output.u.RGBA.size = output_size;
  status = decode_status(lib.Decode(data, size, config), message);
  lib.FreeDecBuffer(&config->output);  // frees nothing of ours (external memory); kept for symmetry with libwebp's rules
  return status;
}

/// Fills `room` with libwebp's configuration for `params`, checked by the library.
static int configure(ConfigRoom *room, const ck_webp_encode_params *params, char *message) {
  WebPConfig *config = &room->value;
  if (!lib.ConfigInitInternal(config, 0, params->quality, ENCODER_ABI)) {
    say(message, "the libwebp found speaks another ABI than 1.x");
    return CK_WEBP_ERR_UNAVAILABLE;
  }
  config->lossless = params->lossless ? 1 : 0;
  config->quality = params->quality;
  config->method = params->method;
  config->exact = params->exact ? 1 : 0;
  config->thread_level = params->threads ? 1 : 0;
  if (!lib.ValidateConfig(config)) {
    say(message, "libwebp refused the settings (quality %g, method %d)", (double)params->quality, params->method);
    return CK_WEBP_ERR_USAGE;
  }
  return CK_WEBP_OK;
}

int ck_webp_encode(const uint8_t *pixels, int width, int height, int stride, const ck_webp_encode_params *params,
                   uint8_t **output, size_t *output_size, char *message) {
  *output = NULL;
  *output_size = 0;
  int status = ck_webp_load(message);
  if (status != CK_WEBP_OK) return status;
  ConfigRoom config_room;
  PictureRoom picture_room;
  WriterRoom writer_room;
  WebPConfig *config = &config_room.value;
  WebPPicture *picture = &picture_room.value;
  WebPMemoryWriter *writer = &writer_room.value;
  status = configure(&config_room, params, message);
  if (status != CK_WEBP_OK) return status;
  if (!lib.PictureInitInternal(picture, ENCODER_ABI)) {
    say(message, "the libwebp found speaks another ABI than 1.x");
    return CK_WEBP_ERR_UNAVAILABLE;
  }
  picture->use_argb = config->lossless;
  picture->width = width;
  picture->height = height;
  int imported = params->alpha ? lib.PictureImportRGBA(picture, pixels, stride)
                               : lib.PictureImportRGB(picture, pixels, stride);
  if (!imported) {
    lib.PictureFree(picture);
    say(message, "libwebp could not take a %d×%d picture (out of memory, or past 16383 px)", width, height);
    return width > 16383 || height > 16383 ? CK_WEBP_ERR_USAGE : CK_WEBP_ERR_MEMORY;
  }
  lib.MemoryWriterInit(writer);
  picture->writer = lib.MemoryWrite;
  picture->custom_ptr = writer;
  int ok = lib.Encode(config, picture);
  int error = picture->error_code;
  lib.PictureFree(picture);
  if (!ok) {
    lib.MemoryWriterClear(writer);
    switch (error) {
      case ENC_OUT_OF_MEMORY:
      case ENC_BITSTREAM_OUT_OF_MEMORY: say(message, "out of memory"); return CK_WEBP_ERR_MEMORY;
      case ENC_BAD_DIMENSION: say(message, "a %d×%d picture is past WebP's 16383 px", width, height); return CK_WEBP_ERR_USAGE;
      case ENC_FILE_TOO_BIG: say(message, "the file would be past 4 GB"); return CK_WEBP_ERR_USAGE;
      default: say(message, "libwebp failed to encode (error %d)", error); return CK_WEBP_ERR_CORRUPT;
    }
  }
  *output = writer->mem;
  *output_size = writer->size;
  return CK_WEBP_OK;
}

void ck_webp_free(void *pointer) {
  // Memory from WebPMemoryWrite is the library's; free it through the library's allocator.
  if (pointer && lib.Free) lib.Free(pointer);
}

// MARK: - Animations (libwebpdemux's WebPAnimDecoder)

/// libwebp 1.x's demux ABI (WEBP_DEMUX_ABI_VERSION 0x0107): only the major byte must match.
enum { DEMUX_ABI_VERSION = 0x0107 };

typedef struct {
  const uint8_t *bytes;
  size_t size;
} WebPData;

typedef struct {
  int color_mode;
  int use_threads;
  uint32_t padding[7];
} WebPAnimDecoderOptions;

typedef struct {
  uint32_t canvas_width, canvas_height, loop_count, bgcolor, frame_count;
  uint32_t pad[4];
} WebPAnimInfo;

typedef struct {
  int (*OptionsInitInternal)(WebPAnimDecoderOptions *, int);
  void *(*NewInternal)(const WebPData *, const WebPAnimDecoderOptions *, int);
  int (*GetInfo)(const void *, WebPAnimInfo *);
  int (*GetNext)(void *, uint8_t **, int *);
  int (*HasMoreFrames)(const void *);
  void (*Delete)(void *);
} demux_functions;
static demux_functions demux;

static ck_load_state demux_loading = CK_LOAD_STATE_INIT;

static void load_demux(void) {
  void *handle = ck_runtime_library_load(CK_LIBRARY_WEBPDEMUX, demux_loading.message, sizeof demux_loading.message);
  if (!handle) return;
  static const ck_binding bindings[] = {
      CK_BINDING(demux_functions, OptionsInitInternal, "WebPAnimDecoderOptionsInitInternal"),
      CK_BINDING(demux_functions, NewInternal, "WebPAnimDecoderNewInternal"),
      CK_BINDING(demux_functions, GetInfo, "WebPAnimDecoderGetInfo"),
      CK_BINDING(demux_functions, GetNext, "WebPAnimDecoderGetNext"),
      CK_BINDING(demux_functions, HasMoreFrames, "WebPAnimDecoderHasMoreFrames"),
      CK_BINDING(demux_functions, Delete, "WebPAnimDecoderDelete"),
  };
  if (!ck_runtime_library_bind_all(handle, &demux, bindings, sizeof bindings / sizeof *bindings, "libwebpdemux",
                                   "a libwebp 1.x is needed", demux_loading.message, sizeof demux_loading.message))
    return;
  demux_loading.status = CK_OK;
}

struct ck_webp_frames {
  void *decoder;
  int width, height;
  int timestamp;
};

int ck_webp_frames_open(const uint8_t *data, size_t size, int max_pixels, ck_webp_frames **out, int *width,
                        int *height, int *frame_count, int *loop_count, char *message) {
  *out = NULL;
  int loaded = ck_load_once(&demux_loading, load_demux, message, CK_WEBP_MESSAGE_LENGTH);
  if (loaded != CK_OK) return loaded;
  WebPAnimDecoderOptions options;
  memset(&options, 0, sizeof options);
  if (!demux.OptionsInitInternal(&options, DEMUX_ABI_VERSION)) {
    say(message, "the libwebpdemux found speaks another ABI than 1.x");
    return CK_WEBP_ERR_UNAVAILABLE;
  }
  options.color_mode = MODE_RGBA;
  options.use_threads = 0;
  WebPData input = {data, size};
  void *decoder = demux.NewInternal(&input, &options, DEMUX_ABI_VERSION);
  if (!decoder) {
    say(message, "libwebp could not read the animation");
    return CK_WEBP_ERR_CORRUPT;
  }
  WebPAnimInfo info;
  memset(&info, 0, sizeof info);
  if (!demux.GetInfo(decoder, &info) || info.canvas_width == 0 || info.canvas_height == 0 ||
      (uint64_t)info.canvas_width * info.canvas_height > (uint64_t)max_pixels) {
    say(message, "an animation canvas of %u×%u", info.canvas_width, info.canvas_height);
    demux.Delete(decoder);
    return CK_WEBP_ERR_CORRUPT;
  }
  ck_webp_frames *frames = calloc(1, sizeof *frames);
  if (!frames) {
    demux.Delete(decoder);
    say(message, "out of memory");
    return CK_WEBP_ERR_MEMORY;
  }
  frames->decoder = decoder;
  frames->width = (int)info.canvas_width, frames->height = (int)info.canvas_height;
  *width = frames->width, *height = frames->height;
  *frame_count = (int)info.frame_count, *loop_count = (int)info.loop_count;
  *out = frames;
  return CK_WEBP_OK;
}

int ck_webp_frames_next(ck_webp_frames *frames, uint8_t *output, size_t stride, int *duration_ms, int *decoded,
                        char *message) {
  *duration_ms = 0;
  *decoded = 0;
  if (!demux.HasMoreFrames(frames->decoder)) return CK_WEBP_OK;
  uint8_t *canvas = NULL;
  int timestamp = 0;
  if (!demux.GetNext(frames->decoder, &canvas, &timestamp) || !canvas) {
    say(message, "libwebp could not decode the next frame");
    return CK_WEBP_ERR_CORRUPT;
  }
  for (int y = 0; y < frames->height; y++)
    memcpy(output + (size_t)y * stride, canvas + (size_t)y * (size_t)frames->width * 4, (size_t)frames->width * 4);
  *duration_ms = timestamp - frames->timestamp;
  frames->timestamp = timestamp;
  *decoded = 1;
  return CK_WEBP_OK;
}

void ck_webp_frames_close(ck_webp_frames *frames) {
  if (!frames) return;
  if (frames->decoder) demux.Delete(frames->decoder);
  free(frames);
}

// MARK: - Writing animations (libwebpmux's WebPAnimEncoder)

/// libwebp 1.x's mux ABI (WEBP_MUX_ABI_VERSION 0x0108): only the major byte must match.
enum { MUX_ABI_VERSION = 0x0108 };

typedef struct {
  struct {
    uint32_t bgcolor;
    int loop_count;
  } anim_params;
  int minimize_size, kmin, kmax, allow_mixed, verbose;
  uint32_t padding[4];
} WebPAnimEncoderOptions;
typedef union { WebPAnimEncoderOptions value; unsigned char room[sizeof(WebPAnimEncoderOptions) + SPARE]; } AnimOptionsRoom;

typedef struct {
  int (*OptionsInitInternal)(WebPAnimEncoderOptions *, int);
  void *(*NewInternal)(int, int, const WebPAnimEncoderOptions *, int);
  int (*Add)(void *, WebPPicture *, int, const WebPConfig *);
  int (*Assemble)(void *, WebPData *);
  const char *(*GetError)(void *);
  void (*Delete)(void *);
} mux_functions;
static mux_functions mux;

static ck_load_state mux_loading = CK_LOAD_STATE_INIT;

static void load_mux(void) {
  if (ck_webp_load(mux_loading.message) != CK_WEBP_OK) return;
  void *handle = ck_runtime_library_load(CK_LIBRARY_WEBPMUX, mux_loading.message, sizeof mux_loading.message);
  if (!handle) return;
  static const ck_binding bindings[] = {
      CK_BINDING(mux_functions, OptionsInitInternal, "WebPAnimEncoderOptionsInitInternal"),
      CK_BINDING(mux_functions, NewInternal, "WebPAnimEncoderNewInternal"),
      CK_BINDING(mux_functions, Add, "WebPAnimEncoderAdd"),
      CK_BINDING(mux_functions, Assemble, "WebPAnimEncoderAssemble"),
      CK_BINDING(mux_functions, GetError, "WebPAnimEncoderGetError"),
      CK_BINDING(mux_functions, Delete, "WebPAnimEncoderDelete"),
  };
  if (!ck_runtime_library_bind_all(handle, &mux, bindings, sizeof bindings / sizeof *bindings, "libwebpmux",
                                   "a libwebp 1.x is needed", mux_loading.message, sizeof mux_loading.message))
    return;
  mux_loading.status = CK_OK;
}

struct ck_webp_anim_writer {
  void *encoder;
  ConfigRoom config;
  int width, height;
  int timestamp;
};

void ck_webp_anim_close(ck_webp_anim_writer *w) {
  if (!w) return;
  if (w->encoder) mux.Delete(w->encoder);
  free(w);
}

int ck_webp_anim_open(int width, int height, int loop_count, const ck_webp_encode_params *params,
                      ck_webp_anim_writer **out, char *message) {
  *out = NULL;
  int loaded = ck_load_once(&mux_loading, load_mux, message, CK_WEBP_MESSAGE_LENGTH);
  if (loaded != CK_OK) return loaded;
  if (width < 1 || height < 1 || width > 16383 || height > 16383) {
    say(message, "a %d×%d picture is past WebP's 16383 px", width, height);
    return CK_WEBP_ERR_USAGE;
  }
  ck_webp_anim_writer *w = calloc(1, sizeof *w);
  if (!w) {
    say(message, "out of memory");
    return CK_WEBP_ERR_MEMORY;
  }
  int status = configure(&w->config, params, message);
  if (status != CK_WEBP_OK) {
    free(w);
    return status;
  }
  AnimOptionsRoom options;
  memset(&options, 0, sizeof options);
  if (!mux.OptionsInitInternal(&options.value, MUX_ABI_VERSION)) {
    free(w);
    say(message, "the libwebpmux found speaks another ABI than 1.x");
    return CK_WEBP_ERR_UNAVAILABLE;
  }
  options.value.anim_params.loop_count = loop_count < 0 ? 0 : loop_count;
  options.value.anim_params.bgcolor = 0;
  w->encoder = mux.NewInternal(width, height, &options.value, MUX_ABI_VERSION);
  if (!w->encoder) {
    free(w);
    say(message, "libwebp could not start a %d×%d animation (out of memory)", width, height);
    return CK_WEBP_ERR_MEMORY;
  }
  w->width = width, w->height = height;
  *out = w;
  return CK_WEBP_OK;
}

int ck_webp_anim_add(ck_webp_anim_writer *w, const uint8_t *rgba, int stride, int duration_ms, char *message) {
  PictureRoom room;
  WebPPicture *picture = &room.value;
  if (!lib.PictureInitInternal(picture, ENCODER_ABI)) {
    say(message, "the libwebp found speaks another ABI than 1.x");
    return CK_WEBP_ERR_UNAVAILABLE;
  }
  picture->use_argb = 1;  // the animation encoder works on ARGB, lossy frames included
  picture->width = w->width;
  picture->height = w->height;
  if (!lib.PictureImportRGBA(picture, rgba, stride)) {
    lib.PictureFree(picture);
    say(message, "out of memory for a %d×%d frame", w->width, w->height);
    return CK_WEBP_ERR_MEMORY;
  }
  int ok = mux.Add(w->encoder, picture, w->timestamp, &w->config.value);
  lib.PictureFree(picture);
  if (!ok) {
    const char *error = mux.GetError(w->encoder);
    say(message, "libwebp could not add a frame: %s", error && *error ? error : "unknown error");
    return CK_WEBP_ERR_CORRUPT;
  }
  w->timestamp += duration_ms < 0 ? 0 : duration_ms;
  return CK_WEBP_OK;
}

int ck_webp_anim_finish(ck_webp_anim_writer *w, uint8_t **output, size_t *output_size, char *message) {
  *output = NULL;
  *output_size = 0;
  WebPData data = {NULL, 0};
  // A NULL frame ends the animation at this timestamp, which gives the last frame its duration.
  if (!mux.Add(w->encoder, NULL, w->timestamp, NULL) || !mux.Assemble(w->encoder, &data)) {
    const char *error = mux.GetError(w->encoder);
    say(message, "libwebp could not assemble the animation: %s", error && *error ? error : "unknown error");
    return CK_WEBP_ERR_CORRUPT;
  }
  *output = (uint8_t *)data.bytes, *output_size = data.size;
  return CK_WEBP_OK;
}
