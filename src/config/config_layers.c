/* config_layers.c - which layers get which RoPE: layer_types or a
 * sliding-window pattern, NoPE layers, one RoPE per layer type, hybrid
 * models' layer kinds; part of the model reader (config_read.h). */
#include "config_read.h"

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
            /* a type of the family's own (3: no attention, LFM3's conv), else -1 */
            int own = s && f->quirks && f->quirks->layer_type ? f->quirks->layer_type(s) : -1;
            if (s && strcmp(s, "full_attention") == 0)
                kind[i] = 0;
            else if (s && strcmp(s, "sliding_attention") == 0)
                kind[i] = 1;
            else if (own >= 0)
                kind[i] = (uint8_t)own;
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
        if (f->flags & POSENC_FAMILY_LAST_LAYER_FULL)
            kind[n_layer - 1] = 0; /* Gemma 4: "Forcing last layer to full_attention" */
        return POSENC_OK;
    }
    int64_t pattern = f->sliding_pattern;
    int present;
    posenc_status st;
    if (f->flags & POSENC_FAMILY_GLOBAL_EVERY_N) {
        /* ModernBERT: "sliding_attention" if bool(i % global_attn_every_n_layers) */
        if ((st = count(r, "global_attn_every_n_layers", &pattern, &present)) != POSENC_OK)
            return st;
        if (pattern < 1)
            return FAIL(r, POSENC_ERR_RANGE, kn(r, "global_attn_every_n_layers", name, sizeof name),
                        "%s must be at least 1", name);
        for (int64_t i = 0; i < n_layer; i++)
            kind[i] = i % pattern != 0;
        return POSENC_OK;
    }
    st = count(r, "sliding_window_pattern", &pattern, &present);
    if (st != POSENC_OK)
        return st;
    if (!present && pattern == 0)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "layer_types", name, sizeof name),
                    "missing key %s (family %s has no default layer pattern posenc can vouch "
                    "for)",
                    name, f->model_type);
    for (int64_t i = 0; i < n_layer; i++)
        kind[i] = pattern > 0 && (i + 1) % pattern != 0;
    if (f->flags & POSENC_FAMILY_LAST_LAYER_FULL)
        kind[n_layer - 1] = 0;
    return POSENC_OK;
}

/* The RoPE blocks of the part: rope_parameters or rope_scaling (not both),
 * and whether rope_parameters holds one set per layer type (*per_type; a
 * family whose layers all rotate alike takes them as one set when they
 * agree, *rp then that set). bname: the name of the block for messages. */
static posenc_status rope_blocks(mread *r, const json_t **rp, const json_t *rs, int *per_type,
                                 char *bname, size_t bn)
{
    const posenc_model_family *f = r->fam;
    char name[96];
    *per_type = 0;
    if (*rp && rs)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "rope_parameters", name, sizeof name),
                    "both rope_parameters and rope_scaling are given: which one applies is "
                    "ambiguous");
    /* rope_parameters per layer type: every value an object named after a type */
    const json_t *same = NULL; /* per-type sets that are all equal: one set */
    if (!*rp || json_typeof(*rp) != JSON_OBJECT)
        return POSENC_OK;
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)*rp, k, v) {
        if (json_typeof(v) == JSON_OBJECT)
            *per_type = 1;
    }
    int all_equal = 1;
    json_object_foreach((json_t *)*rp, k, v) {
        if (!*per_type)
            break;
        snprintf(bname, bn, "%srope_parameters.%s", r->prefix, k);
        /* a null set: a layer type without RoPE, where the family's code says
         * so (Beam; its quirk checks which type) */
        if (json_typeof(v) == JSON_NULL && f->quirks && f->quirks->null_sets)
            continue;
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
    if (*per_type && f->layers != POSENC_LAYERS_BY_TYPE) {
        /* a family whose layers all rotate alike: the sets must agree */
        if (!all_equal)
            return FAIL(r, POSENC_ERR_FORMAT, bname,
                        "%s: family %s applies one RoPE to every layer, but rope_parameters "
                        "gives different sets per layer type",
                        bname, f->model_type);
        *rp = same;
        *per_type = 0;
    }
    return POSENC_OK;
}

/* What the groups of a part's layers read their RoPE from. */
typedef struct rope_source {
    rope_common cm;
    const json_t *rp;     /* rope_parameters (one set, or one per layer type) */
    const json_t *single; /* the one set (rope_parameters or rope_scaling), or NULL */
    int per_type;         /* rp holds one set per layer type */
    char bname[96];       /* the block's name for messages */
    int64_t full_head_dim; /* full_head_dim_key families: the full layers' head size */
} rope_source;

