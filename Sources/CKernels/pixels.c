// Per-pixel loops with vector versions that give the Swift baseline's results exactly:
// vignetteEffect's row and the encoder to 8-bit sRGB codes (see CKernels.h). The separable
// convolution and resampling loops, and the level check, are in kernels.c.
#include "CKernels.h"
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#include "target.h"

// ---- vignetteEffect: a factor per pixel from its distance to the centre ----
// Eight smoothstep values at once (the distances in double, then float), applied to the
// pixels through a per-pixel broadcast; alpha lanes are kept, never multiplied.

INLINE AVX2 __m256 vignette_s8(double x, double cx, float dy2, float radius, float band) {
    const __m256d half = _mm256_set1_pd(0.5), c = _mm256_set1_pd(cx);
    __m256d lo = _mm256_add_pd(_mm256_set1_pd(x), _mm256_setr_pd(0, 1, 2, 3));
    __m256d hi = _mm256_add_pd(_mm256_set1_pd(x), _mm256_setr_pd(4, 5, 6, 7));
    __m128 dxl = _mm256_cvtpd_ps(_mm256_sub_pd(_mm256_add_pd(lo, half), c));
    __m128 dxh = _mm256_cvtpd_ps(_mm256_sub_pd(_mm256_add_pd(hi, half), c));
    __m256 dx = _mm256_insertf128_ps(_mm256_castps128_ps256(dxl), dxh, 1);
    __m256 d = _mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_set1_ps(dy2)));
    __m256 t = _mm256_div_ps(_mm256_sub_ps(d, _mm256_set1_ps(radius)), _mm256_set1_ps(band));
    t = _mm256_and_ps(t, _mm256_cmp_ps(t, _mm256_setzero_ps(), _CMP_GT_OQ));    // ≤ 0 and NaN → 0
    __m256 one = _mm256_set1_ps(1);
    t = _mm256_blendv_ps(t, one, _mm256_cmp_ps(t, one, _CMP_GT_OQ));
    return _mm256_mul_ps(_mm256_mul_ps(t, t), _mm256_sub_ps(_mm256_set1_ps(3), _mm256_mul_ps(_mm256_set1_ps(2), t)));
}

static AVX2 void vignette_row_avx2(const float *source, float *out, ptrdiff_t count, double x0, double cx,
                                   float dy2, float radius, float band, float k) {
    const __m256 one = _mm256_set1_ps(1), kv = _mm256_set1_ps(k), negk = _mm256_set1_ps(-k);
    const __m256i alpha = _mm256_setr_epi32(0, 0, 0, -1, 0, 0, 0, -1);
    const __m256i splatw = _mm256_setr_epi32(3, 3, 3, 3, 7, 7, 7, 7);
    for (ptrdiff_t i = 0; i < count; i += 8) {
        __m256 s = vignette_s8(x0 + (double)i, cx, dy2, radius, band);
        // k ≥ 0: the factor 1 − k·s; k < 0: the amount (−k)·s.
        __m256 f = k >= 0 ? _mm256_sub_ps(one, _mm256_mul_ps(kv, s)) : _mm256_mul_ps(negk, s);
        float lanes[8];
        _mm256_storeu_ps(lanes, f);
        ptrdiff_t n = count - i < 8 ? count - i : 8;
        for (ptrdiff_t j = 0; j + 1 < n; j += 2) {      // two pixels a register
            const float *p = source + 4 * (i + j);
            __m256 v = _mm256_loadu_ps(p);
            __m256 fv = _mm256_setr_m128(_mm_set1_ps(lanes[j]), _mm_set1_ps(lanes[j + 1]));
            __m256 r = k >= 0 ? _mm256_mul_ps(v, fv)
                              : _mm256_add_ps(v, _mm256_mul_ps(_mm256_sub_ps(_mm256_permutevar8x32_ps(v, splatw), v), fv));
            _mm256_storeu_ps(out + 4 * (i + j), _mm256_blendv_ps(r, v, _mm256_castsi256_ps(alpha)));
        }
        if (n & 1) {
            ptrdiff_t j = n - 1;
            const float *p = source + 4 * (i + j);
            __m128 v = _mm_loadu_ps(p), fv = _mm_set1_ps(lanes[j]);
            __m128 r = k >= 0 ? _mm_mul_ps(v, fv)
                              : _mm_add_ps(v, _mm_mul_ps(_mm_sub_ps(_mm_permute_ps(v, 0xFF), v), fv));
            _mm_storeu_ps(out + 4 * (i + j), _mm_blend_ps(r, v, 8));
        }
    }
}

