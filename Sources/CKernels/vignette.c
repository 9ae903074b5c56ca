// vignetteEffect's rows with vector versions that give the Swift baseline's results
// exactly: on working-space pixels, and straight from 8-bit codes to 8-bit codes (see
// CKernels.h).
#include "CKernels.h"
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#include "target.h"
#include "encode8.h"

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

/// The factors `s` (eight smoothstep values) applied to the `n` ≤ 8 pixels at `source`.
INLINE AVX2 void vignette_apply8(const float *source, float *out, ptrdiff_t n, __m256 s, float k) {
    const __m256 one = _mm256_set1_ps(1), kv = _mm256_set1_ps(k), negk = _mm256_set1_ps(-k);
    const __m256i alpha = _mm256_setr_epi32(0, 0, 0, -1, 0, 0, 0, -1);
    const __m256i splatw = _mm256_setr_epi32(3, 3, 3, 3, 7, 7, 7, 7);
    // k ≥ 0: the factor 1 − k·s; k < 0: the amount (−k)·s.
    __m256 f = k >= 0 ? _mm256_sub_ps(one, _mm256_mul_ps(kv, s)) : _mm256_mul_ps(negk, s);
    float lanes[8];
    _mm256_storeu_ps(lanes, f);
    for (ptrdiff_t j = 0; j + 1 < n; j += 2) {      // two pixels a register
        const float *p = source + 4 * j;
        __m256 v = _mm256_loadu_ps(p);
        __m256 fv = _mm256_setr_m128(_mm_set1_ps(lanes[j]), _mm_set1_ps(lanes[j + 1]));
        __m256 r = k >= 0 ? _mm256_mul_ps(v, fv)
                          : _mm256_add_ps(v, _mm256_mul_ps(_mm256_sub_ps(_mm256_permutevar8x32_ps(v, splatw), v), fv));
        _mm256_storeu_ps(out + 4 * j, _mm256_blendv_ps(r, v, _mm256_castsi256_ps(alpha)));
    }
    if (n & 1) {
        ptrdiff_t j = n - 1;
        const float *p = source + 4 * j;
        __m128 v = _mm_loadu_ps(p), fv = _mm_set1_ps(lanes[j]);
        __m128 r = k >= 0 ? _mm_mul_ps(v, fv)
                          : _mm_add_ps(v, _mm_mul_ps(_mm_sub_ps(_mm_permute_ps(v, 0xFF), v), fv));
        _mm_storeu_ps(out + 4 * j, _mm_blend_ps(r, v, 8));
    }
}

static AVX2 void vignette_row_avx2(const float *source, float *out, ptrdiff_t count, double x0, double cx,
                                   float dy2, float radius, float band, float k) {
    for (ptrdiff_t i = 0; i < count; i += 8) {
        __m256 s = vignette_s8(x0 + (double)i, cx, dy2, radius, band);
        vignette_apply8(source + 4 * i, out + 4 * i, count - i < 8 ? count - i : 8, s, k);
    }
}

void CKernels_vignetteRow(int level, const float *source, float *out, ptrdiff_t count, double x0, double cx,
                          float dy2, float radius, float band, float k) {
    (void)level;
    vignette_row_avx2(source, out, count, x0, cx, dy2, radius, band, k);
}

// ---- vignetteEffect straight from 8-bit codes to 8-bit codes ----
// Eight pixels at a time, their 24 samples in output order in three registers: gathered
// from the source's tables (one of 768 floats: red's, green's, blue's), scaled by each
// pixel's factor spread over its three samples with the IEEE operations of
// vignette_row_avx2 (alpha is 1), and encoded as encode8_rgb_avx2 encodes them, so every
// code is the one the working-space path writes. Eight pixels all inside the radius
// (every factor exactly 1) skip the arithmetic: their codes go through `codeTables` (the
// code each table value encodes to), or are copied when those are NULL (the identity).
// With the sRGB curve's own tables, darkening takes most codes from the codes themselves
// (darkened_codes), and eight pixels whose factors are all 0 are written as zeros.

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

