/* config_model.c - a model from its config.json, through the registry
 * (src/models.c): which family, which part of the config, and for every
 * layer the position scheme its family's code applies.
 *
 * Part of the optional config library (needs jansson, like src/config.c,
 * whose RoPE block reader it shares through config_internal.h). Families are
 * read by their registry entry's rules; the few that need more (ChatGLM's
 * rope_ratio, Qwen 1's dynamic NTK and log-n, the absolute and relative
 * schemes) have a function each below. Every refusal names its key.
 *
 * Two facts the checks below lean on: jansson refuses a number that
 * overflows a double ("real number overflow"), so every number read from the
 * JSON is finite and only values computed from them (a base times rope_ratio)
 * are tested with isfinite; and where a value was just found non-NULL its
 * type is read with json_typeof, not the json_is_* macros, whose NULL test
 * could not fail there. */
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
    const char *json; /* the text, for a bare RoPE config */
    size_t len;
    const json_t *root;
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
    return v && json_typeof(v) != JSON_NULL ? v : NULL;
}

/* json_is_number without its two tests for NULL. */
static int is_number(const json_t *v)
{
    return v && (json_typeof(v) == JSON_INTEGER || json_typeof(v) == JSON_REAL);
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

/* The first of keys (NULL-terminated) that is present, as a count in *out
 * (*which: the key); *out is left alone when none is. */
static posenc_status count_of(mread *r, const char *const *keys, int64_t *out,
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
}

/* count_of, else def when def > 0, else a missing-key error naming keys[0]. */
static posenc_status need_count(mread *r, const char *const *keys, int64_t def, int64_t *out,
                                const char **which)
{
    *out = -1;
    posenc_status st = count_of(r, keys, out, which);
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

static const char *const LAYER_KEYS[] = {"num_hidden_layers", "n_layer", "num_layers", "n_layers",
                                         NULL};
static const char *const HIDDEN_KEYS[] = {"hidden_size", "n_embd", "n_embed", "d_model", "dim",
                                          NULL};
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
        {"llama_4_scaling_beta", "-", "a query scaling ministral3 reads from rope_parameters"},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const json_t *v = get(r->cfg, keys[i].key);
        if (!v || json_typeof(v) == JSON_FALSE)
            continue;
        if (r->fam->layers == POSENC_LAYERS_NO_ROPE && strcmp(keys[i].key, "no_rope_layers") == 0)
            continue;
        if (r->fam->layers == POSENC_LAYERS_BY_TYPE && r->fam->local_base_key &&
            strcmp(keys[i].key, r->fam->local_base_key) == 0)
            continue;
        if (strcmp(r->fam->model_type, keys[i].family) == 0)
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
    posenc_layout layout; /* the family's, or rope_interleave's */
} rope_common;

/* Llama 3 with low_freq_factor == high_freq_factor: Hugging Face's clean step
 * (modeling_rope_utils.py _compute_llama3_parameters: where(wl > low_wl,
 * inv / factor, inv); the blend is empty), as per-pair factors. */
static posenc_status llama3_step(posenc_model_group *g)
{
    posenc_rope_config *c = &g->rope;
    posenc_rope_scaling *s = &c->scaling;
    double L = s->original_max_position_embeddings, lf = s->low_freq_factor, factor = s->factor;
    posenc_status st = posenc_rope_scaling_init(s, POSENC_ROPE_DEFAULT);
    for (uint32_t k = 0; st == POSENC_OK && k < c->rotary_dim / 2; k++) {
        double f0 = 0.0;
        st = posenc_inv_freq(k, c->rotary_dim, c->base, &f0);
        c->freq_factors[k] = 2.0 * 3.14159265358979323846 / f0 > L / lf ? factor : 1.0;
    }
    s->n_freq_factors = c->rotary_dim / 2;
    g->llama3_step = 1;
    return st;
}

/* Out of memory copying or changing the block: the copy is dropped (a
 * change that failed must not leave the block half rewritten). */
static posenc_status copy_failed(mread *r, json_t **own)
{
    json_decref(*own);
    *own = NULL;
    return FAIL(r, POSENC_ERR_NOMEM, "", "out of memory");
}

/* What some families' code does to their RoPE block before the shared
 * reader sees it: Phi-3 reads "yarn" and "su" as longrope; Ministral 3 keeps
 * its query scaling (llama_4_scaling_beta, with original_max_position_embeddings)
 * in rope_parameters. *own: a modified copy, or NULL when blk is used as is. */
static posenc_status prepare_block(mread *r, posenc_model_group *g, const json_t *blk,
                                   const char *name, json_t **own)
{
    char key[128];
    *own = NULL;
    if (r->fam->flags & POSENC_FAMILY_YARN_IS_LONGROPE) {
        static const char *const tk[] = {"rope_type", "type"};
        for (int i = 0; i < 2; i++) {
            const json_t *t = json_object_get(blk, tk[i]);
            const char *v = t && json_typeof(t) == JSON_STRING ? json_string_value(t) : "";
            if (strcmp(v, "yarn") == 0 || strcmp(v, "su") == 0) {
                if ((!*own && !(*own = json_deep_copy(blk))) ||
                    json_object_set_new(*own, tk[i], json_string("longrope")) != 0)
                    return copy_failed(r, own);
            }
        }
    }
    if (r->fam->flags & POSENC_FAMILY_MSCALE_PAIR) {
        /* PhimoeRotaryEmbedding: cos and sin times long_mscale past the
         * original length, else short_mscale, instead of the attention factor */
        const json_t *sm = json_object_get(blk, "short_mscale"),
                     *lm = json_object_get(blk, "long_mscale");
        if (sm || lm) {
            snprintf(key, sizeof key, "%s.%s", name, sm ? "short_mscale" : "long_mscale");
            if (!is_number(sm) || !is_number(lm) ||
                json_number_value(sm) != json_number_value(lm))
                return FAIL(r, POSENC_ERR_FORMAT, key,
                            "%s: short_mscale and long_mscale must both be numbers and equal: "
                            "a factor that switches with the length is not implemented",
                            key);
            if (get(blk, "attention_factor"))
                return FAIL(r, POSENC_ERR_FORMAT, key,
                            "%s and attention_factor both set the factor on cos and sin", key);
            if (!(*own = json_deep_copy(blk)) ||
                json_object_set_new(*own, "attention_factor", json_real(json_number_value(sm))) !=
                    0)
                return copy_failed(r, own);
            json_object_del(*own, "short_mscale");
            json_object_del(*own, "long_mscale");
        }
    }
    if (r->fam->flags & POSENC_FAMILY_MROPE) {
        /* M-RoPE: mrope_section [t, h, w] (pairs) and mrope_interleaved are
         * the multimodal rotary embedding's, not a scaling's; type "mrope"
         * (Qwen2-VL's configs) is the default frequencies */
        const json_t *sec = json_object_get(blk, "mrope_section");
        const json_t *il = json_object_get(blk, "mrope_interleaved");
        snprintf(key, sizeof key, "%s.mrope_section", name);
        if (!sec)
            return FAIL(r, POSENC_ERR_FORMAT, key,
                        "missing key %s: family %s splits the rotary pairs between the "
                        "temporal, height and width positions by it",
                        key, r->fam->model_type);
        if (!json_is_array(sec) || json_array_size(sec) != 3)
            return FAIL(r, POSENC_ERR_FORMAT, key,
                        "%s must be a list of three pair counts [t, h, w]", key);
        for (size_t i = 0; i < 3; i++) {
            const json_t *v = json_array_get(sec, i);
            if (!json_is_integer(v) || json_integer_value(v) < 0 ||
                json_integer_value(v) > (json_int_t)(POSENC_ROPE_MAX_HEAD_DIM / 2))
                return FAIL(r, POSENC_ERR_FORMAT, key,
                            "%s must be a list of three pair counts [t, h, w], each 0 to %u",
                            key, POSENC_ROPE_MAX_HEAD_DIM / 2);
            g->mrope_section[i] = (uint32_t)json_integer_value(v);
        }
        snprintf(key, sizeof key, "%s.mrope_interleaved", name);
        if (il && !json_is_boolean(il))
            return FAIL(r, POSENC_ERR_FORMAT, key, "%s must be true or false, got %s", key,
                        posenc__cfg_type_word(il));
        g->mrope = 1;
        g->mrope_rule = il && json_is_true(il) ? POSENC_MROPE_INTERLEAVED
                                               : POSENC_MROPE_CONTIGUOUS;
        /* the vision tower's merge size and Qwen2.5-VL's tokens_per_second,
         * for the position ids (get_rope_index reads them from vision_config) */
        g->mrope_merge = 2;
        const json_t *vc = r->root ? json_object_get(r->root, "vision_config") : NULL;
        static const char *const vk[2] = {"spatial_merge_size", "tokens_per_second"};
        for (int i = 0; vc && json_is_object(vc) && i < 2; i++) {
            const json_t *v = json_object_get(vc, vk[i]);
            if (!v)
                continue;
            snprintf(key, sizeof key, "vision_config.%s", vk[i]);
            if (!json_is_integer(v) || json_integer_value(v) < (i == 0 ? 1 : 0) ||
                json_integer_value(v) > (i == 0 ? 64 : 1000000))
                return FAIL(r, POSENC_ERR_FORMAT, key, "%s must be an integer from %d to %d",
                            key, i == 0 ? 1 : 0, i == 0 ? 64 : 1000000);
            *(i == 0 ? &g->mrope_merge : &g->mrope_tokens_per_second) =
                (uint32_t)json_integer_value(v);
        }
        if (!(*own = json_deep_copy(blk)))
            return FAIL(r, POSENC_ERR_NOMEM, "", "out of memory");
        json_object_del(*own, "mrope_section");
        json_object_del(*own, "mrope_interleaved");
        static const char *const tk[] = {"rope_type", "type"};
        for (int i = 0; i < 2; i++) {
            const json_t *t = json_object_get(*own, tk[i]);
            if (t && json_is_string(t) && strcmp(json_string_value(t), "mrope") == 0)
                json_object_set_new(*own, tk[i], json_string("default"));
        }
        return POSENC_OK;
    }
    const json_t *beta = json_object_get(blk, "llama_4_scaling_beta");
    if (beta && r->fam->qscale == POSENC_QSCALE_BETA) {
        snprintf(key, sizeof key, "%s.llama_4_scaling_beta", name);
        if (!is_number(beta)) {
            json_decref(*own);
            *own = NULL;
            return FAIL(r, POSENC_ERR_FORMAT, key, "%s must be a number, got %s", key,
                        posenc__cfg_type_word(beta));
        }
        const json_t *orig = json_object_get(blk, "original_max_position_embeddings");
        snprintf(key, sizeof key, "%s.original_max_position_embeddings", name);
        if (!(json_number_value(orig) > 0)) { /* 0 when absent or not a number */
            json_decref(*own);
            *own = NULL;
            return FAIL(r, POSENC_ERR_FORMAT, key,
                        "%s must be a number > 0: llama_4_scaling_beta scales queries by steps of "
                        "that many tokens",
                        key);
        }
        g->qscale.type = POSENC_QSCALE_BETA;
        g->qscale.beta = json_number_value(beta);
        g->qscale.original = json_number_value(orig);
        if (!*own && !(*own = json_deep_copy(blk)))
            return copy_failed(r, own);
        json_object_del(*own, "llama_4_scaling_beta");
        const json_t *t = json_object_get(*own, "rope_type");
        if (!t)
            t = json_object_get(*own, "type");
        if (!t || strcmp(json_string_value(t) ? json_string_value(t) : "", "default") == 0)
            json_object_del(*own, "original_max_position_embeddings");
    }
    return POSENC_OK;
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
    c->layout = cm->layout;
    c->max_position_embeddings = cm->maxpos;
    /* a known type: cannot fail (st is set again before it is read) */
    posenc_status st = posenc_rope_scaling_init(&c->scaling, POSENC_ROPE_DEFAULT);
    snprintf(r->block[r->n_block], sizeof r->block[0], "%s", name);
    r->rd.block = r->block[r->n_block++];
    if (!blk && (r->fam->flags & POSENC_FAMILY_MROPE))
        return FAIL(r, POSENC_ERR_FORMAT, name,
                    "missing key %s (with mrope_section): family %s splits the rotary pairs "
                    "between the temporal, height and width positions by it",
                    name, r->fam->model_type);
    if (blk) {
        if (json_typeof(blk) != JSON_OBJECT)
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be an object or null, got %s", name,
                        posenc__cfg_type_word(blk));
        json_t *own = NULL;
        if ((st = prepare_block(r, g, blk, name, &own)) != POSENC_OK)
            return st;
        st = posenc__cfg_scaling(&r->rd, own ? own : blk, is_params, cm->maxpos, cm->have_maxpos,
                                 cm->top_orig, cm->have_top_orig, c);
        json_decref(own);
        if (st != POSENC_OK)
            return st;
        posenc_mrope mr;
        if (g->mrope && posenc_mrope_init(&mr, c->rotary_dim / 2, g->mrope_section,
                                          g->mrope_rule) != POSENC_OK) {
            char key[128];
            snprintf(key, sizeof key, "%s.mrope_section", name);
            return FAIL(r, POSENC_ERR_RANGE, key,
                        "%s [%u, %u, %u] does not split the %u rotary pairs%s", key,
                        g->mrope_section[0], g->mrope_section[1], g->mrope_section[2],
                        c->rotary_dim / 2,
                        g->mrope_rule == POSENC_MROPE_INTERLEAVED
                            ? " under the interleaved rule"
                            : " (the three must add up to rotary_dim / 2)");
        }
        /* MiniCPM builds its cache for max_position_embeddings first: long
         * factors from the start when that exceeds the original length */
        posenc_rope_scaling *s = &c->scaling;
        if ((r->fam->flags & POSENC_FAMILY_LONG_FROM_MAXPOS) && s->type == POSENC_ROPE_LONGROPE) {
            /* MiniCPMLongRoPE: scale = max_position_embeddings / original and
             * sqrt(1 + ln scale / ln original) on cos and sin; it reads no
             * factor or attention_factor */
            char key[128];
            static const char *const unread[] = {"factor", "attention_factor"};
            for (int i = 0; i < 2; i++)
                if (get(blk, unread[i])) {
                    snprintf(key, sizeof key, "%s.%s", name, unread[i]);
                    return FAIL(r, POSENC_ERR_FORMAT, key,
                                "%s: MiniCPM's longrope takes its scale from "
                                "max_position_embeddings / original_max_position_embeddings "
                                "and does not read this key",
                                key);
                }
            if (cm->have_maxpos && (double)cm->maxpos > s->original_max_position_embeddings)
                memcpy(c->short_factor, c->long_factor, s->n_long_factor * sizeof(double));
        }
    }
    g->configured = c->scaling;
    g->configured.short_factor = g->configured.long_factor = g->configured.freq_factors = NULL;
    if (c->scaling.type == POSENC_ROPE_LLAMA3 &&
        c->scaling.low_freq_factor == c->scaling.high_freq_factor &&
        c->scaling.low_freq_factor > 0 && c->scaling.original_max_position_embeddings >= 1 &&
        c->scaling.factor >= 1)
        /* cannot fail: every caller passes a base > 1 and an even rotary_dim
         * in 2..head_dim, which posenc_inv_freq accepts */
        (void)llama3_step(g);
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
        kn(r, "rotary_dim", name, sizeof name);
        /* rotary_dim None: GPT-J's code builds its table over the whole
         * embedding (embed_dim, not head_dim), a quirk posenc does not follow */
        if (!present)
            return FAIL(r, POSENC_ERR_FORMAT, name,
                        "missing key %s: without it GPT-J's code computes frequencies over the "
                        "hidden size, which posenc does not implement",
                        name);
        break;
    case POSENC_ROTARY_QK_ROPE: cm->rotary = cm->head_dim; break;
    }
    if (f->rotary == POSENC_ROTARY_HALF_HEAD || f->rotary == POSENC_ROTARY_QK_ROPE)
        kn(r, f->rotary == POSENC_ROTARY_QK_ROPE ? "qk_rope_head_dim" : "kv_channels", name,
           sizeof name);
    if (cm->rotary < 2 || cm->rotary % 2 || cm->rotary > cm->head_dim)
        return FAIL(r, POSENC_ERR_RANGE, name,
                    "the rotary dimension comes out %lld for head size %lld; it must be even, at "
                    "least 2 and at most the head size",
                    (long long)cm->rotary, (long long)cm->head_dim);

    /* The base: rope_parameters.rope_theta, the family's key, legacy names. */
    int have = 0;
    cm->base = f->base_default;
    cm->base_name = f->base_key ? f->base_key : "rope_theta";
    static const char *const legacy_base[] = {"rope_theta", "rotary_emb_base", NULL};
    if (!f->base_key) {
        /* a base fixed in the family's code: such keys are not read by it */
        note_ignored(r, "rope_theta");
        note_ignored(r, "rotary_emb_base");
        have = 1;
    }
    if (!have && rp_single &&
        (st = posenc__cfg_number(&r->rd, rp_single, "rope_theta",
                                 kn(r, "rope_parameters.rope_theta", name, sizeof name),
                                 &cm->base, &have)) != POSENC_OK)
        return st;
    if (have && f->base_key)
        cm->base_name = "rope_parameters.rope_theta";
    if (!have && (st = num(r, f->base_key, &cm->base, &have)) != POSENC_OK)
        return st;
    for (int i = 0; !have && legacy_base[i]; i++) {
        if ((st = num(r, legacy_base[i], &cm->base, &have)) != POSENC_OK)
            return st;
        if (have)
            cm->base_name = legacy_base[i];
    }
    if (!have && f->base_default == 0.0)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, f->base_key, name, sizeof name),
                    "missing key %s (family %s: no default posenc can vouch for)", name,
                    f->model_type);
    if (f->base_ratio_key) {
        double ratio = 1.0;
        if ((st = num(r, f->base_ratio_key, &ratio, &have)) != POSENC_OK)
            return st;
        if (!(ratio > 0))
            return FAIL(r, POSENC_ERR_RANGE, kn(r, f->base_ratio_key, name, sizeof name),
                        "%s must be finite and > 0, got %g", name, ratio);
        cm->base *= ratio;
    }
    if (!(isfinite(cm->base) && cm->base > 1.0))
        return FAIL(r, POSENC_ERR_BASE, kn(r, cm->base_name, name, sizeof name),
                    "%s must be finite and > 1, got %g", name, cm->base);

    cm->layout = f->layout;
    if (f->flags & POSENC_FAMILY_INTERLEAVE_KEY) {
        int il = 1;
        if ((st = posenc__cfg_bool(&r->rd, r->cfg, "rope_interleave",
                                   kn(r, "rope_interleave", name, sizeof name), &il, &have)) !=
            POSENC_OK)
            return st;
        cm->layout = il ? POSENC_LAYOUT_INTERLEAVED : POSENC_LAYOUT_HALF;
    } else if (get(r->cfg, "rope_interleave")) {
        note_ignored(r, "rope_interleave");
    }
    const char *mk = NULL;
    if ((st = count_of(r, MAXPOS_KEYS, &cm->maxpos, &mk)) != POSENC_OK)
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
        if (json_typeof(lt) != JSON_ARRAY)
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be an array of strings, got %s",
                        name, posenc__cfg_type_word(lt));
        if ((int64_t)json_array_size(lt) != n_layer)
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s has %zu entries for %lld layers", name,
                        json_array_size(lt), (long long)n_layer);
        for (int64_t i = 0; i < n_layer; i++) {
            const json_t *e = json_array_get(lt, (size_t)i);
            const char *s = json_typeof(e) == JSON_STRING ? json_string_value(e) : NULL;
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
    if (!present && pattern == 0)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "layer_types", name, sizeof name),
                    "missing key %s (family %s has no default layer pattern posenc can vouch "
                    "for)",
                    name, f->model_type);
    for (int64_t i = 0; i < n_layer; i++)
        kind[i] = pattern > 0 && (i + 1) % pattern != 0;
    return POSENC_OK;
}

