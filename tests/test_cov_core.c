/* test_cov_core.c - the error paths and rarely taken branches of the tensor
 * kernels, the cos/sin cache, the table fill's instruction paths, the ALiBi
 * tensor and learned tables (the program's out-of-memory messages are in
 * tests/test_interpreter.c).
 *
 * Every check compares with an independent value: the single-vector
 * reference posenc_rope_vec_f32 (bit-identical by contract), the direct
 * cos/sin reference of the table fill, the penalties of
 * posenc_alibi_penalties, hand-derived sizes, or the exact status and
 * message a path must give.
 *
 * Out of memory and threads that cannot start are made real in a child
 * process whose address space is capped (tests/capped.h). */
#include "../src/kernels.h"
#include "check.h"
#include "capped.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

/* ---- helpers ---------------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static float rnd(void) /* uniform in [-1, 1) */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (float)((double)(rng_state >> 11) * 0x1p-52 - 1.0);
}

static void fill_random(float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = rnd();
}

static posenc_rope make_rope(uint32_t head_dim, uint32_t rotary_dim, posenc_layout layout)
{
    posenc_rope r;
    posenc_status st = posenc_rope_init(&r, head_dim, rotary_dim, 10000.0, layout);
    if (st != POSENC_OK) {
        fprintf(stderr, "posenc_rope_init(%u, %u) failed: %s\n", head_dim, rotary_dim,
                posenc_strerror(st));
        exit(1);
    }
    return r;
}

/* Every head of a [n_tok, n_head, head_dim] float tensor x (rotated) against
 * posenc_rope_vec_f32 on the same head of x0 (the input), bit for bit. */
static int heads_match_reference(const posenc_rope *r, const float *x0, const float *x,
                                 size_t n_tok, size_t n_head, int64_t pos0, int inverse)
{
    size_t hd = r->head_dim;
    float ref[POSENC_ROPE_MAX_HEAD_DIM];
    for (size_t t = 0; t < n_tok; t++)
        for (size_t h = 0; h < n_head; h++) {
            const float *in = x0 + (t * n_head + h) * hd;
            memcpy(ref, in, hd * sizeof *ref);
            if (posenc_rope_vec_f32(r, pos0 + (int64_t)t,
                                    (inverse) ? POSENC_INVERSE : POSENC_FORWARD, ref) != POSENC_OK)
                return 0;
            if (memcmp(ref, x + (t * n_head + h) * hd, hd * sizeof *ref) != 0) {
                fprintf(stderr, "token %zu head %zu differs from posenc_rope_vec_f32\n", t, h);
                return 0;
            }
        }
    return 1;
}

static void *noop_thread(void *arg) { return arg; }

/* Whether a thread can start now (it is joined at once). */
static int a_thread_starts(void)
{
    pthread_t th;
    if (pthread_create(&th, NULL, noop_thread, NULL) != 0)
        return 0;
    pthread_join(th, NULL);
    return 1;
}

/* ---- the tensor kernels: arguments ------------------------------------------- */

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

/* One token-strided view whose extent does not fit: POSENC_ERR_OVERFLOW
 * before anything is written. */
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

