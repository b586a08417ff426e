// A small C layer over Little CMS 2 (lcms2) for CropCodecs, loaded at run time.
//
// liblcms2 is opened with dlopen the first time a colour conversion is needed: the build needs no lcms2 headers, only
// the runtime library (Debian/Ubuntu's liblcms2-2, soname liblcms2.so.2). lcms2's API is opaque handles and
// functions; the pixel-layout words below are lcms2's documented TYPE_* encodings.
//
// Every conversion here goes to sRGB (lcms2's built-in sRGB profile), relative colorimetric with black-point
// compensation, and is safe to call from several threads at once (no 1-pixel cache).

#pragma once
#include "ck_status.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  CK_LCMS_OK = CK_OK,
  /// The profile could not be parsed, or does not describe the pixels' colour space.
  CK_LCMS_ERR_PROFILE = CK_ERR_CORRUPT,
  /// The runtime library is missing or lacks a symbol.
  CK_LCMS_ERR_UNAVAILABLE = CK_ERR_UNAVAILABLE,
};

/// Pixel layouts a conversion reads (the output has the same layout with RGB for CMYK and Lab input); alpha is copied.
enum {
  CK_LCMS_RGB8 = 0,
  CK_LCMS_RGBA8 = 1,
  CK_LCMS_RGB16 = 2,
  CK_LCMS_RGBA16 = 3,
  /// CMYK, 0 = no ink.
  CK_LCMS_CMYK8 = 4,
  /// CMYK as Adobe writes it in JPEG: 255 = no ink.
  CK_LCMS_CMYK8_INVERTED = 5,
  /// CIE L*a*b* (D50), as Little CMS encodes it: L* 0…100 as 0…255, a* and b* −128…127 as 0…255 (128 = 0).
  /// Converted to RGB8; no profile is read.
  CK_LCMS_LAB8 = 6,
  /// CIE L*a*b* (D50), 16-bit, ICC v4 encoding: L* 0…100 as 0…65535, a* and b* as (value + 128) · 257. To RGB16.
  CK_LCMS_LAB16 = 7,
  /// CMYK, 16-bit, 0 = no ink. To RGB16.
  CK_LCMS_CMYK16 = 8,
  /// Gray, 8 or 16-bit, with or without alpha: converted to gray with sRGB's tone curve (the profile must be gray).
  CK_LCMS_GRAY8 = 9,
  CK_LCMS_GRAYA8 = 10,
  CK_LCMS_GRAY16 = 11,
  CK_LCMS_GRAYA16 = 12,
};

#define CK_LCMS_MESSAGE_LENGTH 200

typedef struct ck_lcms_transform ck_lcms_transform;

int ck_lcms_load(char *message);

/// Whether the profile's description names sRGB (such a profile needs no conversion to sRGB). -1 when the profile
/// cannot be parsed.
int ck_lcms_is_srgb(const uint8_t *profile, size_t size);

/// A conversion from pixels described by `profile` in `layout` to sRGB (RGB8/RGBA8/RGB16/RGBA16 as the input's
/// depth and alpha; CMYK gives RGB8, or RGB16 from CMYK16; Lab, whose profile is lcms2's D50 Lab and `profile` unread, RGB8 or RGB16).
int ck_lcms_create(const uint8_t *profile, size_t size, int layout, ck_lcms_transform **transform, char *message);

/// Converts `pixels` pixels from `input` to `output` (which may be the same memory for RGB layouts). A C function so
/// that a decoder shim can call it for each row without leaving C; `transform` is a ck_lcms_transform.
void ck_lcms_convert(void *transform, const uint8_t *input, uint8_t *output, uint32_t pixels);

void ck_lcms_free(ck_lcms_transform *transform);

/// The bytes of lcms2's sRGB profile, to embed in outputs converted to sRGB; release with ck_lcms_free_bytes.
int ck_lcms_srgb_profile(uint8_t **bytes, size_t *size, char *message);

void ck_lcms_free_bytes(uint8_t *bytes);

/// Transfer characteristics ck_lcms_rgb_profile builds curves for (ITU-T H.273 numbering).
enum {
  CK_LCMS_TRANSFER_BT709 = 1,
  CK_LCMS_TRANSFER_GAMMA22 = 4,
  CK_LCMS_TRANSFER_GAMMA28 = 5,
  CK_LCMS_TRANSFER_LINEAR = 8,
  CK_LCMS_TRANSFER_SRGB = 13,
};

/// Builds a matrix/TRC RGB profile from chromaticities (red x, y, green x, y, blue x, y, white x, y) and one of the
/// transfer characteristics above, with `description` as its name: how an `nclx` colour description (HEIF, AVIF)
/// becomes an ICC profile. On success `*bytes` holds `*size` bytes, to release with ck_lcms_free_bytes.
int ck_lcms_rgb_profile(const double chromaticities[8], int transfer, const char *description, uint8_t **bytes,
                        size_t *size, char *message);

/// Builds a profile with a pure power-law tone curve (`gamma`: the decoding exponent, 1 / a PNG gAMA) from
/// chromaticities as ck_lcms_rgb_profile takes them: an RGB matrix/TRC profile, or with `gray` a gray profile (only
/// the white point is read). How a PNG's gAMA and cHRM chunks become an ICC profile.
int ck_lcms_gamma_profile(const double chromaticities[8], double gamma, int gray, const char *description,
                          uint8_t **bytes, size_t *size, char *message);

#ifdef __cplusplus
}
#endif
