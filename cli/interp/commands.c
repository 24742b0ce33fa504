/* commands.c - one function per command of the language. Each parses its
 * words, calls the public API, and prints; the numbers all come from the
 * library. */
#include "cli.h"
#include "plot_options.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Most words on one line: two vectors of POSENC_MAX_DIM, four brackets, the
 * command and a few arguments. */
#define MAX_TOKENS (2u * POSENC_MAX_DIM + 16u)

/* ---- words ----------------------------------------------------------------- */

static int is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == ',' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* Splits a line into words; '[' and ']' are words of their own, '#' starts a
 * comment. Returns the count, or -1 (with a message) past MAX_TOKENS. */
static long tokenize(cli_state *st, const char *line, size_t len)
{
    size_t n = 0, i = 0;
    /* Commands are text: a NUL byte would end a word early in every
     * message that shows it (and in fopen), so the line is refused here,
     * naming the byte and where it is. */
    const char *nul = memchr(line, '\0', len);
    if (nul) {
        cli_error(st, "a NUL byte (\\x00) at column %zu: commands are text, the line is skipped",
                  (size_t)(nul - line) + 1);
        return -1;
    }
    while (i < len) {
        char ch = line[i];
        if (ch == '#')
            break;
        if (is_space(ch)) {
            i++;
            continue;
        }
        size_t start = i;
        if (ch == '[' || ch == ']')
            i++;
        else
            while (i < len && !is_space(line[i]) && line[i] != '#' && line[i] != '[' &&
                   line[i] != ']')
                i++;
        if (n == MAX_TOKENS) {
            cli_error(st, "too many words on one line (at most %u)", MAX_TOKENS);
            return -1;
        }
        if (n == st->tok_cap) {
            size_t cap = st->tok_cap ? st->tok_cap * 2 : 64;
            if (cap > MAX_TOKENS)
                cap = MAX_TOKENS;
            cli_token *p = realloc(st->tok, cap * sizeof *p);
            if (!p) {
                cli_error(st, "out of memory");
                return -1;
            }
            st->tok = p;
            st->tok_cap = cap;
        }
        st->tok[n].s = line + start;
        st->tok[n].len = i - start;
        n++;
    }
    return (long)n;
}

/* A word in a message: its first 40 bytes, then "..." if cut ("%.*s%s"). */
#define SHOW(t) CLI_SHOW((t).s, (t).len)

static const char *plural(size_t n) { return n == 1 ? "" : "s"; }

/* ---- numbers ---------------------------------------------------------------- */

static int looks_like_nan_or_inf(cli_token t)
{
    cli_token u = t;
    if (u.len && (u.s[0] == '+' || u.s[0] == '-')) {
        u.s++;
        u.len--;
    }
    return cli_word_is(u, "nan") || cli_word_is(u, "inf") || cli_word_is(u, "infinity");
}

static int parse_number(cli_state *st, cli_token t, double *out)
{
    posenc_status s = posenc_parse_number(t.s, t.len, out);
    if (s == POSENC_OK)
        return 1;
    if (s == POSENC_ERR_NOT_FINITE)
        cli_error(st, "'%.*s%s' is not a finite number (too large for a double)", SHOW(t));
    else if (looks_like_nan_or_inf(t))
        cli_error(st, "'%.*s%s' is not allowed: vector elements must be finite numbers", SHOW(t));
    else
        cli_error(st, "'%.*s%s' is not a number", SHOW(t));
    return 0;
}

/* An integer word in [lo, hi]; what names it in messages ("position"...). */
static int parse_integer(cli_state *st, cli_token t, int64_t lo, int64_t hi, const char *what,
                         int64_t *out)
{
    posenc_status s = posenc_parse_int64(t.s, t.len, out);
    if (s == POSENC_ERR_FORMAT) {
        cli_error(st, "'%.*s%s' is not a %s (an integer from %lld to %lld)", SHOW(t), what,
                  (long long)lo, (long long)hi);
        return 0;
    }
    if (s != POSENC_OK || *out < lo || *out > hi) {
        cli_error(st, "%s %.*s%s is out of range (%lld to %lld)", what, SHOW(t), (long long)lo,
                  (long long)hi);
        return 0;
    }
    return 1;
}

static int parse_position(cli_state *st, cli_token t, int64_t *pos)
{
    return parse_integer(st, t, 0, POSENC_MAX_POS, "position", pos);
}

static int parse_dim(cli_state *st, cli_token t, const char *what, uint32_t *out)
{
    int64_t v;
    if (!parse_integer(st, t, 1, POSENC_MAX_DIM, what, &v))
        return 0;
    *out = (uint32_t)v;
    return 1;
}

/* Makes room for n doubles in *buf (n <= POSENC_MAX_DIM). */
static int reserve(cli_state *st, double **buf, size_t *cap, size_t n)
{
    if (n <= *cap)
        return 1;
    size_t c = *cap ? *cap : 64;
    while (c < n)
        c *= 2;
    double *p = realloc(*buf, c * sizeof *p);
    if (!p) {
        cli_error(st, "out of memory");
        return 0;
    }
    *buf = p;
    *cap = c;
    return 1;
}

/* A run of number words: at most POSENC_MAX_DIM of them, all finite. */
static int parse_numbers(cli_state *st, const cli_token *t, size_t n, double **buf,
                         size_t *cap)
{
    if (n > POSENC_MAX_DIM) {
        cli_error(st, "a vector has at most %u numbers, got %zu", POSENC_MAX_DIM, n);
        return 0;
    }
    if (!reserve(st, buf, cap, n))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!parse_number(st, t[i], &(*buf)[i]))
            return 0;
    return 1;
}

/* The vectors written on a line: either one unbracketed run of numbers, or
 * bracketed groups "[..] [..]" with nothing outside them. */
typedef struct vec_groups {
    size_t count;            /* groups found */
    size_t start[2], len[2]; /* word ranges of the first two groups */
    int bracketed;
} vec_groups;

