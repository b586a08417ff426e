// See include/cjp2_shim.h. The declarations below are the subset of OpenJPEG 2.5's public ABI (openjpeg.h) that the
// shim uses, written from the library's documentation.
#include "cjp2_shim.h"

#include "runtime_library.h"
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef int OPJ_BOOL;
enum { CODEC_J2K = 0, CODEC_JP2 = 2 };
enum { CLRSPC_UNSPECIFIED = 0, CLRSPC_SRGB = 1, CLRSPC_GRAY = 2, CLRSPC_SYCC = 3, CLRSPC_EYCC = 4, CLRSPC_CMYK = 5 };

typedef struct {
  uint32_t dx, dy, w, h, x0, y0, prec, bpp, sgnd, resno_decoded, factor;
  int32_t *data;
  uint16_t alpha;
} opj_image_comp_t;

typedef struct {
  uint32_t x0, y0, x1, y1, numcomps;
  int color_space;
  opj_image_comp_t *comps;
  uint8_t *icc_profile_buf;
  uint32_t icc_profile_len;
} opj_image_t;

typedef struct {
  uint32_t compno, csty, numresolutions;
  // (the rest of opj_tccp_info_t is not read)
} opj_tccp_info_prefix;

typedef struct {
  int tileno;
  uint32_t csty;
  int prg;
  uint32_t numlayers, mct;
  opj_tccp_info_prefix *tccp_info;
} opj_tile_info_v2_t;

typedef struct {
  uint32_t tx0, ty0, tdx, tdy, tw, th, nbcomps;
  opj_tile_info_v2_t m_default_tile_info;
  void *tile_info;
} opj_codestream_info_v2_t;

/// Room for opj_dparameters_t (about 8.3 KB: two 4,096-byte paths), filled by OpenJPEG; `cp_reduce` is its first field.
typedef union { uint32_t cp_reduce; unsigned char bytes[16384]; } DecoderParameters;

typedef size_t (*read_fn)(void *, size_t, void *);
typedef int64_t (*skip_fn)(int64_t, void *);
typedef OPJ_BOOL (*seek_fn)(int64_t, void *);
typedef void (*msg_fn)(const char *, void *);

typedef struct {
  const char *(*version)(void);
  void *(*create_decompress)(int);
  void (*destroy_codec)(void *);
  void (*default_parameters)(void *);
  OPJ_BOOL (*setup_decoder)(void *, void *);
  OPJ_BOOL (*set_threads)(void *, int);
  OPJ_BOOL (*read_header)(void *, void *, opj_image_t **);
  OPJ_BOOL (*decode)(void *, void *, opj_image_t *);
  OPJ_BOOL (*end_decompress)(void *, void *);
  void (*image_destroy)(opj_image_t *);
  void *(*stream_create)(size_t, OPJ_BOOL);
  void (*stream_destroy)(void *);
  void (*stream_read)(void *, read_fn);
  void (*stream_skip)(void *, skip_fn);
  void (*stream_seek)(void *, seek_fn);
  void (*stream_user_data)(void *, void *, void (*)(void *));
  void (*stream_length)(void *, uint64_t);
  OPJ_BOOL (*error_handler)(void *, msg_fn, void *);
  OPJ_BOOL (*warning_handler)(void *, msg_fn, void *);
  OPJ_BOOL (*info_handler)(void *, msg_fn, void *);
  opj_codestream_info_v2_t *(*cstr_info)(void *);
  void (*destroy_cstr_info)(opj_codestream_info_v2_t **);
} lib_functions;
static lib_functions lib;

static ck_load_state loading = CK_LOAD_STATE_INIT;

#define say(message, ...) ck_runtime_message(message, CK_JP2_MESSAGE_LENGTH, __VA_ARGS__)

