/* check.c - posenc_check_run: an engine's rotated vectors against the RoPE of
 * the model under the expected engine's arithmetic, and when they differ,
 * the known mistakes refitted (posenc_check.h has the error measure, the
 * engines and the candidate lists).
 *
 * The search is staged, simplest first, and stops at the first stage where
 * something fits:
 *   1. each mistake alone on the expected engine's arithmetic, and each other
 *      engine model alone (angle-precision model=NAME);
 *   2. each mistake on another engine model (the mistake, then the model's
 *      angle-precision: a planted bug in an engine whose own float32 error
 *      shows too);
 *   3. two mistakes of different rooms together (posenc__mods_pair: the
 *      layout with anything, the base with the scaling...), on every model.
 * Candidates are screened on up to 256 tokens (the worst first, so that a
 * hypothesis that cannot fit stops early) and the best refitted on every
 * token. When nothing fits, the nearest single hypothesis is refitted on
 * every token to say where its error is. */
#include "check_impl.h"

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

/* Threads of one pass: the online CPUs, at most this many. */
#define CHECK_MAX_THREADS 16

/* ---- bands, tables ---------------------------------------------------------------- */

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
    const spec *x = a, *y = b;
    if (x->n_cause != y->n_cause)
        return x->n_cause < y->n_cause ? -1 : 1;
    return x->fit < y->fit ? -1 : x->fit > y->fit ? 1 : (x->order > y->order) - (x->order < y->order);
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


/* ---- the verdict -------------------------------------------------------------------- */

/* What the search needs from the verdict pass. */
typedef struct verdict {
    size_t worst_t;
    int64_t onset;         /* smallest position with error > tol, -1 none */
} verdict;

/* The expectation over every token: the verdict, the bands, the onset. */
static posenc_status judge(const ctx *c, const hyp *m, const int64_t *pos, posenc_check_result *out,
                           verdict *v)
{
    double *errs = malloc(c->n_tok * sizeof *errs), *abss = malloc(c->n_tok * sizeof *abss);
    if (!errs || !abss || posenc__fit_tokens(c, m, NULL, c->n_tok, errs, abss, INFINITY, NULL) < 0) {
        free(errs);
        free(abss);
        return POSENC_ERR_NOMEM;
    }
    posenc_check_band bands[POSENC_CHECK_MAX_BANDS];
    memset(bands, 0, sizeof bands);
    v->worst_t = 0;
    v->onset = -1;
    out->worst_pos = pos[0];
    for (size_t t = 0; t < c->n_tok; t++) {
        double ab = abss[t], e = errs[t];
        posenc_check_band *b = &bands[band_of(pos[t])];
        b->n_tok++;
        b->max_ulp = e > b->max_ulp ? e : b->max_ulp;
        b->max_abs = ab > b->max_abs ? ab : b->max_abs;
        if (e > out->max_ulp) {
            out->max_ulp = e;
            out->worst_pos = pos[t];
            v->worst_t = t;
        }
        out->max_abs = ab > out->max_abs ? ab : out->max_abs;
        if (e > c->tol && (v->onset < 0 || pos[t] < v->onset))
            v->onset = pos[t];
    }
    for (size_t b = 0; b < POSENC_CHECK_MAX_BANDS; b++)
        if (bands[b].n_tok) {
            band_bounds(b, &bands[b].pos_lo, &bands[b].pos_hi);
            out->band[out->n_band++] = bands[b];
        }
    out->match = out->max_ulp <= c->tol;
    free(errs);
    free(abss);
    return POSENC_OK;
}

/* ---- the search --------------------------------------------------------------------- */

typedef struct finder {
    search S;
    const ctx *c;
    size_t *sample;        /* the screening tokens, the worst first */
    size_t n_s;
    verdict v;
    mod *mods;
    size_t n_mods;
} finder;

static int spec_push(specs *l, const mod *a, const mod *b, angle_model am, angle_model expected)
{
    if (!posenc__grow((void **)&l->v, &l->cap, l->n, sizeof *l->v))
        return 0;
    spec *s = &l->v[l->n];
    memset(s, 0, sizeof *s);
    if (a)
        s->m[s->n_mod++] = *a;
    if (b)
        s->m[s->n_mod++] = *b;
    s->amodel = am;
    s->n_cause = s->n_mod + (am != expected);
    s->order = l->n++;
    return 1;
}

/* The engine's gain over the sample (least squares against gain 1) under
 * each angle model. */
