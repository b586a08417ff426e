// See include/ctiff_shim.h. The declarations below are the subset of libtiff 4.5's public ABI (tiffio.h, tiff.h)
// that the shim uses, written from the library's documentation.
#include "ctiff_shim.h"

#include <errno.h>
#include <math.h>

#include "runtime_library.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef struct TIFF TIFF;
typedef struct TIFFOpenOptions TIFFOpenOptions;
typedef ssize_t tmsize_t;
typedef uint64_t toff_t;
typedef void *thandle_t;
typedef tmsize_t (*ReadWriteProc)(thandle_t, void *, tmsize_t);
typedef toff_t (*SeekProc)(thandle_t, toff_t, int);
typedef int (*CloseProc)(thandle_t);
typedef toff_t (*SizeProc)(thandle_t);
typedef int (*MapProc)(thandle_t, void **, toff_t *);
typedef void (*UnmapProc)(thandle_t, void *, toff_t);
typedef int (*ErrorHandlerExtR)(TIFF *, void *, const char *, const char *, va_list);

enum {
  TAG_IMAGEWIDTH = 256, TAG_IMAGELENGTH = 257, TAG_BITSPERSAMPLE = 258, TAG_COMPRESSION = 259,
  TAG_PHOTOMETRIC = 262, TAG_ORIENTATION = 274, TAG_SAMPLESPERPIXEL = 277, TAG_PLANARCONFIG = 284,
  TAG_COLORMAP = 320, TAG_INKSET = 332, TAG_EXTRASAMPLES = 338, TAG_SAMPLEFORMAT = 339, TAG_SMINSAMPLEVALUE = 340, TAG_SMAXSAMPLEVALUE = 341, TAG_ICCPROFILE = 34675,
  TAG_JPEGCOLORMODE = 65538,
};
enum { PHOTOMETRIC_MINISWHITE = 0, PHOTOMETRIC_MINISBLACK = 1, PHOTOMETRIC_RGB = 2, PHOTOMETRIC_PALETTE = 3,
       PHOTOMETRIC_SEPARATED = 5, PHOTOMETRIC_CIELAB = 8,
       PHOTOMETRIC_YCBCR = 6 };
enum { COMPRESSION_JPEG = 7, JPEGCOLORMODE_RGB = 1, PLANARCONFIG_SEPARATE = 2, INKSET_CMYK = 1 };
enum { SAMPLEFORMAT_UINT = 1, SAMPLEFORMAT_INT = 2, SAMPLEFORMAT_IEEEFP = 3, EXTRASAMPLE_UNSPECIFIED = 0, EXTRASAMPLE_ASSOCALPHA = 1, EXTRASAMPLE_UNASSALPHA = 2 };

typedef struct {
  TIFFOpenOptions *(*OptionsAlloc)(void);
  void (*OptionsFree)(TIFFOpenOptions *);
  void (*OptionsSetMaxSingleMemAlloc)(TIFFOpenOptions *, tmsize_t);
  void (*OptionsSetErrorHandler)(TIFFOpenOptions *, ErrorHandlerExtR, void *);
  void (*OptionsSetWarningHandler)(TIFFOpenOptions *, ErrorHandlerExtR, void *);
  TIFF *(*ClientOpenExt)(const char *, const char *, thandle_t, ReadWriteProc, ReadWriteProc, SeekProc, CloseProc,
                         SizeProc, MapProc, UnmapProc, TIFFOpenOptions *);
  void (*Close)(TIFF *);
  int (*GetField)(TIFF *, uint32_t, ...);
  int (*GetFieldDefaulted)(TIFF *, uint32_t, ...);
  int (*SetField)(TIFF *, uint32_t, ...);
  uint16_t (*NumberOfDirectories)(TIFF *);
  int (*IsTiled)(TIFF *);
  uint32_t (*ComputeStrip)(TIFF *, uint32_t, uint16_t);
  uint32_t (*ComputeTile)(TIFF *, uint32_t, uint32_t, uint32_t, uint16_t);
  tmsize_t (*StripSize)(TIFF *);
  tmsize_t (*TileSize)(TIFF *);
  tmsize_t (*ReadEncodedStrip)(TIFF *, uint32_t, void *, tmsize_t);
  tmsize_t (*ReadEncodedTile)(TIFF *, uint32_t, void *, tmsize_t);
  int (*RGBAImageOK)(TIFF *, char[1024]);
  int (*ReadRGBAImageOriented)(TIFF *, uint32_t, uint32_t, uint32_t *, int, int);
} lib_functions;
static lib_functions lib;

static ck_load_state loading = CK_LOAD_STATE_INIT;

#define say(message, ...) ck_runtime_message(message, CK_TIFF_MESSAGE_LENGTH, __VA_ARGS__)

