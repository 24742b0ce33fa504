/* grade_main.c - `posenc grade [options] -- PROGRAM [ARGS...]`: the command
 * line and the report of the grader (grade.h). It asks grade_cases.c for the
 * commands, grade_run.c to run the program, grade_math.c for the numbers and
 * the mistakes, and is the only part that prints. */
#include "grade.h"
#include "message.h"
#include "options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SEED 1
#define DEFAULT_SHOW GRADE_MAX_CASES /* every failed case */
#define DEFAULT_TIMEOUT 10
#define MAX_OUT (8u << 20)  /* bytes the program may print */
#define MAX_SHOWN 200u      /* bytes of a command or an answer in a CASE line */
#define ERR_LINES 20        /* lines of its standard error shown */

static void usage(FILE *f)
{
    fputs("usage: posenc grade [--seed N] [--cases FILE] [--show K] [--timeout S] -- PROGRAM "
          "[ARGS...]\n"
          "Grades a solution of the lesson's exercise (docs/EXERCISE.md): runs PROGRAM with\n"
          "PE, ROPE, DOT and ADD commands on its standard input, one per line (the lesson's\n"
          "worked examples, then generated cases), reads one line of numbers per command,\n"
          "compares them with posenc's at 4 decimals, and prints\n"
          "  GRADE verdict=pass|fail|incomplete cases=N failed=M [missing=F,...]\n"
          "  CASE cmd=\"...\" got=\"...\" want=\"...\"      (each failed case; --show K)\n"
          "  MISTAKE name=NAME explains=X/M ...          (the mistakes that explain them)\n"
          "Commands under other bases (SET base B) run in a run of their own. A command\n"
          "the program answers on standard error with 'line N: F() is not written yet'\n"
          "is not graded, and F is listed as missing. PROGRAM runs contained: a session\n"
          "of its own, a private working directory, limits on CPU time, memory,\n"
          "processes and file size, and every process it started killed at the end.\n"
          "\n"
          "Options:\n"
          "  --seed N      seed of the generated cases (default 1)\n"
          "  --cases FILE  grade on the commands of FILE instead (one per line)\n"
          "  --show K      show at most K failed cases, the shortest (default: all)\n"
          "  --timeout S   seconds PROGRAM may take (1 to 3600, default 10)\n"
          "  -h, --help    show this help\n"
          "\n"
          "Mistakes: element-index, exponent-k-over-d, rotation-sign, sin-cos-swapped,\n"
          "odd-d, layout, position-offset, model-dim, base, integer-exponent, pair-shift,\n"
          "multiply-not-divide, coordinate-sign, used-after-overwrite, odd-d-exponent,\n"
          "base-ignored, single-precision.\n"
          "Exit status: 0 pass, 1 fail or incomplete, 2 bad options, or a PROGRAM that\n"
          "cannot be run, dies, hangs, or prints another number of lines than it was\n"
          "sent commands.\n",
          f);
}

/* An unsigned integer of digits only, at most max. */
static int read_count(const char *s, uint64_t max, uint64_t *v)
{
    if (!*s || strlen(s) > 20)
        return 0;
    uint64_t x = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
            return 0;
        x = x * 10 + (uint64_t)(*s - '0');
    }
    *v = x;
    return x <= max;
}

/* Reads a whole --cases file (at most GRADE_MAX_CASE_FILE bytes). */
static char *read_file(const char *path, size_t *len, char *why, size_t why_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, why_len, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    /* one read into room for one byte more than the limit (pages untouched
     * stay unmapped) */
    char *s = malloc(GRADE_MAX_CASE_FILE + 1);
    size_t n = s ? fread(s, 1, GRADE_MAX_CASE_FILE + 1, f) : 0;
    const char *bad = !s                        ? "out of memory"
                      : ferror(f)               ? "cannot be read"
                      : n > GRADE_MAX_CASE_FILE ? "longer than 16777216 bytes"
                                                : NULL;
    fclose(f);
    if (bad) {
        snprintf(why, why_len, "'%s' %s", path, bad);
        free(s);
        return NULL;
    }
    *len = n;
    return s;
}

