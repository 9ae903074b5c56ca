// libwebp's headers (libwebp-dev), for still and
// animated WebP, decoded and encoded, and the container chunks that carry ICC, EXIF and XMP.
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
