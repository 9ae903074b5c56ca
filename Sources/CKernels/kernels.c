// AVX2 + FMA and AVX-512 versions of the separable inner loops (see CKernels.h).
// Each function is compiled for its instruction set alone through a target attribute;
// the rest of the binary stays on the x86-64 baseline.
#include "CKernels.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

#include "target.h"

static unsigned long long xgetbv0(void) {
    unsigned eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((unsigned long long)edx << 32) | eax;
}

int CKernels_level(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return CKERNELS_BASELINE;
    int fma = (c >> 12) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, f16c = (c >> 29) & 1;
    if (!(fma && osxsave && avx && f16c)) return CKERNELS_BASELINE;
    unsigned long long xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6) return CKERNELS_BASELINE;                // the OS saves XMM and YMM
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return CKERNELS_BASELINE;
    int avx2 = (b >> 5) & 1, avx512f = (b >> 16) & 1;
    if (!avx2) return CKERNELS_BASELINE;
    if (avx512f && (xcr0 & 0xe6) == 0xe6) return CKERNELS_AVX512;    // … and the opmask and ZMM state
    return CKERNELS_AVX2;
}

// The tap k of output pixel i is at rows[k] + 4i (a vertical pass) or at source + 4(i + k)
// (a horizontal one): the two passes share one body, specialised by the inliner.
#define TAP(k) (rows ? rows[k] : source + 4 * (k))

// ---- AVX2 + FMA: 8 floats (2 pixels) per register ----

INLINE AVX2 void convolve_avx2(const float *const *rows, const float *source, const float *w, ptrdiff_t n,
                                float *out, ptrdiff_t count, ptrdiff_t from) {
    ptrdiff_t f = 4 * count, i = from;
    for (; i + 64 <= f; i += 64) {
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
        for (ptrdiff_t k = 0; k < n; k++) {
            const float *s = TAP(k) + i;
            __m256 wk = _mm256_set1_ps(w[k]);
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(s), wk, a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(s + 8), wk, a1);
            a2 = _mm256_fmadd_ps(_mm256_loadu_ps(s + 16), wk, a2);
            a3 = _mm256_fmadd_ps(_mm256_loadu_ps(s + 24), wk, a3);
            a4 = _mm256_fmadd_ps(_mm256_loadu_ps(s + 32), wk, a4);
            a5 = _mm256_fmadd_ps(_mm256_loadu_ps(s + 40), wk, a5);
            a6 = _mm256_fmadd_ps(_mm256_loadu_ps(s + 48), wk, a6);
            a7 = _mm256_fmadd_ps(_mm256_loadu_ps(s + 56), wk, a7);
        }
        _mm256_storeu_ps(out + i, a0); _mm256_storeu_ps(out + i + 8, a1);
        _mm256_storeu_ps(out + i + 16, a2); _mm256_storeu_ps(out + i + 24, a3);
        _mm256_storeu_ps(out + i + 32, a4); _mm256_storeu_ps(out + i + 40, a5);
        _mm256_storeu_ps(out + i + 48, a6); _mm256_storeu_ps(out + i + 56, a7);
    }
    for (; i + 8 <= f; i += 8) {
        __m256 a = _mm256_setzero_ps();
        for (ptrdiff_t k = 0; k < n; k++) a = _mm256_fmadd_ps(_mm256_loadu_ps(TAP(k) + i), _mm256_set1_ps(w[k]), a);
        _mm256_storeu_ps(out + i, a);
    }
    for (; i < f; i += 4) {
        __m128 a = _mm_setzero_ps();
        for (ptrdiff_t k = 0; k < n; k++) a = _mm_fmadd_ps(_mm_loadu_ps(TAP(k) + i), _mm_set1_ps(w[k]), a);
        _mm_storeu_ps(out + i, a);
    }
}

