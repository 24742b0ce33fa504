/* rope_vec.c - one head rotated with a model's RoPE (posenc_rope): the
 * first rotary_dim elements turn at the model's (possibly scaled)
 * frequencies with cos and sin multiplied by the attention factor, the rest
 * pass through. The double reference, and the float one that the tensor
 * kernels (src/tensor/kernels.c) match bit for bit. */
#include "cpu.h"
#include "internal.h"

/* a cos theta and a sin theta of every pair at pos (P <= 512 pairs). */
static void scaled_sincos(const posenc_rope *r, int64_t pos, double *s, double *c)
{
    size_t P = r->rotary_dim / 2;
    posenc__cpu()->sincos(pos, r->inv_freq_hi, r->inv_freq_lo, P, s, c);
    for (size_t k = 0; k < P; k++) {
        s[k] *= r->attn_factor;
        c[k] *= r->attn_factor;
    }
}

/* The argument check of the two rotations, in this order: POSENC_ERR_NULL,
 * posenc__rope_check's, the direction (POSENC_ERR_RANGE), the position
 * (POSENC_ERR_POS), x's head_dim values (float when f32, else double)
 * finite. */
static posenc_status check_vec(const posenc_rope *r, int64_t pos, posenc_direction dir,
                               const void *x, int f32)
{
    if (!r || !x)
        return POSENC_ERR_NULL;
    posenc_status st = posenc__rope_check(r);
    if (st != POSENC_OK)
        return st;
    if (!posenc__direction_ok(dir))
        return POSENC_ERR_RANGE;
    if (!posenc__pos_ok(pos))
        return POSENC_ERR_POS;
    if (!posenc__all_finite(x, r->head_dim, f32))
        return POSENC_ERR_NOT_FINITE;
    return POSENC_OK;
}

posenc_status posenc_rope_vec_f64(const posenc_rope *r, int64_t pos, posenc_direction dir,
                                  double *x)
{
    posenc_status st = check_vec(r, pos, dir, x, 0);
    if (st != POSENC_OK)
        return st;
    double s[POSENC_ROPE_MAX_HEAD_DIM / 2], c[POSENC_ROPE_MAX_HEAD_DIM / 2];
    scaled_sincos(r, pos, s, c);
    for (uint32_t k = 0; k < r->rotary_dim / 2; k++) {
        size_t i0, i1;
        posenc__pair_elems(r->layout, r->rotary_dim / 2, k, &i0, &i1);
        posenc__rotate_f64(&x[i0], &x[i1], dir == POSENC_INVERSE ? -s[k] : s[k], c[k]);
    }
    return POSENC_OK;
}

posenc_status posenc_rope_vec_f32(const posenc_rope *r, int64_t pos, posenc_direction dir, float *x)
{
    posenc_status st = check_vec(r, pos, dir, x, 1);
    if (st != POSENC_OK)
        return st;
    size_t P = r->rotary_dim / 2;
    float cs[POSENC_ROPE_MAX_HEAD_DIM]; /* c[0..P) then s[0..P) */
    posenc__sincos_table_f32(pos, 1, r->inv_freq_hi, r->inv_freq_lo, P, r->attn_factor, cs,
                             cs + P, 2 * P);
    for (size_t k = 0; k < P; k++) {
        size_t i0, i1;
        posenc__pair_elems(r->layout, P, k, &i0, &i1);
        posenc__rotate_f32(&x[i0], &x[i1], dir == POSENC_INVERSE ? -cs[P + k] : cs[P + k], cs[k]);
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
    if (!posenc__all_finite_f64(q, r->head_dim) || !posenc__all_finite_f64(k, r->head_dim))
        return POSENC_ERR_NOT_FINITE;
    double sm[POSENC_ROPE_MAX_HEAD_DIM / 2], cm[POSENC_ROPE_MAX_HEAD_DIM / 2];
    double sn[POSENC_ROPE_MAX_HEAD_DIM / 2], cn[POSENC_ROPE_MAX_HEAD_DIM / 2];
    scaled_sincos(r, m, sm, cm);
    scaled_sincos(r, n, sn, cn);
    double sum = 0.0;
    for (uint32_t p = 0; p < r->rotary_dim / 2; p++) {
        size_t i0, i1;
        posenc__pair_elems(r->layout, r->rotary_dim / 2, p, &i0, &i1);
        double qa = q[i0], qb = q[i1], ka = k[i0], kb = k[i1];
        posenc__rotate_f64(&qa, &qb, sm[p], cm[p]);
        posenc__rotate_f64(&ka, &kb, sn[p], cn[p]);
        sum += qa * ka + qb * kb;
    }
    for (uint32_t i = r->rotary_dim; i < r->head_dim; i++)
        sum += q[i] * k[i];
    *out = sum;
    return POSENC_OK;
}
