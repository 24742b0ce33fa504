/* config_model.c - a model from its config.json, through the registry
 * (src/config_families.c): which family, which part of the config, and for every
 * layer the position scheme its family's code applies.
 *
 * Part of the optional config library (needs jansson, like src/config.c,
 * whose RoPE block reader it shares through config_internal.h). Families are
 * read by their registry entry's rules; the few that need more (ChatGLM's
 * rope_ratio, Qwen 1's dynamic NTK and log-n, the absolute and relative
 * schemes) have a function each in the files config_read.h lists; this one
 * holds the entry points, the helpers they share and the family dispatch.
 * Every refusal names its key.
 *
 * Two facts the checks below lean on: jansson refuses a number that
 * overflows a double ("real number overflow"), so every number read from the
 * JSON is finite and only values computed from them (a base times rope_ratio)
 * are tested with isfinite; and where a value was just found non-NULL its
 * type is read with json_typeof, not the json_is_* macros, whose NULL test
 * could not fail there. */
#include "config_read.h"

/* The first of keys (NULL-terminated) that is present, as a count in *out
 * (*which: the key); *out is left alone when none is. */
posenc_status count_of(mread *r, const char *const *keys, int64_t *out,
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
posenc_status need_count(mread *r, const char *const *keys, int64_t def, int64_t *out,
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

const char *const LAYER_KEYS[] = {"num_hidden_layers", "n_layer", "num_layers", "n_layers",
                                         NULL};
const char *const HIDDEN_KEYS[] = {"hidden_size", "n_embd", "n_embed", "d_model", "dim",
                                          NULL};
const char *const HEADS_KEYS[] = {"num_attention_heads", "n_head", "n_heads", NULL};
const char *const MAXPOS_KEYS[] = {"max_position_embeddings", "n_positions",
                                          "seq_length", NULL};

/* Appends key to the ignored list when the part has it. */
void note_ignored(mread *r, const char *key)
{
    if (!get(r->cfg, key))
        return;
    char *s = r->m->ignored;
    size_t n = strlen(s);
    snprintf(s + n, sizeof r->m->ignored - n, "%s%s", n ? " " : "", key);
}

/* Keys near positions that no family's code uses for them. */
void note_ignored_common(mread *r)
{
    static const char *const keys[] = {"sliding_window", "use_sliding_window",
                                       "max_window_layers", "attention_chunk_size", NULL};
    for (int i = 0; keys[i]; i++)
        note_ignored(r, keys[i]);
}

/* Keys that change positions in ways only some families implement: refused
 * elsewhere, by name. */
posenc_status refuse_foreign(mread *r)
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

int add_group(posenc_model *m, posenc_scheme s, const char *layer_type)
{
    posenc_model_group *g = &m->group[m->n_group];
    memset(g, 0, sizeof *g);
    g->scheme = s;
    snprintf(g->layer_type, sizeof g->layer_type, "%s", layer_type);
    return (int)m->n_group++;
}

void finish_scheme(posenc_model *m)
{
    m->scheme = m->group[0].scheme;
    for (uint32_t i = 1; i < m->n_group; i++)
        if (m->group[i].scheme != m->scheme)
            m->scheme = POSENC_SCHEME_MIXED;
}
posenc_status read_family(mread *r, int64_t n_layer)
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
