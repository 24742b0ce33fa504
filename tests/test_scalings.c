/* test_scalings.c - the RoPE scalings against golden vectors from an
 * independent mpmath evaluation (tools/gen_rope_golden.py), the model-head
 * rotation, then every documented error and the edges where a double-double
 * value decides a floor or a band (hand-derived, or mpmath at 300 bits as
 * quoted), and the fuzz findings on dynamic NTK and extreme frequencies. */
#include "check.h"

#include <float.h>
#include "posenc.h"
#include "rope_golden.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI_ = 3.14159265358979323846;
static golden_case cases[GOLDEN_MAX_CASES];
static int n_cases;
static posenc_rope rope, rope2;

/* The largest errors seen, printed at the end (the accuracy actually had). */
static double worst_rel_double, worst_rel_dd, worst_attn, worst_rot;

/* relative error; absolute where the exact value is 0 (proportional's
 * pairs past n: the golden 0 must come out exactly 0) */
static double rel(double got, double want)
{
    return want == 0.0 ? fabs(got) : fabs(got - want) / fabs(want);
}

/* |(a_hi + a_lo) - (b_hi + b_lo)| / |b|, the sums kept exact enough by
 * subtracting the high parts first (they agree to ~1e-16). */
static double rel_dd(double ahi, double alo, double bhi, double blo)
{
    double e = fabs((ahi - bhi) + (alo - blo));
    return bhi == 0.0 ? e : e / fabs(bhi);
}

static const golden_case *find_case(const char *name)
{
    for (int i = 0; i < n_cases; i++)
        if (strcmp(cases[i].name, name) == 0)
            return &cases[i];
    return NULL;
}

TEST(golden_file_read)
{
    n_cases = golden_read("tests/data/rope_golden.txt", cases, GOLDEN_MAX_CASES);
    CHECK(n_cases >= 17);
    /* every variant is present */
    const char *need[] = {"llama-2-7b", "codellama-7b", "llama-3.1-8b", "deepseek-v2-lite",
                          "gpt-oss-20b", "phi-4-mini-short", "phi-4-mini-long",
                          "dynamic-below", "dynamic-at", "dynamic-above", "gpt-neox-20b",
                          "ntk-static", "vicuna-7b-v1.5-16k", "freq-factors"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        CHECK(find_case(need[i]) != NULL);
}

/* Every case: inv_freq within 1e-12 relative as a double (the bar), the
 * double-double within 1e-28, the attention factor within 1e-15, and a few
 * rotations of a unit vector within 1e-15 absolute. */
TEST(golden_frequencies)
{
    CHECK(n_cases > 0);
    for (int i = 0; i < n_cases; i++) {
        const golden_case *g = &cases[i];
        posenc_status st = posenc_rope_init_config(&rope, &g->cfg, g->cur_len);
        if (st != POSENC_OK) {
            fprintf(stderr, "case %s: %s\n", g->name, posenc_strerror(st));
            CHECK(st == POSENC_OK);
            continue;
        }
        CHECK_EQ_INT(rope.rotary_dim / 2, g->n_freqs);
        for (uint32_t k = 0; k < g->n_freqs; k++) {
            double f = rope.inv_freq_hi[k] + rope.inv_freq_lo[k];
            double e1 = rel(f, g->f_hi[k]);
            double e2 = rel_dd(rope.inv_freq_hi[k], rope.inv_freq_lo[k], g->f_hi[k], g->f_lo[k]);
            if (e1 > worst_rel_double)
                worst_rel_double = e1;
            if (e2 > worst_rel_dd)
                worst_rel_dd = e2;
            if (!(e1 <= 1e-12) || !(e2 <= 1e-28))
                fprintf(stderr, "case %s k=%u: got %.17g %.17g want %.17g %.17g\n", g->name, k,
                        rope.inv_freq_hi[k], rope.inv_freq_lo[k], g->f_hi[k], g->f_lo[k]);
            CHECK(e1 <= 1e-12);
            CHECK(e2 <= 1e-28);
        }
        double ea = fabs(rope.attn_factor - g->attn_hi);
        if (ea > worst_attn)
            worst_attn = ea;
        CHECK_NEAR(rope.attn_factor, g->attn_hi, 1e-15);
        for (size_t j = 0; j < g->n_rot; j++) {
            const golden_rot *gr = &g->rot[j];
            double x[POSENC_ROPE_MAX_HEAD_DIM] = {0};
            uint32_t i0, i1;
            CHECK(posenc_pair_index(gr->k, rope.rotary_dim, rope.layout, &i0, &i1) == POSENC_OK);
            x[i0] = 1.0;
            CHECK(posenc_rope_vec_f64(&rope, gr->pos, POSENC_FORWARD, x) == POSENC_OK);
            double e = fmax(fabs(x[i0] - gr->c), fabs(x[i1] - gr->s));
            if (e > worst_rot)
                worst_rot = e;
            CHECK(e <= 1e-15);
        }
    }
}

/* EXPLAIN FREQS computes the same numbers as init, bit for bit. */
TEST(explain_matches_init)
{
    static posenc_freq_info info[POSENC_ROPE_MAX_HEAD_DIM / 2];
    for (int i = 0; i < n_cases; i++) {
        const golden_case *g = &cases[i];
        posenc_rope_scaling s;
        posenc_freqs_summary sum;
        CHECK(posenc_rope_config_scaling(&g->cfg, &s) == POSENC_OK);
        CHECK(posenc_rope_explain_freqs(g->rotary_dim, g->base, &s, g->cur_len, info, &sum) ==
              POSENC_OK);
        CHECK(posenc_rope_init_config(&rope, &g->cfg, g->cur_len) == POSENC_OK);
        CHECK(sum.attn_factor == rope.attn_factor);
        for (uint32_t k = 0; k < g->n_freqs; k++) {
            CHECK(info[k].inv_freq == rope.inv_freq_hi[k] + rope.inv_freq_lo[k]);
            CHECK(info[k].k == k);
            /* wavelength = 2 pi / f; infinite for proportional's zero pairs */
            if (info[k].band == POSENC_BAND_ZERO)
                CHECK(info[k].inv_freq == 0.0 && isinf(info[k].wavelength));
            else
                CHECK(rel(info[k].wavelength * info[k].inv_freq, 2 * PI_) < 1e-15);
        }
    }
}

/* The Llama 3.1 bands by hand: with base 500000, d 128, L 8192, factors
 * 1 and 4, pairs with wavelength below 2048 tokens are kept, above 8192
 * divided by 8, in between blended. The wavelength 2 pi 500000^(2k/128)
 * crosses 2048 at k = 28.22 and 8192 at k = 34.98: pairs 0..28 kept (29),
 * 29..34 blended (6), 35..63 divided (29). */
TEST(llama3_bands)
{
    const golden_case *g = find_case("llama-3.1-8b");
    CHECK(g != NULL);
    if (!g)
        return;
    static posenc_freq_info info[64];
    posenc_rope_scaling s;
    posenc_freqs_summary sum;
    CHECK(posenc_rope_config_scaling(&g->cfg, &s) == POSENC_OK);
    CHECK(posenc_rope_explain_freqs(128, 500000.0, &s, 0, info, &sum) == POSENC_OK);
    CHECK(sum.llama3_keep_below == 2048.0 && sum.llama3_divide_above == 8192.0 &&
          sum.yarn_ramp_lo == 0.0 && sum.yarn_ramp_hi == 0.0);
    /* k where 2 pi 500000^(2k/128) = w: k = 64 ln(w / 2 pi) / ln(500000) */
    double k_hi = 64.0 * log(2048.0 / (2 * PI_)) / log(500000.0); /* 28.22 */
    double k_lo = 64.0 * log(8192.0 / (2 * PI_)) / log(500000.0); /* 34.98 */
    int nh = 0, nl = 0, nb = 0;
    for (uint32_t k = 0; k < 64; k++) {
        posenc_freq_band want = k < k_hi   ? POSENC_BAND_HIGH
                                : k > k_lo ? POSENC_BAND_LOW
                                           : POSENC_BAND_BLEND;
        CHECK(info[k].band == want);
        nh += want == POSENC_BAND_HIGH;
        nl += want == POSENC_BAND_LOW;
        nb += want == POSENC_BAND_BLEND;
        if (want == POSENC_BAND_HIGH)
            CHECK(info[k].inv_freq == info[k].base_inv_freq);
        if (want == POSENC_BAND_LOW)
            CHECK(rel(info[k].inv_freq * 8.0, info[k].base_inv_freq) < 1e-15);
        if (want == POSENC_BAND_BLEND)
            CHECK(info[k].ramp > 0.0 && info[k].ramp < 1.0);
    }
    CHECK(nh == 29 && nb == 6 && nl == 29);
}

/* Dynamic NTK: at and below L it is the default, bit for bit; above, the
 * base grows; never NaN, never below the default base, at any length. */
TEST(dynamic_ntk_below_at_above)
{
    posenc_rope_scaling s;
    CHECK(posenc_rope_scaling_init(&s, POSENC_ROPE_DYNAMIC) == POSENC_OK);
    s.factor = 2.0;
    s.original_max_position_embeddings = 4096;
    CHECK(posenc_rope_init(&rope2, 128, 128, 10000.0, POSENC_LAYOUT_HALF) == POSENC_OK);
    int64_t lens[] = {0, 1, 4095, 4096};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        CHECK(posenc_rope_init_scaled(&rope, 128, 128, 10000.0, POSENC_LAYOUT_HALF, &s,
                                      lens[i]) == POSENC_OK);
        CHECK(memcmp(rope.inv_freq_hi, rope2.inv_freq_hi, sizeof rope.inv_freq_hi) == 0);
        CHECK(memcmp(rope.inv_freq_lo, rope2.inv_freq_lo, sizeof rope.inv_freq_lo) == 0);
    }
    double prev = 10000.0;
    int64_t above[] = {4097, 8192, 65536, 1000000, POSENC_MAX_POS + 1};
    for (size_t i = 0; i < sizeof above / sizeof above[0]; i++) {
        posenc_freqs_summary sum;
        CHECK(posenc_rope_explain_freqs(128, 10000.0, &s, above[i], NULL, &sum) == POSENC_OK);
        CHECK(isfinite(sum.effective_base) && sum.effective_base > prev);
        prev = sum.effective_base;
        CHECK(posenc_rope_init_scaled(&rope, 128, 128, 10000.0, POSENC_LAYOUT_HALF, &s,
                                      above[i]) == POSENC_OK);
        for (int k = 1; k < 64; k++)
            CHECK(isfinite(rope.inv_freq_hi[k]) && rope.inv_freq_hi[k] > 0 &&
                  rope.inv_freq_hi[k] < rope2.inv_freq_hi[k]);
    }
    /* base' at 8192 by hand: 10000 * (2*2 - 1)^(128/126) = 30501.4... */
    posenc_freqs_summary sum;
    CHECK(posenc_rope_explain_freqs(128, 10000.0, &s, 8192, NULL, &sum) == POSENC_OK);
    CHECK(rel(sum.effective_base, 10000.0 * pow(3.0, 128.0 / 126.0)) < 1e-14);
}

