/* test_model_buckets.c - LongT5, CPM-Ant and VITS through the registry and
 * the model layer (src/config/config_buckets.c, src/model/model_buckets.c):
 * each layer's settings, the relative ids and side buckets at positions
 * against values derived by hand from the families' code (T5's bucket lines,
 * modeling_longt5.py L145-234, modeling_cpmant.py L459-502 and L605-620,
 * modeling_vits.py L960-995), the queries' refusals, and the reader's
 * refusals by key. tests/hf/test_buckets_hf.py compares the same with
 * transformers' running code. Needs jansson. */
#include "check.h"

#ifndef POSENC_HAVE_JSON

int main(void)
{
    (void)check__failed_checks;
    check_skip("model_buckets", 1, "LongT5, CPM-Ant, VITS from configs: built without jansson",
               "libjansson-dev");
    return check_summary("model_buckets");
}

#else

#include "model_harness.h"

#define LONGT5_LOCAL                                                                               \
    "{\"model_type\": \"longt5\", \"num_layers\": 2, \"num_decoder_layers\": 1, "                 \
    "\"local_radius\": 3, \"relative_attention_num_buckets\": 8, "                                \
    "\"relative_attention_max_distance\": 16, \"global_block_size\": 4}"
#define LONGT5_TGLOBAL                                                                             \
    "{\"model_type\": \"longt5\", \"num_layers\": 2, \"local_radius\": 3, "                       \
    "\"global_block_size\": 3, \"encoder_attention_type\": \"transient-global\", "                \
    "\"relative_attention_num_buckets\": 8, \"relative_attention_max_distance\": 16}"
#define CPMANT                                                                                     \
    "{\"model_type\": \"cpmant\", \"num_hidden_layers\": 2, \"position_bias_num_buckets\": 16, "  \
    "\"position_bias_max_distance\": 32, \"segment_types\": 4, \"prompt_length\": 3}"
#define VITS "{\"model_type\": \"vits\", \"num_hidden_layers\": 3, \"window_size\": 2}"

static int64_t ids(uint32_t layer, int64_t q, int64_t k)
{
    int64_t out = -99;
    CHECK(posenc_model_layer_relative_ids(&model, layer, &q, 1, &k, 1, &out) == POSENC_OK);
    return out;
}

TEST(longt5_local)
{
    CHECK(read_text(LONGT5_LOCAL, NULL) == POSENC_OK);
    CHECK(posenc_model_n_layer(&model) == 3);
    posenc_model_longt5 lt;
    CHECK(posenc_model_layer_longt5(&model, 1, &lt) == POSENC_OK);
    CHECK(lt.buckets == 8 && lt.max_distance == 16 && lt.block_length == 4 &&
          lt.global_block_size == 0);
    /* the encoder is not T5's full attention; the decoder is */
    posenc_model_t5 t5;
    CHECK(posenc_model_layer_t5(&model, 0, &t5) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_t5(&model, 2, &t5) == POSENC_OK && t5.bidirectional == 0);
    CHECK(posenc_model_layer_longt5(&model, 2, &lt) == POSENC_ERR_RANGE);
    /* nb' = 4 per side, max_exact 2: k - q = 0 -> 0; +3 -> 4 + 2 + trunc(ln(3/2) /
     * ln(16/2) * 2 = 0.39) = 6; -3 -> 2; |k - q| >= 4: outside the window, -1 */
    CHECK(ids(0, 5, 5) == 0);
    CHECK(ids(0, 5, 8) == 6);
    CHECK(ids(0, 5, 2) == 2);
    CHECK(ids(0, 5, 9) == -1 && ids(0, 5, 1) == -1);
    CHECK(ids(2, 5, 9) == 0); /* the decoder: a later key is bucket 0 */
    size_t ng = 7;
    CHECK(posenc_model_layer_side_buckets(&model, 0, 10, NULL, 0, NULL, 0, &ng) ==
          POSENC_ERR_RANGE);
    char buf[256];
    CHECK(posenc_model_layer_describe(&model, 0, buf, sizeof buf) == POSENC_OK);
    CHECK(strstr(buf, "attention=local local_radius=3 block_length=4") != NULL);
    CHECK(strstr(model.ignored, "global_block_size") != NULL);
}

