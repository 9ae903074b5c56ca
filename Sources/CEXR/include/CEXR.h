#ifndef LUMEN_CEXR_H
#define LUMEN_CEXR_H
// OpenEXR through its C library, OpenEXRCore 3.1 (Debian libopenexr-dev for the headers;
// libopenexr-3-1-30 at run time), opened with dlopen on first use like libheif, libjxl and
// LibRaw. Scanline and tiled files, half, float and uint channels; pixels are linear light,
// premultiplied by alpha as EXR stores them.
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int32_t width, height;        // the data window's size
    int32_t has_alpha;            // an A channel
    int32_t gray;                 // Y instead of R, G, B
    int32_t bits;                 // 16 for half, 32 for float or uint (the widest colour channel)
    int32_t tiled;
    int32_t compression;          // exr_compression_t
    int32_t parts;
} CEXR_Info;

typedef struct {
    uint8_t *data;
    size_t size;
} CEXR_Buffer;

/// Reads the header of the first part. Returns 1, or 0 with `error`.
int CEXR_read_info(const uint8_t *data, size_t size, CEXR_Info *info, char *error, size_t error_size);

/// Decodes the first part into `out`: `width × height` pixels of `channels` Float32 (3 RGB,
/// 4 RGBA; Y is copied to R, G and B), rows top first, premultiplied as stored.
int CEXR_decode(const uint8_t *data, size_t size, int channels, float *out, size_t out_floats,
                char *error, size_t error_size);

/// Writes a scanline EXR of `channels` (3 or 4) Float32 samples a pixel, as half (`bits`
/// 16) or float (32) channels, ZIP-compressed (or PIZ when `piz`).
int CEXR_encode(const float *pixels, int width, int height, int channels, int bits, int piz,
                CEXR_Buffer *out, char *error, size_t error_size);

void CEXR_free(CEXR_Buffer *buffer);

#endif