static void gains(finder *F, const hyp *m)
{
    const ctx *c0 = F->c;
    ctx c = *c0;
    double C[POSENC_ROPE_MAX_HEAD_DIM / 2], S[POSENC_ROPE_MAX_HEAD_DIM / 2], E[POSENC_ROPE_MAX_HEAD_DIM / 2];
    double pred[POSENC_ROPE_MAX_HEAD_DIM];
    c.C = C;
    c.S = S;
    c.E = E;
    c.pred = pred;
    for (int am = 0; am < ANGLE_N; am++) {
        hyp unit = *m;
        unit.gain = 1;
        unit.env_ulps = 0;
        if ((angle_model)am != m->amodel)
            posenc__engine_setup(&unit, (angle_model)am, F->S.cfg);
        double syy = 0, sy1 = 0;
        for (size_t i = 0; i < F->n_s; i++) {
            size_t t = F->sample[i];
            posenc__angles(&c, &unit, c.pos[t]);
            for (uint32_t h = 0; h < c.n_head; h++) {
                const float *x = c.x + (t * c.n_head + h) * c.hd, *y = c.y + (t * c.n_head + h) * c.hd;
                posenc__predict(&c, &unit, x, y, h);
                for (uint32_t d = 0; d < c.R; d++) {
                    sy1 += pred[d] * y[d];
                    syy += pred[d] * pred[d];
                }
            }
        }
        F->S.gain_est[am] = syy > 0 ? sy1 / syy : 1;
    }
}

/* Keeps the first n recipes of l that fit on tokens idx (n_idx of them;
 * NULL: every token), in order; their count, or -1 when out of memory. */
static long keep_fitting(finder *F, specs *l, size_t n, const size_t *idx, size_t n_idx, hyp *h)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (!posenc__materialize(&F->S, &l->v[i], h))
            continue;
        double fit = posenc__fit_tokens(F->c, h, idx, n_idx, NULL, NULL, F->c->tol, NULL);
        if (fit < 0)
            return -1;
        if (fit <= F->c->tol) {
            l->v[kept] = l->v[i];
            l->v[kept++].fit = fit;
        }
    }
    return (long)kept;
}

/* Fits every recipe of l: screened on the sample, the best
 * POSENC_CHECK_MAX_CAUSES refitted on every token; those that still fit
 * stay in l (sorted, best first). */
static posenc_status run_stage(finder *F, specs *l)
{
    hyp *h = malloc(sizeof *h);
    if (!h)
        return POSENC_ERR_NOMEM;
    long n = keep_fitting(F, l, l->n, F->sample, F->n_s, h);
    if (n >= 0) {
        qsort(l->v, (size_t)n, sizeof *l->v, cmp_fit);
        n = keep_fitting(F, l, n > (long)POSENC_CHECK_MAX_CAUSES ? POSENC_CHECK_MAX_CAUSES : (size_t)n,
                         NULL, F->c->n_tok, h);
    }
    free(h);
    if (n < 0)
        return POSENC_ERR_NOMEM;
    qsort(l->v, (size_t)n, sizeof *l->v, cmp_fit);
    l->n = (size_t)n;
    return POSENC_OK;
}

/* The recipes of stage 1, 2 or 3 into l. */
static int stage_specs(const finder *F, int stage, specs *l)
{
    angle_model me = F->S.model->amodel;
    if (stage == 1) {
        for (size_t i = 0; i < F->n_mods; i++)
            if (!spec_push(l, &F->mods[i], NULL, me, me))
                return 0;
        for (int am = 0; am < ANGLE_N; am++)
            if ((angle_model)am != me && !spec_push(l, NULL, NULL, (angle_model)am, me))
                return 0;
        return 1;
    }
    for (int am = 0; am < ANGLE_N; am++) {
        if (stage == 2 && (angle_model)am == me)
            continue;
        for (size_t i = 0; i < F->n_mods; i++) {
            if (F->mods[i].kind == MOD_ENVELOPE)
                continue;
            if (stage == 2 && !spec_push(l, &F->mods[i], NULL, (angle_model)am, me))
                return 0;
            for (size_t j = i + 1; stage == 3 && j < F->n_mods; j++)
                if (posenc__mods_pair(&F->mods[i], &F->mods[j]) &&
                    !spec_push(l, &F->mods[i], &F->mods[j], (angle_model)am, me))
                    return 0;
        }
    }
    return 1;
}

