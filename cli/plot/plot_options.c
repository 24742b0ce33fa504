/* plot_options.c - the options layer of the plot module (plot_options.h):
 * argv of `posenc plot` and the words of PLOT into a plot_request. Every
 * parser here returns a status and a message; nothing prints but
 * plot_print_usage, which is asked to. */
#include "options.h"
#include "plot_options.h"
#include "rope_spec.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- `posenc plot KIND [options] -o FILE` ---------------------------------------- */

void plot_print_usage(FILE *out)
{
    fputs("usage: posenc plot KIND [OPTIONS] -o FILE\n"
          "Draws a picture of an encoding into FILE: PNG, or SVG or PDF when FILE ends\n"
          "in .svg or .pdf. Needs Cairo at build time.\n"
          "\n"
          "Kinds:\n"
          "  pe          the sinusoid matrix PE(pos)[i]: positions down, dimensions across\n"
          "  similarity  PE(i) . PE(j) for every pair of positions\n"
          "  rope-decay  RoPE score of a query and key against their offset\n"
          "  freqs       wavelength (tokens per turn) of every RoPE pair, log scale\n"
          "  alibi       the ALiBi bias matrix of each head, as small multiples\n"
          "  t5-buckets  T5's relative position bucket of every (query, key) pair,\n"
          "              encoder (bidirectional) and decoder (causal)\n"
          "  sinusoid    a sinusoid layout's table (token index down, dimension across,\n"
          "              the family's float32 values and offset) beside the lesson's\n"
          "  buckets     T5's bucket map beside DeBERTa's log-bucketed relative ids\n"
          "  (none)      with --config: the layer's scheme, sinusoid or buckets\n"
          "\n",
          out);
    fputs("Options (each has a default):\n"
          "  -o FILE            output file (.png, .svg or .pdf); required\n"
          "  --positions N      pe, similarity: positions (128); alibi: positions (16);\n"
          "                     t5-buckets: positions (160); sinusoid: token indices\n"
          "                     (128); buckets: query/key positions (320)\n"
          "  --dim D            vector length or head_dim (128)\n"
          "  --base B[,B...]    base (10000); rope-decay and freqs take up to 6, one\n"
          "                     series each, and --base may be repeated\n"
          "  --layout L         interleaved (default) or half\n"
          "  --max-offset N     rope-decay: largest offset (32768)\n"
          "  --linear, --log    rope-decay: offset axis (default log)\n"
          "  --points N         rope-decay: offsets drawn (400)\n"
          "  --samples N        rope-decay: random unit vectors averaged (64; 0 = none)\n"
          "  --seed N           rope-decay: seed of the random vectors (1)\n"
          "  --context N        freqs: reference line at N tokens (4096; 0 = none)\n"
          "  --config FILE      rope-decay, freqs: a series with the RoPE of a Hugging\n"
          "                     Face config.json (scaling included), read through the\n"
          "                     model registry at --layer, labelled by the file name;\n"
          "                     may be repeated; without --base, only the models are\n"
          "                     drawn. t5-buckets: a T5 config's buckets and max distance;\n"
          "                     sinusoid, buckets, or no kind: the layer's sinusoid (its\n"
          "                     layout, width and offset) or relative buckets (T5, MPNet,\n"
          "                     DeBERTa), one --config and none of the options it gives\n"
          "  --layer N          the model layer --config reads (0)\n"
          "  --seq-len N        the sequence length the model RoPEs are built for\n"
          "                     (dynamic NTK, LongRoPE, Qwen 1's dynamic NTK; default:\n"
          "                     rope-decay max offset + 1, freqs --context)\n"
          "  --rope 'TYPE K=V...'  rope-decay, freqs: a series with the words of SET\n"
          "                     rope (head_dim from --dim unless given, base from the\n"
          "                     first --base); may be repeated, and mixed with --config\n"
          "  --mrope T:H:W[,interleaved]  freqs, rope-decay: a series with plain RoPE\n"
          "                     of --dim and the first --base whose pairs follow the\n"
          "                     temporal, height and width positions (M-RoPE sections\n"
          "                     in pairs; interleaved: Qwen3-VL's rule); freqs colours\n"
          "                     each pair by its axis; may be repeated\n"
          "  --heads H          alibi: heads (8)\n"
          "  --no-causal        alibi: show keys after the query too\n"
          "  --buckets N        t5-buckets, buckets: relative_attention_num_buckets (32)\n"
          "  --max-distance N   t5-buckets, buckets: relative_attention_max_distance (128)\n"
          "  --family F         sinusoid: the layout beside the lesson's: lesson, marian,\n"
          "                     ctrl, fairseq (default) or musicgen (posenc.h 1.7)\n"
          "  --offset N         sinusoid: added to each token index (fairseq's\n"
          "                     padding_idx + 1, e.g. 2; default 0)\n"
          "  --alone            sinusoid: the family's table only, not beside the lesson's\n"
          "  --position-buckets N  buckets: DeBERTa's position_buckets (256; 0: the plain\n"
          "                     distance query - key, DeBERTa v1)\n"
          "  --max-relative-positions N  buckets: DeBERTa's max_relative_positions (512)\n"
          "  --title TEXT       replace the title\n"
          "  --size WxH         picture size in pixels or points (900x600 and so on)\n"
          "  -h, --help         this help\n"
          "\n"
          "Exit status: 0 written, 2 for a bad request or a failed write (nothing is\n"
          "written then).\n",
          out);
}

