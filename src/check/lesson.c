/* lesson.c - the learner's hypotheses (posenc_lesson.h): the lesson's
 * commands answered exactly, a learner's slips recomputed in plain double
 * arithmetic as a learner's program would, the combinations that give what
 * was printed, and, when none does, where the failed numbers differ.
 *
 * The lesson's formulas (docs/LANGUAGE.md): element i belongs to pair
 * k = i // 2, D is the length of the vector, and
 *     theta(pos, k) = pos / base^(2k / D)
 *     PE(pos)[2k] = sin theta, PE(pos)[2k+1] = cos theta (odd D: a lone sine)
 *     ROPE: (a, b) -> (a cos theta - b sin theta, a sin theta + b cos theta)
 *     DOT m n q k = ROPE(m, q) . ROPE(n, k),  ADD pos x = x + PE(pos).
 * A slip turns one knob of this recipe (side) in one of the two functions.
 *
 * Shared with check.c in spirit, not yet in code: both keep a list of
 * hypotheses, each a change of one knob of an exact recipe, and keep those
 * whose recomputation lands within the printed (or dtype's) precision. The
 * search (combinations, fewest first, "needed for" counts) is written over
 * an abstract "does this knob set explain case i" and can become the room's
 * common part once check.c's causes are knob sets too. */
#include "posenc_lesson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the exact answers ----------------------------------------------------------- */

double posenc_lesson_base(const posenc_lesson_case *c)
{
    return c->base > 0 ? c->base : POSENC_DEFAULT_BASE;
}

size_t posenc_lesson_answer_len(const posenc_lesson_case *c)
{
    return c->kind == POSENC_LESSON_DOT ? 1 : c->D;
}

int posenc_lesson_answer(const posenc_lesson_case *c, double *out)
{
    posenc_status s = POSENC_OK;
    double base = posenc_lesson_base(c);
    switch (c->kind) {
    case POSENC_LESSON_PE:
        s = posenc_sinusoid_fill_f64(c->pos, c->D, base, out);
        break;
    case POSENC_LESSON_ROPE:
        memcpy(out, c->x, c->D * sizeof *out);
        s = posenc_rope_apply_f64(c->pos, c->D, base, POSENC_LAYOUT_INTERLEAVED, POSENC_FORWARD,
                                  out);
        break;
    case POSENC_LESSON_ADD:
        memcpy(out, c->x, c->D * sizeof *out);
        s = posenc_sinusoid_add_f64(c->pos, c->D, base, out);
        break;
    case POSENC_LESSON_DOT:
        s = posenc_rope_dot_f64(c->pos, c->pos2, c->D, base, POSENC_LAYOUT_INTERLEAVED, c->x,
                                c->x + c->D, out);
        break;
    }
    return s == POSENC_OK;
}

int posenc_lesson_close(double got, double want)
{
    return fabs(got - want) <= 0.5e-4 + 1e-9 * (1 + fabs(want));
}

/* ---- the slips' words --------------------------------------------------------------- */

const char *posenc_lesson_mistake_name(posenc_lesson_mistake m)
{
    static const char *const names[POSENC_SLIPS] = {
        "element-index",    "exponent-k-over-d", "rotation-sign",   "sin-cos-swapped",
        "odd-d",            "layout",            "position-offset", "model-dim",
        "base",             "integer-exponent",  "pair-shift",      "multiply-not-divide",
        "coordinate-sign",  "used-after-overwrite", "odd-d-exponent", "base-ignored",
        "single-precision"};
    return (unsigned)m < POSENC_SLIPS ? names[m] : "none";
}

