/* calls.h - the Python extensions' only door into libposenc.
 *
 * Every call from posenc._core (rope.c, cache.c, learned.c, module.c...)
 * and posenc._check (check.c) into the C library goes through the small
 * functions declared here and defined in calls.c, so that a change of the C
 * API (posenc_rope_qk's parameter struct, the direction enum, the opaque
 * model) is made in one file. The other files use posenc.h, posenc_model.h
 * and posenc_check.h for their types and macros only and never call a
 * posenc_* function themselves (python/tests/test_layout.py checks it).
 *
 * Each function returns a posenc_status value (0 = success); where a
 * function can say more than the status (the config reader, the table
 * loader), it writes one sentence into detail (may be "" afterwards).
 */
#ifndef PYPOSENC_CALLS_H
#define PYPOSENC_CALLS_H

#include <posenc.h>
#include <posenc_check.h>
#include <posenc_model.h>
#include <stddef.h>
#include <stdint.h>

/* One strided view of q or k, in elements (the extension's own struct, so
 * that the library's view type can change without touching rope.c). */
typedef struct pyposenc_view {
    void *dst;
    const void *src; /* NULL: in place */
    size_t n_head;
    size_t tok_stride, head_stride;
    size_t src_tok_stride, src_head_stride;
} pyposenc_view;

/* The explicit scaling of RoPE(...): the type's name ("default", "linear",
 * ...) and the fields of posenc_rope_scaling (lists: NULL/0 when absent). */
typedef struct pyposenc_scaling_in {
    const char *type;
    double factor, original_max_position_embeddings, beta_fast, beta_slow;
    int truncate;
    double mscale, mscale_all_dim, attention_factor, low_freq_factor, high_freq_factor;
    const double *short_factor, *long_factor, *freq_factors;
    size_t n_short_factor, n_long_factor, n_freq_factors;
    /* which optional numbers were given (else posenc_rope_scaling_init's defaults) */
    int has_beta_fast, has_beta_slow, has_truncate;
    double partial_rotary_factor; /* proportional: p (has_prf: given) */
    int has_prf;
} pyposenc_scaling_in;

/* Whether the config reader (libposenc_config.a, jansson) is linked in. */
int pyposenc_have_config_reader(void);

const char *pyposenc_strerror(int status);
const char *pyposenc_version_string(void);
unsigned pyposenc_version_number(void);
const char *pyposenc_rope_isa(void);
const char *pyposenc_rope_type_name(int type);

/* *c = the explicit parameters (scaling NULL: plain RoPE), lists copied in.
 * Checks the type name (POSENC_ERR_RANGE: unknown) and the list lengths. */
int pyposenc_config_build(posenc_rope_config *c, uint32_t head_dim, uint32_t rotary_dim,
                          double base, posenc_layout layout, const pyposenc_scaling_in *s,
                          char *detail, size_t detail_size);

/* After pyposenc_model_from_rope refused c with POSENC_ERR_RANGE: the
 * argument to blame, in detail ("scaling['factor'] = 0.5: the linear scaling
 * takes ..."), found by putting one argument at a time back to a valid
 * value; "" when none alone explains it. */
void pyposenc_config_blame(const posenc_rope_config *c, char *detail, size_t detail_size);

/* *m = the model a config.json text (json, len bytes) describes, read
 * through the model registry as the program's --config reads it
 * (posenc_model_from_config_text: the family's layout, per-layer bases,
 * scalings and length rules), checked to have RoPE at layer `layer`. A
 * layer past the last, or one without RoPE (NoPE, learned, ALiBi, T5
 * buckets...), is POSENC_ERR_RANGE with a sentence naming the layer and its
 * scheme. Without the config reader: POSENC_ERR_FORMAT and a sentence
 * naming the package. Free *m with pyposenc_model_free. */
int pyposenc_config_from_text(const char *json, size_t len, int64_t layer, posenc_model **m,
                              char *detail, size_t detail_size);

/* *m = a model with the RoPE c on every layer (RoPE(...) by hand). */
int pyposenc_model_from_rope(const posenc_rope_config *c, posenc_model **m);
/* *out = a copy of m. */
int pyposenc_model_copy(const posenc_model *m, posenc_model **out);
/* What the config reader read layer `layer` as: *type and *part
 * (posenc_model_type / _part, "" when not from a config), its M-RoPE
 * sections and rule name (*rule NULL: the layer has no M-RoPE), and the
 * family's transformers module convention (posenc_model_hf_module_convention). */
int pyposenc_model_info(const posenc_model *m, uint32_t layer, const char **type,
                        const char **part, uint32_t section[3], const char **rule,
                        const char **hf_module);

/* posenc_model_layer_rope_rows: the rows of the layer's cos/sin table (0: any
 * position) and whether its values turn too; 0, 0 where the layer has none. */
