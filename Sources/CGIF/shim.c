// See include/cgif_shim.h: loading giflib and reading (the first frame, the header's facts, an animation's frames).
// records.c walks the records and decodes LZW without giflib where giflib cannot; writer.c writes GIFs.
#include "cgif_shim.h"
#include "giflib.h"

#include "runtime_library.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

lib_functions ck_giflib;

static ck_load_state loading = CK_LOAD_STATE_INIT;

static void load(void) {
  void *handle = ck_runtime_library_load(CK_LIBRARY_GIF, loading.message, sizeof loading.message);
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
  if (!ck_runtime_library_bind_all(handle, &ck_giflib, bindings, sizeof bindings / sizeof *bindings, "giflib",
                                   "giflib 5.1 or later is needed", loading.message, sizeof loading.message))
    return;
  loading.status = CK_OK;
}

int ck_gif_load(char *message) { return ck_load_once(&loading, load, message, CK_GIF_MESSAGE_LENGTH); }

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
int ck_gif_failure(int error, const char *doing, char *message) {
  const char *text = ck_giflib.ErrorString(error);
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

static void close_gif(FirstFrame *frame) {
  int error = 0;
  if (frame->gif) ck_giflib.Close(frame->gif, &error);
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
  if (ck_giflib.GetExtension(gif, &code, &block) == GIF_ERROR) return GIF_ERROR;
  int looping = 0;
  if (code == GRAPHICS_EXT) read_graphic_control(block, control);
  if (code == APPLICATION_EXT && block && block[0] == 11 &&
      (memcmp(block + 1, "NETSCAPE2.0", 11) == 0 || memcmp(block + 1, "ANIMEXTS1.0", 11) == 0))
    looping = 1;
  while (block) {
    if (ck_giflib.GetExtensionNext(gif, &block) == GIF_ERROR) return GIF_ERROR;
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
    return ck_gif_failure(frame->gif->Error, "reading an extension", message);
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
  frame->gif = ck_giflib.Open(&frame->reader, read_bytes, &error);
  if (!frame->gif) return ck_gif_failure(error, "reading the header", message);
  frame->info.screen_width = frame->gif->SWidth;
  frame->info.screen_height = frame->gif->SHeight;
  frame->info.version89 = size >= 6 && memcmp(data, "GIF89a", 6) == 0;
  for (;;) {
    int type = 0;
    if (ck_giflib.GetRecordType(frame->gif, &type) == GIF_ERROR)
      return ck_gif_failure(frame->gif->Error, "looking for the first frame", message);
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
  if (ck_giflib.GetImageDesc(frame->gif) == GIF_ERROR) {
    // giflib read the descriptor and the code size byte, then refused a size above 8: more data follows.
    size_t at = frame->reader.position;
    if (frame->gif->Error != ERR_READ_FAILED || at == 0 || at >= size || data[at - 1] <= 8 || data[at - 1] > 11)
      return ck_gif_failure(frame->gif->Error, "reading the first frame's descriptor", message);
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
  if (ck_giflib.GetCode(gif, &code_size, &block) == GIF_ERROR) return GIF_ERROR;
  while (block) {
    if (ck_giflib.GetCodeNext(gif, &block) == GIF_ERROR) return GIF_ERROR;
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
    info->frame_count = ck_gif_count_frames_from(data, size, frame.lzw_start, &info->count_incomplete);
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
    if (ck_giflib.GetRecordType(frame.gif, &type) == GIF_ERROR) {
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
      if (ck_giflib.GetImageDesc(frame.gif) == GIF_ERROR || skip_frame_data(frame.gif) == GIF_ERROR) {
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
    status = ck_gif_decode_lzw(data, size, frame.lzw_start, frame.wide_code_size, wide, pixels);
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
      if (!wide && ck_giflib.GetLine(frame.gif, line, info->frame_width) == GIF_ERROR) {
        status = ck_gif_failure(frame.gif->Error, "decoding the first frame", message);
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
  f->gif = ck_giflib.Open(&f->reader, read_bytes, &error);
  if (!f->gif) {
    ck_gif_frames_close(f);
    return ck_gif_failure(error, "reading the header", message);
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
    if (ck_giflib.GetRecordType(f->gif, &type) == GIF_ERROR) return ck_gif_failure(f->gif->Error, "reading the next record", message);
    if (type == TERMINATE_RECORD) {
      f->done = 1;
      return CK_GIF_OK;
    }
    if (type == EXTENSION_RECORD) {
      int loop = -1;
      if (walk_extension(f->gif, &f->control, &loop) == GIF_ERROR)
        return ck_gif_failure(f->gif->Error, "reading an extension", message);
      continue;
    }
    if (type != IMAGE_DESC_RECORD) {
      say(message, "an unknown record");
      return CK_GIF_ERR_CORRUPT;
    }
    break;
  }
  if (ck_giflib.GetImageDesc(f->gif) == GIF_ERROR) return ck_gif_failure(f->gif->Error, "reading a frame's descriptor", message);
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
      if (ck_giflib.GetLine(f->gif, f->line, image->Width) == GIF_ERROR)
        return ck_gif_failure(f->gif->Error, "decoding a frame", message);
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
  if (f->gif) ck_giflib.Close(f->gif, &error);
  free(f->saved);
  free(f->line);
  free(f);
}
