/* grade_cases.c - the commands `posenc grade` sends: the lesson's worked
 * examples, cases generated from a seed, and the --cases file parser (a
 * libFuzzer target, tests/fuzz/fuzz_grade.c). */
#include "grade.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void grade_cases_free(grade_cases *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->v[i].x);
        free(c->v[i].text);
    }
    free(c->v);
    c->v = NULL;
    c->n = c->cap = c->numbers = 0;
}

/* ---- one line ------------------------------------------------------------ */

typedef struct {
    const char *s;
    size_t len;
} word;

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int fail(char *why, size_t why_len, size_t line_no, const char *fmt, ...)
{
    if (why_len == 0)
        return 0;
    int n = snprintf(why, why_len, "line %zu: ", line_no);
    if (n >= 0 && (size_t)n < why_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why + n, why_len - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return 0;
}

static int is_sep(char ch) { return ch == ' ' || ch == '\t' || ch == ',' || ch == '\r'; }

/* The words of s[0..len) up to a '#'; '[' and ']' are words of their own.
 * w has room for len + 1 words (a word takes at least one byte). */
static size_t split(const char *s, size_t len, word *w)
{
    size_t n = 0;
    for (size_t i = 0; i < len && s[i] != '#';) {
        if (is_sep(s[i])) {
            i++;
        } else if (s[i] == '[' || s[i] == ']') {
            w[n].s = s + i++;
            w[n++].len = 1;
        } else {
            size_t j = i;
            while (j < len && !is_sep(s[j]) && s[j] != '[' && s[j] != ']' && s[j] != '#')
                j++;
            w[n].s = s + i;
            w[n++].len = j - i;
            i = j;
        }
    }
    return n;
}

static int word_is(word w, const char *name)
{
    size_t n = strlen(name);
    if (w.len != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = w.s[i];
        if (ch >= 'a' && ch <= 'z')
            ch = (char)(ch - 'a' + 'A');
        if (ch != name[i])
            return 0;
    }
    return 1;
}

/* A word for a message: at most 40 bytes of it, printable ASCII only. */
static const char *shown(word w, char *buf, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < w.len && n + 4 < cap && i < 40; i++)
        buf[n++] = (w.s[i] >= 0x20 && w.s[i] < 0x7f) ? w.s[i] : '?';
    if (w.len > 40 && n + 4 < cap) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
    return buf;
}

static int is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* A position: digits only (no sign), 0 to POSENC_MAX_POS. */
static int read_pos(word w, int64_t *pos)
{
    if (w.len == 0 || w.len > 12)
        return 0;
    for (size_t i = 0; i < w.len; i++)
        if (!is_digit(w.s[i]))
            return 0;
    return posenc_parse_int64(w.s, w.len, pos) == POSENC_OK && *pos <= POSENC_MAX_POS;
}

/* A number: [+-] (digits [. digits*] | . digits) [(e|E) [+-] digits], the
 * syntax every language's number reader takes, at most
 * GRADE_MAX_NUMBER_WORD bytes, |x| <= GRADE_MAX_ABS. */
static int read_number(word w, double *x)
{
    size_t i = 0, digits = 0;
    if (w.len == 0 || w.len > GRADE_MAX_NUMBER_WORD)
        return 0;
    if (w.s[i] == '+' || w.s[i] == '-')
        i++;
    while (i < w.len && is_digit(w.s[i]))
        i++, digits++;
    if (i < w.len && w.s[i] == '.') {
        i++;
        while (i < w.len && is_digit(w.s[i]))
            i++, digits++;
    }
    if (digits == 0)
        return 0;
    if (i < w.len && (w.s[i] == 'e' || w.s[i] == 'E')) {
        i++;
        if (i < w.len && (w.s[i] == '+' || w.s[i] == '-'))
            i++;
        size_t e0 = i;
        while (i < w.len && is_digit(w.s[i]))
            i++;
        if (i == e0)
            return 0;
    }
    return i == w.len && posenc_parse_number(w.s, w.len, x) == POSENC_OK && *x <= GRADE_MAX_ABS &&
           *x >= -GRADE_MAX_ABS;
}

/* The n words, each after a space but the first when tight is set. */
static void put_words(FILE *t, const word *w, size_t n, int tight)
{
    for (size_t i = 0; i < n; i++) {
        if (i || !tight)
            fputc(' ', t);
        fwrite(w[i].s, 1, w[i].len, t);
    }
}

/* Reads n numbers into x; the first bad one is reported. */
static int read_numbers(const word *w, size_t n, double *x, char *why, size_t why_len,
                        size_t line_no)
{
    char b[48];
    for (size_t i = 0; i < n; i++)
        if (!read_number(w[i], &x[i]))
            return fail(why, why_len, line_no,
                        "'%s' is not a number (decimal, at most %u characters, |x| <= 1e6)",
                        shown(w[i], b, sizeof b), GRADE_MAX_NUMBER_WORD);
    return 1;
}

