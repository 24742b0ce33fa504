/* rope_params.c - a model's RoPE parameters: plain RoPE (the "default" scaling
 * of scaling.c) and the well-formedness check every consumer uses. */
#include "internal.h"

posenc_status posenc_rope_init(posenc_rope *r, uint32_t head_dim, uint32_t rotary_dim,
                               double base, posenc_layout layout)
{
    /* Plain RoPE is the scaling "default": one code path for the frequencies. */
    return posenc_rope_init_scaled(r, head_dim, rotary_dim, base, layout, NULL, 0);
}

posenc_status posenc__rope_check(const posenc_rope *r)
{
    if (!r)
        return POSENC_ERR_NULL;
    posenc_status st = posenc__rope_dims_check(r->head_dim, r->rotary_dim);
    if (st != POSENC_OK)
        return st;
    if (!posenc__layout_ok(r->layout))
        return POSENC_ERR_LAYOUT;
    if (!isfinite(r->attn_factor))
        return POSENC_ERR_RANGE;
    return POSENC_OK;
}
