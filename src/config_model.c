/* config_model.c - a model from its config.json, through the registry
 * (src/models.c): which family, which part of the config, and for every
 * layer the position scheme its family's code applies.
 *
 * Part of the optional config library (needs jansson, like src/config.c,
 * whose RoPE block reader it shares through config_internal.h). Families are
 * read by their registry entry's rules; the few that need more (ChatGLM's
 * rope_ratio, Qwen 1's dynamic NTK and log-n, the absolute and relative
 * schemes) have a function each below. Every refusal names its key. */
#include "config_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct mread {
    reader rd;
    const json_t *cfg;   /* the part read (the root, or e.g. root.text_config) */
    char prefix[40];     /* "text_config." or "" */
    const posenc_model_family *fam;
    posenc_model *m;
    char block[POSENC_MODEL_MAX_GROUPS + 1][96]; /* names of the RoPE blocks read */
    size_t n_block;
} mread;

#define FAIL(r, st, key, ...) posenc__cfg_fail(&(r)->rd, st, key, __VA_ARGS__)

/* "text_config.key" */
static const char *kn(mread *r, const char *key, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s", r->prefix, key);
    return buf;
}

static const json_t *get(const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    return v && !json_is_null(v) ? v : NULL;
}

static posenc_status num(mread *r, const char *key, double *out, int *present)
{
    char name[96];
    return posenc__cfg_number(&r->rd, r->cfg, key, kn(r, key, name, sizeof name), out, present);
}

static posenc_status count(mread *r, const char *key, int64_t *out, int *present)
{
    char name[96];
    return posenc__cfg_count(&r->rd, r->cfg, key, kn(r, key, name, sizeof name), out, present);
}

/* The first of keys (NULL-terminated) that is present, as a count; else def
 * when def > 0; else a missing-key error naming keys[0]. *which: the key. */
static posenc_status count_of(mread *r, const char *const *keys, int64_t def, int64_t *out,
                              const char **which)
{
    for (; *keys; keys++) {
        int present;
        posenc_status st = count(r, *keys, out, &present);
        if (st != POSENC_OK)
            return st;
        if (present) {
            if (which)
                *which = *keys;
            return POSENC_OK;
        }
    }
    return POSENC_OK;
    (void)def;
}

static posenc_status need_count(mread *r, const char *const *keys, int64_t def, int64_t *out,
                                const char **which)
{
    *out = -1;
    posenc_status st = count_of(r, keys, def, out, which);
    if (st != POSENC_OK || *out >= 0)
        return st;
    if (def > 0) {
        *out = def;
        if (which)
            *which = keys[0];
        return POSENC_OK;
    }
    char name[96];
    kn(r, keys[0], name, sizeof name);
    return FAIL(r, POSENC_ERR_FORMAT, name, "missing key %s (family %s has no default for it)",
                name, r->fam->model_type);
}

static const char *const LAYER_KEYS[] = {"num_hidden_layers", "n_layer", "num_layers", NULL};
static const char *const HIDDEN_KEYS[] = {"hidden_size", "n_embd", "n_embed", "d_model", NULL};
static const char *const HEADS_KEYS[] = {"num_attention_heads", "n_head", "n_heads", NULL};
static const char *const MAXPOS_KEYS[] = {"max_position_embeddings", "n_positions",
                                          "seq_length", NULL};

/* Appends key to the ignored list when the part has it. */
static void note_ignored(mread *r, const char *key)
{
    if (!get(r->cfg, key))
        return;
    char *s = r->m->ignored;
    size_t n = strlen(s);
    snprintf(s + n, sizeof r->m->ignored - n, "%s%s", n ? " " : "", key);
}

/* Keys near positions that no family's code uses for them. */
static void note_ignored_common(mread *r)
{
    static const char *const keys[] = {"sliding_window", "use_sliding_window",
                                       "max_window_layers", "attention_chunk_size", NULL};
    for (int i = 0; keys[i]; i++)
        note_ignored(r, keys[i]);
}

/* Keys that change positions in ways only some families implement: refused
 * elsewhere, by name. */