/* Whole-string integer in [lo, hi]. */
static int arg_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    return posenc_parse_int64(s, strlen(s), out) == POSENC_OK && *out >= lo && *out <= hi;
}

/* Adds the comma-separated bases of s to rq (the first --base replaces the
 * default base: *reset says it has not happened yet). */
static int add_bases(plot_request *rq, int *reset, const char *s, char *why, size_t n)
{
    if (*reset) {
        rq->n_base = 0;
        *reset = 0;
    }
    while (1) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        if (rq->n_base == PLOT_MAX_SERIES) {
            snprintf(why, n, "at most %d bases", PLOT_MAX_SERIES);
            return 0;
        }
        if (!cli_parse_base(s, len, &rq->base[rq->n_base], why, n))
            return 0;
        rq->n_base++;
        if (!end)
            return 1;
        s = end + 1;
    }
}

/* Most words in one --rope value. */
#define ROPE_MAX_WORDS 64

/* `--rope 'TYPE k=v ...'`: SET rope's words on a plain RoPE of --dim (unless
 * head_dim= is given), the first --base and --layout; into *out. */
static int add_rope(const plot_request *rq, const char *v, posenc_rope_config *out, char *why,
                    size_t n)
{
    cli_token tok[ROPE_MAX_WORDS];
    size_t nt = 0;
    int dims_given = 0;
    for (const char *w = v; *w;) {
        while (*w == ' ' || *w == '\t')
            w++;
        size_t len = strcspn(w, " \t");
        if (len && nt == ROPE_MAX_WORDS) { /* refused: a word must not be dropped */
            snprintf(why, n, "more than %d words", ROPE_MAX_WORDS);
            return 0;
        }
        if (len) {
            tok[nt++] = (cli_token){w, len};
            dims_given |= len > 9 && strncmp(w, "head_dim=", 9) == 0;
        }
        w += len;
    }
    /* Without head_dim= the words start from plain RoPE over --dim, as SET
     * rope starts from the active model. */
    posenc_rope_config plain;
    memset(&plain, 0, sizeof plain);
    plain.head_dim = plain.rotary_dim = rq->dim;
    plain.base = rq->base[0];
    plain.layout = rq->layout;
    cli_cannot_fail(posenc_rope_scaling_init(&plain.scaling, POSENC_ROPE_DEFAULT)); /* known */
    rope_spec_start from = {rq->base[0], rq->layout, dims_given ? NULL : &plain};
    switch (rope_spec_parse(tok, nt, &from, out, why, n)) {
    case ROPE_SPEC_SET: return 1;
    case ROPE_SPEC_OFF: snprintf(why, n, "'%s' sets no RoPE to draw", v); return 0;
    default: return 0;
    }
}

/* `--mrope T:H:W[,interleaved]`: plain RoPE over --dim with the first --base
 * and --layout, and the M-RoPE table of those sections. */
static int add_mrope(const plot_request *rq, const char *v, posenc_rope_config *out,
                     posenc_mrope *m, char *label, size_t label_n, char *why, size_t n)
{
    unsigned s3[3];
    char rule[16] = "", extra;
    int got = sscanf(v, "%u:%u:%u,%15[a-z]%c", &s3[0], &s3[1], &s3[2], rule, &extra);
    int inter = got == 4 && strcmp(rule, "interleaved") == 0;
    if (!(got == 3 && !strchr(v, ',')) && !inter) {
        snprintf(why, n, "'%s' is not T:H:W or T:H:W,interleaved (pairs per axis)", v);
        return 0;
    }
    memset(out, 0, sizeof *out);
    out->head_dim = out->rotary_dim = rq->dim;
    out->base = rq->base[0];
    out->layout = rq->layout;
    const uint32_t sec[3] = {s3[0], s3[1], s3[2]};
    posenc_status st = posenc_rope_scaling_init(&out->scaling, POSENC_ROPE_DEFAULT);
    if (st == POSENC_OK) /* a known type: cannot fail */
        st = posenc_mrope_init(m, rq->dim / 2, sec,
                               inter ? POSENC_MROPE_INTERLEAVED : POSENC_MROPE_CONTIGUOUS);
    if (st != POSENC_OK) {
        snprintf(why, n, "sections %u:%u:%u do not fit the %u pairs of --dim %u%s", s3[0],
                 s3[1], s3[2], rq->dim / 2, rq->dim,
                 inter ? " under the interleaved rule" : " (they must add up to D/2)");
        return 0;
    }
    snprintf(label, label_n, "M-RoPE %u:%u:%u%s", s3[0], s3[1], s3[2],
             inter ? " interleaved" : "");
    return 1;
}

/* The sinusoid families by name (posenc_sinusoid_family order). */
static const char *const FAMILIES[] = {"lesson", "marian", "ctrl", "fairseq", "musicgen"};

/* `--family NAME`: the layout, frequencies and arithmetic of that family's
 * spec; the offset (--offset) and base (--base) stay the request's. */
