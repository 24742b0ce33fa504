/* longt5.c - LongT5's transient-global side positions: the distance from a
 * token's block to each global block, which its T5 buckets bias.
 *
 * transformers 5.23.0, src/transformers/models/longt5/modeling_longt5.py:
 *   L179-225 _make_global_fixed_block_ids, for a mask of ones (no padding):
 *     L202-204 block id floor(t / g) (a float32 cumsum of 1/g, minus itself);
 *     L194-199 orphan tokens of a last partial block join the block before:
 *              min(block id, n // g - 1);
 *     L216 num_globals = n // g.
 *   L228-234 _make_side_relative_position_ids: global position k minus the
 *     token's block id.
 *   L806-819 compute_side_bias: T5's bucket of it (bidirectional in the
 *     encoder), relative_attention_num_buckets / _max_distance, read from
 *     global_relative_attention_bias.
 * The local attention (L606-620, L782-795) needs no function of its own: query
 * i of a block (i < block_length = local_radius + 1) against key j of its
 * three-block window (j < 3 block_length) is posenc_t5_bucket(block_length +
 * i, j, ...). Padding (an attention mask with zeros) is not covered. */
#include "internal.h"

posenc_status posenc_longt5_side_positions(uint32_t n_tok, uint32_t global_block_size, int64_t *out,
                                           size_t cap, size_t *n_global)
{
    if (!n_global)
        return POSENC_ERR_NULL;
    if (global_block_size == 0)
        return POSENC_ERR_RANGE;
    if ((int64_t)n_tok - 1 > POSENC_MAX_POS)
        return POSENC_ERR_POS;
    uint32_t ng = n_tok / global_block_size; /* L216 */
    *n_global = ng;
    size_t need = (size_t)n_tok * ng;        /* n_tok * n_tok / g fits: n_tok < 2^32 */
    if (ng && need / ng != n_tok)
        return POSENC_ERR_OVERFLOW;
    if (!out)
        return cap == 0 ? POSENC_OK : POSENC_ERR_NULL;
    if (cap < need)
        return POSENC_ERR_RANGE;
    for (uint32_t t = 0; t < n_tok; t++) {
        int64_t block = t / global_block_size;              /* L202-204 */
        if (block > (int64_t)ng - 1)                        /* L194-199 */
            block = (int64_t)ng - 1;
        for (uint32_t k = 0; k < ng; k++)
            out[(size_t)t * ng + k] = (int64_t)k - block;   /* L233 */
    }
    return POSENC_OK;
}
