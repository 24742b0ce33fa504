/* rope.c - rotary position embedding of one vector, in either pair layout,
 * its inverse, and the rotated dot product ROPE(m, q) . ROPE(n, k). */
#include "internal.h"

static posenc_status check_args(int64_t pos, uint32_t D, double base, posenc_layout layout,
                                const void *x)
{
    if (!x)
        return POSENC_ERR_NULL;
    if (!posenc__pos_ok(pos))
        return POSENC_ERR_POS;
    if (!posenc__dim_ok(D))
        return POSENC_ERR_DIM;
    if (!posenc__base_ok(base))
        return POSENC_ERR_BASE;
    if (!posenc__layout_ok(layout))
        return POSENC_ERR_LAYOUT;
    return POSENC_OK;
}

/* Index of pair k's partner offset: interleaved pairs are (2k, 2k+1), half
 * pairs are (k, k + D/2). */
static void pair_at(uint32_t k, uint32_t D, posenc_layout layout, uint32_t *i0, uint32_t *i1)
{
    if (layout == POSENC_LAYOUT_INTERLEAVED) {
        *i0 = 2 * k;
        *i1 = 2 * k + 1;
    } else {
        *i0 = k;
        *i1 = k + D / 2;
    }
}

static int all_finite_f64(const double *x, uint32_t D)
{
    for (uint32_t i = 0; i < D; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

static int all_finite_f32(const float *x, uint32_t D)
{
    for (uint32_t i = 0; i < D; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

/* direction +1 rotates by +theta, -1 by -theta (sin flips sign). */
static posenc_status rotate_f64(int64_t pos, uint32_t D, double base, posenc_layout layout,
                                double *x, double direction)
{
    posenc_status st = check_args(pos, D, base, layout, x);
    if (st != POSENC_OK)
        return st;
    if (!all_finite_f64(x, D))
        return POSENC_ERR_NOT_FINITE;
    for (uint32_t k = 0; k < D / 2; k++) {
        uint32_t i0, i1;
        double s, c;
        pair_at(k, D, layout, &i0, &i1);
        posenc__sincos_dd(pos, posenc__inv_freq_dd(k, D, base), &s, &c);
        posenc__rotate_f64(&x[i0], &x[i1], direction * s, c);
    }
    return POSENC_OK;
}

static posenc_status rotate_f32(int64_t pos, uint32_t D, double base, posenc_layout layout,
                                float *x, double direction)
{
    posenc_status st = check_args(pos, D, base, layout, x);
    if (st != POSENC_OK)
        return st;
    if (!all_finite_f32(x, D))
        return POSENC_ERR_NOT_FINITE;
    /* cos and sin rounded to float as every float path takes them (table.c),
     * a block of pairs at a time; the inverse negates sin (exact). */
    float cb[POSENC__PAIRS_BLOCK], sb[POSENC__PAIRS_BLOCK];
    for (uint32_t k0 = 0; k0 < D / 2; k0 += POSENC__PAIRS_BLOCK) {
        uint32_t m = D / 2 - k0 < POSENC__PAIRS_BLOCK ? D / 2 - k0 : POSENC__PAIRS_BLOCK;
        posenc__pairs_f32(pos, k0, m, D, base, cb, sb);
        for (uint32_t j = 0; j < m; j++) {
            uint32_t i0, i1;
            pair_at(k0 + j, D, layout, &i0, &i1);
            posenc__rotate_f32(&x[i0], &x[i1], direction < 0 ? -sb[j] : sb[j], cb[j]);
        }
    }
    return POSENC_OK;
}

posenc_status posenc_rope_apply_f64(int64_t pos, uint32_t D, double base,
                                    posenc_layout layout, double *x)
{
    return rotate_f64(pos, D, base, layout, x, +1.0);
}

posenc_status posenc_rope_apply_f32(int64_t pos, uint32_t D, double base,
                                    posenc_layout layout, float *x)
{
    return rotate_f32(pos, D, base, layout, x, +1.0);
}

posenc_status posenc_rope_invert_f64(int64_t pos, uint32_t D, double base,
                                     posenc_layout layout, double *x)
{
    return rotate_f64(pos, D, base, layout, x, -1.0);
}

posenc_status posenc_rope_invert_f32(int64_t pos, uint32_t D, double base,
                                     posenc_layout layout, float *x)
{
    return rotate_f32(pos, D, base, layout, x, -1.0);
}

posenc_status posenc_rope_dot_f64(int64_t m, int64_t n, uint32_t D, double base,
                                  posenc_layout layout, const double *q,
                                  const double *k, double *out)
{
    if (!out || !k)
        return POSENC_ERR_NULL;
    posenc_status st = check_args(m, D, base, layout, q);
    if (st != POSENC_OK)
        return st;
    if (!posenc__pos_ok(n))
        return POSENC_ERR_POS;
    if (!all_finite_f64(q, D) || !all_finite_f64(k, D))
        return POSENC_ERR_NOT_FINITE;
    double sum = 0.0;
    for (uint32_t p = 0; p < D / 2; p++) {
        uint32_t i0, i1;
        double sm, cm, sn, cn;
        pair_at(p, D, layout, &i0, &i1);
        posenc__dd f = posenc__inv_freq_dd(p, D, base);
        posenc__sincos_dd(m, f, &sm, &cm);
        posenc__sincos_dd(n, f, &sn, &cn);
        double qa = q[i0], qb = q[i1], ka = k[i0], kb = k[i1];
        posenc__rotate_f64(&qa, &qb, sm, cm);
        posenc__rotate_f64(&ka, &kb, sn, cn);
        sum += qa * ka + qb * kb;
    }
    if (D % 2)
        sum += q[D - 1] * k[D - 1];
    *out = sum;
    return POSENC_OK;
}
