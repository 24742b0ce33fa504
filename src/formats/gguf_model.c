/* gguf_model.c - llama.cpp's RoPE for a GGUF file in posenc's terms: the
 * op's posenc_rope_config, and a posenc_model of the file (posenc_gguf.h,
 * tier 3). */
#include "posenc_gguf.h"

#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

posenc_status posenc_gguf_op_config(const posenc_gguf_rope_op *op, uint32_t head_dim,
                                    posenc_rope_config *out)
{
    if (!op || !out)
        return POSENC_ERR_NULL;
    if (!op->rotates || (op->mode != POSENC_GGUF_ROPE_NORM && op->mode != POSENC_GGUF_ROPE_NEOX) ||
        (op->ext_factor != 0.0f && op->ext_factor != 1.0f) || !(op->freq_scale > 0.0f) ||
        op->freq_scale > 1.0f || op->n_dims < 2 || (uint32_t)op->n_dims > head_dim ||
        head_dim > POSENC_ROPE_MAX_HEAD_DIM ||
        (op->freq_factors && op->n_freq_factors != (size_t)op->n_dims / 2))
        return POSENC_ERR_RANGE;
    posenc_rope_config c;
    memset(&c, 0, sizeof c);
    c.head_dim = head_dim;
    c.rotary_dim = (uint32_t)op->n_dims;
    c.base = op->freq_base;
    c.layout = op->mode == POSENC_GGUF_ROPE_NORM ? POSENC_LAYOUT_INTERLEAVED : POSENC_LAYOUT_HALF;
    posenc_rope_type type = op->ext_factor != 0.0f ? POSENC_ROPE_YARN
                            : op->freq_scale != 1.0f ? POSENC_ROPE_LINEAR
                                                     : POSENC_ROPE_DEFAULT;
    if (posenc_rope_scaling_init(&c.scaling, type) != POSENC_OK)
        return POSENC_ERR_RANGE;
    c.scaling.factor = 1.0 / (double)op->freq_scale;
    /* the multiplier of ggml's cos and sin (ggml-cpu/ops.cpp:6187-6202), in
     * float as there */
    float mscale = op->attn_factor;
    if (op->ext_factor != 0.0f)
        mscale *= 1.0f + 0.1f * logf(1.0f / op->freq_scale);
    c.scaling.attention_factor = mscale;
    if (type == POSENC_ROPE_YARN) {
        c.scaling.original_max_position_embeddings = op->n_ctx_orig;
        c.scaling.beta_fast = op->beta_fast;
        c.scaling.beta_slow = op->beta_slow;
        c.scaling.truncate = 1;
    }
    if (op->freq_factors) {
        for (size_t k = 0; k < op->n_freq_factors; k++)
            c.freq_factors[k] = op->freq_factors[k];
        c.scaling.n_freq_factors = op->n_freq_factors;
    }
    *out = c;
    return POSENC_OK;
}

/* The parts of an op that make two layers the same RoPE. */
static int same_op(const posenc_gguf_rope_op *a, const posenc_gguf_rope_op *b)
{
    return a->rotates == b->rotates && a->n_dims == b->n_dims && a->mode == b->mode &&
           a->n_ctx_orig == b->n_ctx_orig && a->freq_base == b->freq_base &&
           a->freq_scale == b->freq_scale && a->ext_factor == b->ext_factor &&
           a->attn_factor == b->attn_factor && a->beta_fast == b->beta_fast &&
           a->beta_slow == b->beta_slow && a->freq_factors == b->freq_factors &&
           !memcmp(a->sections, b->sections, sizeof a->sections);
}

posenc_status posenc_gguf_model(const posenc_gguf *g, const posenc_gguf_hparams *hp,
                                uint64_t n_ctx, posenc_model *m, posenc_load_error *err)
{
    posenc_status s = posenc__load_start(err, g && hp && m);
    if (s != POSENC_OK)
        return s;
    posenc_gguf_rope_op op0, op;
    s = posenc_gguf_llama_layer(g, hp, 0, n_ctx, &op0, err);
    if (s != POSENC_OK)
        return s;
    for (uint32_t il = 1; il < hp->n_layer; il++) {
        if ((s = posenc_gguf_llama_layer(g, hp, il, n_ctx, &op, err)) != POSENC_OK)
            return s;
        if (!same_op(&op0, &op))
            return posenc__load_fail(err, POSENC_ERR_RANGE, "layer %u runs another RoPE than "
                                     "layer 0 (%s): ask posenc_gguf_llama_layer per layer", il,
                                     op.is_swa != op0.is_swa ? "sliding-window layers"
                                     : op.rotates != op0.rotates ? "layers without RoPE"
                                                                 : "per-layer rules");
    }
    posenc_rope_config *cp = malloc(sizeof *cp); /* about 12 KiB: off the stack */
    if (!cp)
        return posenc__load_fail(err, POSENC_ERR_NOMEM, "out of memory");
    s = posenc_gguf_op_config(&op0, hp->n_embd_head_k, cp);
    if (s != POSENC_OK)
        s = posenc__load_fail(err, s, "llama.cpp's RoPE for '%s' (mode %s, ext_factor %g) has no "
                          "posenc_rope_config", hp->arch,
                          posenc_gguf_rope_type_name((posenc_gguf_rope_type)op0.mode),
                          (double)op0.ext_factor);
    else if ((s = posenc_model_set_rope(m, cp, hp->n_layer)) != POSENC_OK)
        s = posenc__load_fail(err, s, "posenc_model_set_rope: %s", posenc_strerror(s));
    free(cp);
    return s;
}
