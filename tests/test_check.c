/* test_check.c - posenc_check_run and the dump format.
 *
 * The dumps are made here, at run time, from the real config fixtures of
 * tests/data: a small float32 engine written below (HF's formula: cos/sin
 * of the angle in double rounded to float, times the attention factor,
 * then x*c - y*s in float; the result rounded to the dump's dtype) rotates
 * random x, exactly or with one mistake planted. Each planted engine is the
 * mistake by construction (another frequency set from the library's own
 * init with the wrong parameter, another pairing, float32 angles...), so the
 * check must name it first; the exact engine must match in F32, F16 and BF16. */
#include "check.h"
#include "fault.h" /* alloc_countdown, alloc_failed */

#include "posenc_check.h"
#ifdef POSENC_HAVE_JSON
#include "posenc_config.h"
#endif

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static const char *FILE_ = "check";

/* ---- the planted engine ----------------------------------------------------------- */

typedef struct engine {
    posenc_rope rope;        /* frequencies (the exact ones, or the planted ones) */
    int64_t offset;          /* positions + offset */
    int pairs, table;        /* layouts: which elements pair, which angle an element's cos/sin has */
    double sign, gain;       /* theta sign; factor on cos/sin */
    int f32_angle;           /* theta = (float)((float)f * (float)pos) */
    int round_cs_bf16;       /* cos/sin rounded to bf16 after the factor */
    int round_pos_bf16;      /* positions rounded to bf16 before use */
    int round_freq_bf16;     /* inv_freq stored in bf16 */
} engine;

static double round_dt(double v, posenc_dtype d)
{
    if (v == 0)
        return 0;
    int bits = d == POSENC_DTYPE_F32 ? 24 : d == POSENC_DTYPE_F16 ? 11 : 8;
    int emin = d == POSENC_DTYPE_F16 ? -14 : -126;
    int e = ilogb(v), q = (e < emin ? emin : e) - (bits - 1);
    return ldexp(nearbyint(ldexp(v, -q)), q);
}

static uint32_t pair_of(int l, uint32_t P, uint32_t i) { return l == POSENC_LAYOUT_INTERLEAVED ? i / 2 : i % P; }

static void elems(int l, uint32_t P, uint32_t k, uint32_t *i0, uint32_t *i1)
{
    *i0 = l == POSENC_LAYOUT_INTERLEAVED ? 2 * k : k;
    *i1 = l == POSENC_LAYOUT_INTERLEAVED ? 2 * k + 1 : k + P;
}

static void engine_of(engine *e, const posenc_rope *r)
{
    memset(e, 0, sizeof *e);
    e->rope = *r;
    e->pairs = e->table = r->layout;
    e->sign = 1;
    e->gain = r->attn_factor;
}

/* y = the engine's RoPE of x ([n_tok][n_head][hd]), rounded to dt. */
static void run_engine(const engine *e, const int64_t *pos, size_t n_tok, uint32_t n_head,
                       const float *x, float *y, posenc_dtype dt)
{
    uint32_t hd = e->rope.head_dim, R = e->rope.rotary_dim, P = R / 2;
    float c[512], s[512];
    for (size_t t = 0; t < n_tok; t++) {
        for (uint32_t k = 0; k < P; k++) {
            double f = e->rope.inv_freq_hi[k] + e->rope.inv_freq_lo[k];
            if (e->round_freq_bf16)
                f = round_dt(f, POSENC_DTYPE_BF16);
            double p = e->round_pos_bf16 ? round_dt((double)pos[t], POSENC_DTYPE_BF16)
                                         : (double)pos[t];
            double th = e->f32_angle ? (double)((float)f * (float)pos[t])
                                     : (p + (double)e->offset) * f;
            /* for the exact engine, theta in double loses nothing that shows in float32 */
            double cc = e->gain * cos(th), ss = e->sign * e->gain * sin(th);
            if (e->round_cs_bf16) {
                cc = round_dt(cc, POSENC_DTYPE_BF16);
                ss = round_dt(ss, POSENC_DTYPE_BF16);
            }
            c[k] = (float)cc;
            s[k] = (float)ss;
        }
        for (uint32_t h = 0; h < n_head; h++) {
            const float *xi = x + (t * n_head + h) * hd;
            float *yo = y + (t * n_head + h) * hd;
            for (uint32_t d = 0; d < hd; d++)
                yo[d] = xi[d];
            for (uint32_t k = 0; k < P; k++) {
                uint32_t i0, i1;
                elems(e->pairs, P, k, &i0, &i1);
                uint32_t k0 = pair_of(e->table, P, i0), k1 = pair_of(e->table, P, i1);
                float a = xi[i0], b = xi[i1];
                float p0 = a * c[k0], p1 = b * s[k0], p2 = b * c[k1], p3 = a * s[k1];
                yo[i0] = (float)round_dt(p0 - p1, dt);
                yo[i1] = (float)round_dt(p2 + p3, dt);
            }
            for (uint32_t d = R; d < hd; d++)
                yo[d] = (float)round_dt(yo[d], dt);
        }
    }
}

static uint64_t rng = 12345;
static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-52 - 1.0;
}

/* Positions 0..15 and spread up to max. */
static int64_t *positions(size_t n, int64_t max)
{
    int64_t *p = malloc(n * sizeof *p);
    for (size_t i = 0; i < n; i++)
        p[i] = i < 16 ? (int64_t)i : (int64_t)(16 + (double)(max - 16) * (double)(i - 16) / (double)(n - 17));
    return p;
}

typedef struct dump {
    size_t n_tok;
    uint32_t n_head, hd;
    int64_t *pos;
    float *x, *y;
    posenc_dtype dt;
} dump;

static void make_dump(dump *d, const engine *e, size_t n_tok, uint32_t n_head, int64_t max,
                      posenc_dtype dt)
{
    d->n_tok = n_tok;
    d->n_head = n_head;
    d->hd = e->rope.head_dim;
    d->dt = dt;
    d->pos = positions(n_tok, max);
    size_t n = n_tok * n_head * d->hd;
    d->x = malloc(n * sizeof *d->x);
    d->y = malloc(n * sizeof *d->y);
    for (size_t i = 0; i < n; i++)
        d->x[i] = (float)round_dt(urand(), dt);
    run_engine(e, d->pos, n_tok, n_head, d->x, d->y, dt);
}

static void free_dump(dump *d)
{
    free(d->pos);
    free(d->x);
    free(d->y);
}

static posenc_status check_dump(const posenc_rope_config *cfg, const dump *d,
                                posenc_check_result *res)
{
    posenc_check_input in = {.dtype = d->dt, .n_tok = d->n_tok, .n_head = d->n_head,
                             .head_dim = d->hd, .pos = d->pos, .x = d->x, .y = d->y};
    return posenc_check_run(cfg, &in, 0, 0, res);
}

static posenc_check_result res_;

