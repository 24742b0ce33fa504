/* calls.c - every call of the Python extensions (posenc._core and
 * posenc._check) into libposenc (see calls.h). Nothing here knows about
 * Python. */
#include "calls.h"

#ifdef POSENC_HAVE_JSON
#include <posenc_config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef POSENC_HAVE_JSON
/* What a call that reads a config.json says in a build without the reader. */
static int no_config_reader(char *detail, size_t detail_size)
{
    snprintf(detail, detail_size,
             "this posenc was built without the config.json reader: install jansson "
             "(apt-get install libjansson-dev), then rebuild (make python)");
    return POSENC_ERR_FORMAT;
}
#endif

int pyposenc_have_config_reader(void)
{
#ifdef POSENC_HAVE_JSON
    return 1;
#else
    return 0;
#endif
}

const char *pyposenc_strerror(int status) { return posenc_strerror((posenc_status)status); }
const char *pyposenc_version_string(void) { return posenc_version_string(); }
unsigned pyposenc_version_number(void) { return posenc_version_number(); }
const char *pyposenc_rope_isa(void) { return posenc_rope_isa(); }
const char *pyposenc_rope_type_name(int type)
{
    return posenc_rope_type_name((posenc_rope_type)type);
}

static int copy_list(double *dst, size_t *n_dst, const double *src, size_t n, const char *name,
                     char *detail, size_t detail_size)
{
    if (n > POSENC_ROPE_MAX_HEAD_DIM / 2) {
        snprintf(detail, detail_size, "%s has %zu values; at most %u are possible", name, n,
                 POSENC_ROPE_MAX_HEAD_DIM / 2);
        return POSENC_ERR_DIM;
    }
    if (n)
        memcpy(dst, src, n * sizeof *dst);
    *n_dst = n;
    return POSENC_OK;
}

int pyposenc_config_build(posenc_rope_config *c, uint32_t head_dim, uint32_t rotary_dim,
                          double base, posenc_layout layout, const pyposenc_scaling_in *s,
                          char *detail, size_t detail_size)
{
    posenc_rope_type type = POSENC_ROPE_DEFAULT;
    int st;
    detail[0] = 0;
    memset(c, 0, sizeof *c);
    c->head_dim = head_dim;
    c->rotary_dim = rotary_dim;
    c->base = base;
    c->layout = layout;
    if (s && s->type && (st = posenc_rope_type_parse(s->type, &type)) != POSENC_OK) {
        snprintf(detail, detail_size,
                 "unknown scaling type '%.40s' (default, linear, ntk, dynamic, yarn, llama3, "
                 "longrope, proportional)",
                 s->type);
        return st;
    }
    if ((st = posenc_rope_scaling_init(&c->scaling, type)) != POSENC_OK || !s)
        return st;
    posenc_rope_scaling *d = &c->scaling;
    d->factor = s->factor;
    d->original_max_position_embeddings = s->original_max_position_embeddings;
    if (s->has_beta_fast)
        d->beta_fast = s->beta_fast;
    if (s->has_beta_slow)
        d->beta_slow = s->beta_slow;
    if (s->has_truncate)
        d->truncate = s->truncate;
    d->mscale = s->mscale;
    d->mscale_all_dim = s->mscale_all_dim;
    d->attention_factor = s->attention_factor;
    d->low_freq_factor = s->low_freq_factor;
    d->high_freq_factor = s->high_freq_factor;
    if (s->has_prf)
        d->partial_rotary_factor = s->partial_rotary_factor;
    if ((st = copy_list(c->short_factor, &d->n_short_factor, s->short_factor, s->n_short_factor,
                        "short_factor", detail, detail_size)) != POSENC_OK ||
        (st = copy_list(c->long_factor, &d->n_long_factor, s->long_factor, s->n_long_factor,
                        "long_factor", detail, detail_size)) != POSENC_OK ||
        (st = copy_list(c->freq_factors, &d->n_freq_factors, s->freq_factors,
                        s->n_freq_factors, "freq_factors", detail, detail_size)) != POSENC_OK)
        return st;
    return POSENC_OK;
}

/* The scaling numbers a refusal can blame: a valid value to try in their
 * place, and their ranges as posenc.h states them (posenc_rope_scaling). */
static const struct {
    const char *name;
    size_t off;
    double valid;
    const char *range;
} blame_numbers[] = {
    {"factor", offsetof(posenc_rope_scaling, factor), 1.0,
     "factor >= 1; > 0 for longrope and proportional"},
    {"original_max_position_embeddings",
     offsetof(posenc_rope_scaling, original_max_position_embeddings), 4096.0,
     "L finite, >= 1; > 1 for longrope; 0: absent"},
    {"beta_fast", offsetof(posenc_rope_scaling, beta_fast), 32.0,
     "finite, beta_fast >= beta_slow > 0"},
    {"beta_slow", offsetof(posenc_rope_scaling, beta_slow), 1.0,
     "finite, beta_fast >= beta_slow > 0"},
    {"mscale", offsetof(posenc_rope_scaling, mscale), 0.0, "mscale finite, >= 0"},
    {"mscale_all_dim", offsetof(posenc_rope_scaling, mscale_all_dim), 0.0, "mscale_all_dim finite, >= 0"},
    {"attention_factor", offsetof(posenc_rope_scaling, attention_factor), 0.0,
     "attention_factor finite, > 0; 0: derived"},
    {"low_freq_factor", offsetof(posenc_rope_scaling, low_freq_factor), 1.0,
     "finite, 0 < low_freq_factor < high_freq_factor"},
    {"high_freq_factor", offsetof(posenc_rope_scaling, high_freq_factor), 4.0,
     "finite, 0 < low_freq_factor < high_freq_factor"},
    {"partial_rotary_factor", offsetof(posenc_rope_scaling, partial_rotary_factor), 1.0,
     "finite, 0 < partial_rotary_factor <= 1"},
};

