/* test_model_hybrid.c - the model reader on hybrid models (the KINDS rule:
 * which layers of a mamba, convolution, linear-attention or NoPE hybrid
 * rotate, with the family's reason for each that does not) and on the
 * remote-code families, by the numbers their own modeling code gives
 * (src/config/config_families_table.h cites the files and lines). Needs
 * jansson. */
#include "check.h"

#ifndef POSENC_HAVE_JSON

int main(void)
{
    (void)check__failed_checks;
    check_skip("model_hybrid", 2, "the hybrid layers and the remote-code families: built without jansson", "libjansson-dev");
    return check_summary("model_hybrid");
}

#else

#include "model_harness.h"

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
    RUN(hybrid_layers);
    RUN(remote_code_families);
    return check_summary("model_hybrid");
}

#endif
