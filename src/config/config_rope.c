/* config_rope.c - the RoPE blocks of a config (rope_scaling,
 * rope_parameters, per layer type) and the family's RoPE keys (head_dim,
 * the rotated part, the base) into a group: part of the model reader
 * (config_read.h). */
#include "config_read.h"

/* ---- RoPE families ---------------------------------------------------------------- */


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
posenc_status block_copy_failed(mread *r, json_t **own)
{
    json_decref(*own);
    *own = NULL;
    return FAIL(r, POSENC_ERR_NOMEM, "", "out of memory");
}

/* What some families' code does to their RoPE block before the shared
 * reader sees it: Phi-3 reads "yarn" and "su" as longrope; Ministral 3 keeps
 * its query scaling (llama_4_scaling_beta, with original_max_position_embeddings)
 * in rope_parameters. *own: a modified copy, or NULL when blk is used as is. */
/* Phi-3: rope type "yarn" and "su" mean longrope. */
static posenc_status prep_yarn_is_longrope(mread *r, const json_t *blk, json_t **own)
{
    static const char *const tk[] = {"rope_type", "type"};
    for (int i = 0; i < 2; i++) {
        const json_t *t = json_object_get(blk, tk[i]);
        const char *v = t && json_typeof(t) == JSON_STRING ? json_string_value(t) : "";
        if (strcmp(v, "yarn") == 0 || strcmp(v, "su") == 0) {
            if ((!*own && !(*own = json_deep_copy(blk))) ||
                json_object_set_new(*own, tk[i], json_string("longrope")) != 0)
                return block_copy_failed(r, own);
        }
    }
    return POSENC_OK;
}

/* HunYuan: 'if self.rope_type == "dynamic" and
 * self.config.rope_parameters.get("alpha")' the frequencies are
 * compute_ntk_alpha_rope_parameters', base * alpha^(dim/(dim-2)) for every
 * length (factor unread): posenc's "ntk" with factor alpha. */
static posenc_status prep_ntk_alpha(mread *r, const json_t *blk, const char *name, json_t **own)
{
    static const char *const tk[] = {"rope_type", "type"};
    const json_t *a = json_object_get(blk, "alpha");
    int dynamic = 0;
    for (int i = 0; i < 2; i++) {
        const json_t *t = json_object_get(blk, tk[i]);
        if (t && json_typeof(t) == JSON_STRING && strcmp(json_string_value(t), "dynamic") == 0)
            dynamic = 1;
    }
    if (!dynamic || !a)
        return POSENC_OK;
    if (json_typeof(a) == JSON_NULL || (is_number(a) && json_number_value(a) == 0.0)) {
        /* alpha falsy: the code's dynamic NTK, which reads no alpha */
        if (!*own && !(*own = json_deep_copy(blk)))
            return block_copy_failed(r, own);
        json_object_del(*own, "alpha");
        return POSENC_OK;
    }
    if (!is_number(a)) {
        char key[128];
        snprintf(key, sizeof key, "%s.alpha", name);
        return FAIL(r, POSENC_ERR_FORMAT, key, "%s must be a number, got %s", key,
                    posenc__cfg_type_word(a));
    }
    if (!*own && !(*own = json_deep_copy(blk)))
        return block_copy_failed(r, own);
    for (int i = 0; i < 2; i++)
        if (json_object_get(*own, tk[i]) &&
            json_object_set_new(*own, tk[i], json_string("ntk")) != 0)
            return block_copy_failed(r, own);
    if (json_object_set_new(*own, "factor", json_real(json_number_value(a))) != 0)
        return block_copy_failed(r, own);
    json_object_del(*own, "alpha");
    return POSENC_OK;
}

/* M-RoPE (Qwen2-VL to Qwen3-VL, GLM-4V): the sections, rule and vision
 * settings into g, and a block without them (type "mrope" read as default).
 * blk NULL: the config has no RoPE block, the family's defaults. */