static posenc_status refuse_foreign(mread *r)
{
    static const struct {
        const char *key, *family, *what;
    } keys[] = {
        {"rope_local_base_freq", "gemma3_text", "a second RoPE base for sliding layers"},
        {"use_dynamic_ntk", "qwen", "Qwen 1's dynamic NTK"},
        {"use_logn_attn", "qwen", "Qwen 1's log-n query scaling"},
        {"no_rope_layers", "llama4_text", "layers without RoPE"},
        {"llama_4_scaling_beta", "mistral3", "a position-dependent query scaling"},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const json_t *v = get(r->cfg, keys[i].key);
        if (!v || json_is_false(v))
            continue;
        if (r->fam->layers == POSENC_LAYERS_NO_ROPE && strcmp(keys[i].key, "no_rope_layers") == 0)
            continue;
        if (r->fam->layers == POSENC_LAYERS_BY_TYPE && r->fam->local_base_key &&
            strcmp(keys[i].key, r->fam->local_base_key) == 0)
            continue;
        if (strcmp(r->fam->model_type, keys[i].family) == 0)
            continue;
        if (r->fam->qscale == POSENC_QSCALE_LOGN && keys[i].family[0] == 'q')
            continue;
        if (r->fam->qscale == POSENC_QSCALE_BETA && strcmp(keys[i].family, "mistral3") == 0)
            continue;
        char name[96];
        kn(r, keys[i].key, name, sizeof name);
        return FAIL(r, POSENC_ERR_FORMAT, name,
                    "key %s (%s) is not part of family %s's code: posenc does not know what it "
                    "changes there",
                    name, keys[i].what, r->fam->model_type);
    }
    return POSENC_OK;
}

static int add_group(posenc_model *m, posenc_scheme s, const char *layer_type)
{
    posenc_model_group *g = &m->group[m->n_group];
    memset(g, 0, sizeof *g);
    g->scheme = s;
    snprintf(g->layer_type, sizeof g->layer_type, "%s", layer_type);
    return (int)m->n_group++;
}

static void finish_scheme(posenc_model *m)
{
    m->scheme = m->group[0].scheme;
    for (uint32_t i = 1; i < m->n_group; i++)
        if (m->group[i].scheme != m->scheme)
            m->scheme = POSENC_SCHEME_MIXED;
}

/* ---- RoPE families ---------------------------------------------------------------- */

/* What the RoPE groups share: dimensions, layout, max_position_embeddings. */
typedef struct rope_common {
    int64_t head_dim, rotary, maxpos, top_orig;
    int have_maxpos, have_top_orig;
    double base;          /* the config's (or default) base, with any ratio */
    const char *base_name;
} rope_common;

/* Llama 3 with low_freq_factor == high_freq_factor: Hugging Face's clean step
 * (modeling_rope_utils.py _compute_llama3_parameters: where(wl > low_wl,
 * inv / factor, inv); the blend is empty), as per-pair factors. */
static void llama3_step(posenc_model_group *g)
{
    posenc_rope_config *c = &g->rope;
    posenc_rope_scaling *s = &c->scaling;
    double L = s->original_max_position_embeddings, lf = s->low_freq_factor, factor = s->factor;
    posenc_rope_scaling_init(s, POSENC_ROPE_DEFAULT);
    for (uint32_t k = 0; k < c->rotary_dim / 2; k++) {
        double f0 = 0.0;
        posenc_inv_freq(k, c->rotary_dim, c->base, &f0);
        c->freq_factors[k] = 2.0 * 3.14159265358979323846 / f0 > L / lf ? factor : 1.0;
    }
    s->n_freq_factors = c->rotary_dim / 2;
    g->llama3_step = 1;
}

/* Fills group g's RoPE from the block blk (NULL: none) named name, on top of
 * cm with base. is_params: blk is a rope_parameters set. */
static posenc_status rope_group(mread *r, posenc_model_group *g, const rope_common *cm,
                                double base, const json_t *blk, int is_params, const char *name)
{
    posenc_rope_config *c = &g->rope;
    memset(c, 0, sizeof *c);
    c->head_dim = (uint32_t)cm->head_dim;
    c->rotary_dim = (uint32_t)cm->rotary;
    c->base = base;
    c->layout = r->fam->layout;
    c->max_position_embeddings = cm->maxpos;
    posenc_rope_scaling_init(&c->scaling, POSENC_ROPE_DEFAULT);
    snprintf(r->block[r->n_block], sizeof r->block[0], "%s", name);
    r->rd.block = r->block[r->n_block++];
    posenc_status st = POSENC_OK;
    if (blk) {
        if (!json_is_object(blk))
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be an object or null, got %s", name,
                        posenc__cfg_type_word(blk));
        st = posenc__cfg_scaling(&r->rd, blk, is_params, cm->maxpos, cm->have_maxpos,
                                 cm->top_orig, cm->have_top_orig, c);
        if (st != POSENC_OK)
            return st;
    }
    g->configured = c->scaling;
    g->configured.short_factor = g->configured.long_factor = g->configured.freq_factors = NULL;
    if (c->scaling.type == POSENC_ROPE_LLAMA3 &&
        c->scaling.low_freq_factor == c->scaling.high_freq_factor &&
        isfinite(c->scaling.low_freq_factor) && c->scaling.low_freq_factor > 0 &&
        isfinite(c->scaling.original_max_position_embeddings) &&
        c->scaling.original_max_position_embeddings >= 1 && isfinite(c->scaling.factor) &&
        c->scaling.factor >= 1)
        llama3_step(g);
    posenc_rope *rope = malloc(sizeof *rope);
    if (!rope)
        return FAIL(r, POSENC_ERR_NOMEM, "", "out of memory");
    st = posenc__cfg_usable(&r->rd, rope, c, 0);
    if (st == POSENC_OK)
        st = posenc__cfg_usable(&r->rd, rope, c, POSENC_MAX_POS + 1);
    free(rope);
    return st;
}

