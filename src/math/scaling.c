/* scaling.c - the RoPE scalings of long-context checkpoints (linear, NTK,
 * dynamic NTK, YaRN, Llama 3, LongRoPE, per-pair factors): each pair's
 * frequency as a documented function of the config's parameters, computed in
 * double-double, and the attention factor on cos and sin. See posenc.h for
 * the formulas; this file follows them line by line.
 *
 * One code path (prepare + pair_freq) serves both posenc_rope_init_scaled
 * and posenc_rope_explain_freqs, so what EXPLAIN FREQS prints is what the
 * rotation uses. */
#include "internal.h"

#include <float.h>
#include <string.h>

typedef posenc__dd dd;

/* ---- double-double helpers (dd.h) ------------------------------------------ */

static dd dd_of(double x) { return posenc__dd_of(x); }
static dd add(dd a, dd b) { return posenc__dd_add(a, b); }
static dd neg(dd a) { return posenc__dd_neg(a); }
static dd sub(dd a, dd b) { return posenc__dd_sub(a, b); }
static dd mul(dd a, dd b) { return posenc__dd_mul(a, b); }
static dd dvd(dd a, dd b) { return posenc__dd_div(a, b); }

/* ln(x) for x > 0: ln(hi) + ln(1 + lo/hi), the second term lo/hi to 2^-106. */
static dd ln(dd x) { return add(posenc__dd_log(x.hi), dd_of(x.lo / x.hi)); }
static dd ex(dd x) { return posenc__dd_exp(x); }

static int cmp(dd a, dd b) { return posenc__dd_cmp(a, b); }

static dd dd_floor(dd x)
{
    double f = floor(x.hi);
    if (f == x.hi) /* integer high part: the low part decides */
        return add(dd_of(f), dd_of(floor(x.lo)));
    return dd_of(f);
}

static dd dd_ceil(dd x) { return neg(dd_floor(neg(x))); }

/* 2 pi = 6.283185307179586476925286766559..., as hi + lo. */
static const dd TWO_PI = {0x1.921fb54442d18p+2, 0x1.1a62633145c07p-52};

static double to_double(dd x) { return x.hi + x.lo; }

/* ---- names ---------------------------------------------------------------- */

static const char *const TYPE_NAMES[] = {"default", "linear", "ntk",      "dynamic",
                                         "yarn",    "llama3", "longrope", "proportional"};

const char *posenc_rope_type_name(posenc_rope_type type)
{
    if ((unsigned)type < sizeof TYPE_NAMES / sizeof TYPE_NAMES[0])
        return TYPE_NAMES[type];
    return "unknown";
}

posenc_status posenc_rope_type_parse(const char *name, posenc_rope_type *type)
{
    if (!name || !type)
        return POSENC_ERR_NULL;
    for (unsigned i = 0; i < sizeof TYPE_NAMES / sizeof TYPE_NAMES[0]; i++)
        if (strcmp(name, TYPE_NAMES[i]) == 0) {
            *type = (posenc_rope_type)i;
            return POSENC_OK;
        }
    if (strcmp(name, "su") == 0) {
        *type = POSENC_ROPE_LONGROPE;
        return POSENC_OK;
    }
    return POSENC_ERR_RANGE;
}

const char *posenc_freq_band_name(posenc_freq_band band)
{
    switch (band) {
    case POSENC_BAND_UNIFORM: return "uniform";
    case POSENC_BAND_HIGH: return "high";
    case POSENC_BAND_LOW: return "low";
    case POSENC_BAND_BLEND: return "blend";
    case POSENC_BAND_LIST: return "list";
    case POSENC_BAND_ZERO: return "zero";
    }
    return "unknown";
}

void posenc__scaling_defaults(posenc_rope_scaling *s, posenc_rope_type type)
{
    memset(s, 0, sizeof *s);
    s->type = type;
    s->factor = 1.0;
    s->beta_fast = 32.0;
    s->beta_slow = 1.0;
    s->truncate = 1;
    s->partial_rotary_factor = 1.0;
}

posenc_status posenc_rope_scaling_init(posenc_rope_scaling *s, posenc_rope_type type)
{
    if (!s)
        return POSENC_ERR_NULL;
    if ((unsigned)type > POSENC_ROPE_PROPORTIONAL)
        return POSENC_ERR_RANGE;
    posenc__scaling_defaults(s, type);
    return POSENC_OK;
}

