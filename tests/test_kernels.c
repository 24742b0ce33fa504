/* test_kernels.c - the tensor kernels (posenc_rope_qk, posenc_rope_decode_f32)
 * and posenc_rope_vec_f32, on every instruction set this machine runs, checked
 * against the single-vector reference (itself pinned to the core's
 * posenc_rope_apply_f32), hand-derived conversion values, and identities
 * (inverse undoes forward; the rotated dot product depends only on the
 * offset). Every buffer is poisoned outside the heads' rotary parts and
 * compared whole, so a write outside the views fails. Then every argument
 * check: malformed RoPE objects, strides that overflow or overlap in the
 * view's stated order (the swapped decode strides included), the direction,
 * thread counts, positions. The cache is in test_cache.c, running out of
 * threads in test_resources.c. */
#include "check.h"
#include "rope_check.h"
#include "posenc.h"
#include "kernels.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#define B POSENC_DEFAULT_BASE
#define IL POSENC_LAYOUT_INTERLEAVED
#define HALF POSENC_LAYOUT_HALF

static uint64_t rng_state = 0x2545F4914F6CDD1Du;
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

static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* ---- helpers of the argument and stride checks ------------------------------ */

static void fill_random(float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = rng_val();
}


/* posenc_rope_qk on one view of n_tok x n_head heads of 8 in the given order. */
static posenc_status qk_order(posenc_view_order order, size_t n_tok, size_t n_head, size_t ts,
                              size_t hs, posenc_dtype dt, float *buf)
{
    posenc_rope r = make_rope(8, 8, POSENC_LAYOUT_HALF);
    posenc_rope_qk_args a = {
        .rope = &r,
        .dtype = dt,
        .n_tok = n_tok,
        .q = {.dst = buf, .n_head = n_head, .tok_stride = ts, .head_stride = hs, .order = order}};
    return posenc_rope_qk(&a);
}

static posenc_status qk_strides(size_t n_tok, size_t n_head, size_t ts, size_t hs,
                                posenc_dtype dt, float *buf)
{
    return qk_order(POSENC_TOKENS_OUTER, n_tok, n_head, ts, hs, dt, buf);
}

/* 2 tokens of 1024 heads of 128: 2^18 elements, work for 4 threads of
 * 64 Ki elements, but only 2 tokens to share: 2 threads. */
#define WIDE_HEADS 1024u
#define WIDE_HD 128u
static float *wide_input(void)
{
    float *x = malloc(2 * WIDE_HEADS * WIDE_HD * sizeof *x);
    if (x)
        fill_random(x, 2 * WIDE_HEADS * WIDE_HD);
    return x;
}

static const char *const dtype_names[3] = {"f32", "bf16", "f16"};

/* ---- conversions against hand values ---------------------------------------- */

TEST(bf16_hand_values)
{
    CHECK_EQ_INT(posenc__f32_to_bf16(1.0f), 0x3F80);
    CHECK_EQ_INT(posenc__f32_to_bf16(-2.5f), 0xC020);
    CHECK_EQ_INT(posenc__f32_to_bf16(u2f(0x3F808000u)), 0x3F80); /* 1+2^-8: tie -> even */
    CHECK_EQ_INT(posenc__f32_to_bf16(u2f(0x3F818000u)), 0x3F82); /* 1+3*2^-8: tie -> even */
    CHECK_EQ_INT(posenc__f32_to_bf16(u2f(0x3F808001u)), 0x3F81); /* just above the tie */
    CHECK_EQ_INT(posenc__f32_to_bf16(u2f(0x7F7FFFFFu)), 0x7F80); /* FLT_MAX rounds to inf */
    CHECK_EQ_INT(posenc__f32_to_bf16(-INFINITY), 0xFF80);
    CHECK_EQ_INT(posenc__f32_to_bf16(u2f(0x00018000u)), 0x0002); /* subnormal tie -> even */
    uint16_t n = posenc__f32_to_bf16(NAN);
    CHECK((n & 0x7F80) == 0x7F80 && (n & 0x7F) != 0);
    n = posenc__f32_to_bf16(u2f(0x7F800001u)); /* signalling NaN stays a NaN */
    CHECK((n & 0x7F80) == 0x7F80 && (n & 0x7F) != 0);
    CHECK(posenc__bf16_to_f32(0x3F80) == 1.0f);
    CHECK(posenc__bf16_to_f32(0xC020) == -2.5f);
    CHECK(posenc__bf16_to_f32(0x0001) == 0x1p-133f);
}

TEST(f16_hand_values)
{
    CHECK_EQ_INT(posenc__f32_to_f16(1.0f), 0x3C00);
    CHECK_EQ_INT(posenc__f32_to_f16(-2.5f), 0xC100);
    CHECK_EQ_INT(posenc__f32_to_f16(-0.0f), 0x8000);
    CHECK_EQ_INT(posenc__f32_to_f16(65504.0f), 0x7BFF);
    CHECK_EQ_INT(posenc__f32_to_f16(65519.0f), 0x7BFF);
    CHECK_EQ_INT(posenc__f32_to_f16(65520.0f), 0x7C00); /* tie above max -> inf */
    CHECK_EQ_INT(posenc__f32_to_f16(1.0f + 0x1p-11f), 0x3C00);      /* tie -> even */
    CHECK_EQ_INT(posenc__f32_to_f16(1.0f + 3 * 0x1p-11f), 0x3C02);  /* tie -> even */
    CHECK_EQ_INT(posenc__f32_to_f16(0x1p-14f), 0x0400);  /* smallest normal */
    CHECK_EQ_INT(posenc__f32_to_f16(0x1p-24f), 0x0001);  /* smallest subnormal */
    CHECK_EQ_INT(posenc__f32_to_f16(0x1p-25f), 0x0000);  /* tie -> even (0) */
    CHECK_EQ_INT(posenc__f32_to_f16(0x1.8p-25f), 0x0001);
    CHECK_EQ_INT(posenc__f32_to_f16(0x1.8p-24f), 0x0002); /* 1.5 units: tie -> 2 */
    CHECK_EQ_INT(posenc__f32_to_f16(0x1.4p-24f), 0x0001);
    CHECK_EQ_INT(posenc__f32_to_f16(0x1.4p-23f), 0x0002); /* 2.5 units: tie -> 2 */
    CHECK_EQ_INT(posenc__f32_to_f16(0x1.cp-23f), 0x0004); /* 3.5 units: tie -> 4 */
    CHECK_EQ_INT(posenc__f32_to_f16(1023 * 0x1p-24f), 0x03FF);
    CHECK_EQ_INT(posenc__f32_to_f16(u2f(0x387FFFFFu)), 0x0400); /* rounds up to normal */
    CHECK_EQ_INT(posenc__f32_to_f16(INFINITY), 0x7C00);
    CHECK_EQ_INT(posenc__f32_to_f16(-1e30f), 0xFC00);
    uint16_t n = posenc__f32_to_f16(NAN);
    CHECK((n & 0x7C00) == 0x7C00 && (n & 0x3FF) != 0);
    CHECK(posenc__f16_to_f32(0x3C00) == 1.0f);
    CHECK(posenc__f16_to_f32(0xC100) == -2.5f);
    CHECK(posenc__f16_to_f32(0x0001) == 0x1p-24f);
    CHECK(posenc__f16_to_f32(0x83FF) == -1023 * 0x1p-24f);
    CHECK(posenc__f16_to_f32(0x7BFF) == 65504.0f);
    CHECK(posenc__f16_to_f32(0x7C00) == INFINITY);
    CHECK(posenc__f16_to_f32(0xFC00) == -INFINITY);
    CHECK(isnan(posenc__f16_to_f32(0x7C01)));
    /* every finite half survives the round trip */
    int bad = 0;
    for (uint32_t h = 0; h < 65536; h++)
        if ((h & 0x7C00) != 0x7C00 && posenc__f32_to_f16(posenc__f16_to_f32((uint16_t)h)) != h)
            bad++;
    CHECK_EQ_INT(bad, 0);
}

/* The vector bodies' conversions and arithmetic against the plain C body on
 * every half (and many float bit patterns): subnormals, overflow to inf,
 * NaN, inf, signed zeros. Both outputs must agree bit for bit (NaN: both
 * NaN). */
