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

/* ---- afmoe: q/k norms, then llama's rotate_half (HALF, full head) on
 * sliding (local) layers only; full layers NoPE. layer_types default from
 * global_attn_every_n_layers (4), a key posenc does not read: without
 * layer_types the config is refused. head_dim 128, rope_theta 10000.
 * transformers 5.23.0 models/afmoe/modeling_afmoe.py L228-258, L312,
 * L332-333, L355-361; configuration_afmoe.py L76-83, L98-110. */
{.model_type = "afmoe", .arch = "Afmoe", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .base_default = 10000.0, .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_NONE,
 .sliding_rope = POSENC_TROPE_SCALED, .default_layers = 32, .default_hidden = 2048,
 .default_heads = 16, .default_head_dim = 128,
 .source = "models/afmoe/modeling_afmoe.py L228-258, L312, L332-333, L355-361 (5.23.0); "
           "configuration_afmoe.py L76-110"},

/* ---- apertus: llama's rotate_half (HALF, full head); default_theta 1.2e7
 * and, when the config has no rope block, llama3 scaling (factor 8, original
 * 8192, low 1, high 4; a rope_theta beside no block is unread: refused).
 * transformers 5.23.0 models/apertus/modeling_apertus.py
 * L126-160, L204; configuration_apertus.py L47, L65-68, L87-95. */
{.model_type = "apertus", .arch = "Apertus", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 12000000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .flags = POSENC_FAMILY_NEEDS_BLOCK,
 .source = "models/apertus/modeling_apertus.py L126-160, L204 (5.23.0); "
           "configuration_apertus.py L47-95"},

/* ---- arcee: llama's rotate_half (HALF, full head), head_dim null: hidden
 * / heads, rope_theta 10000. transformers 5.23.0 models/arcee/modeling_arcee.py
 * L131-165, L209; configuration_arcee.py L63-85. */
{.model_type = "arcee", .arch = "Arcee", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 2560, .default_heads = 32,
 .source = "models/arcee/modeling_arcee.py L131-165, L209 (5.23.0); configuration_arcee.py "
           "L63-85"},

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

/* ---- bitnet: llama's rotate_half (HALF, full head), default_theta 500000.
 * transformers 5.23.0 models/bitnet/modeling_bitnet.py L80-115, L158;
 * configuration_bitnet.py L42-48. */
{.model_type = "bitnet", .arch = "BitNet", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 500000.0, .default_layers = 30, .default_hidden = 2560, .default_heads = 20,
 .source = "models/bitnet/modeling_bitnet.py L80-115, L158 (5.23.0); configuration_bitnet.py "
           "L42-48"},

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

/* ---- cohere2_moe: Cohere's interleaved RoPE (rotate_half on x[..., ::2],
 * x[..., 1::2], in float32) on sliding layers, and on full layers only where
 * force_rope: the layer's mlp_layer_types entry is "dense" and
 * prefix_dense_sliding_window_pattern is 1; other full layers NoPE.
 * layer_types default: sliding_window_pattern 4 ((i + 1) % 4: sliding).
 * head_dim 128, rope_theta 10000. transformers 5.23.0
 * models/cohere2_moe/modeling_cohere2_moe.py L236-269 (rotate_half,
 * apply_rotary_pos_emb), L279-300 (sliding_window, force_rope), L318-319;
 * configuration_cohere2_moe.py L97-130, L133-160. */
{.model_type = "cohere2_moe", .arch = "Cohere2Moe", .scheme = POSENC_SCHEME_MIXED,
 .layout = INTERLEAVED, .base_default = 10000.0, .layers = POSENC_LAYERS_BY_TYPE,
 .full_rope = POSENC_TROPE_NONE, .sliding_rope = POSENC_TROPE_SCALED, .sliding_pattern = 4,
 .default_layers = 40, .default_hidden = 8192, .default_heads = 64, .default_head_dim = 128,
 .flags = POSENC_FAMILY_DENSE_FORCE_ROPE,
 .source = "models/cohere2_moe/modeling_cohere2_moe.py L236-269, L279-300, L318-319 (5.23.0); "
           "configuration_cohere2_moe.py L97-160"},

/* ---- cwm: llama's rotate_half (HALF, full head) on every layer, one rotary
 * for full and sliding layers (layer_types choose the mask only); head_dim
 * 128, default_theta 1e6 with llama3 scaling (factor 16, original 8192)
 * when the config has no rope block (a config without one is refused: its
 * rope_theta would be unread). transformers 5.23.0
 * models/cwm/modeling_cwm.py L91-121, L167-179, L197, L339;
 * configuration_cwm.py L64-110. */
{.model_type = "cwm", .arch = "Cwm", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .default_layers = 64, .default_hidden = 6144, .default_heads = 48,
 .default_head_dim = 128, .flags = POSENC_FAMILY_NEEDS_BLOCK,
 .source = "models/cwm/modeling_cwm.py L91-121, L167-179, L197, L339 (5.23.0); "
           "configuration_cwm.py L64-110"},

