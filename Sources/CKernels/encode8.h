// The 8-bit sRGB encoder's pieces shared by pixels.c (working-space pixels to codes) and
// vignette.c (codes to codes): the power curve in registers, the tables' path for the
// samples near a rounding boundary, and the packing of RGB codes. Included after
// <immintrin.h> and target.h, on x86-64 only.
#ifndef CKERNELS_ENCODE8_H
#define CKERNELS_ENCODE8_H
#include <string.h>

// ---- 8-bit sRGB codes from linear light ----
// x^(1/2.4) = 2^(e/2.4) · m^(1/2.4) for x = m · 2^e: the first from a table over the
// octaves the curve's power segment spans (e = −9 … −1), the second a cubic in the low
// mantissa bits on each eighth of [1, 2) (fitted on Chebyshev nodes; worst relative error
// 1.8 × 10⁻⁷ in float). q = 255 · sRGB(x) + 0.5 is then within 1.2 × 10⁻⁴ of exact, so
// ⌊q⌋ is the nearest code unless q lies within ENCODE_MARGIN of an integer; those samples,
// and NaN, take the tables' path (EncodeTables.encode8, the same operations).

#define ENCODE_MARGIN 0.002f

static const float POW_C0[16] = { 1.000000065e+00f, 1.050300492e+00f, 1.097435953e+00f, 1.141894898e+00f, 1.184053604e+00f, 1.224209015e+00f, 1.262600209e+00f, 1.299422949e+00f };
static const float POW_C1[16] = { 4.166497873e-01f, 3.889888822e-01f, 3.658041170e-01f, 3.460230940e-01f, 3.288995882e-01f, 3.138965731e-01f, 3.006166443e-01f, 2.887587265e-01f };
static const float POW_C2[16] = { -1.208387101e-01f, -1.003922631e-01f, -8.503664039e-02f, -7.317038128e-02f, -6.378375806e-02f, -5.621251534e-02f, -5.000398722e-02f, -4.484038319e-02f };
static const float POW_C3[16] = { 5.495164745e-02f, 4.121163497e-02f, 3.181317266e-02f, 2.514480846e-02f, 2.026875964e-02f, 1.661211993e-02f, 1.381043457e-02f, 1.162377318e-02f };
// 2^(e/2.4) for e = −9 … −1 (index e + 9). Tables are 16 wide for the AVX-512 loads (the
// coefficients' second half unused); AVX2's 8-lane permutes reach the octaves up to −2 and
// take e = −1 from OCTAVE[8] by a blend.
static const float OCTAVE[16] = { 7.432544469e-02f, 9.921256575e-02f, 1.324328868e-01f, 1.767766953e-01f, 2.359685782e-01f, 3.149802625e-01f, 4.204482076e-01f, 5.612310242e-01f, 7.491535384e-01f };

/// EncodeTables.encode8: the bin from the top 12 bits of 1 + x's mantissa, one comparison.
static inline unsigned char encode8_table(float linear, const unsigned char *firstCode, const float *binThreshold) {
#pragma STDC FP_CONTRACT OFF
    float x = 0 >= linear ? 0 : linear;                        // Swift's max(linear, 0)
    x = 0x1.fffffcp-1f < x ? 0x1.fffffcp-1f : x;               // … and min(…, 1 − 2⁻²³)
    float one = x + 1;
    unsigned bits;
    memcpy(&bits, &one, 4);
    unsigned bin = (bits >> 11) & 0xFFF;
    return (unsigned char)(firstCode[bin] + (linear >= binThreshold[bin] ? 1 : 0));
}

/// The lanes set in `ambiguous` looked up in the tables, over the codes the registers gave.
static inline void encode8_lookup(const float *lanes, int *codes, unsigned ambiguous, const unsigned char *firstCode,
                           const float *binThreshold) {
    for (int j = 0; ambiguous; j++, ambiguous >>= 1)
        if (ambiguous & 1) codes[j] = encode8_table(lanes[j], firstCode, binThreshold);
}