#if POSENC__HAVE_X86
static const posenc_dtype dtypes[3] = {POSENC_DTYPE_F32, POSENC_DTYPE_BF16, POSENC_DTYPE_F16};
static int same_elem(int dt, const void *a, const void *b, size_t i)
{
    if (dt == POSENC_DTYPE_F32) {
        uint32_t x = ((const uint32_t *)a)[i], y = ((const uint32_t *)b)[i];
        return x == y || (isnan(u2f(x)) && isnan(u2f(y)));
    }
    uint16_t x = ((const uint16_t *)a)[i], y = ((const uint16_t *)b)[i];
    return x == y || (isnan(posenc__load(dt, a, i)) && isnan(posenc__load(dt, b, i)));
}
#endif

TEST(vector_bodies_special_values)
{
#if POSENC__HAVE_X86
    enum { N = 65536, P = 48 }; /* heads of 96 elements: 1365 heads */
    static uint32_t in[N], out_ref[N], out_v[N];
    float c[P], s[P];
    for (int isa = POSENC__ISA_AVX2; isa < POSENC__ISA_N; isa++) {
        if (!posenc__isa_available(isa)) {
            printf("test_kernels: %s not available here, special values not run on it\n",
                   posenc__isa_name(isa));
            continue;
        }
        posenc__heads_fn fn = isa == POSENC__ISA_AVX2 ? posenc__heads_avx2 : posenc__heads_avx512;
        int bad = 0;
        for (int d = 0; d < 3; d++) {
            int dt = dtypes[d];
            size_t es = posenc__dtype_size(dt), n = N * 4 / es / 2, nh = n / (2 * P);
            for (int layout = 0; layout < 2; layout++) {
                for (int round = 0; round < 3; round++) {
                    uint16_t *h16 = (uint16_t *)in;
                    for (size_t i = 0; i < n; i++) {
                        if (es == 2)
                            h16[i] = round == 0 ? (uint16_t)(i * 40503u) : (uint16_t)rng_next();
                        else
                            in[i] = round == 0 ? (uint32_t)rng_next()
                                               : f2u(rng_val() * (round == 1 ? 3e38f : 1e-38f));
                    }
                    for (int k = 0; k < P; k++) {
                        c[k] = round == 2 ? 1.0f : rng_val() * 0.7f;
                        s[k] = round == 2 ? 0.0f : rng_val() * 0.7f;
                    }
                    for (int inv = 0; inv < 2; inv++) {
                        posenc__heads_scalar(dt, layout, P, c, s, inv, in, 2 * P, out_ref, 2 * P, nh);
                        fn(dt, layout, P, c, s, inv, in, 2 * P, out_v, 2 * P, nh);
                        for (size_t i = 0; i < nh * 2 * P; i++)
                            if (!same_elem(dt, out_ref, out_v, i) && bad++ < 5)
                                fprintf(stderr, "%s %s layout %d elem %zu differs\n",
                                        posenc__isa_name(isa), dtype_names[d], layout, i);
                    }
                }
            }
        }
        CHECK_EQ_INT(bad, 0);
    }
#else
    printf("test_kernels: not x86-64 (or scalar-only build): no vector bodies to compare\n");
#endif
}

/* ---- the single-vector reference --------------------------------------------- */