INLINE AVX2 void convolve_symmetric_avx2(const float *const *rows, const float *source, const float *w, ptrdiff_t n,
                                          float *out, ptrdiff_t count, ptrdiff_t from) {
    ptrdiff_t f = 4 * count, i = from, c = n / 2;
    for (; i + 64 <= f; i += 64) {
        const float *m = TAP(c) + i;
        __m256 wc = _mm256_set1_ps(w[c]);
        __m256 a0 = _mm256_mul_ps(_mm256_loadu_ps(m), wc), a1 = _mm256_mul_ps(_mm256_loadu_ps(m + 8), wc);
        __m256 a2 = _mm256_mul_ps(_mm256_loadu_ps(m + 16), wc), a3 = _mm256_mul_ps(_mm256_loadu_ps(m + 24), wc);
        __m256 a4 = _mm256_mul_ps(_mm256_loadu_ps(m + 32), wc), a5 = _mm256_mul_ps(_mm256_loadu_ps(m + 40), wc);
        __m256 a6 = _mm256_mul_ps(_mm256_loadu_ps(m + 48), wc), a7 = _mm256_mul_ps(_mm256_loadu_ps(m + 56), wc);
        for (ptrdiff_t k = 0; k < c; k++) {
            const float *p = TAP(k) + i, *q = TAP(n - 1 - k) + i;
            __m256 wk = _mm256_set1_ps(w[k]);
            a0 = _mm256_fmadd_ps(_mm256_add_ps(_mm256_loadu_ps(p), _mm256_loadu_ps(q)), wk, a0);
            a1 = _mm256_fmadd_ps(_mm256_add_ps(_mm256_loadu_ps(p + 8), _mm256_loadu_ps(q + 8)), wk, a1);
            a2 = _mm256_fmadd_ps(_mm256_add_ps(_mm256_loadu_ps(p + 16), _mm256_loadu_ps(q + 16)), wk, a2);
            a3 = _mm256_fmadd_ps(_mm256_add_ps(_mm256_loadu_ps(p + 24), _mm256_loadu_ps(q + 24)), wk, a3);
            a4 = _mm256_fmadd_ps(_mm256_add_ps(_mm256_loadu_ps(p + 32), _mm256_loadu_ps(q + 32)), wk, a4);
            a5 = _mm256_fmadd_ps(_mm256_add_ps(_mm256_loadu_ps(p + 40), _mm256_loadu_ps(q + 40)), wk, a5);
            a6 = _mm256_fmadd_ps(_mm256_add_ps(_mm256_loadu_ps(p + 48), _mm256_loadu_ps(q + 48)), wk, a6);
            a7 = _mm256_fmadd_ps(_mm256_add_ps(_mm256_loadu_ps(p + 56), _mm256_loadu_ps(q + 56)), wk, a7);
        }
        _mm256_storeu_ps(out + i, a0); _mm256_storeu_ps(out + i + 8, a1);
        _mm256_storeu_ps(out + i + 16, a2); _mm256_storeu_ps(out + i + 24, a3);
        _mm256_storeu_ps(out + i + 32, a4); _mm256_storeu_ps(out + i + 40, a5);
        _mm256_storeu_ps(out + i + 48, a6); _mm256_storeu_ps(out + i + 56, a7);
    }
    for (; i + 8 <= f; i += 8) {
        __m256 a = _mm256_mul_ps(_mm256_loadu_ps(TAP(c) + i), _mm256_set1_ps(w[c]));
        for (ptrdiff_t k = 0; k < c; k++)
            a = _mm256_fmadd_ps(_mm256_add_ps(_mm256_loadu_ps(TAP(k) + i), _mm256_loadu_ps(TAP(n - 1 - k) + i)), _mm256_set1_ps(w[k]), a);
        _mm256_storeu_ps(out + i, a);
    }
    for (; i < f; i += 4) {
        __m128 a = _mm_mul_ps(_mm_loadu_ps(TAP(c) + i), _mm_set1_ps(w[c]));
        for (ptrdiff_t k = 0; k < c; k++)
            a = _mm_fmadd_ps(_mm_add_ps(_mm_loadu_ps(TAP(k) + i), _mm_loadu_ps(TAP(n - 1 - k) + i)), _mm_set1_ps(w[k]), a);
        _mm_storeu_ps(out + i, a);
    }
}

// ---- AVX-512: 16 floats (4 pixels) per register; the tails go to the AVX2 body ----