static int config_ok(const posenc_rope_config *c)
{
    posenc_rope r;
    return posenc_rope_init_config(&r, c, 0) == POSENC_OK;
}

void pyposenc_config_blame(const posenc_rope_config *c, char *detail, size_t detail_size)
{
    const char *type = posenc_rope_type_name(c->scaling.type);
    posenc_rope_config *t = malloc(sizeof *t); /* 12 KiB: not on the stack */
    detail[0] = 0;
    if (!t)
        return;
    for (size_t i = 0; i < sizeof blame_numbers / sizeof blame_numbers[0]; i++) {
        *t = *c;
        double *v = (double *)((char *)&t->scaling + blame_numbers[i].off);
        *v = blame_numbers[i].valid;
        if (config_ok(t)) {
            snprintf(detail, detail_size, "scaling['%s'] = %.17g is out of range for the %s "
                     "scaling (%s)",
                     blame_numbers[i].name,
                     *(const double *)((const char *)&c->scaling + blame_numbers[i].off), type,
                     blame_numbers[i].range);
            free(t);
            return;
        }
    }
    /* the lists: every value finite and > 0 */
    const char *lists[] = {"short_factor", "long_factor", "freq_factors"};
    for (int i = 0; i < 3; i++) {
        *t = *c;
        double *l = i == 0 ? t->short_factor : i == 1 ? t->long_factor : t->freq_factors;
        for (size_t j = 0; j < POSENC_ROPE_MAX_HEAD_DIM / 2; j++)
            l[j] = 1.0;
        if (config_ok(t)) {
            snprintf(detail, detail_size, "scaling['%s'] holds a value that is not finite "
                     "and > 0", lists[i]);
            free(t);
            return;
        }
    }
    *t = *c; /* ntk and dynamic need 4 rotated elements or more */
    t->rotary_dim = t->head_dim;
    if (config_ok(t))
        snprintf(detail, detail_size, "rotary_dim = %u: the %s scaling takes an even rotary_dim "
                 "from %u to head_dim %u", c->rotary_dim, type,
                 c->scaling.type == POSENC_ROPE_NTK || c->scaling.type == POSENC_ROPE_DYNAMIC
                     ? 4u : 2u, c->head_dim);
    free(t);
}

#ifdef POSENC_HAVE_JSON
/* The model of a config.json text and the description of its layer `layer`
 * (*m owned by the caller on success; freed here on failure, with detail
 * saying why: the reader's line and column, or the layer's range). */
static int model_layer_at(const char *json, size_t len, int64_t layer, posenc_model **out,
                          posenc_layer_info *li, char *detail, size_t detail_size)
{
    posenc_config_error err;
    posenc_model *m;
    memset(&err, 0, sizeof err);
    detail[0] = 0;
    int st = posenc_model_create(&m);
    if (st != POSENC_OK)
        return st;
    st = posenc_model_from_config_text(json, len, NULL, m, &err);
    if (st != POSENC_OK) {
        if (err.line > 0)
            snprintf(detail, detail_size, "line %d, column %d: %s", err.line, err.column,
                     err.detail);
        else
            snprintf(detail, detail_size, "%s", err.detail);
    } else if (layer < 0 || layer >= (int64_t)posenc_model_n_layer(m) ||
               posenc_model_layer(m, (uint32_t)layer, li) != POSENC_OK) {
        uint32_t nl = posenc_model_n_layer(m);
        snprintf(detail, detail_size, "layer %lld does not exist: the model has %u layers (0 to %u)",
                 (long long)layer, nl, nl - 1);
        st = POSENC_ERR_RANGE;
    }
    if (st != POSENC_OK) {
        posenc_model_free(m);
        return st;
    }
    *out = m;
    return POSENC_OK;
}
#endif

int pyposenc_config_from_text(const char *json, size_t len, int64_t layer, posenc_model **out,
                              char *detail, size_t detail_size)
{
#ifdef POSENC_HAVE_JSON
    /* Through the model registry, as the program's --config: the family's
     * layout, and layer `layer`'s RoPE (per-layer bases, scalings and length
     * rules), asked of the model at each length. */
    posenc_layer_info li;
    posenc_model *m;
    int st = model_layer_at(json, len, layer, &m, &li, detail, detail_size);
    if (st != POSENC_OK)
        return st;
    if (li.scheme != POSENC_SCHEME_ROPE) {
        const char *type = posenc_model_type(m);
        const char *why = posenc_model_layer_reason(m, (uint32_t)layer);
        snprintf(detail, detail_size, "layer %lld of %s has no RoPE (scheme %s%s%s)",
                 (long long)layer, type[0] ? type : "the model", posenc_scheme_name(li.scheme),
                 why[0] ? ": " : "", why);
        posenc_model_free(m);
        return POSENC_ERR_RANGE;
    }
    *out = m;
    return POSENC_OK;
#else
    (void)json;
    (void)len;
    (void)layer;
    (void)out;
    return no_config_reader(detail, detail_size);
#endif
}