static int set_family(plot_request *rq, const char *v, char *why, size_t n)
{
    for (size_t i = 0; i < sizeof FAMILIES / sizeof FAMILIES[0]; i++)
        if (strcmp(v, FAMILIES[i]) == 0) {
            posenc_sinusoid_spec sp;
            cli_cannot_fail(posenc_sinusoid_family_spec((posenc_sinusoid_family)i, 0, &sp));
            sp.offset = rq->sinusoid.offset;
            sp.base = rq->sinusoid.base;
            rq->sinusoid = sp;
            rq->sinusoid_label = FAMILIES[i];
            return 1;
        }
    snprintf(why, n, "unknown family '%s' (lesson, marian, ctrl, fairseq or musicgen)", v);
    return 0;
}

/* The options of `posenc plot`: the flags first, then those with a value
 * (set_option reads each of those by name). */
enum { OPT_HELP, OPT_LINEAR, OPT_LOG, OPT_NO_CAUSAL, OPT_ALONE, OPT_FIRST_VALUE };
static const cli_option PLOT_OPTIONS[] = {
    {"--help", "-h", 0, NULL},  {"--linear", NULL, 0, NULL},    {"--log", NULL, 0, NULL},
    {"--no-causal", NULL, 0, NULL}, {"--alone", NULL, 0, NULL},
    {"-o", "--output", 1, NULL}, {"--positions", NULL, 1, NULL}, {"--dim", NULL, 1, NULL},
    {"--base", NULL, 1, NULL},   {"--layout", NULL, 1, NULL},    {"--max-offset", NULL, 1, NULL},
    {"--points", NULL, 1, NULL}, {"--samples", NULL, 1, NULL},   {"--seed", NULL, 1, NULL},
    {"--context", NULL, 1, NULL}, {"--heads", NULL, 1, NULL},    {"--title", NULL, 1, NULL},
    {"--size", NULL, 1, NULL},   {"--config", NULL, 1, NULL},    {"--rope", NULL, 1, NULL},
    {"--buckets", NULL, 1, NULL}, {"--max-distance", NULL, 1, NULL},
    {"--mrope", NULL, 1, NULL},  {"--layer", NULL, 1, NULL},     {"--seq-len", NULL, 1, NULL},
    /* sinusoid, buckets */
    {"--family", NULL, 1, NULL}, {"--offset", NULL, 1, NULL},
    {"--position-buckets", NULL, 1, NULL}, {"--max-relative-positions", NULL, 1, NULL},
};

/* The options that take an integer: its range, where it goes in the
 * request (a field of 4 or 8 bytes; LAYER_FIELD: the --layer argument), and
 * the refusal (printf: the value, then the largest allowed, as long long). */
#define LAYER_FIELD ((size_t)-1)
typedef struct {
    const char *name;
    int64_t lo, hi;
    size_t offset, size;
    const char *refusal;
} int_option;
#define FIELD(f) offsetof(plot_request, f), sizeof(((plot_request *)0)->f)
static const int_option INT_OPTIONS[] = {
    {"--positions", 1, 1 << 20, FIELD(positions), "'%s' is not a count of positions (1 to %lld)"},
    {"--dim", 1, POSENC_MAX_DIM, FIELD(dim), "D = %s: D must be from 1 to %lld"},
    {"--max-offset", 1, POSENC_MAX_POS, FIELD(max_offset), "'%s' is not an offset (1 to %lld)"},
    {"--points", 2, PLOT_MAX_POINTS, FIELD(points), "'%s': points must be from 2 to %lld"},
    {"--samples", 0, PLOT_MAX_SAMPLES, FIELD(samples), "'%s': samples must be from 0 to %lld"},
    {"--seed", 0, INT64_MAX, FIELD(seed), "'%s' is not a seed (a non-negative integer)"},
    {"--context", 0, POSENC_MAX_POS, FIELD(context), "'%s' is not a context length (0 to %lld)"},
    {"--heads", 1, PLOT_MAX_HEADS, FIELD(heads), "'%s': heads must be from 1 to %lld"},
    {"--buckets", 4, POSENC_T5_MAX_BUCKETS, FIELD(t5_buckets),
     "'%s': buckets must be from 4 to %lld"},
    {"--max-distance", 2, POSENC_MAX_POS, FIELD(t5_max_distance),
     "'%s': max distance must be from 2 to %lld"},
    {"--seq-len", 0, POSENC_MAX_POS + 1, FIELD(cur_len),
     "'%s' is not a sequence length (0 to %lld)"},
    {"--layer", 0, POSENC_MODEL_MAX_LAYERS - 1, LAYER_FIELD, 4,
     "'%s': the layer must be an integer from 0 to %lld"},
    {"--offset", -POSENC_MAX_POS, POSENC_MAX_POS, FIELD(sinusoid.offset),
     "'%s' is not an offset (an integer of size at most %lld)"},
    {"--position-buckets", 0, POSENC_DEBERTA_MAX_BUCKETS, FIELD(deberta_buckets),
     "'%s': position_buckets must be from 0 to %lld"},
    {"--max-relative-positions", 2, POSENC_MAX_POS, FIELD(deberta_max_position),
     "'%s': max_relative_positions must be from 2 to %lld"},
};
#undef FIELD

static const int_option *int_option_named(const char *o)
{
    for (size_t i = 0; i < sizeof INT_OPTIONS / sizeof INT_OPTIONS[0]; i++)
        if (strcmp(o, INT_OPTIONS[i].name) == 0)
            return &INT_OPTIONS[i];
    return NULL;
}