/* Gemma 4: the full-attention layers' head size. A config saved by
 * transformers 5.23 has per_layer_config ({"05": {"head_dim": 512, ...}},
 * which wins over global_head_dim: __post_init__ builds it only when it is
 * absent, configuration_gemma4.py L209-224); older ones global_head_dim;
 * else the class default. Per-layer keys that change positions other than
 * the full layers' head_dim are refused by name. */
static posenc_status full_head_dim(mread *r, int64_t n_layer, const uint8_t *kind,
                                   int64_t head_dim, int64_t *out)
{
    const posenc_model_family *f = r->fam;
    char name[96];
    int64_t hd = f->full_head_dim_default;
    int present;
    posenc_status st;
    if ((st = count(r, f->full_head_dim_key, &hd, &present)) != POSENC_OK)
        return st;
    const json_t *plc = get(r->cfg, "per_layer_config");
    if (plc) {
        kn(r, "per_layer_config", name, sizeof name);
        if (json_typeof(plc) != JSON_OBJECT)
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be an object, got %s", name,
                        posenc__cfg_type_word(plc));
        if (present)
            note_ignored(r, f->full_head_dim_key);
        int64_t full = -1;
        for (int64_t i = 0; i < n_layer; i++) {
            char k1[24], k2[24];
            snprintf(k1, sizeof k1, "%02lld", (long long)i);
            snprintf(k2, sizeof k2, "%lld", (long long)i);
            const json_t *e = json_object_get(plc, k1);
            if (!e)
                e = json_object_get(plc, k2);
            int64_t h = head_dim;
            snprintf(name, sizeof name, "%sper_layer_config.%s", r->prefix,
                     json_object_get(plc, k2) ? k2 : k1);
            if (e) {
                if (json_typeof(e) != JSON_OBJECT)
                    return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be an object, got %s",
                                name, posenc__cfg_type_word(e));
                static const char *const pos_keys[] = {"rope_parameters", "rope_scaling",
                                                       "rope_theta", "partial_rotary_factor",
                                                       "layer_types", NULL};
                for (int j = 0; pos_keys[j]; j++)
                    if (json_object_get(e, pos_keys[j]))
                        return FAIL(r, POSENC_ERR_FORMAT, name,
                                    "%s.%s: a per-layer RoPE setting is not in family %s's "
                                    "code as posenc reads it",
                                    name, pos_keys[j], f->model_type);
                const json_t *v = json_object_get(e, "head_dim");
                if (v) {
                    if (!json_is_integer(v) || json_integer_value(v) < 2 ||
                        json_integer_value(v) % 2 ||
                        json_integer_value(v) > (json_int_t)POSENC_ROPE_MAX_HEAD_DIM)
                        return FAIL(r, POSENC_ERR_DIM, name,
                                    "%s.head_dim must be an even integer from 2 to %u", name,
                                    POSENC_ROPE_MAX_HEAD_DIM);
                    h = (int64_t)json_integer_value(v);
                }
            }
            if (kind[i] && h != head_dim)
                return FAIL(r, POSENC_ERR_FORMAT, name,
                            "%s: a sliding_attention layer with its own head size is not in "
                            "family %s's code",
                            name, f->model_type);
            if (!kind[i] && full >= 0 && h != full)
                return FAIL(r, POSENC_ERR_FORMAT, name,
                            "%s: full_attention layers with different head sizes (%lld and "
                            "%lld) are not in family %s's code",
                            name, (long long)full, (long long)h, f->model_type);
            if (!kind[i])
                full = h;
        }
        /* no full layer at all: the value is not used */
        hd = full >= 0 ? full : head_dim;
    }
    *out = hd;
    return POSENC_OK;
}

/* A finite base > 1 at key of obj (name for messages) into *base when
 * present. */
static posenc_status base_at(mread *r, const json_t *obj, const char *key, const char *name,
                             double *base)
{
    double b = *base;
    int have = 0;
    posenc_status st = posenc__cfg_number(&r->rd, obj, key, name, &b, &have);
    if (st != POSENC_OK || !have)
        return st;
    if (!(b > 1.0))
        return FAIL(r, POSENC_ERR_BASE, name, "%s must be finite and > 1, got %g", name, b);
    *base = b;
    return POSENC_OK;
}

/* The group of layer type tname (BY_TYPE) under rule: no RoPE, or RoPE
 * with the config's base and scaling, its base unscaled, or the local
 * base; a per-type set of rope_parameters gives its own base and scaling.
 * *gi: the group's index. */