/* The head size, rotary part and base shared by the RoPE layers. */
static posenc_status rope_common_read(mread *r, const json_t *rp_single, rope_common *cm)
{
    const posenc_model_family *f = r->fam;
    char name[96];
    int present;
    posenc_status st;
    memset(cm, 0, sizeof *cm);
    if (f->rotary == POSENC_ROTARY_QK_ROPE) {
        static const char *const k[] = {"qk_rope_head_dim", NULL};
        if ((st = need_count(r, k, f->default_head_dim, &cm->head_dim, NULL)) != POSENC_OK)
            return st;
    } else {
        const json_t *hd = json_object_get(r->cfg, "head_dim");
        if ((st = count(r, "head_dim", &cm->head_dim, &present)) != POSENC_OK)
            return st;
        if (!present && f->head_dim_key &&
            (st = count(r, f->head_dim_key, &cm->head_dim, &present)) != POSENC_OK)
            return st;
        if (!present && !hd && f->default_head_dim) {
            cm->head_dim = f->default_head_dim;
            present = 1;
        }
        if (!present) {
            int64_t hidden, heads;
            const char *hk, *nk;
            if ((st = need_count(r, HIDDEN_KEYS, f->default_hidden, &hidden, &hk)) != POSENC_OK ||
                (st = need_count(r, HEADS_KEYS, f->default_heads, &heads, &nk)) != POSENC_OK)
                return st;
            if (heads == 0)
                return FAIL(r, POSENC_ERR_FORMAT, kn(r, nk, name, sizeof name),
                            "%s must be at least 1", name);
            cm->head_dim = hidden / heads;
        }
    }
    if (cm->head_dim < 2 || cm->head_dim > POSENC_ROPE_MAX_HEAD_DIM)
        return FAIL(r, POSENC_ERR_DIM, kn(r, "head_dim", name, sizeof name),
                    "the head size %lld is outside 2..%u", (long long)cm->head_dim,
                    POSENC_ROPE_MAX_HEAD_DIM);

    /* The rotated part. */
    switch (f->rotary) {
    case POSENC_ROTARY_PARTIAL: {
        double prf = f->partial_default;
        const char *pk = f->partial_key;
        int have = 0;
        if (rp_single && (st = posenc__cfg_number(&r->rd, rp_single, "partial_rotary_factor",
                                                  kn(r, "rope_parameters.partial_rotary_factor",
                                                     name, sizeof name),
                                                  &prf, &have)) != POSENC_OK)
            return st;
        if (have)
            pk = "rope_parameters.partial_rotary_factor";
        static const char *const legacy[] = {"partial_rotary_factor", "rotary_pct", NULL};
        if (!have && f->partial_key && (st = num(r, f->partial_key, &prf, &have)) != POSENC_OK)
            return st;
        for (int i = 0; !have && legacy[i]; i++) {
            if ((st = num(r, legacy[i], &prf, &have)) != POSENC_OK)
                return st;
            if (have)
                pk = legacy[i];
        }
        kn(r, pk ? pk : "partial_rotary_factor", name, sizeof name);
        if (!(prf > 0.0 && prf <= 1.0))
            return FAIL(r, POSENC_ERR_RANGE, name, "%s must be in (0, 1], got %g", name, prf);
        cm->rotary = (int64_t)floor((double)cm->head_dim * prf);
        break;
    }
    case POSENC_ROTARY_HALF_HEAD: cm->rotary = cm->head_dim / 2; break;
    case POSENC_ROTARY_DIM_KEY:
        if ((st = count(r, "rotary_dim", &cm->rotary, &present)) != POSENC_OK)
            return st;
        if (!present)
            cm->rotary = cm->head_dim;
        kn(r, "rotary_dim", name, sizeof name);
        break;
    case POSENC_ROTARY_QK_ROPE: cm->rotary = cm->head_dim; break;
    }
    if (cm->rotary < 2 || cm->rotary % 2 || cm->rotary > cm->head_dim)
        return FAIL(r, POSENC_ERR_RANGE, f->rotary == POSENC_ROTARY_DIM_KEY ? name : "",
                    "the rotary dimension comes out %lld for head size %lld; it must be even, at "
                    "least 2 and at most the head size",
                    (long long)cm->rotary, (long long)cm->head_dim);

    /* The base: rope_parameters.rope_theta, the family's key, legacy names. */
    int have = 0;
    cm->base = f->base_default;
    cm->base_name = f->base_key;
    if (rp_single && (st = posenc__cfg_number(&r->rd, rp_single, "rope_theta",
                                              kn(r, "rope_parameters.rope_theta", name,
                                                 sizeof name),
                                              &cm->base, &have)) != POSENC_OK)
        return st;
    if (have)
        cm->base_name = "rope_parameters.rope_theta";
    static const char *const legacy_base[] = {"rope_theta", "rotary_emb_base", NULL};
    if (!have && (st = num(r, f->base_key, &cm->base, &have)) != POSENC_OK)
        return st;
    for (int i = 0; !have && legacy_base[i]; i++) {
        if ((st = num(r, legacy_base[i], &cm->base, &have)) != POSENC_OK)
            return st;
        if (have)
            cm->base_name = legacy_base[i];
    }
    if (f->base_ratio_key) {
        double ratio = 1.0;
        if ((st = num(r, f->base_ratio_key, &ratio, &have)) != POSENC_OK)
            return st;
        if (!(isfinite(ratio) && ratio > 0))
            return FAIL(r, POSENC_ERR_RANGE, kn(r, f->base_ratio_key, name, sizeof name),
                        "%s must be finite and > 0, got %g", name, ratio);
        cm->base *= ratio;
    }
    if (!(isfinite(cm->base) && cm->base > 1.0))
        return FAIL(r, POSENC_ERR_BASE, kn(r, cm->base_name, name, sizeof name),
                    "%s must be finite and > 1, got %g", name, cm->base);

    const char *mk = NULL;
    if ((st = count_of(r, MAXPOS_KEYS, 0, &cm->maxpos, &mk)) != POSENC_OK)
        return st;
    cm->have_maxpos = mk != NULL;
    if (!cm->have_maxpos)
        cm->maxpos = 0;
    if ((st = count(r, "original_max_position_embeddings", &cm->top_orig, &cm->have_top_orig)) !=
        POSENC_OK)
        return st;
    return POSENC_OK;
}

