/* test_cache.c - the cos/sin cache (src/tensor/cache.c): its values against the
 * exact cos and sin, its size and buffer checks, and posenc_rope_qk refusing
 * a cache built for other parameters or too few positions. Its out-of-memory
 * path is in test_resources.c. */
#include "check.h"
#include "rope_check.h"
#include "posenc.h"
#include "kernels.h"

#include <stdint.h>
#include <stdlib.h>

#define B POSENC_DEFAULT_BASE
#define IL POSENC_LAYOUT_INTERLEAVED

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
    posenc_rope_view v = {.dst = x, .n_head = 1, .tok_stride = 96, .head_stride = 96};
    CHECK(posenc_rope_qk(&(posenc_rope_qk_args){
              .rope = &r, .cache = c, .n_tok = 1, .pos0 = 99, .q = v}) == POSENC_OK);
    CHECK(posenc_rope_qk(&(posenc_rope_qk_args){
              .rope = &r, .cache = c, .n_tok = 2, .pos0 = 99, .q = v}) == POSENC_ERR_POS);
    posenc_rope other = r;
    other.attn_factor = 1.0;
    CHECK(posenc_rope_qk(&(posenc_rope_qk_args){
              .rope = &other, .cache = c, .n_tok = 1, .pos0 = 5, .q = v}) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_init(&other, 96, 64, 500000.0, IL) == POSENC_OK);
    other.attn_factor = 1.25;
    CHECK(posenc_rope_qk(&(posenc_rope_qk_args){
              .rope = &other, .cache = c, .n_tok = 1, .pos0 = 5, .q = v}) == POSENC_ERR_RANGE);
    posenc_rope_cache_free(c);   /* caller's buffer: left alone */
    posenc_rope_cache_free(c2);
    posenc_rope_cache_free(NULL);
    free(buf);
}

/* One token-strided view whose extent does not fit: POSENC_ERR_OVERFLOW
 * before anything is written. */
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

int main(void)
{
    RUN(cache_values_and_errors);
    RUN(cache_for_other_parameters_is_refused);
    RUN(cache_refuses_a_malformed_rope_and_null_buffers);
    return check_summary("cache");
}
