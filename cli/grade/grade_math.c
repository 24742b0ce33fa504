/* grade_math.c - the numbers of `posenc grade`: posenc's exact answers (the
 * library), the learner's printed numbers read back and compared at the
 * printed precision, and the lesson's mistakes recomputed to find the ones
 * that explain what the learner printed.
 *
 * The lesson's formulas (docs/LANGUAGE.md): element i belongs to pair
 * k = i // 2, D is the length of the vector, and
 *     theta(pos, k) = pos / base^(2k / D),          base = 10000
 *     PE(pos)[2k] = sin theta, PE(pos)[2k+1] = cos theta (odd D: a lone sine)
 *     ROPE: (a, b) -> (a cos theta - b sin theta, a sin theta + b cos theta)
 *     DOT m n q k = ROPE(m, q) . ROPE(n, k),  ADD pos x = x + PE(pos).
 * A mistake changes one knob of this recipe in one of the learner's two
 * functions (grade_side); the model below recomputes a command under the
 * knobs in plain double arithmetic, as a learner's program would. */
#include "grade.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- posenc's answers ------------------------------------------------------ */

size_t grade_answer_len(const grade_case *c) { return c->kind == GRADE_DOT ? 1 : c->D; }

int grade_answer(const grade_case *c, double *out)
{
    posenc_status s = POSENC_OK;
    switch (c->kind) {
    case GRADE_PE:
        s = posenc_sinusoid_fill_f64(c->pos, c->D, POSENC_DEFAULT_BASE, out);
        break;
    case GRADE_ROPE:
        memcpy(out, c->x, c->D * sizeof *out);
        s = posenc_rope_apply_f64(c->pos, c->D, POSENC_DEFAULT_BASE, POSENC_LAYOUT_INTERLEAVED,
                                  POSENC_FORWARD, out);
        break;
    case GRADE_ADD:
        memcpy(out, c->x, c->D * sizeof *out);
        s = posenc_sinusoid_add_f64(c->pos, c->D, POSENC_DEFAULT_BASE, out);
        break;
    case GRADE_DOT:
        s = posenc_rope_dot_f64(c->pos, c->pos2, c->D, POSENC_DEFAULT_BASE,
                                POSENC_LAYOUT_INTERLEAVED, c->x, c->x + c->D, out);
        break;
    }
    return s == POSENC_OK;
}

void grade_format(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.*f", GRADE_DECIMALS, v);
    if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
        memmove(buf, buf + 1, strlen(buf)); /* "-0.0000" is 0 */
}

int grade_close(double got, double want)
{
    return fabs(got - want) <= 0.5e-4 + 1e-9 * (1 + fabs(want));
}

long grade_read_line(const char *line, size_t len, double *out, size_t max)
{
    long n = 0;
    size_t i = 0;
    char buf[80];
    while (i < len) {
        if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
            i++;
            continue;
        }
        size_t j = i;
        while (j < len && line[j] != ' ' && line[j] != '\t' && line[j] != '\r')
            j++;
        if (j - i >= sizeof buf)
            return -1;
        memcpy(buf, line + i, j - i);
        buf[j - i] = '\0';
        char *end;
        double v = strtod(buf, &end);
        /* strtod also reads "nan", "inf" and hexadecimal: a printed answer
         * is a finite decimal (and a NUL byte ends no word early). */
        if (end != buf + (j - i) || end == buf || !isfinite(v) || strpbrk(buf, "xXnN"))
            return -1;
        if ((size_t)n < max)
            out[n] = v;
        n++;
        i = j;
    }
    return n;
}

/* ---- the mistakes ------------------------------------------------------------ */

const char *grade_mistake_name(grade_mistake m)
{
    static const char *const names[GRADE_MISTAKES] = {
        "element-index", "exponent-k-over-d", "rotation-sign", "sin-cos-swapped", "odd-d",
        "layout",        "position-offset",   "model-dim",     "base"};
    return (unsigned)m < GRADE_MISTAKES ? names[m] : "none";
}

