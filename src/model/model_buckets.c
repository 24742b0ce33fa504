/* model_buckets.c - the relative ids of RELATIVE_BUCKETS layers beyond T5's
 * full attention (posenc_model.h): LongT5's local and transient-global
 * encoder, CPM-Ant's segment buckets, VITS's windowed rows; and the ids of
 * any relative layer at given query and key positions, as posenc golden
 * writes them. The rules each cite their family's code in src/math
 * (longt5.c, cpmant.c, window_rel.c) and the registry's readers
 * (src/config/config_buckets.c). */
#include "posenc_model.h"
#include "model.h"
#include "internal.h"

#include <stdlib.h>

/* The group of a RELATIVE_BUCKETS layer whose ids are `ids` (-1: any). */
static posenc_status bucket_group(const posenc_model *m, uint32_t layer, const void *out,
                                  int ids, const posenc_model_group **g)
{
    posenc_layer_info li;
    posenc_status st = posenc_model_layer(m, layer, &li);
    if (st != POSENC_OK)
        return st;
    if (!out)
        return POSENC_ERR_NULL;
    *g = posenc__model_group(m, layer);
    if ((*g)->scheme != POSENC_SCHEME_RELATIVE_BUCKETS)
        return POSENC_ERR_RANGE;
    return ids < 0 || (*g)->bucket_ids == ids ? POSENC_OK : POSENC_ERR_RANGE;
}

posenc_status posenc_model_layer_longt5(const posenc_model *m, uint32_t layer,
                                        posenc_model_longt5 *t)
{
    const posenc_model_group *g;
    posenc_status st = bucket_group(m, layer, t, -1, &g);
    if (st != POSENC_OK)
        return st;
    if (g->bucket_ids != POSENC__IDS_LONGT5_LOCAL && g->bucket_ids != POSENC__IDS_LONGT5_TGLOBAL)
        return POSENC_ERR_RANGE;
    t->buckets = g->buckets;
    t->max_distance = g->max_distance;
    t->block_length = g->block_length;
    t->global_block_size = g->bucket_ids == POSENC__IDS_LONGT5_TGLOBAL ? g->global_block_size : 0;
    return POSENC_OK;
}

posenc_status posenc_model_layer_cpmant(const posenc_model *m, uint32_t layer,
                                        posenc_model_cpmant *c)
{
    const posenc_model_group *g;
    posenc_status st = bucket_group(m, layer, c, POSENC__IDS_CPMANT, &g);
    if (st != POSENC_OK)
        return st;
    c->buckets = g->buckets;
    c->max_distance = g->max_distance;
    c->segment_types = g->segment_types;
    c->prompt_length = g->prompt_length;
    return POSENC_OK;
}

posenc_status posenc_model_layer_window(const posenc_model *m, uint32_t layer,
                                        uint32_t *window_size)
{
    const posenc_model_group *g;
    posenc_status st = bucket_group(m, layer, window_size, POSENC__IDS_WINDOW, &g);
    if (st != POSENC_OK)
        return st;
    *window_size = g->window_size;
    return POSENC_OK;
}

/* CPM-Ant's segment of the token at position p: the prompt's 0, the text's 2
 * (modeling_cpmant.py L605, L620: where(input_ids != 0, 2, 0) after
 * prompt_length zeros). */
static uint32_t cpmant_segment(const posenc_model_group *g, int64_t p)
{
    return p < (int64_t)g->prompt_length ? 0u : 2u;
}

static posenc_status prophet_bucket(const posenc_model_group *g, int64_t d, int64_t *out);

/* The id one layer's code gives query q and key k. */
static posenc_status one_id(const posenc_model_group *g, int64_t q, int64_t k, int64_t *out)
{
    uint32_t b;
    posenc_status st;
    if (!posenc__pos_ok(q) || !posenc__pos_ok(k)) /* token indices 0 .. POSENC_MAX_POS */
        return POSENC_ERR_POS;
    switch (g->bucket_ids) {
    case POSENC__IDS_LONGT5_LOCAL:
    case POSENC__IDS_LONGT5_TGLOBAL:
        /* modeling_longt5.py L145-160: the locality mask |k - q| < block_len;
         * L606-620: T5's bidirectional bucket of k - q inside it */
        if (k - q >= (int64_t)g->block_length || q - k >= (int64_t)g->block_length) {
            *out = -1;
            return POSENC_OK;
        }
        st = posenc_t5_bucket(q, k, g->buckets, g->max_distance, 1, &b);
        *out = b;
        return st;
    case POSENC__IDS_CPMANT:
        st = posenc_cpmant_bucket(q, k, cpmant_segment(g, q), cpmant_segment(g, k), g->buckets,
                                  g->max_distance, g->segment_types, &b);
        *out = b;
        return st;
    case POSENC__IDS_WINDOW: return posenc_window_rel_index(q, k, g->window_size, out);
    case POSENC__IDS_PROPHETNET: return prophet_bucket(g, q - k, out); /* the main stream */
    default:
        if (g->deberta && g->deberta_buckets > 0) /* build_relative_position: q - k */
            return posenc_deberta_log_bucket(q - k, g->deberta_buckets, g->deberta_max_position,
                                             out);
        if (g->deberta) {
            *out = q - k;
            return POSENC_OK;
        }
        st = posenc_t5_bucket(q, k, g->buckets, g->max_distance, g->bidirectional, &b);
        *out = b;
        return st;
    }
}

