// vignetteEffect from 8-bit codes to 8-bit codes: the eight-pixel pieces shared by the AVX2
// rows (vignette.c) and the AVX-512 ones (vignette512.c), which hand them what is not the
// sRGB darkening. Included after <immintrin.h>, target.h and encode8.h, on x86-64 only.
#ifndef CKERNELS_VIGNETTE8_H
#define CKERNELS_VIGNETTE8_H
#include <stddef.h>
#include <string.h>

// ---- vignetteEffect straight from 8-bit codes to 8-bit codes ----
// Eight pixels at a time, their 24 samples in output order in three registers: gathered
// from the source's tables (one of 768 floats: red's, green's, blue's), scaled by each
// pixel's factor spread over its three samples with the IEEE operations of
// vignette_row_avx2 (alpha is 1), and encoded as encode8_rgb_avx2 encodes them, so every
// code is the one the working-space path writes. Eight pixels all inside the radius
// (every factor exactly 1) skip the arithmetic: their codes go through `codeTables` (the
// code each table value encodes to), or are copied when those are NULL (the identity).
// With the sRGB curve's own tables, darkening takes its codes from the codes themselves
// (darkened_codes), and only samples near a rounding boundary are looked up one by one
// (darkened_resolve); eight pixels whose factors are all 0 are written as zeros. A row is
// cut into spans (vignette_spans): past the band and inside the circle, where every
// factor is known, runs are written whole (zeros for k = 1, copies inside); only the
// band's pixels compute their factors, eight (vignette_band8) or sixteen at a time.

/// Sample i of the eight pixels in register 0, 1 or 2: pixel (8·r + i) / 3, channel (8·r + i) % 3.
#define PIXEL_OF(r) _mm256_setr_epi32((8 * r) / 3, (8 * r + 1) / 3, (8 * r + 2) / 3, (8 * r + 3) / 3, \
                                      (8 * r + 4) / 3, (8 * r + 5) / 3, (8 * r + 6) / 3, (8 * r + 7) / 3)
#define CHANNEL_OF(r) _mm256_setr_epi32(256 * ((8 * r) % 3), 256 * ((8 * r + 1) % 3), 256 * ((8 * r + 2) % 3), \
                                        256 * ((8 * r + 3) % 3), 256 * ((8 * r + 4) % 3), 256 * ((8 * r + 5) % 3), \
                                        256 * ((8 * r + 6) % 3), 256 * ((8 * r + 7) % 3))

INLINE AVX2 __m256 vignette_samples8(const unsigned char *p, const float *table, __m256i channel, __m256 f, __m256i pixel, float k) {
    __m256i codes = _mm256_add_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p)), channel);
    __m256 v = _mm256_i32gather_ps(table, codes, 4);
    __m256 fv = _mm256_permutevar8x32_ps(f, pixel);
    // k ≥ 0: v · (1 − k·s); k < 0: v + (α − v) · (−k)·s with α = 1.
    return k >= 0 ? _mm256_mul_ps(v, fv) : _mm256_add_ps(v, _mm256_mul_ps(_mm256_sub_ps(_mm256_set1_ps(1), v), fv));
}

// x^0.4 for x in [1, 32): 2^(0.4·e) for the octave e = 0 … 4 times a cubic of the mantissa's
// low 20 bits on its eighth of [1, 2) (fitted on Chebyshev nodes; worst relative error
// 1.8 × 10⁻⁷ in float).
static const float POW04_C0[8] = { 1.000000065e+00f, 1.048240722e+00f, 1.093362104e+00f, 1.135850275e+00f, 1.176079039e+00f, 1.214342935e+00f, 1.250878773e+00f, 1.285880207e+00f };
static const float POW04_C1[8] = { 3.999830628e-01f, 3.726964953e-01f, 3.498680074e-01f, 3.304235178e-01f, 3.136168995e-01f, 2.989120237e-01f, 2.859127087e-01f, 2.743191948e-01f };
static const float POW04_C2[8] = { -1.193085042e-01f, -9.892836335e-02f, -8.365074012e-02f, -7.186434614e-02f, -6.255497040e-02f, -5.505642830e-02f, -4.891537441e-02f, -4.381395166e-02f };
static const float POW04_C3[8] = { 5.477784120e-02f, 4.100501983e-02f, 3.160081819e-02f, 2.493906365e-02f, 2.007495751e-02f, 1.643216617e-02f, 1.364455437e-02f, 1.147138866e-02f };
static const float POW04_OCTAVE[8] = { 1.000000000e+00f, 1.319507911e+00f, 1.741101127e+00f, 2.297396710e+00f, 3.031433133e+00f, 4.000000000e+00f, 5.278031643e+00f, 6.964404506e+00f };