static void load(void) {
  void *handle = ck_runtime_library_load(CK_LIBRARY_TIFF, loading.message, sizeof loading.message);
  if (!handle) return;
  static const ck_binding bindings[] = {
      CK_BINDING(lib_functions, OptionsAlloc, "TIFFOpenOptionsAlloc"),
      CK_BINDING(lib_functions, OptionsFree, "TIFFOpenOptionsFree"),
      CK_BINDING(lib_functions, OptionsSetMaxSingleMemAlloc, "TIFFOpenOptionsSetMaxSingleMemAlloc"),
      CK_BINDING(lib_functions, OptionsSetErrorHandler, "TIFFOpenOptionsSetErrorHandlerExtR"),
      CK_BINDING(lib_functions, OptionsSetWarningHandler, "TIFFOpenOptionsSetWarningHandlerExtR"),
      CK_BINDING(lib_functions, ClientOpenExt, "TIFFClientOpenExt"),
      CK_BINDING(lib_functions, Close, "TIFFClose"),
      CK_BINDING(lib_functions, GetField, "TIFFGetField"),
      CK_BINDING(lib_functions, GetFieldDefaulted, "TIFFGetFieldDefaulted"),
      CK_BINDING(lib_functions, SetField, "TIFFSetField"),
      CK_BINDING(lib_functions, NumberOfDirectories, "TIFFNumberOfDirectories"),
      CK_BINDING(lib_functions, IsTiled, "TIFFIsTiled"),
      CK_BINDING(lib_functions, ComputeStrip, "TIFFComputeStrip"),
      CK_BINDING(lib_functions, ComputeTile, "TIFFComputeTile"),
      CK_BINDING(lib_functions, StripSize, "TIFFStripSize"),
      CK_BINDING(lib_functions, TileSize, "TIFFTileSize"),
      CK_BINDING(lib_functions, ReadEncodedStrip, "TIFFReadEncodedStrip"),
      CK_BINDING(lib_functions, ReadEncodedTile, "TIFFReadEncodedTile"),
      CK_BINDING(lib_functions, RGBAImageOK, "TIFFRGBAImageOK"),
      CK_BINDING(lib_functions, ReadRGBAImageOriented, "TIFFReadRGBAImageOriented"),
  };
  if (!ck_runtime_library_bind_all(handle, &lib, bindings, sizeof bindings / sizeof *bindings, "libtiff",
                                   "libtiff 4.5 or later is needed", loading.message, sizeof loading.message))
    return;
  loading.status = CK_OK;
}

int ck_tiff_load(char *message) { return ck_load_once(&loading, load, message, CK_TIFF_MESSAGE_LENGTH); }

struct ck_tiff {
  uint8_t *data;
  size_t size, position;
  TIFF *tif;
  ck_tiff_info info;
  /// The photometric the samples read as (YCbCr JPEG reads as RGB once libtiff is asked to convert).
  int photometric;
  /// Source sample of each output channel.
  int sample_of_channel[4];
  /// The colour map of a palette picture read with its alpha (CK_TIFF_PALETTE), 8-bit.
  uint8_t palette[256][3];
  /// libtiff's first error since the last reset.
  char error[CK_TIFF_MESSAGE_LENGTH];
  int error_count;
  /// The largest single allocation allowed (libtiff's and the shim's own).
  size_t max_allocation;
  /// The samples as the file stores them, when the direct path converts them (else 0): bits and SampleFormat.
  int stored_bits, stored_format;
  /// The values a float sample's range runs between: SMinSampleValue and SMaxSampleValue when given, else 0 and 1.
  double float_low, float_high;
  /// One run of converted samples (CK_TIFF_DIRECT with stored_bits set).
  uint8_t *expanded;
};

static tmsize_t read_proc(thandle_t handle, void *buffer, tmsize_t length) {
  ck_tiff *t = handle;
  if (length <= 0 || t->position >= t->size) return 0;
  size_t count = (size_t)length < t->size - t->position ? (size_t)length : t->size - t->position;
  memcpy(buffer, t->data + t->position, count);
  t->position += count;
  return (tmsize_t)count;
}
static tmsize_t write_proc(thandle_t handle, void *buffer, tmsize_t length) {
  (void)handle, (void)buffer, (void)length;
  return -1;
}
static toff_t seek_proc(thandle_t handle, toff_t offset, int whence) {
  ck_tiff *t = handle;
  uint64_t base = whence == SEEK_CUR ? t->position : whence == SEEK_END ? t->size : 0;
  uint64_t target = base + offset;
  if (target < base || target > t->size) return (toff_t)-1;
  t->position = (size_t)target;
  return target;
}
static int close_proc(thandle_t handle) {
  (void)handle;
  return 0;
}
static toff_t size_proc(thandle_t handle) { return ((ck_tiff *)handle)->size; }
static int map_proc(thandle_t handle, void **base, toff_t *size) {
  ck_tiff *t = handle;
  *base = t->data;
  *size = t->size;
  return 1;
}
static void unmap_proc(thandle_t handle, void *base, toff_t size) { (void)handle, (void)base, (void)size; }

