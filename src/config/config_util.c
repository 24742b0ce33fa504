/* config_util.c - the helpers every file of the model reader uses (the
 * bottom of its dependency order, config_read.h): key lookups with a
 * family's legacy names, the ignored-key list, groups. */
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

/* Appends shown to the ignored list. */
void note_ignored_as(mread *r, const char *shown)
{
    char *s = r->m->ignored;
    size_t n = strlen(s);
    snprintf(s + n, sizeof r->m->ignored - n, "%s%s", n ? " " : "", shown);
}

/* Appends key to the ignored list when the part has it. */
void note_ignored(mread *r, const char *key)
{
    if (get(r->cfg, key))
        note_ignored_as(r, key);
}

/* Keys near positions that no family's code uses for them. */
void note_ignored_common(mread *r)
{
    static const char *const keys[] = {"sliding_window", "use_sliding_window",
                                       "max_window_layers", "attention_chunk_size", NULL};
    for (int i = 0; keys[i]; i++)
        note_ignored(r, keys[i]);
}

/* Whether key is a word of the space-separated list. */
static int listed(const char *list, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = list; p && (p = strstr(p, key)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* Keys that change positions in ways only some families implement: refused
 * elsewhere, by name. The families that read them say so by their data (a
 * NO_ROPE layer rule, a local base key) or their quirk's own_keys. */
posenc_status refuse_foreign(mread *r)
{
    static const struct {
        const char *key, *what;
    } keys[] = {
        {"rope_local_base_freq", "a second RoPE base for sliding layers"},
        {"use_dynamic_ntk", "Qwen 1's dynamic NTK"},
        {"use_logn_attn", "Qwen 1's log-n query scaling"},
        {"no_rope_layers", "layers without RoPE"},
        {"layer_rope_theta", "a RoPE base per layer"},
        {"llama_4_scaling_beta", "a query scaling ministral3 reads from rope_parameters"},
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
        if (r->fam->quirks && listed(r->fam->quirks->own_keys, keys[i].key))
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
