// The JPEG shim's striped encoder under the sanitizers (scripts/sanitize-jpeg): seeded pictures of many sizes
// (gray and RGB, every subsampling, qualities 30–100, markers before the rows, rows handed over in uneven bands) are
// encoded in stripes on two threads and by one libjpeg encoder with the stripes' restart interval; the files must be
// byte-identical; every fourth picture is also encoded in stripes into a file, which must hold the same bytes. Exits 1
// on a difference; a sanitizer report fails the run on its own.
#include "cjpeg_shim.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t state = 2026112801;
static uint32_t next(void) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(state >> 33);
}

// Encodes `pixels` with `params`, handing rows over in bands of 1 to 40, into memory or (with `to_file`) a temporary
// file read back; returns the file's bytes (malloc'd) or NULL.
static uint8_t *encode(const ck_jpeg_encode_params *params, const uint8_t *pixels, size_t *length, int to_file) {
  FILE *file = to_file ? tmpfile() : NULL;
  ck_jpeg_encoder *enc = file != NULL ? ck_jpeg_encoder_create_fd(fileno(file)) : ck_jpeg_encoder_create();
  if (ck_jpeg_encoder_start(enc, params) != CK_JPEG_OK) return NULL;
  const uint8_t comment[] = "striped";
  if (ck_jpeg_encoder_write_marker(enc, 0xFE, comment, sizeof comment) != CK_JPEG_OK) return NULL;
  size_t stride = (size_t)params->width * (size_t)params->components;
  for (uint32_t y = 0; y < params->height;) {
    uint32_t rows = 1 + next() % 40;
    if (rows > params->height - y) rows = params->height - y;
    if (ck_jpeg_encoder_write_rows(enc, pixels + y * stride, stride, rows) != CK_JPEG_OK) return NULL;
    y += rows;
  }
  if (ck_jpeg_encoder_finish(enc) != CK_JPEG_OK) return NULL;
  uint8_t *copy;
  if (file != NULL) {
    *length = (size_t)ck_jpeg_encoder_written(enc);
    copy = malloc(*length);
    if (pread(fileno(file), copy, *length, 0) != (ssize_t)*length) return NULL;
    fclose(file);
  } else {
    const uint8_t *bytes = ck_jpeg_encoder_output(enc, length);
    copy = malloc(*length);
    memcpy(copy, bytes, *length);
  }
  ck_jpeg_encoder_destroy(enc);
  return copy;
}

int main(void) {
  int differences = 0, striped = 0;
  for (int trial = 0; trial < 40; trial++) {
    ck_jpeg_encode_params p = {0};
    p.width = 1 + next() % 700;
    p.height = 1 + next() % 900;
    p.components = next() % 4 == 0 ? 1 : 3;
    p.quality = 30 + next() % 71;
    p.subsampling = (int32_t)(next() % 3);
    p.stripes = CK_JPEG_STRIPES_ALWAYS;
    size_t stride = (size_t)p.width * (size_t)p.components;
    uint8_t *pixels = malloc(stride * p.height);
    for (size_t i = 0; i < stride * p.height; i++) pixels[i] = (uint8_t)((i * 7 + (i / stride) * 3) % 251 + next() % 5);
    uint32_t stripe_rows = 0, restart_interval = 0;
    int stripes = ck_jpeg_stripe_layout(&p, &stripe_rows, &restart_interval);
    ck_jpeg_encode_params single = p;
    single.stripes = CK_JPEG_STRIPES_OFF;
    single.restart_interval = stripes ? (int32_t)restart_interval : 0;
    size_t a_length = 0, b_length = 0;
    uint8_t *a = encode(&p, pixels, &a_length, trial % 4 == 0), *b = encode(&single, pixels, &b_length, 0);
    striped += stripes;
    if (a == NULL || b == NULL || a_length != b_length || memcmp(a, b, a_length) != 0) {
      differences++;
      fprintf(stderr, "trial %d: %ux%u, %d components, subsampling %d, q%d: %zu vs %zu bytes\n", trial, p.width,
              p.height, p.components, p.subsampling, p.quality, a_length, b_length);
    }
    free(a);
    free(b);
    free(pixels);
  }
  printf("striped encoder: 40 pictures, %d striped, %d differences\n", striped, differences);
  return differences != 0;
}
