// CropPixels' hand-vectorised kernels for instruction sets beyond the build's baseline.
//
// Swift has no per-function target attribute, so kernels that use AVX2 (which x86-64's baseline, SSE2, lacks) are
// written in C with `__attribute__((target("avx2")))` and chosen at run time: `ck_pixel_kernels_avx2()` says whether
// this processor and its operating system support them. On other architectures it returns 0 and the kernels are
// never called (their bodies are compiled out), so the portable Swift kernels remain the reference every kernel here
// must match bit for bit (CropPixelsTests' `SIMDKernelsTests`).
//
// The layouts are the fixed-point resampler's (Sources/CropPixels/ResampleEngine+Fixed8.swift):
// - a *packed batch*: for each channel, a plane of column pairs; each pair is 16 `int16_t` holding 8 source rows'
//   two adjacent samples, `[r0x0 r0x1 r1x0 r1x1 … r7x0 r7x1]`, scaled by 128;
// - *coefficient pairs*: `uint32_t`, the even tap's 14-bit coefficient in the low half, the odd tap's in the high;
// - a *tile*: for each output sample (`x · channels + channel`), 8 `int16_t`, one per row of the batch.

#ifndef CK_PIXEL_KERNELS_H
#define CK_PIXEL_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when the AVX2 kernels below may run on this processor (AVX2 reported by CPUID and YMM state enabled by the
/// operating system), otherwise 0. Cheap after the first call.
int ck_pixel_kernels_avx2(void);

/// Transposes bytes `offset ..< offset + byte_count` of 8 rows so that `columns[j · 8 + r]` is byte `offset + j` of
/// `rows[r]`: the first step of packing a batch.
void ck_resample_pack_columns_avx2(const uint8_t *const *rows, size_t offset, int byte_count, uint8_t *columns);

/// Builds a packed batch of an image without alpha from its transposed bytes: for each channel and column pair,
/// the 8 rows' two samples interleaved and scaled by 128. Plane `ch` starts at `packed + ch · pairs · 16`.
void ck_resample_pack_opaque_avx2(const uint8_t *columns, int channels, int pairs, int16_t *packed);

/// The horizontal pass of the fixed-point resampler for one batch of 8 rows.
///
/// For each output column `x` (`0 ..< output_width`) and channel `ch` (`0 ..< channels`, 1…4), sums `pairs[x]`
/// column pairs of plane `ch` starting at pair `start[x]`, weighted by `coefficients[offset[x] ...]`, adds the
/// rounding term 2¹³, shifts right by 14, saturates to `int16_t` and clamps to `0 ... max_value`; the 8 results go to
/// `tile + (x · channels + ch) · 8`.
///
/// - Parameters:
///   - packed: the packed batch; plane `ch` starts at `packed + ch · plane_samples`.
///   - plane_samples: `int16_t` values per plane (16 per pair).
void ck_resample_horizontal_fixed_avx2(
    const int16_t *packed, size_t plane_samples, int channels, int output_width, const int32_t *start,
    const int32_t *pairs, const int32_t *offset, const uint32_t *coefficients, int16_t max_value, int16_t *tile);

/// The vertical pass of the fixed-point resampler for one output row.
///
/// For each sample `s` (`0 ..< samples`), sums `2 · pair_count` rows `rows[0 ...]` weighted by the coefficient pairs
/// (`rows[2q]` by the low half of `coefficients[q]`, `rows[2q + 1]` by the high half), adds `2^(shift − 1)`, shifts
/// right by `shift` and saturates to `int16_t`. Then:
/// - `to_bytes` ≠ 0: clamps to 0…255 and writes `samples` bytes to `destination`;
/// - otherwise: clamps to `0 ... max_value` and writes `int16_t`s to `destination`, rounded up to a multiple of 16.
///
/// Rows are read in whole 16-sample vectors: up to 15 samples past `samples` must be readable.
void ck_resample_vertical_fixed_avx2(
    const int16_t *const *rows, const uint32_t *coefficients, int pair_count, int samples, int shift, int to_bytes,
    int16_t max_value, void *destination);

#ifdef __cplusplus
}
#endif

#endif