static void load(void) {
  void *handle = ck_runtime_library_load(CK_LIBRARY_OPENJP2, loading.message, sizeof loading.message);
  if (!handle) return;
  static const ck_binding bindings[] = {
      CK_BINDING(lib_functions, version, "opj_version"),
      CK_BINDING(lib_functions, create_decompress, "opj_create_decompress"),
      CK_BINDING(lib_functions, destroy_codec, "opj_destroy_codec"),
      CK_BINDING(lib_functions, default_parameters, "opj_set_default_decoder_parameters"),
      CK_BINDING(lib_functions, setup_decoder, "opj_setup_decoder"),
      CK_BINDING(lib_functions, set_threads, "opj_codec_set_threads"),
      CK_BINDING(lib_functions, read_header, "opj_read_header"),
      CK_BINDING(lib_functions, decode, "opj_decode"),
      CK_BINDING(lib_functions, end_decompress, "opj_end_decompress"),
      CK_BINDING(lib_functions, image_destroy, "opj_image_destroy"),
      CK_BINDING(lib_functions, stream_create, "opj_stream_create"),
      CK_BINDING(lib_functions, stream_destroy, "opj_stream_destroy"),
      CK_BINDING(lib_functions, stream_read, "opj_stream_set_read_function"),
      CK_BINDING(lib_functions, stream_skip, "opj_stream_set_skip_function"),
      CK_BINDING(lib_functions, stream_seek, "opj_stream_set_seek_function"),
      CK_BINDING(lib_functions, stream_user_data, "opj_stream_set_user_data"),
      CK_BINDING(lib_functions, stream_length, "opj_stream_set_user_data_length"),
      CK_BINDING(lib_functions, error_handler, "opj_set_error_handler"),
      CK_BINDING(lib_functions, warning_handler, "opj_set_warning_handler"),
      CK_BINDING(lib_functions, info_handler, "opj_set_info_handler"),
      CK_BINDING(lib_functions, cstr_info, "opj_get_cstr_info"),
      CK_BINDING(lib_functions, destroy_cstr_info, "opj_destroy_cstr_info"),
  };
  if (!ck_runtime_library_bind_all(handle, &lib, bindings, sizeof bindings / sizeof *bindings, "libopenjp2",
                                   "OpenJPEG 2.3 or later is needed", loading.message, sizeof loading.message))
    return;
  const char *version = lib.version();
  if (!version || version[0] != '2' || version[1] != '.' || atoi(version + 2) < 3) {
    say(loading.message, "the OpenJPEG found is %s; the shim speaks OpenJPEG 2.3 and later", version ? version : "?");
    return;
  }
  loading.status = CK_OK;
}

int ck_jp2_load(char *message) { return ck_load_once(&loading, load, message, CK_JP2_MESSAGE_LENGTH); }

// Reading from memory.
typedef struct {
  const uint8_t *data;
  size_t size, at;
} memory_stream;

static size_t stream_read(void *buffer, size_t count, void *user) {
  memory_stream *m = user;
  if (m->at >= m->size) return (size_t)-1;
  size_t n = count < m->size - m->at ? count : m->size - m->at;
  memcpy(buffer, m->data + m->at, n);
  m->at += n;
  return n;
}

static int64_t stream_skip(int64_t count, void *user) {
  memory_stream *m = user;
  if (count < 0) {
    if ((size_t)(-count) > m->at) return -1;
    m->at -= (size_t)(-count);
    return count;
  }
  size_t left = m->size - m->at;
  size_t n = (uint64_t)count < left ? (size_t)count : left;
  m->at += n;
  return (int64_t)n;
}

static OPJ_BOOL stream_seek(int64_t position, void *user) {
  memory_stream *m = user;
  if (position < 0 || (uint64_t)position > m->size) return 0;
  m->at = (size_t)position;
  return 1;
}

struct ck_jp2 {
  uint8_t *data;
  size_t size;
  int format;  // CODEC_JP2 or CODEC_J2K
  uint32_t x0, y0, x1, y1;
  uint8_t *icc;
  ck_jp2_info info;
  int alpha_component;  // from the `cdef` box, -1 when none
  char error[CK_JP2_MESSAGE_LENGTH];
  // One decoding run.
  void *codec, *stream;
  memory_stream reader;
  opj_image_t *image;
};

static void on_error(const char *text, void *user) {
  ck_jp2 *jp2 = user;
  if (jp2->error[0]) return;  // the first error says most
  ck_runtime_message(jp2->error, sizeof jp2->error, "%s", text);
  size_t n = strlen(jp2->error);
  while (n > 0 && (jp2->error[n - 1] == '\n' || jp2->error[n - 1] == ' ')) jp2->error[--n] = 0;
}

static void on_nothing(const char *text, void *user) {
  (void)text;
  (void)user;
}

