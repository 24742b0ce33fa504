/* test_plot.c - the pictures of `posenc plot` and PLOT, read back: pixels of
 * PNGs against the colour of values derived here from the formulas, sizes,
 * SVG parsed as XML (tests/plot_svg.py) with the expected number of cells
 * and curve points, the plotted numbers against math identities, and bad
 * requests that must fail with exit 2 and write nothing.
 * Built with Cairo only; without it this program says it skipped. */
#include "check.h"
#include "plot.h"

#ifndef POSENC_HAVE_CAIRO

int main(void)
{
    (void)check__failed_checks;
    fputs("plot: skipped: posenc was built without Cairo "
         "(apt-get install libcairo2-dev, then rebuild)\n", stderr);
    return check_summary("plot");
}

#else

#include <cairo.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];
static int have_python;
static const double TWO_PI = 6.28318530717958647692;

static const char *path_in(const char *name)
{
    static char p[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static int exists(const char *path) { return access(path, F_OK) == 0; }

/* Runs `posenc plot` with the space-separated words of args (an "@" in a word
 * stands for the temporary directory). Returns the exit status; the messages
 * land in *err_len bytes of err_text. */
static char err_text[1024];
static int run_plot(const char *args)
{
    char buf[1024], words[32][256];
    char *argv[33];
    int argc = 0;
    snprintf(buf, sizeof buf, "plot %s", args);
    for (char *w = strtok(buf, " "); w && argc < 32; w = strtok(NULL, " ")) {
        char *at = strchr(w, '@');
        if (at)
            snprintf(words[argc], sizeof words[argc], "%.*s%s%s", (int)(at - w), w, dir, at + 1);
        else
            snprintf(words[argc], sizeof words[argc], "%s", w);
        argv[argc] = words[argc];
        argc++;
    }
    argv[argc] = NULL;
    FILE *err = tmpfile();
    int rc = cli_plot_main(argc, argv, err);
    rewind(err);
    size_t n = fread(err_text, 1, sizeof err_text - 1, err);
    err_text[n] = '\0';
    fclose(err);
    return rc;
}

/* ---- PNG pixels ------------------------------------------------------------- */

typedef struct png {
    cairo_surface_t *s;
    int w, h, stride;
    unsigned char *data;
} png;

static int png_open(png *p, const char *path)
{
    p->s = cairo_image_surface_create_from_png(path);
    if (cairo_surface_status(p->s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(p->s);
        return 0;
    }
    cairo_surface_flush(p->s);
    p->w = cairo_image_surface_get_width(p->s);
    p->h = cairo_image_surface_get_height(p->s);
    p->stride = cairo_image_surface_get_stride(p->s);
    p->data = cairo_image_surface_get_data(p->s);
    return 1;
}

/* 1 if the pixel at (x, y) is the colour rgb (each channel within 1/255). */
static int pixel_is(const png *p, double x, double y, const double rgb[3])
{
    int xi = (int)x, yi = (int)y;
    if (xi < 0 || yi < 0 || xi >= p->w || yi >= p->h)
        return 0;
    uint32_t v;
    memcpy(&v, p->data + (size_t)yi * (size_t)p->stride + 4 * (size_t)xi, 4);
    int got[3] = {(int)(v >> 16 & 255), (int)(v >> 8 & 255), (int)(v & 255)};
    for (int c = 0; c < 3; c++) {
        int want = (int)lround(rgb[c] * 255);
        if (abs(got[c] - want) > 1) {
            fprintf(stderr, "  pixel (%d, %d) = #%02x%02x%02x, want #%02x%02x%02x\n", xi, yi,
                    got[0], got[1], got[2], (int)lround(rgb[0] * 255),
                    (int)lround(rgb[1] * 255), (int)lround(rgb[2] * 255));
            return 0;
        }
    }
    return 1;
}

/* ---- SVG, read by python3's XML parser ---------------------------------------- */

static void svg_query(const char *mode, const char *path, char *out, size_t n)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "python3 tests/plot_svg.py %s '%s'", mode, path);
    out[0] = '\0';
    FILE *p = popen(cmd, "r");
    if (!p)
        return;
    if (!fgets(out, (int)n, p))
        out[0] = '\0';
    out[strcspn(out, "\n")] = '\0';
    pclose(p);
}

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
    /* rope-decay refuses it (no model-RoPE kernel yet) with a message */
    rq.kind = PLOT_ROPE_DECAY;
    b = plot_build(&rq, why, sizeof why);
    CHECK(b == NULL);
    CHECK(strstr(why, "scaled") != NULL);
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

/* PLOT in the command language. */
TEST(plot_command)
{
    cli_state st;
    FILE *out = tmpfile(), *err = tmpfile();
    cli_init(&st, out, err);
    char line[512];
    snprintf(line, sizeof line, "PLOT pe 4 6 %s", path_in("cmd.png"));
    CHECK_EQ_INT(cli_run_line(&st, line, strlen(line)), 0);
    png p;
    CHECK(png_open(&p, path_in("cmd.png")));
    if (p.data) {
        CHECK_EQ_INT(p.w, 900);
        CHECK_EQ_INT(p.h, 640);
        cairo_surface_destroy(p.s);
    }
    snprintf(line, sizeof line, "plot freqs 16 %s", path_in("cmd.svg"));
    CHECK_EQ_INT(cli_run_line(&st, line, strlen(line)), 0);
    char got[256];
    svg_query("markers", path_in("cmd.svg"), got, sizeof got);
    CHECK(!have_python || strcmp(got, "8") == 0);
    snprintf(line, sizeof line, "PLOT pe 4 0 %s", path_in("cmd0.png"));
    CHECK_EQ_INT(cli_run_line(&st, line, strlen(line)), 1);
    CHECK(!exists(path_in("cmd0.png")));
    snprintf(line, sizeof line, "PLOT alibi 4 %s", path_in("cmd1.png"));
    CHECK_EQ_INT(cli_run_line(&st, line, strlen(line)), 1);
    CHECK(!exists(path_in("cmd1.png")));
    const char *bad = "PLOT waves 1 x.png";
    CHECK_EQ_INT(cli_run_line(&st, bad, strlen(bad)), 1);
    rewind(err);
    char msg[512] = {0};
    size_t n = fread(msg, 1, sizeof msg - 1, err);
    CHECK(n > 0 && strstr(msg, "D '0' must be") != NULL);
    CHECK(strstr(msg, "PLOT alibi H POSITIONS FILE") != NULL);
    CHECK(strstr(msg, "PLOT needs a kind") != NULL);
    cli_free(&st);
    fclose(out);
    fclose(err);
}

/* Fontconfig (under Cairo's text) keeps its configuration for the life of
 * the process; LeakSanitizer, when present, is told so. Leaks of our own code
 * are still reported. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libfontconfig.so\n"; }

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/posenc-plot-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    have_python = system("python3 -c 'import xml.etree.ElementTree' >/dev/null 2>&1") == 0;
    RUN(colour_maps);
    RUN(pe_png_pixels_and_size);
    RUN(alibi_png_pixels);
    RUN(alibi_values);
    RUN(rope_decay_values_are_cos_for_d2);
    RUN(rope_decay_values_d128);
    RUN(freqs_values);
    RUN(freqs_takes_a_posenc_rope);
    if (have_python) {
        RUN(svg_heatmap_cells);
        RUN(svg_curve_points);
    } else {
        fprintf(stderr, "plot: SVG checks skipped: python3 (xml.etree) not found\n");
    }
    RUN(pdf_output);
    RUN(bad_requests_write_nothing);
    RUN(plot_command);
    remove_dir();
    cairo_debug_reset_static_data(); /* so LeakSanitizer sees only our leaks */
    return check_summary("plot");
}

#endif