const char *posenc_lesson_mistake_sentence(posenc_lesson_mistake m)
{
    static const char *const s[POSENC_SLIPS] = {
        /* element-index */
        "The exponent uses the element index i where the pair index k = i // 2 belongs: "
        "theta = pos / base^(2k/D), and both elements 2k and 2k+1 of a pair share one angle.",
        /* exponent-k-over-d */
        "The exponent is k/D where the lesson has 2k/D: theta = pos / base^(2k/D), "
        "so pair 1 of D = 4 turns by pos / 10000^(2/4) = pos / 100.",
        /* rotation-sign */
        "The rotation turns the wrong way: (a, b) becomes (a cos theta - b sin theta, "
        "a sin theta + b cos theta), so ROPE 1 1 0 is 0.5403 0.8415 (the DOT of a vector "
        "with itself cannot show it: the angle between the two turns is the same either way).",
        /* sin-cos-swapped */
        "Sine and cosine are swapped: PE[2k] = sin(theta) and PE[2k+1] = cos(theta), so "
        "PE 2 4 starts with sin 2 = 0.9093; in the rotation x[2k] = a cos - b sin and "
        "x[2k+1] = a sin + b cos, so ROPE 1 1 0 is 0.5403 0.8415.",
        /* odd-d */
        "With odd D the last element is the sine of a pair that lost its cosine: "
        "PE(pos)[D-1] = sin(pos / base^((D-1)/D)), so PE 2 5 ends with 0.0013; ROPE "
        "leaves that lone element as it is.",
        /* layout */
        "The pairs are the wrong elements: the lesson's pair k is (x[2k], x[2k+1]), adjacent "
        "elements, and PE interleaves PE[2k] = sin, PE[2k+1] = cos (half pairs x[k], "
        "x[k + D/2] are another layout, GPT-NeoX's).",
        /* position-offset */
        "The position is off: theta = pos / base^(2k/D) with pos as given, the first token "
        "at position 0, so PE 0 D is 0 1 0 1 ... and ROPE 0 leaves x as it is.",
        /* model-dim */
        "The exponent's D is fixed: D is the length of the vector being encoded or rotated "
        "(PE's D, ROPE's count of numbers), theta = pos / base^(2k/D).",
        /* base */
        "The base is wrong: the lesson's is 10000 (or the one `SET base` gave), "
        "theta = pos / base^(2k/D).",
        /* integer-exponent */
        "The exponent 2k/D is computed in integer arithmetic: 2*k/D with int k and D is 0 for "
        "every pair (2k < D), so every pair turns by pos itself.\n"
        "Line: theta = pos / base^(2k/D). Write 2.0 * k / D: PE 2 4's pair 1 is then "
        "2 / 10000^0.5 = 0.02 (sin 0.0200, cos 0.9998), not sin 2 = 0.9093 again.",
        /* pair-shift */
        "Each pair uses the exponent of its neighbour: theta(pos, k) = pos / base^(2k/D) "
        "with k the pair's own index, counted from 0.\n"
        "With k+1, pair 0 of PE 2 4 turns by 2 / 10000^(2/4) = 0.02 instead of 2 (its sine "
        "0.0200, not 0.9093).",
        /* multiply-not-divide */
        "The position and the divisor are combined the wrong way: theta = pos / base^(2k/D), "
        "the position divided by the divisor (not multiplied by it, nor the divisor divided "
        "by the position), the later pairs turning ever slower.\n"
        "PE 2 4's pair 1 turns by 2 / 100 = 0.02, not 2 * 100 = 200.",
        /* coordinate-sign */
        "One coordinate of the rotation has a sine term with the wrong sign: the pair (a, b) "
        "becomes x[2k] = a cos - b sin and x[2k+1] = a sin + b cos.\n"
        "ROPE 1 1 0 is 0.5403 0.8415 (with the sign wrong in the second coordinate it prints "
        "0.5403 -0.8415); the first coordinate alone stays right when b = 0.",
        /* used-after-overwrite */
        "One coordinate of the pair is computed from the other after it was already "
        "overwritten (x[2k+1] from the new x[2k], or the other way): take a = x[2k] and "
        "b = x[2k+1] first, then write both.\n"
        "ROPE 1 1 1: a cos 1 - b sin 1 = -0.3012 is right, but then -0.3012 sin 1 + cos 1 = "
        "0.2869 where a sin 1 + b cos 1 = 1.3818.",
        /* odd-d-exponent */
        "With odd D the exponent is divided by D - 1 (or D rounded down to even): D is the "
        "vector's length, odd or not, theta = pos / base^(2k/D).\n"
        "PE 2 5's pair 1 turns by 2 / 10000^(2/5) = 0.0502 (sin 0.0502), not "
        "2 / 10000^(2/4) = 0.02.",
        /* base-ignored */
        "The base is always 10000: the program accepts `SET base B` but the functions use "
        "10000 instead of their base argument.\n"
        "theta = pos / base^(2k/D) with the base passed in: after SET base 100, PE 1 4's "
        "pair 1 turns by 1 / 100^(2/4) = 0.1 (sin 0.0998), not 1 / 100 (0.0100).",
        /* single-precision */
        "The angle is computed in single precision (float): the numbers drift at large "
        "positions, where pos / base^(2k/D) is large and float keeps 7 digits.\n"
        "At position 100000 float's step is 0.0078 radians, so sin and cos are off in the "
        "3rd decimal; compute theta, pow, sin and cos in double.",
    };
    return (unsigned)m < POSENC_SLIPS ? s[m] : "";
}

/* ---- the model ----------------------------------------------------------------------- */

/* The exponent's numerator for element j of pair k (theta = pos /
 * base^(num / D)). */
enum {
    EXP_2K,      /* 2k: right */
    EXP_K,       /* k: exponent-k-over-d */
    EXP_2I,      /* 2j, j the element index: element-index (the rotation: 2 * 2k) */
    EXP_2I_PAIR, /* 2 * 2k for both elements of a pair: element-index in a loop over pairs */
    EXP_I,       /* j: element-index written as i/D */
    EXP_INT      /* 2*k/D in integers: 0 */
};

enum { ODD_RIGHT, ODD_FREE, ODD_ZERO, ODD_COS };
enum { SIGN_RIGHT, SIGN_BOTH, SIGN_SECOND, SIGN_FIRST };

/* How one of the learner's functions computes; RIGHT is the recipe. */
typedef struct {
    int exponent;  /* EXP_* */
    double base;   /* fixed base; 0: the case's */
    double dim;    /* the exponent's D; 0: the vector's; -1: D rounded down to even;
                      -2: D / 2; -3: D - 1; -4: D rounded up to even */
    double offset; /* added to the position */
    double shift;  /* added to the exponent's numerator (2: pair k+1) */
    int layout;    /* 1: half pairs (rotation), sines then cosines (sinusoid) */
    int sign;      /* SIGN_* */
    int swap;      /* sinusoid 1: cos at 2k, sin at 2k+1; rotation: bit 0 the first line's
                      sin and cos swapped, bit 1 the second's */
    int odd;       /* ODD_*: the lone element of an odd D */
    int multiply;  /* 1: pos * base^(num/D); 2: base^(num/D) / pos */
    int log10_base; /* 1: exp(e * log10(base)) where exp(e * log(base)) belongs */
    int overwrite; /* 1: x[2k+1] from the new x[2k]; 2: x[2k] from the new x[2k+1] */
    int single;    /* 1: the angle in float (a tolerance, not one rounding) */
} side;

