/* models.c - the model registry: for each Hugging Face model_type, how its
 * modeling code uses positions (layout, rotated part, base, which layers
 * rotate, query scalings, absolute tables, ALiBi, T5 buckets), and the
 * per-layer queries on a posenc_model. Reading config.json files into a
 * posenc_model is the optional config library's job (src/config_model.c).
 *
 * Every entry cites the file and lines of the code it follows. Paths under
 * "models/" are in the repository zucchini-nlp/transformers (a recent copy
 * of Hugging Face transformers) below src/transformers/; others name the
 * model's own repository on the Hugging Face Hub. docs/MODELS.md has the
 * table in prose. */
#include "posenc.h"
#include "internal.h"

#include <math.h>
#include <string.h>

#define HALF POSENC_LAYOUT_HALF
#define INTERLEAVED POSENC_LAYOUT_INTERLEAVED

/* Sorted by model_type (the listing's order; tests check it). */
static const posenc_model_family FAMILIES[] = {
#include "models_table.h"
};

#define N_FAMILIES (sizeof FAMILIES / sizeof FAMILIES[0])

size_t posenc_model_families(const posenc_model_family **table)
{
    if (table)
        *table = FAMILIES;
    return N_FAMILIES;
}

const posenc_model_family *posenc_model_family_find(const char *model_type)
{
    if (!model_type)
        return NULL;
    for (size_t i = 0; i < N_FAMILIES; i++)
        if (strcmp(FAMILIES[i].model_type, model_type) == 0)
            return &FAMILIES[i];
    return NULL;
}

const posenc_model_family *posenc_model_family_by_arch(const char *class_name)
{
    if (!class_name)
        return NULL;
    static const char *const suffix[] = {"For", "Model", "LMHead"};
    for (size_t i = 0; i < N_FAMILIES; i++) {
        const char *a = FAMILIES[i].arch;
        if (!a)
            continue;
        size_t n = strlen(a);
        if (strncmp(class_name, a, n) != 0)
            continue;
        for (size_t j = 0; j < sizeof suffix / sizeof suffix[0]; j++)
            if (strncmp(class_name + n, suffix[j], strlen(suffix[j])) == 0)
                return &FAMILIES[i];
    }
    return NULL;
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
    }
    return "unknown";
}

const char *posenc_query_scale_name(posenc_query_scale_type t)
{
    switch (t) {
    case POSENC_QSCALE_NONE: return "none";
    case POSENC_QSCALE_TEMPERATURE: return "temperature";
    case POSENC_QSCALE_LOGN: return "logn";
    case POSENC_QSCALE_BETA: return "beta";
    }
    return "unknown";
}

posenc_status posenc_model_layer(const posenc_model *m, uint32_t layer,
                                 const posenc_model_group **g)
{
    if (!m || !g)
        return POSENC_ERR_NULL;
    if (m->n_group < 1 || m->n_group > POSENC_MODEL_MAX_GROUPS ||
        m->n_layer > POSENC_MODEL_MAX_LAYERS || layer >= m->n_layer ||
        m->layer_group[layer] >= m->n_group)
        return POSENC_ERR_RANGE;
    *g = &m->group[m->layer_group[layer]];
    return POSENC_OK;
}

/* Qwen 1's dynamic NTK alpha at cur_len for trained length L:
 * 2^ceil(log2(cur_len / L) + 1) - 1, at least 1; 1 while cur_len <= L. */
static double qwen_ntk_alpha(int64_t cur_len, double L)
{
    if ((double)cur_len <= L)
        return 1.0;
    double a = pow(2.0, ceil(log2((double)cur_len / L) + 1.0)) - 1.0;
    return a > 1.0 ? a : 1.0;
}

