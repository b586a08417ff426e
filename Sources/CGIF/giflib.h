// The GIF shim's own declarations, shared by its files (shim.c reads, records.c walks records and decodes LZW,
// writer.c writes): the subset of giflib 5's public ABI (gif_lib.h) the shim uses, written from the library's
// documentation, and the helpers the files share.
#pragma once
#include "cgif_shim.h"
#include "runtime_library.h"
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned char GifByteType;
typedef struct { GifByteType Red, Green, Blue; } GifColorType;
typedef struct {
  int ColorCount;
  int BitsPerPixel;
  bool SortFlag;
  GifColorType *Colors;
} ColorMapObject;

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

/// giflib's reading functions, bound by ck_gif_load.
extern lib_functions ck_giflib;

#define say(message, ...) ck_runtime_message(message, CK_GIF_MESSAGE_LENGTH, __VA_ARGS__)

/// Maps giflib's error code to a status, with giflib's own words in `message`.
int ck_gif_failure(int error, const char *doing, char *message);

/// Skips data sub-blocks from `at`; returns the offset after their terminator, or 0 when the data ends first.
size_t ck_gif_skip_sub_blocks(const uint8_t *data, size_t size, size_t at);

/// Counts the frames from `at`, the first frame's data, by walking the records without giflib (after a wide code
/// size, giflib's reader cannot go on). Returns the count, with `*incomplete` set when a record is cut or unknown.
int ck_gif_count_frames_from(const uint8_t *data, size_t size, size_t at, int *incomplete);

/// Decodes GIF LZW data (in sub-blocks from `at`, minimum code size `minimum`, at most 11) into `count` indices; the
/// rest of `out` stays 0 when the data ends early. Returns CK_GIF_OK, CK_GIF_ERR_TRUNCATED when the data ends
/// before `count` indices, or CK_GIF_ERR_CORRUPT for a code that cannot come next.
int ck_gif_decode_lzw(const uint8_t *data, size_t size, size_t at, int minimum, uint16_t *out, size_t count);