void CKernels_vignetteRow(int level, const float *source, float *out, ptrdiff_t count, double x0, double cx,
                          float dy2, float radius, float band, float k) {
    (void)level;
    vignette_row_avx2(source, out, count, x0, cx, dy2, radius, band, k);
}

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
static void encode8_lookup(const float *lanes, int *codes, unsigned ambiguous, const unsigned char *firstCode,
                           const float *binThreshold) {
    for (int j = 0; ambiguous; j++, ambiguous >>= 1)
        if (ambiguous & 1) codes[j] = encode8_table(lanes[j], firstCode, binThreshold);
}

/// Codes of eight samples; lanes that need the tables are set in *ambiguous (a bit each).
/// The samples are first clamped to [0, 1 − 2⁻²⁴] (NaN to 0, and flagged): every code at or
/// below 0 is 0 and at or above 1 is 255, as in the tables, and the clamped ends give those
/// codes far from a rounding boundary (q = 0.5 and 255.5 − 10⁻⁵), so no lane needs a test
/// of its own for the ends. Inside (0, 1) the arithmetic is the same as before the clamp.
INLINE AVX2 __m256i encode8_codes(__m256 x, int *ambiguous) {
    const __m256 one = _mm256_set1_ps(1);
    __m256 unordered = _mm256_cmp_ps(x, x, _CMP_UNORD_Q);
    x = _mm256_min_ps(_mm256_max_ps(x, _mm256_setzero_ps()), _mm256_set1_ps(0x1.fffffep-1f));   // maxps gives 0 for NaN
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
    __m256 power = _mm256_fmadd_ps(_mm256_mul_ps(p, octave), _mm256_set1_ps(1.055f * 255), _mm256_set1_ps(0.5f - 0.055f * 255));
    // Linear toe: 12.92 · x.
    __m256 toe = _mm256_fmadd_ps(x, _mm256_set1_ps(12.92f * 255), _mm256_set1_ps(0.5f));
    __m256 q = _mm256_blendv_ps(power, toe, _mm256_cmp_ps(x, _mm256_set1_ps(0.0031308f), _CMP_LE_OQ));
    __m256 floor = _mm256_floor_ps(q), fraction = _mm256_sub_ps(q, floor);
    __m256 near = _mm256_or_ps(_mm256_cmp_ps(fraction, _mm256_set1_ps(ENCODE_MARGIN), _CMP_LT_OQ),
                               _mm256_cmp_ps(fraction, _mm256_set1_ps(1 - ENCODE_MARGIN), _CMP_GT_OQ));
    *ambiguous = _mm256_movemask_ps(_mm256_or_ps(near, unordered));
    return _mm256_cvttps_epi32(floor);                                                 // q ∈ [0.5, 255.5): 0 … 255
}

/// The codes of two RGBA pixels (one register): colour unpremultiplied, alpha its own code,
/// as PixelConversion.encode8 computes them.
INLINE AVX2 __m256i encode8_pixels(__m256 v, const unsigned char *firstCode, const float *binThreshold) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1);
    __m256 w = _mm256_permute_ps(v, 0xFF);
    __m256 colour = _mm256_and_ps(_mm256_div_ps(v, w), _mm256_cmp_ps(w, zero, _CMP_GT_OQ));  // α > 0 ? rgb/α : 0
    int ambiguous;
    __m256i code = encode8_codes(colour, &ambiguous);
    ambiguous &= 0x77;                                                               // alpha lanes are not colour
    __m256 a = _mm256_blendv_ps(one, v, _mm256_cmp_ps(v, one, _CMP_LT_OQ));           // Swift's min(1, α)
    a = _mm256_and_ps(a, _mm256_cmp_ps(a, zero, _CMP_GE_OQ));                        // … max(0, …)
    __m256i alpha = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(a, _mm256_set1_ps(255)), _mm256_set1_ps(0.5f)));
    code = _mm256_blend_epi32(code, alpha, 0x88);
    if (ambiguous) {
        float lanes[8];
        int codes[8];
        _mm256_storeu_ps(lanes, colour);
        _mm256_storeu_si256((__m256i *)codes, code);
        encode8_lookup(lanes, codes, (unsigned)ambiguous, firstCode, binThreshold);
        code = _mm256_loadu_si256((const __m256i *)codes);
    }
    return code;
}