INLINE AVX512 void convolve_avx512(const float *const *rows, const float *source, const float *w, ptrdiff_t n,
                                   float *out, ptrdiff_t count, ptrdiff_t from) {
    ptrdiff_t f = 4 * count, i = from;
    for (; i + 64 <= f; i += 64) {
        __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (ptrdiff_t k = 0; k < n; k++) {
            const float *s = TAP(k) + i;
            __m512 wk = _mm512_set1_ps(w[k]);
            a0 = _mm512_fmadd_ps(_mm512_loadu_ps(s), wk, a0);
            a1 = _mm512_fmadd_ps(_mm512_loadu_ps(s + 16), wk, a1);
            a2 = _mm512_fmadd_ps(_mm512_loadu_ps(s + 32), wk, a2);
            a3 = _mm512_fmadd_ps(_mm512_loadu_ps(s + 48), wk, a3);
        }
        _mm512_storeu_ps(out + i, a0); _mm512_storeu_ps(out + i + 16, a1);
        _mm512_storeu_ps(out + i + 32, a2); _mm512_storeu_ps(out + i + 48, a3);
    }
    if (i < f) convolve_avx2(rows, source, w, n, out, count, i);
}

INLINE AVX512 void convolve_symmetric_avx512(const float *const *rows, const float *source, const float *w, ptrdiff_t n,
                                             float *out, ptrdiff_t count, ptrdiff_t from) {
    ptrdiff_t f = 4 * count, i = from, c = n / 2;
    for (; i + 64 <= f; i += 64) {
        const float *m = TAP(c) + i;
        __m512 wc = _mm512_set1_ps(w[c]);
        __m512 a0 = _mm512_mul_ps(_mm512_loadu_ps(m), wc), a1 = _mm512_mul_ps(_mm512_loadu_ps(m + 16), wc);
        __m512 a2 = _mm512_mul_ps(_mm512_loadu_ps(m + 32), wc), a3 = _mm512_mul_ps(_mm512_loadu_ps(m + 48), wc);
        for (ptrdiff_t k = 0; k < c; k++) {
            const float *p = TAP(k) + i, *q = TAP(n - 1 - k) + i;
            __m512 wk = _mm512_set1_ps(w[k]);
            a0 = _mm512_fmadd_ps(_mm512_add_ps(_mm512_loadu_ps(p), _mm512_loadu_ps(q)), wk, a0);
            a1 = _mm512_fmadd_ps(_mm512_add_ps(_mm512_loadu_ps(p + 16), _mm512_loadu_ps(q + 16)), wk, a1);
            a2 = _mm512_fmadd_ps(_mm512_add_ps(_mm512_loadu_ps(p + 32), _mm512_loadu_ps(q + 32)), wk, a2);
            a3 = _mm512_fmadd_ps(_mm512_add_ps(_mm512_loadu_ps(p + 48), _mm512_loadu_ps(q + 48)), wk, a3);
        }
        _mm512_storeu_ps(out + i, a0); _mm512_storeu_ps(out + i + 16, a1);
        _mm512_storeu_ps(out + i + 32, a2); _mm512_storeu_ps(out + i + 48, a3);
    }
    if (i < f) convolve_symmetric_avx2(rows, source, w, n, out, count, i);
}

// ---- Resampling along a row: each output pixel has its own first tap and weights ----

INLINE AVX2 __m128 resample_clamped(const float *source, ptrdiff_t first, const float *w, ptrdiff_t n, ptrdiff_t lo, ptrdiff_t hi) {
    __m128 a = _mm_setzero_ps();
    for (ptrdiff_t k = 0; k < n; k++) {
        ptrdiff_t x = first + k;
        x = x < lo ? lo : (x > hi ? hi : x);
        a = _mm_fmadd_ps(_mm_loadu_ps(source + 4 * x), _mm_set1_ps(w[k]), a);
    }
    return a;
}