/* ---- dbrx: refused. DBRX's checkpoints give the base as
 * attn_config.rope_theta (500000); transformers 5.23.0 builds
 * DbrxRotaryEmbedding from rope_parameters (default 10000) and leaves
 * attn_config.rope_theta unread, so HF's code and the checkpoints disagree
 * and posenc reads no nested attn_config key (DbrxAttentionConfig has no
 * rope_theta field, so the class defaults do not even build: the attention
 * reads attn_config.rope_theta, L184). Layout: llama's rotate_half.
 * transformers 5.23.0 models/dbrx/modeling_dbrx.py L44-75, L91-121, L184,
 * L221; configuration_dbrx.py L113-150. */
{.model_type = "dbrx", .arch = "Dbrx", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .refused = "its base is attn_config.rope_theta (500000 in DBRX's checkpoints), which "
            "transformers 5.23's DbrxRotaryEmbedding does not read (it takes rope_parameters, "
            "default 10000); posenc reads no nested attn_config key",
 .source = "models/dbrx/modeling_dbrx.py L44-75, L91-121, L184, L221 (5.23.0); "
           "configuration_dbrx.py L113-150"},

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

/* ---- diffllama: llama's rotate_half (HALF, full head) before the
 * differential attention splits the heads; head_dim null: hidden_size /
 * heads; rope_theta 10000. transformers 5.23.0
 * models/diffllama/modeling_diffllama.py L114-144, L203, L260;
 * configuration_diffllama.py L51-76. */
{.model_type = "diffllama", .arch = "DiffLlama", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 16, .default_hidden = 2048, .default_heads = 32,
 .source = "models/diffllama/modeling_diffllama.py L114-144, L203, L260 (5.23.0); "
           "configuration_diffllama.py L51-76"},

/* ---- distilbert: learned absolute table, or sinusoid (sin even, cos odd
 * elements of pos / 10000^(2(j//2)/dim)) with sinusoidal_pos_embds.
 * huggingface/transformers distilbert/modeling_distilbert.py @00b326f4
 * L85-107; models/distilbert/configuration_distilbert.py @3f832360 L82-102. */
{.model_type = "distilbert", .arch = "DistilBert", .scheme = POSENC_SCHEME_LEARNED,
 .default_layers = 6, .default_hidden = 768, .default_heads = 12, .default_positions = 512,
 .source = "distilbert/modeling_distilbert.py @00b326f4 L85-107; configuration_distilbert.py "
           "@3f832360 L82-102"},

/* ---- doge: llama's rotate_half (HALF, full head) before its dynamic mask
 * attention, rope_theta 10000. transformers 5.23.0
 * models/doge/modeling_doge.py L121-151, L246, L288; configuration_doge.py
 * L74-85. */
{.model_type = "doge", .arch = "Doge", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 1024, .default_heads = 8,
 .source = "models/doge/modeling_doge.py L121-151, L246, L288 (5.23.0); configuration_doge.py "
           "L74-85"},

/* ---- ernie4_5, ernie4_5_moe: GLM's interleaved pairs (rotate_half on
 * x[..., 0::2], x[..., 1::2]; cos/sin first half repeat_interleave(2)), full
 * head, every layer; default_theta 500000. Ernie4_5Config head_dim 128,
 * Ernie4_5_MoeConfig none (hidden_size / heads). transformers 5.23.0
 * models/ernie4_5/modeling_ernie4_5.py L107-111 (rotate_half), L151-180
 * (apply_rotary_pos_emb), L192 (head_dim); configuration_ernie4_5.py L47
 * (default_theta), L65-68, L81; models/ernie4_5_moe/modeling_ernie4_5_moe.py
 * L130-165, L215; configuration_ernie4_5_moe.py L62, L95-98. */
{.model_type = "ernie4_5", .arch = "Ernie4_5", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .base_default = 500000.0, .default_layers = 18, .default_hidden = 1024, .default_heads = 16,
 .default_head_dim = 128,
 .source = "models/ernie4_5/modeling_ernie4_5.py L107-111, L151-180 (5.23.0); "
           "configuration_ernie4_5.py L47, L65-81"},
{.model_type = "ernie4_5_moe", .arch = "Ernie4_5_Moe", .scheme = POSENC_SCHEME_ROPE,
 .layout = INTERLEAVED, .base_default = 500000.0, .default_layers = 28, .default_hidden = 2560,
 .default_heads = 20,
 .source = "models/ernie4_5_moe/modeling_ernie4_5_moe.py L130-165, L215 (5.23.0); "
           "configuration_ernie4_5_moe.py L62, L95-98"},

/* ---- eurobert (encoder): llama's rotate_half (HALF, full head), head_dim
 * null: hidden_size / heads, rope_theta 10000. transformers 5.23.0
 * models/eurobert/modeling_eurobert.py L64-94, L142, L177, L308-309;
 * configuration_eurobert.py L69-96. */
{.model_type = "eurobert", .arch = "EuroBert", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 12, .default_hidden = 768, .default_heads = 12,
 .source = "models/eurobert/modeling_eurobert.py L64-94, L142, L177, L308-309 (5.23.0); "
           "configuration_eurobert.py L69-96"},

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

