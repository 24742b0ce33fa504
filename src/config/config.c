/* config.c - reads a model's RoPE from a Hugging Face config.json.
 *
 * An optional part: built into libposenc_config.a only when jansson is found
 * (see the Makefile), so that libposenc needs nothing but libc and libm.
 * Why jansson: it reports the line and column of a syntax error, can reject
 * duplicate keys (JSON_REJECT_DUPLICATES: a config with two "rope_theta"
 * is ambiguous), tells integers from reals, is packaged in Debian as
 * libjansson-dev with a pkg-config file, and is actively maintained.
 *
 * The reader refuses, with a message naming the key, anything it does not
 * understand: a key inside rope_scaling that the type does not use could
 * change the frequencies, so silently skipping it would compute a different
 * model. Keys outside the RoPE block are ignored (a config has many). */
#include "config_internal.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CONFIG_BYTES POSENC_CONFIG_MAX_BYTES


posenc_status posenc__cfg_fail(reader *rd, posenc_status st, const char *key, const char *fmt, ...)
{
    if (rd->err) {
        snprintf(rd->err->key, sizeof rd->err->key, "%s", key ? key : "");
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(rd->err->detail, sizeof rd->err->detail, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* "rope_scaling.factor" for a key of the block. */
static const char *bkey(reader *rd, const char *key, char *buf, size_t n)
{
    snprintf(buf, n, "%s.%s", rd->block, key);
    return buf;
}

const char *posenc__cfg_type_word(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "something else";
}

/* The value at key, or NULL when absent or null; *present says which. */
static const json_t *value_at(const json_t *obj, const char *key, int *present)
{
    const json_t *v = json_object_get(obj, key);
    *present = v && !json_is_null(v);
    return *present ? v : NULL;
}

/* A number at key (absent or null: *present = 0). name: for messages. */
posenc_status posenc__cfg_number(reader *rd, const json_t *obj, const char *key, const char *name,
                                double *out, int *present)
{
    const json_t *v = value_at(obj, key, present);
    if (!v)
        return POSENC_OK;
    *present = 0;
    if (!json_is_number(v))
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, name, "%s must be a number, got %s", name,
                    posenc__cfg_type_word(v));
    *out = json_number_value(v);
    *present = 1;
    return POSENC_OK;
}

/* A non-negative integer (an integral real such as 4096.0 is accepted). */
posenc_status posenc__cfg_count(reader *rd, const json_t *obj, const char *key, const char *name,
                               int64_t *out, int *present)
{
    double v;
    posenc_status st = posenc__cfg_number(rd, obj, key, name, &v, present);
    if (st != POSENC_OK || !*present)
        return st;
    const json_t *j = json_object_get(obj, key);
    char shown[32]; /* the value as the file wrote it: an integer exactly */
    if (json_is_integer(j))
        snprintf(shown, sizeof shown, "%" JSON_INTEGER_FORMAT, json_integer_value(j));
    else
        snprintf(shown, sizeof shown, "%.17g", v);
    if (!(v >= 0 && v == floor(v)))
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, name,
                                "%s must be a non-negative integer, got %s", name, shown);
    if (v > 9.0e15) /* an integer, but past what a double counts exactly */
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, name,
                                "%s is %s, past the largest count posenc reads (9e15; a "
                                "length in tokens is at most 2^31)",
                                name, shown);
    *out = (int64_t)v;
    return POSENC_OK;
}

posenc_status posenc__cfg_bool(reader *rd, const json_t *obj, const char *key, const char *name,
                              int *out, int *present)
{
    const json_t *v = value_at(obj, key, present);
    if (!v)
        return POSENC_OK;
    *present = 0;
    if (!json_is_boolean(v))
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, name, "%s must be true or false, got %s", name,
                    posenc__cfg_type_word(v));
    *out = json_is_true(v);
    *present = 1;
    return POSENC_OK;
}