/* The vectors of ROPE, ADD and DOT (D numbers from word qs, DOT's k from
 * word ks; nx numbers in all) into g->x. */
static int read_vectors(const word *w, size_t n, grade_case *g, size_t D, size_t qs, size_t ks,
                        size_t nx, size_t numbers_before, char *why, size_t why_len, size_t line_no,
                        int *oom)
{
    for (size_t i = 1; i < n; i++)
        if ((w[i].s[0] == '[' || w[i].s[0] == ']') && g->kind != GRADE_DOT)
            return fail(why, why_len, line_no, "brackets belong to DOT's vectors only");
    if (D > GRADE_MAX_DIM)
        return fail(why, why_len, line_no, "a vector of %zu numbers: at most %u", D,
                    GRADE_MAX_DIM);
    if (numbers_before + nx > GRADE_MAX_NUMBERS)
        return fail(why, why_len, line_no, "more than %u numbers in all the commands",
                    GRADE_MAX_NUMBERS);
    g->D = (uint32_t)D;
    g->x = malloc(nx * sizeof *g->x);
    if (!g->x) {
        *oom = 1;
        return fail(why, why_len, line_no, "out of memory");
    }
    if (!read_numbers(w + qs, D, g->x, why, why_len, line_no) ||
        (g->kind == GRADE_DOT && !read_numbers(w + ks, D, g->x + D, why, why_len, line_no))) {
        free(g->x);
        g->x = NULL;
        return 0;
    }
    return 1;
}

/* g->text: the command of the words w as the program gets it (the vectors
 * from word qs and ks, D numbers each, as written); 0 when out of memory. */
static int command_text(grade_case *g, const word *w, size_t D, size_t qs, size_t ks)
{
    size_t len;
    FILE *t = open_memstream(&g->text, &len);
    if (!t)
        return 0;
    if (g->kind == GRADE_PE) {
        fprintf(t, "PE %lld %u", (long long)g->pos, g->D);
    } else if (g->kind == GRADE_DOT) {
        fprintf(t, "DOT %lld %lld [", (long long)g->pos, (long long)g->pos2);
        put_words(t, w + qs, D, 1);
        fputs("] [", t);
        put_words(t, w + ks, D, 1);
        fputc(']', t);
    } else {
        fprintf(t, "%s %lld", g->kind == GRADE_ADD ? "ADD" : "ROPE", (long long)g->pos);
        put_words(t, w + qs, D, 0);
    }
    if (fclose(t) == 0)
        return 1;
    free(g->text);
    g->text = NULL;
    return 0;
}

/* Parses one command of n words into *g (its x and text allocated). */
static int parse_command(const word *w, size_t n, grade_case *g, size_t numbers_before,
                         char *why, size_t why_len, size_t line_no, int *oom)
{
    char b[48];
    size_t nx = 0, qs = 0, ks = 0, D = 0;
    memset(g, 0, sizeof *g);
    if (word_is(w[0], "PE")) {
        g->kind = GRADE_PE;
        int64_t d;
        if (n != 3)
            return fail(why, why_len, line_no, "PE needs a position and a dimension, got %zu word%s",
                        n - 1, n == 2 ? "" : "s");
        if (!read_pos(w[1], &g->pos))
            return fail(why, why_len, line_no, "'%s' is not a position (0 to %lld)",
                        shown(w[1], b, sizeof b), (long long)POSENC_MAX_POS);
        if (!read_pos(w[2], &d) || d < 1 || d > GRADE_MAX_DIM)
            return fail(why, why_len, line_no, "'%s' is not a dimension (1 to %u)",
                        shown(w[2], b, sizeof b), GRADE_MAX_DIM);
        g->D = (uint32_t)d;
    } else if (word_is(w[0], "ROPE") || word_is(w[0], "ADD")) {
        int add = word_is(w[0], "ADD");
        g->kind = add ? GRADE_ADD : GRADE_ROPE;
        if (n < 3)
            return fail(why, why_len, line_no, "%s needs a position and at least one number",
                        add ? "ADD" : "ROPE");
        if (!read_pos(w[1], &g->pos))
            return fail(why, why_len, line_no, "'%s' is not a position (0 to %lld)",
                        shown(w[1], b, sizeof b), (long long)POSENC_MAX_POS);
        D = n - 2;
        qs = 2;
        nx = D;
    } else if (word_is(w[0], "DOT")) {
        g->kind = GRADE_DOT;
        if (n < 5)
            return fail(why, why_len, line_no, "DOT needs two positions and two vectors");
        if (!read_pos(w[1], &g->pos) || !read_pos(w[2], &g->pos2))
            return fail(why, why_len, line_no, "'%s' is not a position (0 to %lld)",
                        shown(read_pos(w[1], &g->pos) ? w[2] : w[1], b, sizeof b),
                        (long long)POSENC_MAX_POS);
        if (w[3].s[0] == '[') { /* [q...] [k...] */
            size_t close = 4;
            while (close < n && w[close].s[0] != ']' && w[close].s[0] != '[')
                close++;
            D = close - 4;
            if (close + 1 >= n || w[close].s[0] != ']' || w[close + 1].s[0] != '[' ||
                n != 2 * D + 7 || w[n - 1].s[0] != ']' || D == 0)
                return fail(why, why_len, line_no,
                            "DOT needs two bracketed vectors of one length: [q...] [k...]");
            qs = 4;
            ks = close + 2;
        } else { /* the two halves */
            if ((n - 3) % 2)
                return fail(why, why_len, line_no,
                            "DOT's %zu numbers do not split into two halves", n - 3);
            D = (n - 3) / 2;
            qs = 3;
            ks = 3 + D;
        }
        nx = 2 * D;
    } else {
        return fail(why, why_len, line_no, "'%s' is not a command (PE, ROPE, DOT or ADD)",
                    shown(w[0], b, sizeof b));
    }
    if (g->kind != GRADE_PE &&
        !read_vectors(w, n, g, D, qs, ks, nx, numbers_before, why, why_len, line_no, oom))
        return 0;
    if (!command_text(g, w, D, qs, ks)) {
        free(g->x);
        g->x = NULL;
        *oom = 1;
        return fail(why, why_len, line_no, "out of memory");
    }
    return 1;
}