TEST(vec_f32_equals_core)
{
    static const uint32_t dims[] = {2, 64, 80, 96, 128, 256};
    for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++) {
        for (int layout = 0; layout < 2; layout++) {
            posenc_rope r;
            CHECK(posenc_rope_init(&r, dims[di], dims[di], B, (posenc_layout)layout) == POSENC_OK);
            for (int rep = 0; rep < 8; rep++) {
                int64_t pos = rep < 4 ? (int64_t)rng_below(5000) : (int64_t)rng_below(2147483648u);
                float a[256], b[256];
                for (uint32_t i = 0; i < dims[di]; i++)
                    a[i] = b[i] = rng_val();
                posenc_direction dir = rep & 1 ? POSENC_INVERSE : POSENC_FORWARD;
                CHECK(posenc_rope_vec_f32(&r, pos, dir, a) == POSENC_OK);
                CHECK(posenc_rope_apply_f32(pos, dims[di], B, (posenc_layout)layout, dir, b) ==
                      POSENC_OK);
                CHECK(memcmp(a, b, dims[di] * sizeof(float)) == 0);
            }
        }
    }
    /* partial rotary: the prefix is the core rotation of D = rotary_dim, the
     * rest is untouched */
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 96, 32, 500000.0, HALF) == POSENC_OK);
    float a[96], b[96];
    for (int i = 0; i < 96; i++)
        a[i] = b[i] = rng_val();
    CHECK(posenc_rope_vec_f32(&r, 123456, POSENC_FORWARD, a) == POSENC_OK);
    CHECK(posenc_rope_apply_f32(123456, 32, 500000.0, HALF, POSENC_FORWARD, b) == POSENC_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    /* attn_factor 0.5 halves c and s exactly, so it halves the result */
    posenc_rope h = r;
    h.attn_factor = 0.5;
    for (int i = 0; i < 96; i++)
        a[i] = b[i] = rng_val();
    CHECK(posenc_rope_vec_f32(&h, 777, POSENC_FORWARD, a) == POSENC_OK);
    CHECK(posenc_rope_vec_f32(&r, 777, POSENC_FORWARD, b) == POSENC_OK);
    int bad = 0;
    for (int i = 0; i < 32; i++)
        bad += a[i] != 0.5f * b[i];
    for (int i = 32; i < 96; i++)
        bad += a[i] != b[i];
    CHECK_EQ_INT(bad, 0);
    /* errors */
    a[3] = NAN;
    memcpy(b, a, sizeof a);
    CHECK(posenc_rope_vec_f32(&r, 1, POSENC_FORWARD, a) == POSENC_ERR_NOT_FINITE);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(posenc_rope_vec_f32(NULL, 1, POSENC_FORWARD, a) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_f32(&r, 1, POSENC_FORWARD, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_f32(&r, -1, POSENC_FORWARD, b) == POSENC_ERR_POS);
    CHECK(posenc_rope_vec_f32(&r, POSENC_MAX_POS + 1, POSENC_FORWARD, b) == POSENC_ERR_POS);
    h = r;
    h.rotary_dim = 33;
    CHECK(posenc_rope_vec_f32(&h, 1, POSENC_FORWARD, b) == POSENC_ERR_RANGE);
    h = r;
    h.head_dim = 0;
    CHECK(posenc_rope_vec_f32(&h, 1, POSENC_FORWARD, b) == POSENC_ERR_DIM);
    h = r;
    h.layout = (posenc_layout)7;
    CHECK(posenc_rope_vec_f32(&h, 1, POSENC_FORWARD, b) == POSENC_ERR_LAYOUT);
    h = r;
    h.attn_factor = INFINITY;
    CHECK(posenc_rope_vec_f32(&h, 1, POSENC_FORWARD, b) == POSENC_ERR_RANGE);
}

/* ---- the tensor call against the reference ------------------------------------ */

/* One test case: shapes, strides, options. q and k live in one fused buffer
 * per token: [q heads | k heads | tail], heads hs apart, with gaps. */
typedef struct kcase {
    int isa, dt, layout, in_place, use_cache, inverse, pos_mode;
    uint32_t head_dim, rotary_dim;
    size_t n_tok, nq, nk, gap_h, gap_t;
    unsigned threads;
    posenc_pool *pool; /* NULL: threads started in the call */
} kcase;

/* Threads for this much work or more: far less than the library's own rule
 * (posenc__threads_for), so that small tensors run on several threads. */
#define TEST_MIN_ELEMS 65536u

#define POISON 0xA5

typedef struct kbuf {
    uint8_t *src, *dst, *want, *src_copy;
    size_t bytes;
    posenc_rope_view q, k;
    int64_t *pos;
} kbuf;

/* Lays out a fused buffer: returns its size in elements, sets views. */
static size_t fused_layout(const kcase *c, size_t gap_h, size_t gap_t, size_t *hs, size_t *ts,
                           size_t *koff)
{
    *hs = c->head_dim + gap_h;
    *koff = c->nq * *hs + gap_t;
    *ts = *koff + c->nk * *hs + gap_t;
    return (c->n_tok - 1) * *ts + *ts + 3;
}

/* Expected result from posenc_rope_vec_f32 head by head. */
static void reference(const kcase *c, const posenc_rope *r, const kbuf *b, size_t es)
{
    const posenc_rope_view *vs[2] = {&b->q, &b->k};
    const uint8_t *src = c->in_place ? b->dst : b->src;
    for (int v = 0; v < 2; v++) {
        const posenc_rope_view *w = vs[v];
        size_t sts = c->in_place ? w->tok_stride : w->src_tok_stride;
        size_t shs = c->in_place ? w->head_stride : w->src_head_stride;
        const uint8_t *s0 = c->in_place ? (const uint8_t *)w->dst : (const uint8_t *)w->src;
        uint8_t *d0 = b->want + ((uint8_t *)w->dst - b->dst);
        (void)src;
        for (size_t t = 0; t < c->n_tok; t++) {
            for (size_t h = 0; h < w->n_head; h++) {
                const uint8_t *sp = s0 + (t * sts + h * shs) * es;
                uint8_t *dp = d0 + (t * w->tok_stride + h * w->head_stride) * es;
                float x[POSENC_ROPE_MAX_HEAD_DIM];
                for (uint32_t i = 0; i < c->head_dim; i++)
                    x[i] = posenc__load(c->dt, sp, i);
                int64_t p = b->pos ? b->pos[t] : 17 + (int64_t)t;
                if (posenc_rope_vec_f32(r, p, (c->inverse) ? POSENC_INVERSE : POSENC_FORWARD, x) !=
                    POSENC_OK)
                    fprintf(stderr, "reference failed\n");
                for (uint32_t i = 0; i < c->rotary_dim; i++)
                    posenc__store(c->dt, dp, i, x[i]);
                memcpy(dp + c->rotary_dim * es, sp + c->rotary_dim * es,
                       (c->head_dim - c->rotary_dim) * es);
            }
        }
    }
}

/* Fills the heads of view w (in buffer base) with random values. */
static void fill_heads(const kcase *c, uint8_t *p, size_t ts, size_t hs, size_t n_head)
{
    for (size_t t = 0; t < c->n_tok; t++)
        for (size_t h = 0; h < n_head; h++)
            for (uint32_t i = 0; i < c->head_dim; i++)
                posenc__store(c->dt, p, (t * ts + h * hs) + i, rng_val());
}

static int run_case(const kcase *c, const posenc_rope_cache *cache, const posenc_rope *r)
{
    size_t es = posenc__dtype_size(c->dt), hs, ts, koff, shs, sts, skoff;
    size_t n = fused_layout(c, c->gap_h, c->gap_t, &hs, &ts, &koff);
    /* the source of an out-of-place call: a differently strided fused buffer */
    size_t ns = fused_layout(c, c->gap_t, c->gap_h + 1, &shs, &sts, &skoff);
    kbuf b;
    memset(&b, 0, sizeof b);
    b.bytes = n * es;
    b.dst = malloc(b.bytes);
    b.want = malloc(b.bytes);
    b.src = malloc(ns * es);
    b.src_copy = malloc(ns * es);
    b.pos = NULL;
    if (c->pos_mode) {
        b.pos = malloc(c->n_tok * sizeof *b.pos);
        for (size_t t = 0; t < c->n_tok; t++) {
            size_t roll = rng_below(4);
            b.pos[t] = t == 0 || roll == 0 ? (int64_t)rng_below(3000)
                       : roll == 1         ? b.pos[t - 1]        /* repeated */
                                           : b.pos[t - 1] + 1;   /* a run */
            if (b.pos[t] >= 3000)
                b.pos[t] = 0;
        }
    }
    memset(b.dst, POISON, b.bytes);
    memset(b.src, POISON ^ 0xFF, ns * es);
    b.q = (posenc_rope_view){.dst = b.dst, .n_head = c->nq, .tok_stride = ts, .head_stride = hs};
    b.k = (posenc_rope_view){
        .dst = b.dst + koff * es, .n_head = c->nk, .tok_stride = ts, .head_stride = hs};
    if (c->in_place) {
        fill_heads(c, b.dst, ts, hs, c->nq);
        fill_heads(c, b.dst + koff * es, ts, hs, c->nk);
    } else {
        fill_heads(c, b.src, sts, shs, c->nq);
        fill_heads(c, b.src + skoff * es, sts, shs, c->nk);
        b.q.src = b.src;
        b.q.src_tok_stride = b.k.src_tok_stride = sts;
        b.q.src_head_stride = b.k.src_head_stride = shs;
        b.k.src = b.src + skoff * es;
    }
    memcpy(b.want, b.dst, b.bytes);
    memcpy(b.src_copy, b.src, ns * es);
    reference(c, r, &b, es);
    posenc_status st = posenc__rope_qk_run(
        c->isa, &(posenc_rope_qk_args){.rope = r,
                                       .cache = cache,
                                       .dtype = (posenc_dtype)c->dt,
                                       .n_tok = c->n_tok,
                                       .pos = b.pos,
                                       .pos0 = b.pos ? 0 : 17,
                                       .q = c->nq ? b.q : (posenc_rope_view){0},
                                       .k = c->nk ? b.k : (posenc_rope_view){0},
                                       .direction = (c->inverse) ? POSENC_INVERSE : POSENC_FORWARD,
                                       .n_threads = c->threads},
        c->pool, TEST_MIN_ELEMS);
    int ok = st == POSENC_OK && memcmp(b.dst, b.want, b.bytes) == 0 &&
             memcmp(b.src, b.src_copy, ns * es) == 0;
    if (!ok) {
        size_t first = 0;
        while (first < b.bytes && b.dst[first] == b.want[first])
            first++;
        fprintf(stderr,
                "case isa %s dt %s layout %d hd %u rot %u n_tok %zu q %zu k %zu gaps %zu/%zu "
                "in_place %d cache %d inverse %d pos_mode %d threads %u: status %d, first "
                "differing byte %zu of %zu\n",
                posenc__isa_name(c->isa), dtype_names[c->dt], c->layout, c->head_dim,
                c->rotary_dim, c->n_tok, c->nq, c->nk, c->gap_h, c->gap_t, c->in_place,
                c->use_cache, c->inverse, c->pos_mode, c->threads, (int)st, first, b.bytes);
    }
    free(b.dst);
    free(b.want);
    free(b.src);
    free(b.src_copy);
    free(b.pos);
    return ok;
}

TEST(every_path_against_reference)
{
    static const uint32_t shapes[][2] = {{64, 64}, {80, 80},  {96, 96}, {128, 128},
                                         {256, 256}, {128, 32}, {80, 36}, {9, 6}};
    int runs = 0, bad = 0;
    for (int isa = 0; isa < POSENC__ISA_N; isa++) {
        if (!posenc__isa_available(isa)) {
            printf("test_kernels: %s not available here, not run\n", posenc__isa_name(isa));
            continue;
        }
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
            for (int layout = 0; layout < 2; layout++) {
                posenc_rope r;
                CHECK(posenc_rope_init(&r, shapes[si][0], shapes[si][1], B,
                                       (posenc_layout)layout) == POSENC_OK);
                posenc_rope_cache *cache = NULL;
                CHECK(posenc_rope_cache_create(&r, 3100, &cache) == POSENC_OK);
                for (int d = 0; d < 3; d++) {
                    for (int variant = 0; variant < 4; variant++) {
                        kcase c = {0};
                        c.isa = isa;
                        c.dt = d;
                        c.layout = layout;
                        c.head_dim = shapes[si][0];
                        c.rotary_dim = shapes[si][1];
                        c.in_place = variant & 1;
                        c.use_cache = (variant >> 1) & 1;
                        c.inverse = (int)rng_below(2);
                        c.pos_mode = (int)rng_below(2);
                        c.n_tok = 1 + rng_below(13); /* rarely a multiple of anything */
                        c.nq = 1 + rng_below(6);
                        c.nk = rng_below(4) == 0 ? c.nq : 1 + rng_below(3); /* GQA */
                        c.gap_h = rng_below(4);
                        c.gap_t = rng_below(5);
                        c.threads = 1;
                        bad += !run_case(&c, c.use_cache ? cache : NULL, &r);
                        runs++;
                    }
                }
                posenc_rope_cache_free(cache);
            }
        }
    }
    CHECK(runs >= 8 * 2 * 3 * 4);
    CHECK_EQ_INT(bad, 0);
}

/* bfloat16 heads with the values that rounding can get wrong (NaNs, which
 * must stay NaNs; infinities; the largest finite values, whose rotation
 * can overflow; subnormals; ties) on every instruction set against the
 * scalar body, bit for bit (a NaN only as a NaN: payloads are the
 * hardware's), both layouts, forward and inverse. */
