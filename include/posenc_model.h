/*
 * posenc_model.h - a model's position encoding, layer by layer (libposenc).
 *
 * A config's RoPE keys do not say how a model uses positions: the pair
 * layout, which layers rotate, which base each layer type takes, the query
 * scalings and length rules (Qwen 1's dynamic NTK) are in each family's
 * modeling code. A posenc_model holds what that code does for one
 * checkpoint: its layers, each in one of a few groups (layers that encode
 * positions the same way), and every front end asks it for "the scheme of
 * layer L at sequence length N" through the calls below.
 *
 * The model is opaque: a family quirk added later (a new rule of some
 * family's code) changes what the calls below compute, never the layout of
 * a public struct, so the ABI does not grow with the registry. The structs
 * this header does publish describe one scheme's parameters each and are
 * fixed.
 *
 * Where models come from: posenc_model_from_config() (posenc_config.h, the
 * optional library that reads config.json and knows the family registry),
 * or posenc_model_set_rope() below (one RoPE on every layer, e.g. a RoPE the
 * user describes by hand). Everything here needs only libc and libm.
 *
 * Layers are numbered from 0. Encoder-decoder models (T5, BART, Whisper;
 * T5Gemma, T5Gemma 2 and Dia, whose stacks each carry a RoPE config of their
 * own) number the encoder's layers first, then the decoder's.
 *
 * Thread safety: the queries (const posenc_model *) may run concurrently;
 * a call that changes a model must not run beside any other call on it.
 *
 * Example:
 *     posenc_model *m;
 *     posenc_rope r;
 *     if (posenc_model_create(&m) != POSENC_OK) return 1;
 *     if (posenc_model_from_config("config.json", NULL, m, NULL) == POSENC_OK &&
 *         posenc_model_layer_rope(m, 0, 8192, &r) == POSENC_OK)
 *         ... r: layer 0's RoPE for a sequence of 8192 tokens ...
 *     posenc_model_free(m);
 */
#ifndef POSENC_MODEL_H
#define POSENC_MODEL_H

#include "posenc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a layer (or a whole model) encodes positions. */
typedef enum posenc_scheme {
    POSENC_SCHEME_NONE = 0,             /* no position encoding (NoPE attention, or a layer
                                           without attention: posenc_model_layer_reason) */
    POSENC_SCHEME_ROPE = 1,             /* rotary, in attention */
    POSENC_SCHEME_ALIBI = 2,            /* linear biases on attention scores */
    POSENC_SCHEME_LEARNED = 3,          /* learned absolute table, added to the input */
    POSENC_SCHEME_SINUSOID = 4,         /* fixed sinusoids, added to the input */
    POSENC_SCHEME_RELATIVE_BUCKETS = 5, /* T5's learned bias per relative bucket */
    POSENC_SCHEME_MIXED = 6,            /* a model whose layers differ (never a layer's) */
    POSENC_SCHEME_RELATIVE_SINUSOID = 7 /* Transformer-XL's sinusoids of distances
                                           query - key in attention (XLNet, Funnel;
                                           posenc_model_layer_rel_sinusoid) */
} posenc_scheme;

/* "none", "rope", "alibi", "learned", "sinusoid", "relative-buckets",
 * "mixed", "relative-sinusoid"; "unknown" outside the enum. A static
 * string. */
const char *posenc_scheme_name(posenc_scheme s);

/* A position-dependent factor on the queries of some layers. */
typedef enum posenc_query_scale_type {
    POSENC_QUERY_SCALE_NONE = 0,
    /* Llama 4 NoPE layers (attn_temperature_tuning): query at position pos is
     * multiplied by 1 + attn_scale * ln(1 + floor((pos + 1) / floor_scale)). */
    POSENC_QUERY_SCALE_TEMPERATURE = 1,
    /* Qwen 1 (use_logn_attn): by ln(pos + 1) / ln(seq_length) when
     * pos + 1 > seq_length, else 1. */
    POSENC_QUERY_SCALE_LOGN = 2,
    /* Mistral 3 / Ministral 3 (llama_4_scaling_beta), after RoPE: by
     * 1 + beta * ln(1 + floor(pos / original)). */
    POSENC_QUERY_SCALE_BETA = 3,
    /* Beam's NoPE layers (scalable softmax): by (1 + (pos + 1) / length)^exponent,
     * computed as exp(exponent * ln(1 + (pos + 1) / length)). */
    POSENC_QUERY_SCALE_POWER = 4
} posenc_query_scale_type;

/* "none", "temperature", "logn", "beta", "power"; "unknown" outside the
 * enum. */
const char *posenc_query_scale_name(posenc_query_scale_type t);

