/* test_mrope.c - M-RoPE (Qwen2-VL contiguous sections, Qwen3-VL interleaved
 * rule), its position-id rule, and the vision tower's 2D RoPE:
 *   - the pair-to-axis tables against hand-written ones;
 *   - the single-vector references against golden vectors computed the
 *     Hugging Face way at 60 digits (tools/gen_rope_golden.py --mrope), and
 *     pair by pair against plain RoPE at the pair's axis position;
 *   - every tensor path (each instruction set, storage type, layout,
 *     direction, cache or not, in place or not, threads) against the
 *     single-vector reference, bit for bit, on poisoned buffers;
 *   - the position ids on hand-worked sequences. */
#include "check.h"
#include "posenc.h"
#include "kernels.h"

#include <stdint.h>
#include <stdlib.h>

#define IL POSENC_LAYOUT_INTERLEAVED
#define HALF POSENC_LAYOUT_HALF

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Du;
}
static float rng_val(void) /* in [-2, 2], never exactly 0 */
{
    float v = (float)((double)(rng_next() >> 11) * 0x1p-53 * 4.0 - 2.0);
    return v == 0.0f ? 0.5f : v;
}
static size_t rng_below(size_t n) { return (size_t)(rng_next() % n); }

static const char *const dtype_names[3] = {"f32", "bf16", "f16"};

/* The public call, or the per-ISA hook (isa >= 0), with the old positional
 * arguments packed into posenc_mrope_qk_args. */
#define PUBLIC (-100)
/* The pool of the instruction-set calls (NULL: threads started in the
 * call), which use threads for 64 Ki elements each or more: far less than
 * the library's own rule, so that small tensors run on several threads. */
static posenc_pool *test_pool;
#define TEST_MIN_ELEMS 65536u
static posenc_status mq_isa(int isa, const posenc_rope *r, const posenc_mrope *m,
                            const posenc_rope_cache *cache, posenc_dtype dt, size_t n,
                            const int64_t *pt, const int64_t *ph, const int64_t *pw,
                            const posenc_rope_view *q, const posenc_rope_view *k, int inverse,
                            unsigned threads)
{
    posenc_mrope_qk_args a = {.base = {.rope = r,
                                       .cache = cache,
                                       .dtype = dt,
                                       .n_tok = n,
                                       .pos = pt,
                                       .direction = inverse ? POSENC_INVERSE : POSENC_FORWARD,
                                       .n_threads = threads},
                              .mrope = m,
                              .pos_h = ph,
                              .pos_w = pw};
    if (q)
        a.base.q = *q;
    if (k)
        a.base.k = *k;
    return isa == PUBLIC ? posenc_mrope_qk(&a)
                         : posenc__mrope_qk_run(isa, &a, test_pool, TEST_MIN_ELEMS);
}

/* A view of n_head heads, tokens outer, in place or from src. */
static posenc_rope_view view_of(void *dst, const void *src, size_t n_head, size_t ts, size_t hs,
                                size_t sts, size_t shs)
{
    posenc_rope_view v = {.dst = dst, .src = src, .n_head = n_head, .tok_stride = ts,
                          .head_stride = hs, .src_tok_stride = sts, .src_head_stride = shs};
    return v;
}

/* ---- the pair-to-axis rules ------------------------------------------------------ */

TEST(axis_tables_by_hand)
{
    posenc_mrope m;
    const uint32_t q2[3] = {16, 24, 24};
    CHECK(posenc_mrope_init(&m, 64, q2, POSENC_MROPE_CONTIGUOUS) == POSENC_OK);
    int bad = 0;
    for (int k = 0; k < 64; k++)
        bad += m.axis[k] != (k < 16 ? 0 : k < 40 ? 1 : 2);
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(m.n_pairs, 64);
    /* Qwen3-VL [24, 20, 20]: T H W repeated for k < 60, then T T T T */
    const uint32_t q3[3] = {24, 20, 20};
    CHECK(posenc_mrope_init(&m, 64, q3, POSENC_MROPE_INTERLEAVED) == POSENC_OK);
    static const char want[] = "THWTHWTHWTHWTHWTHWTHWTHWTHWTHWTHWTHWTHWTHWTHWTHWTHWTHWTHWTHWTTTT";
    bad = 0;
    for (int k = 0; k < 64; k++)
        bad += "THW"[m.axis[k]] != want[k];
    CHECK_EQ_INT(bad, 0);
    /* a small one: [4, 2, 2] over 8 pairs: T H W T H W T T */
    const uint32_t s8[3] = {4, 2, 2};
    CHECK(posenc_mrope_init(&m, 8, s8, POSENC_MROPE_INTERLEAVED) == POSENC_OK);
    static const uint8_t w8[8] = {0, 1, 2, 0, 1, 2, 0, 0};
    CHECK(memcmp(m.axis, w8, 8) == 0);
    /* sections of zero are fine (2D RoPE has no temporal pairs) */
    const uint32_t z[3] = {0, 8, 0};
    CHECK(posenc_mrope_init(&m, 8, z, POSENC_MROPE_CONTIGUOUS) == POSENC_OK);
    CHECK(m.axis[0] == 1 && m.axis[7] == 1);
    /* errors, and *m untouched */
    posenc_mrope keep = m;
    CHECK(posenc_mrope_init(NULL, 64, q2, POSENC_MROPE_CONTIGUOUS) == POSENC_ERR_NULL);
    CHECK(posenc_mrope_init(&m, 64, NULL, POSENC_MROPE_CONTIGUOUS) == POSENC_ERR_NULL);
    CHECK(posenc_mrope_init(&m, 0, q2, POSENC_MROPE_CONTIGUOUS) == POSENC_ERR_DIM);
    CHECK(posenc_mrope_init(&m, 513, q2, POSENC_MROPE_CONTIGUOUS) == POSENC_ERR_DIM);
    CHECK(posenc_mrope_init(&m, 63, q2, POSENC_MROPE_CONTIGUOUS) == POSENC_ERR_RANGE);
    CHECK(posenc_mrope_init(&m, 64, q2, (posenc_mrope_rule)3) == POSENC_ERR_RANGE);
    /* [16, 24, 24] interleaved: only 21 pairs k = 1 mod 3 below 64 */
    CHECK(posenc_mrope_init(&m, 64, q2, POSENC_MROPE_INTERLEAVED) == POSENC_ERR_RANGE);
    const uint32_t huge[3] = {0xFFFFFFFFu, 0xFFFFFFFFu, 66};
    CHECK(posenc_mrope_init(&m, 64, huge, POSENC_MROPE_CONTIGUOUS) == POSENC_ERR_RANGE);
    CHECK(memcmp(&m, &keep, sizeof m) == 0);
    CHECK(strcmp(posenc_mrope_axis_name(POSENC_AXIS_T), "t") == 0);
    CHECK(strcmp(posenc_mrope_axis_name(POSENC_AXIS_W), "w") == 0);
    CHECK(strcmp(posenc_mrope_axis_name((posenc_mrope_axis)3), "unknown") == 0);
    CHECK(strcmp(posenc_mrope_rule_name(POSENC_MROPE_INTERLEAVED), "interleaved") == 0);
    CHECK(strcmp(posenc_mrope_rule_name(POSENC_MROPE_CONTIGUOUS), "contiguous") == 0);
    CHECK(strcmp(posenc_mrope_rule_name((posenc_mrope_rule)9), "unknown") == 0);
}

/* ---- golden vectors (the Hugging Face computation at 60 digits) ------------------ */

#define GOLDEN_PATH "tests/data/mrope_golden.txt"

