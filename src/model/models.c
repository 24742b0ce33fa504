/* models.c - a model's position encoding layer by layer: the object
 * (create, free, copy, a RoPE on every layer) and the per-layer queries of
 * posenc_model.h. What each family's code does is decided when a model is
 * read (the config reader, src/config_*.c, with the family registry); the
 * rules that depend on the sequence length or the position (Qwen 1's
 * dynamic NTK, the query scalings) are computed here, at each call. */
#include "posenc_model.h"
#include "model.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

posenc_status posenc_model_create(posenc_model **out)
{
    if (!out)
        return POSENC_ERR_NULL;
    *out = calloc(1, sizeof **out);
    return *out ? POSENC_OK : POSENC_ERR_NOMEM;
}

void posenc_model_free(posenc_model *m) { free(m); }

posenc_status posenc_model_copy(posenc_model *dst, const posenc_model *src)
{
    if (!dst || !src)
        return POSENC_ERR_NULL;
    if (dst != src)
        memcpy(dst, src, sizeof *dst);
    return POSENC_OK;
}

posenc_status posenc_model_set_rope(posenc_model *m, const posenc_rope_config *c,
                                    uint32_t n_layer)
{
    if (!m || !c)
        return POSENC_ERR_NULL;
    if (n_layer < 1 || n_layer > POSENC_MODEL_MAX_LAYERS)
        return POSENC_ERR_RANGE;
    posenc_rope check; /* the library's verdict on c */
    posenc_status st = posenc_rope_init_config(&check, c, 0);
    if (st != POSENC_OK)
        return st;
    memset(m, 0, sizeof *m);
    m->n_layer = n_layer;
    m->n_group = 1;
    m->scheme = POSENC_SCHEME_ROPE;
    posenc_model_group *g = &m->group[0];
    g->scheme = POSENC_SCHEME_ROPE;
    g->rope = *c;
    g->configured = c->scaling;
    g->configured.short_factor = g->configured.long_factor = g->configured.freq_factors = NULL;
    return POSENC_OK;
}

posenc_status posenc_model_set_layer_rope(posenc_model *m, uint32_t layer,
                                          const posenc_rope_config *c)
{
    posenc_model_group *g = (posenc_model_group *)posenc__model_group(m, layer);
    if (!g)
        return m ? POSENC_ERR_RANGE : POSENC_ERR_NULL;
    if (!c)
        return POSENC_ERR_NULL;
    if (g->scheme != POSENC_SCHEME_ROPE)
        return POSENC_ERR_RANGE;
    posenc_rope check;
    posenc_status st = posenc_rope_init_config(&check, c, 0);
    if (st != POSENC_OK)
        return st;
    g->rope = *c;
    return POSENC_OK;
}

uint32_t posenc_model_n_layer(const posenc_model *m) { return m ? m->n_layer : 0; }
uint32_t posenc_model_n_group(const posenc_model *m) { return m ? m->n_group : 0; }
posenc_scheme posenc_model_scheme(const posenc_model *m)
{
    return m ? m->scheme : POSENC_SCHEME_NONE;
}
const char *posenc_model_type(const posenc_model *m) { return m ? m->model_type : ""; }
const char *posenc_model_part(const posenc_model *m) { return m ? m->part : ""; }
const char *posenc_model_ignored(const posenc_model *m) { return m ? m->ignored : ""; }
const char *posenc_model_source(const posenc_model *m) { return m ? m->source : NULL; }
const char *posenc_model_hf_module_convention(const posenc_model *m)
{
    return m && m->hf_module ? m->hf_module : "plain";
}

const posenc_model_group *posenc__model_group(const posenc_model *m, uint32_t layer)
{
    if (!m || m->n_group < 1 || m->n_group > POSENC_MODEL_MAX_GROUPS ||
        m->n_layer > POSENC_MODEL_MAX_LAYERS || layer >= m->n_layer ||
        m->layer_group[layer] >= m->n_group)
        return NULL;
    return &m->group[m->layer_group[layer]];
}

/* The group of layer into *g, with posenc_model_layer's errors. */
static posenc_status group_of(const posenc_model *m, uint32_t layer, const posenc_model_group **g)
{
    if (!m)
        return POSENC_ERR_NULL;
    *g = posenc__model_group(m, layer);
    return *g ? POSENC_OK : POSENC_ERR_RANGE;
}