/// One pixel as PixelConversion.encode8 writes it (the tails).
static void encode8_scalar(const float *p, int channels, unsigned char *out, const unsigned char *firstCode, const float *binThreshold) {
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
static AVX2 __m256i encode8_resolve(__m256 x, __m256i code, int ambiguous, const unsigned char *firstCode,
                                    const float *binThreshold) {
    float lanes[8];
    int codes[8];
    _mm256_storeu_ps(lanes, x);
    _mm256_storeu_si256((__m256i *)codes, code);
    encode8_lookup(lanes, codes, (unsigned)ambiguous, firstCode, binThreshold);
    return _mm256_loadu_si256((const __m256i *)codes);
}

/// Three channels, eight pixels at a time: their 24 colour samples gathered into three
/// registers in output order (r0 g0 b0 r1 g1 b1 r2 g2 | b2 r3 … | … b7), so no lane is spent
/// on alpha, and the codes packed straight into 24 bytes.
static AVX2 void encode8_rgb_avx2(const float *pixels, unsigned char *out, ptrdiff_t count,
                                  const unsigned char *firstCode, const float *binThreshold) {
    const __m256i first = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 0, 1);    // pixels 0–1's colour, then 2's r g
    const __m256i second = _mm256_setr_epi32(2, 4, 5, 6, 0, 1, 2, 4);   // 2's b, 3's; then 4's, 5's r
    const __m256i third = _mm256_setr_epi32(5, 6, 0, 1, 2, 4, 5, 6);    // 5's g b, then 6's and 7's
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const float *p = pixels + 4 * i;
        __m256 a = _mm256_loadu_ps(p), b = _mm256_loadu_ps(p + 8), c = _mm256_loadu_ps(p + 16), d = _mm256_loadu_ps(p + 24);
        __m256 s0 = _mm256_blend_ps(_mm256_permutevar8x32_ps(a, first), _mm256_permutevar8x32_ps(b, first), 0xC0);
        __m256 s1 = _mm256_blend_ps(_mm256_permutevar8x32_ps(b, second), _mm256_permutevar8x32_ps(c, second), 0xF0);
        __m256 s2 = _mm256_blend_ps(_mm256_permutevar8x32_ps(c, third), _mm256_permutevar8x32_ps(d, third), 0xFC);
        // The three chains are independent; one branch, rarely taken, for their table lookups.
        int m0, m1, m2;
        __m256i k0 = encode8_codes(s0, &m0), k1 = encode8_codes(s1, &m1), k2 = encode8_codes(s2, &m2);
        if (m0 | m1 | m2) {
            if (m0) k0 = encode8_resolve(s0, k0, m0, firstCode, binThreshold);
            if (m1) k1 = encode8_resolve(s1, k1, m1, firstCode, binThreshold);
            if (m2) k2 = encode8_resolve(s2, k2, m2, firstCode, binThreshold);
        }
        // Codes are 0…255: packing saturates nothing. Per 128-bit lane the dwords hold k0, k1,
        // k2 (and k2 again) for samples 0–3 | 4–7; `order` puts each register's halves together.
        __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(k0, k1), _mm256_packus_epi32(k2, k2));
        bytes = _mm256_permutevar8x32_epi32(bytes, order);
        _mm_storeu_si128((__m128i *)(out + 3 * i), _mm256_castsi256_si128(bytes));
        _mm_storel_epi64((__m128i *)(out + 3 * i + 16), _mm256_extracti128_si256(bytes, 1));
    }
    for (; i < count; i++) encode8_scalar(pixels + 4 * i, 3, out + 3 * i, firstCode, binThreshold);
}

static AVX2 void encode8_avx2(const float *pixels, int channels, unsigned char *out, ptrdiff_t count,
                              const unsigned char *firstCode, const float *binThreshold) {
    if (channels == 3) return encode8_rgb_avx2(pixels, out, count, firstCode, binThreshold);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const float *p = pixels + 4 * i;
        __m256i c0 = encode8_pixels(_mm256_loadu_ps(p), firstCode, binThreshold);
        __m256i c1 = encode8_pixels(_mm256_loadu_ps(p + 8), firstCode, binThreshold);
        __m256i c2 = encode8_pixels(_mm256_loadu_ps(p + 16), firstCode, binThreshold);
        __m256i c3 = encode8_pixels(_mm256_loadu_ps(p + 24), firstCode, binThreshold);
        // Codes are 0…255: packing saturates nothing. Lanes hold pixels 0 2 4 6 | 1 3 5 7.
        __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(c0, c1), _mm256_packus_epi32(c2, c3));
        _mm256_storeu_si256((__m256i *)(out + 4 * i), _mm256_permutevar8x32_epi32(bytes, order));
    }
    for (; i < count; i++) encode8_scalar(pixels + 4 * i, channels, out + channels * i, firstCode, binThreshold);
}