// An unclamped output pixel sums its taps in pairs into one 256-bit accumulator (taps k
// and k+1 in the halves, k = 0, 2, 4, …), adds the halves, then the odd last tap with one
// more fused multiply-add. `resample_pair` spreads a pair of weights over the halves' lanes:
// both broadcast as one 64-bit value (a load), then an in-lane pick (one shuffle; a
// cross-lane permute of a 64-bit load took two).
INLINE AVX2 __m256 resample_pair(const float *w, __m256i spread) {
    return _mm256_permutevar_ps(_mm256_castpd_ps(_mm256_broadcast_sd((const double *)w)), spread);
}

INLINE AVX2 __m128 resample_one(const float *p, const float *w, ptrdiff_t n, __m256i spread) {
    __m256 a = _mm256_setzero_ps();
    ptrdiff_t k = 0;
    for (; k + 2 <= n; k += 2) a = _mm256_fmadd_ps(_mm256_loadu_ps(p + 4 * k), resample_pair(w + k, spread), a);
    __m128 sum = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    if (k < n) sum = _mm_fmadd_ps(_mm_loadu_ps(p + 4 * k), _mm_set1_ps(w[k]), sum);
    return sum;
}

// Two pixels' accumulators to their sums, pixel a in the low half: the same additions as
// resample_one's.
INLINE AVX2 __m256 resample_halves(__m256 a, __m256 b) {
    return _mm256_add_ps(_mm256_permute2f128_ps(a, b, 0x20), _mm256_permute2f128_ps(a, b, 0x31));
}

// Whether any of four pixels' taps (first ones `f`) reach past lo…hi.
INLINE int resample_any_clamped(const ptrdiff_t *f, ptrdiff_t n, ptrdiff_t lo, ptrdiff_t hi) {
    return f[0] < lo || f[1] < lo || f[2] < lo || f[3] < lo ||
           f[0] + n - 1 > hi || f[1] + n - 1 > hi || f[2] + n - 1 > hi || f[3] + n - 1 > hi;
}

// One pixel on its own: resample_one inside lo…hi, resample_clamped across an end.
INLINE AVX2 __m128 resample_pixel(const float *source, ptrdiff_t first, const float *w, ptrdiff_t n, ptrdiff_t lo,
                                  ptrdiff_t hi, __m256i spread) {
    return first >= lo && first + n - 1 <= hi ? resample_one(source + 4 * first, w, n, spread)
                                              : resample_clamped(source, first, w, n, lo, hi);
}

static AVX2 void resample_row_avx2(const float *source, const ptrdiff_t *starts, const float *w, ptrdiff_t n,
                                   ptrdiff_t lo, ptrdiff_t hi, float *out, ptrdiff_t count) {
    const __m256i spread = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    ptrdiff_t i = 0;
    // Four pixels at a time, each its own chain of multiply-adds, so the chains overlap
    // (one pixel at a time waited on its chain's latency: 3.75 cycles a tap at 10 taps).
    // Each pixel's sum is the same sequence as resample_one's, so the result does not
    // depend on where a tile or row starts.
    for (; i + 4 <= count; i += 4) {
        const ptrdiff_t *f = starts + i;
        if (resample_any_clamped(f, n, lo, hi)) {
            for (ptrdiff_t j = i; j < i + 4; j++) _mm_storeu_ps(out + 4 * j, resample_pixel(source, starts[j], w + j * n, n, lo, hi, spread));
            continue;
        }
        const float *p0 = source + 4 * f[0], *p1 = source + 4 * f[1], *p2 = source + 4 * f[2], *p3 = source + 4 * f[3];
        const float *w0 = w + i * n, *w1 = w0 + n, *w2 = w1 + n, *w3 = w2 + n;
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        ptrdiff_t k = 0;
        for (; k + 2 <= n; k += 2) {
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(p0 + 4 * k), resample_pair(w0 + k, spread), a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(p1 + 4 * k), resample_pair(w1 + k, spread), a1);
            a2 = _mm256_fmadd_ps(_mm256_loadu_ps(p2 + 4 * k), resample_pair(w2 + k, spread), a2);
            a3 = _mm256_fmadd_ps(_mm256_loadu_ps(p3 + 4 * k), resample_pair(w3 + k, spread), a3);
        }
        __m256 s01 = resample_halves(a0, a1), s23 = resample_halves(a2, a3);
        if (k < n) {
            __m256 x01 = _mm256_set_m128(_mm_loadu_ps(p1 + 4 * k), _mm_loadu_ps(p0 + 4 * k));
            __m256 x23 = _mm256_set_m128(_mm_loadu_ps(p3 + 4 * k), _mm_loadu_ps(p2 + 4 * k));
            s01 = _mm256_fmadd_ps(x01, _mm256_set_m128(_mm_set1_ps(w1[k]), _mm_set1_ps(w0[k])), s01);
            s23 = _mm256_fmadd_ps(x23, _mm256_set_m128(_mm_set1_ps(w3[k]), _mm_set1_ps(w2[k])), s23);
        }
        _mm256_storeu_ps(out + 4 * i, s01);
        _mm256_storeu_ps(out + 4 * i + 8, s23);
    }
    for (; i < count; i++) _mm_storeu_ps(out + 4 * i, resample_pixel(source, starts[i], w + i * n, n, lo, hi, spread));
}

