// The system library, found with pkg-config (libpng); the C target beside it wraps it.
#include <png.h>