static int find_groups(cli_state *st, const cli_token *t, size_t n, vec_groups *g)
{
    memset(g, 0, sizeof *g);
    int has_bracket = 0, has_open = 0;
    for (size_t i = 0; i < n; i++) {
        has_open |= cli_word_is(t[i], "[");
        has_bracket |= cli_word_is(t[i], "[") || cli_word_is(t[i], "]");
    }
    if (!has_bracket) {
        g->count = 1;
        g->start[0] = 0;
        g->len[0] = n;
        return 1;
    }
    g->bracketed = 1;
    size_t i = 0;
    while (i < n) {
        if (!cli_word_is(t[i], "[")) {
            if (cli_word_is(t[i], "]") || !has_open)
                cli_error(st, "unexpected ']' without a matching '['");
            else
                cli_error(st, "'%.*s%s' is outside the brackets: bracket every vector or none",
                          SHOW(t[i]));
            return 0;
        }
        size_t j = i + 1;
        while (j < n && !cli_word_is(t[j], "]")) {
            if (cli_word_is(t[j], "[")) {
                cli_error(st, "'[' inside a bracketed vector: brackets do not nest");
                return 0;
            }
            j++;
        }
        if (j == n) {
            cli_error(st, "missing ']' to close the vector");
            return 0;
        }
        if (g->count < 2) {
            g->start[g->count] = i + 1;
            g->len[g->count] = j - i - 1;
        }
        g->count++;
        i = j + 1;
    }
    return 1;
}

/* Exactly one vector (bracketed or not) of at least one number into st->vec. */
static int parse_one_vector(cli_state *st, const char *cmd, const cli_token *t, size_t n,
                            size_t *D)
{
    vec_groups g;
    if (!find_groups(st, t, n, &g))
        return 0;
    if (g.count != 1) {
        cli_error(st, "%s takes one vector, got %zu bracketed vectors", cmd, g.count);
        return 0;
    }
    if (g.len[0] == 0) {
        cli_error(st, "%s needs a position and at least one number, got an empty vector", cmd);
        return 0;
    }
    if (!parse_numbers(st, t + g.start[0], g.len[0], &st->vec, &st->vec_cap))
        return 0;
    *D = g.len[0];
    return 1;
}

/* ---- the commands ------------------------------------------------------------ */

static int need_args(cli_state *st, size_t got, size_t want, const char *what)
{
    if (got == want)
        return 1;
    cli_error(st, "%s, got %zu argument%s", what, got, plural(got));
    return 0;
}

/* "PE pos D" and "EXPLAIN PE pos D": the arguments, and the row PE(pos) in
 * st->vec. */
static int pe_row(cli_state *st, const cli_token *a, size_t n, const char *cmd, int64_t *pos,
                  uint32_t *D)
{
    char what[64];
    snprintf(what, sizeof what, "%s needs a position and a dimension", cmd);
    if (!need_args(st, n, 2, what) || !parse_position(st, a[0], pos) ||
        !parse_dim(st, a[1], "dimension", D) || !reserve(st, &st->vec, &st->vec_cap, *D))
        return 0;
    cli_cannot_fail(posenc_sinusoid_fill_f64(*pos, *D, st->base, st->vec));
    return 1;
}

static int cmd_pe(cli_state *st, const cli_token *a, size_t n)
{
    int64_t pos;
    uint32_t D;
    if (!pe_row(st, a, n, "PE", &pos, &D))
        return 0;
    cli_print_numbers(st, st->vec, D);
    return 1;
}

/* A position: t:h:w when mrope (an M-RoPE layer), else one position
 * (p[0] = p[1] = p[2]). */
static int parse_layer_position(cli_state *st, cli_token t, int mrope, int64_t p[3])
{
    if (mrope)
        return cli_parse_mrope_position(st, t, p);
    if (!parse_position(st, t, &p[0]))
        return 0;
    p[1] = p[2] = p[0];
    return 1;
}

/* CMD POS x... (ROPE, ADD, EXPLAIN ROPE): the position and one vector into
 * st->vec; needs says what CMD needs when the words are too few. */
static int parse_pos_vector(cli_state *st, const char *cmd, const char *needs,
                            const cli_token *a, size_t n, int mrope, int64_t p[3], size_t *D)
{
    if (n < 2) {
        cli_error(st, "%s needs %s, got %zu argument%s", cmd, needs, n, plural(n));
        return 0;
    }
    return parse_layer_position(st, a[0], mrope, p) &&
           parse_one_vector(st, cmd, a + 1, n - 1, D);
}

static int cmd_rope(cli_state *st, const cli_token *a, size_t n)
{
    int64_t p[3];
    size_t D;
    if (!parse_pos_vector(st, "ROPE", "a position and at least one number", a, n,
                          cli_layer_kind_of(st) == CLI_LAYER_MROPE, p, &D))
        return 0;
    return cli_layer_rotate(st, p, D);
}

static int cmd_add(cli_state *st, const cli_token *a, size_t n)
{
    int64_t p[3];
    size_t D;
    if (!parse_pos_vector(st, "ADD", "a position and at least one number", a, n, 0, p, &D))
        return 0;
    cli_cannot_fail(posenc_sinusoid_add_f64(p[0], (uint32_t)D, st->base, st->vec));
    cli_print_numbers(st, st->vec, D);
    return 1;
}

/* DOT's words: two positions (t:h:w when mrope) and two vectors, q into
 * st->vec, k into st->vec2, *D their length. */
