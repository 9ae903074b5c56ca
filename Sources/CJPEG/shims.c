#include <errno.h>
#include "CJPEG.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

// An error manager that longjmps back into the shim that called libjpeg, keeping
// the formatted message. A premature end of data (only a warning in libjpeg, which
// then pads with grey) is promoted to an error: a truncated file must not decode.
typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    char warning[JMSG_LENGTH_MAX];  // the first warning, e.g. "Corrupt JPEG data: 3 extraneous bytes…"
} ErrorManager;

static void on_error_exit(j_common_ptr info) {
    ErrorManager *manager = (ErrorManager *)info->err;
    (*info->err->format_message)(info, manager->message);
    longjmp(manager->jump, 1);
}

static void on_message(j_common_ptr info, int level) {
    if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF) on_error_exit(info);
    if (level < 0) {
        ErrorManager *manager = (ErrorManager *)info->err;
        if (info->err->num_warnings++ == 0) (*info->err->format_message)(info, manager->warning);
    }
}

static void install(ErrorManager *manager) {
    jpeg_std_error(&manager->base);
    manager->base.error_exit = on_error_exit;
    manager->base.emit_message = on_message;
    manager->message[0] = 0;
    manager->warning[0] = 0;
}

/// More scans than any real progressive JPEG has (libjpeg's own scripts use 10, jpegtran
/// at most a few dozen): a file of thousands of tiny scans makes every scan walk the
/// whole image, minutes of work from 100 KB (djpeg's -maxscans guards the same).
enum { CJPEG_MAX_SCANS = 500 };

static void on_progress(j_common_ptr info) {
    if (!info->is_decompressor) return;
    j_decompress_ptr decompress = (j_decompress_ptr)info;
    if (decompress->input_scan_number > CJPEG_MAX_SCANS) {
        ErrorManager *manager = (ErrorManager *)info->err;
        snprintf(manager->message, sizeof manager->message, "more than %d scans (a normal progressive JPEG has about 10)", CJPEG_MAX_SCANS);
        longjmp(manager->jump, 1);
    }
}

struct CJPEG_Decoder {
    struct jpeg_decompress_struct info;
    struct jpeg_progress_mgr progress;
    ErrorManager error;
    int created;
    uint8_t *icc;
    unsigned int iccLength;
};

CJPEG_Decoder *CJPEG_decoder_create(const uint8_t *data, size_t length) {
    CJPEG_Decoder *decoder = calloc(1, sizeof(CJPEG_Decoder));
    if (!decoder) return NULL;
    install(&decoder->error);
    decoder->info.err = &decoder->error.base;
    if (setjmp(decoder->error.jump)) return decoder;  // message is set; read_header fails
    jpeg_create_decompress(&decoder->info);
    decoder->created = 1;
    decoder->progress.progress_monitor = on_progress;
    decoder->info.progress = &decoder->progress;
    jpeg_mem_src(&decoder->info, data, (unsigned long)length);
    return decoder;
}

void CJPEG_decoder_destroy(CJPEG_Decoder *decoder) {
    if (!decoder) return;
    if (decoder->created) jpeg_destroy_decompress(&decoder->info);
    free(decoder->icc);
    free(decoder);
}

const char *CJPEG_decoder_message(const CJPEG_Decoder *decoder) { return decoder->error.message; }

const char *CJPEG_warning(const CJPEG_Decoder *decoder, int *count) {
    *count = (int)decoder->error.base.num_warnings;
    return decoder->error.warning[0] ? decoder->error.warning : NULL;
}

int CJPEG_read_header(CJPEG_Decoder *decoder, CJPEG_Header *header) {
    if (!decoder->created) return -1;
    if (setjmp(decoder->error.jump)) return -1;
    jpeg_save_markers(&decoder->info, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&decoder->info, JPEG_APP0 + 2, 0xFFFF);
    jpeg_save_markers(&decoder->info, JPEG_APP0 + 13, 0xFFFF);
    jpeg_read_header(&decoder->info, TRUE);
    header->densityUnit = decoder->info.saw_JFIF_marker ? decoder->info.density_unit : 0;
    header->xDensity = decoder->info.X_density;
    header->yDensity = decoder->info.Y_density;
    header->width = (int)decoder->info.image_width;
    header->height = (int)decoder->info.image_height;
    header->components = decoder->info.num_components;
    header->colorSpace = decoder->info.jpeg_color_space;
    header->progressive = decoder->info.progressive_mode ? 1 : 0;
    header->adobeInverted = decoder->info.saw_Adobe_marker ? 1 : 0;
    return 0;
}