/* x (within the option's range, so it fits) into its field. */
static void store_int(plot_request *rq, uint32_t *layer, const int_option *io, int64_t x)
{
    void *field = io->offset == LAYER_FIELD ? (void *)layer : (void *)((char *)rq + io->offset);
    if (io->size == sizeof(uint32_t)) {
        uint32_t u = (uint32_t)x;
        memcpy(field, &u, sizeof u);
    } else {
        memcpy(field, &x, sizeof x);
    }
}

/* One option o with its value v into rq; a model option is only noted in
 * model_opt/model_val (read once every option is known). 0 with a reason. */
static int set_option(plot_request *rq, const char *o, const char *v, int *reset_bases,
                      const char **model_opt, const char **model_val, size_t *n_model,
                      uint32_t *layer, char *why, size_t n)
{
    int64_t x = 0;
    int ok = 1;
    const int_option *io;
    if (strcmp(o, "-o") == 0 || strcmp(o, "--output") == 0) {
        rq->out = v;
    } else if ((io = int_option_named(o)) != NULL) {
        ok = arg_int(v, io->lo, io->hi, &x);
        if (ok)
            store_int(rq, layer, io, x);
        else
            snprintf(why, n, io->refusal, v, (long long)io->hi);
    } else if (strcmp(o, "--base") == 0) {
        ok = add_bases(rq, reset_bases, v, why, n);
    } else if (strcmp(o, "--layout") == 0) {
        ok = cli_parse_layout(v, strlen(v), &rq->layout, why, n);
    } else if (strcmp(o, "--config") == 0 || strcmp(o, "--rope") == 0 ||
               strcmp(o, "--mrope") == 0) {
        ok = *n_model < PLOT_MAX_SERIES;
        if (ok) {
            model_opt[*n_model] = o;
            model_val[(*n_model)++] = v;
        } else
            snprintf(why, n, "at most %d model RoPEs", PLOT_MAX_SERIES);
    } else if (strcmp(o, "--family") == 0) {
        ok = set_family(rq, v, why, n);
    } else if (strcmp(o, "--title") == 0) {
        rq->title = v;
    } else { /* --size */
        int w, h;
        char extra;
        ok = sscanf(v, "%dx%d%c", &w, &h, &extra) == 2;
        rq->width = w;
        rq->height = h;
        if (!ok)
            snprintf(why, n, "'%s' is not a size WIDTHxHEIGHT such as 900x600", v);
    }
    return ok;
}

/* t5-buckets with --config: the T5 config's relative_attention_num_buckets
 * and max_distance (of --layer's stack; both stacks share them), unless
 * --buckets or --max-distance is given. */
static plot_args_status t5_from_configs(plot_request *rq, const char *const *opt,
                                        const char *const *val, size_t n_model, uint32_t layer,
                                        int t5_given, char *why, size_t n)
{
    if (n_model == 0 || t5_given)
        return PLOT_ARGS_OK;
    if (n_model > 1 || strcmp(opt[0], "--config") != 0) {
        snprintf(why, n, "t5-buckets takes one --config (a T5 model's config.json) and no --rope");
        return PLOT_ARGS_BAD;
    }
    posenc_model *m;
    posenc_layer_info li;
    posenc_model_t5 g;
    char label[96], reason[1200];
    if (!rope_spec_model_layer(val[0], layer, &m, &li, label, sizeof label, reason,
                               sizeof reason)) {
        snprintf(why, n, "--config: %s", reason);
        return PLOT_ARGS_BAD;
    }
    int ok = posenc_model_layer_t5(m, layer, &g) == POSENC_OK;
    uint32_t db, dm;
    if (!ok && posenc_model_layer_deberta(m, layer, &db, &dm) == POSENC_OK)
        snprintf(why, n, "--config: %s: layer %u of %s has DeBERTa's relative ids, not T5's "
                         "buckets: draw them with 'posenc plot buckets'",
                 val[0], layer, rope_spec_model_type(m));
    else if (!ok)
        snprintf(why, n, "--config: %s: layer %u of %s has no relative position buckets (scheme "
                         "%s)",
                 val[0], layer, rope_spec_model_type(m), posenc_scheme_name(li.scheme));
    else {
        rq->t5_buckets = g.buckets;
        rq->t5_max_distance = g.max_distance;
    }
    posenc_model_free(m);
    return ok ? PLOT_ARGS_OK : PLOT_ARGS_BAD;
}

/* The index of option name in PLOT_OPTIONS (a name of the table). */
static int opt_index(const char *name)
{
    int i = 0;
    while (strcmp(PLOT_OPTIONS[i].name, name) != 0)
        i++;
    return i;
}
#define GIVEN(given, name) (((given) >> opt_index(name)) & 1u)

/* The options of one kind only: refused by name with another. */
static int kind_options(const plot_request *rq, unsigned long long given, char *why, size_t n)
{
    static const struct {
        const char *name;
        plot_kind kind;
    } ONLY[] = {{"--family", PLOT_SINUSOID},
                {"--offset", PLOT_SINUSOID},
                {"--alone", PLOT_SINUSOID},
                {"--position-buckets", PLOT_BUCKETS},
                {"--max-relative-positions", PLOT_BUCKETS}};
    for (size_t i = 0; i < sizeof ONLY / sizeof ONLY[0]; i++)
        if (GIVEN(given, ONLY[i].name) && rq->kind != ONLY[i].kind) {
            snprintf(why, n, "%s is an option of %s plots, not of %s", ONLY[i].name,
                     plot_kind_name(ONLY[i].kind), plot_kind_name(rq->kind));
            return 0;
        }
    return 1;
}

