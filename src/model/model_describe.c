/* model_describe.c - posenc_model_layer_describe: one layer's scheme
 * parameters as "key=value" text, family rules included, so that a front
 * end shows them without knowing the rules (the program's EXPLAIN MODEL). */
#include "posenc_model.h"
#include "model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An output buffer: appends what fits, remembers whether anything did not. */
typedef struct text {
    char *buf;
    size_t n, len;
    int overflow;
} text;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = t->n - t->len;
    int w = vsnprintf(t->buf + t->len, room, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= room) {
        t->overflow = 1;
        t->len = t->n - 1;
    } else {
        t->len += (size_t)w;
    }
}

/* A parameter value: the shortest of %.15g / %.17g that reads back exactly. */
static void put_num(text *t, const char *key, double v)
{
    char b[40];
    snprintf(b, sizeof b, "%.15g", v);
    if (strtod(b, NULL) != v)
        snprintf(b, sizeof b, "%.17g", v);
    put(t, " %s=%s", key, b);
}

/* The keys each scaling type has, as the config names them. */
static void put_scaling(text *t, const posenc_rope_scaling *s)
{
    posenc_rope_type ty = s->type;
    if (ty == POSENC_ROPE_DEFAULT)
        return;
    put_num(t, "factor", s->factor);
    if (ty == POSENC_ROPE_LLAMA3) {
        put_num(t, "low_freq_factor", s->low_freq_factor);
        put_num(t, "high_freq_factor", s->high_freq_factor);
    }
    if (ty == POSENC_ROPE_DYNAMIC || ty == POSENC_ROPE_YARN || ty == POSENC_ROPE_LLAMA3 ||
        ty == POSENC_ROPE_LONGROPE)
        put_num(t, "original", s->original_max_position_embeddings);
    if (ty == POSENC_ROPE_PROPORTIONAL)
        put_num(t, "partial_rotary_factor", s->partial_rotary_factor);
    if (ty == POSENC_ROPE_YARN) {
        put_num(t, "beta_fast", s->beta_fast);
        put_num(t, "beta_slow", s->beta_slow);
        put(t, " truncate=%s", s->truncate ? "true" : "false");
        if (s->mscale != 0.0)
            put_num(t, "mscale", s->mscale);
        if (s->mscale_all_dim != 0.0)
            put_num(t, "mscale_all_dim", s->mscale_all_dim);
    }
}

static void put_qscale(text *t, const posenc_query_scale *q)
{
    if (q->type == POSENC_QUERY_SCALE_NONE)
        return;
    put(t, " query_scale=%s", posenc_query_scale_name(q->type));
    if (q->type == POSENC_QUERY_SCALE_TEMPERATURE) {
        put_num(t, "floor_scale", q->floor_scale);
        put_num(t, "attn_scale", q->attn_scale);
    } else if (q->type == POSENC_QUERY_SCALE_LOGN) {
        put_num(t, "seq_length", q->seq_length);
    } else if (q->type == POSENC_QUERY_SCALE_POWER) {
        put_num(t, "power_length", q->length);
        put_num(t, "power_exponent", q->exponent);
    } else { /* POSENC_QUERY_SCALE_BETA */
        put_num(t, "beta", q->beta);
        put_num(t, "beta_original", q->original);
    }
}

static posenc_status put_rope(text *t, const posenc_model_group *g)
{
    const posenc_rope_config *c = &g->rope;
    put(t, " type=%s layout=%s head_dim=%u rotary_dim=%u",
        g->mrope && g->configured.type == POSENC_ROPE_DEFAULT
            ? "mrope"
            : posenc_rope_type_name(g->configured.type),
        c->layout == POSENC_LAYOUT_HALF ? "half" : "interleaved", c->head_dim, c->rotary_dim);
    if (g->mrope) {
        put(t, " mrope_section=%u:%u:%u mrope_rule=%s merge=%u", g->mrope_section[0],
            g->mrope_section[1], g->mrope_section[2], posenc_mrope_rule_name(g->mrope_rule),
            g->mrope_merge);
        if (g->mrope_tokens_per_second)
            put(t, " tokens_per_second=%u", g->mrope_tokens_per_second);
    }
    put_num(t, "base", c->base);
    put_scaling(t, &g->configured);
    if (g->configured.attention_factor > 0)
        put_num(t, "attention_factor", g->configured.attention_factor);
    if (g->llama3_step)
        put(t, " step=clean");
    if (g->ntk_by_length) {
        put(t, " dynamic_ntk=qwen");
        put_num(t, "ntk_seq_length", g->ntk_seq_length);
    }
    if (g->sense < 0) /* NanoChat: q and k turn by -theta */
        put(t, " sense=-1");
    if (g->rope_rows) /* RoFormer: cos/sin rows of a table; a position past it fails */
        put(t, " positions=%lld", (long long)g->rope_rows);
    if (g->rope_rows || g->rotary_value) /* RoFormer's rotary_value: the values turn too */
        put(t, " rotary_value=%d", g->rotary_value);
    posenc_rope *r = malloc(sizeof *r); /* the attention factor the config implies */
    if (!r)
        return POSENC_ERR_NOMEM;
    if (posenc_rope_init_config(r, c, 0) == POSENC_OK)
        put_num(t, "attn_factor", r->attn_factor);
    free(r);
    return POSENC_OK;
}