/* SET base B (B a number above 1, at most 1e12). */
static int read_set(const word *w, size_t n, double *base, char *why, size_t why_len,
                    size_t line_no)
{
    double b = 0;
    if (n != 3 || !word_is(w[1], "BASE") || !read_number(w[2], &b) || !(b > 1))
        return fail(why, why_len, line_no, "SET needs base and a number above 1: SET base 500000");
    *base = b;
    return 1;
}

int grade_cases_parse(const char *s, size_t len, grade_cases *c, char *why, size_t why_len)
{
    if (why_len)
        why[0] = '\0';
    word *w = NULL;
    size_t w_cap = 0, line_no = 0, start = 0;
    int ok = 1;
    double base = POSENC_DEFAULT_BASE;
    while (ok && start < len) {
        const char *nl = memchr(s + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - s) : len, n = end - start;
        line_no++;
        if (n > GRADE_MAX_CASE_LINE) {
            ok = fail(why, why_len, line_no, "longer than %u bytes", GRADE_MAX_CASE_LINE);
            break;
        }
        if (memchr(s + start, '\0', n)) {
            ok = fail(why, why_len, line_no, "a NUL byte");
            break;
        }
        if (n + 1 > w_cap) {
            free(w);
            w_cap = n + 1;
            w = malloc(w_cap * sizeof *w);
            if (!w) {
                ok = fail(why, why_len, line_no, "out of memory");
                break;
            }
        }
        size_t nw = split(s + start, n, w);
        start = end + 1;
        if (nw == 0)
            continue;
        if (c->n == GRADE_MAX_CASES) {
            ok = fail(why, why_len, line_no, "more than %u commands", GRADE_MAX_CASES);
            break;
        }
        if (c->n == c->cap) {
            size_t cap = c->cap ? 2 * c->cap : 64;
            grade_case *v = realloc(c->v, cap * sizeof *v);
            if (!v) {
                ok = fail(why, why_len, line_no, "out of memory");
                break;
            }
            c->v = v;
            c->cap = cap;
        }
        if (word_is(w[0], "SET")) { /* SET base B: the base of the commands after it */
            if (!read_set(w, nw, &base, why, why_len, line_no)) {
                ok = 0;
                break;
            }
            continue;
        }
        int oom = 0;
        grade_case g;
        if (!parse_command(w, nw, &g, c->numbers, why, why_len, line_no, &oom)) {
            ok = 0;
            break;
        }
        g.base = base == POSENC_DEFAULT_BASE ? 0 : base;
        c->numbers += g.kind == GRADE_DOT ? 2u * g.D : g.kind == GRADE_PE ? 0u : g.D;
        c->v[c->n++] = g;
    }
    free(w);
    return ok;
}

/* ---- the lesson's examples and generated cases ------------------------------ */

/* splitmix64: a small generator whose sequence is the same everywhere. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* A value in [0, n). */
static uint64_t below(uint64_t *s, uint64_t n) { return next(s) % n; }