static int parse_dot(cli_state *st, const cli_token *a, size_t n, int mrope, int64_t m3[3],
                     int64_t p3[3], size_t *D_out)
{
    if (n < 4) {
        cli_error(st, "DOT needs two positions and two vectors q and k, got %zu argument%s", n,
                  plural(n));
        return 0;
    }
    if (!parse_layer_position(st, a[0], mrope, m3) || !parse_layer_position(st, a[1], mrope, p3))
        return 0;
    vec_groups g;
    if (!find_groups(st, a + 2, n - 2, &g))
        return 0;
    size_t qs, ks, D;
    if (g.bracketed) {
        if (g.count != 2) {
            cli_error(st, "DOT needs two bracketed vectors [q] [k], got %zu", g.count);
            return 0;
        }
        if (g.len[0] != g.len[1]) {
            cli_error(st, "DOT vectors differ in length: q has %zu number%s, k has %zu",
                      g.len[0], plural(g.len[0]), g.len[1]);
            return 0;
        }
        qs = g.start[0];
        ks = g.start[1];
        D = g.len[0];
    } else {
        if (g.len[0] % 2) {
            cli_error(st, "DOT vectors differ in length: %zu numbers do not split into two "
                          "halves (write [q] [k] to make the split explicit)",
                      g.len[0]);
            return 0;
        }
        D = g.len[0] / 2;
        qs = 0;
        ks = D;
    }
    if (D == 0) {
        cli_error(st, "DOT needs vectors of at least one number");
        return 0;
    }
    if (!parse_numbers(st, a + 2 + qs, D, &st->vec, &st->vec_cap) ||
        !parse_numbers(st, a + 2 + ks, D, &st->vec2, &st->vec2_cap))
        return 0;
    *D_out = D;
    return 1;
}

static int cmd_dot(cli_state *st, const cli_token *a, size_t n)
{
    int64_t m3[3], p3[3];
    size_t D;
    int mrope = cli_layer_kind_of(st) == CLI_LAYER_MROPE;
    return parse_dot(st, a, n, mrope, m3, p3, &D) && cli_layer_dot(st, m3, p3, D);
}

static int cmd_alibi(cli_state *st, const cli_token *a, size_t n)
{
    uint32_t H;
    int64_t i, j;
    if (!need_args(st, n, 3, "ALIBI needs a head count H and positions i and j") ||
        !parse_dim(st, a[0], "head count", &H) || !parse_position(st, a[1], &i) ||
        !parse_position(st, a[2], &j) || !reserve(st, &st->vec, &st->vec_cap, H))
        return 0;
    cli_cannot_fail(posenc_alibi_penalties(H, i, j, st->vec));
    cli_print_numbers(st, st->vec, H);
    return 1;
}

/* LOAD takes the rest of the line as the file name, so names with spaces
 * work; surrounding space and a trailing comment are dropped. */
static int cmd_load(cli_state *st, const char *rest, size_t len)
{
    while (len && is_space(rest[0]) && rest[0] != ',') {
        rest++;
        len--;
    }
    const char *hash = memchr(rest, '#', len);
    if (hash)
        len = (size_t)(hash - rest);
    while (len && (rest[len - 1] == ' ' || rest[len - 1] == '\t' || rest[len - 1] == '\r'))
        len--;
    if (len == 0) {
        cli_error(st, "LOAD needs a file name, got 0 arguments");
        return 0;
    }
    /* no NUL byte here (tokenize refuses the line): fopen sees the whole name */
    if (cli_load_names_checkpoint(rest, len))
        return cli_load_checkpoint(st, rest, len);
    char *path = malloc(len + 1);
    if (!path) {
        cli_error(st, "out of memory");
        return 0;
    }
    memcpy(path, rest, len);
    path[len] = '\0';
    posenc_learned *t = NULL;
    posenc_load_error e;
    posenc_status s = posenc_learned_load(path, &t, &e);
    int ok = cli_table_loaded(st, path, s, &e, t);
    free(path);
    return ok;
}

/* LEARNED pos and EXPLAIN LEARNED pos: row pos + offset of the table, the
 * offset a --config model's family indexes it with (cli_learned_offset). */
static int learned_row(cli_state *st, const cli_token *a, size_t n, const char *cmd,
                       int64_t *pos, int64_t *row, posenc_model_table *t, int *has)
{
    char what[64];
    snprintf(what, sizeof what, "%s needs a position", cmd);
    if (!need_args(st, n, 1, what) || !parse_position(st, a[0], pos))
        return 0;
    if (!st->table) {
        cli_error(st, "no learned table is loaded (LOAD a file first)");
        return 0;
    }
    int64_t off = cli_learned_offset(st, t, has);
    size_t rows = posenc_learned_n_pos(st->table), dim = posenc_learned_dim(st->table);
    *row = *pos + off;
    if (!reserve(st, &st->vec, &st->vec_cap, dim))
        return 0;
    if (posenc_learned_row_f64(st->table, *row, st->vec) == POSENC_ERR_POS) {
        if (off && (int64_t)rows > off)
            cli_error(st,
                      "position %lld reads row %lld (the model's offset %lld), past the end of "
                      "the learned table: it has %zu row%s (positions 0 to %lld)",
                      (long long)*pos, (long long)*row, (long long)off, rows, plural(rows),
                      (long long)rows - 1 - off);
        else if (off)
            cli_error(st,
                      "position %lld reads row %lld (the model's offset %lld), past the end of "
                      "the learned table: its %zu row%s hold no position at that offset",
                      (long long)*pos, (long long)*row, (long long)off, rows, plural(rows));
        else
            cli_error(st,
                      "position %lld is past the end of the learned table: it has %zu row%s "
                      "(positions 0 to %zu)",
                      (long long)*pos, rows, plural(rows), rows - 1);
        return 0;
    }
    return 1;
}

/* LEARNED pos, and with explain set EXPLAIN LEARNED pos: the row, with
 * where it comes from before it. */
static int learned(cli_state *st, const cli_token *a, size_t n, int explain)
{
    int64_t pos, row;
    posenc_model_table t;
    int has;
    if (!learned_row(st, a, n, explain ? "EXPLAIN LEARNED" : "LEARNED", &pos, &row, &t, &has))
        return 0;
    if (explain) {
        fprintf(st->out, "LEARNED pos=%lld row=%lld offset=%lld rows=%zu dim=%zu\n",
                (long long)pos, (long long)row, (long long)(row - pos),
                posenc_learned_n_pos(st->table), posenc_learned_dim(st->table));
        cli_explain_learned_offset(st, &t, has);
        fputs("result: ", st->out);
    }
    cli_print_numbers(st, st->vec, posenc_learned_dim(st->table));
    return 1;
}

