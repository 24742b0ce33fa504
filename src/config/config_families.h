/* config_families.h - the family registry (private to the config reader,
 * libposenc_config): for each Hugging Face model_type, what its modeling
 * code does with positions, and the config.json keys it reads them from.
 * The entries are in config_families_table.h, each citing the code it
 * follows; docs/MODELS.md has them in prose. Only the config reader
 * (src/config_*.c) and white-box tests include this header: what a model
 * IS (posenc_model.h) does not depend on how a config names it. */
#ifndef POSENC_CONFIG_FAMILIES_H
#define POSENC_CONFIG_FAMILIES_H

#include "posenc_model.h"

#include <stddef.h>

/* Where a family's rotated part comes from (posenc_model_family.rotary). */
typedef enum posenc_rotary_rule {
    POSENC_ROTARY_PARTIAL = 0,   /* int(head_dim * partial_rotary_factor) (key
                                    partial_key, default partial_default) */
    POSENC_ROTARY_HALF_HEAD = 1, /* head_dim / 2 (ChatGLM) */
    POSENC_ROTARY_DIM_KEY = 2,   /* the config's rotary_dim; null: head_dim (GPT-J) */
    POSENC_ROTARY_QK_ROPE = 3,   /* qk_rope_head_dim: the rotated part of each head is
                                    its own head (DeepSeek V2/V3, MiniCPM3) */
    POSENC_ROTARY_WHOLE_HEAD = 4 /* the whole head, whatever the config says: the code
                                    reads no partial factor (its default rotary module
                                    spans head_dim, and a scaled type that reads the
                                    factor fails on the size), so a partial_rotary_factor
                                    or rotary_pct other than 1 is refused by name (Llama,
                                    Mistral, Qwen2/3, Gemma...; tests/hf/test_probe.py
                                    test_partial_factor_unread runs each) */
} posenc_rotary_rule;

/* Which layers get which position encoding (posenc_model_family.layers). */
typedef enum posenc_layer_rule {
    POSENC_LAYERS_ALL = 0,     /* every layer the same */
    POSENC_LAYERS_BY_TYPE = 1, /* layer_types (or a sliding-window pattern): full and
                                  sliding layers follow full_rope / sliding_rope */
    POSENC_LAYERS_NO_ROPE = 2, /* no_rope_layers (1 = RoPE, 0 = none), else a NoPE
                                  layer every no_rope_layer_interval layers */
    POSENC_LAYERS_ENC_DEC = 3, /* an encoder stack, then a decoder stack */
    POSENC_LAYERS_KINDS = 4    /* hybrid models: each layer is one of the family's kinds
                                  (posenc_layer_kind), named per layer (kinds_key,
                                  pattern_key) or placed by a rule (index_key, period) */
} posenc_layer_rule;

/* The RoPE of one layer type (BY_TYPE). */
typedef enum posenc_type_rope {
    POSENC_TROPE_SCALED = 0, /* the config's base and scaling */
    POSENC_TROPE_PLAIN = 1,  /* the config's base, no scaling */
    POSENC_TROPE_LOCAL = 2,  /* the local base (local_base_key), no scaling */
    POSENC_TROPE_NONE = 3    /* no position encoding */
} posenc_type_rope;

/* One kind of layer of a hybrid model (KINDS rule): its name in the config,
 * the RoPE it takes, and, for a layer without positions, why. */
typedef struct posenc_layer_kind {
    const char *name;      /* the name in the per-layer list ("conv", "mamba"), or
                              the letter in the pattern string ("M") */
    posenc_type_rope rope; /* SCALED (the config's RoPE) or NONE */
    const char *reason;    /* NONE: why the layer has no positions, for EXPLAIN MODEL
                              ("mamba layer: no attention") */
    const char *type;      /* the layer type shown (NULL: name); names that are
                              aliases ("attention", "full_attention") share it */
} posenc_layer_kind;

