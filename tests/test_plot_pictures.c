/* test_plot_pictures.c - the pictures of `posenc plot` and PLOT
 * (cli/plot_*.c), read back: pixels of PNGs against the colour of values
 * derived here from the formulas, sizes, SVG parsed as XML (tests/plot_svg.py)
 * with the expected number of cells and curve points, the plotted numbers
 * against math identities and against the mpmath frequencies of
 * tests/data/rope_golden.txt, PDF, and bad requests that must fail with exit 2
 * and write nothing. Built with Cairo only; without it this program says it
 * skipped. */
#include "check.h"
#include "plot.h"

#include <stdlib.h>

#ifndef POSENC_HAVE_CAIRO

int main(void)
{
    (void)check__failed_checks;
    check_skip("plot_pictures", 17, "the picture tests: built without Cairo", "libcairo2-dev");
    return check_summary("plot_pictures");
}

#else

#include "plot_harness.h"
#include "rope_golden.h"

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

/* The check: at position 0 an odd dimension is cos 0 = +1, an even
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
        check_skip("plot_pictures", 2, "the SVG checks: python3 (xml.etree) not found", "python3");
    }
    RUN(pdf_output);
    RUN(bad_requests_write_nothing);

    remove_dir();
    cairo_debug_reset_static_data(); /* so LeakSanitizer sees only our leaks */
    return check_summary("plot_pictures");
}

#endif
