#ifndef LUMEN_CJPEG_H
#define LUMEN_CJPEG_H
// Shims over libjpeg(-turbo). libjpeg reports errors by calling error_exit, which
// must not return; these shims catch it with setjmp/longjmp in C (Swift cannot) and
// turn it into a -1 return plus a message.
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

typedef struct CJPEG_Decoder CJPEG_Decoder;
typedef struct CJPEG_Encoder CJPEG_Encoder;

typedef struct {
    int width, height, components;
    int colorSpace;       // 1 gray, 2 RGB, 3 YCbCr, 4 CMYK, 5 YCCK (J_COLOR_SPACE)
    int progressive;
    int adobeInverted;    // CMYK stored inverted (Adobe APP14), the common case
    int densityUnit;      // JFIF: 0 none (aspect only or no JFIF), 1 per inch, 2 per cm
    int xDensity, yDensity;
} CJPEG_Header;

/// Creates a decoder over `length` bytes at `data`; the bytes must outlive the decoder.
CJPEG_Decoder *CJPEG_decoder_create(const uint8_t *data, size_t length);
void CJPEG_decoder_destroy(CJPEG_Decoder *decoder);
const char *CJPEG_decoder_message(const CJPEG_Decoder *decoder);
/// The first warning libjpeg raised (corrupt data it decoded around), or NULL; `count` gets how many.
const char *CJPEG_warning(const CJPEG_Decoder *decoder, int *count);
/// Reads the markers up to the first scan. Returns 0 or -1.
int CJPEG_read_header(CJPEG_Decoder *decoder, CJPEG_Header *header);
/// The EXIF APP1 payload (after "Exif\0\0") or NULL.
const uint8_t *CJPEG_exif(CJPEG_Decoder *decoder, size_t *length);
/// The payload after `prefix` of the first APPn marker (`marker` = n) starting with it, or NULL.
const uint8_t *CJPEG_marker(CJPEG_Decoder *decoder, int marker, const char *prefix, size_t prefixLength, size_t *length);
/// The ICC profile assembled from APP2 markers, or NULL. Owned by the decoder.
const uint8_t *CJPEG_icc(CJPEG_Decoder *decoder, size_t *length);
/// Starts decompression at 1/`scaleDenominator` (1, 2, 4, 8). `outComponents` is 1
/// (gray), 3 (RGB) or 4 (CMYK as stored). Writes the output size. Returns 0 or -1.
int CJPEG_start(CJPEG_Decoder *decoder, int scaleDenominator, int outComponents,
                int *outWidth, int *outHeight);
/// Reads up to `maxRows` rows into `buffer` (rows `stride` bytes apart).
/// Returns the number of rows read, or -1 on error (a truncated file is an error).
int CJPEG_read_rows(CJPEG_Decoder *decoder, uint8_t *buffer, size_t stride, int maxRows);
/// Skips `count` rows without color conversion or upsampling. Returns rows skipped or -1.
int CJPEG_skip_rows(CJPEG_Decoder *decoder, int count);
/// Ends decoding; `complete` is 0 when the caller stopped before the last row.
int CJPEG_finish(CJPEG_Decoder *decoder, int complete);

/// Creates an encoder writing to `file`, which it closes when finished or destroyed.
/// `components` is 1 or 3; the JFIF density is written when `densityUnit` is 1 (inch) or 2 (cm).
CJPEG_Encoder *CJPEG_encoder_create(FILE *file, int width, int height, int components,
                                    int quality, int subsample444, int progressive,
                                    int densityUnit, int xDensity, int yDensity, char *message,
                                    size_t messageLength);
/// Writes an APPn marker (`marker` = n) of `prefix` then `data`, before the first row. Returns 0 or -1.
int CJPEG_write_marker(CJPEG_Encoder *encoder, int marker, const char *prefix, size_t prefixLength,
                       const uint8_t *data, size_t length);
/// Writes an ICC profile as APP2 markers (split as needed), before the first row.
int CJPEG_write_icc(CJPEG_Encoder *encoder, const uint8_t *icc, size_t length);
int CJPEG_write_rows(CJPEG_Encoder *encoder, const uint8_t *rows, size_t stride, int count);
/// Finishes the stream and closes the file. Returns 0 or -1.
int CJPEG_encoder_finish(CJPEG_Encoder *encoder);
void CJPEG_encoder_destroy(CJPEG_Encoder *encoder);
const char *CJPEG_encoder_message(const CJPEG_Encoder *encoder);

#endif