/* ---- exaone_moe: EXAONE 4's rule: q/k norms, then RoPE only where
 * sliding_window is None or the layer is sliding ("We use global NoPE for
 * hybrid attention model"); layer_types from sliding_window_pattern 4
 * ((i + 1) % 4 != 0: sliding), or none sliding without a window; rotate_half
 * (HALF, full head), rope_theta 10000. A string pattern ("LLLG") without
 * layer_types is refused by the layer reader. transformers 5.23.0
 * models/exaone_moe/modeling_exaone_moe.py L66-96, L144-152, L178-184;
 * configuration_exaone_moe.py L89-92, L105-107, L130-138. */
{.model_type = "exaone_moe", .arch = "ExaoneMoe", .scheme = POSENC_SCHEME_MIXED,
 .layout = HALF, .base_default = 10000.0, .layers = POSENC_LAYERS_BY_TYPE,
 .full_rope = POSENC_TROPE_NONE, .sliding_rope = POSENC_TROPE_SCALED, .sliding_pattern = 4,
 .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .flags = POSENC_FAMILY_ROPE_WITHOUT_WINDOW,
 .source = "models/exaone_moe/modeling_exaone_moe.py L66-96, L144-152, L178-184 (5.23.0); "
           "configuration_exaone_moe.py L89-138"},

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

/* ---- flex_olmo: OLMo 2's attention (q/k norms over the projections, then
 * llama's rotate_half: HALF, full head), default_theta 500000.
 * transformers 5.23.0 models/flex_olmo/modeling_flex_olmo.py L166-196, L207,
 * L248; configuration_flex_olmo.py L51, L73-76. */
{.model_type = "flex_olmo", .arch = "FlexOlmo", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 500000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .source = "models/flex_olmo/modeling_flex_olmo.py L166-196, L207, L248 (5.23.0); "
           "configuration_flex_olmo.py L51, L73-76"},

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
 * kwargs.setdefault("partial_rotary_factor", 0.5)). Glm4MoeConfig has no
 * head_dim field (transformers 5.23.0 configuration_glm4_moe.py L92-124): its
 * defaults give 4096 // 96 = 42 and int(42 * 0.5) = 21, from which transformers
 * makes 11 frequencies base^(-2i/21) and rotates 22 elements
 * (modeling_glm4_moe.py L74-76, L160-166); posenc refuses the odd rotary
 * dimension by name. GLM-4.5's configs carry head_dim 128. */
{.model_type = "glm4_moe", .arch = "Glm4Moe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_default = 0.5, .base_default = 10000.0, .default_hidden = 4096, .default_heads = 96,
 .source = "models/glm4_moe/modular_glm4_moe.py @7b24e381"},

/* ---- glm4_moe_lite: DeepSeek V3's MLA: RoPE on the qk_rope_head_dim part
 * (64; attribute_map head_dim -> qk_rope_head_dim) of each head,
 * apply_rotary_pos_emb_interleave when rope_interleave (default true), else
 * rotate_half; rope_theta 10000; the YaRN mscale goes into the softmax
 * scale. transformers 5.23.0 models/glm4_moe_lite/modeling_glm4_moe_lite.py
 * L150-219, L278, L315-328; configuration_glm4_moe_lite.py L79, L83-113. */
{.model_type = "glm4_moe_lite", .arch = "Glm4MoeLite", .scheme = POSENC_SCHEME_ROPE,
 .layout = INTERLEAVED, .rotary = POSENC_ROTARY_QK_ROPE, .base_default = 10000.0,
 .default_layers = 47, .default_hidden = 2048, .default_heads = 20, .default_head_dim = 64,
 .flags = POSENC_FAMILY_INTERLEAVE_KEY,
 .source = "models/glm4_moe_lite/modeling_glm4_moe_lite.py L150-219, L278, L315-328 (5.23.0); "
           "configuration_glm4_moe_lite.py L79-113"},

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

/* ---- gpt_neox_japanese: GPT-NeoX's rotate_half (HALF) over the first
 * int(head_size * rotary_pct) elements, but rotary_pct defaults to 1.0 (not
 * gpt_neox's 0.25); base rotary_emb_base (10000). transformers 5.23.0
 * models/gpt_neox_japanese/modeling_gpt_neox_japanese.py L82-85, L103-133,
 * L141-151, L186-194; configuration_gpt_neox_japanese.py L49-51, L67-76. */
{.model_type = "gpt_neox_japanese", .arch = "GPTNeoXJapanese", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .partial_key = "rotary_pct", .base_key = "rotary_emb_base",
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 2560, .default_heads = 32,
 .source = "models/gpt_neox_japanese/modeling_gpt_neox_japanese.py L82-85, L103-151, L186-194 "
           "(5.23.0); configuration_gpt_neox_japanese.py L49-76"},

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

/* ---- granite_swa, granitemoe_swa: refused. Granite's RoPE (llama's
 * rotate_half) with a base per layer, layer_rope_theta (0: that layer NoPE;
 * default: rope_theta on every layer), one rotary per distinct base; posenc
 * has no per-layer base list. transformers 5.23.0
 * models/granite_swa/modeling_granite_swa.py L45-80, L120-175, L385-460;
 * configuration_granite_swa.py L28-48, L98-122;
 * models/granitemoe_swa/modeling_granitemoe_swa.py L125-160, L200-255,
 * L494-570; configuration_granitemoe_swa.py L30-50, L105-127. */
{.model_type = "granite_swa", .arch = "GraniteSWA", .scheme = POSENC_SCHEME_MIXED, .layout = HALF,
 .refused = "layer_rope_theta gives each layer its own RoPE base (0: no positions), a "
            "per-layer base list posenc lacks",
 .source = "models/granite_swa/modeling_granite_swa.py L45-80, L120-175, L385-460 (5.23.0); "
           "configuration_granite_swa.py L28-122"},

