/* alibi.c - ALiBi slopes (Press et al., "Train Short, Test Long") and the
 * linear distance penalties they produce. */
#include "internal.h"

#include <stdlib.h>

/* The one slope rule (posenc.h): head h (1-based) of H. With n the largest
 * power of two <= H, the first n heads have 2^(-8h/n); the remaining H - n
 * heads take the odd-numbered slopes of 2n heads, 2^(-8(2j-1)/(2n)) for
 * j = 1.., which interleave between the first n. */
double posenc__alibi_slope(uint32_t h, uint32_t H)
{
    uint32_t n = 1;
    while (n <= H / 2)
        n *= 2;
    if (h <= n)
        return exp2(-8.0 * (double)h / (double)n);
    uint32_t j = h - n;
    return exp2(-8.0 * (double)(2 * j - 1) / (double)(2 * n));
}

posenc_status posenc_alibi_slopes(uint32_t H, double *slopes)
{
    if (!slopes)
        return POSENC_ERR_NULL;
    if (!posenc__dim_ok(H))
        return POSENC_ERR_DIM;
    for (uint32_t h = 1; h <= H; h++)
        slopes[h - 1] = posenc__alibi_slope(h, H);
    return POSENC_OK;
}

posenc_status posenc_alibi_penalties(uint32_t H, int64_t i, int64_t j, double *out)
{
    if (!out)
        return POSENC_ERR_NULL;
    if (!posenc__dim_ok(H))
        return POSENC_ERR_DIM;
    if (!posenc__pos_ok(i) || !posenc__pos_ok(j))
        return POSENC_ERR_POS;
    for (uint32_t h = 1; h <= H; h++)
        out[h - 1] = posenc__alibi_slope(h, H);
    double dist = (double)llabs(i - j); /* exact: below 2^31 */
    for (uint32_t h = 0; h < H; h++)
        out[h] = -out[h] * dist + 0.0; /* + 0.0: no -0 when i == j */
    return POSENC_OK;
}
