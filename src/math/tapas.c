/* tapas.c - TAPAS's positions reset per table cell
 * (reset_position_index_per_cell).
 *
 * transformers 5.23.0, src/transformers/models/tapas/modeling_tapas.py
 * (TapasEmbeddings.forward):
 *   L100-103 position_ids = arange(seq_length) (none given)
 *   L108-112 each token's cell: (column id, row id) = token_type_ids[..., 1],
 *            token_type_ids[..., 2] (the question's tokens are cell (0, 0))
 *   L114-116 the first position of each cell (reduce_min), gathered per token
 *   L118-121 position_ids = min(max_position_embeddings - 1,
 *            arange(seq_length) - first_position) */
#include "internal.h"

posenc_status posenc_tapas_positions(const uint32_t *column, const uint32_t *row, size_t n_tok,
                                     uint32_t max_position_embeddings, int64_t *out)
{
    if (n_tok && (!column || !row || !out))
        return POSENC_ERR_NULL;
    if (max_position_embeddings == 0)
        return POSENC_ERR_RANGE;
    if (n_tok > POSENC_TAPAS_MAX_TOKENS)
        return POSENC_ERR_POS;
    for (size_t t = 0; t < n_tok; t++) {
        size_t first = 0; /* the cell's first token: the smallest s with the same cell */
        while (column[first] != column[t] || row[first] != row[t])
            first++;
        int64_t p = (int64_t)(t - first);
        out[t] = p < (int64_t)max_position_embeddings - 1 ? p : (int64_t)max_position_embeddings - 1;
    }
    return POSENC_OK;
}