/* The last token index a sinusoid layer's table has, or -1 when it grows
 * past its rows (posenc_sinusoid_table_grows). */
static int64_t sinusoid_last_index(const posenc_sinusoid_spec *sp, const posenc_model_table *tb)
{
    if (posenc_sinusoid_table_grows(sp))
        return -1;
    return tb->positions - sp->offset - 1 < 0 ? 0 : tb->positions - sp->offset - 1;
}

/* sinusoid and buckets (and no kind) with --config: the layer's sinusoid
 * (posenc_model_layer_sinusoid, its width from posenc_model_layer_table)
 * or its relative buckets (posenc_model_layer_deberta, else
 * posenc_model_layer_t5). Without a kind the layer's scheme picks the
 * kind, and --positions and --size default to that kind's. */
static plot_args_status layer_scheme(plot_args *pa, int auto_kind, unsigned long long given,
                                     const char *path, uint32_t layer, char *why, size_t n)
{
    static const char *const FROM_CONFIG[] = {"--family",  "--offset",           "--dim",
                                              "--buckets", "--max-distance",     "--position-buckets",
                                              "--max-relative-positions"};
    plot_request *rq = &pa->rq;
    for (size_t i = 0; i < sizeof FROM_CONFIG / sizeof FROM_CONFIG[0]; i++)
        if (GIVEN(given, FROM_CONFIG[i])) {
            snprintf(why, n, "%s: the --config layer gives it; drop one of the two",
                     FROM_CONFIG[i]);
            return PLOT_ARGS_BAD;
        }
    posenc_model *m;
    posenc_layer_info li;
    char reason[1200];
    char *label = pa->labels[0];
    if (!rope_spec_model_layer(path, layer, &m, &li, label, sizeof pa->labels[0], reason,
                               sizeof reason)) {
        snprintf(why, n, "--config: %s", reason);
        return PLOT_ARGS_BAD;
    }
    const char *type = rope_spec_model_type(m);
    if (auto_kind) {
        if (li.scheme != POSENC_SCHEME_SINUSOID && li.scheme != POSENC_SCHEME_RELATIVE_BUCKETS) {
            snprintf(why, n, "--config: %s: layer %u of %s has scheme %s: without a kind, "
                     "posenc plot draws sinusoid and relative-buckets layers (a RoPE layer: "
                     "freqs or rope-decay)", path, layer, type, posenc_scheme_name(li.scheme));
            posenc_model_free(m);
            return PLOT_ARGS_BAD;
        }
        rq->kind = li.scheme == POSENC_SCHEME_SINUSOID ? PLOT_SINUSOID : PLOT_BUCKETS;
        plot_request d;
        plot_request_defaults(&d, rq->kind);
        if (!GIVEN(given, "--positions"))
            rq->positions = d.positions;
        if (!GIVEN(given, "--size")) {
            rq->width = d.width;
            rq->height = d.height;
        }
    }
    posenc_status st;
    if (rq->kind == PLOT_SINUSOID) {
        posenc_model_table tb;
        st = posenc_model_layer_sinusoid(m, layer, &rq->sinusoid);
        if (st == POSENC_OK)
            st = posenc_model_layer_table(m, layer, &tb);
        /* the default token indices stop at the rows of a table that ends;
         * more are refused by name */
        int64_t last = st == POSENC_OK ? sinusoid_last_index(&rq->sinusoid, &tb) : -1;
        if (st == POSENC_OK && last >= 0 && rq->positions > last + 1) {
            if (GIVEN(given, "--positions")) {
                snprintf(why, n, "--positions %u: layer %u of %s has a %lld-row sinusoid "
                         "table, token indices 0..%lld",
                         rq->positions, layer, type, (long long)tb.positions, (long long)last);
                posenc_model_free(m);
                return PLOT_ARGS_BAD;
            }
            rq->positions = (uint32_t)(last + 1);
        }
        if (st == POSENC_OK) {
            rq->dim = tb.dim;
            rq->sinusoid_label = label;
        } else
            snprintf(why, n, "--config: %s: layer %u of %s has no sinusoid table (scheme %s)",
                     path, layer, type, posenc_scheme_name(li.scheme));
    } else {
        uint32_t db, dm;
        posenc_model_t5 t5;
        if ((st = posenc_model_layer_deberta(m, layer, &db, &dm)) == POSENC_OK) {
            rq->panels = PLOT_PANEL_DEBERTA;
            rq->deberta_buckets = db;
            rq->deberta_max_position = dm;
            rq->deberta_label = label;
        } else if ((st = posenc_model_layer_t5(m, layer, &t5)) == POSENC_OK) {
            rq->panels = PLOT_PANEL_T5;
            rq->t5_buckets = t5.buckets;
            rq->t5_max_distance = t5.max_distance;
            rq->t5_bidirectional = t5.bidirectional;
            rq->t5_label = label;
        } else
            snprintf(why, n, "--config: %s: layer %u of %s has no relative position buckets "
                     "(scheme %s)", path, layer, type, posenc_scheme_name(li.scheme));
    }
    posenc_model_free(m);
    return st == POSENC_OK ? PLOT_ARGS_OK : PLOT_ARGS_BAD;
}

