/* check.c - posenc_check_run: an engine's rotated vectors against the exact
 * RoPE of the model, and when they differ, the known mistakes refitted one by
 * one (posenc_check.h has the error measure and the candidate lists).
 *
 * Every prediction, the model's and each hypothesis', is computed in double:
 *     y = a * R(theta) x,  theta(t, k) = (pos[t] + c) * f(k)
 * with f the double-double frequency of posenc_rope and sin/cos of the exact
 * angle (posenc__sincos_dd). A hypothesis changes f (base, scaling, rotary
 * dim, LongRoPE set), c, a, the sign of theta, the pairing of the elements,
 * the layout the cos/sin are indexed by, rounds cos/sin or the positions to a
 * 16-bit float, or (angle-precision) lets each angle move inside the float32
 * envelope. */
#include "cpu.h"
#include "internal.h"
#include "posenc_check.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *posenc_check_cause_name(posenc_check_cause_id id)
{
    switch (id) {
    case POSENC_CAUSE_LAYOUT_SWAPPED: return "layout-swapped";
    case POSENC_CAUSE_LAYOUT_MIXED: return "layout-mixed";
    case POSENC_CAUSE_ANGLE_PRECISION: return "angle-precision";
    case POSENC_CAUSE_POSITION_OFFSET: return "position-offset";
    case POSENC_CAUSE_BASE: return "base";
    case POSENC_CAUSE_SCALING: return "scaling";
    case POSENC_CAUSE_LONGROPE_FACTORS: return "longrope-factors";
    case POSENC_CAUSE_ROTARY_DIM: return "rotary-dim";
    case POSENC_CAUSE_ATTN_FACTOR: return "attn-factor";
    case POSENC_CAUSE_DIRECTION: return "direction";
    case POSENC_CAUSE_DTYPE_ROUNDING: return "dtype-rounding";
    }
    return "unknown";
}

/* ---- the dtype's units ---------------------------------------------------------- */

/* Significand bits (with the implicit one) and the smallest normal exponent. */
static int dt_bits(posenc_dtype d) { return d == POSENC_DTYPE_F32 ? 24 : d == POSENC_DTYPE_F16 ? 11 : 8; }
static int dt_emin(posenc_dtype d) { return d == POSENC_DTYPE_F16 ? -14 : -126; }

/* ulp_dtype(v) = 2^(floor(log2 v) - (bits - 1)), v below the smallest normal
 * counting as that normal. */
static double unit_of(double v, int bits, int emin)
{
    uint64_t w;
    memcpy(&w, &v, sizeof w);
    int e = (int)((w >> 52) & 0x7FF) - 1023; /* floor(log2 v) for a normal v > 0 */
    if (e < emin)
        e = emin;
    uint64_t r = (uint64_t)(e - (bits - 1) + 1023) << 52;
    double u;
    memcpy(&u, &r, sizeof u);
    return u;
}

/* v rounded to nearest-even with `bits` significand bits (subnormals below 2^emin). */
static double round_sig(double v, int bits, int emin)
{
    if (v == 0 || !isfinite(v))
        return v;
    int e = ilogb(v);
    int q = (e < emin ? emin : e) - (bits - 1);
    return ldexp(nearbyint(ldexp(v, -q)), q);
}

/* ---- hypotheses ------------------------------------------------------------------ */

enum { ROUND_NONE = 0, ROUND_BF16 = 1, ROUND_F16 = 2 };

typedef struct hyp {
    posenc_check_cause_id id;
    int is_model;          /* the model itself (not a cause) */
    char params[96];
    posenc_rope rope;      /* frequencies, rotary_dim, attn_factor */
    int64_t offset;        /* c */
    posenc_layout pairs;   /* which elements form a pair */
    posenc_layout table;   /* which pair's angle cos/sin of an element carry */
    double sign;           /* +1, or -1 (direction) */
    double gain;           /* the factor on cos and sin */
    int round_cs, round_pos, round_freq;
    int envelope;          /* angle-precision */
    double fit;            /* on the sample, then on every token */
} hyp;

typedef struct ctx {
    size_t n_tok;
    uint32_t n_head, hd, R, P;
    posenc_layout layout;
    const int64_t *pos;
    const float *x, *y;    /* [n_tok][n_head][hd] (tables: converted) */
    int tables;            /* 1: half-width table, 2: full-width */
    double a;              /* the model's attention factor */
    int bits, emin;
    double tol;
    const posenc_rope *model;
    double *C, *S;         /* [R] angles' cos/sin of the hypothesis */
    double *pred;          /* [hd] */
    double *unit;          /* [hd]: each element's ulp */
    int64_t onset;         /* smallest position with error > tol (model pass) */
} ctx;

