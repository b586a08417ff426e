// See include/cgif_shim.h: writing GIFs, still and animated, through giflib's EGif* functions and its quantiser, bound
// on first use so that reading needs neither; each frame's colours chosen by giflib and refined here.
#include "cgif_shim.h"
#include "giflib.h"

#include <stdlib.h>
#include <string.h>

typedef int (*OutputFunc)(GifFileType *, const GifByteType *, int);
enum { DISPOSE_BACKGROUND = 2, ERR_WRITE_FAILED = 2 };

typedef struct {
  GifFileType *(*Open)(void *, OutputFunc, int *);
  void (*SetGifVersion)(GifFileType *, bool);
  int (*PutScreenDesc)(GifFileType *, int, int, int, int, const ColorMapObject *);
  int (*PutExtension)(GifFileType *, int, int, const void *);
  int (*PutExtensionLeader)(GifFileType *, int);
  int (*PutExtensionBlock)(GifFileType *, int, const void *);
  int (*PutExtensionTrailer)(GifFileType *);
  int (*PutImageDesc)(GifFileType *, int, int, int, int, bool, const ColorMapObject *);
  int (*PutLine)(GifFileType *, GifByteType *, int);
  int (*CloseFile)(GifFileType *, int *);
  ColorMapObject *(*MakeMapObject)(int, const GifColorType *);
  void (*FreeMapObject)(ColorMapObject *);
  int (*QuantizeBuffer)(unsigned, unsigned, int *, GifByteType *, GifByteType *, GifByteType *, GifByteType *,
                        GifColorType *);
} writing_functions;
static writing_functions writing;

static ck_load_state writing_loading = CK_LOAD_STATE_INIT;

static void load_writing(void) {
  if (ck_gif_load(writing_loading.message) != CK_GIF_OK) return;
  void *handle = ck_runtime_library_load(CK_LIBRARY_GIF, writing_loading.message, sizeof writing_loading.message);
  if (!handle) return;
  static const ck_binding bindings[] = {
      CK_BINDING(writing_functions, Open, "EGifOpen"),
      CK_BINDING(writing_functions, SetGifVersion, "EGifSetGifVersion"),
      CK_BINDING(writing_functions, PutScreenDesc, "EGifPutScreenDesc"),
      CK_BINDING(writing_functions, PutExtension, "EGifPutExtension"),
      CK_BINDING(writing_functions, PutExtensionLeader, "EGifPutExtensionLeader"),
      CK_BINDING(writing_functions, PutExtensionBlock, "EGifPutExtensionBlock"),
      CK_BINDING(writing_functions, PutExtensionTrailer, "EGifPutExtensionTrailer"),
      CK_BINDING(writing_functions, PutImageDesc, "EGifPutImageDesc"),
      CK_BINDING(writing_functions, PutLine, "EGifPutLine"),
      CK_BINDING(writing_functions, CloseFile, "EGifCloseFile"),
      CK_BINDING(writing_functions, MakeMapObject, "GifMakeMapObject"),
      CK_BINDING(writing_functions, FreeMapObject, "GifFreeMapObject"),
      CK_BINDING(writing_functions, QuantizeBuffer, "GifQuantizeBuffer"),
  };
  if (!ck_runtime_library_bind_all(handle, &writing, bindings, sizeof bindings / sizeof *bindings, "giflib",
                                   "giflib 5.1 or later is needed", writing_loading.message, sizeof writing_loading.message))
    return;
  writing_loading.status = CK_OK;
}

struct ck_gif_writer {
  GifFileType *gif;
  int width, height;
  /// The encoded bytes so far.
  uint8_t *bytes;
  size_t size, capacity;
  int out_of_memory;
  /// One plane per primary, the quantised indices, and whether each pixel is transparent: a frame's worth each.
  GifByteType *red, *green, *blue, *indices;
  /// The nearest palette entry per 5-bit-per-primary cell (0xFFFF: not looked up yet), for one frame.
  uint16_t *nearest;
};