posenc_status posenc_model_layer_relative_ids(const posenc_model *m, uint32_t layer,
                                              const int64_t *q_pos, size_t n_q,
                                              const int64_t *k_pos, size_t n_k, int64_t *out)
{
    const posenc_model_group *g;
    posenc_status st = bucket_group(m, layer, out, -1, &g);
    if (st != POSENC_OK)
        return st;
    if ((n_q && !q_pos) || (n_k && !k_pos))
        return POSENC_ERR_NULL;
    for (size_t i = 0; i < n_q; i++)
        for (size_t j = 0; j < n_k; j++)
            if ((st = one_id(g, q_pos[i], k_pos[j], &out[i * n_k + j])) != POSENC_OK)
                return st;
    return POSENC_OK;
}

posenc_status posenc_model_layer_side_buckets(const posenc_model *m, uint32_t layer,
                                              uint32_t n_tok, const int64_t *q_pos, size_t n_q,
                                              int64_t *out, size_t cap, size_t *n_global)
{
    const posenc_model_group *g;
    posenc_status st = bucket_group(m, layer, n_global, POSENC__IDS_LONGT5_TGLOBAL, &g);
    if (st != POSENC_OK)
        return st;
    size_t ng;
    if ((st = posenc_longt5_side_positions(n_tok, g->global_block_size, NULL, 0, &ng)) !=
        POSENC_OK)
        return st;
    *n_global = ng;
    if (!out)
        return cap == 0 ? POSENC_OK : POSENC_ERR_NULL;
    if (n_q && !q_pos)
        return POSENC_ERR_NULL;
    if (ng && n_q > cap / ng)
        return POSENC_ERR_RANGE;
    for (size_t i = 0; i < n_q; i++)
        if (q_pos[i] < 0 || q_pos[i] >= (int64_t)n_tok)
            return POSENC_ERR_POS;
    if (ng == 0)
        return POSENC_OK;
    int64_t *side = malloc((size_t)n_tok * ng * sizeof *side);
    if (!side)
        return POSENC_ERR_NOMEM;
    st = posenc_longt5_side_positions(n_tok, g->global_block_size, side, (size_t)n_tok * ng, &ng);
    for (size_t i = 0; i < n_q && st == POSENC_OK; i++)
        for (size_t k = 0; k < ng && st == POSENC_OK; k++) {
            /* modeling_longt5.py L806-819: T5's bidirectional bucket of the side
             * position (global block k minus the token's block) */
            int64_t s = side[(size_t)q_pos[i] * ng + k];
            int64_t block = (int64_t)k - s;
            uint32_t b;
            st = posenc_t5_bucket(block, (int64_t)k, g->buckets, g->max_distance, 1, &b);
            out[i * ng + k] = b;
        }
    free(side);
    return st;
}

/* ---- ProphetNet's decoder ---------------------------------------------------------- */

/* compute_relative_buckets(num_buckets, max_distance, -d, False)
 * (transformers 5.23.0 models/prophetnet/modeling_prophetnet.py L66-90) of
 * d = query - key: max(d, 0); below max_exact itself; else
 * min(max_exact + v, num_buckets - 1) in float32, truncated by .int(). v is
 * T5's float32 v (posenc_t5_bucket_explain: the same log, divisions and
 * product, L84-87); T5 truncates v before adding max_exact, ProphetNet after. */
static posenc_status prophet_bucket(const posenc_model_group *g, int64_t d, int64_t *out)
{
    posenc_t5_trace t;
    if (d < -POSENC_MAX_POS || d > POSENC_MAX_POS)
        return POSENC_ERR_POS;
    posenc_status st = posenc_t5_bucket_explain(d > 0 ? d : 0, 0, g->buckets, g->max_distance,
                                                0, &t);
    if (st != POSENC_OK)
        return st;
    if (t.is_small) {
        *out = t.distance;
        return POSENC_OK;
    }
    volatile float sum = (float)t.max_exact + t.scaled; /* one float32 addition */
    float last = (float)(g->buckets - 1);
    *out = (int64_t)(sum < last ? sum : last);
    return POSENC_OK;
}

posenc_status posenc_model_layer_prophetnet(const posenc_model *m, uint32_t layer,
                                            posenc_model_prophetnet *p)
{
    const posenc_model_group *g;
    posenc_status st = bucket_group(m, layer, p, POSENC__IDS_PROPHETNET, &g);
    if (st != POSENC_OK)
        return st;
    p->buckets = g->buckets;
    p->max_distance = g->max_distance;
    p->ngram = g->ngram;
    return POSENC_OK;
}

posenc_status posenc_model_layer_prophetnet_predict(const posenc_model *m, uint32_t layer,
                                                    const int64_t *q_pos, size_t n_q,
                                                    const int64_t *k_pos, size_t n_k,
                                                    int64_t *out)
{
    const posenc_model_group *g;
    posenc_status st = bucket_group(m, layer, out, POSENC__IDS_PROPHETNET, &g);
    if (st != POSENC_OK)
        return st;
    if ((n_q && !q_pos) || (n_k && !k_pos))
        return POSENC_ERR_NULL;
    for (size_t i = 0; i < n_q; i++)
        for (size_t j = 0; j < n_k; j++) {
            if (!posenc__pos_ok(q_pos[i]) || !posenc__pos_ok(k_pos[j]))
                return POSENC_ERR_POS;
            /* L102-104: keys position_ids - 1 (the main stream's, one step
             * later), then the buffer's second half read from column
             * max_position_embeddings (L1284-1286): key k + 1 */
            int64_t *row = out + i * 2 * n_k;
            if ((st = prophet_bucket(g, q_pos[i] - k_pos[j] + 1, &row[j])) != POSENC_OK ||
                (st = prophet_bucket(g, q_pos[i] - k_pos[j] - 1, &row[n_k + j])) != POSENC_OK)
                return st;
        }
    return POSENC_OK;
}
