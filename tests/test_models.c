/* test_models.c - the model layer (src/model/models.c), the family registry
 * (src/config/config_families.c) and the model reader (src/config/config_model.c, needs
 * jansson).
 *
 * The per-layer queries (src/model/models.c) are checked on hand-built models against values
 * worked out by hand (mpmath for the digits). Every model fixture in
 * tests/data/models/ is checked against tests/data/model_golden.txt, which
 * tools/gen_rope_golden.py --models derives from the same JSON with its own
 * reading of each family's modeling code: the scheme of every layer, the
 * RoPE dimensions, layout, base, frequencies (double-double) and attention
 * factor, ALiBi slopes, absolute tables, T5 buckets and query scalings. Each
 * refusal is checked for its status, the key it names and a phrase. */
#include "posenc_config.h"
#include "config_families.h" /* white box: the registry (src/) */
#include "model.h"           /* white box: a model's groups (src/) */

#include "check.h"
#include "model_lengths.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef POSENC_HAVE_JSON
#include <jansson.h> /* json_set_alloc_funcs: its allocations fail on demand too */
#endif

static posenc_model model; /* ~50 KiB: static, not on the stack */

/* The group of a layer (white box), with posenc_model_layer's status. */
static posenc_status group_at(const posenc_model *m, uint32_t layer, const posenc_model_group **g)
{
    posenc_layer_info li;
    posenc_status st = posenc_model_layer(m, layer, g ? &li : NULL);
    if (st == POSENC_OK)
        *g = posenc__model_group(m, layer);
    return st;
}

/* ---- allocation failures on demand (-Wl,--wrap, see the Makefile) -------------- */

#include "fault.h" /* alloc_countdown, alloc_failed */

/* ---- the registry ------------------------------------------------------------------ */

#ifdef POSENC_HAVE_JSON /* the registry is the config reader's */
TEST(registry_sorted_and_cited)
{
    const posenc_model_family *t;
    size_t n = posenc__families(&t);
    CHECK(n >= 55);
    CHECK(posenc__families(NULL) == n);
    for (size_t i = 0; i < n; i++) {
        CHECK(t[i].model_type && t[i].source && strlen(t[i].source) > 10);
        if (i > 0)
            CHECK(strcmp(t[i - 1].model_type, t[i].model_type) < 0);
        CHECK(posenc__family_find(t[i].model_type) == &t[i]);
        /* a wrapper of transformers names its part's default type; only a
         * remote-code wrapper (InternVL chat, VILA) may leave it to the part */
        CHECK(t[i].nested == NULL || t[i].nested_type != NULL ||
              strncmp(t[i].source, "models/", 7) != 0);
    }
    /* the families the issue names, at least */
    static const char *const need[] = {
        "llama", "llama4", "llama4_text", "mistral", "mistral3", "ministral3", "mixtral", "qwen",
        "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma", "gemma2", "gemma3", "gemma3_text",
        "phi", "phi3", "phimoe", "deepseek_v2", "deepseek_v3", "glm", "glm4", "glm4_moe",
        "chatglm", "gptj", "gpt_neox", "stablelm", "falcon", "RefinedWeb", "RefinedWebModel",
        "olmo", "olmo2", "olmo3", "cohere", "cohere2", "exaone4", "minicpm", "minicpm3",
        "internlm2", "starcoder2", "granite", "smollm3", "gpt_oss", "baichuan", "gpt2", "opt",
        "bert", "roberta", "distilbert", "bloom", "mpt", "t5", "mt5", "bart", "whisper",
        "qwen2_vl", "qwen2_5_vl", "qwen3_vl", NULL};
    for (int i = 0; need[i]; i++) {
        const posenc_model_family *f = posenc__family_find(need[i]);
        CHECK(f != NULL);
        if (!f)
            fprintf(stderr, "registry lacks %s\n", need[i]);
    }
    CHECK(posenc__family_find("no_such_type") == NULL);
    CHECK(posenc__family_find(NULL) == NULL);
    /* facts from the modeling code (see src/config/config_families_table.h) */
    CHECK(posenc__family_find("llama4_text")->layout == POSENC_LAYOUT_INTERLEAVED);
    CHECK(posenc__family_find("llama")->layout == POSENC_LAYOUT_HALF);
    CHECK(posenc__family_find("minicpm3")->layout == POSENC_LAYOUT_HALF);
    CHECK(posenc__family_find("minicpm3")->rotary == POSENC_ROTARY_QK_ROPE);
    CHECK(posenc__family_find("chatglm")->rotary == POSENC_ROTARY_HALF_HEAD);
    CHECK(posenc__family_find("glm4_moe")->layout == POSENC_LAYOUT_HALF);
    CHECK(posenc__family_find("glm4")->layout == POSENC_LAYOUT_INTERLEAVED);
    CHECK(posenc__family_find("bert")->scheme == POSENC_SCHEME_LEARNED);
    CHECK(posenc__family_find("opt")->pos_offset == 2);
    CHECK(posenc__family_find("roberta")->pos_offset == -1);
    CHECK(posenc__family_find("bloom")->scheme == POSENC_SCHEME_ALIBI);
    CHECK(posenc__family_find("t5")->scheme == POSENC_SCHEME_RELATIVE_BUCKETS);
    CHECK(posenc__family_find("qwen2_vl")->flags & POSENC_FAMILY_PART_OPTIONAL);
    CHECK(posenc__family_find("qwen2_vl_text")->flags & POSENC_FAMILY_MROPE);
    CHECK(posenc__family_find("qwen3_vl_text")->flags & POSENC_FAMILY_MROPE_ROUND_ROBIN);
    CHECK(!(posenc__family_find("glm4v_text")->flags & POSENC_FAMILY_MROPE_ROUND_ROBIN));
    CHECK(posenc__family_find("glm4v_text")->layout == POSENC_LAYOUT_INTERLEAVED);
    CHECK(posenc__family_find("glm4v_moe_text")->layout == POSENC_LAYOUT_HALF);
    CHECK(strcmp(posenc__family_find("qwen2_5_omni")->nested, "thinker_config.text_config") == 0);
    CHECK(posenc__family_find("qwen3_vl_text")->flags & POSENC_FAMILY_MROPE);
    CHECK(strcmp(posenc__family_find("qwen3_vl")->nested, "text_config") == 0);
    CHECK(posenc__family_find("gemma3_text")->base_default == 1000000.0);
    CHECK(posenc__family_find("gemma3_text")->local_base_default == 10000.0);
    /* families added from transformers 5.23.0 (issue 20; tests/hf probes them) */
    CHECK(posenc__family_find("ernie4_5")->layout == POSENC_LAYOUT_INTERLEAVED);
    CHECK(posenc__family_find("helium")->base_default == 100000.0);
    CHECK(posenc__family_find("nemotron")->partial_default == 0.5);
    CHECK(posenc__family_find("minimax_m2")->flags & POSENC_FAMILY_ROTARY_DIM);
    CHECK(posenc__family_find("mistral4")->qscale == POSENC_QSCALE_BETA);
    CHECK(posenc__family_find("youtu")->rotary == POSENC_ROTARY_QK_ROPE);
    CHECK(posenc__family_find("laguna")->flags & POSENC_FAMILY_TYPE_SETS);
    CHECK(posenc__family_find("modernbert")->flags & POSENC_FAMILY_GLOBAL_EVERY_N);
    CHECK(posenc__family_find("cohere2_moe")->full_rope == POSENC_TROPE_NONE);
    CHECK(posenc__family_find("hunyuan_v1_moe")->flags & POSENC_FAMILY_NTK_ALPHA);
    CHECK(posenc__family_find("dbrx")->refused != NULL);
    CHECK(posenc__family_find("granite_swa")->refused != NULL);
    CHECK(posenc__family_by_arch("GraniteMoeForCausalLM") == posenc__family_find("granitemoe"));
    CHECK(posenc__family_by_arch("Ernie4_5_MoeForCausalLM") == posenc__family_find("ernie4_5_moe"));
}

TEST(registry_by_arch)
{
    CHECK(posenc__family_by_arch("LlamaForCausalLM") == posenc__family_find("llama"));
    CHECK(posenc__family_by_arch("RWForCausalLM") == posenc__family_find("RefinedWeb"));
    CHECK(posenc__family_by_arch("QWenLMHeadModel") == posenc__family_find("qwen"));
    CHECK(posenc__family_by_arch("ChatGLMModel") == posenc__family_find("chatglm"));
    CHECK(posenc__family_by_arch("GPT2LMHeadModel") == posenc__family_find("gpt2"));
    CHECK(posenc__family_by_arch("Gemma3ForCausalLM") ==
          posenc__family_find("gemma3_text"));
    CHECK(posenc__family_by_arch("Llama4ForCausalLM") ==
          posenc__family_find("llama4_text"));
    CHECK(posenc__family_by_arch("LlamaTokenizer") == NULL);
    CHECK(posenc__family_by_arch("Nothing") == NULL);
    CHECK(posenc__family_by_arch(NULL) == NULL);
}

#endif

