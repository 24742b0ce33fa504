/* test_roformer.c - RoFormer's rotation (posenc_roformer_rotate_f32/_f64):
 *   - a hand-worked pair;
 *   - a reference written here from modeling_roformer.py L55-68 (the table
 *     in long double, rounded once to float) and L224-233 (each product,
 *     then the sum, rounded to float), bit for bit;
 *   - the RoPE API: _f64 is interleaved forward RoPE, and the float result
 *     stays within float rounding of it. */
#include "check.h"
#include "posenc.h"

#include <stdint.h>
#include <stdlib.h>

static void ref_rotate(int64_t pos, uint32_t D, float *x)
{
    for (uint32_t k = 0; k < D / 2; k++) {
        long double a = (long double)pos / powl(10000.0L, 2.0L * k / D); /* L62 */
        float s = (float)sinl(a), c = (float)cosl(a);                     /* L66-67 */
        volatile float q0 = x[2 * k], q1 = x[2 * k + 1];
        volatile float a0 = q0 * c, a1 = q1 * c;      /* query_layer * cos_pos */
        volatile float b0 = -q1 * s, b1 = q0 * s;     /* rotate_half * sin_pos */
        x[2 * k] = a0 + b0;
        x[2 * k + 1] = a1 + b1;
    }
}

TEST(a_hand_worked_pair)
{
    /* head_dim 2, pos 1: theta = 1; (1, 0) -> (cos 1, sin 1); (0, 1) -> (-sin 1, cos 1) */
    float x[2] = {1.0f, 0.0f};
    CHECK(posenc_roformer_rotate_f32(1, 2, 10000.0, x) == POSENC_OK);
    CHECK(x[0] == (float)cos(1.0) && x[1] == (float)sin(1.0));
    float y[2] = {0.0f, 1.0f};
    CHECK(posenc_roformer_rotate_f32(1, 2, 10000.0, y) == POSENC_OK);
    CHECK(y[0] == -(float)sin(1.0) && y[1] == (float)cos(1.0));
    /* head_dim 4, pos 100: pair 1 turns by 100 / 10000^(1/2) = 1 radian */
    float z[4] = {0.0f, 0.0f, 2.0f, 0.0f};
    CHECK(posenc_roformer_rotate_f32(100, 4, 10000.0, z) == POSENC_OK);
    CHECK(z[2] == 2.0f * (float)cos(1.0) && z[3] == 2.0f * (float)sin(1.0));
}

TEST(float_steps_match_the_reference_and_the_rope_api)
{
    static const uint32_t dims[] = {2, 8, 64, 128};
    static const int64_t positions[] = {0, 1, 7, 511, 1535, 100000};
    srand(7);
    double worst = 0;
    for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++)
        for (size_t pi = 0; pi < sizeof positions / sizeof positions[0]; pi++) {
            uint32_t D = dims[di];
            float x[128], r[128];
            double d[128], e[128];
            for (uint32_t i = 0; i < D; i++) {
                x[i] = r[i] = (float)rand() / (float)RAND_MAX * 4.0f - 2.0f;
                d[i] = e[i] = x[i];
            }
            int64_t p = positions[pi];
            CHECK(posenc_roformer_rotate_f32(p, D, 10000.0, x) == POSENC_OK);
            ref_rotate(p, D, r);
            CHECK(posenc_roformer_rotate_f64(p, D, 10000.0, d) == POSENC_OK);
            CHECK(posenc_rope_apply_f64(p, D, 10000.0, POSENC_LAYOUT_INTERLEAVED, POSENC_FORWARD,
                                        e) == POSENC_OK);
            for (uint32_t i = 0; i < D; i++) {
                CHECK(x[i] == r[i]);
                CHECK(d[i] == e[i]);
                /* three float roundings on values of size <= 2 * sqrt(2) */
                double err = fabs((double)x[i] - d[i]);
                if (err > worst)
                    worst = err;
            }
        }
    CHECK(worst <= 4 * 0x1p-24 * 2);
    printf("roformer: float steps within %.3g of the exact rotation\n", worst);
}

TEST(arguments_are_checked)
{
    float x[4] = {0};
    double d[4] = {0};
    CHECK(posenc_roformer_rotate_f32(0, 4, 10000.0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_roformer_rotate_f32(-1, 4, 10000.0, x) == POSENC_ERR_POS);
    CHECK(posenc_roformer_rotate_f32(0, 3, 10000.0, x) == POSENC_ERR_DIM);
    CHECK(posenc_roformer_rotate_f64(0, 0, 10000.0, d) == POSENC_ERR_DIM);
    CHECK(posenc_roformer_rotate_f64(0, 4, 0.5, d) == POSENC_ERR_BASE);
}

int main(void)
{
    RUN(a_hand_worked_pair);
    RUN(float_steps_match_the_reference_and_the_rope_api);
    RUN(arguments_are_checked);
    return check_summary("roformer");
}
