/* sinusoid.c - the sinusoidal position vector of the original transformer:
 * PE(pos)[2k] = sin(pos / base^(2k/D)), PE(pos)[2k+1] = cos(pos / base^(2k/D)). */
#include "internal.h"

static posenc_status check_args(int64_t pos, uint32_t D, double base, const void *buf)
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

/* sin and cos of pair k; the element 2k+1 may be past the end (odd D). */
static void pair_sincos(int64_t pos, uint32_t k, uint32_t D, double base, double *s, double *c)
{
    posenc__sincos_dd(pos, posenc__inv_freq_dd(k, D, base), s, c);
}

posenc_status posenc_sinusoid_fill_f64(int64_t pos, uint32_t D, double base, double *out)
{
    posenc_status st = check_args(pos, D, base, out);
    if (st != POSENC_OK)
        return st;
    for (uint32_t i = 0; i < D; i += 2) {
        double s, c;
        pair_sincos(pos, i / 2, D, base, &s, &c);
        out[i] = s;
        if (i + 1 < D)
            out[i + 1] = c;
    }
    return POSENC_OK;
}

posenc_status posenc_sinusoid_fill_f32(int64_t pos, uint32_t D, double base, float *out)
{
    posenc_status st = check_args(pos, D, base, out);
    if (st != POSENC_OK)
        return st;
    /* One row of the table: the same float values as posenc_sinusoid_table_f32. */
    return posenc_sinusoid_table_f32(pos, 1, D, base, out);
}

posenc_status posenc_sinusoid_add_f64(int64_t pos, uint32_t D, double base, double *x)
{
    posenc_status st = check_args(pos, D, base, x);
    if (st != POSENC_OK)
        return st;
    for (uint32_t i = 0; i < D; i++)
        if (!isfinite(x[i]))
            return POSENC_ERR_NOT_FINITE;
    for (uint32_t i = 0; i < D; i += 2) {
        double s, c;
        pair_sincos(pos, i / 2, D, base, &s, &c);
        x[i] += s;
        if (i + 1 < D)
            x[i + 1] += c;
    }
    return POSENC_OK;
}

posenc_status posenc_sinusoid_add_f32(int64_t pos, uint32_t D, double base, float *x)
{
    posenc_status st = check_args(pos, D, base, x);
    if (st != POSENC_OK)
        return st;
    for (uint32_t i = 0; i < D; i++)
        if (!isfinite(x[i]))
            return POSENC_ERR_NOT_FINITE;
    float cb[POSENC__PAIRS_BLOCK], sb[POSENC__PAIRS_BLOCK];
    for (uint32_t k0 = 0; k0 < D / 2; k0 += POSENC__PAIRS_BLOCK) {
        uint32_t m = D / 2 - k0 < POSENC__PAIRS_BLOCK ? D / 2 - k0 : POSENC__PAIRS_BLOCK;
        posenc__pairs_f32(pos, k0, m, D, base, cb, sb);
        for (uint32_t j = 0; j < m; j++) {
            x[2 * (k0 + j)] += sb[j];
            x[2 * (k0 + j) + 1] += cb[j];
        }
    }
    if (D % 2) {
        /* the sine-only last pair, as the table computes it */
        double s, c;
        pair_sincos(pos, D / 2, D, base, &s, &c);
        x[D - 1] += (float)s;
    }
    return POSENC_OK;
}