typedef struct posenc_query_scale {
    posenc_query_scale_type type;
    double floor_scale;  /* TEMPERATURE: tokens per step, > 0 */
    double attn_scale;   /* TEMPERATURE: step weight */
    double seq_length;   /* LOGN: the trained length, > 1 */
    double beta;         /* BETA: step weight */
    double original;     /* BETA: tokens per step (original_max_position_embeddings), > 0 */
    double length;       /* POWER: the length the position is divided by, > 0 */
    double exponent;     /* POWER: the power */
} posenc_query_scale;

#define POSENC_MODEL_MAX_LAYERS 1024u
#define POSENC_MODEL_MAX_GROUPS 4u

/* ------------------------------------------------------------------------- */
/* The object                                                                */
/* ------------------------------------------------------------------------- */

typedef struct posenc_model posenc_model; /* opaque */

/* *out = a new, empty model (no layers: every layer query returns
 * POSENC_ERR_RANGE until it is filled). Free with posenc_model_free.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_NOMEM. */
POSENC_NODISCARD
posenc_status posenc_model_create(posenc_model **out);

/* Releases m; NULL is accepted. */
void posenc_model_free(posenc_model *m);

/* Makes dst a copy of src (dst and src created by posenc_model_create).
 * Errors: POSENC_ERR_NULL. */
POSENC_NODISCARD
posenc_status posenc_model_copy(posenc_model *dst, const posenc_model *src);

/* Makes m a model of n_layer layers that all apply the RoPE c (checked as
 * posenc_rope_init_config at cur_len 0); no family, type "" and part "".
 * Valid: 1 <= n_layer <= POSENC_MODEL_MAX_LAYERS.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE (n_layer), those of
 * posenc_rope_init_config. m is unchanged on error. */
POSENC_NODISCARD
posenc_status posenc_model_set_rope(posenc_model *m, const posenc_rope_config *c,
                                    uint32_t n_layer);

/* Replaces the RoPE configuration of the group layer belongs to (every
 * layer of that group) with c, keeping the group's family rules (e.g.
 * Qwen 1's dynamic NTK); used to change a loaded model's base or layout.
 * Errors: those of posenc_model_layer, POSENC_ERR_RANGE (not a RoPE layer),
 * those of posenc_rope_init_config. m is unchanged on error. */
POSENC_NODISCARD
posenc_status posenc_model_set_layer_rope(posenc_model *m, uint32_t layer,
                                          const posenc_rope_config *c);

/* The model as a whole. With m NULL: 0, POSENC_SCHEME_NONE, "" and NULL. */
uint32_t posenc_model_n_layer(const posenc_model *m);  /* 0 .. POSENC_MODEL_MAX_LAYERS */
uint32_t posenc_model_n_group(const posenc_model *m);  /* 0 .. POSENC_MODEL_MAX_GROUPS */
posenc_scheme posenc_model_scheme(const posenc_model *m); /* MIXED when layers differ */
const char *posenc_model_type(const posenc_model *m);  /* model_type read ("" if none) */
const char *posenc_model_part(const posenc_model *m);  /* config part used ("text_config"
                                                          ...), "" for the top level */
/* Config keys near positions that the family's code does not use for them,
 * space-separated ("" if none). */
const char *posenc_model_ignored(const posenc_model *m);
/* The modeling file and lines the family's registry entry follows, or NULL
 * (a model not read through the registry). A static string. */
const char *posenc_model_source(const posenc_model *m);
/* How the family's transformers rotary module (the language model's) is
 * called and what it returns: "plain" (forward(x, position_ids) -> cos, sin,
 * each the rotary_dim / 2 pair values twice, cat(f, f): Llama's), "complex"
 * (complex freqs_cis [batch, seq, rotary_dim / 2]: Llama 4), "interleave"
 * (each pair value twice in a row, repeat_interleave: Cohere). A static
 * string; "plain" for a model not read through the registry or m NULL. */
const char *posenc_model_hf_module_convention(const posenc_model *m);

/* ------------------------------------------------------------------------- */
/* Per-layer queries                                                         */
/* ------------------------------------------------------------------------- */

/* What one layer is. layer_type points into the model (valid while it is
 * unchanged): "full_attention", "sliding_attention", "encoder", "decoder",
 * a stack and its own layer type ("encoder/sliding_attention": T5Gemma 2),
 * a hybrid model's kind of layer ("conv", "linear_attention", "mamba",
 * "cross_attention", ...; see posenc_model_layer_reason), or "" when the
 * model has one kind. At most 39 bytes. */
typedef struct posenc_layer_info {
    posenc_scheme scheme; /* never POSENC_SCHEME_MIXED */
    uint32_t group;       /* 0 .. n_group - 1: layers of one group encode alike */
    const char *layer_type;
} posenc_layer_info;

/* *info = what layer is. Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE (layer
 * >= n_layer, or an empty model). */
POSENC_NODISCARD
posenc_status posenc_model_layer(const posenc_model *m, uint32_t layer, posenc_layer_info *info);

