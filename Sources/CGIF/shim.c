// See include/cgif_shim.h. The declarations below are the subset of giflib 5's public ABI (gif_lib.h) that the shim
// uses, written from the library's documentation.
#include "cgif_shim.h"

#include "runtime_library.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned char GifByteType;
typedef struct { GifByteType Red, Green, Blue; } GifColorType;
typedef struct {
  int ColorCount;
  int BitsPerPixel;
  bool SortFlag;
  GifColorType *Colors;
} ColorMapObject;

/// The colour table of a frame that has none of its own and no global one: a grey ramp, index i as (i, i, i), as
/// Pillow reads such a file (GIF89a lets a decoder supply a default table; Pillow's no_palette.gif).
static GifColorType grey_ramp_colors[256];
static ColorMapObject grey_ramp_table = {256, 8, 0, grey_ramp_colors};
static pthread_once_t grey_ramp_once = PTHREAD_ONCE_INIT;

static void fill_grey_ramp(void) {
  for (int i = 0; i < 256; i++) {
    grey_ramp_colors[i].Red = grey_ramp_colors[i].Green = grey_ramp_colors[i].Blue = (GifByteType)i;
  }
}

static const ColorMapObject *grey_ramp(void) {
  pthread_once(&grey_ramp_once, fill_grey_ramp);
  return &grey_ramp_table;
}
typedef struct {
  int Left, Top, Width, Height;
  bool Interlace;
  ColorMapObject *ColorMap;
} GifImageDesc;
typedef struct GifFileType {
  int SWidth, SHeight, SColorResolution, SBackGroundColor;
  GifByteType AspectByte;
  ColorMapObject *SColorMap;
  int ImageCount;
  GifImageDesc Image;
  void *SavedImages;
  int ExtensionBlockCount;
  void *ExtensionBlocks;
  int Error;
  void *UserData;
  void *Private;
} GifFileType;
typedef int (*InputFunc)(GifFileType *, GifByteType *, int);

enum { GIF_ERROR = 0, GIF_OK = 1 };
enum { SCREEN_DESC_RECORD = 1, IMAGE_DESC_RECORD = 2, EXTENSION_RECORD = 3, TERMINATE_RECORD = 4 };
enum { GRAPHICS_EXT = 0xF9, APPLICATION_EXT = 0xFF };
enum { ERR_READ_FAILED = 102, ERR_NOT_GIF = 103, ERR_NOT_ENOUGH_MEM = 109, ERR_EOF_TOO_SOON = 113 };

typedef struct {
  GifFileType *(*Open)(void *, InputFunc, int *);
  int (*Close)(GifFileType *, int *);
  int (*GetRecordType)(GifFileType *, int *);
  int (*GetImageDesc)(GifFileType *);
  int (*GetLine)(GifFileType *, GifByteType *, int);
  int (*GetCode)(GifFileType *, int *, GifByteType **);
  int (*GetCodeNext)(GifFileType *, GifByteType **);
  int (*GetExtension)(GifFileType *, int *, GifByteType **);
  int (*GetExtensionNext)(GifFileType *, GifByteType **);
  const char *(*ErrorString)(int);
} lib_functions;
static lib_functions lib;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = CK_GIF_ERR_UNAVAILABLE;
static char load_message[CK_GIF_MESSAGE_LENGTH];

#define say(message, ...) ck_runtime_message(message, CK_GIF_MESSAGE_LENGTH, __VA_ARGS__)

static void load(void) {
  void *handle = ck_runtime_library_load(CK_LIBRARY_GIF, load_message, sizeof load_message);
  if (!handle) return;
  static const ck_binding bindings[] = {
      CK_BINDING(lib_functions, Open, "DGifOpen"),
      CK_BINDING(lib_functions, Close, "DGifCloseFile"),
      CK_BINDING(lib_functions, GetRecordType, "DGifGetRecordType"),
      CK_BINDING(lib_functions, GetImageDesc, "DGifGetImageDesc"),
      CK_BINDING(lib_functions, GetLine, "DGifGetLine"),
      CK_BINDING(lib_functions, GetCode, "DGifGetCode"),
      CK_BINDING(lib_functions, GetCodeNext, "DGifGetCodeNext"),
      CK_BINDING(lib_functions, GetExtension, "DGifGetExtension"),
      CK_BINDING(lib_functions, GetExtensionNext, "DGifGetExtensionNext"),
      CK_BINDING(lib_functions, ErrorString, "GifErrorString"),
  };
  if (!ck_runtime_library_bind_all(handle, &lib, bindings, sizeof bindings / sizeof *bindings, "giflib",
                                   "giflib 5.1 or later is needed", load_message, sizeof load_message))
    return;
  load_status = CK_GIF_OK;
}

