/* test_model_refusals.c - the model reader's refusals (src/config/config_model.c
 * and the registry's rules): each bad config.json, inline or a file of
 * tests/data/models/, is checked for its status, the key it names and a
 * phrase of its message, with the model left untouched. Needs jansson. */
#include "check.h"

#ifndef POSENC_HAVE_JSON

int main(void)
{
    (void)check__failed_checks;
    check_skip("model_refusals", 1, "the model reader's refusals: built without jansson", "libjansson-dev");
    return check_summary("model_refusals");
}

#else

#include "model_harness.h"

/* ---- refusals: status, key, a phrase of the message ---------------------------------- */

typedef struct bad {
    const char *json; /* a file under tests/data/models when it starts with '@' */
    const char *override;
    posenc_status st;
    const char *key, *phrase;
} bad;

/* 32 longrope factors: one per pair of head_dim 64 */
#define LR32                                                                                       \
    "[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"

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
     NULL, POSENC_ERR_RANGE, "text_config.head_dim", "it must be even"},
    /* a partial factor on a family whose code rotates the whole head
     * (modeling_llama.py L90-105: dim = head_dim; tests/hf/test_probe.py
     * test_partial_factor_unread runs the models) */
    {"{\"model_type\": \"llama\", \"partial_rotary_factor\": 0.5}", NULL, POSENC_ERR_FORMAT,
     "partial_rotary_factor", "never reads a partial factor"},
    {"{\"model_type\": \"mistral\", \"num_hidden_layers\": 2, \"hidden_size\": 256, "
     "\"num_attention_heads\": 4, \"rotary_pct\": 0.25}", NULL, POSENC_ERR_FORMAT,
     "rotary_pct", "family mistral's code rotates the whole head"},
    {"{\"model_type\": \"qwen2\", \"rope_parameters\": {\"rope_type\": \"linear\", "
     "\"factor\": 2, \"partial_rotary_factor\": 0.5}}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.partial_rotary_factor", "never reads"},
    {"{\"model_type\": \"gemma3\", \"text_config\": {\"partial_rotary_factor\": 0.5}}", NULL,
     POSENC_ERR_FORMAT, "text_config.partial_rotary_factor", "family gemma3_text's code"},
    /* a top-level factor beside per-type sets without one (Step3p7's class
     * copies it in, Mellum's does not) */
    {"{\"model_type\": \"mellum\", \"partial_rotary_factor\": 0.5, \"layer_types\": "
     "[\"full_attention\"], \"num_hidden_layers\": 1, \"rope_parameters\": {\"full_attention\": "
     "{\"rope_type\": \"default\", \"rope_theta\": 10000}}}",
     NULL, POSENC_ERR_FORMAT, "partial_rotary_factor", "is not settled"},
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
    /* Hunyuan's "dynamic" block with alpha (ntk_alpha): alpha must be a
     * number (modeling_hunyuan_v1_dense.py L287-355 reads it as one) */
    {"{\"model_type\": \"hunyuan_v1_dense\", " L32 ", \"rope_scaling\": {\"type\": \"dynamic\", "
     "\"alpha\": \"1000\", \"factor\": 1}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.alpha",
     "rope_scaling.alpha must be a number, got a string"},
    /* a family whose own scaling code was not read vouches for no block */
    {"{\"model_type\": \"orion\", " L32 ", \"rope_scaling\": {\"type\": \"linear\", \"factor\": 2}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling", "family orion's own scaling code was not read"},
    /* Hunyuan (remote code) knows linear and dynamic only */
    {"{\"model_type\": \"hunyuan\", " L32 ", \"rope_scaling\": {\"type\": \"yarn\", \"factor\": 2}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.type",
     "rope_scaling.type 'yarn': family hunyuan's own code knows only the rope_scaling types "
     "linear dynamic"},
    /* the M-RoPE rule is the family's code: Qwen2-VL contiguous, Cosmos3-Edge interleaved */
    {"{\"model_type\": \"qwen2_vl\", " L32 ", \"rope_theta\": 1e6, \"rope_scaling\": {\"type\": "
     "\"mrope\", \"mrope_section\": [8, 12, 12], \"mrope_interleaved\": true}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.mrope_interleaved",
     "rope_scaling.mrope_interleaved is true, but family qwen2_vl_text's code always takes the "
     "contiguous rule"},
    {"{\"model_type\": \"cosmos3_edge_text\", " L32 ", \"rope_parameters\": {\"rope_type\": "
     "\"default\", \"mrope_section\": [8, 12, 12], \"mrope_interleaved\": false}}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.mrope_interleaved",
     "rope_parameters.mrope_interleaved is false, but family cosmos3_edge_text's code always "
     "takes the interleaved rule"},
    /* the vision tower's settings get_rope_index reads */
    {"{\"model_type\": \"qwen2_vl\", " L32 ", \"rope_theta\": 1e6, \"rope_scaling\": {\"type\": "
     "\"mrope\", \"mrope_section\": [8, 12, 12]}, \"vision_config\": {\"spatial_merge_size\": 0}}",
     NULL, POSENC_ERR_FORMAT, "vision_config.spatial_merge_size",
     "vision_config.spatial_merge_size must be an integer from 1 to 64"},
    {"{\"model_type\": \"qwen2_vl\", " L32 ", \"rope_theta\": 1e6, \"rope_scaling\": {\"type\": "
     "\"mrope\", \"mrope_section\": [8, 12, 12]}, \"vision_config\": {\"spatial_merge_size\": 2, "
     "\"tokens_per_second\": 2.5}}",
     NULL, POSENC_ERR_FORMAT, "vision_config.tokens_per_second",
     "vision_config.tokens_per_second must be an integer from 0 to 1000000"},
    /* AXK2's indexer heads hold at least the rotated part */
    {"{\"model_type\": \"axk2\", " L32 ", \"index_head_dim\": 16}", NULL, POSENC_ERR_DIM,
     "index_head_dim", "index_head_dim 16 must be from the rotated part (32) to"},
    /* the layer kinds' keys, each refused by name */
    {"{\"model_type\": \"modernbert\", " L32 ", \"global_attn_every_n_layers\": 0}", NULL,
     POSENC_ERR_RANGE, "global_attn_every_n_layers",
     "global_attn_every_n_layers must be at least 1"},
    {"{\"model_type\": \"modernbert\", " L32 ", \"rope_scaling\": {\"type\": \"linear\", "
     "\"factor\": 2}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling",
     "rope_scaling: family modernbert applies it to both layer types, each with its own base"},
    {"{\"model_type\": \"bailing_hybrid\", " L32 ", \"qk_rope_head_dim\": 64, "
     "\"layer_group_size\": 0}",
     NULL, POSENC_ERR_RANGE, "layer_group_size", "layer_group_size must be at least 1"},
    {"{\"model_type\": \"jamba\", " L32 ", \"attn_layer_period\": 8, \"attn_layer_offset\": 9}",
     NULL, POSENC_ERR_RANGE, "attn_layer_offset", "attn_layer_offset 9 must be below the period 8"},
    {"{\"model_type\": \"nemotron_h\", " L32 ", \"hybrid_override_pattern\": 5}", NULL,
     POSENC_ERR_FORMAT, "hybrid_override_pattern",
     "hybrid_override_pattern must be a string, got an integer"},
    {"{\"model_type\": \"nemotron_h\", " L32 ", \"hybrid_override_pattern\": \"MX\"}", NULL,
     POSENC_ERR_FORMAT, "hybrid_override_pattern",
     "hybrid_override_pattern[1] 'X' is not a layer kind of family nemotron_h"},
    {"{\"model_type\": \"recurrent_gemma\", " L32 ", \"block_types\": []}", NULL,
     POSENC_ERR_FORMAT, "block_types",
     "block_types has 0 entries, repeated 100 times, for 2 layers"},
    {"{\"model_type\": \"lfm2\", " L32 ", \"full_attn_idxs\": \"0\"}", NULL, POSENC_ERR_FORMAT,
     "full_attn_idxs", "full_attn_idxs must be an array of layer indices, got a string"},
    {"{\"model_type\": \"lfm2\", " L32 ", \"full_attn_idxs\": [0.5]}", NULL, POSENC_ERR_FORMAT,
     "full_attn_idxs", "full_attn_idxs[0] must be a layer index, got a number"},
    {"{\"model_type\": \"lfm2\", " L32 ", \"full_attn_idxs\": [1, 2]}", NULL, POSENC_ERR_RANGE,
     "full_attn_idxs", "full_attn_idxs[1] = 2 is not a layer (0..1)"},
    {"{\"model_type\": \"kimi_linear\", " L32 ", \"linear_attn_config\": {\"full_attn_layers\": "
     "[0]}}",
     NULL, POSENC_ERR_RANGE, "linear_attn_config.full_attn_layers",
     "linear_attn_config.full_attn_layers[0] = 0 is not a layer (1..2)"},
    {"{\"model_type\": \"gemma3_text\", " L32 ", \"head_dim\": 64, \"layer_types\": [1, "
     "\"full_attention\"]}",
     NULL, POSENC_ERR_FORMAT, "layer_types", "layer_types[0] must be a string, got an integer"},
    /* Cohere2 MoE's forced dense layers (modeling_cohere2_moe.py L279-300) */
    {"{\"model_type\": \"cohere2_moe\", " L32 ", \"sliding_window\": null}", NULL,
     POSENC_ERR_FORMAT, "sliding_window",
     "sliding_window is null: family cohere2_moe then rotates only its dense layers"},
    {"{\"model_type\": \"cohere2_moe\", " L32 ", \"sliding_window\": 4096, "
     "\"first_k_dense_replace\": 1}",
     NULL, POSENC_ERR_FORMAT, "layer_types",
     "missing key layer_types: family cohere2_moe numbers the sliding pattern after its "
     "first_k_dense_replace dense layers"},
    {"{\"model_type\": \"cohere2_moe\", " L32 ", \"sliding_window\": 4096, "
     "\"mlp_layer_types\": [\"dense\"]}",
     NULL, POSENC_ERR_FORMAT, "mlp_layer_types",
     "mlp_layer_types must be an array of one string per layer"},
    /* GraniteMoeHybrid's position_embedding_type: rope, nope or null */
