// The system library, found with pkg-config (lcms2); the C target beside it wraps it.
#include <lcms2.h>
