/* test_sinusoid_layout.c - the sinusoid in the checkpoints' layouts
 * (posenc_sinusoid_layout_fill_f32/_f64), against
 *   - hand-derived rows (where each sine and cosine goes, odd D, the zero
 *     column of fairseq, the offset, MusicGen's cosines first);
 *   - a reference written here from each family's Python lines, in long
 *     double for the exact value (expl, powl, sinl, cosl), and with the
 *     float32 steps of the torch code as volatile floats for TORCH_F32;
 *   - the lesson's own functions (posenc_sinusoid_fill_f64). */
#include "check.h"
#include "posenc.h"

#include <stdint.h>
#include <stdlib.h>

#ifdef POSENC_TEST_MPFR
#include <mpfr.h>

/* sin and cos of p * w_k to 256 bits, rounded to double. */
static void exact_sincos(posenc_sinusoid_freqs f, int64_t p, uint32_t k, uint32_t D, double base,
                         double *s, double *c)
{
    mpfr_t w, a, t;
    mpfr_inits2(256, w, a, t, (mpfr_ptr)0);
    mpfr_set_d(t, base, MPFR_RNDN);
    mpfr_log(t, t, MPFR_RNDN);
    if (f == POSENC_SINUSOID_FREQ_POWER) { /* base^(-2k/D) = exp(-2k ln(base) / D) */
        mpfr_mul_si(t, t, -2 * (long)k, MPFR_RNDN);
        mpfr_div_ui(t, t, D, MPFR_RNDN);
    } else { /* exp(-k ln(base) / (D/2 - 1)) */
        mpfr_mul_si(t, t, -(long)k, MPFR_RNDN);
        mpfr_div_ui(t, t, D / 2 - 1, MPFR_RNDN);
    }
    mpfr_exp(w, t, MPFR_RNDN);
    mpfr_mul_si(a, w, (long)p, MPFR_RNDN);
    mpfr_sin(t, a, MPFR_RNDN);
    *s = mpfr_get_d(t, MPFR_RNDN);
    mpfr_cos(t, a, MPFR_RNDN);
    *c = mpfr_get_d(t, MPFR_RNDN);
    mpfr_clears(w, a, t, (mpfr_ptr)0);
}
#define ORACLE "GNU MPFR (256 bits)"
#else
#define ORACLE "long double"
#endif

/* ---- the reference --------------------------------------------------------- */

/* Frequency k of the exact formula in long double. */
static long double ref_freq(posenc_sinusoid_freqs f, uint32_t k, uint32_t D, long double base)
{
    if (f == POSENC_SINUSOID_FREQ_POWER) /* marian L85: pos / 10000^(2 (j // 2) / dim) */
        return powl(base, -2.0L * k / D);
    return expl(-(long double)k * logl(base) / (long double)(D / 2 - 1)); /* m2m_100 L108-109 */
}

/* The float32 steps of the torch code (ctrl L46-47, xlnet L940-941; m2m_100 L108-110). */
static float ref_torch_angle(posenc_sinusoid_freqs f, int64_t p, uint32_t k, uint32_t D,
                             double base)
{
    volatile float w;
    if (f == POSENC_SINUSOID_FREQ_POWER) {
        volatile float i2 = (float)(2 * k);
        volatile float e = i2 / (float)D;
        volatile float pw = (float)powl((long double)(float)base, (long double)e);
        w = 1.0f / pw;
    } else {
        double c = log(base) / (double)(D / 2 - 1); /* Python floats */
        volatile float t = (float)k * (float)(-c);
        w = (float)expl((long double)t);
    }
    volatile float a = (float)p * w;
    return a;
}

