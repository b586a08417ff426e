// CropKit's entropy decoder for sequential JPEGs, which skips the AC coefficients a 1/8 output never reads (see
// ac_skipping_decoder.h).
//
// Invariants of the bit reader (ck_reader):
// - `buffer` holds the next `count` bits of entropy-coded data, most significant first; 0 <= count <= 63. Bits below
//   them are either zero or the first bits of the byte at `next` (a fast refill loads whole words and counts only
//   whole bytes), so OR-ing later bytes in at position `count` is exact.
// - After a refill, count >= 56. A refill loads bytes only up to a marker; once libjpeg's `unread_marker` is set, it
//   appends zero bytes instead and counts them in `padding` (the zero bits at the end of `buffer`).
// - `next`/`end` is the unread part of the source manager's buffer; `fast_limit` is the last address a fast refill
//   may load 8 bytes from (0 once a marker is seen or when fewer than 8 bytes are left).

#include "ac_skipping_decoder.h"

#include <jerror.h>
#if (defined(__x86_64__) || defined(_M_X64)) && !defined(CROPKIT_PORTABLE)
#include <emmintrin.h>
#endif
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if JPEG_LIB_VERSION == 62

#define CK_LIKELY(x) __builtin_expect(!!(x), 1)
#define CK_UNLIKELY(x) __builtin_expect(!!(x), 0)

// libjpeg's entropy decoder interface (jpegint.h, which is not installed): the three members libjpeg's other
// modules use. Every libjpeg since 6b declares struct jpeg_entropy_decoder with exactly these, in this order.
typedef struct {
  void (*start_pass)(j_decompress_ptr cinfo);
  boolean (*decode_mcu)(j_decompress_ptr cinfo, JBLOCKROW *MCU_data);
  boolean insufficient_data;
} ck_entropy_interface;

// Codes of up to this many bits decode with one lookup.
#define CK_LOOKAHEAD 11
// The skip table reads this many bits: every AC symbol whose code lies in them (the last one's value bits may go
// past them, as skipping needs only their count), up to CK_SKIP_MAX_USED bits in all.
#define CK_SKIP_BITS 12
// At most this many bits per skip-table entry, so that three lookups follow each refill (which leaves >= 56 bits).
// Three lookups of up to 18 bits beat two of up to 28: the refill's shift and OR sit on the lookups' dependency
// chain, and a symbol whose value would take an entry past 18 bits is rare. On four camera photos the whole decode
// at 1/8 took 5-7% less time than with two lookups of 13-bit windows; 13-bit windows gave the same speed as these
// 12-bit ones with three lookups, for twice the table (built for each decode).
#define CK_SKIP_MAX_USED 18
// A skip-table entry: bits used (the low 6 bits, so that a shift by the whole entry needs no mask on x86-64: see
// CK_SKIP_SHIFT), coefficient positions advanced (6 bits), and whether an end of block ends them. CK_SKIP_NONE
// (no code fits) advances 63, so that one comparison (k + advance > 63) sends it to the one-symbol path.
#define CK_SKIP_USED(e) ((e) & 63u)
#define CK_SKIP_ADVANCE(e) (((e) >> 6) & 63u)
#define CK_SKIP_END_OF_BLOCK 0x1000u
#define CK_SKIP_NONE (63u << 6)

// Zig-zag position to natural position, with 16 extra entries for runs past the end (libjpeg writes those to 63).
static const int ck_natural_order[64 + 16] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13,
    6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31,
    39, 46, 53, 60, 61, 54, 47, 55, 62, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63};

// A Huffman table as canonical codes: the lookup for short codes, maxcode/valoffset for the rest (as libjpeg's).
typedef struct {
  uint16_t lookup[1 << CK_LOOKAHEAD];  // (symbol << 5) | length for codes of <= CK_LOOKAHEAD bits; 0: longer
  int32_t maxcode[18];                 // the largest code of each length, -1 when none; [17] a sentinel
  int32_t valoffset[18];
  uint8_t values[256];
} ck_huffman_code;

// A progressive AC first scan's value-table entry (the sequential decoder's are CK_AC_PAIR_*), for a
// CK_AC_VALUE_BITS-bit window holding a whole symbol, code and value bits: the bits it takes (low 5 bits), its run
// of zeros (bits 5-8: 15 for a run of sixteen zeros, whose value is 0), whether it ends the block
// (CK_AC_VALUE_END), and the coefficient (the top 16 bits, signed). 0 when the symbol does not fit.
#define CK_AC_VALUE_BITS 12
#define CK_AC_VALUE_END 0x200u
_Static_assert(CK_AC_VALUE_BITS >= CK_LOOKAHEAD, "windows are read through the lookup");

// A sequential decoder's AC entry, for a CK_AC_PAIR_BITS-bit window: the symbols whose codes and value bits lie
// whole in it, up to two coefficients and an end of block, so that one lookup often decodes two symbols. The bits
// they take (bits 0-5, so that a shift by the whole entry needs no mask: see CK_SKIP_SHIFT); how far they move the
// coefficient position (bits 6-12: each coefficient's run + 1, and 1 more for an end of block after them, which
// libjpeg reads only below position 64: see ck_build_pairs); the first coefficient's run (bits 13-16); from the
// first coefficient to the second (bits 17-21: its run + 1, or 0 when there is one coefficient, which is then
// written twice); whether an end of block comes first (CK_AC_PAIR_END: nothing is written) or after them
// (CK_AC_PAIR_END_AFTER); and the two coefficients, signed, in bits 32-47 and 48-63. A sixteen-zero run is a
// coefficient of value 0 with run 15. CK_AC_PAIR_NONE (no symbol fits) advances past any block's end, so that one
// comparison (k + advance > 64) sends it, and a run that would reach past the block's end, to the one-symbol path.
// 12-bit windows (a 32 KB table) rather than 11: on a photo whose few AC coefficients are mostly large (a Canon 5D
// Mk III's) 11-bit windows send more symbols to the one-symbol path, and the decode at 1/2 and 1/4 was 3-4% slower
// than with one coefficient per lookup; with 12 bits no photo was slower there, and the others were as fast.
#define CK_AC_PAIR_BITS 12
#define CK_AC_PAIR_USED(e) ((unsigned int)(e) & 63u)
#define CK_AC_PAIR_ADVANCE(e) (((unsigned int)(e) >> 6) & 127u)
#define CK_AC_PAIR_RUN(e) (((unsigned int)(e) >> 13) & 15u)
#define CK_AC_PAIR_SECOND(e) (((unsigned int)(e) >> 17) & 31u)
#define CK_AC_PAIR_END 0x400000u
#define CK_AC_PAIR_END_AFTER 0x800000u
#define CK_AC_PAIR_NONE (127u << 6)
_Static_assert(CK_AC_PAIR_BITS >= CK_LOOKAHEAD, "windows are read through the lookup");

typedef struct {
  ck_huffman_code code;
  uint16_t skip[1 << CK_SKIP_BITS];      // see CK_SKIP_*
  uint64_t pairs[1 << CK_AC_PAIR_BITS];  // see CK_AC_PAIR_*
} ck_ac_code;

// A DC table with the differences themselves: for each CK_DC_BITS-bit window whose code and value bits fit in it,
// (difference << 8) | bits used; 0 when they do not fit.
#define CK_DC_BITS 11
_Static_assert(CK_SKIP_BITS >= CK_LOOKAHEAD && CK_DC_BITS >= CK_LOOKAHEAD, "windows are read through the lookup");
_Static_assert(3 * CK_SKIP_MAX_USED <= 56 && CK_SKIP_MAX_USED >= CK_SKIP_BITS, "three skip lookups per refill");
typedef struct {
  ck_huffman_code code;
  int32_t differences[1 << CK_DC_BITS];
} ck_dc_code;

// What the decoder does with one block of the MCU.
typedef struct {
  const ck_dc_code *dc;
  const ck_ac_code *ac;
  int component;  // index in cur_comp_info
  int decode_ac;  // 1: the IDCT reads AC coefficients, so they are decoded into the block; 0: they are skipped
  int one_pixel;  // 1: the component's DCT_scaled_size is 1 (ck_decompress_eighth writes the pixel itself)
} ck_block_plan;

typedef struct {
  uint64_t buffer;
  int count;
  int padding;
  const JOCTET *next;
  const JOCTET *end;
  uintptr_t fast_limit;
} ck_reader;

enum { CK_BUILT_CODE = 1, CK_BUILT_SKIP = 2, CK_BUILT_PAIRS = 4 };

// What both of CropKit's entropy decoders keep of a scan: the bit reader, the DC predictions and the restarts (the
// DC-first reader leaves next_restart to libjpeg's marker reader, whose read_restart_marker it calls).
typedef struct {
  ck_entropy_interface pub;  // first, so that cinfo->entropy points at it
  ck_reader reader;          // between MCUs `next`/`end` live in the source manager
  int last_dc[MAX_COMPS_IN_SCAN];
  unsigned int restarts_to_go;
  int next_restart;
} ck_scan_state;

typedef struct {
  ck_scan_state scan;  // first, so that cinfo->entropy points at it
  int dc_only;
  int blocks;
  ck_block_plan plan[D_MAX_BLOCKS_IN_MCU];
  int dc_built[NUM_HUFF_TBLS];
  int ac_built[NUM_HUFF_TBLS];  // CK_BUILT_* of each table
  // The tables, about 230 KB: only the parts a scan uses are built, and so touched.
  ck_dc_code dc_codes[NUM_HUFF_TBLS];
  ck_ac_code ac_codes[NUM_HUFF_TBLS];
} ck_ac_skipping_decoder;