static posenc_layout other(posenc_layout l)
{
    return l == POSENC_LAYOUT_HALF ? POSENC_LAYOUT_INTERLEAVED : POSENC_LAYOUT_HALF;
}

static const char *layout_word(posenc_layout l) { return l == POSENC_LAYOUT_HALF ? "half" : "interleaved"; }

/* The pair of element i of a rotated part of 2P elements in layout l. */
static uint32_t pair_of(posenc_layout l, uint32_t P, uint32_t i)
{
    return l == POSENC_LAYOUT_INTERLEAVED ? i / 2 : i % P;
}

/* cos/sin of hypothesis h at token position p into c->C, c->S. */
static void angles(ctx *c, const hyp *h, int64_t p)
{
    uint32_t P = h->rope.rotary_dim / 2;
    double pp = (double)p + (double)h->offset;
    if (h->round_pos)
        pp = round_sig(pp, h->round_pos == ROUND_BF16 ? 8 : 11, h->round_pos == ROUND_BF16 ? -126 : -14);
    double neg = pp < 0 ? -1.0 : 1.0;
    int64_t ap = (int64_t)fabs(pp);
    for (uint32_t k = 0; k < P; k++) {
        double s, co;
        posenc__dd f = {h->rope.inv_freq_hi[k], h->rope.inv_freq_lo[k]};
        if (h->round_freq) /* inv_freq stored in a 16-bit float (a model cast whole) */
            f = (posenc__dd){round_sig(f.hi, h->round_freq == ROUND_BF16 ? 8 : 11,
                                       h->round_freq == ROUND_BF16 ? -126 : -14), 0.0};
        posenc__sincos_dd(ap, f, &s, &co);
        double cc = h->gain * co, ss = h->sign * neg * h->gain * s;
        if (h->round_cs) {
            int b = h->round_cs == ROUND_BF16 ? 8 : 11, e = h->round_cs == ROUND_BF16 ? -126 : -14;
            cc = round_sig(cc, b, e);
            ss = round_sig(ss, b, e);
        }
        c->C[k] = cc;
        c->S[k] = ss;
    }
}

