/* words.c - words and settings of the command language: pure parsers that
 * return a status and a message (see words.h). */
#include "words.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int cli_word_is(cli_token t, const char *name)
{
    return t.len == strlen(name) && strncasecmp(t.s, name, t.len) == 0;
}

int cli_parse_base(const char *s, size_t len, double *out, char *why, size_t n)
{
    double v;
    posenc_status st = posenc_parse_number(s, len, &v);
    if (st != POSENC_OK || !(v > 1.0)) {
        snprintf(why, n, "base must be a finite number greater than 1, got '%.*s%s'",
                 CLI_SHOW(s, len));
        return 0;
    }
    *out = v;
    return 1;
}

int cli_parse_layout(const char *s, size_t len, posenc_layout *out, char *why, size_t n)
{
    cli_token t = {s, len};
    if (cli_word_is(t, "interleaved")) {
        *out = POSENC_LAYOUT_INTERLEAVED;
        return 1;
    }
    if (cli_word_is(t, "half")) {
        *out = POSENC_LAYOUT_HALF;
        return 1;
    }
    snprintf(why, n, "layout must be interleaved or half, got '%.*s%s'", CLI_SHOW(s, len));
    return 0;
}

int cli_parse_precision(const char *s, size_t len, int *out, char *why, size_t n)
{
    int64_t v;
    if (posenc_parse_int64(s, len, &v) != POSENC_OK || v < 0 || v > 17) {
        snprintf(why, n, "precision must be an integer from 0 to 17, got '%.*s%s'",
                 CLI_SHOW(s, len));
        return 0;
    }
    *out = (int)v;
    return 1;
}

void cli_cannot_fail(posenc_status s)
{
    if (s == POSENC_OK)
        return;
    fprintf(stderr, "posenc: internal error: %s\n", posenc_strerror(s));
    abort();
}
