/* model_cmds.c - a model from the registry in the command language:
 * --config FILE read through the registry (--model-type TYPE to name the
 * family), --layer N and SET layer N (the layer ROPE, DOT, EXPLAIN FREQS and
 * the plots use), EXPLAIN MODEL, and posenc --models. Parsing and printing
 * only: the facts come from the library (posenc_model_from_config,
 * posenc_model_layer, posenc_model_families). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

void cli_model_free(cli_state *st)
{
    free(st->registry_model);
    st->registry_model = NULL;
}

/* A parameter value: the shortest of %.15g / %.17g that reads back exactly. */
static void put_num(FILE *out, const char *key, double v)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, sizeof buf, "%.17g", v);
    fprintf(out, " %s=%s", key, buf);
}

static const char *layout_word(posenc_layout l)
{
    return l == POSENC_LAYOUT_HALF ? "half" : "interleaved";
}

/* ---- the active layer ----------------------------------------------------------- */

/* Points st->model at the active layer's RoPE (a copy), or at nothing when the
 * layer has none. Returns 0 with a message in why on failure. */
static int install_layer(cli_state *st, char *why, size_t n)
{
    const posenc_model_group *g;
    posenc_model *m = st->registry_model;
    if (posenc_model_layer(m, st->layer, &g) != POSENC_OK) {
        snprintf(why, n, "layer %u does not exist: the model has %u layers (0 to %u)", st->layer,
                 m->n_layer, m->n_layer - 1);
        return 0;
    }
    if (g->scheme != POSENC_SCHEME_ROPE) {
        free(st->model);
        st->model = NULL;
        st->mrope_on = 0;
        return 1;
    }
    if (!st->model)
        st->model = malloc(sizeof *st->model);
    if (!st->model_next)
        st->model_next = malloc(sizeof *st->model_next);
    if (!st->model_rope)
        st->model_rope = malloc(sizeof *st->model_rope);
    if (!st->model || !st->model_next || !st->model_rope) {
        snprintf(why, n, "out of memory");
        return 0;
    }
    *st->model = g->rope;
    st->layout = g->rope.layout;
    st->base = g->rope.base;
    /* an M-RoPE layer: ROPE, DOT and EXPLAIN ROPE take t:h:w positions */
    st->mrope_on = g->mrope && posenc_mrope_init(&st->mrope, g->rope.rotary_dim / 2,
                                                 g->mrope_section, g->mrope_rule) == POSENC_OK;
    if (st->mrope_on) { /* MROPE_POSITIONS: the config's vision settings */
        st->mrope_merge = g->mrope_merge;
        st->mrope_tps = g->mrope_tokens_per_second;
    }
    return 1;
}

int cli_layer_rotates(const cli_state *st)
{
    const posenc_model_group *g;
    if (!st->registry_model)
        return 1;
    return posenc_model_layer(st->registry_model, st->layer, &g) == POSENC_OK &&
           g->scheme == POSENC_SCHEME_ROPE;
}

int cli_set_layer(cli_state *st, cli_token t)
{
    int64_t v;
    char why[160];
    if (posenc_parse_int64(t.s, t.len, &v) != POSENC_OK || v < 0 ||
        v >= POSENC_MODEL_MAX_LAYERS) {
        cli_error(st, "layer must be an integer from 0 to %u, got '%.*s%s'",
                  POSENC_MODEL_MAX_LAYERS - 1, CLI_SHOW(t.s, t.len));
        return 0;
    }
    uint32_t old = st->layer;
    st->layer = (uint32_t)v;
    if (!st->registry_model)
        return 1; /* kept for a model loaded later */
    if (!install_layer(st, why, sizeof why)) {
        st->layer = old;
        cli_error(st, "SET layer: %s", why);
        return 0;
    }
    return 1;
}

/* ---- --config through the registry ------------------------------------------------ */

