#include "CJXL.h"
#include <jxl/decode.h>
#include <jxl/encode.h>
#include <jxl/thread_parallel_runner.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- libjxl, opened once --------------------------------------------------------------

#define JXL_FUNCTIONS(X) \
    X(JxlDecoderCreate) X(JxlDecoderDestroy) X(JxlDecoderSubscribeEvents) X(JxlDecoderSetInput) \
    X(JxlDecoderCloseInput) X(JxlDecoderProcessInput) X(JxlDecoderGetBasicInfo) X(JxlDecoderGetICCProfileSize) \
    X(JxlDecoderGetColorAsICCProfile) X(JxlDecoderGetFrameHeader) X(JxlDecoderGetBoxType) X(JxlDecoderSetBoxBuffer) \
    X(JxlDecoderReleaseBoxBuffer) X(JxlDecoderSetDecompressBoxes) X(JxlDecoderSetKeepOrientation) \
    X(JxlDecoderSetUnpremultiplyAlpha) X(JxlDecoderSkipFrames) X(JxlDecoderImageOutBufferSize) \
    X(JxlDecoderSetImageOutBuffer) X(JxlDecoderSetParallelRunner) X(JxlDecoderSetJPEGBuffer) X(JxlDecoderReleaseJPEGBuffer) \
    X(JxlEncoderCreate) X(JxlEncoderDestroy) X(JxlEncoderSetParallelRunner) X(JxlEncoderInitBasicInfo) \
    X(JxlEncoderSetBasicInfo) X(JxlEncoderSetICCProfile) X(JxlEncoderSetColorEncoding) X(JxlColorEncodingSetToSRGB) \
    X(JxlEncoderUseBoxes) X(JxlEncoderUseContainer) X(JxlEncoderAddBox) X(JxlEncoderCloseBoxes) \
    X(JxlEncoderFrameSettingsCreate) X(JxlEncoderFrameSettingsSetOption) X(JxlEncoderSetFrameDistance) \
    X(JxlEncoderSetFrameLossless) X(JxlEncoderAddImageFrame) X(JxlEncoderAddJPEGFrame) X(JxlEncoderStoreJPEGMetadata) \
    X(JxlEncoderCloseInput) X(JxlEncoderProcessOutput) X(JxlEncoderGetError) X(JxlEncoderInitFrameHeader) \
    X(JxlEncoderSetFrameHeader) X(JxlEncoderCloseFrames)

#define THREAD_FUNCTIONS(X) X(JxlThreadParallelRunner) X(JxlThreadParallelRunnerCreate) X(JxlThreadParallelRunnerDestroy)

#define DECLARE(name) __typeof__(name) *name;
static struct { JXL_FUNCTIONS(DECLARE) THREAD_FUNCTIONS(DECLARE) } jxl;
static int loaded;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libjxl.so.0.7", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "libjxl is not installed (%s)", reason ? reason : "dlopen failed");
        return;
    }
    void *threads = dlopen("libjxl_threads.so.0.7", RTLD_NOW | RTLD_LOCAL);
    if (!threads) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "libjxl_threads is not installed (%s)", reason ? reason : "dlopen failed");
        return;
    }