/* ---- the report --------------------------------------------------------------------- */

/* The causes of recipe sp into e[] (at most room); their count. */
static size_t explain(const finder *F, const spec *sp, posenc_check_cause *e, size_t room)
{
    size_t n = 0;
    for (unsigned i = 0; i < sp->n_mod && n < room; i++, n++) {
        e[n].cause = posenc__mod_cause(&sp->m[i]);
        posenc__mod_params(&F->S, &sp->m[i], sp->amodel, F->v.onset, e[n].params, sizeof e[n].params);
    }
    if (sp->amodel != F->S.model->amodel && n < room) {
        e[n].cause = POSENC_CAUSE_ANGLE_PRECISION;
        snprintf(e[n].params, sizeof e[n].params, "onset=%lld model=%s", (long long)F->v.onset,
                 posenc__angle_model_name(sp->amodel));
        n++;
    }
    for (size_t i = 0; i < n; i++)
        e[i].fit_ulp = sp->fit;
    return n;
}

/* Two explanations are equivalent when they name the same causes in the same
 * order (their parameters aside: the best-fitting one stands for both), an
 * engine model's angle-precision at the end not counted. */
static int same_causes(const posenc_check_cause *a, size_t na, const posenc_check_cause *b, size_t nb)
{
    while (na > 1 && a[na - 1].cause == POSENC_CAUSE_ANGLE_PRECISION)
        na--;
    while (nb > 1 && b[nb - 1].cause == POSENC_CAUSE_ANGLE_PRECISION)
        nb--;
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (a[i].cause != b[i].cause)
            return 0;
    return 1;
}

/* The fitting recipes of l into out->cause, each explanation a group;
 * equivalent ones once (same_causes), and the float32 envelope not where an
 * engine model that forms the angles fits too. */
static void report(const finder *F, const specs *l, posenc_check_result *out)
{
    int model_fits = 0;
    for (size_t i = 0; i < l->n; i++)
        model_fits |= l->v[i].n_mod == 0;
    uint32_t group = 0;
    for (size_t i = 0; i < l->n; i++) {
        const spec *sp = &l->v[i];
        if (model_fits && sp->n_mod == 1 && sp->m[0].kind == MOD_ENVELOPE)
            continue;
        posenc_check_cause e[3];
        size_t n = explain(F, sp, e, 3), dup = 0;
        for (size_t j = 0; j < out->n_cause && !dup;) {
            size_t nj = 0;
            while (j + nj < out->n_cause && out->cause[j + nj].group == out->cause[j].group)
                nj++;
            dup = same_causes(&out->cause[j], nj, e, n);
            j += nj;
        }
        if (dup)
            continue;
        if (out->n_cause + n > POSENC_CHECK_MAX_CAUSES)
            break;
        for (size_t k = 0; k < n; k++) {
            e[k].group = group;
            out->cause[out->n_cause++] = e[k];
        }
        group++;
    }
}

/* The nearest recipe sp (its fit over every token, w where its largest
 * error is) into out: as the causes when it fits after all (one the
 * screening passed over), else as the nearest. */
static void name_nearest(const finder *F, const spec *sp, const worst_at *w, posenc_check_result *out)
{
    posenc_check_cause e[3];
    size_t n = explain(F, sp, e, 3);
    if (sp->fit <= F->c->tol) {
        for (size_t k = 0; k < n; k++)
            out->cause[out->n_cause++] = e[k];
        return;
    }
    posenc_check_nearest *nr = &out->nearest;
    nr->valid = 1;
    nr->cause = e[0].cause;
    nr->fit_ulp = sp->fit;
    snprintf(nr->params, sizeof nr->params, "%s", e[0].params);
    if (n > 1 && e[0].cause != POSENC_CAUSE_ANGLE_PRECISION) /* + " model=NAME" */
        snprintf(nr->params + strlen(nr->params), sizeof nr->params - strlen(nr->params), "%smodel=%s",
                 nr->params[0] ? " " : "", posenc__angle_model_name(sp->amodel));
    nr->pos = F->c->pos[w->t];
    nr->pair = w->pair;
    nr->head = w->head;
}

/* Nothing fits: the single recipe nearest on a few tokens (the smallest
 * root mean square error: the largest is about the pair's norm for every
 * wrong rotation), refitted on every token, and where its error is. */