const char *grade_mistake_sentence(grade_mistake m)
{
    static const char *const s[GRADE_MISTAKES] = {
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
        "PE 2 4 starts with sin 2 = 0.9093.",
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
        "The base is wrong: the lesson's is 10000, theta = pos / 10000^(2k/D).",
    };
    return (unsigned)m < GRADE_MISTAKES ? s[m] : "";
}

/* The exponent's numerator for element j of pair k (theta = pos /
 * base^(num / D)). */
enum {
    EXP_2K,     /* 2k: right */
    EXP_K,      /* k: exponent-k-over-d */
    EXP_2I,     /* 2j, j the element index: element-index (the rotation: 2 * 2k) */
    EXP_2I_PAIR /* 2 * 2k for both elements of a pair: element-index in a loop over pairs */
    ,
    EXP_I /* j: element-index written as i/D */
};

enum { ODD_RIGHT, ODD_FREE, ODD_ZERO, ODD_COS };

/* How one of the learner's functions computes; all zero but base is right. */
typedef struct {
    int exponent; /* EXP_* */
    double base;
    double dim;     /* the exponent's D; 0: the vector's */
    double offset;  /* added to the position */
    int layout;     /* 1: half pairs (rotation), sines then cosines (sinusoid) */
    int sign;       /* 1: the rotation turns by -theta */
    int swap;       /* 1: cos at 2k, sin at 2k+1 */
    int odd;        /* ODD_*: the lone element of an odd D */
} side;

static const side RIGHT = {EXP_2K, 10000.0, 0, 0, 0, 0, 0, ODD_RIGHT};

static double theta(const side *s, int64_t pos, double num, uint32_t D)
{
    double d = s->dim > 0 ? s->dim : (double)D;
    return ((double)pos + s->offset) / pow(s->base, num / d);
}

static double numerator(const side *s, uint32_t j, uint32_t k)
{
    switch (s->exponent) {
    case EXP_K:
        return k;
    case EXP_2I:
        return 2.0 * j;
    case EXP_2I_PAIR:
        return 4.0 * k;
    case EXP_I:
        return j;
    default:
        return 2.0 * k;
    }
}

/* PE(pos) under s, out[0..D). */
static void model_sinusoid(const side *s, int64_t pos, uint32_t D, double *out)
{
    if (s->layout) { /* sines of every pair, then their cosines, then a lone sine */
        uint32_t h = D / 2;
        for (uint32_t k = 0; k < h; k++) {
            double t = theta(s, pos, numerator(s, 2 * k, k), D);
            out[k] = s->swap ? cos(t) : sin(t);
            out[h + k] = s->swap ? sin(t) : cos(t);
        }
        if (D % 2) {
            double t = theta(s, pos, numerator(s, D - 1, h), D);
            out[D - 1] = s->swap ? cos(t) : sin(t);
        }
        return;
    }
    for (uint32_t j = 0; j < D; j++) {
        double t = theta(s, pos, numerator(s, j, j / 2), D);
        int first = j % 2 == 0; /* PE[2k] = sin, PE[2k+1] = cos */
        out[j] = first != s->swap ? sin(t) : cos(t);
    }
}

/* x[0..D) rotated by pos under s. */
static void model_rotation(const side *s, int64_t pos, uint32_t D, double *x)
{
    uint32_t h = D / 2;
    for (uint32_t k = 0; k < h; k++) {
        double t = theta(s, pos, s->exponent == EXP_2I ? 4.0 * k : numerator(s, 2 * k, k), D);
        if (s->sign)
            t = -t;
        uint32_t i0 = s->layout ? k : 2 * k, i1 = s->layout ? k + h : 2 * k + 1;
        double a = x[i0], b = x[i1], c = cos(t), sn = sin(t);
        x[i0] = a * c - b * sn;
        x[i1] = a * sn + b * c;
    }
    if (D % 2 && s->odd == ODD_ZERO)
        x[D - 1] = 0;
    else if (D % 2 && s->odd == ODD_COS) /* the lone element turned as (a, 0) */
        x[D - 1] *= cos(theta(s, pos, numerator(s, 2 * h, h), D));
}

