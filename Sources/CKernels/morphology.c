// AVX2 and AVX-512 versions of the running extremum that Lumen's morphology builds its
// dilations and erosions from (see CKernels.h and Morphology.swift).
#include "CKernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "target.h"

// One step of the fold: acc = combine(acc, x), where combine(a, b) is `a < b ? b : a` for a
// dilation and `b < a ? b : a` for an erosion: maxps/minps with the new value first, which
// is exactly that comparison and selection (a NaN in x is passed over, one in acc kept).
#define STEP(MAX, MIN, x, acc) ((dilate) ? MAX((x), (acc)) : MIN((x), (acc)))

INLINE AVX2 void extremum_avx2(int dilate, const float *const *rows, ptrdiff_t n, float *out, ptrdiff_t count) {
    ptrdiff_t f = 4 * count, i = 0;
    for (; i + 32 <= f; i += 32) {
        const float *r = rows[0] + i;
        __m256 a0 = _mm256_loadu_ps(r), a1 = _mm256_loadu_ps(r + 8), a2 = _mm256_loadu_ps(r + 16), a3 = _mm256_loadu_ps(r + 24);
        for (ptrdiff_t k = 1; k < n; k++) {
            const float *s = rows[k] + i;
            a0 = STEP(_mm256_max_ps, _mm256_min_ps, _mm256_loadu_ps(s), a0);
            a1 = STEP(_mm256_max_ps, _mm256_min_ps, _mm256_loadu_ps(s + 8), a1);
            a2 = STEP(_mm256_max_ps, _mm256_min_ps, _mm256_loadu_ps(s + 16), a2);
            a3 = STEP(_mm256_max_ps, _mm256_min_ps, _mm256_loadu_ps(s + 24), a3);
        }
        _mm256_storeu_ps(out + i, a0); _mm256_storeu_ps(out + i + 8, a1);
        _mm256_storeu_ps(out + i + 16, a2); _mm256_storeu_ps(out + i + 24, a3);
    }
    for (; i + 8 <= f; i += 8) {
        __m256 a = _mm256_loadu_ps(rows[0] + i);
        for (ptrdiff_t k = 1; k < n; k++) a = STEP(_mm256_max_ps, _mm256_min_ps, _mm256_loadu_ps(rows[k] + i), a);
        _mm256_storeu_ps(out + i, a);
    }
    for (; i < f; i += 4) {
        __m128 a = _mm_loadu_ps(rows[0] + i);
        for (ptrdiff_t k = 1; k < n; k++) a = STEP(_mm_max_ps, _mm_min_ps, _mm_loadu_ps(rows[k] + i), a);
        _mm_storeu_ps(out + i, a);
    }
}

INLINE AVX512 void extremum_avx512(int dilate, const float *const *rows, ptrdiff_t n, float *out, ptrdiff_t count) {
    ptrdiff_t f = 4 * count, i = 0;
    for (; i + 64 <= f; i += 64) {
        const float *r = rows[0] + i;
        __m512 a0 = _mm512_loadu_ps(r), a1 = _mm512_loadu_ps(r + 16), a2 = _mm512_loadu_ps(r + 32), a3 = _mm512_loadu_ps(r + 48);
        for (ptrdiff_t k = 1; k < n; k++) {
            const float *s = rows[k] + i;
            a0 = STEP(_mm512_max_ps, _mm512_min_ps, _mm512_loadu_ps(s), a0);
            a1 = STEP(_mm512_max_ps, _mm512_min_ps, _mm512_loadu_ps(s + 16), a1);
            a2 = STEP(_mm512_max_ps, _mm512_min_ps, _mm512_loadu_ps(s + 32), a2);
            a3 = STEP(_mm512_max_ps, _mm512_min_ps, _mm512_loadu_ps(s + 48), a3);
        }
        _mm512_storeu_ps(out + i, a0); _mm512_storeu_ps(out + i + 16, a1);
        _mm512_storeu_ps(out + i + 32, a2); _mm512_storeu_ps(out + i + 48, a3);
    }
    for (; i + 16 <= f; i += 16) {
        __m512 a = _mm512_loadu_ps(rows[0] + i);
        for (ptrdiff_t k = 1; k < n; k++) a = STEP(_mm512_max_ps, _mm512_min_ps, _mm512_loadu_ps(rows[k] + i), a);
        _mm512_storeu_ps(out + i, a);
    }
    for (; i < f; i += 4) {
        __m128 a = _mm_loadu_ps(rows[0] + i);
        for (ptrdiff_t k = 1; k < n; k++) a = STEP(_mm_max_ps, _mm_min_ps, _mm_loadu_ps(rows[k] + i), a);
        _mm_storeu_ps(out + i, a);
    }
}

// Each is specialised for dilation and erosion by the inliner (`dilate` is a constant there).
static AVX2 void maximum_avx2(const float *const *rows, ptrdiff_t n, float *out, ptrdiff_t count) { extremum_avx2(1, rows, n, out, count); }
static AVX2 void minimum_avx2(const float *const *rows, ptrdiff_t n, float *out, ptrdiff_t count) { extremum_avx2(0, rows, n, out, count); }
static AVX512 void maximum_avx512(const float *const *rows, ptrdiff_t n, float *out, ptrdiff_t count) { extremum_avx512(1, rows, n, out, count); }
static AVX512 void minimum_avx512(const float *const *rows, ptrdiff_t n, float *out, ptrdiff_t count) { extremum_avx512(0, rows, n, out, count); }

typedef void (*fold_fn)(const float *const *rows, ptrdiff_t n, float *out, ptrdiff_t count);

static fold_fn fold_for(int level, int dilate) {
    if (level >= CKERNELS_AVX512) return dilate ? maximum_avx512 : minimum_avx512;
    return dilate ? maximum_avx2 : minimum_avx2;
}

void CKernels_extremum(int level, int dilate, const float *const *rows, ptrdiff_t n, float *out, ptrdiff_t count) {
    fold_for(level, dilate)(rows, n, out, count);
}

#else
void CKernels_extremum(int level, int dilate, const float *const *rows, ptrdiff_t n, float *out, ptrdiff_t count) {}
#endif