/* The rules only one family's code has: hooks in config_quirks.c. */
typedef struct posenc_family_quirks posenc_family_quirks;

/* One registry entry: what a family's modeling code does with positions.
 * Strings are static; NULL where a field does not apply. */
typedef struct posenc_model_family {
    const char *model_type;     /* the config's model_type, e.g. "llama" */
    const char *arch;           /* architectures[] class name prefix, e.g. "Llama" */
    posenc_scheme scheme;       /* what the family applies (MIXED: layers differ) */
    posenc_layout layout;       /* RoPE pair layout the checkpoints expect */
    posenc_rotary_rule rotary;  /* RoPE: how rotary_dim follows from the config */
    const char *partial_key;    /* PARTIAL: key of the factor (NULL: "partial_rotary_factor") */
    double partial_default;     /* PARTIAL: the config class's default factor (0: 1, the
                                   whole head) */
    const char *base_key;       /* RoPE: key of the base (NULL: "rope_theta"; FIXED_BASE:
                                   the code fixes the base, no key is read) */
    double base_default;        /* RoPE: the config class's default base */
    const char *head_dim_key;   /* RoPE: a key that gives head_dim before
                                   hidden_size / heads (kv_channels), or NULL */
    uint32_t indexer_head_dim_default; /* INDEXER: the config class's index_head_dim */
    posenc_layout indexer_layout; /* INDEXER: the indexer's pair layout (HALF in
                                   DeepSeek V3.2, INTERLEAVED in GLM-5) */
    uint32_t default_layers;    /* the config class's defaults when a key is absent */
    const char *layers_key;     /* the key of the layer count in place of num_hidden_layers
                                   and its aliases (PP-FormulaNet's text decoder:
                                   decoder_layers, its num_hidden_layers being the
                                   encoder's), or the only keys the config class knows,
                                   space-separated, the first present winning (an alias
                                   the class does not map is not read), or NULL */
    uint32_t default_hidden;    /* (0: the key is required) */
    uint32_t default_heads;
    uint32_t default_head_dim;  /* 0: hidden_size / num_attention_heads */
    uint32_t default_positions; /* LEARNED: table rows when max_position_embeddings
                                   (n_positions) is absent (0: required) */
    int32_t pos_offset;         /* LEARNED: row of position 0; -1: pad_token_id + 1
                                   (RoBERTa's padding_idx + 1) */
    const char *embed_key;      /* LEARNED: the key of the table's width when it is not
                                   the hidden size (ELECTRA's, ALBERT's embedding_size),
                                   or NULL */
    uint32_t embed_default;     /* LEARNED: its config class's default */
    const char *sinus_key;      /* LEARNED: a boolean key that fills the table with
                                   DistilBERT's sinusoid instead (sinusoidal_pos_embds,
                                   XLM's sinusoidal_embeddings), or NULL */
    posenc_sinusoid_family sinusoid; /* SINUSOID: the family's layout, frequency rule and
                                   float arithmetic (posenc.h 1.7; LESSON by default), its
                                   offset pos_offset (-1: pad_token_id + 1, fairseq's
                                   padding_idx + 1) */
    posenc_layer_rule layers;   /* which layers get what */
    posenc_type_rope full_rope;    /* BY_TYPE: layers of type full_attention */
    posenc_type_rope sliding_rope; /* BY_TYPE: layers of type sliding_attention */
    const char *local_base_key;    /* BY_TYPE LOCAL: key of the local base */
    double local_base_default;     /* BY_TYPE LOCAL: its default */
    const char *full_head_dim_key; /* BY_TYPE: a key giving the full_attention layers'
                                   own head size (Gemma 4's global_head_dim), or NULL */
    uint32_t full_head_dim_default; /* its config class's default */
    const char *default_rope_parameters; /* BY_TYPE: the config class's rope_parameters
                                   (JSON text) when the config has neither rope_parameters
                                   nor rope_scaling, or NULL (Gemma 4) */
    uint32_t sliding_pattern;   /* BY_TYPE without layer_types: every Nth layer full,
                                   the rest sliding (0: all full) */
    uint32_t no_rope_interval;  /* NO_ROPE: default no_rope_layer_interval */
    posenc_query_scale_type qscale; /* query scaling the family may apply */
    const posenc_layer_kind *kinds; /* KINDS: the layer kinds, ended by a NULL name;
                                   kinds[0] and kinds[1] are the two the rules below
                                   place. The first present of these gives each layer
                                   its kind: */
    const char *kinds_key;      /* KINDS: the per-layer list of names (NULL: layer_types,
                                   else its alias layers_block_type) */
    const char *pattern_key;    /* KINDS: a string, one kind letter per layer (Nemotron-H's
                                   hybrid_override_pattern), or NULL */
    const char *index_key;      /* KINDS: the layers of kinds[0], the rest kinds[1]
                                   (cross_attention_layers; a dotted path reads a
                                   nested object: linear_attn_config.full_attn_layers);
                                   absent: the quirk's kinds_unlisted) */
    uint32_t index_base;        /* KINDS: the number index_key gives the first layer
                                   (0; Kimi Linear's checkpoints count from 1) */
    const char *period_key;     /* KINDS: layer i is kinds[0] when i % period == offset, */
    const char *offset_key;     /* the rest kinds[1] (attn_layer_period, _offset), or */
    uint32_t kinds_period;      /* NULL keys with these defaults (period 0: no such */
    uint32_t kinds_offset;      /* rule); offset KINDS_LAST: period - 1 */
    const char *nested;         /* a wrapper (multimodal) type: the key of the language
                                   part, e.g. "text_config", or a dotted path of keys
                                   ("thinker_config.text_config"); NULL otherwise */
    const char *nested_type;    /* wrapper: the model_type its part is read as when the
                                   part has none (NULL: the part must name its type) */
    uint32_t mrope_default[3];  /* MROPE: the code's mrope_section when the config has
                                   none (all 0: the config must give it) */
    const char *scaling_types;  /* remote code that knows only some rope_scaling types
                                   (its _init_rope raises on the rest): those types,
                                   space-separated ("linear dynamic"), checked before any
                                   renaming; "" refuses every rope_scaling block (the
                                   family's scaling code was not read); NULL: any type
                                   posenc reads */
    const char *scaling_unread; /* keys of the RoPE block the family's code never reads
                                   (space-separated), dropped and listed as ignored */
    const char *scaling_refused; /* every non-null rope_scaling block refused with this
                                   reason (code read, mechanism not implemented), or NULL */
    const char *refused;        /* known but not supported: why; else NULL */
    const char *nonnull;        /* keys the config class declares with a type without None
                                   (space-separated): transformers 5.23's validation refuses
                                   a null there, so posenc does too, by name, rather than
                                   reading it as absent; NULL: none listed */
    const char *nonnull_source; /* the configuration file and lines declaring them */
    const char *null_misread;   /* keys where transformers 5.23 accepts a null but its model
                                   then does not compute the default (crashes, or reads the
                                   None otherwise): refused by name too; NULL: none */
    const char *null_misread_source; /* the modeling file and lines reading them */
    unsigned flags;             /* POSENC_FAMILY_* rules below (each shared by several
                                   families) */
    const posenc_family_quirks *quirks; /* the family's own rules (config_quirks.h), or
                                   NULL */
    const char *source;         /* modeling file and lines the entry follows */
    const char *hf_module;      /* how transformers' rotary module of the family is
                                   called when not the Llama one (forward(x,
                                   position_ids) -> cos, sin as cat(f, f)): "complex"
                                   (complex freqs_cis [batch, seq, rotary_dim / 2]),
                                   "interleave" (each pair value twice in a row,
                                   repeat_interleave); NULL: the Llama convention */
    const struct posenc_family_stacks *stacks; /* an encoder-decoder whose two stacks are
                                   each a config of its own (T5Gemma, Dia), or NULL */
} posenc_model_family;