TEST(cache_for_other_parameters_is_refused)
{
    posenc_rope r = make_rope(32, 32, POSENC_LAYOUT_HALF);
    posenc_rope_cache *c = NULL;
    CHECK_EQ_INT(posenc_rope_cache_create(&r, 64, &c), POSENC_OK);
    float x[32], keep[32];
    fill_random(x, 32);
    memcpy(keep, x, sizeof x);
    posenc_rope_view v = {.dst = x, .n_head = 1, .tok_stride = 32, .head_stride = 32};
    int64_t pos[1] = {5};

    posenc_rope other = make_rope(32, 16, POSENC_LAYOUT_HALF); /* other rotary_dim */
    CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){
                     .rope = &other, .cache = c, .n_tok = 1, .pos = pos, .q = v}),
                 POSENC_ERR_RANGE);
    other = r;
    other.attn_factor = 0.5; /* other scale */
    CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){
                     .rope = &other, .cache = c, .n_tok = 1, .pos = pos, .q = v}),
                 POSENC_ERR_RANGE);
    other = r;
    other.inv_freq_hi[3] = nextafter(other.inv_freq_hi[3], 1.0); /* one frequency, high part */
    CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){
                     .rope = &other, .cache = c, .n_tok = 1, .pos = pos, .q = v}),
                 POSENC_ERR_RANGE);
    other = r;
    other.inv_freq_lo[15] = other.inv_freq_lo[15] + 0x1p-80; /* low part only */
    CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){
                     .rope = &other, .cache = c, .n_tok = 1, .pos = pos, .q = v}),
                 POSENC_ERR_RANGE);
    /* a cache that was freed (its magic cleared) or never built */
    size_t bytes = 0;
    CHECK_EQ_INT(posenc_rope_cache_size(&r, 64, &bytes), POSENC_OK);
    void *copy = malloc(bytes);
    CHECK(copy != NULL);
    if (copy) {
        memcpy(copy, c, sizeof(posenc_rope_cache));
        ((posenc_rope_cache *)copy)->magic = 0;
        CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){
                         .rope = &r, .cache = copy, .n_tok = 1, .pos = pos, .q = v}),
                     POSENC_ERR_RANGE);
        free(copy);
    }
    CHECK(memcmp(x, keep, sizeof x) == 0);
    /* the matching parameters are accepted (control) */
    CHECK_EQ_INT(posenc_rope_qk(&(posenc_rope_qk_args){
                     .rope = &r, .cache = c, .n_tok = 1, .pos = pos, .q = v}),
                 POSENC_OK);
    CHECK(heads_match_reference(&r, keep, x, 1, 1, 5, 0));
    posenc_rope_cache_free(c);
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

/* In the capped child: threads cannot start (no room for their stacks), so
 * the calling thread does their share; the result is still the reference. */
static int qk_without_threads(void *arg)
{
    const float *x0 = arg;
    posenc_rope r = make_rope(WIDE_HD, 96, POSENC_LAYOUT_HALF);
    static float x[2 * WIDE_HEADS * WIDE_HD]; /* in the image: no allocation */
    memcpy(x, x0, sizeof x);
    posenc_rope_view v = {
        .dst = x, .n_head = WIDE_HEADS, .tok_stride = WIDE_HEADS * WIDE_HD, .head_stride = WIDE_HD};
    if (a_thread_starts()) {
        fprintf(stderr, "qk_without_threads: a thread started under the cap\n");
        return 0;
    }
    posenc_status st = posenc_rope_qk(&(posenc_rope_qk_args){
        .rope = &r, .n_tok = 2, .pos0 = 100, .q = v, .direction = POSENC_INVERSE, .n_threads = 2});
    return st == POSENC_OK && heads_match_reference(&r, x0, x, 2, WIDE_HEADS, 100, 1);
}

TEST(threads_that_cannot_start_leave_the_work_to_the_caller)
{
    float *x0 = wide_input();
    CHECK(x0 != NULL);
    if (x0)
        CHECK_CAPPED(qk_without_threads, x0);
    free(x0);
}

/* ---- the cos/sin cache --------------------------------------------------------- */