static void end_run(ck_jp2 *jp2) {
  if (jp2->image) lib.image_destroy(jp2->image);
  if (jp2->stream) lib.stream_destroy(jp2->stream);
  if (jp2->codec) lib.destroy_codec(jp2->codec);
  jp2->image = NULL;
  jp2->stream = NULL;
  jp2->codec = NULL;
}

/// A codec and a stream over the data, the decoder set up to reduce `reduce` times, the main header read.
static int start_run(ck_jp2 *jp2, int reduce, int threads, char *message) {
  end_run(jp2);
  jp2->error[0] = 0;
  jp2->codec = lib.create_decompress(jp2->format);
  jp2->stream = lib.stream_create(1 << 16, 1);
  if (!jp2->codec || !jp2->stream) {
    say(message, "OpenJPEG could not create a decoder");
    return CK_JP2_ERR_MEMORY;
  }
  lib.error_handler(jp2->codec, on_error, jp2);
  lib.warning_handler(jp2->codec, on_nothing, jp2);
  lib.info_handler(jp2->codec, on_nothing, jp2);
  jp2->reader = (memory_stream){jp2->data, jp2->size, 0};
  lib.stream_read(jp2->stream, stream_read);
  lib.stream_skip(jp2->stream, stream_skip);
  lib.stream_seek(jp2->stream, stream_seek);
  lib.stream_user_data(jp2->stream, &jp2->reader, NULL);
  lib.stream_length(jp2->stream, jp2->size);
  DecoderParameters parameters;
  memset(&parameters, 0, sizeof parameters);
  lib.default_parameters(&parameters);
  parameters.cp_reduce = (uint32_t)reduce;
  if (!lib.setup_decoder(jp2->codec, &parameters)) {
    say(message, "OpenJPEG refused the decoder's settings%s%s", jp2->error[0] ? ": " : "", jp2->error);
    return CK_JP2_ERR_USAGE;
  }
  if (threads > 1) lib.set_threads(jp2->codec, threads);  // fails harmlessly without thread support
  if (!lib.read_header(jp2->stream, jp2->codec, &jp2->image) || !jp2->image) {
    say(message, "reading the header: %s", jp2->error[0] ? jp2->error : "OpenJPEG could not read it");
    return CK_JP2_ERR_CORRUPT;
  }
  return CK_JP2_OK;
}

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

/// What the JP2 boxes and the codestream's main header say that OpenJPEG tells only after decoding (or not at all):
/// the enumerated colour space, the ICC profile, which component is alpha, the resolution levels.
typedef struct {
  uint32_t enumcs;              // 0 when none
  const uint8_t *icc;           // in the data
  uint32_t icc_size;
  int alpha_component;          // -1 when none
  uint32_t resolutions;         // 0 when not found
} header_facts;

/// The COD marker's decomposition levels, from a codestream's main header (SOC, then marker segments up to SOT).
static uint32_t resolutions_in(const uint8_t *p, size_t n) {
  if (n < 4 || p[0] != 0xFF || p[1] != 0x4F) return 0;
  size_t at = 2;
  while (at + 4 <= n && p[at] == 0xFF) {
    uint8_t marker = p[at + 1];
    if (marker == 0x90 || marker == 0x93) break;  // SOT, SOD: the main header is over
    uint16_t length = be16(p + at + 2);
    if (length < 2 || at + 2 + length > n) break;
    // COD: Scod, then SGcod (progression, 2-byte layers, MCT), then SPcod's decomposition levels.
    if (marker == 0x52 && length >= 8) return (uint32_t)p[at + 2 + 2 + 1 + 4] + 1;
    at += 2 + length;
  }
  return 0;
}

