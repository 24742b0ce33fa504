/* check_main.c - `posenc check` (an engine's RoPE against the model's, and
 * the cause when they differ) and `posenc golden` (reference dumps for an
 * engine's test suite). The numerics are the library's (posenc_check.h);
 * this file reads options, the model (--config through the registry, or
 * --rope with SET rope's words) and prints key=value lines. */
#include "check_cmd.h"
#include "message.h"
#include "options.h"

#include "posenc_check.h"
#include "posenc_model.h"
#include "rope_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 64

/* Exit statuses of posenc check. */
enum { EXIT_MATCH = 0, EXIT_MISMATCH = 1, EXIT_BAD = CLI_EXIT_USAGE };

static int parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    int64_t v;
    if (posenc_parse_int64(s, strlen(s), &v) != POSENC_OK || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

/* --rope 'WORDS': SET rope's words on plain RoPE of head_dim, base 10000 and layout. */
static int rope_words(const char *v, uint32_t head_dim, posenc_layout layout,
                      posenc_rope_config *out, char *why, size_t n)
{
    cli_token tok[MAX_WORDS];
    size_t nt = 0;
    for (const char *w = v; *w;) {
        while (*w == ' ' || *w == '\t')
            w++;
        size_t len = strcspn(w, " \t");
        if (len && nt == MAX_WORDS) {
            snprintf(why, n, "--rope: more than %d words", MAX_WORDS);
            return 0;
        }
        if (len)
            tok[nt++] = (cli_token){w, len};
        w += len;
    }
    posenc_rope_config plain;
    memset(&plain, 0, sizeof plain);
    plain.head_dim = plain.rotary_dim = head_dim;
    plain.base = POSENC_DEFAULT_BASE;
    plain.layout = layout;
    cli_cannot_fail(posenc_rope_scaling_init(&plain.scaling, POSENC_ROPE_DEFAULT));
    rope_spec_start from = {POSENC_DEFAULT_BASE, layout, head_dim ? &plain : NULL};
    switch (rope_spec_parse(tok, nt, &from, out, why, n)) {
    case ROPE_SPEC_SET: return 1;
    case ROPE_SPEC_OFF: *out = plain; return head_dim != 0 || (snprintf(why, n, "--rope: no head_dim"), 0);
    default: return 0;
    }
}

static const char *dtype_word(posenc_dtype d)
{
    return d == POSENC_DTYPE_F32 ? "F32" : d == POSENC_DTYPE_BF16 ? "BF16" : "F16";
}

/* ---- the options check and golden share: the model and the length ------------------ */

typedef struct model_opts {
    const char *config, *rope; /* --config FILE or --rope 'WORDS' */
    const char *gguf;          /* check --gguf FILE */
    int64_t ctx;               /* check --ctx N, or 0 */
    int64_t layer;             /* --layer N (golden: -1 = every layer group) */
    int64_t seq_len;           /* --seq-len N, or 0 */
    posenc_layout layout;      /* --layout L (with --rope) */
} model_opts;

/* The first rows of both tables (their own rows follow, from O_SHARED on). */
enum { O_HELP, O_CONFIG, O_ROPE, O_LAYER, O_LAYOUT, O_SEQ_LEN, O_SHARED };
#define SHARED_OPTIONS                                                                      \
    {"--help", "-h", 0, NULL}, {"--config", NULL, 1, NULL}, {"--rope", NULL, 1, NULL},     \
        {"--layer", NULL, 1, NULL}, {"--layout", NULL, 1, NULL}, {"--seq-len", NULL, 1, NULL}

/* A shared option r (O_CONFIG to O_SEQ_LEN) with its value v into mo;
 * 0 after cmd's message. */
static int shared_option(const char *cmd, int r, const char *v, model_opts *mo)
{
    char why[512];
    switch (r) {
    case O_CONFIG: mo->config = v; return 1;
    case O_ROPE: mo->rope = v; return 1;
    case O_LAYER:
        if (parse_i64(v, 0, POSENC_MODEL_MAX_LAYERS - 1, &mo->layer))
            return 1;
        cli_fail(stderr, cmd, 0, "--layer '%s' must be an integer from 0 to %u", v,
                 POSENC_MODEL_MAX_LAYERS - 1);
        return 0;
    case O_LAYOUT:
        if (cli_parse_layout(v, strlen(v), &mo->layout, why, sizeof why))
            return 1;
        cli_fail(stderr, cmd, 0, "%s", why);
        return 0;
    default: /* O_SEQ_LEN */
        if (parse_i64(v, 1, POSENC_MAX_POS + 1, &mo->seq_len))
            return 1;
        cli_fail(stderr, cmd, 0, "--seq-len '%s' must be an integer from 1 to %lld", v,
                 POSENC_MAX_POS + 1);
        return 0;
    }
}

/* The kit's message for an unknown option or a missing value, with cmd's hint. */
static int bad_option(const char *cmd, const cli_args *args, int r)
{
    char why[256];
    cli_args_why(args, r, why, sizeof why);
    return cli_fail(stderr, cmd, 1, "%s", why);
}

/* ---- posenc check ------------------------------------------------------------------ */

static void check_usage(FILE *f)
{
    fputs("usage: posenc check [--config FILE [--layer N] | --rope 'WORDS' [--layout L]]\n"
          "                    [--seq-len N] [--tol ULPS] [--engine E] DUMP\n"
          "       posenc check --gguf MODEL.gguf --config FILE [--ctx N]\n"
          "       posenc check --gguf MODEL.gguf [--layer N] [--ctx N] [--engine E] DUMP\n"
          "DUMP: a safetensors file with positions (I64/I32 [n_tok]) and x, y (the vectors\n"
          "before and after the engine's RoPE, [n_tok, n_head, head_dim], F32/F16/BF16) or\n"
          "cos, sin ([n_tok, rotary_dim] or [n_tok, rotary_dim/2]).\n"
          "  --config FILE  the model's config.json (read through the registry)\n"
          "  --layer N      its layer (default 0)\n"
          "  --rope WORDS   the RoPE as SET rope's words (head_dim defaults to the dump's)\n"
          "  --layout L     with --rope: interleaved (default) or half\n"
          "  --seq-len N    the sequence length the engine ran (default max(positions) + 1)\n"
          "  --tol ULPS     largest error of a match, ulps of the dump's dtype (default 4)\n"
          "  --engine E     the arithmetic expected: exact (default), ggml (ggml's float32\n"
          "                 chain), hf (transformers' eager float32), hf-bf16 (its inv_freq\n"
          "                 in bf16), cache-f32, cache-bf16 (a cos/sin table built once)\n"
          "  --gguf FILE    with --config: is the GGUF file a faithful conversion of it?\n"
          "                 (the RoPE llama.cpp runs for the file against transformers');\n"
          "                 with a DUMP: the dump against llama.cpp's op for the file's\n"
          "                 layer --layer (NORM archs in llama.cpp's permuted q/k order)\n"
          "  --ctx N        with --gguf: the context llama.cpp runs (default context_length)\n"
          "Prints CHECK, BAND and CAUSE lines (docs/CHECK.md). Exit status: 0 match,\n"
          "1 mismatch, 2 bad input.\n",
          f);
}

/* The CHECK line, a BAND line per band of positions, and a CAUSE line per
 * cause (docs/CHECK.md). */
static void print_result(const posenc_check_result *res)
{
    printf("CHECK verdict=%s dtype=%s n_tok=%zu n_head=%u max_ulp=%.4g max_abs=%.4g",
           res->match ? "match" : "mismatch", dtype_word(res->dtype), res->n_tok, res->n_head,
           res->max_ulp, res->max_abs);
    if (res->engine != POSENC_CHECK_ENGINE_EXACT) /* said when not the default */
        printf(" engine=%s", posenc_check_engine_name(res->engine));
    printf("\n");
    for (size_t b = 0; b < res->n_band; b++)
        printf("BAND pos=%lld-%lld max_ulp=%.4g max_abs=%.4g\n",
               (long long)res->band[b].pos_lo, (long long)res->band[b].pos_hi,
               res->band[b].max_ulp, res->band[b].max_abs);
    /* the CAUSE lines as the library writes them (posenc_check_cause_lines:
     * one per cause, or none with the nearest hypothesis) */
    char lines[4096];
    size_t n = posenc_check_cause_lines(res, lines, sizeof lines);
    fputs(lines, stdout);
    if (n >= sizeof lines)
        printf("\n");
}

enum { O_TOL = O_SHARED, O_GGUF, O_CTX, O_ENGINE };
static const cli_option CHECK_OPTIONS[] = {SHARED_OPTIONS, {"--tol", NULL, 1, NULL},
                                           {"--gguf", NULL, 1, NULL}, {"--ctx", NULL, 1, NULL},
                                           {"--engine", NULL, 1, NULL}};

/* check's own options (--tol, --gguf, --ctx, --engine): 1 taken, 0 after a
 * message, -1 not one of them. */
static int check_option(int r, const char *v, model_opts *mo, double *tol,
                        posenc_check_engine *engine)
{
    if (r == O_ENGINE) {
        if (posenc_check_engine_parse(v, engine) == POSENC_OK)
            return 1;
        cli_fail(stderr, "check", 0,
                 "--engine '%s' is not an engine: exact, ggml, hf, hf-bf16, cache-f32 or cache-bf16",
                 v);
        return 0;
    }
    if (r == O_TOL) {
        if (posenc_parse_number(v, strlen(v), tol) == POSENC_OK && *tol > 0 && isfinite(*tol))
            return 1;
        cli_fail(stderr, "check", 0, "--tol '%s' must be a number > 0 (ulps)", v);
        return 0;
    }
    if (r == O_GGUF) {
        mo->gguf = v;
        return 1;
    }
    if (r != O_CTX)
        return -1;
    if (parse_i64(v, 1, (int64_t)UINT32_MAX - 255, &mo->ctx))
        return 1;
    cli_fail(stderr, "check", 0, "--ctx '%s' must be an integer from 1 to %lld", v,
             (long long)UINT32_MAX - 255);
    return 0;
}

/* A layer whose cos/sin are rows of a table (RoFormer's
 * max_position_embeddings rows; posenc_model_layer_rope_rows): a position at
 * or past it, or a length beyond it, is refused by name, as the family's
 * code raises an index error there. 1 when within (or m NULL, or no table). */
static int64_t table_rows(const posenc_model *m, uint32_t layer)
{
    int64_t rows = 0;
    int values;
    if (m) /* a RoPE layer (rope_spec_load_model and golden's loop chose it) */
        cli_cannot_fail(posenc_model_layer_rope_rows(m, layer, &rows, &values));
    return rows;
}

static int within_rows(const char *cmd, const posenc_model *m, uint32_t layer, int64_t pos,
                       int64_t len)
{
    int64_t rows = table_rows(m, layer);
    if (rows == 0 || (pos < rows && len <= rows))
        return 1;
    if (pos >= rows)
        cli_fail(stderr, cmd, 0, "position %lld is past layer %u's table: family %s reads cos and "
                 "sin from %lld rows (max_position_embeddings), and its code raises an index "
                 "error at or past it", (long long)pos, layer, posenc_model_type(m), (long long)rows);
    else
        cli_fail(stderr, cmd, 0, "--seq-len %lld is past layer %u's table: family %s reads cos "
                 "and sin from %lld rows (max_position_embeddings), and its code raises an index "
                 "error past it", (long long)len, layer, posenc_model_type(m), (long long)rows);
    return 0;
}

/* The forms of check: --gguf FILE --config FILE (the conversion; its exit
 * status), or a DUMP with one model; -1 to check the DUMP. */
static int check_form(const model_opts *mo, const char *dump)
{
    if (mo->gguf && mo->config && !dump && !mo->rope)
        return cli_check_gguf(mo->gguf, mo->config, (uint64_t)mo->ctx);
    if (mo->gguf && (mo->config || mo->rope))
        return cli_fail(stderr, "check", 0, "--gguf FILE takes --config FILE and no DUMP (the "
                                            "conversion), or a DUMP alone (llama.cpp's op)");
    if (!dump)
        return cli_fail(stderr, "check", 0, "no DUMP given (try 'posenc check --help')");
    if (!mo->gguf && !mo->config == !mo->rope)
        return cli_fail(stderr, "check", 0, "give the model: --config FILE or --rope 'WORDS' (one of them)");
    return -1;
}

int cli_check_main(int argc, char **argv)
{
    model_opts mo = {NULL, NULL, NULL, 0, 0, 0, POSENC_LAYOUT_INTERLEAVED};
    const char *dump = NULL;
    double tol = 0;
    posenc_check_engine engine = POSENC_CHECK_ENGINE_EXACT;
    char why[1400];
    cli_args args;
    cli_args_start(&args, argc, argv, 1, CHECK_OPTIONS,
                   sizeof CHECK_OPTIONS / sizeof CHECK_OPTIONS[0]);
    for (int r, k; (r = cli_args_next(&args)) != CLI_ARG_END;) {
        const char *v = args.value;
        if (r == O_HELP) {
            check_usage(stdout);
            return 0;
        } else if (r >= 0 && (k = check_option(r, v, &mo, &tol, &engine)) >= 0) {
            if (!k)
                return EXIT_BAD;
        } else if (r >= 0) {
            if (!shared_option("check", r, v, &mo))
                return EXIT_BAD;
        } else if (r != CLI_ARG_OPERAND) { /* "--" too */
            return bad_option("check", &args, r == CLI_ARG_NO_VALUE ? r : CLI_ARG_UNKNOWN);
        } else if (dump) {
            return cli_fail(stderr, "check", 0, "one DUMP only ('%s' and '%s')", dump, args.word);
        } else {
            dump = args.word;
        }
    }
    const char *config = mo.config, *rope = mo.rope, *gguf = mo.gguf;
    int64_t layer = mo.layer, seq_len = mo.seq_len, ctx = mo.ctx;
    posenc_layout layout = mo.layout;
    int form = check_form(&mo, dump);
    if (form >= 0)
        return form;
    posenc_check_input in;
    posenc_load_error le;
    posenc_status s = posenc_dump_load(dump, &in, &le);
    if (s != POSENC_OK)
        return cli_fail(stderr, "check", 0, "%s: %s", dump, le.detail[0] ? le.detail : posenc_strerror(s));
    posenc_rope_config *model = malloc(sizeof *model);
    posenc_check_result *res = malloc(sizeof *res);
    posenc_model *pm = NULL;
    int rc = EXIT_BAD;
    char label[256];
    if (!model || !res) {
        rc = cli_fail(stderr, "check", 0, "out of memory");
        goto out;
    }
    if (gguf ? !cli_gguf_layer_config(gguf, (uint32_t)layer, (uint64_t)ctx, model, why, sizeof why)
        : config ? !rope_spec_load_model(config, (uint32_t)layer, &pm, label, sizeof label, why,
                                         sizeof why)
                 : !rope_words(rope, in.x ? in.head_dim : in.table_dim, layout, model, why,
                               sizeof why)) {
        rc = cli_fail(stderr, "check", 0, "%s", why);
        goto out;
    }
    if (pm && posenc_model_layer_rope_sense(pm, (uint32_t)layer) < 0) {
        /* the hypotheses (the direction cause included) are rotations by +theta */
        rc = cli_fail(stderr, "check", 0,
                      "%s: model_type %s turns q and k by -theta (sense=-1): check's "
                      "hypotheses are rotations by +theta, so such a layer is not checked",
                      config, posenc_model_type(pm));
        goto out;
    }
    if (pm) { /* the layer's RoPE at the engine's length, its family's rules included */
        if (!seq_len)
            for (size_t t = 0; t < in.n_tok; t++)
                if (in.pos[t] + 1 > seq_len)
                    seq_len = in.pos[t] + 1;
        int64_t last = 0;
        for (size_t t = 0; t < in.n_tok; t++)
            if (in.pos[t] > last)
                last = in.pos[t];
        if (!within_rows("check", pm, (uint32_t)layer, last, seq_len))
            goto out;
        posenc_rope_scaling sc;
        s = posenc_model_layer_rope_config(pm, (uint32_t)layer, model);
        if (s == POSENC_OK)
            s = posenc_model_layer_scaling(pm, (uint32_t)layer, seq_len, &sc);
        if (s != POSENC_OK) {
            rc = cli_fail(stderr, "check", 0, "%s: the RoPE of layer %lld at length %lld: %s", config,
                     (long long)layer, (long long)seq_len, posenc_strerror(s));
            goto out;
        }
        model->scaling = sc;
    }
    s = posenc_check_run_engine(model, &in, seq_len, tol, engine, res);
    if (s != POSENC_OK) {
        if (s == POSENC_ERR_DIM)
            rc = cli_fail(stderr, "check", 0, "%s: %s %u does not fit the model (head_dim %u, rotary_dim %u)",
                     dump, in.x ? "head_dim" : "table_dim", in.x ? in.head_dim : in.table_dim,
                     model->head_dim, model->rotary_dim);
        else
            rc = cli_fail(stderr, "check", 0, "%s: %s", dump, posenc_strerror(s));
        goto out;
    }
    print_result(res);
    rc = res->match ? EXIT_MATCH : EXIT_MISMATCH;
out:
    posenc_model_free(pm);
    free(model);
    free(res);
    posenc_dump_free(&in);
    return rc;
}

/* ---- posenc golden ----------------------------------------------------------------- */

static void golden_usage(FILE *f)
{
    fputs("usage: posenc golden (--config FILE [--layer N] | --rope 'WORDS' [--layout L])\n"
          "                     [--positions LIST] [--heads N] [--seed S] [--dtype T]\n"
          "                     [--seq-len N] [--format safetensors|gguf] -o FILE\n"
          "Writes reference dumps: positions, x (random from the seed, in dtype T) and the\n"
          "exact y (correctly rounded to T), for posenc check to close the loop.\n"
          "  --config FILE    every layer group of the model: FILE when there is one,\n"
          "                   else one file each, FILE with -layerN before its extension;\n"
          "                   or --layer N alone (FILE)\n"
          "  --rope WORDS     SET rope's words (head_dim= is required)\n"
          "  --positions LIST comma-separated positions and ranges A-B (default: 0-16,\n"
          "                   2^k-1, 2^k, 2^k+1 for k = 5..19, the model's original and\n"
          "                   maximum lengths -1, 0, +1, 999999, 1000000)\n"
          "  --heads N        heads per token (default 4)\n"
          "  --seed S         the random x's seed (default 1)\n"
          "  --dtype T        F32 (default), F16 or BF16 (a RoPE dump's x and y; other\n"
          "                   layers' dumps are F32 and I64: refused there)\n"
          "  --format F       safetensors (default) or gguf: positions, x, y, the bound\n"
          "                   tol per token a float32 ggml engine meets, and the\n"
          "                   ggml_rope_ext arguments (rope_freqs.weight included)\n"
          "  --seq-len N      the sequence length for length-dependent scalings (default\n"
          "                   max(positions) + 1)\n"
          "A --layer N without RoPE: a sinusoid layer writes positions (I64 [n], the token\n"
          "indices before any offset) and pe (F32 [n, dim], the vectors its family adds,\n"
          "offset applied; default positions 0-31); a relative-bucket layer writes q_pos,\n"
          "k_pos (I64 [n]) and bucket (I64 [n, n]; default 0-15); a relative-sinusoid\n"
          "layer (XLNet, Funnel) writes positions (I64 [n], the distances query - key it\n"
          "reads for --seq-len tokens, default 16, negatives included; --positions gives\n"
          "them instead) and pe (F32 [n, d_model], [sin | cos] in its float32 steps).\n",
          f);
}

/* splitmix64: the seed's stream (the same numbers on every machine). */
static uint64_t next_u64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* v rounded to nearest-even in dtype d (finite values in range). */
static double to_dtype(double v, posenc_dtype d)
{
    if (v == 0)
        return 0;
    if (d == POSENC_DTYPE_F32)
        return (float)v; /* C's conversion rounds to nearest-even */
    int bits = d == POSENC_DTYPE_F32 ? 24 : d == POSENC_DTYPE_F16 ? 11 : 8;
    int emin = d == POSENC_DTYPE_F16 ? -14 : -126;
    int e = ilogb(v);
    int q = (e < emin ? emin : e) - (bits - 1);
    return ldexp(nearbyint(ldexp(v, -q)), q);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Positions from LIST, or the default set for cfg; sorted, unique. */
static int golden_positions(const char *list, const posenc_rope_config *cfg, int64_t **out,
                            size_t *n_out, char *why, size_t n)
{
    size_t cap = 256, cnt = 0;
    int64_t *p = malloc(cap * sizeof *p);
    if (!p) {
        snprintf(why, n, "out of memory");
        return 0;
    }
#define PUSH(v) do { if (cnt == cap) { int64_t *q_ = realloc(p, (cap *= 2) * sizeof *p); \
                         if (!q_) { free(p); snprintf(why, n, "out of memory"); return 0; } p = q_; } \
                     p[cnt++] = (v); } while (0)
    if (list) {
        for (const char *s = list; *s;) {
            size_t len = strcspn(s, ",");
            char w[64];
            if (len == 0 || len >= sizeof w) {
                free(p);
                snprintf(why, n, "--positions: empty or overlong item in '%s'", list);
                return 0;
            }
            memcpy(w, s, len);
            w[len] = '\0';
            char *dash = strchr(w + 1, '-');
            int64_t a, b;
            if (dash)
                *dash = '\0';
            if (!parse_i64(w, 0, POSENC_MAX_POS, &a) ||
                !parse_i64(dash ? dash + 1 : w, 0, POSENC_MAX_POS, &b) || b < a ||
                b - a > 10000000) {
                free(p);
                snprintf(why, n, "--positions: '%.*s' is not a position or a range A-B of at "
                         "most 10^7 positions (0 to %lld)", (int)len, s, POSENC_MAX_POS);
                return 0;
            }
            for (int64_t v = a; v <= b; v++)
                PUSH(v);
            s += len + (s[len] == ',');
        }
    } else {
        for (int64_t v = 0; v <= 16; v++)
            PUSH(v);
        for (int k = 5; k <= 19; k++)
            for (int64_t d = -1; d <= 1; d++)
                PUSH(((int64_t)1 << k) + d);
        int64_t lens[2] = {(int64_t)cfg->scaling.original_max_position_embeddings,
                           cfg->max_position_embeddings};
        for (int i = 0; i < 2; i++)
            if (lens[i] >= 2 && lens[i] < POSENC_MAX_POS)
                for (int64_t d = -1; d <= 1; d++)
                    PUSH(lens[i] + d);
        PUSH(999999);
        PUSH(1000000);
    }
#undef PUSH
    qsort(p, cnt, sizeof *p, cmp_i64);
    size_t u = 0;
    for (size_t i = 0; i < cnt; i++)
        if (u == 0 || p[i] != p[u - 1])
            p[u++] = p[i];
    *out = p;
    *n_out = u;
    return 1;
}

