/* test_relative_ids.c - relative position ids beyond T5 and the other
 * position-id arithmetic of the checkpoints:
 *   - MPNet's buckets (posenc_mpnet_bucket) against a reference written here
 *     from MPNet's own lines, and hand values;
 *   - DeBERTa-v2's log buckets against a reference written here from
 *     make_log_bucket_position (float steps as volatile floats, the logs in
 *     long double rounded to float), hand values, and the values where
 *     transformers' float32 result differs from the exact formula (found by
 *     running transformers 5.23.0 over every distance within 300000 for seven
 *     settings: posenc agreed on all 4.2 million);
 *   - DeBERTa's plain and bucketed relative id matrices;
 *   - CPM-Ant's segment buckets; LongT5's side positions; VITS's window rows; XLNet's and Funnel's relative positions;
 *     LayoutLM's box rows, TAPAS's cell positions, Reformer's axial rows. */
#include "check.h"
#include "posenc.h"

#include <stdint.h>
#include <stdlib.h>

/* ---- MPNet ------------------------------------------------------------------ */

/* modeling_mpnet.py L330-347, rel = key - query (L321). */
static uint32_t ref_mpnet(int64_t rel, uint32_t num_buckets, uint32_t max_distance)
{
    uint32_t ret = 0;
    int64_t n = -rel;          /* L332 */
    num_buckets /= 2;          /* L334 */
    if (n < 0)                 /* L335 */
        ret += num_buckets;
    n = n < 0 ? -n : n;        /* L336 */
    uint32_t max_exact = num_buckets / 2;
    if (n < (int64_t)max_exact)
        return ret + (uint32_t)n;
    volatile float a = (float)n / (float)max_exact;
    volatile float l = (float)logl((long double)a);
    /* math.log(max_distance / max_exact): a Python float, a float divisor */
    volatile float cl = (float)logl((long double)((double)max_distance / (double)max_exact));
    volatile float q = l / cl;
    volatile float v = q * (float)(num_buckets - max_exact);
    int64_t large = (int64_t)max_exact + (int64_t)v;
    if (large > (int64_t)num_buckets - 1)
        large = num_buckets - 1;
    return ret + (uint32_t)large;
}

TEST(mpnet_hand_values)
{
    /* key - query, and the bucket (transformers' MPNetEncoder
     * .relative_position_bucket on the same tensor gives the same list):
     * 7 < max_exact 8 is exact; 20 -> 8 + trunc(ln 2.5 / ln 16 * 8) = 8 + 2. */
    static const int64_t rel[] = {0, 1, -1, 7, -7, 8, -8, 20, -20, 127, -127, 128, -128, 1000, -1000};
    static const uint32_t want[] = {0, 17, 1, 23, 7, 24, 8, 26, 10, 31, 15, 31, 15, 31, 15};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        uint32_t b = 99;
        CHECK(posenc_mpnet_bucket(5000, 5000 + rel[i], 32, 128, &b) == POSENC_OK);
        CHECK_EQ_INT(b, want[i]);
    }
}