#define GRANITE_KINDS "\"layer_types\": [\"mamba\", \"attention\"]"
    {"{\"model_type\": \"granitemoehybrid\", " L32 ", " GRANITE_KINDS
     ", \"position_embedding_type\": 5}",
     NULL, POSENC_ERR_FORMAT, "position_embedding_type",
     "position_embedding_type must be a string or null, got an integer"},
    {"{\"model_type\": \"granitemoehybrid\", " L32 ", " GRANITE_KINDS
     ", \"position_embedding_type\": \"alibi\"}",
     NULL, POSENC_ERR_FORMAT, "position_embedding_type",
     "position_embedding_type 'alibi' is neither rope nor nope"},
#undef GRANITE_KINDS
    /* Molmo 2's rope_scaling_layers: integers, a repeated index counted once */
    {"{\"model_type\": \"molmo2_text\", " L32 ", \"rope_scaling_layers\": [0, \"1\"]}", NULL,
     POSENC_ERR_FORMAT, "rope_scaling_layers",
     "rope_scaling_layers must be a list of layer indices"},
    {"{\"model_type\": \"molmo2_text\", " L32 ", \"rope_scaling_layers\": [1, 1, 7], "
     "\"rope_scaling\": {\"type\": \"linear\", \"factor\": 2}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling_layers", "lists 1 of the 2 layers"},
    /* the learned table's width, the sinusoid key, T5's bucket keys */
    {"{\"model_type\": \"albert\", " L32 ", \"max_position_embeddings\": 512, "
     "\"embedding_size\": 0}",
     NULL, POSENC_ERR_DIM, "embedding_size", "embedding_size 0 is outside 1.."},
    {"{\"model_type\": \"gpt2\", " L32 ", \"n_positions\": 1024, \"sinusoidal_pos_embds\": "
     "\"yes\"}",
     NULL, POSENC_ERR_FORMAT, "sinusoidal_pos_embds",
     "sinusoidal_pos_embds must be true or false, got a string"},
    {"{\"model_type\": \"t5\", " L32 ", \"relative_attention_num_buckets\": 2}", NULL,
     POSENC_ERR_RANGE, "relative_attention_num_buckets",
     "relative_attention_num_buckets 2 is outside 4..65536"},
    {"{\"model_type\": \"t5\", " L32 ", \"relative_attention_max_distance\": 8}", NULL,
     POSENC_ERR_RANGE, "relative_attention_max_distance",
     "relative_attention_max_distance 8 must exceed num_buckets / 4 = 8"},
    /* Phi-3-small's rope_position_scale: only 1 is the plain RoPE */
    {"{\"model_type\": \"phi3small\", " L32 ", \"rope_position_scale\": 2}", NULL,
     POSENC_ERR_FORMAT, "rope_position_scale",
     "rope_position_scale 2: family phi3small multiplies every position by it before the "
     "angles; only 1 is implemented"},
    /* PhiMoE's short_mscale and long_mscale: equal numbers, in place of attention_factor */
    {"{\"model_type\": \"phimoe\", " L32 ", \"max_position_embeddings\": 4096, "
     "\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": " LR32 ", \"long_factor\": "
     LR32 ", \"short_mscale\": 1.1, \"long_mscale\": 1.2}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.short_mscale",
     "rope_scaling.short_mscale: short_mscale and long_mscale must both be numbers and equal"},
    {"{\"model_type\": \"phimoe\", " L32 ", \"max_position_embeddings\": 4096, "
     "\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": " LR32 ", \"long_factor\": "
     LR32 ", \"long_mscale\": 1.1, \"attention_factor\": 1.1}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.long_mscale",
     "rope_scaling.long_mscale: short_mscale and long_mscale must both be numbers and equal"},
    {"{\"model_type\": \"phimoe\", " L32 ", \"max_position_embeddings\": 4096, "
     "\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": " LR32 ", \"long_factor\": "
     LR32 ", \"short_mscale\": 1.1, \"long_mscale\": 1.1, \"attention_factor\": 1.1}}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.short_mscale",
     "rope_scaling.short_mscale and attention_factor both set the factor on cos and sin"},
    /* MiniMax-M2's rotary_dim, read as partial_rotary_factor rotary_dim / head_dim */
    {"{\"model_type\": \"minimax_m2\", " L32 ", \"head_dim\": 64, \"rotary_dim\": 128}", NULL,
     POSENC_ERR_RANGE, "rotary_dim", "rotary_dim must be in (0, 1], got 2"},
    {"{\"model_type\": \"minimax_m2\", " L32 ", \"head_dim\": 64, \"rotary_dim\": \"32\"}", NULL,
     POSENC_ERR_FORMAT, "rotary_dim", "rotary_dim must be a number, got a string"},
    /* an unknown wrapper whose part names no one family: architectures that
     * disagree, a model_type that is not a string */
    {"{\"model_type\": \"frobvlm\", \"llm_cfg\": {\"architectures\": [\"LlamaForCausalLM\", "
     "\"Qwen2ForCausalLM\"]}}",
     NULL, POSENC_ERR_FORMAT, "model_type",
     "model_type 'frobvlm' is not in posenc's model registry (posenc --models lists the known "
     "types)"},
    {"{\"model_type\": \"frobvlm\", \"llm_cfg\": {\"model_type\": 5}}", NULL, POSENC_ERR_FORMAT,
     "model_type",
     "model_type 'frobvlm' is not in posenc's model registry (posenc --models lists the known "
     "types)"},
    /* Gemma 4's per_layer_config: objects, even head sizes, one full head size */
    {"{\"model_type\": \"gemma4_text\", \"per_layer_config\": 5, " L32 "}", NULL,
     POSENC_ERR_FORMAT, "per_layer_config", "per_layer_config must be an object, got an integer"},
    {"{\"model_type\": \"gemma4_text\", \"per_layer_config\": {\"1\": 7}, " L32 "}", NULL,
     POSENC_ERR_FORMAT, "per_layer_config.1",
     "per_layer_config.1 must be an object, got an integer"},
    {"{\"model_type\": \"gemma4_text\", \"per_layer_config\": {\"01\": {\"head_dim\": 3}}, " L32
     "}",
     NULL, POSENC_ERR_DIM, "per_layer_config.01",
     "per_layer_config.01.head_dim must be an even integer from 2 to"},
    {"{\"model_type\": \"gemma4_text\", \"layer_types\": [\"full_attention\", \"full_attention\"], "
     "\"per_layer_config\": {\"00\": {\"head_dim\": 128}, \"01\": {\"head_dim\": 256}}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "per_layer_config.01",
     "per_layer_config.01: full_attention layers with different head sizes (128 and 256) are not "
     "in family gemma4_text's code"},
    /* Laguna: each layer type's RoPE from its own set in rope_parameters */
