#include "CText.h"
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#include <hb-ft.h>
#include <fontconfig/fontconfig.h>

// HarfBuzz, FreeType and fontconfig are opened on first use (dlopen), not linked: with
// what they pull in (GLib, graphite2, PCRE2, expat, Brotli) they were ten of the thirty
// libraries every lumen process loaded, about 1 ms of each start, for text few use.
// The headers give the types; this table gives the functions.
#define TEXT_FUNCTIONS(X) \
    X(FT_Done_FreeType) X(FT_Init_FreeType) X(FT_Load_Glyph) X(FT_New_Face) X(FT_Set_Char_Size) X(FT_Set_Transform) \
    X(FcConfigSubstitute) X(FcDefaultSubstitute) X(FcFontMatch) X(FcInit) X(FcNameParse) X(FcPatternDestroy) \
    X(FcPatternGetInteger) X(FcPatternGetString) \
    X(hb_buffer_add_utf8) X(hb_buffer_create) X(hb_buffer_destroy) X(hb_buffer_get_glyph_infos) \
    X(hb_buffer_get_glyph_positions) X(hb_buffer_guess_segment_properties) X(hb_buffer_set_direction) \
    X(hb_font_destroy) X(hb_ft_font_create_referenced) X(hb_ft_font_set_load_flags) X(hb_shape)

#define DECLARE(name) __typeof__(name) *name;
static struct { TEXT_FUNCTIONS(DECLARE) } loaded;
static char failure[160];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    const char *names[] = {"libfreetype.so.6", "libfontconfig.so.1", "libharfbuzz.so.0"};
    void *libraries[3];
    for (int i = 0; i < 3; i++) {
        // Global, so HarfBuzz's FreeType functions meet the FreeType loaded here.
        if (!(libraries[i] = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL))) {
            snprintf(failure, sizeof failure, "%s is not installed (Debian: libharfbuzz0b, libfreetype6, libfontconfig1)", names[i]);
            return;
        }
    }