int cli_model_load(cli_state *st, const char *path, const char *model_type, int layout_given,
                   char *why, size_t n)
{
#ifdef POSENC_HAVE_JSON
    posenc_config_error err;
    posenc_model *m = malloc(sizeof *m);
    if (!m) {
        snprintf(why, n, "out of memory");
        return 0;
    }
    posenc_status s = posenc_model_from_config(path, model_type, m, &err);
    if (s != POSENC_OK) {
        snprintf(why, n, "%s: %s", path, err.detail[0] ? err.detail : posenc_strerror(s));
        free(m);
        return 0;
    }
    if (layout_given) /* --layout overrides the family's layout on every RoPE layer */
        for (uint32_t i = 0; i < m->n_group; i++)
            m->group[i].rope.layout = st->layout;
    free(st->registry_model);
    st->registry_model = m;
    if (!install_layer(st, why, n)) {
        free(st->registry_model);
        st->registry_model = NULL;
        return 0;
    }
    /* label: the file name without directory and .json */
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t nl = strlen(name);
    if (nl > 5 && strcmp(name + nl - 5, ".json") == 0)
        nl -= 5;
    snprintf(st->model_label, sizeof st->model_label, "%.*s", (int)(nl < 95 ? nl : 95), name);
    return 1;
#else
    (void)model_type;
    return cli_load_config(st, path, layout_given, why, n);
#endif
}

/* ---- ROPE, DOT, EXPLAIN FREQS on a layer without RoPE ---------------------------- */

static void why_no_rope(cli_state *st, const posenc_model_group *g, FILE *out)
{
    fprintf(out, "layer %u of %s has no RoPE (scheme %s)", st->layer,
            st->registry_model->model_type, posenc_scheme_name(g->scheme));
}

int cli_layer_rope_passthrough(cli_state *st, size_t D)
{
    cli_print_numbers(st, st->vec, D); /* the head, unchanged */
    return 1;
}

int cli_layer_dot_passthrough(cli_state *st, size_t D)
{
    double dot = 0.0;
    for (size_t i = 0; i < D; i++)
        dot += st->vec[i] * st->vec2[i];
    cli_print_numbers(st, &dot, 1);
    return 1;
}

int cli_model_explain_freqs(cli_state *st, const cli_token *a, size_t n)
{
    const posenc_model_group *g;
    if (cli_layer_rotates(st))
        return cli_explain_freqs(st, a, n);
    posenc_status r = posenc_model_layer(st->registry_model, st->layer, &g);
    if (r != POSENC_OK) {
        cli_error(st, "%s", posenc_strerror(r));
        return 0;
    }
    fprintf(st->out, "FREQS scheme=%s: ", posenc_scheme_name(g->scheme));
    why_no_rope(st, g, st->out);
    fputs(": ROPE returns heads unchanged and DOT is the plain dot product here\n", st->out);
    return 1;
}

/* ---- EXPLAIN MODEL ---------------------------------------------------------------- */

/* "0-2,4-6,8" : the layers of group gi. */
static void put_layers(FILE *out, const posenc_model *m, uint32_t gi)
{
    int first = 1;
    for (uint32_t i = 0; i < m->n_layer;) {
        if (m->layer_group[i] != gi) {
            i++;
            continue;
        }
        uint32_t j = i;
        while (j + 1 < m->n_layer && m->layer_group[j + 1] == gi)
            j++;
        fprintf(out, "%s%u", first ? "" : ",", i);
        if (j > i)
            fprintf(out, "-%u", j);
        first = 0;
        i = j + 1;
    }
}

static void put_scaling(FILE *out, const posenc_rope_scaling *s)
{
    switch (s->type) {
    case POSENC_ROPE_DEFAULT: break;
    case POSENC_ROPE_LINEAR:
    case POSENC_ROPE_NTK: put_num(out, "factor", s->factor); break;
    case POSENC_ROPE_DYNAMIC:
        put_num(out, "factor", s->factor);
        put_num(out, "original", s->original_max_position_embeddings);
        break;
    case POSENC_ROPE_YARN:
        put_num(out, "factor", s->factor);
        put_num(out, "original", s->original_max_position_embeddings);
        put_num(out, "beta_fast", s->beta_fast);
        put_num(out, "beta_slow", s->beta_slow);
        fprintf(out, " truncate=%s", s->truncate ? "true" : "false");
        if (s->mscale != 0.0)
            put_num(out, "mscale", s->mscale);
        if (s->mscale_all_dim != 0.0)
            put_num(out, "mscale_all_dim", s->mscale_all_dim);
        break;
    case POSENC_ROPE_LLAMA3:
        put_num(out, "factor", s->factor);
        put_num(out, "low_freq_factor", s->low_freq_factor);
        put_num(out, "high_freq_factor", s->high_freq_factor);
        put_num(out, "original", s->original_max_position_embeddings);
        break;
    case POSENC_ROPE_LONGROPE:
        put_num(out, "factor", s->factor);
        put_num(out, "original", s->original_max_position_embeddings);
        break;
    }
}