/* A list of want numbers into out. */
static posenc_status get_list(reader *rd, const json_t *obj, const char *key, size_t want,
                              double *out, size_t *n)
{
    char name[96];
    bkey(rd, key, name, sizeof name);
    const json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v))
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, name, "missing key %s (longrope needs it)", name);
    if (!json_is_array(v))
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, name, "%s must be an array of numbers, got %s", name,
                    posenc__cfg_type_word(v));
    if (json_array_size(v) != want)
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, name,
                    "%s has %zu values, but the rotary dimension needs one per pair: %zu", name,
                    json_array_size(v), want);
    for (size_t i = 0; i < want; i++) {
        const json_t *e = json_array_get(v, i);
        if (!json_is_number(e))
            return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, name, "%s[%zu] must be a number, got %s", name, i,
                        posenc__cfg_type_word(e));
        out[i] = json_number_value(e);
    }
    *n = want;
    return POSENC_OK;
}

/* The keys each type reads from the RoPE block (beside rope_type/type and,
 * in rope_parameters, rope_theta and partial_rotary_factor). */
static const char *const KEYS_FACTOR[] = {"factor", NULL};
static const char *const KEYS_DYNAMIC[] = {"factor", "original_max_position_embeddings", NULL};
static const char *const KEYS_YARN[] = {"factor",         "original_max_position_embeddings",
                                        "beta_fast",      "beta_slow",
                                        "mscale",         "mscale_all_dim",
                                        "attention_factor", "truncate",
                                        NULL};
static const char *const KEYS_LLAMA3[] = {"factor", "low_freq_factor", "high_freq_factor",
                                          "original_max_position_embeddings", NULL};
static const char *const KEYS_LONGROPE[] = {"short_factor", "long_factor", "factor",
                                            "attention_factor",
                                            "original_max_position_embeddings", NULL};
/* proportional (Gemma 4): partial_rotary_factor is the scaling's own p here,
 * not the rotated part of the head (modeling_rope_utils.py
 * _compute_proportional_rope_parameters reads rope_theta, factor and
 * partial_rotary_factor from the set) */
static const char *const KEYS_PROPORTIONAL[] = {"factor", "partial_rotary_factor", NULL};
static const char *const KEYS_NONE[] = {NULL};

static const char *const *keys_of(posenc_rope_type t)
{
    switch (t) {
    case POSENC_ROPE_LINEAR:
    case POSENC_ROPE_NTK: return KEYS_FACTOR;
    case POSENC_ROPE_DYNAMIC: return KEYS_DYNAMIC;
    case POSENC_ROPE_YARN: return KEYS_YARN;
    case POSENC_ROPE_LLAMA3: return KEYS_LLAMA3;
    case POSENC_ROPE_LONGROPE: return KEYS_LONGROPE;
    case POSENC_ROPE_PROPORTIONAL: return KEYS_PROPORTIONAL;
    default: return KEYS_NONE;
    }
}

static int key_in(const char *key, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(key, *list) == 0)
            return 1;
    return 0;
}

/* A required number of the block. */
static posenc_status need_number(reader *rd, const json_t *rs, const char *key, double *out)
{
    char name[96];
    int present;
    bkey(rd, key, name, sizeof name);
    posenc_status st = posenc__cfg_number(rd, rs, key, name, out, &present);
    if (st == POSENC_OK && !present)
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, name, "missing key %s", name);
    return st;
}

static posenc_status opt_number(reader *rd, const json_t *rs, const char *key, double *out)
{
    char name[96];
    int present;
    return posenc__cfg_number(rd, rs, key, bkey(rd, key, name, sizeof name), out, &present);
}

/* The RoPE block of a bare config: rope_parameters (new transformers) or
 * rope_scaling, not both (*rp: rope_parameters when that is the one), with
 * no per-layer-type sets; rd->block names it. */
static posenc_status bare_block(reader *rd, const json_t *root, const json_t **rp,
                                const json_t **rs)
{
    char name[96];
    const json_t *p = json_object_get(root, "rope_parameters");
    const json_t *rsc = json_object_get(root, "rope_scaling");
    if (p && json_is_null(p))
        p = NULL;
    if (rsc && json_is_null(rsc))
        rsc = NULL;
    *rp = p;
    if (p && rsc)
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, "rope_parameters",
                    "both rope_parameters and rope_scaling are given: which one applies is "
                    "ambiguous");
    *rs = p ? p : rsc;
    rd->block = p ? "rope_parameters" : "rope_scaling";
    if (*rs && !json_is_object(*rs))
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, rd->block, "%s must be an object or null, got %s",
                    rd->block, posenc__cfg_type_word(*rs));
    if (*rs) {
        const char *k;
        const json_t *v;
        json_object_foreach((json_t *)*rs, k, v) {
            if (json_is_object(v))
                return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, bkey(rd, k, name, sizeof name),
                            "%s is an object: per-layer-type RoPE parameters are not supported",
                            name);
        }
    }

    return POSENC_OK;
}