/* s[0..n) in a quoted key=value: '"' and '\' escaped, other bytes a terminal
 * would act on as \xNN, cut at MAX_SHOWN bytes with "...". */
static void put_quoted(FILE *f, const char *key, const char *s, size_t n)
{
    fprintf(f, " %s=\"", key);
    for (size_t i = 0; i < n && i < MAX_SHOWN; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch >= 0x20 && ch < 0x7f)
            fputc(ch, f);
        else
            fprintf(f, "\\x%02x", ch);
    }
    fputs(n > MAX_SHOWN ? "...\"" : "\"", f);
}

/* The last ERR_LINES lines of the program's standard error, indented. */
static void show_stderr(FILE *err, const grade_run_result *r)
{
    if (r->err_len == 0)
        return;
    size_t start = r->err_len, lines = 0;
    if (r->err[start - 1] == '\n')
        start--;
    while (start > 0 && lines < ERR_LINES)
        if (r->err[--start] == '\n')
            lines++;
    if (r->err[start] == '\n')
        start++;
    fputs("posenc grade: its standard error:\n", err);
    for (size_t i = start; i < r->err_len;) {
        const char *nl = memchr(r->err + i, '\n', r->err_len - i);
        size_t end = nl ? (size_t)(nl - r->err) : r->err_len;
        fputs("  ", err);
        cli_write_escaped(err, r->err + i, end - i);
        fputc('\n', err);
        i = end + 1;
    }
}

/* How many lines out holds (a last line without its newline counts). */
static size_t count_lines(const char *s, size_t n)
{
    size_t lines = 0;
    for (size_t i = 0; i < n; i++)
        lines += s[i] == '\n';
    return lines + (n > 0 && s[n - 1] != '\n');
}

typedef struct {
    size_t len, idx;
} shown_case;