TEST(cache_refuses_a_malformed_rope_and_null_buffers)
{
    posenc_rope r = make_rope(16, 16, POSENC_LAYOUT_INTERLEAVED), bad = r;
    bad.rotary_dim = 7; /* odd */
    size_t bytes = 12345;
    CHECK_EQ_INT(posenc_rope_cache_size(&r, 8, NULL), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_rope_cache_size(&bad, 8, &bytes), POSENC_ERR_RANGE);
    CHECK_EQ_INT(bytes, 12345);
    bad.layout = (posenc_layout)7;
    bad.rotary_dim = 16;
    posenc_rope_cache *c = (posenc_rope_cache *)&bytes; /* must stay as it is */
    static _Alignas(64) unsigned char buf[sizeof(posenc_rope_cache) + 64 + 8 * 16 * 4],
        big[sizeof buf + 64];
    CHECK_EQ_INT(posenc_rope_cache_init(&bad, 8, buf, sizeof buf, &c), POSENC_ERR_LAYOUT);
    CHECK_EQ_INT(posenc_rope_cache_create(&bad, 8, &c), POSENC_ERR_LAYOUT);
    CHECK(c == (posenc_rope_cache *)&bytes);
    /* size: header + 64 bytes of alignment slack + 8 rows of 16 floats */
    CHECK_EQ_INT(posenc_rope_cache_size(&r, 8, &bytes), POSENC_OK);
    CHECK_EQ_INT(bytes, sizeof buf);
    CHECK_EQ_INT(posenc_rope_cache_init(&r, 8, NULL, sizeof buf, &c), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_rope_cache_init(&r, 8, buf, sizeof buf, NULL), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_rope_cache_init(&r, 8, buf, sizeof buf - 1, &c), POSENC_ERR_RANGE);
    /* large enough, but 8 bytes past a 16-byte boundary */
    CHECK_EQ_INT(posenc_rope_cache_init(&r, 8, big + 8, sizeof big - 8, &c), POSENC_ERR_RANGE);
    CHECK(c == (posenc_rope_cache *)&bytes);
    /* the control: built in place, row 3 is cos/sin of 3 * inv_freq */
    CHECK_EQ_INT(posenc_rope_cache_init(&r, 8, buf, sizeof buf, &c), POSENC_OK);
    const float *cr = NULL, *sr = NULL;
    CHECK_EQ_INT(posenc_rope_cache_row(c, 3, NULL, &sr), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_rope_cache_row(c, 3, &cr, NULL), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_rope_cache_row(c, 3, &cr, &sr), POSENC_OK);
    for (int k = 0; k < 8; k++) {
        double th = 3.0 * pow(10000.0, -2.0 * k / 16.0);
        CHECK(check_ulp_f32(cr[k], cos(th)) <= 1.0);
        CHECK(check_ulp_f32(sr[k], sin(th)) <= 1.0);
    }
    posenc_rope_cache_free(c); /* the caller's buffer: left alone */
    CHECK_EQ_INT(posenc_rope_cache_max_pos(c), 8);
}

static int cache_create_out_of_memory(void *arg)
{
    (void)arg;
    posenc_rope r = make_rope(1024, 1024, POSENC_LAYOUT_HALF);
    posenc_rope_cache *c = (posenc_rope_cache *)&r;
    /* 2^18 rows of 1024 floats: 1 GiB, far past the cap */
    posenc_status st = posenc_rope_cache_create(&r, (int64_t)1 << 18, &c);
    if (st != POSENC_ERR_NOMEM || c != (posenc_rope_cache *)&r) {
        fprintf(stderr, "cache_create under the cap: %s\n", posenc_strerror(st));
        return 0;
    }
    return 1;
}

TEST(cache_create_reports_out_of_memory)
{
    CHECK_CAPPED(cache_create_out_of_memory, NULL);
}

TEST(sinusoid_tables_of_no_rows_write_nothing)
{
    double d[4] = {5, 5, 5, 5};
    float f[4] = {5, 5, 5, 5};
    CHECK_EQ_INT(posenc_sinusoid_table_f64(3, 0, 4, 10000.0, d), POSENC_OK);
    CHECK_EQ_INT(posenc_sinusoid_table_f32(3, 0, 4, 10000.0, f), POSENC_OK);
    CHECK(d[0] == 5 && d[3] == 5 && f[0] == 5 && f[3] == 5);
    /* and the checks still run before that */
    CHECK_EQ_INT(posenc_sinusoid_table_f64(-1, 0, 4, 10000.0, d), POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_sinusoid_table_f64(0, 1, 4, 1.0, d), POSENC_ERR_BASE);
}

/* ---- single vectors: rope dot, sinusoid add -------------------------------------- */

TEST(rope_dot_refuses_a_non_finite_k)
{
    double q[4] = {1, 2, 3, 4}, k[4] = {1, 2, INFINITY, 4}, out = 42;
    CHECK_EQ_INT(posenc_rope_dot_f64(1, 2, 4, 10000.0, POSENC_LAYOUT_HALF, q, k, &out),
                 POSENC_ERR_NOT_FINITE);
    CHECK_EQ_INT(posenc_rope_dot_f64(1, 2, 4, 10000.0, POSENC_LAYOUT_HALF, k, q, &out),
                 POSENC_ERR_NOT_FINITE); /* q this time */
    CHECK(out == 42);
    k[2] = 3;
    /* control: offset 1 over four pairs of q = k: sum of |pair|^2 cos(theta_k)
     * with theta_0 = 1 (pair (1,3)), theta_1 = 1e-2 (pair (2,4)) */
    CHECK_EQ_INT(posenc_rope_dot_f64(1, 2, 4, 10000.0, POSENC_LAYOUT_HALF, q, k, &out), POSENC_OK);
    CHECK_NEAR(out, 10.0 * cos(1.0) + 20.0 * cos(0.01), 1e-12);
}