/* How a learned table's rows are read, when not by the token index alone. */
static void put_ids(text *t, const posenc_model_ids *d)
{
    switch (d->kind) {
    case POSENC_IDS_BOX2D:
        put(t, " ids=box2d box_rows=%u box_tables=x,y,h,w", d->box_rows);
        break;
    case POSENC_IDS_XPATH:
        put(t, " ids=xpath xpath_depth=%u xpath_tags=%u xpath_subs=%u xpath_unit=%u",
            d->xpath_depth, d->xpath_tags, d->xpath_subs, d->xpath_unit);
        break;
    case POSENC_IDS_CELL_RESET:
        put(t, " ids=cell-reset cell_columns=%u cell_rows=%u", d->cell_columns, d->cell_rows);
        break;
    case POSENC_IDS_AXIAL:
        put(t, " ids=axial axial_shape=%ux%u axial_dim=%u+%u", d->axial_shape[0],
            d->axial_shape[1], d->axial_dim[0], d->axial_dim[1]);
        break;
    case POSENC_IDS_RESAMPLED:
        put(t, " ids=resampled resample=bilinear align_corners=false");
        break;
    default: break;
    }
}

/* A relative sinusoid's parameters (XLNet's, Funnel's block). */
static void put_rel_sinusoid(text *t, const posenc_model_group *g)
{
    put(t, " family=%s d_model=%u", g->relsin_funnel ? "funnel" : "xlnet", g->dim);
    put_num(t, "base", g->sinusoid.base);
    put(t, " layout=half exponent=2k/dim arith=f32");
    if (!g->relsin_funnel) {
        put(t, " attn_type=%s clamp_len=%lld", g->relsin_bidirectional ? "bi" : "uni",
            (long long)g->relsin_clamp_len);
        if (g->relsin_mem_len < 0)
            put(t, " mem_len=null");
        else
            put(t, " mem_len=%lld", (long long)g->relsin_mem_len);
        return;
    }
    put(t, " attention_type=%s block=%u blocks=%u", g->relsin_factorized ? "factorized"
                                                                         : "relative_shift",
        g->relsin_block, g->relsin_n_block);
    if (strcmp(g->layer_type, "decoder") != 0)
        put(t, " block_repeats=%u", g->relsin_repeats);
    put(t, " separate_cls=%s truncate_seq=%s pool_q_only=%s pooling_type=%s",
        g->relsin_separate_cls ? "true" : "false", g->relsin_truncate_seq ? "true" : "false",
        g->relsin_pool_q_only ? "true" : "false", g->relsin_pool_max ? "max" : "mean");
    if (g->relsin_block > 0 && g->relsin_pool_q_only && strcmp(g->layer_type, "decoder") != 0)
        put(t, " first_layer=pools_queries");
}