/* One dump for cfg at path; with a model m, the RoPE is its layer's at the
 * length (posenc_model_layer_rope: the family's length rules included). */
/* --format gguf (0: safetensors), for golden_one. */
static int golden_gguf;

static int golden_one(const char *path, const posenc_rope_config *cfg, const posenc_model *m,
                      uint32_t layer, const char *list, uint32_t n_head, uint64_t seed,
                      posenc_dtype dt, int64_t seq_len, const char *layer_word)
{
    char why[512];
    int64_t *pos;
    size_t n_tok;
    if (golden_gguf && m && posenc_model_layer_rope_sense(m, layer) < 0)
        return cli_fail(stderr, "golden", 0,
                        "--format gguf: model_type %s turns q and k by -theta (sense=-1), "
                        "which ggml_rope_ext's arguments cannot state: use safetensors",
                        posenc_model_type(m));
    if (!golden_positions(list, cfg, &pos, &n_tok, why, sizeof why))
        return cli_fail(stderr, "golden", 0, "%s", why);
    int64_t rows = table_rows(m, layer);
    while (!list && rows > 0 && n_tok > 1 && pos[n_tok - 1] >= rows)
        n_tok--; /* the default set: the table's rows */
    int64_t len = seq_len ? seq_len : pos[n_tok - 1] + 1;
    if (!within_rows("golden", m, layer, pos[n_tok - 1], len)) {
        free(pos);
        return EXIT_BAD;
    }
    posenc_rope r;
    posenc_status s = m ? posenc_model_layer_rope(m, layer, len, &r)
                        : posenc_rope_init_config(&r, cfg, len);
    if (s != POSENC_OK) {
        free(pos);
        return cli_fail(stderr, "golden", 0, "the model's RoPE at length %lld: %s", (long long)len,
                   posenc_strerror(s));
    }
    size_t hd = cfg->head_dim, n = n_tok * n_head * hd;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    double *h = malloc(hd * sizeof *h);
    int rc = EXIT_BAD;
    if (!x || !y || !h) {
        rc = cli_fail(stderr, "golden", 0, "out of memory for %zu elements", n);
        goto out;
    }
    uint64_t st = seed;
    for (size_t i = 0; i < n; i++) /* uniform in [-1, 1), rounded to the dtype */
        x[i] = (float)to_dtype((double)(next_u64(&st) >> 11) * 0x1p-52 - 1.0, dt);
    uint32_t P = r.rotary_dim / 2;
    for (size_t t = 0; t < n_tok; t++) {
        /* a cos(theta_k), a sin(theta_k) of every pair: the library's exact
         * rotation (posenc_rope_vec_f64) of the vector with (1, 0) in each pair */
        for (size_t d = 0; d < hd; d++)
            h[d] = 0;
        for (uint32_t k = 0; k < P; k++) {
            uint32_t i0, i1;
            cli_cannot_fail(posenc_pair_index(k, r.rotary_dim, r.layout, &i0, &i1));
            h[i0] = 1;
        }
        cli_cannot_fail(posenc_rope_vec_f64(&r, pos[t], POSENC_FORWARD, h));
        for (uint32_t k = 0; k < n_head; k++) {
            size_t at = (t * n_head + k) * hd;
            for (size_t d = r.rotary_dim; d < hd; d++)
                y[at + d] = x[at + d];
            for (uint32_t j = 0; j < P; j++) {
                uint32_t i0, i1;
                cli_cannot_fail(posenc_pair_index(j, r.rotary_dim, r.layout, &i0, &i1));
                double c = h[i0], s = h[i1], a = x[at + i0], b = x[at + i1];
                /* in double (products of two floats by doubles: one rounding
                 * each), then rounded once to the dtype */
                y[at + i0] = (float)to_dtype(a * c - b * s, dt);
                y[at + i1] = (float)to_dtype(a * s + b * c, dt);
            }
        }
    }
    posenc_check_input in = {.dtype = dt, .n_tok = n_tok, .n_head = n_head,
                             .head_dim = (uint32_t)hd, .pos = pos, .x = x, .y = y};
    char seedw[32], lenw[32];
    snprintf(seedw, sizeof seedw, "%llu", (unsigned long long)seed);
    snprintf(lenw, sizeof lenw, "%lld", (long long)len);
    const char *meta[] = {"format", "posenc-golden", "layer", layer_word, "seed", seedw,
                          "seq_len", lenw, NULL};
    posenc_load_error le;
    if (golden_gguf)
        s = cli_golden_gguf_save(path, cfg, &r, &in, meta, &le);
    else
        s = posenc_dump_save(path, &in, meta, &le);
    if (s != POSENC_OK) {
        rc = cli_fail(stderr, "golden", 0, "%s", le.detail[0] ? le.detail : posenc_strerror(s));
        goto out;
    }
    fputs("GOLDEN file=", stdout); /* the name as given, escaped like every echo */
    cli_write_escaped(stdout, path, strlen(path));
    printf(" layer=%s n_tok=%zu n_head=%u head_dim=%zu dtype=%s seq_len=%lld\n", layer_word,
           n_tok, n_head, hd, dtype_word(dt), (long long)len);
    rc = 0;
out:
    free(pos);
    free(x);
    free(y);
    free(h);
    return rc;
}