static posenc_status nearest(finder *F, posenc_check_result *out)
{
    specs l = {0};
    if (!stage_specs(F, 1, &l) || !stage_specs(F, 2, &l)) {
        free(l.v);
        return POSENC_ERR_NOMEM;
    }
    hyp *h = malloc(sizeof *h);
    size_t n_few = F->n_s < 16 ? F->n_s : 16, best = l.n;
    size_t few[16];
    double best_ms = INFINITY;
    for (size_t i = 0; i < n_few; i++)
        few[i] = F->sample[i * F->n_s / n_few];
    posenc_status s = h ? POSENC_OK : POSENC_ERR_NOMEM;
    for (size_t i = 0; s == POSENC_OK && i < l.n; i++) {
        /* the engine's least-squares gain shrinks any wrong rotation towards
         * a smaller error: it is not near for that */
        if ((l.v[i].n_mod && l.v[i].m[0].kind == MOD_GAIN && l.v[i].m[0].a) ||
            !posenc__materialize(&F->S, &l.v[i], h))
            continue;
        worst_at w = {.err = -1};
        if (posenc__fit_tokens(F->c, h, few, n_few, NULL, NULL, INFINITY, &w) < 0) {
            s = POSENC_ERR_NOMEM;
        } else if (w.n) {
            /* on another engine model only when it halves the error */
            double ms = w.sum2 / (double)w.n * (l.v[i].n_cause > 1 ? 4.0 : 1.0);
            if (ms < best_ms) {
                best_ms = ms;
                best = i;
            }
        }
    }
    if (s == POSENC_OK && best < l.n && posenc__materialize(&F->S, &l.v[best], h)) {
        worst_at w = {.err = -1};
        double fit = posenc__fit_tokens(F->c, h, NULL, F->c->n_tok, NULL, NULL, INFINITY, &w);
        if (fit < 0) {
            s = POSENC_ERR_NOMEM;
        } else {
            l.v[best].fit = fit;
            name_nearest(F, &l.v[best], &w, out);
        }
    }
    free(h);
    free(l.v);
    return s;
}

/* The screening tokens: up to 256 spread over the dump, with the worst;
 * tried the worst first, then from the largest positions down. */
static size_t *screening(const ctx *c, size_t worst_t, size_t *n_out)
{
    size_t n_s = c->n_tok < 256 ? c->n_tok : 256;
    size_t *sample = malloc(n_s * sizeof *sample);
    if (!sample)
        return NULL;
    for (size_t i = 0; i < n_s; i++)
        sample[i] = n_s == c->n_tok ? i : i * c->n_tok / n_s;
    if (n_s < c->n_tok)
        sample[n_s - 1] = worst_t;
    /* the order changes no fit (the largest error over the set), only how
     * soon a hypothesis that cannot fit is stopped */
    for (size_t i = 0; i < n_s; i++)
        if (sample[i] == worst_t) {
            sample[i] = sample[0];
            sample[0] = worst_t;
            break;
        }
    for (size_t i = 1, j = n_s - 1; i < j; i++, j--) {
        size_t t = sample[i];
        sample[i] = sample[j];
        sample[j] = t;
    }
    *n_out = n_s;
    return sample;
}

static posenc_status diagnose(finder *F, const hyp *m, posenc_check_result *out)
{
    F->sample = screening(F->c, F->v.worst_t, &F->n_s);
    if (!F->sample)
        return POSENC_ERR_NOMEM;
    gains(F, m);
    posenc_status s = posenc__mods_build(&F->S, &F->mods, &F->n_mods);
    for (int stage = 1; s == POSENC_OK && stage <= 3 && out->n_cause == 0; stage++) {
        specs l = {0};
        if (!stage_specs(F, stage, &l))
            s = POSENC_ERR_NOMEM;
        else if ((s = run_stage(F, &l)) == POSENC_OK)
            report(F, &l, out);
        free(l.v);
    }
    if (s == POSENC_OK && out->n_cause == 0)
        s = nearest(F, out);
    free(F->mods);
    free(F->sample);
    return s;
}

/* ---- the run ------------------------------------------------------------------------ */

