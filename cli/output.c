/* output.c - how numbers and messages look: "%.*f", single spaces, no -0;
 * messages with every byte a terminal would act on shown escaped. */
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

/* Length of the well-formed UTF-8 character at s (of n bytes) that a
 * terminal shows as a glyph: 2 to 4, or 0 for a byte to escape (a malformed
 * or overlong sequence, a surrogate, a code point past U+10FFFF, or one of
 * the C1 controls U+0080..U+009F, which some terminals obey like ESC). */
static size_t utf8_glyph_len(const unsigned char *s, size_t n)
{
    size_t len;
    uint32_t cp;
    if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        len = 2;
        cp = s[0] & 0x1Fu;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        len = 3;
        cp = s[0] & 0x0Fu;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        len = 4;
        cp = s[0] & 0x07u;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0u) != 0x80u)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp <= 0x9F)
        return 0;
    return len;
}

void cli_write_escaped(FILE *f, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t g;
        if (u[i] >= 0x20 && u[i] < 0x7F) {
            fputc(u[i++], f);
        } else if (u[i] >= 0x80 && (g = utf8_glyph_len(u + i, n - i)) != 0) {
            fwrite(u + i, 1, g, f);
            i += g;
        } else {
            fprintf(f, "\\x%02x", u[i++]);
        }
    }
}

void cli_vmessage(FILE *f, const char *fmt, va_list ap)
{
    char small[512], *text = small;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= (int)sizeof small) {
        text = malloc((size_t)n + 1);
        if (text)
            vsnprintf(text, (size_t)n + 1, fmt, again);
        else /* what fits is still the start of the message */
            text = small, n = (int)sizeof small - 1;
    }
    va_end(again);
    if (n > 0)
        cli_write_escaped(f, text, (size_t)n);
    if (text != small)
        free(text);
}

void cli_message(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
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
