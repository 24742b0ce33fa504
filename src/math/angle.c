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

static const dd LN2_64 = {0x1.62e42fefa39efp-7, 0x1.abc9e3b39803fp-62}; /* ln(2) / 64 */

/* 2^(j/64) for j < 64 as double-doubles (mpmath at 300 bits, rounded), two a
 * line: j = 2i, 2i + 1. */
static const dd EXP2_J64[64] = {
    {0x1.0000000000000p+0, 0x0.0p+0}, {0x1.02c9a3e778061p+0, -0x1.19083535b085dp-56},
    {0x1.059b0d3158574p+0, 0x1.d73e2a475b465p-55}, {0x1.0874518759bc8p+0, 0x1.186be4bb284ffp-57},
    {0x1.0b5586cf9890fp+0, 0x1.8a62e4adc610bp-54}, {0x1.0e3ec32d3d1a2p+0, 0x1.03a1727c57b53p-59},
    {0x1.11301d0125b51p+0, -0x1.6c51039449b3ap-54}, {0x1.1429aaea92de0p+0, -0x1.32fbf9af1369ep-54},
    {0x1.172b83c7d517bp+0, -0x1.19041b9d78a76p-55}, {0x1.1a35beb6fcb75p+0, 0x1.e5b4c7b4968e4p-55},
    {0x1.1d4873168b9aap+0, 0x1.e016e00a2643cp-54}, {0x1.2063b88628cd6p+0, 0x1.dc775814a8495p-55},
    {0x1.2387a6e756238p+0, 0x1.9b07eb6c70573p-54}, {0x1.26b4565e27cddp+0, 0x1.2bd339940e9d9p-55},
    {0x1.29e9df51fdee1p+0, 0x1.612e8afad1255p-55}, {0x1.2d285a6e4030bp+0, 0x1.0024754db41d5p-54},
    {0x1.306fe0a31b715p+0, 0x1.6f46ad23182e4p-55}, {0x1.33c08b26416ffp+0, 0x1.32721843659a6p-54},
    {0x1.371a7373aa9cbp+0, -0x1.63aeabf42eae2p-54}, {0x1.3a7db34e59ff7p+0, -0x1.5e436d661f5e3p-56},
    {0x1.3dea64c123422p+0, 0x1.ada0911f09ebcp-55}, {0x1.4160a21f72e2ap+0, -0x1.ef3691c309278p-58},
    {0x1.44e086061892dp+0, 0x1.89b7a04ef80d0p-59}, {0x1.486a2b5c13cd0p+0, 0x1.3c1a3b69062f0p-56},
    {0x1.4bfdad5362a27p+0, 0x1.d4397afec42e2p-56}, {0x1.4f9b2769d2ca7p+0, -0x1.4b309d25957e3p-54},
    {0x1.5342b569d4f82p+0, -0x1.07abe1db13cadp-55}, {0x1.56f4736b527dap+0, 0x1.9bb2c011d93adp-54},
    {0x1.5ab07dd485429p+0, 0x1.6324c054647adp-54}, {0x1.5e76f15ad2148p+0, 0x1.ba6f93080e65ep-54},
    {0x1.6247eb03a5585p+0, -0x1.383c17e40b497p-54}, {0x1.6623882552225p+0, -0x1.bb60987591c34p-54},
    {0x1.6a09e667f3bcdp+0, -0x1.bdd3413b26456p-54}, {0x1.6dfb23c651a2fp+0, -0x1.bbe3a683c88abp-57},
    {0x1.71f75e8ec5f74p+0, -0x1.16e4786887a99p-55}, {0x1.75feb564267c9p+0, -0x1.0245957316dd3p-54},
    {0x1.7a11473eb0187p+0, -0x1.41577ee04992fp-55}, {0x1.7e2f336cf4e62p+0, 0x1.05d02ba15797ep-56},
    {0x1.82589994cce13p+0, -0x1.d4c1dd41532d8p-54}, {0x1.868d99b4492edp+0, -0x1.fc6f89bd4f6bap-54},
    {0x1.8ace5422aa0dbp+0, 0x1.6e9f156864b27p-54}, {0x1.8f1ae99157736p+0, 0x1.5cc13a2e3976cp-55},
    {0x1.93737b0cdc5e5p+0, -0x1.75fc781b57ebcp-57}, {0x1.97d829fde4e50p+0, -0x1.d185b7c1b85d1p-54},
    {0x1.9c49182a3f090p+0, 0x1.c7c46b071f2bep-56}, {0x1.a0c667b5de565p+0, -0x1.359495d1cd533p-54},
    {0x1.a5503b23e255dp+0, -0x1.d2f6edb8d41e1p-54}, {0x1.a9e6b5579fdbfp+0, 0x1.0fac90ef7fd31p-54},
    {0x1.ae89f995ad3adp+0, 0x1.7a1cd345dcc81p-54}, {0x1.b33a2b84f15fbp+0, -0x1.2805e3084d708p-57},
    {0x1.b7f76f2fb5e47p+0, -0x1.5584f7e54ac3bp-56}, {0x1.bcc1e904bc1d2p+0, 0x1.23dd07a2d9e84p-55},
    {0x1.c199bdd85529cp+0, 0x1.11065895048ddp-55}, {0x1.c67f12e57d14bp+0, 0x1.2884dff483cadp-54},
    {0x1.cb720dcef9069p+0, 0x1.503cbd1e949dbp-56}, {0x1.d072d4a07897cp+0, -0x1.cbc3743797a9cp-54},
    {0x1.d5818dcfba487p+0, 0x1.2ed02d75b3707p-55}, {0x1.da9e603db3285p+0, 0x1.c2300696db532p-54},
    {0x1.dfc97337b9b5fp+0, -0x1.1a5cd4f184b5cp-54}, {0x1.e502ee78b3ff6p+0, 0x1.39e8980a9cc8fp-55},
    {0x1.ea4afa2a490dap+0, -0x1.e9c23179c2893p-54}, {0x1.efa1bee615a27p+0, 0x1.dc7f486a4b6b0p-54},
    {0x1.f50765b6e4540p+0, 0x1.9d3e12dd8a18bp-54}, {0x1.fa7c1819e90d8p+0, 0x1.74853f3a5931ep-55},
};