#define LAGUNA "{\"model_type\": \"laguna\", " L32 ", \"head_dim\": 64, \"layer_types\": " \
               "[\"full_attention\", \"sliding_attention\"], \"rope_parameters\": "
#define SET(t, more) "\"" t "\": {\"rope_type\": \"default\"" more "}"
    {LAGUNA "{" SET("full_attention", ", \"rope_theta\": 1e6") "}}", NULL, POSENC_ERR_FORMAT,
     "rope_parameters.sliding_attention",
     "missing key rope_parameters.sliding_attention: family laguna has layers of that type"},
    {LAGUNA "{" SET("full_attention", ", \"rope_theta\": 1e6") ", " SET("sliding_attention", "")
     "}}",
     NULL, POSENC_ERR_FORMAT, "rope_parameters.sliding_attention.rope_theta",
     "missing key rope_parameters.sliding_attention.rope_theta: family laguna reads each layer "
     "type's base from its set"},
    {LAGUNA "{" SET("full_attention", ", \"rope_theta\": 1e6, \"partial_rotary_factor\": 0") ", "
     SET("sliding_attention", ", \"rope_theta\": 1e4") "}}",
     NULL, POSENC_ERR_RANGE, "rope_parameters.full_attention.partial_rotary_factor",
     "rope_parameters.full_attention.partial_rotary_factor must be in (0, 1], got 0"},
    {LAGUNA "{" SET("full_attention", ", \"rope_theta\": 1e6, \"partial_rotary_factor\": 0.01")
     ", " SET("sliding_attention", ", \"rope_theta\": 1e4") "}}",
     NULL, POSENC_ERR_RANGE, "rope_parameters.full_attention.partial_rotary_factor",
     "the rotary dimension comes out 0 for head size 64; it must be even and at least 2"},