/* Every parameter is checked, and *r is untouched on error. */
TEST(parameter_validation)
{
    posenc_rope_scaling s;
    const posenc_rope_scaling *p = &s;
#define INIT_ERR(want)                                                                        \
    do {                                                                                      \
        memset(&rope, 0x5a, sizeof rope);                                                     \
        CHECK_EQ_INT(posenc_rope_init_scaled(&rope, 128, 128, 10000.0, POSENC_LAYOUT_HALF, p, \
                                             0),                                              \
                     want);                                                                   \
        CHECK(rope.head_dim == 0x5a5a5a5au);                                                  \
    } while (0)
    CHECK_EQ_INT(posenc_rope_scaling_init(NULL, POSENC_ROPE_YARN), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_rope_scaling_init(&s, (posenc_rope_type)8), POSENC_ERR_RANGE);
    CHECK(posenc_rope_scaling_init(&s, POSENC_ROPE_LINEAR) == POSENC_OK);
    s.factor = 0.5;
    INIT_ERR(POSENC_ERR_RANGE);
    s.factor = NAN;
    INIT_ERR(POSENC_ERR_RANGE);
    CHECK(posenc_rope_scaling_init(&s, POSENC_ROPE_YARN) == POSENC_OK);
    s.factor = 4;
    INIT_ERR(POSENC_ERR_RANGE); /* L missing */
    s.original_max_position_embeddings = 4096;
    s.beta_fast = 0.5;
    INIT_ERR(POSENC_ERR_RANGE); /* beta_fast must be at least beta_slow */
    s.beta_fast = 32;
    s.mscale = -1;
    INIT_ERR(POSENC_ERR_RANGE);
    s.mscale = 0;
    s.attention_factor = -2;
    INIT_ERR(POSENC_ERR_RANGE);
    s.attention_factor = 0;
    CHECK(posenc_rope_init_scaled(&rope, 128, 128, 10000.0, POSENC_LAYOUT_HALF, p, 0) ==
          POSENC_OK);
    CHECK_EQ_INT(posenc_rope_init_scaled(&rope, 128, 128, 10000.0, POSENC_LAYOUT_HALF, p, -1),
                 POSENC_ERR_POS);
    CHECK(posenc_rope_scaling_init(&s, POSENC_ROPE_LLAMA3) == POSENC_OK);
    s.factor = 8;
    s.original_max_position_embeddings = 8192;
    s.low_freq_factor = 4;
    s.high_freq_factor = 1;
    INIT_ERR(POSENC_ERR_RANGE);
    CHECK(posenc_rope_scaling_init(&s, POSENC_ROPE_NTK) == POSENC_OK);
    s.factor = 2;
    CHECK_EQ_INT(posenc_rope_init_scaled(&rope, 2, 2, 10000.0, POSENC_LAYOUT_HALF, p, 0),
                 POSENC_ERR_RANGE);
    double list[64], bad[64];
    for (int i = 0; i < 64; i++)
        list[i] = bad[i] = 1.0 + i;
    CHECK(posenc_rope_scaling_init(&s, POSENC_ROPE_LONGROPE) == POSENC_OK);
    s.original_max_position_embeddings = 4096;
    s.factor = 32;
    INIT_ERR(POSENC_ERR_NULL);
    s.short_factor = list;
    s.n_short_factor = 64;
    s.long_factor = list;
    s.n_long_factor = 63;
    INIT_ERR(POSENC_ERR_DIM);
    s.n_long_factor = 64;
    s.long_factor = bad;
    bad[10] = NAN;
    INIT_ERR(POSENC_ERR_NOT_FINITE);
    bad[10] = 0.0;
    INIT_ERR(POSENC_ERR_RANGE);
    bad[10] = 11.0;
    CHECK(posenc_rope_init_scaled(&rope, 128, 128, 10000.0, POSENC_LAYOUT_HALF, p, 0) ==
          POSENC_OK);
    /* attention factor sqrt(1 + ln 32 / ln 4096) = sqrt(17/12) */
    CHECK(rel(rope.attn_factor, sqrt(17.0 / 12.0)) < 1e-15);
    s.freq_factors = list;
    s.n_freq_factors = 32;
    INIT_ERR(POSENC_ERR_DIM);
    CHECK(posenc_rope_scaling_init(&s, POSENC_ROPE_DEFAULT) == POSENC_OK);
    s.type = (posenc_rope_type)99;
    INIT_ERR(POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_rope_init_scaled(NULL, 128, 128, 10000.0, POSENC_LAYOUT_HALF, NULL, 0),
                 POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_rope_init_scaled(&rope, 128, 130, 10000.0, POSENC_LAYOUT_HALF, NULL, 0),
                 POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_rope_init_scaled(&rope, 128, 128, 1.0, POSENC_LAYOUT_HALF, NULL, 0),
                 POSENC_ERR_BASE);
    CHECK_EQ_INT(posenc_rope_explain_freqs(3, 10000.0, NULL, 0, NULL, NULL), POSENC_ERR_RANGE);
#undef INIT_ERR
}

TEST(type_names)
{
    posenc_rope_type t;
    for (int i = 0; i <= POSENC_ROPE_LONGROPE; i++) {
        CHECK(posenc_rope_type_parse(posenc_rope_type_name((posenc_rope_type)i), &t) ==
              POSENC_OK);
        CHECK(t == (posenc_rope_type)i);
    }
    CHECK(posenc_rope_type_parse("su", &t) == POSENC_OK && t == POSENC_ROPE_LONGROPE);
    CHECK(posenc_rope_type_parse("Yarn", &t) == POSENC_ERR_RANGE);
    CHECK(strcmp(posenc_rope_type_name((posenc_rope_type)42), "unknown") == 0);
    CHECK(strcmp(posenc_freq_band_name(POSENC_BAND_BLEND), "blend") == 0);
}

/* With the default frequencies, full rotary and factor 1, the model-head
 * rotation is the core rotation, bit for bit, in both layouts. */
