/* test_angles.c - the lesson tier's definitions (frequencies, angles, the
 * sinusoid, the rotation of one vector and its dot product, the number
 * syntax), pinned against hand-derived traces, the higher-precision reference
 * vectors in tests/data (mpmath, 60 digits), and mathematical identities. */
#include "check.h"
#include "posenc.h"

#include <stdint.h>
#include <stdlib.h>

#define B POSENC_DEFAULT_BASE
#define IL POSENC_LAYOUT_INTERLEAVED
#define HALF POSENC_LAYOUT_HALF

/* A small deterministic generator (xorshift64*), so failures reproduce. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Du;
}
static double rng_unit(void) { return (double)(rng_next() >> 11) * 0x1p-53 * 2.0 - 1.0; }
static int64_t rng_pos(void)
{
    /* Half small positions, half anywhere up to 2^31 - 1. */
    return (rng_next() & 1) ? (int64_t)(rng_next() % 5000) : (int64_t)(rng_next() % 2147483648u);
}

/* ---- the lesson's worked traces (derived by hand in the lesson) --------- */

TEST(lesson_pe_2_4)
{
    /* D = 4, pos = 2: angles 2/10000^0 = 2 and 2/10000^(2/4) = 0.02. */
    double pe[4];
    CHECK(posenc_sinusoid_fill_f64(2, 4, B, pe) == POSENC_OK);
    CHECK_NEAR(pe[0], 0.9093, 5e-5);
    CHECK_NEAR(pe[1], -0.4161, 5e-5);
    CHECK_NEAR(pe[2], 0.0200, 5e-5);
    CHECK_NEAR(pe[3], 0.9998, 5e-5);
    /* and exactly sin/cos of those angles */
    CHECK_NEAR(pe[0], sin(2.0), 1e-16);
    CHECK_NEAR(pe[3], cos(0.02), 1e-16);
}

TEST(lesson_dot_depends_on_offset)
{
    double q[2] = {1, 0}, k[2] = {1, 0}, d53, d97;
    CHECK(posenc_rope_dot_f64(5, 3, 2, B, IL, q, k, &d53) == POSENC_OK);
    CHECK(posenc_rope_dot_f64(9, 7, 2, B, IL, q, k, &d97) == POSENC_OK);
    CHECK_NEAR(d53, cos(2.0), 1e-15);
    CHECK_NEAR(d97, cos(2.0), 1e-15);
    CHECK_NEAR(d53, -0.4161, 5e-5);
}

TEST(lesson_rope_1)
{
    double x[2] = {1, 0};
    CHECK(posenc_rope_apply_f64(1, 2, B, IL, POSENC_FORWARD, x) == POSENC_OK);
    CHECK_NEAR(x[0], 0.5403, 5e-5);
    CHECK_NEAR(x[1], 0.8415, 5e-5);
}

/* The lesson file as shipped: each command with its expected 4-decimal output. */
TEST(lesson_traces_file)
{
    FILE *f = fopen("tests/data/lesson_traces.txt", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[256];
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char cmd[16];
        double want[4];
        if (sscanf(line, "PE %*d %*d\t%lf %lf %lf %lf", &want[0], &want[1], &want[2], &want[3]) == 4) {
            double pe[4];
            CHECK(posenc_sinusoid_fill_f64(2, 4, B, pe) == POSENC_OK);
            for (int i = 0; i < 4; i++)
                CHECK_NEAR(pe[i], want[i], 5e-5);
            rows++;
        } else if (sscanf(line, "%15s", cmd) == 1) {
            long m, n;
            double w0, w1, q[2] = {1, 0}, k[2] = {1, 0}, d;
            if (sscanf(line, "DOT %ld %ld [1 0] [1 0]\t%lf", &m, &n, &w0) == 3) {
                CHECK(posenc_rope_dot_f64(m, n, 2, B, IL, q, k, &d) == POSENC_OK);
                CHECK_NEAR(d, w0, 5e-5);
                rows++;
            } else if (sscanf(line, "ROPE %ld 1 0\t%lf %lf", &m, &w0, &w1) == 3) {
                CHECK(posenc_rope_apply_f64(m, 2, B, IL, POSENC_FORWARD, q) == POSENC_OK);
                CHECK_NEAR(q[0], w0, 5e-5);
                CHECK_NEAR(q[1], w1, 5e-5);
                rows++;
            }
        }
    }
    fclose(f);
    CHECK_EQ_INT(rows, 4); /* every trace in the file was checked */
}

