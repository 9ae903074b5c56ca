#include "CZint.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zint.h>

// libzint is opened on first use (dlopen), not linked: a lumen process that draws no
// barcode does not load it (start-up, SPEC's one-process-per-item jobs).
static struct {
    __typeof__(ZBarcode_Create) *create;
    __typeof__(ZBarcode_Encode) *encode;
    __typeof__(ZBarcode_Delete) *remove;
} zint;
static char failure[100];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libzint.so.2.11", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libzint.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) { snprintf(failure, sizeof failure, "libzint is not installed (Debian: libzint2.11)"); return; }
    zint.create = (__typeof__(zint.create))dlsym(library, "ZBarcode_Create");
    zint.encode = (__typeof__(zint.encode))dlsym(library, "ZBarcode_Encode");
    zint.remove = (__typeof__(zint.remove))dlsym(library, "ZBarcode_Delete");
    if (!zint.create || !zint.encode || !zint.remove) snprintf(failure, sizeof failure, "libzint lacks ZBarcode_Create/Encode/Delete");
}
#define ZBarcode_Create zint.create
#define ZBarcode_Encode zint.encode
#define ZBarcode_Delete zint.remove

int CZint_encode(int symbology, int option1, int option2, int option3,
                 const unsigned char *data, int length, CZint_Symbol *out) {
    memset(out, 0, sizeof *out);
    pthread_once(&once, load);
    if (failure[0]) { snprintf(out->message, sizeof out->message, "%s", failure); return ZINT_ERROR_ENCODING_PROBLEM; }
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
