// The system library, found with pkg-config (libjpeg); the C target beside it wraps it.
#include <stddef.h>n#include <stdio.h>n#include <jpeglib.h>
