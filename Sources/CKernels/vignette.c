// vignetteEffect's rows with vector versions that give the Swift baseline's results
// exactly: on working-space pixels, and straight from 8-bit codes to 8-bit codes (see
// CKernels.h).
#include "CKernels.h"
#include <math.h>
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
// With the sRGB curve's own tables, darkening takes its codes from the codes themselves
// (darkened_codes), and only samples near a rounding boundary are looked up one by one
// (darkened_resolve); eight pixels whose factors are all 0 are written as zeros. Only the
// pixels of the band between the circles compute their factors (vignette_spans).

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

/// `code`'s lanes set in `ambiguous` (register r of eight pixels' darkened codes) replaced
/// by the float path's codes, one sample at a time: the table's value times its pixel's
/// factor, through the encoder's tables (the lanes are near a rounding boundary, where
/// encode8_codes would defer to the tables too).
static inline AVX2 __m256i darkened_resolve(const unsigned char *p, __m256i code, int ambiguous, int r, __m256 f,
                                            const float *table, const unsigned char *firstCode, const float *binThreshold) {
#pragma STDC FP_CONTRACT OFF
    float factors[8];
    int codes[8];
    _mm256_storeu_ps(factors, f);
    _mm256_storeu_si256((__m256i *)codes, code);
    for (int j = 0; ambiguous; j++, ambiguous >>= 1) {
        if (!(ambiguous & 1)) continue;
        int sample = 8 * r + j;
        codes[j] = encode8_table(table[256 * (sample % 3) + p[j]] * factors[sample / 3], firstCode, binThreshold);
    }
    return _mm256_loadu_si256((const __m256i *)codes);
}

/// The pixels of a row whose factors are known without arithmetic: those in [*insideFrom,
/// *insideTo) are inside the radius (t ≤ 0, s = 0), those before *outsideFrom or from
/// *outsideTo on are past the band (t ≥ 1, s = 1); pixel j's centre is x0 + j + 0.5. The
/// spans are found in double, `margin` pixels short of the circles, far more than the float
/// arithmetic's error (a few ulps of the distance), so vignette_s8 gives those values there
/// exactly. Parameters too large or not finite leave every pixel to vignette_s8.
static void vignette_spans(ptrdiff_t count, double x0, double cx, float dy2, float radius, float band,
                           ptrdiff_t *insideFrom, ptrdiff_t *insideTo, ptrdiff_t *outsideFrom, ptrdiff_t *outsideTo) {
    *insideFrom = *insideTo = 0;
    *outsideFrom = 0;
    *outsideTo = count;
    const double limit = 0x1p40, c = cx - x0 - 0.5;   // c: the centre's column in pixel indices
    if (!(fabs(c) < limit && dy2 >= 0 && dy2 < limit && radius >= 0 && radius < limit && band > 0 && band < limit)) return;
    double margin = 1 + 1e-5 * ((double)radius + (double)band + fabs(c) + sqrt((double)dy2) + (double)count);
    double inner = (double)radius - margin, outer = (double)radius + (double)band + margin;
    if (inner > 0 && inner * inner > dy2) {
        double a = sqrt(inner * inner - dy2);
        double from = ceil(c - a), to = floor(c + a) + 1;
        *insideFrom = from < 0 ? 0 : from > count ? count : (ptrdiff_t)from;
        *insideTo = to < *insideFrom ? *insideFrom : to > count ? count : (ptrdiff_t)to;
    }
    double b = outer * outer > dy2 ? sqrt(outer * outer - dy2) : 0;
    double from = floor(c - b) + 1, to = ceil(c + b);   // pixels at or beyond b from the centre's column
    *outsideFrom = from < 0 ? 0 : from > count ? count : (ptrdiff_t)from;
    *outsideTo = to < 0 ? 0 : to > count ? count : (ptrdiff_t)to;
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
    ptrdiff_t insideFrom, insideTo, outsideFrom, outsideTo;
    vignette_spans(count, x0, cx, dy2, radius, band, &insideFrom, &insideTo, &outsideFrom, &outsideTo);
    for (ptrdiff_t i = 0; i < count; i += 8) {
        if (i % RUN == 0)
            for (ptrdiff_t j = i; j < i + RUN && j < count; j += 8)
                smooth[(j % RUN) / 8] = j >= insideFrom && j + 8 <= insideTo ? _mm256_setzero_ps()
                                      : j + 8 <= outsideFrom || j >= outsideTo ? one
                                      : vignette_s8(x0 + (double)j, cx, dy2, radius, band);
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
            // Factors below 2⁻⁹ (pow_5_12's range), or NaN: the group goes the float path
            // whole (the band's last few pixels, past which every factor is 0).
            if (_mm256_movemask_ps(_mm256_cmp_ps(f, _mm256_set1_ps(0x1p-9f), _CMP_NGE_UQ))) {
                encode8_rgb_samples(vignette_samples8(p, table, channel0, f, pixel0, k),
                                    vignette_samples8(p + 8, table, channel1, f, pixel1, k),
                                    vignette_samples8(p + 16, table, channel2, f, pixel2, k), o, firstCode, binThreshold);
                continue;
            }
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
