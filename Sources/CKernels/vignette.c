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
#include "vignette8.h"

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

/// Pixels [from, to) of the row, all with smoothstep value `s` (0 inside the circle, 1 past the band).
static AVX2 void vignette_flat8(const unsigned char *in, unsigned char *out, ptrdiff_t from, ptrdiff_t to, float s, float k,
                                int skipsInside, int srgb, const float *table, const unsigned char *codeTables,
                                const unsigned char *firstCode, const float *binThreshold) {
#pragma STDC FP_CONTRACT OFF
    if (from >= to) return;
    // Inside: the codes as they are (through the code tables). Past the band with k = 1: every
    // factor 0, every code 0 (as vignette_group8 writes them, eight pixels at a time).
    if (skipsInside && s == 0) return vignette_copy(in + 3 * from, out + 3 * from, to - from, codeTables);
    if (skipsInside && srgb && k >= 0 && 1 - k * s == 0) {
        memset(out + 3 * from, 0, (size_t)(3 * (to - from)));
        return;
    }
    for (ptrdiff_t i = from; i < to; i += 8)
        vignette_group8(in + 3 * i, out + 3 * i, to - i < 8 ? to - i : 8, _mm256_set1_ps(s), k, skipsInside, srgb, table,
                        codeTables, firstCode, binThreshold);
}

/// Pixels [from, to) of the row, in the band between the circles: each computes its smoothstep value.
static AVX2 void vignette_band8(const unsigned char *in, unsigned char *out, ptrdiff_t from, ptrdiff_t to, double x0, double cx,
                                float dy2, float radius, float band, float k, int skipsInside, int srgb, const float *table,
                                const unsigned char *codeTables, const unsigned char *firstCode, const float *binThreshold) {
    // The smoothstep values of a run of pixels first, in a loop of their own: each is a chain of
    // square root and division, and computed beside the codes they held up every eight
    // pixels (a third of the row's time in perf samples).
    enum { RUN = 256 };
    __m256 smooth[RUN / 8];
    for (ptrdiff_t start = from; start < to; start += RUN) {
        ptrdiff_t end = to - start < RUN ? to : start + RUN;
        for (ptrdiff_t j = start; j < end; j += 8) smooth[(j - start) / 8] = vignette_s8(x0 + (double)j, cx, dy2, radius, band);
        for (ptrdiff_t i = start; i < end; i += 8)
            vignette_group8(in + 3 * i, out + 3 * i, end - i < 8 ? end - i : 8, smooth[(i - start) / 8], k, skipsInside, srgb,
                            table, codeTables, firstCode, binThreshold);
    }
}

/// The row as spans: past the band (s = 1), the band, inside the circle (s = 0), the band, past
/// it. Writes the pixels past the band and inside, and returns the band's spans (0 to 2, in
/// `from`, `to`), whose pixels compute their factors.
AVX2 int vignette_row_spans(const unsigned char *in, unsigned char *out, ptrdiff_t count, double x0, double cx,
                            float dy2, float radius, float band, float k, int skipsInside, int srgb, const float *table,
                            const unsigned char *codeTables, const unsigned char *firstCode, const float *binThreshold,
                            ptrdiff_t from[2], ptrdiff_t to[2]) {
    ptrdiff_t insideFrom, insideTo, outsideFrom, outsideTo;
    vignette_spans(count, x0, cx, dy2, radius, band, &insideFrom, &insideTo, &outsideFrom, &outsideTo);
    // In order: 0 ≤ outsideFrom ≤ insideFrom ≤ insideTo ≤ outsideTo ≤ count (a row the outer
    // circle misses is past the band throughout).
    if (outsideTo < outsideFrom) outsideTo = outsideFrom;
    if (insideFrom < outsideFrom) insideFrom = outsideFrom;
    if (insideTo > outsideTo) insideTo = outsideTo;
    if (insideTo <= insideFrom) insideFrom = insideTo = outsideFrom;
    vignette_flat8(in, out, 0, outsideFrom, 1, k, skipsInside, srgb, table, codeTables, firstCode, binThreshold);
    vignette_flat8(in, out, insideFrom, insideTo, 0, k, skipsInside, srgb, table, codeTables, firstCode, binThreshold);
    vignette_flat8(in, out, outsideTo, count, 1, k, skipsInside, srgb, table, codeTables, firstCode, binThreshold);
    int spans = 0;
    if (outsideFrom < insideFrom) from[spans] = outsideFrom, to[spans++] = insideFrom;
    if (insideTo < outsideTo) from[spans] = insideTo, to[spans++] = outsideTo;
    return spans;
}

static AVX2 void vignette_row8_avx2(const unsigned char *in, unsigned char *out, ptrdiff_t count, double x0, double cx,
                                    float dy2, float radius, float band, float k, int skipsInside, int srgb, const float *table,
                                    const unsigned char *codeTables, const unsigned char *firstCode, const float *binThreshold) {
    ptrdiff_t from[2], to[2];
    int spans = vignette_row_spans(in, out, count, x0, cx, dy2, radius, band, k, skipsInside, srgb, table, codeTables, firstCode,
                                   binThreshold, from, to);
    for (int b = 0; b < spans; b++)
        vignette_band8(in, out, from[b], to[b], x0, cx, dy2, radius, band, k, skipsInside, srgb, table, codeTables, firstCode,
                       binThreshold);
}

void CKernels_vignetteRow8(int level, const unsigned char *in, unsigned char *out, ptrdiff_t count, double x0, double cx,
                           float dy2, float radius, float band, float k, int skipsInside, int srgb, const float *table,
                           const unsigned char *codeTables, const unsigned char *firstCode, const float *binThreshold) {
    if (level >= CKERNELS_AVX512)
        vignette_row8_avx512(in, out, count, x0, cx, dy2, radius, band, k, skipsInside, srgb, table, codeTables, firstCode, binThreshold);
    else
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