/* The check of a planted engine must say mismatch with cause first. */
static int planted(const posenc_rope_config *cfg, const engine *e, posenc_dtype dt,
                   posenc_check_cause_id cause, const char *params, int64_t max)
{
    dump d;
    make_dump(&d, e, 48, 3, max, dt);
    posenc_status s = check_dump(cfg, &d, &res_);
    free_dump(&d);
    int ok = s == POSENC_OK && !res_.match && res_.n_cause >= 1 && res_.cause[0].cause == cause &&
             res_.cause[0].fit_ulp <= res_.tol_ulp &&
             (!params || strncmp(res_.cause[0].params, params, strlen(params)) == 0);
    if (!ok) {
        fprintf(stderr, "planted %s (%s): status %d match %d n_cause %zu max_ulp %g", 
                posenc_check_cause_name(cause), params ? params : "", (int)s, res_.match,
                res_.n_cause, res_.max_ulp);
        for (size_t i = 0; i < res_.n_cause; i++)
            fprintf(stderr, " [%s %g %s]", posenc_check_cause_name(res_.cause[i].cause),
                    res_.cause[i].fit_ulp, res_.cause[i].params);
        fprintf(stderr, "\n");
    }
    return ok;
}

/* ---- hand-made models (no config reader needed) ----------------------------------- */

static void plain_config(posenc_rope_config *c, uint32_t hd, uint32_t rd, double base, int layout)
{
    memset(c, 0, sizeof *c);
    c->head_dim = hd;
    c->rotary_dim = rd;
    c->base = base;
    c->layout = (posenc_layout)layout;
    CHECK(posenc_rope_scaling_init(&c->scaling, POSENC_ROPE_DEFAULT) == POSENC_OK);
}

static void rope_of(const posenc_rope_config *c, int64_t len, posenc_rope *r)
{
    CHECK(posenc_rope_init_config(r, c, len) == POSENC_OK);
}

TEST(exact_plain_every_dtype)
{
    posenc_rope_config c;
    posenc_rope r;
    engine e;
    for (int layout = 0; layout < 2; layout++) {
        plain_config(&c, 64, 64, 10000, layout);
        rope_of(&c, 4097, &r);
        engine_of(&e, &r);
        for (int dt = 0; dt < 3; dt++) {
            dump d;
            make_dump(&d, &e, 40, 2, 4096, (posenc_dtype)dt);
            CHECK(check_dump(&c, &d, &res_) == POSENC_OK);
            CHECK(res_.match);
            CHECK(res_.max_ulp <= 2.0);
            CHECK(res_.n_cause == 0);
            CHECK_EQ_INT(res_.n_tok, 40);
            /* bands: 0-15, 16-63, ... up to 4096 */
            CHECK_EQ_INT(res_.band[0].pos_lo, 0);
            CHECK_EQ_INT(res_.band[0].pos_hi, 15);
            CHECK_EQ_INT(res_.band[0].n_tok, 16);
            CHECK_EQ_INT(res_.band[res_.n_band - 1].pos_lo, 4096);
            free_dump(&d);
        }
    }
}

/* Every cause on a plain half-layout model with partial rotary. */
TEST(planted_plain)
{
    posenc_rope_config c, c2;
    posenc_rope r, r2;
    engine e;
    for (int layout = 0; layout < 2; layout++) {
        plain_config(&c, 64, 48, 10000, layout);
        rope_of(&c, 2001, &r);
        const char *other = layout ? "interleaved" : "half";
        engine_of(&e, &r);
        e.pairs = e.table = !layout;
        char want[64];
        snprintf(want, sizeof want, "layout=%s", other);
        CHECK(planted(&c, &e, POSENC_DTYPE_F32, POSENC_CAUSE_LAYOUT_SWAPPED, want, 2000));
        engine_of(&e, &r);
        e.table = !layout;
        CHECK(planted(&c, &e, POSENC_DTYPE_BF16, POSENC_CAUSE_LAYOUT_MIXED, "table=", 2000));
        engine_of(&e, &r);
        e.offset = 1;
        CHECK(planted(&c, &e, POSENC_DTYPE_F16, POSENC_CAUSE_POSITION_OFFSET, "c=1", 2000));
        engine_of(&e, &r);
        e.offset = -3;
        CHECK(planted(&c, &e, POSENC_DTYPE_F32, POSENC_CAUSE_POSITION_OFFSET, "c=-3", 2000));
        c2 = c;
        c2.base = 500000;
        rope_of(&c2, 2001, &r2);
        engine_of(&e, &r2);
        CHECK(planted(&c, &e, POSENC_DTYPE_BF16, POSENC_CAUSE_BASE, "base=500000", 2000));
        c2 = c;
        c2.rotary_dim = 64;
        rope_of(&c2, 2001, &r2);
        engine_of(&e, &r2);
        CHECK(planted(&c, &e, POSENC_DTYPE_F32, POSENC_CAUSE_ROTARY_DIM, "rotary_dim=64", 2000));
        engine_of(&e, &r);
        e.sign = -1;
        CHECK(planted(&c, &e, POSENC_DTYPE_F32, POSENC_CAUSE_DIRECTION, NULL, 2000));
        engine_of(&e, &r);
        e.round_cs_bf16 = 1;
        CHECK(planted(&c, &e, POSENC_DTYPE_F32, POSENC_CAUSE_DTYPE_ROUNDING, "what=cos-sin-bf16", 2000));
        engine_of(&e, &r);
        e.f32_angle = 1;
        CHECK(planted(&c, &e, POSENC_DTYPE_F32, POSENC_CAUSE_ANGLE_PRECISION, "onset=", 1000000));
        engine_of(&e, &r);
        e.gain = 1.25;
        CHECK(planted(&c, &e, POSENC_DTYPE_F32, POSENC_CAUSE_ATTN_FACTOR, "factor=1.25", 2000));
        /* a scaling the model does not have */
        c2 = c;
        CHECK(posenc_rope_scaling_init(&c2.scaling, POSENC_ROPE_LINEAR) == POSENC_OK);
        c2.scaling.factor = 4;
        rope_of(&c2, 2001, &r2);
        engine_of(&e, &r2);
        CHECK(planted(&c, &e, POSENC_DTYPE_F32, POSENC_CAUSE_SCALING, "what=linear factor=4", 2000));
    }
}

/* A mistake outside every list: no cause is named. */
TEST(nothing_fits)
{
    posenc_rope_config c, c2;
    posenc_rope r2;
    engine e;
    plain_config(&c, 32, 32, 10000, POSENC_LAYOUT_HALF);
    c2 = c;
    c2.base = 12345.678; /* not a listed base */
    rope_of(&c2, 2001, &r2);
    engine_of(&e, &r2);
    e.offset = 5;
    dump d;
    make_dump(&d, &e, 30, 2, 2000, POSENC_DTYPE_F32);
    CHECK(check_dump(&c, &d, &res_) == POSENC_OK);
    CHECK(!res_.match);
    CHECK_EQ_INT(res_.n_cause, 0);
    free_dump(&d);
}

