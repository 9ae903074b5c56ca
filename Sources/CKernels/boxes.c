// AVX2 versions of motionBlur's box (an axis-aligned line, all taps equal): running sums in
// double precision, the same operations in the same order as MotionBlurKernel's Swift loops
// (see CKernels.h), so the levels agree bit for bit (VectorKernelTests).
#include "CKernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "target.h"

/// A pixel's four floats as four doubles.
INLINE AVX2 __m256d widen(const float *p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }

/// (float)(sum · scale) for one pixel.
INLINE AVX2 void narrow(float *out, __m256d sum, __m256d scale) { _mm_storeu_ps(out, _mm256_cvtpd_ps(_mm256_mul_pd(sum, scale))); }

/// One row's sum, the first pixel's window.
INLINE AVX2 __m256d window(const float *source, ptrdiff_t length) {
    __m256d sum = _mm256_setzero_pd();
    for (ptrdiff_t j = 0; j < length; j++) sum = _mm256_add_pd(sum, widen(source + 4 * j));
    return sum;
}

// Each pixel's sum depends on the one before (an add's latency a pixel), so two rows run
// side by side: two independent chains.
static AVX2 void box_rows_avx2(const float *const *sources, float *const *outs, ptrdiff_t rows, ptrdiff_t count,
                               ptrdiff_t length, double scale) {
    const __m256d s = _mm256_set1_pd(scale);
    const ptrdiff_t ahead = 4 * (length - 1);
    ptrdiff_t r = 0;
    for (; r + 2 <= rows; r += 2) {
        const float *a = sources[r], *b = sources[r + 1];
        float *oa = outs[r], *ob = outs[r + 1];
        __m256d sa = window(a, length), sb = window(b, length);
        narrow(oa, sa, s);
        narrow(ob, sb, s);
        for (ptrdiff_t i = 1; i < count; i++) {
            const float *pa = a + 4 * i, *pb = b + 4 * i;
            sa = _mm256_add_pd(sa, _mm256_sub_pd(widen(pa + ahead), widen(pa - 4)));
            sb = _mm256_add_pd(sb, _mm256_sub_pd(widen(pb + ahead), widen(pb - 4)));
            narrow(oa + 4 * i, sa, s);
            narrow(ob + 4 * i, sb, s);
        }
    }
    for (; r < rows; r++) {
        const float *a = sources[r];
        float *oa = outs[r];
        __m256d sa = window(a, length);
        narrow(oa, sa, s);
        for (ptrdiff_t i = 1; i < count; i++) {
            const float *pa = a + 4 * i;
            sa = _mm256_add_pd(sa, _mm256_sub_pd(widen(pa + ahead), widen(pa - 4)));
            narrow(oa + 4 * i, sa, s);
        }
    }
}

static AVX2 void box_accumulate_avx2(double *sums, const float *entering, const float *leaving, ptrdiff_t count) {
    if (!leaving) {
        for (ptrdiff_t i = 0; i < count; i++) _mm256_storeu_pd(sums + 4 * i, _mm256_add_pd(_mm256_loadu_pd(sums + 4 * i), widen(entering + 4 * i)));
        return;
    }
    for (ptrdiff_t i = 0; i < count; i++) {
        __m256d d = _mm256_sub_pd(widen(entering + 4 * i), widen(leaving + 4 * i));
        _mm256_storeu_pd(sums + 4 * i, _mm256_add_pd(_mm256_loadu_pd(sums + 4 * i), d));
    }
}

static AVX2 void box_store_avx2(const double *sums, double scale, float *out, ptrdiff_t count) {
    const __m256d s = _mm256_set1_pd(scale);
    for (ptrdiff_t i = 0; i < count; i++) narrow(out + 4 * i, _mm256_loadu_pd(sums + 4 * i), s);
}

// AVX-512 machines run the AVX2 loops: a pixel is four doubles, one AVX2 register.
void CKernels_boxRows(int level, const float *const *sources, float *const *outs, ptrdiff_t rows, ptrdiff_t count,
                      ptrdiff_t length, double scale) {
    (void)level;
    if (count > 0 && length > 0) box_rows_avx2(sources, outs, rows, count, length, scale);
}

void CKernels_boxAccumulate(int level, double *sums, const float *entering, const float *leaving, ptrdiff_t count) {
    (void)level;
    box_accumulate_avx2(sums, entering, leaving, count);
}

void CKernels_boxStore(int level, const double *sums, double scale, float *out, ptrdiff_t count) {
    (void)level;
    box_store_avx2(sums, scale, out, count);
}

#else
// Other processors run Lumen's Swift loops; these are never called there.
void CKernels_boxRows(int level, const float *const *sources, float *const *outs, ptrdiff_t rows, ptrdiff_t count,
                      ptrdiff_t length, double scale) {}
void CKernels_boxAccumulate(int level, double *sums, const float *entering, const float *leaving, ptrdiff_t count) {}
void CKernels_boxStore(int level, const double *sums, double scale, float *out, ptrdiff_t count) {}
#endif
