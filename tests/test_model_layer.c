/* test_model_layer.c - the model layer's queries (src/model/models.c) on
 * hand-built models, against values worked out by hand (mpmath for the
 * digits): scheme and query-scale names, the layer lookup, each layer's RoPE,
 * the opaque model object, query scales and ALiBi slopes. Needs no config
 * reader. */
#include "model_harness.h"

TEST(names)
{
    static const char *const s[] = {"none", "rope", "alibi", "learned", "sinusoid",
                                    "relative-buckets", "mixed"};
    for (int i = 0; i < 7; i++)
        CHECK(strcmp(posenc_scheme_name((posenc_scheme)i), s[i]) == 0);
    CHECK(strcmp(posenc_scheme_name((posenc_scheme)99), "unknown") == 0);
    static const char *const q[] = {"none", "temperature", "logn", "beta", "power"};
    for (int i = 0; i < 5; i++)
        CHECK(strcmp(posenc_query_scale_name((posenc_query_scale_type)i), q[i]) == 0);
    CHECK(strcmp(posenc_query_scale_name((posenc_query_scale_type)9), "unknown") == 0);
}

/* ---- queries on hand-built models -------------------------------------------------- */

/* Two layers: 0 RoPE (default, 128, base 10000, half), 1 the scheme s. */
static void two_layers(posenc_scheme s)
{
    memset(&model, 0, sizeof model);
    model.n_layer = 2;
    model.n_group = 2;
    model.group[0].scheme = POSENC_SCHEME_ROPE;
    posenc_rope_config *c = &model.group[0].rope;
    c->head_dim = c->rotary_dim = 128;
    c->base = 10000.0;
    c->layout = POSENC_LAYOUT_HALF;
    CHECK(posenc_rope_scaling_init(&c->scaling, POSENC_ROPE_DEFAULT) == POSENC_OK);
    model.group[1].scheme = s;
    model.layer_group[0] = 0;
    model.layer_group[1] = 1;
}

TEST(layer_lookup)
{
    const posenc_model_group *g;
    two_layers(POSENC_SCHEME_NONE);
    CHECK(group_at(&model, 1, &g) == POSENC_OK && g == &model.group[1]);
    CHECK(group_at(&model, 2, &g) == POSENC_ERR_RANGE);
    CHECK(group_at(NULL, 0, &g) == POSENC_ERR_NULL);
    CHECK(group_at(&model, 0, NULL) == POSENC_ERR_NULL);
    model.layer_group[1] = 2; /* past n_group */
    CHECK(group_at(&model, 1, &g) == POSENC_ERR_RANGE);
    model.layer_group[1] = 1;
    model.n_group = 0;
    CHECK(group_at(&model, 0, &g) == POSENC_ERR_RANGE);
    model.n_group = POSENC_MODEL_MAX_GROUPS + 1;
    CHECK(group_at(&model, 0, &g) == POSENC_ERR_RANGE);
    model.n_group = 2;
    model.n_layer = POSENC_MODEL_MAX_LAYERS + 1;
    CHECK(group_at(&model, 0, &g) == POSENC_ERR_RANGE);
}

