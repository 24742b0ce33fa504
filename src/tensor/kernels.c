/* kernels.c - RoPE over whole q/k tensors: argument checks and the
 * per-token loop (cos/sin from the cache or filled once per run of
 * positions). The single-vector reference posenc_rope_vec_f32 is
 * src/math/rope_vec.c; the bodies (kernels_scalar.c, kernels_avx512.c,
 * kernels_avx2.c), their choice and the threads are the CPU layer's
 * (src/cpu/cpu.c). */
#include "kernels.h"

#include <stdatomic.h>
#include <stdint.h>

/* ---- argument checks ------------------------------------------------------ */

static int mul_ovf(size_t a, size_t b, size_t *out)
{
    if (b && a > SIZE_MAX / b)
        return 1;
    *out = a * b;
    return 0;
}

static int add_ovf(size_t a, size_t b, size_t *out)
{
    if (a > SIZE_MAX - b)
        return 1;
    *out = a + b;
    return 0;
}

/* The strided view of n_tok x n_head heads of hd elements of es bytes: its
 * extent must fit in a ptrdiff_t, and no head may overlap another head or
 * the next token in the stated order, whatever n_tok is:
 *   tokens outer  hs >= hd (n_head > 1), ts >= (n_head - 1) hs + hd
 *   heads outer   ts >= hd, hs >= (n_tok - 1) ts + hd (n_head > 1) */
static posenc_status check_strides(posenc_view_order order, size_t n_tok, size_t n_head, size_t hd,
                                   size_t es, size_t ts, size_t hs)
{
    size_t a, b, ext, bytes;
    if (mul_ovf(n_tok - 1, ts, &a) || mul_ovf(n_head - 1, hs, &b) || add_ovf(a, b, &ext) ||
        add_ovf(ext, hd, &ext) || mul_ovf(ext, es, &bytes) || bytes > (size_t)PTRDIFF_MAX)
        return POSENC_ERR_OVERFLOW;
    int ok;
    if (order == POSENC_TOKENS_OUTER) /* one token's heads fit in tok_stride */
        ok = (n_head == 1 || hs >= hd) && ts >= b + hd;
    else /* one head's tokens fit in head_stride */
        ok = ts >= hd && (n_head == 1 || hs >= a + hd);
    return ok ? POSENC_OK : POSENC_ERR_RANGE;
}

/* A view resolved for the loop: the tensor type of kernels.h. */

static int order_ok(posenc_view_order o)
{
    return o == POSENC_TOKENS_OUTER || o == POSENC_HEADS_OUTER;
}

int posenc__view_absent(const posenc_rope_view *v)
{
    return !v->dst && v->n_head == 0;
}

/* Checks view v (absent: *t zeroed) of n_tok tokens of heads of hd
 * elements of es bytes and resolves it into *t (the checks and errors of
 * posenc_rope_qk's views). */
static posenc_status check_view(const posenc_rope_view *v, size_t n_tok, size_t hd, size_t es,
                                tensor *t)
{
    memset(t, 0, sizeof *t);
    if (posenc__view_absent(v))
        return POSENC_OK;
    if (!v->dst)
        return POSENC_ERR_NULL;
    if (v->n_head == 0)
        return POSENC_ERR_RANGE;
    if (!order_ok(v->order) || (v->src && v->src != v->dst && !order_ok(v->src_order)))
        return POSENC_ERR_RANGE;
    posenc_status st =
        check_strides(v->order, n_tok, v->n_head, hd, es, v->tok_stride, v->head_stride);
    if (st != POSENC_OK)
        return st;
    t->dst = v->dst;
    t->n_head = v->n_head;
    t->dst_ts = v->tok_stride;
    t->dst_hs = v->head_stride;
    t->in_place = !v->src || v->src == v->dst;
    if (!t->in_place) {
        st = check_strides(v->src_order, n_tok, v->n_head, hd, es, v->src_tok_stride,
                           v->src_head_stride);
        if (st != POSENC_OK)
            return st;
    }
    /* in place, the source is the destination, strides and all */
    t->src = t->in_place ? v->dst : v->src;
    t->src_ts = t->in_place ? v->tok_stride : v->src_tok_stride;
    t->src_hs = t->in_place ? v->head_stride : v->src_head_stride;
    return POSENC_OK;
}

