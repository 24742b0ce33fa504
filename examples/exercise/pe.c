/* pe.c - the part of the exercise that is already written: it reads the
 * lesson's commands, one per line, and prints one line of numbers for each,
 * with 4 decimals, as `posenc` does:
 *
 *   PE pos D                   PE(pos), D numbers          (your sinusoid)
 *   ROPE pos x0 x1 ...         x rotated by position pos   (your rotation)
 *   DOT m n [q...] [k...]      ROPE(m, q) . ROPE(n, k)     (built on your rotation)
 *   ADD pos x0 x1 ...          x + PE(pos)                 (built on your sinusoid)
 *   SET base B                 the base of the commands after it (10000 before)
 *
 * Names are case-insensitive, numbers are separated by spaces, tabs or
 * commas, DOT's vectors are bracketed (or an even count split in half),
 * '#' starts a comment. A line it cannot run prints a message on standard
 * error and nothing on standard output. You write only mine.c.
 *
 * One function at a time: a command whose function is not written yet (it
 * returns NOT_WRITTEN) prints nothing on standard output and the line
 *   pe: line N: rotate() is not written yet
 * on standard error; the others run. `posenc grade` grades what is written
 * and names what is left (docs/EXERCISE.md). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* getline */
#endif
#include "exercise.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_D 4096           /* the longest vector a line may hold */
#define MAX_WORDS (2 * MAX_D + 8)

static long line_no;
static double base = 10000.0; /* SET base B changes it */
static int sinusoid_left, rotate_left; /* a command found the function unwritten */

static int complain(const char *what)
{
    fprintf(stderr, "pe: line %ld: %s\n", line_no, what);
    return 0;
}

/* Prints v[0..n) with 4 decimals, single spaces, and never "-0.0000". */
static void print_numbers(const double *v, int n)
{
    for (int i = 0; i < n; i++) {
        char s[64];
        snprintf(s, sizeof s, "%.4f", v[i]);
        const char *p = strcmp(s, "-0.0000") == 0 ? s + 1 : s;
        printf(i ? " %s" : "%s", p);
    }
    printf("\n");
}

static int read_position(const char *w, long *pos)
{
    char *end;
    *pos = strtol(w, &end, 10);
    return *end == '\0' && end != w && *pos >= 0;
}

static int read_numbers(char **w, int n, double *out)
{
    for (int i = 0; i < n; i++) {
        char *end;
        out[i] = strtod(w[i], &end);
        if (*end != '\0' || end == w[i])
            return 0;
    }
    return 1;
}

/* Splits line into words; '[' and ']' are words of their own. */
static int split(char *line, char **w)
{
    int n = 0;
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    for (char *p = line; *p;) {
        if (strchr(" \t,\r\n", *p)) {
            *p++ = '\0';
        } else if (*p == '[' || *p == ']') {
            if (n == MAX_WORDS)
                return -1;
            static char open[] = "[", close[] = "]";
            w[n++] = *p == '[' ? open : close;
            *p++ = '\0';
        } else {
            if (n == MAX_WORDS)
                return -1;
            w[n++] = p;
            while (*p && !strchr(" \t,\r\n[]", *p))
                p++;
        }
    }
    return n;
}

/* 1 when the function (named fn) ran; 0 after saying it is not written yet. */
static int written(int status, const char *fn, int *left)
{
    if (status != NOT_WRITTEN)
        return 1;
    fprintf(stderr, "pe: line %ld: %s() is not written yet\n", line_no, fn);
    *left = 1;
    return 0;
}

static int run_pe(char **w, int n)
{
    long pos, D;
    static double out[MAX_D];
    if (n != 2 || !read_position(w[0], &pos) || !read_position(w[1], &D) || D < 1 || D > MAX_D)
        return complain("PE needs a position and a dimension from 1 to 4096");
    if (!written(sinusoid(pos, (int)D, base, out), "sinusoid", &sinusoid_left))
        return 0;
    print_numbers(out, (int)D);
    return 1;
}

