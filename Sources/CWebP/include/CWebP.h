#ifndef LUMEN_CWEBP_H
#define LUMEN_CWEBP_H
// libwebp, libwebpdemux and libwebpmux, opened on first use instead of linked
// (CLazyLibrary.h says why). Swift imports the functions from the LibWebP module (the
// libraries' headers); this target defines them, each forwarding to the library.

/// Opens the three libraries; 1 when they are loaded, else 0 with CWebP_error() saying why.
/// Call before the first WebP function.
int CWebP_open(void);
const char *CWebP_error(void);

#endif
