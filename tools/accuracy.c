/* accuracy.c - proves posenc's accuracy against GNU MPFR (make accuracy).
 *
 *   build/accuracy            the full run (several minutes)
 *   build/accuracy --short    a ~1 minute version (also ACCURACY_SHORT=1), run by CI
 *   build/accuracy --golden FILE   writes the golden vectors for tests/test_golden.c
 *   build/accuracy --at       only the single-position table (README)
 *
 * Exact values: inv_freq = exp(-(2k/D) log(base)) and sin/cos of pos * inv_freq
 * with MPFR at 256 bits; along runs of consecutive positions the exact value
 * is stepped by the exact rotation e^{i f} at 256 bits and re-anchored by a
 * direct mpfr_sin_cos every ANCHOR positions (the two must agree to 2^-150,
 * or the run aborts), so every reference value is exact to far below 2^-100.
 *
 * Error unit (the contract of issue 4, docs/ACCURACY.md):
 *   float paths:  |y - v| / max(ulp_float(v), 2^-25)    bound 1
 *   double paths: |y - v| / max(ulp_double(v), 2^-60)   bound 2
 * (2^-25 is the float ulp of values in [1/4, 1/2): below 1/4 the bound is that
 * absolute error; likewise 2^-60 for doubles below 2^-7.)
 *
 * Paths measured in the same run, per row (position range):
 *   posenc_f32        (float) of posenc_sincos: the double path rounded once
 *   posenc_table_f32  posenc__sincos_table_f32 over a block of positions, the
 *                     fill behind posenc_sinusoid_table_f32 and the RoPE cache
 *   posenc_1pos_f32   the same fill for the one position alone: the no-cache
 *                     decode (posenc_rope_qk with n_tok 1), posenc_rope_apply_f32
 *                     and posenc_sinusoid_fill_f32; it must equal the block's
 *                     value bit for bit (checked at every point), and the row
 *                     "decode" measures posenc_rope_qk itself
 *   posenc_f64        posenc_sincos (and the _f64 single-vector functions)
 *   naive_f32         a = (float)pos * (1 / powf(base, 2k/D)); sinf(a), cosf(a)
 *   naive_f64         a = pos * (1 / pow(base, 2k/D)); sin(a), cos(a)
 * Writes build/accuracy.csv (range,path,points,max_ulp,max_abs) and exits 1 if
 * a posenc path breaks its bound. */
#include "internal.h"

#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PREC 256
#define ANCHOR 4096
#define RUN_MAX 4096

enum { P_F32, P_TABLE, P_ONE, P_F64, P_NAIVE32, P_NAIVE64, N_PATHS };
static const char *path_name[N_PATHS] = {"posenc_f32", "posenc_table_f32", "posenc_1pos_f32",
                                         "posenc_f64", "naive_f32", "naive_f64"};
static const int path_is_f32[N_PATHS] = {1, 1, 1, 0, 1, 0};
static const double path_bound[N_PATHS] = {1.0, 1.0, 1.0, 2.0, 0.0, 0.0}; /* 0: not bound */

typedef struct stats {
    double points;
    double max_ulp[N_PATHS], max_abs[N_PATHS];
    /* where the worst ulp error happened, for the report */
    int64_t worst_pos[N_PATHS];
    uint32_t worst_k[N_PATHS], worst_D[N_PATHS];
    double worst_base[N_PATHS];
} stats;

/* ---- small helpers -------------------------------------------------------- */

/* A library call that cannot fail on this tool's valid arguments: if it does,
 * every measurement after it would be wrong, so the run stops. */
