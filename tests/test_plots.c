/* test_plots.c - the plot module (cli/plot_*.c): the pictures of `posenc plot` and PLOT, read back: pixels of
 * PNGs against the colour of values derived here from the formulas, sizes,
 * SVG parsed as XML (tests/plot_svg.py) with the expected number of cells
 * and curve points, the plotted numbers against math identities, and bad
 * requests that must fail with exit 2 and write nothing.
 *
 * Then each layer's edges and failures: every option refused with its exact
 * message, exit 2 and no file; requests the command line cannot make but
 * plot_build accepts (its callers are C code); PLOT's word checks; figures
 * drawn straight through plot_draw_file (no labels, NaN points, clamped
 * colours, more cells than pixels, failed writes); and every allocation of
 * the plot code failing in turn (malloc, calloc and realloc are wrapped by
 * the linker: -Wl,--wrap, see the Makefile).
 * Built with Cairo only; without it this program says it skipped. */
#include "check.h"
#include "plot.h"

#include <stdlib.h>

/* ---- allocation failures on demand ------------------------------------------ */

#include "fault.h" /* alloc_countdown, alloc_failed */

#ifndef POSENC_HAVE_CAIRO

int main(void)
{
    (void)check__failed_checks;
    (void)alloc_countdown;
    check_skip("plot", 2, "the picture tests and the plot code's error paths: built without Cairo",
               "libcairo2-dev");
    return check_summary("plot");
}

#else

#include "plot_harness.h"
#include "rope_golden.h"
#include "model_lengths.h"

static const double TWO_PI = 6.28318530717958647692;


/* ---- tests ---------------------------------------------------------------------- */

TEST(colour_maps)
{
    double c[3];
    plot_cmap_colour(PLOT_CMAP_DIVERGING, 0, c); /* #f7f7f7 */
    CHECK_NEAR(c[0] * 255, 0xf7, 1e-9);
    CHECK_NEAR(c[1] * 255, 0xf7, 1e-9);
    plot_cmap_colour(PLOT_CMAP_DIVERGING, 1, c); /* #b2182b: red for +1 */
    CHECK_NEAR(c[0] * 255, 0xb2, 1e-9);
    CHECK_NEAR(c[2] * 255, 0x2b, 1e-9);
    plot_cmap_colour(PLOT_CMAP_DIVERGING, -1, c); /* #2166ac: blue for -1 */
    CHECK_NEAR(c[0] * 255, 0x21, 1e-9);
    CHECK_NEAR(c[2] * 255, 0xac, 1e-9);
    plot_cmap_colour(PLOT_CMAP_DIVERGING, 7, c); /* clamped */
    CHECK_NEAR(c[0] * 255, 0xb2, 1e-9);
    CHECK_EQ_INT(plot_format_of("a.PNG"), PLOT_FMT_PNG);
    CHECK_EQ_INT(plot_format_of("a.svg"), PLOT_FMT_SVG);
    CHECK_EQ_INT(plot_format_of("a.pdf"), PLOT_FMT_PDF);
    CHECK_EQ_INT(plot_format_of("a.txt"), -1);
    CHECK_EQ_INT(plot_format_of(".png"), -1);
}

/* The issue's check: at position 0 an odd dimension is cos 0 = +1, an even
 * one sin 0 = 0; every other cell has the colour of sin or cos of
 * pos / 10000^(2k/D), computed here with libm. */
TEST(pe_png_pixels_and_size)
{
    CHECK_EQ_INT(run_plot("pe --positions 8 --dim 6 --size 400x300 -o @/pe.png"), 0);
    png p;
    CHECK(png_open(&p, path_in("pe.png")));
    if (!p.data)
        return;
    CHECK_EQ_INT(p.w, 400);
    CHECK_EQ_INT(p.h, 300);
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_PE);
    rq.positions = 8;
    rq.dim = 6;
    rq.width = 400;
    rq.height = 300;
    rq.out = "x.png";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (b) {
        const plot_figure *f = plot_built_figure(b);
        double plus1[3], zero[3], x, y;
        plot_cmap_colour(PLOT_CMAP_DIVERGING, 1, plus1);
        plot_cmap_colour(PLOT_CMAP_DIVERGING, 0, zero);
        for (int i = 0; i < 6; i++) {
            plot_cell_centre(f, 0, 0, (size_t)i, &x, &y);
            CHECK(pixel_is(&p, x, y, i % 2 ? plus1 : zero));
        }
        for (int pos = 1; pos < 8; pos++)
            for (int i = 0; i < 6; i++) {
                double angle = pos / pow(10000.0, (double)(i - i % 2) / 6.0), want[3];
                plot_cmap_colour(PLOT_CMAP_DIVERGING, i % 2 ? cos(angle) : sin(angle), want);
                plot_cell_centre(f, 0, (size_t)pos, (size_t)i, &x, &y);
                CHECK(pixel_is(&p, x, y, want));
            }
        plot_built_free(b);
    }
    cairo_surface_destroy(p.s);
}

/* Head 1 of 4 ALiBi heads has slope 2^-2; its corner (i = N-1, j = 0) is the
 * most negative value, the darkest colour; keys after the query are grey. */
TEST(alibi_png_pixels)
{
    CHECK_EQ_INT(run_plot("alibi --heads 4 --positions 5 --size 700x300 -o @/alibi.png"), 0);
    png p;
    CHECK(png_open(&p, path_in("alibi.png")));
    if (!p.data)
        return;
    CHECK_EQ_INT(p.w, 700);
    CHECK_EQ_INT(p.h, 300);
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_ALIBI);
    rq.heads = 4;
    rq.positions = 5;
    rq.width = 700;
    rq.height = 300;
    rq.out = "x.png";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (b) {
        const plot_figure *f = plot_built_figure(b);
        double darkest[3], grey[3] = {0xdd / 255.0, 0xdd / 255.0, 0xdd / 255.0}, half[3], x, y;
        plot_cmap_colour(PLOT_CMAP_NEGATIVE, -1, darkest);
        plot_cell_centre(f, 0, 4, 0, &x, &y);
        CHECK(pixel_is(&p, x, y, darkest));
        plot_cell_centre(f, 0, 0, 4, &x, &y);
        CHECK(pixel_is(&p, x, y, grey));
        /* head 2 (slope 2^-4) at distance 4: -0.25, a quarter of the scale (-1) */
        plot_cmap_colour(PLOT_CMAP_NEGATIVE, -0.25, half);
        plot_cell_centre(f, 1, 4, 0, &x, &y);
        CHECK(pixel_is(&p, x, y, half));
        plot_built_free(b);
    }
    cairo_surface_destroy(p.s);
}

/* ALiBi values: -2^(-8h/H) |i - j|, H = 8. */
TEST(alibi_values)
{
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_ALIBI);
    rq.positions = 6;
    rq.out = "x.png";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_maps, 8);
    for (size_t h = 0; h < f->n_maps; h++)
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++) {
                CHECK_NEAR(f->maps[h].v[i * 6 + j], -ldexp(1, -(int)(h + 1)) * abs(i - j), 0);
                CHECK_EQ_INT(f->maps[h].mask[i * 6 + j], j > i);
            }
    CHECK_NEAR(f->vmin, -0.5 * 5, 0);
    plot_built_free(b);
}

/* D = 2, base anything: the one pair turns at 1 radian per token, and for any
 * unit vector u, ROPE(d, u) . ROPE(0, u) = cos d. Both curves are cos d. */
TEST(rope_decay_values_are_cos_for_d2)
{
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_ROPE_DECAY);
    rq.dim = 2;
    rq.linear = 1;
    rq.max_offset = 20;
    rq.points = 21;
    rq.samples = 5;
    rq.out = "x.svg";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_curves, 2);
    for (size_t c = 0; c < 2 && c < f->n_curves; c++) {
        CHECK_EQ_INT(f->curves[c].n, 21);
        for (size_t i = 0; i < f->curves[c].n; i++) {
            CHECK_NEAR(f->curves[c].x[i], (double)i, 0);
            CHECK_NEAR(f->curves[c].y[i], cos((double)i), 1e-12);
        }
    }
    CHECK(!f->xlog);
    plot_built_free(b);
}

/* D = 128: at offset d the ones curve is (2/D) sum_k cos(d / 10000^(2k/D)),
 * computed here with libm; the log axis runs 1 .. max offset. */
TEST(rope_decay_values_d128)
{
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_ROPE_DECAY);
    rq.samples = 0;
    rq.max_offset = 1000;
    rq.points = 50;
    rq.out = "x.png";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_curves, 1);
    const plot_curve *c = &f->curves[0];
    CHECK_NEAR(c->x[0], 1, 0);
    CHECK_NEAR(c->x[c->n - 1], 1000, 0);
    for (size_t i = 0; i < c->n; i++) {
        double want = 0;
        for (int k = 0; k < 64; k++)
            want += cos(c->x[i] / pow(10000.0, 2.0 * k / 128.0));
        CHECK_NEAR(c->y[i], want / 64, 1e-12);
        if (i)
            CHECK(c->x[i] > c->x[i - 1]);
    }
    CHECK(f->xlog);
    plot_built_free(b);
}

/* Wavelength of pair k: 2 pi base^(2k/D) tokens. */
TEST(freqs_values)
{
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_FREQS);
    rq.base[1] = 500000;
    rq.n_base = 2;
    rq.out = "x.png";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_curves, 2);
    for (size_t s = 0; s < 2; s++) {
        double base = s ? 500000 : 10000;
        CHECK_EQ_INT(f->curves[s].n, 64);
        for (size_t k = 0; k < f->curves[s].n; k++) {
            double want = TWO_PI * pow(base, 2.0 * (double)k / 128.0);
            CHECK_NEAR(f->curves[s].y[k] / want, 1, 1e-13);
        }
    }
    CHECK_EQ_INT(f->n_hlines, 1);
    CHECK_NEAR(f->hline_y[0], 4096, 0);
    CHECK(f->ylog);
    plot_built_free(b);
}

/* A series can be a model's RoPE (a posenc_rope): freqs draws its inv_freq. */
TEST(freqs_takes_a_posenc_rope)
{
    posenc_rope r;
    CHECK_EQ_INT(posenc_rope_init(&r, 64, 16, 10000, POSENC_LAYOUT_HALF), POSENC_OK);
    for (int k = 0; k < 8; k++) /* a stand-in scaling: every pair 4x slower */
        r.inv_freq_hi[k] /= 4;
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_FREQS);
    rq.dim = 16;
    rq.rope[0] = &r;
    rq.rope_label[0] = "scaled";
    rq.n_rope = 1;
    rq.out = "x.png";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_curves, 2);
    for (size_t k = 0; k < 8; k++)
        CHECK_NEAR(f->curves[1].y[k] / f->curves[0].y[k], 4, 1e-12);
    CHECK(strstr(f->curves[1].label, "scaled") != NULL);
    plot_built_free(b);
    /* rope-decay draws it too: q = k = ones on the 16 rotated elements and
     * 48 unrotated ones: (2 sum_k cos(d f_k / 4) + 48) / 64 */
    rq.kind = PLOT_ROPE_DECAY;
    rq.linear = 1;
    rq.max_offset = 30;
    rq.points = 31;
    rq.samples = 0;
    b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_curves, 2);
    for (size_t i = 0; f->n_curves == 2 && i < f->curves[1].n; i++) {
        double want = 48;
        for (int k = 0; k < 8; k++)
            want += 2 * cos((double)i * pow(10000.0, -2.0 * k / 16) / 4);
        CHECK_NEAR(f->curves[1].y[i], want / 64, 1e-12);
    }
    plot_built_free(b);
}

static golden_case golden[GOLDEN_MAX_CASES];
static int n_golden;

static const golden_case *golden_find(const char *name)
{
    for (int i = 0; i < n_golden; i++)
        if (strcmp(golden[i].name, name) == 0)
            return &golden[i];
    fprintf(stderr, "  golden case %s missing\n", name);
    return NULL;
}