/* The group of layer into *g (group_of's errors), then POSENC_ERR_NULL when
 * out is NULL, then POSENC_ERR_RANGE when the group's scheme is not want
 * (ANY_SCHEME: any): the errors of every per-layer query, in that order. */
#define ANY_SCHEME (-1)
static posenc_status layer_of(const posenc_model *m, uint32_t layer, const void *out, int want,
                              const posenc_model_group **g)
{
    posenc_status st = group_of(m, layer, g);
    if (st != POSENC_OK)
        return st;
    if (!out)
        return POSENC_ERR_NULL;
    return want == ANY_SCHEME || (int)(*g)->scheme == want ? POSENC_OK : POSENC_ERR_RANGE;
}

const char *posenc_scheme_name(posenc_scheme s)
{
    switch (s) {
    case POSENC_SCHEME_NONE: return "none";
    case POSENC_SCHEME_ROPE: return "rope";
    case POSENC_SCHEME_ALIBI: return "alibi";
    case POSENC_SCHEME_LEARNED: return "learned";
    case POSENC_SCHEME_SINUSOID: return "sinusoid";
    case POSENC_SCHEME_RELATIVE_BUCKETS: return "relative-buckets";
    case POSENC_SCHEME_MIXED: return "mixed";
    case POSENC_SCHEME_RELATIVE_SINUSOID: return "relative-sinusoid";
    }
    return "unknown";
}

const char *posenc_query_scale_name(posenc_query_scale_type t)
{
    switch (t) {
    case POSENC_QUERY_SCALE_NONE: return "none";
    case POSENC_QUERY_SCALE_TEMPERATURE: return "temperature";
    case POSENC_QUERY_SCALE_LOGN: return "logn";
    case POSENC_QUERY_SCALE_BETA: return "beta";
    case POSENC_QUERY_SCALE_POWER: return "power";
    }
    return "unknown";
}

posenc_status posenc_model_layer(const posenc_model *m, uint32_t layer, posenc_layer_info *info)
{
    const posenc_model_group *g;
    if (!info)
        return POSENC_ERR_NULL;
    posenc_status st = group_of(m, layer, &g);
    if (st != POSENC_OK)
        return st;
    info->scheme = g->scheme;
    info->group = m->layer_group[layer];
    info->layer_type = g->layer_type;
    return POSENC_OK;
}

const char *posenc_model_layer_reason(const posenc_model *m, uint32_t layer)
{
    const posenc_model_group *g;
    if (group_of(m, layer, &g) != POSENC_OK || g->scheme != POSENC_SCHEME_NONE || !g->reason)
        return "";
    return g->reason;
}

/* Qwen 1's dynamic NTK alpha at cur_len for trained length L:
 * 2^ceil(log2(cur_len / L) + 1) - 1, at least 1; 1 while cur_len <= L. */
static double ntk_step_alpha(int64_t cur_len, double L)
{
    if ((double)cur_len <= L)
        return 1.0;
    double a = pow(2.0, ceil(log2((double)cur_len / L) + 1.0)) - 1.0;
    return a > 1.0 ? a : 1.0;
}

/* The scaling g uses at cur_len: the config's, or for Qwen 1's dynamic NTK
 * NTK-aware scaling with factor alpha(cur_len) (default while alpha is 1). */
static posenc_status layer_scaling(const posenc_model_group *g, int64_t cur_len,
                                   posenc_rope_scaling *s)
{
    if (cur_len < 0 || cur_len > POSENC_MAX_POS + 1)
        return POSENC_ERR_POS;
    if (!g->ntk_by_length)
        return posenc_rope_config_scaling(&g->rope, s);
    if (!(isfinite(g->ntk_seq_length) && g->ntk_seq_length >= 1.0))
        return POSENC_ERR_RANGE;
    /* modeling_qwen.py (Qwen/Qwen-7B-Chat, QWenModel.forward and
     * get_ntk_alpha): context_value = log(L_cur / seq_length, 2) + 1,
     * ntk_alpha = max(2^ceil(context_value) - 1, 1); the rotary embedding
     * then uses base * ntk_alpha^(dim / (dim - 2)), which is NTK scaling
     * with factor ntk_alpha. */
    double alpha = ntk_step_alpha(cur_len, g->ntk_seq_length);
    posenc__scaling_defaults(s, alpha > 1.0 ? POSENC_ROPE_NTK : POSENC_ROPE_DEFAULT);
    s->factor = alpha;
    return POSENC_OK;
}