const uint8_t *CJPEG_exif(CJPEG_Decoder *decoder, size_t *length) {
    for (jpeg_saved_marker_ptr m = decoder->info.marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length > 6 && memcmp(m->data, "Exif\0\0", 6) == 0) {
            *length = m->data_length - 6;
            return m->data + 6;
        }
    }
    *length = 0;
    return NULL;
}

const uint8_t *CJPEG_marker(CJPEG_Decoder *decoder, int marker, const char *prefix, size_t prefixLength, size_t *length) {
    for (jpeg_saved_marker_ptr m = decoder->info.marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + marker && m->data_length >= prefixLength && memcmp(m->data, prefix, prefixLength) == 0) {
            *length = m->data_length - prefixLength;
            return m->data + prefixLength;
        }
    }
    *length = 0;
    return NULL;
}

const uint8_t *CJPEG_icc(CJPEG_Decoder *decoder, size_t *length) {
    *length = 0;
    if (setjmp(decoder->error.jump)) return NULL;
    if (!decoder->icc) {
        JOCTET *data = NULL;
        unsigned int size = 0;
        if (!jpeg_read_icc_profile(&decoder->info, &data, &size)) return NULL;
        decoder->icc = data;
        decoder->iccLength = size;
    }
    *length = decoder->iccLength;
    return decoder->icc;
}

int CJPEG_start(CJPEG_Decoder *decoder, int scaleDenominator, int outComponents,
                int *outWidth, int *outHeight) {
    if (setjmp(decoder->error.jump)) return -1;
    decoder->info.scale_num = 1;
    decoder->info.scale_denom = (unsigned int)scaleDenominator;
    decoder->info.out_color_space = outComponents == 1 ? JCS_GRAYSCALE
                                  : outComponents == 4 ? JCS_CMYK : JCS_RGB;
    decoder->info.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&decoder->info);
    *outWidth = (int)decoder->info.output_width;
    *outHeight = (int)decoder->info.output_height;
    return 0;
}

int CJPEG_read_rows(CJPEG_Decoder *decoder, uint8_t *buffer, size_t stride, int maxRows) {
    if (setjmp(decoder->error.jump)) return -1;
    int read = 0;
    while (read < maxRows && decoder->info.output_scanline < decoder->info.output_height) {
        JSAMPROW rows[8];
        int want = maxRows - read < 8 ? maxRows - read : 8;
        for (int i = 0; i < want; i++) rows[i] = buffer + (size_t)(read + i) * stride;
        read += (int)jpeg_read_scanlines(&decoder->info, rows, (JDIMENSION)want);
    }
    return read;
}

int CJPEG_skip_rows(CJPEG_Decoder *decoder, int count) {
    if (setjmp(decoder->error.jump)) return -1;
    return (int)jpeg_skip_scanlines(&decoder->info, (JDIMENSION)count);
}

int CJPEG_finish(CJPEG_Decoder *decoder, int complete) {
    if (setjmp(decoder->error.jump)) return -1;
    if (complete) jpeg_finish_decompress(&decoder->info);
    else jpeg_abort_decompress(&decoder->info);
    return 0;
}

struct CJPEG_Encoder {
    struct jpeg_compress_struct info;
    ErrorManager error;
    FILE *file;
    int created;
};