TEST(bf16_special_values)
{
    enum { HD = 128, NHEAD = 3, P = HD / 2 };
    static const uint16_t special[] = {0x7FC0, 0xFFC1, 0x7F81, 0x7F80, 0xFF80, 0x7F7F, 0xFF7F,
                                       0x0001, 0x8001, 0x3F81, 0x3F80, 0x0000, 0x8000, 0x4049};
    uint16_t src[NHEAD * HD], want[NHEAD * HD], got[NHEAD * HD];
    float c[P], sn[P];
    for (size_t i = 0; i < NHEAD * HD; i++)
        src[i] = i % 3 ? special[i % (sizeof special / sizeof special[0])]
                       : posenc__f32_to_bf16(rng_val());
    for (size_t k = 0; k < P; k++) {
        /* exact 1 and 0, an angle's, and a pair whose products tie */
        c[k] = k % 4 == 0 ? 1.0f : k % 4 == 1 ? 0.70710677f : (float)cos(0.1 * (double)k);
        sn[k] = k % 4 == 0 ? 0.0f : k % 4 == 1 ? 0.70710677f : (float)sin(0.1 * (double)k);
    }
    int bad = 0;
    for (int isa = 0; isa < POSENC__ISA_N; isa++) {
        if (!posenc__isa_available(isa))
            continue;
        for (int layout = 0; layout < 2; layout++)
            for (int inverse = 0; inverse < 2; inverse++) {
                posenc__heads_scalar(POSENC_DTYPE_BF16, layout, P, c, sn, inverse, src, HD, want,
                                     HD, NHEAD);
                posenc__isa_ops_of(isa)->heads(POSENC_DTYPE_BF16, layout, P, c, sn, inverse, src,
                                               HD, got, HD, NHEAD);
                for (size_t i = 0; i < NHEAD * HD; i++) {
                    int nan_w = (want[i] & 0x7F80) == 0x7F80 && (want[i] & 0x7F);
                    int nan_g = (got[i] & 0x7F80) == 0x7F80 && (got[i] & 0x7F);
                    if (nan_w != nan_g || (!nan_w && want[i] != got[i])) {
                        fprintf(stderr, "bf16 %s layout %d inverse %d: element %zu: %04x, want %04x\n",
                                posenc__isa_name(isa), layout, inverse, i, got[i], want[i]);
                        bad++;
                        break;
                    }
                }
            }
    }
    CHECK_EQ_INT(bad, 0);
}

/* Long ranges without a cache compute the fill's T(j) rows once for the
 * range (kernels.c, T_ONCE_MIN_TOKENS) when each row fits one strip (P <=
 * POSENC__FILL_T_PAIRS), else per block as before: the same bytes as the
 * reference either way, on every instruction set, for a run of consecutive
 * positions past several anchors and for positions that jump and repeat. */
TEST(long_ranges_against_reference)
{
    static const uint32_t shapes[][2] = {{128, 128}, {64, 32}, {256, 256}, {9, 6}};
    int runs = 0, bad = 0;
    for (int isa = 0; isa < POSENC__ISA_N; isa++) {
        if (!posenc__isa_available(isa))
            continue;
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
            for (int layout = 0; layout < 2; layout++) {
                posenc_rope r;
                CHECK(posenc_rope_init(&r, shapes[si][0], shapes[si][1], B,
                                       (posenc_layout)layout) == POSENC_OK);
                for (int v = 0; v < 4; v++) {
                    kcase c = {0};
                    c.isa = isa;
                    c.dt = v & 1 ? POSENC_DTYPE_BF16 : POSENC_DTYPE_F32;
                    c.layout = layout;
                    c.head_dim = shapes[si][0];
                    c.rotary_dim = shapes[si][1];
                    c.in_place = 1;
                    c.pos_mode = v >> 1;
                    c.inverse = v == 2;
                    c.n_tok = 300;
                    c.nq = 2;
                    c.nk = 1;
                    c.threads = 1;
                    bad += !run_case(&c, NULL, &r);
                    runs++;
                }
            }
    }
    CHECK(runs >= 2 * 4 * 4);
    CHECK_EQ_INT(bad, 0);
}

/* Enough work for several threads (>= 64 Ki elements each): same bytes as
 * the reference, whatever the thread count, with threads started in the
 * call and with a pool of as many threads (or of 4, of which the call may
 * use fewer). */
TEST(threads_against_reference)
{
    int bad = 0;
    for (int use_pool = 0; use_pool < 2; use_pool++)
    for (int layout = 0; layout < 2; layout++) {
        posenc_rope r;
        CHECK(posenc_rope_init(&r, 128, 128, B, (posenc_layout)layout) == POSENC_OK);
        posenc_rope_cache *cache = NULL;
        CHECK(posenc_rope_cache_create(&r, 3100, &cache) == POSENC_OK);
        static const unsigned threads[] = {2, 3, 7};
        for (int i = 0; i < 6; i++) {
            kcase c = {0};
            c.isa = posenc__isa_selected();
            c.dt = i % 2 ? POSENC_DTYPE_BF16 : POSENC_DTYPE_F32;
            c.layout = layout;
            c.head_dim = c.rotary_dim = 128;
            c.in_place = i % 3 != 0;
            c.use_cache = i < 3;
            c.inverse = i == 4;
            c.pos_mode = i % 2;
            c.n_tok = 203;
            c.nq = 32;
            c.nk = 8;
            c.gap_h = i % 2;
            c.gap_t = 3;
            c.threads = threads[i % 3];
            if (use_pool)
                CHECK(posenc_pool_create(i < 3 ? c.threads : 4, &c.pool) == POSENC_OK);
            bad += !run_case(&c, c.use_cache ? cache : NULL, &r);
            if (c.pool) /* again: the same slices on the same threads */
                bad += !run_case(&c, c.use_cache ? cache : NULL, &r);
            posenc_pool_free(c.pool);
        }
        posenc_rope_cache_free(cache);
    }
    CHECK_EQ_INT(bad, 0);
}

/* The pool's arguments and its public calls. */
TEST(pool_arguments)
{
    posenc_pool *p = (posenc_pool *)&p;
    CHECK(posenc_pool_create(2, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_pool_create(0, &p) == POSENC_ERR_RANGE);
    CHECK(posenc_pool_create(POSENC_MAX_THREADS + 1, &p) == POSENC_ERR_RANGE);
    CHECK(p == (posenc_pool *)&p); /* untouched on error */
    posenc_pool_free(NULL);
    CHECK(posenc_pool_create(1, &p) == POSENC_OK); /* the caller alone */
    posenc_pool *p3 = NULL;
    CHECK(posenc_pool_create(3, &p3) == POSENC_OK);
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 128, 128, B, IL) == POSENC_OK);
    /* 300 tokens of 32 heads: 1228800 elements, 2 pool threads' worth */
    enum { T = 300, H = 32, D = 128 };
    float *x = malloc(sizeof(float) * T * H * D), *y = malloc(sizeof(float) * T * H * D);
    CHECK(x && y);
    if (!x || !y) {
        free(x);
        free(y);
        return;
    }
    fill_random(x, (size_t)T * H * D);
    posenc_rope_qk_args a = {
        .rope = &r, .n_tok = T, .pos0 = 9, .q = posenc_rope_view_dense(y, H, D)};
    posenc_pool *pools[4] = {NULL, p, p3, p3};
    unsigned nthr[4] = {0, 0, 0, 2};
    for (int i = 0; i < 4; i++) {
        memcpy(y, x, sizeof(float) * T * H * D);
        a.n_threads = nthr[i];
        CHECK(posenc_rope_qk_pool(&a, pools[i]) == POSENC_OK);
        CHECK(heads_match_reference(&r, x, y, T, H, 9, 0));
    }
    /* the checks of posenc_rope_qk, with a pool too */
    a.n_threads = POSENC_MAX_THREADS + 1;
    CHECK(posenc_rope_qk_pool(&a, p3) == POSENC_ERR_RANGE);
    a.n_threads = 0;
    CHECK(posenc_rope_qk_pool(NULL, p3) == POSENC_ERR_NULL);
    a.pos0 = -1;
    CHECK(posenc_rope_qk_pool(&a, p3) == POSENC_ERR_POS);
    posenc_pool_free(p);
    posenc_pool_free(p3);
    free(x);
    free(y);
}

/* Two threads calling on one pool at the same time: the calls take turns,
 * each gives the reference. */
typedef struct pool_caller {
    posenc_pool *pool;
    const posenc_rope *r;
    const float *x;
    float *y;
    int64_t pos0;
    int ok;
} pool_caller;
enum { PC_T = 320, PC_H = 32, PC_D = 128 }; /* 2 pool threads' worth */

static void *pool_caller_main(void *arg)
{
    pool_caller *pc = arg;
    pc->ok = 1;
    for (int rep = 0; rep < 6; rep++) {
        memcpy(pc->y, pc->x, sizeof(float) * PC_T * PC_H * PC_D);
        posenc_rope_qk_args a = {.rope = pc->r,
                                 .n_tok = PC_T,
                                 .pos0 = pc->pos0,
                                 .q = posenc_rope_view_dense(pc->y, PC_H, PC_D)};
        pc->ok &= posenc_rope_qk_pool(&a, pc->pool) == POSENC_OK &&
                  heads_match_reference(pc->r, pc->x, pc->y, PC_T, PC_H, pc->pos0, 0);
    }
    return NULL;
}