/* The base of a bare config: the block's rope_theta, else the top-level
 * rope_theta or rotary_emb_base, else posenc's default. */
static posenc_status bare_base(reader *rd, const json_t *root, const json_t *rs, double *out)
{
    char name[96];
    posenc_status st;
    double base = POSENC_DEFAULT_BASE;
    int have_base = 0;
    /* transformers 5 reads a rope_scaling block as its rope_parameters: a
     * rope_theta (or partial_rotary_factor) inside either block wins over the
     * top-level key (modeling_rope_utils.py convert_rope_params_to_dict,
     * "Priority for these parameters") */
    if (rs && (st = posenc__cfg_number(rd, rs, "rope_theta", bkey(rd, "rope_theta", name, sizeof name),
                                       &base, &have_base)) != POSENC_OK)
        return st;
    if (!have_base &&
        (st = posenc__cfg_number(rd, root, "rope_theta", "rope_theta", &base, &have_base)) != POSENC_OK)
        return st;
    if (!have_base && (st = posenc__cfg_number(rd, root, "rotary_emb_base", "rotary_emb_base", &base,
                                       &have_base)) != POSENC_OK)
        return st;
    if (!(isfinite(base) && base > 1.0))
        return posenc__cfg_fail(rd, POSENC_ERR_BASE, "rope_theta", "rope_theta must be finite and > 1, got %g",
                    base);
    *out = base;
    return POSENC_OK;
}

/* The head size of a bare config (qk_rope_head_dim, head_dim, or
 * hidden_size / num_attention_heads) and its layout (DeepSeek's
 * qk_rope_head_dim: interleaved; rope_interleave). */
static posenc_status bare_head(reader *rd, const json_t *root, int64_t *out,
                               posenc_layout *layout_out)
{
    int present;
    posenc_status st;
    int64_t head_dim = 0, hidden = 0, heads = 0, rope_head = 0;
    int have_head = 0, have_hidden, have_heads, have_rope_head;
    posenc_layout layout = POSENC_LAYOUT_HALF;
    if ((st = posenc__cfg_count(rd, root, "qk_rope_head_dim", "qk_rope_head_dim", &rope_head,
                        &have_rope_head)) != POSENC_OK)
        return st;
    if (have_rope_head) {
        head_dim = rope_head; /* DeepSeek: only this part rotates; stored interleaved */
        have_head = 1;
        layout = POSENC_LAYOUT_INTERLEAVED;
    } else {
        if ((st = posenc__cfg_count(rd, root, "head_dim", "head_dim", &head_dim, &have_head)) !=
            POSENC_OK)
            return st;
        if (!have_head) {
            if ((st = posenc__cfg_count(rd, root, "hidden_size", "hidden_size", &hidden, &have_hidden)) !=
                    POSENC_OK ||
                (st = posenc__cfg_count(rd, root, "num_attention_heads", "num_attention_heads", &heads,
                                &have_heads)) != POSENC_OK)
                return st;
            if (!have_hidden || !have_heads) {
                const char *miss = have_hidden ? "num_attention_heads" : "hidden_size";
                if (json_object_get(root, "text_config"))
                    return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, miss,
                                "missing key %s (and head_dim); this config nests its language "
                                "model in text_config: give that part's config",
                                miss);
                return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, miss,
                            "missing key %s: the head size comes from head_dim or "
                            "hidden_size / num_attention_heads",
                            miss);
            }
            if (heads == 0)
                return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, "num_attention_heads",
                            "num_attention_heads must be at least 1");
            head_dim = hidden / heads;
        }
    }
    if (head_dim < 2 || head_dim > POSENC_ROPE_MAX_HEAD_DIM)
        return posenc__cfg_fail(rd, POSENC_ERR_DIM, have_rope_head ? "qk_rope_head_dim" : "head_dim",
                    "the head size %lld is outside 2..%u", (long long)head_dim,
                    POSENC_ROPE_MAX_HEAD_DIM);
    int interleave;
    if ((st = posenc__cfg_bool(rd, root, "rope_interleave", "rope_interleave", &interleave,
                       &present)) != POSENC_OK)
        return st;
    if (present)
        layout = interleave ? POSENC_LAYOUT_INTERLEAVED : POSENC_LAYOUT_HALF;

    *out = head_dim;
    *layout_out = layout;
    return POSENC_OK;
}

