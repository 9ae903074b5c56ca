// vignetteEffect's rows from 8-bit codes to 8-bit codes on AVX-512 (see vignette.c and
// vignette8.h).
#include "CKernels.h"
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#include "target.h"
#include "encode8.h"
#include "vignette8.h"

// ---- The same on AVX-512: sixteen pixels (48 samples, three registers) at a time ----
// The darkening of the sRGB codes, where nearly all of a vignette's band goes, on sixteen
// lanes with the operations of the eight-lane functions (vignette8.h), lane for lane, so
// the codes are the same; every other case (factors below 2⁻⁹ or NaN, k < 0, other curves,
// tails) goes to vignette_group8 eight pixels at a time. (Sixteen-lane gathers for those
// cases were no faster on the AMD processor they were tried on.)

/// Sample i of sixteen pixels' register r: pixel (16·r + i) / 3.
#define PIXEL16_OF(r) _mm512_setr_epi32((16 * r) / 3, (16 * r + 1) / 3, (16 * r + 2) / 3, (16 * r + 3) / 3, (16 * r + 4) / 3, \
    (16 * r + 5) / 3, (16 * r + 6) / 3, (16 * r + 7) / 3, (16 * r + 8) / 3, (16 * r + 9) / 3, (16 * r + 10) / 3,            \
    (16 * r + 11) / 3, (16 * r + 12) / 3, (16 * r + 13) / 3, (16 * r + 14) / 3, (16 * r + 15) / 3)

INLINE AVX512 __m512 vignette_s16(double x, double cx, float dy2, float radius, float band) {
    const __m512d half = _mm512_set1_pd(0.5), c = _mm512_set1_pd(cx);
    __m512d lo = _mm512_add_pd(_mm512_set1_pd(x), _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7));
    __m512d hi = _mm512_add_pd(_mm512_set1_pd(x + 8), _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7));
    __m256 dxl = _mm512_cvtpd_ps(_mm512_sub_pd(_mm512_add_pd(lo, half), c));
    __m256 dxh = _mm512_cvtpd_ps(_mm512_sub_pd(_mm512_add_pd(hi, half), c));
    __m512 dx = _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(dxl)), _mm256_castps_pd(dxh), 1));
    __m512 d = _mm512_sqrt_ps(_mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_set1_ps(dy2)));
    __m512 t = _mm512_div_ps(_mm512_sub_ps(d, _mm512_set1_ps(radius)), _mm512_set1_ps(band));
    const __m512 one = _mm512_set1_ps(1);
    t = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(t, _mm512_setzero_ps(), _CMP_GT_OQ), t);    // ≤ 0 and NaN → 0
    t = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(t, one, _CMP_GT_OQ), t, one);
    return _mm512_mul_ps(_mm512_mul_ps(t, t), _mm512_sub_ps(_mm512_set1_ps(3), _mm512_mul_ps(_mm512_set1_ps(2), t)));
}

/// pow_0_4 on sixteen lanes; its tables are eight wide, indexed mod 8 as AVX2's permutes index them.
INLINE AVX512 __m512 pow_0_4_16(__m512 x) {
    __m512i bits = _mm512_castps_si512(x);
    __m512i eighth = _mm512_and_si512(_mm512_srli_epi32(bits, 20), _mm512_set1_epi32(7));
    __m512 u = _mm512_sub_ps(_mm512_castsi512_ps(_mm512_or_si512(_mm512_and_si512(bits, _mm512_set1_epi32(0xFFFFF)),
                                                                 _mm512_set1_epi32(0x3F800000))), _mm512_set1_ps(1));
#define TABLE8(t) _mm512_castps256_ps512(_mm256_loadu_ps(t))
    __m512 p = _mm512_permutexvar_ps(eighth, TABLE8(POW04_C3));
    p = _mm512_fmadd_ps(p, u, _mm512_permutexvar_ps(eighth, TABLE8(POW04_C2)));
    p = _mm512_fmadd_ps(p, u, _mm512_permutexvar_ps(eighth, TABLE8(POW04_C1)));
    p = _mm512_fmadd_ps(p, u, _mm512_permutexvar_ps(eighth, TABLE8(POW04_C0)));
    __m512i e = _mm512_and_si512(_mm512_sub_epi32(_mm512_srli_epi32(bits, 23), _mm512_set1_epi32(127)), _mm512_set1_epi32(7));
    return _mm512_mul_ps(p, _mm512_permutexvar_ps(e, TABLE8(POW04_OCTAVE)));
#undef TABLE8
}

/// darkened_codes on sixteen samples; lanes near a rounding boundary are set in *ambiguous.
INLINE AVX512 __m512i darkened_codes16(const unsigned char *p, __m512 f, __m512 g, __m512i pixel, __mmask16 *ambiguous) {
    __m512 c = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)p)));
    __m512 P = _mm512_mul_ps(_mm512_add_ps(c, _mm512_set1_ps(0.055f * 255)), _mm512_permutexvar_ps(pixel, g));
    __m512 q = _mm512_sub_ps(P, _mm512_set1_ps(0.055f * 255 - 0.5f));
    __mmask16 inToe = _mm512_cmp_ps_mask(q, _mm512_set1_ps(10.9f), _CMP_LT_OQ);
    if (inToe) {
        __m512 toe = _mm512_fmadd_ps(_mm512_mul_ps(_mm512_mul_ps(P, P), pow_0_4_16(P)), _mm512_set1_ps(TOE_OF_P), _mm512_set1_ps(0.5f));
        toe = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(c, _mm512_set1_ps(10.5f), _CMP_LT_OQ), toe,
                                   _mm512_fmadd_ps(c, _mm512_permutexvar_ps(pixel, f), _mm512_set1_ps(0.5f)));
        q = _mm512_mask_blend_ps(inToe, q, toe);
    }
    q = _mm512_add_ps(q, _mm512_set1_ps(ENCODE_MARGIN));
    __m512 floor = _mm512_roundscale_ps(q, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    *ambiguous = _mm512_cmp_ps_mask(_mm512_sub_ps(q, floor), _mm512_set1_ps(2 * ENCODE_MARGIN), _CMP_LT_OQ);
    return _mm512_cvttps_epi32(floor);
}