TEST(layer_rope)
{
    static posenc_rope r, plain;
    two_layers(POSENC_SCHEME_NONE);
    CHECK(posenc_model_layer_rope(&model, 0, 0, &r) == POSENC_OK);
    CHECK(posenc_rope_init(&plain, 128, 128, 10000.0, POSENC_LAYOUT_HALF) == POSENC_OK);
    CHECK(memcmp(r.inv_freq_hi, plain.inv_freq_hi, sizeof r.inv_freq_hi) == 0);
    CHECK(posenc_model_layer_rope(&model, 1, 0, &r) == POSENC_ERR_RANGE); /* no RoPE */
    CHECK(posenc_model_layer_rope(&model, 0, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_rope(&model, 5, 0, &r) == POSENC_ERR_RANGE);

    /* Qwen 1's dynamic NTK: alpha = max(2^ceil(log2(L / S) + 1) - 1, 1),
     * base * alpha^(128/126); inv_freq[1] = base'^(-2/128) (mpmath) */
    model.group[0].ntk_by_length = 1;
    model.group[0].ntk_seq_length = 2048;
    CHECK(posenc_model_layer_rope(&model, 0, 2048, &r) == POSENC_OK); /* alpha 1 */
    CHECK(memcmp(r.inv_freq_hi, plain.inv_freq_hi, sizeof r.inv_freq_hi) == 0);
    CHECK(posenc_model_layer_rope(&model, 0, 2049, &r) == POSENC_OK); /* alpha 3 */
    CHECK_NEAR(r.inv_freq_hi[1], 0.85099429134121622994, 1e-15);
    CHECK(posenc_model_layer_rope(&model, 0, 4096, &r) == POSENC_OK); /* still 3 */
    CHECK_NEAR(r.inv_freq_hi[1], 0.85099429134121622994, 1e-15);
    CHECK(posenc_model_layer_rope(&model, 0, 4097, &r) == POSENC_OK); /* alpha 7 */
    CHECK_NEAR(r.inv_freq_hi[1], 0.8396257425643113911, 1e-15);
    CHECK(r.base == 10000.0 && r.inv_freq_hi[0] == 1.0);
    CHECK(posenc_model_layer_rope(&model, 0, -1, &r) == POSENC_ERR_POS);
    CHECK(posenc_model_layer_rope(&model, 0, POSENC_MAX_POS + 2, &r) == POSENC_ERR_POS);
    model.group[0].ntk_seq_length = 0.5;
    CHECK(posenc_model_layer_rope(&model, 0, 10, &r) == POSENC_ERR_RANGE);
    model.group[0].ntk_seq_length = INFINITY;
    CHECK(posenc_model_layer_rope(&model, 0, 10, &r) == POSENC_ERR_RANGE);
}

/* The object of posenc_model.h: create, a RoPE on every layer, a layer's
 * RoPE changed, copies, the accessors (NULL and empty models too), and each
 * scheme's query on hand-built layers against the values set. */
TEST(model_object)
{
    static posenc_rope r, want;
    static posenc_rope_config c, back;
    posenc_model *m = NULL, *m2 = NULL;
    posenc_layer_info li;
    CHECK(posenc_model_create(NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_create(&m) == POSENC_OK && m != NULL);
    CHECK(posenc_model_create(&m2) == POSENC_OK && m2 != NULL);
    if (!m || !m2)
        return;
    /* empty, and NULL */
    CHECK(posenc_model_n_layer(m) == 0 && posenc_model_n_group(m) == 0);
    CHECK(posenc_model_layer(m, 0, &li) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_rope(m, 0, 0, &r) == POSENC_ERR_RANGE);
    CHECK(posenc_model_n_layer(NULL) == 0 && posenc_model_n_group(NULL) == 0);
    CHECK(posenc_model_scheme(NULL) == POSENC_SCHEME_NONE);
    CHECK(strcmp(posenc_model_type(NULL), "") == 0 && strcmp(posenc_model_part(NULL), "") == 0);
    CHECK(strcmp(posenc_model_ignored(NULL), "") == 0 && posenc_model_source(NULL) == NULL);
    CHECK(strcmp(posenc_model_hf_module_convention(NULL), "plain") == 0);
    /* one RoPE on every layer */
    memset(&c, 0, sizeof c);
    c.head_dim = c.rotary_dim = 128;
    c.base = 10000.0;
    c.layout = POSENC_LAYOUT_HALF;
    CHECK(posenc_rope_scaling_init(&c.scaling, POSENC_ROPE_LINEAR) == POSENC_OK);
    c.scaling.factor = 4.0;
    CHECK(posenc_model_set_rope(NULL, &c, 3) == POSENC_ERR_NULL);
    CHECK(posenc_model_set_rope(m, NULL, 3) == POSENC_ERR_NULL);
    CHECK(posenc_model_set_rope(m, &c, 0) == POSENC_ERR_RANGE);
    CHECK(posenc_model_set_rope(m, &c, POSENC_MODEL_MAX_LAYERS + 1) == POSENC_ERR_RANGE);
    c.base = 1.0;
    CHECK(posenc_model_set_rope(m, &c, 3) == POSENC_ERR_BASE);
    CHECK(posenc_model_n_layer(m) == 0); /* unchanged */
    c.base = 10000.0;
    CHECK(posenc_model_set_rope(m, &c, 3) == POSENC_OK);
    CHECK(posenc_model_n_layer(m) == 3 && posenc_model_n_group(m) == 1);
    CHECK(posenc_model_scheme(m) == POSENC_SCHEME_ROPE && posenc_model_source(m) == NULL);
    CHECK(posenc_model_layer(m, 2, &li) == POSENC_OK && li.scheme == POSENC_SCHEME_ROPE &&
          li.group == 0 && strcmp(li.layer_type, "") == 0);
    CHECK(posenc_model_layer(m, 3, &li) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer(m, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_rope(m, 2, 100, &r) == POSENC_OK);
    CHECK(posenc_rope_init_config(&want, &c, 100) == POSENC_OK);
    CHECK(memcmp(r.inv_freq_hi, want.inv_freq_hi, sizeof r.inv_freq_hi) == 0);
    CHECK_NEAR(r.inv_freq_hi[1], pow(10000.0, -2.0 / 128.0) / 4.0, 1e-16);
    CHECK(posenc_model_layer_rope_config(m, 1, &back) == POSENC_OK && back.base == 10000.0 &&
          back.scaling.type == POSENC_ROPE_LINEAR && back.scaling.factor == 4.0);
    CHECK(posenc_model_layer_rope_config(m, 1, NULL) == POSENC_ERR_NULL);
    posenc_rope_scaling s;
    CHECK(posenc_model_layer_scaling(m, 0, 9, &s) == POSENC_OK && s.type == POSENC_ROPE_LINEAR);
    CHECK(posenc_model_layer_scaling(m, 0, 9, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_scaling(m, 0, -1, &s) == POSENC_ERR_POS);
    /* the text EXPLAIN MODEL prints for it */
    char buf[256];
    CHECK(posenc_model_layer_describe(m, 0, buf, sizeof buf) == POSENC_OK);
    CHECK(strcmp(buf, " type=linear layout=half head_dim=128 rotary_dim=128 base=10000 "
                      "factor=4 attn_factor=1") == 0);
    CHECK(posenc_model_layer_describe(m, 0, buf, 12) == POSENC_ERR_OVERFLOW);
    CHECK(strlen(buf) == 11 && strncmp(buf, " type=linea", 11) == 0);
    CHECK(posenc_model_layer_describe(m, 0, buf, 0) == POSENC_ERR_OVERFLOW);
    CHECK(posenc_model_layer_describe(m, 0, NULL, 9) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_describe(m, 7, buf, sizeof buf) == POSENC_ERR_RANGE);
    /* a layer's RoPE changed: base 500000, the group's every layer */
    back.base = 500000.0;
    CHECK(posenc_model_set_layer_rope(m, 1, &back) == POSENC_OK);
    CHECK(posenc_model_layer_rope(m, 0, 0, &r) == POSENC_OK);
    CHECK_NEAR(r.inv_freq_hi[1], pow(500000.0, -2.0 / 128.0) / 4.0, 1e-16);
    back.base = 0.5;
    CHECK(posenc_model_set_layer_rope(m, 1, &back) == POSENC_ERR_BASE);
    CHECK(posenc_model_set_layer_rope(m, 1, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_set_layer_rope(NULL, 1, &back) == POSENC_ERR_NULL);
    CHECK(posenc_model_set_layer_rope(m, 9, &back) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_rope(m, 0, 0, &r) == POSENC_OK && r.base == 500000.0);
    /* a copy answers the same */
    CHECK(posenc_model_copy(NULL, m) == POSENC_ERR_NULL && posenc_model_copy(m2, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_copy(m2, m) == POSENC_OK && posenc_model_copy(m, m) == POSENC_OK);
    CHECK(posenc_model_layer_rope(m2, 2, 0, &want) == POSENC_OK);
    CHECK(memcmp(r.inv_freq_hi, want.inv_freq_hi, sizeof r.inv_freq_hi) == 0);
    /* the other schemes' queries refuse a RoPE layer */
    posenc_model_table tb;
    posenc_model_t5 t5;
    posenc_mrope mr;
    posenc_query_scale q;
    uint32_t h;
    CHECK(posenc_model_layer_table(m, 0, &tb) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_t5(m, 0, &t5) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_mrope(m, 0, &mr, NULL, NULL) == POSENC_ERR_RANGE);
    CHECK(posenc_model_alibi_heads(m, 0, &h) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_query_scale(m, 0, &q) == POSENC_OK && q.type == POSENC_QSCALE_NONE);
    CHECK(posenc_model_layer_query_scale(m, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_table(m, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_t5(m, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_mrope(m, 0, NULL, NULL, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_alibi_heads(m, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_table(m, 5, &tb) == POSENC_ERR_RANGE);
    posenc_model_free(m);
    posenc_model_free(m2);
    posenc_model_free(NULL);

    /* each scheme's settings on hand-built layers */
    two_layers(POSENC_SCHEME_LEARNED);
    model.group[1].positions = 2050;
    model.group[1].offset = 2;
    model.group[1].dim = 768;
    CHECK(posenc_model_layer_table(&model, 1, &tb) == POSENC_OK && tb.positions == 2050 &&
          tb.offset == 2 && tb.dim == 768 && !tb.offset_from_pad);
    model.group[1].offset_from_pad = 1;
    CHECK(posenc_model_layer_table(&model, 1, &tb) == POSENC_OK && tb.offset_from_pad);
    CHECK(posenc_model_layer_describe(&model, 1, buf, sizeof buf) == POSENC_OK &&
          strcmp(buf, " positions=2050 offset=2 dim=768") == 0);
    model.group[1].scheme = POSENC_SCHEME_SINUSOID; /* no offset in a sinusoid table */
    CHECK(posenc_model_layer_table(&model, 1, &tb) == POSENC_OK && tb.offset == 0 &&
          !tb.offset_from_pad);
    model.group[1].scheme = POSENC_SCHEME_RELATIVE_BUCKETS;
    model.group[1].buckets = 48;
    model.group[1].max_distance = 200;
    model.group[1].bidirectional = 1;
    strcpy(model.group[1].layer_type, "encoder");
    CHECK(posenc_model_layer_t5(&model, 1, &t5) == POSENC_OK && t5.buckets == 48 &&
          t5.max_distance == 200 && t5.bidirectional == 1);
    CHECK(posenc_model_layer_describe(&model, 1, buf, sizeof buf) == POSENC_OK &&
          strcmp(buf, " buckets=48 max_distance=200 bidirectional=true stack=encoder") == 0);
    model.group[1].scheme = POSENC_SCHEME_ALIBI;
    model.group[1].n_head = 12;
    CHECK(posenc_model_alibi_heads(&model, 1, &h) == POSENC_OK && h == 12);
    /* M-RoPE: 64 pairs as 16:24:24, contiguous */
    model.group[0].mrope = 1;
    model.group[0].mrope_section[0] = 16;
    model.group[0].mrope_section[1] = model.group[0].mrope_section[2] = 24;
    model.group[0].mrope_merge = 2;
    model.group[0].mrope_tokens_per_second = 25;
    uint32_t merge = 0, tps = 0;
    CHECK(posenc_model_layer_mrope(&model, 0, &mr, &merge, &tps) == POSENC_OK && merge == 2 &&
          tps == 25);
    CHECK(mr.section[0] == 16 && mr.section[1] == 24 && mr.section[2] == 24);
    CHECK(posenc_model_layer_mrope(&model, 0, &mr, NULL, NULL) == POSENC_OK);
    model.group[0].mrope_section[0] = 17; /* 65 pairs: not 64 */
    CHECK(posenc_model_layer_mrope(&model, 0, &mr, NULL, NULL) == POSENC_ERR_RANGE);
}

/* The sinusoid and DeBERTa queries (posenc_model_layer_sinusoid,
 * posenc_model_layer_deberta) and their EXPLAIN MODEL words, on hand-built
 * layers: each value read back is the one set; each refusal its status. */
TEST(sinusoid_deberta)
{
    char buf[256];
    posenc_sinusoid_spec sp;
    posenc_model_table tb;
    posenc_model_t5 t5;
    uint32_t bs = 7, mp = 7;
    two_layers(POSENC_SCHEME_SINUSOID);
    posenc_model_group *g = &model.group[1];
    g->positions = 512;
    g->dim = 64;
    g->sinusoid = (posenc_sinusoid_spec){POSENC_SINUSOID_INTERLEAVED, POSENC_SINUSOID_FREQ_POWER,
                                         POSENC_SINUSOID_TORCH_F32, 10000.0, 0};
    CHECK(posenc_model_layer_sinusoid(&model, 1, &sp) == POSENC_OK &&
          sp.order == POSENC_SINUSOID_INTERLEAVED && sp.freqs == POSENC_SINUSOID_FREQ_POWER &&
          sp.arith == POSENC_SINUSOID_TORCH_F32 && sp.base == 10000.0 && sp.offset == 0);
    CHECK(posenc_model_layer_sinusoid(&model, 1, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_sinusoid(&model, 0, &sp) == POSENC_ERR_RANGE); /* RoPE */
    CHECK(posenc_model_layer_sinusoid(&model, 2, &sp) == POSENC_ERR_RANGE); /* past */
    CHECK(posenc_model_layer_sinusoid(NULL, 0, &sp) != POSENC_OK);
    /* the power rule in torch's float32 steps: not its usual arithmetic */
    CHECK(posenc_model_layer_describe(&model, 1, buf, sizeof buf) == POSENC_OK &&
          strcmp(buf, " positions=512 dim=64 base=10000 layout=interleaved exponent=2k/dim "
                      "arith=f32") == 0);
    /* fairseq's rule rounded once, cos first, the offset from pad_token_id */
    g->sinusoid = (posenc_sinusoid_spec){POSENC_SINUSOID_COS_SIN, POSENC_SINUSOID_FREQ_FAIRSEQ,
                                         POSENC_SINUSOID_ROUND_ONCE, 10000.0, 2};
    g->sinusoid_pad_offset = 1;
    CHECK(posenc_model_layer_describe(&model, 1, buf, sizeof buf) == POSENC_OK &&
          strcmp(buf, " positions=512 dim=64 base=10000 layout=half_cos_first "
                      "exponent=k/(dim/2-1) offset=2 offset_from=pad_token_id+1 "
                      "arith=exact") == 0);
    CHECK(posenc_model_layer_table(&model, 1, &tb) == POSENC_OK && tb.positions == 512 &&
          tb.offset == 2 && tb.dim == 64 && tb.offset_from_pad == 1);
    /* fairseq's own arithmetic: no arith word; a fixed offset: no offset_from */
    g->sinusoid.order = POSENC_SINUSOID_SIN_COS;
    g->sinusoid.arith = POSENC_SINUSOID_TORCH_F32;
    g->sinusoid_pad_offset = 0;
    strcpy(g->layer_type, "sliding_attention");
    CHECK(posenc_model_layer_describe(&model, 1, buf, sizeof buf) == POSENC_OK &&
          strcmp(buf, " positions=512 dim=64 base=10000 layout=half exponent=k/(dim/2-1) "
                      "offset=2 layer_type=sliding_attention") == 0);
    /* too small a buffer, none, a layer past the model */
    CHECK(posenc_model_layer_describe(&model, 1, buf, 8) == POSENC_ERR_OVERFLOW &&
          strlen(buf) == 7);
    CHECK(posenc_model_layer_describe(&model, 1, buf, 0) == POSENC_ERR_OVERFLOW);
    CHECK(posenc_model_layer_describe(&model, 1, NULL, 8) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_describe(NULL, 1, buf, sizeof buf) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_describe(&model, 2, buf, sizeof buf) == POSENC_ERR_RANGE);

    /* DeBERTa's ids, a learned table beside them */
    two_layers(POSENC_SCHEME_RELATIVE_BUCKETS);
    g->deberta = 1;
    g->deberta_buckets = 256;
    g->deberta_max_position = 512;
    CHECK(posenc_model_layer_deberta(&model, 1, &bs, &mp) == POSENC_OK && bs == 256 &&
          mp == 512);
    CHECK(posenc_model_layer_t5(&model, 1, &t5) == POSENC_ERR_RANGE); /* not T5's buckets */
    CHECK(posenc_model_layer_deberta(&model, 1, NULL, &mp) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_deberta(&model, 1, &bs, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_layer_deberta(&model, 0, &bs, &mp) == POSENC_ERR_RANGE); /* RoPE */
    CHECK(posenc_model_layer_deberta(&model, 2, &bs, &mp) == POSENC_ERR_RANGE);
    CHECK(posenc_model_layer_table(&model, 1, &tb) == POSENC_ERR_RANGE); /* no table */
    CHECK(posenc_model_layer_describe(&model, 1, buf, sizeof buf) == POSENC_OK &&
          strcmp(buf, " ids=deberta position_buckets=256 max_relative_positions=512") == 0);
    g->table_beside = 1;
    g->positions = 512;
    g->dim = 768;
    CHECK(posenc_model_layer_table(&model, 1, &tb) == POSENC_OK && tb.positions == 512 &&
          tb.offset == 0 && tb.dim == 768);
    strcpy(g->layer_type, "decoder");
    CHECK(posenc_model_layer_describe(&model, 1, buf, sizeof buf) == POSENC_OK &&
          strcmp(buf, " ids=deberta position_buckets=256 max_relative_positions=512 "
                      "table_positions=512 table_offset=0 table_dim=768 stack=decoder") == 0);
    /* T5's buckets: not DeBERTa's ids */
    g->deberta = 0;
    bs = mp = 7;
    CHECK(posenc_model_layer_deberta(&model, 1, &bs, &mp) == POSENC_ERR_RANGE && bs == 7 &&
          mp == 7);
}

TEST(query_scales)
{
    double v = 0;
    two_layers(POSENC_SCHEME_NONE);
    CHECK(posenc_model_query_scale(&model, 0, 123456, &v) == POSENC_OK && v == 1.0);
    posenc_query_scale *q = &model.group[1].qscale;
    /* Llama 4: log1p(floor((pos + 1) / 8192)) * 0.1 + 1 */
    q->type = POSENC_QSCALE_TEMPERATURE;
    q->floor_scale = 8192;
    q->attn_scale = 0.1;
    CHECK(posenc_model_query_scale(&model, 1, 8190, &v) == POSENC_OK && v == 1.0);
    CHECK(posenc_model_query_scale(&model, 1, 8191, &v) == POSENC_OK);
    CHECK_NEAR(v, 1.0693147180559945309, 2e-16);
    CHECK(posenc_model_query_scale(&model, 1, 16383, &v) == POSENC_OK);
    CHECK_NEAR(v, 1.1098612288668109691, 2e-16);
    q->floor_scale = 0;
    CHECK(posenc_model_query_scale(&model, 1, 1, &v) == POSENC_ERR_RANGE);
    /* a hand-built model's values that are not finite: refused, not used */
    q->floor_scale = INFINITY;
    CHECK(posenc_model_query_scale(&model, 1, 1, &v) == POSENC_ERR_RANGE);
    q->floor_scale = 8192;
    q->attn_scale = NAN;
    CHECK(posenc_model_query_scale(&model, 1, 1, &v) == POSENC_ERR_RANGE);
    q->attn_scale = 0.1;
    /* Qwen 1: ln(pos + 1) / ln(2048) past 2048 */
    q->type = POSENC_QSCALE_LOGN;
    q->seq_length = 2048;
    CHECK(posenc_model_query_scale(&model, 1, 2047, &v) == POSENC_OK && v == 1.0);
    CHECK(posenc_model_query_scale(&model, 1, 2048, &v) == POSENC_OK);
    CHECK_NEAR(v, 1.0000640244555678767, 2e-16);
    q->seq_length = 1;
    CHECK(posenc_model_query_scale(&model, 1, 1, &v) == POSENC_ERR_RANGE);
    q->seq_length = INFINITY;
    CHECK(posenc_model_query_scale(&model, 1, 1, &v) == POSENC_ERR_RANGE);
    /* Ministral 3: 1 + beta ln(1 + floor(pos / original)) */
    q->type = POSENC_QSCALE_BETA;
    q->beta = 0.1;
    q->original = 16384;
    CHECK(posenc_model_query_scale(&model, 1, 16383, &v) == POSENC_OK && v == 1.0);
    CHECK(posenc_model_query_scale(&model, 1, 16384, &v) == POSENC_OK);
    CHECK_NEAR(v, 1.0693147180559945309, 2e-16);
    q->original = 0;
    CHECK(posenc_model_query_scale(&model, 1, 1, &v) == POSENC_ERR_RANGE);
    q->original = INFINITY;
    CHECK(posenc_model_query_scale(&model, 1, 1, &v) == POSENC_ERR_RANGE);
    q->original = 16384;
    q->beta = NAN;
    CHECK(posenc_model_query_scale(&model, 1, 1, &v) == POSENC_ERR_RANGE);
    q->beta = 0.1;
    /* Beam: (1 + (pos + 1) / 2048)^0.1; the references from mpmath at 30 digits */
    q->type = POSENC_QUERY_SCALE_POWER;
    q->length = 2048;
    q->exponent = 0.1;
    CHECK(posenc_model_query_scale(&model, 1, 0, &v) == POSENC_OK);
    CHECK_NEAR(v, 1.00004881739948060302, 2e-16);
    CHECK(posenc_model_query_scale(&model, 1, 2047, &v) == POSENC_OK);
    CHECK_NEAR(v, 1.07177346253629316421, 4e-16);
    CHECK(posenc_model_query_scale(&model, 1, 6143, &v) == POSENC_OK);
    CHECK_NEAR(v, 1.14869835499703500680, 4e-16);
    q->length = 0;
    CHECK(posenc_model_query_scale(&model, 1, 1, &v) == POSENC_ERR_RANGE);
    q->length = INFINITY;
    CHECK(posenc_model_query_scale(&model, 1, 1, &v) == POSENC_ERR_RANGE);
    q->length = 2048;
    q->exponent = NAN;
    CHECK(posenc_model_query_scale(&model, 1, 1, &v) == POSENC_ERR_RANGE);
    CHECK(posenc_model_query_scale(&model, 1, POSENC_MAX_POS + 1, &v) == POSENC_ERR_POS);
    q->type = (posenc_query_scale_type)7;
    CHECK(posenc_model_query_scale(&model, 1, 1, &v) == POSENC_ERR_RANGE);
    CHECK(posenc_model_query_scale(&model, 1, -1, &v) == POSENC_ERR_POS);
    CHECK(posenc_model_query_scale(&model, 1, 1, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_query_scale(&model, 9, 1, &v) == POSENC_ERR_RANGE);
}

TEST(alibi_slopes)
{
    double s[16];
    two_layers(POSENC_SCHEME_ALIBI);
    posenc_model_group *g = &model.group[1];
    CHECK(posenc_model_alibi_slopes(&model, 0, s) == POSENC_ERR_RANGE); /* a RoPE layer */
    g->n_head = 8;
    g->alibi_bias_max = 8;
    CHECK(posenc_model_alibi_slopes(&model, 1, s) == POSENC_ERR_RANGE); /* scale 0 */
    g->alibi_slope_scale = 1.0;
    CHECK(posenc_model_alibi_slopes(&model, 1, s) == POSENC_OK);
    for (int h = 0; h < 8; h++)
        CHECK(s[h] == ldexp(1.0, -(h + 1)));
    /* 12 heads: 2^-1..2^-8, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5 (BLOOM, MPT alike) */
    g->n_head = 12;
    CHECK(posenc_model_alibi_slopes(&model, 1, s) == POSENC_OK);
    CHECK(s[7] == ldexp(1.0, -8));
    CHECK_NEAR(s[8], 0.70710678118654752440, 2e-16);
    CHECK_NEAR(s[11], 0.088388347648318440550, 2e-17);
    /* Falcon: bfloat16 slopes (2^-0.5 -> 181/256), divided by sqrt(64) */
    g->alibi_slopes_bf16 = 1;
    g->alibi_slope_scale = 0.125;
    CHECK(posenc_model_alibi_slopes(&model, 1, s) == POSENC_OK);
    CHECK(s[0] == 0.0625 && s[8] == 181.0 / 256.0 * 0.125 && s[9] == 181.0 / 512.0 * 0.125);
    g->alibi_slopes_bf16 = 0;
    g->alibi_slope_scale = 1.0;
    /* MPT's rule with alibi_bias_max 4: H' = 4: 2^-1..2^-4 */
    g->alibi_bias_max = 4;
    g->n_head = 4;
    CHECK(posenc_model_alibi_slopes(&model, 1, s) == POSENC_OK);
    CHECK(s[0] == 0.5 && s[3] == 0.0625);
    /* 6 heads, H' = 8, m_i = 2^(-i/2): m2, m4, m6, m8, m1, m3 */
    g->n_head = 6;
    CHECK(posenc_model_alibi_slopes(&model, 1, s) == POSENC_OK);
    CHECK(s[0] == 0.5 && s[1] == 0.25 && s[2] == 0.125 && s[3] == 0.0625);
    CHECK_NEAR(s[4], 0.70710678118654752440, 2e-16);
    CHECK_NEAR(s[5], 0.35355339059327376220, 2e-16);
    g->n_head = 0;
    CHECK(posenc_model_alibi_slopes(&model, 1, s) == POSENC_ERR_DIM);
    g->n_head = POSENC_MAX_DIM + 1;
    CHECK(posenc_model_alibi_slopes(&model, 1, s) == POSENC_ERR_DIM);
    g->n_head = 4;
    g->alibi_bias_max = INFINITY;
    CHECK(posenc_model_alibi_slopes(&model, 1, s) == POSENC_ERR_RANGE);
    g->alibi_bias_max = 8;
    g->alibi_slope_scale = INFINITY;
    CHECK(posenc_model_alibi_slopes(&model, 1, s) == POSENC_ERR_RANGE);
    g->alibi_slope_scale = 0;
    CHECK(posenc_model_alibi_slopes(&model, 1, s) == POSENC_ERR_RANGE);
    g->alibi_slope_scale = 1;
    /* MPT's rule on bfloat16 slopes (no family has both; the code allows it):
     * 6 heads, H' = 8, bias_max 4: 2^-1, 2^-2, 2^-3, 2^-4, 2^-0.5 -> 181/256, 2^-1.5 -> 181/512 */
    g->alibi_bias_max = 4;
    g->n_head = 6;
    g->alibi_slopes_bf16 = 1;
    CHECK(posenc_model_alibi_slopes(&model, 1, s) == POSENC_OK);
    CHECK(s[0] == 0.5 && s[3] == 0.0625 && s[4] == 181.0 / 256.0 && s[5] == 181.0 / 512.0);
    g->alibi_slopes_bf16 = 0;
    g->n_head = 4;
    g->alibi_bias_max = 0;
    CHECK(posenc_model_alibi_slopes(&model, 1, s) == POSENC_ERR_RANGE);
    CHECK(posenc_model_alibi_slopes(&model, 1, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_alibi_slopes(&model, 7, s) == POSENC_ERR_RANGE);
}


int main(void)
{
    RUN(names);
    RUN(layer_lookup);
    RUN(layer_rope);
    RUN(model_object);
    RUN(sinusoid_deberta);
    RUN(query_scales);
    RUN(alibi_slopes);
    return check_summary("model_layer");
}
