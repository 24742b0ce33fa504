/*
 * fill_body.h - the one vector body of the cos/sin values: the accurate
 * sin/cos of pos * f (posenc__sincos_dd, a lane per pair) and the float block
 * fill built on it. Included by table.c (plain C, one double per "vector"),
 * kernels_avx2.c (4 doubles) and kernels_avx512.c (8 doubles) after they
 * define the vocabulary:
 *
 *   VD, VDW                  vector of VDW doubles
 *   VD_LD(p), VD_ST(p, v)    load / store VDW doubles (unaligned)
 *   VD_SET1(x)               x in every lane
 *   VD_ADD VD_SUB VD_MUL     IEEE double operations, each rounded
 *   VD_FMS(a, b, p)          a * b - p with one rounding (fused), where p is
 *                            the rounded a * b: so the exact error of the product
 *   VD_FLOOR(v)              floor, exact
 *   VD_ST_F32(p, v)          VDW floats (each lane rounded to nearest) at p
 *   VD_ST_F32_ZIP(p, a, b)   2 VDW floats at p: a0 b0 a1 b1 ...
 *   FILL_NAME, SINCOS_NAME,  the functions' names
 *   FILL_T_NAME
 *
 * Every lane does exactly the operations of the plain C reference
 * posenc__sincos_dd (src/math/angle.c), in the same order: the only fused
 * operations are the three error terms of exact products (VD_FMS; in plain
 * C the same exact value by Dekker's splitting), everything else is a
 * separate multiply or add. So every instruction set gives the same bits,
 * and the same bits as the reference.
 *
 * The fill (contract at posenc__sincos_table_f32 in internal.h). With
 * S = POSENC__FILL_ANCHOR_EVERY, position p = A + j, A = p - p mod S:
 *
 *     Z(A) = scale * (cos Af + i sin Af)       exact anchor, sincos below
 *     T(j) =          cos jf + i sin jf        exact, j < S
 *     value(p) = float(Z(A) * T(j))            one complex product in double
 *
 * The value of (p, k) is the same few operations whichever call computes it:
 * a whole table (T computed once for every j, Z once per S rows), a run of
 * tokens, or one position (two sincos per pair). So tables, caches, the
 * tensor kernels with or without a cache, and the single-vector float
 * functions agree bit for bit.
 *
 * Loop order: tiles of FB_TILE rows; in each, the pairs FB_M at a time (T of
 * FB_M pairs for every j is 32 KiB of stack), and the rows. A row wider than
 * FB_M pairs is thus written in strips, and each strip prefetches the lines
 * of the row FB_AHEAD below (the hardware prefetchers do not follow a stride
 * of whole rows: without it a D = 1024 table took 3.5x longer).
 */

#ifndef FB_M
/* Pairs handled together; a multiple of every VDW. */
#define FB_M 64
#define FB_S POSENC__FILL_ANCHOR_EVERY
/* Rows per tile (a multiple of FB_S). */
#define FB_TILE 512
/* Rows ahead whose lines a strip prefetches. */
#define FB_AHEAD 8
#endif

/* sin and cos of the exact angle x * (fh + fl), x an integer < 2^31:
 * posenc__sincos_dd lane by lane. */