#undef SET
#undef LAGUNA
    /* MiniCPM's longrope reads neither factor nor attention_factor */
    {"{\"model_type\": \"minicpm\", \"rope_theta\": 1e4, \"max_position_embeddings\": 8192, "
     "\"rope_scaling\": {\"type\": \"longrope\", \"attention_factor\": 1.2, \"short_factor\": "
     LR32 ", \"long_factor\": " LR32 ", \"original_max_position_embeddings\": 4096}, " L32 "}",
     NULL, POSENC_ERR_FORMAT, "rope_scaling.attention_factor",
     "rope_scaling.attention_factor: MiniCPM's longrope takes its scale from "
     "max_position_embeddings / original_max_position_embeddings and does not read this key"},
    /* DeBERTa's keys (modeling_deberta_v2.py's relative attention and buckets) */
    {"{\"model_type\": \"deberta\", " L32 ", \"relative_attention\": \"yes\"}", NULL,
     POSENC_ERR_FORMAT, "relative_attention",
     "relative_attention must be true or false, got a string"},
    {"{\"model_type\": \"deberta\", " L32 ", \"position_biased_input\": 1}", NULL,
     POSENC_ERR_FORMAT, "position_biased_input",
     "position_biased_input must be true or false, got an integer"},
    {"{\"model_type\": \"deberta\", " L32 ", \"embedding_size\": 0}", NULL, POSENC_ERR_DIM,
     "embedding_size", "embedding_size 0 is outside 1.."},
    {"{\"model_type\": \"deberta\", " L32 ", \"max_relative_positions\": \"x\"}", NULL,
     POSENC_ERR_FORMAT, "max_relative_positions", "max_relative_positions must be an integer"},
    {"{\"model_type\": \"deberta-v2\", " L32 ", \"position_buckets\": 1.5}", NULL,
     POSENC_ERR_FORMAT, "position_buckets", "position_buckets must be an integer"},
    {"{\"model_type\": \"deberta\", " L32 ", \"relative_attention\": true, "
     "\"pos_att_type\": \"c2p\", \"max_relative_positions\": 1000000000000}",
     NULL, POSENC_ERR_RANGE, "max_relative_positions",
     "max_relative_positions 1000000000000 or position_buckets 0 out of range"},
    /* nulls transformers 5.23 refuses (fields declared without None:
     * posenc_model_family.nonnull; v2 compares position_buckets with 0), a
     * pos_att_type neither string nor list of strings */
    {"{\"model_type\": \"deberta\", " L32 ", \"max_relative_positions\": null}", NULL,
     POSENC_ERR_FORMAT, "max_relative_positions",
     "max_relative_positions is null: configuration_deberta.py L62-78 (transformers 5.23.0) "
     "declares it without None"},
    {"{\"model_type\": \"deberta-v2\", " L32 ", \"relative_attention\": true, "
     "\"position_buckets\": null}",
     NULL, POSENC_ERR_FORMAT, "position_buckets", "position_buckets must be an integer, got null"},
    {"{\"model_type\": \"deberta\", " L32 ", \"relative_attention\": true, "
     "\"pos_att_type\": [\"c2p\", 1]}",
     NULL, POSENC_ERR_FORMAT, "pos_att_type",
     "pos_att_type must be a string (\"p2c|c2p\"), a list of strings or null"},
    {"{\"model_type\": \"longt5\", \"num_layers\": 2, \"encoder_attention_type\": null}",
     NULL, POSENC_ERR_FORMAT, "encoder_attention_type",
     "encoder_attention_type is null: configuration_longt5.py"},
    /* the same on the RoPE families: LlamaConfig declares the geometry int
     * (configuration_llama.py L65-71), so a null there is no default 32 heads
     * or width 4096; Roberta's pad_token_id is int | None, but its model's
     * input_ids.ne(padding_idx) fails on a None (posenc_model_family.null_misread) */
    {"{\"model_type\": \"llama\", \"hidden_size\": 256, \"num_attention_heads\": null}", NULL,
     POSENC_ERR_FORMAT, "num_attention_heads",
     "num_attention_heads is null: configuration_llama.py L65-71 (transformers 5.23.0) declares "
     "it without None"},
    {"{\"model_type\": \"llama\", \"hidden_size\": null, \"num_attention_heads\": 4}", NULL,
     POSENC_ERR_FORMAT, "hidden_size", "hidden_size is null: configuration_llama.py"},
    {"{\"model_type\": \"llama\", \"num_hidden_layers\": null}", NULL,
     POSENC_ERR_FORMAT, "num_hidden_layers", "num_hidden_layers is null: configuration_llama.py"},
    {"{\"model_type\": \"llama\", \"rope_theta\": null}", NULL, POSENC_ERR_FORMAT, "rope_theta",
     "rope_theta is null: transformers 5.23 accepts it, but then modeling_llama.py L105"},
    {"{\"model_type\": \"roberta\", \"pad_token_id\": null}", NULL,
     POSENC_ERR_FORMAT, "pad_token_id",
     "pad_token_id is null: transformers 5.23 accepts it, but then modeling_roberta.py L153"},
    {"{\"model_type\": \"deepseek_v3\", \"rope_interleave\": null}", NULL,
     POSENC_ERR_FORMAT, "rope_interleave", "rope_interleave is null: transformers 5.23 accepts"},
    {"{\"model_type\": \"xlnet\", \"n_layer\": 2, \"clamp_len\": null}", NULL,
     POSENC_ERR_FORMAT, "clamp_len", "clamp_len is null: configuration_xlnet.py L107-123"},
    {"{\"model_type\": \"funnel\", \"separate_cls\": null}", NULL, POSENC_ERR_FORMAT,
     "separate_cls", "separate_cls is null: configuration_funnel.py"},
    {"{\"model_type\": \"roformer\", \"rotary_value\": null}", NULL, POSENC_ERR_FORMAT,
     "rotary_value", "rotary_value is null: configuration_roformer.py"},
    {"{\"model_type\": \"layoutlm\", \"max_2d_position_embeddings\": null}", NULL,
     POSENC_ERR_FORMAT, "max_2d_position_embeddings", "max_2d_position_embeddings is null"},
    {"{\"model_type\": \"mpnet\", " L32 ", \"relative_attention_num_buckets\": 16}", NULL,
     POSENC_ERR_RANGE, "relative_attention_num_buckets",
     "relative_attention_num_buckets 16 is below the 32 buckets"},
    /* ln((129 - 1) / (256 / 2)) = 0 */
    {"{\"model_type\": \"deberta-v2\", " L32 ", \"relative_attention\": true, "
     "\"pos_att_type\": \"c2p\", \"position_buckets\": 256, \"max_relative_positions\": 129}",
     NULL, POSENC_ERR_RANGE, "position_buckets",
     "position_buckets 256 with max_relative_positions 129: the log bucket's logarithm"},
    {"{\"model_type\": \"deberta-v2\", " L32 ", \"relative_attention\": true, "
     "\"pos_att_type\": \"c2p\", \"position_buckets\": 1, \"max_position_embeddings\": 512}",
     NULL, POSENC_ERR_RANGE, "position_buckets",
     "position_buckets 1 with max_relative_positions 512: the log bucket's logarithm"},
    /* Speech2Text's pad_token_id 0, Zamba 2's use_mem_rope and use_long_context */