int ck_gif_load(char *message) {
  pthread_once(&load_once, load);
  if (load_status != CK_GIF_OK) say(message, "%s", load_message);
  return load_status;
}

/// The bytes giflib reads, through its input callback.
typedef struct {
  const uint8_t *data;
  size_t size;
  size_t position;
} Reader;

static int read_bytes(GifFileType *gif, GifByteType *buffer, int length) {
  Reader *reader = gif->UserData;
  if (length <= 0) return 0;
  size_t left = reader->size - reader->position;
  size_t count = (size_t)length < left ? (size_t)length : left;
  memcpy(buffer, reader->data + reader->position, count);
  reader->position += count;
  return (int)count;
}

/// Maps giflib's error code to a status, with giflib's own words in `message`.
static int failure(int error, const char *doing, char *message) {
  const char *text = lib.ErrorString(error);
  say(message, "%s: %s", doing, text ? text : "unknown giflib error");
  switch (error) {
    case ERR_READ_FAILED:
    case ERR_EOF_TOO_SOON: return CK_GIF_ERR_TRUNCATED;
    case ERR_NOT_GIF: return CK_GIF_ERR_NOT_GIF;
    case ERR_NOT_ENOUGH_MEM: return CK_GIF_ERR_MEMORY;
    default: return CK_GIF_ERR_CORRUPT;
  }
}

/// An open GIF positioned at its first frame's pixel data, with what its descriptors say.
typedef struct {
  Reader reader;
  GifFileType *gif;
  ck_gif_info info;
  const ColorMapObject *colors;
  /// An LZW minimum code size of 9 to 11, which giflib refuses ("Failed to read from given file") though a GIF may
  /// use it (Pillow's issue_2811.gif: codes are 12 bits from the start); 0 otherwise. The shim then decodes the
  /// frame itself from `lzw_start`, the first data sub-block, and giflib is not asked for anything more.
  int wide_code_size;
  size_t lzw_start;
  /// The first frame's delay, from its graphic control extension.
  int first_delay;
} FirstFrame;

/// Skips data sub-blocks from `at`; returns the offset after their terminator, or 0 when the data ends first.
static size_t skip_sub_blocks(const uint8_t *data, size_t size, size_t at) {
  while (at < size) {
    size_t length = data[at];
    if (length == 0) return at + 1;
    at += 1 + length;
  }
  return 0;
}

/// Counts the frames from `at`, the first frame's data, by walking the records without giflib (after a wide code
/// size, giflib's reader cannot go on). Returns the count, with `*incomplete` set when a record is cut or unknown.
static int count_frames_from(const uint8_t *data, size_t size, size_t at, int *incomplete) {
  int frames = 1;
  at = skip_sub_blocks(data, size, at);
  while (at != 0 && at < size && frames < CK_GIF_FRAME_COUNT_CAP) {
    uint8_t record = data[at];
    if (record == 0x3B) return frames;
    if (record == 0x21 && at + 2 <= size) {
      at = skip_sub_blocks(data, size, at + 2);
    } else if (record == 0x2C && at + 10 <= size) {
      uint8_t flags = data[at + 9];
      at += 10 + ((flags & 0x80) ? 3u * (2u << (flags & 7)) : 0);
      at = at + 1 < size ? skip_sub_blocks(data, size, at + 1) : 0;
      frames++;
    } else {
      break;
    }
  }
  *incomplete = frames < CK_GIF_FRAME_COUNT_CAP;
  return frames;
}

