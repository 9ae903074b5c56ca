// Every float from 0 to 1 (and the bit patterns above 1 up to +∞, and NaNs) through
// CKernels_encode8 at each level this machine has, against the table method of
// EncodeTables (Sources/Lumen/Color/TransferFunction.swift), rebuilt here the same way.
// Built and run by scripts/check-long:
//   clang -O2 -ffp-contract=off -I Sources/CKernels/include scripts/encode8-exhaustive.c Sources/CKernels/kernels.c Sources/CKernels/pixels.c -lm
#include "CKernels.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BINS = 4096 };
static unsigned char firstCode[BINS + 1];
static float threshold[256], binThreshold[BINS + 1];

static unsigned char reference(float linear) {
    float x = 0 >= linear ? 0 : linear;
    x = 0x1.fffffcp-1f < x ? 0x1.fffffcp-1f : x;
    float one = x + 1;
    uint32_t bits;
    memcpy(&bits, &one, 4);
    unsigned bin = (bits >> 11) & 0xFFF;
    return (unsigned char)(firstCode[bin] + (linear >= binThreshold[bin] ? 1 : 0));
}

int main(void) {
    for (int c = 0; c < 256; c++) {
        double v = (c + 0.5) / 255;
        threshold[c] = c == 255 ? NAN : (float)(v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4));
    }
    int code = 0;
    for (int bin = 0; bin <= BINS; bin++) {
        float lower = (float)bin / (float)BINS;
        while (code < 255 && threshold[code] < lower) code++;
        firstCode[bin] = (unsigned char)code;
    }
    for (int bin = 0; bin <= BINS; bin++) binThreshold[bin] = threshold[firstCode[bin]];
    int best = CKernels_level(), failures = 0;
    enum { BLOCK = 1 << 16 };
    float *pixels = malloc(sizeof(float) * 4 * BLOCK);
    unsigned char *out = malloc(3 * BLOCK);
    for (int level = CKERNELS_AVX2; level <= best; level++) {
        uint64_t checked = 0;
        // Every non-negative float 0 … +∞; then every 997th bit pattern above, through the
        // NaNs, −0, the negatives and the negative NaNs (2.2 million). Consecutive samples
        // go to a pixel's red, green and blue, so a channel put in the wrong place shows.
        for (uint64_t start = 0; start < 0x7F800001u + 2200ull * BLOCK; start += 3 * BLOCK) {
            for (uint32_t i = 0; i < 3 * BLOCK; i++) {
                uint64_t bits64 = start + i;
                if (bits64 > 0x7F800000u) bits64 = 0x7F800001u + (bits64 - 0x7F800001u) * 997u;
                uint32_t bits = bits64 > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)bits64;
                float x;
                memcpy(&x, &bits, 4);
                pixels[4 * (i / 3) + i % 3] = x;
                pixels[4 * (i / 3) + 3] = 1;
            }
            CKernels_encode8(level, pixels, 3, out, BLOCK, firstCode, binThreshold);
            for (uint32_t i = 0; i < 3 * BLOCK; i++) {
                float x = pixels[4 * (i / 3) + i % 3];
                unsigned char want = reference(x);
                if (out[i] != want && failures++ < 10) printf("level %d: %a gives %d, the tables %d\n", level, x, out[i], want);
            }
            checked += 3 * BLOCK;
        }
        printf("encode8 level %d: %llu samples, %d differ\n", level, (unsigned long long)checked, failures);
    }
    return failures != 0;
}
