/* model_cmds.c - a model in the command language: --config FILE read as
 * its family's code does (--model-type TYPE to name the family; the
 * program's one --config reader), --layer N and SET layer N (the layer ROPE,
 * DOT, EXPLAIN FREQS and the plots use), EXPLAIN MODEL, and posenc
 * --models. Parsing and printing only: the facts come from the library
 * (posenc_model_from_config, the per-layer calls of posenc_model.h,
 * posenc_model_family_info). */
#include "cli.h"
#include "rope_spec.h"
#ifdef POSENC_HAVE_JSON
#include "posenc_config.h" /* the registry's listing */
#endif

#include <stdlib.h>
#include <string.h>

void cli_model_free(cli_state *st)
{
    cli_rope_free(st);
}

/* ---- the active layer ----------------------------------------------------------- */

int cli_layer_rotates(const cli_state *st)
{
    posenc_layer_info li;
    if (!st->model)
        return 1;
    return posenc_model_layer(st->model, st->layer, &li) == POSENC_OK &&
           li.scheme == POSENC_SCHEME_ROPE;
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
    posenc_layer_info li;
    if (st->model && posenc_model_layer(st->model, (uint32_t)v, &li) != POSENC_OK) {
        uint32_t nl = posenc_model_n_layer(st->model);
        cli_error(st, "SET layer: layer %lld does not exist: the model has %u layers (0 to %u)",
                  (long long)v, nl, nl - 1);
        return 0;
    }
    if (st->gguf && st->gguf_per_layer) {
        if (!cli_gguf_set_layer(st, (uint32_t)v, why, sizeof why)) {
            cli_error(st, "SET layer: %s", why);
            return 0;
        }
        return 1;
    }
    st->layer = (uint32_t)v;
    if (!st->model || !st->model_from_config)
        return 1; /* kept for a model loaded later; SET rope's is on every layer */
    posenc_model *m = st->model; /* installed again: its settings at the new layer */
    st->model = NULL;
    if (!cli_install_model(st, m, 1, why, sizeof why)) {
        cli_error(st, "SET layer: %s", why); /* out of memory */
        return 0;
    }
    return 1;
}

/* ---- --config ------------------------------------------------------------------------ */

int cli_model_load(cli_state *st, const char *path, const char *model_type, int layout_given,
                   char *why, size_t n)
{
    posenc_model *m;
    if (!rope_spec_read_model(path, model_type, &m, why, n))
        return 0;
    /* --layout overrides the family's layout on every RoPE layer */
    posenc_rope_config *c = NULL;
    if (layout_given && !(c = malloc(sizeof *c))) {
        posenc_model_free(m);
        snprintf(why, n, "out of memory");
        return 0;
    }
    for (uint32_t i = 0; c && i < posenc_model_n_layer(m); i++)
        if (posenc_model_layer_rope_config(m, i, c) == POSENC_OK) {
            c->layout = st->layout;
            cli_cannot_fail(posenc_model_set_layer_rope(m, i, c)); /* a known layout */
        }
    free(c);
    if (!cli_install_model(st, m, 1, why, n))
        return 0;
    rope_spec_file_label(path, st->model_label, sizeof st->model_label);
    return 1;
}

/* ---- EXPLAIN FREQS on a layer without RoPE --------------------------------------- */

static void why_no_rope(cli_state *st, const posenc_layer_info *li, FILE *out)
{
    const char *why = posenc_model_layer_reason(st->model, st->layer);
    fprintf(out, "layer %u of %s has no RoPE (scheme %s%s%s)", st->layer,
            posenc_model_type(st->model), posenc_scheme_name(li->scheme), why[0] ? ": " : "",
            why);
}

int cli_model_explain_freqs(cli_state *st, const cli_token *a, size_t n)
{
    posenc_layer_info li;
    if (cli_layer_rotates(st))
        return cli_explain_freqs(st, a, n);
    posenc_status r = posenc_model_layer(st->model, st->layer, &li);
    if (r != POSENC_OK) {
        cli_error(st, "%s", posenc_strerror(r));
        return 0;
    }
    fprintf(st->out, "FREQS scheme=%s: ", posenc_scheme_name(li.scheme));
    why_no_rope(st, &li, st->out);
    fputs(": ROPE returns heads unchanged and DOT is the plain dot product here\n", st->out);
    return 1;
}

/* ---- EXPLAIN MODEL ---------------------------------------------------------------- */

/* The group of layer i (a layer of the model). */
static uint32_t group_of(const posenc_model *m, uint32_t i)
{
    posenc_layer_info li;
    return posenc_model_layer(m, i, &li) == POSENC_OK ? li.group : UINT32_MAX;
}

/* "0-2,4-6,8" : the layers of group gi; *first_layer one of them. */
static void put_layers(FILE *out, const posenc_model *m, uint32_t gi, uint32_t *first_layer)
{
    int first = 1;
    uint32_t nl = posenc_model_n_layer(m);
    for (uint32_t i = 0; i < nl;) {
        if (group_of(m, i) != gi) {
            i++;
            continue;
        }
        uint32_t j = i;
        while (j + 1 < nl && group_of(m, j + 1) == gi)
            j++;
        fprintf(out, "%s%u", first ? "" : ",", i);
        if (first)
            *first_layer = i;
        if (j > i)
            fprintf(out, "-%u", j);
        first = 0;
        i = j + 1;
    }
}