/* Whether cache c was built from r's frequencies, rotary_dim and attn_factor. */
static int cache_matches(const posenc_rope_cache *c, const posenc_rope *r)
{
    size_t P = r->rotary_dim / 2;
    return c->magic == POSENC__CACHE_MAGIC && c->n_pairs == P &&
           c->attn_factor == r->attn_factor &&
           memcmp(c->inv_freq_hi, r->inv_freq_hi, P * sizeof(double)) == 0 &&
           memcmp(c->inv_freq_lo, r->inv_freq_lo, P * sizeof(double)) == 0;
}

posenc_status posenc__qk_begin(int isa, const posenc_rope_qk_args *a, posenc_pool *pool,
                               atomic_int *bad, qk_call *c)
{
    const posenc_rope *r = a->rope;
    posenc_dtype dtype = a->dtype;
    unsigned n_threads = a->n_threads ? a->n_threads : 1;
    if (dtype != POSENC_DTYPE_F32 && dtype != POSENC_DTYPE_BF16 && dtype != POSENC_DTYPE_F16)
        return POSENC_ERR_RANGE;
    if (!posenc__direction_ok(a->direction))
        return POSENC_ERR_RANGE;
    if (a->n_tok == 0 || n_threads > POSENC_MAX_THREADS)
        return POSENC_ERR_RANGE;
    if (isa < 0 || isa >= POSENC__ISA_N || !posenc__isa_available(isa))
        return POSENC_ERR_RANGE;
    if (pool) /* the pool's threads: all of them for n_threads 0 */
        n_threads = a->n_threads && a->n_threads < posenc__pool_threads(pool)
                        ? a->n_threads
                        : posenc__pool_threads(pool);
    memset(c, 0, sizeof *c);
    c->ops = *posenc__isa_ops_of(isa);
    c->r = r;
    c->cache = a->cache;
    c->dt = (int)dtype;
    c->layout = (int)r->layout;
    c->inverse = a->direction == POSENC_INVERSE;
    c->P = r->rotary_dim / 2;
    c->head_dim = r->head_dim;
    c->n_threads = n_threads;
    c->bad = bad;
    size_t es = posenc__dtype_size(c->dt);
    posenc_status st;
    if ((st = check_view(&a->q, a->n_tok, r->head_dim, es, &c->t[0])) != POSENC_OK ||
        (st = check_view(&a->k, a->n_tok, r->head_dim, es, &c->t[1])) != POSENC_OK)
        return st;
    if (a->cache && !cache_matches(a->cache, r))
        return POSENC_ERR_RANGE;
    c->limit = a->cache ? a->cache->max_pos - 1 : POSENC_MAX_POS;
    return POSENC_OK;
}

posenc_status posenc__qk_go(const qk_call *c, size_t n_tok, posenc_pool *pool, size_t min_elems,
                            posenc__range_fn fn, const void *job)
{
    /* threads: only for enough work, never more than tokens */
    size_t elems = n_tok * (c->t[0].n_head + c->t[1].n_head) * c->head_dim; /* fits: checked */
    size_t nt = posenc__threads_for(n_tok, elems, c->n_threads, min_elems);
    posenc__pool_range(pool, n_tok, nt, fn, job); /* NULL: threads of the call */
    return atomic_load(c->bad) ? POSENC_ERR_POS : POSENC_OK;
}

/* ---- the per-token loop ----------------------------------------------------- */

typedef struct job {
    qk_call c;
    const int64_t *pos; /* NULL: the run pos0, pos0 + 1, ... */
    int64_t pos0;
} job;

/* Token t's position, read once; -1 (after flagging the call) when it is
 * outside [0, limit]: it changed since the check, and the token is skipped. */
static int64_t pos_of(const job *j, size_t t)
{
    if (!j->pos)
        return j->pos0 + (int64_t)t; /* a run: checked whole before */
    int64_t p = posenc__pos_read(j->pos, t);
    if (posenc__pos_in(p, j->c.limit))
        return p;
    atomic_store_explicit(j->c.bad, 1, memory_order_relaxed);
    return -1;
}

