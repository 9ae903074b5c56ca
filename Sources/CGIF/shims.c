#include "CGIF.h"
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct CGIF_File {
    const uint8_t *data;
    size_t length;
    int width, height;
    int paletteSize;
    uint8_t background[4];   // the screen's background colour, RGBA
    int loopCount;
    int frameCount;
    int truncated;
    CGIF_Frame *frames;
    char message[256];
};

typedef struct {
    const uint8_t *data;
    size_t length, offset;
} Reader;

static int read_bytes(GifFileType *gif, GifByteType *buffer, int count) {
    Reader *reader = gif->UserData;
    size_t left = reader->length - reader->offset;
    size_t n = (size_t)count < left ? (size_t)count : left;
    memcpy(buffer, reader->data + reader->offset, n);
    reader->offset += n;
    return (int)n;
}

static void set_message(char *message, size_t length, const char *what, int code) {
    const char *reason = GifErrorString(code);
    snprintf(message, length, "%s%s%s", what, reason ? ": " : "", reason ? reason : "");
}

static GifFileType *open_reader(Reader *reader, char *message, size_t length) {
    int error = 0;
    GifFileType *gif = DGifOpen(reader, read_bytes, &error);
    if (!gif) set_message(message, length, "not a readable GIF", error);
    return gif;
}

/// Reads a graphic control or application extension into `pending` / `file`.
static int read_extension(GifFileType *gif, CGIF_File *file, CGIF_Frame *pending) {
    int code = 0;
    GifByteType *block = NULL;
    if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) return -1;
    int first = 1, netscape = 0;
    while (block) {
        if (first && code == GRAPHICS_EXT_FUNC_CODE && block[0] >= 4) {
            pending->disposal = (block[1] >> 2) & 7;
            if (pending->disposal > 3) pending->disposal = 0;
            pending->delayCentiseconds = block[2] | (block[3] << 8);
            pending->transparentIndex = (block[1] & 1) ? block[4] : -1;
        } else if (first && code == APPLICATION_EXT_FUNC_CODE && block[0] == 11 &&
                   (memcmp(block + 1, "NETSCAPE2.0", 11) == 0 || memcmp(block + 1, "ANIMEXTS1.0", 11) == 0)) {
            netscape = 1;
        } else if (netscape && block[0] >= 3 && block[1] == 1) {
            file->loopCount = block[2] | (block[3] << 8);
            netscape = 0;
        }
        first = 0;
        if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return -1;
    }
    return 0;
}

