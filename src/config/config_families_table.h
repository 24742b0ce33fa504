/* config_families_table.h - the registry's entries, included by
 * config_families.c only. An entry writes only what differs from the common
 * case (config_families.h says what a field left out means: partial rotary
 * from partial_rotary_factor, default 1; the base from rope_theta).
 * Sorted by model_type (byte order). Each entry's comment cites the code it
 * follows: "models/X" is zucchini-nlp/transformers src/transformers/models/X
 * (@commit where the notes give one; L = lines, else grep anchors in quotes);
 * "rope_utils" is its src/transformers/modeling_rope_utils.py @26892c16.
 * Remote-code families cite their model repository. docs/MODELS.md lists
 * them with the values marked uncertain in the research notes. */

/* ---- RefinedWeb / RefinedWebModel: Falcon's first remote-code configs.
 * RWConfig attribute_map num_hidden_layers -> n_layer, num_attention_heads ->
 * n_head; no rope_theta (base 10000); alibi key as Falcon. Read as falcon
 * (rotate_half, HALF). research: rope_families.md "falcon" (RWConfig in a
 * stored TGI copy). */
{.model_type = "RefinedWeb", .arch = "RW", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_key = FIXED_BASE,
 .base_default = 10000.0, .flags = POSENC_FAMILY_ALIBI_KEY,
 .source = "tiiuae/falcon-40b configuration_RW.py (RWConfig); models/falcon/modeling_falcon.py "
           "rotate_half"},
{.model_type = "RefinedWebModel", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_key = FIXED_BASE,
 .base_default = 10000.0, .flags = POSENC_FAMILY_ALIBI_KEY,
 .source = "tiiuae/falcon-7b configuration_RW.py (RWConfig); models/falcon/modeling_falcon.py "
           "rotate_half"},

/* ---- multimodal wrappers read through text_config (the language model is a
 * family of its own; its model_type when the part names one, else the
 * wrapper class's default sub-config, cited): aya_vision ... smolvlm. */
{.model_type = "aya_vision", .arch = NULL, .scheme = POSENC_SCHEME_MIXED, .layout = INTERLEAVED,
 .nested = "text_config", .nested_type = "cohere2",
 .source = "models/aya_vision/configuration_aya_vision.py L49 (text_config default cohere2; transformers 5.23.0)"},

/* ---- baichuan: one model_type, two schemes. ALiBi for 13B
 * (_get_interleave: the ALiBi paper's slopes), RoPE (rotate_half, base 10000,
 * full head) for the 7B models; chosen as vLLM does: hidden_size 4096 or
 * class BaiChuanForCausalLM -> RoPE, else ALiBi (uncertain rule, see
 * docs/MODELS.md). jrd77/Baichuan2-13B-Chat modeling_baichuan.py @a56c793e. */
{.model_type = "baichuan", .arch = "Baichuan", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_key = FIXED_BASE,
 .base_default = 10000.0, .flags = POSENC_FAMILY_BAICHUAN,
 .source = "jrd77/Baichuan2-13B-Chat modeling_baichuan.py @a56c793e (_get_interleave); "
           "vllm baichuan.py dispatch"},

/* ---- bart: learned absolute in both stacks, offset 2.
 * models/bart/modeling_bart.py @41d3f466 L65-89 (BartLearnedPositionalEmbedding,
 * offset = 2, rows max_position_embeddings + 2), L512-536 encoder, L657-679
 * decoder. */
{.model_type = "bart", .arch = "Bart", .scheme = POSENC_SCHEME_LEARNED,
 .layers = POSENC_LAYERS_ENC_DEC,
 .source = "models/bart/modeling_bart.py @41d3f466 L65-89, L512-536, L657-679"},

/* ---- bert: learned absolute, offset 0; transformers v5 removed
 * position_embedding_type relative_key(_query) (PR #41170).
 * models/bert/configuration_bert.py @3f832360 L87-109 (defaults);
 * huggingface/transformers bert/modeling_bert.py @8ec58104 L159-220. */
{.model_type = "bert", .arch = "Bert", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .source = "models/bert/configuration_bert.py @3f832360 L87-109; bert/modeling_bert.py "
           "@8ec58104 L159-220"},

/* ---- bloom: ALiBi on every layer, BLOOM's slopes (= the paper's).
 * models/bloom/modeling_bloom.py @e2412028 L54-95 (build_alibi_tensor),
 * L277-282; configuration_bloom.py @3f832360 L88-116 (n_layer 2, n_head 8). */
{.model_type = "bloom", .arch = "Bloom", .scheme = POSENC_SCHEME_ALIBI, .default_layers = 2,
 .default_hidden = 64, .default_heads = 8,
 .source = "models/bloom/modeling_bloom.py @e2412028 L54-95, L277-282"},

/* ---- chatglm (ChatGLM2/3, GLM-4-9B remote code): head_dim = kv_channels,
 * RotaryEmbedding(rotary_dim // 2): the first half of each head rotates, in
 * interleaved pairs (x.reshape(..., rot_dim // 2, 2)), base 10000 *
 * rope_ratio (ChatGLM3-32k / GLM-4 code; ChatGLM2-32k divides positions
 * instead, see docs/MODELS.md). czk1997/chatglm3-copy modeling_chatglm.py
 * @00f2a120 L122-159 (RotaryEmbedding), L161-179 (apply_rotary_pos_emb). */
{.model_type = "chatglm", .arch = "ChatGLM", .scheme = POSENC_SCHEME_ROPE,
 .layout = INTERLEAVED, .rotary = POSENC_ROTARY_HALF_HEAD, .base_key = FIXED_BASE, .base_default = 10000.0,
 .base_ratio_key = "rope_ratio", .head_dim_key = "kv_channels",
 .source = "czk1997/chatglm3-copy modeling_chatglm.py @00f2a120 L122-179"},

/* ---- cohere: repeat_interleave(freqs, 2) and a rotate_half on x[..., ::2],
 * x[..., 1::2]: interleaved, full head, every layer. stored modular_cohere2
 * (id 2603556805) CohereRotaryEmbedding. */
{.model_type = "cohere", .arch = "Cohere", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .source = "models/cohere/modeling_cohere.py (CohereRotaryEmbedding repeat_interleave, "
           "rotate_half)"},

/* ---- cohere2: interleaved RoPE on sliding layers only, full layers NoPE.
 * models/cohere2/modular_cohere2.py (Cohere2Attention: sliding_window only
 * for sliding_attention, RoPE when sliding_window is not None). */
{.model_type = "cohere2", .arch = "Cohere2", .scheme = POSENC_SCHEME_MIXED,
 .layout = INTERLEAVED, .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_NONE,
 .sliding_rope = POSENC_TROPE_SCALED,
 .source = "models/cohere2/modular_cohere2.py (Cohere2Attention)"},

