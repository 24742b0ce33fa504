/* table.c - blocks of cos/sin values for many positions and pairs, shared by
 * sinusoid tables, the RoPE cache and the tensor kernels; and the public
 * sinusoid table fills.
 *
 * The fast fill (posenc__sincos_table_f32). For pair k with frequency f and
 * positions p = P, P+1, ..., P+N-1:
 *
 *     z(P)     = scale * (cos(P f) + i sin(P f))     exact anchor, posenc__sincos_dd
 *     z(p + 1) = z(p) * w,   w = cos f + i sin f     one complex multiply in double
 *
 * with the anchors at the multiples of N = POSENC__TABLE_ANCHOR_EVERY
 * (absolute positions, not relative to the first one asked for). Each
 * step adds at most ~5.3 u |scale| of absolute error (u = 2^-53: w rounded,
 * and the complex product rounded), so after at most N - 1 = 255 steps the
 * double value is within 2^-42 |scale| of exact; rounding it to float then
 * gives 0.5 ulp + 2^-42 |scale|, within the 1 ulp / 2^-25 bound
 * (docs/ACCURACY.md has the proof). The steps are independent across pairs,
 * so the inner loop runs over pairs and vectorises.
 *
 * Why absolute anchors: the value of (pos, k) is then the same chain of
 * operations whatever block it is filled in (a whole table, a run of tokens,
 * one position), so the cache, the tensor kernels and the single-vector
 * float functions, which all take their cos/sin from here, agree bit for
 * bit. A block that starts between anchors first steps, without writing,
 * from the anchor below it (at most N - 1 steps per pair).
 *
 * The reference (posenc__sincos_table_ref_f32) evaluates every value
 * directly; tests compare the two. */
#include "internal.h"

#include <string.h>
/* Vector paths: SSE2 (always on x86-64) and AVX chosen at run time; build
 * with -DPOSENC_NO_SIMD for the scalar loop alone. All paths do the same IEEE
 * operations in the same order (no FMA), so they give identical bits; tests
 * run each one through posenc__sincos_table_path_f32. */
#if defined(__SSE2__) && !defined(POSENC_NO_SIMD)
#include <immintrin.h>
#define TABLE_SSE2 1
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define TABLE_AVX 1
#endif
#endif

void posenc__sincos_table_ref_f32(int64_t pos0, size_t n_pos, const double *f_hi,
                                  const double *f_lo, size_t n_pairs, double scale,
                                  float *cos_out, float *sin_out, size_t ld)
{
    for (size_t t = 0; t < n_pos; t++) {
        for (size_t k = 0; k < n_pairs; k++) {
            double s, c;
            posenc__sincos_dd(pos0 + (int64_t)t, (posenc__dd){f_hi[k], f_lo[k]}, &s, &c);
            cos_out[t * ld + k] = (float)(scale * c);
            sin_out[t * ld + k] = (float)(scale * s);
        }
    }
}

/* Pairs handled together: their state lives on the stack (16 KiB). Rows are
 * written whole for D up to 2 * CHUNK, which keeps the stores sequential. */
#define CHUNK 512

/* z <- z * w for pairs [k, m) with scalar doubles; writes the values first. */
static inline void step_scalar(size_t k, size_t m, double *c, double *s, const double *wc,
                               const double *ws, float *crow, float *srow, size_t ks)
{
    for (; k < m; k++) {
        double ck = c[k], sk = s[k];
        crow[k * ks] = (float)ck;
        srow[k * ks] = (float)sk;
        /* (c + i s)(wc + i ws) */
        c[k] = ck * wc[k] - sk * ws[k];
        s[k] = sk * wc[k] + ck * ws[k];
    }
}

/* The stepping loop for m <= CHUNK pairs and n_rows positions, after the
 * anchors (c, s) and steps (wc, ws) are set: the plain reference of the
 * vector bodies below. */
static void step_rows_scalar(size_t n_rows, size_t m, double *c, double *s, const double *wc,
                             const double *ws, float *co, float *so, size_t ld, size_t ks)
{
    for (size_t t = 0; t < n_rows; t++)
        step_scalar(0, m, c, s, wc, ws, co + t * ld, so + t * ld, ks);
}

#ifdef TABLE_SSE2
/* The same loop four pairs at a time in SSE2 registers: exactly the scalar
 * operations (no FMA, same order), so its results are bit-identical. */