/* A layer type's name in layer_types: 0 full_attention, 1 sliding_attention. */
static posenc_status layer_kinds(mread *r, int64_t n_layer, uint8_t *kind)
{
    const posenc_model_family *f = r->fam;
    char name[96];
    const json_t *lt = get(r->cfg, "layer_types");
    if (lt) {
        kn(r, "layer_types", name, sizeof name);
        if (!json_is_array(lt))
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be an array of strings, got %s",
                        name, posenc__cfg_type_word(lt));
        if ((int64_t)json_array_size(lt) != n_layer)
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s has %zu entries for %lld layers", name,
                        json_array_size(lt), (long long)n_layer);
        for (int64_t i = 0; i < n_layer; i++) {
            const json_t *e = json_array_get(lt, (size_t)i);
            const char *s = json_is_string(e) ? json_string_value(e) : NULL;
            if (s && strcmp(s, "full_attention") == 0)
                kind[i] = 0;
            else if (s && strcmp(s, "sliding_attention") == 0)
                kind[i] = 1;
            else if (s)
                return FAIL(r, POSENC_ERR_FORMAT, name,
                            "%s[%lld] '%.40s' is not a layer type of family %s (full_attention, "
                            "sliding_attention)",
                            name, (long long)i, s, f->model_type);
            else
                return FAIL(r, POSENC_ERR_FORMAT, name, "%s[%lld] must be a string, got %s",
                            name, (long long)i, posenc__cfg_type_word(e));
        }
        note_ignored(r, "sliding_window_pattern");
        return POSENC_OK;
    }
    int64_t pattern = f->sliding_pattern;
    int present;
    posenc_status st = count(r, "sliding_window_pattern", &pattern, &present);
    if (st != POSENC_OK)
        return st;
    for (int64_t i = 0; i < n_layer; i++)
        kind[i] = pattern > 0 && (i + 1) % pattern != 0;
    return POSENC_OK;
}

