/* rope_vec.c - one head rotated with a model's RoPE (posenc_rope): the
 * first rotary_dim elements turn at the model's (possibly scaled)
 * frequencies with cos and sin multiplied by the attention factor, the rest
 * pass through. The double reference that the tensor kernels match. */
#include "internal.h"

/* Pair k of the rotary part: interleaved (2k, 2k+1), half (k, k + rotary_dim/2). */
static void pair_at(const posenc_rope *r, uint32_t k, uint32_t *i0, uint32_t *i1)
{
    if (r->layout == POSENC_LAYOUT_INTERLEAVED) {
        *i0 = 2 * k;
        *i1 = 2 * k + 1;
    } else {
        *i0 = k;
        *i1 = k + r->rotary_dim / 2;
    }
}

static int all_finite(const double *x, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

/* a cos theta and a sin theta of pair k at pos. */
static void scaled_sincos(const posenc_rope *r, uint32_t k, int64_t pos, double *s, double *c)
{
    posenc__sincos_dd(pos, (posenc__dd){r->inv_freq_hi[k], r->inv_freq_lo[k]}, s, c);
    *s *= r->attn_factor;
    *c *= r->attn_factor;
}

posenc_status posenc_rope_vec_f64(const posenc_rope *r, int64_t pos, int inverse, double *x)
{
    if (!r || !x)
        return POSENC_ERR_NULL;
    posenc_status st = posenc__rope_check(r);
    if (st != POSENC_OK)
        return st;
    if (!posenc__pos_ok(pos))
        return POSENC_ERR_POS;
    if (!all_finite(x, r->head_dim))
        return POSENC_ERR_NOT_FINITE;
    for (uint32_t k = 0; k < r->rotary_dim / 2; k++) {
        uint32_t i0, i1;
        double s, c;
        pair_at(r, k, &i0, &i1);
        scaled_sincos(r, k, pos, &s, &c);
        posenc__rotate_f64(&x[i0], &x[i1], inverse ? -s : s, c);
    }
    return POSENC_OK;
}

posenc_status posenc_rope_vec_dot_f64(const posenc_rope *r, int64_t m, int64_t n,
                                      const double *q, const double *k, double *out)
{
    if (!r || !q || !k || !out)
        return POSENC_ERR_NULL;
    posenc_status st = posenc__rope_check(r);
    if (st != POSENC_OK)
        return st;
    if (!posenc__pos_ok(m) || !posenc__pos_ok(n))
        return POSENC_ERR_POS;
    if (!all_finite(q, r->head_dim) || !all_finite(k, r->head_dim))
        return POSENC_ERR_NOT_FINITE;
    double sum = 0.0;
    for (uint32_t p = 0; p < r->rotary_dim / 2; p++) {
        uint32_t i0, i1;
        double sm, cm, sn, cn;
        pair_at(r, p, &i0, &i1);
        scaled_sincos(r, p, m, &sm, &cm);
        scaled_sincos(r, p, n, &sn, &cn);
        double qa = q[i0], qb = q[i1], ka = k[i0], kb = k[i1];
        posenc__rotate_f64(&qa, &qb, sm, cm);
        posenc__rotate_f64(&ka, &kb, sn, cn);
        sum += qa * ka + qb * kb;
    }
    for (uint32_t i = r->rotary_dim; i < r->head_dim; i++)
        sum += q[i] * k[i];
    *out = sum;
    return POSENC_OK;
}
