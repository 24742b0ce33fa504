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