static posenc_status type_group(mread *r, const rope_source *src, posenc_type_rope rule,
                                const char *tname, int *gi)
{
    const posenc_model_family *f = r->fam;
    char name[96];
    if (rule == POSENC_TROPE_NONE) {
        *gi = add_group(r->m, POSENC_SCHEME_NONE, tname);
        return POSENC_OK;
    }
    *gi = add_group(r->m, POSENC_SCHEME_ROPE, tname);
    posenc_model_group *g = &r->m->group[*gi];
    double base = src->cm.base;
    posenc_status st;
    if (rule == POSENC_TROPE_LOCAL) {
        base = f->local_base_default;
        kn(r, f->local_base_key, name, sizeof name);
        if ((st = base_at(r, r->cfg, f->local_base_key, name, &base)) != POSENC_OK)
            return st;
        if (!(base > 1.0)) /* the default */
            return FAIL(r, POSENC_ERR_BASE, name, "%s must be finite and > 1, got %g", name,
                        base);
    }
    /* Gemma 4: full-attention layers have their own head size
     * (global_head_dim, per_layer_config), the whole of it rotated */
    rope_common fcm = src->cm;
    if (f->full_head_dim_key && strcmp(tname, "full_attention") == 0) {
        int64_t hd = src->full_head_dim;
        kn(r, f->full_head_dim_key, name, sizeof name);
        if (hd < 2 || hd % 2 || hd > POSENC_ROPE_MAX_HEAD_DIM)
            return FAIL(r, POSENC_ERR_DIM, name, "%s must be even, from 2 to %u, got %lld", name,
                        POSENC_ROPE_MAX_HEAD_DIM, (long long)hd);
        if (fcm.rotary != fcm.head_dim)
            return FAIL(r, POSENC_ERR_FORMAT, name,
                        "%s with a partial rotary part of head_dim: which part of the "
                        "full-attention head rotates is not in family %s's code",
                        name, f->model_type);
        fcm.head_dim = fcm.rotary = hd;
    }
    if (!src->per_type)
        return rope_group(r, g, &fcm, base, rule == POSENC_TROPE_SCALED ? src->single : NULL,
                          rule == POSENC_TROPE_SCALED ? src->bname : "");
    const json_t *set = get(src->rp, tname);
    char sname[96];
    snprintf(sname, sizeof sname, "%srope_parameters.%s", r->prefix, tname);
    rope_common cm = fcm;
    if (!set && (f->flags & POSENC_FAMILY_TYPE_SETS))
        return FAIL(r, POSENC_ERR_FORMAT, sname,
                    "missing key %s: family %s has layers of that type", sname, f->model_type);
    if (set) {
        char tkey[128];
        snprintf(tkey, sizeof tkey, "%s.rope_theta", sname);
        if ((f->flags & POSENC_FAMILY_TYPE_SETS) && !get(set, "rope_theta"))
            return FAIL(r, POSENC_ERR_FORMAT, tkey,
                        "missing key %s: family %s reads each layer type's base from its set",
                        tkey, f->model_type);
        if ((st = base_at(r, set, "rope_theta", tkey, &base)) != POSENC_OK)
            return st;
        if (f->flags & POSENC_FAMILY_TYPE_SETS) {
            /* dim = int(head_dim * set.get("partial_rotary_factor", default)) */
            double prf = posenc__family_partial_default(f);
            int have = 0;
            snprintf(tkey, sizeof tkey, "%s.partial_rotary_factor", sname);
            if ((st = posenc__cfg_number(&r->rd, set, "partial_rotary_factor", tkey, &prf,
                                         &have)) != POSENC_OK)
                return st;
            /* a top-level factor beside a set without its own: whether it
             * reaches the set depends on the config class (Step3p7's copies it
             * in, convert_rope_params_to_dict's setdefault, modeling_rope_utils.py
             * L789-796; Mellum's and UltraBERT's leave it out, the probe shows),
             * so it is refused rather than read either way */
            char top[96];
            if (!have && get(r->cfg, "partial_rotary_factor"))
                return FAIL(r, POSENC_ERR_FORMAT, kn(r, "partial_rotary_factor", top, sizeof top),
                            "%s beside the per-type set %s, which has none: whether family %s's "
                            "config class copies it into the set is not settled; give %s",
                            top, sname, f->model_type, tkey);
            if (!(prf > 0.0 && prf <= 1.0))
                return FAIL(r, POSENC_ERR_RANGE, tkey, "%s must be in (0, 1], got %g", tkey, prf);
            if (have && prf != 1.0 && f->rotary == POSENC_ROTARY_WHOLE_HEAD)
                return FAIL(r, POSENC_ERR_FORMAT, tkey,
                            "%s is %g, but family %s's code rotates the whole head and never "
                            "reads a partial factor: posenc refuses rather than choose",
                            tkey, prf, f->model_type);
            cm.rotary = (int64_t)floor((double)cm.head_dim * prf);
            if (cm.rotary < 2 || cm.rotary % 2)
                return FAIL(r, POSENC_ERR_RANGE, tkey,
                            "the rotary dimension comes out %lld for head size %lld; it must be "
                            "even and at least 2",
                            (long long)cm.rotary, (long long)cm.head_dim);
        } else {
            /* a set's own partial_rotary_factor (proportional reads it as
             * its p): only where it gives the rotated part the family's
             * code already rotates; anything else is a rule posenc does not
             * know for this family, refused rather than skipped */
            const json_t *rt = get(set, "rope_type");
            int prop = rt && json_is_string(rt) &&
                       strcmp(json_string_value(rt), "proportional") == 0;
            double prf = 1.0;
            int have = 0;
            snprintf(tkey, sizeof tkey, "%s.partial_rotary_factor", sname);
            if (!prop && (st = posenc__cfg_number(&r->rd, set, "partial_rotary_factor", tkey,
                                                  &prf, &have)) != POSENC_OK)
                return st;
            if (have && (int64_t)floor((double)cm.head_dim * prf) != cm.rotary)
                return FAIL(r, POSENC_ERR_FORMAT, tkey,
                            "%s %g would rotate %lld of %lld dimensions where family %s rotates "
                            "%lld: a per-layer-type rotary part posenc does not implement for "
                            "this family",
                            tkey, prf, (long long)floor((double)cm.head_dim * prf),
                            (long long)cm.head_dim, f->model_type, (long long)cm.rotary);
        }
    }
    return rope_group(r, g, &cm, base, set, sname);
}

