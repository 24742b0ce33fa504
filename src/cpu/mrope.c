/* mrope.c - multimodal RoPE (M-RoPE: Qwen2-VL, Qwen2.5-VL, Qwen3-VL) and
 * the vision tower's 2D RoPE: the pair-to-axis rules, the single-vector
 * references, the q/k tensor kernel, the position-id rule, and 2D RoPE as
 * M-RoPE with restarting frequencies (contract in posenc.h, last section).
 *
 * The tensor kernel builds each token's row c[0..P) s[0..P) from per-axis
 * values and hands it to the same per-ISA heads body as posenc_rope_qk:
 *   no cache: for each axis, the pairs that follow it (their frequencies
 *             gathered) are filled once per run of positions on that axis
 *             with the one cos/sin fill; each token's row gathers pair k
 *             from the row of axis(k). The fill's value of a (position,
 *             pair) does not depend on which other pairs are filled with
 *             it (fill_body.h: one lane per pair), so these are the bits of
 *             every other path.
 *   cache:    c[k], s[k] of row pos_axis(k) of the plain cache, picked by
 *             a vector select from the three rows (posenc__select_fn).
 * So posenc_mrope_qk equals posenc_mrope_vec_f32 bit for bit, whichever
 * instruction set, cache or thread count. */
#include "kernels.h"

#include <stdatomic.h>

/* ---- names and the pair-to-axis rules ------------------------------------- */

const char *posenc_mrope_axis_name(posenc_mrope_axis axis)
{
    static const char *const names[3] = {"t", "h", "w"};
    return (unsigned)axis < 3u ? names[axis] : "unknown";
}

const char *posenc_mrope_rule_name(posenc_mrope_rule rule)
{
    if (rule == POSENC_MROPE_CONTIGUOUS)
        return "contiguous";
    if (rule == POSENC_MROPE_INTERLEAVED)
        return "interleaved";
    return "unknown";
}

posenc_status posenc_mrope_init(posenc_mrope *m, uint32_t n_pairs, const uint32_t section[3],
                                posenc_mrope_rule rule)
{
    if (!m || !section)
        return POSENC_ERR_NULL;
    if (n_pairs < 1 || n_pairs > POSENC_ROPE_MAX_HEAD_DIM / 2)
        return POSENC_ERR_DIM;
    if (rule != POSENC_MROPE_CONTIGUOUS && rule != POSENC_MROPE_INTERLEAVED)
        return POSENC_ERR_RANGE;
    if ((uint64_t)section[0] + section[1] + section[2] != n_pairs)
        return POSENC_ERR_RANGE;
    uint8_t axis[POSENC_ROPE_MAX_HEAD_DIM / 2];
    uint32_t count[3] = {0, 0, 0};
    for (uint32_t k = 0; k < n_pairs; k++) {
        uint8_t a;
        if (rule == POSENC_MROPE_CONTIGUOUS) {
            /* cos.split(mrope_section * 2): chunk i from axis i % 3, the
             * same blocks in both halves */
            a = k < section[0] ? POSENC_AXIS_T
                : k < section[0] + section[1] ? POSENC_AXIS_H
                                               : POSENC_AXIS_W;
        } else {
            /* apply_interleaved_mrope: freqs_t[..., offset:3*section[dim]:3]
             * = freqs[dim], offset 1 for h, 2 for w; t elsewhere */
            a = k % 3 == 1 && k < 3 * (uint64_t)section[1]   ? POSENC_AXIS_H
                : k % 3 == 2 && k < 3 * (uint64_t)section[2] ? POSENC_AXIS_W
                                                             : POSENC_AXIS_T;
        }
        axis[k] = a;
        count[a]++;
    }
    for (int a = 0; a < 3; a++)
        if (count[a] != section[a])
            return POSENC_ERR_RANGE; /* a section the interleaved rule cannot make */
    memset(m, 0, sizeof *m);
    m->n_pairs = n_pairs;
    memcpy(m->section, section, sizeof m->section);
    m->rule = rule;
    memcpy(m->axis, axis, n_pairs);
    return POSENC_OK;
}