/// Decodes GIF LZW data (in sub-blocks from `at`, minimum code size `minimum`, at most 11) into `count` indices; the
/// rest of `out` stays 0 when the data ends early. Returns CK_GIF_OK, CK_GIF_ERR_TRUNCATED when the data ends
/// before `count` indices, or CK_GIF_ERR_CORRUPT for a code that cannot come next.
static int decode_lzw(const uint8_t *data, size_t size, size_t at, int minimum, uint16_t *out, size_t count) {
  static const int max_codes = 4096;
  uint16_t prefix[4096], suffix[4096], stack[4097];
  int clear = 1 << minimum, end = clear + 1, next = clear + 2, width = minimum + 1, old = -1;
  uint16_t first = 0;
  uint32_t bits = 0;
  int have = 0;
  size_t block_left = 0, produced = 0;
  while (produced < count) {
    while (have < width) {
      if (block_left == 0) {
        if (at >= size || data[at] == 0) return CK_GIF_ERR_TRUNCATED;
        block_left = data[at++];
      }
      if (at >= size) return CK_GIF_ERR_TRUNCATED;
      bits |= (uint32_t)data[at++] << have;
      have += 8;
      block_left--;
    }
    int code = (int)(bits & ((1u << width) - 1));
    bits >>= width;
    have -= width;
    if (code == clear) {
      width = minimum + 1, next = clear + 2, old = -1;
      continue;
    }
    if (code == end) return CK_GIF_ERR_TRUNCATED;
    if (old < 0) {
      if (code > clear) return CK_GIF_ERR_CORRUPT;
      out[produced++] = (uint16_t)code;
      old = code, first = (uint16_t)code;
      continue;
    }
    int incoming = code, depth = 0;
    if (code >= next) {
      if (code > next) return CK_GIF_ERR_CORRUPT;
      stack[depth++] = first;
      code = old;
    }
    while (code > end && depth < max_codes) {
      stack[depth++] = suffix[code];
      code = prefix[code];
    }
    first = (uint16_t)code;
    stack[depth++] = first;
    while (depth > 0 && produced < count) out[produced++] = stack[--depth];
    if (next < max_codes) {
      prefix[next] = (uint16_t)old, suffix[next] = first;
      next++;
      if (next == 1 << width && width < 12) width++;
    }
    old = incoming;
  }
  return CK_GIF_OK;
}

static void close_gif(FirstFrame *frame) {
  int error = 0;
  if (frame->gif) lib.Close(frame->gif, &error);
  frame->gif = NULL;
}

/// What a graphic control extension says of the next image: its transparent index (-1: none), delay (hundredths of a
/// second) and disposal method.
typedef struct {
  int transparent, delay, disposal;
} GraphicControl;

static void read_graphic_control(const GifByteType *block, GraphicControl *control) {
  if (!block || block[0] < 4) return;
  control->transparent = (block[1] & 1) ? block[4] : -1;
  control->delay = block[2] | block[3] << 8;
  control->disposal = (block[1] >> 2) & 7;
}

/// Reads an extension's blocks to their end: a graphic control extension fills `control`, a NETSCAPE2.0 (or
/// ANIMEXTS1.0) application extension sets `*loop_count`. GIF_ERROR when giflib fails.
static int walk_extension(GifFileType *gif, GraphicControl *control, int *loop_count) {
  int code = 0;
  GifByteType *block = NULL;
  if (lib.GetExtension(gif, &code, &block) == GIF_ERROR) return GIF_ERROR;
  int looping = 0;
  if (code == GRAPHICS_EXT) read_graphic_control(block, control);
  if (code == APPLICATION_EXT && block && block[0] == 11 &&
      (memcmp(block + 1, "NETSCAPE2.0", 11) == 0 || memcmp(block + 1, "ANIMEXTS1.0", 11) == 0))
    looping = 1;
  while (block) {
    if (lib.GetExtensionNext(gif, &block) == GIF_ERROR) return GIF_ERROR;
    // The first loop count counts (as Pillow and browsers read a file with two).
    if (looping && block && block[0] >= 3 && block[1] == 1) {
      if (*loop_count < 0) *loop_count = block[2] | block[3] << 8;
      looping = 0;
    }
  }
  return GIF_OK;
}

/// Skips an extension's data sub-blocks; a graphic control extension sets the transparent index.
static int read_extension(FirstFrame *frame, char *message) {
  GraphicControl control = {frame->info.transparent_index, frame->first_delay, 0};
  if (walk_extension(frame->gif, &control, &frame->info.loop_count) == GIF_ERROR)
    return failure(frame->gif->Error, "reading an extension", message);
  frame->info.transparent_index = control.transparent;
  frame->first_delay = control.delay;
  return CK_GIF_OK;
}