static void read_facts(const uint8_t *p, size_t n, int jp2, header_facts *facts) {
  memset(facts, 0, sizeof *facts);
  facts->alpha_component = -1;
  if (!jp2) {
    facts->resolutions = resolutions_in(p, n);
    return;
  }
  size_t at = 0;
  for (int boxes = 0; at + 8 <= n && boxes < 1000; boxes++) {
    uint64_t length = be32(p + at);
    const uint8_t *type = p + at + 4;
    size_t header = 8;
    if (length == 1) {
      if (at + 16 > n) break;
      length = (uint64_t)be32(p + at + 8) << 32 | be32(p + at + 12);
      header = 16;
    } else if (length == 0) {
      length = n - at;
    }
    if (length < header || length > n - at) break;
    const uint8_t *body = p + at + header;
    size_t size = (size_t)length - header;
    if (memcmp(type, "jp2h", 4) == 0) {
      size_t in = 0;
      while (in + 8 <= size) {
        uint32_t sub = be32(body + in);
        if (sub < 8 || sub > size - in) break;
        const uint8_t *sb = body + in + 8;
        size_t ss = sub - 8;
        if (memcmp(body + in + 4, "colr", 4) == 0 && ss >= 3 && facts->enumcs == 0 && !facts->icc) {
          if (sb[0] == 1 && ss >= 7) facts->enumcs = be32(sb + 3);
          if ((sb[0] == 2 || sb[0] == 3) && ss > 3) {
            facts->icc = sb + 3;
            facts->icc_size = (uint32_t)(ss - 3);
          }
        } else if (memcmp(body + in + 4, "cdef", 4) == 0 && ss >= 2) {
          uint16_t count = be16(sb);
          for (uint16_t i = 0; i < count && 2 + 6 * (size_t)(i + 1) <= ss; i++) {
            uint16_t component = be16(sb + 2 + 6 * i), kind = be16(sb + 4 + 6 * i);
            if (kind == 1 || kind == 2) facts->alpha_component = component;
          }
        }
        in += sub;
      }
    } else if (memcmp(type, "jp2c", 4) == 0) {
      facts->resolutions = resolutions_in(body, size);
    }
    at += (size_t)length;
  }
}

int ck_jp2_open(const uint8_t *data, size_t size, ck_jp2 **out, ck_jp2_info *info, char *message) {
  *out = NULL;
  memset(info, 0, sizeof *info);
  int status = ck_jp2_load(message);
  if (status != CK_JP2_OK) return status;
  ck_jp2 *jp2 = calloc(1, sizeof *jp2);
  if (!jp2) {
    say(message, "out of memory");
    return CK_JP2_ERR_MEMORY;
  }
  *out = jp2;
  jp2->data = malloc(size ? size : 1);
  if (!jp2->data) {
    say(message, "out of memory");
    return CK_JP2_ERR_MEMORY;
  }
  memcpy(jp2->data, data, size);
  jp2->size = size;
  // A raw codestream starts with SOC and SIZ (FF 4F FF 51); anything else is read as a JP2 file.
  jp2->format = size >= 4 && data[0] == 0xFF && data[1] == 0x4F && data[2] == 0xFF && data[3] == 0x51 ? CODEC_J2K : CODEC_JP2;
  status = start_run(jp2, 0, 1, message);
  if (status != CK_JP2_OK) return status;
  opj_image_t *image = jp2->image;
  if (image->x1 <= image->x0 || image->y1 <= image->y0 || image->numcomps == 0) {
    say(message, "the header gives no picture (%u components, %u×%u)", image->numcomps, image->x1 - image->x0,
        image->y1 - image->y0);
    return CK_JP2_ERR_CORRUPT;
  }
  jp2->x0 = image->x0;
  jp2->y0 = image->y0;
  jp2->x1 = image->x1;
  jp2->y1 = image->y1;
  header_facts facts;
  read_facts(jp2->data, jp2->size, jp2->format == CODEC_JP2, &facts);
  jp2->alpha_component = facts.alpha_component;
  info->width = image->x1 - image->x0;
  info->height = image->y1 - image->y0;
  info->components = image->numcomps;
  // OpenJPEG sets the colour space from the `colr` box only when it decodes; the box says it now.
  info->color_space = facts.enumcs == 16 ? CLRSPC_SRGB : facts.enumcs == 17 ? CLRSPC_GRAY
                    : facts.enumcs == 18 ? CLRSPC_SYCC : facts.enumcs == 24 ? CLRSPC_EYCC
                    : facts.enumcs == 12 ? CLRSPC_CMYK : image->color_space;
  info->jp2 = jp2->format == CODEC_JP2;
  uint32_t colour = 0;
  for (uint32_t c = 0; c < image->numcomps; c++) {
    const opj_image_comp_t *comp = &image->comps[c];
    if (comp->prec > info->precision) info->precision = comp->prec;
    if (comp->sgnd) info->is_signed = 1;
    const int is_alpha = comp->alpha || (int)c == facts.alpha_component ||
                         (facts.alpha_component < 0 && jp2->format == CODEC_J2K && (image->numcomps == 2 || image->numcomps == 4) &&
                          c == image->numcomps - 1);
    if (is_alpha) {
      if (info->alpha) continue;  // one alpha channel; a second is ignored
      info->alpha = 1;
    } else {
      colour++;
      if (comp->dx != image->comps[0].dx || comp->dy != image->comps[0].dy) info->subsampled = 1;
    }
    if (comp->prec < 1 || comp->prec > 31 || comp->dx == 0 || comp->dy == 0) {
      say(message, "component %u has %u bits and a %u×%u sampling", c, comp->prec, comp->dx, comp->dy);
      return CK_JP2_ERR_CORRUPT;
    }
  }
  if (info->color_space == CLRSPC_CMYK) {
    say(message, "CMYK JPEG 2000");
    return CK_JP2_ERR_UNSUPPORTED;
  }
  const uint32_t gray = colour < 3;
  info->channels = (gray ? 1 : 3) + (info->alpha ? 1 : 0);
  info->sixteen = info->precision > 8;
  if (facts.icc && facts.icc_size > 0) {
    jp2->icc = malloc(facts.icc_size);
    if (jp2->icc) {
      memcpy(jp2->icc, facts.icc, facts.icc_size);
      info->icc = jp2->icc;
      info->icc_size = facts.icc_size;
    }
  }
  opj_codestream_info_v2_t *cstr = lib.cstr_info(jp2->codec);
  if (cstr) {
    info->tiles = cstr->tw * cstr->th;
    info->tile_width = cstr->tdx;
    info->tile_height = cstr->tdy;
    lib.destroy_cstr_info(&cstr);
  }
  // The COD marker's levels (a COC marker may give a component fewer: OpenJPEG then refuses the reduction, named).
  info->resolutions = facts.resolutions > 0 && facts.resolutions <= 33 ? facts.resolutions : 1;
  jp2->info = *info;
  end_run(jp2);
  return CK_JP2_OK;
}

