/* models_table.h - the registry's entries, included by models.c only.
 * Sorted by model_type. Each entry's comment cites the code it follows
 * ("models/X" = zucchini-nlp/transformers src/transformers/models/X). */

/* gemma3: a wrapper; the language model is text_config (Gemma3TextConfig).
 * models/gemma3/configuration_gemma3.py, class Gemma3Config:
 * sub_configs text_config = Gemma3TextConfig. */
{.model_type = "gemma3", .arch = "Gemma3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "gemma3_text",
 .source = "models/gemma3/configuration_gemma3.py (Gemma3Config.sub_configs)"},

/* gemma3_text: sliding layers use rope_local_base_freq (default 10000)
 * without scaling, full layers rope_theta (default 1e6) with the
 * rope_scaling; layer_types default from sliding_window_pattern 6 (every
 * 6th layer full). models/gemma3/configuration_gemma3.py,
 * Gemma3TextConfig: default_theta, __init__ (head_dim 256, layer_types),
 * convert_rope_params_to_dict (rope_scaling -> full_attention only). */
{.model_type = "gemma3_text", .arch = "Gemma3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .rotary = POSENC_ROTARY_PARTIAL, .partial_key = "partial_rotary_factor", .partial_default = 1.0,
 .base_key = "rope_theta", .base_default = 1000000.0, .layers = POSENC_LAYERS_BY_TYPE,
 .full_rope = POSENC_TROPE_SCALED, .sliding_rope = POSENC_TROPE_LOCAL,
 .local_base_key = "rope_local_base_freq", .local_base_default = 10000.0, .sliding_pattern = 6,
 .source = "models/gemma3/configuration_gemma3.py (Gemma3TextConfig)"},

/* llama: rotate_half (half layout), head_dim = hidden_size // heads,
 * rope_theta 10000. models/llama/configuration_llama.py (LlamaConfig
 * defaults, __post_init__). */
{.model_type = "llama", .arch = "Llama", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .rotary = POSENC_ROTARY_PARTIAL, .partial_key = "partial_rotary_factor", .partial_default = 1.0,
 .base_key = "rope_theta", .base_default = 10000.0,
 .source = "models/llama/configuration_llama.py (LlamaConfig)"},

/* llama4: a wrapper; the language model is text_config (Llama4TextConfig).
 * models/llama4/configuration_llama4.py (Llama4Config.sub_configs). */
{.model_type = "llama4", .arch = "Llama4", .scheme = POSENC_SCHEME_MIXED, .layout = INTERLEAVED,
 .nested = "text_config", .nested_type = "llama4_text",
 .source = "models/llama4/configuration_llama4.py (Llama4Config.sub_configs)"},

/* llama4_text: apply_rotary_emb views q, k as complex numbers from
 * reshape(..., -1, 2): interleaved pairs. use_rope =
 * config.no_rope_layers[layer_idx]; default no_rope_layers[i] =
 * int((i + 1) % no_rope_layer_interval != 0), interval 4. NoPE layers with
 * attn_temperature_tuning scale queries by log1p(floor((cache_position + 1)
 * / floor_scale)) * attn_scale + 1 (floor_scale 8192, attn_scale 0.1).
 * models/llama4/modeling_llama4.py (apply_rotary_emb,
 * Llama4TextAttention.__init__ and forward);
 * models/llama4/configuration_llama4.py (Llama4TextConfig defaults,
 * __post_init__). */
{.model_type = "llama4_text", .arch = NULL, .scheme = POSENC_SCHEME_MIXED,
 .layout = INTERLEAVED, .rotary = POSENC_ROTARY_PARTIAL, .partial_key = "partial_rotary_factor",
 .partial_default = 1.0, .base_key = "rope_theta", .base_default = 500000.0,
 .layers = POSENC_LAYERS_NO_ROPE, .no_rope_interval = 4, .qscale = POSENC_QSCALE_TEMPERATURE,
 .source = "models/llama4/modeling_llama4.py (apply_rotary_emb, Llama4TextAttention); "
           "models/llama4/configuration_llama4.py (Llama4TextConfig)"},