int pyposenc_model_rope_rows(const posenc_model *m, uint32_t layer, int64_t *rows,
                             int *rotary_value);
void pyposenc_model_free(posenc_model *m); /* NULL accepted */

/* *r = layer's RoPE at sequence length cur_len, from the library's
 * per-layer call (posenc_model_layer_rope: dynamic NTK, LongRoPE's switch
 * and the family's own length rules, e.g. Qwen 1's dynamic NTK; 0: the
 * trained length), and *c its configuration; indexer: the layer's indexer
 * RoPE instead (posenc_model_layer_indexer_rope, DeepSeek V3.2). */
int pyposenc_model_rope(const posenc_model *m, uint32_t layer, int64_t cur_len, int indexer,
                        posenc_rope *r, posenc_rope_config *c);

/* A cos/sin cache of r for positions 0 .. max_pos - 1 (malloc'd). */
int pyposenc_rope_cache_create(const posenc_rope *r, int64_t max_pos, void **cache);
void pyposenc_rope_cache_free(void *cache);

/* posenc_rope_qk's arguments (posenc_rope_qk_args, field for field) in the
 * extension's words: the keyword arguments of Rope.apply land here. */
typedef struct pyposenc_qk_args {
    const posenc_rope *rope;
    const void *cache;     /* NULL: none, else from pyposenc_rope_cache_create for
                            * rope, covering every position */
    posenc_dtype dtype;
    size_t n_tok;
    const int64_t *pos;    /* n_tok positions, or NULL: pos0, pos0 + 1, ... */
    int64_t pos0;
    const pyposenc_view *q, *k; /* NULL: absent (not both) */
    int inverse;           /* 1: posenc_rope_qk_args.direction = POSENC_INVERSE */
    unsigned n_threads;
} pyposenc_qk_args;

/* posenc_rope_qk on a's tensors. */
int pyposenc_rope_qk(const pyposenc_qk_args *a);

/* cos[t][k] and sin[t][k] (k < rotary_dim/2, attention factor included)
 * as doubles for the n positions pos[]: posenc_rope_vec_f64 on unit pairs.
 * scratch: r->head_dim doubles. */
int pyposenc_rope_cos_sin_f64(const posenc_rope *r, size_t n, const int64_t *pos, double *cos,
                              double *sin, double *scratch);

/* The same in float32 from the tensor kernels' cos/sin fill (the values
 * posenc_rope_qk multiplies by): rotates unit pairs in scratch
 * (chunk * r->head_dim floats, chunk >= 1) with posenc_rope_qk, chunk
 * positions at a time, then copies them out. */
int pyposenc_rope_cos_sin_f32(const posenc_rope *r, size_t n, const int64_t *pos, float *cos,
                              float *sin, float *scratch, size_t chunk, unsigned n_threads);

/* Element indices of pair k (posenc_pair_index). */
int pyposenc_pair_index(uint32_t k, uint32_t d, posenc_layout layout, uint32_t *i0,
                        uint32_t *i1);

/* n_pos x d sinusoid table rows pos0.. in float32 (f64 = 0) or float64. */
int pyposenc_sinusoid_table(int64_t pos0, size_t n_pos, uint32_t d, double base, int f64,
                            void *out);

int pyposenc_alibi_slopes(uint32_t h, double *out);
int pyposenc_alibi_bias(uint32_t n_head, uint32_t n_query, uint32_t n_key, int64_t q_offset,
                        int causal, unsigned n_threads, float *out);

/* A learned table read from the text file at path, or, when tensor is not
 * NULL, tensor `tensor` of the .safetensors file at path (F32, F16, BF16 or
 * F64, [n_pos, dim]; posenc_learned_load_safetensors). On success *handle
 * is the table (free with pyposenc_learned_free), *n_pos and *dim its shape. */
int pyposenc_learned_load(const char *path, const char *tensor, void **handle, size_t *n_pos,
                          size_t *dim, char *detail, size_t detail_size);
/* Copies every row into out (n_pos * dim doubles, row-major). */
int pyposenc_learned_rows(void *handle, double *out);
void pyposenc_learned_free(void *handle);

/* posenc_t5_bias_f32: out[h][i][j] = table[bucket(q_offset + i, j) * n_head + h]. */
int pyposenc_t5_bias(const float *table, uint32_t num_buckets, uint32_t n_head,
                     uint32_t max_distance, int bidirectional, uint32_t n_query, uint32_t n_key,
                     int64_t q_offset, unsigned n_threads, float *out);

/* out[i] = posenc_t5_bucket(query_pos[i], key_pos[i], ...) for i < n; stops
 * at the first error (out then partly written: the caller's scratch). */
int pyposenc_t5_buckets(const int64_t *query_pos, const int64_t *key_pos, size_t n,
                        uint32_t num_buckets, uint32_t max_distance, int bidirectional,
                        int64_t *out);

