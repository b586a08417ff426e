// See include/cavif_shim.h. The declarations below are the subset of libavif 0.11's public ABI (avif.h) that the
// shim uses, written from the library's documentation.
#include "cavif_shim.h"

#include "runtime_library.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef int avifBool;
typedef struct { uint8_t *data; size_t size; } avifRWData;
enum { PIXEL_FORMAT_YUV444 = 1, PIXEL_FORMAT_YUV420 = 3 };
enum { RANGE_FULL = 1 };
enum { RGB_FORMAT_RGB = 0, RGB_FORMAT_RGBA = 1 };
enum { CODEC_CHOICE_AOM = 1 };
enum { PRIMARIES_BT709 = 1, TRANSFER_SRGB = 13, MATRIX_BT601 = 6 };
enum { RESULT_OK = 0, RESULT_OUT_OF_MEMORY = 26 };

/// libavif 0.11's avifImage, up to the colour description (the shim sets nothing past it).
typedef struct {
  uint32_t width, height, depth;
  int yuvFormat, yuvRange, yuvChromaSamplePosition;
  uint8_t *yuvPlanes[3];
  uint32_t yuvRowBytes[3];
  avifBool imageOwnsYUVPlanes;
  uint8_t *alphaPlane;
  uint32_t alphaRowBytes;
  avifBool imageOwnsAlphaPlane;
  avifBool alphaPremultiplied;
  avifRWData icc;
  uint16_t colorPrimaries, transferCharacteristics, matrixCoefficients;
} avifImagePrefix;

/// libavif 0.11's avifRGBImage.
typedef struct {
  uint32_t width, height, depth;
  int format, chromaUpsampling, chromaDownsampling;
  avifBool avoidLibYUV, ignoreAlpha, alphaPremultiplied, isFloat;
  uint8_t *pixels;
  uint32_t rowBytes;
} avifRGBImage;

/// libavif 0.11's avifEncoder, up to the settings the shim sets.
typedef struct {
  int codecChoice;
  int maxThreads;
  int speed;
  int keyframeInterval;
  uint64_t timescale;
  int minQuantizer, maxQuantizer, minQuantizerAlpha, maxQuantizerAlpha;
  int tileRowsLog2, tileColsLog2;
  avifBool autoTiling;
} avifEncoderPrefix;

/// libavif 0.11's avifDecoder, up to the settings the shim sets (every field before `image` is 4 bytes).
typedef struct {
  int codecChoice;
  int maxThreads;
  int requestedSource;
  avifBool allowProgressive, allowIncremental, ignoreExif, ignoreXMP;
  uint32_t imageSizeLimit, imageDimensionLimit, imageCountLimit;
  uint32_t strictFlags;
} avifDecoderPrefix;

/// libavif 0.11's avifImageTiming.
typedef struct {
  uint64_t timescale;
  double pts;
  uint64_t ptsInTimescales;
  double duration;
  uint64_t durationInTimescales;
} avifImageTiming;

/// libavif 0.11's avifDecoder up to its sequence outputs (the settings above, then the image and its counts and
/// timing; libavif 0.11 has no repetition count).
typedef struct {
  avifDecoderPrefix settings;
  avifImagePrefix *image;
  int imageIndex, imageCount, progressiveState;
  avifImageTiming imageTiming;
  uint64_t timescale;
  double duration;
  uint64_t durationInTimescales;
} avifDecoderOutputs;

enum { ADD_IMAGE_FLAG_NONE = 0 };

// Room for a patch release that appends to the structure the shim allocates itself.
typedef union { avifRGBImage value; unsigned char room[sizeof(avifRGBImage) + 256]; } RGBImageRoom;

typedef struct {
  const char *(*version)(void);
  void *(*image_create)(uint32_t, uint32_t, uint32_t, int);
  void (*image_destroy)(void *);
  void (*set_icc)(void *, const uint8_t *, size_t);
  void (*set_exif)(void *, const uint8_t *, size_t);
  void (*rgb_defaults)(avifRGBImage *, const void *);
  int (*rgb_to_yuv)(void *, const avifRGBImage *);
  void *(*encoder_create)(void);
  void (*encoder_destroy)(void *);
  int (*encoder_write)(void *, const void *, avifRWData *);
  void (*rw_free)(avifRWData *);
  const char *(*result_string)(int);
  void *(*image_create_empty)(void);
  void *(*decoder_create)(void);
  void (*decoder_destroy)(void *);
  int (*decoder_read_memory)(void *, void *, const uint8_t *, size_t);
  int (*yuv_to_rgb)(const void *, avifRGBImage *);
  int (*decoder_set_io_memory)(void *, const uint8_t *, size_t);
  int (*decoder_parse)(void *);
  int (*decoder_next_image)(void *);
  int (*encoder_add_image)(void *, const void *, uint64_t, uint32_t);
  int (*encoder_finish)(void *, avifRWData *);
} lib_functions;
static lib_functions lib;