/* The prediction of hypothesis h for head x (angles already in C, S) into c->pred. */
static void predict(ctx *c, const hyp *h, const float *x, const float *y, int64_t p, uint32_t head)
{
    double *o = c->pred;
    for (uint32_t d = 0; d < c->hd; d++)
        o[d] = x[d];
    uint32_t P = h->rope.rotary_dim / 2;
    if (c->tables && h->table != c->layout) {
        /* a full-width table in the other layout's order: element d carries
         * the angle of its pair in that layout */
        for (uint32_t k = 0; k < P; k++) {
            size_t i0, i1;
            posenc__pair_elems((int)c->layout, P, k, &i0, &i1);
            uint32_t q = pair_of(h->table, P, (uint32_t)(head == 0 ? i0 : i1));
            o[i0] = x[i0] * c->C[q] - x[i1] * c->S[q];
            o[i1] = x[i1] * c->C[q] + x[i0] * c->S[q];
        }
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
    if (h->envelope) {
        /* the best angle within 8 float32 ulps of theta (plus 2^-24) of the
         * exact one: turn the exact pair towards the engine's, clamped */
        for (uint32_t k = 0; k < P; k++) {
            size_t i0, i1;
            posenc__pair_elems((int)c->layout, P, k, &i0, &i1);
            double e0 = o[i0], e1 = o[i1], u = y[i0], v = y[i1];
            double delta = atan2(e0 * v - e1 * u, e0 * u + e1 * v);
            double theta = (double)p * h->rope.inv_freq_hi[k];
            double env = 0x1p-24 * (8.0 * theta + 1.0);
            delta = delta > env ? env : delta < -env ? -env : delta;
            double cd = cos(delta), sd = sin(delta);
            o[i0] = e0 * cd - e1 * sd;
            o[i1] = e0 * sd + e1 * cd;
        }
    }
}

/* Largest error (ulps) of hypothesis h on token t over its heads; *abs the
 * largest absolute difference. */
static double token_fit(ctx *c, const hyp *h, size_t t, double *abs_out)
{
    int64_t p = c->pos[t];
    angles(c, h, p);
    double worst = 0, wabs = 0;
    for (uint32_t head = 0; head < c->n_head; head++) {
        const float *x = c->x + (t * c->n_head + head) * c->hd;
        const float *y = c->y + (t * c->n_head + head) * c->hd;
        predict(c, h, x, y, p, head);
        /* the unit of each element: of its pair's norm in the model, and (a
         * hypothesis pairs differently) in the hypothesis, whichever is larger */
        double *u = c->unit;
        for (uint32_t i = c->R; i < c->hd; i++)
            u[i] = unit_of(fabs((double)x[i]), c->bits, c->emin);
        for (uint32_t k = 0; k < c->P; k++) {
            size_t i0, i1;
            posenc__pair_elems((int)c->layout, c->P, k, &i0, &i1);
            u[i0] = u[i1] = unit_of(c->a * sqrt((double)x[i0] * x[i0] + (double)x[i1] * x[i1]), c->bits, c->emin);
        }
        if (!h->is_model) {
            uint32_t Ph = h->rope.rotary_dim / 2;
            double g = fabs(h->gain) > c->a ? fabs(h->gain) : c->a;
            for (uint32_t i = 2 * Ph; i < c->R; i++) {
                double v = unit_of(fabs((double)x[i]), c->bits, c->emin);
                u[i] = v > u[i] ? v : u[i];
            }
            for (uint32_t k = 0; k < Ph; k++) {
                size_t i0, i1;
                posenc__pair_elems((int)h->pairs, Ph, k, &i0, &i1);
                double v = unit_of(g * sqrt((double)x[i0] * x[i0] + (double)x[i1] * x[i1]), c->bits, c->emin);
                u[i0] = v > u[i0] ? v : u[i0];
                u[i1] = v > u[i1] ? v : u[i1];
            }
        }
        for (uint32_t i = 0; i < c->hd; i++) {
            double d = fabs(c->pred[i] - y[i]);
            if (d > wabs)
                wabs = d;
            if (d / u[i] > worst)
                worst = d / u[i];
        }
    }
    if (abs_out)
        *abs_out = wabs;
    return worst;
}

/* ---- passes over tokens, split between threads ------------------------------------- */

/* Threads of one pass: the online CPUs, at most this many. */
#define CHECK_MAX_THREADS 16

typedef struct pass {
    ctx c;                 /* a copy whose scratch is this task's */
    const hyp *h;
    const size_t *idx;     /* tokens idx[i0 .. i1), or i0 .. i1 when NULL */
    size_t i0, i1;
    double *err, *abs;     /* per token (indexed like idx), or NULL */
    double stop;           /* stop once the fit passes this */
    double fit;
    double C[POSENC_ROPE_MAX_HEAD_DIM / 2], S[POSENC_ROPE_MAX_HEAD_DIM / 2];
    double pred[POSENC_ROPE_MAX_HEAD_DIM], unit[POSENC_ROPE_MAX_HEAD_DIM];
} pass;

static void pass_run(void *arg)
{
    pass *p = arg;
    p->c.C = p->C;
    p->c.S = p->S;
    p->c.pred = p->pred;
    p->c.unit = p->unit;
    p->fit = 0;
    for (size_t i = p->i0; i < p->i1 && p->fit <= p->stop; i++) {
        double ab, e = token_fit(&p->c, p->h, p->idx ? p->idx[i] : i, &ab);
        if (p->err) {
            p->err[i] = e;
            p->abs[i] = ab;
        }
        if (e > p->fit)
            p->fit = e;
    }
}

/* The largest error of h over n tokens (idx, or 0 .. n-1); per-token errors
 * into err and abs when not NULL; stops early past stop (then the result is
 * only known to be > stop). NULL when out of memory... returns -1 then. */
static double fit_tokens(const ctx *c, const hyp *h, const size_t *idx, size_t n, double *err,
                         double *abs, double stop, size_t n_threads)
{
    /* a refit costs far more per element than a rotation: threads pay off
     * from 64 Ki elements each */
    size_t nt = posenc__threads_for(n, n * c->n_head * c->hd, n_threads, (size_t)64 << 10);
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
    }
    posenc__parallel(nt, pass_run, ps, sizeof *ps);
    double fit = 0;
    for (size_t k = 0; k < nt; k++)
        fit = ps[k].fit > fit ? ps[k].fit : fit;
    free(ps);
    return fit;
}

/* ---- building the candidates ------------------------------------------------------ */

