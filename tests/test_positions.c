/* test_positions.c - positions that change while a kernel runs.
 *
 * posenc_rope_qk and posenc_mrope_qk check every position before they
 * write anything, then read each position once more where they use it and
 * check it there too (src/tensor/kernels.h, posenc__pos_read). A caller whose
 * positions change during the call breaks the contract in posenc.h; the
 * call must still stay inside its buffers and say POSENC_ERR_POS. Two ways
 * to get there, both run under AddressSanitizer (make test SANITIZE=1) and
 * ThreadSanitizer (make test-tsan):
 *   - positions that alias q: rotating an early token rewrites the
 *     positions of later ones (small integers become float pairs whose
 *     bits, read back as int64, are far outside the cache);
 *   - another thread rewriting the positions while calls run.
 * A call that returns POSENC_OK must have used only valid positions, so
 * after the writer stops, a call on the same buffers is checked value for
 * value against posenc_rope_vec_f32. */
#include "check.h"
#include "posenc.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define HD 8u       /* head_dim: 4 pairs, interleaved: pair k = int64 k of a head */
#define N_TOK 16u
#define MAX_POS 64

/* q of N_TOK tokens of one head, with the positions living in its first
 * tokens' memory (interleaved pair (2k, 2k+1) = the two halves of one
 * int64 on a little-endian machine). */
typedef union {
    float f[N_TOK * HD];
    int64_t i[N_TOK * HD / 2];
} aliased;

static void init_rope(posenc_rope *r)
{
    CHECK(posenc_rope_init(r, HD, HD, 10000.0, POSENC_LAYOUT_INTERLEAVED) == POSENC_OK);
}

/* q's own memory holds the positions 5, 6, ... (valid, inside the cache):
 * token 0 at position 5 turns pair (5, 0) into (5 c, 5 s) in denormal
 * floats, so position 1, read after token 0 is rotated, has a high word
 * that is no longer 0: at least 2^32 or negative. Before positions were
 * read once at use, this read the cache far out of bounds. */
TEST(positions_alias_q_with_cache)
{
    posenc_rope r;
    init_rope(&r);
    posenc_rope_cache *cache = NULL;
    CHECK(posenc_rope_cache_create(&r, MAX_POS, &cache) == POSENC_OK);
    aliased q;
    memset(&q, 0, sizeof q);
    for (unsigned t = 0; t < N_TOK; t++)
        q.i[t] = 5 + t;
    posenc_rope_qk_args a = {.rope = &r,
                             .cache = cache,
                             .dtype = POSENC_DTYPE_F32,
                             .n_tok = N_TOK,
                             .pos = q.i,
                             .q = posenc_rope_view_dense(q.f, 1, HD)};
    CHECK_EQ_INT(posenc_rope_qk(&a), POSENC_ERR_POS);
    /* token 0 was rotated at position 5 (its pair 0 was (5 as a denormal, 0)) */
    float x[HD];
    memset(x, 0, sizeof x);
    int64_t five = 5;
    memcpy(x, &five, sizeof five);
    memcpy(x + 2, &(int64_t){6}, sizeof(int64_t));
    memcpy(x + 4, &(int64_t){7}, sizeof(int64_t));
    memcpy(x + 6, &(int64_t){8}, sizeof(int64_t));
    CHECK(posenc_rope_vec_f32(&r, 5, POSENC_FORWARD, x) == POSENC_OK);
    CHECK(memcmp(x, q.f, sizeof x) == 0);
    posenc_rope_cache_free(cache);
}

/* The same without a cache: every position is computed, none indexes a
 * table; a position made negative by the rotation is refused, one made
 * large but valid is used. No read outside q. */
TEST(positions_alias_q_without_cache)
{
    posenc_rope r;
    init_rope(&r);
    aliased q;
    memset(&q, 0, sizeof q);
    for (unsigned t = 0; t < N_TOK; t++)
        q.i[t] = 5 + t;
    posenc_rope_qk_args a = {.rope = &r,
                             .dtype = POSENC_DTYPE_F32,
                             .n_tok = N_TOK,
                             .pos = q.i,
                             .q = posenc_rope_view_dense(q.f, 1, HD)};
    posenc_status st = posenc_rope_qk(&a);
    CHECK(st == POSENC_OK || st == POSENC_ERR_POS);
}

/* M-RoPE: the three rows inside q, with and without a cache. */
TEST(mrope_positions_alias_q)
{
    posenc_rope r;
    init_rope(&r);
    posenc_mrope m;
    const uint32_t section[3] = {2, 1, 1};
    CHECK(posenc_mrope_init(&m, HD / 2, section, POSENC_MROPE_CONTIGUOUS) == POSENC_OK);
    posenc_rope_cache *cache = NULL;
    CHECK(posenc_rope_cache_create(&r, MAX_POS, &cache) == POSENC_OK);
    for (int with_cache = 0; with_cache < 2; with_cache++) {
        aliased q;
        memset(&q, 0, sizeof q);
        /* rows t, h, w of N_TOK / 4 tokens each, back to back in q */
        size_t n = N_TOK / 4;
        for (size_t t = 0; t < n; t++) {
            q.i[t] = 5 + (int64_t)t;
            q.i[n + t] = 6 + (int64_t)t;
            q.i[2 * n + t] = 7 + (int64_t)t;
        }
        posenc_mrope_qk_args a = {.base = {.rope = &r,
                                           .cache = with_cache ? cache : NULL,
                                           .dtype = POSENC_DTYPE_F32,
                                           .n_tok = n,
                                           .pos = q.i,
                                           .q = posenc_rope_view_dense(q.f, 1, HD)},
                                  .mrope = &m,
                                  .pos_h = q.i + n,
                                  .pos_w = q.i + 2 * n};
        posenc_status st = posenc_mrope_qk(&a);
        if (with_cache)
            CHECK_EQ_INT(st, POSENC_ERR_POS);
        else
            CHECK(st == POSENC_OK || st == POSENC_ERR_POS);
    }
    posenc_rope_cache_free(cache);
}

