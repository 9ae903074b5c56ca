#include "CRAW.h"
#include <libraw/libraw.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RAW_FUNCTIONS(X) \
    X(libraw_init) X(libraw_open_buffer) X(libraw_unpack) X(libraw_unpack_thumb) X(libraw_dcraw_process) \
    X(libraw_dcraw_make_mem_image) X(libraw_dcraw_make_mem_thumb) X(libraw_dcraw_clear_mem) X(libraw_close) \
    X(libraw_strerror) X(libraw_set_dataerror_handler)

#define DECLARE(name) __typeof__(name) *name;
static struct { RAW_FUNCTIONS(DECLARE) } raw;
static int loaded;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libraw_r.so.20", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "LibRaw is not installed (%s)", reason ? reason : "dlopen failed");
        return;
    }
#define RESOLVE(name) \
    if (!(raw.name = (__typeof__(raw.name))dlsym(library, #name))) { \
        snprintf(failure, sizeof failure, "LibRaw has no %s", #name); return; }
    RAW_FUNCTIONS(RESOLVE)
    loaded = 1;
}

static int ready(char *error, size_t error_size) {
    pthread_once(&once, load);
    if (!loaded) snprintf(error, error_size, "%s", failure);
    return loaded;
}

void CRAW_free(CRAW_Buffer *buffer) {
    if (!buffer) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
}

#define FAIL(...) do { snprintf(error, error_size, __VA_ARGS__); goto done; } while (0)

/// The EXIF orientation of LibRaw's flip (dcraw's: 3 = 180°, 5 = 90° counter-clockwise, 6 = 90° clockwise).
static uint32_t orientation_of(int flip) {
    switch (flip) {
    case 3: return 3;
    case 5: return 8;
    case 6: return 6;
    default: return 1;
    }
}

/// LibRaw's report of data it could not read (it prints it by default): kept for the message.
static void data_error(void *context, const char *file, const int offset) {
    (void)file;
    int *where = context;
    if (*where < 0) *where = offset;
}

/// Where LibRaw last ran out of data, per handle: set by `data_error`.
static _Thread_local int short_at = -1;

/// The message for a failed LibRaw call: a truncated file says so.
static void describe(int status, char *error, size_t error_size) {
    if (short_at >= 0 || status == LIBRAW_IO_ERROR) snprintf(error, error_size, "the file is truncated or damaged (LibRaw ran out of data)");
    else snprintf(error, error_size, "%s", raw.libraw_strerror(status));
}

/// Opens `data` into a new LibRaw handle (the caller closes it).
static libraw_data_t *open_raw(const uint8_t *data, size_t size, char *error, size_t error_size) {
    libraw_data_t *lr = raw.libraw_init(0);
    if (!lr) { snprintf(error, error_size, "out of memory"); return NULL; }
    short_at = -1;
    raw.libraw_set_dataerror_handler(lr, data_error, &short_at);
    int status = raw.libraw_open_buffer(lr, (void *)data, size);
    if (status != LIBRAW_SUCCESS) {
        if (status == LIBRAW_FILE_UNSUPPORTED) snprintf(error, error_size, "not a RAW file LibRaw 0.20 knows");
        else describe(status, error, error_size);
        raw.libraw_close(lr);
        return NULL;
    }
    return lr;
}

int CRAW_read_info(const uint8_t *data, size_t size, CRAW_Info *info, char *error, size_t error_size) {
    memset(info, 0, sizeof *info);
    if (!ready(error, error_size)) return 0;
    libraw_data_t *lr = open_raw(data, size, error, error_size);
    if (!lr) return 0;
    info->width = lr->sizes.width;
    info->height = lr->sizes.height;
    // Pixel aspect ratios other than 1 are stretched by LibRaw when developing.
    if (lr->sizes.pixel_aspect > 1.001) info->width = (uint32_t)(lr->sizes.width * lr->sizes.pixel_aspect + 0.5);
    else if (lr->sizes.pixel_aspect < 0.999 && lr->sizes.pixel_aspect > 0) info->height = (uint32_t)(lr->sizes.height / lr->sizes.pixel_aspect + 0.5);
    info->orientation = orientation_of(lr->sizes.flip);
    info->colors = (uint32_t)lr->idata.colors;
    info->dng_version = lr->idata.dng_version;
    info->preview_jpeg = lr->thumbnail.tformat == LIBRAW_THUMBNAIL_JPEG;
    info->preview_width = lr->thumbnail.twidth;
    info->preview_height = lr->thumbnail.theight;
    info->iso = lr->other.iso_speed;
    info->shutter = lr->other.shutter;
    info->aperture = lr->other.aperture;
    info->focal_length = lr->other.focal_len;
    info->timestamp = (int64_t)lr->other.timestamp;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) info->rgb_cam[i][j] = lr->color.rgb_cam[i][j];
        info->pre_mul[i] = lr->color.pre_mul[i];
    }
    snprintf(info->make, sizeof info->make, "%s", lr->idata.make);
    snprintf(info->model, sizeof info->model, "%s", lr->idata.model);
    raw.libraw_close(lr);
    if (info->width == 0 || info->height == 0) { snprintf(error, error_size, "the file has no picture"); return 0; }
    return 1;
}

void CRAW_release(void *image) {
    if (image && loaded) raw.libraw_dcraw_clear_mem(image);
}

int CRAW_develop(const uint8_t *data, size_t size, const CRAW_Settings *s, void **picture, const uint8_t **pixels,
                 uint32_t *width, uint32_t *height, char *error, size_t error_size) {
    *picture = NULL;
    *pixels = NULL;
    if (!ready(error, error_size)) return 0;
    int ok = 0, status = 0;
    libraw_processed_image_t *image = NULL;
    libraw_data_t *lr = open_raw(data, size, error, error_size);
    if (!lr) return 0;
    libraw_output_params_t *p = &lr->params;
    p->user_flip = 0;                       // Lumen orients, as it does every format
    p->output_color = 1;                    // sRGB primaries
    p->gamm[0] = 1 / 2.4; p->gamm[1] = 12.92;  // and sRGB's curve (dcraw -g 2.4 12.92), not BT.709's
    p->output_bps = s->depth == 8 ? 8 : 16;
    p->half_size = s->half_size ? 1 : 0;
    p->use_camera_wb = s->white_balance == 0;
    p->use_auto_wb = s->white_balance == 1;
    if (s->white_balance == 2) for (int i = 0; i < 4; i++) p->user_mul[i] = s->multipliers[i];
    if (s->exposure != 1) {
        p->exp_correc = 1;
        p->exp_shift = s->exposure;
        p->exp_preser = s->preserve_highlights;
    }
    p->highlight = s->highlights;
    p->threshold = s->noise_threshold;
    p->no_auto_bright = s->auto_brightness ? 0 : 1;
    p->user_qual = s->demosaic;
    if ((status = raw.libraw_unpack(lr)) != LIBRAW_SUCCESS) { describe(status, error, error_size); goto done; }
    if ((status = raw.libraw_dcraw_process(lr)) != LIBRAW_SUCCESS) { describe(status, error, error_size); goto done; }
    image = raw.libraw_dcraw_make_mem_image(lr, &status);
    if (!image) { describe(status, error, error_size); goto done; }
    if (image->type != LIBRAW_IMAGE_BITMAP || image->colors != 3 || (image->bits != 8 && image->bits != 16))
        FAIL("LibRaw made a %d-channel %d-bit picture, not RGB", image->colors, image->bits);
    size_t bytes = (size_t)image->width * image->height * 3 * (image->bits / 8);
    if (image->data_size < bytes) FAIL("LibRaw's picture is short");
    *width = image->width;
    *height = image->height;
    *pixels = image->data;
    *picture = image;
    image = NULL;  // the caller's now
    ok = 1;
done:
    if (image) raw.libraw_dcraw_clear_mem(image);
    raw.libraw_close(lr);
    return ok;
}

int CRAW_preview(const uint8_t *data, size_t size, CRAW_Buffer *jpeg, char *error, size_t error_size) {
    *jpeg = (CRAW_Buffer){0};
    if (!ready(error, error_size)) return 0;
    int ok = 0, status = 0;
    libraw_processed_image_t *thumb = NULL;
    libraw_data_t *lr = open_raw(data, size, error, error_size);
    if (!lr) return 0;
    if ((status = raw.libraw_unpack_thumb(lr)) != LIBRAW_SUCCESS) { describe(status, error, error_size); goto done; }
    thumb = raw.libraw_dcraw_make_mem_thumb(lr, &status);
    if (!thumb) { describe(status, error, error_size); goto done; }
    if (thumb->type != LIBRAW_IMAGE_JPEG) FAIL("the preview is not a JPEG");
    jpeg->data = malloc(thumb->data_size ? thumb->data_size : 1);
    if (!jpeg->data) FAIL("out of memory");
    memcpy(jpeg->data, thumb->data, thumb->data_size);
    jpeg->size = thumb->data_size;
    ok = 1;
done:
    if (thumb) raw.libraw_dcraw_clear_mem(thumb);
    raw.libraw_close(lr);
    return ok;
}