TEST(pool_shared_by_two_callers)
{
    posenc_pool *p = NULL;
    CHECK(posenc_pool_create(2, &p) == POSENC_OK);
    posenc_rope r;
    CHECK(posenc_rope_init(&r, PC_D, PC_D, B, HALF) == POSENC_OK);
    size_t n = (size_t)PC_T * PC_H * PC_D;
    float *buf = malloc(sizeof(float) * 4 * n);
    CHECK(buf != NULL);
    if (!buf || !p) {
        free(buf);
        posenc_pool_free(p);
        return;
    }
    fill_random(buf, 4 * n);
    pool_caller pc[2] = {{p, &r, buf, buf + n, 3, 0}, {p, &r, buf + 2 * n, buf + 3 * n, 5000, 0}};
    pthread_t th;
    int started = pthread_create(&th, NULL, pool_caller_main, &pc[1]) == 0;
    pool_caller_main(&pc[0]);
    if (!started)
        pool_caller_main(&pc[1]);
    else
        pthread_join(th, NULL);
    CHECK(pc[0].ok && pc[1].ok);
    posenc_pool_free(p);
    free(buf);
}

/* Heads outer ([n_head, n_tok, head_dim]) is a valid view too. */
TEST(heads_outer_view)
{
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 64, 64, B, IL) == POSENC_OK);
    enum { T = 5, H = 3, D = 64 };
    float x[H * T * D], y[H * T * D];
    for (int i = 0; i < H * T * D; i++)
        x[i] = y[i] = rng_val();
    posenc_rope_view q = {
        .dst = x, .n_head = H, .tok_stride = D, .head_stride = T * D, .order = POSENC_HEADS_OUTER};
    CHECK(posenc_rope_qk(&(posenc_rope_qk_args){.rope = &r, .n_tok = T, .pos0 = 40, .q = q}) ==
          POSENC_OK);
    int bad = 0;
    for (int h = 0; h < H; h++)
        for (int t = 0; t < T; t++) {
            CHECK(posenc_rope_vec_f32(&r, 40 + t, POSENC_FORWARD, y + (h * T + t) * D) ==
                  POSENC_OK);
            bad += memcmp(x + (h * T + t) * D, y + (h * T + t) * D, D * sizeof(float)) != 0;
        }
    CHECK_EQ_INT(bad, 0);
}

/* src heads outer ([n_head, n_tok, head_dim]) into dst tokens outer
 * ([n_tok, n_head, head_dim]): each order checked on its own strides. */
TEST(src_and_dst_orders_differ)
{
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 64, 48, B, HALF) == POSENC_OK);
    enum { T = 5, H = 3, D = 64 };
    float src[H * T * D], dst[T * H * D], want[T * H * D];
    for (int i = 0; i < H * T * D; i++)
        src[i] = rng_val();
    for (int t = 0; t < T; t++)
        for (int h = 0; h < H; h++) {
            memcpy(want + (t * H + h) * D, src + (h * T + t) * D, D * sizeof(float));
            CHECK(posenc_rope_vec_f32(&r, 9 + t, POSENC_FORWARD, want + (t * H + h) * D) ==
                  POSENC_OK);
        }
    posenc_rope_qk_args a = {.rope = &r,
                             .n_tok = T,
                             .pos0 = 9,
                             .q = {.dst = dst,
                                   .src = src,
                                   .n_head = H,
                                   .tok_stride = H * D,
                                   .head_stride = D,
                                   .src_tok_stride = D,
                                   .src_head_stride = T * D,
                                   .order = POSENC_TOKENS_OUTER,
                                   .src_order = POSENC_HEADS_OUTER}};
    CHECK(posenc_rope_qk(&a) == POSENC_OK);
    CHECK(memcmp(dst, want, sizeof dst) == 0);
    a.q.src_order = POSENC_TOKENS_OUTER; /* src's strides are not tokens outer */
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_RANGE);
    a.q.src_order = (posenc_view_order)7;
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_RANGE);
}

/* ---- identities ------------------------------------------------------------- */

TEST(inverse_undoes_forward)
{
    for (int isa = 0; isa < POSENC__ISA_N; isa++) {
        if (!posenc__isa_available(isa))
            continue;
        for (int layout = 0; layout < 2; layout++) {
            posenc_rope r;
            CHECK(posenc_rope_init(&r, 128, 96, B, (posenc_layout)layout) == POSENC_OK);
            enum { T = 9, H = 5, D = 128 };
            float x[T * H * D], x0[T * H * D];
            int64_t pos[T];
            for (int t = 0; t < T; t++)
                pos[t] = t < 4 ? t * 1000 : (int64_t)rng_below(2147483648u);
            for (int i = 0; i < T * H * D; i++)
                x[i] = x0[i] = rng_val();
            posenc_rope_view v = {.dst = x, .n_head = H, .tok_stride = H * D, .head_stride = D};
            CHECK(posenc__rope_qk_isa(
                      isa, &(posenc_rope_qk_args){.rope = &r, .n_tok = T, .pos = pos, .q = v}) ==
                  POSENC_OK);
            CHECK(memcmp(x, x0, sizeof x) != 0); /* it did move */
            CHECK(posenc__rope_qk_isa(isa, &(posenc_rope_qk_args){.rope = &r,
                                                                  .n_tok = T,
                                                                  .pos = pos,
                                                                  .q = v,
                                                                  .direction = POSENC_INVERSE}) ==
                  POSENC_OK);
            double worst = 0;
            for (int h = 0; h < T * H; h++)
                for (int k = 0; k < 48; k++) {
                    int i0 = layout == IL ? 2 * k : k, i1 = layout == IL ? 2 * k + 1 : k + 48;
                    float *a = x + h * D, *b = x0 + h * D;
                    double norm = hypot(b[i0], b[i1]);
                    double e = fmax(fabs(a[i0] - b[i0]), fabs(a[i1] - b[i1])) / norm;
                    worst = fmax(worst, e);
                }
            CHECK(worst <= 1e-6); /* relative to the pair's length */
        }
    }
}

TEST(dot_depends_only_on_offset)
{
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 128, 128, B, HALF) == POSENC_OK);
    enum { D = 128, N = 6 };
    float q0[D], k0[D];
    for (int i = 0; i < D; i++) {
        q0[i] = rng_val();
        k0[i] = rng_val();
    }
    static const int64_t offsets[] = {0, 1, 7, 300};
    static const int64_t bases[N] = {0, 1, 57, 1000, 65536, 1234567};
    double first[4];
    for (int o = 0; o < 4; o++) {
        /* q at m + offset, k at m, for several m: one call each */
        float q[N * D], k[N * D];
        int64_t pq[N], pk[N];
        for (int t = 0; t < N; t++) {
            memcpy(q + t * D, q0, sizeof q0);
            memcpy(k + t * D, k0, sizeof k0);
            pq[t] = bases[t] + offsets[o];
            pk[t] = bases[t];
        }
        posenc_rope_view vq = {.dst = q, .n_head = 1, .tok_stride = D, .head_stride = D},
                         vk = {.dst = k, .n_head = 1, .tok_stride = D, .head_stride = D};
        CHECK(posenc_rope_qk(&(posenc_rope_qk_args){.rope = &r, .n_tok = N, .pos = pq, .q = vq}) ==
              POSENC_OK);
        CHECK(posenc_rope_qk(&(posenc_rope_qk_args){.rope = &r, .n_tok = N, .pos = pk, .k = vk}) ==
              POSENC_OK);
        for (int t = 0; t < N; t++) {
            double dot = 0;
            for (int i = 0; i < D; i++)
                dot += (double)q[t * D + i] * k[t * D + i];
            if (t == 0)
                first[o] = dot;
            CHECK_NEAR(dot, first[o], 1e-4);
        }
        /* and equals the core's double-precision rotated dot product */
        double q64[D], k64[D], want;
        for (int i = 0; i < D; i++) {
            q64[i] = q0[i];
            k64[i] = k0[i];
        }
        CHECK(posenc_rope_dot_f64(offsets[o], 0, D, B, HALF, q64, k64, &want) == POSENC_OK);
        CHECK_NEAR(first[o], want, 1e-4);
    }
    CHECK(fabs(first[0] - first[2]) > 1e-2); /* different offsets differ */
}

/* ---- the cache ---------------------------------------------------------------- */