/* ---- reference vectors from a higher-precision computation --------------- */

TEST(reference_angles)
{
    FILE *f = fopen("tests/data/angles.txt", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[512];
    int rows = 0;
    double worst_f32_ulp = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        long long pos;
        unsigned D, k;
        double base, theta, s_ref, c_ref;
        int got = sscanf(line, "%lld %u %u %lf %lf %lf %lf", &pos, &D, &k, &base, &theta, &s_ref, &c_ref);
        CHECK_EQ_INT(got, 7);
        if (got != 7)
            continue;
        double a, s, c;
        CHECK(posenc_angle(pos, k, D, base, &a) == POSENC_OK);
        CHECK_NEAR(a, theta, fabs(theta) * 0x1p-52);
        CHECK(posenc_sincos(pos, k, D, base, &s, &c) == POSENC_OK);
        /* double: within 2 ulps of values of magnitude <= 1, i.e. 2^-52 */
        CHECK_NEAR(s, s_ref, 0x1p-52);
        CHECK_NEAR(c, c_ref, 0x1p-52);
        /* the float row: each element within 1 ulp (absolute 2^-25 near 0) */
        float row[256];
        CHECK(posenc_sinusoid_fill_f32(pos, D, base, row) == POSENC_OK);
        double es = fabs(s_ref) < 0x1p-24 ? 0 : check_ulp_f32(row[2 * k], s_ref);
        CHECK(es <= 1.0);
        CHECK(fabs(row[2 * k] - s_ref) <= 0x1p-25 || es <= 1.0);
        if (2 * k + 1 < D) {
            double ec = check_ulp_f32(row[2 * k + 1], c_ref);
            CHECK(ec <= 1.0 || fabs(row[2 * k + 1] - c_ref) <= 0x1p-25);
            if (ec > worst_f32_ulp)
                worst_f32_ulp = ec;
        }
        rows++;
    }
    fclose(f);
    CHECK_EQ_INT(rows, 1134); /* the whole file was read */
    CHECK(worst_f32_ulp <= 1.0);
}

/* ---- definitions ---------------------------------------------------------- */

TEST(sinusoid_layout_and_odd_d)
{
    /* D = 5: pairs 0, 1 full, pair 2 has only its sine (angle pos / 10000^(4/5)). */
    double pe[5];
    CHECK(posenc_sinusoid_fill_f64(3, 5, B, pe) == POSENC_OK);
    CHECK_NEAR(pe[0], sin(3.0), 1e-16);
    CHECK_NEAR(pe[1], cos(3.0), 1e-16);
    CHECK_NEAR(pe[2], sin(3.0 / pow(1e4, 0.4)), 1e-15);
    CHECK_NEAR(pe[3], cos(3.0 / pow(1e4, 0.4)), 1e-15);
    CHECK_NEAR(pe[4], sin(3.0 / pow(1e4, 0.8)), 1e-15);
    /* position 0: sines 0, cosines 1 */
    CHECK(posenc_sinusoid_fill_f64(0, 5, B, pe) == POSENC_OK);
    CHECK(pe[0] == 0 && pe[1] == 1 && pe[2] == 0 && pe[3] == 1 && pe[4] == 0);
    /* another base */
    double b[4];
    CHECK(posenc_sinusoid_fill_f64(7, 4, 100.0, b) == POSENC_OK);
    CHECK_NEAR(b[2], sin(0.7), 1e-16);
}

TEST(inv_freq_and_explain)
{
    double f;
    CHECK(posenc_inv_freq(1, 4, B, &f) == POSENC_OK);
    CHECK(f == 0.01);
    CHECK(posenc_inv_freq(0, 4, B, &f) == POSENC_OK && f == 1.0);
    CHECK(posenc_inv_freq(32, 128, B, &f) == POSENC_OK);
    CHECK_NEAR(f, 0.01, 1e-18); /* 10000^(-64/128) */
    CHECK(posenc_inv_freq(2, 5, B, &f) == POSENC_OK); /* odd D's sine-only pair */
    CHECK_NEAR(f, pow(1e4, -0.8), 1e-18);
    CHECK(posenc_inv_freq(3, 5, B, &f) == POSENC_ERR_RANGE);
    posenc_pair_trace tr;
    CHECK(posenc_pair_explain(2, 1, 4, B, &tr) == POSENC_OK);
    CHECK(tr.k == 1 && tr.divisor == 100.0 && tr.inv_freq == 0.01);
    CHECK_NEAR(tr.angle, 0.02, 1e-17);
    CHECK_NEAR(tr.sin_angle, sin(0.02), 1e-17);
    CHECK_NEAR(tr.wavelength, 200 * 3.14159265358979323846, 1e-12);
}