// libtiff prints some signed byte counts (a failed read's -780) through an unsigned format, as 18446744073709550836:
// in a message, a run of digits that is a 64-bit value of 2^63 or more is rewritten as the negative number it is.
static void signed_numbers(char *text, size_t capacity) {
  char out[sizeof(((ck_tiff *)0)->error)];
  size_t o = 0;
  for (const char *p = text; *p && o + 1 < sizeof out;) {
    if (*p >= '0' && *p <= '9' && (p == text || p[-1] < '0' || p[-1] > '9')) {
      const char *end = p;
      while (*end >= '0' && *end <= '9') end++;
      errno = 0;
      unsigned long long value = (end - p == 19 || end - p == 20) ? strtoull(p, NULL, 10) : 0;
      if (errno == 0 && value >= (1ULL << 63)) {
        o += (size_t)snprintf(out + o, sizeof out - o, "%lld", (long long)value);
        if (o >= sizeof out) o = sizeof out - 1;
        p = end;
        continue;
      }
    }
    out[o++] = *p++;
  }
  out[o] = '\0';
  snprintf(text, capacity, "%s", out);
}

static int on_error(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
  (void)tif, (void)module;
  ck_tiff *t = user;
  if (t->error_count++ == 0) {
    vsnprintf(t->error, sizeof t->error, format, args);
    signed_numbers(t->error, sizeof t->error);
  }
  return 1;
}
static int on_warning(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
  (void)tif, (void)module;
  ck_tiff *t = user;
  if (t->info.warning_count++ == 0) {
    vsnprintf(t->info.first_warning, sizeof t->info.first_warning, format, args);
    signed_numbers(t->info.first_warning, sizeof t->info.first_warning);
  }
  return 1;
}

/// A failure with libtiff's own words when it said something, else `fallback`.
static int fail(ck_tiff *t, int status, const char *fallback, char *message) {
  if (t && t->error_count > 0 && strstr(t->error, "; got -")) {
    // libtiff's "Read error on strip 3; got -780 bytes, expected 4096": a negative count is a read past the data.
    say(message, "%s: the data ends before it (libtiff: %s)", fallback, t->error);
    return CK_TIFF_ERR_TRUNCATED;
  }
  if (t && t->error_count > 0) {
    say(message, "%s: %s", fallback, t->error);
    if (strstr(t->error, "Read error") || strstr(t->error, "past end") || strstr(t->error, "EOF"))
      status = CK_TIFF_ERR_TRUNCATED;
    if (strstr(t->error, "Memory") || strstr(t->error, "memory") || strstr(t->error, "allocat"))
      status = CK_TIFF_ERR_MEMORY;
  } else {
    say(message, "%s", fallback);
  }
  return status;
}