static inline void fb_sincos(VD x, VD fh, VD fl, VD *s, VD *c)
{
    const VD ROUNDER = VD_SET1(POSENC__ROUNDER);
    /* theta = (fh + fl) x as a double-double (fh x exact by two_prod) */
    VD p = VD_MUL(fh, x);
    VD e = VD_ADD(VD_FMS(fh, x, p), VD_MUL(fl, x));
    VD th = VD_ADD(p, e);
    VD tl = VD_SUB(e, VD_SUB(th, p));
    /* n = round(theta 2/pi); r = theta - n pi/2 with a three-part pi/2 */
    VD n = VD_SUB(VD_ADD(VD_MUL(th, VD_SET1(POSENC__TWO_OVER_PI)), ROUNDER), ROUNDER);
    VD p1 = VD_SET1(POSENC__PIO2_1), p2 = VD_SET1(POSENC__PIO2_2);
    VD ah = VD_MUL(n, p1), al = VD_FMS(n, p1, ah);
    VD bh = VD_MUL(n, p2), bl = VD_FMS(n, p2, bh);
    VD tail = VD_SUB(VD_SUB(VD_SUB(tl, al), bh),
                     VD_ADD(bl, VD_MUL(n, VD_SET1(POSENC__PIO2_3))));
    VD d = VD_SUB(th, ah);
    VD rh = VD_ADD(d, tail); /* two_sum(d, tail) */
    VD bb = VD_SUB(rh, d);
    VD rl = VD_ADD(VD_SUB(d, VD_SUB(rh, bb)), VD_SUB(tail, bb));
    /* sin and cos of rh + rl, |rh| <= pi/4 (posenc__kernel_sin/cos) */
    VD z = VD_MUL(rh, rh), w = VD_MUL(z, z), v = VD_MUL(z, rh);
    VD half = VD_SET1(0.5), one = VD_SET1(1.0);
    VD r = VD_ADD(VD_ADD(VD_SET1(POSENC__S2),
                         VD_MUL(z, VD_ADD(VD_SET1(POSENC__S3), VD_MUL(z, VD_SET1(POSENC__S4))))),
                  VD_MUL(VD_MUL(z, w), VD_ADD(VD_SET1(POSENC__S5), VD_MUL(z, VD_SET1(POSENC__S6)))));
    VD sr = VD_SUB(rh, VD_SUB(VD_SUB(VD_MUL(z, VD_SUB(VD_MUL(half, rl), VD_MUL(v, r))), rl),
                              VD_MUL(v, VD_SET1(POSENC__S1))));
    VD rc = VD_ADD(VD_MUL(z, VD_ADD(VD_SET1(POSENC__C1),
                                    VD_MUL(z, VD_ADD(VD_SET1(POSENC__C2),
                                                     VD_MUL(z, VD_SET1(POSENC__C3)))))),
                   VD_MUL(VD_MUL(w, w),
                          VD_ADD(VD_SET1(POSENC__C4),
                                 VD_MUL(z, VD_ADD(VD_SET1(POSENC__C5),
                                                  VD_MUL(z, VD_SET1(POSENC__C6)))))));
    VD hz = VD_MUL(half, z), w1 = VD_SUB(one, hz);
    VD cr = VD_ADD(w1, VD_ADD(VD_SUB(VD_SUB(one, w1), hz), VD_SUB(VD_MUL(z, rc), VD_MUL(rh, rl))));
    /* quadrant n mod 4 = 2 b1 + odd: exact small-integer arithmetic picks
     * (sr, cr), (cr, -sr), (-sr, -cr) or (-cr, sr); + 0 turns -0 into +0 */
    VD h = VD_FLOOR(VD_MUL(n, half));
    VD odd = VD_SUB(n, VD_ADD(h, h));
    VD h2 = VD_FLOOR(VD_MUL(h, half));
    VD b1 = VD_SUB(h, VD_ADD(h2, h2));
    VD even = VD_SUB(one, odd);
    VD s1 = VD_ADD(VD_MUL(even, sr), VD_MUL(odd, cr));
    VD c1 = VD_ADD(VD_MUL(even, cr), VD_MUL(odd, sr));
    VD sgn_s = VD_SUB(one, VD_ADD(b1, b1));
    VD flip_c = VD_SUB(VD_ADD(odd, b1), VD_ADD(VD_MUL(odd, b1), VD_MUL(odd, b1)));
    VD sgn_c = VD_SUB(one, VD_ADD(flip_c, flip_c));
    VD zero = VD_SET1(0.0);
    *s = VD_ADD(VD_MUL(s1, sgn_s), zero);
    *c = VD_ADD(VD_MUL(c1, sgn_c), zero);
}