static void must(posenc_status s, const char *what)
{
    if (s != POSENC_OK) {
        fprintf(stderr, "accuracy: %s: %s\n", what, posenc_strerror(s));
        exit(2);
    }
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double rnd01(void) { return (double)(rnd() >> 11) * 0x1p-53; }
static int64_t rnd_range(int64_t lo, int64_t hi) /* [lo, hi] */
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static double unit_of(double v, int f32)
{
    int e;
    double a = fabs(v);
    if (a == 0.0)
        return f32 ? 0x1p-25 : 0x1p-60;
    frexp(a, &e); /* a in [2^(e-1), 2^e) */
    double ulp = ldexp(1.0, e - 1 - (f32 ? 23 : 52));
    double floor_ = f32 ? 0x1p-25 : 0x1p-60;
    return ulp > floor_ ? ulp : floor_;
}

/* An exact value as hi + lo doubles (|lo| <= ulp(hi)/2): errors of doubles
 * against it are then (y - hi) - lo, exact enough in double arithmetic. */
typedef struct ref2 {
    double hi, lo;
} ref2;

static ref2 to_ref2(mpfr_t v, mpfr_t tmp)
{
    ref2 r;
    r.hi = mpfr_get_d(v, MPFR_RNDN);
    mpfr_sub_d(tmp, v, r.hi, MPFR_RNDN);
    r.lo = mpfr_get_d(tmp, MPFR_RNDN);
    return r;
}

static void record(stats *st, int path, double y, ref2 v, int64_t pos, uint32_t k, uint32_t D,
                   double base)
{
    double err = fabs((y - v.hi) - v.lo);
    double u = err / unit_of(v.hi, path_is_f32[path]);
    if (err > st->max_abs[path])
        st->max_abs[path] = err;
    if (u > st->max_ulp[path] || (u != u)) {
        st->max_ulp[path] = u;
        st->worst_pos[path] = pos;
        st->worst_k[path] = k;
        st->worst_D[path] = D;
        st->worst_base[path] = base;
    }
}

/* ---- one configuration (k, D, base) ---------------------------------------- */

typedef struct config {
    uint32_t k, D;
    double base;
    mpfr_t f;            /* exact inv_freq */
    mpfr_t wc, ws;       /* cos f, sin f */
    posenc__dd fdd;      /* posenc's inv_freq */
    float inv32;         /* naive float32 inv_freq */
    double inv64;        /* naive double inv_freq */
} config;

static mpfr_t T1, T2, T3, T4, TH, EC, ES;

static void config_init(config *c, uint32_t k, uint32_t D, double base)
{
    c->k = k;
    c->D = D;
    c->base = base;
    mpfr_inits2(PREC, c->f, c->wc, c->ws, (mpfr_ptr)0);
    mpfr_set_d(T1, base, MPFR_RNDN);
    mpfr_log(T1, T1, MPFR_RNDN);
    mpfr_mul_ui(T1, T1, 2u * k, MPFR_RNDN);
    mpfr_div_ui(T1, T1, D, MPFR_RNDN);
    mpfr_neg(T1, T1, MPFR_RNDN);
    mpfr_exp(c->f, T1, MPFR_RNDN);
    mpfr_sin_cos(c->ws, c->wc, c->f, MPFR_RNDN);
    c->fdd = posenc__inv_freq_dd(k, D, base);
    c->inv32 = 1.0f / powf((float)base, (float)(2 * k) / (float)D);
    c->inv64 = 1.0 / pow(base, (double)(2 * k) / (double)D);
}

static void config_clear(config *c) { mpfr_clears(c->f, c->wc, c->ws, (mpfr_ptr)0); }

/* Exact sin/cos of pos * f into ES, EC. */
static void exact_direct(const config *c, int64_t pos)
{
    mpfr_mul_si(TH, c->f, (long)pos, MPFR_RNDN);
    mpfr_sin_cos(ES, EC, TH, MPFR_RNDN);
}

/* (EC, ES) <- (EC, ES) * (wc, ws) */
static void exact_step(const config *c)
{
    mpfr_mul(T1, EC, c->wc, MPFR_RNDN);
    mpfr_mul(T2, ES, c->ws, MPFR_RNDN);
    mpfr_mul(T3, ES, c->wc, MPFR_RNDN);
    mpfr_mul(T4, EC, c->ws, MPFR_RNDN);
    mpfr_sub(EC, T1, T2, MPFR_RNDN);
    mpfr_add(ES, T3, T4, MPFR_RNDN);
}

/* Re-anchors (EC, ES) at pos and checks the stepped value agreed. */
static void exact_reanchor(const config *c, int64_t pos)
{
    mpfr_t oc, os;
    mpfr_inits2(PREC, oc, os, (mpfr_ptr)0);
    mpfr_set(oc, EC, MPFR_RNDN);
    mpfr_set(os, ES, MPFR_RNDN);
    exact_direct(c, pos);
    mpfr_sub(oc, oc, EC, MPFR_RNDN);
    mpfr_sub(os, os, ES, MPFR_RNDN);
    if (mpfr_get_d(oc, MPFR_RNDN) > 0x1p-150 || mpfr_get_d(oc, MPFR_RNDN) < -0x1p-150 ||
        mpfr_get_d(os, MPFR_RNDN) > 0x1p-150 || mpfr_get_d(os, MPFR_RNDN) < -0x1p-150) {
        fprintf(stderr, "accuracy: reference recurrence drifted at pos %lld\n", (long long)pos);
        exit(2);
    }
    mpfr_clears(oc, os, (mpfr_ptr)0);
}

/* Measures every path at pos against (EC, ES); tc/ts: the table's values. */
static void measure(stats *st, const config *c, int64_t pos, float tc, float ts)
{
    ref2 vs = to_ref2(ES, T1), vc = to_ref2(EC, T1);
    double s, cc;
    must(posenc_sincos(pos, c->k, c->D, c->base, &s, &cc), "posenc_sincos");
    record(st, P_F64, s, vs, pos, c->k, c->D, c->base);
    record(st, P_F64, cc, vc, pos, c->k, c->D, c->base);
    record(st, P_F32, (float)s, vs, pos, c->k, c->D, c->base);
    record(st, P_F32, (float)cc, vc, pos, c->k, c->D, c->base);
    record(st, P_TABLE, ts, vs, pos, c->k, c->D, c->base);
    record(st, P_TABLE, tc, vc, pos, c->k, c->D, c->base);
    float oc, os;
    double fh = c->fdd.hi, fl = c->fdd.lo;
    posenc__sincos_table_f32(pos, 1, &fh, &fl, 1, 1.0, &oc, &os, 1);
    record(st, P_ONE, os, vs, pos, c->k, c->D, c->base);
    record(st, P_ONE, oc, vc, pos, c->k, c->D, c->base);
    if (oc != tc || os != ts) {
        fprintf(stderr, "accuracy: one position differs from its block at pos %lld k %u D %u\n",
                (long long)pos, c->k, c->D);
        st->max_ulp[P_ONE] = 1e9;
    }
    float a32 = (float)pos * c->inv32;
    record(st, P_NAIVE32, sinf(a32), vs, pos, c->k, c->D, c->base);
    record(st, P_NAIVE32, cosf(a32), vc, pos, c->k, c->D, c->base);
    double a64 = (double)pos * c->inv64;
    record(st, P_NAIVE64, sin(a64), vs, pos, c->k, c->D, c->base);
    record(st, P_NAIVE64, cos(a64), vc, pos, c->k, c->D, c->base);
    st->points += 2;
}

/* A run of n consecutive positions from p0: exact by stepping, posenc's
 * table by one block fill of the same run. */
static void measure_run(stats *st, const config *c, int64_t p0, size_t n)
{
    static float tcos[RUN_MAX], tsin[RUN_MAX];
    double fh = c->fdd.hi, fl = c->fdd.lo;
    posenc__sincos_table_f32(p0, n, &fh, &fl, 1, 1.0, tcos, tsin, 1);
    exact_direct(c, p0);
    for (size_t t = 0; t < n; t++) {
        if (t > 0) {
            exact_step(c);
            if (t % ANCHOR == 0)
                exact_reanchor(c, p0 + (int64_t)t);
        }
        measure(st, c, p0 + (int64_t)t, tcos[t], tsin[t]);
    }
}

/* One hard position: exact directly; the table value from a block that ends
 * at pos and starts up to 1500 positions earlier (deep in a stepped stretch). */
static void measure_one(stats *st, const config *c, int64_t pos)
{
    static float tcos[RUN_MAX], tsin[RUN_MAX];
    int64_t back = rnd_range(0, 1500);
    if (back > pos)
        back = pos;
    double fh = c->fdd.hi, fl = c->fdd.lo;
    posenc__sincos_table_f32(pos - back, (size_t)back + 1, &fh, &fl, 1, 1.0, tcos, tsin, 1);
    exact_direct(c, pos);
    measure(st, c, pos, tcos[back], tsin[back]);
}

/* Positions in [lo, hi) where pos * f is closest to a multiple of pi/2: the
 * denominators q of the continued-fraction convergents of f / (pi/2) (and
 * their small multiples), since |q x - p| is then minimal. Returns the count. */
static size_t hard_positions(const config *c, int64_t lo, int64_t hi, int64_t *out, size_t cap)
{
    mpfr_t x, a;
    mpfr_inits2(PREC, x, a, (mpfr_ptr)0);
    mpfr_const_pi(a, MPFR_RNDN);
    mpfr_div_2ui(a, a, 1, MPFR_RNDN);
    mpfr_div(x, c->f, a, MPFR_RNDN);
    /* convergent denominators: q_{-1} = 0, q_0 = 1, q_n = a_n q_{n-1} + q_{n-2} */
    double qm2 = 0.0, qm1 = 1.0;
    size_t n = 0;
    mpfr_frac(x, x, MPFR_RNDN);
    for (int it = 0; it < 80 && n < cap; it++) {
        if (mpfr_zero_p(x))
            break;
        mpfr_ui_div(x, 1, x, MPFR_RNDN);
        mpfr_floor(a, x);
        double an = mpfr_get_d(a, MPFR_RNDN);
        mpfr_sub(x, x, a, MPFR_RNDN);
        double q = an * qm1 + qm2;
        if (q >= (double)hi * 4)
            break;
        for (int m = 1; m <= 3 && n < cap; m++) {
            double p = q * m;
            for (int d = -1; d <= 1 && n < cap; d++)
                if (p + d >= (double)lo && p + d < (double)hi)
                    out[n++] = (int64_t)(p + d);
        }
        /* the largest multiples of q below hi also stay close */
        if (q >= 1 && q < (double)hi) {
            double m = floor(((double)hi - 1) / q);
            if (m * q >= (double)lo && n < cap)
                out[n++] = (int64_t)(m * q);
        }
        qm2 = qm1;
        qm1 = q;
    }
    mpfr_clears(x, a, (mpfr_ptr)0);
    return n;
}

/* ---- the sampled rows ------------------------------------------------------- */

static void random_config(config *c)
{
    static const uint32_t Ds[] = {2, 64, 128, 256, 1024, 4096, 4095, 4094};
    static const double bases[] = {100.0, 10000.0, 500000.0, 1e6, 1e9};
    uint64_t r = rnd() % 8;
    uint32_t D = r < 4 ? Ds[rnd() % 8] : (uint32_t)rnd_range(2, 4096);
    double base = (rnd() % 4 == 0) ? bases[rnd() % 5] : floor(100.0 * pow(1e7, rnd01()));
    uint32_t kmax = (D - 1) / 2;
    uint32_t k;
    switch (rnd() % 5) {
    case 0: k = 0; break;          /* highest frequency: f = 1 */
    case 1: k = kmax; break;       /* lowest frequency */
    case 2: k = kmax > 0 ? 1 : 0; break;
    default: k = (uint32_t)rnd_range(0, kmax); break;
    }
    config_init(c, k, D, base);
}

static void sampled_row(stats *st, int64_t lo, int64_t hi, double target)
{
    int64_t hard[64];
    while (st->points < target) {
        config c;
        random_config(&c);
        int64_t span = hi - lo;
        size_t n = span < 2048 ? (size_t)span : 2048;
        int64_t p0 = rnd() % 8 == 0 ? hi - (int64_t)n : rnd_range(lo, hi - (int64_t)n);
        measure_run(st, &c, p0, n);
        size_t nh = hard_positions(&c, lo, hi, hard, 64);
        for (size_t i = 0; i < nh; i++)
            measure_one(st, &c, hard[i]);
        config_clear(&c);
    }
}

/* ---- every position below n_max for D = 128, base 10000 -------------------- */

static void exhaustive_row(stats *st, int64_t n_max)
{
    enum { D = 128, NP = D / 2, BLOCK = ANCHOR };
    static config cfg[NP];
    static double fh[NP], fl[NP];
    static float tcos[BLOCK * NP], tsin[BLOCK * NP];
    static mpfr_t ec[NP], es[NP];
    for (uint32_t k = 0; k < NP; k++) {
        config_init(&cfg[k], k, D, 10000.0);
        fh[k] = cfg[k].fdd.hi;
        fl[k] = cfg[k].fdd.lo;
        mpfr_inits2(PREC, ec[k], es[k], (mpfr_ptr)0);
    }
    float v32[D];
    for (int64_t b0 = 0; b0 < n_max; b0 += BLOCK) {
        /* the fast fill, 64 pairs x BLOCK positions, the vector path */
        posenc__sincos_table_f32(b0, BLOCK, fh, fl, NP, 1.0, tcos, tsin, NP);
        for (int64_t t = 0; t < BLOCK; t++) {
            int64_t pos = b0 + t;
            /* posenc_rope_apply_f32 phases: rotating (1, 0) gives (cos, sin) */
            for (int i = 0; i < D; i++)
                v32[i] = (float)(i % 2 == 0);
            must(posenc_rope_apply_f32(pos, D, 10000.0, POSENC_LAYOUT_INTERLEAVED, POSENC_FORWARD,
                                       v32),
                 "posenc_rope_apply_f32");
            for (uint32_t k = 0; k < NP; k++) {
                if (t == 0) {
                    if (b0 > 0) {
                        mpfr_set(EC, ec[k], MPFR_RNDN);
                        mpfr_set(ES, es[k], MPFR_RNDN);
                        exact_step(&cfg[k]);
                        exact_reanchor(&cfg[k], pos);
                    } else {
                        exact_direct(&cfg[k], pos);
                    }
                } else {
                    mpfr_set(EC, ec[k], MPFR_RNDN);
                    mpfr_set(ES, es[k], MPFR_RNDN);
                    exact_step(&cfg[k]);
                }
                mpfr_set(ec[k], EC, MPFR_RNDN);
                mpfr_set(es[k], ES, MPFR_RNDN);
                measure(st, &cfg[k], pos, tcos[t * NP + k], tsin[t * NP + k]);
                /* the rope phases must be exactly the fill's values (measured
                 * just above), although the fill ran over a block and the
                 * rotation over one position: every float path agrees */
                if (v32[2 * k] != tcos[t * NP + k] || v32[2 * k + 1] != tsin[t * NP + k]) {
                    fprintf(stderr, "accuracy: rope_apply_f32 phase differs from the fill at pos %lld k %u\n",
                            (long long)pos, k);
                    st->max_ulp[P_F32] = 1e9;
                }
            }
        }
    }
    for (uint32_t k = 0; k < NP; k++) {
        config_clear(&cfg[k]);
        mpfr_clears(ec[k], es[k], (mpfr_ptr)0);
    }
}

/* ---- the no-cache decode itself -------------------------------------------- */

/* posenc_rope_qk without a cache at n_tok = 1 (head_dim 128, base 5e5, both
 * layouts): a head of unit pairs (1, 0) rotates into (c, s) exactly, so its
 * output is the decode's cos/sin; n random positions up to 2^31 - 1 (and
 * the last one), every pair against MPFR. */
static void decode_row(stats *st, int n)
{
    enum { HD = 128, NP = HD / 2 };
    static config cfg[NP];
    posenc_rope r[2];
    for (int l = 0; l < 2; l++)
        must(posenc_rope_init(&r[l], HD, HD, 5e5, (posenc_layout)l), "posenc_rope_init");
    for (uint32_t k = 0; k < NP; k++)
        config_init(&cfg[k], k, HD, 5e5);
    for (int i = 0; i < n; i++) {
        int64_t pos = i == 0 ? POSENC_MAX_POS : rnd_range(0, POSENC_MAX_POS);
        int l = i % 2;
        float x[HD];
        for (int e = 0; e < HD; e++)
            x[e] = l == POSENC_LAYOUT_INTERLEAVED ? (float)(e % 2 == 0) : (float)(e < NP);
        posenc_rope_view q = {.dst = x, .n_head = 1, .tok_stride = HD, .head_stride = HD};
        if (posenc_rope_qk(&(posenc_rope_qk_args){
                .rope = &r[l], .n_tok = 1, .pos = &pos, .q = q}) != POSENC_OK) {
            st->max_ulp[P_ONE] = 1e9;
            return;
        }
        for (uint32_t k = 0; k < NP; k++) {
            float c = l == POSENC_LAYOUT_INTERLEAVED ? x[2 * k] : x[k];
            float s = l == POSENC_LAYOUT_INTERLEAVED ? x[2 * k + 1] : x[k + NP];
            exact_direct(&cfg[k], pos);
            measure(st, &cfg[k], pos, c, s);
        }
    }
    for (uint32_t k = 0; k < NP; k++)
        config_clear(&cfg[k]);
}

/* ---- golden vectors --------------------------------------------------------- */

static int write_golden(const char *path)
{
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "accuracy: cannot write %s\n", path);
        return 1;
    }
    fprintf(out, "posenc-golden-sincos 1\n");
    fprintf(out, "# Exact sin and cos of theta = pos / base^(2k/D), GNU MPFR at %d bits,\n", PREC);
    fprintf(out, "# written by tools/accuracy.c --golden. Columns: pos k D base sin cos, each\n");
    fprintf(out, "# exact value as 25 significant digits, then as hex doubles hi lo with\n");
    fprintf(out, "# hi + lo within 2^-100 of it. Includes positions where theta is closest\n");
    fprintf(out, "# to a multiple of pi/2 (continued fractions) up to 2^31 - 1.\n");
    static const int64_t ranges[][2] = {{0, 1000}, {1000, 100000}, {100000, 10000000},
                                        {10000000, 2147483648LL}};
    int64_t hard[64];
    size_t count = 0;
    rng_state = 12345;
    for (int r = 0; r < 4; r++) {
        for (int i = 0; i < 25; i++) {
            config c;
            random_config(&c);
            int64_t pos[4];
            size_t n = 0;
            pos[n++] = rnd_range(ranges[r][0], ranges[r][1] - 1);
            if (i % 5 == 0)
                pos[n++] = ranges[r][1] - 1;
            size_t nh = hard_positions(&c, ranges[r][0], ranges[r][1], hard, 64);
            /* the hardest: the last (largest) convergent positions */
            for (size_t j = nh > 2 ? nh - 2 : 0; j < nh; j++)
                pos[n++] = hard[j];
            for (size_t j = 0; j < n; j++) {
                exact_direct(&c, pos[j]);
                ref2 vs = to_ref2(ES, T1), vc = to_ref2(EC, T1);
                mpfr_fprintf(out, "%lld %u %u %.17g %.24Re %a %a %.24Re %a %a\n",
                             (long long)pos[j], c.k, c.D, c.base, ES, vs.hi, vs.lo, EC, vc.hi,
                             vc.lo);
                count++;
            }
            config_clear(&c);
        }
    }
    fprintf(out, "end %zu\n", count);
    fclose(out);
    printf("wrote %zu golden points to %s\n", count, path);
    return 0;
}

