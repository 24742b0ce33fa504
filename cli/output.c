/* output.c - how numbers and messages look: "%.*f", single spaces, no -0. */
#include "cli.h"

#include <stdarg.h>
#include <string.h>

const char *cli_format_number(cli_state *st, double v)
{
    snprintf(st->num, sizeof st->num, "%.*f", st->precision, v);
    /* A negative value that rounds to zero prints as zero: "-0.0000" would
     * tell a learner there is a sign where there is no value. */
    if (st->num[0] == '-' && strspn(st->num + 1, "0.") == strlen(st->num + 1))
        return st->num + 1;
    return st->num;
}

void cli_print_numbers(cli_state *st, const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(' ', st->out);
        fputs(cli_format_number(st, v[i]), st->out);
    }
    fputc('\n', st->out);
}

void cli_error(cli_state *st, const char *fmt, ...)
{
    st->failed = 1;
    if (st->source)
        fprintf(st->err, "posenc: %s: line %zu: ", st->source, st->line_no);
    else
        fprintf(st->err, "posenc: line %zu: ", st->line_no);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(st->err, fmt, ap);
    va_end(ap);
    fputc('\n', st->err);
}