// 12.92·255 / 269.025^2.4: the toe's q − 0.5 from P = 269.025·(linear(c)·f)^(1/2.4).
#define TOE_OF_P 4.856242416261e-03f

INLINE AVX2 __m256 pow_0_4(__m256 x) {
    __m256i bits = _mm256_castps_si256(x);
    __m256i eighth = _mm256_and_si256(_mm256_srli_epi32(bits, 20), _mm256_set1_epi32(7));
    __m256 u = _mm256_sub_ps(_mm256_castsi256_ps(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0xFFFFF)),
                                                                 _mm256_set1_epi32(0x3F800000))), _mm256_set1_ps(1));
    __m256 p = _mm256_permutevar8x32_ps(_mm256_loadu_ps(POW04_C3), eighth);
    p = _mm256_fmadd_ps(p, u, _mm256_permutevar8x32_ps(_mm256_loadu_ps(POW04_C2), eighth));
    p = _mm256_fmadd_ps(p, u, _mm256_permutevar8x32_ps(_mm256_loadu_ps(POW04_C1), eighth));
    p = _mm256_fmadd_ps(p, u, _mm256_permutevar8x32_ps(_mm256_loadu_ps(POW04_C0), eighth));
    __m256i e = _mm256_sub_epi32(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(127));   // 0 … 4 where used (the permute reads 3 bits)
    return _mm256_mul_ps(p, _mm256_permutevar8x32_ps(_mm256_loadu_ps(POW04_OCTAVE), e));
}

/// The codes of one register of samples (8·r … 8·r + 7 in output order) darkened by the
/// factors `f` (2⁻⁹ ≤ f ≤ 1) spread over them (`g` their 5/12 powers), from the sRGB codes
/// c themselves, with q = 255 · sRGB(linear(c) · f) + 0.5 taken where the float path's
/// product lies on the curve:
/// - in its power segment, for c > 10: P − 13.525 with P = (c + 14.025)·f^(5/12);
/// - in its toe, for c > 10: 12.92·255·(P / 269.025)^2.4 + 0.5, as (P / 269.025)^2.4 is
///   linear(c)·f (P is then in [1.8, 24.5], pow_0_4's range); for c ≤ 10, whose
///   linear(c) is c / (12.92·255): c·f + 0.5.
/// The toe is taken below q = 10.9 of the first form: the segments meet at 10.815, and up
/// to 10.92 both give code 10. Each q is within 2 × 10⁻⁴ of the exact value for the float
/// path's product (the tables' rounding, pow_5_12's and pow_0_4's 2 × 10⁻⁷), so ⌊q⌋ is its
/// code unless q lies within ENCODE_MARGIN of an integer. Those lanes are set in
/// *ambiguous, for darkened_resolve.
INLINE AVX2 __m256i darkened_codes(const unsigned char *p, __m256 f, __m256 g, __m256i pixel, int *ambiguous) {
    __m256 c = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p)));
    __m256 P = _mm256_mul_ps(_mm256_add_ps(c, _mm256_set1_ps(0.055f * 255)), _mm256_permutevar8x32_ps(g, pixel));
    __m256 q = _mm256_sub_ps(P, _mm256_set1_ps(0.055f * 255 - 0.5f));
    __m256 inToe = _mm256_cmp_ps(q, _mm256_set1_ps(10.9f), _CMP_LT_OQ);
    if (_mm256_movemask_ps(inToe)) {
        __m256 toe = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_mul_ps(P, P), pow_0_4(P)), _mm256_set1_ps(TOE_OF_P), _mm256_set1_ps(0.5f));
        toe = _mm256_blendv_ps(toe, _mm256_fmadd_ps(c, _mm256_permutevar8x32_ps(f, pixel), _mm256_set1_ps(0.5f)),
                               _mm256_cmp_ps(c, _mm256_set1_ps(10.5f), _CMP_LT_OQ));
        q = _mm256_blendv_ps(q, toe, inToe);
    }
    // ⌊q⌋ = ⌊q + margin⌋ unless q's fraction is within the margin of 1, and that, or a
    // fraction below the margin, leaves q + margin's fraction below twice the margin.
    q = _mm256_add_ps(q, _mm256_set1_ps(ENCODE_MARGIN));
    __m256 floor = _mm256_floor_ps(q);
    *ambiguous = _mm256_movemask_ps(_mm256_cmp_ps(_mm256_sub_ps(q, floor), _mm256_set1_ps(2 * ENCODE_MARGIN), _CMP_LT_OQ));
    return _mm256_cvttps_epi32(floor);
}

