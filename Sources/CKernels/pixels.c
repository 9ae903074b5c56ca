// Per-pixel loops with vector versions that give the Swift baseline's results exactly:
// the encoder to 8-bit sRGB codes and the expansion of 8-bit codes through tables (see
// CKernels.h). vignetteEffect's rows are in vignette.c; the separable convolution and
// resampling loops, and the level check, in kernels.c.
#include "CKernels.h"
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#include "target.h"
#include "encode8.h"

/// The codes of two RGBA pixels (one register): colour unpremultiplied, alpha its own code,
/// as PixelConversion.encode8 computes them.
INLINE AVX2 __m256i encode8_pixels(__m256 v, const unsigned char *firstCode, const float *binThreshold) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1);
    __m256 w = _mm256_permute_ps(v, 0xFF);
    __m256 colour = _mm256_and_ps(_mm256_div_ps(v, w), _mm256_cmp_ps(w, zero, _CMP_GT_OQ));  // α > 0 ? rgb/α : 0
    int ambiguous;
    __m256i code = encode8_codes(colour, &ambiguous);
    ambiguous &= 0x77;                                                               // alpha lanes are not colour
    __m256 a = _mm256_blendv_ps(one, v, _mm256_cmp_ps(v, one, _CMP_LT_OQ));           // Swift's min(1, α)
    a = _mm256_and_ps(a, _mm256_cmp_ps(a, zero, _CMP_GE_OQ));                        // … max(0, …)
    __m256i alpha = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(a, _mm256_set1_ps(255)), _mm256_set1_ps(0.5f)));
    code = _mm256_blend_epi32(code, alpha, 0x88);
    if (ambiguous) {
        float lanes[8];
        int codes[8];
        _mm256_storeu_ps(lanes, colour);
        _mm256_storeu_si256((__m256i *)codes, code);
        encode8_lookup(lanes, codes, (unsigned)ambiguous, firstCode, binThreshold);
        code = _mm256_loadu_si256((const __m256i *)codes);
    }
    return code;
}

/// Three channels, eight pixels: their 24 colour samples gathered into three registers in
/// output order (r0 g0 b0 r1 g1 b1 r2 g2 | b2 r3 … | … b7), so no lane is spent on alpha,
/// and the codes packed straight into 24 bytes.
INLINE AVX2 void encode8_rgb8(const float *p, unsigned char *out, const unsigned char *firstCode, const float *binThreshold) {
    const __m256i first = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 0, 1);    // pixels 0–1's colour, then 2's r g
    const __m256i second = _mm256_setr_epi32(2, 4, 5, 6, 0, 1, 2, 4);   // 2's b, 3's; then 4's, 5's r
    const __m256i third = _mm256_setr_epi32(5, 6, 0, 1, 2, 4, 5, 6);    // 5's g b, then 6's and 7's
    __m256 a = _mm256_loadu_ps(p), b = _mm256_loadu_ps(p + 8), c = _mm256_loadu_ps(p + 16), d = _mm256_loadu_ps(p + 24);
    __m256 s0 = _mm256_blend_ps(_mm256_permutevar8x32_ps(a, first), _mm256_permutevar8x32_ps(b, first), 0xC0);
    __m256 s1 = _mm256_blend_ps(_mm256_permutevar8x32_ps(b, second), _mm256_permutevar8x32_ps(c, second), 0xF0);
    __m256 s2 = _mm256_blend_ps(_mm256_permutevar8x32_ps(c, third), _mm256_permutevar8x32_ps(d, third), 0xFC);
    encode8_rgb_samples(s0, s1, s2, out, firstCode, binThreshold);
}

static AVX2 void encode8_rgb_avx2(const float *pixels, unsigned char *out, ptrdiff_t count,
                                  const unsigned char *firstCode, const float *binThreshold) {
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) encode8_rgb8(pixels + 4 * i, out + 3 * i, firstCode, binThreshold);
    for (; i < count; i++) encode8_scalar(pixels + 4 * i, 3, out + 3 * i, firstCode, binThreshold);
}

static AVX2 void encode8_avx2(const float *pixels, int channels, unsigned char *out, ptrdiff_t count,
                              const unsigned char *firstCode, const float *binThreshold) {
    if (channels == 3) return encode8_rgb_avx2(pixels, out, count, firstCode, binThreshold);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const float *p = pixels + 4 * i;
        __m256i c0 = encode8_pixels(_mm256_loadu_ps(p), firstCode, binThreshold);
        __m256i c1 = encode8_pixels(_mm256_loadu_ps(p + 8), firstCode, binThreshold);
        __m256i c2 = encode8_pixels(_mm256_loadu_ps(p + 16), firstCode, binThreshold);
        __m256i c3 = encode8_pixels(_mm256_loadu_ps(p + 24), firstCode, binThreshold);
        // Codes are 0…255: packing saturates nothing. Lanes hold pixels 0 2 4 6 | 1 3 5 7.
        __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(c0, c1), _mm256_packus_epi32(c2, c3));
        _mm256_storeu_si256((__m256i *)(out + 4 * i), _mm256_permutevar8x32_epi32(bytes, order));
    }
    for (; i < count; i++) encode8_scalar(pixels + 4 * i, channels, out + channels * i, firstCode, binThreshold);
}