/* The rotary dimension of a bare config: int(head_dim * the partial factor)
 * (the block's, the top-level one or rotary_pct; rope type proportional: the
 * whole head). */
static posenc_status bare_rotary(reader *rd, const json_t *root, const json_t *rp,
                                 const json_t *rs, int64_t head_dim, int64_t *out)
{
    posenc_status st;
    double prf = 1.0;
    const char *prf_key = "partial_rotary_factor";
    int have_prf = 0;
    /* rope type proportional: partial_rotary_factor is its own p and the
     * whole head rotates (modeling_rope_utils.py
     * _compute_proportional_rope_parameters) */
    const json_t *rpt = rp ? json_object_get(rp, "rope_type") : NULL;
    if (rpt && json_is_string(rpt) && strcmp(json_string_value(rpt), "proportional") == 0)
        have_prf = 1;
    char prf_name[96];
    if (!have_prf && rs && (st = posenc__cfg_number(rd, rs, "partial_rotary_factor",
                               bkey(rd, "partial_rotary_factor", prf_name, sizeof prf_name),
                               &prf, &have_prf)) != POSENC_OK)
        return st;
    if (have_prf)
        prf_key = rp ? "rope_parameters.partial_rotary_factor" : "rope_scaling.partial_rotary_factor";
    if (!have_prf && (st = posenc__cfg_number(rd, root, "partial_rotary_factor", "partial_rotary_factor",
                                      &prf, &have_prf)) != POSENC_OK)
        return st;
    if (!have_prf) {
        if ((st = posenc__cfg_number(rd, root, "rotary_pct", "rotary_pct", &prf, &have_prf)) != POSENC_OK)
            return st;
        if (have_prf)
            prf_key = "rotary_pct";
    }
    if (!(prf > 0.0 && prf <= 1.0))
        return posenc__cfg_fail(rd, POSENC_ERR_RANGE, prf_key, "%s must be in (0, 1], got %g", prf_key, prf);
    /* int(head_dim * partial_rotary_factor), as transformers computes it */
    int64_t rotary = (int64_t)floor((double)head_dim * prf);
    if (rotary < 2 || rotary % 2)
        return posenc__cfg_fail(rd, POSENC_ERR_RANGE, prf_key,
                    "%s %g gives a rotary dimension of %lld for head size %lld; it must be even "
                    "and at least 2",
                    prf_key, prf, (long long)rotary, (long long)head_dim);

    *out = rotary;
    return POSENC_OK;
}

static posenc_status read_config(reader *rd, const json_t *root, posenc_rope_config *c)
{
    posenc_status st;
    if (!json_is_object(root))
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, "", "a config.json must be a JSON object, got %s",
                    posenc__cfg_type_word(root));

    /* Features that change RoPE in ways posenc does not model. */
    static const char *const refused[] = {"rope_local_base_freq", "use_dynamic_ntk",
                                          "use_logn_attn", NULL};
    for (int i = 0; refused[i]; i++) {
        const json_t *v = json_object_get(root, refused[i]);
        if (v && !json_is_null(v) && !json_is_false(v))
            return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, refused[i],
                        "key %s changes RoPE in a way posenc does not implement", refused[i]);
    }

    const json_t *rp = NULL, *rs = NULL;
    double base = 0.0;
    int64_t head_dim = 0, rotary = 0;
    posenc_layout layout = POSENC_LAYOUT_HALF;
    if ((st = bare_block(rd, root, &rp, &rs)) != POSENC_OK ||
        (st = bare_base(rd, root, rs, &base)) != POSENC_OK ||
        (st = bare_head(rd, root, &head_dim, &layout)) != POSENC_OK ||
        (st = bare_rotary(rd, root, rp, rs, head_dim, &rotary)) != POSENC_OK)
        return st;

    int64_t maxpos = 0, top_orig = 0;
    int have_maxpos, have_top_orig;
    if ((st = posenc__cfg_count(rd, root, "max_position_embeddings", "max_position_embeddings", &maxpos,
                        &have_maxpos)) != POSENC_OK ||
        (st = posenc__cfg_count(rd, root, "original_max_position_embeddings",
                        "original_max_position_embeddings", &top_orig, &have_top_orig)) !=
            POSENC_OK)
        return st;

    memset(c, 0, sizeof *c);
    c->head_dim = (uint32_t)head_dim;
    c->rotary_dim = (uint32_t)rotary;
    c->base = base;
    c->layout = layout;
    c->max_position_embeddings = maxpos;
    posenc_status st0 = posenc_rope_scaling_init(&c->scaling, POSENC_ROPE_DEFAULT);
    if (st0 != POSENC_OK || !rs) /* a known type: only the block can fail */
        return st0;
    return posenc__cfg_scaling(rd, rs, maxpos, have_maxpos, top_orig, have_top_orig,
                               c);
}