/* Row of D elements at position p (offset applied by the caller), long double. */
static void ref_row(const posenc_sinusoid_spec *s, int64_t p, uint32_t D, long double *exact,
                    float *torch)
{
    uint32_t F = s->freqs == POSENC_SINUSOID_FREQ_FAIRSEQ ? D / 2 : (D + 1) / 2;
    for (uint32_t i = 0; i < D; i++) {
        exact[i] = 0.0L;
        torch[i] = 0.0f;
    }
    for (uint32_t k = 0; k < F; k++) {
        long double a = (long double)p * ref_freq(s->freqs, k, D, s->base);
        float at = ref_torch_angle(s->freqs, p, k, D, s->base);
        long double sv = sinl(a), cv = cosl(a);
#ifdef POSENC_TEST_MPFR
        double sd, cd;
        exact_sincos(s->freqs, p, k, D, s->base, &sd, &cd);
        sv = sd;
        cv = cd;
#endif
        float st = (float)sinl((long double)at), ct = (float)cosl((long double)at);
        int64_t is, ic;
        if (s->order == POSENC_SINUSOID_INTERLEAVED) {
            is = 2 * k;
            ic = 2 * k + 1;
            if (s->freqs == POSENC_SINUSOID_FREQ_POWER && ic >= D)
                ic = -1;
        } else if (s->order == POSENC_SINUSOID_SIN_COS) {
            is = k;
            ic = F + k < D && !(s->freqs == POSENC_SINUSOID_FREQ_FAIRSEQ && F + k >= 2 * F)
                     ? (int64_t)(F + k)
                     : -1;
        } else {
            ic = k;
            is = F + k < D && !(s->freqs == POSENC_SINUSOID_FREQ_FAIRSEQ && F + k >= 2 * F)
                     ? (int64_t)(F + k)
                     : -1;
        }
        if (is >= 0) {
            exact[is] = sv;
            torch[is] = st;
        }
        if (ic >= 0) {
            exact[ic] = cv;
            torch[ic] = ct;
        }
    }
}

static double ulps_f64(double got, long double exact)
{
    double e = (double)exact;
    double ulp = nextafter(fabs(e), INFINITY) - fabs(e);
    return (double)fabsl((long double)got - exact) / ulp;
}

static posenc_sinusoid_spec spec_of(posenc_sinusoid_family f, int64_t offset)
{
    posenc_sinusoid_spec s;
    posenc_status st = posenc_sinusoid_family_spec(f, offset, &s);
    CHECK(st == POSENC_OK);
    return s;
}

/* ---- hand-derived rows ------------------------------------------------------ */

TEST(marian_puts_every_sine_before_every_cosine)
{
    /* D = 6, pos = 1: w = 1, 10000^(-1/3), 10000^(-2/3) */
    posenc_sinusoid_spec s = spec_of(POSENC_SINUSOID_MARIAN, 0);
    int64_t pos = 1;
    double out[6];
    CHECK(posenc_sinusoid_layout_fill_f64(&s, &pos, 1, 6, out) == POSENC_OK);
    double w1 = 0.046415888336127795, w2 = 0.0021544346900318843; /* 10000^(-1/3), ^(-2/3) */
    CHECK_NEAR(out[0], sin(1.0), 1e-16);
    CHECK_NEAR(out[1], sin(w1), 1e-16);
    CHECK_NEAR(out[2], sin(w2), 1e-16);
    CHECK_NEAR(out[3], cos(1.0), 1e-16);
    CHECK_NEAR(out[4], cos(w1), 1e-16);
    CHECK_NEAR(out[5], cos(w2), 1e-16);
    /* odd D = 5: three sines (k = 0, 1, 2), two cosines (Marian's sentinel) */
    double o5[5];
    CHECK(posenc_sinusoid_layout_fill_f64(&s, &pos, 1, 5, o5) == POSENC_OK);
    CHECK_NEAR(o5[0], sin(1.0), 1e-16);
    CHECK_NEAR(o5[2], sin(pow(10000.0, -4.0 / 5)), 1e-16);
    CHECK_NEAR(o5[3], cos(1.0), 1e-16);
    CHECK_NEAR(o5[4], cos(pow(10000.0, -2.0 / 5)), 1e-16);
}

