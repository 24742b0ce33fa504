/* test_alibi.c - ALiBi (src/math/alibi.c, src/tensor/alibi_tensor.c): the slopes against
 * the paper's rule and reference values, the penalties by hand, every
 * argument check, and the bias tensor against posenc_alibi_penalties. Threads
 * that cannot start are in test_resources.c. */
#include "check.h"
#include "posenc.h"

#include <stdint.h>
#include <stdlib.h>

TEST(reference_alibi_slopes)
{
    FILE *f = fopen("tests/data/alibi_slopes.txt", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    int rows = 0, c;
    double slopes[1024];
    while ((c = getc(f)) != EOF) {
        if (c == '#') {
            while ((c = getc(f)) != '\n' && c != EOF) {
            }
            continue;
        }
        ungetc(c, f);
        unsigned H;
        if (fscanf(f, "%u", &H) != 1)
            break;
        CHECK(H >= 1 && H <= 1024);
        CHECK(posenc_alibi_slopes(H, slopes) == POSENC_OK);
        for (unsigned h = 0; h < H; h++) {
            double want;
            CHECK(fscanf(f, "%lf", &want) == 1);
            CHECK_NEAR(slopes[h], want, want * 0x1p-52);
        }
        while ((c = getc(f)) != '\n' && c != EOF) {
        }
        rows++;
    }
    fclose(f);
    CHECK_EQ_INT(rows, 64);
}

TEST(alibi_hand_values)
{
    /* H = 8: 2^-1 .. 2^-8. H = 3 (n = 2): 2^-4, 2^-8, then 2^-2 (first odd of 4). */
    double s[8], p[3];
    CHECK(posenc_alibi_slopes(8, s) == POSENC_OK);
    for (int h = 1; h <= 8; h++)
        CHECK(s[h - 1] == ldexp(1.0, -h));
    CHECK(posenc_alibi_slopes(3, s) == POSENC_OK);
    CHECK(s[0] == 0x1p-4 && s[1] == 0x1p-8 && s[2] == 0x1p-2);
    CHECK(posenc_alibi_penalties(3, 5, 2, p) == POSENC_OK);
    CHECK(p[0] == -3 * 0x1p-4 && p[1] == -3 * 0x1p-8 && p[2] == -3 * 0x1p-2);
    CHECK(posenc_alibi_penalties(3, 2, 5, p) == POSENC_OK); /* symmetric in |i - j| */
    CHECK(p[2] == -0.75);
    CHECK(posenc_alibi_penalties(3, 7, 7, p) == POSENC_OK);
    CHECK(p[0] == 0.0 && !signbit(p[0]));
}

TEST(alibi_checks)
{
    double s[3] = {7, 7, 7};
    CHECK(posenc_alibi_slopes(3, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_alibi_slopes(POSENC_MAX_DIM + 1, s) == POSENC_ERR_DIM);
    CHECK(posenc_alibi_penalties(0, 0, 0, s) == POSENC_ERR_DIM);
    CHECK(posenc_alibi_penalties(3, POSENC_MAX_POS + 1, 0, s) == POSENC_ERR_POS);
    CHECK(s[0] == 7);
    /* H = 1: slope 2^-8; i == j gives +0, never -0 */
    CHECK(posenc_alibi_penalties(1, 9, 9, s) == POSENC_OK && s[0] == 0 && !signbit(s[0]));
    CHECK(posenc_alibi_penalties(1, 0, 512, s) == POSENC_OK && s[0] == -2.0);
}

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

int main(void)
{
    RUN(reference_alibi_slopes);
    RUN(alibi_hand_values);
    RUN(alibi_checks);
    RUN(alibi_bias_refuses_empty_and_far_shapes);
    RUN(alibi_tensor);
    return check_summary("alibi");
}