static posenc_status prep_mrope(mread *r, posenc_model_group *g, const json_t *blk,
                                const char *name, json_t **own)
{
    char key[128];
    const posenc_model_family *f = r->fam;
    /* M-RoPE: mrope_section [t, h, w] (pairs) is the multimodal rotary
     * embedding's, not a scaling's; the code reads it as
     * rope_parameters.get("mrope_section", <its default>) (e.g.
     * models/qwen2_vl/modeling_qwen2_vl.py L102 [16, 24, 24],
     * models/glm4v/modeling_glm4v.py L444 [8, 12, 12], transformers 5.23.0);
     * type "mrope" (Qwen2-VL's configs) is the default frequencies */
    const json_t *sec = blk ? json_object_get(blk, "mrope_section") : NULL;
    const json_t *il = blk ? json_object_get(blk, "mrope_interleaved") : NULL;
    /* ERNIE 4.5 VL writes its section [h, w, t] (modeling_ernie4_5_vl_moe.py
     * L94-96, L123: split(mrope_section), chunk i from axis (i + 1) % 3) */
    int hw_alt = (f->flags & POSENC_FAMILY_MROPE_HW_ALTERNATING) != 0;
    const char *order = hw_alt ? "[h, w, t]" : "[t, h, w]";
    /* NeoMME: no section key (its code never reads one, scaling_unread
     * drops it); rope_group sets [0, P/2, P/2] once the rotary part is known */
    if (f->flags & POSENC_FAMILY_MROPE_TWO_AXIS)
        sec = NULL;
    snprintf(key, sizeof key, "%s.mrope_section", name);
    int have_default = f->mrope_default[0] + f->mrope_default[1] + f->mrope_default[2] > 0 ||
                       (f->flags & POSENC_FAMILY_MROPE_TWO_AXIS);
    if (!sec && !have_default)
        return FAIL(r, POSENC_ERR_FORMAT, key,
                    "missing key %s: family %s splits the rotary pairs between the "
                    "temporal, height and width positions by it",
                    key, f->model_type);
    if (sec && (!json_is_array(sec) || json_array_size(sec) != 3))
        return FAIL(r, POSENC_ERR_FORMAT, key,
                    "%s must be a list of three pair counts %s", key, order);
    for (size_t i = 0; i < 3; i++) {
        const json_t *v = sec ? json_array_get(sec, i) : NULL;
        if (sec && (!json_is_integer(v) || json_integer_value(v) < 0 ||
                    json_integer_value(v) > (json_int_t)(POSENC_ROPE_MAX_HEAD_DIM / 2)))
            return FAIL(r, POSENC_ERR_FORMAT, key,
                        "%s must be a list of three pair counts %s, each 0 to %u",
                        key, order, POSENC_ROPE_MAX_HEAD_DIM / 2);
        /* [h, w, t] -> axes 1, 2, 0 */
        g->mrope_section[hw_alt ? (i + 1) % 3 : i] =
            sec ? (uint32_t)json_integer_value(v) : f->mrope_default[i];
    }
    snprintf(key, sizeof key, "%s.mrope_interleaved", name);
    if (il && !json_is_boolean(il))
        return FAIL(r, POSENC_ERR_FORMAT, key, "%s must be true or false, got %s", key,
                    posenc__cfg_type_word(il));
    g->mrope = 1;
    /* the rule is the family's code, not the key: Qwen3-VL's
     * recomposition_frequencies always interleaves (modeling_qwen3_vl.py
     * L406-415), Qwen2-VL's and GLM-4V's always take chunks (L137-142,
     * modeling_glm4v.py L481-486); a key that says otherwise is ignored
     * there, and refused here rather than read one way or the other */
    int round_robin = (f->flags & POSENC_FAMILY_MROPE_ROUND_ROBIN) != 0;
    g->mrope_rule = hw_alt        ? POSENC_MROPE_HW_ALTERNATING
                    : round_robin ? POSENC_MROPE_INTERLEAVED
                                  : POSENC_MROPE_CONTIGUOUS;
    if (il && json_is_true(il) != round_robin)
        return FAIL(r, POSENC_ERR_FORMAT, key,
                    "%s is %s, but family %s's code always takes the %s rule (the key is not "
                    "read there)",
                    key, json_is_true(il) ? "true" : "false", f->model_type,
                    posenc_mrope_rule_name(g->mrope_rule));
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
    if (!blk)
        return POSENC_OK;
    if (!*own && !(*own = json_deep_copy(blk)))
        return FAIL(r, POSENC_ERR_NOMEM, "", "out of memory");
    json_object_del(*own, "mrope_section");
    json_object_del(*own, "mrope_interleaved");
    /* Qwen3-Omni's configs also write "interleaved": true, which no code reads
     * (ignore_keys_at_rope_validation, configuration_qwen3_omni_moe.py L158) */
    json_object_del(*own, "interleaved");
    static const char *const tk[] = {"rope_type", "type"};
    for (int i = 0; i < 2; i++) {
        const json_t *t = json_object_get(*own, tk[i]);
        if (t && json_is_string(t) && strcmp(json_string_value(t), "mrope") == 0)
            json_object_set_new(*own, tk[i], json_string("default"));
    }
    return POSENC_OK;
}

