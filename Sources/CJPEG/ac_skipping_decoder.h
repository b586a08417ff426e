// The AC-skipping entropy decoder: libjpeg-turbo's Huffman decoder for one interleaved sequential scan, replaced by
// a faster one that also does not decode what the scaled output never reads.
//
// At 1/8 scale libjpeg's IDCT of a component whose DCT_scaled_size is 1 reads the DC coefficient only, yet its
// Huffman decoder still walks every AC symbol one at a time. This decoder walks them several symbols per table
// lookup (the lookup gives the bits and the coefficient positions the symbols take, not their values), which makes
// the whole entropy pass of a 12-megapixel photo about twice as fast. Components the IDCT reads more of are decoded
// in full, with one lookup that often gives two coefficients and the end of the block (codes and value bits in a
// 12-bit window, where libjpeg looks up each code and then reads its value): on five camera photos the whole decode
// takes 22-39% less time than with libjpeg's decoder at 1/2 and 1/4, 11-24% less at full size. The output is byte-identical to libjpeg's, unless `dc_only` asks for every
// component's DC alone (the chroma approximation of CK_JPEG_EARLY_STOP_DC, at 1/8).
//
// It keeps libjpeg's semantics on damaged data: a code longer than 16 bits reads as symbol 0 after 17 bits, a marker
// inside the data ends it (zero bits follow; reading into them warns once with JWRN_HIT_MARKER and leaves the rest of
// the restart interval gray), a run past the block's end writes to the last coefficient, and restart markers are
// matched or resynchronised through the source manager's resync_to_restart. Warnings go through the error manager
// like libjpeg's own.

#pragma once
#include <stdio.h>
#include <jpeglib.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What ck_install_ac_skipping_decoder installed.
enum {
  /// The entropy decoder.
  CK_OWN_ENTROPY = 1,
  /// The output pass at 1/8, which writes the pixels of one-pixel blocks itself (see ck_decompress_eighth).
  CK_OWN_OUTPUT = 2,
};

/// Replaces `cinfo`'s entropy decoder, after jpeg_start_decompress and before the first row is read, when the file
/// is a single interleaved sequential Huffman scan of 8-bit samples. It skips the AC coefficients of components with
/// DCT_scaled_size 1, or of every component when `dc_only`. When some component is output one pixel per block (1/8
/// scale), the coefficient controller's decompress_data is replaced too, unless the picture was cropped with
/// jpeg_crop_scanline. Returns CK_OWN_ENTROPY, with CK_OWN_OUTPUT when the output pass was replaced, or 0 when the
/// file does not qualify (libjpeg's decoder then stays). Its memory comes from libjpeg's image pool and goes with it.
int ck_install_ac_skipping_decoder(j_decompress_ptr cinfo, int dc_only);

/// A component's DC coefficients kept apart from its blocks (the shim's DC store): `array`, the coefficient
/// controller's virtual array for the component, holds them in `values`, `stride` per block row.
typedef struct {
  jvirt_barray_ptr array;
  JCOEF *values;
  JDIMENSION stride;
} ck_dc_values;

/// What ck_install_dc_first_decoder installed.
enum {
  /// CropKit's decoder reads the DC-first scans.
  CK_DC_FIRST_OWN = 1,
  /// ... a row of MCUs per call, straight into the DC store's values.
  CK_DC_FIRST_ROWS = 2,
  /// AC scans are passed over unread (the DC store keeps no AC coefficient).
  CK_DC_FIRST_PASSES_OVER_AC = 4,
};

/// Takes over a progressive Huffman file's scans where CropKit reads them better than libjpeg, same coefficients and
/// warnings: with `own`, its DC-first scans (Ss = Se = 0, Ah = 0) are read by CropKit's decoder. With `dc` (the DC
/// store's values, one per component, in component order), those go straight into the values, a whole iMCU row per
/// call instead of one MCU at a time through the coefficient controller, and AC scans, of no use to the store, are
/// passed over unread; without it, `own` has CropKit's decoder read the AC scans too (see
/// ck_install_progressive_decoder). Every other scan, and every scan's checks, stay libjpeg's. Call in buffered-image
/// mode right
/// after jpeg_start_decompress, before any data is read. Returns CK_DC_FIRST_* flags, 0 when nothing was installed.
int ck_install_dc_first_decoder(j_decompress_ptr cinfo, const ck_dc_values *dc, int own);

/// After a DC-only early stop read by CropKit's decoder with the DC store (CK_DC_FIRST_ROWS), replaces the output
/// pass (the coefficient controller's decompress_data, the window and the 1×1 or 2×2 IDCT) by one that writes each
/// block's pixels straight from the store, the same pixels. Call right after jpeg_start_output. Returns 1 when
/// installed, 0 when the picture does not qualify (a component with DCT_scaled_size past 2, a cropped output).
int ck_install_dc_output(j_decompress_ptr cinfo);

/// Has CropKit's decoder read a progressive Huffman file's AC scans (Ss > 0: first scans and refinements), same
/// coefficients and warnings as libjpeg's (DC scans, and every scan's checks, stay libjpeg's), in a whole read
/// (jpeg_start_decompress, or jpeg_read_coefficients in a helper decoder). Call from the memory manager's
/// realize_virt_arrays, which libjpeg calls after making its entropy decoder and before starting the first scan.
/// Returns 1 when installed, 0 when the file does not qualify.
int ck_install_progressive_decoder(j_decompress_ptr cinfo);

#ifdef __cplusplus
}
#endif
