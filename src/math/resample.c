/* resample.c - SAM 3 LiteText's learned table resized to the sequence
 * length by bilinear interpolation: which two rows each token mixes, and
 * the weight of the second, in PyTorch's float32 steps (posenc.h).
 *
 * transformers 5.23.0 models/sam3_lite_text/modeling_sam3_lite_text.py
 * L73-88 (Sam3LiteTextTextPositionEmbedding: F.interpolate(position_embedding
 * [1, 1, rows, d], size=(seq_len, d), mode="bilinear") when seq_len != rows),
 * L328-338 (added to the token embeddings). torch 2.13 aten/src/ATen/native/
 * UpSample.h: area_pixel_compute_scale (align_corners false, no scale given:
 * (float)input_size / output_size), area_pixel_compute_source_index
 * (scale * (dst + 0.5) - 0.5, clamped at 0; contracted to one fused
 * multiply-add in its x86 kernels, checked bit for bit against
 * F.interpolate in tests/hf/test_beam_hf.py), the linear kernel's
 * compute_source_index_and_lambda (equal sizes: a copy) and
 * guard_index_and_lambda. */
#include "internal.h"

#include <math.h>

posenc_status posenc_resample_rows(int64_t n_rows, int64_t seq_len, int64_t tok, int64_t *row0,
                                   int64_t *row1, float *weight1)
{
    if (!row0 || !row1 || !weight1)
        return POSENC_ERR_NULL;
    if (n_rows < 1 || n_rows > POSENC_RESAMPLE_MAX_ROWS || seq_len < 1 ||
        seq_len > POSENC_RESAMPLE_MAX_ROWS)
        return POSENC_ERR_RANGE;
    if (tok < 0 || tok >= seq_len)
        return POSENC_ERR_POS;
    if (seq_len == n_rows) {
        *row0 = *row1 = tok;
        *weight1 = 0.0f;
        return POSENC_OK;
    }
    /* both below 2^24: exact in float */
    float scale = (float)n_rows / (float)seq_len;
    float src = fmaf(scale, (float)tok + 0.5f, -0.5f);
    if (src < 0.0f)
        src = 0.0f;
    /* src <= scale * (seq_len - 0.5) - 0.5 < n_rows - 0.5 (rounding moves it
     * by far less than 0.5), so floor(src) <= n_rows - 1 and src - floor(src)
     * is in [0, 1), exact: torch's min and clamps never act here */
    int64_t i0 = (int64_t)floorf(src);
    float lam = src - (float)i0;
    *row0 = i0;
    *row1 = i0 + (i0 < n_rows - 1 ? 1 : 0);
    *weight1 = lam;
    return POSENC_OK;
}