/* freqs of the Llama 3.1 8B config (as the golden generator has it, no JSON
 * needed) against the mpmath frequencies of tests/data/rope_golden.txt: the
 * scaled wavelengths 2 pi / f(k), the dashed plain ones 2 pi 500000^(k/64),
 * and the shaded span exactly over the pairs whose frequency the scaling
 * blends (f0/f strictly between 1 and 8), with edges where the plain
 * wavelength is L/high_freq_factor = 2048 and L/low_freq_factor = 8192. */
TEST(freqs_of_llama3_config_match_golden)
{
    const golden_case *g = golden_find("llama-3.1-8b");
    CHECK(g != NULL);
    if (!g)
        return;
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_FREQS);
    rq.rope_config[0] = &g->cfg;
    rq.rope_label[0] = "llama-3.1-8b";
    rq.n_rope = 1;
    rq.out = "x.png"; /* base 10000, D 128 first, as the defaults say */
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_curves, 3); /* base 10000, llama3, llama3 before scaling */
    CHECK_EQ_INT(f->n_spans, 1);
    if (f->n_curves != 3 || f->n_spans != 1) {
        plot_built_free(b);
        return;
    }
    const plot_curve *c = &f->curves[1], *c0 = &f->curves[2];
    CHECK(strstr(c->label, "llama3") != NULL);
    CHECK(c0->dashed && !c0->markers && c->markers);
    CHECK_EQ_INT(c->n, 64);
    CHECK_EQ_INT(g->n_freqs, 64);
    double k_lo = 64 * log(2048 / TWO_PI) / log(500000), k_hi = 64 * log(8192 / TWO_PI) / log(500000);
    CHECK_NEAR(f->spans[0].lo, k_lo, 1e-12);
    CHECK_NEAR(f->spans[0].hi, k_hi, 1e-12);
    int blended = 0;
    for (size_t k = 0; k < c->n && k < 64; k++) {
        double fk = g->f_hi[k] + g->f_lo[k], f0 = pow(500000.0, -2.0 * (double)k / 128);
        CHECK_NEAR(c->x[k], (double)k, 0);
        CHECK_NEAR(c->y[k] / (TWO_PI / fk), 1, 1e-15);
        CHECK_NEAR(c0->y[k] / (TWO_PI / f0), 1, 1e-13);
        double ratio = f0 / fk;
        int inside = (double)k > f->spans[0].lo && (double)k < f->spans[0].hi;
        if (ratio > 1 + 1e-9 && ratio < 8 - 1e-9) {
            blended++;
            CHECK(inside);
        } else {
            CHECK(!inside);
            CHECK(fabs(ratio - 1) < 1e-12 || fabs(ratio - 8) < 1e-11);
        }
    }
    CHECK(blended >= 5); /* pairs 29..34 */
    plot_built_free(b);
}

/* freqs of gpt-oss-20b (YaRN, truncate false) alone: the span is the ramp,
 * from c(beta_fast = 32) to c(beta_slow = 1) with c(r) = d ln(L / (2 pi r))
 * / (2 ln base), d = 64, L = 4096, base 150000, untruncated. */
TEST(freqs_of_yarn_ramp)
{
    const golden_case *g = golden_find("gpt-oss-20b");
    CHECK(g != NULL);
    if (!g)
        return;
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_FREQS);
    rq.n_base = 0;
    rq.rope_config[0] = &g->cfg;
    rq.n_rope = 1;
    rq.out = "x.png";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_curves, 2);
    CHECK_EQ_INT(f->n_spans, 1);
    double c = 64 / (2 * log(150000.0));
    CHECK_NEAR(f->spans[0].lo, c * log(4096 / (TWO_PI * 32)), 1e-12);
    CHECK_NEAR(f->spans[0].hi, c * log(4096 / TWO_PI), 1e-12);
    CHECK(f->n_curves == 2 && strstr(f->curves[0].label, "a = 1.347") != NULL);
    for (size_t k = 0; f->n_curves == 2 && k < f->curves[0].n; k++)
        CHECK_NEAR(f->curves[0].y[k] / (TWO_PI / (g->f_hi[k] + g->f_lo[k])), 1, 1e-15);
    plot_built_free(b);
}

/* rope-decay of a Llama 3 RoPE, head_dim 8, base 10000, L = 1024, factor 8,
 * low/high_freq_factor 1/4: the plain wavelengths 2 pi 10^(k) put pairs 0, 1
 * in the kept band, pair 2 (628 tokens) in the blend, pair 3 divided by 8.
 * The ones curve is (1/4) sum_k cos(d f_k) with f_k from the published
 * formula evaluated here; a random unit q = k scores exactly 1 at d = 0. */
TEST(rope_decay_of_llama3_small)
{
    posenc_rope_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.head_dim = cfg.rotary_dim = 8;
    cfg.base = 10000;
    cfg.layout = POSENC_LAYOUT_HALF;
    CHECK(posenc_rope_scaling_init(&cfg.scaling, POSENC_ROPE_LLAMA3) == POSENC_OK);
    cfg.scaling.factor = 8;
    cfg.scaling.original_max_position_embeddings = 1024;
    cfg.scaling.low_freq_factor = 1;
    cfg.scaling.high_freq_factor = 4;
    double fk[4];
    for (int k = 0; k < 4; k++) {
        double f0 = pow(10000.0, -2.0 * k / 8), w = TWO_PI / f0;
        if (w < 1024 / 4.0)
            fk[k] = f0;
        else if (w > 1024 / 1.0)
            fk[k] = f0 / 8;
        else {
            double gg = (1024 / w - 1) / (4 - 1);
            fk[k] = (1 - gg) * f0 / 8 + gg * f0;
        }
    }
    CHECK(fk[2] != pow(10000.0, -0.5) && fk[3] < fk[2]); /* the blend and low bands are hit */
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_ROPE_DECAY);
    rq.n_base = 0;
    rq.rope_config[0] = &cfg;
    rq.rope_label[0] = "tiny";
    rq.n_rope = 1;
    rq.linear = 1;
    rq.max_offset = 200;
    rq.points = 201;
    rq.samples = 4;
    rq.out = "x.png";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_curves, 2);
    for (size_t i = 0; f->n_curves == 2 && i < f->curves[0].n; i++) {
        double d = f->curves[0].x[i], want = 0;
        CHECK_NEAR(d, (double)i, 0);
        for (int k = 0; k < 4; k++)
            want += cos(d * fk[k]);
        CHECK_NEAR(f->curves[0].y[i], want / 4, 1e-12);
        CHECK(fabs(f->curves[1].y[i]) <= 1 + 1e-12);
    }
    if (f->n_curves == 2)
        CHECK_NEAR(f->curves[1].y[0], 1, 1e-14);
    CHECK(strstr(f->curves[0].label, "llama3") != NULL);
    plot_built_free(b);
}

/* The attention factor is divided out of the rotated part only: head_dim 8,
 * rotary_dim 4, attention_factor 2, default frequencies 1 and 1/100: q = k =
 * ones gives (2 cos d + 2 cos(d/100) + 4) / 8, and the subtitle says so. */
TEST(rope_decay_divides_out_attention_factor)
{
    posenc_rope_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.head_dim = 8;
    cfg.rotary_dim = 4;
    cfg.base = 10000;
    CHECK(posenc_rope_scaling_init(&cfg.scaling, POSENC_ROPE_DEFAULT) == POSENC_OK);
    cfg.scaling.attention_factor = 2;
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_ROPE_DECAY);
    rq.n_base = 0;
    rq.rope_config[0] = &cfg;
    rq.n_rope = 1;
    rq.linear = 1;
    rq.max_offset = 50;
    rq.points = 51;
    rq.samples = 0;
    rq.out = "x.png";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_curves, 1);
    for (size_t i = 0; i < f->curves[0].n; i++) {
        double d = (double)i;
        CHECK_NEAR(f->curves[0].y[i], (2 * cos(d) + 2 * cos(d / 100) + 4) / 8, 1e-14);
    }
    CHECK(strstr(f->curves[0].label, "a = 2") != NULL);
    CHECK(strstr(f->curves[0].label, "4 rotated") != NULL);
    CHECK(strstr(f->subtitle, "divided out") != NULL);
    plot_built_free(b);
}

TEST(svg_heatmap_cells)
{
    char got[256];
    CHECK_EQ_INT(run_plot("pe --positions 5 --dim 7 -o @/pe.svg"), 0);
    svg_query("cells", path_in("pe.svg"), got, sizeof got);
    CHECK(strcmp(got, "35") == 0);
    CHECK_EQ_INT(run_plot("similarity --positions 6 --dim 8 -o @/sim.svg"), 0);
    svg_query("cells", path_in("sim.svg"), got, sizeof got);
    CHECK(strcmp(got, "36") == 0);
    CHECK_EQ_INT(run_plot("alibi --heads 3 --positions 4 -o @/alibi.svg"), 0);
    svg_query("cells", path_in("alibi.svg"), got, sizeof got);
    CHECK(strcmp(got, "48") == 0);
}

TEST(svg_curve_points)
{
    char got[256];
    CHECK_EQ_INT(run_plot("rope-decay --linear --max-offset 49 --points 50 --samples 3 "
                          "-o @/decay.svg"),
                 0);
    svg_query("curves 10", path_in("decay.svg"), got, sizeof got);
    CHECK(strcmp(got, "50 50") == 0);
    CHECK_EQ_INT(run_plot("rope-decay --linear --max-offset 49 --points 50 --samples 0 "
                          "--base 10000,500 --base 10 -o @/decay3.svg"),
                 0);
    svg_query("curves 10", path_in("decay3.svg"), got, sizeof got);
    CHECK(strcmp(got, "50 50 50") == 0);
    CHECK_EQ_INT(run_plot("freqs --dim 32 --context 0 -o @/freqs.svg"), 0);
    svg_query("markers", path_in("freqs.svg"), got, sizeof got); /* a dot per pair */
    CHECK(strcmp(got, "16") == 0);
}

TEST(pdf_output)
{
    CHECK_EQ_INT(run_plot("freqs -o @/freqs.pdf"), 0);
    FILE *f = fopen(path_in("freqs.pdf"), "rb");
    char head[5] = {0};
    CHECK(f && fread(head, 1, 4, f) == 4 && memcmp(head, "%PDF", 4) == 0);
    if (f)
        fclose(f);
}

/* A bad request: exit 2, a message, and no file. */
static void check_refused(const char *args, const char *file, const char *message_part)
{
    int rc = run_plot(args);
    CHECK_EQ_INT(rc, 2);
    CHECK(strncmp(err_text, "posenc plot: ", 13) == 0);
    if (!strstr(err_text, message_part)) {
        fprintf(stderr, "  message '%s' lacks '%s'\n", err_text, message_part);
        CHECK(0);
    }
    if (file)
        CHECK(!exists(path_in(file)));
}

TEST(bad_requests_write_nothing)
{
    check_refused("pe --dim 0 -o @/d0.png", "d0.png", "D = 0");
    check_refused("rope-decay --dim 7 -o @/odd.png", "odd.png", "even D");
    check_refused("waves -o @/k.png", "k.png", "unknown kind 'waves'");
    check_refused("", NULL, "which plot");
    check_refused("pe --colour red -o @/o.png", "o.png", "unknown option '--colour'");
    check_refused("pe --positions", NULL, "needs a value");
    check_refused("pe -o @/x.txt", "x.txt", ".png, .svg or .pdf");
    check_refused("pe", NULL, "-o FILE");
    check_refused("pe -o -", NULL, "standard output");
    check_refused("pe --base 1 -o @/b.png", "b.png", "--base");
    check_refused("pe --size 10x10 -o @/s.png", "s.png", "size");
    check_refused("similarity --positions 5000 -o @/big.png", "big.png", "too many");
    check_refused("pe -o @/no/such/dir/x.png", NULL, "cannot write");
    /* an existing file is left as it was */
    FILE *f = fopen(path_in("keep.png"), "w");
    CHECK(f != NULL);
    if (f) {
        fputs("keep", f);
        fclose(f);
    }
    check_refused("pe --dim 0 -o @/keep.png", NULL, "D = 0");
    char buf[8] = {0};
    f = fopen(path_in("keep.png"), "r");
    CHECK(f && fread(buf, 1, 7, f) == 4 && strcmp(buf, "keep") == 0);
    if (f)
        fclose(f);
}

