#include "CTIFF.h"
#include "CLazyLibrary.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

static _Thread_local char last_error[512];
static pthread_once_t handlers_once = PTHREAD_ONCE_INIT;

static void on_error(const char *module, const char *format, va_list args) {
    int n = module ? snprintf(last_error, sizeof last_error, "%s: ", module) : 0;
    if (n < 0 || n >= (int)sizeof last_error) n = 0;
    vsnprintf(last_error + n, sizeof last_error - (size_t)n, format, args);
}

static _Thread_local char last_warning[512];

static void on_warning(const char *module, const char *format, va_list args) {
    if (last_warning[0]) return;  // the first since the last CTIFF_take_warning
    int n = module ? snprintf(last_warning, sizeof last_warning, "%s: ", module) : 0;
    if (n < 0 || n >= (int)sizeof last_warning) n = 0;
    vsnprintf(last_warning + n, sizeof last_warning - (size_t)n, format, args);
}

int CTIFF_take_warning(char *text, size_t length) {
    if (!last_warning[0]) return 0;
    snprintf(text, length, "%s", last_warning);
    last_warning[0] = 0;
    return 1;
}

static void install_handlers(void) {
    TIFFSetErrorHandler(on_error);
    TIFFSetWarningHandler(on_warning);
}

const char *CTIFF_last_error(void) { return last_error; }

extern CLazy_Library CTIFF_library;

int CTIFF_available(char *why, size_t length) { return CLazy_open(&CTIFF_library, why, length); }

/// Before opening a file: libtiff loaded (else 0, with the reason as this thread's error),
/// its handlers installed, and no error left from before.
static int ready(void) {
    if (!CTIFF_available(last_error, sizeof last_error)) return 0;
    pthread_once(&handlers_once, install_handlers);
    last_error[0] = 0;
    return 1;
}

CTIFF_File *CTIFF_open(const char *path, const char *mode) {
    return ready() ? TIFFOpen(path, mode) : NULL;
}

void CTIFF_close(CTIFF_File *file) { if (file) TIFFClose(file); }

int CTIFF_finish_write(CTIFF_File *file) {
    last_error[0] = 0;  // only what flushing this file reports counts
    int flushed = TIFFFlush(file);
    TIFFClose(file);
    return flushed == 1 && !last_error[0] ? 0 : -1;
}

// A TIFF in memory: libtiff reads and writes through these procedures. A reader's
// bytes belong to the caller; a writer's grow here until CTIFF_memory_free.
struct CTIFF_Memory {
    uint8_t *data;
    size_t size, capacity, position;
    int writable;
};

static tmsize_t memory_read(thandle_t handle, void *buffer, tmsize_t count) {
    CTIFF_Memory *m = (CTIFF_Memory *)handle;
    if (count <= 0 || m->position >= m->size) return 0;
    size_t n = (size_t)count < m->size - m->position ? (size_t)count : m->size - m->position;
    memcpy(buffer, m->data + m->position, n);
    m->position += n;
    return (tmsize_t)n;
}

static tmsize_t memory_write(thandle_t handle, void *buffer, tmsize_t count) {
    CTIFF_Memory *m = (CTIFF_Memory *)handle;
    if (!m->writable || count < 0) return -1;
    size_t end = m->position + (size_t)count;
    if (end < m->position) return -1;
    if (end > m->capacity) {
        size_t capacity = m->capacity ? m->capacity : 65536;
        while (capacity < end) {
            if (capacity > SIZE_MAX / 2) return -1;
            capacity *= 2;
        }
        uint8_t *grown = realloc(m->data, capacity);
        if (!grown) return -1;
        m->data = grown;
        m->capacity = capacity;
    }
    if (m->position > m->size) memset(m->data + m->size, 0, m->position - m->size);
    memcpy(m->data + m->position, buffer, (size_t)count);
    m->position = end;
    if (end > m->size) m->size = end;
    return count;
}

