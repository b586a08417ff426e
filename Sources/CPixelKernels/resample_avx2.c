// The fixed-point resampler's two filters, and the packing of an opaque batch, with AVX2 (see
// include/ck_pixel_kernels.h for the layouts).
//
// SSE2's `pmaddwd` filters a column pair of 8 rows in two halves; AVX2's `vpmaddwd` takes the whole pair (32 bytes)
// at once, and the horizontal filter shares one coefficient broadcast between every channel of the column. The
// vertical filter does 16 samples per step instead of 8, and the packing transposes 32 columns of the 8 rows at a
// time. The arithmetic is the portable kernels', operation for operation, so the results are identical.
//
// Other architectures, and the portable build (CROPKIT_PORTABLE, see Package.swift), get the stubs at the end: the
// check says no and the kernels are never called.

#include "ck_pixel_kernels.h"

#if (defined(__x86_64__) || defined(_M_X64)) && !defined(CROPKIT_PORTABLE)

#include <cpuid.h>
#include <immintrin.h>
#include <string.h>

static int detect_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    // OSXSAVE (bit 27) and AVX (bit 28), then the OS must have enabled XMM and YMM state (XCR0 bits 1 and 2).
    if ((c & (1u << 27)) == 0 || (c & (1u << 28)) == 0) return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6u) != 6u) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & (1u << 5)) != 0;  // AVX2
}

int ck_pixel_kernels_avx2(void) {
    // 0: not asked yet; 1: no; 2: yes. Racing first calls compute the same answer.
    static volatile int state = 0;
    int s = state;
    if (s == 0) {
        s = detect_avx2() ? 2 : 1;
        state = s;
    }
    return s == 2;
}

/// Shifts 8 sums right, saturates them to int16 and clamps them to 0 ... max.
__attribute__((target("avx2"))) static inline __m128i finish8(__m256i sum, int shift, __m128i max) {
    sum = _mm256_srai_epi32(sum, shift);
    __m128i v = _mm_packs_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    return _mm_min_epi16(_mm_max_epi16(v, _mm_setzero_si128()), max);
}

/// Stage one of a byte transpose: bytes of rows a and b interleaved, then as 16-bit lanes.
#define CK_UNPACK8(lo, hi, a, b) \
    const __m256i lo = _mm256_unpacklo_epi8(a, b), hi = _mm256_unpackhi_epi8(a, b)

__attribute__((target("avx2"))) void ck_resample_pack_columns_avx2(
    const uint8_t *const *rows, size_t offset, int byte_count, uint8_t *columns) {
    int j = 0;
    for (; j + 32 <= byte_count; j += 32) {
        __m256i r[8];
        for (int k = 0; k < 8; k++) r[k] = _mm256_loadu_si256((const __m256i *)(rows[k] + offset + j));
        // Within each 128-bit lane (bytes 0-15 and 16-31), the SSE2 transpose: after three rounds of interleaves,
        // register k holds columns 2k and 2k + 1 of its lane, 8 rows each.
        CK_UNPACK8(a0, a1, r[0], r[1]);
        CK_UNPACK8(a2, a3, r[2], r[3]);
        CK_UNPACK8(a4, a5, r[4], r[5]);
        CK_UNPACK8(a6, a7, r[6], r[7]);
        const __m256i b0 = _mm256_unpacklo_epi16(a0, a2), b1 = _mm256_unpackhi_epi16(a0, a2);
        const __m256i b2 = _mm256_unpacklo_epi16(a1, a3), b3 = _mm256_unpackhi_epi16(a1, a3);
        const __m256i b4 = _mm256_unpacklo_epi16(a4, a6), b5 = _mm256_unpackhi_epi16(a4, a6);
        const __m256i b6 = _mm256_unpacklo_epi16(a5, a7), b7 = _mm256_unpackhi_epi16(a5, a7);
        const __m256i c[8] = {
            _mm256_unpacklo_epi32(b0, b4), _mm256_unpackhi_epi32(b0, b4), _mm256_unpacklo_epi32(b1, b5),
            _mm256_unpackhi_epi32(b1, b5), _mm256_unpacklo_epi32(b2, b6), _mm256_unpackhi_epi32(b2, b6),
            _mm256_unpacklo_epi32(b3, b7), _mm256_unpackhi_epi32(b3, b7),
        };
        uint8_t *d = columns + (size_t)j * 8;
        for (int k = 0; k < 8; k += 2) {
            _mm256_storeu_si256((__m256i *)(d + k * 16), _mm256_permute2x128_si256(c[k], c[k + 1], 0x20));
            _mm256_storeu_si256((__m256i *)(d + 128 + k * 16), _mm256_permute2x128_si256(c[k], c[k + 1], 0x31));
        }
    }
    for (; j < byte_count; j++) {
        for (int k = 0; k < 8; k++) columns[(size_t)j * 8 + k] = rows[k][offset + j];
    }
}

__attribute__((target("avx2"))) void ck_resample_pack_opaque_avx2(
    const uint8_t *columns, int channels, int pairs, int16_t *packed) {
    for (int ch = 0; ch < channels; ch++) {
        int16_t *out = packed + (size_t)ch * pairs * 16;
        const uint8_t *src = columns + (size_t)ch * 8;
        const size_t step = (size_t)channels * 8;
        for (int p = 0; p < pairs; p++) {
            const __m128i x = _mm_loadl_epi64((const __m128i *)src), y = _mm_loadl_epi64((const __m128i *)(src + step));
            const __m256i v = _mm256_slli_epi16(_mm256_cvtepu8_epi16(_mm_unpacklo_epi8(x, y)), 7);
            _mm256_storeu_si256((__m256i *)out, v);
            out += 16;
            src += 2 * step;
        }
    }
}