/* ---- posenc._check (check.c) ---- */

/* The sense layer's q and k turn in (posenc_model_layer_rope_sense: 1, -1
 * for NanoChat's -theta, 0 without RoPE); *model_type = the model's type. */
int pyposenc_model_sense(const posenc_model *m, uint32_t layer, const char **model_type);

/* *cfg = layer `layer`'s RoPE configuration with its scaling at length
 * seq_len (posenc_model_layer_rope_config, posenc_model_layer_scaling: the
 * family's length rules included, e.g. Qwen 1's dynamic NTK): what
 * posenc_check_run compares with. cfg's lists point into m. */
int pyposenc_layer_config_at(const posenc_model *m, uint32_t layer, int64_t seq_len,
                             posenc_rope_config *cfg);
/* posenc_check_run; and the name of cause id (posenc_check_cause_name). */
int pyposenc_check_run(const posenc_rope_config *cfg, const posenc_check_input *in,
                       int64_t seq_len, double tol, posenc_check_result *res);
const char *pyposenc_check_cause_name(int cause);

/* posenc._schemes: layer of the config's model at the n positions pos: a
 * sinusoid layer's vectors (*kind 1, *out float32 [n, *width]) or a
 * relative-bucket layer's ids (*kind 2, *out int64 [n, n], *width n), as
 * posenc golden writes them; *out is malloc'd (the caller frees it). */
int pyposenc_scheme_values(const char *json, size_t len, int64_t layer, const int64_t *pos,
                           size_t n, int *kind, uint32_t *width, void **out, char *detail,
                           size_t detail_size);

/* LongT5's transient-global side buckets of the config's layer at query
 * positions pos in a sequence of n_tok tokens (posenc golden's side_bucket):
 * *out int64 [n, *n_global], malloc'd (NULL when empty). */
int pyposenc_side_buckets(const char *json, size_t len, int64_t layer, int64_t n_tok,
                          const int64_t *pos, size_t n, int64_t **out, size_t *n_global,
                          char *detail, size_t detail_size);
/* posenc._schemes: the rows a LEARNED layer's table is read at, as posenc
 * golden writes them: for the n token indices pos, out int64 [n, *width],
 * *width 1 (row = offset + index) or 3 (row, axial_row, axial_col: Reformer);
 * for TAPAS's reset per cell (pos NULL, n tokens) the rows from each token's
 * cell (columns[t], rows[t]), *width 1. *ids_kind: posenc_ids_kind. *out is
 * malloc'd (the caller frees it). */
int pyposenc_learned_ids(const char *json, size_t len, int64_t layer, const int64_t *pos,
                          const uint32_t *columns, const uint32_t *rows, size_t n, int *ids_kind,
                          uint32_t *width, int64_t **out, char *detail, size_t detail_size);

/* posenc._schemes: a relative-sinusoid layer's (XLNet, Funnel) distances and
 * vectors, as posenc golden writes them: the n_given distances of given
 * (XLNet's clamped by clamp_len) when given is not NULL, else those the
 * layer reads for seq_len tokens (posenc_model_rel_sinusoid_positions).
 * *pos (int64 [*n]) and *pe (float32 [*n, *width]) are malloc'd (the caller
 * frees them). */
int pyposenc_rel_sinusoid(const char *json, size_t len, int64_t layer, int64_t seq_len,
                          const int64_t *given, size_t n_given, int64_t **pos, size_t *n,
                          float **pe, uint32_t *width, char *detail, size_t detail_size);

/* posenc._schemes: the factor layer's queries at each of the n positions pos
 * are multiplied by (posenc_model_query_scale; 1 where the layer has none),
 * into out[n]. */
int pyposenc_query_scales(const char *json, size_t len, int64_t layer, const int64_t *pos,
                          size_t n, double *out, char *detail, size_t detail_size);

/* posenc._schemes: SAM 3 LiteText's resampled table: for the n token indices
 * pos of a sequence of seq_len tokens, rows[i] and rows[n + i] (the two rows
 * token pos[i] mixes) and weight1[i] (the second's weight), as posenc golden
 * writes them (posenc_resample_rows). */
int pyposenc_resampled_rows(const char *json, size_t len, int64_t layer, int64_t seq_len,
                            const int64_t *pos, size_t n, int64_t *rows, float *weight1,
                            char *detail, size_t detail_size);

/* posenc._schemes: ProphetNet's predicting streams' buckets of the config's
 * decoder layer at positions pos (posenc golden's predict_bucket): *out
 * int64 [n, 2n] (posenc_model_layer_prophetnet_predict), malloc'd (NULL when
 * empty). */
int pyposenc_prophetnet_predict(const char *json, size_t len, int64_t layer, const int64_t *pos,
                                size_t n, int64_t **out, char *detail, size_t detail_size);

#endif