#define RESOLVE(name) \
    if (!(loaded.name = (__typeof__(loaded.name))dlsym(RTLD_DEFAULT, #name))) { snprintf(failure, sizeof failure, "no %s in the text libraries", #name); return; }
    TEXT_FUNCTIONS(RESOLVE)
}

#define FT_Done_FreeType loaded.FT_Done_FreeType
#define FT_Init_FreeType loaded.FT_Init_FreeType
#define FT_Load_Glyph loaded.FT_Load_Glyph
#define FT_New_Face loaded.FT_New_Face
#define FT_Set_Char_Size loaded.FT_Set_Char_Size
#define FT_Set_Transform loaded.FT_Set_Transform
#define FcConfigSubstitute loaded.FcConfigSubstitute
#define FcDefaultSubstitute loaded.FcDefaultSubstitute
#define FcFontMatch loaded.FcFontMatch
#define FcInit loaded.FcInit
#define FcNameParse loaded.FcNameParse
#define FcPatternDestroy loaded.FcPatternDestroy
#define FcPatternGetInteger loaded.FcPatternGetInteger
#define FcPatternGetString loaded.FcPatternGetString
#define hb_buffer_add_utf8 loaded.hb_buffer_add_utf8
#define hb_buffer_create loaded.hb_buffer_create
#define hb_buffer_destroy loaded.hb_buffer_destroy
#define hb_buffer_get_glyph_infos loaded.hb_buffer_get_glyph_infos
#define hb_buffer_get_glyph_positions loaded.hb_buffer_get_glyph_positions
#define hb_buffer_guess_segment_properties loaded.hb_buffer_guess_segment_properties
#define hb_buffer_set_direction loaded.hb_buffer_set_direction
#define hb_font_destroy loaded.hb_font_destroy
#define hb_ft_font_create_referenced loaded.hb_ft_font_create_referenced
#define hb_ft_font_set_load_flags loaded.hb_ft_font_set_load_flags
#define hb_shape loaded.hb_shape

/// The font file fontconfig matches for `name` (caller frees), and its face index.
static char *match_font(const char *name, int *index, char *family, size_t familySize) {
    if (!FcInit()) return NULL;
    FcPattern *pattern = FcNameParse((const FcChar8 *)(name && *name ? name : "sans-serif"));
    if (!pattern) return NULL;
    FcConfigSubstitute(NULL, pattern, FcMatchPattern);
    FcDefaultSubstitute(pattern);
    FcResult result;
    FcPattern *match = FcFontMatch(NULL, pattern, &result);
    FcPatternDestroy(pattern);
    if (!match) return NULL;
    FcChar8 *file = NULL, *fam = NULL;
    char *path = NULL;
    if (FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch) path = strdup((const char *)file);
    if (FcPatternGetInteger(match, FC_INDEX, 0, index) != FcResultMatch) *index = 0;
    if (FcPatternGetString(match, FC_FAMILY, 0, &fam) == FcResultMatch) snprintf(family, familySize, "%s", (const char *)fam);
    FcPatternDestroy(match);
    return path;
}

typedef struct { const char *start; int length; } Line;

/// The code point at p (UTF-8) and its length in bytes (1 for invalid bytes).
static unsigned decode(const unsigned char *p, int *size) {
    if (p[0] < 0x80) { *size = 1; return p[0]; }
    if ((p[0] & 0xE0) == 0xC0 && (p[1] & 0xC0) == 0x80) { *size = 2; return ((p[0] & 0x1F) << 6) | (p[1] & 0x3F); }
    if ((p[0] & 0xF0) == 0xE0 && (p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80) {
        *size = 3; return ((p[0] & 0x0F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    }
    if ((p[0] & 0xF8) == 0xF0 && (p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80 && (p[3] & 0xC0) == 0x80) {
        *size = 4; return ((p[0] & 0x07) << 18) | ((p[1] & 0x3F) << 12) | ((p[2] & 0x3F) << 6) | (p[3] & 0x3F);
    }
    *size = 1; return 0xFFFD;
}

/// 1 right-to-left (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms),
/// 0 left-to-right (letters of other scripts), -1 neutral (spaces, digits, punctuation).
static int direction(unsigned c) {
    if ((c >= 0x0590 && c <= 0x08FF) || (c >= 0xFB1D && c <= 0xFDFF) || (c >= 0xFE70 && c <= 0xFEFF)) return 1;
    if (c < 0x80) return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ? 0 : -1;
    if (c >= 0x2000 && c <= 0x2BFF) return -1;  // general punctuation, symbols, arrows
    if (c == 0xA0 || (c >= 0x3000 && c <= 0x303F)) return -1;
    return 0;
}

typedef struct { const char *start; int length; int rtl; hb_buffer_t *buffer; double advance; } Run;

/// Splits a line into directional runs (neutrals join the run before them, or the first
/// strong one), shapes each, and orders them for display: a line whose first strong
/// character is right-to-left shows its runs from right to left. A simplified
/// Unicode bidirectional algorithm: enough for mixed Latin and Arabic or Hebrew words.
static int shape_line(hb_font_t *font, const char *text, int length, Run **runsOut) {
    int capacity = 8, count = 0, paragraphRTL = -1;
    Run *runs = calloc((size_t)capacity, sizeof(Run));
    int offset = 0, current = -1, runStart = 0, lastStrongEnd = 0;
    while (offset <= length) {
        int size = 1, dir = -2;
        if (offset < length) {
            dir = direction(decode((const unsigned char *)text + offset, &size));
            if (dir >= 0 && paragraphRTL < 0) paragraphRTL = dir;
        }
        if (offset == length || (dir >= 0 && current >= 0 && dir != current)) {
            // Neutrals between two runs go with the side that has the paragraph's direction.
            int split = offset == length ? length : (dir == paragraphRTL ? lastStrongEnd : offset);
            if (split > runStart) {
                if (count == capacity) { capacity *= 2; runs = realloc(runs, (size_t)capacity * sizeof(Run)); }
                runs[count].start = text + runStart;
                runs[count].length = split - runStart;
                runs[count].rtl = current == 1;
                count++;
            }
            runStart = split;
        }
        if (dir >= 0) { current = dir; lastStrongEnd = offset + size; }
        offset += size;
    }
    for (int i = 0; i < count; i++) {
        runs[i].buffer = hb_buffer_create();
        hb_buffer_add_utf8(runs[i].buffer, runs[i].start, runs[i].length, 0, runs[i].length);
        hb_buffer_guess_segment_properties(runs[i].buffer);
        hb_buffer_set_direction(runs[i].buffer, runs[i].rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
        hb_shape(font, runs[i].buffer, NULL, 0);
        unsigned glyphs;
        hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(runs[i].buffer, &glyphs);
        for (unsigned g = 0; g < glyphs; g++) runs[i].advance += pos[g].x_advance / 64.0;
    }
    if (paragraphRTL == 1) for (int i = 0; i < count / 2; i++) { Run t = runs[i]; runs[i] = runs[count - 1 - i]; runs[count - 1 - i] = t; }
    *runsOut = runs;
    return count;
}

int CText_render(const char *text, const char *name, double pixelSize, int padding, long pixelLimit, CText_Raster *out) {
    memset(out, 0, sizeof *out);
    pthread_once(&once, load);
    if (failure[0]) { snprintf(out->message, sizeof out->message, "%s", failure); return 3; }
    if (!(pixelSize > 0 && pixelSize <= 4096)) { snprintf(out->message, sizeof out->message, "font size must be 0…4096 pixels"); return 1; }
    int index = 0;
    char *path = match_font(name, &index, out->family, sizeof out->family);
    if (!path) { snprintf(out->message, sizeof out->message, "fontconfig found no font for '%s'", name); return 2; }
    FT_Library library;
    FT_Face face;
    if (FT_Init_FreeType(&library)) { free(path); snprintf(out->message, sizeof out->message, "FreeType did not start"); return 3; }
    if (FT_New_Face(library, path, index, &face)) {
        snprintf(out->message, sizeof out->message, "FreeType cannot open %s", path);
        free(path); FT_Done_FreeType(library); return 3;
    }
    free(path);
    FT_Set_Char_Size(face, 0, (FT_F26Dot6)lround(pixelSize * 64), 72, 72);
    hb_font_t *font = hb_ft_font_create_referenced(face);
    hb_ft_font_set_load_flags(font, FT_LOAD_NO_HINTING);
    double ascender = face->size->metrics.ascender / 64.0, descender = -face->size->metrics.descender / 64.0;
    double lineHeight = face->size->metrics.height / 64.0;
    if (lineHeight < ascender + descender) lineHeight = ascender + descender;

    // Lines, shaped once to measure and once more to draw (cheap next to rasterising).
    int lineCount = 1;
    for (const char *p = text; *p; p++) if (*p == '\n') lineCount++;
    Run **lineRuns = calloc((size_t)lineCount, sizeof(Run *));
    int *runCounts = calloc((size_t)lineCount, sizeof(int));
    const char *start = text;
    double widest = 0;
    for (int i = 0; i < lineCount; i++) {
        const char *end = strchr(start, '\n');
        int length = end ? (int)(end - start) : (int)strlen(start);
        runCounts[i] = shape_line(font, start, length, &lineRuns[i]);
        double advance = 0;
        for (int r = 0; r < runCounts[i]; r++) advance += lineRuns[i][r].advance;
        if (advance > widest) widest = advance;
        start = end ? end + 1 : start + length;
    }
    long width = (long)ceil(widest) + 2L * padding, height = (long)ceil(lineHeight * (lineCount - 1) + ascender + descender) + 2L * padding;
    int status = 0;
    if (width <= 0 || height <= 0 || width > 1 << 20 || height > 1 << 20 || width * height > pixelLimit) {
        snprintf(out->message, sizeof out->message, "a %ld × %ld text image is over the pixel limit", width, height);
        status = 4;
    } else {
        out->width = (int)width; out->height = (int)height;
        out->coverage = calloc((size_t)(width * height), 1);
        for (int i = 0; i < lineCount && out->coverage; i++) {
            double penX = padding, baseline = padding + ascender + i * lineHeight;  // from the top
            for (int r = 0; r < runCounts[i]; r++) {
                unsigned count;
                hb_glyph_info_t *info = hb_buffer_get_glyph_infos(lineRuns[i][r].buffer, &count);
                hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(lineRuns[i][r].buffer, &count);
                for (unsigned g = 0; g < count; g++) {
                    double x = penX + pos[g].x_offset / 64.0, y = baseline - pos[g].y_offset / 64.0;
                    FT_Vector shift = { (FT_Pos)lround((x - floor(x)) * 64), (FT_Pos)lround(-(y - floor(y)) * 64) };
                    FT_Set_Transform(face, NULL, &shift);
                    if (!FT_Load_Glyph(face, info[g].codepoint, FT_LOAD_NO_HINTING | FT_LOAD_RENDER)) {
                        FT_Bitmap *bitmap = &face->glyph->bitmap;
                        long left = (long)floor(x) + face->glyph->bitmap_left, top = (long)floor(y) - face->glyph->bitmap_top;
                        for (unsigned row = 0; row < bitmap->rows; row++) {
                            long yy = top + row;
                            if (yy < 0 || yy >= height) continue;
                            for (unsigned col = 0; col < bitmap->width; col++) {
                                long xx = left + col;
                                if (xx < 0 || xx >= width) continue;
                                unsigned value = bitmap->buffer[row * bitmap->pitch + col];
                                unsigned char *dst = &out->coverage[yy * width + xx];
                                unsigned sum = *dst + value;  // overlapping glyphs add (clamped)
                                *dst = sum > 255 ? 255 : (unsigned char)sum;
                            }
                        }
                    }
                    penX += pos[g].x_advance / 64.0;
                }
            }
        }
        FT_Set_Transform(face, NULL, NULL);
        if (!out->coverage) { snprintf(out->message, sizeof out->message, "out of memory"); status = 5; }
    }
    for (int i = 0; i < lineCount; i++) {
        for (int r = 0; r < runCounts[i]; r++) hb_buffer_destroy(lineRuns[i][r].buffer);
        free(lineRuns[i]);
    }
    free(lineRuns); free(runCounts);
    hb_font_destroy(font);  // releases the face
    FT_Done_FreeType(library);
    return status;
}

void CText_free(CText_Raster *raster) {
    free(raster->coverage);
    raster->coverage = NULL;
}
