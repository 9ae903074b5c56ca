#include <stddef.h>
#include <errno.h>
#include "CPNG.h"
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct CPNG_Decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t length, offset;
    char message[256];
    char warning[256];
};

static void on_error(png_structp png, png_const_charp text) {
    char *message = (char *)png_get_error_ptr(png);
    snprintf(message, 256, "%s", text);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

/// Keeps a decoder's first warning (its error pointer is the decoder's message buffer).
static void on_decoder_warning(png_structp png, png_const_charp text) {
    CPNG_Decoder *decoder = (CPNG_Decoder *)((char *)png_get_error_ptr(png) - offsetof(CPNG_Decoder, message));
    if (!decoder->warning[0]) snprintf(decoder->warning, sizeof decoder->warning, "%s", text);
}

static void read_from_memory(png_structp png, png_bytep out, png_size_t count) {
    CPNG_Decoder *decoder = (CPNG_Decoder *)png_get_io_ptr(png);
    if (decoder->length - decoder->offset < count) png_error(png, "file is truncated");
    memcpy(out, decoder->data + decoder->offset, count);
    decoder->offset += count;
}

CPNG_Decoder *CPNG_decoder_create(const uint8_t *data, size_t length) {
    CPNG_Decoder *decoder = calloc(1, sizeof(CPNG_Decoder));
    if (!decoder) return NULL;
    decoder->data = data;
    decoder->length = length;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder->message, on_error, on_decoder_warning);
    if (decoder->png) decoder->info = png_create_info_struct(decoder->png);
    if (!decoder->png || !decoder->info) {
        snprintf(decoder->message, sizeof decoder->message, "out of memory");
        return decoder;
    }
    png_set_read_fn(decoder->png, decoder, read_from_memory);
    // Checked by Lumen from the header before any allocation; libpng's own limit stays generous.
    png_set_user_limits(decoder->png, 0x7fffffff, 0x7fffffff);
    // No chunk is read into memory beyond 64 MiB (a 57-byte file can claim a 1.6 GB text
    // chunk), and at most 1000 ancillary chunks are kept.
    png_set_chunk_malloc_max(decoder->png, 64u << 20);
    png_set_chunk_cache_max(decoder->png, 1000);
    // Keep every embedded profile, HP's sRGB IEC61966-2.1 included (libpng would drop it
    // as a "known incorrect sRGB profile"); Little CMS decides what it means.
    png_set_option(decoder->png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
    return decoder;
}

void CPNG_decoder_destroy(CPNG_Decoder *decoder) {
    if (!decoder) return;
    if (decoder->png) png_destroy_read_struct(&decoder->png, decoder->info ? &decoder->info : NULL, NULL);
    free(decoder);
}

const char *CPNG_warning(const CPNG_Decoder *decoder) { return decoder->warning[0] ? decoder->warning : NULL; }

const char *CPNG_decoder_message(const CPNG_Decoder *decoder) { return decoder->message; }

/// Checks that every chunk's declared length fits in the file before libpng reads any:
/// libpng allocates a text chunk's declared length before reading it, so a 45-byte file
/// claiming a 1.6 GB tEXt chunk would cost 1.6 GB.
static int check_chunk_lengths(CPNG_Decoder *decoder) {
    size_t at = 8;
    while (at + 12 <= decoder->length) {
        const uint8_t *p = decoder->data + at;
        size_t length = (size_t)p[0] << 24 | (size_t)p[1] << 16 | (size_t)p[2] << 8 | p[3];
        if (length > decoder->length - at - 12) {
            snprintf(decoder->message, sizeof decoder->message, "chunk %c%c%c%c claims %zu bytes, but the file has %zu left",
                     p[4], p[5], p[6], p[7], length, decoder->length - at - 12);
            return -1;
        }
        if (memcmp(p + 4, "IEND", 4) == 0) break;
        at += 12 + length;
    }
    return 0;
}

int CPNG_read_header(CPNG_Decoder *decoder, CPNG_Header *header) {
    if (!decoder->info) return -1;
    if (check_chunk_lengths(decoder) != 0) return -1;
    if (setjmp(png_jmpbuf(decoder->png))) return -1;
    png_read_info(decoder->png, decoder->info);
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    header->width = (int)png_get_image_width(png, info);
    header->height = (int)png_get_image_height(png, info);
    header->bitDepth = png_get_bit_depth(png, info);
    header->colorType = png_get_color_type(png, info);
    header->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    header->hasTransparency = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    header->hasICC = png_get_valid(png, info, PNG_INFO_iCCP) != 0;
    return 0;
}

const uint8_t *CPNG_icc(CPNG_Decoder *decoder, size_t *length) {
    png_charp name;
    int compression;
    png_bytep profile;
    png_uint_32 size;
    *length = 0;
    if (setjmp(png_jmpbuf(decoder->png))) return NULL;
    if (!png_get_iCCP(decoder->png, decoder->info, &name, &compression, &profile, &size)) return NULL;
    *length = size;
    return profile;
}

const uint8_t *CPNG_raw_chunk(const uint8_t *data, size_t length, const char *type, size_t *chunkLength) {
    *chunkLength = 0;
    size_t at = 8;
    while (at + 12 <= length) {
        size_t size = (size_t)data[at] << 24 | (size_t)data[at + 1] << 16 | (size_t)data[at + 2] << 8 | data[at + 3];
        if (size > length - at - 12) return NULL;
        if (!memcmp(data + at + 4, type, 4)) { *chunkLength = size; return data + at + 8; }
        if (!memcmp(data + at + 4, "IEND", 4)) return NULL;
        at += size + 12;
    }
    return NULL;
}

uint8_t *CPNG_raw_icc(const uint8_t *data, size_t length, size_t *profileLength) {
    *profileLength = 0;
    size_t at = 8;
    while (at + 12 <= length) {
        size_t size = (size_t)data[at] << 24 | (size_t)data[at + 1] << 16 | (size_t)data[at + 2] << 8 | data[at + 3];
        const uint8_t *type = data + at + 4, *body = data + at + 8;
        if (size > length - at - 12 || !memcmp(type, "IDAT", 4)) return NULL;
        if (!memcmp(type, "iCCP", 4)) {
            size_t name = 0;
            while (name < size && name < 80 && body[name]) name++;
            if (name + 2 > size || body[name + 1] != 0) return NULL;  // compression method 0 only
            // Inflate into a growing buffer, up to 64 MB (the largest profiles are a few MB).
            size_t capacity = 1 << 16;
            uint8_t *out = malloc(capacity);
            z_stream z = {0};
            if (!out || inflateInit(&z) != Z_OK) { free(out); return NULL; }
            z.next_in = (Bytef *)(body + name + 2);
            z.avail_in = (uInt)(size - name - 2);
            int status = Z_OK;
            while (status == Z_OK) {
                if (z.total_out == capacity) {
                    uint8_t *grown = capacity < (64u << 20) ? realloc(out, capacity * 2) : NULL;
                    if (!grown) break;
                    out = grown;
                    capacity *= 2;
                }
                z.next_out = out + z.total_out;
                z.avail_out = (uInt)(capacity - z.total_out);
                status = inflate(&z, Z_NO_FLUSH);
            }
            inflateEnd(&z);
            if (status != Z_STREAM_END || z.total_out < 128) { free(out); return NULL; }
            *profileLength = z.total_out;
            return out;
        }
        at += size + 12;
    }
    return NULL;
}

const uint8_t *CPNG_exif(CPNG_Decoder *decoder, size_t *length) {
    *length = 0;
#ifdef PNG_eXIf_SUPPORTED
    png_bytep exif = NULL;
    png_uint_32 size = 0;
    if (png_get_eXIf_1(decoder->png, decoder->info, &size, &exif) && exif) {
        *length = size;
        return exif;
    }
#endif
    return NULL;
}

int CPNG_start(CPNG_Decoder *decoder, int *channels, int *depth) {
    if (setjmp(png_jmpbuf(decoder->png))) return -1;
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    int colorType = png_get_color_type(png, info);
    int bitDepth = png_get_bit_depth(png, info);
    if (colorType == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (colorType == PNG_COLOR_TYPE_GRAY && bitDepth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (bitDepth == 16) png_set_swap(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    *channels = png_get_channels(png, info);
    *depth = png_get_bit_depth(png, info);
    return 0;
}

int CPNG_read_rows(CPNG_Decoder *decoder, uint8_t *buffer, size_t stride, int count) {
    png_bytep *rows = malloc(sizeof(png_bytep) * (size_t)(count > 0 ? count : 1));
    if (!rows) return -1;
    if (setjmp(png_jmpbuf(decoder->png))) { free(rows); return -1; }
    for (int i = 0; i < count; i++) rows[i] = buffer + (size_t)i * stride;
    if (png_get_interlace_type(decoder->png, decoder->info) != PNG_INTERLACE_NONE)
        png_read_image(decoder->png, rows);
    else
        png_read_rows(decoder->png, rows, NULL, (png_uint_32)count);
    free(rows);
    return count;
}

int CPNG_finish(CPNG_Decoder *decoder) {
    if (setjmp(png_jmpbuf(decoder->png))) return -1;
    png_read_end(decoder->png, NULL);
    return 0;
}

struct CPNG_Encoder {
    png_structp png;
    png_infop info;
    FILE *file;
    char message[256];
};

const uint8_t *CPNG_xmp(CPNG_Decoder *decoder, size_t *length) {
    *length = 0;
    png_textp texts = NULL;
    int count = 0;
    if (setjmp(png_jmpbuf(decoder->png))) return NULL;
    png_get_text(decoder->png, decoder->info, &texts, &count);
    for (int i = 0; i < count; i++) {
        if (texts[i].key && strcmp(texts[i].key, "XML:com.adobe.xmp") == 0 && texts[i].text) {
            *length = texts[i].compression >= PNG_ITXT_COMPRESSION_NONE ? texts[i].itxt_length : texts[i].text_length;
            return (const uint8_t *)texts[i].text;
        }
    }
    return NULL;
}

int CPNG_resolution(CPNG_Decoder *decoder, unsigned *xPerMeter, unsigned *yPerMeter) {
    png_uint_32 x = 0, y = 0;
    int unit = 0;
    if (setjmp(png_jmpbuf(decoder->png))) return 0;
    if (!png_get_pHYs(decoder->png, decoder->info, &x, &y, &unit) || unit != PNG_RESOLUTION_METER) return 0;
    *xPerMeter = x;
    *yPerMeter = y;
    return 1;
}

/// Writes an iCCP chunk (name, compression method 0, the zlib-compressed profile) after IHDR.
static void write_iccp(png_structp png, const uint8_t *icc, size_t length) {
    if (length > 0x7fffff00u) png_error(png, "ICC profile too large for PNG");
    uLongf packed = compressBound((uLong)length);
    size_t total = 5 + (size_t)packed;   // "icc" NUL method
    png_bytep chunk = malloc(total);
    if (!chunk) png_error(png, "out of memory");
    memcpy(chunk, "icc\0\0", 5);
    if (compress2(chunk + 5, &packed, icc, (uLong)length, 9) != Z_OK) { free(chunk); png_error(png, "cannot compress the ICC profile"); }
    png_write_chunk(png, (png_const_bytep)"iCCP", chunk, 5 + (size_t)packed);
    free(chunk);
}

CPNG_Encoder *CPNG_encoder_create(FILE *file, int width, int height, int channels,
                                  int depth, int level, const CPNG_Metadata *metadata,
                                  char *message, size_t messageLength) {
    CPNG_Encoder *encoder = calloc(1, sizeof(CPNG_Encoder));
    if (!encoder) { snprintf(message, messageLength, "out of memory"); fclose(file); return NULL; }
    encoder->file = file;
    encoder->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, encoder->message, on_error, on_warning);
    if (encoder->png) encoder->info = png_create_info_struct(encoder->png);
    if (!encoder->png || !encoder->info) {
        snprintf(message, messageLength, "out of memory");
        CPNG_encoder_destroy(encoder);
        return NULL;
    }
    if (setjmp(png_jmpbuf(encoder->png))) {
        snprintf(message, messageLength, "%s", encoder->message);
        CPNG_encoder_destroy(encoder);
        return NULL;
    }
    static const int types[] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
    png_init_io(encoder->png, encoder->file);
    png_set_compression_level(encoder->png, level);
    if (metadata && metadata->filters) png_set_filter(encoder->png, PNG_FILTER_TYPE_BASE, metadata->filters);
    png_set_IHDR(encoder->png, encoder->info, (png_uint_32)width, (png_uint_32)height, depth,
                 types[channels], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    // An sRGB profile becomes PNG's own sRGB chunk (as ImageMagick writes it): libpng and
    // browsers read only one of iCCP and sRGB, and libpng warns "too many profiles" at both.
    int cicp = metadata && metadata->cicpTransfer > 0 && metadata->cicpTransfer < 256 ? metadata->cicpTransfer : 0;
    int writeICC = !cicp && metadata && metadata->icc && metadata->iccLength > 0 && !metadata->srgb;
    if (!writeICC && !cicp) png_set_sRGB(encoder->png, encoder->info, PNG_sRGB_INTENT_PERCEPTUAL);
#ifdef PNG_eXIf_SUPPORTED
    if (metadata && metadata->exif && metadata->exifLength > 0 && metadata->exifLength < 0x7FFFFFFF)
        png_set_eXIf_1(encoder->png, encoder->info, (png_uint_32)metadata->exifLength, (png_bytep)metadata->exif);
#endif
    if (metadata && metadata->xmp && metadata->xmpLength > 0) {
        // libpng measures iTXt text with strlen: hand it a NUL-terminated copy.
        char *xmp = malloc(metadata->xmpLength + 1);
        if (!xmp) png_error(encoder->png, "out of memory");
        memcpy(xmp, metadata->xmp, metadata->xmpLength);
        xmp[metadata->xmpLength] = 0;
        png_text text;
        memset(&text, 0, sizeof text);
        text.compression = PNG_ITXT_COMPRESSION_NONE;
        text.key = "XML:com.adobe.xmp";
        text.text = xmp;
        png_set_text(encoder->png, encoder->info, &text, 1);
        free(xmp);
    }
    if (metadata && metadata->xPixelsPerMeter > 0 && metadata->yPixelsPerMeter > 0)
        png_set_pHYs(encoder->png, encoder->info, metadata->xPixelsPerMeter, metadata->yPixelsPerMeter, PNG_RESOLUTION_METER);
    png_write_info_before_PLTE(encoder->png, encoder->info);
    // The profile goes in as the file carried it: libpng's png_set_iCCP refuses profiles
    // that libvips, ImageMagick and every browser accept (HP's sRGB among them).
    if (writeICC) write_iccp(encoder->png, metadata->icc, metadata->iccLength);
    if (cicp) {
        // PNG's third edition: colour primaries 1 (BT.709), transfer, matrix 0 (RGB), full range.
        png_byte chunk[4] = {1, (png_byte)cicp, 0, 1};
        png_write_chunk(encoder->png, (png_const_bytep)"cICP", chunk, 4);
    }
    png_write_info(encoder->png, encoder->info);
#ifdef PNG_eXIf_SUPPORTED
    // libpng 1.6 writes eXIf again at png_write_end unless told it is done.
    png_set_invalid(encoder->png, encoder->info, PNG_INFO_eXIf);
#endif
    if (depth == 16) png_set_swap(encoder->png);
    return encoder;
}

int CPNG_write_rows(CPNG_Encoder *encoder, const uint8_t *rows, size_t stride, int count) {
    if (setjmp(png_jmpbuf(encoder->png))) return -1;
    for (int i = 0; i < count; i++) png_write_row(encoder->png, (png_const_bytep)(rows + (size_t)i * stride));
    return 0;
}

int CPNG_encoder_finish(CPNG_Encoder *encoder) {
    if (setjmp(png_jmpbuf(encoder->png))) return -1;
    png_write_end(encoder->png, encoder->info);
    int failed = ferror(encoder->file) != 0 || fflush(encoder->file) != 0;
    int reason = errno;
    if (fclose(encoder->file) != 0 && !failed) { failed = 1; reason = errno; }
    encoder->file = NULL;
    if (failed) snprintf(encoder->message, sizeof encoder->message, "write failed: %s", strerror(reason));
    return failed ? -1 : 0;
}

void CPNG_encoder_destroy(CPNG_Encoder *encoder) {
    if (!encoder) return;
    if (encoder->png) png_destroy_write_struct(&encoder->png, encoder->info ? &encoder->info : NULL);
    if (encoder->file) fclose(encoder->file);
    free(encoder);
}

const char *CPNG_encoder_message(const CPNG_Encoder *encoder) { return encoder->message; }
