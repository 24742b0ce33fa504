/* kernels_avx512.c - the tensor kernel body for AVX-512F (16 floats) and
 * the cos/sin fill (8 doubles, FMA for exact products only), compiled with
 * -mavx512f -mfma -mf16c (see the Makefile) and only called when
 * cpuid and xgetbv say the machine and the OS support it. */
#include "pairs.h"

#if POSENC__HAVE_X86
#include <immintrin.h>

#define VF __m512
#define VW 16
#define V_LD_F32(p) _mm512_loadu_ps(p)
#define V_ST_F32(p, v) _mm512_storeu_ps(p, v)
#define V_LD_BF16(p) \
    _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(p))), 16))
#define V_ST_BF16(p, v) _mm256_storeu_si256((__m256i *)(p), avx512_to_bf16(v))
#define V_LD_F16(p) _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(p)))
#define V_ST_F16(p, v) \
    _mm256_storeu_si256((__m256i *)(p), _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))
#define V_MUL(a, b) _mm512_mul_ps(a, b)
#define V_ADD(a, b) _mm512_add_ps(a, b)
#define V_SUB(a, b) _mm512_sub_ps(a, b)
#define V_XOR(a, b) \
    _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)))
#define V_SET1(f) _mm512_set1_ps(f)
#define V_DUP_PAIRS(p)                                                                      \
    _mm512_permutexvar_ps(_mm512_set_epi32(7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0), \
                          _mm512_castps256_ps512(_mm256_loadu_ps(p)))
#define V_SWAP_PAIRS(v) _mm512_permute_ps(v, 0xB1)
#define V_ALT_SIGN                                                                         \
    _mm512_set_ps(0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f,   \
                  -0.0f, 0.0f, -0.0f, 0.0f, -0.0f)
#define V_KEEP(v) __asm__("" : "+v"(v))
#define NCS 16
#define V_LD_MASK(p) _mm512_castsi512_ps(_mm512_loadu_si512((const void *)(p)))
#define V_SEL(m, a, b) \
    _mm512_mask_blend_ps(_mm512_test_epi32_mask(_mm512_castps_si512(m), _mm512_castps_si512(m)), a, b)
#define SELECT_NAME posenc__select_avx512
#define HEADS_NAME posenc__heads_avx512

/* float -> bfloat16, round to nearest even; NaN -> quiet NaN (as the scalar
 * posenc__f32_to_bf16). */
static inline __m256i avx512_to_bf16(__m512 v)
{
    __m512i u = _mm512_castps_si512(v);
    __m512i hi = _mm512_srli_epi32(u, 16);
    __m512i r = _mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7FFF)),
                                 _mm512_and_si512(hi, _mm512_set1_epi32(1)));
    r = _mm512_srli_epi32(r, 16);
    __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    r = _mm512_mask_blend_epi32(nan, r, _mm512_or_si512(hi, _mm512_set1_epi32(0x40)));
    return _mm512_cvtepi32_epi16(r);
}

#include "kernels_body.h"

/* The cos/sin values, 8 doubles at a time (fill_body.h). */
#define VD __m512d
#define VDW 8
#define VD_LD(p) _mm512_loadu_pd(p)
#define VD_ST(p, v) _mm512_storeu_pd(p, v)
#define VD_SET1(x) _mm512_set1_pd(x)
#define VD_ADD(a, b) _mm512_add_pd(a, b)
#define VD_SUB(a, b) _mm512_sub_pd(a, b)
#define VD_MUL(a, b) _mm512_mul_pd(a, b)
#define VD_FMS(a, b, c) _mm512_fmsub_pd(a, b, c)
#define VD_FLOOR(v) _mm512_roundscale_pd(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define VD_ST_F32(p, v) _mm256_storeu_ps(p, _mm512_cvtpd_ps(v))
#define VD_ST_F32_ZIP(p, a, b)                                                             \
    do {                                                                                   \
        __m256 a_ = _mm512_cvtpd_ps(a), b_ = _mm512_cvtpd_ps(b);                           \
        __m256 lo_ = _mm256_unpacklo_ps(a_, b_), hi_ = _mm256_unpackhi_ps(a_, b_);         \
        _mm256_storeu_ps(p, _mm256_permute2f128_ps(lo_, hi_, 0x20));                       \
        _mm256_storeu_ps((p) + 8, _mm256_permute2f128_ps(lo_, hi_, 0x31));                 \
    } while (0)
#define FILL_NAME posenc__fill_avx512
#define SINCOS_NAME posenc__sincos_avx512
#define FILL_T_NAME posenc__fill_t_avx512
#include "fill_body.h"
#else
typedef int posenc__no_avx512; /* not x86-64, or a scalar-only build */
#endif