int pyposenc_model_from_rope(const posenc_rope_config *c, posenc_model **out)
{
    posenc_model *m;
    int st = posenc_model_create(&m);
    if (st == POSENC_OK && (st = posenc_model_set_rope(m, c, 1)) != POSENC_OK)
        posenc_model_free(m);
    if (st == POSENC_OK)
        *out = m;
    return st;
}

int pyposenc_model_copy(const posenc_model *src, posenc_model **out)
{
    posenc_model *m;
    int st = posenc_model_create(&m);
    if (st == POSENC_OK && (st = posenc_model_copy(m, src)) != POSENC_OK)
        posenc_model_free(m);
    if (st == POSENC_OK)
        *out = m;
    return st;
}

void pyposenc_model_free(posenc_model *m) { posenc_model_free(m); }

int pyposenc_model_info(const posenc_model *m, uint32_t layer, const char **type,
                        const char **part, uint32_t section[3], const char **rule,
                        const char **hf_module)
{
    posenc_mrope mr;
    *type = posenc_model_type(m);
    *part = posenc_model_part(m);
    *hf_module = posenc_model_hf_module_convention(m);
    *rule = NULL;
    if (posenc_model_layer_mrope(m, layer, &mr, NULL, NULL) == POSENC_OK) {
        memcpy(section, mr.section, sizeof mr.section);
        *rule = posenc_mrope_rule_name(mr.rule);
    }
    return POSENC_OK;
}

int pyposenc_model_rope_rows(const posenc_model *m, uint32_t layer, int64_t *rows,
                             int *rotary_value)
{
    if (posenc_model_layer_rope_rows(m, layer, rows, rotary_value) != POSENC_OK) {
        *rows = 0; /* a RoPE not from a model's RoPE layer (the indexer's is the layer's) */
        *rotary_value = 0;
    }
    return POSENC_OK;
}

int pyposenc_model_rope(const posenc_model *m, uint32_t layer, int64_t cur_len, int indexer,
                        posenc_rope *r, posenc_rope_config *c)
{
    posenc_status st = indexer ? posenc_model_layer_indexer_rope(m, layer, cur_len, r)
                               : posenc_model_layer_rope(m, layer, cur_len, r);
    if (st == POSENC_OK)
        st = posenc_model_layer_rope_config(m, layer, c);
    if (st == POSENC_OK && indexer) { /* the indexer's heads and layout */
        c->head_dim = r->head_dim;
        c->layout = r->layout;
    }
    return (int)st;
}

/* NumPy and PyTorch know each array's extent, so the order is read from its
 * strides: tokens outer when one token's heads fit in tok_stride, else heads
 * outer ([batch][n_head][seq][head_dim]); the library checks either. With one
 * token the token stride is never used (rope.c passes 0): it is set to the
 * token's extent. */
static size_t heads_extent(size_t n_head, size_t hd, size_t hs)
{
    return (n_head ? n_head - 1 : 0) * hs + hd;
}

static int tokens_outer(size_t n_head, size_t hd, size_t ts, size_t hs)
{
    return (n_head <= 1 || hs >= hd) && ts >= heads_extent(n_head, hd, hs);
}

static posenc_rope_view to_view(const pyposenc_view *p, size_t hd, size_t n_tok)
{
    posenc_rope_view v = {.dst = p->dst,
                          .src = p->src,
                          .n_head = p->n_head,
                          .tok_stride = p->tok_stride,
                          .head_stride = p->head_stride,
                          .src_tok_stride = p->src_tok_stride,
                          .src_head_stride = p->src_head_stride};
    if (n_tok <= 1) {
        v.tok_stride = heads_extent(v.n_head, hd, v.head_stride);
        v.src_tok_stride = heads_extent(v.n_head, hd, v.src_head_stride);
    }
    v.order = tokens_outer(v.n_head, hd, v.tok_stride, v.head_stride) ? POSENC_TOKENS_OUTER
                                                                      : POSENC_HEADS_OUTER;
    v.src_order = tokens_outer(v.n_head, hd, v.src_tok_stride, v.src_head_stride)
                      ? POSENC_TOKENS_OUTER
                      : POSENC_HEADS_OUTER;
    return v;
}

int pyposenc_rope_cache_create(const posenc_rope *r, int64_t max_pos, void **cache)
{
    posenc_rope_cache *c = NULL;
    int st = posenc_rope_cache_create(r, max_pos, &c);
    *cache = c;
    return st;
}

void pyposenc_rope_cache_free(void *cache) { posenc_rope_cache_free(cache); }

int pyposenc_rope_qk(const pyposenc_qk_args *p)
{
    const posenc_rope *r = p->rope;
    posenc_rope_qk_args a = {.rope = r,
                             .cache = p->cache,
                             .dtype = p->dtype,
                             .n_tok = p->n_tok,
                             .pos = p->pos,
                             .pos0 = p->pos0,
                             .direction = p->inverse ? POSENC_INVERSE : POSENC_FORWARD,
                             .n_threads = p->n_threads};
    if (p->q)
        a.q = to_view(p->q, r->head_dim, p->n_tok);
    if (p->k)
        a.k = to_view(p->k, r->head_dim, p->n_tok);
    return posenc_rope_qk(&a);
}

