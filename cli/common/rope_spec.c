/* rope_spec.c - a model's RoPE from SET rope's words or from a config.json
 * (see rope_spec.h). The library checks every value (posenc_rope_init_config);
 * this file only reads words and says which one is wrong. */
#include "rope_spec.h"

#ifdef POSENC_HAVE_JSON
#include "posenc_config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- values ---------------------------------------------------------------------- */

static int parse_value(const char *key, const char *s, size_t len, double *out, char *why,
                       size_t n)
{
    if (posenc_parse_number(s, len, out) == POSENC_OK)
        return 1;
    snprintf(why, n, "SET rope: %s=%.*s%s is not a number", key, CLI_SHOW(s, len));
    return 0;
}

static int parse_count(const char *key, const char *s, size_t len, uint32_t *out, char *why,
                       size_t n)
{
    int64_t v;
    if (posenc_parse_int64(s, len, &v) == POSENC_OK && v >= 1 && v <= POSENC_ROPE_MAX_HEAD_DIM) {
        *out = (uint32_t)v;
        return 1;
    }
    snprintf(why, n, "SET rope: %s=%.*s%s must be an integer from 1 to %u", key,
             CLI_SHOW(s, len), POSENC_ROPE_MAX_HEAD_DIM);
    return 0;
}

/* "a:b:c" into v (at most POSENC_ROPE_MAX_HEAD_DIM / 2 numbers). */
static int parse_list(const char *key, const char *s, size_t len, double *v, size_t *count_out,
                      char *why, size_t n)
{
    size_t count = 0, i = 0;
    while (i <= len) {
        size_t j = i;
        while (j < len && s[j] != ':')
            j++;
        if (count == POSENC_ROPE_MAX_HEAD_DIM / 2) {
            snprintf(why, n, "SET rope: %s has more than %u values", key,
                     POSENC_ROPE_MAX_HEAD_DIM / 2);
            return 0;
        }
        if (posenc_parse_number(s + i, j - i, &v[count]) != POSENC_OK) {
            snprintf(why, n, "SET rope: %s: '%.*s%s' is not a number (write values as a:b:c)",
                     key, CLI_SHOW(s + i, j - i));
            return 0;
        }
        count++;
        i = j + 1;
    }
    *count_out = count;
    return 1;
}

static int parse_truncate(const char *s, size_t len, int *out, char *why, size_t n)
{
    cli_token t = {s, len};
    if (cli_word_is(t, "true") || cli_word_is(t, "1")) {
        *out = 1;
        return 1;
    }
    if (cli_word_is(t, "false") || cli_word_is(t, "0")) {
        *out = 0;
        return 1;
    }
    snprintf(why, n, "SET rope: truncate must be true or false, got '%.*s%s'", CLI_SHOW(s, len));
    return 0;
}

/* What each type needs, for the out-of-range message. */
static const char *type_needs(posenc_rope_type t)
{
    switch (t) {
    case POSENC_ROPE_LINEAR: return "linear needs factor >= 1";
    case POSENC_ROPE_NTK: return "ntk needs factor >= 1 and rotary_dim >= 4";
    case POSENC_ROPE_DYNAMIC:
        return "dynamic needs factor >= 1, 1 <= original <= 2^31 and rotary_dim >= 4";
    case POSENC_ROPE_YARN:
        return "yarn needs factor >= 1, 1 <= original <= 2^31, beta_fast >= beta_slow > 0, "
               "mscale and mscale_all_dim >= 0";
    case POSENC_ROPE_LLAMA3:
        return "llama3 needs factor >= 1, 1 <= original <= 2^31, "
               "0 < low_freq_factor < high_freq_factor";
    case POSENC_ROPE_LONGROPE:
        return "longrope needs factor > 0, 1 < original <= 2^31 and short_factor and long_factor "
               "with rotary_dim/2 positive values each";
    case POSENC_ROPE_PROPORTIONAL:
        return "proportional needs factor > 0 and 0 < partial_rotary_factor <= 1";
    default: return "the dimensions must satisfy 2 <= rotary_dim <= head_dim, rotary_dim even";
    }
}