// Four rows at a time: a tile's rows share their outputs' weights, so each pair's spread
// weights are made once for the four (a broadcast and a shuffle), where a row at a time
// made them again for every row. Each pixel's sum is resample_one's, operation for
// operation; pixels whose taps reach past lo…hi go to the one-row path.
static AVX2 void resample_rows4_avx2(const float *source, ptrdiff_t sourceStride, const ptrdiff_t *starts, const float *w,
                                     ptrdiff_t n, ptrdiff_t lo, ptrdiff_t hi, float *out, ptrdiff_t outStride, ptrdiff_t count) {
    const __m256i spread = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const float *s1 = source + sourceStride, *s2 = s1 + sourceStride, *s3 = s2 + sourceStride;
    for (ptrdiff_t i = 0; i < count; i++) {
        const ptrdiff_t first = starts[i];
        const float *wi = w + i * n;
        if (first < lo || first + n - 1 > hi) {
            for (ptrdiff_t r = 0; r < 4; r++)
                _mm_storeu_ps(out + r * outStride + 4 * i, resample_clamped(source + r * sourceStride, first, wi, n, lo, hi));
            continue;
        }
        const ptrdiff_t at = 4 * first;
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        ptrdiff_t k = 0;
        for (; k + 2 <= n; k += 2) {
            __m256 e = resample_pair(wi + k, spread);
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(source + at + 4 * k), e, a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(s1 + at + 4 * k), e, a1);
            a2 = _mm256_fmadd_ps(_mm256_loadu_ps(s2 + at + 4 * k), e, a2);
            a3 = _mm256_fmadd_ps(_mm256_loadu_ps(s3 + at + 4 * k), e, a3);
        }
        __m256 s01 = resample_halves(a0, a1), s23 = resample_halves(a2, a3);
        if (k < n) {
            __m256 odd = _mm256_set1_ps(wi[k]);
            s01 = _mm256_fmadd_ps(_mm256_set_m128(_mm_loadu_ps(s1 + at + 4 * k), _mm_loadu_ps(source + at + 4 * k)), odd, s01);
            s23 = _mm256_fmadd_ps(_mm256_set_m128(_mm_loadu_ps(s3 + at + 4 * k), _mm_loadu_ps(s2 + at + 4 * k)), odd, s23);
        }
        _mm_storeu_ps(out + 4 * i, _mm256_castps256_ps128(s01));
        _mm_storeu_ps(out + outStride + 4 * i, _mm256_extractf128_ps(s01, 1));
        _mm_storeu_ps(out + 2 * outStride + 4 * i, _mm256_castps256_ps128(s23));
        _mm_storeu_ps(out + 3 * outStride + 4 * i, _mm256_extractf128_ps(s23, 1));
    }
}