// The same on 16 lanes: four pixels a register, mask registers for the selections.
INLINE AVX512 __m512i encode8_codes16(__m512 x, __mmask16 *ambiguous) {
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1);
    __m512 q = _mm512_fmadd_ps(pow_5_12_16(x), _mm512_set1_ps(1.055f * 255), _mm512_set1_ps(0.5f - 0.055f * 255));
    __mmask16 toe = _mm512_cmp_ps_mask(x, _mm512_set1_ps(0.0031308f), _CMP_LE_OQ);
    q = _mm512_mask_blend_ps(toe, q, _mm512_fmadd_ps(x, _mm512_set1_ps(12.92f * 255), _mm512_set1_ps(0.5f)));
    __m512 floor = _mm512_roundscale_ps(q, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC), fraction = _mm512_sub_ps(q, floor);
    __mmask16 near = _mm512_cmp_ps_mask(fraction, _mm512_set1_ps(ENCODE_MARGIN), _CMP_LT_OQ)
                   | _mm512_cmp_ps_mask(fraction, _mm512_set1_ps(1 - ENCODE_MARGIN), _CMP_GT_OQ);
    __mmask16 inside = _mm512_cmp_ps_mask(x, zero, _CMP_GT_OQ) & _mm512_cmp_ps_mask(x, one, _CMP_LT_OQ);
    *ambiguous = (near & inside) | _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
    __m512i code = _mm512_cvttps_epi32(_mm512_min_ps(_mm512_max_ps(floor, zero), _mm512_set1_ps(255)));
    code = _mm512_mask_mov_epi32(code, _mm512_cmp_ps_mask(x, zero, _CMP_LE_OQ), _mm512_setzero_si512());        // ≤ 0: 0
    return _mm512_mask_mov_epi32(code, _mm512_cmp_ps_mask(x, one, _CMP_GE_OQ), _mm512_set1_epi32(255));        // ≥ 1: 255
}

/// `code`'s lanes set in `ambiguous` replaced by the tables' codes for `x`'s (sixteen lanes).
INLINE AVX512 __m512i encode8_resolve16(__m512 x, __m512i code, __mmask16 ambiguous, const unsigned char *firstCode,
                                        const float *binThreshold) {
    float lanes[16];
    int codes[16];
    _mm512_storeu_ps(lanes, x);
    _mm512_storeu_si512(codes, code);
    encode8_lookup(lanes, codes, ambiguous, firstCode, binThreshold);
    return _mm512_loadu_si512(codes);
}

INLINE AVX512 __m512i encode8_pixels16(__m512 v, int channels, const unsigned char *firstCode, const float *binThreshold) {
    const __mmask16 alphaLanes = 0x8888;
    __m512 colour = v;
    if (channels == 4) {
        __m512 w = _mm512_permute_ps(v, 0xFF);
        colour = _mm512_maskz_div_ps(_mm512_cmp_ps_mask(w, _mm512_setzero_ps(), _CMP_GT_OQ), v, w);     // α > 0 ? rgb/α : 0
    }
    __mmask16 ambiguous;
    __m512i code = encode8_codes16(colour, &ambiguous);
    ambiguous &= (__mmask16)~alphaLanes;
    if (channels == 4) {
        __m512 one = _mm512_set1_ps(1);
        __m512 a = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, one, _CMP_LT_OQ), one, v);                  // Swift's min(1, α)
        a = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, _mm512_setzero_ps(), _CMP_GE_OQ), a);                // … max(0, …)
        __m512i alpha = _mm512_cvttps_epi32(_mm512_add_ps(_mm512_mul_ps(a, _mm512_set1_ps(255)), _mm512_set1_ps(0.5f)));
        code = _mm512_mask_mov_epi32(code, alphaLanes, alpha);
    }
    if (ambiguous) code = encode8_resolve16(colour, code, ambiguous, firstCode, binThreshold);
    return code;
}

/// Sixteen samples' codes as bytes, the lanes set in `ambiguous` from the tables.
INLINE AVX512 __m128i encode8_samples16(__m512 x, const unsigned char *firstCode, const float *binThreshold) {
    __mmask16 ambiguous;
    __m512i code = encode8_codes16(x, &ambiguous);
    if (ambiguous) code = encode8_resolve16(x, code, ambiguous, firstCode, binThreshold);
    return _mm512_cvtepi32_epi8(code);
}