/* ---- single positions, for the README table ------------------------------- */

/* Max error over every pair of D = 128 (base 10000) and D = 4096 (base 5e5)
 * at one position, for posenc_f32 and naive_f32. */
static void at_positions(void)
{
    static const int64_t P[] = {1000, 1000000, 1000000000, 2147483647};
    static const struct { uint32_t D; double base; } cf[] = {{128, 1e4}, {4096, 5e5}};
    printf("\nsingle positions, every pair of D=128 base 1e4 and D=4096 base 5e5\n");
    printf("%12s  %22s  %22s\n", "pos", "posenc_f32 ulp / abs", "naive_f32 ulp / abs");
    for (size_t i = 0; i < sizeof P / sizeof P[0]; i++) {
        stats st;
        memset(&st, 0, sizeof st);
        for (size_t j = 0; j < 2; j++)
            for (uint32_t k = 0; k < cf[j].D / 2; k++) {
                config c;
                config_init(&c, k, cf[j].D, cf[j].base);
                measure_one(&st, &c, P[i]);
                config_clear(&c);
            }
        printf("%12lld  %10.3g / %9.2g  %10.3g / %9.2g\n", (long long)P[i], st.max_ulp[P_F32],
               st.max_abs[P_F32], st.max_ulp[P_NAIVE32], st.max_abs[P_NAIVE32]);
    }
}