TEST(rotation_direction_and_layouts)
{
    /* A small positive angle raises the second coordinate of (1, 0). */
    double x[4] = {1, 0, 1, 0};
    CHECK(posenc_rope_apply_f64(1, 4, B, IL, POSENC_FORWARD, x) == POSENC_OK);
    CHECK(x[1] > 0 && x[3] > 0 && x[3] < x[1]);
    CHECK_NEAR(x[2], cos(0.01), 1e-16);
    CHECK_NEAR(x[3], sin(0.01), 1e-16);

    /* Half layout: pair k = (x[k], x[k + D/2]). The same pairs written
     * interleaved give the same rotated pairs. */
    double h[6] = {1, 2, 3, 4, 5, 6}, il[6] = {1, 4, 2, 5, 3, 6};
    CHECK(posenc_rope_apply_f64(1234, 6, B, HALF, POSENC_FORWARD, h) == POSENC_OK);
    CHECK(posenc_rope_apply_f64(1234, 6, B, IL, POSENC_FORWARD, il) == POSENC_OK);
    for (int k = 0; k < 3; k++) {
        CHECK(h[k] == il[2 * k]);
        CHECK(h[k + 3] == il[2 * k + 1]);
    }
    /* Odd D: the last element is unchanged, in both layouts. */
    double o[5] = {1, 2, 3, 4, 5}, oh[5] = {1, 2, 3, 4, 5};
    CHECK(posenc_rope_apply_f64(99, 5, B, IL, POSENC_FORWARD, o) == POSENC_OK);
    CHECK(posenc_rope_apply_f64(99, 5, B, HALF, POSENC_FORWARD, oh) == POSENC_OK);
    CHECK(o[4] == 5 && oh[4] == 5);
    /* half with odd D pairs (0,2), (1,3) */
    CHECK_NEAR(oh[0], 1 * cos(99.0) - 3 * sin(99.0), 1e-14);
    CHECK_NEAR(oh[2], 1 * sin(99.0) + 3 * cos(99.0), 1e-14);
    uint32_t i0, i1;
    CHECK(posenc_pair_index(1, 5, HALF, &i0, &i1) == POSENC_OK && i0 == 1 && i1 == 3);
    CHECK(posenc_pair_index(1, 5, IL, &i0, &i1) == POSENC_OK && i0 == 2 && i1 == 3);
    CHECK(posenc_pair_index(2, 5, IL, &i0, &i1) == POSENC_ERR_RANGE);
}

