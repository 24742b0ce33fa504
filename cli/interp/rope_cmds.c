/* rope_cmds.c - a model's RoPE in the command language: --config FILE,
 * SET rope TYPE key=value ..., SET seq_len, ROPE and DOT on heads of the
 * model's head_dim, and EXPLAIN FREQS. Parsing and printing only: every
 * number printed comes from the library (posenc_rope_init_config,
 * posenc_rope_vec_f64, posenc_rope_explain_freqs). */
#include "cli.h"
#include "rope_spec.h"

#include <stdlib.h>
#include <string.h>

/* Allocates the scratch models, rotation and configuration on first use. */
static int ensure_model(cli_state *st)
{
    if (!st->model_rope)
        st->model_rope = malloc(sizeof *st->model_rope);
    if (!st->model_cfg)
        st->model_cfg = malloc(sizeof *st->model_cfg);
    if (!st->model_next && posenc_model_create(&st->model_next) != POSENC_OK)
        st->model_next = NULL;
    return st->model_rope && st->model_cfg && st->model_next;
}

void cli_rope_free(cli_state *st)
{
    posenc_model_free(st->model);
    posenc_model_free(st->model_next);
    free(st->model_rope);
    free(st->model_cfg);
    st->model = st->model_next = NULL;
    st->model_rope = NULL;
    st->model_cfg = NULL;
}

static const char *layout_name(posenc_layout l)
{
    return l == POSENC_LAYOUT_HALF ? "half" : "interleaved";
}

/* ---- the model and its active layer ------------------------------------------- */

const posenc_rope_config *cli_active_rope(cli_state *st)
{
    if (!st->model || !st->model_cfg ||
        posenc_model_layer_rope_config(st->model, st->layer, st->model_cfg) != POSENC_OK)
        return NULL;
    return st->model_cfg;
}

int cli_install_model(cli_state *st, posenc_model *m, int from_config, char *why, size_t n)
{
    posenc_layer_info li;
    if (!ensure_model(st)) {
        posenc_model_free(m);
        snprintf(why, n, "out of memory");
        return 0;
    }
    if (posenc_model_layer(m, st->layer, &li) != POSENC_OK) {
        uint32_t nl = posenc_model_n_layer(m);
        snprintf(why, n, "layer %u does not exist: the model has %u layers (0 to %u)", st->layer,
                 nl, nl - 1);
        posenc_model_free(m);
        return 0;
    }
    posenc_model_free(st->model);
    st->model = m;
    st->model_from_config = from_config;
    const posenc_rope_config *c = cli_active_rope(st);
    if (c) { /* the layer's base and layout are the settings in force */
        st->layout = c->layout;
        st->base = c->base;
    }
    /* an M-RoPE layer: ROPE, DOT and EXPLAIN ROPE take t:h:w positions, and
     * MROPE_POSITIONS the config's vision settings */
    st->mrope_on = posenc_model_layer_mrope(m, st->layer, &st->mrope, &st->mrope_merge,
                                            &st->mrope_tps) == POSENC_OK;
    return 1;
}

/* ---- SET rope TYPE key=value ... ------------------------------------------------ */

int cli_set_rope_config(cli_state *st, const posenc_rope_config *spec)
{
    if (!ensure_model(st)) {
        cli_error(st, "out of memory");
        return 0;
    }
    /* the new model: the RoPE on every layer (so SET layer keeps it) */
    if (posenc_model_set_rope(st->model_next, spec, POSENC_MODEL_MAX_LAYERS) != POSENC_OK) {
        cli_error(st, "out of memory"); /* spec was checked by rope_spec_parse */
        return 0;
    }
    posenc_model *t = st->model;
    st->model = st->model_next;
    st->model_next = t;
    st->model_from_config = 0;
    return 1; /* model_next: the old model, or NULL (made on next use) */
}

int cli_set_rope(cli_state *st, const cli_token *a, size_t n)
{
    char why[512];
    posenc_rope_config spec; /* 12 KiB: parsed here, kept only if it is good */
    rope_spec_start from = {st->base, st->layout, cli_active_rope(st)};
    switch (rope_spec_parse(a, n, &from, &spec, why, sizeof why)) {
    case ROPE_SPEC_OFF:
        posenc_model_free(st->model);
        st->model = NULL;
        st->model_from_config = 0;
        st->mrope_on = 0;
        return 1;
    case ROPE_SPEC_SET:
        if (!cli_set_rope_config(st, &spec))
            return 0;
        st->mrope_on = 0;
        snprintf(st->model_label, sizeof st->model_label, "%s RoPE",
                 posenc_rope_type_name(spec.scaling.type));
        return 1;
    default:
        cli_error(st, "%s", why);
        return 0;
    }
}