static int cmd_learned(cli_state *st, const cli_token *a, size_t n)
{
    return learned(st, a, n, 0);
}

static int explain_learned(cli_state *st, const cli_token *a, size_t n)
{
    return learned(st, a, n, 1);
}

/* ---- settings ----------------------------------------------------------------- */

static int cmd_set(cli_state *st, const cli_token *a, size_t n)
{
    if (n >= 1 && cli_word_is(a[0], "rope")) {
        /* replaces the model (one RoPE, every layer) */
        if (n >= 2 && cli_word_is(a[1], "mrope"))
            return cli_set_rope_mrope(st, a + 2, n - 2);
        return cli_set_rope(st, a + 1, n - 1);
    }
    if (n >= 1 && cli_word_is(a[0], "t5"))
        return cli_set_t5(st, a + 1, n - 1);
    if (n == 2 && cli_word_is(a[0], "layer"))
        return cli_set_layer(st, a[1]);
    if (!need_args(st, n, 2, "SET needs a setting and a value"))
        return 0;
    char why[160];
    int ok;
    if (cli_word_is(a[0], "base"))
        ok = cli_parse_base(a[1].s, a[1].len, &st->base, why, sizeof why);
    else if (cli_word_is(a[0], "layout"))
        ok = cli_parse_layout(a[1].s, a[1].len, &st->layout, why, sizeof why);
    else if (cli_word_is(a[0], "precision"))
        ok = cli_parse_precision(a[1].s, a[1].len, &st->precision, why, sizeof why);
    else if (cli_word_is(a[0], "seq_len"))
        return cli_set_seq_len(st, a[1]);
    else {
        cli_error(st, "unknown setting '%.*s%s' (settings: base, layout, precision, rope, "
                      "seq_len, layer, t5)",
                  SHOW(a[0]));
        return 0;
    }
    if (!ok)
        cli_error(st, "%s", why);
    else
        cli_rope_settings_changed(st);
    return ok;
}

/* ---- EXPLAIN ------------------------------------------------------------------ */

/* A number in "%g" style for headers (base = 10000, not 10000.0000). */
static void print_base(cli_state *st) { fprintf(st->out, "base=%.17g", st->base); }

/* A pair's divisor, angle, sin and (with_cos) cos. */
static void print_trace_of(cli_state *st, const posenc_pair_trace *tr, int with_cos)
{
    fprintf(st->out, " divisor=%s", cli_format_number(st, tr->divisor));
    fprintf(st->out, " angle=%s", cli_format_number(st, tr->angle));
    fprintf(st->out, " sin=%s", cli_format_number(st, tr->sin_angle));
    if (with_cos)
        fprintf(st->out, " cos=%s", cli_format_number(st, tr->cos_angle));
}

static void print_trace(cli_state *st, const posenc_pair_trace *tr)
{
    print_trace_of(st, tr, 1);
}

/* EXPLAIN PE's and EXPLAIN ADD's first line: "<cmd> pos=.. D=.. base..", then
 * how, which says what the pairs below show. */
static void explain_head(cli_state *st, const char *cmd, int64_t pos, size_t D, const char *how)
{
    fprintf(st->out, "%s pos=%lld D=%zu ", cmd, (long long)pos, D);
    print_base(st);
    fputs(how, st->out);
}

/* EXPLAIN PE's and EXPLAIN ADD's pair k of PE(pos) of D elements: which
 * elements, then the trace; returns whether it is the lone sine of an odd D
 * (which has no cosine). */
static int explain_pair(cli_state *st, int64_t pos, uint32_t k, uint32_t D)
{
    posenc_pair_trace tr;
    int lone = 2 * k + 1 >= D;
    cli_cannot_fail(posenc_pair_explain(pos, k, D, st->base, &tr));
    if (lone)
        fprintf(st->out, "k=%u element %u (sine only: odd D)", k, 2 * k);
    else
        fprintf(st->out, "k=%u elements %u,%u", k, 2 * k, 2 * k + 1);
    print_trace_of(st, &tr, !lone);
    return lone;
}

static int explain_pe(cli_state *st, const cli_token *a, size_t n)
{
    int64_t pos;
    uint32_t D;
    if (!pe_row(st, a, n, "EXPLAIN PE", &pos, &D))
        return 0;
    explain_head(st, "PE", pos, D,
                 ": pair k = elements 2k, 2k+1; angle = pos / divisor, divisor = base^(2k/D); "
                 "PE[2k] = sin(angle), PE[2k+1] = cos(angle)\n");
    for (uint32_t k = 0; 2 * k < D; k++) {
        explain_pair(st, pos, k, D);
        fputc('\n', st->out);
    }
    fputs("result: ", st->out);
    cli_print_numbers(st, st->vec, D);
    return 1;
}

/* EXPLAIN ADD pos x...: the embedding step x + PE(pos), pair by pair. */
static int explain_add(cli_state *st, const cli_token *a, size_t n)
{
    int64_t p[3];
    size_t D;
    if (!parse_pos_vector(st, "EXPLAIN ADD", "a position and at least one number", a, n, 0, p,
                          &D) ||
        !reserve(st, &st->vec2, &st->vec2_cap, D))
        return 0;
    int64_t pos = p[0];
    cli_cannot_fail(posenc_sinusoid_fill_f64(pos, (uint32_t)D, st->base, st->vec2));
    explain_head(st, "ADD", pos, D,
                 ": x + PE(pos), D = the length of x; pair k = elements 2k, 2k+1 gets "
                 "(sin(angle), cos(angle)) added, angle = pos / base^(2k/D)\n");
    for (uint32_t k = 0; 2 * k < D; k++) {
        int lone = explain_pair(st, pos, k, (uint32_t)D);
        fprintf(st->out, " x=(%s", cli_format_number(st, st->vec[2 * k]));
        if (!lone)
            fprintf(st->out, ", %s", cli_format_number(st, st->vec[2 * k + 1]));
        fprintf(st->out, ") sum=(%s", cli_format_number(st, st->vec[2 * k] + st->vec2[2 * k]));
        if (!lone)
            fprintf(st->out, ", %s",
                    cli_format_number(st, st->vec[2 * k + 1] + st->vec2[2 * k + 1]));
        fputs(")\n", st->out);
    }
    for (size_t i = 0; i < D; i++)
        st->vec[i] += st->vec2[i];
    fputs("result: ", st->out);
    cli_print_numbers(st, st->vec, D);
    return 1;
}

