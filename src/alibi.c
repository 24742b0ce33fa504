/* alibi.c - ALiBi slopes (Press et al., "Train Short, Test Long") and the
 * linear distance penalties they produce. */
#include "internal.h"

#include <stdlib.h>

/* Slope of head h (1-based) among n heads, n a power of two: 2^(-8h/n). */
static double pow2_slope(uint32_t h, uint32_t n)
{
    return exp2(-8.0 * (double)h / (double)n);
}

static uint32_t largest_pow2_at_most(uint32_t H)
{
    uint32_t n = 1;
    while (n <= H / 2)
        n *= 2;
    return n;
}

posenc_status posenc_alibi_slopes(uint32_t H, double *slopes)
{
    if (!slopes)
        return POSENC_ERR_NULL;
    if (!posenc__dim_ok(H))
        return POSENC_ERR_DIM;
    uint32_t n = largest_pow2_at_most(H);
    for (uint32_t h = 1; h <= n; h++)
        slopes[h - 1] = pow2_slope(h, n);
    /* The remaining H - n heads take the odd-numbered slopes of 2n heads:
     * 2^(-8(2j-1)/(2n)) for j = 1.., which interleave between the first n. */
    for (uint32_t j = 1; n + j <= H; j++)
        slopes[n + j - 1] = pow2_slope(2 * j - 1, 2 * n);
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
    posenc_alibi_slopes(H, out);
    double dist = (double)llabs(i - j); /* exact: below 2^31 */
    for (uint32_t h = 0; h < H; h++)
        out[h] = -out[h] * dist + 0.0; /* + 0.0: no -0 when i == j */
    return POSENC_OK;
}