/* BY_TYPE: full and sliding layers (layer_types, or the family's pattern),
 * each type with the RoPE of the family's rule for it. */
static posenc_status by_type(mread *r, int64_t n_layer, uint8_t *kind, const rope_source *src)
{
    const posenc_model_family *f = r->fam;
    posenc_status st = layer_kinds(r, n_layer, kind);
    if (st != POSENC_OK)
        return st;
    if ((f->flags & POSENC_FAMILY_GLOBAL_EVERY_N) && get(r->cfg, "rope_scaling")) {
        char name[96];
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "rope_scaling", name, sizeof name),
                    "%s: family %s applies it to both layer types, each with its own base; "
                    "posenc scales only the full layers' RoPE",
                    name, f->model_type);
    }
    if (f->quirks && f->quirks->by_type && (st = f->quirks->by_type(r, n_layer, kind)) != POSENC_OK)
        return st;
    rope_source fsrc = *src;
    if (f->full_head_dim_key &&
        (st = full_head_dim(r, n_layer, kind, src->cm.head_dim, &fsrc.full_head_dim)) != POSENC_OK)
        return st;
    src = &fsrc;
    /* EXAONE 4: "if self.sliding_window is None or self.is_sliding" rotates
     * (an absent key is the class default 4096, not None) */
    const json_t *sw = json_object_get(r->cfg, "sliding_window");
    int all_rope =
        (f->flags & POSENC_FAMILY_ROPE_WITHOUT_WINDOW) && sw && json_typeof(sw) == JSON_NULL;
    int gi[4] = {-1, -1, -1, -1};
    for (int64_t i = 0; i < n_layer; i++) {
        int t = kind[i];
        if (gi[t] < 0 && t == 3) {
            if (r->m->n_group >= POSENC_MODEL_MAX_GROUPS)
                return FAIL(r, POSENC_ERR_FORMAT, "", "family %s: too many layer types",
                            f->model_type);
            gi[t] = add_group(r->m, POSENC_SCHEME_NONE, "conv");
            r->m->group[gi[t]].reason = "short convolution layer: no attention";
        }
        if (gi[t] < 0) {
            posenc_type_rope rule = t == 1 ? f->sliding_rope : f->full_rope;
            if (all_rope || t == 2) /* t == 2: a full layer forced to rotate */
                rule = POSENC_TROPE_SCALED;
            st = type_group(r, src, rule, t == 1 ? "sliding_attention" : "full_attention", &gi[t]);
            if (st != POSENC_OK)
                return st;
        }
        r->m->layer_group[i] = (uint8_t)gi[t];
    }
    return POSENC_OK;
}

/* NO_ROPE: kind[i] = 1 for a layer without RoPE, from no_rope_layers (1 =
 * RoPE, 0 = none), else every no_rope_layer_interval-th layer. */