/* The type of the scaling block rs (rope_type, or its legacy name type;
 * both must agree) into *type, and s initialised for it; every other key of
 * the block must be one that type reads. */
static posenc_status block_type(reader *rd, const json_t *rs, posenc_rope_scaling *s,
                                posenc_rope_type *out)
{
    char name[96];
    posenc_status st;
    const json_t *t1 = json_object_get(rs, "rope_type"), *t2 = json_object_get(rs, "type");
    if (t1 && json_is_null(t1))
        t1 = NULL;
    if (t2 && json_is_null(t2))
        t2 = NULL;
    const json_t *tv = t1 ? t1 : t2;
    const char *tkey = bkey(rd, t1 ? "rope_type" : "type", name, sizeof name);
    char tkey_buf[96];
    snprintf(tkey_buf, sizeof tkey_buf, "%s", tkey);
    if (!tv) {
        /* transformers 5 gives a block without a type the type "default"
         * (modeling_rope_utils.py L825, L851: setdefault("rope_type",
         * get("type", "default"))) and leaves any scaling key in it unread
         * (only warned about, L1157): a block of rope_theta and
         * partial_rotary_factor alone is the default RoPE; one that also
         * holds factor or the like was meant as a scaling nobody named, and
         * is refused rather than read either way. */
        bkey(rd, "rope_type", name, sizeof name);
        /* a null type reaches the code as None, which no RoPE function is
         * registered under (ROPE_INIT_FUNCTIONS[None] fails) */
        if (json_object_get(rs, "rope_type") || json_object_get(rs, "type"))
            return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, name, "missing key %s (or type)",
                                    name);
        const char *k;
        const json_t *v;
        json_object_foreach((json_t *)rs, k, v) {
            if (strcmp(k, "rope_theta") == 0 || strcmp(k, "partial_rotary_factor") == 0)
                continue;
            char kname[96];
            return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, name,
                        "missing key %s (or type): transformers reads a block without one as "
                        "the default RoPE and leaves %s unread; name the type",
                        name, bkey(rd, k, kname, sizeof kname));
        }
        *out = POSENC_ROPE_DEFAULT;
        return posenc_rope_scaling_init(s, POSENC_ROPE_DEFAULT);
    }
    if (!json_is_string(tv))
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, tkey_buf, "%s must be a string, got %s", tkey_buf,
                    posenc__cfg_type_word(tv));
    if (t1 && t2 && (!json_is_string(t2) || strcmp(json_string_value(t1),
                                                   json_string_value(t2)) != 0))
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, bkey(rd, "type", name, sizeof name),
                    "%s and %s.rope_type disagree", name, rd->block);
    posenc_rope_type type;
    if (posenc_rope_type_parse(json_string_value(tv), &type) != POSENC_OK)
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, tkey_buf,
                    "%s '%.60s' is not a RoPE type posenc knows (default, linear, ntk, "
                    "dynamic, yarn, llama3, longrope, proportional)",
                    tkey_buf, json_string_value(tv));
    if ((st = posenc_rope_scaling_init(s, type)) != POSENC_OK) /* type came from parse */
        return st;

    /* Every key of the block must be one this type reads. */
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)rs, k, v) {
        if (strcmp(k, "rope_type") == 0 || strcmp(k, "type") == 0)
            continue;
        /* read by the caller, from either block (transformers 5 takes a
         * rope_scaling block as rope_parameters) */
        if (strcmp(k, "rope_theta") == 0 || strcmp(k, "partial_rotary_factor") == 0)
            continue;
        if (!key_in(k, keys_of(type)))
            return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, bkey(rd, k, name, sizeof name),
                        "%s is not a parameter of rope type %s: posenc does not know what "
                        "it changes",
                        name, posenc_rope_type_name(type));
    }

    *out = type;
    return POSENC_OK;
}