int cli_set_seq_len(cli_state *st, cli_token t)
{
    int64_t v;
    if (posenc_parse_int64(t.s, t.len, &v) != POSENC_OK || v < 0 || v > POSENC_MAX_POS + 1) {
        cli_error(st, "seq_len must be an integer from 0 (the positions used) to %lld, got "
                      "'%.*s%s'",
                  POSENC_MAX_POS + 1, CLI_SHOW(t.s, t.len));
        return 0;
    }
    st->seq_len = v;
    return 1;
}

void cli_rope_settings_changed(cli_state *st)
{
    posenc_rope_config *c = (posenc_rope_config *)cli_active_rope(st);
    if (!c)
        return;
    c->base = st->base;
    c->layout = st->layout;
    /* a base SET base accepted and a known layout: the RoPE stays valid, or
     * it is kept as it was */
    if (posenc_model_set_layer_rope(st->model, st->layer, c) != POSENC_OK)
        return;
}

/* ---- ROPE and DOT with the model ------------------------------------------------- */

posenc_status cli_layer_rope(cli_state *st, int64_t last)
{
    int64_t len = st->seq_len ? st->seq_len : last + 1;
    return posenc_model_layer_rope(st->model, st->layer, len, st->model_rope);
}

static int check_len(cli_state *st, const char *cmd, size_t D)
{
    const posenc_rope_config *c = cli_active_rope(st);
    if (D == c->head_dim)
        return 1;
    cli_error(st, "%s with a model RoPE takes vectors of head_dim = %u numbers, got %zu (SET rope "
                  "off for plain RoPE over any length)",
              cmd, c->head_dim, D);
    return 0;
}

/* A layer whose cos/sin are rows of a table (RoFormer's max_position_embeddings
 * rows, posenc_model_layer_rope_rows): a position at or past it, or SET seq_len
 * beyond it, is refused by name, as the family's code raises an index error
 * there. 1 when within. */
static int within_table(cli_state *st, const char *cmd, int64_t last)
{
    int64_t rows = 0;
    int values;
    /* the layer has RoPE (ROPE and DOT take the model's only then) */
    cli_cannot_fail(posenc_model_layer_rope_rows(st->model, st->layer, &rows, &values));
    if (rows == 0 || (last < rows && st->seq_len <= rows))
        return 1;
    cli_error(st, "%s: %s %lld is past layer %u's table: family %s reads cos and sin from %lld "
                  "rows (max_position_embeddings), and its code raises an index error there",
              cmd, last >= rows ? "position" : "seq_len",
              (long long)(last >= rows ? last : st->seq_len), st->layer,
              posenc_model_type(st->model), (long long)rows);
    return 0;
}

