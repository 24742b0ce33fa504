/* input.c - reading lines from streams and -c strings, with bounded memory. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* Reads one line into *buf (grown up to CLI_MAX_LINE). Returns 0 at end of
 * input, 1 with a line, 2 with a line that was too long (the rest of it was
 * read and dropped). *len excludes the newline and a CR before it. */
static int read_line(FILE *in, char **buf, size_t *cap, size_t *len)
{
    size_t n = 0;
    int ch, too_long = 0, got_any = 0;
    while ((ch = getc(in)) != EOF) {
        got_any = 1;
        if (ch == '\n')
            break;
        if (too_long)
            continue;
        if (n + 1 >= *cap) {
            if (*cap >= CLI_MAX_LINE) {
                too_long = 1;
                continue;
            }
            /* 4096 doubled lands exactly on the limit */
            _Static_assert(CLI_MAX_LINE % 4096 == 0 &&
                               ((CLI_MAX_LINE / 4096) & (CLI_MAX_LINE / 4096 - 1)) == 0,
                           "CLI_MAX_LINE must be 4096 times a power of two");
            size_t ncap = *cap ? *cap * 2 : 4096;
            char *p = realloc(*buf, ncap);
            if (!p) {
                too_long = 1;
                continue;
            }
            *buf = p;
            *cap = ncap;
        }
        (*buf)[n++] = (char)ch;
    }
    if (!got_any)
        return 0;
    if (n > 0 && (*buf)[n - 1] == '\r')
        n--;
    *len = n;
    return too_long ? 2 : 1;
}

static void report_too_long(cli_state *st)
{
    st->failed = 1;
    if (st->source)
        fprintf(st->err, "posenc: %s: line %zu: line longer than %u bytes, skipped\n", st->source,
                st->line_no, CLI_MAX_LINE);
    else
        fprintf(st->err, "posenc: line %zu: line longer than %u bytes, skipped\n", st->line_no,
                CLI_MAX_LINE);
}

int cli_run_stream(cli_state *st, FILE *in, int prompt)
{
    char *buf = NULL;
    size_t cap = 0, len = 0;
    int failed = 0;
    st->line_no = 0;
    for (;;) {
        if (prompt) {
            fputs("posenc> ", st->out);
            fflush(st->out);
        }
        int r = read_line(in, &buf, &cap, &len);
        if (r == 0)
            break;
        st->line_no++;
        if (r == 2) {
            report_too_long(st);
            failed = 1;
            continue;
        }
        failed |= cli_run_line(st, buf ? buf : "", len);
    }
    if (prompt)
        fputc('\n', st->out);
    free(buf);
    return failed;
}

int cli_run_string(cli_state *st, const char *text)
{
    int failed = 0;
    st->line_no = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, "\n;");
        st->line_no++;
        size_t n = len;
        if (n > 0 && p[n - 1] == '\r')
            n--;
        failed |= cli_run_line(st, p, n);
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    return failed;
}