int pyposenc_pair_index(uint32_t k, uint32_t d, posenc_layout layout, uint32_t *i0,
                        uint32_t *i1)
{
    return posenc_pair_index(k, d, layout, i0, i1);
}

int pyposenc_rope_cos_sin_f64(const posenc_rope *r, size_t n, const int64_t *pos, double *cos,
                              double *sin, double *scratch)
{
    uint32_t P = r->rotary_dim / 2, i0, i1;
    int st;
    for (size_t t = 0; t < n; t++) {
        memset(scratch, 0, r->head_dim * sizeof *scratch);
        for (uint32_t k = 0; k < P; k++) {
            if ((st = posenc_pair_index(k, r->rotary_dim, r->layout, &i0, &i1)) != POSENC_OK)
                return st;
            scratch[i0] = 1.0; /* the pair (1, 0) turns into (a cos, a sin) */
        }
        if ((st = posenc_rope_vec_f64(r, pos[t], POSENC_FORWARD, scratch)) != POSENC_OK)
            return st;
        for (uint32_t k = 0; k < P; k++) {
            if ((st = posenc_pair_index(k, r->rotary_dim, r->layout, &i0, &i1)) != POSENC_OK)
                return st;
            cos[t * P + k] = scratch[i0];
            sin[t * P + k] = scratch[i1];
        }
    }
    return POSENC_OK;
}

int pyposenc_rope_cos_sin_f32(const posenc_rope *r, size_t n, const int64_t *pos, float *cos,
                              float *sin, float *scratch, size_t chunk, unsigned n_threads)
{
    uint32_t P = r->rotary_dim / 2, D = r->head_dim, i0, i1;
    int st;
    for (size_t t0 = 0; t0 < n; t0 += chunk) {
        size_t m = n - t0 < chunk ? n - t0 : chunk;
        memset(scratch, 0, m * D * sizeof *scratch);
        for (uint32_t k = 0; k < P; k++) {
            if ((st = posenc_pair_index(k, r->rotary_dim, r->layout, &i0, &i1)) != POSENC_OK)
                return st;
            for (size_t t = 0; t < m; t++)
                scratch[t * D + i0] = 1.0f; /* (1*c) - (0*s) = c, (1*s) + (0*c) = s */
        }
        posenc_rope_qk_args a = {.rope = r,
                                 .n_tok = m,
                                 .pos = pos + t0,
                                 .q = posenc_rope_view_dense(scratch, 1, D),
                                 .n_threads = n_threads};
        if ((st = posenc_rope_qk(&a)) != POSENC_OK)
            return st;
        for (uint32_t k = 0; k < P; k++) {
            if ((st = posenc_pair_index(k, r->rotary_dim, r->layout, &i0, &i1)) != POSENC_OK)
                return st;
            for (size_t t = 0; t < m; t++) {
                cos[(t0 + t) * P + k] = scratch[t * D + i0];
                sin[(t0 + t) * P + k] = scratch[t * D + i1];
            }
        }
    }
    return POSENC_OK;
}

int pyposenc_sinusoid_table(int64_t pos0, size_t n_pos, uint32_t d, double base, int f64,
                            void *out)
{
    return f64 ? posenc_sinusoid_table_f64(pos0, n_pos, d, base, out)
               : posenc_sinusoid_table_f32(pos0, n_pos, d, base, out);
}

int pyposenc_alibi_slopes(uint32_t h, double *out) { return posenc_alibi_slopes(h, out); }

int pyposenc_alibi_bias(uint32_t n_head, uint32_t n_query, uint32_t n_key, int64_t q_offset,
                        int causal, unsigned n_threads, float *out)
{
    return posenc_alibi_bias_f32(n_head, n_query, n_key, q_offset, causal, n_threads, out);
}

int pyposenc_learned_load(const char *path, const char *tensor, void **handle, size_t *n_pos,
                          size_t *dim, char *detail, size_t detail_size)
{
    detail[0] = 0;
    posenc_learned *t = NULL;
    posenc_load_error err;
    memset(&err, 0, sizeof err);
    /* tensor: that tensor of a .safetensors checkpoint; else a text table */
    int st = tensor ? posenc_learned_load_safetensors(path, tensor, &t, &err)
                    : posenc_learned_load(path, &t, &err);
    if (st != POSENC_OK) {
        if (err.line && err.expected)
            snprintf(detail, detail_size, "line %zu: %s (expected %zu values, got %zu)",
                     err.line, err.detail, err.expected, err.got);
        else if (err.line)
            snprintf(detail, detail_size, "line %zu: %s", err.line, err.detail);
        else
            snprintf(detail, detail_size, "%s", err.detail);
        return st;
    }
    *handle = t;
    *n_pos = posenc_learned_n_pos(t);
    *dim = posenc_learned_dim(t);
    return POSENC_OK;
}

int pyposenc_learned_rows(void *handle, double *out)
{
    const posenc_learned *t = handle;
    size_t n = posenc_learned_n_pos(t), d = posenc_learned_dim(t);
    for (size_t i = 0; i < n; i++) {
        int st = posenc_learned_row_f64(t, (int64_t)i, out + i * d);
        if (st != POSENC_OK)
            return st;
    }
    return POSENC_OK;
}