#define ZAMBA2_KINDS "\"layer_types\": [\"mamba\", \"hybrid\"]"
    {"{\"model_type\": \"speech_to_text\", \"pad_token_id\": 0}", NULL, POSENC_ERR_RANGE,
     "pad_token_id", "pad_token_id 0: Speech2Text's encoder then reads every frame as padding"},
    {"{\"model_type\": \"zamba2\", " L32 ", " ZAMBA2_KINDS ", \"use_mem_rope\": \"x\"}", NULL,
     POSENC_ERR_FORMAT,
     "use_mem_rope", "use_mem_rope must be true or false, got a string"},
    {"{\"model_type\": \"zamba2\", " L32 ", " ZAMBA2_KINDS
     ", \"use_mem_rope\": true, \"use_long_context\": true}",
     NULL, POSENC_ERR_FORMAT, "use_long_context",
     "use_long_context with use_mem_rope: transformers 5.23 announces a rescaled rope_theta"},
#undef ZAMBA2_KINDS
    /* Marian's stacks: layer counts and the table's rows */
    {"{\"model_type\": \"marian\", \"encoder_layers\": \"6\"}", NULL, POSENC_ERR_FORMAT,
     "encoder_layers", "encoder_layers must be a number, got a string"},
    {"{\"model_type\": \"marian\", \"max_position_embeddings\": 0}", NULL, POSENC_ERR_RANGE,
     "max_position_embeddings", "max_position_embeddings 0 is outside 1.."},
    {"{\"model_type\": \"llama\"", NULL, POSENC_ERR_FORMAT, "", "invalid JSON"},
    /* encoder-decoders whose stacks are configs of their own (read_stacks,
     * config_family.c): each stack present, an object, of its family's type,
     * and its errors named by their path */