/* --config FILE: a series per file; a broken one fails with exit 2 and
 * writes nothing; without the config reader, the message says what to
 * install. */
TEST(config_option)
{
    if (!rope_spec_have_config_reader()) {
        check_refused("freqs --config tests/data/llama-3.1-8b.json -o @/nj.png", "nj.png",
                      "install libjansson-dev");
        return;
    }
    char got[256];
    CHECK_EQ_INT(run_plot("freqs --context 0 --config tests/data/llama-3.1-8b.json "
                          "--config tests/data/gpt-oss-20b.json -o @/fs.svg"),
                 0);
    if (have_python) { /* a dot per pair: 64 + 32; the dashed plain curves have none */
        svg_query("markers", path_in("fs.svg"), got, sizeof got);
        CHECK(strcmp(got, "96") == 0);
    }
    CHECK_EQ_INT(run_plot("rope-decay --max-offset 100 --samples 2 --base 10000 "
                          "--config tests/data/llama-3.1-8b.json -o @/rd.png"),
                 0);
    CHECK(exists(path_in("rd.png")));
    check_refused("freqs --config tests/data/bad-json.json -o @/b1.png", "b1.png",
                  "--config: tests/data/bad-json.json");
    check_refused("rope-decay --config tests/data/bad-unknown-key.json -o @/b2.png", "b2.png",
                  "bad-unknown-key.json");
    check_refused("freqs --config tests/data/no-such.json -o @/b3.png", "b3.png", "no-such.json");
    check_refused("freqs --config", NULL, "needs a value");
}

/* argv of `posenc plot ARGS` (split at spaces) into *pa. */
static plot_args_status parse_args(const char *args, plot_args *pa, char *why, size_t n)
{
    static char buf[1024];
    char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "plot %s", args);
    for (char *w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " "))
        argv[argc++] = w;
    argv[argc] = NULL;
    return plot_args_parse(argc, argv, pa, why, n);
}

/* The wavelengths of curve c of a freqs figure against Qwen 1's dynamic
 * NTK at length L (tests/model_lengths.h). */
static void check_qwen_curve(const plot_figure *f, size_t c, int64_t L)
{
    CHECK(c < f->n_curves && f->curves[c].n == 64);
    if (c >= f->n_curves || f->curves[c].n != 64)
        return;
    for (uint32_t k = 0; k < 64; k++) {
        double want = 2.0 * 3.14159265358979323846 / qwen_inv_freq(10000.0, 128, 2048.0, L, k);
        CHECK_NEAR(f->curves[c].y[k], want, 1e-13 * want);
    }
}

/* `posenc plot freqs --config qwen-14b-chat.json --seq-len N` and PLOT freqs
 * with SET seq_len N draw the layer's RoPE at N as the model's code builds
 * it: Qwen 1's dynamic NTK (2048: plain; 8192: alpha 7; 16384: alpha 15). */
TEST(config_freqs_follow_the_length)
{
    if (!rope_spec_have_config_reader())
        return;
    static const int64_t lens[] = {2048, 8192, 16384};
    plot_args pa;
    char why[1400], args[256];
    for (size_t i = 0; i < 3; i++) {
        snprintf(args, sizeof args,
                 "freqs --config tests/data/qwen-14b-chat.json --layer 39 --seq-len %lld -o x.png",
                 (long long)lens[i]);
        CHECK_EQ_INT(parse_args(args, &pa, why, sizeof why), PLOT_ARGS_OK);
        CHECK(pa.rq.cur_len == lens[i] && pa.rq.rope_layer[0] == 39);
        plot_built *b = plot_build(&pa.rq, why, sizeof why);
        CHECK(b != NULL);
        if (b)
            check_qwen_curve(plot_built_figure(b), 0, lens[i]);
        plot_built_free(b);
        plot_args_free(&pa);
    }
    /* PLOT in the interpreter: the model and layer in force, SET seq_len */
    posenc_model *m;
    CHECK(rope_spec_read_model("tests/data/models/qwen-7b-chat.json", NULL, &m, why, sizeof why));
    plot_settings set = settings;
    set.model = m;
    set.layer = 31;
    set.seq_len = 8192;
    cli_token t[8];
    size_t nt = split_words("freqs 128 x.png", t, 8);
    plot_request rq;
    char path[64];
    CHECK(plot_words_parse(t, nt, &set, &rq, path, sizeof path, why, sizeof why));
    CHECK(rq.rope_model[0] == m && rq.rope_layer[0] == 31 && rq.cur_len == 8192);
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (b) /* the plain base series first, then the model's */
        check_qwen_curve(plot_built_figure(b), 1, 8192);
    plot_built_free(b);
    posenc_model_free(m);
}

/* --config is read through the model registry at --layer: Gemma 3's
 * sliding layers (rope_local_base_freq 10000, unscaled) and its global ones
 * (rope_theta 1e6, linear factor 8), as tests/data/models/gemma3-synthetic.json
 * gives them; a T5 config gives t5-buckets its buckets and max distance
 * (48 and 200 in t5-48-200-synthetic.json). */
TEST(config_through_the_registry)
{
    plot_args pa;
    char why[1400];
    if (!rope_spec_have_config_reader()) {
        CHECK_EQ_INT(parse_args("freqs --config tests/data/models/gemma3-synthetic.json -o x.png",
                                &pa, why, sizeof why),
                     PLOT_ARGS_BAD);
        CHECK(strstr(why, "install libjansson-dev") != NULL);
        plot_args_free(&pa);
        return;
    }
    CHECK_EQ_INT(parse_args("freqs --config tests/data/models/gemma3-synthetic.json -o x.png",
                            &pa, why, sizeof why),
                 PLOT_ARGS_OK);
    CHECK_EQ_INT(pa.rq.n_rope, 1);
    posenc_rope_config c;
    /* the series is the model's layer, asked of the library at the plot's length */
    CHECK(pa.rq.rope_model[0] == pa.model_of[0] && pa.rq.rope_layer[0] == 0);
    CHECK(posenc_model_layer_rope_config(pa.model_of[0], 0, &c) == POSENC_OK);
    CHECK(c.base == 10000.0 && c.scaling.type == POSENC_ROPE_DEFAULT);
    CHECK(c.layout == POSENC_LAYOUT_HALF && c.head_dim == 256);
    CHECK(strcmp(pa.labels[0], "gemma3-synthetic") == 0);
    plot_args_free(&pa);
    CHECK_EQ_INT(parse_args("rope-decay --layer 5 --config tests/data/models/gemma3-synthetic.json "
                            "-o x.png",
                            &pa, why, sizeof why),
                 PLOT_ARGS_OK);
    CHECK(pa.rq.rope_layer[0] == 5 &&
          posenc_model_layer_rope_config(pa.model_of[0], 5, &c) == POSENC_OK);
    CHECK(c.base == 1000000.0 && c.scaling.type == POSENC_ROPE_LINEAR && c.scaling.factor == 8.0);
    CHECK(strcmp(pa.labels[0], "gemma3-synthetic layer 5") == 0);
    plot_args_free(&pa);
    /* a NoPE layer of Llama 4 (every fourth) */
    CHECK_EQ_INT(parse_args("freqs --config tests/data/models/llama4-scout-synthetic.json --layer 3 "
                            "-o x.png",
                            &pa, why, sizeof why),
                 PLOT_ARGS_BAD);
    CHECK(strstr(why, "layer 3 of llama4_text has no RoPE (scheme none)") != NULL);
    plot_args_free(&pa);
    CHECK_EQ_INT(parse_args("t5-buckets --config tests/data/models/t5-48-200-synthetic.json "
                            "--layer 3 -o x.png",
                            &pa, why, sizeof why),
                 PLOT_ARGS_OK);
    CHECK_EQ_INT(pa.rq.t5_buckets, 48);
    CHECK_EQ_INT(pa.rq.t5_max_distance, 200);
    plot_args_free(&pa);
    /* --buckets wins (and max distance keeps its default) */
    CHECK_EQ_INT(parse_args("t5-buckets --buckets 64 --config tests/data/models/t5-48-200-synthetic.json "
                            "-o x.png",
                            &pa, why, sizeof why),
                 PLOT_ARGS_OK);
    CHECK_EQ_INT(pa.rq.t5_buckets, 64);
    CHECK_EQ_INT(pa.rq.t5_max_distance, 128);
    plot_args_free(&pa);
    CHECK_EQ_INT(parse_args("t5-buckets --config tests/data/no-such.json -o x.png", &pa, why,
                            sizeof why),
                 PLOT_ARGS_BAD);
    CHECK(strstr(why, "--config: tests/data/no-such.json") != NULL);
    plot_args_free(&pa);
    CHECK_EQ_INT(parse_args("t5-buckets --rope linear_factor=2 -o x.png", &pa, why, sizeof why),
                 PLOT_ARGS_BAD);
    CHECK(strstr(why, "t5-buckets takes one --config") != NULL);
    plot_args_free(&pa);
}

/* PLOT on a --config model's layer without RoPE: refused with the reason
 * the interpreter gives, rather than drawn as plain RoPE; other kinds draw. */
TEST(plot_command_on_a_layer_without_rope)
{
    char line[512], why[512];
    settings.no_rope = "layer 3 of llama4_text has no RoPE (scheme none)";
    snprintf(line, sizeof line, "freqs 16 %s", path_in("nope.svg"));
    CHECK(!plot_line(line, why, sizeof why));
    CHECK(strstr(why, "PLOT freqs: layer 3 of llama4_text has no RoPE (scheme none)") != NULL);
    CHECK(!exists(path_in("nope.svg")));
    snprintf(line, sizeof line, "pe 4 6 %s", path_in("nope-pe.png"));
    CHECK(plot_line(line, why, sizeof why));
    settings.no_rope = NULL;
}

/* --rope 'TYPE key=value ...' takes SET rope's words. */
TEST(rope_option)
{
    char a0[] = "plot", a1[] = "freqs", a2[] = "--dim", a3[] = "16", a4[] = "--base",
         a5[] = "10000", a6[] = "--rope", a7[] = "linear factor=4", a8[] = "-o", a9[256];
    snprintf(a9, sizeof a9, "%s", path_in("rope.svg"));
    char *argv[] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, NULL};
    CHECK_EQ_INT(run_plot_argv(10, argv), 0);
    char got[256];
    if (have_python) {
        svg_query("markers", path_in("rope.svg"), got, sizeof got);
        CHECK(strcmp(got, "16") == 0);
    }
    char b7[] = "linear factor=abc", b9[256];
    snprintf(b9, sizeof b9, "%s", path_in("rope-bad.png"));
    argv[7] = b7;
    argv[9] = b9;
    CHECK_EQ_INT(run_plot_argv(10, argv), 2);
    CHECK(strstr(err_text, "posenc plot: --rope: SET rope: factor=abc is not a number") != NULL);
    CHECK(!exists(b9));
    char c7[] = "warp factor=2";
    argv[7] = c7;
    CHECK_EQ_INT(run_plot_argv(10, argv), 2);
    CHECK(strstr(err_text, "unknown type 'warp'") != NULL);
    CHECK(!exists(b9));
}

/* freqs of an M-RoPE series: three dot-only curves, one per axis, holding
 * exactly the pairs of each axis (Qwen3-VL's rule on 8 pairs: t h w t h w t
 * t), each at its plain wavelength; and the same through --mrope. */