static posenc_status read_rope_family(mread *r, int64_t n_layer)
{
    const posenc_model_family *f = r->fam;
    posenc_model *m = r->m;
    char name[96], bname[96];
    posenc_status st;

    const json_t *rp = get(r->cfg, "rope_parameters"), *rs = get(r->cfg, "rope_scaling");
    if (rp && rs)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "rope_parameters", name, sizeof name),
                    "both rope_parameters and rope_scaling are given: which one applies is "
                    "ambiguous");
    /* rope_parameters per layer type: every value an object named after a type */
    int per_type = 0;
    if (rp && json_is_object(rp)) {
        const char *k;
        const json_t *v;
        int objs = 0, others = 0;
        json_object_foreach((json_t *)rp, k, v) {
            if (json_is_object(v))
                objs++;
            else
                others++;
        }
        per_type = objs > 0;
        if (per_type) {
            json_object_foreach((json_t *)rp, k, v) {
                snprintf(bname, sizeof bname, "%srope_parameters.%s", r->prefix, k);
                if (!json_is_object(v) || f->layers != POSENC_LAYERS_BY_TYPE ||
                    (strcmp(k, "full_attention") != 0 && strcmp(k, "sliding_attention") != 0))
                    return FAIL(r, POSENC_ERR_FORMAT, bname,
                                "%s: family %s has no layer type '%.40s' with its own RoPE "
                                "parameters (rope_parameters holds one set, or one per "
                                "full_attention / sliding_attention layer type)",
                                bname, f->model_type, k);
            }
            (void)others;
        }
    }
    const json_t *single = per_type ? NULL : (rp ? rp : rs);
    rope_common cm;
    if ((st = rope_common_read(r, rp && !per_type ? rp : NULL, &cm)) != POSENC_OK)
        return st;
    snprintf(bname, sizeof bname, "%s%s", r->prefix, rp ? "rope_parameters" : "rope_scaling");

    uint8_t *kind = calloc((size_t)n_layer, 1);
    if (!kind)
        return FAIL(r, POSENC_ERR_NOMEM, "", "out of memory");
    switch (f->layers) {
    case POSENC_LAYERS_BY_TYPE: {
        if ((st = layer_kinds(r, n_layer, kind)) != POSENC_OK)
            break;
        /* EXAONE 4: "if self.sliding_window is None or self.is_sliding" rotates */
        int all_rope = f->full_rope == POSENC_TROPE_NONE && !get(r->cfg, "sliding_window");
        int gi[2] = {-1, -1};
        for (int64_t i = 0; i < n_layer && st == POSENC_OK; i++) {
            int t = kind[i];
            if (gi[t] < 0) {
                posenc_type_rope rule = t ? f->sliding_rope : f->full_rope;
                const char *tname = t ? "sliding_attention" : "full_attention";
                if (all_rope)
                    rule = POSENC_TROPE_SCALED;
                if (rule == POSENC_TROPE_NONE) {
                    gi[t] = add_group(m, POSENC_SCHEME_NONE, tname);
                } else {
                    gi[t] = add_group(m, POSENC_SCHEME_ROPE, tname);
                    posenc_model_group *g = &m->group[gi[t]];
                    double base = cm.base;
                    int have = 0;
                    if (rule == POSENC_TROPE_LOCAL) {
                        base = f->local_base_default;
                        if ((st = num(r, f->local_base_key, &base, &have)) != POSENC_OK)
                            break;
                        if (!(isfinite(base) && base > 1.0)) {
                            st = FAIL(r, POSENC_ERR_BASE,
                                      kn(r, f->local_base_key, name, sizeof name),
                                      "%s must be finite and > 1, got %g", name, base);
                            break;
                        }
                    }
                    if (per_type) {
                        const json_t *set = get(rp, tname);
                        char sname[96];
                        snprintf(sname, sizeof sname, "%srope_parameters.%s", r->prefix, tname);
                        if (set) {
                            double b2;
                            char tkey[128];
                            snprintf(tkey, sizeof tkey, "%s.rope_theta", sname);
                            if ((st = posenc__cfg_number(&r->rd, set, "rope_theta", tkey, &b2,
                                                         &have)) != POSENC_OK)
                                break;
                            if (have) {
                                if (!(isfinite(b2) && b2 > 1.0)) {
                                    st = FAIL(r, POSENC_ERR_BASE, tkey,
                                              "%s must be finite and > 1, got %g", tkey, b2);
                                    break;
                                }
                                base = b2;
                            }
                        }
                        st = rope_group(r, g, &cm, base, set, 1, sname);
                    } else {
                        st = rope_group(r, g, &cm, base,
                                        rule == POSENC_TROPE_SCALED ? single : NULL, rp != NULL,
                                        rule == POSENC_TROPE_SCALED ? bname : "");
                    }
                }
            }
            m->layer_group[i] = (uint8_t)gi[t];
        }
        break;
    }
    case POSENC_LAYERS_NO_ROPE: {
        const json_t *nl = get(r->cfg, "no_rope_layers");
        kn(r, "no_rope_layers", name, sizeof name);
        if (nl && !json_is_array(nl)) {
            st = FAIL(r, POSENC_ERR_FORMAT, name, "%s must be an array of 0 and 1, got %s", name,
                      posenc__cfg_type_word(nl));
            break;
        }
        if (nl && json_array_size(nl) > 0) {
            /* "List with at least the same length as the number of layers" */
            if ((int64_t)json_array_size(nl) < n_layer) {
                st = FAIL(r, POSENC_ERR_FORMAT, name, "%s has %zu entries for %lld layers", name,
                          json_array_size(nl), (long long)n_layer);
                break;
            }
            for (int64_t i = 0; i < n_layer; i++) {
                const json_t *e = json_array_get(nl, (size_t)i);
                if (!json_is_integer(e) && !json_is_boolean(e)) {
                    st = FAIL(r, POSENC_ERR_FORMAT, name, "%s[%lld] must be 0 or 1, got %s",
                              name, (long long)i, posenc__cfg_type_word(e));
                    break;
                }
                int use = json_is_integer(e) ? json_integer_value(e) != 0 : json_is_true(e);
                kind[i] = !use;
            }
        } else {
            int64_t every = f->no_rope_interval;
            int present;
            if ((st = count(r, "no_rope_layer_interval", &every, &present)) != POSENC_OK)
                break;
            if (every == 0) {
                st = FAIL(r, POSENC_ERR_RANGE, kn(r, "no_rope_layer_interval", name, sizeof name),
                          "%s must be at least 1", name);
                break;
            }
            for (int64_t i = 0; i < n_layer; i++)
                kind[i] = (i + 1) % every == 0;
        }
        if (st != POSENC_OK)
            break;
        int gi[2] = {-1, -1};
        for (int64_t i = 0; i < n_layer && st == POSENC_OK; i++) {
            int t = kind[i];
            if (gi[t] < 0) {
                gi[t] = add_group(m, t ? POSENC_SCHEME_NONE : POSENC_SCHEME_ROPE, "");
                if (!t)
                    st = rope_group(r, &m->group[gi[t]], &cm, cm.base, single, rp != NULL, bname);
                else if (f->qscale == POSENC_QSCALE_TEMPERATURE) {
                    /* attn_temperature_tuning (any nonzero value: on) */
                    const json_t *tt = json_object_get(r->cfg, "attn_temperature_tuning");
                    int on = !tt || json_is_true(tt) ||
                             (json_is_number(tt) && json_number_value(tt) != 0);
                    if (tt && !json_is_null(tt) && !json_is_boolean(tt) && !json_is_number(tt)) {
                        st = FAIL(r, POSENC_ERR_FORMAT,
                                  kn(r, "attn_temperature_tuning", name, sizeof name),
                                  "%s must be true or false, got %s", name,
                                  posenc__cfg_type_word(tt));
                        break;
                    }
                    if (tt && json_is_null(tt))
                        on = 0;
                    posenc_query_scale *q = &m->group[gi[t]].qscale;
                    int present;
                    q->floor_scale = 8192.0;
                    q->attn_scale = 0.1;
                    if ((st = num(r, "floor_scale", &q->floor_scale, &present)) != POSENC_OK ||
                        (st = num(r, "attn_scale", &q->attn_scale, &present)) != POSENC_OK)
                        break;
                    if (!(isfinite(q->floor_scale) && q->floor_scale > 0)) {
                        st = FAIL(r, POSENC_ERR_RANGE, kn(r, "floor_scale", name, sizeof name),
                                  "%s must be finite and > 0", name);
                        break;
                    }
                    if (!isfinite(q->attn_scale)) {
                        st = FAIL(r, POSENC_ERR_RANGE, kn(r, "attn_scale", name, sizeof name),
                                  "%s must be finite", name);
                        break;
                    }
                    q->type = on ? POSENC_QSCALE_TEMPERATURE : POSENC_QSCALE_NONE;
                }
            }
            m->layer_group[i] = (uint8_t)gi[t];
        }
        break;
    }
    default:
        add_group(m, POSENC_SCHEME_ROPE, "");
        st = rope_group(r, &m->group[0], &cm, cm.base, single, rp != NULL, bname);
        break;
    }
    free(kind);
    return st;
}

