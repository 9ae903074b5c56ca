#ifndef LUMEN_CJXL_H
#define LUMEN_CJXL_H
// JPEG XL through libjxl (Debian libjxl-dev 0.7 for the headers; libjxl0.7 at run time).
// libjxl and its thread pool are opened with dlopen on first use, as libheif is, so a
// lumen process that never meets a JPEG XL file does not load them (libjxl pulls in
// libstdc++, brotli and highway). libjxl's decoder and encoder are event loops; these
// functions run them to the end and return plain results.
#include <stddef.h>
#include <stdint.h>

/// What a file's header and boxes say, read without decoding pixels.
typedef struct {
    uint32_t width, height;        // as stored, before `orientation` is applied
    uint32_t bits;                 // bits per sample of the colour channels
    int is_float;                  // samples are floating point (exponent bits > 0)
    uint32_t color_channels;       // 1 gray, 3 RGB
    int has_alpha;
    int alpha_premultiplied;
    uint32_t orientation;          // EXIF orientation 1…8
    int animated;
    uint32_t frame_count;          // frames shown (1 for a still)
    uint32_t loop_count;           // 0 = forever
    int lossy;                     // XYB-encoded (lossy VarDCT or lossy Modular)
    int jpeg_reconstruction;       // holds a jbrd box: the original JPEG can be rebuilt bit for bit
    uint32_t intensity_target;     // nits of the brightest value (255 for SDR)
} CJXL_Info;

/// Bytes allocated by these functions; release with CJXL_free.
typedef struct {
    uint8_t *data;
    size_t size;
} CJXL_Buffer;

/// Whether libjxl can be loaded; on 0, `error` says why.
int CJXL_available(char *error, size_t error_size);

/// Reads the header, the colour profile the decoded pixels are in (`icc`), the Exif box
/// (as a TIFF stream: its 4-byte offset removed), the XMP box, and the frames' durations
/// in milliseconds (`durations`, one uint32 per frame, for animations). Returns 1, or 0
/// with `error` set.
int CJXL_read_info(const uint8_t *data, size_t size, CJXL_Info *info, CJXL_Buffer *icc,
                   CJXL_Buffer *exif, CJXL_Buffer *xmp, CJXL_Buffer *durations,
                   char *error, size_t error_size);

/// Decodes frame `frame` (composited, as shown) into `out`: rows top first, as stored
/// (not oriented), `channels` interleaved channels (color channels, plus alpha when
/// `channels` is 2 or 4) of `depth` bits (8, or 16 host order), straight alpha.
/// `threads` ≤ 1 decodes on the calling thread.
int CJXL_decode(const uint8_t *data, size_t size, uint32_t frame, uint32_t channels, uint32_t depth,
                void *out, size_t out_size, int threads, char *error, size_t error_size);

/// How CJXL_encode writes.
typedef struct {
    uint32_t width, height;
    uint32_t channels;             // 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA
    uint32_t depth;                // 8, or 16 host order
    float distance;                // butteraugli distance (cjxl -d); ignored when lossless
    int effort;                    // 1 (fastest) … 9 (cjxl -e)
    int lossless;                  // mathematically lossless (Modular, original colour space)
    const uint8_t *icc; size_t icc_size;    // NULL: sRGB
    const uint8_t *exif; size_t exif_size;  // a TIFF stream, or NULL
    const uint8_t *xmp; size_t xmp_size;    // an XMP packet, or NULL
    int threads;
} CJXL_EncodeSettings;

/// Encodes one picture of `settings->height` rows of `width * channels * depth / 8` bytes.
int CJXL_encode(const CJXL_EncodeSettings *settings, const void *pixels, CJXL_Buffer *out,
                char *error, size_t error_size);

/// Recompresses a JPEG without decoding it to pixels, keeping what is needed to rebuild
/// the same JPEG bit for bit (`djxl x.jxl x.jpg`), as `cjxl x.jpg x.jxl` does by default.
int CJXL_recompress_jpeg(const uint8_t *jpeg, size_t size, int effort, int threads, CJXL_Buffer *out,
                         char *error, size_t error_size);

/// Rebuilds the JPEG a recompressed file came from (the file must hold a jbrd box).
int CJXL_reconstruct_jpeg(const uint8_t *data, size_t size, CJXL_Buffer *out, char *error, size_t error_size);

/// An animation being written: frames of one size, 8-bit RGBA, sRGB.
typedef struct CJXL_Animation CJXL_Animation;

/// Starts an animation of `width` × `height` frames (RGBA, 8 bits) that loops `loops` times
/// (0: forever), encoded at `distance` and `effort` or losslessly. NULL with `error` on failure.
CJXL_Animation *CJXL_animation_begin(uint32_t width, uint32_t height, float distance, int effort, int lossless,
                                     uint32_t loops, int threads, char *error, size_t error_size);
/// Adds a frame of `width × height × 4` bytes shown for `milliseconds`.
int CJXL_animation_add(CJXL_Animation *animation, const uint8_t *rgba, uint32_t milliseconds, char *error, size_t error_size);
/// Adds the Exif (a TIFF stream) and XMP boxes, ends the animation and returns its bytes.
int CJXL_animation_finish(CJXL_Animation *animation, const uint8_t *exif, size_t exif_size, const uint8_t *xmp, size_t xmp_size,
                          CJXL_Buffer *out, char *error, size_t error_size);
/// Releases an animation (finished or not).
void CJXL_animation_free(CJXL_Animation *animation);

void CJXL_free(CJXL_Buffer *buffer);

#endif
