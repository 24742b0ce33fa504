/* fit.c - one hypothesis' prediction of the engine's y, and its error.
 *
 *     y = gain * R(theta) x,  theta(t, k) = (pos[t] + c) * f(k)  (exact model)
 * or theta the float the hypothesis' engine model holds (engines.c); sin/cos
 * of it in double. Errors are those of posenc_check.h (ulps of the dump's
 * dtype relative to each pair's norm). The passes over the tokens are split
 * between threads. */
#include "check_impl.h"

#include <stdlib.h>
#include <string.h>

static double round16(double v, int which)
{
    return posenc__round_sig(v, which == ROUND_BF16 ? 8 : 11, which == ROUND_BF16 ? -126 : -14);
}

/* The pair of element i of a rotated part of 2P elements in layout l. */
static uint32_t pair_of(posenc_layout l, uint32_t P, uint32_t i)
{
    return l == POSENC_LAYOUT_INTERLEAVED ? i / 2 : i % P;
}

/* ---- angles and predictions ------------------------------------------------------ */

void posenc__angles(ctx *c, const hyp *h, int64_t p)
{
    uint32_t P = h->rope.rotary_dim / 2;
    double pp = (double)p + (double)h->offset;
    if (h->round_pos)
        pp = round16(pp, h->round_pos);
    float th[POSENC_ROPE_MAX_HEAD_DIM / 2];
    if (h->amodel != ANGLE_EXACT)
        posenc__engine_angles(h, pp, th);
    double neg = pp < 0 ? -1.0 : 1.0;
    int64_t ap = (int64_t)fabs(pp);
    for (uint32_t k = 0; k < P; k++) {
        double s, co, env = 0;
        if (h->amodel != ANGLE_EXACT) {
            /* the engine's float angle, its sign included */
            double t = th[k];
            s = sin(t);
            co = cos(t);
            if (h->env_ulps > 0 && t != 0)
                env = h->env_ulps * posenc__unit_of(fabs(t), 24, -126);
            neg = 1.0;
        } else {
            posenc__dd f = {h->rope.inv_freq_hi[k], h->rope.inv_freq_lo[k]};
            if (h->round_freq) /* inv_freq stored in a 16-bit float (a model cast whole) */
                f = (posenc__dd){round16(f.hi, h->round_freq), 0.0};
            posenc__sincos_dd(ap, f, &s, &co);
            if (h->envelope) /* 8 float32 ulps of theta plus 2^-24 */
                env = 0x1p-24 * (8.0 * ((double)p * h->rope.inv_freq_hi[k]) + 1.0);
        }
        double cc = h->gain * co, ss = h->sign * neg * h->gain * s;
        if (h->round_cs) {
            cc = round16(cc, h->round_cs);
            ss = round16(ss, h->round_cs);
        }
        c->C[k] = cc;
        c->S[k] = ss;
        c->E[k] = env;
    }
}

/* Pairs rotated with the table of another layout's order (full-width tables). */
static void predict_table_order(ctx *c, const hyp *h, const float *x, double *o, uint32_t head)
{
    uint32_t P = h->rope.rotary_dim / 2;
    for (uint32_t k = 0; k < P; k++) {
        size_t i0, i1;
        posenc__pair_elems((int)c->layout, P, k, &i0, &i1);
        uint32_t q = pair_of(h->table, P, (uint32_t)(head == 0 ? i0 : i1));
        o[i0] = x[i0] * c->C[q] - x[i1] * c->S[q];
        o[i1] = x[i1] * c->C[q] + x[i0] * c->S[q];
    }
}

/* The best angle within each pair's envelope: turn the predicted pair
 * towards the engine's, clamped. A pair already within half a unit (c->unit,
 * when known) is left as it is: the turn could only make a small error
 * smaller, and it costs an atan2, a cos and a sin. */