static void put_qscale(FILE *out, const posenc_query_scale *q)
{
    if (q->type == POSENC_QSCALE_NONE)
        return;
    fprintf(out, " query_scale=%s", posenc_query_scale_name(q->type));
    /* no default branch that no type takes: NONE returned above */
    if (q->type == POSENC_QSCALE_TEMPERATURE) {
        put_num(out, "floor_scale", q->floor_scale);
        put_num(out, "attn_scale", q->attn_scale);
    } else if (q->type == POSENC_QSCALE_LOGN) {
        put_num(out, "seq_length", q->seq_length);
    } else { /* POSENC_QSCALE_BETA */
        put_num(out, "beta", q->beta);
        put_num(out, "beta_original", q->original);
    }
}

static int put_group(cli_state *st, const posenc_model *m, uint32_t gi)
{
    FILE *out = st->out;
    const posenc_model_group *g = &m->group[gi];
    fputs("layers ", out);
    put_layers(out, m, gi);
    fprintf(out, ": %s", posenc_scheme_name(g->scheme));
    switch (g->scheme) {
    case POSENC_SCHEME_ROPE: {
        const posenc_rope_config *c = &g->rope;
        posenc_rope *r = st->model_rope;
        fprintf(out, " type=%s layout=%s head_dim=%u rotary_dim=%u",
                g->mrope && g->configured.type == POSENC_ROPE_DEFAULT
                    ? "mrope"
                    : posenc_rope_type_name(g->configured.type),
                layout_word(c->layout), c->head_dim, c->rotary_dim);
        if (g->mrope) {
            fprintf(out, " mrope_section=%u:%u:%u mrope_rule=%s merge=%u", g->mrope_section[0],
                    g->mrope_section[1], g->mrope_section[2],
                    posenc_mrope_rule_name(g->mrope_rule), g->mrope_merge);
            if (g->mrope_tokens_per_second)
                fprintf(out, " tokens_per_second=%u", g->mrope_tokens_per_second);
        }
        put_num(out, "base", c->base);
        put_scaling(out, &g->configured);
        if (g->configured.attention_factor > 0)
            put_num(out, "attention_factor", g->configured.attention_factor);
        if (g->llama3_step)
            fputs(" step=clean", out);
        if (g->qwen_dynamic_ntk) {
            fputs(" dynamic_ntk=qwen", out);
            put_num(out, "ntk_seq_length", g->qwen_seq_length);
        }
        if (r && posenc_rope_init_config(r, c, 0) == POSENC_OK)
            put_num(out, "attn_factor", r->attn_factor);
        break;
    }
    case POSENC_SCHEME_ALIBI:
        fprintf(out, " heads=%u", g->n_head);
        put_num(out, "bias_max", g->alibi_bias_max);
        if (g->alibi_bf16)
            fputs(" slopes=bf16", out);
        if (g->alibi_slope_scale != 1.0)
            put_num(out, "slope_scale", g->alibi_slope_scale);
        break;
    case POSENC_SCHEME_LEARNED:
        fprintf(out, " positions=%lld offset=%lld dim=%u", (long long)g->positions,
                (long long)g->offset, g->dim);
        break;
    case POSENC_SCHEME_SINUSOID:
        fprintf(out, " positions=%lld dim=%u base=10000 %s", (long long)g->positions, g->dim,
                g->sinusoid_whisper ? "layout=half exponent=k/(dim/2-1)"
                                    : "layout=interleaved exponent=2k/dim");
        break;
    case POSENC_SCHEME_RELATIVE_BUCKETS:
        fprintf(out, " buckets=%u max_distance=%u bidirectional=%s", g->buckets, g->max_distance,
                g->bidirectional ? "true" : "false");
        break;
    default: break;
    }
    put_qscale(out, &g->qscale);
    if (strcmp(g->layer_type, "encoder") == 0 || strcmp(g->layer_type, "decoder") == 0)
        fprintf(out, " stack=%s", g->layer_type);
    else if (g->layer_type[0])
        fprintf(out, " layer_type=%s", g->layer_type);
    fputc('\n', out);
    return 1;
}