/* 1 token, and 10^5 tokens: the numerics hold at every size. */
TEST(sizes)
{
    posenc_rope_config c;
    posenc_rope r;
    engine e;
    plain_config(&c, 64, 64, 500000, POSENC_LAYOUT_HALF);
    rope_of(&c, 1, &r);
    engine_of(&e, &r);
    dump d;
    make_dump(&d, &e, 1, 1, 0, POSENC_DTYPE_F32);
    d.pos[0] = 0;
    run_engine(&e, d.pos, 1, 1, d.x, d.y, POSENC_DTYPE_F32);
    CHECK(check_dump(&c, &d, &res_) == POSENC_OK);
    CHECK(res_.match);
    d.y[3] += 0.25f; /* one element wrong: a mismatch at position 0 */
    CHECK(check_dump(&c, &d, &res_) == POSENC_OK);
    CHECK(!res_.match);
    CHECK_EQ_INT(res_.worst_pos, 0);
    free_dump(&d);
    rope_of(&c, 100000, &r);
    engine_of(&e, &r);
    make_dump(&d, &e, 100000, 2, 99999, POSENC_DTYPE_BF16);
    clock_t t0 = clock();
    CHECK(check_dump(&c, &d, &res_) == POSENC_OK);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    CHECK(res_.match);
    CHECK_EQ_INT(res_.n_tok, 100000);
    CHECK(secs < 30);
    e.offset = 2;
    run_engine(&e, d.pos, d.n_tok, 2, d.x, d.y, POSENC_DTYPE_BF16);
    CHECK(check_dump(&c, &d, &res_) == POSENC_OK);
    CHECK(!res_.match && res_.n_cause >= 1 && res_.cause[0].cause == POSENC_CAUSE_POSITION_OFFSET);
    CHECK(!strcmp(res_.cause[0].params, "c=2"));
    free_dump(&d);
}

/* cos/sin tables: half width and full width, exact and in the other order. */
TEST(tables)
{
    posenc_rope_config c;
    posenc_rope r;
    plain_config(&c, 32, 32, 10000, POSENC_LAYOUT_HALF);
    rope_of(&c, 100, &r);
    size_t n = 20;
    int64_t *pos = positions(n, 99);
    float cs[20 * 32], sn[20 * 32];
    for (int full = 0; full < 2; full++)
        for (int wrong = 0; wrong <= full; wrong++) {
            uint32_t w = full ? 32 : 16;
            for (size_t t = 0; t < n; t++)
                for (uint32_t j = 0; j < w; j++) {
                    /* half layout: cat(freqs, freqs); the wrong one repeat_interleave */
                    uint32_t k = !full ? j : wrong ? j / 2 : j % 16;
                    double f = r.inv_freq_hi[k] + r.inv_freq_lo[k];
                    cs[t * w + j] = (float)cos((double)pos[t] * f);
                    sn[t * w + j] = (float)sin((double)pos[t] * f);
                }
            posenc_check_input in = {.dtype = POSENC_DTYPE_F32, .n_tok = n, .pos = pos,
                                     .cos = cs, .sin = sn, .table_dim = w};
            CHECK(posenc_check_run(&c, &in, 0, 0, &res_) == POSENC_OK);
            CHECK(res_.match == !wrong);
            if (wrong)
                CHECK(res_.n_cause >= 1 && res_.cause[0].cause == POSENC_CAUSE_LAYOUT_MIXED);
            in.table_dim = 8;
            CHECK(posenc_check_run(&c, &in, 0, 0, &res_) == POSENC_ERR_DIM);
        }
    free(pos);
}

TEST(arguments)
{
    posenc_rope_config c;
    plain_config(&c, 8, 8, 10000, POSENC_LAYOUT_HALF);
    int64_t pos[2] = {0, 1};
    float x[16] = {1}, y[16] = {1};
    posenc_check_input in = {.dtype = POSENC_DTYPE_F32, .n_tok = 2, .n_head = 1, .head_dim = 8,
                             .pos = pos, .x = x, .y = y};
    CHECK(posenc_check_run(NULL, &in, 0, 0, &res_) == POSENC_ERR_NULL);
    CHECK(posenc_check_run(&c, &in, 0, -1, &res_) == POSENC_ERR_RANGE);
    in.head_dim = 4;
    CHECK(posenc_check_run(&c, &in, 0, 0, &res_) == POSENC_ERR_DIM);
    in.head_dim = 8;
    pos[1] = -1;
    CHECK(posenc_check_run(&c, &in, 0, 0, &res_) == POSENC_ERR_POS);
    pos[1] = 1;
    y[5] = NAN;
    CHECK(posenc_check_run(&c, &in, 0, 0, &res_) == POSENC_ERR_NOT_FINITE);
    CHECK(!strcmp(posenc_check_cause_name(POSENC_CAUSE_DTYPE_ROUNDING), "dtype-rounding"));
    CHECK(!strcmp(posenc_check_cause_name((posenc_check_cause_id)99), "unknown"));
}

/* Every argument refusal of posenc_check_run_engine, in the order the
 * header documents: missing arrays (NULL), contradictory or out-of-range
 * fields (RANGE), shapes the model does not have (DIM), too many elements
 * (OVERFLOW), a non-finite value (NOT_FINITE). */
