/* test_tables.c - the cos/sin values behind every float path (fill_body.h) and
 * the frequencies behind every path (posenc__inv_freqs_dd):
 *   - every instruction set's sincos gives the bits of the plain C reference
 *     posenc__sincos_dd, and every instruction set's fill the bits of the
 *     plain C fill, in both output modes, with tails, anchors and tiles;
 *   - the fill is within 1 ulp (2^-25 |scale| near 0) of the directly
 *     evaluated reference posenc__sincos_table_ref_f32;
 *   - one position filled alone equals its row of any block (the no-cache
 *     decode equals the table and the cache);
 *   - a block of frequencies equals the frequencies one at a time, and both
 *     agree with an independent long double pow;
 *   - POSENC_ISA=scalar|avx2|avx512 reaches the fills (the query
 *     posenc_rope_isa() reports the path, and a forced path gives the same
 *     tables, rotations and sinusoids bit for bit);
 *   - the public sinusoid tables: each row is posenc_sinusoid_fill_f32's,
 *     their argument checks, and no rows write nothing. */
#include "check.h"
#include "cpu.h"      /* white box: the instruction sets (src/cpu) */
#include "internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545F4914F6CDD1Du;
static uint64_t rng_next(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1Du;
}
static uint32_t rng_below(uint32_t n) { return (uint32_t)(rng_next() % n); }

/* Frequencies of pairs 0..n-1 of a vector of length D. */
static void freqs(uint32_t D, double base, size_t n, double *hi, double *lo)
{
    posenc__inv_freqs_dd(0, (uint32_t)n, D, base, hi, lo);
}

/* within the documented float bound of the exact value v (scale s) */
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

static int within_f32(float got, double v, double s)
{
    return check_ulp_f32(got, v) <= 1.0 || fabs((double)got - v) <= 0x1p-25 * fabs(s);
}

