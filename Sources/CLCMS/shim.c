// See include/clcms_shim.h. Declarations of the lcms2 2.x functions the shim calls, written from its documentation.
#include "clcms_shim.h"


#include "runtime_library.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COLORSPACE_SH(s) ((s) << 16)
#define FLAVOR_SH(s) ((s) << 13)
#define EXTRA_SH(e) ((e) << 7)
#define CHANNELS_SH(c) ((c) << 3)
#define BYTES_SH(b) (b)
enum { PT_GRAY = 3, PT_RGB = 4, PT_CMYK = 6, PT_LAB = 10 };
enum { SIG_RGB = 0x52474220, SIG_CMYK = 0x434D594B, SIG_GRAY = 0x47524159 };
enum { INTENT_RELATIVE = 1, FLAGS_NOCACHE = 0x0040, FLAGS_BPC = 0x2000, FLAGS_COPY_ALPHA = 0x04000000 };

static const uint32_t formats[] = {
    COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | BYTES_SH(1),
    COLORSPACE_SH(PT_RGB) | EXTRA_SH(1) | CHANNELS_SH(3) | BYTES_SH(1),
    COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | BYTES_SH(2),
    COLORSPACE_SH(PT_RGB) | EXTRA_SH(1) | CHANNELS_SH(3) | BYTES_SH(2),
    COLORSPACE_SH(PT_CMYK) | CHANNELS_SH(4) | BYTES_SH(1),
    COLORSPACE_SH(PT_CMYK) | CHANNELS_SH(4) | BYTES_SH(1) | FLAVOR_SH(1),
    COLORSPACE_SH(PT_LAB) | CHANNELS_SH(3) | BYTES_SH(1),
    COLORSPACE_SH(PT_LAB) | CHANNELS_SH(3) | BYTES_SH(2),
    COLORSPACE_SH(PT_CMYK) | CHANNELS_SH(4) | BYTES_SH(2),
    COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | BYTES_SH(1),
    COLORSPACE_SH(PT_GRAY) | EXTRA_SH(1) | CHANNELS_SH(1) | BYTES_SH(1),
    COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | BYTES_SH(2),
    COLORSPACE_SH(PT_GRAY) | EXTRA_SH(1) | CHANNELS_SH(1) | BYTES_SH(2),
};

typedef struct {
  void *(*open_profile_from_mem)(const void *, uint32_t);
  int (*close_profile)(void *);
  void *(*create_srgb)(void);
  void *(*create_lab4)(const void *);
  uint32_t (*color_space)(void *);
  uint32_t (*info_ascii)(void *, int, const char *, const char *, char *, uint32_t);
  void *(*create_transform)(void *, uint32_t, void *, uint32_t, uint32_t, uint32_t);
  void (*delete_transform)(void *);
  void (*do_transform)(void *, const void *, void *, uint32_t);
  int (*save_to_mem)(void *, void *, uint32_t *);
  void (*set_log_error_handler)(void *);
  void *(*build_parametric_curve)(void *, int32_t, const double *);
  void (*free_tone_curve)(void *);
  void *(*create_rgb_profile)(const double *, const double *, void *const *);
  void *(*create_gray_profile)(const double *, const void *);
  void *(*mlu_alloc)(void *, uint32_t);
  int (*mlu_set_ascii)(void *, const char *, const char *, const char *);
  void (*mlu_free)(void *);
  int (*write_tag)(void *, uint32_t, const void *);
} lib_functions;
static lib_functions lib;

struct ck_lcms_transform {
  void *transform;
};

static ck_load_state loading = CK_LOAD_STATE_INIT;

#define say(message, ...) ck_runtime_message(message, CK_LCMS_MESSAGE_LENGTH, __VA_ARGS__)

static void quiet(void *context, uint32_t code, const char *text) {
  (void)context;
  (void)code;
  (void)text;
}

