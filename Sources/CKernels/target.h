// The target attributes of CKernels' vector functions (see CKernels.h): each is compiled for
// its instruction set alone, and called only after CKernels_level() has checked the machine.
#ifndef LUMEN_CKERNELS_TARGET_H
#define LUMEN_CKERNELS_TARGET_H
#define AVX2 __attribute__((target("avx2,fma")))
// F16C (the half-float conversions) came with AVX2 on every processor that has it; the
// level check asks for it at CKERNELS_AVX2.
#define AVX2_F16C __attribute__((target("avx2,fma,f16c")))
#define AVX512 __attribute__((target("avx512f,avx2,fma")))
#define INLINE static inline __attribute__((always_inline))
#endif