// Taps whose weights repeat every output pixel (P = 1: a whole-factor reduction) or every
// two (P = 2: an exact 2× enlargement): the pairs' spread weights are made once for the row,
// not per pixel (a load, a broadcast and a shuffle a pair), and each pixel's sum is
// otherwise resample_one's, operation for operation. `N` and `P` are constants at each
// call, so the registers are unrolled: N / 2 of them for P = 1, N for P = 2.
INLINE AVX2 void resample_periodic(const float *source, const ptrdiff_t *starts, const float *w, const ptrdiff_t N,
                                   const ptrdiff_t P, ptrdiff_t lo, ptrdiff_t hi, float *out, ptrdiff_t count) {
    const __m256i spread = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const float *wb = w + (P - 1) * N;         // odd pixels' weights
    __m256 ea[8], eb[8];                       // even and odd pixels' pairs, spread
    for (ptrdiff_t j = 0; 2 * j + 2 <= N; j++) {
        ea[j] = resample_pair(w + 2 * j, spread);
        eb[j] = P == 1 ? ea[j] : resample_pair(wb + 2 * j, spread);
    }
    ptrdiff_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const ptrdiff_t *f = starts + i;
        if (resample_any_clamped(f, N, lo, hi)) {
            for (ptrdiff_t j = i; j < i + 4; j++) _mm_storeu_ps(out + 4 * j, resample_pixel(source, starts[j], j & 1 ? wb : w, N, lo, hi, spread));
            continue;
        }
        const float *p0 = source + 4 * f[0], *p1 = source + 4 * f[1], *p2 = source + 4 * f[2], *p3 = source + 4 * f[3];
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (ptrdiff_t j = 0; 2 * j + 2 <= N; j++) {
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(p0 + 8 * j), ea[j], a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(p1 + 8 * j), eb[j], a1);
            a2 = _mm256_fmadd_ps(_mm256_loadu_ps(p2 + 8 * j), ea[j], a2);
            a3 = _mm256_fmadd_ps(_mm256_loadu_ps(p3 + 8 * j), eb[j], a3);
        }
        __m256 s01 = resample_halves(a0, a1), s23 = resample_halves(a2, a3);
        if (N & 1) {
            ptrdiff_t k = N - 1;
            __m256 odd = _mm256_set_m128(_mm_set1_ps(wb[k]), _mm_set1_ps(w[k]));
            s01 = _mm256_fmadd_ps(_mm256_set_m128(_mm_loadu_ps(p1 + 4 * k), _mm_loadu_ps(p0 + 4 * k)), odd, s01);
            s23 = _mm256_fmadd_ps(_mm256_set_m128(_mm_loadu_ps(p3 + 4 * k), _mm_loadu_ps(p2 + 4 * k)), odd, s23);
        }
        _mm256_storeu_ps(out + 4 * i, s01);
        _mm256_storeu_ps(out + 4 * i + 8, s23);
    }
    for (; i < count; i++) _mm_storeu_ps(out + 4 * i, resample_pixel(source, starts[i], i & 1 ? wb : w, N, lo, hi, spread));
}

#define PERIODIC(n, p) case n: resample_periodic(source, starts, w, n, p, lo, hi, out, count); return
static AVX2 void resample_row_periodic_avx2(const float *source, const ptrdiff_t *starts, const float *w, ptrdiff_t n,
                                            ptrdiff_t period, ptrdiff_t lo, ptrdiff_t hi, float *out, ptrdiff_t count) {
    if (period == 1) {
        switch (n) {
        PERIODIC(3, 1); PERIODIC(4, 1); PERIODIC(5, 1); PERIODIC(6, 1); PERIODIC(7, 1); PERIODIC(8, 1); PERIODIC(9, 1);
        PERIODIC(10, 1); PERIODIC(11, 1); PERIODIC(12, 1); PERIODIC(13, 1); PERIODIC(14, 1); PERIODIC(15, 1); PERIODIC(16, 1);
        }
    } else if (period == 2) {
        switch (n) { PERIODIC(3, 2); PERIODIC(4, 2); PERIODIC(5, 2); PERIODIC(6, 2); PERIODIC(7, 2); PERIODIC(8, 2); }
    }
    resample_row_avx2(source, starts, w, n, lo, hi, out, count);
}
#undef PERIODIC

// ---- A vertical pass over a block of output rows ----
// Column strips of 16 pixels, each taken down every output row before the next: the
// window of input rows a strip needs (n rows of 256 bytes) stays in the first-level
// cache, where a whole row at a time would read every input row n times from the second.