TEST(freqs_of_mrope)
{
    posenc_rope_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.head_dim = cfg.rotary_dim = 16;
    cfg.base = 10000;
    cfg.layout = POSENC_LAYOUT_HALF;
    CHECK_EQ_INT(posenc_rope_scaling_init(&cfg.scaling, POSENC_ROPE_DEFAULT), POSENC_OK);
    posenc_mrope m;
    const uint32_t sec[3] = {4, 2, 2};
    CHECK_EQ_INT(posenc_mrope_init(&m, 8, sec, POSENC_MROPE_INTERLEAVED), POSENC_OK);
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_FREQS);
    rq.dim = 16;
    rq.n_base = 0;
    rq.rope_config[0] = &cfg;
    rq.rope_label[0] = "qwen3";
    rq.mrope[0] = &m;
    rq.n_rope = 1;
    rq.out = "x.png";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_curves, 3);
    static const int pairs[3][4] = {{0, 3, 6, 7}, {1, 4, -1, -1}, {2, 5, -1, -1}};
    for (size_t a = 0; a < 3 && f->n_curves == 3; a++) {
        const plot_curve *c = &f->curves[a];
        CHECK_EQ_INT(c->n, 2 * sec[a]);
        for (size_t i = 0; i < sec[a]; i++) {
            int k = pairs[a][i];
            CHECK_NEAR(c->x[2 * i], k, 0);
            CHECK_NEAR(c->y[2 * i] / (TWO_PI * pow(10000.0, 2.0 * k / 16)), 1, 1e-13);
            CHECK(isnan(c->y[2 * i + 1])); /* dots only */
        }
        CHECK(c->markers);
    }
    CHECK(strstr(f->curves[0].label, "4 pairs follow the temporal position t") != NULL);
    CHECK(strstr(f->curves[2].label, "width") != NULL);
    CHECK(strstr(f->subtitle, "M-RoPE") != NULL);
    plot_built_free(b);
    /* --mrope on the command line */
    char a0[] = "plot", a1[] = "freqs", a2[] = "--dim", a3[] = "16", a4[] = "--mrope",
         a5[] = "4:2:2,interleaved", a6[] = "-o", a7[256];
    snprintf(a7, sizeof a7, "%s", path_in("mrope.svg"));
    char *argv[] = {a0, a1, a2, a3, a4, a5, a6, a7, NULL};
    CHECK_EQ_INT(run_plot_argv(8, argv), 0);
    CHECK(exists(a7));
    char b5[] = "4:2:2,sideways";
    argv[5] = b5;
    CHECK_EQ_INT(run_plot_argv(8, argv), 2);
    CHECK(strstr(err_text, "posenc plot: --mrope: '4:2:2,sideways' is not T:H:W") != NULL);
    char c5[] = "4:2:3";
    argv[5] = c5;
    CHECK_EQ_INT(run_plot_argv(8, argv), 2);
    CHECK(strstr(err_text, "they must add up to D/2") != NULL);
}

/* PLOT with a model RoPE (SET rope): the model is a series next to plain
 * RoPE of the same base; its plain frequencies are not drawn twice. */
TEST(plot_command_with_model)
{
    char why[512], line[512], got[256];
    CHECK(set_rope("llama3 head_dim=8 factor=8 original=1024 low_freq_factor=1 "
                   "high_freq_factor=4",
                   why, sizeof why));
    snprintf(line, sizeof line, "freqs 8 %s", path_in("model.svg"));
    CHECK(plot_line(line, why, sizeof why));
    if (have_python) {
        svg_query("markers", path_in("model.svg"), got, sizeof got);
        CHECK(strcmp(got, "8") == 0);
    }
    snprintf(line, sizeof line, "rope-decay 8 100 %s", path_in("model.png"));
    CHECK(plot_line(line, why, sizeof why));
    CHECK(exists(path_in("model.png")));
    CHECK(set_rope("off", why, sizeof why));
    CHECK(settings.model == NULL);
}

/* PLOT in the command language: its words, read by the plot module. */
TEST(plot_command)
{
    char line[512], why[512];
    snprintf(line, sizeof line, "pe 4 6 %s", path_in("cmd.png"));
    CHECK(plot_line(line, why, sizeof why));
    png p;
    CHECK(png_open(&p, path_in("cmd.png")));
    if (p.data) {
        CHECK_EQ_INT(p.w, 900);
        CHECK_EQ_INT(p.h, 640);
        cairo_surface_destroy(p.s);
    }
    snprintf(line, sizeof line, "freqs 16 %s", path_in("cmd.svg"));
    CHECK(plot_line(line, why, sizeof why));
    char got[256];
    svg_query("markers", path_in("cmd.svg"), got, sizeof got);
    CHECK(!have_python || strcmp(got, "8") == 0);
    snprintf(line, sizeof line, "pe 4 0 %s", path_in("cmd0.png"));
    CHECK(!plot_line(line, why, sizeof why));
    CHECK(!exists(path_in("cmd0.png")));
    CHECK(strstr(why, "D '0' must be") != NULL);
    snprintf(line, sizeof line, "alibi 4 %s", path_in("cmd1.png"));
    CHECK(!plot_line(line, why, sizeof why));
    CHECK(!exists(path_in("cmd1.png")));
    CHECK(strstr(why, "PLOT alibi H POSITIONS FILE") != NULL);
    CHECK(!plot_line("waves 1 x.png", why, sizeof why));
    CHECK(strstr(why, "PLOT needs a kind") != NULL);
}

/* T5 buckets: the encoder and decoder panels hold the buckets of hand-worked
 * pairs (32 buckets, max_distance 128, docs/SCHEMES.md). */
TEST(t5_buckets_values)
{
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_T5_BUCKETS);
    CHECK_EQ_INT(rq.positions, 160);
    CHECK_EQ_INT(rq.t5_buckets, 32);
    CHECK_EQ_INT(rq.t5_max_distance, 128);
    rq.out = "x.png";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_maps, 2);
    CHECK(strcmp(f->maps[0].title, "encoder (bidirectional)") == 0);
    CHECK(strcmp(f->maps[1].title, "decoder (causal)") == 0);
    CHECK_EQ_INT(f->maps[0].rows, 160);
    CHECK(f->cmap == PLOT_CMAP_SEQUENTIAL && f->vmin == 0 && f->vmax == 31);
    const double *enc = f->maps[0].v, *dec = f->maps[1].v;
    /* (query i, key j) at [i * 160 + j] */
    CHECK(enc[0 * 160 + 20] == 26 && enc[20 * 160 + 0] == 10 && enc[7 * 160 + 7] == 0);
    CHECK(enc[4 * 160 + 5] == 17 && enc[5 * 160 + 4] == 1 && enc[159 * 160 + 0] == 15);
    CHECK(enc[0 * 160 + 159] == 31);
    CHECK(dec[5 * 160 + 0] == 5 && dec[0 * 160 + 5] == 0 && dec[113 * 160 + 0] == 31);
    CHECK(dec[112 * 160 + 0] == 30 && dec[16 * 160 + 0] == 16);
    CHECK(strstr(f->title, "32 buckets, max_distance 128") != NULL);
    plot_built_free(b);
    /* through the program, and through PLOT with the SET t5 settings */
    CHECK_EQ_INT(run_plot("t5-buckets --buckets 16 --max-distance 40 --positions 30 "
                          "--size 600x300 -o @/t5.png"), 0);
    CHECK(exists(path_in("t5.png")));
    char line[1200];
    settings.t5_buckets = 8;
    settings.t5_max_distance = 20;
    snprintf(line, sizeof line, "t5-buckets 12 %s", path_in("t5cmd.png"));
    CHECK(plot_line(line, why, sizeof why));
    CHECK(exists(path_in("t5cmd.png")));
    plot_request r2;
    char path[1024];
    cli_token t[8];
    size_t nt = split_words(line, t, 8);
    CHECK(plot_words_parse(t, nt, &settings, &r2, path, sizeof path, why, sizeof why));
    CHECK(r2.kind == PLOT_T5_BUCKETS && r2.t5_buckets == 8 && r2.t5_max_distance == 20 &&
          r2.positions == 12);
    settings.t5_buckets = 32;
    settings.t5_max_distance = 128;
    CHECK(!plot_line("t5-buckets x.png", why, sizeof why));
    CHECK(strstr(why, "PLOT t5-buckets POSITIONS FILE") != NULL);
}

/* ==== each layer's edges and failures ========================================= */

/* The message expected, "@" standing for the temporary directory. */
static const char *expand(const char *s)
{
    static char out[2048];
    size_t k = 0;
    for (; *s && k + 70 < sizeof out; s++) {
        if (*s == '@')
            k += (size_t)snprintf(out + k, sizeof out - k, "%s", dir);
        else
            out[k++] = *s;
    }
    out[k] = '\0';
    return out;
}

/* `posenc plot ARGS` must exit 2 with exactly the message
 * "posenc plot: MESSAGE\n" and leave no FILE (NULL: nothing to check). */
#define REFUSED(args, file, message) refused(__LINE__, args, file, message)
static void refused(int line, const char *args, const char *file, const char *message)
{
    int rc = run_plot(args);
    char want[2048];
    snprintf(want, sizeof want, "posenc plot: %s\n", expand(message));
    if (rc != 2 || strcmp(err_text, want) != 0) {
        fprintf(stderr, "  line %d: plot %s\n    exit %d, message '%s'\n    want 2, '%s'\n", line,
                args, rc, err_text, want);
        check__failed_checks++;
    }
    if (file && exists(path_in(file))) {
        fprintf(stderr, "  line %d: plot %s wrote %s\n", line, args, file);
        check__failed_checks++;
    }
}

/* Number of pixels in [x0, x1) x [y0, y1) that are not white. */
static int ink(const png *p, int x0, int x1, int y0, int y1)
{
    int n = 0, c[3];
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            pixel(p, x, y, c);
            n += c[0] != 255 || c[1] != 255 || c[2] != 255;
        }
    return n;
}

static void hex_rgb(unsigned hex, double rgb[3])
{
    rgb[0] = (hex >> 16 & 255) / 255.0;
    rgb[1] = (hex >> 8 & 255) / 255.0;
    rgb[2] = (hex & 255) / 255.0;
}

#define CHECK_COLOUR(cmap, t, hex)                                                      \
    do {                                                                               \
        double got_[3], want_[3];                                                      \
        plot_cmap_colour(cmap, t, got_);                                               \
        hex_rgb(hex, want_);                                                           \
        for (int c_ = 0; c_ < 3; c_++)                                                 \
            CHECK_NEAR(got_[c_], want_[c_], 1e-12);                                    \
    } while (0)

/* ---- option errors of `posenc plot` ---------------------------------------------- */