/* EXPLAIN DOT m n q k: each pair's contribution to ROPE(m, q) . ROPE(n, k),
 * which is (q0 k0 + q1 k1) cos((m - n) f) + (q0 k1 - q1 k0) sin((m - n) f):
 * only m - n enters (plain RoPE, the base and layout of SET). */
static int explain_dot(cli_state *st, const cli_token *a, size_t n)
{
    if (cli_layer_kind_of(st) != CLI_LAYER_PLAIN) {
        cli_error(st, "EXPLAIN DOT traces plain RoPE: SET rope off first (DOT itself uses "
                      "the model's RoPE)");
        return 0;
    }
    int64_t m3[3], p3[3];
    size_t D;
    if (!parse_dot(st, a, n, 0, m3, p3, &D))
        return 0;
    int64_t m = m3[0], p = p3[0];
    const double *q = st->vec, *k = st->vec2;
    fprintf(st->out, "DOT m=%lld n=%lld D=%zu ", (long long)m, (long long)p, D);
    print_base(st);
    fprintf(st->out, " layout=%s: ROPE(m, q) . ROPE(n, k); pair k turns q by m f and k by n f, "
                     "f = 1 / base^(2k/D), and contributes (q0 k0 + q1 k1) cos((m - n) f) + "
                     "(q0 k1 - q1 k0) sin((m - n) f): only m - n = %lld enters\n",
            st->layout == POSENC_LAYOUT_HALF ? "half" : "interleaved", (long long)(m - p));
    double sum = 0;
    for (uint32_t j = 0; j < D / 2; j++) {
        posenc_pair_trace tr;
        uint32_t i0, i1;
        cli_cannot_fail(posenc_pair_explain(1, j, (uint32_t)D, st->base, &tr));
        cli_cannot_fail(posenc_pair_index(j, (uint32_t)D, st->layout, &i0, &i1));
        double f = tr.angle; /* the angle at position 1: the frequency */
        double d = (double)(m - p) * f;
        double same = q[i0] * k[i0] + q[i1] * k[i1], cross = q[i0] * k[i1] - q[i1] * k[i0];
        double c = same * cos(d) + cross * sin(d);
        sum += c;
        fprintf(st->out, "k=%u elements %u,%u f=%s", j, i0, i1, cli_format_number(st, f));
        fprintf(st->out, " m*f=%s", cli_format_number(st, (double)m * f));
        fprintf(st->out, " n*f=%s", cli_format_number(st, (double)p * f));
        fprintf(st->out, " (m-n)*f=%s", cli_format_number(st, d));
        fprintf(st->out, " q.k=%s", cli_format_number(st, same));
        fprintf(st->out, " qxk=%s", cli_format_number(st, cross));
        fprintf(st->out, " contribution=%s\n", cli_format_number(st, c));
    }
    if (D % 2) {
        double c = q[D - 1] * k[D - 1];
        sum += c;
        fprintf(st->out, "element %zu has no partner (odd D): unturned, q*k=%s\n", D - 1,
                cli_format_number(st, c));
    }
    fprintf(st->out, "sum: the same for every m, n with m - n = %lld (DOT %lld %lld gives it too)\n",
            (long long)(m - p), (long long)(m >= p ? m - p : 0), (long long)(m >= p ? 0 : p - m));
    fputs("result: ", st->out);
    cli_print_numbers(st, &sum, 1);
    return 1;
}

/* EXPLAIN ALIBI H i j: each head's slope and penalty -m_h |i - j|. */
static int explain_alibi(cli_state *st, const cli_token *a, size_t n)
{
    uint32_t H;
    int64_t i, j;
    if (!need_args(st, n, 3, "EXPLAIN ALIBI needs a head count H and positions i and j") ||
        !parse_dim(st, a[0], "head count", &H) || !parse_position(st, a[1], &i) ||
        !parse_position(st, a[2], &j) || !reserve(st, &st->vec, &st->vec_cap, H) ||
        !reserve(st, &st->vec2, &st->vec2_cap, H))
        return 0;
    cli_cannot_fail(posenc_alibi_slopes(H, st->vec2));
    cli_cannot_fail(posenc_alibi_penalties(H, i, j, st->vec));
    uint32_t pow2 = 1;
    while (pow2 * 2 <= H)
        pow2 *= 2;
    int64_t dist = i > j ? i - j : j - i;
    fprintf(st->out, "ALIBI H=%u i=%lld j=%lld: distance |i - j| = %lld; head h of H gets slope "
                     "m_h = 2^(-8h/H)%s; penalty -m_h |i - j| added to the score\n",
            H, (long long)i, (long long)j, (long long)dist,
            pow2 == H ? "" : " for H a power of two; here H is not: the first heads take "
                             "the slopes of the power of two below, the rest every other "
                             "slope of twice that");
    for (uint32_t h = 0; h < H; h++) {
        fprintf(st->out, "h=%u slope=%s", h + 1, cli_format_number(st, st->vec2[h]));
        fprintf(st->out, " penalty=%s\n", cli_format_number(st, st->vec[h]));
    }
    fputs("result: ", st->out);
    cli_print_numbers(st, st->vec, H);
    return 1;
}