static int read_doubles(FILE *f, const char *tag, double *v, uint32_t n)
{
    char word[16];
    if (fscanf(f, "%15s", word) != 1 || strcmp(word, tag) != 0)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (fscanf(f, "%lf", &v[i]) != 1)
            return 0;
    return 1;
}

TEST(golden_vectors)
{
    FILE *f = fopen(GOLDEN_PATH, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[512];
    CHECK(fgets(line, sizeof line, f) && strcmp(line, "posenc-mrope-golden 1\n") == 0);
    int cases = 0, total = -1, bad = 0;
    double worst64 = 0, worst32 = 0;
    for (;;) {
        int c = fgetc(f);
        if (c == EOF)
            break;
        if (c == '#' || c == '\n') {
            if (c == '#' && !fgets(line, sizeof line, f))
                break;
            continue;
        }
        ungetc(c, f);
        char word[16], name[64], kind[16], layout[16], rule[16];
        if (fscanf(f, "%15s", word) != 1)
            break;
        if (strcmp(word, "total") == 0) {
            CHECK(fscanf(f, "%d", &total) == 1);
            break;
        }
        unsigned D, s0, s1, s2;
        double base;
        long long p0, p1, p2;
        int inverse;
        CHECK(strcmp(word, "case") == 0);
        CHECK(fscanf(f, "%63s %15s %u %lf %15s %15s %u %u %u %lld %lld %lld %d", name, kind, &D,
                     &base, layout, rule, &s0, &s1, &s2, &p0, &p1, &p2, &inverse) == 13);
        double x[1024], y[1024], got[1024];
        float xf[1024];
        CHECK(D <= 1024 && read_doubles(f, "x", x, D) && read_doubles(f, "y", y, D));
        posenc_layout lay = strcmp(layout, "half") == 0 ? HALF : IL;
        posenc_rope r;
        posenc_mrope m;
        if (strcmp(kind, "rope2d") == 0) {
            CHECK(posenc_rope2d_init(&r, &m, D, base, lay) == POSENC_OK);
            CHECK(m.section[0] == s0 && m.section[1] == s1 && m.section[2] == s2);
        } else {
            const uint32_t sec[3] = {s0, s1, s2};
            CHECK(posenc_rope_init(&r, D, D, base, lay) == POSENC_OK);
            CHECK(posenc_mrope_init(&m, D / 2, sec,
                                    strcmp(rule, "interleaved") == 0 ? POSENC_MROPE_INTERLEAVED
                                                                     : POSENC_MROPE_CONTIGUOUS) ==
                  POSENC_OK);
        }
        memcpy(got, x, D * sizeof(double));
        for (unsigned i = 0; i < D; i++)
            xf[i] = (float)x[i];
        if (strcmp(kind, "rope2d") == 0) {
            CHECK(p0 == p1);
            CHECK(posenc_rope2d_vec_f64(&r, &m, p1, p2, inverse, got) == POSENC_OK);
            CHECK(posenc_rope2d_vec_f32(&r, &m, p1, p2, inverse, xf) == POSENC_OK);
        } else {
            CHECK(posenc_mrope_vec_f64(&r, &m, p0, p1, p2, inverse, got) == POSENC_OK);
            CHECK(posenc_mrope_vec_f32(&r, &m, p0, p1, p2, inverse, xf) == POSENC_OK);
        }
        for (unsigned i = 0; i < D; i++) {
            /* |x| <= 1 per element, each output a sum of two products: the
             * double path is a few ulps of 1, the float one a few of 2^-24 */
            double e64 = fabs(got[i] - y[i]), e32 = fabs((double)xf[i] - y[i]);
            worst64 = fmax(worst64, e64);
            worst32 = fmax(worst32, e32);
            if ((e64 > 1e-15 || e32 > 3e-7) && bad++ < 5)
                fprintf(stderr, "%s elem %u: f64 %.17g f32 %.9g want %.17g\n", name, i, got[i],
                        xf[i], y[i]);
        }
        cases++;
    }
    CHECK(fgetc(f) == '\n' && fgetc(f) == EOF); /* the whole file was read */
    fclose(f);
    CHECK_EQ_INT(cases, total);
    CHECK(cases >= 12);
    CHECK_EQ_INT(bad, 0);
    printf("mrope: %d golden cases, worst |error| f64 %.2g, f32 %.2g\n", cases, worst64,
           worst32);
}

/* ---- the references against plain RoPE ------------------------------------------- */

/* With t = h = w, M-RoPE is plain RoPE, bit for bit; and pair by pair, a
 * vector with one nonzero pair turns exactly as plain RoPE at that pair's
 * axis position. */
TEST(reference_is_plain_rope_per_pair)
{
    static const struct {
        uint32_t hd, rd, s[3];
        posenc_mrope_rule rule;
    } cfgs[] = {{128, 128, {16, 24, 24}, POSENC_MROPE_CONTIGUOUS},
                {128, 128, {24, 20, 20}, POSENC_MROPE_INTERLEAVED},
                {96, 64, {8, 12, 12}, POSENC_MROPE_CONTIGUOUS},
                {80, 80, {14, 13, 13}, POSENC_MROPE_INTERLEAVED}};
    int bad = 0;
    for (size_t ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++) {
        for (int layout = 0; layout < 2; layout++) {
            posenc_rope r;
            posenc_mrope m;
            CHECK(posenc_rope_init(&r, cfgs[ci].hd, cfgs[ci].rd, 1000000.0,
                                   (posenc_layout)layout) == POSENC_OK);
            r.attn_factor = 1.25; /* carried through both */
            CHECK(posenc_mrope_init(&m, cfgs[ci].rd / 2, cfgs[ci].s, cfgs[ci].rule) == POSENC_OK);
            uint32_t hd = cfgs[ci].hd, P = cfgs[ci].rd / 2;
            for (int rep = 0; rep < 6; rep++) {
                int64_t p[3];
                for (int a = 0; a < 3; a++)
                    p[a] = rep < 3 ? (int64_t)rng_below(5000) : (int64_t)rng_below(2147483648u);
                int inv = rep & 1;
                /* t = h = w: plain */
                float a32[128], b32[128];
                double a64[128], b64[128];
                for (uint32_t i = 0; i < hd; i++) {
                    a32[i] = b32[i] = rng_val();
                    a64[i] = b64[i] = a32[i];
                }
                CHECK(posenc_mrope_vec_f32(&r, &m, p[0], p[0], p[0], inv, a32) == POSENC_OK);
                CHECK(posenc_rope_vec_f32(&r, p[0], inv, b32) == POSENC_OK);
                bad += memcmp(a32, b32, hd * sizeof(float)) != 0;
                CHECK(posenc_mrope_vec_f64(&r, &m, p[0], p[0], p[0], inv, a64) == POSENC_OK);
                CHECK(posenc_rope_vec_f64(&r, p[0], inv, b64) == POSENC_OK);
                bad += memcmp(a64, b64, hd * sizeof(double)) != 0;
                /* pair by pair at the axis' position */
                for (uint32_t k = 0; k < P; k++) {
                    uint32_t j0, j1;
                    CHECK(posenc_pair_index(k, 2 * P, (posenc_layout)layout, &j0, &j1) ==
                          POSENC_OK);
                    for (uint32_t i = 0; i < hd; i++)
                        a64[i] = b64[i] = 0.0;
                    a64[j0] = b64[j0] = 0.75;
                    a64[j1] = b64[j1] = -1.5;
                    for (uint32_t i = 2 * P; i < hd; i++)
                        a64[i] = b64[i] = 3.0; /* pass-through */
                    CHECK(posenc_mrope_vec_f64(&r, &m, p[0], p[1], p[2], inv, a64) == POSENC_OK);
                    CHECK(posenc_rope_vec_f64(&r, p[m.axis[k]], inv, b64) == POSENC_OK);
                    bad += a64[j0] != b64[j0] || a64[j1] != b64[j1];
                    for (uint32_t i = 2 * P; i < hd; i++)
                        bad += a64[i] != 3.0;
                }
            }
        }
    }
    CHECK_EQ_INT(bad, 0);
}

TEST(reference_errors)
{
    posenc_rope r;
    posenc_mrope m;
    const uint32_t s[3] = {16, 24, 24};
    CHECK(posenc_rope_init(&r, 128, 128, 10000.0, HALF) == POSENC_OK);
    CHECK(posenc_mrope_init(&m, 64, s, POSENC_MROPE_CONTIGUOUS) == POSENC_OK);
    double x[128], x0[128];
    float y[128];
    for (int i = 0; i < 128; i++)
        x[i] = x0[i] = y[i] = 1.0f;
    CHECK(posenc_mrope_vec_f64(NULL, &m, 1, 2, 3, 0, x) == POSENC_ERR_NULL);
    CHECK(posenc_mrope_vec_f64(&r, NULL, 1, 2, 3, 0, x) == POSENC_ERR_NULL);
    CHECK(posenc_mrope_vec_f64(&r, &m, 1, 2, 3, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_mrope_vec_f32(&r, &m, 1, 2, 3, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_mrope_vec_f64(&r, &m, 1, -2, 3, 0, x) == POSENC_ERR_POS);
    CHECK(posenc_mrope_vec_f64(&r, &m, 1, 2, 3, (posenc_direction)2, x) == POSENC_ERR_RANGE);
    CHECK(posenc_rope2d_vec_f32(&r, &m, 1, 2, (posenc_direction)-1, y) == POSENC_ERR_RANGE);
    CHECK(posenc_mrope_vec_f32(&r, &m, 1, 2, POSENC_MAX_POS + 1, 0, y) == POSENC_ERR_POS);
    posenc_rope bad = r;
    bad.layout = (posenc_layout)5;
    CHECK(posenc_mrope_vec_f64(&bad, &m, 1, 2, 3, 0, x) == POSENC_ERR_LAYOUT);
    CHECK(posenc_rope_init(&bad, 128, 96, 10000.0, HALF) == POSENC_OK);
    CHECK(posenc_mrope_vec_f64(&bad, &m, 1, 2, 3, 0, x) == POSENC_ERR_RANGE); /* 48 pairs */
    posenc_mrope mm = m;
    mm.axis[3] = 3;
    CHECK(posenc_mrope_vec_f32(&r, &mm, 1, 2, 3, 0, y) == POSENC_ERR_RANGE);
    mm = m;
    mm.axis[3] = 2; /* counts no longer match the sections */
    CHECK(posenc_mrope_vec_f32(&r, &mm, 1, 2, 3, 0, y) == POSENC_ERR_RANGE);
    x[5] = NAN;
    CHECK(posenc_mrope_vec_f64(&r, &m, 1, 2, 3, 0, x) == POSENC_ERR_NOT_FINITE);
    x[5] = 1.0;
    CHECK(memcmp(x, x0, sizeof x) == 0);
    y[100] = INFINITY;
    CHECK(posenc_mrope_vec_f32(&r, &m, 1, 2, 3, 0, y) == POSENC_ERR_NOT_FINITE);
    CHECK(y[0] == 1.0f);
}

/* The rotated dot product depends on the offsets per axis only, and is
 * plain RoPE's when every axis agrees. */
TEST(dot_product)
{
    posenc_rope r;
    posenc_mrope m;
    const uint32_t s[3] = {4, 6, 6};
    CHECK(posenc_rope_init(&r, 32, 32, 10000.0, HALF) == POSENC_OK);
    CHECK(posenc_mrope_init(&m, 16, s, POSENC_MROPE_CONTIGUOUS) == POSENC_OK);
    double q[32], k[32];
    for (int i = 0; i < 32; i++) {
        q[i] = rng_val();
        k[i] = rng_val();
    }
    const int64_t a[3] = {10, 20, 30}, b[3] = {7, 3, 30}, a2[3] = {110, 37, 1000},
                  b2[3] = {107, 20, 1000}, same[3] = {9, 9, 9}, zero[3] = {0, 0, 0};
    double d1, d2, d3, want;
    CHECK(posenc_mrope_vec_dot_f64(&r, &m, a, b, q, k, &d1) == POSENC_OK);
    CHECK(posenc_mrope_vec_dot_f64(&r, &m, a2, b2, q, k, &d2) == POSENC_OK);
    CHECK_NEAR(d1, d2, 1e-12);
    CHECK(posenc_mrope_vec_dot_f64(&r, &m, same, zero, q, k, &d3) == POSENC_OK);
    CHECK(posenc_rope_vec_dot_f64(&r, 9, 0, q, k, &want) == POSENC_OK);
    CHECK_NEAR(d3, want, 1e-12);
    CHECK(fabs(d1 - d3) > 1e-6);
    CHECK(posenc_mrope_vec_dot_f64(&r, &m, NULL, b, q, k, &d1) == POSENC_ERR_NULL);
    CHECK(posenc_mrope_vec_dot_f64(&r, &m, a, b, q, k, NULL) == POSENC_ERR_NULL);
    /* every pointer is checked, each on its own */
    CHECK(posenc_mrope_vec_dot_f64(NULL, &m, a, b, q, k, &d1) == POSENC_ERR_NULL);
    CHECK(posenc_mrope_vec_dot_f64(&r, NULL, a, b, q, k, &d1) == POSENC_ERR_NULL);
    CHECK(posenc_mrope_vec_dot_f64(&r, &m, a, NULL, q, k, &d1) == POSENC_ERR_NULL);
    CHECK(posenc_mrope_vec_dot_f64(&r, &m, a, b, NULL, k, &d1) == POSENC_ERR_NULL);
    CHECK(posenc_mrope_vec_dot_f64(&r, &m, a, b, q, NULL, &d1) == POSENC_ERR_NULL);
    const int64_t neg[3] = {1, -1, 1};
    CHECK(posenc_mrope_vec_dot_f64(&r, &m, a, neg, q, k, &d1) == POSENC_ERR_POS);
    CHECK(posenc_mrope_vec_dot_f64(&r, &m, neg, b, q, k, &d1) == POSENC_ERR_POS);
    posenc_rope bad = r;
    bad.rotary_dim = 3;
    CHECK(posenc_mrope_vec_dot_f64(&bad, &m, a, b, q, k, &d1) == POSENC_ERR_RANGE);
}

/* ---- the tensor kernel against the reference, every path ------------------------- */

typedef struct mcase {
    int isa, dt, in_place, use_cache, inverse, text_only, twod;
    size_t n_tok, nq, nk, gap;
    unsigned threads;
} mcase;

#define POISON 0xA5

/* q and k are separate buffers [n_tok][n][hd + gap]; positions from a
 * random segment sequence (runs, repeats, grids), or random. */
static int run_case(const mcase *c, const posenc_rope *r, const posenc_mrope *m,
                    const posenc_rope_cache *cache, const int64_t *pt, const int64_t *ph,
                    const int64_t *pw)
{
    size_t es = posenc__dtype_size(c->dt), hd = r->head_dim, hs = hd + c->gap;
    size_t nh[2] = {c->nq, c->nk}, ok = 1;
    uint8_t *dst[2], *want[2], *src[2];
    posenc_rope_view v[2];
    for (int i = 0; i < 2; i++) {
        size_t bytes = c->n_tok * nh[i] * hs * es + 8;
        dst[i] = malloc(bytes);
        want[i] = malloc(bytes);
        src[i] = malloc(bytes);
        memset(dst[i], POISON, bytes);
        memset(src[i], POISON ^ 0x3C, bytes);
        uint8_t *fill = c->in_place ? dst[i] : src[i];
        for (size_t t = 0; t < c->n_tok; t++)
            for (size_t h = 0; h < nh[i]; h++)
                for (size_t e = 0; e < hd; e++)
                    posenc__store(c->dt, fill, (t * nh[i] + h) * hs + e, rng_val());
        memcpy(want[i], dst[i], bytes);
        v[i] = view_of(dst[i], c->in_place ? NULL : src[i], nh[i], nh[i] * hs, hs, nh[i] * hs,
                       hs);
        /* the reference, head by head */
        for (size_t t = 0; t < c->n_tok; t++)
            for (size_t h = 0; h < nh[i]; h++) {
                const uint8_t *sp = fill + ((t * nh[i] + h) * hs) * es;
                uint8_t *dp = want[i] + ((t * nh[i] + h) * hs) * es;
                float x[POSENC_ROPE_MAX_HEAD_DIM];
                for (size_t e = 0; e < hd; e++)
                    x[e] = posenc__load(c->dt, sp, e);
                int64_t a = pt[t], b = c->text_only ? a : ph[t], w = c->text_only ? a : pw[t];
                if (posenc_mrope_vec_f32(r, m, a, b, w,
                                         c->inverse ? POSENC_INVERSE : POSENC_FORWARD,
                                         x) != POSENC_OK)
                    ok = 0;
                for (size_t e = 0; e < hd; e++)
                    posenc__store(c->dt, dp, e, x[e]);
            }
        (void)bytes;
    }
    posenc_status st;
    if (c->twod && c->isa == posenc__isa_selected()) {
        posenc_mrope_qk_args a2 = {.base = {.rope = r,
                                            .cache = cache,
                                            .dtype = (posenc_dtype)c->dt,
                                            .n_tok = c->n_tok,
                                            .pos = ph,
                                            .direction = c->inverse ? POSENC_INVERSE
                                                                    : POSENC_FORWARD,
                                            .n_threads = c->threads},
                                   .mrope = m,
                                   .pos_w = pw};
        if (c->nq)
            a2.base.q = v[0];
        if (c->nk)
            a2.base.k = v[1];
        st = posenc_rope2d_qk(&a2);
    } else {
        st = mq_isa(c->isa, r, m, cache, (posenc_dtype)c->dt, c->n_tok, pt,
                    c->text_only ? NULL : ph, c->text_only ? NULL : pw, c->nq ? &v[0] : NULL,
                    c->nk ? &v[1] : NULL, c->inverse, c->threads);
    }
    ok = ok && st == POSENC_OK;
    for (int i = 0; i < 2; i++) {
        size_t bytes = c->n_tok * nh[i] * hs * es + 8;
        if (nh[i] && memcmp(dst[i], want[i], bytes) != 0)
            ok = 0;
        free(dst[i]);
        free(want[i]);
        free(src[i]);
    }
    if (!ok)
        fprintf(stderr,
                "case isa %s dt %s hd %zu layout %d n_tok %zu q %zu k %zu gap %zu in_place %d "
                "cache %d inverse %d text %d 2d %d threads %u: status %d\n",
                posenc__isa_name(c->isa), dtype_names[c->dt], hd, (int)r->layout, c->n_tok,
                c->nq, c->nk, c->gap, c->in_place, c->use_cache, c->inverse, c->text_only,
                c->twod, c->threads, (int)st);
    return (int)ok;
}

/* Positions of n tokens from random segments (text runs, images, videos),
 * truncated to n. */
static size_t random_positions(size_t n, int64_t *pt, int64_t *ph, int64_t *pw)
{
    posenc_mrope_segment seg[16];
    size_t ns = 0, got = 0;
    for (; ns < 16; ns++) {
        memset(&seg[ns], 0, sizeof seg[ns]);
        int kind = (int)rng_below(3);
        seg[ns].kind = (posenc_mrope_kind)kind;
        seg[ns].n = 1 + (uint32_t)rng_below(7);
        seg[ns].t = kind == 2 ? 1 + (uint32_t)rng_below(3) : 1;
        seg[ns].h = 2 * (1 + (uint32_t)rng_below(4));
        seg[ns].w = 2 * (1 + (uint32_t)rng_below(5));
        seg[ns].seconds_per_grid = 1.0;
    }
    static int64_t a[4096], b[4096], c[4096];
    if (posenc_mrope_positions(seg, ns, 2, 2, a, b, c, 4096, &got) != POSENC_OK)
        return 0;
    int64_t off = rng_below(3) ? 0 : (int64_t)rng_below(1000);
    for (size_t i = 0; i < n; i++) {
        size_t j = i % got;
        pt[i] = a[j] + off;
        ph[i] = b[j] + off;
        pw[i] = c[j] + off;
    }
    return n;
}

TEST(every_path_against_reference)
{
    static const struct {
        uint32_t hd, rd, s[3];
        posenc_mrope_rule rule;
        int twod;
    } cfgs[] = {{128, 128, {16, 24, 24}, POSENC_MROPE_CONTIGUOUS, 0},
                {128, 128, {24, 20, 20}, POSENC_MROPE_INTERLEAVED, 0},
                {96, 64, {8, 12, 12}, POSENC_MROPE_CONTIGUOUS, 0},
                {9, 6, {1, 1, 1}, POSENC_MROPE_INTERLEAVED, 0},
                {80, 80, {0, 20, 20}, POSENC_MROPE_CONTIGUOUS, 1},
                {16, 16, {0, 4, 4}, POSENC_MROPE_CONTIGUOUS, 1}};
    int runs = 0, bad = 0;
    enum { NT = 40 };
    int64_t pt[NT], ph[NT], pw[NT];
    for (int isa = 0; isa < POSENC__ISA_N; isa++) {
        if (!posenc__isa_available(isa)) {
            printf("mrope: %s not available here, not run\n", posenc__isa_name(isa));
            continue;
        }
        for (size_t ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++) {
            for (int layout = 0; layout < 2; layout++) {
                posenc_rope r;
                posenc_mrope m;
                if (cfgs[ci].twod) {
                    CHECK(posenc_rope2d_init(&r, &m, cfgs[ci].hd, 10000.0,
                                             (posenc_layout)layout) == POSENC_OK);
                } else {
                    CHECK(posenc_rope_init(&r, cfgs[ci].hd, cfgs[ci].rd, 1000000.0,
                                           (posenc_layout)layout) == POSENC_OK);
                    CHECK(posenc_mrope_init(&m, cfgs[ci].rd / 2, cfgs[ci].s, cfgs[ci].rule) ==
                          POSENC_OK);
                }
                posenc_rope_cache *cache = NULL;
                CHECK(posenc_rope_cache_create(&r, 1200, &cache) == POSENC_OK);
                for (int d = 0; d < 3; d++) {
                    for (int variant = 0; variant < 8; variant++) {
                        mcase c = {0};
                        c.isa = isa;
                        c.dt = d;
                        c.in_place = variant & 1;
                        c.use_cache = (variant >> 1) & 1;
                        c.inverse = (variant >> 2) & 1;
                        c.text_only = !cfgs[ci].twod && rng_below(5) == 0;
                        c.twod = cfgs[ci].twod;
                        c.n_tok = 1 + rng_below(NT);
                        c.nq = 1 + rng_below(4);
                        c.nk = rng_below(4) == 0 ? 0 : 1 + rng_below(2);
                        c.gap = rng_below(3);
                        c.threads = 1;
                        size_t roll = rng_below(4);
                        if (roll == 3) { /* text only, as three equal rows: whole rows */
                            random_positions(c.n_tok, pt, ph, pw);
                            memcpy(ph, pt, sizeof pt);
                            memcpy(pw, pt, sizeof pt);
                        } else if (roll == 0) {
                            for (size_t t = 0; t < c.n_tok; t++) {
                                pt[t] = (int64_t)rng_below(1100);
                                ph[t] = rng_below(2) ? pt[t] : (int64_t)rng_below(1100);
                                pw[t] = (int64_t)rng_below(1100);
                            }
                        } else {
                            random_positions(c.n_tok, pt, ph, pw);
                        }
                        if (c.twod)
                            memcpy(pt, ph, sizeof pt); /* rows on the t axis too */
                        bad += !run_case(&c, &r, &m, c.use_cache ? cache : NULL, pt, ph, pw);
                        runs++;
                    }
                }
                posenc_rope_cache_free(cache);
            }
        }
    }
    CHECK(runs >= 6 * 2 * 3 * 8);
    CHECK_EQ_INT(bad, 0);
}

/* Enough work for several threads: the same bytes whatever the count, with
 * threads started in the call and with a pool (of as many threads, or of 4
 * of which the call may use fewer). */
TEST(threads_against_reference)
{
    posenc_rope r;
    posenc_mrope m;
    const uint32_t s[3] = {16, 24, 24};
    CHECK(posenc_rope_init(&r, 128, 128, 1000000.0, HALF) == POSENC_OK);
    CHECK(posenc_mrope_init(&m, 64, s, POSENC_MROPE_CONTIGUOUS) == POSENC_OK);
    posenc_rope_cache *cache = NULL;
    CHECK(posenc_rope_cache_create(&r, 1200, &cache) == POSENC_OK);
    enum { NT = 203 };
    static int64_t pt[NT], ph[NT], pw[NT];
    random_positions(NT, pt, ph, pw);
    static const unsigned threads[] = {2, 3, 7};
    int bad = 0;
    for (int use_pool = 0; use_pool < 2; use_pool++) {
    for (int i = 0; i < 6; i++) {
        mcase c = {0};
        c.isa = posenc__isa_selected();
        c.dt = i % 2 ? POSENC_DTYPE_BF16 : POSENC_DTYPE_F32;
        c.in_place = i % 3 != 0;
        c.use_cache = i < 3;
        c.inverse = i == 4;
        c.n_tok = NT;
        c.nq = 16;
        c.nk = 4;
        c.gap = i % 2;
        c.threads = threads[i % 3];
        test_pool = NULL;
        if (use_pool)
            CHECK(posenc_pool_create(i < 3 ? c.threads : 4, &test_pool) == POSENC_OK);
        bad += !run_case(&c, &r, &m, c.use_cache ? cache : NULL, pt, ph, pw);
        if (test_pool) /* again: the same slices on the same threads */
            bad += !run_case(&c, &r, &m, c.use_cache ? cache : NULL, pt, ph, pw);
        posenc_pool_free(test_pool);
        test_pool = NULL;
    }
    }
    posenc_rope_cache_free(cache);
    CHECK_EQ_INT(bad, 0);
}

/* The public pool call: NULL pool is posenc_mrope_qk; a pool gives the
 * same bytes, text-only calls included. */
TEST(pool_call)
{
    posenc_rope r;
    posenc_mrope m;
    const uint32_t s[3] = {24, 20, 20};
    CHECK(posenc_rope_init(&r, 128, 128, 5000000.0, IL) == POSENC_OK);
    CHECK(posenc_mrope_init(&m, 64, s, POSENC_MROPE_INTERLEAVED) == POSENC_OK);
    enum { T = 400, H = 32, D = 128 }; /* 2 pool threads' worth */
    static float a[T * H * D], b[T * H * D];
    static int64_t pt[T], ph[T], pw[T];
    random_positions(T, pt, ph, pw);
    posenc_pool *p = NULL;
    CHECK(posenc_pool_create(2, &p) == POSENC_OK);
    for (int text = 0; text < 2; text++) {
        for (size_t e = 0; e < (size_t)T * H * D; e++)
            a[e] = b[e] = (float)((e * 7919u) % 2001u) / 1000.0f - 1.0f;
        posenc_mrope_qk_args x = {.base = {.rope = &r, .n_tok = T, .pos = pt,
                                           .q = posenc_rope_view_dense(a, H, D)},
                                  .mrope = &m, .pos_h = text ? NULL : ph,
                                  .pos_w = text ? NULL : pw};
        posenc_mrope_qk_args y = x;
        y.base.q = posenc_rope_view_dense(b, H, D);
        CHECK(posenc_mrope_qk_pool(&x, p) == POSENC_OK);
        CHECK(posenc_mrope_qk_pool(&y, NULL) == POSENC_OK);
        CHECK(memcmp(a, b, sizeof a) == 0);
        float v[D]; /* token 0, head 0 against the one-vector reference */
        for (size_t e = 0; e < D; e++)
            v[e] = (float)((e * 7919u) % 2001u) / 1000.0f - 1.0f;
        CHECK(posenc_mrope_vec_f32(&r, &m, pt[0], text ? pt[0] : ph[0], text ? pt[0] : pw[0],
                                   POSENC_FORWARD, v) == POSENC_OK);
        CHECK(memcmp(v, a, sizeof v) == 0);
    }
    posenc_pool_free(p);
}

/* Text only (one row) is plain RoPE: the same bytes as posenc_rope_qk. */
TEST(text_only_is_plain)
{
    posenc_rope r;
    posenc_mrope m;
    const uint32_t s[3] = {24, 20, 20};
    CHECK(posenc_rope_init(&r, 128, 128, 5000000.0, IL) == POSENC_OK);
    CHECK(posenc_mrope_init(&m, 64, s, POSENC_MROPE_INTERLEAVED) == POSENC_OK);
    enum { T = 17, H = 3, D = 128 };
    static float a[T * H * D], b[T * H * D], c[T * H * D];
    int64_t pos[T];
    for (int t = 0; t < T; t++)
        pos[t] = 100 + t * 3;
    for (int i = 0; i < T * H * D; i++)
        a[i] = b[i] = c[i] = rng_val();
    posenc_rope_view va = posenc_rope_view_dense(a, H, D), vb = posenc_rope_view_dense(b, H, D);
    posenc_rope_view vc = posenc_rope_view_dense(c, H, D);
    CHECK(mq_isa(PUBLIC, &r, &m, NULL, POSENC_DTYPE_F32, T, pos, NULL, NULL, &va, NULL, 0, 1) ==
          POSENC_OK);
    posenc_rope_qk_args pa = {.rope = &r, .n_tok = T, .pos = pos, .q = vb};
    CHECK(posenc_rope_qk(&pa) == POSENC_OK);
    CHECK(mq_isa(PUBLIC, &r, &m, NULL, POSENC_DTYPE_F32, T, pos, pos, pos, &vc, NULL, 0, 1) ==
          POSENC_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(memcmp(a, c, sizeof a) == 0);
}

TEST(kernel_errors_nothing_written)
{
    posenc_rope r;
    posenc_mrope m;
    const uint32_t s[3] = {16, 8, 8};
    CHECK(posenc_rope_init(&r, 64, 64, 10000.0, HALF) == POSENC_OK);
    CHECK(posenc_mrope_init(&m, 32, s, POSENC_MROPE_CONTIGUOUS) == POSENC_OK);
    enum { T = 4, D = 64 };
    float x[T * D], x0[T * D];
    for (int i = 0; i < T * D; i++)
        x[i] = x0[i] = rng_val();
    posenc_rope_view v = posenc_rope_view_dense(x, 1, D);
    int64_t p[T] = {0, 1, 2, 3}, bp[T] = {0, 1, -1, 3};
#define MQ(...) mq_isa(PUBLIC, __VA_ARGS__)
    CHECK(MQ(NULL, &m, NULL, POSENC_DTYPE_F32, T, p, p, p, &v, NULL, 0, 1) == POSENC_ERR_NULL);
    CHECK(MQ(&r, NULL, NULL, POSENC_DTYPE_F32, T, p, p, p, &v, NULL, 0, 1) == POSENC_ERR_NULL);
    CHECK(MQ(&r, &m, NULL, POSENC_DTYPE_F32, T, NULL, p, p, &v, NULL, 0, 1) == POSENC_ERR_NULL);
    CHECK(MQ(&r, &m, NULL, POSENC_DTYPE_F32, T, p, p, NULL, &v, NULL, 0, 1) == POSENC_ERR_NULL);
    CHECK(MQ(&r, &m, NULL, POSENC_DTYPE_F32, T, p, NULL, p, &v, NULL, 0, 1) == POSENC_ERR_NULL);
    CHECK(MQ(&r, &m, NULL, POSENC_DTYPE_F32, T, p, p, p, NULL, NULL, 0, 1) == POSENC_ERR_NULL);
    CHECK(MQ(&r, &m, NULL, (posenc_dtype)3, T, p, p, p, &v, NULL, 0, 1) == POSENC_ERR_RANGE);
    CHECK(MQ(&r, &m, NULL, POSENC_DTYPE_F32, 0, p, p, p, &v, NULL, 0, 1) == POSENC_ERR_RANGE);
    {
        posenc_mrope_qk_args a = {.base = {.rope = &r, .n_tok = T, .pos = p, .q = v,
                                           .direction = (posenc_direction)2},
                                  .mrope = &m, .pos_h = p, .pos_w = p};
        CHECK(posenc_mrope_qk(&a) == POSENC_ERR_RANGE); /* unknown direction */
    }
    CHECK(MQ(&r, &m, NULL, POSENC_DTYPE_F32, T, p, p, p, &v, NULL, 0, 65) == POSENC_ERR_RANGE);
    CHECK(MQ(&r, &m, NULL, POSENC_DTYPE_F32, T, p, bp, p, &v, NULL, 0, 1) == POSENC_ERR_POS);
    CHECK(MQ(&r, &m, NULL, POSENC_DTYPE_F32, T, p, p, bp, &v, NULL, 0, 1) == POSENC_ERR_POS);
    CHECK(MQ(&r, &m, NULL, POSENC_DTYPE_F32, T, bp, NULL, NULL, &v, NULL, 0, 1) == POSENC_ERR_POS);
    posenc_rope_view w = v;
    w.tok_stride = D - 1;
    CHECK(MQ(&r, &m, NULL, POSENC_DTYPE_F32, T, p, p, p, &w, NULL, 0, 1) == POSENC_ERR_RANGE);
    CHECK(MQ(&r, &m, NULL, POSENC_DTYPE_F32, T, p, p, p, &v, &w, 0, 1) == POSENC_ERR_RANGE);
    posenc_mrope mm = m;
    mm.n_pairs = 31;
    CHECK(MQ(&r, &mm, NULL, POSENC_DTYPE_F32, T, p, p, p, &v, NULL, 0, 1) == POSENC_ERR_RANGE);
    posenc_rope br = r;
    br.head_dim = 0;
    CHECK(MQ(&br, &m, NULL, POSENC_DTYPE_F32, T, p, p, p, &v, NULL, 0, 1) == POSENC_ERR_DIM);
    /* a cache: it must be r's, and cover every axis' position */
    posenc_rope_cache *cache = NULL;
    CHECK(posenc_rope_cache_create(&r, 3, &cache) == POSENC_OK);
    int64_t hi[T] = {0, 1, 2, 2};
    CHECK(MQ(&r, &m, cache, POSENC_DTYPE_F32, T, hi, hi, p, &v, NULL, 0, 1) == POSENC_ERR_POS);
    posenc_rope other;
    CHECK(posenc_rope_init(&other, 64, 64, 500000.0, HALF) == POSENC_OK);
    CHECK(MQ(&other, &m, cache, POSENC_DTYPE_F32, T, hi, hi, hi, &v, NULL, 0, 1) ==
          POSENC_ERR_RANGE);
    CHECK(mq_isa(-1, &r, &m, NULL, POSENC_DTYPE_F32, T, p, p, p, &v, NULL, 0, 1) ==
          POSENC_ERR_RANGE);
    CHECK(mq_isa(POSENC__ISA_N, &r, &m, NULL, POSENC_DTYPE_F32, T, p, p, p, &v, NULL, 0, 1) ==
          POSENC_ERR_RANGE);
    CHECK(posenc_mrope_qk(NULL) == POSENC_ERR_NULL);
    {
        posenc_mrope_qk_args a = {.base = {.rope = &r, .n_tok = T, .pos = p, .pos0 = 1, .q = v},
                                  .mrope = &m, .pos_h = p, .pos_w = p};
        CHECK(posenc_mrope_qk(&a) == POSENC_ERR_RANGE); /* pos0 with three rows */
    }
    CHECK(memcmp(x, x0, sizeof x) == 0);
    CHECK(MQ(&r, &m, cache, POSENC_DTYPE_F32, T, hi, hi, hi, &v, NULL, 0, 1) == POSENC_OK);
    CHECK(memcmp(x, x0, sizeof x) != 0);
    posenc_rope_cache_free(cache);
    {
        posenc_mrope_qk_args a = {.base = {.rope = &r, .n_tok = T, .q = v}, .mrope = &m,
                                  .pos_w = p};
        CHECK(posenc_rope2d_qk(&a) == POSENC_ERR_NULL); /* no rows */
        a.base.pos = p;
        a.pos_w = NULL;
        CHECK(posenc_rope2d_qk(&a) == POSENC_ERR_NULL); /* no columns */
        a.pos_w = p;
        a.pos_h = p;
        CHECK(posenc_rope2d_qk(&a) == POSENC_ERR_RANGE); /* the rows are base.pos */
        CHECK(posenc_rope2d_qk(NULL) == POSENC_ERR_NULL);
    }
#undef MQ
}

/* ---- position ids on hand-worked sequences ---------------------------------------- */

static posenc_mrope_segment text(uint32_t n)
{
    posenc_mrope_segment s = {POSENC_SEG_TEXT, n, 0, 0, 0, 0.0};
    return s;
}
static posenc_mrope_segment grid(posenc_mrope_kind kind, uint32_t t, uint32_t h, uint32_t w,
                                 double secs)
{
    posenc_mrope_segment s = {kind, 0, t, h, w, secs};
    return s;
}

/* Runs the rule and compares the three rows with the strings of numbers. */
static int rows_are(const posenc_mrope_segment *seg, size_t n_seg, uint32_t merge, uint32_t tps,
                    const char *want_t, const char *want_h, const char *want_w)
{
    int64_t r[3][128];
    size_t n = 0, cnt = 0;
    if (posenc_mrope_positions(seg, n_seg, merge, tps, NULL, NULL, NULL, 0, &cnt) != POSENC_OK)
        return 0;
    if (posenc_mrope_positions(seg, n_seg, merge, tps, r[0], r[1], r[2], 128, &n) != POSENC_OK ||
        n != cnt)
        return 0;
    const char *want[3] = {want_t, want_h, want_w};
    for (int a = 0; a < 3; a++) {
        const char *p = want[a];
        for (size_t i = 0; i < n; i++) {
            char *end;
            long long v = strtoll(p, &end, 10);
            if (end == p || v != r[a][i]) {
                fprintf(stderr, "row %d token %zu: got %lld, want %lld\n", a, i,
                        (long long)r[a][i], end == p ? -1LL : v);
                return 0;
            }
            p = end;
        }
        while (*p == ' ')
            p++;
        if (*p) /* more wanted than produced */
            return 0;
    }
    return 1;
}

TEST(positions_hand_worked)
{
    /* text only: 0 1 2 3 on every row */
    posenc_mrope_segment s1[] = {text(4)};
    CHECK(rows_are(s1, 1, 2, 0, "0 1 2 3", "0 1 2 3", "0 1 2 3"));
    /* the example of posenc.h: text 5, image 1x4x6 (2 x 3 after merging), text 3 */
    posenc_mrope_segment s2[] = {text(5), grid(POSENC_SEG_IMAGE, 1, 4, 6, 0), text(3)};
    CHECK(rows_are(s2, 3, 2, 0, "0 1 2 3 4 5 5 5 5 5 5 8 9 10",
                   "0 1 2 3 4 5 5 5 6 6 6 8 9 10", "0 1 2 3 4 5 6 7 5 6 7 8 9 10"));
    /* an image first: starts at 0; a tall one (3 x 2): next text at 0 + 3 */
    posenc_mrope_segment s3[] = {grid(POSENC_SEG_IMAGE, 1, 6, 4, 0), text(2)};
    CHECK(rows_are(s3, 2, 2, 0, "0 0 0 0 0 0 3 4", "0 0 1 1 2 2 3 4", "0 1 0 1 0 1 3 4"));
    /* two images with text between: 1 text, 2x2 image, 2 text, 2x4 image (merge 1) */
    posenc_mrope_segment s4[] = {text(1), grid(POSENC_SEG_IMAGE, 1, 2, 2, 0), text(2),
                                 grid(POSENC_SEG_IMAGE, 1, 2, 4, 0), text(1)};
    CHECK(rows_are(s4, 5, 1, 0, "0 1 1 1 1 3 4 5 5 5 5 5 5 5 5 9",
                   "0 1 1 2 2 3 4 5 5 5 5 6 6 6 6 9", "0 1 2 1 2 3 4 5 6 7 8 5 6 7 8 9"));
    /* two images back to back (merge 2): 1x2x2 then 1x2x4 */
    posenc_mrope_segment s5[] = {grid(POSENC_SEG_IMAGE, 1, 2, 2, 0),
                                 grid(POSENC_SEG_IMAGE, 1, 2, 4, 0)};
    CHECK(rows_are(s5, 2, 2, 0, "0 1 1", "0 1 1", "0 1 2"));
    /* Qwen2-VL video, 3 temporal patches of 2 x 2 (merge 2 of 4 x 4), text
     * around: temporal index = ti, next text after max(2, 1) + 1 */
    posenc_mrope_segment s6[] = {text(2), grid(POSENC_SEG_VIDEO, 3, 4, 4, 1.0), text(2)};
    CHECK(rows_are(s6, 3, 2, 0, "0 1 2 2 2 2 3 3 3 3 4 4 4 4 5 6",
                   "0 1 2 2 3 3 2 2 3 3 2 2 3 3 5 6", "0 1 2 3 2 3 2 3 2 3 2 3 2 3 5 6"));
    /* Qwen2.5-VL: tokens_per_second 25, 2 s per temporal patch: step 50;
     * text after the video continues from 2 + 100 + 1 */
    posenc_mrope_segment s7[] = {text(2), grid(POSENC_SEG_VIDEO, 3, 2, 4, 2.0), text(1)};
    CHECK(rows_are(s7, 3, 2, 25, "0 1 2 2 52 52 102 102 103", "0 1 2 2 2 2 2 2 103",
                   "0 1 2 3 2 3 2 3 103"));
    /* the seconds are truncated to an integer first: 1.9 s -> step 25;
     * 0.5 s -> step 0 (all temporal patches at the start) */
    posenc_mrope_segment s8[] = {grid(POSENC_SEG_VIDEO, 2, 2, 2, 1.9)};
    CHECK(rows_are(s8, 1, 2, 25, "0 25", "0 0", "0 0"));
    posenc_mrope_segment s9[] = {grid(POSENC_SEG_VIDEO, 3, 2, 2, 0.5), text(1)};
    CHECK(rows_are(s9, 2, 2, 25, "0 0 0 1", "0 0 0 1", "0 0 0 1"));
    /* an image under Qwen2.5-VL's rule has step 0 (t = 1 anyway) */
    posenc_mrope_segment s10[] = {grid(POSENC_SEG_IMAGE, 2, 2, 2, 3.0)};
    CHECK(rows_are(s10, 1, 2, 25, "0 0", "0 0", "0 0"));
}

TEST(positions_errors)
{
    posenc_mrope_segment ok[] = {text(3), grid(POSENC_SEG_IMAGE, 1, 4, 4, 0)};
    int64_t a[8], b[8], c[8];
    size_t n = 0;
    CHECK(posenc_mrope_positions(NULL, 1, 2, 0, a, b, c, 8, &n) == POSENC_ERR_NULL);
    CHECK(posenc_mrope_positions(ok, 2, 2, 0, a, b, c, 8, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_mrope_positions(ok, 2, 2, 0, a, NULL, c, 8, &n) == POSENC_ERR_NULL);
    CHECK(posenc_mrope_positions(ok, 0, 2, 0, a, b, c, 8, &n) == POSENC_ERR_RANGE);
    CHECK(posenc_mrope_positions(ok, 2, 0, 0, a, b, c, 8, &n) == POSENC_ERR_RANGE);
    CHECK(posenc_mrope_positions(ok, 2, 65, 0, a, b, c, 8, &n) == POSENC_ERR_RANGE);
    CHECK(posenc_mrope_positions(ok, 2, 3, 0, a, b, c, 8, &n) == POSENC_ERR_RANGE); /* 4 % 3 */
    /* too short: the length needed comes back */
    for (int i = 0; i < 8; i++)
        a[i] = -7;
    CHECK(posenc_mrope_positions(ok, 2, 2, 0, a, b, c, 6, &n) == POSENC_ERR_RANGE);
    CHECK_EQ_INT(n, 7);
    CHECK(a[0] == -7); /* nothing written */
    posenc_mrope_segment bad[1];
    bad[0] = text(0);
    CHECK(posenc_mrope_positions(bad, 1, 2, 0, a, b, c, 8, &n) == POSENC_ERR_RANGE);
    bad[0] = grid(POSENC_SEG_IMAGE, 0, 2, 2, 0);
    CHECK(posenc_mrope_positions(bad, 1, 2, 0, a, b, c, 8, &n) == POSENC_ERR_RANGE);
    bad[0] = grid(POSENC_SEG_VIDEO, 1, 2, 2, -1.0);
    CHECK(posenc_mrope_positions(bad, 1, 2, 0, a, b, c, 8, &n) == POSENC_ERR_RANGE);
    bad[0] = grid(POSENC_SEG_VIDEO, 1, 2, 2, NAN);
    CHECK(posenc_mrope_positions(bad, 1, 2, 0, a, b, c, 8, &n) == POSENC_ERR_RANGE);
    bad[0] = grid((posenc_mrope_kind)3, 1, 2, 2, 0);
    CHECK(posenc_mrope_positions(bad, 1, 2, 0, a, b, c, 8, &n) == POSENC_ERR_RANGE);
    /* positions past 2^31 - 1 */
    bad[0] = grid(POSENC_SEG_VIDEO, 3, 2, 2, 1e9);
    CHECK(posenc_mrope_positions(bad, 1, 2, 25, a, b, c, 8, &n) == POSENC_ERR_POS);
    bad[0] = grid(POSENC_SEG_VIDEO, 3, 2, 2, 2e7); /* step 5e8: 2 steps fit, 3 do not */
    CHECK(posenc_mrope_positions(bad, 1, 2, 25, NULL, NULL, NULL, 0, &n) == POSENC_OK);
    bad[0] = grid(POSENC_SEG_VIDEO, 6, 2, 2, 2e7);
    CHECK(posenc_mrope_positions(bad, 1, 2, 25, NULL, NULL, NULL, 0, &n) == POSENC_ERR_POS);
    posenc_mrope_segment longs[2] = {text(0xFFFFFFFFu), text(0xFFFFFFFFu)};
    CHECK(posenc_mrope_positions(longs, 1, 2, 0, NULL, NULL, NULL, 0, &n) == POSENC_ERR_POS);
    posenc_mrope_segment mid[2] = {text(0x7FFFFFFFu), text(1)}; /* the last: 2^31 - 1 */
    CHECK(posenc_mrope_positions(mid, 2, 2, 0, NULL, NULL, NULL, 0, &n) == POSENC_OK);
    mid[1] = text(2);
    CHECK(posenc_mrope_positions(mid, 2, 2, 0, NULL, NULL, NULL, 0, &n) == POSENC_ERR_POS);
    posenc_mrope_segment big[1] = {grid(POSENC_SEG_VIDEO, 0xFFFFFFFFu, 0xFFFFFFFFu,
                                        0xFFFFFFFFu, 0)};
    CHECK(posenc_mrope_positions(big, 1, 1, 0, NULL, NULL, NULL, 0, &n) == POSENC_ERR_OVERFLOW);
}

/* ---- vision 2D RoPE ---------------------------------------------------------------- */

TEST(rope2d_init_and_patch_order)
{
    posenc_rope r;
    posenc_mrope m;
    CHECK(posenc_rope2d_init(&r, &m, 80, 10000.0, HALF) == POSENC_OK);
    CHECK(r.head_dim == 80 && r.rotary_dim == 80 && r.attn_factor == 1.0);
    int bad = 0;
    for (uint32_t k = 0; k < 20; k++) {
        double f;
        CHECK(posenc_inv_freq(k, 40, 10000.0, &f) == POSENC_OK); /* base^(-2k/(D/2)) */
        bad += r.inv_freq_hi[k] != f || r.inv_freq_hi[k + 20] != f;
        bad += r.inv_freq_lo[k] != r.inv_freq_lo[k + 20];
        bad += m.axis[k] != POSENC_AXIS_H || m.axis[k + 20] != POSENC_AXIS_W;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(posenc_rope2d_init(NULL, &m, 80, 10000.0, HALF) == POSENC_ERR_NULL);
    CHECK(posenc_rope2d_init(&r, NULL, 80, 10000.0, HALF) == POSENC_ERR_NULL);
    CHECK(posenc_rope2d_init(&r, &m, 82, 10000.0, HALF) == POSENC_ERR_DIM);
    CHECK(posenc_rope2d_init(&r, &m, 0, 10000.0, HALF) == POSENC_ERR_DIM);
    CHECK(posenc_rope2d_init(&r, &m, 1028, 10000.0, HALF) == POSENC_ERR_DIM);
    CHECK(posenc_rope2d_init(&r, &m, 80, 1.0, HALF) == POSENC_ERR_BASE);
    CHECK(posenc_rope2d_init(&r, &m, 80, 10000.0, (posenc_layout)2) == POSENC_ERR_LAYOUT);
    /* rot_pos_emb's order for a 1 x 4 x 4 grid, merge 2: windows row-major */
    int64_t rows[32], cols[32];
    CHECK(posenc_vision_patch_positions(1, 4, 4, 2, rows, cols) == POSENC_OK);
    static const int64_t wr[16] = {0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3};
    static const int64_t wc[16] = {0, 1, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 2, 3, 2, 3};
    CHECK(memcmp(rows, wr, sizeof wr) == 0 && memcmp(cols, wc, sizeof wc) == 0);
    /* two temporal patches repeat the order; merge 1 is plain row-major */
    CHECK(posenc_vision_patch_positions(2, 4, 4, 2, rows, cols) == POSENC_OK);
    CHECK(memcmp(rows + 16, wr, sizeof wr) == 0 && memcmp(cols + 16, wc, sizeof wc) == 0);
    CHECK(posenc_vision_patch_positions(1, 2, 3, 1, rows, cols) == POSENC_OK);
    static const int64_t r1[6] = {0, 0, 0, 1, 1, 1}, c1[6] = {0, 1, 2, 0, 1, 2};
    CHECK(memcmp(rows, r1, sizeof r1) == 0 && memcmp(cols, c1, sizeof c1) == 0);
    CHECK(posenc_vision_patch_positions(1, 4, 4, 2, NULL, cols) == POSENC_ERR_NULL);
    CHECK(posenc_vision_patch_positions(1, 4, 5, 2, rows, cols) == POSENC_ERR_RANGE);
    CHECK(posenc_vision_patch_positions(0, 4, 4, 2, rows, cols) == POSENC_ERR_RANGE);
    CHECK(posenc_vision_patch_positions(1, 4, 4, 0, rows, cols) == POSENC_ERR_RANGE);
    CHECK(posenc_vision_patch_positions(1, 4, 4, 2, rows, NULL) == POSENC_ERR_NULL);
    /* each of h, w at 0, merge past 64, h not a multiple of merge */
    CHECK(posenc_vision_patch_positions(1, 0, 4, 2, rows, cols) == POSENC_ERR_RANGE);
    CHECK(posenc_vision_patch_positions(1, 4, 0, 2, rows, cols) == POSENC_ERR_RANGE);
    CHECK(posenc_vision_patch_positions(1, 128, 128, 65, rows, cols) == POSENC_ERR_RANGE);
    CHECK(posenc_vision_patch_positions(1, 5, 4, 2, rows, cols) == POSENC_ERR_RANGE);
#if SIZE_MAX <= 0xFFFFFFFFu
    CHECK(posenc_vision_patch_positions(2, 0xFFFF0000u, 0xFFFF0000u, 1, rows, cols) ==
          POSENC_ERR_OVERFLOW);
#else
    CHECK(posenc_vision_patch_positions(0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 1, rows, cols) ==
          POSENC_ERR_OVERFLOW);
#endif
}

int main(void)
{
    RUN(axis_tables_by_hand);
    RUN(golden_vectors);
    RUN(reference_is_plain_rope_per_pair);
    RUN(reference_errors);
    RUN(dot_product);
    RUN(every_path_against_reference);
    RUN(threads_against_reference);
    RUN(pool_call);
    RUN(text_only_is_plain);
    RUN(kernel_errors_nothing_written);
    RUN(positions_hand_worked);
    RUN(positions_errors);
    RUN(rope2d_init_and_patch_order);
    return check_summary("mrope");
}
