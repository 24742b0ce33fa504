/* test_model_reader.c - what the model reader (src/config/config_model.c and
 * its helpers) does beyond the golden file: its rules and each family's
 * variants on inline configs, the lengths that follow each family (against
 * tests/model_lengths.h), the issues' examples, nested parts and GLM-4V's
 * M-RoPE against transformers' computation in double, and every allocation of
 * the reader and of jansson failing in turn (malloc, calloc and realloc are
 * wrapped by the linker: -Wl,--wrap, see the Makefile). Needs jansson. */
#include "check.h"

#ifndef POSENC_HAVE_JSON

int main(void)
{
    (void)check__failed_checks;
    check_skip("model_reader", 6, "the model reader's rules, variants, lengths and allocation failures: built without jansson", "libjansson-dev");
    return check_summary("model_reader");
}

#else

#include "model_harness.h"
#include "model_lengths.h"

#include <jansson.h> /* json_set_alloc_funcs: its allocations fail on demand too */

/* ---- allocation failures on demand (-Wl,--wrap, see the Makefile) -------------- */

#include "fault.h" /* alloc_countdown, alloc_failed */

/* ---- what the reader does beyond the golden file -------------------------------------- */

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
    /* the family's transformers module: Llama 4's complex freqs_cis */
    CHECK(strcmp(posenc_model_hf_module_convention(&model), "complex") == 0);
    /* an unknown wrapper whose llm_config is a known family */
    CHECK(read_text("{\"model_type\": \"internvl_chat\", \"llm_config\": {\"model_type\": "
                    "\"internlm2\", \"rope_theta\": 1e6, " L32 "}}",
                    NULL) == POSENC_OK);
    CHECK(strcmp(model.part, "llm_config") == 0 && strcmp(model.model_type, "internlm2") == 0);
    CHECK(model.group[0].rope.base == 1e6);
    CHECK(strcmp(posenc_model_hf_module_convention(&model), "plain") == 0);
    CHECK(strcmp(posenc_model_hf_module_convention(NULL), "plain") == 0);
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
    CHECK(strcmp(posenc_model_hf_module_convention(&model), "complex") == 0);
    CHECK(posenc_model_layer_rope(&model, 0, 0, &r) == POSENC_OK);
    CHECK(r.layout == POSENC_LAYOUT_INTERLEAVED);
    CHECK(group_at(&model, 0, &g) == POSENC_OK && g->llama3_step &&
          g->configured.type == POSENC_ROPE_LLAMA3);
    /* pair 0 (wavelength 2 pi) kept; the last pair (wavelength > 8192) divided by 16 */
    CHECK(r.inv_freq_hi[0] == 1.0);
    CHECK_NEAR(r.inv_freq_hi[63], pow(500000.0, -126.0 / 128.0) / 16.0, 1e-22);
    CHECK(posenc_model_layer_rope(&model, 3, 0, &r) == POSENC_ERR_RANGE);
    /* Cohere: repeat_interleave in its rotary module (modeling_cohere.py L107) */
    CHECK(posenc_model_from_config("tests/data/models/cohere-synthetic.json", NULL, &model,
                                   NULL) == POSENC_OK);
    CHECK(strcmp(posenc_model_hf_module_convention(&model), "interleave") == 0);
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


int main(void)
{
    RUN(reader_rules);
    RUN(reader_variants);
    RUN(lengths_follow_each_family);
    RUN(issue_examples);
    RUN(nested_parts_and_glm4v);
    RUN(memory_runs_out_cleanly);
    return check_summary("model_reader");
}

#endif