static const side RIGHT = {EXP_2K, 0, 0, 0, 0, 0, SIGN_RIGHT, 0, ODD_RIGHT, 0, 0, 0, 0};

static double theta(const side *s, const posenc_lesson_case *c, int64_t pos, double num)
{
    double d = s->dim > 0    ? s->dim
               : s->dim == -1 ? (double)(c->D - c->D % 2) /* D rounded down to even */
               : s->dim == -2 ? (double)(c->D / 2)        /* the pair count */
               : s->dim == -3 ? (double)c->D - 1          /* D - 1 for every D */
               : s->dim == -4 ? (double)(c->D + c->D % 2) /* D rounded up to even */
                              : (double)c->D;
    double b = s->base > 0 ? s->base : posenc_lesson_base(c);
    if (s->log10_base)
        b = exp(log10(b));
    double e = s->exponent == EXP_INT ? 0 : (num + s->shift) / d;
    double p = (double)pos + s->offset;
    return s->multiply == 1 ? p * pow(b, e) : s->multiply == 2 ? pow(b, e) / p : p / pow(b, e);
}

static double numerator(const side *s, uint32_t j, uint32_t k)
{
    switch (s->exponent) {
    case EXP_K: return k;
    case EXP_2I: return 2.0 * j;
    case EXP_2I_PAIR: return 4.0 * k;
    case EXP_I: return j;
    default: return 2.0 * k;
    }
}

/* PE(pos) under s, out[0..D). */
static void model_sinusoid(const side *s, const posenc_lesson_case *c, double *out)
{
    uint32_t D = c->D;
    if (s->layout) { /* sines of every pair, then their cosines, then a lone sine */
        uint32_t h = D / 2;
        for (uint32_t k = 0; k < h; k++) {
            double t = theta(s, c, c->pos, numerator(s, 2 * k, k));
            out[k] = s->swap ? cos(t) : sin(t);
            out[h + k] = s->swap ? sin(t) : cos(t);
        }
        if (D % 2) {
            double t = theta(s, c, c->pos, numerator(s, D - 1, h));
            out[D - 1] = s->swap ? cos(t) : sin(t);
        }
        return;
    }
    for (uint32_t j = 0; j < D; j++) {
        double t = theta(s, c, c->pos, numerator(s, j, j / 2));
        int first = j % 2 == 0; /* PE[2k] = sin, PE[2k+1] = cos */
        out[j] = first != s->swap ? sin(t) : cos(t);
    }
}

/* x[0..D) rotated by pos under s. */
static void model_rotation(const side *s, const posenc_lesson_case *c, int64_t pos, double *x)
{
    uint32_t D = c->D, h = D / 2;
    for (uint32_t k = 0; k < h; k++) {
        double t = theta(s, c, pos, s->exponent == EXP_2I ? 4.0 * k : numerator(s, 2 * k, k));
        if (s->sign == SIGN_BOTH)
            t = -t;
        uint32_t i0 = s->layout ? k : 2 * k, i1 = s->layout ? k + h : 2 * k + 1;
        double a = x[i0], b = x[i1], co = cos(t), sn = sin(t);
        if (s->swap & 1) /* sin and cos swapped in a line of the rotation */
            x[i0] = a * sn - b * co;
        else
            x[i0] = s->sign == SIGN_FIRST ? a * co + b * sn : a * co - b * sn;
        if (s->overwrite == 2) { /* the second line first, the first from its result */
            x[i1] = a * sn + b * co;
            x[i0] = a * co - x[i1] * sn;
            continue;
        }
        if (s->overwrite)
            a = x[i0];
        if (s->swap & 2)
            x[i1] = a * co + b * sn;
        else
            x[i1] = s->sign == SIGN_SECOND ? -a * sn + b * co : a * sn + b * co;
    }
    if (D % 2 && s->odd == ODD_ZERO)
        x[D - 1] = 0;
    else if (D % 2 && s->odd == ODD_COS) /* the lone element turned as (a, 0) */
        x[D - 1] *= cos(theta(s, c, pos, numerator(s, 2 * h, h)));
}

/* |x| summed over x[0..n). */
static double abs_sum(const double *x, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += fabs(x[i]);
    return s;
}

/* The widening float's angle allows: 8 float steps of the largest angle
 * (pair 0's, the position) times how much an angle moves the numbers. */
static double single_slack(const posenc_lesson_case *c)
{
    double p = (double)(c->pos > c->pos2 ? c->pos : c->pos2) + 1;
    double amp = 1;
    if (c->kind == POSENC_LESSON_ROPE)
        amp = 2 * abs_sum(c->x, c->D);
    else if (c->kind == POSENC_LESSON_DOT)
        amp = 2 * abs_sum(c->x, c->D) * abs_sum(c->x + c->D, c->D);
    return 8 * ldexp(1.0, -24) * p * amp + 1e-6;
}