TEST(option_values_out_of_range)
{
    REFUSED("pe --positions 0 -o @/a.png", "a.png",
            "--positions: '0' is not a count of positions (1 to 1048576)");
    REFUSED("pe --positions 1048577 -o @/a.png", "a.png",
            "--positions: '1048577' is not a count of positions (1 to 1048576)");
    REFUSED("pe --positions 12x -o @/a.png", "a.png",
            "--positions: '12x' is not a count of positions (1 to 1048576)");
    REFUSED("pe --dim 1048577 -o @/a.png", "a.png", "--dim: D = 1048577: D must be from 1 to 1048576");
    REFUSED("pe --layout diagonal -o @/a.png", "a.png",
            "--layout: layout must be interleaved or half, got 'diagonal'");
    REFUSED("rope-decay --max-offset 0 -o @/a.png", "a.png",
            "--max-offset: '0' is not an offset (1 to 2147483647)");
    REFUSED("rope-decay --max-offset 2147483648 -o @/a.png", "a.png",
            "--max-offset: '2147483648' is not an offset (1 to 2147483647)");
    REFUSED("rope-decay --points 1 -o @/a.png", "a.png", "--points: '1': points must be from 2 to 4096");
    REFUSED("rope-decay --points 4097 -o @/a.png", "a.png",
            "--points: '4097': points must be from 2 to 4096");
    REFUSED("rope-decay --samples -1 -o @/a.png", "a.png",
            "--samples: '-1': samples must be from 0 to 4096");
    REFUSED("rope-decay --samples 4097 -o @/a.png", "a.png",
            "--samples: '4097': samples must be from 0 to 4096");
    REFUSED("rope-decay --seed -1 -o @/a.png", "a.png",
            "--seed: '-1' is not a seed (a non-negative integer)");
    REFUSED("rope-decay --seed 1e3 -o @/a.png", "a.png",
            "--seed: '1e3' is not a seed (a non-negative integer)");
    REFUSED("freqs --context -1 -o @/a.png", "a.png",
            "--context: '-1' is not a context length (0 to 2147483647)");
    REFUSED("freqs --context 2147483648 -o @/a.png", "a.png",
            "--context: '2147483648' is not a context length (0 to 2147483647)");
    REFUSED("t5-buckets --buckets 3 -o @/a.png", "a.png",
            "--buckets: '3': buckets must be from 4 to 1048576");
    REFUSED("t5-buckets --max-distance 1 -o @/a.png", "a.png",
            "--max-distance: '1': max distance must be from 2 to 2147483647");
    REFUSED("t5-buckets --buckets 32 --max-distance 8 -o @/a.png", "a.png",
            "32 buckets, max_distance 8: T5 needs at least 4 buckets and a max_distance above "
            "a quarter of them (up to 2147483647)");
    REFUSED("t5-buckets --positions 800 -o @/a.png", "a.png",
            "1280000 cells is too many to draw (at most 1048576)");
    REFUSED("alibi --heads 0 -o @/a.png", "a.png", "--heads: '0': heads must be from 1 to 64");
    REFUSED("alibi --heads 65 -o @/a.png", "a.png", "--heads: '65': heads must be from 1 to 64");
    REFUSED("pe --size 900 -o @/a.png", "a.png",
            "--size: '900' is not a size WIDTHxHEIGHT such as 900x600");
    REFUSED("pe --size 900x600x -o @/a.png", "a.png",
            "--size: '900x600x' is not a size WIDTHxHEIGHT such as 900x600");
    REFUSED("pe --base 10000, -o @/a.png", "a.png",
            "--base: base must be a finite number greater than 1, got ''");
    /* options that take a value, given none */
    REFUSED("pe -o", NULL, "-o needs a value");
    REFUSED("alibi --heads", NULL, "--heads needs a value");
    REFUSED("rope-decay --rope", NULL, "--rope needs a value");
}

/* Limits checked once every option is known (check_request): the same
 * exit 2 and no file. */
TEST(request_limits)
{
    REFUSED("pe --size 9000x600 -o @/a.png", "a.png",
            "size 9000x600: width must be 200 to 8000 and height 150 to 8000");
    REFUSED("pe --size 900x100 -o @/a.png", "a.png",
            "size 900x100: width must be 200 to 8000 and height 150 to 8000");
    REFUSED("pe --size 900x9000 -o @/a.png", "a.png",
            "size 900x9000: width must be 200 to 8000 and height 150 to 8000");
    /* similarity holds P x D encodings as well as the P x P matrix */
    REFUSED("similarity --positions 1000 --dim 2000 -o @/a.png", "a.png",
            "2000000 cells is too many to draw (at most 1048576)");
    REFUSED("alibi --heads 64 --positions 200 -o @/a.png", "a.png",
            "2560000 cells is too many to draw (at most 1048576)");
    REFUSED("freqs --dim 2048 -o @/a.png", "a.png",
            "D = 2048: RoPE plots need an even D from 2 to 1024");
    REFUSED("freqs --dim 1 -o @/a.png", "a.png", "D = 1: RoPE plots need an even D from 2 to 1024");
}

/* Bases: up to 6 over any number of --base options; with --rope, bases and
 * RoPEs together at most 6. */
TEST(series_limits)
{
    REFUSED("freqs --base 2,3,4,5,6,7,8 -o @/a.png", "a.png", "--base: at most 6 bases");
    REFUSED("freqs --base 2 --base 3,4,5,6,7 --base 8 -o @/a.png", "a.png",
            "--base: at most 6 bases");
    REFUSED("freqs --base 2,3,4,5,6,7 --rope linear_factor=2 -o @/a.png", "a.png",
            "at most 6 series (bases and RoPEs) on one chart");
    REFUSED("freqs --rope linear --rope linear --rope linear --rope linear --rope linear "
            "--rope linear --rope linear -o @/a.png",
            "a.png", "--rope: at most 6 model RoPEs");
    /* six bases are fine: one curve each, a dot per pair */
    CHECK_EQ_INT(run_plot("freqs --dim 8 --context 0 --base 2,3,4,5,6,7 -o @/six.svg"), 0);
    CHECK_EQ_INT(err_text[0], '\0');
    if (have_python) {
        char got[64];
        svg_query("markers", path_in("six.svg"), got, sizeof got);
        CHECK(strcmp(got, "24") == 0);
    }
}

/* --rope: the words of SET rope, its messages without the line prefix. */
TEST(rope_option_errors)
{
    REFUSED("freqs --rope off -o @/a.png", "a.png", "--rope: 'off' sets no RoPE to draw");
    REFUSED("freqs --rope _ -o @/a.png", "a.png",
            "--rope: SET rope needs a type: off, default, linear, ntk, dynamic, yarn, llama3, "
            "longrope or proportional, then key=value settings");
    REFUSED("freqs --rope linear_factor -o @/a.png", "a.png",
            "--rope: SET rope: 'factor' is not key=value");
    /* SET rope's words, 64 at most: a 65th is refused, not dropped (here
     * it would be a bad value that SET rope reports) */
    char words[1024] = "linear", a9[256];
    for (int i = 1; i < 64; i++)
        strcat(words, " factor=2");
    snprintf(a9, sizeof a9, "%s", path_in("w65.png"));
    char a0[] = "plot", a1[] = "freqs", a2[] = "--dim", a3[] = "8", a4[] = "--rope", a8[] = "-o";
    char *argv[] = {a0, a1, a2, a3, a4, words, a8, a9, NULL};
    strcat(words, "  \t"); /* 64 words and blanks: drawn */
    CHECK_EQ_INT(run_plot_argv(8, argv), 0);
    CHECK_EQ_INT(err_text[0], '\0');
    CHECK(exists(a9));
    unlink(a9);
    strcat(words, "factor=x");
    CHECK_EQ_INT(run_plot_argv(8, argv), 2);
    CHECK(strcmp(err_text, "posenc plot: --rope: more than 64 words\n") == 0);
    CHECK(!exists(a9));
    /* the first failing model is reported, after all options were read */
    REFUSED("freqs --rope linear --rope warp -o @/a.png", "a.png",
            "--rope: SET rope: unknown type 'warp' (off, default, linear, ntk, dynamic, yarn, "
            "llama3, longrope, proportional)");
}

/* --rope with head_dim= of its own, and words apart by tabs and several
 * spaces: a series of head_dim 8 next to the D = 16 base: 4 + 8 dots. */
TEST(rope_option_words)
{
    char a0[] = "plot", a1[] = "freqs", a2[] = "--dim", a3[] = "16", a4[] = "--context",
         a5[] = "0", a6[] = "--base", a7[] = "10000", a8[] = "--rope",
         a9[] = "  linear \thead_dim=8\t\tfactor=2  ", a10[] = "--output", a11[256];
    snprintf(a11, sizeof a11, "%s", path_in("words.svg"));
    char *argv[] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, NULL};
    CHECK_EQ_INT(run_plot_argv(12, argv), 0);
    CHECK_EQ_INT(err_text[0], '\0');
    if (have_python) {
        char got[64];
        svg_query("markers", path_in("words.svg"), got, sizeof got);
        CHECK(strcmp(got, "12") == 0);
    }
}

/* --help anywhere prints the usage and exits 0 without drawing; the flags
 * --log, --no-causal and --output are taken. */
TEST(help_and_flags)
{
    fflush(stdout);
    FILE *saved = stdout, *cap = tmpfile();
    CHECK(cap != NULL);
    if (!cap)
        return;
    stdout = cap;
    int rc1 = run_plot("--help");
    int rc2 = run_plot("pe --dim 4 --help -o @/help.png");
    stdout = saved;
    rewind(cap);
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, cap);
    text[n] = '\0';
    fclose(cap);
    CHECK_EQ_INT(rc1, 0);
    CHECK_EQ_INT(rc2, 0);
    CHECK(!exists(path_in("help.png")));
    CHECK(strncmp(text, "usage: posenc plot KIND [OPTIONS] -o FILE\n", 42) == 0);
    /* printed twice, and each copy ends with the exit status line */
    const char *end = "written then).\n";
    char *first = strstr(text, end);
    CHECK(first != NULL && strstr(first + 1, end) != NULL &&
          strcmp(text + n - strlen(end), end) == 0);
    CHECK(strstr(text, "  --no-causal        alibi: show keys after the query too\n") != NULL);

    /* --linear then --log: the last one wins (log axis from offset 1) */
    CHECK_EQ_INT(run_plot("rope-decay --dim 4 --samples 0 --linear --log --max-offset 10 "
                          "--points 4 --seed 7 --output @/log.png"),
                 0);
    CHECK(exists(path_in("log.png")));

    /* --title replaces the title: an empty one leaves the top strip white */
    CHECK_EQ_INT(run_plot("freqs --dim 4 --size 400x300 -o @/t1.png"), 0);
    char b0[] = "plot", b1[] = "freqs", b2[] = "--dim", b3[] = "4", b4[] = "--size",
         b5[] = "400x300", b6[] = "--title", b7[] = "", b8[] = "-o", b9[256];
    snprintf(b9, sizeof b9, "%s", path_in("t2.png"));
    char *bv[] = {b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, NULL};
    CHECK_EQ_INT(run_plot_argv(10, bv), 0);
    png t;
    CHECK(png_open(&t, path_in("t1.png")));
    if (t.data) {
        CHECK(ink(&t, 0, 400, 8, 34) > 100);
        cairo_surface_destroy(t.s);
    }
    CHECK(png_open(&t, path_in("t2.png")));
    if (t.data) {
        CHECK_EQ_INT(ink(&t, 0, 400, 8, 34), 0);
        cairo_surface_destroy(t.s);
    }

    /* --no-causal: the key after the query has its bias, not the grey mask.
     * One head: slope 2^-8 ... ALiBi with H = 1 has m = 2^-8 / 1 = 1/256. */
    CHECK_EQ_INT(run_plot("alibi --heads 1 --positions 2 --no-causal --size 400x300 -o @/nc.png"), 0);
    png p;
    CHECK(png_open(&p, path_in("nc.png")));
    if (!p.data)
        return;
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_ALIBI);
    rq.heads = 1;
    rq.positions = 2;
    rq.causal = 0;
    rq.width = 400;
    rq.height = 300;
    rq.out = "x.png";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (b) {
        const plot_figure *f = plot_built_figure(b);
        /* both off-diagonal cells are -m and the darkest; the diagonal is 0 */
        CHECK_NEAR(f->maps[0].v[1], -1.0 / 256, 0);
        CHECK_NEAR(f->vmin, -1.0 / 256, 0);
        CHECK(strcmp(f->subtitle, "every key j; one colour scale for all heads") == 0);
        double darkest[3], zero[3], x, y;
        plot_cmap_colour(PLOT_CMAP_NEGATIVE, -1, darkest);
        plot_cmap_colour(PLOT_CMAP_NEGATIVE, 0, zero);
        plot_cell_centre(f, 0, 0, 1, &x, &y);
        CHECK(pixel_is(&p, x, y, darkest));
        plot_cell_centre(f, 0, 1, 0, &x, &y);
        CHECK(pixel_is(&p, x, y, darkest));
        plot_cell_centre(f, 0, 1, 1, &x, &y);
        CHECK(pixel_is(&p, x, y, zero));
        plot_built_free(b);
    }
    cairo_surface_destroy(p.s);
}