TEST(sincos_every_isa_equals_reference)
{
    enum { N = 37 }; /* a tail after 4- and 8-wide vectors */
    double fh[N], fl[N], s[N], c[N];
    int bad = 0, n_isa = 0;
    for (int isa = 0; isa < POSENC__ISA_N; isa++) {
        if (!posenc__isa_available(isa))
            continue;
        n_isa++;
        for (int rep = 0; rep < 400; rep++) {
            static const double bases[] = {100.0, 1e4, 5e5, 1e9};
            uint32_t D = 2 * N + rng_below(4000);
            freqs(D, bases[rep % 4], N, fh, fl);
            /* positions: edges, multiples of 32 and neighbours, random */
            int64_t pos = rep == 0   ? 0
                          : rep == 1 ? POSENC_MAX_POS
                          : rep % 3 == 0 ? (int64_t)(rng_next() % 67108864u) * 32
                                         : (int64_t)(rng_next() % 2147483648u);
            posenc__isa_ops_of(isa)->sincos(pos, fh, fl, N, s, c);
            for (int k = 0; k < N; k++) {
                double rs, rc;
                posenc__sincos_dd(pos, (posenc__dd){fh[k], fl[k]}, &rs, &rc);
                if ((memcmp(&rs, &s[k], 8) || memcmp(&rc, &c[k], 8)) && bad++ < 5)
                    fprintf(stderr, "%s pos %lld k %d: %a %a vs %a %a\n", posenc__isa_name(isa),
                            (long long)pos, k, s[k], c[k], rs, rc);
                /* and sin^2 + cos^2 = 1 to a few ulps: the quadrant logic */
                CHECK(fabs(rs * rs + rc * rc - 1.0) < 1e-15);
            }
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(n_isa >= 1);
    /* a few exact values: cos 0 = 1, sin 0 = +0 (never -0) */
    double f1h = 1.0, f1l = 0.0, s0, c0;
    posenc__sincos_dd(0, (posenc__dd){f1h, f1l}, &s0, &c0);
    CHECK(c0 == 1.0 && s0 == 0.0 && !signbit(s0));
    /* the quadrants against libm at small angles (pos * 1 rad) */
    for (int64_t p = 1; p < 200; p++) {
        posenc__sincos_dd(p, (posenc__dd){1.0, 0.0}, &s0, &c0);
        CHECK(fabs(s0 - sin((double)p)) <= 4e-16 && fabs(c0 - cos((double)p)) <= 4e-16);
    }
}

/* One configuration of the fill on isa into buffers with gaps; 1 if every
 * value is within the bound of the reference. */
static int fill_case(int isa, int64_t pos0, size_t n_pos, size_t m, double scale, int mode,
                     float *out_c, float *out_s, size_t ld)
{
    double fh[600], fl[600];
    freqs((uint32_t)(2 * m + 2), 1e4, m, fh, fl);
    if (posenc__sincos_table_isa_f32(isa, pos0, n_pos, fh, fl, m, scale, out_c, out_s, ld,
                                     mode) != 0)
        return 0;
    for (size_t t = 0; t < n_pos; t += n_pos > 64 ? 7 : 1)
        for (size_t k = 0; k < m; k++) {
            double s, c;
            posenc__sincos_dd(pos0 + (int64_t)t, (posenc__dd){fh[k], fl[k]}, &s, &c);
            float gc = mode == POSENC__FILL_ZIP ? out_s[t * ld + 2 * k + 1] : out_c[t * ld + k];
            float gs = mode == POSENC__FILL_ZIP ? out_s[t * ld + 2 * k] : out_s[t * ld + k];
            if (!within_f32(gc, scale * c, scale) || !within_f32(gs, scale * s, scale)) {
                fprintf(stderr, "%s pos %lld k %zu: %.9g %.9g vs %.17g %.17g\n",
                        posenc__isa_name(isa), (long long)(pos0 + (int64_t)t), k, gc, gs,
                        scale * c, scale * s);
                return 0;
            }
        }
    return 1;
}

TEST(fill_every_isa_bit_identical)
{
    static const struct { int64_t pos0; size_t n_pos, m; } cases[] = {
        {0, 1, 1},       {4000, 1, 64},      {POSENC_MAX_POS, 1, 64}, {250, 20, 13},
        {1000, 100, 67}, {POSENC_MAX_POS - 199, 200, 130}, {5, 40, 64},
        {123456789, 600, 9}, /* past a tile of 512 rows */
        {77, 70, 520},   /* a wide row: strips of 64 pairs */
    };
    enum { SZ = 600 * (2 * 520 + 8) };
    float *ref_c = calloc(SZ, 4), *ref_s = calloc(SZ, 4), *got_c = calloc(SZ, 4),
          *got_s = calloc(SZ, 4);
    CHECK(ref_c && ref_s && got_c && got_s);
    if (!ref_c || !ref_s || !got_c || !got_s)
        return;
    int n_isa = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int mode = 0; mode < 2; mode++) {
            size_t m = cases[i].m, n = cases[i].n_pos;
            size_t ld = mode == POSENC__FILL_ZIP ? 2 * m + 3 : m + 5; /* gaps after rows */
            double scale = i % 2 ? 0.75 : 1.0;
            memset(ref_c, 0, SZ * 4);
            memset(ref_s, 0, SZ * 4);
            float *rc = mode == POSENC__FILL_ZIP ? NULL : ref_c;
            CHECK(fill_case(POSENC__ISA_SCALAR, cases[i].pos0, n, m, scale, mode, rc, ref_s, ld));
            n_isa = 1;
            for (int isa = 1; isa < POSENC__ISA_N; isa++) {
                if (!posenc__isa_available(isa))
                    continue;
                n_isa++;
                memset(got_c, 0, SZ * 4);
                memset(got_s, 0, SZ * 4);
                float *gc = mode == POSENC__FILL_ZIP ? NULL : got_c;
                CHECK(fill_case(isa, cases[i].pos0, n, m, scale, mode, gc, got_s, ld));
                CHECK(memcmp(ref_c, got_c, SZ * 4) == 0); /* gaps untouched too */
                CHECK(memcmp(ref_s, got_s, SZ * 4) == 0);
            }
        }
    printf("tables: fills compared on %d instruction sets\n", n_isa);
    free(ref_c);
    free(ref_s);
    free(got_c);
    free(got_s);
}

TEST(one_position_equals_its_row)
{
    /* rows of a block (below and above the 32 rows where the fill switches
     * to one T table for every residue, and past a tile) against each
     * position filled alone: the no-cache decode gives the table's bits */
    enum { M = 64, NMAX = 700 };
    static float bc[NMAX * M], bs[NMAX * M];
    float c1[M], s1[M];
    double fh[M], fl[M];
    freqs(128, 5e5, M, fh, fl);
    static const struct { int64_t p0; size_t n; } runs[] = {
        {0, 31}, {4000, 64}, {1000000 - 3, 16}, {POSENC_MAX_POS - NMAX + 1, NMAX}};
    int bad = 0;
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        posenc__sincos_table_f32(runs[i].p0, runs[i].n, fh, fl, M, 1.0, bc, bs, M);
        for (size_t t = 0; t < runs[i].n; t += 1 + t / 64) {
            posenc__sincos_table_f32(runs[i].p0 + (int64_t)t, 1, fh, fl, M, 1.0, c1, s1, M);
            if ((memcmp(c1, bc + t * M, sizeof c1) || memcmp(s1, bs + t * M, sizeof s1)) &&
                bad++ < 3)
                fprintf(stderr, "row %lld differs from its position alone\n",
                        (long long)(runs[i].p0 + (int64_t)t));
        }
    }
    CHECK_EQ_INT(bad, 0);
}