#define STRIP 64

// The next strip's input rows are fetched while this one is computed (a row per output
// row, and the window's last n − 1 rows with the first ones): its lines are a row stride
// apart, which the hardware's prefetchers do not follow.
INLINE void columns_prefetch(const float *const *rows, ptrdiff_t n, ptrdiff_t height, ptrdiff_t y, ptrdiff_t next) {
    const char *p = (const char *)(rows[y] + next);
    _mm_prefetch(p, _MM_HINT_T0); _mm_prefetch(p + 64, _MM_HINT_T0);
    _mm_prefetch(p + 128, _MM_HINT_T0); _mm_prefetch(p + 192, _MM_HINT_T0);
    if (y < n - 1) {
        const char *q = (const char *)(rows[height + y] + next);
        _mm_prefetch(q, _MM_HINT_T0); _mm_prefetch(q + 64, _MM_HINT_T0);
        _mm_prefetch(q + 128, _MM_HINT_T0); _mm_prefetch(q + 192, _MM_HINT_T0);
    }
}

static AVX2 void columns_block_avx2(const float *const *rows, const float *w, ptrdiff_t n, int symmetric,
                                    float *out, ptrdiff_t stride, ptrdiff_t height, ptrdiff_t count) {
    ptrdiff_t f = 4 * count;
    for (ptrdiff_t i = 0; i < f; i += STRIP) {
        ptrdiff_t end = (i + STRIP < f ? i + STRIP : f) / 4;
        for (ptrdiff_t y = 0; y < height; y++) {
            if (i + STRIP < f) columns_prefetch(rows, n, height, y, i + STRIP);
            if (symmetric) convolve_symmetric_avx2(rows + y, NULL, w, n, out + y * stride, end, i);
            else convolve_avx2(rows + y, NULL, w, n, out + y * stride, end, i);
        }
    }
}

static AVX512 void columns_block_avx512(const float *const *rows, const float *w, ptrdiff_t n, int symmetric,
                                        float *out, ptrdiff_t stride, ptrdiff_t height, ptrdiff_t count) {
    ptrdiff_t f = 4 * count;
    for (ptrdiff_t i = 0; i < f; i += STRIP) {
        ptrdiff_t end = (i + STRIP < f ? i + STRIP : f) / 4;
        for (ptrdiff_t y = 0; y < height; y++) {
            if (i + STRIP < f) columns_prefetch(rows, n, height, y, i + STRIP);
            if (symmetric) convolve_symmetric_avx512(rows + y, NULL, w, n, out + y * stride, end, i);
            else convolve_avx512(rows + y, NULL, w, n, out + y * stride, end, i);
        }
    }
}

// ---- Entry points ----