TEST(vec_matches_core_rotation)
{
    posenc_layout layouts[] = {POSENC_LAYOUT_INTERLEAVED, POSENC_LAYOUT_HALF};
    for (int l = 0; l < 2; l++) {
        double a[64], b[64];
        for (int i = 0; i < 64; i++)
            a[i] = b[i] = sin(1.0 + i) * 3.0;
        CHECK(posenc_rope_init(&rope, 64, 64, 10000.0, layouts[l]) == POSENC_OK);
        CHECK(posenc_rope_vec_f64(&rope, 123457, POSENC_FORWARD, a) == POSENC_OK);
        CHECK(posenc_rope_apply_f64(123457, 64, 10000.0, layouts[l], POSENC_FORWARD, b) ==
              POSENC_OK);
        CHECK(memcmp(a, b, sizeof a) == 0);
        CHECK(posenc_rope_vec_f64(&rope, 123457, POSENC_INVERSE, a) == POSENC_OK);
        CHECK(posenc_rope_apply_f64(123457, 64, 10000.0, layouts[l], POSENC_INVERSE, b) ==
              POSENC_OK);
        CHECK(memcmp(a, b, sizeof a) == 0);
    }
}

/* Partial rotary (GPT-NeoX, 24 of 96): the first 24 elements rotate as a
 * 24-vector with base^(-2k/24), the other 72 are untouched; the attention
 * factor scales the rotated part's norm; inverse gives back a^2 x. */
TEST(vec_partial_and_attention_factor)
{
    const golden_case *g = find_case("gpt-neox-20b");
    CHECK(g && g->head_dim == 96 && g->rotary_dim == 24);
    double x[96], y[96], z[24];
    for (int i = 0; i < 96; i++)
        x[i] = y[i] = cos(0.3 * i) + 0.1 * i;
    memcpy(z, x, sizeof z);
    CHECK(posenc_rope_init(&rope, 96, 24, 10000.0, POSENC_LAYOUT_HALF) == POSENC_OK);
    CHECK(posenc_rope_vec_f64(&rope, 777, POSENC_FORWARD, y) == POSENC_OK);
    CHECK(posenc_rope_apply_f64(777, 24, 10000.0, POSENC_LAYOUT_HALF, POSENC_FORWARD, z) ==
          POSENC_OK);
    CHECK(memcmp(y, z, sizeof z) == 0);
    CHECK(memcmp(y + 24, x + 24, 72 * sizeof(double)) == 0);

    const golden_case *gy = find_case("gpt-oss-20b");
    CHECK(gy != NULL);
    if (!gy)
        return;
    CHECK(posenc_rope_init_config(&rope, &gy->cfg, 0) == POSENC_OK);
    double a = rope.attn_factor, n0 = 0, n1 = 0;
    CHECK(rel(a, 0.1 * log(32.0) + 1.0) < 1e-15);
    memcpy(y, x, 64 * sizeof(double));
    CHECK(posenc_rope_vec_f64(&rope, 5000, POSENC_FORWARD, y) == POSENC_OK);
    for (int i = 0; i < 64; i++) {
        n0 += x[i] * x[i];
        n1 += y[i] * y[i];
    }
    CHECK(rel(n1, a * a * n0) < 1e-14);
    CHECK(posenc_rope_vec_f64(&rope, 5000, POSENC_INVERSE, y) == POSENC_OK);
    for (int i = 0; i < 64; i++)
        CHECK_NEAR(y[i], a * a * x[i], 1e-13);
}

/* DOT equals the dot product of the rotated heads, and depends on m - n only. */
TEST(vec_dot)
{
    const golden_case *g = find_case("phi-4-mini-long");
    CHECK(g != NULL);
    if (!g)
        return;
    CHECK(posenc_rope_init_config(&rope, &g->cfg, g->cur_len) == POSENC_OK);
    double q[128], k[128], qr[128], kr[128], d1, d2, want = 0;
    for (int i = 0; i < 128; i++) {
        q[i] = qr[i] = sin(0.7 * i + 0.2);
        k[i] = kr[i] = cos(1.3 * i);
    }
    CHECK(posenc_rope_vec_f64(&rope, 900, POSENC_FORWARD, qr) == POSENC_OK);
    CHECK(posenc_rope_vec_f64(&rope, 40, POSENC_FORWARD, kr) == POSENC_OK);
    for (int i = 0; i < 128; i++)
        want += qr[i] * kr[i];
    CHECK(posenc_rope_vec_dot_f64(&rope, 900, 40, q, k, &d1) == POSENC_OK);
    CHECK(posenc_rope_vec_dot_f64(&rope, 100900, 100040, q, k, &d2) == POSENC_OK);
    CHECK_NEAR(d1, want, 1e-12);
    CHECK_NEAR(d2, d1, 1e-12);
    q[5] = NAN;
    CHECK_EQ_INT(posenc_rope_vec_dot_f64(&rope, 1, 2, q, k, &d1), POSENC_ERR_NOT_FINITE);
    CHECK_EQ_INT(posenc_rope_vec_f64(&rope, -1, POSENC_FORWARD, k), POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_rope_vec_f64(NULL, 1, POSENC_FORWARD, k), POSENC_ERR_NULL);
    rope.rotary_dim = 129;
    CHECK_EQ_INT(posenc_rope_vec_f64(&rope, 1, POSENC_FORWARD, k), POSENC_ERR_RANGE);
}

/* Every golden model's RoPE through the tensor kernels (q: 5 heads, k: 2,
 * 7 tokens at scattered positions, with and without the cache, both
 * storage directions): each head bit-identical to the float single-vector
 * reference posenc_rope_vec_f32, which in turn is within float rounding of
 * the double reference posenc_rope_vec_f64 (frequencies, attention factor
 * and partial rotary included). */
TEST(kernels_with_scalings)
{
    CHECK(n_cases > 0);
    enum { NT = 7, HQ = 5, HK = 2 };
    const int64_t pos[NT] = {0, 1, 2, 4095, 4096, 131071, 2147483000};
    static float q[NT * HQ * POSENC_ROPE_MAX_HEAD_DIM], k[NT * HK * POSENC_ROPE_MAX_HEAD_DIM];
    static float qref[NT * HQ * POSENC_ROPE_MAX_HEAD_DIM];
    double x64[POSENC_ROPE_MAX_HEAD_DIM];
    int checked = 0;
    for (int c = 0; c < n_cases; c++) {
        const golden_case *g = &cases[c];
        if (posenc_rope_init_config(&rope, &g->cfg, g->cur_len) != POSENC_OK)
            continue;
        size_t hd = rope.head_dim;
        for (size_t i = 0; i < NT * HQ * hd; i++)
            q[i] = qref[i] = (float)sin(0.37 * (double)i + c);
        for (size_t i = 0; i < NT * HK * hd; i++)
            k[i] = (float)cos(0.23 * (double)i + c);
        posenc_rope_cache *cache = NULL;
        for (int use_cache = 0; use_cache < 2; use_cache++) {
            for (size_t i = 0; i < NT * HQ * hd; i++)
                q[i] = qref[i];
            posenc_rope_view vq = {
                .dst = q, .n_head = HQ, .tok_stride = HQ * hd, .head_stride = hd};
            posenc_rope_view vk = {
                .dst = k, .n_head = HK, .tok_stride = HK * hd, .head_stride = hd};
            if (use_cache) {
                /* a cache long enough for the small positions only: use them */
                CHECK(posenc_rope_cache_create(&rope, 131072, &cache) == POSENC_OK);
                CHECK(posenc_rope_qk(&(posenc_rope_qk_args){.rope = &rope,
                                                            .cache = cache,
                                                            .n_tok = NT - 1,
                                                            .pos = pos,
                                                            .q = vq,
                                                            .k = vk}) == POSENC_OK);
            } else {
                CHECK(posenc_rope_qk(&(posenc_rope_qk_args){.rope = &rope,
                                                            .n_tok = NT,
                                                            .pos = pos,
                                                            .q = vq,
                                                            .k = vk,
                                                            .n_threads = 2}) == POSENC_OK);
            }
            int nt = use_cache ? NT - 1 : NT;
            for (int t = 0; t < nt; t++) {
                for (int h = 0; h < HQ; h++) {
                    float ref[POSENC_ROPE_MAX_HEAD_DIM];
                    const float *in = qref + ((size_t)t * HQ + (size_t)h) * hd;
                    const float *got = q + ((size_t)t * HQ + (size_t)h) * hd;
                    memcpy(ref, in, hd * sizeof *ref);
                    CHECK(posenc_rope_vec_f32(&rope, pos[t], POSENC_FORWARD, ref) == POSENC_OK);
                    CHECK(memcmp(ref, got, hd * sizeof *ref) == 0);
                    for (size_t i = 0; i < hd; i++)
                        x64[i] = in[i];
                    CHECK(posenc_rope_vec_f64(&rope, pos[t], POSENC_FORWARD, x64) == POSENC_OK);
                    for (size_t i = 0; i < hd; i++)
                        CHECK_NEAR(got[i], x64[i], 4e-7 * (1.0 + fabs(x64[i])));
                    checked++;
                }
            }
            posenc_rope_cache_free(cache);
            cache = NULL;
        }
    }
    CHECK(checked >= 17 * (NT + NT - 1) * HQ);
}

