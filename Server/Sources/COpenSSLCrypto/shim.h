// OpenSSL's libcrypto (Debian's libssl-dev): the SHA-256 digest and HMAC the image service
// signs URLs and tags answers with. Only calls OpenSSL 3 keeps undeprecated.
#include <openssl/evp.h>
#include <openssl/hmac.h>
