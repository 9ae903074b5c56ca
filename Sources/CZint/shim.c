#include "CZint.h"
#include <stdlib.h>
#include <string.h>
#include <zint.h>

int CZint_encode(int symbology, int option1, int option2, int option3,
                 const unsigned char *data, int length, CZint_Symbol *out) {
    memset(out, 0, sizeof *out);
    struct zint_symbol *symbol = ZBarcode_Create();
    if (!symbol) { strcpy(out->message, "out of memory"); return ZINT_ERROR_MEMORY; }
    symbol->symbology = symbology;
    symbol->input_mode = DATA_MODE;
    symbol->option_1 = option1;
    symbol->option_2 = option2;
    symbol->option_3 = option3;
    int status = ZBarcode_Encode(symbol, data, length);
    strncpy(out->message, symbol->errtxt, sizeof out->message - 1);
    if (status >= ZINT_ERROR) { ZBarcode_Delete(symbol); return status; }
    out->warning = status;
    out->width = symbol->width;
    out->height = symbol->rows;
    out->modules = malloc((size_t)symbol->width * (size_t)symbol->rows + 1);
    if (!out->modules) { ZBarcode_Delete(symbol); strcpy(out->message, "out of memory"); return ZINT_ERROR_MEMORY; }
    // Zint 2.10+ packs a row's modules as bits, least significant first.
    for (int y = 0; y < symbol->rows; y++)
        for (int x = 0; x < symbol->width; x++)
            out->modules[(size_t)y * symbol->width + x] = (symbol->encoded_data[y][x >> 3] >> (x & 7)) & 1;
    ZBarcode_Delete(symbol);
    return 0;
}

void CZint_free(CZint_Symbol *symbol) {
    free(symbol->modules);
    symbol->modules = NULL;
}
