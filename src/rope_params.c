/* rope_params.c - a model's RoPE parameters: which elements rotate, and the
 * frequency of each pair (inv_freq[k] = base^(-2k/rotary_dim)). */
#include "internal.h"

#include <string.h>

posenc_status posenc_rope_init(posenc_rope *r, uint32_t head_dim, uint32_t rotary_dim,
                               double base, posenc_layout layout)
{
    if (!r)
        return POSENC_ERR_NULL;
    if (head_dim < 1 || head_dim > POSENC_ROPE_MAX_HEAD_DIM)
        return POSENC_ERR_DIM;
    if (rotary_dim < 2 || rotary_dim > head_dim || rotary_dim % 2)
        return POSENC_ERR_RANGE;
    if (!posenc__base_ok(base))
        return POSENC_ERR_BASE;
    if (!posenc__layout_ok(layout))
        return POSENC_ERR_LAYOUT;
    memset(r, 0, sizeof *r);
    r->head_dim = head_dim;
    r->rotary_dim = rotary_dim;
    r->layout = layout;
    r->base = base;
    r->attn_factor = 1.0;
    for (uint32_t k = 0; k < rotary_dim / 2; k++) {
        posenc__dd f = posenc__inv_freq_dd(k, rotary_dim, base);
        r->inv_freq_hi[k] = f.hi;
        r->inv_freq_lo[k] = f.lo;
    }
    return POSENC_OK;
}