/* m well formed and made for r's pairs. */
static posenc_status check_mrope(const posenc_mrope *m, const posenc_rope *r)
{
    if (m->n_pairs != r->rotary_dim / 2)
        return POSENC_ERR_RANGE;
    uint32_t count[3] = {0, 0, 0};
    for (uint32_t k = 0; k < m->n_pairs; k++) {
        if (m->axis[k] > 2)
            return POSENC_ERR_RANGE;
        count[m->axis[k]]++;
    }
    for (int a = 0; a < 3; a++)
        if (count[a] != m->section[a])
            return POSENC_ERR_RANGE;
    return POSENC_OK;
}

static posenc_status check_vec(const posenc_rope *r, const posenc_mrope *m, const int64_t p[3],
                               posenc_direction dir, const void *x)
{
    if (!r || !m || !x)
        return POSENC_ERR_NULL;
    posenc_status st = posenc__rope_check(r);
    if (st != POSENC_OK)
        return st;
    if ((st = check_mrope(m, r)) != POSENC_OK)
        return st;
    if (!posenc__direction_ok(dir))
        return POSENC_ERR_RANGE;
    for (int a = 0; a < 3; a++)
        if (!posenc__pos_ok(p[a]))
            return POSENC_ERR_POS;
    return POSENC_OK;
}

/* ---- the single-vector references -------------------------------------------- */

posenc_status posenc_mrope_vec_f64(const posenc_rope *r, const posenc_mrope *m, int64_t pt,
                                   int64_t ph, int64_t pw, posenc_direction dir, double *x)
{
    const int64_t p[3] = {pt, ph, pw};
    posenc_status st = check_vec(r, m, p, dir, x);
    if (st != POSENC_OK)
        return st;
    int inverse = dir == POSENC_INVERSE;
    if (!posenc__all_finite_f64(x, r->head_dim))
        return POSENC_ERR_NOT_FINITE;
    size_t P = r->rotary_dim / 2;
    /* sin, cos of every pair at each axis' position (exact angle) */
    double s[3][POSENC_ROPE_MAX_HEAD_DIM / 2], c[3][POSENC_ROPE_MAX_HEAD_DIM / 2];
    for (int a = 0; a < 3; a++)
        posenc__cpu()->sincos(p[a], r->inv_freq_hi, r->inv_freq_lo, P, s[a], c[a]);
    for (size_t k = 0; k < P; k++) {
        int a = m->axis[k];
        double sk = r->attn_factor * s[a][k], ck = r->attn_factor * c[a][k];
        size_t i0, i1;
        posenc__pair_elems(r->layout, P, k, &i0, &i1);
        posenc__rotate_f64(&x[i0], &x[i1], inverse ? -sk : sk, ck);
    }
    return POSENC_OK;
}

posenc_status posenc_mrope_vec_f32(const posenc_rope *r, const posenc_mrope *m, int64_t pt,
                                   int64_t ph, int64_t pw, posenc_direction dir, float *x)
{
    const int64_t p[3] = {pt, ph, pw};
    posenc_status st = check_vec(r, m, p, dir, x);
    if (st != POSENC_OK)
        return st;
    int inverse = dir == POSENC_INVERSE;
    if (!posenc__all_finite_f32(x, r->head_dim))
        return POSENC_ERR_NOT_FINITE;
    size_t P = r->rotary_dim / 2;
    float cs[3][POSENC_ROPE_MAX_HEAD_DIM]; /* per axis: c[0..P) then s[0..P) */
    for (int a = 0; a < 3; a++)
        posenc__sincos_table_f32(p[a], 1, r->inv_freq_hi, r->inv_freq_lo, P, r->attn_factor,
                                 cs[a], cs[a] + P, 2 * P);
    for (size_t k = 0; k < P; k++) {
        const float *row = cs[m->axis[k]];
        size_t i0, i1;
        posenc__pair_elems(r->layout, P, k, &i0, &i1);
        posenc__rotate_f32(&x[i0], &x[i1], inverse ? -row[P + k] : row[P + k], row[k]);
    }
    return POSENC_OK;
}