#define RESOLVE(name) \
    if (!(jxl.name = (__typeof__(jxl.name))dlsym(LIBRARY, #name))) { \
        snprintf(failure, sizeof failure, "libjxl has no %s", #name); return; }
#define LIBRARY library
    JXL_FUNCTIONS(RESOLVE)
#undef LIBRARY
#define LIBRARY threads
    THREAD_FUNCTIONS(RESOLVE)
#undef LIBRARY
    loaded = 1;
}

static int ready(char *error, size_t error_size) {
    pthread_once(&once, load);
    if (!loaded) snprintf(error, error_size, "%s", failure);
    return loaded;
}

int CJXL_available(char *error, size_t error_size) { return ready(error, error_size); }

void CJXL_free(CJXL_Buffer *buffer) {
    if (!buffer) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
}

#define FAIL(...) do { snprintf(error, error_size, __VA_ARGS__); goto done; } while (0)

static void *runner_for(int threads) {
    return threads > 1 ? jxl.JxlThreadParallelRunnerCreate(NULL, (size_t)threads) : NULL;
}

// ---- reading ------------------------------------------------------------------------

/// A box being read into a growing buffer.
typedef struct {
    CJXL_Buffer *target;
    size_t capacity;
} BoxReader;

static const size_t box_limit = 256u << 20;

static int box_finish(JxlDecoder *dec, BoxReader *box) {
    if (!box->target) return 1;
    size_t remaining = jxl.JxlDecoderReleaseBoxBuffer(dec);
    box->target->size = box->capacity - remaining;
    box->target = NULL;
    return 1;
}

static int box_grow(JxlDecoder *dec, BoxReader *box) {
    if (!box->target) return 0;
    size_t used = box->capacity - jxl.JxlDecoderReleaseBoxBuffer(dec);
    if (box->capacity >= box_limit) return 0;
    size_t capacity = box->capacity * 2;
    uint8_t *grown = realloc(box->target->data, capacity);
    if (!grown) return 0;
    box->target->data = grown;
    box->capacity = capacity;
    return jxl.JxlDecoderSetBoxBuffer(dec, grown + used, capacity - used) == JXL_DEC_SUCCESS;
}

static int box_start(JxlDecoder *dec, BoxReader *box, CJXL_Buffer *target) {
    box->capacity = 65536;
    target->data = malloc(box->capacity);
    if (!target->data) return 0;
    box->target = target;
    return jxl.JxlDecoderSetBoxBuffer(dec, target->data, box->capacity) == JXL_DEC_SUCCESS;
}

int CJXL_read_info(const uint8_t *data, size_t size, CJXL_Info *info, CJXL_Buffer *icc,
                   CJXL_Buffer *exif, CJXL_Buffer *xmp, CJXL_Buffer *durations,
                   char *error, size_t error_size) {
    memset(info, 0, sizeof *info);
    *icc = (CJXL_Buffer){0}; *exif = (CJXL_Buffer){0}; *xmp = (CJXL_Buffer){0}; *durations = (CJXL_Buffer){0};
    if (!ready(error, error_size)) return 0;
    int ok = 0, have_info = 0;
    size_t frames_capacity = 0;
    uint32_t tps_num = 1, tps_den = 1;
    BoxReader box = {0};
    JxlDecoder *dec = jxl.JxlDecoderCreate(NULL);
    if (!dec) FAIL("out of memory");
    if (jxl.JxlDecoderSubscribeEvents(dec, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_FRAME | JXL_DEC_BOX) != JXL_DEC_SUCCESS)
        FAIL("libjxl refused the events");
    jxl.JxlDecoderSetDecompressBoxes(dec, JXL_TRUE);
    // The stored size and the orientation field as they are (by default libjxl reports the
    // upright size and orientation 1, which would not match CJXL_decode's stored pixels).
    jxl.JxlDecoderSetKeepOrientation(dec, JXL_TRUE);
    jxl.JxlDecoderSetInput(dec, data, size);
    jxl.JxlDecoderCloseInput(dec);
    for (;;) {
        JxlDecoderStatus status = jxl.JxlDecoderProcessInput(dec);
        if (status == JXL_DEC_ERROR) FAIL(have_info ? "the file is damaged" : "not a valid JPEG XL file");
        if (status == JXL_DEC_NEED_MORE_INPUT) FAIL("the file is truncated");
        if (status == JXL_DEC_SUCCESS) { box_finish(dec, &box); break; }
        if (status == JXL_DEC_BASIC_INFO) {
            JxlBasicInfo basic;
            if (jxl.JxlDecoderGetBasicInfo(dec, &basic) != JXL_DEC_SUCCESS) FAIL("cannot read the header");
            info->width = basic.xsize; info->height = basic.ysize;
            info->bits = basic.bits_per_sample;
            info->is_float = basic.exponent_bits_per_sample > 0;
            info->color_channels = basic.num_color_channels;
            info->has_alpha = basic.alpha_bits > 0;
            info->alpha_premultiplied = basic.alpha_premultiplied ? 1 : 0;
            info->orientation = basic.orientation;
            info->animated = basic.have_animation ? 1 : 0;
            info->loop_count = basic.have_animation ? basic.animation.num_loops : 0;
            info->lossy = basic.uses_original_profile ? 0 : 1;
            info->intensity_target = (uint32_t)basic.intensity_target;
            if (basic.have_animation && basic.animation.tps_numerator > 0) {
                tps_num = basic.animation.tps_numerator;
                tps_den = basic.animation.tps_denominator;
            }
            have_info = 1;
        } else if (status == JXL_DEC_COLOR_ENCODING) {
            size_t n = 0;
            if (jxl.JxlDecoderGetICCProfileSize(dec, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &n) == JXL_DEC_SUCCESS && n > 0 && n < box_limit) {
                icc->data = malloc(n);
                if (!icc->data) FAIL("out of memory");
                if (jxl.JxlDecoderGetColorAsICCProfile(dec, NULL, JXL_COLOR_PROFILE_TARGET_DATA, icc->data, n) != JXL_DEC_SUCCESS) {
                    CJXL_free(icc);
                } else {
                    icc->size = n;
                }
            }
        } else if (status == JXL_DEC_FRAME) {
            JxlFrameHeader frame;
            if (jxl.JxlDecoderGetFrameHeader(dec, &frame) != JXL_DEC_SUCCESS) FAIL("cannot read a frame header");
            info->frame_count++;
            if (info->animated) {
                if (durations->size + 4 > frames_capacity) {
                    frames_capacity = frames_capacity ? frames_capacity * 2 : 64;
                    uint8_t *grown = realloc(durations->data, frames_capacity);
                    if (!grown) FAIL("out of memory");
                    durations->data = grown;
                }
                double ms = (double)frame.duration * 1000.0 * tps_den / tps_num;
                uint32_t value = ms > 4e9 ? 4000000000u : (uint32_t)(ms + 0.5);
                memcpy(durations->data + durations->size, &value, 4);
                durations->size += 4;
            }
        } else if (status == JXL_DEC_BOX) {
            box_finish(dec, &box);
            JxlBoxType type;
            if (jxl.JxlDecoderGetBoxType(dec, type, JXL_TRUE) != JXL_DEC_SUCCESS) continue;
            if (!memcmp(type, "Exif", 4) && !exif->data) {
                if (!box_start(dec, &box, exif)) FAIL("out of memory");
            } else if (!memcmp(type, "xml ", 4) && !xmp->data) {
                if (!box_start(dec, &box, xmp)) FAIL("out of memory");
            } else if (!memcmp(type, "jbrd", 4)) {
                info->jpeg_reconstruction = 1;
            }
        } else if (status == JXL_DEC_BOX_NEED_MORE_OUTPUT) {
            if (!box_grow(dec, &box)) FAIL("a metadata box is too large");
        }
    }
    if (!have_info) FAIL("not a valid JPEG XL file");
    if (info->frame_count == 0) info->frame_count = 1;
    // The Exif box starts with the offset of the TIFF header within the rest.
    if (exif->data) {
        uint32_t offset = exif->size >= 4 ? ((uint32_t)exif->data[0] << 24 | (uint32_t)exif->data[1] << 16 | (uint32_t)exif->data[2] << 8 | exif->data[3]) : UINT32_MAX;
        if (offset > exif->size - 4 || exif->size < 4) {
            CJXL_free(exif);
        } else {
            memmove(exif->data, exif->data + 4 + offset, exif->size - 4 - offset);
            exif->size -= 4 + offset;
        }
    }
    ok = 1;
done:
    if (dec) jxl.JxlDecoderDestroy(dec);
    if (!ok) { CJXL_free(icc); CJXL_free(exif); CJXL_free(xmp); CJXL_free(durations); }
    return ok;
}

int CJXL_decode(const uint8_t *data, size_t size, uint32_t frame, uint32_t channels, uint32_t depth,
                void *out, size_t out_size, int threads, char *error, size_t error_size) {
    if (!ready(error, error_size)) return 0;
    int ok = 0, have_image = 0;
    void *runner = NULL;
    JxlDecoder *dec = jxl.JxlDecoderCreate(NULL);
    if (!dec) FAIL("out of memory");
    runner = runner_for(threads);
    if (runner && jxl.JxlDecoderSetParallelRunner(dec, jxl.JxlThreadParallelRunner, runner) != JXL_DEC_SUCCESS)
        FAIL("libjxl refused its thread pool");
    if (jxl.JxlDecoderSubscribeEvents(dec, JXL_DEC_FULL_IMAGE) != JXL_DEC_SUCCESS) FAIL("libjxl refused the events");
    jxl.JxlDecoderSetKeepOrientation(dec, JXL_TRUE);
    jxl.JxlDecoderSetUnpremultiplyAlpha(dec, JXL_TRUE);
    if (frame > 0) jxl.JxlDecoderSkipFrames(dec, frame);
    jxl.JxlDecoderSetInput(dec, data, size);
    jxl.JxlDecoderCloseInput(dec);
    JxlPixelFormat format = { channels, depth == 8 ? JXL_TYPE_UINT8 : JXL_TYPE_UINT16, JXL_NATIVE_ENDIAN, 0 };
    for (;;) {
        JxlDecoderStatus status = jxl.JxlDecoderProcessInput(dec);
        if (status == JXL_DEC_ERROR) FAIL("the file is damaged");
        if (status == JXL_DEC_NEED_MORE_INPUT) FAIL("the file is truncated");
        if (status == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            size_t needed = 0;
            if (jxl.JxlDecoderImageOutBufferSize(dec, &format, &needed) != JXL_DEC_SUCCESS) FAIL("libjxl cannot deliver %u channels", channels);
            if (needed != out_size) FAIL("the frame is not the size of the image (%zu bytes, expected %zu)", needed, out_size);
            if (jxl.JxlDecoderSetImageOutBuffer(dec, &format, out, out_size) != JXL_DEC_SUCCESS) FAIL("libjxl refused the output buffer");
        } else if (status == JXL_DEC_FULL_IMAGE) {
            have_image = 1;
            break;
        } else if (status == JXL_DEC_SUCCESS) {
            break;
        }
    }
    if (!have_image) FAIL("the file has no frame %u", frame);
    ok = 1;
done:
    if (dec) jxl.JxlDecoderDestroy(dec);
    if (runner) jxl.JxlThreadParallelRunnerDestroy(runner);
    return ok;
}

// ---- writing ------------------------------------------------------------------------

static const char *encoder_error(JxlEncoder *enc) {
    switch (jxl.JxlEncoderGetError(enc)) {
    case JXL_ENC_ERR_OOM: return "out of memory";
    case JXL_ENC_ERR_JBRD: return "this JPEG cannot be recompressed losslessly (libjxl keeps only baseline and progressive Huffman-coded JPEGs)";
    case JXL_ENC_ERR_BAD_INPUT: return "libjxl refused the input";
    case JXL_ENC_ERR_NOT_SUPPORTED: return "libjxl does not support this input";
    case JXL_ENC_ERR_API_USAGE: return "libjxl API misuse (a Lumen bug)";
    default: return "libjxl could not encode";
    }
}

/// Runs the encoder to the end into `out`.
static int drain(JxlEncoder *enc, CJXL_Buffer *out, char *error, size_t error_size) {
    size_t capacity = 1 << 16;
    out->data = malloc(capacity);
    out->size = 0;
    if (!out->data) { snprintf(error, error_size, "out of memory"); return 0; }
    for (;;) {
        uint8_t *next = out->data + out->size;
        size_t avail = capacity - out->size;
        JxlEncoderStatus status = jxl.JxlEncoderProcessOutput(enc, &next, &avail);
        out->size = (size_t)(next - out->data);
        if (status == JXL_ENC_SUCCESS) return 1;
        if (status != JXL_ENC_NEED_MORE_OUTPUT) {
            snprintf(error, error_size, "%s", encoder_error(enc));
            CJXL_free(out);
            return 0;
        }
        capacity *= 2;
        uint8_t *grown = realloc(out->data, capacity);
        if (!grown) { snprintf(error, error_size, "out of memory"); CJXL_free(out); return 0; }
        out->data = grown;
    }
}

#define CHECK(call) do { if ((call) != JXL_ENC_SUCCESS) FAIL("%s", encoder_error(enc)); } while (0)

int CJXL_encode(const CJXL_EncodeSettings *s, const void *pixels, CJXL_Buffer *out, char *error, size_t error_size) {
    *out = (CJXL_Buffer){0};
    if (!ready(error, error_size)) return 0;
    int ok = 0;
    uint8_t *exif_box = NULL;
    void *runner = NULL;
    JxlEncoder *enc = jxl.JxlEncoderCreate(NULL);
    if (!enc) FAIL("out of memory");
    runner = runner_for(s->threads);
    if (runner) CHECK(jxl.JxlEncoderSetParallelRunner(enc, jxl.JxlThreadParallelRunner, runner));
    int has_alpha = s->channels == 2 || s->channels == 4;
    if (s->exif || s->xmp) CHECK(jxl.JxlEncoderUseBoxes(enc));
    JxlBasicInfo info;
    jxl.JxlEncoderInitBasicInfo(&info);
    info.xsize = s->width;
    info.ysize = s->height;
    info.bits_per_sample = s->depth;
    info.exponent_bits_per_sample = 0;
    info.num_color_channels = s->channels >= 3 ? 3 : 1;
    info.num_extra_channels = has_alpha ? 1 : 0;
    info.alpha_bits = has_alpha ? s->depth : 0;
    info.uses_original_profile = s->lossless ? JXL_TRUE : JXL_FALSE;
    CHECK(jxl.JxlEncoderSetBasicInfo(enc, &info));
    if (s->icc && s->icc_size) {
        if (jxl.JxlEncoderSetICCProfile(enc, s->icc, s->icc_size) != JXL_ENC_SUCCESS) FAIL("libjxl refused the ICC profile");
    } else {
        JxlColorEncoding color;
        jxl.JxlColorEncodingSetToSRGB(&color, info.num_color_channels == 1);
        // Perceptual, as the sRGB chunk Lumen's PNGs carry says (cjxl copies the chunk's intent).
        color.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL;
        CHECK(jxl.JxlEncoderSetColorEncoding(enc, &color));
    }
    if (s->exif && s->exif_size) {
        exif_box = calloc(1, s->exif_size + 4);  // a zero offset: the TIFF header follows at once
        if (!exif_box) FAIL("out of memory");
        memcpy(exif_box + 4, s->exif, s->exif_size);
        CHECK(jxl.JxlEncoderAddBox(enc, "Exif", exif_box, s->exif_size + 4, JXL_FALSE));
    }
    if (s->xmp && s->xmp_size) CHECK(jxl.JxlEncoderAddBox(enc, "xml ", s->xmp, s->xmp_size, JXL_FALSE));
    if (s->exif || s->xmp) jxl.JxlEncoderCloseBoxes(enc);
    JxlEncoderFrameSettings *settings = jxl.JxlEncoderFrameSettingsCreate(enc, NULL);
    if (!settings) FAIL("out of memory");
    CHECK(jxl.JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, s->effort));
    if (s->lossless) {
        CHECK(jxl.JxlEncoderSetFrameDistance(settings, 0));
        CHECK(jxl.JxlEncoderSetFrameLossless(settings, JXL_TRUE));
    } else {
        CHECK(jxl.JxlEncoderSetFrameDistance(settings, s->distance));
    }
    JxlPixelFormat format = { s->channels, s->depth == 8 ? JXL_TYPE_UINT8 : JXL_TYPE_UINT16, JXL_NATIVE_ENDIAN, 0 };
    size_t bytes = (size_t)s->width * s->channels * (s->depth / 8) * s->height;
    CHECK(jxl.JxlEncoderAddImageFrame(settings, &format, pixels, bytes));
    jxl.JxlEncoderCloseInput(enc);
    ok = drain(enc, out, error, error_size);
done:
    free(exif_box);
    if (enc) jxl.JxlEncoderDestroy(enc);
    if (runner) jxl.JxlThreadParallelRunnerDestroy(runner);
    return ok;
}

int CJXL_recompress_jpeg(const uint8_t *jpeg, size_t size, int effort, int threads, CJXL_Buffer *out,
                         char *error, size_t error_size) {
    *out = (CJXL_Buffer){0};
    if (!ready(error, error_size)) return 0;
    int ok = 0;
    void *runner = NULL;
    JxlEncoder *enc = jxl.JxlEncoderCreate(NULL);
    if (!enc) FAIL("out of memory");
    runner = runner_for(threads);
    if (runner) CHECK(jxl.JxlEncoderSetParallelRunner(enc, jxl.JxlThreadParallelRunner, runner));
    CHECK(jxl.JxlEncoderUseContainer(enc, JXL_TRUE));
    CHECK(jxl.JxlEncoderStoreJPEGMetadata(enc, JXL_TRUE));
    JxlEncoderFrameSettings *settings = jxl.JxlEncoderFrameSettingsCreate(enc, NULL);
    if (!settings) FAIL("out of memory");
    CHECK(jxl.JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, effort));
    CHECK(jxl.JxlEncoderAddJPEGFrame(settings, jpeg, size));
    jxl.JxlEncoderCloseInput(enc);
    ok = drain(enc, out, error, error_size);
done:
    if (enc) jxl.JxlEncoderDestroy(enc);
    if (runner) jxl.JxlThreadParallelRunnerDestroy(runner);
    return ok;
}

int CJXL_reconstruct_jpeg(const uint8_t *data, size_t size, CJXL_Buffer *out, char *error, size_t error_size) {
    *out = (CJXL_Buffer){0};
    if (!ready(error, error_size)) return 0;
    int ok = 0, finished = 0;
    size_t capacity = 0;
    JxlDecoder *dec = jxl.JxlDecoderCreate(NULL);
    if (!dec) FAIL("out of memory");
    if (jxl.JxlDecoderSubscribeEvents(dec, JXL_DEC_JPEG_RECONSTRUCTION | JXL_DEC_FULL_IMAGE) != JXL_DEC_SUCCESS)
        FAIL("libjxl refused the events");
    jxl.JxlDecoderSetInput(dec, data, size);
    jxl.JxlDecoderCloseInput(dec);
    for (;;) {
        JxlDecoderStatus status = jxl.JxlDecoderProcessInput(dec);
        if (status == JXL_DEC_ERROR) FAIL("the file is damaged");
        if (status == JXL_DEC_NEED_MORE_INPUT) FAIL("the file is truncated");
        if (status == JXL_DEC_JPEG_RECONSTRUCTION) {
            capacity = size * 2 + 65536;
            out->data = malloc(capacity);
            if (!out->data) FAIL("out of memory");
            if (jxl.JxlDecoderSetJPEGBuffer(dec, out->data, capacity) != JXL_DEC_SUCCESS) FAIL("libjxl refused the JPEG buffer");
        } else if (status == JXL_DEC_JPEG_NEED_MORE_OUTPUT) {
            size_t used = capacity - jxl.JxlDecoderReleaseJPEGBuffer(dec);
            capacity *= 2;
            uint8_t *grown = realloc(out->data, capacity);
            if (!grown) FAIL("out of memory");
            out->data = grown;
            if (jxl.JxlDecoderSetJPEGBuffer(dec, grown + used, capacity - used) != JXL_DEC_SUCCESS) FAIL("libjxl refused the JPEG buffer");
        } else if (status == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            FAIL("the file holds no JPEG to rebuild (it was not recompressed from a JPEG)");
        } else if (status == JXL_DEC_FULL_IMAGE) {
            if (!out->data) FAIL("the file holds no JPEG to rebuild (it was not recompressed from a JPEG)");
            out->size = capacity - jxl.JxlDecoderReleaseJPEGBuffer(dec);
            finished = 1;
            break;
        } else if (status == JXL_DEC_SUCCESS) {
            break;
        }
    }
    if (!finished) FAIL("the file holds no JPEG to rebuild");
    ok = 1;
done:
    if (dec) jxl.JxlDecoderDestroy(dec);
    if (!ok) CJXL_free(out);
    return ok;
}

// ---- animations -----------------------------------------------------------------------

struct CJXL_Animation {
    JxlEncoder *enc;
    JxlEncoderFrameSettings *settings;
    void *runner;
    uint32_t width, height;
};

void CJXL_animation_free(CJXL_Animation *a) {
    if (!a) return;
    if (a->enc) jxl.JxlEncoderDestroy(a->enc);
    if (a->runner) jxl.JxlThreadParallelRunnerDestroy(a->runner);
    free(a);
}

CJXL_Animation *CJXL_animation_begin(uint32_t width, uint32_t height, float distance, int effort, int lossless,
                                     uint32_t loops, int threads, char *error, size_t error_size) {
    if (!ready(error, error_size)) return NULL;
    CJXL_Animation *a = calloc(1, sizeof *a);
    if (!a) { snprintf(error, error_size, "out of memory"); return NULL; }
    JxlEncoder *enc = a->enc = jxl.JxlEncoderCreate(NULL);
    if (!enc) FAIL("out of memory");
    a->width = width;
    a->height = height;
    a->runner = runner_for(threads);
    if (a->runner) CHECK(jxl.JxlEncoderSetParallelRunner(enc, jxl.JxlThreadParallelRunner, a->runner));
    CHECK(jxl.JxlEncoderUseBoxes(enc));
    JxlBasicInfo info;
    jxl.JxlEncoderInitBasicInfo(&info);
    info.xsize = width;
    info.ysize = height;
    info.bits_per_sample = 8;
    info.num_color_channels = 3;
    info.num_extra_channels = 1;
    info.alpha_bits = 8;
    info.uses_original_profile = lossless ? JXL_TRUE : JXL_FALSE;
    info.have_animation = JXL_TRUE;
    info.animation.tps_numerator = 1000;  // durations in milliseconds
    info.animation.tps_denominator = 1;
    info.animation.num_loops = loops;
    CHECK(jxl.JxlEncoderSetBasicInfo(enc, &info));
    JxlColorEncoding color;
    jxl.JxlColorEncodingSetToSRGB(&color, JXL_FALSE);
    color.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL;
    CHECK(jxl.JxlEncoderSetColorEncoding(enc, &color));
    a->settings = jxl.JxlEncoderFrameSettingsCreate(enc, NULL);
    if (!a->settings) FAIL("out of memory");
    CHECK(jxl.JxlEncoderFrameSettingsSetOption(a->settings, JXL_ENC_FRAME_SETTING_EFFORT, effort));
    if (lossless) {
        CHECK(jxl.JxlEncoderSetFrameDistance(a->settings, 0));
        CHECK(jxl.JxlEncoderSetFrameLossless(a->settings, JXL_TRUE));
    } else {
        CHECK(jxl.JxlEncoderSetFrameDistance(a->settings, distance));
    }
    return a;
done:
    CJXL_animation_free(a);
    return NULL;
}

int CJXL_animation_add(CJXL_Animation *a, const uint8_t *rgba, uint32_t milliseconds, char *error, size_t error_size) {
    int ok = 0;
    JxlEncoder *enc = a->enc;
    JxlFrameHeader header;
    jxl.JxlEncoderInitFrameHeader(&header);
    header.duration = milliseconds;
    CHECK(jxl.JxlEncoderSetFrameHeader(a->settings, &header));
    JxlPixelFormat format = { 4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0 };
    CHECK(jxl.JxlEncoderAddImageFrame(a->settings, &format, rgba, (size_t)a->width * a->height * 4));
    ok = 1;
done:
    return ok;
}

int CJXL_animation_finish(CJXL_Animation *a, const uint8_t *exif, size_t exif_size, const uint8_t *xmp, size_t xmp_size,
                          CJXL_Buffer *out, char *error, size_t error_size) {
    *out = (CJXL_Buffer){0};
    int ok = 0;
    uint8_t *exif_box = NULL;
    JxlEncoder *enc = a->enc;
    jxl.JxlEncoderCloseFrames(enc);
    if (exif && exif_size) {
        exif_box = calloc(1, exif_size + 4);
        if (!exif_box) FAIL("out of memory");
        memcpy(exif_box + 4, exif, exif_size);
        CHECK(jxl.JxlEncoderAddBox(enc, "Exif", exif_box, exif_size + 4, JXL_FALSE));
    }
    if (xmp && xmp_size) CHECK(jxl.JxlEncoderAddBox(enc, "xml ", xmp, xmp_size, JXL_FALSE));
    jxl.JxlEncoderCloseInput(enc);
    ok = drain(enc, out, error, error_size);
done:
    free(exif_box);
    return ok;
}