/* The answer to c when the sinusoid computes under sn and the rotation under
 * rt; out has room for c's answer (scratch: 2D). *free_last: the last of D
 * numbers may be anything, missing, or followed by one more. */
static void model_answer(const side *sn, const side *rt, const grade_case *c, double *out,
                         double *scratch, int *free_last)
{
    uint32_t D = c->D;
    *free_last = 0;
    switch (c->kind) {
    case GRADE_PE:
        model_sinusoid(sn, c->pos, D, out);
        *free_last = D % 2 && sn->odd == ODD_FREE;
        break;
    case GRADE_ADD:
        model_sinusoid(sn, c->pos, D, out);
        for (uint32_t i = 0; i < D; i++)
            out[i] += c->x[i];
        *free_last = D % 2 && sn->odd == ODD_FREE;
        break;
    case GRADE_ROPE:
        memcpy(out, c->x, D * sizeof *out);
        model_rotation(rt, c->pos, D, out);
        *free_last = D % 2 && rt->odd != ODD_RIGHT;
        break;
    case GRADE_DOT: {
        double *q = scratch, *k = scratch + D, dot = 0;
        memcpy(q, c->x, 2 * (size_t)D * sizeof *q);
        model_rotation(rt, c->pos, D, q);
        model_rotation(rt, c->pos2, D, k);
        for (uint32_t i = 0; i < D; i++)
            dot += q[i] * k[i];
        out[0] = dot;
        break;
    }
    }
}

/* Whether the learner's line agrees with a model's answer. */
static int agrees(const grade_got *g, const double *want, size_t n, int free_last)
{
    if (g->n < 0)
        return 0;
    size_t got_n = (size_t)g->n, check = n;
    if (free_last) {
        if (got_n + 1 < n || got_n > n + 1)
            return 0;
        check = n - 1;
    } else if (got_n != n) {
        return 0;
    }
    for (size_t i = 0; i < check; i++)
        if (!grade_close(g->v[i], want[i]))
            return 0;
    return 1;
}

/* ---- the search ---------------------------------------------------------------- */

/* One way a mistake can show in one function: the knob it turns. */
typedef struct {
    grade_mistake m;
    unsigned field; /* the knob, so that two variants never turn the same one */
    side s;         /* RIGHT with the knob turned */
    char what[48];
} variant;

enum { F_EXP = 1, F_BASE = 2, F_DIM = 4, F_OFFSET = 8, F_LAYOUT = 16, F_SIGN = 32, F_SWAP = 64,
       F_ODD = 128 };

#define MAX_VARIANTS 160

/* (MAX_VARIANTS holds them all: 92 for the sinusoid, 91 for the rotation) */
static void add(variant *v, size_t *n, grade_mistake m, unsigned field, side s, const char *what)
{
    v[*n].m = m;
    v[*n].field = field;
    v[*n].s = s;
    snprintf(v[*n].what, sizeof v[*n].what, "%s", what);
    ++*n;
}

/* The variants of the sinusoid (rotation = 0) or the rotation, in the order of
 * grade_mistake, so that the first fit found is the preferred one. */