static void step_rows_sse2(size_t n_rows, size_t m, double *c, double *s, const double *wc,
                           const double *ws, float *co, float *so, size_t ld, size_t ks)
{
    for (size_t t = 0; t < n_rows; t++) {
        float *crow = co + t * ld, *srow = so + t * ld;
        size_t k = 0;
        for (; k + 4 <= m; k += 4) {
            __m128d c0 = _mm_loadu_pd(c + k), c1 = _mm_loadu_pd(c + k + 2);
            __m128d s0 = _mm_loadu_pd(s + k), s1 = _mm_loadu_pd(s + k + 2);
            __m128 cf = _mm_movelh_ps(_mm_cvtpd_ps(c0), _mm_cvtpd_ps(c1));
            __m128 sf = _mm_movelh_ps(_mm_cvtpd_ps(s0), _mm_cvtpd_ps(s1));
            if (ks == 1) {
                _mm_storeu_ps(crow + k, cf);
                _mm_storeu_ps(srow + k, sf);
            } else if (srow + 1 == crow) {
                /* the sinusoid row: s0 c0 s1 c1 s2 c2 s3 c3 */
                _mm_storeu_ps(srow + 2 * k, _mm_unpacklo_ps(sf, cf));
                _mm_storeu_ps(srow + 2 * k + 4, _mm_unpackhi_ps(sf, cf));
            } else {
                step_scalar(k, k + 4, c, s, wc, ws, crow, srow, ks);
                continue;
            }
            __m128d wc0 = _mm_loadu_pd(wc + k), wc1 = _mm_loadu_pd(wc + k + 2);
            __m128d ws0 = _mm_loadu_pd(ws + k), ws1 = _mm_loadu_pd(ws + k + 2);
            _mm_storeu_pd(c + k, _mm_sub_pd(_mm_mul_pd(c0, wc0), _mm_mul_pd(s0, ws0)));
            _mm_storeu_pd(c + k + 2, _mm_sub_pd(_mm_mul_pd(c1, wc1), _mm_mul_pd(s1, ws1)));
            _mm_storeu_pd(s + k, _mm_add_pd(_mm_mul_pd(s0, wc0), _mm_mul_pd(c0, ws0)));
            _mm_storeu_pd(s + k + 2, _mm_add_pd(_mm_mul_pd(s1, wc1), _mm_mul_pd(c1, ws1)));
        }
        step_scalar(k, m, c, s, wc, ws, crow, srow, ks);
    }
}
#endif

#ifdef TABLE_AVX
/* The same loop four pairs at a time in 256-bit registers. */
__attribute__((target("avx"))) static void step_rows_avx(size_t n_rows, size_t m, double *c,
                                                        double *s, const double *wc,
                                                        const double *ws, float *co,
                                                        float *so, size_t ld, size_t ks)
{
    for (size_t t = 0; t < n_rows; t++) {
        float *crow = co + t * ld, *srow = so + t * ld;
        size_t k = 0;
        for (; k + 8 <= m; k += 8) {
            __m256d c0 = _mm256_loadu_pd(c + k), c1 = _mm256_loadu_pd(c + k + 4);
            __m256d s0 = _mm256_loadu_pd(s + k), s1 = _mm256_loadu_pd(s + k + 4);
            __m128 c0f = _mm256_cvtpd_ps(c0), c1f = _mm256_cvtpd_ps(c1);
            __m128 s0f = _mm256_cvtpd_ps(s0), s1f = _mm256_cvtpd_ps(s1);
            if (ks == 1) {
                _mm_storeu_ps(crow + k, c0f);
                _mm_storeu_ps(crow + k + 4, c1f);
                _mm_storeu_ps(srow + k, s0f);
                _mm_storeu_ps(srow + k + 4, s1f);
            } else if (srow + 1 == crow) {
                _mm_storeu_ps(srow + 2 * k, _mm_unpacklo_ps(s0f, c0f));
                _mm_storeu_ps(srow + 2 * k + 4, _mm_unpackhi_ps(s0f, c0f));
                _mm_storeu_ps(srow + 2 * k + 8, _mm_unpacklo_ps(s1f, c1f));
                _mm_storeu_ps(srow + 2 * k + 12, _mm_unpackhi_ps(s1f, c1f));
            } else {
                step_scalar(k, k + 8, c, s, wc, ws, crow, srow, ks);
                continue;
            }
            __m256d wc0 = _mm256_loadu_pd(wc + k), wc1 = _mm256_loadu_pd(wc + k + 4);
            __m256d ws0 = _mm256_loadu_pd(ws + k), ws1 = _mm256_loadu_pd(ws + k + 4);
            _mm256_storeu_pd(c + k, _mm256_sub_pd(_mm256_mul_pd(c0, wc0), _mm256_mul_pd(s0, ws0)));
            _mm256_storeu_pd(c + k + 4,
                             _mm256_sub_pd(_mm256_mul_pd(c1, wc1), _mm256_mul_pd(s1, ws1)));
            _mm256_storeu_pd(s + k, _mm256_add_pd(_mm256_mul_pd(s0, wc0), _mm256_mul_pd(c0, ws0)));
            _mm256_storeu_pd(s + k + 4,
                             _mm256_add_pd(_mm256_mul_pd(s1, wc1), _mm256_mul_pd(c1, ws1)));
        }
        step_scalar(k, m, c, s, wc, ws, crow, srow, ks);
    }
}
#endif

