/* test_scaling.c - the RoPE scalings against golden vectors from an
 * independent mpmath evaluation (tools/gen_rope_golden.py), their parameter
 * checks, the model-head rotation, and the ALiBi bias tensor. */
#include "check.h"
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

static double rel(double got, double want) { return fabs(got - want) / fabs(want); }

/* |(a_hi + a_lo) - (b_hi + b_lo)| / |b|, the sums kept exact enough by
 * subtracting the high parts first (they agree to ~1e-16). */
static double rel_dd(double ahi, double alo, double bhi, double blo)
{
    return fabs((ahi - bhi) + (alo - blo)) / fabs(bhi);
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
            /* wavelength = 2 pi / f */
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
    CHECK_EQ_INT(posenc_rope_scaling_init(&s, (posenc_rope_type)7), POSENC_ERR_RANGE);
    CHECK(posenc_rope_scaling_init(&s, POSENC_ROPE_LINEAR) == POSENC_OK);
    s.factor = 0.5;
    INIT_ERR(POSENC_ERR_RANGE);
    s.factor = NAN;
    INIT_ERR(POSENC_ERR_RANGE);
    CHECK(posenc_rope_scaling_init(&s, POSENC_ROPE_YARN) == POSENC_OK);
    s.factor = 4;
    INIT_ERR(POSENC_ERR_RANGE); /* L missing */
    s.original_max_position_embeddings = 4096;
    s.beta_fast = 1;
    INIT_ERR(POSENC_ERR_RANGE); /* beta_fast must exceed beta_slow */
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

/* The bias tensor against posenc_alibi_penalties, entry by entry, causal
 * and not, with a KV-cache offset, for 1, 3 and 64 threads. */
TEST(alibi_tensor)
{
    uint32_t heads[] = {8, 12};
    enum { NQ = 5, NK = 11 };
    static float out[3][12 * NQ * NK];
    double pen[12];
    for (int hi = 0; hi < 2; hi++) {
        uint32_t H = heads[hi];
        for (int causal = 0; causal <= 1; causal++) {
            unsigned threads[] = {1, 3, 64};
            for (int t = 0; t < 3; t++)
                CHECK(posenc_alibi_bias_f32(H, NQ, NK, 6, causal, threads[t], out[t]) ==
                      POSENC_OK);
            CHECK(memcmp(out[0], out[1], sizeof(float) * H * NQ * NK) == 0);
            CHECK(memcmp(out[0], out[2], sizeof(float) * H * NQ * NK) == 0);
            for (uint32_t i = 0; i < NQ; i++)
                for (uint32_t j = 0; j < NK; j++) {
                    CHECK(posenc_alibi_penalties(H, 6 + i, j, pen) == POSENC_OK);
                    for (uint32_t h = 0; h < H; h++) {
                        float v = out[0][(h * NQ + i) * NK + j];
                        if (causal && j > 6 + i)
                            CHECK(isinf(v) && v < 0);
                        else
                            CHECK(v == (float)pen[h]);
                    }
                }
        }
    }
    CHECK(out[0][0] == -6.0f * 0.5f); /* head 1 of 12 (n = 8): slope 1/2, query 6, key 0 */
    CHECK_EQ_INT(posenc_alibi_bias_f32(8, 1, 1, 0, 1, 0, out[0]), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_alibi_bias_f32(8, 1, 1, 0, 1, 65, out[0]), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_alibi_bias_f32(8, 1, 1, -1, 1, 1, out[0]), POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_alibi_bias_f32(8, 0, 1, 0, 1, 1, out[0]), POSENC_ERR_DIM);
    CHECK_EQ_INT(posenc_alibi_bias_f32(8, 1, 1, POSENC_MAX_POS, 1, 1, out[0]), POSENC_OK);
    CHECK_EQ_INT(posenc_alibi_bias_f32(8, 2, 1, POSENC_MAX_POS, 1, 1, out[0]), POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_alibi_bias_f32(8, 1, 1, 0, 1, 1, NULL), POSENC_ERR_NULL);
    if (sizeof(size_t) == 8)
        CHECK_EQ_INT(posenc_alibi_bias_f32(1u << 20, 1u << 31, 1u << 31, 0, 1, 1, out[0]),
                     POSENC_ERR_OVERFLOW);
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
    RUN(alibi_tensor);
    RUN(kernels_with_scalings);
    printf("test_scaling: worst inv_freq error vs mpmath: %.3g relative as a double, %.3g as a "
           "double-double; attention factor %.3g; rotations %.3g absolute\n",
           worst_rel_double, worst_rel_dd, worst_attn, worst_rot);
    return check_summary("test_scaling");
}