/// darkened_resolve on sixteen samples (register r of sixteen pixels).
static inline AVX512 __m512i darkened_resolve16(const unsigned char *p, __m512i code, __mmask16 ambiguous, int r, __m512 f,
                                                const float *table, const unsigned char *firstCode, const float *binThreshold) {
    float factors[16];
    int codes[16];
    _mm512_storeu_ps(factors, f);
    _mm512_storeu_si512(codes, code);
    darkened_lookup(p, codes, ambiguous, 16, r, factors, table, firstCode, binThreshold);
    return _mm512_loadu_si512(codes);
}

/// Lanes h … h + 7 (h = 0 or 8) of `v`.
INLINE AVX512 __m256 half8(__m512 v, ptrdiff_t h) {
    return h ? _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)) : _mm512_castps512_ps256(v);
}

/// Up to sixteen pixels with smoothstep values `s`: as vignette_group8 would write them.
INLINE AVX512 void vignette_group16(const unsigned char *p, unsigned char *o, ptrdiff_t n, __m512 s, float k, int skipsInside,
                                   int srgb, const float *table, const unsigned char *codeTables, const unsigned char *firstCode,
                                   const float *binThreshold) {
    __m512 f = _mm512_sub_ps(_mm512_set1_ps(1), _mm512_mul_ps(_mm512_set1_ps(k), s));
    // The darkening only; all inside (every s 0) is copied, and factors below 2⁻⁹ (all 0 past
    // the band with k = 1) or NaN leave the group to vignette_group8, as does anything else.
    if (n < 16 || !srgb || !(k >= 0) || (skipsInside && !_mm512_cmp_ps_mask(s, _mm512_setzero_ps(), _CMP_NEQ_UQ))
        || _mm512_cmp_ps_mask(f, _mm512_set1_ps(0x1p-9f), _CMP_NGE_UQ)) {
        for (ptrdiff_t h = 0; h < n; h += 8)
            vignette_group8(p + 3 * h, o + 3 * h, n - h < 8 ? n - h : 8, half8(s, h), k, skipsInside, srgb, table,
                            codeTables, firstCode, binThreshold);
        return;
    }
    __m512 g = pow_5_12_16(_mm512_min_ps(f, _mm512_set1_ps(0x1.fffffep-1f)));
    __mmask16 m0, m1, m2;
    __m512i k0 = darkened_codes16(p, f, g, PIXEL16_OF(0), &m0);
    __m512i k1 = darkened_codes16(p + 16, f, g, PIXEL16_OF(1), &m1);
    __m512i k2 = darkened_codes16(p + 32, f, g, PIXEL16_OF(2), &m2);
    if (m0 | m1 | m2) {
        if (m0) k0 = darkened_resolve16(p, k0, m0, 0, f, table, firstCode, binThreshold);
        if (m1) k1 = darkened_resolve16(p + 16, k1, m1, 1, f, table, firstCode, binThreshold);
        if (m2) k2 = darkened_resolve16(p + 32, k2, m2, 2, f, table, firstCode, binThreshold);
    }
    // Codes are 0 … 255: vpmovdb's truncation keeps them. All three loads came first (in place too).
    _mm_storeu_si128((__m128i *)o, _mm512_cvtepi32_epi8(k0));
    _mm_storeu_si128((__m128i *)(o + 16), _mm512_cvtepi32_epi8(k1));
    _mm_storeu_si128((__m128i *)(o + 32), _mm512_cvtepi32_epi8(k2));
}

AVX512 void vignette_row8_avx512(const unsigned char *in, unsigned char *out, ptrdiff_t count, double x0, double cx,
                                 float dy2, float radius, float band, float k, int skipsInside, int srgb, const float *table,
                                 const unsigned char *codeTables, const unsigned char *firstCode, const float *binThreshold) {
    ptrdiff_t from[2], to[2];
    int spans = vignette_row_spans(in, out, count, x0, cx, dy2, radius, band, k, skipsInside, srgb, table, codeTables, firstCode,
                                   binThreshold, from, to);
    enum { RUN = 256 };
    __m512 smooth[RUN / 16];
    for (int b = 0; b < spans; b++)
        for (ptrdiff_t start = from[b]; start < to[b]; start += RUN) {
            ptrdiff_t end = to[b] - start < RUN ? to[b] : start + RUN;
            for (ptrdiff_t j = start; j < end; j += 16) smooth[(j - start) / 16] = vignette_s16(x0 + (double)j, cx, dy2, radius, band);
            for (ptrdiff_t i = start; i < end; i += 16)
                vignette_group16(in + 3 * i, out + 3 * i, end - i < 16 ? end - i : 16, smooth[(i - start) / 16], k, skipsInside, srgb,
                                 table, codeTables, firstCode, binThreshold);
        }
}

#endif