posenc_status posenc_model_layer_scaling(const posenc_model *m, uint32_t layer, int64_t cur_len,
                                         posenc_rope_scaling *s)
{
    const posenc_model_group *g;
    posenc_status st = layer_of(m, layer, s, POSENC_SCHEME_ROPE, &g);
    if (st != POSENC_OK)
        return st;
    return layer_scaling(g, cur_len, s);
}

/* The RoPE of layer at cur_len: its attention's (indexer 0), or its
 * indexer's: the same frequencies, scaling and factor (the same cos and sin)
 * on heads of indexer_head_dim, in the indexer's layout. */
static posenc_status layer_rope(const posenc_model *m, uint32_t layer, int64_t cur_len,
                                int indexer, posenc_rope *r)
{
    posenc_rope_scaling s;
    posenc_status st = posenc_model_layer_scaling(m, layer, cur_len, &s);
    if (st != POSENC_OK)
        return st;
    if (!r)
        return POSENC_ERR_NULL;
    if (indexer && !m->indexer_head_dim)
        return POSENC_ERR_RANGE;
    const posenc_model_group *g = posenc__model_group(m, layer);
    const posenc_rope_config *c = &g->rope;
    st = posenc_rope_init_scaled(r, indexer ? m->indexer_head_dim : c->head_dim, c->rotary_dim,
                                 c->base, indexer ? m->indexer_layout : c->layout, &s, cur_len);
    if (st == POSENC_OK && g->sense < 0) /* by -theta: cos(-a) = cos a, sin(-a) = -sin a */
        for (uint32_t k = 0; k < r->rotary_dim / 2; k++) {
            r->inv_freq_hi[k] = -r->inv_freq_hi[k];
            r->inv_freq_lo[k] = -r->inv_freq_lo[k];
        }
    return st;
}

int posenc_model_layer_rope_sense(const posenc_model *m, uint32_t layer)
{
    const posenc_model_group *g = posenc__model_group(m, layer);
    if (!g || g->scheme != POSENC_SCHEME_ROPE)
        return 0;
    return g->sense < 0 ? -1 : 1;
}

posenc_status posenc_model_layer_rope(const posenc_model *m, uint32_t layer, int64_t cur_len,
                                      posenc_rope *r)
{
    return layer_rope(m, layer, cur_len, 0, r);
}

posenc_status posenc_model_layer_indexer_rope(const posenc_model *m, uint32_t layer,
                                              int64_t cur_len, posenc_rope *r)
{
    return layer_rope(m, layer, cur_len, 1, r);
}

posenc_status posenc_model_query_scale(const posenc_model *m, uint32_t layer, int64_t pos,
                                       double *scale)
{
    const posenc_model_group *g;
    posenc_status st = layer_of(m, layer, scale, ANY_SCHEME, &g);
    if (st != POSENC_OK)
        return st;
    if (pos < 0 || pos > POSENC_MAX_POS)
        return POSENC_ERR_POS;
    const posenc_query_scale *q = &g->qscale;
    double p = (double)pos, v;
    switch (q->type) {
    case POSENC_QUERY_SCALE_NONE: v = 1.0; break;
    case POSENC_QUERY_SCALE_TEMPERATURE:
        /* log1p(floor((pos + 1) / floor_scale)) * attn_scale + 1 */
        if (!(isfinite(q->floor_scale) && q->floor_scale > 0 && isfinite(q->attn_scale)))
            return POSENC_ERR_RANGE;
        v = log1p(floor((p + 1.0) / q->floor_scale)) * q->attn_scale + 1.0;
        break;
    case POSENC_QUERY_SCALE_LOGN:
        /* log(pos + 1) / log(seq_length) past the trained length */
        if (!(isfinite(q->seq_length) && q->seq_length > 1.0))
            return POSENC_ERR_RANGE;
        v = p + 1.0 > q->seq_length ? log(p + 1.0) / log(q->seq_length) : 1.0;
        break;
    case POSENC_QUERY_SCALE_BETA:
        /* 1 + beta * log(1 + floor(pos / original)) */
        if (!(isfinite(q->original) && q->original > 0 && isfinite(q->beta)))
            return POSENC_ERR_RANGE;
        v = 1.0 + q->beta * log1p(floor(p / q->original));
        break;
    case POSENC_QUERY_SCALE_POWER:
        /* exp(exponent * log1p((pos + 1) / length)) */
        if (!(isfinite(q->length) && q->length > 0 && isfinite(q->exponent)))
            return POSENC_ERR_RANGE;
        v = exp(q->exponent * log1p((p + 1.0) / q->length));
        break;
    default: return POSENC_ERR_RANGE;
    }
    *scale = v;
    return POSENC_OK;
}