/* Ministral 3: llama_4_scaling_beta (with original_max_position_embeddings)
 * is a query scaling kept in rope_parameters. */
static posenc_status prep_beta(mread *r, posenc_model_group *g, const json_t *blk,
                               const char *name, json_t **own)
{
    char key[128];
    /* Ministral3Config writes rope_parameters.max_position_embeddings (a copy
     * of the top-level key) and leaves it out of the RoPE validation; the
     * YaRN code reads config.max_position_embeddings instead
     * (models/ministral3/configuration_ministral3.py L72, L101;
     * modeling_rope_utils.py L428; transformers 5.23.0) */
    if (r->fam->qscale == POSENC_QUERY_SCALE_BETA && json_object_get(blk, "max_position_embeddings")) {
        if (!*own && !(*own = json_deep_copy(blk)))
            return block_copy_failed(r, own);
        json_object_del(*own, "max_position_embeddings");
    }
    const json_t *beta = json_object_get(blk, "llama_4_scaling_beta");
    if (beta && r->fam->qscale == POSENC_QUERY_SCALE_BETA) {
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
        g->qscale.type = POSENC_QUERY_SCALE_BETA;
        g->qscale.beta = json_number_value(beta);
        g->qscale.original = json_number_value(orig);
        if (!*own && !(*own = json_deep_copy(blk)))
            return block_copy_failed(r, own);
        json_object_del(*own, "llama_4_scaling_beta");
        const json_t *t = json_object_get(*own, "rope_type");
        if (!t)
            t = json_object_get(*own, "type");
        if (!t || strcmp(json_string_value(t) ? json_string_value(t) : "", "default") == 0)
            json_object_del(*own, "original_max_position_embeddings");
    }
    /* Mistral 4 writes max_position_embeddings into the block as well;
     * transformers drops it from validation (ignore_keys_at_rope_validation,
     * configuration_mistral4.py L133-135 in 5.23.0) and reads the config's own */
    if (r->fam->qscale == POSENC_QUERY_SCALE_BETA && json_object_get(blk, "max_position_embeddings")) {
        if (!*own && !(*own = json_deep_copy(blk)))
            return block_copy_failed(r, own);
        json_object_del(*own, "max_position_embeddings");
    }
    return POSENC_OK;
}

/* A family whose own code knows only some rope_scaling types (scaling_types):
 * the block's type, as written (before "su" becomes longrope), must be one of
 * them; its _init_rope raises on the rest, and posenc must not read them as
 * transformers would. */