CJPEG_Encoder *CJPEG_encoder_create(FILE *file, int width, int height, int components,
                                    int quality, int subsample444, int progressive,
                                    int densityUnit, int xDensity, int yDensity, char *message,
                                    size_t messageLength) {
    CJPEG_Encoder *encoder = calloc(1, sizeof(CJPEG_Encoder));
    if (!encoder) { snprintf(message, messageLength, "out of memory"); fclose(file); return NULL; }
    install(&encoder->error);
    encoder->info.err = &encoder->error.base;
    encoder->file = file;
    if (setjmp(encoder->error.jump)) {
        snprintf(message, messageLength, "%s", encoder->error.message);
        CJPEG_encoder_destroy(encoder);
        return NULL;
    }
    jpeg_create_compress(&encoder->info);
    encoder->created = 1;
    jpeg_stdio_dest(&encoder->info, encoder->file);
    encoder->info.image_width = (JDIMENSION)width;
    encoder->info.image_height = (JDIMENSION)height;
    encoder->info.input_components = components;
    encoder->info.in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&encoder->info);
    jpeg_set_quality(&encoder->info, quality, TRUE);
    encoder->info.dct_method = JDCT_ISLOW;
    if (components == 3 && subsample444) {
        for (int i = 0; i < 3; i++) {
            encoder->info.comp_info[i].h_samp_factor = 1;
            encoder->info.comp_info[i].v_samp_factor = 1;
        }
    }
    if (progressive) jpeg_simple_progression(&encoder->info);
    if (densityUnit > 0 && xDensity > 0 && yDensity > 0 && xDensity <= 65535 && yDensity <= 65535) {
        encoder->info.density_unit = (UINT8)densityUnit;
        encoder->info.X_density = (UINT16)xDensity;
        encoder->info.Y_density = (UINT16)yDensity;
    }
    jpeg_start_compress(&encoder->info, TRUE);
    return encoder;
}

int CJPEG_write_marker(CJPEG_Encoder *encoder, int marker, const char *prefix, size_t prefixLength,
                       const uint8_t *data, size_t length) {
    if (setjmp(encoder->error.jump)) return -1;
    if (prefixLength + length > 65533) {
        snprintf(encoder->error.message, sizeof encoder->error.message, "APP%d block of %zu bytes is larger than a JPEG marker holds",
                 marker, prefixLength + length);
        return -1;
    }
    jpeg_write_m_header(&encoder->info, JPEG_APP0 + marker, (unsigned int)(prefixLength + length));
    for (size_t i = 0; i < prefixLength; i++) jpeg_write_m_byte(&encoder->info, (unsigned char)prefix[i]);
    for (size_t i = 0; i < length; i++) jpeg_write_m_byte(&encoder->info, data[i]);
    return 0;
}

int CJPEG_write_icc(CJPEG_Encoder *encoder, const uint8_t *icc, size_t length) {
    if (setjmp(encoder->error.jump)) return -1;
    jpeg_write_icc_profile(&encoder->info, icc, (unsigned int)length);
    return 0;
}

int CJPEG_write_rows(CJPEG_Encoder *encoder, const uint8_t *rows, size_t stride, int count) {
    if (setjmp(encoder->error.jump)) return -1;
    int written = 0;
    while (written < count) {
        JSAMPROW pointers[16];
        int batch = count - written < 16 ? count - written : 16;
        for (int i = 0; i < batch; i++) pointers[i] = (JSAMPROW)(rows + (size_t)(written + i) * stride);
        written += (int)jpeg_write_scanlines(&encoder->info, pointers, (JDIMENSION)batch);
    }
    return 0;
}

int CJPEG_encoder_finish(CJPEG_Encoder *encoder) {
    if (setjmp(encoder->error.jump)) return -1;
    jpeg_finish_compress(&encoder->info);
    int failed = ferror(encoder->file) != 0 || fflush(encoder->file) != 0;
    int reason = errno;
    if (fclose(encoder->file) != 0 && !failed) { failed = 1; reason = errno; }
    encoder->file = NULL;
    if (failed) snprintf(encoder->error.message, sizeof encoder->error.message, "write failed: %s", strerror(reason));
    return failed ? -1 : 0;
}

void CJPEG_encoder_destroy(CJPEG_Encoder *encoder) {
    if (!encoder) return;
    if (encoder->created) jpeg_destroy_compress(&encoder->info);
    if (encoder->file) fclose(encoder->file);
    free(encoder);
}

const char *CJPEG_encoder_message(const CJPEG_Encoder *encoder) { return encoder->error.message; }