/* sinusoid and buckets: at most one --config (the layer's scheme), else
 * the options' numbers; the family's base is --base's. */
static plot_args_status scheme_args(plot_args *pa, int auto_kind, unsigned long long given,
                                    const char *const *opt, const char *const *val,
                                    size_t n_model, uint32_t layer, char *why, size_t n)
{
    plot_request *rq = &pa->rq;
    if (n_model == 0 && auto_kind) {
        snprintf(why, n, "which plot? name a kind, or give --config FILE to draw its layer's "
                         "scheme (try 'posenc plot --help')");
        return PLOT_ARGS_BAD;
    }
    if (n_model > 1 || (n_model == 1 && strcmp(opt[0], "--config") != 0)) {
        snprintf(why, n, "%s takes one --config (a config.json) and no --rope or --mrope",
                 auto_kind ? "a plot of a layer's scheme" : plot_kind_name(rq->kind));
        return PLOT_ARGS_BAD;
    }
    rq->sinusoid.base = rq->base[0];
    if (n_model == 0)
        return PLOT_ARGS_OK;
    return layer_scheme(pa, auto_kind, given, val[0], layer, why, n);
}

void plot_args_free(plot_args *pa)
{
    free(pa->models);
    pa->models = NULL;
    for (size_t i = 0; i < PLOT_MAX_SERIES; i++) {
        posenc_model_free(pa->model_of[i]);
        pa->model_of[i] = NULL;
    }
}

/* The model RoPEs, after every option (--dim, --base, --layout, --layer)
 * is known, each read through the model registry at --layer. With models
 * and no --base (reset_bases), the chart shows the models only. */
static plot_args_status read_models(plot_args *pa, const char *const *model_opt,
                                    const char *const *model_val, size_t n_model, uint32_t layer,
                                    int reset_bases, char *why, size_t n)
{
    plot_request *rq = &pa->rq;
    char reason[256];
    if (n_model && reset_bases)
        rq->n_base = 0;
    if (n_model && !(pa->models = malloc(n_model * sizeof *pa->models))) {
        snprintf(why, n, "out of memory");
        return PLOT_ARGS_BAD;
    }
    for (size_t i = 0; i < n_model; i++) {
        int ok;
        if (strcmp(model_opt[i], "--config") == 0) {
            /* the layer's RoPE comes from the model at the plot's length */
            ok = rope_spec_load_model(model_val[i], layer, &pa->model_of[i], pa->labels[i],
                                      sizeof pa->labels[i], reason, sizeof reason);
            rq->rope_model[i] = pa->model_of[i];
            rq->rope_layer[i] = layer;
        } else if (strcmp(model_opt[i], "--mrope") == 0) {
            ok = add_mrope(rq, model_val[i], &pa->models[i], &pa->mropes[i], pa->labels[i],
                           sizeof pa->labels[i], reason, sizeof reason);
            rq->mrope[i] = ok ? &pa->mropes[i] : NULL;
        } else {
            ok = add_rope(rq, model_val[i], &pa->models[i], reason, sizeof reason);
            snprintf(pa->labels[i], sizeof pa->labels[i], "%s", model_val[i]);
        }
        if (!ok) {
            snprintf(why, n, "%s: %s", model_opt[i], reason);
            return PLOT_ARGS_BAD;
        }
        rq->rope_config[i] = rq->rope_model[i] ? NULL : &pa->models[i];
        rq->rope_label[i] = pa->labels[i];
    }
    rq->n_rope = n_model;
    return PLOT_ARGS_OK;
}