static posenc_status check_scaling_types(mread *r, const json_t *blk, const char *name)
{
    const char *list = r->fam->scaling_types;
    char key[128];
    if (r->fam->scaling_refused)
        return FAIL(r, POSENC_ERR_FORMAT, name, "%s: %s", name, r->fam->scaling_refused);
    if (!list)
        return POSENC_OK;
    if (!*list)
        return FAIL(r, POSENC_ERR_FORMAT, name,
                    "%s: family %s's own scaling code was not read (only a port of it): "
                    "posenc does not vouch for any rope_scaling there",
                    name, r->fam->model_type);
    const json_t *t = get(blk, "type");
    snprintf(key, sizeof key, "%s.%s", name, t ? "type" : "rope_type");
    if (!t)
        t = get(blk, "rope_type");
    const char *v = t && json_typeof(t) == JSON_STRING ? json_string_value(t) : NULL;
    size_t n = v ? strlen(v) : 0;
    for (const char *p = list; v && *p;) {
        size_t len = strcspn(p, " ");
        if (len == n && strncmp(p, v, n) == 0)
            return POSENC_OK;
        p += len;
        p += strspn(p, " ");
    }
    return FAIL(r, POSENC_ERR_FORMAT, key,
                "%s '%.40s': family %s's own code knows only the rope_scaling types %s",
                key, v ? v : "(none)", r->fam->model_type, list);
}

/* The block's keys the family's code never reads (scaling_unread): dropped
 * from a copy and listed as ignored ("name.key"). */
static posenc_status drop_unread(mread *r, const json_t *blk, const char *name, json_t **own)
{
    char key[128];
    for (const char *p = r->fam->scaling_unread; p && *p;) {
        size_t len = strcspn(p, " ");
        snprintf(key, sizeof key, "%.*s", (int)len, p);
        p += len;
        p += strspn(p, " ");
        if (!json_object_get(blk, key))
            continue;
        if (!*own && !(*own = json_deep_copy(blk)))
            return block_copy_failed(r, own);
        json_object_del(*own, key);
        char shown[256];
        snprintf(shown, sizeof shown, "%s.%s", name, key);
        note_ignored_as(r, shown);
    }
    return POSENC_OK;
}

static posenc_status prepare_block(mread *r, posenc_model_group *g, const json_t *blk,
                                   const char *name, json_t **own)
{
    posenc_status st = POSENC_OK;
    *own = NULL;
    if ((st = check_scaling_types(r, blk, name)) != POSENC_OK ||
        (st = drop_unread(r, blk, name, own)) != POSENC_OK)
        return st;
    if (*own) /* the steps below read the copy without the unread keys */
        blk = *own;
    if (r->fam->flags & POSENC_FAMILY_YARN_IS_LONGROPE)
        st = prep_yarn_is_longrope(r, blk, own);
    if (st == POSENC_OK && (r->fam->flags & POSENC_FAMILY_NTK_ALPHA))
        st = prep_ntk_alpha(r, blk, name, own);
    if (st == POSENC_OK && r->fam->quirks && r->fam->quirks->rope_block)
        st = r->fam->quirks->rope_block(r, blk, name, own);
    if (st == POSENC_OK && (r->fam->flags & POSENC_FAMILY_MROPE))
        return prep_mrope(r, g, blk, name, own);
    if (st == POSENC_OK)
        st = prep_beta(r, g, blk, name, own);
    return st;
}

/* MiniCPM builds its cache for max_position_embeddings first: long factors
 * from the start when that exceeds the original length (MiniCPMLongRoPE:
 * scale = max_position_embeddings / original and sqrt(1 + ln scale / ln
 * original) on cos and sin; it reads no factor or attention_factor). */
static posenc_status long_from_maxpos(mread *r, posenc_rope_config *c, const rope_common *cm,
                                      const json_t *blk, const char *name)
{
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
    const posenc_rope_scaling *s = &c->scaling;
    if (cm->have_maxpos && (double)cm->maxpos > s->original_max_position_embeddings)
        memcpy(c->short_factor, c->long_factor, s->n_long_factor * sizeof(double));
    return POSENC_OK;
}

/* Fills group g's RoPE from the block blk (NULL: none) named name, on top of
 * cm with base. A rope_scaling block and a rope_parameters set are read alike
 * (transformers 5: rope_scaling is the rope_parameters). */
/* A group's M-RoPE split checked against its rotary pairs (NeoMME's two
 * axes set from them first); name is the RoPE block's key. */