/* ---- argument checks ---------------------------------------------------------- */

TEST(errors_and_nothing_written)
{
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 64, 64, B, HALF) == POSENC_OK);
    enum { T = 4, H = 2, D = 64 };
    float x[T * H * D], x0[T * H * D];
    for (int i = 0; i < T * H * D; i++)
        x[i] = x0[i] = rng_val();
    int64_t pos[T] = {0, 1, 2, 3};
    /* a valid call; each check below changes one thing */
    const posenc_rope_qk_args ok = {
        .rope = &r, .n_tok = T, .pos = pos, .q = posenc_rope_view_dense(x, H, D)};
    posenc_rope_qk_args a;
    CHECK(posenc_rope_qk(NULL) == POSENC_ERR_NULL);
    a = ok, a.rope = NULL;
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_NULL);
    a = ok, a.q = (posenc_rope_view){0}; /* both views absent */
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_NULL);
    a = ok, a.k = a.q, a.k.dst = NULL; /* heads but no data */
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_NULL);
    a = ok, a.dtype = (posenc_dtype)3;
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_RANGE);
    a = ok, a.direction = (posenc_direction)2;
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_RANGE);
    a = ok, a.n_tok = 0;
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_RANGE);
    a = ok, a.n_threads = POSENC_MAX_THREADS + 1;
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_RANGE);
    a = ok, a.pos0 = 5; /* pos0 with pos */
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_RANGE);
    a = ok, a.q.n_head = 0; /* data but no heads */
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_RANGE);
    a = ok, a.q.head_stride = D - 1; /* heads overlap */
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_RANGE);
    a = ok, a.q.tok_stride = H * D - 1; /* tokens overlap */
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_RANGE);
    a = ok, a.q.order = POSENC_HEADS_OUTER; /* these strides are not heads outer */
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_RANGE);
    a = ok, a.q.src = x0, a.q.src_tok_stride = D, a.q.src_head_stride = D; /* src heads overlap */
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_RANGE);
    a = ok, a.q.tok_stride = SIZE_MAX / 2;
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_OVERFLOW);
    a.q.tok_stride = (size_t)PTRDIFF_MAX / 4; /* elements fit, bytes do not */
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_OVERFLOW);
    int64_t badpos[T] = {0, 1, -1, 3};
    a = ok, a.pos = badpos;
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_POS);
    badpos[2] = POSENC_MAX_POS + 1;
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_POS);
    a = ok, a.pos = NULL, a.pos0 = -1;
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_POS);
    a.pos0 = POSENC_MAX_POS - 2; /* the last token past the limit */
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_POS);
    CHECK(memcmp(x, x0, sizeof x) == 0); /* nothing written on error */
    a.pos0 = POSENC_MAX_POS - 3;
    CHECK(posenc_rope_qk(&a) == POSENC_OK);
    posenc_rope bad = r;
    a = ok, a.rope = &bad;
    bad.rotary_dim = 66;
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_RANGE);
    bad = r;
    bad.head_dim = POSENC_ROPE_MAX_HEAD_DIM + 1;
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_DIM);
    bad = r;
    bad.layout = (posenc_layout)2;
    CHECK(posenc_rope_qk(&a) == POSENC_ERR_LAYOUT);
}

/* n_threads 0 means 1: the same bits as 1 and as 4 threads. */
TEST(zero_threads_means_one)
{
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 128, 128, B, HALF) == POSENC_OK);
    enum { T = 64, H = 16, D = 128 };
    static float x[3][T * H * D];
    for (int i = 0; i < T * H * D; i++)
        x[0][i] = x[1][i] = x[2][i] = rng_val();
    static const unsigned threads[3] = {0, 1, 4};
    for (int i = 0; i < 3; i++) {
        posenc_rope_qk_args a = {.rope = &r,
                                 .n_tok = T,
                                 .pos0 = 77,
                                 .k = posenc_rope_view_dense(x[i], H, D),
                                 .n_threads = threads[i]};
        CHECK(posenc_rope_qk(&a) == POSENC_OK);
    }
    CHECK(memcmp(x[0], x[1], sizeof x[0]) == 0);
    CHECK(memcmp(x[0], x[2], sizeof x[0]) == 0);
}

/* ---- decode: one token ------------------------------------------------------- */

/* posenc_rope_decode_f32 equals posenc_rope_vec_f32 on every head, bit for
 * bit, with and without a cache; q or k alone; its errors. */
TEST(decode_matches_single_vector)
{
    enum { NQ = 8, NK = 2, D = 96 };
    posenc_rope r;
    CHECK(posenc_rope_init(&r, D, 64, 500000.0, HALF) == POSENC_OK);
    r.attn_factor = 1.125;
    posenc_rope_cache *cache = NULL;
    CHECK(posenc_rope_cache_create(&r, 5000, &cache) == POSENC_OK);
    static const int64_t positions[] = {0, 1, 31, 32, 4095, 4999};
    int bad = 0;
    for (size_t pi = 0; pi < sizeof positions / sizeof positions[0]; pi++) {
        for (int use_cache = 0; use_cache < 2; use_cache++) {
            float q[NQ * D], k[NK * D], qr[NQ * D], kr[NK * D];
            for (int i = 0; i < NQ * D; i++)
                q[i] = qr[i] = rng_val();
            for (int i = 0; i < NK * D; i++)
                k[i] = kr[i] = rng_val();
            CHECK(posenc_rope_decode_f32(&r, use_cache ? cache : NULL, positions[pi], q, NQ, k,
                                         NK) == POSENC_OK);
            for (int h = 0; h < NQ; h++)
                CHECK(posenc_rope_vec_f32(&r, positions[pi], POSENC_FORWARD, qr + h * D) ==
                      POSENC_OK);
            for (int h = 0; h < NK; h++)
                CHECK(posenc_rope_vec_f32(&r, positions[pi], POSENC_FORWARD, kr + h * D) ==
                      POSENC_OK);
            bad += memcmp(q, qr, sizeof q) != 0 || memcmp(k, kr, sizeof k) != 0;
        }
    }
    CHECK_EQ_INT(bad, 0);
    /* k alone, q alone */
    float k[NK * D], kr[NK * D], q[NQ * D], q0[NQ * D];
    for (int i = 0; i < NK * D; i++)
        k[i] = kr[i] = rng_val();
    for (int i = 0; i < NQ * D; i++)
        q[i] = q0[i] = rng_val();
    CHECK(posenc_rope_decode_f32(&r, NULL, 9, NULL, 0, k, NK) == POSENC_OK);
    for (int h = 0; h < NK; h++)
        CHECK(posenc_rope_vec_f32(&r, 9, POSENC_FORWARD, kr + h * D) == POSENC_OK);
    CHECK(memcmp(k, kr, sizeof k) == 0);
    CHECK(posenc_rope_decode_f32(&r, NULL, 9, q, NQ, NULL, 0) == POSENC_OK);
    CHECK(memcmp(q, q0, sizeof q) != 0);
    /* errors, nothing written */
    memcpy(q0, q, sizeof q);
    CHECK(posenc_rope_decode_f32(NULL, NULL, 9, q, NQ, k, NK) == POSENC_ERR_NULL);
    CHECK(posenc_rope_decode_f32(&r, NULL, 9, NULL, 0, NULL, 0) == POSENC_ERR_NULL);
    CHECK(posenc_rope_decode_f32(&r, NULL, 9, NULL, NQ, k, NK) == POSENC_ERR_NULL);
    CHECK(posenc_rope_decode_f32(&r, NULL, 9, q, 0, k, NK) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_decode_f32(&r, NULL, -1, q, NQ, k, NK) == POSENC_ERR_POS);
    CHECK(posenc_rope_decode_f32(&r, cache, 5000, q, NQ, k, NK) == POSENC_ERR_POS);
    CHECK(memcmp(q, q0, sizeof q) == 0);
    posenc_rope_cache_free(cache);
}

/* Every rotating function refuses a direction outside the enum, and
 * POSENC_INVERSE undoes POSENC_FORWARD. */