static int cmd_rope2d(cli_state *st, const cli_token *a, size_t n)
{
    int64_t row, col;
    size_t D;
    if (n < 2) {
        cli_error(st, "ROPE2D needs a patch position row:col and at least one number, got %zu "
                      "argument%s",
                  n, plural(n));
        return 0;
    }
    if (!cli_parse_rope2d_position(st, a[0], &row, &col) ||
        !parse_one_vector(st, "ROPE2D", a + 1, n - 1, &D))
        return 0;
    return cli_rope2d(st, row, col, D);
}

/* EXPLAIN ROPE pos x...: each pair's angle, before and after (plain RoPE),
 * or each pair's axis (an M-RoPE layer, cli_mrope_explain). */
static int explain_rope(cli_state *st, const cli_token *a, size_t n)
{
    cli_layer_kind kind = cli_layer_kind_of(st);
    if (kind == CLI_LAYER_ROPE) {
        cli_error(st, "EXPLAIN ROPE traces plain RoPE: with a model RoPE active use EXPLAIN "
                      "FREQS (or SET rope off first)");
        return 0;
    }
    int mrope = kind == CLI_LAYER_MROPE;
    int64_t p[3];
    size_t D;
    if (!parse_pos_vector(st, "EXPLAIN ROPE",
                          mrope ? "a position t:h:w and a head of numbers"
                                : "a position and at least one number",
                          a, n, mrope, p, &D) ||
        !reserve(st, &st->vec2, &st->vec2_cap, D))
        return 0;
    if (mrope)
        return cli_mrope_explain(st, p, D);
    int64_t pos = p[0];
    /* vec2 keeps the input so each pair can be shown before and after. */
    memcpy(st->vec2, st->vec, D * sizeof *st->vec);
    cli_cannot_fail(posenc_rope_apply_f64(pos, (uint32_t)D, st->base, st->layout, POSENC_FORWARD,
                                      st->vec));
    int half = st->layout == POSENC_LAYOUT_HALF;
    fprintf(st->out, "ROPE pos=%lld D=%zu ", (long long)pos, D);
    print_base(st);
    fprintf(st->out, " layout=%s: pair k = elements %s; angle = pos / divisor, divisor = "
                     "base^(2k/D); (a, b) -> (a cos - b sin, a sin + b cos)\n",
            half ? "half" : "interleaved", half ? "k, k+D/2" : "2k, 2k+1");
    for (uint32_t k = 0; k < D / 2; k++) {
        posenc_pair_trace tr;
        uint32_t i0, i1;
        cli_cannot_fail(posenc_pair_explain(pos, k, (uint32_t)D, st->base, &tr));
        cli_cannot_fail(posenc_pair_index(k, (uint32_t)D, st->layout, &i0, &i1));
        fprintf(st->out, "k=%u elements %u,%u", k, i0, i1);
        print_trace(st, &tr);
        fprintf(st->out, " before=(%s,", cli_format_number(st, st->vec2[i0]));
        fprintf(st->out, " %s)", cli_format_number(st, st->vec2[i1]));
        fprintf(st->out, " after=(%s,", cli_format_number(st, st->vec[i0]));
        fprintf(st->out, " %s)\n", cli_format_number(st, st->vec[i1]));
    }
    if (D % 2)
        fprintf(st->out, "element %zu has no partner (odd D): unchanged %s\n", D - 1,
                cli_format_number(st, st->vec[D - 1]));
    fputs("result: ", st->out);
    cli_print_numbers(st, st->vec, D);
    return 1;
}

static const cli_command *command_form(const char *first, cli_token second);

static int cmd_explain(cli_state *st, const cli_token *a, size_t n)
{
    /* EXPLAIN PE, ROPE, FREQS, MODEL, T5BUCKET, LEARNED: the table's forms */
    const cli_command *c = n >= 1 ? command_form("EXPLAIN", a[0]) : NULL;
    if (c)
        return c->run(st, a + 1, n - 1);
    if (n == 0)
        cli_error(st, "EXPLAIN needs what to explain: PE pos D or ROPE pos x...");
    else
        cli_error(st, "EXPLAIN cannot explain '%.*s%s' (it explains PE, ROPE, DOT, ADD, ALIBI, FREQS, "
                      "MODEL, T5BUCKET, SINUSOID, DEBERTA, BUCKET, AXIAL, BOX, RELSIN and "
                      "LEARNED)",
                  SHOW(a[0]));
    return 0;
}

/* ---- PLOT ---------------------------------------------------------------------- */

/* The plot module reads the words and draws; the settings come from here. */
static int cmd_plot(cli_state *st, const cli_token *a, size_t n)
{
    plot_settings set = {st->base,    st->layout, st->model, st->layer, st->model_label,
                         st->seq_len, 0,          0,         NULL,
                         st->mrope_on ? &st->mrope : NULL};
    int bidir;
    posenc_layer_info li;
    char why[512], no_rope[200];
    (void)cli_t5_settings(st, &set.t5_buckets, &set.t5_max_distance, &bidir, &li);
    if (cli_layer_kind_of(st) == CLI_LAYER_NONE) { /* a --config layer without RoPE */
        cli_cannot_fail(posenc_model_layer(st->model, st->layer, &li)); /* SET layer checked */
        snprintf(no_rope, sizeof no_rope, "layer %u of %s has no RoPE (scheme %s)", st->layer,
                 posenc_model_type(st->model), posenc_scheme_name(li.scheme));
        set.no_rope = no_rope; /* rope-decay and freqs refuse; sinusoid and buckets read it */
    }
    if (plot_words_run(a, n, &set, why, sizeof why))
        return 1;
    cli_error(st, "%s", why);
    return 0;
}

static int cmd_help(cli_state *st, const cli_token *a, size_t n)
{
    (void)a;
    (void)n;
    cli_print_help(st->out);
    return 1;
}

/* LOAD takes the rest of the line (a file name may hold spaces). */
static int cmd_load_rest(cli_state *st, const cli_token *a, size_t n)
{
    (void)a;
    (void)n;
    return cmd_load(st, st->cmd_rest, st->cmd_rest_len);
}