/* The input's own checks; *max_pos its largest position. */
static posenc_status validate(const posenc_rope_config *model, const posenc_check_input *in,
                              int64_t seq_len, double tol_ulp, posenc_check_engine engine,
                              const posenc_check_result *out, int64_t *max_pos)
{
    if (!model || !in || !out || !in->pos)
        return POSENC_ERR_NULL;
    int tables = !in->x && !in->y;
    if (tables ? (!in->cos || !in->sin) : (!in->x || !in->y || in->cos || in->sin))
        return (tables || !in->x || !in->y) ? POSENC_ERR_NULL : POSENC_ERR_RANGE;
    if (in->n_tok == 0 || (unsigned)in->dtype > POSENC_DTYPE_F16 || seq_len < 0 ||
        seq_len > POSENC_MAX_POS + 1 || tol_ulp < 0 || !isfinite(tol_ulp) ||
        (unsigned)engine > POSENC_CHECK_ENGINE_CACHE_BF16)
        return POSENC_ERR_RANGE;
    if (!tables && in->n_head == 0)
        return POSENC_ERR_RANGE;
    *max_pos = 0;
    for (size_t t = 0; t < in->n_tok; t++) {
        if (!posenc__pos_ok(in->pos[t]))
            return POSENC_ERR_POS;
        if (in->pos[t] > *max_pos)
            *max_pos = in->pos[t];
    }
    return POSENC_OK;
}

/* The model's RoPE for the input (tables: one head of the rotated part) into
 * *cfg and *rope; the shape and finiteness checks. */
static posenc_status model_rope(const posenc_rope_config *model, const posenc_check_input *in,
                                int64_t seq_len, posenc_rope_config *cfg, posenc_rope *rope)
{
    int tables = !in->x;
    *cfg = *model;
    posenc_status s = posenc_rope_init_config(rope, cfg, seq_len);
    if (s != POSENC_OK)
        return s;
    uint32_t R = rope->rotary_dim;
    if (tables) {
        if (in->table_dim != R && in->table_dim != R / 2)
            return POSENC_ERR_DIM;
        cfg->head_dim = R;
        if ((s = posenc_rope_init_config(rope, cfg, seq_len)) != POSENC_OK)
            return s;
    } else if (in->head_dim != rope->head_dim) {
        return POSENC_ERR_DIM;
    }
    size_t per = tables ? in->table_dim : (size_t)in->n_head * in->head_dim;
    if (in->n_tok > POSENC_CHECK_MAX_ELEMS / per)
        return POSENC_ERR_OVERFLOW;
    const float *va = tables ? in->cos : in->x, *vb = tables ? in->sin : in->y;
    if (!posenc__all_finite_f32(va, in->n_tok * per) || !posenc__all_finite_f32(vb, in->n_tok * per))
        return POSENC_ERR_NOT_FINITE;
    return POSENC_OK;
}

/* The fitting context of the input (tables become pseudo heads in *tx, *ty). */
static posenc_status make_ctx(ctx *c, const posenc_check_input *in, const posenc_rope *rope,
                              double tol_ulp, float **tx, float **ty)
{
    memset(c, 0, sizeof *c);
    c->n_tok = in->n_tok;
    c->hd = rope->head_dim;
    c->R = rope->rotary_dim;
    c->P = c->R / 2;
    c->layout = rope->layout;
    c->pos = in->pos;
    c->a = rope->attn_factor;
    c->bits = in->dtype == POSENC_DTYPE_F32 ? 24 : in->dtype == POSENC_DTYPE_F16 ? 11 : 8;
    c->emin = in->dtype == POSENC_DTYPE_F16 ? -14 : -126;
    c->tol = tol_ulp > 0 ? tol_ulp : POSENC_CHECK_DEFAULT_TOL;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    c->n_threads = cpus < 1 ? 1 : cpus > CHECK_MAX_THREADS ? CHECK_MAX_THREADS : (size_t)cpus;
    if (!in->x) {
        posenc_status s = tables_to_heads(in, c->R, rope->layout, tx, ty, &c->n_head);
        if (s != POSENC_OK)
            return s;
        c->tables = (int)c->n_head;
        c->x = *tx;
        c->y = *ty;
    } else {
        c->n_head = in->n_head;
        c->x = in->x;
        c->y = in->y;
    }
    c->C = malloc(POSENC_ROPE_MAX_HEAD_DIM * sizeof *c->C);
    c->S = malloc(POSENC_ROPE_MAX_HEAD_DIM * sizeof *c->S);
    c->E = malloc(POSENC_ROPE_MAX_HEAD_DIM * sizeof *c->E);
    c->pred = malloc(POSENC_ROPE_MAX_HEAD_DIM * sizeof *c->pred);
    c->unit = malloc(POSENC_ROPE_MAX_HEAD_DIM * sizeof *c->unit);
    return c->C && c->S && c->E && c->pred && c->unit ? POSENC_OK : POSENC_ERR_NOMEM;
}

