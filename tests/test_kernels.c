/* test_kernels.c - the tensor kernels (posenc_rope_qk), the cos/sin cache and
 * posenc_rope_vec_f32, on every instruction set this machine runs, checked
 * against the single-vector reference (itself pinned to the core's
 * posenc_rope_apply_f32), hand-derived conversion values, and identities
 * (inverse undoes forward; the rotated dot product depends only on the
 * offset). Every buffer is poisoned outside the heads' rotary parts and
 * compared whole, so a write outside the views fails. */
#include "check.h"
#include "posenc.h"
#include "../src/kernels.h"

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
                int inv = rep & 1;
                CHECK(posenc_rope_vec_f32(&r, pos, inv, a) == POSENC_OK);
                CHECK((inv ? posenc_rope_invert_f32 : posenc_rope_apply_f32)(
                          pos, dims[di], B, (posenc_layout)layout, b) == POSENC_OK);
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
    CHECK(posenc_rope_vec_f32(&r, 123456, 0, a) == POSENC_OK);
    CHECK(posenc_rope_apply_f32(123456, 32, 500000.0, HALF, b) == POSENC_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    /* attn_factor 0.5 halves c and s exactly, so it halves the result */
    posenc_rope h = r;
    h.attn_factor = 0.5;
    for (int i = 0; i < 96; i++)
        a[i] = b[i] = rng_val();
    CHECK(posenc_rope_vec_f32(&h, 777, 0, a) == POSENC_OK);
    CHECK(posenc_rope_vec_f32(&r, 777, 0, b) == POSENC_OK);
    int bad = 0;
    for (int i = 0; i < 32; i++)
        bad += a[i] != 0.5f * b[i];
    for (int i = 32; i < 96; i++)
        bad += a[i] != b[i];
    CHECK_EQ_INT(bad, 0);
    /* errors */
    a[3] = NAN;
    memcpy(b, a, sizeof a);
    CHECK(posenc_rope_vec_f32(&r, 1, 0, a) == POSENC_ERR_NOT_FINITE);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(posenc_rope_vec_f32(NULL, 1, 0, a) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_f32(&r, 1, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_f32(&r, -1, 0, b) == POSENC_ERR_POS);
    CHECK(posenc_rope_vec_f32(&r, POSENC_MAX_POS + 1, 0, b) == POSENC_ERR_POS);
    h = r;
    h.rotary_dim = 33;
    CHECK(posenc_rope_vec_f32(&h, 1, 0, b) == POSENC_ERR_RANGE);
    h = r;
    h.head_dim = 0;
    CHECK(posenc_rope_vec_f32(&h, 1, 0, b) == POSENC_ERR_DIM);
    h = r;
    h.layout = (posenc_layout)7;
    CHECK(posenc_rope_vec_f32(&h, 1, 0, b) == POSENC_ERR_LAYOUT);
    h = r;
    h.attn_factor = INFINITY;
    CHECK(posenc_rope_vec_f32(&h, 1, 0, b) == POSENC_ERR_RANGE);
}

/* ---- the tensor call against the reference ------------------------------------ */

/* One test case: shapes, strides, options. q and k live in one fused buffer
 * per token: [q heads | k heads | tail], heads hs apart, with gaps. */
typedef struct kcase {
    int isa, dt, layout, in_place, use_cache, inverse, pos_mode;
    uint32_t head_dim, rotary_dim;
    size_t n_tok, nq, nk, gap_h, gap_t;
    unsigned threads;
} kcase;

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
                if (posenc_rope_vec_f32(r, p, c->inverse, x) != POSENC_OK)
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
    b.q = (posenc_rope_view){b.dst, NULL, c->nq, ts, hs, 0, 0};
    b.k = (posenc_rope_view){b.dst + koff * es, NULL, c->nk, ts, hs, 0, 0};
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
    posenc_status st = posenc__rope_qk_isa(c->isa, r, cache, (posenc_dtype)c->dt, c->n_tok, b.pos,
                                           b.pos ? 0 : 17, c->nq ? &b.q : NULL,
                                           c->nk ? &b.k : NULL, c->inverse, c->threads);
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

/* Enough work for several threads (>= 64 Ki elements each): same bytes as
 * the reference, whatever the thread count. */
TEST(threads_against_reference)
{
    int bad = 0;
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
            bad += !run_case(&c, c.use_cache ? cache : NULL, &r);
        }
        posenc_rope_cache_free(cache);
    }
    CHECK_EQ_INT(bad, 0);
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
    posenc_rope_view q = {x, NULL, H, D, T * D, 0, 0};
    CHECK(posenc_rope_qk(&r, NULL, POSENC_DTYPE_F32, T, NULL, 40, &q, NULL, 0, 1) == POSENC_OK);
    int bad = 0;
    for (int h = 0; h < H; h++)
        for (int t = 0; t < T; t++) {
            CHECK(posenc_rope_vec_f32(&r, 40 + t, 0, y + (h * T + t) * D) == POSENC_OK);
            bad += memcmp(x + (h * T + t) * D, y + (h * T + t) * D, D * sizeof(float)) != 0;
        }
    CHECK_EQ_INT(bad, 0);
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
            posenc_rope_view v = {x, NULL, H, H * D, D, 0, 0};
            CHECK(posenc__rope_qk_isa(isa, &r, NULL, POSENC_DTYPE_F32, T, pos, 0, &v, NULL, 0, 1) == POSENC_OK);
            CHECK(memcmp(x, x0, sizeof x) != 0); /* it did move */
            CHECK(posenc__rope_qk_isa(isa, &r, NULL, POSENC_DTYPE_F32, T, pos, 0, &v, NULL, 1, 1) == POSENC_OK);
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
        posenc_rope_view vq = {q, NULL, 1, D, D, 0, 0}, vk = {k, NULL, 1, D, D, 0, 0};
        CHECK(posenc_rope_qk(&r, NULL, POSENC_DTYPE_F32, N, pq, 0, &vq, NULL, 0, 1) == POSENC_OK);
        CHECK(posenc_rope_qk(&r, NULL, POSENC_DTYPE_F32, N, pk, 0, NULL, &vk, 0, 1) == POSENC_OK);
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