/* posenc_model_family.stacks: where the encoder's and the decoder's configs
 * are (dotted paths below the config: "encoder", "encoder_config") and the
 * family each is read as (its model_type; a wrapper reads its language part,
 * T5Gemma 2's encoder its text_config). Their layers are numbered encoder
 * first, each group's layer type "encoder" or "decoder", or "encoder/" and the
 * stack's own type ("encoder/sliding_attention"). */
typedef struct posenc_family_stacks {
    const char *part[2]; /* encoder, decoder */
    const char *type[2];
    int own_types;       /* 1: each stack is read as the family its own model_type names,
                            type[k] only when it names none (EncoderDecoderConfig's
                            SubConfigSpec); 0: the stack must be type[k] */
} posenc_family_stacks;

/* posenc_model_family.flags: rules some families' code has (a rule of one
 * family only is a quirk hook, config_quirks.h). */
#define POSENC_FAMILY_INTERLEAVE_KEY 1u  /* rope_interleave (default true) picks interleaved,
                                            false half (DeepSeek V3) */
#define POSENC_FAMILY_ROPE_WITHOUT_WINDOW 2u /* sliding_window null: every layer rotates
                                            (EXAONE 4: "sliding_window is None or is_sliding") */
#define POSENC_FAMILY_YARN_IS_LONGROPE 4u /* rope type "yarn" (and "su") means longrope (Phi-3) */
#define POSENC_FAMILY_LONG_FROM_MAXPOS 8u /* longrope uses long_factor whenever
                                            max_position_embeddings > original (MiniCPM) */