TEST(fairseq_divides_by_half_minus_one_and_pads_odd_d_with_zero)
{
    /* D = 4: half = 2, c = ln(10000) / 1, w = 1, 1e-4; M2M100's padding_idx 1
     * gives offset 2: token 0 reads position 2. */
    posenc_sinusoid_spec s = spec_of(POSENC_SINUSOID_FAIRSEQ, 2);
    int64_t pos = 0;
    double o[4];
    float f[4];
    CHECK(posenc_sinusoid_layout_fill_f64(&s, &pos, 1, 4, o) == POSENC_OK);
    CHECK(posenc_sinusoid_layout_fill_f32(&s, &pos, 1, 4, f) == POSENC_OK);
    CHECK_NEAR(o[0], sin(2.0), 1e-16);
    CHECK_NEAR(o[1], sin(2e-4), 1e-19);
    CHECK_NEAR(o[2], cos(2.0), 1e-16);
    CHECK_NEAR(o[3], cos(2e-4), 1e-16);
    /* torch's steps: the float w = fl(1e-4) and the float angle add up to
     * 1.5 ulp beside the exact value */
    for (int i = 0; i < 4; i++)
        CHECK(check_ulp_f32(f[i], o[i]) <= 1.5);
    /* D = 7: half = 3, w = 1, 10000^(-1/2) = 0.01, 1e-4; the last column 0 */
    double o7[7];
    pos = 1; /* position 3 */
    CHECK(posenc_sinusoid_layout_fill_f64(&s, &pos, 1, 7, o7) == POSENC_OK);
    CHECK_NEAR(o7[0], sin(3.0), 1e-16);
    CHECK_NEAR(o7[1], sin(0.03), 1e-17);
    CHECK_NEAR(o7[2], sin(3e-4), 1e-19);
    CHECK_NEAR(o7[3], cos(3.0), 1e-16);
    CHECK_NEAR(o7[5], cos(3e-4), 1e-16);
    CHECK(o7[6] == 0.0);
    /* not D: the lesson's rule at D = 6 would give 10000^(-1/3) for k = 1 */
    CHECK(fabs(o7[1] - sin(3 * pow(10000.0, -2.0 / 7))) > 1e-3);
}

TEST(musicgen_puts_cosines_first)
{
    posenc_sinusoid_spec s = spec_of(POSENC_SINUSOID_MUSICGEN, 0);
    int64_t pos = 5;
    double o[8];
    CHECK(posenc_sinusoid_layout_fill_f64(&s, &pos, 1, 8, o) == POSENC_OK);
    for (uint32_t k = 0; k < 4; k++) {
        double w = exp(-(double)k * log(10000.0) / 3.0);
        CHECK_NEAR(o[k], cos(5 * w), 1e-15);
        CHECK_NEAR(o[4 + k], sin(5 * w), 1e-15);
    }
}

TEST(the_lesson_layout_is_the_lesson_sinusoid)
{
    posenc_sinusoid_spec s = spec_of(POSENC_SINUSOID_LESSON, 0);
    for (uint32_t D = 1; D <= 33; D += 4) {
        for (int64_t p = 0; p < 3000; p += 97) {
            double a[33], b[33];
            CHECK(posenc_sinusoid_layout_fill_f64(&s, &p, 1, D, a) == POSENC_OK);
            CHECK(posenc_sinusoid_fill_f64(p, D, 10000.0, b) == POSENC_OK);
            for (uint32_t i = 0; i < D; i++)
                CHECK_NEAR(a[i], b[i], 4e-16);
        }
    }
}

TEST(negative_positions_are_odd_in_sine_and_even_in_cosine)
{
    posenc_sinusoid_spec s = spec_of(POSENC_SINUSOID_CTRL, 0); /* XLNet's */
    int64_t pos[2] = {37, -37};
    double o[2 * 16];
    float f[2 * 16];
    CHECK(posenc_sinusoid_layout_fill_f64(&s, pos, 2, 16, o) == POSENC_OK);
    CHECK(posenc_sinusoid_layout_fill_f32(&s, pos, 2, 16, f) == POSENC_OK);
    for (int i = 0; i < 8; i++) {
        CHECK(o[16 + i] == -o[i]);
        CHECK(o[16 + 8 + i] == o[8 + i]);
        CHECK(f[16 + i] == -f[i]);
        CHECK(f[16 + 8 + i] == f[8 + i]);
    }
}

/* ---- sweeps against the reference ------------------------------------------ */

