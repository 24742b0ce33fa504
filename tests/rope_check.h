/* rope_check.h - helpers of the tensor tests (kernels, cache, resources):
 * a posenc_rope that must build, and the check of every head of a rotated
 * [n_tok, n_head, head_dim] float tensor against the single-vector
 * reference posenc_rope_vec_f32, bit for bit. */
#ifndef POSENC_ROPE_CHECK_H
#define POSENC_ROPE_CHECK_H

#include "posenc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static posenc_rope make_rope(uint32_t head_dim, uint32_t rotary_dim, posenc_layout layout)
{
    posenc_rope r;
    posenc_status st = posenc_rope_init(&r, head_dim, rotary_dim, 10000.0, layout);
    if (st != POSENC_OK) {
        fprintf(stderr, "posenc_rope_init(%u, %u) failed: %s\n", head_dim, rotary_dim,
                posenc_strerror(st));
        exit(1);
    }
    return r;
}

/* Every head of a [n_tok, n_head, head_dim] float tensor x (rotated) against
 * posenc_rope_vec_f32 on the same head of x0 (the input), bit for bit. */
static int heads_match_reference(const posenc_rope *r, const float *x0, const float *x,
                                 size_t n_tok, size_t n_head, int64_t pos0, int inverse)
{
    size_t hd = r->head_dim;
    float ref[POSENC_ROPE_MAX_HEAD_DIM];
    for (size_t t = 0; t < n_tok; t++)
        for (size_t h = 0; h < n_head; h++) {
            const float *in = x0 + (t * n_head + h) * hd;
            memcpy(ref, in, hd * sizeof *ref);
            if (posenc_rope_vec_f32(r, pos0 + (int64_t)t,
                                    (inverse) ? POSENC_INVERSE : POSENC_FORWARD, ref) != POSENC_OK)
                return 0;
            if (memcmp(ref, x + (t * n_head + h) * hd, hd * sizeof *ref) != 0) {
                fprintf(stderr, "token %zu head %zu differs from posenc_rope_vec_f32\n", t, h);
                return 0;
            }
        }
    return 1;
}

#endif