/* ---- deepseek_v2: MLA; RoPE on the last qk_rope_head_dim elements of each
 * head, view_as_complex(reshape(..., -1, 2)): interleaved.
 * models/deepseek_v2/modeling_deepseek_v2.py (apply_rotary_emb). */
{.model_type = "deepseek_v2", .arch = "DeepseekV2", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .rotary = POSENC_ROTARY_QK_ROPE,
 .source = "models/deepseek_v2/modeling_deepseek_v2.py (apply_rotary_emb view_as_complex)"},

/* ---- deepseek_v3: as V2; rope_interleave (default true) selects
 * apply_rotary_pos_emb_interleave. models/deepseek_v3/modeling_deepseek_v3.py
 * @9bd8dd18 ("if self.config.rope_interleave"). */
{.model_type = "deepseek_v3", .arch = "DeepseekV3", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .rotary = POSENC_ROTARY_QK_ROPE, .flags = POSENC_FAMILY_INTERLEAVE_KEY,
 .source = "models/deepseek_v3/modeling_deepseek_v3.py @9bd8dd18 "
           "(apply_rotary_pos_emb_interleave)"},

/* ---- deepseek_v32 (DeepSeek V3.2): the MLA attention is DeepSeek V3's
 * (apply_rotary_pos_emb_interleave on the qk_rope_head_dim part), but DeepSeek
 * Sparse Attention's indexer, which picks the index_topk keys each query
 * attends to, rotates its own q and k half-split (apply_rotary_pos_emb on the
 * first qk_rope_head_dim of index_head_dim): two RoPEs in one layer, which a
 * layer's scheme here cannot say. Refused by name rather than half read.
 * models/deepseek_v32/modeling_deepseek_v32.py L160-222 (the indexer: "The
 * indexer uses NON-interleaved (half-split) RoPE"), L296-330, L405-430
 * (transformers 5.23.0). */
{.model_type = "deepseek_v32", .arch = "DeepseekV32", .scheme = POSENC_SCHEME_ROPE,
 .layout = INTERLEAVED, .rotary = POSENC_ROTARY_QK_ROPE,
 .refused = "DeepSeek Sparse Attention's indexer rotates its own q and k half-split beside "
            "the MLA attention's interleaved RoPE (two RoPEs in one layer); posenc describes "
            "one per layer",
 .source = "models/deepseek_v32/modeling_deepseek_v32.py L160-222, L296-330, L405-430 "
           "(transformers 5.23.0)"},

/* ---- distilbert: learned absolute table, or sinusoid (sin even, cos odd
 * elements of pos / 10000^(2(j//2)/dim)) with sinusoidal_pos_embds.
 * huggingface/transformers distilbert/modeling_distilbert.py @00b326f4
 * L85-107; models/distilbert/configuration_distilbert.py @3f832360 L82-102. */
{.model_type = "distilbert", .arch = "DistilBert", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 6, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .source = "distilbert/modeling_distilbert.py @00b326f4 L85-107; configuration_distilbert.py "
           "@3f832360 L82-102"},

/* ---- exaone4: RoPE on sliding layers only, full layers NoPE ("We use
 * global NoPE for hybrid attention model": if self.sliding_window is None or
 * self.is_sliding); sliding_window_pattern 4; rope_theta 10000.
 * models/exaone4/modular_exaone4.py @26892c16 L180-215 (defaults, pattern),
 * L239-280 (head_dim, is_sliding, the NoPE rule). */
{.model_type = "exaone4", .arch = "Exaone4", .scheme = POSENC_SCHEME_MIXED,
 .layout = HALF, .base_default = 10000.0, .layers = POSENC_LAYERS_BY_TYPE,
 .full_rope = POSENC_TROPE_NONE, .sliding_rope = POSENC_TROPE_SCALED, .sliding_pattern = 4,
 .default_hidden = 4096, .default_heads = 32, .flags = POSENC_FAMILY_ROPE_WITHOUT_WINDOW,
 .source = "models/exaone4/modular_exaone4.py @26892c16 L180-215, L239-280"},

{.model_type = "exaone4_5", .arch = NULL, .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .nested = "text_config", .nested_type = "exaone4",
 .source = "models/exaone4_5/configuration_exaone4_5.py L68 (text_config default exaone4; transformers 5.23.0)"},

/* ---- falcon: rotate_half RoPE over the head, or ALiBi with alibi: true:
 * BLOOM's slopes cast to bfloat16 (modeling_falcon.py @e2412028 L170-195),
 * the bias divided by sqrt(head_dim) (L896-903, the default SDPA path).
 * FalconConfig defaults (configuration_falcon.py @3f832360 L111-130): hidden
 * 4544, heads 71, layers 32, rope_theta 10000. */
{.model_type = "falcon", .arch = "Falcon", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_default = 10000.0,
 .default_layers = 32, .default_hidden = 4544, .default_heads = 71,
 .flags = POSENC_FAMILY_ALIBI_KEY,
 .source = "models/falcon/modeling_falcon.py @e2412028 L170-195, L896-903; "
           "configuration_falcon.py @3f832360 L111-130"},

/* ---- gemma: rotate_half, head_dim 256, every layer; base the mixin's
 * default_theta 10000 (rope_utils L635). models/gemma/configuration_gemma.py
 * @7b24e381 (GemmaConfig.__init__ defaults). */
{.model_type = "gemma", .arch = "Gemma", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_default = 10000.0,
 .default_layers = 28, .default_hidden = 3072, .default_heads = 16, .default_head_dim = 256,
 .source = "models/gemma/configuration_gemma.py @7b24e381 (GemmaConfig); rope_utils L635"},

/* ---- gemma2: rotate_half, one rotary for all layers (layer_types only
 * choose the mask). models/gemma2/modeling_gemma2.py @9bd8dd18 (rotate_half,
 * apply_rotary_pos_emb, Gemma2RotaryEmbedding, Gemma2Attention);
 * configuration_gemma2.py @26892c16 (defaults, layer_types). */
{.model_type = "gemma2", .arch = "Gemma2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_default = 10000.0,
 .default_layers = 26, .default_hidden = 2304, .default_heads = 8, .default_head_dim = 256,
 .source = "models/gemma2/modeling_gemma2.py @9bd8dd18 (rotate_half, Gemma2RotaryEmbedding); "
           "configuration_gemma2.py @26892c16"},

/* ---- gemma3: a wrapper; the language model is text_config.
 * models/gemma3/configuration_gemma3.py @26892c16 L283-290 (Gemma3Config,
 * sub_configs text_config). */
{.model_type = "gemma3", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "gemma3_text",
 .source = "models/gemma3/configuration_gemma3.py @26892c16 L283-290"},