TEST(direction_is_checked)
{
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 8, 8, B, IL) == POSENC_OK);
    float f[8], f0[8];
    double d[8], d0[8];
    for (int i = 0; i < 8; i++) {
        f[i] = f0[i] = rng_val();
        d[i] = d0[i] = rng_val();
    }
    posenc_direction no = (posenc_direction)2;
    CHECK(posenc_rope_apply_f32(3, 8, B, IL, no, f) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_apply_f64(3, 8, B, IL, no, d) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_vec_f32(&r, 3, no, f) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_vec_f64(&r, 3, no, d) == POSENC_ERR_RANGE);
    CHECK(memcmp(f, f0, sizeof f) == 0 && memcmp(d, d0, sizeof d) == 0);
    CHECK(posenc_rope_apply_f64(123, 8, B, IL, POSENC_FORWARD, d) == POSENC_OK);
    CHECK(posenc_rope_apply_f64(123, 8, B, IL, POSENC_INVERSE, d) == POSENC_OK);
    for (int i = 0; i < 8; i++)
        CHECK_NEAR(d[i], d0[i], 1e-15);
    CHECK(posenc_rope_vec_f64(&r, 123, POSENC_FORWARD, d) == POSENC_OK);
    CHECK(posenc_rope_vec_f64(&r, 123, POSENC_INVERSE, d) == POSENC_OK);
    for (int i = 0; i < 8; i++)
        CHECK_NEAR(d[i], d0[i], 1e-15);
}

/* ---- instruction-set choice ---------------------------------------------------- */

/* Runs this program again with POSENC_ISA=value and reads the path it chose. */
static const char *self_path;
static int chosen_with(const char *value, char *out, size_t n)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "POSENC_ISA=%s '%s' --print-isa", value, self_path);
    FILE *p = popen(cmd, "r");
    if (!p)
        return 0;
    int ok = fgets(out, (int)n, p) != NULL;
    pclose(p);
    out[strcspn(out, "\n")] = 0;
    return ok;
}

TEST(isa_override)
{
    char got[64];
    int b = POSENC__ISA_SCALAR;
    for (int i = 0; i < POSENC__ISA_N; i++)
        if (posenc__isa_available(i))
            b = i;
    const char *best = posenc__isa_name(b); /* the choice without POSENC_ISA */
    CHECK(posenc__isa_available(POSENC__ISA_SCALAR));
    CHECK(chosen_with("scalar", got, sizeof got) && strcmp(got, "scalar") == 0);
    CHECK(chosen_with("avx2", got, sizeof got) &&
          strcmp(got, posenc__isa_available(POSENC__ISA_AVX2) ? "avx2" : best) == 0);
    CHECK(chosen_with("avx512", got, sizeof got) &&
          strcmp(got, posenc__isa_available(POSENC__ISA_AVX512) ? "avx512" : best) == 0);
    CHECK(chosen_with("nonsense", got, sizeof got) && strcmp(got, best) == 0);
    printf("test_kernels: paths available:%s%s%s; default %s\n",
           posenc__isa_available(0) ? " scalar" : "", posenc__isa_available(1) ? " avx2" : "",
           posenc__isa_available(2) ? " avx512" : "", posenc_rope_isa());
}

TEST(rope_check_rejects_each_malformed_field)
{
    posenc_rope r = make_rope(64, 32, POSENC_LAYOUT_HALF);
    CHECK_EQ_INT(posenc__rope_check(NULL), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc__rope_check(&r), POSENC_OK);
    posenc_rope bad = r;
    bad.rotary_dim = 66; /* even, but past head_dim 64 */
    CHECK_EQ_INT(posenc__rope_check(&bad), POSENC_ERR_RANGE);
    bad.rotary_dim = 0; /* no pair at all */
    CHECK_EQ_INT(posenc__rope_check(&bad), POSENC_ERR_RANGE);
    bad.rotary_dim = 66;
    float x[64] = {0};
    CHECK_EQ_INT(posenc_rope_vec_f32(&bad, 0, POSENC_FORWARD, x), POSENC_ERR_RANGE);
    bad = r;
    bad.attn_factor = NAN;
    CHECK_EQ_INT(posenc__rope_check(&bad), POSENC_ERR_RANGE);
    bad = r;
    bad.head_dim = POSENC_ROPE_MAX_HEAD_DIM + 1;
    CHECK_EQ_INT(posenc__rope_check(&bad), POSENC_ERR_DIM);
}

TEST(isa_hooks_refuse_unknown_paths)
{
    CHECK(!posenc__isa_available(-1));
    CHECK(!posenc__isa_available(POSENC__ISA_N));
    CHECK(posenc__isa_available(POSENC__ISA_SCALAR));
    CHECK(strcmp(posenc__isa_name(-1), "unknown") == 0);
    CHECK(strcmp(posenc__isa_name(POSENC__ISA_N), "unknown") == 0);
    CHECK(strcmp(posenc__isa_name(POSENC__ISA_AVX512), "avx512") == 0);

    posenc_rope r = make_rope(8, 8, POSENC_LAYOUT_INTERLEAVED);
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, x0[8];
    memcpy(x0, x, sizeof x);
    posenc_rope_view v = {.dst = x, .n_head = 1, .tok_stride = 8, .head_stride = 8};
    CHECK_EQ_INT(
        posenc__rope_qk_isa(-1, &(posenc_rope_qk_args){.rope = &r, .n_tok = 1, .pos0 = 3, .q = v}),
        POSENC_ERR_RANGE);
    CHECK_EQ_INT(
        posenc__rope_qk_isa(POSENC__ISA_N,
                            &(posenc_rope_qk_args){.rope = &r, .n_tok = 1, .pos0 = 3, .q = v}),
        POSENC_ERR_RANGE);
    CHECK(memcmp(x, x0, sizeof x) == 0); /* nothing written */
}

TEST(strides_that_overflow_are_refused)
{
    float buf[16], keep[16];
    fill_random(buf, 16);
    memcpy(keep, buf, sizeof buf);
    /* (n_tok - 1) * tok_stride overflows size_t */
    CHECK_EQ_INT(qk_strides(2, 1, SIZE_MAX, 8, POSENC_DTYPE_F32, buf), POSENC_ERR_OVERFLOW);
    /* (n_head - 1) * head_stride overflows */
    CHECK_EQ_INT(qk_strides(1, 3, 8, SIZE_MAX / 2 + 1, POSENC_DTYPE_F32, buf),
                 POSENC_ERR_OVERFLOW);
    /* each product fits, their sum does not: 2^63 + 2^63 */
    CHECK_EQ_INT(qk_strides(2, 2, SIZE_MAX / 2 + 1, SIZE_MAX / 2 + 1, POSENC_DTYPE_F32, buf),
                 POSENC_ERR_OVERFLOW);
    /* the sum fits, adding head_dim 8 does not */
    CHECK_EQ_INT(qk_strides(2, 1, SIZE_MAX - 3, 8, POSENC_DTYPE_F32, buf), POSENC_ERR_OVERFLOW);
    /* elements fit, bytes (x 4) do not */
    CHECK_EQ_INT(qk_strides(2, 1, SIZE_MAX / 2, 8, POSENC_DTYPE_F32, buf), POSENC_ERR_OVERFLOW);
    /* bytes fit in size_t (2^62 elements x 2 bytes = 2^63) but not in ptrdiff_t */
    CHECK_EQ_INT(qk_strides(2, 1, (size_t)1 << 62, 8, POSENC_DTYPE_BF16, buf),
                 POSENC_ERR_OVERFLOW);
    /* and the same view with a stride that fits is accepted (control) */
    CHECK_EQ_INT(qk_strides(2, 1, 8, 8, POSENC_DTYPE_F32, buf), POSENC_OK);
    CHECK(memcmp(buf, keep, 8 * sizeof *buf) == 0); /* token 0 at position 0: identity */
    CHECK(memcmp(buf + 8, keep + 8, 8 * sizeof *buf) != 0); /* token 1 turned */
}

