// See include/cfont_shim.h. The declarations below are the subset of FreeType 2's (freetype.h, ftimage.h,
// ftoutln.h) and HarfBuzz's (hb.h, hb-ft.h) public ABI that the shim uses, written from the libraries' documentation.
// FreeType's records are read in place (a face's glyph slot and size, a slot's outline), so their layouts are
// declared up to the last field read, checked below for 64-bit platforms and at run time by the slot naming its face.
#include "cfont_shim.h"

#include "runtime_library.h"
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// FreeType.
typedef long FT_Pos;
typedef struct { FT_Pos x, y; } FT_Vector;
typedef struct { FT_Pos xMin, yMin, xMax, yMax; } FT_BBox;
typedef struct { short x; unsigned short len; unsigned char coverage; } FT_Span;
typedef void (*FT_SpanFunc)(int y, int count, const FT_Span *spans, void *user);
typedef struct {
  unsigned int rows, width;
  int pitch;
  unsigned char *buffer;
  unsigned short num_grays;
  unsigned char pixel_mode, palette_mode;
  void *palette;
} FT_Bitmap;
typedef struct {
  short n_contours, n_points;
  FT_Vector *points;
  char *tags;
  short *contours;
  int flags;
} FT_Outline;
typedef struct {
  const FT_Bitmap *target;
  const void *source;
  int flags;
  FT_SpanFunc gray_spans, black_spans;
  void *bit_test, *bit_set;
  void *user;
  FT_BBox clip_box;
} FT_Raster_Params;
typedef struct { void *data, *finalizer; } FT_Generic;
typedef struct {
  unsigned short x_ppem, y_ppem;
  long x_scale, y_scale;
  FT_Pos ascender, descender, height, max_advance;
} FT_Size_Metrics;
typedef struct {
  void *face;
  FT_Generic generic;
  FT_Size_Metrics metrics;
} FT_SizeRec;
typedef struct {
  void *library, *face, *next;
  unsigned int glyph_index;
  FT_Generic generic;
  FT_Pos metrics[8];
  long linear_hori_advance, linear_vert_advance;
  FT_Vector advance;
  unsigned int format;
  FT_Bitmap bitmap;
  int bitmap_left, bitmap_top;
  FT_Outline outline;
} FT_GlyphSlotRec;
typedef struct {
  long num_faces, face_index, face_flags, style_flags, num_glyphs;
  char *family_name, *style_name;
  int num_fixed_sizes;
  void *available_sizes;
  int num_charmaps;
  void *charmaps;
  FT_Generic generic;
  FT_BBox bbox;
  unsigned short units_per_em;
  short ascender, descender, height, max_advance_width, max_advance_height, underline_position, underline_thickness;
  FT_GlyphSlotRec *glyph;
  FT_SizeRec *size;
} FT_FaceRec;

#if LONG_MAX == 0x7FFFFFFFFFFFFFFF && UINTPTR_MAX == 0xFFFFFFFFFFFFFFFF
// FreeType 2.12's layouts on LP64 (Linux and macOS, x86-64 and arm64), as its headers give them.
_Static_assert(offsetof(FT_FaceRec, glyph) == 152 && offsetof(FT_FaceRec, size) == 160, "FT_FaceRec layout");
_Static_assert(offsetof(FT_GlyphSlotRec, format) == 144 && offsetof(FT_GlyphSlotRec, outline) == 200,
               "FT_GlyphSlotRec layout");
_Static_assert(offsetof(FT_SizeRec, metrics) == 24 && offsetof(FT_Size_Metrics, ascender) == 24, "FT_SizeRec layout");
#endif

enum {
  FT_FACE_FLAG_SCALABLE = 1,
  FT_LOAD_NO_HINTING = 2,
  FT_LOAD_NO_BITMAP = 8,
  FT_RASTER_FLAG_AA = 1,
  FT_RASTER_FLAG_DIRECT = 2,
  FT_RASTER_FLAG_CLIP = 4,
  FT_GLYPH_FORMAT_OUTLINE = ('o' << 24) | ('u' << 16) | ('t' << 8) | 'l',
  FT_ERR_OUT_OF_MEMORY = 0x40,
};

