/* rope.c - rotary position embedding of one vector, in either pair layout,
 * its inverse, and the rotated dot product ROPE(m, q) . ROPE(n, k).
 *
 * The frequencies of a block of pairs are derived together (one dd product
 * per pair, posenc__inv_freqs_dd), then the angles go through the chosen
 * instruction set: the float functions take the fill's values (the same
 * bits as tables, caches and the tensor kernels), the double ones the
 * accurate sincos of each pair. */
#include "cpu.h"
#include "internal.h"

/* Pairs handled per block (stack: 4 x 8 KiB at most). */
#define BLOCK 256u

static posenc_status check_args(int64_t pos, uint32_t D, double base, posenc_layout layout,
                                const void *x)
{
    posenc_status st = posenc__check_vec(pos, D, base, x);
    if (st == POSENC_OK && !posenc__layout_ok(layout))
        st = POSENC_ERR_LAYOUT;
    return st;
}

/* check_args, then the direction (POSENC_ERR_RANGE), then x's D values
 * (float when f32, else double) finite (POSENC_ERR_NOT_FINITE). */
static posenc_status check_apply(int64_t pos, uint32_t D, double base, posenc_layout layout,
                                 posenc_direction dir, const void *x, int f32)
{
    posenc_status st = check_args(pos, D, base, layout, x);
    if (st == POSENC_OK && !posenc__direction_ok(dir))
        st = POSENC_ERR_RANGE;
    if (st == POSENC_OK && !posenc__all_finite(x, D, f32))
        st = POSENC_ERR_NOT_FINITE;
    return st;
}

/* Both apply functions, block by block of pairs: the double path with the
 * accurate sincos of each pair, the float one with cos and sin rounded to
 * float as every float path takes them (the fill). The inverse turns by
 * -theta: sin negated (exact). */
static posenc_status apply(int64_t pos, uint32_t D, double base, posenc_layout layout,
                           posenc_direction dir, void *x, int f32)
{
    posenc_status st = check_apply(pos, D, base, layout, dir, x, f32);
    if (st != POSENC_OK)
        return st;
    int inverse = dir == POSENC_INVERSE;
    posenc__dd logb = posenc__dd_log(base);
    double fh[BLOCK], fl[BLOCK], s[BLOCK], c[BLOCK];
    float sb[BLOCK], cb[BLOCK];
    for (uint32_t k0 = 0; k0 < D / 2; k0 += BLOCK) {
        uint32_t m = posenc__freq_block(k0, D / 2, BLOCK, D, logb, fh, fl);
        if (f32)
            posenc__cpu()->fill(pos, 1, fh, fl, m, 1.0, cb, sb, m, POSENC__FILL_SPLIT);
        else
            posenc__cpu()->sincos(pos, fh, fl, m, s, c);
        for (uint32_t j = 0; j < m; j++) {
            size_t i0, i1;
            posenc__pair_elems(layout, D / 2, k0 + j, &i0, &i1);
            if (f32)
                posenc__rotate_f32((float *)x + i0, (float *)x + i1, inverse ? -sb[j] : sb[j],
                                   cb[j]);
            else
                posenc__rotate_f64((double *)x + i0, (double *)x + i1, inverse ? -s[j] : s[j],
                                   c[j]);
        }
    }
    return POSENC_OK;
}

posenc_status posenc_rope_apply_f64(int64_t pos, uint32_t D, double base, posenc_layout layout,
                                    posenc_direction dir, double *x)
{
    return apply(pos, D, base, layout, dir, x, 0);
}

posenc_status posenc_rope_apply_f32(int64_t pos, uint32_t D, double base, posenc_layout layout,
                                    posenc_direction dir, float *x)
{
    return apply(pos, D, base, layout, dir, x, 1);
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
    if (!posenc__all_finite_f64(q, D) || !posenc__all_finite_f64(k, D))
        return POSENC_ERR_NOT_FINITE;
    posenc__dd logb = posenc__dd_log(base);
    double fh[BLOCK], fl[BLOCK], sm[BLOCK], cm[BLOCK], sn[BLOCK], cn[BLOCK];
    double sum = 0.0;
    for (uint32_t k0 = 0; k0 < D / 2; k0 += BLOCK) {
        uint32_t b = posenc__freq_block(k0, D / 2, BLOCK, D, logb, fh, fl);
        posenc__cpu()->sincos(m, fh, fl, b, sm, cm);
        posenc__cpu()->sincos(n, fh, fl, b, sn, cn);
        for (uint32_t j = 0; j < b; j++) {
            size_t i0, i1;
            posenc__pair_elems(layout, D / 2, k0 + j, &i0, &i1);
            double qa = q[i0], qb = q[i1], ka = k[i0], kb = k[i1];
            posenc__rotate_f64(&qa, &qb, sm[j], cm[j]);
            posenc__rotate_f64(&ka, &kb, sn[j], cn[j]);
            sum += qa * ka + qb * kb;
        }
    }
    if (D % 2)
        sum += q[D - 1] * k[D - 1];
    *out = sum;
    return POSENC_OK;
}
