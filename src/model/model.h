/* model.h - the inside of a posenc_model (private to the library and its
 * config reader; callers see the opaque type of posenc_model.h). A field
 * for a new family rule goes here, and only the calls of posenc_model.h
 * (src/model/models.c) read it: the public ABI does not change. */
#ifndef POSENC_MODEL_INTERNAL_H
#define POSENC_MODEL_INTERNAL_H

#include "posenc_model.h"

/* Layers that encode positions the same way. Only the fields of its scheme
 * are meaningful (the rest are 0). */
typedef struct posenc_model_group {
    posenc_scheme scheme;     /* never POSENC_SCHEME_MIXED */
    char layer_type[40];      /* "full_attention", "sliding_attention", "encoder",
                                 "decoder", a stack and its type
                                 ("decoder/sliding_attention"), or "" when the
                                 model has one kind */
    posenc_rope_config rope;  /* ROPE: dimensions, base, layout, scaling */
    posenc_rope_scaling configured; /* ROPE: the scaling as the config gives it (list
                                 pointers NULL), for display; rope.scaling is what
                                 is computed, and differs only for llama3_step */
    int llama3_step;          /* ROPE: the config's llama3 scaling has
                                 low_freq_factor == high_freq_factor, which Hugging
                                 Face computes as a clean step: rope.scaling is then
                                 default with per-pair freq_factors, factor where
                                 the wavelength 2 pi / f0(k) exceeds
                                 original / low_freq_factor, else 1 */
    int ntk_by_length;        /* ROPE: NTK scaling whose alpha steps with the length
                                 (2^ceil(log2(len / ntk_seq_length) + 1) - 1; Qwen 1's
                                 use_dynamic_ntk; see posenc_model_layer_rope) */
    double ntk_seq_length;    /* ROPE with ntk_by_length: the trained length */
    posenc_query_scale qscale;/* any scheme: a factor on the queries */
    const char *reason;       /* NONE: why the layer has no positions (static text from
                                 the registry, "mamba layer: no attention"), or NULL */
    uint32_t n_head;          /* ALIBI: heads */
    double alibi_bias_max;    /* ALIBI: slope exponent range (8: the paper's slopes) */
    int alibi_slopes_bf16;    /* ALIBI: slopes rounded to bfloat16 (Falcon) */
    double alibi_slope_scale; /* ALIBI: the bias is multiplied by this: 1, or Falcon's
                                 1 / sqrt(head_dim) */
    posenc_sinusoid_spec sinusoid; /* SINUSOID: layout, frequency rule, arithmetic, base
                                 and offset (posenc.h 1.7): DistilBERT's the lesson's,
                                 Whisper's fairseq halves from row 0, Marian's and
                                 Pegasus's power halves, M2M100's fairseq halves from
                                 pad_token_id + 1 */
    int sinusoid_pad_offset;  /* SINUSOID: the offset is the config's pad_token_id + 1
                                 (fairseq's padding_idx + 1) */
    int64_t positions;        /* LEARNED, SINUSOID: rows of the table */
    int64_t offset;           /* LEARNED: row of position 0 (OPT, BART: 2) */
    int offset_from_pad;      /* LEARNED: offset is pad_token_id + 1 (RoBERTa) */
    uint32_t dim;             /* LEARNED, SINUSOID: width of the embedding */
    uint32_t buckets;         /* RELATIVE_BUCKETS: num_buckets */
    uint32_t max_distance;    /* RELATIVE_BUCKETS: relative_attention_max_distance */
    int bidirectional;        /* RELATIVE_BUCKETS: 1 encoder, 0 decoder */
    int deberta;              /* RELATIVE_BUCKETS: DeBERTa's relative ids (query - key,
                                 log-bucketed when deberta_buckets > 0;
                                 posenc_deberta_log_bucket) in place of T5's buckets */
    uint32_t deberta_buckets; /* RELATIVE_BUCKETS with deberta: position_buckets (0: none) */
    uint32_t deberta_max_position; /* RELATIVE_BUCKETS with deberta: max_relative_positions
                                 (max_position_embeddings when below 1) */
    int table_beside;         /* RELATIVE_BUCKETS: a learned absolute table (positions,
                                 offset, dim) is added to the input as well (MPNet;
                                 DeBERTa with position_biased_input) */
    int mrope;                /* ROPE: multimodal (M-RoPE; posenc_mrope_init with
                                 the two fields below and rope.rotary_dim / 2 pairs) */
    uint32_t mrope_section[3];/* ROPE with mrope: pairs per axis t, h, w */
    posenc_mrope_rule mrope_rule; /* ROPE with mrope: contiguous, or interleaved
                                 (mrope_interleaved: true) */
    uint32_t mrope_merge;     /* ROPE with mrope: vision_config.spatial_merge_size
                                 (2, the config class's default, when absent) */
    uint32_t mrope_tokens_per_second; /* ROPE with mrope: vision_config.tokens_per_second
                                 (Qwen2.5-VL's video rule; 0 when absent) */
    int64_t rope_rows;        /* ROPE: the cos/sin come from a table of this many rows, and
                                 a position at or past it fails in the family's code
                                 (RoFormer's max_position_embeddings); 0: any position */
    int rotary_value;         /* ROPE: the values turn too (RoFormer's rotary_value) */
    int sense;                /* ROPE: -1: q and k turn by -theta (NanoChat's rotate_half
                                 cat(x2, -x1)): posenc_model_layer_rope negates every
                                 inverse frequency; 0: by +theta, as everywhere else */
    /* RELATIVE_BUCKETS beyond T5's full attention (LongT5, CPM-Ant, VITS): */
    int bucket_ids;           /* POSENC__IDS_T5 (0: T5's or DeBERTa's, above), or one of
                                 the POSENC__IDS_* below */
    uint32_t block_length;    /* LONGT5_*: local_radius + 1 */
    uint32_t global_block_size; /* LONGT5_TGLOBAL: global_block_size */
    uint32_t segment_types;   /* CPMANT: segment_types */
    uint32_t prompt_length;   /* CPMANT: prompt_length (segment 0 tokens before the text's 2) */
    uint32_t window_size;     /* WINDOW: window_size */
    posenc_model_ids ids;     /* LEARNED: how the rows are read (plain, LayoutLM's boxes,
                                 MarkupLM's XPaths, TAPAS's cells, Reformer's axes) */
    /* RELATIVE_SINUSOID (XLNet, Funnel; posenc_model_layer_rel_sinusoid): sinusoid
     * holds POSENC_SINUSOID_CTRL's spec and dim d_model */
    int relsin_funnel;        /* 0: XLNet, 1: Funnel (one group per block, and one for
                                 the decoder) */
    int relsin_bidirectional; /* XLNet: attn_type "bi" */
    int64_t relsin_clamp_len; /* XLNet: clamp_len (<= 0: none) */
    int64_t relsin_mem_len;   /* XLNet: mem_len (-1: null) */
    int relsin_factorized;    /* Funnel: attention_type "factorized" */
    int relsin_separate_cls, relsin_truncate_seq, relsin_pool_q_only;
    int relsin_pool_max;      /* Funnel: pooling_type "max" (else "mean") */
    uint32_t relsin_block;    /* Funnel: the group's block (decoder: 0) */
    uint32_t relsin_n_block;  /* Funnel: len(block_sizes) */
    uint32_t relsin_repeats;  /* Funnel: block_repeats of the block (decoder: 1) */
    /* RELATIVE_BUCKETS with bucket_ids PROPHETNET (ProphetNet's decoder;
     * posenc_model_layer_prophetnet): buckets, max_distance and the table
     * beside (positions, offset pad + 1, dim) above, and */
    uint32_t ngram;           /* PROPHETNET: the predicting streams (ngram) */
} posenc_model_group;