/* ---- edge cases and every documented error ----------------------------------- */

static posenc_freq_info info[POSENC_ROPE_MAX_HEAD_DIM / 2];

/* ---- src/math/scaling.c ----------------------------------------------------------- */

/* Gemma 4's proportional RoPE (modeling_rope_utils.py
 * _compute_proportional_rope_parameters): the first floor(p d / 2) pairs keep
 * base^(-2k/d) / factor with d the whole head (so they equal plain RoPE over
 * d, bit for bit: the same recipe), the rest are exactly 0 and leave their
 * elements untouched, in float too. The values themselves are the goldens'
 * (cases gemma4-proportional, proportional-floor). */
TEST(proportional)
{
    posenc_rope_scaling s;
    CHECK(posenc_rope_scaling_init(&s, POSENC_ROPE_PROPORTIONAL) == POSENC_OK);
    CHECK(s.partial_rotary_factor == 1.0);
    CHECK(strcmp(posenc_rope_type_name(POSENC_ROPE_PROPORTIONAL), "proportional") == 0);
    CHECK(strcmp(posenc_freq_band_name(POSENC_BAND_ZERO), "zero") == 0);
    posenc_rope_type ty;
    CHECK(posenc_rope_type_parse("proportional", &ty) == POSENC_OK &&
          ty == POSENC_ROPE_PROPORTIONAL);
    s.partial_rotary_factor = 0.25;
    CHECK(posenc_rope_init_scaled(&rope, 512, 512, 1e6, POSENC_LAYOUT_HALF, &s, 0) == POSENC_OK);
    CHECK(posenc_rope_init(&rope2, 512, 512, 1e6, POSENC_LAYOUT_HALF) == POSENC_OK);
    CHECK(rope.attn_factor == 1.0);
    for (uint32_t k = 0; k < 256; k++) {
        if (k < 64) {
            CHECK(rope.inv_freq_hi[k] == rope2.inv_freq_hi[k]);
            CHECK(rope.inv_freq_lo[k] == rope2.inv_freq_lo[k]);
        } else {
            CHECK(rope.inv_freq_hi[k] == 0.0 && rope.inv_freq_lo[k] == 0.0);
        }
    }
    /* float: elements 0..63 and 256..319 as plain RoPE, every other one
     * bit-identical to its input */
    static float x[512], y[512], x0[512];
    srand(7);
    for (int i = 0; i < 512; i++)
        x[i] = y[i] = x0[i] = (float)rand() / (float)RAND_MAX * 2.0f - 1.0f;
    int64_t pos = 1234567;
    CHECK(posenc_rope_vec_f32(&rope, pos, POSENC_FORWARD, x) == POSENC_OK);
    CHECK(posenc_rope_vec_f32(&rope2, pos, POSENC_FORWARD, y) == POSENC_OK);
    int same_rot = 1, kept = 1, moved = 0;
    for (int i = 0; i < 512; i++) {
        int rot = i < 64 || (i >= 256 && i < 320);
        if (rot) {
            same_rot &= memcmp(&x[i], &y[i], sizeof x[i]) == 0;
            moved += x[i] != x0[i];
        } else {
            kept &= memcmp(&x[i], &x0[i], sizeof x[i]) == 0;
        }
    }
    CHECK(same_rot);
    CHECK(kept);
    CHECK(moved > 100);
    /* EXPLAIN FREQS: band zero, infinite wavelength past the rotated pairs */
    static posenc_freq_info info[256];
    posenc_freqs_summary sum;
    CHECK(posenc_rope_explain_freqs(512, 1e6, &s, 0, info, &sum) == POSENC_OK);
    CHECK(info[63].band == POSENC_BAND_UNIFORM && isfinite(info[63].wavelength));
    CHECK(info[64].band == POSENC_BAND_ZERO && info[64].inv_freq == 0.0);
    CHECK(isinf(info[64].wavelength) && isfinite(info[64].base_wavelength));
    CHECK(sum.attn_factor == 1.0);
    /* p = 1 is linear scaling over the whole head */
    s.partial_rotary_factor = 1.0;
    s.factor = 8.0;
    posenc_rope_scaling lin;
    CHECK(posenc_rope_scaling_init(&lin, POSENC_ROPE_LINEAR) == POSENC_OK);
    lin.factor = 8.0;
    CHECK(posenc_rope_init_scaled(&rope, 128, 128, 1e4, POSENC_LAYOUT_HALF, &s, 0) == POSENC_OK);
    CHECK(posenc_rope_init_scaled(&rope2, 128, 128, 1e4, POSENC_LAYOUT_HALF, &lin, 0) ==
          POSENC_OK);
    CHECK(memcmp(rope.inv_freq_hi, rope2.inv_freq_hi, 64 * sizeof(double)) == 0);
    CHECK(memcmp(rope.inv_freq_lo, rope2.inv_freq_lo, 64 * sizeof(double)) == 0);
    /* p d / 2 below 1: no pair rotates, accepted (transformers computes it) */
    s.factor = 1.0;
    s.partial_rotary_factor = 0.001;
    CHECK(posenc_rope_init_scaled(&rope, 512, 512, 1e6, POSENC_LAYOUT_HALF, &s, 0) == POSENC_OK);
    CHECK(rope.inv_freq_hi[0] == 0.0);
    memcpy(x, x0, sizeof x);
    CHECK(posenc_rope_vec_f32(&rope, pos, POSENC_FORWARD, x) == POSENC_OK);
    CHECK(memcmp(x, x0, sizeof x) == 0);
    /* refused: p outside (0, 1], a factor not finite > 0 */
    static const double bad_p[] = {0.0, -0.25, 1.0000001, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad_p / sizeof bad_p[0]; i++) {
        s.partial_rotary_factor = bad_p[i];
        CHECK_EQ_INT(posenc_rope_init_scaled(&rope, 512, 512, 1e6, POSENC_LAYOUT_HALF, &s, 0),
                     POSENC_ERR_RANGE);
    }
    s.partial_rotary_factor = 0.25;
    static const double bad_f[] = {0.0, -1.0, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad_f / sizeof bad_f[0]; i++) {
        s.factor = bad_f[i];
        CHECK_EQ_INT(posenc_rope_init_scaled(&rope, 512, 512, 1e6, POSENC_LAYOUT_HALF, &s, 0),
                     POSENC_ERR_RANGE);
    }
    s.factor = 0.5; /* below 1: accepted, as transformers divides by it */
    CHECK(posenc_rope_init_scaled(&rope, 512, 512, 1e6, POSENC_LAYOUT_HALF, &s, 0) == POSENC_OK);
}

TEST(names)
{
    posenc_rope_type t = POSENC_ROPE_YARN;
    CHECK(posenc_rope_type_parse(NULL, &t) == POSENC_ERR_NULL);
    CHECK(posenc_rope_type_parse("yarn", NULL) == POSENC_ERR_NULL);
    CHECK(posenc_rope_type_parse("Yarn", &t) == POSENC_ERR_RANGE); /* exact, lower case */
    CHECK(t == POSENC_ROPE_YARN);                                    /* untouched */
    CHECK(posenc_rope_type_parse("su", &t) == POSENC_OK && t == POSENC_ROPE_LONGROPE);
    CHECK(strcmp(posenc_rope_type_name((posenc_rope_type)8), "unknown") == 0);
    CHECK(strcmp(posenc_rope_type_name((posenc_rope_type)-1), "unknown") == 0);
    CHECK(strcmp(posenc_freq_band_name(POSENC_BAND_LIST), "list") == 0);
    CHECK(strcmp(posenc_freq_band_name((posenc_freq_band)6), "unknown") == 0);
    posenc_rope_scaling s;
    CHECK(posenc_rope_scaling_init(NULL, POSENC_ROPE_DEFAULT) == POSENC_ERR_NULL);
    CHECK(posenc_rope_scaling_init(&s, (posenc_rope_type)8) == POSENC_ERR_RANGE);
}