TEST(every_layout_matches_the_long_double_reference)
{
    static const posenc_sinusoid_family fams[] = {POSENC_SINUSOID_LESSON, POSENC_SINUSOID_MARIAN,
                                                  POSENC_SINUSOID_CTRL, POSENC_SINUSOID_FAIRSEQ,
                                                  POSENC_SINUSOID_MUSICGEN};
    static const uint32_t dims[] = {4, 5, 7, 16, 64, 255, 512, 1024};
    static const int64_t positions[] = {0, 1, 2, 3, 17, 100, 511, 1000, 1026, 4097, 65537,
                                        -1, -5, -1000};
    const size_t np = sizeof positions / sizeof positions[0];
    double worst64 = 0, worst_round = 0;
    long tor_diff = 0, tor_total = 0;
    long double *ex = malloc(1024 * sizeof *ex);
    float *tr = malloc(1024 * sizeof *tr);
    double *o = malloc(np * 1024 * sizeof *o);
    float *f = malloc(np * 1024 * sizeof *f);
    CHECK(ex && tr && o && f);
    if (!ex || !tr || !o || !f)
        goto out;
    for (size_t fi = 0; fi < sizeof fams / sizeof fams[0]; fi++)
        for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++) {
            posenc_sinusoid_spec s = spec_of(fams[fi], fams[fi] == POSENC_SINUSOID_FAIRSEQ ? 2 : 0);
            uint32_t D = dims[di];
            CHECK(posenc_sinusoid_layout_fill_f64(&s, positions, np, D, o) == POSENC_OK);
            CHECK(posenc_sinusoid_layout_fill_f32(&s, positions, np, D, f) == POSENC_OK);
            for (size_t t = 0; t < np; t++) {
                ref_row(&s, positions[t] + s.offset, D, ex, tr);
                for (uint32_t i = 0; i < D; i++) {
                    double got = o[t * D + i];
                    /* ulps, or 0 within 2^-60 absolute (the contract of 1.2) */
                    double u = fabsl((long double)got - ex[i]) <= 0x1p-60L ? 0.0
                                                                           : ulps_f64(got, ex[i]);
                    if (u > worst64) {
                        worst64 = u;
                        if (getenv("SINUSOID_DEBUG"))
                            fprintf(stderr, "fam %d D %u pos %lld i %u got %.17g exact %.20Lg u %g\n",
                                    (int)fams[fi], D, (long long)positions[t], i, got, ex[i], u);
                    }
                    float g = f[t * D + i];
                    if (s.arith == POSENC_SINUSOID_ROUND_ONCE) {
                        double r = check_ulp_f32(g, (double)ex[i]);
                        if (r > worst_round)
                            worst_round = r;
                    } else {
                        tor_total++;
                        if (g != tr[i])
                            tor_diff++;
                    }
                }
            }
        }
#ifdef POSENC_TEST_MPFR
    /* exact: within 2 ulps, or 2^-60 absolute near zero */
    CHECK(worst64 <= 2.0);
#else
    /* long double's own frequency error grows with the position: a loose
     * bound (2^-40 relative) here, the 2-ulp contract only against MPFR */
    CHECK(worst64 <= 0x1p13);
    check_skip("sinusoid_layout", 1, "the 2-ulp check against GNU MPFR", "libmpfr-dev");
#endif
    /* rounded once: the rounding of the exact value (half an ulp, plus the
     * double's own error) */
    CHECK(worst_round <= 0.5 + 1e-6);
    /* the torch steps: every float as the reference's */
    CHECK_EQ_INT(tor_diff, 0);
    printf("sinusoid_layout: exact values within %.3f ulp (or 2^-60) of %s, rounded ones "
           "%.4f ulp, %ld float32-step values bit for bit\n",
           worst64, ORACLE, worst_round, tor_total);
out:
    free(ex);
    free(tr);
    free(o);
    free(f);
}

TEST(torch_steps_follow_the_float_angle_at_large_positions)
{
    /* At position 100000 the float angle pos * w has an ulp of 2^-7 for
     * w = 1: sin(fl(p * 1)) is still exact (p is a float), but for k = 1 of
     * D = 4 (fairseq, w = fl(1e-4)) the float angle differs from the exact
     * one, and the value follows torch's. */
    posenc_sinusoid_spec s = spec_of(POSENC_SINUSOID_FAIRSEQ, 0);
    int64_t p = 100000;
    float f[4];
    double o[4];
    CHECK(posenc_sinusoid_layout_fill_f32(&s, &p, 1, 4, f) == POSENC_OK);
    CHECK(posenc_sinusoid_layout_fill_f64(&s, &p, 1, 4, o) == POSENC_OK);
    volatile float w = (float)exp((double)(1.0f * (float)(-log(10000.0))));
    volatile float a = 100000.0f * w;
    CHECK(f[1] == (float)sin((double)a));
    CHECK(fabs(o[1] - sin(10.0)) < 1e-14); /* 100000 * 1e-4, exactly */
}

/* Which families' tables grow with the sequence: fairseq's from
 * padding_idx + 1 and MusicGen's (make_weights again past the rows,
 * modeling_m2m_100.py L143-145,
 * modeling_musicgen.py L140-146) do; Marian's, CTRL's and the lesson's
 * (nn.Embedding / a fixed buffer) do not, nor a fairseq spec at offset 0
 * (PEGASUS-X's config length). */