static toff_t memory_seek(thandle_t handle, toff_t offset, int whence) {
    CTIFF_Memory *m = (CTIFF_Memory *)handle;
    uint64_t base = whence == SEEK_CUR ? m->position : whence == SEEK_END ? m->size : 0;
    uint64_t target = base + offset;
    if (target > (uint64_t)SIZE_MAX || (!m->writable && target > m->size)) return (toff_t)-1;
    m->position = (size_t)target;
    return target;
}

static int memory_close(thandle_t handle) { (void)handle; return 0; }
static toff_t memory_size(thandle_t handle) { return ((CTIFF_Memory *)handle)->size; }
/// Reading maps the bytes themselves: libtiff then decodes tiles and strips straight from
/// them instead of copying each one into a buffer first.
static int memory_map(thandle_t handle, void **base, toff_t *size) {
    CTIFF_Memory *memory = (CTIFF_Memory *)handle;
    if (memory->writable || !memory->data) return 0;
    *base = memory->data;
    *size = memory->size;
    return 1;
}
static void memory_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

static CTIFF_File *open_memory(CTIFF_Memory *memory, const char *mode) {
    if (!ready()) return NULL;
    // No single allocation of libtiff's over 1 GiB: a strip or tag whose size is a lie
    // fails instead of claiming gigabytes (the pixel limit bounds the image itself).
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options) TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)1 << 30);
    CTIFF_File *file = TIFFClientOpenExt("memory", mode, (thandle_t)memory, memory_read, memory_write, memory_seek,
                                         memory_close, memory_size, memory_map, memory_unmap, options);
    if (options) TIFFOpenOptionsFree(options);
    return file;
}

CTIFF_File *CTIFF_open_memory(const uint8_t *data, size_t length, CTIFF_Memory **memory) {
    CTIFF_Memory *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->data = (uint8_t *)data;
    m->size = length;
    // "O": tile and strip offsets are read on demand, one entry at a time. A 40960×40000
    // pyramid's first page has 100,000 tiles, whose offset arrays (1.6 MB) a thumbnail that
    // reads one reduced level never needs.
    CTIFF_File *file = open_memory(m, "rO");
    if (!file) { free(m); return NULL; }
    CTIFF_prepare(file);
    *memory = m;
    return file;
}

CTIFF_File *CTIFF_open_memory_writer(CTIFF_Memory **memory) {
    CTIFF_Memory *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->writable = 1;
    CTIFF_File *file = open_memory(m, "w");
    if (!file) { free(m); return NULL; }
    *memory = m;
    return file;
}

const uint8_t *CTIFF_memory_bytes(const CTIFF_Memory *memory, size_t *length) {
    *length = memory->size;
    return memory->data;
}

void CTIFF_memory_free(CTIFF_Memory *memory) {
    if (!memory) return;
    if (memory->writable) free(memory->data);
    free(memory);
}