static void load(void) {
  void *handle = ck_runtime_library_load(CK_LIBRARY_LCMS, loading.message, sizeof loading.message);
  if (!handle) return;
  static const ck_binding bindings[] = {
      CK_BINDING(lib_functions, open_profile_from_mem, "cmsOpenProfileFromMem"),
      CK_BINDING(lib_functions, close_profile, "cmsCloseProfile"),
      CK_BINDING(lib_functions, create_srgb, "cmsCreate_sRGBProfile"),
      CK_BINDING(lib_functions, create_lab4, "cmsCreateLab4Profile"),
      CK_BINDING(lib_functions, color_space, "cmsGetColorSpace"),
      CK_BINDING(lib_functions, info_ascii, "cmsGetProfileInfoASCII"),
      CK_BINDING(lib_functions, create_transform, "cmsCreateTransform"),
      CK_BINDING(lib_functions, delete_transform, "cmsDeleteTransform"),
      CK_BINDING(lib_functions, do_transform, "cmsDoTransform"),
      CK_BINDING(lib_functions, save_to_mem, "cmsSaveProfileToMem"),
      CK_BINDING(lib_functions, set_log_error_handler, "cmsSetLogErrorHandler"),
      CK_BINDING(lib_functions, build_parametric_curve, "cmsBuildParametricToneCurve"),
      CK_BINDING(lib_functions, free_tone_curve, "cmsFreeToneCurve"),
      CK_BINDING(lib_functions, create_rgb_profile, "cmsCreateRGBProfile"),
      CK_BINDING(lib_functions, create_gray_profile, "cmsCreateGrayProfile"),
      CK_BINDING(lib_functions, mlu_alloc, "cmsMLUalloc"),
      CK_BINDING(lib_functions, mlu_set_ascii, "cmsMLUsetASCII"),
      CK_BINDING(lib_functions, mlu_free, "cmsMLUfree"),
      CK_BINDING(lib_functions, write_tag, "cmsWriteTag"),
  };
  if (!ck_runtime_library_bind_all(handle, &lib, bindings, sizeof bindings / sizeof *bindings, "liblcms2",
                                   "Little CMS 2.8+ is needed", loading.message, sizeof loading.message))
    return;
  lib.set_log_error_handler((void *)quiet);
  loading.status = CK_OK;
}

int ck_lcms_load(char *message) { return ck_load_once(&loading, load, message, CK_LCMS_MESSAGE_LENGTH); }

int ck_lcms_is_srgb(const uint8_t *profile, size_t size) {
  if (ck_lcms_load(NULL) != CK_LCMS_OK || size > UINT32_MAX) return -1;
  void *p = lib.open_profile_from_mem(profile, (uint32_t)size);
  if (!p) return -1;
  char text[256] = {0};
  lib.info_ascii(p, 0 /* description */, "en", "US", text, sizeof text - 1);
  lib.close_profile(p);
  return strstr(text, "sRGB") != NULL;
}

/// A gray profile with sRGB's tone curve and D65 white: the output of gray conversions.
static void *gray_srgb_profile(void) {
  static const double srgb[] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
  static const double d65[3] = {0.3127, 0.3290, 1.0};
  void *curve = lib.build_parametric_curve(NULL, 4, srgb);
  if (!curve) return NULL;
  void *profile = lib.create_gray_profile(d65, curve);
  lib.free_tone_curve(curve);
  return profile;
}

