/*
 * kernels.h - shared by the tensor calls (src/tensor): the q/k kernels
 * (kernels.c), M-RoPE's (mrope.c) and the cos/sin cache (cache.c), with
 * their test hooks. The per-instruction-set bodies they run are the CPU
 * layer's (src/cpu: cpu.h, pairs.h). Not installed.
 */
#ifndef POSENC_KERNELS_H
#define POSENC_KERNELS_H

#include "cpu.h"
#include "internal.h"
#include "pairs.h"

#include <stdatomic.h>
#include <string.h>

/* The cache object: a copy of what identifies the frequencies, then
 * max_pos rows of 2P floats: c[0..P) followed by s[0..P) (forward sign). */
#define POSENC__CACHE_MAGIC 0x52504f50454e4331ull
struct posenc_rope_cache {
    uint64_t magic;
    int64_t max_pos;
    uint32_t n_pairs;  /* P = rotary_dim / 2 */
    int owned;         /* 1: from posenc_rope_cache_create (free releases it) */
    double attn_factor;
    double inv_freq_hi[POSENC_ROPE_MAX_HEAD_DIM / 2];
    double inv_freq_lo[POSENC_ROPE_MAX_HEAD_DIM / 2];
    float *table;      /* 64-byte aligned, inside the same allocation */
};

/* Test hook: posenc_rope_qk on an explicit instruction set (the rotation
 * and the cos/sin fill both; the public call uses the chosen one). */
posenc_status posenc__rope_qk_isa(int isa, const posenc_rope_qk_args *a);

/* What the call above, posenc_rope_qk, posenc_mrope_qk and
 * posenc_rope_qk_pool / posenc_mrope_qk_pool run: on instruction set isa, on pool's threads (NULL: threads started in
 * the call), a thread only for min_elems elements of work or more
 * (posenc__threads_for; the public calls pass posenc__min_elems(pool):
 * POSENC__MIN_ELEMS_PER_THREAD, or POSENC__MIN_ELEMS_PER_POOL_THREAD with a
 * pool; tests pass less, to run threads on small tensors). */
posenc_status posenc__rope_qk_run(int isa, const posenc_rope_qk_args *a, posenc_pool *pool,
                                  size_t min_elems);
posenc_status posenc__mrope_qk_run(int isa, const posenc_mrope_qk_args *a, posenc_pool *pool,
                                   size_t min_elems);
static inline size_t posenc__min_elems(const posenc_pool *pool)
{
    return pool ? POSENC__MIN_ELEMS_PER_POOL_THREAD : POSENC__MIN_ELEMS_PER_THREAD;
}

/* ---- shared by the tensor calls (kernels.c, mrope_qk.c) ------------------- */

/* A view resolved for the loop: src == dst when in place; n_head 0 when
 * the view was NULL. */
typedef struct tensor {
    const char *src;
    char *dst;
    size_t n_head, src_ts, src_hs, dst_ts, dst_hs;
    int in_place;
} tensor;

/* A view with dst NULL and n_head 0: absent. */
int posenc__view_absent(const posenc_rope_view *v);

/* What a q/k call resolved from its arguments, read-only by its threads. */
typedef struct qk_call {
    posenc__isa_ops ops; /* the instruction set's functions */
    const posenc_rope *r;
    const posenc_rope_cache *cache; /* NULL: cos/sin filled in the call */
    int dt, layout, inverse;
    size_t P, head_dim;   /* P = rotary_dim / 2 */
    unsigned n_threads;   /* what the caller allows (a pool's threads with a pool) */
    int64_t limit;        /* positions used: [0, limit] */
    atomic_int *bad;      /* set when a position read at use is outside it */
    tensor t[2];          /* q, k */
} qk_call;

/* The checks posenc_rope_qk and posenc_mrope_qk share, once a->rope is
 * known valid and q or k present, in this order: dtype, direction, n_tok
 * and n_threads, isa (POSENC_ERR_RANGE), the views (the errors of
 * posenc_rope_qk's views), a cache not made for a->rope (POSENC_ERR_RANGE).
 * Fills *c, with bad as the call's flag (0). */
posenc_status posenc__qk_begin(int isa, const posenc_rope_qk_args *a, posenc_pool *pool,
                               atomic_int *bad, qk_call *c);

/* Runs fn(job, t0, t1) over the n_tok tokens of call c on pool (NULL:
 * threads of the call; a thread only for min_elems elements of work or
 * more); POSENC_ERR_POS when a position was found outside [0, limit] at
 * use (*c->bad), else POSENC_OK. */
posenc_status posenc__qk_go(const qk_call *c, size_t n_tok, posenc_pool *pool, size_t min_elems,
                            posenc__range_fn fn, const void *job);

/* Position t of a caller's array, read exactly once where it is used and
 * checked there: a position that changes during the call (another thread
 * writing it, or positions that alias q or k) can never index past what was
 * checked. A relaxed atomic load (a plain move on x86-64 and arm64) so that
 * the compiler cannot read the element a second time and ThreadSanitizer
 * sees what it is; volatile where the compiler has no such builtin. */
static inline int64_t posenc__pos_read(const int64_t *pos, size_t t)
{
#if defined(__GNUC__) || defined(__clang__)
    return __atomic_load_n(&pos[t], __ATOMIC_RELAXED);
#else
    return ((const volatile int64_t *)pos)[t];
#endif
}

/* Whether p is a position the call may use: 0 <= p <= limit. */
static inline int posenc__pos_in(int64_t p, int64_t limit)
{
    return p >= 0 && p <= limit;
}

/* Rotates token t of both tensors c->t[0] (q) and c->t[1] (k) with the row
 * c[0..P) s[0..P), by the heads body, and copies the pass-through elements
 * of an out-of-place view. */
void posenc__qk_token(const qk_call *c, size_t t, const float *row);

/* The rows of a block of n tokens at positions pos[0..n) (pos[i] < 0: token
 * i is skipped), one block fill per run of consecutive positions, a token at
 * the position of the previous row sharing it: run k is len[k] rows at
 * positions p0[k], p0[k] + 1, ..., right after the rows of run k - 1, and
 * ridx[i] = the row of token i. Returns the number of runs (at most n). */
size_t posenc__pos_runs(const int64_t *pos, size_t n, size_t *ridx, int64_t *p0, size_t *len);

#endif
