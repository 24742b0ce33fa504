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
#define DEFAULT_SHOW 5
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
          "  GRADE verdict=pass|fail cases=N failed=M\n"
          "  CASE cmd=\"...\" got=\"...\" want=\"...\"      (K failed cases, shortest first)\n"
          "  MISTAKE name=NAME explains=X/M ...          (the mistakes that explain them)\n"
          "\n"
          "Options:\n"
          "  --seed N      seed of the generated cases (default 1)\n"
          "  --cases FILE  grade on the commands of FILE instead (one per line)\n"
          "  --show K      show at most K failed cases (default 5)\n"
          "  --timeout S   seconds PROGRAM may take (1 to 3600, default 10)\n"
          "  -h, --help    show this help\n"
          "\n"
          "Mistakes: element-index, exponent-k-over-d, rotation-sign, sin-cos-swapped,\n"
          "odd-d, layout, position-offset, model-dim, base.\n"
          "Exit status: 0 pass, 1 fail, 2 bad options, or a PROGRAM that cannot be run,\n"
          "dies, hangs, or prints another number of lines than it was sent commands.\n",
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
static void show_cases(const grade_cases *c, const grade_run_result *r,
                       const unsigned char *failed, const size_t *line_at, const size_t *line_len,
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
        put_quoted(out, "cmd", c->v[i].text, strlen(c->v[i].text));
        put_quoted(out, "got", r->out + line_at[i], line_len[i]);
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

/* The MISTAKE lines for the n_failed failed cases: the mistakes that
 * explain them, or why none is named. 0 when out of memory. */
static int print_mistakes(const grade_cases *c, const grade_got *got, const unsigned char *failed,
                          size_t n_failed, FILE *out)
{
    grade_explanation e;
    int oom = grade_explain(c, got, failed, 0, &e) == 0 && e.oom;
    if (!oom && e.n == 0) {
        fprintf(out, "MISTAKE name=none explains=0/%zu\n", n_failed);
        fputs(e.partial ? "  The search for the mistake stopped before trying every "
                          "combination: the cases are too large; grade with smaller ones "
                          "(D up to 64) to have it named.\n"
                        : "  No mistake of the lesson's list, alone or with others, gives "
                          "these numbers: compare the CASE lines with the formulas theta = "
                          "pos / 10000^(2k/D), PE[2k] = sin, PE[2k+1] = cos, (a, b) -> "
                          "(a cos - b sin, a sin + b cos) (docs/LANGUAGE.md), and compute "
                          "in double.\n",
              out);
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
        fprintf(out, "  %s\n", grade_mistake_sentence(x->m));
    }
    return !oom;
}

/* Compares each line with posenc's answer and prints the report. Returns 0
 * (pass), 1 (fail) or -1 (out of memory). */
static int grade(const grade_cases *c, const grade_run_result *r, uint64_t show, FILE *out)
{
    size_t max_d = 1;
    for (size_t i = 0; i < c->n; i++)
        if (c->v[i].D > max_d)
            max_d = c->v[i].D;
    double *want = malloc((max_d + 2) * sizeof *want), *vals = NULL;
    grade_got *got = malloc(c->n * sizeof *got);
    unsigned char *failed = malloc(c->n + 1);
    size_t *line_at = malloc(c->n * sizeof *line_at), *line_len = malloc(c->n * sizeof *line_len);
    /* The numbers kept of each line: up to one more than the answer has (the
     * output is at most MAX_OUT bytes, so they are few). */
    size_t at = 0, kept = 1;
    for (size_t i = 0; line_at && line_len && i < c->n; i++) {
        const char *nl = memchr(r->out + at, '\n', r->out_len - at);
        size_t end = nl ? (size_t)(nl - r->out) : r->out_len;
        line_at[i] = at;
        line_len[i] = end - at;
        at = end + 1;
        long k = grade_read_line(r->out + line_at[i], line_len[i], NULL, 0);
        size_t n = grade_answer_len(&c->v[i]) + 1;
        kept += k < 0 ? 0 : (size_t)k < n ? (size_t)k : n;
    }
    if (line_at && line_len)
        vals = malloc(kept * sizeof *vals);
    shown_case *pick = malloc((c->n + 1) * sizeof *pick);
    if (!want || !vals || !got || !failed || !line_at || !line_len || !pick) {
        free(want), free(vals), free(got), free(failed), free(line_at), free(line_len), free(pick);
        return -1;
    }
    size_t n_failed = 0;
    kept = 0;
    for (size_t i = 0; i < c->n; i++) {
        size_t n = grade_answer_len(&c->v[i]);
        got[i].v = vals + kept;
        got[i].n = grade_read_line(r->out + line_at[i], line_len[i], got[i].v, n + 1);
        kept += got[i].n < 0 ? 0 : (size_t)got[i].n < n + 1 ? (size_t)got[i].n : n + 1;
        int ok = grade_answer(&c->v[i], want) && got[i].n == (long)n;
        for (size_t j = 0; ok && j < n; j++)
            ok = grade_close(got[i].v[j], want[j]);
        failed[i] = !ok;
        n_failed += !ok;
    }
    fprintf(out, "GRADE verdict=%s cases=%zu failed=%zu\n", n_failed ? "fail" : "pass", c->n,
            n_failed);
    show_cases(c, r, failed, line_at, line_len, pick, show, want, out);
    if (n_failed && !print_mistakes(c, got, failed, n_failed, out))
        n_failed = (size_t)-1; /* out of memory */
    free(want), free(vals), free(got), free(failed), free(line_at), free(line_len), free(pick);
    return n_failed == (size_t)-1 ? -1 : n_failed ? 1 : 0;
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

/* The commands, one per line (*len bytes), or NULL when out of memory. */
static char *commands_text(const grade_cases *c, size_t *len)
{
    size_t in_len = 0;
    for (size_t i = 0; i < c->n; i++)
        in_len += strlen(c->v[i].text) + 1;
    char *in = malloc(in_len + 1), *p = in;
    for (size_t i = 0; in && i < c->n; i++) {
        size_t n = strlen(c->v[i].text);
        memcpy(p, c->v[i].text, n);
        p[n] = '\n';
        p += n + 1;
    }
    *len = in_len;
    return in;
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
    size_t in_len;
    char *in = commands_text(&c, &in_len);
    grade_run_result r;
    const char *name = argv[o.prog];
    status = 2;
    if (!in || !grade_run(argv + o.prog, in, in_len, (int)o.timeout * 1000, MAX_OUT, &r)) {
        const char *why_not = in ? strerror(errno) : "out of memory";
        cli_message(err, "posenc grade: cannot run '%s': %s", name, why_not);
        free(in);
        grade_cases_free(&c);
        return 2;
    }
    if (!run_failed(&r, name, o.timeout, c.n, err))
        status = grade(&c, &r, o.show, out);
    if (status == 2 && r.started && !r.oom)
        show_stderr(err, &r);
    if (status < 0) {
        fputs("posenc grade: out of memory\n", err);
        status = 2;
    }
    grade_run_free(&r);
    free(in);
    grade_cases_free(&c);
    return status;
}
