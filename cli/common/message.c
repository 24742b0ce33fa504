/* message.c - the program's one error printer (message.h). */
#include "message.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

int cli_fail(FILE *f, const char *cmd, int hint, const char *fmt, ...)
{
    fputs(cmd ? "posenc " : "posenc", f);
    if (cmd)
        cli_write_escaped(f, cmd, strlen(cmd));
    fputs(": ", f);
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage(f, fmt, ap);
    va_end(ap);
    if (hint)
        fprintf(f, " (try 'posenc%s%s --help')", cmd ? " " : "", cmd ? cmd : "");
    fputc('\n', f);
    return CLI_EXIT_USAGE;
}