/* posenc_rope_init_scaled's own argument checks, each with the status posenc.h names. */
TEST(init_scaled_arguments)
{
    posenc_rope_scaling s;
    CHECK(posenc_rope_scaling_init(&s, POSENC_ROPE_LINEAR) == POSENC_OK);
    s.factor = 2.0;
    const posenc_layout H = POSENC_LAYOUT_HALF;
    CHECK(posenc_rope_init_scaled(NULL, 8, 8, 1e4, H, &s, 0) == POSENC_ERR_NULL);
    CHECK(posenc_rope_init_scaled(&rope, 0, 2, 1e4, H, &s, 0) == POSENC_ERR_DIM);
    CHECK(posenc_rope_init_scaled(&rope, POSENC_ROPE_MAX_HEAD_DIM + 1, 8, 1e4, H, &s, 0) ==
          POSENC_ERR_DIM);
    CHECK(posenc_rope_init_scaled(&rope, 8, 0, 1e4, H, &s, 0) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_init_scaled(&rope, 8, 10, 1e4, H, &s, 0) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_init_scaled(&rope, 8, 5, 1e4, H, &s, 0) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_init_scaled(&rope, 8, 8, 1.0, H, &s, 0) == POSENC_ERR_BASE);
    CHECK(posenc_rope_init_scaled(&rope, 8, 8, 1e4, (posenc_layout)9, &s, 0) ==
          POSENC_ERR_LAYOUT);
    CHECK(posenc_rope_init_scaled(&rope, 8, 8, 1e4, H, &s, -1) == POSENC_ERR_POS);
    CHECK(posenc_rope_init_scaled(&rope, 8, 8, 1e4, H, &s, POSENC_MAX_POS + 2) == POSENC_ERR_POS);
    CHECK(posenc_rope_init_scaled(&rope, 8, 8, 1e4, H, &s, POSENC_MAX_POS + 1) == POSENC_OK);
    /* linear, factor 2: f(1) = 1e4^(-2/8) / 2 = 0.1 / 2 = 0.05 */
    CHECK_NEAR(rope.inv_freq_hi[1] + rope.inv_freq_lo[1], 0.05, 1e-17);
    /* *r untouched on error */
    memset(&rope, 0x5a, sizeof rope);
    s.factor = 0.5;
    CHECK(posenc_rope_init_scaled(&rope, 8, 8, 1e4, H, &s, 0) == POSENC_ERR_RANGE);
    CHECK(rope.head_dim == 0x5a5a5a5au);
}

/* One bad field of a valid scaling of type t per case, and the status it gives. */
typedef struct bad_field {
    posenc_rope_type type;
    const char *what;
    posenc_status want;
} bad_field;

static void set_valid(posenc_rope_scaling *s, posenc_rope_type t)
{
    static const double ones[4] = {1, 1, 1, 1};
    CHECK(posenc_rope_scaling_init(s, t) == POSENC_OK);
    s->factor = 4.0;
    s->original_max_position_embeddings = 4096.0;
    s->low_freq_factor = 1.0;
    s->high_freq_factor = 4.0;
    s->short_factor = s->long_factor = ones;
    s->n_short_factor = s->n_long_factor = 4;
}

static void spoil(posenc_rope_scaling *s, const char *what)
{
    static const double nan_list[4] = {1, NAN, 1, 1}, neg_list[4] = {1, 1, -1, 1};
    double inf = INFINITY;
    if (!strcmp(what, "attention_factor=nan")) s->attention_factor = NAN;
    else if (!strcmp(what, "attention_factor<0")) s->attention_factor = -1.0;
    else if (!strcmp(what, "type=8")) s->type = (posenc_rope_type)8;
    else if (!strcmp(what, "factor=inf")) s->factor = inf;
    else if (!strcmp(what, "factor<1")) s->factor = 0.99;
    else if (!strcmp(what, "factor=0")) s->factor = 0.0;
    else if (!strcmp(what, "L=inf")) s->original_max_position_embeddings = inf;
    else if (!strcmp(what, "L<1")) s->original_max_position_embeddings = 0.5;
    else if (!strcmp(what, "L=1")) s->original_max_position_embeddings = 1.0;
    else if (!strcmp(what, "beta_fast=inf")) s->beta_fast = inf;
    else if (!strcmp(what, "beta_slow=inf")) s->beta_slow = inf;
    else if (!strcmp(what, "beta_slow=0")) s->beta_slow = 0.0;
    else if (!strcmp(what, "beta_fast<beta_slow")) s->beta_fast = 0.5 * s->beta_slow;
    else if (!strcmp(what, "mscale=inf")) s->mscale = inf;
    else if (!strcmp(what, "mscale<0")) s->mscale = -0.5;
    else if (!strcmp(what, "mscale_all_dim=nan")) s->mscale_all_dim = NAN;
    else if (!strcmp(what, "mscale_all_dim<0")) s->mscale_all_dim = -0.5;
    else if (!strcmp(what, "low=inf")) s->low_freq_factor = inf;
    else if (!strcmp(what, "low=0")) s->low_freq_factor = 0.0;
    else if (!strcmp(what, "high=inf")) s->high_freq_factor = inf;
    else if (!strcmp(what, "high=low")) s->high_freq_factor = s->low_freq_factor;
    else if (!strcmp(what, "short=NULL")) s->short_factor = NULL;
    else if (!strcmp(what, "long=NULL")) s->long_factor = NULL;
    else if (!strcmp(what, "short n=3")) s->n_short_factor = 3;
    else if (!strcmp(what, "long nan")) s->long_factor = nan_list;
    else if (!strcmp(what, "short <0")) s->short_factor = neg_list;
    else if (!strcmp(what, "freq_factors n=2")) { s->freq_factors = nan_list; s->n_freq_factors = 2; }
    else if (!strcmp(what, "freq_factors nan")) { s->freq_factors = nan_list; s->n_freq_factors = 4; }
    else if (!strcmp(what, "freq_factors <0")) { s->freq_factors = neg_list; s->n_freq_factors = 4; }
    /* m(1e9, 1e308) = 0.1 * 1e308 * ln 1e9 + 1 = 2.07e308 overflows: the attention
     * factor comes out infinite */
    else if (!strcmp(what, "mscale=1e308")) { s->mscale = 1e308; s->mscale_all_dim = 1.0; s->factor = 1e9; }
    else CHECK(!"unknown spoil");
}