typedef struct hyps {
    hyp *v;
    size_t n, cap;
} hyps;

/* A new hypothesis like the model's; NULL when out of memory. */
static hyp *add(hyps *hs, const hyp *model, posenc_check_cause_id id)
{
    if (hs->n == hs->cap) {
        size_t cap = hs->cap ? hs->cap * 2 : 64;
        hyp *p = realloc(hs->v, cap * sizeof *p);
        if (!p)
            return NULL;
        hs->v = p;
        hs->cap = cap;
    }
    hyp *h = &hs->v[hs->n++];
    *h = *model;
    h->is_model = 0;
    h->id = id;
    h->params[0] = '\0';
    return h;
}

/* A hypothesis with the RoPE of configuration cfg at cur_len; dropped (0) when
 * the library refuses cfg. */
static int add_config(hyps *hs, const hyp *model, posenc_check_cause_id id,
                      const posenc_rope_config *cfg, int64_t cur_len, const char *params)
{
    posenc_rope r;
    if (posenc_rope_init_config(&r, cfg, cur_len) != POSENC_OK)
        return 0;
    hyp *h = add(hs, model, id);
    if (!h)
        return -1;
    h->rope = r;
    h->gain = r.attn_factor;
    snprintf(h->params, sizeof h->params, "%s", params);
    return 1;
}

static void fmt_num(char *buf, size_t n, double v) { snprintf(buf, n, "%.10g", v); }