/* Why layer has no position encoding, as the family's code says it
 * (static text from the registry): "mamba layer: no attention", "short
 * convolution layer: no attention", "linear attention: no positions",
 * "cross-attention to image tokens: no positions", "NoPE attention layer
 * ...". "" for a layer that encodes positions, a NONE layer the registry
 * gives no reason for, m NULL or layer out of range. Hybrid models (LFM2,
 * Qwen3-Next, Jamba, Granite 4.0-H, Nemotron-H, ...) and Llama 3.2 Vision
 * mix such layers with RoPE layers; their layer_type names the kind
 * ("conv", "linear_attention", "mamba", "cross_attention"). */
const char *posenc_model_layer_reason(const posenc_model *m, uint32_t layer);

/* Fills *r with the RoPE of layer at sequence length cur_len, as the
 * family's code computes it for a sequence of cur_len tokens: the config's
 * scaling at that length (posenc_rope_init_config: Hugging Face's dynamic
 * NTK, LongRoPE's short/long switch), and the family's own length rules.
 * Qwen 1's dynamic NTK (use_dynamic_ntk, modeling_qwen.py): with L its
 * seq_length and cur_len > L, alpha = max(2^ceil(log2(cur_len / L) + 1) - 1,
 * 1) and the base becomes base * alpha^(d/(d-2)) (POSENC_ROPE_NTK with
 * factor alpha; d = rotary_dim). Front ends should ask this call for every
 * length rather than keep a posenc_rope_config of their own.
 * Errors: those of posenc_model_layer; POSENC_ERR_NULL (r); POSENC_ERR_RANGE
 * also when the layer has no RoPE; POSENC_ERR_POS (cur_len outside 0 ..
 * POSENC_MAX_POS + 1); those of posenc_rope_init_config. *r is untouched on
 * error. */
POSENC_NODISCARD
posenc_status posenc_model_layer_rope(const posenc_model *m, uint32_t layer, int64_t cur_len,
                                      posenc_rope *r);

/* Fills *r with the RoPE of layer's indexer at sequence length cur_len, for
 * models whose attention layers have one (DeepSeek V3.2's Sparse Attention:
 * the indexer scores keys to pick those each query attends to, with q and k
 * heads of its own). Its q and k turn with the layer's cos and sin (the same
 * frequencies, scaling and attn_factor as posenc_model_layer_rope) on the
 * first rotary_dim elements of heads of head_dim = index_head_dim, in the
 * indexer's own layout (half in DeepSeek V3.2, interleaved in GLM-5), which
 * may differ from the attention's.
 * Errors: those of posenc_model_layer_rope; POSENC_ERR_RANGE also when the
 * model has no indexer. *r is untouched on error. */
POSENC_NODISCARD
posenc_status posenc_model_layer_indexer_rope(const posenc_model *m, uint32_t layer,
                                              int64_t cur_len, posenc_rope *r);

/* The sense layer's q and k turn in: 1 (by +theta, every family but one),
 * -1 (by -theta: NanoChat, whose rotate_half is cat(x2, -x1);
 * posenc_model_layer_rope then holds every inverse frequency negated, so
 * its apply calls turn by -theta and a POSENC_INVERSE apply undoes it), or
 * 0 (m NULL, layer out of range or not a RoPE layer). A posenc_rope built
 * from posenc_model_layer_rope_config alone turns by +theta. */
int posenc_model_layer_rope_sense(const posenc_model *m, uint32_t layer);

/* *s = the scaling layer's RoPE uses at sequence length cur_len: the
 * config's (list pointers into the model, valid while it is unchanged),
 * or the one a family's length rule gives there (Qwen 1's dynamic NTK:
 * POSENC_ROPE_NTK with factor alpha, or POSENC_ROPE_DEFAULT while alpha
 * is 1). posenc_model_layer_rope builds its RoPE with exactly this
 * scaling; posenc_rope_explain_freqs with it explains that RoPE.
 * Errors: as posenc_model_layer_rope. */
POSENC_NODISCARD
posenc_status posenc_model_layer_scaling(const posenc_model *m, uint32_t layer, int64_t cur_len,
                                         posenc_rope_scaling *s);

/* *c = the RoPE configuration of layer as computed (dimensions, base,
 * layout, scaling; list pointers point into the model). Length rules of the
 * family (Qwen 1's dynamic NTK) are not in it: posenc_model_layer_rope
 * applies them. Errors: as posenc_model_layer_rope without the length. */
POSENC_NODISCARD
posenc_status posenc_model_layer_rope_config(const posenc_model *m, uint32_t layer,
                                             posenc_rope_config *c);

/* One line of text, "key=value ..." separated by single spaces and starting
 * with a space, that states every parameter of layer's scheme as the config
 * gives it, family rules included (" type=yarn layout=half head_dim=128 ...
 * dynamic_ntk=qwen ntk_seq_length=2048 ..."). The keys are those of the
 * program's EXPLAIN MODEL (docs/posenc.1). Writes at most n bytes with the
 * NUL. Allocates during the call only (one posenc_rope).
 * Errors: those of posenc_model_layer, POSENC_ERR_NULL (buf),
 * POSENC_ERR_OVERFLOW (n too small; buf then holds a truncated line),
 * POSENC_ERR_NOMEM. */
