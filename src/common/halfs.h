/* halfs.h - float32 to and from the 16-bit formats (bfloat16, IEEE
 * binary16), shared by the kernels, the dump reader/writer and the
 * safetensors reader: exact to float; round to nearest even back, NaN kept
 * quiet (as the F16C instructions do). Not installed. */
#ifndef POSENC_HALFS_H
#define POSENC_HALFS_H

#include <stdint.h>
#include <string.h>

/* The float whose bits are u, and the bits of f. */
static inline float posenc__f32_of_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline uint32_t posenc__bits_of_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float posenc__bf16_to_f32(uint16_t h) { return posenc__f32_of_bits((uint32_t)h << 16); }

static inline uint16_t posenc__f32_to_bf16(float f)
{
    uint32_t u = posenc__bits_of_f32(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) /* NaN: keep it a quiet NaN */
        return (uint16_t)((u >> 16) | 0x40u);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

static inline float posenc__f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu, u;
    if (e == 0) { /* zero or subnormal: m * 2^-24, exact */
        float f = (float)m * 0x1p-24f;
        return sign ? -f : f;
    }
    if (e == 31) /* inf, or NaN made quiet as the F16C instruction does */
        u = sign | 0x7F800000u | (m << 13) | (m ? 0x400000u : 0u);
    else
        u = sign | ((e + 112u) << 23) | (m << 13);
    return posenc__f32_of_bits(u);
}

static inline uint16_t posenc__f32_to_f16(float f)
{
    uint32_t u = posenc__bits_of_f32(f);
    uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u) /* NaN: quiet, top payload bits kept (as F16C) */
        return (uint16_t)(sign | 0x7E00u | ((a >> 13) & 0x3FFu));
    if (a >= 0x477FF000u) /* >= 65520 rounds to infinity */
        return (uint16_t)(sign | 0x7C00u);
    if (a >= 0x38800000u) { /* normal: rebias 127 -> 15, round 13 bits */
        a -= 112u << 23;
        return (uint16_t)(sign | ((a + 0xFFFu + ((a >> 13) & 1u)) >> 13));
    }
    if (a <= 0x33000000u) /* <= 2^-25: rounds to zero (the tie goes to even 0) */
        return (uint16_t)sign;
    /* subnormal result: round m * 2^(e-150) to a multiple of 2^-24 */
    uint32_t e = a >> 23, m = (a & 0x7FFFFFu) | 0x800000u, sh = 126u - e;
    uint32_t q = m >> sh, rem = m & ((1u << sh) - 1u), half = 1u << (sh - 1u);
    if (rem > half || (rem == half && (q & 1u)))
        q++;
    return (uint16_t)(sign | q);
}

#endif