/* FILE with "-layerN" before its extension. */
static void layer_path(const char *out, uint32_t layer, char *buf, size_t n)
{
    const char *slash = strrchr(out, '/'), *dot = strrchr(out, '.');
    if (!dot || (slash && dot < slash) || dot == out || (slash && dot == slash + 1))
        snprintf(buf, n, "%s-layer%u", out, layer);
    else
        snprintf(buf, n, "%.*s-layer%u%s", (int)(dot - out), out, layer, dot);
}

enum { O_POSITIONS = O_SHARED, O_OUT, O_HEADS, O_SEED, O_DTYPE, O_FORMAT };
static const cli_option GOLDEN_OPTIONS[] = {
    SHARED_OPTIONS,          {"--positions", NULL, 1, NULL}, {"-o", NULL, 1, NULL},
    {"--heads", NULL, 1, NULL}, {"--seed", NULL, 1, NULL},   {"--dtype", NULL, 1, NULL},
    {"--format", NULL, 1, NULL},
};

/* The number of layer groups of m with RoPE. */
static uint32_t rope_groups(const posenc_model *m)
{
    int seen[POSENC_MODEL_MAX_GROUPS] = {0};
    uint32_t n = 0;
    for (uint32_t l = 0; l < posenc_model_n_layer(m); l++) {
        posenc_layer_info li;
        if (posenc_model_layer(m, l, &li) == POSENC_OK && li.group < POSENC_MODEL_MAX_GROUPS &&
            li.scheme == POSENC_SCHEME_ROPE && !seen[li.group]) {
            seen[li.group] = 1;
            n++;
        }
    }
    return n;
}

