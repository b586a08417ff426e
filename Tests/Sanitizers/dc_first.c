// The JPEG shim's reader of progressive DC-first scans (ac_skipping_decoder.c), under AddressSanitizer and UBSan
// (scripts/sanitize-jpeg builds it with Sources/CJPEG). Each file given, intact and with 119 seeded damages (bits
// flipped, bytes cut, or a marker put in the data; three times in four inside the first scan, which is a DC-first
// scan in every fixture), is decoded at 1/8 with the DC-only early stop (DC values written a row at a time, pixels
// written from them) and the exact one (one MCU at a time through libjpeg's coefficient controller), lenient and
// strict, whole or a third of the rows, by CropKit's decoder and by libjpeg's; both must fail or both give the same
// pixels. One trial in ten also raises the quantizers' DC entries (raise_dc_quantizers). Exits 1 on a mismatch, or
// if either path of CropKit's decoder or its output pass never ran; a sanitizer report fails the run on its own.
#include "decode.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
// Sets the DC entry of every 8-bit quantization table before the first scan to 255: DC × quantizer then goes past
// what valid data gives, where libjpeg's SIMD 2×2 IDCT no longer matches the arithmetic of the output pass from the
// DC store (which hands such blocks to libjpeg's IDCT).
static void raise_dc_quantizers(uint8_t *d, size_t n) {
  for (size_t i = 2; i + 4 <= n && d[i] == 0xFF && d[i + 1] != 0xDA;) {
    size_t length = (size_t)d[i + 2] << 8 | d[i + 3];
    for (size_t j = i + 4; d[i + 1] == 0xDB && j + 1 < i + 2 + length && j + 1 < n; j += (d[j] >> 4) ? 129 : 65)
      if ((d[j] >> 4) == 0) d[j + 1] = 255;
    i += 2 + length;
  }
}
int main(int argc, char **argv) {
  int mismatches = 0, runs = 0, rows = 0, single = 0, outputs = 0;
  srand(29);
  for (int a = 1; a < argc; a++) {
    FILE *f = fopen(argv[a], "rb"); fseek(f, 0, SEEK_END); size_t n = ftell(f); fseek(f, 0, SEEK_SET);
    uint8_t *orig = malloc(n + 2); fread(orig, 1, n, f); fclose(f);
    size_t scan = 0, scan_end = 0;  // the first scan's entropy-coded data
    for (size_t i = 0; i + 3 < n; i++) if (orig[i] == 0xFF && orig[i + 1] == 0xDA) { scan = i + 2 + ((size_t)orig[i + 2] << 8 | orig[i + 3]); break; }
    if (scan == 0 || scan + 8 >= n) { fprintf(stderr, "%s: no scan\n", argv[a]); return 1; }
    for (scan_end = scan; scan_end + 1 < n; scan_end++) if (orig[scan_end] == 0xFF && orig[scan_end + 1] != 0 && (orig[scan_end + 1] & 0xF8) != 0xD0) break;
    for (int trial = 0; trial < 120; trial++) {
      uint8_t *d = malloc(n + 2); memcpy(d, orig, n); size_t m = n;
      if (trial % 10 == 9) raise_dc_quantizers(d, m);
      if (trial > 0) {
        size_t lo = scan, span = trial % 4 == 0 ? n - scan - 2 : scan_end - scan;
        if (span < 2) span = 2;
        size_t at = lo + (size_t)rand() % span;
        if (at > n - 2) at = n - 2;
        switch (trial % 3) {
          case 0: for (int k = 0; k < 1 + rand() % 3; k++) d[lo + (size_t)rand() % span] ^= 1 << (rand() % 8); break;
          case 1: m = at; break;  // cut short
          default: memmove(d + at + 2, d + at, n - at); d[at] = 0xFF; d[at + 1] = (uint8_t[]){0xD0, 0xD3, 0xD9, 0xC4}[rand() % 4]; m = n + 2;
        }
      }
      int early_stop = trial % 2 ? CK_JPEG_EARLY_STOP_DC : CK_JPEG_EARLY_STOP_EXACT, strict = trial % 5 == 0, partial = trial % 7 == 3;
      size_t s1, s2; int st1, st2; ck_jpeg_output o1, o2;
      uint8_t *p1 = decode_with(d, m, ck_jpeg_decoder_use_libjpeg_entropy, 1, 8, early_stop, strict, partial, &s1, &st1, &o1);
      uint8_t *p2 = decode_with(d, m, ck_jpeg_decoder_use_libjpeg_entropy, 0, 8, early_stop, strict, partial, &s2, &st2, &o2);
      runs++; rows += o2.own_dc_rows; single += o2.own_entropy && !o2.own_dc_rows; outputs += o2.own_output;
      if (o1.own_entropy || (st1 == 0) != (st2 == 0) || (st1 == 0 && (s1 != s2 || memcmp(p1, p2, s1)))) { mismatches++; fprintf(stderr, "%s trial %d: %d vs %d\n", argv[a], trial, st1, st2); }
      free(p1); free(p2); free(d);
    }
    free(orig);
  }
  printf("%d runs, %d a row at a time (%d with the output pass from the DC store), %d an MCU at a time, %d mismatches\n", runs, rows, outputs, single, mismatches);
  return mismatches != 0 || rows == 0 || single == 0 || outputs == 0;
}