TEST(sinusoid_add_f32_even_dimension)
{
    float x[6] = {0.5f, -0.25f, 1.0f, 2.0f, -3.0f, 0.125f}, x0[6];
    memcpy(x0, x, sizeof x);
    CHECK_EQ_INT(posenc_sinusoid_add_f32(9, 6, 10000.0, x), POSENC_OK);
    for (int i = 0; i < 6; i++) {
        int k = i / 2;
        double th = 9.0 / pow(10000.0, 2.0 * k / 6.0);
        double pe = i % 2 ? cos(th) : sin(th);
        CHECK_NEAR(x[i], x0[i] + pe, 6e-7);
    }
}

/* ---- the ALiBi bias tensor ----------------------------------------------------- */

TEST(alibi_bias_refuses_empty_and_far_shapes)
{
    float out[4] = {9, 9, 9, 9};
    CHECK_EQ_INT(posenc_alibi_bias_f32(2, 0, 2, 0, 0, 1, out), POSENC_ERR_DIM);
    CHECK_EQ_INT(posenc_alibi_bias_f32(2, 2, 0, 0, 0, 1, out), POSENC_ERR_DIM);
    CHECK_EQ_INT(posenc_alibi_bias_f32(0, 2, 2, 0, 0, 1, out), POSENC_ERR_DIM);
    /* key positions 0 .. n_key - 1 = 2^31: one past POSENC_MAX_POS */
    CHECK_EQ_INT(posenc_alibi_bias_f32(1, 1, (uint32_t)POSENC_MAX_POS + 2u, 0, 0, 1, out),
                 POSENC_ERR_POS);
    CHECK(out[0] == 9 && out[3] == 9);
}

/* 8 heads x 64 queries x 64 keys against posenc_alibi_penalties. */
static int alibi_matches_penalties(const float *out, int causal)
{
    double pen[8];
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++) {
            if (posenc_alibi_penalties(8, 10 + i, j, pen) != POSENC_OK)
                return 0;
            for (int h = 0; h < 8; h++) {
                float want = causal && j > 10 + i ? -INFINITY : (float)pen[h];
                if (out[((size_t)h * 64 + (size_t)i) * 64 + (size_t)j] != want)
                    return 0;
            }
        }
    return 1;
}

static int alibi_without_threads(void *arg)
{
    (void)arg;
    static float out[8 * 64 * 64];
    if (a_thread_starts()) {
        fprintf(stderr, "alibi_without_threads: a thread started under the cap\n");
        return 0;
    }
    return posenc_alibi_bias_f32(8, 64, 64, 10, 1, 8, out) == POSENC_OK &&
           alibi_matches_penalties(out, 1);
}

TEST(alibi_threads_that_cannot_start_leave_the_rows_to_the_caller)
{
    CHECK_CAPPED(alibi_without_threads, NULL); /* before any thread of this process */
    static float out[8 * 64 * 64];
    CHECK_EQ_INT(posenc_alibi_bias_f32(8, 64, 64, 10, 1, 8, out), POSENC_OK);
    CHECK(alibi_matches_penalties(out, 1));
}

/* ---- learned tables ---------------------------------------------------------------- */

static posenc_status read_text(const char *text, posenc_learned **out, posenc_load_error *err)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    if (!f)
        return POSENC_ERR_IO;
    posenc_status st = posenc_learned_read(f, out, err);
    fclose(f);
    return st;
}