/// Opens the GIF and reads records up to the first frame's descriptor.
static int open_first_frame(const uint8_t *data, size_t size, FirstFrame *frame, char *message) {
  memset(frame, 0, sizeof *frame);
  frame->info.transparent_index = -1;
  frame->info.loop_count = -1;
  int status = ck_gif_load(message);
  if (status != CK_GIF_OK) return status;
  frame->reader = (Reader){data, size, 0};
  int error = 0;
  frame->gif = lib.Open(&frame->reader, read_bytes, &error);
  if (!frame->gif) return failure(error, "reading the header", message);
  frame->info.screen_width = frame->gif->SWidth;
  frame->info.screen_height = frame->gif->SHeight;
  frame->info.version89 = size >= 6 && memcmp(data, "GIF89a", 6) == 0;
  for (;;) {
    int type = 0;
    if (lib.GetRecordType(frame->gif, &type) == GIF_ERROR)
      return failure(frame->gif->Error, "looking for the first frame", message);
    if (type == EXTENSION_RECORD) {
      status = read_extension(frame, message);
      if (status != CK_GIF_OK) return status;
    } else if (type == IMAGE_DESC_RECORD) {
      break;
    } else {
      say(message, "the file has no frame");
      return CK_GIF_ERR_CORRUPT;
    }
  }
  if (lib.GetImageDesc(frame->gif) == GIF_ERROR) {
    // giflib read the descriptor and the code size byte, then refused a size above 8: more data follows.
    size_t at = frame->reader.position;
    if (frame->gif->Error != ERR_READ_FAILED || at == 0 || at >= size || data[at - 1] <= 8 || data[at - 1] > 11)
      return failure(frame->gif->Error, "reading the first frame's descriptor", message);
    frame->wide_code_size = data[at - 1];
    frame->lzw_start = at;
  }
  const GifImageDesc *image = &frame->gif->Image;
  if (image->Width <= 0 || image->Height <= 0) {
    say(message, "the first frame is %d×%d", image->Width, image->Height);
    return CK_GIF_ERR_CORRUPT;
  }
  frame->colors = image->ColorMap ? image->ColorMap : frame->gif->SColorMap;
  if (!frame->colors || !frame->colors->Colors || frame->colors->ColorCount <= 0) {
    frame->colors = grey_ramp();
    frame->info.default_palette = 1;
  }
  ck_gif_info *info = &frame->info;
  info->frame_left = image->Left;
  info->frame_top = image->Top;
  info->frame_width = image->Width;
  info->frame_height = image->Height;
  info->interlaced = image->Interlace;
  info->color_count = frame->colors ? frame->colors->ColorCount : 0;
  int right = image->Left + image->Width, bottom = image->Top + image->Height;
  info->canvas_width = right > frame->gif->SWidth ? right : frame->gif->SWidth;
  info->canvas_height = bottom > frame->gif->SHeight ? bottom : frame->gif->SHeight;
  return CK_GIF_OK;
}

/// Skips a frame's LZW data without decoding it.
static int skip_frame_data(GifFileType *gif) {
  int code_size = 0;
  GifByteType *block = NULL;
  if (lib.GetCode(gif, &code_size, &block) == GIF_ERROR) return GIF_ERROR;
  while (block) {
    if (lib.GetCodeNext(gif, &block) == GIF_ERROR) return GIF_ERROR;
  }
  return GIF_OK;
}

