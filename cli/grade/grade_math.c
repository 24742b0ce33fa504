/* grade_math.c - the numbers of `posenc grade` the program keeps: the
 * learner's printed numbers read back and formatted. The exact answers, the
 * comparison and the slips are the library's (src/check/lesson.c,
 * posenc_lesson.h); the wrappers here keep the grader's names. */
#include "grade.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- posenc's answers (the library's) --------------------------------------- */

size_t grade_answer_len(const grade_case *c) { return posenc_lesson_answer_len(c); }

int grade_answer(const grade_case *c, double *out) { return posenc_lesson_answer(c, out); }

void grade_format(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.*f", GRADE_DECIMALS, v);
    if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
        memmove(buf, buf + 1, strlen(buf)); /* "-0.0000" is 0 */
}

int grade_close(double got, double want) { return posenc_lesson_close(got, want); }

long grade_read_line(const char *line, size_t len, double *out, size_t max)
{
    long n = 0;
    int nonfinite = 0;
    size_t i = 0;
    char buf[80];
    while (i < len) {
        if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
            i++;
            continue;
        }
        size_t j = i;
        while (j < len && line[j] != ' ' && line[j] != '\t' && line[j] != '\r')
            j++;
        if (j - i >= sizeof buf)
            return -1;
        memcpy(buf, line + i, j - i);
        buf[j - i] = '\0';
        char *end;
        double v = strtod(buf, &end);
        /* strtod also reads "nan", "inf" and hexadecimal: a printed answer
         * is a finite decimal (and a NUL byte ends no word early). */
        if (end == buf + (j - i) && end != buf && !isfinite(v) && !strpbrk(buf, "xX"))
            nonfinite = 1; /* "nan", "-inf": what a division by zero prints */
        else if (end != buf + (j - i) || end == buf || !isfinite(v) || strpbrk(buf, "xXnN"))
            return -1;
        if ((size_t)n < max)
            out[n] = v;
        n++;
        i = j;
    }
    return nonfinite ? -2 : n;
}

/* ---- the mistakes (the library's) ------------------------------------------ */

const char *grade_mistake_name(grade_mistake m) { return posenc_lesson_mistake_name(m); }

const char *grade_mistake_sentence(grade_mistake m) { return posenc_lesson_mistake_sentence(m); }

size_t grade_explain(const grade_cases *c, const grade_got *got, const unsigned char *failed,
                     size_t max_work, grade_explanation *e)
{
    return posenc_lesson_explain(c->v, c->n, got, NULL, failed, max_work, e);
}