int ck_lcms_create(const uint8_t *profile, size_t size, int layout, ck_lcms_transform **out, char *message) {
  *out = NULL;
  int status = ck_lcms_load(message);
  if (status != CK_LCMS_OK) return status;
  if (layout < 0 || layout > CK_LCMS_GRAYA16 || size > UINT32_MAX) {
    say(message, "invalid layout %d", layout);
    return CK_LCMS_ERR_PROFILE;
  }
  int lab = layout == CK_LCMS_LAB8 || layout == CK_LCMS_LAB16;
  // CIELab pixels are described by lcms2's own D50 Lab profile (the profile argument is not read).
  void *input = lab ? lib.create_lab4(NULL) : lib.open_profile_from_mem(profile, (uint32_t)size);
  if (!input) {
    say(message, "the ICC profile (%zu bytes) cannot be parsed", size);
    return CK_LCMS_ERR_PROFILE;
  }
  int cmyk = layout == CK_LCMS_CMYK8 || layout == CK_LCMS_CMYK8_INVERTED || layout == CK_LCMS_CMYK16;
  int gray = layout >= CK_LCMS_GRAY8 && layout <= CK_LCMS_GRAYA16;
  uint32_t space = lib.color_space(input);
  if (!lab && space != (cmyk ? SIG_CMYK : gray ? SIG_GRAY : SIG_RGB)) {
    lib.close_profile(input);
    say(message, "the ICC profile describes colour space '%c%c%c%c', the pixels are %s", (char)(space >> 24),
        (char)(space >> 16), (char)(space >> 8), (char)space, cmyk ? "CMYK" : gray ? "gray" : "RGB");
    return CK_LCMS_ERR_PROFILE;
  }
  // Gray pixels go to gray with sRGB's tone curve and white (what a gray picture without a profile is taken as).
  void *srgb = gray ? gray_srgb_profile() : lib.create_srgb();
  uint32_t output_format = layout == CK_LCMS_LAB16 || layout == CK_LCMS_CMYK16 ? formats[CK_LCMS_RGB16]
                           : cmyk || layout == CK_LCMS_LAB8                   ? formats[CK_LCMS_RGB8]
                                                                              : formats[layout];
  if (gray) output_format = formats[layout];
  uint32_t flags = FLAGS_NOCACHE | FLAGS_BPC |
                   (layout == CK_LCMS_RGBA8 || layout == CK_LCMS_RGBA16 || layout == CK_LCMS_GRAYA8 ||
                            layout == CK_LCMS_GRAYA16
                        ? FLAGS_COPY_ALPHA
                        : 0);
  void *transform = srgb ? lib.create_transform(input, formats[layout], srgb, output_format, INTENT_RELATIVE, flags) : NULL;
  lib.close_profile(input);
  if (srgb) lib.close_profile(srgb);
  if (!transform) {
    say(message, "Little CMS cannot convert from this profile to sRGB");
    return CK_LCMS_ERR_PROFILE;
  }
  ck_lcms_transform *result = malloc(sizeof *result);
  if (!result) {
    lib.delete_transform(transform);
    say(message, "out of memory");
    return CK_LCMS_ERR_PROFILE;
  }
  result->transform = transform;
  *out = result;
  return CK_LCMS_OK;
}

void ck_lcms_convert(void *transform, const uint8_t *input, uint8_t *output, uint32_t pixels) {
  lib.do_transform(((ck_lcms_transform *)transform)->transform, input, output, pixels);
}

void ck_lcms_free(ck_lcms_transform *transform) {
  if (!transform) return;
  lib.delete_transform(transform->transform);
  free(transform);
}

int ck_lcms_srgb_profile(uint8_t **bytes, size_t *size, char *message) {
  *bytes = NULL;
  *size = 0;
  int status = ck_lcms_load(message);
  if (status != CK_LCMS_OK) return status;
  void *srgb = lib.create_srgb();
  uint32_t needed = 0;
  if (!srgb || !lib.save_to_mem(srgb, NULL, &needed) || !(*bytes = malloc(needed)) ||
      !lib.save_to_mem(srgb, *bytes, &needed)) {
    if (srgb) lib.close_profile(srgb);
    free(*bytes);
    *bytes = NULL;
    say(message, "Little CMS cannot write its sRGB profile");
    return CK_LCMS_ERR_PROFILE;
  }
  lib.close_profile(srgb);
  *size = needed;
  return CK_LCMS_OK;
}

void ck_lcms_free_bytes(uint8_t *bytes) { free(bytes); }

/// Writes `profile` to new memory; closes it either way.
static int save_and_close(void *profile, uint8_t **bytes, size_t *size, char *message) {
  uint32_t needed = 0;
  int ok = lib.save_to_mem(profile, NULL, &needed) && (*bytes = malloc(needed)) && lib.save_to_mem(profile, *bytes, &needed);
  lib.close_profile(profile);
  if (!ok) {
    free(*bytes);
    *bytes = NULL;
    say(message, "Little CMS cannot write the profile");
    return CK_LCMS_ERR_PROFILE;
  }
  *size = needed;
  return CK_LCMS_OK;
}