size_t posenc__pos_runs(const int64_t *pos, size_t n, size_t *ridx, int64_t *p0, size_t *len)
{
    size_t n_run = 0, nrow = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t p = pos[i];
        if (p < 0)
            continue;
        size_t k = n_run - 1; /* the current run, when n_run > 0 */
        if (n_run && p == p0[k] + (int64_t)len[k] - 1) { /* the previous row */
            ridx[i] = nrow - 1;
            continue;
        }
        if (n_run && p == p0[k] + (int64_t)len[k]) {
            len[k]++;
        } else {
            p0[n_run] = p;
            len[n_run++] = 1;
        }
        ridx[i] = nrow++;
    }
    return n_run;
}

void posenc__qk_token(const qk_call *c, size_t t, const float *row)
{
    size_t es = posenc__dtype_size(c->dt), P = c->P;
    for (int i = 0; i < 2; i++) {
        const tensor *v = &c->t[i];
        if (!v->n_head)
            continue;
        const char *sp = v->src + t * v->src_ts * es;
        char *dp = v->dst + t * v->dst_ts * es;
        c->ops.heads(c->dt, c->layout, P, row, row + P, c->inverse, sp, v->src_hs, dp, v->dst_hs,
                     v->n_head);
        if (!v->in_place && c->head_dim > 2 * P) /* pass-through elements */
            for (size_t h = 0; h < v->n_head; h++)
                memcpy(dp + (h * v->dst_hs + 2 * P) * es, sp + (h * v->src_hs + 2 * P) * es,
                       (c->head_dim - 2 * P) * es);
    }
}

/* Stack scratch of the no-cache path: up to SCRATCH_ROWS rows of 2P floats. */
#define SCRATCH_FLOATS 8192u
#define SCRATCH_ROWS 64u
/* A range of at least this many tokens computes the fill's T(j) rows once
 * (posenc__fill_t_fn) instead of once per block of rows: every block of
 * SCRATCH_ROWS tokens would compute all POSENC__FILL_ANCHOR_EVERY of them
 * again (a sincos per pair and row: about as much as the block's rows). */
#define T_ONCE_MIN_TOKENS (2u * SCRATCH_ROWS)

/* The block fill of run [p0, p0 + len) into rows of scratch: with the T rows
 * of the range when it has them (tc != NULL), else the plain fill. */
static void fill_run(const job *j, const double *tc, const double *ts, int64_t p0, size_t len,
                     float *rows)
{
    const posenc_rope *r = j->c.r;
    size_t P = j->c.P, row = 2 * P;
    if (tc)
        j->c.ops.fill_t(p0, len, r->inv_freq_hi, r->inv_freq_lo, P, r->attn_factor, tc, ts,
                  POSENC__FILL_T_PAIRS, rows, rows + P, row, POSENC__FILL_SPLIT);
    else
        j->c.ops.fill(p0, len, r->inv_freq_hi, r->inv_freq_lo, P, r->attn_factor, rows, rows + P,
                      row, POSENC__FILL_SPLIT);
}

/* Tokens [t0, t1) of both tensors. Each position is read once (pos_of) and
 * only that value is used. */
static void run_range(const void *arg, size_t t0, size_t t1)
{
    const job *j = arg;
    size_t P = j->c.P, row = 2 * P;
    if (j->c.cache) {
        for (size_t t = t0; t < t1; t++) {
            int64_t p = pos_of(j, t);
            if (p >= 0)
                posenc__qk_token(&j->c, t, j->c.cache->table + (size_t)p * row);
        }
        return;
    }
    /* Blocks of tokens; in each, runs of consecutive positions are filled
     * with one call (a token at the same position as the previous one shares
     * its row), then every head of q and k of each token uses its row. */
    float scratch[SCRATCH_FLOATS];
    size_t ridx[SCRATCH_ROWS];
    int64_t pv[SCRATCH_ROWS]; /* the block's positions as read; -1: skipped */
    int64_t run_p0[SCRATCH_ROWS];
    size_t run_len[SCRATCH_ROWS];
    size_t B = SCRATCH_FLOATS / row < SCRATCH_ROWS ? SCRATCH_FLOATS / row : SCRATCH_ROWS;
    /* T(j) = cos jf + i sin jf, j < POSENC__FILL_ANCHOR_EVERY, for the whole
     * range when it is long enough and each row fits one strip */
    double tcs[2][POSENC__FILL_ANCHOR_EVERY][POSENC__FILL_T_PAIRS];
    const double *tc = NULL, *ts = NULL;
    if (t1 - t0 >= T_ONCE_MIN_TOKENS && P <= POSENC__FILL_T_PAIRS) {
        for (int64_t q = 0; q < POSENC__FILL_ANCHOR_EVERY; q++)
            j->c.ops.sincos(q, j->c.r->inv_freq_hi, j->c.r->inv_freq_lo, P, tcs[1][q], tcs[0][q]);
        tc = &tcs[0][0][0];
        ts = &tcs[1][0][0];
    }
    for (size_t t = t0; t < t1;) {
        size_t n = t1 - t < B ? t1 - t : B;
        for (size_t i = 0; i < n; i++)
            pv[i] = pos_of(j, t + i);
        size_t n_run = posenc__pos_runs(pv, n, ridx, run_p0, run_len);
        for (size_t k = 0, r0 = 0; k < n_run; r0 += run_len[k++])
            fill_run(j, tc, ts, run_p0[k], run_len[k], scratch + r0 * row);
        for (size_t i = 0; i < n; i++)
            if (pv[i] >= 0)
                posenc__qk_token(&j->c, t + i, scratch + ridx[i] * row);
        t += n;
    }
}

