/* test_golden.c - accuracy against exact values with a C compiler alone.
 *
 * tests/data/golden_sincos.txt holds sin and cos of theta = pos / base^(2k/D),
 * exact (GNU MPFR, 256 bits; written by tools/accuracy.c --golden) as
 * hi + lo double pairs, at positions up to 2^31 - 1 including the ones where
 * theta is closest to a multiple of pi/2. Bounds (docs/ACCURACY.md):
 *   float:  |y - v| <= max(ulp_float(v), 2^-25)
 *   double: |y - v| <= 2 max(ulp_double(v), 2^-60)
 * Also: the fast table fill against the direct values (fast vs reference),
 * with an attention scale, and the public sinusoid tables. */
#include "../src/internal.h"
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

/* Fast fill vs reference on blocks with many pairs (the vector paths), odd
 * pair counts, a scale, positions up to 2^31 - 1, and a row stride. Every fast
 * value is within max(ulp, 2^-25) * |scale| of the direct double value
 * (itself within 2^-60 of exact), and within 1 ulp of the reference fill. */
TEST(table_fast_vs_reference)
{
    enum { NPAIR = 300, NPOS = 2100, LD = 307 };
    static double fh[NPAIR], fl[NPAIR];
    static float fc[NPOS * LD], fs[NPOS * LD], rc[NPOS * LD], rs[NPOS * LD];
    static const long long starts[] = {0, 1, 123456789, 2147483647LL - NPOS + 1};
    static const double scales[] = {1.0, 1.2345, 0.1};
    static const size_t npairs[] = {NPAIR, 1, 7, 133};
    for (size_t si = 0; si < 4; si++) {
        size_t m = npairs[si];
        double base = si == 1 ? 1e9 : 10000.0 + 1000.0 * (double)si;
        for (size_t k = 0; k < m; k++) {
            posenc__dd f = posenc__inv_freq_dd((uint32_t)k, 2 * (uint32_t)m, base);
            fh[k] = f.hi;
            fl[k] = f.lo;
        }
        long long p0 = starts[si];
        double scale = scales[si % 3];
        size_t n = si == 2 ? 2 : NPOS; /* 2 rows: the direct path */
        posenc__sincos_table_f32(p0, n, fh, fl, m, scale, fc, fs, LD);
        posenc__sincos_table_ref_f32(p0, n, fh, fl, m, scale, rc, rs, LD);
        double worst = 0, worst_ref = 0;
        for (size_t t = 0; t < n; t += (t < 40 ? 1 : 13)) {
            for (size_t k = 0; k < m; k++) {
                double s, c;
                posenc__sincos_dd(p0 + (long long)t, (posenc__dd){fh[k], fl[k]}, &s, &c);
                double e1 = err_units(fc[t * LD + k] / scale, c, 0, 1);
                double e2 = err_units(fs[t * LD + k] / scale, s, 0, 1);
                worst = e1 > worst ? e1 : worst;
                worst = e2 > worst ? e2 : worst;
                double d1 = check_ulp_f32(fc[t * LD + k], rc[t * LD + k]);
                double d2 = check_ulp_f32(fs[t * LD + k], rs[t * LD + k]);
                worst_ref = d1 > worst_ref ? d1 : worst_ref;
                worst_ref = d2 > worst_ref ? d2 : worst_ref;
            }
        }
        /* /scale adds at most one more rounding: 1.01 leaves room for it */
        CHECK(worst <= 1.01);
        CHECK(worst_ref <= 1.0);
    }
}

TEST(sinusoid_table_matches_rows)
{
    static float tab[40 * 131], row[131];
    static double tab64[40 * 131], row64[131];
    static const uint32_t Ds[] = {131, 128, 1};
    for (size_t d = 0; d < 3; d++) {
        uint32_t D = Ds[d];
        long long p0 = d == 0 ? 2147483647LL - 39 : 5;
        CHECK_EQ_INT(posenc_sinusoid_table_f32(p0, 40, D, 10000.0, tab), POSENC_OK);
        CHECK_EQ_INT(posenc_sinusoid_table_f64(p0, 40, D, 10000.0, tab64), POSENC_OK);
        for (size_t t = 0; t < 40; t++) {
            CHECK_EQ_INT(posenc_sinusoid_fill_f32(p0 + (long long)t, D, 10000.0, row),
                         POSENC_OK);
            CHECK_EQ_INT(posenc_sinusoid_fill_f64(p0 + (long long)t, D, 10000.0, row64),
                         POSENC_OK);
            for (uint32_t i = 0; i < D; i++) {
                /* both within 1 ulp / 2^-25 of exact, so within 1 ulp of each
                 * other where |v| >= 1/4, within 2^-24 below */
                CHECK(fabsf(tab[t * D + i] - row[i]) <=
                      fmaxf(0x1p-24f, nextafterf(fabsf(row[i]), 2.0f) - fabsf(row[i])));
                CHECK(tab64[t * D + i] == row64[i]);
            }
        }
    }
    /* hand-checked values: PE(2) for D = 4 (the header's worked trace) */
    CHECK_EQ_INT(posenc_sinusoid_table_f32(0, 3, 4, 10000.0, tab), POSENC_OK);
    CHECK_NEAR(tab[8], 0.9092974268256817, 1e-7);
    CHECK_NEAR(tab[9], -0.4161468365471424, 1e-7);
    CHECK_NEAR(tab[10], 0.019998666693333080, 1e-8);
    CHECK_NEAR(tab[11], 0.9998000066665778, 1e-7);
    CHECK_EQ_INT(tab[0], 0);
    CHECK_EQ_INT(tab[1], 1);
}