/// Chooses the way to the pixels and the output's channels from the tags.
static int choose_mode(ck_tiff *t, int cmyk_profile_available, char *message) {
  ck_tiff_info *info = &t->info;
  uint16_t extra_count = 0, *extra = NULL, inkset = INKSET_CMYK;
  lib.GetFieldDefaulted(t->tif, TAG_EXTRASAMPLES, &extra_count, &extra);
  lib.GetFieldDefaulted(t->tif, TAG_INKSET, &inkset);
  int color = t->photometric == PHOTOMETRIC_RGB ? 3
              : t->photometric == PHOTOMETRIC_MINISBLACK || t->photometric == PHOTOMETRIC_MINISWHITE ? 1
              : 0;
  // The first extra sample is alpha unless it is declared as something else; an unspecified one counts as
  // unassociated alpha when it is the only extra sample of a 2- or 4-sample file (as libvips reads it).
  int alpha_kind = extra_count > 0 && extra ? extra[0] : -1;
  int has_alpha = alpha_kind == EXTRASAMPLE_ASSOCALPHA || alpha_kind == EXTRASAMPLE_UNASSALPHA ||
                  (alpha_kind == EXTRASAMPLE_UNSPECIFIED && info->samples_per_pixel == color + 1);
  int bits = info->bits_per_sample, format = info->sample_format;
  // Gray or RGB samples the direct path converts: unsigned of any depth up to 16 (12-bit scientific pictures, 4-bit
  // gray with alpha) and 32, signed 8/16/32-bit (offset to unsigned, as ImageMagick and OpenJPEG's readers do), and
  // half, single and double floats (0…1 is black to white, clamped, as ImageMagick takes float TIFFs, or the range
  // SMinSampleValue and SMaxSampleValue give).
  int convertible = color > 0 && info->samples_per_pixel >= color + (has_alpha ? 1 : 0) &&
                    ((format == SAMPLEFORMAT_UINT && ((bits >= 1 && bits <= 16) || bits == 32)) ||
                     (format == SAMPLEFORMAT_INT && (bits == 8 || bits == 16 || bits == 32)) ||
                     (format == SAMPLEFORMAT_IEEEFP && (bits == 16 || bits == 32 || bits == 64)));
  int as_stored = format == SAMPLEFORMAT_UINT && (bits == 8 || bits == 16);
  int converted = convertible && !as_stored && (format != SAMPLEFORMAT_UINT || bits > 8 || !lib.RGBAImageOK(t->tif, (char[1024]){0}));
  if (format != SAMPLEFORMAT_UINT && format != SAMPLEFORMAT_INT && format != SAMPLEFORMAT_IEEEFP) {
    say(message, "%s samples", format == 4 ? "untyped (void)" : format == 5 ? "complex integer" : format == 6 ? "complex floating-point" : "unknown-format");
    return CK_TIFF_ERR_UNSUPPORTED;
  }
  if (format != SAMPLEFORMAT_UINT && !convertible) {
    say(message, "%d-bit %s samples", bits, format == SAMPLEFORMAT_IEEEFP ? "floating-point" : "signed integer");
    return CK_TIFF_ERR_UNSUPPORTED;
  }
  if (color > 0 && (as_stored || converted) && info->samples_per_pixel >= color + (has_alpha ? 1 : 0)) {
    if (converted) {
      t->stored_bits = bits;
      t->stored_format = format;
      double low = 0, high = 1;
      if (format == SAMPLEFORMAT_IEEEFP && lib.GetField(t->tif, TAG_SMINSAMPLEVALUE, &low) &&
          lib.GetField(t->tif, TAG_SMAXSAMPLEVALUE, &high) && isfinite(low) && isfinite(high) && high > low) {
        t->float_low = low, t->float_high = high;
      } else {
        t->float_low = 0, t->float_high = 1;
      }
      bits = (format == SAMPLEFORMAT_UINT && bits < 8) || (format == SAMPLEFORMAT_INT && bits == 8) ? 8 : 16;
    }
    info->mode = CK_TIFF_DIRECT;
    info->bits = bits;
    info->alpha = has_alpha;
    info->alpha_associated = alpha_kind == EXTRASAMPLE_ASSOCALPHA;
    info->channels = color + (has_alpha ? 1 : 0);
    for (int c = 0; c < color; c++) t->sample_of_channel[c] = c;
    if (has_alpha) t->sample_of_channel[color] = color;
    return CK_TIFF_OK;
  }
  // CMYK as stored: 8-bit when a profile will convert it (else libtiff's RGBA reader converts it naively), 16-bit
  // always (libtiff's reader cannot: "Sorry, can not handle image"); CropCodecs converts it.
  if (t->photometric == PHOTOMETRIC_SEPARATED && inkset == INKSET_CMYK && info->samples_per_pixel >= 4 &&
      ((bits == 8 && (info->icc || cmyk_profile_available)) || bits == 16)) {
    info->mode = CK_TIFF_CMYK;
    info->bits = bits;
    info->channels = 4;
    for (int c = 0; c < 4; c++) t->sample_of_channel[c] = c;
    return CK_TIFF_OK;
  }
  // CIELab (8- or 16-bit, no extra samples): read as stored and handed over in Little CMS's encoding, for a
  // conversion from D50 (libtiff's RGBA reader converts to RGB without adapting the white: L* 100 came out
  // (255, 252, 222)).
  if (t->photometric == PHOTOMETRIC_CIELAB && (bits == 8 || bits == 16) && info->samples_per_pixel == 3) {
    info->mode = CK_TIFF_LAB;
    info->bits = bits;
    info->channels = 3;
    for (int c = 0; c < 3; c++) t->sample_of_channel[c] = c;
    return CK_TIFF_OK;
  }
  // An 8-bit palette picture with an alpha sample: libtiff's RGBA reader drops the alpha, so the index and alpha
  // samples are read as stored and the colours looked up here (input_256_matte.tiff, as Pillow and libvips read it).
  uint16_t *red = NULL, *green = NULL, *blue = NULL;
  if (t->photometric == PHOTOMETRIC_PALETTE && bits == 8 && info->samples_per_pixel == 2 &&
      (alpha_kind == EXTRASAMPLE_ASSOCALPHA || alpha_kind == EXTRASAMPLE_UNASSALPHA ||
       alpha_kind == EXTRASAMPLE_UNSPECIFIED) &&
      lib.GetField(t->tif, TAG_COLORMAP, &red, &green, &blue) && red && green && blue) {
    // Old writers put 8-bit values in the 16-bit map (libtiff's reader checks the same way).
    int eight = 1;
    for (int k = 0; k < 256; k++) eight &= red[k] < 256 && green[k] < 256 && blue[k] < 256;
    for (int k = 0; k < 256; k++) {
      t->palette[k][0] = (uint8_t)(eight ? red[k] : red[k] >> 8);
      t->palette[k][1] = (uint8_t)(eight ? green[k] : green[k] >> 8);
      t->palette[k][2] = (uint8_t)(eight ? blue[k] : blue[k] >> 8);
    }
    info->mode = CK_TIFF_PALETTE;
    info->bits = 8;
    info->alpha = 1;
    info->alpha_associated = alpha_kind == EXTRASAMPLE_ASSOCALPHA;
    info->channels = 4;
    t->sample_of_channel[0] = 0, t->sample_of_channel[1] = 1;
    return CK_TIFF_OK;
  }
  if (bits > 16) {
    say(message, "%d-bit samples", bits);
    return CK_TIFF_ERR_UNSUPPORTED;
  }
  char reason[1024] = {0};
  if (!lib.RGBAImageOK(t->tif, reason)) {
    say(message, "%s", reason[0] ? reason : "a sample layout libtiff cannot read as RGBA");
    return CK_TIFF_ERR_UNSUPPORTED;
  }
  info->mode = CK_TIFF_RGBA_READER;
  info->bits = 8;
  info->alpha = extra_count > 0 && extra &&
                (alpha_kind != EXTRASAMPLE_UNSPECIFIED || info->samples_per_pixel > 3);
  info->alpha_associated = info->alpha;  // libtiff's reader premultiplies
  info->channels = info->alpha ? 4 : 3;
  return CK_TIFF_OK;
}

