/* sinusoid.c - the sinusoidal position vector of the original transformer:
 * PE(pos)[2k] = sin(pos / base^(2k/D)), PE(pos)[2k+1] = cos(pos / base^(2k/D)).
 * Frequencies a block of pairs at a time (posenc__inv_freqs_dd); the double
 * values from the accurate sincos, the float ones from the fill (the same
 * bits as posenc_sinusoid_table_f32). With odd D the last pair is sine-only. */
#include "cpu.h"
#include "internal.h"

/* Pairs per block (stack: 4 x 4 KiB). */
#define BLOCK 128u

/* x[2k] (+)= s, x[2k+1] (+)= c for the (D + 1) / 2 pairs, double (add: x
 * is added to, and must be finite). */
static posenc_status sinusoid_f64(int64_t pos, uint32_t D, double base, double *x, int add)
{
    posenc_status st = posenc__check_vec(pos, D, base, x);
    if (st != POSENC_OK)
        return st;
    if (add && !posenc__all_finite_f64(x, D))
        return POSENC_ERR_NOT_FINITE;
    posenc__dd logb = posenc__dd_log(base);
    double fh[BLOCK], fl[BLOCK], s[BLOCK], c[BLOCK];
    for (uint32_t k0 = 0; k0 < (D + 1) / 2; k0 += BLOCK) {
        uint32_t m = posenc__freq_block(k0, (D + 1) / 2, BLOCK, D, logb, fh, fl);
        posenc__cpu()->sincos(pos, fh, fl, m, s, c);
        for (uint32_t j = 0; j < m; j++) {
            uint32_t i = 2 * (k0 + j);
            x[i] = add ? x[i] + s[j] : s[j];
            if (i + 1 < D)
                x[i + 1] = add ? x[i + 1] + c[j] : c[j];
        }
    }
    return POSENC_OK;
}

/* The same in float: the table's float values (each pair's value does not
 * depend on the block or the output mode it is filled in), added in float. */
static posenc_status sinusoid_f32(int64_t pos, uint32_t D, double base, float *x, int add)
{
    posenc_status st = posenc__check_vec(pos, D, base, x);
    if (st != POSENC_OK)
        return st;
    if (!add) /* one row of the table: the same float values as posenc_sinusoid_table_f32 */
        return posenc_sinusoid_table_f32(pos, 1, D, base, x);
    if (!posenc__all_finite_f32(x, D))
        return POSENC_ERR_NOT_FINITE;
    posenc__dd logb = posenc__dd_log(base);
    double fh[BLOCK], fl[BLOCK];
    float cb[BLOCK], sb[BLOCK];
    for (uint32_t k0 = 0; k0 < (D + 1) / 2; k0 += BLOCK) {
        uint32_t m = posenc__freq_block(k0, (D + 1) / 2, BLOCK, D, logb, fh, fl);
        posenc__cpu()->fill(pos, 1, fh, fl, m, 1.0, cb, sb, m, POSENC__FILL_SPLIT);
        for (uint32_t j = 0; j < m; j++) {
            uint32_t i = 2 * (k0 + j);
            x[i] += sb[j];
            if (i + 1 < D)
                x[i + 1] += cb[j];
        }
    }
    return POSENC_OK;
}

posenc_status posenc_sinusoid_fill_f64(int64_t pos, uint32_t D, double base, double *out)
{
    return sinusoid_f64(pos, D, base, out, 0);
}

posenc_status posenc_sinusoid_fill_f32(int64_t pos, uint32_t D, double base, float *out)
{
    return sinusoid_f32(pos, D, base, out, 0);
}

posenc_status posenc_sinusoid_add_f64(int64_t pos, uint32_t D, double base, double *x)
{
    return sinusoid_f64(pos, D, base, x, 1);
}

posenc_status posenc_sinusoid_add_f32(int64_t pos, uint32_t D, double base, float *x)
{
    return sinusoid_f32(pos, D, base, x, 1);
}