int CTIFF_info(CTIFF_File *file, CTIFF_Info *info) {
    memset(info, 0, sizeof *info);
    uint16_t u16 = 0;
    if (!TIFFGetField(file, TIFFTAG_IMAGEWIDTH, &info->width)) return -1;
    if (!TIFFGetField(file, TIFFTAG_IMAGELENGTH, &info->height)) return -1;
    TIFFGetFieldDefaulted(file, TIFFTAG_BITSPERSAMPLE, &u16); info->bitsPerSample = u16;
    TIFFGetFieldDefaulted(file, TIFFTAG_SAMPLESPERPIXEL, &u16); info->samplesPerPixel = u16;
    TIFFGetFieldDefaulted(file, TIFFTAG_SAMPLEFORMAT, &u16); info->sampleFormat = u16;
    if (TIFFGetField(file, TIFFTAG_PHOTOMETRIC, &u16)) info->photometric = u16;
    else info->photometric = info->samplesPerPixel >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    TIFFGetFieldDefaulted(file, TIFFTAG_PLANARCONFIG, &u16); info->planarConfig = u16;
    TIFFGetFieldDefaulted(file, TIFFTAG_COMPRESSION, &u16); info->compression = u16;
    info->orientation = TIFFGetField(file, TIFFTAG_ORIENTATION, &u16) ? u16 : 1;
    uint16_t count = 0;
    uint16_t *kinds = NULL;
    if (TIFFGetField(file, TIFFTAG_EXTRASAMPLES, &count, &kinds) && count > 0) {
        info->extraSamples = count;
        info->alphaAssociated = kinds[0] == EXTRASAMPLE_ASSOCALPHA;
    }
    info->tiled = TIFFIsTiled(file);
    uint32_t iccLength = 0;
    void *icc = NULL;
    info->hasICC = TIFFGetField(file, TIFFTAG_ICCPROFILE, &iccLength, &icc) && iccLength > 0;
    return 0;
}

int CTIFF_prepare(CTIFF_File *file) {
    uint16_t compression = 0, photometric = 0;
    TIFFGetFieldDefaulted(file, TIFFTAG_COMPRESSION, &compression);
    if (compression != COMPRESSION_JPEG || !TIFFGetField(file, TIFFTAG_PHOTOMETRIC, &photometric) || photometric != PHOTOMETRIC_YCBCR)
        return 0;
    return TIFFSetField(file, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB) == 1;
}