void pyposenc_learned_free(void *handle) { posenc_learned_free(handle); }

int pyposenc_t5_bias(const float *table, uint32_t num_buckets, uint32_t n_head,
                     uint32_t max_distance, int bidirectional, uint32_t n_query, uint32_t n_key,
                     int64_t q_offset, unsigned n_threads, float *out)
{
    return posenc_t5_bias_f32(table, num_buckets, n_head, max_distance, bidirectional, n_query,
                              n_key, q_offset, n_threads, out);
}

int pyposenc_t5_buckets(const int64_t *query_pos, const int64_t *key_pos, size_t n,
                        uint32_t num_buckets, uint32_t max_distance, int bidirectional,
                        int64_t *out)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t b;
        int st = posenc_t5_bucket(query_pos[i], key_pos[i], num_buckets, max_distance,
                                  bidirectional, &b);
        if (st != POSENC_OK)
            return st;
        out[i] = (int64_t)b;
    }
    return POSENC_OK;
}

int pyposenc_model_sense(const posenc_model *m, uint32_t layer, const char **model_type)
{
    *model_type = posenc_model_type(m);
    return posenc_model_layer_rope_sense(m, layer);
}

int pyposenc_layer_config_at(const posenc_model *m, uint32_t layer, int64_t seq_len,
                             posenc_rope_config *cfg)
{
    posenc_rope_scaling sc;
    posenc_status st = posenc_model_layer_rope_config(m, layer, cfg);
    if (st == POSENC_OK)
        st = posenc_model_layer_scaling(m, layer, seq_len, &sc);
    if (st == POSENC_OK)
        cfg->scaling = sc;
    return (int)st;
}

int pyposenc_check_run(const posenc_rope_config *cfg, const posenc_check_input *in,
                       int64_t seq_len, double tol, posenc_check_result *res)
{
    return (int)posenc_check_run(cfg, in, seq_len, tol, res);
}

const char *pyposenc_check_cause_name(int cause)
{
    return posenc_check_cause_name((posenc_check_cause_id)cause);
}

/* ---- posenc._schemes (schemes.c): sinusoid tables and relative buckets ---- */

int pyposenc_scheme_values(const char *json, size_t len, int64_t layer, const int64_t *pos,
                           size_t n, int *kind, uint32_t *width, void **out, char *detail,
                           size_t detail_size)
{
    *out = NULL;
#ifdef POSENC_HAVE_JSON
    posenc_layer_info li;
    posenc_model *m;
    int st = model_layer_at(json, len, layer, &m, &li, detail, detail_size);
    if (st != POSENC_OK)
        return st;
    if (li.scheme == POSENC_SCHEME_SINUSOID) {
        /* the vectors the family adds (posenc golden's pe) */
        posenc_sinusoid_spec spec = {0};
        posenc_model_table tb = {0};
        if ((st = posenc_model_layer_sinusoid(m, (uint32_t)layer, &spec)) == POSENC_OK &&
            (st = posenc_model_layer_table(m, (uint32_t)layer, &tb)) == POSENC_OK) {
            /* no vector past a table that ends, where transformers raises
             * (PEGASUS-X's config length too) */
            int grows = posenc_sinusoid_table_grows(&spec);
            for (size_t i = 0; i < n && !grows && st == POSENC_OK; i++)
                if (pos[i] >= 0 && pos[i] + spec.offset >= tb.positions) {
                    snprintf(detail, detail_size,
                             "position %lld is past layer %lld's %lld-row sinusoid table",
                             (long long)pos[i], (long long)layer, (long long)tb.positions);
                    st = POSENC_ERR_POS;
                }
        }
        if (st == POSENC_OK) {
            float *o = n ? malloc(n * tb.dim * sizeof *o) : NULL;
            if (n && !o)
                st = POSENC_ERR_NOMEM;
            else if ((st = posenc_sinusoid_layout_fill_f32(&spec, pos, n, tb.dim, o)) !=
                     POSENC_OK)
                free(o);
            else {
                *kind = 1;
                *width = tb.dim;
                *out = o;
            }
        }
    } else if (li.scheme == POSENC_SCHEME_RELATIVE_BUCKETS) {
        /* T5's buckets (T5, MPNet) or DeBERTa's relative ids (posenc golden's bucket) */
        uint32_t dbs = 0, dmp = 0;
        posenc_model_t5 t5 = {0, 0, 0};
        int deberta = posenc_model_layer_deberta(m, (uint32_t)layer, &dbs, &dmp) == POSENC_OK;
        int other = 0; /* LongT5's encoder, CPM-Ant, VITS: posenc_model_layer_relative_ids */
        if (!deberta && (st = posenc_model_layer_t5(m, (uint32_t)layer, &t5)) == POSENC_ERR_RANGE) {
            other = 1;
            st = POSENC_OK;
        }
        int64_t *o = st == POSENC_OK && n ? malloc(n * n * sizeof *o) : NULL;
        if (st == POSENC_OK && n && !o)
            st = POSENC_ERR_NOMEM;
        if (other && n && st == POSENC_OK)
            st = posenc_model_layer_relative_ids(m, (uint32_t)layer, pos, n, pos, n, o);
        for (size_t i = 0; i < n && st == POSENC_OK && !other; i++)
            for (size_t j = 0; j < n && st == POSENC_OK; j++) {
                uint32_t v = 0;
                if (deberta && dbs > 0) {
                    st = posenc_deberta_log_bucket(pos[i] - pos[j], dbs, dmp, &o[i * n + j]);
                } else if (deberta) {
                    o[i * n + j] = pos[i] - pos[j];
                } else {
                    st = posenc_t5_bucket(pos[i], pos[j], t5.buckets, t5.max_distance,
                                          t5.bidirectional, &v);
                    o[i * n + j] = v;
                }
            }
        if (st != POSENC_OK) {
            free(o);
        } else {
            *kind = 2;
            *width = (uint32_t)n;
            *out = o;
        }
    } else {
        snprintf(detail, detail_size,
                 "layer %lld's scheme is %s: these calls give sinusoid tables and relative "
                 "buckets",
                 (long long)layer, posenc_scheme_name(li.scheme));
        st = POSENC_ERR_RANGE;
    }
    if (st != POSENC_OK && !detail[0])
        snprintf(detail, detail_size, "%s", posenc_strerror(st));
    posenc_model_free(m);
    return st;
#else
    (void)json;
    (void)len;
    (void)layer;
    (void)pos;
    (void)n;
    (void)kind;
    (void)width;
    return no_config_reader(detail, detail_size);
#endif
}

