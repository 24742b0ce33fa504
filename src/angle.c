/*
 * angle.c - frequencies and angles: inv_freq(k) = base^(-2k/D),
 * theta = pos * inv_freq(k), and sin/cos of theta accurate at any position.
 *
 * Why double-double: at pos = 2^31 a double inv_freq (relative error 2^-53)
 * gives an angle wrong by up to 2^31 * 2^-53 = 2^-22 radians, more than a
 * float32 ulp of sin/cos. With a ~106-bit inv_freq and an exact product by the
 * integer position, the angle keeps ~75 bits after the binary point, and the
 * reduction modulo pi/2 with a 160-bit pi/2 keeps them.
 */
#include "internal.h"

#include <math.h>

/* ---- error-free transformations ---------------------------------------- */

static posenc__dd two_sum(double a, double b)
{
    double s = a + b;
    double bb = s - a;
    double e = (a - (s - bb)) + (b - bb);
    return (posenc__dd){s, e};
}

/* Requires |a| >= |b| (or a == 0). */
static posenc__dd quick_two_sum(double a, double b)
{
    double s = a + b;
    return (posenc__dd){s, b - (s - a)};
}

static posenc__dd two_prod(double a, double b)
{
    double p = a * b;
    return (posenc__dd){p, fma(a, b, -p)};
}

static posenc__dd dd_add(posenc__dd a, posenc__dd b)
{
    posenc__dd s = two_sum(a.hi, b.hi);
    posenc__dd t = two_sum(a.lo, b.lo);
    s.lo += t.hi;
    s = quick_two_sum(s.hi, s.lo);
    s.lo += t.lo;
    return quick_two_sum(s.hi, s.lo);
}

static posenc__dd dd_mul(posenc__dd a, posenc__dd b)
{
    posenc__dd p = two_prod(a.hi, b.hi);
    p.lo += a.hi * b.lo + a.lo * b.hi;
    return quick_two_sum(p.hi, p.lo);
}

static posenc__dd dd_mul_d(posenc__dd a, double b)
{
    posenc__dd p = two_prod(a.hi, b);
    p.lo += a.lo * b;
    return quick_two_sum(p.hi, p.lo);
}

static posenc__dd dd_neg(posenc__dd a) { return (posenc__dd){-a.hi, -a.lo}; }

/* ---- exp and log in double-double -------------------------------------- */

static const posenc__dd LN2 = {0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56};

/* exp(a) for |a| < 700. Reduce a = n ln2 + r, then r / 1024, a Taylor series
 * for expm1 of that, and ten doublings expm1(2x) = 2 expm1(x) + expm1(x)^2,
 * which keep the small quantity small and so keep its relative precision. */
static posenc__dd dd_exp(posenc__dd a)
{
    double n = nearbyint(a.hi / LN2.hi);
    posenc__dd r = dd_add(a, dd_neg(dd_mul_d(LN2, n)));
    r.hi = ldexp(r.hi, -10);
    r.lo = ldexp(r.lo, -10);

    /* expm1(r) = r + r^2/2! + ... + r^11/11!; |r| < 3.4e-4 so the next term
     * is below 2^-150 relative. */
    posenc__dd sum = r, term = r;
    for (int i = 2; i <= 11; i++) {
        term = dd_mul(term, r);
        posenc__dd t = {term.hi / i, 0.0};
        /* term / i in dd: correct the quotient with its remainder. */
        t.lo = (fma(-t.hi, (double)i, term.hi) + term.lo) / i;
        t = quick_two_sum(t.hi, t.lo);
        term = t;
        sum = dd_add(sum, term);
    }
    for (int i = 0; i < 10; i++) {
        posenc__dd sq = dd_mul(sum, sum);
        sum = dd_add((posenc__dd){2.0 * sum.hi, 2.0 * sum.lo}, sq);
    }
    posenc__dd e = dd_add((posenc__dd){1.0, 0.0}, sum);
    int ni = (int)n;
    return (posenc__dd){ldexp(e.hi, ni), ldexp(e.lo, ni)};
}

/* log(x) for finite x > 0: with y the double log, d = log(x) - y is tiny
 * (|d| <= ulp(y)), t = x exp(-y) - 1 = e^d - 1 is computed in dd, and
 * log(x) = y + log1p(t) = y + t - t^2/2 + O(t^3). The plain Newton step
 * y + t would leave d^2/2, up to 2^-99 for base 1e9 (y = 20.7); with the
 * t^2/2 term the error is that of dd_exp and the dd operations, ~2^-103. */
