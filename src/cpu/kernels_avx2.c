/* kernels_avx2.c - the tensor kernel body for AVX2 + F16C (8 floats) and
 * the cos/sin fill (4 doubles, FMA for exact products only), compiled with
 * -mavx2 -mfma -mf16c (see the Makefile) and only called when cpuid
 * and xgetbv say the machine and the OS support it. */
#include "pairs.h"

#if POSENC__HAVE_X86
#include <immintrin.h>

#define VF __m256
#define VW 8
#define V_LD_F32(p) _mm256_loadu_ps(p)
#define V_ST_F32(p, v) _mm256_storeu_ps(p, v)
#define V_LD_BF16(p) \
    _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(p))), 16))
#define V_ST_BF16(p, v) _mm_storeu_si128((__m128i *)(p), avx2_to_bf16(v))
#define V_LD_F16(p) _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(p)))
#define V_ST_F16(p, v) \
    _mm_storeu_si128((__m128i *)(p), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))
#define V_MUL(a, b) _mm256_mul_ps(a, b)
#define V_ADD(a, b) _mm256_add_ps(a, b)
#define V_SUB(a, b) _mm256_sub_ps(a, b)
#define V_XOR(a, b) _mm256_xor_ps(a, b)
#define V_SET1(f) _mm256_set1_ps(f)
#define V_DUP_PAIRS(p) \
    _mm256_permutevar8x32_ps(_mm256_castps128_ps256(_mm_loadu_ps(p)), _mm256_set_epi32(3, 3, 2, 2, 1, 1, 0, 0))
#define V_SWAP_PAIRS(v) _mm256_permute_ps(v, 0xB1)
#define V_ALT_SIGN _mm256_set_ps(0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f)
#define V_KEEP(v) __asm__("" : "+x"(v))
#define NCS 8
#define V_LD_MASK(p) _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(p)))
#define V_SEL(m, a, b) _mm256_blendv_ps(a, b, m)
#define SELECT_NAME posenc__select_avx2
#define HEADS_NAME posenc__heads_avx2

/* float -> bfloat16, round to nearest even; NaN -> quiet NaN. */
static inline __m128i avx2_to_bf16(__m256 v)
{
    __m256i u = _mm256_castps_si256(v);
    __m256i hi = _mm256_srli_epi32(u, 16);
    __m256i r = _mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7FFF)),
                                 _mm256_and_si256(hi, _mm256_set1_epi32(1)));
    r = _mm256_srli_epi32(r, 16);
    __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    r = _mm256_blendv_epi8(r, _mm256_or_si256(hi, _mm256_set1_epi32(0x40)), nan);
    return _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
}

/* bfloat16 two at a time, as 32-bit lanes (kernels_body.h's BF16 pair path):
 * a lane u holds elements 2i (low half) and 2i + 1 (high half); each is a
 * float's upper 16 bits, so the even element is u << 16 and the odd one u
 * with its low half cleared. Back: each float rounded to nearest even in its
 * upper half, the even result shifted down and merged. */
#define VI __m256i
#define V_LD_U32(p) _mm256_loadu_si256((const __m256i *)(p))
#define V_ST_U32(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define V_BF16_EVEN(u) _mm256_castsi256_ps(_mm256_slli_epi32(u, 16))
#define V_BF16_ODD(u) _mm256_castsi256_ps(_mm256_and_si256(u, _mm256_set1_epi32((int)0xFFFF0000u)))
#define V_BF16_ROUND(v) avx2_bf16_round(v)
#define V_BF16_MERGE(re, ro) \
    _mm256_or_si256(_mm256_srli_epi32(re, 16), _mm256_and_si256(ro, _mm256_set1_epi32((int)0xFFFF0000u)))

/* v rounded to bfloat16 in the upper half of each lane (the lower half is
 * not meaningful): u + 0x7FFF + (bit 16 of u), round to nearest even.
 * Without avx2_to_bf16's NaN select, because the pair path's results are
 * products and sums of bfloat16 inputs (low 16 bits zero) and of finite c
 * and s: a NaN result is either an input NaN, quieted, with its low 16 bits
 * still zero, or the default NaN 0xFFC00000 (inf * 0, inf - inf). Adding at
 * most 0x8000 to zero low bits carries nothing into the upper half, which
 * is then the NaN as avx2_to_bf16 gives it (its quiet bit already set).
 * test_kernels' bf16_special_values checks this against the scalar body. */
static inline __m256i avx2_bf16_round(__m256 v)
{
    __m256i u = _mm256_castps_si256(v);
    __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    return _mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7FFF)), lsb);
}

#include "kernels_body.h"

/* The cos/sin values, 4 doubles at a time (fill_body.h). */
#define VD __m256d
#define VDW 4
#define VD_LD(p) _mm256_loadu_pd(p)
#define VD_ST(p, v) _mm256_storeu_pd(p, v)
#define VD_SET1(x) _mm256_set1_pd(x)
#define VD_ADD(a, b) _mm256_add_pd(a, b)
#define VD_SUB(a, b) _mm256_sub_pd(a, b)
#define VD_MUL(a, b) _mm256_mul_pd(a, b)
#define VD_FMS(a, b, c) _mm256_fmsub_pd(a, b, c)
#define VD_FLOOR(v) _mm256_floor_pd(v)
#define VD_ST_F32(p, v) _mm_storeu_ps(p, _mm256_cvtpd_ps(v))
#define VD_ST_F32_ZIP(p, a, b)                                                             \
    do {                                                                                   \
        __m128 a_ = _mm256_cvtpd_ps(a), b_ = _mm256_cvtpd_ps(b);                           \
        _mm_storeu_ps(p, _mm_unpacklo_ps(a_, b_));                                         \
        _mm_storeu_ps((p) + 4, _mm_unpackhi_ps(a_, b_));                                   \
    } while (0)
#define FILL_NAME posenc__fill_avx2
#define SINCOS_NAME posenc__sincos_avx2
#define FILL_T_NAME posenc__fill_t_avx2
#include "fill_body.h"
#else
typedef int posenc__no_avx2; /* not x86-64, or a scalar-only build */
#endif
