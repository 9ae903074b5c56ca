#ifndef LUMEN_CZINT_H
#define LUMEN_CZINT_H
// A shim over libzint (Debian libzint-dev 2.11): encodes a message as a barcode symbol
// and hands back its modules, one byte per module (1 dark, 0 light), rows from the top.
// Zint's own raster output is not used: Core Image draws one pixel per module and adds
// its own quiet zones, which Lumen does in Swift.
#include <stddef.h>

enum {
    CZINT_QRCODE = 58,
    CZINT_AZTEC = 92,
    CZINT_PDF417 = 55,
    CZINT_PDF417_COMPACT = 56,
    CZINT_CODE128 = 20,
};

typedef struct {
    int width, height;          // modules per row, rows
    unsigned char *modules;     // width × height bytes, freed by CZint_free
    int warning;                // zint's warning code (0 when none)
    char message[100];          // zint's error or warning text
} CZint_Symbol;

/// Encodes `length` bytes (binary data, no character set conversion) with zint's
/// symbology-specific options (see zint's manual). Returns 0 on success; otherwise zint's
/// error code, with its text in `symbol->message`.
int CZint_encode(int symbology, int option1, int option2, int option3,
                 const unsigned char *data, int length, CZint_Symbol *symbol);
void CZint_free(CZint_Symbol *symbol);

#endif