/* ---- the command table ------------------------------------------------------ */

/* Every command: its name (a first word, or EXPLAIN / SET with the second),
 * the function that runs it (EXPLAIN's forms are found here by cmd_explain;
 * NULL: a form its first word's entry runs, as SET's), and its lines of
 * HELP, in HELP's order. docs/posenc.1 lists the same names
 * (tests/test_interpreter.c checks that they agree). */
static const cli_command COMMANDS[] = {
    {"PE", cmd_pe,
     "  PE pos D               the sinusoid PE(pos) of length D\n"},
    {"ROPE", cmd_rope,
     "  ROPE pos x0 x1 ...     x rotated by position pos (RoPE)\n"},
    {"DOT", cmd_dot,
     "  DOT m n q... k...      ROPE(m, q) . ROPE(n, k); q, k as [..] [..] or halves\n"},
    {"ADD", cmd_add,
     "  ADD pos x0 x1 ...      x + PE(pos)\n"},
    {"ALIBI", cmd_alibi,
     "  ALIBI H i j            the H ALiBi penalties -m_h |i - j|, head 1 first\n"},
    {"LOAD", cmd_load_rest,
     "  LOAD file              load a learned table (a row of numbers per position)\n"},
    {"LOAD", NULL,
     "  LOAD f.safetensors T   load tensor T of a checkpoint as the learned table\n"
     "                         (F32, F16, BF16 or F64, shape [positions, dim])\n"},
    {"LEARNED", cmd_learned,
     "  LEARNED pos            row pos of the loaded table (pos + the family's offset\n"
     "                         with a --config model: OPT, BART 2, RoBERTa pad + 1)\n"},
    {"EXPLAIN LEARNED", explain_learned,
     "  EXPLAIN LEARNED pos    the row read, the offset and where it comes from\n"},
    {"T5BUCKET", cli_t5_bucket,
     "  T5BUCKET i j           T5's relative position bucket of query i, key j\n"},
    {"EXPLAIN T5BUCKET", cli_explain_t5,
     "  EXPLAIN T5BUCKET i j   its steps: direction, exact or log branch, float32\n"},
    {"EXPLAIN SINUSOID", cli_explain_sinusoid,
     "  EXPLAIN SINUSOID pos   a --config sinusoid layer's vector at token pos: its\n"
     "                         layout, frequencies and offset (fairseq, Marian, CTRL)\n"},
    {"EXPLAIN DEBERTA", cli_explain_deberta,
     "  EXPLAIN DEBERTA i j    a --config DeBERTa layer's relative id of query i, key j\n"
     "                         (i - j, log-bucketed by position_buckets: the steps)\n"},
    {"EXPLAIN BUCKET", cli_explain_bucket,
     "  EXPLAIN BUCKET i j [n] a --config LongT5 encoder, CPM-Ant or VITS layer's id of\n"
     "                         query i, key j (n: LongT5's side buckets in n tokens)\n"},
    {"EXPLAIN AXIAL", cli_explain_axial,
     "  EXPLAIN AXIAL pos      a --config Reformer layer's axial rows of position pos\n"
     "                         (pos / w of the first axis's table, pos % w of the second's)\n"},
    {"EXPLAIN BOX", cli_explain_box,
     "  EXPLAIN BOX x0 y0 x1 y1  a --config LayoutLM layer's six box-table rows of a box\n"},
    {"EXPLAIN RELSIN", cli_explain_relsin,
     "  EXPLAIN RELSIN dist [D]\n"
     "                         Transformer-XL's relative sinusoid at distance dist (XLNet,\n"
     "                         Funnel: a --config layer's d_model, or the width D)\n"},
    {"EXPLAIN PE", explain_pe,
     "  EXPLAIN PE pos D       worked trace of PE, one line per pair\n"},
    {"EXPLAIN ROPE", explain_rope,
     "  EXPLAIN ROPE pos x...  worked trace of ROPE, one line per pair\n"},
    {"EXPLAIN DOT", explain_dot,
     "  EXPLAIN DOT m n q k    each pair's share of DOT: only m - n enters\n"},
    {"EXPLAIN ADD", explain_add,
     "  EXPLAIN ADD pos x...   worked trace of x + PE(pos), one line per pair\n"},
    {"EXPLAIN ALIBI", explain_alibi,
     "  EXPLAIN ALIBI H i j    each head's slope and penalty\n"},
    {"PLOT", cmd_plot,
     "  PLOT KIND ... FILE     draw a picture (.png, .svg, .pdf; needs Cairo):\n"
     "    PLOT pe POSITIONS D FILE, PLOT similarity POSITIONS D FILE,\n"
     "    PLOT rope-decay D MAX_OFFSET FILE, PLOT freqs D FILE,\n"
     "    PLOT alibi H POSITIONS FILE, PLOT t5-buckets POSITIONS FILE\n"
     "    (base, layout and the T5 settings from SET)\n"},
    {"EXPLAIN FREQS", cli_model_explain_freqs,
     "  EXPLAIN FREQS [len]    the model RoPE's frequencies per pair: base and scaled\n"
     "                         frequency, wavelength, band or ramp (EXPLAIN FREQS D:\n"
     "                         plain RoPE over D elements)\n"},
    {"SET base", NULL,
     "  SET base B             base of the frequencies (finite, > 1; default 10000)\n"},
    {"SET layout", NULL,
     "  SET layout L           interleaved (x[2k], x[2k+1]) or half (x[k], x[k+D/2])\n"},
    {"SET precision", NULL,
     "  SET precision N        digits after the point, 0 to 17 (default 4)\n"},
    {"SET rope", NULL,
     "  SET rope TYPE k=v ...  a model RoPE: TYPE default, linear, ntk, dynamic, yarn,\n"
     "                         llama3, longrope or proportional; keys head_dim,\n"
     "                         rotary_dim, base, factor, original, beta_fast,\n"
     "                         beta_slow, truncate, mscale, mscale_all_dim,\n"
     "                         attention_factor, low_freq_factor, high_freq_factor,\n"
     "                         short_factor, long_factor, freq_factors (lists as\n"
     "                         a:b:c), partial_rotary_factor; then ROPE\n"
     "                         and DOT take heads of head_dim; SET rope off ends it\n"},
    {"SET seq_len", NULL,
     "  SET seq_len N          the length the layer's RoPE is built for (dynamic,\n"
     "                         longrope, Qwen 1's dynamic NTK; 0: pos + 1)\n"},
    {"SET rope", NULL,
     "  SET rope mrope sections=T:H:W [interleaved=yes] [merge=M]\n"
     "                         [tokens_per_second=N] [head_dim=.. base=.. ...]\n"
     "                         multimodal RoPE (Qwen2-VL; interleaved: Qwen3-VL;\n"
     "                         alternating=yes: ERNIE 4.5 VL, h w h w .. t):\n"
     "                         T, H, W pairs follow the temporal, height, width\n"
     "                         position; then ROPE, DOT and EXPLAIN ROPE take t:h:w\n"
     "                         positions (p means p:p:p)\n"},
    {"MROPE_POSITIONS", cli_mrope_positions,
     "  MROPE_POSITIONS text N image TxHxW video TxHxW [seconds=S] ...\n"
     "                         the three position rows of a multimodal sequence\n"
     "                         (merge and tokens_per_second from SET rope mrope;\n"
     "                         merge 2 by default)\n"},
    {"ROPE2D", cmd_rope2d,
     "  ROPE2D row:col x...    vision 2D RoPE of a patch: pairs k < D/4 turn with the\n"
     "                         row, the others with the column (base, layout: SET)\n"},
    {"SET t5", NULL,
     "  SET t5 buckets=N max_distance=N bidirectional=yes|no\n"
     "                         T5BUCKET's settings (default 32, 128, yes; a T5\n"
     "                         --config gives its own, which SET t5 overrides)\n"},
    {"SET layer", NULL,
     "  SET layer N            the layer of a --config model that ROPE, DOT, EXPLAIN\n"
     "                         FREQS, PLOT, LEARNED and T5BUCKET use (default 0)\n"},
    {"EXPLAIN MODEL", cli_explain_model,
     "  EXPLAIN MODEL          a --config model's position scheme, layer by layer\n"},
    {"HELP", cmd_help,
     "  HELP                   this summary\n"},
    {"EXPLAIN", cmd_explain, NULL}, /* EXPLAIN PE, ROPE, FREQS, ... above */
    {"SET", cmd_set, NULL},         /* SET base, layout, ... above */
};