posenc_status posenc_mrope_vec_dot_f64(const posenc_rope *r, const posenc_mrope *m,
                                       const int64_t m_pos[3], const int64_t n_pos[3],
                                       const double *q, const double *k, double *out)
{
    if (!r || !m || !m_pos || !n_pos || !q || !k || !out)
        return POSENC_ERR_NULL;
    posenc_status st = posenc__rope_check(r);
    if (st != POSENC_OK)
        return st;
    double a[POSENC_ROPE_MAX_HEAD_DIM], b[POSENC_ROPE_MAX_HEAD_DIM];
    memcpy(a, q, r->head_dim * sizeof(double));
    memcpy(b, k, r->head_dim * sizeof(double));
    if ((st = posenc_mrope_vec_f64(r, m, m_pos[0], m_pos[1], m_pos[2], POSENC_FORWARD, a)) !=
            POSENC_OK ||
        (st = posenc_mrope_vec_f64(r, m, n_pos[0], n_pos[1], n_pos[2], POSENC_FORWARD, b)) !=
            POSENC_OK)
        return st;
    double sum = 0.0;
    for (uint32_t i = 0; i < r->head_dim; i++)
        sum += a[i] * b[i];
    *out = sum;
    return POSENC_OK;
}

/* ---- the tensor kernel ---------------------------------------------------------- */

/* The pairs of each axis with their frequencies, shared read-only by the
 * threads of one call. */
typedef struct axes {
    uint32_t n[3];                              /* pairs per axis */
    uint32_t slot[POSENC_ROPE_MAX_HEAD_DIM / 2]; /* pair k's index within its axis */
    double fh[3][POSENC_ROPE_MAX_HEAD_DIM / 2], fl[3][POSENC_ROPE_MAX_HEAD_DIM / 2];
    /* element i of a cache row (c[0..P) s[0..P)) follows axis(i mod P):
     * mh[i], mw[i] all ones when that axis is h, w (the select's masks) */
    uint32_t mh[POSENC_ROPE_MAX_HEAD_DIM], mw[POSENC_ROPE_MAX_HEAD_DIM];
} axes;

typedef struct mjob {
    posenc__heads_fn fn;
    posenc__fill_fn fill;
    posenc__select_fn select;
    const posenc_rope *r;
    const posenc_mrope *m;
    const axes *ax;
    const posenc_rope_cache *cache;
    int dt, layout, inverse;
    size_t P, head_dim;
    const int64_t *pos[3];
    int64_t limit;   /* positions used: [0, limit] */
    atomic_int *bad; /* set when a position read at use is outside it */
    tensor t[2];
} mjob;

/* Token t's three positions, each read once into p[3]; 0 (after flagging
 * the call) when one is outside [0, limit]: it changed since the check,
 * and the token is skipped. */
static int read_token(const mjob *j, size_t t, int64_t p[3])
{
    for (int a = 0; a < 3; a++) {
        p[a] = posenc__pos_read(j->pos[a], t);
        if (!posenc__pos_in(p[a], j->limit)) {
            atomic_store_explicit(j->bad, 1, memory_order_relaxed);
            return 0;
        }
    }
    return 1;
}

#define SCRATCH_FLOATS 8192u
#define SCRATCH_ROWS 64u

/* Rows for the n positions pos[0..n) of one axis (na pairs, frequencies fh,
 * fl) into out (rows of 2 na floats: c then s), one fill per run of
 * consecutive positions, a repeated position sharing the previous row;
 * ridx[i] = the row of position i. Tokens with ok[i] == 0 are skipped. */