/* One key=value word into c (its scaling's fields and lists). */
static int parse_setting(cli_token word, posenc_rope_config *c, int *rotary_given, char *why,
                         size_t n)
{
    const char *w = word.s, *eq = memchr(w, '=', word.len);
    if (!eq) {
        snprintf(why, n, "SET rope: '%.*s%s' is not key=value", CLI_SHOW(w, word.len));
        return 0;
    }
    size_t kl = (size_t)(eq - w), vl = word.len - kl - 1;
    const char *v = eq + 1;
    /* every known key is shorter than this; a longer one is unknown */
    char key[40];
    snprintf(key, sizeof key, "%.*s", (int)(kl < sizeof key - 1 ? kl : sizeof key - 1), w);
    if (kl >= sizeof key)
        key[0] = '\0';
    posenc_rope_scaling *s = &c->scaling;
    static const struct {
        const char *name;
        size_t offset;
    } numbers[] = {
        {"factor", offsetof(posenc_rope_scaling, factor)},
        {"original", offsetof(posenc_rope_scaling, original_max_position_embeddings)},
        {"original_max_position_embeddings",
         offsetof(posenc_rope_scaling, original_max_position_embeddings)},
        {"beta_fast", offsetof(posenc_rope_scaling, beta_fast)},
        {"beta_slow", offsetof(posenc_rope_scaling, beta_slow)},
        {"mscale", offsetof(posenc_rope_scaling, mscale)},
        {"mscale_all_dim", offsetof(posenc_rope_scaling, mscale_all_dim)},
        {"attention_factor", offsetof(posenc_rope_scaling, attention_factor)},
        {"attn", offsetof(posenc_rope_scaling, attention_factor)},
        {"low_freq_factor", offsetof(posenc_rope_scaling, low_freq_factor)},
        {"high_freq_factor", offsetof(posenc_rope_scaling, high_freq_factor)},
        {"partial_rotary_factor", offsetof(posenc_rope_scaling, partial_rotary_factor)},
    };
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
        if (strcmp(key, numbers[i].name) == 0)
            return parse_value(key, v, vl, (double *)((char *)s + numbers[i].offset), why, n);
    if (strcmp(key, "head_dim") == 0)
        return parse_count(key, v, vl, &c->head_dim, why, n);
    if (strcmp(key, "rotary_dim") == 0)
        return *rotary_given = parse_count(key, v, vl, &c->rotary_dim, why, n);
    if (strcmp(key, "base") == 0)
        return parse_value(key, v, vl, &c->base, why, n);
    if (strcmp(key, "truncate") == 0)
        return parse_truncate(v, vl, &s->truncate, why, n);
    if (strcmp(key, "short_factor") == 0)
        return parse_list(key, v, vl, c->short_factor, &s->n_short_factor, why, n);
    if (strcmp(key, "long_factor") == 0)
        return parse_list(key, v, vl, c->long_factor, &s->n_long_factor, why, n);
    if (strcmp(key, "freq_factors") == 0)
        return parse_list(key, v, vl, c->freq_factors, &s->n_freq_factors, why, n);
    snprintf(why, n, "SET rope: unknown key '%.*s%s' (head_dim, rotary_dim, base, factor, "
                     "original, beta_fast, beta_slow, truncate, mscale, mscale_all_dim, "
                     "attention_factor, low_freq_factor, high_freq_factor, short_factor, "
                     "long_factor, freq_factors, partial_rotary_factor)",
             CLI_SHOW(w, kl));
    return 0;
}

rope_spec_status rope_spec_parse(const cli_token *a, size_t n, const rope_spec_start *from,
                                 posenc_rope_config *c, char *why, size_t why_n)
{
    if (n == 0) {
        snprintf(why, why_n, "SET rope needs a type: off, default, linear, ntk, dynamic, yarn, "
                             "llama3, longrope or proportional, then key=value settings");
        return ROPE_SPEC_BAD;
    }
    if (cli_word_is(a[0], "off") || (cli_word_is(a[0], "default") && n == 1 && !from->current))
        return ROPE_SPEC_OFF;
    char name[16];
    snprintf(name, sizeof name, "%.*s", (int)(a[0].len < 15 ? a[0].len : 15), a[0].s);
    for (char *p = name; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    posenc_rope_type type;
    if (a[0].len > 15 || posenc_rope_type_parse(name, &type) != POSENC_OK) {
        snprintf(why, why_n, "SET rope: unknown type '%.*s%s' (off, default, linear, ntk, "
                             "dynamic, yarn, llama3, longrope, proportional)",
                 CLI_SHOW(a[0].s, a[0].len));
        return ROPE_SPEC_BAD;
    }
    memset(c, 0, sizeof *c);
    if (from->current) { /* keep the active model's dimensions */
        c->head_dim = from->current->head_dim;
        c->rotary_dim = from->current->rotary_dim;
        c->max_position_embeddings = from->current->max_position_embeddings;
    }
    c->base = from->base;
    c->layout = from->layout;
    /* type came from posenc_rope_type_parse: a known type */
    cli_cannot_fail(posenc_rope_scaling_init(&c->scaling, type));
    int rotary_given = 0;
    for (size_t i = 1; i < n; i++)
        if (!parse_setting(a[i], c, &rotary_given, why, why_n))
            return ROPE_SPEC_BAD;
    const char *tn = posenc_rope_type_name(type);
    if (c->head_dim == 0) {
        snprintf(why, why_n,
                 "SET rope %s needs head_dim=N (no model RoPE is active to take it from)", tn);
        return ROPE_SPEC_BAD;
    }
    if (!rotary_given && (!from->current || c->rotary_dim > c->head_dim))
        c->rotary_dim = c->head_dim;
    /* LongRoPE has no default lists: name the one missing rather than let
     * the library refuse the whole configuration. */
    if (type == POSENC_ROPE_LONGROPE &&
        (c->scaling.n_short_factor == 0 || c->scaling.n_long_factor == 0)) {
        snprintf(why, why_n, "SET rope longrope needs %s=a:b:... (rotary_dim/2 = %u values)",
                 c->scaling.n_short_factor == 0 ? "short_factor" : "long_factor",
                 c->rotary_dim / 2);
        return ROPE_SPEC_BAD;
    }
    posenc_rope check; /* 8 KiB: the library's verdict on the whole configuration */
    posenc_status r = posenc_rope_init_config(&check, c, 0);
    if (r != POSENC_OK) {
        int scaled = r == POSENC_ERR_RANGE && type != POSENC_ROPE_DEFAULT;
        snprintf(why, why_n, "SET rope %s: %s (%s%s)", tn, posenc_strerror(r), type_needs(type),
                 scaled ? "; and every scaled frequency a normal number: an extreme factor "
                          "or list value makes one 0, subnormal or infinite"
                        : "");
        return ROPE_SPEC_BAD;
    }
    return ROPE_SPEC_SET;
}

/* ---- config.json ------------------------------------------------------------------ */

int rope_spec_have_config_reader(void)
{
#ifdef POSENC_HAVE_JSON
    return 1;
#else
    return 0;
#endif
}

/* label: the file name without directory and .json */
void rope_spec_file_label(const char *path, char *label, size_t label_n)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t nl = strlen(name);
    if (nl > 5 && strcasecmp(name + nl - 5, ".json") == 0)
        nl -= 5;
    snprintf(label, label_n, "%.*s", (int)(nl < 95 ? nl : 95), name);
}