/* ---- gemma3_text: sliding layers rope_local_base_freq (default 10000)
 * without scaling, full layers rope_theta (default 1e6) with rope_scaling;
 * layer_types from sliding_window_pattern 6 (every 6th layer full).
 * models/gemma3/configuration_gemma3.py @26892c16 L131 (default_theta), L141
 * (head_dim 256), L191-197 (pattern, layer_types), L202-230
 * (convert_rope_params_to_dict: rope_scaling to full_attention only L213,
 * bases L218-225); modeling_gemma3.py @16d622f0 (Gemma3RotaryEmbedding per
 * layer type, rotate_half). */
{.model_type = "gemma3_text", .arch = "Gemma3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,
 .sliding_rope = POSENC_TROPE_LOCAL, .local_base_key = "rope_local_base_freq",
 .local_base_default = 10000.0, .sliding_pattern = 6, .default_layers = 26,
 .default_hidden = 2304, .default_heads = 8, .default_head_dim = 256,
 .source = "models/gemma3/configuration_gemma3.py @26892c16 L131-230; modeling_gemma3.py "
           "@16d622f0 (Gemma3RotaryEmbedding)"},

/* ---- glm, glm4: interleaved pairs (x[..., 0::2], x[..., 1::2]) in the
 * first int(head_dim * partial_rotary_factor) elements (factor 0.5).
 * models/glm4/modeling_glm4.py (apply_rotary_pos_emb repeat_interleave,
 * rotate_half). */
{.model_type = "glm", .arch = "Glm", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .partial_default = 0.5,
 .source = "models/glm/modeling_glm.py (apply_rotary_pos_emb, rotate_half 0::2 1::2)"},
{.model_type = "glm4", .arch = "Glm4", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .partial_default = 0.5,
 .source = "models/glm4/modeling_glm4.py (apply_rotary_pos_emb, rotate_half 0::2 1::2)"},

/* ---- glm46v (GLM-4.6V): a wrapper, see glm4v below. */
{.model_type = "glm46v", .arch = "Glm46V", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .nested = "text_config", .nested_type = "glm4v_text",
 .source = "models/glm46v/configuration_glm46v.py L56 (transformers 5.23.0)"},

/* ---- glm4_moe: GPT-NeoX's partial rotate_half (HALF), partial factor 0.5.
 * models/glm4_moe/modular_glm4_moe.py @7b24e381 ("from
 * ..gpt_neox.modeling_gpt_neox import apply_rotary_pos_emb",
 * kwargs.setdefault("partial_rotary_factor", 0.5)). */
{.model_type = "glm4_moe", .arch = "Glm4Moe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_default = 0.5, .base_default = 10000.0, .default_hidden = 4096, .default_heads = 96,
 .source = "models/glm4_moe/modular_glm4_moe.py @7b24e381"},

/* ---- glm4v, glm4v_moe, glm_image, glm_ocr (and glm46v above): wrappers; the language
 * model is text_config (glm46v/configuration_glm46v.py L56 glm4v_text;
 * Glm4vConfig.sub_configs_defaults configuration_glm4v.py L159-161, likewise
 * glm4v_moe L193ff, glm_ocr, glm_image; transformers 5.23.0). */
{.model_type = "glm4v", .arch = "Glm4v", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .nested = "text_config", .nested_type = "glm4v_text",
 .source = "models/glm4v/configuration_glm4v.py L159-161 (transformers 5.23.0)"},
{.model_type = "glm4v_moe", .arch = "Glm4vMoe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "glm4v_moe_text",
 .source = "models/glm4v_moe/configuration_glm4v_moe.py (Glm4vMoeConfig; transformers 5.23.0)"},

/* ---- glm4v_moe_text (GLM-4.5V): GLM-4V's M-RoPE with GPT-NeoX's pairs:
 * recomposition_frequencies takes chunks of mrope_section (default
 * [8, 12, 12]) from t, h, w and concatenates two copies (cat([freq, freq])),
 * rotate_half over the first int(head_dim * partial_rotary_factor) elements
 * (default 0.5: kwargs.setdefault); rope_theta the mixin's 10000.
 * models/glm4v_moe/modeling_glm4v_moe.py L75 (default section), L89-91
 * (rotary dim), L112-117 (chunks, cat), L157-186 (rotate_half, partial);
 * configuration_glm4v_moe.py L86-89 (defaults), L118 (0.5); transformers
 * 5.23.0. */
{.model_type = "glm4v_moe_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_default = 0.5, .base_default = 10000.0, .default_layers = 46, .default_hidden = 4096,
 .default_heads = 96, .mrope_default = {8, 12, 12}, .flags = POSENC_FAMILY_MROPE,
 .source = "models/glm4v_moe/modeling_glm4v_moe.py L75, L89-91, L112-117, L157-186; "
           "configuration_glm4v_moe.py L86-89, L118 (transformers 5.23.0)"},

/* ---- glm4v_text (GLM-4.1V, GLM-4.6V): M-RoPE in GLM's interleaved pairs:
 * the P = rotary_dim / 2 pair frequencies are split by mrope_section
 * (default [8, 12, 12]) in chunks taken from t, h, w (the contiguous rule),
 * then repeat_interleave(2): pair k is (x[2k], x[2k + 1]) (rotate_half_llm
 * x[..., 0::2], x[..., 1::2]) in the first rotary_dim = int(head_dim *
 * partial_rotary_factor) elements (rope_parameters.get(.., 1.0): the
 * released configs give 0.5); rope_theta the mixin's 10000.
 * models/glm4v/modeling_glm4v.py L444 (default section), L457-460 (rotary
 * dim), L481-486 (chunks, repeat_interleave), L489-526 (rotate_half_llm,
 * partial); configuration_glm4v.py L111-117 (defaults); transformers 5.23.0. */
{.model_type = "glm4v_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .base_default = 10000.0, .default_layers = 40, .default_hidden = 4096, .default_heads = 32,
 .mrope_default = {8, 12, 12}, .flags = POSENC_FAMILY_MROPE,
 .source = "models/glm4v/modeling_glm4v.py L444, L457-460, L481-486, L489-526; "
           "configuration_glm4v.py L111-117 (transformers 5.23.0)"},