int cli_explain_model(cli_state *st, const cli_token *a, size_t n)
{
    (void)a;
    if (n != 0) {
        cli_error(st, "EXPLAIN MODEL takes no arguments");
        return 0;
    }
    const posenc_model *m = st->registry_model;
    if (!m) {
        cli_error(st, "EXPLAIN MODEL needs a model: start posenc with --config FILE (a "
                      "config.json with a model_type)");
        return 0;
    }
    if (!st->model_rope)
        st->model_rope = malloc(sizeof *st->model_rope);
    fprintf(st->out, "MODEL type=%s part=%s layers=%u scheme=%s\n",
            m->model_type[0] ? m->model_type : "-",
            m->part[0] ? m->part : "-", m->n_layer, posenc_scheme_name(m->scheme));
    for (uint32_t gi = 0; gi < m->n_group; gi++)
        put_group(st, m, gi);
    if (m->ignored[0]) {
        fputs("ignored keys=", st->out);
        for (const char *p = m->ignored; *p; p++)
            fputc(*p == ' ' ? ',' : *p, st->out);
        fputc('\n', st->out);
    }
    return 1;
}

/* ---- posenc --models ------------------------------------------------------------- */

void cli_list_models(FILE *out)
{
    const posenc_model_family *t;
    size_t n = posenc_model_families(&t);
    for (size_t i = 0; i < n; i++) {
        const posenc_model_family *f = &t[i];
        int rope = !f->nested && (f->scheme == POSENC_SCHEME_ROPE || f->scheme == POSENC_SCHEME_MIXED) &&
                   f->layers != POSENC_LAYERS_ENC_DEC;
        fprintf(out, "%s scheme=%s layout=%s", f->model_type, posenc_scheme_name(f->scheme),
                rope ? layout_word(f->layout) : "-");
        if (f->nested)
            fprintf(out, " part=%s(%s)", f->nested, f->nested_type);
        if (f->flags & (POSENC_FAMILY_ALIBI_KEY | POSENC_FAMILY_BAICHUAN))
            fputs(" or=alibi", out);
        if (f->refused)
            fputs(" supported=no", out);
        fprintf(out, " source=%s\n", f->source);
    }
}

/* ---- LEARNED with a model: the family's index offset ------------------------------- */

int64_t cli_learned_offset(const cli_state *st, const posenc_model_group **g)
{
    *g = NULL;
    if (!st->registry_model ||
        posenc_model_layer(st->registry_model, st->layer, g) != POSENC_OK ||
        (*g)->scheme != POSENC_SCHEME_LEARNED) {
        *g = NULL;
        return 0;
    }
    return (*g)->offset;
}

void cli_explain_learned_offset(cli_state *st, const posenc_model_group *g)
{
    const posenc_model *m = st->registry_model;
    FILE *out = st->out;
    if (!m) {
        fputs("offset 0: no --config model, row = pos\n", out);
        return;
    }
    if (!g) {
        const posenc_model_group *lg = &m->group[m->layer_group[st->layer]]; /* a valid layer */
        fprintf(out, "offset 0: layer %u of %s has no learned table (scheme %s), row = pos",
                st->layer, m->model_type[0] ? m->model_type : "the model",
                posenc_scheme_name(lg->scheme));
        for (uint32_t i = 0; i < m->n_layer; i++)
            if (m->group[m->layer_group[i]].scheme == POSENC_SCHEME_LEARNED) {
                fprintf(out, "; layer %u has one (SET layer %u)", i, i);
                break;
            }
        fputc('\n', out);
        return;
    }
    fprintf(out, "offset %lld from the model registry: %s layer %u", (long long)g->offset,
            m->model_type, st->layer);
    if (g->layer_type[0])
        fprintf(out, " (%s stack)", g->layer_type);
    if (m->family && m->family->pos_offset < 0)
        fprintf(out, ", pad_token_id + 1 (the embedding's padding_idx + 1)");
    else
        fprintf(out, ", fixed by the family's code");
    fprintf(out, "; row = pos + %lld; source %s\n", (long long)g->offset,
            m->family ? m->family->source : "-");
}