static void fill_axis(const mjob *j, const int64_t *pos, const unsigned char *ok, size_t n,
                      const double *fh, const double *fl, size_t na, float *out, size_t *ridx)
{
    size_t row = 2 * na, nrow = 0, run_row = 0, run_len = 0;
    int64_t run_p0 = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t p = pos[i];
        if (!ok[i])
            continue;
        if (run_len && p == run_p0 + (int64_t)run_len - 1) { /* the previous row */
            ridx[i] = nrow - 1;
            continue;
        }
        if (run_len && p == run_p0 + (int64_t)run_len) {
            ridx[i] = nrow++;
            run_len++;
            continue;
        }
        if (run_len)
            j->fill(run_p0, run_len, fh, fl, na, j->r->attn_factor, out + run_row * row,
                    out + run_row * row + na, row, POSENC__FILL_SPLIT);
        run_row = nrow;
        run_p0 = p;
        run_len = 1;
        ridx[i] = nrow++;
    }
    if (run_len)
        j->fill(run_p0, run_len, fh, fl, na, j->r->attn_factor, out + run_row * row,
                out + run_row * row + na, row, POSENC__FILL_SPLIT);
}

/* Tokens [t0, t1) of both tensors. Each position is read once
 * (read_token) and only that value is used. */
static void run_range(const void *arg, size_t t0, size_t t1)
{
    const mjob *j = arg;
    size_t P = j->P;
    const uint8_t *axis = j->m->axis;
    _Alignas(64) float row[POSENC_ROPE_MAX_HEAD_DIM]; /* the token's c[0..P) s[0..P) */
    if (j->cache) {
        const float *table = j->cache->table;
        for (size_t t = t0; t < t1; t++) {
            int64_t p[3];
            if (!read_token(j, t, p))
                continue;
            const float *src[3];
            for (int a = 0; a < 3; a++)
                src[a] = table + (size_t)p[a] * 2 * P;
            if (src[0] == src[1] && src[0] == src[2]) { /* a text token: the row itself */
                posenc__qk_token(j->fn, j->dt, j->layout, P, j->head_dim, j->inverse, j->t, t,
                                 src[0]);
                continue;
            }
            /* row[k] = src[axis(k)][k], row[P + k] likewise: a vector select */
            j->select(2 * P, src[0], src[1], src[2], j->ax->mh, j->ax->mw, row);
            posenc__qk_token(j->fn, j->dt, j->layout, P, j->head_dim, j->inverse, j->t, t, row);
        }
        return;
    }
    /* Blocks of B tokens: each axis' rows in its part of the scratch
     * (B rows of 2 n[a] floats), then every token's row gathered. */
    float scratch[SCRATCH_FLOATS];
    size_t ridx[3][SCRATCH_ROWS];
    int64_t pv[3][SCRATCH_ROWS]; /* the block's positions as read */
    unsigned char ok[SCRATCH_ROWS];
    size_t B = SCRATCH_FLOATS / (2 * P) < SCRATCH_ROWS ? SCRATCH_FLOATS / (2 * P) : SCRATCH_ROWS;
    const axes *ax = j->ax;
    float *part[3];
    part[0] = scratch;
    part[1] = part[0] + B * 2 * ax->n[0];
    part[2] = part[1] + B * 2 * ax->n[1];
    for (size_t t = t0; t < t1;) {
        size_t n = t1 - t < B ? t1 - t : B;
        /* a block of text tokens only (t = h = w for each): every pair at the
         * token's one position, so whole rows of all P pairs, used as they
         * are (plain RoPE's work, no gather) */
        int text = 1;
        for (size_t i = 0; i < n; i++) {
            int64_t p[3];
            ok[i] = (unsigned char)read_token(j, t + i, p);
            for (int a = 0; a < 3; a++)
                pv[a][i] = p[a];
            text = text && (!ok[i] || (p[0] == p[1] && p[0] == p[2]));
        }
        if (text) {
            fill_axis(j, pv[0], ok, n, j->r->inv_freq_hi, j->r->inv_freq_lo, P, scratch, ridx[0]);
            for (size_t i = 0; i < n; i++)
                if (ok[i])
                    posenc__qk_token(j->fn, j->dt, j->layout, P, j->head_dim, j->inverse, j->t,
                                     t + i, scratch + ridx[0][i] * 2 * P);
            t += n;
            continue;
        }
        for (int a = 0; a < 3; a++)
            if (ax->n[a])
                fill_axis(j, pv[a], ok, n, ax->fh[a], ax->fl[a], ax->n[a], part[a], ridx[a]);
        for (size_t i = 0; i < n; i++) {
            if (!ok[i])
                continue;
            const float *src[3];
            for (int a = 0; a < 3; a++)
                src[a] = part[a] + ridx[a][i] * 2 * ax->n[a];
            for (size_t k = 0; k < P; k++) {
                int a = axis[k];
                row[k] = src[a][ax->slot[k]];
                row[P + k] = src[a][ax->n[a] + ax->slot[k]];
            }
            posenc__qk_token(j->fn, j->dt, j->layout, P, j->head_dim, j->inverse, j->t, t + i,
                             row);
        }
        t += n;
    }
}