TEST(which_tables_grow)
{
    posenc_sinusoid_spec s;
    static const struct { posenc_sinusoid_family fam; int64_t off; int grows; } C[] = {
        {POSENC_SINUSOID_FAIRSEQ, 2, 1},  {POSENC_SINUSOID_MUSICGEN, 0, 1},
        {POSENC_SINUSOID_FAIRSEQ, 0, 0},  {POSENC_SINUSOID_MARIAN, 0, 0},
        {POSENC_SINUSOID_CTRL, 0, 0},     {POSENC_SINUSOID_LESSON, 0, 0}};
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        CHECK(posenc_sinusoid_family_spec(C[i].fam, C[i].off, &s) == POSENC_OK);
        CHECK(posenc_sinusoid_table_grows(&s) == C[i].grows);
    }
    CHECK(posenc_sinusoid_table_grows(NULL) == 0);
}

TEST(arguments_are_checked)
{
    posenc_sinusoid_spec s = spec_of(POSENC_SINUSOID_FAIRSEQ, 2);
    int64_t p = 0;
    double o[8];
    float f[8];
    CHECK(posenc_sinusoid_layout_fill_f64(NULL, &p, 1, 8, o) == POSENC_ERR_NULL);
    CHECK(posenc_sinusoid_layout_fill_f64(&s, NULL, 1, 8, o) == POSENC_ERR_NULL);
    CHECK(posenc_sinusoid_layout_fill_f32(&s, &p, 1, 8, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_sinusoid_layout_fill_f64(&s, NULL, 0, 8, NULL) == POSENC_OK);
    CHECK(posenc_sinusoid_layout_fill_f64(&s, &p, 1, 3, o) == POSENC_ERR_DIM); /* half - 1 = 0 */
    CHECK(posenc_sinusoid_layout_fill_f64(&s, &p, 1, 0, o) == POSENC_ERR_DIM);
    posenc_sinusoid_spec bad = s;
    bad.order = (posenc_sinusoid_order)3;
    CHECK(posenc_sinusoid_layout_fill_f64(&bad, &p, 1, 8, o) == POSENC_ERR_LAYOUT);
    bad = s;
    bad.freqs = (posenc_sinusoid_freqs)2;
    CHECK(posenc_sinusoid_layout_fill_f32(&bad, &p, 1, 8, f) == POSENC_ERR_LAYOUT);
    bad = s;
    bad.arith = (posenc_sinusoid_arith)2;
    CHECK(posenc_sinusoid_layout_fill_f32(&bad, &p, 1, 8, f) == POSENC_ERR_LAYOUT);
    bad = s;
    bad.base = 1.0;
    CHECK(posenc_sinusoid_layout_fill_f64(&bad, &p, 1, 8, o) == POSENC_ERR_BASE);
    bad.base = NAN;
    CHECK(posenc_sinusoid_layout_fill_f64(&bad, &p, 1, 8, o) == POSENC_ERR_BASE);
    p = POSENC_MAX_POS - 1; /* + offset 2: past the limit */
    CHECK(posenc_sinusoid_layout_fill_f64(&s, &p, 1, 8, o) == POSENC_ERR_POS);
    p = -POSENC_MAX_POS - 1;
    CHECK(posenc_sinusoid_layout_fill_f64(&s, &p, 1, 8, o) == POSENC_ERR_POS);
    CHECK(posenc_sinusoid_family_spec((posenc_sinusoid_family)9, 0, &s) == POSENC_ERR_RANGE);
    CHECK(posenc_sinusoid_family_spec(POSENC_SINUSOID_LESSON, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_sinusoid_family_spec(POSENC_SINUSOID_LESSON, POSENC_MAX_POS + 1, &s) ==
          POSENC_ERR_POS);
}

int main(void)
{
    RUN(marian_puts_every_sine_before_every_cosine);
    RUN(fairseq_divides_by_half_minus_one_and_pads_odd_d_with_zero);
    RUN(musicgen_puts_cosines_first);
    RUN(the_lesson_layout_is_the_lesson_sinusoid);
    RUN(negative_positions_are_odd_in_sine_and_even_in_cosine);
    RUN(every_layout_matches_the_long_double_reference);
    RUN(torch_steps_follow_the_float_angle_at_large_positions);
    RUN(which_tables_grow);
    RUN(arguments_are_checked);
    return check_summary("sinusoid_layout");
}
