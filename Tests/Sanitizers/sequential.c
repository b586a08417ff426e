// The JPEG shim's own entropy decoder for sequential files, and its output pass at 1/8, under AddressSanitizer and
// UBSan (scripts/sanitize-jpeg builds it with Sources/CJPEG). Each file given, intact and with 79 seeded damages
// (bits flipped, bytes cut, a marker put in the entropy-coded data, or its EOI cut off and bits flipped in its last
// bytes), is decoded by CropKit's decoder and by
// libjpeg's, at 1/8 (half the trials) and at 1/1, 1/2 and 1/4, lenient and strict, whole or a third of the rows; both
// must fail or both give the same pixels. Exits 1 on a mismatch, or if CropKit's output pass never ran at 1/8; a
// sanitizer report fails the run on its own.
#include "decode.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static uint8_t *decode(const uint8_t *d, size_t n, int setting, int scale, int strict, size_t *out_size, int *status, int *own_output, int partial) {
  ck_jpeg_output o; uint8_t *px = decode_with(d, n, ck_jpeg_decoder_use_libjpeg_entropy, setting, scale, 0, strict, partial, out_size, status, &o);
  *own_output = o.own_output;
  return px;
}
int main(int argc, char **argv) {
  int mismatches = 0, runs = 0, own_outputs = 0;
  srand(11);
  for (int a = 1; a < argc; a++) {
    FILE *f = fopen(argv[a], "rb"); fseek(f, 0, SEEK_END); size_t n = ftell(f); fseek(f, 0, SEEK_SET);
    uint8_t *orig = malloc(n + 2); fread(orig, 1, n, f); fclose(f);
    size_t scan = 0;  // past the last SOS header: the entropy-coded data
    for (size_t i = 0; i + 3 < n; i++) if (orig[i] == 0xFF && orig[i + 1] == 0xDA) { scan = i + 2 + ((size_t)orig[i + 2] << 8 | orig[i + 3]); break; }
    if (scan == 0 || scan + 8 >= n) { fprintf(stderr, "%s: no scan\n", argv[a]); return 1; }
    for (int trial = 0; trial < 80; trial++) {
      uint8_t *d = malloc(n + 2); memcpy(d, orig, n); size_t m = n;
      if (trial > 0) {
        size_t at = scan + (size_t)rand() % (n - scan - 2);
        switch (trial % 4) {
          case 0: for (int k = 0; k < 1 + rand() % 3; k++) d[scan + (size_t)rand() % (n - scan - 2)] ^= 1 << (rand() % 8); break;
          case 1: m = at; break;  // cut short
          case 2: memmove(d + at + 2, d + at, n - at); d[at] = 0xFF; d[at + 1] = (uint8_t[]){0xD0, 0xD3, 0xD9}[rand() % 3]; m = n + 2; break;
          default:  // no EOI, and bits flipped in the data's last 24 bytes: one reader may have read ahead to the end first
            m = n - 2;
            for (int k = 0; k < 1 + rand() % 3; k++) { size_t span = m - scan < 24 ? m - scan : 24; d[m - 1 - (size_t)rand() % span] ^= 1 << (rand() % 8); }
        }
      }
      int scale = trial % 2 ? 8 : (int[]){1, 2, 4}[trial / 2 % 3], strict = trial % 5 == 0, partial = trial % 7 == 3;
      size_t s1, s2; int st1, st2, o1, o2;
      uint8_t *p1 = decode(d, m, 1, scale, strict, &s1, &st1, &o1, partial);
      uint8_t *p2 = decode(d, m, 0, scale, strict, &s2, &st2, &o2, partial);
      runs++; own_outputs += o2;
      if (o1 || (st1 == 0) != (st2 == 0) || (st1 == 0 && (s1 != s2 || memcmp(p1, p2, s1)))) { mismatches++; fprintf(stderr, "%s trial %d: %d vs %d\n", argv[a], trial, st1, st2); }
      free(p1); free(p2); free(d);
    }
    free(orig);
  }
  printf("%d runs, %d through CropKit's 1/8 output pass, %d mismatches\n", runs, own_outputs, mismatches);
  return mismatches != 0 || own_outputs == 0;
}