/* z <- z * w^steps for pairs [0, m), the same operations as step_scalar
 * (and so as the vector bodies), without writing anything. */
#define ADVANCE_BODY                                                                      \
    for (int64_t r = 0; r < steps; r++)                                                   \
        for (size_t k = 0; k < m; k++) {                                                  \
            double ck = c[k], sk = s[k];                                                  \
            c[k] = ck * wc[k] - sk * ws[k];                                               \
            s[k] = sk * wc[k] + ck * ws[k];                                               \
        }

#ifdef TABLE_AVX
/* The same loop compiled for AVX (no FMA: the same roundings, the same bits). */
__attribute__((target("avx"))) static void advance_avx(size_t m, double *restrict c,
                                                      double *restrict s,
                                                      const double *restrict wc,
                                                      const double *restrict ws, int64_t steps)
{
    ADVANCE_BODY
}
#endif

static void advance(int path, size_t m, double *restrict c, double *restrict s,
                    const double *restrict wc, const double *restrict ws, int64_t steps)
{
#ifdef TABLE_AVX
    if (path == POSENC__TABLE_AVX) {
        advance_avx(m, c, s, wc, ws, steps);
        return;
    }
#endif
    (void)path;
    /* Steps outer, pairs inner: the pairs are independent, so their chains
     * overlap in the pipeline (and the compiler may vectorise), instead of
     * waiting out one pair's multiply-add latency per step. */
    ADVANCE_BODY
}

static void fill_chunk(int path, int64_t pos0, size_t n_pos, const double *f_hi, const double *f_lo,
                       size_t m, double scale, float *cos_out, float *sin_out, size_t ld,
                       size_t ks)
{
    const int64_t N = POSENC__TABLE_ANCHOR_EVERY;
    double c[CHUNK], s[CHUNK], wc[CHUNK], ws[CHUNK];
    for (size_t k = 0; k < m; k++)
        posenc__sincos_dd(1, (posenc__dd){f_hi[k], f_lo[k]}, &ws[k], &wc[k]);
    size_t done = 0;
    while (done < n_pos) {
        int64_t p = pos0 + (int64_t)done; /* next position to write */
        int64_t anchor = p - p % N;
        for (size_t k = 0; k < m; k++) {
            posenc__sincos_dd(anchor, (posenc__dd){f_hi[k], f_lo[k]}, &s[k], &c[k]);
            c[k] *= scale;
            s[k] *= scale;
        }
        advance(path, m, c, s, wc, ws, p - anchor);
        size_t n_rows = (size_t)(N - (p - anchor));
        if (n_rows > n_pos - done)
            n_rows = n_pos - done;
        float *co = cos_out + done * ld, *so = sin_out + done * ld;
#ifdef TABLE_AVX
        if (path == POSENC__TABLE_AVX)
            step_rows_avx(n_rows, m, c, s, wc, ws, co, so, ld, ks);
        else
#endif
#ifdef TABLE_SSE2
        if (path == POSENC__TABLE_SSE2)
            step_rows_sse2(n_rows, m, c, s, wc, ws, co, so, ld, ks);
        else
#endif
            step_rows_scalar(n_rows, m, c, s, wc, ws, co, so, ld, ks);
        done += n_rows;
    }
}

int posenc__table_path_ok(int path)
{
    if (path == POSENC__TABLE_SCALAR)
        return 1;
#ifdef TABLE_SSE2
    if (path == POSENC__TABLE_SSE2)
        return 1;
#endif
#ifdef TABLE_AVX
    if (path == POSENC__TABLE_AVX)
        return __builtin_cpu_supports("avx") != 0;
#endif
    return 0;
}

int posenc__sincos_table_path_f32(int path, int64_t pos0, size_t n_pos, const double *f_hi,
                                  const double *f_lo, size_t n_pairs, double scale,
                                  float *cos_out, float *sin_out, size_t ld, size_t ks)
{
    if (!posenc__table_path_ok(path))
        return -1;
    for (size_t k0 = 0; k0 < n_pairs; k0 += CHUNK) {
        size_t m = n_pairs - k0 < CHUNK ? n_pairs - k0 : CHUNK;
        fill_chunk(path, pos0, n_pos, f_hi + k0, f_lo + k0, m, scale, cos_out + k0 * ks,
                   sin_out + k0 * ks, ld, ks);
    }
    return 0;
}

/* The best path this machine has. */
static int best_path(void)
{
#ifdef TABLE_AVX
    if (__builtin_cpu_supports("avx"))
        return POSENC__TABLE_AVX;
#endif
#ifdef TABLE_SSE2
    return POSENC__TABLE_SSE2;
#else
    return POSENC__TABLE_SCALAR;
#endif
}

