/*
 * internal.h - shared by the library's source files, not installed.
 *
 * Double-double ("dd") numbers: an unevaluated sum hi + lo with |lo| <= ulp(hi)/2,
 * about 106 bits. The algorithms are the classical error-free transformations
 * (Knuth's two-sum, Dekker's product via fma) and the exp/log scheme of Hida, Li
 * and Bailey's QD library, written down here from the formulas.
 */
#ifndef POSENC_INTERNAL_H
#define POSENC_INTERNAL_H

#include "posenc.h"

#include <math.h>

typedef struct posenc__dd {
    double hi, lo;
} posenc__dd;

/* Status checks shared by every entry point. */
static inline int posenc__pos_ok(int64_t pos) { return pos >= 0 && pos <= POSENC_MAX_POS; }
static inline int posenc__dim_ok(uint64_t D) { return D >= 1 && D <= POSENC_MAX_DIM; }
static inline int posenc__base_ok(double base) { return isfinite(base) && base > 1.0; }
static inline int posenc__layout_ok(posenc_layout l)
{
    return l == POSENC_LAYOUT_INTERLEAVED || l == POSENC_LAYOUT_HALF;
}

/* The inverse frequency base^(-2k/d) as a double-double (relative error
 * below 2^-100). Arguments are assumed valid (d >= 1, base > 1). */
posenc__dd posenc__inv_freq_dd(uint32_t k, uint32_t d, double base);

/* log(base) as a double-double (error ~2^-103 absolute for base <= 1e9),
 * and inv_freq from it: the same value as posenc__inv_freq_dd(k, d, base)
 * when log_base = posenc__log_dd(base), without redoing the log per pair. */
posenc__dd posenc__log_dd(double base);
posenc__dd posenc__inv_freq_dd_from_log(uint32_t k, uint32_t d, posenc__dd log_base);

/* base^(+2k/d) as a double-double: the divisor of the position. */
posenc__dd posenc__divisor_dd(uint32_t k, uint32_t d, double base);

/* sin and cos of the exact angle pos * f, where f is a double-double
 * frequency and 0 <= pos < 2^53. Argument reduction modulo pi/2 keeps all
 * digits (see docs/ACCURACY.md). */
void posenc__sincos_dd(int64_t pos, posenc__dd f, double *s, double *c);

/* Fills a block of cos/sin values, the workhorse of tables, caches and the
 * tensor kernels (src/table.c): for t < n_pos and k < n_pairs,
 *     cos_out[t * ld + k] = (float)(scale * cos((pos0 + t) * f[k]))
 *     sin_out[t * ld + k] = (float)(scale * sin((pos0 + t) * f[k]))
 * with f[k] = f_hi[k] + f_lo[k] exactly (a double-double), each value within
 * 1 ulp of the exact one (absolute 2^-25 near zero). Arguments are assumed
 * valid: 0 <= pos0, pos0 + n_pos - 1 <= POSENC_MAX_POS, ld >= n_pairs. */
void posenc__sincos_table_f32(int64_t pos0, size_t n_pos, const double *f_hi,
                              const double *f_lo, size_t n_pairs, double scale,
                              float *cos_out, float *sin_out, size_t ld);

/* The plain reference for posenc__sincos_table_f32: every value from
 * posenc__sincos_dd, rounded once. Same arguments and results (the fast fill
 * may differ from it by one rounding, never by more than 1 ulp). */
void posenc__sincos_table_ref_f32(int64_t pos0, size_t n_pos, const double *f_hi,
                                  const double *f_lo, size_t n_pairs, double scale,
                                  float *cos_out, float *sin_out, size_t ld);

/* The fast fill with a stride between pairs: cos_out[t * ld + k * ks] and
 * sin_out[t * ld + k * ks] (ks = 1: separate cos and sin arrays; ks = 2:
 * interleaved sin/cos as in the sinusoid table). */
void posenc__sincos_table_strided_f32(int64_t pos0, size_t n_pos, const double *f_hi,
                                      const double *f_lo, size_t n_pairs, double scale,
                                      float *cos_out, float *sin_out, size_t ld, size_t ks);

/* Test hooks: the instruction paths of that fill (scalar; SSE2 when built for
 * x86 without -DPOSENC_NO_SIMD; AVX when the machine also has it), whether
 * this build and machine have one, and the fill on an explicit one (0; or -1
 * and nothing written when the path is missing). The fill above takes the
 * best path; all of them give the same bits. */
enum { POSENC__TABLE_SCALAR = 0, POSENC__TABLE_SSE2 = 1, POSENC__TABLE_AVX = 2 };
int posenc__table_path_ok(int path);
int posenc__sincos_table_path_f32(int path, int64_t pos0, size_t n_pos, const double *f_hi,
                                  const double *f_lo, size_t n_pairs, double scale,
                                  float *cos_out, float *sin_out, size_t ld, size_t ks);

/* The float cos and sin of pairs k0 .. k0 + m - 1 (m <= POSENC__PAIRS_BLOCK)
 * of a vector of length D at position pos, plain frequencies base^(-2k/D):
 * the values the table fills give, so the single-vector float functions
 * agree bit for bit with tables, caches and tensor kernels. */
#define POSENC__PAIRS_BLOCK 64u
void posenc__pairs_f32(int64_t pos, uint32_t k0, uint32_t m, uint32_t D, double base,
                       float *c, float *s);

/* Positions between exact anchors in the fast fill (see src/table.c and
 * docs/ACCURACY.md for the error bound that depends on it). */
#define POSENC__TABLE_ANCHOR_EVERY 256

/* Well-formedness of a posenc_rope (the checks of posenc_rope_init, and a
 * finite attn_factor); src/rope_params.c. */
posenc_status posenc__rope_check(const posenc_rope *r);

/* One pair's rotation in double. */
static inline void posenc__rotate_f64(double *a, double *b, double s, double c)
{
    double x = *a, y = *b;
    *a = x * c - y * s;
    *b = x * s + y * c;
}

/* One pair's rotation in float: products and sums each rounded, this order. */
static inline void posenc__rotate_f32(float *a, float *b, float s, float c)
{
    float x = *a, y = *b;
    float xc = x * c, ys = y * s, xs = x * s, yc = y * c;
    *a = xc - ys;
    *b = xs + yc;
}


/* A learned table around data (n_pos * dim doubles from malloc, row-major),
 * which it then owns (src/learned.c; used by src/safetensors.c). On
 * POSENC_ERR_NOMEM data is still the caller's. */
posenc_status posenc__learned_adopt(double *data, size_t n_pos, size_t dim, posenc_learned **out);

/* Double-double arithmetic shared with src/scaling.c (defined in angle.c):
 * sum, product, exp (|a| < 700) and log of a finite double x > 0, each to
 * about 2^-100 relative. */
posenc__dd posenc__dd_add(posenc__dd a, posenc__dd b);
posenc__dd posenc__dd_mul(posenc__dd a, posenc__dd b);
posenc__dd posenc__dd_exp(posenc__dd a);
posenc__dd posenc__dd_log(double x);

#endif