int ck_tiff_open(const uint8_t *data, size_t size, size_t max_allocation, int cmyk_profile_available, ck_tiff **out,
                 ck_tiff_info *info, char *message) {
  *out = NULL;
  int status = ck_tiff_load(message);
  if (status != CK_TIFF_OK) return status;
  ck_tiff *t = calloc(1, sizeof *t);
  if (!t || !(t->data = malloc(size ? size : 1))) {
    free(t);
    say(message, "out of memory for a copy of %zu bytes", size);
    return CK_TIFF_ERR_MEMORY;
  }
  *out = t;
  memcpy(t->data, data, size);
  t->size = size;
  t->max_allocation = max_allocation;
  TIFFOpenOptions *options = lib.OptionsAlloc();
  if (!options) return fail(t, CK_TIFF_ERR_MEMORY, "out of memory", message);
  lib.OptionsSetMaxSingleMemAlloc(options, (tmsize_t)max_allocation);
  lib.OptionsSetErrorHandler(options, on_error, t);
  lib.OptionsSetWarningHandler(options, on_warning, t);
  t->tif = lib.ClientOpenExt("TIFF data", "r", t, read_proc, write_proc, seek_proc, close_proc, size_proc, map_proc,
                             unmap_proc, options);
  lib.OptionsFree(options);
  if (!t->tif) return fail(t, CK_TIFF_ERR_CORRUPT, "reading the header", message);
  ck_tiff_info *i = &t->info;
  uint16_t bits = 1, spp = 1, sample_format = SAMPLEFORMAT_UINT, planar = 1, compression = 1, photometric = 0;
  uint16_t orientation = 1;
  if (!lib.GetField(t->tif, TAG_IMAGEWIDTH, &i->width) || !lib.GetField(t->tif, TAG_IMAGELENGTH, &i->height) ||
      i->width == 0 || i->height == 0) {
    return fail(t, CK_TIFF_ERR_CORRUPT, "the first page has no width or height", message);
  }
  lib.GetFieldDefaulted(t->tif, TAG_BITSPERSAMPLE, &bits);
  lib.GetFieldDefaulted(t->tif, TAG_SAMPLESPERPIXEL, &spp);
  lib.GetFieldDefaulted(t->tif, TAG_SAMPLEFORMAT, &sample_format);
  lib.GetFieldDefaulted(t->tif, TAG_PLANARCONFIG, &planar);
  lib.GetFieldDefaulted(t->tif, TAG_COMPRESSION, &compression);
  lib.GetFieldDefaulted(t->tif, TAG_ORIENTATION, &orientation);
  if (!lib.GetField(t->tif, TAG_PHOTOMETRIC, &photometric)) {
    photometric = spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    i->photometric_guessed = 1;
  }
  t->photometric = photometric;
  if (photometric == PHOTOMETRIC_YCBCR && compression == COMPRESSION_JPEG) {
    // libtiff's JPEG codec converts to RGB itself when asked: the samples then read as RGB.
    lib.SetField(t->tif, TAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
    t->photometric = PHOTOMETRIC_RGB;
  }
  i->bits_per_sample = bits;
  i->samples_per_pixel = spp;
  i->sample_format = sample_format;
  i->photometric = photometric;
  i->planar_separate = planar == PLANARCONFIG_SEPARATE;
  i->compression = compression;
  i->tiled = lib.IsTiled(t->tif) != 0;
  i->orientation = orientation >= 1 && orientation <= 8 ? orientation : 0;
  uint32_t icc_size = 0;
  void *icc = NULL;
  if (lib.GetField(t->tif, TAG_ICCPROFILE, &icc_size, &icc) && icc && icc_size > 0) {
    i->icc = icc;
    i->icc_size = icc_size;
  }
  status = choose_mode(t, cmyk_profile_available, message);
  i->page_count = lib.NumberOfDirectories(t->tif);
  *info = *i;
  return status;
}

/// Copies `count` pixels of one run of decoded samples (`stride` samples apart, the run holding `plane`'s samples
/// when planar) into output pixels of `channels` channels.
static void scatter(const ck_tiff *t, const uint8_t *run, int plane, uint32_t count, uint8_t *target) {
  const ck_tiff_info *i = &t->info;
  int sample_bytes = i->bits / 8, channels = i->channels;
  int stride = i->planar_separate ? 1 : i->samples_per_pixel;
  for (int c = 0; c < channels; c++) {
    int sample = t->sample_of_channel[c];
    if (i->planar_separate && sample != plane) continue;
    int offset = i->planar_separate ? 0 : sample;
    const uint8_t *source = run + (size_t)offset * sample_bytes;
    uint8_t *destination = target + (size_t)c * sample_bytes;
    for (uint32_t x = 0; x < count; x++) {
      memcpy(destination, source, (size_t)sample_bytes);
      source += (size_t)stride * sample_bytes;
      destination += (size_t)channels * sample_bytes;
    }
  }
}

/// A buffer for one strip or tile of `size` bytes, or NULL with the status in `*status`: refused above the allocation
/// limit (a hostile file can claim gigabytes), or out of memory.
static uint8_t *block_buffer(ck_tiff *t, tmsize_t size, const char *what, int *status, char *message) {
  if ((uint64_t)size > t->max_allocation) {
    say(message, "a %s of %lld bytes is over the %zu-byte allocation limit", what, (long long)size, t->max_allocation);
    *status = CK_TIFF_ERR_MEMORY;
    return NULL;
  }
  uint8_t *buffer = malloc((size_t)size);
  if (!buffer) {
    say(message, "out of memory for a %s of %lld bytes", what, (long long)size);
    *status = CK_TIFF_ERR_MEMORY;
  }
  return buffer;
}

/// A half-precision float's value.
static double half_value(uint16_t h) {
  int exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
  double magnitude = exponent == 0    ? ldexp(mantissa, -24)
                     : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                      : ldexp(mantissa | 0x400, exponent - 25);
  return h & 0x8000 ? -magnitude : magnitude;
}

/// `count` samples of a run as the file stores them (its bits, packed from the most significant bit, and its
/// SampleFormat; multi-byte samples already in native order) converted to the output's unsigned 8 or 16 bits:
/// unsigned samples scaled to the full range, signed ones offset by half of it, floats from 0…1 (clamped; NaN is 0).
static void convert_samples(const ck_tiff *t, const uint8_t *run, size_t count, uint8_t *out) {
  int bits = t->stored_bits, format = t->stored_format, eight = t->info.bits == 8;
  uint16_t *wide = (uint16_t *)(void *)out;
  for (size_t k = 0; k < count; k++) {
    double unit;  // the sample on 0…1
    if (format == SAMPLEFORMAT_UINT && bits <= 16) {
      // The sample's bits lie in at most three bytes (a shift of up to 7 and up to 16 bits); the bytes it does
      // not reach are not read, so the run's last byte is the last one touched.
      size_t at = k * (size_t)bits, first = at >> 3, last = (at + (size_t)bits - 1) >> 3;
      uint32_t window = 0;
      for (size_t byte = first; byte <= last; byte++) window = (window << 8) | run[byte];
      uint32_t v = (window >> ((last + 1) * 8 - (at + (size_t)bits))) & ((1u << bits) - 1);
      uint32_t max = (1u << bits) - 1;
      if (eight) out[k] = (uint8_t)((v * 255u + max / 2) / max);
      else wide[k] = (uint16_t)((v * 65535ull + max / 2) / max);
      continue;
    } else if (bits == 8) {  // signed 8-bit
      out[k] = (uint8_t)((int8_t)run[k] + 128);
      continue;
    } else if (format == SAMPLEFORMAT_INT && bits == 16) {
      int16_t v;
      memcpy(&v, run + k * 2, 2);
      wide[k] = (uint16_t)(v + 32768);
      continue;
    } else if (bits == 32 && format != SAMPLEFORMAT_IEEEFP) {
      uint32_t v;
      memcpy(&v, run + k * 4, 4);
      if (format == SAMPLEFORMAT_INT) v ^= 0x80000000u;
      uint32_t rounded = (v >> 16) + ((v >> 15) & 1);
      wide[k] = (uint16_t)(rounded > 65535 ? 65535 : rounded);
      continue;
    } else if (bits == 16) {
      uint16_t h;
      memcpy(&h, run + k * 2, 2);
      unit = half_value(h);
    } else if (bits == 32) {
      float f;
      memcpy(&f, run + k * 4, 4);
      unit = f;
    } else {
      double d;
      memcpy(&d, run + k * 8, 8);
      unit = d;
    }
    unit = (unit - t->float_low) / (t->float_high - t->float_low);
    unit = isnan(unit) || unit < 0 ? 0 : unit > 1 ? 1 : unit;
    wide[k] = (uint16_t)lround(unit * 65535);
  }
}

/// Places one run of decoded samples: converted first when the file stores them otherwise than the output.
static void place(ck_tiff *t, const uint8_t *run, int plane, uint32_t count, uint8_t *target) {
  if (t->stored_bits) {
    size_t samples = (size_t)count * (size_t)(t->info.planar_separate ? 1 : t->info.samples_per_pixel);
    convert_samples(t, run, samples, t->expanded);
    run = t->expanded;
  }
  scatter(t, run, plane, count, target);
}

/// Reads strips or tiles and copies their samples into place.
static int read_direct(ck_tiff *t, uint8_t *output, size_t stride, char *message) {
  const ck_tiff_info *i = &t->info;
  int planes = i->planar_separate ? i->samples_per_pixel : 1;
  size_t pixel_bytes = (size_t)i->channels * (i->bits / 8);
  // A run of stored samples is packed to the bit, rows to the byte.
  int stored_bits = t->stored_bits ? t->stored_bits : i->bits;
  size_t run_samples = (size_t)(i->planar_separate ? 1 : i->samples_per_pixel);
#define RUN_BYTES(pixels) (((size_t)(pixels) * run_samples * (size_t)stored_bits + 7) / 8)
  if (t->stored_bits) {
    int status = CK_TIFF_OK;
    free(t->expanded);
    uint32_t widest = i->width;
    if (i->tiled) {
      uint32_t tile_width = 0;
      lib.GetField(t->tif, 322, &tile_width);
      if (tile_width > widest) widest = tile_width;
    }
    t->expanded = block_buffer(t, (tmsize_t)((size_t)widest * run_samples * 2), "converted row", &status, message);
    if (!t->expanded) return status;
  }
  if (i->tiled) {
    uint32_t tile_width = 0, tile_height = 0;
    lib.GetField(t->tif, 322, &tile_width);
    lib.GetField(t->tif, 323, &tile_height);
    tmsize_t tile_size = lib.TileSize(t->tif);
    if (tile_width == 0 || tile_height == 0 || tile_size <= 0 ||
        (uint64_t)RUN_BYTES(tile_width) * tile_height > (uint64_t)tile_size)
      return fail(t, CK_TIFF_ERR_CORRUPT, "a tile size that does not hold its pixels", message);
    int status = CK_TIFF_OK;
    uint8_t *buffer = block_buffer(t, tile_size, "tile", &status, message);
    if (!buffer) return status;
    for (int plane = 0; plane < planes; plane++) {
      for (uint32_t y = 0; y < i->height; y += tile_height) {
        for (uint32_t x = 0; x < i->width; x += tile_width) {
          uint32_t tile = lib.ComputeTile(t->tif, x, y, 0, (uint16_t)plane);
          if (lib.ReadEncodedTile(t->tif, tile, buffer, tile_size) < 0) {
            free(buffer);
            return fail(t, CK_TIFF_ERR_CORRUPT, "reading a tile", message);
          }
          uint32_t rows = i->height - y < tile_height ? i->height - y : tile_height;
          uint32_t columns = i->width - x < tile_width ? i->width - x : tile_width;
          for (uint32_t r = 0; r < rows; r++) {
            place(t, buffer + (size_t)r * RUN_BYTES(tile_width), plane, columns,
                  output + (size_t)(y + r) * stride + (size_t)x * pixel_bytes);
          }
        }
      }
    }
    free(buffer);
    return CK_TIFF_OK;
  }
  uint32_t rows_per_strip = 0;
  lib.GetFieldDefaulted(t->tif, 278, &rows_per_strip);
  if (rows_per_strip == 0 || rows_per_strip > i->height) rows_per_strip = i->height;
  tmsize_t strip_size = lib.StripSize(t->tif);
  size_t row_bytes = RUN_BYTES(i->width);
#undef RUN_BYTES
  if (strip_size <= 0 || (uint64_t)row_bytes * rows_per_strip > (uint64_t)strip_size)
    return fail(t, CK_TIFF_ERR_CORRUPT, "a strip size that does not hold its rows", message);
  int status = CK_TIFF_OK;
  uint8_t *buffer = block_buffer(t, strip_size, "strip", &status, message);
  if (!buffer) return status;
  for (int plane = 0; plane < planes; plane++) {
    for (uint32_t y = 0; y < i->height; y += rows_per_strip) {
      uint32_t strip = lib.ComputeStrip(t->tif, y, (uint16_t)plane);
      uint32_t rows = i->height - y < rows_per_strip ? i->height - y : rows_per_strip;
      tmsize_t got = lib.ReadEncodedStrip(t->tif, strip, buffer, strip_size);
      if (got < 0 || (size_t)got < row_bytes * rows) {
        free(buffer);
        return fail(t, got < 0 ? CK_TIFF_ERR_CORRUPT : CK_TIFF_ERR_TRUNCATED, "reading a strip", message);
      }
      for (uint32_t r = 0; r < rows; r++) {
        place(t, buffer + (size_t)r * row_bytes, plane, i->width, output + (size_t)(y + r) * stride);
      }
    }
  }
  free(buffer);
  return CK_TIFF_OK;
}

/// MinIsWhite inverted; associated alpha unpremultiplied.
static void finish_direct(const ck_tiff *t, uint8_t *output, size_t stride) {
  const ck_tiff_info *i = &t->info;
  int invert = t->photometric == PHOTOMETRIC_MINISWHITE, color = i->alpha ? i->channels - 1 : i->channels;
  if (!invert && !(i->alpha && i->alpha_associated)) return;
  for (uint32_t y = 0; y < i->height; y++) {
    uint8_t *row = output + (size_t)y * stride;
    for (uint32_t x = 0; x < i->width; x++) {
      if (i->bits == 8) {
        uint8_t *p = row + (size_t)x * i->channels;
        if (invert)
          for (int c = 0; c < color; c++) p[c] = 255 - p[c];
        if (i->alpha && i->alpha_associated) {
          unsigned a = p[color];
          for (int c = 0; c < color; c++) p[c] = a == 0 ? 0 : (uint8_t)((p[c] * 255u + a / 2) / a > 255 ? 255 : (p[c] * 255u + a / 2) / a);
        }
      } else {
        uint16_t *p = (uint16_t *)(void *)(row + (size_t)x * i->channels * 2);
        if (invert)
          for (int c = 0; c < color; c++) p[c] = 65535 - p[c];
        if (i->alpha && i->alpha_associated) {
          uint64_t a = p[color];
          for (int c = 0; c < color; c++) {
            uint64_t v = a == 0 ? 0 : (p[c] * 65535ull + a / 2) / a;
            p[c] = (uint16_t)(v > 65535 ? 65535 : v);
          }
        }
      }
    }
  }
}

/// libtiff's RGBA reader, in stored order (the Orientation tag is set aside so that it is not applied here).
static int read_rgba(ck_tiff *t, uint8_t *output, size_t stride, char *message) {
  const ck_tiff_info *i = &t->info;
  uint32_t *raster = malloc((size_t)i->width * i->height * 4);
  if (!raster) return fail(t, CK_TIFF_ERR_MEMORY, "out of memory for the RGBA picture", message);
  lib.SetField(t->tif, TAG_ORIENTATION, 1);
  if (!lib.ReadRGBAImageOriented(t->tif, i->width, i->height, raster, 1, 1)) {
    free(raster);
    return fail(t, CK_TIFF_ERR_CORRUPT, "reading the picture as RGBA", message);
  }
  for (uint32_t y = 0; y < i->height; y++) {
    const uint32_t *source = raster + (size_t)y * i->width;
    uint8_t *target = output + (size_t)y * stride;
    for (uint32_t x = 0; x < i->width; x++) {
      uint32_t p = source[x];
      unsigned r = p & 0xFF, g = (p >> 8) & 0xFF, b = (p >> 16) & 0xFF, a = p >> 24;
      if (i->alpha) {
        if (a != 255) {
          r = a ? (r * 255 + a / 2) / a : 0;
          g = a ? (g * 255 + a / 2) / a : 0;
          b = a ? (b * 255 + a / 2) / a : 0;
        }
        target[0] = r > 255 ? 255 : r, target[1] = g > 255 ? 255 : g, target[2] = b > 255 ? 255 : b, target[3] = a;
        target += 4;
      } else {
        target[0] = r, target[1] = g, target[2] = b;
        target += 3;
      }
    }
  }
  free(raster);
  return CK_TIFF_OK;
}

int ck_tiff_decode(ck_tiff *t, uint8_t *output, size_t stride, char *message) {
  if (!t || !t->tif) {
    say(message, "the TIFF is not open");
    return CK_TIFF_ERR_CORRUPT;
  }
  t->error_count = 0;
  if (t->info.mode == CK_TIFF_RGBA_READER) return read_rgba(t, output, stride, message);
  if (t->info.mode == CK_TIFF_PALETTE) {
    // Index and alpha into the first half of each row, then looked up in place from the right.
    t->info.channels = 2;
    int status = read_direct(t, output, stride, message);
    t->info.channels = 4;
    if (status != CK_TIFF_OK) return status;
    for (uint32_t y = 0; y < t->info.height; y++) {
      uint8_t *row = output + (size_t)y * stride;
      for (uint32_t x = t->info.width; x-- > 0;) {
        uint8_t index = row[2 * (size_t)x], alpha = row[2 * (size_t)x + 1];
        uint8_t *p = row + 4 * (size_t)x;
        p[0] = t->palette[index][0], p[1] = t->palette[index][1], p[2] = t->palette[index][2], p[3] = alpha;
      }
    }
    finish_direct(t, output, stride);
    return CK_TIFF_OK;
  }
  int status = read_direct(t, output, stride, message);
  if (status == CK_TIFF_OK && t->info.mode == CK_TIFF_DIRECT) finish_direct(t, output, stride);
  if (status == CK_TIFF_OK && t->info.mode == CK_TIFF_LAB) {
    // TIFF stores a* and b* signed (8-bit: −128…127; 16-bit: 1/256 units); Little CMS wants them offset: 8-bit
    // value + 128, 16-bit (value + 128) · 257 (ICC v4). L* is the same in both.
    for (uint32_t y = 0; y < t->info.height; y++) {
      uint8_t *row = output + (size_t)y * stride;
      for (uint32_t x = 0; x < t->info.width; x++) {
        if (t->info.bits == 8) {
          row[3 * (size_t)x + 1] ^= 0x80, row[3 * (size_t)x + 2] ^= 0x80;
        } else {
          uint16_t *p = (uint16_t *)(void *)(row + 6 * (size_t)x);
          for (int c = 1; c < 3; c++) {
            int32_t value = (int16_t)p[c];
            int64_t v4 = ((int64_t)value * 257 + 128 * 256 * 257 + 128) / 256;
            p[c] = (uint16_t)(v4 < 0 ? 0 : v4 > 65535 ? 65535 : v4);
          }
        }
      }
    }
  }
  return status;
}

void ck_tiff_close(ck_tiff *t) {
  if (!t) return;
  if (t->tif) lib.Close(t->tif);
  free(t->expanded);
  free(t->data);
  free(t);
}