/* ---- validation and the per-scaling quantities ----------------------------- */

typedef struct ctx {
    uint32_t d;      /* rotary_dim */
    double base;
    posenc_rope_scaling s;
    dd ln_q;         /* ntk/dynamic: ln of the base stretch before the d/(d-2) power */
    int stretched;   /* ntk/dynamic: ln_q != 0 */
    dd ylo, yhi;     /* yarn: the correction range as used by the ramp */
    const double *ext; /* longrope: the chosen list */
    uint32_t n_rot;    /* proportional: pairs k < n_rot rotate, the rest have f = 0 */
    posenc_freqs_summary sum;
    /* f0(k) = base^(-2k/d) for every pair, and for a stretched ntk/dynamic
     * base'^(-2k/d) (posenc__inv_freqs_dd: one dd product per pair) */
    double f0_hi[POSENC_ROPE_MAX_HEAD_DIM / 2], f0_lo[POSENC_ROPE_MAX_HEAD_DIM / 2];
    double fs_hi[POSENC_ROPE_MAX_HEAD_DIM / 2], fs_lo[POSENC_ROPE_MAX_HEAD_DIM / 2];
} ctx;

static int finite_pos(double x) { return isfinite(x) && x > 0.0; }

static posenc_status check_list(const double *v, size_t n, uint32_t d)
{
    if (!v)
        return POSENC_ERR_NULL;
    if (n != d / 2)
        return POSENC_ERR_DIM;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i]))
            return POSENC_ERR_NOT_FINITE;
        if (v[i] <= 0.0)
            return POSENC_ERR_RANGE;
    }
    return POSENC_OK;
}

/* m(s, a) = 0.1 a ln(s) + 1, and 1 when s <= 1 (YaRN's get_mscale). */
static double yarn_mscale(double s, double a) { return s <= 1.0 ? 1.0 : 0.1 * a * log(s) + 1.0; }

/* YaRN correction dimension c(r) = d ln(L / (2 pi r)) / (2 ln base). */
static dd yarn_dim(const ctx *c, double r)
{
    dd num = sub(sub(ln(dd_of(c->s.original_max_position_embeddings)), ln(TWO_PI)), ln(dd_of(r)));
    return dvd(mul(dd_of((double)c->d), num), mul(dd_of(2.0), ln(dd_of(c->base))));
}

/* The checks every type shares, in this order: the type, cur_len, the
 * attention factor, the frequency factors, factor >= 1 (the types that
 * stretch), original_max_position_embeddings (the types that read it). */
static posenc_status check_common(const posenc_rope_scaling *p, uint32_t d, int64_t cur_len)
{
    if ((unsigned)p->type > POSENC_ROPE_PROPORTIONAL)
        return POSENC_ERR_RANGE;
    if (cur_len < 0 || cur_len > POSENC_MAX_POS + 1)
        return POSENC_ERR_POS;
    if (!isfinite(p->attention_factor) || p->attention_factor < 0.0)
        return POSENC_ERR_RANGE;
    if (p->freq_factors) {
        posenc_status st = check_list(p->freq_factors, p->n_freq_factors, d);
        if (st != POSENC_OK)
            return st;
    }
    double s_ = p->factor, L = p->original_max_position_embeddings;
    int needs_factor_ge1 = p->type != POSENC_ROPE_DEFAULT && p->type != POSENC_ROPE_LONGROPE &&
                           p->type != POSENC_ROPE_PROPORTIONAL;
    if (needs_factor_ge1 && !(isfinite(s_) && s_ >= 1.0))
        return POSENC_ERR_RANGE;
    int needs_L = p->type == POSENC_ROPE_DYNAMIC || p->type == POSENC_ROPE_YARN ||
                  p->type == POSENC_ROPE_LLAMA3 || p->type == POSENC_ROPE_LONGROPE;
    /* L is a count of tokens: at most one past the last position */
    if (needs_L && !(isfinite(L) && L >= 1.0 && L <= (double)POSENC_MAX_POS + 1.0))
        return POSENC_ERR_RANGE;
    return POSENC_OK;
}