// HarfBuzz.
typedef struct {
  uint32_t codepoint, mask, cluster, var1, var2;
} hb_glyph_info_t;
typedef struct {
  int32_t x_advance, y_advance, x_offset, y_offset;
  uint32_t var;
} hb_glyph_position_t;

typedef struct {
  int (*init)(void **);
  int (*done)(void *);
  void (*version)(void *, int *, int *, int *);
  int (*new_memory_face)(void *, const uint8_t *, long, long, FT_FaceRec **);
  int (*done_face)(FT_FaceRec *);
  int (*set_char_size)(FT_FaceRec *, long, long, unsigned, unsigned);
  unsigned (*char_index)(FT_FaceRec *, unsigned long);
  int (*load_glyph)(FT_FaceRec *, unsigned, int32_t);
  void (*outline_translate)(const FT_Outline *, FT_Pos, FT_Pos);
  int (*outline_bbox)(FT_Outline *, FT_BBox *);
  int (*outline_render)(void *, FT_Outline *, FT_Raster_Params *);
} ft_functions;
static ft_functions ft;

typedef struct {
  const char *(*version)(void);
  void *(*ft_font_create)(FT_FaceRec *);
  void (*ft_set_load_flags)(void *, int);
  void (*font_destroy)(void *);
  void *(*buffer_create)(void);
  void (*buffer_destroy)(void *);
  int (*buffer_ok)(void *);
  void (*buffer_add_utf32)(void *, const uint32_t *, int, unsigned, int);
  void (*buffer_guess)(void *);
  void (*shape)(void *, void *, const void *, unsigned);
  hb_glyph_info_t *(*infos)(void *, unsigned *);
  hb_glyph_position_t *(*positions)(void *, unsigned *);
} hb_functions;
static hb_functions hb;

static ck_load_state loading = CK_LOAD_STATE_INIT;

#define say(message, ...) ck_runtime_message(message, CK_FONT_MESSAGE_LENGTH, __VA_ARGS__)