posenc_status posenc__mrope_qk_run(int isa, const posenc_mrope_qk_args *ma, posenc_pool *pool,
                                   size_t min_elems)
{
    if (!ma || !ma->mrope)
        return POSENC_ERR_NULL;
    const posenc_rope_qk_args *a = &ma->base;
    const posenc_mrope *m = ma->mrope;
    const int64_t *pos_h = ma->pos_h, *pos_w = ma->pos_w;
    if (!a->rope || (posenc__view_absent(&a->q) && posenc__view_absent(&a->k)) ||
        (!pos_h != !pos_w) || (pos_h && !a->pos))
        return POSENC_ERR_NULL;
    const posenc_rope *r = a->rope;
    posenc_status st = posenc__rope_check(r);
    if (st != POSENC_OK)
        return st;
    if ((st = check_mrope(m, r)) != POSENC_OK)
        return st;
    if (!pos_h) /* text only: p means p:p:p, which is plain RoPE at p */
        return posenc__rope_qk_run(isa, a, pool, min_elems);
    const posenc_rope_cache *cache = a->cache;
    posenc_dtype dtype = a->dtype;
    size_t n_tok = a->n_tok;
    unsigned n_threads = a->n_threads ? a->n_threads : 1;
    if (dtype != POSENC_DTYPE_F32 && dtype != POSENC_DTYPE_BF16 && dtype != POSENC_DTYPE_F16)
        return POSENC_ERR_RANGE;
    if (!posenc__direction_ok(a->direction) || a->pos0 != 0)
        return POSENC_ERR_RANGE;
    if (n_tok == 0 || n_threads > POSENC_MAX_THREADS)
        return POSENC_ERR_RANGE;
    if (isa < 0 || isa >= POSENC__ISA_N || !posenc__isa_available(isa))
        return POSENC_ERR_RANGE;
    if (pool) /* the pool's threads: all of them for n_threads 0 */
        n_threads = a->n_threads && a->n_threads < posenc__pool_threads(pool)
                        ? a->n_threads
                        : posenc__pool_threads(pool);
    mjob j;
    memset(&j, 0, sizeof j);
    size_t es = posenc__dtype_size((int)dtype);
    if ((st = posenc__check_view(&a->q, n_tok, r->head_dim, es, &j.t[0])) != POSENC_OK ||
        (st = posenc__check_view(&a->k, n_tok, r->head_dim, es, &j.t[1])) != POSENC_OK)
        return st;
    if (cache && !posenc__cache_matches(cache, r))
        return POSENC_ERR_RANGE;
    int64_t limit = cache ? cache->max_pos - 1 : POSENC_MAX_POS;
    const int64_t *rows[3] = {a->pos, pos_h, pos_w};
    for (int a = 0; a < 3; a++)
        for (size_t t = 0; t < n_tok; t++)
            if (!posenc__pos_in(posenc__pos_read(rows[a], t), limit))
                return POSENC_ERR_POS;

    axes ax; /* ~27 KiB of stack, read by every thread */
    memset(ax.n, 0, sizeof ax.n);
    size_t P = r->rotary_dim / 2;
    for (size_t kk = 0; kk < P; kk++) {
        int a = m->axis[kk];
        ax.slot[kk] = ax.n[a];
        ax.fh[a][ax.n[a]] = r->inv_freq_hi[kk];
        ax.fl[a][ax.n[a]] = r->inv_freq_lo[kk];
        ax.n[a]++;
        ax.mh[kk] = ax.mh[P + kk] = a == POSENC_AXIS_H ? 0xFFFFFFFFu : 0u;
        ax.mw[kk] = ax.mw[P + kk] = a == POSENC_AXIS_W ? 0xFFFFFFFFu : 0u;
    }
    j.fn = posenc__isa_ops_of(isa)->heads;
    j.fill = posenc__isa_ops_of(isa)->fill;
    j.select = posenc__isa_ops_of(isa)->select;
    j.r = r;
    j.m = m;
    j.ax = &ax;
    j.cache = cache;
    j.dt = (int)dtype;
    j.layout = (int)r->layout;
    j.inverse = a->direction == POSENC_INVERSE;
    j.P = P;
    j.head_dim = r->head_dim;
    for (int a = 0; a < 3; a++)
        j.pos[a] = rows[a];
    atomic_int bad = 0;
    j.limit = limit;
    j.bad = &bad;

    /* threads: only for enough work, never more than tokens */
    size_t elems = n_tok * (j.t[0].n_head + j.t[1].n_head) * r->head_dim; /* fits: checked */
    size_t nt = posenc__threads_for(n_tok, elems, n_threads, min_elems);
    posenc__pool_range(pool, n_tok, nt, run_range, &j); /* NULL: threads of the call */
    return atomic_load(&bad) ? POSENC_ERR_POS : POSENC_OK;
}

