/* test_plot_options.c - the options of `posenc plot` (cli/plot_options.c):
 * every value out of range, request and series limits, --rope's errors and
 * words, --help and the flags, each refused with its exact message, exit 2
 * and no file. Built with Cairo only; without it this program says it
 * skipped. */
#include "check.h"
#include "plot.h"

#include <stdlib.h>

#ifndef POSENC_HAVE_CAIRO

int main(void)
{
    (void)check__failed_checks;
    check_skip("plot_options", 6, "the option checks of posenc plot: built without Cairo", "libcairo2-dev");
    return check_summary("plot_options");
}

#else

#include "plot_harness.h"

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
    char text[16384];
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

int main(void)
{
    if (!harness_start("/tmp/posenc-plot-XXXXXX"))
        return 1;
    if (!have_python)
        check_skip("plot_options", 1, "the SVG counts: python3 (xml.etree) not found", "python3");
    RUN(option_values_out_of_range);
    RUN(request_limits);
    RUN(series_limits);
    RUN(rope_option_errors);
    RUN(rope_option_words);
    RUN(help_and_flags);

    remove_dir();
    cairo_debug_reset_static_data(); /* so LeakSanitizer sees only our leaks */
    return check_summary("plot_options");
}

#endif