TEST(run_refusals)
{
    posenc_rope_config c;
    plain_config(&c, 8, 8, 10000, POSENC_LAYOUT_HALF);
    int64_t pos[40] = {0, 1};
    float x[16] = {1}, y[16] = {1}, cs[12] = {1, 1, 1, 1}; /* cos 1 then 0; sin 0 */
    const posenc_check_input in = {.dtype = POSENC_DTYPE_F32, .n_tok = 2, .n_head = 1,
                                   .head_dim = 8, .pos = pos, .x = x, .y = y};
    const posenc_check_input tb = {.dtype = POSENC_DTYPE_F32, .n_tok = 2, .table_dim = 4,
                                   .pos = pos, .cos = cs, .sin = cs + 4};
    posenc_check_engine E = POSENC_CHECK_ENGINE_EXACT;
    posenc_check_input b;
    CHECK(posenc_check_run_engine(&c, NULL, 0, 0, E, &res_) == POSENC_ERR_NULL);
    CHECK(posenc_check_run_engine(&c, &in, 0, 0, E, NULL) == POSENC_ERR_NULL);
    b = in, b.pos = NULL;
    CHECK(posenc_check_run_engine(&c, &b, 0, 0, E, &res_) == POSENC_ERR_NULL);
    b = in, b.y = NULL;
    CHECK(posenc_check_run_engine(&c, &b, 0, 0, E, &res_) == POSENC_ERR_NULL);
    b = in, b.x = NULL;
    CHECK(posenc_check_run_engine(&c, &b, 0, 0, E, &res_) == POSENC_ERR_NULL);
    b = in, b.cos = cs; /* x/y and a table: RANGE */
    CHECK(posenc_check_run_engine(&c, &b, 0, 0, E, &res_) == POSENC_ERR_RANGE);
    b = in, b.sin = cs;
    CHECK(posenc_check_run_engine(&c, &b, 0, 0, E, &res_) == POSENC_ERR_RANGE);
    b = tb, b.sin = NULL;
    CHECK(posenc_check_run_engine(&c, &b, 0, 0, E, &res_) == POSENC_ERR_NULL);
    b = tb, b.cos = NULL;
    CHECK(posenc_check_run_engine(&c, &b, 0, 0, E, &res_) == POSENC_ERR_NULL);
    b = in, b.n_tok = 0;
    CHECK(posenc_check_run_engine(&c, &b, 0, 0, E, &res_) == POSENC_ERR_RANGE);
    b = in, b.dtype = (posenc_dtype)3;
    CHECK(posenc_check_run_engine(&c, &b, 0, 0, E, &res_) == POSENC_ERR_RANGE);
    CHECK(posenc_check_run_engine(&c, &in, -1, 0, E, &res_) == POSENC_ERR_RANGE);
    CHECK(posenc_check_run_engine(&c, &in, POSENC_MAX_POS + 2, 0, E, &res_) == POSENC_ERR_RANGE);
    CHECK(posenc_check_run_engine(&c, &in, 0, NAN, E, &res_) == POSENC_ERR_RANGE);
    CHECK(posenc_check_run_engine(&c, &in, 0, INFINITY, E, &res_) == POSENC_ERR_RANGE);
    CHECK(posenc_check_run_engine(&c, &in, 0, 0, (posenc_check_engine)99, &res_) ==
          POSENC_ERR_RANGE);
    b = in, b.n_head = 0;
    CHECK(posenc_check_run_engine(&c, &b, 0, 0, E, &res_) == POSENC_ERR_RANGE);
    pos[1] = POSENC_MAX_POS + 1;
    CHECK(posenc_check_run_engine(&c, &in, 0, 0, E, &res_) == POSENC_ERR_POS);
    pos[1] = 1;
    /* tables: table_dim must be rotary_dim or rotary_dim / 2 */
    b = tb, b.table_dim = 3;
    CHECK(posenc_check_run_engine(&c, &b, 0, 0, E, &res_) == POSENC_ERR_DIM);
    /* more than 2^31 elements: 40 tokens of 2^20 heads of 64 (the overflow is
     * found before any element is read) */
    plain_config(&c, 64, 64, 10000, POSENC_LAYOUT_HALF);
    b = in, b.n_tok = 40, b.n_head = 1u << 20, b.head_dim = 64;
    CHECK(posenc_check_run_engine(&c, &b, 0, 0, E, &res_) == POSENC_ERR_OVERFLOW);
    plain_config(&c, 8, 8, 10000, POSENC_LAYOUT_HALF);
    /* non-finite values: x, and a table's cos */
    x[3] = INFINITY;
    CHECK(posenc_check_run_engine(&c, &in, 0, 0, E, &res_) == POSENC_ERR_NOT_FINITE);
    x[3] = 0;
    cs[1] = NAN;
    CHECK(posenc_check_run_engine(&c, &tb, 0, 0, E, &res_) == POSENC_ERR_NOT_FINITE);
    cs[1] = 1;
    /* the valid table itself: cos 1, sin 0 at position 0 is the model's; at
     * position 1 it is not */
    CHECK(posenc_check_run_engine(&c, &tb, 0, 0, E, &res_) == POSENC_OK);
    CHECK(!res_.match && res_.n_tok == 2);
}

/* Save, load, the same values; a dump the strict reader refuses. */
TEST(dump_roundtrip)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/posenc_check_%ld.safetensors", (long)getpid());
    int64_t pos[3] = {0, 7, 1000000};
    float x[3 * 2 * 4], y[3 * 2 * 4];
    for (int i = 0; i < 24; i++) {
        x[i] = (float)round_dt(urand(), POSENC_DTYPE_BF16);
        y[i] = (float)round_dt(urand() * 1e-3, POSENC_DTYPE_BF16);
    }
    for (int dt = 0; dt < 3; dt++) {
        posenc_check_input in = {.dtype = (posenc_dtype)dt, .n_tok = 3, .n_head = 2,
                                 .head_dim = 4, .pos = pos, .x = x, .y = y};
        const char *meta[] = {"format", "test", NULL};
        posenc_load_error err;
        CHECK(posenc_dump_save(path, &in, meta, &err) == POSENC_OK);
        posenc_check_input got;
        CHECK(posenc_dump_load(path, &got, &err) == POSENC_OK);
        CHECK_EQ_INT(got.n_tok, 3);
        CHECK_EQ_INT(got.n_head, 2);
        CHECK_EQ_INT(got.head_dim, 4);
        CHECK_EQ_INT(got.dtype, dt);
        CHECK_EQ_INT(got.pos[2], 1000000);
        int same = 1;
        for (int i = 0; i < 24; i++)
            same &= got.x[i] == x[i] && got.y[i] == y[i];
        if (dt != POSENC_DTYPE_F16)
            CHECK(same);
        posenc_dump_free(&got);
        FILE *st = fopen(path, "rb"); /* the same through the stream reader */
        CHECK(st != NULL);
        if (st) {
            CHECK(posenc_dump_read(st, &got, &err) == POSENC_OK);
            CHECK_EQ_INT(got.n_tok, 3);
            CHECK(got.y[5] == (float)round_dt(y[5], (posenc_dtype)dt));
            posenc_dump_free(&got);
            fclose(st);
        }
    }
    /* cut the file short: the tiling check refuses it */
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f) {
        CHECK(fseek(f, 0, SEEK_END) == 0);
        long size = ftell(f);
        fclose(f);
        CHECK(truncate(path, size - 2) == 0);
    }
    posenc_check_input got;
    posenc_load_error err;
    CHECK(posenc_dump_load(path, &got, &err) == POSENC_ERR_FORMAT);
    CHECK(err.detail[0] != 0); /* the strict reader says which check failed */
    remove(path);
    CHECK(posenc_dump_load(path, &got, &err) == POSENC_ERR_IO);
}

/* ---- malformed dumps: every refusal of src/check/dump.c with its message ---------- */

typedef struct rawt {
    const char *name, *dtype, *shape; /* shape as JSON, e.g. "[2,1,2]" */
    uint64_t n_bytes;
    const void *data; /* NULL: zeros */
} rawt;

/* Writes a safetensors file of the tensors in data order (offsets tiled, the
 * header padded with spaces to a multiple of 8); extra bytes of sparse zeros
 * when a tensor has no data and is large. 1 when written. */