static posenc__dd dd_log(double x)
{
    double y = log(x);
    posenc__dd e = dd_exp((posenc__dd){-y, 0.0});
    posenc__dd t = dd_mul_d(e, x);
    t = dd_add(t, (posenc__dd){-1.0, 0.0});
    t = dd_add(t, (posenc__dd){-0.5 * t.hi * t.hi, 0.0});
    return dd_add((posenc__dd){y, 0.0}, t);
}

/* 2k/d as a double-double: the quotient and its exact remainder. */
static posenc__dd exponent_dd(uint32_t k, uint32_t d)
{
    double num = 2.0 * (double)k, den = (double)d;
    double q = num / den;
    double rem = fma(-q, den, num); /* exact: num - q*den */
    return quick_two_sum(q, rem / den);
}

static posenc__dd pow_base_dd(uint32_t k, uint32_t d, double base, double sign)
{
    if (k == 0)
        return (posenc__dd){1.0, 0.0};
    posenc__dd t = dd_mul(exponent_dd(k, d), dd_log(base));
    t.hi *= sign;
    t.lo *= sign;
    return dd_exp(t);
}

posenc__dd posenc__inv_freq_dd(uint32_t k, uint32_t d, double base)
{
    return pow_base_dd(k, d, base, -1.0);
}

posenc__dd posenc__log_dd(double base) { return dd_log(base); }

posenc__dd posenc__inv_freq_dd_from_log(uint32_t k, uint32_t d, posenc__dd log_base)
{
    if (k == 0)
        return (posenc__dd){1.0, 0.0};
    return dd_exp(dd_neg(dd_mul(exponent_dd(k, d), log_base)));
}

posenc__dd posenc__divisor_dd(uint32_t k, uint32_t d, double base)
{
    return pow_base_dd(k, d, base, +1.0);
}

/* ---- sin and cos of pos * f --------------------------------------------- */

/* pi/2 = PIO2_1 + PIO2_2 + PIO2_3 to about 160 bits. */
static const double PIO2_1 = 0x1.921fb54442d18p+0;
static const double PIO2_2 = 0x1.1a62633145c07p-54;
static const double PIO2_3 = -0x1.f1976b7ed8fbcp-110;
static const double TWO_OVER_PI = 0x1.45f306dc9c883p-1;

void posenc__sincos_dd(int64_t pos, posenc__dd f, double *s, double *c)
{
    double p = (double)pos; /* exact: pos < 2^53 */
    posenc__dd theta = dd_mul_d(f, p);

    /* theta = n pi/2 + r, |r| <= ~pi/4. n * PIO2_1 is split exactly by
     * two_prod, and theta.hi - hi(n * PIO2_1) is exact (Sterbenz) because the
     * two are within a factor of two of each other whenever n >= 1. */
    /* Round to the nearest integer by adding and removing 1.5 * 2^52 (exact
     * for |x| < 2^51; here |x| < 2^31): nearbyint() saves and restores the
     * floating-point environment and would cost as much as the rest. */
    const double ROUNDER = 0x1.8p52;
    double n = (theta.hi * TWO_OVER_PI + ROUNDER) - ROUNDER;
    posenc__dd r = theta;
    if (n != 0.0) {
        posenc__dd a = two_prod(n, PIO2_1);
        posenc__dd b = two_prod(n, PIO2_2);
        /* The other terms are all below 2^-21 in magnitude (|n| < 2^31), so
         * adding them in plain double costs at most ~2^-74 absolute, far
         * below the 2^-66 of theta itself; double-double adds here would
         * be a third of the whole evaluation's time. */
        double tail = ((theta.lo - a.lo) - b.hi) - (b.lo + n * PIO2_3);
        r = two_sum(theta.hi - a.hi, tail);
    }

    /* sin(rh + rl) = sin(rh) + rl cos(rh), cos(rh + rl) = cos(rh) - rl sin(rh),
     * exact to far below a double ulp since |rl| <= ulp(rh)/2. */
    double sh = sin(r.hi), ch = cos(r.hi);
    double sr = sh + r.lo * ch;
    double cr = ch - r.lo * sh;

    switch ((int64_t)n & 3) {
    case 0: *s = sr;  *c = cr;  break;
    case 1: *s = cr;  *c = -sr; break;
    case 2: *s = -sr; *c = -cr; break;
    default: *s = -cr; *c = sr; break;
    }
    /* No negative zeros: a learner should never see -0. */
    *s += 0.0;
    *c += 0.0;
}