static int run_rope_or_add(char **w, int n, int add)
{
    long pos;
    static double x[MAX_D], pe[MAX_D];
    int D = n - 1;
    if (n < 2 || D > MAX_D || !read_position(w[0], &pos) || !read_numbers(w + 1, D, x))
        return complain("ROPE and ADD need a position and 1 to 4096 numbers");
    if (add) { /* the embedding step: x + PE(pos), D = the length of x */
        if (!written(sinusoid(pos, D, base, pe), "sinusoid", &sinusoid_left))
            return 0;
        for (int i = 0; i < D; i++)
            x[i] += pe[i];
    } else {
        if (!written(rotate(pos, D, base, x), "rotate", &rotate_left))
            return 0;
    }
    print_numbers(x, D);
    return 1;
}

static int run_dot(char **w, int n)
{
    long m, p;
    static double q[MAX_D], k[MAX_D];
    char **qw, **kw;
    int D;
    if (n < 4 || !read_position(w[0], &m) || !read_position(w[1], &p))
        return complain("DOT needs two positions and two vectors");
    w += 2;
    n -= 2;
    if (strcmp(w[0], "[") == 0) { /* [q...] [k...] */
        int i = 1;
        while (i < n && strcmp(w[i], "]") != 0)
            i++;
        D = i - 1;
        qw = w + 1;
        kw = w + i + 2;
        if (i + 1 >= n || strcmp(w[i + 1], "[") != 0 || n != 2 * D + 4 ||
            strcmp(w[n - 1], "]") != 0)
            return complain("DOT needs two bracketed vectors of one length: [q...] [k...]");
    } else { /* q and k as the two halves */
        if (n % 2)
            return complain("DOT's numbers do not split into two halves");
        D = n / 2;
        qw = w;
        kw = w + D;
    }
    if (D < 1 || D > MAX_D || !read_numbers(qw, D, q) || !read_numbers(kw, D, k))
        return complain("DOT needs two vectors of 1 to 4096 numbers");
    /* ROPE(m, q) . ROPE(n, k), with your rotation */
    if (!written(rotate(m, D, base, q), "rotate", &rotate_left) ||
        !written(rotate(p, D, base, k), "rotate", &rotate_left))
        return 0;
    double dot = 0;
    for (int i = 0; i < D; i++)
        dot += q[i] * k[i];
    print_numbers(&dot, 1);
    return 1;
}

/* SET base B: the base of the commands that follow. */
static int run_set(char **w, int n)
{
    char *end;
    double b = n == 2 && strcasecmp(w[0], "base") == 0 ? strtod(w[1], &end) : 0;
    if (n != 2 || strcasecmp(w[0], "base") != 0 || *end != '\0' || !(b > 1 && b < 1e300))
        return complain("SET needs base and a number above 1: SET base 10000");
    base = b;
    return 1;
}

int main(void)
{
    static char *w[MAX_WORDS];
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) != -1) {
        line_no++;
        int n = split(line, w);
        if (n < 0) {
            complain("too many numbers");
            continue;
        }
        if (n == 0)
            continue; /* a blank line or a comment */
        if (strcasecmp(w[0], "PE") == 0)
            run_pe(w + 1, n - 1);
        else if (strcasecmp(w[0], "ROPE") == 0)
            run_rope_or_add(w + 1, n - 1, 0);
        else if (strcasecmp(w[0], "ADD") == 0)
            run_rope_or_add(w + 1, n - 1, 1);
        else if (strcasecmp(w[0], "DOT") == 0)
            run_dot(w + 1, n - 1);
        else if (strcasecmp(w[0], "SET") == 0)
            run_set(w + 1, n - 1);
        else
            complain("unknown command: the exercise runs PE, ROPE, DOT, ADD and SET base");
        fflush(stdout);
    }
    free(line);
    if (sinusoid_left || rotate_left)
        fprintf(stderr, "pe: write %s in mine.c (the formulas and the lesson's worked trace are "
                        "in the comments above %s), then make and grade again\n",
                sinusoid_left && rotate_left ? "sinusoid() and rotate()"
                : sinusoid_left              ? "sinusoid()"
                                             : "rotate()",
                sinusoid_left && rotate_left ? "them" : "it");
    return 0;
}