/* The answer to c under s; out has room for c's answer (scratch: 2D).
 * *free_last: the last of D numbers may be anything, missing, or followed
 * by one more; *slack: the extra tolerance. */
static void model_answer(const side *s, const posenc_lesson_case *c, double *out,
                         double *scratch, int *free_last, double *slack)
{
    uint32_t D = c->D;
    *free_last = 0;
    *slack = s->single ? single_slack(c) : 0;
    switch (c->kind) {
    case POSENC_LESSON_PE:
        model_sinusoid(s, c, out);
        *free_last = D % 2 && s->odd == ODD_FREE;
        break;
    case POSENC_LESSON_ADD:
        model_sinusoid(s, c, out);
        for (uint32_t i = 0; i < D; i++)
            out[i] += c->x[i];
        *free_last = D % 2 && s->odd == ODD_FREE;
        break;
    case POSENC_LESSON_ROPE:
        memcpy(out, c->x, D * sizeof *out);
        model_rotation(s, c, c->pos, out);
        *free_last = D % 2 && s->odd != ODD_RIGHT;
        break;
    case POSENC_LESSON_DOT: {
        double *q = scratch, *k = scratch + D, dot = 0;
        memcpy(q, c->x, 2 * (size_t)D * sizeof *q);
        model_rotation(s, c, c->pos, q);
        model_rotation(s, c, c->pos2, k);
        for (uint32_t i = 0; i < D; i++)
            dot += q[i] * k[i];
        out[0] = dot;
        break;
    }
    }
}

/* Whether the learner's line agrees with a model's answer. A model's
 * non-finite number (a division by zero the slip makes) matches a line
 * that printed one ("nan", "inf": n == -2), never a line that is not
 * numbers at all. */
static int agrees(const posenc_lesson_got *g, const double *want, size_t n, int free_last,
                  double slack)
{
    size_t check = free_last ? n - 1 : n;
    for (size_t i = 0; i < check; i++)
        if (!isfinite(want[i]))
            return g->n == -2;
    if (g->n < 0)
        return 0;
    size_t got_n = (size_t)g->n;
    if (free_last) {
        if (got_n + 1 < n || got_n > n + 1)
            return 0;
    } else if (got_n != n) {
        return 0;
    }
    for (size_t i = 0; i < check; i++)
        if (!posenc_lesson_close(g->v[i], want[i]) &&
            !(slack > 0 && fabs(g->v[i] - want[i]) <= slack))
            return 0;
    return 1;
}

/* ---- the hypotheses ------------------------------------------------------------------ */

/* One way a slip can show in one function: the knob it turns. */
typedef struct {
    posenc_lesson_mistake m;
    unsigned field; /* the knob, so that two variants never turn the same one */
    side s;         /* RIGHT with the knob turned */
    char what[48];
} variant;

enum { F_EXP = 1, F_BASE = 2, F_DIM = 4, F_OFFSET = 8, F_LAYOUT = 16, F_SIGN = 32, F_SWAP = 64,
       F_ODD = 128, F_SHIFT = 256, F_MULT = 512, F_OVER = 1024, F_SINGLE = 2048, F_LOG10 = 4096 };

#define MAX_VARIANTS 200

static void add(variant *v, size_t *n, posenc_lesson_mistake m, unsigned field, side s,
                const char *what)
{
    v[*n].m = m;
    v[*n].field = field;
    v[*n].s = s;
    snprintf(v[*n].what, sizeof v[*n].what, "%s", what);
    ++*n;
}