static size_t variants(int rotation, variant *v)
{
    size_t n = 0;
    side s;
    char what[48];
    s = RIGHT, s.exponent = EXP_2I;
    add(v, &n, GRADE_ELEMENT_INDEX, F_EXP, s, "exponent=2i/D");
    if (!rotation) {
        s.exponent = EXP_2I_PAIR;
        add(v, &n, GRADE_ELEMENT_INDEX, F_EXP, s, "exponent=2i/D");
        s.exponent = EXP_I;
        add(v, &n, GRADE_ELEMENT_INDEX, F_EXP, s, "exponent=i/D");
    }
    s = RIGHT, s.exponent = EXP_K;
    add(v, &n, GRADE_EXPONENT_K_OVER_D, F_EXP, s, "exponent=k/D");
    if (rotation) {
        s = RIGHT, s.sign = 1;
        add(v, &n, GRADE_ROTATION_SIGN, F_SIGN, s, "");
    } else {
        s = RIGHT, s.swap = 1;
        add(v, &n, GRADE_SIN_COS_SWAPPED, F_SWAP, s, "");
    }
    if (rotation) {
        s = RIGHT, s.odd = ODD_ZERO;
        add(v, &n, GRADE_ODD_D, F_ODD, s, "");
        s.odd = ODD_COS;
        add(v, &n, GRADE_ODD_D, F_ODD, s, "");
    } else {
        s = RIGHT, s.odd = ODD_FREE;
        add(v, &n, GRADE_ODD_D, F_ODD, s, "");
    }
    s = RIGHT, s.layout = 1;
    add(v, &n, GRADE_LAYOUT, F_LAYOUT, s, rotation ? "pairs=half" : "order=sines-then-cosines");
    for (int off = 1; off >= -1; off -= 2) {
        s = RIGHT, s.offset = off;
        snprintf(what, sizeof what, "offset=%+d", off);
        add(v, &n, GRADE_POSITION_OFFSET, F_OFFSET, s, what);
    }
    /* model-dim: the D of the lesson's examples and of the cases, and the
     * widths of models */
    static const double widths[] = {128, 256, 512, 768, 1024, 1536, 2048, 4096, 8192};
    for (int d = 1; d <= 64; d++) {
        s = RIGHT, s.dim = d;
        snprintf(what, sizeof what, "D=%d", d);
        add(v, &n, GRADE_MODEL_DIM, F_DIM, s, what);
    }
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        s = RIGHT, s.dim = widths[i];
        snprintf(what, sizeof what, "D=%.0f", widths[i]);
        add(v, &n, GRADE_MODEL_DIM, F_DIM, s, what);
    }
    /* base: the usual slips of 10000 and the bases of well-known models */
    static const double bases[] = {10,     100,     1000,    5000,    20000,
                                   100000, 500000,  1000000, 1e7,     1e8};
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        s = RIGHT, s.base = bases[i];
        snprintf(what, sizeof what, "base=%.0f", bases[i]);
        add(v, &n, GRADE_BASE, F_BASE, s, what);
    }
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
        }
    }
    return s;
}

typedef struct {
    const grade_cases *c;
    const grade_got *got;
    size_t *order; /* the function's cases, failed ones first */
    size_t n_order, n_failed;
    double *out, *scratch;
    size_t *work; /* numbers recomputed so far, both functions */
    size_t max_work;
} search;

/* Whether the side s explains every case of the search's function (0 too
 * when the work is spent). */
static int explains(const search *q, const side *s)
{
    for (size_t i = 0; i < q->n_order; i++) {
        const grade_case *c = &q->c->v[q->order[i]];
        *q->work += c->kind == GRADE_DOT ? 2u * c->D : c->D;
        if (*q->work > q->max_work)
            return 0;
        int free_last;
        model_answer(s, s, c, q->out, q->scratch, &free_last);
        if (!agrees(&q->got[q->order[i]], q->out, grade_answer_len(c), free_last))
            return 0;
    }
    return 1;
}

/* Failed cases of the side that s does not explain. */
static size_t unexplained(const search *q, const side *s)
{
    size_t n = 0;
    for (size_t i = 0; i < q->n_failed; i++) {
        const grade_case *c = &q->c->v[q->order[i]];
        int free_last;
        model_answer(s, s, c, q->out, q->scratch, &free_last);
        n += !agrees(&q->got[q->order[i]], q->out, grade_answer_len(c), free_last);
    }
    return n;
}

#define MAX_PER_FN 3
#define MAX_CANDIDATES 24

typedef struct {
    size_t n;
    size_t idx[MAX_PER_FN];
} combo;

/* Every combination of size k of distinct mistakes and knobs that explains
 * the side (at most MAX_CANDIDATES, in the order of the variants). */