int ck_gif_read_info(const uint8_t *data, size_t size, ck_gif_info *info, char *message) {
  FirstFrame frame;
  int status = open_first_frame(data, size, &frame, message);
  if (status != CK_GIF_OK) {
    close_gif(&frame);
    return status;
  }
  *info = frame.info;
  info->frame_count = 1;
  info->total_delay_cs = frame.first_delay;
  if (frame.wide_code_size) {
    info->lzw_code_size = frame.wide_code_size;
    info->frame_count = count_frames_from(data, size, frame.lzw_start, &info->count_incomplete);
    close_gif(&frame);
    return CK_GIF_OK;
  }
  if (skip_frame_data(frame.gif) == GIF_ERROR) {
    info->count_incomplete = 1;
    close_gif(&frame);
    return CK_GIF_OK;
  }
  // Count the rest; a broken record ends the count, not the read (the first frame is whole).
  GraphicControl control = {-1, 0, 0};
  while (info->frame_count < CK_GIF_FRAME_COUNT_CAP) {
    int type = 0;
    if (lib.GetRecordType(frame.gif, &type) == GIF_ERROR) {
      info->count_incomplete = 1;
      break;
    }
    if (type == TERMINATE_RECORD) break;
    if (type == EXTENSION_RECORD) {
      if (walk_extension(frame.gif, &control, &info->loop_count) == GIF_ERROR) {
        info->count_incomplete = 1;
        break;
      }
    } else if (type == IMAGE_DESC_RECORD) {
      if (lib.GetImageDesc(frame.gif) == GIF_ERROR || skip_frame_data(frame.gif) == GIF_ERROR) {
        info->count_incomplete = 1;
        break;
      }
      info->frame_count++;
      info->total_delay_cs += control.delay;
      control = (GraphicControl){-1, 0, 0};
    } else {
      info->count_incomplete = 1;
      break;
    }
  }
  close_gif(&frame);
  return CK_GIF_OK;
}

int ck_gif_decode(const uint8_t *data, size_t size, uint8_t *output, size_t stride, int width, int height, int alpha,
                  char *message) {
  FirstFrame frame;
  int status = open_first_frame(data, size, &frame, message);
  if (status != CK_GIF_OK) {
    close_gif(&frame);
    return status;
  }
  const ck_gif_info *info = &frame.info;
  if (width != info->canvas_width || height != info->canvas_height) {
    say(message, "the canvas is %d×%d, not %d×%d", info->canvas_width, info->canvas_height, width, height);
    close_gif(&frame);
    return CK_GIF_ERR_CORRUPT;
  }
  if (!frame.colors || !frame.colors->Colors || frame.colors->ColorCount <= 0) {
    say(message, "the first frame has no colour table (neither its own nor a global one)");
    close_gif(&frame);
    return CK_GIF_ERR_CORRUPT;
  }
  GifByteType *line = malloc((size_t)info->frame_width);
  // With a wide code size the shim decodes the whole frame's indices itself, up to 11 bits each.
  size_t pixels = (size_t)info->frame_width * (size_t)info->frame_height;
  uint16_t *wide = frame.wide_code_size ? malloc(pixels * sizeof *wide) : NULL;
  if (!line || (frame.wide_code_size && !wide)) {
    say(message, "out of memory for a frame of %d×%d pixels", info->frame_width, info->frame_height);
    free(line);
    close_gif(&frame);
    return CK_GIF_ERR_MEMORY;
  }
  if (wide) {
    memset(wide, 0, pixels * sizeof *wide);
    status = decode_lzw(data, size, frame.lzw_start, frame.wide_code_size, wide, pixels);
    if (status != CK_GIF_OK) {
      say(message, "decoding the first frame (LZW code size %d): %s", frame.wide_code_size,
          status == CK_GIF_ERR_TRUNCATED ? "the data ends before the frame does" : "a code that cannot come next");
      free(wide);
      free(line);
      close_gif(&frame);
      return status;
    }
  }
  size_t decoded_rows = 0;
  // Interlaced rows come in four passes: every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
  static const int pass_start[] = {0, 4, 2, 1}, pass_step[] = {8, 8, 4, 2};
  int passes = info->interlaced ? 4 : 1;
  const GifColorType *colors = frame.colors->Colors;
  int color_count = frame.colors->ColorCount, transparent = info->transparent_index;
  int channels = alpha ? 4 : 3;
  for (int pass = 0; pass < passes && status == CK_GIF_OK; pass++) {
    int start = info->interlaced ? pass_start[pass] : 0, step = info->interlaced ? pass_step[pass] : 1;
    for (int row = start; row < info->frame_height; row += step) {
      const uint16_t *wide_row = wide ? wide + decoded_rows++ * (size_t)info->frame_width : NULL;
      if (!wide && lib.GetLine(frame.gif, line, info->frame_width) == GIF_ERROR) {
        status = failure(frame.gif->Error, "decoding the first frame", message);
        break;
      }
      uint8_t *target = output + (size_t)(info->frame_top + row) * stride + (size_t)info->frame_left * channels;
      for (int x = 0; x < info->frame_width; x++, target += channels) {
        int index = wide_row ? wide_row[x] : line[x];
        if (index == transparent) continue;
        if (index < color_count) {
          target[0] = colors[index].Red;
          target[1] = colors[index].Green;
          target[2] = colors[index].Blue;
        } else {
          target[0] = target[1] = target[2] = 0;
        }
        if (alpha) target[3] = 255;
      }
    }
  }
  free(wide);
  free(line);
  close_gif(&frame);
  return status;
}

