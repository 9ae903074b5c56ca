// BoxShrink's block averages (the large blur's first stage) with AVX2: the same operations
// in the same order as its Swift loop (see CKernels.h), so the levels agree bit for bit.
#include "CKernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "target.h"

// k = 2, two output pixels a register. Per row, pixels 2i and 2i + 1 are added (from zero,
// as the Swift loop's sum starts: 0 + (−0) is +0), then the two rows' sums, and the total is
// scaled. (The Swift loop adds the first row's sum to zero too; a sum from zero is never −0,
// so that addition changes nothing.)
INLINE AVX2 __m256 pairs(const float *row) {
    __m256 a = _mm256_loadu_ps(row), b = _mm256_loadu_ps(row + 8);   // pixels 0, 1 and 2, 3
    __m256 even = _mm256_permute2f128_ps(a, b, 0x20), odd = _mm256_permute2f128_ps(a, b, 0x31);
    return _mm256_add_ps(_mm256_add_ps(_mm256_setzero_ps(), even), odd);
}

static AVX2 void shrink2_avx2(const float *const *rows, float scale, float *out, ptrdiff_t count) {
    const __m256 s = _mm256_set1_ps(scale);
    ptrdiff_t i = 0;
    for (; i + 2 <= count; i += 2) {
        __m256 total = _mm256_add_ps(pairs(rows[0] + 8 * i), pairs(rows[1] + 8 * i));
        _mm256_storeu_ps(out + 4 * i, _mm256_mul_ps(total, s));
    }
    for (; i < count; i++) {
        __m128 total = _mm_setzero_ps();
        for (int r = 0; r < 2; r++) {
            const float *p = rows[r] + 8 * i;
            total = _mm_add_ps(total, _mm_add_ps(_mm_add_ps(_mm_setzero_ps(), _mm_loadu_ps(p)), _mm_loadu_ps(p + 4)));
        }
        _mm_storeu_ps(out + 4 * i, _mm_mul_ps(total, _mm_set1_ps(scale)));
    }
}

// Any k, a pixel at a time (the blocks of larger k are fewer: 1/16 of the pixels and less).
static AVX2 void shrink_avx2(const float *const *rows, ptrdiff_t k, float scale, float *out, ptrdiff_t count) {
    const __m128 s = _mm_set1_ps(scale);
    for (ptrdiff_t i = 0; i < count; i++) {
        __m128 total = _mm_setzero_ps();
        for (ptrdiff_t r = 0; r < k; r++) {
            const float *p = rows[r] + 4 * k * i;
            __m128 sum = _mm_setzero_ps();
            for (ptrdiff_t c = 0; c < k; c++) sum = _mm_add_ps(sum, _mm_loadu_ps(p + 4 * c));
            total = _mm_add_ps(total, sum);
        }
        _mm_storeu_ps(out + 4 * i, _mm_mul_ps(total, s));
    }
}

void CKernels_shrinkBlocks(int level, const float *const *rows, ptrdiff_t k, float scale, float *out, ptrdiff_t count) {
    (void)level;
    if (k == 2) shrink2_avx2(rows, scale, out, count); else shrink_avx2(rows, k, scale, out, count);
}
#else
void CKernels_shrinkBlocks(int level, const float *const *rows, ptrdiff_t k, float scale, float *out, ptrdiff_t count) {}
#endif
