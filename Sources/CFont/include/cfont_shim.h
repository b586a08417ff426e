// A small C layer over FreeType and HarfBuzz for CropCodecs' text watermarks, loaded at run time.
//
// libfreetype and libharfbuzz are opened with dlopen the first time a font is read, not linked: the build needs no
// FreeType or HarfBuzz headers or development packages, only the runtime libraries (Debian 12's libfreetype6 and
// libharfbuzz0b; FreeType 2.8 or later, HarfBuzz 1.0 or later). HarfBuzz shapes a line of text (kerning, ligatures,
// marks, right-to-left scripts) with FreeType's metrics; FreeType's anti-aliasing rasteriser draws each glyph's outline
// straight into the caller's coverage plane, clipped to it, so no glyph bitmap is allocated and a hostile font's huge
// glyph costs no memory beyond the plane. Outlines are not hinted (FT_LOAD_NO_HINTING): no font program runs, and a
// line scales with its pixel size.
//
// Nothing is kept between calls: each one opens the font from the caller's bytes with its own FreeType library
// handle, so calls on different threads never share state. Every entry point returns a status (CK_FONT_OK or a
// CK_FONT_ERR_* value, numbered as the other shims' codes) and never aborts.

#pragma once
#include "ck_status.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  CK_FONT_OK = CK_OK,
  /// FreeType or HarfBuzz rejected the font, or a glyph in it.
  CK_FONT_ERR_CORRUPT = CK_ERR_CORRUPT,
  /// A font with no outlines (bitmap-only or colour-bitmap fonts), or a character the font has no glyph for.
  CK_FONT_ERR_UNSUPPORTED = CK_ERR_UNSUPPORTED,
  /// Out of memory.
  CK_FONT_ERR_MEMORY = CK_ERR_MEMORY,
  /// A size, text or plane out of range.
  CK_FONT_ERR_USAGE = CK_ERR_USAGE,
  /// A runtime library is missing or lacks a symbol; the message says which.
  CK_FONT_ERR_UNAVAILABLE = CK_ERR_UNAVAILABLE,
};

#define CK_FONT_MESSAGE_LENGTH 200

/// Loads libfreetype and libharfbuzz once per process (thread-safe). CK_FONT_OK, or CK_FONT_ERR_UNAVAILABLE with the
/// reason in `message`.
int ck_font_load(char *message);

/// What a font file says of itself.
typedef struct {
  /// Faces in the file (a collection has several), glyphs in the face opened.
  uint32_t faces, glyphs;
  /// The family and style names, NUL-terminated (cut to fit).
  char family[64], style[32];
} ck_font_info;

/// Opens face `index` of the font in `data` and checks that it has outlines.
int ck_font_probe(const uint8_t *data, size_t size, uint32_t index, ck_font_info *info, char *message);

/// A shaped line of text at a pixel size, in pixels, y up from the baseline.
typedef struct {
  /// The pen's advance over the whole line.
  double advance;
  /// The font's ascender (above the baseline) and descender (below it, negative) at this size.
  double ascender, descender;
  /// The ink's exact bounding box relative to the pen's start (all 0 when nothing is inked, e.g. only spaces).
  double ink_left, ink_bottom, ink_right, ink_top;
  /// Glyphs after shaping.
  uint32_t glyphs;
  /// The first character of the text the font has no glyph for (its Unicode scalar value), when the call returned
  /// CK_FONT_ERR_UNSUPPORTED for it; else 0.
  uint32_t missing;
} ck_text_metrics;

/// The longest text ck_text_draw shapes, in Unicode scalars, and the largest pixel size it draws at.
#define CK_TEXT_MAX_SCALARS 1000
#define CK_TEXT_MAX_PIXEL_SIZE 8192

/// Shapes `text` (`count` Unicode scalars, one line) in face `index` of the font in `data` at `pixel_size` pixels to
/// the em and fills `metrics`. When `plane` is not NULL, also draws the line's anti-aliased coverage into it
/// (`width × height` bytes, `stride` a row, row 0 at the top; a sample already there is kept when larger, so
/// overlapping glyphs do not darken their shared edge), the pen starting at (`x`, `baseline`) pixels from the plane's
/// top-left corner; what falls outside the plane is clipped.
int ck_text_draw(const uint8_t *data, size_t size, uint32_t index, const uint32_t *text, size_t count,
                 double pixel_size, uint8_t *plane, uint32_t width, uint32_t height, size_t stride, double x,
                 double baseline, ck_text_metrics *metrics, char *message);

#ifdef __cplusplus
}
#endif
