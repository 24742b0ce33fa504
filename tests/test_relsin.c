/* test_relsin.c - the relative sinusoid (POSENC_SCHEME_RELATIVE_SINUSOID):
 * Funnel's token positions per block, one frequency's steps
 * (posenc_rel_sinusoid_explain), and, with the config reader, XLNet's and
 * Funnel's models (posenc_model_layer_rel_sinusoid,
 * posenc_model_rel_sinusoid_positions) against distances worked by hand
 * from transformers 5.23's code: modeling_xlnet.py L943-971 (arange(klen,
 * -qlen or -1, -1), clamped), modeling_funnel.py L186-216 (stride_pool_pos,
 * relative_pos) and L254-281 (stride_pool). The numbers against
 * transformers' running code are tests/hf/test_relsin_hf.py's. */
#include "check.h"
#include "posenc_model.h"

#include <math.h>
#include <string.h>

static int same(const int64_t *a, const int64_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

TEST(funnel_factorized_positions)
{
    int64_t out[16];
    size_t n = 0;
    int pooled = -1;
    /* separate_cls, truncate_seq: ([0] + [0..5])[:-1:2] = [0, 1, 3]; again [0, 1] */
    CHECK(posenc_funnel_factorized_positions(6, 1, 1, 1, out, 16, &n, &pooled) == POSENC_OK);
    CHECK(n == 3 && same(out, (const int64_t[]){0, 1, 3}, 3) && pooled == 1);
    CHECK(posenc_funnel_factorized_positions(6, 2, 1, 1, out, 16, &n, &pooled) == POSENC_OK);
    CHECK(n == 2 && same(out, (const int64_t[]){0, 1}, 2) && pooled == 1);
    /* separate_cls without truncate_seq: ([0] + [0..5])[::2] = [0, 1, 3, 5] */
    CHECK(posenc_funnel_factorized_positions(6, 1, 1, 0, out, 16, &n, NULL) == POSENC_OK);
    CHECK(n == 4 && same(out, (const int64_t[]){0, 1, 3, 5}, 4));
    /* plain: [0..8][::2] = [0, 2, 4, 6, 8]; again [0, 4, 8] */
    CHECK(posenc_funnel_factorized_positions(9, 2, 0, 0, out, 16, &n, &pooled) == POSENC_OK);
    CHECK(n == 3 && same(out, (const int64_t[]){0, 4, 8}, 3) && pooled == 1);
    /* block 0: the sequence itself */
    CHECK(posenc_funnel_factorized_positions(4, 0, 1, 1, out, 16, &n, &pooled) == POSENC_OK);
    CHECK(n == 4 && same(out, (const int64_t[]){0, 1, 2, 3}, 4) && pooled == 1);
    /* 2 tokens with separate_cls: the encoder does not pool (L559-560) */
    CHECK(posenc_funnel_factorized_positions(2, 1, 1, 1, NULL, 0, &n, &pooled) == POSENC_OK);
    CHECK(n == 1 && pooled == 0);
    CHECK(posenc_funnel_factorized_positions(1, 1, 0, 0, NULL, 0, &n, &pooled) == POSENC_OK);
    CHECK(n == 1 && pooled == 0);
    CHECK(posenc_funnel_factorized_positions(2, 1, 0, 0, NULL, 0, &n, &pooled) == POSENC_OK);
    CHECK(n == 1 && pooled == 1);
    /* errors */
    CHECK(posenc_funnel_factorized_positions(6, 1, 1, 1, out, 16, NULL, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_funnel_factorized_positions(0, 1, 1, 1, out, 16, &n, NULL) == POSENC_ERR_POS);
    CHECK(posenc_funnel_factorized_positions(POSENC_FUNNEL_MAX_LEN + 1, 1, 1, 1, out, 16, &n,
                                             NULL) == POSENC_ERR_POS);
    CHECK(posenc_funnel_factorized_positions(6, POSENC_FUNNEL_MAX_BLOCKS + 1, 1, 1, out, 16, &n,
                                             NULL) == POSENC_ERR_RANGE);
    CHECK(posenc_funnel_factorized_positions(6, 1, 1, 1, NULL, 4, &n, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_funnel_factorized_positions(6, 1, 1, 1, out, 2, &n, NULL) == POSENC_ERR_RANGE);
    CHECK(n == 3);
}

TEST(rel_sinusoid_explain)
{
    posenc_rel_sinusoid_step s;
    /* k = 0: w = 1, the angle is the distance itself */
    CHECK(posenc_rel_sinusoid_explain(-3, 8, 0, &s) == POSENC_OK);
    CHECK(s.e == 0.0f && s.w == 1.0f && s.angle == -3.0f && s.w_exact == 1.0 &&
          s.angle_exact == -3.0);
    CHECK(fabs(s.sin_exact - sin(-3.0)) <= 1e-15 && fabs(s.cos_exact - cos(-3.0)) <= 1e-15);
    CHECK(s.sin_f32 == (float)sin(-3.0) && s.cos_f32 == (float)cos(-3.0));
    /* k = 2 of D = 8: e = 0.5, w = 1 / 100 in float, angle = 5 * w */
    CHECK(posenc_rel_sinusoid_explain(5, 8, 2, &s) == POSENC_OK);
    CHECK(s.e == 0.5f && s.w == 1.0f / 100.0f && s.angle == 5.0f * (1.0f / 100.0f));
    CHECK(fabs(s.w_exact - 0.01) <= 1e-17 && fabs(s.angle_exact - 0.05) <= 1e-16);
    CHECK(fabs(s.sin_exact - sin(0.05)) <= 1e-16);
    /* the same numbers as the fill (golden's pe) */
    posenc_sinusoid_spec spec;
    float row[8];
    int64_t p = 5;
    CHECK(posenc_sinusoid_family_spec(POSENC_SINUSOID_CTRL, 0, &spec) == POSENC_OK);
    CHECK(posenc_sinusoid_layout_fill_f32(&spec, &p, 1, 8, row) == POSENC_OK);
    CHECK(row[2] == s.sin_f32 && row[6] == s.cos_f32);
    /* errors */
    CHECK(posenc_rel_sinusoid_explain(1, 8, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_rel_sinusoid_explain(POSENC_MAX_POS + 1, 8, 0, &s) == POSENC_ERR_POS);
    CHECK(posenc_rel_sinusoid_explain(-POSENC_MAX_POS - 1, 8, 0, &s) == POSENC_ERR_POS);
    CHECK(posenc_rel_sinusoid_explain(1, 7, 0, &s) == POSENC_ERR_DIM);
    CHECK(posenc_rel_sinusoid_explain(1, 0, 0, &s) == POSENC_ERR_DIM);
    CHECK(posenc_rel_sinusoid_explain(1, POSENC_MAX_DIM + 2, 0, &s) == POSENC_ERR_DIM);
    CHECK(posenc_rel_sinusoid_explain(1, 8, 4, &s) == POSENC_ERR_RANGE);
}

TEST(scheme_name)
{
    CHECK(strcmp(posenc_scheme_name(POSENC_SCHEME_RELATIVE_SINUSOID), "relative-sinusoid") == 0);
    CHECK(POSENC_SCHEME_RELATIVE_SINUSOID == 7); /* after MIXED: the ABI's values stay */
}

#ifdef POSENC_HAVE_JSON
#include "posenc_config.h"

static posenc_model *load(const char *json)
{
    posenc_model *m = NULL;
    posenc_config_error err;
    if (posenc_model_create(&m) != POSENC_OK)
        return NULL;
    if (posenc_model_from_config_text(json, strlen(json), NULL, m, &err) != POSENC_OK) {
        fprintf(stderr, "load: %s\n", err.detail);
        posenc_model_free(m);
        return NULL;
    }
    return m;
}

TEST(xlnet_model)
{
    posenc_model *m = load("{\"model_type\": \"xlnet\", \"d_model\": 16, \"n_layer\": 3, "
                           "\"attn_type\": \"uni\", \"clamp_len\": 2, \"mem_len\": null}");
    CHECK(m != NULL);
    if (!m)
        return;
    posenc_model_rel_sinusoid rs;
    posenc_layer_info li;
    CHECK(posenc_model_scheme(m) == POSENC_SCHEME_RELATIVE_SINUSOID);
    CHECK(posenc_model_layer(m, 2, &li) == POSENC_OK &&
          li.scheme == POSENC_SCHEME_RELATIVE_SINUSOID);
    CHECK(posenc_model_layer_rel_sinusoid(m, 2, &rs) == POSENC_OK);
    CHECK(!rs.funnel && rs.d_model == 16 && rs.bidirectional == 0 && rs.clamp_len == 2 &&
          rs.mem_len == -1 && rs.spec.order == POSENC_SINUSOID_SIN_COS &&
          rs.spec.freqs == POSENC_SINUSOID_FREQ_POWER &&
          rs.spec.arith == POSENC_SINUSOID_TORCH_F32 && rs.spec.base == 10000.0 &&
          rs.spec.offset == 0);
    posenc_sinusoid_spec ctrl; /* the readers' spec is CTRL's */
    CHECK(posenc_sinusoid_family_spec(POSENC_SINUSOID_CTRL, 0, &ctrl) == POSENC_OK &&
          ctrl.order == rs.spec.order && ctrl.freqs == rs.spec.freqs &&
          ctrl.arith == rs.spec.arith && ctrl.base == rs.spec.base &&
          ctrl.offset == rs.spec.offset);
    int64_t out[16];
    size_t n = 0;
    /* uni, klen = qlen = 4: arange(4, -1, -1) = 4 3 2 1 0, clamped to 2 */
    CHECK(posenc_model_rel_sinusoid_positions(m, 0, 4, out, 16, &n) == POSENC_OK);
    CHECK(n == 5 && same(out, (const int64_t[]){2, 2, 2, 1, 0}, 5));
    CHECK(posenc_model_rel_sinusoid_positions(m, 0, 4, NULL, 0, &n) == POSENC_OK && n == 5);
    CHECK(posenc_model_rel_sinusoid_positions(m, 0, 4, out, 3, &n) == POSENC_ERR_RANGE);
    CHECK(posenc_model_rel_sinusoid_positions(m, 0, 4, NULL, 3, &n) == POSENC_ERR_NULL);
    CHECK(posenc_model_rel_sinusoid_positions(m, 0, 4, out, 16, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_rel_sinusoid_positions(m, 0, 0, out, 16, &n) == POSENC_ERR_POS);
    CHECK(posenc_model_rel_sinusoid_positions(m, 0, POSENC_FUNNEL_MAX_LEN + 1, out, 16, &n) ==
          POSENC_ERR_POS);
    CHECK(posenc_model_rel_sinusoid_positions(m, 3, 4, out, 16, &n) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_rel_sinusoid(m, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_rel_sinusoid(m, 3, &rs) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_rel_sinusoid(NULL, 0, &rs) == POSENC_ERR_NULL);
    char buf[512];
    CHECK(posenc_model_layer_describe(m, 0, buf, sizeof buf) == POSENC_OK &&
          strcmp(buf, " family=xlnet d_model=16 base=10000 layout=half exponent=2k/dim arith=f32 "
                      "attn_type=uni clamp_len=2 mem_len=null") == 0);
    posenc_model_free(m);

    /* bi (the default), no clamp: arange(3, -3, -1) */
    m = load("{\"model_type\": \"xlnet\", \"d_model\": 8, \"n_layer\": 1}");
    CHECK(m != NULL);
    if (!m)
        return;
    CHECK(posenc_model_rel_sinusoid_positions(m, 0, 3, out, 16, &n) == POSENC_OK);
    CHECK(n == 6 && same(out, (const int64_t[]){3, 2, 1, 0, -1, -2}, 6));
    CHECK(posenc_model_layer_rel_sinusoid(m, 0, &rs) == POSENC_OK && rs.mem_len == 512 &&
          rs.clamp_len == -1 && rs.bidirectional == 1);
    posenc_model_free(m);

    /* another scheme: no relative sinusoid */
    m = load("{\"model_type\": \"t5\", \"d_model\": 8, \"num_layers\": 1}");
    CHECK(m != NULL);
    if (!m)
        return;
    CHECK(posenc_model_layer_rel_sinusoid(m, 0, &rs) == POSENC_ERR_RANGE);
    CHECK(posenc_model_rel_sinusoid_positions(m, 0, 4, out, 16, &n) == POSENC_ERR_RANGE);
    posenc_model_free(m);
}

TEST(funnel_model)
{
    posenc_model *m = load("{\"model_type\": \"funnel\", \"block_sizes\": [1, 2], "
                           "\"num_decoder_layers\": 1, \"d_model\": 8}");
    CHECK(m != NULL);
    if (!m)
        return;
    CHECK(posenc_model_n_layer(m) == 4 && posenc_model_n_group(m) == 3);
    posenc_model_rel_sinusoid rs;
    int64_t out[32];
    size_t n = 0;
    /* layer 0, block 0: relative_pos(0..5, 1): ref 0, max 0 + 6, min 0 - 5 */
    CHECK(posenc_model_layer_rel_sinusoid(m, 0, &rs) == POSENC_OK && rs.funnel && rs.block == 0 &&
          !rs.pooling && !rs.decoder && rs.n_block == 2 && rs.separate_cls && rs.truncate_seq &&
          rs.pool_q_only && !rs.factorized && rs.bidirectional &&
          rs.spec.order == POSENC_SINUSOID_SIN_COS && rs.spec.arith == POSENC_SINUSOID_TORCH_F32 &&
          rs.spec.freqs == POSENC_SINUSOID_FREQ_POWER && rs.spec.base == 10000.0 &&
          rs.d_model == 8);
    CHECK(posenc_model_rel_sinusoid_positions(m, 0, 6, out, 32, &n) == POSENC_OK);
    CHECK(n == 12 && out[0] == 6 && out[11] == -5);
    /* layer 1, block 1's first layer: pooled [-1, 1, 3] against 0..5, shift 2:
     * max -1 + 2 * 3, min -1 - 5 */
    CHECK(posenc_model_layer_rel_sinusoid(m, 1, &rs) == POSENC_OK && rs.block == 1 && rs.pooling);
    CHECK(posenc_model_rel_sinusoid_positions(m, 1, 6, out, 32, &n) == POSENC_OK);
    CHECK(n == 12 && out[0] == 5 && out[11] == -6);
    /* layer 2: [-1, 1, 3] against itself, stride 2: 6, 4, ..., -4 */
    CHECK(posenc_model_layer_rel_sinusoid(m, 2, &rs) == POSENC_OK && rs.block == 1 &&
          !rs.pooling);
    CHECK(posenc_model_rel_sinusoid_positions(m, 2, 6, out, 32, &n) == POSENC_OK);
    CHECK(n == 6 && same(out, (const int64_t[]){6, 4, 2, 0, -2, -4}, 6));
    /* layer 3: the decoder reads block 0 at the full length */
    CHECK(posenc_model_layer_rel_sinusoid(m, 3, &rs) == POSENC_OK && rs.decoder &&
          rs.block == 0 && !rs.pooling);
    CHECK(posenc_model_rel_sinusoid_positions(m, 3, 6, out, 32, &n) == POSENC_OK && n == 12);
    /* 2 tokens: the encoder skips block 1's pooling */
    CHECK(posenc_model_rel_sinusoid_positions(m, 1, 2, out, 32, &n) == POSENC_ERR_POS);
    char buf[512];
    CHECK(posenc_model_layer_describe(m, 1, buf, sizeof buf) == POSENC_OK &&
          strstr(buf, " attention_type=relative_shift block=1 blocks=2 block_repeats=1 ") &&
          strstr(buf, " first_layer=pools_queries stack=encoder"));
    CHECK(posenc_model_layer_describe(m, 3, buf, sizeof buf) == POSENC_OK &&
          !strstr(buf, "block_repeats") && strstr(buf, " stack=decoder"));
    posenc_model_free(m);

    /* factorized, pool_q_only false: no layer pools only its queries */
    m = load("{\"model_type\": \"funnel\", \"block_sizes\": [1, 2], \"num_decoder_layers\": 0, "
             "\"d_model\": 8, \"attention_type\": \"factorized\", \"pool_q_only\": false, "
             "\"separate_cls\": false}");
    CHECK(m != NULL);
    if (!m)
        return;
    CHECK(posenc_model_n_layer(m) == 3);
    CHECK(posenc_model_layer_rel_sinusoid(m, 1, &rs) == POSENC_OK && rs.factorized &&
          !rs.pooling && rs.block == 1);
    /* [0..8][::2] */
    CHECK(posenc_model_rel_sinusoid_positions(m, 1, 9, out, 32, &n) == POSENC_OK);
    CHECK(n == 5 && same(out, (const int64_t[]){0, 2, 4, 6, 8}, 5));
    posenc_model_free(m);
}

/* hidden_size is XLNet's and Funnel's attribute_map alias of d_model
 * (configuration_xlnet.py L99-104, configuration_funnel.py L47-50), set after
 * the fields: it gives the width, over d_model when both are there. */
TEST(hidden_size_alias)
{
    static const char *const texts[] = {
        "{\"model_type\": \"xlnet\", \"hidden_size\": 384, \"n_layer\": 2}",
        "{\"model_type\": \"xlnet\", \"hidden_size\": 384, \"d_model\": 512, "
        "\"n_layer\": 2}",
        "{\"model_type\": \"funnel\", \"hidden_size\": 384, \"block_sizes\": [1, 1]}",
        "{\"model_type\": \"funnel\", \"hidden_size\": 384, \"d_model\": 768, "
        "\"block_sizes\": [1, 1]}"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        posenc_model *m = load(texts[i]);
        CHECK(m != NULL);
        if (!m)
            continue;
        posenc_model_rel_sinusoid rs;
        CHECK(posenc_model_layer_rel_sinusoid(m, 1, &rs) == POSENC_OK && rs.d_model == 384);
        posenc_model_free(m);
    }
}
#endif

int main(void)
{
    RUN(funnel_factorized_positions);
    RUN(rel_sinusoid_explain);
    RUN(scheme_name);
#ifdef POSENC_HAVE_JSON
    RUN(xlnet_model);
    RUN(funnel_model);
    RUN(hidden_size_alias);
#else
    check_skip("relsin", 3, "XLNet's and Funnel's models: built without jansson",
               "libjansson-dev");
#endif
    return check_summary("relsin");
}