POSENC_NODISCARD
posenc_status posenc_model_layer_describe(const posenc_model *m, uint32_t layer, char *buf,
                                          size_t n);

/* *q = the query scaling of layer (type NONE when it has none). */
POSENC_NODISCARD
posenc_status posenc_model_layer_query_scale(const posenc_model *m, uint32_t layer,
                                             posenc_query_scale *q);

/* *scale = the factor layer's queries at position pos are multiplied by
 * (1 when the layer has none; see posenc_query_scale_type).
 * Errors: those of posenc_model_layer, POSENC_ERR_POS (pos outside
 * 0..POSENC_MAX_POS), POSENC_ERR_RANGE (parameters out of range). */
POSENC_NODISCARD
posenc_status posenc_model_query_scale(const posenc_model *m, uint32_t layer, int64_t pos,
                                       double *scale);

/* *n_head = the heads of an ALIBI layer (the length of its slopes).
 * Errors: those of posenc_model_layer, POSENC_ERR_RANGE (not ALiBi). */
POSENC_NODISCARD
posenc_status posenc_model_alibi_heads(const posenc_model *m, uint32_t layer, uint32_t *n_head);

/* The ALiBi slopes of an ALIBI layer: slopes[0 .. n_head) for heads 1..H.
 * alibi_bias_max 8 with H a power of two: 2^(-8h/H) (posenc_alibi_slopes).
 * Otherwise MPT's rule: with H' the power of two at or above H,
 * m_i = 2^(-i * bias_max / H') for i = 1..H', and the slopes are m_2, m_4, ...
 * followed by m_1, m_3, ..., cut to H (for bias_max 8 and H not a power of
 * two BLOOM's rule applies instead: posenc_alibi_slopes).
 * Then, for Falcon, each slope is rounded to bfloat16 (nearest, ties to
 * even), and every slope is multiplied by the family's slope scale (Falcon:
 * 1 / sqrt(head_dim), its bias divided so). The bias between query i and
 * key j is -slope * |i - j| (for causal attention; Hugging Face's BLOOM and
 * Falcon add slope * key position, equal up to a per-query constant).
 * Errors: those of posenc_model_layer, POSENC_ERR_NULL (slopes),
 * POSENC_ERR_RANGE (not an ALiBi layer, or its parameters out of range),
 * POSENC_ERR_DIM (n_head). */
POSENC_NODISCARD
posenc_status posenc_model_alibi_slopes(const posenc_model *m, uint32_t layer, double *slopes);

/* An absolute table (LEARNED or SINUSOID layer). */
typedef struct posenc_model_table {
    int64_t positions;  /* rows of the table */
    int64_t offset;     /* the row position 0 reads (OPT, BART: 2; fairseq's sinusoid
                           in M2M100, NLLB, Speech2Text: pad_token_id + 1; XGLM's: 2) */
    uint32_t dim;       /* width of the embedding */
    int offset_from_pad;/* 1 when offset is the config's pad_token_id + 1 (RoBERTa:
                           the embedding's padding_idx + 1; fairseq's sinusoid) */
} posenc_model_table;

/* *t = the table of a LEARNED or SINUSOID layer, or of a RELATIVE_BUCKETS
 * layer that adds a learned table too (MPNet, DeBERTa's position_biased_input).
 * Errors: those of posenc_model_layer, POSENC_ERR_RANGE (another scheme). */
POSENC_NODISCARD
posenc_status posenc_model_layer_table(const posenc_model *m, uint32_t layer,
                                       posenc_model_table *t);

/* *spec = the sinusoid of a SINUSOID layer (posenc.h 1.7): its layout,
 * frequency rule, float arithmetic, base and offset (the position row 0 of
 * the sequence reads). posenc_sinusoid_layout_fill_f32(spec, pos, n, dim)
 * with dim from posenc_model_layer_table gives the vectors the family's code
 * adds at token indices pos: DistilBERT's and XLM's the lesson's layout,
 * Whisper's encoder fairseq halves from 0, Marian's and Pegasus's power
 * halves, M2M100's, NLLB-MoE's and Speech2Text's fairseq halves from
 * pad_token_id + 1, XGLM's from 2, CTRL's power halves in float32.
 * Errors: those of posenc_model_layer, POSENC_ERR_NULL (spec),
 * POSENC_ERR_RANGE (another scheme). */
POSENC_NODISCARD
posenc_status posenc_model_layer_sinusoid(const posenc_model *m, uint32_t layer,
                                          posenc_sinusoid_spec *spec);

/* T5's relative buckets (RELATIVE_BUCKETS layer; posenc_t5_bucket). */
typedef struct posenc_model_t5 {
    uint32_t buckets;      /* num_buckets */
    uint32_t max_distance; /* relative_attention_max_distance */
    int bidirectional;     /* 1 in the encoder stack, 0 in the decoder's */
} posenc_model_t5;