static uint32_t ceil_div(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a + b - 1) / b); }

void ck_jp2_reduced_size(const ck_jp2 *jp2, int reduce, uint32_t *width, uint32_t *height) {
  const uint32_t f = 1u << reduce;
  *width = ceil_div(jp2->x1, f) - ceil_div(jp2->x0, f);
  *height = ceil_div(jp2->y1, f) - ceil_div(jp2->y0, f);
}

/// A component's sample at output pixel (x, y), 0…max (signed components offset), nearest for subsampled ones.
static inline int64_t sample(const opj_image_comp_t *comp, uint32_t x, uint32_t y, uint32_t fx, uint32_t fy) {
  uint32_t cx = x / fx, cy = y / fy;
  if (cx >= comp->w) cx = comp->w - 1;
  if (cy >= comp->h) cy = comp->h - 1;
  int64_t v = comp->data[(size_t)cy * comp->w + cx];
  if (comp->sgnd) v += (int64_t)1 << (comp->prec - 1);
  const int64_t max = ((int64_t)1 << comp->prec) - 1;
  return v < 0 ? 0 : v > max ? max : v;
}

/// `v` of `prec` bits as an 8-bit or 16-bit sample, rounded.
static inline uint32_t scaled(int64_t v, uint32_t prec, int sixteen) {
  const int64_t max = ((int64_t)1 << prec) - 1, out = sixteen ? 65535 : 255;
  if (max == out) return (uint32_t)v;
  return (uint32_t)((v * out * 2 + max) / (max * 2));
}

