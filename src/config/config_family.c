/* config_family.c - which family and which part of a config: model_type,
 * the architectures[] classes, wrapper types read through their language
 * part (text_config, llm_config, thinker_config.text_config... : PARTS), and
 * a bare RoPE config with no family; part of the model reader
 * (config_read.h). */
#include "config_read.h"

/* ---- which family, which part ----------------------------------------------------- */

/* Where wrappers keep their language model, in the order tried: transformers
 * 5.23's sub_configs (text_config in 138 config classes; thinker_config ->
 * text_config in Qwen2.5-Omni and Qwen3-Omni-MoE), and the remote-code
 * wrappers' names: llm_config (InternVL chat), language_config (DeepSeek-VL,
 * Janus), decoder_config (VibeVoice's first release), llm_cfg (VILA),
 * vlm_config.text_config (ColPali, ColQwen2, ColModernVBert: retrieval
 * wrappers around a VLM config, transformers 5.23.0
 * models/colqwen2/configuration_colqwen2.py L42). */
static const char *const PARTS[] = {"text_config", "llm_config", "language_config",
                                    "thinker_config.text_config", "decoder_config", "llm_cfg",
                                    "vlm_config.text_config", NULL};

/* The object at a dotted path of keys below obj ("thinker_config.text_config"),
 * or NULL when a step is missing or not an object (the last step: any value
 * but null). */
static const json_t *get_path(const json_t *obj, const char *path)
{
    char key[64];
    while (obj && json_is_object(obj)) {
        const char *dot = strchr(path, '.');
        if (!dot)
            return get(obj, path);
        size_t n = (size_t)(dot - path);
        if (n >= sizeof key)
            return NULL;
        memcpy(key, path, n);
        key[n] = 0;
        obj = get(obj, key);
        path = dot + 1;
    }
    return NULL;
}

/* The family a part names: its model_type, else (a part written without one,
 * VILA's llm_cfg) the one family its architectures[] classes name. */
