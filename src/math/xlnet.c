/* xlnet.c - XLNet's relative positions: the distances whose sinusoids its
 * relative attention reads (the vectors themselves are
 * posenc_sinusoid_layout_fill with POSENC_SINUSOID_CTRL's spec).
 *
 * transformers 5.23.0, src/transformers/models/xlnet/modeling_xlnet.py:
 *   L943-950 attn_type "bi": beg, end = klen, -qlen; "uni": klen, -1
 *   L969 fwd_pos_seq = torch.arange(beg, end, -1.0).float()
 *        (klen, klen - 1, ..., end + 1)
 *   L970-971 clamp to [-clamp_len, clamp_len] when clamp_len > 0
 *   L952-967 bi_data (pretraining only) adds the negated sequence for the
 *        second half of the batch: not produced here.
 *   L940-941, L928-930: inv_freq = 1 / pow(10000, arange(0, d, 2) / d),
 *        [sin | cos] of pos * inv_freq in float32: CTRL's steps. */
#include "internal.h"

posenc_status posenc_xlnet_rel_positions(uint32_t qlen, uint32_t klen, int bidirectional,
                                         int64_t clamp_len, int64_t *out, size_t cap,
                                         size_t *n_out)
{
    if (!n_out)
        return POSENC_ERR_NULL;
    if (qlen == 0 || (int64_t)qlen > POSENC_MAX_POS || (int64_t)klen > POSENC_MAX_POS)
        return POSENC_ERR_POS;
    if (clamp_len > POSENC_MAX_POS)
        return POSENC_ERR_RANGE;
    int64_t beg = klen, end = bidirectional ? -(int64_t)qlen : -1; /* L945, L948 */
    size_t n = (size_t)(beg - end);
    *n_out = n;
    if (!out)
        return cap == 0 ? POSENC_OK : POSENC_ERR_NULL;
    if (cap < n)
        return POSENC_ERR_RANGE;
    for (size_t i = 0; i < n; i++) {
        int64_t p = beg - (int64_t)i; /* L969 */
        if (clamp_len > 0)            /* L970-971 */
            p = p > clamp_len ? clamp_len : p < -clamp_len ? -clamp_len : p;
        out[i] = p;
    }
    return POSENC_OK;
}

/* One frequency of the relative sinusoid, step by step (posenc.h 1.9):
 * modeling_xlnet.py L940-941 (inv_freq), L929-930 (pos_seq * inv_freq, sin,
 * cos); the values are those of posenc_sinusoid_layout_fill_f32/_f64 with
 * CTRL's spec, which this reads back. */
posenc_status posenc_rel_sinusoid_explain(int64_t dist, uint32_t D, uint32_t k,
                                          posenc_rel_sinusoid_step *out)
{
    if (!out)
        return POSENC_ERR_NULL;
    if (dist > POSENC_MAX_POS || dist < -POSENC_MAX_POS)
        return POSENC_ERR_POS;
    if (D < 2 || D > POSENC_MAX_DIM || D % 2)
        return POSENC_ERR_DIM;
    if (k >= D / 2)
        return POSENC_ERR_RANGE;
    posenc_sinusoid_spec spec;
    posenc_status st = posenc_sinusoid_family_spec(POSENC_SINUSOID_CTRL, 0, &spec);
    float *f = malloc(D * sizeof *f);
    double *x = malloc(D * sizeof *x);
    if (!f || !x) {
        free(f);
        free(x);
        return POSENC_ERR_NOMEM;
    }
    if (st == POSENC_OK)
        st = posenc_sinusoid_layout_fill_f32(&spec, &dist, 1, D, f);
    if (st == POSENC_OK)
        st = posenc_sinusoid_layout_fill_f64(&spec, &dist, 1, D, x);
    if (st == POSENC_OK) {
        out->e = (float)(2.0 * k) / (float)D; /* L940: (2k).float() / d */
        out->w = 1.0f / (float)pow((double)(float)spec.base, (double)out->e); /* L941 */
        out->angle = (float)dist * out->w;                                    /* L929 */
        out->sin_f32 = f[k];
        out->cos_f32 = f[D / 2 + k];
        out->w_exact = pow(spec.base, -2.0 * k / (double)D);
        out->angle_exact = (double)dist * out->w_exact;
        out->sin_exact = x[k];
        out->cos_exact = x[D / 2 + k];
    }
    free(f);
    free(x);
    return st;
}