#define T5G_STACK "{\"num_hidden_layers\": 2, \"hidden_size\": 64, \"num_attention_heads\": 2, \"head_dim\": 32}"
    {"{\"model_type\": \"t5gemma\", \"encoder\": " T5G_STACK "}", NULL, POSENC_ERR_FORMAT,
     "decoder", "missing key decoder: model_type t5gemma keeps its decoder stack there, a config "
     "of its own (model_type t5_gemma_module)"},
    {"{\"model_type\": \"t5gemma\", \"encoder\": 3, \"decoder\": " T5G_STACK "}", NULL,
     POSENC_ERR_FORMAT, "encoder", "missing key encoder: model_type t5gemma keeps its encoder"},
    {"{\"model_type\": \"t5gemma\", \"encoder\": {\"model_type\": \"gemma2\"}, "
     "\"decoder\": " T5G_STACK "}",
     NULL, POSENC_ERR_FORMAT, "encoder.model_type",
     "encoder.model_type is 'gemma2', but model_type t5gemma's encoder stack is t5_gemma_module"},
    {"{\"model_type\": \"t5gemma\", \"encoder\": " T5G_STACK ", \"decoder\": "
     "{\"model_type\": 7}}",
     NULL, POSENC_ERR_FORMAT, "decoder.model_type",
     "decoder.model_type is an integer, but model_type t5gemma's decoder stack is t5_gemma_module"},
    {"{\"model_type\": \"t5gemma\", \"encoder\": " T5G_STACK ", \"decoder\": "
     "{\"num_hidden_layers\": 0}}",
     NULL, POSENC_ERR_RANGE, "decoder.num_hidden_layers", "decoder.num_hidden_layers 0 is outside"},
    {"{\"model_type\": \"t5gemma\", \"encoder\": {\"num_hidden_layers\": 1000}, "
     "\"decoder\": {\"num_hidden_layers\": 100}}",
     NULL, POSENC_ERR_RANGE, "decoder", "1000 encoder and 100 decoder layers exceed 1024"},
    {"{\"model_type\": \"dia\", \"encoder_config\": {}, \"decoder_config\": "
     "{\"rope_parameters\": {\"rope_type\": \"frob\"}}}",
     NULL, POSENC_ERR_FORMAT, "decoder_config.rope_parameters", "frob"},
    {"{\"model_type\": \"dia\", \"decoder_config\": {}}", NULL, POSENC_ERR_FORMAT,
     "encoder_config", "missing key encoder_config"},
    /* T5Gemma 2's encoder: its text model under encoder.text_config */
    {"{\"model_type\": \"t5gemma2\", \"encoder\": {\"vision_config\": {}}, \"decoder\": {}}",
     NULL, POSENC_ERR_FORMAT, "encoder.text_config",
     "missing key encoder.text_config: model_type t5gemma2_encoder keeps its language model"},
    {"{\"model_type\": \"t5gemma2\", \"encoder\": {\"text_config\": {\"layer_types\": "
     "[\"full_attention\", \"frob\"], \"num_hidden_layers\": 2}}, \"decoder\": {}}",
     NULL, POSENC_ERR_FORMAT, "encoder.text_config.layer_types", "frob"},