static ck_load_state loading = CK_LOAD_STATE_INIT;

#define say(message, ...) ck_runtime_message(message, CK_AVIF_MESSAGE_LENGTH, __VA_ARGS__)

static void load(void) {
  void *handle = ck_runtime_library_load(CK_LIBRARY_AVIF, loading.message, sizeof loading.message);
  if (!handle) return;
  static const ck_binding bindings[] = {
      CK_BINDING(lib_functions, version, "avifVersion"),
      CK_BINDING(lib_functions, image_create, "avifImageCreate"),
      CK_BINDING(lib_functions, image_destroy, "avifImageDestroy"),
      CK_BINDING(lib_functions, set_icc, "avifImageSetProfileICC"),
      CK_BINDING(lib_functions, set_exif, "avifImageSetMetadataExif"),
      CK_BINDING(lib_functions, rgb_defaults, "avifRGBImageSetDefaults"),
      CK_BINDING(lib_functions, rgb_to_yuv, "avifImageRGBToYUV"),
      CK_BINDING(lib_functions, encoder_create, "avifEncoderCreate"),
      CK_BINDING(lib_functions, encoder_destroy, "avifEncoderDestroy"),
      CK_BINDING(lib_functions, encoder_write, "avifEncoderWrite"),
      CK_BINDING(lib_functions, rw_free, "avifRWDataFree"),
      CK_BINDING(lib_functions, result_string, "avifResultToString"),
      CK_BINDING(lib_functions, image_create_empty, "avifImageCreateEmpty"),
      CK_BINDING(lib_functions, decoder_create, "avifDecoderCreate"),
      CK_BINDING(lib_functions, decoder_destroy, "avifDecoderDestroy"),
      CK_BINDING(lib_functions, decoder_read_memory, "avifDecoderReadMemory"),
      CK_BINDING(lib_functions, yuv_to_rgb, "avifImageYUVToRGB"),
      CK_BINDING(lib_functions, decoder_set_io_memory, "avifDecoderSetIOMemory"),
      CK_BINDING(lib_functions, decoder_parse, "avifDecoderParse"),
      CK_BINDING(lib_functions, decoder_next_image, "avifDecoderNextImage"),
      CK_BINDING(lib_functions, encoder_add_image, "avifEncoderAddImage"),
      CK_BINDING(lib_functions, encoder_finish, "avifEncoderFinish"),
  };
  if (!ck_runtime_library_bind_all(handle, &lib, bindings, sizeof bindings / sizeof *bindings, "libavif",
                                   "libavif 0.11 is needed", loading.message, sizeof loading.message))
    return;
  const char *version = lib.version();
  if (!version || strncmp(version, "0.11.", 5) != 0) {
    say(loading.message, "the libavif found is %s; the shim speaks libavif 0.11's structures only", version ? version : "?");
    return;
  }
  loading.status = CK_OK;
}

int ck_avif_load(char *message) { return ck_load_once(&loading, load, message, CK_AVIF_MESSAGE_LENGTH); }

static int failure(int result, const char *doing, char *message) {
  const char *text = lib.result_string(result);
  say(message, "%s: %s", doing, text ? text : "unknown libavif error");
  return result == RESULT_OUT_OF_MEMORY ? CK_AVIF_ERR_MEMORY : CK_AVIF_ERR_CORRUPT;
}

/// Refuses a size or settings libavif would not take.
static int check_encode(int width, int height, size_t stride, const ck_avif_encode_params *params, char *message) {
  if (width < 1 || height < 1 || stride > UINT32_MAX || params->quality < 0 || params->quality > 100 ||
      params->speed < 0 || params->speed > 10) {
    say(message, "invalid arguments (%d×%d, quality %d, speed %d)", width, height, params->quality, params->speed);
    return CK_AVIF_ERR_USAGE;
  }
  return CK_AVIF_OK;
}