/// A matrix/TRC RGB profile (or with `gray` a gray one, which reads only the white point) from chromaticities (red
/// x, y, green x, y, blue x, y, white x, y) and one tone curve, named `description`, saved into `*bytes`. Frees `curve`.
static int profile_from_curve(const double chromaticities[8], void *curve, int gray, const char *description,
                              uint8_t **bytes, size_t *size, char *message) {
  // cmsCIExyY white point and cmsCIExyYTRIPLE primaries: (x, y, Y) each.
  double white[3] = {chromaticities[6], chromaticities[7], 1.0};
  void *profile;
  if (gray) {
    profile = lib.create_gray_profile(white, curve);
  } else {
    double primaries[9] = {chromaticities[0], chromaticities[1], 1.0, chromaticities[2], chromaticities[3], 1.0,
                           chromaticities[4], chromaticities[5], 1.0};
    void *curves[3] = {curve, curve, curve};
    profile = lib.create_rgb_profile(white, primaries, curves);
  }
  lib.free_tone_curve(curve);
  if (!profile) {
    say(message, "Little CMS cannot build a profile from these chromaticities");
    return CK_LCMS_ERR_PROFILE;
  }
  void *mlu = lib.mlu_alloc(NULL, 1);
  if (mlu) {
    lib.mlu_set_ascii(mlu, "en", "US", description);
    lib.write_tag(profile, 0x64657363 /* desc */, mlu);
    lib.mlu_free(mlu);
  }
  return save_and_close(profile, bytes, size, message);
}

int ck_lcms_rgb_profile(const double chromaticities[8], int transfer, const char *description, uint8_t **bytes,
                        size_t *size, char *message) {
  *bytes = NULL;
  *size = 0;
  int status = ck_lcms_load(message);
  if (status != CK_LCMS_OK) return status;
  // Parametric curve type 4: Y = (aX + b)^g for X ≥ d, else cX (lcms2's parameters g, a, b, c, d).
  static const double srgb[] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
  static const double bt709[] = {1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081};
  double gamma[1];
  int type = 4;
  const double *parameters;
  switch (transfer) {
    case CK_LCMS_TRANSFER_SRGB: parameters = srgb; break;
    case CK_LCMS_TRANSFER_BT709: parameters = bt709; break;
    case CK_LCMS_TRANSFER_LINEAR: gamma[0] = 1.0, parameters = gamma, type = 1; break;
    case CK_LCMS_TRANSFER_GAMMA22: gamma[0] = 2.2, parameters = gamma, type = 1; break;
    case CK_LCMS_TRANSFER_GAMMA28: gamma[0] = 2.8, parameters = gamma, type = 1; break;
    default: say(message, "transfer characteristics %d have no ICC curve here", transfer); return CK_LCMS_ERR_PROFILE;
  }
  void *curve = lib.build_parametric_curve(NULL, type, parameters);
  if (!curve) {
    say(message, "Little CMS cannot build the tone curve");
    return CK_LCMS_ERR_PROFILE;
  }
  return profile_from_curve(chromaticities, curve, 0, description, bytes, size, message);
}

int ck_lcms_gamma_profile(const double chromaticities[8], double gamma, int gray, const char *description,
                          uint8_t **bytes, size_t *size, char *message) {
  *bytes = NULL;
  *size = 0;
  int status = ck_lcms_load(message);
  if (status != CK_LCMS_OK) return status;
  if (!(gamma >= 0.1 && gamma <= 10)) {
    say(message, "a gamma of %g is outside 0.1…10", gamma);
    return CK_LCMS_ERR_PROFILE;
  }
  double exponent[1] = {gamma};
  void *curve = lib.build_parametric_curve(NULL, 1, exponent);
  if (!curve) {
    say(message, "Little CMS cannot build the tone curve");
    return CK_LCMS_ERR_PROFILE;
  }
  return profile_from_curve(chromaticities, curve, gray, description, bytes, size, message);
}