static posenc_status nope_kinds(mread *r, int64_t n_layer, uint8_t *kind)
{
    char name[96];
    note_ignored(r, "layer_types"); /* masks only */
    note_ignored(r, "nope_layer_interval"); /* the code reads no_rope_layer_interval */
    const json_t *nl = get(r->cfg, "no_rope_layers");
    kn(r, "no_rope_layers", name, sizeof name);
    if (nl && json_typeof(nl) != JSON_ARRAY)
        return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be an array of 0 and 1, got %s", name,
                    posenc__cfg_type_word(nl));
    if (nl && json_array_size(nl) > 0) {
        /* "List with at least the same length as the number of layers" */
        if ((int64_t)json_array_size(nl) < n_layer)
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s has %zu entries for %lld layers", name,
                        json_array_size(nl), (long long)n_layer);
        for (int64_t i = 0; i < n_layer; i++) {
            const json_t *e = json_array_get(nl, (size_t)i);
            json_type et = json_typeof(e); /* e: an entry, not NULL */
            if (et != JSON_INTEGER && et != JSON_TRUE && et != JSON_FALSE)
                return FAIL(r, POSENC_ERR_FORMAT, name, "%s[%lld] must be 0 or 1, got %s", name,
                            (long long)i, posenc__cfg_type_word(e));
            int use = et == JSON_TRUE || json_integer_value(e) != 0;
            kind[i] = !use;
        }
        return POSENC_OK;
    }
    int64_t every = r->fam->no_rope_interval;
    int present;
    posenc_status st = count(r, "no_rope_layer_interval", &every, &present);
    if (st != POSENC_OK)
        return st;
    if (every == 0)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "no_rope_layer_interval", name, sizeof name),
                    "%s must be at least 1", name);
    for (int64_t i = 0; i < n_layer; i++)
        kind[i] = (i + 1) % every == 0;
    return POSENC_OK;
}

/* Llama 4's NoPE layers: attn_temperature_tuning (any nonzero value: on;
 * absent: on; null: off), floor_scale and attn_scale into *q. */
static posenc_status temperature(mread *r, posenc_query_scale *q)
{
    char name[96];
    const json_t *tt = json_object_get(r->cfg, "attn_temperature_tuning");
    json_type tty = tt ? json_typeof(tt) : JSON_TRUE; /* absent: on */
    if (tty == JSON_OBJECT || tty == JSON_ARRAY || tty == JSON_STRING)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "attn_temperature_tuning", name, sizeof name),
                    "%s must be true or false, got %s", name, posenc__cfg_type_word(tt));
    /* true, or a nonzero number; null is off */
    int on = tty == JSON_TRUE || json_number_value(tt) != 0;
    int present;
    q->floor_scale = 8192.0;
    q->attn_scale = 0.1;
    posenc_status st;
    if ((st = num(r, "floor_scale", &q->floor_scale, &present)) != POSENC_OK ||
        (st = num(r, "attn_scale", &q->attn_scale, &present)) != POSENC_OK)
        return st;
    if (!(q->floor_scale > 0))
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "floor_scale", name, sizeof name),
                    "%s must be finite and > 0", name);
    q->type = on ? POSENC_QUERY_SCALE_TEMPERATURE : POSENC_QUERY_SCALE_NONE;
    return POSENC_OK;
}

/* NO_ROPE: the RoPE layers' group and the NoPE layers' (with the family's
 * query scaling). */
static posenc_status nope_layers(mread *r, int64_t n_layer, uint8_t *kind, const rope_source *src)
{
    posenc_status st = nope_kinds(r, n_layer, kind);
    int gi[2] = {-1, -1};
    for (int64_t i = 0; i < n_layer && st == POSENC_OK; i++) {
        int t = kind[i];
        if (gi[t] < 0) {
            gi[t] = add_group(r->m, t ? POSENC_SCHEME_NONE : POSENC_SCHEME_ROPE, "");
            if (!t)
                st = rope_group(r, &r->m->group[gi[t]], &src->cm, src->cm.base, src->single,
                                src->bname);
            else if (r->fam->qscale == POSENC_QUERY_SCALE_TEMPERATURE)
                st = temperature(r, &r->m->group[gi[t]].qscale);
        }
        r->m->layer_group[i] = (uint8_t)gi[t];
    }
    return st;
}

/* ---- KINDS: hybrid models ------------------------------------------------------- */

/* The kind of the family named name (n bytes), or -1. */
static int kind_named(const posenc_model_family *f, const char *name, size_t n)
{
    for (int k = 0; f->kinds[k].name; k++)
        if (strlen(f->kinds[k].name) == n && strncmp(f->kinds[k].name, name, n) == 0)
            return k;
    return -1;
}