int ck_jp2_decode(ck_jp2 *jp2, int reduce, int threads, uint8_t *output, size_t stride, char *message) {
  if (!jp2 || !jp2->data || reduce < 0 || (uint32_t)reduce >= jp2->info.resolutions) {
    say(message, "ck_jp2_decode called without an open file or with reduction %d", reduce);
    return CK_JP2_ERR_USAGE;
  }
  int status = start_run(jp2, reduce, threads, message);
  if (status != CK_JP2_OK) {
    end_run(jp2);
    return status;
  }
  if (!lib.decode(jp2->codec, jp2->stream, jp2->image) || !lib.end_decompress(jp2->codec, jp2->stream)) {
    say(message, "decoding: %s", jp2->error[0] ? jp2->error : "OpenJPEG could not decode the data");
    end_run(jp2);
    return CK_JP2_ERR_CORRUPT;
  }
  opj_image_t *image = jp2->image;
  uint32_t width, height;
  ck_jp2_reduced_size(jp2, reduce, &width, &height);
  // The colour components (in order) and the alpha one.
  const opj_image_comp_t *colour[3] = {NULL, NULL, NULL}, *alpha = NULL;
  uint32_t colours = 0;
  for (uint32_t c = 0; c < image->numcomps; c++) {
    const opj_image_comp_t *comp = &image->comps[c];
    if (!comp->data || comp->w == 0 || comp->h == 0) {
      say(message, "decoding: component %u came out empty", c);
      end_run(jp2);
      return CK_JP2_ERR_CORRUPT;
    }
    const int is_alpha = comp->alpha || (int)c == jp2->alpha_component ||
                         (jp2->alpha_component < 0 && jp2->format == CODEC_J2K && (image->numcomps == 2 || image->numcomps == 4) &&
                          c == image->numcomps - 1);
    if (is_alpha) {
      if (!alpha) alpha = comp;
    } else if (colours < 3) {
      colour[colours++] = comp;
    }
  }
  const int gray = jp2->info.channels <= 2;
  const int sycc = !gray && (jp2->info.color_space == CLRSPC_SYCC ||
                             (jp2->info.color_space != CLRSPC_SRGB && jp2->info.subsampled));
  const int sixteen = jp2->info.sixteen;
  const uint32_t channels = jp2->info.channels;
  // How many output pixels one sample of each component covers (1 unless subsampled).
  uint32_t fx[4], fy[4];
  const opj_image_comp_t *order[4] = {colour[0], colour[1], colour[2], alpha};
  for (int i = 0; i < 4; i++) {
    const opj_image_comp_t *comp = order[i] ? order[i] : colour[0];
    fx[i] = comp->w >= width ? 1 : ceil_div(width, comp->w);
    fy[i] = comp->h >= height ? 1 : ceil_div(height, comp->h);
  }
  for (uint32_t y = 0; y < height; y++) {
    uint8_t *row = output + (size_t)y * stride;
    for (uint32_t x = 0; x < width; x++) {
      uint32_t out[4];
      if (gray) {
        out[0] = scaled(sample(colour[0], x, y, fx[0], fy[0]), colour[0]->prec, sixteen);
      } else if (sycc) {
        // sYCC to RGB (ITU-T T.800 Annex G; as OpenJPEG's own tools convert), on the components' own scale.
        const uint32_t prec = colour[0]->prec;
        const double offset = (double)((int64_t)1 << (prec - 1)), max = (double)(((int64_t)1 << prec) - 1);
        const double yy = (double)sample(colour[0], x, y, fx[0], fy[0]);
        const double cb = (double)sample(colour[1], x, y, fx[1], fy[1]) - offset;
        const double cr = (double)sample(colour[2], x, y, fx[2], fy[2]) - offset;
        const double rgb[3] = {yy + 1.402 * cr, yy - 0.344136 * cb - 0.714136 * cr, yy + 1.772 * cb};
        for (int i = 0; i < 3; i++) {
          double v = rgb[i] < 0 ? 0 : rgb[i] > max ? max : rgb[i];
          out[i] = scaled((int64_t)(v + 0.5), prec, sixteen);
        }
      } else {
        for (int i = 0; i < 3; i++) {
          const opj_image_comp_t *comp = colour[i] ? colour[i] : colour[0];
          out[i] = scaled(sample(comp, x, y, fx[i], fy[i]), comp->prec, sixteen);
        }
      }
      if (alpha) out[channels - 1] = scaled(sample(alpha, x, y, fx[3], fy[3]), alpha->prec, sixteen);
      for (uint32_t i = 0; i < channels; i++) {
        if (sixteen) {
          uint16_t v = (uint16_t)out[i];
          memcpy(row + ((size_t)x * channels + i) * 2, &v, 2);
        } else {
          row[(size_t)x * channels + i] = (uint8_t)out[i];
        }
      }
    }
  }
  end_run(jp2);
  return CK_JP2_OK;
}

void ck_jp2_close(ck_jp2 *jp2) {
  if (!jp2) return;
  end_run(jp2);
  free(jp2->data);
  free(jp2->icc);
  free(jp2);
}