/* *t = the bucket settings of a RELATIVE_BUCKETS layer with T5's buckets
 * (T5, LongT5's decoder, Pix2Struct, MPNet: 32 buckets, 128, bidirectional).
 * Errors: those of posenc_model_layer, POSENC_ERR_RANGE (another scheme, or
 * DeBERTa's relative ids: posenc_model_layer_deberta). */
POSENC_NODISCARD
posenc_status posenc_model_layer_t5(const posenc_model *m, uint32_t layer, posenc_model_t5 *t);

/* DeBERTa's relative ids (a RELATIVE_BUCKETS layer of deberta or
 * deberta-v2 with relative_attention): the id of query i and key j is
 * i - j, log-bucketed by posenc_deberta_log_bucket(i - j, *bucket_size,
 * *max_position) when *bucket_size > 0 (deberta-v2's position_buckets),
 * as transformers' build_relative_position returns it (posenc_deberta_
 * relative_ids). *max_position: max_relative_positions, or
 * max_position_embeddings when that is below 1. A layer whose input also
 * takes a learned table (position_biased_input; MPNet's RoBERTa table
 * beside T5's buckets) answers posenc_model_layer_table too.
 * Errors: those of posenc_model_layer, POSENC_ERR_NULL, POSENC_ERR_RANGE
 * (not DeBERTa's). */
POSENC_NODISCARD
posenc_status posenc_model_layer_deberta(const posenc_model *m, uint32_t layer,
                                         uint32_t *bucket_size, uint32_t *max_position);

/* ---- relative ids beyond T5's full attention: LongT5, CPM-Ant, VITS ---------- */

/* LongT5's encoder (a RELATIVE_BUCKETS layer of longt5's encoder stack; its
 * decoder is T5's: posenc_model_layer_t5). Query q attends key k only when
 * |k - q| < block_length (local_radius + 1: the three-block window and its
 * locality mask), with bias bucket posenc_t5_bucket(q, k, buckets,
 * max_distance, 1); transient-global layers (global_block_size > 0) also
 * attend the n / global_block_size global blocks of an n-token sequence,
 * bucket posenc_t5_bucket(0, side, ...) of posenc_longt5_side_positions'
 * side position, read from a second table (global_relative_attention_bias). */
typedef struct posenc_model_longt5 {
    uint32_t buckets;           /* relative_attention_num_buckets */
    uint32_t max_distance;      /* relative_attention_max_distance */
    uint32_t block_length;      /* local_radius + 1 */
    uint32_t global_block_size; /* transient-global: global_block_size; 0: local */
} posenc_model_longt5;

/* Errors: those of posenc_model_layer, POSENC_ERR_RANGE (not LongT5's encoder). */
POSENC_NODISCARD
posenc_status posenc_model_layer_longt5(const posenc_model *m, uint32_t layer,
                                        posenc_model_longt5 *t);

/* CPM-Ant's segment buckets (posenc_cpmant_bucket). The model's own
 * forward puts its prompt_length prompt tokens (positions 0 ..
 * prompt_length - 1) in segment 0 and the text's tokens (input ids other
 * than 0) in segment 2. */
typedef struct posenc_model_cpmant {
    uint32_t buckets;       /* position_bias_num_buckets */
    uint32_t max_distance;  /* position_bias_max_distance */
    uint32_t segment_types; /* segment_types */
    uint32_t prompt_length; /* prompt_length */
} posenc_model_cpmant;

/* Errors: those of posenc_model_layer, POSENC_ERR_RANGE (not CPM-Ant's). */
POSENC_NODISCARD
posenc_status posenc_model_layer_cpmant(const posenc_model *m, uint32_t layer,
                                        posenc_model_cpmant *c);

/* VITS's windowed relative rows (posenc_window_rel_index): *window_size.
 * Errors: those of posenc_model_layer, POSENC_ERR_RANGE (not a windowed layer). */
POSENC_NODISCARD
posenc_status posenc_model_layer_window(const posenc_model *m, uint32_t layer,
                                        uint32_t *window_size);

/* The relative ids every query q_pos[i] of a RELATIVE_BUCKETS layer reads
 * for key k_pos[j], out[i * n_k + j] (as posenc golden writes `bucket`):
 * T5's bucket; DeBERTa's relative id; LongT5's encoder: T5's bucket inside
 * the local window, -1 where the code does not attend (|k - q| >=
 * block_length); CPM-Ant: posenc_cpmant_bucket with each position's
 * segment as the model's forward sets it (0 below prompt_length, else 2);
 * VITS: the emb_rel row, -1 beyond the window (a zero vector).
 * Errors: those of posenc_model_layer, POSENC_ERR_NULL, POSENC_ERR_RANGE
 * (another scheme), those of the bucket functions (POSENC_ERR_POS). */