static int write_raw(const char *path, const rawt *t, size_t n)
{
    char h[2048];
    int len = snprintf(h, sizeof h, "{");
    uint64_t off = 0;
    for (size_t i = 0; i < n; i++) {
        len += snprintf(h + len, sizeof h - (size_t)len,
                        "%s\"%s\":{\"dtype\":\"%s\",\"shape\":%s,\"data_offsets\":[%llu,%llu]}",
                        i ? "," : "", t[i].name, t[i].dtype, t[i].shape, (unsigned long long)off,
                        (unsigned long long)(off + t[i].n_bytes));
        off += t[i].n_bytes;
    }
    len += snprintf(h + len, sizeof h - (size_t)len, "}");
    while (len % 8)
        h[len++] = ' ';
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    unsigned char l8[8];
    for (int k = 0; k < 8; k++)
        l8[k] = (unsigned char)((uint64_t)len >> (8 * k));
    int ok = fwrite(l8, 1, 8, f) == 8 && fwrite(h, 1, (size_t)len, f) == (size_t)len;
    for (size_t i = 0; ok && i < n; i++) {
        if (t[i].data)
            ok = fwrite(t[i].data, 1, (size_t)t[i].n_bytes, f) == t[i].n_bytes;
        else
            ok = fseek(f, (long)t[i].n_bytes, SEEK_CUR) == 0;
    }
    if (fclose(f) != 0)
        ok = 0;
    /* a hole at the end reads as zeros: the file's size must cover it */
    return ok && truncate(path, (off_t)(8 + (uint64_t)len + off)) == 0;
}

/* Loads the dump at path; 1 when the status is want and the detail is msg. */
static int refused(const char *path, posenc_status want, const char *msg)
{
    posenc_check_input got;
    posenc_load_error err;
    posenc_status s = posenc_dump_load(path, &got, &err);
    if (s == POSENC_OK)
        posenc_dump_free(&got);
    if (s != want || strcmp(err.detail, msg) != 0) {
        fprintf(stderr, "  got status %d detail '%s'\n  want %d '%s'\n", (int)s,
                s == POSENC_OK ? "" : err.detail, (int)want, msg);
        return 0;
    }
    return 1;
}