/* ---- which family, which part ----------------------------------------------------- */

static const char *const PARTS[] = {"text_config", "llm_config", "language_config", NULL};

/* The registry's model types, comma-separated, for the unknown-type message. */
static void known_list(char *buf, size_t n)
{
    const posenc_model_family *t;
    size_t cnt = posenc_model_families(&t), used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < cnt && used < n; i++) {
        int w = snprintf(buf + used, n - used, "%s%s", i ? ", " : "", t[i].model_type);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* The family the architectures[] entries name, when they agree on one. */
static posenc_status by_architectures(mread *r, const json_t *root,
                                      const posenc_model_family **out)
{
    const json_t *a = get(root, "architectures");
    *out = NULL;
    if (!a)
        return POSENC_OK;
    if (!json_is_array(a))
        return FAIL(r, POSENC_ERR_FORMAT, "architectures",
                    "architectures must be an array of class names, got %s",
                    posenc__cfg_type_word(a));
    for (size_t i = 0; i < json_array_size(a); i++) {
        const json_t *e = json_array_get(a, i);
        const posenc_model_family *f =
            json_is_string(e) ? posenc_model_family_by_arch(json_string_value(e)) : NULL;
        if (!f)
            return FAIL(r, POSENC_ERR_FORMAT, "architectures",
                        "no model_type, and architectures[%zu] does not name a family posenc "
                        "knows: give --model-type TYPE",
                        i);
        if (*out && *out != f)
            return FAIL(r, POSENC_ERR_FORMAT, "architectures",
                        "no model_type, and architectures names two families (%s, %s): give "
                        "--model-type TYPE",
                        (*out)->model_type, f->model_type);
        *out = f;
    }
    return POSENC_OK;
}

static posenc_status unknown_type(mread *r, const char *key, const char *type)
{
    char list[1024];
    known_list(list, sizeof list);
    return FAIL(r, POSENC_ERR_FORMAT, key,
                "%s '%.60s' is not in posenc's model registry (known: %s); give --model-type "
                "TYPE to read it as a known family",
                key, type, list);
}

static posenc_status read_family(mread *r, int64_t n_layer);

static posenc_status read_model(mread *r, const json_t *root, const char *override)
{
    if (!json_is_object(root))
        return FAIL(r, POSENC_ERR_FORMAT, "", "a config.json must be a JSON object, got %s",
                    posenc__cfg_type_word(root));
    const posenc_model_family *f = NULL;
    const char *key = "model_type";
    const json_t *mt = json_object_get(root, "model_type");
    if (mt && !json_is_null(mt) && !json_is_string(mt))
        return FAIL(r, POSENC_ERR_FORMAT, "model_type", "model_type must be a string, got %s",
                    posenc__cfg_type_word(mt));
    const char *type = override ? override : (mt && json_is_string(mt) ? json_string_value(mt) : NULL);
    r->cfg = root;
    if (override)
        key = "--model-type";
    if (type) {
        f = posenc_model_family_find(type);
        if (!f && !override) {
            /* an unknown wrapper whose language part is a known family */
            for (int i = 0; PARTS[i]; i++) {
                const json_t *p = get(root, PARTS[i]);
                const json_t *pt = p && json_is_object(p) ? get(p, "model_type") : NULL;
                if (pt && json_is_string(pt) && posenc_model_family_find(json_string_value(pt))) {
                    r->cfg = p;
                    snprintf(r->prefix, sizeof r->prefix, "%s.", PARTS[i]);
                    snprintf(r->m->part, sizeof r->m->part, "%s", PARTS[i]);
                    f = posenc_model_family_find(json_string_value(pt));
                    break;
                }
            }
        }
        if (!f)
            return unknown_type(r, key, type);
    } else {
        posenc_status st = by_architectures(r, root, &f);
        if (st != POSENC_OK)
            return st;
        if (!f)
            return FAIL(r, POSENC_ERR_FORMAT, "model_type",
                        "missing key model_type (and no architectures entry to tell the family): "
                        "give --model-type TYPE");
    }
    if (f->nested && !r->m->part[0]) {
        const json_t *p = get(root, f->nested);
        if (!p || !json_is_object(p))
            return FAIL(r, POSENC_ERR_FORMAT, f->nested,
                        "missing key %s: model_type %s keeps its language model there",
                        f->nested, f->model_type);
        r->cfg = p;
        snprintf(r->prefix, sizeof r->prefix, "%s.", f->nested);
        snprintf(r->m->part, sizeof r->m->part, "%s", f->nested);
        const json_t *pt = json_object_get(p, "model_type");
        char name[96];
        kn(r, "model_type", name, sizeof name);
        if (pt && !json_is_null(pt) && !json_is_string(pt))
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be a string, got %s", name,
                        posenc__cfg_type_word(pt));
        const char *inner = pt && json_is_string(pt) ? json_string_value(pt) : f->nested_type;
        const posenc_model_family *g = posenc_model_family_find(inner);
        if (!g)
            return unknown_type(r, name, inner);
        f = g;
    }
    if (f->nested)
        return FAIL(r, POSENC_ERR_FORMAT, r->prefix[0] ? "model_type" : key,
                    "model_type %s is a wrapper, but its part is itself a wrapper", f->model_type);
    if (f->refused)
        return FAIL(r, POSENC_ERR_FORMAT, r->m->part[0] ? r->prefix : "model_type",
                    "model_type %s is not supported yet: %s", f->model_type, f->refused);
    r->fam = f;
    r->m->family = f;
    snprintf(r->m->model_type, sizeof r->m->model_type, "%s", f->model_type);

    posenc_status st = refuse_foreign(r);
    if (st != POSENC_OK)
        return st;
    int64_t n_layer = 0;
    if (f->layers != POSENC_LAYERS_ENC_DEC) {
        const char *which;
        if ((st = need_count(r, LAYER_KEYS, f->default_layers, &n_layer, &which)) != POSENC_OK)
            return st;
        if (n_layer < 1 || n_layer > POSENC_MODEL_MAX_LAYERS) {
            char name[96];
            return FAIL(r, POSENC_ERR_RANGE, kn(r, which, name, sizeof name),
                        "%s %lld is outside 1..%u", name, (long long)n_layer,
                        POSENC_MODEL_MAX_LAYERS);
        }
        r->m->n_layer = (uint32_t)n_layer;
    }
    note_ignored_common(r);
    if ((st = read_family(r, n_layer)) != POSENC_OK)
        return st;
    finish_scheme(r->m);
    return POSENC_OK;
}