POSENC_NODISCARD
posenc_status posenc_model_layer_relative_ids(const posenc_model *m, uint32_t layer,
                                              const int64_t *q_pos, size_t n_q,
                                              const int64_t *k_pos, size_t n_k, int64_t *out);

/* LongT5 transient-global side buckets of queries q_pos in a sequence of
 * n_tok tokens (every q_pos < n_tok): out[i * *n_global + g] =
 * posenc_t5_bucket(0, side(q_pos[i], g), buckets, max_distance, 1), with
 * *n_global = n_tok / global_block_size global blocks. out may be NULL with
 * cap 0 to ask for *n_global.
 * Errors: those of posenc_model_layer, POSENC_ERR_NULL, POSENC_ERR_RANGE
 * (not transient-global, cap too small), POSENC_ERR_POS (q_pos past n_tok),
 * POSENC_ERR_NOMEM. */
POSENC_NODISCARD
posenc_status posenc_model_layer_side_buckets(const posenc_model *m, uint32_t layer,
                                              uint32_t n_tok, const int64_t *q_pos, size_t n_q,
                                              int64_t *out, size_t cap, size_t *n_global);

/* ---- ProphetNet's n-stream decoder ------------------------------------------ */

/* ProphetNet's decoder (a RELATIVE_BUCKETS layer of prophetnet's decoder
 * stack; its encoder layers are LEARNED: the table alone). Every decoder
 * layer adds the learned table's row pad_token_id + 1 + i to token i of the
 * main stream and row pad_token_id + 2 + i to each of the ngram predicting
 * streams, and its n-stream self-attention adds a bias per relative bucket:
 *
 *   bucket(d) = d < max_exact ? d
 *             : min(trunc(fl32(max_exact + v(d))), buckets - 1),  d >= 0,
 *   bucket(d) = 0 for d < 0 (a later key),
 *
 * d = query - key, max_exact = buckets / 2 and v(d) posenc_t5_bucket's
 * float32 v with bidirectional 0 (compute_relative_buckets, transformers
 * 5.23.0 models/prophetnet/modeling_prophetnet.py L66-90: max_exact is added
 * in float32 before the truncation, where T5 adds it after; the two differ
 * only where fl32(max_exact + v) rounds up to the next integer). The main
 * stream's query i reads key j at bucket(i - j) (posenc_model_layer_
 * relative_ids); each predicting stream's query i reads 2n keys
 * (posenc_model_layer_prophetnet_predict). */
typedef struct posenc_model_prophetnet {
    uint32_t buckets;      /* num_buckets */
    uint32_t max_distance; /* relative_max_distance */
    uint32_t ngram;        /* the predicting streams */
} posenc_model_prophetnet;

/* Errors: those of posenc_model_layer, POSENC_ERR_NULL, POSENC_ERR_RANGE
 * (not ProphetNet's decoder). */
POSENC_NODISCARD
posenc_status posenc_model_layer_prophetnet(const posenc_model *m, uint32_t layer,
                                            posenc_model_prophetnet *p);

/* The predicting streams' buckets as ProphetNetDecoder's forward without a
 * cache reads them (compute_buffered_relative_buckets, modeling_prophetnet.py
 * L1271-1291): out[i * 2 n_k + j] = bucket(q_pos[i] - k_pos[j] + 1) (the
 * main stream's keys, one step later) and out[i * 2 n_k + n_k + j] =
 * bucket(q_pos[i] - k_pos[j] - 1) (the predicting stream's own keys: the
 * buffer's slice from column max_position_embeddings, one past the second
 * half's first column). compute_all_stream_relative_buckets (L93-113) alone
 * gives bucket(q - k) in that second half; the model reads the buffer.
 * Errors: those of posenc_model_layer, POSENC_ERR_NULL, POSENC_ERR_RANGE
 * (not ProphetNet's decoder), POSENC_ERR_POS (a position). */
POSENC_NODISCARD
posenc_status posenc_model_layer_prophetnet_predict(const posenc_model *m, uint32_t layer,
                                                    const int64_t *q_pos, size_t n_q,
                                                    const int64_t *k_pos, size_t n_k,
                                                    int64_t *out);

/* The M-RoPE of a multimodal RoPE layer: *mr initialised
 * (posenc_mrope_init) with the layer's sections and rule over rotary_dim / 2
 * pairs; *merge = vision_config.spatial_merge_size (2 when absent);
 * *tokens_per_second = Qwen2.5-VL's video rule (0 when absent). merge and
 * tokens_per_second may be NULL.
 * Errors: those of posenc_model_layer, POSENC_ERR_NULL (mr),
 * POSENC_ERR_RANGE (not an M-RoPE layer), those of posenc_mrope_init. */
POSENC_NODISCARD
posenc_status posenc_model_layer_mrope(const posenc_model *m, uint32_t layer, posenc_mrope *mr,
                                       uint32_t *merge, uint32_t *tokens_per_second);