TEST(dump_refusals)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/posenc_check_bad_%ld.safetensors", (long)getpid());
    const int64_t p2[2] = {0, 1};
    const float f4[4] = {1, 2, 3, 4};
    const char *sh = "the dump needs tensors 'x' and 'y' (or 'cos' and 'sin')";
    /* no positions */
    {
        rawt t[] = {{"x", "F32", "[1,1,2]", 8, f4}, {"y", "F32", "[1,1,2]", 8, f4}};
        CHECK(write_raw(path, t, 2) && refused(path, POSENC_ERR_FORMAT, "no tensor 'positions' in the dump"));
    }
    /* positions of rank 2, and of length 0 */
    {
        const char *m = "tensor 'positions' must have shape [n_tok], n_tok >= 1";
        rawt t[] = {{"positions", "I64", "[2,1]", 16, p2}, {"x", "F32", "[2,1,2]", 16, f4},
                    {"y", "F32", "[2,1,2]", 16, f4}};
        CHECK(write_raw(path, t, 3) && refused(path, POSENC_ERR_FORMAT, m));
        rawt t0[] = {{"positions", "I64", "[0]", 0, NULL}, {"x", "F32", "[1,1,2]", 8, f4},
                     {"y", "F32", "[1,1,2]", 8, f4}};
        CHECK(write_raw(path, t0, 3) && refused(path, POSENC_ERR_FORMAT, m));
    }
    /* positions alone; with cos but no sin; x without y; y without x */
    {
        rawt t[] = {{"positions", "I64", "[1]", 8, p2}, {"cos", "F32", "[1,2]", 8, f4}};
        CHECK(write_raw(path, t, 1) && refused(path, POSENC_ERR_FORMAT, sh));
        CHECK(write_raw(path, t, 2) && refused(path, POSENC_ERR_FORMAT, sh));
        rawt s[] = {{"positions", "I64", "[1]", 8, p2}, {"sin", "F32", "[1,2]", 8, f4}};
        CHECK(write_raw(path, s, 2) && refused(path, POSENC_ERR_FORMAT, sh));
        rawt x[] = {{"positions", "I64", "[1]", 8, p2}, {"x", "F32", "[1,1,2]", 8, f4}};
        CHECK(write_raw(path, x, 2) && refused(path, POSENC_ERR_FORMAT, "tensor 'y' is missing"));
        rawt y[] = {{"positions", "I64", "[1]", 8, p2}, {"y", "F32", "[1,1,2]", 8, f4}};
        CHECK(write_raw(path, y, 2) && refused(path, POSENC_ERR_FORMAT, "tensor 'x' is missing"));
    }
    /* x/y and cos (or sin) too */
    {
        const char *m = "the dump has both x/y and cos/sin: give one";
        rawt t[] = {{"positions", "I64", "[1]", 8, p2}, {"x", "F32", "[1,1,2]", 8, f4},
                    {"y", "F32", "[1,1,2]", 8, f4}, {"cos", "F32", "[1,2]", 8, f4}};
        CHECK(write_raw(path, t, 4) && refused(path, POSENC_ERR_FORMAT, m));
        t[3].name = "sin";
        CHECK(write_raw(path, t, 4) && refused(path, POSENC_ERR_FORMAT, m));
    }
    /* dtypes: not a float (first or second), floats that differ */
    {
        rawt t[] = {{"positions", "I64", "[1]", 8, p2}, {"x", "I32", "[1,1,2]", 8, f4},
                    {"y", "F32", "[1,1,2]", 8, f4}};
        CHECK(write_raw(path, t, 3) &&
              refused(path, POSENC_ERR_FORMAT, "tensor 'x' is I32: it must be F32, F16 or BF16"));
        t[1].dtype = "F32";
        t[2].dtype = "F64";
        t[2].n_bytes = 16;
        CHECK(write_raw(path, t, 3) &&
              refused(path, POSENC_ERR_FORMAT, "tensor 'y' is F64: it must be F32, F16 or BF16"));
        t[1].dtype = "BF16";
        t[1].n_bytes = 4;
        t[2].dtype = "F16";
        t[2].n_bytes = 4;
        CHECK(write_raw(path, t, 3) &&
              refused(path, POSENC_ERR_FORMAT, "'x' is BF16 but 'y' is F16: they must be the same"));
    }
    /* shapes: the wrong rank, n_tok other than the positions', a zero or too
     * large dimension, y unlike x; for tables the table's own message */
    {
        const char *m = "tensor 'x' must have shape [n_tok, n_head, head_dim] with n_tok = 2 (from "
                        "'positions'), both tensors alike";
        const char *my = "tensor 'y' must have shape [n_tok, n_head, head_dim] with n_tok = 2 (from "
                         "'positions'), both tensors alike";
        rawt t[] = {{"positions", "I64", "[2]", 16, p2}, {"x", "F32", "[2,2]", 16, f4},
                    {"y", "F32", "[2,1,2]", 16, f4}};
        CHECK(write_raw(path, t, 3) && refused(path, POSENC_ERR_FORMAT, m));
        t[1].shape = "[1,2,2]";
        CHECK(write_raw(path, t, 3) && refused(path, POSENC_ERR_FORMAT, m));
        t[1].shape = "[2,0,2]";
        t[1].n_bytes = 0;
        t[1].data = NULL;
        CHECK(write_raw(path, t, 3) && refused(path, POSENC_ERR_FORMAT, m));
        t[1].shape = "[2,1048577,1]";
        t[1].n_bytes = 2 * 1048577u * 4;
        CHECK(write_raw(path, t, 3) && refused(path, POSENC_ERR_FORMAT, m));
        t[1].shape = "[2,1,2]";
        t[1].n_bytes = 16;
        t[1].data = f4;
        t[2].shape = "[2,2,1]";
        CHECK(write_raw(path, t, 3) && refused(path, POSENC_ERR_FORMAT, my));
        rawt c[] = {{"positions", "I64", "[2]", 16, p2}, {"cos", "F32", "[2,1,2]", 16, f4},
                    {"sin", "F32", "[2,2]", 16, f4}};
        CHECK(write_raw(path, c, 3) &&
              refused(path, POSENC_ERR_FORMAT, "tensor 'cos' must have shape [n_tok, table_dim] with "
                                               "n_tok = 2 (from 'positions'), both tensors alike"));
    }
    /* more than 2^31 elements: 2049 tokens of 2^20 (the data a sparse hole) */
    {
        rawt t[] = {{"positions", "I64", "[2049]", 2049 * 8, NULL},
                    {"x", "F16", "[2049,1024,1024]", 2049ull << 21, NULL},
                    {"y", "F16", "[2049,1024,1024]", 2049ull << 21, NULL}};
        CHECK(write_raw(path, t, 3) &&
              refused(path, POSENC_ERR_OVERFLOW, "the dump has more than 2147483648 elements"));
    }
    /* positions: not an integer dtype; a negative I32 (sign-extended) and one
     * past POSENC_MAX_POS in I64 */
    {
        rawt t[] = {{"positions", "F32", "[2]", 8, f4}, {"x", "F32", "[2,1,1]", 8, f4},
                    {"y", "F32", "[2,1,1]", 8, f4}};
        CHECK(write_raw(path, t, 3) &&
              refused(path, POSENC_ERR_FORMAT, "tensor 'positions' is F32: it must be I64 or I32"));
        const unsigned char neg[8] = {5, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF}; /* 5, -1 */
        t[0].dtype = "I32";
        t[0].data = neg;
        CHECK(write_raw(path, t, 3) &&
              refused(path, POSENC_ERR_POS, "positions[1] = -1 is outside 0 .. 2147483647"));
        const unsigned char big[16] = {0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}; /* 2^31, 0 */
        t[0].dtype = "I64";
        t[0].n_bytes = 16;
        t[0].data = big;
        CHECK(write_raw(path, t, 3) &&
              refused(path, POSENC_ERR_POS, "positions[0] = 2147483648 is outside 0 .. 2147483647"));
    }
    /* a non-finite element: F32 inf in y, F16 NaN in x, BF16 -inf in sin */
    {
        const float yv[2] = {1, INFINITY};
        rawt t[] = {{"positions", "I64", "[2]", 16, p2}, {"x", "F32", "[2,1,1]", 8, f4},
                    {"y", "F32", "[2,1,1]", 8, yv}};
        CHECK(write_raw(path, t, 3) &&
              refused(path, POSENC_ERR_FORMAT, "tensor 'y': element 1 is not finite"));
        const unsigned char h16[4] = {0x00, 0x7E, 0x00, 0x3C}; /* NaN, 1.0 */
        const unsigned char one[4] = {0x00, 0x3C, 0x00, 0x3C};
        t[1].dtype = t[2].dtype = "F16";
        t[1].n_bytes = t[2].n_bytes = 4;
        t[1].data = h16;
        t[2].data = one;
        CHECK(write_raw(path, t, 3) &&
              refused(path, POSENC_ERR_FORMAT, "tensor 'x': element 0 is not finite"));
        const unsigned char b1[4] = {0x80, 0x3F, 0x80, 0x3F};   /* 1.0, 1.0 */
        const unsigned char bni[4] = {0x80, 0x3F, 0x80, 0xFF};  /* 1.0, -inf */
        rawt c[] = {{"positions", "I64", "[2]", 16, p2}, {"cos", "BF16", "[2,1]", 4, b1},
                    {"sin", "BF16", "[2,1]", 4, bni}};
        CHECK(write_raw(path, c, 3) &&
              refused(path, POSENC_ERR_FORMAT, "tensor 'sin': element 1 is not finite"));
    }
    /* accepted: I32 positions, BF16 tables; x/y of 40000 F32 elements read in
     * chunks of 64 KiB (16384 floats) */
    {
        const unsigned char p32[8] = {3, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F}; /* 3, 2^31-1 */
        const unsigned char b[4] = {0x80, 0x3F, 0x40, 0xC0};               /* 1.0, -3.0 */
        rawt c[] = {{"positions", "I32", "[2]", 8, p32}, {"cos", "BF16", "[2,1]", 4, b},
                    {"sin", "BF16", "[2,1]", 4, b}};
        posenc_check_input got;
        posenc_load_error err;
        CHECK(write_raw(path, c, 3) && posenc_dump_load(path, &got, &err) == POSENC_OK);
        CHECK_EQ_INT(got.pos[0], 3);
        CHECK_EQ_INT(got.pos[1], POSENC_MAX_POS);
        CHECK_EQ_INT(got.table_dim, 1);
        CHECK_EQ_INT(got.dtype, POSENC_DTYPE_BF16);
        CHECK(got.x == NULL && got.cos[0] == 1.0f && got.sin[1] == -3.0f);
        posenc_dump_free(&got);
        CHECK(got.pos == NULL && got.cos == NULL);
        size_t n = 40000;
        float *v = malloc(n * sizeof *v);
        CHECK(v != NULL);
        if (v) {
            for (size_t i = 0; i < n; i++)
                v[i] = (float)i;
            int64_t one_pos[1] = {9};
            const char *meta[] = {"a", "1", "b", "x y/z", NULL};
            posenc_check_input in = {.dtype = POSENC_DTYPE_F32, .n_tok = 1, .n_head = 8,
                                     .head_dim = 5000, .pos = one_pos, .x = v, .y = v};
            CHECK(posenc_dump_save(path, &in, meta, &err) == POSENC_OK);
            CHECK(posenc_dump_load(path, &got, &err) == POSENC_OK);
            CHECK(got.n_head == 8 && got.head_dim == 5000 && got.x[16384] == 16384.0f &&
                  got.y[39999] == 39999.0f);
            posenc_dump_free(&got);
            free(v);
        }
    }
    remove(path);
    posenc_dump_free(NULL);
}

/* posenc_dump_save and the readers: arguments refused, metadata checked, a
 * path that cannot be written, a device that is full. */