/* ---- plot_build: requests only C callers can make ---------------------------------- */

static void build_refused(int line, const plot_request *rq, const char *message)
{
    char why[256] = "";
    plot_built *b = plot_build(rq, why, sizeof why);
    if (b || strcmp(why, message) != 0) {
        fprintf(stderr, "  line %d: plot_build gave %s '%s', want NULL '%s'\n", line,
                b ? "a figure" : "NULL", why, message);
        check__failed_checks++;
    }
    plot_built_free(b);
}
#define BUILD_REFUSED(rq, message) build_refused(__LINE__, rq, message)

TEST(build_refuses_bad_requests)
{
    plot_request rq;
    plot_request_defaults(&rq, PLOT_PE);
    rq.out = "x.png";
    rq.dim = POSENC_MAX_DIM + 1;
    BUILD_REFUSED(&rq, "D = 1048577: D must be from 1 to 1048576");
    plot_request_defaults(&rq, PLOT_PE);
    rq.out = "x.png";
    rq.positions = 0;
    BUILD_REFUSED(&rq, "positions must be at least 1");
    rq.positions = 4;
    rq.base[0] = 1; /* the library refuses the base */
    BUILD_REFUSED(&rq, "PE: base must be finite and greater than 1");
    rq.kind = PLOT_SIMILARITY;
    BUILD_REFUSED(&rq, "PE: base must be finite and greater than 1");
    rq.base[0] = 10000;
    rq.out = NULL;
    BUILD_REFUSED(&rq, "no file name: give one ending in .png, .svg or .pdf");
    rq.out = "x.png";
    rq.kind = (plot_kind)99;
    BUILD_REFUSED(&rq, "unknown kind of plot");

    plot_request_defaults(&rq, PLOT_ALIBI);
    rq.out = "x.png";
    rq.heads = 0;
    BUILD_REFUSED(&rq, "heads = 0: heads must be from 1 to 64");
    rq.heads = 65;
    BUILD_REFUSED(&rq, "heads = 65: heads must be from 1 to 64");

    plot_request_defaults(&rq, PLOT_ROPE_DECAY);
    rq.out = "x.svg";
    rq.max_offset = 0;
    BUILD_REFUSED(&rq, "max offset must be from 1 to 2147483647");
    rq.max_offset = POSENC_MAX_POS + 1;
    BUILD_REFUSED(&rq, "max offset must be from 1 to 2147483647");
    rq.max_offset = 100;
    rq.points = 1;
    BUILD_REFUSED(&rq, "points must be from 2 to 4096");
    rq.points = 4097;
    BUILD_REFUSED(&rq, "points must be from 2 to 4096");
    rq.points = 10;
    rq.samples = 4097;
    BUILD_REFUSED(&rq, "samples must be from 0 to 4096");
    rq.samples = 0;
    rq.n_base = 0;
    BUILD_REFUSED(&rq, "no series to draw: give a base or a RoPE");
    rq.n_base = 1;
    rq.base[0] = 0.5;
    BUILD_REFUSED(&rq, "RoPE: base must be finite and greater than 1");
    rq.kind = PLOT_FREQS;
    BUILD_REFUSED(&rq, "RoPE: base must be finite and greater than 1");
    rq.base[0] = 10000;

    /* a series with neither a RoPE nor a config */
    rq.n_rope = 1;
    BUILD_REFUSED(&rq, "series 'model RoPE' has no RoPE");
    rq.rope_label[0] = "mine";
    BUILD_REFUSED(&rq, "series 'mine' has no RoPE");
    /* a config the library refuses: rotary_dim odd */
    posenc_rope_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.head_dim = 8;
    cfg.rotary_dim = 3;
    cfg.base = 10000;
    CHECK(posenc_rope_scaling_init(&cfg.scaling, POSENC_ROPE_DEFAULT) == POSENC_OK);
    rq.rope_config[0] = &cfg;
    BUILD_REFUSED(&rq, "RoPE of 'mine': argument out of range");
    rq.kind = PLOT_ROPE_DECAY;
    BUILD_REFUSED(&rq, "RoPE of 'mine': argument out of range");
    rq.rope_config[0] = NULL;

    /* a posenc_rope the library refuses to use: rope-decay's dot product
     * says so; freqs finds it is not plain RoPE and cannot build the plain
     * one to compare with (its base is not > 1) */
    posenc_rope r;
    CHECK_EQ_INT(posenc_rope_init(&r, 8, 8, 10000, POSENC_LAYOUT_INTERLEAVED), POSENC_OK);
    r.attn_factor = NAN;
    rq.rope[0] = &r;
    rq.dim = 8;
    BUILD_REFUSED(&rq, "DOT: argument out of range");
    r.attn_factor = 1;
    r.base = 1;
    rq.kind = PLOT_FREQS;
    BUILD_REFUSED(&rq, "RoPE: base must be finite and greater than 1");
}

/* The title option, and the subtitles that tell the layout or that models
 * are drawn. */
TEST(build_titles)
{
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_ROPE_DECAY);
    rq.out = "x.png";
    rq.dim = 4;
    rq.samples = 0;
    rq.points = 3;
    rq.max_offset = 4;
    rq.layout = POSENC_LAYOUT_HALF;
    rq.title = "My title";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK(strcmp(f->title, "My title") == 0);
    CHECK(strcmp(f->subtitle, "ROPE(m, q) . ROPE(n, k) / (|q| |k|) at offset m - n; half layout") ==
          0);
    /* 3 points from 1 to 4 on a log axis: round(4^0, 4^0.5, 4^1) = 1, 2, 4 */
    CHECK_EQ_INT(f->curves[0].n, 3);
    CHECK_NEAR(f->curves[0].x[1], 2, 0);
    plot_built_free(b);

    /* a plain model RoPE next to the base: no attention factor */
    posenc_rope r;
    CHECK_EQ_INT(posenc_rope_init(&r, 4, 4, 500, POSENC_LAYOUT_HALF), POSENC_OK);
    rq.rope[0] = &r;
    rq.n_rope = 1;
    rq.title = NULL;
    b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    f = plot_built_figure(b);
    CHECK(strcmp(f->title, "RoPE: score of the same query and key against their offset") == 0);
    CHECK(strcmp(f->subtitle, "ROPE(m, q) . ROPE(n, k) / (|q| |k|) at offset m - n") == 0);
    CHECK(strcmp(f->curves[1].label, "model RoPE, D = 4: q = k = ones") == 0);
    plot_built_free(b);

    /* freqs of that RoPE alone: plain, so no dashed twin; pair k of base 500
     * and D = 4 turns in 2 pi 500^(k/2) tokens; the context line at 10 sets
     * the bottom of the log axis to 1 */
    rq.kind = PLOT_FREQS;
    rq.n_base = 0;
    rq.context = 10;
    b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_curves, 1);
    CHECK_NEAR(f->curves[0].y[1] / (6.283185307179586 * sqrt(500.0)), 1, 1e-15);
    CHECK_NEAR(f->ymin, 1, 0);
    CHECK_NEAR(f->ymax, 1000, 0);
    CHECK(strcmp(f->subtitle, "wavelength = 2 pi / inv_freq(k) = 2 pi base^(2k/D) tokens per "
                              "full turn") == 0);
    plot_built_free(b);
}

/* A scaled model series gets a dashed twin with its frequencies before
 * scaling, unless a plain series of the same base and rotary_dim is already
 * on the chart. Linear x4 of base 100, D = 8: wavelengths 4 times those of
 * base 100, 2 pi 100^(k/4). */
TEST(freqs_plain_twin)
{
    posenc_rope_config lin;
    memset(&lin, 0, sizeof lin);
    lin.head_dim = lin.rotary_dim = 8;
    lin.base = 100;
    CHECK(posenc_rope_scaling_init(&lin.scaling, POSENC_ROPE_LINEAR) == POSENC_OK);
    lin.scaling.factor = 4;
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_FREQS);
    rq.out = "x.png";
    rq.dim = 8;
    rq.base[0] = 50;
    rq.base[1] = 100;
    rq.n_base = 2;
    rq.context = 0;
    rq.rope_config[0] = &lin;
    rq.rope_label[0] = "lin";
    rq.n_rope = 1;
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    /* base 50, base 100, linear x4 of base 100: no twin */
    CHECK_EQ_INT(f->n_curves, 3);
    CHECK_EQ_INT(f->n_hlines, 0);
    if (f->n_curves == 3) {
        CHECK(strcmp(f->curves[2].label, "lin (linear), rotary_dim 8") == 0);
        for (size_t k = 0; k < 4; k++) {
            CHECK_NEAR(f->curves[1].y[k] / (6.283185307179586 * pow(100, k / 4.0)), 1, 1e-15);
            CHECK_NEAR(f->curves[2].y[k] / f->curves[1].y[k], 4, 1e-13);
        }
    }
    plot_built_free(b);
    /* only base 50 next to it: the twin is drawn, dashed, without dots */
    rq.n_base = 1;
    b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_curves, 3);
    if (f->n_curves == 3) {
        CHECK(strcmp(f->curves[2].label, "lin before scaling (base 100)") == 0);
        CHECK(f->curves[2].dashed && !f->curves[2].markers);
        for (size_t k = 0; k < 4; k++)
            CHECK_NEAR(f->curves[2].y[k] / (6.283185307179586 * pow(100, k / 4.0)), 1, 1e-15);
    }
    CHECK(strstr(f->subtitle, "dashed: before the scaling") != NULL);
    plot_built_free(b);
}

/* rotary_dims that differ: the x axis is 2k / rotary_dim, so the pairs of
 * the same base frequency line up. */
TEST(freqs_fractional_axis)
{
    posenc_rope r;
    CHECK_EQ_INT(posenc_rope_init(&r, 16, 8, 10000, POSENC_LAYOUT_INTERLEAVED), POSENC_OK);
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_FREQS);
    rq.out = "x.png";
    rq.dim = 16;
    rq.rope[0] = &r;
    rq.n_rope = 1;
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_curves, 2);
    CHECK_NEAR(f->xmax, 1, 0);
    CHECK_NEAR(f->curves[0].x[3], 6.0 / 16, 0);
    CHECK_NEAR(f->curves[1].x[3], 6.0 / 8, 0);
    /* the same wavelength at the same x: 2 pi 10000^x */
    CHECK_NEAR(f->curves[0].y[4] / f->curves[1].y[2], 1, 1e-15);
    CHECK(strncmp(f->xlabel, "pair position 2k / rotary_dim", 29) == 0);
    plot_built_free(b);
}

/* ALiBi head counts that are not a power of two (posenc.h): five heads are
 * the four of H = 4 (2^-2, 2^-4, 2^-6, 2^-8) and then m_1 of H = 8 (2^-1);
 * sixteen heads have slopes 2^(-h/2), the first not 1/integer, so titled
 * by its value. Grids: 4 wide up to 16 heads, then 8. */
