/* window_rel.c - windowed relative positions (Shaw et al.) as VITS's text
 * encoder uses them: key j of query i reads row (j - i) + window_size of
 * the learned tables emb_rel_k / emb_rel_v ([2 window_size + 1, head_dim])
 * when |j - i| <= window_size, and nothing (a zero vector) beyond.
 *
 * transformers 5.23.0, src/transformers/models/vits/modeling_vits.py:
 *   L865-867 the tables, 2 window_size + 1 rows
 *   L907-911 scores += q . emb_rel_k[...] through
 *   L960-967 _get_relative_embeddings: zero-padded by length - (window + 1)
 *            on both sides, sliced to the 2 length - 1 relative positions
 *            -(length - 1) .. length - 1
 *   L969-982 _relative_position_to_absolute_position: column j - i +
 *            length - 1 of row i, i.e. the table row (j - i) + window_size
 *   L943-947 the values' side, the same rows (emb_rel_v). */
#include "internal.h"

posenc_status posenc_window_rel_index(int64_t query_pos, int64_t key_pos, uint32_t window_size,
                                      int64_t *row)
{
    if (!row)
        return POSENC_ERR_NULL;
    if (!posenc__pos_ok(query_pos) || !posenc__pos_ok(key_pos))
        return POSENC_ERR_POS;
    if (window_size == 0 || window_size > POSENC_MAX_POS)
        return POSENC_ERR_RANGE;
    int64_t r = key_pos - query_pos;
    *row = (r < -(int64_t)window_size || r > (int64_t)window_size) ? -1 : r + window_size;
    return POSENC_OK;
}
