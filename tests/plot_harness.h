/* plot_harness.h - what the tests of the plot module (tests/test_plot_*.c) use:
 * a temporary directory, `posenc plot` run in-process with its messages
 * captured, the words of PLOT and SET rope read by the plot module's own
 * parsers (no interpreter), PNGs read back pixel by pixel, SVG queries
 * through tests/plot_svg.py. Included once per test program, with Cairo
 * only. */
#ifndef POSENC_PLOT_HARNESS_H
#define POSENC_PLOT_HARNESS_H

#include "check.h"
#include "plot.h"
#include "plot_options.h"
#include "rope_spec.h"

#include <cairo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];
static int have_python;

static inline const char *path_in(const char *name)
{
    static char p[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static inline int exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

/* ---- running `posenc plot` ------------------------------------------------------ */

static char err_text[2048];

static inline int run_plot_argv(int argc, char **argv)
{
    FILE *err = tmpfile();
    int rc = cli_plot_main(argc, argv, err);
    rewind(err);
    size_t n = fread(err_text, 1, sizeof err_text - 1, err);
    err_text[n] = '\0';
    fclose(err);
    return rc;
}

/* `posenc plot ARGS`: args are words separated by single spaces; "@" in a
 * word stands for the temporary directory, "_" for a space inside a word. */
static inline int run_plot(const char *args)
{
    static char buf[4096], words[80][512];
    char *argv[81];
    int argc = 0;
    snprintf(buf, sizeof buf, "plot %s", args);
    for (char *w = strtok(buf, " "); w && argc < 80; w = strtok(NULL, " ")) {
        char *o = words[argc];
        size_t k = 0;
        for (const char *p = w; *p && k + 70 < sizeof words[0]; p++) {
            if (*p == '@')
                k += (size_t)snprintf(o + k, sizeof words[0] - k, "%s", dir);
            else
                o[k++] = *p == '_' ? ' ' : *p;
        }
        o[k] = '\0';
        argv[argc] = o;
        argc++;
    }
    argv[argc] = NULL;
    return run_plot_argv(argc, argv);
}

/* ---- PLOT and SET rope, as the interpreter hands them to the plot module ---- */

/* The words of line, split at spaces as the interpreter splits them. */
static inline size_t split_words(const char *line, cli_token *t, size_t max)
{
    size_t n = 0;
    for (const char *p = line; *p && n < max;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (len)
            t[n++] = (cli_token){p, len};
        p += len;
    }
    return n;
}

/* The settings PLOT sees (SET base, layout, rope, seq_len): defaults. */
static posenc_rope_config model_storage;
static posenc_model *model_obj; /* SET rope's model: model_storage on every layer */
static plot_settings settings = {POSENC_DEFAULT_BASE, POSENC_LAYOUT_INTERLEAVED, NULL, 0, NULL, 0,
                                 32,                  128,  NULL, NULL};

/* `SET rope WORDS...` (line without "SET rope") into settings; 1 if it
 * took, else 0 with the message in why. */
static inline int set_rope(const char *words, char *why, size_t n)
{
    cli_token t[64];
    size_t nt = split_words(words, t, 64);
    rope_spec_start from = {settings.base, settings.layout,
                            settings.model ? &model_storage : NULL};
    posenc_rope_config c;
    switch (rope_spec_parse(t, nt, &from, &c, why, n)) {
    case ROPE_SPEC_SET:
        model_storage = c;
        if ((!model_obj && posenc_model_create(&model_obj) != POSENC_OK) ||
            posenc_model_set_rope(model_obj, &c, 1) != POSENC_OK) {
            snprintf(why, n, "out of memory");
            return 0;
        }
        settings.model = model_obj;
        return 1;
    case ROPE_SPEC_OFF:
        settings.model = NULL;
        return 1;
    default:
        return 0;
    }
}

/* `PLOT WORDS...` (line without "PLOT"): 1 if the file was written, else 0
 * with the message in why. */
static inline int plot_line(const char *words, char *why, size_t n)
{
    static cli_token t[16];
    size_t nt = split_words(words, t, 16);
    why[0] = '\0';
    return plot_words_run(t, nt, &settings, why, n);
}

/* ---- reading pictures back ------------------------------------------------------- */

typedef struct png {
    cairo_surface_t *s;
    int w, h, stride;
    unsigned char *data;
} png;

static inline int png_open(png *p, const char *path)
{
    p->data = NULL;
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

static inline void pixel(const png *p, int x, int y, int rgb[3])
{
    uint32_t v;
    memcpy(&v, p->data + (size_t)y * (size_t)p->stride + 4 * (size_t)x, 4);
    rgb[0] = (int)(v >> 16 & 255);
    rgb[1] = (int)(v >> 8 & 255);
    rgb[2] = (int)(v & 255);
}

/* 1 if the pixel at (x, y) is the colour rgb (each channel within 1/255). */
static inline int pixel_is(const png *p, double x, double y, const double rgb[3])
{
    int xi = (int)x, yi = (int)y, got[3];
    if (xi < 0 || yi < 0 || xi >= p->w || yi >= p->h)
        return 0;
    pixel(p, xi, yi, got);
    for (int c = 0; c < 3; c++)
        if (abs(got[c] - (int)lround(rgb[c] * 255)) > 1) {
            fprintf(stderr, "  pixel (%d, %d) = #%02x%02x%02x, want #%02x%02x%02x\n", xi, yi,
                    got[0], got[1], got[2], (int)lround(rgb[0] * 255),
                    (int)lround(rgb[1] * 255), (int)lround(rgb[2] * 255));
            return 0;
        }
    return 1;
}

static inline void svg_query(const char *mode, const char *path, char *out, size_t n)
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

/* Fontconfig (under Cairo's text) keeps its configuration for the life of
 * the process; LeakSanitizer, when present, is told so. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libfontconfig.so\n"; }

static inline void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

/* Makes the temporary directory (a mkdtemp pattern; remove_dir() removes
 * it) and looks for python3's XML parser. 0 on failure. */
static inline int harness_start(const char *prefix)
{
    snprintf(dir, sizeof dir, "%s", prefix);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 0;
    }
    have_python = system("python3 -c 'import xml.etree.ElementTree' >/dev/null 2>&1") == 0;
    return 1;
}

/* ---- refusals and colours, shared by the test files ---------------------------------- */

#define TWO_PI 6.28318530717958647692

/* A bad request: exit 2, a message, and no file. */
static inline void check_refused(const char *args, const char *file, const char *message_part)
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

/* The message expected, "@" standing for the temporary directory. */
static inline const char *expand(const char *s)
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
static inline void refused(int line, const char *args, const char *file, const char *message)
{
    int rc = run_plot(args);
    char want[2048 + 16]; /* "posenc plot: " + expand()'s 2047 + "\n" */
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
static inline int ink(const png *p, int x0, int x1, int y0, int y1)
{
    int n = 0, c[3];
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            pixel(p, x, y, c);
            n += c[0] != 255 || c[1] != 255 || c[2] != 255;
        }
    return n;
}

static inline void hex_rgb(unsigned hex, double rgb[3])
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

#endif