/// The codes of one register of samples (8·r … 8·r + 7 in output order) darkened by the
/// factors spread over them (`g` their 5/12 powers), from the sRGB codes themselves: in the
/// curve's power segment 255·sRGB(v·f) = (c + 14.025)·f^(5/12) − 14.025 for v = linear(c),
/// so q = that + 0.5 is within 2 × 10⁻⁴ of the float path's value and ⌊q⌋ its code unless q
/// lies within ENCODE_MARGIN of an integer. Those lanes, and those the identity does not
/// cover (c ≤ 10 or q < 12, the linear toe; f < 2⁻⁹, below pow_5_12's range, in `low`),
/// are set in *ambiguous, for the float path (vignette_codes8).
INLINE AVX2 __m256i darkened_codes(const unsigned char *p, __m256 g, __m256 low, __m256i pixel, int *ambiguous) {
    __m256 c = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p)));
    __m256 q = _mm256_fmadd_ps(_mm256_add_ps(c, _mm256_set1_ps(0.055f * 255)), _mm256_permutevar8x32_ps(g, pixel),
                               _mm256_set1_ps(0.5f - 0.055f * 255));
    __m256 floor = _mm256_floor_ps(q), fraction = _mm256_sub_ps(q, floor);
    __m256 bad = _mm256_or_ps(_mm256_cmp_ps(fraction, _mm256_set1_ps(ENCODE_MARGIN), _CMP_LT_OQ),
                              _mm256_cmp_ps(fraction, _mm256_set1_ps(1 - ENCODE_MARGIN), _CMP_GT_OQ));
    bad = _mm256_or_ps(bad, _mm256_cmp_ps(c, _mm256_set1_ps(10.5f), _CMP_LT_OQ));
    bad = _mm256_or_ps(bad, _mm256_cmp_ps(q, _mm256_set1_ps(12), _CMP_LT_OQ));
    bad = _mm256_or_ps(bad, _mm256_permutevar8x32_ps(low, pixel));
    *ambiguous = _mm256_movemask_ps(bad);
    return _mm256_cvttps_epi32(_mm256_max_ps(floor, _mm256_setzero_ps()));
}

/// One register of samples through the float path: gathered, scaled, encoded.
INLINE AVX2 __m256i vignette_codes8(const unsigned char *p, const float *table, __m256i channel, __m256 f, __m256i pixel, float k,
                                    const unsigned char *firstCode, const float *binThreshold) {
    __m256 x = vignette_samples8(p, table, channel, f, pixel, k);
    int ambiguous;
    __m256i code = encode8_codes(x, &ambiguous);
    return ambiguous ? encode8_resolve(x, code, ambiguous, firstCode, binThreshold) : code;
}

