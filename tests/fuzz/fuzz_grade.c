/* fuzz_grade.c - libFuzzer target: the --cases file parser of posenc grade
 * (grade_cases_parse, cli/grade_cases.c) on arbitrary bytes, not
 * NUL-terminated (ASan catches a read past len).
 *
 * Invariants:
 *   - a refusal says why ("line N: ...", N at most the number of lines), and
 *     the cases of the lines before it are whole;
 *   - every case is within the limits: a known kind, positions 0 to
 *     POSENC_MAX_POS, D 1 to GRADE_MAX_DIM, finite numbers with |x| <=
 *     GRADE_MAX_ABS, at most GRADE_MAX_CASES cases and GRADE_MAX_NUMBERS
 *     numbers, a text of one line;
 *   - posenc answers each case (grade_answer) with finite numbers;
 *   - the texts round-trip: parsing the cases' own texts, one per line,
 *     gives the same cases (kinds, positions, D, the numbers' bits, texts). */
#include "grade.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_case(const grade_case *g, double *ans)
{
    if (g->kind > GRADE_ADD || g->pos < 0 || g->pos > POSENC_MAX_POS || g->pos2 < 0 ||
        g->pos2 > POSENC_MAX_POS || g->D < 1 || g->D > GRADE_MAX_DIM || !g->text ||
        strchr(g->text, '\n') || (g->kind == GRADE_PE) != (g->x == NULL) ||
        (g->kind != GRADE_DOT && g->pos2 != 0))
        abort();
    size_t nx = g->kind == GRADE_DOT ? 2u * g->D : g->kind == GRADE_PE ? 0 : g->D;
    for (size_t i = 0; i < nx; i++)
        if (!isfinite(g->x[i]) || fabs(g->x[i]) > GRADE_MAX_ABS)
            abort();
    if (!grade_answer(g, ans))
        abort();
    for (size_t i = 0; i < grade_answer_len(g); i++)
        if (!isfinite(ans[i]))
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    grade_cases c = {0}, again = {0};
    char why[512];
    static double ans[GRADE_MAX_DIM];
    int ok = grade_cases_parse((const char *)data, size, &c, why, sizeof why);
    if (!ok) {
        unsigned long line = 0;
        size_t lines = 1;
        for (size_t i = 0; i < size; i++)
            lines += data[i] == '\n';
        if (sscanf(why, "line %lu: ", &line) != 1 || line == 0 || line > lines ||
            !strstr(why, ": ") || strlen(strstr(why, ": ")) < 3)
            abort();
    }
    if (c.n > GRADE_MAX_CASES || c.numbers > GRADE_MAX_NUMBERS)
        abort();
    size_t len = 0, numbers = 0;
    for (size_t i = 0; i < c.n; i++) {
        check_case(&c.v[i], ans);
        len += strlen(c.v[i].text) + 1;
        numbers += c.v[i].kind == GRADE_DOT ? 2u * c.v[i].D : c.v[i].kind == GRADE_PE ? 0 : c.v[i].D;
    }
    if (numbers != c.numbers)
        abort();
    char *text = malloc(len + 1), *p = text;
    if (!text)
        abort();
    for (size_t i = 0; i < c.n; i++) {
        size_t n = strlen(c.v[i].text);
        memcpy(p, c.v[i].text, n);
        p[n] = '\n';
        p += n + 1;
    }
    if (!grade_cases_parse(text, len, &again, why, sizeof why) || again.n != c.n)
        abort();
    for (size_t i = 0; i < c.n; i++) {
        const grade_case *a = &c.v[i], *b = &again.v[i];
        size_t nx = a->kind == GRADE_DOT ? 2u * a->D : a->kind == GRADE_PE ? 0 : a->D;
        if (a->kind != b->kind || a->pos != b->pos || a->pos2 != b->pos2 || a->D != b->D ||
            strcmp(a->text, b->text) != 0 || (nx && memcmp(a->x, b->x, nx * sizeof *a->x) != 0))
            abort();
    }
    free(text);
    grade_cases_free(&again);
    grade_cases_free(&c);
    return 0;
}