TEST(longt5_transient_global)
{
    CHECK(read_text(LONGT5_TGLOBAL, NULL) == POSENC_OK);
    posenc_model_longt5 lt;
    CHECK(posenc_model_layer_longt5(&model, 0, &lt) == POSENC_OK);
    CHECK(lt.block_length == 4 && lt.global_block_size == 3);
    /* 10 tokens: 3 global blocks, tokens 9 in block min(3, 2) = 2 (the orphan
     * joins the block before); side = g - block, T5's bucket: token 0 -> 0, 5
     * (+1), 6 (+2: 4 + 2 + trunc(0)); token 9 -> 2 (-2), 1 (-1), 0 */
    int64_t q[2] = {0, 9}, out[6];
    size_t ng = 0;
    CHECK(posenc_model_layer_side_buckets(&model, 0, 10, q, 2, NULL, 0, &ng) == POSENC_OK &&
          ng == 3);
    CHECK(posenc_model_layer_side_buckets(&model, 0, 10, q, 2, out, 6, &ng) == POSENC_OK);
    CHECK(out[0] == 0 && out[1] == 5 && out[2] == 6 && out[3] == 2 && out[4] == 1 &&
          out[5] == 0);
    /* refusals: cap, NULL, a position past the sequence, no global block */
    CHECK(posenc_model_layer_side_buckets(&model, 0, 10, q, 2, out, 5, &ng) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_side_buckets(&model, 0, 10, q, 2, NULL, 6, &ng) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_side_buckets(&model, 0, 10, NULL, 2, out, 6, &ng) ==
          POSENC_ERR_NULL);
    CHECK(posenc_model_layer_side_buckets(&model, 0, 10, q, 2, out, 6, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_side_buckets(&model, 0, 9, q, 2, out, 6, &ng) == POSENC_ERR_POS);
    int64_t neg = -1;
    CHECK(posenc_model_layer_side_buckets(&model, 0, 9, &neg, 1, out, 6, &ng) == POSENC_ERR_POS);
    CHECK(posenc_model_layer_side_buckets(&model, 0, 2, q, 1, out, 6, &ng) == POSENC_OK &&
          ng == 0);
    CHECK(posenc_model_layer_side_buckets(&model, 9, 10, q, 2, out, 6, &ng) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_side_buckets(&model, 0, (uint32_t)POSENC_MAX_POS + 2, q, 2, out, 6,
                                          &ng) == POSENC_ERR_POS);
    char buf[256];
    CHECK(posenc_model_layer_describe(&model, 1, buf, sizeof buf) == POSENC_OK);
    CHECK(strstr(buf, "attention=transient-global local_radius=3 block_length=4 global_block_size=3 "
                      "side_buckets=8") != NULL);
    /* the defaults of LongT5Config: radius 127, 16, 32 buckets, 128 */
    CHECK(read_text("{\"model_type\": \"longt5\", \"encoder_attention_type\": "
                    "\"transient-global\"}",
                    NULL) == POSENC_OK);
    CHECK(posenc_model_n_layer(&model) == 12);
    CHECK(posenc_model_layer_longt5(&model, 5, &lt) == POSENC_OK && lt.block_length == 128 &&
          lt.global_block_size == 16 && lt.buckets == 32 && lt.max_distance == 128);
}

TEST(cpmant)
{
    CHECK(read_text(CPMANT, NULL) == POSENC_OK);
    posenc_model_cpmant c;
    CHECK(posenc_model_layer_cpmant(&model, 1, &c) == POSENC_OK);
    CHECK(c.buckets == 16 && c.max_distance == 32 && c.segment_types == 4 &&
          c.prompt_length == 3);
    /* prompt 0..2 in segment 0, text from 3 in segment 2: inside a segment
     * T5's bidirectional bucket (+1 -> 8 + 1 = 9), across 16 + q_seg * 4 + k_seg */
    CHECK(ids(0, 1, 2) == 9 && ids(0, 5, 6) == 9);
    CHECK(ids(0, 1, 5) == 18);
    CHECK(ids(0, 5, 1) == 24);
    posenc_model_t5 t5;
    uint32_t w;
    CHECK(posenc_model_layer_t5(&model, 0, &t5) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_window(&model, 0, &w) == POSENC_ERR_RANGE);
    posenc_model_longt5 lt;
    CHECK(posenc_model_layer_longt5(&model, 0, &lt) == POSENC_ERR_RANGE);
    char buf[256];
    CHECK(posenc_model_layer_describe(&model, 0, buf, sizeof buf) == POSENC_OK);
    CHECK(strcmp(buf, " ids=cpmant buckets=16 max_distance=32 segment_types=4 prompt_length=3") ==
          0);
    /* CpmAntConfig's defaults: 48 layers, 512, 2048, 32, 32 */
    CHECK(read_text("{\"model_type\": \"cpmant\"}", NULL) == POSENC_OK);
    CHECK(posenc_model_n_layer(&model) == 48);
    CHECK(posenc_model_layer_cpmant(&model, 47, &c) == POSENC_OK && c.buckets == 512 &&
          c.max_distance == 2048 && c.segment_types == 32 && c.prompt_length == 32);
}

TEST(vits)
{
    CHECK(read_text(VITS, NULL) == POSENC_OK);
    uint32_t w = 0;
    CHECK(posenc_model_layer_window(&model, 2, &w) == POSENC_OK && w == 2);
    CHECK(posenc_model_layer_window(&model, 3, &w) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_window(&model, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_cpmant(&model, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_longt5(&model, 0, NULL) == POSENC_ERR_NULL);
    /* row (k - q) + 2 of 5, or -1 beyond the window */
    CHECK(ids(1, 3, 5) == 4 && ids(1, 3, 1) == 0 && ids(1, 3, 3) == 2);
    CHECK(ids(1, 3, 6) == -1 && ids(1, 3, 0) == -1);
    posenc_model_cpmant c;
    CHECK(posenc_model_layer_cpmant(&model, 0, &c) == POSENC_ERR_RANGE);
    char buf[256];
    CHECK(posenc_model_layer_describe(&model, 0, buf, sizeof buf) == POSENC_OK);
    CHECK(strcmp(buf, " ids=window window_size=2 rows=5 beyond_window=zeros") == 0);
    CHECK(read_text("{\"model_type\": \"vits\"}", NULL) == POSENC_OK);
    CHECK(posenc_model_n_layer(&model) == 6);
    CHECK(posenc_model_layer_window(&model, 5, &w) == POSENC_OK && w == 4);
}

/* posenc_model_layer_relative_ids over the other relative layers (T5, DeBERTa)
 * and its refusals */
TEST(relative_ids_any_layer)
{
    int64_t q[3] = {0, 1, 40}, out[9];
    CHECK(read_text("{\"model_type\": \"t5\", \"num_layers\": 1}", NULL) == POSENC_OK);
    CHECK(posenc_model_layer_relative_ids(&model, 0, q, 3, q, 3, out) == POSENC_OK);
    uint32_t b;
    CHECK(posenc_t5_bucket(1, 40, 32, 128, 1, &b) == POSENC_OK && out[5] == (int64_t)b);
    CHECK(out[0] == 0 && out[1] == 17 && out[3] == 1);
    CHECK(read_text("{\"model_type\": \"deberta\", \"relative_attention\": true, "
                    "\"pos_att_type\": \"c2p|p2c\"}",
                    NULL) == POSENC_OK);
    CHECK(posenc_model_layer_relative_ids(&model, 0, q, 3, q, 3, out) == POSENC_OK);
    CHECK(out[1] == -1 && out[2] == -40 && out[6] == 40);
    CHECK(read_text("{\"model_type\": \"deberta-v2\", \"relative_attention\": true, "
                    "\"pos_att_type\": [\"p2c\"], \"position_buckets\": 8, "
                    "\"max_relative_positions\": 32}",
                    NULL) == POSENC_OK);
    CHECK(posenc_model_layer_relative_ids(&model, 0, q, 3, q, 3, out) == POSENC_OK);
    int64_t lb;
    CHECK(posenc_deberta_log_bucket(40, 8, 32, &lb) == POSENC_OK && out[6] == lb);
    int64_t bad = -1;
    CHECK(posenc_model_layer_relative_ids(&model, 0, &bad, 1, q, 1, out) == POSENC_ERR_POS);
    CHECK(read_text("{\"model_type\": \"deberta\", \"relative_attention\": true, "
                    "\"pos_att_type\": \"c2p|p2c\"}",
                    NULL) == POSENC_OK);
    CHECK(posenc_model_layer_relative_ids(&model, 0, &bad, 1, q, 1, out) == POSENC_ERR_POS);
    CHECK(read_text(LONGT5_LOCAL, NULL) == POSENC_OK);
    CHECK(posenc_model_layer_relative_ids(&model, 0, &bad, 1, q, 1, out) == POSENC_ERR_POS);
    CHECK(posenc_model_layer_relative_ids(&model, 0, NULL, 1, q, 1, out) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_relative_ids(&model, 0, q, 1, NULL, 1, out) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_relative_ids(&model, 0, q, 1, q, 1, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_relative_ids(&model, 0, q, 0, q, 0, out) == POSENC_OK);
    CHECK(posenc_model_layer_relative_ids(&model, 3, q, 1, q, 1, out) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_relative_ids(NULL, 0, q, 1, q, 1, out) == POSENC_ERR_NULL);
    CHECK(read_text(CPMANT, NULL) == POSENC_OK);
    CHECK(posenc_model_layer_relative_ids(&model, 0, &bad, 1, q, 1, out) == POSENC_ERR_POS);
    CHECK(read_text("{\"model_type\": \"gpt2\", \"n_layer\": 1}", NULL) == POSENC_OK);
    CHECK(posenc_model_layer_relative_ids(&model, 0, q, 1, q, 1, out) == POSENC_ERR_RANGE);
    posenc_model_longt5 lt;
    CHECK(posenc_model_layer_longt5(&model, 0, &lt) == POSENC_ERR_RANGE);
}

/* ---- the reader's refusals: status, key, a phrase of the message ---------------------- */

static void refused(const char *json, posenc_status want, const char *key, const char *phrase)
{
    posenc_config_error err;
    posenc_status st = posenc_model_from_config_text(json, strlen(json), NULL, &model, &err);
    int ok = st == want && strcmp(err.key, key) == 0 && strstr(err.detail, phrase) != NULL;
    if (!ok)
        fprintf(stderr, "refused %.70s: status %d (want %d), key '%s', detail '%s'\n", json, st,
                want, err.key, err.detail);
    CHECK(ok);
}

/* DeBERTa's pos_att_type: only "c2p" and "p2c" add a relative term
 * (modeling_deberta.py L180-183, L306-330; modeling_deberta_v2.py L171-175,
 * L303-338), a string lowercased, split at '|' and stripped
 * (configuration_deberta_v2.py L87-88): naming neither, or null (the class's
 * default), the relative ids are read by no term and the layer's positions
 * are its learned table (position_biased_input) or none. */
TEST(deberta_pos_att_type)
{
    static const char *used[] = {"\"c2p|p2c\"", "\" P2C \"", "\"p2p|C2P\"", "[\"p2c\"]",
                                 "[\"c2p\", \"p2p\"]"};
    static const char *unused[] = {"null", "\"none\"", "\"p2p\"", "[]", "[\"C2P\"]",
                                   "\"c2p p2c\""};
    char text[256];
    for (size_t i = 0; i < sizeof used / sizeof used[0]; i++) {
        snprintf(text, sizeof text,
                 "{\"model_type\": \"deberta-v2\", \"relative_attention\": true, "
                 "\"pos_att_type\": %s}",
                 used[i]);
        CHECK(read_text(text, NULL) == POSENC_OK);
        CHECK(posenc_model_scheme(&model) == POSENC_SCHEME_RELATIVE_BUCKETS);
    }
    for (size_t i = 0; i < sizeof unused / sizeof unused[0]; i++) {
        for (int biased = 0; biased < 2; biased++) {
            snprintf(text, sizeof text,
                     "{\"model_type\": \"deberta\", \"relative_attention\": true, "
                     "\"position_biased_input\": %s, \"pos_att_type\": %s}",
                     biased ? "true" : "false", unused[i]);
            CHECK(read_text(text, NULL) == POSENC_OK);
            CHECK(posenc_model_scheme(&model) ==
                  (biased ? POSENC_SCHEME_LEARNED : POSENC_SCHEME_NONE));
        }
    }
    CHECK(read_text("{\"model_type\": \"deberta\", \"relative_attention\": true}", NULL) ==
          POSENC_OK);
    CHECK(posenc_model_scheme(&model) == POSENC_SCHEME_LEARNED);
}

/* num_hidden_layers is the T5 classes' alias of num_layers (attribute_map,
 * configuration_t5.py L37-41), set after the fields: the encoder's count;
 * num_decoder_layers falls back to num_layers as the fields hold it (L65-66),
 * SwitchTransformers' to its own default 12 (configuration_switch_transformers.py
 * L65, L92-94). */
TEST(t5_layer_alias)
{
    static const struct {
        const char *json;
        uint32_t enc, dec;
    } cases[] = {
        {"{\"model_type\": \"t5\", \"num_hidden_layers\": 3}", 3, 6},
        {"{\"model_type\": \"t5\", \"num_hidden_layers\": 3, \"num_layers\": 5}", 3, 5},
        {"{\"model_type\": \"mt5\", \"num_hidden_layers\": 3}", 3, 8},
        {"{\"model_type\": \"longt5\", \"num_hidden_layers\": 2, "
         "\"num_decoder_layers\": 4}",
         2, 4},
        {"{\"model_type\": \"switch_transformers\", \"num_layers\": 5}", 5, 12},
        {"{\"model_type\": \"switch_transformers\", \"num_layers\": 5, "
         "\"num_decoder_layers\": null}",
         5, 5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(read_text(cases[i].json, NULL) == POSENC_OK);
        CHECK(posenc_model_n_layer(&model) == cases[i].enc + cases[i].dec);
        posenc_model_t5 t;
        /* the last encoder layer (LongT5's: its own blocks, not T5's), the first
         * decoder layer */
        CHECK(posenc_model_layer_t5(&model, cases[i].enc - 1, &t) != POSENC_OK ||
              t.bidirectional);
        CHECK(posenc_model_layer_t5(&model, cases[i].enc, &t) == POSENC_OK && !t.bidirectional);
    }
}

/* a name the family's config class neither declares nor maps is not read:
 * MPNetConfig, DebertaConfig, CpmAntConfig know num_hidden_layers, hidden_size,
 * max_position_embeddings only (configuration_mpnet.py L48-58); XLNetConfig
 * maps num_hidden_layers to n_layer (configuration_xlnet.py L99-104) but not
 * num_layers */
TEST(unknown_aliases_unread)
{
    CHECK(read_text("{\"model_type\": \"mpnet\", \"num_layers\": 3, \"d_model\": 64, "
                    "\"n_positions\": 40}",
                    NULL) == POSENC_OK);
    CHECK(posenc_model_n_layer(&model) == 12);
    posenc_model_table tb;
    CHECK(posenc_model_layer_table(&model, 0, &tb) == POSENC_OK && tb.positions == 512 &&
          tb.dim == 768);
    CHECK(read_text("{\"model_type\": \"cpmant\", \"n_layer\": 3}", NULL) == POSENC_OK);
    CHECK(posenc_model_n_layer(&model) == 48);
    CHECK(read_text("{\"model_type\": \"xlnet\", \"num_layers\": 3}", NULL) == POSENC_OK);
    CHECK(posenc_model_n_layer(&model) == 24);
    CHECK(read_text("{\"model_type\": \"xlnet\", \"num_hidden_layers\": 3, \"n_layer\": 5}",
                    NULL) == POSENC_OK);
    CHECK(posenc_model_n_layer(&model) == 3);
}

TEST(refusals)
{
    refused("{\"model_type\": \"longt5\", \"encoder_attention_type\": \"global\"}",
            POSENC_ERR_FORMAT, "encoder_attention_type",
            "'global' is not one of LongT5's: local, transient-global");
    refused("{\"model_type\": \"longt5\", \"encoder_attention_type\": 3}", POSENC_ERR_FORMAT,
            "encoder_attention_type", "must be a string");
    refused("{\"model_type\": \"longt5\", \"local_radius\": -1}", POSENC_ERR_FORMAT,
            "local_radius", "must be a non-negative integer");
    refused("{\"model_type\": \"longt5\", \"local_radius\": 2147483647}", POSENC_ERR_RANGE,
            "local_radius", "is past");
    refused("{\"model_type\": \"longt5\", \"global_block_size\": 1.5}", POSENC_ERR_FORMAT,
            "global_block_size", "must be a non-negative integer");
    refused("{\"model_type\": \"longt5\", \"encoder_attention_type\": \"transient-global\", "
            "\"global_block_size\": 0}",
            POSENC_ERR_RANGE, "global_block_size", "outside 1..");
    refused("{\"model_type\": \"longt5\", \"relative_attention_num_buckets\": 2}",
            POSENC_ERR_RANGE, "relative_attention_num_buckets", "outside 4..65536");
    refused("{\"model_type\": \"cpmant\", \"position_bias_num_buckets\": 2}", POSENC_ERR_RANGE,
            "position_bias_num_buckets", "outside 4..65536");
    refused("{\"model_type\": \"cpmant\", \"position_bias_max_distance\": 128}",
            POSENC_ERR_RANGE, "position_bias_max_distance", "must exceed num_buckets / 4 = 128");
    refused("{\"model_type\": \"cpmant\", \"segment_types\": 2}", POSENC_ERR_RANGE,
            "segment_types", "outside 3..65536 (the forward puts text tokens in segment 2)");
    refused("{\"model_type\": \"cpmant\", \"prompt_length\": 4294967296}", POSENC_ERR_RANGE,
            "prompt_length", "is past");
    refused("{\"model_type\": \"cpmant\", \"segment_types\": \"32\"}", POSENC_ERR_FORMAT,
            "segment_types", "must be a number");
    refused("{\"model_type\": \"cpmant\", \"position_bias_num_buckets\": -4}", POSENC_ERR_FORMAT,
            "position_bias_num_buckets", "non-negative");
    refused("{\"model_type\": \"cpmant\", \"position_bias_max_distance\": -4}",
            POSENC_ERR_FORMAT, "position_bias_max_distance", "non-negative");
    refused("{\"model_type\": \"cpmant\", \"prompt_length\": -4}", POSENC_ERR_FORMAT,
            "prompt_length", "non-negative");
    refused("{\"model_type\": \"vits\", \"window_size\": null}", POSENC_ERR_FORMAT,
            "window_size", "null: transformers 5.23's VitsConfig takes an integer only");
    refused("{\"model_type\": \"vits\", \"window_size\": 0}", POSENC_ERR_RANGE, "window_size",
            "0 makes no emb_rel_k");
    refused("{\"model_type\": \"vits\", \"window_size\": -2}", POSENC_ERR_FORMAT, "window_size",
            "non-negative");
    /* the upper ends */
    refused("{\"model_type\": \"longt5\", \"encoder_attention_type\": \"transient-global\", "
            "\"global_block_size\": 2147483648}",
            POSENC_ERR_RANGE, "global_block_size", "outside 1..2147483647");
    refused("{\"model_type\": \"cpmant\", \"position_bias_num_buckets\": 65537}",
            POSENC_ERR_RANGE, "position_bias_num_buckets", "outside 4..65536");
    refused("{\"model_type\": \"cpmant\", \"position_bias_max_distance\": 2147483648}",
            POSENC_ERR_RANGE, "position_bias_max_distance", "and be at most 2147483647");
    refused("{\"model_type\": \"cpmant\", \"segment_types\": 65537}", POSENC_ERR_RANGE,
            "segment_types", "outside 3..65536");
    refused("{\"model_type\": \"vits\", \"window_size\": 2147483648}", POSENC_ERR_RANGE,
            "window_size", "outside 1..2147483647");
    refused("{\"model_type\": \"vits\", \"window_size\": \"4\"}", POSENC_ERR_FORMAT,
            "window_size", "must be a number");
}

/* ---- ProphetNet (quirk_prophetnet; posenc_model_layer_prophetnet) ---- */

#define PROPHETNET                                                                                 \
    "{\"model_type\": \"prophetnet\", \"num_encoder_layers\": 2, \"num_decoder_layers\": 3, "     \
    "\"hidden_size\": 16, \"max_position_embeddings\": 40}"

TEST(prophetnet)
{
    CHECK(read_text(PROPHETNET, NULL) == POSENC_OK);
    CHECK(posenc_model_n_layer(&model) == 5);
    posenc_model_prophetnet pn;
    posenc_model_table tb;
    posenc_model_t5 t5;
    /* the encoder: the learned table alone, rows from pad_token_id (0) + 1 */
    CHECK(posenc_model_layer_prophetnet(&model, 1, &pn) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_table(&model, 1, &tb) == POSENC_OK && tb.positions == 40 &&
          tb.offset == 1 && tb.offset_from_pad && tb.dim == 16);
    /* the decoder: the same table beside its buckets (ProphetNetConfig's 32, 128, ngram 2) */
    CHECK(posenc_model_layer_prophetnet(&model, 2, &pn) == POSENC_OK && pn.buckets == 32 &&
          pn.max_distance == 128 && pn.ngram == 2);
    CHECK(posenc_model_layer_table(&model, 4, &tb) == POSENC_OK && tb.offset == 1);
    CHECK(posenc_model_layer_t5(&model, 2, &t5) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_prophetnet(&model, 2, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_prophetnet(&model, 5, &pn) != POSENC_OK);
    /* main stream, d = q - k (compute_relative_buckets, max_exact 16): below 16 itself;
     * 20: 16 + ln(20/16) / ln(128/16) * 16 = 17.717 -> 17; 200: 16 + 19.43 -> 31 (the
     * last); a later key: 0 */
    CHECK(ids(2, 7, 2) == 5);
    CHECK(ids(3, 20, 0) == 17);
    CHECK(ids(4, 200, 0) == 31);
    CHECK(ids(2, 2, 5) == 0);
    /* predicting streams: [bucket(q - k + 1) | bucket(q - k - 1)] per key */
    int64_t q[2] = {5, 3}, k[2] = {2, 3}, out[8];
    CHECK(posenc_model_layer_prophetnet_predict(&model, 2, q, 2, k, 2, out) == POSENC_OK);
    CHECK(out[0] == 4 && out[1] == 3 && out[2] == 2 && out[3] == 1); /* q 5: 4, 3 | 2, 1 */
    CHECK(out[4] == 2 && out[5] == 1 && out[6] == 0 && out[7] == 0); /* q 3: 2, 1 | 0, 0 */
    CHECK(posenc_model_layer_prophetnet_predict(&model, 2, q, 2, k, 2, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_prophetnet_predict(&model, 2, NULL, 2, k, 2, out) ==
          POSENC_ERR_NULL);
    CHECK(posenc_model_layer_prophetnet_predict(&model, 2, q, 2, NULL, 2, out) ==
          POSENC_ERR_NULL);
    CHECK(posenc_model_layer_prophetnet_predict(&model, 0, q, 2, k, 2, out) == POSENC_ERR_RANGE);
    int64_t bad = -1, far = POSENC_MAX_POS, zero = 0;
    CHECK(posenc_model_layer_prophetnet_predict(&model, 2, &bad, 1, k, 1, out) == POSENC_ERR_POS);
    /* q - k + 1 past POSENC_MAX_POS */
    CHECK(posenc_model_layer_prophetnet_predict(&model, 2, &far, 1, &zero, 1, out) ==
          POSENC_ERR_POS);
    /* where fl32(max_exact + v) rounds up to the next integer: 166 buckets, 1000, distance
     * 517 is 144 in transformers' compute_relative_buckets, 143 in T5's
     * _relative_position_bucket (both run in tests/hf/test_prophet_hf.py) */
    CHECK(read_text("{\"model_type\": \"prophetnet\", \"num_buckets\": 166, "
                    "\"relative_max_distance\": 1000, \"num_encoder_layers\": 1, "
                    "\"num_decoder_layers\": 1}",
                    NULL) == POSENC_OK);
    uint32_t t5b;
    CHECK(posenc_t5_bucket(517, 0, 166, 1000, 0, &t5b) == POSENC_OK && t5b == 143);
    CHECK(ids(1, 517, 0) == 144);
    /* pad_token_id moves the rows (the predicting streams' one further) */
    CHECK(read_text("{\"model_type\": \"prophetnet\", \"pad_token_id\": 3, \"ngram\": 4, "
                    "\"num_encoder_layers\": 1, \"num_decoder_layers\": 1}",
                    NULL) == POSENC_OK);
    CHECK(posenc_model_layer_table(&model, 1, &tb) == POSENC_OK && tb.offset == 4 &&
          tb.positions == 512 && tb.dim == 1024);
    CHECK(posenc_model_layer_prophetnet(&model, 1, &pn) == POSENC_OK && pn.ngram == 4);
}

TEST(prophetnet_refusals)
{
    refused("{\"model_type\": \"prophetnet\", \"pad_token_id\": null}", POSENC_ERR_FORMAT,
            "pad_token_id", "pad_token_id is null: ProphetNet's positions are counted from "
            "padding_idx");
    refused("{\"model_type\": \"prophetnet\", \"pad_token_id\": 511}", POSENC_ERR_RANGE,
            "pad_token_id", "leaves no row of the 512-row position table");
    refused("{\"model_type\": \"prophetnet\", \"ngram\": 1025}", POSENC_ERR_RANGE, "ngram",
            "outside 1..1024");
    refused("{\"model_type\": \"prophetnet\", \"num_buckets\": 1}", POSENC_ERR_RANGE,
            "num_buckets", "outside 2..");
    refused("{\"model_type\": \"prophetnet\", \"num_buckets\": 2000000}", POSENC_ERR_RANGE,
            "num_buckets", "outside 2..");
    refused("{\"model_type\": \"prophetnet\", \"relative_max_distance\": 16}", POSENC_ERR_RANGE,
            "relative_max_distance", "must exceed num_buckets / 2 = 16");
    refused("{\"model_type\": \"prophetnet\", \"relative_max_distance\": 2147483648}",
            POSENC_ERR_RANGE, "relative_max_distance", "and be at most");
    refused("{\"model_type\": \"prophetnet\", \"hidden_size\": 0}", POSENC_ERR_DIM,
            "hidden_size", "outside 1..");
    refused("{\"model_type\": \"prophetnet\", \"max_position_embeddings\": 0}", POSENC_ERR_RANGE,
            "max_position_embeddings", "outside 1..");
    refused("{\"model_type\": \"prophetnet\", \"num_decoder_layers\": 0}", POSENC_ERR_RANGE,
            "num_decoder_layers", "outside 1..");
    refused("{\"model_type\": \"prophetnet\", \"num_buckets\": \"32\"}", POSENC_ERR_FORMAT,
            "num_buckets", "must be a number");
}

int main(void)
{
    RUN(prophetnet);
    RUN(prophetnet_refusals);
    RUN(longt5_local);
    RUN(longt5_transient_global);
    RUN(cpmant);
    RUN(vits);
    RUN(relative_ids_any_layer);
    RUN(deberta_pos_att_type);
    RUN(t5_layer_alias);
    RUN(unknown_aliases_unread);
    RUN(refusals);
    return check_summary("model_buckets");
}

#endif