// The same on 16 lanes: four pixels a register, mask registers for the selections.
INLINE AVX512 __m512i encode8_codes16(__m512 x, __mmask16 *ambiguous) {
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1);
    __m512i bits = _mm512_castps_si512(x);
    __m512i eighth = _mm512_and_si512(_mm512_srli_epi32(bits, 20), _mm512_set1_epi32(7));
    __m512 u = _mm512_sub_ps(_mm512_castsi512_ps(_mm512_or_si512(_mm512_and_si512(bits, _mm512_set1_epi32(0xFFFFF)),
                                                                 _mm512_set1_epi32(0x3F800000))), one);
    __m512 p = _mm512_permutexvar_ps(eighth, _mm512_loadu_ps(POW_C3));
    p = _mm512_fmadd_ps(p, u, _mm512_permutexvar_ps(eighth, _mm512_loadu_ps(POW_C2)));
    p = _mm512_fmadd_ps(p, u, _mm512_permutexvar_ps(eighth, _mm512_loadu_ps(POW_C1)));
    p = _mm512_fmadd_ps(p, u, _mm512_permutexvar_ps(eighth, _mm512_loadu_ps(POW_C0)));
    __m512i e = _mm512_sub_epi32(_mm512_srli_epi32(bits, 23), _mm512_set1_epi32(127 - 9));   // e + 9: 0 … 8
    __m512 octave = _mm512_permutexvar_ps(e, _mm512_loadu_ps(OCTAVE));
    __m512 q = _mm512_fmadd_ps(_mm512_mul_ps(p, octave), _mm512_set1_ps(1.055f * 255), _mm512_set1_ps(0.5f - 0.055f * 255));
    __mmask16 toe = _mm512_cmp_ps_mask(x, _mm512_set1_ps(0.0031308f), _CMP_LE_OQ);
    q = _mm512_mask_blend_ps(toe, q, _mm512_fmadd_ps(x, _mm512_set1_ps(12.92f * 255), _mm512_set1_ps(0.5f)));
    __m512 floor = _mm512_roundscale_ps(q, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC), fraction = _mm512_sub_ps(q, floor);
    __mmask16 near = _mm512_cmp_ps_mask(fraction, _mm512_set1_ps(ENCODE_MARGIN), _CMP_LT_OQ)
                   | _mm512_cmp_ps_mask(fraction, _mm512_set1_ps(1 - ENCODE_MARGIN), _CMP_GT_OQ);
    __mmask16 inside = _mm512_cmp_ps_mask(x, zero, _CMP_GT_OQ) & _mm512_cmp_ps_mask(x, one, _CMP_LT_OQ);
    *ambiguous = (near & inside) | _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
    __m512i code = _mm512_cvttps_epi32(_mm512_min_ps(_mm512_max_ps(floor, zero), _mm512_set1_ps(255)));
    code = _mm512_mask_mov_epi32(code, _mm512_cmp_ps_mask(x, zero, _CMP_LE_OQ), _mm512_setzero_si512());        // ≤ 0: 0
    return _mm512_mask_mov_epi32(code, _mm512_cmp_ps_mask(x, one, _CMP_GE_OQ), _mm512_set1_epi32(255));        // ≥ 1: 255
}

INLINE AVX512 __m512i encode8_pixels16(__m512 v, int channels, const unsigned char *firstCode, const float *binThreshold) {
    const __mmask16 alphaLanes = 0x8888;
    __m512 colour = v;
    if (channels == 4) {
        __m512 w = _mm512_permute_ps(v, 0xFF);
        colour = _mm512_maskz_div_ps(_mm512_cmp_ps_mask(w, _mm512_setzero_ps(), _CMP_GT_OQ), v, w);     // α > 0 ? rgb/α : 0
    }
    __mmask16 ambiguous;
    __m512i code = encode8_codes16(colour, &ambiguous);
    ambiguous &= (__mmask16)~alphaLanes;
    if (channels == 4) {
        __m512 one = _mm512_set1_ps(1);
        __m512 a = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, one, _CMP_LT_OQ), one, v);                  // Swift's min(1, α)
        a = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, _mm512_setzero_ps(), _CMP_GE_OQ), a);                // … max(0, …)
        __m512i alpha = _mm512_cvttps_epi32(_mm512_add_ps(_mm512_mul_ps(a, _mm512_set1_ps(255)), _mm512_set1_ps(0.5f)));
        code = _mm512_mask_mov_epi32(code, alphaLanes, alpha);
    }
    if (ambiguous) {
        float lanes[16];
        int codes[16];
        _mm512_storeu_ps(lanes, colour);
        _mm512_storeu_si512(codes, code);
        encode8_lookup(lanes, codes, ambiguous, firstCode, binThreshold);
        code = _mm512_loadu_si512(codes);
    }
    return code;
}

