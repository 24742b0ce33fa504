/*
 * internal.h - shared by the library's source files, not installed.
 * Double-double arithmetic lives in dd.h. This is the bottom floor
 * (src/common): it includes nothing of the folders above it; a file that
 * needs the CPU layer includes cpu.h itself.
 */
#ifndef POSENC_INTERNAL_H
#define POSENC_INTERNAL_H

#include "posenc.h"

#include "dd.h"

#include <math.h>
#include <stdlib.h>

/* The failure of a binary file reader (dump.c, safetensors.c): err->detail
 * from fmt (when err is not NULL), err->line 0; returns s. status.c. */
posenc_status posenc__load_fail(posenc_load_error *err, posenc_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The first step of every reader and loader: *err cleared (when err is not
 * NULL), then POSENC_ERR_NULL when a required argument is missing
 * (args_ok == 0), else POSENC_OK. status.c. */
posenc_status posenc__load_start(posenc_load_error *err, int args_ok);

/* The path form of a loader, in two steps around its FILE * form:
 *     FILE *f;
 *     posenc_status s = posenc__load_open(path, out != NULL, &f, err);
 *     return s == POSENC_OK ? posenc__load_close(f, read(f, ..., err)) : s;
 * posenc__load_open: posenc__load_start(err, path && args_ok), then *f =
 * path opened for reading (POSENC_ERR_IO, strerror(errno) in err->detail,
 * when it cannot be). posenc__load_close: closes f, returns s. status.c. */
posenc_status posenc__load_open(const char *path, int args_ok, FILE **f, posenc_load_error *err);
posenc_status posenc__load_close(FILE *f, posenc_status s);

/* Makes room for one more element of size bytes in the array *p holding n
 * of *cap: doubles the capacity (first elements at first) when full. Returns
 * 0 when out of memory (the array is then unchanged), else 1. safetensors.c,
 * learned.c. */
static inline int posenc__array_grow(void **p, size_t *cap, size_t n, size_t first, size_t size)
{
    if (n < *cap)
        return 1;
    size_t c = *cap ? *cap * 2 : first;
    if (c > SIZE_MAX / size)
        return 0;
    void *q = realloc(*p, c * size);
    if (!q)
        return 0;
    *p = q;
    *cap = c;
    return 1;
}

/* Status checks shared by every entry point. */
static inline int posenc__pos_ok(int64_t pos) { return pos >= 0 && pos <= POSENC_MAX_POS; }

/* 1 when the n values at x are all finite (the check behind
 * POSENC_ERR_NOT_FINITE of every function that takes a vector). */
static inline int posenc__all_finite_f64(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}
static inline int posenc__all_finite_f32(const float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}
/* The same for a vector of either float type (f32: float, else double). */
static inline int posenc__all_finite(const void *x, size_t n, int f32)
{
    return f32 ? posenc__all_finite_f32(x, n) : posenc__all_finite_f64(x, n);
}
static inline int posenc__dim_ok(uint64_t D) { return D >= 1 && D <= POSENC_MAX_DIM; }
static inline int posenc__base_ok(double base) { return isfinite(base) && base > 1.0; }
static inline int posenc__layout_ok(posenc_layout l)
{
    return l == POSENC_LAYOUT_INTERLEAVED || l == POSENC_LAYOUT_HALF;
}

static inline int posenc__direction_ok(posenc_direction d)
{
    return d == POSENC_FORWARD || d == POSENC_INVERSE;
}

/* The one argument check of the single-vector functions (rope.c,
 * sinusoid.c, table.c): in this order POSENC_ERR_NULL (buf), POSENC_ERR_POS,
 * POSENC_ERR_DIM, POSENC_ERR_BASE. */
static inline posenc_status posenc__check_vec(int64_t pos, uint64_t D, double base,
                                              const void *buf)
{
    if (!buf)
        return POSENC_ERR_NULL;
    if (!posenc__pos_ok(pos))
        return POSENC_ERR_POS;
    if (!posenc__dim_ok(D))
        return POSENC_ERR_DIM;
    if (!posenc__base_ok(base))
        return POSENC_ERR_BASE;
    return POSENC_OK;
}

/* The dimensions of a RoPE, in this order: POSENC_ERR_DIM (head_dim outside
 * 1 .. POSENC_ROPE_MAX_HEAD_DIM), POSENC_ERR_RANGE (rotary_dim odd or
 * outside 2 .. head_dim). posenc_rope_init_scaled and posenc__rope_check. */
static inline posenc_status posenc__rope_dims_check(uint32_t head_dim, uint32_t rotary_dim)
{
    if (head_dim < 1 || head_dim > POSENC_ROPE_MAX_HEAD_DIM)
        return POSENC_ERR_DIM;
    if (rotary_dim < 2 || rotary_dim > head_dim || rotary_dim % 2)
        return POSENC_ERR_RANGE;
    return POSENC_OK;
}

/* The last two checks of other entry points: POSENC_ERR_BASE, then
 * POSENC_ERR_POS (the tables of table.c, the pair functions of angle.c). */
static inline posenc_status posenc__check_base_pos(double base, int64_t pos)
{
    if (!posenc__base_ok(base))
        return POSENC_ERR_BASE;
    return posenc__pos_ok(pos) ? POSENC_OK : POSENC_ERR_POS;
}

/* The shape checks of a bias tensor [n_head, n_query, n_key] filled by
 * n_threads threads (posenc_alibi_bias_f32, posenc_t5_bias_f32), in this
 * order: POSENC_ERR_DIM, POSENC_ERR_RANGE when !params_ok (the caller's own
 * parameters), POSENC_ERR_POS (queries from q_offset, keys from 0),
 * POSENC_ERR_RANGE (n_threads outside 1 .. max_threads),
 * POSENC_ERR_OVERFLOW (n_head * n_query * n_key elements past SIZE_MAX). */
static inline posenc_status posenc__bias_check(uint32_t n_head, uint32_t n_query, uint32_t n_key,
                                               int params_ok, int64_t q_offset,
                                               unsigned n_threads, unsigned max_threads)
{
    if (!posenc__dim_ok(n_head) || n_query < 1 || n_key < 1)
        return POSENC_ERR_DIM;
    if (!params_ok)
        return POSENC_ERR_RANGE;
    if (q_offset < 0 || q_offset + (int64_t)n_query - 1 > POSENC_MAX_POS ||
        (int64_t)n_key - 1 > POSENC_MAX_POS)
        return POSENC_ERR_POS;
    if (n_threads < 1 || n_threads > max_threads)
        return POSENC_ERR_RANGE;
    uint64_t rows = (uint64_t)n_head * n_query; /* may exceed a 32-bit size_t */
    if (rows > SIZE_MAX || (size_t)rows > SIZE_MAX / n_key)
        return POSENC_ERR_OVERFLOW;
    return POSENC_OK;
}

/* The one layout mapping: the element indices of pair k of a rotated part of
 * 2P elements, interleaved (2k, 2k+1) or half (k, k + P). */
static inline void posenc__pair_elems(int layout, size_t P, size_t k, size_t *i0, size_t *i1)
{
    if (layout == POSENC_LAYOUT_INTERLEAVED) {
        *i0 = 2 * k;
        *i1 = 2 * k + 1;
    } else {
        *i0 = k;
        *i1 = k + P;
    }
}

/* posenc_rope_scaling_init's defaults for a valid type (src/math/scaling.c). */
void posenc__scaling_defaults(posenc_rope_scaling *s, posenc_rope_type type);

/* The one ALiBi slope rule (src/math/alibi.c): slope of head h (1-based) of H. */
double posenc__alibi_slope(uint32_t h, uint32_t H);

/* ---- frequencies ---------------------------------------------------------- */

/* The inverse frequency base^(-2k/d) as a double-double, for valid
 * arguments (d >= 1, base > 1). Defined by a fixed recipe (src/math/angle.c) so
 * that one pair and all pairs at once give the same bits:
 *     r = exp(-(2/d) ln base),  E(i) = exp(-(2 i B / d) ln base)  (exact, dd)
 *     f(k) = E(k / B) * R(k mod B),  R(8a + b) = s^a r^b,  s = r^8
 * (r^b and s^a by successive dd products from 1, a, b < 8)
 * with B = POSENC__FREQ_BLOCK; relative error below 2^-94. */
#define POSENC__FREQ_BLOCK 64u
posenc__dd posenc__inv_freq_dd(uint32_t k, uint32_t d, double base);

/* f(k0 .. k0 + m - 1) of the same recipe into hi[], lo[] (the same bits as
 * posenc__inv_freq_dd, at about one dd product per pair). */
void posenc__inv_freqs_dd(uint32_t k0, uint32_t m, uint32_t d, double base, double *hi,
                          double *lo);

/* The same recipe with ln(base) given (from posenc__dd_log): the dynamic
 * and static NTK scalings pass ln(base') of their stretched base. */
void posenc__inv_freqs_dd_log(uint32_t k0, uint32_t m, uint32_t d, posenc__dd log_base,
                              double *hi, double *lo);

/* The frequencies of the block of pairs k0 .. k0 + m - 1 of n_pairs, m at
 * most block (the same recipe, ln(base) given), into hi[0..m), lo[0..m);
 * returns m. The loops over pairs a block at a time (rope.c, sinusoid.c,
 * table.c) step k0 by block. */
uint32_t posenc__freq_block(uint32_t k0, uint32_t n_pairs, uint32_t block, uint32_t d,
                            posenc__dd log_base, double *hi, double *lo);

/* base^(+2k/d) as a double-double: the divisor of the position. */
posenc__dd posenc__divisor_dd(uint32_t k, uint32_t d, double base);

/* ---- sin and cos of the exact angle ------------------------------------- */

/* Constants of the reduction and of the sin/cos kernels, shared by the
 * reference (angle.c) and the vector body (fill_body.h).
 * pi/2 = PIO2_1 + PIO2_2 + PIO2_3 to about 160 bits. */
#define POSENC__PIO2_1 0x1.921fb54442d18p+0
#define POSENC__PIO2_2 0x1.1a62633145c07p-54
#define POSENC__PIO2_3 (-0x1.f1976b7ed8fbcp-110)
#define POSENC__TWO_OVER_PI 0x1.45f306dc9c883p-1
/* Adding and removing 1.5 * 2^52 rounds to the nearest integer (|x| < 2^51). */
#define POSENC__ROUNDER 0x1.8p52
/* Minimax polynomials for sin and cos on [-pi/4, pi/4] (the coefficients of
 * fdlibm's __kernel_sin and __kernel_cos, as in FreeBSD's msun k_sin.c and
 * k_cos.c: |error| below 2^-58 relative before the final additions). */
#define POSENC__S1 (-1.66666666666666324348e-01)
#define POSENC__S2 8.33333333332248946124e-03
#define POSENC__S3 (-1.98412698298579493134e-04)
#define POSENC__S4 2.75573137070700676789e-06
#define POSENC__S5 (-2.50507602534068634195e-08)
#define POSENC__S6 1.58969099521155010221e-10
#define POSENC__C1 4.16666666666666019037e-02
#define POSENC__C2 (-1.38888888888741095749e-03)
#define POSENC__C3 2.48015872894767294178e-05
#define POSENC__C4 (-2.75573143513906633035e-07)
#define POSENC__C5 2.08757232129817482790e-09
#define POSENC__C6 (-1.13596475577881948265e-11)

/* sin and cos of the exact angle pos * f, where f is a double-double
 * frequency and 0 <= pos < 2^31 (the plain C reference; every instruction
 * set's posenc__sincos_fn gives the same bits). Argument reduction modulo
 * pi/2 keeps all digits (see docs/ACCURACY.md). */
void posenc__sincos_dd(int64_t pos, posenc__dd f, double *s, double *c);

/* ---- the float cos/sin fill (src/math/table.c, fill_body.h) ------------------ */

/* Positions between exact anchors in the fill (see fill_body.h and
 * docs/ACCURACY.md). */
#define POSENC__FILL_ANCHOR_EVERY 32

/* Fills a block of cos/sin values, the workhorse of tables, caches and the
 * tensor kernels: for t < n_pos and k < n_pairs,
 *     cos_out[t * ld + k] = (float)(scale * cos((pos0 + t) * f[k]))
 *     sin_out[t * ld + k] = (float)(scale * sin((pos0 + t) * f[k]))
 * with f[k] = f_hi[k] + f_lo[k] exactly (a double-double), each value within
 * 1 ulp of the exact one (absolute 2^-25 |scale| near zero), computed as
 * fill_body.h says, on the chosen instruction set (all give the same bits).
 * Arguments are assumed valid: 0 <= pos0, pos0 + n_pos - 1 <=
 * POSENC_MAX_POS, ld >= n_pairs. Uses about 34 KiB of stack. */
void posenc__sincos_table_f32(int64_t pos0, size_t n_pos, const double *f_hi,
                              const double *f_lo, size_t n_pairs, double scale,
                              float *cos_out, float *sin_out, size_t ld);

/* The plain reference for posenc__sincos_table_f32: every value from
 * posenc__sincos_dd, rounded once. Same arguments and results (the fill
 * may differ from it by one rounding, never by more than 1 ulp). */
void posenc__sincos_table_ref_f32(int64_t pos0, size_t n_pos, const double *f_hi,
                                  const double *f_lo, size_t n_pairs, double scale,
                                  float *cos_out, float *sin_out, size_t ld);

/* Test hook: the fill on an explicit instruction set and output mode
 * (POSENC__FILL_SPLIT or POSENC__FILL_ZIP); 0, or -1 and nothing written
 * when isa is not available. */
int posenc__sincos_table_isa_f32(int isa, int64_t pos0, size_t n_pos, const double *f_hi,
                                 const double *f_lo, size_t n_pairs, double scale,
                                 float *cos_out, float *sin_out, size_t ld, int mode);

/* Well-formedness of a posenc_rope (the checks of posenc_rope_init, and a
 * finite attn_factor); src/math/rope_params.c. */
posenc_status posenc__rope_check(const posenc_rope *r);

/* M-RoPE m well formed and made for r's pairs (src/math/mrope.c):
 * POSENC_OK or POSENC_ERR_RANGE. */
posenc_status posenc__mrope_check(const posenc_mrope *m, const posenc_rope *r);

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
 * which it then owns (src/math/learned.c; used by src/formats/safetensors.c). On
 * POSENC_ERR_NOMEM data is still the caller's. */
posenc_status posenc__learned_adopt(double *data, size_t n_pos, size_t dim, posenc_learned **out);

/* One tensor of a safetensors file, as the strict reader of
 * src/formats/safetensors.c found it in the header: dtype NULL when absent. */
typedef struct posenc__st_tensor {
    const char *dtype; /* "F32", "I64", ... (a static string) */
    size_t rank;
    uint64_t shape[3]; /* the first three dimensions (0 past the rank) */
    uint64_t offset;   /* of the data, in bytes from the file's start */
    uint64_t n_bytes;
} posenc__st_tensor;

/* Reads and checks the whole header of the safetensors file at in (every
 * check of posenc_learned_read_safetensors), then describes each of the n
 * tensors names[i] in out[i]. Errors: those of the header's checks. */
posenc_status posenc__safetensors_find(FILE *in, size_t n, const char *const *names,
                                       posenc__st_tensor *out, posenc_load_error *err);

#endif