static const posenc_model_family *part_family(const json_t *p)
{
    const json_t *pt = p && json_is_object(p) ? get(p, "model_type") : NULL;
    if (pt)
        return json_is_string(pt) ? posenc__family_find(json_string_value(pt)) : NULL;
    const json_t *a = p && json_is_object(p) ? get(p, "architectures") : NULL;
    const posenc_model_family *f = NULL;
    for (size_t i = 0; a && json_is_array(a) && i < json_array_size(a); i++) {
        const json_t *e = json_array_get(a, i);
        const posenc_model_family *g =
            json_is_string(e) ? posenc__family_by_arch(json_string_value(e)) : NULL;
        if (!g || (f && f != g))
            return NULL;
        f = g;
    }
    return f;
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
            json_typeof(e) == JSON_STRING ? posenc__family_by_arch(json_string_value(e)) : NULL;
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
    size_t n = posenc__families(&t);
    for (size_t i = 0; *out && i < n; i++)
        if (t[i].nested && t[i].nested_type &&
            strcmp(t[i].nested_type, (*out)->model_type) == 0 &&
            json_is_object(get_path(root, t[i].nested))) {
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
            mt && json_is_string(mt) ? posenc__family_find(json_string_value(mt)) : NULL;
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
    char part[128];
    const posenc_model_family *f =
        json_is_object(r->root) ? known_part(r->root, 1, part, sizeof part) : NULL;
    if (f)
        return FAIL(r, POSENC_ERR_FORMAT, key,
                    "%s '%.60s' is not in posenc's model registry, but its part %s is model_type "
                    "%s, a family posenc knows: read that part as a config.json of its own; or "
                    "give --model-type TYPE to read the whole file as a known family (posenc "
                    "--models lists them)",
                    key, type, part, f->model_type);
    return FAIL(r, POSENC_ERR_FORMAT, key,
                "%s '%.60s' is not in posenc's model registry (posenc --models lists the "
                "known types); give --model-type TYPE to read it as a known family",
                key, type);
}

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

/* The family of the config at root: model_type (or override), an unknown
 * wrapper's known language part, or the architectures[] entries; *f NULL
 * with *done 1 when the config was read as a bare RoPE block instead (the
 * status is then that reading's). */
static posenc_status which_family(mread *r, const json_t *root, const char *override,
                                  const posenc_model_family **out, int *done)
{
    const posenc_model_family *f = NULL;
    *done = 0;
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
        f = posenc__family_find(type);
        if (!f && !override) {
            /* an unknown wrapper whose language part is a known family */
            for (int i = 0; PARTS[i]; i++) {
                const json_t *p = get_path(root, PARTS[i]);
                const posenc_model_family *g = part_family(p);
                if (g) {
                    r->cfg = p;
                    snprintf(r->prefix, sizeof r->prefix, "%s.", PARTS[i]);
                    snprintf(r->m->part, sizeof r->m->part, "%s", PARTS[i]);
                    f = g;
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
                if (json_object_get(root, rope_keys[i])) {
                    *done = 1;
                    return read_bare(r, root);
                }
            return FAIL(r, POSENC_ERR_FORMAT, "model_type",
                        "missing key model_type, and no architectures entry or RoPE key tells "
                        "the family: give --model-type TYPE");
        }
    }
    *out = f;
    return POSENC_OK;
}

/* A wrapper type (gemma3, llama4, mistral3...): read through its language
 * part, as the part's own model_type or the wrapper's default one. */
static posenc_status open_part(mread *r, const json_t *root, const posenc_model_family **out)
{
    const posenc_model_family *f = *out;
    if (f->nested && !r->m->part[0]) {
        const json_t *p = get_path(root, f->nested);
        if (!p && (f->flags & POSENC_FAMILY_PART_OPTIONAL)) {
            /* an older config with the language model's keys at the top */
            *out = posenc__family_find(f->nested_type);
            return POSENC_OK;
        }
        char at[96]; /* the part's path, below a stack's key when read_stacks reads it */
        kn(r, f->nested, at, sizeof at);
        if (!p || json_typeof(p) != JSON_OBJECT)
            return FAIL(r, POSENC_ERR_FORMAT, at,
                        "missing key %s: model_type %s keeps its language model there", at,
                        f->model_type);
        r->cfg = p;
        size_t pl = strlen(r->prefix); /* a stack's part (read_stacks) is below its key */
        snprintf(r->prefix + pl, sizeof r->prefix - pl, "%s.", f->nested);
        snprintf(r->m->part, sizeof r->m->part, "%s", f->nested);
        const json_t *pt = get(p, "model_type");
        char name[96];
        kn(r, "model_type", name, sizeof name);
        if (pt && json_typeof(pt) != JSON_STRING)
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be a string, got %s", name,
                        posenc__cfg_type_word(pt));
        const posenc_model_family *g = pt ? posenc__family_find(json_string_value(pt)) : NULL;
        if (!pt && !(g = f->nested_type ? posenc__family_find(f->nested_type) : part_family(p)))
            return FAIL(r, POSENC_ERR_FORMAT, name,
                        "missing key %s: the part of model_type %s does not say which family "
                        "it is (give --model-type TYPE and the part as a config of its own)",
                        name, f->model_type);
        if (!g)
            return unknown_type(r, name, json_string_value(pt));
        f = g;
    }
    *out = f;
    return POSENC_OK;
}

/* The first key of the space-separated list keys whose value is null in
 * r->cfg, copied to key; 0 when none is. misread: the null_misread list, whose
 * rope_theta is read only without a RoPE block's own. */
static int null_in(const mread *r, const char *keys, int misread, char *key, size_t size)
{
    const char *p = keys;
    while (p && *p) {
        size_t n = strcspn(p, " ");
        if (n > 0 && n < size) {
            memcpy(key, p, n);
            key[n] = '\0';
            const json_t *v = json_object_get(r->cfg, key);
            /* rope_theta beside a RoPE block's own: the config class keeps
             * the block's (setdefault) and never reads the null */
            const json_t *rp = json_object_get(r->cfg, "rope_parameters");
            if (!json_is_object(rp))
                rp = json_object_get(r->cfg, "rope_scaling");
            int beside = misread && strcmp(key, "rope_theta") == 0 && json_is_object(rp) &&
                         json_is_number(json_object_get(rp, "rope_theta"));
            if (v && json_is_null(v) && !beside)
                return 1;
        }
        p += n;
        p += strspn(p, " ");
    }
    return 0;
}

/* A null at a key the family's config class declares without None:
 * transformers 5.23's validation refuses the config, so it is refused here by
 * name rather than read as absent (posenc_model_family.nonnull). A null the
 * class accepts but the model then does not read as the default
 * (posenc_model_family.null_misread: Roberta's pad_token_id in
 * input_ids.ne(padding_idx), DeepSeek V3's `if config.rope_interleave`) is
 * refused the same way. */
static posenc_status refuse_nulls(mread *r, const posenc_model_family *f)
{
    char key[40], name[96];
    if (null_in(r, f->nonnull, 0, key, sizeof key))
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, key, name, sizeof name),
                    "%s is null: %s declares it without None and transformers "
                    "refuses the config (a null is not read as the default)",
                    name, f->nonnull_source ? f->nonnull_source : "the config class");
    if (null_in(r, f->null_misread, 1, key, sizeof key))
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, key, name, sizeof name),
                    "%s is null: transformers 5.23 accepts it, but then %s does not compute "
                    "the default (a null is not read as the default)",
                    name, f->null_misread_source ? f->null_misread_source : "the model");
    return POSENC_OK;
}

