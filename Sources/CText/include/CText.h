#ifndef LUMEN_CTEXT_H
#define LUMEN_CTEXT_H
// Text to coverage: the font is found by name through fontconfig (an unknown name gets
// fontconfig's default match, DejaVu Sans on Debian), each line is shaped by HarfBuzz
// (ligatures, kerning, complex scripts, right-to-left runs) and its glyphs are rasterised
// by FreeType with anti-aliasing into one 8-bit coverage buffer, rows from the top.

typedef struct {
    int width, height;           // pixels
    unsigned char *coverage;     // width × height, 0…255, rows from the top; freed by CText_free
    char family[128];            // the family fontconfig chose
    char message[200];           // why it failed
} CText_Raster;

/// Renders UTF-8 `text` (lines separated by \n) with the font `name` at `pixelSize`
/// pixels per em, with `padding` pixels on every side. The canvas spans the lines'
/// advance widths and the font's ascender-to-descender height per line. Returns 0 on
/// success; canvases over `pixelLimit` pixels are refused.
int CText_render(const char *text, const char *name, double pixelSize, int padding, long pixelLimit, CText_Raster *out);
void CText_free(CText_Raster *raster);

#endif