/* The first round's slips (in the order of posenc_lesson_mistake). */
static void first_round(int rotation, variant *v, size_t *n)
{
    side s;
    char what[48];
    s = RIGHT, s.exponent = EXP_2I;
    add(v, n, POSENC_SLIP_ELEMENT_INDEX, F_EXP, s, "exponent=2i/D");
    if (!rotation) {
        s.exponent = EXP_2I_PAIR;
        add(v, n, POSENC_SLIP_ELEMENT_INDEX, F_EXP, s, "exponent=2i/D");
        s.exponent = EXP_I;
        add(v, n, POSENC_SLIP_ELEMENT_INDEX, F_EXP, s, "exponent=i/D");
    }
    s = RIGHT, s.exponent = EXP_K;
    add(v, n, POSENC_SLIP_EXPONENT_K_OVER_D, F_EXP, s, "exponent=k/D");
    if (rotation) {
        s = RIGHT, s.sign = SIGN_BOTH;
        add(v, n, POSENC_SLIP_ROTATION_SIGN, F_SIGN, s, "");
    } else {
        s = RIGHT, s.swap = 1;
        add(v, n, POSENC_SLIP_SIN_COS_SWAPPED, F_SWAP, s, "");
    }
    if (rotation) {
        s = RIGHT, s.odd = ODD_ZERO;
        add(v, n, POSENC_SLIP_ODD_D, F_ODD, s, "");
        s.odd = ODD_COS;
        add(v, n, POSENC_SLIP_ODD_D, F_ODD, s, "");
    } else {
        s = RIGHT, s.odd = ODD_FREE;
        add(v, n, POSENC_SLIP_ODD_D, F_ODD, s, "");
    }
    s = RIGHT, s.layout = 1;
    add(v, n, POSENC_SLIP_LAYOUT, F_LAYOUT, s, rotation ? "pairs=half" : "order=sines-then-cosines");
    for (int off = 1; off >= -1; off -= 2) {
        s = RIGHT, s.offset = off;
        snprintf(what, sizeof what, "offset=%+d", off);
        add(v, n, POSENC_SLIP_POSITION_OFFSET, F_OFFSET, s, what);
    }
    static const double widths[] = {128, 256, 512, 768, 1024, 1536, 2048, 4096, 8192};
    for (int d = 1; d <= 64; d++) {
        s = RIGHT, s.dim = d;
        snprintf(what, sizeof what, "D=%d", d);
        add(v, n, POSENC_SLIP_MODEL_DIM, F_DIM, s, what);
    }
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        s = RIGHT, s.dim = widths[i];
        snprintf(what, sizeof what, "D=%.0f", widths[i]);
        add(v, n, POSENC_SLIP_MODEL_DIM, F_DIM, s, what);
    }
    s = RIGHT, s.dim = -2; /* the count of pairs D / 2 (integer) where D belongs */
    add(v, n, POSENC_SLIP_MODEL_DIM, F_DIM, s, "D=D/2");
    s.dim = -3; /* D - 1 for every D */
    add(v, n, POSENC_SLIP_MODEL_DIM, F_DIM, s, "D=D-1");
    static const double bases[] = {10, 100, 1000, 5000, 20000, 100000, 500000, 1e6, 1e7, 1e8};
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        s = RIGHT, s.base = bases[i];
        snprintf(what, sizeof what, "base=%.0f", bases[i]);
        add(v, n, POSENC_SLIP_BASE, F_BASE, s, what);
    }
    s = RIGHT, s.base = 2.718281828459045; /* exp(2k/D) where base^(2k/D) belongs */
    add(v, n, POSENC_SLIP_BASE, F_BASE, s, "base=e");
    s = RIGHT, s.base = 2;
    add(v, n, POSENC_SLIP_BASE, F_BASE, s, "base=2");
}

/* The variants of the sinusoid (rotation = 0) or the rotation, in the order
 * of posenc_lesson_mistake, so that the first fit found is the preferred one. */
static size_t variants(int rotation, variant *v)
{
    size_t n = 0;
    side s;
    first_round(rotation, v, &n);
    s = RIGHT, s.exponent = EXP_INT;
    add(v, &n, POSENC_SLIP_INTEGER_EXPONENT, F_EXP, s, "exponent=int(2*k/D)");
    static const struct {
        double shift;
        const char *what;
    } shifts[] = {{2, "exponent=2(k+1)/D"}, {-2, "exponent=2(k-1)/D"}, {1, "exponent=(2k+1)/D"},
                  {-1, "exponent=(2k-1)/D"}};
    for (size_t i = 0; i < sizeof shifts / sizeof shifts[0]; i++) {
        s = RIGHT, s.shift = shifts[i].shift;
        add(v, &n, POSENC_SLIP_PAIR_SHIFT, F_SHIFT, s, shifts[i].what);
    }
    s = RIGHT, s.multiply = 1;
    add(v, &n, POSENC_SLIP_MULTIPLY, F_MULT, s, "theta=pos*base^(2k/D)");
    s.multiply = 2;
    add(v, &n, POSENC_SLIP_MULTIPLY, F_MULT, s, "theta=base^(2k/D)/pos");
    s = RIGHT, s.log10_base = 1; /* exp(-2k/D * log10(base)): another base, base-dependent */
    add(v, &n, POSENC_SLIP_BASE, F_LOG10, s, "base=e^log10(base)");
    if (rotation) {
        static const char *const swaps[] = {"", "x[2k]=a*sin-b*cos", "x[2k+1]=a*cos+b*sin",
                                            "both-lines"};
        for (int sw = 3; sw >= 1; sw--) {
            s = RIGHT, s.swap = sw;
            add(v, &n, POSENC_SLIP_SIN_COS_SWAPPED, F_SWAP, s, swaps[sw]);
        }
        s = RIGHT, s.sign = SIGN_SECOND;
        add(v, &n, POSENC_SLIP_COORDINATE_SIGN, F_SIGN, s, "x[2k+1]=-a*sin+b*cos");
        s.sign = SIGN_FIRST;
        add(v, &n, POSENC_SLIP_COORDINATE_SIGN, F_SIGN, s, "x[2k]=a*cos+b*sin");
        s = RIGHT, s.overwrite = 1;
        add(v, &n, POSENC_SLIP_OVERWRITTEN, F_OVER, s, "b-from=new-x[2k]");
        s.overwrite = 2;
        add(v, &n, POSENC_SLIP_OVERWRITTEN, F_OVER, s, "a-from=new-x[2k+1]");
    }
    s = RIGHT, s.dim = -1;
    add(v, &n, POSENC_SLIP_ODD_D_EXPONENT, F_DIM, s, "exponent=2k/(D-1)");
    s.dim = -4;
    add(v, &n, POSENC_SLIP_ODD_D_EXPONENT, F_DIM, s, "exponent=2k/(D+1)");
    s = RIGHT, s.base = 10000;
    add(v, &n, POSENC_SLIP_BASE_IGNORED, F_BASE, s, "base=10000");
    s = RIGHT, s.single = 1;
    add(v, &n, POSENC_SLIP_SINGLE_PRECISION, F_SINGLE, s, "");
    return n;
}