static void load(void) {
  void *freetype = ck_runtime_library_load(CK_LIBRARY_FREETYPE, loading.message, sizeof loading.message);
  if (!freetype) return;
  static const ck_binding ft_bindings[] = {
      CK_BINDING(ft_functions, init, "FT_Init_FreeType"),
      CK_BINDING(ft_functions, done, "FT_Done_FreeType"),
      CK_BINDING(ft_functions, version, "FT_Library_Version"),
      CK_BINDING(ft_functions, new_memory_face, "FT_New_Memory_Face"),
      CK_BINDING(ft_functions, done_face, "FT_Done_Face"),
      CK_BINDING(ft_functions, set_char_size, "FT_Set_Char_Size"),
      CK_BINDING(ft_functions, char_index, "FT_Get_Char_Index"),
      CK_BINDING(ft_functions, load_glyph, "FT_Load_Glyph"),
      CK_BINDING(ft_functions, outline_translate, "FT_Outline_Translate"),
      CK_BINDING(ft_functions, outline_bbox, "FT_Outline_Get_BBox"),
      CK_BINDING(ft_functions, outline_render, "FT_Outline_Render"),
  };
  if (!ck_runtime_library_bind_all(freetype, &ft, ft_bindings, sizeof ft_bindings / sizeof *ft_bindings, "libfreetype",
                                   "FreeType 2.8 or later is needed", loading.message, sizeof loading.message))
    return;
  void *library = NULL;
  int major = 0, minor = 0, patch = 0;
  if (ft.init(&library) == 0) {
    ft.version(library, &major, &minor, &patch);
    ft.done(library);
  }
  if (major != 2 || minor < 8) {
    say(loading.message, "the FreeType found is %d.%d.%d; the shim speaks FreeType 2.8 and later", major, minor, patch);
    return;
  }
  void *harfbuzz = ck_runtime_library_load(CK_LIBRARY_HARFBUZZ, loading.message, sizeof loading.message);
  if (!harfbuzz) return;
  static const ck_binding hb_bindings[] = {
      CK_BINDING(hb_functions, version, "hb_version_string"),
      CK_BINDING(hb_functions, ft_font_create, "hb_ft_font_create_referenced"),
      CK_BINDING(hb_functions, ft_set_load_flags, "hb_ft_font_set_load_flags"),
      CK_BINDING(hb_functions, font_destroy, "hb_font_destroy"),
      CK_BINDING(hb_functions, buffer_create, "hb_buffer_create"),
      CK_BINDING(hb_functions, buffer_destroy, "hb_buffer_destroy"),
      CK_BINDING(hb_functions, buffer_ok, "hb_buffer_allocation_successful"),
      CK_BINDING(hb_functions, buffer_add_utf32, "hb_buffer_add_utf32"),
      CK_BINDING(hb_functions, buffer_guess, "hb_buffer_guess_segment_properties"),
      CK_BINDING(hb_functions, shape, "hb_shape"),
      CK_BINDING(hb_functions, infos, "hb_buffer_get_glyph_infos"),
      CK_BINDING(hb_functions, positions, "hb_buffer_get_glyph_positions"),
  };
  if (!ck_runtime_library_bind_all(harfbuzz, &hb, hb_bindings, sizeof hb_bindings / sizeof *hb_bindings,
                                   "libharfbuzz", "HarfBuzz 1.0 or later with its FreeType functions is needed",
                                   loading.message, sizeof loading.message))
    return;
  loading.status = CK_OK;
}

int ck_font_load(char *message) { return ck_load_once(&loading, load, message, CK_FONT_MESSAGE_LENGTH); }

/// A face open on the caller's bytes, with its own FreeType library handle.
typedef struct {
  void *library;
  FT_FaceRec *face;
} open_face;

static int face_status(int error) { return error == FT_ERR_OUT_OF_MEMORY ? CK_FONT_ERR_MEMORY : CK_FONT_ERR_CORRUPT; }

static void close_face(open_face *open) {
  if (open->face) ft.done_face(open->face);
  if (open->library) ft.done(open->library);
}

static int open_font(const uint8_t *data, size_t size, uint32_t index, open_face *open, char *message) {
  *open = (open_face){0};
  int status = ck_font_load(message);
  if (status != CK_FONT_OK) return status;
  if (!data || size == 0 || size > LONG_MAX || index > 0xFFFF) {
    say(message, "no font data");
    return CK_FONT_ERR_USAGE;
  }
  int error = ft.init(&open->library);
  if (error) {
    say(message, "FreeType could not start (error 0x%02X)", error);
    return face_status(error);
  }
  error = ft.new_memory_face(open->library, data, (long)size, (long)index, &open->face);
  if (error) {
    open->face = NULL;
    say(message, "FreeType cannot read it as a font (error 0x%02X%s)", error,
        error == 0x02 ? ": unknown file format" : error == 0x06 ? ": no face with that index" : "");
    close_face(open);
    return face_status(error);
  }
  if (!(open->face->face_flags & FT_FACE_FLAG_SCALABLE)) {
    say(message, "it has no outlines (a bitmap-only font), so it cannot be drawn at any size");
    close_face(open);
    return CK_FONT_ERR_UNSUPPORTED;
  }
  return CK_FONT_OK;
}

static void copy_name(char *to, size_t capacity, const char *from) {
  size_t length = from ? strnlen(from, capacity - 1) : 0;
  if (length) memcpy(to, from, length);
  to[length] = 0;
}