static const bad_field BAD_FIELDS[] = {
    {POSENC_ROPE_DEFAULT, "type=8", POSENC_ERR_RANGE},
    {POSENC_ROPE_DEFAULT, "attention_factor=nan", POSENC_ERR_RANGE},
    {POSENC_ROPE_DEFAULT, "attention_factor<0", POSENC_ERR_RANGE},
    {POSENC_ROPE_DEFAULT, "freq_factors n=2", POSENC_ERR_DIM},
    {POSENC_ROPE_DEFAULT, "freq_factors nan", POSENC_ERR_NOT_FINITE},
    {POSENC_ROPE_LINEAR, "freq_factors <0", POSENC_ERR_RANGE},
    {POSENC_ROPE_LINEAR, "factor=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_NTK, "factor<1", POSENC_ERR_RANGE},
    {POSENC_ROPE_DYNAMIC, "L=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_DYNAMIC, "L<1", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "beta_fast=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "beta_slow=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "beta_slow=0", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "beta_fast<beta_slow", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "mscale=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "mscale<0", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "mscale_all_dim=nan", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "mscale_all_dim<0", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "mscale=1e308", POSENC_ERR_RANGE},
    {POSENC_ROPE_LLAMA3, "low=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_LLAMA3, "low=0", POSENC_ERR_RANGE},
    {POSENC_ROPE_LLAMA3, "high=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_LLAMA3, "high=low", POSENC_ERR_RANGE},
    {POSENC_ROPE_LONGROPE, "factor=0", POSENC_ERR_RANGE},
    {POSENC_ROPE_LONGROPE, "factor=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_LONGROPE, "L=1", POSENC_ERR_RANGE},
    {POSENC_ROPE_LONGROPE, "short=NULL", POSENC_ERR_NULL},
    {POSENC_ROPE_LONGROPE, "long=NULL", POSENC_ERR_NULL},
    {POSENC_ROPE_LONGROPE, "short n=3", POSENC_ERR_DIM},
    {POSENC_ROPE_LONGROPE, "long nan", POSENC_ERR_NOT_FINITE},
    {POSENC_ROPE_LONGROPE, "short <0", POSENC_ERR_RANGE},
};

TEST(bad_scaling_fields)
{
    for (size_t i = 0; i < sizeof BAD_FIELDS / sizeof BAD_FIELDS[0]; i++) {
        const bad_field *b = &BAD_FIELDS[i];
        posenc_rope_scaling s;
        set_valid(&s, b->type);
        CHECK(posenc_rope_init_scaled(&rope, 8, 8, 1e4, POSENC_LAYOUT_HALF, &s, 0) == POSENC_OK);
        spoil(&s, b->what);
        posenc_status a = posenc_rope_init_scaled(&rope, 8, 8, 1e4, POSENC_LAYOUT_HALF, &s, 0);
        posenc_freqs_summary sum = {.attn_factor = -7.0};
        posenc_status e = posenc_rope_explain_freqs(8, 1e4, &s, 0, info, &sum);
        if (a != b->want || e != b->want)
            fprintf(stderr, "%s %s: init %d explain %d, want %d\n",
                    posenc_rope_type_name(b->type), b->what, (int)a, (int)e, (int)b->want);
        CHECK(a == b->want && e == b->want);
        CHECK(sum.attn_factor == -7.0); /* nothing written on error */
    }
}

TEST(explain_arguments)
{
    posenc_freqs_summary sum;
    CHECK(posenc_rope_explain_freqs(0, 1e4, NULL, 0, info, &sum) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_explain_freqs(POSENC_ROPE_MAX_HEAD_DIM + 2, 1e4, NULL, 0, info, &sum) ==
          POSENC_ERR_RANGE);
    CHECK(posenc_rope_explain_freqs(7, 1e4, NULL, 0, info, &sum) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_explain_freqs(8, INFINITY, NULL, 0, info, &sum) == POSENC_ERR_BASE);
    CHECK(posenc_rope_explain_freqs(8, 1e4, NULL, -1, info, &sum) == POSENC_ERR_POS);
    /* NULL scaling = default; NULL summary is allowed: f(2) = 1e4^(-4/8) = 0.01 */
    memset(info, 0, sizeof info);
    CHECK(posenc_rope_explain_freqs(8, 1e4, NULL, 0, info, NULL) == POSENC_OK);
    CHECK(info[2].k == 2 && info[2].band == POSENC_BAND_UNIFORM && info[2].pair_factor == 1.0);
    CHECK_NEAR(info[2].inv_freq, 0.01, 1e-18);
    CHECK_NEAR(info[2].wavelength, 628.31853071795864769, 1e-12);
    /* NULL pairs: the summary alone */
    CHECK(posenc_rope_explain_freqs(8, 1e4, NULL, 0, NULL, &sum) == POSENC_OK);
    CHECK(sum.attn_factor == 1.0 && sum.effective_base == 1e4 && sum.len == 0);
}

/* YaRN attention factors: factor 1 gives m = 1; mscale without mscale_all_dim is
 * ignored (as Hugging Face), so m(s, 1) = 0.1 ln 4 + 1. */
TEST(yarn_attention_factor)
{
    posenc_rope_scaling s;
    posenc_freqs_summary sum;
    set_valid(&s, POSENC_ROPE_YARN);
    s.factor = 1.0;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, NULL, &sum) == POSENC_OK);
    CHECK(sum.attn_factor == 1.0);
    s.factor = 4.0;
    s.mscale = 0.707;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, NULL, &sum) == POSENC_OK);
    CHECK_NEAR(sum.attn_factor, 1.1386294361119890618834464242916, 1e-15);
}

/* YaRN's correction range at its edges (d = 8, base 1e4, beta_fast 32, beta_slow 1,
 * c(r) = 8 ln(L / (2 pi r)) / (2 ln 1e4) = 4 ln(L / (2 pi r)) / ln 1e4). */
TEST(yarn_range_edges)
{
    posenc_rope_scaling s;
    posenc_freqs_summary sum;
    set_valid(&s, POSENC_ROPE_YARN);
    /* L = 640 pi rounded to double = 2010.6192982974676: c(32) = 1 - 1.693e-17
     * (mpmath), whose double high part is exactly 1.0. The floor is 0, not 1:
     * taken on the double-double value. c(1) = 2.505 -> ceil 3. */
    s.original_max_position_embeddings = 2010.6192982974676;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, info, &sum) == POSENC_OK);
    CHECK(sum.yarn_ramp_lo == 0.0 && sum.yarn_ramp_hi == 3.0);
    CHECK(info[0].band == POSENC_BAND_HIGH && info[0].ramp == 0.0);
    CHECK(info[1].band == POSENC_BAND_BLEND);
    CHECK_NEAR(info[1].ramp, 1.0 / 3.0, 1e-16);
    /* f(1) = f0 (1 - 1/3) + f0/4 (1/3) = 0.1 * 0.75 */
    CHECK_NEAR(info[1].inv_freq, 0.075, 1e-17);
    CHECK(info[3].band == POSENC_BAND_LOW && info[3].ramp == 1.0);
    /* L = 100: c(32) = -0.30 -> floor -1 -> clamped to 0; c(1) = 1.20 -> 2 */
    s.original_max_position_embeddings = 100.0;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, NULL, &sum) == POSENC_OK);
    CHECK(sum.yarn_ramp_lo == 0.0 && sum.yarn_ramp_hi == 2.0);
    /* base 100, L = 1.2e6: c(32) = 8 ln(1.2e6 / 64 pi) / (2 ln 100) = 7.55 -> 7,
     * c(1) = 10.6 -> 11 -> d - 1 = 7: lo == hi, so hi gets the paper's
     * + 0.001; every pair k <= 3 < lo is kept. (L must be a length posenc
     * handles, at most 2^31.) */
    s.original_max_position_embeddings = 1.2e6;
    CHECK(posenc_rope_explain_freqs(8, 100.0, &s, 0, info, &sum) == POSENC_OK);
    CHECK(sum.yarn_ramp_lo == 7.0 && sum.yarn_ramp_hi == 7.0 + 0.001);
    for (int k = 0; k < 4; k++)
        CHECK(info[k].band == POSENC_BAND_HIGH && info[k].inv_freq == info[k].base_inv_freq);
    /* beta_fast == beta_slow == 1 (Kimi K2's block), L = 4096, d = 8, base
     * 1e4: c(1) = 8 ln(4096 / 2 pi) / (2 ln 1e4) = 2.81418 (by hand: 8 *
     * 6.47996 / 18.42068). Without truncate lo = hi = c(1), so hi = lo +
     * 0.001 (transformers' linear_ramp_factor adds the same 0.001 when min ==
     * max): a step, pairs 0..2 kept, pair 3 (ramp (3 - 2.814) / 0.001 > 1)
     * divided by the factor 4. With truncate: floor 2, ceil 3, pair 2 kept. */
    s.original_max_position_embeddings = 4096.0;
    s.beta_fast = s.beta_slow = 1.0;
    s.truncate = 0;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, info, &sum) == POSENC_OK);
    CHECK_NEAR(sum.yarn_ramp_lo, 2.81418, 1e-5);
    CHECK(sum.yarn_ramp_hi == sum.yarn_ramp_lo + 0.001);
    for (int k = 0; k < 3; k++)
        CHECK(info[k].ramp == 0.0 && info[k].inv_freq == info[k].base_inv_freq);
    CHECK(info[3].ramp == 1.0);
    CHECK_NEAR(info[3].inv_freq, 1e-3 / 4.0, 1e-19); /* 1e4^(-6/8) / 4 */
    s.truncate = 1;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, info, &sum) == POSENC_OK);
    CHECK(sum.yarn_ramp_lo == 2.0 && sum.yarn_ramp_hi == 3.0);
    CHECK(info[2].ramp == 0.0 && info[3].ramp == 1.0);
}

/* Llama 3's band edge taken on the double-double x = L f0 / (2 pi): with
 * high_freq_factor the double nearest to 8192 / (2 pi), pair 0 (f0 = 1) has
 * x - high_freq_factor = -8.0604e-14 (mpmath): below, so blended with
 * ramp = 1 - g = 8.0604e-14 / (hff - 1); with L = 8194, x - hff = +4.0335e-14:
 * above, kept. */