/* The side with the knobs of variants idx[0..n) turned. */
static side combine(const variant *v, const size_t *idx, size_t n)
{
    side s = RIGHT;
    for (size_t i = 0; i < n; i++) {
        const side *t = &v[idx[i]].s;
        switch (v[idx[i]].field) {
        case F_EXP: s.exponent = t->exponent; break;
        case F_BASE: s.base = t->base; break;
        case F_DIM: s.dim = t->dim; break;
        case F_OFFSET: s.offset = t->offset; break;
        case F_LAYOUT: s.layout = t->layout; break;
        case F_SIGN: s.sign = t->sign; break;
        case F_SWAP: s.swap = t->swap; break;
        case F_ODD: s.odd = t->odd; break;
        case F_SHIFT: s.shift = t->shift; break;
        case F_MULT: s.multiply = t->multiply; break;
        case F_OVER: s.overwrite = t->overwrite; break;
        case F_SINGLE: s.single = t->single; break;
        case F_LOG10: s.log10_base = t->log10_base; break;
        }
    }
    return s;
}

/* ---- the search ---------------------------------------------------------------------- */

typedef struct {
    const posenc_lesson_case *c;
    const posenc_lesson_got *got;
    size_t *order; /* the function's cases, failed ones first */
    size_t n_order, n_failed;
    double *out, *scratch;
    size_t *work; /* numbers recomputed so far, both functions */
    size_t max_work;
} search;

/* Whether case i (of the search's order) agrees with s. */
static int case_agrees(const search *q, size_t i, const side *s)
{
    const posenc_lesson_case *c = &q->c[q->order[i]];
    int free_last;
    double slack;
    model_answer(s, c, q->out, q->scratch, &free_last, &slack);
    return agrees(&q->got[q->order[i]], q->out, posenc_lesson_answer_len(c), free_last, slack);
}

/* Whether s explains every case of the search's function (0 too when the
 * work is spent). */
static int explains(const search *q, const side *s)
{
    for (size_t i = 0; i < q->n_order; i++) {
        const posenc_lesson_case *c = &q->c[q->order[i]];
        *q->work += c->kind == POSENC_LESSON_DOT ? 2u * c->D : c->D;
        if (*q->work > q->max_work || !case_agrees(q, i, s))
            return 0;
    }
    return 1;
}

/* Failed cases of the function that s does not explain. */
static size_t unexplained(const search *q, const side *s)
{
    size_t n = 0;
    for (size_t i = 0; i < q->n_failed; i++)
        n += !case_agrees(q, i, s);
    return n;
}

#define MAX_PER_FN 3
#define MAX_CANDIDATES 24

typedef struct {
    size_t n;
    size_t idx[MAX_PER_FN];
} combo;

/* Every combination of size k of distinct slips and knobs that explains
 * the function (at most MAX_CANDIDATES, in the order of the variants). */
static size_t find(const search *q, const variant *v, size_t nv, size_t k, combo *out)
{
    size_t found = 0, idx[MAX_PER_FN];
    for (size_t i = 0; i < k; i++)
        idx[i] = i;
    while (*q->work <= q->max_work) {
        int ok = 1;
        for (size_t a = 0; a < k && ok; a++)
            for (size_t b = a + 1; b < k && ok; b++)
                ok = v[idx[a]].m != v[idx[b]].m && v[idx[a]].field != v[idx[b]].field;
        if (ok) {
            side s = combine(v, idx, k);
            if (explains(q, &s) && found < MAX_CANDIDATES) {
                out[found].n = k;
                memcpy(out[found].idx, idx, sizeof idx);
                found++;
            }
        }
        size_t i = k;
        while (i > 0 && idx[i - 1] == nv - k + i - 1)
            i--;
        if (i == 0)
            break;
        idx[i - 1]++;
        for (size_t j = i; j < k; j++)
            idx[j] = idx[j - 1] + 1;
    }
    return found;
}

static size_t explain_side(search *q, const variant *v, size_t nv, combo *out)
{
    if (q->n_failed == 0) {
        out[0].n = 0;
        return 1;
    }
    for (size_t k = 1; k <= MAX_PER_FN; k++) {
        size_t n = find(q, v, nv, k, out);
        if (n)
            return n;
    }
    return 0;
}

static unsigned names(const variant *vs, const combo *a, const variant *vr, const combo *b)
{
    unsigned set = 0;
    for (size_t i = 0; i < a->n; i++)
        set |= 1u << vs[a->idx[i]].m;
    for (size_t i = 0; i < b->n; i++)
        set |= 1u << vr[b->idx[i]].m;
    return set;
}