/* yarn: original length (the block's, else max_position_embeddings),
 * factor (else max / original), beta_fast, beta_slow, mscale, truncate. */
static posenc_status yarn_keys(reader *rd, const json_t *rs, posenc_rope_scaling *s, double orig,
                               int have_orig, int64_t maxpos, int have_maxpos)
{
    char name[96];
    int present;
    posenc_status st;
    if (!have_orig && !have_maxpos)
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT,
                    bkey(rd, "original_max_position_embeddings", name, sizeof name),
                    "missing key %s (or max_position_embeddings)", name);
    s->original_max_position_embeddings = have_orig ? orig : (double)maxpos;
    int have_factor;
    if ((st = posenc__cfg_number(rd, rs, "factor", bkey(rd, "factor", name, sizeof name), &s->factor,
                         &have_factor)) != POSENC_OK)
        return st;
    if (!have_factor) {
        if (!have_orig || !have_maxpos)
            return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, name, "missing key %s", name);
        s->factor = (double)maxpos / orig;
    }
    /* transformers reads beta_fast/beta_slow with "or": 0 means the default */
    double bf = 0, bs = 0;
    if ((st = opt_number(rd, rs, "beta_fast", &bf)) != POSENC_OK ||
        (st = opt_number(rd, rs, "beta_slow", &bs)) != POSENC_OK ||
        (st = opt_number(rd, rs, "mscale", &s->mscale)) != POSENC_OK ||
        (st = opt_number(rd, rs, "mscale_all_dim", &s->mscale_all_dim)) != POSENC_OK)
        return st;
    if (bf != 0.0)
        s->beta_fast = bf;
    if (bs != 0.0)
        s->beta_slow = bs;
    st = posenc__cfg_bool(rd, rs, "truncate", bkey(rd, "truncate", name, sizeof name), &s->truncate,
                  &present);
    return st;
}

/* longrope: the two factor lists (rotary / 2 each), the original length
 * (the block's, Phi-3's top-level key, else max_position_embeddings) and
 * the factor (else max / original). */
static posenc_status longrope_keys(reader *rd, const json_t *rs, posenc_rope_config *c,
                                   double orig, int have_orig, int64_t top_orig,
                                   int have_top_orig, int64_t maxpos, int have_maxpos)
{
    char name[96];
    posenc_status st;
    posenc_rope_scaling *s = &c->scaling;
    size_t n = (size_t)c->rotary_dim / 2;
    if ((st = get_list(rd, rs, "short_factor", n, c->short_factor, &s->n_short_factor)) !=
            POSENC_OK ||
        (st = get_list(rd, rs, "long_factor", n, c->long_factor, &s->n_long_factor)) !=
            POSENC_OK)
        return st;
    /* L: the block's, else Phi-3's top-level key, else max_position_embeddings */
    if (have_orig)
        s->original_max_position_embeddings = orig;
    else if (have_top_orig)
        s->original_max_position_embeddings = (double)top_orig;
    else if (have_maxpos)
        s->original_max_position_embeddings = (double)maxpos;
    else
        return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, "original_max_position_embeddings",
                    "missing key original_max_position_embeddings (or "
                    "max_position_embeddings)");
    int have_factor;
    if ((st = posenc__cfg_number(rd, rs, "factor", bkey(rd, "factor", name, sizeof name), &s->factor,
                         &have_factor)) != POSENC_OK)
        return st;
    if (!have_factor)
        s->factor = have_maxpos ? (double)maxpos / s->original_max_position_embeddings : 1.0;
    return POSENC_OK;
}

/* The scaling block rs (rope_scaling or rope_parameters; the rope_theta and
 * partial_rotary_factor inside it are the caller's to read) into
 * c->scaling and c's lists; c's dimensions are already set. maxpos and
 * top_orig: the config's max_position_embeddings and top-level
 * original_max_position_embeddings when present. */
