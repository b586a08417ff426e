// A small C layer over giflib for CropCodecs, loaded at run time.
//
// giflib is opened with dlopen the first time a GIF is read, not linked: the build needs no giflib headers or
// development package, only the runtime library the system already has (Debian/Ubuntu's libgif7, soname libgif.so.7,
// giflib 5.1/5.2; Homebrew's libgif.dylib on macOS). The structures the shim reads are declared in shim.c from
// giflib 5's public ABI (gif_lib.h), unchanged since 5.1.
//
// CropKit reads the first frame of a GIF, composited on its canvas as a browser shows it before any animation runs.
// Every entry point returns a status (CK_GIF_OK or a CK_GIF_ERR_* value, numbered as the other shims' codes) and
// never aborts.

#pragma once
#include "ck_status.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  CK_GIF_OK = CK_OK,
  /// giflib rejected the data (a broken descriptor, LZW data, record …).
  CK_GIF_ERR_CORRUPT = CK_ERR_CORRUPT,
  /// The data ended before the first frame was complete.
  CK_GIF_ERR_TRUNCATED = CK_ERR_TRUNCATED,
  /// giflib could not allocate memory.
  CK_GIF_ERR_MEMORY = CK_ERR_MEMORY,
  /// Not a GIF at all.
  CK_GIF_ERR_NOT_GIF = CK_ERR_NOT_AN_IMAGE,
  /// The runtime library is missing or lacks a symbol; the message says which.
  CK_GIF_ERR_UNAVAILABLE = CK_ERR_UNAVAILABLE,
};

#define CK_GIF_MESSAGE_LENGTH 200
/// Frames counted at most: a hostile file of millions of tiny frames is counted no further.
#define CK_GIF_FRAME_COUNT_CAP 100000

/// Loads giflib once per process (thread-safe). CK_GIF_OK, or CK_GIF_ERR_UNAVAILABLE with the reason in `message`
/// (NUL-terminated, at most CK_GIF_MESSAGE_LENGTH bytes).
int ck_gif_load(char *message);

/// What a GIF's descriptors say, read without decoding any pixels.
typedef struct {
  /// The logical screen (canvas), grown to hold the first frame when that frame reaches past it (as browsers do).
  int canvas_width, canvas_height;
  /// The logical screen as the file states it.
  int screen_width, screen_height;
  /// The first frame's place on the canvas.
  int frame_left, frame_top, frame_width, frame_height;
  /// The first frame's transparent colour index from its graphic control extension, or -1.
  int transparent_index;
  int interlaced;
  /// Entries in the colour table the first frame uses (its local one, else the global one); 0 when it has none.
  int color_count;
  /// Non-zero when the first frame has no colour table at all and is read with a grey ramp (as Pillow reads it).
  int default_palette;
  /// Non-zero for "GIF89a", zero for "GIF87a".
  int version89;
  /// Frames in the file, up to CK_GIF_FRAME_COUNT_CAP.
  int frame_count;
  /// Non-zero when counting stopped at a broken record after the first frame (the first frame is still readable).
  int count_incomplete;
  /// The first frame's LZW minimum code size when it is 9 to 11 (giflib refuses those; the shim decodes such a
  /// frame itself), else 0.
  int lzw_code_size;
  /// The NETSCAPE2.0 loop count: 0 loops forever, n plays n more times; -1 when the file has none (play once).
  int loop_count;
  /// The counted frames' delays, in hundredths of a second, added up.
  long total_delay_cs;
} ck_gif_info;

/// Reads the screen and the first frame's descriptors, then counts the frames (their LZW data is skipped, not
/// decoded). Fails when the file has no frame or the first one's descriptor is broken.
int ck_gif_read_info(const uint8_t *data, size_t size, ck_gif_info *info, char *message);

/// Decodes the first frame and composites it on a `width × height` canvas (the info's canvas) in `output` (`stride`
/// bytes per row), which the caller has cleared: as 8-bit RGBA when `alpha` is non-zero (the transparent index and
/// the canvas outside the frame stay transparent), else RGB. Indices past the colour table are opaque black.
int ck_gif_decode(const uint8_t *data, size_t size, uint8_t *output, size_t stride, int width, int height, int alpha,
                  char *message);

/// An animation read frame by frame, each composited on the canvas as a browser shows it.
typedef struct ck_gif_frames ck_gif_frames;

/// Opens `data` (which must stay alive until ck_gif_frames_close) for ck_gif_frames_next; the canvas is `width ×
/// height` (the info's canvas). CK_GIF_OK with `*frames` set, or an error status.
int ck_gif_frames_open(const uint8_t *data, size_t size, int width, int height, ck_gif_frames **frames, char *message);

/// Composites the next frame onto `canvas` (8-bit RGBA, `stride` bytes per row, cleared by the caller before the
/// first frame and left as this call leaves it between calls): the previous frame's disposal first (2: its rectangle
/// back to transparent, 3: back to what was under it), then the frame's non-transparent pixels, clipped to the
/// canvas. Sets `*delay_cs` (hundredths of a second) and `*decoded` (0 once there is no further frame). Returns
/// CK_GIF_OK, or an error for a broken frame (the canvas then holds what was composited before).
int ck_gif_frames_next(ck_gif_frames *frames, uint8_t *canvas, size_t stride, int *delay_cs, int *decoded,
                       char *message);

void ck_gif_frames_close(ck_gif_frames *frames);

/// An animated (or still) GIF written frame by frame into memory with giflib: each frame quantised to its own table
/// of at most 256 colours by giflib's median-cut quantiser (GifQuantizeBuffer) refined by k-means steps (the table as
/// small as the colours used allow), pixels with alpha below 128 written as the transparent index, and every frame covering the whole canvas and disposed of to transparent before the next.
typedef struct ck_gif_writer ck_gif_writer;

/// Starts a `width × height` GIF89a. `loop_count`: the NETSCAPE2.0 loop count to write (0 loops forever, n plays n
/// more times), or -1 to write none (play once). Loads the library's writing half if needed.
int ck_gif_writer_open(int width, int height, int loop_count, ck_gif_writer **writer, char *message);

/// Adds a whole-canvas frame of 8-bit RGBA rows (`stride` bytes apart) shown for `delay_cs` hundredths of a second.
int ck_gif_writer_add(ck_gif_writer *writer, const uint8_t *rgba, size_t stride, int delay_cs, char *message);

/// Ends the file. On success `*output` holds `*output_size` bytes, the caller's to release with free().
int ck_gif_writer_finish(ck_gif_writer *writer, uint8_t **output, size_t *output_size, char *message);

/// Releases a writer, finished or not.
void ck_gif_writer_close(ck_gif_writer *writer);

#ifdef __cplusplus
}
#endif