static int write_bytes(GifFileType *gif, const GifByteType *data, int length) {
  ck_gif_writer *w = gif->UserData;
  if (length <= 0) return 0;
  if (w->size + (size_t)length > w->capacity) {
    size_t capacity = w->capacity ? w->capacity : 65536;
    while (capacity < w->size + (size_t)length) capacity *= 2;
    uint8_t *grown = realloc(w->bytes, capacity);
    if (!grown) {
      w->out_of_memory = 1;
      return 0;
    }
    w->bytes = grown, w->capacity = capacity;
  }
  memcpy(w->bytes + w->size, data, (size_t)length);
  w->size += (size_t)length;
  return length;
}

static int write_failure(ck_gif_writer *w, int error, const char *doing, char *message) {
  if (w->out_of_memory) {
    say(message, "%s: out of memory", doing);
    return CK_GIF_ERR_MEMORY;
  }
  const char *text = ck_giflib.ErrorString(error);
  say(message, "%s: %s", doing, text ? text : "unknown giflib error");
  return error == ERR_NOT_ENOUGH_MEM ? CK_GIF_ERR_MEMORY : CK_GIF_ERR_CORRUPT;
}

void ck_gif_writer_close(ck_gif_writer *w) {
  if (!w) return;
  if (w->gif) writing.CloseFile(w->gif, NULL);
  free(w->bytes);
  free(w->red);
  free(w->green);
  free(w->blue);
  free(w->indices);
  free(w->nearest);
  free(w);
}

int ck_gif_writer_open(int width, int height, int loop_count, ck_gif_writer **out, char *message) {
  *out = NULL;
  int loaded = ck_load_once(&writing_loading, load_writing, message, CK_GIF_MESSAGE_LENGTH);
  if (loaded != CK_OK) return loaded;
  if (width < 1 || height < 1 || width > 65535 || height > 65535) {
    say(message, "a %d×%d picture is past GIF's 65535 px", width, height);
    return CK_GIF_ERR_CORRUPT;
  }
  ck_gif_writer *w = calloc(1, sizeof *w);
  size_t pixels = (size_t)width * (size_t)height;
  if (w) {
    w->width = width, w->height = height;
    w->red = malloc(pixels), w->green = malloc(pixels), w->blue = malloc(pixels), w->indices = malloc(pixels);
    w->nearest = malloc(sizeof(uint16_t) * 32768);
  }
  if (!w || !w->red || !w->green || !w->blue || !w->indices || !w->nearest) {
    ck_gif_writer_close(w);
    say(message, "out of memory for a %d×%d frame", width, height);
    return CK_GIF_ERR_MEMORY;
  }
  int error = 0;
  w->gif = writing.Open(w, write_bytes, &error);
  if (!w->gif) {
    int status = write_failure(w, error, "giflib could not start a GIF", message);
    ck_gif_writer_close(w);
    return status;
  }
  writing.SetGifVersion(w->gif, true);
  if (writing.PutScreenDesc(w->gif, width, height, 8, 0, NULL) == GIF_ERROR) {
    int status = write_failure(w, w->gif->Error, "giflib could not write the screen descriptor", message);
    ck_gif_writer_close(w);
    return status;
  }
  if (loop_count >= 0) {
    GifByteType loops[3] = {1, (GifByteType)(loop_count & 0xFF), (GifByteType)((loop_count >> 8) & 0xFF)};
    if (writing.PutExtensionLeader(w->gif, APPLICATION_EXT) == GIF_ERROR ||
        writing.PutExtensionBlock(w->gif, 11, "NETSCAPE2.0") == GIF_ERROR ||
        writing.PutExtensionBlock(w->gif, 3, loops) == GIF_ERROR || writing.PutExtensionTrailer(w->gif) == GIF_ERROR) {
      int status = write_failure(w, w->gif->Error, "giflib could not write the loop count", message);
      ck_gif_writer_close(w);
      return status;
    }
  }
  *out = w;
  return CK_GIF_OK;
}

