/* input.c - reading lines from streams and -c strings, with bounded memory. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* What read_line returns besides a line (1) and the end of input (0): the
 * line was dropped (the rest of it read and discarded) because it was too
 * long, or because its buffer could not grow. */
enum { LINE_TOO_LONG = 2, LINE_NO_MEMORY = 3 };

/* Reads one line into *buf (grown up to CLI_MAX_LINE). Returns 0 at end of
 * input, 1 with a line, or LINE_TOO_LONG / LINE_NO_MEMORY. *len excludes the
 * newline and a CR before it. */
static int read_line(FILE *in, char **buf, size_t *cap, size_t *len)
{
    size_t n = 0;
    int ch, dropped = 0, got_any = 0;
    while ((ch = getc(in)) != EOF) {
        got_any = 1;
        if (ch == '\n')
            break;
        if (dropped)
            continue;
        if (n + 1 >= *cap) {
            if (*cap >= CLI_MAX_LINE) {
                dropped = LINE_TOO_LONG;
                continue;
            }
            /* 4096 doubled lands exactly on the limit */
            _Static_assert(CLI_MAX_LINE % 4096 == 0 &&
                               ((CLI_MAX_LINE / 4096) & (CLI_MAX_LINE / 4096 - 1)) == 0,
                           "CLI_MAX_LINE must be 4096 times a power of two");
            size_t ncap = *cap ? *cap * 2 : 4096;
            char *p = realloc(*buf, ncap);
            if (!p) {
                dropped = LINE_NO_MEMORY;
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
    return dropped ? dropped : 1;
}

static void report_dropped(cli_state *st, int why)
{
    if (why == LINE_TOO_LONG)
        cli_error(st, "line longer than %u bytes, skipped", CLI_MAX_LINE);
    else
        cli_error(st, "out of memory for this line, skipped");
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
        if (r != 1) {
            report_dropped(st, r);
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