/* NTK and dynamic NTK: the base stretch q (ln q in c->ln_q) and base'. */
static posenc_status prepare_ntk(ctx *c, int64_t cur_len)
{
    const posenc_rope_scaling *p = &c->s;
    double s_ = p->factor, L = p->original_max_position_embeddings;
    uint32_t d = c->d;
    if (d < 4)
        return POSENC_ERR_RANGE; /* d/(d-2) needs d > 2 */
    dd q = dd_of(s_);
    if (p->type == POSENC_ROPE_DYNAMIC) {
        /* Lc = max(cur_len, L); q = s Lc / L - (s - 1) >= 1. At or
         * below L, q is exactly 1: the default frequencies. */
        double Lc = (double)cur_len > L ? (double)cur_len : L;
        c->sum.len = (int64_t)Lc;
        if (Lc == L)
            q = dd_of(1.0);
        else
            q = sub(dvd(mul(dd_of(s_), dd_of(Lc)), dd_of(L)), sub(dd_of(s_), dd_of(1.0)));
        /* A huge factor overflows s Lc / L: no base' to stretch to
         * (and ln/exp of it would be NaN). */
        if (!isfinite(q.hi))
            return POSENC_ERR_RANGE;
    }
    c->stretched = cmp(q, dd_of(1.0)) != 0;
    c->ln_q = ln(q);
    /* base' = base q^(d/(d-2)), reported only. */
    dd e = dvd(dd_of((double)d), dd_of((double)d - 2.0));
    c->sum.effective_base = c->base * to_double(ex(mul(e, c->ln_q)));
    return POSENC_OK;
}

/* YaRN: the ramp's correction range and the attention factor. */
static posenc_status prepare_yarn(ctx *c)
{
    const posenc_rope_scaling *p = &c->s;
    double s_ = p->factor;
    /* beta_fast == beta_slow is allowed: lo == hi, and the ramp's
     * hi += 0.001 below makes it a step (Kimi K2 ships beta_fast =
     * beta_slow = 1; transformers' linear_ramp_factor adds the 0.001) */
    if (!isfinite(p->beta_fast) || !isfinite(p->beta_slow) || !(p->beta_slow > 0.0) ||
        !(p->beta_fast >= p->beta_slow))
        return POSENC_ERR_RANGE;
    if (!isfinite(p->mscale) || p->mscale < 0.0 || !isfinite(p->mscale_all_dim) ||
        p->mscale_all_dim < 0.0)
        return POSENC_ERR_RANGE;
    dd lo = yarn_dim(c, p->beta_fast), hi = yarn_dim(c, p->beta_slow);
    if (p->truncate) {
        lo = dd_floor(lo);
        hi = dd_ceil(hi);
    }
    if (cmp(lo, dd_of(0.0)) < 0)
        lo = dd_of(0.0);
    if (cmp(hi, dd_of((double)c->d - 1.0)) > 0)
        hi = dd_of((double)c->d - 1.0);
    if (cmp(lo, hi) == 0)
        hi = add(hi, dd_of(0.001)); /* the paper's guard against a zero-width ramp */
    c->ylo = lo;
    c->yhi = hi;
    c->sum.yarn_ramp_lo = to_double(lo);
    c->sum.yarn_ramp_hi = to_double(hi);
    if (p->mscale != 0.0 && p->mscale_all_dim != 0.0)
        c->sum.attn_factor = yarn_mscale(s_, p->mscale) / yarn_mscale(s_, p->mscale_all_dim);
    else
        c->sum.attn_factor = yarn_mscale(s_, 1.0);
    return POSENC_OK;
}

/* LongRoPE: the list for cur_len and the attention factor. */
static posenc_status prepare_longrope(ctx *c, int64_t cur_len)
{
    const posenc_rope_scaling *p = &c->s;
    double s_ = p->factor, L = p->original_max_position_embeddings;
    if (!finite_pos(s_) || !(L > 1.0))
        return POSENC_ERR_RANGE;
    posenc_status st = check_list(p->short_factor, p->n_short_factor, c->d);
    if (st == POSENC_OK)
        st = check_list(p->long_factor, p->n_long_factor, c->d);
    if (st != POSENC_OK)
        return st;
    c->sum.uses_long_factor = (double)cur_len > L;
    c->ext = c->sum.uses_long_factor ? p->long_factor : p->short_factor;
    c->sum.attn_factor = s_ <= 1.0 ? 1.0 : sqrt(1.0 + log(s_) / log(L));
    return POSENC_OK;
}

