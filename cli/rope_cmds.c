/* rope_cmds.c - a model's RoPE in the command language: --config FILE,
 * SET rope TYPE key=value ..., SET seq_len, ROPE and DOT on heads of the
 * model's head_dim, and EXPLAIN FREQS. Parsing and printing only: every
 * number printed comes from the library (posenc_rope_init_config,
 * posenc_rope_vec_f64, posenc_rope_explain_freqs). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SHOW(s, len) (int)((len) > 40 ? 40 : (len)), (s)

static int tok_is(cli_token t, const char *name)
{
    return t.len == strlen(name) && strncasecmp(t.s, name, t.len) == 0;
}

/* Allocates the model and its scratch rotation on first use. */
static int ensure_model(cli_state *st)
{
    if (!st->model_rope)
        st->model_rope = malloc(sizeof *st->model_rope);
    if (!st->model_next)
        st->model_next = malloc(sizeof *st->model_next);
    return st->model_rope && st->model_next;
}

void cli_rope_free(cli_state *st)
{
    free(st->model);
    free(st->model_next);
    free(st->model_rope);
    st->model = st->model_next = NULL;
    st->model_rope = NULL;
}

static const char *layout_name(posenc_layout l)
{
    return l == POSENC_LAYOUT_HALF ? "half" : "interleaved";
}

/* ---- --config ---------------------------------------------------------------- */

int cli_load_config(cli_state *st, const char *path, int layout_given, char *why, size_t n)
{
#ifdef POSENC_HAVE_JSON
    posenc_config_error err;
    if (!ensure_model(st)) {
        snprintf(why, n, "out of memory");
        return 0;
    }
    posenc_status s = posenc_rope_from_config(path, st->model_next, &err);
    if (s != POSENC_OK) {
        snprintf(why, n, "%s: %s", path, err.detail[0] ? err.detail : posenc_strerror(s));
        return 0;
    }
    /* The checkpoint's layout (half for Hugging Face) unless --layout says otherwise. */
    if (layout_given)
        st->model_next->layout = st->layout;
    else
        st->layout = st->model_next->layout;
    st->base = st->model_next->base;
    /* label: the file name without directory and .json */
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t nl = strlen(name);
    if (nl > 5 && strcasecmp(name + nl - 5, ".json") == 0)
        nl -= 5;
    snprintf(st->model_label, sizeof st->model_label, "%.*s", (int)(nl < 95 ? nl : 95), name);
    posenc_rope_config *t = st->model;
    st->model = st->model_next;
    st->model_next = t;
    return 1;
#else
    (void)st;
    (void)path;
    (void)layout_given;
    snprintf(why, n, "this posenc was built without the config reader, which needs the JSON "
                     "library jansson: install libjansson-dev (Debian, Ubuntu) or jansson-devel "
                     "(Fedora) and rebuild with make clean && make");
    return 0;
#endif
}

int cli_have_config_reader(void)
{
#ifdef POSENC_HAVE_JSON
    return 1;
#else
    return 0;
#endif
}

/* ---- SET rope TYPE key=value ... ------------------------------------------------ */

static int parse_value(cli_state *st, const char *key, const char *s, size_t len, double *out)
{
    if (posenc_parse_number(s, len, out) == POSENC_OK)
        return 1;
    cli_error(st, "SET rope: %s=%.*s is not a number", key, SHOW(s, len));
    return 0;
}

static int parse_count(cli_state *st, const char *key, const char *s, size_t len,
                       uint32_t *out)
{
    int64_t v;
    if (posenc_parse_int64(s, len, &v) == POSENC_OK && v >= 1 && v <= POSENC_ROPE_MAX_HEAD_DIM) {
        *out = (uint32_t)v;
        return 1;
    }
    cli_error(st, "SET rope: %s=%.*s must be an integer from 1 to %u", key, SHOW(s, len),
              POSENC_ROPE_MAX_HEAD_DIM);
    return 0;
}