static inline uint64_t ck_load_be64(const JOCTET *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

// 1 when some byte of `w` is 0xFF (a stuffed byte or a marker, which only the slow refill handles).
static inline int ck_has_ff(uint64_t w) {
  uint64_t v = ~w;
  return ((v - 0x0101010101010101ULL) & ~v & 0x8080808080808080ULL) != 0;
}

// HUFF_EXTEND: the `size`-bit value at the top of `buffer` as a signed coefficient (size 1…15).
static inline int ck_extend(uint64_t buffer, int size) {
  int v = (int)(buffer >> (64 - size));
  return v < (1 << (size - 1)) ? v - (1 << size) + 1 : v;
}

static void ck_reader_limit(ck_reader *r, j_decompress_ptr cinfo) {
  r->fast_limit = (cinfo->unread_marker == 0 && r->end - r->next >= 8) ? (uintptr_t)(r->end - 8) : 0;
}

// `reader`'s bits with the source manager's unread bytes: the copy a decoding loop works on.
static inline ck_reader ck_reader_take(j_decompress_ptr cinfo, ck_reader reader) {
  reader.next = cinfo->src->next_input_byte;
  reader.end = reader.next + cinfo->src->bytes_in_buffer;
  ck_reader_limit(&reader, cinfo);
  return reader;
}

// Hands the bytes `r` has not loaded back to the source manager.
static inline void ck_reader_give(j_decompress_ptr cinfo, const ck_reader *r) {
  cinfo->src->next_input_byte = r->next;
  cinfo->src->bytes_in_buffer = (size_t)(r->end - r->next);
}

// One byte through the source manager (whose fill never suspends in CropKit; a suspending source is refused).
static int ck_source_byte(j_decompress_ptr cinfo) {
  struct jpeg_source_mgr *src = cinfo->src;
  if (src->bytes_in_buffer == 0 && !(*src->fill_input_buffer)(cinfo)) ERREXIT(cinfo, JERR_CANT_SUSPEND);
  src->bytes_in_buffer--;
  return *src->next_input_byte++;
}

// The next data byte through the source manager, for the cases the refill does not handle in place: the end of the
// source buffer, fill bytes (FF FF …) and markers. Returns -1 at a marker, which it leaves in `unread_marker`.
static int ck_source_data_byte(j_decompress_ptr cinfo, ck_reader *r) {
  cinfo->src->next_input_byte = r->next;
  cinfo->src->bytes_in_buffer = (size_t)(r->end - r->next);
  int c = ck_source_byte(cinfo);
  if (c == 0xFF) {
    do c = ck_source_byte(cinfo);
    while (c == 0xFF);
    if (c == 0) {
      c = 0xFF;  // FF 00 is a data byte FF
    } else {
      cinfo->unread_marker = c;  // the data ends here
      c = -1;
    }
  }
  r->next = cinfo->src->next_input_byte;
  r->end = r->next + cinfo->src->bytes_in_buffer;
  return c;
}

// The next data byte for a byte-by-byte refill: stuffed bytes (FF 00) in place, the rest through
// ck_source_data_byte; -1 once a marker ends the data.
static inline int ck_next_data_byte(j_decompress_ptr cinfo, ck_reader *r) {
  if (cinfo->unread_marker != 0) return -1;
  if (r->end - r->next >= 2 && r->next[0] != 0xFF) return *r->next++;
  if (r->end - r->next >= 2 && r->next[1] == 0) {
    r->next += 2;
    return 0xFF;
  }
  return ck_source_data_byte(cinfo, r);
}

// The bits of `r` past its count cleared (a fast refill leaves the next byte's first bits there), so that bytes can
// be OR-ed in at the count.
static inline void ck_clear_below_count(ck_reader *r) {
  r->buffer = r->count == 0 ? 0 : r->buffer & (~(uint64_t)0 << (64 - r->count));
}

// Refills byte by byte when the next 8 bytes hold a 0xFF or the source buffer is nearly done; zero bytes once a
// marker ends the data. It works on the decoder's copy of the reader, so that the decoding loop's copy never has
// its address taken and stays in registers.
static __attribute__((noinline)) void ck_refill_slow(j_decompress_ptr cinfo, ck_reader *reader) {
  ck_reader r = *reader;
  ck_clear_below_count(&r);
  while (r.count < 56) {
    int c = ck_next_data_byte(cinfo, &r);
    if (c < 0) {
      c = 0;
      r.padding += 8;
    }
    r.buffer |= (uint64_t)c << (56 - r.count);
    r.count += 8;
  }
  ck_reader_limit(&r, cinfo);
  *reader = r;
}

// The 0xFF bytes of `w`, exactly: 0x80 in each such byte, 0 elsewhere (ck_has_ff's test may also flag a byte
// above one that is 0xFF).
static inline uint64_t ck_ff_bytes(uint64_t w) {
  uint64_t v = ~w;
  return ~(((v & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | v | 0x7F7F7F7F7F7F7F7FULL);
}

// A fast refill from a word `w` that holds a 0xFF. It takes the bytes as the fast refill does when the first 0xFF
// is not among the whole bytes it takes, or is a stuffed byte (FF 00) and the only one among them: then the 00 is
// dropped from the word. Returns 0, having changed nothing, otherwise (a marker, two stuffed bytes): the slow
// refill's case. Bits below the count stay the first bits of the byte at `next`, or zero (a word that lost its
// 00 ends with a zero byte).
static inline __attribute__((always_inline)) int ck_refill_stuffed(ck_reader *r, uint64_t w) {
  unsigned int taken = (unsigned int)(63 - r->count) >> 3;  // whole bytes the refill takes
  uint64_t ff = ck_ff_bytes(w);
  unsigned int first = (unsigned int)__builtin_clzll(ff) >> 3;  // the first 0xFF's byte, from the top
  unsigned int skipped = 0;
  if (first < taken) {
    if (((w >> (48 - 8 * first)) & 0xFF) != 0) return 0;  // a marker
    uint64_t head = ~(uint64_t)0 << (56 - 8 * first);     // the bytes up to the 0xFF
    w = (w & head) | ((w << 8) & ~head);
    uint64_t others = ck_ff_bytes(w) & ~(0x80ULL << (56 - 8 * first));
    if (others >> (64 - 8 * taken) != 0) return 0;  // another 0xFF among the bytes taken
    skipped = 1;
  }
  r->buffer |= w >> r->count;
  r->next += taken + skipped;
  r->count |= 56;
  return 1;
}

#define CK_REFILL(r)                                                                 \
  do {                                                                               \
    if (CK_LIKELY((uintptr_t)(r).next <= (r).fast_limit)) {                         \
      uint64_t w_ = ck_load_be64((r).next);                                          \
      if (CK_LIKELY(!ck_has_ff(w_))) {                                               \
        (r).buffer |= w_ >> (r).count;                                               \
        (r).next += (63 - (r).count) >> 3;                                           \
        (r).count |= 56;                                                             \
        break;                                                                       \
      }                                                                              \
      if (ck_refill_stuffed(&(r), w_)) break;                                        \
    }                                                                                \
    scan->reader = (r);                                                              \
    ck_refill_slow(cinfo, &scan->reader);                                            \
    (r) = scan->reader;                                                              \
  } while (0)

#define CK_DROP(r, n) ((r).buffer <<= (n), (r).count -= (n))

// buffer <<= the bits a skip-table entry used. x86-64's shift takes its count mod 64 from CL, so the entry itself can
// be the count (its used bits are the low 6): that keeps a mask off the decoding loop's critical path.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CK_SKIP_SHIFT(buffer, e) __asm__("shlq %%cl, %0" : "+r"(buffer) : "c"(e))
#else
#define CK_SKIP_SHIFT(buffer, e) ((buffer) <<= CK_SKIP_USED(e))
#endif

// A code longer than CK_LOOKAHEAD bits: (symbol | length << 8). Like libjpeg, a code that is not one of 16 bits or
// fewer reads 17 bits and gives symbol 0.
static __attribute__((noinline)) int ck_decode_long(j_decompress_ptr cinfo, const ck_huffman_code *code,
                                                    uint64_t buffer) {
  for (int length = CK_LOOKAHEAD + 1; length <= 16; length++) {
    int32_t value = (int32_t)(buffer >> (64 - length));
    if (value <= code->maxcode[length]) return code->values[(value + code->valoffset[length]) & 0xFF] | length << 8;
  }
  WARNMS(cinfo, JWRN_HUFF_BAD_CODE);
  return 17 << 8;
}

// Needs count >= 17.
#define CK_DECODE(r, code, symbol)                                               \
  do {                                                                           \
    unsigned int e_ = (code)->lookup[(r).buffer >> (64 - CK_LOOKAHEAD)];         \
    if (CK_LIKELY(e_ != 0)) {                                                    \
      CK_DROP(r, e_ & 31);                                                       \
      (symbol) = (int)(e_ >> 5);                                                 \
    } else {                                                                     \
      int packed_ = ck_decode_long(cinfo, (code), (r).buffer);                   \
      CK_DROP(r, packed_ >> 8);                                                  \
      (symbol) = packed_ & 0xFF;                                                 \
    }                                                                            \
  } while (0)

// A DC difference. Needs count >= 32 (a code and its value bits take at most 16 + 15). libjpeg refuses DC tables with
// symbols past 15; the mask keeps the shifts defined regardless.
#define CK_DC_DIFFERENCE(r, dc_code, difference)                                    \
  do {                                                                              \
    int32_t known_ = (dc_code)->differences[(r).buffer >> (64 - CK_DC_BITS)];       \
    if (CK_LIKELY(known_ != 0)) {                                                   \
      CK_DROP(r, known_ & 0xFF);                                                    \
      (difference) = known_ >> 8;                                                   \
    } else {                                                                        \
      int size_;                                                                    \
      CK_DECODE(r, &(dc_code)->code, size_);                                        \
      size_ &= 15;                                                                  \
      (difference) = 0;                                                             \
      if (size_ != 0) {                                                             \
        (difference) = ck_extend((r).buffer, size_);                                \
        CK_DROP(r, size_);                                                          \
      }                                                                             \
    }                                                                               \
  } while (0)

// libjpeg has checked the table (jpeg_make_d_derived_tbl refuses one whose codes overflow their lengths) before
// this runs; the bounds are checked again so that no table can write outside `lookup`.
static void ck_build_code(j_decompress_ptr cinfo, ck_huffman_code *code, const JHUFF_TBL *table) {
  memset(code->lookup, 0, sizeof code->lookup);
  memcpy(code->values, table->huffval, sizeof code->values);
  int32_t next_code = 0;
  int index = 0;
  for (int length = 1; length <= 16; length++) {
    int n = table->bits[length];
    if (n == 0) {
      code->maxcode[length] = -1;
      code->valoffset[length] = 0;
    } else {
      code->valoffset[length] = index - next_code;
      code->maxcode[length] = next_code + n - 1;
      for (int i = 0; i < n; i++, index++, next_code++) {
        if (next_code >= (1 << length)) ERREXIT(cinfo, JERR_BAD_HUFF_TABLE);
        if (length > CK_LOOKAHEAD) continue;
        int spare = CK_LOOKAHEAD - length;
        uint16_t entry = (uint16_t)(table->huffval[index & 0xFF] << 5 | length);
        for (int j = 0; j < (1 << spare); j++) code->lookup[(next_code << spare) | j] = entry;
      }
    }
    next_code <<= 1;
  }
  code->maxcode[17] = 0xFFFFF;
  code->valoffset[17] = 0;
}

static void ck_build_differences(ck_dc_code *dc) {
  for (uint32_t window = 0; window < (1u << CK_DC_BITS); window++) {
    unsigned int e = dc->code.lookup[window >> (CK_DC_BITS - CK_LOOKAHEAD)];
    unsigned int length = e & 31, size = (e >> 5) & 15;
    int32_t entry = 0;
    if (e != 0 && length + size <= CK_DC_BITS) {
      int difference = 0;
      if (size != 0) difference = ck_extend((uint64_t)window << (64 - CK_DC_BITS + length), (int)size);
      entry = (int32_t)((uint32_t)difference << 8) | (int32_t)(length + size);
    }
    dc->differences[window] = entry;
  }
}

// The first symbol of `bits` (the unused bits of a `window_bits`-bit window, at its top; `available` of them are
// left) when its code and value bits fit: its bits (0: it does not fit), run and value (for a coefficient or a
// sixteen-zero run) and whether it ends the block. Both AC value tables are built from it.
static unsigned int ck_window_symbol(const ck_huffman_code *code, uint32_t bits, unsigned int window_bits,
                                     unsigned int available, unsigned int *run, int *value, int *end_of_block) {
  unsigned int e = code->lookup[bits >> (window_bits - CK_LOOKAHEAD)];
  unsigned int length = e & 31, symbol = e >> 5, size = symbol & 15;
  if (e == 0 || length + size > available) return 0;
  *run = symbol >> 4;
  *end_of_block = size == 0 && *run != 15;  // libjpeg reads every size-0 symbol but ZRL as the block's end
  *value = size != 0 ? ck_extend((uint64_t)bits << (64 - window_bits + length), (int)size) : 0;
  return length + size;
}

// For each CK_AC_VALUE_BITS-bit window whose first symbol fits in it, code and value bits: the symbol decoded (a
// sixteen-zero run is the value 0 at the run's last position).
static void ck_build_value_table(const ck_huffman_code *code, int32_t values[1 << CK_AC_VALUE_BITS]) {
  for (uint32_t window = 0; window < (1u << CK_AC_VALUE_BITS); window++) {
    unsigned int run;
    int value, end_of_block;
    unsigned int used =
        ck_window_symbol(code, window, CK_AC_VALUE_BITS, CK_AC_VALUE_BITS, &run, &value, &end_of_block);
    int32_t entry = 0;
    if (used != 0) {
      entry = end_of_block ? (int32_t)(CK_AC_VALUE_END | used) : (int32_t)((uint32_t)value << 16 | run << 5 | used);
    }
    values[window] = entry;
  }
}

// Each window's entry (CK_AC_PAIR_*): its first symbol, then a second coefficient, then an end of block, as far as
// they fit whole in the window.
static void ck_build_pairs(ck_ac_code *ac) {
  const unsigned int window_mask = (1u << CK_AC_PAIR_BITS) - 1;
  for (uint32_t window = 0; window <= window_mask; window++) {
    unsigned int run, run2, used, more;
    int value, value2, end_of_block;
    uint64_t entry = CK_AC_PAIR_NONE;
    used = ck_window_symbol(&ac->code, window, CK_AC_PAIR_BITS, CK_AC_PAIR_BITS, &run, &value, &end_of_block);
    if (used != 0 && end_of_block) {
      entry = used | CK_AC_PAIR_END;
    } else if (used != 0) {
      unsigned int advance = run + 1, second = 0;
      value2 = value;  // one coefficient is written twice (second = 0), unless a second one fits
      uint64_t flags = 0;
      more = ck_window_symbol(&ac->code, (window << used) & window_mask, CK_AC_PAIR_BITS, CK_AC_PAIR_BITS - used,
                              &run2, &value2, &end_of_block);
      if (more != 0 && end_of_block) {
        used += more;
        flags = CK_AC_PAIR_END_AFTER;
        value2 = value;
      } else if (more != 0) {
        used += more;
        second = run2 + 1;
        advance += second;
        int unused;
        more = ck_window_symbol(&ac->code, (window << used) & window_mask, CK_AC_PAIR_BITS, CK_AC_PAIR_BITS - used,
                                &run2, &unused, &end_of_block);
        if (more != 0 && end_of_block) {
          used += more;
          flags = CK_AC_PAIR_END_AFTER;
        }
      }
      // libjpeg reads the end of block only while the position is below 64: counting it in the advance sends a
      // block whose last coefficient is at 63 to the one-symbol path (the entry ends the block either way).
      if (flags != 0) advance++;
      entry = used | advance << 6 | run << 13 | second << 17 | flags | (uint64_t)(uint16_t)value << 32 |
              (uint64_t)(uint16_t)value2 << 48;
    }
    ac->pairs[window] = entry;
  }
}

// For each CK_SKIP_BITS-bit window: how many bits the AC symbols whose codes lie in it take (value bits included,
// up to CK_SKIP_MAX_USED), how far they move the coefficient position, and whether they end with an end of block.
static void ck_build_skip(ck_ac_code *ac) {
  for (uint32_t window = 0; window < (1u << CK_SKIP_BITS); window++) {
    unsigned int used = 0, advance = 0, symbols = 0, end_of_block = 0;
    while (used < CK_SKIP_BITS) {
      uint32_t rest = (window << used) & ((1u << CK_SKIP_BITS) - 1);  // the unused bits, at the top
      unsigned int e = ac->code.lookup[rest >> (CK_SKIP_BITS - CK_LOOKAHEAD)];
      if (e == 0) break;
      unsigned int length = e & 31, symbol = e >> 5, size = symbol & 15, run = symbol >> 4;
      if (used + length > CK_SKIP_BITS || used + length + size > CK_SKIP_MAX_USED) break;
      if (size == 0 && run != 15) {
        used += length;
        symbols++;
        end_of_block = 1;
        break;
      }
      unsigned int step = size != 0 ? run + 1 : 16;
      if (advance + step > 63) break;
      used += length + size;
      advance += step;
      symbols++;
    }
    unsigned int entry = used | advance << 6 | (end_of_block ? CK_SKIP_END_OF_BLOCK : 0);
    ac->skip[window] = (uint16_t)(symbols == 0 ? CK_SKIP_NONE : entry);
  }
}

// The RSTn marker was not reached by the data: find the next marker, counting what is skipped (libjpeg's next_marker).
static void ck_next_marker(j_decompress_ptr cinfo, unsigned int discarded) {
  int c;
  for (;;) {
    c = ck_source_byte(cinfo);
    while (c != 0xFF) {
      discarded++;
      c = ck_source_byte(cinfo);
    }
    do c = ck_source_byte(cinfo);
    while (c == 0xFF);
    if (c != 0) break;
    discarded += 2;
  }
  if (discarded != 0) WARNMS2(cinfo, JWRN_EXTRANEOUS_DATA, (int)discarded, c);
  cinfo->unread_marker = c;
}

// jdhuff.c's process_restart: drop the bits left, read the RSTn marker (or resynchronise), reset the DC predictions.
static void ck_process_restart(j_decompress_ptr cinfo, ck_scan_state *scan) {
  int real = scan->reader.count - scan->reader.padding;
  unsigned int discarded = real > 0 ? (unsigned int)real / 8 : 0;
  scan->reader.buffer = 0;
  scan->reader.count = 0;
  scan->reader.padding = 0;
  if (cinfo->unread_marker == 0) {
    ck_next_marker(cinfo, discarded);
  } else if (discarded != 0) {
    WARNMS2(cinfo, JWRN_EXTRANEOUS_DATA, (int)discarded, cinfo->unread_marker);
  }
  if (cinfo->unread_marker == JPEG_RST0 + scan->next_restart) {
    cinfo->unread_marker = 0;
  } else if (!(*cinfo->src->resync_to_restart)(cinfo, scan->next_restart)) {
    ERREXIT(cinfo, JERR_CANT_SUSPEND);
  }
  scan->next_restart = (scan->next_restart + 1) & 7;
  for (int ci = 0; ci < MAX_COMPS_IN_SCAN; ci++) scan->last_dc[ci] = 0;
  scan->restarts_to_go = cinfo->restart_interval;
  if (cinfo->unread_marker == 0) scan->pub.insufficient_data = FALSE;
}

// A scan's start: an empty bit reader, DC predictions 0, a whole restart interval, RST0 next (libjpeg's start_pass).
static void ck_reset_scan(j_decompress_ptr cinfo, ck_scan_state *scan) {
  memset(&scan->reader, 0, sizeof scan->reader);
  memset(scan->last_dc, 0, sizeof scan->last_dc);
  scan->restarts_to_go = cinfo->restart_interval;
  scan->next_restart = 0;
  scan->pub.insufficient_data = FALSE;
}

// One MCU: its blocks' coefficients into MCU_data (or a scratch block when it is NULL). Returns 0 when nothing was
// decoded because the data ran out earlier in the restart interval (libjpeg then leaves the MCU as it was zeroed),
// else 1. Inlined into libjpeg's entry point (ck_decode_mcu) and into the 1/8 output pass (ck_decompress_eighth).
static inline __attribute__((always_inline)) int ck_decode_mcu_blocks(j_decompress_ptr cinfo,
                                                                      ck_ac_skipping_decoder *d,
                                                                      JBLOCKROW *MCU_data) {
  int decoded = 0;
  ck_scan_state *scan = &d->scan;
  if (cinfo->restart_interval != 0 && scan->restarts_to_go == 0) ck_process_restart(cinfo, scan);
  if (!scan->pub.insufficient_data) {
    decoded = 1;
    ck_reader r = ck_reader_take(cinfo, scan->reader);
    JBLOCK scratch;
    for (int b = 0; b < d->blocks; b++) {
      const ck_block_plan *plan = &d->plan[b];
      // Without MCU_data (libjpeg's jpeg_skip_scanlines) the coefficients go to a scratch block, so that a block
      // whose AC is decoded never needs the skip table.
      JCOEF *block = MCU_data != NULL ? MCU_data[b][0] : scratch;
      if (r.count < 32) CK_REFILL(r);
      int size;
      int difference;
      CK_DC_DIFFERENCE(r, plan->dc, difference);
      // Unsigned, as libjpeg's sum wraps on data that keeps adding ±2047.
      int dc = (int)((unsigned int)scan->last_dc[plan->component] + (unsigned int)difference);
      scan->last_dc[plan->component] = dc;
      block[0] = (JCOEF)dc;

      if (plan->decode_ac) {
        // Up to two coefficients (and an end of block) per lookup. A lookup that does not fit, or whose coefficients
        // would reach past the block's end, decodes one symbol on its own.
        const uint64_t *pairs = plan->ac->pairs;
        unsigned int k = 1;
        for (;;) {
          if (r.count < 32) CK_REFILL(r);
          uint64_t e = pairs[r.buffer >> (64 - CK_AC_PAIR_BITS)];
          unsigned int advance = CK_AC_PAIR_ADVANCE(e);
          if (CK_UNLIKELY(k + advance > 64)) {
            int symbol;
            CK_DECODE(r, &plan->ac->code, symbol);
            int run = symbol >> 4;
            size = symbol & 15;
            if (size != 0) {
              k += (unsigned int)run;
              int value = ck_extend(r.buffer, size);
              CK_DROP(r, size);
              block[ck_natural_order[k]] = (JCOEF)value;
              k++;
            } else {
              if (run != 15) break;
              k += 16;
            }
            if (k >= 64) break;
            continue;
          }
          CK_SKIP_SHIFT(r.buffer, e);
          r.count -= (int)CK_AC_PAIR_USED(e);
          if (e & CK_AC_PAIR_END) break;
          // A sixteen-zero run writes its value 0 over a zero; a run past the end lands on ck_natural_order's guard
          // entries, as libjpeg's does (only the one-symbol path gets there: advance keeps these below 64).
          unsigned int first = k + CK_AC_PAIR_RUN(e);
          block[ck_natural_order[first]] = (JCOEF)(int16_t)(e >> 32);
          block[ck_natural_order[first + CK_AC_PAIR_SECOND(e)]] = (JCOEF)(int16_t)(e >> 48);
          k += advance;
          if ((e & CK_AC_PAIR_END_AFTER) || k >= 64) break;
        }
        continue;
      }

      // Skip the AC symbols, three table lookups per refill (each takes at most CK_SKIP_MAX_USED bits); a symbol
      // that does not fit in one lookup, or whose run may reach the end of the block, is decoded on its own.
      const uint16_t *skip = plan->ac->skip;
      unsigned int k = 1;
      for (;;) {
        CK_REFILL(r);
#define CK_SKIP_ROUND()                                                   \
  {                                                                       \
    unsigned int e_ = skip[r.buffer >> (64 - CK_SKIP_BITS)];              \
    unsigned int advance_ = CK_SKIP_ADVANCE(e_);                          \
    if (CK_UNLIKELY(k + advance_ > 63)) goto one_symbol;                  \
    CK_SKIP_SHIFT(r.buffer, e_);                                          \
    r.count -= (int)CK_SKIP_USED(e_);                                     \
    k += advance_;                                                        \
    if (e_ & CK_SKIP_END_OF_BLOCK) goto block_done;                       \
  }
        CK_SKIP_ROUND()
        CK_SKIP_ROUND()
        CK_SKIP_ROUND()
#undef CK_SKIP_ROUND
        continue;
      one_symbol:
        CK_REFILL(r);
        {
          int symbol;
          CK_DECODE(r, &plan->ac->code, symbol);
          int run = symbol >> 4;
          size = symbol & 15;
          if (size != 0) {
            CK_DROP(r, size);
            k += (unsigned int)run + 1;
          } else {
            if (run != 15) break;
            k += 16;
          }
          if (k >= 64) break;
        }
      }
    block_done:;
    }
    ck_reader_give(cinfo, &r);
    if (r.padding > r.count) {
      // The MCU read past the end of the data (into the zeros after a marker): warn once, and leave the rest of
      // the restart interval gray, as libjpeg does.
      r.padding = r.count;
      scan->reader = r;
      WARNMS(cinfo, JWRN_HIT_MARKER);
      scan->pub.insufficient_data = TRUE;
    }
    scan->reader = r;
  }
  if (cinfo->restart_interval != 0) scan->restarts_to_go--;
  return decoded;
}

static boolean ck_decode_mcu(j_decompress_ptr cinfo, JBLOCKROW *MCU_data) {
  (void)ck_decode_mcu_blocks(cinfo, (ck_ac_skipping_decoder *)(void *)cinfo->entropy, MCU_data);
  return TRUE;
}

// MARK: - The output pass at 1/8

// At 1/8 scale a block whose component has DCT_scaled_size 1 is one pixel, (DC × its quantizer) / 8 through the
// range limit: libjpeg's jpeg_idct_1x1. libjpeg's one-pass coefficient controller (jdcoefct.c's decompress_onepass)
// still zeroes every MCU's 128-byte blocks, has the entropy decoder fill them, and calls the IDCT through a pointer
// for each block: for a 12-megapixel baseline photo about a sixth of the whole decode. ck_decompress_eighth replaces
// it: it decodes each MCU straight into a few blocks of its own and writes those pixels itself, the same arithmetic
// as jpeg_idct_1x1; blocks of other components (4:2:0 chroma, which libjpeg scales up by a 2×2 IDCT instead of
// upsampling) are zeroed, decoded and handed to libjpeg's IDCT as before. Same pixels, byte for byte.
//
// It replaces only the decompress_data method, and keeps no state of its own between calls: CropKit's source never
// suspends, so each call decodes one whole iMCU row from its start (the controller's MCU_ctr and MCU_vert_offset
// stay 0), and the rows it counts are cinfo's input_iMCU_row and output_iMCU_row, as decompress_onepass's.

// The public parts of libjpeg's coefficient controller, input controller and IDCT (jpegint.h, not installed): the
// same members, in this order, in every libjpeg since 6b (libjpeg-turbo 3 appends its 12- and 16-bit methods).
typedef struct {
  void (*start_input_pass)(j_decompress_ptr cinfo);
  int (*consume_data)(j_decompress_ptr cinfo);
  void (*start_output_pass)(j_decompress_ptr cinfo);
  int (*decompress_data)(j_decompress_ptr cinfo, JSAMPIMAGE output_buf);
} ck_coefficient_interface;

typedef struct {
  int (*consume_input)(j_decompress_ptr cinfo);
  void (*reset_input_controller)(j_decompress_ptr cinfo);
  void (*start_input_pass)(j_decompress_ptr cinfo);
  void (*finish_input_pass)(j_decompress_ptr cinfo);
} ck_input_interface;

typedef void (*ck_inverse_dct_method)(j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
                                      JSAMPARRAY output_buf, JDIMENSION output_col);
typedef struct {
  void (*start_pass)(j_decompress_ptr cinfo);
  ck_inverse_dct_method inverse_DCT[MAX_COMPONENTS];
} ck_inverse_dct_interface;

// libjpeg's IDCT_range_limit and RANGE_MASK (jdct.h).
#define CK_RANGE_MASK (MAXJSAMPLE * 4 + 3)

// The pixel of a block holding `dc` alone, quantizer `q`: jpeg_idct_1x1's (DC × q + 4) >> 3 through the range limit
// (`range_limit` is cinfo->sample_range_limit + CENTERJSAMPLE). jpeg_idct_2x2 gives it for all four of its pixels
// when DC × q is in ck_dc_2x2_exact's range.
static inline JSAMPLE ck_dc_pixel(const JSAMPLE *range_limit, int dc, int q) {
  return range_limit[((dc * q + 4) >> 3) & CK_RANGE_MASK];
}

// Whether libjpeg's 2×2 IDCT of a block holding `dc` alone is ck_dc_pixel: for every DC × q a file of 8-bit samples
// can give (a DC coefficient is 8 × the block's mean less 128: |DC × q| <= 1024) and twice that. Past it only damaged
// or hostile data goes, and there libjpeg-turbo's SIMD 2×2 IDCT works in 16 bits and clamps where the masked range
// limit wraps (they first differ at DC × q = 4092 and -4101), so such a block goes through libjpeg's IDCT itself.
static inline int ck_dc_2x2_exact(int dc, int q) {
  int product = dc * q;
  return product >= -2048 && product <= 2047;
}

static int ck_decompress_eighth(j_decompress_ptr cinfo, JSAMPIMAGE output_buf) {
  ck_ac_skipping_decoder *d = (ck_ac_skipping_decoder *)(void *)cinfo->entropy;
  const ck_inverse_dct_interface *idct = (const ck_inverse_dct_interface *)(const void *)cinfo->idct;
  const JSAMPLE *range_limit = cinfo->sample_range_limit + CENTERJSAMPLE;
  JDIMENSION last_MCU_col = cinfo->MCUs_per_row - 1;
  JDIMENSION last_iMCU_row = cinfo->total_iMCU_rows - 1;
  int last_row = cinfo->input_iMCU_row >= last_iMCU_row;
  // jdcoefct.c's start_iMCU_row: an interleaved scan has one MCU row per iMCU row, a single component's scan one
  // per block row of the component.
  const jpeg_component_info *first = cinfo->cur_comp_info[0];
  int MCU_rows = cinfo->comps_in_scan > 1 ? 1 : last_row ? first->last_row_height : first->v_samp_factor;
  JBLOCK blocks[D_MAX_BLOCKS_IN_MCU];
  JBLOCKROW mcu[D_MAX_BLOCKS_IN_MCU];
  for (int b = 0; b < d->blocks; b++) mcu[b] = &blocks[b];
  for (int yoffset = 0; yoffset < MCU_rows; yoffset++) {
    for (JDIMENSION column = 0; column <= last_MCU_col; column++) {
      // Blocks that go to libjpeg's IDCT must be zero where nothing is decoded, as decompress_onepass leaves them;
      // a one-pixel block reads only its DC, which ck_decode_mcu_blocks writes (or which is 0 if it decodes none).
      for (int b = 0; b < d->blocks; b++) {
        if (!d->plan[b].one_pixel) memset(blocks[b], 0, sizeof(JBLOCK));
      }
      int decoded = ck_decode_mcu_blocks(cinfo, d, mcu);
      int b = 0;
      for (int ci = 0; ci < cinfo->comps_in_scan; ci++) {
        jpeg_component_info *compptr = cinfo->cur_comp_info[ci];
        if (!compptr->component_needed) {
          b += compptr->MCU_blocks;
          continue;
        }
        int scaled = compptr->DCT_scaled_size;
        int useful_width = column < last_MCU_col ? compptr->MCU_width : compptr->last_col_width;
        JSAMPARRAY rows = output_buf[compptr->component_index] + yoffset * scaled;
        JDIMENSION start = column * (JDIMENSION)compptr->MCU_sample_width;
        // What jpeg_idct_1x1 reads from dct_table, checked at installation.
        int quantizer = compptr->quant_table->quantval[0];
        for (int y = 0; y < compptr->MCU_height; y++, b += compptr->MCU_width, rows += scaled) {
          if (last_row && yoffset + y >= compptr->last_row_height) continue;  // dummy blocks below the picture
          if (scaled == 1) {
            for (int x = 0; x < useful_width; x++) {
              rows[0][start + (JDIMENSION)x] = ck_dc_pixel(range_limit, decoded ? blocks[b + x][0] : 0, quantizer);
            }
          } else {
            ck_inverse_dct_method inverse = idct->inverse_DCT[compptr->component_index];
            for (int x = 0; x < useful_width; x++) {
              inverse(cinfo, compptr, blocks[b + x], rows, start + (JDIMENSION)(x * scaled));
            }
          }
        }
      }
    }
  }
  // decompress_onepass's end of an iMCU row.
  cinfo->output_iMCU_row++;
  if (++cinfo->input_iMCU_row < cinfo->total_iMCU_rows) return JPEG_ROW_COMPLETED;
  (*((ck_input_interface *)(void *)cinfo->inputctl)->finish_input_pass)(cinfo);
  return JPEG_SCAN_COMPLETED;
}

// Whether the output spans the whole picture: not cropped with jpeg_crop_scanline (CropKit never crops in
// libjpeg), whose first column is not 0. Both of CropKit's output passes write from column 0.
static int ck_output_uncropped(j_decompress_ptr cinfo) {
  JDIMENSION full_width =
      (JDIMENSION)(((unsigned long)cinfo->image_width * (unsigned long)cinfo->min_DCT_scaled_size + DCTSIZE - 1) /
                   DCTSIZE);
  return cinfo->output_width == full_width;
}

// The quantizer libjpeg's 1×1 and 2×2 IDCTs multiply a DC coefficient by, or -1 when it cannot be known here.
// They multiply by dct_table[0], of jdct.h's ISLOW_MULT_TYPE: short or int, depending on how libjpeg was built, and
// in either a quantizer of at most 32767 is the quantization table's own, read back here as its low 16 bits.
static int ck_dc_quantizer(const jpeg_component_info *comp) {
  if (comp->dct_table == NULL || comp->quant_table == NULL) return -1;
  unsigned int q = comp->quant_table->quantval[0];
  int16_t low;
  memcpy(&low, comp->dct_table, sizeof low);
  return q <= 32767 && low == (int16_t)q ? (int)q : -1;
}

// Installs ck_decompress_eighth when some component is output one pixel per block and libjpeg's IDCT table holds
// what ck_decompress_eighth multiplies by (ck_dc_quantizer). Returns 1 when installed.
static int ck_install_eighth_output(j_decompress_ptr cinfo, ck_ac_skipping_decoder *d) {
  ck_coefficient_interface *coef = (ck_coefficient_interface *)(void *)cinfo->coef;
  if (coef == NULL || coef->decompress_data == NULL || cinfo->idct == NULL || cinfo->inputctl == NULL) return 0;
  if (!ck_output_uncropped(cinfo)) return 0;
  int one_pixel = 0;
  for (int b = 0; b < d->blocks; b++) {
    if (!d->plan[b].one_pixel) continue;
    one_pixel = 1;
    if (ck_dc_quantizer(cinfo->cur_comp_info[d->plan[b].component]) < 0) return 0;
  }
  if (!one_pixel) return 0;
  coef->decompress_data = ck_decompress_eighth;
  return 1;
}

// Plans the scan's blocks and builds the tables they use; resets the bit reader and the DC predictions.
static void ck_start_pass(j_decompress_ptr cinfo) {
  ck_ac_skipping_decoder *d = (ck_ac_skipping_decoder *)(void *)cinfo->entropy;
  d->blocks = cinfo->blocks_in_MCU;
  for (int b = 0; b < cinfo->blocks_in_MCU; b++) {
    int ci = cinfo->MCU_membership[b];
    const jpeg_component_info *comp = cinfo->cur_comp_info[ci];
    int dc_table = comp->dc_tbl_no, ac_table = comp->ac_tbl_no;
    if (dc_table < 0 || dc_table >= NUM_HUFF_TBLS || cinfo->dc_huff_tbl_ptrs[dc_table] == NULL)
      ERREXIT1(cinfo, JERR_NO_HUFF_TABLE, dc_table);
    if (ac_table < 0 || ac_table >= NUM_HUFF_TBLS || cinfo->ac_huff_tbl_ptrs[ac_table] == NULL)
      ERREXIT1(cinfo, JERR_NO_HUFF_TABLE, ac_table);
    if (!d->dc_built[dc_table]) {
      ck_build_code(cinfo, &d->dc_codes[dc_table].code, cinfo->dc_huff_tbl_ptrs[dc_table]);
      ck_build_differences(&d->dc_codes[dc_table]);
      d->dc_built[dc_table] = 1;
    }
    int decode_ac = !d->dc_only && comp->component_needed && comp->DCT_scaled_size > 1;
    int *built = &d->ac_built[ac_table];
    if (!(*built & CK_BUILT_CODE)) {
      ck_build_code(cinfo, &d->ac_codes[ac_table].code, cinfo->ac_huff_tbl_ptrs[ac_table]);
      *built |= CK_BUILT_CODE;
    }
    if (decode_ac && !(*built & CK_BUILT_PAIRS)) {
      ck_build_pairs(&d->ac_codes[ac_table]);
      *built |= CK_BUILT_PAIRS;
    } else if (!decode_ac && !(*built & CK_BUILT_SKIP)) {
      ck_build_skip(&d->ac_codes[ac_table]);
      *built |= CK_BUILT_SKIP;
    }
    d->plan[b].dc = &d->dc_codes[dc_table];
    d->plan[b].ac = &d->ac_codes[ac_table];
    d->plan[b].component = ci;
    d->plan[b].decode_ac = decode_ac;
    d->plan[b].one_pixel = comp->DCT_scaled_size == 1;
  }
  ck_reset_scan(cinfo, &d->scan);
}

int ck_install_ac_skipping_decoder(j_decompress_ptr cinfo, int dc_only) {
  if (cinfo->progressive_mode || cinfo->arith_code || cinfo->data_precision != 8 || cinfo->buffered_image) return 0;
  if (cinfo->comps_in_scan < 1 || cinfo->comps_in_scan != cinfo->num_components) return 0;
  if (cinfo->comps_in_scan > MAX_COMPS_IN_SCAN || cinfo->blocks_in_MCU > D_MAX_BLOCKS_IN_MCU) return 0;
  if (cinfo->entropy == NULL || cinfo->input_iMCU_row != 0 || cinfo->output_scanline != 0) return 0;
  ck_ac_skipping_decoder *d = (ck_ac_skipping_decoder *)(*cinfo->mem->alloc_small)(
      (j_common_ptr)cinfo, JPOOL_IMAGE, sizeof(ck_ac_skipping_decoder));
  memset(d, 0, offsetof(ck_ac_skipping_decoder, dc_codes));  // the tables are written whole when built
  d->scan.pub.start_pass = ck_start_pass;
  d->scan.pub.decode_mcu = ck_decode_mcu;
  d->dc_only = dc_only;
  cinfo->entropy = (struct jpeg_entropy_decoder *)(void *)d;
  ck_start_pass(cinfo);
  return CK_OWN_ENTROPY | (ck_install_eighth_output(cinfo, d) ? CK_OWN_OUTPUT : 0);
}

// MARK: - Progressive DC-first scans

// A progressive file's first DC scan (Ss = Se = 0, Ah = 0) holds each block's DC difference alone, and in a
// thumbnail's DC-only decode (CK_JPEG_EARLY_STOP_DC) it is most of what is read. Camera and mozjpeg files give each
// component its own DC scan, one block per MCU, where libjpeg's coefficient controller and decode_mcu_DC_first spend
// most of their time setting up, loading and saving state around a single code. This decoder reads those scans with
// the sequential decoder's bit reader and code tables, consuming each byte where libjpeg would (see
// CK_JPEG_MIN_GET_BITS), and with the DC store's values at hand a whole iMCU row per call, written straight into
// them. The same decoder reads AC scans (see "Progressive AC scans" below) when asked to. Every other scan, and each
// scan's checks (libjpeg's start_pass validates the scan parameters and warns on a bogus progression), stay
// libjpeg's: cinfo->entropy is this decoder, and libjpeg's own is called with cinfo->entropy pointing back at it.
typedef struct {
  ck_scan_state scan;  // first, so that cinfo->entropy points at it
  ck_entropy_interface *libjpeg;
  int (*libjpeg_consume)(j_decompress_ptr cinfo);  // the coefficient controller's consume_data
  int own;         // DC-first scans are read by CropKit's decoder (else by libjpeg's)
  int has_values;  // the DC store's values: DC-first scans go straight into them, AC scans are passed over
  ck_dc_values values[MAX_COMPONENTS];
  int controller_wrote;  // a scan since the last write-back went through the coefficient controller (and the window)
  int quantizer[MAX_COMPONENTS];  // each component's DC quantizer, for the output pass (ck_decompress_dc)
  int blocks;
  int al;  // the point transform: each DC is stored shifted left by it
  const ck_huffman_code *dc[D_MAX_BLOCKS_IN_MCU];
  int component[D_MAX_BLOCKS_IN_MCU];  // index in cur_comp_info
  int ac_own;            // AC scans (first and refinement) are read by CropKit's decoder (else by libjpeg's)
  int zigzag_built;      // zigzag_bits is built (at the first refinement scan)
  unsigned int eobrun;   // an AC scan's blocks left in its end-of-band run
  ck_huffman_code dc_codes[NUM_HUFF_TBLS];
  ck_huffman_code ac_code;  // the AC scan's table
  int32_t ac_values[1 << CK_AC_VALUE_BITS];  // an AC first scan's: code and value bits together (CK_AC_VALUE_*)
  // For the byte of nonzero flags of natural positions 8j...8j+7, the zigzag positions they are (bit k for position
  // k): built at the first refinement scan (see ck_band_nonzero).
  uint64_t zigzag_bits[8][256];
} ck_dc_first_decoder;

// A DC-first scan's bits are read exactly as libjpeg reads them (jdhuff.c's jpeg_fill_bit_buffer and
// HUFF_DECODE): bytes are loaded only when fewer bits are left than the next step needs, then until at least 57 are
// held, and zero bits are made up only when a marker has ended the data and more bits are needed (warning once,
// JWRN_HIT_MARKER). So every byte is consumed where libjpeg consumes it, and stray bytes before the next marker are
// counted, and warned about, as libjpeg counts them: the strict outcome of a damaged file is libjpeg's.
#define CK_JPEG_MIN_GET_BITS 57

// jpeg_fill_bit_buffer byte by byte (a 0xFF among the next 8 bytes, or the buffer's end): at least
// CK_JPEG_MIN_GET_BITS bits unless a marker ends the data; then, if fewer than `nbits` are left, zeros up to
// CK_JPEG_MIN_GET_BITS. Works on the scan's copy of the reader (see ck_refill_slow).
static __attribute__((noinline)) void ck_fill_as_libjpeg_slow(j_decompress_ptr cinfo, ck_scan_state *scan,
                                                              int nbits) {
  ck_reader *r = &scan->reader;
  ck_clear_below_count(r);
  while (r->count < CK_JPEG_MIN_GET_BITS) {
    int c = ck_next_data_byte(cinfo, r);
    if (c < 0) break;
    r->buffer |= (uint64_t)c << (56 - r->count);
    r->count += 8;
  }
  ck_reader_limit(r, cinfo);
  if (r->count < nbits) {
    if (!scan->pub.insufficient_data) {
      WARNMS(cinfo, JWRN_HIT_MARKER);
      scan->pub.insufficient_data = TRUE;
    }
    r->count = CK_JPEG_MIN_GET_BITS;  // the bits below the old count are zero
  }
}

// jpeg_fill_bit_buffer: whole bytes up to 57…64 bits, 8 at a time when none is 0xFF (fast_limit is 0 once a marker
// is seen), else through ck_fill_as_libjpeg_slow. `r` stays in registers.
#define CK_FILL_AS_LIBJPEG(r, nbits)                                    \
  do {                                                                  \
    if (CK_LIKELY((uintptr_t)(r).next <= (r).fast_limit)) {            \
      uint64_t w_ = ck_load_be64((r).next);                             \
      if (CK_LIKELY(!ck_has_ff(w_))) {                                  \
        int bytes_ = (64 - (r).count) >> 3;                             \
        (r).buffer |= w_ >> (r).count;                                  \
        (r).next += bytes_;                                             \
        (r).count += 8 * bytes_;                                        \
        break;                                                          \
      }                                                                 \
    }                                                                   \
    scan->reader = (r);                                                 \
    ck_fill_as_libjpeg_slow(cinfo, scan, (nbits));                      \
    (r) = scan->reader;                                                 \
  } while (0)

#define CK_GET_BITS(r, n, v) ((v) = (uint32_t)((r).buffer >> (64 - (n))), CK_DROP(r, n))

// HUFF_DECODE as libjpeg reads it: a lookahead of 8 bits (loaded when fewer are left, without zeros past a marker),
// then a longer code bit by bit as jpeg_huff_decode reads it (9 bits first), a code longer than 16 bits read as
// symbol 0 with a warning. Every byte is consumed where libjpeg consumes it.
static inline __attribute__((always_inline)) int ck_huff_decode_as_libjpeg(j_decompress_ptr cinfo,
                                                                            ck_scan_state *scan, ck_reader *reader,
                                                                            const ck_huffman_code *code) {
  ck_reader r = *reader;
  int symbol, min_bits = 9;
  if (CK_UNLIKELY(r.count < 8)) {
    CK_FILL_AS_LIBJPEG(r, 0);
    if (r.count < 8) min_bits = 1;
  }
  unsigned int e = min_bits == 9 ? code->lookup[r.buffer >> (64 - CK_LOOKAHEAD)] : 0;
  if (CK_LIKELY(e != 0 && (e & 31) <= 8)) {
    CK_DROP(r, e & 31);
    symbol = (int)(e >> 5);
  } else {
    if (r.count < min_bits) CK_FILL_AS_LIBJPEG(r, min_bits);
    uint32_t bits;
    CK_GET_BITS(r, min_bits, bits);
    int32_t value = (int32_t)bits;
    int length = min_bits;
    while (value > code->maxcode[length]) {  // maxcode[17] ends it
      if (r.count < 1) CK_FILL_AS_LIBJPEG(r, 1);
      CK_GET_BITS(r, 1, bits);
      value = value << 1 | (int32_t)bits;
      length++;
    }
    if (length > 16) {
      WARNMS(cinfo, JWRN_HUFF_BAD_CODE);
      symbol = 0;
    } else {
      symbol = code->values[(value + code->valoffset[length]) & 0xFF];
    }
  }
  *reader = r;
  return symbol;
}

// The libjpeg process_restart of a DC-first scan, through libjpeg's own marker reader: the whole bytes left in the
// bit buffer join its count of discarded bytes, which it reports with the next marker it looks for.
typedef struct {
  void (*reset_marker_reader)(j_decompress_ptr cinfo);
  int (*read_markers)(j_decompress_ptr cinfo);
  jpeg_marker_parser_method read_restart_marker;
  boolean saw_SOI;
  boolean saw_SOF;
  int next_restart_num;
  unsigned int discarded_bytes;
} ck_marker_interface;

static void ck_restart_as_libjpeg(j_decompress_ptr cinfo, ck_scan_state *scan) {
  ck_marker_interface *marker = (ck_marker_interface *)(void *)cinfo->marker;
  marker->discarded_bytes += (unsigned int)scan->reader.count / 8;
  scan->reader.buffer = 0;
  scan->reader.count = 0;
  scan->reader.padding = 0;
  if (!(*marker->read_restart_marker)(cinfo)) ERREXIT(cinfo, JERR_CANT_SUSPEND);
  for (int ci = 0; ci < MAX_COMPS_IN_SCAN; ci++) scan->last_dc[ci] = 0;
  scan->restarts_to_go = cinfo->restart_interval;
  if (cinfo->unread_marker == 0) scan->pub.insufficient_data = FALSE;
}

// One MCU of a DC-first scan: jdphuff.c's decode_mcu_DC_first, including its refusal of a DC sum past the range of
// int (JERR_BAD_DCT_COEF), each block's value written to *out[b]. `reader` is the caller's copy, whose next/end
// the source manager does not see until the caller stores them; `last_dc` the DC predictions, the scan's or, for a
// scan of one component (`single`, a constant once inlined), the caller's own, which then stays in a register.
// Inlined into both entry points.
static inline __attribute__((always_inline)) void ck_dc_first_mcu(j_decompress_ptr cinfo, ck_dc_first_decoder *d,
                                                                  ck_reader *reader, JCOEF *const *out,
                                                                  int *last_dc, unsigned int restart_interval,
                                                                  const int single) {
  ck_scan_state *scan = &d->scan;
  if (restart_interval != 0 && scan->restarts_to_go == 0) {
    ck_reader_give(cinfo, reader);
    scan->reader = *reader;
    ck_restart_as_libjpeg(cinfo, scan);
    if (single) last_dc[0] = 0;
    *reader = ck_reader_take(cinfo, scan->reader);
  }
  if (!scan->pub.insufficient_data) {
    ck_reader r = *reader;
    const int blocks = single ? 1 : d->blocks;
    for (int b = 0; b < blocks; b++) {
      int symbol = ck_huff_decode_as_libjpeg(cinfo, scan, &r, d->dc[b]);
      int size = symbol & 15, difference = 0;  // libjpeg refuses DC symbols past 15; the mask keeps shifts defined
      if (size != 0) {
        if (r.count < size) CK_FILL_AS_LIBJPEG(r, size);
        difference = ck_extend(r.buffer, size);
        CK_DROP(r, size);
      }
      int *last = &last_dc[single ? 0 : d->component[b]];
      if (__builtin_add_overflow(*last, difference, last)) ERREXIT(cinfo, JERR_BAD_DCT_COEF);
      *out[b] = (JCOEF)((unsigned int)*last << d->al);
    }
    *reader = r;
  }
  scan->restarts_to_go--;
}

// MARK: - Progressive AC scans

// An AC refinement scan (Ss > 0, Ah > 0) adds one bit of precision to a band of one component's coefficients: a
// correction bit for each coefficient already nonzero, and the sign of each that becomes nonzero, placed by runs of the
// coefficients still zero. libjpeg's decode_mcu_AC_refine walks the band one coefficient at a time and branches on
// each being zero, which on a photo's chroma is about 100 ns a block, most of a refinement scan. This reader keeps
// the band's nonzero coefficients as a bit mask in zigzag order: a run lands on its zero by clearing the mask's lowest
// zeros, and the correction bits of the nonzero coefficients passed over are read together and applied by walking the
// mask's set bits. It reads every bit, and loads every byte, where libjpeg does (each correction bit is one
// CHECK_BIT_BUFFER(1), so a run of them loads bytes only when the buffer is empty), and keeps its handling of damaged
// data: a size other than 1 warns, a run past the band's end puts the new coefficient at the position after Se
// (position 63 past the block's end), and once the data has run out the rest of the restart interval is left as is.

static void ck_build_zigzag_bits(uint64_t table[8][256]) {
  int zigzag[DCTSIZE2];
  for (int k = 0; k < DCTSIZE2; k++) zigzag[ck_natural_order[k]] = k;
  for (int j = 0; j < 8; j++) {
    for (int flags = 0; flags < 256; flags++) {
      uint64_t bits = 0;
      for (int i = 0; i < 8; i++) {
        if (flags >> i & 1) bits |= (uint64_t)1 << zigzag[8 * j + i];
      }
      table[j][flags] = bits;
    }
  }
}

// The nonzero coefficients of `block`, bit k for zigzag position k: each row of eight as a byte of flags (with SSE2
// two rows per compare, pack and mask move), turned into zigzag bits by one lookup.
static inline uint64_t ck_band_nonzero(const JCOEF *block, const uint64_t table[8][256]) {
  uint64_t mask = 0;
#if (defined(__x86_64__) || defined(_M_X64)) && !defined(CROPKIT_PORTABLE)
  const __m128i zero = _mm_setzero_si128();
  for (int j = 0; j < 8; j += 2) {
    __m128i upper = _mm_loadu_si128((const __m128i *)(const void *)(block + 8 * j));
    __m128i lower = _mm_loadu_si128((const __m128i *)(const void *)(block + 8 * j + 8));
    __m128i zeros = _mm_packs_epi16(_mm_cmpeq_epi16(upper, zero), _mm_cmpeq_epi16(lower, zero));
    unsigned int flags = ~(unsigned int)_mm_movemask_epi8(zeros);
    mask |= table[j][flags & 0xFF] | table[j + 1][flags >> 8 & 0xFF];
  }
#else
  for (int j = 0; j < 8; j++) {
    unsigned int flags = 0;
    for (int i = 0; i < 8; i++) flags |= (unsigned int)(block[8 * j + i] != 0) << i;
    mask |= table[j][flags];
  }
#endif
  return mask;
}

// `n` bits (0...63), first bit highest, read as `n` CHECK_BIT_BUFFER(1) + GET_BITS(1): the buffer is loaded only when
// it is empty.
static inline __attribute__((always_inline)) uint64_t ck_bits_one_at_a_time(j_decompress_ptr cinfo,
                                                                            ck_scan_state *scan, ck_reader *reader,
                                                                            int n) {
  ck_reader r = *reader;
  uint64_t value = 0;
  while (n > 0) {
    if (CK_UNLIKELY(r.count == 0)) CK_FILL_AS_LIBJPEG(r, 1);
    int take = n < r.count ? n : r.count;
    value = value << take | r.buffer >> (64 - take);
    CK_DROP(r, take);
    n -= take;
  }
  *reader = r;
  return value;
}

// The correction bits of the nonzero coefficients in `passed` (zigzag positions), in order: a 1 adds one at the
// scan's bit position to the magnitude of a coefficient that does not have it yet.
static inline __attribute__((always_inline)) void ck_correct(j_decompress_ptr cinfo, ck_scan_state *scan,
                                                             ck_reader *reader, JCOEF *block, uint64_t passed,
                                                             int p1) {
  int n = __builtin_popcountll(passed);
  if (n == 0) return;
  uint64_t bits = ck_bits_one_at_a_time(cinfo, scan, reader, n);
  bits <<= 64 - n;  // the first bit at the top
  for (; passed != 0; passed &= passed - 1, bits <<= 1) {
    if (!(bits >> 63)) continue;
    JCOEF *coefficient = &block[ck_natural_order[__builtin_ctzll(passed)]];
    if ((*coefficient & p1) == 0) *coefficient = (JCOEF)(*coefficient >= 0 ? *coefficient + p1 : *coefficient - p1);
  }
}

// An AC scan's MCU starts with libjpeg's process_restart when its restart interval is done (which also ends the
// end-of-band run).
static inline void ck_ac_restart_if_due(j_decompress_ptr cinfo, ck_dc_first_decoder *d) {
  if (cinfo->restart_interval != 0 && d->scan.restarts_to_go == 0) {
    ck_restart_as_libjpeg(cinfo, &d->scan);
    d->eobrun = 0;
  }
}

// The blocks an end-of-band symbol EOBr covers, this one included: 2^run plus `run` more bits (one check for them
// all, as libjpeg's CHECK_BIT_BUFFER(r)).
static inline __attribute__((always_inline)) unsigned int ck_end_of_band_run(j_decompress_ptr cinfo,
                                                                             ck_scan_state *scan, ck_reader *reader,
                                                                             int run) {
  unsigned int blocks = 1u << run;
  if (run != 0) {
    ck_reader r = *reader;
    if (r.count < run) CK_FILL_AS_LIBJPEG(r, run);
    uint32_t extra;
    CK_GET_BITS(r, run, extra);
    blocks += extra;
    *reader = r;
  }
  return blocks;
}

// An AC first scan (Ss > 0, Ah = 0) codes a band of one component's coefficients as runs of zeros and values, as a
// sequential scan codes its AC, plus runs of blocks whose band is all zero (EOBr). libjpeg looks up each code in an
// 8-bit table, then reads the value bits; here most symbols take one lookup of a 12-bit window that gives the code's
// length, the run and the value together (the sequential decoder's table). That lookup is taken only where libjpeg
// would not load bytes in between (at least 8 bits held, and the code and value bits), so every byte is loaded where
// libjpeg loads it; anything else (an end of band, a long code, a buffer nearly empty) is read as libjpeg reads it.
// A run past the band's end writes where libjpeg writes (up to 15 positions past it, position 63 past the block).
static boolean ck_decode_ac_first(j_decompress_ptr cinfo, JBLOCKROW *MCU_data) {
  ck_dc_first_decoder *d = (ck_dc_first_decoder *)(void *)cinfo->entropy;
  ck_scan_state *scan = &d->scan;
  ck_ac_restart_if_due(cinfo, d);
  if (!scan->pub.insufficient_data) {
    if (d->eobrun > 0) {
      d->eobrun--;
    } else {
      const int se = cinfo->Se, al = cinfo->Al;
      JCOEF *block = MCU_data[0][0];
      ck_reader r = ck_reader_take(cinfo, scan->reader);
      for (int k = cinfo->Ss; k <= se; k++) {
        int32_t e = d->ac_values[r.buffer >> (64 - CK_AC_VALUE_BITS)];
        int used = e & 31;
        if (CK_LIKELY(e != 0 && !(e & CK_AC_VALUE_END) && r.count >= 8 && used <= r.count)) {
          CK_DROP(r, used);
          k += (e >> 5) & 15;
          int value = e >> 16;  // 0 for ZRL, sixteen zeros
          if (value != 0) block[ck_natural_order[k]] = (JCOEF)((unsigned int)value << al);
          continue;
        }
        int symbol = ck_huff_decode_as_libjpeg(cinfo, scan, &r, &d->ac_code);
        int run = symbol >> 4, size = symbol & 15;
        if (size != 0) {
          k += run;
          if (r.count < size) CK_FILL_AS_LIBJPEG(r, size);
          int value = ck_extend(r.buffer, size);
          CK_DROP(r, size);
          block[ck_natural_order[k]] = (JCOEF)((unsigned int)value << al);
        } else if (run == 15) {
          k += 15;
        } else {  // an end of band: this block's rest, and more blocks
          d->eobrun = ck_end_of_band_run(cinfo, scan, &r, run) - 1;
          break;
        }
      }
      ck_reader_give(cinfo, &r);
      scan->reader = r;
    }
  }
  scan->restarts_to_go--;
  return TRUE;
}

static boolean ck_decode_ac_refine(j_decompress_ptr cinfo, JBLOCKROW *MCU_data) {
  ck_dc_first_decoder *d = (ck_dc_first_decoder *)(void *)cinfo->entropy;
  ck_scan_state *scan = &d->scan;
  ck_ac_restart_if_due(cinfo, d);
  if (!scan->pub.insufficient_data) {
    const int ss = cinfo->Ss, se = cinfo->Se, p1 = 1 << cinfo->Al;
    JCOEF *block = MCU_data[0][0];
    const uint64_t band = (~(uint64_t)0 >> (63 - se)) & (~(uint64_t)0 << ss);
    const uint64_t nonzero = ck_band_nonzero(block, d->zigzag_bits) & band;
    ck_reader r = ck_reader_take(cinfo, scan->reader);
    unsigned int eobrun = d->eobrun;
    int k = ss;
    if (eobrun == 0) {
      for (; k <= se; k++) {
        int symbol = ck_huff_decode_as_libjpeg(cinfo, scan, &r, &d->ac_code);
        int run = symbol >> 4, size = symbol & 15, value = 0;
        if (size != 0) {
          if (size != 1) WARNMS(cinfo, JWRN_HUFF_BAD_CODE);  // a new coefficient's size is always 1
          value = ck_bits_one_at_a_time(cinfo, scan, &r, 1) ? p1 : -p1;
        } else if (run != 15) {  // an end of band: this block's rest, and more blocks
          eobrun = ck_end_of_band_run(cinfo, scan, &r, run);
          break;
        }
        // Past the nonzero coefficients (a correction bit each) and `run` zeros, to the next zero: the new
        // coefficient's place (ZRL, size 0, passes sixteen zeros). Without that many zeros, past Se.
        uint64_t zeros = ~nonzero & band & (~(uint64_t)0 << k);
        int target = se + 1;
        if (__builtin_popcountll(zeros) > run) {
          for (int i = 0; i < run; i++) zeros &= zeros - 1;
          target = __builtin_ctzll(zeros);
        }
        uint64_t before_target = target == 64 ? ~(uint64_t)0 : ~(~(uint64_t)0 << target);
        uint64_t passed = nonzero & (~(uint64_t)0 << k) & before_target;
        ck_correct(cinfo, scan, &r, block, passed, p1);
        k = target;
        if (value != 0) block[ck_natural_order[k]] = (JCOEF)value;
      }
    }
    if (eobrun > 0) {
      // The band's rest: a correction bit for each nonzero coefficient.
      if (k <= se) ck_correct(cinfo, scan, &r, block, nonzero & (~(uint64_t)0 << k), p1);
      eobrun--;
    }
    ck_reader_give(cinfo, &r);
    scan->reader = r;
    d->eobrun = eobrun;
  }
  scan->restarts_to_go--;
  return TRUE;
}

// libjpeg's decode_mcu entry point, for files without the DC store.
static boolean ck_decode_dc_first(j_decompress_ptr cinfo, JBLOCKROW *MCU_data) {
  ck_dc_first_decoder *d = (ck_dc_first_decoder *)(void *)cinfo->entropy;
  ck_reader r = ck_reader_take(cinfo, d->scan.reader);
  JCOEF *out[D_MAX_BLOCKS_IN_MCU];
  for (int b = 0; b < d->blocks; b++) out[b] = &MCU_data[b][0][0];
  ck_dc_first_mcu(cinfo, d, &r, out, d->scan.last_dc, cinfo->restart_interval, 0);
  ck_reader_give(cinfo, &r);
  d->scan.reader = r;
  return TRUE;
}

// The coefficient controller's consume_data for a DC-first scan with the DC store: one iMCU row of MCUs, in
// jdcoefct.c's order (an interleaved scan has one MCU row per iMCU row, dummy blocks included; a single component's
// scan has v_samp_factor block rows of one block per MCU, fewer in the last iMCU row).
static int ck_consume_dc_first(j_decompress_ptr cinfo) {
  ck_dc_first_decoder *d = (ck_dc_first_decoder *)(void *)cinfo->entropy;
  const int interleaved = cinfo->comps_in_scan > 1;
  const jpeg_component_info *first = cinfo->cur_comp_info[0];
  int MCU_rows = interleaved ? 1
                 : cinfo->input_iMCU_row < cinfo->total_iMCU_rows - 1 ? first->v_samp_factor
                                                                         : first->last_row_height;
  ck_reader r = ck_reader_take(cinfo, d->scan.reader);
  JCOEF *out[D_MAX_BLOCKS_IN_MCU];
  int step[D_MAX_BLOCKS_IN_MCU];
  for (int yoffset = 0; yoffset < MCU_rows; yoffset++) {
    // Each block's place for the MCU at column 0; the next MCU's is its component's MCU_width further.
    int b = 0;
    for (int ci = 0; ci < cinfo->comps_in_scan; ci++) {
      const jpeg_component_info *comp = cinfo->cur_comp_info[ci];
      const ck_dc_values *values = &d->values[comp->component_index];
      size_t row = (size_t)cinfo->input_iMCU_row * (size_t)comp->v_samp_factor + (size_t)yoffset;
      for (int y = 0; y < comp->MCU_height; y++) {
        for (int x = 0; x < comp->MCU_width; x++, b++) {
          out[b] = values->values + (row + (size_t)y) * values->stride + x;
          step[b] = comp->MCU_width;
        }
      }
    }
    const JDIMENSION columns = cinfo->MCUs_per_row;
    const unsigned int restart_interval = cinfo->restart_interval;
    if (!interleaved) {
      int last = d->scan.last_dc[0];
      for (JDIMENSION column = 0; column < columns; column++) {
        ck_dc_first_mcu(cinfo, d, &r, out, &last, restart_interval, 1);
        out[0]++;
      }
      d->scan.last_dc[0] = last;
    } else {
      for (JDIMENSION column = 0; column < columns; column++) {
        ck_dc_first_mcu(cinfo, d, &r, out, d->scan.last_dc, restart_interval, 0);
        for (int k = 0; k < d->blocks; k++) out[k] += step[k];
      }
    }
  }
  ck_reader_give(cinfo, &r);
  d->scan.reader = r;
  // consume_data's end of an iMCU row (start_iMCU_row's counters are the coefficient controller's own, which the
  // next scan's start_input_pass resets; block smoothing, which reads last_good_iMCU_row, is off in CropKit).
  if (++cinfo->input_iMCU_row < cinfo->total_iMCU_rows) return JPEG_ROW_COMPLETED;
  (*((ck_input_interface *)(void *)cinfo->inputctl)->finish_input_pass)(cinfo);
  return JPEG_SCAN_COMPLETED;
}

// The consume_data of an AC scan (Ss > 0) in the DC-only early stop, which keeps no AC coefficient: the scan's data
// is passed over, unread, to the next marker that is not a restart marker. Reading it would be wasted, and wrong
// for a refinement scan, which reads a correction bit for each coefficient its first scan made nonzero: without
// those coefficients it reads fewer bits and leaves some behind ("extraneous bytes", a corrupt-data warning, which
// fails a strict decode), as libjpeg did on every file of its own default script (DC refined after the AC scans).
static int ck_pass_over_scan(j_decompress_ptr cinfo) {
  struct jpeg_source_mgr *src = cinfo->src;
  for (;;) {
    if (src->bytes_in_buffer == 0 && !(*src->fill_input_buffer)(cinfo)) ERREXIT(cinfo, JERR_CANT_SUSPEND);
    const JOCTET *ff = (const JOCTET *)memchr(src->next_input_byte, 0xFF, src->bytes_in_buffer);
    if (ff == NULL) {
      src->next_input_byte += src->bytes_in_buffer;
      src->bytes_in_buffer = 0;
      continue;
    }
    src->bytes_in_buffer -= (size_t)(ff - src->next_input_byte) + 1;
    src->next_input_byte = ff + 1;
    int c;
    do c = ck_source_byte(cinfo);
    while (c == 0xFF);
    if (c != 0 && (c < JPEG_RST0 || c > JPEG_RST0 + 7)) {
      cinfo->unread_marker = c;  // the source's end reads as EOI, as anywhere else
      break;
    }
  }
  cinfo->input_iMCU_row = cinfo->total_iMCU_rows;
  (*((ck_input_interface *)(void *)cinfo->inputctl)->finish_input_pass)(cinfo);
  return JPEG_SCAN_COMPLETED;
}

// Any other scan: libjpeg's decoder, which finds its own state at cinfo->entropy.
static boolean ck_decode_libjpeg(j_decompress_ptr cinfo, JBLOCKROW *MCU_data) {
  ck_dc_first_decoder *d = (ck_dc_first_decoder *)(void *)cinfo->entropy;
  cinfo->entropy = (struct jpeg_entropy_decoder *)(void *)d->libjpeg;
  boolean done = (*d->libjpeg->decode_mcu)(cinfo, MCU_data);
  cinfo->entropy = (struct jpeg_entropy_decoder *)(void *)d;
  return done;
}

// Makes the DC store hold every value before CropKit reads or writes its arrays directly: a scan read through the
// coefficient controller may have left newer values in the store's window, written back only when the window moves
// (a read-only access of one row moves it).
static void ck_write_back_window(j_decompress_ptr cinfo, ck_dc_first_decoder *d) {
  if (!d->controller_wrote) return;
  for (int ci = 0; ci < cinfo->num_components; ci++) {
    (void)(*cinfo->mem->access_virt_barray)((j_common_ptr)cinfo, d->values[ci].array, 0, 1, FALSE);
  }
  d->controller_wrote = 0;
}

// After libjpeg's start_pass for the scan: a DC-first scan is read by CropKit's decoder (when `own`), an AC scan is
// passed over (with the DC store), any other is libjpeg's. Runs before jdinput.c's start_input_pass copies the
// coefficient controller's consume_data into consume_input.
static void ck_plan_progressive_scan(j_decompress_ptr cinfo, ck_dc_first_decoder *d) {
  ck_coefficient_interface *coef = (ck_coefficient_interface *)(void *)cinfo->coef;
  ck_reset_scan(cinfo, &d->scan);
  d->scan.pub.decode_mcu = ck_decode_libjpeg;
  coef->consume_data = d->libjpeg_consume;
  if (cinfo->Ss != 0 && d->has_values) {
    coef->consume_data = ck_pass_over_scan;
    return;
  }
  if (cinfo->Ss != 0 && d->ac_own && cinfo->comps_in_scan == 1) {
    int table = cinfo->cur_comp_info[0]->ac_tbl_no;
    // libjpeg's start_pass has refused a missing table; checked again so that no index goes out of bounds.
    if (table < 0 || table >= NUM_HUFF_TBLS || cinfo->ac_huff_tbl_ptrs[table] == NULL)
      ERREXIT1(cinfo, JERR_NO_HUFF_TABLE, table);
    ck_build_code(cinfo, &d->ac_code, cinfo->ac_huff_tbl_ptrs[table]);
    d->eobrun = 0;
    if (cinfo->Ah != 0) {
      if (!d->zigzag_built) ck_build_zigzag_bits(d->zigzag_bits);
      d->zigzag_built = 1;
      d->scan.pub.decode_mcu = ck_decode_ac_refine;
    } else {
      ck_build_value_table(&d->ac_code, d->ac_values);
      d->scan.pub.decode_mcu = ck_decode_ac_first;
    }
    d->controller_wrote = 1;
    return;
  }
  if (cinfo->Ss != 0 || cinfo->Ah != 0 || !d->own || cinfo->blocks_in_MCU > D_MAX_BLOCKS_IN_MCU) {
    d->controller_wrote = 1;
    return;
  }
  // A DHT segment may redefine a table between scans, so each DC-first scan builds the tables it uses.
  int built[NUM_HUFF_TBLS] = {0};
  d->blocks = cinfo->blocks_in_MCU;
  d->al = cinfo->Al;
  for (int b = 0; b < cinfo->blocks_in_MCU; b++) {
    int ci = cinfo->MCU_membership[b];
    int table = cinfo->cur_comp_info[ci]->dc_tbl_no;
    // libjpeg's start_pass has refused a missing table; checked again so that no index goes out of bounds.
    if (table < 0 || table >= NUM_HUFF_TBLS || cinfo->dc_huff_tbl_ptrs[table] == NULL)
      ERREXIT1(cinfo, JERR_NO_HUFF_TABLE, table);
    if (!built[table]) {
      ck_build_code(cinfo, &d->dc_codes[table], cinfo->dc_huff_tbl_ptrs[table]);
      built[table] = 1;
    }
    d->dc[b] = &d->dc_codes[table];
    d->component[b] = ci;
  }
  d->scan.pub.decode_mcu = ck_decode_dc_first;
  if (!d->has_values) {
    d->controller_wrote = 1;
    return;
  }
  // The values are written straight into the store.
  ck_write_back_window(cinfo, d);
  coef->consume_data = ck_consume_dc_first;
}

static void ck_start_progressive_pass(j_decompress_ptr cinfo) {
  ck_dc_first_decoder *d = (ck_dc_first_decoder *)(void *)cinfo->entropy;
  cinfo->entropy = (struct jpeg_entropy_decoder *)(void *)d->libjpeg;
  (*d->libjpeg->start_pass)(cinfo);
  cinfo->entropy = (struct jpeg_entropy_decoder *)(void *)d;
  ck_plan_progressive_scan(cinfo, d);
}

// CropKit's decoder in place of libjpeg's progressive entropy decoder (which it calls for every scan's checks and
// for the scans it leaves to libjpeg), or NULL when the file does not qualify: a progressive Huffman file of 8-bit
// samples whose first scan has not been read. `own_dc`: it reads DC-first scans; `own_ac`: AC scans.
static ck_dc_first_decoder *ck_make_progressive_decoder(j_decompress_ptr cinfo, int own_dc, int own_ac) {
  if (!cinfo->progressive_mode || cinfo->arith_code || cinfo->data_precision != 8) return NULL;
  if (cinfo->input_scan_number != 1 || cinfo->input_iMCU_row != 0) return NULL;
  if (cinfo->entropy == NULL || cinfo->coef == NULL || cinfo->inputctl == NULL) return NULL;
  if (cinfo->num_components > MAX_COMPONENTS) return NULL;
  ck_dc_first_decoder *d = (ck_dc_first_decoder *)(*cinfo->mem->alloc_small)(
      (j_common_ptr)cinfo, JPOOL_IMAGE, sizeof(ck_dc_first_decoder));
  memset(d, 0, offsetof(ck_dc_first_decoder, dc_codes));  // the tables are written whole when built
  d->libjpeg = (ck_entropy_interface *)(void *)cinfo->entropy;
  d->libjpeg_consume = ((ck_coefficient_interface *)(void *)cinfo->coef)->consume_data;
  d->own = own_dc != 0;
  d->ac_own = own_ac != 0;
  d->scan.pub.start_pass = ck_start_progressive_pass;
  return d;
}

int ck_install_dc_first_decoder(j_decompress_ptr cinfo, const ck_dc_values *dc, int own) {
  if (!cinfo->buffered_image) return 0;
  ck_dc_first_decoder *d = ck_make_progressive_decoder(cinfo, own, own);
  if (d == NULL) return 0;
  ck_coefficient_interface *coef = (ck_coefficient_interface *)(void *)cinfo->coef;
  if (dc != NULL) {
    d->has_values = 1;
    for (int ci = 0; ci < cinfo->num_components; ci++) {
      const jpeg_component_info *comp = &cinfo->comp_info[ci];
      // The store's rows are the component's blocks, rounded up to whole iMCU rows and MCUs as jdcoefct.c asks.
      JDIMENSION width = (comp->width_in_blocks + (JDIMENSION)comp->h_samp_factor - 1) /
                         (JDIMENSION)comp->h_samp_factor * (JDIMENSION)comp->h_samp_factor;
      if (dc[ci].array == NULL || dc[ci].values == NULL || dc[ci].stride != width) d->has_values = 0;
      d->values[ci] = dc[ci];
    }
  }
  cinfo->entropy = (struct jpeg_entropy_decoder *)(void *)d;
  // jpeg_start_decompress has started the first scan (libjpeg's start_pass and the controller's start_input_pass
  // ran, consume_input is the controller's consume_data) and read none of its data.
  ck_plan_progressive_scan(cinfo, d);
  ((ck_input_interface *)(void *)cinfo->inputctl)->consume_input = coef->consume_data;
  return (d->own ? CK_DC_FIRST_OWN : 0) | (d->own && d->has_values ? CK_DC_FIRST_ROWS : 0) |
         (d->has_values ? CK_DC_FIRST_PASSES_OVER_AC : 0);
}

int ck_install_progressive_decoder(j_decompress_ptr cinfo) {
  ck_dc_first_decoder *d = ck_make_progressive_decoder(cinfo, 0, 1);
  if (d == NULL) return 0;
  cinfo->entropy = (struct jpeg_entropy_decoder *)(void *)d;  // libjpeg's start_input_pass starts the first scan
  return 1;
}

// MARK: - The output pass from the DC store

// After a DC-only early stop, libjpeg's buffered-image output pass (jdcoefct.c's decompress_data) asks the DC store
// for each iMCU row's blocks, which it copies into a window of 128-byte blocks, and calls the IDCT on each: 1×1, or
// 2×2 for 4:2:0 chroma at 1/8, which for a block of DC alone gives four equal pixels of the same value, libjpeg's
// (DC × quantizer + 4) >> 3 through the range limit (jpeg_idct_2x2 descales (DC × quantizer) << 2 by 5 bits, for
// any DC × quantizer of valid data: ck_dc_2x2_exact). ck_decompress_dc writes those pixels straight from the store's
// values, and hands a 2×2 block past that range to libjpeg's IDCT. Same pixels, byte for byte.
static int ck_decompress_dc(j_decompress_ptr cinfo, JSAMPIMAGE output_buf) {
  ck_dc_first_decoder *d = (ck_dc_first_decoder *)(void *)cinfo->entropy;
  // decompress_data's wait for input (none is left to read after the early stop; kept as libjpeg has it).
  while (cinfo->input_scan_number < cinfo->output_scan_number ||
         (cinfo->input_scan_number == cinfo->output_scan_number && cinfo->input_iMCU_row <= cinfo->output_iMCU_row)) {
    if ((*((ck_input_interface *)(void *)cinfo->inputctl)->consume_input)(cinfo) == JPEG_SUSPENDED)
      return JPEG_SUSPENDED;
  }
  const JSAMPLE *range_limit = cinfo->sample_range_limit + CENTERJSAMPLE;
  const ck_inverse_dct_interface *idct = (const ck_inverse_dct_interface *)(const void *)cinfo->idct;
  for (int ci = 0; ci < cinfo->num_components; ci++) {
    const jpeg_component_info *comp = &cinfo->comp_info[ci];
    if (!comp->component_needed) continue;
    int v = comp->v_samp_factor, block_rows = v;
    if (cinfo->output_iMCU_row == cinfo->total_iMCU_rows - 1) {
      block_rows = (int)(comp->height_in_blocks % (JDIMENSION)v);  // as decompress_data counts them
      if (block_rows == 0) block_rows = v;
    }
    const ck_dc_values *values = &d->values[ci];
    const JCOEF *dc = values->values + (size_t)cinfo->output_iMCU_row * (size_t)v * values->stride;
    const int quantizer = d->quantizer[ci];
    JSAMPARRAY rows = output_buf[ci];
    for (int row = 0; row < block_rows; row++, dc += values->stride) {
      if (comp->DCT_scaled_size == 1) {
        JSAMPROW out = rows[row];
        for (JDIMENSION b = 0; b < comp->width_in_blocks; b++) {
          out[b] = ck_dc_pixel(range_limit, dc[b], quantizer);
        }
      } else {
        JSAMPROW top = rows[2 * row], bottom = rows[2 * row + 1];
        for (JDIMENSION b = 0; b < comp->width_in_blocks; b++) {
          if (CK_UNLIKELY(!ck_dc_2x2_exact(dc[b], quantizer))) {
            JBLOCK block = {0};
            block[0] = dc[b];
            (*idct->inverse_DCT[ci])(cinfo, (jpeg_component_info *)comp, block, rows + 2 * row, 2 * b);
            continue;
          }
          JSAMPLE pixel = ck_dc_pixel(range_limit, dc[b], quantizer);
          top[2 * b] = top[2 * b + 1] = bottom[2 * b] = bottom[2 * b + 1] = pixel;
        }
      }
    }
  }
  if (++cinfo->output_iMCU_row < cinfo->total_iMCU_rows) return JPEG_ROW_COMPLETED;
  return JPEG_SCAN_COMPLETED;
}

int ck_install_dc_output(j_decompress_ptr cinfo) {
  ck_coefficient_interface *coef = (ck_coefficient_interface *)(void *)cinfo->coef;
  ck_dc_first_decoder *d = (ck_dc_first_decoder *)(void *)cinfo->entropy;
  if (d == NULL || d->scan.pub.start_pass != ck_start_progressive_pass || !d->own || !d->has_values) return 0;
  if (coef == NULL || coef->decompress_data == NULL || cinfo->idct == NULL || cinfo->output_iMCU_row != 0) return 0;
  if (!ck_output_uncropped(cinfo)) return 0;
  for (int ci = 0; ci < cinfo->num_components; ci++) {
    const jpeg_component_info *comp = &cinfo->comp_info[ci];
    if (!comp->component_needed) continue;
    if (comp->DCT_scaled_size != 1 && comp->DCT_scaled_size != 2) return 0;
    d->quantizer[ci] = ck_dc_quantizer(comp);
    if (d->quantizer[ci] < 0) return 0;
  }
  // The values are read straight from the store.
  ck_write_back_window(cinfo, d);
  coef->decompress_data = ck_decompress_dc;
  return 1;
}

#else

int ck_install_ac_skipping_decoder(j_decompress_ptr cinfo, int dc_only) {
  (void)cinfo;
  (void)dc_only;
  return 0;
}

int ck_install_dc_first_decoder(j_decompress_ptr cinfo, const ck_dc_values *dc, int own) {
  (void)cinfo;
  (void)dc;
  (void)own;
  return 0;
}

int ck_install_dc_output(j_decompress_ptr cinfo) {
  (void)cinfo;
  return 0;
}

int ck_install_progressive_decoder(j_decompress_ptr cinfo) {
  (void)cinfo;
  return 0;
}

#endif