TEST(overlapping_heads_and_tokens_are_refused)
{
    const posenc_view_order T = POSENC_TOKENS_OUTER, H = POSENC_HEADS_OUTER;
    const posenc_dtype F = POSENC_DTYPE_F32;
    float buf[64], keep[64];
    fill_random(buf, 64);
    memcpy(keep, buf, sizeof buf);
    /* 2 tokens x 2 heads of 8 with both strides 8: head 1 of token 0 is
     * token 1's head 0, whichever of the two is outer */
    CHECK_EQ_INT(qk_order(T, 2, 2, 8, 8, F, buf), POSENC_ERR_RANGE);
    CHECK_EQ_INT(qk_order(H, 2, 2, 8, 8, F, buf), POSENC_ERR_RANGE);
    /* heads outer: head_stride >= (n_tok - 1) * tok_stride + head_dim = 16 */
    CHECK_EQ_INT(qk_order(H, 2, 2, 8, 16, F, buf), POSENC_OK);
    CHECK_EQ_INT(qk_order(T, 2, 2, 8, 16, F, buf), POSENC_ERR_RANGE); /* not as tokens outer */
    CHECK_EQ_INT(qk_order(H, 2, 2, 7, 16, F, buf), POSENC_ERR_RANGE); /* tokens overlap */
    /* tokens outer: tok_stride >= (n_head - 1) * head_stride + head_dim = 16 */
    CHECK_EQ_INT(qk_order(T, 2, 2, 16, 8, F, buf), POSENC_OK);
    CHECK_EQ_INT(qk_order(H, 2, 2, 16, 8, F, buf), POSENC_ERR_RANGE); /* not as heads outer */
    /* tokens 4 apart, shorter than a head: neither order fits */
    CHECK_EQ_INT(qk_order(T, 2, 2, 4, 8, F, buf), POSENC_ERR_RANGE);
    CHECK_EQ_INT(qk_order(H, 2, 2, 4, 8, F, buf), POSENC_ERR_RANGE);
    /* one token, tokens outer: tok_stride must still hold the token's heads
     * (the next token would overlap), whatever n_tok is */
    CHECK_EQ_INT(qk_order(T, 1, 2, 0, 8, F, buf), POSENC_ERR_RANGE);
    CHECK_EQ_INT(qk_order(T, 1, 2, 15, 8, F, buf), POSENC_ERR_RANGE);
    CHECK_EQ_INT(qk_order(T, 1, 2, 16, 8, F, buf), POSENC_OK);
    /* one head, either order: only the token stride matters */
    CHECK_EQ_INT(qk_order(T, 2, 1, 8, 0, F, buf), POSENC_OK);
    CHECK_EQ_INT(qk_order(H, 2, 1, 8, 0, F, buf), POSENC_OK);
    CHECK_EQ_INT(qk_order(H, 2, 1, 7, 0, F, buf), POSENC_ERR_RANGE);
    /* an order outside the enum */
    CHECK_EQ_INT(qk_order((posenc_view_order)2, 2, 2, 16, 8, F, buf), POSENC_ERR_RANGE);
    /* every call above rotated position 0 (identity) or nothing */
    CHECK(memcmp(buf, keep, 8 * sizeof *buf) == 0);
}

/* The decode mistake of swapping the two strides of a [1][32][128] buffer
 * (tok_stride 128, head_stride 4096) would write 31 * 4096 elements past
 * it: as tokens outer it is refused, and nothing is written. */
TEST(swapped_strides_at_decode_are_refused)
{
    enum { NH = 32, HD = 128 };
    static float q[NH * HD], q0[NH * HD];
    fill_random(q, NH * HD);
    memcpy(q0, q, sizeof q);
    posenc_rope r = make_rope(HD, HD, POSENC_LAYOUT_HALF);
    posenc_rope_qk_args a = {
        .rope = &r,
        .n_tok = 1,
        .pos0 = 1000,
        .q = {.dst = q, .n_head = NH, .tok_stride = HD, .head_stride = NH * HD}};
    CHECK_EQ_INT(posenc_rope_qk(&a), POSENC_ERR_RANGE);
    CHECK(memcmp(q, q0, sizeof q) == 0);
    /* the right strides rotate, each head as the single-vector reference */
    a.q = posenc_rope_view_dense(q, NH, HD);
    CHECK_EQ_INT(a.q.tok_stride, NH * HD);
    CHECK_EQ_INT(a.q.head_stride, HD);
    CHECK_EQ_INT(posenc_rope_qk(&a), POSENC_OK);
    int bad = 0;
    for (int h = 0; h < NH; h++) {
        CHECK(posenc_rope_vec_f32(&r, 1000, POSENC_FORWARD, q0 + h * HD) == POSENC_OK);
        bad += memcmp(q + h * HD, q0 + h * HD, HD * sizeof(float)) != 0;
    }
    CHECK_EQ_INT(bad, 0);
}

TEST(src_equal_to_dst_is_in_place)
{
    posenc_rope r = make_rope(16, 12, POSENC_LAYOUT_INTERLEAVED);
    float x0[3 * 2 * 16], a[3 * 2 * 16], b[3 * 2 * 16];
    fill_random(x0, 96);
    memcpy(a, x0, sizeof a);
    memcpy(b, x0, sizeof b);
    /* src == dst, with src strides that would be wrong if they were used */
    posenc_rope_view va = {.dst = a,
                           .src = a,
                           .n_head = 2,
                           .tok_stride = 32,
                           .head_stride = 16,
                           .src_tok_stride = 1,
                           .src_head_stride = 1};
    posenc_rope_view vb = {.dst = b, .n_head = 2, .tok_stride = 32, .head_stride = 16};
    CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){.rope = &r, .n_tok = 3, .pos0 = 7, .q = va}),
                 POSENC_OK);
    CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){.rope = &r, .n_tok = 3, .pos0 = 7, .q = vb}),
                 POSENC_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(heads_match_reference(&r, x0, a, 3, 2, 7, 0));
}

TEST(consecutive_positions_past_the_end_are_refused)
{
    posenc_rope r = make_rope(8, 8, POSENC_LAYOUT_HALF);
    float x[3 * 8];
    fill_random(x, 24);
    posenc_rope_view v = {.dst = x, .n_head = 1, .tok_stride = 8, .head_stride = 8};
    /* pos0 valid, pos0 + n_tok - 1 = POSENC_MAX_POS + 1 is not */
    CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){
                     .rope = &r, .n_tok = 3, .pos0 = POSENC_MAX_POS - 1, .q = v}),
                 POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){
                     .rope = &r, .n_tok = 2, .pos0 = POSENC_MAX_POS - 1, .q = v}),
                 POSENC_OK);
    CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){
                     .rope = &r, .n_tok = 1, .pos0 = POSENC_MAX_POS + 1, .q = v}),
                 POSENC_ERR_POS);
    /* with a cache of 16 positions: 14, 15, 16 runs past it, 16 starts past it */
    posenc_rope_cache *c = NULL;
    CHECK_EQ_INT(posenc_rope_cache_create(&r, 16, &c), POSENC_OK);
    CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){
                     .rope = &r, .cache = c, .n_tok = 1, .pos0 = 16, .q = v}),
                 POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){
                     .rope = &r, .cache = c, .n_tok = 3, .pos0 = 14, .q = v}),
                 POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){
                     .rope = &r, .cache = c, .n_tok = 2, .pos0 = 14, .q = v}),
                 POSENC_OK);
    posenc_rope_cache_free(c);
}

TEST(more_threads_than_tokens_gives_the_reference)
{
    posenc_rope r = make_rope(WIDE_HD, 96, POSENC_LAYOUT_HALF);
    float *x0 = wide_input(), *x = malloc(2 * WIDE_HEADS * WIDE_HD * sizeof *x);
    CHECK(x0 && x);
    if (!x0 || !x) {
        free(x0);
        free(x);
        return;
    }
    memcpy(x, x0, 2 * WIDE_HEADS * WIDE_HD * sizeof *x);
    posenc_rope_view v = {
        .dst = x, .n_head = WIDE_HEADS, .tok_stride = WIDE_HEADS * WIDE_HD, .head_stride = WIDE_HD};
    CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){
                     .rope = &r, .n_tok = 2, .pos0 = 100, .q = v, .n_threads = 4}),
                 POSENC_OK);
    CHECK(heads_match_reference(&r, x0, x, 2, WIDE_HEADS, 100, 0));
    free(x0);
    free(x);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--print-isa") == 0) {
        printf("%s\n", posenc_rope_isa());
        return 0;
    }
    self_path = argv[0];
    RUN(bf16_hand_values);
    RUN(f16_hand_values);
    RUN(vector_bodies_special_values);
    RUN(vec_f32_equals_core);
    RUN(every_path_against_reference);
    RUN(long_ranges_against_reference);
    RUN(bf16_special_values);
    RUN(threads_against_reference);
    RUN(pool_arguments);
    RUN(pool_shared_by_two_callers);
    RUN(heads_outer_view);
    RUN(src_and_dst_orders_differ);
    RUN(inverse_undoes_forward);
    RUN(dot_depends_only_on_offset);
    RUN(errors_and_nothing_written);
    RUN(zero_threads_means_one);
    RUN(decode_matches_single_vector);
    RUN(direction_is_checked);
    RUN(isa_override);
    RUN(rope_check_rejects_each_malformed_field);
    RUN(isa_hooks_refuse_unknown_paths);
    RUN(strides_that_overflow_are_refused);
    RUN(overlapping_heads_and_tokens_are_refused);
    RUN(swapped_strides_at_decode_are_refused);
    RUN(src_equal_to_dst_is_in_place);
    RUN(consecutive_positions_past_the_end_are_refused);
    RUN(more_threads_than_tokens_gives_the_reference);
    return check_summary("kernels");
}
