/* table.c - blocks of cos/sin values for many positions and pairs, shared by
 * sinusoid tables, the RoPE cache and the tensor kernels; and the public
 * sinusoid table fills.
 *
 * The fill itself is fill_body.h, written once in a small vector vocabulary
 * and compiled per instruction set: in plain C in table_scalar.c (one
 * double per "vector"), in kernels_avx2.c and kernels_avx512.c with vector
 * registers.
 * The instruction set is the one the CPU layer chose (cpu.h), so
 * POSENC_ISA=scalar and POSENC_SCALAR_ONLY=1 reach this loop as well; every
 * path gives the same bits. The reference (posenc__sincos_table_ref_f32)
 * evaluates every value directly; tests compare the two. */
#include "cpu.h"
#include "internal.h"

#include <string.h>

void posenc__sincos_table_ref_f32(int64_t pos0, size_t n_pos, const double *f_hi,
                                  const double *f_lo, size_t n_pairs, double scale,
                                  float *cos_out, float *sin_out, size_t ld)
{
    for (size_t t = 0; t < n_pos; t++) {
        for (size_t k = 0; k < n_pairs; k++) {
            double s, c;
            posenc__sincos_dd(pos0 + (int64_t)t, (posenc__dd){f_hi[k], f_lo[k]}, &s, &c);
            cos_out[t * ld + k] = (float)(scale * c);
            sin_out[t * ld + k] = (float)(scale * s);
        }
    }
}

/* ---- dispatch ------------------------------------------------------------ */

int posenc__sincos_table_isa_f32(int isa, int64_t pos0, size_t n_pos, const double *f_hi,
                                 const double *f_lo, size_t n_pairs, double scale,
                                 float *cos_out, float *sin_out, size_t ld, int mode)
{
    if (!posenc__isa_available(isa))
        return -1;
    posenc__isa_ops_of(isa)->fill(pos0, n_pos, f_hi, f_lo, n_pairs, scale, cos_out, sin_out, ld,
                                  mode);
    return 0;
}

void posenc__sincos_table_f32(int64_t pos0, size_t n_pos, const double *f_hi,
                              const double *f_lo, size_t n_pairs, double scale,
                              float *cos_out, float *sin_out, size_t ld)
{
    posenc__cpu()->fill(pos0, n_pos, f_hi, f_lo, n_pairs, scale, cos_out, sin_out, ld,
                        POSENC__FILL_SPLIT);
}

/* ---- public sinusoid tables --------------------------------------------- */

static posenc_status check_table(int64_t pos0, size_t n_pos, uint32_t D, double base,
                                 const void *out)
{
    if (!out)
        return POSENC_ERR_NULL;
    if (!posenc__dim_ok(D))
        return POSENC_ERR_DIM;
    posenc_status st = posenc__check_base_pos(base, pos0);
    if (st != POSENC_OK || n_pos == 0)
        return st;
    if ((uint64_t)n_pos - 1 > (uint64_t)(POSENC_MAX_POS - pos0))
        return POSENC_ERR_POS;
    if (n_pos > SIZE_MAX / D)
        return POSENC_ERR_OVERFLOW;
    return POSENC_OK;
}

/* Pairs whose frequencies are derived at a time (stack: 8 KiB). */
#define FREQ_CHUNK 512u

/* The rows of a checked, non-empty float table; logb = log(base). */
static void table_f32(int64_t pos0, size_t n_pos, uint32_t D, posenc__dd logb, float *out)
{
    uint32_t n_full = D / 2; /* pairs with both sin and cos */
    double f_hi[FREQ_CHUNK], f_lo[FREQ_CHUNK];
    /* row t: out[t*D + 2k] = sin, out[t*D + 2k + 1] = cos */
    for (uint32_t k0 = 0; k0 < n_full; k0 += FREQ_CHUNK) {
        uint32_t m = posenc__freq_block(k0, n_full, FREQ_CHUNK, D, logb, f_hi, f_lo);
        posenc__cpu()->fill(pos0, n_pos, f_hi, f_lo, m, 1.0, NULL, out + 2 * (size_t)k0, D,
                            POSENC__FILL_ZIP);
    }
    if (D % 2) {
        /* The sine-only last pair: the same fill, through a small buffer. */
        posenc__inv_freqs_dd_log(D / 2, 1, D, logb, f_hi, f_lo);
        float cb[256], sb[256];
        for (size_t t0 = 0; t0 < n_pos; t0 += 256) {
            size_t n = n_pos - t0 < 256 ? n_pos - t0 : 256;
            posenc__cpu()->fill(pos0 + (int64_t)t0, n, f_hi, f_lo, 1, 1.0, cb, sb, 1,
                                POSENC__FILL_SPLIT);
            for (size_t t = 0; t < n; t++)
                out[(t0 + t) * D + D - 1] = sb[t];
        }
    }
}

/* The rows of a checked, non-empty double table; logb = log(base). */
static void table_f64(int64_t pos0, size_t n_pos, uint32_t D, posenc__dd logb, double *out)
{
    uint32_t n_pairs = (D + 1) / 2; /* the last one sine-only when D is odd */
    double f_hi[FREQ_CHUNK], f_lo[FREQ_CHUNK], s[FREQ_CHUNK], c[FREQ_CHUNK];
    for (uint32_t k0 = 0; k0 < n_pairs; k0 += FREQ_CHUNK) {
        uint32_t m = posenc__freq_block(k0, n_pairs, FREQ_CHUNK, D, logb, f_hi, f_lo);
        for (size_t t = 0; t < n_pos; t++) {
            posenc__cpu()->sincos(pos0 + (int64_t)t, f_hi, f_lo, m, s, c);
            double *row = out + t * D;
            for (uint32_t j = 0; j < m; j++) {
                size_t i = 2 * (size_t)(k0 + j);
                row[i] = s[j];
                if (i + 1 < D)
                    row[i + 1] = c[j];
            }
        }
    }
}

/* The two public tables: one check, one log(base), then the rows in the
 * caller's type (o32 or o64, the other NULL). */
static posenc_status table(int64_t pos0, size_t n_pos, uint32_t D, double base, float *o32,
                           double *o64)
{
    posenc_status st = check_table(pos0, n_pos, D, base, o32 ? (const void *)o32 : o64);
    if (st != POSENC_OK || n_pos == 0)
        return st;
    posenc__dd logb = posenc__dd_log(base);
    if (o32)
        table_f32(pos0, n_pos, D, logb, o32);
    else
        table_f64(pos0, n_pos, D, logb, o64);
    return POSENC_OK;
}

posenc_status posenc_sinusoid_table_f32(int64_t pos0, size_t n_pos, uint32_t D, double base,
                                        float *out)
{
    return table(pos0, n_pos, D, base, out, NULL);
}

posenc_status posenc_sinusoid_table_f64(int64_t pos0, size_t n_pos, uint32_t D, double base,
                                        double *out)
{
    return table(pos0, n_pos, D, base, NULL, out);
}