/* posenc_model_group.bucket_ids: whose relative ids a RELATIVE_BUCKETS layer reads. */
enum {
    POSENC__IDS_T5 = 0,             /* T5's buckets over full attention (or DeBERTa's) */
    POSENC__IDS_LONGT5_LOCAL = 1,   /* LongT5's encoder: T5's buckets inside local blocks */
    POSENC__IDS_LONGT5_TGLOBAL = 2, /* the same plus side buckets to global blocks */
    POSENC__IDS_CPMANT = 3,         /* CPM-Ant's segment buckets */
    POSENC__IDS_WINDOW = 4,         /* VITS's windowed rows (Shaw et al.) */
    POSENC__IDS_PROPHETNET = 5      /* ProphetNet's decoder: its causal buckets (T5's
                                       with max_exact added in float32 before the
                                       truncation) of the main and predicting streams */
};

/* One checkpoint (about 50 KiB). It holds no pointer but source, hf_module
 * and the groups' reason (static text), so posenc_model_copy is a plain copy. */
struct posenc_model {
    const char *source;     /* the registry entry's cited code, or NULL */
    const char *hf_module;  /* the entry's hf_module (config_families.h), or NULL */
    char model_type[64];    /* the type read (of the part when nested) */
    char part[32];          /* the config part used ("text_config"...), "" for the top */
    uint32_t n_layer;       /* 0 (empty) .. POSENC_MODEL_MAX_LAYERS */
    posenc_scheme scheme;   /* the groups' scheme, or MIXED when they differ */
    uint32_t n_group;       /* 1 .. POSENC_MODEL_MAX_GROUPS (0 when empty) */
    posenc_model_group group[POSENC_MODEL_MAX_GROUPS];
    uint8_t layer_group[POSENC_MODEL_MAX_LAYERS]; /* group of each layer */
    uint32_t indexer_head_dim; /* 0: no indexer; else DeepSeek Sparse Attention's indexer
                               heads: their first rotary_dim elements turn with each
                               layer's frequencies in indexer_layout
                               (posenc_model_layer_indexer_rope) */
    posenc_layout indexer_layout;
    char ignored[256];      /* config keys near positions that the family's code does
                               not use for them, space-separated ("" if none) */
};

/* The group of layer, or NULL (bad model or layer). */
const posenc_model_group *posenc__model_group(const posenc_model *m, uint32_t layer);

#endif