#undef T5G_STACK
    /* encoder-decoder (EncoderDecoderModel): each stack the family its own
     * model_type names (own_stack_type) */
    {"{\"model_type\": \"encoder-decoder\", \"encoder\": {\"model_type\": 7}, "
     "\"decoder\": {}}",
     NULL, POSENC_ERR_FORMAT, "encoder.model_type",
     "encoder.model_type must be a string, got an integer"},
    {"{\"model_type\": \"encoder-decoder\", \"encoder\": {}}", NULL, POSENC_ERR_FORMAT,
     "decoder", "missing key decoder: model_type encoder-decoder keeps its decoder stack there, "
     "a config of its own (model_type bert unless it names its own)"},
    {"{\"model_type\": \"encoder-decoder\", \"encoder\": {}, \"decoder\": {\"model_type\": "
     "\"dia\"}}",
     NULL, POSENC_ERR_FORMAT, "decoder.model_type", "decoder.model_type is dia, itself an "
     "encoder-decoder"},
    {"{\"model_type\": \"encoder-decoder\", \"encoder\": {}, \"decoder\": {\"model_type\": "
     "\"deepseek_v32\", \"num_hidden_layers\": 2, \"rope_theta\": 1e4}}",
     NULL, POSENC_ERR_FORMAT, "decoder", "decoder (model_type deepseek_v32) has a "
     "sparse-attention indexer: posenc holds one per model, not one per stack"},
    {"{\"model_type\": \"encoder-decoder\", \"encoder\": {\"model_type\": \"bert\", "
     "\"num_hidden_layers\": 9999}, \"decoder\": {}}",
     NULL, POSENC_ERR_RANGE, "encoder.num_hidden_layers", "outside 1.."},
    /* layer_rope_theta (quirk_granite_swa, quirk_muse_glimmer_text): a list of
     * one number >= 0 per layer, at most four distinct values; no other family's */
