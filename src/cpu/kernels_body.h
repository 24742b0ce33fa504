/*
 * kernels_body.h - the one vector body of the tensor kernels, included by
 * kernels_avx2.c and kernels_avx512.c after they define the vocabulary:
 *
 *   VF, VW                 vector of VW floats
 *   V_LD_F32/BF16/F16(p)   VW elements at p, converted exactly to float
 *   V_ST_F32/BF16/F16(p,v) VW floats stored (rounded to nearest even)
 *   V_MUL V_ADD V_SUB V_XOR, V_SET1(f)
 *   V_DUP_PAIRS(p)         VW/2 floats at p, each twice: [p0 p0 p1 p1 ..]
 *   V_SWAP_PAIRS(v)        [v1 v0 v3 v2 ..]
 *   V_ALT_SIGN             [-0 +0 -0 +0 ..]
 *   V_KEEP(v)              pins v in a register (an empty asm statement)
 *   NCS                    vectors of c and s the body keeps in registers
 *                          (16 with AVX-512's 32 registers, 8 with AVX2's 16)
 *   V_LD_MASK(p)           VW uint32 masks at p (0 or all ones), as a VF
 *   V_SEL(m, a, b)         b where m is all ones, else a (bits copied)
 *   SELECT_NAME            the M-RoPE row select's name (posenc__select_fn)
 *   VI, V_LD_U32, V_ST_U32 optional (AVX2): bfloat16 pairs as VW 32-bit lanes;
 *   V_BF16_EVEN/ODD(u)     the floats of each lane's low / high element;
 *   V_BF16_ROUND(v)        v rounded to bfloat16 in each lane's upper half;
 *   V_BF16_MERGE(re, ro)   lanes of two rounded vectors: re's result low,
 *                          ro's high (the BF16 pair path below)
 *   HEADS_NAME             the function's name
 *
 * Per pair (x, y), with s negated for the inverse (negation is exact):
 *   half-split   x' = x*c - y*s,  y' = x*s + y*c        (c, s loaded as is)
 *   interleaved  v' = v*[c c] + swap(v)*[-s s]   ([c c], [-s s] built once
 *                                                   per call for all heads)
 *                element 2k:   x*c + y*(-s) == x*c - y*s (IEEE a+(-b) == a-b)
 *                element 2k+1: y*c + x*s    == x*s + y*c (addition commutes)
 * so every result is bit-identical to posenc__rotate_f32. No FMA anywhere.
 */

/* Optimised builds inline these into each (storage type, layout) copy of
 * HEADS_NAME below, so every copy is specialised for its constants. Without
 * optimisation (-O0: coverage and debugging builds) they stay plain calls:
 * the same operations in the same order, and gcov then sees each test of dt
 * and layout as the run-time branch it is, rather than twelve inlined copies
 * in which the constant makes one side unreachable. */
#ifdef __OPTIMIZE__
#define BODY_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define BODY_ALWAYS_INLINE static inline
#endif

BODY_ALWAYS_INLINE VF body_ld(int dt, const void *p, size_t i)
{
    if (dt == POSENC_DTYPE_F32)
        return V_LD_F32((const float *)p + i);
    if (dt == POSENC_DTYPE_BF16)
        return V_LD_BF16((const uint16_t *)p + i);
    return V_LD_F16((const uint16_t *)p + i);
}

BODY_ALWAYS_INLINE void body_st(int dt, void *p, size_t i, VF v)
{
    if (dt == POSENC_DTYPE_F32)
        V_ST_F32((float *)p + i, v);
    else if (dt == POSENC_DTYPE_BF16)
        V_ST_BF16((uint16_t *)p + i, v);
    else
        V_ST_F16((uint16_t *)p + i, v);
}

/* One head with every pair's c and s (half) or [c c], [-s s] (interleaved)
 * already in registers (at most CH_PAIRS pairs): one load and one store per
 * data vector. V_KEEP pins each loaded vector in a register;
 * without it the compilers fold both of its uses (the product and the lane
 * swap, or the two products) into memory operands and load it twice. That
 * second load, and the loads of [c c] and [-s s] per vector, are what held
 * the interleaved body back on Zen 4 (one 512-bit load per cycle): four
 * 512-bit loads per vector against half's two (bench/NOTES.md, "Both
 * layouts at the memory floor"). */
