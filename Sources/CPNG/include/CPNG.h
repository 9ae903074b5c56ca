#ifndef LUMEN_CPNG_H
#define LUMEN_CPNG_H
// Shims over libpng. libpng reports errors by longjmp to a setjmp point; these
// shims keep that in C and turn it into a -1 return plus a message.
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

typedef struct CPNG_Decoder CPNG_Decoder;
typedef struct CPNG_Encoder CPNG_Encoder;

typedef struct {
    int width, height;
    int bitDepth;      // as stored: 1, 2, 4, 8, 16
    int colorType;     // PNG color type: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA
    int interlaced;
    int hasTransparency;  // tRNS chunk
    int hasICC;
} CPNG_Header;

/// Creates a decoder over `length` bytes at `data`; the bytes must outlive the decoder.
CPNG_Decoder *CPNG_decoder_create(const uint8_t *data, size_t length);
void CPNG_decoder_destroy(CPNG_Decoder *decoder);
const char *CPNG_decoder_message(const CPNG_Decoder *decoder);
/// The first warning libpng raised while decoding, or NULL.
const char *CPNG_warning(const CPNG_Decoder *decoder);
int CPNG_read_header(CPNG_Decoder *decoder, CPNG_Header *header);
/// The ICC profile (iCCP chunk, decompressed) or NULL.
const uint8_t *CPNG_icc(CPNG_Decoder *decoder, size_t *length);
/// The profile of the file's iCCP chunk, found and inflated without libpng (which drops
/// profiles its checks dislike, such as Krita's v4 "sRGB built-in with linear gamma TRC"):
/// malloc'ed (free it), or NULL when there is none.
uint8_t *CPNG_raw_icc(const uint8_t *data, size_t length, size_t *profileLength);
/// The body of the first chunk of `type` ("eXIf") anywhere in the file, IDAT's far side
/// included (libpng hands over only what comes before the pixels), or NULL.
const uint8_t *CPNG_raw_chunk(const uint8_t *data, size_t length, const char *type, size_t *chunkLength);
/// The raw eXIf payload or NULL.
const uint8_t *CPNG_exif(CPNG_Decoder *decoder, size_t *length);
/// Sets up expansion to 8 or 16 bits per channel (palette → RGB, tRNS → alpha,
/// low-bit gray → 8-bit; 16-bit samples in host byte order). Writes the channel count
/// (1–4) and depth (8 or 16) of the rows `CPNG_read_rows` delivers.
int CPNG_start(CPNG_Decoder *decoder, int *channels, int *depth);
/// Reads `count` rows. Interlaced images must be read whole (count = height).
int CPNG_read_rows(CPNG_Decoder *decoder, uint8_t *buffer, size_t stride, int count);
int CPNG_finish(CPNG_Decoder *decoder);

/// The XMP packet of an iTXt "XML:com.adobe.xmp" chunk before the pixels, or NULL.
const uint8_t *CPNG_xmp(CPNG_Decoder *decoder, size_t *length);
/// The pHYs resolution in pixels per metre; 0 when absent or only an aspect ratio.
int CPNG_resolution(CPNG_Decoder *decoder, unsigned *xPerMeter, unsigned *yPerMeter);

/// What an encoder writes beside the pixels (any pointer may be NULL).
typedef struct {
    const uint8_t *icc; size_t iccLength;     // iCCP, written as given (no libpng profile checks)
    int srgb;                                 // 1: the profile is sRGB: the sRGB chunk instead of iCCP
    int filters;                              // PNG_FILTER_* mask for png_set_filter; 0 = libpng's choice
    const uint8_t *exif; size_t exifLength;   // eXIf
    const uint8_t *xmp; size_t xmpLength;     // iTXt XML:com.adobe.xmp
    unsigned xPixelsPerMeter, yPixelsPerMeter; // pHYs when both are > 0
    int cicpTransfer;                         // > 0: a cICP chunk (BT.709 primaries, this H.273 transfer, full range) instead of sRGB/iCCP
} CPNG_Metadata;

/// Creates an encoder writing to `file` (closed when finished or destroyed): `channels` 1–4 (gray, gray+alpha, RGB, RGBA),
/// `depth` 8 or 16 (16-bit rows in host byte order), zlib `level` 0–9, with `metadata` (may be NULL).
CPNG_Encoder *CPNG_encoder_create(FILE *file, int width, int height, int channels,
                                  int depth, int level, const CPNG_Metadata *metadata,
                                  char *message, size_t messageLength);
int CPNG_write_rows(CPNG_Encoder *encoder, const uint8_t *rows, size_t stride, int count);
int CPNG_encoder_finish(CPNG_Encoder *encoder);
void CPNG_encoder_destroy(CPNG_Encoder *encoder);
const char *CPNG_encoder_message(const CPNG_Encoder *encoder);

#endif