TEST(cache_values_and_errors)
{
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 96, 64, B, IL) == POSENC_OK);
    r.attn_factor = 1.25;
    size_t need = 0;
    CHECK(posenc_rope_cache_size(&r, 100, &need) == POSENC_OK);
    CHECK(need >= 100 * 64 * sizeof(float));
    void *buf = malloc(need);
    posenc_rope_cache *c = NULL, *c2 = NULL;
    CHECK(posenc_rope_cache_init(&r, 100, buf, need - 1, &c) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_cache_init(&r, 100, (char *)buf + 8, need - 8, &c) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_cache_init(&r, 100, buf, need, &c) == POSENC_OK);
    CHECK(posenc_rope_cache_create(&r, 100, &c2) == POSENC_OK);
    CHECK_EQ_INT(posenc_rope_cache_max_pos(c), 100);
    CHECK_EQ_INT(posenc_rope_cache_max_pos(NULL), 0);
    /* each row: c and s of posenc__sincos_dd, times attn_factor, rounded once */
    int bad = 0;
    for (int64_t p = 0; p < 100; p += 7) {
        const float *cr, *sr, *cr2, *sr2;
        CHECK(posenc_rope_cache_row(c, p, &cr, &sr) == POSENC_OK);
        CHECK(posenc_rope_cache_row(c2, p, &cr2, &sr2) == POSENC_OK);
        for (int k = 0; k < 32; k++) {
            double s, co;
            posenc__sincos_dd(p, posenc__inv_freq_dd((uint32_t)k, 64, B), &s, &co);
            bad += check_ulp_f32(cr[k], 1.25 * co) > 1.0 || check_ulp_f32(sr[k], 1.25 * s) > 1.0;
            bad += cr[k] != cr2[k] || sr[k] != sr2[k];
        }
    }
    CHECK_EQ_INT(bad, 0);
    const float *cr, *sr;
    CHECK(posenc_rope_cache_row(c, 100, &cr, &sr) == POSENC_ERR_POS);
    CHECK(posenc_rope_cache_row(c, -1, &cr, &sr) == POSENC_ERR_POS);
    CHECK(posenc_rope_cache_row(NULL, 1, &cr, &sr) == POSENC_ERR_NULL);
    CHECK(posenc_rope_cache_size(&r, 0, &need) == POSENC_ERR_POS);
    CHECK(posenc_rope_cache_size(&r, POSENC_MAX_POS + 2, &need) == POSENC_ERR_POS);
    CHECK(posenc_rope_cache_size(NULL, 10, &need) == POSENC_ERR_NULL);
    CHECK(posenc_rope_cache_create(&r, 10, NULL) == POSENC_ERR_NULL);
    /* a cache only serves the parameters it was built from */
    float x[96];
    for (int i = 0; i < 96; i++)
        x[i] = 1.0f;
    posenc_rope_view v = {x, NULL, 1, 96, 96, 0, 0};
    CHECK(posenc_rope_qk(&r, c, POSENC_DTYPE_F32, 1, NULL, 99, &v, NULL, 0, 1) == POSENC_OK);
    CHECK(posenc_rope_qk(&r, c, POSENC_DTYPE_F32, 2, NULL, 99, &v, NULL, 0, 1) == POSENC_ERR_POS);
    posenc_rope other = r;
    other.attn_factor = 1.0;
    CHECK(posenc_rope_qk(&other, c, POSENC_DTYPE_F32, 1, NULL, 5, &v, NULL, 0, 1) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_init(&other, 96, 64, 500000.0, IL) == POSENC_OK);
    other.attn_factor = 1.25;
    CHECK(posenc_rope_qk(&other, c, POSENC_DTYPE_F32, 1, NULL, 5, &v, NULL, 0, 1) == POSENC_ERR_RANGE);
    posenc_rope_cache_free(c);   /* caller's buffer: left alone */
    posenc_rope_cache_free(c2);
    posenc_rope_cache_free(NULL);
    free(buf);
}