/// The float path's codes for the samples set in `ambiguous`, written over `codes`: sample
/// lanes·r + j of the pixels at `p` (register r of `lanes`-lane registers), the table's value
/// times its pixel's factor, through the encoder's tables (the samples are near a rounding
/// boundary, where encode8_codes would defer to the tables too).
static inline void darkened_lookup(const unsigned char *p, int *codes, unsigned ambiguous, int lanes, int r, const float *factors,
                                   const float *table, const unsigned char *firstCode, const float *binThreshold) {
#pragma STDC FP_CONTRACT OFF
    for (int j = 0; ambiguous; j++, ambiguous >>= 1) {
        if (!(ambiguous & 1)) continue;
        int sample = lanes * r + j;
        codes[j] = encode8_table(table[256 * (sample % 3) + p[j]] * factors[sample / 3], firstCode, binThreshold);
    }
}

/// `code`'s lanes set in `ambiguous` (register r of eight pixels' darkened codes) replaced
/// by the float path's codes (darkened_lookup).
static inline AVX2 __m256i darkened_resolve(const unsigned char *p, __m256i code, int ambiguous, int r, __m256 f,
                                            const float *table, const unsigned char *firstCode, const float *binThreshold) {
    float factors[8];
    int codes[8];
    _mm256_storeu_ps(factors, f);
    _mm256_storeu_si256((__m256i *)codes, code);
    darkened_lookup(p, codes, (unsigned)ambiguous, 8, r, factors, table, firstCode, binThreshold);
    return _mm256_loadu_si256((const __m256i *)codes);
}

/// `n` pixels' codes as they are (inside the circle), through `codeTables` unless NULL; in place too.
static inline void vignette_copy(const unsigned char *p, unsigned char *o, ptrdiff_t n, const unsigned char *codeTables) {
    if (!codeTables) {
        memmove(o, p, (size_t)(3 * n));
        return;
    }
    for (ptrdiff_t j = 0; j < 3 * n; j += 3) {
        o[j] = codeTables[p[j]];
        o[j + 1] = codeTables[256 + p[j + 1]];
        o[j + 2] = codeTables[512 + p[j + 2]];
    }
}