static posenc_status prepare(ctx *c, uint32_t d, double base, const posenc_rope_scaling *s,
                             int64_t cur_len)
{
    memset(c, 0, sizeof *c);
    c->d = d;
    c->base = base;
    if (s)
        c->s = *s;
    else
        posenc__scaling_defaults(&c->s, POSENC_ROPE_DEFAULT);
    const posenc_rope_scaling *p = &c->s;
    posenc_status st = check_common(p, d, cur_len);
    if (st != POSENC_OK)
        return st;

    c->sum.attn_factor = 1.0;
    c->sum.effective_base = base;
    c->sum.len = cur_len;
    switch (p->type) {
    case POSENC_ROPE_DEFAULT:
    case POSENC_ROPE_LINEAR:
        break;
    case POSENC_ROPE_NTK:
    case POSENC_ROPE_DYNAMIC:
        st = prepare_ntk(c, cur_len);
        break;
    case POSENC_ROPE_YARN:
        st = prepare_yarn(c);
        break;
    case POSENC_ROPE_LLAMA3:
        if (!finite_pos(p->low_freq_factor) || !isfinite(p->high_freq_factor) ||
            !(p->high_freq_factor > p->low_freq_factor))
            return POSENC_ERR_RANGE;
        c->sum.llama3_keep_below = p->original_max_position_embeddings / p->high_freq_factor;
        c->sum.llama3_divide_above = p->original_max_position_embeddings / p->low_freq_factor;
        break;
    case POSENC_ROPE_LONGROPE:
        st = prepare_longrope(c, cur_len);
        break;
    case POSENC_ROPE_PROPORTIONAL: {
        /* n = floor(p d / 2): transformers' int(rope_proportion * head_dim // 2),
         * the product rounded once in double as in Python, then floored */
        double prf = p->partial_rotary_factor;
        if (!finite_pos(p->factor) || !(isfinite(prf) && prf > 0.0 && prf <= 1.0))
            return POSENC_ERR_RANGE;
        c->n_rot = (uint32_t)floor((prf * (double)d) / 2.0);
        break;
    }
    }
    if (st != POSENC_OK)
        return st;
    if (p->attention_factor > 0.0)
        c->sum.attn_factor = p->attention_factor;
    if (!finite_pos(c->sum.attn_factor))
        return POSENC_ERR_RANGE;
    dd log_base = posenc__dd_log(base);
    posenc__inv_freqs_dd_log(0, d / 2, d, log_base, c->f0_hi, c->f0_lo);
    if (c->stretched) /* ln base' = ln base + (d / (d - 2)) ln q */
        posenc__inv_freqs_dd_log(
            0, d / 2, d, add(log_base, mul(dvd(dd_of((double)d), dd_of((double)d - 2.0)), c->ln_q)),
            c->fs_hi, c->fs_lo);
    return POSENC_OK;
}