static AVX2 void vignette_row8_avx2(const unsigned char *in, unsigned char *out, ptrdiff_t count, double x0, double cx,
                                    float dy2, float radius, float band, float k, int skipsInside, int srgb, const float *table,
                                    const unsigned char *codeTables, const unsigned char *firstCode, const float *binThreshold) {
#pragma STDC FP_CONTRACT OFF
    const __m256 one = _mm256_set1_ps(1), kv = _mm256_set1_ps(k), negk = _mm256_set1_ps(-k);
    const __m256i pixel0 = PIXEL_OF(0), pixel1 = PIXEL_OF(1), pixel2 = PIXEL_OF(2);
    const __m256i channel0 = CHANNEL_OF(0), channel1 = CHANNEL_OF(1), channel2 = CHANNEL_OF(2);
    // The smoothstep values of a run of pixels first, in a loop of their own: each is a chain of
    // square root and division, and computed beside the codes they held up every eight
    // pixels (a third of the row's time in perf samples).
    enum { RUN = 256 };
    __m256 smooth[RUN / 8];
    for (ptrdiff_t i = 0; i < count; i += 8) {
        if (i % RUN == 0)
            for (ptrdiff_t j = i; j < i + RUN && j < count; j += 8)
                smooth[(j % RUN) / 8] = vignette_s8(x0 + (double)j, cx, dy2, radius, band);
        ptrdiff_t n = count - i < 8 ? count - i : 8;
        const unsigned char *p = in + 3 * i;
        unsigned char *o = out + 3 * i;
        __m256 s = smooth[(i % RUN) / 8];
        if (skipsInside && !_mm256_movemask_ps(_mm256_cmp_ps(s, _mm256_setzero_ps(), _CMP_NEQ_UQ))) {
            if (!codeTables && n == 8) {                // both loads before the stores: in place too
                __m128i head = _mm_loadu_si128((const __m128i *)p), tail = _mm_loadl_epi64((const __m128i *)(p + 16));
                _mm_storeu_si128((__m128i *)o, head);
                _mm_storel_epi64((__m128i *)(o + 16), tail);
            } else if (!codeTables) {
                memmove(o, p, (size_t)(3 * n));
            } else {
                for (ptrdiff_t j = 0; j < 3 * n; j += 3) {
                    o[j] = codeTables[p[j]];
                    o[j + 1] = codeTables[256 + p[j + 1]];
                    o[j + 2] = codeTables[512 + p[j + 2]];
                }
            }
            continue;
        }
        // k ≥ 0: the factor 1 − k·s; k < 0: the amount (−k)·s.
        __m256 f = k >= 0 ? _mm256_sub_ps(one, _mm256_mul_ps(kv, s)) : _mm256_mul_ps(negk, s);
        if (srgb && k >= 0 && n == 8) {
            // Every factor 0 (k = 1, past the band): every finite value becomes 0, code 0.
            if (skipsInside && !_mm256_movemask_ps(_mm256_cmp_ps(f, _mm256_setzero_ps(), _CMP_NEQ_UQ))) {
                _mm_storeu_si128((__m128i *)o, _mm_setzero_si128());
                _mm_storel_epi64((__m128i *)(o + 16), _mm_setzero_si128());
                continue;
            }
            __m256 low = _mm256_cmp_ps(f, _mm256_set1_ps(0x1p-9f), _CMP_NGE_UQ);      // below 2⁻⁹, or NaN
            __m256 g = _mm256_blendv_ps(pow_5_12(_mm256_max_ps(f, _mm256_set1_ps(0x1p-9f))), one,
                                        _mm256_cmp_ps(f, one, _CMP_GE_OQ));
            // A register with any lane the identity does not settle goes the float path whole
            // (its lanes are mostly alike: the band's dark outer edge, a dark object).
            int m0, m1, m2;
            __m256i k0 = darkened_codes(p, g, low, pixel0, &m0);
            __m256i k1 = darkened_codes(p + 8, g, low, pixel1, &m1);
            __m256i k2 = darkened_codes(p + 16, g, low, pixel2, &m2);
            if (m0) k0 = vignette_codes8(p, table, channel0, f, pixel0, k, firstCode, binThreshold);
            if (m1) k1 = vignette_codes8(p + 8, table, channel1, f, pixel1, k, firstCode, binThreshold);
            if (m2) k2 = vignette_codes8(p + 16, table, channel2, f, pixel2, k, firstCode, binThreshold);
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
}

void CKernels_vignetteRow8(int level, const unsigned char *in, unsigned char *out, ptrdiff_t count, double x0, double cx,
                           float dy2, float radius, float band, float k, int skipsInside, int srgb, const float *table,
                           const unsigned char *codeTables, const unsigned char *firstCode, const float *binThreshold) {
    (void)level;
    vignette_row8_avx2(in, out, count, x0, cx, dy2, radius, band, k, skipsInside, srgb, table, codeTables, firstCode, binThreshold);
}

#else
// Other processors run Lumen's Swift loops; these are never called there.
void CKernels_vignetteRow(int level, const float *source, float *out, ptrdiff_t count, double x0, double cx,
                          float dy2, float radius, float band, float k) {}
void CKernels_vignetteRow8(int level, const unsigned char *in, unsigned char *out, ptrdiff_t count, double x0, double cx,
                           float dy2, float radius, float band, float k, int skipsInside, int srgb, const float *table,
                           const unsigned char *codeTables, const unsigned char *firstCode, const float *binThreshold) {}
#endif