TEST(dump_save_refusals)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/posenc_check_save_%ld.safetensors", (long)getpid());
    int64_t pos[2] = {0, 5};
    float v[4] = {0.5f, -0.25f, 1, 2};
    posenc_load_error err;
    const char *range = "a dump needs n_tok, n_head and head_dim (or table_dim) >= 1 and a dtype "
                        "F32, F16 or BF16";
    posenc_check_input in = {.dtype = POSENC_DTYPE_F32, .n_tok = 2, .n_head = 1, .head_dim = 2,
                             .pos = pos, .x = v, .y = v};
    CHECK(posenc_dump_save(NULL, &in, NULL, &err) == POSENC_ERR_NULL);
    CHECK(posenc_dump_save(path, NULL, NULL, &err) == POSENC_ERR_NULL);
    posenc_check_input b = in;
    b.pos = NULL;
    CHECK(posenc_dump_save(path, &b, NULL, &err) == POSENC_ERR_NULL);
    b = in;
    b.y = NULL;
    CHECK(posenc_dump_save(path, &b, NULL, &err) == POSENC_ERR_NULL);
    posenc_check_input tb = {.dtype = POSENC_DTYPE_F16, .n_tok = 2, .table_dim = 2, .pos = pos,
                             .cos = v, .sin = v};
    b = tb;
    b.sin = NULL;
    CHECK(posenc_dump_save(path, &b, NULL, &err) == POSENC_ERR_NULL);
    b = tb;
    b.cos = NULL;
    CHECK(posenc_dump_save(path, &b, NULL, &err) == POSENC_ERR_NULL);
    /* ranges */
    b = in;
    b.n_tok = 0;
    CHECK(posenc_dump_save(path, &b, NULL, &err) == POSENC_ERR_RANGE && !strcmp(err.detail, range));
    b = in;
    b.dtype = (posenc_dtype)3;
    CHECK(posenc_dump_save(path, &b, NULL, &err) == POSENC_ERR_RANGE && !strcmp(err.detail, range));
    b = in;
    b.n_head = 0;
    CHECK(posenc_dump_save(path, &b, NULL, &err) == POSENC_ERR_RANGE && !strcmp(err.detail, range));
    b = in;
    b.head_dim = 0;
    CHECK(posenc_dump_save(path, &b, NULL, &err) == POSENC_ERR_RANGE && !strcmp(err.detail, range));
    b = tb;
    b.table_dim = 0;
    CHECK(posenc_dump_save(path, &b, NULL, &err) == POSENC_ERR_RANGE && !strcmp(err.detail, range));
    /* metadata: a quote in a key, a brace in a value, a NULL value, 201 characters */
    const char *mw = "metadata strings must be short ASCII words";
    const char *m1[] = {"a\"b", "v", NULL};
    const char *m2[] = {"k", "{v}", NULL};
    const char *m3[] = {"k", NULL, NULL};
    char longs[202];
    memset(longs, 'a', 201);
    longs[201] = 0;
    const char *m4[] = {longs, "v", NULL};
    const char *m5[] = {"ok", "fine", "k\n", "v", NULL};
    CHECK(posenc_dump_save(path, &in, m1, &err) == POSENC_ERR_RANGE && !strcmp(err.detail, mw));
    CHECK(posenc_dump_save(path, &in, m2, &err) == POSENC_ERR_RANGE && !strcmp(err.detail, mw));
    CHECK(posenc_dump_save(path, &in, m3, &err) == POSENC_ERR_RANGE && !strcmp(err.detail, mw));
    CHECK(posenc_dump_save(path, &in, m4, &err) == POSENC_ERR_RANGE && !strcmp(err.detail, mw));
    CHECK(posenc_dump_save(path, &in, m5, &err) == POSENC_ERR_RANGE && !strcmp(err.detail, mw));
    longs[200] = 0; /* 200 characters of every class accepted */
    const char *m6[] = {longs, "AZaz09 .,:=_-/+", NULL};
    CHECK(posenc_dump_save(path, &in, m6, &err) == POSENC_OK);
    /* tables saved in F16 come back as the same (exact in F16) values */
    posenc_check_input got;
    CHECK(posenc_dump_save(path, &tb, NULL, &err) == POSENC_OK);
    CHECK(posenc_dump_load(path, &got, &err) == POSENC_OK);
    CHECK(got.table_dim == 2 && got.n_tok == 2 && got.pos[1] == 5 && got.cos[1] == -0.25f &&
          got.sin[3] == 2.0f && got.dtype == POSENC_DTYPE_F16);
    posenc_dump_free(&got);
    remove(path);
    /* where nothing can be written */
    CHECK(posenc_dump_save("/nonexistent-dir/d.safetensors", &in, NULL, &err) == POSENC_ERR_IO);
    CHECK(!strncmp(err.detail, "cannot write /nonexistent-dir/d.safetensors: ", 45));
    FILE *full = fopen("/dev/full", "wb");
    if (full) {
        fclose(full);
        CHECK(posenc_dump_save("/dev/full", &in, NULL, &err) == POSENC_ERR_IO);
        CHECK(!strncmp(err.detail, "cannot write /dev/full: ", 24));
    }
    /* the readers' arguments */
    CHECK(posenc_dump_read(NULL, &got, &err) == POSENC_ERR_NULL);
    CHECK(posenc_dump_read(stdin, NULL, &err) == POSENC_ERR_NULL);
    CHECK(posenc_dump_load(path, NULL, &err) == POSENC_ERR_NULL);
}

/* Every allocation of the dump writer and reader failing in turn
 * (tests/fault.h): each call says POSENC_ERR_NOMEM, or succeeds once no
 * allocation failed. */
TEST(allocation_failures)
{
    int64_t pos[12];
    float v[12 * 2 * 4];
    for (int i = 0; i < 12; i++)
        pos[i] = 3 * i;
    for (int i = 0; i < 96; i++)
        v[i] = (float)round_dt(urand(), POSENC_DTYPE_F32);
    posenc_check_input in = {.dtype = POSENC_DTYPE_F32, .n_tok = 12, .n_head = 2, .head_dim = 4,
                             .pos = pos, .x = v, .y = v};
    /* the dump written and read back, each allocation failing in turn */
    char path[64];
    snprintf(path, sizeof path, "/tmp/posenc_check_fault_%ld.safetensors", (long)getpid());
    const char *meta[] = {"k", "v", NULL};
    posenc_load_error err;
    int done = 0;
    for (long k = 0; k < 1000 && !done; k++) {
        alloc_failed = 0;
        alloc_countdown = k;
        posenc_status s = posenc_dump_save(path, &in, meta, &err);
        alloc_countdown = -1;
        done = !alloc_failed;
        CHECK(done ? s == POSENC_OK : s == POSENC_ERR_NOMEM && !strcmp(err.detail, "out of memory"));
    }
    CHECK(done);
    done = 0;
    for (long k = 0; k < 1000 && !done; k++) {
        posenc_check_input got;
        alloc_failed = 0;
        alloc_countdown = k;
        posenc_status s = posenc_dump_load(path, &got, &err);
        alloc_countdown = -1;
        done = !alloc_failed;
        if (s == POSENC_OK) {
            CHECK(done && got.n_tok == 12 && got.y[7] == v[7] && got.pos[11] == 33);
            posenc_dump_free(&got);
        } else {
            CHECK(!done && s == POSENC_ERR_NOMEM);
        }
    }
    CHECK(done);
    remove(path);
}

