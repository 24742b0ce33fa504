/* test_resources.c - what the library does when memory or threads run out:
 * the tensor kernels and the ALiBi tensor when no thread can start (the
 * caller does the work), the cos/sin cache and learned tables when malloc
 * fails (the program's out-of-memory messages are in
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
#include "kernels.h"
#include "check.h"
#include "rope_check.h"
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
    /* 64 Ki elements per thread: far less than the library's own rule */
    posenc_status st = posenc__rope_qk_run(
        posenc__isa_selected(),
        &(posenc_rope_qk_args){.rope = &r, .n_tok = 2, .pos0 = 100, .q = v,
                               .direction = POSENC_INVERSE, .n_threads = 2},
        NULL, 65536u);
    if (st != POSENC_OK || !heads_match_reference(&r, x0, x, 2, WIDE_HEADS, 100, 1))
        return 0;
    /* nor can a pool's: it is refused, and nothing is left behind */
    posenc_pool *p = (posenc_pool *)&r;
    st = posenc_pool_create(4, &p);
    if (st != POSENC_ERR_NOMEM || p != (posenc_pool *)&r) {
        fprintf(stderr, "posenc_pool_create under the cap: %s\n", posenc_strerror(st));
        return 0;
    }
    return 1;
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

/* ---- single vectors: rope dot, sinusoid add -------------------------------------- */

/* ---- the ALiBi bias tensor ----------------------------------------------------- */

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
    if (skipped_capped)
        fprintf(stderr, "resources: %d out-of-memory/thread-start checks skipped (%s)\n", skipped_capped,
               UNDER_ASAN ? "AddressSanitizer maps memory of its own" : "no /proc/self/statm");
    return check_summary("resources");
}