/// x^(1/2.4) for x in [2⁻⁹, 1): the octave factor × a cubic of the mantissa's low 20 bits
/// on its eighth (2 × 10⁻⁷ relative).
INLINE AVX2 __m256 pow_5_12(__m256 x) {
    const __m256 one = _mm256_set1_ps(1);
    __m256i bits = _mm256_castps_si256(x);
    // Power segment: octave factor × cubic of the mantissa's low 20 bits on its eighth.
    __m256i eighth = _mm256_and_si256(_mm256_srli_epi32(bits, 20), _mm256_set1_epi32(7));
    __m256 u = _mm256_sub_ps(_mm256_castsi256_ps(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0xFFFFF)),
                                                                 _mm256_set1_epi32(0x3F800000))), one);
    __m256 p = _mm256_permutevar8x32_ps(_mm256_loadu_ps(POW_C3), eighth);
    p = _mm256_fmadd_ps(p, u, _mm256_permutevar8x32_ps(_mm256_loadu_ps(POW_C2), eighth));
    p = _mm256_fmadd_ps(p, u, _mm256_permutevar8x32_ps(_mm256_loadu_ps(POW_C1), eighth));
    p = _mm256_fmadd_ps(p, u, _mm256_permutevar8x32_ps(_mm256_loadu_ps(POW_C0), eighth));
    __m256i e = _mm256_sub_epi32(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(127 - 9));   // e + 9
    __m256 octave = _mm256_permutevar8x32_ps(_mm256_loadu_ps(OCTAVE), e);
    octave = _mm256_blendv_ps(octave, _mm256_set1_ps(OCTAVE[8]), _mm256_castsi256_ps(_mm256_cmpeq_epi32(e, _mm256_set1_epi32(8))));
    return _mm256_mul_ps(p, octave);
}

/// pow_5_12 on sixteen lanes (the octave table reaches e = −1 itself): encode8_codes16 (pixels.c) and
/// the AVX-512 vignette (vignette512.c).
INLINE AVX512 __m512 pow_5_12_16(__m512 x) {
    __m512i bits = _mm512_castps_si512(x);
    __m512i eighth = _mm512_and_si512(_mm512_srli_epi32(bits, 20), _mm512_set1_epi32(7));
    __m512 u = _mm512_sub_ps(_mm512_castsi512_ps(_mm512_or_si512(_mm512_and_si512(bits, _mm512_set1_epi32(0xFFFFF)),
                                                                 _mm512_set1_epi32(0x3F800000))), _mm512_set1_ps(1));
    __m512 p = _mm512_permutexvar_ps(eighth, _mm512_loadu_ps(POW_C3));
    p = _mm512_fmadd_ps(p, u, _mm512_permutexvar_ps(eighth, _mm512_loadu_ps(POW_C2)));
    p = _mm512_fmadd_ps(p, u, _mm512_permutexvar_ps(eighth, _mm512_loadu_ps(POW_C1)));
    p = _mm512_fmadd_ps(p, u, _mm512_permutexvar_ps(eighth, _mm512_loadu_ps(POW_C0)));
    __m512i e = _mm512_sub_epi32(_mm512_srli_epi32(bits, 23), _mm512_set1_epi32(127 - 9));   // e + 9
    return _mm512_mul_ps(p, _mm512_permutexvar_ps(e, _mm512_loadu_ps(OCTAVE)));
}

