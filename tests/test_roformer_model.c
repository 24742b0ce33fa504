/* test_roformer_model.c - RoFormer (model_type roformer) through the
 * registry and the model layer: what quirk_roformer reads (head
 * hidden_size // num_attention_heads, base 10000 fixed by the code, the
 * table's rows, rotary_value, the keys the code never reads), and
 * posenc_model_layer_rope_rows with its errors. The numbers are
 * transformers 5.23.0's (models/roformer/modeling_roformer.py L49-82,
 * L115-247, L390-396; configuration_roformer.py L46-66); the rotation is
 * checked against a hand trace of theta_k = pos * 10000^(-2k/d) here and
 * against transformers' running code in tests/hf/test_roformer_hf.py.
 * Needs jansson. */
#include "check.h"

#ifndef POSENC_HAVE_JSON

int main(void)
{
    (void)check__failed_checks;
    check_skip("roformer_model", 3, "RoFormer's registry entry: built without jansson",
               "libjansson-dev");
    return check_summary("roformer_model");
}

#else

#include "model_harness.h"

/* junnyu/roformer_chinese_base's config.json */
static const char CHINESE_BASE[] =
    "{\"architectures\": [\"RoFormerForMaskedLM\"], \"embedding_size\": 768, "
    "\"hidden_size\": 768, \"max_position_embeddings\": 1536, \"model_type\": \"roformer\", "
    "\"num_attention_heads\": 12, \"num_hidden_layers\": 12, \"pad_token_id\": 0, "
    "\"rotary_value\": false, \"type_vocab_size\": 2, \"vocab_size\": 50000}";

TEST(chinese_base)
{
    CHECK(read_text(CHINESE_BASE, NULL) == POSENC_OK);
    CHECK(strcmp(posenc_model_type(&model), "roformer") == 0);
    CHECK(posenc_model_n_layer(&model) == 12 && posenc_model_scheme(&model) == POSENC_SCHEME_ROPE);
    posenc_rope_config c;
    CHECK(posenc_model_layer_rope_config(&model, 11, &c) == POSENC_OK);
    /* RoFormerEncoder L394-396: the table is max_position_embeddings x
     * (hidden_size // num_attention_heads) = 1536 x 64; L62: base 10000 */
    CHECK(c.head_dim == 64 && c.rotary_dim == 64 && c.base == 10000.0 &&
          c.layout == POSENC_LAYOUT_INTERLEAVED && c.scaling.type == POSENC_ROPE_DEFAULT);
    int64_t rows = -1;
    int values = -1;
    CHECK(posenc_model_layer_rope_rows(&model, 0, &rows, &values) == POSENC_OK);
    CHECK(rows == 1536 && values == 0);
    char line[512];
    CHECK(posenc_model_layer_describe(&model, 0, line, sizeof line) == POSENC_OK);
    CHECK(strstr(line, " layout=interleaved head_dim=64 rotary_dim=64 base=10000 positions=1536 "
                       "rotary_value=0") != NULL);
    CHECK(strcmp(posenc_model_ignored(&model), "embedding_size") == 0);
    /* the rotation at pos 3, pair 1 (elements 2, 3): theta = 3 * 10000^(-2/64),
     * interleaved: out[2] = x2 cos - x3 sin, out[3] = x3 cos + x2 sin (L230-233) */
    posenc_rope r;
    CHECK(posenc_model_layer_rope(&model, 0, 4, &r) == POSENC_OK);
    double x[64] = {0};
    x[2] = 0.75;
    x[3] = -0.5;
    CHECK(posenc_rope_vec_f64(&r, 3, POSENC_FORWARD, x) == POSENC_OK);
    double th = 3.0 * pow(10000.0, -2.0 / 64.0);
    CHECK_NEAR(x[2], 0.75 * cos(th) + 0.5 * sin(th), 1e-15);
    CHECK_NEAR(x[3], -0.5 * cos(th) + 0.75 * sin(th), 1e-15);
    CHECK(x[0] == 0 && x[1] == 0 && x[4] == 0);
}

