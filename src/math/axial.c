/* axial.c - Reformer's axial positions: position p reads row p / w of the
 * first axis's table and row p % w of the second's, concatenated.
 *
 * transformers 5.23.0, src/transformers/models/reformer/modeling_reformer.py
 * (AxialPositionEmbeddings): L213-220 the weights [h, 1, d0] and [1, w, d1]
 * (axial_pos_shape = (h, w), axial_pos_embds_dim = (d0, d1)); L228 broadcast
 * to [h, w, d]; L279-290 (inference) reshaped row-major to [h * w, d0 + d1]
 * and indexed by the position ids; L273-276 ids must be below h * w. */
#include "internal.h"

posenc_status posenc_axial_ids(int64_t pos, uint32_t h, uint32_t w, int64_t *row, int64_t *col)
{
    if (!row || !col)
        return POSENC_ERR_NULL;
    if (h == 0 || w == 0)
        return POSENC_ERR_RANGE;
    if (pos < 0 || pos >= (int64_t)h * (int64_t)w)
        return POSENC_ERR_POS;
    *row = pos / w;
    *col = pos % w;
    return POSENC_OK;
}