posenc_status posenc_model_layer_rope(const posenc_model *m, uint32_t layer, int64_t cur_len,
                                      posenc_rope *r)
{
    const posenc_model_group *g;
    posenc_status st = posenc_model_layer(m, layer, &g);
    if (st != POSENC_OK)
        return st;
    if (!r)
        return POSENC_ERR_NULL;
    if (g->scheme != POSENC_SCHEME_ROPE)
        return POSENC_ERR_RANGE;
    if (!g->qwen_dynamic_ntk)
        return posenc_rope_init_config(r, &g->rope, cur_len);
    if (cur_len < 0 || cur_len > POSENC_MAX_POS + 1)
        return POSENC_ERR_POS;
    if (!(isfinite(g->qwen_seq_length) && g->qwen_seq_length >= 1.0))
        return POSENC_ERR_RANGE;
    double alpha = qwen_ntk_alpha(cur_len, g->qwen_seq_length);
    posenc_rope_scaling s;
    posenc__scaling_defaults(&s, alpha > 1.0 ? POSENC_ROPE_NTK : POSENC_ROPE_DEFAULT);
    s.factor = alpha;
    return posenc_rope_init_scaled(r, g->rope.head_dim, g->rope.rotary_dim, g->rope.base,
                                   g->rope.layout, &s, cur_len);
}

posenc_status posenc_model_query_scale(const posenc_model *m, uint32_t layer, int64_t pos,
                                       double *scale)
{
    const posenc_model_group *g;
    posenc_status st = posenc_model_layer(m, layer, &g);
    if (st != POSENC_OK)
        return st;
    if (!scale)
        return POSENC_ERR_NULL;
    if (pos < 0 || pos > POSENC_MAX_POS)
        return POSENC_ERR_POS;
    const posenc_query_scale *q = &g->qscale;
    double p = (double)pos, v;
    switch (q->type) {
    case POSENC_QSCALE_NONE: v = 1.0; break;
    case POSENC_QSCALE_TEMPERATURE:
        /* log1p(floor((pos + 1) / floor_scale)) * attn_scale + 1 */
        if (!(isfinite(q->floor_scale) && q->floor_scale > 0 && isfinite(q->attn_scale)))
            return POSENC_ERR_RANGE;
        v = log1p(floor((p + 1.0) / q->floor_scale)) * q->attn_scale + 1.0;
        break;
    case POSENC_QSCALE_LOGN:
        /* log(pos + 1) / log(seq_length) past the trained length */
        if (!(isfinite(q->seq_length) && q->seq_length > 1.0))
            return POSENC_ERR_RANGE;
        v = p + 1.0 > q->seq_length ? log(p + 1.0) / log(q->seq_length) : 1.0;
        break;
    case POSENC_QSCALE_BETA:
        /* 1 + beta * log(1 + floor(pos / original)) */
        if (!(isfinite(q->original) && q->original > 0 && isfinite(q->beta)))
            return POSENC_ERR_RANGE;
        v = 1.0 + q->beta * log1p(floor(p / q->original));
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

posenc_status posenc_model_alibi_slopes(const posenc_model *m, uint32_t layer, double *slopes)
{
    const posenc_model_group *g;
    posenc_status st = posenc_model_layer(m, layer, &g);
    if (st != POSENC_OK)
        return st;
    if (!slopes)
        return POSENC_ERR_NULL;
    if (g->scheme != POSENC_SCHEME_ALIBI ||
        !(isfinite(g->alibi_bias_max) && g->alibi_bias_max > 0) ||
        !(isfinite(g->alibi_slope_scale) && g->alibi_slope_scale > 0))
        return POSENC_ERR_RANGE;
    uint32_t H = g->n_head;
    if (H == 0 || H > POSENC_MAX_DIM)
        return POSENC_ERR_DIM;
    if (g->alibi_bias_max == 8.0) {
        posenc_status st2 = posenc_alibi_slopes(H, slopes);
        for (uint32_t h = 0; st2 == POSENC_OK && h < H; h++)
            slopes[h] = (g->alibi_bf16 ? bf16_round(slopes[h]) : slopes[h]) * g->alibi_slope_scale;
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
    for (uint32_t h = 0; h < H; h++)
        slopes[h] = (g->alibi_bf16 ? bf16_round(slopes[h]) : slopes[h]) * g->alibi_slope_scale;
    return POSENC_OK;
}
