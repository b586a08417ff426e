// What the GIF shim reads without giflib: records walked byte by byte (to count an animation's frames after a frame
// giflib's reader cannot pass) and CropKit's own LZW decoder, for the minimum code sizes of 9 to 11 that giflib
// refuses although a GIF may use them (Pillow's issue_2811.gif). See giflib.h.
#include "cgif_shim.h"
#include "giflib.h"

/// Skips data sub-blocks from `at`; returns the offset after their terminator, or 0 when the data ends first.
size_t ck_gif_skip_sub_blocks(const uint8_t *data, size_t size, size_t at) {
  while (at < size) {
    size_t length = data[at];
    if (length == 0) return at + 1;
    at += 1 + length;
  }
  return 0;
}

/// Counts the frames from `at`, the first frame's data, by walking the records without giflib (after a wide code
/// size, giflib's reader cannot go on). Returns the count, with `*incomplete` set when a record is cut or unknown.
int ck_gif_count_frames_from(const uint8_t *data, size_t size, size_t at, int *incomplete) {
  int frames = 1;
  at = ck_gif_skip_sub_blocks(data, size, at);
  while (at != 0 && at < size && frames < CK_GIF_FRAME_COUNT_CAP) {
    uint8_t record = data[at];
    if (record == 0x3B) return frames;
    if (record == 0x21 && at + 2 <= size) {
      at = ck_gif_skip_sub_blocks(data, size, at + 2);
    } else if (record == 0x2C && at + 10 <= size) {
      uint8_t flags = data[at + 9];
      at += 10 + ((flags & 0x80) ? 3u * (2u << (flags & 7)) : 0);
      at = at + 1 < size ? ck_gif_skip_sub_blocks(data, size, at + 1) : 0;
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
int ck_gif_decode_lzw(const uint8_t *data, size_t size, size_t at, int minimum, uint16_t *out, size_t count) {
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