/* --dtype T or --format F into *dt or golden_gguf; 0 after a message. */
static int golden_word(int r, const char *v, posenc_dtype *dt)
{
    if (r == O_FORMAT) {
        if (strcmp(v, "gguf") && strcmp(v, "safetensors"))
            return !cli_fail(stderr, "golden", 0, "--format '%s' must be safetensors or gguf", v);
        golden_gguf = !strcmp(v, "gguf");
        return 1;
    }
    if (!strcmp(v, "F32"))
        *dt = POSENC_DTYPE_F32;
    else if (!strcmp(v, "F16"))
        *dt = POSENC_DTYPE_F16;
    else if (!strcmp(v, "BF16"))
        *dt = POSENC_DTYPE_BF16;
    else
        return !cli_fail(stderr, "golden", 0, "--dtype '%s' must be F32, F16 or BF16", v);
    return 1;
}

/* golden of every layer group of m with RoPE (or of layer, when >= 0),
 * each group's first layer, into FILE itself when there is one group, else
 * FILE with the layer's number (layer_path); *any 1 when one was written. */
static int golden_rope_groups(const char *out, const posenc_model *m, int64_t layer,
                              const char *list, uint32_t heads, uint64_t seed, posenc_dtype dt,
                              int64_t seq_len, posenc_rope_config *cfg, int *any)
{
    uint32_t n = posenc_model_n_layer(m), groups = rope_groups(m);
    int done[POSENC_MODEL_MAX_GROUPS] = {0}, rc = 0;
    for (uint32_t l = layer >= 0 ? (uint32_t)layer : 0; l < n && rc == 0; l++) {
        posenc_layer_info li;
        if (posenc_model_layer(m, l, &li) != POSENC_OK || li.group >= POSENC_MODEL_MAX_GROUPS ||
            done[li.group] || li.scheme != POSENC_SCHEME_ROPE ||
            posenc_model_layer_rope_config(m, l, cfg) != POSENC_OK)
            continue;
        done[li.group] = 1;
        *any = 1;
        char path[4096], lw[16];
        if (layer >= 0 || groups == 1)
            snprintf(path, sizeof path, "%s", out);
        else
            layer_path(out, l, path, sizeof path);
        snprintf(lw, sizeof lw, "%u", l);
        rc = golden_one(path, cfg, m, l, list, heads, seed, dt, seq_len, lw);
        if (layer >= 0)
            break;
    }
    return rc;
}