posenc_status posenc__cfg_scaling(reader *rd, const json_t *rs, int64_t maxpos,
                                  int have_maxpos, int64_t top_orig, int have_top_orig,
                                  posenc_rope_config *c)
{
    char name[96];
    posenc_status st;
    posenc_rope_scaling *s = &c->scaling;
    if ((st = posenc_rope_scaling_init(s, POSENC_ROPE_DEFAULT)) != POSENC_OK)
        return st;
    posenc_rope_type type = POSENC_ROPE_DEFAULT;
    if ((st = block_type(rd, rs, s, &type)) != POSENC_OK)
        return st;

    double orig = 0.0;
    int have_orig;
    if ((st = posenc__cfg_number(rd, rs, "original_max_position_embeddings",
                         bkey(rd, "original_max_position_embeddings", name, sizeof name), &orig,
                         &have_orig)) != POSENC_OK)
        return st;
    if ((st = opt_number(rd, rs, "attention_factor", &s->attention_factor)) != POSENC_OK)
        return st;
    switch (type) {
    case POSENC_ROPE_DEFAULT:
        break;
    case POSENC_ROPE_LINEAR:
    case POSENC_ROPE_NTK:
        st = need_number(rd, rs, "factor", &s->factor);
        break;
    case POSENC_ROPE_DYNAMIC:
        if ((st = need_number(rd, rs, "factor", &s->factor)) != POSENC_OK)
            return st;
        /* transformers' dynamic NTK uses max_position_embeddings as L */
        if (!have_maxpos)
            return posenc__cfg_fail(rd, POSENC_ERR_FORMAT, "max_position_embeddings",
                        "missing key max_position_embeddings (dynamic NTK's trained length)");
        if (have_orig && orig != (double)maxpos)
            return posenc__cfg_fail(rd, POSENC_ERR_FORMAT,
                        bkey(rd, "original_max_position_embeddings", name, sizeof name),
                        "%s (%g) differs from max_position_embeddings (%lld), which "
                        "transformers' dynamic NTK uses: ambiguous",
                        name, orig, (long long)maxpos);
        s->original_max_position_embeddings = (double)maxpos;
        break;
    case POSENC_ROPE_YARN:
        st = yarn_keys(rd, rs, s, orig, have_orig, maxpos, have_maxpos);
        break;
    case POSENC_ROPE_LLAMA3:
        if ((st = need_number(rd, rs, "factor", &s->factor)) != POSENC_OK ||
            (st = need_number(rd, rs, "low_freq_factor", &s->low_freq_factor)) != POSENC_OK ||
            (st = need_number(rd, rs, "high_freq_factor", &s->high_freq_factor)) != POSENC_OK)
            return st;
        if (!have_orig)
            return posenc__cfg_fail(rd, POSENC_ERR_FORMAT,
                        bkey(rd, "original_max_position_embeddings", name, sizeof name),
                        "missing key %s", name);
        s->original_max_position_embeddings = orig;
        break;
    case POSENC_ROPE_LONGROPE:
        st = longrope_keys(rd, rs, c, orig, have_orig, top_orig, have_top_orig, maxpos,
                           have_maxpos);
        break;
    case POSENC_ROPE_PROPORTIONAL:
        /* factor: rope_parameters_dict.get("factor", 1.0); p:
         * .get("partial_rotary_factor", 1.0), both optional */
        if ((st = opt_number(rd, rs, "factor", &s->factor)) != POSENC_OK ||
            (st = opt_number(rd, rs, "partial_rotary_factor", &s->partial_rotary_factor)) !=
                POSENC_OK)
            return st;
        break;
    }
    return st;
}

/* Fills *r from c at cur_len, which checks the parameters' ranges, the
 * attention factor, and that every frequency comes out finite and > 0 (a huge
 * factor can round one to 0, a tiny list value make one infinite). */
posenc_status posenc__cfg_usable(reader *rd, posenc_rope *r, const posenc_rope_config *c,
                            int64_t cur_len)
{
    posenc_status st = posenc_rope_init_config(r, c, cur_len);
    if (st == POSENC_OK)
        return POSENC_OK;
    char at[48] = "";
    if (cur_len != 0)
        snprintf(at, sizeof at, " at %lld tokens", (long long)cur_len);
    double L = c->scaling.original_max_position_embeddings;
    if (st == POSENC_ERR_RANGE && c->scaling.type != POSENC_ROPE_DEFAULT &&
        L > (double)POSENC_MAX_POS + 1.0)
        return posenc__cfg_fail(rd, st, rd->block,
                                "%s: original_max_position_embeddings %g is past 2^31 tokens, "
                                "the longest sequence posenc handles",
                                rd->block, L);
    return posenc__cfg_fail(rd, st, rd->block,
                "the RoPE parameters in %s are out of range%s: %s (a value past its limit, "
                "or one that makes a frequency 0, subnormal, infinite or NaN)",
                rd->block, at, posenc_strerror(st));
}

