// Working-space floats to IEEE half floats (binary16) and back, for kept intermediates
// stored at half the bytes (see CKernels.h). The scalar functions give F16C's results bit
// for bit: round to nearest even, subnormal halves kept, a NaN quiet with its payload's high
// bits; values are first held within ±65504, the largest half, so a bright HDR value stays
// finite instead of becoming infinite (min and max that pass a NaN through, then F16C).
#include "CKernels.h"
#include <string.h>

static uint32_t bits_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float float_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static uint16_t half_of(float value) {
    uint32_t x = bits_of(value), sign = x & 0x80000000u;
    x ^= sign;
    uint32_t h;
    if (x > (255u << 23)) {                         // NaN: quiet, with its payload's high bits
        h = 0x7e00u | ((x >> 13) & 0x3ffu);
    } else if (x >= 0x477fe000u) {                  // 65504 and up, infinity too: the largest half
        h = 0x7bffu;
    } else if (x < (113u << 23)) {                  // below 2^-14: a subnormal half (or 0)
        // Adding 0.5 puts the value's bits at the half's subnormal grid; the addition
        // rounds to nearest even, as the processor's default mode does.
        h = bits_of(float_of(x) + 0.5f) - (126u << 23);
    } else {                                        // a normal half
        uint32_t odd = (x >> 13) & 1u;
        x += ((uint32_t)(15 - 127) << 23) + 0xfffu + odd;
        h = x >> 13;
    }
    return (uint16_t)(h | (sign >> 16));
}

static float float_of_half(uint16_t half) {
    uint32_t x = (uint32_t)(half & 0x7fffu) << 13, exponent = x & (0x7c00u << 13);
    x += (uint32_t)(127 - 15) << 23;
    float f;
    if (exponent == (0x7c00u << 13)) {              // infinity or NaN
        f = float_of(x + ((uint32_t)(128 - 16) << 23));
    } else if (exponent == 0) {                     // zero or subnormal: exact through a subtraction
        f = float_of(x + (1u << 23)) - float_of(113u << 23);
    } else {
        f = float_of(x);
    }
    return float_of(bits_of(f) | (uint32_t)(half & 0x8000u) << 16);
}

static void pack_scalar(const float *in, uint16_t *out, ptrdiff_t count) {
    for (ptrdiff_t i = 0; i < count; i++) out[i] = half_of(in[i]);
}

static void unpack_scalar(const uint16_t *in, float *out, ptrdiff_t count) {
    for (ptrdiff_t i = 0; i < count; i++) out[i] = float_of_half(in[i]);
}

static void round_scalar(float *values, ptrdiff_t count) {
    for (ptrdiff_t i = 0; i < count; i++) values[i] = float_of_half(half_of(values[i]));
}

#if defined(__x86_64__)
#include <immintrin.h>
#include "target.h"

// Eight floats to halves, held within ±65504 first: minps and maxps return their second
// operand when either is NaN, which is the value's.
INLINE AVX2_F16C __m128i halves8(const float *in) {
    const __m256 top = _mm256_set1_ps(65504.0f), bottom = _mm256_set1_ps(-65504.0f);
    __m256 x = _mm256_max_ps(bottom, _mm256_min_ps(top, _mm256_loadu_ps(in)));
    return _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT);
}

static AVX2_F16C void pack_f16c(const float *in, uint16_t *out, ptrdiff_t count) {
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) _mm_storeu_si128((__m128i *)(out + i), halves8(in + i));
    pack_scalar(in + i, out + i, count - i);
}

static AVX2_F16C void round_f16c(float *values, ptrdiff_t count) {
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) _mm256_storeu_ps(values + i, _mm256_cvtph_ps(halves8(values + i)));
    round_scalar(values + i, count - i);
}

static AVX2_F16C void unpack_f16c(const uint16_t *in, float *out, ptrdiff_t count) {
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(in + i))));
    unpack_scalar(in + i, out + i, count - i);
}

void CKernels_packHalves(int level, const float *in, uint16_t *out, ptrdiff_t count) {
    if (level >= CKERNELS_AVX2) pack_f16c(in, out, count); else pack_scalar(in, out, count);
}

void CKernels_unpackHalves(int level, const uint16_t *in, float *out, ptrdiff_t count) {
    if (level >= CKERNELS_AVX2) unpack_f16c(in, out, count); else unpack_scalar(in, out, count);
}

void CKernels_roundToHalves(int level, float *values, ptrdiff_t count) {
    if (level >= CKERNELS_AVX2) round_f16c(values, count); else round_scalar(values, count);
}
#else
void CKernels_packHalves(int level, const float *in, uint16_t *out, ptrdiff_t count) { pack_scalar(in, out, count); }
void CKernels_unpackHalves(int level, const uint16_t *in, float *out, ptrdiff_t count) { unpack_scalar(in, out, count); }
void CKernels_roundToHalves(int level, float *values, ptrdiff_t count) { round_scalar(values, count); }
#endif
