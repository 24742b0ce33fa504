/* test_plot_build.c - the figure builder (plot_build, cli/plot_figure.c) on
 * requests only C callers can make, its titles and axes, and PLOT in the
 * command language (its words, read by the plot module): refusals and
 * pictures. Built with Cairo only; without it this program says it
 * skipped. */
#include "check.h"
#include "plot.h"

#include <stdlib.h>

#ifndef POSENC_HAVE_CAIRO

int main(void)
{
    (void)check__failed_checks;
    check_skip("plot_build", 7, "the figure builder and PLOT checks: built without Cairo", "libcairo2-dev");
    return check_summary("plot_build");
}

#else

#include "plot_harness.h"

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

    /* a layer turning by -theta (NanoChat: the frequencies held negated)
     * turns as often: the same wavelengths */
    for (uint32_t k = 0; k < 2; k++) {
        r.inv_freq_hi[k] = -r.inv_freq_hi[k];
        r.inv_freq_lo[k] = -r.inv_freq_lo[k];
    }
    b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    f = plot_built_figure(b);
    CHECK_NEAR(f->curves[0].y[0] / 6.283185307179586, 1, 1e-15);
    CHECK_NEAR(f->curves[0].y[1] / (6.283185307179586 * sqrt(500.0)), 1, 1e-15);
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
    PLOT_REFUSED("", NULL, "PLOT needs a kind: pe, similarity, rope-decay, freqs, alibi, "
                          "t5-buckets, sinusoid or buckets");
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

int main(void)
{
    if (!harness_start("/tmp/posenc-plot-XXXXXX"))
        return 1;
    RUN(build_refuses_bad_requests);
    RUN(build_titles);
    RUN(freqs_plain_twin);
    RUN(freqs_fractional_axis);
    RUN(alibi_head_titles);
    RUN(plot_command_errors);
    RUN(plot_command_pictures);

    remove_dir();
    cairo_debug_reset_static_data(); /* so LeakSanitizer sees only our leaks */
    return check_summary("plot_build");
}

#endif
