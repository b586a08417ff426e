// The JPEG shim's progressive scans on two threads, under the sanitizers (scripts/sanitize-jpeg builds it with
// Sources/CJPEG under ThreadSanitizer, then AddressSanitizer and UBSan). Each file given, intact and with 59 seeded
// damages (1 to 3 bits flipped past its headers), is decoded by one thread and by two, at 1/1, 1/2 and 1/4, lenient
// and strict, whole or a third of the rows, its AC scans read by CropKit's decoder on both threads, and by
// one thread with libjpeg's decoders alone; all three must fail or all give the same pixels. Exits 1 on a mismatch; a
// sanitizer report fails the run on its own.
#include "decode.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static uint8_t *decode(const uint8_t *d, size_t n, int setting, int scale, int strict, size_t *out_size, int *status, int *helper, int partial) {
  ck_jpeg_output o; uint8_t *px = decode_with(d, n, ck_jpeg_decoder_set_parallel_scans, setting, scale, 0, strict, partial, out_size, status, &o);
  *helper = o.helper_scans;
  return px;
}
static void serial_libjpeg(ck_jpeg_decoder *dec, int setting) {
  ck_jpeg_decoder_set_parallel_scans(dec, setting);
  ck_jpeg_decoder_use_libjpeg_entropy(dec, 1);
}
int main(int argc, char **argv) {
  int mismatches = 0, splits = 0, runs = 0;
  srand(7);
  for (int a = 1; a < argc; a++) {
    FILE *f = fopen(argv[a], "rb"); fseek(f, 0, SEEK_END); size_t n = ftell(f); fseek(f, 0, SEEK_SET);
    uint8_t *orig = malloc(n); fread(orig, 1, n, f); fclose(f);
    for (int trial = 0; trial < 60; trial++) {
      uint8_t *d = malloc(n); memcpy(d, orig, n);
      if (trial > 0) for (int k = 0; k < 1 + rand() % 3; k++) d[600 + rand() % (n - 600)] ^= 1 << (rand() % 8);
      int scale = (int[]){1, 2, 4}[trial % 3], strict = trial % 5 == 0, partial = trial % 7 == 3;
      size_t s1, s2; int st1, st2, h1, h2;
      uint8_t *p1 = decode(d, n, 0, scale, strict, &s1, &st1, &h1, partial);
      uint8_t *p2 = decode(d, n, 2, scale, strict, &s2, &st2, &h2, partial);
      size_t s3; int st3; ck_jpeg_output o3;
      uint8_t *p3 = decode_with(d, n, serial_libjpeg, 0, scale, 0, strict, partial, &s3, &st3, &o3);
      runs++; if (h2) splits++;
      if ((st1 == 0) != (st2 == 0) || (st1 == 0 && (s1 != s2 || memcmp(p1, p2, s1)))) { mismatches++; fprintf(stderr, "%s trial %d: %d vs %d\n", argv[a], trial, st1, st2); }
      if ((st1 == 0) != (st3 == 0) || (st1 == 0 && (s1 != s3 || memcmp(p1, p3, s1)))) { mismatches++; fprintf(stderr, "%s trial %d: %d vs libjpeg's %d\n", argv[a], trial, st1, st3); }
      free(p1); free(p2); free(p3); free(d);
    }
    free(orig);
  }
  printf("%d runs, %d split, %d mismatches\n", runs, splits, mismatches);
  return mismatches != 0;
}
