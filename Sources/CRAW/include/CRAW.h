#ifndef LUMEN_CRAW_H
#define LUMEN_CRAW_H
// Camera RAW through LibRaw 0.20 (Debian libraw-dev for the headers; libraw20 at run
// time, its thread-safe libraw_r), opened with dlopen on first use as libheif and libjxl
// are. These functions open a file in memory, develop it with the settings given and
// hand back the pixels, or its embedded JPEG preview.
#include <stddef.h>
#include <stdint.h>

/// What a RAW file says, read without developing it.
typedef struct {
    uint32_t width, height;        // the developed picture at full size, before `orientation`
    uint32_t orientation;          // EXIF orientation 1…8, from the camera's flip
    uint32_t colors;               // colour filters of the sensor (3, or 4 for CMYG/RGBE)
    uint32_t dng_version;          // nonzero for DNG
    uint32_t preview_jpeg;         // the file embeds a JPEG preview
    uint32_t preview_width, preview_height;
    float iso, shutter, aperture, focal_length;
    int64_t timestamp;
    char make[64], model[64];
    float rgb_cam[3][3];           // white-balanced camera RGB to linear sRGB (LibRaw's rgb_cam)
    float pre_mul[3];              // the daylight multipliers that balance it (LibRaw's pre_mul)
} CRAW_Info;

/// How to develop: the CIRAWFilter subset LibRaw has.
typedef struct {
    int half_size;                 // 2×2 photosites per pixel, no demosaicing (shrink-on-load by 2)
    int depth;                     // 8 or 16 bits out
    int white_balance;             // 0 as shot, 1 automatic (grey world), 2 `multipliers`, 3 daylight (the camera's D65)
    float multipliers[4];          // R, G, B, G2 channel gains for white_balance 2
    float exposure;                // linear gain before development, 0.25…8 (LibRaw's exp_shift); 1 = none
    float preserve_highlights;     // 0…1: how much of the highlights the gain keeps
    int highlights;                // 0 clip, 1 unclip, 2 blend, 3…9 rebuild
    float noise_threshold;         // wavelet denoising threshold (0 off; 100…1000)
    int auto_brightness;           // dcraw's automatic brightening (off: the camera's exposure)
    int demosaic;                  // 0 linear, 1 VNG, 2 PPG, 3 AHD, 4 DCB, 11 DHT, 12 AAHD
} CRAW_Settings;

typedef struct {
    uint8_t *data;
    size_t size;
} CRAW_Buffer;

/// Reads what LibRaw knows without unpacking the sensor data. Returns 1, or 0 with `error`.
int CRAW_read_info(const uint8_t *data, size_t size, CRAW_Info *info, char *error, size_t error_size);

/// Develops the file into interleaved RGB rows (as stored: `orientation` not applied) of
/// `settings->depth` bits, sRGB primaries and sRGB's transfer curve. `*pixels` points at
/// `*width × *height × 3` samples inside `*image`, LibRaw's own picture (no copy: LibRaw's
/// working buffers are freed before it returns), released with CRAW_release.
int CRAW_develop(const uint8_t *data, size_t size, const CRAW_Settings *settings, void **image, const uint8_t **pixels,
                 uint32_t *width, uint32_t *height, char *error, size_t error_size);

/// Releases a picture CRAW_develop made.
void CRAW_release(void *image);

/// The embedded JPEG preview's bytes.
int CRAW_preview(const uint8_t *data, size_t size, CRAW_Buffer *jpeg, char *error, size_t error_size);

void CRAW_free(CRAW_Buffer *buffer);

#endif