static int by_length(const void *a, const void *b)
{
    const shown_case *x = a, *y = b;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The CASE lines: the show failed cases of the shortest commands (the
 * lesson's own first), in the order they were sent; pick and want are
 * scratch (c->n + 1 entries, the longest answer). */
static void show_cases(const grade_cases *c, const grade_lines *L, const unsigned char *failed,
                       shown_case *pick, uint64_t show, double *want, FILE *out)
{
    size_t n_pick = 0;
    for (size_t i = 0; i < c->n; i++)
        if (failed[i])
            pick[n_pick++] = (shown_case){strlen(c->v[i].text), i};
    qsort(pick, n_pick, sizeof *pick, by_length);
    if (n_pick > show)
        n_pick = (size_t)show;
    for (size_t i = 0; i < n_pick; i++)
        pick[i].len = 0; /* now by index alone */
    qsort(pick, n_pick, sizeof *pick, by_length);
    for (size_t s = 0; s < n_pick; s++) {
        size_t i = pick[s].idx;
        fputs("CASE", out);
        char cmd[MAX_SHOWN + 64];
        if (c->v[i].base > 0) /* the base it ran under, as sent */
            snprintf(cmd, sizeof cmd, "SET base %.17g; %s", c->v[i].base, c->v[i].text);
        else
            snprintf(cmd, sizeof cmd, "%s", c->v[i].text);
        put_quoted(out, "cmd", cmd, strlen(cmd));
        put_quoted(out, "got", L->at[i] ? L->at[i] : "", L->at[i] ? L->len[i] : 0);
        /* (the parser's cases are always answered; a number is under 40
         * characters, |x| <= 1e6 and D <= 4096) */
        size_t n = grade_answer(&c->v[i], want) ? grade_answer_len(&c->v[i]) : 0, len = 0;
        char w[MAX_SHOWN + 64], num[64];
        for (size_t j = 0; j < n && len <= MAX_SHOWN; j++) {
            grade_format(want[j], num, sizeof num);
            len += (size_t)snprintf(w + len, sizeof w - len, "%s%s", j ? " " : "", num);
        }
        put_quoted(out, "want", w, len);
        fputc('\n', out);
    }
}

/* text indented by two spaces, line by line. */
static void put_indented(FILE *out, const char *text)
{
    while (*text) {
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        fprintf(out, "  %.*s\n", (int)n, text);
        text += n + (nl != NULL);
    }
}

static const char *const KIND_NAMES[] = {"PE", "ROPE", "DOT", "ADD"};

/* The commands of the bit set kinds, as "PE and ADD". */
static void kinds_words(unsigned kinds, char *buf, size_t len)
{
    size_t n = 0, have = 0, count = 0;
    for (unsigned k = 0; k < 4; k++)
        count += (kinds >> k) & 1u;
    buf[0] = '\0';
    for (unsigned k = 0; k < 4; k++)
        if ((kinds >> k) & 1u) {
            have++;
            n += (size_t)snprintf(buf + n, len - n, "%s%s",
                                  have == 1 ? "" : have == count ? " and " : ", ", KIND_NAMES[k]);
            if (n >= len)
                return;
        }
}

/* The line of the lesson's formula the differing elements point at. */
static const char *formula_line(const posenc_lesson_where *w, unsigned fns)
{
    unsigned e = w->where & (POSENC_LESSON_AT_EVEN | POSENC_LESSON_AT_ODD);
    unsigned lone = w->where & POSENC_LESSON_AT_LONE;
    if (w->base_only)
        return "theta = pos / base^(2k/D): the base passed in";
    if (w->where == POSENC_LESSON_AT_LONE)
        return fns == 2 ? "of the lone last element of an odd D: it stays as it is"
                        : "of the lone last element of an odd D: PE[D-1] = sin(theta(pos, (D-1)/2))";
    if (!lone && (w->where & POSENC_LESSON_AT_LATER) && !(w->where & POSENC_LESSON_AT_FIRST) &&
        e == (POSENC_LESSON_AT_EVEN | POSENC_LESSON_AT_ODD))
        return "theta = pos / base^(2k/D), the exponent: pair 0 (exponent 0) is right, the "
               "later pairs are not";
    if (fns == 1 && e == POSENC_LESSON_AT_EVEN)
        return "PE[2k] = sin(theta)";
    if (fns == 1 && e == POSENC_LESSON_AT_ODD)
        return "PE[2k+1] = cos(theta)";
    if (fns == 2 && e == POSENC_LESSON_AT_EVEN)
        return "x[2k] = a cos(theta) - b sin(theta)";
    if (fns == 2 && e == POSENC_LESSON_AT_ODD)
        return "x[2k+1] = a sin(theta) + b cos(theta)";
    if (fns == 2)
        return "of the rotation: theta = pos / base^(2k/D), then (a, b) -> (a cos - b sin, "
               "a sin + b cos) with a and b taken before either is written";
    if (fns == 1)
        return "of the sinusoid: theta = pos / base^(2k/D), PE[2k] = sin, PE[2k+1] = cos";
    return "theta = pos / base^(2k/D), which both functions use";
}

/* Where the failed numbers differ, in plain words, when no slip explains
 * them: the command, the elements, the positions, the relation, and the
 * line of the formula to look at. */
static void print_where_in(const grade_cases *c, const unsigned char *skip, const grade_got *got,
                           const unsigned char *failed, unsigned kinds_passed, FILE *out)
{
    posenc_lesson_where w;
    posenc_lesson_localize(c->v, c->n, got, skip, failed, &w);
    char k[64], p[64];
    kinds_words(w.kinds, k, sizeof k);
    unsigned fns = ((w.kinds & (1u << GRADE_PE | 1u << GRADE_ADD)) ? 1u : 0u) |
                   ((w.kinds & (1u << GRADE_ROPE | 1u << GRADE_DOT)) ? 2u : 0u);
    fprintf(out, "  What your numbers show: the failed cases are %s, %s", k,
            fns == 3 ? "both functions" : fns == 1 ? "your sinusoid()" : "your rotate()");
    if (kinds_passed) {
        kinds_words(kinds_passed, p, sizeof p);
        fprintf(out, "; every %s is right", p);
    }
    fputs(".\n", out);
    if (w.base_only)
        fputs("  Only the cases after `SET base B` fail: use the base argument in theta = "
              "pos / base^(2k/D).\n", out);
    if (w.odd_only)
        fputs("  Only odd D fails: look at the lone last element and at D in the exponent.\n",
              out);
    if (w.max_passed_pos >= 0 && w.min_failed_pos > w.max_passed_pos && w.min_failed_pos >= 100)
        fprintf(out, "  Only positions of %lld and more fail: the angle is large there; "
                     "compute it in double.\n", (long long)w.min_failed_pos);
    if (w.count_wrong)
        fputs("  Some lines have another count of numbers than the command's D.\n", out);
    if (w.where) {
        fputs("  The wrong numbers are at", out);
        if (w.where & POSENC_LESSON_AT_LONE && !(w.where & ~(unsigned)POSENC_LESSON_AT_LONE))
            fputs(" the lone last element of an odd D only", out);
        else {
            unsigned e = w.where & (POSENC_LESSON_AT_EVEN | POSENC_LESSON_AT_ODD);
            fputs(e == POSENC_LESSON_AT_EVEN ? " even elements x[2k] only"
                  : e == POSENC_LESSON_AT_ODD ? " odd elements x[2k+1] only"
                                              : " even and odd elements",
                  out);
            unsigned pr = w.where & (POSENC_LESSON_AT_FIRST | POSENC_LESSON_AT_LATER);
            fputs(pr == POSENC_LESSON_AT_LATER ? ", in pairs 1 and later only (pair 0 is right)"
                  : pr == POSENC_LESSON_AT_FIRST ? ", in pair 0 only" : ", in every pair",
                  out);
        }
        fputs(".\n", out);
    }
    if (w.relation & POSENC_LESSON_REL_SIGN)
        fputs("  Each wrong number is the right one with the sign flipped.\n", out);
    else if (w.relation & POSENC_LESSON_REL_SWAP)
        fputs("  The wrong numbers are their pair partners' right ones: the two elements of a "
              "pair are swapped.\n", out);
    else if (w.relation & POSENC_LESSON_REL_SCALE)
        fprintf(out, "  Each wrong number is the right one times %.4g.\n", w.scale);
    else if (w.relation & POSENC_LESSON_REL_ROUND)
        fputs("  The wrong numbers are off by rounding only: compute theta, pow, sin and cos "
              "in double.\n", out);
    fprintf(out, "  Look at the line %s.\n", formula_line(&w, fns));
}

/* print_where_in for the cases of the functions fns (GRADE_SINUSOID,
 * GRADE_ROTATION) only, one function at a time. 0 when out of memory. */
static int print_where(const grade_cases *c, const grade_lines *L, const grade_got *got,
                       const unsigned char *failed, unsigned fns, FILE *out)
{
    unsigned char *skip = malloc(c->n + 1);
    if (!skip)
        return 0;
    unsigned ran = 0, bad = 0; /* the commands graded, those with a failed case */
    for (size_t i = 0; i < c->n; i++) {
        ran |= L->skip[i] ? 0u : 1u << c->v[i].kind;
        bad |= !L->skip[i] && failed[i] ? 1u << c->v[i].kind : 0u;
    }
    for (unsigned fn = GRADE_SINUSOID; fn <= GRADE_ROTATION; fn <<= 1) {
        if (!(fns & fn))
            continue;
        size_t left = 0;
        for (size_t i = 0; i < c->n; i++) {
            int rot = c->v[i].kind == GRADE_ROPE || c->v[i].kind == GRADE_DOT;
            skip[i] = L->skip[i] || (rot ? GRADE_ROTATION : GRADE_SINUSOID) != fn;
            left += !skip[i] && failed[i];
        }
        if (left)
            print_where_in(c, skip, got, failed, ran & ~bad, out);
    }
    free(skip);
    return 1;
}

/* The MISTAKE lines for the n_failed failed cases: the slips that
 * explain them, or where the numbers differ. 0 when out of memory. */
static int print_mistakes(const grade_cases *c, const grade_lines *L, const grade_got *got,
                          const unsigned char *failed, size_t n_failed, FILE *out)
{
    grade_explanation e;
    int oom = posenc_lesson_explain(c->v, c->n, got, L->skip, failed, 0, &e) == 0 && e.oom;
    if (!oom && e.n == 0) {
        fprintf(out, "MISTAKE name=none explains=0/%zu\n", n_failed);
        if (e.partial)
            fputs("  The search for the mistake stopped before trying every combination: the "
                  "cases are too large; grade with smaller ones (D up to 64) to have it "
                  "named.\n",
                  out);
        else
            fputs("  No mistake of the lesson's list, alone or with others, gives these "
                  "numbers.\n", out);
        oom = !print_where(c, L, got, failed, e.unexplained ? e.unexplained : 3u, out);
    }
    for (size_t f = 0; f < e.n; f++) {
        const grade_fit *x = &e.fit[f];
        fprintf(out, "MISTAKE name=%s explains=%zu/%zu", grade_mistake_name(x->m),
                x->explains, n_failed);
        if (x->what[0])
            fprintf(out, " %s", x->what);
        fprintf(out, " in=%s\n",
                x->in == (GRADE_SINUSOID | GRADE_ROTATION) ? "sinusoid,rotation"
                : x->in == GRADE_SINUSOID                  ? "sinusoid"
                                                           : "rotation");
        put_indented(out, grade_mistake_sentence(x->m));
    }
    if (!oom && e.n > 0 && e.unexplained) { /* one function named, the other not */
        fprintf(out, "MISTAKE name=none explains=0/%zu in=%s\n", n_failed,
                e.unexplained == GRADE_SINUSOID ? "sinusoid" : "rotation");
        fputs("  No mistake of the lesson's list gives the numbers of this function.\n", out);
        oom = !print_where(c, L, got, failed, e.unexplained, out);
    }
    return !oom;
}

/* The numbers kept of each answered line: up to one more than the answer
 * has, in vals (NULL when out of memory). */
static double *read_lines(const grade_cases *c, const grade_lines *L, grade_got *got)
{
    size_t kept = 1;
    for (size_t i = 0; i < c->n; i++) {
        long k = L->at[i] ? grade_read_line(L->at[i], L->len[i], NULL, 0) : 0;
        size_t n = grade_answer_len(&c->v[i]) + 1;
        kept += k < 0 ? 0 : (size_t)k < n ? (size_t)k : n;
    }
    double *vals = malloc(kept * sizeof *vals);
    kept = 0;
    for (size_t i = 0; vals && i < c->n; i++) {
        size_t n = grade_answer_len(&c->v[i]);
        got[i].v = vals + kept;
        got[i].n = L->at[i] ? grade_read_line(L->at[i], L->len[i], got[i].v, n + 1) : 0;
        kept += got[i].n < 0 ? 0 : (size_t)got[i].n < n + 1 ? (size_t)got[i].n : n + 1;
    }
    return vals;
}

/* Compares each answered line with posenc's answer and prints the report.
 * Returns 0 (pass), 1 (fail or incomplete) or -1 (out of memory). */
static int grade(const grade_cases *c, const grade_lines *L, uint64_t show, FILE *out)
{
    size_t max_d = 1;
    for (size_t i = 0; i < c->n; i++)
        if (c->v[i].D > max_d)
            max_d = c->v[i].D;
    double *want = malloc((max_d + 2) * sizeof *want), *vals = NULL;
    grade_got *got = malloc((c->n + 1) * sizeof *got);
    unsigned char *failed = malloc(c->n + 1);
    shown_case *pick = malloc((c->n + 1) * sizeof *pick);
    if (got)
        vals = read_lines(c, L, got);
    if (!want || !vals || !got || !failed || !pick) {
        free(want), free(vals), free(got), free(failed), free(pick);
        return -1;
    }
    size_t n_failed = 0, graded = 0;
    for (size_t i = 0; i < c->n; i++) {
        size_t n = grade_answer_len(&c->v[i]);
        int ok = L->skip[i] || (grade_answer(&c->v[i], want) && got[i].n == (long)n);
        for (size_t j = 0; ok && !L->skip[i] && j < n; j++)
            ok = grade_close(got[i].v[j], want[j]);
        failed[i] = !ok;
        n_failed += !ok;
        graded += !L->skip[i];
    }
    fprintf(out, "GRADE verdict=%s cases=%zu failed=%zu",
            n_failed ? "fail" : L->missing[0] ? "incomplete" : "pass", graded, n_failed);
    if (L->missing[0])
        fprintf(out, " missing=%s", L->missing);
    fputc('\n', out);
    if (L->missing[0])
        fprintf(out, "NOTE the program says %s %s not written yet: the commands that need %s "
                     "were not graded\n",
                L->missing, strchr(L->missing, ',') ? "are" : "is",
                strchr(L->missing, ',') ? "them" : "it");
    if (L->base_refused == 1)
        fputs("NOTE the cases with other bases were skipped: the program does not accept "
              "`SET base B` (it says so on its standard error); pe.c of the starter reads it\n",
              out);
    else if (L->base_refused == 2)
        fprintf(out, "NOTE the cases with other bases (after `SET base B`) were skipped: in "
                     "their run of their own, %s\n", L->base_why);
    show_cases(c, L, failed, pick, show, want, out);
    if (n_failed && !print_mistakes(c, L, got, failed, n_failed, out))
        n_failed = (size_t)-1; /* out of memory */
    free(want), free(vals), free(got), free(failed), free(pick);
    return n_failed == (size_t)-1 ? -1 : n_failed || L->missing[0] ? 1 : 0;
}

enum { O_HELP, O_SEED, O_CASES, O_SHOW, O_TIMEOUT };
static const cli_option GRADE_OPTIONS[] = {
    {"--help", "-h", 0, NULL}, {"--seed", NULL, 1, NULL},    {"--cases", NULL, 1, NULL},
    {"--show", NULL, 1, NULL}, {"--timeout", NULL, 1, NULL},
};

/* What the command line asks for. */
typedef struct grade_options {
    uint64_t seed, show, timeout;
    const char *cases_file; /* --cases FILE, or NULL */
    int prog;               /* argv index of PROGRAM */
} grade_options;

/* Reads the options into o. Returns -1 to go on, else the exit status
 * (help: 0; a bad option: 2, with its message on err). */
static int read_options(int argc, char **argv, grade_options *o, FILE *out, FILE *err)
{
    char why[256];
    cli_args args;
    cli_args_start(&args, argc, argv, 1, GRADE_OPTIONS,
                   sizeof GRADE_OPTIONS / sizeof GRADE_OPTIONS[0]);
    for (int r; !o->prog && (r = cli_args_next(&args)) != CLI_ARG_END;) {
        const char *v = args.value;
        switch (r) {
        case O_HELP: usage(out); return 0;
        case O_SEED:
            if (!read_count(v, UINT64_MAX, &o->seed))
                return cli_fail(err, "grade", 1, "--seed: '%s' is not a number from 0 to %llu", v,
                                (unsigned long long)UINT64_MAX);
            break;
        case O_CASES: o->cases_file = v; break;
        case O_SHOW:
            if (!read_count(v, GRADE_MAX_CASES, &o->show))
                return cli_fail(err, "grade", 1, "--show: '%s' is not a count from 0 to %u", v,
                                GRADE_MAX_CASES);
            break;
        case O_TIMEOUT:
            if (!read_count(v, 3600, &o->timeout) || o->timeout == 0)
                return cli_fail(err, "grade", 1,
                                "--timeout: '%s' is not a number of seconds from 1 to 3600", v);
            break;
        case CLI_ARG_DASHDASH: o->prog = args.i; break; /* PROGRAM follows "--" */
        case CLI_ARG_OPERAND:
            if (args.word[0] != '-') { /* PROGRAM itself; "-" is no program */
                o->prog = args.i - 1;
                break;
            }
            /* fall through */
        default:
            cli_args_why(&args, r == CLI_ARG_NO_VALUE ? r : CLI_ARG_UNKNOWN, why, sizeof why);
            return cli_fail(err, "grade", 1, "%s", why);
        }
    }
    if (!o->prog || o->prog >= argc)
        return cli_fail(err, "grade", 1,
                        "needs the program to grade: posenc grade [options] -- PROGRAM [ARGS...]");
    return -1;
}

/* The cases: those of --cases FILE, or the lesson's and the seed's. 0 after
 * a message on err. */
static int load_cases(const grade_options *o, grade_cases *c, FILE *err)
{
    char why[512];
    if (!o->cases_file) {
        if (grade_cases_default(o->seed, c))
            return 1;
        fputs("posenc grade: out of memory\n", err);
        return 0;
    }
    size_t len = 0;
    char *text = read_file(o->cases_file, &len, why, sizeof why);
    int ok = text && grade_cases_parse(text, len, c, why, sizeof why);
    if (ok && c->n == 0) {
        ok = 0;
        snprintf(why, sizeof why, "no commands (PE, ROPE, DOT or ADD, one per line)");
    }
    if (!ok)
        cli_message(err, "posenc grade: --cases: %s%s%s", text ? o->cases_file : "",
                    text ? ": " : "", why);
    free(text);
    return ok;
}

/* Says on err why the run of name cannot be graded (it did not start, hung,
 * printed too much, died, failed, or printed another number of lines than
 * n_cmd commands). Returns 1 then, 0 when it can be graded. */
static int run_failed(const grade_run_result *r, const char *name, uint64_t timeout,
                      size_t n_cmd, FILE *err)
{
    size_t lines = count_lines(r->out, r->out_len);
    if (r->oom) {
        fputs("posenc grade: out of memory\n", err);
    } else if (!r->started) {
        cli_message(err, "posenc grade: cannot run '%s': %s", name, strerror(r->exec_errno));
    } else if (r->timed_out) {
        cli_message(err,
                    "posenc grade: '%s' did not finish within %llu s (%zu lines for %zu "
                    "commands): it must read its standard input to the end, print one line "
                    "per command and exit",
                    name, (unsigned long long)timeout, lines, n_cmd);
    } else if (r->too_much) {
        cli_message(err, "posenc grade: '%s' printed more than %u bytes for %zu commands; stopped",
                    name, MAX_OUT, n_cmd);
    } else if (!r->exited) {
        cli_message(err, "posenc grade: '%s' was killed by signal %d (%s) after %zu lines for %zu "
                         "commands",
                    name, r->signo, strsignal(r->signo), lines, n_cmd);
    } else if (r->status != 0) {
        cli_message(err, "posenc grade: '%s' exited with status %d after %zu lines for %zu commands",
                    name, r->status, lines, n_cmd);
    } else if (lines != n_cmd) {
        cli_message(err,
                    "posenc grade: '%s' printed %zu lines for %zu commands: print one line of "
                    "numbers per command on standard output (anything else on standard error)",
                    name, lines, n_cmd);
    } else {
        return 0;
    }
    return 1;
}

/* Whether the run of other bases failed (run_failed's reasons); then
 * L->base_why holds why, for the NOTE: the cases of other bases are
 * skipped rather than the whole grading failing (a program that stops at a
 * SET line it does not know). */
static int base_run_failed(const grade_run_result *r, const char *name, const grade_options *o,
                           size_t owed, grade_lines *L)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return 0;
    int failed = run_failed(r, name, o->timeout, owed, f);
    fclose(f);
    if (failed && text) {
        const char *why = strncmp(text, "posenc grade: ", 14) == 0 ? text + 14 : text;
        snprintf(L->base_why, sizeof L->base_why, "%.*s", (int)strcspn(why, "\n"), why);
        L->base_refused = 2;
    }
    free(text);
    return failed;
}

/* One run: the cases of the lesson's base, or (other_bases) those of other
 * bases. Fills L for its cases. Returns 0 when it was graded (or had no
 * cases, or refused SET base), 2 when it cannot be, -1 out of memory. */
static int one_run(const grade_options *o, char **argv, const grade_cases *c, int other_bases,
                   grade_run_result *r, grade_lines *L, FILE *err)
{
    size_t in_len, *line_case = NULL, n_lines = 0;
    char *in = grade_run_text(c, other_bases, &in_len, &line_case, &n_lines);
    const char *name = argv[o->prog];
    memset(r, 0, sizeof *r);
    if (!in)
        return -1;
    if (n_lines == 0) {
        free(in);
        free(line_case);
        return 0;
    }
    int status = 0;
    if (!grade_run(argv + o->prog, in, in_len, (int)o->timeout * 1000, MAX_OUT, r)) {
        cli_message(err, "posenc grade: cannot run '%s': %s", name, strerror(errno));
        status = 2;
    } else {
        int set_refused = 0;
        size_t owed = r->started ? grade_lines_read_err(r, line_case, n_lines, L, &set_refused)
                                 : 0;
        if (other_bases && set_refused && r->started) { /* all its cases skipped */
            for (size_t j = 0; j < n_lines; j++)
                if (line_case[j] != SIZE_MAX)
                    L->skip[line_case[j]] = 1;
            L->base_refused = 1;
        } else if (other_bases && r->started && !r->oom && base_run_failed(r, name, o, owed, L)) {
            for (size_t j = 0; j < n_lines; j++) /* skipped, and the NOTE says why */
                if (line_case[j] != SIZE_MAX)
                    L->skip[line_case[j]] = 1;
        } else if (run_failed(r, name, o->timeout, owed, err)) {
            status = 2;
            if (r->started && !r->oom)
                show_stderr(err, r);
        } else {
            grade_lines_take_out(r, line_case, n_lines, L);
        }
    }
    free(in);
    free(line_case);
    return status;
}

int cli_grade_main(int argc, char **argv, FILE *out, FILE *err)
{
    grade_options o = {DEFAULT_SEED, DEFAULT_SHOW, DEFAULT_TIMEOUT, NULL, 0};
    int status = read_options(argc, argv, &o, out, err);
    if (status >= 0)
        return status;
    grade_cases c = {0};
    if (!load_cases(&o, &c, err)) {
        grade_cases_free(&c);
        return 2;
    }
    grade_lines L;
    memset(&L, 0, sizeof L);
    L.at = calloc(c.n + 1, sizeof *L.at);
    L.len = calloc(c.n + 1, sizeof *L.len);
    L.skip = calloc(c.n + 1, 1);
    grade_run_result r[2];
    memset(r, 0, sizeof r);
    status = L.at && L.len && L.skip ? 0 : -1;
    /* the lesson's base first; other bases in a run of their own */
    for (int run = 0; run < 2 && status == 0; run++)
        status = one_run(&o, argv, &c, run, &r[run], &L, err);
    if (status == 0)
        status = grade(&c, &L, o.show, out);
    if (status < 0) {
        fputs("posenc grade: out of memory\n", err);
        status = 2;
    }
    grade_run_free(&r[0]);
    grade_run_free(&r[1]);
    free(L.at), free(L.len), free(L.skip);
    grade_cases_free(&c);
    return status;
}