TEST(llama3_band_edge)
{
    posenc_rope_scaling s;
    set_valid(&s, POSENC_ROPE_LLAMA3);
    s.original_max_position_embeddings = 8192.0;
    s.high_freq_factor = 1303.7972938088067;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, info, NULL) == POSENC_OK);
    CHECK(info[0].band == POSENC_BAND_BLEND);
    CHECK_NEAR(info[0].ramp, 8.0604e-14 / (1303.7972938088067 - 1.0), 1e-20);
    s.original_max_position_embeddings = 8194.0;
    s.high_freq_factor = 1304.1156036949903;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, info, NULL) == POSENC_OK);
    CHECK(info[0].band == POSENC_BAND_HIGH && info[0].ramp == 0.0 && info[0].inv_freq == 1.0);
}

/* LongRoPE with factor <= 1: attention factor 1 (not sqrt(1 + ln s / ln L)). */
TEST(longrope_small_factor)
{
    posenc_rope_scaling s;
    posenc_freqs_summary sum;
    set_valid(&s, POSENC_ROPE_LONGROPE);
    s.factor = 0.5;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 5000, info, &sum) == POSENC_OK);
    CHECK(sum.attn_factor == 1.0 && sum.uses_long_factor == 1);
    CHECK(info[1].band == POSENC_BAND_LIST && info[1].pair_factor == 1.0);
}