/* ---- the families with their own reading ----------------------------------------- */

static posenc_status read_family(mread *r, int64_t n_layer)
{
    switch (r->fam->scheme) {
    case POSENC_SCHEME_ROPE:
    case POSENC_SCHEME_MIXED: return read_rope_family(r, n_layer);
    default: break;
    }
    return FAIL(r, POSENC_ERR_FORMAT, "model_type", "model_type %s: no reader", r->fam->model_type);
}

/* ---- entry points ------------------------------------------------------------------ */

posenc_status posenc_model_from_config_text(const char *json, size_t len,
                                            const char *model_type, posenc_model *out,
                                            posenc_config_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
    if (!json || !out)
        return POSENC_ERR_NULL;
    mread *r = calloc(1, sizeof *r);
    posenc_model *m = calloc(1, sizeof *m);
    if (!r || !m) {
        reader rd = {err, ""};
        free(r);
        free(m);
        return posenc__cfg_fail(&rd, POSENC_ERR_NOMEM, "", "out of memory");
    }
    r->rd.err = err;
    r->rd.block = "";
    r->m = m;
    json_error_t jerr;
    json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
    posenc_status st;
    if (!root) {
        if (err) {
            err->line = jerr.line;
            err->column = jerr.column;
        }
        st = FAIL(r, POSENC_ERR_FORMAT, "", "invalid JSON at line %d, column %d: %s", jerr.line,
                  jerr.column, jerr.text);
    } else {
        st = read_model(r, root, model_type);
        json_decref(root);
    }
    if (st == POSENC_OK)
        *out = *m;
    free(m);
    free(r);
    return st;
}

posenc_status posenc_model_from_config(const char *path, const char *model_type,
                                       posenc_model *out, posenc_config_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
    if (!path || !out)
        return POSENC_ERR_NULL;
    reader rd = {err, ""};
    char *buf;
    size_t n;
    posenc_status st = posenc__cfg_slurp(&rd, path, &buf, &n);
    if (st == POSENC_OK)
        st = posenc_model_from_config_text(buf, n, model_type, out, err);
    free(buf);
    return st;
}