int pyposenc_side_buckets(const char *json, size_t len, int64_t layer, int64_t n_tok,
                          const int64_t *pos, size_t n, int64_t **out, size_t *n_global,
                          char *detail, size_t detail_size)
{
    *out = NULL;
    *n_global = 0;
#ifdef POSENC_HAVE_JSON
    posenc_layer_info li;
    posenc_model *m;
    int st = model_layer_at(json, len, layer, &m, &li, detail, detail_size);
    if (st != POSENC_OK)
        return st;
    posenc_model_longt5 lt;
    if (n_tok < 0 || n_tok > POSENC_MAX_POS + 1) {
        snprintf(detail, detail_size, "n_tok %lld is outside 0..%lld", (long long)n_tok,
                 POSENC_MAX_POS + 1);
        st = POSENC_ERR_POS;
    } else if (posenc_model_layer_longt5(m, (uint32_t)layer, &lt) != POSENC_OK ||
               !lt.global_block_size) {
        snprintf(detail, detail_size,
                 "layer %lld has no transient-global side buckets (LongT5's encoder with "
                 "encoder_attention_type transient-global)",
                 (long long)layer);
        st = POSENC_ERR_RANGE;
    } else if ((st = posenc_model_layer_side_buckets(m, (uint32_t)layer, (uint32_t)n_tok, pos, n,
                                                     NULL, 0, n_global)) == POSENC_OK &&
               n && *n_global) {
        int64_t *o = malloc(n * *n_global * sizeof *o);
        if (!o)
            st = POSENC_ERR_NOMEM;
        else if ((st = posenc_model_layer_side_buckets(m, (uint32_t)layer, (uint32_t)n_tok, pos,
                                                       n, o, n * *n_global, n_global)) !=
                 POSENC_OK)
            free(o);
        else
            *out = o;
    }
    if (st != POSENC_OK && !detail[0])
        snprintf(detail, detail_size, "%s%s", posenc_strerror(st),
                 st == POSENC_ERR_POS ? ": every position must be below n_tok" : "");
    posenc_model_free(m);
    return st;
#else
    (void)json;
    (void)len;
    (void)layer;
    (void)n_tok;
    (void)pos;
    (void)n;
    return no_config_reader(detail, detail_size);
#endif
}