static void apply_envelope(ctx *c, const hyp *h, const float *y, double *o, int units_known)
{
    uint32_t P = h->rope.rotary_dim / 2;
    for (uint32_t k = 0; k < P; k++) {
        double env = c->E[k];
        if (env == 0)
            continue;
        size_t i0, i1;
        posenc__pair_elems((int)c->layout, P, k, &i0, &i1);
        double e0 = o[i0], e1 = o[i1], u = y[i0], v = y[i1];
        if (units_known && fabs(e0 - u) <= 0.5 * c->unit[i0] && fabs(e1 - v) <= 0.5 * c->unit[i1])
            continue;
        double delta = atan2(e0 * v - e1 * u, e0 * u + e1 * v);
        delta = delta > env ? env : delta < -env ? -env : delta;
        double cd = cos(delta), sd = sin(delta);
        o[i0] = e0 * cd - e1 * sd;
        o[i1] = e0 * sd + e1 * cd;
    }
}

/* h's prediction; units_known: c->unit holds x's units (element_units). */
static void predict_units(ctx *c, const hyp *h, const float *x, const float *y, uint32_t head,
                          int units_known)
{
    double *o = c->pred;
    for (uint32_t d = 0; d < c->hd; d++)
        o[d] = x[d];
    uint32_t P = h->rope.rotary_dim / 2;
    if (c->tables && h->table != c->layout) {
        predict_table_order(c, h, x, o, head);
    } else {
        for (uint32_t k = 0; k < P; k++) {
            size_t i0, i1;
            posenc__pair_elems((int)h->pairs, P, k, &i0, &i1);
            uint32_t k0 = k, k1 = k;
            if (h->table != h->pairs) {
                k0 = pair_of(h->table, P, (uint32_t)i0);
                k1 = pair_of(h->table, P, (uint32_t)i1);
            }
            double x0 = x[i0], x1 = x[i1];
            o[i0] = x0 * c->C[k0] - x1 * c->S[k0];
            o[i1] = x1 * c->C[k1] + x0 * c->S[k1];
        }
    }
    if (h->envelope || h->env_ulps > 0)
        apply_envelope(c, h, y, o, units_known);
}

void posenc__predict(ctx *c, const hyp *h, const float *x, const float *y, uint32_t head)
{
    predict_units(c, h, x, y, head, 0);
}

/* The unit of each element: of its pair's norm in the model, and (a
 * hypothesis pairs differently) in the hypothesis, whichever is larger. */
static void element_units(ctx *c, const hyp *h, const float *x)
{
    double *u = c->unit;
    for (uint32_t i = c->R; i < c->hd; i++)
        u[i] = posenc__unit_of(fabs((double)x[i]), c->bits, c->emin);
    for (uint32_t k = 0; k < c->P; k++) {
        size_t i0, i1;
        posenc__pair_elems((int)c->layout, c->P, k, &i0, &i1);
        u[i0] = u[i1] = posenc__unit_of(c->a * sqrt((double)x[i0] * x[i0] + (double)x[i1] * x[i1]),
                                        c->bits, c->emin);
    }
    if (h->is_model)
        return;
    uint32_t Ph = h->rope.rotary_dim / 2;
    double g = fabs(h->gain) > c->a ? fabs(h->gain) : c->a;
    for (uint32_t i = 2 * Ph; i < c->R; i++) {
        double v = posenc__unit_of(fabs((double)x[i]), c->bits, c->emin);
        u[i] = v > u[i] ? v : u[i];
    }
    for (uint32_t k = 0; k < Ph; k++) {
        size_t i0, i1;
        posenc__pair_elems((int)h->pairs, Ph, k, &i0, &i1);
        double v = posenc__unit_of(g * sqrt((double)x[i0] * x[i0] + (double)x[i1] * x[i1]), c->bits,
                                   c->emin);
        u[i0] = v > u[i0] ? v : u[i0];
        u[i1] = v > u[i1] ? v : u[i1];
    }
}

/* The model-layout pair of element i (elements past the rotary part: P + i - R). */
static uint32_t pair_at(const ctx *c, uint32_t i)
{
    return i < c->R ? pair_of(c->layout, c->P, i) : c->P + (i - c->R);
}