#define CH_VECS (NCS / 2)           /* data vectors per head and chunk, each layout */
#define CH_PAIRS (CH_VECS * VW / 2) /* interleaved: VW/2 pairs per vector; half: the
                                       chunk's CH_VECS vectors are CH_VECS/2 of x and
                                       CH_VECS/2 of y, VW pairs each */
#define IL_STEP(i)                                                                         \
    do {                                                                                   \
        VF v_ = body_ld(dt, sp, 2 * k0 + (i) * VW);                                        \
        V_KEEP(v_);                                                                        \
        body_st(dt, dp, 2 * k0 + (i) * VW,                                                 \
                V_ADD(V_MUL(v_, cc[i]), V_MUL(V_SWAP_PAIRS(v_), ss[i])));                  \
    } while (0)
#define HALF_STEP(i)                                                                       \
    do {                                                                                   \
        VF x_ = body_ld(dt, sp, k0 + (i) * VW), y_ = body_ld(dt, sp, k0 + P + (i) * VW);   \
        V_KEEP(x_);                                                                        \
        V_KEEP(y_);                                                                        \
        body_st(dt, dp, k0 + (i) * VW, V_SUB(V_MUL(x_, cc[i]), V_MUL(y_, ss[i])));         \
        body_st(dt, dp, k0 + P + (i) * VW, V_ADD(V_MUL(x_, ss[i]), V_MUL(y_, cc[i])));     \
    } while (0)

#ifdef V_BF16_EVEN
/* bfloat16 without unpacking and packing 16-bit elements: a 32-bit lane
 * holds two neighbouring elements, so one load gives the floats of the even
 * elements (V_BF16_EVEN) and of the odd ones (V_BF16_ODD) with one integer
 * operation each, and one store takes both back (V_BF16_MERGE), where the
 * widening and narrowing shuffles of V_LD_BF16 / V_ST_BF16 cost four per
 * VW elements. Interleaved: even and odd are x and y of the pairs, c and s
 * as given. Half: x[k..k+2VW) and y[k..k+2VW) split the same way, so the
 * pairs' c and s are split into even and odd once per call. The arithmetic
 * per pair is the body's (x*c - y*s, x*s + y*c, s negated for the inverse)
 * and the rounding is V_ST_BF16's: the same bits. Needs P a multiple of VW
 * (interleaved) or 2 VW (half). */
BODY_ALWAYS_INLINE int bf16_pairs_fit(int layout, size_t P)
{
    return layout == POSENC_LAYOUT_HALF ? P % (2 * VW) == 0 : P % VW == 0;
}

