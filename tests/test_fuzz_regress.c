/* test_fuzz_regress.c - findings of the libFuzzer targets (tests/fuzz/), each
 * kept as a check so it cannot come back. The config.json side of the same
 * findings (tests/data/bad-fuzz-*.json) is checked by the CLI cases
 * tests/cli/rope_config_fuzz_*, which are skipped without jansson; what is
 * here needs only libposenc.
 *
 * fuzz_config, dynamic NTK with a huge factor: at cur_len past L,
 * q = s Lc / L - (s - 1) overflowed to inf - inf = NaN, and the double-double
 * exp then converted NaN to int (undefined behaviour, caught by UBSan) and
 * gave NaN frequencies. Now that length is refused with POSENC_ERR_RANGE, and
 * lengths where q is still a double keep working. */
#include "posenc.h"

#include "check.h"

#include <string.h>

static posenc_rope rope;

static void dynamic_huge(posenc_rope_scaling *s)
{
    posenc_rope_scaling_init(s, POSENC_ROPE_DYNAMIC);
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
    /* 1e300 * 2^31 / 10 = 2.1e308 overflows, 1e300 * 1.7e8 / 10 = 1.7e307 does not. */
    CHECK_EQ_INT(posenc_rope_init_scaled(&rope, 4, 4, 1e4, POSENC_LAYOUT_HALF, &s, 170000000),
                 POSENC_OK);
    CHECK(isfinite(rope.inv_freq_hi[1]) && rope.inv_freq_hi[1] > 0.0);
}

/* fuzz_config findings 2 and 3, now refused by the library for every caller:
 * linear with factor 1e308 and base 1e308 gives f(1) = 1e308^(-1/2) / 1e308
 * = 1e-462, which is 0 in double; a longrope long_factor of 1e-320 divides
 * pair 1's frequency (0.01) by a subnormal, past DBL_MAX (inf). */
TEST(frequencies_that_underflow_or_overflow_are_refused)
{
    posenc_rope_scaling s;
    posenc_rope before;
    posenc_rope_scaling_init(&s, POSENC_ROPE_LINEAR);
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
    posenc_rope_scaling_init(&s, POSENC_ROPE_LONGROPE);
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

/* fuzz_safetensors, its first seed: a file with one tensor and no
 * __metadata__ made the reader call qsort on a NULL array of 0 metadata keys
 * (undefined behaviour, caught by UBSan). Now qsort sees only two or more. */
TEST(safetensors_without_metadata_sorts_nothing)
{
    static const char hdr[] = "{\"t\":{\"dtype\":\"F32\",\"shape\":[2,2],"
                              "\"data_offsets\":[0,16]}}";
    unsigned char file[8 + sizeof hdr - 1 + 16] = {sizeof hdr - 1};
    memcpy(file + 8, hdr, sizeof hdr - 1);
    static const unsigned char data[16] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0,
                                           0, 0, 0, 0x3f, 0, 0, 0x40, 0x40};
    memcpy(file + 8 + sizeof hdr - 1, data, 16);
    FILE *f = fmemopen(file, sizeof file, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    posenc_learned *t = NULL;
    posenc_load_error e;
    CHECK_EQ_INT(posenc_learned_read_safetensors(f, "t", &t, &e), POSENC_OK);
    fclose(f);
    double row[2];
    CHECK(t && posenc_learned_row_f64(t, 1, row) == POSENC_OK && row[0] == 0.5 && row[1] == 3.0);
    posenc_learned_free(t);
}

int main(void)
{
    RUN(dynamic_huge_factor_at_trained_length);
    RUN(dynamic_huge_factor_just_past_trained_length);
    RUN(dynamic_huge_factor_at_longest_length_is_refused);
    RUN(frequencies_that_underflow_or_overflow_are_refused);
    RUN(safetensors_without_metadata_sorts_nothing);
    return check_summary("test_fuzz_regress");
}