/* Qwen 1: use_logn_attn (queries scaled by log(pos + 1) / log(seq_length)
 * past seq_length) and use_dynamic_ntk (its own NTK alpha) on every layer. */
static posenc_status read_qwen(mread *r)
{
    char name[96];
    int logn = 0, ntk = 0, p1, p2, ps;
    posenc_status st;
    if ((st = posenc__cfg_bool(&r->rd, r->cfg, "use_logn_attn",
                               kn(r, "use_logn_attn", name, sizeof name), &logn, &p1)) !=
            POSENC_OK ||
        (st = posenc__cfg_bool(&r->rd, r->cfg, "use_dynamic_ntk",
                               kn(r, "use_dynamic_ntk", name, sizeof name), &ntk, &p2)) !=
            POSENC_OK)
        return st;
    int64_t S = 0;
    if ((st = count(r, "seq_length", &S, &ps)) != POSENC_OK)
        return st;
    double expansion = 1.0;
    int pe;
    if ((st = num(r, "seq_length_expansion", &expansion, &pe)) != POSENC_OK)
        return st;
    if (expansion != 1.0)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "seq_length_expansion", name, sizeof name),
                    "%s (positions divided by it in later Qwen releases) is not implemented",
                    name);
    /* QWenConfig's defaults for these two were not verified: required */
    if (!p1 || !p2)
        return FAIL(r, POSENC_ERR_FORMAT,
                    kn(r, !p1 ? "use_logn_attn" : "use_dynamic_ntk", name, sizeof name),
                    "missing key %s (family qwen: no default posenc can vouch for)", name);
    if ((logn || ntk) && (!ps || S < 2))
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "seq_length", name, sizeof name),
                    "%s (at least 2) is needed: use_logn_attn and use_dynamic_ntk scale against "
                    "it",
                    name);
    for (uint32_t i = 0; i < r->m->n_group; i++) {
        posenc_model_group *g = &r->m->group[i];
        if (logn) {
            g->qscale.type = POSENC_QSCALE_LOGN;
            g->qscale.seq_length = (double)S;
        }
        if (ntk) {
            if (g->rope.scaling.type != POSENC_ROPE_DEFAULT)
                return FAIL(r, POSENC_ERR_FORMAT, kn(r, "use_dynamic_ntk", name, sizeof name),
                            "%s and a rope_scaling both change the frequencies: which applies is "
                            "ambiguous",
                            name);
            if (g->rope.rotary_dim < 4)
                return FAIL(r, POSENC_ERR_RANGE, kn(r, "use_dynamic_ntk", name, sizeof name),
                            "%s needs a rotary dimension of at least 4", name);
            g->qwen_dynamic_ntk = 1;
            g->qwen_seq_length = (double)S;
        }
    }
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
    const json_t *same = NULL; /* per-type sets that are all equal: one set */
    if (rp && json_typeof(rp) == JSON_OBJECT) {
        const char *k;
        const json_t *v;
        json_object_foreach((json_t *)rp, k, v) {
            if (json_typeof(v) == JSON_OBJECT)
                per_type = 1;
        }
        int all_equal = 1;
        json_object_foreach((json_t *)rp, k, v) {
            if (!per_type)
                break;
            snprintf(bname, sizeof bname, "%srope_parameters.%s", r->prefix, k);
            if (json_typeof(v) != JSON_OBJECT ||
                (strcmp(k, "full_attention") != 0 && strcmp(k, "sliding_attention") != 0))
                return FAIL(r, POSENC_ERR_FORMAT, bname,
                            "%s: '%.40s' is not a layer type with its own RoPE parameters "
                            "(rope_parameters holds one set, or one per full_attention / "
                            "sliding_attention layer type)",
                            bname, k);
            if (same && !json_equal((json_t *)same, (json_t *)v))
                all_equal = 0;
            same = v;
        }
        if (per_type && f->layers != POSENC_LAYERS_BY_TYPE) {
            /* a family whose layers all rotate alike: the sets must agree */
            if (!all_equal)
                return FAIL(r, POSENC_ERR_FORMAT, bname,
                            "%s: family %s applies one RoPE to every layer, but rope_parameters "
                            "gives different sets per layer type",
                            bname, f->model_type);
            rp = same;
            per_type = 0;
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
        /* EXAONE 4: "if self.sliding_window is None or self.is_sliding" rotates
         * (an absent key is the class default 4096, not None) */
        const json_t *sw = json_object_get(r->cfg, "sliding_window");
        int all_rope =
            (f->flags & POSENC_FAMILY_ROPE_WITHOUT_WINDOW) && sw && json_typeof(sw) == JSON_NULL;
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
                        if (!(base > 1.0)) {
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
                                if (!(b2 > 1.0)) {
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
        note_ignored(r, "layer_types"); /* masks only */
        note_ignored(r, "nope_layer_interval"); /* the code reads no_rope_layer_interval */
        const json_t *nl = get(r->cfg, "no_rope_layers");
        kn(r, "no_rope_layers", name, sizeof name);
        if (nl && json_typeof(nl) != JSON_ARRAY) {
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
                json_type et = json_typeof(e); /* e: an entry, not NULL */
                if (et != JSON_INTEGER && et != JSON_TRUE && et != JSON_FALSE) {
                    st = FAIL(r, POSENC_ERR_FORMAT, name, "%s[%lld] must be 0 or 1, got %s",
                              name, (long long)i, posenc__cfg_type_word(e));
                    break;
                }
                int use = et == JSON_TRUE || json_integer_value(e) != 0;
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
                    json_type tty = tt ? json_typeof(tt) : JSON_TRUE; /* absent: on */
                    if (tty == JSON_OBJECT || tty == JSON_ARRAY || tty == JSON_STRING) {
                        st = FAIL(r, POSENC_ERR_FORMAT,
                                  kn(r, "attn_temperature_tuning", name, sizeof name),
                                  "%s must be true or false, got %s", name,
                                  posenc__cfg_type_word(tt));
                        break;
                    }
                    /* true, or a nonzero number; null is off */
                    int on = tty == JSON_TRUE || json_number_value(tt) != 0;
                    posenc_query_scale *q = &m->group[gi[t]].qscale;
                    int present;
                    q->floor_scale = 8192.0;
                    q->attn_scale = 0.1;
                    if ((st = num(r, "floor_scale", &q->floor_scale, &present)) != POSENC_OK ||
                        (st = num(r, "attn_scale", &q->attn_scale, &present)) != POSENC_OK)
                        break;
                    if (!(q->floor_scale > 0)) {
                        st = FAIL(r, POSENC_ERR_RANGE, kn(r, "floor_scale", name, sizeof name),
                                  "%s must be finite and > 0", name);
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
        /* every layer alike; layer_types only choose attention masks here */
        note_ignored(r, "layer_types");
        add_group(m, POSENC_SCHEME_ROPE, "");
        st = rope_group(r, &m->group[0], &cm, cm.base, single, rp != NULL, bname);
        break;
    }
    free(kind);
    if (st == POSENC_OK && f->qscale == POSENC_QSCALE_LOGN)
        st = read_qwen(r);
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
    /* (snprintf of plain strings cannot fail) */
    for (size_t i = 0; i < cnt && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", t[i].model_type);
}

/* The family the architectures[] entries name, when they agree on one. */
static posenc_status by_architectures(mread *r, const json_t *root,
                                      const posenc_model_family **out)
{
    const json_t *a = get(root, "architectures");
    *out = NULL;
    if (!a)
        return POSENC_OK;
    if (json_typeof(a) != JSON_ARRAY)
        return FAIL(r, POSENC_ERR_FORMAT, "architectures",
                    "architectures must be an array of class names, got %s",
                    posenc__cfg_type_word(a));
    for (size_t i = 0; i < json_array_size(a); i++) {
        const json_t *e = json_array_get(a, i);
        const posenc_model_family *f =
            json_typeof(e) == JSON_STRING ? posenc_model_family_by_arch(json_string_value(e)) : NULL;
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
    /* a class of the language model (Gemma3ForConditionalGeneration names
     * Gemma 3) in a config that nests it: read through its wrapper */
    const posenc_model_family *t;
    size_t n = posenc_model_families(&t);
    for (size_t i = 0; *out && i < n; i++)
        if (t[i].nested && strcmp(t[i].nested_type, (*out)->model_type) == 0 &&
            json_is_object(get(root, t[i].nested))) {
            *out = &t[i];
            break;
        }
    return POSENC_OK;
}

/* An object member of obj (or a member's member: thinker_config.text_config)
 * whose model_type names a family posenc knows; its dotted path in path. */
static const posenc_model_family *known_part(const json_t *obj, int depth, char *path, size_t n)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)obj, k, v) {
        if (!json_is_object(v))
            continue;
        const json_t *mt = get(v, "model_type");
        const posenc_model_family *f =
            mt && json_is_string(mt) ? posenc_model_family_find(json_string_value(mt)) : NULL;
        char sub[128];
        if (!f && depth > 0 && (f = known_part(v, depth - 1, sub, sizeof sub)) != NULL) {
            snprintf(path, n, "%.60s.%.60s", k, sub);
            return f;
        }
        if (f) {
            snprintf(path, n, "%.100s", k);
            return f;
        }
    }
    return NULL;
}

static posenc_status unknown_type(mread *r, const char *key, const char *type)
{
    char list[1024], part[128];
    known_list(list, sizeof list);
    const posenc_model_family *f =
        json_is_object(r->root) ? known_part(r->root, 1, part, sizeof part) : NULL;
    if (f)
        return FAIL(r, POSENC_ERR_FORMAT, key,
                    "%s '%.60s' is not in posenc's model registry, but its part %s is model_type "
                    "%s, a family posenc knows: read that part as a config.json of its own; or "
                    "give --model-type TYPE to read the whole file as a known family (known: %s)",
                    key, type, part, f->model_type, list);
    return FAIL(r, POSENC_ERR_FORMAT, key,
                "%s '%.60s' is not in posenc's model registry (known: %s); give --model-type "
                "TYPE to read it as a known family",
                key, type, list);
}

static posenc_status read_family(mread *r, int64_t n_layer);

/* A config that names no family (no model_type, no architectures): its RoPE
 * block read as is by posenc_rope_from_config's rules, the same on every
 * layer (num_hidden_layers, else 1). */
static posenc_status read_bare(mread *r, const json_t *root)
{
    posenc_model *m = r->m;
    m->n_layer = 1;
    int64_t n;
    int present;
    posenc_status st = posenc__cfg_count(&r->rd, root, "num_hidden_layers", "num_hidden_layers",
                                         &n, &present);
    if (st != POSENC_OK)
        return st;
    if (present && (n < 1 || n > POSENC_MODEL_MAX_LAYERS))
        return FAIL(r, POSENC_ERR_RANGE, "num_hidden_layers",
                    "num_hidden_layers %lld is outside 1..%u", (long long)n,
                    POSENC_MODEL_MAX_LAYERS);
    if (present)
        m->n_layer = (uint32_t)n;
    add_group(m, POSENC_SCHEME_ROPE, "");
    st = posenc_rope_from_config_text(r->json, r->len, &m->group[0].rope, r->rd.err);
    if (st != POSENC_OK)
        return st;
    m->group[0].configured = m->group[0].rope.scaling;
    m->group[0].configured.short_factor = m->group[0].configured.long_factor =
        m->group[0].configured.freq_factors = NULL;
    m->scheme = POSENC_SCHEME_ROPE;
    return POSENC_OK;
}

static posenc_status read_model(mread *r, const json_t *root, const char *override)
{
    if (json_typeof(root) != JSON_OBJECT)
        return FAIL(r, POSENC_ERR_FORMAT, "", "a config.json must be a JSON object, got %s",
                    posenc__cfg_type_word(root));
    const posenc_model_family *f = NULL;
    const char *key = "model_type";
    const json_t *mt = get(root, "model_type");
    if (mt && json_typeof(mt) != JSON_STRING)
        return FAIL(r, POSENC_ERR_FORMAT, "model_type", "model_type must be a string, got %s",
                    posenc__cfg_type_word(mt));
    const char *type = override ? override : (mt ? json_string_value(mt) : NULL);
    r->cfg = root;
    r->root = root;
    if (override)
        key = "--model-type";
    if (type) {
        f = posenc_model_family_find(type);
        if (!f && !override) {
            /* an unknown wrapper whose language part is a known family */
            for (int i = 0; PARTS[i]; i++) {
                const json_t *p = get(root, PARTS[i]);
                const json_t *pt = p && json_typeof(p) == JSON_OBJECT ? get(p, "model_type") : NULL;
                if (pt && json_typeof(pt) == JSON_STRING &&
                    posenc_model_family_find(json_string_value(pt))) {
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
        if (!f && get(root, "architectures"))
            return FAIL(r, POSENC_ERR_FORMAT, "architectures",
                        "no model_type, and architectures is empty: give --model-type TYPE");
        /* neither: a bare RoPE block, when the config has one; else refused
         * (an old config of an absolute-position model must not be read as RoPE) */
        static const char *const rope_keys[] = {"rope_theta", "rope_scaling", "rope_parameters",
                                                "rotary_emb_base", "rotary_pct",
                                                "partial_rotary_factor", "qk_rope_head_dim",
                                                "head_dim", NULL};
        if (!f) {
            for (int i = 0; rope_keys[i]; i++)
                if (json_object_get(root, rope_keys[i]))
                    return read_bare(r, root);
            return FAIL(r, POSENC_ERR_FORMAT, "model_type",
                        "missing key model_type, and no architectures entry or RoPE key tells "
                        "the family: give --model-type TYPE");
        }
    }
    if (f->nested && !r->m->part[0]) {
        const json_t *p = get(root, f->nested);
        if (!p || json_typeof(p) != JSON_OBJECT)
            return FAIL(r, POSENC_ERR_FORMAT, f->nested,
                        "missing key %s: model_type %s keeps its language model there",
                        f->nested, f->model_type);
        r->cfg = p;
        snprintf(r->prefix, sizeof r->prefix, "%s.", f->nested);
        snprintf(r->m->part, sizeof r->m->part, "%s", f->nested);
        const json_t *pt = get(p, "model_type");
        char name[96];
        kn(r, "model_type", name, sizeof name);
        if (pt && json_typeof(pt) != JSON_STRING)
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be a string, got %s", name,
                        posenc__cfg_type_word(pt));
        const char *inner = pt ? json_string_value(pt) : f->nested_type;
        const posenc_model_family *g = posenc_model_family_find(inner);
        if (!g)
            return unknown_type(r, name, inner);
        f = g;
    }
    if (f->nested)
        return FAIL(r, POSENC_ERR_FORMAT, "model_type",
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

static void note_ignored_name(mread *r, const char *name)
{
    char *s = r->m->ignored;
    size_t n = strlen(s);
    snprintf(s + n, sizeof r->m->ignored - n, "%s%s", n ? " " : "", name);
}

/* One group for every layer. */
static posenc_model_group *one_group(mread *r, posenc_scheme s, int64_t n_layer)
{
    int gi = add_group(r->m, s, "");
    for (int64_t i = 0; i < n_layer; i++)
        r->m->layer_group[i] = (uint8_t)gi;
    return &r->m->group[gi];
}

static posenc_status embed_dim(mread *r, uint32_t *dim);

/* ALiBi on every layer: BLOOM (modeling_bloom.py L54-95), MPT
 * (modeling_mpt.py L42-62, L327: alibi_bias_max 8 whatever attn_config
 * says, attn_config.alibi never read), Falcon with alibi, Baichuan 13B. */
static posenc_status read_alibi(mread *r, int64_t n_layer)
{
    int64_t heads;
    const char *hk;
    posenc_status st = need_count(r, HEADS_KEYS, r->fam->default_heads, &heads, &hk);
    if (st != POSENC_OK)
        return st;
    if (heads < 1 || heads > POSENC_MAX_DIM) {
        char name[96];
        return FAIL(r, POSENC_ERR_DIM, kn(r, hk, name, sizeof name),
                    "%s %lld is outside 1..%u", name, (long long)heads, POSENC_MAX_DIM);
    }
    posenc_model_group *g = one_group(r, POSENC_SCHEME_ALIBI, n_layer);
    g->n_head = (uint32_t)heads;
    g->alibi_bias_max = 8.0;
    g->alibi_slope_scale = 1.0;
    if (strcmp(r->fam->model_type, "falcon") == 0) {
        /* modeling_falcon.py L194: slopes cast to bfloat16; L896-903 (the
         * SDPA path): alibi / sqrt(hidden_size // num_heads) */
        uint32_t dim = 0;
        if ((st = embed_dim(r, &dim)) != POSENC_OK)
            return st;
        if (dim / heads < 1) {
            char name[96];
            return FAIL(r, POSENC_ERR_DIM, kn(r, hk, name, sizeof name),
                        "%s %lld exceeds the hidden size %u", name, (long long)heads, dim);
        }
        g->alibi_bf16 = 1;
        g->alibi_slope_scale = 1.0 / sqrt((double)(dim / heads));
        note_ignored(r, "max_position_embeddings");
    } else if (r->fam->flags & POSENC_FAMILY_ALIBI_KEY) {
        char name[96];
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "alibi", name, sizeof name),
                    "%s true in a %s config: its remote code's ALiBi was not read, posenc does "
                    "not know its slopes (model_type falcon is read as Falcon's code does)",
                    name, r->fam->model_type);
    }
    const json_t *ac = get(r->cfg, "attn_config");
    if (ac && json_typeof(ac) == JSON_OBJECT) {
        if (json_object_get(ac, "alibi_bias_max"))
            note_ignored_name(r, "attn_config.alibi_bias_max");
        if (json_object_get(ac, "alibi"))
            note_ignored_name(r, "attn_config.alibi");
    }
    if (strcmp(r->fam->model_type, "mpt") == 0)
        note_ignored(r, "learned_pos_emb");
    return POSENC_OK;
}

static const char *const POS_KEYS[] = {"max_position_embeddings", "n_positions", NULL};

/* The width of the embedding (hidden_size, n_embd, d_model, dim). */
static posenc_status embed_dim(mread *r, uint32_t *dim)
{
    int64_t v;
    const char *k;
    posenc_status st = need_count(r, HIDDEN_KEYS, r->fam->default_hidden, &v, &k);
    if (st != POSENC_OK)
        return st;
    if (v < 1 || v > POSENC_MAX_DIM) {
        char name[96];
        return FAIL(r, POSENC_ERR_DIM, kn(r, k, name, sizeof name), "%s %lld is outside 1..%u",
                    name, (long long)v, POSENC_MAX_DIM);
    }
    *dim = (uint32_t)v;
    return POSENC_OK;
}

static posenc_status positive(mread *r, const char *key, int64_t v)
{
    char name[96];
    if (v >= 1 && v <= POSENC_MAX_POS + 1)
        return POSENC_OK;
    return FAIL(r, POSENC_ERR_RANGE, kn(r, key, name, sizeof name),
                "%s %lld is outside 1..%lld", name, (long long)v, POSENC_MAX_POS + 1);
}

/* Learned absolute tables (GPT-2, OPT, BERT, RoBERTa, DistilBERT), or
 * DistilBERT's sinusoids. */
static posenc_status read_learned(mread *r, int64_t n_layer)
{
    const posenc_model_family *f = r->fam;
    char name[96];
    posenc_status st;
    const json_t *pet = get(r->cfg, "position_embedding_type");
    if (pet) {
        kn(r, "position_embedding_type", name, sizeof name);
        const char *v = json_string_value(pet); /* NULL: not a string */
        if (!v || strcmp(v, "absolute") != 0)
            return FAIL(r, POSENC_ERR_FORMAT, name,
                        "%s %s%.40s%s is not implemented: relative_key and relative_key_query "
                        "were removed in transformers v5 (PR #41170), whose code posenc "
                        "follows; only absolute is",
                        name, v ? "'" : "", v ? v : posenc__cfg_type_word(pet), v ? "'" : "");
    }
    int64_t positions;
    const char *pk;
    if ((st = need_count(r, POS_KEYS, f->default_positions, &positions, &pk)) != POSENC_OK ||
        (st = positive(r, pk, positions)) != POSENC_OK)
        return st;
    uint32_t dim = 0;
    if ((st = embed_dim(r, &dim)) != POSENC_OK)
        return st;
    int sinus = 0, present;
    if ((st = posenc__cfg_bool(&r->rd, r->cfg, "sinusoidal_pos_embds",
                               kn(r, "sinusoidal_pos_embds", name, sizeof name), &sinus,
                               &present)) != POSENC_OK)
        return st;
    if (sinus && strcmp(f->model_type, "distilbert") != 0) {
        note_ignored(r, "sinusoidal_pos_embds");
        sinus = 0;
    }
    note_ignored(r, "n_ctx"); /* GPT-2's legacy key; the table is n_positions */
    posenc_model_group *g =
        one_group(r, sinus ? POSENC_SCHEME_SINUSOID : POSENC_SCHEME_LEARNED, n_layer);
    g->positions = positions;
    g->dim = dim;
    if (f->pos_offset >= 0) {
        g->offset = f->pos_offset;
    } else {
        /* RoBERTa: padding_idx + 1, padding_idx = pad_token_id (default 1) */
        int64_t pad = 1;
        if ((st = count(r, "pad_token_id", &pad, &present)) != POSENC_OK)
            return st;
        g->offset = pad + 1;
        if (g->offset >= positions)
            return FAIL(r, POSENC_ERR_RANGE, kn(r, "pad_token_id", name, sizeof name),
                        "%s %lld leaves no row of the %lld-row position table for tokens",
                        name, (long long)pad, (long long)positions);
    }
    return POSENC_OK;
}

/* A stack's layer count at key (default def; 0: required). */
static posenc_status stack_layers(mread *r, const char *key, int64_t def, int64_t *out)
{
    const char *const keys[] = {key, NULL};
    posenc_status st = need_count(r, keys, def, out, NULL);
    if (st == POSENC_OK && (*out < 1 || *out > POSENC_MODEL_MAX_LAYERS)) {
        char name[96];
        return FAIL(r, POSENC_ERR_RANGE, kn(r, key, name, sizeof name),
                    "%s %lld is outside 1..%u", name, (long long)*out, POSENC_MODEL_MAX_LAYERS);
    }
    return st;
}

/* Encoder-decoder models: the encoder's layers, then the decoder's. */
static posenc_status read_enc_dec(mread *r)
{
    const posenc_model_family *f = r->fam;
    posenc_model *m = r->m;
    posenc_status st;
    char name[96];
    int64_t ne = 0, nd = 0;
    int present;
    int ge = add_group(m, POSENC_SCHEME_NONE, "encoder");
    int gd = add_group(m, POSENC_SCHEME_NONE, "decoder");
    posenc_model_group *e = &m->group[ge], *d = &m->group[gd];
    if (f->scheme == POSENC_SCHEME_RELATIVE_BUCKETS) {
        /* T5Config (configuration_t5.py L82-104; MT5Config L81-88: 8 layers): num_layers 6,
         * num_decoder_layers = num_layers, 32 buckets, max distance 128;
         * encoder bidirectional, decoder causal (modeling_t5.py L246-251) */
        note_ignored(r, "n_positions"); /* never read by T5's code */
        if ((st = stack_layers(r, "num_layers", f->default_layers, &ne)) != POSENC_OK ||
            (st = stack_layers(r, "num_decoder_layers", ne, &nd)) != POSENC_OK)
            return st;
        int64_t nb = 32, md = 128;
        if ((st = count(r, "relative_attention_num_buckets", &nb, &present)) != POSENC_OK ||
            (st = count(r, "relative_attention_max_distance", &md, &present)) != POSENC_OK)
            return st;
        /* the bucket formula needs (num_buckets // 2) // 2 >= 1 and
         * max_distance > max_exact (a log of their ratio divides) */
        if (nb < 4 || nb > 65536)
            return FAIL(r, POSENC_ERR_RANGE,
                        kn(r, "relative_attention_num_buckets", name, sizeof name),
                        "%s %lld is outside 4..65536", name, (long long)nb);
        if (md <= nb / 4 || md > POSENC_MAX_POS)
            return FAIL(r, POSENC_ERR_RANGE,
                        kn(r, "relative_attention_max_distance", name, sizeof name),
                        "%s %lld must exceed num_buckets / 4 = %lld (and be at most %lld)", name,
                        (long long)md, (long long)(nb / 4), POSENC_MAX_POS);
        e->scheme = d->scheme = POSENC_SCHEME_RELATIVE_BUCKETS;
        e->buckets = d->buckets = (uint32_t)nb;
        e->max_distance = d->max_distance = (uint32_t)md;
        e->bidirectional = 1;
    } else if (strcmp(f->model_type, "whisper") == 0) {
        /* WhisperConfig (configuration_whisper.py L192-211): 4 + 4 layers,
         * d_model 384, max_source_positions 1500, max_target_positions 448 */
        int64_t src = 1500, tgt = 448, dm = 384;
        if ((st = stack_layers(r, "encoder_layers", 4, &ne)) != POSENC_OK ||
            (st = stack_layers(r, "decoder_layers", 4, &nd)) != POSENC_OK ||
            (st = count(r, "max_source_positions", &src, &present)) != POSENC_OK ||
            (st = positive(r, "max_source_positions", src)) != POSENC_OK ||
            (st = count(r, "max_target_positions", &tgt, &present)) != POSENC_OK ||
            (st = positive(r, "max_target_positions", tgt)) != POSENC_OK ||
            (st = count(r, "d_model", &dm, &present)) != POSENC_OK)
            return st;
        /* sinusoids(length, channels): channels even, channels // 2 - 1 > 0 */
        if (dm < 4 || dm % 2 || dm > POSENC_MAX_DIM)
            return FAIL(r, POSENC_ERR_DIM, kn(r, "d_model", name, sizeof name),
                        "%s %lld must be even and in 4..%u (Whisper's sinusoids)", name,
                        (long long)dm, POSENC_MAX_DIM);
        e->scheme = POSENC_SCHEME_SINUSOID;
        e->sinusoid_whisper = 1;
        e->positions = src;
        e->dim = (uint32_t)dm;
        d->scheme = POSENC_SCHEME_LEARNED;
        d->positions = tgt;
        d->dim = (uint32_t)dm;
    } else {
        /* BART: BartLearnedPositionalEmbedding in both stacks, offset 2 */
        int64_t pos, dm;
        const char *pk;
        if ((st = stack_layers(r, "encoder_layers", 0, &ne)) != POSENC_OK ||
            (st = stack_layers(r, "decoder_layers", 0, &nd)) != POSENC_OK ||
            (st = need_count(r, POS_KEYS, 0, &pos, &pk)) != POSENC_OK ||
            (st = positive(r, pk, pos)) != POSENC_OK)
            return st;
        static const char *const dk[] = {"d_model", NULL};
        if ((st = need_count(r, dk, 0, &dm, NULL)) != POSENC_OK)
            return st;
        if (dm < 1 || dm > POSENC_MAX_DIM)
            return FAIL(r, POSENC_ERR_DIM, kn(r, "d_model", name, sizeof name),
                        "%s %lld is outside 1..%u", name, (long long)dm, POSENC_MAX_DIM);
        e->scheme = d->scheme = POSENC_SCHEME_LEARNED;
        e->positions = d->positions = pos;
        e->offset = d->offset = 2;
        e->dim = d->dim = (uint32_t)dm;
    }
    if (ne + nd > POSENC_MODEL_MAX_LAYERS)
        return FAIL(r, POSENC_ERR_RANGE,
                    kn(r, f->scheme == POSENC_SCHEME_RELATIVE_BUCKETS ? "num_decoder_layers"
                                                                      : "decoder_layers",
                       name, sizeof name),
                    "%lld encoder and %lld decoder layers exceed %u (%s)", (long long)ne,
                    (long long)nd, POSENC_MODEL_MAX_LAYERS, name);
    m->n_layer = (uint32_t)(ne + nd);
    for (int64_t i = 0; i < ne + nd; i++)
        m->layer_group[i] = (uint8_t)(i < ne ? ge : gd);
    return POSENC_OK;
}

/* Baichuan: RoPE for hidden_size 4096 or class BaiChuan* (the 7B models),
 * ALiBi otherwise (13B), as vLLM dispatches: *rope. A hidden_size that is not
 * a count is refused, not taken for "not 4096". */
static posenc_status baichuan_rope(mread *r, const json_t *root, int *rope)
{
    const json_t *a = get(root, "architectures");
    *rope = 1;
    for (size_t i = 0; a && json_typeof(a) == JSON_ARRAY && i < json_array_size(a); i++) {
        const json_t *e = json_array_get(a, i);
        if (json_typeof(e) == JSON_STRING && strncmp(json_string_value(e), "BaiChuan", 8) == 0)
            return POSENC_OK;
    }
    int64_t hidden = 0;
    int present;
    posenc_status st = count(r, "hidden_size", &hidden, &present);
    *rope = hidden == 4096;
    return st;
}

/* ChatGLM's model_type also names ChatGLM-6B (GLM's 2D positions) and
 * ChatGLM2-6B-32k (rope_ratio divides positions): refused by their keys. */
static posenc_status chatglm_checks(mread *r)
{
    char name[96];
    const json_t *p2 = get(r->cfg, "position_encoding_2d");
    if (p2 && json_typeof(p2) != JSON_FALSE)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "position_encoding_2d", name, sizeof name),
                    "%s: ChatGLM-6B's 2D position encoding is not implemented", name);
    if (!json_object_get(r->cfg, "kv_channels") && json_object_get(r->cfg, "max_sequence_length"))
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "max_sequence_length", name, sizeof name),
                    "%s without kv_channels: a ChatGLM-6B (first release) config, whose 2D "
                    "position encoding is not implemented",
                    name);
    const json_t *np = get(r->cfg, "_name_or_path");
    if (get(r->cfg, "rope_ratio") && np && json_typeof(np) == JSON_STRING &&
        strstr(json_string_value(np), "chatglm2"))
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "rope_ratio", name, sizeof name),
                    "%s in a ChatGLM2 config: its code divides positions by it, ChatGLM3's "
                    "multiplies the base; posenc does not guess which",
                    name);
    return POSENC_OK;
}

