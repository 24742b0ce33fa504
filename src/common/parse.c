/* parse.c - the number syntax shared by the command language and table files. */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* Length of a run of digits at s[i..len). */
static size_t digits_at(const char *s, size_t i, size_t len)
{
    size_t j = i;
    while (j < len && is_digit(s[j]))
        j++;
    return j - i;
}

posenc_status posenc_parse_number(const char *s, size_t len, double *out)
{
    if (!s || !out)
        return POSENC_ERR_NULL;
    /* [+-]? (D+ (. D*)? | . D+) ([eE] [+-]? D+)? -- checked by hand so that
     * strtod's extras (hex, "inf", "nan", leading space) are refused. */
    size_t i = 0;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        i++;
    size_t int_digits = digits_at(s, i, len);
    i += int_digits;
    size_t frac_digits = 0;
    if (i < len && s[i] == '.') {
        i++;
        frac_digits = digits_at(s, i, len);
        i += frac_digits;
    }
    if (int_digits + frac_digits == 0)
        return POSENC_ERR_FORMAT;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t exp_digits = digits_at(s, i, len);
        if (exp_digits == 0)
            return POSENC_ERR_FORMAT;
        i += exp_digits;
    }
    if (i != len || len > POSENC_MAX_NUMBER_LEN)
        return POSENC_ERR_FORMAT;

    char buf[POSENC_MAX_NUMBER_LEN + 1];
    memcpy(buf, s, len);
    buf[len] = '\0';
    double v = strtod(buf, NULL);
    if (!isfinite(v))
        return POSENC_ERR_NOT_FINITE;
    *out = v;
    return POSENC_OK;
}

posenc_status posenc_parse_int64(const char *s, size_t len, int64_t *out)
{
    if (!s || !out)
        return POSENC_ERR_NULL;
    size_t i = 0;
    int negative = 0;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        negative = s[i++] == '-';
    if (i == len)
        return POSENC_ERR_FORMAT;
    /* The magnitude, up to 2^63 for a negative number (INT64_MIN). */
    uint64_t limit = (uint64_t)INT64_MAX + (uint64_t)negative;
    uint64_t v = 0;
    int too_big = 0;
    for (; i < len; i++) {
        if (!is_digit(s[i]))
            return POSENC_ERR_FORMAT;
        uint64_t digit = (uint64_t)(s[i] - '0');
        if (too_big || v > (limit - digit) / 10)
            too_big = 1; /* keep scanning: a later non-digit is a format error */
        else
            v = v * 10 + digit;
    }
    if (too_big)
        return POSENC_ERR_RANGE;
    if (negative)
        *out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    else
        *out = (int64_t)v;
    return POSENC_OK;
}