/* "conv, full_attention": the names of the family's kinds, for messages. */
static const char *kind_names(const posenc_model_family *f, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; f->kinds[k].name && len < n; k++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", k ? ", " : "", f->kinds[k].name);
    return buf;
}

/* The per-layer list of a KINDS family: kinds_key (NULL: layer_types or
 * layers_block_type, the names transformers' attribute_map makes one), or
 * the pattern string; *key its name, NULL when the config has neither. */
static const json_t *kinds_list(mread *r, const char **key)
{
    const posenc_model_family *f = r->fam;
    static const char *const lists[] = {"layer_types", "layers_block_type"};
    const json_t *v;
    if (f->kinds_key) {
        *key = f->kinds_key;
        if ((v = get(r->cfg, f->kinds_key)) != NULL)
            return v;
    } else {
        for (size_t i = 0; i < 2; i++) {
            *key = lists[i];
            if ((v = get(r->cfg, lists[i])) != NULL)
                return v;
        }
    }
    *key = f->pattern_key;
    return f->pattern_key ? get(r->cfg, f->pattern_key) : NULL;
}

posenc_status kinds_layer_count(mread *r, int64_t *n)
{
    const char *key;
    const json_t *v = kinds_list(r, &key);
    *n = 0;
    if (v && json_typeof(v) == JSON_ARRAY)
        *n = (int64_t)json_array_size(v);
    else if (v && json_typeof(v) == JSON_STRING)
        *n = (int64_t)json_string_length(v);
    return POSENC_OK;
}

/* The value at a dotted path ("linear_attn_config.full_attn_layers") of
 * obj, or NULL. */
static const json_t *get_path(const json_t *obj, const char *path)
{
    char part[64];
    const char *dot;
    while (obj && (dot = strchr(path, '.')) != NULL) {
        snprintf(part, sizeof part, "%.*s", (int)(dot - path), path);
        obj = get(obj, part);
        if (obj && json_typeof(obj) != JSON_OBJECT)
            return NULL;
        path = dot + 1;
    }
    return obj ? get(obj, path) : NULL;
}

/* kind[i] = the kind of each layer, from the first rule the config (or the
 * family's defaults) gives: the per-layer list, the pattern string, the
 * index list, the period. */