/* ---- argument checks ---------------------------------------------------------- */

TEST(errors_and_nothing_written)
{
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 64, 64, B, HALF) == POSENC_OK);
    enum { T = 4, H = 2, D = 64 };
    float x[T * H * D], x0[T * H * D];
    for (int i = 0; i < T * H * D; i++)
        x[i] = x0[i] = rng_val();
    posenc_rope_view v = {x, NULL, H, H * D, D, 0, 0};
    int64_t pos[T] = {0, 1, 2, 3};
#define QK(...) posenc_rope_qk(__VA_ARGS__)
    CHECK(QK(NULL, NULL, POSENC_DTYPE_F32, T, pos, 0, &v, NULL, 0, 1) == POSENC_ERR_NULL);
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, pos, 0, NULL, NULL, 0, 1) == POSENC_ERR_NULL);
    posenc_rope_view w = v;
    w.dst = NULL;
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, pos, 0, &v, &w, 0, 1) == POSENC_ERR_NULL);
    CHECK(QK(&r, NULL, (posenc_dtype)3, T, pos, 0, &v, NULL, 0, 1) == POSENC_ERR_RANGE);
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, 0, pos, 0, &v, NULL, 0, 1) == POSENC_ERR_RANGE);
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, pos, 0, &v, NULL, 0, 0) == POSENC_ERR_RANGE);
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, pos, 0, &v, NULL, 0, POSENC_MAX_THREADS + 1) == POSENC_ERR_RANGE);
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, pos, 5, &v, NULL, 0, 1) == POSENC_ERR_RANGE);
    w = v;
    w.n_head = 0;
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, pos, 0, &w, NULL, 0, 1) == POSENC_ERR_RANGE);
    w = v;
    w.head_stride = D - 1; /* heads overlap */
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, pos, 0, &w, NULL, 0, 1) == POSENC_ERR_RANGE);
    w = v;
    w.tok_stride = H * D - 1; /* tokens overlap */
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, pos, 0, &w, NULL, 0, 1) == POSENC_ERR_RANGE);
    w = v;
    w.src = x0;
    w.src_tok_stride = D; /* source heads overlap */
    w.src_head_stride = D;
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, pos, 0, &w, NULL, 0, 1) == POSENC_ERR_RANGE);
    w = v;
    w.tok_stride = SIZE_MAX / 2;
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, pos, 0, &w, NULL, 0, 1) == POSENC_ERR_OVERFLOW);
    w.tok_stride = (size_t)PTRDIFF_MAX / 4; /* elements fit, bytes do not */
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, pos, 0, &w, NULL, 0, 1) == POSENC_ERR_OVERFLOW);
    int64_t badpos[T] = {0, 1, -1, 3};
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, badpos, 0, &v, NULL, 0, 1) == POSENC_ERR_POS);
    badpos[2] = POSENC_MAX_POS + 1;
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, badpos, 0, &v, NULL, 0, 1) == POSENC_ERR_POS);
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, NULL, -1, &v, NULL, 0, 1) == POSENC_ERR_POS);
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, NULL, POSENC_MAX_POS - 2, &v, NULL, 0, 1) == POSENC_ERR_POS);
    CHECK(memcmp(x, x0, sizeof x) == 0); /* nothing written on error */
    CHECK(QK(&r, NULL, POSENC_DTYPE_F32, T, NULL, POSENC_MAX_POS - 3, &v, NULL, 0, 1) == POSENC_OK);
    posenc_rope bad = r;
    bad.rotary_dim = 66;
    CHECK(QK(&bad, NULL, POSENC_DTYPE_F32, T, pos, 0, &v, NULL, 0, 1) == POSENC_ERR_RANGE);
    bad = r;
    bad.head_dim = POSENC_ROPE_MAX_HEAD_DIM + 1;
    CHECK(QK(&bad, NULL, POSENC_DTYPE_F32, T, pos, 0, &v, NULL, 0, 1) == POSENC_ERR_DIM);
    bad = r;
    bad.layout = (posenc_layout)2;
    CHECK(QK(&bad, NULL, POSENC_DTYPE_F32, T, pos, 0, &v, NULL, 0, 1) == POSENC_ERR_LAYOUT);
#undef QK
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
    RUN(threads_against_reference);
    RUN(heads_outer_view);
    RUN(inverse_undoes_forward);
    RUN(dot_depends_only_on_offset);
    RUN(cache_values_and_errors);
    RUN(errors_and_nothing_written);
    RUN(isa_override);
    return check_summary("test_kernels");
}
