/* mrope_qk.c - the q/k tensor kernel of multimodal RoPE (M-RoPE) and of
 * the vision tower's 2D RoPE (contract in posenc.h, last section); the
 * pair-to-axis rules and the single-vector references are src/math/mrope.c.
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
    qk_call c;
    const posenc_mrope *m;
    const axes *ax;
    const int64_t *pos[3];
} mjob;

/* Token t's three positions, each read once into p[3]; 0 (after flagging
 * the call) when one is outside [0, limit]: it changed since the check,
 * and the token is skipped. */
static int read_token(const mjob *j, size_t t, int64_t p[3])
{
    for (int a = 0; a < 3; a++) {
        p[a] = posenc__pos_read(j->pos[a], t);
        if (!posenc__pos_in(p[a], j->c.limit)) {
            atomic_store_explicit(j->c.bad, 1, memory_order_relaxed);
            return 0;
        }
    }
    return 1;
}

#define SCRATCH_FLOATS 8192u
#define SCRATCH_ROWS 64u

/* Rows for the n positions pos[0..n) of one axis (na pairs, frequencies fh,
 * fl) into out (rows of 2 na floats: c then s), one fill per run of
 * consecutive positions (posenc__pos_runs); ridx[i] = the row of position i.
 * Tokens with pos[i] < 0 are skipped. */
static void fill_axis(const mjob *j, const int64_t *pos, size_t n, const double *fh,
                      const double *fl, size_t na, float *out, size_t *ridx)
{
    int64_t run_p0[SCRATCH_ROWS];
    size_t run_len[SCRATCH_ROWS], row = 2 * na;
    size_t n_run = posenc__pos_runs(pos, n, ridx, run_p0, run_len);
    for (size_t k = 0, r0 = 0; k < n_run; r0 += run_len[k++])
        j->c.ops.fill(run_p0[k], run_len[k], fh, fl, na, j->c.r->attn_factor, out + r0 * row,
                      out + r0 * row + na, row, POSENC__FILL_SPLIT);
}

/* Tokens [t0, t1) of both tensors. Each position is read once
 * (read_token) and only that value is used. */
static void run_range(const void *arg, size_t t0, size_t t1)
{
    const mjob *j = arg;
    size_t P = j->c.P;
    const uint8_t *axis = j->m->axis;
    _Alignas(64) float row[POSENC_ROPE_MAX_HEAD_DIM]; /* the token's c[0..P) s[0..P) */
    if (j->c.cache) {
        const float *table = j->c.cache->table;
        for (size_t t = t0; t < t1; t++) {
            int64_t p[3];
            if (!read_token(j, t, p))
                continue;
            const float *src[3];
            for (int a = 0; a < 3; a++)
                src[a] = table + (size_t)p[a] * 2 * P;
            if (src[0] == src[1] && src[0] == src[2]) { /* a text token: the row itself */
                posenc__qk_token(&j->c, t, src[0]);
                continue;
            }
            /* row[k] = src[axis(k)][k], row[P + k] likewise: a vector select */
            j->c.ops.select(2 * P, src[0], src[1], src[2], j->ax->mh, j->ax->mw, row);
            posenc__qk_token(&j->c, t, row);
        }
        return;
    }
    /* Blocks of B tokens: each axis' rows in its part of the scratch
     * (B rows of 2 n[a] floats), then every token's row gathered. */
    float scratch[SCRATCH_FLOATS];
    size_t ridx[3][SCRATCH_ROWS];
    int64_t pv[3][SCRATCH_ROWS]; /* the block's positions as read; -1: skipped */
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
                pv[a][i] = ok[i] ? p[a] : -1;
            text = text && (!ok[i] || (p[0] == p[1] && p[0] == p[2]));
        }
        if (text) {
            fill_axis(j, pv[0], n, j->c.r->inv_freq_hi, j->c.r->inv_freq_lo, P, scratch, ridx[0]);
            for (size_t i = 0; i < n; i++)
                if (ok[i])
                    posenc__qk_token(&j->c, t + i, scratch + ridx[0][i] * 2 * P);
            t += n;
            continue;
        }
        for (int a = 0; a < 3; a++)
            if (ax->n[a])
                fill_axis(j, pv[a], n, ax->fh[a], ax->fl[a], ax->n[a], part[a], ridx[a]);
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
            posenc__qk_token(&j->c, t + i, row);
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
    if ((st = posenc__mrope_check(m, r)) != POSENC_OK)
        return st;
    if (!pos_h) /* text only: p means p:p:p, which is plain RoPE at p */
        return posenc__rope_qk_run(isa, a, pool, min_elems);
    if (a->pos0 != 0)
        return POSENC_ERR_RANGE;
    mjob j;
    atomic_int bad = 0;
    if ((st = posenc__qk_begin(isa, a, pool, &bad, &j.c)) != POSENC_OK)
        return st;
    size_t n_tok = a->n_tok;
    const int64_t *rows[3] = {a->pos, pos_h, pos_w};
    for (int a = 0; a < 3; a++)
        for (size_t t = 0; t < n_tok; t++)
            if (!posenc__pos_in(posenc__pos_read(rows[a], t), j.c.limit))
                return POSENC_ERR_POS;

    axes ax; /* ~27 KiB of stack, read by every thread */
    memset(ax.n, 0, sizeof ax.n);
    size_t P = j.c.P;
    for (size_t kk = 0; kk < P; kk++) {
        int a = m->axis[kk];
        ax.slot[kk] = ax.n[a];
        ax.fh[a][ax.n[a]] = r->inv_freq_hi[kk];
        ax.fl[a][ax.n[a]] = r->inv_freq_lo[kk];
        ax.n[a]++;
        ax.mh[kk] = ax.mh[P + kk] = a == POSENC_MROPE_AXIS_H ? 0xFFFFFFFFu : 0u;
        ax.mw[kk] = ax.mw[P + kk] = a == POSENC_MROPE_AXIS_W ? 0xFFFFFFFFu : 0u;
    }
    j.m = m;
    j.ax = &ax;
    for (int a = 0; a < 3; a++)
        j.pos[a] = rows[a];
    return posenc__qk_go(&j.c, n_tok, pool, min_elems, run_range, &j);
}

posenc_status posenc_mrope_qk_pool(const posenc_mrope_qk_args *a, posenc_pool *pool)
{
    return posenc__mrope_qk_run(posenc__isa_selected(), a, pool, posenc__min_elems(pool));
}

posenc_status posenc_mrope_qk(const posenc_mrope_qk_args *a)
{
    return posenc_mrope_qk_pool(a, NULL);
}

/* ---- vision 2D RoPE over q/k tensors ---------------------------------------------- */

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