static posenc_status kinds_of(mread *r, int64_t n_layer, uint8_t *kind)
{
    const posenc_model_family *f = r->fam;
    char name[96], names[160];
    const char *key;
    const json_t *v = kinds_list(r, &key);
    if (v) {
        kn(r, key, name, sizeof name);
        int is_pattern = f->pattern_key && strcmp(key, f->pattern_key) == 0;
        if (is_pattern ? json_typeof(v) != JSON_STRING : json_typeof(v) != JSON_ARRAY)
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be %s, got %s", name,
                        is_pattern ? "a string" : "an array of strings", posenc__cfg_type_word(v));
        int64_t len = is_pattern ? (int64_t)json_string_length(v) : (int64_t)json_array_size(v);
        int64_t repeats = is_pattern || !f->quirks ? 0 : f->quirks->list_repeats;
        int cycles = repeats > 0;
        if (cycles ? len < 1 || n_layer > repeats * len : len != n_layer)
            return cycles ? FAIL(r, POSENC_ERR_FORMAT, name,
                                 "%s has %lld entries, repeated %lld times, for %lld layers", name,
                                 (long long)len, (long long)repeats, (long long)n_layer)
                          : FAIL(r, POSENC_ERR_FORMAT, name, "%s has %lld entries for %lld layers",
                                 name, (long long)len, (long long)n_layer);
        for (int64_t i = 0; i < n_layer; i++) {
            /* (RecurrentGemma: layer i is block_types[i % len]) */
            const json_t *e = is_pattern ? NULL : json_array_get(v, (size_t)(cycles ? i % len : i));
            if (!is_pattern && json_typeof(e) != JSON_STRING)
                return FAIL(r, POSENC_ERR_FORMAT, name, "%s[%lld] must be a string, got %s",
                            name, (long long)i, posenc__cfg_type_word(e));
            const char *s = is_pattern ? json_string_value(v) + i : json_string_value(e);
            size_t sn = is_pattern ? 1 : json_string_length(e);
            int k = kind_named(f, s, sn);
            if (k < 0)
                return FAIL(r, POSENC_ERR_FORMAT, name,
                            "%s[%lld] '%.*s' is not a layer kind of family %s (%s)", name,
                            (long long)i, (int)(sn < 40 ? sn : 40), s, f->model_type,
                            kind_names(f, names, sizeof names));
            kind[i] = (uint8_t)k;
        }
        return POSENC_OK;
    }
    const json_t *idx = f->index_key ? get_path(r->cfg, f->index_key) : NULL;
    if (idx) {
        kn(r, f->index_key, name, sizeof name);
        if (json_typeof(idx) != JSON_ARRAY)
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be an array of layer indices, got %s",
                        name, posenc__cfg_type_word(idx));
        memset(kind, 1, (size_t)n_layer);
        for (size_t j = 0; j < json_array_size(idx); j++) {
            const json_t *e = json_array_get(idx, j);
            if (json_typeof(e) != JSON_INTEGER)
                return FAIL(r, POSENC_ERR_FORMAT, name, "%s[%zu] must be a layer index, got %s",
                            name, j, posenc__cfg_type_word(e));
            json_int_t li = json_integer_value(e) - (json_int_t)f->index_base;
            if (li < 0 || li >= n_layer)
                return FAIL(r, POSENC_ERR_RANGE, name, "%s[%zu] = %lld is not a layer (%u..%lld)",
                            name, j, (long long)json_integer_value(e), f->index_base,
                            (long long)n_layer - 1 + f->index_base);
            kind[li] = 0;
        }
        return POSENC_OK;
    }
    if (f->index_key && f->quirks && f->quirks->kinds_unlisted) {
        f->quirks->kinds_unlisted(n_layer, kind);
        return POSENC_OK;
    }
    if (f->kinds_period || f->period_key) {
        int64_t period = f->kinds_period, offset = f->kinds_offset;
        int present;
        posenc_status st;
        if (f->period_key && (st = count(r, f->period_key, &period, &present)) != POSENC_OK)
            return st;
        if (period < 1)
            return FAIL(r, POSENC_ERR_RANGE, kn(r, f->period_key ? f->period_key : "", name,
                                                sizeof name),
                        "%s must be at least 1", name);
        if (f->kinds_offset == KINDS_LAST)
            offset = period - 1;
        if (f->offset_key && (st = count(r, f->offset_key, &offset, &present)) != POSENC_OK)
            return st;
        if (offset >= period)
            return FAIL(r, POSENC_ERR_RANGE, kn(r, f->offset_key ? f->offset_key : "", name,
                                                sizeof name),
                        "%s %lld must be below the period %lld", name, (long long)offset,
                        (long long)period);
        int placed = 0;
        for (int64_t i = 0; i < n_layer; i++) {
            kind[i] = i % period != offset;
            placed |= !kind[i];
        }
        if (f->quirks && f->quirks->kinds_by_period)
            f->quirks->kinds_by_period(n_layer, kind, placed);
        return POSENC_OK;
    }
    kn(r, f->index_key ? f->index_key : f->kinds_key ? f->kinds_key : "layer_types", name,
       sizeof name);
    return FAIL(r, POSENC_ERR_FORMAT, name,
                "missing key %s (family %s has no default layer pattern posenc can vouch for)",
                name, f->model_type);
}

/* KINDS: one group per kind in use (kinds of one type and rule share it):
 * the config's RoPE, or none with the kind's reason. */
static posenc_status kinds_layers(mread *r, int64_t n_layer, uint8_t *kind, const rope_source *src)
{
    const posenc_model_family *f = r->fam;
    posenc_status st = kinds_of(r, n_layer, kind);
    if (st != POSENC_OK)
        return st;
    int rope_on = 1;
    const char *off_why = "NoPE attention layer: position_embedding_type is not rope";
    if (f->quirks && f->quirks->kinds_rope &&
        (st = f->quirks->kinds_rope(r, &rope_on, &off_why)) != POSENC_OK)
        return st;
    int gi[256];
    for (int k = 0; k < 256; k++)
        gi[k] = -1;
    for (int64_t i = 0; i < n_layer; i++) {
        int k = kind[i];
        if (gi[k] < 0) {
            const posenc_layer_kind *lk = &f->kinds[k];
            const char *type = lk->type ? lk->type : lk->name;
            int none = lk->rope == POSENC_TROPE_NONE || !rope_on;
            const char *why = lk->rope == POSENC_TROPE_NONE ? lk->reason : off_why;
            /* a kind of the same type and rule already has a group */
            for (int j = 0; j < k && gi[k] < 0; j++) {
                const posenc_layer_kind *o = &f->kinds[j];
                if (gi[j] >= 0 && strcmp(o->type ? o->type : o->name, type) == 0 &&
                    o->rope == lk->rope)
                    gi[k] = gi[j];
            }
            if (gi[k] < 0) {
                if (r->m->n_group >= POSENC_MODEL_MAX_GROUPS)
                    return FAIL(r, POSENC_ERR_FORMAT, "", "family %s: more than %u layer kinds",
                                f->model_type, POSENC_MODEL_MAX_GROUPS);
                gi[k] = add_group(r->m, none ? POSENC_SCHEME_NONE : POSENC_SCHEME_ROPE, type);
                posenc_model_group *g = &r->m->group[gi[k]];
                if (none)
                    g->reason = why;
                else if ((st = rope_group(r, g, &src->cm, src->cm.base, src->single,
                                          src->bname)) != POSENC_OK)
                    return st;
            }
        }
        r->m->layer_group[i] = (uint8_t)gi[k];
    }
    return POSENC_OK;
}