TEST(learned_errors_without_an_error_record)
{
    posenc_learned *t = NULL;
    CHECK_EQ_INT(read_text("1 2 3\n4 5\n", &t, NULL), POSENC_ERR_FORMAT); /* ragged */
    CHECK(t == NULL);
    CHECK_EQ_INT(read_text("1 x\n", &t, NULL), POSENC_ERR_FORMAT);
    CHECK(t == NULL);
    posenc_load_error e;
    CHECK_EQ_INT(posenc_learned_load("tests/data/none", NULL, &e), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_learned_load(NULL, &t, &e), POSENC_ERR_NULL);
    /* commas, tabs and a CR inside a line separate numbers too */
    CHECK_EQ_INT(read_text("1,2\r3\n4\t5 6\r\n", &t, NULL), POSENC_OK);
    double r2[3];
    CHECK_EQ_INT(posenc_learned_n_pos(t), 2);
    CHECK_EQ_INT(posenc_learned_row_f64(t, 0, r2), POSENC_OK);
    CHECK(r2[0] == 1 && r2[1] == 2 && r2[2] == 3);
    CHECK_EQ_INT(posenc_learned_row_f64(t, 1, r2), POSENC_OK);
    CHECK(r2[0] == 4 && r2[1] == 5 && r2[2] == 6);
    posenc_learned_free(t);
    /* control: two rows of three, row 1 read back */
    CHECK_EQ_INT(read_text("1 2 3\n4 5 6\n", &t, NULL), POSENC_OK);
    double row[3];
    CHECK_EQ_INT(posenc_learned_row_f64(t, 1, row), POSENC_OK);
    CHECK(row[0] == 4 && row[1] == 5 && row[2] == 6);
    posenc_learned_free(t);
}

static int learned_out_of_memory(void *arg)
{
    FILE *f = arg;
    posenc_learned *t = NULL;
    posenc_load_error e;
    posenc_status st = posenc_learned_read(f, &t, &e);
    if (st != POSENC_ERR_NOMEM || t != NULL) {
        fprintf(stderr, "learned_read under the cap: %s\n", posenc_strerror(st));
        return 0;
    }
    return 1;
}

TEST(learned_read_reports_out_of_memory)
{
    char *text = million_ones();
    CHECK(text != NULL);
    if (!text)
        return;
    FILE *f = fmemopen(text, strlen(text), "r");
    CHECK(f != NULL);
    if (f) {
        /* control first: the same text reads as 1 row of 2^20 ones */
        posenc_learned *t = NULL;
        CHECK_EQ_INT(posenc_learned_read(f, &t, NULL), POSENC_OK);
        CHECK_EQ_INT(posenc_learned_n_pos(t), 1);
        CHECK_EQ_INT(posenc_learned_dim(t), POSENC_MAX_DIM);
        posenc_learned_free(t);
        rewind(f);
        CHECK_CAPPED(learned_out_of_memory, f);
        fclose(f);
    }
    free(text);
}

int main(void)
{
    capped_setup();
    /* The capped children first: no thread has run yet, so no thread stack
     * is cached for the children to reuse. */
    RUN(threads_that_cannot_start_leave_the_work_to_the_caller);
    RUN(alibi_threads_that_cannot_start_leave_the_rows_to_the_caller);
    RUN(cache_create_reports_out_of_memory);
    RUN(learned_read_reports_out_of_memory);
    RUN(rope_check_rejects_each_malformed_field);
    RUN(isa_hooks_refuse_unknown_paths);
    RUN(strides_that_overflow_are_refused);
    RUN(overlapping_heads_and_tokens_are_refused);
    RUN(swapped_strides_at_decode_are_refused);
    RUN(src_equal_to_dst_is_in_place);
    RUN(cache_for_other_parameters_is_refused);
    RUN(consecutive_positions_past_the_end_are_refused);
    RUN(more_threads_than_tokens_gives_the_reference);
    RUN(cache_refuses_a_malformed_rope_and_null_buffers);
    RUN(sinusoid_tables_of_no_rows_write_nothing);
    RUN(rope_dot_refuses_a_non_finite_k);
    RUN(sinusoid_add_f32_even_dimension);
    RUN(alibi_bias_refuses_empty_and_far_shapes);
    RUN(learned_errors_without_an_error_record);
    if (skipped_capped)
        fprintf(stderr, "cov_core: %d out-of-memory/thread-start checks skipped (%s)\n", skipped_capped,
               UNDER_ASAN ? "AddressSanitizer maps memory of its own" : "no /proc/self/statm");
    return check_summary("cov_core");
}