int cli_explain_model(cli_state *st, const cli_token *a, size_t n)
{
    (void)a;
    if (n != 0) {
        cli_error(st, "EXPLAIN MODEL takes no arguments");
        return 0;
    }
    if (st->gguf)
        return cli_gguf_explain(st);
    const posenc_model *m = st->model;
    if (!m || !st->model_from_config) {
        cli_error(st, "EXPLAIN MODEL needs a model: start posenc with --config FILE (a "
                      "config.json with a model_type)");
        return 0;
    }
    const char *type = posenc_model_type(m), *part = posenc_model_part(m);
    fprintf(st->out, "MODEL type=%s part=%s layers=%u scheme=%s\n", type[0] ? type : "-",
            part[0] ? part : "-", posenc_model_n_layer(m),
            posenc_scheme_name(posenc_model_scheme(m)));
    for (uint32_t gi = 0; gi < posenc_model_n_group(m); gi++) {
        uint32_t layer = 0;
        posenc_layer_info li;
        char text[1024];
        fputs("layers ", st->out);
        put_layers(st->out, m, gi, &layer);
        cli_cannot_fail(posenc_model_layer(m, layer, &li));
        posenc_status s = posenc_model_layer_describe(m, layer, text, sizeof text);
        if (s != POSENC_OK) {
            fputc('\n', st->out);
            cli_error(st, "%s", posenc_strerror(s));
            return 0;
        }
        const char *why = posenc_model_layer_reason(m, layer);
        fprintf(st->out, ": %s%s", posenc_scheme_name(li.scheme), text);
        fprintf(st->out, why[0] ? " (%s)\n" : "\n", why);
    }
    posenc_rope ir;
    if (posenc_model_n_layer(m) > 0 && posenc_model_layer_indexer_rope(m, 0, 0, &ir) == POSENC_OK)
        fprintf(st->out,
                "indexer: rope layout=%s head_dim=%u rotary_dim=%u (each layer's frequencies "
                "and factor, on the indexer's q and k)\n",
                ir.layout == POSENC_LAYOUT_HALF ? "half" : "interleaved", ir.head_dim,
                ir.rotary_dim);
    const char *ign = posenc_model_ignored(m);
    if (ign[0]) {
        fputs("ignored keys=", st->out);
        for (const char *p = ign; *p; p++)
            fputc(*p == ' ' ? ',' : *p, st->out);
        fputc('\n', st->out);
    }
    return 1;
}

/* ---- posenc --models ------------------------------------------------------------- */

void cli_list_models(FILE *out)
{
#ifdef POSENC_HAVE_JSON
    static const char *const layout_word[] = {"interleaved", "half"};
    size_t n = posenc_model_family_count();
    for (size_t i = 0; i < n; i++) {
        posenc_family_info f;
        cli_cannot_fail(posenc_model_family_info(i, &f));
        fprintf(out, "%s scheme=%s layout=%s", f.model_type, posenc_scheme_name(f.scheme),
                f.rope_layout >= 0 ? layout_word[f.rope_layout == POSENC_LAYOUT_HALF] : "-");
        if (f.part)
            fprintf(out, " part=%s(%s)", f.part, f.part_type ? f.part_type : "its model_type");
        if (f.or_alibi)
            fputs(" or=alibi", out);
        if (!f.supported)
            fputs(" supported=no", out);
        fprintf(out, " source=%s\n", f.source);
    }
#else
    fputs("this posenc was built without the config reader (jansson), which holds the model "
          "registry\n",
          out);
#endif
}

/* ---- LEARNED with a model: the family's index offset ------------------------------- */

int64_t cli_learned_offset(const cli_state *st, posenc_model_table *t, int *has)
{
    posenc_layer_info li;
    *has = st->model && st->model_from_config &&
           posenc_model_layer(st->model, st->layer, &li) == POSENC_OK &&
           li.scheme == POSENC_SCHEME_LEARNED &&
           posenc_model_layer_table(st->model, st->layer, t) == POSENC_OK;
    return *has ? t->offset : 0;
}

void cli_explain_learned_offset(cli_state *st, const posenc_model_table *t, int has)
{
    const posenc_model *m = st->model_from_config ? st->model : NULL;
    FILE *out = st->out;
    posenc_layer_info li;
    if (!m) {
        fputs("offset 0: no --config model, row = pos\n", out);
        return;
    }
    const char *type = posenc_model_type(m);
    cli_cannot_fail(posenc_model_layer(m, st->layer, &li)); /* a valid layer */
    if (!has) {
        fprintf(out, "offset 0: layer %u of %s has no learned table (scheme %s), row = pos",
                st->layer, type[0] ? type : "the model", posenc_scheme_name(li.scheme));
        for (uint32_t i = 0; i < posenc_model_n_layer(m); i++) {
            posenc_layer_info l2;
            if (posenc_model_layer(m, i, &l2) == POSENC_OK && l2.scheme == POSENC_SCHEME_LEARNED) {
                fprintf(out, "; layer %u has one (SET layer %u)", i, i);
                break;
            }
        }
        fputc('\n', out);
        return;
    }
    fprintf(out, "offset %lld from the model registry: %s layer %u", (long long)t->offset, type,
            st->layer);
    if (li.layer_type[0])
        fprintf(out, " (%s stack)", li.layer_type);
    if (t->offset_from_pad)
        fprintf(out, ", pad_token_id + 1 (the embedding's padding_idx + 1)");
    else
        fprintf(out, ", fixed by the family's code");
    const char *src = posenc_model_source(m);
    posenc_model_ids ids;
    fprintf(out, "; row = pos + %lld", (long long)t->offset);
    if (posenc_model_layer_ids(m, st->layer, &ids) == POSENC_OK &&
        ids.kind == POSENC_IDS_RESAMPLED) /* SAM 3 LiteText */
        fprintf(out, " only in a sequence of %lld tokens: the family resamples the table "
                     "(bilinear) to every other length (posenc golden --seq-len N gives each "
                     "token's two rows and weight)",
                (long long)t->positions);
    fprintf(out, "; source %s\n", src ? src : "-");
}
