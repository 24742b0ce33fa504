/* test_plot_draw.c - figures drawn straight through plot_draw_file
 * (cli/plot_draw.c): no labels, NaN points, clamped colours, more cells than
 * pixels, failed writes; and every allocation of the plot code failing in
 * turn (malloc, calloc and realloc are wrapped by the linker: -Wl,--wrap, see
 * the Makefile). Built with Cairo only; without it this program says it
 * skipped. */
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
    check_skip("plot_draw", 6, "the drawer and the plot code's error paths: built without Cairo", "libcairo2-dev");
    return check_summary("plot_draw");
}

#else

#include "plot_harness.h"

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
    plot_heatmap m = {1, 3, v, NULL, "", 0, 0, 0, 0, NULL};
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
    plot_heatmap m = {1, 1, v, NULL, "", 0, 0, 0, 0, NULL};
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
    CHECK(each_allocation_fails("sinusoid --positions 3 --dim 4 -o @/m.png", "m.png") >= 2);
    CHECK(each_allocation_fails("buckets --positions 3 -o @/m.png", "m.png") >= 2);
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
    RUN(colour_maps_clamp);
    RUN(draw_heatmap_corners);
    RUN(draw_more_cells_than_pixels);
    RUN(draw_curve_corners);
    RUN(draw_failures);
    RUN(out_of_memory);

    remove_dir();
    cairo_debug_reset_static_data(); /* so LeakSanitizer sees only our leaks */
    return check_summary("plot_draw");
}

#endif
