/* test_golden.c - accuracy against exact values with a C compiler alone.
 *
 * tests/data/golden_sincos.txt holds sin and cos of theta = pos / base^(2k/D),
 * exact (GNU MPFR, 256 bits; written by tools/accuracy.c --golden) as
 * hi + lo double pairs, at positions up to 2^31 - 1 including the ones where
 * theta is closest to a multiple of pi/2. Bounds (docs/ACCURACY.md):
 *   float:  |y - v| <= max(ulp_float(v), 2^-25)
 *   double: |y - v| <= 2 max(ulp_double(v), 2^-60)
 * (The table fill against the direct values, with an attention scale, and
 * the public sinusoid tables' own checks are in test_tables.c.) */
#include "internal.h"
#include "check.h"

#include <stdlib.h>

/* error of y against the exact hi + lo, in the unit max(ulp(v), floor) */
static double err_units(double y, double hi, double lo, int f32)
{
    int e;
    double a = fabs(hi);
    double floor_ = f32 ? 0x1p-25 : 0x1p-60, unit = floor_;
    if (a > 0) {
        frexp(a, &e);
        double ulp = ldexp(1.0, e - 1 - (f32 ? 23 : 52));
        if (ulp > unit)
            unit = ulp;
    }
    return fabs((y - hi) - lo) / unit;
}

typedef struct gpoint {
    long long pos;
    unsigned k, D;
    double base, s_hi, s_lo, c_hi, c_lo;
} gpoint;

static gpoint pts[1024];
static size_t n_pts;

TEST(golden_file_read_whole)
{
    FILE *f = fopen("tests/data/golden_sincos.txt", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[1024];
    CHECK(fgets(line, sizeof line, f) != NULL);
    CHECK(strcmp(line, "posenc-golden-sincos 1\n") == 0);
    size_t declared = (size_t)-1;
    int after_end = 0;
    while (fgets(line, sizeof line, f)) {
        if (after_end) {
            after_end = 2; /* something after the end line */
            break;
        }
        if (line[0] == '#')
            continue;
        if (sscanf(line, "end %zu", &declared) == 1) {
            after_end = 1;
            continue;
        }
        gpoint p;
        char sd[64], cd[64];
        int got = sscanf(line, "%lld %u %u %lf %63s %la %la %63s %la %la", &p.pos, &p.k, &p.D,
                         &p.base, sd, &p.s_hi, &p.s_lo, cd, &p.c_hi, &p.c_lo);
        CHECK_EQ_INT(got, 10);
        if (got != 10 || n_pts >= sizeof pts / sizeof pts[0])
            break;
        /* the decimal and the hex forms agree */
        CHECK_NEAR(strtod(sd, NULL), p.s_hi, 1e-24);
        CHECK_NEAR(strtod(cd, NULL), p.c_hi, 1e-24);
        pts[n_pts++] = p;
    }
    CHECK(feof(f));
    CHECK_EQ_INT(after_end, 1);
    CHECK_EQ_INT(declared, n_pts);
    CHECK(n_pts >= 200);
    fclose(f);
}

TEST(golden_sincos_double_and_float)
{
    CHECK(n_pts > 0);
    double worst64 = 0, worst32 = 0;
    for (size_t i = 0; i < n_pts; i++) {
        const gpoint *p = &pts[i];
        double s, c;
        CHECK_EQ_INT(posenc_sincos(p->pos, p->k, p->D, p->base, &s, &c), POSENC_OK);
        double e[4] = {err_units(s, p->s_hi, p->s_lo, 0), err_units(c, p->c_hi, p->c_lo, 0),
                       err_units((float)s, p->s_hi, p->s_lo, 1),
                       err_units((float)c, p->c_hi, p->c_lo, 1)};
        for (int j = 0; j < 2; j++)
            if (e[j] > worst64)
                worst64 = e[j];
        for (int j = 2; j < 4; j++)
            if (e[j] > worst32)
                worst32 = e[j];
        if (e[0] > 2 || e[1] > 2 || e[2] > 1 || e[3] > 1)
            fprintf(stderr, "pos %lld k %u D %u base %.17g: %g %g %g %g\n", p->pos, p->k, p->D,
                    p->base, e[0], e[1], e[2], e[3]);
    }
    CHECK(worst64 <= 2.0);
    CHECK(worst32 <= 1.0);
}

/* The public single-vector paths round the same double: sinusoid_fill_f32
 * element 2k, 2k+1 and rope_apply_f32's phases on (1, 0). */
TEST(golden_fill_and_rope_f32)
{
    static float row[4096], v[4096];
    for (size_t i = 0; i < n_pts; i += 7) {
        const gpoint *p = &pts[i];
        CHECK_EQ_INT(posenc_sinusoid_fill_f32(p->pos, p->D, p->base, row), POSENC_OK);
        CHECK(err_units(row[2 * p->k], p->s_hi, p->s_lo, 1) <= 1.0);
        if (2 * p->k + 1 < p->D)
            CHECK(err_units(row[2 * p->k + 1], p->c_hi, p->c_lo, 1) <= 1.0);
        if (p->D % 2 == 0) {
            for (unsigned j = 0; j < p->D; j++)
                v[j] = (float)(j % 2 == 0);
            CHECK_EQ_INT(posenc_rope_apply_f32(p->pos, p->D, p->base, POSENC_LAYOUT_INTERLEAVED,
                                               POSENC_FORWARD, v),
                         POSENC_OK);
            CHECK(err_units(v[2 * p->k], p->c_hi, p->c_lo, 1) <= 1.0);
            CHECK(err_units(v[2 * p->k + 1], p->s_hi, p->s_lo, 1) <= 1.0);
        }
    }
}

/* The fast fill at each golden point, from a block that starts up to 2500
 * positions earlier (so the point is reached by stepping, across anchors). */
TEST(golden_table_fill)
{
    static float tc[2600], ts[2600];
    double worst = 0;
    for (size_t i = 0; i < n_pts; i++) {
        const gpoint *p = &pts[i];
        long long back = (long long)((i * 977) % 2500);
        if (back > p->pos)
            back = p->pos;
        posenc__dd f = posenc__inv_freq_dd(p->k, p->D, p->base);
        posenc__sincos_table_f32(p->pos - back, (size_t)back + 1, &f.hi, &f.lo, 1, 1.0, tc, ts,
                                 1);
        double e1 = err_units(tc[back], p->c_hi, p->c_lo, 1);
        double e2 = err_units(ts[back], p->s_hi, p->s_lo, 1);
        if (e1 > worst)
            worst = e1;
        if (e2 > worst)
            worst = e2;
    }
    CHECK(worst <= 1.0);
}

int main(void)
{
    RUN(golden_file_read_whole);
    RUN(golden_sincos_double_and_float);
    RUN(golden_fill_and_rope_f32);
    RUN(golden_table_fill);
    return check_summary("golden");
}
