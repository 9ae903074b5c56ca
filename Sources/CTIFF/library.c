// libtiff, opened on first use (CLazyLibrary.h says why): the functions shims.c calls,
// each defined under libtiff's own name and prototype.
#include "CLazyLibrary.h"
#include <stdarg.h>
CLAZY_HIDE_FORWARDERS
#include <tiffio.h>

CLazy_Library CTIFF_library = CLAZY_LIBRARY("libtiff.so.6");
#define L CTIFF_library

CLAZY_FORWARD(L, TIFF *, TIFFOpen, (const char *path, const char *mode), (path, mode))
CLAZY_FORWARD(L, TIFF *, TIFFClientOpenExt,
              (const char *name, const char *mode, thandle_t handle, TIFFReadWriteProc read, TIFFReadWriteProc write,
               TIFFSeekProc seek, TIFFCloseProc close, TIFFSizeProc size, TIFFMapFileProc map, TIFFUnmapFileProc unmap,
               TIFFOpenOptions *options),
              (name, mode, handle, read, write, seek, close, size, map, unmap, options))
CLAZY_FORWARD_VOID(L, TIFFClose, (TIFF *tif), (tif))
CLAZY_FORWARD(L, int, TIFFFlush, (TIFF *tif), (tif))
CLAZY_FORWARD(L, TIFFOpenOptions *, TIFFOpenOptionsAlloc, (void), ())
CLAZY_FORWARD_VOID(L, TIFFOpenOptionsFree, (TIFFOpenOptions *options), (options))
CLAZY_FORWARD_VOID(L, TIFFOpenOptionsSetMaxSingleMemAlloc, (TIFFOpenOptions *options, tmsize_t bytes), (options, bytes))
CLAZY_FORWARD(L, TIFFErrorHandler, TIFFSetErrorHandler, (TIFFErrorHandler handler), (handler))
CLAZY_FORWARD(L, TIFFErrorHandler, TIFFSetWarningHandler, (TIFFErrorHandler handler), (handler))
CLAZY_FORWARD(L, int, TIFFVGetField, (TIFF *tif, uint32_t tag, va_list ap), (tif, tag, ap))
CLAZY_FORWARD(L, int, TIFFVGetFieldDefaulted, (TIFF *tif, uint32_t tag, va_list ap), (tif, tag, ap))
CLAZY_FORWARD(L, int, TIFFVSetField, (TIFF *tif, uint32_t tag, va_list ap), (tif, tag, ap))
CLAZY_FORWARD(L, int, TIFFSetDirectory, (TIFF *tif, tdir_t index), (tif, index))
CLAZY_FORWARD(L, int, TIFFSetSubDirectory, (TIFF *tif, uint64_t offset), (tif, offset))
CLAZY_FORWARD(L, int, TIFFIsTiled, (TIFF *tif), (tif))
CLAZY_FORWARD(L, uint32_t, TIFFComputeStrip, (TIFF *tif, uint32_t row, uint16_t sample), (tif, row, sample))
CLAZY_FORWARD(L, uint32_t, TIFFDefaultStripSize, (TIFF *tif, uint32_t request), (tif, request))
CLAZY_FORWARD(L, tmsize_t, TIFFScanlineSize, (TIFF *tif), (tif))
CLAZY_FORWARD(L, tmsize_t, TIFFStripSize, (TIFF *tif), (tif))
CLAZY_FORWARD(L, tmsize_t, TIFFTileRowSize, (TIFF *tif), (tif))
CLAZY_FORWARD(L, tmsize_t, TIFFTileSize, (TIFF *tif), (tif))
CLAZY_FORWARD(L, tmsize_t, TIFFReadEncodedStrip, (TIFF *tif, uint32_t strip, void *buffer, tmsize_t size),
              (tif, strip, buffer, size))
CLAZY_FORWARD(L, tmsize_t, TIFFReadTile, (TIFF *tif, void *buffer, uint32_t x, uint32_t y, uint32_t z, uint16_t sample),
              (tif, buffer, x, y, z, sample))
CLAZY_FORWARD(L, int, TIFFRGBAImageOK, (TIFF *tif, char message[1024]), (tif, message))
CLAZY_FORWARD(L, int, TIFFReadRGBAImageOriented,
              (TIFF *tif, uint32_t width, uint32_t height, uint32_t *raster, int orientation, int stop),
              (tif, width, height, raster, orientation, stop))
CLAZY_FORWARD(L, int, TIFFWriteScanline, (TIFF *tif, void *buffer, uint32_t row, uint16_t sample), (tif, buffer, row, sample))

// The variadic three, through libtiff's va_list forms.
#define CTIFF_VARIADIC(name, listForm)                \
    int name(TIFF *tif, uint32_t tag, ...) {          \
        va_list ap;                                   \
        va_start(ap, tag);                            \
        int result = listForm(tif, tag, ap);          \
        va_end(ap);                                   \
        return result;                                \
    }
CTIFF_VARIADIC(TIFFGetField, TIFFVGetField)
CTIFF_VARIADIC(TIFFGetFieldDefaulted, TIFFVGetFieldDefaulted)
CTIFF_VARIADIC(TIFFSetField, TIFFVSetField)

CLAZY_FORWARD(L, void *, _TIFFmalloc, (tmsize_t size), (size))
CLAZY_FORWARD_VOID(L, _TIFFfree, (void *pointer), (pointer))