// MARK: - Frames

struct ck_gif_frames {
  Reader reader;
  GifFileType *gif;
  int width, height;
  /// The graphic control extension read since the last image, for the next one.
  GraphicControl control;
  /// The previous frame's rectangle (clipped to the canvas) and disposal, applied before the next frame.
  int previous_disposal, previous_left, previous_top, previous_width, previous_height;
  /// With disposal 3, what the previous frame's rectangle held before it was drawn (RGBA rows).
  uint8_t *saved;
  GifByteType *line;
  int done;
};

int ck_gif_frames_open(const uint8_t *data, size_t size, int width, int height, ck_gif_frames **frames, char *message) {
  *frames = NULL;
  int status = ck_gif_load(message);
  if (status != CK_GIF_OK) return status;
  if (width < 1 || height < 1) {
    say(message, "a %d×%d canvas", width, height);
    return CK_GIF_ERR_CORRUPT;
  }
  ck_gif_frames *f = calloc(1, sizeof *f);
  uint8_t *saved = malloc((size_t)width * (size_t)height * 4);
  GifByteType *line = malloc((size_t)width > 65535 ? (size_t)width : 65535);
  if (!f || !saved || !line) {
    free(f), free(saved), free(line);
    say(message, "out of memory for a %d×%d canvas", width, height);
    return CK_GIF_ERR_MEMORY;
  }
  f->reader = (Reader){data, size, 0};
  f->width = width, f->height = height;
  f->control = (GraphicControl){-1, 0, 0};
  f->saved = saved, f->line = line;
  int error = 0;
  f->gif = lib.Open(&f->reader, read_bytes, &error);
  if (!f->gif) {
    ck_gif_frames_close(f);
    return failure(error, "reading the header", message);
  }
  *frames = f;
  return CK_GIF_OK;
}

/// Copies the `w × h` rectangle at (x, y) of the canvas to or from `saved`.
static void copy_rect(uint8_t *canvas, size_t stride, uint8_t *saved, int x, int y, int w, int h, int restore) {
  for (int row = 0; row < h; row++) {
    uint8_t *c = canvas + (size_t)(y + row) * stride + (size_t)x * 4;
    uint8_t *s = saved + (size_t)row * (size_t)w * 4;
    if (restore) memcpy(c, s, (size_t)w * 4);
    else memcpy(s, c, (size_t)w * 4);
  }
}