/* Where a RoPE layer's cos and sin come from a table (RoFormer: its
 * RoFormerSinusoidalPositionalEmbedding), *rows = the table's rows: a
 * position at or past it fails in the family's code (an index error), so
 * front ends refuse it by name; 0 when the layer takes any position.
 * *rotary_value = 1 when the layer turns its values too, with the same cos
 * and sin as q and k (RoFormer's rotary_value), else 0.
 * Errors: those of posenc_model_layer, POSENC_ERR_NULL (rows, rotary_value),
 * POSENC_ERR_RANGE (not a RoPE layer). */
POSENC_NODISCARD
posenc_status posenc_model_layer_rope_rows(const posenc_model *m, uint32_t layer, int64_t *rows,
                                           int *rotary_value);
/* ---- position ids read beside a learned table (LayoutLM, MarkupLM, TAPAS,
 *      Reformer) ---------------------------------------------------------------- */

/* What a LEARNED layer's rows are read by (posenc.h 1.11 has the id math). */
typedef enum posenc_ids_kind {
    POSENC_IDS_PLAIN = 0,      /* row = offset + token index, nothing else (BERT, GPT-2,
                                  RoBERTa: offset + index of a sequence without padding) */
    POSENC_IDS_BOX2D = 1,      /* LayoutLM: the plain rows plus four 2-D tables (x, y, h,
                                  w) of box_rows rows indexed by each token's box
                                  (posenc_box2d_ids) */
    POSENC_IDS_XPATH = 2,      /* MarkupLM: the plain rows (from pad_token_id + 1) plus,
                                  per XPath depth, a tag table and a subscript table
                                  indexed by each token's xpath_tags_seq / xpath_subs_seq */
    POSENC_IDS_CELL_RESET = 3, /* TAPAS (reset_position_index_per_cell): the row is the
                                  token's distance from its table cell's first token
                                  (posenc_tapas_positions); needs each token's cell */
    POSENC_IDS_AXIAL = 4,      /* Reformer (axial_pos_embds): position p reads row p / w
                                  of the first axis's table and p % w of the second's,
                                  concatenated (posenc_axial_ids) */
    POSENC_IDS_RESAMPLED = 5   /* SAM 3 LiteText's text model: the table resized to each
                                  sequence's length (bilinear, align_corners false);
                                  token t of T mixes two rows (posenc_resample_rows) */
} posenc_ids_kind;

/* The ids of a LEARNED layer. Only the fields of kind are meaningful (the
 * rest are 0); the 1-D table itself is posenc_model_layer_table's (for
 * AXIAL: positions = h * w rows of width d0 + d1). */
typedef struct posenc_model_ids {
    posenc_ids_kind kind;
    uint32_t box_rows;        /* BOX2D: max_2d_position_embeddings (rows of each of the
                                 x, y, h, w tables) */
    uint32_t xpath_depth;     /* XPATH: max_depth (tag and subscript tables per depth) */
    uint32_t xpath_tags;      /* XPATH: max_xpath_tag_unit_embeddings (rows of each tag
                                 table) */
    uint32_t xpath_subs;      /* XPATH: max_xpath_subs_unit_embeddings */
    uint32_t xpath_unit;      /* XPATH: xpath_unit_hidden_size (width of each) */
    uint32_t cell_columns;    /* CELL_RESET: type_vocab_sizes[1] (column ids) */
    uint32_t cell_rows;       /* CELL_RESET: type_vocab_sizes[2] (row ids) */
    uint32_t axial_shape[2];  /* AXIAL: axial_pos_shape (h, w) */
    uint32_t axial_dim[2];    /* AXIAL: axial_pos_embds_dim (d0, d1), d0 + d1 = dim */
} posenc_model_ids;

/* *ids = how the rows of a LEARNED layer's table are read.
 * Errors: those of posenc_model_layer, POSENC_ERR_NULL (ids),
 * POSENC_ERR_RANGE (not a LEARNED layer). */
POSENC_NODISCARD
posenc_status posenc_model_layer_ids(const posenc_model *m, uint32_t layer,
                                     posenc_model_ids *ids);

/* The name of kind ("plain", "box2d", "xpath", "cell-reset", "axial",
 * "resampled"). */