TEST(alibi_head_titles)
{
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_ALIBI);
    rq.out = "x.png";
    rq.heads = 5;
    rq.positions = 3;
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_maps, 5);
    CHECK_EQ_INT(f->grid_cols, 4);
    CHECK(strcmp(f->maps[0].title, "head 1: m = 1/4") == 0);
    CHECK(strcmp(f->maps[3].title, "head 4: m = 1/256") == 0);
    CHECK(strcmp(f->maps[4].title, "head 5: m = 1/2") == 0);
    CHECK_NEAR(f->maps[4].v[2 * 3 + 0], -1, 0); /* i = 2, j = 0 */
    plot_built_free(b);
    rq.heads = 16;
    b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    f = plot_built_figure(b);
    CHECK_EQ_INT(f->grid_cols, 4);
    CHECK(strcmp(f->maps[0].title, "head 1: m = 0.707") == 0);
    CHECK(strcmp(f->maps[1].title, "head 2: m = 1/2") == 0);
    CHECK_NEAR(f->maps[0].v[1 * 3 + 0], -sqrt(0.5), 1e-15);
    plot_built_free(b);
    rq.heads = 20;
    b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (b) {
        CHECK_EQ_INT(plot_built_figure(b)->grid_cols, 8);
        plot_built_free(b);
    }
}

/* ---- PLOT in the command language (its words, read by the plot module) ------------------------------------------------ */

/* PLOT WORDS must fail with exactly MESSAGE (the whole message the
 * interpreter prints after "posenc: line N: ") and leave no FILE. */
#define PLOT_REFUSED(line, file, message) plot_refused(__LINE__, line, file, message)
static void plot_refused(int at, const char *line, const char *file, const char *message)
{
    char why[2048], want[2048], words[2048];
    snprintf(words, sizeof words, "%s", expand(line));
    snprintf(want, sizeof want, "%s", expand(message));
    int ok = plot_line(words, why, sizeof why);
    if (ok || strcmp(why, want) != 0) {
        fprintf(stderr, "  line %d: PLOT %s\n    status %d, message '%s'\n    want 0, '%s'\n", at,
                words, ok, why, want);
        check__failed_checks++;
    }
    if (file && exists(path_in(file))) {
        fprintf(stderr, "  line %d: PLOT %s wrote %s\n", at, words, file);
        check__failed_checks++;
    }
}

TEST(plot_command_errors)
{
    PLOT_REFUSED("", NULL, "PLOT needs a kind: pe, similarity, rope-decay, freqs, alibi or t5-buckets");
    PLOT_REFUSED("pe 4 @/c.png", "c.png", "PLOT pe takes 3 words: PLOT pe POSITIONS D FILE");
    PLOT_REFUSED("freqs 8 9 @/c.png", "c.png", "PLOT freqs takes 2 words: PLOT freqs D FILE");
    PLOT_REFUSED("pe 0 6 @/c.png", "c.png",
                 "PLOT: positions '0' must be an integer from 1 to 1048576");
    PLOT_REFUSED("similarity 4 abc @/c.png", "c.png",
                 "PLOT: D 'abc' must be an integer from 1 to 1048576");
    PLOT_REFUSED("rope-decay 0 100 @/c.png", "c.png",
                 "PLOT: D '0' must be an integer from 1 to 1048576");
    PLOT_REFUSED("rope-decay 8 0 @/c.png", "c.png",
                 "PLOT: max offset '0' must be an integer from 1 to 2147483647");
    PLOT_REFUSED("freqs -2 @/c.png", "c.png", "PLOT: D '-2' must be an integer from 1 to 1048576");
    PLOT_REFUSED("alibi 65 4 @/c.png", "c.png", "PLOT: H '65' must be an integer from 1 to 64");
    PLOT_REFUSED("alibi 4 0 @/c.png", "c.png",
                 "PLOT: positions '0' must be an integer from 1 to 1048576");
    /* a long word is shown by its first 40 bytes */
    PLOT_REFUSED("pe 12345678901234567890123456789012345678901234567890 6 @/c.png", "c.png",
                 "PLOT: positions '1234567890123456789012345678901234567890...' must be an integer "
                 "from 1 to 1048576");
    /* requests refused when drawing is asked for */
    PLOT_REFUSED("pe 4 6 @/c.txt", "c.txt",
                 "PLOT: '@/c.txt': the file name must end in .png, .svg or .pdf");
    PLOT_REFUSED("rope-decay 7 100 @/c.png", "c.png",
                 "PLOT: D = 7: RoPE plots need an even D from 2 to 1024");
    PLOT_REFUSED("similarity 1100 4 @/c.png", "c.png",
                 "PLOT: 1210000 cells is too many to draw (at most 1048576)");
    PLOT_REFUSED("pe 4 6 @/no/such/dir/c.png", NULL,
                 "PLOT: cannot write '@/no/such/dir/c.png': No such file or directory");
    /* a file name of 1024 bytes or more */
    char line[1200];
    memset(line, 'a', sizeof line);
    memcpy(line, "freqs 8 ", 8);
    memcpy(line + sizeof line - 5, ".png", 5);
    PLOT_REFUSED(line, NULL, "PLOT: the file name is too long");
}

TEST(plot_command_pictures)
{
    char msg[512], line[512];
    /* alibi: 1000 x 560 by default; head 1 of 4 has slope 1/4, its corner
     * (i = 4, j = 0) is -1, the darkest; the key after the query is grey */
    snprintf(line, sizeof line, "alibi 4 5 %s", path_in("cmd-alibi.png"));
    CHECK(plot_line(line, msg, sizeof msg));
    CHECK_EQ_INT(msg[0], '\0');
    png p;
    CHECK(png_open(&p, path_in("cmd-alibi.png")));
    if (p.data) {
        CHECK_EQ_INT(p.w, 1000);
        CHECK_EQ_INT(p.h, 560);
        plot_request rq;
        char why[256];
        plot_request_defaults(&rq, PLOT_ALIBI);
        rq.heads = 4;
        rq.positions = 5;
        rq.out = "x.png";
        plot_built *b = plot_build(&rq, why, sizeof why);
        CHECK(b != NULL);
        if (b) {
            double darkest[3], grey[3] = {0xdd / 255.0, 0xdd / 255.0, 0xdd / 255.0}, x, y;
            plot_cmap_colour(PLOT_CMAP_NEGATIVE, -1, darkest);
            plot_cell_centre(plot_built_figure(b), 0, 4, 0, &x, &y);
            CHECK(pixel_is(&p, x, y, darkest));
            plot_cell_centre(plot_built_figure(b), 3, 0, 1, &x, &y);
            CHECK(pixel_is(&p, x, y, grey));
            plot_built_free(b);
        }
        cairo_surface_destroy(p.s);
    }
    /* a model RoPE is ignored by pe (it has no RoPE): the picture is the
     * plain sinusoid; at position 0, odd dimensions are cos 0 = +1 */
    CHECK(set_rope("linear head_dim=8 factor=2", msg, sizeof msg));
    snprintf(line, sizeof line, "pe 3 4 %s", path_in("cmd-pe.png"));
    CHECK(plot_line(line, msg, sizeof msg));
    CHECK(png_open(&p, path_in("cmd-pe.png")));
    if (p.data) {
        plot_request rq;
        char why[256];
        plot_request_defaults(&rq, PLOT_PE);
        rq.positions = 3;
        rq.dim = 4;
        rq.out = "x.png";
        plot_built *b = plot_build(&rq, why, sizeof why);
        CHECK(b != NULL);
        if (b) {
            double plus1[3], zero[3], x, y;
            plot_cmap_colour(PLOT_CMAP_DIVERGING, 1, plus1);
            plot_cmap_colour(PLOT_CMAP_DIVERGING, 0, zero);
            for (size_t i = 0; i < 4; i++) {
                plot_cell_centre(plot_built_figure(b), 0, 0, i, &x, &y);
                CHECK(pixel_is(&p, x, y, i % 2 ? plus1 : zero));
            }
            plot_built_free(b);
        }
        cairo_surface_destroy(p.s);
    }
    CHECK(set_rope("off", msg, sizeof msg));
}

/* ---- figures drawn straight through plot_draw_file ----------------------------------- */

TEST(colour_maps_clamp)
{
    CHECK_COLOUR(PLOT_CMAP_DIVERGING, NAN, 0xf7f7f7); /* not a number: drawn as 0 */
    CHECK_COLOUR(PLOT_CMAP_DIVERGING, -3, 0x2166ac);
    CHECK_COLOUR(PLOT_CMAP_NEGATIVE, 0.5, 0xf7fbff); /* above 0: as 0 */
    CHECK_COLOUR(PLOT_CMAP_NEGATIVE, -2, 0x08306b);  /* below -1: as -1 */
    CHECK_COLOUR(PLOT_CMAP_NEGATIVE, NAN, 0xf7fbff);
    CHECK_COLOUR(PLOT_CMAP_NEGATIVE, -0.5, 0x6baed6);
    CHECK_COLOUR(PLOT_CMAP_SEQUENTIAL, -1, 0x440154);
    CHECK_COLOUR(PLOT_CMAP_SEQUENTIAL, 2, 0xfde725);
    CHECK_COLOUR(PLOT_CMAP_SEQUENTIAL, 0.5, 0x21918c);
    /* halfway between two stops: the mean of their colours */
    double got[3];
    plot_cmap_colour(PLOT_CMAP_SEQUENTIAL, 0.125, got);
    CHECK_NEAR(got[0] * 255, (0x44 + 0x3b) / 2.0, 1e-9);
    CHECK_NEAR(got[1] * 255, (0x01 + 0x52) / 2.0, 1e-9);
    CHECK_NEAR(got[2] * 255, (0x54 + 0x8b) / 2.0, 1e-9);
    CHECK_EQ_INT(plot_format_of("a.Svg"), PLOT_FMT_SVG);
    CHECK_EQ_INT(plot_format_of("a.PDF"), PLOT_FMT_PDF);
    CHECK_EQ_INT(plot_format_of("png"), -1);
}

/* One heatmap panel of 1 x 3 values, 600 x 400, labels optional. */
static plot_figure heat_figure(const plot_heatmap *m, int cmap, double vmin, double vmax,
                               int labelled)
{
    plot_figure f;
    memset(&f, 0, sizeof f);
    snprintf(f.title, sizeof f.title, "test");
    f.width = 600;
    f.height = 400;
    f.n_maps = 1;
    f.maps = m;
    f.cmap = cmap;
    f.vmin = vmin;
    f.vmax = vmax;
    if (labelled) {
        f.xlabel = "XXXXXXXX";
        f.ylabel = "YYYYYYYY";
        f.cbar_label = "CCCCCCCC";
    }
    return f;
}

/* Values outside the map's range take its end colours; a zero range is
 * drawn with scale 1; a missing axis or colour-bar label leaves its place
 * white. The title is the only text at the top, so the axis names sit in
 * known strips: y name around x = 24, x name 28 px under the panel, colour
 * bar name 52 px right of the bar. */
TEST(draw_heatmap_corners)
{
    double v[3] = {0.5, -2, NAN};
    plot_heatmap m = {1, 3, v, NULL, ""};
    static const struct {
        int cmap;
        double vmin, vmax;
        unsigned want[3];
    } cases[] = {
        /* diverging, vmax 0: scale 1, so 0.5 sits at 0.75 of the map (the
         * stop #f4a582), -2 is clamped to -1, NaN drawn as 0 */
        {PLOT_CMAP_DIVERGING, 0, 0, {0xf4a582, 0x2166ac, 0xf7f7f7}},
        /* negative, vmin -1: 0.5 is above 0 (as 0), -2 as -1 */
        {PLOT_CMAP_NEGATIVE, -1, 0, {0xf7fbff, 0x08306b, 0xf7fbff}},
        /* sequential, vmin = vmax = 0.5: scale 1, 0.5 is the bottom */
        {PLOT_CMAP_SEQUENTIAL, 0.5, 0.5, {0x440154, 0x440154, 0x440154}},
    };
    for (int c = 0; c < 3; c++) {
        for (int labelled = 0; labelled < 2; labelled++) {
            plot_figure f = heat_figure(&m, cases[c].cmap, cases[c].vmin, cases[c].vmax, labelled);
            char why[256] = "", name[32];
            snprintf(name, sizeof name, "heat%d%d.png", c, labelled);
            CHECK_EQ_INT(plot_draw_file(&f, path_in(name), why, sizeof why), 1);
            CHECK_EQ_INT(why[0], '\0');
            png p;
            CHECK(png_open(&p, path_in(name)));
            if (!p.data)
                continue;
            CHECK_EQ_INT(p.w, 600);
            CHECK_EQ_INT(p.h, 400);
            double x, y, want[3];
            for (size_t k = 0; k < 3; k++) {
                plot_cell_centre(&f, 0, 0, k, &x, &y);
                hex_rgb(cases[c].want[k], want);
                CHECK(pixel_is(&p, x, y, want));
            }
            /* panel: x 78 .. 490, y 50 .. 342; bar at x 512 .. 528 */
            int y_ink = ink(&p, 14, 34, 150, 250), x_ink = ink(&p, 230, 340, 372, 388),
                c_ink = ink(&p, 572, 590, 150, 250);
            if (labelled) {
                CHECK(y_ink > 20 && x_ink > 20 && c_ink > 20);
            } else {
                CHECK_EQ_INT(y_ink, 0);
                CHECK_EQ_INT(x_ink, 0);
                CHECK_EQ_INT(c_ink, 0);
            }
            cairo_surface_destroy(p.s);
        }
    }
}