/* ---- granitemoe, granitemoeshared: granite's RoPE (llama's rotate_half,
 * HALF, full head); attention_multiplier is the softmax scale, not a factor
 * on q. transformers 5.23.0 models/granitemoe/modeling_granitemoe.py L192-226,
 * L270-272; configuration_granitemoe.py L60-63;
 * models/granitemoeshared/modeling_granitemoeshared.py L195-229, L273-275;
 * configuration_granitemoeshared.py L71-74. */
{.model_type = "granitemoe", .arch = "GraniteMoe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .source = "models/granitemoe/modeling_granitemoe.py L192-226, L270-272 (5.23.0); "
           "configuration_granitemoe.py L60-63"},
/* granitemoe_swa: refused, see granite_swa above. */
{.model_type = "granitemoe_swa", .arch = "GraniteMoeSWA", .scheme = POSENC_SCHEME_MIXED,
 .layout = HALF,
 .refused = "layer_rope_theta gives each layer its own RoPE base (0: no positions), a "
            "per-layer base list posenc lacks",
 .source = "models/granitemoe_swa/modeling_granitemoe_swa.py L125-160, L200-255, L494-570 "
           "(5.23.0); configuration_granitemoe_swa.py L30-127"},
{.model_type = "granitemoeshared", .arch = "GraniteMoeShared", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096,
 .default_heads = 32,
 .source = "models/granitemoeshared/modeling_granitemoeshared.py L195-229, L273-275 "
           "(5.23.0); configuration_granitemoeshared.py L71-74"},

/* ---- gte (encoder): llama's rotate_half (HALF, full head), default_theta
 * 160000. transformers 5.23.0 models/gte/modeling_gte.py L114-115, L133-163,
 * L201, L226; configuration_gte.py L50-67. */
{.model_type = "gte", .arch = "Gte", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 160000.0, .default_layers = 12, .default_hidden = 768, .default_heads = 12,
 .source = "models/gte/modeling_gte.py L114-115, L133-163, L201, L226 (5.23.0); "
           "configuration_gte.py L50-67"},

/* ---- helium: GLM's interleaved pairs (rotate_half on 0::2, 1::2; cos/sin
 * repeat_interleave(2)), full head, head_dim 128, default_theta 100000.
 * transformers 5.23.0 models/helium/modeling_helium.py L163-200, L208;
 * configuration_helium.py L42, L59-64. */
{.model_type = "helium", .arch = "Helium", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .base_default = 100000.0, .default_layers = 24, .default_hidden = 2560, .default_heads = 20,
 .default_head_dim = 128,
 .source = "models/helium/modeling_helium.py L163-200, L208 (5.23.0); configuration_helium.py "
           "L42, L59-64"},

/* ---- hunyuan_v1_dense, hunyuan_v1_moe: llama's rotate_half (HALF, full
 * head), then the query/key layernorms on the rotated q and k; rope_theta
 * 10000 (the mixin's default_theta, modeling_rope_utils.py L760). head_dim
 * null: hidden_size / heads (the rotary's "or"; the attention's getattr
 * would take None). A "dynamic" block with alpha (Hunyuan-A13B's
 * checkpoints) is ntk_alpha: base * alpha^(d/(d-2)) at every length,
 * posenc's "ntk" with factor alpha. transformers 5.23.0
 * models/hunyuan_v1_dense/modeling_hunyuan_v1_dense.py L82-115 (rotate_half,
 * apply_rotary_pos_emb), L160, L195-198 (RoPE, then the layernorms),
 * L287-355 (rotary, ntk_alpha); configuration_hunyuan_v1_dense.py L37-56;
 * models/hunyuan_v1_moe/modeling_hunyuan_v1_moe.py L81-114, L159;
 * configuration_hunyuan_v1_moe.py L52-75. */
{.model_type = "hunyuan_v1_dense", .arch = "HunYuanDenseV1", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096,
 .default_heads = 32, .flags = POSENC_FAMILY_NTK_ALPHA,
 .source = "models/hunyuan_v1_dense/modeling_hunyuan_v1_dense.py L82-115, L160, L195-198, "
           "L287-355 (5.23.0); configuration_hunyuan_v1_dense.py L37-56"},
{.model_type = "hunyuan_v1_moe", .arch = "HunYuanMoEV1", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096,
 .default_heads = 32, .flags = POSENC_FAMILY_NTK_ALPHA,
 .source = "models/hunyuan_v1_moe/modeling_hunyuan_v1_moe.py L81-114, L159 (5.23.0); "
           "configuration_hunyuan_v1_moe.py L52-75"},

/* ---- hy_v3: llama's rotate_half (HALF, full head), head_dim 128,
 * default_theta 11158840. transformers 5.23.0 models/hy_v3/modeling_hy_v3.py
 * L128-158, L206, L245; configuration_hy_v3.py L48, L82-87. */
{.model_type = "hy_v3", .arch = "HYV3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 11158840.0, .default_layers = 80, .default_hidden = 4096, .default_heads = 64,
 .default_head_dim = 128,
 .source = "models/hy_v3/modeling_hy_v3.py L128-158, L206, L245 (5.23.0); configuration_hy_v3.py "
           "L48, L82-87"},