/* "a:b:c" into v (at most POSENC_ROPE_MAX_HEAD_DIM / 2 numbers). */
static int parse_list(cli_state *st, const char *key, const char *s, size_t len, double *v,
                      size_t *n)
{
    size_t count = 0, i = 0;
    while (i <= len) {
        size_t j = i;
        while (j < len && s[j] != ':')
            j++;
        if (count == POSENC_ROPE_MAX_HEAD_DIM / 2) {
            cli_error(st, "SET rope: %s has more than %u values", key,
                      POSENC_ROPE_MAX_HEAD_DIM / 2);
            return 0;
        }
        if (posenc_parse_number(s + i, j - i, &v[count]) != POSENC_OK) {
            cli_error(st, "SET rope: %s: '%.*s' is not a number (write values as a:b:c)", key,
                      SHOW(s + i, j - i));
            return 0;
        }
        count++;
        i = j + 1;
    }
    *n = count;
    return 1;
}

/* What each type needs, for the out-of-range message. */
static const char *type_needs(posenc_rope_type t)
{
    switch (t) {
    case POSENC_ROPE_LINEAR: return "linear needs factor >= 1";
    case POSENC_ROPE_NTK: return "ntk needs factor >= 1 and rotary_dim >= 4";
    case POSENC_ROPE_DYNAMIC:
        return "dynamic needs factor >= 1, original >= 1 and rotary_dim >= 4";
    case POSENC_ROPE_YARN:
        return "yarn needs factor >= 1, original >= 1, beta_fast > beta_slow > 0, "
               "mscale and mscale_all_dim >= 0";
    case POSENC_ROPE_LLAMA3:
        return "llama3 needs factor >= 1, original >= 1, "
               "0 < low_freq_factor < high_freq_factor";
    case POSENC_ROPE_LONGROPE:
        return "longrope needs factor > 0, original > 1 and short_factor and long_factor "
               "with rotary_dim/2 positive values each";
    default: return "the dimensions must satisfy 2 <= rotary_dim <= head_dim, rotary_dim even";
    }
}