static posenc_status build(hyps *hs, const hyp *model, const posenc_rope_config *cfg,
                           int64_t seq_len, const ctx *c, double gain_est)
{
    char p[96], num[40];
    hyp *h;
#define ADD(id) do { if (!(h = add(hs, model, (id)))) return POSENC_ERR_NOMEM; } while (0)
#define ADDC(id, cf, len, par) do { if (add_config(hs, model, (id), (cf), (len), (par)) < 0) \
                                        return POSENC_ERR_NOMEM; } while (0)
    posenc_layout L = cfg->layout;
    if (!c->tables) {
        ADD(POSENC_CAUSE_LAYOUT_SWAPPED);
        h->pairs = h->table = other(L);
        snprintf(h->params, sizeof h->params, "layout=%s", layout_word(other(L)));
        ADD(POSENC_CAUSE_LAYOUT_MIXED);
        h->table = other(L);
        snprintf(h->params, sizeof h->params, "table=%s pairs=%s", layout_word(other(L)), layout_word(L));
        ADD(POSENC_CAUSE_LAYOUT_MIXED);
        h->pairs = other(L);
        snprintf(h->params, sizeof h->params, "table=%s pairs=%s", layout_word(L), layout_word(other(L)));
    } else if (c->tables == 2) {
        ADD(POSENC_CAUSE_LAYOUT_MIXED);
        h->table = other(L);
        snprintf(h->params, sizeof h->params, "table=%s pairs=%s", layout_word(other(L)), layout_word(L));
    }
    ADD(POSENC_CAUSE_ANGLE_PRECISION);
    h->envelope = 1;
    /* position offsets: +-1..+-16, +-2^5..+-2^20 */
    for (int sgn = 1; sgn >= -1; sgn -= 2)
        for (int64_t m = 1; m <= (1 << 20); m = m < 16 ? m + 1 : m * 2) {
            ADD(POSENC_CAUSE_POSITION_OFFSET);
            h->offset = sgn * m;
            snprintf(h->params, sizeof h->params, "c=%lld", (long long)h->offset);
        }
    /* bases */
    static const double BASES[] = {1e4, 2e4, 5e4, 7.5e4, 1e5, 1.5e5, 2.5e5, 5e5, 6.4e5,
                                   1e6, 2e6, 5e6, 8e6, 1e7, 1e8};
    static const double TIMES[] = {0.1, 0.25, 0.5, 2, 4, 10};
    double tried[32];
    size_t n_tried = 0;
    for (size_t i = 0; i < sizeof BASES / sizeof BASES[0] + sizeof TIMES / sizeof TIMES[0]; i++) {
        double b = i < sizeof BASES / sizeof BASES[0] ? BASES[i]
                 : cfg->base * TIMES[i - sizeof BASES / sizeof BASES[0]];
        int seen = b == cfg->base;
        for (size_t j = 0; j < n_tried; j++)
            seen |= tried[j] == b;
        if (seen)
            continue;
        tried[n_tried++] = b;
        posenc_rope_config c2 = *cfg;
        c2.base = b;
        fmt_num(num, sizeof num, b);
        snprintf(p, sizeof p, "base=%s", num);
        ADDC(POSENC_CAUSE_BASE, &c2, seq_len, p);
    }
    /* scalings */
    posenc_rope_type mt = cfg->scaling.type;
    double L0 = cfg->scaling.original_max_position_embeddings;
    if (!(L0 >= 1))
        L0 = cfg->max_position_embeddings > 0 ? (double)cfg->max_position_embeddings : 4096;
    if (mt != POSENC_ROPE_DEFAULT || cfg->scaling.n_freq_factors) {
        posenc_rope_config c2 = *cfg;
        if (posenc_rope_scaling_init(&c2.scaling, POSENC_ROPE_DEFAULT) != POSENC_OK)
            return POSENC_ERR_RANGE;
        ADDC(POSENC_CAUSE_SCALING, &c2, seq_len, "what=none");
    }
    static const double FACTORS[] = {2, 4, 8, 16, 32, 40, 64};
    static const posenc_rope_type TYPES[] = {POSENC_ROPE_LINEAR, POSENC_ROPE_NTK, POSENC_ROPE_DYNAMIC,
                                             POSENC_ROPE_YARN, POSENC_ROPE_LLAMA3};
    for (size_t ti = 0; ti < sizeof TYPES / sizeof TYPES[0]; ti++)
        for (size_t fi = 0; fi <= sizeof FACTORS / sizeof FACTORS[0]; fi++) {
            double f = fi < sizeof FACTORS / sizeof FACTORS[0] ? FACTORS[fi] : cfg->scaling.factor;
            if (fi == sizeof FACTORS / sizeof FACTORS[0]) {
                int dup = 0;
                for (size_t j = 0; j < fi; j++)
                    dup |= FACTORS[j] == f;
                if (dup || !(f > 1))
                    continue;
            }
            if (TYPES[ti] == mt && f == cfg->scaling.factor)
                continue;
            posenc_rope_config c2 = *cfg;
            if (posenc_rope_scaling_init(&c2.scaling, TYPES[ti]) != POSENC_OK)
                return POSENC_ERR_RANGE;
            c2.scaling.factor = f;
            c2.scaling.original_max_position_embeddings = L0;
            if (TYPES[ti] == POSENC_ROPE_LLAMA3) {
                c2.scaling.low_freq_factor = mt == POSENC_ROPE_LLAMA3 ? cfg->scaling.low_freq_factor : 1;
                c2.scaling.high_freq_factor = mt == POSENC_ROPE_LLAMA3 ? cfg->scaling.high_freq_factor : 4;
            }
            fmt_num(num, sizeof num, f);
            snprintf(p, sizeof p, "what=%s factor=%s", posenc_rope_type_name(TYPES[ti]), num);
            ADDC(POSENC_CAUSE_SCALING, &c2, seq_len, p);
        }
    if (mt == POSENC_ROPE_DYNAMIC) {
        double lens[] = {(double)cfg->max_position_embeddings, L0, 2 * L0, 4 * L0, 8 * L0};
        for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            int dup = !(lens[i] >= 1) || lens[i] > (double)POSENC_MAX_POS ||
                      (int64_t)lens[i] == seq_len;
            for (size_t j = 0; j < i; j++)
                dup |= lens[j] == lens[i];
            if (dup)
                continue;
            fmt_num(num, sizeof num, cfg->scaling.factor);
            snprintf(p, sizeof p, "what=dynamic factor=%s len=%lld", num, (long long)lens[i]);
            ADDC(POSENC_CAUSE_SCALING, cfg, (int64_t)lens[i], p);
        }
    }
    if (mt == POSENC_ROPE_LONGROPE && L0 < (double)POSENC_MAX_POS) {
        int now_long = (double)seq_len > L0;
        ADDC(POSENC_CAUSE_LONGROPE_FACTORS, cfg, now_long ? (int64_t)L0 : (int64_t)L0 + 1,
             now_long ? "set=short" : "set=long");
    }
    /* rotary dims */
    if (!c->tables)
        for (uint32_t r = 2; r <= cfg->head_dim; r += 2) {
            if (r == cfg->rotary_dim)
                continue;
            posenc_rope_config c2 = *cfg;
            c2.rotary_dim = r;
            snprintf(p, sizeof p, "rotary_dim=%u", r);
            ADDC(POSENC_CAUSE_ROTARY_DIM, &c2, seq_len, p);
        }
    /* attention factors */
    double gains[] = {1, model->gain * model->gain, sqrt(model->gain), gain_est};
    for (size_t i = 0; i < sizeof gains / sizeof gains[0]; i++) {
        int dup = !(gains[i] > 0) || !isfinite(gains[i]) || gains[i] == model->gain;
        for (size_t j = 0; j < i; j++)
            dup |= gains[j] == gains[i];
        if (dup)
            continue;
        ADD(POSENC_CAUSE_ATTN_FACTOR);
        h->gain = gains[i];
        fmt_num(num, sizeof num, gains[i]);
        snprintf(h->params, sizeof h->params, "factor=%.7g", gains[i]);
    }
    ADD(POSENC_CAUSE_DIRECTION);
    h->sign = -1;
    static const char *const ROUND_WORDS[] = {"cos-sin-bf16", "cos-sin-f16", "positions-bf16",
                                              "positions-f16", "inv-freq-bf16", "inv-freq-f16"};
    for (int i = 0; i < 6; i++) {
        ADD(POSENC_CAUSE_DTYPE_ROUNDING);
        if (i < 2)
            h->round_cs = i == 0 ? ROUND_BF16 : ROUND_F16;
        else if (i < 4)
            h->round_pos = i == 2 ? ROUND_BF16 : ROUND_F16;
        else
            h->round_freq = i == 4 ? ROUND_BF16 : ROUND_F16;
        snprintf(h->params, sizeof h->params, "what=%s", ROUND_WORDS[i]);
    }
