// The system library, found with pkg-config (libheif): HEIC (HEVC through libde265 and
// x265) and AVIF (AV1 through dav1d/aom), as Debian builds it.
#include <libheif/heif.h>