plot_args_status plot_args_parse(int argc, char **argv, plot_args *pa, char *why, size_t n)
{
    /* a reason for one option, then "OPTION: reason" into why */
    char reason[256];
    int a = 1;
    pa->models = NULL;
    for (size_t i = 0; i < PLOT_MAX_SERIES; i++)
        pa->model_of[i] = NULL;
    if (a < argc && (strcmp(argv[a], "-h") == 0 || strcmp(argv[a], "--help") == 0))
        return PLOT_ARGS_HELP;
    if (a >= argc) {
        snprintf(why, n, "which plot? pe, similarity, rope-decay, freqs, alibi, t5-buckets, "
                         "sinusoid or buckets (try 'posenc plot --help')");
        return PLOT_ARGS_BAD;
    }
    /* no kind (an option first): --config's layer decides, sinusoid or buckets */
    int auto_kind = argv[a][0] == '-' && argv[a][1] != '\0';
    int kind = auto_kind ? (int)PLOT_SINUSOID : plot_kind_of(argv[a], strlen(argv[a]));
    if (kind < 0) {
        snprintf(why, n, "unknown kind '%s' (pe, similarity, rope-decay, freqs, alibi, "
                         "t5-buckets, sinusoid or buckets)",
                 argv[a]);
        return PLOT_ARGS_BAD;
    }
    plot_request *rq = &pa->rq;
    plot_request_defaults(rq, (plot_kind)kind);
    int reset_bases = 1;
    const char *model_opt[PLOT_MAX_SERIES], *model_val[PLOT_MAX_SERIES];
    size_t n_model = 0;
    uint32_t layer = 0;
    int t5_given = 0; /* --buckets or --max-distance: they win over a T5 config */
    unsigned long long given = 0; /* bit i: PLOT_OPTIONS[i] was given */
    cli_args args;
    cli_args_start(&args, argc, argv, auto_kind ? a : a + 1, PLOT_OPTIONS,
                   sizeof PLOT_OPTIONS / sizeof PLOT_OPTIONS[0]);
    for (int r; (r = cli_args_next(&args)) != CLI_ARG_END;) {
        if (r == OPT_HELP)
            return PLOT_ARGS_HELP;
        if (r >= 0)
            given |= 1ull << r;
        if (r == OPT_ALONE) {
            rq->alone = 1;
            continue;
        }
        if (r == OPT_LINEAR || r == OPT_LOG) {
            rq->linear = r == OPT_LINEAR;
            continue;
        }
        if (r == OPT_NO_CAUSAL) {
            rq->causal = 0;
            continue;
        }
        if (r < 0) {
            /* an operand or "--" is an unknown option here too */
            cli_args_why(&args, r == CLI_ARG_NO_VALUE ? r : CLI_ARG_UNKNOWN, why, n);
            if (r != CLI_ARG_NO_VALUE)
                snprintf(why + strlen(why), n - strlen(why), " (try 'posenc plot --help')");
            return PLOT_ARGS_BAD;
        }
        /* by the name in the table: "--output" is "-o" */
        const char *o = PLOT_OPTIONS[r].name, *v = args.value;
        reason[0] = '\0';
        t5_given |= strcmp(o, "--buckets") == 0 || strcmp(o, "--max-distance") == 0;
        if (!set_option(rq, o, v, &reset_bases, model_opt, model_val, &n_model, &layer, reason,
                        sizeof reason)) {
            snprintf(why, n, "%.*s: %s", (int)strcspn(args.word, "="), args.word, reason);
            return PLOT_ARGS_BAD;
        }
    }
    if (!rq->out) {
        snprintf(why, n, "say where to write the picture: -o FILE (.png, .svg or .pdf)");
        return PLOT_ARGS_BAD;
    }
    if (strcmp(rq->out, "-") == 0) {
        snprintf(why, n, "-o -: pictures cannot go to standard output; give a file name "
                         "ending in .png, .svg or .pdf");
        return PLOT_ARGS_BAD;
    }
    if (!kind_options(rq, given, why, n))
        return PLOT_ARGS_BAD;
    if (rq->kind == PLOT_SINUSOID || rq->kind == PLOT_BUCKETS)
        return scheme_args(pa, auto_kind, given, model_opt, model_val, n_model, layer, why, n);
    if (rq->kind == PLOT_T5_BUCKETS)
        return t5_from_configs(rq, model_opt, model_val, n_model, layer, t5_given, why, n);
    return read_models(pa, model_opt, model_val, n_model, layer, reset_bases, why, n);
}

/* ---- PLOT in the command language ------------------------------------------------ */

/* A word as a count in [lo, hi]. */
static int word_count(cli_token t, int64_t lo, int64_t hi, const char *what, int64_t *out,
                      char *why, size_t n)
{
    if (posenc_parse_int64(t.s, t.len, out) == POSENC_OK && *out >= lo && *out <= hi)
        return 1;
    snprintf(why, n, "PLOT: %s '%.*s%s' must be an integer from %lld to %lld", what,
             CLI_SHOW(t.s, t.len), (long long)lo, (long long)hi);
    return 0;
}

/* PLOT sinusoid and PLOT buckets with a --config model whose active layer
 * has that scheme: the layer's (as `posenc plot --config`), its width
 * checked against D; another layer draws the kind's defaults. 1, or 0 with
 * the whole message in why. */
static int words_layer_scheme(const plot_settings *set, plot_request *rq, char *why, size_t n)
{
    posenc_layer_info li;
    if (!set->model || posenc_model_layer(set->model, set->layer, &li) != POSENC_OK)
        return 1;
    const char *label = set->model_label && set->model_label[0] ? set->model_label : "model";
    if (rq->kind == PLOT_SINUSOID && li.scheme == POSENC_SCHEME_SINUSOID) {
        posenc_model_table tb;
        if (posenc_model_layer_sinusoid(set->model, set->layer, &rq->sinusoid) != POSENC_OK ||
            posenc_model_layer_table(set->model, set->layer, &tb) != POSENC_OK)
            return 1; /* a SINUSOID layer answers both */
        if (tb.dim != rq->dim) {
            snprintf(why, n, "PLOT sinusoid: D %u is not the width of layer %u's table (%u)",
                     rq->dim, set->layer, tb.dim);
            return 0;
        }
        int64_t last = sinusoid_last_index(&rq->sinusoid, &tb);
        if (last >= 0 && rq->positions > last + 1) {
            snprintf(why, n, "PLOT sinusoid: N %u is past layer %u's %lld-row sinusoid table "
                     "(token indices 0..%lld)",
                     rq->positions, set->layer, (long long)tb.positions, (long long)last);
            return 0;
        }
        rq->sinusoid_label = label;
    } else if (rq->kind == PLOT_BUCKETS && li.scheme == POSENC_SCHEME_RELATIVE_BUCKETS) {
        uint32_t db, dm;
        posenc_model_t5 t5;
        if (posenc_model_layer_deberta(set->model, set->layer, &db, &dm) == POSENC_OK) {
            rq->panels = PLOT_PANEL_DEBERTA;
            rq->deberta_buckets = db;
            rq->deberta_max_position = dm;
            rq->deberta_label = label;
        } else if (posenc_model_layer_t5(set->model, set->layer, &t5) == POSENC_OK) {
            rq->panels = PLOT_PANEL_T5;
            rq->t5_buckets = t5.buckets;
            rq->t5_max_distance = t5.max_distance;
            rq->t5_bidirectional = t5.bidirectional;
            rq->t5_label = label;
        }
    }
    return 1;
}

