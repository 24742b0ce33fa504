/* box2d.c - LayoutLM's 2D positions: the six table rows a word's box reads.
 *
 * transformers 5.23.0, src/transformers/models/layoutlm/modeling_layoutlm.py
 * L95-103 (LayoutLMEmbeddings.forward): left = x_position_embeddings(bbox[..., 0]),
 * upper = y_position_embeddings(bbox[..., 1]), right = x(bbox[..., 2]),
 * lower = y(bbox[..., 3]), h = h_position_embeddings(bbox[..., 3] -
 * bbox[..., 1]), w = w_position_embeddings(bbox[..., 2] - bbox[..., 0]),
 * each table max_2d_position_embeddings rows (an index outside them is
 * torch's IndexError). */
#include "internal.h"

posenc_status posenc_box2d_ids(const int64_t box[4], uint32_t max_2d, int64_t ids[6])
{
    if (!box || !ids)
        return POSENC_ERR_NULL;
    if (max_2d == 0)
        return POSENC_ERR_RANGE;
    for (int i = 0; i < 4; i++)
        if (box[i] < 0 || box[i] >= (int64_t)max_2d)
            return POSENC_ERR_POS;
    int64_t h = box[3] - box[1], w = box[2] - box[0];
    if (h < 0 || w < 0)
        return POSENC_ERR_POS; /* also outside the h and w tables */
    ids[POSENC_BOX2D_X0] = box[0];
    ids[POSENC_BOX2D_Y0] = box[1];
    ids[POSENC_BOX2D_X1] = box[2];
    ids[POSENC_BOX2D_Y1] = box[3];
    ids[POSENC_BOX2D_H] = h;
    ids[POSENC_BOX2D_W] = w;
    return POSENC_OK;
}