int pyposenc_learned_ids(const char *json, size_t len, int64_t layer, const int64_t *pos,
                          const uint32_t *columns, const uint32_t *rows, size_t n, int *ids_kind,
                          uint32_t *width, int64_t **out, char *detail, size_t detail_size)
{
    *out = NULL;
#ifdef POSENC_HAVE_JSON
    posenc_layer_info li;
    posenc_model *m;
    posenc_model_table tb;
    posenc_model_ids ids;
    int st = model_layer_at(json, len, layer, &m, &li, detail, detail_size);
    if (st != POSENC_OK)
        return st;
    if (li.scheme != POSENC_SCHEME_LEARNED) {
        snprintf(detail, detail_size,
                 "layer %lld's scheme is %s: learned_rows gives a learned table's rows",
                 (long long)layer, posenc_scheme_name(li.scheme));
        posenc_model_free(m);
        return POSENC_ERR_RANGE;
    }
    if ((st = posenc_model_layer_table(m, (uint32_t)layer, &tb)) != POSENC_OK ||
        (st = posenc_model_layer_ids(m, (uint32_t)layer, &ids)) != POSENC_OK) {
        posenc_model_free(m);
        return st;
    }
    if (ids.kind == POSENC_IDS_RESAMPLED) { /* SAM 3 LiteText: rows per sequence length */
        snprintf(detail, detail_size,
                 "layer %lld's table is resampled to each sequence's length: "
                 "posenc.schemes.resampled_rows gives each token's two rows and weight",
                 (long long)layer);
        posenc_model_free(m);
        return POSENC_ERR_RANGE;
    }
    int reset = ids.kind == POSENC_IDS_CELL_RESET, cells = columns != NULL;
    *ids_kind = (int)ids.kind;
    *width = ids.kind == POSENC_IDS_AXIAL ? 3 : 1;
    if (cells && !reset) {
        snprintf(detail, detail_size,
                 "layer %lld does not read cells: only TAPAS's reset_position_index_per_cell "
                 "does; give positions",
                 (long long)layer);
        posenc_model_free(m);
        return POSENC_ERR_RANGE;
    }
    int64_t *o = malloc((n ? n : 1) * *width * sizeof *o);
    if (!o) {
        posenc_model_free(m);
        return POSENC_ERR_NOMEM;
    }
    for (size_t t = 0; cells && t < n && st == POSENC_OK; t++)
        if (columns[t] >= ids.cell_columns || rows[t] >= ids.cell_rows) {
            snprintf(detail, detail_size,
                     "token %zu's cell (column %u, row %u) is outside the %u columns and %u "
                     "rows of type_vocab_sizes[1] and [2]",
                     t, columns[t], rows[t], ids.cell_columns, ids.cell_rows);
            st = POSENC_ERR_POS;
        }
    if (cells && st == POSENC_OK)
        st = posenc_tapas_positions(columns, rows, n, (uint32_t)tb.positions, o);
    for (size_t t = 0; !cells && t < n && st == POSENC_OK; t++) {
        int64_t r = pos[t] + tb.offset;
        if (reset && r > tb.positions - 1) /* every token in cell (0, 0): TAPAS's cap */
            r = tb.positions - 1;
        if (pos[t] < 0 || r >= tb.positions) {
            snprintf(detail, detail_size,
                     "position %lld reads row %lld, outside layer %lld's %lld-row table",
                     (long long)pos[t], (long long)r, (long long)layer,
                     (long long)tb.positions);
            st = POSENC_ERR_POS;
            break;
        }
        o[t * *width] = r;
        if (*width == 3)
            st = posenc_axial_ids(r, ids.axial_shape[0], ids.axial_shape[1], &o[t * 3 + 1],
                                  &o[t * 3 + 2]);
    }
    posenc_model_free(m);
    if (st != POSENC_OK) {
        free(o);
        if (!detail[0])
            snprintf(detail, detail_size, "%s", posenc_strerror(st));
        return st;
    }
    *out = o;
    return POSENC_OK;
#else
    (void)json;
    (void)len;
    (void)layer;
    (void)pos;
    (void)columns;
    (void)rows;
    (void)n;
    (void)ids_kind;
    (void)width;
    return no_config_reader(detail, detail_size);
#endif
}

/* ---- posenc._schemes: relative sinusoids (XLNet, Funnel) ---- */

int pyposenc_rel_sinusoid(const char *json, size_t len, int64_t layer, int64_t seq_len,
                          const int64_t *given, size_t n_given, int64_t **pos, size_t *n,
                          float **pe, uint32_t *width, char *detail, size_t detail_size)
{
    *pos = NULL;
    *pe = NULL;
    *n = 0;
#ifdef POSENC_HAVE_JSON
    posenc_layer_info li;
    posenc_model *m;
    posenc_model_rel_sinusoid rs;
    int st = model_layer_at(json, len, layer, &m, &li, detail, detail_size);
    if (st != POSENC_OK)
        return st;
    if (posenc_model_layer_rel_sinusoid(m, (uint32_t)layer, &rs) != POSENC_OK) {
        snprintf(detail, detail_size,
                 "layer %lld's scheme is %s: relative_sinusoid takes XLNet's and Funnel's "
                 "relative-sinusoid layers",
                 (long long)layer, posenc_scheme_name(li.scheme));
        posenc_model_free(m);
        return POSENC_ERR_RANGE;
    }
    size_t cnt = n_given;
    if (!given) {
        st = seq_len < 1 || seq_len > 65536
                 ? POSENC_ERR_POS
                 : posenc_model_rel_sinusoid_positions(m, (uint32_t)layer, (uint32_t)seq_len,
                                                       NULL, 0, &cnt);
        if (st != POSENC_OK)
            snprintf(detail, detail_size,
                     "seq_len %lld: from 1 to 65536, and for Funnel long enough that its "
                     "encoder pools before block %u (more than %d tokens there)",
                     (long long)seq_len, rs.block, rs.separate_cls ? 2 : 1);
    }
    int64_t *p = st == POSENC_OK ? malloc((cnt ? cnt : 1) * sizeof *p) : NULL;
    float *o = p ? malloc((cnt ? cnt : 1) * rs.d_model * sizeof *o) : NULL;
    if (st == POSENC_OK && !o)
        st = POSENC_ERR_NOMEM;
    if (st == POSENC_OK && given) {
        for (size_t i = 0; i < cnt; i++) {
            int64_t v = given[i];
            if (!rs.funnel && rs.clamp_len > 0) /* modeling_xlnet.py L970-971 */
                v = v > rs.clamp_len ? rs.clamp_len : v < -rs.clamp_len ? -rs.clamp_len : v;
            p[i] = v;
        }
    } else if (st == POSENC_OK) {
        st = posenc_model_rel_sinusoid_positions(m, (uint32_t)layer, (uint32_t)seq_len, p, cnt,
                                                 &cnt);
    }
    if (st == POSENC_OK && (st = posenc_sinusoid_layout_fill_f32(&rs.spec, p, cnt, rs.d_model,
                                                                 o)) != POSENC_OK)
        snprintf(detail, detail_size, "the distances: %s", posenc_strerror(st));
    posenc_model_free(m);
    if (st != POSENC_OK) {
        free(p);
        free(o);
        if (!detail[0])
            snprintf(detail, detail_size, "%s", posenc_strerror(st));
        return st;
    }
    *pos = p;
    *pe = o;
    *n = cnt;
    *width = rs.d_model;
    return POSENC_OK;
#else
    (void)json;
    (void)len;
    (void)layer;
    (void)seq_len;
    (void)given;
    (void)n_given;
    (void)width;
    return no_config_reader(detail, detail_size);
#endif
}