/// A libavif image of the RGB(A) rows `pixels` (`wide`: 16-bit samples; `alpha`: RGBA), converted to YUV at the
/// params' depth and chroma, full range, sRGB colour, with the profile and EXIF when given; NULL with `*status`
/// and the reason in `message` when it cannot be made.
static avifImagePrefix *yuv_image(const uint8_t *pixels, int width, int height, size_t stride,
                                  const ck_avif_encode_params *params, int wide, int alpha, const uint8_t *icc,
                                  size_t icc_size, const uint8_t *exif, size_t exif_size, int *status, char *message) {
  avifImagePrefix *image = lib.image_create((uint32_t)width, (uint32_t)height, (uint32_t)params->bit_depth,
                                            params->full_chroma ? PIXEL_FORMAT_YUV444 : PIXEL_FORMAT_YUV420);
  if (!image) {
    say(message, "libavif could not create a %d×%d image", width, height);
    *status = CK_AVIF_ERR_MEMORY;
    return NULL;
  }
  image->yuvRange = RANGE_FULL;
  image->colorPrimaries = PRIMARIES_BT709;
  image->transferCharacteristics = TRANSFER_SRGB;
  image->matrixCoefficients = MATRIX_BT601;
  if (icc && icc_size) lib.set_icc(image, icc, icc_size);
  if (exif && exif_size) lib.set_exif(image, exif, exif_size);
  RGBImageRoom room;
  memset(&room, 0, sizeof room);
  avifRGBImage *rgb = &room.value;
  lib.rgb_defaults(rgb, image);
  rgb->depth = wide ? 16 : 8;
  rgb->format = alpha ? RGB_FORMAT_RGBA : RGB_FORMAT_RGB;
  rgb->pixels = (uint8_t *)pixels;
  rgb->rowBytes = (uint32_t)stride;
  int result = lib.rgb_to_yuv(image, rgb);
  if (result != RESULT_OK) {
    lib.image_destroy(image);
    *status = failure(result, "converting RGB to YUV", message);
    return NULL;
  }
  *status = CK_AVIF_OK;
  return image;
}

/// An AOM encoder at the params' quality (libavif 1.0's mapping to the AV1 quantizer, 0 best … 63 worst), speed and
/// threads; NULL when libavif cannot make one.
static avifEncoderPrefix *make_encoder(const ck_avif_encode_params *params, char *message) {
  avifEncoderPrefix *encoder = lib.encoder_create();
  if (!encoder) {
    say(message, "libavif could not create an encoder");
    return NULL;
  }
  int quantizer = ((100 - params->quality) * 63 + 50) / 100;
  encoder->codecChoice = CODEC_CHOICE_AOM;
  encoder->maxThreads = params->threads > 0 ? params->threads : 1;
  encoder->speed = params->speed;
  encoder->minQuantizer = encoder->maxQuantizer = quantizer;
  encoder->minQuantizerAlpha = encoder->maxQuantizerAlpha = quantizer;
  return encoder;
}

/// Copies libavif's output into memory of our own (released with ck_avif_free) and frees libavif's.
static int hand_out(avifRWData *written, uint8_t **output, size_t *output_size, char *message) {
  *output = malloc(written->size ? written->size : 1);
  if (!*output) {
    lib.rw_free(written);
    say(message, "out of memory for %zu bytes", written->size);
    return CK_AVIF_ERR_MEMORY;
  }
  memcpy(*output, written->data, written->size);
  *output_size = written->size;
  lib.rw_free(written);
  return CK_AVIF_OK;
}

int ck_avif_encode(const uint8_t *pixels, int width, int height, size_t stride, const ck_avif_encode_params *params,
                   const uint8_t *icc, size_t icc_size, const uint8_t *exif, size_t exif_size, uint8_t **output,
                   size_t *output_size, char *message) {
  *output = NULL;
  *output_size = 0;
  int status = ck_avif_load(message);
  if (status != CK_AVIF_OK) return status;
  status = check_encode(width, height, stride, params, message);
  if (status != CK_AVIF_OK) return status;
  avifImagePrefix *image = yuv_image(pixels, width, height, stride, params, params->wide, params->alpha, icc, icc_size,
                                     exif, exif_size, &status, message);
  if (!image) return status;
  avifEncoderPrefix *encoder = make_encoder(params, message);
  if (!encoder) {
    lib.image_destroy(image);
    return CK_AVIF_ERR_MEMORY;
  }
  avifRWData written = {NULL, 0};
  int result = lib.encoder_write(encoder, image, &written);
  lib.encoder_destroy(encoder);
  lib.image_destroy(image);
  if (result != RESULT_OK) {
    lib.rw_free(&written);
    return failure(result, "encoding", message);
  }
  return hand_out(&written, output, output_size, message);
}