/* ---- main ------------------------------------------------------------------- */

static int report(FILE *csv, const char *range, const stats *st)
{
    int bad = 0;
    printf("%-22s %12.0f", range, st->points);
    for (int p = 0; p < N_PATHS; p++)
        printf("  %9.3g %8.2g", st->max_ulp[p], st->max_abs[p]);
    printf("\n");
    for (int p = 0; p < N_PATHS; p++) {
        fprintf(csv, "%s,%s,%.0f,%.6g,%.6g\n", range, path_name[p], st->points,
                st->max_ulp[p], st->max_abs[p]);
        if (path_bound[p] > 0 && !(st->max_ulp[p] <= path_bound[p])) {
            fprintf(stderr, "FAIL %s %s: %.4g units > %g at pos %lld k %u D %u base %.17g\n",
                    range, path_name[p], st->max_ulp[p], path_bound[p],
                    (long long)st->worst_pos[p], st->worst_k[p], st->worst_D[p],
                    st->worst_base[p]);
            bad = 1;
        }
    }
    fflush(stdout);
    return bad;
}

int main(int argc, char **argv)
{
    int short_run = getenv("ACCURACY_SHORT") && strcmp(getenv("ACCURACY_SHORT"), "0") != 0;
    const char *golden = NULL;
    int at_only = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--short"))
            short_run = 1;
        else if (!strcmp(argv[i], "--at"))
            at_only = 1;
        else if (!strcmp(argv[i], "--golden") && i + 1 < argc)
            golden = argv[++i];
        else {
            fprintf(stderr, "usage: accuracy [--short] [--at] [--golden FILE]\n");
            return 2;
        }
    }
    mpfr_inits2(PREC, T1, T2, T3, T4, TH, EC, ES, (mpfr_ptr)0);
    if (golden)
        return write_golden(golden);
    if (at_only) {
        at_positions();
        return 0;
    }

    FILE *csv = fopen("build/accuracy.csv", "w");
    if (!csv) {
        fprintf(stderr, "accuracy: cannot write build/accuracy.csv\n");
        return 2;
    }
    fprintf(csv, "range,path,points,max_ulp,max_abs\n");
    double target = short_run ? 2e5 : 4e6; /* values (sin and cos) per row */
    int64_t exhaustive = short_run ? (1 << 16) : (1 << 20);
    printf("posenc accuracy against GNU MPFR %s (%d bits)%s\n", mpfr_get_version(), PREC,
           short_run ? ", short run" : "");
    printf("units: float max(ulp, 2^-25) bound 1; double max(ulp, 2^-60) bound 2\n");
    printf("%-22s %12s", "range", "values");
    for (int p = 0; p < N_PATHS; p++)
        printf("  %18s", path_name[p]);
    printf("\n%-22s %12s", "", "");
    for (int p = 0; p < N_PATHS; p++)
        printf("  %9s %8s", "max_ulp", "max_abs");
    printf("\n");

    static const struct { const char *name; int64_t lo, hi; } rows[] = {
        {"0-1e3", 0, 1000},
        {"1e3-1e5", 1000, 100000},
        {"1e5-1e7", 100000, 10000000},
        {"1e7-2^31", 10000000, 2147483648LL},
    };
    int bad = 0;
    clock_t t0 = clock();
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        stats st;
        memset(&st, 0, sizeof st);
        sampled_row(&st, rows[r].lo, rows[r].hi, target);
        bad |= report(csv, rows[r].name, &st);
    }
    {
        stats st;
        memset(&st, 0, sizeof st);
        char name[64];
        snprintf(name, sizeof name, "all<2^%d_D128_b1e4", short_run ? 16 : 20);
        exhaustive_row(&st, exhaustive);
        bad |= report(csv, name, &st);
    }
    {
        stats st;
        memset(&st, 0, sizeof st);
        decode_row(&st, short_run ? 2000 : 30000);
        bad |= report(csv, "decode_nocache_D128", &st);
    }
    fclose(csv);
    at_positions();
    printf("wrote build/accuracy.csv (%.0f s CPU)\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    printf("%s\n", bad ? "FAIL: a posenc path broke its bound" : "all posenc paths within bounds");
    mpfr_clears(T1, T2, T3, T4, TH, EC, ES, (mpfr_ptr)0);
    return bad;
}