/* ---- public functions ---------------------------------------------------- */

static posenc_status check_pair(uint32_t k, uint32_t D, double base)
{
    if (!posenc__dim_ok(D))
        return POSENC_ERR_DIM;
    if ((uint64_t)k * 2 >= (uint64_t)D) /* pair k needs element 2k */
        return POSENC_ERR_RANGE;
    if (!posenc__base_ok(base))
        return POSENC_ERR_BASE;
    return POSENC_OK;
}

posenc_status posenc_pair_index(uint32_t k, uint32_t D, posenc_layout layout,
                                uint32_t *i0, uint32_t *i1)
{
    if (!i0 || !i1)
        return POSENC_ERR_NULL;
    if (!posenc__dim_ok(D))
        return POSENC_ERR_DIM;
    if (k >= D / 2)
        return POSENC_ERR_RANGE;
    if (!posenc__layout_ok(layout))
        return POSENC_ERR_LAYOUT;
    if (layout == POSENC_LAYOUT_INTERLEAVED) {
        *i0 = 2 * k;
        *i1 = 2 * k + 1;
    } else {
        *i0 = k;
        *i1 = k + D / 2;
    }
    return POSENC_OK;
}

posenc_status posenc_inv_freq(uint32_t k, uint32_t D, double base, double *inv_freq)
{
    if (!inv_freq)
        return POSENC_ERR_NULL;
    posenc_status st = check_pair(k, D, base);
    if (st != POSENC_OK)
        return st;
    *inv_freq = posenc__inv_freq_dd(k, D, base).hi;
    return POSENC_OK;
}

posenc_status posenc_angle(int64_t pos, uint32_t k, uint32_t D, double base, double *theta)
{
    if (!theta)
        return POSENC_ERR_NULL;
    posenc_status st = check_pair(k, D, base);
    if (st != POSENC_OK)
        return st;
    if (!posenc__pos_ok(pos))
        return POSENC_ERR_POS;
    posenc__dd t = dd_mul_d(posenc__inv_freq_dd(k, D, base), (double)pos);
    *theta = t.hi;
    return POSENC_OK;
}

posenc_status posenc_sincos(int64_t pos, uint32_t k, uint32_t D, double base,
                            double *s, double *c)
{
    if (!s || !c)
        return POSENC_ERR_NULL;
    posenc_status st = check_pair(k, D, base);
    if (st != POSENC_OK)
        return st;
    if (!posenc__pos_ok(pos))
        return POSENC_ERR_POS;
    posenc__sincos_dd(pos, posenc__inv_freq_dd(k, D, base), s, c);
    return POSENC_OK;
}

posenc_status posenc_pair_explain(int64_t pos, uint32_t k, uint32_t D, double base,
                                  posenc_pair_trace *out)
{
    if (!out)
        return POSENC_ERR_NULL;
    posenc_status st = check_pair(k, D, base);
    if (st != POSENC_OK)
        return st;
    if (!posenc__pos_ok(pos))
        return POSENC_ERR_POS;
    posenc__dd f = posenc__inv_freq_dd(k, D, base);
    posenc__dd div = posenc__divisor_dd(k, D, base);
    static const posenc__dd TWO_PI = {0x1.921fb54442d18p+2, 0x1.1a62633145c07p-52};
    out->k = k;
    out->divisor = div.hi;
    out->inv_freq = f.hi;
    out->wavelength = dd_mul(TWO_PI, div).hi;
    out->angle = dd_mul_d(f, (double)pos).hi;
    posenc__sincos_dd(pos, f, &out->sin_angle, &out->cos_angle);
    return POSENC_OK;
}

/* ---- double-double arithmetic for the other source files ---------------- */

posenc__dd posenc__dd_add(posenc__dd a, posenc__dd b) { return dd_add(a, b); }
posenc__dd posenc__dd_mul(posenc__dd a, posenc__dd b) { return dd_mul(a, b); }
posenc__dd posenc__dd_exp(posenc__dd a) { return dd_exp(a); }
posenc__dd posenc__dd_log(double x) { return dd_log(x); }