posenc_status posenc_model_layer_describe(const posenc_model *m, uint32_t layer, char *buf,
                                          size_t n)
{
    const posenc_model_group *g = posenc__model_group(m, layer);
    if (!m || !buf)
        return POSENC_ERR_NULL;
    if (!g)
        return POSENC_ERR_RANGE;
    if (n == 0)
        return POSENC_ERR_OVERFLOW;
    text t = {buf, n, 0, 0};
    buf[0] = 0;
    switch (g->scheme) {
    case POSENC_SCHEME_ROPE:
        if (put_rope(&t, g) != POSENC_OK)
            return POSENC_ERR_NOMEM;
        break;
    case POSENC_SCHEME_ALIBI:
        put(&t, " heads=%u", g->n_head);
        put_num(&t, "bias_max", g->alibi_bias_max);
        if (g->alibi_slopes_bf16)
            put(&t, " slopes=bf16");
        if (g->alibi_slope_scale != 1.0)
            put_num(&t, "slope_scale", g->alibi_slope_scale);
        break;
    case POSENC_SCHEME_LEARNED:
        put(&t, " positions=%lld offset=%lld dim=%u", (long long)g->positions,
            (long long)g->offset, g->dim);
        put_ids(&t, &g->ids);
        break;
    case POSENC_SCHEME_SINUSOID: {
        const posenc_sinusoid_spec *sp = &g->sinusoid;
        put(&t, " positions=%lld dim=%u", (long long)g->positions, g->dim);
        put_num(&t, "base", sp->base);
        put(&t, " layout=%s exponent=%s",
            sp->order == POSENC_SINUSOID_INTERLEAVED ? "interleaved"
            : sp->order == POSENC_SINUSOID_SIN_COS   ? "half"
                                                     : "half_cos_first",
            sp->freqs == POSENC_SINUSOID_FREQ_POWER ? "2k/dim" : "k/(dim/2-1)");
        if (sp->offset || g->sinusoid_pad_offset)
            put(&t, " offset=%lld%s", (long long)sp->offset,
                g->sinusoid_pad_offset ? " offset_from=pad_token_id+1" : "");
        /* the arithmetic when it is not the frequency rule's usual one (fairseq's
         * torch float32 steps, the exact value rounded once for the power rule) */
        if ((sp->arith == POSENC_SINUSOID_TORCH_F32) != (sp->freqs == POSENC_SINUSOID_FREQ_FAIRSEQ))
            put(&t, " arith=%s", sp->arith == POSENC_SINUSOID_TORCH_F32 ? "f32" : "exact");
        break;
    }
    case POSENC_SCHEME_RELATIVE_BUCKETS:
        if (g->bucket_ids == POSENC__IDS_LONGT5_LOCAL || g->bucket_ids == POSENC__IDS_LONGT5_TGLOBAL) {
            /* LongT5's encoder: T5's buckets inside local blocks (+ side buckets) */
            put(&t,
                " buckets=%u max_distance=%u bidirectional=true attention=%s local_radius=%u "
                "block_length=%u",
                g->buckets, g->max_distance,
                g->bucket_ids == POSENC__IDS_LONGT5_LOCAL ? "local" : "transient-global",
                g->block_length - 1, g->block_length);
            if (g->bucket_ids == POSENC__IDS_LONGT5_TGLOBAL)
                put(&t, " global_block_size=%u side_buckets=%u", g->global_block_size,
                    g->buckets);
        } else if (g->bucket_ids == POSENC__IDS_CPMANT) {
            put(&t, " ids=cpmant buckets=%u max_distance=%u segment_types=%u prompt_length=%u",
                g->buckets, g->max_distance, g->segment_types, g->prompt_length);
        } else if (g->bucket_ids == POSENC__IDS_WINDOW) {
            put(&t, " ids=window window_size=%u rows=%u beyond_window=zeros", g->window_size,
                2 * g->window_size + 1);
        } else if (g->bucket_ids == POSENC__IDS_PROPHETNET) {
            /* ProphetNet's decoder: the main stream's causal buckets and ngram
             * predicting streams, which read the table one row later */
            put(&t,
                " ids=prophetnet buckets=%u max_distance=%u bidirectional=false ngram=%u "
                "predict_table_offset=%lld",
                g->buckets, g->max_distance, g->ngram, (long long)g->offset + 1);
        } else if (g->deberta) {
            put(&t, " ids=deberta position_buckets=%u max_relative_positions=%u",
                g->deberta_buckets, g->deberta_max_position);
        } else {
            put(&t, " buckets=%u max_distance=%u bidirectional=%s", g->buckets,
                g->max_distance, g->bidirectional ? "true" : "false");
        }
        if (g->table_beside)
            put(&t, " table_positions=%lld table_offset=%lld table_dim=%u",
                (long long)g->positions, (long long)g->offset, g->dim);
        break;
    case POSENC_SCHEME_RELATIVE_SINUSOID:
        put_rel_sinusoid(&t, g);
        break;
    default: break;
    }
    put_qscale(&t, &g->qscale);
    const char *slash = strchr(g->layer_type, '/'); /* "encoder/sliding_attention" */
    if (strcmp(g->layer_type, "encoder") == 0 || strcmp(g->layer_type, "decoder") == 0)
        put(&t, " stack=%s", g->layer_type);
    else if (slash)
        put(&t, " stack=%.*s layer_type=%s", (int)(slash - g->layer_type), g->layer_type,
            slash + 1);
    else if (g->layer_type[0])
        put(&t, " layer_type=%s", g->layer_type);
    return t.overflow ? POSENC_ERR_OVERFLOW : POSENC_OK;
}