/* ---- glm_image: a wrapper (text_config glm_image_text); its text model is
 * GLM-4.5V's arrangement (chunks, cat([freq, freq]), rotate_half), partial
 * factor rope_parameters.get(.., 1.0). models/glm_image/modeling_glm_image.py
 * L67 (default section), L81-83, L104-109, L370-399; configuration_glm_image.py
 * L123-129 (defaults); transformers 5.23.0. */
{.model_type = "glm_image", .arch = "GlmImage", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "glm_image_text",
 .source = "models/glm_image/configuration_glm_image.py (GlmImageConfig; transformers 5.23.0)"},
{.model_type = "glm_image_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 40, .default_hidden = 4096, .default_heads = 32,
 .mrope_default = {8, 12, 12}, .flags = POSENC_FAMILY_MROPE,
 .source = "models/glm_image/modeling_glm_image.py L67, L81-83, L104-109, L370-399; "
           "configuration_glm_image.py L123-129 (transformers 5.23.0)"},

/* ---- glm_ocr: a wrapper (text_config glm_ocr_text), GLM-4.1V's arrangement
 * (chunks, repeat_interleave, rotate_half_llm). models/glm_ocr/modeling_glm_ocr.py
 * L124-153 (rotate_half_llm, partial), L652 (default section), L666-668,
 * L689-694; configuration_glm_ocr.py L112-118 (defaults); transformers 5.23.0. */
{.model_type = "glm_ocr", .arch = "GlmOcr", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .nested = "text_config", .nested_type = "glm_ocr_text",
 .source = "models/glm_ocr/configuration_glm_ocr.py (GlmOcrConfig; transformers 5.23.0)"},
{.model_type = "glm_ocr_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .base_default = 10000.0, .default_layers = 16, .default_hidden = 1024, .default_heads = 16,
 .mrope_default = {8, 12, 12}, .flags = POSENC_FAMILY_MROPE,
 .source = "models/glm_ocr/modeling_glm_ocr.py L124-153, L652, L666-668, L689-694; "
           "configuration_glm_ocr.py L112-118 (transformers 5.23.0)"},

/* ---- gpt2: learned absolute wpe, offset 0.
 * models/gpt2/modeling_gpt2.py @e2412028 L549-565, L648-657;
 * configuration_gpt2.py @3f832360 L125-138. */
{.model_type = "gpt2", .arch = "GPT2", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 1024,
 .source = "models/gpt2/modeling_gpt2.py @e2412028 L549-565, L648-657"},

/* ---- gpt_neox: rotate_half over the first int(head_dim * rotary_pct)
 * elements (rotary_pct 0.25), base rotary_emb_base 10000.
 * models/gpt_neox/configuration_gpt_neox.py (partial_rotary_factor =
 * rotary_pct, rope_theta = rotary_emb_base). */
{.model_type = "gpt_neox", .arch = "GPTNeoX", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_key = "rotary_pct", .partial_default = 0.25, .base_key = "rotary_emb_base",
 .base_default = 10000.0,
 .source = "models/gpt_neox/configuration_gpt_neox.py (rotary_pct, rotary_emb_base)"},