/* ---- posenc._schemes: a layer's query scale (Llama 4, Qwen 1, Mistral 3, Beam) ---- */

int pyposenc_query_scales(const char *json, size_t len, int64_t layer, const int64_t *pos,
                          size_t n, double *out, char *detail, size_t detail_size)
{
#ifdef POSENC_HAVE_JSON
    posenc_layer_info li;
    posenc_model *m;
    int st = model_layer_at(json, len, layer, &m, &li, detail, detail_size);
    if (st != POSENC_OK)
        return st;
    for (size_t i = 0; i < n && st == POSENC_OK; i++)
        st = posenc_model_query_scale(m, (uint32_t)layer, pos[i], &out[i]);
    if (st != POSENC_OK)
        snprintf(detail, detail_size, "%s", posenc_strerror(st));
    posenc_model_free(m);
    return st;
#else
    (void)json;
    (void)len;
    (void)layer;
    (void)pos;
    (void)n;
    (void)out;
    return no_config_reader(detail, detail_size);
#endif
}

/* ---- posenc._schemes: SAM 3 LiteText's resampled rows ---------------------------- */

int pyposenc_resampled_rows(const char *json, size_t len, int64_t layer, int64_t seq_len,
                            const int64_t *pos, size_t n, int64_t *rows, float *weight1,
                            char *detail, size_t detail_size)
{
#ifdef POSENC_HAVE_JSON
    posenc_layer_info li;
    posenc_model *m;
    posenc_model_ids ids;
    posenc_model_table tb;
    int st = model_layer_at(json, len, layer, &m, &li, detail, detail_size);
    if (st != POSENC_OK)
        return st;
    if (posenc_model_layer_ids(m, (uint32_t)layer, &ids) != POSENC_OK ||
        ids.kind != POSENC_IDS_RESAMPLED) {
        snprintf(detail, detail_size,
                 "layer %lld does not resample its table (scheme %s): resampled_rows is for "
                 "SAM 3 LiteText's text model",
                 (long long)layer, posenc_scheme_name(li.scheme));
        posenc_model_free(m);
        return POSENC_ERR_RANGE;
    }
    st = posenc_model_layer_table(m, (uint32_t)layer, &tb);
    if (st == POSENC_OK && (seq_len < 1 || seq_len > POSENC_RESAMPLE_MAX_ROWS))
        st = POSENC_ERR_RANGE;
    for (size_t i = 0; i < n && st == POSENC_OK; i++)
        st = posenc_resample_rows(tb.positions, seq_len, pos[i], &rows[i], &rows[n + i],
                                  &weight1[i]);
    if (st != POSENC_OK)
        snprintf(detail, detail_size,
                 "%s (seq_len %lld, tokens 0..seq_len-1, at most %d; a table of %lld rows)",
                 posenc_strerror(st), (long long)seq_len, POSENC_RESAMPLE_MAX_ROWS,
                 (long long)tb.positions);
    posenc_model_free(m);
    return st;
#else
    (void)json;
    (void)len;
    (void)layer;
    (void)seq_len;
    (void)pos;
    (void)n;
    (void)rows;
    (void)weight1;
    return no_config_reader(detail, detail_size);
#endif
}

/* ---- posenc._schemes: ProphetNet's predicting streams (h-prophet) ---- */

int pyposenc_prophetnet_predict(const char *json, size_t len, int64_t layer, const int64_t *pos,
                                size_t n, int64_t **out, char *detail, size_t detail_size)
{
    *out = NULL;
#ifdef POSENC_HAVE_JSON
    posenc_layer_info li;
    posenc_model *m;
    int st = model_layer_at(json, len, layer, &m, &li, detail, detail_size);
    if (st != POSENC_OK)
        return st;
    posenc_model_prophetnet pn;
    int64_t *o = n ? malloc(2 * n * n * sizeof *o) : NULL;
    if (posenc_model_layer_prophetnet(m, (uint32_t)layer, &pn) != POSENC_OK) {
        snprintf(detail, detail_size,
                 "layer %lld has no predicting streams (ProphetNet's decoder layers have)",
                 (long long)layer);
        st = POSENC_ERR_RANGE;
    } else if (n && !o) {
        st = POSENC_ERR_NOMEM;
    } else if (n) {
        st = posenc_model_layer_prophetnet_predict(m, (uint32_t)layer, pos, n, pos, n, o);
    }
    if (st == POSENC_OK) {
        *out = o;
        o = NULL;
    } else if (!detail[0]) { /* the library's refusal (a position), or no memory */
        snprintf(detail, detail_size, "%s", posenc_strerror(st));
    }
    free(o);
    posenc_model_free(m);
    return st;
#else
    (void)json;
    (void)len;
    (void)layer;
    (void)pos;
    (void)n;
    return no_config_reader(detail, detail_size);
#endif
}