/// The k-means steps after giflib's quantiser (see ck_gif_writer_add).
#ifndef CK_GIF_KMEANS_STEPS
#define CK_GIF_KMEANS_STEPS 3
#endif

/// Sets each of the first `entries` colours to the exact mean of the opaque pixels given its index (an entry no
/// pixel has keeps its colour), and gives transparent pixels index `entries` (the transparent index).
static void take_means(ck_gif_writer *w, const uint8_t *rgba, size_t stride, GifColorType *colors, int entries) {
  uint64_t sums[256][3];
  uint32_t counts[256];
  memset(sums, 0, sizeof sums);
  memset(counts, 0, sizeof counts);
  for (int y = 0; y < w->height; y++) {
    const uint8_t *row = rgba + (size_t)y * stride;
    GifByteType *indices = w->indices + (size_t)y * (size_t)w->width;
    for (int x = 0; x < w->width; x++) {
      const uint8_t *p = row + 4 * x;
      if (p[3] < 128) {
        indices[x] = (GifByteType)entries;
        continue;
      }
      GifByteType i = indices[x];
      sums[i][0] += p[0], sums[i][1] += p[1], sums[i][2] += p[2];
      counts[i]++;
    }
  }
  for (int i = 0; i < entries; i++) {
    if (!counts[i]) continue;
    uint64_t n = counts[i];
    colors[i].Red = (GifByteType)((sums[i][0] + n / 2) / n);
    colors[i].Green = (GifByteType)((sums[i][1] + n / 2) / n);
    colors[i].Blue = (GifByteType)((sums[i][2] + n / 2) / n);
  }
}

/// Gives every opaque pixel the nearest of the first `entries` colours (squared RGB distance). The answer is kept
/// per 5-bit-per-primary cell, as giflib's quantiser keys its colours, so a frame costs at most one search of the
/// table per cell it uses.
static void take_nearest(ck_gif_writer *w, const uint8_t *rgba, size_t stride, const GifColorType *colors,
                         int entries) {
  memset(w->nearest, 0xFF, sizeof(uint16_t) * 32768);
  for (int y = 0; y < w->height; y++) {
    const uint8_t *row = rgba + (size_t)y * stride;
    GifByteType *indices = w->indices + (size_t)y * (size_t)w->width;
    for (int x = 0; x < w->width; x++) {
      const uint8_t *p = row + 4 * x;
      if (p[3] < 128) continue;
      int cell = (p[0] >> 3) << 10 | (p[1] >> 3) << 5 | (p[2] >> 3);
      uint16_t found = w->nearest[cell];
      if (found == 0xFFFF) {
        int r = (p[0] & ~7) + 4, g = (p[1] & ~7) + 4, b = (p[2] & ~7) + 4;
        int best = 0, best_distance = 1 << 30;
        for (int i = 0; i < entries; i++) {
          int dr = r - colors[i].Red, dg = g - colors[i].Green, db = b - colors[i].Blue;
          int distance = dr * dr + dg * dg + db * db;
          if (distance < best_distance) best = i, best_distance = distance;
        }
        found = (uint16_t)best;
        w->nearest[cell] = found;
      }
      indices[x] = (GifByteType)found;
    }
  }
}