/// Codes of eight samples; lanes that need the tables are set in *ambiguous (a bit each).
/// The samples are first clamped to [0, 1 − 2⁻²⁴] (NaN to 0, and flagged): every code at or
/// below 0 is 0 and at or above 1 is 255, as in the tables, and the clamped ends give those
/// codes far from a rounding boundary (q = 0.5 and 255.5 − 10⁻⁵), so no lane needs a test
/// of its own for the ends. Inside (0, 1) the arithmetic is the same as before the clamp.
INLINE AVX2 __m256i encode8_codes(__m256 x, int *ambiguous) {
    __m256 unordered = _mm256_cmp_ps(x, x, _CMP_UNORD_Q);
    x = _mm256_min_ps(_mm256_max_ps(x, _mm256_setzero_ps()), _mm256_set1_ps(0x1.fffffep-1f));   // maxps gives 0 for NaN
    __m256 power = _mm256_fmadd_ps(pow_5_12(x), _mm256_set1_ps(1.055f * 255), _mm256_set1_ps(0.5f - 0.055f * 255));
    // Linear toe: 12.92 · x.
    __m256 toe = _mm256_fmadd_ps(x, _mm256_set1_ps(12.92f * 255), _mm256_set1_ps(0.5f));
    __m256 q = _mm256_blendv_ps(power, toe, _mm256_cmp_ps(x, _mm256_set1_ps(0.0031308f), _CMP_LE_OQ));
    __m256 floor = _mm256_floor_ps(q), fraction = _mm256_sub_ps(q, floor);
    __m256 near = _mm256_or_ps(_mm256_cmp_ps(fraction, _mm256_set1_ps(ENCODE_MARGIN), _CMP_LT_OQ),
                               _mm256_cmp_ps(fraction, _mm256_set1_ps(1 - ENCODE_MARGIN), _CMP_GT_OQ));
    *ambiguous = _mm256_movemask_ps(_mm256_or_ps(near, unordered));
    return _mm256_cvttps_epi32(floor);                                                 // q ∈ [0.5, 255.5): 0 … 255
}

/// One pixel as PixelConversion.encode8 writes it (the tails).
static inline void encode8_scalar(const float *p, int channels, unsigned char *out, const unsigned char *firstCode, const float *binThreshold) {
#pragma STDC FP_CONTRACT OFF
    if (channels == 3) {
        for (int c = 0; c < 3; c++) out[c] = encode8_table(p[c], firstCode, binThreshold);
        return;
    }
    float w = p[3];
    for (int c = 0; c < 3; c++) out[c] = encode8_table(w > 0 ? p[c] / w : 0, firstCode, binThreshold);
    float a = w < 1 ? w : 1;
    a = a >= 0 ? a : 0;
    out[3] = (unsigned char)(a * 255 + 0.5f);
}

/// `code`'s lanes set in `ambiguous` replaced by the tables' codes for `x`'s.
static inline AVX2 __m256i encode8_resolve(__m256 x, __m256i code, int ambiguous, const unsigned char *firstCode,
                                    const float *binThreshold) {
    float lanes[8];
    int codes[8];
    _mm256_storeu_ps(lanes, x);
    _mm256_storeu_si256((__m256i *)codes, code);
    encode8_lookup(lanes, codes, (unsigned)ambiguous, firstCode, binThreshold);
    return _mm256_loadu_si256((const __m256i *)codes);
}

/// 24 codes (0…255) of eight RGB pixels in output order, three registers of dwords, as 24 bytes.
INLINE AVX2 void store_rgb_codes(__m256i k0, __m256i k1, __m256i k2, unsigned char *out) {
    // Codes are 0…255: packing saturates nothing. Per 128-bit lane the dwords hold k0, k1,
    // k2 (and k2 again) for samples 0–3 | 4–7; `order` puts each register's halves together.
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(k0, k1), _mm256_packus_epi32(k2, k2));
    bytes = _mm256_permutevar8x32_epi32(bytes, order);
    _mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(bytes));
    _mm_storel_epi64((__m128i *)(out + 16), _mm256_extracti128_si256(bytes, 1));
}

/// The 24 codes of eight RGB pixels' samples in output order (r0 g0 b0 r1 g1 b1 r2 g2 |
/// b2 r3 … | … b7), packed into 24 bytes.
INLINE AVX2 void encode8_rgb_samples(__m256 s0, __m256 s1, __m256 s2, unsigned char *out, const unsigned char *firstCode,
                                     const float *binThreshold) {
    // The three chains are independent; one branch, rarely taken, for their table lookups.
    int m0, m1, m2;
    __m256i k0 = encode8_codes(s0, &m0), k1 = encode8_codes(s1, &m1), k2 = encode8_codes(s2, &m2);
    if (m0 | m1 | m2) {
        if (m0) k0 = encode8_resolve(s0, k0, m0, firstCode, binThreshold);
        if (m1) k1 = encode8_resolve(s1, k1, m1, firstCode, binThreshold);
        if (m2) k2 = encode8_resolve(s2, k2, m2, firstCode, binThreshold);
    }
    store_rgb_codes(k0, k1, k2, out);
}

#endif
