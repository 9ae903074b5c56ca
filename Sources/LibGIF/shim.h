// The system library (giflib, Debian libgif-dev); the C target beside it wraps it.
#include <gif_lib.h>