int ck_gif_frames_next(ck_gif_frames *f, uint8_t *canvas, size_t stride, int *delay_cs, int *decoded, char *message) {
  *delay_cs = 0;
  *decoded = 0;
  if (f->done) return CK_GIF_OK;
  // The previous frame goes as its disposal says (1 and 0 leave it).
  if (f->previous_width > 0 && f->previous_height > 0) {
    if (f->previous_disposal == 2) {
      for (int row = 0; row < f->previous_height; row++)
        memset(canvas + (size_t)(f->previous_top + row) * stride + (size_t)f->previous_left * 4, 0,
               (size_t)f->previous_width * 4);
    } else if (f->previous_disposal == 3) {
      copy_rect(canvas, stride, f->saved, f->previous_left, f->previous_top, f->previous_width, f->previous_height, 1);
    }
  }
  f->previous_width = f->previous_height = 0;
  for (;;) {
    int type = 0;
    if (lib.GetRecordType(f->gif, &type) == GIF_ERROR) return failure(f->gif->Error, "reading the next record", message);
    if (type == TERMINATE_RECORD) {
      f->done = 1;
      return CK_GIF_OK;
    }
    if (type == EXTENSION_RECORD) {
      int loop = -1;
      if (walk_extension(f->gif, &f->control, &loop) == GIF_ERROR)
        return failure(f->gif->Error, "reading an extension", message);
      continue;
    }
    if (type != IMAGE_DESC_RECORD) {
      say(message, "an unknown record");
      return CK_GIF_ERR_CORRUPT;
    }
    break;
  }
  if (lib.GetImageDesc(f->gif) == GIF_ERROR) return failure(f->gif->Error, "reading a frame's descriptor", message);
  const GifImageDesc *image = &f->gif->Image;
  const ColorMapObject *colors = image->ColorMap ? image->ColorMap : f->gif->SColorMap;
  if (!colors || !colors->Colors || colors->ColorCount <= 0) colors = grey_ramp();
  if (image->Width <= 0 || image->Height <= 0 || image->Width > 65535) {
    say(message, "a frame of %d×%d", image->Width, image->Height);
    return CK_GIF_ERR_CORRUPT;
  }
  if (!colors || !colors->Colors || colors->ColorCount <= 0) {
    say(message, "a frame without a colour table (neither its own nor a global one)");
    return CK_GIF_ERR_CORRUPT;
  }
  // The part of the frame on the canvas.
  int left = image->Left < f->width ? image->Left : f->width, top = image->Top < f->height ? image->Top : f->height;
  int right = image->Left + image->Width < f->width ? image->Left + image->Width : f->width;
  int bottom = image->Top + image->Height < f->height ? image->Top + image->Height : f->height;
  int w = right - left, h = bottom - top;
  if (f->control.disposal == 3 && w > 0 && h > 0) copy_rect(canvas, stride, f->saved, left, top, w, h, 0);
  static const int pass_start[] = {0, 4, 2, 1}, pass_step[] = {8, 8, 4, 2};
  int passes = image->Interlace ? 4 : 1, transparent = f->control.transparent;
  for (int pass = 0; pass < passes; pass++) {
    int start = image->Interlace ? pass_start[pass] : 0, step = image->Interlace ? pass_step[pass] : 1;
    for (int row = start; row < image->Height; row += step) {
      if (lib.GetLine(f->gif, f->line, image->Width) == GIF_ERROR)
        return failure(f->gif->Error, "decoding a frame", message);
      int y = image->Top + row;
      if (y >= f->height) continue;
      uint8_t *target = canvas + (size_t)y * stride;
      for (int x = 0; x < image->Width; x++) {
        int cx = image->Left + x, index = f->line[x];
        if (cx >= f->width || index == transparent) continue;
        uint8_t *p = target + (size_t)cx * 4;
        if (index < colors->ColorCount) {
          p[0] = colors->Colors[index].Red, p[1] = colors->Colors[index].Green, p[2] = colors->Colors[index].Blue;
        } else {
          p[0] = p[1] = p[2] = 0;
        }
        p[3] = 255;
      }
    }
  }
  *delay_cs = f->control.delay;
  *decoded = 1;
  f->previous_disposal = f->control.disposal;
  f->previous_left = left, f->previous_top = top, f->previous_width = w > 0 ? w : 0, f->previous_height = h > 0 ? h : 0;
  f->control = (GraphicControl){-1, 0, 0};
  return CK_GIF_OK;
}

void ck_gif_frames_close(ck_gif_frames *f) {
  if (!f) return;
  int error = 0;
  if (f->gif) lib.Close(f->gif, &error);
  free(f->saved);
  free(f->line);
  free(f);
}

// MARK: - Writing (giflib's EGif* and its quantiser, bound on first use so that reading needs neither)

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

static pthread_once_t writing_once = PTHREAD_ONCE_INIT;
static int writing_status = CK_GIF_ERR_UNAVAILABLE;
static char writing_message[CK_GIF_MESSAGE_LENGTH];

static void load_writing(void) {
  if (ck_gif_load(writing_message) != CK_GIF_OK) return;
  void *handle = ck_runtime_library_load(CK_LIBRARY_GIF, writing_message, sizeof writing_message);
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
                                   "giflib 5.1 or later is needed", writing_message, sizeof writing_message))
    return;
  writing_status = CK_GIF_OK;
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
  const char *text = lib.ErrorString(error);
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
  pthread_once(&writing_once, load_writing);
  if (writing_status != CK_GIF_OK) {
    say(message, "%s", writing_message);
    return writing_status;
  }
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