int cli_set_rope(cli_state *st, const cli_token *a, size_t n)
{
    if (n == 0) {
        cli_error(st, "SET rope needs a type: off, default, linear, ntk, dynamic, yarn, llama3 "
                      "or longrope, then key=value settings");
        return 0;
    }
    if (tok_is(a[0], "off") || (tok_is(a[0], "default") && n == 1 && !st->model)) {
        free(st->model);
        st->model = NULL;
        return 1;
    }
    char name[16];
    snprintf(name, sizeof name, "%.*s", (int)(a[0].len < 15 ? a[0].len : 15), a[0].s);
    for (char *p = name; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    posenc_rope_type type;
    if (a[0].len > 15 || posenc_rope_type_parse(name, &type) != POSENC_OK) {
        cli_error(st, "SET rope: unknown type '%.*s' (off, default, linear, ntk, dynamic, "
                      "yarn, llama3, longrope)",
                  SHOW(a[0].s, a[0].len));
        return 0;
    }
    if (!ensure_model(st)) {
        cli_error(st, "out of memory");
        return 0;
    }
    posenc_rope_config *c = st->model_next;
    memset(c, 0, sizeof *c);
    if (st->model) { /* keep the model's dimensions */
        c->head_dim = st->model->head_dim;
        c->rotary_dim = st->model->rotary_dim;
        c->max_position_embeddings = st->model->max_position_embeddings;
    }
    c->base = st->base;
    c->layout = st->layout;
    posenc_rope_scaling *s = &c->scaling;
    posenc_rope_scaling_init(s, type);
    int rotary_given = 0;
    for (size_t i = 1; i < n; i++) {
        const char *w = a[i].s, *eq = memchr(w, '=', a[i].len);
        if (!eq) {
            cli_error(st, "SET rope: '%.*s' is not key=value", SHOW(w, a[i].len));
            return 0;
        }
        size_t kl = (size_t)(eq - w), vl = a[i].len - kl - 1;
        const char *v = eq + 1;
        char key[40];
        snprintf(key, sizeof key, "%.*s", (int)(kl < 39 ? kl : 39), w);
        int ok = 1;
        if (strcmp(key, "head_dim") == 0)
            ok = parse_count(st, key, v, vl, &c->head_dim);
        else if (strcmp(key, "rotary_dim") == 0)
            ok = rotary_given = parse_count(st, key, v, vl, &c->rotary_dim);
        else if (strcmp(key, "base") == 0)
            ok = parse_value(st, key, v, vl, &c->base);
        else if (strcmp(key, "factor") == 0)
            ok = parse_value(st, key, v, vl, &s->factor);
        else if (strcmp(key, "original") == 0 ||
                 strcmp(key, "original_max_position_embeddings") == 0)
            ok = parse_value(st, key, v, vl, &s->original_max_position_embeddings);
        else if (strcmp(key, "beta_fast") == 0)
            ok = parse_value(st, key, v, vl, &s->beta_fast);
        else if (strcmp(key, "beta_slow") == 0)
            ok = parse_value(st, key, v, vl, &s->beta_slow);
        else if (strcmp(key, "mscale") == 0)
            ok = parse_value(st, key, v, vl, &s->mscale);
        else if (strcmp(key, "mscale_all_dim") == 0)
            ok = parse_value(st, key, v, vl, &s->mscale_all_dim);
        else if (strcmp(key, "attention_factor") == 0 || strcmp(key, "attn") == 0)
            ok = parse_value(st, key, v, vl, &s->attention_factor);
        else if (strcmp(key, "low_freq_factor") == 0)
            ok = parse_value(st, key, v, vl, &s->low_freq_factor);
        else if (strcmp(key, "high_freq_factor") == 0)
            ok = parse_value(st, key, v, vl, &s->high_freq_factor);
        else if (strcmp(key, "truncate") == 0) {
            cli_token t = {v, vl};
            if (tok_is(t, "true") || tok_is(t, "1"))
                s->truncate = 1;
            else if (tok_is(t, "false") || tok_is(t, "0"))
                s->truncate = 0;
            else {
                cli_error(st, "SET rope: truncate must be true or false, got '%.*s'",
                          SHOW(v, vl));
                ok = 0;
            }
        } else if (strcmp(key, "short_factor") == 0)
            ok = parse_list(st, key, v, vl, c->short_factor, &s->n_short_factor);
        else if (strcmp(key, "long_factor") == 0)
            ok = parse_list(st, key, v, vl, c->long_factor, &s->n_long_factor);
        else if (strcmp(key, "freq_factors") == 0)
            ok = parse_list(st, key, v, vl, c->freq_factors, &s->n_freq_factors);
        else {
            cli_error(st, "SET rope: unknown key '%s' (head_dim, rotary_dim, base, factor, "
                          "original, beta_fast, beta_slow, truncate, mscale, mscale_all_dim, "
                          "attention_factor, low_freq_factor, high_freq_factor, short_factor, "
                          "long_factor, freq_factors)",
                      key);
            ok = 0;
        }
        if (!ok)
            return 0;
    }
    if (c->head_dim == 0) {
        cli_error(st, "SET rope %s needs head_dim=N (no model RoPE is active to take it from)",
                  posenc_rope_type_name(type));
        return 0;
    }
    if (!rotary_given && (!st->model || c->rotary_dim > c->head_dim))
        c->rotary_dim = c->head_dim;
    posenc_status r = posenc_rope_init_config(st->model_rope, c, 0);
    if (r != POSENC_OK) {
        cli_error(st, "SET rope %s: %s (%s)", posenc_rope_type_name(type), posenc_strerror(r),
                  type_needs(type));
        return 0;
    }
    /* the new model becomes st->model; the old one (or none) the next scratch */
    posenc_rope_config *t = st->model;
    st->model = c;
    st->model_next = t;
    snprintf(st->model_label, sizeof st->model_label, "%s RoPE", posenc_rope_type_name(type));
    return 1;
}

int cli_set_seq_len(cli_state *st, cli_token t)
{
    int64_t v;
    if (posenc_parse_int64(t.s, t.len, &v) != POSENC_OK || v < 0 || v > POSENC_MAX_POS + 1) {
        cli_error(st, "seq_len must be an integer from 0 (the positions used) to %lld, got "
                      "'%.*s'",
                  POSENC_MAX_POS + 1, SHOW(t.s, t.len));
        return 0;
    }
    st->seq_len = v;
    return 1;
}

void cli_rope_settings_changed(cli_state *st)
{
    if (st->model) {
        st->model->base = st->base;
        st->model->layout = st->layout;
    }
}

/* ---- ROPE and DOT with the model ------------------------------------------------- */

/* The model's rotation for a sequence reaching position last (cur_len =
 * seq_len, or last + 1 when seq_len is 0). */
static posenc_status model_init(cli_state *st, int64_t last)
{
    int64_t len = st->seq_len ? st->seq_len : last + 1;
    return posenc_rope_init_config(st->model_rope, st->model, len);
}

static int check_len(cli_state *st, const char *cmd, size_t D)
{
    if (D == st->model->head_dim)
        return 1;
    cli_error(st, "%s with a model RoPE takes vectors of head_dim = %u numbers, got %zu (SET rope "
                  "off for plain RoPE over any length)",
              cmd, st->model->head_dim, D);
    return 0;
}

int cli_model_rope(cli_state *st, int64_t pos, size_t D)
{
    if (!check_len(st, "ROPE", D))
        return 0;
    posenc_status s = model_init(st, pos);
    if (s == POSENC_OK)
        s = posenc_rope_vec_f64(st->model_rope, pos, 0, st->vec);
    if (s != POSENC_OK) {
        cli_error(st, "%s", posenc_strerror(s));
        return 0;
    }
    cli_print_numbers(st, st->vec, D);
    return 1;
}

int cli_model_dot(cli_state *st, int64_t m, int64_t n, size_t D)
{
    double dot;
    if (!check_len(st, "DOT", D))
        return 0;
    posenc_status s = model_init(st, m > n ? m : n);
    if (s == POSENC_OK)
        s = posenc_rope_vec_dot_f64(st->model_rope, m, n, st->vec, st->vec2, &dot);
    if (s != POSENC_OK) {
        cli_error(st, "%s", posenc_strerror(s));
        return 0;
    }
    cli_print_numbers(st, &dot, 1);
    return 1;
}

/* ---- EXPLAIN FREQS ------------------------------------------------------------------- */

static void print_g(cli_state *st, const char *name, double v)
{
    fprintf(st->out, " %s=%.*g", name, st->precision + 2, v);
}

static void print_header(cli_state *st, const posenc_rope_config *c, const posenc_freqs_summary *sum)
{
    const posenc_rope_scaling *s = &c->scaling;
    fprintf(st->out, "FREQS type=%s head_dim=%u rotary_dim=%u base=%.17g layout=%s",
            posenc_rope_type_name(s->type), c->head_dim, c->rotary_dim, c->base,
            layout_name(c->layout));
    switch (s->type) {
    case POSENC_ROPE_DEFAULT: break;
    case POSENC_ROPE_LINEAR: print_g(st, "factor", s->factor); break;
    case POSENC_ROPE_NTK:
        print_g(st, "factor", s->factor);
        print_g(st, "stretched_base", sum->effective_base);
        break;
    case POSENC_ROPE_DYNAMIC:
        print_g(st, "factor", s->factor);
        print_g(st, "original", s->original_max_position_embeddings);
        fprintf(st->out, " len=%lld", (long long)sum->len);
        print_g(st, "stretched_base", sum->effective_base);
        break;
    case POSENC_ROPE_YARN:
        print_g(st, "factor", s->factor);
        print_g(st, "original", s->original_max_position_embeddings);
        print_g(st, "beta_fast", s->beta_fast);
        print_g(st, "beta_slow", s->beta_slow);
        fprintf(st->out, " truncate=%s", s->truncate ? "true" : "false");
        if (s->mscale != 0.0)
            print_g(st, "mscale", s->mscale);
        if (s->mscale_all_dim != 0.0)
            print_g(st, "mscale_all_dim", s->mscale_all_dim);
        break;
    case POSENC_ROPE_LLAMA3:
        print_g(st, "factor", s->factor);
        print_g(st, "low_freq_factor", s->low_freq_factor);
        print_g(st, "high_freq_factor", s->high_freq_factor);
        print_g(st, "original", s->original_max_position_embeddings);
        break;
    case POSENC_ROPE_LONGROPE:
        print_g(st, "factor", s->factor);
        print_g(st, "original", s->original_max_position_embeddings);
        fprintf(st->out, " len=%lld factors=%s", (long long)sum->len,
                sum->uses_long_factor ? "long" : "short");
        break;
    }
    print_g(st, "attn_factor", sum->attn_factor);
    fputc('\n', st->out);
    switch (s->type) {
    case POSENC_ROPE_LLAMA3:
        fprintf(st->out, "bands: wavelength < %.*g tokens: high (kept); > %.*g tokens: low "
                         "(divided by factor); between: blend, ramp = weight of freq/factor\n",
                st->precision + 2, sum->band_lo, st->precision + 2, sum->band_hi);
        break;
    case POSENC_ROPE_YARN:
        fprintf(st->out, "ramp: pairs k <= %.*g: high (kept); k >= %.*g: low (divided by "
                         "factor); between: blend, ramp = (k - %.*g) / (%.*g - %.*g)\n",
                st->precision + 2, sum->band_lo, st->precision + 2, sum->band_hi,
                st->precision + 2, sum->band_lo, st->precision + 2, sum->band_hi,
                st->precision + 2, sum->band_lo);
        break;
    case POSENC_ROPE_LONGROPE:
        fputs("each pair's frequency divided by its own factor from the list\n", st->out);
        break;
    default: break;
    }
}

int cli_explain_freqs(cli_state *st, const cli_token *a, size_t n)
{
    int64_t len = st->seq_len;
    posenc_rope_config *c = st->model;
    if (!c) {
        /* plain RoPE: EXPLAIN FREQS D */
        int64_t D;
        if (n != 1 || posenc_parse_int64(a[0].s, a[0].len, &D) != POSENC_OK || D < 2 ||
            D > POSENC_ROPE_MAX_HEAD_DIM || D % 2) {
            cli_error(st, "EXPLAIN FREQS needs a model RoPE (--config FILE or SET rope ...), or "
                          "an even dimension D from 2 to %u for plain RoPE",
                      POSENC_ROPE_MAX_HEAD_DIM);
            return 0;
        }
        if (!ensure_model(st)) {
            cli_error(st, "out of memory");
            return 0;
        }
        c = st->model_next;
        memset(c, 0, sizeof *c);
        c->head_dim = c->rotary_dim = (uint32_t)D;
        c->base = st->base;
        c->layout = st->layout;
        posenc_rope_scaling_init(&c->scaling, POSENC_ROPE_DEFAULT);
    } else if (n > 1 || (n == 1 && (posenc_parse_int64(a[0].s, a[0].len, &len) != POSENC_OK ||
                                    len < 0 || len > POSENC_MAX_POS + 1))) {
        cli_error(st, "EXPLAIN FREQS takes an optional sequence length from 0 to %lld (for "
                      "dynamic and longrope)",
                  POSENC_MAX_POS + 1);
        return 0;
    }
    posenc_rope_scaling s;
    posenc_freqs_summary sum;
    static posenc_freq_info info[POSENC_ROPE_MAX_HEAD_DIM / 2];
    posenc_rope_config_scaling(c, &s);
    posenc_status r = posenc_rope_explain_freqs(c->rotary_dim, c->base, &s, len, info, &sum);
    if (r != POSENC_OK) {
        cli_error(st, "%s", posenc_strerror(r));
        return 0;
    }
    print_header(st, c, &sum);
    for (uint32_t k = 0; k < c->rotary_dim / 2; k++) {
        const posenc_freq_info *p = &info[k];
        uint32_t i0, i1;
        posenc_pair_index(k, c->rotary_dim, c->layout, &i0, &i1);
        fprintf(st->out, "k=%u elements %u,%u", k, i0, i1);
        print_g(st, "base_freq", p->base_inv_freq);
        print_g(st, "freq", p->inv_freq);
        print_g(st, "base_wavelength", p->base_wavelength);
        print_g(st, "wavelength", p->wavelength);
        fprintf(st->out, " band=%s", posenc_freq_band_name(p->band));
        if (p->band == POSENC_BAND_BLEND)
            print_g(st, "ramp", p->ramp);
        if (p->pair_factor != 1.0)
            print_g(st, "pair_factor", p->pair_factor);
        fputc('\n', st->out);
    }
    if (c->rotary_dim < c->head_dim)
        fprintf(st->out, "elements %u..%u: not rotated (partial rotary)\n", c->rotary_dim,
                c->head_dim - 1);
    return 1;
}
