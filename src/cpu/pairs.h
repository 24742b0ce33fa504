/*
 * pairs.h - shared by the instruction-set bodies of the rotation
 * (kernels_scalar.c, and kernels_avx2.c, kernels_avx512.c via
 * kernels_body.h) and the tensor calls above them (src/tensor): element
 * conversions, one pair at a time, and M-RoPE's row select element by
 * element. Not installed.
 *
 * The contract every body keeps: for each head and pair (x, y) with c, s
 * (s negated for the inverse), x' = (x*c) - (y*s), y' = (x*s) + (y*c), each
 * product and sum rounded to float separately (posenc__rotate_f32). Vector
 * bodies use separate multiply and add/subtract instructions, never FMA.
 */
#ifndef POSENC_PAIRS_H
#define POSENC_PAIRS_H

#include "cpu.h"
#include "halfs.h"
#include "internal.h"

#include <string.h>

/* ---- element conversions: halfs.h ---- */

static inline float posenc__load(int dt, const void *p, size_t i)
{
    if (dt == POSENC_DTYPE_F32)
        return ((const float *)p)[i];
    if (dt == POSENC_DTYPE_BF16)
        return posenc__bf16_to_f32(((const uint16_t *)p)[i]);
    return posenc__f16_to_f32(((const uint16_t *)p)[i]);
}

static inline void posenc__store(int dt, void *p, size_t i, float v)
{
    if (dt == POSENC_DTYPE_F32)
        ((float *)p)[i] = v;
    else if (dt == POSENC_DTYPE_BF16)
        ((uint16_t *)p)[i] = posenc__f32_to_bf16(v);
    else
        ((uint16_t *)p)[i] = posenc__f32_to_f16(v);
}

/* Pairs k0 .. P-1 of one head, one pair at a time: the plain reference and
 * the tail of the vector bodies. */
static inline void posenc__pairs_scalar(int dt, int layout, size_t P, size_t k0, const float *c,
                                        const float *s, int inverse, const void *src, void *dst)
{
    for (size_t k = k0; k < P; k++) {
        size_t i0, i1;
        posenc__pair_elems(layout, P, k, &i0, &i1);
        float x = posenc__load(dt, src, i0), y = posenc__load(dt, src, i1);
        posenc__rotate_f32(&x, &y, inverse ? -s[k] : s[k], c[k]);
        posenc__store(dt, dst, i0, x);
        posenc__store(dt, dst, i1, y);
    }
}

static inline size_t posenc__dtype_size(int dt) { return dt == POSENC_DTYPE_F32 ? 4 : 2; }

/* Elements i0 .. n-1 of posenc__select_fn, one at a time: the plain
 * reference and the tail of the vector bodies. */
static inline void posenc__select_tail(size_t i0, size_t n, const float *t, const float *h,
                                       const float *w, const uint32_t *mh, const uint32_t *mw,
                                       float *out)
{
    for (size_t i = i0; i < n; i++) {
        uint32_t a, b, c;
        memcpy(&a, &t[i], 4);
        memcpy(&b, &h[i], 4);
        memcpy(&c, &w[i], 4);
        a = (a & ~mh[i]) | (b & mh[i]);
        a = (a & ~mw[i]) | (c & mw[i]);
        memcpy(&out[i], &a, 4);
    }
}

#endif /* POSENC_PAIRS_H */