static void bf16_pairs(int layout, size_t P, const float *c, const float *s, VF neg,
                       const void *src, size_t src_hs, void *dst, size_t dst_hs, size_t n_head)
{
    if (layout == POSENC_LAYOUT_INTERLEAVED) {
        for (size_t h = 0; h < n_head; h++) {
            const uint16_t *sp = (const uint16_t *)src + h * src_hs;
            uint16_t *dp = (uint16_t *)dst + h * dst_hs;
            for (size_t k = 0; k < P; k += VW) {
                VI u = V_LD_U32(sp + 2 * k);
                VF x = V_BF16_EVEN(u), y = V_BF16_ODD(u);
                VF cv = V_LD_F32(c + k), sv = V_XOR(V_LD_F32(s + k), neg);
                VI rx = V_BF16_ROUND(V_SUB(V_MUL(x, cv), V_MUL(y, sv)));
                VI ry = V_BF16_ROUND(V_ADD(V_MUL(x, sv), V_MUL(y, cv)));
                V_ST_U32(dp + 2 * k, V_BF16_MERGE(rx, ry));
            }
        }
        return;
    }
    /* ce[m] = c[2m], co[m] = c[2m + 1] (and s, signed): element k + 2i of a
     * step at k is even lane i, whose pair's values are ce[k/2 + i] */
    float ce[POSENC_ROPE_MAX_HEAD_DIM / 4], co[POSENC_ROPE_MAX_HEAD_DIM / 4];
    float se[POSENC_ROPE_MAX_HEAD_DIM / 4], so[POSENC_ROPE_MAX_HEAD_DIM / 4];
    float sn[POSENC_ROPE_MAX_HEAD_DIM / 2];
    for (size_t k = 0; k < P; k += VW)
        V_ST_F32(sn + k, V_XOR(V_LD_F32(s + k), neg));
    for (size_t m = 0; m < P / 2; m++) {
        ce[m] = c[2 * m];
        co[m] = c[2 * m + 1];
        se[m] = sn[2 * m];
        so[m] = sn[2 * m + 1];
    }
    for (size_t h = 0; h < n_head; h++) {
        const uint16_t *sp = (const uint16_t *)src + h * src_hs;
        uint16_t *dp = (uint16_t *)dst + h * dst_hs;
        for (size_t k = 0; k < P; k += 2 * VW) {
            VI ux = V_LD_U32(sp + k), uy = V_LD_U32(sp + P + k);
            VF xe = V_BF16_EVEN(ux), xo = V_BF16_ODD(ux);
            VF ye = V_BF16_EVEN(uy), yo = V_BF16_ODD(uy);
            VF cE = V_LD_F32(ce + k / 2), cO = V_LD_F32(co + k / 2);
            VF sE = V_LD_F32(se + k / 2), sO = V_LD_F32(so + k / 2);
            /* the x results stored before the y ones are rounded: fewer
             * live vectors than AVX2's 16 registers would otherwise need */
            VI re = V_BF16_ROUND(V_SUB(V_MUL(xe, cE), V_MUL(ye, sE)));
            VI ro = V_BF16_ROUND(V_SUB(V_MUL(xo, cO), V_MUL(yo, sO)));
            V_ST_U32(dp + k, V_BF16_MERGE(re, ro));
            re = V_BF16_ROUND(V_ADD(V_MUL(xe, sE), V_MUL(ye, cE)));
            ro = V_BF16_ROUND(V_ADD(V_MUL(xo, sO), V_MUL(yo, cO)));
            V_ST_U32(dp + P + k, V_BF16_MERGE(re, ro));
        }
    }
}
#endif

/* Interleaved: [c0 c0 c1 c1 ..] and [-s0 s0 -s1 s1 ..] (s negated for the
 * inverse) once per call, so that the loop over heads does one in-lane
 * swap per vector instead of three permutes (the swap, and the
 * duplication of c and of s): the interleaved layout's extra work next
 * to half. */
BODY_ALWAYS_INLINE void il_dup(size_t P, const float *c, const float *s, VF neg, float *cdup,
                               float *sdup)
{
    VF sgn = V_XOR(V_ALT_SIGN, neg);
    for (size_t k = 0; k + VW / 2 <= P; k += VW / 2) {
        V_ST_F32(cdup + 2 * k, V_DUP_PAIRS(c + k));
        V_ST_F32(sdup + 2 * k, V_XOR(V_DUP_PAIRS(s + k), sgn));
    }
}

/* Every pair's c and s in registers (nv vectors of c, or of [c c]; at most
 * CH_VECS): loaded once for all heads, then one load and one store per
 * data vector of each head. */