TEST(mpnet_matches_its_own_lines_and_t5_bidirectional)
{
    long n = 0;
    for (int64_t q = 0; q < 400; q += 3)
        for (int64_t k = 0; k < 3000; k += 1) {
            uint32_t b, t;
            CHECK(posenc_mpnet_bucket(q, k, 32, 128, &b) == POSENC_OK);
            CHECK(posenc_t5_bucket(q, k, 32, 128, 1, &t) == POSENC_OK);
            if (b != ref_mpnet(k - q, 32, 128) || b != t) {
                CHECK_EQ_INT(b, ref_mpnet(k - q, 32, 128));
                return;
            }
            n++;
        }
    for (int64_t d = 0; d < 2000000; d += 7) { /* far distances, both sides */
        uint32_t b;
        CHECK(posenc_mpnet_bucket(2000000, 2000000 + d, 32, 128, &b) == POSENC_OK);
        CHECK_EQ_INT(b, ref_mpnet(d, 32, 128));
        CHECK(posenc_mpnet_bucket(2000000, 2000000 - d, 32, 128, &b) == POSENC_OK);
        CHECK_EQ_INT(b, ref_mpnet(-d, 32, 128));
    }
    CHECK(n > 0);
    uint32_t b;
    CHECK(posenc_mpnet_bucket(0, 0, 32, 128, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_mpnet_bucket(-1, 0, 32, 128, &b) == POSENC_ERR_POS);
    CHECK(posenc_mpnet_bucket(0, 0, 1, 128, &b) == POSENC_ERR_RANGE);
}

/* ---- DeBERTa ---------------------------------------------------------------- */

/* modeling_deberta_v2.py L56-68, in float steps. */
static int64_t ref_deberta(int64_t rel, uint32_t bucket_size, uint32_t max_position)
{
    int64_t mid = bucket_size / 2;
    int64_t sign = (rel > 0) - (rel < 0);
    int64_t abs_pos = (rel < mid && rel > -mid) ? mid - 1 : llabs(rel);
    if (abs_pos <= mid)
        return rel;
    volatile float r = (float)abs_pos / (float)mid;
    volatile float l = (float)logl((long double)r);
    volatile float m = (float)((double)(max_position - 1) / (double)mid); /* torch.tensor(float) */
    volatile float lm = (float)logl((long double)m);
    volatile float q = l / lm;
    volatile float s = q * (float)(mid - 1);
    volatile float lp = ceilf(s) + (float)mid;
    return (int64_t)(lp * (float)sign);
}

/* The exact formula, long double. */
static int64_t exact_deberta(int64_t rel, uint32_t bucket_size, uint32_t max_position)
{
    int64_t mid = bucket_size / 2;
    int64_t a = llabs(rel);
    if (a <= mid)
        return rel;
    long double v = ceill(logl((long double)a / mid) / logl((long double)(max_position - 1) / mid) *
                          (mid - 1)) + mid;
    return rel < 0 ? -(int64_t)v : (int64_t)v;
}

TEST(deberta_hand_values)
{
    /* deberta-v3 (position_buckets 256, max_relative_positions 512): mid
     * 128; |rel| <= 128 is itself; 129: ceil(ln(129/128) / ln(511/128) *
     * 127) = ceil(0.714) = 1, + 128 = 129; 200: ceil(0.3224 * 127 = 40.94) =
     * 41 -> 169; 511: ln ratio / ln ratio = 1 -> 127 + 128 = 255; 512: 128 +
     * 128 = 256 (not clamped); 1000: ceil(188.59) = 189 -> 317. The same
     * list as transformers' make_log_bucket_position. */
    static const int64_t rel[] = {0, 1, -1, 127, 128, 129, -129, 200, -200, 511, 512, 1000,
                                  -1000, 5000, 100000};
    static const int64_t want256[] = {0, 1, -1, 127, 128, 129, -129, 169, -169, 255, 256, 317,
                                      -317, 465, 740};
    static const int64_t want32[] = {0, 1, -1, 31, 32, 32, -32, 35, -35, 42, 42, 46, -46, 58, 80};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        int64_t b;
        CHECK(posenc_deberta_log_bucket(rel[i], 256, 512, &b) == POSENC_OK);
        CHECK_EQ_INT(b, want256[i]);
        CHECK(posenc_deberta_log_bucket(rel[i], 32, 128, &b) == POSENC_OK);
        CHECK_EQ_INT(b, want32[i]);
    }
}

TEST(deberta_keeps_transformers_float_results_where_exact_differs)
{
    /* (bucket_size, max_position, rel, transformers' bucket, exact formula's) */
    static const struct { uint32_t bs, mp; int64_t rel, torch, exact; } cases[] = {
        {64, 256, 10134, 118, 119},      {64, 256, -10134, -118, -119},
        {32, 128, 145455, 82, 83},       {256, 512, -297197, -839, -840},
        {256, 1024, 48671, 491, 492},    {256, 1024, -208856, -580, -581},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t b;
        CHECK(posenc_deberta_log_bucket(cases[i].rel, cases[i].bs, cases[i].mp, &b) == POSENC_OK);
        CHECK_EQ_INT(b, cases[i].torch);
        CHECK_EQ_INT(exact_deberta(cases[i].rel, cases[i].bs, cases[i].mp), cases[i].exact);
        posenc_deberta_trace t;
        CHECK(posenc_deberta_log_bucket_explain(cases[i].rel, cases[i].bs, cases[i].mp, &t) ==
              POSENC_OK);
        CHECK(!t.is_small);
        CHECK_EQ_INT(t.bucket, cases[i].torch);
        /* the float quotient sits at or below an integer the exact one passes */
        CHECK(ceil(t.exact_scaled) == (double)ceilf(t.scaled) + 1);
    }
}