static AVX2 void columns_avx2(const float *const *rows, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {
    convolve_avx2(rows, NULL, w, n, out, count, 0);
}
static AVX2 void columns_symmetric_avx2(const float *const *rows, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {
    convolve_symmetric_avx2(rows, NULL, w, n, out, count, 0);
}
static AVX2 void row_avx2(const float *source, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {
    convolve_avx2(NULL, source, w, n, out, count, 0);
}
static AVX2 void row_symmetric_avx2(const float *source, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {
    convolve_symmetric_avx2(NULL, source, w, n, out, count, 0);
}
static AVX512 void columns_avx512(const float *const *rows, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {
    convolve_avx512(rows, NULL, w, n, out, count, 0);
}
static AVX512 void columns_symmetric_avx512(const float *const *rows, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {
    convolve_symmetric_avx512(rows, NULL, w, n, out, count, 0);
}
static AVX512 void row_avx512(const float *source, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {
    convolve_avx512(NULL, source, w, n, out, count, 0);
}
static AVX512 void row_symmetric_avx512(const float *source, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {
    convolve_symmetric_avx512(NULL, source, w, n, out, count, 0);
}

void CKernels_convolveColumns(int level, const float *const *rows, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {
    if (level >= CKERNELS_AVX512) columns_avx512(rows, w, n, out, count);
    else columns_avx2(rows, w, n, out, count);
}
void CKernels_convolveColumnsSymmetric(int level, const float *const *rows, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {
    if (level >= CKERNELS_AVX512) columns_symmetric_avx512(rows, w, n, out, count);
    else columns_symmetric_avx2(rows, w, n, out, count);
}
void CKernels_convolveRow(int level, const float *source, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {
    if (level >= CKERNELS_AVX512) row_avx512(source, w, n, out, count);
    else row_avx2(source, w, n, out, count);
}
void CKernels_convolveRowSymmetric(int level, const float *source, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {
    if (level >= CKERNELS_AVX512) row_symmetric_avx512(source, w, n, out, count);
    else row_symmetric_avx2(source, w, n, out, count);
}
void CKernels_convolveColumnsBlock(int level, const float *const *rows, const float *w, ptrdiff_t n, int symmetric,
                                   float *out, ptrdiff_t stride, ptrdiff_t height, ptrdiff_t count) {
    if (level >= CKERNELS_AVX512) columns_block_avx512(rows, w, n, symmetric, out, stride, height, count);
    else columns_block_avx2(rows, w, n, symmetric, out, stride, height, count);
}
void CKernels_resampleRow(int level, const float *source, const ptrdiff_t *starts, const float *w, ptrdiff_t n,
                          ptrdiff_t lo, ptrdiff_t hi, float *out, ptrdiff_t count) {
    (void)level;
    resample_row_avx2(source, starts, w, n, lo, hi, out, count);
}
void CKernels_resampleRowPeriodic(int level, const float *source, const ptrdiff_t *starts, const float *w, ptrdiff_t n,
                                  ptrdiff_t period, ptrdiff_t lo, ptrdiff_t hi, float *out, ptrdiff_t count) {
    (void)level;
    resample_row_periodic_avx2(source, starts, w, n, period, lo, hi, out, count);
}
void CKernels_resampleRows(int level, const float *source, ptrdiff_t sourceStride, const ptrdiff_t *starts, const float *w,
                           ptrdiff_t n, ptrdiff_t lo, ptrdiff_t hi, float *out, ptrdiff_t outStride, ptrdiff_t count, ptrdiff_t rows) {
    (void)level;
    ptrdiff_t r = 0;
    for (; r + 4 <= rows; r += 4)
        resample_rows4_avx2(source + r * sourceStride, sourceStride, starts, w, n, lo, hi, out + r * outStride, outStride, count);
    for (; r < rows; r++) resample_row_avx2(source + r * sourceStride, starts, w, n, lo, hi, out + r * outStride, count);
}

#else
// Other processors run Lumen's Swift loops; these are never called there.
int CKernels_level(void) { return CKERNELS_BASELINE; }
void CKernels_convolveColumns(int level, const float *const *rows, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {}
void CKernels_convolveColumnsSymmetric(int level, const float *const *rows, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {}
void CKernels_convolveRow(int level, const float *source, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {}
void CKernels_convolveRowSymmetric(int level, const float *source, const float *w, ptrdiff_t n, float *out, ptrdiff_t count) {}
void CKernels_convolveColumnsBlock(int level, const float *const *rows, const float *w, ptrdiff_t n, int symmetric,
                                   float *out, ptrdiff_t stride, ptrdiff_t height, ptrdiff_t count) {}
void CKernels_resampleRow(int level, const float *source, const ptrdiff_t *starts, const float *w, ptrdiff_t n,
                          ptrdiff_t lo, ptrdiff_t hi, float *out, ptrdiff_t count) {}
void CKernels_resampleRowPeriodic(int level, const float *source, const ptrdiff_t *starts, const float *w, ptrdiff_t n,
                                  ptrdiff_t period, ptrdiff_t lo, ptrdiff_t hi, float *out, ptrdiff_t count) {}
void CKernels_resampleRows(int level, const float *source, ptrdiff_t sourceStride, const ptrdiff_t *starts, const float *w,
                           ptrdiff_t n, ptrdiff_t lo, ptrdiff_t hi, float *out, ptrdiff_t outStride, ptrdiff_t count, ptrdiff_t rows) {}
#endif