TEST(names)
{
    static const char *const s[] = {"none", "rope", "alibi", "learned", "sinusoid",
                                    "relative-buckets", "mixed"};
    for (int i = 0; i < 7; i++)
        CHECK(strcmp(posenc_scheme_name((posenc_scheme)i), s[i]) == 0);
    CHECK(strcmp(posenc_scheme_name((posenc_scheme)99), "unknown") == 0);
    static const char *const q[] = {"none", "temperature", "logn", "beta"};
    for (int i = 0; i < 4; i++)
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

#ifndef POSENC_HAVE_JSON
int main(void)
{
    RUN(names);
    RUN(layer_lookup);
    RUN(layer_rope);
    RUN(model_object);
    RUN(query_scales);
    RUN(alibi_slopes);
    printf("test_models: the registry and the config reader part skipped (no jansson)\n");
    return check_summary("models");
}
#else

/* ---- every fixture against the golden file -------------------------------------- */

#define MODEL_MAGIC "posenc-model-golden 1"

/* "0-2,4,6-8" -> in[i] = 1 for those layers; 0 on a malformed list. */
static int parse_layers(const char *s, unsigned char *in, uint32_t n)
{
    memset(in, 0, n);
    while (*s) {
        char *e;
        long a = strtol(s, &e, 10), b = a;
        if (e == s)
            return 0;
        if (*e == '-')
            b = strtol(e + 1, &e, 10);
        if (a < 0 || b < a || (uint32_t)b >= n)
            return 0;
        for (long i = a; i <= b; i++)
            in[i] = 1;
        s = *e == ',' ? e + 1 : e;
        if (*e && *e != ',')
            return 0;
    }
    return 1;
}

static const char *scheme_word(posenc_scheme s)
{
    return s == POSENC_SCHEME_RELATIVE_BUCKETS ? "buckets" : posenc_scheme_name(s);
}

TEST(fixtures_match_golden)
{
    FILE *f = fopen("tests/data/model_golden.txt", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    static char line[1 << 16];
    static unsigned char in[POSENC_MODEL_MAX_LAYERS], has_q[POSENC_MODEL_MAX_LAYERS];
    static posenc_rope r;
    CHECK(fgets(line, sizeof line, f) && strncmp(line, MODEL_MAGIC, strlen(MODEL_MAGIC)) == 0);
    int models = 0, total = -1, loaded = 0, rope_lines = 0, freqs = 0;
    char cur_list[4096] = "";
    uint32_t n_freq = 0, fk = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char w[32], a[4096] = "";
        if (line[0] == '#' || sscanf(line, "%31s", w) != 1)
            continue;
        const char *rest = line + strlen(w) + (line[strlen(w)] ? 1 : 0);
        if (strcmp(w, "model") == 0) {
            char path[512];
            snprintf(path, sizeof path, "tests/data/models/%s", rest);
            posenc_config_error err;
            posenc_status st = posenc_model_from_config(path, NULL, &model, &err);
            if (st != POSENC_OK)
                fprintf(stderr, "%s: %s\n", path, err.detail);
            CHECK(st == POSENC_OK);
            loaded = st == POSENC_OK;
            models++;
            memset(has_q, 0, sizeof has_q);
        } else if (!loaded) {
            continue;
        } else if (strcmp(w, "type") == 0) {
            CHECK(strcmp(model.model_type, rest) == 0);
        } else if (strcmp(w, "part") == 0) {
            CHECK(strcmp(model.part[0] ? model.part : "-", rest) == 0);
        } else if (strcmp(w, "layers") == 0) {
            CHECK_EQ_INT(model.n_layer, atoi(rest));
        } else if (strcmp(w, "schemes") == 0) {
            char *save = NULL, *tok = strtok_r((char *)rest, " ", &save);
            for (uint32_t i = 0; i < model.n_layer; i++) {
                const posenc_model_group *g;
                CHECK(tok && group_at(&model, i, &g) == POSENC_OK);
                if (tok && group_at(&model, i, &g) == POSENC_OK &&
                    strcmp(scheme_word(g->scheme), tok) != 0) {
                    fprintf(stderr, "%s layer %u: %s, golden %s\n", model.model_type, i,
                            scheme_word(g->scheme), tok);
                    CHECK(0);
                }
                tok = strtok_r(NULL, " ", &save);
            }
            CHECK(tok == NULL);
        } else if (strcmp(w, "rope") == 0) {
            long long cur;
            unsigned hd, rd;
            char lay[16];
            double base;
            CHECK(sscanf(rest, "%4095s %lld %u %u %15s %lf", a, &cur, &hd, &rd, lay, &base) == 6);
            snprintf(cur_list, sizeof cur_list, "%s", a);
            CHECK(parse_layers(a, in, model.n_layer));
            /* check the first layer of the list fully, the others' frequencies
             * against it (they share a group) */
            uint32_t first = 0;
            while (first < model.n_layer && !in[first])
                first++;
            CHECK(posenc_model_layer_rope(&model, first, cur, &r) == POSENC_OK);
            CHECK_EQ_INT(r.head_dim, hd);
            CHECK_EQ_INT(r.rotary_dim, rd);
            CHECK_EQ_INT(r.layout, strcmp(lay, "half") == 0 ? POSENC_LAYOUT_HALF
                                                             : POSENC_LAYOUT_INTERLEAVED);
            CHECK(r.base == base);
            for (uint32_t i = first + 1; i < model.n_layer; i++) {
                static posenc_rope o;
                if (!in[i])
                    continue;
                CHECK(posenc_model_layer_rope(&model, i, cur, &o) == POSENC_OK);
                CHECK(memcmp(o.inv_freq_hi, r.inv_freq_hi, sizeof o.inv_freq_hi) == 0);
            }
            n_freq = rd / 2;
            fk = 0;
            rope_lines++;
        } else if (strcmp(w, "attn") == 0) {
            double hi, lo;
            CHECK(sscanf(rest, "%lf %lf", &hi, &lo) == 2);
            CHECK_NEAR(r.attn_factor, hi, 4e-16 * hi);
        } else if (strcmp(w, "f") == 0) {
            unsigned k;
            double hi, lo;
            CHECK(sscanf(rest, "%u %lf %lf", &k, &hi, &lo) == 3 && k == fk && k < n_freq);
            if (k < n_freq)
                CHECK(fabs((r.inv_freq_hi[k] - hi) + (r.inv_freq_lo[k] - lo)) <= 1e-28 * hi);
            fk++;
            freqs++;
        } else if (strcmp(w, "alibi") == 0) {
            unsigned H;
            CHECK(sscanf(rest, "%4095s %u", a, &H) == 2 && parse_layers(a, in, model.n_layer));
            for (uint32_t i = 0; i < model.n_layer; i++) {
                const posenc_model_group *g;
                if (in[i])
                    CHECK(group_at(&model, i, &g) == POSENC_OK && g->n_head == H &&
                          g->alibi_bias_max == 8.0);
            }
            snprintf(cur_list, sizeof cur_list, "%s", a);
        } else if (strcmp(w, "slope") == 0) {
            unsigned h;
            double v, s[1024];
            uint32_t first = 0;
            parse_layers(cur_list, in, model.n_layer);
            while (first < model.n_layer && !in[first])
                first++;
            CHECK(sscanf(rest, "%u %lf", &h, &v) == 2 && h < 1024);
            CHECK(posenc_model_alibi_slopes(&model, first, s) == POSENC_OK);
            if (h < 1024)
                CHECK_NEAR(s[h], v, 4e-16 * v);
        } else if (strcmp(w, "learned") == 0 || strcmp(w, "sinusoid") == 0 ||
                   strcmp(w, "buckets") == 0) {
            long long p1, p2, p3 = 0;
            int got = sscanf(rest, "%4095s %lld %lld %lld", a, &p1, &p2, &p3);
            CHECK(got >= 3 && parse_layers(a, in, model.n_layer));
            for (uint32_t i = 0; i < model.n_layer; i++) {
                const posenc_model_group *g;
                if (!in[i] || group_at(&model, i, &g) != POSENC_OK)
                    continue;
                if (w[0] == 'l')
                    CHECK(g->scheme == POSENC_SCHEME_LEARNED && g->positions == p1 &&
                          g->offset == p2 && g->dim == p3);
                else if (w[0] == 's')
                    CHECK(g->scheme == POSENC_SCHEME_SINUSOID && g->positions == p1 &&
                          g->dim == p2 && g->sinusoid_split == p3);
                else
                    CHECK(g->scheme == POSENC_SCHEME_RELATIVE_BUCKETS && g->buckets == p1 &&
                          g->max_distance == p2 && g->bidirectional == p3);
            }
        } else if (strcmp(w, "qscale") == 0) {
            long long pos;
            double v, got = 0;
            CHECK(sscanf(rest, "%4095s %lld %lf", a, &pos, &v) == 3 &&
                  parse_layers(a, in, model.n_layer));
            for (uint32_t i = 0; i < model.n_layer; i++) {
                if (!in[i])
                    continue;
                has_q[i] = 1;
                CHECK(posenc_model_query_scale(&model, i, pos, &got) == POSENC_OK);
                CHECK_NEAR(got, v, 4e-16 * v);
            }
        } else if (strcmp(w, "end") == 0) {
            /* every layer without a qscale line has none */
            for (uint32_t i = 0; i < model.n_layer; i++) {
                double v = 0;
                if (!has_q[i])
                    CHECK(posenc_model_query_scale(&model, i, 1000000, &v) == POSENC_OK &&
                          v == 1.0);
            }
            CHECK(fk == n_freq || n_freq == 0);
            n_freq = fk = 0;
        } else if (strcmp(w, "total") == 0) {
            total = atoi(rest);
        } else {
            fprintf(stderr, "model_golden.txt: unknown line '%s'\n", line);
            CHECK(0);
        }
    }
    fclose(f);
    CHECK_EQ_INT(models, total);
    CHECK(models >= 60 && rope_lines >= 50 && freqs >= 2000);
}

/* ---- refusals: status, key, a phrase of the message ---------------------------------- */

typedef struct bad {
    const char *json; /* a file under tests/data/models when it starts with '@' */
    const char *override;
    posenc_status st;
    const char *key, *phrase;
} bad;

#define L32 "\"num_hidden_layers\": 2, \"hidden_size\": 256, \"num_attention_heads\": 4"

static const bad BAD[] = {
    /* a per-type set's own partial_rotary_factor that would change the
     * rotated part of a family whose code rotates the whole head: refused by
     * name, never skipped */
    {"{\"model_type\": \"gemma3_text\", \"num_hidden_layers\": 2, \"hidden_size\": 256, "
     "\"num_attention_heads\": 4, \"head_dim\": 64, \"layer_types\": [\"sliding_attention\", "
     "\"full_attention\"], \"rope_parameters\": {\"sliding_attention\": {\"rope_type\": "
     "\"default\", \"rope_theta\": 1e4}, \"full_attention\": {\"rope_type\": \"default\", "
     "\"rope_theta\": 1e6, \"partial_rotary_factor\": 0.5}}}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.full_attention.partial_rotary_factor",
     "would rotate 32 of 64 dimensions"},
    {"{\"model_type\": \"frobnicator\", " L32 "}", NULL, POSENC_ERR_FORMAT, "model_type",
     "registry (posenc --models lists the known types); give --model-type TYPE"},
    /* an unknown wrapper whose part, under a name posenc does not read, is a
     * known family: the message names the part */
    {"{\"model_type\": \"frobvlm\", \"speech_llm\": {\"model_type\": \"qwen2\"}}", NULL,
     POSENC_ERR_FORMAT, "model_type", "but its part speech_llm is model_type qwen2, a family"},
    {"{\"model_type\": \"frobvlm\", \"audio_tower\": {\"llm\": {\"model_type\": \"qwen3\"}}}",
     NULL, POSENC_ERR_FORMAT, "model_type", "its part audio_tower.llm is model_type qwen3"},
    /* Molmo 2: a scaled block on some layers only (rope_scaling_layers) */
    {"{\"model_type\": \"molmo2_text\", " L32 ", \"rope_scaling_layers\": [0], "
     "\"rope_parameters\": {\"rope_type\": \"yarn\", \"rope_theta\": 1e6, \"factor\": 8.0, "
     "\"original_max_position_embeddings\": 8192}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling_layers", "lists 1 of the 2 layers"},
    {"{\"model_type\": \"molmo2_text\", " L32 ", \"rope_scaling_layers\": 3}", NULL,
     POSENC_ERR_FORMAT, "rope_scaling_layers", "must be a list of layer indices"},
    /* a remote-code wrapper whose part names no family */
    {"{\"model_type\": \"internvl_chat\", \"llm_config\": {\"hidden_size\": 64}}", NULL,
     POSENC_ERR_FORMAT, "llm_config.model_type", "does not say which family"},
    {"{\"model_type\": \"qwen2_5_omni\", \"thinker_config\": {}}", NULL, POSENC_ERR_FORMAT,
     "thinker_config.text_config", "missing key thinker_config.text_config"},
    {"{\"model_type\": \"llama\", " L32 "}", "frobnicator", POSENC_ERR_FORMAT, "--model-type",
     "give --model-type TYPE"},
    /* no mrope_section: the code's default [16, 24, 24] (modeling_qwen2_vl.py
     * L102), which does not split head_dim 64's 32 pairs */
    {"{\"model_type\": \"qwen2_vl\", \"rope_theta\": 1e6, " L32 "}", NULL, POSENC_ERR_RANGE,
     "rope_scaling.mrope_section", "[16, 24, 24] does not split the 32 rotary pairs"},
    {"{\"model_type\": \"qwen2_vl\", " L32 ", \"rope_theta\": 1e6, \"rope_scaling\": {\"type\": \"mrope\"}}", NULL,
     POSENC_ERR_RANGE, "rope_scaling.mrope_section", "(the code's default; the config gives none)"},
    {"{\"model_type\": \"qwen2_vl\", " L32 ", \"rope_theta\": 1e6, \"rope_scaling\": {\"type\": \"mrope\", "
     "\"mrope_section\": [16, 24]}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.mrope_section", "a list of three pair counts"},
    {"{\"model_type\": \"qwen2_vl\", " L32 ", \"rope_theta\": 1e6, \"rope_scaling\": {\"type\": \"mrope\", "
     "\"mrope_section\": [16, 24, -1]}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.mrope_section", "each 0 to 512"},
    {"{\"model_type\": \"qwen2_vl\", " L32 ", \"rope_theta\": 1e6, \"rope_scaling\": {\"type\": \"mrope\", "
     "\"mrope_section\": [16, 24, 24], \"mrope_interleaved\": 1}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.mrope_interleaved", "must be true or false"},
    {"{\"model_type\": \"qwen2_vl\", " L32 ", \"rope_theta\": 1e6, \"rope_scaling\": "
     "{\"type\": \"mrope\", \"mrope_section\": [8, 12, 13]}}",
     NULL, POSENC_ERR_RANGE, "rope_scaling.mrope_section", "does not split the 32 rotary pairs"},
    /* the rule is the family's code: Qwen2-VL's never interleaves (L137-142),
     * Qwen3-VL's always does (modeling_qwen3_vl.py L406-415) */
    {"{\"model_type\": \"qwen2_vl\", " L32 ", \"rope_theta\": 1e6, \"rope_scaling\": "
     "{\"type\": \"mrope\", \"mrope_section\": [8, 12, 12], \"mrope_interleaved\": true}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.mrope_interleaved", "always takes the contiguous rule"},
    {"{\"model_type\": \"qwen3_vl_text\", " L32 ", \"head_dim\": 64, \"rope_parameters\": "
     "{\"rope_type\": \"default\", \"rope_theta\": 1e6, \"mrope_section\": [8, 12, 12], "
     "\"mrope_interleaved\": false}}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.mrope_interleaved", "always takes the interleaved"},
    {"{\"model_type\": \"qwen3_vl_text\", " L32 ", \"head_dim\": 64, \"rope_parameters\": "
     "{\"rope_type\": \"default\", \"rope_theta\": 1e6, \"mrope_section\": [8, 12, 12]}}",
     NULL, POSENC_ERR_RANGE, "rope_parameters.mrope_section", "under the interleaved rule"},
    /* GLM-4V's default section [8, 12, 12] needs 32 pairs: a full 128 head
     * (partial factor 1, the code's default) has 64 */
    {"{\"model_type\": \"glm4v\", \"text_config\": {\"hidden_size\": 4096, "
     "\"num_attention_heads\": 32, \"num_hidden_layers\": 2}}",
     NULL, POSENC_ERR_RANGE, "text_config.rope_scaling.mrope_section", "does not split the 64"},
    {"{\"num_hidden_layers\": 2}", NULL, POSENC_ERR_FORMAT, "model_type",
     "no architectures entry or RoPE key tells the family"},
    {"{\"num_hidden_layers\": 2, \"rope_theta\": 1e4}", NULL, POSENC_ERR_FORMAT, "hidden_size",
     "missing key hidden_size"}, /* bare: the RoPE reader's message */
    {"@bad-roberta-base-no-model-type.json", NULL, POSENC_ERR_FORMAT, "model_type",
     "give --model-type TYPE"},
    {"{\"model_type\": \"RefinedWebModel\", \"alibi\": true, \"n_layer\": 2, \"n_head\": 4}",
     NULL, POSENC_ERR_FORMAT, "alibi", "remote code's ALiBi was not read"},
    {"{\"model_type\": \"falcon\", \"alibi\": true, \"hidden_size\": 4, \"num_attention_heads\": "
     "8}",
     NULL, POSENC_ERR_DIM, "num_attention_heads", "exceeds the hidden size"},
    {"{\"architectures\": [\"LlamaForCausalLM\", \"GPT2LMHeadModel\"], " L32 "}", NULL,
     POSENC_ERR_FORMAT, "architectures", "names two families (llama, gpt2)"},
    {"{\"architectures\": [\"FrobForCausalLM\"], " L32 "}", NULL, POSENC_ERR_FORMAT,
     "architectures", "does not name a family"},
    {"{\"architectures\": [], " L32 "}", NULL, POSENC_ERR_FORMAT, "architectures",
     "architectures is empty"},
    {"{\"architectures\": \"LlamaForCausalLM\", " L32 "}", NULL, POSENC_ERR_FORMAT,
     "architectures", "must be an array"},
    {"{\"model_type\": 7}", NULL, POSENC_ERR_FORMAT, "model_type", "must be a string"},
    {"[1, 2]", NULL, POSENC_ERR_FORMAT, "", "must be a JSON object"},
    {"{\"model_type\": \"gemma3\"}", NULL, POSENC_ERR_FORMAT, "text_config",
     "missing key text_config"},
    {"{\"model_type\": \"gemma3\", \"text_config\": {\"model_type\": 3}}", NULL,
     POSENC_ERR_FORMAT, "text_config.model_type", "must be a string"},
    {"{\"model_type\": \"gemma3\", \"text_config\": {\"model_type\": \"frob\"}}", NULL,
     POSENC_ERR_FORMAT, "text_config.model_type", "'frob' is not in posenc's model registry"},
    {"{\"model_type\": \"gemma3\", \"text_config\": {\"model_type\": \"llama4\"}}", NULL,
     POSENC_ERR_FORMAT, "model_type", "itself a wrapper"},
    {"{\"model_type\": \"llama\", \"rope_local_base_freq\": 10000, " L32 "}", NULL,
     POSENC_ERR_FORMAT, "rope_local_base_freq", "not part of family llama's code"},
    {"{\"model_type\": \"llama\", \"use_dynamic_ntk\": true, " L32 "}", NULL, POSENC_ERR_FORMAT,
     "use_dynamic_ntk", "Qwen 1's dynamic NTK"},
    {"{\"model_type\": \"mistral\", \"no_rope_layers\": [1, 0], " L32 "}", NULL,
     POSENC_ERR_FORMAT, "no_rope_layers", "not part of family mistral's code"},
    {"{\"model_type\": \"ministral3\", \"llama_4_scaling_beta\": 0.1, " L32 "}", NULL,
     POSENC_ERR_FORMAT, "llama_4_scaling_beta", "reads from rope_parameters"},
    {"{\"model_type\": \"bert\", \"position_embedding_type\": \"relative_key\"}", NULL,
     POSENC_ERR_FORMAT, "position_embedding_type", "'relative_key' is not implemented"},
    {"{\"model_type\": \"roberta\", \"position_embedding_type\": 3}", NULL, POSENC_ERR_FORMAT,
     "position_embedding_type", "an integer is not implemented"},
    {"{\"model_type\": \"phimoe\", \"num_hidden_layers\": 2, \"hidden_size\": 256, "
     "\"num_attention_heads\": 4, \"rope_theta\": 1e6, \"max_position_embeddings\": 131072, "
     "\"rope_scaling\": {\"type\": \"longrope\", \"short_mscale\": 1.2, \"long_mscale\": 1.3, "
     "\"short_factor\": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1], "
     "\"long_factor\": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1], "
     "\"original_max_position_embeddings\": 4096}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.short_mscale", "must both be numbers and equal"},
    {"{\"model_type\": \"phimoe\", \"rope_scaling\": {\"type\": \"longrope\", \"long_mscale\": 1.2, "
     "\"attention_factor\": 1.1}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.long_mscale", "must both be numbers and equal"},
    {"{\"model_type\": \"phimoe\", \"rope_scaling\": {\"type\": \"longrope\", \"long_mscale\": 1.2, "
     "\"short_mscale\": 1.2, \"attention_factor\": 1.1}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.short_mscale", "both set the factor"},
    {"{\"model_type\": \"qwen\", \"seq_length_expansion\": 2, \"rotary_emb_base\": 1e4, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "seq_length_expansion", "not implemented"},
    {"{\"model_type\": \"qwen\", \"use_logn_attn\": false, \"rotary_emb_base\": 1e4, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "use_dynamic_ntk", "missing key use_dynamic_ntk"},
    {"{\"model_type\": \"gpt_oss\", \"rope_parameters\": {\"full_attention\": {\"rope_type\": "
     "\"default\", \"rope_theta\": 1e4}, \"sliding_attention\": {\"rope_type\": \"default\", "
     "\"rope_theta\": 2e4}}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.sliding_attention",
     "gives different sets per layer type"},
    {"{\"model_type\": \"gemma3_text\", \"rope_parameters\": {\"chunked_attention\": {}}, " L32
     "}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.chunked_attention", "not a layer type"},
    {"{\"model_type\": \"gemma3_text\", \"rope_parameters\": {\"full_attention\": {}, "
     "\"rope_theta\": 5}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.rope_theta", "not a layer type"},
    {"{\"model_type\": \"llama\", \"rope_parameters\": {\"rope_type\": \"default\"}, "
     "\"rope_scaling\": {\"rope_type\": \"default\"}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters", "ambiguous"},
    {"{\"model_type\": \"gemma3_text\", \"layer_types\": [\"full_attention\"], " L32 "}", NULL,
     POSENC_ERR_FORMAT, "layer_types", "has 1 entries for 2 layers"},
    {"{\"model_type\": \"gemma3_text\", \"layer_types\": [\"full_attention\", "
     "\"chunked_attention\"], " L32 "}",
     NULL, POSENC_ERR_FORMAT, "layer_types", "'chunked_attention' is not a layer type"},
    {"{\"model_type\": \"gemma3_text\", \"layer_types\": [\"full_attention\", 4], " L32 "}",
     NULL, POSENC_ERR_FORMAT, "layer_types", "[1] must be a string"},
    {"{\"model_type\": \"gemma3_text\", \"layer_types\": \"full\", " L32 "}", NULL,
     POSENC_ERR_FORMAT, "layer_types", "must be an array"},
    /* Gemma 4: the proportional set's keys, per_layer_config (issue 20) */
    {"{\"model_type\": \"gemma4_text\", \"rope_parameters\": {\"full_attention\": {\"rope_type\": "
     "\"proportional\", \"rope_theta\": 1e6, \"beta_fast\": 4}, \"sliding_attention\": "
     "{\"rope_type\": \"default\", \"rope_theta\": 1e4}}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.full_attention.beta_fast",
     "not a parameter of rope type proportional"},
    {"{\"model_type\": \"gemma4_text\", \"rope_parameters\": {\"full_attention\": {\"rope_type\": "
     "\"proportional\", \"rope_theta\": 1e6, \"partial_rotary_factor\": 1.5}, "
     "\"sliding_attention\": {\"rope_type\": \"default\", \"rope_theta\": 1e4}}, " L32 "}",
     NULL, POSENC_ERR_RANGE, "rope_parameters.full_attention", "out of range"},
    {"{\"model_type\": \"gemma4_text\", \"per_layer_config\": {\"00\": {\"head_dim\": 128}}, " L32
     "}",
     NULL, POSENC_ERR_FORMAT, "per_layer_config.00", "a sliding_attention layer with its own head size"},
    {"{\"model_type\": \"gemma4_text\", \"per_layer_config\": {\"01\": {\"rope_theta\": 5}}, " L32
     "}",
     NULL, POSENC_ERR_FORMAT, "per_layer_config.01", "a per-layer RoPE setting"},
    {"{\"model_type\": \"gemma4_text\", \"global_head_dim\": 7, " L32 "}", NULL,
     POSENC_ERR_DIM, "global_head_dim", "must be even"},
    {"{\"model_type\": \"cohere2\", \"rope_theta\": 1e4, " L32 "}", NULL, POSENC_ERR_FORMAT,
     "layer_types", "missing key layer_types"},
    {"{\"model_type\": \"gemma3_text\", \"rope_local_base_freq\": 0.5, " L32 "}", NULL,
     POSENC_ERR_BASE, "rope_local_base_freq", "must be finite and > 1"},
    {"{\"model_type\": \"gemma3_text\", \"layer_types\": [\"full_attention\", "
     "\"full_attention\"], \"rope_parameters\": {\"full_attention\": {\"rope_type\": "
     "\"default\", \"rope_theta\": 1}}, " L32 "}",
     NULL, POSENC_ERR_BASE, "rope_parameters.full_attention.rope_theta", "must be finite"},
    {"{\"model_type\": \"llama4_text\", \"no_rope_layers\": [1], " L32 "}", NULL,
     POSENC_ERR_FORMAT, "no_rope_layers", "has 1 entries for 2 layers"},
    {"{\"model_type\": \"llama4_text\", \"no_rope_layers\": 3, " L32 "}", NULL,
     POSENC_ERR_FORMAT, "no_rope_layers", "must be an array"},
    {"{\"model_type\": \"llama4_text\", \"no_rope_layers\": [1, \"x\"], " L32 "}", NULL,
     POSENC_ERR_FORMAT, "no_rope_layers", "[1] must be 0 or 1"},
    {"{\"model_type\": \"llama4_text\", \"no_rope_layer_interval\": 0, " L32 "}", NULL,
     POSENC_ERR_RANGE, "no_rope_layer_interval", "at least 1"},
    {"{\"model_type\": \"llama4_text\", \"attn_temperature_tuning\": \"on\", "
     "\"num_hidden_layers\": 4}", NULL,
     POSENC_ERR_FORMAT, "attn_temperature_tuning", "must be true or false"},
    {"{\"model_type\": \"llama4_text\", \"floor_scale\": 0, \"num_hidden_layers\": 4}", NULL,
     POSENC_ERR_RANGE,
     "floor_scale", "finite and > 0"},
    {"{\"model_type\": \"qwen\", \"use_logn_attn\": true, \"use_dynamic_ntk\": false, "
     "\"rotary_emb_base\": 1e4, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "seq_length", "use_logn_attn and use_dynamic_ntk"},
    {"{\"model_type\": \"qwen\", \"use_dynamic_ntk\": true, \"use_logn_attn\": false, "
     "\"seq_length\": 2048, "
     "\"rotary_emb_base\": 1e4, \"rope_scaling\": {\"type\": \"linear\", \"factor\": 2}, " L32
     "}",
     NULL, POSENC_ERR_FORMAT, "use_dynamic_ntk", "ambiguous"},
    {"{\"model_type\": \"mistral\", " L32 "}", NULL, POSENC_ERR_FORMAT, "rope_theta",
     "no default posenc can vouch for"},
    {"{\"model_type\": \"mistral\", \"hidden_size\": 256, \"num_attention_heads\": 4, "
     "\"rope_theta\": 1e4}",
     NULL, POSENC_ERR_FORMAT, "num_hidden_layers", "missing key num_hidden_layers"},
    {"{\"model_type\": \"llama\", \"num_hidden_layers\": 2000}", NULL, POSENC_ERR_RANGE,
     "num_hidden_layers", "outside 1..1024"},
    {"{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"num_attention_heads\": 0}", NULL,
     POSENC_ERR_FORMAT, "num_attention_heads", "at least 1"},
    {"{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"head_dim\": 4096}", NULL,
     POSENC_ERR_DIM, "head_dim", "outside 2..1024"},
    {"{\"model_type\": \"phi\", \"partial_rotary_factor\": 1.5, \"rope_theta\": 1e4, " L32 "}",
     NULL, POSENC_ERR_RANGE, "partial_rotary_factor", "in (0, 1]"},
    {"{\"model_type\": \"phi\", \"partial_rotary_factor\": 0.01, \"rope_theta\": 1e4, " L32 "}",
     NULL, POSENC_ERR_RANGE, "partial_rotary_factor", "rotary dimension comes out 0"},
    {"{\"model_type\": \"gptj\", \"n_embd\": 256, \"n_head\": 4, \"n_layer\": 2}", NULL,
     POSENC_ERR_FORMAT, "rotary_dim", "missing key rotary_dim"},
    {"{\"model_type\": \"gptj\", \"n_embd\": 256, \"n_head\": 4, \"n_layer\": 2, \"rotary_dim\": "
     "128}",
     NULL, POSENC_ERR_RANGE, "rotary_dim", "at most the head size"},
    {"{\"model_type\": \"chatglm\", \"rope_ratio\": -1, \"num_layers\": 2, \"hidden_size\": 256, "
     "\"num_attention_heads\": 4}",
     NULL, POSENC_ERR_RANGE, "rope_ratio", "finite and > 0"},
    {"{\"model_type\": \"minicpm\", \"rope_theta\": 1e4, \"max_position_embeddings\": 8192, "
     "\"rope_scaling\": {\"type\": \"longrope\", \"factor\": 3, \"short_factor\": [1,1,1,1,1,1,1,1,1,1,"
     "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1], \"long_factor\": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
     "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1], \"original_max_position_embeddings\": 4096}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.factor", "does not read this key"},
    {"{\"model_type\": \"chatglm\", \"position_encoding_2d\": true, \"num_layers\": 28}", NULL,
     POSENC_ERR_FORMAT, "position_encoding_2d", "2D position encoding"},
    {"{\"model_type\": \"chatglm\", \"max_sequence_length\": 2048, \"num_layers\": 28}", NULL,
     POSENC_ERR_FORMAT, "max_sequence_length", "ChatGLM-6B"},
    {"{\"model_type\": \"chatglm\", \"_name_or_path\": \"THUDM/chatglm2-6b-32k\", \"rope_ratio\": 16, "
     "\"kv_channels\": 128, \"num_layers\": 28}",
     NULL, POSENC_ERR_FORMAT, "rope_ratio", "does not guess"},
    {"{\"model_type\": \"llama\", \"rope_theta\": 1, " L32 "}", NULL, POSENC_ERR_BASE,
     "rope_theta", "finite and > 1"},
    {"{\"model_type\": \"llama\", \"rope_scaling\": 5, " L32 "}", NULL, POSENC_ERR_FORMAT,
     "rope_scaling", "must be an object"},
    {"{\"model_type\": \"deepseek_v3\", \"rope_interleave\": 1, \"qk_rope_head_dim\": 64, "
     "\"rope_theta\": 1e4, \"num_hidden_layers\": 2}",
     NULL, POSENC_ERR_FORMAT, "rope_interleave", "true or false"},
    {"{\"model_type\": \"llama\", \"rope_theta\": 1e308, \"rope_scaling\": {\"rope_type\": "
     "\"linear\", \"factor\": 1e308}, \"head_dim\": 4, \"num_hidden_layers\": 2}",
     NULL, POSENC_ERR_RANGE, "rope_scaling", "out of range"},
    {"{\"model_type\": \"ministral3\", \"rope_parameters\": {\"rope_type\": \"default\", "
     "\"rope_theta\": 1e6, \"llama_4_scaling_beta\": \"x\"}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.llama_4_scaling_beta", "must be a number"},
    {"{\"model_type\": \"ministral3\", \"rope_parameters\": {\"rope_type\": \"default\", "
     "\"rope_theta\": 1e6, \"llama_4_scaling_beta\": 0.1}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.original_max_position_embeddings",
     "steps of that many tokens"},
    {"{\"model_type\": \"gpt2\", \"n_positions\": 0}", NULL, POSENC_ERR_RANGE, "n_positions",
     "outside 1.."},
    {"{\"model_type\": \"gpt2\", \"n_embd\": 0}", NULL, POSENC_ERR_DIM, "n_embd",
     "outside 1.."},
    {"{\"model_type\": \"roberta\", \"pad_token_id\": 600}", NULL, POSENC_ERR_RANGE,
     "pad_token_id", "leaves no row"},
    {"{\"model_type\": \"distilbert\", \"sinusoidal_pos_embds\": 1}", NULL, POSENC_ERR_FORMAT,
     "sinusoidal_pos_embds", "true or false"},
    {"{\"model_type\": \"bloom\", \"n_head\": 0}", NULL, POSENC_ERR_DIM, "n_head",
     "outside 1.."},
    {"{\"model_type\": \"falcon\", \"alibi\": \"yes\"}", NULL, POSENC_ERR_FORMAT, "alibi",
     "true or false"},
    {"{\"model_type\": \"t5\", \"num_layers\": 0}", NULL, POSENC_ERR_RANGE, "num_layers",
     "outside 1..1024"},
    {"{\"model_type\": \"t5\", \"relative_attention_num_buckets\": 2}", NULL, POSENC_ERR_RANGE,
     "relative_attention_num_buckets", "outside 4..65536"},
    {"{\"model_type\": \"t5\", \"relative_attention_max_distance\": 8}", NULL, POSENC_ERR_RANGE,
     "relative_attention_max_distance", "must exceed num_buckets / 4"},
    {"{\"model_type\": \"t5\", \"num_layers\": 600}", NULL, POSENC_ERR_RANGE,
     "num_decoder_layers", "exceed 1024"},
    {"{\"model_type\": \"whisper\", \"d_model\": 5}", NULL, POSENC_ERR_DIM, "d_model",
     "must be even"},
    {"{\"model_type\": \"whisper\", \"max_source_positions\": 0}", NULL, POSENC_ERR_RANGE,
     "max_source_positions", "outside 1.."},
    {"{\"model_type\": \"bart\", \"encoder_layers\": 2, \"decoder_layers\": 2, "
     "\"max_position_embeddings\": 1024}",
     NULL, POSENC_ERR_FORMAT, "d_model", "missing key d_model"},
    {"{\"model_type\": \"bart\", \"encoder_layers\": 2, \"decoder_layers\": 2, "
     "\"max_position_embeddings\": 1024, \"d_model\": 0}",
     NULL, POSENC_ERR_DIM, "d_model", "outside 1.."},
    {"{\"model_type\": \"gemma3\", \"text_config\": {\"num_hidden_layers\": 2, \"head_dim\": 3}}",
     NULL, POSENC_ERR_RANGE, "text_config.partial_rotary_factor", "it must be even"},
    /* a key of the wrong type, at each place a key is read: status, key, message */
    {"{\"model_type\": \"llama\", \"num_hidden_layers\": \"2\"}", NULL, POSENC_ERR_FORMAT,
     "num_hidden_layers", "num_hidden_layers must be a number, got a string"},
    {"{\"model_type\": \"llama\", \"num_hidden_layers\": 0}", NULL, POSENC_ERR_RANGE,
     "num_hidden_layers", "num_hidden_layers 0 is outside 1..1024"},
    {"{\"model_type\": \"deepseek_v3\", \"qk_rope_head_dim\": -1, \"num_hidden_layers\": 2}", NULL,
     POSENC_ERR_FORMAT, "qk_rope_head_dim", "must be a non-negative integer, got -1"},
    {"{\"model_type\": \"llama\", \"head_dim\": \"x\", " L32 "}", NULL, POSENC_ERR_FORMAT,
     "head_dim", "head_dim must be a number, got a string"},
    {"{\"model_type\": \"llama\", \"head_dim\": 1, " L32 "}", NULL, POSENC_ERR_DIM, "head_dim",
     "the head size 1 is outside 2..1024"},
    {"{\"model_type\": \"chatglm\", \"num_layers\": 2, \"kv_channels\": [128]}", NULL,
     POSENC_ERR_FORMAT, "kv_channels", "kv_channels must be a number, got an array"},
    {"{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": {}}", NULL,
     POSENC_ERR_FORMAT, "hidden_size", "hidden_size must be a number, got an object"},
    {"{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 256, \"n_head\": 4.5}",
     NULL, POSENC_ERR_FORMAT, "n_head", "n_head must be a non-negative integer, got 4.5"},
    {"{\"model_type\": \"phi\", \"rope_parameters\": {\"rope_type\": \"default\", \"rope_theta\": "
     "1e4, \"partial_rotary_factor\": \"half\"}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.partial_rotary_factor", "must be a number"},
    {"{\"model_type\": \"phi\", \"partial_rotary_factor\": true, \"rope_theta\": 1e4, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "partial_rotary_factor", "must be a number, got a boolean"},
    {"{\"model_type\": \"gpt_neox\", \"partial_rotary_factor\": \"x\", " L32 "}", NULL,
     POSENC_ERR_FORMAT, "partial_rotary_factor", "must be a number, got a string"},
    {"{\"model_type\": \"phi\", \"partial_rotary_factor\": 0, \"rope_theta\": 1e4, " L32 "}",
     NULL, POSENC_ERR_RANGE, "partial_rotary_factor", "must be in (0, 1], got 0"},
    {"{\"model_type\": \"gptj\", \"n_embd\": 256, \"n_head\": 4, \"n_layer\": 2, \"rotary_dim\": "
     "\"64\"}",
     NULL, POSENC_ERR_FORMAT, "rotary_dim", "rotary_dim must be a number"},
    {"{\"model_type\": \"llama\", \"rope_parameters\": {\"rope_type\": \"default\", \"rope_theta\": "
     "\"1e4\"}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.rope_theta", "must be a number, got a string"},
    {"{\"model_type\": \"llama\", \"rope_theta\": \"1e4\", " L32 "}", NULL, POSENC_ERR_FORMAT,
     "rope_theta", "rope_theta must be a number, got a string"},
    {"{\"model_type\": \"qwen\", \"rope_theta\": [1], " L32 "}", NULL, POSENC_ERR_FORMAT,
     "rope_theta", "rope_theta must be a number, got an array"},
    {"{\"model_type\": \"chatglm\", \"num_layers\": 2, \"kv_channels\": 128, \"rope_ratio\": \"2\"}",
     NULL, POSENC_ERR_FORMAT, "rope_ratio", "rope_ratio must be a number, got a string"},
    /* 10000 * 1e305 overflows: the product is what is checked */
    {"{\"model_type\": \"chatglm\", \"num_layers\": 2, \"kv_channels\": 128, \"rope_ratio\": "
     "1e305}",
     NULL, POSENC_ERR_BASE, "rope_theta", "must be finite and > 1, got inf"},
    /* jansson refuses a number past a double: the reader never sees inf */
    {"{\"model_type\": \"llama4_text\", \"floor_scale\": 1e999, \"num_hidden_layers\": 4}", NULL,
     POSENC_ERR_FORMAT, "", "real number overflow"},
    {"{\"model_type\": \"llama\", \"max_position_embeddings\": \"4k\", " L32 "}", NULL,
     POSENC_ERR_FORMAT, "max_position_embeddings", "must be a number, got a string"},
    {"{\"model_type\": \"llama\", \"original_max_position_embeddings\": -4, " L32 "}", NULL,
     POSENC_ERR_FORMAT, "original_max_position_embeddings", "must be a non-negative integer"},
    {"{\"model_type\": \"gemma3_text\", \"sliding_window_pattern\": \"6\", " L32 "}", NULL,
     POSENC_ERR_FORMAT, "sliding_window_pattern", "must be a number, got a string"},
    {"{\"model_type\": \"gemma3_text\", \"rope_local_base_freq\": \"1e4\", " L32 "}", NULL,
     POSENC_ERR_FORMAT, "rope_local_base_freq", "must be a number, got a string"},
    {"{\"model_type\": \"gemma3_text\", \"layer_types\": [\"full_attention\", "
     "\"full_attention\"], \"rope_parameters\": {\"full_attention\": {\"rope_type\": "
     "\"default\", \"rope_theta\": \"big\"}}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.full_attention.rope_theta", "must be a number"},
    /* (layer 5 is the first full layer, the one that reads rope_scaling) */
    {"{\"model_type\": \"gemma3_text\", \"rope_scaling\": 5, \"num_hidden_layers\": 6}", NULL,
     POSENC_ERR_FORMAT, "rope_scaling", "rope_scaling must be an object or null, got an integer"},
    {"{\"model_type\": \"llama4_text\", \"rope_scaling\": \"x\", \"num_hidden_layers\": 4}", NULL,
     POSENC_ERR_FORMAT, "rope_scaling", "must be an object or null, got a string"},
    {"{\"model_type\": \"llama4_text\", \"no_rope_layer_interval\": \"4\", " L32 "}", NULL,
     POSENC_ERR_FORMAT, "no_rope_layer_interval", "must be a number, got a string"},
    {"{\"model_type\": \"llama4_text\", \"no_rope_layers\": [1, 1, 1, {}], \"num_hidden_layers\": 4}",
     NULL, POSENC_ERR_FORMAT, "no_rope_layers", "no_rope_layers[3] must be 0 or 1, got an object"},
    {"{\"model_type\": \"llama4_text\", \"attn_temperature_tuning\": [], \"num_hidden_layers\": 4}",
     NULL, POSENC_ERR_FORMAT, "attn_temperature_tuning", "must be true or false, got an array"},
    {"{\"model_type\": \"llama4_text\", \"attn_temperature_tuning\": {}, \"num_hidden_layers\": 4}",
     NULL, POSENC_ERR_FORMAT, "attn_temperature_tuning", "must be true or false, got an object"},
    {"{\"model_type\": \"llama4_text\", \"floor_scale\": \"8k\", \"num_hidden_layers\": 4}", NULL,
     POSENC_ERR_FORMAT, "floor_scale", "floor_scale must be a number, got a string"},
    {"{\"model_type\": \"llama4_text\", \"attn_scale\": \"x\", \"num_hidden_layers\": 4}", NULL,
     POSENC_ERR_FORMAT, "attn_scale", "attn_scale must be a number, got a string"},
    /* Qwen 1's keys */
    {"{\"model_type\": \"qwen\", \"use_logn_attn\": 1, \"use_dynamic_ntk\": false, "
     "\"rotary_emb_base\": 1e4, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "use_logn_attn", "must be true or false, got an integer"},
    {"{\"model_type\": \"qwen\", \"use_logn_attn\": false, \"use_dynamic_ntk\": \"no\", "
     "\"rotary_emb_base\": 1e4, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "use_dynamic_ntk", "must be true or false, got a string"},
    {"{\"model_type\": \"qwen\", \"use_logn_attn\": false, \"use_dynamic_ntk\": false, "
     "\"max_position_embeddings\": 8192, \"seq_length\": \"2k\", \"rotary_emb_base\": 1e4, " L32
     "}",
     NULL, POSENC_ERR_FORMAT, "seq_length", "seq_length must be a number, got a string"},
    {"{\"model_type\": \"qwen\", \"use_logn_attn\": false, \"use_dynamic_ntk\": false, "
     "\"seq_length_expansion\": \"1\", \"rotary_emb_base\": 1e4, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "seq_length_expansion", "must be a number, got a string"},
    {"{\"model_type\": \"qwen\", \"use_dynamic_ntk\": false, \"rotary_emb_base\": 1e4, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "use_logn_attn", "missing key use_logn_attn (family qwen"},
    {"{\"model_type\": \"qwen\", \"use_logn_attn\": false, \"use_dynamic_ntk\": true, "
     "\"rotary_emb_base\": 1e4, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "seq_length", "seq_length (at least 2) is needed"},
    {"{\"model_type\": \"qwen\", \"use_logn_attn\": true, \"use_dynamic_ntk\": false, "
     "\"seq_length\": 1, \"rotary_emb_base\": 1e4, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "seq_length", "seq_length (at least 2) is needed"},
    {"{\"model_type\": \"qwen\", \"use_logn_attn\": false, \"use_dynamic_ntk\": true, "
     "\"seq_length\": 2048, \"kv_channels\": 2, \"rotary_emb_base\": 1e4, " L32 "}",
     NULL, POSENC_ERR_RANGE, "use_dynamic_ntk", "needs a rotary dimension of at least 4"},
    /* foreign keys in the families that read a relative of them */
    {"{\"model_type\": \"llama4_text\", \"rope_local_base_freq\": 1e4, \"num_hidden_layers\": 4}",
     NULL, POSENC_ERR_FORMAT, "rope_local_base_freq", "not part of family llama4_text's code"},
    {"{\"model_type\": \"gemma3_text\", \"use_dynamic_ntk\": true, " L32 "}", NULL,
     POSENC_ERR_FORMAT, "use_dynamic_ntk", "not part of family gemma3_text's code"},
    {"{\"model_type\": \"cohere2\", \"rope_local_base_freq\": 1e4, \"rope_theta\": 1e4, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_local_base_freq", "not part of family cohere2's code"},
    {"{\"model_type\": \"qwen\", \"no_rope_layers\": [1, 1], \"rotary_emb_base\": 1e4, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "no_rope_layers", "not part of family qwen's code"},
    /* the architectures list and wrappers */
    {"{\"architectures\": [3], " L32 "}", NULL, POSENC_ERR_FORMAT, "architectures",
     "architectures[0] does not name a family"},
    {"{\"model_type\": \"frobvlm\", \"text_config\": 5, \"llm_config\": {\"model_type\": 7}, "
     "\"language_config\": {\"model_type\": \"frob\"}}",
     NULL, POSENC_ERR_FORMAT, "model_type", "'frobvlm' is not in posenc's model registry"},
    /* Qwen2-VL is itself a wrapper (its text_config, or its flat keys) */
    {"{\"model_type\": \"internvl_chat\", \"llm_config\": {\"model_type\": \"qwen2_vl\"}}", NULL,
     POSENC_ERR_FORMAT, "model_type", "itself a wrapper"},
    /* an M-RoPE family inside a wrapper is read like the others: here its
     * code's default section does not fit the head */
    {"{\"model_type\": \"internvl_chat\", \"llm_config\": {\"model_type\": \"qwen2_vl_text\", "
     L32 "}}", NULL, POSENC_ERR_RANGE, "llm_config.rope_scaling.mrope_section",
     "does not split the 32 rotary pairs"},
    {"{\"model_type\": \"internvl_chat\", \"llm_config\": {\"model_type\": \"gemma3\"}}", NULL,
     POSENC_ERR_FORMAT, "model_type", "itself a wrapper"},
    {"{\"model_type\": \"gemma3\", \"text_config\": [1]}", NULL, POSENC_ERR_FORMAT, "text_config",
     "missing key text_config: model_type gemma3 keeps its language model there"},
    {"{\"num_hidden_layers\": \"3\", \"head_dim\": 64}", NULL, POSENC_ERR_FORMAT,
     "num_hidden_layers", "must be a number, got a string"},
    {"{\"num_hidden_layers\": 5000, \"head_dim\": 64}", NULL, POSENC_ERR_RANGE,
     "num_hidden_layers", "num_hidden_layers 5000 is outside 1..1024"},
    /* ALiBi, learned tables, encoder-decoder stacks */
    {"{\"model_type\": \"bloom\", \"n_head\": \"8\"}", NULL, POSENC_ERR_FORMAT, "n_head",
     "n_head must be a number, got a string"},
    {"{\"model_type\": \"bloom\", \"n_head\": 2000000}", NULL, POSENC_ERR_DIM, "n_head",
     "n_head 2000000 is outside 1..1048576"},
    {"{\"model_type\": \"falcon\", \"alibi\": true, \"hidden_size\": \"4544\"}", NULL,
     POSENC_ERR_FORMAT, "hidden_size", "hidden_size must be a number, got a string"},
    {"{\"model_type\": \"gpt2\", \"n_embd\": \"768\"}", NULL, POSENC_ERR_FORMAT, "n_embd",
     "n_embd must be a number, got a string"},
    {"{\"model_type\": \"gpt2\", \"n_embd\": 2000000}", NULL, POSENC_ERR_DIM, "n_embd",
     "n_embd 2000000 is outside 1..1048576"},
    {"{\"model_type\": \"gpt2\", \"n_positions\": \"1k\"}", NULL, POSENC_ERR_FORMAT, "n_positions",
     "n_positions must be a number, got a string"},
    {"{\"model_type\": \"gpt2\", \"n_positions\": 2147483649}", NULL, POSENC_ERR_RANGE,
     "n_positions", "n_positions 2147483649 is outside 1..2147483648"},
    {"{\"model_type\": \"roberta\", \"pad_token_id\": \"1\"}", NULL, POSENC_ERR_FORMAT,
     "pad_token_id", "pad_token_id must be a number, got a string"},
    {"{\"model_type\": \"t5\", \"num_layers\": \"6\"}", NULL, POSENC_ERR_FORMAT, "num_layers",
     "num_layers must be a number, got a string"},
    {"{\"model_type\": \"t5\", \"num_layers\": 1025}", NULL, POSENC_ERR_RANGE, "num_layers",
     "num_layers 1025 is outside 1..1024"},
    {"{\"model_type\": \"t5\", \"num_decoder_layers\": 0}", NULL, POSENC_ERR_RANGE,
     "num_decoder_layers", "num_decoder_layers 0 is outside 1..1024"},
    {"{\"model_type\": \"t5\", \"relative_attention_num_buckets\": \"32\"}", NULL,
     POSENC_ERR_FORMAT, "relative_attention_num_buckets", "must be a number, got a string"},
    {"{\"model_type\": \"t5\", \"relative_attention_max_distance\": \"128\"}", NULL,
     POSENC_ERR_FORMAT, "relative_attention_max_distance", "must be a number, got a string"},
    {"{\"model_type\": \"t5\", \"relative_attention_num_buckets\": 65537}", NULL, POSENC_ERR_RANGE,
     "relative_attention_num_buckets", "65537 is outside 4..65536"},
    {"{\"model_type\": \"t5\", \"relative_attention_max_distance\": 2147483648}", NULL,
     POSENC_ERR_RANGE, "relative_attention_max_distance", "(and be at most 2147483647)"},
    {"{\"model_type\": \"whisper\", \"encoder_layers\": 0}", NULL, POSENC_ERR_RANGE,
     "encoder_layers", "encoder_layers 0 is outside 1..1024"},
    {"{\"model_type\": \"whisper\", \"decoder_layers\": 0}", NULL, POSENC_ERR_RANGE,
     "decoder_layers", "decoder_layers 0 is outside 1..1024"},
    {"{\"model_type\": \"whisper\", \"max_source_positions\": \"1500\"}", NULL, POSENC_ERR_FORMAT,
     "max_source_positions", "must be a number, got a string"},
    {"{\"model_type\": \"whisper\", \"max_target_positions\": \"448\"}", NULL, POSENC_ERR_FORMAT,
     "max_target_positions", "must be a number, got a string"},
    {"{\"model_type\": \"whisper\", \"max_target_positions\": 0}", NULL, POSENC_ERR_RANGE,
     "max_target_positions", "max_target_positions 0 is outside 1.."},
    {"{\"model_type\": \"whisper\", \"d_model\": \"384\"}", NULL, POSENC_ERR_FORMAT, "d_model",
     "d_model must be a number, got a string"},
    {"{\"model_type\": \"whisper\", \"d_model\": 2}", NULL, POSENC_ERR_DIM, "d_model",
     "d_model 2 must be even and in 4..1048576"},
    {"{\"model_type\": \"whisper\", \"d_model\": 2097152}", NULL, POSENC_ERR_DIM, "d_model",
     "d_model 2097152 must be even"},
    {"{\"model_type\": \"whisper\", \"encoder_layers\": 600, \"decoder_layers\": 600}", NULL,
     POSENC_ERR_RANGE, "decoder_layers", "600 encoder and 600 decoder layers exceed 1024"},
    {"{\"model_type\": \"bart\", \"decoder_layers\": 2, \"max_position_embeddings\": 1024, "
     "\"d_model\": 16}",
     NULL, POSENC_ERR_FORMAT, "encoder_layers", "missing key encoder_layers (family bart"},
    {"{\"model_type\": \"bart\", \"encoder_layers\": 2, \"max_position_embeddings\": 1024, "
     "\"d_model\": 16}",
     NULL, POSENC_ERR_FORMAT, "decoder_layers", "missing key decoder_layers"},
    {"{\"model_type\": \"bart\", \"encoder_layers\": 2, \"decoder_layers\": 2, \"d_model\": 16}",
     NULL, POSENC_ERR_FORMAT, "max_position_embeddings", "missing key max_position_embeddings"},
    {"{\"model_type\": \"bart\", \"encoder_layers\": 2, \"decoder_layers\": 2, "
     "\"max_position_embeddings\": 1024, \"d_model\": 1048577}",
     NULL, POSENC_ERR_DIM, "d_model", "d_model 1048577 is outside 1..1048576"},
    /* the RoPE block of a family with its own reading */
    {"{\"model_type\": \"llama\", \"rope_scaling\": {\"rope_type\": \"frob\"}, " L32 "}", NULL,
     POSENC_ERR_FORMAT, "rope_scaling", "frob"},
    {"{\"model_type\": \"phimoe\", \"rope_scaling\": {\"type\": \"longrope\", \"short_mscale\": "
     "\"1.2\", \"long_mscale\": \"1.2\"}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.short_mscale", "must both be numbers and equal"},
    {"{\"model_type\": \"phimoe\", \"rope_scaling\": {\"type\": \"longrope\", \"short_mscale\": "
     "1.2, \"long_mscale\": \"1.2\"}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.short_mscale", "must both be numbers and equal"},
    {"{\"model_type\": \"ministral3\", \"rope_parameters\": {\"rope_type\": \"default\", "
     "\"rope_theta\": 1e6, \"llama_4_scaling_beta\": 0.1, \"original_max_position_embeddings\": "
     "\"16k\"}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.original_max_position_embeddings",
     "must be a number > 0"},
    {"{\"model_type\": \"ministral3\", \"rope_parameters\": {\"rope_type\": \"default\", "
     "\"rope_theta\": 1e6, \"llama_4_scaling_beta\": 0.1, \"original_max_position_embeddings\": "
     "0}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.original_max_position_embeddings",
     "must be a number > 0"},
    {"{\"model_type\": \"baichuan\", \"hidden_size\": \"4096\", \"num_attention_heads\": 32, "
     "\"num_hidden_layers\": 2}",
     NULL, POSENC_ERR_FORMAT, "hidden_size", "hidden_size must be a number, got a string"},
    {"{\"model_type\": \"ministral3\", \"rope_parameters\": {\"rope_type\": 5, \"rope_theta\": 1e6, "
     "\"llama_4_scaling_beta\": 0.1, \"original_max_position_embeddings\": 16384}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.rope_type", "must be a string, got an integer"},
    {"{\"model_type\": \"llama\", \"rope_parameters\": {\"rope_type\": \"default\", \"rope_theta\": "
     "1e6, \"llama_4_scaling_beta\": 0.1}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.llama_4_scaling_beta",
     "not a parameter of rope type default"},
    /* llama3 with low == high: the clean step is taken only for values the
     * RoPE checks accept; the others are refused by them, naming the block */
    {"{\"model_type\": \"llama\", \"rope_theta\": 1e4, \"rope_scaling\": {\"rope_type\": \"llama3\", "
     "\"factor\": 0.5, \"low_freq_factor\": 1, \"high_freq_factor\": 1, "
     "\"original_max_position_embeddings\": 8192}, " L32 "}",
     NULL, POSENC_ERR_RANGE, "rope_scaling", "parameters in rope_scaling are out of range"},
    {"{\"model_type\": \"llama\", \"rope_theta\": 1e4, \"rope_scaling\": {\"rope_type\": \"llama3\", "
     "\"factor\": 8, \"low_freq_factor\": 0, \"high_freq_factor\": 0, "
     "\"original_max_position_embeddings\": 8192}, " L32 "}",
     NULL, POSENC_ERR_RANGE, "rope_scaling", "parameters in rope_scaling are out of range"},
    {"{\"model_type\": \"llama\", \"rope_theta\": 1e4, \"rope_scaling\": {\"rope_type\": \"llama3\", "
     "\"factor\": 8, \"low_freq_factor\": 1, \"high_freq_factor\": 1, "
     "\"original_max_position_embeddings\": 0.5}, " L32 "}",
     NULL, POSENC_ERR_RANGE, "rope_scaling", "parameters in rope_scaling are out of range"},
    {"{\"model_type\": \"llama\"", NULL, POSENC_ERR_FORMAT, "", "invalid JSON"},
};

TEST(refusals)
{
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        const bad *b = &BAD[i];
        posenc_config_error err;
        posenc_status st;
        memset(&model, 0xA5, sizeof model);
        if (b->json[0] == '@') {
            char path[256];
            snprintf(path, sizeof path, "tests/data/models/%s", b->json + 1);
            st = posenc_model_from_config(path, b->override, &model, &err);
        } else {
            st = posenc_model_from_config_text(b->json, strlen(b->json), b->override, &model,
                                               &err);
        }
        int ok = st == b->st && strncmp(err.key, b->key, strlen(b->key)) == 0 &&
                 (b->key[0] || err.key[0] == 0 || b->st == POSENC_ERR_FORMAT) &&
                 strstr(err.detail, b->phrase) != NULL;
        if (!ok)
            fprintf(stderr, "BAD[%zu] %.60s: status %d (want %d), key '%s' (want '%s'), detail '%s'\n",
                    i, b->json, st, b->st, err.key, b->key, err.detail);
        CHECK(ok);
        /* *out untouched on failure */
        CHECK(((unsigned char *)&model)[0] == 0xA5 &&
              ((unsigned char *)&model)[sizeof model - 1] == 0xA5);
        /* err NULL: the same status */
        if (b->json[0] != '@')
            CHECK(posenc_model_from_config_text(b->json, strlen(b->json), b->override, &model,
                                                NULL) == b->st);
    }
}

/* ---- what the reader does beyond the golden file -------------------------------------- */

static posenc_status read_text(const char *json, const char *override)
{
    posenc_config_error err;
    posenc_status st = posenc_model_from_config_text(json, strlen(json), override, &model, &err);
    if (st != POSENC_OK)
        fprintf(stderr, "read_text: %s\n", err.detail);
    return st;
}

TEST(reader_rules)
{
    const posenc_model_group *g;
    /* --model-type reads an unknown type as a known family */
    CHECK(read_text("{\"model_type\": \"my_llama\", " L32 "}", "llama") == POSENC_OK);
    CHECK(strcmp(model.model_type, "llama") == 0 && model.n_layer == 2);
    /* no model_type: the architectures entry */
    CHECK(read_text("{\"architectures\": [\"GPT2LMHeadModel\"]}", NULL) == POSENC_OK);
    CHECK(strcmp(model.model_type, "gpt2") == 0 && model.n_layer == 12 &&
          model.group[0].positions == 1024);
    /* no model_type, a class name, and a nested part: read through the wrapper */
    CHECK(read_text("{\"architectures\": [\"Gemma3ForConditionalGeneration\"], \"text_config\": "
                    "{\"num_hidden_layers\": 12}}",
                    NULL) == POSENC_OK);
    CHECK(strcmp(model.part, "text_config") == 0 && strcmp(model.model_type, "gemma3_text") == 0 &&
          model.n_layer == 12 && model.n_group == 2);
    CHECK(read_text("{\"architectures\": [\"Llama4ForConditionalGeneration\"], \"text_config\": "
                    "{\"num_hidden_layers\": 8}}",
                    NULL) == POSENC_OK);
    CHECK(strcmp(model.part, "text_config") == 0 && model.scheme == POSENC_SCHEME_MIXED);
    CHECK(read_text("{\"architectures\": [\"Llama4ForCausalLM\"], \"num_hidden_layers\": 8}", NULL) ==
          POSENC_OK);
    CHECK(model.part[0] == 0 && strcmp(model.model_type, "llama4_text") == 0);
    /* an unknown wrapper whose llm_config is a known family */
    CHECK(read_text("{\"model_type\": \"internvl_chat\", \"llm_config\": {\"model_type\": "
                    "\"internlm2\", \"rope_theta\": 1e6, " L32 "}}",
                    NULL) == POSENC_OK);
    CHECK(strcmp(model.part, "llm_config") == 0 && strcmp(model.model_type, "internlm2") == 0);
    CHECK(model.group[0].rope.base == 1e6);
    /* MiniCPM3 without rope_theta: its config class's default 10000
     * (RotaryEmbeddingConfigMixin.default_theta), on the 32-element RoPE part */
    CHECK(read_text("{\"model_type\": \"minicpm3\", \"qk_rope_head_dim\": 32, "
                    "\"qk_nope_head_dim\": 64, " L32 "}",
                    NULL) == POSENC_OK);
    CHECK(model.group[0].rope.base == 10000.0 && model.group[0].rope.head_dim == 32);
    /* Qwen3-MoE without head_dim: hidden_size / heads (256 / 4), not qwen3's 128 */
    CHECK(read_text("{\"model_type\": \"qwen3_moe\", \"rope_theta\": 1e6, " L32 "}", NULL) ==
          POSENC_OK);
    CHECK(model.group[0].rope.head_dim == 64);
    /* a bare RoPE config (no model_type, no architectures): one RoPE everywhere */
    CHECK(read_text("{\"head_dim\": 64, \"num_hidden_layers\": 3}", NULL) == POSENC_OK);
    CHECK(model.source == NULL && model.n_layer == 3 && model.group[0].rope.head_dim == 64);
    const char *zero = "{\"head_dim\": 64, \"num_hidden_layers\": 0}";
    CHECK(posenc_model_from_config_text(zero, strlen(zero), NULL, &model, NULL) ==
          POSENC_ERR_RANGE);
    CHECK(read_text("{\"head_dim\": 64}", NULL) == POSENC_OK && model.n_layer == 1);
    /* per-type sets that agree, for a family that rotates every layer alike */
    CHECK(read_text("{\"model_type\": \"gpt_oss\", \"rope_parameters\": {\"full_attention\": "
                    "{\"rope_type\": \"linear\", \"factor\": 2, \"rope_theta\": 2e4}, "
                    "\"sliding_attention\": {\"rope_type\": \"linear\", \"factor\": 2, "
                    "\"rope_theta\": 2e4}}, " L32 "}",
                    NULL) == POSENC_OK);
    CHECK(model.n_group == 1 && model.group[0].rope.base == 2e4 &&
          model.group[0].rope.scaling.type == POSENC_ROPE_LINEAR &&
          model.group[0].rope.scaling.factor == 2.0);
    /* keys near positions the code does not use: accepted, listed */
    CHECK(read_text("{\"model_type\": \"qwen2\", \"rope_theta\": 1e6, \"sliding_window\": 4096, "
                    "\"use_sliding_window\": false, \"max_window_layers\": 28, " L32 "}",
                    NULL) == POSENC_OK);
    CHECK(strcmp(model.ignored, "sliding_window use_sliding_window max_window_layers") == 0);
    /* EXAONE 4 without sliding_window key: the class default 4096 (hybrid) */
    CHECK(read_text("{\"model_type\": \"exaone4\", \"num_hidden_layers\": 4}", NULL) ==
          POSENC_OK);
    CHECK(model.scheme == POSENC_SCHEME_MIXED);
    CHECK(group_at(&model, 3, &g) == POSENC_OK && g->scheme == POSENC_SCHEME_NONE);
    CHECK(group_at(&model, 2, &g) == POSENC_OK && g->scheme == POSENC_SCHEME_ROPE);
    /* Llama 4 with attn_temperature_tuning off: NoPE layers without a query scale */
    CHECK(read_text("{\"model_type\": \"llama4_text\", \"num_hidden_layers\": 4, "
                    "\"attn_temperature_tuning\": false}",
                    NULL) == POSENC_OK);
    CHECK(group_at(&model, 3, &g) == POSENC_OK && g->scheme == POSENC_SCHEME_NONE &&
          g->qscale.type == POSENC_QSCALE_NONE);
    CHECK(read_text("{\"model_type\": \"llama4_text\", \"num_hidden_layers\": 4, "
                    "\"attn_temperature_tuning\": 4, \"nope_layer_interval\": 2}",
                    NULL) == POSENC_OK); /* an int, as in Scout's config: on */
    CHECK(strcmp(model.ignored, "nope_layer_interval") == 0); /* not a key the code reads */
    CHECK(group_at(&model, 3, &g) == POSENC_OK &&
          g->qscale.type == POSENC_QSCALE_TEMPERATURE);
    CHECK(read_text("{\"model_type\": \"llama4_text\", \"num_hidden_layers\": 4, "
                    "\"attn_temperature_tuning\": null, \"no_rope_layers\": [true, false, true, "
                    "false]}",
                    NULL) == POSENC_OK);
    CHECK(group_at(&model, 1, &g) == POSENC_OK && g->scheme == POSENC_SCHEME_NONE &&
          g->qscale.type == POSENC_QSCALE_NONE);
    /* Falcon with alibi (bf16 slopes over sqrt(4544 / 71) = 8); Baichuan by class */
    CHECK(read_text("{\"model_type\": \"falcon\", \"alibi\": true}", NULL) == POSENC_OK);
    CHECK(model.scheme == POSENC_SCHEME_ALIBI && model.group[0].n_head == 71 &&
          model.n_layer == 32 && model.group[0].alibi_slopes_bf16 &&
          model.group[0].alibi_slope_scale == 0.125);
    /* an old RoBERTa config without model_type, read with --model-type */
    CHECK(posenc_model_from_config("tests/data/models/bad-roberta-base-no-model-type.json",
                                   "roberta", &model, NULL) == POSENC_OK);
    CHECK(model.scheme == POSENC_SCHEME_LEARNED && model.group[0].positions == 514 &&
          model.group[0].offset == 2);
    CHECK(read_text("{\"model_type\": \"baichuan\", \"architectures\": [\"BaiChuanForCausalLM\"], "
                    "\"hidden_size\": 5120, \"num_attention_heads\": 40, \"num_hidden_layers\": 2}",
                    NULL) == POSENC_OK);
    CHECK(model.scheme == POSENC_SCHEME_ROPE);
    /* fixed bases: keys the family's code does not read are listed */
    CHECK(read_text("{\"model_type\": \"gptj\", \"n_embd\": 256, \"n_head\": 4, \"n_layer\": 2, "
                    "\"rotary_dim\": 32, \"rope_theta\": 500000}",
                    NULL) == POSENC_OK);
    CHECK(model.group[0].rope.base == 10000.0 && strstr(model.ignored, "rope_theta"));
    /* MPT's attn_config keys HF never reads */
    CHECK(read_text("{\"model_type\": \"mpt\", \"attn_config\": {\"alibi_bias_max\": 16}}",
                    NULL) == POSENC_OK);
    CHECK(model.group[0].alibi_bias_max == 8.0 && strstr(model.ignored, "alibi_bias_max"));
    /* Phi-3 "su" is longrope too */
    CHECK(posenc_model_from_config("tests/data/models/phi3-yarn-means-longrope-synthetic.json",
                                   NULL, &model, NULL) == POSENC_OK);
    CHECK(model.group[0].rope.scaling.type == POSENC_ROPE_LONGROPE);
    /* the file reader's own errors */
    posenc_config_error err;
    CHECK(posenc_model_from_config("tests/data/models/none.json", NULL, &model, &err) ==
              POSENC_ERR_IO &&
          strstr(err.detail, "none.json"));
    CHECK(posenc_model_from_config(NULL, NULL, &model, &err) == POSENC_ERR_NULL);
    CHECK(posenc_model_from_config("x", NULL, NULL, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_from_config_text(NULL, 0, NULL, &model, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_model_from_config_text("{}", 2, NULL, NULL, NULL) == POSENC_ERR_NULL);
}

/* Accepted variants of the keys, each against a value worked by hand. */
TEST(reader_variants)
{
    const posenc_model_group *g;
    /* legacy base names: rotary_emb_base for llama, rope_theta for qwen */
    CHECK(read_text("{\"model_type\": \"llama\", \"rotary_emb_base\": 5e5, " L32 "}", NULL) ==
          POSENC_OK);
    CHECK(model.group[0].rope.base == 5e5 && model.ignored[0] == 0);
    CHECK(read_text("{\"model_type\": \"qwen\", \"rope_theta\": 2e4, \"use_logn_attn\": true, "
                    "\"use_dynamic_ntk\": true, \"seq_length\": 2048, " L32 "}",
                    NULL) == POSENC_OK);
    g = &model.group[0];
    CHECK(g->rope.base == 2e4 && g->ntk_by_length == 1 && g->ntk_seq_length == 2048.0 &&
          g->qscale.type == POSENC_QSCALE_LOGN && g->qscale.seq_length == 2048.0);
    CHECK(read_text("{\"model_type\": \"qwen\", \"rotary_emb_base\": 1e4, \"use_logn_attn\": false, "
                    "\"use_dynamic_ntk\": false, " L32 "}",
                    NULL) == POSENC_OK);
    CHECK(model.group[0].ntk_by_length == 0 && model.group[0].qscale.type == POSENC_QSCALE_NONE);
    /* the rotated part: GPT-NeoX's partial_rotary_factor (a legacy name for
     * it), Phi's from rope_parameters; head 256 / 4 = 64 */
    CHECK(read_text("{\"model_type\": \"gpt_neox\", \"partial_rotary_factor\": 0.5, " L32 "}",
                    NULL) == POSENC_OK);
    CHECK(model.group[0].rope.head_dim == 64 && model.group[0].rope.rotary_dim == 32);
    CHECK(read_text("{\"model_type\": \"phi\", \"rope_parameters\": {\"rope_type\": \"default\", "
                    "\"rope_theta\": 3e4, \"partial_rotary_factor\": 0.25}, " L32 "}",
                    NULL) == POSENC_OK);
    CHECK(model.group[0].rope.rotary_dim == 16 && model.group[0].rope.base == 3e4);
    /* rope_interleave is read by DeepSeek only: listed elsewhere */
    CHECK(read_text("{\"model_type\": \"llama\", \"rope_interleave\": true, \"rope_theta\": 1e4, " L32
                    "}",
                    NULL) == POSENC_OK);
    CHECK(model.group[0].rope.layout == POSENC_LAYOUT_HALF &&
          strcmp(model.ignored, "rope_interleave") == 0);
    /* ChatGLM: rope_ratio multiplies the base (2 * 10000); a ChatGLM3 name
     * with rope_ratio is fine, and position_encoding_2d false too */
    CHECK(read_text("{\"model_type\": \"chatglm\", \"num_layers\": 2, \"kv_channels\": 128, "
                    "\"rope_ratio\": 2, \"position_encoding_2d\": false, \"_name_or_path\": 5}",
                    NULL) == POSENC_OK);
    CHECK(model.group[0].rope.base == 20000.0 && model.group[0].rope.rotary_dim == 64);
    CHECK(read_text("{\"model_type\": \"chatglm\", \"num_layers\": 2, \"kv_channels\": 128, "
                    "\"rope_ratio\": 50, \"_name_or_path\": \"THUDM/chatglm3-6b-128k\"}",
                    NULL) == POSENC_OK);
    CHECK(model.group[0].rope.base == 500000.0);
    /* Gemma 3: sliding_window_pattern 0 makes every layer full (base 1e6) */
    CHECK(read_text("{\"model_type\": \"gemma3_text\", \"sliding_window_pattern\": 0, " L32 "}",
                    NULL) == POSENC_OK);
    CHECK(model.n_group == 1 && model.group[0].rope.base == 1e6 &&
          strcmp(model.group[0].layer_type, "full_attention") == 0);
    /* per-type sets: one for full layers only, without rope_theta: full keeps
     * the base 1e6, sliding layers the local base 10000 */
    CHECK(read_text("{\"model_type\": \"gemma3_text\", \"layer_types\": [\"sliding_attention\", "
                    "\"full_attention\"], \"rope_parameters\": {\"full_attention\": {\"rope_type\": "
                    "\"linear\", \"factor\": 4}}, " L32 "}",
                    NULL) == POSENC_OK);
    CHECK(group_at(&model, 0, &g) == POSENC_OK && g->rope.base == 10000.0 &&
          g->rope.scaling.type == POSENC_ROPE_DEFAULT);
    CHECK(group_at(&model, 1, &g) == POSENC_OK && g->rope.base == 1e6 &&
          g->rope.scaling.type == POSENC_ROPE_LINEAR && g->rope.scaling.factor == 4.0);
    /* architectures that agree; a class whose wrapper part is not an object */
    CHECK(read_text("{\"architectures\": [\"LlamaForCausalLM\", \"LlamaForSequenceClassification\"], "
                    "\"rope_theta\": 1e4, " L32 "}",
                    NULL) == POSENC_OK);
    CHECK(strcmp(model.model_type, "llama") == 0);
    CHECK(read_text("{\"architectures\": [\"Gemma3ForCausalLM\"], \"text_config\": 5, " L32 "}",
                    NULL) == POSENC_OK);
    CHECK(strcmp(model.model_type, "gemma3_text") == 0 && model.part[0] == 0);
    /* MPT's attn_config: not an object (nothing read), or alibi alone */
    CHECK(read_text("{\"model_type\": \"mpt\", \"attn_config\": 5}", NULL) == POSENC_OK);
    CHECK(model.ignored[0] == 0 && model.group[0].alibi_bias_max == 8.0);
    CHECK(read_text("{\"model_type\": \"mpt\", \"attn_config\": {\"alibi\": true}}", NULL) ==
          POSENC_OK);
    CHECK(strcmp(model.ignored, "attn_config.alibi") == 0);
    /* sinusoidal_pos_embds is DistilBERT's: GPT-2 lists it and stays learned */
    CHECK(read_text("{\"model_type\": \"gpt2\", \"sinusoidal_pos_embds\": true}", NULL) ==
          POSENC_OK);
    CHECK(model.scheme == POSENC_SCHEME_LEARNED && strstr(model.ignored, "sinusoidal_pos_embds"));
    /* Baichuan: architectures not a list, or naming no BaiChuan class: by
     * hidden_size (4096: RoPE; 5120: ALiBi) */
    CHECK(read_text("{\"model_type\": \"baichuan\", \"architectures\": \"X\", \"hidden_size\": 4096, "
                    "\"num_attention_heads\": 32, \"num_hidden_layers\": 2}",
                    NULL) == POSENC_OK);
    CHECK(model.scheme == POSENC_SCHEME_ROPE && model.group[0].rope.head_dim == 128);
    CHECK(read_text("{\"model_type\": \"baichuan\", \"architectures\": [3, \"BaichuanForCausalLM\"], "
                    "\"hidden_size\": 5120, \"num_attention_heads\": 40, \"num_hidden_layers\": 2}",
                    NULL) == POSENC_OK);
    CHECK(model.scheme == POSENC_SCHEME_ALIBI && model.group[0].n_head == 40);
    /* Llama 4: attn_temperature_tuning 0 is off */
    CHECK(read_text("{\"model_type\": \"llama4_text\", \"num_hidden_layers\": 4, "
                    "\"attn_temperature_tuning\": 0}",
                    NULL) == POSENC_OK);
    CHECK(group_at(&model, 3, &g) == POSENC_OK && g->qscale.type == POSENC_QSCALE_NONE);
    /* Phi-3: "su" and "yarn" both read as longrope, in either key */
    static const char su[] =
        "{\"model_type\": \"phi3\", \"rope_theta\": 1e4, \"max_position_embeddings\": 8192, "
        "\"rope_scaling\": {\"type\": \"su\", \"rope_type\": \"yarn\", \"short_factor\": "
        "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1], \"long_factor\": "
        "[2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2], "
        "\"original_max_position_embeddings\": 4096}, " L32 "}";
    CHECK(read_text(su, NULL) == POSENC_OK);
    CHECK(model.group[0].rope.scaling.type == POSENC_ROPE_LONGROPE &&
          model.group[0].rope.long_factor[31] == 2.0);
    /* PhiMoE without mscales: the block as is */
    CHECK(read_text("{\"model_type\": \"phimoe\", \"rope_theta\": 1e4, \"rope_scaling\": "
                    "{\"type\": \"linear\", \"factor\": 2}, " L32 "}",
                    NULL) == POSENC_OK);
    CHECK(model.group[0].rope.scaling.type == POSENC_ROPE_LINEAR);
    /* Ministral 3's beta: with "type" default the original length is the
     * query scale's only; with yarn it is YaRN's too */
    CHECK(read_text("{\"model_type\": \"ministral3\", \"rope_parameters\": {\"type\": \"default\", "
                    "\"rope_theta\": 1e6, \"llama_4_scaling_beta\": 0.1, "
                    "\"original_max_position_embeddings\": 16384}, " L32 "}",
                    NULL) == POSENC_OK);
    g = &model.group[0];
    CHECK(g->qscale.type == POSENC_QSCALE_BETA && g->qscale.beta == 0.1 &&
          g->qscale.original == 16384.0 && g->rope.scaling.type == POSENC_ROPE_DEFAULT);
    CHECK(read_text("{\"model_type\": \"ministral3\", \"rope_parameters\": {\"rope_type\": \"yarn\", "
                    "\"factor\": 4, \"rope_theta\": 1e6, \"llama_4_scaling_beta\": 0.1, "
                    "\"original_max_position_embeddings\": 16384}, " L32 "}",
                    NULL) == POSENC_OK);
    CHECK(model.group[0].rope.scaling.type == POSENC_ROPE_YARN &&
          model.group[0].rope.scaling.original_max_position_embeddings == 16384.0);
    /* MiniCPM: a scaling that is not longrope is read as is; longrope without
     * max_position_embeddings past the original keeps its short factors */
    CHECK(read_text("{\"model_type\": \"minicpm\", \"rope_theta\": 1e4, \"rope_scaling\": "
                    "{\"type\": \"linear\", \"factor\": 2}, " L32 "}",
                    NULL) == POSENC_OK);
    CHECK(model.group[0].rope.scaling.type == POSENC_ROPE_LINEAR);
    static const char cpm[] =
        "{\"model_type\": \"minicpm\", \"rope_theta\": 1e4, \"max_position_embeddings\": 4096, "
        "\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": "
        "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1], \"long_factor\": "
        "[3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3], "
        "\"original_max_position_embeddings\": 4096}, " L32 "}";
    CHECK(read_text(cpm, NULL) == POSENC_OK);
    CHECK(model.group[0].rope.short_factor[0] == 1.0 && model.group[0].rope.long_factor[0] == 3.0);
}

/* The issue's examples, by the numbers the modeling code gives. */
/* A JSON array of n numbers at root.key (a LongRoPE list), or 0. */
static size_t json_list(const char *path, const char *block, const char *key, double *out,
                        size_t cap)
{
    json_t *root = json_load_file(path, 0, NULL);
    json_t *a = root ? json_object_get(json_object_get(root, block), key) : NULL;
    size_t n = json_is_array(a) ? json_array_size(a) : 0;
    for (size_t i = 0; i < n && i < cap; i++)
        out[i] = json_number_value(json_array_get(a, i));
    json_decref(root);
    return n;
}

/* The RoPE of every layer at each length follows each family's published
 * length rule (tests/model_lengths.h computes them apart): Qwen 1's dynamic
 * NTK (Qwen-7B-Chat, Qwen-14B-Chat: seq_length 2048), Hugging Face's
 * dynamic (Llama 2 with factor 2 over 4096), LongRoPE's short/long switch
 * (Phi-3.5-mini: original 4096), at lengths below, at and above each
 * switch. */
TEST(lengths_follow_each_family)
{
    static posenc_rope r;
    static const int64_t qlen[] = {1, 2048, 2049, 4096, 4097, 8192, 16384, 100000};
    static const char *const qwen[] = {"tests/data/models/qwen-7b-chat.json",
                                       "tests/data/qwen-14b-chat.json"};
    for (size_t f = 0; f < 2; f++) {
        CHECK(posenc_model_from_config(qwen[f], NULL, &model, NULL) == POSENC_OK);
        for (size_t i = 0; i < sizeof qlen / sizeof qlen[0]; i++)
            for (uint32_t layer = 0; layer < model.n_layer; layer += model.n_layer - 1) {
                CHECK(posenc_model_layer_rope(&model, layer, qlen[i], &r) == POSENC_OK);
                CHECK_EQ_INT(r.rotary_dim, 128);
                for (uint32_t k = 0; k < 64; k++) {
                    double want = qwen_inv_freq(10000.0, 128, 2048.0, qlen[i], k);
                    CHECK_NEAR(r.inv_freq_hi[k], want, 1e-14 * want);
                }
            }
        /* the issue's number: alpha 7 at 8192, base 10000 * 7^(128/126) */
        CHECK(posenc_model_layer_rope(&model, 0, 8192, &r) == POSENC_OK);
        CHECK_NEAR(r.inv_freq_hi[1], 0.83963, 5e-6);
        CHECK(qwen_alpha(8192, 2048.0) == 7.0 && qwen_alpha(2048, 2048.0) == 1.0 &&
              qwen_alpha(2049, 2048.0) == 3.0 && qwen_alpha(16384, 2048.0) == 15.0);
    }
    /* Hugging Face dynamic: below the trained length the plain frequencies */
    static const int64_t dlen[] = {1, 2048, 4096, 4097, 8192, 16384};
    CHECK(posenc_model_from_config("tests/data/llama-2-7b-dynamic.json", NULL, &model, NULL) ==
          POSENC_OK);
    for (size_t i = 0; i < sizeof dlen / sizeof dlen[0]; i++) {
        CHECK(posenc_model_layer_rope(&model, 31, dlen[i], &r) == POSENC_OK);
        for (uint32_t k = 0; k < 64; k++) {
            double want = hf_dynamic_inv_freq(10000.0, 128, 2.0, 4096.0, dlen[i], k);
            CHECK_NEAR(r.inv_freq_hi[k], want, 1e-14 * want);
        }
    }
    /* LongRoPE: short_factor up to the original length, long_factor past it */
    const char *phi = "tests/data/models/phi3-phi-3.5-mini-instruct.json";
    double sf[64], lf[64];
    CHECK(json_list(phi, "rope_scaling", "short_factor", sf, 64) == 48);
    CHECK(json_list(phi, "rope_scaling", "long_factor", lf, 64) == 48);
    CHECK(posenc_model_from_config(phi, NULL, &model, NULL) == POSENC_OK);
    static const int64_t llen[] = {1, 4096, 4097, 131072};
    for (size_t i = 0; i < sizeof llen / sizeof llen[0]; i++) {
        CHECK(posenc_model_layer_rope(&model, 0, llen[i], &r) == POSENC_OK);
        CHECK_EQ_INT(r.rotary_dim, 96);
        for (uint32_t k = 0; k < 48; k++) {
            double want = longrope_inv_freq(10000.0, 96, 4096.0, sf, lf, llen[i], k);
            CHECK_NEAR(r.inv_freq_hi[k], want, 1e-14 * want);
        }
    }
    CHECK(sf[47] != lf[47]); /* the switch is visible */
}

TEST(issue_examples)
{
    static posenc_rope r;
    const posenc_model_group *g;
    /* Llama 4 Scout: interleaved, NoPE every 4th layer, the clean llama3 step */
    CHECK(posenc_model_from_config("tests/data/models/llama4-scout-synthetic.json", NULL, &model,
                                   NULL) == POSENC_OK);
    CHECK(strcmp(model.part, "text_config") == 0 && model.scheme == POSENC_SCHEME_MIXED);
    CHECK(posenc_model_layer_rope(&model, 0, 0, &r) == POSENC_OK);
    CHECK(r.layout == POSENC_LAYOUT_INTERLEAVED);
    CHECK(group_at(&model, 0, &g) == POSENC_OK && g->llama3_step &&
          g->configured.type == POSENC_ROPE_LLAMA3);
    /* pair 0 (wavelength 2 pi) kept; the last pair (wavelength > 8192) divided by 16 */
    CHECK(r.inv_freq_hi[0] == 1.0);
    CHECK_NEAR(r.inv_freq_hi[63], pow(500000.0, -126.0 / 128.0) / 16.0, 1e-22);
    CHECK(posenc_model_layer_rope(&model, 3, 0, &r) == POSENC_ERR_RANGE);
    /* ChatGLM3: 64 of 128 rotate, interleaved, base 10000 */
    CHECK(posenc_model_from_config("tests/data/models/chatglm3-6b.json", NULL, &model, NULL) ==
          POSENC_OK);
    CHECK(posenc_model_layer_rope(&model, 27, 0, &r) == POSENC_OK);
    CHECK(r.head_dim == 128 && r.rotary_dim == 64 && r.layout == POSENC_LAYOUT_INTERLEAVED &&
          r.base == 10000.0);
    /* EXAONE 4 1.2B has sliding_window null: RoPE on every layer */
    CHECK(posenc_model_from_config("tests/data/models/exaone-4.0-1.2b.json", NULL, &model,
                                   NULL) == POSENC_OK);
    CHECK(model.scheme == POSENC_SCHEME_ROPE && model.n_layer == 30);
    /* OLMo 3: YaRN on full layers only */
    CHECK(posenc_model_from_config("tests/data/models/olmo3-synthetic.json", NULL, &model,
                                   NULL) == POSENC_OK);
    CHECK(group_at(&model, 3, &g) == POSENC_OK &&
          g->rope.scaling.type == POSENC_ROPE_YARN);
    CHECK(group_at(&model, 2, &g) == POSENC_OK &&
          g->rope.scaling.type == POSENC_ROPE_DEFAULT);
    /* BERT: learned absolute, no RoPE anywhere */
    CHECK(posenc_model_from_config("tests/data/models/bert-synthetic.json", NULL, &model,
                                   NULL) == POSENC_OK);
    CHECK(posenc_model_layer_rope(&model, 0, 0, &r) == POSENC_ERR_RANGE);
    /* Qwen2-VL: rope_scaling {"type": "mrope", "mrope_section": [16, 24, 24]} is
     * plain RoPE (base 10^6, half, 128) with contiguous M-RoPE sections; the
     * pair-to-axis table it gives is Qwen2-VL's */
    CHECK(posenc_model_from_config("tests/data/models/qwen2-vl-synthetic.json", NULL, &model,
                                   NULL) == POSENC_OK);
    CHECK(group_at(&model, 27, &g) == POSENC_OK && g->mrope &&
          g->mrope_rule == POSENC_MROPE_CONTIGUOUS && g->mrope_section[0] == 16 &&
          g->mrope_section[1] == 24 && g->mrope_section[2] == 24 &&
          g->configured.type == POSENC_ROPE_DEFAULT);
    CHECK(posenc_model_layer_rope(&model, 0, 0, &r) == POSENC_OK);
    CHECK(r.head_dim == 128 && r.rotary_dim == 128 && r.layout == POSENC_LAYOUT_HALF &&
          r.base == 1000000.0);
    posenc_mrope mr;
    CHECK(posenc_mrope_init(&mr, 64, g->mrope_section, g->mrope_rule) == POSENC_OK);
    CHECK(mr.axis[15] == POSENC_AXIS_T && mr.axis[16] == POSENC_AXIS_H &&
          mr.axis[40] == POSENC_AXIS_W);
    /* Qwen3-VL: text_config (qwen3_vl_text) with interleaved [24, 20, 20] */
    CHECK(posenc_model_from_config("tests/data/models/qwen3-vl-synthetic.json", NULL, &model,
                                   NULL) == POSENC_OK);
    CHECK(strcmp(model.part, "text_config") == 0 && model.n_layer == 4);
    CHECK(group_at(&model, 0, &g) == POSENC_OK && g->mrope &&
          g->mrope_rule == POSENC_MROPE_INTERLEAVED && g->mrope_section[0] == 24 &&
          g->mrope_section[1] == 20 && g->mrope_section[2] == 20);
    CHECK(g->rope.base == 5000000.0 && g->rope.head_dim == 128);
    CHECK(g->mrope_merge == 2 && g->mrope_tokens_per_second == 0);
    /* Qwen2.5-VL: vision_config's spatial_merge_size and tokens_per_second */
    CHECK(posenc_model_from_config("tests/data/models/qwen2.5-vl-synthetic.json", NULL, &model,
                                   NULL) == POSENC_OK);
    CHECK(group_at(&model, 35, &g) == POSENC_OK && g->mrope &&
          g->mrope_merge == 2 && g->mrope_tokens_per_second == 2 && g->rope.head_dim == 128);
    static const char vc_bad[] =
        "{\"model_type\": \"qwen2_vl\", \"num_hidden_layers\": 2, \"hidden_size\": 256, "
        "\"num_attention_heads\": 4, \"rope_theta\": 1e6, \"rope_scaling\": {\"type\": "
        "\"mrope\", \"mrope_section\": [8, 12, 12]}, \"vision_config\": "
        "{\"spatial_merge_size\": 0}}";
    posenc_config_error err;
    CHECK(posenc_model_from_config_text(vc_bad, strlen(vc_bad), NULL, &model, &err) ==
          POSENC_ERR_FORMAT);
    CHECK(strcmp(err.key, "vision_config.spatial_merge_size") == 0);
    /* a family without M-RoPE keeps mrope 0 */
    CHECK(posenc_model_from_config("tests/data/models/qwen3-synthetic.json", NULL, &model,
                                   NULL) == POSENC_OK);
    CHECK(group_at(&model, 0, &g) == POSENC_OK && !g->mrope);
}

/* ---- nested parts, GLM-4V's M-RoPE ------------------------------------------------------ */

/* GLM-4V's rotation of one head as transformers computes it, in double:
 * Glm4vTextRotaryEmbedding (modeling_glm4v.py L457-486: inv_freq over
 * dim = rotary_dim, freqs per axis, recomposition_frequencies: split by
 * section, chunk i from axis i % 3, repeat_interleave(2)), then
 * apply_rotary_pos_emb (L489-526: q_rot * cos + rotate_half_llm(q_rot) * sin
 * on the first rotary_dim elements, rotate_half_llm(x) = stack(-x[1::2],
 * x[0::2]).flatten()), the rest passed through. Never posenc's pair table. */
static void glm4v_reference(const double *x, double *out, int head_dim, int rotary_dim,
                            double base, const uint32_t section[3], const int64_t pos[3])
{
    int P = rotary_dim / 2;
    double cosv[128], sinv[128], rh[128];
    int k = 0;
    for (int chunk = 0; chunk < 3; chunk++)
        for (uint32_t j = 0; j < section[chunk]; j++, k++) {
            double inv = 1.0 / pow(base, (double)(2 * k) / rotary_dim);
            double a = (double)pos[chunk % 3] * inv;
            cosv[2 * k] = cosv[2 * k + 1] = cos(a);
            sinv[2 * k] = sinv[2 * k + 1] = sin(a);
        }
    for (int i = 0; i < P; i++) {
        rh[2 * i] = -x[2 * i + 1];
        rh[2 * i + 1] = x[2 * i];
    }
    for (int i = 0; i < head_dim; i++)
        out[i] = i < rotary_dim ? x[i] * cosv[i] + rh[i] * sinv[i] : x[i];
}

TEST(nested_parts_and_glm4v)
{
    const posenc_model_group *g;
    posenc_rope r;
    posenc_mrope mr;
    /* GLM-4.1V: text_config glm4v_text, partial 0.5 of 128, interleaved
     * pairs, sections [8, 12, 12] taken in chunks */
    CHECK(posenc_model_from_config("tests/data/models/glm4v-synthetic.json", NULL, &model,
                                   NULL) == POSENC_OK);
    CHECK(strcmp(model.part, "text_config") == 0 && strcmp(model.model_type, "glm4v_text") == 0);
    CHECK(model.n_layer == 40);
    CHECK(group_at(&model, 39, &g) == POSENC_OK && g->mrope &&
          g->mrope_rule == POSENC_MROPE_CONTIGUOUS && g->mrope_section[0] == 8 &&
          g->mrope_section[1] == 12 && g->mrope_section[2] == 12);
    CHECK(posenc_model_layer_rope(&model, 0, 0, &r) == POSENC_OK);
    CHECK(r.head_dim == 128 && r.rotary_dim == 64 && r.layout == POSENC_LAYOUT_INTERLEAVED &&
          r.base == 10000.0);
    CHECK(posenc_model_layer_mrope(&model, 0, &mr, NULL, NULL) == POSENC_OK);
    /* distinct t, h, w (a video patch), and far positions */
    static const int64_t P3[][3] = {{5, 2, 7}, {0, 11, 3}, {4096, 17, 29}, {999999, 12345, 54321}};
    for (size_t p = 0; p < sizeof P3 / sizeof P3[0]; p++) {
        double x[128], want[128];
        for (int i = 0; i < 128; i++)
            x[i] = sin(0.37 * i + 0.11 * (double)p) + 0.25;
        glm4v_reference(x, want, 128, 64, 10000.0, g->mrope_section, P3[p]);
        CHECK(posenc_mrope_vec_f64(&r, &mr, P3[p][0], P3[p][1], P3[p][2], POSENC_FORWARD, x) ==
              POSENC_OK);
        /* libm's cos/sin of a double angle against posenc's double-double
         * angle: the angle's rounding, |p| 2^-52 relative */
        double tol = 4e-16 * (1.0 + (double)(P3[p][0] + P3[p][1] + P3[p][2]));
        for (int i = 0; i < 128; i++)
            CHECK_NEAR(x[i], want[i], tol);
    }
    /* GLM-4.5V: the same sections in the half layout (cat(freq, freq)) */
    CHECK(posenc_model_from_config("tests/data/models/glm4v-moe-synthetic.json", NULL, &model,
                                   NULL) == POSENC_OK);
    CHECK(posenc_model_layer_rope(&model, 0, 0, &r) == POSENC_OK);
    CHECK(r.rotary_dim == 64 && r.layout == POSENC_LAYOUT_HALF);
    /* Qwen2-Audio: a sparse text_config takes Qwen2Config's defaults
     * (configuration_qwen2.py L62-65: 4096 hidden, 32 heads, 32 layers;
     * rope_theta 10000) */
    CHECK(posenc_model_from_config("tests/data/models/qwen2-audio-synthetic.json", NULL, &model,
                                   NULL) == POSENC_OK);
    CHECK(strcmp(model.part, "text_config") == 0 && strcmp(model.model_type, "qwen2") == 0);
    CHECK(model.n_layer == 32 && posenc_model_layer_rope(&model, 31, 0, &r) == POSENC_OK);
    CHECK(r.head_dim == 128 && r.rotary_dim == 128 && r.base == 10000.0);
    /* Qwen2.5-Omni and Qwen3-Omni: thinker_config.text_config */
    CHECK(posenc_model_from_config("tests/data/models/qwen2.5-omni-synthetic.json", NULL, &model,
                                   NULL) == POSENC_OK);
    CHECK(strcmp(model.part, "thinker_config.text_config") == 0 && model.n_layer == 28);
    CHECK(group_at(&model, 0, &g) == POSENC_OK && g->mrope &&
          g->mrope_rule == POSENC_MROPE_CONTIGUOUS && g->mrope_section[0] == 16);
    CHECK(posenc_model_from_config("tests/data/models/qwen3-omni-moe-synthetic.json", NULL,
                                   &model, NULL) == POSENC_OK);
    CHECK(strcmp(model.part, "thinker_config.text_config") == 0 && model.n_layer == 48);
    CHECK(group_at(&model, 0, &g) == POSENC_OK && g->mrope &&
          g->mrope_rule == POSENC_MROPE_INTERLEAVED && g->mrope_section[1] == 20 &&
          g->rope.base == 1000000.0);
    /* VibeVoice's decoder_config, VILA's llm_cfg (its architectures name
     * llama), InternVL chat's llm_config */
    static const struct {
        const char *file, *part, *type;
        uint32_t layers, head_dim;
        double base;
    } parts[] = {
        {"vibevoice-decoder-config-synthetic.json", "decoder_config", "qwen2", 28, 128, 1e6},
        {"vila-llm-cfg-synthetic.json", "llm_cfg", "llama", 32, 128, 1e4},
        {"internvl-chat-synthetic.json", "llm_config", "internlm2", 32, 128, 1e6},
        {"kimi-k2-synthetic.json", "", "kimi_k2", 61, 64, 5e4},
        {"minicpmv-synthetic.json", "", "minicpmv", 28, 128, 1e6},
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/data/models/%s", parts[i].file);
        CHECK(posenc_model_from_config(path, NULL, &model, NULL) == POSENC_OK);
        CHECK(strcmp(model.part, parts[i].part) == 0 &&
              strcmp(model.model_type, parts[i].type) == 0 && model.n_layer == parts[i].layers);
        CHECK(posenc_model_layer_rope(&model, 0, 0, &r) == POSENC_OK);
        CHECK(r.head_dim == parts[i].head_dim && r.base == parts[i].base);
    }
    /* Kimi K2: DeepSeek V3's interleaved qk_rope part, YaRN with
     * beta_fast == beta_slow */
    CHECK(posenc_model_from_config("tests/data/models/kimi-k2-synthetic.json", NULL, &model,
                                   NULL) == POSENC_OK);
    CHECK(group_at(&model, 0, &g) == POSENC_OK && g->rope.layout == POSENC_LAYOUT_INTERLEAVED &&
          g->rope.scaling.type == POSENC_ROPE_YARN && g->rope.scaling.factor == 32.0);
    /* Molmo 2: rope_scaling_layers listing every layer, or a subset under the
     * default RoPE (scaled and unscaled tables agree), reads as one RoPE */
    static const char molmo_all[] =
        "{\"model_type\": \"molmo2\", \"text_config\": {\"num_hidden_layers\": 2, "
        "\"rope_scaling_layers\": [1, 0], \"rope_parameters\": {\"rope_type\": \"yarn\", "
        "\"rope_theta\": 1e6, \"factor\": 8.0, \"original_max_position_embeddings\": 8192}}}";
    static const char molmo_default[] =
        "{\"model_type\": \"molmo2_text\", \"num_hidden_layers\": 2, "
        "\"rope_scaling_layers\": [1]}";
    CHECK(posenc_model_from_config_text(molmo_all, strlen(molmo_all), NULL, &model, NULL) ==
          POSENC_OK);
    CHECK(group_at(&model, 0, &g) == POSENC_OK && g->rope.scaling.type == POSENC_ROPE_YARN &&
          g->rope.head_dim == 128 && g->rope.base == 1e6);
    CHECK(posenc_model_from_config_text(molmo_default, strlen(molmo_default), NULL, &model,
                                        NULL) == POSENC_OK);
    CHECK(group_at(&model, 1, &g) == POSENC_OK && g->rope.base == 10000.0);
    /* Qwen2-VL flat (older) and nested (transformers 5) read alike */
    static const char flat[] =
        "{\"model_type\": \"qwen2_vl\", \"num_hidden_layers\": 2, \"hidden_size\": 1536, "
        "\"num_attention_heads\": 12, \"rope_theta\": 1e6}";
    static const char nested[] =
        "{\"model_type\": \"qwen2_vl\", \"text_config\": {\"num_hidden_layers\": 2, "
        "\"hidden_size\": 1536, \"num_attention_heads\": 12, \"rope_theta\": 1e6}}";
    CHECK(posenc_model_from_config_text(flat, strlen(flat), NULL, &model, NULL) == POSENC_OK);
    CHECK(strcmp(model.model_type, "qwen2_vl") == 0 && model.part[0] == 0);
    CHECK(group_at(&model, 1, &g) == POSENC_OK && g->mrope && g->mrope_section[0] == 16 &&
          g->mrope_section[2] == 24 && g->rope.head_dim == 128);
    CHECK(posenc_model_from_config_text(nested, strlen(nested), NULL, &model, NULL) ==
          POSENC_OK);
    CHECK(strcmp(model.model_type, "qwen2_vl_text") == 0 &&
          strcmp(model.part, "text_config") == 0);
    CHECK(group_at(&model, 1, &g) == POSENC_OK && g->mrope && g->mrope_section[1] == 24);
}

/* ---- out of memory ------------------------------------------------------------------ */

/* jansson's allocations: json_countdown >= 0 succeed, then every one fails
 * (one failure alone, jansson's parser can survive with a key misspelt) */
static long json_countdown = -1, json_failed;
static void *json_alloc(size_t n)
{
    if (json_countdown == 0) {
        json_failed++;
        return NULL;
    }
    if (json_countdown > 0)
        json_countdown--;
    return __real_malloc(n);
}
static void json_free(void *p) { free(p); }

TEST(memory_runs_out_cleanly)
{
    /* each allocation of the reader in turn (its state, the layer kinds, the
     * RoPE it checks): POSENC_ERR_NOMEM, "out of memory", *out untouched */
    static const char *const cfgs[] = {
        "{\"model_type\": \"llama\", \"rope_theta\": 1e4, " L32 "}",
        "{\"model_type\": \"gpt2\"}",
    };
    for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++) {
        long fails = 0;
        for (long k = 0; k < 100; k++) {
            posenc_config_error err;
            memset(&model, 0xA5, sizeof model);
            alloc_failed = 0;
            alloc_countdown = k;
            posenc_status st =
                posenc_model_from_config_text(cfgs[c], strlen(cfgs[c]), NULL, &model, &err);
            alloc_countdown = -1;
            if (!alloc_failed) {
                CHECK(st == POSENC_OK);
                break;
            }
            fails++;
            CHECK(st == POSENC_ERR_NOMEM && strcmp(err.detail, "out of memory") == 0 &&
                  ((unsigned char *)&model)[0] == 0xA5);
        }
        CHECK(fails >= (c == 0 ? 4 : 2));
    }
    /* jansson's: in the parse (an invalid-JSON refusal that says why), or in
     * the copy of a RoPE block that Phi-3, PhiMoE and Ministral 3 rewrite */
    json_set_alloc_funcs(json_alloc, json_free);
    static const char *const copies[] = {
        "{\"model_type\": \"phi3\", \"rope_theta\": 1e4, \"rope_scaling\": {\"type\": \"yarn\", "
        "\"short_factor\": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1], "
        "\"long_factor\": [2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2], "
        "\"original_max_position_embeddings\": 4096}, " L32 "}",
        "{\"model_type\": \"phimoe\", \"rope_theta\": 1e4, \"rope_scaling\": {\"type\": "
        "\"longrope\", \"short_mscale\": 1.1, \"long_mscale\": 1.1, "
        "\"short_factor\": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1], "
        "\"long_factor\": [2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2], "
        "\"original_max_position_embeddings\": 4096}, " L32 "}",
        "{\"model_type\": \"ministral3\", \"rope_parameters\": {\"rope_type\": \"default\", "
        "\"rope_theta\": 1e6, \"llama_4_scaling_beta\": 0.1, "
        "\"original_max_position_embeddings\": 16384}, " L32 "}",
    };
    for (size_t c = 0; c < sizeof copies / sizeof copies[0]; c++) {
        long nomem = 0;
        for (long k = 0; k < 2000; k++) {
            posenc_config_error err;
            json_failed = 0;
            json_countdown = k;
            posenc_status st =
                posenc_model_from_config_text(copies[c], strlen(copies[c]), NULL, &model, &err);
            json_countdown = -1;
            if (!json_failed) {
                CHECK(st == POSENC_OK);
                break;
            }
            if (st == POSENC_ERR_NOMEM) {
                nomem++;
                CHECK(strcmp(err.detail, "out of memory") == 0);
            } else {
                if (!(st == POSENC_ERR_FORMAT && strstr(err.detail, "invalid JSON") != NULL))
                    fprintf(stderr, "copies[%zu] k %ld: %d %s: %s\n", c, k, st, err.key, err.detail);
                CHECK(st == POSENC_ERR_FORMAT && strstr(err.detail, "invalid JSON") != NULL);
            }
        }
        if (nomem < 1)
            fprintf(stderr, "copies[%zu]: no copy failed\n", c);
        CHECK(nomem >= 1);
    }
    json_set_alloc_funcs(malloc, free);
}

/* ---- hybrid models: the KINDS rule ---------------------------------------------------- */

/* layer's scheme, type and reason are what the family's config code gives. */
static int layer_is(uint32_t layer, posenc_scheme s, const char *type, const char *reason)
{
    posenc_layer_info li;
    if (posenc_model_layer(&model, layer, &li) != POSENC_OK)
        return 0;
    return li.scheme == s && strcmp(li.layer_type, type) == 0 &&
           strcmp(posenc_model_layer_reason(&model, layer), reason) == 0;
}

/* A refusal naming key with phrase in its message. */
static int refused(const char *json, posenc_status st, const char *key, const char *phrase)
{
    posenc_config_error err;
    posenc_status got = posenc_model_from_config_text(json, strlen(json), NULL, &model, &err);
    if (got != st || strcmp(err.key, key) != 0 || !strstr(err.detail, phrase)) {
        fprintf(stderr, "refused: %s: %s [%s]\n", posenc_strerror(got), err.detail, err.key);
        return 0;
    }
    return 1;
}

#define CONV "short convolution layer: no attention"
#define MAMBA_WHY "mamba layer: no attention"
#define LINEAR_WHY "linear attention: no positions"
#define NOPE_WHY "NoPE attention layer: its attention applies no rotary"
#define H4 "\"hidden_size\": 256, \"num_attention_heads\": 4"

TEST(hybrid_layers)
{
    const posenc_model_group *g;
    /* layer_types (LFM2, configuration_lfm2.py L86-88): conv layers none,
     * attention layers RoPE with default_theta 1e6 (L56) over head_dim 64 */
    CHECK(read_text("{\"model_type\": \"lfm2\", \"num_hidden_layers\": 4, " H4 ", "
                    "\"layer_types\": [\"conv\", \"full_attention\", \"conv\", \"full_attention\"]}",
                    NULL) == POSENC_OK);
    CHECK(model.scheme == POSENC_SCHEME_MIXED && model.n_group == 2);
    CHECK(layer_is(0, POSENC_SCHEME_NONE, "conv", CONV) && layer_is(2, POSENC_SCHEME_NONE, "conv", CONV));
    CHECK(layer_is(1, POSENC_SCHEME_ROPE, "full_attention", "") &&
          layer_is(3, POSENC_SCHEME_ROPE, "full_attention", ""));
    CHECK(group_at(&model, 3, &g) == POSENC_OK && g->rope.base == 1e6 && g->rope.head_dim == 64 &&
          g->rope.rotary_dim == 64 && g->rope.layout == POSENC_LAYOUT_HALF);
    CHECK(strcmp(posenc_model_layer_reason(&model, 4), "") == 0); /* no layer 4 */
    CHECK(strcmp(posenc_model_layer_reason(NULL, 0), "") == 0);
    /* the reason survives a copy (static text) */
    posenc_model *copy;
    CHECK(posenc_model_create(&copy) == POSENC_OK);
    CHECK(posenc_model_copy(copy, &model) == POSENC_OK &&
          strcmp(posenc_model_layer_reason(copy, 2), CONV) == 0);
    posenc_model_free(copy);
    /* full_attn_idxs (L83-88): the listed layers attend; absent: every layer */
    CHECK(read_text("{\"model_type\": \"lfm2\", \"num_hidden_layers\": 4, " H4 ", "
                    "\"full_attn_idxs\": [2]}",
                    NULL) == POSENC_OK);
    CHECK(layer_is(2, POSENC_SCHEME_ROPE, "full_attention", "") &&
          layer_is(0, POSENC_SCHEME_NONE, "conv", CONV) && layer_is(3, POSENC_SCHEME_NONE, "conv", CONV));
    CHECK(read_text("{\"model_type\": \"lfm2\", \"num_hidden_layers\": 4, " H4 "}", NULL) ==
          POSENC_OK);
    CHECK(model.scheme == POSENC_SCHEME_ROPE && model.n_group == 1);
    /* lfm2_moe's layer_types has no default (configuration_lfm2_moe.py L88) */
    CHECK(refused("{\"model_type\": \"lfm2_moe\", \"num_hidden_layers\": 4, " H4 "}",
                  POSENC_ERR_FORMAT, "layer_types", "no default layer pattern"));
    /* Bamba's attn_layer_indices (configuration_bamba.py L96-101): the
     * listed layers attend, RoPE over int(64 * 0.5) = 32; absent: all mamba */
    CHECK(read_text("{\"model_type\": \"bamba\", \"num_hidden_layers\": 3, " H4 ", "
                    "\"attn_layer_indices\": [1]}",
                    NULL) == POSENC_OK);
    CHECK(layer_is(1, POSENC_SCHEME_ROPE, "full_attention", "") &&
          layer_is(0, POSENC_SCHEME_NONE, "mamba", MAMBA_WHY) &&
          layer_is(2, POSENC_SCHEME_NONE, "mamba", MAMBA_WHY));
    CHECK(group_at(&model, 1, &g) == POSENC_OK && g->rope.rotary_dim == 32 && g->rope.base == 1e4);
    CHECK(read_text("{\"model_type\": \"bamba\", \"num_hidden_layers\": 3, " H4 "}", NULL) ==
          POSENC_OK);
    CHECK(model.scheme == POSENC_SCHEME_NONE && layer_is(1, POSENC_SCHEME_NONE, "mamba", MAMBA_WHY));
    CHECK(refused("{\"model_type\": \"bamba\", \"num_hidden_layers\": 3, " H4 ", "
                  "\"attn_layer_indices\": [3]}",
                  POSENC_ERR_RANGE, "attn_layer_indices", "[0] = 3 is not a layer (0..2)"));
    CHECK(refused("{\"model_type\": \"bamba\", \"num_hidden_layers\": 3, " H4 ", "
                  "\"attn_layer_indices\": [\"1\"]}",
                  POSENC_ERR_FORMAT, "attn_layer_indices", "must be a layer index, got a string"));
    /* Jamba's period (configuration_jamba.py L108-113: attention where
     * i % 8 == 4), attention without RoPE */
    CHECK(read_text("{\"model_type\": \"jamba\", \"num_hidden_layers\": 14, " H4 "}", NULL) ==
          POSENC_OK);
    CHECK(model.scheme == POSENC_SCHEME_NONE && model.n_group == 2);
    for (uint32_t i = 0; i < 14; i++)
        CHECK(i == 4 || i == 12 ? layer_is(i, POSENC_SCHEME_NONE, "full_attention", NOPE_WHY)
                                : layer_is(i, POSENC_SCHEME_NONE, "mamba", MAMBA_WHY));
    CHECK(read_text("{\"model_type\": \"jamba\", \"num_hidden_layers\": 4, " H4 ", "
                    "\"attn_layer_period\": 2, \"attn_layer_offset\": 0}",
                    NULL) == POSENC_OK);
    CHECK(layer_is(2, POSENC_SCHEME_NONE, "full_attention", NOPE_WHY) &&
          layer_is(3, POSENC_SCHEME_NONE, "mamba", MAMBA_WHY));
    CHECK(refused("{\"model_type\": \"jamba\", \"num_hidden_layers\": 4, " H4 ", "
                  "\"attn_layer_period\": 2, \"attn_layer_offset\": 2}",
                  POSENC_ERR_RANGE, "attn_layer_offset", "must be below the period 2"));
    /* Qwen3-Next's full_attention_interval (configuration_qwen3_next.py
     * L130-135: full where (i + 1) % interval == 0), RoPE over int(256 *
     * 0.25) = 64 of head_dim 256 */
    CHECK(read_text("{\"model_type\": \"qwen3_next\", \"num_hidden_layers\": 8, " H4 "}", NULL) ==
          POSENC_OK);
    for (uint32_t i = 0; i < 8; i++)
        CHECK(i % 4 == 3 ? layer_is(i, POSENC_SCHEME_ROPE, "full_attention", "")
                         : layer_is(i, POSENC_SCHEME_NONE, "linear_attention", LINEAR_WHY));
    CHECK(group_at(&model, 3, &g) == POSENC_OK && g->rope.head_dim == 256 &&
          g->rope.rotary_dim == 64);
    CHECK(read_text("{\"model_type\": \"qwen3_next\", \"num_hidden_layers\": 4, " H4 ", "
                    "\"full_attention_interval\": 2}",
                    NULL) == POSENC_OK);
    CHECK(layer_is(1, POSENC_SCHEME_ROPE, "full_attention", "") &&
          layer_is(2, POSENC_SCHEME_NONE, "linear_attention", LINEAR_WHY));
    /* MiniMax without layer_types (configuration_minimax.py L123-126: full
     * where (i + 1) % 2 != 0) */
    CHECK(read_text("{\"model_type\": \"minimax\", \"num_hidden_layers\": 3, " H4 "}", NULL) ==
          POSENC_OK);
    CHECK(layer_is(0, POSENC_SCHEME_ROPE, "full_attention", "") &&
          layer_is(1, POSENC_SCHEME_NONE, "linear_attention", LINEAR_WHY) &&
          layer_is(2, POSENC_SCHEME_ROPE, "full_attention", ""));
    /* OLMo Hybrid without layer_types (configuration_olmo_hybrid.py
     * L122-130): full where i % 4 == 3, and the last layer when that places
     * none */
    CHECK(read_text("{\"model_type\": \"olmo_hybrid\", \"num_hidden_layers\": 5, " H4 "}", NULL) ==
          POSENC_OK);
    CHECK(layer_is(3, POSENC_SCHEME_ROPE, "full_attention", "") &&
          layer_is(4, POSENC_SCHEME_NONE, "linear_attention", LINEAR_WHY));
    CHECK(read_text("{\"model_type\": \"olmo_hybrid\", \"num_hidden_layers\": 2, " H4 "}", NULL) ==
          POSENC_OK);
    CHECK(layer_is(0, POSENC_SCHEME_NONE, "linear_attention", LINEAR_WHY) &&
          layer_is(1, POSENC_SCHEME_ROPE, "full_attention", ""));
    /* Nemotron-H's pattern (configuration_nemotron_h.py L279-282), whose
     * length is the number of layers whatever num_hidden_layers says */
    CHECK(read_text("{\"model_type\": \"nemotron_h\", \"num_hidden_layers\": 52, " H4 ", "
                    "\"hybrid_override_pattern\": \"M*-E\"}",
                    NULL) == POSENC_OK);
    CHECK(model.n_layer == 4 && model.n_group == 4 && model.scheme == POSENC_SCHEME_NONE);
    CHECK(layer_is(0, POSENC_SCHEME_NONE, "mamba", MAMBA_WHY) &&
          layer_is(1, POSENC_SCHEME_NONE, "full_attention", NOPE_WHY) &&
          layer_is(2, POSENC_SCHEME_NONE, "mlp", "MLP layer: no attention") &&
          layer_is(3, POSENC_SCHEME_NONE, "moe", "MoE layer: no attention"));
    CHECK(refused("{\"model_type\": \"nemotron_h\", " H4 ", \"hybrid_override_pattern\": \"M*X\"}",
                  POSENC_ERR_FORMAT, "hybrid_override_pattern", "[2] 'X' is not a layer kind"));
    /* Granite 4.0-H: legacy names, RoPE only with position_embedding_type
     * "rope" (modeling_granitemoehybrid.py L1056) */
    const char *granite = "{\"model_type\": \"granitemoehybrid\", \"num_hidden_layers\": 2, " H4
                          ", \"layer_types\": [\"mamba\", \"attention\"]%s}";
    char json[512];
    snprintf(json, sizeof json, granite, ", \"position_embedding_type\": \"rope\"");
    CHECK(read_text(json, NULL) == POSENC_OK);
    CHECK(layer_is(0, POSENC_SCHEME_NONE, "mamba", MAMBA_WHY) &&
          layer_is(1, POSENC_SCHEME_ROPE, "full_attention", ""));
    snprintf(json, sizeof json, granite, "");
    CHECK(read_text(json, NULL) == POSENC_OK);
    CHECK(layer_is(1, POSENC_SCHEME_NONE, "full_attention",
                   "NoPE attention layer: position_embedding_type is not rope"));
    snprintf(json, sizeof json, granite, ", \"position_embedding_type\": \"alibi\"");
    CHECK(refused(json, POSENC_ERR_FORMAT, "position_embedding_type", "neither rope nor nope"));
    CHECK(refused("{\"model_type\": \"granitemoehybrid\", \"num_hidden_layers\": 2, " H4
                  ", \"layer_types\": [\"mamba\", \"conv\"]}",
                  POSENC_ERR_FORMAT, "layer_types",
                  "[1] 'conv' is not a layer kind of family granitemoehybrid (full_attention, "
                  "linear_attention, attention, mamba)"));
    CHECK(refused("{\"model_type\": \"granitemoehybrid\", \"num_hidden_layers\": 3, " H4
                  ", \"layer_types\": [\"mamba\", \"attention\"]}",
                  POSENC_ERR_FORMAT, "layer_types", "has 2 entries for 3 layers"));
    /* Llama 3.2 Vision: cross_attention_layers without positions, llama3
     * RoPE elsewhere (modeling_mllama.py L548, L1022-1031) */
    CHECK(read_text("{\"model_type\": \"mllama\", \"text_config\": {\"num_hidden_layers\": 3, " H4
                    ", \"cross_attention_layers\": [1], \"rope_scaling\": {\"rope_type\": "
                    "\"llama3\", \"factor\": 8.0, \"low_freq_factor\": 1.0, \"high_freq_factor\": "
                    "4.0, \"original_max_position_embeddings\": 8192}}}",
                    NULL) == POSENC_OK);
    CHECK(strcmp(model.part, "text_config") == 0 &&
          strcmp(model.model_type, "mllama_text_model") == 0);
    CHECK(layer_is(1, POSENC_SCHEME_NONE, "cross_attention",
                   "cross-attention to image tokens: no positions") &&
          layer_is(0, POSENC_SCHEME_ROPE, "self_attention", ""));
    CHECK(group_at(&model, 2, &g) == POSENC_OK && g->rope.base == 5e5 &&
          g->rope.scaling.type == POSENC_ROPE_LLAMA3 && g->rope.scaling.factor == 8.0);
    CHECK(refused("{\"model_type\": \"mllama\", \"text_config\": {\"num_hidden_layers\": 3, " H4
                  "}}",
                  POSENC_ERR_FORMAT, "text_config.cross_attention_layers", "missing key"));
    /* Zamba 2: layers_block_type's length is the number of layers
     * (modeling_zamba2.py L1228); use_mem_rope (L305): the hybrid layers'
     * shared attention rotates, head_dim 2 * 256 / 4 = 128 whatever head_dim
     * says (Zamba2Config.__post_init__), rotate_half, base rope_theta */
    CHECK(read_text("{\"model_type\": \"zamba2\", \"num_hidden_layers\": 54, " H4 ", "
                    "\"layers_block_type\": [\"mamba\", \"hybrid\", \"mamba\"]}",
                    NULL) == POSENC_OK);
    CHECK(model.n_layer == 3 && layer_is(1, POSENC_SCHEME_NONE, "hybrid",
                                         "mamba layer with the shared attention block, which "
                                         "applies no rotary without use_mem_rope") &&
          layer_is(2, POSENC_SCHEME_NONE, "mamba", MAMBA_WHY));
    CHECK(read_text("{\"model_type\": \"zamba2\", " H4 ", \"use_mem_rope\": true, "
                    "\"head_dim\": 64, \"rope_theta\": 5e5, "
                    "\"layers_block_type\": [\"mamba\", \"hybrid\"]}",
                    NULL) == POSENC_OK);
    CHECK(model.n_layer == 2 && layer_is(1, POSENC_SCHEME_ROPE, "hybrid", "") &&
          layer_is(0, POSENC_SCHEME_NONE, "mamba", MAMBA_WHY));
    {
        posenc_rope zr;
        CHECK(posenc_model_layer_rope(&model, 1, 10, &zr) == POSENC_OK && zr.head_dim == 128 &&
              zr.rotary_dim == 128 && zr.layout == POSENC_LAYOUT_HALF &&
              fabs(zr.inv_freq_hi[1] / pow(5e5, -2.0 / 128) - 1) < 1e-15);
        CHECK(strstr(posenc_model_ignored(&model), "head_dim") != NULL);
    }
    CHECK(refused("{\"model_type\": \"zamba2\", " H4 ", \"use_mem_rope\": true, "
                  "\"use_long_context\": true, \"layers_block_type\": [\"mamba\", \"hybrid\"]}",
                  POSENC_ERR_FORMAT, "use_long_context", "rescaled rope_theta"));
    /* Bailing hybrid: an MLA layer every layer_group_size (default 6,
     * configuration_bailing_hybrid.py L143-147), interleaved RoPE on its
     * qk_rope_head_dim part, rope_theta 6e6 */
    CHECK(read_text("{\"model_type\": \"bailing_hybrid\", \"num_hidden_layers\": 12, " H4 ", "
                    "\"qk_rope_head_dim\": 64}",
                    NULL) == POSENC_OK);
    for (uint32_t i = 0; i < 12; i++)
        CHECK(i % 6 == 5 ? layer_is(i, POSENC_SCHEME_ROPE, "full_attention", "")
                         : layer_is(i, POSENC_SCHEME_NONE, "linear_attention", LINEAR_WHY));
    CHECK(group_at(&model, 5, &g) == POSENC_OK && g->rope.head_dim == 64 &&
          g->rope.rotary_dim == 64 && g->rope.base == 6e6 &&
          g->rope.layout == POSENC_LAYOUT_INTERLEAVED);
    /* Kimi Linear: linear_attn_config.full_attn_layers counts from 1
     * (configuration_kimi_linear.py L130-136) */
    CHECK(read_text("{\"model_type\": \"kimi_linear\", \"num_hidden_layers\": 3, " H4 ", "
                    "\"linear_attn_config\": {\"full_attn_layers\": [3], \"kda_layers\": [1, 2]}}",
                    NULL) == POSENC_OK);
    CHECK(layer_is(2, POSENC_SCHEME_NONE, "full_attention",
                   "NoPE attention layer: its MLA applies no rotary") &&
          layer_is(0, POSENC_SCHEME_NONE, "linear_attention", LINEAR_WHY));
    CHECK(refused("{\"model_type\": \"kimi_linear\", \"num_hidden_layers\": 3, " H4 ", "
                  "\"linear_attn_config\": {\"full_attn_layers\": [0]}}",
                  POSENC_ERR_RANGE, "linear_attn_config.full_attn_layers",
                  "[0] = 0 is not a layer (1..3)"));
    CHECK(refused("{\"model_type\": \"kimi_linear\", \"num_hidden_layers\": 3, " H4 "}",
                  POSENC_ERR_FORMAT, "linear_attn_config.full_attn_layers", "missing key"));
    /* LFM3: conv layers beside sliding and full attention (layer_types), each
     * attention type its own RoPE; without rope_parameters the class's sets:
     * sliding {default, 1e4}, full {proportional, 1e6} (configuration_lfm3.py
     * L85-101); head_dim 128 by default */
    CHECK(read_text("{\"model_type\": \"lfm3\", \"num_hidden_layers\": 4, " H4 ", "
                    "\"layer_types\": [\"conv\", \"sliding_attention\", \"full_attention\", "
                    "\"conv\"]}",
                    NULL) == POSENC_OK);
    CHECK(model.n_layer == 4 &&
          layer_is(0, POSENC_SCHEME_NONE, "conv", "short convolution layer: no attention") &&
          layer_is(3, POSENC_SCHEME_NONE, "conv", "short convolution layer: no attention") &&
          layer_is(1, POSENC_SCHEME_ROPE, "sliding_attention", "") &&
          layer_is(2, POSENC_SCHEME_ROPE, "full_attention", ""));
    CHECK(group_at(&model, 1, &g) == POSENC_OK && g->rope.head_dim == 128 &&
          g->rope.rotary_dim == 128 && g->rope.base == 1e4 &&
          g->rope.layout == POSENC_LAYOUT_HALF);
    CHECK(group_at(&model, 2, &g) == POSENC_OK && g->rope.head_dim == 128 && g->rope.base == 1e6);
    CHECK(refused("{\"model_type\": \"lfm3\", \"num_hidden_layers\": 4, " H4 "}",
                  POSENC_ERR_FORMAT, "layer_types", "missing key"));
    /* "conv" is a layer type only where the family has such layers */
    CHECK(refused("{\"model_type\": \"exaone4\", \"num_hidden_layers\": 2, " H4 ", "
                  "\"layer_types\": [\"conv\", \"full_attention\"]}",
                  POSENC_ERR_FORMAT, "layer_types", "is not a layer type of family exaone4"));
    /* state-space models: no attention anywhere */
    CHECK(read_text("{\"model_type\": \"mamba2\", \"num_hidden_layers\": 3}", NULL) == POSENC_OK);
    CHECK(model.scheme == POSENC_SCHEME_NONE && model.n_layer == 3 &&
          layer_is(2, POSENC_SCHEME_NONE, "mamba", MAMBA_WHY));
}

/* Remote-code families (issue 20), by the numbers their own modeling code
 * gives (src/config/config_families_table.h cites the files and lines). */
static int freqs_are(const posenc_rope *r, double base, const double *ext, double div)
{
    /* inv_freq[k] = 1 / (ext[k] * base^(2k/d)) / div, within 1e-13 relative */
    for (uint32_t k = 0; k < r->rotary_dim / 2; k++) {
        double want = 1.0 / ((ext ? ext[k] : 1.0) * pow(base, 2.0 * k / r->rotary_dim)) / div;
        if (fabs(r->inv_freq_hi[k] / want - 1.0) > 1e-13)
            return 0;
    }
    return 1;
}

TEST(remote_code_families)
{
    posenc_rope r;
    /* DeepSeek V1 (DeepSeek-MoE 16B's numbers): head 2048 / 16 = 128, whole
     * head, rotate_half, base rope_theta */
#define DSK "{\"model_type\": \"deepseek\", \"num_hidden_layers\": 28, \"hidden_size\": 2048, " \
            "\"num_attention_heads\": 16, \"max_position_embeddings\": 4096, \"rope_theta\": 1e4"
    CHECK(read_text(DSK ", \"rope_scaling\": null}", NULL) == POSENC_OK);
    CHECK(model.n_layer == 28 && model.scheme == POSENC_SCHEME_ROPE);
    CHECK(posenc_model_layer_rope(&model, 27, 100000, &r) == POSENC_OK);
    CHECK(r.layout == POSENC_LAYOUT_HALF && r.head_dim == 128 && r.rotary_dim == 128 &&
          r.base == 1e4 && r.attn_factor == 1.0 && freqs_are(&r, 1e4, NULL, 1.0));
    /* DeepseekLinearScalingRotaryEmbedding: t / factor */
    CHECK(read_text(DSK ", \"rope_scaling\": {\"type\": \"linear\", \"factor\": 4.0}}", NULL) ==
          POSENC_OK);
    CHECK(posenc_model_layer_rope(&model, 0, 1000, &r) == POSENC_OK);
    CHECK(freqs_are(&r, 1e4, NULL, 4.0));
    /* DeepseekDynamicNTKScalingRotaryEmbedding: past max_position_embeddings
     * base * (f L / max_pos - (f - 1))^(d / (d - 2)); the base up to it */
    CHECK(read_text(DSK ", \"rope_scaling\": {\"type\": \"dynamic\", \"factor\": 2.0}}", NULL) ==
          POSENC_OK);
    CHECK(posenc_model_layer_rope(&model, 0, 4096, &r) == POSENC_OK);
    CHECK(freqs_are(&r, 1e4, NULL, 1.0));
    CHECK(posenc_model_layer_rope(&model, 0, 10000, &r) == POSENC_OK);
    CHECK(freqs_are(&r, 1e4 * pow(2.0 * 10000 / 4096 - 1.0, 128.0 / 126.0), NULL, 1.0));
    /* its _init_rope knows no other type */
    CHECK(refused(DSK ", \"rope_scaling\": {\"type\": \"yarn\", \"factor\": 4.0, "
                  "\"original_max_position_embeddings\": 4096}}",
                  POSENC_ERR_FORMAT, "rope_scaling.type", "knows only the rope_scaling types "
                  "linear dynamic"));
    CHECK(refused(DSK ", \"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8.0}}",
                  POSENC_ERR_FORMAT, "rope_scaling.rope_type", "'llama3'"));
    /* no default base is vouched for */
    CHECK(refused("{\"model_type\": \"deepseek\", " L32 "}", POSENC_ERR_FORMAT, "rope_theta",
                  "no default posenc can vouch for"));
#undef DSK
    CHECK(posenc__family_by_arch("DeepseekForCausalLM") == posenc__family_find("deepseek"));
    CHECK(posenc__family_by_arch("DeepseekV2ForCausalLM") == posenc__family_find("deepseek_v2"));

    /* Orion-14B: 5120 / 40 = 128, rope_theta default 10000 (OrionConfig);
     * no rope_scaling read */
    CHECK(read_text("{\"model_type\": \"orion\", \"num_hidden_layers\": 40, \"hidden_size\": 5120, "
                    "\"num_attention_heads\": 40, \"rope_scaling\": null}",
                    NULL) == POSENC_OK);
    CHECK(posenc_model_layer_rope(&model, 39, 8192, &r) == POSENC_OK);
    CHECK(r.layout == POSENC_LAYOUT_HALF && r.head_dim == 128 && r.rotary_dim == 128 &&
          r.base == 1e4 && freqs_are(&r, 1e4, NULL, 1.0));
    CHECK(refused("{\"model_type\": \"orion\", \"rope_scaling\": {\"type\": \"linear\", "
                  "\"factor\": 2.0}, " L32 "}",
                  POSENC_ERR_FORMAT, "rope_scaling", "scaling code was not read"));

    /* Phi-3(.5)-vision: Phi3SuScaledRotaryEmbedding. head 256 / 4 = 64, 32
     * pairs; short factors up to original_max_position_embeddings, long past
     * it; cos and sin times sqrt(1 + ln(131072 / 4096) / ln 4096) */
    char cfg[4096];
    double sf[32], lf[32];
    int n = snprintf(cfg, sizeof cfg, "{\"model_type\": \"phi3_v\", " L32 ", "
                     "\"max_position_embeddings\": 131072, \"original_max_position_embeddings\": "
                     "4096, \"rope_theta\": 10000.0, \"rope_scaling\": {\"type\": \"su\"");
    for (int list = 0; list < 2; list++) {
        n += snprintf(cfg + n, sizeof cfg - (size_t)n, ", \"%s\": [",
                      list ? "long_factor" : "short_factor");
        for (int k = 0; k < 32; k++) {
            double v = list ? 1.0 + 2.0 * k : 1.0 + 0.125 * k;
            (list ? lf : sf)[k] = v;
            n += snprintf(cfg + n, sizeof cfg - (size_t)n, "%s%.17g", k ? ", " : "", v);
        }
        n += snprintf(cfg + n, sizeof cfg - (size_t)n, "]");
    }
    snprintf(cfg + n, sizeof cfg - (size_t)n, "}}");
    CHECK(read_text(cfg, NULL) == POSENC_OK);
    double mscale = sqrt(1.0 + log(131072.0 / 4096.0) / log(4096.0));
    CHECK(posenc_model_layer_rope(&model, 1, 4096, &r) == POSENC_OK);
    CHECK(r.layout == POSENC_LAYOUT_HALF && r.rotary_dim == 64 && freqs_are(&r, 1e4, sf, 1.0) &&
          fabs(r.attn_factor / mscale - 1.0) < 1e-15);
    CHECK(posenc_model_layer_rope(&model, 1, 4097, &r) == POSENC_OK);
    CHECK(freqs_are(&r, 1e4, lf, 1.0) && fabs(r.attn_factor / mscale - 1.0) < 1e-15);
    /* its "yarn" (0.1 ln s + 1 on cos and sin) is not transformers' */
    char *su = strstr(cfg, "\"su\"");
    memcpy(su, "\"yn\"", 4);
    CHECK(refused(cfg, POSENC_ERR_FORMAT, "rope_scaling.type", "knows only the rope_scaling "
                  "types su"));
    memcpy(su, "\"su\"", 4);
    CHECK(posenc__family_by_arch("Phi3VForCausalLM") == posenc__family_find("phi3_v"));

    /* DeepSeek V3.2: MLA's interleaved RoPE on qk_rope_head_dim and the
     * indexer's on the first qk_rope_head_dim of index_head_dim, half-split,
     * with the same frequencies and factor (YaRN here) */
#define V32 "{\"model_type\": \"deepseek_v32\", \"num_hidden_layers\": 2, " \
            "\"hidden_size\": 256, \"num_attention_heads\": 4, \"qk_rope_head_dim\": 64, " \
            "\"max_position_embeddings\": 163840, \"rope_scaling\": {\"type\": \"yarn\", " \
            "\"factor\": 40, \"original_max_position_embeddings\": 4096, \"beta_fast\": 32, " \
            "\"beta_slow\": 1, \"mscale\": 1.0, \"mscale_all_dim\": 0.707, " \
            "\"rope_theta\": 10000}"
    {
        posenc_rope a, b;
        CHECK(read_text(V32 ", \"index_head_dim\": 128}", NULL) == POSENC_OK);
        CHECK(posenc_model_layer_rope(&model, 1, 100000, &a) == POSENC_OK);
        CHECK(posenc_model_layer_indexer_rope(&model, 1, 100000, &b) == POSENC_OK);
        CHECK(a.layout == POSENC_LAYOUT_INTERLEAVED && a.head_dim == 64 && a.rotary_dim == 64);
        CHECK(b.layout == POSENC_LAYOUT_HALF && b.head_dim == 128 && b.rotary_dim == 64);
        CHECK(memcmp(a.inv_freq_hi, b.inv_freq_hi, 32 * sizeof(double)) == 0 &&
              memcmp(a.inv_freq_lo, b.inv_freq_lo, 32 * sizeof(double)) == 0 &&
              a.attn_factor == b.attn_factor && a.attn_factor != 1.0);
        CHECK(posenc_model_layer_indexer_rope(&model, 2, 10, &b) == POSENC_ERR_RANGE);
        CHECK(posenc_model_layer_indexer_rope(&model, 0, 10, NULL) == POSENC_ERR_NULL);
        CHECK(read_text(V32 "}", NULL) == POSENC_OK); /* DeepseekV32Config's 128 */
        CHECK(posenc_model_layer_indexer_rope(&model, 0, 10, &b) == POSENC_OK && b.head_dim == 128);
        CHECK(refused(V32 ", \"index_head_dim\": 32}", POSENC_ERR_DIM, "index_head_dim",
                      "from the rotated part"));
        CHECK(read_text("{\"model_type\": \"llama\", " L32 "}", NULL) == POSENC_OK); /* no indexer */
        CHECK(posenc_model_layer_indexer_rope(&model, 0, 10, &b) == POSENC_ERR_RANGE);
    }
#undef V32

    /* refused by name: InternLM 1 (which revision's rotary) */
    CHECK(refused("{\"model_type\": \"internlm\", " L32 "}", POSENC_ERR_FORMAT, "model_type",
                  "rotary block"));
    /* Phi-3-small (positional_embedding.py): head 256 / 4 = 64, rotate_half
     * over the whole head, base rope_embedding_base (default 10^6) and
     * nothing else, positions times rope_position_scale (only 1 read), its
     * LongRoPE refused */
    CHECK(read_text("{\"model_type\": \"phi3small\", \"rope_embedding_base\": 5e5, "
                    "\"rope_position_scale\": 1.0, " L32 "}",
                    NULL) == POSENC_OK);
    CHECK(posenc_model_layer_rope(&model, 1, 100000, &r) == POSENC_OK);
    CHECK(r.layout == POSENC_LAYOUT_HALF && r.rotary_dim == 64 && r.head_dim == 64 &&
          freqs_are(&r, 5e5, NULL, 1.0) && r.attn_factor == 1.0);
    CHECK(read_text("{\"model_type\": \"phi3small\", \"rope_theta\": 1e4, " L32 "}", NULL) ==
          POSENC_OK);
    CHECK(posenc_model_layer_rope(&model, 0, 10, &r) == POSENC_OK && freqs_are(&r, 1e6, NULL, 1.0));
    /* Hunyuan-A13B's remote code: "dynamic" with alpha is base * alpha^(d/(d-2))
     * at every length; with alpha null the dynamic NTK past
     * max_position_embeddings, base * (f L / max - (f - 1))^(d/(d-2)); the
     * block's beta_fast is read by nothing (head 256 / 4 = 64) */
#define HY "{\"model_type\": \"hunyuan\", " L32 ", \"max_position_embeddings\": 4096, "
    CHECK(read_text(HY "\"rope_scaling\": {\"type\": \"dynamic\", \"factor\": 1.0, "
                    "\"alpha\": 1000.0, \"beta_fast\": 32}}",
                    NULL) == POSENC_OK);
    CHECK(posenc_model_layer_rope(&model, 1, 10, &r) == POSENC_OK &&
          freqs_are(&r, 1e4 * pow(1000.0, 64.0 / 62.0), NULL, 1.0));
    CHECK(posenc_model_layer_rope(&model, 1, 100000, &r) == POSENC_OK &&
          freqs_are(&r, 1e4 * pow(1000.0, 64.0 / 62.0), NULL, 1.0));
    CHECK(read_text(HY "\"rope_scaling\": {\"type\": \"dynamic\", \"factor\": 2.0, "
                    "\"alpha\": null}}",
                    NULL) == POSENC_OK);
    CHECK(posenc_model_layer_rope(&model, 0, 4096, &r) == POSENC_OK && freqs_are(&r, 1e4, NULL, 1.0));
    CHECK(posenc_model_layer_rope(&model, 0, 8192, &r) == POSENC_OK &&
          freqs_are(&r, 1e4 * pow(2.0 * 8192 / 4096 - 1.0, 64.0 / 62.0), NULL, 1.0));
    CHECK(refused(HY "\"rope_scaling\": {\"type\": \"yarn\", \"factor\": 4.0}}",
                  POSENC_ERR_FORMAT, "rope_scaling.type", "knows only the rope_scaling types"));
#undef HY
    CHECK(refused("{\"model_type\": \"phi3small\", \"rope_position_scale\": 2, " L32 "}",
                  POSENC_ERR_FORMAT, "rope_position_scale", "only 1 is implemented"));
    CHECK(refused("{\"model_type\": \"phi3small\", \"rope_scaling\": {\"type\": \"su\"}, " L32
                  "}",
                  POSENC_ERR_FORMAT, "rope_scaling", "switches with the length"));
    CHECK(refused("{\"model_type\": \"exaone\", \"num_layers\": 2, \"hidden_size\": 256, "
                  "\"num_attention_heads\": 4}",
                  POSENC_ERR_FORMAT, "model_type", "use_rotary_pos"));
    CHECK(posenc__family_by_arch("Exaone4ForCausalLM") == posenc__family_find("exaone4"));
    CHECK(posenc__family_by_arch("ExaoneForCausalLM") == posenc__family_find("exaone"));
}

int main(void)
{
    RUN(registry_sorted_and_cited);
    RUN(registry_by_arch);
    RUN(names);
    RUN(layer_lookup);
    RUN(layer_rope);
    RUN(model_object);
    RUN(query_scales);
    RUN(alibi_slopes);
    RUN(fixtures_match_golden);
    RUN(refusals);
    RUN(reader_rules);
    RUN(hybrid_layers);
    RUN(reader_variants);
    RUN(lengths_follow_each_family);
    RUN(issue_examples);
    RUN(nested_parts_and_glm4v);
    RUN(remote_code_families);
    RUN(memory_runs_out_cleanly);
    return check_summary("models");
}
#endif
