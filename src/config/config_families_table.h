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

/* ---- baichuan: one model_type, two schemes. ALiBi for 13B
 * (_get_interleave: the ALiBi paper's slopes), RoPE (rotate_half, base 10000,
 * full head) for the 7B models; chosen as vLLM does: hidden_size 4096 or
 * class BaiChuanForCausalLM -> RoPE, else ALiBi (uncertain rule, see
 * docs/MODELS.md). jrd77/Baichuan2-13B-Chat modeling_baichuan.py @a56c793e. */
{.model_type = "baichuan", .arch = "Baichuan", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .base_key = FIXED_BASE,
 .base_default = 10000.0, .flags = POSENC_FAMILY_BAICHUAN,
 .source = "jrd77/Baichuan2-13B-Chat modeling_baichuan.py @a56c793e (_get_interleave); "
           "vllm baichuan.py dispatch"},

/* ---- bailing_hybrid: KDA (linear attention) layers and MLA layers (every
 * layer_group_size = 6th layer) whose qk_rope_head_dim part rotates in
 * DeepSeek's interleaved pairs (apply_rotary_pos_emb_interleave: x[0::2],
 * x[1::2]); rope_theta 6e6. transformers 5.23.0
 * models/bailing_hybrid/configuration_bailing_hybrid.py L103, L126-130,
 * L143-159; modeling_bailing_hybrid.py L253-289, L372-373, L837-841. */
{.model_type = "bailing_hybrid", .arch = "BailingHybrid", .scheme = POSENC_SCHEME_MIXED,
 .layout = INTERLEAVED, .rotary = POSENC_ROTARY_QK_ROPE, .base_default = 6000000.0,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_LINEAR, .period_key = "layer_group_size",
 .kinds_period = 6, .kinds_offset = KINDS_LAST,
 .source = "models/bailing_hybrid/configuration_bailing_hybrid.py L103, L126-130, L143-159; "
           "modeling_bailing_hybrid.py L253-289, L372-373, L837-841 (transformers 5.23.0)"},

/* ---- bamba: Mamba 2 layers and attention layers; attention layers
 * (attn_layer_indices; absent: none) rotate_half RoPE over
 * int(head_dim * 0.5) (partial_rotary_factor hard-coded 0.5), mamba layers
 * none. transformers 5.23.0 models/bamba/configuration_bamba.py L66
 * (attn_layer_indices), L92 (partial 0.5), L96-101 (layers_block_type:
 * "full_attention" if i in attn_layer_indices else "linear_attention");
 * modeling_bamba.py L80-81 (rotary dim), L99-103, L144 (rotate_half),
 * L224 (RoPE in BambaAttention), L851-853 (mamba or attention); rope_theta
 * default 10000 (modeling_rope_utils.py L760 default_theta). */
{.model_type = "bamba", .arch = "Bamba", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 10000.0, .partial_default = 0.5, .layers = POSENC_LAYERS_KINDS,
 .index_key = "attn_layer_indices", .kinds = KINDS_MAMBA, .flags = POSENC_FAMILY_INDEX_NONE,
 .source = "models/bamba/configuration_bamba.py L66, L92, L96-101; modeling_bamba.py L80-81, "
           "L144, L224, L851-853 (transformers 5.23.0)"},

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

/* ---- falcon_h1: every layer is "hybrid" (attention and a Mamba 2 mixer
 * side by side), the attention rotate_half RoPE over the head.
 * transformers 5.23.0 models/falcon_h1/configuration_falcon_h1.py L132-134
 * (layers_block_type all "hybrid"); modeling_falcon_h1.py L98-106
 * (rotate_half), L212 (RoPE in FalconH1Attention), L1186 (every layer
 * hybrid); rope_theta default 10000 (modeling_rope_utils.py L760). */
{.model_type = "falcon_h1", .arch = "FalconH1", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0,
 .source = "models/falcon_h1/configuration_falcon_h1.py L132-134; modeling_falcon_h1.py L98-106, "
           "L212, L1186 (transformers 5.23.0)"},