TEST(unavailable_isa_writes_nothing)
{
    float c[2] = {7, 7}, s[2] = {7, 7};
    double fh = 1.0, fl = 0.0;
    CHECK(posenc__sincos_table_isa_f32(-1, 0, 1, &fh, &fl, 1, 1.0, c, s, 1, 0) == -1);
    CHECK(posenc__sincos_table_isa_f32(POSENC__ISA_N, 0, 1, &fh, &fl, 1, 1.0, c, s, 1, 0) == -1);
    CHECK(c[0] == 7 && s[0] == 7);
    CHECK(posenc__sincos_table_isa_f32(POSENC__ISA_SCALAR, 0, 1, &fh, &fl, 1, 1.0, c, s, 1, 0) ==
          0);
    CHECK(c[0] == 1.0f && s[0] == 0.0f);
}

TEST(frequency_blocks_equal_single_pairs)
{
    static const uint32_t dims[] = {1, 2, 3, 128, 129, 4096, 1048576};
    static const double bases[] = {1.5, 100.0, 1e4, 5e5, 1e9};
    double hi[300], lo[300];
    int bad = 0;
    for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++)
        for (size_t bi = 0; bi < sizeof bases / sizeof bases[0]; bi++) {
            uint32_t D = dims[di], np = (D + 1) / 2;
            /* a block starting mid-way between exp anchors, crossing one */
            uint32_t k0 = np > 300 ? np - 300 - 17 : 0, m = np - k0 < 300 ? np - k0 : 300;
            posenc__inv_freqs_dd(k0, m, D, bases[bi], hi, lo);
            for (uint32_t j = 0; j < m; j++) {
                uint32_t k = k0 + j;
                posenc__dd f = posenc__inv_freq_dd(k, D, bases[bi]);
                if ((f.hi != hi[j] || f.lo != lo[j]) && bad++ < 3)
                    fprintf(stderr, "D %u k %u: block and single differ\n", D, k);
                /* independent: long double pow, good to ~2^-58 here */
                long double want = powl((long double)bases[bi], -2.0L * k / D);
                long double got = (long double)hi[j] + (long double)lo[j];
                if (!(fabsl(got - want) <= 0x1p-56L * want) && bad++ < 3)
                    fprintf(stderr, "D %u k %u: %.20Lg vs powl %.20Lg\n", D, k, got, want);
                /* normalised double-double */
                if (!(fabs(lo[j]) <= 0x1p-53 * fabs(hi[j])) && bad++ < 3)
                    fprintf(stderr, "D %u k %u: not normalised\n", D, k);
            }
        }
    CHECK_EQ_INT(bad, 0);
    CHECK(posenc__inv_freq_dd(0, 7, 1e4).hi == 1.0 && posenc__inv_freq_dd(0, 7, 1e4).lo == 0.0);
    hi[0] = lo[0] = 7.0; /* an empty block writes nothing */
    posenc__inv_freqs_dd(5, 0, 128, 1e4, hi, lo);
    CHECK(hi[0] == 7.0 && lo[0] == 7.0);
}

/* ---- POSENC_ISA reaches the fills ------------------------------------------------ */

