#include "CEXR.h"
#include <OpenEXR/openexr.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXR_FUNCTIONS(X) \
    X(exr_start_read) X(exr_start_write) X(exr_finish) X(exr_get_count) X(exr_get_storage) X(exr_get_data_window) \
    X(exr_get_channels) X(exr_get_scanlines_per_chunk) X(exr_get_tile_descriptor) X(exr_get_tile_sizes) \
    X(exr_get_compression) X(exr_read_scanline_chunk_info) X(exr_read_tile_chunk_info) X(exr_decoding_initialize) \
    X(exr_decoding_update) X(exr_decoding_choose_default_routines) X(exr_decoding_run) X(exr_decoding_destroy) \
    X(exr_add_part) X(exr_initialize_required_attr_simple) X(exr_add_channel) X(exr_write_header) \
    X(exr_write_scanline_chunk_info) X(exr_encoding_initialize) X(exr_encoding_update) \
    X(exr_encoding_choose_default_routines) X(exr_encoding_run) X(exr_encoding_destroy) X(exr_get_default_error_message)

#define DECLARE(name) __typeof__(name) *name;
static struct { EXR_FUNCTIONS(DECLARE) } exr;
static int loaded;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libOpenEXRCore-3_1.so.30", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "OpenEXR is not installed (%s)", reason ? reason : "dlopen failed");
        return;
    }