CGIF_File *CGIF_open(const uint8_t *data, size_t length, long pixelLimit, int frameLimit,
                     char *message, size_t messageLength) {
    Reader reader = {data, length, 0};
    GifFileType *gif = open_reader(&reader, message, messageLength);
    if (!gif) return NULL;
    CGIF_File *file = calloc(1, sizeof *file);
    if (!file) { DGifCloseFile(gif, NULL); snprintf(message, messageLength, "out of memory"); return NULL; }
    file->data = data;
    file->length = length;
    file->width = gif->SWidth;
    file->height = gif->SHeight;
    file->paletteSize = gif->SColorMap ? gif->SColorMap->ColorCount : 0;
    file->background[3] = 255;
    if (gif->SColorMap && gif->SBackGroundColor < gif->SColorMap->ColorCount) {
        GifColorType c = gif->SColorMap->Colors[gif->SBackGroundColor];
        file->background[0] = c.Red; file->background[1] = c.Green; file->background[2] = c.Blue;
    }
    file->loopCount = -1;
    int capacity = 0;
    CGIF_Frame pending = {0, 0, 0, 0, 0, 0, -1, 0, 0};
    int record = 0, failed = 0;
    do {
        if (DGifGetRecordType(gif, (GifRecordType *)&record) == GIF_ERROR) { failed = 1; break; }
        if (record == EXTENSION_RECORD_TYPE) {
            if (read_extension(gif, file, &pending) != 0) { failed = 1; break; }
        } else if (record == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(gif) == GIF_ERROR) { failed = 1; break; }
            GifImageDesc *desc = &gif->Image;
            if (desc->Width <= 0 || desc->Height <= 0 || (long)desc->Width * desc->Height > pixelLimit) {
                snprintf(message, messageLength, "frame %d is %d×%d, beyond the pixel limit of %ld",
                         file->frameCount, desc->Width, desc->Height, pixelLimit);
                free(file->frames); free(file); DGifCloseFile(gif, NULL);
                return NULL;
            }
            if (file->frameCount >= frameLimit) {
                snprintf(message, messageLength, "more than %d frames", frameLimit);
                free(file->frames); free(file); DGifCloseFile(gif, NULL);
                return NULL;
            }
            if (file->frameCount == capacity) {
                capacity = capacity ? capacity * 2 : 8;
                CGIF_Frame *grown = realloc(file->frames, (size_t)capacity * sizeof *grown);
                if (!grown) { failed = 1; break; }
                file->frames = grown;
            }
            pending.left = desc->Left; pending.top = desc->Top;
            pending.width = desc->Width; pending.height = desc->Height;
            pending.interlaced = desc->Interlace;
            pending.hasLocalPalette = desc->ColorMap != NULL;
            // Skip the compressed data without decompressing it; a frame counts once
            // all of its data is there.
            int codeSize = 0;
            GifByteType *block = NULL;
            if (DGifGetCode(gif, &codeSize, &block) == GIF_ERROR) { failed = 1; break; }
            while (block) {
                if (DGifGetCodeNext(gif, &block) == GIF_ERROR) { failed = 1; break; }
            }
            if (failed) break;
            file->frames[file->frameCount++] = pending;
            pending = (CGIF_Frame){0, 0, 0, 0, 0, 0, -1, 0, 0};
        }
    } while (record != TERMINATE_RECORD_TYPE);
    int error = gif->Error;
    DGifCloseFile(gif, NULL);
    // A file cut short after complete frames still shows them (as browsers and libvips do).
    file->truncated = failed;
    if (file->frameCount == 0) {
        if (failed) set_message(message, messageLength, "no readable frame", error);
        else snprintf(message, messageLength, "the file has no frames");
        free(file->frames); free(file);
        return NULL;
    }
    if (file->width <= 0 || file->height <= 0) {
        // Some writers leave the screen empty: use the first frame's extent.
        file->width = file->frames[0].left + file->frames[0].width;
        file->height = file->frames[0].top + file->frames[0].height;
    }
    return file;
}

void CGIF_close(CGIF_File *file) {
    if (!file) return;
    free(file->frames);
    free(file);
}

const char *CGIF_message(const CGIF_File *file) { return file->message; }
int CGIF_width(const CGIF_File *file) { return file->width; }
int CGIF_height(const CGIF_File *file) { return file->height; }
int CGIF_frame_count(const CGIF_File *file) { return file->frameCount; }
int CGIF_palette_size(const CGIF_File *file) { return file->paletteSize; }
int CGIF_loop_count(const CGIF_File *file) { return file->loopCount; }
int CGIF_truncated(const CGIF_File *file) { return file->truncated; }
CGIF_Frame CGIF_frame(const CGIF_File *file, int index) { return file->frames[index]; }

/// Disposes the part of frame `f` inside the screen "to background", as Pillow does and
/// the GIF89a specification says: transparent when the frame had a transparent colour,
/// otherwise the screen's background colour.
static void dispose_to_background(uint8_t *rgba, int width, int height, const CGIF_Frame *f, const uint8_t background[4]) {
    const uint8_t clear[4] = {0, 0, 0, 0};
    const uint8_t *fill = f->transparentIndex >= 0 ? clear : background;
    for (int y = f->top; y < f->top + f->height && y < height; y++) {
        if (y < 0) continue;
        int x0 = f->left < 0 ? 0 : f->left, x1 = f->left + f->width > width ? width : f->left + f->width;
        for (int x = x0; x < x1; x++) memcpy(rgba + ((size_t)y * width + x) * 4, fill, 4);
    }
}