static size_t find(const search *q, const variant *v, size_t nv, size_t k, combo *out)
{
    size_t found = 0, idx[MAX_PER_FN];
    /* an odometer over increasing indices (k <= MAX_PER_FN < nv) */
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

/* The side's explanations of the fewest mistakes: *n_out of them (0 when
 * none fits), in out. With no failed case the only one is the empty one. */
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

/* The names a pair of explanations uses, as a bit set. */
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

/* Adds fn's mistakes of one explanation to e, merging a mistake the other
 * function made the same way. */
static void add_fits(grade_explanation *e, search *q, const variant *v, const combo *b,
                     unsigned fn)
{
    for (size_t i = 0; i < b->n; i++) {
        const variant *x = &v[b->idx[i]];
        /* needed for: the failed cases the combination without it leaves
         * unexplained */
        size_t rest[MAX_PER_FN], nr = 0;
        for (size_t j = 0; j < b->n; j++)
            if (j != i)
                rest[nr++] = b->idx[j];
        side without = combine(v, rest, nr);
        size_t needed = unexplained(q, &without);
        size_t f = 0;
        while (f < e->n && !(e->fit[f].m == x->m && strcmp(e->fit[f].what, x->what) == 0))
            f++;
        if (f == e->n) { /* a new line (at most MAX_PER_FN per function) */
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

/* Sorts the case indices idx[0..n) by the cases' D, then by index (left as
 * they are when out of memory). */
static void sort_by_size(const grade_cases *c, size_t *idx, size_t n)
{
    sized *t = malloc((n + 1) * sizeof *t);
    if (!t)
        return;
    for (size_t i = 0; i < n; i++)
        t[i] = (sized){c->v[idx[i]].D, idx[i]};
    qsort(t, n, sizeof *t, by_size);
    for (size_t i = 0; i < n; i++)
        idx[i] = t[i].idx;
    free(t);
}

size_t grade_explain(const grade_cases *c, const grade_got *got, const unsigned char *failed,
                     size_t max_work, grade_explanation *e)
{
    e->n = 0;
    e->partial = e->oom = 0;
    size_t max_d = 1;
    for (size_t i = 0; i < c->n; i++)
        if (c->v[i].D > max_d)
            max_d = c->v[i].D;
    search q[2];
    combo found[2][MAX_CANDIDATES];
    size_t n_found[2] = {0, 0};
    variant *vs = malloc(2 * MAX_VARIANTS * sizeof *vs), *vr = vs + MAX_VARIANTS;
    double *buf = malloc((3 * max_d + 2) * sizeof *buf);
    size_t *order = malloc((2 * c->n + 1) * sizeof *order);
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
        q[r].max_work = max_work ? max_work : GRADE_MAX_WORK;
        q[r].got = got;
        q[r].order = order + r * c->n;
        q[r].n_order = q[r].n_failed = 0;
        q[r].out = buf;
        q[r].scratch = buf + max_d + 1;
        for (int pass = 0; pass < 2; pass++) /* failed cases first */
            for (size_t i = 0; i < c->n; i++) {
                int rot = c->v[i].kind == GRADE_ROPE || c->v[i].kind == GRADE_DOT;
                if (rot == r && (failed[i] != 0) == (pass == 0)) {
                    q[r].order[q[r].n_order++] = i;
                    q[r].n_failed += pass == 0;
                }
            }
        /* the smallest cases first, so that a wrong guess fails cheaply */
        sort_by_size(c, q[r].order, q[r].n_failed);
        sort_by_size(c, q[r].order + q[r].n_failed, q[r].n_order - q[r].n_failed);
        n_found[r] = explain_side(&q[r], r ? vr : vs, r ? nvr : nvs, found[r]);
    }
    e->partial = work > q[0].max_work;
    if (n_found[0] && n_found[1]) {
        /* the pair with the fewest names, the first in the variants' order */
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
        add_fits(e, &q[0], vs, &found[0][best_a], GRADE_SINUSOID);
        add_fits(e, &q[1], vr, &found[1][best_b], GRADE_ROTATION);
        /* in the order of the list: the likelier slip first */
        for (size_t i = 1; i < e->n; i++)
            for (size_t j = i; j > 0 && e->fit[j].m < e->fit[j - 1].m; j--) {
                grade_fit t = e->fit[j];
                e->fit[j] = e->fit[j - 1];
                e->fit[j - 1] = t;
            }
    }
    free(vs);
    free(buf);
    free(order);
    return e->n;
}