/* v rounded to bfloat16 (8 significant bits), nearest, ties to even; v is
 * a finite positive slope here (no subnormal or overflow cases). */
static double bf16_round(double v)
{
    int e;
    double m = frexp(v, &e);       /* v = m 2^e, 0.5 <= m < 1 */
    double q = nearbyint(m * 256.0); /* 8 bits, round to nearest even */
    return ldexp(q, e - 8);
}

/* The group's rounding and factor on its H slopes. */
static void finish_slopes(const posenc_model_group *g, uint32_t H, double *slopes)
{
    for (uint32_t h = 0; h < H; h++)
        slopes[h] = (g->alibi_slopes_bf16 ? bf16_round(slopes[h]) : slopes[h]) * g->alibi_slope_scale;
}

posenc_status posenc_model_alibi_slopes(const posenc_model *m, uint32_t layer, double *slopes)
{
    const posenc_model_group *g;
    posenc_status st = layer_of(m, layer, slopes, POSENC_SCHEME_ALIBI, &g);
    if (st != POSENC_OK)
        return st;
    if (!(isfinite(g->alibi_bias_max) && g->alibi_bias_max > 0) ||
        !(isfinite(g->alibi_slope_scale) && g->alibi_slope_scale > 0))
        return POSENC_ERR_RANGE;
    uint32_t H = g->n_head;
    if (H == 0 || H > POSENC_MAX_DIM)
        return POSENC_ERR_DIM;
    if (g->alibi_bias_max == 8.0) {
        posenc_status st2 = posenc_alibi_slopes(H, slopes);
        if (st2 == POSENC_OK)
            finish_slopes(g, H, slopes);
        return st2;
    }
    /* MPT: H' = 2^ceil(log2 H); m_i = 2^(-i * bias_max / H'), i = 1..H';
     * slopes = m_2, m_4, ..., m_1, m_3, ... cut to H (m_1..m_H' when H' == H). */
    uint32_t Hp = 1;
    while (Hp < H)
        Hp *= 2;
    uint32_t n = 0;
    if (Hp == H) {
        for (uint32_t i = 1; i <= H; i++)
            slopes[n++] = exp2(-(double)i * g->alibi_bias_max / (double)Hp);
        return POSENC_OK;
    }
    for (uint32_t i = 2; i <= Hp && n < H; i += 2)
        slopes[n++] = exp2(-(double)i * g->alibi_bias_max / (double)Hp);
    for (uint32_t i = 1; i <= Hp && n < H; i += 2)
        slopes[n++] = exp2(-(double)i * g->alibi_bias_max / (double)Hp);
    finish_slopes(g, H, slopes);
    return POSENC_OK;
}

posenc_status posenc_model_layer_rope_config(const posenc_model *m, uint32_t layer,
                                             posenc_rope_config *c)
{
    const posenc_model_group *g;
    posenc_status st = layer_of(m, layer, c, POSENC_SCHEME_ROPE, &g);
    if (st != POSENC_OK)
        return st;
    *c = g->rope;
    return POSENC_OK;
}

posenc_status posenc_model_layer_query_scale(const posenc_model *m, uint32_t layer,
                                             posenc_query_scale *q)
{
    const posenc_model_group *g;
    posenc_status st = layer_of(m, layer, q, ANY_SCHEME, &g);
    if (st != POSENC_OK)
        return st;
    *q = g->qscale;
    return POSENC_OK;
}