static unsigned popcount(unsigned x)
{
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* Adds fn's slips of one explanation to e, merging a slip the other
 * function made the same way. */
static void add_fits(posenc_lesson_explanation *e, search *q, const variant *v, const combo *b,
                     unsigned fn)
{
    for (size_t i = 0; i < b->n; i++) {
        const variant *x = &v[b->idx[i]];
        size_t rest[MAX_PER_FN], nr = 0;
        for (size_t j = 0; j < b->n; j++)
            if (j != i)
                rest[nr++] = b->idx[j];
        side without = combine(v, rest, nr);
        size_t needed = unexplained(q, &without);
        size_t f = 0;
        while (f < e->n && !(e->fit[f].m == x->m && strcmp(e->fit[f].what, x->what) == 0))
            f++;
        if (f == e->n) {
            e->n++;
            e->fit[f].m = x->m;
            e->fit[f].in = 0;
            e->fit[f].explains = 0;
            snprintf(e->fit[f].what, sizeof e->fit[f].what, "%s", x->what);
        }
        e->fit[f].in |= fn;
        e->fit[f].explains += needed;
    }
}

typedef struct {
    size_t size, idx;
} sized;

static int by_size(const void *a, const void *b)
{
    const sized *x = a, *y = b;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void sort_by_size(const posenc_lesson_case *c, size_t *idx, size_t n)
{
    sized *t = malloc((n + 1) * sizeof *t);
    if (!t)
        return;
    for (size_t i = 0; i < n; i++)
        t[i] = (sized){c[idx[i]].D, idx[i]};
    qsort(t, n, sizeof *t, by_size);
    for (size_t i = 0; i < n; i++)
        idx[i] = t[i].idx;
    free(t);
}

static int is_rotation(const posenc_lesson_case *c)
{
    return c->kind == POSENC_LESSON_ROPE || c->kind == POSENC_LESSON_DOT;
}

size_t posenc_lesson_explain(const posenc_lesson_case *c, size_t n, const posenc_lesson_got *got,
                             const unsigned char *skip, const unsigned char *failed,
                             size_t max_work, posenc_lesson_explanation *e)
{
    e->n = 0;
    e->partial = e->oom = 0;
    e->unexplained = 0;
    size_t max_d = 1;
    for (size_t i = 0; i < n; i++)
        if (c[i].D > max_d)
            max_d = c[i].D;
    search q[2];
    combo found[2][MAX_CANDIDATES];
    size_t n_found[2] = {0, 0};
    variant *vs = malloc(2 * MAX_VARIANTS * sizeof *vs), *vr = vs ? vs + MAX_VARIANTS : NULL;
    double *buf = malloc((3 * max_d + 2) * sizeof *buf);
    size_t *order = malloc((2 * n + 1) * sizeof *order);
    e->oom = !vs || !buf || !order;
    if (e->oom) {
        free(vs);
        free(buf);
        free(order);
        return 0;
    }
    size_t nvs = variants(0, vs), nvr = variants(1, vr);
    size_t work = 0;
    for (int r = 0; r < 2; r++) {
        q[r].c = c;
        q[r].work = &work;
        q[r].max_work = max_work ? max_work : POSENC_LESSON_MAX_WORK;
        q[r].got = got;
        q[r].order = order + r * n;
        q[r].n_order = q[r].n_failed = 0;
        q[r].out = buf;
        q[r].scratch = buf + max_d + 1;
        for (int pass = 0; pass < 2; pass++) /* failed cases first */
            for (size_t i = 0; i < n; i++)
                if (is_rotation(&c[i]) == r && (failed[i] != 0) == (pass == 0) &&
                    !(skip && skip[i])) {
                    q[r].order[q[r].n_order++] = i;
                    q[r].n_failed += pass == 0;
                }
        /* the smallest cases first, so that a wrong guess fails cheaply */
        sort_by_size(c, q[r].order, q[r].n_failed);
        sort_by_size(c, q[r].order + q[r].n_failed, q[r].n_order - q[r].n_failed);
        n_found[r] = explain_side(&q[r], r ? vr : vs, r ? nvr : nvs, found[r]);
    }
    e->partial = work > q[0].max_work;
    for (int r = 0; r < 2; r++)
        if (!n_found[r])
            e->unexplained |= r ? POSENC_LESSON_ROTATION : POSENC_LESSON_SINUSOID;
    if (n_found[0] && !n_found[1])
        add_fits(e, &q[0], vs, &found[0][0], POSENC_LESSON_SINUSOID);
    if (!n_found[0] && n_found[1])
        add_fits(e, &q[1], vr, &found[1][0], POSENC_LESSON_ROTATION);
    if (n_found[0] && n_found[1]) {
        size_t best_a = 0, best_b = 0;
        unsigned best = ~0u;
        for (size_t a = 0; a < n_found[0]; a++)
            for (size_t b = 0; b < n_found[1]; b++) {
                unsigned k = popcount(names(vs, &found[0][a], vr, &found[1][b]));
                if (k < best) {
                    best = k;
                    best_a = a;
                    best_b = b;
                }
            }
        add_fits(e, &q[0], vs, &found[0][best_a], POSENC_LESSON_SINUSOID);
        add_fits(e, &q[1], vr, &found[1][best_b], POSENC_LESSON_ROTATION);
    }
    for (size_t i = 1; i < e->n; i++) /* in the list's order: the likelier slip first */
        for (size_t j = i; j > 0 && e->fit[j].m < e->fit[j - 1].m; j--) {
            posenc_lesson_fit t = e->fit[j];
            e->fit[j] = e->fit[j - 1];
            e->fit[j - 1] = t;
        }
    free(vs);
    free(buf);
    free(order);
    return e->n;
}

/* ---- localizing ---------------------------------------------------------------------- */

/* Where element j of D sits. */
static unsigned element_at(uint32_t j, uint32_t D)
{
    if (D % 2 && j == D - 1)
        return POSENC_LESSON_AT_LONE;
    return (j % 2 ? POSENC_LESSON_AT_ODD : POSENC_LESSON_AT_EVEN) |
           (j < 2 ? POSENC_LESSON_AT_FIRST : POSENC_LESSON_AT_LATER);
}

/* The relations that hold between got[j] and want (of D numbers) at j. */
static unsigned relations(const posenc_lesson_case *c, const double *got, const double *want,
                          size_t j, size_t len, double *ratio)
{
    unsigned r = 0;
    if (posenc_lesson_close(got[j], -want[j]))
        r |= POSENC_LESSON_REL_SIGN;
    size_t partner = j % 2 ? j - 1 : j + 1;
    if (c->kind != POSENC_LESSON_DOT && partner < len && !(c->D % 2 && j == c->D - 1) &&
        posenc_lesson_close(got[j], want[partner]))
        r |= POSENC_LESSON_REL_SWAP;
    if (fabs(want[j]) > 0.05) {
        *ratio = got[j] / want[j];
        r |= POSENC_LESSON_REL_SCALE;
    }
    if (fabs(got[j] - want[j]) <= single_slack(c))
        r |= POSENC_LESSON_REL_ROUND;
    return r;
}

void posenc_lesson_localize(const posenc_lesson_case *c, size_t n, const posenc_lesson_got *got,
                            const unsigned char *skip, const unsigned char *failed,
                            posenc_lesson_where *w)
{
    memset(w, 0, sizeof *w);
    w->min_failed_pos = INT64_MAX;
    w->max_passed_pos = -1;
    w->odd_only = 1;
    w->base_only = 1;
    w->relation = POSENC_LESSON_REL_SIGN | POSENC_LESSON_REL_SWAP | POSENC_LESSON_REL_SCALE |
                  POSENC_LESSON_REL_ROUND;
    size_t max_d = 1;
    for (size_t i = 0; i < n; i++)
        if (c[i].D > max_d)
            max_d = c[i].D;
    double *want = malloc(2 * (max_d + 1) * sizeof *want), scale = 0;
    int have_scale = 0, any_diff = 0;
    for (size_t i = 0; i < n; i++) {
        if (skip && skip[i])
            continue;
        int64_t p = c[i].pos > c[i].pos2 ? c[i].pos : c[i].pos2;
        if (!failed[i])
            continue;
        w->kinds |= 1u << c[i].kind;
        if (p < w->min_failed_pos)
            w->min_failed_pos = p;
        if (c[i].D % 2 == 0)
            w->odd_only = 0;
        if (posenc_lesson_base(&c[i]) == POSENC_DEFAULT_BASE)
            w->base_only = 0;
        size_t len = posenc_lesson_answer_len(&c[i]);
        if (got[i].n != (long)len) {
            w->count_wrong = 1;
            continue;
        }
        if (!want || !posenc_lesson_answer(&c[i], want))
            continue;
        double *g = want + max_d + 1; /* the learner's numbers, ADD's x taken off */
        for (size_t j = 0; j < len; j++) {
            g[j] = got[i].v[j];
            if (c[i].kind == POSENC_LESSON_ADD) { /* the sinusoid's part of both */
                want[j] -= c[i].x[j];
                g[j] -= c[i].x[j];
            }
        }
        for (size_t j = 0; j < len; j++) {
            int diff = !posenc_lesson_close(g[j], want[j]);
            if (c[i].kind != POSENC_LESSON_DOT)
                *(diff ? &w->where : &w->where_right) |= element_at((uint32_t)j, c[i].D);
            w->elements_checked++;
            if (!diff)
                continue;
            any_diff = 1;
            double ratio = 0;
            unsigned r = relations(&c[i], g, want, j, len, &ratio);
            if (r & POSENC_LESSON_REL_SCALE) {
                if (!have_scale)
                    scale = ratio, have_scale = 1;
                else if (fabs(g[j] - scale * want[j]) > 2e-4 + 1e-3 * fabs(g[j]))
                    r &= ~(unsigned)POSENC_LESSON_REL_SCALE;
            } else if (have_scale && fabs(g[j] - scale * want[j]) <= 2e-4 + 1e-3 * fabs(g[j])) {
                r |= POSENC_LESSON_REL_SCALE; /* small, but scaled alike */
            } else if (fabs(want[j]) <= 0.05 && !have_scale) {
                r |= POSENC_LESSON_REL_SCALE; /* too small to tell yet */
            }
            w->relation &= r;
        }
    }
    for (size_t i = 0; i < n; i++) { /* the passed cases: of the commands that failed, and */
        int64_t p = c[i].pos > c[i].pos2 ? c[i].pos : c[i].pos2;
        if (skip && skip[i])
            continue;
        if (!failed[i] && (w->kinds >> c[i].kind) & 1u && p > w->max_passed_pos)
            w->max_passed_pos = p;
        w->kinds_passed |= 1u << c[i].kind; /* the commands with none failed (below) */
    }
    w->kinds_passed &= ~w->kinds;
    if (!any_diff)
        w->relation = 0;
    w->scale = scale;
    if (!have_scale)
        w->relation &= ~(unsigned)POSENC_LESSON_REL_SCALE;
    free(want);
}