TEST(config_scaling_and_init_config)
{
    static posenc_rope_config c;
    posenc_rope_scaling s;
    memset(&c, 0, sizeof c);
    c.head_dim = 8;
    c.rotary_dim = 8;
    c.base = 1e4;
    c.layout = POSENC_LAYOUT_HALF;
    CHECK(posenc_rope_scaling_init(&c.scaling, POSENC_ROPE_DEFAULT) == POSENC_OK);
    CHECK(posenc_rope_config_scaling(NULL, &s) == POSENC_ERR_NULL);
    CHECK(posenc_rope_config_scaling(&c, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_rope_init_config(&rope, NULL, 0) == POSENC_ERR_NULL);
    CHECK(posenc_rope_init_config(NULL, &c, 0) == POSENC_ERR_NULL);
    CHECK(posenc_rope_init_config(&rope, &c, 0) == POSENC_OK);
    CHECK(rope.inv_freq_hi[1] == 0.1 && rope.attn_factor == 1.0);
    /* counts past the arrays are reported as cap + 1, each on its own */
    const size_t cap = POSENC_ROPE_MAX_HEAD_DIM / 2;
    size_t counts[3][3] = {{cap + 5, 4, 0}, {4, cap + 1, 0}, {0, 0, (size_t)-1}};
    for (int i = 0; i < 3; i++) {
        c.scaling.n_short_factor = counts[i][0];
        c.scaling.n_long_factor = counts[i][1];
        c.scaling.n_freq_factors = counts[i][2];
        CHECK(posenc_rope_config_scaling(&c, &s) == POSENC_OK);
        for (int j = 0; j < 3; j++) {
            size_t got = j == 0 ? s.n_short_factor : j == 1 ? s.n_long_factor : s.n_freq_factors;
            CHECK(got == (counts[i][j] > cap ? cap + 1 : counts[i][j]));
        }
        CHECK(s.short_factor == (counts[i][0] ? c.short_factor : NULL));
        CHECK(s.freq_factors == (counts[i][2] ? c.freq_factors : NULL));
        /* the default type ignores longrope's lists, but freq_factors apply */
        CHECK(posenc_rope_init_config(&rope, &c, 0) ==
              (counts[i][2] ? POSENC_ERR_DIM : POSENC_OK));
    }
}

/* ---- src/math/rope_vec.c --------------------------------------------------------- */

/* A well-formed rotation with one field broken, and the status it must give. */
TEST(rope_vec_checks)
{
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 8, 4, 1e4, POSENC_LAYOUT_HALF) == POSENC_OK);
    double x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, q[8] = {1, 0, 0, 0, 1, 1, 1, 1}, k[8] = {0};
    double out = -1.0;
    k[0] = 1.0;
    k[4] = 2.0;
    struct {
        int field;
        uint32_t value;
        posenc_status want;
    } cases[] = {
        {0, 0, POSENC_ERR_DIM},   {0, POSENC_ROPE_MAX_HEAD_DIM + 1, POSENC_ERR_DIM},
        {1, 0, POSENC_ERR_RANGE}, {1, 10, POSENC_ERR_RANGE}, {1, 3, POSENC_ERR_RANGE},
        {2, 7, POSENC_ERR_LAYOUT}, {3, 0, POSENC_ERR_RANGE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        posenc_rope b = r;
        if (cases[i].field == 0) b.head_dim = cases[i].value;
        if (cases[i].field == 1) b.rotary_dim = cases[i].value;
        if (cases[i].field == 2) b.layout = (posenc_layout)cases[i].value;
        if (cases[i].field == 3) b.attn_factor = NAN;
        CHECK(posenc_rope_vec_f64(&b, 1, POSENC_FORWARD, x) == cases[i].want);
        CHECK(posenc_rope_vec_dot_f64(&b, 1, 0, q, k, &out) == cases[i].want);
    }
    CHECK(x[0] == 1.0 && x[7] == 8.0 && out == -1.0);
    CHECK(posenc_rope_vec_f64(NULL, 1, POSENC_FORWARD, x) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_f64(&r, 1, POSENC_FORWARD, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_f64(&r, POSENC_MAX_POS + 1, POSENC_FORWARD, x) == POSENC_ERR_POS);
    x[6] = INFINITY; /* outside the rotary part, still refused; x unchanged */
    CHECK(posenc_rope_vec_f64(&r, 1, POSENC_FORWARD, x) == POSENC_ERR_NOT_FINITE);
    CHECK(x[0] == 1.0 && x[2] == 3.0);
    x[6] = 7.0;
    CHECK(posenc_rope_vec_dot_f64(NULL, 1, 0, q, k, &out) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_dot_f64(&r, 1, 0, NULL, k, &out) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_dot_f64(&r, 1, 0, q, NULL, &out) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_dot_f64(&r, 1, 0, q, k, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_dot_f64(&r, -1, 0, q, k, &out) == POSENC_ERR_POS);
    CHECK(posenc_rope_vec_dot_f64(&r, 1, POSENC_MAX_POS + 1, q, k, &out) == POSENC_ERR_POS);
    k[5] = NAN;
    CHECK(posenc_rope_vec_dot_f64(&r, 1, 0, q, k, &out) == POSENC_ERR_NOT_FINITE);
    q[1] = NAN;
    CHECK(posenc_rope_vec_dot_f64(&r, 1, 0, q, k, &out) == POSENC_ERR_NOT_FINITE);
    CHECK(out == -1.0);
    /* The good path: rotary_dim 4 of 8, half layout, pairs (0,2) and (1,3) with
     * f = 1 and 0.01. q = e0 + e4..e7, k = e0 + 2 e4, m = 1, n = 0:
     * rotated part q . k = cos(1 * 1 - 0) = cos 1; pass-through part 1 * 2. */
    q[1] = 0.0;
    k[5] = 0.0;
    CHECK(posenc_rope_vec_dot_f64(&r, 1, 0, q, k, &out) == POSENC_OK);
    CHECK_NEAR(out, cos(1.0) + 2.0, 1e-15);
}

/* ---- findings of the libFuzzer targets (tests/fuzz/), each kept as a check
 * so it cannot come back. The config.json side of the same
 * findings (tests/data/bad-fuzz-*.json) is checked by the CLI cases
 * tests/cli/config/config_fuzz_*, which are skipped without jansson; what is
 * here needs only libposenc.
 *
 * fuzz_config, dynamic NTK with a huge factor: at cur_len past L,
 * q = s Lc / L - (s - 1) overflowed to inf - inf = NaN, and the double-double
 * exp then converted NaN to int (undefined behaviour, caught by UBSan) and
 * gave NaN frequencies. Now that length is refused with POSENC_ERR_RANGE, and
 * lengths where q is still a double keep working. */

static void dynamic_huge(posenc_rope_scaling *s)
{
    CHECK(posenc_rope_scaling_init(s, POSENC_ROPE_DYNAMIC) == POSENC_OK);
    s->factor = 1e300;
    s->original_max_position_embeddings = 10.0;
}

/* At or below L dynamic NTK is plain RoPE: f(k) = 10000^(-2k/4), so
 * f(0) = 1 and f(1) = 10000^(-1/2) = 0.01. */
TEST(dynamic_huge_factor_at_trained_length)
{
    posenc_rope_scaling s;
    dynamic_huge(&s);
    CHECK(posenc_rope_init_scaled(&rope, 4, 4, 1e4, POSENC_LAYOUT_HALF, &s, 10) == POSENC_OK);
    CHECK(rope.inv_freq_hi[0] == 1.0);
    CHECK_NEAR(rope.inv_freq_hi[1] / 0.01, 1.0, 1e-15);
    CHECK(rope.attn_factor == 1.0);
}

/* Just past L: q = 1e300 * 11/10 - (1e300 - 1) = 1e299 (+1, far below an
 * ulp), a double; f(1) = f0(1) q^(-2/(d-2)) = 0.01 / 1e299 = 1e-301. */
TEST(dynamic_huge_factor_just_past_trained_length)
{
    posenc_rope_scaling s;
    dynamic_huge(&s);
    CHECK(posenc_rope_init_scaled(&rope, 4, 4, 1e4, POSENC_LAYOUT_HALF, &s, 11) == POSENC_OK);
    CHECK(rope.inv_freq_hi[0] == 1.0);
    CHECK_NEAR(rope.inv_freq_hi[1] / 1e-301, 1.0, 1e-12);
}

/* The finding: s Lc / L = 1e300 * 2^31 / 10 is past DBL_MAX. */
TEST(dynamic_huge_factor_at_longest_length_is_refused)
{
    posenc_rope_scaling s;
    dynamic_huge(&s);
    memset(&rope, 0x5a, sizeof rope);
    posenc_rope before = rope;
    CHECK_EQ_INT(posenc_rope_init_scaled(&rope, 4, 4, 1e4, POSENC_LAYOUT_HALF, &s,
                                         POSENC_MAX_POS + 1),
                 POSENC_ERR_RANGE);
    CHECK(memcmp(&rope, &before, sizeof rope) == 0);
    posenc_freqs_summary sum;
    posenc_freq_info pairs[2];
    CHECK_EQ_INT(posenc_rope_explain_freqs(4, 1e4, &s, POSENC_MAX_POS + 1, pairs, &sum),
                 POSENC_ERR_RANGE);
    /* 1e300 * 2^31 / 10 = 2.1e308 overflows; 1e300 * 1.7e8 / 10 = 1.7e307 does
     * not, but f(1) = (1e4 q^2)^(-1/2) = 5.9e-310 is subnormal: refused too;
     * at 10^6, q = 1e305 and f(1) = 1e-307, a normal double. */
    CHECK_EQ_INT(posenc_rope_init_scaled(&rope, 4, 4, 1e4, POSENC_LAYOUT_HALF, &s, 170000000),
                 POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_rope_init_scaled(&rope, 4, 4, 1e4, POSENC_LAYOUT_HALF, &s, 1000000),
                 POSENC_OK);
    CHECK(isfinite(rope.inv_freq_hi[1]) && rope.inv_freq_hi[1] > 0.0);
}

/* A llama3 factor of 1e308 divides the low band's frequencies down to
 * about 1e-313: subnormal doubles, whose wavelength 2 pi / f is past
 * DBL_MAX. Refused by both calls, nothing written; 1e300 (frequencies near
 * 1e-305, normal) is accepted. original_max_position_embeddings past 2^31
 * tokens is refused. */
TEST(subnormal_frequencies_and_huge_lengths_are_refused)
{
    posenc_rope_scaling s;
    CHECK(posenc_rope_scaling_init(&s, POSENC_ROPE_LLAMA3) == POSENC_OK);
    s.factor = 1e308;
    s.low_freq_factor = 1.0;
    s.high_freq_factor = 4.0;
    s.original_max_position_embeddings = 8192.0;
    posenc_freq_info info[64];
    memset(info, 0x5a, sizeof info);
    unsigned char before[sizeof info];
    memcpy(before, info, sizeof info);
    CHECK_EQ_INT(posenc_rope_explain_freqs(128, 5e5, &s, 0, info, NULL), POSENC_ERR_RANGE);
    CHECK(memcmp(info, before, sizeof info) == 0);
    posenc_rope r;
    CHECK_EQ_INT(posenc_rope_init_scaled(&r, 128, 128, 5e5, POSENC_LAYOUT_HALF, &s, 0),
                 POSENC_ERR_RANGE);
    s.factor = 1e300;
    CHECK_EQ_INT(posenc_rope_init_scaled(&r, 128, 128, 5e5, POSENC_LAYOUT_HALF, &s, 0), POSENC_OK);
    CHECK(r.inv_freq_hi[63] >= DBL_MIN);
    s.factor = 8.0;
    s.original_max_position_embeddings = 1e300;
    CHECK_EQ_INT(posenc_rope_explain_freqs(128, 5e5, &s, 0, NULL, NULL), POSENC_ERR_RANGE);
    s.original_max_position_embeddings = (double)POSENC_MAX_POS + 1.0;
    CHECK_EQ_INT(posenc_rope_explain_freqs(128, 5e5, &s, 0, NULL, NULL), POSENC_OK);
}

/* fuzz_config findings 2 and 3, now refused by the library for every caller:
 * linear with factor 1e308 and base 1e308 gives f(1) = 1e308^(-1/2) / 1e308
 * = 1e-462, which is 0 in double; a longrope long_factor of 1e-320 divides
 * pair 1's frequency (0.01) by a subnormal, past DBL_MAX (inf). */
TEST(frequencies_that_underflow_or_overflow_are_refused)
{
    posenc_rope_scaling s;
    posenc_rope before;
    CHECK(posenc_rope_scaling_init(&s, POSENC_ROPE_LINEAR) == POSENC_OK);
    s.factor = 1e308;
    memset(&rope, 0x5a, sizeof rope);
    before = rope;
    CHECK_EQ_INT(posenc_rope_init_scaled(&rope, 4, 4, 1e308, POSENC_LAYOUT_HALF, &s, 0),
                 POSENC_ERR_RANGE);
    CHECK(memcmp(&rope, &before, sizeof rope) == 0);
    /* a large but representable factor still works: f(1) = 0.01 / 1e300 */
    s.factor = 1e300;
    CHECK(posenc_rope_init_scaled(&rope, 4, 4, 1e4, POSENC_LAYOUT_HALF, &s, 0) == POSENC_OK);
    CHECK_NEAR(rope.inv_freq_hi[1] / 1e-302, 1.0, 1e-12);

    static const double shortf[2] = {1, 1}, longf[2] = {1, 1e-320};
    CHECK(posenc_rope_scaling_init(&s, POSENC_ROPE_LONGROPE) == POSENC_OK);
    s.factor = 4;
    s.original_max_position_embeddings = 100;
    s.short_factor = shortf;
    s.n_short_factor = 2;
    s.long_factor = longf;
    s.n_long_factor = 2;
    CHECK(posenc_rope_init_scaled(&rope, 4, 4, 1e4, POSENC_LAYOUT_HALF, &s, 50) == POSENC_OK);
    CHECK_NEAR(rope.inv_freq_hi[1], 0.01, 1e-17); /* short factors below L */
    memset(&rope, 0x5a, sizeof rope);
    before = rope;
    CHECK_EQ_INT(posenc_rope_init_scaled(&rope, 4, 4, 1e4, POSENC_LAYOUT_HALF, &s, 101),
                 POSENC_ERR_RANGE);
    CHECK(memcmp(&rope, &before, sizeof rope) == 0);
}

int main(void)
{
    RUN(golden_file_read);
    RUN(golden_frequencies);
    RUN(explain_matches_init);
    RUN(llama3_bands);
    RUN(dynamic_ntk_below_at_above);
    RUN(parameter_validation);
    RUN(type_names);
    RUN(vec_matches_core_rotation);
    RUN(vec_partial_and_attention_factor);
    RUN(vec_dot);
    RUN(kernels_with_scalings);
    RUN(proportional);
    RUN(names);
    RUN(init_scaled_arguments);
    RUN(bad_scaling_fields);
    RUN(explain_arguments);
    RUN(yarn_attention_factor);
    RUN(yarn_range_edges);
    RUN(llama3_band_edge);
    RUN(longrope_small_factor);
    RUN(config_scaling_and_init_config);
    RUN(rope_vec_checks);
    RUN(dynamic_huge_factor_at_trained_length);
    RUN(dynamic_huge_factor_just_past_trained_length);
    RUN(dynamic_huge_factor_at_longest_length_is_refused);
    RUN(frequencies_that_underflow_or_overflow_are_refused);
    RUN(subnormal_frequencies_and_huge_lengths_are_refused);
    printf("scalings: worst inv_freq error vs mpmath: %.3g relative as a double, %.3g as a "
           "double-double; attention factor %.3g; rotations %.3g absolute\n",
           worst_rel_double, worst_rel_dd, worst_attn, worst_rot);
    return check_summary("scalings");
}