int ck_gif_writer_add(ck_gif_writer *w, const uint8_t *rgba, size_t stride, int delay_cs, char *message) {
  // Split into planes. Transparent pixels take the colour of the first opaque one, so they do not spend a palette
  // entry; they are given the transparent index after quantising.
  int transparent = 0;
  GifByteType fill[3] = {0, 0, 0};
  for (int y = 0, found = 0; y < w->height && !found; y++) {
    const uint8_t *row = rgba + (size_t)y * stride;
    for (int x = 0; x < w->width; x++)
      if (row[4 * x + 3] >= 128) {
        fill[0] = row[4 * x], fill[1] = row[4 * x + 1], fill[2] = row[4 * x + 2];
        found = 1;
        break;
      }
  }
  for (int y = 0; y < w->height; y++) {
    const uint8_t *row = rgba + (size_t)y * stride;
    size_t at = (size_t)y * (size_t)w->width;
    for (int x = 0; x < w->width; x++, at++) {
      const uint8_t *p = row + 4 * x;
      int clear = p[3] < 128;
      transparent |= clear;
      w->red[at] = clear ? fill[0] : p[0];
      w->green[at] = clear ? fill[1] : p[1];
      w->blue[at] = clear ? fill[2] : p[2];
    }
  }
  GifColorType colors[256];
  memset(colors, 0, sizeof colors);
  int count = transparent ? 255 : 256;
  if (writing.QuantizeBuffer((unsigned)w->width, (unsigned)w->height, &count, w->red, w->green, w->blue, w->indices,
                             colors) == GIF_ERROR) {
    say(message, "giflib could not quantise a %d×%d frame", w->width, w->height);
    return CK_GIF_ERR_MEMORY;
  }
  // giflib's quantiser works on 5 bits per primary and gives each entry its box's 5-bit mean (up to 7 levels off),
  // and a median-cut box is not always the nearest entry. k-means steps mend both: every entry becomes the exact mean
  // of its pixels, then (three times) every pixel takes its nearest entry and the means are taken again. A picture of
  // few colours keeps them exactly; on a 640×480 photo animation the mean error falls from 3.1–4.6 to 2.0–2.5 levels
  // (libvips, which dithers with libimagequant: 1.3–1.6). Transparent pixels take the transparent index, the first
  // after the colours.
  int entries = count;  // what the quantiser used: at most 255 with a transparent index
  take_means(w, rgba, stride, colors, entries);
  for (int step = 0; step < CK_GIF_KMEANS_STEPS; step++) {
    take_nearest(w, rgba, stride, colors, entries);
    take_means(w, rgba, stride, colors, entries);
  }
  // The smallest table that holds the colours used and the transparent index (a power of two, at least 2): a frame of
  // few colours spends a few bytes on its table, not 768.
  int table = 2;
  while (table < entries + (transparent ? 1 : 0)) table *= 2;
  ColorMapObject *map = writing.MakeMapObject(table, colors);
  if (!map) {
    say(message, "out of memory");
    return CK_GIF_ERR_MEMORY;
  }
  int delay = delay_cs < 0 ? 0 : delay_cs > 65535 ? 65535 : delay_cs;
  GifByteType control[4] = {(GifByteType)(DISPOSE_BACKGROUND << 2 | (transparent ? 1 : 0)), (GifByteType)(delay & 0xFF),
                            (GifByteType)(delay >> 8), transparent ? (GifByteType)entries : 0};
  int ok = writing.PutExtension(w->gif, GRAPHICS_EXT, 4, control) != GIF_ERROR &&
           writing.PutImageDesc(w->gif, 0, 0, w->width, w->height, false, map) != GIF_ERROR;
  for (int y = 0; ok && y < w->height; y++)
    ok = writing.PutLine(w->gif, w->indices + (size_t)y * (size_t)w->width, w->width) != GIF_ERROR;
  writing.FreeMapObject(map);
  return ok ? CK_GIF_OK : write_failure(w, w->gif->Error, "giflib could not write a frame", message);
}

int ck_gif_writer_finish(ck_gif_writer *w, uint8_t **output, size_t *output_size, char *message) {
  *output = NULL;
  *output_size = 0;
  int error = 0;
  GifFileType *gif = w->gif;
  w->gif = NULL;  // EGifCloseFile frees it, failing or not
  if (writing.CloseFile(gif, &error) == GIF_ERROR || w->out_of_memory)
    return write_failure(w, error, "giflib could not end the GIF", message);
  *output = w->bytes, *output_size = w->size;
  w->bytes = NULL;
  return CK_GIF_OK;
}
