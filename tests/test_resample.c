/* test_resample.c - SAM 3 LiteText's learned table resized to the sequence
 * length (posenc_resample_rows, POSENC_IDS_RESAMPLED): rows and weights
 * derived by hand from PyTorch's float32 steps (posenc.h; bit-for-bit
 * against F.interpolate in tests/hf/test_beam_hf.py), every refusal, and the
 * registry's reading of the family (needs jansson). */
#include "check.h"

#ifdef POSENC_HAVE_JSON
#include "model_harness.h"
#endif

#include "posenc.h"

#include <math.h>

static int64_t r0, r1;
static float w1;

static int rows(int64_t n_rows, int64_t seq_len, int64_t tok)
{
    return posenc_resample_rows(n_rows, seq_len, tok, &r0, &r1, &w1) == POSENC_OK;
}

TEST(rows_by_hand)
{
    /* the table's own length: the rows as they are, no arithmetic */
    CHECK(rows(77, 77, 76) && r0 == 76 && r1 == 76 && w1 == 0.0f);
    /* 4 rows to 2 tokens: scale 2, src = 2 (t + 0.5) - 0.5 = 0.5, 2.5 */
    CHECK(rows(4, 2, 0) && r0 == 0 && r1 == 1 && w1 == 0.5f);
    CHECK(rows(4, 2, 1) && r0 == 2 && r1 == 3 && w1 == 0.5f);
    /* 4 rows to 8 tokens: scale 0.5; token 0 at -0.25, clamped to 0; the
     * last at 3.25 reads the last row twice */
    CHECK(rows(4, 8, 0) && r0 == 0 && r1 == 1 && w1 == 0.0f);
    CHECK(rows(4, 8, 2) && r0 == 0 && r1 == 1 && w1 == 0.75f);
    CHECK(rows(4, 8, 7) && r0 == 3 && r1 == 3 && w1 == 0.25f);
    /* one row: every token reads it twice (weight 0.2f * 4.5 - 0.5, nearest
     * 0.4f, on the same row) */
    CHECK(rows(1, 5, 4) && r0 == 0 && r1 == 0 && w1 == 0.4f);
    /* 77 rows to 5 tokens: scale = 15.4f = 15.399999618530273...; token 0:
     * 15.4f / 2 - 0.5 = 7.19999980926513671875 (exact), row 7, weight
     * 0.19999980926513671875 */
    CHECK(rows(77, 5, 0) && r0 == 7 && r1 == 8 && w1 == 0.19999980926513671875f);
    /* 2 rows to 5 tokens, token 1: scale 0.4f; the exact 0.4f * 1.5 - 0.5 is
     * 0.10000000894069671630859375 = 13421774 2^-27, a float: the fused
     * multiply-add's answer (rounding the product first gives
     * 0.100000023841857910156, 3 ulps higher) */
    CHECK(rows(2, 5, 1) && r0 == 0 && r1 == 1 && w1 == ldexpf(13421774.0f, -27));
}

TEST(refusals)
{
    CHECK(posenc_resample_rows(4, 2, 0, NULL, &r1, &w1) == POSENC_ERR_NULL);
    CHECK(posenc_resample_rows(4, 2, 0, &r0, NULL, &w1) == POSENC_ERR_NULL);
    CHECK(posenc_resample_rows(4, 2, 0, &r0, &r1, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_resample_rows(0, 2, 0, &r0, &r1, &w1) == POSENC_ERR_RANGE);
    CHECK(posenc_resample_rows(POSENC_RESAMPLE_MAX_ROWS + 1, 2, 0, &r0, &r1, &w1) ==
          POSENC_ERR_RANGE);
    CHECK(posenc_resample_rows(4, 0, 0, &r0, &r1, &w1) == POSENC_ERR_RANGE);
    CHECK(posenc_resample_rows(4, POSENC_RESAMPLE_MAX_ROWS + 1, 0, &r0, &r1, &w1) ==
          POSENC_ERR_RANGE);
    CHECK(posenc_resample_rows(4, 2, 2, &r0, &r1, &w1) == POSENC_ERR_POS);
    CHECK(posenc_resample_rows(4, 2, -1, &r0, &r1, &w1) == POSENC_ERR_POS);
    /* the largest length: token 2^23 - 1 still has its half exact */
    CHECK(rows(POSENC_RESAMPLE_MAX_ROWS, POSENC_RESAMPLE_MAX_ROWS / 2,
               POSENC_RESAMPLE_MAX_ROWS / 2 - 1));
    CHECK(r0 == POSENC_RESAMPLE_MAX_ROWS - 2 && r1 == POSENC_RESAMPLE_MAX_ROWS - 1 &&
          w1 == 0.5f);
}

#ifdef POSENC_HAVE_JSON
/* Sam3LiteTextTextConfig: 77 positions, hidden 512, 12 layers, one table
 * resampled; through the sam3_lite_text wrapper's text_config too. */
TEST(registry)
{
    posenc_model_ids ids;
    posenc_model_table tb;
    CHECK(read_text("{\"model_type\": \"sam3_lite_text_text_model\"}", NULL) == POSENC_OK);
    CHECK(posenc_model_layer_ids(&model, 11, &ids) == POSENC_OK &&
          ids.kind == POSENC_IDS_RESAMPLED);
    CHECK(posenc_model_layer_table(&model, 0, &tb) == POSENC_OK && tb.positions == 77 &&
          tb.dim == 512 && tb.offset == 0);
    CHECK_EQ_INT(posenc_model_n_layer(&model), 12);
    CHECK(strcmp(posenc_ids_kind_name(POSENC_IDS_RESAMPLED), "resampled") == 0);
    char buf[256];
    CHECK(posenc_model_layer_describe(&model, 0, buf, sizeof buf) == POSENC_OK);
    CHECK(strstr(buf, "ids=resampled resample=bilinear align_corners=false") != NULL);
    CHECK(read_text("{\"model_type\": \"sam3_lite_text\", \"text_config\": "
                    "{\"max_position_embeddings\": 32, \"hidden_size\": 64, "
                    "\"num_hidden_layers\": 2}}",
                    NULL) == POSENC_OK);
    CHECK(posenc_model_layer_table(&model, 1, &tb) == POSENC_OK && tb.positions == 32 &&
          tb.dim == 64);
    CHECK(read_text("{\"model_type\": \"sam3_lite_text_text_model\", "
                    "\"max_position_embeddings\": 0}",
                    NULL) != POSENC_OK);
}
#endif

int main(void)
{
    RUN(rows_by_hand);
    RUN(refusals);
#ifdef POSENC_HAVE_JSON
    RUN(registry);
#endif
    return check_summary("resample");
}