posenc_status posenc__mrope_qk_isa(int isa, const posenc_mrope_qk_args *a)
{
    return posenc__mrope_qk_run(isa, a, NULL, POSENC__MIN_ELEMS_PER_THREAD);
}

posenc_status posenc_mrope_qk(const posenc_mrope_qk_args *a)
{
    return posenc__mrope_qk_isa(posenc__isa_selected(), a);
}

posenc_status posenc_mrope_qk_pool(const posenc_mrope_qk_args *a, posenc_pool *pool)
{
    return posenc__mrope_qk_run(posenc__isa_selected(), a, pool,
                                pool ? POSENC__MIN_ELEMS_PER_POOL_THREAD
                                     : POSENC__MIN_ELEMS_PER_THREAD);
}

/* ---- position ids ------------------------------------------------------------------ */

/* Largest merge size accepted (Qwen's is 2). */
#define MAX_MERGE 64u

/* Segment s's token count and its largest position offset above st (in
 * *span: the next segment starts at st + span + 1), or an error. */
static posenc_status segment_shape(const posenc_mrope_segment *s, uint32_t merge,
                                   uint32_t tokens_per_second, uint64_t *n_tok, int64_t *step,
                                   int64_t *span)
{
    if (s->kind == POSENC_SEG_TEXT) {
        if (s->n < 1)
            return POSENC_ERR_RANGE;
        *n_tok = s->n;
        *step = 1;
        *span = (int64_t)s->n - 1;
        return POSENC_OK;
    }
    if (s->kind != POSENC_SEG_IMAGE && s->kind != POSENC_SEG_VIDEO)
        return POSENC_ERR_RANGE;
    if (s->t < 1 || s->h < 1 || s->w < 1 || s->h % merge || s->w % merge)
        return POSENC_ERR_RANGE;
    if (!isfinite(s->seconds_per_grid) || s->seconds_per_grid < 0)
        return POSENC_ERR_RANGE;
    uint64_t gh = s->h / merge, gw = s->w / merge;
    if (gh * gw > UINT64_MAX / s->t) /* gh * gw < 2^64 (two values < 2^32) */
        return POSENC_ERR_OVERFLOW;
    *n_tok = (uint64_t)s->t * gh * gw;
    if (tokens_per_second == 0) {
        *step = 1; /* Qwen2-VL: temporal index ti */
    } else if (s->kind == POSENC_SEG_IMAGE) {
        *step = 0; /* Qwen2.5-VL: an image's second_per_grid_t is 0 */
    } else {
        double secs = trunc(s->seconds_per_grid); /* int(second_per_grid_t) */
        if (secs > (double)POSENC_MAX_POS / tokens_per_second)
            return POSENC_ERR_POS;
        *step = (int64_t)tokens_per_second * (int64_t)secs;
    }
    int64_t span_t = 0;
    if (*step && (uint64_t)(s->t - 1) > (uint64_t)(POSENC_MAX_POS / *step))
        return POSENC_ERR_POS;
    span_t = (int64_t)(s->t - 1) * *step;
    int64_t span_s = (int64_t)(gh > gw ? gh : gw) - 1;
    *span = span_t > span_s ? span_t : span_s;
    return POSENC_OK;
}