double posenc__token_fit(ctx *c, const hyp *h, size_t t, double *abs_out, worst_at *w)
{
    int64_t p = c->pos[t];
    posenc__angles(c, h, p);
    double worst = 0, wabs = 0;
    for (uint32_t head = 0; head < c->n_head; head++) {
        const float *x = c->x + (t * c->n_head + head) * c->hd;
        const float *y = c->y + (t * c->n_head + head) * c->hd;
        element_units(c, h, x);
        predict_units(c, h, x, y, head, 1);
        for (uint32_t i = 0; i < c->hd; i++) {
            double d = fabs(c->pred[i] - y[i]);
            if (d > wabs)
                wabs = d;
            double e = d / c->unit[i];
            if (e > worst)
                worst = e;
            if (w) {
                w->sum2 += e * e;
                w->n++;
            }
            if (w && e > w->err) {
                w->err = e;
                w->t = t;
                w->head = head;
                w->pair = pair_at(c, i);
            }
        }
    }
    if (abs_out)
        *abs_out = wabs;
    return worst;
}

/* ---- passes over tokens, split between threads ------------------------------------- */

typedef struct pass {
    ctx c;                 /* a copy whose scratch is this task's */
    const hyp *h;
    const size_t *idx;     /* tokens idx[i0 .. i1), or i0 .. i1 when NULL */
    size_t i0, i1;
    double *err, *abs;     /* per token (indexed like idx), or NULL */
    double stop;           /* stop once the fit passes this */
    double fit;
    worst_at w;
    int want_w;
    double C[POSENC_ROPE_MAX_HEAD_DIM / 2], S[POSENC_ROPE_MAX_HEAD_DIM / 2];
    double E[POSENC_ROPE_MAX_HEAD_DIM / 2];
    double pred[POSENC_ROPE_MAX_HEAD_DIM], unit[POSENC_ROPE_MAX_HEAD_DIM];
} pass;

static void pass_run(void *arg)
{
    pass *p = arg;
    p->c.C = p->C;
    p->c.S = p->S;
    p->c.E = p->E;
    p->c.pred = p->pred;
    p->c.unit = p->unit;
    p->fit = 0;
    memset(&p->w, 0, sizeof p->w);
    p->w.err = -1;
    for (size_t i = p->i0; i < p->i1 && p->fit <= p->stop; i++) {
        double ab, e = posenc__token_fit(&p->c, p->h, p->idx ? p->idx[i] : i, &ab,
                                         p->want_w ? &p->w : NULL);
        if (p->err) {
            p->err[i] = e;
            p->abs[i] = ab;
        }
        if (e > p->fit)
            p->fit = e;
    }
}

double posenc__fit_tokens(const ctx *c, const hyp *h, const size_t *idx, size_t n, double *err,
                          double *abs, double stop, worst_at *w)
{
    /* a refit costs far more per element than a rotation: threads pay off
     * from 64 Ki elements each */
    size_t nt = posenc__threads_for(n, n * c->n_head * c->hd, c->n_threads, (size_t)64 << 10);
    pass *ps = malloc(nt * sizeof *ps);
    if (!ps)
        return -1;
    for (size_t k = 0; k < nt; k++) {
        ps[k].c = *c;
        ps[k].h = h;
        ps[k].idx = idx;
        ps[k].i0 = n * k / nt;
        ps[k].i1 = n * (k + 1) / nt;
        ps[k].err = err;
        ps[k].abs = abs;
        ps[k].stop = stop;
        ps[k].want_w = w != NULL;
    }
    posenc__parallel(nt, pass_run, ps, sizeof *ps);
    double fit = 0;
    for (size_t k = 0; k < nt; k++) {
        fit = ps[k].fit > fit ? ps[k].fit : fit;
        if (!w)
            continue;
        double sum2 = w->sum2 + ps[k].w.sum2;
        size_t n_el = w->n + ps[k].w.n;
        if (ps[k].w.err > w->err)
            *w = ps[k].w;
        w->sum2 = sum2;
        w->n = n_el;
    }
    free(ps);
    return fit;
}