/* ---- a writer thread ----------------------------------------------------- */

typedef struct writer {
    int64_t *pos;
    size_t n;
    int stop; /* set by the main thread (atomic builtins) */
} writer;

static void *write_positions(void *arg)
{
    writer *w = arg;
    uint64_t s = 0x9E3779B97F4A7C15u;
    while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        uint64_t v = s * 0x2545F4914F6CDD1Du;
        /* valid positions, negative ones and ones far past the cache */
        int64_t p = (v & 3) == 0 ? -(int64_t)(v >> 40) : (v & 3) == 1 ? (int64_t)(v >> 20)
                                                                      : (int64_t)(v % MAX_POS);
        __atomic_store_n(&w->pos[(v >> 8) % w->n], p, __ATOMIC_RELAXED);
    }
    return NULL;
}

/* Calls on 2 threads (a pool's; threads started per call only for far
 * bigger tensors), with and without a cache, while another thread rewrites
 * the positions: each call returns OK or POSENC_ERR_POS and stays inside its
 * buffers; afterwards the same buffers give the exact values. */
TEST(positions_rewritten_by_another_thread)
{
    enum { N = 512, NH = 32 }; /* 2^20 elements: 2 pool threads' worth */
    posenc_pool *pool = NULL;
    CHECK(posenc_pool_create(2, &pool) == POSENC_OK);
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 64, 64, 10000.0, POSENC_LAYOUT_HALF) == POSENC_OK);
    posenc_rope_cache *cache = NULL;
    CHECK(posenc_rope_cache_create(&r, MAX_POS, &cache) == POSENC_OK);
    static float q[N * NH * 64];
    static int64_t pos[N];
    for (size_t t = 0; t < N; t++)
        pos[t] = (int64_t)(t % MAX_POS);
    writer w = {.pos = pos, .n = N, .stop = 0};
    pthread_t th;
    int started = pthread_create(&th, NULL, write_positions, &w) == 0;
    CHECK(started);
    int ok = 0, refused = 0, other = 0;
    for (int i = 0; i < 200; i++) {
        for (size_t e = 0; e < sizeof q / sizeof q[0]; e++)
            q[e] = (float)(e % 7) - 3.0f;
        posenc_rope_qk_args a = {.rope = &r,
                                 .cache = (i & 1) ? cache : NULL,
                                 .dtype = POSENC_DTYPE_F32,
                                 .n_tok = N,
                                 .pos = pos,
                                 .q = posenc_rope_view_dense(q, NH, 64),
                                 .n_threads = 2};
        posenc_status st = posenc_rope_qk_pool(&a, (i & 2) ? pool : NULL);
        ok += st == POSENC_OK;
        refused += st == POSENC_ERR_POS;
        other += st != POSENC_OK && st != POSENC_ERR_POS;
    }
    __atomic_store_n(&w.stop, 1, __ATOMIC_RELAXED);
    if (started)
        pthread_join(th, NULL);
    CHECK_EQ_INT(other, 0);
    CHECK(ok + refused == 200);
    /* the writer is gone: valid positions, exact values */
    for (size_t t = 0; t < N; t++)
        pos[t] = (int64_t)((t * 7) % MAX_POS);
    for (size_t e = 0; e < sizeof q / sizeof q[0]; e++)
        q[e] = (float)(e % 7) - 3.0f;
    posenc_rope_qk_args a = {.rope = &r,
                             .cache = cache,
                             .dtype = POSENC_DTYPE_F32,
                             .n_tok = N,
                             .pos = pos,
                             .q = posenc_rope_view_dense(q, NH, 64),
                             .n_threads = 2};
    CHECK(posenc_rope_qk_pool(&a, pool) == POSENC_OK);
    int same = 1;
    for (size_t t = 0; t < N; t++)
        for (size_t h = 0; h < NH; h++) {
            float x[64];
            for (size_t e = 0; e < 64; e++)
                x[e] = (float)(((t * NH + h) * 64 + e) % 7) - 3.0f;
            CHECK(posenc_rope_vec_f32(&r, pos[t], POSENC_FORWARD, x) == POSENC_OK);
            same &= memcmp(x, q + (t * NH + h) * 64, sizeof x) == 0;
        }
    CHECK(same);
    posenc_rope_cache_free(cache);
    posenc_pool_free(pool);
}

int main(void)
{
    RUN(positions_alias_q_with_cache);
    RUN(positions_alias_q_without_cache);
    RUN(mrope_positions_alias_q);
    RUN(positions_rewritten_by_another_thread);
    return check_summary("test_positions");
}