/* ---- falcon_mamba: Mamba layers only, no attention: no positions.
 * transformers 5.23.0 models/falcon_mamba/modeling_falcon_mamba.py (no
 * attention, no position input). */
{.model_type = "falcon_mamba", .arch = "FalconMamba", .scheme = POSENC_SCHEME_NONE,
 .kinds = KINDS_SSM,
 .source = "models/falcon_mamba/modeling_falcon_mamba.py (mamba mixers only; transformers "
           "5.23.0)"},

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

/* ---- glm4_moe: GPT-NeoX's partial rotate_half (HALF), partial factor 0.5.
 * models/glm4_moe/modular_glm4_moe.py @7b24e381 ("from
 * ..gpt_neox.modeling_gpt_neox import apply_rotary_pos_emb",
 * kwargs.setdefault("partial_rotary_factor", 0.5)). */
{.model_type = "glm4_moe", .arch = "Glm4Moe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_default = 0.5, .base_default = 10000.0, .default_hidden = 4096, .default_heads = 96,
 .source = "models/glm4_moe/modular_glm4_moe.py @7b24e381"},

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

/* ---- granitemoehybrid (Granite 4.0-H): Mamba 2 layers and attention
 * layers (layer_types, legacy names "mamba" and "attention"; default all
 * mamba); the attention rotate_half RoPE when position_embedding_type is
 * "rope", else (null, "nope") no RoPE at all. transformers 5.23.0
 * models/granitemoehybrid/configuration_granitemoehybrid.py L54, L94-95,
 * L116-117 (rope_theta default 10000: modeling_rope_utils.py L760);
 * modeling_granitemoehybrid.py L51-59, L124, L167 (RoPE only
 * with position embeddings), L956-960, L1056 (rotary_emb only for "rope");
 * configuration_utils.py L94-96 (legacy names). */
{.model_type = "granitemoehybrid", .arch = "GraniteMoeHybrid", .scheme = POSENC_SCHEME_MIXED,
 .layout = HALF, .base_default = 10000.0, .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_MAMBA,
 .flags = POSENC_FAMILY_ROPE_KEY,
 .source = "models/granitemoehybrid/configuration_granitemoehybrid.py L54, L94-95, L116-117; "
           "modeling_granitemoehybrid.py L124, L167, L956-960, L1056 (transformers 5.23.0)"},