static posenc_status mrope_split(mread *r, posenc_model_group *g, const json_t *blk,
                                 const char *name)
{
    const posenc_rope_config *c = &g->rope;
    if (g->mrope && (r->fam->flags & POSENC_FAMILY_MROPE_TWO_AXIS)) {
        /* NeoMME's recomposition_frequencies (modeling_neomme.py L160-167):
         * rows freq[0][..., 0::2] stacked with columns freq[1][..., 1::2],
         * which needs an even number of rotary pairs */
        uint32_t P = c->rotary_dim / 2;
        if (P % 2) {
            char key[128];
            snprintf(key, sizeof key, "%s.partial_rotary_factor", name);
            return FAIL(r, POSENC_ERR_RANGE, key,
                        "%s: %u rotary pairs: family %s's code pairs each row frequency with "
                        "a column one (torch.stack of pairs 0::2 and 1::2), which needs an "
                        "even number",
                        key, P, r->fam->model_type);
        }
        g->mrope_section[0] = 0;
        g->mrope_section[1] = g->mrope_section[2] = P / 2;
    }
    posenc_mrope mr;
    if (g->mrope && posenc_mrope_init(&mr, c->rotary_dim / 2, g->mrope_section,
                                      g->mrope_rule) != POSENC_OK) {
        char key[128];
        snprintf(key, sizeof key, "%s.mrope_section", name);
        return FAIL(r, POSENC_ERR_RANGE, key,
                    "%s [%u, %u, %u] does not split the %u rotary pairs%s%s", key,
                    /* as the config writes it ([h, w, t] under hw-alternating) */
                    g->mrope_section[g->mrope_rule == POSENC_MROPE_HW_ALTERNATING ? 1 : 0],
                    g->mrope_section[g->mrope_rule == POSENC_MROPE_HW_ALTERNATING ? 2 : 1],
                    g->mrope_section[g->mrope_rule == POSENC_MROPE_HW_ALTERNATING ? 0 : 2],
                    c->rotary_dim / 2,
                    g->mrope_rule == POSENC_MROPE_INTERLEAVED
                        ? " under the interleaved rule"
                    : g->mrope_rule == POSENC_MROPE_HW_ALTERNATING
                        ? " under the hw-alternating rule (h and w equal, the three adding up "
                          "to rotary_dim / 2)"
                        : " (the three must add up to rotary_dim / 2)",
                    blk && get(blk, "mrope_section") ? ""
                                                     : " (the code's default; the config gives "
                                                       "none)");
    }
    return POSENC_OK;
}

posenc_status rope_group(mread *r, posenc_model_group *g, const rope_common *cm,
                                double base, const json_t *blk, const char *name)
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
    if (!blk && (r->fam->flags & POSENC_FAMILY_NEEDS_BLOCK)) {
        char key[96];
        kn(r, "rope_parameters", key, sizeof key);
        return FAIL(r, POSENC_ERR_FORMAT, key,
                    "missing key %s (or rope_scaling): family %s's config class then fills in "
                    "its own scaled RoPE and ignores a rope_theta beside it",
                    key, r->fam->model_type);
    }
    if (!blk && (r->fam->flags & POSENC_FAMILY_MROPE)) {
        json_t *none = NULL;
        if (!(r->fam->mrope_default[0] + r->fam->mrope_default[1] + r->fam->mrope_default[2]) &&
            !(r->fam->flags & POSENC_FAMILY_MROPE_TWO_AXIS))
            return FAIL(r, POSENC_ERR_FORMAT, name,
                        "missing key %s (with mrope_section): family %s splits the rotary pairs "
                        "between the temporal, height and width positions by it",
                        name, r->fam->model_type);
        if ((st = prep_mrope(r, g, NULL, name, &none)) != POSENC_OK)
            return st;
    }
    if (blk) {
        if (json_typeof(blk) != JSON_OBJECT)
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be an object or null, got %s", name,
                        posenc__cfg_type_word(blk));
        json_t *own = NULL;
        if ((st = prepare_block(r, g, blk, name, &own)) != POSENC_OK)
            return st;
        st = posenc__cfg_scaling(&r->rd, own ? own : blk, cm->maxpos, cm->have_maxpos,
                                 cm->top_orig, cm->have_top_orig, c);
        json_decref(own);
        if (st != POSENC_OK)
            return st;
        if ((r->fam->flags & POSENC_FAMILY_LONG_FROM_MAXPOS) &&
            c->scaling.type == POSENC_ROPE_LONGROPE &&
            (st = long_from_maxpos(r, c, cm, blk, name)) != POSENC_OK)
            return st;
    }
    if ((st = mrope_split(r, g, blk, name)) != POSENC_OK)
        return st;
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