BODY_ALWAYS_INLINE void heads_in_regs(int dt, int layout, size_t P, size_t nv, const float *c,
                                      const float *s, VF neg, const float *cdup,
                                      const float *sdup, const void *src, size_t src_hs,
                                      void *dst, size_t dst_hs, size_t n_head)
{
    size_t es = posenc__dtype_size(dt);
    const size_t k0 = 0;
    VF zero = V_SET1(0.0f);
    VF cc[CH_VECS], ss[CH_VECS]; /* constant indices only: registers */
    if (layout == POSENC_LAYOUT_HALF) {
#define HALF_CS(i)                                                                         \
    (cc[i] = nv > (i) ? V_LD_F32(c + (i) * VW) : zero,                                     \
     ss[i] = nv > (i) ? V_XOR(V_LD_F32(s + (i) * VW), neg) : zero)
        HALF_CS(0);
        HALF_CS(1);
#if CH_VECS > 4
        HALF_CS(2);
        HALF_CS(3);
#endif
#undef HALF_CS
    } else {
#define IL_CS(i)                                                                           \
    (cc[i] = nv > (i) ? V_LD_F32(cdup + (i) * VW) : zero,                                  \
     ss[i] = nv > (i) ? V_LD_F32(sdup + (i) * VW) : zero)
        IL_CS(0);
        IL_CS(1);
        IL_CS(2);
        IL_CS(3);
#if CH_VECS > 4
        IL_CS(4);
        IL_CS(5);
        IL_CS(6);
        IL_CS(7);
#endif
#undef IL_CS
    }
    for (size_t h = 0; h < n_head; h++) {
        const char *sp = (const char *)src + h * src_hs * es;
        char *dp = (char *)dst + h * dst_hs * es;
        if (layout == POSENC_LAYOUT_HALF) {
            HALF_STEP(0);
            if (nv > 1)
                HALF_STEP(1);
#if CH_VECS > 4
            if (nv > 2)
                HALF_STEP(2);
            if (nv > 3)
                HALF_STEP(3);
#endif
        } else {
            IL_STEP(0);
            if (nv > 1)
                IL_STEP(1);
            if (nv > 2)
                IL_STEP(2);
            if (nv > 3)
                IL_STEP(3);
#if CH_VECS > 4
            if (nv > 4)
                IL_STEP(4);
            if (nv > 5)
                IL_STEP(5);
            if (nv > 6)
                IL_STEP(6);
            if (nv > 7)
                IL_STEP(7);
#endif
        }
    }
}

/* Head by head, c and s (or [c c], [-s s]) loaded with the data; the pairs
 * past the last whole vector one at a time (posenc__pairs_scalar). */
BODY_ALWAYS_INLINE void heads_from_memory(int dt, int layout, size_t P, const float *c,
                                          const float *s, int inverse, VF neg,
                                          const float *cdup, const float *sdup, const void *src,
                                          size_t src_hs, void *dst, size_t dst_hs,
                                          size_t n_head)
{
    size_t es = posenc__dtype_size(dt);
    for (size_t h = 0; h < n_head; h++) {
        const char *sp = (const char *)src + h * src_hs * es;
        char *dp = (char *)dst + h * dst_hs * es;
        size_t k = 0;
        if (layout == POSENC_LAYOUT_HALF) {
            /* pairs (h[k], h[k+P]): VW pairs per step */
            for (; k + VW <= P; k += VW) {
                VF cv = V_LD_F32(c + k), sv = V_XOR(V_LD_F32(s + k), neg);
                VF x = body_ld(dt, sp, k), y = body_ld(dt, sp, k + P);
                V_KEEP(x);
                V_KEEP(y);
                VF o0 = V_SUB(V_MUL(x, cv), V_MUL(y, sv));
                VF o1 = V_ADD(V_MUL(x, sv), V_MUL(y, cv));
                body_st(dt, dp, k, o0);
                body_st(dt, dp, k + P, o1);
            }
        } else {
            /* pairs (h[2k], h[2k+1]): VW/2 pairs per step, with c and the
             * signed s already duplicated for every head of the call; four
             * vectors per step while they last */
#define IL_MEM(i)                                                                          \
    do {                                                                                   \
        VF v_ = body_ld(dt, sp, 2 * k + (i) * VW);                                         \
        V_KEEP(v_);                                                                        \
        body_st(dt, dp, 2 * k + (i) * VW,                                                  \
                V_ADD(V_MUL(v_, V_LD_F32(cdup + 2 * k + (i) * VW)),                        \
                      V_MUL(V_SWAP_PAIRS(v_), V_LD_F32(sdup + 2 * k + (i) * VW))));        \
    } while (0)
            for (; k + 2 * VW <= P; k += 2 * VW) {
                IL_MEM(0);
                IL_MEM(1);
                IL_MEM(2);
                IL_MEM(3);
            }
            for (; k + VW / 2 <= P; k += VW / 2)
                IL_MEM(0);
#undef IL_MEM
        }
        posenc__pairs_scalar(dt, layout, P, k, c, s, inverse, sp, dp);
    }
}