#ifdef POSENC_HAVE_JSON
/* The models loaded, kept to the end: a configuration's LongRoPE lists
 * point into its model. */
static posenc_model *loaded[16];
static size_t n_loaded;

static int load(const char *name, uint32_t layer, posenc_rope_config *out)
{
    char path[256];
    snprintf(path, sizeof path, "tests/data/%s.json", name);
    posenc_model *m = NULL;
    posenc_config_error err;
    int ok = n_loaded < sizeof loaded / sizeof loaded[0] && posenc_model_create(&m) == POSENC_OK &&
             posenc_model_from_config(path, NULL, m, &err) == POSENC_OK &&
             posenc_model_layer_rope_config(m, layer, out) == POSENC_OK;
    if (ok)
        loaded[n_loaded++] = m;
    else
        posenc_model_free(m);
    return ok;
}

/* The real configs: exact in three dtypes, and their own mistakes planted. */
TEST(real_configs)
{
    static const char *const NAMES[] = {"llama-3.1-8b", "gpt-neox-20b", "deepseek-v2-lite",
                                        "phi-4-mini", "llama-2-7b-dynamic", "gpt-oss-20b"};
    posenc_rope_config c, c2;
    posenc_rope r, r2;
    engine e;
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++) {
        CHECK(load(NAMES[i], 0, &c));
        rope_of(&c, 200001, &r);
        engine_of(&e, &r);
        for (int dt = 0; dt < 3; dt++) {
            dump d;
            make_dump(&d, &e, 40, 2, 200000, (posenc_dtype)dt);
            CHECK(check_dump(&c, &d, &res_) == POSENC_OK);
            if (!res_.match)
                fprintf(stderr, "%s dtype %d: max_ulp %g\n", NAMES[i], dt, res_.max_ulp);
            CHECK(res_.match);
            free_dump(&d);
        }
        /* the scaling left out (every fixture but gpt-neox has one) */
        if (c.scaling.type != POSENC_ROPE_DEFAULT) {
            c2 = c;
            CHECK(posenc_rope_scaling_init(&c2.scaling, POSENC_ROPE_DEFAULT) == POSENC_OK);
            rope_of(&c2, 200001, &r2);
            engine_of(&e, &r2);
            CHECK(planted(&c, &e, POSENC_DTYPE_F32, POSENC_CAUSE_SCALING, "what=none", 200000));
        }
        engine_of(&e, &r);
        e.f32_angle = 1;
        CHECK(planted(&c, &e, POSENC_DTYPE_F32, POSENC_CAUSE_ANGLE_PRECISION, "onset=", 200000));
        engine_of(&e, &r);
        e.pairs = e.table = !c.layout;
        CHECK(planted(&c, &e, POSENC_DTYPE_BF16, POSENC_CAUSE_LAYOUT_SWAPPED, "layout=", 200000));
    }
    /* DeepSeek-V2-Lite (interleaved, YaRN): cos/sin built for the half layout */
    CHECK(load("deepseek-v2-lite", 0, &c));
    CHECK_EQ_INT(c.layout, POSENC_LAYOUT_INTERLEAVED);
    rope_of(&c, 200001, &r);
    engine_of(&e, &r);
    e.table = POSENC_LAYOUT_HALF;
    CHECK(planted(&c, &e, POSENC_DTYPE_F32, POSENC_CAUSE_LAYOUT_MIXED,
                  "table=half pairs=interleaved", 200000));
    engine_of(&e, &r);
    e.round_pos_bf16 = 1;
    CHECK(planted(&c, &e, POSENC_DTYPE_F16, POSENC_CAUSE_DTYPE_ROUNDING, "what=positions-bf16",
                  200000));
    engine_of(&e, &r);
    e.round_freq_bf16 = 1;
    CHECK(planted(&c, &e, POSENC_DTYPE_BF16, POSENC_CAUSE_DTYPE_ROUNDING, "what=inv-freq-bf16",
                  200000));
    engine_of(&e, &r);
    e.offset = 1;
    CHECK(planted(&c, &e, POSENC_DTYPE_BF16, POSENC_CAUSE_POSITION_OFFSET, "c=1", 200000));
    /* Llama 2 dynamic NTK stretched for 8192 tokens instead of the sequence's 200001 */
    CHECK(load("llama-2-7b-dynamic", 0, &c));
    rope_of(&c, 8192, &r2);
    engine_of(&e, &r2);
    CHECK(planted(&c, &e, POSENC_DTYPE_F32, POSENC_CAUSE_SCALING, "what=dynamic factor=2 len=8192",
                  200000));
    /* Phi-4-mini: the short factors where the long ones belong */
    CHECK(load("phi-4-mini", 0, &c));
    rope_of(&c, 100, &r2);
    engine_of(&e, &r2);
    CHECK(planted(&c, &e, POSENC_DTYPE_F32, POSENC_CAUSE_LONGROPE_FACTORS, "set=short", 200000));
    /* gpt-oss: YaRN's attention factor left out */
    CHECK(load("gpt-oss-20b", 0, &c));
    rope_of(&c, 200001, &r);
    engine_of(&e, &r);
    e.gain = 1;
    CHECK(planted(&c, &e, POSENC_DTYPE_F32, POSENC_CAUSE_ATTN_FACTOR, "factor=1", 200000));
    /* Llama 3.1 on Llama 2's base */
    CHECK(load("llama-3.1-8b", 0, &c));
    c2 = c;
    c2.base = 10000;
    rope_of(&c2, 200001, &r2);
    engine_of(&e, &r2);
    CHECK(planted(&c, &e, POSENC_DTYPE_F16, POSENC_CAUSE_BASE, "base=10000", 200000));
}
#endif

int main(void)
{
    RUN(exact_plain_every_dtype);
    RUN(planted_plain);
    RUN(nothing_fits);
    RUN(sizes);
    RUN(tables);
    RUN(arguments);
    RUN(run_refusals);
    RUN(dump_roundtrip);
    RUN(dump_refusals);
    RUN(dump_save_refusals);
    RUN(allocation_failures);
#ifdef POSENC_HAVE_JSON
    RUN(real_configs);
    for (size_t i = 0; i < n_loaded; i++)
        posenc_model_free(loaded[i]);
#else
    check_skip(FILE_, 1, "the real-config checks (the config reader)", "libjansson-dev");
#endif
    return check_summary(FILE_);
}