/* KINDS: whether any kind of the family rotates. */
static int kinds_rotate(const posenc_model_family *f)
{
    for (int k = 0; f->kinds[k].name; k++)
        if (f->kinds[k].rope != POSENC_TROPE_NONE)
            return 1;
    return 0;
}
static posenc_status rope_read_family(mread *r, int64_t n_layer, rope_source *srcp);

posenc_status read_rope_family(mread *r, int64_t n_layer)
{
    rope_source src;
    if (r->fam->layers == POSENC_LAYERS_KINDS && !kinds_rotate(r->fam)) {
        /* no layer rotates (Jamba, Nemotron-H): no RoPE keys are read */
        uint8_t *kind = calloc((size_t)n_layer, 1);
        if (!kind)
            return FAIL(r, POSENC_ERR_NOMEM, "", "out of memory");
        memset(&src, 0, sizeof src);
        posenc_status st = kinds_layers(r, n_layer, kind, &src);
        free(kind);
        return st;
    }
    src.rp = get(r->cfg, "rope_parameters");
    /* the config class's own rope_parameters when the config gives none
     * (Gemma4TextConfig.__post_init__: default_rope_params) */
    json_t *class_rp = NULL;
    if (!src.rp && !get(r->cfg, "rope_scaling") && r->fam->default_rope_parameters) {
        class_rp = json_loads(r->fam->default_rope_parameters, 0, NULL);
        if (!class_rp)
            return FAIL(r, POSENC_ERR_NOMEM, "", "out of memory");
        src.rp = class_rp;
    }
    posenc_status st = rope_read_family(r, n_layer, &src);
    json_decref(class_rp);
    return st;
}

static posenc_status rope_read_family(mread *r, int64_t n_layer, rope_source *srcp)
{
    rope_source src = *srcp;
    posenc_status st = rope_blocks(r, &src.rp, get(r->cfg, "rope_scaling"), &src.per_type,
                                   src.bname, sizeof src.bname);
    if (st != POSENC_OK)
        return st;
    const json_t *rs = get(r->cfg, "rope_scaling");
    if ((r->fam->flags & POSENC_FAMILY_TYPE_SETS) && !src.per_type)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "rope_parameters", src.bname, sizeof src.bname),
                    "missing %s per layer type (full_attention, sliding_attention): family %s "
                    "reads each type's base and rotary part from its own set",
                    src.bname, r->fam->model_type);
    src.single = src.per_type ? NULL : (src.rp ? src.rp : rs);
    if ((st = rope_common_read(r, src.single, &src.cm)) != POSENC_OK)
        return st;
    snprintf(src.bname, sizeof src.bname, "%s%s", r->prefix,
             src.rp ? "rope_parameters" : "rope_scaling");

    uint8_t *kind = calloc((size_t)n_layer, 1);
    if (!kind)
        return FAIL(r, POSENC_ERR_NOMEM, "", "out of memory");
    switch (r->fam->layers) {
    case POSENC_LAYERS_BY_TYPE: st = by_type(r, n_layer, kind, &src); break;
    case POSENC_LAYERS_NO_ROPE: st = nope_layers(r, n_layer, kind, &src); break;
    case POSENC_LAYERS_KINDS: st = kinds_layers(r, n_layer, kind, &src); break;
    default:
        /* every layer alike; layer_types only choose attention masks here */
        note_ignored(r, "layer_types");
        add_group(r->m, POSENC_SCHEME_ROPE, "");
        st = rope_group(r, &r->m->group[0], &src.cm, src.cm.base, src.single, src.bname);
        break;
    }
    free(kind);
    if (st == POSENC_OK && r->fam->quirks && r->fam->quirks->layers_read)
        st = r->fam->quirks->layers_read(r);
    return st;
}
