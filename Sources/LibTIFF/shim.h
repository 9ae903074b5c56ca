// The system library, found with pkg-config (libtiff-4); the C target beside it wraps it.
#include <tiffio.h>