posenc_status posenc_rope_from_config_text(const char *json, size_t len,
                                           posenc_rope_config *out, posenc_config_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
    if (!json || !out)
        return POSENC_ERR_NULL;
    reader rd = {err, "rope_scaling"};
    if (len > MAX_CONFIG_BYTES)
        return posenc__cfg_fail(&rd, POSENC_ERR_FORMAT, "",
                                "the config text is larger than %u bytes", MAX_CONFIG_BYTES);
    json_error_t jerr;
    json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        if (err) {
            err->line = jerr.line;
            err->column = jerr.column;
        }
        return posenc__cfg_fail(&rd, POSENC_ERR_FORMAT, "", "invalid JSON at line %d, column %d: %s",
                    jerr.line, jerr.column, jerr.text);
    }
    static posenc_rope_config zero;
    posenc_rope_config *c = malloc(sizeof *c); /* about 12 KiB: not on the stack */
    if (!c) {
        json_decref(root);
        return posenc__cfg_fail(&rd, POSENC_ERR_NOMEM, "", "out of memory");
    }
    *c = zero;
    posenc_status st = read_config(&rd, root, c);
    json_decref(root);
    if (st == POSENC_OK) {
        /* Check the values the way they will be used: at no length, and at
         * the longest (dynamic NTK stretches the base most there, and
         * longrope switches to long_factor past L). */
        posenc_rope *r = malloc(sizeof *r);
        st = r ? posenc__cfg_usable(&rd, r, c, 0) : posenc__cfg_fail(&rd, POSENC_ERR_NOMEM, "", "out of memory");
        if (st == POSENC_OK)
            st = posenc__cfg_usable(&rd, r, c, POSENC_MAX_POS + 1);
        free(r);
    }
    if (st == POSENC_OK)
        *out = *c;
    free(c);
    return st;
}

/* Reads the whole file at path (at most MAX_CONFIG_BYTES) into *buf. */
posenc_status posenc__cfg_slurp(reader *rd, const char *path, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return posenc__cfg_fail(rd, POSENC_ERR_IO, "", "cannot open %s: %s", path,
                                strerror(errno));
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    posenc_status st = POSENC_OK;
    while (buf) {
        if (n == cap) {
            if (cap >= MAX_CONFIG_BYTES) {
                /* full: a file of exactly the limit ends here */
                if (getc(f) == EOF)
                    break;
                st = posenc__cfg_fail(rd, POSENC_ERR_FORMAT, "", "%s is larger than %u bytes",
                                      path, MAX_CONFIG_BYTES);
                break;
            }
            char *p = realloc(buf, cap * 2);
            if (!p) {
                st = posenc__cfg_fail(rd, POSENC_ERR_NOMEM, "", "out of memory");
                break;
            }
            buf = p;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (!buf)
        st = posenc__cfg_fail(rd, POSENC_ERR_NOMEM, "", "out of memory");
    else if (st == POSENC_OK && ferror(f))
        st = posenc__cfg_fail(rd, POSENC_ERR_IO, "", "error reading %s", path);
    fclose(f);
    if (st != POSENC_OK) {
        free(buf);
        return st;
    }
    *out = buf;
    *len = n;
    return POSENC_OK;
}

posenc_status posenc__cfg_open(const char *path, const void *out, posenc_config_error *err,
                               const char *block, char **buf, size_t *n)
{
    *buf = NULL;
    if (err)
        memset(err, 0, sizeof *err);
    if (!path || !out)
        return POSENC_ERR_NULL;
    reader rd = {err, block};
    return posenc__cfg_slurp(&rd, path, buf, n);
}

posenc_status posenc_rope_from_config(const char *path, posenc_rope_config *out,
                                      posenc_config_error *err)
{
    char *buf;
    size_t n;
    posenc_status st = posenc__cfg_open(path, out, err, "rope_scaling", &buf, &n);
    if (st == POSENC_OK)
        st = posenc_rope_from_config_text(buf, n, out, err);
    free(buf);
    return st;
}