int ck_font_probe(const uint8_t *data, size_t size, uint32_t index, ck_font_info *info, char *message) {
  open_face open;
  int status = open_font(data, size, index, &open, message);
  if (status != CK_FONT_OK) return status;
  info->faces = open.face->num_faces > 0 ? (uint32_t)open.face->num_faces : 1;
  info->glyphs = open.face->num_glyphs > 0 ? (uint32_t)open.face->num_glyphs : 0;
  copy_name(info->family, sizeof info->family, open.face->family_name);
  copy_name(info->style, sizeof info->style, open.face->style_name);
  close_face(&open);
  return CK_FONT_OK;
}

/// Where spans go: the caller's plane, rows from the top, FreeType's y counting up from its bottom edge.
typedef struct {
  uint8_t *plane;
  uint32_t width, height;
  size_t stride;
} span_target;

static void draw_spans(int y, int count, const FT_Span *spans, void *user) {
  const span_target *target = user;
  if (y < 0 || (uint32_t)y >= target->height) return;
  uint8_t *row = target->plane + (size_t)(target->height - 1 - (uint32_t)y) * target->stride;
  for (int i = 0; i < count; i++) {
    int start = spans[i].x < 0 ? 0 : spans[i].x;
    int end = spans[i].x + spans[i].len;
    if (end > (int)target->width) end = (int)target->width;
    for (int x = start; x < end; x++)
      if (row[x] < spans[i].coverage) row[x] = spans[i].coverage;
  }
}