posenc_status posenc__rope_qk_run(int isa, const posenc_rope_qk_args *a, posenc_pool *pool,
                                  size_t min_elems)
{
    if (!a || !a->rope || (posenc__view_absent(&a->q) && posenc__view_absent(&a->k)))
        return POSENC_ERR_NULL;
    posenc_status st = posenc__rope_check(a->rope);
    if (st != POSENC_OK)
        return st;
    job j;
    atomic_int bad = 0;
    if ((st = posenc__qk_begin(isa, a, pool, &bad, &j.c)) != POSENC_OK)
        return st;
    j.pos = a->pos;
    j.pos0 = a->pos0;

    /* positions: all valid, and inside the cache */
    size_t n_tok = a->n_tok;
    int64_t limit = j.c.limit, pos0 = a->pos0;
    if (a->pos) {
        if (pos0 != 0)
            return POSENC_ERR_RANGE;
        for (size_t t = 0; t < n_tok; t++)
            if (!posenc__pos_in(posenc__pos_read(a->pos, t), limit))
                return POSENC_ERR_POS;
    } else if (pos0 < 0 || pos0 > limit || n_tok - 1 > (uint64_t)(limit - pos0)) {
        return POSENC_ERR_POS;
    }
    return posenc__qk_go(&j.c, n_tok, pool, min_elems, run_range, &j);
}

posenc_status posenc__rope_qk_isa(int isa, const posenc_rope_qk_args *a)
{
    return posenc__rope_qk_run(isa, a, NULL, posenc__min_elems(NULL));
}

posenc_status posenc_rope_qk_pool(const posenc_rope_qk_args *a, posenc_pool *pool)
{
    return posenc__rope_qk_run(posenc__isa_selected(), a, pool, posenc__min_elems(pool));
}

posenc_status posenc_rope_qk(const posenc_rope_qk_args *a)
{
    return posenc_rope_qk_pool(a, NULL);
}

posenc_rope_view posenc_rope_view_dense(void *data, uint32_t n_head, uint32_t head_dim)
{
    posenc_rope_view v = {.dst = data,
                          .n_head = n_head,
                          .tok_stride = (size_t)n_head * head_dim,
                          .head_stride = head_dim,
                          .order = POSENC_TOKENS_OUTER};
    return v;
}

/* ---- decode: one token, dense heads ------------------------------------------ */

posenc_status posenc_rope_decode_f32(const posenc_rope *r, const posenc_rope_cache *cache,
                                     int64_t pos, float *q, uint32_t n_q_head, float *k,
                                     uint32_t n_k_head)
{
    if (!r)
        return POSENC_ERR_NULL;
    posenc_rope_qk_args a = {.rope = r,
                             .cache = cache,
                             .dtype = POSENC_DTYPE_F32,
                             .n_tok = 1,
                             .pos0 = pos,
                             .q = posenc_rope_view_dense(q, n_q_head, r->head_dim),
                             .k = posenc_rope_view_dense(k, n_k_head, r->head_dim),
                             .direction = POSENC_FORWARD};
    return posenc_rope_qk(&a);
}