#undef ADD
#undef ADDC
    return POSENC_OK;
}

/* ---- the run ---------------------------------------------------------------------- */

static size_t band_of(int64_t p)
{
    size_t b = 0;
    for (int64_t hi = 16; p >= hi && b + 1 < POSENC_CHECK_MAX_BANDS; hi *= 4)
        b++;
    return b;
}

static void band_bounds(size_t b, int64_t *lo, int64_t *hi)
{
    int64_t l = 0, h = 16;
    for (size_t i = 0; i < b; i++) {
        l = h;
        h *= 4;
    }
    *lo = l;
    *hi = b + 1 == POSENC_CHECK_MAX_BANDS ? POSENC_MAX_POS : h - 1;
}

static int cmp_fit(const void *a, const void *b)
{
    const hyp *x = *(const hyp *const *)a, *y = *(const hyp *const *)b;
    return x->fit < y->fit ? -1 : x->fit > y->fit ? 1 : (x < y ? -1 : x > y);
}

/* Converts tables into pseudo heads: x = (1, 0) on each pair of the model's
 * layout, y = (cos, sin), so that y = a R(theta) x. */
static posenc_status tables_to_heads(const posenc_check_input *in, uint32_t R, posenc_layout L,
                                     float **xo, float **yo, uint32_t *n_head)
{
    uint32_t P = R / 2, nh = in->table_dim == R ? 2 : 1;
    size_t n = in->n_tok * nh * R;
    float *x = calloc(n, sizeof *x), *y = calloc(n, sizeof *y);
    if (!x || !y) {
        free(x);
        free(y);
        return POSENC_ERR_NOMEM;
    }
    for (size_t t = 0; t < in->n_tok; t++)
        for (uint32_t h = 0; h < nh; h++)
            for (uint32_t k = 0; k < P; k++) {
                size_t i0, i1;
                posenc__pair_elems((int)L, P, k, &i0, &i1);
                size_t col = nh == 1 ? k : (h == 0 ? i0 : i1);
                size_t at = (t * nh + h) * R;
                x[at + i0] = 1;
                y[at + i0] = in->cos[t * in->table_dim + col];
                y[at + i1] = in->sin[t * in->table_dim + col];
            }
    *xo = x;
    *yo = y;
    *n_head = nh;
    return POSENC_OK;
}