static AVX512 void encode8_avx512(const float *pixels, int channels, unsigned char *out, ptrdiff_t count,
                                  const unsigned char *firstCode, const float *binThreshold) {
    const __m128i rgb = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    ptrdiff_t i = 0;
    for (; i + 4 <= count; i += 4) {
        __m128i bytes = _mm512_cvtepi32_epi8(encode8_pixels16(_mm512_loadu_ps(pixels + 4 * i), channels, firstCode, binThreshold));
        if (channels == 4) {
            _mm_storeu_si128((__m128i *)(out + 4 * i), bytes);
        } else {
            __m128i packed = _mm_shuffle_epi8(bytes, rgb);
            _mm_storel_epi64((__m128i *)(out + 3 * i), packed);
            _mm_storeu_si32(out + 3 * i + 8, _mm_srli_si128(packed, 8));
        }
    }
    for (; i < count; i++) encode8_scalar(pixels + 4 * i, channels, out + channels * i, firstCode, binThreshold);
}

void CKernels_encode8(int level, const float *pixels, int channels, unsigned char *out, ptrdiff_t count,
                      const unsigned char *firstCode, const float *binThreshold) {
    if (level >= CKERNELS_AVX512) encode8_avx512(pixels, channels, out, count, firstCode, binThreshold);
    else encode8_avx2(pixels, channels, out, count, firstCode, binThreshold);
}

// ---- Opaque 8-bit RGB codes to working-space pixels through three tables ----
// A pixel is three 16-byte loads from `lanes` (red's value in lane 0 and zeros, green's in
// lane 1, blue's in lane 2 with alpha 1) and two ORs, exact: 0.79× the time of the Swift
// loop doing the same (perf samples, against the unchanged vignette row's). AVX2 gathers
// (three for eight pixels, then a transpose) took 1.25× it on a Zen 3, with a quarter of
// its instructions: a gather there costs about a load a lane anyway.

static void expand8_rgb(const unsigned char *in, const float *lanes, float *out, ptrdiff_t count) {
    const __m128 *red = (const __m128 *)lanes, *green = red + 256, *blue = red + 512;
    ptrdiff_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const unsigned char *p = in + 3 * i;
        float *o = out + 4 * i;
        _mm_storeu_ps(o, _mm_or_ps(_mm_or_ps(red[p[0]], green[p[1]]), blue[p[2]]));
        _mm_storeu_ps(o + 4, _mm_or_ps(_mm_or_ps(red[p[3]], green[p[4]]), blue[p[5]]));
        _mm_storeu_ps(o + 8, _mm_or_ps(_mm_or_ps(red[p[6]], green[p[7]]), blue[p[8]]));
        _mm_storeu_ps(o + 12, _mm_or_ps(_mm_or_ps(red[p[9]], green[p[10]]), blue[p[11]]));
    }
    for (; i < count; i++) {
        const unsigned char *p = in + 3 * i;
        _mm_storeu_ps(out + 4 * i, _mm_or_ps(_mm_or_ps(red[p[0]], green[p[1]]), blue[p[2]]));
    }
}

void CKernels_expand8RGB(int level, const unsigned char *in, const float *lanes, float *out, ptrdiff_t count) {
    (void)level;
    expand8_rgb(in, lanes, out, count);
}

#else
// Other processors run Lumen's Swift loops; these are never called there.
void CKernels_vignetteRow(int level, const float *source, float *out, ptrdiff_t count, double x0, double cx,
                          float dy2, float radius, float band, float k) {}
void CKernels_encode8(int level, const float *pixels, int channels, unsigned char *out, ptrdiff_t count,
                      const unsigned char *firstCode, const float *binThreshold) {}
void CKernels_expand8RGB(int level, const unsigned char *in, const float *lanes, float *out, ptrdiff_t count) {}
#endif