/* *out = times * hidden_size / heads (the family's defaults for absent keys). */
posenc_status hidden_per_head(mread *r, uint32_t times, int64_t *out)
{
    char name[96];
    int64_t hidden, heads;
    const char *hk, *nk;
    posenc_status st;
    if ((st = need_count(r, HIDDEN_KEYS, r->fam->default_hidden, &hidden, &hk)) != POSENC_OK ||
        (st = need_count(r, HEADS_KEYS, r->fam->default_heads, &heads, &nk)) != POSENC_OK)
        return st;
    if (heads == 0)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, nk, name, sizeof name), "%s must be at least 1",
                    name);
    *out = (int64_t)times * hidden / heads;
    return POSENC_OK;
}

/* The head size, rotary part and base shared by the RoPE layers. */
/* head_dim: qk_rope_head_dim (the rotated part of each head), else
 * head_dim, the family's key (kv_channels), its default, or hidden size /
 * heads. */
static posenc_status common_head_dim(mread *r, rope_common *cm)
{
    const posenc_model_family *f = r->fam;
    char name[96];
    int present;
    posenc_status st;
    if (f->rotary == POSENC_ROTARY_QK_ROPE) {
        static const char *const k[] = {"qk_rope_head_dim", NULL};
        if ((st = need_count(r, k, f->default_head_dim, &cm->head_dim, NULL)) != POSENC_OK)
            return st;
    } else if (f->quirks && f->quirks->head_dim) {
        if ((st = f->quirks->head_dim(r, &cm->head_dim)) != POSENC_OK)
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
        if (!present && (st = hidden_per_head(r, 1, &cm->head_dim)) != POSENC_OK)
            return st;
    }
    if (cm->head_dim < 2 || cm->head_dim > POSENC_ROPE_MAX_HEAD_DIM)
        return FAIL(r, POSENC_ERR_DIM, kn(r, "head_dim", name, sizeof name),
                    "the head size %lld is outside 2..%u", (long long)cm->head_dim,
                    POSENC_ROPE_MAX_HEAD_DIM);

    return POSENC_OK;
}

/* The name of the one RoPE block rp_single: transformers 5 reads a
 * rope_scaling block as its rope_parameters, rope_theta and
 * partial_rotary_factor included (modeling_rope_utils.py
 * convert_rope_params_to_dict). */
static const char *single_name(mread *r, const json_t *rp_single)
{
    return rp_single && rp_single == get(r->cfg, "rope_scaling") ? "rope_scaling"
                                                                  : "rope_parameters";
}

/* A family whose code rotates the whole head and reads no partial factor
 * (POSENC_ROTARY_WHOLE_HEAD): a partial_rotary_factor or rotary_pct other
 * than 1, in the block or at the top, is refused by its name. The block's
 * factor of rope type proportional is that type's own parameter, not the
 * rotated part, and is left to it. */
static posenc_status factor_unread(mread *r, const json_t *rp_single)
{
    char name[96], bk[48];
    posenc_status st;
    const json_t *rt = rp_single ? json_object_get(rp_single, "rope_type") : NULL;
    int prop = rt && json_is_string(rt) && strcmp(json_string_value(rt), "proportional") == 0;
    static const char *const keys[] = {"partial_rotary_factor", "rotary_pct"};
    for (int i = 0; i < 3; i++) {
        double v = 1.0;
        int have = 0;
        const json_t *from = i < 2 ? r->cfg : rp_single;
        if (i < 2)
            kn(r, keys[i], name, sizeof name);
        else if (!rp_single || prop)
            continue;
        else {
            snprintf(bk, sizeof bk, "%s.partial_rotary_factor", single_name(r, rp_single));
            kn(r, bk, name, sizeof name);
        }
        if ((st = posenc__cfg_number(&r->rd, from, i < 2 ? keys[i] : "partial_rotary_factor",
                                     name, &v, &have)) != POSENC_OK)
            return st;
        if (have && v != 1.0)
            return FAIL(r, POSENC_ERR_FORMAT, name,
                        "%s is %g, but family %s's code rotates the whole head and never reads "
                        "a partial factor (its default RoPE ignores it; a scaled type that "
                        "reads it fails on the size): posenc refuses rather than choose",
                        name, v, r->fam->model_type);
    }
    return POSENC_OK;
}

