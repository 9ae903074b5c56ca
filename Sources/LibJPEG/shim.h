// The system library, found with pkg-config (libjpeg); the C target beside it wraps it.
// jpeglib.h needs size_t and FILE declared before it.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
