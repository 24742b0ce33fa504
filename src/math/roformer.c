/* roformer.c - RoFormer's rotation (Su et al., the RoPE paper's model):
 * interleaved RoPE with base 10000 over the whole head, its cos and sin
 * read from a [sin | cos] table rounded to float, and the rotation done in
 * float32 steps.
 *
 * transformers 5.23.0, src/transformers/models/roformer/modeling_roformer.py:
 *   L55-68 the table (dim = hidden_size / num_attention_heads, L394): numpy
 *     float64 pos / 10000^(2 (j // 2) / dim), sines into the first dim/2
 *     columns, cosines into the rest, each rounded once to float
 *     (POSENC_SINUSOID_MARIAN's spec).
 *   L224 sin, cos = sinusoidal_pos.chunk(2, dim=-1)
 *   L226-228 sin_pos = [s0, s0, s1, s1, ...], cos_pos likewise
 *   L230-233 rotate_half = [-q1, q0, -q3, q2, ...];
 *            q = q * cos_pos + rotate_half * sin_pos
 *   So out[2k] = q[2k] c_k - q[2k+1] s_k, out[2k+1] = q[2k+1] c_k + q[2k] s_k
 *   with theta_k = pos * 10000^(-2k/dim): posenc_rope_apply with
 *   POSENC_LAYOUT_INTERLEAVED, POSENC_FORWARD and D = dim, exactly in real
 *   arithmetic. In float32 each product is rounded, then the sum
 *   (q * cos_pos, rotate_half * sin_pos, their sum: three tensor ops). */
#include "internal.h"

static posenc_status check(int64_t pos, uint32_t head_dim, double base, const void *x)
{
    posenc_status st = posenc__check_vec(pos, head_dim, base, x);
    if (st != POSENC_OK)
        return st;
    return head_dim % 2 ? POSENC_ERR_DIM : POSENC_OK;
}

posenc_status posenc_roformer_rotate_f32(int64_t pos, uint32_t head_dim, double base, float *x)
{
    posenc_status st = check(pos, head_dim, base, x);
    if (st != POSENC_OK)
        return st;
    /* the table's row: sin, cos of theta_k rounded once to float (L66-67,
     * the values of POSENC_SINUSOID_MARIAN's spec) */
    for (uint32_t k = 0; k < head_dim / 2; k++) {
        double sd, cd;
        st = posenc_sincos(pos, k, head_dim, base, &sd, &cd);
        if (st != POSENC_OK)
            return st;
        float s = (float)sd, c = (float)cd;
        float q0 = x[2 * k], q1 = x[2 * k + 1];
        float a0 = q0 * c;  /* query_layer * cos_pos (L233) */
        float a1 = q1 * c;
        float b0 = -q1 * s; /* rotate_half_query_layer * sin_pos (L233) */
        float b1 = q0 * s;
        x[2 * k] = a0 + b0;
        x[2 * k + 1] = a1 + b1;
    }
    return POSENC_OK;
}

posenc_status posenc_roformer_rotate_f64(int64_t pos, uint32_t head_dim, double base, double *x)
{
    posenc_status st = check(pos, head_dim, base, x);
    if (st != POSENC_OK)
        return st;
    return posenc_rope_apply_f64(pos, head_dim, base, POSENC_LAYOUT_INTERLEAVED, POSENC_FORWARD, x);
}