/* The rotated part of each head, by the family's rule. */
static posenc_status common_rotary(mread *r, const json_t *rp_single, rope_common *cm)
{
    const posenc_model_family *f = r->fam;
    char name[96];
    int present;
    posenc_status st;
    switch (f->rotary) {
    case POSENC_ROTARY_PARTIAL: {
        double prf = posenc__family_partial_default(f);
        const char *pk = posenc__family_partial_key(f);
        int have = 0;
        /* rope type proportional reads partial_rotary_factor as its own p and
         * always spans the whole head (modeling_rope_utils.py
         * _compute_proportional_rope_parameters) */
        const json_t *rt = rp_single ? json_object_get(rp_single, "rope_type") : NULL;
        if (rt && json_is_string(rt) && strcmp(json_string_value(rt), "proportional") == 0) {
            cm->rotary = cm->head_dim;
            break;
        }
        char bk[40];
        snprintf(bk, sizeof bk, "%s.partial_rotary_factor", single_name(r, rp_single));
        if (rp_single && (st = posenc__cfg_number(&r->rd, rp_single, "partial_rotary_factor",
                                                  kn(r, bk, name, sizeof name), &prf, &have)) !=
                             POSENC_OK)
            return st;
        if (have)
            pk = rp_single == get(r->cfg, "rope_scaling") ? "rope_scaling.partial_rotary_factor"
                                                          : "rope_parameters.partial_rotary_factor";
        static const char *const legacy[] = {"partial_rotary_factor", "rotary_pct", NULL};
        if (!have && (st = num(r, pk, &prf, &have)) != POSENC_OK)
            return st;
        for (int i = 0; !have && legacy[i]; i++) {
            if ((st = num(r, legacy[i], &prf, &have)) != POSENC_OK)
                return st;
            if (have)
                pk = legacy[i];
        }
        if (!have && (f->flags & POSENC_FAMILY_ROTARY_DIM)) {
            /* kwargs.setdefault("partial_rotary_factor", rotary_dim / head_dim):
             * only when no factor is given */
            int64_t rd;
            if ((st = count(r, "rotary_dim", &rd, &have)) != POSENC_OK)
                return st;
            if (have) {
                prf = (double)rd / (double)cm->head_dim;
                pk = "rotary_dim";
            }
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
    case POSENC_ROTARY_WHOLE_HEAD:
        cm->rotary = cm->head_dim;
        if ((st = factor_unread(r, rp_single)) != POSENC_OK)
            return st;
        break;
    }
    if (f->rotary == POSENC_ROTARY_HALF_HEAD || f->rotary == POSENC_ROTARY_QK_ROPE ||
        f->rotary == POSENC_ROTARY_WHOLE_HEAD)
        kn(r, f->rotary == POSENC_ROTARY_QK_ROPE    ? "qk_rope_head_dim"
              : f->rotary == POSENC_ROTARY_HALF_HEAD ? "kv_channels"
                                                     : "head_dim",
           name, sizeof name);
    if (cm->rotary < 2 || cm->rotary % 2 || cm->rotary > cm->head_dim)
        return FAIL(r, POSENC_ERR_RANGE, name,
                    "the rotary dimension comes out %lld for head size %lld; it must be even, at "
                    "least 2 and at most the head size",
                    (long long)cm->rotary, (long long)cm->head_dim);

    return POSENC_OK;
}

/* The base: rope_parameters.rope_theta, the family's key, legacy names
 * (or the family's own rule, and its checks: quirks). */
static posenc_status common_base(mread *r, const json_t *rp_single, rope_common *cm)
{
    const posenc_model_family *f = r->fam;
    char name[96];
    posenc_status st;
    int have = 0;
    cm->base = f->base_default;
    const char *base_key = posenc__family_base_key(f);
    cm->base_name = base_key ? base_key : "rope_theta";
    static const char *const legacy_base[] = {"rope_theta", "rotary_emb_base", NULL};
    if (!base_key) {
        /* a base fixed in the family's code: the usual keys are not read */
        note_ignored(r, "rope_theta");
        note_ignored(r, "rotary_emb_base");
        have = 1;
    } else if (f->quirks && f->quirks->own_base &&
               (st = f->quirks->own_base(r, cm, &have)) != POSENC_OK) {
        return st;
    }
    char bk[40];
    snprintf(bk, sizeof bk, "%s.rope_theta", single_name(r, rp_single));
    if (!have && rp_single) {
        if ((st = posenc__cfg_number(&r->rd, rp_single, "rope_theta",
                                     kn(r, bk, name, sizeof name), &cm->base, &have)) !=
            POSENC_OK)
            return st;
        if (have)
            cm->base_name = rp_single == get(r->cfg, "rope_scaling")
                                ? "rope_scaling.rope_theta"
                                : "rope_parameters.rope_theta";
    }
    if (!have && (st = num(r, base_key, &cm->base, &have)) != POSENC_OK)
        return st;
    for (int i = 0; !have && legacy_base[i]; i++) {
        if ((st = num(r, legacy_base[i], &cm->base, &have)) != POSENC_OK)
            return st;
        if (have)
            cm->base_name = legacy_base[i];
    }
    if (!have && f->base_default == 0.0 && (f->flags & POSENC_FAMILY_TYPE_SETS))
        return POSENC_OK; /* each layer type's set gives its base (config_layers.c) */
    if (!have && f->base_default == 0.0)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, base_key, name, sizeof name),
                    "missing key %s (family %s: no default posenc can vouch for)", name,
                    f->model_type);
    if (f->quirks && f->quirks->base_read && (st = f->quirks->base_read(r, cm)) != POSENC_OK)
        return st;
    if (!(isfinite(cm->base) && cm->base > 1.0))
        return FAIL(r, POSENC_ERR_BASE, kn(r, cm->base_name, name, sizeof name),
                    "%s must be finite and > 1, got %g", name, cm->base);

    return POSENC_OK;
}