posenc_status read_model(mread *r, const json_t *root, const char *override)
{
    if (json_typeof(root) != JSON_OBJECT)
        return FAIL(r, POSENC_ERR_FORMAT, "", "a config.json must be a JSON object, got %s",
                    posenc__cfg_type_word(root));
    const posenc_model_family *f = NULL;
    int done;
    posenc_status st = which_family(r, root, override, &f, &done);
    if (st != POSENC_OK || done)
        return st;
    const posenc_model_family *wrapper = f;
    if ((st = open_part(r, root, &f)) != POSENC_OK)
        return st;
    if (f->nested)
        return FAIL(r, POSENC_ERR_FORMAT, "model_type",
                    "model_type %s is a wrapper, but its part is itself a wrapper", f->model_type);
    if (f->refused)
        return FAIL(r, POSENC_ERR_FORMAT, r->m->part[0] ? r->prefix : "model_type",
                    "model_type %s is not supported yet: %s", f->model_type, f->refused);
    r->fam = f;
    r->m->source = f ? f->source : NULL;
    r->m->hf_module = f ? f->hf_module : NULL;
    /* an older flat config (Qwen2-VL's) keeps its own type in the output */
    snprintf(r->m->model_type, sizeof r->m->model_type, "%s",
             (wrapper->flags & POSENC_FAMILY_PART_OPTIONAL) && !r->m->part[0]
                 ? wrapper->model_type
                 : f->model_type);

    if ((st = refuse_foreign(r)) != POSENC_OK)
        return st;
    if ((st = refuse_nulls(r, f)) != POSENC_OK)
        return st;
    int64_t n_layer = 0;
    if (f->layers != POSENC_LAYERS_ENC_DEC) {
        const char *which;
        int64_t listed = 0; /* KINDS: the per-layer list's length */
        if (f->layers == POSENC_LAYERS_KINDS && !(f->quirks && f->quirks->list_repeats))
            kinds_layer_count(r, &listed); /* (a repeated pattern does not count layers) */
        /* layers_key: the family's own key, or keys space-separated, first
         * present wins */
        char own_buf[96];
        const char *own_keys[5] = {NULL};
        if (f->layers_key) {
            snprintf(own_buf, sizeof own_buf, "%s", f->layers_key);
            size_t nk = 0;
            for (char *t = strtok(own_buf, " "); t && nk < 4; t = strtok(NULL, " "))
                own_keys[nk++] = t;
        }
        if ((st = need_count(r, f->layers_key ? own_keys : LAYER_KEYS,
                             listed > 0 ? listed : f->default_layers, &n_layer, &which)) !=
            POSENC_OK)
            return st;
        if (listed > 0 && (f->flags & POSENC_FAMILY_LIST_COUNTS))
            n_layer = listed; /* the list's length wins over num_hidden_layers */
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

/* ---- what the family reads ------------------------------------------------------- */

/* EncoderDecoderModel's stack k at p (named name): the family its own
 * model_type names (AutoModel / AutoModelForCausalLM.from_config of it,
 * models/encoder_decoder/modeling_encoder_decoder.py L113-120), the
 * default type[k] when it names none (configuration_utils.py L252,
 * transformers 5.23.0), into *type. A type posenc does not know, and an
 * encoder-decoder as a stack (posenc numbers one stack per side), refused
 * by name. */
static posenc_status own_stack_type(mread *r, const json_t *p, const char *name, int k,
                                    const char **type)
{
    const json_t *pt = get(p, "model_type");
    char tk[112];
    snprintf(tk, sizeof tk, "%s.model_type", name);
    if (!pt)
        return POSENC_OK; /* *type: the default */
    if (json_typeof(pt) != JSON_STRING)
        return FAIL(r, POSENC_ERR_FORMAT, tk, "%s must be a string, got %s", tk,
                    posenc__cfg_type_word(pt));
    const posenc_model_family *g = posenc__family_find(json_string_value(pt));
    if (!g)
        return FAIL(r, POSENC_ERR_FORMAT, tk,
                    "%s '%.60s' is not in posenc's model registry (posenc --models lists the "
                    "known types): model_type %s's %s stack is read as the family it names",
                    tk, json_string_value(pt), r->fam->model_type, k ? "decoder" : "encoder");
    if (g->layers == POSENC_LAYERS_ENC_DEC || g->stacks)
        return FAIL(r, POSENC_ERR_FORMAT, tk,
                    "%s is %s, itself an encoder-decoder: model_type %s's %s stack must be one "
                    "stack (posenc numbers the encoder's layers, then the decoder's)",
                    tk, g->model_type, r->fam->model_type, k ? "decoder" : "encoder");
    *type = g->model_type;
    return POSENC_OK;
}

/* Stack k (0 encoder, 1 decoder) of a family whose stacks are configs of
 * their own (posenc_family_stacks): read as its family into sm, then its
 * groups and layers appended to r's model after the *n layers already
 * there, each group's type prefixed with the stack's name and its ignored
 * keys with the stack's path. */
static posenc_status read_stack(mread *r, posenc_model *sm, int k, uint32_t *n)
{
    static const char *const word[2] = {"encoder", "decoder"};
    const posenc_family_stacks *sk = r->fam->stacks;
    posenc_model *m = r->m;
    char name[96];
    kn(r, sk->part[k], name, sizeof name);
    const json_t *p = get_path(r->cfg, sk->part[k]);
    if (!p || json_typeof(p) != JSON_OBJECT)
        return FAIL(r, POSENC_ERR_FORMAT, name,
                    "missing key %s: model_type %s keeps its %s stack there, a config of its "
                    "own (model_type %s%s)",
                    name, r->fam->model_type, word[k], sk->type[k],
                    sk->own_types ? " unless it names its own" : "");
    const json_t *pt = get(p, "model_type");
    const char *type = sk->type[k];
    if (sk->own_types) {
        posenc_status st = own_stack_type(r, p, name, k, &type);
        if (st != POSENC_OK)
            return st;
    } else if (pt &&
               (json_typeof(pt) != JSON_STRING || strcmp(json_string_value(pt), sk->type[k]))) {
        char tk[112];
        snprintf(tk, sizeof tk, "%s.model_type", name);
        return FAIL(r, POSENC_ERR_FORMAT, tk,
                    "%s is %s%.60s%s, but model_type %s's %s stack is %s", tk,
                    json_is_string(pt) ? "'" : "",
                    json_is_string(pt) ? json_string_value(pt) : posenc__cfg_type_word(pt),
                    json_is_string(pt) ? "'" : "", r->fam->model_type, word[k], sk->type[k]);
    }
    mread s;
    memset(&s, 0, sizeof s);
    memset(sm, 0, sizeof *sm);
    s.rd = r->rd;
    s.m = sm;
    snprintf(s.prefix, sizeof s.prefix, "%.38s.", name);
    posenc_status st = read_model(&s, p, type);
    if (st != POSENC_OK)
        return st;
    if (sm->indexer_head_dim)
        return FAIL(r, POSENC_ERR_FORMAT, name,
                    "%s (model_type %s) has a sparse-attention indexer: posenc holds one per "
                    "model, not one per stack",
                    name, sm->model_type);
    if (m->n_group + sm->n_group > POSENC_MODEL_MAX_GROUPS)
        return FAIL(r, POSENC_ERR_RANGE, name,
                    "the encoder and decoder stacks encode positions in more than %u ways "
                    "(layer types with their own RoPE); posenc holds %u per model",
                    POSENC_MODEL_MAX_GROUPS, POSENC_MODEL_MAX_GROUPS);
    if (*n + sm->n_layer > POSENC_MODEL_MAX_LAYERS)
        return FAIL(r, POSENC_ERR_RANGE, name,
                    "%u encoder and %u decoder layers exceed %u", k ? *n : sm->n_layer,
                    k ? sm->n_layer : 0u, POSENC_MODEL_MAX_LAYERS);
    uint32_t g0 = m->n_group;
    for (uint32_t g = 0; g < sm->n_group; g++) {
        char type[sizeof m->group[0].layer_type];
        snprintf(type, sizeof type, "%s%s%.30s", word[k], sm->group[g].layer_type[0] ? "/" : "",
                 sm->group[g].layer_type);
        int i = add_group(m, sm->group[g].scheme, type);
        m->group[i] = sm->group[g];
        memcpy(m->group[i].layer_type, type, sizeof type);
    }
    for (uint32_t i = 0; i < sm->n_layer; i++)
        m->layer_group[*n + i] = (uint8_t)(g0 + sm->layer_group[i]);
    *n += sm->n_layer;
    /* the stack's ignored keys, named by their path (s.prefix: "encoder.text_config.") */
    char *save = NULL, list[sizeof sm->ignored];
    memcpy(list, sm->ignored, sizeof list);
    for (char *w = strtok_r(list, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        char shown[160];
        snprintf(shown, sizeof shown, "%s%s", s.prefix, w);
        note_ignored_as(r, shown);
    }
    return POSENC_OK;
}

/* An encoder-decoder whose stacks are configs of their own (T5Gemma, T5Gemma
 * 2, Dia): each read as its family, the encoder's layers first. */
static posenc_status read_stacks(mread *r)
{
    posenc_model *sm = NULL;
    posenc_status st = posenc_model_create(&sm);
    uint32_t n = 0;
    for (int k = 0; k < 2 && st == POSENC_OK; k++)
        st = read_stack(r, sm, k, &n);
    posenc_model_free(sm);
    if (st == POSENC_OK)
        r->m->n_layer = n;
    return st;
}

/* The scheme of the family (a key, or the family's quirk, may choose ALiBi
 * instead of RoPE) and its reader. */
posenc_status read_family(mread *r, int64_t n_layer)
{
    const posenc_model_family *f = r->fam;
    if (f->quirks && f->quirks->scheme) {
        int done = 0;
        posenc_status st = f->quirks->scheme(r, n_layer, &done);
        if (st != POSENC_OK || done)
            return st;
    }
    if (f->stacks)
        return read_stacks(r);
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
    switch (f->layers == POSENC_LAYERS_KINDS ? POSENC_SCHEME_MIXED : f->scheme) {
    case POSENC_SCHEME_NONE: {
        /* no layer encodes positions (state-space models): kinds[0] says why */
        int g = add_group(r->m, POSENC_SCHEME_NONE, f->kinds ? f->kinds[0].name : "");
        r->m->group[g].reason = f->kinds ? f->kinds[0].reason : NULL;
        return POSENC_OK; /* layer_group is 0 */
    }
    case POSENC_SCHEME_LEARNED: return read_learned(r, n_layer);
    case POSENC_SCHEME_ALIBI: return read_alibi(r, n_layer);
    case POSENC_SCHEME_RELATIVE_BUCKETS: return read_t5_decoder(r, n_layer);
    case POSENC_SCHEME_SINUSOID: return read_sinusoid(r, n_layer);
    default: return read_rope_family(r, n_layer);
    }
}