int plot_words_parse(const cli_token *a, size_t n, const plot_settings *set, plot_request *rq,
                     char *path, size_t path_n, char *why, size_t why_n)
{
    static const char *const usage[] = {
        "PLOT pe POSITIONS D FILE", "PLOT similarity POSITIONS D FILE",
        "PLOT rope-decay D MAX_OFFSET FILE", "PLOT freqs D FILE", "PLOT alibi H POSITIONS FILE",
        "PLOT t5-buckets POSITIONS FILE", "PLOT sinusoid POSITIONS D FILE",
        "PLOT buckets POSITIONS FILE"};
    static const size_t want[] = {4, 4, 4, 3, 4, 3, 4, 3};
    int kind = n ? plot_kind_of(a[0].s, a[0].len) : -1;
    if (kind < 0) {
        snprintf(why, why_n, "PLOT needs a kind: pe, similarity, rope-decay, freqs, alibi, "
                             "t5-buckets, sinusoid or buckets");
        return 0;
    }
    if (n != want[kind]) {
        snprintf(why, why_n, "PLOT %s takes %zu words: %s", plot_kind_name((plot_kind)kind),
                 want[kind] - 1, usage[kind]);
        return 0;
    }
    if (set->no_rope && (kind == PLOT_ROPE_DECAY || kind == PLOT_FREQS)) {
        snprintf(why, why_n, "PLOT %s: %s: there is no rotation to draw (SET layer to a RoPE "
                             "layer, see EXPLAIN MODEL)",
                 plot_kind_name((plot_kind)kind), set->no_rope);
        return 0;
    }
    plot_request_defaults(rq, (plot_kind)kind);
    rq->base[0] = set->base;
    rq->layout = set->layout;
    int64_t v1 = 0, v2 = 0;
    switch (kind) {
    case PLOT_PE:
    case PLOT_SIMILARITY:
    case PLOT_SINUSOID: /* fairseq's halves beside the lesson's, both of SET base */
        rq->sinusoid.base = set->base;
        if (!word_count(a[1], 1, 1 << 20, "positions", &v1, why, why_n) ||
            !word_count(a[2], 1, POSENC_MAX_DIM, "D", &v2, why, why_n))
            return 0;
        rq->positions = (uint32_t)v1;
        rq->dim = (uint32_t)v2;
        break;
    case PLOT_ROPE_DECAY:
        if (!word_count(a[1], 1, POSENC_MAX_DIM, "D", &v1, why, why_n) ||
            !word_count(a[2], 1, POSENC_MAX_POS, "max offset", &v2, why, why_n))
            return 0;
        rq->dim = (uint32_t)v1;
        rq->max_offset = v2;
        break;
    case PLOT_FREQS:
        if (!word_count(a[1], 1, POSENC_MAX_DIM, "D", &v1, why, why_n))
            return 0;
        rq->dim = (uint32_t)v1;
        break;
    case PLOT_T5_BUCKETS:
    case PLOT_BUCKETS: /* SET t5's buckets beside DeBERTa-v3's */
        if (!word_count(a[1], 1, 1 << 20, "positions", &v1, why, why_n))
            return 0;
        rq->positions = (uint32_t)v1;
        rq->t5_buckets = set->t5_buckets;
        rq->t5_max_distance = set->t5_max_distance;
        break;
    default: /* PLOT_ALIBI */
        if (!word_count(a[1], 1, PLOT_MAX_HEADS, "H", &v1, why, why_n) ||
            !word_count(a[2], 1, 1 << 20, "positions", &v2, why, why_n))
            return 0;
        rq->heads = (uint32_t)v1;
        rq->positions = (uint32_t)v2;
        break;
    }
    if (set->model && (kind == PLOT_ROPE_DECAY || kind == PLOT_FREQS)) {
        rq->rope_model[0] = set->model; /* the active layer's RoPE, next to plain RoPE */
        rq->rope_layer[0] = set->layer;
        rq->mrope[0] = set->mrope;
        rq->rope_label[0] =
            set->model_label && set->model_label[0] ? set->model_label : "model RoPE";
        rq->n_rope = 1;
        rq->cur_len = set->seq_len;
    }
    if ((kind == PLOT_SINUSOID || kind == PLOT_BUCKETS) && !words_layer_scheme(set, rq, why, why_n))
        return 0;
    cli_token f = a[n - 1];
    if (f.len >= path_n) {
        snprintf(why, why_n, "PLOT: the file name is too long");
        return 0;
    }
    memcpy(path, f.s, f.len);
    path[f.len] = '\0';
    rq->out = path;
    return 1;
}

int plot_words_run(const cli_token *a, size_t n, const plot_settings *set, char *why,
                   size_t why_n)
{
    plot_request rq;
    char path[1024], reason[256];
    if (!plot_words_parse(a, n, set, &rq, path, sizeof path, why, why_n))
        return 0;
    if (!plot_run(&rq, reason, sizeof reason)) {
        snprintf(why, why_n, "PLOT: %s", reason);
        return 0;
    }
    return 1;
}
