#ifndef LUMEN_CKERNELS_H
#define LUMEN_CKERNELS_H
// The inner loops of Lumen's hottest kernels, written with AVX2 + FMA (and AVX-512 where
// it pays) intrinsics, for Swift to call once the processor is known to have them.
//
// Why C: Swift code is compiled for the x86-64 baseline (SSE2), and SwiftPM allows no
// per-target `-mavx2` without unsafeFlags. A C function marked
// `__attribute__((target("avx2,fma")))` may use AVX2 in a binary built for the baseline;
// it is only called after `CKernels_level()` has checked the processor and the operating
// system (cpuid, xgetbv). Google Highway would give the same from C++ with more lanes
// covered for free, but it would add a C++ target and a Debian package to every build,
// for a handful of loops over float rows.
//
// A pixel is 4 floats (premultiplied linear RGBA, Lumen's working space); counts are in
// pixels. Every function sums its taps in a fixed order, so a result depends only on its
// inputs, never on the tile or thread. The convolutions and the resampler differ from the
// Swift (SSE2) loops in the last bits only, because a fused multiply-add rounds once:
// Tests/LumenTests/Render/VectorKernelTests checks both against a double-precision
// reference. The vignette row, the encoder and the extremum give the Swift loops' exact bits.
// An output never overlaps an input.
//
// `level` is CKERNELS_AVX2 or CKERNELS_AVX512 and at most what CKernels_level() returned;
// the baseline is Swift's, not here. The resampler has one version, for AVX2 (two taps
// per register), used at both levels.
#include <stddef.h>
#include <stdint.h>

enum {
    CKERNELS_BASELINE = 0,   // SSE2: Lumen's Swift loops
    CKERNELS_AVX2 = 1,       // AVX2 + FMA (and F16C, which every AVX2 processor has)
    CKERNELS_AVX512 = 2,     // AVX-512 F (with AVX2 + FMA)
};

/// The best level this processor and operating system support (cpuid and xgetbv).
int CKernels_level(void);

/// out[i] = Σₖ rows[k][i] · w[k] for pixels i in 0..<count.
void CKernels_convolveColumns(int level, const float *const *rows, const float *w, ptrdiff_t n, float *out, ptrdiff_t count);
/// The same for a symmetric kernel of odd length n: rows k and n−1−k share a multiply.
void CKernels_convolveColumnsSymmetric(int level, const float *const *rows, const float *w, ptrdiff_t n, float *out, ptrdiff_t count);
/// `height` output rows of a vertical pass at once: out + y·stride (stride in floats) gets
/// Σₖ rows[y + k][i] · w[k]; `rows` holds height + n − 1 input rows. Symmetric (non-zero)
/// as in CKernels_convolveColumnsSymmetric.
void CKernels_convolveColumnsBlock(int level, const float *const *rows, const float *w, ptrdiff_t n, int symmetric,
                                   float *out, ptrdiff_t stride, ptrdiff_t height, ptrdiff_t count);
/// out[i] = Σₖ source[i + k] · w[k] for pixels i in 0..<count.
void CKernels_convolveRow(int level, const float *source, const float *w, ptrdiff_t n, float *out, ptrdiff_t count);
/// The same for a symmetric kernel of odd length n.
void CKernels_convolveRowSymmetric(int level, const float *source, const float *w, ptrdiff_t n, float *out, ptrdiff_t count);
/// A resampling pass along a row: out[i] = Σₖ source[starts[i] + k] · w[i·n + k], each
/// source index clamped to lo…hi (source is indexed by absolute pixel position).
void CKernels_resampleRow(int level, const float *source, const ptrdiff_t *starts, const float *w, ptrdiff_t n,
                          ptrdiff_t lo, ptrdiff_t hi, float *out, ptrdiff_t count);
/// The same when pixel i's weights are pixel (i mod period)'s, period 1 (a whole-factor
/// reduction) or 2 (an exact 2× enlargement): only w[0 ..< period·n] is read, and the sums
/// are CKernels_resampleRow's bit for bit.
void CKernels_resampleRowPeriodic(int level, const float *source, const ptrdiff_t *starts, const float *w, ptrdiff_t n,
                                  ptrdiff_t period, ptrdiff_t lo, ptrdiff_t hi, float *out, ptrdiff_t count);
/// CKernels_resampleRow over `rows` rows, `sourceStride` and `outStride` floats apart, with
/// the same starts and weights for each: the same sums, bit for bit.
void CKernels_resampleRows(int level, const float *source, ptrdiff_t sourceStride, const ptrdiff_t *starts, const float *w,
                           ptrdiff_t n, ptrdiff_t lo, ptrdiff_t hi, float *out, ptrdiff_t outStride, ptrdiff_t count, ptrdiff_t rows);

/// vignetteEffect along a row of `count` pixels whose first is at x = `x0`: with
/// dx = (float)((x + 0.5) − cx) (in double, then rounded to float), d = √(dx² + dy2),
/// t = (d − radius) / band clamped to 0…1 (NaN counts as 0) and s = t·t·(3 − 2t), the colour
/// is scaled by 1 − k·s (k ≥ 0) or moved toward alpha by (−k)·s (k < 0); alpha is copied.
/// The same IEEE operations in the same order as VignetteKernel's Swift loop, with no fused
/// multiply-add, so the levels agree bit for bit (VectorKernelTests).
void CKernels_vignetteRow(int level, const float *source, float *out, ptrdiff_t count, double x0, double cx,
                          float dy2, float radius, float band, float k);

