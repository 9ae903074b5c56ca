#ifndef LUMEN_CGIF_H
#define LUMEN_CGIF_H
// Shims over giflib: a GIF in memory is scanned once for its frames (without
// decompressing them), then any frame is rendered onto the logical screen the way
// Pillow shows it — earlier frames composited under it, each frame's disposal method
// honoured ("restore to background" uses the screen's background colour unless the frame
// has a transparent colour, as the GIF89a specification says), its transparent index
// left see-through.
#include <stddef.h>
#include <stdint.h>

typedef struct CGIF_File CGIF_File;

typedef struct {
    int left, top, width, height;
    int delayCentiseconds;   // from the graphic control extension, 0 when absent
    int disposal;            // 0–3 (unspecified, keep, restore to background, restore to previous)
    int transparentIndex;    // -1 when none
    int interlaced;
    int hasLocalPalette;
} CGIF_Frame;

/// Opens and scans `length` bytes at `data` (they must outlive the file). Frames larger
/// than `pixelLimit` pixels, or more than `frameLimit` frames, are refused. NULL on
/// failure with a reason in `message`.
CGIF_File *CGIF_open(const uint8_t *data, size_t length, long pixelLimit, int frameLimit,
                     char *message, size_t messageLength);
void CGIF_close(CGIF_File *file);
const char *CGIF_message(const CGIF_File *file);

int CGIF_width(const CGIF_File *file);
int CGIF_height(const CGIF_File *file);
int CGIF_frame_count(const CGIF_File *file);
/// Colours in the global palette (0 when there is none).
int CGIF_palette_size(const CGIF_File *file);
/// Netscape loop count: 0 loops forever, -1 when the file has none.
int CGIF_loop_count(const CGIF_File *file);
CGIF_Frame CGIF_frame(const CGIF_File *file, int index);
/// Whether the file ends (or breaks) after its last complete frame.
int CGIF_truncated(const CGIF_File *file);

/// Renders frame `index` onto the whole logical screen as RGBA (unpremultiplied, 8-bit,
/// `width * 4` bytes per row); pixels no frame has painted are transparent black.
int CGIF_render(CGIF_File *file, int index, uint8_t *rgba);

#endif