posenc_status rope_common_read(mread *r, const json_t *rp_single, rope_common *cm)
{
    const posenc_model_family *f = r->fam;
    char name[96];
    int have;
    posenc_status st;
    memset(cm, 0, sizeof *cm);
    if ((st = common_head_dim(r, cm)) != POSENC_OK ||
        (st = common_rotary(r, rp_single, cm)) != POSENC_OK ||
        (st = common_base(r, rp_single, cm)) != POSENC_OK)
        return st;
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
    if (f->flags & POSENC_FAMILY_INDEXER) {
        /* the indexer's heads: index_head_dim elements, the first rotary_dim
         * rotated (its q_rot / q_pass split) */
        int64_t ih = f->indexer_head_dim_default;
        int present;
        if ((st = count(r, "index_head_dim", &ih, &present)) != POSENC_OK)
            return st;
        if (ih < cm->rotary || ih > POSENC_ROPE_MAX_HEAD_DIM)
            return FAIL(r, POSENC_ERR_DIM, kn(r, "index_head_dim", name, sizeof name),
                        "%s %lld must be from the rotated part (%lld) to %u", name,
                        (long long)ih, (long long)cm->rotary, POSENC_ROPE_MAX_HEAD_DIM);
        r->m->indexer_head_dim = (uint32_t)ih;
        r->m->indexer_layout = f->indexer_layout;
    }
    if ((st = count(r, "original_max_position_embeddings", &cm->top_orig, &cm->have_top_orig)) !=
        POSENC_OK)
        return st;
    return POSENC_OK;
}