static double norm2(const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

TEST(identity_rotation_keeps_length_and_inverts)
{
    for (int trial = 0; trial < 300; trial++) {
        int D = 1 + (int)(rng_next() % 300);
        posenc_layout L = (rng_next() & 1) ? IL : HALF;
        int64_t pos = rng_pos();
        double x[300], y[300];
        float xf[300], yf[300];
        for (int i = 0; i < D; i++) {
            x[i] = y[i] = rng_unit();
            xf[i] = yf[i] = (float)x[i];
        }
        double n0 = norm2(x, D);
        CHECK(posenc_rope_apply_f64(pos, (uint32_t)D, B, L, POSENC_FORWARD, y) == POSENC_OK);
        CHECK_NEAR(norm2(y, D), n0, 1e-13 * (1 + n0));
        CHECK(posenc_rope_apply_f64(pos, (uint32_t)D, B, L, POSENC_INVERSE, y) == POSENC_OK);
        for (int i = 0; i < D; i++)
            CHECK_NEAR(y[i], x[i], 1e-14);
        CHECK(posenc_rope_apply_f32(pos, (uint32_t)D, B, L, POSENC_FORWARD, yf) == POSENC_OK);
        CHECK(posenc_rope_apply_f32(pos, (uint32_t)D, B, L, POSENC_INVERSE, yf) == POSENC_OK);
        for (int i = 0; i < D; i++)
            CHECK_NEAR(yf[i], xf[i], 1e-6);
    }
}

TEST(identity_dot_depends_only_on_offset)
{
    for (int trial = 0; trial < 200; trial++) {
        int D = 1 + (int)(rng_next() % 64);
        posenc_layout L = (rng_next() & 1) ? IL : HALF;
        double q[64], k[64], d1, d2;
        for (int i = 0; i < D; i++) {
            q[i] = rng_unit();
            k[i] = rng_unit();
        }
        int64_t m = (int64_t)(rng_next() % 100000), n = (int64_t)(rng_next() % 100000);
        int64_t shift = (int64_t)(rng_next() % 100000);
        CHECK(posenc_rope_dot_f64(m, n, (uint32_t)D, B, L, q, k, &d1) == POSENC_OK);
        CHECK(posenc_rope_dot_f64(m + shift, n + shift, (uint32_t)D, B, L, q, k, &d2) == POSENC_OK);
        CHECK_NEAR(d1, d2, 1e-12);
        /* and DOT is the dot product of the two rotated vectors */
        double qr[64], kr[64], direct = 0;
        for (int i = 0; i < D; i++) {
            qr[i] = q[i];
            kr[i] = k[i];
        }
        CHECK(posenc_rope_apply_f64(m, (uint32_t)D, B, L, POSENC_FORWARD, qr) == POSENC_OK);
        CHECK(posenc_rope_apply_f64(n, (uint32_t)D, B, L, POSENC_FORWARD, kr) == POSENC_OK);
        for (int i = 0; i < D; i++)
            direct += qr[i] * kr[i];
        CHECK_NEAR(d1, direct, 1e-13);
    }
}

TEST(add_is_x_plus_pe)
{
    double x[7] = {1, -2, 3, -4, 5, -6, 7}, pe[7];
    float xf[7] = {1, -2, 3, -4, 5, -6, 7};
    CHECK(posenc_sinusoid_add_f64(42, 7, B, x) == POSENC_OK);
    CHECK(posenc_sinusoid_add_f32(42, 7, B, xf) == POSENC_OK);
    CHECK(posenc_sinusoid_fill_f64(42, 7, B, pe) == POSENC_OK);
    double orig[7] = {1, -2, 3, -4, 5, -6, 7};
    for (int i = 0; i < 7; i++) {
        CHECK(x[i] == orig[i] + pe[i]);
        CHECK_NEAR(xf[i], orig[i] + pe[i], 1e-6);
    }
}

/* ---- errors ----------------------------------------------------------------- */

TEST(argument_errors)
{
    double d[4] = {0}, s, c;
    float f[4] = {0};
    CHECK(posenc_sinusoid_fill_f64(-1, 4, B, d) == POSENC_ERR_POS);
    CHECK(posenc_sinusoid_fill_f64(POSENC_MAX_POS + 1, 4, B, d) == POSENC_ERR_POS);
    CHECK(posenc_sinusoid_fill_f64(1, 0, B, d) == POSENC_ERR_DIM);
    CHECK(posenc_sinusoid_fill_f64(1, POSENC_MAX_DIM + 1, B, d) == POSENC_ERR_DIM);
    CHECK(posenc_sinusoid_fill_f64(1, 4, 1.0, d) == POSENC_ERR_BASE);
    CHECK(posenc_sinusoid_fill_f64(1, 4, NAN, d) == POSENC_ERR_BASE);
    CHECK(posenc_sinusoid_fill_f64(1, 4, INFINITY, d) == POSENC_ERR_BASE);
    CHECK(posenc_sinusoid_fill_f64(1, 4, B, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_sinusoid_fill_f32(1, 4, B, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_rope_apply_f64(1, 4, B, (posenc_layout)7, POSENC_FORWARD, d) == POSENC_ERR_LAYOUT);
    CHECK(posenc_rope_apply_f32(1, 4, B, IL, POSENC_FORWARD, NULL) == POSENC_ERR_NULL);
    d[2] = NAN;
    CHECK(posenc_rope_apply_f64(1, 4, B, IL, POSENC_FORWARD, d) == POSENC_ERR_NOT_FINITE);
    CHECK(isnan(d[2]) && d[0] == 0); /* unchanged */
    f[1] = INFINITY;
    CHECK(posenc_rope_apply_f32(1, 4, B, IL, POSENC_FORWARD, f) == POSENC_ERR_NOT_FINITE);
    CHECK(posenc_sinusoid_add_f64(1, 4, B, d) == POSENC_ERR_NOT_FINITE);
    CHECK(posenc_sincos(1, 0, 2, B, &s, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_sincos(-5, 0, 2, B, &s, &c) == POSENC_ERR_POS);
    CHECK(posenc_angle(1, 0, 2, 0.5, &s) == POSENC_ERR_BASE);
    double q[2] = {1, 0};
    CHECK(posenc_rope_dot_f64(1, -1, 2, B, IL, q, q, &s) == POSENC_ERR_POS);
    CHECK(posenc_rope_dot_f64(1, 1, 2, B, IL, q, NULL, &s) == POSENC_ERR_NULL);
    CHECK(posenc_alibi_slopes(0, d) == POSENC_ERR_DIM);
    CHECK(posenc_alibi_penalties(4, 1, -2, d) == POSENC_ERR_POS);
    CHECK(posenc_alibi_penalties(4, 1, 2, NULL) == POSENC_ERR_NULL);
}

TEST(strerror_and_version)
{
    for (int s = 0; s <= 11; s++) {
        const char *m = posenc_strerror((posenc_status)s);
        CHECK(m && m[0] && strcmp(m, "unknown status") != 0);
    }
    CHECK(strcmp(posenc_strerror((posenc_status)99), "unknown status") == 0);
    CHECK(posenc_version_number() == POSENC_VERSION_NUMBER);
    CHECK(strcmp(posenc_version_string(), "3.0.0") == 0);
    CHECK(POSENC_VERSION_NUMBER == 30000 && POSENC_VERSION_MAJOR == 3);
    /* pinned values */
    CHECK(POSENC_OK == 0 && POSENC_ERR_POS == 3 && POSENC_ERR_NOT_FINITE == 11);
}

/* ---- number syntax ----------------------------------------------------------- */

static int num_ok(const char *s, double want)
{
    double v;
    return posenc_parse_number(s, strlen(s), &v) == POSENC_OK && v == want;
}
static posenc_status num_st(const char *s)
{
    double v;
    return posenc_parse_number(s, strlen(s), &v);
}

TEST(parse_numbers)
{
    CHECK(num_ok("1", 1) && num_ok("-2.5", -2.5) && num_ok("+.5", 0.5) && num_ok("3.", 3));
    CHECK(num_ok("1e3", 1000) && num_ok("1E-2", 0.01) && num_ok("-0", 0));
    CHECK(num_ok("1e-400", 0)); /* underflow is a number */
    CHECK(num_st("") == POSENC_ERR_FORMAT && num_st(".") == POSENC_ERR_FORMAT);
    CHECK(num_st("nan") == POSENC_ERR_FORMAT && num_st("inf") == POSENC_ERR_FORMAT);
    CHECK(num_st("0x10") == POSENC_ERR_FORMAT && num_st("1e") == POSENC_ERR_FORMAT);
    CHECK(num_st(" 1") == POSENC_ERR_FORMAT && num_st("1 ") == POSENC_ERR_FORMAT);
    CHECK(num_st("--1") == POSENC_ERR_FORMAT && num_st("1.2.3") == POSENC_ERR_FORMAT);
    CHECK(num_st("1e999") == POSENC_ERR_NOT_FINITE);
    double v;
    CHECK(posenc_parse_number("12345", 2, &v) == POSENC_OK && v == 12); /* only len bytes */
    int64_t i;
    CHECK(posenc_parse_int64("2147483647", 10, &i) == POSENC_OK && i == 2147483647);
    CHECK(posenc_parse_int64("-7", 2, &i) == POSENC_OK && i == -7);
    CHECK(posenc_parse_int64("9223372036854775807", 19, &i) == POSENC_OK && i == INT64_MAX);
    CHECK(posenc_parse_int64("9223372036854775808", 19, &i) == POSENC_ERR_RANGE);
    CHECK(posenc_parse_int64("99999999999999999999999x", 24, &i) == POSENC_ERR_FORMAT);
    CHECK(posenc_parse_int64("1.0", 3, &i) == POSENC_ERR_FORMAT);
    CHECK(posenc_parse_int64("-", 1, &i) == POSENC_ERR_FORMAT);
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

int main(void)
{
    RUN(lesson_pe_2_4);
    RUN(lesson_dot_depends_on_offset);
    RUN(lesson_rope_1);
    RUN(lesson_traces_file);
    RUN(reference_angles);
    RUN(sinusoid_layout_and_odd_d);
    RUN(inv_freq_and_explain);
    RUN(rotation_direction_and_layouts);
    RUN(identity_rotation_keeps_length_and_inverts);
    RUN(identity_dot_depends_only_on_offset);
    RUN(add_is_x_plus_pe);
    RUN(argument_errors);
    RUN(strerror_and_version);
    RUN(parse_numbers);
    RUN(sinusoid_add_f32_even_dimension);
    RUN(rope_dot_refuses_a_non_finite_k);
    return check_summary("angles");
}
