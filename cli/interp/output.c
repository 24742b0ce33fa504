/* output.c - how numbers and the interpreter's messages look: "%.*f",
 * single spaces, no -0; messages through the escaping printer (message.h). */
#include "cli.h"

#include <math.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *cli_format_number(cli_state *st, double v)
{
    /* Past 1e15 fixed notation shows digits a double does not hold (a
     * wavelength near 1e300 would print 300 of them): exponent notation. */
    if (isfinite(v) && fabs(v) >= 1e15)
        snprintf(st->num, sizeof st->num, "%.*e", st->precision, v);
    else
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
    if (st->source) {
        fputs("posenc: ", st->err);
        cli_write_escaped(st->err, st->source, strlen(st->source));
        fprintf(st->err, ": line %zu: ", st->line_no);
    } else {
        fprintf(st->err, "posenc: line %zu: ", st->line_no);
    }
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage(st->err, fmt, ap);
    va_end(ap);
    fputc('\n', st->err);
}
