/*
 * dd.h - double-double arithmetic, the one dialect of the library (angles,
 * frequencies, scalings). Not installed.
 *
 * A double-double (dd) is an unevaluated sum hi + lo with |lo| <= ulp(hi)/2,
 * about 106 bits. The algorithms are the classical error-free transformations
 * (Knuth's two-sum, Dekker's product with one fused multiply-add for the
 * product's error) and the scheme of Hida, Li and Bailey's QD library,
 * written down here from the formulas. fma() is the exact fused operation
 * (glibc runs the hardware instruction where there is one); every other
 * operation is a plain IEEE double operation, so the results do not depend
 * on the instruction set.
 */
#ifndef POSENC_DD_H
#define POSENC_DD_H

#include <math.h>

typedef struct posenc__dd {
    double hi, lo;
} posenc__dd;

static inline posenc__dd posenc__dd_of(double x) { return (posenc__dd){x, 0.0}; }

/* a + b exactly, as s + e. */
static inline posenc__dd posenc__two_sum(double a, double b)
{
    double s = a + b;
    double bb = s - a;
    double e = (a - (s - bb)) + (b - bb);
    return (posenc__dd){s, e};
}

/* The same when |a| >= |b| (or a == 0). */
static inline posenc__dd posenc__quick_two_sum(double a, double b)
{
    double s = a + b;
    return (posenc__dd){s, b - (s - a)};
}

/* a * b exactly, as p + e. The error term e = a*b - p is exact; Dekker's
 * splitting computes it with plain multiplies and adds (no call to fma(),
 * which without -mfma is a library call costing more than the rest), and
 * gives the same e whenever no partial product leaves the normal range; the
 * rare operands outside [2^-900, 2^995] go to fma(). Either way the result
 * is the exactly rounded fma(a, b, -p), so every instruction set agrees. */
static inline posenc__dd posenc__two_prod(double a, double b)
{
    double p = a * b;
    double ap = fabs(p), aa = fabs(a), ab = fabs(b);
    if (!(ap >= 0x1p-900 && aa <= 0x1p995 && ab <= 0x1p995 && ap <= 0x1p995))
        return (posenc__dd){p, fma(a, b, -p)};
    const double SPLIT = 134217729.0; /* 2^27 + 1 */
    double ta = SPLIT * a, ah = ta - (ta - a), al = a - ah;
    double tb = SPLIT * b, bh = tb - (tb - b), bl = b - bh;
    double e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    return (posenc__dd){p, e};
}

static inline posenc__dd posenc__dd_neg(posenc__dd a) { return (posenc__dd){-a.hi, -a.lo}; }

static inline posenc__dd posenc__dd_add(posenc__dd a, posenc__dd b)
{
    posenc__dd s = posenc__two_sum(a.hi, b.hi);
    posenc__dd t = posenc__two_sum(a.lo, b.lo);
    s.lo += t.hi;
    s = posenc__quick_two_sum(s.hi, s.lo);
    s.lo += t.lo;
    return posenc__quick_two_sum(s.hi, s.lo);
}

static inline posenc__dd posenc__dd_sub(posenc__dd a, posenc__dd b)
{
    return posenc__dd_add(a, posenc__dd_neg(b));
}

static inline posenc__dd posenc__dd_mul(posenc__dd a, posenc__dd b)
{
    posenc__dd p = posenc__two_prod(a.hi, b.hi);
    p.lo += a.hi * b.lo + a.lo * b.hi;
    return posenc__quick_two_sum(p.hi, p.lo);
}

/* a * b for a double b (e.g. an exact integer position). */
static inline posenc__dd posenc__dd_mul_d(posenc__dd a, double b)
{
    posenc__dd p = posenc__two_prod(a.hi, b);
    p.lo += a.lo * b;
    return posenc__quick_two_sum(p.hi, p.lo);
}

/* a / b: the double quotient corrected twice by its remainder. */
static inline posenc__dd posenc__dd_div(posenc__dd a, posenc__dd b)
{
    double q1 = a.hi / b.hi;
    posenc__dd r = posenc__dd_sub(a, posenc__dd_mul(posenc__dd_of(q1), b));
    double q2 = r.hi / b.hi;
    r = posenc__dd_sub(r, posenc__dd_mul(posenc__dd_of(q2), b));
    double q3 = r.hi / b.hi;
    return posenc__dd_add(posenc__dd_add(posenc__dd_of(q1), posenc__dd_of(q2)),
                          posenc__dd_of(q3));
}

/* -1, 0, +1 as a < b, a == b, a > b. */
static inline int posenc__dd_cmp(posenc__dd a, posenc__dd b)
{
    if (a.hi != b.hi)
        return a.hi < b.hi ? -1 : 1;
    if (a.lo != b.lo)
        return a.lo < b.lo ? -1 : 1;
    return 0;
}

/* exp(a) for |a| < 700 and log(x) for a finite double x > 0, each to about
 * 2^-100 relative (src/math/angle.c; method in docs/ACCURACY.md). */
posenc__dd posenc__dd_exp(posenc__dd a);
posenc__dd posenc__dd_log(double x);

#endif