posenc_status posenc_model_alibi_heads(const posenc_model *m, uint32_t layer, uint32_t *n_head)
{
    const posenc_model_group *g;
    posenc_status st = layer_of(m, layer, n_head, POSENC_SCHEME_ALIBI, &g);
    if (st != POSENC_OK)
        return st;
    *n_head = g->n_head;
    return POSENC_OK;
}

posenc_status posenc_model_layer_table(const posenc_model *m, uint32_t layer,
                                       posenc_model_table *t)
{
    const posenc_model_group *g;
    posenc_status st = layer_of(m, layer, t, ANY_SCHEME, &g);
    if (st != POSENC_OK)
        return st;
    if (g->scheme != POSENC_SCHEME_LEARNED && g->scheme != POSENC_SCHEME_SINUSOID &&
        !(g->scheme == POSENC_SCHEME_RELATIVE_BUCKETS && g->table_beside))
        return POSENC_ERR_RANGE;
    int learned = g->scheme != POSENC_SCHEME_SINUSOID;
    t->positions = g->positions;
    t->offset = learned ? g->offset : g->sinusoid.offset;
    t->dim = g->dim;
    t->offset_from_pad = learned ? g->offset_from_pad : g->sinusoid_pad_offset;
    return POSENC_OK;
}

posenc_status posenc_model_layer_sinusoid(const posenc_model *m, uint32_t layer,
                                          posenc_sinusoid_spec *spec)
{
    const posenc_model_group *g;
    posenc_status st = layer_of(m, layer, spec, POSENC_SCHEME_SINUSOID, &g);
    if (st != POSENC_OK)
        return st;
    *spec = g->sinusoid;
    return POSENC_OK;
}

posenc_status posenc_model_layer_t5(const posenc_model *m, uint32_t layer, posenc_model_t5 *t)
{
    const posenc_model_group *g;
    posenc_status st = layer_of(m, layer, t, POSENC_SCHEME_RELATIVE_BUCKETS, &g);
    if (st != POSENC_OK)
        return st;
    if (g->deberta || g->bucket_ids != POSENC__IDS_T5) /* posenc_model_layer_longt5 ... */
        return POSENC_ERR_RANGE;
    t->buckets = g->buckets;
    t->max_distance = g->max_distance;
    t->bidirectional = g->bidirectional;
    return POSENC_OK;
}

posenc_status posenc_model_layer_deberta(const posenc_model *m, uint32_t layer,
                                         uint32_t *bucket_size, uint32_t *max_position)
{
    const posenc_model_group *g;
    posenc_status st = layer_of(m, layer, bucket_size, POSENC_SCHEME_RELATIVE_BUCKETS, &g);
    if (st != POSENC_OK)
        return st;
    if (!max_position)
        return POSENC_ERR_NULL;
    if (!g->deberta)
        return POSENC_ERR_RANGE;
    *bucket_size = g->deberta_buckets;
    *max_position = g->deberta_max_position;
    return POSENC_OK;
}

posenc_status posenc_model_layer_mrope(const posenc_model *m, uint32_t layer, posenc_mrope *mr,
                                       uint32_t *merge, uint32_t *tokens_per_second)
{
    const posenc_model_group *g;
    posenc_status st = layer_of(m, layer, mr, POSENC_SCHEME_ROPE, &g);
    if (st != POSENC_OK)
        return st;
    if (!g->mrope)
        return POSENC_ERR_RANGE;
    st = posenc_mrope_init(mr, g->rope.rotary_dim / 2, g->mrope_section, g->mrope_rule);
    if (st != POSENC_OK)
        return st;
    if (merge)
        *merge = g->mrope_merge;
    if (tokens_per_second)
        *tokens_per_second = g->mrope_tokens_per_second;
    return POSENC_OK;
}