int CGIF_render(CGIF_File *file, int index, uint8_t *rgba) {
    if (index < 0 || index >= file->frameCount) {
        snprintf(file->message, sizeof file->message, "no frame %d (the file has %d)", index, file->frameCount);
        return -1;
    }
    const int width = file->width, height = file->height;
    memset(rgba, 0, (size_t)width * height * 4);
    Reader reader = {file->data, file->length, 0};
    GifFileType *gif = open_reader(&reader, file->message, sizeof file->message);
    if (!gif) return -1;
    uint8_t *saved = NULL;   // the screen before a "restore to previous" frame
    GifPixelType *line = NULL;
    int frame = 0, record = 0, status = 0;
    size_t lineCapacity = 0;
    while (frame <= index) {
        if (DGifGetRecordType(gif, (GifRecordType *)&record) == GIF_ERROR) { status = -1; break; }
        if (record == TERMINATE_RECORD_TYPE) break;
        if (record == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType *block = NULL;
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) { status = -1; break; }
            while (block) if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) { status = -1; break; }
            if (status) break;
            continue;
        }
        if (record != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(gif) == GIF_ERROR) { status = -1; break; }
        const CGIF_Frame *f = &file->frames[frame];
        if (frame > 0) {
            const CGIF_Frame *previous = &file->frames[frame - 1];
            if (previous->disposal == 2) dispose_to_background(rgba, width, height, previous, file->background);
            else if (previous->disposal == 3 && saved) memcpy(rgba, saved, (size_t)width * height * 4);
        }
        if (f->disposal == 3 && frame < index) {
            if (!saved && !(saved = malloc((size_t)width * height * 4))) { status = -1; break; }
            memcpy(saved, rgba, (size_t)width * height * 4);
        }
        ColorMapObject *map = gif->Image.ColorMap ? gif->Image.ColorMap : gif->SColorMap;
        if ((size_t)f->width > lineCapacity) {
            free(line);
            lineCapacity = (size_t)f->width;
            if (!(line = malloc(lineCapacity))) { status = -1; break; }
        }
        // Interlaced frames store rows in four passes; each row lands where it belongs.
        static const int starts[] = {0, 4, 2, 1}, steps[] = {8, 8, 4, 2};
        const int passes = f->interlaced ? 4 : 1;
        for (int pass = 0; pass < passes && status == 0; pass++) {
            int start = f->interlaced ? starts[pass] : 0, step = f->interlaced ? steps[pass] : 1;
            for (int row = start; row < f->height; row += step) {
                if (DGifGetLine(gif, line, f->width) == GIF_ERROR) { status = -1; break; }
                int y = f->top + row;
                if (y < 0 || y >= height) continue;
                uint8_t *out = rgba + (size_t)y * width * 4;
                for (int col = 0; col < f->width; col++) {
                    int x = f->left + col, value = line[col];
                    if (x < 0 || x >= width || value == f->transparentIndex) continue;
                    if (map && value < map->ColorCount) {
                        GifColorType c = map->Colors[value];
                        out[4 * x] = c.Red; out[4 * x + 1] = c.Green; out[4 * x + 2] = c.Blue;
                    } else {
                        out[4 * x] = out[4 * x + 1] = out[4 * x + 2] = 0;
                    }
                    out[4 * x + 3] = 255;
                }
            }
        }
        if (status) break;
        frame++;
    }
    if (status != 0 && gif->Error) set_message(file->message, sizeof file->message, "corrupt frame data", gif->Error);
    if (status == 0 && frame <= index) {
        snprintf(file->message, sizeof file->message, "the file ends before frame %d", index);
        status = -1;
    }
    free(line);
    free(saved);
    DGifCloseFile(gif, NULL);
    return status;
}