/* s[k], c[k] for k < mp (a multiple of VDW) at position x. */
static void fb_sincos_block(double x, const double *fh, const double *fl, size_t mp, double *s,
                            double *c)
{
    VD vx = VD_SET1(x);
    for (size_t k = 0; k < mp; k += VDW) {
        VD vs, vc;
        fb_sincos(vx, VD_LD(fh + k), VD_LD(fl + k), &vs, &vc);
        VD_ST(s + k, vs);
        VD_ST(c + k, vc);
    }
}

void SINCOS_NAME(int64_t pos, const double *f_hi, const double *f_lo, size_t n, double *s,
                 double *c)
{
    size_t k = 0;
    fb_sincos_block((double)pos, f_hi, f_lo, n / VDW * VDW, s, c);
    k = n / VDW * VDW;
    if (k < n) { /* the last partial vector, through a padded copy */
        double fh[VDW], fl[VDW], ss[VDW], cc[VDW];
        for (size_t i = 0; i < VDW; i++) {
            fh[i] = k + i < n ? f_hi[k + i] : 0.0;
            fl[i] = k + i < n ? f_lo[k + i] : 0.0;
        }
        fb_sincos_block((double)pos, fh, fl, VDW, ss, cc);
        for (size_t i = 0; k + i < n; i++) {
            s[k + i] = ss[i];
            c[k + i] = cc[i];
        }
    }
}

/* Z(A) = scale * (cos Af + i sin Af) for pairs [0, mp) into zc, zs. */
static inline void fb_anchor(int64_t anchor, const double *fh, const double *fl, size_t mp,
                             VD vscale, double *zc, double *zs)
{
    fb_sincos_block((double)anchor, fh, fl, mp, zs, zc);
    for (size_t k = 0; k < mp; k += VDW) {
        VD_ST(zc + k, VD_MUL(VD_LD(zc + k), vscale));
        VD_ST(zs + k, VD_MUL(VD_LD(zs + k), vscale));
    }
}

/* One row: value = Z * T for pairs [0, m), stored as floats. */
static inline void fb_row(size_t m, const double *zc, const double *zs, const double *tc,
                          const double *ts, float *crow, float *srow, int mode)
{
    size_t k = 0;
    for (; k + VDW <= m; k += VDW) {
        VD a = VD_LD(zc + k), b = VD_LD(zs + k), wc = VD_LD(tc + k), ws = VD_LD(ts + k);
        /* (a + ib)(wc + i ws) */
        VD re = VD_SUB(VD_MUL(a, wc), VD_MUL(b, ws));
        VD im = VD_ADD(VD_MUL(b, wc), VD_MUL(a, ws));
        if (mode == POSENC__FILL_ZIP) {
            VD_ST_F32_ZIP(srow + 2 * k, im, re);
        } else {
            VD_ST_F32(crow + k, re);
            VD_ST_F32(srow + k, im);
        }
    }
    for (; k < m; k++) { /* the same operations, one pair at a time */
        double re = zc[k] * tc[k] - zs[k] * ts[k];
        double im = zs[k] * tc[k] + zc[k] * ts[k];
        if (mode == POSENC__FILL_ZIP) {
            srow[2 * k] = (float)im;
            srow[2 * k + 1] = (float)re;
        } else {
            crow[k] = (float)re;
            srow[k] = (float)im;
        }
    }
}

