#ifndef LUMEN_CLCMS_H
#define LUMEN_CLCMS_H
// Shims over Little CMS 2: its pixel-format constants are function-like macros that
// Swift cannot import, so the transforms Lumen needs are named here.
#include <stddef.h>
#include <stdint.h>

typedef struct CLCMS_Transform CLCMS_Transform;

typedef enum {
    CLCMS_GRAY = 0, CLCMS_RGB = 1, CLCMS_RGBA = 2, CLCMS_GRAY_ALPHA = 3,
    CLCMS_CMYK = 4,          // ink amounts, 0 = no ink
    CLCMS_CMYK_INVERTED = 5, // Adobe's inverted CMYK (255 = no ink)
    CLCMS_CMYK_ALPHA = 6     // CMYK (0 = no ink) and alpha
} CLCMS_Layout;

/// Writes the profile's description into `text` (empty when unreadable). Returns 0 or -1.
int CLCMS_describe(const uint8_t *icc, size_t length, char *text, size_t textLength);
/// A transform from the embedded profile to sRGB. Gray stays gray (sRGB tone curve),
/// CMYK becomes RGB; alpha is copied. `depth` is 8 or 16 (host byte order). NULL on error.
CLCMS_Transform *CLCMS_create_to_srgb(const uint8_t *icc, size_t length, CLCMS_Layout layout, int depth,
                                      char *message, size_t messageLength);
/// Converts `pixels` pixels from `input` to `output` (which may not overlap).
void CLCMS_apply(CLCMS_Transform *transform, const void *input, void *output, size_t pixels);
void CLCMS_destroy(CLCMS_Transform *transform);

/// When `icc` is an RGB matrix/TRC profile without lookup tables (Display P3, Adobe RGB, ProPhoto…), writes the
/// affine map from its linear RGB to linear sRGB — `toSRGB` (row-major) times the colour, plus `offset` — and
/// returns 1; else 0. The map is Little CMS's relative colorimetric one with black-point compensation: the
/// offset is zero unless the profile's black is not black (then it maps to sRGB's).
int CLCMS_matrix_shaper(const uint8_t *icc, size_t length, double toSRGB[9], double offset[3]);
/// Samples channel `channel`'s tone curve (or its inverse) at `count` points over 0…1. Returns 0 or -1.
int CLCMS_curve_table(const uint8_t *icc, size_t length, int channel, int inverse, float *table, int count);
/// A profile built by Little CMS: 0 sRGB, 1 Display P3. Free with CLCMS_free.
uint8_t *CLCMS_make_profile(int which, size_t *length);
void CLCMS_free(void *bytes);
/// Converts RGB pixels (8- or 16-bit) in `icc` (NULL = sRGB) to CIE Lab (D50), for measuring.
int CLCMS_to_lab(const uint8_t *icc, size_t length, const void *rgb, int depth, size_t pixels, double *lab);
/// CIEDE2000 between two Lab colours.
double CLCMS_delta_e2000(const double *lab1, const double *lab2);

#endif