/* Pair k's scaled frequency; fills *info when not NULL. */
static dd pair_freq(const ctx *c, uint32_t k, posenc_freq_info *info)
{
    const posenc_rope_scaling *p = &c->s;
    dd f0 = {c->f0_hi[k], c->f0_lo[k]}; /* base^(-2k/d) */
    dd f = f0;
    posenc_freq_band band = POSENC_BAND_UNIFORM;
    double ramp = 0.0, pair_factor = 1.0;
    switch (p->type) {
    case POSENC_ROPE_DEFAULT:
        break;
    case POSENC_ROPE_LINEAR: /* f0 / s */
        f = dvd(f0, dd_of(p->factor));
        break;
    case POSENC_ROPE_NTK:
    case POSENC_ROPE_DYNAMIC:
        /* base'^(-2k/d) = f0 * q^(-2k/(d-2)), ln base' = ln base + (d/(d-2)) ln q */
        if (c->stretched)
            f = (dd){c->fs_hi[k], c->fs_lo[k]};
        break;
    case POSENC_ROPE_YARN: {
        /* ramp = clamp((k - lo) / (hi - lo), 0, 1); f = f0 (1 - ramp) + (f0 / s) ramp */
        dd r = dvd(sub(dd_of((double)k), c->ylo), sub(c->yhi, c->ylo));
        if (cmp(r, dd_of(0.0)) <= 0) {
            r = dd_of(0.0);
            band = POSENC_BAND_HIGH;
        } else if (cmp(r, dd_of(1.0)) >= 0) {
            r = dd_of(1.0);
            band = POSENC_BAND_LOW;
        } else {
            band = POSENC_BAND_BLEND;
        }
        dd w = add(sub(dd_of(1.0), r), dvd(r, dd_of(p->factor)));
        f = mul(f0, w);
        ramp = to_double(r);
        break;
    }
    case POSENC_ROPE_LLAMA3: {
        /* x = L / wavelength = L f0 / (2 pi); kept when x > high_freq_factor
         * (wavelength < L / high_freq_factor), divided when x <
         * low_freq_factor, else g = (x - lff) / (hff - lff) and
         * f = (1 - g) f0 / s + g f0. */
        dd x = dvd(mul(dd_of(p->original_max_position_embeddings), f0), TWO_PI);
        if (cmp(x, dd_of(p->high_freq_factor)) > 0) {
            band = POSENC_BAND_HIGH;
        } else if (cmp(x, dd_of(p->low_freq_factor)) < 0) {
            band = POSENC_BAND_LOW;
            f = dvd(f0, dd_of(p->factor));
            ramp = 1.0;
        } else {
            band = POSENC_BAND_BLEND;
            dd g = dvd(sub(x, dd_of(p->low_freq_factor)),
                       sub(dd_of(p->high_freq_factor), dd_of(p->low_freq_factor)));
            dd w = add(dvd(sub(dd_of(1.0), g), dd_of(p->factor)), g);
            f = mul(f0, w);
            ramp = to_double(sub(dd_of(1.0), g));
        }
        break;
    }
    case POSENC_ROPE_LONGROPE: /* f0 / e[k] */
        band = POSENC_BAND_LIST;
        pair_factor = c->ext[k];
        f = dvd(f0, dd_of(c->ext[k]));
        break;
    case POSENC_ROPE_PROPORTIONAL: /* f0 / s for k < n, else 0 */
        if (k < c->n_rot) {
            f = dvd(f0, dd_of(p->factor));
        } else {
            f = dd_of(0.0);
            band = POSENC_BAND_ZERO;
        }
        break;
    }
    if (p->freq_factors) { /* ggml's freq_factors: f / ff[k] */
        pair_factor *= p->freq_factors[k];
        if (band != POSENC_BAND_ZERO)
            f = dvd(f, dd_of(p->freq_factors[k]));
    }
    if (info) {
        info->k = k;
        info->base_inv_freq = to_double(f0);
        info->inv_freq = to_double(f);
        info->base_wavelength = to_double(dvd(TWO_PI, f0));
        info->wavelength = band == POSENC_BAND_ZERO ? INFINITY : to_double(dvd(TWO_PI, f));
        info->band = band;
        info->ramp = ramp;
        info->pair_factor = pair_factor;
    }
    return f;
}

/* ---- public entry points ----------------------------------------------------- */

/* Every pair's scaled frequency (and its explanation, when info is not
 * NULL). Extreme but individually valid parameters (a llama3 factor of
 * 1e308, a list entry of 1e-320) can still drive a frequency to 0, below
 * the normal doubles, to infinity or to NaN: refused here for every caller
 * (a subnormal frequency has lost its precision, and its wavelength
 * 2 pi / f overflows). */
static posenc_status scaled_freqs(const ctx *c, uint32_t P, double *hi, double *lo,
                                  posenc_freq_info *info)
{
    for (uint32_t k = 0; k < P; k++) {
        dd f = pair_freq(c, k, info ? &info[k] : NULL);
        /* proportional's pairs past n: exactly 0 by definition */
        int zero = c->s.type == POSENC_ROPE_PROPORTIONAL && k >= c->n_rot;
        if (!zero && !(isfinite(f.hi) && isfinite(f.lo) && f.hi >= DBL_MIN))
            return POSENC_ERR_RANGE;
        if (hi) {
            hi[k] = f.hi;
            lo[k] = f.lo;
        }
    }
    return POSENC_OK;
}

/* prepare, then every pair's frequency (hi, lo) or its explanation (info),
 * as scaled_freqs: what both calls below compute. */