void ck_avif_free(void *pointer) { free(pointer); }

int ck_avif_decode(const uint8_t *data, size_t size, int width, int height, int wide, int strict, uint8_t *output,
                   size_t stride, char *message) {
  int status = ck_avif_load(message);
  if (status != CK_AVIF_OK) return status;
  if (width < 1 || height < 1 || stride > UINT32_MAX || (uint64_t)width * (uint64_t)height > UINT32_MAX) {
    say(message, "invalid arguments (%d×%d)", width, height);
    return CK_AVIF_ERR_USAGE;
  }
  avifDecoderPrefix *decoder = lib.decoder_create();
  avifImagePrefix *image = lib.image_create_empty();
  if (!decoder || !image) {
    if (decoder) lib.decoder_destroy(decoder);
    if (image) lib.image_destroy(image);
    say(message, "libavif could not create a decoder");
    return CK_AVIF_ERR_MEMORY;
  }
  decoder->maxThreads = 1;
  // No larger picture than the caller checked against its limits; the lenient reading libheif and Pillow give
  // unless strict.
  decoder->imageSizeLimit = (uint32_t)((uint64_t)width * (uint64_t)height);
  decoder->imageDimensionLimit = (uint32_t)(width > height ? width : height);
  if (!strict) decoder->strictFlags = 0;
  int result = lib.decoder_read_memory(decoder, image, data, size);
  if (result != RESULT_OK) {
    lib.decoder_destroy(decoder);
    lib.image_destroy(image);
    return failure(result, "decoding with libavif", message);
  }
  if (image->width != (uint32_t)width || image->height != (uint32_t)height) {
    say(message, "libavif decoded %u×%u, the file's header says %d×%d", image->width, image->height, width, height);
    lib.decoder_destroy(decoder);
    lib.image_destroy(image);
    return CK_AVIF_ERR_CORRUPT;
  }
  RGBImageRoom room;
  memset(&room, 0, sizeof room);
  avifRGBImage *rgb = &room.value;
  lib.rgb_defaults(rgb, image);
  rgb->depth = wide ? 16 : 8;
  rgb->format = RGB_FORMAT_RGBA;
  rgb->pixels = output;
  rgb->rowBytes = (uint32_t)stride;
  result = lib.yuv_to_rgb(image, rgb);
  lib.decoder_destroy(decoder);
  lib.image_destroy(image);
  if (result != RESULT_OK) return failure(result, "converting YUV to RGB", message);
  return CK_AVIF_OK;
}

// MARK: - Image sequences

struct ck_avif_frames {
  avifDecoderOutputs *decoder;
  int width, height;
};

void ck_avif_frames_close(ck_avif_frames *frames) {
  if (!frames) return;
  if (frames->decoder) lib.decoder_destroy(frames->decoder);
  free(frames);
}

int ck_avif_frames_open(const uint8_t *data, size_t size, int max_pixels, int strict, ck_avif_frames **out,
                        int *width, int *height, int *frame_count, double *duration, char *message) {
  *out = NULL;
  int status = ck_avif_load(message);
  if (status != CK_AVIF_OK) return status;
  ck_avif_frames *frames = calloc(1, sizeof *frames);
  avifDecoderOutputs *decoder = frames ? lib.decoder_create() : NULL;
  if (!decoder) {
    free(frames);
    say(message, "libavif could not create a decoder");
    return CK_AVIF_ERR_MEMORY;
  }
  frames->decoder = decoder;
  decoder->settings.maxThreads = 1;
  // libavif refuses a limit above its own default of 16384 × 16384 ("not implemented").
  decoder->settings.imageSizeLimit = max_pixels < 1 ? 1 : max_pixels > 268435456 ? 268435456 : (uint32_t)max_pixels;
  // At most 100,000 frames, as the GIF reader counts.
  decoder->settings.imageCountLimit = 100000;
  if (!strict) decoder->settings.strictFlags = 0;
  int result = lib.decoder_set_io_memory(decoder, data, size);
  if (result != RESULT_OK) {
    ck_avif_frames_close(frames);
    return failure(result, "handing libavif the image sequence", message);
  }
  result = lib.decoder_parse(decoder);
  if (result != RESULT_OK) {
    ck_avif_frames_close(frames);
    return failure(result, "reading the image sequence with libavif", message);
  }
  avifImagePrefix *image = decoder->image;
  if (!image || image->width < 1 || image->height < 1 || decoder->imageCount < 1 ||
      (uint64_t)image->width * image->height > (uint64_t)(max_pixels > 0 ? max_pixels : 1)) {
    say(message, "an image sequence of %u×%u", image ? image->width : 0, image ? image->height : 0);
    ck_avif_frames_close(frames);
    return CK_AVIF_ERR_CORRUPT;
  }
  frames->width = (int)image->width, frames->height = (int)image->height;
  *width = frames->width, *height = frames->height;
  *frame_count = decoder->imageCount;
  *duration = decoder->duration;
  *out = frames;
  return CK_AVIF_OK;
}