posenc_status posenc_check_run(const posenc_rope_config *model, const posenc_check_input *in,
                               int64_t seq_len, double tol_ulp, posenc_check_result *out)
{
    if (!model || !in || !out || !in->pos)
        return POSENC_ERR_NULL;
    int tables = !in->x && !in->y;
    if (tables ? (!in->cos || !in->sin) : (!in->x || !in->y || in->cos || in->sin))
        return (tables || !in->x || !in->y) ? POSENC_ERR_NULL : POSENC_ERR_RANGE;
    if (in->n_tok == 0 || (unsigned)in->dtype > POSENC_DTYPE_F16 || seq_len < 0 ||
        seq_len > POSENC_MAX_POS + 1 || tol_ulp < 0 || !isfinite(tol_ulp))
        return POSENC_ERR_RANGE;
    if (!tables && in->n_head == 0)
        return POSENC_ERR_RANGE;
    int64_t max_pos = 0;
    for (size_t t = 0; t < in->n_tok; t++) {
        if (!posenc__pos_ok(in->pos[t]))
            return POSENC_ERR_POS;
        if (in->pos[t] > max_pos)
            max_pos = in->pos[t];
    }
    if (seq_len == 0)
        seq_len = max_pos + 1;
    posenc_rope_config cfg = *model;
    posenc_rope rope;
    posenc_status s = posenc_rope_init_config(&rope, &cfg, seq_len);
    if (s != POSENC_OK)
        return s;
    uint32_t R = rope.rotary_dim;
    if (tables) {
        if (in->table_dim != R && in->table_dim != R / 2)
            return POSENC_ERR_DIM;
        /* the tables are one head of the rotated part */
        cfg.head_dim = R;
        if ((s = posenc_rope_init_config(&rope, &cfg, seq_len)) != POSENC_OK)
            return s;
    } else if (in->head_dim != rope.head_dim) {
        return POSENC_ERR_DIM;
    }
    size_t per = tables ? in->table_dim : (size_t)in->n_head * in->head_dim;
    if (in->n_tok > POSENC_CHECK_MAX_ELEMS / per)
        return POSENC_ERR_OVERFLOW;
    const float *va = tables ? in->cos : in->x, *vb = tables ? in->sin : in->y;
    if (!posenc__all_finite_f32(va, in->n_tok * per) || !posenc__all_finite_f32(vb, in->n_tok * per))
        return POSENC_ERR_NOT_FINITE;

    ctx c = {0};
    c.n_tok = in->n_tok;
    c.hd = rope.head_dim;
    c.R = R;
    c.P = R / 2;
    c.layout = rope.layout;
    c.pos = in->pos;
    c.a = rope.attn_factor;
    c.bits = dt_bits(in->dtype);
    c.emin = dt_emin(in->dtype);
    c.tol = tol_ulp > 0 ? tol_ulp : POSENC_CHECK_DEFAULT_TOL;
    c.model = &rope;
    float *tx = NULL, *ty = NULL;
    if (tables) {
        if ((s = tables_to_heads(in, R, rope.layout, &tx, &ty, &c.n_head)) != POSENC_OK)
            return s;
        c.tables = (int)c.n_head;
        c.x = tx;
        c.y = ty;
    } else {
        c.n_head = in->n_head;
        c.x = in->x;
        c.y = in->y;
    }
    c.C = malloc(POSENC_ROPE_MAX_HEAD_DIM * sizeof *c.C);
    c.S = malloc(POSENC_ROPE_MAX_HEAD_DIM * sizeof *c.S);
    c.pred = malloc(POSENC_ROPE_MAX_HEAD_DIM * sizeof *c.pred);
    c.unit = malloc(POSENC_ROPE_MAX_HEAD_DIM * sizeof *c.unit);
    hyps hs = {0};
    size_t *sample = NULL;
    hyp **order = NULL;
    double *errs = NULL, *abss = NULL;
    if (!c.C || !c.S || !c.pred || !c.unit) {
        s = POSENC_ERR_NOMEM;
        goto done;
    }

    /* the model over every token: the verdict, the bands, the onset */
    hyp m = {0};
    m.is_model = 1;
    m.rope = rope;
    m.pairs = m.table = rope.layout;
    m.sign = 1;
    m.gain = rope.attn_factor;
    memset(out, 0, sizeof *out);
    out->dtype = in->dtype;
    out->n_tok = in->n_tok;
    out->n_head = c.n_head;
    out->tol_ulp = c.tol;
    out->seq_len = seq_len;
    out->worst_pos = in->pos[0];
    posenc_check_band bands[POSENC_CHECK_MAX_BANDS];
    memset(bands, 0, sizeof bands);
    size_t worst_t = 0;
    int64_t onset = -1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t n_threads = cpus < 1 ? 1 : cpus > CHECK_MAX_THREADS ? CHECK_MAX_THREADS : (size_t)cpus;
    errs = malloc(c.n_tok * sizeof *errs);
    abss = malloc(c.n_tok * sizeof *abss);
    if (!errs || !abss || fit_tokens(&c, &m, NULL, c.n_tok, errs, abss, INFINITY, n_threads) < 0) {
        s = POSENC_ERR_NOMEM;
        goto done;
    }
    for (size_t t = 0; t < c.n_tok; t++) {
        double ab = abss[t], e = errs[t];
        posenc_check_band *b = &bands[band_of(in->pos[t])];
        b->n_tok++;
        if (e > b->max_ulp)
            b->max_ulp = e;
        if (ab > b->max_abs)
            b->max_abs = ab;
        if (e > out->max_ulp) {
            out->max_ulp = e;
            out->worst_pos = in->pos[t];
            worst_t = t;
        }
        if (ab > out->max_abs)
            out->max_abs = ab;
        if (e > c.tol && (onset < 0 || in->pos[t] < onset))
            onset = in->pos[t];
    }
    for (size_t b = 0; b < POSENC_CHECK_MAX_BANDS; b++)
        if (bands[b].n_tok) {
            band_bounds(b, &bands[b].pos_lo, &bands[b].pos_hi);
            out->band[out->n_band++] = bands[b];
        }
    out->match = out->max_ulp <= c.tol;
    if (out->match)
        goto done;

    /* the sample: up to 256 tokens spread over the dump, with the worst */
    size_t n_s = c.n_tok < 256 ? c.n_tok : 256;
    sample = malloc(n_s * sizeof *sample);
    if (!sample) {
        s = POSENC_ERR_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < n_s; i++)
        sample[i] = n_s == c.n_tok ? i : i * c.n_tok / n_s;
    if (n_s < c.n_tok)
        sample[n_s - 1] = worst_t;
    /* the engine's gain over the sample (least squares against a = 1) */
    double syy = 0, sy1 = 0;
    hyp unit = m;
    unit.gain = 1;
    for (size_t i = 0; i < n_s; i++) {
        size_t t = sample[i];
        angles(&c, &unit, in->pos[t]);
        for (uint32_t h = 0; h < c.n_head; h++) {
            const float *x = c.x + (t * c.n_head + h) * c.hd, *y = c.y + (t * c.n_head + h) * c.hd;
            predict(&c, &unit, x, y, in->pos[t], h);
            for (uint32_t d = 0; d < c.R; d++) {
                sy1 += c.pred[d] * y[d];
                syy += c.pred[d] * c.pred[d];
            }
        }
    }
    double gain_est = syy > 0 ? sy1 / syy : 1;
    if ((s = build(&hs, &m, &cfg, seq_len, &c, gain_est)) != POSENC_OK)
        goto done;
    order = malloc((hs.n ? hs.n : 1) * sizeof *order);
    if (!order) {
        s = POSENC_ERR_NOMEM;
        goto done;
    }
    size_t n_fit = 0;
    for (size_t i = 0; i < hs.n; i++) {
        hyp *h = &hs.v[i];
        h->fit = fit_tokens(&c, h, sample, n_s, NULL, NULL, c.tol, n_threads);
        if (h->fit < 0) {
            s = POSENC_ERR_NOMEM;
            goto done;
        }
        if (h->fit <= c.tol)
            order[n_fit++] = h;
    }
    qsort(order, n_fit, sizeof *order, cmp_fit);
    if (n_fit > POSENC_CHECK_MAX_CAUSES)
        n_fit = POSENC_CHECK_MAX_CAUSES;
    /* refit the survivors on every token */
    size_t n_keep = 0;
    for (size_t i = 0; i < n_fit; i++) {
        hyp *h = order[i];
        h->fit = fit_tokens(&c, h, NULL, c.n_tok, NULL, NULL, c.tol, n_threads);
        if (h->fit < 0) {
            s = POSENC_ERR_NOMEM;
            goto done;
        }
        if (h->fit <= c.tol)
            order[n_keep++] = h;
    }
    qsort(order, n_keep, sizeof *order, cmp_fit);
    for (size_t i = 0; i < n_keep; i++) {
        posenc_check_cause *k = &out->cause[out->n_cause++];
        k->cause = order[i]->id;
        k->fit_ulp = order[i]->fit;
        if (order[i]->envelope)
            snprintf(k->params, sizeof k->params, "onset=%lld", (long long)onset);
        else
            snprintf(k->params, sizeof k->params, "%s", order[i]->params);
    }
done:
    free(tx);
    free(ty);
    free(c.C);
    free(c.S);
    free(c.pred);
    free(c.unit);
    free(hs.v);
    free(sample);
    free(order);
    free(errs);
    free(abss);
    return s;
}