TEST(sinusoid_table_errors)
{
    float x[8];
    CHECK_EQ_INT(posenc_sinusoid_table_f32(0, 1, 4, 10000.0, NULL), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_sinusoid_table_f32(0, 1, 0, 10000.0, x), POSENC_ERR_DIM);
    CHECK_EQ_INT(posenc_sinusoid_table_f32(0, 1, 4, 1.0, x), POSENC_ERR_BASE);
    CHECK_EQ_INT(posenc_sinusoid_table_f32(-1, 1, 4, 10000.0, x), POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_sinusoid_table_f32(POSENC_MAX_POS, 2, 4, 10000.0, x), POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_sinusoid_table_f32(POSENC_MAX_POS, 1, 4, 10000.0, x), POSENC_OK);
    CHECK_EQ_INT(posenc_sinusoid_table_f32(0, 0, 4, 10000.0, x), POSENC_OK);
    /* a row count past the last position (also the only way n_pos * D could
     * overflow on 64-bit, since D <= 2^20): refused before anything is written */
    CHECK_EQ_INT(posenc_sinusoid_table_f32(0, SIZE_MAX, 4096, 10000.0, x), POSENC_ERR_POS);
    double y[8];
    CHECK_EQ_INT(posenc_sinusoid_table_f64(0, 3, 4, 0.5, y), POSENC_ERR_BASE);
    CHECK_EQ_INT(posenc_sinusoid_table_f64(0, 3, POSENC_MAX_DIM + 1, 10000.0, y), POSENC_ERR_DIM);
}

/* The fill's value of (pos, k) does not depend on the block it is filled
 * in: runs starting anywhere (between anchors, across anchors, single
 * positions) give the same bits as one long table, and the single-vector
 * float rotation takes exactly those values. This is what makes the cache,
 * the no-cache tensor path and posenc_rope_apply_f32 bit-identical. */
TEST(fill_values_independent_of_block)
{
    enum { P = 1200, NP = 40 };
    static float tc[P * NP], ts[P * NP];
    double f_hi[NP], f_lo[NP];
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 2 * NP, 2 * NP, 10000.0, POSENC_LAYOUT_INTERLEAVED) == POSENC_OK);
    for (int k = 0; k < NP; k++) {
        f_hi[k] = r.inv_freq_hi[k];
        f_lo[k] = r.inv_freq_lo[k];
    }
    const int64_t base_pos = 2147483647 - P + 1; /* the hardest positions */
    posenc__sincos_table_f32(base_pos, P, f_hi, f_lo, NP, 1.0, tc, ts, NP);
    unsigned seed = 12345;
    int runs = 0;
    for (int trial = 0; trial < 60; trial++) {
        seed = seed * 1103515245u + 12345u;
        size_t start = (seed >> 8) % P;
        size_t len = 1 + ((seed >> 3) % 300);
        if (start + len > P)
            len = P - start;
        float rc[300 * NP], rs[300 * NP];
        posenc__sincos_table_f32(base_pos + (int64_t)start, len, f_hi, f_lo, NP, 1.0, rc, rs, NP);
        CHECK(memcmp(rc, tc + start * NP, len * NP * sizeof(float)) == 0);
        CHECK(memcmp(rs, ts + start * NP, len * NP * sizeof(float)) == 0);
        runs++;
    }
    CHECK(runs == 60);
    /* one vector: (1, 0) in every pair rotates to exactly (c, s) */
    for (size_t t = 0; t < P; t += 97) {
        float x[2 * NP];
        for (int k = 0; k < NP; k++) {
            x[2 * k] = 1.0f;
            x[2 * k + 1] = 0.0f;
        }
        CHECK(posenc_rope_apply_f32(base_pos + (int64_t)t, 2 * NP, 10000.0,
                                    POSENC_LAYOUT_INTERLEAVED, POSENC_FORWARD, x) == POSENC_OK);
        for (int k = 0; k < NP; k++) {
            CHECK(x[2 * k] == tc[t * NP + (size_t)k]);
            CHECK(x[2 * k + 1] == ts[t * NP + (size_t)k]);
        }
    }
}

int main(void)
{
    RUN(golden_file_read_whole);
    RUN(golden_sincos_double_and_float);
    RUN(golden_fill_and_rope_f32);
    RUN(golden_table_fill);
    RUN(table_fast_vs_reference);
    RUN(sinusoid_table_matches_rows);
    RUN(sinusoid_table_errors);
    RUN(fill_values_independent_of_block);
    return check_summary("golden");
}
