/* fuzz_parse.c - libFuzzer target: the number syntax (posenc_parse_number,
 * posenc_parse_int64) on arbitrary bytes, not NUL-terminated (ASan catches a
 * read past len).
 *
 * Invariants, each against an independent computation:
 *   - an accepted number uses only the characters of the grammar, is at most
 *     POSENC_MAX_NUMBER_LEN bytes, is finite, and equals strtod() of the same
 *     text (the syntax check must not change the value);
 *   - it round-trips: "%.17g" of it parses back to the same bits;
 *   - refusals are explained: NOT_FINITE only where strtod overflows to inf;
 *   - an accepted integer equals strtoll() of the text with no error, prints
 *     and re-parses to itself, and (when short enough) also parses as a number
 *     with value (double)v exactly (both are the correctly rounded integer);
 *   - RANGE only where strtoll reports ERANGE. */
#include "posenc.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grammar_chars(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strchr("0123456789+-.eE", s[i]) || s[i] == '\0')
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    char *z = malloc(size + 1); /* a NUL-terminated copy for the C library */
    if (!z)
        abort();
    memcpy(z, data, size);
    z[size] = '\0';
    int has_nul = memchr(data, '\0', size) != NULL;

    double v = -1.0;
    posenc_status st = posenc_parse_number(s, size, &v);
    if (st == POSENC_OK) {
        if (!grammar_chars(s, size) || size > POSENC_MAX_NUMBER_LEN || !isfinite(v))
            abort();
        char *end;
        double ref = strtod(z, &end);
        if (end != z + size || memcmp(&ref, &v, sizeof v) != 0)
            abort();
        char buf[64];
        snprintf(buf, sizeof buf, "%.17g", v);
        double again;
        if (posenc_parse_number(buf, strlen(buf), &again) != POSENC_OK ||
            memcmp(&again, &v, sizeof v) != 0)
            abort();
    } else if (st == POSENC_ERR_NOT_FINITE) {
        if (has_nul || !grammar_chars(s, size) || !isinf(strtod(z, NULL)))
            abort();
    } else if (st != POSENC_ERR_FORMAT) {
        abort();
    }

    int64_t iv = 0;
    st = posenc_parse_int64(s, size, &iv);
    if (st == POSENC_OK || st == POSENC_ERR_RANGE) {
        if (has_nul || size == 0 || !grammar_chars(s, size) || strpbrk(z, ".eE"))
            abort();
        char *end;
        errno = 0;
        long long ref = strtoll(z, &end, 10);
        if (end != z + size)
            abort();
        if (st == POSENC_ERR_RANGE) {
            if (errno != ERANGE)
                abort();
        } else {
            if (errno != 0 || ref != iv)
                abort();
            char buf[32];
            int n = snprintf(buf, sizeof buf, "%lld", (long long)iv);
            int64_t again;
            if (posenc_parse_int64(buf, (size_t)n, &again) != POSENC_OK || again != iv)
                abort();
            double dv;
            if (size <= POSENC_MAX_NUMBER_LEN &&
                (posenc_parse_number(s, size, &dv) != POSENC_OK || dv != (double)iv))
                abort();
        }
    } else if (st != POSENC_ERR_FORMAT) {
        abort();
    }
    free(z);
    return 0;
}