int CTIFF_levels(CTIFF_File *file, CTIFF_Level *levels, int max) {
    int count = 0;
    uint32_t width = 0, height = 0;
    if (!TIFFSetDirectory(file, 0)) return 0;
    TIFFGetField(file, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(file, TIFFTAG_IMAGELENGTH, &height);
    uint16_t subCount = 0;
    uint64_t *subOffsets = NULL;
    uint64_t offsets[64];
    int subs = 0;
    if (TIFFGetField(file, TIFFTAG_SUBIFD, &subCount, &subOffsets) && subOffsets)
        for (; subs < subCount && subs < 64; subs++) offsets[subs] = subOffsets[subs];
    for (int i = 0; i < subs && count < max; i++) {
        if (!TIFFSetSubDirectory(file, offsets[i])) break;
        uint32_t w = 0, h = 0;
        TIFFGetField(file, TIFFTAG_IMAGEWIDTH, &w);
        TIFFGetField(file, TIFFTAG_IMAGELENGTH, &h);
        if (w > 0 && h > 0 && w < width && h < height)
            levels[count++] = (CTIFF_Level){w, h, 1, offsets[i]};
    }
    // Later pages marked as reduced images of the first (at most 64 looked at).
    for (tdir_t page = 1; page < 64 && count < max; page++) {
        if (!TIFFSetDirectory(file, page)) break;
        uint32_t kind = 0, w = 0, h = 0;
        TIFFGetField(file, TIFFTAG_SUBFILETYPE, &kind);
        TIFFGetField(file, TIFFTAG_IMAGEWIDTH, &w);
        TIFFGetField(file, TIFFTAG_IMAGELENGTH, &h);
        if ((kind & FILETYPE_REDUCEDIMAGE) && w > 0 && h > 0 && w < width && h < height)
            levels[count++] = (CTIFF_Level){w, h, 0, page};
    }
    TIFFSetDirectory(file, 0);
    return count;
}

int CTIFF_select(CTIFF_File *file, const CTIFF_Level *level) {
    int ok = !level ? TIFFSetDirectory(file, 0)
             : level->subIFD ? TIFFSetSubDirectory(file, level->where) : TIFFSetDirectory(file, (tdir_t)level->where);
    if (!ok) return -1;
    CTIFF_prepare(file);
    return 0;
}

const uint8_t *CTIFF_icc(CTIFF_File *file, size_t *length) {
    uint32_t size = 0;
    void *data = NULL;
    *length = 0;
    if (!TIFFGetField(file, TIFFTAG_ICCPROFILE, &size, &data)) return NULL;
    *length = size;
    return data;
}

const uint8_t *CTIFF_xmp(CTIFF_File *file, size_t *length) {
    uint32_t size = 0;
    void *data = NULL;
    *length = 0;
    if (!TIFFGetField(file, TIFFTAG_XMLPACKET, &size, &data) || !data) return NULL;
    *length = size;
    return data;
}

const uint8_t *CTIFF_iptc(CTIFF_File *file, size_t *length) {
    uint32_t count = 0;
    void *data = NULL;
    *length = 0;
    // libtiff treats the tag as bytes (UNDEFINED) with a 32-bit count.
    if (!TIFFGetField(file, TIFFTAG_RICHTIFFIPTC, &count, &data) || !data) return NULL;
    *length = count;
    return data;
}

int CTIFF_resolution(CTIFF_File *file, float *x, float *y) {
    float xr = 0, yr = 0;
    uint16_t unit = RESUNIT_INCH;
    if (!TIFFGetField(file, TIFFTAG_XRESOLUTION, &xr) || !TIFFGetField(file, TIFFTAG_YRESOLUTION, &yr)) return 0;
    TIFFGetFieldDefaulted(file, TIFFTAG_RESOLUTIONUNIT, &unit);
    if (unit == RESUNIT_NONE || !(xr > 0) || !(yr > 0)) return 0;
    float scale = unit == RESUNIT_CENTIMETER ? 2.54f : 1.0f;
    *x = xr * scale;
    *y = yr * scale;
    return 1;
}

int CTIFF_set_metadata(CTIFF_File *file, const uint8_t *xmp, size_t xmpLength, const uint8_t *iptc, size_t iptcLength,
                       float xPerInch, float yPerInch) {
    if (xmp && xmpLength > 0) TIFFSetField(file, TIFFTAG_XMLPACKET, (uint32_t)xmpLength, xmp);
    if (iptc && iptcLength > 0 && iptcLength < 0x7FFFFFFF) TIFFSetField(file, TIFFTAG_RICHTIFFIPTC, (uint32_t)iptcLength, iptc);
    if (xPerInch > 0 && yPerInch > 0) {
        TIFFSetField(file, TIFFTAG_XRESOLUTION, xPerInch);
        TIFFSetField(file, TIFFTAG_YRESOLUTION, yPerInch);
        TIFFSetField(file, TIFFTAG_RESOLUTIONUNIT, RESUNIT_INCH);
    }
    return 0;
}

uint32_t CTIFF_row_unit(CTIFF_File *file) {
    uint32_t unit = 0, height = 0;
    TIFFGetField(file, TIFFTAG_IMAGELENGTH, &height);
    if (TIFFIsTiled(file)) TIFFGetField(file, TIFFTAG_TILELENGTH, &unit);
    else TIFFGetFieldDefaulted(file, TIFFTAG_ROWSPERSTRIP, &unit);
    if (unit == 0 || unit > height) unit = height;
    return unit;
}

/// Copies `columns` pixels of one decoded row of a strip or tile (`chunk`, holding
/// `chunkSamples` samples per pixel of `bits` bits, rows padded to whole bytes) into
/// `out`, whose pixels are `outPixel` bytes apart with samples of `outSample` bytes,
/// starting at sample `firstSample`. Samples under 8 bits become one byte each, unscaled.
static void unpack_row(const uint8_t *chunk, int bits, int chunkSamples, uint32_t columns,
                       uint8_t *out, size_t outPixel, int outSample, int firstSample) {
    if (bits >= 8 && (size_t)chunkSamples * (size_t)outSample == outPixel) {
        memcpy(out, chunk, (size_t)columns * outPixel);
        return;
    }
    if (bits >= 8) {
        for (uint32_t x = 0; x < columns; x++)
            for (int s = 0; s < chunkSamples; s++)
                memcpy(out + x * outPixel + (size_t)(firstSample + s) * outSample,
                       chunk + ((size_t)x * chunkSamples + s) * outSample, (size_t)outSample);
        return;
    }
    int mask = (1 << bits) - 1;
    for (uint32_t x = 0; x < columns; x++)
        for (int s = 0; s < chunkSamples; s++) {
            size_t bit = ((size_t)x * chunkSamples + s) * bits;
            out[x * outPixel + firstSample + s] = (chunk[bit >> 3] >> (8 - bits - (int)(bit & 7))) & mask;
        }
}

int CTIFF_read_rows(CTIFF_File *file, uint8_t *buffer, size_t stride, uint32_t firstRow, uint32_t rowCount) {
    CTIFF_Info info;
    if (CTIFF_info(file, &info) != 0) return -1;
    if (firstRow >= info.height) return 0;
    int bits = info.bitsPerSample;
    if (bits != 1 && bits != 2 && bits != 4 && bits != 8 && bits != 16 && !(bits == 32 && info.sampleFormat == SAMPLEFORMAT_IEEEFP)) {
        snprintf(last_error, sizeof last_error, "%d-bit samples", bits);
        return -1;
    }
    uint32_t endRow = info.height - firstRow < rowCount ? info.height : firstRow + rowCount;
    int outSample = bits >= 8 ? bits / 8 : 1;
    size_t outPixel = (size_t)info.samplesPerPixel * (size_t)outSample;
    // Contiguous planes: one chunk holds every sample; separate planes: one chunk per sample.
    int planes = info.planarConfig == PLANARCONFIG_SEPARATE ? info.samplesPerPixel : 1;
    int chunkSamples = planes == 1 ? info.samplesPerPixel : 1;
    uint32_t unit = CTIFF_row_unit(file);
    uint32_t start = firstRow / unit * unit;
    if (info.tiled) {
        uint32_t tileWidth = 0;
        TIFFGetField(file, TIFFTAG_TILEWIDTH, &tileWidth);
        tmsize_t tileSize = TIFFTileSize(file), tileRow = TIFFTileRowSize(file);
        if (tileWidth == 0 || tileSize <= 0 || tileRow <= 0) return -1;
        uint8_t *tile = _TIFFmalloc(tileSize);
        if (!tile) return -1;
        for (uint32_t y = start; y < endRow; y += unit)
            for (uint32_t x = 0; x < info.width; x += tileWidth)
                for (int plane = 0; plane < planes; plane++) {
                    if (TIFFReadTile(file, tile, x, y, 0, (uint16_t)plane) < 0) { _TIFFfree(tile); return -1; }
                    uint32_t columns = info.width - x < tileWidth ? info.width - x : tileWidth;
                    for (uint32_t r = y < firstRow ? firstRow - y : 0; r < unit && y + r < endRow; r++)
                        unpack_row(tile + (size_t)r * (size_t)tileRow, bits, chunkSamples, columns,
                                   buffer + (size_t)(y + r - firstRow) * stride + (size_t)x * outPixel, outPixel, outSample, plane);
                }
        _TIFFfree(tile);
        return 0;
    }
    tmsize_t stripSize = TIFFStripSize(file), rowBytes = TIFFScanlineSize(file);
    if (stripSize <= 0 || rowBytes <= 0) return -1;
    uint8_t *strip = _TIFFmalloc(stripSize);
    if (!strip) return -1;
    for (uint32_t y = start; y < endRow; y += unit) {
        uint32_t rows = info.height - y < unit ? info.height - y : unit;
        tmsize_t want = (tmsize_t)rows * rowBytes;
        for (int plane = 0; plane < planes; plane++) {
            if (TIFFReadEncodedStrip(file, TIFFComputeStrip(file, y, (uint16_t)plane), strip, want) < want) {
                _TIFFfree(strip);
                if (!last_error[0]) snprintf(last_error, sizeof last_error, "strip at row %u is short", y);
                return -1;
            }
            for (uint32_t r = y < firstRow ? firstRow - y : 0; r < rows && y + r < endRow; r++)
                unpack_row(strip + (size_t)r * (size_t)rowBytes, bits, chunkSamples, info.width,
                           buffer + (size_t)(y + r - firstRow) * stride, outPixel, outSample, plane);
        }
    }
    _TIFFfree(strip);
    return 0;
}

/// The colour map of a palette image (3 × 2^bits entries, red then green then blue), or NULL.
int CTIFF_colormap(CTIFF_File *file, const uint16_t **red, const uint16_t **green, const uint16_t **blue) {
    uint16_t *r = NULL, *g = NULL, *b = NULL;
    if (!TIFFGetField(file, TIFFTAG_COLORMAP, &r, &g, &b) || !r || !g || !b) return -1;
    *red = r; *green = g; *blue = b;
    return 0;
}

/// The ink set (1: CMYK, 2: other) of a separated image; 1 when absent.
int CTIFF_inkset(CTIFF_File *file) {
    uint16_t inks = INKSET_CMYK;
    TIFFGetFieldDefaulted(file, TIFFTAG_INKSET, &inks);
    return inks;
}

int CTIFF_read_rgba(CTIFF_File *file, uint32_t *raster) {
    uint32_t width = 0, height = 0;
    TIFFGetField(file, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(file, TIFFTAG_IMAGELENGTH, &height);
    char message[1024] = {0};
    if (!TIFFRGBAImageOK(file, message)) {
        snprintf(last_error, sizeof last_error, "%s", message);
        return -1;
    }
    return TIFFReadRGBAImageOriented(file, width, height, raster, ORIENTATION_TOPLEFT, 1) ? 0 : -1;
}

int CTIFF_begin_write(CTIFF_File *file, uint32_t width, uint32_t height, int channels,
                      int depth, int compression, const uint8_t *icc, size_t iccLength) {
    TIFFSetField(file, TIFFTAG_IMAGEWIDTH, width);
    TIFFSetField(file, TIFFTAG_IMAGELENGTH, height);
    TIFFSetField(file, TIFFTAG_BITSPERSAMPLE, (uint16_t)depth);
    TIFFSetField(file, TIFFTAG_SAMPLESPERPIXEL, (uint16_t)channels);
    TIFFSetField(file, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(file, TIFFTAG_PHOTOMETRIC, channels >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
    TIFFSetField(file, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
    TIFFSetField(file, TIFFTAG_COMPRESSION, (uint16_t)compression);
    /* 32 bits: linear-light IEEE floats, alpha premultiplied (as libvips writes scRGB). */
    if (depth == 32) TIFFSetField(file, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_IEEEFP);
    if (compression == COMPRESSION_LZW || compression == COMPRESSION_ADOBE_DEFLATE)
        TIFFSetField(file, TIFFTAG_PREDICTOR, depth == 32 ? PREDICTOR_FLOATINGPOINT : PREDICTOR_HORIZONTAL);
    if (channels == 2 || channels == 4) {
        uint16_t kind = depth == 32 ? EXTRASAMPLE_ASSOCALPHA : EXTRASAMPLE_UNASSALPHA;
        TIFFSetField(file, TIFFTAG_EXTRASAMPLES, 1, &kind);
    }
    if (icc && iccLength > 0) TIFFSetField(file, TIFFTAG_ICCPROFILE, (uint32_t)iccLength, icc);
    TIFFSetField(file, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(file, 0));
    return 0;
}

int CTIFF_write_row(CTIFF_File *file, const uint8_t *row, uint32_t index) {
    return TIFFWriteScanline(file, (void *)row, index, 0) < 0 ? -1 : 0;
}