posenc_status posenc_model_layer_rope_rows(const posenc_model *m, uint32_t layer, int64_t *rows,
                                           int *rotary_value)
{
    const posenc_model_group *g;
    posenc_status st = layer_of(m, layer, rows, POSENC_SCHEME_ROPE, &g);
    if (st != POSENC_OK)
        return st;
    if (!rotary_value)
        return POSENC_ERR_NULL;
    *rows = g->rope_rows;
    *rotary_value = g->rotary_value;
    return POSENC_OK;
}
posenc_status posenc_model_layer_ids(const posenc_model *m, uint32_t layer,
                                     posenc_model_ids *ids)
{
    const posenc_model_group *g;
    posenc_status st = layer_of(m, layer, ids, POSENC_SCHEME_LEARNED, &g);
    if (st != POSENC_OK)
        return st;
    *ids = g->ids;
    return POSENC_OK;
}

const char *posenc_ids_kind_name(posenc_ids_kind kind)
{
    switch (kind) {
    case POSENC_IDS_PLAIN: return "plain";
    case POSENC_IDS_BOX2D: return "box2d";
    case POSENC_IDS_XPATH: return "xpath";
    case POSENC_IDS_CELL_RESET: return "cell-reset";
    case POSENC_IDS_AXIAL: return "axial";
    case POSENC_IDS_RESAMPLED: return "resampled";
    }
    return "unknown";
}

/* ---- relative sinusoids (XLNet, Funnel) ---------------------------------------------- */

posenc_status posenc_model_layer_rel_sinusoid(const posenc_model *m, uint32_t layer,
                                              posenc_model_rel_sinusoid *rs)
{
    const posenc_model_group *g;
    posenc_status st = layer_of(m, layer, rs, POSENC_SCHEME_RELATIVE_SINUSOID, &g);
    if (st != POSENC_OK)
        return st;
    memset(rs, 0, sizeof *rs);
    rs->spec = g->sinusoid;
    rs->d_model = g->dim;
    rs->funnel = g->relsin_funnel;
    rs->bidirectional = g->relsin_funnel ? 1 : g->relsin_bidirectional;
    rs->clamp_len = g->relsin_clamp_len;
    rs->mem_len = g->relsin_mem_len;
    if (g->relsin_funnel) {
        rs->factorized = g->relsin_factorized;
        rs->separate_cls = g->relsin_separate_cls;
        rs->truncate_seq = g->relsin_truncate_seq;
        rs->pool_q_only = g->relsin_pool_q_only;
        rs->block = g->relsin_block;
        rs->n_block = g->relsin_n_block;
        rs->decoder = strcmp(g->layer_type, "decoder") == 0;
        /* the block's first layer (first run) pools its queries only
         * (modeling_funnel.py L566-570 with pool_q_only) */
        uint32_t first = layer;
        while (first > 0 && m->layer_group[first - 1] == m->layer_group[layer])
            first--;
        rs->pooling = !rs->decoder && rs->block > 0 && rs->pool_q_only && first == layer;
    }
    return POSENC_OK;
}

posenc_status posenc_model_rel_sinusoid_positions(const posenc_model *m, uint32_t layer,
                                                  uint32_t seq_len, int64_t *out, size_t cap,
                                                  size_t *n_out)
{
    posenc_model_rel_sinusoid rs;
    posenc_status st = posenc_model_layer_rel_sinusoid(m, layer, n_out ? &rs : NULL);
    if (st != POSENC_OK)
        return st;
    if (seq_len == 0 || seq_len > POSENC_FUNNEL_MAX_LEN)
        return POSENC_ERR_POS;
    if (!out && cap)
        return POSENC_ERR_NULL;
    if (!rs.funnel)
        return posenc_xlnet_rel_positions(seq_len, seq_len, rs.bidirectional, rs.clamp_len, out,
                                          cap, n_out);
    int pooled;
    size_t n;
    st = posenc_funnel_factorized_positions(seq_len, rs.block, rs.separate_cls, rs.truncate_seq,
                                            NULL, 0, &n, &pooled);
    if (st != POSENC_OK)
        return st;
    if (!pooled)
        return POSENC_ERR_POS;
    if (rs.factorized)
        return posenc_funnel_factorized_positions(seq_len, rs.block, rs.separate_cls,
                                                  rs.truncate_seq, out, cap, n_out, NULL);
    return posenc_funnel_rel_positions(seq_len, rs.block, rs.pooling, rs.separate_cls,
                                       rs.truncate_seq, out, cap, n_out);
}