static posenc_status read_family(mread *r, int64_t n_layer)
{
    const posenc_model_family *f = r->fam;
    if (strcmp(f->model_type, "chatglm") == 0) {
        posenc_status st = chatglm_checks(r);
        if (st != POSENC_OK)
            return st;
    }
    if (f->layers == POSENC_LAYERS_ENC_DEC)
        return read_enc_dec(r);
    if (f->flags & POSENC_FAMILY_ALIBI_KEY) {
        int alibi = 0, present;
        char name[96];
        posenc_status st = posenc__cfg_bool(&r->rd, r->cfg, "alibi",
                                            kn(r, "alibi", name, sizeof name), &alibi, &present);
        if (st != POSENC_OK)
            return st;
        if (alibi)
            return read_alibi(r, n_layer);
    }
    if (f->flags & POSENC_FAMILY_BAICHUAN) {
        int rope;
        posenc_status st = baichuan_rope(r, r->root, &rope);
        if (st != POSENC_OK)
            return st;
        if (!rope)
            return read_alibi(r, n_layer);
    }
    switch (f->scheme) {
    case POSENC_SCHEME_LEARNED: return read_learned(r, n_layer);
    case POSENC_SCHEME_ALIBI: return read_alibi(r, n_layer);
    default: return read_rope_family(r, n_layer);
    }
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
    r->json = json;
    r->len = len;
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
