// The decode the sanitizer harnesses run (parallel_scans.c, sequential.c, dc_first.c): `configure` sets the decoder
// up after its header is read (which thread mode, which entropy decoder), then it decodes at 1/`scale` with
// `early_stop` (CK_JPEG_EARLY_STOP_*), strict or lenient, whole or a third of the rows. Returns the pixels (NULL if
// the header or the start failed), their size in `out_size`, the first failure in `status` (0: none) and what the
// start reported in `output`.
#include "cjpeg_shim.h"
#include <stdlib.h>
#include <string.h>
static uint8_t *decode_with(const uint8_t *d, size_t n, void (*configure)(ck_jpeg_decoder *, int), int setting, int scale, int early_stop, int strict, int partial, size_t *out_size, int *status, ck_jpeg_output *output) {
  ck_jpeg_decoder *dec = ck_jpeg_decoder_create(d, n, strict);
  ck_jpeg_header h; *status = ck_jpeg_decoder_read_header(dec, &h); memset(output, 0, sizeof *output);
  if (*status) { ck_jpeg_decoder_destroy(dec); return NULL; }
  configure(dec, setting);
  *status = ck_jpeg_decoder_start(dec, scale, early_stop, 1L << 30, 0, output);
  if (*status) { ck_jpeg_decoder_destroy(dec); return NULL; }
  size_t stride = (size_t)output->width * output->components; uint8_t *px = calloc(stride, output->height); uint32_t got = 0, total = 0;
  uint32_t want = partial ? output->height / 3 : output->height;
  while (total < want) { *status = ck_jpeg_decoder_read_rows(dec, px + total * stride, stride, want - total, &got); if (*status || got == 0) break; total += got; }
  if (!*status) *status = ck_jpeg_decoder_finish(dec);
  ck_jpeg_decoder_destroy(dec);
  *out_size = stride * want;
  return px;
}