/* ---- internlm2 (remote code): rotate_half with cat(freqs, freqs), full
 * head, base rope_theta. NanSang2000/S1mpleAgent modeling_internlm2.py
 * @0143463e (rotate_half, InternLM2RotaryEmbedding). */
{.model_type = "internlm2", .arch = "InternLM2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "internlm2 modeling_internlm2.py @0143463e (copy: NanSang2000/S1mpleAgent)"},

/* ---- jamba: attention every attn_layer_period layers at attn_layer_offset
 * (8, 4), Mamba elsewhere; the attention has no RoPE (JambaAttention never
 * calls apply_rotary_pos_emb): no layer encodes positions. transformers
 * 5.23.0 models/jamba/configuration_jamba.py L89-90, L108-113
 * (layers_block_type); modeling_jamba.py L153-200 (JambaAttention, no
 * rotary), L831-844. */
{.model_type = "jamba", .arch = "Jamba", .scheme = POSENC_SCHEME_NONE,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_MAMBA_NOPE, .period_key = "attn_layer_period",
 .offset_key = "attn_layer_offset", .kinds_period = 8, .kinds_offset = 4,
 .source = "models/jamba/configuration_jamba.py L89-90, L108-113; modeling_jamba.py L153-200, "
           "L831-844 (transformers 5.23.0)"},

/* ---- kimi_linear: Kimi Delta Attention (linear) layers and MLA layers
 * whose rotary part is never rotated (KimiLinearAttention splits k_rot and
 * calls no rotary function): no layer encodes positions. layer_types, else
 * linear_attn_config.full_attn_layers (1-based, the rest KDA layers); the
 * class's own default (full where i and i % 4 == 0) is written out by
 * to_dict. transformers 5.23.0 models/kimi_linear/configuration_kimi_linear.py
 * L109, L123-141; modeling_kimi_linear.py L203-300 (KimiLinearAttention, no
 * rotary), L787-792. */
{.model_type = "kimi_linear", .arch = "KimiLinear", .scheme = POSENC_SCHEME_NONE,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_KIMI_LINEAR,
 .index_key = "linear_attn_config.full_attn_layers", .index_base = 1,
 .source = "models/kimi_linear/configuration_kimi_linear.py L109, L123-141; "
           "modeling_kimi_linear.py L203-300, L787-792 (transformers 5.23.0)"},

/* ---- lfm2: short-convolution layers and attention layers (layer_types
 * "conv" / "full_attention", else full_attn_idxs, default every layer
 * attention); the attention rotate_half RoPE over the head, rope_theta 1e6.
 * transformers 5.23.0 models/lfm2/configuration_lfm2.py L56 (default_theta),
 * L59-62, L78-88 (layer_types from full_attn_idxs); modeling_lfm2.py
 * L131-139 (rotate_half), L209 (head_dim), L236, L387 (attention unless
 * "conv"). */
{.model_type = "lfm2", .arch = "Lfm2", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 1000000.0, .default_layers = 32, .default_hidden = 2560, .default_heads = 32,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_CONV, .index_key = "full_attn_idxs",
 .flags = POSENC_FAMILY_INDEX_ALL,
 .source = "models/lfm2/configuration_lfm2.py L56-62, L78-88; modeling_lfm2.py L131-139, L209, "
           "L236, L387 (transformers 5.23.0)"},

/* ---- lfm2_moe: LFM2's layers with MoE MLPs; layer_types has no default
 * (None: the model cannot be built), rope_theta 1e6. transformers 5.23.0
 * models/lfm2_moe/configuration_lfm2_moe.py L61-77, L88;
 * modeling_lfm2_moe.py L216-224 (rotate_half), L321, L472. */
{.model_type = "lfm2_moe", .arch = "Lfm2Moe", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 1000000.0, .default_hidden = 2048, .default_layers = 32, .default_heads = 32,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_CONV,
 .source = "models/lfm2_moe/configuration_lfm2_moe.py L61-77, L88; modeling_lfm2_moe.py "
           "L216-224, L321, L472 (transformers 5.23.0)"},

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

/* ---- mamba, mamba2: Mamba layers only, no attention: no positions.
 * transformers 5.23.0 models/mamba/modeling_mamba.py,
 * models/mamba2/modeling_mamba2.py (mixers only, no position input). */
{.model_type = "mamba", .arch = "Mamba", .scheme = POSENC_SCHEME_NONE, .kinds = KINDS_SSM,
 .source = "models/mamba/modeling_mamba.py (mamba mixers only; transformers 5.23.0)"},
{.model_type = "mamba2", .arch = "Mamba2", .scheme = POSENC_SCHEME_NONE, .kinds = KINDS_SSM,
 .source = "models/mamba2/modeling_mamba2.py (mamba2 mixers only; transformers 5.23.0)"},

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

/* ---- minimax: lightning (linear) attention layers and softmax attention
 * layers (layer_types, default full on even layers); the softmax layers
 * rotate_half RoPE over the head, rope_theta 1e6. transformers 5.23.0
 * models/minimax/configuration_minimax.py L63, L110, L123-126;
 * modeling_minimax.py L125 (MiniMaxLightningAttention, no positions),
 * L321-329 (rotate_half), L425, L542 (the kind per layer). */
{.model_type = "minimax", .arch = "MiniMax", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 1000000.0, .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_LINEAR,
 .kinds_period = 2, .kinds_offset = 0,
 .source = "models/minimax/configuration_minimax.py L63, L110, L123-126; modeling_minimax.py "
           "L125, L321-329, L425, L542 (transformers 5.23.0)"},

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

/* ---- mllama (Llama 3.2 Vision): a wrapper; text_config (mllama_text_model)
 * is llama's RoPE (llama3 scaling, rope_theta 500000) on its self-attention
 * layers, and the cross_attention_layers attend to image tokens without
 * positions. transformers 5.23.0 models/mllama/configuration_mllama.py
 * L120-145 (MllamaTextConfig: default_theta, cross_attention_layers default
 * [3, 8, ..., 38]), L174-182; modeling_mllama.py L476-484 (rotate_half),
 * L548 (RoPE in self-attention only), L1022-1031 (cross-attention layers). */
{.model_type = "mllama", .arch = "Mllama", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .nested = "text_config", .nested_type = "mllama_text_model",
 .source = "models/mllama/configuration_mllama.py L174-182 (transformers 5.23.0)"},
{.model_type = "mllama_text_model", .arch = "MllamaText", .scheme = POSENC_SCHEME_MIXED,
 .layout = HALF, .base_default = 500000.0, .default_layers = 40, .default_hidden = 4096,
 .default_heads = 32, .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_CROSS,
 .index_key = "cross_attention_layers",
 .source = "models/mllama/configuration_mllama.py L120-145; modeling_mllama.py L476-484, L548, "
           "L1022-1031 (transformers 5.23.0)"},

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

/* ---- nemotron_h: Mamba 2, attention, MLP and MoE layers (layers_block_type,
 * or hybrid_override_pattern "M" / "*" / "-" / "E"; its length is the
 * number of layers); the attention has no RoPE (NemotronHAttention never
 * calls apply_rotary_pos_emb): no layer encodes positions. transformers
 * 5.23.0 models/nemotron_h/configuration_nemotron_h.py L84, L171-189,
 * L239-245, L279-282 (pattern letters); modeling_nemotron_h.py L868-940
 * (NemotronHAttention, no rotary), L953-954 (mixer per kind). */
{.model_type = "nemotron_h", .arch = "NemotronH", .scheme = POSENC_SCHEME_NONE,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_NEMOTRON_H, .pattern_key = "hybrid_override_pattern",
 .flags = POSENC_FAMILY_LIST_COUNTS,
 .source = "models/nemotron_h/configuration_nemotron_h.py L84, L171-189, L279-282; "
           "modeling_nemotron_h.py L868-940, L953-954 (transformers 5.23.0)"},

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

/* ---- olmo_hybrid: Gated DeltaNet (linear attention) layers and attention
 * layers (layer_types, default full where i % 4 == 3, else the last layer);
 * the attention rotate_half RoPE when rope_parameters has a rope_theta
 * (modeling L896-900), which transformers 5.23 fills with the mixin's
 * default 10000 when the config says null (configuration_utils's RoPE
 * standardization; checked by tools/hf_probe.py on a config with
 * "rope_parameters": null). transformers 5.23.0
 * models/olmo_hybrid/configuration_olmo_hybrid.py L91-108, L121-130;
 * modeling_olmo_hybrid.py L127-160 (apply_rotary_pos_emb, rotate_half),
 * L174, L216-218, L886-900, L952. */
{.model_type = "olmo_hybrid", .arch = "OlmoHybrid", .scheme = POSENC_SCHEME_MIXED,
 .layout = HALF, .base_default = 10000.0, .default_layers = 32, .default_hidden = 3840,
 .default_heads = 30, .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_LINEAR, .kinds_period = 4,
 .kinds_offset = 3, .flags = POSENC_FAMILY_LAST_IF_NONE,
 .source = "models/olmo_hybrid/configuration_olmo_hybrid.py L91-108, L121-130; "
           "modeling_olmo_hybrid.py L127-160, L216-218, L886-900 (transformers 5.23.0)"},

/* ---- opt: learned absolute, offset 2 (positions count non-pad tokens).
 * models/opt/modeling_opt.py @e2412028 L51-76, L314-349;
 * configuration_opt.py @3f832360 L89-109. */
{.model_type = "opt", .arch = "OPT", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 2048, .pos_offset = 2,
 .source = "models/opt/modeling_opt.py @e2412028 L51-76, L314-349"},

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

/* ---- qwen2, qwen2_moe, qwen3, qwen3_moe: llama's RoPE (HALF, full head). */
{.model_type = "qwen2", .arch = "Qwen2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/qwen2/modeling_qwen2.py (llama apply_rotary_pos_emb)"},
/* ---- qwen2_vl, qwen2_5_vl: qwen2's RoPE with M-RoPE sections (rope_scaling
 * {"type": "mrope", "mrope_section": [16, 24, 24]}): apply_multimodal_rotary_pos_emb
 * splits the duplicated cos/sin by mrope_section * 2, chunk i from axis i % 3. */
{.model_type = "qwen2_5_vl", .arch = "Qwen2_5_VL", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .flags = POSENC_FAMILY_MROPE,
 .source = "models/qwen2_5_vl/modeling_qwen2_5_vl.py (apply_multimodal_rotary_pos_emb)"},
{.model_type = "qwen2_moe", .arch = "Qwen2Moe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/qwen2_moe/modeling_qwen2_moe.py (llama apply_rotary_pos_emb)"},
{.model_type = "qwen2_vl", .arch = "Qwen2VL", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .flags = POSENC_FAMILY_MROPE,
 .source = "models/qwen2_vl/modeling_qwen2_vl.py (apply_multimodal_rotary_pos_emb)"},
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
/* ---- qwen3_next: Gated DeltaNet (linear attention) layers and attention
 * layers (layer_types, else a full layer every full_attention_interval = 4);
 * the attention rotate_half RoPE over int(head_dim * 0.25), head_dim 256.
 * transformers 5.23.0 models/qwen3_next/configuration_qwen3_next.py L93-107,
 * L122, L127-135 (rope_theta default 10000: modeling_rope_utils.py L760);
 * modeling_qwen3_next.py L106-108, L146-154, L279, L877-880. */
{.model_type = "qwen3_next", .arch = "Qwen3Next", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 10000.0,
 .partial_default = 0.25, .default_head_dim = 256, .default_hidden = 2048, .default_layers = 48,
 .default_heads = 16, .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_LINEAR,
 .period_key = "full_attention_interval", .kinds_period = 4, .kinds_offset = KINDS_LAST,
 .source = "models/qwen3_next/configuration_qwen3_next.py L93-135; modeling_qwen3_next.py "
           "L106-108, L146-154, L279, L877-880 (transformers 5.23.0)"},

/* ---- qwen3_vl: a wrapper whose text_config (qwen3_vl_text) is qwen3's RoPE
 * with interleaved M-RoPE (rope_scaling {"mrope_interleaved": true,
 * "mrope_section": [24, 20, 20]}): apply_interleaved_mrope takes h at
 * slice(1, 3 s_h, 3), w at slice(2, 3 s_w, 3), t elsewhere. */
{.model_type = "qwen3_vl", .arch = "Qwen3VL", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .nested = "text_config", .nested_type = "qwen3_vl_text",
 .source = "models/qwen3_vl/modeling_qwen3_vl.py (interleaved M-RoPE)"},
{.model_type = "qwen3_vl_text", .arch = "Qwen3VLText", .scheme = POSENC_SCHEME_ROPE, .layout = HALF, .default_head_dim = 128,
 .flags = POSENC_FAMILY_MROPE,
 .source = "models/qwen3_vl/modeling_qwen3_vl.py (apply_interleaved_mrope)"},

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

/* ---- zamba: Mamba layers; "hybrid" layers run the shared attention block
 * (ZambaAttention: no rotary) before their Mamba mixer: no layer encodes
 * positions. layers_block_type gives the layers (its length their number;
 * the class default, 3 layers then a period, is written out by to_dict).
 * transformers 5.23.0 models/zamba/configuration_zamba.py L60, L96-113;
 * modeling_zamba.py L114-170 (ZambaAttention, no rotary), L847-860. */
{.model_type = "zamba", .arch = "Zamba", .scheme = POSENC_SCHEME_NONE,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_ZAMBA, .flags = POSENC_FAMILY_LIST_COUNTS,
 .source = "models/zamba/configuration_zamba.py L60, L96-113; modeling_zamba.py L114-170, "
           "L847-860 (transformers 5.23.0)"},

/* ---- zamba2: as Zamba; the shared attention rotates only with
 * use_mem_rope (default false; refused when true: a base rescaled by
 * use_long_context, head_dim 2 * hidden_size / heads). transformers 5.23.0
 * models/zamba2/configuration_zamba2.py L71, L96-100, L112-140;
 * modeling_zamba2.py L296-307 (RoPE only with use_mem_rope), L1136-1141,
 * L1228-1240. */
{.model_type = "zamba2", .arch = "Zamba2", .scheme = POSENC_SCHEME_NONE,
 .layers = POSENC_LAYERS_KINDS, .kinds = KINDS_ZAMBA,
 .flags = POSENC_FAMILY_LIST_COUNTS | POSENC_FAMILY_MEM_ROPE,
 .source = "models/zamba2/configuration_zamba2.py L71, L96-140; modeling_zamba2.py L296-307, "
           "L1136-1141, L1228-1240 (transformers 5.23.0)"},