/* golden of a --config layer that does not rotate, written by
 * golden_tables.c: XLNet's and Funnel's relative sinusoid, SAM 3 LiteText's
 * resampled table, a sinusoid table, a learned table's rows or relative
 * buckets. 1 (and *rc) when layer is such a layer; 0 for a RoPE layer, or
 * when the config cannot be read (the RoPE path then says why). */
static int golden_other_scheme(const char *out, const char *config, uint32_t layer,
                               const char *list, int64_t seq_len, posenc_dtype dt, int *rc)
{
    posenc_model *m = NULL;
    posenc_layer_info li;
    posenc_model_ids ids;
    char why[1400];
    if (!rope_spec_read_model(config, NULL, &m, why, sizeof why) ||
        posenc_model_layer(m, layer, &li) != POSENC_OK) {
        posenc_model_free(m);
        return 0;
    }
    int handled = 1;
    if (dt != POSENC_DTYPE_F32 && li.scheme != POSENC_SCHEME_ROPE) {
        /* these dumps hold float32 vectors and int64 ids, no x to round */
        *rc = cli_fail(stderr, "golden", 0,
                       "--dtype %s: layer %u's scheme is %s, whose golden is written in F32 "
                       "(its vectors) and I64 (positions, ids): leave --dtype out",
                       dtype_word(dt), layer, posenc_scheme_name(li.scheme));
        posenc_model_free(m);
        return 1;
    }
    if (li.scheme == POSENC_SCHEME_RELATIVE_SINUSOID)
        *rc = cli_golden_rel_sinusoid(out, m, layer, list, seq_len);
    else if (posenc_model_layer_ids(m, layer, &ids) == POSENC_OK &&
             ids.kind == POSENC_IDS_RESAMPLED)
        *rc = cli_golden_resampled(out, m, layer, list, seq_len);
    else if (li.scheme == POSENC_SCHEME_SINUSOID || li.scheme == POSENC_SCHEME_LEARNED ||
             li.scheme == POSENC_SCHEME_RELATIVE_BUCKETS)
        *rc = cli_golden_table(out, m, layer, list);
    else
        handled = 0;
    posenc_model_free(m);
    return handled;
}