/* 1/k! for k = 2..5 as double-doubles. */
static const dd INV_FACT[6] = {{1.0, 0.0}, {1.0, 0.0}, {0x1p-1, 0.0}, /* [0] unused */
                               {0x1.5555555555555p-3, 0x1.5555555555555p-57},
                               {0x1.5555555555555p-5, 0x1.5555555555555p-59},
                               {0x1.1111111111111p-7, 0x1.1111111111111p-63}};

/* exp(a) for |a| < 700. a = n ln2/64 + r with n = 64 m + j and |r| <= ln2/128;
 * exp(a) = 2^m 2^(j/64) (1 + expm1(r)), the table value times the Taylor
 * series of expm1 to r^11/11! (the next term is below 2^-119): the terms
 * from r^6 on (below 2^-54 relative) in double, the others by dd Horner. */
posenc__dd posenc__dd_exp(posenc__dd a)
{
    double n = (a.hi / LN2_64.hi + POSENC__ROUNDER) - POSENC__ROUNDER;
    dd r = dd_add(a, dd_neg(dd_mul_d(LN2_64, n)));
    double x = r.hi;
    double t = 1.0 / 39916800.0;
    t = 1.0 / 3628800.0 + x * t;
    t = 1.0 / 362880.0 + x * t;
    t = 1.0 / 40320.0 + x * t;
    t = 1.0 / 5040.0 + x * t;
    t = 1.0 / 720.0 + x * t; /* sum_{k=6}^{11} x^(k-6) / k! */
    dd p = dd_add(INV_FACT[5], dd_mul_d(r, t));
    for (int k = 4; k >= 1; k--)
        p = dd_add(INV_FACT[k], dd_mul(r, p));
    /* p = expm1(r) / r, so exp(r) = 1 + r p */
    p = dd_add(posenc__dd_of(1.0), dd_mul(r, p));
    int64_t ni = (int64_t)n;
    int j = (int)(ni & 63);
    int mexp = (int)((ni - j) / 64);
    dd e = dd_mul(EXP2_J64[j], p);
    return (posenc__dd){ldexp(e.hi, mexp), ldexp(e.lo, mexp)};
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

/* The recipe of posenc__inv_freq_dd (internal.h): f(k) = E(k / 64) R(k mod 64),
 * E(0) = 1, and for j = 8a + b (a, b < 8) R(j) = s^a r^b, with r^b and
 * s^a = (r^8)^a by successive products from 1 (two short chains instead of
 * one of 63 products, whose latency would dominate). Both exps are accurate
 * to ~2^-97 and each product adds ~2^-104, so f(k) is within ~2^-94
 * relative (the error of r is multiplied by j <= 63). */
void posenc__inv_freqs_dd_log(uint32_t k0, uint32_t m, uint32_t d, dd log_base, double *hi,
                              double *lo)
{
    const uint32_t B = POSENC__FREQ_BLOCK; /* 64 = 8 * 8 */
    if (m == 0)
        return;
    dd r1[8], r8[8]; /* r^b and (r^8)^a */
    r1[0] = posenc__dd_of(1.0);
    r1[1] = posenc__dd_exp(neg_arg(1, d, log_base));
    for (int b = 2; b < 8; b++)
        r1[b] = dd_mul(r1[b - 1], r1[1]);
    r8[0] = posenc__dd_of(1.0);
    r8[1] = dd_mul(r1[7], r1[1]);
    for (int a = 2; a < 8; a++)
        r8[a] = dd_mul(r8[a - 1], r8[1]);
    uint32_t k = k0, end = k0 + m;
    while (k < end) {
        uint32_t i = k / B, stop = (i + 1) * B < end ? (i + 1) * B : end;
        dd e = i == 0 ? posenc__dd_of(1.0) : posenc__dd_exp(neg_arg(i * B, d, log_base));
        for (; k < stop; k++) {
            uint32_t j = k % B;
            dd f = dd_mul(r8[j / 8], r1[j % 8]);
            if (i > 0)
                f = dd_mul(e, f);
            hi[k - k0] = f.hi;
            lo[k - k0] = f.lo;
        }
    }
}

uint32_t posenc__freq_block(uint32_t k0, uint32_t n_pairs, uint32_t block, uint32_t d,
                            dd log_base, double *hi, double *lo)
{
    uint32_t m = n_pairs - k0 < block ? n_pairs - k0 : block;
    posenc__inv_freqs_dd_log(k0, m, d, log_base, hi, lo);
    return m;
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

/* The one argument check of the pair functions below, in this order:
 * POSENC_ERR_NULL (no place for the result: have_out 0), POSENC_ERR_DIM,
 * POSENC_ERR_RANGE (no pair k), POSENC_ERR_BASE, POSENC_ERR_POS. */
static posenc_status check_pair(int have_out, int64_t pos, uint32_t k, uint32_t D, double base)
{
    if (!have_out)
        return POSENC_ERR_NULL;
    if (!posenc__dim_ok(D))
        return POSENC_ERR_DIM;
    if ((uint64_t)k * 2 >= (uint64_t)D) /* pair k needs element 2k */
        return POSENC_ERR_RANGE;
    return posenc__check_base_pos(base, pos);
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
    posenc_status st = check_pair(inv_freq != NULL, 0, k, D, base); /* no position */
    if (st != POSENC_OK)
        return st;
    *inv_freq = posenc__inv_freq_dd(k, D, base).hi;
    return POSENC_OK;
}

posenc_status posenc_angle(int64_t pos, uint32_t k, uint32_t D, double base, double *theta)
{
    posenc_status st = check_pair(theta != NULL, pos, k, D, base);
    if (st != POSENC_OK)
        return st;
    posenc__dd t = dd_mul_d(posenc__inv_freq_dd(k, D, base), (double)pos);
    *theta = t.hi;
    return POSENC_OK;
}

posenc_status posenc_sincos(int64_t pos, uint32_t k, uint32_t D, double base,
                            double *s, double *c)
{
    posenc_status st = check_pair(s && c, pos, k, D, base);
    if (st != POSENC_OK)
        return st;
    posenc__sincos_dd(pos, posenc__inv_freq_dd(k, D, base), s, c);
    return POSENC_OK;
}

posenc_status posenc_pair_explain(int64_t pos, uint32_t k, uint32_t D, double base,
                                  posenc_pair_trace *out)
{
    posenc_status st = check_pair(out != NULL, pos, k, D, base);
    if (st != POSENC_OK)
        return st;
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