TEST(keys_the_code_never_reads)
{
    /* rotary_value true; rope_theta, rope_scaling and partial_rotary_factor
     * are not read by RoFormer's code (its base is written in, L62, and the
     * whole head turns, L224-245): ignored, not applied */
    CHECK(read_text("{\"model_type\": \"roformer\", \"hidden_size\": 50, "
                    "\"num_attention_heads\": 4, \"num_hidden_layers\": 3, "
                    "\"max_position_embeddings\": 40, \"rotary_value\": true, "
                    "\"rope_theta\": 500000.0, \"rope_scaling\": {\"rope_type\": \"linear\", "
                    "\"factor\": 4.0}, \"partial_rotary_factor\": 0.5}",
                    NULL) == POSENC_OK);
    posenc_rope_config c;
    CHECK(posenc_model_layer_rope_config(&model, 2, &c) == POSENC_OK);
    /* 50 // 4 = 12 (L125 int(50 / 4), L395 50 // 4) */
    CHECK(c.head_dim == 12 && c.rotary_dim == 12 && c.base == 10000.0 &&
          c.scaling.type == POSENC_ROPE_DEFAULT);
    int64_t rows;
    int values;
    CHECK(posenc_model_layer_rope_rows(&model, 2, &rows, &values) == POSENC_OK);
    CHECK(rows == 40 && values == 1);
    CHECK(strcmp(posenc_model_ignored(&model), "rope_theta rope_scaling partial_rotary_factor") ==
          0);
    /* the config class's defaults: 12 layers, 768 / 12, 1536 rows; names
     * RoFormerConfig does not map (n_embd, n_head, n_positions) change nothing */
    CHECK(read_text("{\"model_type\": \"roformer\", \"n_embd\": 32, \"n_head\": 4, "
                    "\"n_positions\": 10}", NULL) == POSENC_OK);
    posenc_rope_config c2;
    CHECK(posenc_model_layer_rope_config(&model, 0, &c2) == POSENC_OK && c2.head_dim == 64);
    CHECK(posenc_model_layer_rope_rows(&model, 11, &rows, &values) == POSENC_OK);
    CHECK(rows == 1536 && values == 0 && posenc_model_n_layer(&model) == 12);
}

TEST(rows_errors)
{
    int64_t rows = 7;
    int values = 7;
    CHECK(read_text(CHINESE_BASE, NULL) == POSENC_OK);
    CHECK(posenc_model_layer_rope_rows(NULL, 0, &rows, &values) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_rope_rows(&model, 0, NULL, &values) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_rope_rows(&model, 0, &rows, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_rope_rows(&model, 12, &rows, &values) == POSENC_ERR_RANGE);
    CHECK(rows == 7 && values == 7);
    /* a learned table is not a RoPE layer */
    CHECK(read_text("{\"model_type\": \"gpt2\"}", NULL) == POSENC_OK);
    CHECK(posenc_model_layer_rope_rows(&model, 0, &rows, &values) == POSENC_ERR_RANGE);
    /* a RoPE of another family takes any position and turns no values */
    CHECK(read_text("{\"model_type\": \"llama\", " L32 "}", NULL) == POSENC_OK);
    CHECK(posenc_model_layer_rope_rows(&model, 1, &rows, &values) == POSENC_OK);
    CHECK(rows == 0 && values == 0);
    char line[512];
    CHECK(posenc_model_layer_describe(&model, 0, line, sizeof line) == POSENC_OK);
    CHECK(strstr(line, "rotary_value") == NULL && strstr(line, "positions=") == NULL);
}

int main(void)
{
    RUN(chinese_base);
    RUN(keys_the_code_never_reads);
    RUN(rows_errors);
    return check_summary("roformer_model");
}

#endif