static void free_ctx(ctx *c)
{
    free(c->C);
    free(c->S);
    free(c->E);
    free(c->pred);
    free(c->unit);
}

/* The expectation: the model's RoPE under engine's arithmetic. */
static void expectation(hyp *m, const posenc_rope *rope, const posenc_rope_config *cfg,
                        posenc_check_engine engine)
{
    memset(m, 0, sizeof *m);
    m->is_model = 1;
    m->rope = *rope;
    m->pairs = m->table = rope->layout;
    m->sign = 1;
    m->gain = rope->attn_factor;
    angle_model am;
    posenc__engine_expect(engine, &am, &m->env_ulps, &m->round_cs, &m->round_freq);
    posenc__engine_setup(m, am, cfg);
}

posenc_status posenc_check_run_engine(const posenc_rope_config *model, const posenc_check_input *in,
                                      int64_t seq_len, double tol_ulp, posenc_check_engine engine,
                                      posenc_check_result *out)
{
    int64_t max_pos;
    posenc_status s = validate(model, in, seq_len, tol_ulp, engine, out, &max_pos);
    if (s != POSENC_OK)
        return s;
    if (seq_len == 0)
        seq_len = max_pos + 1;
    posenc_rope_config *cfg = malloc(sizeof *cfg);
    posenc_rope *rope = malloc(sizeof *rope);
    hyp *m = malloc(sizeof *m);
    ctx c = {0};
    float *tx = NULL, *ty = NULL;
    if (!cfg || !rope || !m)
        s = POSENC_ERR_NOMEM;
    if (s == POSENC_OK)
        s = model_rope(model, in, seq_len, cfg, rope);
    if (s == POSENC_OK)
        s = make_ctx(&c, in, rope, tol_ulp, &tx, &ty);
    finder F;
    memset(&F, 0, sizeof F);
    if (s == POSENC_OK) {
        expectation(m, rope, cfg, engine);
        memset(out, 0, sizeof *out);
        out->dtype = in->dtype;
        out->n_tok = in->n_tok;
        out->n_head = c.n_head;
        out->tol_ulp = c.tol;
        out->seq_len = seq_len;
        out->engine = engine;
        s = judge(&c, m, in->pos, out, &F.v);
    }
    if (s == POSENC_OK && !out->match) {
        F.c = &c;
        F.S = (search){.cfg = cfg, .seq_len = seq_len, .model = m, .c = &c};
        s = diagnose(&F, m, out);
    }
    free_ctx(&c);
    free(tx);
    free(ty);
    free(cfg);
    free(rope);
    free(m);
    return s;
}

posenc_status posenc_check_run(const posenc_rope_config *model, const posenc_check_input *in,
                               int64_t seq_len, double tol_ulp, posenc_check_result *out)
{
    return posenc_check_run_engine(model, in, seq_len, tol_ulp, POSENC_CHECK_ENGINE_EXACT, out);
}

/* ---- the lines ---------------------------------------------------------------------- */

#define APPEND(...) do { int k_ = snprintf(n > len ? buf + len : NULL, n > len ? n - len : 0, \
                                           __VA_ARGS__); \
                         if (k_ > 0) len += (size_t)k_; } while (0)

size_t posenc_check_cause_lines(const posenc_check_result *r, char *buf, size_t n)
{
    size_t len = 0;
    if (n)
        buf[0] = '\0';
    if (!r || r->match)
        return 0;
    if (r->n_cause == 0) {
        const posenc_check_nearest *q = &r->nearest;
        if (!q->valid) {
            APPEND("CAUSE name=none\n");
            return len;
        }
        APPEND("CAUSE name=none nearest=%s fit_ulp=%.4g%s%s pair=%u pos=%lld head=%u\n",
               posenc_check_cause_name(q->cause), q->fit_ulp, q->params[0] ? " " : "", q->params,
               q->pair, (long long)q->pos, q->head);
        return len;
    }
    for (size_t k = 0; k < r->n_cause; k++)
        APPEND("CAUSE name=%s fit_ulp=%.4g%s%s\n", posenc_check_cause_name(r->cause[k].cause),
               r->cause[k].fit_ulp, r->cause[k].params[0] ? " " : "", r->cause[k].params);
    return len;
}