#define POSENC_FAMILY_ALIBI_KEY 16u     /* alibi: true selects ALiBi instead of RoPE (Falcon) */
#define POSENC_FAMILY_MROPE 128u        /* M-RoPE: the RoPE block's mrope_section (else the
                                            family's mrope_default) splits the pairs between
                                            the temporal, height and width positions; rope
                                            type "mrope" means default (Qwen2-VL, Qwen2.5-VL,
                                            Qwen3-VL, GLM-4V) */
#define POSENC_FAMILY_ROTARY_DIM 256u   /* PARTIAL: without any partial_rotary_factor, the
                                            legacy rotary_dim key gives the factor
                                            rotary_dim / head_dim (MiniMax-M2) */
#define POSENC_FAMILY_TYPE_SETS 512u    /* BY_TYPE: the RoPE of each layer type comes only from
                                            rope_parameters' per-type set, each with its own
                                            rope_theta (required) and partial_rotary_factor
                                            (default partial_default); a config without the
                                            sets is refused (Laguna, Mellum, MiMo-V2-Flash) */
#define POSENC_FAMILY_GLOBAL_EVERY_N 1024u /* BY_TYPE without layer_types: layer i is full when
                                            i % global_attn_every_n_layers == 0 (default
                                            sliding_pattern), else sliding; a rope_scaling block
                                            (which transformers applies to both types) is
                                            refused (ModernBERT) */
#define POSENC_FAMILY_NTK_ALPHA 4096u   /* a "dynamic" block with alpha is static NTK-alpha:
                                            base * alpha^(d/(d-2)) at every length, posenc's
                                            "ntk" with factor alpha (HunYuan) */
#define POSENC_FAMILY_NEEDS_BLOCK 8192u /* the config class fills in its own scaled rope block
                                            when the config has none (a top-level rope_theta
                                            is then unread): a config without rope_parameters
                                            or rope_scaling is refused (Apertus, CWM, Mistral 4) */

#define POSENC_FAMILY_INDEXER (1u << 18) /* DeepSeek Sparse Attention: beside each attention
                                            layer an indexer rotates the first rotary_dim
                                            elements of its own q and k heads (index_head_dim,
                                            default indexer_head_dim_default) with the layer's
                                            cos and sin, in indexer_layout (DeepSeek V3.2) */


