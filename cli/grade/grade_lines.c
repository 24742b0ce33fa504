/* grade_lines.c - which line of the learner's output answers which command:
 * the input of each run (the commands of the lesson's base, then, in a run
 * of their own, those of other bases with their `SET base B` lines), and the
 * program's own word on what it did not run, read from its standard error:
 *   ... line N: NAME() is not written yet     (one function at a time)
 *   a message on a SET line, or naming SET     (SET base not accepted)
 * Every other command's answer is the next line of standard output. */
#include "grade.h"

#include <stdlib.h>
#include <string.h>

/* The case's base as SET writes it, or 0 for the lesson's. */
static double base_of(const grade_case *c) { return c->base > 0 ? c->base : 0; }

char *grade_run_text(const grade_cases *c, int other_bases, size_t *len, size_t **line_case,
                     size_t *n_lines)
{
    size_t cap = 1, lines = 0;
    for (size_t i = 0; i < c->n; i++)
        cap += strlen(c->v[i].text) + 48;
    char *in = malloc(cap), *p = in;
    size_t *map = malloc((2 * c->n + 1) * sizeof *map);
    if (!in || !map) {
        free(in);
        free(map);
        return NULL;
    }
    double base = 0;
    for (size_t i = 0; i < c->n; i++) {
        double b = base_of(&c->v[i]);
        if ((b > 0) != (other_bases != 0))
            continue;
        if (b != base) {
            p += snprintf(p, 48, "SET base %.17g\n", b);
            map[lines++] = SIZE_MAX;
            base = b;
        }
        size_t n = strlen(c->v[i].text);
        memcpy(p, c->v[i].text, n);
        p[n] = '\n';
        p += n + 1;
        map[lines++] = i;
    }
    *p = '\0';
    *len = (size_t)(p - in);
    *line_case = map;
    *n_lines = lines;
    return in;
}

/* Adds name (len bytes) to the comma-separated list, once. */
static void add_missing(grade_lines *L, const char *name, size_t len)
{
    char item[40];
    if (len == 0 || len >= sizeof item)
        return;
    memcpy(item, name, len);
    item[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (!(item[i] == '_' || (item[i] >= 'a' && item[i] <= 'z') ||
              (item[i] >= 'A' && item[i] <= 'Z') || (item[i] >= '0' && item[i] <= '9')))
            return;
    const char *s = L->missing;
    for (;;) { /* already listed? */
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        if (n == len && memcmp(s, item, len) == 0)
            return;
        if (!comma)
            break;
        s = comma + 1;
    }
    size_t have = strlen(L->missing);
    if (have + len + 2 < sizeof L->missing)
        snprintf(L->missing + have, sizeof L->missing - have, "%s%s", have ? "," : "", item);
}

static int is_letter(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }

/* One line of standard error: a "line N: NAME() is not written yet", or a
 * word on a SET line. */
static void read_err_line(const char *s, size_t n, const size_t *line_case, size_t n_lines,
                          grade_lines *L, int *set_refused)
{
    static const char tail[] = "() is not written yet";
    const char *at = NULL;
    for (size_t i = 0; i + 5 <= n && !at; i++)
        if (memcmp(s + i, "line ", 5) == 0 && i + 5 < n && s[i + 5] >= '0' && s[i + 5] <= '9')
            at = s + i + 5;
    size_t no = 0;
    const char *p = at;
    while (p && p < s + n && *p >= '0' && *p <= '9' && no < SIZE_MAX / 10)
        no = no * 10 + (size_t)(*p++ - '0');
    int on_set = at && no >= 1 && no <= n_lines && line_case[no - 1] == SIZE_MAX;
    for (size_t i = 0; i + 3 <= n; i++) /* the word SET (not RESET, OFFSET, SETTING) */
        if (memcmp(s + i, "SET", 3) == 0 && (i == 0 || !is_letter(s[i - 1])) &&
            (i + 3 == n || !is_letter(s[i + 3])))
            on_set = 1;
    const char *t = NULL;
    for (size_t i = 0; i + sizeof tail - 1 <= n && !t; i++)
        if (memcmp(s + i, tail, sizeof tail - 1) == 0)
            t = s + i;
    if (t && at && no >= 1 && no <= n_lines && line_case[no - 1] != SIZE_MAX) {
        const char *b = t;
        while (b > s && b[-1] != ' ' && b[-1] != ':')
            b--;
        L->skip[line_case[no - 1]] = 1;
        add_missing(L, b, (size_t)(t - b));
    } else if (on_set) {
        *set_refused = 1;
    }
}

size_t grade_lines_read_err(const grade_run_result *r, const size_t *line_case, size_t n_lines,
                            grade_lines *L, int *set_refused)
{
    *set_refused = 0;
    for (size_t i = 0; i < r->err_len;) {
        const char *nl = memchr(r->err + i, '\n', r->err_len - i);
        size_t end = nl ? (size_t)(nl - r->err) : r->err_len;
        read_err_line(r->err + i, end - i, line_case, n_lines, L, set_refused);
        i = end + 1;
    }
    size_t expected = 0;
    for (size_t i = 0; i < n_lines; i++)
        expected += line_case[i] != SIZE_MAX && !L->skip[line_case[i]];
    return expected;
}

void grade_lines_take_out(const grade_run_result *r, const size_t *line_case, size_t n_lines,
                          grade_lines *L)
{
    size_t at = 0;
    for (size_t i = 0; i < n_lines; i++) {
        size_t k = line_case[i];
        if (k == SIZE_MAX || L->skip[k])
            continue;
        const char *nl = memchr(r->out + at, '\n', r->out_len - at);
        size_t end = nl ? (size_t)(nl - r->out) : r->out_len;
        L->at[k] = r->out + at;
        L->len[k] = end - at;
        at = end < r->out_len ? end + 1 : end;
    }
}