void FILL_NAME(int64_t pos0, size_t n_pos, const double *f_hi, const double *f_lo,
               size_t n_pairs, double scale, float *cos_out, float *sin_out, size_t ld,
               int mode)
{
    const int64_t S = FB_S;
    double fh[FB_M], fl[FB_M], zc[FB_M], zs[FB_M];
    double tc[FB_S][FB_M], ts[FB_S][FB_M]; /* T(j) for every j, or T of one row in [0] */
    VD vscale = VD_SET1(scale);
    /* Tiles of FB_TILE rows, and in each the pairs FB_M at a time: a wide
     * row is written in strips, and the tile keeps those strips within
     * reach of the caches and the TLB. */
    for (size_t r0 = 0; r0 < n_pos; r0 += FB_TILE) {
        size_t n_rows = n_pos - r0 < FB_TILE ? n_pos - r0 : FB_TILE;
        int all = n_rows >= (size_t)S; /* every residue j occurs */
        for (size_t k0 = 0; k0 < n_pairs; k0 += FB_M) {
            size_t m = n_pairs - k0 < FB_M ? n_pairs - k0 : FB_M;
            size_t mp = (m + VDW - 1) / VDW * VDW;
            for (size_t k = 0; k < mp; k++) {
                fh[k] = k < m ? f_hi[k0 + k] : 0.0;
                fl[k] = k < m ? f_lo[k0 + k] : 0.0;
            }
            if (all)
                for (int64_t j = 0; j < S; j++)
                    fb_sincos_block((double)j, fh, fl, mp, ts[j], tc[j]);
            int64_t anchor = -1;
            for (size_t t = r0; t < r0 + n_rows; t++) {
                int64_t p = pos0 + (int64_t)t, j = p % S;
                if (p - j != anchor) {
                    anchor = p - j;
                    fb_anchor(anchor, fh, fl, mp, vscale, zc, zs);
                }
                if (n_pairs > FB_M && t + FB_AHEAD < r0 + n_rows) {
                    /* a strip of a wide row: ask for the lines of a later row
                     * now (the hardware prefetchers do not follow strides of
                     * whole rows) */
                    size_t bytes = (mode == POSENC__FILL_ZIP ? 8 : 4) * m;
                    for (size_t b = 0; b < bytes; b += 64) {
                        if (mode == POSENC__FILL_ZIP) {
                            __builtin_prefetch((char *)(sin_out + (t + FB_AHEAD) * ld + 2 * k0) + b, 1);
                        } else {
                            __builtin_prefetch((char *)(cos_out + (t + FB_AHEAD) * ld + k0) + b, 1);
                            __builtin_prefetch((char *)(sin_out + (t + FB_AHEAD) * ld + k0) + b, 1);
                        }
                    }
                }
                int64_t slot = all ? j : 0;
                if (!all)
                    fb_sincos_block((double)j, fh, fl, mp, ts[0], tc[0]);
                if (mode == POSENC__FILL_ZIP)
                    fb_row(m, zc, zs, tc[slot], ts[slot], NULL, sin_out + t * ld + 2 * k0, mode);
                else
                    fb_row(m, zc, zs, tc[slot], ts[slot], cos_out + t * ld + k0,
                           sin_out + t * ld + k0, mode);
            }
        }
    }
}

/* FILL_NAME's rows with T(j) given for every j < S (posenc__fill_t_fn):
 * each row is Z(A) * T(j) as above, Z computed once per anchor, T read. */
void FILL_T_NAME(int64_t pos0, size_t n_pos, const double *f_hi, const double *f_lo,
                 size_t n_pairs, double scale, const double *tc, const double *ts, size_t tld,
                 float *cos_out, float *sin_out, size_t ld, int mode)
{
    const int64_t S = FB_S;
    double fh[FB_M], fl[FB_M], zc[FB_M], zs[FB_M];
    VD vscale = VD_SET1(scale);
    size_t m = n_pairs < FB_M ? n_pairs : FB_M; /* the contract: n_pairs <= FB_M */
    size_t mp = (m + VDW - 1) / VDW * VDW;
    for (size_t k = 0; k < mp; k++) {
        fh[k] = k < m ? f_hi[k] : 0.0;
        fl[k] = k < m ? f_lo[k] : 0.0;
    }
    int64_t anchor = -1;
    for (size_t t = 0; t < n_pos; t++) {
        int64_t p = pos0 + (int64_t)t, j = p % S;
        if (p - j != anchor) {
            anchor = p - j;
            fb_anchor(anchor, fh, fl, mp, vscale, zc, zs);
        }
        const double *tcj = tc + (size_t)j * tld, *tsj = ts + (size_t)j * tld;
        if (mode == POSENC__FILL_ZIP)
            fb_row(m, zc, zs, tcj, tsj, NULL, sin_out + t * ld, mode);
        else
            fb_row(m, zc, zs, tcj, tsj, cos_out + t * ld, sin_out + t * ld, mode);
    }
}