/// Up to eight pixels (n ≤ 8) from codes `p` to codes `o` with smoothstep values `s`.
INLINE AVX2 void vignette_group8(const unsigned char *p, unsigned char *o, ptrdiff_t n, __m256 s, float k, int skipsInside,
                                 int srgb, const float *table, const unsigned char *codeTables, const unsigned char *firstCode,
                                 const float *binThreshold) {
#pragma STDC FP_CONTRACT OFF
    const __m256 one = _mm256_set1_ps(1), kv = _mm256_set1_ps(k), negk = _mm256_set1_ps(-k);
    const __m256i pixel0 = PIXEL_OF(0), pixel1 = PIXEL_OF(1), pixel2 = PIXEL_OF(2);
    const __m256i channel0 = CHANNEL_OF(0), channel1 = CHANNEL_OF(1), channel2 = CHANNEL_OF(2);
    if (skipsInside && !_mm256_movemask_ps(_mm256_cmp_ps(s, _mm256_setzero_ps(), _CMP_NEQ_UQ)))
        return vignette_copy(p, o, n, codeTables);
    // k ≥ 0: the factor 1 − k·s; k < 0: the amount (−k)·s.
    __m256 f = k >= 0 ? _mm256_sub_ps(one, _mm256_mul_ps(kv, s)) : _mm256_mul_ps(negk, s);
    if (srgb && k >= 0 && n == 8) {
        // Every factor 0 (k = 1, past the band): every finite value becomes 0, code 0.
        if (skipsInside && !_mm256_movemask_ps(_mm256_cmp_ps(f, _mm256_setzero_ps(), _CMP_NEQ_UQ))) {
            _mm_storeu_si128((__m128i *)o, _mm_setzero_si128());
            _mm_storel_epi64((__m128i *)(o + 16), _mm_setzero_si128());
            return;
        }
        // Factors below 2⁻⁹ (pow_5_12's range), or NaN: the group goes the float path
        // whole (the band's last few pixels, past which every factor is 0).
        if (_mm256_movemask_ps(_mm256_cmp_ps(f, _mm256_set1_ps(0x1p-9f), _CMP_NGE_UQ)))
            return encode8_rgb_samples(vignette_samples8(p, table, channel0, f, pixel0, k),
                                       vignette_samples8(p + 8, table, channel1, f, pixel1, k),
                                       vignette_samples8(p + 16, table, channel2, f, pixel2, k), o, firstCode, binThreshold);
        // A factor of 1 is taken as 1 − 2⁻²⁴ (in pow_5_12's range): its codes stay 10⁻⁵ below c + 0.5.
        __m256 g = pow_5_12(_mm256_min_ps(f, _mm256_set1_ps(0x1.fffffep-1f)));
        // Samples near a rounding boundary (3 % of registers have one) are looked up one
        // by one.
        int m0, m1, m2;
        __m256i k0 = darkened_codes(p, f, g, pixel0, &m0);
        __m256i k1 = darkened_codes(p + 8, f, g, pixel1, &m1);
        __m256i k2 = darkened_codes(p + 16, f, g, pixel2, &m2);
        if (m0 | m1 | m2) {
            if (m0) k0 = darkened_resolve(p, k0, m0, 0, f, table, firstCode, binThreshold);
            if (m1) k1 = darkened_resolve(p + 8, k1, m1, 1, f, table, firstCode, binThreshold);
            if (m2) k2 = darkened_resolve(p + 16, k2, m2, 2, f, table, firstCode, binThreshold);
        }
        store_rgb_codes(k0, k1, k2, o);
    } else if (n == 8) {
        __m256 s0 = vignette_samples8(p, table, channel0, f, pixel0, k);
        __m256 s1 = vignette_samples8(p + 8, table, channel1, f, pixel1, k);
        __m256 s2 = vignette_samples8(p + 16, table, channel2, f, pixel2, k);
        encode8_rgb_samples(s0, s1, s2, o, firstCode, binThreshold);
    } else {
        float factors[8];
        _mm256_storeu_ps(factors, f);
        for (ptrdiff_t j = 0; j < 3 * n; j++) {
            float v = table[256 * (j % 3) + p[j]], a = factors[j / 3];
            o[j] = encode8_table(k >= 0 ? v * a : v + (1 - v) * a, firstCode, binThreshold);
        }
    }
}

/// Writes the row's pixels past the band and inside the circle, and returns the band's
/// spans (0 to 2 of them, in `from` and `to`), whose pixels compute their factors.
__attribute__((visibility("hidden"))) int vignette_row_spans(
    const unsigned char *in, unsigned char *out, ptrdiff_t count, double x0, double cx, float dy2, float radius, float band,
    float k, int skipsInside, int srgb, const float *table, const unsigned char *codeTables, const unsigned char *firstCode,
    const float *binThreshold, ptrdiff_t from[2], ptrdiff_t to[2]);

/// vignette_row8_avx2 sixteen pixels at a time (vignette512.c).
__attribute__((visibility("hidden"))) void vignette_row8_avx512(
    const unsigned char *in, unsigned char *out, ptrdiff_t count, double x0, double cx, float dy2, float radius, float band,
    float k, int skipsInside, int srgb, const float *table, const unsigned char *codeTables, const unsigned char *firstCode,
    const float *binThreshold);

#endif