void posenc__sincos_table_strided_f32(int64_t pos0, size_t n_pos, const double *f_hi,
                                      const double *f_lo, size_t n_pairs, double scale,
                                      float *cos_out, float *sin_out, size_t ld, size_t ks)
{
    (void)posenc__sincos_table_path_f32(best_path(), pos0, n_pos, f_hi, f_lo, n_pairs, scale,
                                        cos_out, sin_out, ld, ks);
}

void posenc__sincos_table_f32(int64_t pos0, size_t n_pos, const double *f_hi,
                              const double *f_lo, size_t n_pairs, double scale,
                              float *cos_out, float *sin_out, size_t ld)
{
    posenc__sincos_table_strided_f32(pos0, n_pos, f_hi, f_lo, n_pairs, scale, cos_out,
                                     sin_out, ld, 1);
}

void posenc__pairs_f32(int64_t pos, uint32_t k0, uint32_t m, uint32_t D, double base,
                       float *c, float *s)
{
    double f_hi[POSENC__PAIRS_BLOCK], f_lo[POSENC__PAIRS_BLOCK];
    for (uint32_t j = 0; j < m; j++) {
        posenc__dd f = posenc__inv_freq_dd(k0 + j, D, base);
        f_hi[j] = f.hi;
        f_lo[j] = f.lo;
    }
    posenc__sincos_table_f32(pos, 1, f_hi, f_lo, m, 1.0, c, s, m);
}

/* ---- public sinusoid tables --------------------------------------------- */

static posenc_status check_table(int64_t pos0, size_t n_pos, uint32_t D, double base,
                                 const void *out)
{
    if (!out)
        return POSENC_ERR_NULL;
    if (!posenc__dim_ok(D))
        return POSENC_ERR_DIM;
    if (!posenc__base_ok(base))
        return POSENC_ERR_BASE;
    if (!posenc__pos_ok(pos0))
        return POSENC_ERR_POS;
    if (n_pos == 0)
        return POSENC_OK;
    if ((uint64_t)n_pos - 1 > (uint64_t)(POSENC_MAX_POS - pos0))
        return POSENC_ERR_POS;
    if (n_pos > SIZE_MAX / D)
        return POSENC_ERR_OVERFLOW;
    return POSENC_OK;
}

posenc_status posenc_sinusoid_table_f32(int64_t pos0, size_t n_pos, uint32_t D, double base,
                                        float *out)
{
    posenc_status st = check_table(pos0, n_pos, D, base, out);
    if (st != POSENC_OK || n_pos == 0)
        return st;
    posenc__dd logb = posenc__log_dd(base);
    size_t n_full = D / 2; /* pairs with both sin and cos */
    double f_hi[CHUNK], f_lo[CHUNK];
    /* row t: out[t*D + 2k] = sin, out[t*D + 2k + 1] = cos */
    for (size_t k0 = 0; k0 < n_full; k0 += CHUNK) {
        size_t m = n_full - k0 < CHUNK ? n_full - k0 : CHUNK;
        for (size_t j = 0; j < m; j++) {
            posenc__dd f = posenc__inv_freq_dd_from_log((uint32_t)(k0 + j), D, logb);
            f_hi[j] = f.hi;
            f_lo[j] = f.lo;
        }
        posenc__sincos_table_strided_f32(pos0, n_pos, f_hi, f_lo, m, 1.0, out + 2 * k0 + 1,
                                         out + 2 * k0, D, 2);
    }
    if (D % 2) {
        /* The sine-only last pair: a few values per row, computed directly. */
        posenc__dd f = posenc__inv_freq_dd_from_log(D / 2, D, logb);
        for (size_t t = 0; t < n_pos; t++) {
            double s, c;
            posenc__sincos_dd(pos0 + (int64_t)t, f, &s, &c);
            out[t * D + D - 1] = (float)s;
        }
    }
    return POSENC_OK;
}

posenc_status posenc_sinusoid_table_f64(int64_t pos0, size_t n_pos, uint32_t D, double base,
                                        double *out)
{
    posenc_status st = check_table(pos0, n_pos, D, base, out);
    if (st != POSENC_OK || n_pos == 0)
        return st;
    posenc__dd logb = posenc__log_dd(base);
    for (uint32_t k = 0; 2 * k < D; k++) {
        posenc__dd f = posenc__inv_freq_dd_from_log(k, D, logb);
        for (size_t t = 0; t < n_pos; t++) {
            double s, c;
            posenc__sincos_dd(pos0 + (int64_t)t, f, &s, &c);
            out[t * D + 2 * k] = s;
            if (2 * k + 1 < D)
                out[t * D + 2 * k + 1] = c;
        }
    }
    return POSENC_OK;
}