/* The entry "FIRST SECOND" with a run (EXPLAIN's forms), or NULL. */
static const cli_command *command_form(const char *first, cli_token second)
{
    size_t fl = strlen(first);
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++) {
        const char *nm = COMMANDS[i].name;
        if (COMMANDS[i].run && strncmp(nm, first, fl) == 0 && nm[fl] == ' ' &&
            cli_word_is(second, nm + fl + 1))
            return &COMMANDS[i];
    }
    return NULL;
}

const cli_command *cli_commands(size_t *n)
{
    *n = sizeof COMMANDS / sizeof COMMANDS[0];
    return COMMANDS;
}

void cli_print_help(FILE *out)
{
    fputs("Commands (one per line; names in any case; numbers separated by spaces,\n"
          "tabs or commas; a vector may be wrapped in [ ]; # starts a comment):\n",
          out);
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (COMMANDS[i].help)
            fputs(COMMANDS[i].help, out);
    fputs("Definitions: pair k = i // 2, angle = pos / base^(2k/D), D = vector length;\n"
          "PE[2k] = sin(angle), PE[2k+1] = cos(angle); a pair (a, b) rotates to\n"
          "(a cos - b sin, a sin + b cos). Positions are integers 0 to 2147483647.\n",
          out);
}

/* ---- dispatch ----------------------------------------------------------------- */

/* --comments: a comment line (its first word starts with '#') or a blank
 * line printed as it is, so that each result shows under what says what it
 * is. */
static void show_comment(cli_state *st, const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    while (len > i && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
        len--;
    if (i == len || line[i] == '#') {
        fwrite(line, 1, len, st->out);
        fputc('\n', st->out);
    }
}

int cli_run_line(cli_state *st, const char *line, size_t len)
{
    if (st->show_comments && !memchr(line, '\0', len))
        show_comment(st, line, len);
    long n = tokenize(st, line, len);
    if (n < 0)
        return 1;
    if (n == 0)
        return 0; /* blank or comment */
    const cli_token *t = st->tok;
    st->cmd_rest = t[0].s + t[0].len;
    st->cmd_rest_len = len - (size_t)(t[0].s + t[0].len - line);
    const cli_command *c = NULL;
    for (size_t i = 0; !c && i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (COMMANDS[i].run && cli_word_is(t[0], COMMANDS[i].name))
            c = &COMMANDS[i];
    int ok = 0;
    if (c)
        ok = c->run(st, t + 1, (size_t)n - 1);
    else
        cli_error(st, "unknown command '%.*s%s' (HELP lists the commands)", SHOW(t[0]));
    if (st->flush_each)
        fflush(st->out);
    return !ok;
}

void cli_init(cli_state *st, FILE *out, FILE *err)
{
    memset(st, 0, sizeof *st);
    st->base = POSENC_DEFAULT_BASE;
    st->layout = POSENC_LAYOUT_INTERLEAVED;
    st->precision = 4;
    st->t5_buckets = 32;
    st->t5_max_distance = 128;
    st->t5_bidirectional = 1;
    st->out = out;
    st->err = err;
}

void cli_free(cli_state *st)
{
    posenc_learned_free(st->table);
    cli_rope_free(st);
    cli_model_free(st);
    cli_gguf_free(st);
    free(st->tok);
    free(st->vec);
    free(st->vec2);
    memset(st, 0, sizeof *st);
}