#define RESOLVE(name) \
    if (!(exr.name = (__typeof__(exr.name))dlsym(library, #name))) { \
        snprintf(failure, sizeof failure, "OpenEXRCore has no %s", #name); return; }
    EXR_FUNCTIONS(RESOLVE)
    loaded = 1;
}

static int ready(char *error, size_t error_size) {
    pthread_once(&once, load);
    if (!loaded) snprintf(error, error_size, "%s", failure);
    return loaded;
}

void CEXR_free(CEXR_Buffer *buffer) {
    if (!buffer) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
}

// ---- reading from memory ------------------------------------------------------------

typedef struct {
    const uint8_t *data;
    size_t size;
    char message[200];            // OpenEXR's first error message, for ours
} Source;

static int64_t read_memory(exr_const_context_t ctxt, void *user, void *buffer, uint64_t sz, uint64_t offset,
                           exr_stream_error_func_ptr_t error_cb) {
    (void)ctxt; (void)error_cb;
    Source *source = user;
    if (offset >= source->size) return 0;
    uint64_t n = source->size - offset < sz ? source->size - offset : sz;
    memcpy(buffer, source->data + offset, n);
    return (int64_t)n;
}

static int64_t size_memory(exr_const_context_t ctxt, void *user) {
    (void)ctxt;
    return (int64_t)((Source *)user)->size;
}

/// OpenEXR prints its errors by default: keep the first for the message instead.
static void quiet(exr_const_context_t ctxt, exr_result_t code, const char *msg) {
    (void)code;
    void *user = NULL;
    // The user data is not passed to the error handler; messages are kept per thread.
    (void)ctxt; (void)user; (void)msg;
}

#define FAIL(...) do { snprintf(error, error_size, __VA_ARGS__); goto done; } while (0)
#define CHECK(call, what) do { exr_result_t rv_ = (call); \
    if (rv_ != EXR_ERR_SUCCESS) FAIL("%s: %s", what, exr.exr_get_default_error_message(rv_)); } while (0)

static exr_result_t open_memory(exr_context_t *ctx, Source *source) {
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.user_data = source;
    init.read_fn = read_memory;
    init.size_fn = size_memory;
    init.error_handler_fn = quiet;
    init.max_image_width = 1 << 20;
    init.max_image_height = 1 << 20;
    return exr.exr_start_read(ctx, "<memory>", &init);
}

/// The index of channel `name` in `list`, or -1.
static int channel_index(const exr_attr_chlist_t *list, const char *name) {
    for (int i = 0; i < list->num_channels; i++)
        if (!strcmp(list->entries[i].name.str, name)) return i;
    return -1;
}

int CEXR_read_info(const uint8_t *data, size_t size, CEXR_Info *info, char *error, size_t error_size) {
    memset(info, 0, sizeof *info);
    if (!ready(error, error_size)) return 0;
    int ok = 0;
    Source source = { data, size, {0} };
    exr_context_t ctx = NULL;
    exr_result_t rv = open_memory(&ctx, &source);
    if (rv != EXR_ERR_SUCCESS) FAIL("%s", exr.exr_get_default_error_message(rv));
    CHECK(exr.exr_get_count(ctx, &info->parts), "reading the parts");
    exr_storage_t storage;
    CHECK(exr.exr_get_storage(ctx, 0, &storage), "reading the storage");
    if (storage == EXR_STORAGE_DEEP_SCANLINE || storage == EXR_STORAGE_DEEP_TILED) FAIL("deep EXR files are not supported");
    info->tiled = storage == EXR_STORAGE_TILED;
    exr_attr_box2i_t window;
    CHECK(exr.exr_get_data_window(ctx, 0, &window), "reading the data window");
    int64_t w = (int64_t)window.max.x - window.min.x + 1, h = (int64_t)window.max.y - window.min.y + 1;
    if (w <= 0 || h <= 0 || w > INT32_MAX || h > INT32_MAX) FAIL("the data window is empty or too large");
    info->width = (int32_t)w;
    info->height = (int32_t)h;
    const exr_attr_chlist_t *channels = NULL;
    CHECK(exr.exr_get_channels(ctx, 0, &channels), "reading the channels");
    int r = channel_index(channels, "R"), g = channel_index(channels, "G"), b = channel_index(channels, "B");
    int y = channel_index(channels, "Y"), a = channel_index(channels, "A");
    if ((r < 0 || g < 0 || b < 0) && y < 0) FAIL("no R, G, B or Y channels (Lumen reads RGB, RGBA and luminance EXR files)");
    // Y with RY and BY is a colour picture (luminance/chroma, the chroma subsampled): read as
    // Y alone it would come out grey.
    if ((r < 0 || g < 0 || b < 0) && (channel_index(channels, "RY") >= 0 || channel_index(channels, "BY") >= 0))
        FAIL("luminance/chroma files (Y, RY, BY) are not supported");
    info->gray = r < 0 || g < 0 || b < 0;
    info->has_alpha = a >= 0;
    int wanted[4] = { info->gray ? y : r, info->gray ? -1 : g, info->gray ? -1 : b, a };
    info->bits = 16;
    for (int i = 0; i < 4; i++) {
        if (wanted[i] < 0) continue;
        const exr_attr_chlist_entry_t *entry = &channels->entries[wanted[i]];
        if (entry->x_sampling != 1 || entry->y_sampling != 1) FAIL("subsampled channels (luminance/chroma files) are not supported");
        if (entry->pixel_type != EXR_PIXEL_HALF) info->bits = 32;
    }
    exr_compression_t compression;
    CHECK(exr.exr_get_compression(ctx, 0, &compression), "reading the compression");
    info->compression = (int32_t)compression;
    ok = 1;
done:
    if (ctx) exr.exr_finish(&ctx);
    return ok;
}

/// Points the pipeline's channels at their planes of `planes` for the chunk at (`x`, `y`) of
/// the data window. Planes, not interleaved pixels: OpenEXRCore 3.1's interleaving unpackers
/// write channels in the file's order whatever the pointers say (seen on tiled RGBA half).
/// A channel Lumen does not want goes to the scratch plane `SCRATCH_PLANE`, never to NULL:
/// 3.1's four-channel half unpacker writes through every pointer it is given, NULL included
/// (a fuzzed R, G, B, a file crashed it). It is asked for as half floats, so that the wanted
/// channels' type differs from it and 3.1 takes its general unpacker, which honours each
/// channel's subsampling (its same-type fast paths write every channel at full size: an
/// R, G, B file with a 2×2-subsampled Z read past the chunk).
#define SCRATCH_PLANE 4
static void aim(exr_decode_pipeline_t *decoder, const int *wanted_plane, float *planes, int width, int height, int x, int y) {
    for (int c = 0; c < decoder->channel_count; c++) {
        exr_coding_channel_info_t *channel = &decoder->channels[c];
        int wanted = wanted_plane[c] >= 0, plane = wanted ? wanted_plane[c] : SCRATCH_PLANE;
        channel->decode_to_ptr = (uint8_t *)(planes + (size_t)plane * width * height + (size_t)y * width + x);
        channel->user_pixel_stride = (int32_t)sizeof(float);
        channel->user_line_stride = width * (int32_t)sizeof(float);
        channel->user_bytes_per_element = wanted ? sizeof(float) : 2;
        channel->user_data_type = wanted ? EXR_PIXEL_FLOAT : EXR_PIXEL_HALF;
    }
}

int CEXR_decode(const uint8_t *data, size_t size, int channels, float *out, size_t out_floats, char *error, size_t error_size) {
    if (!ready(error, error_size)) return 0;
    int ok = 0, initialized = 0;
    float *planes = NULL;
    Source source = { data, size, {0} };
    exr_context_t ctx = NULL;
    exr_decode_pipeline_t decoder = EXR_DECODE_PIPELINE_INITIALIZER;
    exr_result_t rv = open_memory(&ctx, &source);
    if (rv != EXR_ERR_SUCCESS) FAIL("%s", exr.exr_get_default_error_message(rv));
    exr_attr_box2i_t window;
    CHECK(exr.exr_get_data_window(ctx, 0, &window), "reading the data window");
    int width = window.max.x - window.min.x + 1, height = window.max.y - window.min.y + 1;
    if ((size_t)width * height * channels != out_floats) FAIL("the buffer does not fit the picture");
    const exr_attr_chlist_t *list = NULL;
    CHECK(exr.exr_get_channels(ctx, 0, &list), "reading the channels");
    int gray = channel_index(list, "R") < 0 || channel_index(list, "G") < 0 || channel_index(list, "B") < 0;
    // Opaque until the A channel says otherwise; a missing colour channel reads 0.
    for (size_t i = 0; i < out_floats; i++) out[i] = (channels == 4 && i % 4 == 3) ? 1.0f : 0.0f;
    exr_storage_t storage;
    CHECK(exr.exr_get_storage(ctx, 0, &storage), "reading the storage");
    // Chunks: scanline blocks, or the tiles of the top level.
    int32_t lines = 1;
    int32_t tile_w = 0, tile_h = 0;
    int32_t tiles_x = 1, tiles_y = 1;
    if (storage == EXR_STORAGE_TILED) {
        CHECK(exr.exr_get_tile_sizes(ctx, 0, 0, 0, &tile_w, &tile_h), "reading the tiles");
        if (tile_w <= 0 || tile_h <= 0) FAIL("the tiles have no size");
        tiles_x = (width + tile_w - 1) / tile_w;
        tiles_y = (height + tile_h - 1) / tile_h;
    } else {
        CHECK(exr.exr_get_scanlines_per_chunk(ctx, 0, &lines), "reading the chunk size");
        if (lines <= 0) FAIL("the header gives %d scanlines a chunk (the compression is unknown or damaged)", lines);
    }
    int32_t chunks_y = storage == EXR_STORAGE_TILED ? tiles_y : (height + lines - 1) / lines;
    int32_t chunks_x = storage == EXR_STORAGE_TILED ? tiles_x : 1;
    // Each wanted channel is decoded into a plane of its own, then interleaved:
    // `final_slot[k]` is where the k-th plane's samples go.
    int wanted_slot[64], final_slot[4] = { 0, 1, 2, 3 }, decoded = 0;
    planes = malloc((size_t)width * height * (SCRATCH_PLANE + 1) * sizeof(float));
    if (!planes) FAIL("out of memory");
    for (int32_t cy = 0; cy < chunks_y; cy++) {
        for (int32_t cx = 0; cx < chunks_x; cx++) {
            exr_chunk_info_t chunk;
            int x0, y0;
            if (storage == EXR_STORAGE_TILED) {
                CHECK(exr.exr_read_tile_chunk_info(ctx, 0, cx, cy, 0, 0, &chunk), "reading a tile");
                x0 = cx * tile_w;
                y0 = cy * tile_h;
            } else {
                CHECK(exr.exr_read_scanline_chunk_info(ctx, 0, window.min.y + cy * lines, &chunk), "reading a block of scanlines");
                x0 = 0;
                y0 = chunk.start_y - window.min.y;
            }
            if (x0 < 0 || y0 < 0 || x0 + chunk.width > width || y0 + chunk.height > height) FAIL("a chunk lies outside the data window");
            if (!initialized) {
                CHECK(exr.exr_decoding_initialize(ctx, 0, &chunk, &decoder), "starting to decode");
                initialized = 1;
                if (decoder.channel_count > 64) FAIL("too many channels (%d)", decoder.channel_count);
                for (int c = 0; c < decoder.channel_count; c++) {
                    const char *name = decoder.channels[c].channel_name;
                    int slot = -1;
                    if (gray && !strcmp(name, "Y")) slot = 0;
                    else if (!gray && !strcmp(name, "R")) slot = 0;
                    else if (!gray && !strcmp(name, "G")) slot = 1;
                    else if (!gray && !strcmp(name, "B")) slot = 2;
                    else if (channels == 4 && !strcmp(name, "A")) slot = 3;
                    if (slot >= 0 && decoded < 4) {
                        final_slot[decoded] = slot;
                        wanted_slot[c] = decoded++;
                    } else {
                        wanted_slot[c] = -1;
                    }
                }
            } else {
                CHECK(exr.exr_decoding_update(ctx, 0, &chunk, &decoder), "decoding");
            }
            aim(&decoder, wanted_slot, planes, width, height, x0, y0);
            CHECK(exr.exr_decoding_choose_default_routines(ctx, 0, &decoder), "choosing a decoder");
            CHECK(exr.exr_decoding_run(ctx, 0, &decoder), "decoding (the file is truncated or damaged)");
        }
    }
    for (int k = 0; k < decoded; k++) {
        const float *plane = planes + (size_t)k * width * height;
        for (size_t p = 0; p < (size_t)width * height; p++) out[p * channels + final_slot[k]] = plane[p];
    }
    if (gray) {
        for (size_t p = 0; p < (size_t)width * height; p++) {
            float v = out[p * channels];
            out[p * channels + 1] = v;
            out[p * channels + 2] = v;
        }
    }
    ok = 1;
done:
    if (initialized) exr.exr_decoding_destroy(ctx, &decoder);
    if (ctx) exr.exr_finish(&ctx);
    free(planes);
    return ok;
}

// ---- writing to memory ----------------------------------------------------------------

typedef struct {
    uint8_t *data;
    size_t size, capacity;
    int failed;
} Sink;

static int64_t write_memory(exr_const_context_t ctxt, void *user, const void *buffer, uint64_t sz, uint64_t offset,
                            exr_stream_error_func_ptr_t error_cb) {
    (void)ctxt; (void)error_cb;
    Sink *sink = user;
    uint64_t end = offset + sz;
    if (end > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity : 65536;
        while (capacity < end) capacity *= 2;
        uint8_t *grown = realloc(sink->data, capacity);
        if (!grown) { sink->failed = 1; return -1; }
        memset(grown + sink->capacity, 0, capacity - sink->capacity);
        sink->data = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->data + offset, buffer, sz);
    if (end > sink->size) sink->size = end;
    return (int64_t)sz;
}

int CEXR_encode(const float *pixels, int width, int height, int channels, int bits, int piz,
                CEXR_Buffer *out, char *error, size_t error_size) {
    *out = (CEXR_Buffer){0};
    if (!ready(error, error_size)) return 0;
    int ok = 0, initialized = 0;
    Sink sink = {0};
    exr_context_t ctx = NULL;
    exr_encode_pipeline_t encoder = EXR_ENCODE_PIPELINE_INITIALIZER;
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.user_data = &sink;
    init.write_fn = write_memory;
    init.error_handler_fn = quiet;
    exr_result_t rv = exr.exr_start_write(&ctx, "<memory>", EXR_WRITE_FILE_DIRECTLY, &init);
    if (rv != EXR_ERR_SUCCESS) FAIL("%s", exr.exr_get_default_error_message(rv));
    int part = 0;
    CHECK(exr.exr_add_part(ctx, "rgba", EXR_STORAGE_SCANLINE, &part), "adding the part");
    CHECK(exr.exr_initialize_required_attr_simple(ctx, part, width, height, piz ? EXR_COMPRESSION_PIZ : EXR_COMPRESSION_ZIP),
          "setting the header");
    exr_pixel_type_t type = bits == 16 ? EXR_PIXEL_HALF : EXR_PIXEL_FLOAT;
    // Channels in the header are sorted by name.
    const char *names[4] = { "A", "B", "G", "R" };
    const int slots[4] = { 3, 2, 1, 0 };
    for (int i = channels == 4 ? 0 : 1; i < 4; i++)
        if (exr.exr_add_channel(ctx, part, names[i], type, EXR_PERCEPTUALLY_LOGARITHMIC, 1, 1) != EXR_ERR_SUCCESS) FAIL("adding a channel");
    CHECK(exr.exr_write_header(ctx), "writing the header");
    int32_t lines = piz ? 32 : 16;
    for (int y = 0; y < height; y += lines) {
        exr_chunk_info_t chunk;
        CHECK(exr.exr_write_scanline_chunk_info(ctx, part, y, &chunk), "starting a block");
        if (!initialized) {
            CHECK(exr.exr_encoding_initialize(ctx, part, &chunk, &encoder), "starting to encode");
            initialized = 1;
        } else {
            CHECK(exr.exr_encoding_update(ctx, part, &chunk, &encoder), "encoding");
        }
        for (int c = 0; c < encoder.channel_count; c++) {
            exr_coding_channel_info_t *channel = &encoder.channels[c];
            int slot = -1;
            for (int i = 0; i < 4; i++) if (!strcmp(channel->channel_name, names[i])) slot = slots[i];
            if (slot < 0 || slot >= channels) FAIL("an unexpected channel %s", channel->channel_name);
            channel->encode_from_ptr = (const uint8_t *)(pixels + (size_t)y * width * channels + slot);
            channel->user_pixel_stride = channels * (int32_t)sizeof(float);
            channel->user_line_stride = width * channels * (int32_t)sizeof(float);
            channel->user_bytes_per_element = sizeof(float);
            channel->user_data_type = EXR_PIXEL_FLOAT;
        }
        CHECK(exr.exr_encoding_choose_default_routines(ctx, part, &encoder), "choosing an encoder");
        CHECK(exr.exr_encoding_run(ctx, part, &encoder), "encoding");
    }
    if (initialized) { exr.exr_encoding_destroy(ctx, &encoder); initialized = 0; }
    rv = exr.exr_finish(&ctx);
    ctx = NULL;
    if (rv != EXR_ERR_SUCCESS || sink.failed) FAIL("finishing the file: %s", sink.failed ? "out of memory" : exr.exr_get_default_error_message(rv));
    out->data = sink.data;
    out->size = sink.size;
    sink.data = NULL;
    ok = 1;
done:
    if (initialized) exr.exr_encoding_destroy(ctx, &encoder);
    if (ctx) exr.exr_finish(&ctx);
    free(sink.data);
    return ok;
}