/* ---- hyperclovax: llama's rotate_half (HALF, full head), head_dim 128,
 * rope_theta 10000. transformers 5.23.0
 * models/hyperclovax/modeling_hyperclovax.py L110-140, L188, L223;
 * configuration_hyperclovax.py L80-105. */
{.model_type = "hyperclovax", .arch = "HyperCLOVAX", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 4096, .default_heads = 32,
 .default_head_dim = 128,
 .source = "models/hyperclovax/modeling_hyperclovax.py L110-140, L188, L223 (5.23.0); "
           "configuration_hyperclovax.py L80-105"},

/* ---- internlm2 (remote code): rotate_half with cat(freqs, freqs), full
 * head, base rope_theta. NanSang2000/S1mpleAgent modeling_internlm2.py
 * @0143463e (rotate_half, InternLM2RotaryEmbedding). */
{.model_type = "internlm2", .arch = "InternLM2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "internlm2 modeling_internlm2.py @0143463e (copy: NanSang2000/S1mpleAgent)"},

/* ---- internlm3: built as LlamaModel (models/auto/modeling_auto.py L294,
 * L858): llama's RoPE; InternLM3Config(LlamaConfig) head_dim 128.
 * transformers 5.23.0 models/internlm3/modular_internlm3.py L24, L57-61;
 * configuration_internlm3.py L64-87. */
{.model_type = "internlm3", .arch = "InternLM3", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 48, .default_hidden = 4096, .default_heads = 32,
 .default_head_dim = 128,
 .source = "models/internlm3/configuration_internlm3.py L64-87 (5.23.0); LlamaModel "
           "(auto/modeling_auto.py L294)"},

/* ---- iquestcoder: built as LlamaModel (models/auto/modeling_auto.py L297,
 * L859): llama's RoPE; IQuestCoderConfig(LlamaConfig) head_dim 128.
 * transformers 5.23.0 models/iquestcoder/configuration_iquestcoder.py
 * L63-82; modular_iquestcoder.py L24. */
{.model_type = "iquestcoder", .arch = "IQuestCoder", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 80, .default_hidden = 5120, .default_heads = 40,
 .default_head_dim = 128,
 .source = "models/iquestcoder/configuration_iquestcoder.py L63-82 (5.23.0); LlamaModel "
           "(auto/modeling_auto.py L297)"},

/* ---- jais2: llama's rotate_half (HALF, full head), head_dim 128, rope_theta
 * 10000. transformers 5.23.0 models/jais2/modeling_jais2.py L57-87, L135,
 * L170; configuration_jais2.py L64-81. */
{.model_type = "jais2", .arch = "Jais2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 32, .default_hidden = 3328, .default_heads = 26,
 .default_head_dim = 128,
 .source = "models/jais2/modeling_jais2.py L57-87, L135, L170 (5.23.0); configuration_jais2.py "
           "L64-81"},

/* ---- jetmoe: llama's rotate_half (HALF, full head) on the mixture-of-
 * attention queries and the shared keys; head_dim is kv_channels (default
 * 128; attribute_map head_dim -> kv_channels); num_attention_heads =
 * num_key_value_heads * num_experts_per_tok. transformers 5.23.0
 * models/jetmoe/modeling_jetmoe.py L343-373 (rotate_half,
 * apply_rotary_pos_emb), L445, L470; configuration_jetmoe.py L48-54,
 * L75-76. */
{.model_type = "jetmoe", .arch = "JetMoe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .head_dim_key = "kv_channels", .default_layers = 12,
 .default_hidden = 2048, .default_head_dim = 128,
 .source = "models/jetmoe/modeling_jetmoe.py L343-373, L445, L470 (5.23.0); "
           "configuration_jetmoe.py L48-54, L75-76"},

/* ---- jina_embeddings_v3 (encoder): llama's rotate_half (HALF, full head),
 * default_theta 20000. transformers 5.23.0
 * models/jina_embeddings_v3/modeling_jina_embeddings_v3.py L117-118,
 * L136-166, L204, L229; configuration_jina_embeddings_v3.py L51-69. */
{.model_type = "jina_embeddings_v3", .arch = "JinaEmbeddingsV3", .scheme = POSENC_SCHEME_ROPE,
 .layout = HALF, .base_default = 20000.0, .default_layers = 24, .default_hidden = 1024,
 .default_heads = 16,
 .source = "models/jina_embeddings_v3/modeling_jina_embeddings_v3.py L117-118, L136-166, L204, "
           "L229 (5.23.0); configuration_jina_embeddings_v3.py L51-69"},

/* ---- laguna: rotate_half (HALF) over the first int(head_dim *
 * partial_rotary_factor) elements, one RoPE per layer type from
 * rope_parameters.full_attention / .sliding_attention (class defaults: full
 * theta 500000, factor 0.5; sliding theta 10000, factor 1); layer_types
 * default all full. head_dim 128. transformers 5.23.0
 * models/laguna/modeling_laguna.py L66-120 (per-type rotary), L241-284,
 * L333, L378, L566; configuration_laguna.py L93-145. */
{.model_type = "laguna", .arch = "Laguna", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,
 .sliding_rope = POSENC_TROPE_SCALED, .default_layers = 40, .default_hidden = 2048,
 .default_heads = 48, .default_head_dim = 128, .flags = POSENC_FAMILY_TYPE_SETS,
 .source = "models/laguna/modeling_laguna.py L66-120, L241-284, L333, L378, L566 (5.23.0); "
           "configuration_laguna.py L93-145"},

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

/* ---- longcat_flash: two MLA attentions per decoder layer (self_attn[0],
 * [1]), each with DeepSeek V3's interleaved RoPE
 * (apply_rotary_pos_emb_interleave, always) on the qk_rope_head_dim part
 * (64) of each head; default_theta 1e7. posenc's layers are the num_layers
 * decoder layers (num_hidden_layers is 2 * num_layers, the attentions' layer_idx
 * 2 l + i), both attentions of a layer alike. transformers 5.23.0
 * models/longcat_flash/modeling_longcat_flash.py L281-317, L362, L396-414,
 * L461; configuration_longcat_flash.py L64, L86-88, L105-109. */
{.model_type = "longcat_flash", .arch = "LongcatFlash", .scheme = POSENC_SCHEME_ROPE,
 .layout = INTERLEAVED, .rotary = POSENC_ROTARY_QK_ROPE, .base_default = 10000000.0,
 .default_layers = 28, .default_hidden = 6144, .default_heads = 64, .default_head_dim = 64,
 .source = "models/longcat_flash/modeling_longcat_flash.py L281-317, L362, L396-414, L461 "
           "(5.23.0); configuration_longcat_flash.py L64-119"},

/* ---- mellum: llama's rotate_half (HALF, full head), one RoPE per layer
 * type from rope_parameters.full_attention / .sliding_attention (class
 * defaults: full theta 500000, sliding 10000); layer_types default all full.
 * head_dim 128. transformers 5.23.0 models/mellum/modeling_mellum.py
 * L45-99 (per-type rotary), L130-160, L208, L246, L516;
 * configuration_mellum.py L85-130. */
{.model_type = "mellum", .arch = "Mellum", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,
 .sliding_rope = POSENC_TROPE_SCALED, .default_layers = 28, .default_hidden = 2304,
 .default_heads = 32, .default_head_dim = 128, .flags = POSENC_FAMILY_TYPE_SETS,
 .source = "models/mellum/modeling_mellum.py L45-99, L130-160, L208, L246, L516 (5.23.0); "
           "configuration_mellum.py L85-130"},

/* ---- mimo_v2_flash: rotate_half (HALF) over the first int(head_dim *
 * partial_rotary_factor) elements (0.334 of head_dim 192: 64), one RoPE per
 * layer type from rope_parameters.full_attention / .sliding_attention (class
 * defaults: full theta 5e6, sliding 10000). The class's default layer_types
 * (full at layer 0 and every 6th) is no pattern posenc has: without
 * layer_types the config is refused. transformers 5.23.0
 * models/mimo_v2_flash/modeling_mimo_v2_flash.py L70-120 (per-type rotary),
 * L245-285, L340-346, L382; configuration_mimo_v2_flash.py L79-130. */
{.model_type = "mimo_v2_flash", .arch = "MiMoV2Flash", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_default = 0.334, .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,
 .sliding_rope = POSENC_TROPE_SCALED, .default_layers = 48, .default_hidden = 4096,
 .default_heads = 64, .default_head_dim = 192, .flags = POSENC_FAMILY_TYPE_SETS,
 .source = "models/mimo_v2_flash/modeling_mimo_v2_flash.py L70-120, L245-285, L340-346, L382 "
           "(5.23.0); configuration_mimo_v2_flash.py L79-130"},

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

/* ---- minimax_m2: q/k norms over the whole projections, then rotate_half
 * (HALF) over the first int(head_dim * partial_rotary_factor) elements;
 * released checkpoints give the rotated part as the legacy rotary_dim key
 * (convert_rope_params_to_dict: setdefault("partial_rotary_factor",
 * rotary_dim / head_dim), so a factor given anywhere wins); head_dim 128,
 * default_theta 5e6. transformers 5.23.0
 * models/minimax_m2/modeling_minimax_m2.py L174-179 (rotary dim), L233-273
 * (apply_rotary_pos_emb, rotate_half), L283, L315;
 * configuration_minimax_m2.py L73-81, L99-104. */
{.model_type = "minimax_m2", .arch = "MiniMaxM2", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 5000000.0, .default_layers = 62, .default_hidden = 3072, .default_heads = 48,
 .default_head_dim = 128, .flags = POSENC_FAMILY_ROTARY_DIM,
 .source = "models/minimax_m2/modeling_minimax_m2.py L174-179, L233-273, L283, L315 (5.23.0); "
           "configuration_minimax_m2.py L73-104"},

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
/* ---- mistral4: DeepSeek V3's MLA (RoPE on the qk_rope_head_dim part of
 * each head; apply_rotary_pos_emb_interleave when rope_interleave, default
 * true) and ministral3's query scaling after RoPE (1 + beta * log(1 +
 * floor(pos / original_max_position_embeddings)), beta
 * rope_parameters.llama_4_scaling_beta) on the whole query; head_dim =
 * qk_nope + qk_rope and partial_rotary_factor qk_rope / head_dim, so the
 * rotary's int(head_dim * factor) is qk_rope_head_dim; the class default is
 * YaRN (factor 128, original 8192, mscale 1, mscale_all_dim 1, beta 0.1),
 * filled in when the config has no rope block (such a config is refused).
 * transformers 5.23.0 models/mistral4/modeling_mistral4.py L286-360
 * (rotate_half, apply_rotary_pos_emb(_interleave), get_llama_4_attn_scale),
 * L419, L455-481; configuration_mistral4.py L76-90, L106-135. */
{.model_type = "mistral4", .arch = "Mistral4", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .rotary = POSENC_ROTARY_QK_ROPE, .base_default = 10000.0, .qscale = POSENC_QSCALE_BETA,
 .default_layers = 36, .default_hidden = 4096, .default_heads = 32, .default_head_dim = 64,
 .flags = POSENC_FAMILY_INTERLEAVE_KEY | POSENC_FAMILY_NEEDS_BLOCK,
 .source = "models/mistral4/modeling_mistral4.py L286-360, L419, L455-481 (5.23.0); "
           "configuration_mistral4.py L76-135"},

/* ---- mixtral: llama's RoPE, as mistral above. */
{.model_type = "mixtral", .arch = "Mixtral", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .source = "models/mixtral/modeling_mixtral.py (llama apply_rotary_pos_emb)"},

/* ---- modernbert (encoder): rotate_half (HALF, full head; q/k from the
 * fused Wqkv), one RoPE per layer type: full layers global_rope_theta
 * (default_theta["global"] 160000), sliding layers local_rope_theta
 * (default_theta["local"] 10000), or the per-type rope_parameters sets of
 * newer configs; without layer_types, layer i is full when
 * i % global_attn_every_n_layers (3) == 0. transformers 5.23.0
 * models/modernbert/modeling_modernbert.py L93-145 (per-type rotary),
 * L177-208, L234-244, L269; configuration_modernbert.py L77-83, L113-151. */
{.model_type = "modernbert", .arch = "ModernBert", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_key = "global_rope_theta", .base_default = 160000.0, .layers = POSENC_LAYERS_BY_TYPE,
 .full_rope = POSENC_TROPE_SCALED, .sliding_rope = POSENC_TROPE_LOCAL,
 .local_base_key = "local_rope_theta", .local_base_default = 10000.0, .sliding_pattern = 3,
 .default_layers = 22, .default_hidden = 768, .default_heads = 12,
 .flags = POSENC_FAMILY_GLOBAL_EVERY_N,
 .source = "models/modernbert/modeling_modernbert.py L93-145, L177-208, L234-244, L269 "
           "(5.23.0); configuration_modernbert.py L77-151"},

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

/* ---- nemotron: rotate_half (HALF) over the first int(head_dim *
 * partial_rotary_factor) elements, factor 0.5 by default (the config's
 * setdefault); head_dim null: hidden_size / heads; rope_theta 10000.
 * transformers 5.23.0 models/nemotron/modeling_nemotron.py L110-116
 * (rotary dim), L134-169 (rotate_half, apply_rotary_pos_emb: rot_dim =
 * cos.shape[-1]), L236, L265; configuration_nemotron.py L55-59, L76-77. */
{.model_type = "nemotron", .arch = "Nemotron", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_default = 0.5, .base_default = 10000.0, .default_layers = 32, .default_hidden = 6144,
 .default_heads = 48,
 .source = "models/nemotron/modeling_nemotron.py L110-116, L134-169, L236, L265 (5.23.0); "
           "configuration_nemotron.py L55-77"},

/* ---- nomic_bert (encoder): llama's rotate_half (HALF, full head),
 * default_theta 1000. The remote-code configs' rotary_emb_fraction and
 * rotary_emb_interleaved are not read by transformers 5.23 (nor by posenc).
 * transformers 5.23.0 models/nomic_bert/modeling_nomic_bert.py L116-117,
 * L135-165, L203, L227; configuration_nomic_bert.py L51-74. */
{.model_type = "nomic_bert", .arch = "NomicBert", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000.0, .default_layers = 12, .default_hidden = 768, .default_heads = 12,
 .source = "models/nomic_bert/modeling_nomic_bert.py L116-117, L135-165, L203, L227 (5.23.0); "
           "configuration_nomic_bert.py L51-74"},

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

/* ---- olmoe: llama's rotate_half (HALF, full head; q/k norms over the whole
 * projection before it), rope_theta 10000. transformers 5.23.0
 * models/olmoe/modeling_olmoe.py L126-160, L204; configuration_olmoe.py
 * L64-67. */
{.model_type = "olmoe", .arch = "Olmoe", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 16, .default_hidden = 2048, .default_heads = 16,
 .source = "models/olmoe/modeling_olmoe.py L126-160, L204 (5.23.0); configuration_olmoe.py "
           "L64-67"},

/* ---- opt: learned absolute, offset 2 (positions count non-pad tokens).
 * models/opt/modeling_opt.py @e2412028 L51-76, L314-349;
 * configuration_opt.py @3f832360 L89-109. */
{.model_type = "opt", .arch = "OPT", .scheme = POSENC_SCHEME_LEARNED, .default_layers = 12,
 .default_hidden = 768, .default_heads = 12, .default_positions = 2048, .pos_offset = 2,
 .source = "models/opt/modeling_opt.py @e2412028 L51-76, L314-349"},

/* ---- persimmon: rotate_half (HALF) over the first int(head_dim *
 * partial_rotary_factor) elements, factor 0.5 by default (setdefault);
 * head_dim = hidden_size / heads; q/k layernorms before; rope_theta 10000.
 * transformers 5.23.0 models/persimmon/modeling_persimmon.py L84-87,
 * L106-136, L192-194, L258-272; configuration_persimmon.py L43-62. */
{.model_type = "persimmon", .arch = "Persimmon", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .partial_default = 0.5, .base_default = 10000.0, .default_layers = 36, .default_hidden = 4096,
 .default_heads = 64,
 .source = "models/persimmon/modeling_persimmon.py L84-87, L106-136, L192-194, L258-272 "
           "(5.23.0); configuration_persimmon.py L43-62"},

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

/* ---- seed_oss: llama's rotate_half (HALF, full head), head_dim 128,
 * rope_theta 10000 (the mixin's default_theta). transformers 5.23.0
 * models/seed_oss/modeling_seed_oss.py L86-120, L161;
 * configuration_seed_oss.py L63-66, L84-90. */
{.model_type = "seed_oss", .arch = "SeedOss", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 10000.0, .default_layers = 64, .default_hidden = 4096, .default_heads = 80,
 .default_head_dim = 128,
 .source = "models/seed_oss/modeling_seed_oss.py L86-120, L161 (5.23.0); "
           "configuration_seed_oss.py L63-90"},

/* ---- smollm3: llama's RoPE where no_rope_layers[i] is 1 (default NoPE
 * every no_rope_layer_interval = 4 layers), no query scaling.
 * models/smollm3/modular_smollm3.py (SmolLM3Config, SmolLM3Attention.use_rope). */
{.model_type = "smollm3", .arch = "SmolLM3", .scheme = POSENC_SCHEME_MIXED,
 .layout = HALF, .layers = POSENC_LAYERS_NO_ROPE, .no_rope_interval = 4,
 .source = "models/smollm3/modular_smollm3.py (SmolLM3Attention.use_rope)"},

/* ---- solar_open: llama's rotate_half (HALF) over int(head_dim *
 * partial_rotary_factor) (default 1: the whole head), head_dim 128,
 * default_theta 1e6. transformers 5.23.0
 * models/solar_open/modeling_solar_open.py L206-236, L284, L317, L423-426;
 * configuration_solar_open.py L64-66, L89-90. */
{.model_type = "solar_open", .arch = "SolarOpen", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .base_default = 1000000.0, .default_layers = 48, .default_hidden = 4096, .default_heads = 64,
 .default_head_dim = 128,
 .source = "models/solar_open/modeling_solar_open.py L206-236, L284, L317, L423-426 (5.23.0); "
           "configuration_solar_open.py L64-90"},

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

/* ---- ultrabert (encoder): llama's rotate_half (HALF, full head), one RoPE
 * per layer type from rope_parameters.full_attention / .sliding_attention
 * (class defaults: full theta 2560000, sliding 10000). The older format
 * (rope_theta a list per layer, attention_windows) is refused: posenc needs
 * the per-type sets and layer_types. transformers 5.23.0
 * models/ultrabert/modeling_ultrabert.py L64-116 (per-type rotary),
 * L126-156, L204, L243; configuration_ultrabert.py L59-113. */
{.model_type = "ultrabert", .arch = "Ultrabert", .scheme = POSENC_SCHEME_ROPE, .layout = HALF,
 .layers = POSENC_LAYERS_BY_TYPE, .full_rope = POSENC_TROPE_SCALED,
 .sliding_rope = POSENC_TROPE_SCALED, .default_layers = 32, .default_hidden = 4096,
 .default_heads = 32, .flags = POSENC_FAMILY_TYPE_SETS,
 .source = "models/ultrabert/modeling_ultrabert.py L64-116, L126-156, L204, L243 (5.23.0); "
           "configuration_ultrabert.py L59-113"},

/* ---- whisper: encoder fixed sinusoids (sines then cosines of
 * pos * 10000^(-k/(C/2-1))), decoder learned, offset 0.
 * models/whisper/modeling_whisper.py @e2412028 L53-62, L567-589, L202-210,
 * L701-721; configuration_whisper.py @3f832360 L181-211. */
{.model_type = "whisper", .arch = "Whisper", .scheme = POSENC_SCHEME_MIXED,
 .layers = POSENC_LAYERS_ENC_DEC,
 .source = "models/whisper/modeling_whisper.py @e2412028 L53-62, L202-210, L567-589, L701-721"},
/* ---- youtu: DeepSeek V3's MLA: RoPE on the qk_rope_head_dim part (64) of
 * each head, apply_rotary_pos_emb_interleave when rope_interleave (default
 * true), else rotate_half; rope_theta 10000; the YaRN mscale goes into the
 * softmax scale, not q. transformers 5.23.0 models/youtu/modeling_youtu.py
 * L187-256, L315, L352-365; configuration_youtu.py L73-86, L102-103. */
{.model_type = "youtu", .arch = "Youtu", .scheme = POSENC_SCHEME_ROPE, .layout = INTERLEAVED,
 .rotary = POSENC_ROTARY_QK_ROPE, .base_default = 10000.0, .default_layers = 32,
 .default_hidden = 2048, .default_heads = 16, .default_head_dim = 64,
 .flags = POSENC_FAMILY_INTERLEAVE_KEY,
 .source = "models/youtu/modeling_youtu.py L187-256, L315, L352-365 (5.23.0); "
           "configuration_youtu.py L73-103"},