static posenc_status scale(ctx *c, uint32_t rotary_dim, double base, const posenc_rope_scaling *s,
                           int64_t cur_len, double *hi, double *lo, posenc_freq_info *info)
{
    posenc_status st = prepare(c, rotary_dim, base, s, cur_len);
    if (st == POSENC_OK)
        st = scaled_freqs(c, rotary_dim / 2, hi, lo, info);
    return st;
}

posenc_status posenc_rope_init_scaled(posenc_rope *r, uint32_t head_dim, uint32_t rotary_dim,
                                      double base, posenc_layout layout,
                                      const posenc_rope_scaling *s, int64_t cur_len)
{
    if (!r)
        return POSENC_ERR_NULL;
    posenc_status st = posenc__rope_dims_check(head_dim, rotary_dim);
    if (st == POSENC_OK && !posenc__base_ok(base))
        st = POSENC_ERR_BASE;
    if (st == POSENC_OK && !posenc__layout_ok(layout))
        st = POSENC_ERR_LAYOUT;
    if (st != POSENC_OK)
        return st;
    ctx c;
    double hi[POSENC_ROPE_MAX_HEAD_DIM / 2], lo[POSENC_ROPE_MAX_HEAD_DIM / 2];
    if ((st = scale(&c, rotary_dim, base, s, cur_len, hi, lo, NULL)) != POSENC_OK)
        return st;
    memset(r, 0, sizeof *r);
    r->head_dim = head_dim;
    r->rotary_dim = rotary_dim;
    r->layout = layout;
    r->base = base;
    r->attn_factor = c.sum.attn_factor;
    memcpy(r->inv_freq_hi, hi, rotary_dim / 2 * sizeof hi[0]);
    memcpy(r->inv_freq_lo, lo, rotary_dim / 2 * sizeof lo[0]);
    return POSENC_OK;
}

posenc_status posenc_rope_explain_freqs(uint32_t rotary_dim, double base,
                                        const posenc_rope_scaling *s, int64_t cur_len,
                                        posenc_freq_info *pairs, posenc_freqs_summary *summary)
{
    if (rotary_dim < 2 || rotary_dim > POSENC_ROPE_MAX_HEAD_DIM || rotary_dim % 2)
        return POSENC_ERR_RANGE;
    if (!posenc__base_ok(base))
        return POSENC_ERR_BASE;
    ctx c;
    posenc_freq_info info[POSENC_ROPE_MAX_HEAD_DIM / 2]; /* nothing written on error */
    posenc_status st = scale(&c, rotary_dim, base, s, cur_len, NULL, NULL, info);
    if (st != POSENC_OK)
        return st;
    if (pairs)
        memcpy(pairs, info, rotary_dim / 2 * sizeof info[0]);
    if (summary)
        *summary = c.sum;
    return POSENC_OK;
}

posenc_status posenc_rope_config_scaling(const posenc_rope_config *c, posenc_rope_scaling *s)
{
    if (!c || !s)
        return POSENC_ERR_NULL;
    *s = c->scaling;
    size_t cap = POSENC_ROPE_MAX_HEAD_DIM / 2;
    s->short_factor = s->n_short_factor ? c->short_factor : NULL;
    s->long_factor = s->n_long_factor ? c->long_factor : NULL;
    s->freq_factors = s->n_freq_factors ? c->freq_factors : NULL;
    /* a count past the arrays cannot match rotary_dim / 2: report it as such */
    if (s->n_short_factor > cap || s->n_long_factor > cap || s->n_freq_factors > cap) {
        s->n_short_factor = s->n_short_factor > cap ? cap + 1 : s->n_short_factor;
        s->n_long_factor = s->n_long_factor > cap ? cap + 1 : s->n_long_factor;
        s->n_freq_factors = s->n_freq_factors > cap ? cap + 1 : s->n_freq_factors;
    }
    return POSENC_OK;
}

posenc_status posenc_rope_init_config(posenc_rope *r, const posenc_rope_config *c,
                                      int64_t cur_len)
{
    posenc_rope_scaling s;
    posenc_status st = posenc_rope_config_scaling(c, &s);
    if (st != POSENC_OK)
        return st;
    if (!r)
        return POSENC_ERR_NULL;
    return posenc_rope_init_scaled(r, c->head_dim, c->rotary_dim, c->base, c->layout, &s,
                                   cur_len);
}