#define GSWA "{\"model_type\": \"granite_swa\", \"num_hidden_layers\": 3, \"hidden_size\": 64, \"num_attention_heads\": 2, "
    {GSWA "\"layer_rope_theta\": 1e4}", NULL, POSENC_ERR_FORMAT, "layer_rope_theta",
     "layer_rope_theta must be a list of RoPE bases, one per layer (0: no positions), got a "
     "number"},
    {GSWA "\"layer_rope_theta\": [1e4, 0]}", NULL, POSENC_ERR_FORMAT, "layer_rope_theta",
     "layer_rope_theta lists 2 bases for the 3 layers"},
    {GSWA "\"layer_rope_theta\": [1e4, -1, 0]}", NULL, POSENC_ERR_FORMAT, "layer_rope_theta",
     "layer_rope_theta[1] must be a RoPE base > 0, or 0"},
    {GSWA "\"layer_rope_theta\": [1e4, \"0\", 0]}", NULL, POSENC_ERR_FORMAT, "layer_rope_theta",
     "layer_rope_theta[1] must be a RoPE base"},
    {"{\"model_type\": \"granitemoe_swa\", \"num_hidden_layers\": 5, \"hidden_size\": 64, "
     "\"num_attention_heads\": 2, \"layer_rope_theta\": [0, 1e4, 2e4, 3e4, 4e4]}",
     NULL, POSENC_ERR_RANGE, "layer_rope_theta", "gives more than 4 distinct bases (0 counted)"},
    {GSWA "\"layer_rope_theta\": [1e4, 5e5, 0], \"rope_parameters\": {\"rope_type\": "
     "\"llama3\", \"rope_theta\": 1e4, \"factor\": 8.0, \"low_freq_factor\": 1.0, "
     "\"high_freq_factor\": 1.0, \"original_max_position_embeddings\": 8192}}",
     NULL, POSENC_ERR_FORMAT, "layer_rope_theta", "its step was computed at rope_theta 10000, "
     "not at base 500000"},
    {"{\"model_type\": \"muse_glimmer_text\", \"num_hidden_layers\": 2, "
     "\"layer_rope_theta\": [0]}",
     NULL, POSENC_ERR_FORMAT, "layer_rope_theta", "lists 1 bases for the 2 layers"},
    /* muse_spark reads its text_config's list by muse_glimmer's rule */
    {"{\"model_type\": \"muse_spark\", \"text_config\": {\"num_hidden_layers\": 3, "
     "\"layer_rope_theta\": [0, 5e5, -2]}}",
     NULL, POSENC_ERR_FORMAT, "text_config.layer_rope_theta",
     "text_config.layer_rope_theta[2] must be a RoPE base > 0, or 0"},
    {"{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"layer_rope_theta\": [1e4, 0]}",
     NULL, POSENC_ERR_FORMAT, "layer_rope_theta", "(a RoPE base per layer) is not part of family "
     "llama's code"},
#undef GSWA
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


int main(void)
{
    RUN(refusals);
    return check_summary("model_refusals");
}

#endif