/* FNV-1a over the results of every path that takes values from the fill or
 * the sincos: a sinusoid table, a RoPE cache row, a no-cache tensor call at
 * decode, single-vector float and double functions. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

static uint64_t paths_hash(void)
{
    uint64_t h = 0xCBF29CE484222325ull;
    static float tab[300 * 130];
    if (posenc_sinusoid_table_f32(POSENC_MAX_POS - 299, 300, 130, 1e4, tab) != POSENC_OK)
        return 0;
    h = fnv(h, tab, sizeof tab);
    posenc_rope r;
    if (posenc_rope_init(&r, 128, 96, 5e5, POSENC_LAYOUT_INTERLEAVED) != POSENC_OK)
        return 0;
    float x[3 * 128];
    for (int i = 0; i < 3 * 128; i++)
        x[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
    int64_t pos = 1000003;
    posenc_rope_view v = {.dst = x, .n_head = 3, .tok_stride = 3 * 128, .head_stride = 128};
    if (posenc_rope_qk(&(posenc_rope_qk_args){.rope = &r, .n_tok = 1, .pos = &pos, .q = v}) !=
        POSENC_OK)
        return 0;
    h = fnv(h, x, sizeof x);
    double xd[130];
    for (int i = 0; i < 130; i++)
        xd[i] = x[i];
    if (posenc_rope_apply_f32(99999, 130, 1e4, POSENC_LAYOUT_HALF, POSENC_FORWARD, x) !=
            POSENC_OK ||
        posenc_rope_apply_f64(99999, 130, 1e4, POSENC_LAYOUT_HALF, POSENC_FORWARD, xd) != POSENC_OK)
        return 0;
    h = fnv(h, x, 130 * sizeof x[0]);
    h = fnv(h, xd, sizeof xd);
    if (posenc_sinusoid_fill_f64(12345678, 129, 1e4, xd) != POSENC_OK)
        return 0;
    return fnv(h, xd, 129 * sizeof xd[0]);
}

static const char *self_path;

/* Runs this program with POSENC_ISA=value: the path it reports and its hash. */
static int run_with(const char *value, char *isa, size_t n, unsigned long long *hash)
{
    char cmd[4096], line[256];
    snprintf(cmd, sizeof cmd, "POSENC_ISA=%s '%s' --print-paths", value, self_path);
    FILE *p = popen(cmd, "r");
    if (!p)
        return 0;
    int ok = fgets(line, sizeof line, p) != NULL;
    pclose(p);
    char name[64];
    if (!ok || sscanf(line, "%63s %llx", name, hash) != 2)
        return 0;
    snprintf(isa, n, "%s", name);
    return 1;
}

TEST(forced_isa_reaches_the_fills)
{
    uint64_t here = paths_hash();
    CHECK(here != 0);
    int n = 0;
    for (int i = 0; i < POSENC__ISA_N; i++) {
        if (!posenc__isa_available(i))
            continue;
        char isa[64];
        unsigned long long h = 0;
        CHECK(run_with(posenc__isa_name(i), isa, sizeof isa, &h));
        CHECK(strcmp(isa, posenc__isa_name(i)) == 0); /* the path in use is the forced one */
        CHECK(h == here);                             /* and gives the same bits */
        n++;
    }
    printf("tables: POSENC_ISA forced on %d paths, the same results on each\n", n);
}

TEST(sinusoid_tables_of_no_rows_write_nothing)
{
    double d[4] = {5, 5, 5, 5};
    float f[4] = {5, 5, 5, 5};
    CHECK_EQ_INT(posenc_sinusoid_table_f64(3, 0, 4, 10000.0, d), POSENC_OK);
    CHECK_EQ_INT(posenc_sinusoid_table_f32(3, 0, 4, 10000.0, f), POSENC_OK);
    CHECK(d[0] == 5 && d[3] == 5 && f[0] == 5 && f[3] == 5);
    /* and the checks still run before that */
    CHECK_EQ_INT(posenc_sinusoid_table_f64(-1, 0, 4, 10000.0, d), POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_sinusoid_table_f64(0, 1, 4, 1.0, d), POSENC_ERR_BASE);
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

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--print-paths") == 0) {
        printf("%s %llx\n", posenc_rope_isa(), (unsigned long long)paths_hash());
        return 0;
    }
    self_path = argv[0];
    RUN(sincos_every_isa_equals_reference);
    RUN(fill_every_isa_bit_identical);
    RUN(one_position_equals_its_row);
    RUN(unavailable_isa_writes_nothing);
    RUN(frequency_blocks_equal_single_pairs);
    RUN(forced_isa_reaches_the_fills);
    RUN(sinusoid_tables_of_no_rows_write_nothing);
    RUN(table_fast_vs_reference);
    RUN(sinusoid_table_matches_rows);
    RUN(sinusoid_table_errors);
    RUN(fill_values_independent_of_block);
    return check_summary("tables");
}