#define NO_READER                                                                           \
    "this posenc was built without the config reader, which needs the JSON library jansson: " \
    "install libjansson-dev (Debian, Ubuntu) or jansson-devel (Fedora), then run make again " \
    "(the build finds it by itself)"

int rope_spec_read_model(const char *path, const char *model_type, posenc_model **out, char *why,
                         size_t n)
{
#ifdef POSENC_HAVE_JSON
    posenc_config_error err;
    posenc_model *m;
    if (posenc_model_create(&m) != POSENC_OK) {
        snprintf(why, n, "out of memory");
        return 0;
    }
    posenc_status s = posenc_model_from_config(path, model_type, m, &err);
    if (s != POSENC_OK) {
        snprintf(why, n, "%s: %s", path, err.detail[0] ? err.detail : posenc_strerror(s));
        posenc_model_free(m);
        return 0;
    }
    *out = m;
    return 1;
#else
    (void)model_type;
    (void)out;
    (void)path;
    snprintf(why, n, "%s", NO_READER);
    return 0;
#endif
}

int rope_spec_model_layer(const char *path, uint32_t layer, posenc_model **out,
                          posenc_layer_info *li, char *label, size_t label_n, char *why, size_t n)
{
    posenc_model *m;
    if (!rope_spec_read_model(path, NULL, &m, why, n))
        return 0;
    if (posenc_model_layer(m, layer, li) != POSENC_OK) {
        uint32_t nl = posenc_model_n_layer(m);
        snprintf(why, n, "%s: layer %u does not exist: the model has %u layers (0 to %u)", path,
                 layer, nl, nl - 1);
        posenc_model_free(m);
        return 0;
    }
    rope_spec_file_label(path, label, label_n);
    size_t ll = strlen(label);
    if (layer != 0 && ll + 1 < label_n)
        snprintf(label + ll, label_n - ll, " layer %u", layer);
    *out = m;
    return 1;
}

/* The model_type for messages. */
static const char *type_of(const posenc_model *m)
{
    const char *t = posenc_model_type(m);
    return t[0] ? t : "the model";
}

int rope_spec_load_model(const char *path, uint32_t layer, posenc_model **out, char *label,
                         size_t label_n, char *why, size_t n)
{
    posenc_layer_info li;
    if (!rope_spec_model_layer(path, layer, out, &li, label, label_n, why, n))
        return 0;
    if (li.scheme != POSENC_SCHEME_ROPE) {
        snprintf(why, n, "%s: layer %u of %s has no RoPE (scheme %s): there is no rotation to "
                         "draw",
                 path, layer, type_of(*out), posenc_scheme_name(li.scheme));
        posenc_model_free(*out);
        *out = NULL;
        return 0;
    }
    return 1;
}

const char *rope_spec_model_type(const posenc_model *m)
{
    return type_of(m);
}