const char *posenc_ids_kind_name(posenc_ids_kind kind);
/* Transformer-XL's relative sinusoid (RELATIVE_SINUSOID layer): the
 * attention reads a vector R of each distance query - key (positions as the
 * layer sees them, negatives included),
 *     R(p) = [sin(p w_0) .. sin(p w_{D/2-1}) | cos(p w_0) .. cos(p w_{D/2-1})],
 *     w_k = 10000^(-2k/D), D = d_model, in the families' float32 steps:
 * posenc_sinusoid_layout_fill_f32(&spec, distances, n, d_model) with spec
 * POSENC_SINUSOID_CTRL's (posenc.h 1.7), the distances of posenc.h 1.9:
 *   XLNet (funnel 0): posenc_xlnet_rel_positions(qlen, klen, bidirectional,
 *     clamp_len) (attn_type "bi" / "uni"; klen = qlen + the memory, at most
 *     mem_len tokens when mem_len > 0). Transformer-XL's formula; transformers
 *     5.23 has no Transformer-XL model of its own.
 *   Funnel, attention_type "relative_shift" (funnel 1, factorized 0):
 *     posenc_funnel_rel_positions(seq_len, block, pooling, separate_cls,
 *     truncate_seq), pooling = this layer's queries are pooled against the
 *     previous block's keys (the first layer of a block >= 1 when
 *     pool_q_only); decoder layers read block 0 at the full length.
 *   Funnel, "factorized": sin and cos of the token positions of the layer's
 *     queries and keys (the stride-pooled indices 0 .. seq_len - 1,
 *     posenc_funnel_factorized_positions), whose products give
 *     sin and cos of the distance.
 * Layers are numbered as the code stacks them: Funnel's encoder blocks
 * (block_sizes[b] layers each, each run block_repeats[b] times), then its
 * num_decoder_layers decoder layers. */
typedef struct posenc_model_rel_sinusoid {
    posenc_sinusoid_spec spec; /* POSENC_SINUSOID_CTRL's, offset 0 */
    uint32_t d_model;          /* D: the vector's width (even) */
    int funnel;                /* 0: XLNet, 1: Funnel */
    int bidirectional;         /* XLNet: attn_type "bi" 1, "uni" 0; Funnel: 1 */
    int64_t clamp_len;         /* XLNet: > 0 clamps distances to [-clamp_len,
                                  clamp_len]; <= 0 none (-1 in every checkpoint) */
    int64_t mem_len;           /* XLNet: tokens of memory kept (0: none; -1: null) */
    int factorized;            /* Funnel: attention_type "factorized" (else
                                  "relative_shift") */
    int separate_cls;          /* Funnel: <cls> kept apart when pooling */
    int truncate_seq;          /* Funnel: the last token dropped before pooling */
    int pool_q_only;           /* Funnel: the first layer of a block pools only queries */
    uint32_t block;            /* Funnel: the layer's block (decoder layers: 0) */
    uint32_t n_block;          /* Funnel: len(block_sizes) */
    int pooling;               /* Funnel: the layer's queries are pooled, its keys
                                  the previous block's (see above) */
    int decoder;               /* Funnel: a decoder layer */
} posenc_model_rel_sinusoid;

/* *rs = the relative sinusoid of a RELATIVE_SINUSOID layer.
 * Errors: those of posenc_model_layer, POSENC_ERR_NULL (rs),
 * POSENC_ERR_RANGE (another scheme). */
POSENC_NODISCARD
posenc_status posenc_model_layer_rel_sinusoid(const posenc_model *m, uint32_t layer,
                                              posenc_model_rel_sinusoid *rs);

/* The distances (Funnel factorized: the token positions) layer reads for a
 * sequence of seq_len tokens with no memory, in its code's order (see
 * posenc_model_rel_sinusoid): XLNet qlen = klen = seq_len; Funnel the
 * layer's block (and pooling) at seq_len. *n_out is always set on success
 * or POSENC_ERR_RANGE; out may be NULL with cap 0 to ask for the count.
 * Errors: those of posenc_model_layer_rel_sinusoid (n_out NULL:
 * POSENC_ERR_NULL); POSENC_ERR_POS (seq_len 0 or above
 * POSENC_FUNNEL_MAX_LEN, or a Funnel length at which its encoder skips a
 * pooling before the layer's block: a block's input of at most 2 tokens
 * with separate_cls, else 1); POSENC_ERR_RANGE (cap < *n_out). */
POSENC_NODISCARD
posenc_status posenc_model_rel_sinusoid_positions(const posenc_model *m, uint32_t layer,
                                                  uint32_t seq_len, int64_t *out, size_t cap,
                                                  size_t *n_out);

/* ---- deprecated names ------------------------------------------------------ */

/* The 2.0 spellings of posenc_query_scale_type's values, aliases of the
 * 2.x names (POSENC_<TYPE>_*, posenc.h 3.4) for one release, then removed;
 * POSENC_NO_DEPRECATED hides them now. */
#ifndef POSENC_NO_DEPRECATED
#define POSENC_QSCALE_NONE POSENC_QUERY_SCALE_NONE               /* deprecated */
#define POSENC_QSCALE_TEMPERATURE POSENC_QUERY_SCALE_TEMPERATURE /* deprecated */
#define POSENC_QSCALE_LOGN POSENC_QUERY_SCALE_LOGN               /* deprecated */
#define POSENC_QSCALE_BETA POSENC_QUERY_SCALE_BETA               /* deprecated */
#endif

#ifdef __cplusplus
}
#endif

#endif /* POSENC_MODEL_H */