TEST(deberta_matches_the_reference_at_every_distance)
{
    static const uint32_t set[][2] = {{256, 512}, {32, 128}, {64, 256}, {256, 1024}, {2, 3},
                                      {512, 4096}, {256, 100}};
    long diff_exact = 0;
    for (size_t s = 0; s < sizeof set / sizeof set[0]; s++)
        for (int64_t r = -300000; r <= 300000; r++) {
            int64_t b;
            if (posenc_deberta_log_bucket(r, set[s][0], set[s][1], &b) != POSENC_OK) {
                CHECK(0);
                return;
            }
            if (b != ref_deberta(r, set[s][0], set[s][1])) {
                CHECK_EQ_INT(b, ref_deberta(r, set[s][0], set[s][1]));
                return;
            }
            diff_exact += b != exact_deberta(r, set[s][0], set[s][1]);
        }
    printf("relative_ids: DeBERTa's float32 buckets differ from the exact formula at %ld of "
           "4.2 million distances\n", diff_exact);
    CHECK(diff_exact > 0);
}

TEST(deberta_trace_and_arguments)
{
    posenc_deberta_trace t;
    CHECK(posenc_deberta_log_bucket_explain(-200, 256, 512, &t) == POSENC_OK);
    CHECK_EQ_INT(t.relative_position, -200);
    CHECK_EQ_INT(t.mid, 128);
    CHECK_EQ_INT(t.abs_pos, 200);
    CHECK(!t.is_small);
    CHECK(t.ratio == 1.5625f);
    CHECK(t.log_pos == 169.0f);
    CHECK_EQ_INT(t.bucket, -169);
    CHECK_NEAR(t.exact_scaled, 40.94, 0.01);
    CHECK(posenc_deberta_log_bucket_explain(-5, 256, 512, &t) == POSENC_OK);
    CHECK(t.is_small && t.abs_pos == 127 && t.bucket == -5);
    int64_t b;
    CHECK(posenc_deberta_log_bucket(0, 256, 512, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_deberta_log_bucket_explain(0, 256, 512, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_deberta_log_bucket(0, 1, 512, &b) == POSENC_ERR_RANGE);     /* mid 0 */
    CHECK(posenc_deberta_log_bucket(0, 256, 129, &b) == POSENC_ERR_RANGE);   /* ln 1 = 0 */
    CHECK(posenc_deberta_log_bucket(0, 256, 130, &b) == POSENC_OK);
    /* max_position - 1 < mid: a negative logarithm, transformers' odd buckets */
    CHECK(posenc_deberta_log_bucket(200, 256, 100, &b) == POSENC_OK);
    CHECK_EQ_INT(b, -92);
    CHECK(posenc_deberta_log_bucket(-5000, 256, 100, &b) == POSENC_OK);
    CHECK_EQ_INT(b, 1683);
    CHECK(posenc_deberta_log_bucket(POSENC_MAX_POS + 1, 256, 512, &b) == POSENC_ERR_POS);
    CHECK(posenc_deberta_log_bucket(-POSENC_MAX_POS, 256, 512, &b) == POSENC_OK);
}

TEST(deberta_relative_id_matrices)
{
    int64_t m[4 * 6];
    /* v1, and v2 without buckets: i - j */
    CHECK(posenc_deberta_relative_ids(4, 6, 0, 0, m) == POSENC_OK);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++)
            CHECK_EQ_INT(m[i * 6 + j], i - j);
    /* v2 bucketed: each entry the log bucket of i - j */
    int64_t big[300 * 5];
    CHECK(posenc_deberta_relative_ids(300, 5, 8, 32, big) == POSENC_OK);
    for (int i = 0; i < 300; i++)
        for (int j = 0; j < 5; j++) {
            int64_t b;
            CHECK(posenc_deberta_log_bucket(i - j, 8, 32, &b) == POSENC_OK);
            CHECK_EQ_INT(big[i * 5 + j], b);
        }
    CHECK_EQ_INT(big[299 * 5], 11); /* mid 4: ceil(ln(74.75) / ln(7.75) * 3 = 6.32) + 4 */
    CHECK(posenc_deberta_relative_ids(4, 6, 0, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_deberta_relative_ids(0, 6, 0, 0, NULL) == POSENC_OK);
    CHECK(posenc_deberta_relative_ids(4, 6, 1, 32, m) == POSENC_ERR_RANGE);
    /* one of the two bucket settings 0: the plain distance (v2 L95 needs both) */
    CHECK(posenc_deberta_relative_ids(4, 6, 8, 0, m) == POSENC_OK);
    CHECK_EQ_INT(m[0 * 6 + 5], -5);
    CHECK_EQ_INT(m[3 * 6 + 0], 3);
    CHECK(posenc_deberta_relative_ids(4, 6, 0, 32, m) == POSENC_OK);
    CHECK_EQ_INT(m[3 * 6 + 5], -2);
    /* no entries: out may be NULL */
    CHECK(posenc_deberta_relative_ids(4, 0, 8, 32, NULL) == POSENC_OK);
    /* more than POSENC_MAX_POS + 1 queries or keys */
    CHECK(posenc_deberta_relative_ids(2147483649u, 1, 0, 0, m) == POSENC_ERR_POS);
    CHECK(posenc_deberta_relative_ids(1, 2147483649u, 0, 0, m) == POSENC_ERR_POS);
    CHECK(posenc_deberta_relative_ids(4, 6, 8, 1, m) == POSENC_ERR_RANGE);
}

TEST(deberta_parameter_ranges)
{
    int64_t b;
    posenc_deberta_trace t;
    /* bucket_size 2 to POSENC_DEBERTA_MAX_BUCKETS, max_position 2 to POSENC_MAX_POS */
    CHECK(posenc_deberta_log_bucket(0, POSENC_DEBERTA_MAX_BUCKETS + 1, 2147483647u, &b) ==
          POSENC_ERR_RANGE);
    CHECK(posenc_deberta_log_bucket(0, POSENC_DEBERTA_MAX_BUCKETS, 2147483647u, &b) == POSENC_OK);
    CHECK_EQ_INT(b, 0);
    CHECK(posenc_deberta_log_bucket(3, 8, 1, &b) == POSENC_ERR_RANGE);
    CHECK(posenc_deberta_log_bucket(3, 8, 2147483648u, &b) == POSENC_ERR_RANGE);
    CHECK(posenc_deberta_log_bucket(3, 8, 2, &b) == POSENC_OK);
    CHECK_EQ_INT(b, 3); /* |3| <= mid 4: the distance itself */
    CHECK(posenc_deberta_log_bucket(-POSENC_MAX_POS - 1, 256, 512, &b) == POSENC_ERR_POS);
    /* the trace: the same refusals */
    CHECK(posenc_deberta_log_bucket_explain(POSENC_MAX_POS + 1, 256, 512, &t) == POSENC_ERR_POS);
    CHECK(posenc_deberta_log_bucket_explain(0, 1, 512, &t) == POSENC_ERR_RANGE);
    CHECK(posenc_deberta_log_bucket_explain(0, 256, 1, &t) == POSENC_ERR_RANGE);
}

/* ---- XLNet ------------------------------------------------------------------ */

TEST(xlnet_relative_positions)
{
    int64_t o[16];
    size_t n = 0;
    /* bi, qlen 3, klen 5: arange(5, -3, -1) */
    CHECK(posenc_xlnet_rel_positions(3, 5, 1, 0, o, 16, &n) == POSENC_OK);
    CHECK_EQ_INT(n, 8);
    static const int64_t bi[] = {5, 4, 3, 2, 1, 0, -1, -2};
    for (size_t i = 0; i < 8; i++)
        CHECK_EQ_INT(o[i], bi[i]);
    /* uni: arange(5, -1, -1) */
    CHECK(posenc_xlnet_rel_positions(3, 5, 0, 0, o, 16, &n) == POSENC_OK);
    CHECK_EQ_INT(n, 6);
    for (size_t i = 0; i < 6; i++)
        CHECK_EQ_INT(o[i], 5 - (int64_t)i);
    /* clamp_len 2 */
    CHECK(posenc_xlnet_rel_positions(3, 5, 1, 2, o, 16, &n) == POSENC_OK);
    static const int64_t cl[] = {2, 2, 2, 2, 1, 0, -1, -2};
    for (size_t i = 0; i < 8; i++)
        CHECK_EQ_INT(o[i], cl[i]);
    /* the count alone; a short buffer */
    CHECK(posenc_xlnet_rel_positions(7, 9, 1, 0, NULL, 0, &n) == POSENC_OK);
    CHECK_EQ_INT(n, 16);
    CHECK(posenc_xlnet_rel_positions(7, 10, 1, 0, o, 16, &n) == POSENC_ERR_RANGE);
    CHECK(posenc_xlnet_rel_positions(0, 5, 1, 0, o, 16, &n) == POSENC_ERR_POS);
    CHECK(posenc_xlnet_rel_positions(3, 5, 1, 0, o, 16, NULL) == POSENC_ERR_NULL);
    /* their vectors: CTRL's spec, [sin | cos]; distance 0 is [0.. | 1..] */
    posenc_sinusoid_spec s;
    CHECK(posenc_sinusoid_family_spec(POSENC_SINUSOID_CTRL, 0, &s) == POSENC_OK);
    float pe[8 * 8];
    CHECK(posenc_xlnet_rel_positions(3, 5, 1, 0, o, 16, &n) == POSENC_OK);
    CHECK(posenc_sinusoid_layout_fill_f32(&s, o, n, 8, pe) == POSENC_OK);
    for (int i = 0; i < 4; i++) {
        CHECK(pe[5 * 8 + i] == 0.0f);
        CHECK(pe[5 * 8 + 4 + i] == 1.0f);
    }
    CHECK(pe[0] == (float)sin(5.0));     /* distance 5, k = 0 */
    CHECK(pe[7 * 8] == (float)sin(-2.0)); /* distance -2 */
}

/* ---- CPM-Ant ---------------------------------------------------------------- */

TEST(cpmant_buckets)
{
    /* defaults: 512 buckets, max_distance 2048, 32 segment types */
    uint32_t b;
    CHECK(posenc_cpmant_bucket(0, 5, 0, 0, 512, 2048, 32, &b) == POSENC_OK);
    CHECK_EQ_INT(b, 256 + 5); /* key after query: the upper half; 5 < max_exact 128 */
    CHECK(posenc_cpmant_bucket(5, 0, 3, 3, 512, 2048, 32, &b) == POSENC_OK);
    CHECK_EQ_INT(b, 5);
    CHECK(posenc_cpmant_bucket(0, 5, 1, 2, 512, 2048, 32, &b) == POSENC_OK);
    CHECK_EQ_INT(b, 512 + 1 * 32 + 2); /* across segments */
    for (int64_t q = 0; q < 300; q += 11)
        for (int64_t k = 0; k < 3000; k += 13) {
            uint32_t t;
            CHECK(posenc_cpmant_bucket(q, k, 4, 4, 512, 2048, 32, &b) == POSENC_OK);
            CHECK(posenc_t5_bucket(q, k, 512, 2048, 1, &t) == POSENC_OK);
            CHECK_EQ_INT(b, t);
        }
    CHECK(posenc_cpmant_bucket(0, 5, 32, 0, 512, 2048, 32, &b) == POSENC_ERR_RANGE);
    CHECK(posenc_cpmant_bucket(0, 5, 0, 0, 512, 2048, 0, &b) == POSENC_ERR_RANGE);
    CHECK(posenc_cpmant_bucket(-1, 5, 0, 0, 512, 2048, 32, &b) == POSENC_ERR_POS);
    CHECK(posenc_cpmant_bucket(0, 5, 0, 0, 512, 2048, 32, NULL) == POSENC_ERR_NULL);
}

/* ---- Funnel ----------------------------------------------------------------- */

static void check_funnel(uint32_t n, uint32_t block, int pooling, int64_t first, int64_t step,
                         size_t count)
{
    int64_t o[64];
    size_t got = 0;
    CHECK(posenc_funnel_rel_positions(n, block, pooling, 1, 1, o, 64, &got) == POSENC_OK);
    CHECK_EQ_INT(got, count);
    for (size_t i = 0; i < got && i < count; i++)
        CHECK_EQ_INT(o[i], first - (int64_t)i * step);
}

TEST(funnel_relative_positions)
{
    /* n = 7, separate_cls, truncate_seq (modeling_funnel.py L186-216):
     * block 0: pos 0..6, max 0 + 7 = 7, min 0 - 6: 7, 6, .., -6;
     * block 1: pooled [-1, 1, 3, 5]; pooling type ref -1, max -1 + 2*4 = 7,
     *   min -1 - 6 = -7: 7 .. -7; plain type stride 2: 8, 6, .., -6;
     * block 2: pooled [-3, 3]; pooling type stride 2, ref -2, max -2 + 2*2*2
     *   = 6, min -3 - 5 = -8: 6, 4, .., -8; plain stride 4: 8, 4, 0, -4. */
    check_funnel(7, 0, 0, 7, 1, 14);
    check_funnel(7, 1, 1, 7, 1, 15);
    check_funnel(7, 1, 0, 8, 2, 8);
    check_funnel(7, 2, 1, 6, 2, 8);
    check_funnel(7, 2, 0, 8, 4, 4);
    size_t n;
    CHECK(posenc_funnel_rel_positions(7, 0, 0, 1, 1, NULL, 0, &n) == POSENC_OK);
    CHECK_EQ_INT(n, 14);
    int64_t o[4];
    CHECK(posenc_funnel_rel_positions(7, 0, 0, 1, 1, o, 4, &n) == POSENC_ERR_RANGE);
    CHECK(posenc_funnel_rel_positions(7, 0, 1, 1, 1, o, 4, &n) == POSENC_ERR_RANGE);
    CHECK(posenc_funnel_rel_positions(0, 0, 0, 1, 1, o, 4, &n) == POSENC_ERR_POS);
    CHECK(posenc_funnel_rel_positions(7, 0, 0, 1, 1, o, 4, NULL) == POSENC_ERR_NULL);
}

/* ---- LongT5 ----------------------------------------------------------------- */

TEST(longt5_side_positions)
{
    /* 40 tokens, global blocks of 16: 2 global blocks; tokens 32-39 (a last
     * partial block) join block 1 (modeling_longt5.py L194-199) */
    int64_t o[40 * 2];
    size_t ng = 0;
    CHECK(posenc_longt5_side_positions(40, 16, o, 80, &ng) == POSENC_OK);
    CHECK_EQ_INT(ng, 2);
    CHECK(o[0] == 0 && o[1] == 1);            /* token 0, block 0 */
    CHECK(o[15 * 2] == 0 && o[15 * 2 + 1] == 1);
    CHECK(o[16 * 2] == -1 && o[16 * 2 + 1] == 0); /* token 16, block 1 */
    CHECK(o[39 * 2] == -1 && o[39 * 2 + 1] == 0); /* token 39: block 2 -> 1 */
    CHECK(posenc_longt5_side_positions(5, 16, NULL, 0, &ng) == POSENC_OK);
    CHECK_EQ_INT(ng, 0);
    CHECK(posenc_longt5_side_positions(40, 16, o, 79, &ng) == POSENC_ERR_RANGE);
    CHECK(posenc_longt5_side_positions(40, 0, o, 80, &ng) == POSENC_ERR_RANGE);
    CHECK(posenc_longt5_side_positions(40, 16, o, 80, NULL) == POSENC_ERR_NULL);
}

/* ---- VITS ------------------------------------------------------------------- */

TEST(vits_window_rows)
{
    int64_t r;
    CHECK(posenc_window_rel_index(10, 10, 4, &r) == POSENC_OK);
    CHECK_EQ_INT(r, 4);  /* distance 0: the middle row */
    CHECK(posenc_window_rel_index(10, 14, 4, &r) == POSENC_OK);
    CHECK_EQ_INT(r, 8);  /* key 4 after: the last row */
    CHECK(posenc_window_rel_index(10, 6, 4, &r) == POSENC_OK);
    CHECK_EQ_INT(r, 0);
    CHECK(posenc_window_rel_index(10, 15, 4, &r) == POSENC_OK);
    CHECK_EQ_INT(r, -1); /* outside the window: nothing */
    CHECK(posenc_window_rel_index(10, 5, 4, &r) == POSENC_OK);
    CHECK_EQ_INT(r, -1);
    CHECK(posenc_window_rel_index(10, 5, 0, &r) == POSENC_ERR_RANGE);
    CHECK(posenc_window_rel_index(-1, 5, 4, &r) == POSENC_ERR_POS);
    CHECK(posenc_window_rel_index(1, 5, 4, NULL) == POSENC_ERR_NULL);
}

/* ---- TAPAS, Reformer ----------------------------------------------------- */

TEST(tapas_positions_reset_per_cell)
{
    /* question (cell 0,0) tokens 0-3; cell (1,1) 4-5; (2,1) 6; (1,2) 7-9;
     * token 10 back in cell (0,0): its distance from token 0 */
    static const uint32_t col[] = {0, 0, 0, 0, 1, 1, 2, 1, 1, 1, 0};
    static const uint32_t row[] = {0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 0};
    static const int64_t want[] = {0, 1, 2, 3, 0, 1, 0, 0, 1, 2, 10};
    static const int64_t want3[] = {0, 1, 2, 2, 0, 1, 0, 0, 1, 2, 2};
    int64_t o[11];
    CHECK(posenc_tapas_positions(col, row, 11, 1024, o) == POSENC_OK);
    for (int i = 0; i < 11; i++)
        CHECK_EQ_INT(o[i], want[i]);
    CHECK(posenc_tapas_positions(col, row, 11, 3, o) == POSENC_OK);
    for (int i = 0; i < 11; i++)
        CHECK_EQ_INT(o[i], want3[i]);
    CHECK(posenc_tapas_positions(col, NULL, 11, 3, o) == POSENC_ERR_NULL);
    CHECK(posenc_tapas_positions(NULL, NULL, 0, 3, NULL) == POSENC_OK);
    CHECK(posenc_tapas_positions(col, row, 11, 0, o) == POSENC_ERR_RANGE);
}

TEST(reformer_axial_ids)
{
    int64_t r, c;
    CHECK(posenc_axial_ids(130, 64, 64, &r, &c) == POSENC_OK);
    CHECK(r == 2 && c == 2);
    CHECK(posenc_axial_ids(4095, 64, 64, &r, &c) == POSENC_OK);
    CHECK(r == 63 && c == 63);
    CHECK(posenc_axial_ids(4096, 64, 64, &r, &c) == POSENC_ERR_POS);
    CHECK(posenc_axial_ids(-1, 64, 64, &r, &c) == POSENC_ERR_POS);
    CHECK(posenc_axial_ids(0, 0, 64, &r, &c) == POSENC_ERR_RANGE);
    CHECK(posenc_axial_ids(0, 64, 64, NULL, &c) == POSENC_ERR_NULL);
}

/* ---- LayoutLM --------------------------------------------------------------- */

TEST(layoutlm_box_rows)
{
    int64_t box[4] = {10, 20, 110, 70}, ids[6];
    CHECK(posenc_box2d_ids(box, 1024, ids) == POSENC_OK);
    static const int64_t want[6] = {10, 20, 110, 70, 50, 100};
    for (int i = 0; i < 6; i++)
        CHECK_EQ_INT(ids[i], want[i]);
    CHECK_EQ_INT(ids[POSENC_BOX2D_H], 50);
    CHECK_EQ_INT(ids[POSENC_BOX2D_W], 100);
    int64_t full[4] = {0, 0, 1023, 1023};
    CHECK(posenc_box2d_ids(full, 1024, ids) == POSENC_OK);
    int64_t past[4] = {0, 0, 1024, 5};
    CHECK(posenc_box2d_ids(past, 1024, ids) == POSENC_ERR_POS);
    int64_t flipped[4] = {50, 0, 10, 5};
    CHECK(posenc_box2d_ids(flipped, 1024, ids) == POSENC_ERR_POS);
    int64_t neg[4] = {-1, 0, 10, 5};
    CHECK(posenc_box2d_ids(neg, 1024, ids) == POSENC_ERR_POS);
    CHECK(posenc_box2d_ids(NULL, 1024, ids) == POSENC_ERR_NULL);
    CHECK(posenc_box2d_ids(box, 0, ids) == POSENC_ERR_RANGE);
}

int main(void)
{
    RUN(mpnet_hand_values);
    RUN(mpnet_matches_its_own_lines_and_t5_bidirectional);
    RUN(deberta_hand_values);
    RUN(deberta_keeps_transformers_float_results_where_exact_differs);
    RUN(deberta_matches_the_reference_at_every_distance);
    RUN(deberta_trace_and_arguments);
    RUN(deberta_relative_id_matrices);
    RUN(deberta_parameter_ranges);
    RUN(xlnet_relative_positions);
    RUN(cpmant_buckets);
    RUN(funnel_relative_positions);
    RUN(longt5_side_positions);
    RUN(vits_window_rows);
    RUN(tapas_positions_reset_per_cell);
    RUN(reformer_axial_ids);
    RUN(layoutlm_box_rows);
    return check_summary("relative_ids");
}