posenc_status posenc_mrope_positions(const posenc_mrope_segment *seg, size_t n_seg,
                                     uint32_t merge, uint32_t tokens_per_second,
                                     int64_t *pos_t, int64_t *pos_h, int64_t *pos_w,
                                     size_t capacity, size_t *n_tok)
{
    if (!seg || !n_tok)
        return POSENC_ERR_NULL;
    int rows = (pos_t != NULL) + (pos_h != NULL) + (pos_w != NULL);
    if (rows != 0 && rows != 3)
        return POSENC_ERR_NULL;
    if (n_seg < 1 || merge < 1 || merge > MAX_MERGE)
        return POSENC_ERR_RANGE;
    /* pass 1: check everything, count the tokens */
    uint64_t total = 0;
    int64_t st = 0; /* start of the next segment */
    for (size_t i = 0; i < n_seg; i++) {
        uint64_t n;
        int64_t step, span;
        posenc_status e = segment_shape(&seg[i], merge, tokens_per_second, &n, &step, &span);
        if (e != POSENC_OK)
            return e;
        if (st > POSENC_MAX_POS - span)
            return POSENC_ERR_POS;
        if (n > (uint64_t)SIZE_MAX - total)
            return POSENC_ERR_OVERFLOW;
        total += n;
        st += span + 1;
    }
    *n_tok = (size_t)total;
    if (!rows)
        return POSENC_OK;
    if (capacity < total)
        return POSENC_ERR_RANGE;
    /* pass 2: write */
    size_t o = 0;
    st = 0;
    for (size_t i = 0; i < n_seg; i++) {
        const posenc_mrope_segment *s = &seg[i];
        uint64_t n;
        int64_t step, span;
        (void)segment_shape(s, merge, tokens_per_second, &n, &step, &span); /* checked */
        if (s->kind == POSENC_SEG_TEXT) {
            for (uint32_t k = 0; k < s->n; k++, o++)
                pos_t[o] = pos_h[o] = pos_w[o] = st + k;
        } else {
            uint32_t gh = s->h / merge, gw = s->w / merge;
            for (uint32_t ti = 0; ti < s->t; ti++)
                for (uint32_t hi = 0; hi < gh; hi++)
                    for (uint32_t wi = 0; wi < gw; wi++, o++) {
                        pos_t[o] = st + (int64_t)ti * step;
                        pos_h[o] = st + hi;
                        pos_w[o] = st + wi;
                    }
        }
        st += span + 1;
    }
    return POSENC_OK;
}