int ck_avif_frames_next(ck_avif_frames *frames, uint8_t *output, size_t stride, int *duration_ms, int *decoded,
                        char *message) {
  *duration_ms = 0;
  *decoded = 0;
  avifDecoderOutputs *decoder = frames->decoder;
  if (decoder->imageIndex + 1 >= decoder->imageCount) return CK_AVIF_OK;
  int result = lib.decoder_next_image(decoder);
  if (result != RESULT_OK) return failure(result, "decoding the next frame with libavif", message);
  avifImagePrefix *image = decoder->image;
  if (!image || image->width != (uint32_t)frames->width || image->height != (uint32_t)frames->height) {
    say(message, "a frame of %u×%u in a %d×%d sequence", image ? image->width : 0, image ? image->height : 0,
        frames->width, frames->height);
    return CK_AVIF_ERR_CORRUPT;
  }
  RGBImageRoom room;
  memset(&room, 0, sizeof room);
  avifRGBImage *rgb = &room.value;
  lib.rgb_defaults(rgb, image);
  rgb->depth = 8;
  rgb->format = RGB_FORMAT_RGBA;
  rgb->pixels = output;
  rgb->rowBytes = (uint32_t)stride;
  result = lib.yuv_to_rgb(image, rgb);
  if (result != RESULT_OK) return failure(result, "converting a frame from YUV to RGB", message);
  double ms = decoder->imageTiming.duration * 1000;
  *duration_ms = ms < 0 ? 0 : ms > 1e9 ? 1000000000 : (int)(ms + 0.5);
  *decoded = 1;
  return CK_AVIF_OK;
}

struct ck_avif_sequence {
  avifEncoderPrefix *encoder;
  ck_avif_encode_params params;
  int width, height;
};

void ck_avif_sequence_close(ck_avif_sequence *sequence) {
  if (!sequence) return;
  if (sequence->encoder) lib.encoder_destroy(sequence->encoder);
  free(sequence);
}

int ck_avif_sequence_open(int width, int height, const ck_avif_encode_params *params, ck_avif_sequence **out,
                          char *message) {
  *out = NULL;
  int status = ck_avif_load(message);
  if (status != CK_AVIF_OK) return status;
  status = check_encode(width, height, 0, params, message);
  if (status != CK_AVIF_OK) return status;
  ck_avif_sequence *sequence = calloc(1, sizeof *sequence);
  avifEncoderPrefix *encoder = sequence ? make_encoder(params, message) : NULL;
  if (!encoder) {
    if (!sequence) say(message, "out of memory");
    free(sequence);
    return CK_AVIF_ERR_MEMORY;
  }
  encoder->timescale = 1000;  // durations in milliseconds
  sequence->encoder = encoder;
  sequence->params = *params;
  sequence->width = width, sequence->height = height;
  *out = sequence;
  return CK_AVIF_OK;
}

int ck_avif_sequence_add(ck_avif_sequence *sequence, const uint8_t *rgba, size_t stride, int duration_ms,
                         char *message) {
  int status = CK_AVIF_OK;
  avifImagePrefix *image = yuv_image(rgba, sequence->width, sequence->height, stride, &sequence->params, 0, 1, NULL, 0,
                                     NULL, 0, &status, message);
  if (!image) return status;
  int result = lib.encoder_add_image(sequence->encoder, image, (uint64_t)(duration_ms > 0 ? duration_ms : 1),
                                     ADD_IMAGE_FLAG_NONE);
  lib.image_destroy(image);
  return result == RESULT_OK ? CK_AVIF_OK : failure(result, "encoding a frame", message);
}

int ck_avif_sequence_finish(ck_avif_sequence *sequence, uint8_t **output, size_t *output_size, char *message) {
  *output = NULL;
  *output_size = 0;
  avifRWData written = {NULL, 0};
  int result = lib.encoder_finish(sequence->encoder, &written);
  if (result != RESULT_OK) {
    lib.rw_free(&written);
    return failure(result, "finishing the image sequence", message);
  }
  return hand_out(&written, output, output_size, message);
}