/* ---- gpt_oss: _apply_rotary_emb on torch.chunk(x, 2) halves: HALF, full
 * head; one rotary for sliding and full layers.
 * models/gpt_oss/modular_gpt_oss.py @b8f055a8 (GptOssRotaryEmbedding,
 * _apply_rotary_emb). */
{.model_type = "gpt_oss", .arch = "GptOss", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/gpt_oss/modular_gpt_oss.py @b8f055a8 (_apply_rotary_emb)"},

/* ---- gptj: rotate_every_two (interleaved) on the first rotary_dim elements,
 * base 10000 fixed (create_sinusoidal_positions). models/gptj/modeling_gptj.py
 * (rotate_every_two, create_sinusoidal_positions). */
{.model_type = "gptj", .arch = "GPTJ", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .rotary = POSENC_ROTARY_DIM_KEY, .base_key = FIXED_BASE, .base_default = 10000.0,
 .source = "models/gptj/modeling_gptj.py (rotate_every_two, create_sinusoidal_positions)"},

/* ---- granite: llama's RoPE (HALF, full head). */
{.model_type = "granite", .arch = "Granite", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/granite/modeling_granite.py (llama apply_rotary_pos_emb)"},

{.model_type = "idefics3", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "llama",
 .source = "models/idefics3/configuration_idefics3.py L81 (text_config default llama; transformers 5.23.0)"},

/* ---- internlm2 (remote code): rotate_half with cat(freqs, freqs), full
 * head, base rope_theta. NanSang2000/S1mpleAgent modeling_internlm2.py
 * @0143463e (rotate_half, InternLM2RotaryEmbedding). */
{.model_type = "internlm2", .arch = "InternLM2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "internlm2 modeling_internlm2.py @0143463e (copy: NanSang2000/S1mpleAgent)"},

{.model_type = "internvl", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "qwen2",
 .source = "models/internvl/configuration_internvl.py L110 (text_config default qwen2; transformers 5.23.0)"},

/* ---- internvl_chat (InternVL 1.5-3 remote code): InternVLChatModel builds
 * its language model from llm_config (architectures InternLM2ForCausalLM,
 * Qwen2ForCausalLM, LlamaForCausalLM, Phi3ForCausalLM): read as the family
 * llm_config names. OpenGVLab InternVL
 * internvl_chat/internvl/model/internvl_chat/configuration_internvl_chat.py
 * (llm_config by architectures[0]), modeling_internvl_chat.py
 * (self.language_model by llm_config.architectures[0]). */
{.model_type = "internvl_chat", .arch = "InternVLChat", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "llm_config",
 .source = "OpenGVLab/InternVL internvl_chat configuration_internvl_chat.py, "
           "modeling_internvl_chat.py (language_model from llm_config)"},

/* ---- kimi_k2 (Kimi K2 remote code): DeepSeek V3's model under its own
 * model_type ("Kimi-K2 reuses the DeepseekV3CausalLM architecture ... we set
 * model_type kimi_k2 in config.json", MoonshotAI/Kimi-K2 README.md; the
 * checkpoints' architectures are DeepseekV3ForCausalLM): read as
 * deepseek_v3 (MLA, the qk_rope_head_dim part interleaved; YaRN with
 * beta_fast == beta_slow as transformers computes it, src/math/scaling.c). */
{.model_type = "kimi_k2", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .rotary = POSENC_ROTARY_QK_ROPE, .flags = POSENC_FAMILY_INTERLEAVE_KEY,
 .source = "MoonshotAI/Kimi-K2 README.md (DeepseekV3CausalLM, model_type kimi_k2); "
           "models/deepseek_v3/modeling_deepseek_v3.py @9bd8dd18"},
{.model_type = "kimi_k25", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .nested = "text_config", .nested_type = "deepseek_v3",
 .source = "models/kimi_k25/configuration_kimi_k25.py L69 (text_config default deepseek_v3; transformers 5.23.0)"},

/* ---- llama: rotate_half (HALF), head_dim = hidden_size // heads,
 * rope_theta 10000. models/llama/modeling_llama.py @9bd8dd18 L94-159;
 * configuration_llama.py @26892c16 (LlamaConfig). */
{.model_type = "llama", .arch = "Llama", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_default = 10000.0,
 .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .source = "models/llama/modeling_llama.py @9bd8dd18 L94-159; configuration_llama.py @26892c16"},

/* ---- llama4: a wrapper; the language model is text_config.
 * models/llama4/configuration_llama4.py (Llama4Config.sub_configs). */
{.model_type = "llama4", .arch = NULL, .scheme = POSENC_SCHEME_MIXED, .layout = INTERLEAVED,
 .nested = "text_config", .nested_type = "llama4_text",
 .source = "models/llama4/configuration_llama4.py (Llama4Config)"},

/* ---- llama4_text: view_as_complex(reshape(..., -1, 2)): INTERLEAVED; RoPE
 * where no_rope_layers[i] (default int((i + 1) % no_rope_layer_interval != 0),
 * interval 4); NoPE layers with attn_temperature_tuning scale queries by
 * log1p(floor((pos + 1) / floor_scale)) * attn_scale + 1 (8192, 0.1);
 * rope_theta 500000. models/llama4/modeling_llama4.py @42791a34 L179-242
 * (rotary), L245-254 (apply_rotary_emb), L340 (use_rope), L372-387 (RoPE
 * only if use_rope; temperature tuning); configuration_llama4.py
 * (Llama4TextConfig defaults and __post_init__). */
{.model_type = "llama4_text", .arch = "Llama4", .scheme = POSENC_SCHEME_MIXED,
 .layout = INTERLEAVED, .base_default = 500000.0, .layers = POSENC_LAYERS_NO_ROPE,
 .no_rope_interval = 4, .qscale = POSENC_QSCALE_TEMPERATURE, .default_layers = 48,
 .default_hidden = 5120, .default_heads = 40, .default_head_dim = 128,
 .source = "models/llama4/modeling_llama4.py @42791a34 L245-254, L340, L372-387"},

{.model_type = "llava", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "llama",
 .source = "models/llava/configuration_llava.py L67 (text_config default llama; transformers 5.23.0)"},
/* ---- llava_llama (VILA remote code): LlavaLlamaModel builds its language
 * model from llm_cfg (a config.json of its own: llama or qwen2); read as the
 * family llm_cfg names (its model_type, else its architectures). */
{.model_type = "llava_llama", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "llm_cfg",
 .source = "NVlabs/VILA llava/model/language_model/llava_llama.py, llava/model/configuration_llava.py (llm_cfg)"},
{.model_type = "llava_next", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "llama",
 .source = "models/llava_next/configuration_llava_next.py L56 (text_config default llama; transformers 5.23.0)"},
{.model_type = "llava_onevision", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "qwen2",
 .source = "models/llava_onevision/configuration_llava_onevision.py L74 (text_config default qwen2; transformers 5.23.0)"},

/* ---- minicpm (remote code): MiniCPM's rotary classes (rotate_half, full
 * head); its longrope uses long_factor from the start when
 * max_position_embeddings > original_max_position_embeddings. */
{.model_type = "minicpm", .arch = "MiniCPM", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .flags = POSENC_FAMILY_LONG_FROM_MAXPOS,
 .source = "openbmb MiniCPM modeling_minicpm.py (MiniCPMRotaryEmbedding, MiniCPMLongRoPE)"},

/* ---- minicpm3 (remote code): MLA with RoPE on the qk_rope_head_dim part,
 * rotate_half without de-interleaving: HALF. rope_theta omitted: 10000, the
 * config class's default (transformers 5.23.0 modeling_rope_utils.py L760
 * default_theta, L785; MiniCPM3Config is a PreTrainedConfig, which mixes in
 * RotaryEmbeddingConfigMixin, configuration_utils.py L299; openbmb's
 * configuration_minicpm.py MiniCPM3Config.__init__ rope_theta=10000.0). */
{.model_type = "minicpm3", .arch = "MiniCPM3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0,
 .rotary = POSENC_ROTARY_QK_ROPE, .flags = POSENC_FAMILY_LONG_FROM_MAXPOS,
 .source = "openbmb/MiniCPM3-4B modeling_minicpm.py (rotate_half, MiniCPMLongRoPE; port id "
           "63332013972)"},

/* ---- minicpmv (MiniCPM-V 2.5 / 2.6 remote code): the language model's keys
 * at the top (MiniCPMVConfig subclasses Qwen2Config, or LlamaConfig for
 * MiniCPM-Llama3-V 2.5) and MiniCPMV builds self.llm = Qwen2ForCausalLM(config)
 * (LlamaForCausalLM): llama's RoPE (rotate_half, full head), rope_theta
 * default 10000. openbmb/MiniCPM-V-2_6 modeling_minicpmv.py (class MiniCPMV;
 * stored port id 2011170700), configuration_minicpm.py. */
{.model_type = "minicpmv", .arch = "MiniCPMV", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0,
 .source = "openbmb/MiniCPM-V-2_6 modeling_minicpmv.py (MiniCPMV: self.llm = Qwen2ForCausalLM)"},

/* ---- ministral3: llama-style RoPE; queries scaled after RoPE by
 * 1 + beta * log(1 + floor(pos / original_max_position_embeddings)) with
 * rope_parameters.llama_4_scaling_beta. models/ministral3/modeling_ministral3.py
 * (get_llama_4_attn_scale). */
{.model_type = "ministral3", .arch = "Ministral3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .qscale = POSENC_QSCALE_BETA,
 .source = "models/ministral3/modeling_ministral3.py (get_llama_4_attn_scale)"},

/* ---- mistral, mixtral: llama's RoPE (HALF, full head, every layer). */
{.model_type = "mistral", .arch = "Mistral", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/mistral/modeling_mistral.py (llama apply_rotary_pos_emb)"},

/* ---- mistral3: a wrapper; text_config (mistral or ministral3). */
{.model_type = "mistral3", .arch = "Mistral3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "mistral",
 .source = "models/mistral3/configuration_mistral3.py (Mistral3Config text_config)"},
{.model_type = "mixtral", .arch = "Mixtral", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/mixtral/modeling_mixtral.py (llama apply_rotary_pos_emb)"},

/* ---- molmo2 (Molmo 2): a wrapper; text_config molmo2_text is OLMo 2's
 * attention with llama's RoPE (rotate_half, cat(freqs, freqs), full head,
 * head_dim 128), rope_theta the mixin's 10000; the scaling only on
 * rope_scaling_layers (all layers by default; a subset with a scaled block
 * is refused, config_schemes.c molmo2_checks).
 * models/molmo2/modeling_molmo2.py L98-150, L210-239, L659-663;
 * configuration_molmo2.py L125-158 (defaults), L196 (text_config);
 * transformers 5.23.0. */
{.model_type = "molmo2", .arch = "Molmo2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "molmo2_text",
 .source = "models/molmo2/configuration_molmo2.py L196 (transformers 5.23.0)"},
{.model_type = "molmo2_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 36, .default_hidden = 4096, .default_heads = 32,
 .default_head_dim = 128,
 .source = "models/molmo2/modeling_molmo2.py L98-150, L210-239, L659-663; "
           "configuration_molmo2.py L125-158 (transformers 5.23.0)"},

/* ---- mpt: ALiBi on every layer; HF builds it with alibi_bias_max 8 whatever
 * attn_config says. models/mpt/modeling_mpt.py @e2412028 L42-62, L327;
 * configuration_mpt.py @3f832360 L157-175. */
{.model_type = "mpt", .arch = "Mpt", .scheme = POSENC_SCHEME_ALIBI, .default_layers = 24,
 .default_hidden = 2048, .default_heads = 16,
 .source = "models/mpt/modeling_mpt.py @e2412028 L42-62, L327"},

/* ---- mt5: T5's code ("Copied from transformers.models.t5"); MT5Config
 * num_layers 8, num_heads 6. models/mt5/modeling_mt5.py @e2412028,
 * configuration_mt5.py @3f832360 L71-88. */
{.model_type = "mt5", .arch = "MT5", .scheme = POSENC_SCHEME_RELATIVE_BUCKETS,
 .layers = POSENC_LAYERS_ENC_DEC, .default_layers = 8, .default_hidden = 512, .default_heads = 6,
 .source = "models/mt5/modeling_mt5.py (copied from T5Attention)"},

/* ---- olmo, olmo2: llama's RoPE. */
{.model_type = "olmo", .arch = "Olmo", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/olmo/modeling_olmo.py (llama apply_rotary_pos_emb)"},
{.model_type = "olmo2", .arch = "Olmo2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/olmo2/modeling_olmo2.py (llama apply_rotary_pos_emb)"},

/* ---- olmo3: rotate_half; the rope_scaling on full layers only, sliding
 * layers plain RoPE ("RoPE scaling is not applied to sliding window attention
 * layers"); layer_types default full every 4th layer.
 * models/olmo3/modular_olmo3.py @26892c16 L152-188 (defaults, layer_types),
 * L271 (the comment), L279-337 (one rotary for every layer in HF 5.x, a
 * regression; PR #40778 had rotary_embs per layer type). */
{.model_type = "olmo3", .arch = "Olmo3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_default = 10000.0,
 .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,
 .sliding_rope = POSENC_TROPE_PLAIN, .sliding_pattern = 4, .default_hidden = 4096,
 .default_heads = 32,
 .source = "models/olmo3/modular_olmo3.py @26892c16 L152-188, L271, L279-337"},

/* ---- opt: learned absolute, offset 2 (positions count non-pad tokens).
 * models/opt/modeling_opt.py @e2412028 L51-76, L314-349;
 * configuration_opt.py @3f832360 L89-109. */
{.model_type = "opt", .arch = "OPT", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 2048, .pos_offset = 2,
 .source = "models/opt/modeling_opt.py @e2412028 L51-76, L314-349"},

{.model_type = "paligemma", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "gemma",
 .source = "models/paligemma/configuration_paligemma.py L64 (text_config default gemma; transformers 5.23.0)"},

/* ---- phi: rotate_half over the first int(head_dim * partial_rotary_factor)
 * elements (default 0.5). */
{.model_type = "phi", .arch = "Phi", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .partial_default = 0.5,
 .source = "models/phi/modeling_phi.py (rotary_ndims, rotate_half)"},

/* ---- phi-msft: Phi-2's first remote-code release: n_embd, n_head, n_layer,
 * rotary_dim; _apply_rotary_emb chunks x[..., :rotary_dim] in halves: HALF;
 * base 10000 (uncertain: its rotary_base key was not read). */
{.model_type = "phi-msft", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .rotary = POSENC_ROTARY_DIM_KEY, .base_key = FIXED_BASE, .base_default = 10000.0,
 .source = "microsoft/phi-2 modeling_phi.py first release (_apply_rotary_emb; stored copy id "
           "1113732749)"},

/* ---- phi3: rotate_half over the rotary part; "su" and "yarn" in Phi-3
 * configs mean longrope. models/phi3/configuration_phi3.py
 * (convert_rope_params_to_dict: rope_type in ["su", "yarn"] -> "longrope"). */
{.model_type = "phi3", .arch = "Phi3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .flags = POSENC_FAMILY_YARN_IS_LONGROPE,
 .source = "models/phi3/configuration_phi3.py (su/yarn -> longrope); rope_utils L396-481"},

/* ---- phimoe: longrope frequencies, cos and sin times short_mscale (long_mscale
 * past the original length) instead of the attention factor; taken when the
 * two are equal, else refused. models/phimoe/modular_phimoe.py
 * (PhimoeRotaryEmbedding: "mscale = self.long_mscale if seq_len > ..."),
 * rope_theta 1e6 (PhimoeConfig docs). */
{.model_type = "phimoe", .arch = "PhiMoE", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .flags = POSENC_FAMILY_MSCALE_PAIR,
 .source = "models/phimoe/modular_phimoe.py (PhimoeRotaryEmbedding short_mscale/long_mscale)"},

/* ---- qwen (Qwen 1 remote code): head_dim kv_channels, rotary_pct,
 * rotary_emb_base, rotate_half (HALF); dynamic NTK (use_dynamic_ntk) and
 * log-n query scaling (use_logn_attn) against seq_length.
 * undefdev/Qwen-7B-Chat modeling_qwen.py @04df5dd5 (RotaryEmbedding,
 * _rotate_half, QWenAttention logn_list, ntk_alpha). */
{.model_type = "qwen", .arch = "QWen", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .partial_key = "rotary_pct",
 .base_key = "rotary_emb_base", .head_dim_key = "kv_channels", .qscale = POSENC_QSCALE_LOGN,
 .source = "Qwen/Qwen-7B-Chat modeling_qwen.py @04df5dd5 (copy: undefdev/Qwen-7B-Chat)"},

/* ---- qwen2, qwen2_moe, qwen3, qwen3_moe: llama's RoPE (HALF, full head).
 * qwen2's defaults are Qwen2Config's (a sparse text_config such as
 * Qwen2-Audio's relies on them): models/qwen2/configuration_qwen2.py L62-65
 * (hidden 4096, layers 32, heads 32), rope_theta the mixin's default_theta
 * 10000 (modeling_rope_utils.py L760, L785); transformers 5.23.0. */
{.model_type = "qwen2", .arch = "Qwen2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .source = "models/qwen2/modeling_qwen2.py (llama apply_rotary_pos_emb); "
           "configuration_qwen2.py L62-65 (transformers 5.23.0)"},

/* ---- qwen2_5_omni (Qwen2.5-Omni): the thinker's text model,
 * thinker_config.text_config (Qwen2_5OmniConfig.get_text_config returns
 * thinker_config.get_text_config(), configuration_qwen2_5_omni.py L586-598);
 * qwen2_5_omni_text is Qwen2-VL's M-RoPE (chunks of mrope_section, default
 * [16, 24, 24], cat(freq, freq), rotate_half), rope_theta 1e6.
 * models/qwen2_5_omni/modeling_qwen2_5_omni.py L1314 (default section),
 * L1349-1354 (chunks), L977-981 (rotate_half); configuration_qwen2_5_omni.py
 * L151-176 (default_theta, hidden 3584, layers 28, heads 28); transformers
 * 5.23.0. */
{.model_type = "qwen2_5_omni", .arch = "Qwen2_5Omni", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "thinker_config.text_config", .nested_type = "qwen2_5_omni_text",
 .source = "models/qwen2_5_omni/configuration_qwen2_5_omni.py L586-598 (transformers 5.23.0)"},
{.model_type = "qwen2_5_omni_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .default_layers = 28, .default_hidden = 3584, .default_heads = 28,
 .mrope_default = {16, 24, 24}, .flags = POSENC_FAMILY_MROPE,
 .source = "models/qwen2_5_omni/modeling_qwen2_5_omni.py L977-981, L1314, L1349-1354; "
           "configuration_qwen2_5_omni.py L151-176 (transformers 5.23.0)"},
{.model_type = "qwen2_5_omni_thinker", .arch = "Qwen2_5OmniThinker", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .nested = "text_config", .nested_type = "qwen2_5_omni_text",
 .source = "models/qwen2_5_omni/configuration_qwen2_5_omni.py L255-263 (transformers 5.23.0)"},

/* ---- qwen2_vl, qwen2_5_vl: wrappers; the language model is text_config
 * (qwen2_vl_text), or the top of an older config (Qwen2VLConfig moves the
 * flat text keys into text_config, configuration_qwen2_vl.py L173-179).
 * qwen2_vl_text: qwen2's RoPE with M-RoPE sections: the code reads
 * rope_parameters.get("mrope_section", [16, 24, 24]), splits the pair values
 * in chunks from t, h, w and concatenates two copies (rotate_half pairs).
 * models/qwen2_vl/modeling_qwen2_vl.py L102 (default section), L114-116
 * (full head), L137-142 (chunks, cat), L491 (head_dim = hidden / heads);
 * configuration_qwen2_vl.py L68 (default_theta 1e6), L87-90 (defaults);
 * Qwen2.5-VL the same: modeling_qwen2_5_vl.py L504, L539-544,
 * configuration_qwen2_5_vl.py L91, L110-113, L196-201; transformers 5.23.0. */
{.model_type = "qwen2_5_vl", .arch = "Qwen2_5_VL", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "qwen2_5_vl_text", .flags = POSENC_FAMILY_PART_OPTIONAL,
 .source = "models/qwen2_5_vl/configuration_qwen2_5_vl.py L196-201 (transformers 5.23.0)"},
{.model_type = "qwen2_5_vl_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .default_layers = 80, .default_hidden = 8192, .default_heads = 64,
 .mrope_default = {16, 24, 24}, .flags = POSENC_FAMILY_MROPE,
 .source = "models/qwen2_5_vl/modeling_qwen2_5_vl.py L504, L539-544; configuration_qwen2_5_vl.py "
           "L91, L110-113 (transformers 5.23.0)"},
{.model_type = "qwen2_audio", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "qwen2",
 .source = "models/qwen2_audio/configuration_qwen2_audio.py L95 (text_config default qwen2; "
           "transformers 5.23.0)"},
{.model_type = "qwen2_moe", .arch = "Qwen2Moe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/qwen2_moe/modeling_qwen2_moe.py (llama apply_rotary_pos_emb)"},
{.model_type = "qwen2_vl", .arch = "Qwen2VL", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "qwen2_vl_text", .flags = POSENC_FAMILY_PART_OPTIONAL,
 .source = "models/qwen2_vl/configuration_qwen2_vl.py L157-179 (transformers 5.23.0)"},
{.model_type = "qwen2_vl_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .default_layers = 80, .default_hidden = 8192, .default_heads = 64,
 .mrope_default = {16, 24, 24}, .flags = POSENC_FAMILY_MROPE,
 .source = "models/qwen2_vl/modeling_qwen2_vl.py L102, L114-116, L137-142, L491; "
           "configuration_qwen2_vl.py L68, L87-90 (transformers 5.23.0)"},
{.model_type = "qwen3", .arch = "Qwen3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .default_head_dim = 128,
 .source = "models/qwen3/modeling_qwen3.py (llama apply_rotary_pos_emb)"},
/* ---- qwen3_moe: head_dim omitted is hidden_size / num_attention_heads, not
 * qwen3's 128: Qwen3MoeConfig has no head_dim field and the attention takes
 * getattr(config, "head_dim", hidden_size // num_attention_heads)
 * (transformers 5.23.0 models/qwen3_moe/modeling_qwen3_moe.py L128; found by
 * tools/hf_probe.py on Qwen3MoeConfig's defaults: 2048 / 32 = 64). */
{.model_type = "qwen3_moe", .arch = "Qwen3Moe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/qwen3_moe/modeling_qwen3_moe.py (llama apply_rotary_pos_emb; head_dim L128 "
           "in 5.23.0)"},

/* ---- qwen3_omni_moe (Qwen3-Omni): thinker_config.text_config
 * (configuration_qwen3_omni_moe.py L613-625); qwen3_omni_moe_text is
 * Qwen3-VL's interleaved M-RoPE (default section [24, 20, 20], the round
 * robin of recomposition_frequencies whatever "interleaved" and
 * "mrope_interleaved" say: neither is read), rotate_half, rope_theta 1e6.
 * models/qwen3_omni_moe/modeling_qwen3_omni_moe.py L1255 (default section),
 * L1292-1301 (round robin), L859-863 (rotate_half), L1436 (head_dim);
 * configuration_qwen3_omni_moe.py L131-164 (default_theta, hidden 2048,
 * layers 28, heads 28); transformers 5.23.0. */
{.model_type = "qwen3_omni_moe", .arch = "Qwen3OmniMoe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "thinker_config.text_config", .nested_type = "qwen3_omni_moe_text",
 .source = "models/qwen3_omni_moe/configuration_qwen3_omni_moe.py L613-625 (transformers 5.23.0)"},
{.model_type = "qwen3_omni_moe_text", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .default_layers = 28, .default_hidden = 2048, .default_heads = 28,
 .mrope_default = {24, 20, 20}, .flags = POSENC_FAMILY_MROPE | POSENC_FAMILY_MROPE_ROUND_ROBIN,
 .source = "models/qwen3_omni_moe/modeling_qwen3_omni_moe.py L859-863, L1255, L1292-1301, L1436; "
           "configuration_qwen3_omni_moe.py L131-164 (transformers 5.23.0)"},
{.model_type = "qwen3_omni_moe_thinker", .arch = "Qwen3OmniMoeThinker", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .nested = "text_config", .nested_type = "qwen3_omni_moe_text",
 .source = "models/qwen3_omni_moe/configuration_qwen3_omni_moe.py L222-230 (transformers 5.23.0)"},

/* ---- qwen3_vl, qwen3_vl_moe: wrappers whose text_config (qwen3_vl_text,
 * qwen3_vl_moe_text) is qwen3's RoPE with interleaved M-RoPE: the code reads
 * rope_parameters.get("mrope_section", [24, 20, 20]) and always takes h at
 * slice(1, 3 s_h, 3), w at slice(2, 3 s_w, 3), t elsewhere
 * (mrope_interleaved is not read). models/qwen3_vl/modeling_qwen3_vl.py L369
 * (default section), L406-415 (round robin); configuration_qwen3_vl.py
 * L81-90 (default_theta 5e5, hidden 4096, layers 32, heads 32, head_dim 128);
 * qwen3_vl_moe/modeling_qwen3_vl_moe.py L769, L806-815,
 * configuration_qwen3_vl_moe.py L82-86, L108, L117 (head_dim = hidden /
 * heads when absent); transformers 5.23.0. */
{.model_type = "qwen3_vl", .arch = "Qwen3VL", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "qwen3_vl_text",
 .source = "models/qwen3_vl/modeling_qwen3_vl.py (interleaved M-RoPE)"},
{.model_type = "qwen3_vl_moe", .arch = "Qwen3VLMoe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "qwen3_vl_moe_text",
 .source = "models/qwen3_vl_moe/configuration_qwen3_vl_moe.py (Qwen3VLMoeConfig; transformers "
           "5.23.0)"},
{.model_type = "qwen3_vl_moe_text", .arch = "Qwen3VLMoeText", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .base_default = 500000.0, .default_layers = 24, .default_hidden = 2048,
 .default_heads = 16, .mrope_default = {24, 20, 20},
 .flags = POSENC_FAMILY_MROPE | POSENC_FAMILY_MROPE_ROUND_ROBIN,
 .source = "models/qwen3_vl_moe/modeling_qwen3_vl_moe.py L769, L806-815; "
           "configuration_qwen3_vl_moe.py L82-86, L108, L117 (transformers 5.23.0)"},
{.model_type = "qwen3_vl_text", .arch = "Qwen3VLText", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 500000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .default_head_dim = 128, .mrope_default = {24, 20, 20},
 .flags = POSENC_FAMILY_MROPE | POSENC_FAMILY_MROPE_ROUND_ROBIN,
 .source = "models/qwen3_vl/modeling_qwen3_vl.py L369, L406-415; configuration_qwen3_vl.py L81-90 "
           "(transformers 5.23.0)"},

/* ---- roberta: learned absolute, offset padding_idx + 1 (pad_token_id 1).
 * roberta/modeling_roberta.py @87b236ba L49-135 and
 * create_position_ids_from_input_ids; models/roberta/configuration_roberta.py
 * @3f832360 L87-103. */
{.model_type = "roberta", .arch = "Roberta", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 12, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .pos_offset = -1,
 .source = "roberta/modeling_roberta.py @87b236ba L49-135; configuration_roberta.py @3f832360"},

/* ---- smollm3: llama's RoPE where no_rope_layers[i] is 1 (default NoPE
 * every no_rope_layer_interval = 4 layers), no query scaling.
 * models/smollm3/modular_smollm3.py (SmolLM3Config, SmolLM3Attention.use_rope). */
{.model_type = "smollm3", .arch = "SmolLM3", .scheme = POSENC_SCHEME_MIXED,
 .layout = HALF, .layers = POSENC_LAYERS_NO_ROPE, .no_rope_interval = 4,
 .source = "models/smollm3/modular_smollm3.py (SmolLM3Attention.use_rope)"},

{.model_type = "smolvlm", .arch = NULL, .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "llama",
 .source = "models/smolvlm/configuration_smolvlm.py L89 (text_config default llama; transformers "
           "5.23.0)"},

/* ---- stablelm: rotate_half over int(head_dim * partial_rotary_factor). */
{.model_type = "stablelm", .arch = "StableLm", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_default = 0.25,
 .source = "models/stablelm/modeling_stablelm.py (partial rotary, rotate_half)"},

/* ---- starcoder2: llama's RoPE. */
{.model_type = "starcoder2", .arch = "Starcoder2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/starcoder2/modeling_starcoder2.py (llama apply_rotary_pos_emb)"},

/* ---- t5: relative position buckets, one table per stack (layer 0 owns it,
 * every layer of the stack adds it); encoder bidirectional, decoder causal.
 * models/t5/modeling_t5.py @e2412028 L153-254, L636-651, L758-786;
 * configuration_t5.py @3f832360 L72-104. */
{.model_type = "t5", .arch = "T5", .scheme = POSENC_SCHEME_RELATIVE_BUCKETS,
 .layers = POSENC_LAYERS_ENC_DEC, .default_layers = 6, .default_hidden = 512, .default_heads = 8,
 .source = "models/t5/modeling_t5.py @e2412028 L153-254, L636-651, L758-786"},

/* ---- whisper: encoder fixed sinusoids (sines then cosines of
 * pos * 10000^(-k/(C/2-1))), decoder learned, offset 0.
 * models/whisper/modeling_whisper.py @e2412028 L53-62, L567-589, L202-210,
 * L701-721; configuration_whisper.py @3f832360 L181-211. */
{.model_type = "whisper", .arch = "Whisper", .scheme = POSENC_SCHEME_MIXED,
 .layers = POSENC_LAYERS_ENC_DEC,
 .source = "models/whisper/modeling_whisper.py @e2412028 L53-62, L202-210, L567-589, L701-721"},

