#ifndef LUMEN_CTIFF_H
#define LUMEN_CTIFF_H
// Shims over libtiff: TIFFGetField/TIFFSetField are variadic (Swift cannot call
// them), and libtiff reports errors through a process-wide handler, which these shims
// route into a per-thread message buffer.
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t width, height;
    int bitsPerSample, samplesPerPixel, sampleFormat;
    int photometric, planarConfig, compression, orientation;
    int extraSamples, alphaAssociated;
    int tiled, hasICC;
} CTIFF_Info;

typedef struct tiff CTIFF_File;

/// A reduced-resolution copy of the first page: a SubIFD (at file offset `where`) or a
/// later page (index `where`).
typedef struct {
    uint32_t width, height;
    int subIFD;
    uint64_t where;
} CTIFF_Level;
/// The bytes behind a TIFF opened in memory.
typedef struct CTIFF_Memory CTIFF_Memory;

/// Opens libtiff (on first use, not linked) unless it is open; 1 when it is loaded, else 0
/// with the reason in `why`.
int CTIFF_available(char *why, size_t length);
/// The last libtiff error reported on this thread.
const char *CTIFF_last_error(void);
/// The first libtiff warning on this thread since the last call, copied into `text`; 0 when none.
int CTIFF_take_warning(char *text, size_t length);
CTIFF_File *CTIFF_open(const char *path, const char *mode);
void CTIFF_close(CTIFF_File *file);
/// Flushes and closes a file being written; 0, or -1 with CTIFF_last_error() saying why
/// (an error left on this thread by an earlier read does not count).
int CTIFF_finish_write(CTIFF_File *file);
/// Opens the TIFF in `data` (which must outlive the file) for reading; free `*memory`
/// with CTIFF_memory_free after closing.
CTIFF_File *CTIFF_open_memory(const uint8_t *data, size_t length, CTIFF_Memory **memory);
/// Opens a TIFF for writing into memory; after closing, its bytes are
/// CTIFF_memory_bytes(*memory) until CTIFF_memory_free.
CTIFF_File *CTIFF_open_memory_writer(CTIFF_Memory **memory);
const uint8_t *CTIFF_memory_bytes(const CTIFF_Memory *memory, size_t *length);
void CTIFF_memory_free(CTIFF_Memory *memory);
int CTIFF_info(CTIFF_File *file, CTIFF_Info *info);
/// Readies the current directory for reading as stored: JPEG-compressed YCbCr (any
/// subsampling) is converted to RGB by libtiff's JPEG codec, so strips and tiles read as
/// 8-bit RGB. Returns 1 when it did, else 0.
int CTIFF_prepare(CTIFF_File *file);
/// The first page's reduced-resolution copies, up to `max`: its SubIFDs (slide scanners,
/// `vips tiffsave subifd`) and the later pages marked reduced (NewSubfileType bit 0, as
/// `vips tiffsave pyramid` writes them). Returns how many; the file is left on page 0.
int CTIFF_levels(CTIFF_File *file, CTIFF_Level *levels, int max);
/// Makes `level` (NULL: the first page) the current directory and readies it. 0 or -1.
int CTIFF_select(CTIFF_File *file, const CTIFF_Level *level);
const uint8_t *CTIFF_icc(CTIFF_File *file, size_t *length);
/// The XMP packet (tag 700), or NULL.
const uint8_t *CTIFF_xmp(CTIFF_File *file, size_t *length);
/// The IPTC records (tag 33723), or NULL.
const uint8_t *CTIFF_iptc(CTIFF_File *file, size_t *length);
/// The resolution in pixels per inch; 0 when absent or unitless.
int CTIFF_resolution(CTIFF_File *file, float *x, float *y);
/// Sets XMP, IPTC and the resolution (pixels per inch; 0 leaves it out) after
/// CTIFF_begin_write, before the first row. Returns 0 or -1.
int CTIFF_set_metadata(CTIFF_File *file, const uint8_t *xmp, size_t xmpLength, const uint8_t *iptc, size_t iptcLength,
                       float xPerInch, float yPerInch);
/// Rows per strip, or per row of tiles: read bands aligned to it, so nothing is decoded twice.
uint32_t CTIFF_row_unit(CTIFF_File *file);
/// Reads rows `firstRow..<firstRow + rowCount` into `buffer` (rows `stride` bytes apart,
/// top row first, samples interleaved) from the strips or tiles that hold them, in either
/// planar configuration. 8- and 16-bit samples come as stored; 1-, 2- and 4-bit samples
/// come one byte each, unscaled (0…2^bits − 1). Returns 0 or -1.
int CTIFF_read_rows(CTIFF_File *file, uint8_t *buffer, size_t stride, uint32_t firstRow, uint32_t rowCount);
/// The colour map of a palette image (2^bits entries per channel), 0; -1 when it has none.
int CTIFF_colormap(CTIFF_File *file, const uint16_t **red, const uint16_t **green, const uint16_t **blue);
/// The ink set of a separated image (1: CMYK, 2: not CMYK); 1 when absent.
int CTIFF_inkset(CTIFF_File *file);
/// Reads any variant libtiff understands as 8-bit RGBA (top row first, unassociated
/// alpha). Returns 0 or -1.
int CTIFF_read_rgba(CTIFF_File *file, uint32_t *raster);
/// compression: 1 none, 5 LZW, 8 Deflate. Returns 0 or -1.
int CTIFF_begin_write(CTIFF_File *file, uint32_t width, uint32_t height, int channels,
                      int depth, int compression, const uint8_t *icc, size_t iccLength);
int CTIFF_write_row(CTIFF_File *file, const uint8_t *row, uint32_t index);

#endif
