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

typedef posenc__dd dd;
#define dd_add posenc__dd_add
#define dd_mul posenc__dd_mul
#define dd_mul_d posenc__dd_mul_d
#define dd_neg posenc__dd_neg
#define quick_two_sum posenc__quick_two_sum

/* ---- exp and log in double-double -------------------------------------- */

static const dd LN2 = {0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56};

/* exp(a) for |a| < 700. Reduce a = n ln2 + r, then r / 1024, a Taylor series
 * for expm1 of that, and ten doublings expm1(2x) = 2 expm1(x) + expm1(x)^2,
 * which keep the small quantity small and so keep its relative precision. */
posenc__dd posenc__dd_exp(posenc__dd a)
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
posenc__dd posenc__dd_log(double x)
{
    double y = log(x);
    posenc__dd e = posenc__dd_exp((posenc__dd){-y, 0.0});
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

/* -(2k/d) ln(base) */
static dd neg_arg(uint32_t k, uint32_t d, dd log_base)
{
    return dd_neg(dd_mul(exponent_dd(k, d), log_base));
}

/* The recipe of posenc__inv_freq_dd (internal.h): f(k) = E(k / B) r^(k mod B),
 * r^j by j successive products from 1, E(0) = 1. Both exps are accurate to
 * ~2^-100 and each product adds ~2^-105, so after at most B - 1 = 63
 * products f(k) is within ~2^-94 relative. */
void posenc__inv_freqs_dd_log(uint32_t k0, uint32_t m, uint32_t d, dd log_base, double *hi,
                              double *lo)
{
    const uint32_t B = POSENC__FREQ_BLOCK;
    if (m == 0)
        return;
    dd r = posenc__dd_exp(neg_arg(1, d, log_base));
    uint32_t k = k0, end = k0 + m;
    while (k < end) {
        uint32_t i = k / B, stop = (i + 1) * B < end ? (i + 1) * B : end;
        dd e = i == 0 ? posenc__dd_of(1.0) : posenc__dd_exp(neg_arg(i * B, d, log_base));
        dd rj = posenc__dd_of(1.0);
        for (uint32_t j = 0; j < k % B; j++) /* r^(k mod B), silently */
            rj = dd_mul(rj, r);
        for (; k < stop; k++) {
            dd f = i == 0 ? rj : dd_mul(e, rj);
            hi[k - k0] = f.hi;
            lo[k - k0] = f.lo;
            rj = dd_mul(rj, r);
        }
    }
}

void posenc__inv_freqs_dd(uint32_t k0, uint32_t m, uint32_t d, double base, double *hi,
                          double *lo)
{
    posenc__inv_freqs_dd_log(k0, m, d, posenc__dd_log(base), hi, lo);
}

posenc__dd posenc__inv_freq_dd(uint32_t k, uint32_t d, double base)
{
    dd f;
    posenc__inv_freqs_dd(k, 1, d, base, &f.hi, &f.lo);
    return f;
}

posenc__dd posenc__divisor_dd(uint32_t k, uint32_t d, double base)
{
    if (k == 0)
        return posenc__dd_of(1.0);
    return posenc__dd_exp(dd_neg(neg_arg(k, d, posenc__dd_log(base))));
}

/* ---- sin and cos of pos * f --------------------------------------------- */

/* sin(x + y) and cos(x + y) for |x| <= ~pi/4, |y| <= ulp(x)/2: the kernels
 * of fdlibm (FreeBSD msun k_sin.c, k_cos.c), with the coefficients of
 * internal.h; the tail y enters to first order. */
static double kernel_sin(double x, double y)
{
    double z = x * x, w = z * z, v = z * x;
    double r = POSENC__S2 + z * (POSENC__S3 + z * POSENC__S4) +
               z * w * (POSENC__S5 + z * POSENC__S6);
    return x - ((z * (0.5 * y - v * r) - y) - v * POSENC__S1);
}

static double kernel_cos(double x, double y)
{
    double z = x * x, w = z * z;
    double r = z * (POSENC__C1 + z * (POSENC__C2 + z * POSENC__C3)) +
               w * w * (POSENC__C4 + z * (POSENC__C5 + z * POSENC__C6));
    double hz = 0.5 * z, w1 = 1.0 - hz;
    return w1 + (((1.0 - w1) - hz) + (z * r - x * y));
}

void posenc__sincos_dd(int64_t pos, posenc__dd f, double *s, double *c)
{
    /* theta = pos * f in double-double: pos < 2^31 is exact in a double */
    dd theta = dd_mul_d(f, (double)pos);

    /* theta = n pi/2 + r, |r| <= ~pi/4. n * PIO2_1 is split exactly by
     * two_prod, and theta.hi - hi(n * PIO2_1) is exact (Sterbenz) because the
     * two are within a factor of two of each other whenever n >= 1 (and both
     * are 0 or theta.hi when n = 0). The other terms are all below 2^-21 in
     * magnitude (|n| < 2^31), so adding them in plain double costs at most
     * ~2^-74 absolute, far below the error of theta itself. n is rounded to
     * the nearest integer by adding and removing 1.5 * 2^52 (nearbyint()
     * would save and restore the floating-point environment). */
    double n = (theta.hi * POSENC__TWO_OVER_PI + POSENC__ROUNDER) - POSENC__ROUNDER;
    dd a = posenc__two_prod(n, POSENC__PIO2_1);
    dd b = posenc__two_prod(n, POSENC__PIO2_2);
    double tail = ((theta.lo - a.lo) - b.hi) - (b.lo + n * POSENC__PIO2_3);
    dd r = posenc__two_sum(theta.hi - a.hi, tail);

    double sr = kernel_sin(r.hi, r.lo), cr = kernel_cos(r.hi, r.lo);
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
    size_t a, b;
    posenc__pair_elems(layout, D / 2, k, &a, &b);
    *i0 = (uint32_t)a;
    *i1 = (uint32_t)b;
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
    static const dd TWO_PI = {0x1.921fb54442d18p+2, 0x1.1a62633145c07p-52};
    out->k = k;
    out->divisor = div.hi;
    out->inv_freq = f.hi;
    out->wavelength = dd_mul(TWO_PI, div).hi;
    out->angle = dd_mul_d(f, (double)pos).hi;
    posenc__sincos_dd(pos, f, &out->sin_angle, &out->cos_angle);
    return POSENC_OK;
}