int cli_golden_main(int argc, char **argv)
{
    model_opts mo = {NULL, NULL, NULL, 0, -1, 0, POSENC_LAYOUT_INTERLEAVED};
    const char *out = NULL, *list = NULL;
    int64_t heads = 4, seed = 1;
    posenc_dtype dt = POSENC_DTYPE_F32;
    char why[1400];
    cli_args args;
    cli_args_start(&args, argc, argv, 1, GOLDEN_OPTIONS,
                   sizeof GOLDEN_OPTIONS / sizeof GOLDEN_OPTIONS[0]);
    for (int r; (r = cli_args_next(&args)) != CLI_ARG_END;) {
        const char *v = args.value;
        if (r == O_HELP) {
            golden_usage(stdout);
            return 0;
        } else if (r == O_POSITIONS) {
            list = v;
        } else if (r == O_OUT) {
            out = v;
        } else if (r == O_HEADS) {
            if (!parse_i64(v, 1, 4096, &heads))
                return cli_fail(stderr, "golden", 0, "--heads '%s' must be an integer from 1 to 4096", v);
        } else if (r == O_SEED) {
            if (!parse_i64(v, 0, INT64_MAX, &seed))
                return cli_fail(stderr, "golden", 0, "--seed '%s' must be an integer >= 0", v);
        } else if (r == O_DTYPE || r == O_FORMAT) {
            if (!golden_word(r, v, &dt))
                return EXIT_BAD;
        } else if (r >= 0) {
            if (!shared_option("golden", r, v, &mo))
                return EXIT_BAD;
        } else if (r == CLI_ARG_UNKNOWN || r == CLI_ARG_NO_VALUE) {
            return bad_option("golden", &args, r);
        } else {
            return cli_fail(stderr, "golden", 1, "unknown argument '%s'", args.word);
        }
    }
    const char *config = mo.config, *rope = mo.rope;
    int64_t layer = mo.layer, seq_len = mo.seq_len;
    posenc_layout layout = mo.layout;
    if (!out)
        return cli_fail(stderr, "golden", 0, "no output file: give -o FILE");
    if (golden_gguf && dt != POSENC_DTYPE_F32)
        return cli_fail(stderr, "golden", 0, "--format gguf writes F32 (ggml's float32 RoPE "
                                             "and its tolerances): leave --dtype out");
    if (!config == !rope)
        return cli_fail(stderr, "golden", 0, "give the model: --config FILE or --rope 'WORDS' (one of them)");
    posenc_rope_config *cfg = malloc(sizeof *cfg);
    if (!cfg)
        return cli_fail(stderr, "golden", 0, "out of memory");
    int rc = 0;
    if (rope) {
        if (!rope_words(rope, 0, layout, cfg, why, sizeof why))
            rc = cli_fail(stderr, "golden", 0, "%s", why);
        else
            rc = golden_one(out, cfg, NULL, 0, list, (uint32_t)heads, (uint64_t)seed, dt,
                            seq_len, "0");
    } else if (layer >= 0 &&
               golden_other_scheme(out, config, (uint32_t)layer, list, seq_len, dt, &rc)) {
        /* done: a layer without RoPE */
    } else {
        posenc_model *m = NULL;
        char label[256];
        if (layer >= 0 ? !rope_spec_load_model(config, (uint32_t)layer, &m, label, sizeof label,
                                               why, sizeof why)
                       : !rope_spec_read_model(config, NULL, &m, why, sizeof why)) {
            free(cfg);
            return cli_fail(stderr, "golden", 0, "%s", why);
        }
        int any = 0;
        rc = golden_rope_groups(out, m, layer, list, (uint32_t)heads, (uint64_t)seed, dt,
                                seq_len, cfg, &any);
        if (!any && rc == 0)
            rc = cli_fail(stderr, "golden", 0,
                          "%s: no layer of %s has RoPE (--layer N writes that layer's "
                          "table, ids or buckets)",
                          config, rope_spec_model_type(m));
        posenc_model_free(m);
    }
    free(cfg);
    return rc;
}