/// Three channels, sixteen pixels: their 48 colour samples gathered from four registers
/// into three in output order (r0 g0 b0 r1 … r5 | g5 b5 … g10 | b10 r11 … b15), so every
/// lane is a sample (four pixels a register spent a quarter of the lanes on alpha), and
/// each register's codes are the next 16 bytes.
INLINE AVX512 void encode8_rgb16(const float *p, unsigned char *out, const unsigned char *firstCode, const float *binThreshold) {
    const __m512i first = _mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18, 20);      // of a, b
    const __m512i second = _mm512_setr_epi32(5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18, 20, 21, 22, 24, 25); // of b, c
    const __m512i third = _mm512_setr_epi32(10, 12, 13, 14, 16, 17, 18, 20, 21, 22, 24, 25, 26, 28, 29, 30); // of c, d
    __m512 a = _mm512_loadu_ps(p), b = _mm512_loadu_ps(p + 16), c = _mm512_loadu_ps(p + 32), d = _mm512_loadu_ps(p + 48);
    _mm_storeu_si128((__m128i *)out, encode8_samples16(_mm512_permutex2var_ps(a, first, b), firstCode, binThreshold));
    _mm_storeu_si128((__m128i *)(out + 16), encode8_samples16(_mm512_permutex2var_ps(b, second, c), firstCode, binThreshold));
    _mm_storeu_si128((__m128i *)(out + 32), encode8_samples16(_mm512_permutex2var_ps(c, third, d), firstCode, binThreshold));
}

static AVX512 void encode8_avx512(const float *pixels, int channels, unsigned char *out, ptrdiff_t count,
                                  const unsigned char *firstCode, const float *binThreshold) {
    const __m128i rgb = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    ptrdiff_t i = 0;
    if (channels == 3)
        for (; i + 16 <= count; i += 16) encode8_rgb16(pixels + 4 * i, out + 3 * i, firstCode, binThreshold);
    for (; i + 4 <= count; i += 4) {
        __m128i bytes = _mm512_cvtepi32_epi8(encode8_pixels16(_mm512_loadu_ps(pixels + 4 * i), channels, firstCode, binThreshold));
        if (channels == 4) {
            _mm_storeu_si128((__m128i *)(out + 4 * i), bytes);
        } else {
            __m128i packed = _mm_shuffle_epi8(bytes, rgb);
            _mm_storel_epi64((__m128i *)(out + 3 * i), packed);
            _mm_storeu_si32(out + 3 * i + 8, _mm_srli_si128(packed, 8));
        }
    }
    for (; i < count; i++) encode8_scalar(pixels + 4 * i, channels, out + channels * i, firstCode, binThreshold);
}

void CKernels_encode8(int level, const float *pixels, int channels, unsigned char *out, ptrdiff_t count,
                      const unsigned char *firstCode, const float *binThreshold) {
    if (level >= CKERNELS_AVX512) encode8_avx512(pixels, channels, out, count, firstCode, binThreshold);
    else encode8_avx2(pixels, channels, out, count, firstCode, binThreshold);
}

// ---- Opaque 8-bit RGB codes to working-space pixels through three tables ----
// A pixel is three 16-byte loads from `lanes` (red's value in lane 0 and zeros, green's in
// lane 1, blue's in lane 2 with alpha 1) and two ORs, exact: 0.79× the time of the Swift
// loop doing the same (perf samples, against the unchanged vignette row's). AVX2 gathers
// (three for eight pixels, then a transpose) took 1.25× it on a Zen 3, with a quarter of
// its instructions: a gather there costs about a load a lane anyway.

static void expand8_rgb(const unsigned char *in, const float *lanes, float *out, ptrdiff_t count) {
    const __m128 *red = (const __m128 *)lanes, *green = red + 256, *blue = red + 512;
    ptrdiff_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const unsigned char *p = in + 3 * i;
        float *o = out + 4 * i;
        _mm_storeu_ps(o, _mm_or_ps(_mm_or_ps(red[p[0]], green[p[1]]), blue[p[2]]));
        _mm_storeu_ps(o + 4, _mm_or_ps(_mm_or_ps(red[p[3]], green[p[4]]), blue[p[5]]));
        _mm_storeu_ps(o + 8, _mm_or_ps(_mm_or_ps(red[p[6]], green[p[7]]), blue[p[8]]));
        _mm_storeu_ps(o + 12, _mm_or_ps(_mm_or_ps(red[p[9]], green[p[10]]), blue[p[11]]));
    }
    for (; i < count; i++) {
        const unsigned char *p = in + 3 * i;
        _mm_storeu_ps(out + 4 * i, _mm_or_ps(_mm_or_ps(red[p[0]], green[p[1]]), blue[p[2]]));
    }
}

void CKernels_expand8RGB(int level, const unsigned char *in, const float *lanes, float *out, ptrdiff_t count) {
    (void)level;
    expand8_rgb(in, lanes, out, count);
}

#else
// Other processors run Lumen's Swift loops; these are never called there.
void CKernels_encode8(int level, const float *pixels, int channels, unsigned char *out, ptrdiff_t count,
                      const unsigned char *firstCode, const float *binThreshold) {}
void CKernels_expand8RGB(int level, const unsigned char *in, const float *lanes, float *out, ptrdiff_t count) {}
#endif
