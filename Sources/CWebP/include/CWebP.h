#ifndef LUMEN_CWEBP_H
#define LUMEN_CWEBP_H
// libwebp, libwebpdemux and libwebpmux, opened on first use instead of linked
// (CLazyLibrary.h says why). Swift imports the functions from the LibWebP module (the
// libraries' headers); this target defines them, each forwarding to the library.

#include <stddef.h>

/// Opens the three libraries unless they are open; 1 when they are loaded, else 0 with the
/// reason in `why`. Call before the first WebP function.
int CWebP_open(char *why, size_t length);

#endif