int cli_model_rope(cli_state *st, int64_t pos, size_t D)
{
    if (!check_len(st, "ROPE", D) || !within_table(st, "ROPE", pos))
        return 0;
    posenc_status s = cli_layer_rope(st, pos);
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
    if (!check_len(st, "DOT", D) || !within_table(st, "DOT", m > n ? m : n))
        return 0;
    posenc_status s = cli_layer_rope(st, m > n ? m : n);
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

/* A setting the user gave (or the config file held), echoed exactly, as the
 * header's base is. */
static void print_setting(cli_state *st, const char *name, double v)
{
    fprintf(st->out, " %s=%.17g", name, v);
}

/* A number the library computed, with SET precision like every other. */
static void print_value(cli_state *st, const char *name, double v)
{
    fprintf(st->out, " %s=%s", name, cli_format_number(st, v));
}

static void print_header(cli_state *st, const posenc_rope_config *c, const posenc_freqs_summary *sum)
{
    const posenc_rope_scaling *s = &c->scaling;
    fprintf(st->out, "FREQS type=%s head_dim=%u rotary_dim=%u base=%.17g layout=%s",
            posenc_rope_type_name(s->type), c->head_dim, c->rotary_dim, c->base,
            layout_name(c->layout));
    if (s->type != POSENC_ROPE_DEFAULT) /* every scaling has a factor: first */
        print_setting(st, "factor", s->factor);
    switch (s->type) {
    case POSENC_ROPE_DEFAULT:
    case POSENC_ROPE_LINEAR: break;
    case POSENC_ROPE_NTK:
        print_value(st, "stretched_base", sum->effective_base);
        break;
    case POSENC_ROPE_DYNAMIC:
        print_setting(st, "original", s->original_max_position_embeddings);
        fprintf(st->out, " len=%lld", (long long)sum->len);
        print_value(st, "stretched_base", sum->effective_base);
        break;
    case POSENC_ROPE_YARN:
        print_setting(st, "original", s->original_max_position_embeddings);
        print_setting(st, "beta_fast", s->beta_fast);
        print_setting(st, "beta_slow", s->beta_slow);
        fprintf(st->out, " truncate=%s", s->truncate ? "true" : "false");
        if (s->mscale != 0.0)
            print_setting(st, "mscale", s->mscale);
        if (s->mscale_all_dim != 0.0)
            print_setting(st, "mscale_all_dim", s->mscale_all_dim);
        break;
    case POSENC_ROPE_LLAMA3:
        print_setting(st, "low_freq_factor", s->low_freq_factor);
        print_setting(st, "high_freq_factor", s->high_freq_factor);
        print_setting(st, "original", s->original_max_position_embeddings);
        break;
    case POSENC_ROPE_LONGROPE:
        print_setting(st, "original", s->original_max_position_embeddings);
        fprintf(st->out, " len=%lld factors=%s", (long long)sum->len,
                sum->uses_long_factor ? "long" : "short");
        break;
    case POSENC_ROPE_PROPORTIONAL:
        print_setting(st, "partial_rotary_factor", s->partial_rotary_factor);
        break;
    }
    print_value(st, "attn_factor", sum->attn_factor);
    fputc('\n', st->out);
    switch (s->type) {
    case POSENC_ROPE_LLAMA3:
        fprintf(st->out, "bands: wavelength < %s tokens: high (kept); ",
                cli_format_number(st, sum->llama3_keep_below));
        fprintf(st->out,
                "> %s tokens: low (divided by factor); between: blend, ramp = weight "
                "of freq/factor\n",
                cli_format_number(st, sum->llama3_divide_above));
        break;
    case POSENC_ROPE_YARN: {
        /* cli_format_number's buffer holds one number at a time */
        char lo[sizeof st->num], hi[sizeof st->num];
        snprintf(lo, sizeof lo, "%s", cli_format_number(st, sum->yarn_ramp_lo));
        snprintf(hi, sizeof hi, "%s", cli_format_number(st, sum->yarn_ramp_hi));
        fprintf(st->out, "ramp: pairs k <= %s: high (kept); k >= %s: low (divided by factor); "
                         "between: blend, ramp = (k - %s) / (%s - %s)\n",
                lo, hi, lo, hi, lo);
        break;
    }
    case POSENC_ROPE_LONGROPE:
        fputs("each pair's frequency divided by its own factor from the list\n", st->out);
        break;
    case POSENC_ROPE_PROPORTIONAL:
        fputs("pairs k < floor(partial_rotary_factor * rotary_dim / 2): base^(-2k/rotary_dim) / "
              "factor; the rest: frequency 0 (band zero, not rotated)\n",
              st->out);
        break;
    default: break;
    }
}

int cli_explain_freqs(cli_state *st, const cli_token *a, size_t n)
{
    int64_t len = st->seq_len;
    posenc_rope_config *c = (posenc_rope_config *)cli_active_rope(st);
    int model = c != NULL;
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
        c = st->model_cfg;
        memset(c, 0, sizeof *c);
        c->head_dim = c->rotary_dim = (uint32_t)D;
        c->base = st->base;
        c->layout = st->layout;
        /* a known type */
        cli_cannot_fail(posenc_rope_scaling_init(&c->scaling, POSENC_ROPE_DEFAULT));
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
    /* the layer's scaling at len, as its RoPE is built (a family's length
     * rule, e.g. Qwen 1's dynamic NTK, included); the header shows it */
    posenc_status r = model ? posenc_model_layer_scaling(st->model, st->layer, len, &s)
                            : posenc_rope_config_scaling(c, &s);
    if (r == POSENC_OK && model && s.type != c->scaling.type) {
        c->scaling = s;
        c->scaling.short_factor = c->scaling.long_factor = c->scaling.freq_factors = NULL;
    }
    if (r == POSENC_OK)
        r = posenc_rope_explain_freqs(c->rotary_dim, c->base, &s, len, info, &sum);
    if (r != POSENC_OK) {
        cli_error(st, "%s", posenc_strerror(r));
        return 0;
    }
    print_header(st, c, &sum);
    if (model && posenc_model_layer_rope_sense(st->model, st->layer) < 0)
        fputs("sense: q and k turn by -theta (rotate_half cat(x2, -x1)): each pair's angle is "
              "-pos * freq\n",
              st->out);
    for (uint32_t k = 0; k < c->rotary_dim / 2; k++) {
        const posenc_freq_info *p = &info[k];
        uint32_t i0, i1;
        /* rotary_dim and the layout were checked */
        cli_cannot_fail(posenc_pair_index(k, c->rotary_dim, c->layout, &i0, &i1));
        fprintf(st->out, "k=%u elements %u,%u", k, i0, i1);
        print_value(st, "base_freq", p->base_inv_freq);
        print_value(st, "freq", p->inv_freq);
        print_value(st, "base_wavelength", p->base_wavelength);
        print_value(st, "wavelength", p->wavelength);
        fprintf(st->out, " band=%s", posenc_freq_band_name(p->band));
        if (p->band == POSENC_BAND_BLEND)
            print_value(st, "ramp", p->ramp);
        if (p->pair_factor != 1.0)
            print_value(st, "pair_factor", p->pair_factor);
        fputc('\n', st->out);
    }
    if (c->rotary_dim < c->head_dim)
        fprintf(st->out, "elements %u..%u: not rotated (partial rotary)\n", c->rotary_dim,
                c->head_dim - 1);
    return 1;
}