#define POSENC_FAMILY_LIST_COUNTS (1u << 23) /* KINDS: the per-layer list's length is the number
                                            of layers, whatever num_hidden_layers says
                                            (Nemotron-H) */



#define POSENC_FAMILY_LAST_LAYER_FULL (1u << 15) /* the last layer is full_attention whatever
                                            layer_types says (Gemma 4's __post_init__) */

/* Gemma4TextConfig.__post_init__'s default_rope_params (configuration_gemma4.py
 * L202-207), for a config without rope_parameters. */
#define GEMMA4_ROPE_PARAMETERS                                                                 \
    "{\"sliding_attention\": {\"rope_type\": \"default\", \"rope_theta\": 10000.0}, "        \
    "\"full_attention\": {\"rope_type\": \"proportional\", \"partial_rotary_factor\": 0.25, " \
    "\"rope_theta\": 1000000.0}}"

#define POSENC_FAMILY_PART_OPTIONAL (1u << 16) /* a wrapper whose older configs keep the language
                                            model's keys at the top (Qwen2-VL): without the
                                            nested part the root is read as nested_type */
#define POSENC_FAMILY_MROPE_ROUND_ROBIN (1u << 17) /* MROPE: the code always takes the interleaved
                                            (round robin) rule, whatever mrope_interleaved
                                            says (Qwen3-VL); without this flag always the
                                            contiguous one (Qwen2-VL, GLM-4V) */

#define POSENC_FAMILY_MROPE_HW_ALTERNATING (1u << 28) /* MROPE: the hw-alternating rule
                                            (h and w pair by pair, then t), and the
                                            config's mrope_section (and mrope_default) is
                                            written [h, w, t] (ERNIE 4.5 VL) */
#define POSENC_FAMILY_DECODER_OWN_DEFAULT (1u << 30) /* ENC_DEC with T5's buckets: an absent
                                   num_decoder_layers is the class's own default
                                   (default_layers), not num_layers (SwitchTransformers,
                                   configuration_switch_transformers.py L65, L92-94: only a
                                   null one falls back to num_layers) */
#define POSENC_FAMILY_MROPE_TWO_AXIS (1u << 29) /* MROPE with HW_ALTERNATING: two axes (rows,
                                            columns) over every rotary pair, no section key
                                            read: [0, P/2, P/2] from each group's rotary_dim
                                            (NeoMME) */

/* The registry: *table points at n_families entries (static, read-only,
 * sorted by model_type); returns the count. table may be NULL. */
size_t posenc__families(const posenc_model_family **table);

/* The entry of model_type (exact, case-sensitive), or NULL. */
const posenc_model_family *posenc__family_find(const char *model_type);

/* The entry whose arch prefix names an architectures[] class: the class name
 * is the prefix followed by "For", "Model" or "LMHead" (e.g.
 * "LlamaForCausalLM", "RWForCausalLM", "QWenLMHeadModel"). NULL when none
 * matches. */
const posenc_model_family *posenc__family_by_arch(const char *class_name);


/* The defaults an entry leaves out, in one place. */
#define FIXED_BASE "" /* base_key: the family's code fixes the base */
#define KINDS_LAST 0xffffffffu /* kinds_offset: the last layer of each period */

/* The key of the partial rotary factor (PARTIAL rule). */
static inline const char *posenc__family_partial_key(const posenc_model_family *f)
{
    return f->partial_key ? f->partial_key : "partial_rotary_factor";
}

/* The factor when the config has no key (PARTIAL rule). */
static inline double posenc__family_partial_default(const posenc_model_family *f)
{
    return f->partial_default != 0.0 ? f->partial_default : 1.0;
}

/* The key of the base, or NULL when the family's code fixes it. */
static inline const char *posenc__family_base_key(const posenc_model_family *f)
{
    if (!f->base_key)
        return "rope_theta";
    return f->base_key[0] ? f->base_key : NULL;
}

#endif