/// The running extremum of morphology: out[i] = rows[0][i] combined with rows[1][i], then
/// with rows[2][i], … in that order, for the floats of `count` pixels; combine(a, b) is
/// `a < b ? b : a` when `dilate` is non-zero and `b < a ? b : a` otherwise, the Swift loop's
/// own operation, so every level gives the same bits, NaNs and signed zeros included
/// (VectorKernelTests). n ≥ 1.
void CKernels_extremum(int level, int dilate, const float *const *rows, ptrdiff_t n, float *out, ptrdiff_t count);

/// motionBlur's box along rows (an axis-aligned line, every tap equal), for `rows` rows of
/// `count` pixels: per float lane, sum = source[0] + … + source[length − 1] in double (added
/// in that order to 0), out[0] = (float)(sum · scale); then for i ≥ 1, sum += (double)
/// source[i + length − 1] − (double)source[i − 1] and out[i] = (float)(sum · scale). The
/// Swift loop's operations in its order, so every level gives the same bits (VectorKernelTests).
void CKernels_boxRows(int level, const float *const *sources, float *const *outs, ptrdiff_t rows, ptrdiff_t count,
                      ptrdiff_t length, double scale);

/// The same box down columns, a row at a time: sums[i] += (double)entering[i] − (double)
/// leaving[i] for the four doubles of each of `count` pixels (`leaving` NULL: sums[i] +=
/// (double)entering[i]); and out[i] = (float)(sums[i] · scale).
void CKernels_boxAccumulate(int level, double *sums, const float *entering, const float *leaving, ptrdiff_t count);
void CKernels_boxStore(int level, const double *sums, double scale, float *out, ptrdiff_t count);

/// Working-space pixels to 8-bit sRGB codes, `channels` 3 (the colour as stored: the image
/// over black) or 4 (unpremultiplied colour, then alpha), `count` pixels. `firstCode` and
/// `binThreshold` are Lumen's EncodeTables (4,097 bins of [0, 1]). The curve is evaluated
/// in registers (a cubic per eighth of each octave of x^(1/2.4), 2 × 10⁻⁷ relative); a sample
/// closer than 0.002 of a code to a rounding boundary, or NaN, is looked up in the tables as
/// the Swift loop does, so every code equals the tables' (VectorKernelTests).
void CKernels_encode8(int level, const float *pixels, int channels, unsigned char *out, ptrdiff_t count,
                      const unsigned char *firstCode, const float *binThreshold);
/// Opaque 8-bit RGB pixels (3 bytes each) to working-space RGBA through `lanes`, 768
/// pixels of 4 floats: red's values in lane 0 of entries 0…255, green's in lane 1 of
/// 256…511, blue's in lane 2 of 512…767 with alpha 1, other lanes 0 (their bits are ORed).
void CKernels_expand8RGB(int level, const unsigned char *in, const float *lanes, float *out, ptrdiff_t count);
/// vignetteEffect (as CKernels_vignetteRow) on opaque 8-bit RGB codes, straight to 8-bit
/// RGB codes: each sample expanded through `table` (768 floats: red's 256 values, green's,
/// blue's), scaled, and encoded (as CKernels_encode8 with 3 channels), so the codes are
/// the working-space path's exactly. With `skipsInside`, pixels whose factors are all
/// exactly 1 are mapped through `codeTables` (768 bytes: red's 256 codes, green's,
/// blue's) or copied when it is NULL; the caller sets it only when that gives the same
/// codes (k and every table value finite). `srgb` says `table` is the sRGB curve itself
/// (linear value of each code): darkening then computes its codes from the codes alone,
/// those near a rounding boundary (and factors below 2⁻⁹) as above. `in` and `out` may be
/// the same row.
void CKernels_vignetteRow8(int level, const unsigned char *in, unsigned char *out, ptrdiff_t count, double x0, double cx,
                           float dy2, float radius, float band, float k, int skipsInside, int srgb, const float *table,
                           const unsigned char *codeTables, const unsigned char *firstCode, const float *binThreshold);

/// BoxShrink's averages of k×k blocks: out[i] = (Σ_r Σ_c rows[r][k·i + c]) · scale, each
/// row's k pixels added in order to zero, the rows' sums added in order to zero (the Swift
/// loop's order, so the bits are its own), `count` output pixels from `k` rows.
void CKernels_shrinkBlocks(int level, const float *const *rows, ptrdiff_t k, float scale, float *out, ptrdiff_t count);

/// `count` floats to IEEE half floats (binary16) and back, for kept intermediates stored at
/// half the bytes. Packing holds values within ±65504 (the largest half; infinities too), then
/// rounds to nearest even; a NaN stays a quiet NaN. Unpacking is exact. Unlike the functions above, these have a scalar version
/// here for the baseline (any `level`, and other processors), with F16C's bits exactly
/// (VectorKernelTests checks both against Swift's Float16).
void CKernels_packHalves(int level, const float *in, uint16_t *out, ptrdiff_t count);
void CKernels_unpackHalves(int level, const uint16_t *in, float *out, ptrdiff_t count);
/// Each of `count` floats replaced by its half, as a float: a pack and an unpack in one.
void CKernels_roundToHalves(int level, float *values, ptrdiff_t count);

#endif