BODY_ALWAYS_INLINE void body_heads(int dt, int layout, size_t P, const float *c, const float *s,
                                   int inverse, const void *src, size_t src_hs, void *dst,
                                   size_t dst_hs, size_t n_head)
{
    VF neg = V_SET1(inverse ? -0.0f : 0.0f);
#ifdef V_BF16_EVEN
    if (dt == POSENC_DTYPE_BF16 && bf16_pairs_fit(layout, P)) {
        bf16_pairs(layout, P, c, s, neg, src, src_hs, dst, dst_hs, n_head);
        return;
    }
#endif
    float cdup[POSENC_ROPE_MAX_HEAD_DIM], sdup[POSENC_ROPE_MAX_HEAD_DIM];
    if (layout == POSENC_LAYOUT_INTERLEAVED)
        il_dup(P, c, s, neg, cdup, sdup);
    /* Every pair's c and s fit in registers, in whole vectors (head_dim 32,
     * 48, 64, 96, 128 with AVX-512, interleaved also 80 and 112; 16 and 32
     * with AVX2): c and s loaded once for all heads, one load and one store
     * per data vector. nv: vectors of c (half) or of [c c] (interleaved),
     * 0 when P does not fill whole vectors or needs more than the registers.
     * (Going over the heads once per chunk of pairs instead, to hold more
     * pairs than fit, cost 1.7-2x at memory speed on Zen 3: bench/NOTES.md.) */
    size_t nv = layout == POSENC_LAYOUT_HALF ? (P % VW == 0 && P / VW <= CH_VECS / 2 ? P / VW : 0)
                                             : (P % (VW / 2) == 0 && 2 * P / VW <= CH_VECS
                                                    ? 2 * P / VW
                                                    : 0);
    if (nv)
        heads_in_regs(dt, layout, P, nv, c, s, neg, cdup, sdup, src, src_hs, dst, dst_hs,
                      n_head);
    else
        heads_from_memory(dt, layout, P, c, s, inverse, neg, cdup, sdup, src, src_hs, dst,
                          dst_hs, n_head);
}
#undef IL_STEP
#undef HALF_STEP

void HEADS_NAME(int dt, int layout, size_t P, const float *c, const float *s, int inverse,
                const void *src, size_t src_hs, void *dst, size_t dst_hs, size_t n_head)
{
    /* One specialised copy per (storage type, layout). */
#define BODY_CASE(DT)                                                                      \
    if (layout == POSENC_LAYOUT_HALF)                                                      \
        body_heads(DT, POSENC_LAYOUT_HALF, P, c, s, inverse, src, src_hs, dst, dst_hs, n_head); \
    else                                                                                   \
        body_heads(DT, POSENC_LAYOUT_INTERLEAVED, P, c, s, inverse, src, src_hs, dst, dst_hs,  \
                   n_head);
    if (dt == POSENC_DTYPE_F32) {
        BODY_CASE(POSENC_DTYPE_F32)
    } else if (dt == POSENC_DTYPE_BF16) {
        BODY_CASE(POSENC_DTYPE_BF16)
    } else {
        BODY_CASE(POSENC_DTYPE_F16)
    }
#undef BODY_CASE
}

/* M-RoPE's row of a vision token: three rows, two masks, VW floats at a time
 * (posenc__select_fn). Whole-vector stores, so that the heads body's loads
 * of the row that follow are forwarded from them, not held up behind 2P
 * scalar stores. */
void SELECT_NAME(size_t n, const float *t, const float *h, const float *w, const uint32_t *mh,
                 const uint32_t *mw, float *out)
{
    size_t i = 0;
    for (; i + VW <= n; i += VW)
        V_ST_F32(out + i, V_SEL(V_LD_MASK(mw + i),
                                V_SEL(V_LD_MASK(mh + i), V_LD_F32(t + i), V_LD_F32(h + i)),
                                V_LD_F32(w + i)));
    posenc__select_tail(i, n, t, h, w, mh, mw, out);
}