int ck_text_draw(const uint8_t *data, size_t size, uint32_t index, const uint32_t *text, size_t count,
                 double pixel_size, uint8_t *plane, uint32_t width, uint32_t height, size_t stride, double x,
                 double baseline, ck_text_metrics *metrics, char *message) {
  *metrics = (ck_text_metrics){0};
  if (!text || count == 0 || count > CK_TEXT_MAX_SCALARS) {
    say(message, "the text has %zu characters; 1 to %d can be drawn", count, CK_TEXT_MAX_SCALARS);
    return CK_FONT_ERR_USAGE;
  }
  if (!(pixel_size >= 1 && pixel_size <= CK_TEXT_MAX_PIXEL_SIZE)) {
    say(message, "a size of %.1f pixels is outside 1…%d", pixel_size, CK_TEXT_MAX_PIXEL_SIZE);
    return CK_FONT_ERR_USAGE;
  }
  // FreeType's spans count in 16-bit numbers.
  if (plane && (width == 0 || height == 0 || width > 32767 || height > 32767 || stride < width ||
                !isfinite(x) || !isfinite(baseline) || fabs(x) > 1e6 || fabs(baseline) > 1e6)) {
    say(message, "a plane of %u×%u is outside 1…32767 on a side", width, height);
    return CK_FONT_ERR_USAGE;
  }
  open_face open;
  int status = open_font(data, size, index, &open, message);
  if (status != CK_FONT_OK) return status;
  FT_FaceRec *face = open.face;
  void *font = NULL, *buffer = NULL;
  int error = ft.set_char_size(face, 0, (long)lround(pixel_size * 64), 72, 72);
  if (error) {
    say(message, "FreeType cannot size the font to %.1f pixels (error 0x%02X)", pixel_size, error);
    status = face_status(error);
    goto done;
  }
  for (size_t i = 0; i < count; i++) {
    if (ft.char_index(face, text[i]) == 0) {
      metrics->missing = text[i];
      say(message, "the font has no glyph for U+%04X", text[i]);
      status = CK_FONT_ERR_UNSUPPORTED;
      goto done;
    }
  }
  metrics->ascender = face->size->metrics.ascender / 64.0;
  metrics->descender = face->size->metrics.descender / 64.0;
  font = hb.ft_font_create(face);
  buffer = hb.buffer_create();
  if (!font || !buffer || !hb.buffer_ok(buffer)) {
    say(message, "out of memory shaping the text");
    status = CK_FONT_ERR_MEMORY;
    goto done;
  }
  hb.ft_set_load_flags(font, FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP);
  hb.buffer_add_utf32(buffer, text, (int)count, 0, (int)count);
  hb.buffer_guess(buffer);
  hb.shape(font, buffer, NULL, 0);
  unsigned glyphs = 0;
  hb_glyph_info_t *infos = hb.infos(buffer, &glyphs);
  hb_glyph_position_t *positions = hb.positions(buffer, NULL);
  if (!hb.buffer_ok(buffer) || (glyphs && (!infos || !positions))) {
    say(message, "out of memory shaping the text");
    status = CK_FONT_ERR_MEMORY;
    goto done;
  }
  metrics->glyphs = glyphs;
  span_target target = {plane, width, height, stride};
  FT_Raster_Params params = {0};
  params.flags = FT_RASTER_FLAG_AA | FT_RASTER_FLAG_DIRECT | FT_RASTER_FLAG_CLIP;
  params.gray_spans = draw_spans;
  params.user = &target;
  params.clip_box = (FT_BBox){0, 0, (FT_Pos)width, (FT_Pos)height};
  // The pen in 26.6 pixels relative to the line's start; FreeType's y counts up.
  int64_t pen_x = 0, pen_y = 0;
  int inked = 0;
  FT_BBox ink = {0, 0, 0, 0};
  const FT_Pos origin_x = (FT_Pos)llround(x * 64), origin_y = (FT_Pos)llround((height - baseline) * 64);
  for (unsigned i = 0; i < glyphs; i++) {
    error = ft.load_glyph(face, infos[i].codepoint, FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP);
    if (error) {
      say(message, "FreeType cannot load glyph %u of the font (error 0x%02X)", infos[i].codepoint, error);
      status = face_status(error);
      goto done;
    }
    FT_GlyphSlotRec *slot = face->glyph;
    if (!slot || slot->face != face) {
      say(message, "the FreeType found lays out its glyph records unlike FreeType 2");
      status = CK_FONT_ERR_UNAVAILABLE;
      goto done;
    }
    if (slot->format != FT_GLYPH_FORMAT_OUTLINE) {
      say(message, "glyph %u of the font is not an outline", infos[i].codepoint);
      status = CK_FONT_ERR_UNSUPPORTED;
      goto done;
    }
    FT_Pos at_x = (FT_Pos)(pen_x + positions[i].x_offset), at_y = (FT_Pos)(pen_y + positions[i].y_offset);
    FT_BBox box;
    if (slot->outline.n_points > 0 && ft.outline_bbox(&slot->outline, &box) == 0 && box.xMax > box.xMin &&
        box.yMax > box.yMin) {
      box = (FT_BBox){box.xMin + at_x, box.yMin + at_y, box.xMax + at_x, box.yMax + at_y};
      if (!inked) ink = box;
      if (box.xMin < ink.xMin) ink.xMin = box.xMin;
      if (box.yMin < ink.yMin) ink.yMin = box.yMin;
      if (box.xMax > ink.xMax) ink.xMax = box.xMax;
      if (box.yMax > ink.yMax) ink.yMax = box.yMax;
      inked = 1;
      if (plane) {
        ft.outline_translate(&slot->outline, origin_x + at_x, origin_y + at_y);
        error = ft.outline_render(open.library, &slot->outline, &params);
        if (error) {
          say(message, "FreeType cannot draw glyph %u of the font (error 0x%02X)", infos[i].codepoint, error);
          status = face_status(error);
          goto done;
        }
      }
    }
    pen_x += positions[i].x_advance;
    pen_y += positions[i].y_advance;
  }
  metrics->advance = pen_x / 64.0;
  metrics->ink_left = ink.xMin / 64.0;
  metrics->ink_bottom = ink.yMin / 64.0;
  metrics->ink_right = ink.xMax / 64.0;
  metrics->ink_top = ink.yMax / 64.0;
done:
  if (buffer) hb.buffer_destroy(buffer);
  if (font) hb.font_destroy(font);
  close_face(&open);
  return status;
}