/// One output column of the horizontal filter, every channel at once (`channels` is a constant at each call, so the
/// accumulators stay in registers and the channel loops unroll).
__attribute__((target("avx2"), always_inline)) static inline void filter_column(
    const int16_t *packed, size_t plane_samples, const int channels, size_t first, int n, const uint32_t *k,
    __m128i max, int16_t *out) {
    __m256i a[4];
    for (int ch = 0; ch < channels; ch++) a[ch] = _mm256_set1_epi32(1 << 13);
    for (int q = 0; q < n; q++) {
        const __m256i c = _mm256_set1_epi32((int)k[q]);
        for (int ch = 0; ch < channels; ch++) {
            const __m256i *pair = (const __m256i *)(packed + ch * plane_samples + first) + q;
            a[ch] = _mm256_add_epi32(a[ch], _mm256_madd_epi16(_mm256_loadu_si256(pair), c));
        }
    }
    for (int ch = 0; ch < channels; ch++) _mm_storeu_si128((__m128i *)out + ch, finish8(a[ch], 14, max));
}

__attribute__((target("avx2"))) void ck_resample_horizontal_fixed_avx2(
    const int16_t *packed, size_t plane_samples, int channels, int output_width, const int32_t *start,
    const int32_t *pairs, const int32_t *offset, const uint32_t *coefficients, int16_t max_value, int16_t *tile) {
    const __m128i max = _mm_set1_epi16(max_value);
    for (int x = 0; x < output_width; x++) {
        const size_t first = (size_t)start[x] * 16;
        const uint32_t *k = coefficients + offset[x];
        int16_t *out = tile + (size_t)x * channels * 8;
        switch (channels) {
        case 1: filter_column(packed, plane_samples, 1, first, pairs[x], k, max, out); break;
        case 2: filter_column(packed, plane_samples, 2, first, pairs[x], k, max, out); break;
        case 3: filter_column(packed, plane_samples, 3, first, pairs[x], k, max, out); break;
        default: filter_column(packed, plane_samples, 4, first, pairs[x], k, max, out); break;
        }
    }
}

__attribute__((target("avx2"))) void ck_resample_vertical_fixed_avx2(
    const int16_t *const *rows, const uint32_t *coefficients, int pair_count, int samples, int shift, int to_bytes,
    int16_t max_value, void *destination) {
    const __m256i round = _mm256_set1_epi32(1 << (shift - 1));
    const __m128i count = _mm_cvtsi32_si128(shift);
    for (int s = 0; s < samples; s += 16) {
        __m256i a0 = round, a1 = round;
        for (int q = 0; q < pair_count; q++) {
            const __m256i c = _mm256_set1_epi32((int)coefficients[q]);
            const __m256i ra = _mm256_loadu_si256((const __m256i *)(rows[2 * q] + s));
            const __m256i rb = _mm256_loadu_si256((const __m256i *)(rows[2 * q + 1] + s));
            // In each 128-bit lane: samples 0-3 (4-7) of both rows interleaved, so a0 holds samples 0-3 and 8-11,
            // a1 samples 4-7 and 12-15, and the lane-wise pack below restores their order.
            a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(_mm256_unpacklo_epi16(ra, rb), c));
            a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(_mm256_unpackhi_epi16(ra, rb), c));
        }
        const __m256i v = _mm256_packs_epi32(_mm256_sra_epi32(a0, count), _mm256_sra_epi32(a1, count));
        if (to_bytes) {
            const __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
            uint8_t *d = (uint8_t *)destination + s;
            if (s + 16 <= samples) {
                _mm_storeu_si128((__m128i *)d, bytes);
            } else {
                uint8_t tail[16];
                _mm_storeu_si128((__m128i *)tail, bytes);
                memcpy(d, tail, (size_t)(samples - s));
            }
        } else {
            const __m256i clamped =
                _mm256_min_epi16(_mm256_max_epi16(v, _mm256_setzero_si256()), _mm256_set1_epi16(max_value));
            _mm256_storeu_si256((__m256i *)((int16_t *)destination + s), clamped);
        }
    }
}

#else

int ck_pixel_kernels_avx2(void) { return 0; }

void ck_resample_pack_columns_avx2(const uint8_t *const *rows, size_t offset, int byte_count, uint8_t *columns) {
    (void)rows, (void)offset, (void)byte_count, (void)columns;
}

void ck_resample_pack_opaque_avx2(const uint8_t *columns, int channels, int pairs, int16_t *packed) {
    (void)columns, (void)channels, (void)pairs, (void)packed;
}

void ck_resample_horizontal_fixed_avx2(
    const int16_t *packed, size_t plane_samples, int channels, int output_width, const int32_t *start,
    const int32_t *pairs, const int32_t *offset, const uint32_t *coefficients, int16_t max_value, int16_t *tile) {
    (void)packed, (void)plane_samples, (void)channels, (void)output_width, (void)start, (void)pairs, (void)offset,
        (void)coefficients, (void)max_value, (void)tile;
}

void ck_resample_vertical_fixed_avx2(
    const int16_t *const *rows, const uint32_t *coefficients, int pair_count, int samples, int shift, int to_bytes,
    int16_t max_value, void *destination) {
    (void)rows, (void)coefficients, (void)pair_count, (void)samples, (void)shift, (void)to_bytes, (void)max_value,
        (void)destination;
}

#endif
