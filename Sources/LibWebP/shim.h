// The system library, found with pkg-config (libwebp, libwebpdemux, libwebpmux): still and
// animated WebP, decoded and encoded, and the container chunks that carry ICC, EXIF and XMP.
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