/* A position: small, middling or large (up to 10^5), a third each. */
static int64_t position(uint64_t *s)
{
    static const uint64_t top[3] = {21, 1001, 100001};
    return (int64_t)below(s, top[below(s, 3)]);
}

/* D from 1 to 64, odd when odd is set. */
static unsigned dimension(uint64_t *s, int odd)
{
    unsigned d = 1 + (unsigned)below(s, 64);
    if ((d % 2 == 1) != odd)
        d = d == 64 ? 63 : d + 1;
    return d;
}

/* D numbers of two decimals in [-2, 2]: every pair has a nonzero element
 * and both elements of most pairs are nonzero, so that a turn either way,
 * and a pairing of other elements, changes the numbers. */
static void put_vector(FILE *t, uint64_t *s, unsigned D)
{
    for (unsigned i = 0; i < D; i++) {
        int v = (int)below(s, 400) - 200;
        if (v == 0)
            v = 1 + (int)below(s, 100);
        char num[16];
        snprintf(num, sizeof num, " %s%d.%02d", v < 0 ? "-" : "", abs(v) / 100, abs(v) % 100);
        fputs(num, t);
    }
}

/* count random lines "<cmd> pos x_0 .. x_D-1" (ROPE, ADD), D alternately
 * even and odd. */
static void put_vector_cases(FILE *t, uint64_t *s, const char *cmd, int count)
{
    char head[64];
    for (int i = 0; i < count; i++) {
        unsigned D = dimension(s, i % 2);
        snprintf(head, sizeof head, "%s %lld", cmd, (long long)position(s));
        fputs(head, t);
        put_vector(t, s, D);
        fputc('\n', t);
    }
}

int grade_cases_default(uint64_t seed, grade_cases *c)
{
    /* The lesson's worked examples (examples/lesson.pe). */
    static const char lesson[] = "PE 2 4\n"
                                 "ROPE 1 1 0\n"
                                 "DOT 5 3 [1 0] [1 0]\n"
                                 "DOT 9 7 [1 0] [1 0]\n"
                                 "ADD 2 1 1 1 1\n"
                                 "PE 2 5\n";
    /* Edges: position 0 and 10^5, D 1, 2, 3, 63, 64. */
    static const char edges[] = "PE 0 6\n"
                                "PE 1 1\n"
                                "PE 1 2\n"
                                "PE 3 3\n"
                                "PE 100000 64\n"
                                "PE 100000 63\n"
                                "ROPE 0 0.5 -1.25 2 0.75\n"
                                "ROPE 1 1.5 -0.5 0.25\n"
                                "ROPE 2 -1 2\n"
                                "ROPE 1 1 2 0 0\n"
                                "ADD 0 0.5 0.5 0.5\n"
                                "DOT 100000 0 [1 0.5 -0.25 2] [0.5 1 1.5 -2]\n"
                                "DOT 3 3 [1 2 3] [-1 0.5 2]\n"
                                "ROPE 1 1 1\n"
                                "PE 7 1024\n"
                                "PE 999999 8\n"
                                "ROPE 500000 1 2 3 4 5\n";
    /* Other bases (run apart: a program may not know SET base). */
    static const char bases[] = "SET base 100\n"
                                "PE 1 4\n"
                                "ROPE 3 1 0.5 -1 2\n"
                                "SET base 500000\n"
                                "PE 1000 8\n"
                                "ADD 50 1 1 1 1 1\n"
                                "DOT 40 10 [1 0.5 -0.25 2] [0.5 1 1.5 -2]\n"
                                "SET base 10\n"
                                "PE 3 6\n"
                                "ROPE 2 1 2 3 4 5 6\n";
    char *text = NULL, why[256];
    size_t len = 0;
    FILE *t = open_memstream(&text, &len);
    if (!t)
        return 0;
    fputs(lesson, t);
    fputs(edges, t);
    uint64_t s = seed;
    char head[64];
    for (int i = 0; i < 24; i++) {
        snprintf(head, sizeof head, "PE %lld %u\n", (long long)position(&s), dimension(&s, i % 2));
        fputs(head, t);
    }
    put_vector_cases(t, &s, "ROPE", 24);
    for (int i = 0; i < 24; i++) {
        unsigned D = dimension(&s, i % 2);
        int64_t m = position(&s), n = position(&s);
        snprintf(head, sizeof head, "DOT %lld %lld [", (long long)m, (long long)n);
        fputs(head, t);
        put_vector(t, &s, D);
        fputs(" ] [", t);
        put_vector(t, &s, D);
        fputs(" ]\n", t);
    }
    put_vector_cases(t, &s, "ADD", 16);
    fputs(bases, t);
    int ok = fclose(t) == 0 && grade_cases_parse(text, len, c, why, sizeof why);
    free(text);
    return ok;
}