/* ---- vision 2D RoPE ---------------------------------------------------------------- */

posenc_status posenc_rope2d_init(posenc_rope *r, posenc_mrope *m, uint32_t head_dim,
                                 double base, posenc_layout layout)
{
    if (!r || !m)
        return POSENC_ERR_NULL;
    if (head_dim < 4 || head_dim > POSENC_ROPE_MAX_HEAD_DIM || head_dim % 4)
        return POSENC_ERR_DIM;
    if (!posenc__base_ok(base))
        return POSENC_ERR_BASE;
    if (!posenc__layout_ok(layout))
        return POSENC_ERR_LAYOUT;
    uint32_t q = head_dim / 4; /* pairs per axis */
    const uint32_t section[3] = {0, q, q};
    posenc_status st = posenc_mrope_init(m, 2 * q, section, POSENC_MROPE_CONTIGUOUS);
    if (st != POSENC_OK)
        return st; /* not reached: the arguments are valid */
    memset(r, 0, sizeof *r);
    r->head_dim = head_dim;
    r->rotary_dim = head_dim;
    r->layout = layout;
    r->base = base;
    r->attn_factor = 1.0;
    /* VisionRotaryEmbedding(dim = D/2): inv_freq[j] = base^(-2j/(D/2)), j < D/4,
     * used by the row (pairs 0 .. D/4-1) and again by the column */
    posenc__inv_freqs_dd(0, q, head_dim / 2, base, r->inv_freq_hi, r->inv_freq_lo);
    memcpy(r->inv_freq_hi + q, r->inv_freq_hi, q * sizeof(double));
    memcpy(r->inv_freq_lo + q, r->inv_freq_lo, q * sizeof(double));
    return POSENC_OK;
}

posenc_status posenc_rope2d_vec_f64(const posenc_rope *r, const posenc_mrope *m, int64_t row,
                                    int64_t col, posenc_direction dir, double *x)
{
    return posenc_mrope_vec_f64(r, m, row, row, col, dir, x);
}

posenc_status posenc_rope2d_vec_f32(const posenc_rope *r, const posenc_mrope *m, int64_t row,
                                    int64_t col, posenc_direction dir, float *x)
{
    return posenc_mrope_vec_f32(r, m, row, row, col, dir, x);
}

posenc_status posenc_rope2d_qk(const posenc_mrope_qk_args *a)
{
    if (!a || !a->base.pos || !a->pos_w)
        return POSENC_ERR_NULL;
    if (a->pos_h)
        return POSENC_ERR_RANGE;
    posenc_mrope_qk_args m = *a;
    m.pos_h = a->base.pos; /* (row, row, col) */
    return posenc_mrope_qk(&m);
}

posenc_status posenc_vision_patch_positions(uint32_t t, uint32_t h, uint32_t w, uint32_t merge,
                                            int64_t *rows, int64_t *cols)
{
    if (!rows || !cols)
        return POSENC_ERR_NULL;
    if (t < 1 || h < 1 || w < 1 || merge < 1 || merge > MAX_MERGE || h % merge || w % merge)
        return POSENC_ERR_RANGE;
    uint64_t per = (uint64_t)h * w;
    if (per > SIZE_MAX / t)
        return POSENC_ERR_OVERFLOW;
    /* hpos.reshape(h/m, m, w/m, m).permute(0, 2, 1, 3).flatten(), and wpos
     * likewise, repeated t times */
    size_t o = 0;
    for (uint32_t ti = 0; ti < t; ti++)
        for (uint32_t bh = 0; bh < h / merge; bh++)
            for (uint32_t bw = 0; bw < w / merge; bw++)
                for (uint32_t ih = 0; ih < merge; ih++)
                    for (uint32_t iw = 0; iw < merge; iw++, o++) {
                        rows[o] = (int64_t)bh * merge + ih;
                        cols[o] = (int64_t)bw * merge + iw;
                    }
    return POSENC_OK;
}
