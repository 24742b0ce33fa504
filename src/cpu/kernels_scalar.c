/* kernels_scalar.c - the tensor kernel body in plain C, the instruction
 * set every machine has. Beside kernels_avx2.c and kernels_avx512.c, it
 * is reached only through the CPU layer's table (cpu.c), so that cpu.c and
 * the tensor calls (src/tensor/kernels.c) depend on it and it on neither. */
#include "pairs.h"

/* ---- plain C body --------------------------------------------------------- */

void posenc__heads_scalar(int dt, int layout, size_t P, const float *c, const float *s,
                          int inverse, const void *src, size_t src_hs, void *dst, size_t dst_hs,
                          size_t n_head)
{
    size_t es = posenc__dtype_size(dt);
    for (size_t h = 0; h < n_head; h++)
        posenc__pairs_scalar(dt, layout, P, 0, c, s, inverse,
                             (const char *)src + h * src_hs * es, (char *)dst + h * dst_hs * es);
}

/* M-RoPE's row select (kernels_body.h's vector one, element by element). */
void posenc__select_scalar(size_t n, const float *t, const float *h, const float *w,
                           const uint32_t *mh, const uint32_t *mw, float *out)
{
    posenc__select_tail(0, n, t, h, w, mh, mw, out);
}