/* More rows and columns than pixels: rows that would be thinner than a
 * pixel share it, and the panel has no seam: every pixel inside it is a
 * colour of the map, none the white background. */
TEST(draw_more_cells_than_pixels)
{
    CHECK_EQ_INT(run_plot("pe --positions 1000 --dim 300 --size 200x150 -o @/dense.png"), 0);
    png p;
    CHECK(png_open(&p, path_in("dense.png")));
    if (!p.data)
        return;
    CHECK_EQ_INT(p.w, 200);
    CHECK_EQ_INT(p.h, 150);
    /* panel: x 78 .. 90 (200 - 78 - 110 = 12 px), y 68 .. 92 (150 - 68 - 58) */
    CHECK_EQ_INT(ink(&p, 79, 89, 69, 91), 10 * 22);
    cairo_surface_destroy(p.s);
}

/* Curves: points that are not finite, or not positive on a log axis,
 * break the line and get no marker; a curve without a label gets no
 * legend entry, and without any label there is no legend box. */
TEST(draw_curve_corners)
{
    /* log x: x = 0 and the NaN are left out; 9 points in runs of 3 and 6 */
    double x1[] = {0, 1, 1.5, 2, NAN, 3, 4, 6, 8, 12, 16}, y1[] = {1, 3, 1, 4, 5, 1, 4, 2, 5, 1, 3};
    /* linear x from -5 to 5, log y: y = -1 is left out; y spans 1 .. 1e9 */
    double x2[] = {-4, -3, -2, -1, 0, 1, 2, 3, 4}, y2[] = {1, 10, -1, 100, 10, 1e3, 1e5, 1e4, 1e9};
    plot_curve c1[1] = {{11, x1, y1, 0, 0, 1, ""}};
    plot_figure f;
    memset(&f, 0, sizeof f);
    snprintf(f.title, sizeof f.title, "curves");
    f.width = 600;
    f.height = 400;
    f.n_curves = 1;
    f.curves = c1;
    f.xlog = 1;
    f.xmin = 1;
    f.xmax = 16;
    f.ymin = -1;
    f.ymax = 6;
    char why[256] = "", got[128];
    CHECK_EQ_INT(plot_draw_file(&f, path_in("c1.svg"), why, sizeof why), 1);
    CHECK_EQ_INT(plot_draw_file(&f, path_in("c1.png"), why, sizeof why), 1);
    if (have_python) { /* (the frame is a path of 5: M L L L Z M) */
        svg_query("curves 6", path_in("c1.svg"), got, sizeof got);
        CHECK(strcmp(got, "9") == 0); /* M L L M L L L L L */
        svg_query("markers", path_in("c1.svg"), got, sizeof got);
        CHECK(strcmp(got, "9") == 0);
    }
    png p;
    CHECK(png_open(&p, path_in("c1.png")));
    if (p.data) { /* no labels: the y name's strip is white */
        CHECK_EQ_INT(ink(&p, 12, 32, 120, 280), 0);
        cairo_surface_destroy(p.s);
    }

    plot_curve c2[2] = {{9, x2, y2, 2, 0, 1, "log y"}, {11, x1, y1, 3, 1, 0, ""}};
    f.curves = c2;
    f.n_curves = 2;
    f.xlog = 0;
    f.ylog = 1;
    f.xmin = -5;
    f.xmax = 5;
    f.ymin = 0.5;
    f.ymax = 5e9;
    f.legend_left = 1;
    f.xlabel = "x";
    f.ylabel = "YYYYYYYY";
    CHECK_EQ_INT(plot_draw_file(&f, path_in("c2.svg"), why, sizeof why), 1);
    CHECK_EQ_INT(plot_draw_file(&f, path_in("c2.png"), why, sizeof why), 1);
    if (have_python) {
        /* curve 1: 8 points in runs of 2 and 6; curve 2 (linear x, so 0
         * counts): its 10 finite points, the dashes drawn as one path */
        svg_query("curves 6", path_in("c2.svg"), got, sizeof got);
        CHECK(strcmp(got, "8 10") == 0);
        svg_query("markers", path_in("c2.svg"), got, sizeof got);
        CHECK(strcmp(got, "8") == 0);
    }
    CHECK(png_open(&p, path_in("c2.png")));
    if (p.data) {
        CHECK(ink(&p, 12, 32, 120, 280) > 20);
        cairo_surface_destroy(p.s);
    }
}

/* plot_draw_file refuses what it cannot write, and writes nothing. */
TEST(draw_failures)
{
    double v[1] = {0};
    plot_heatmap m = {1, 1, v, NULL, ""};
    plot_figure f = heat_figure(&m, PLOT_CMAP_DIVERGING, -1, 1, 1);
    char why[512] = "", want[512];
    CHECK_EQ_INT(plot_draw_file(&f, path_in("f.gif"), why, sizeof why), 0);
    snprintf(want, sizeof want, "'%s': the file name must end in .png, .svg or .pdf",
             path_in("f.gif"));
    CHECK(strcmp(why, want) == 0);
    CHECK(!exists(path_in("f.gif")));
    /* a size Cairo refuses: its own reason */
    f.width = -1;
    snprintf(want, sizeof want, "drawing failed: %s",
             cairo_status_to_string(CAIRO_STATUS_INVALID_SIZE));
    CHECK_EQ_INT(plot_draw_file(&f, path_in("neg.png"), why, sizeof why), 0);
    CHECK(strcmp(why, want) == 0);
    CHECK(!exists(path_in("neg.png")));
    /* a write that fails when the file is closed (a full disk): the name
     * is a link to /dev/full */
    if (symlink("/dev/full", path_in("full.png")) == 0) {
        REFUSED("pe --dim 4 --positions 4 -o @/full.png", NULL, "error writing '@/full.png'");
        struct stat sb;
        CHECK(stat("/dev/full", &sb) == 0 && S_ISCHR(sb.st_mode)); /* the device stays */
        unlink(path_in("full.png"));
    } else {
        fprintf(stderr, "plot: /dev/full check skipped: cannot link to it\n");
    }
}

/* ---- allocation failures ------------------------------------------------------------ */

/* Runs `posenc plot ARGS` with the k-th allocation of posenc's code failing,
 * for k = 0, 1, 2 ... until a run makes as many allocations as it needs:
 * each failed run exits 2 saying "out of memory" and writes nothing; the
 * last one writes the picture. Returns how many runs failed. */
static int each_allocation_fails(const char *args, const char *file)
{
    int failures = 0;
    for (long k = 0; k < 200; k++) {
        alloc_failed = 0;
        alloc_countdown = k;
        int rc = run_plot(args);
        alloc_countdown = -1;
        if (!alloc_failed) { /* every allocation was made: the picture */
            CHECK_EQ_INT(rc, 0);
            CHECK(exists(path_in(file)));
            unlink(path_in(file));
            return failures;
        }
        failures++;
        if (rc != 2 || strncmp(err_text, "posenc plot: ", 13) != 0 ||
            !strstr(err_text, "out of memory") || exists(path_in(file))) {
            fprintf(stderr, "  plot %s, allocation %ld failing: exit %d, '%s'\n", args, k, rc,
                    err_text);
            check__failed_checks++;
            unlink(path_in(file));
        }
    }
    CHECK(0); /* more than 200 allocations */
    return failures;
}

TEST(out_of_memory)
{
    /* plot_build's figure, then each kind's numbers */
    CHECK(each_allocation_fails("pe --positions 3 --dim 4 -o @/m.png", "m.png") >= 2);
    CHECK(each_allocation_fails("similarity --positions 3 --dim 4 -o @/m.png", "m.png") >= 2);
    CHECK(each_allocation_fails("alibi --heads 2 --positions 3 -o @/m.png", "m.png") >= 3);
    /* the models array, the --rope model, the series, the numbers */
    CHECK(each_allocation_fails("rope-decay --dim 4 --max-offset 8 --points 3 --samples 1 "
                                "--rope linear_factor=2 -o @/m.png",
                                "m.png") >= 4);
    CHECK(each_allocation_fails("freqs --dim 4 --rope linear_factor=2 -o @/m.png", "m.png") >= 4);
    /* SVG goes through a growing buffer: its growth fails too */
    CHECK(each_allocation_fails("freqs --dim 4 -o @/m.svg", "m.svg") >= 4);
}

int main(void)
{
    if (!harness_start("/tmp/posenc-plot-XXXXXX"))
        return 1;
    RUN(colour_maps);
    RUN(pe_png_pixels_and_size);
    RUN(alibi_png_pixels);
    RUN(alibi_values);
    RUN(t5_buckets_values);
    RUN(rope_decay_values_are_cos_for_d2);
    RUN(rope_decay_values_d128);
    RUN(freqs_values);
    RUN(freqs_takes_a_posenc_rope);
    n_golden = golden_read("tests/data/rope_golden.txt", golden, GOLDEN_MAX_CASES);
    CHECK(n_golden > 0);
    RUN(freqs_of_llama3_config_match_golden);
    RUN(freqs_of_yarn_ramp);
    RUN(rope_decay_of_llama3_small);
    RUN(rope_decay_divides_out_attention_factor);
    if (have_python) {
        RUN(svg_heatmap_cells);
        RUN(svg_curve_points);
    } else {
        check_skip("plot", 2, "the SVG checks: python3 (xml.etree) not found", "python3");
    }
    RUN(pdf_output);
    RUN(bad_requests_write_nothing);
    RUN(plot_command);
    RUN(config_option);
    RUN(config_through_the_registry);
    RUN(config_freqs_follow_the_length);
    RUN(plot_command_on_a_layer_without_rope);
    RUN(rope_option);
    RUN(freqs_of_mrope);
    RUN(plot_command_with_model);
    /* each layer's edges and failures: options, figure builder, PLOT, drawer */
    if (!have_python)
        check_skip("plot", 1, "the SVG counts: python3 (xml.etree) not found", "python3");
    RUN(option_values_out_of_range);
    RUN(request_limits);
    RUN(series_limits);
    RUN(rope_option_errors);
    RUN(rope_option_words);
    RUN(help_and_flags);
    RUN(build_refuses_bad_requests);
    RUN(build_titles);
    RUN(freqs_plain_twin);
    RUN(freqs_fractional_axis);
    RUN(alibi_head_titles);
    RUN(plot_command_errors);
    RUN(plot_command_pictures);
    RUN(colour_maps_clamp);
    RUN(draw_heatmap_corners);
    RUN(draw_more_cells_than_pixels);
    RUN(draw_curve_corners);
    RUN(draw_failures);
    RUN(out_of_memory);
    remove_dir();
    cairo_debug_reset_static_data(); /* so LeakSanitizer sees only our leaks */
    return check_summary("plot");
}

#endif
