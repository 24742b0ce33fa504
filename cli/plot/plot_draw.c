/* plot_draw.c - the drawer of the plot module (plot.h): how a plot_figure
 * looks, drawn with Cairo: title, axes with ticks and labels, heatmaps (one
 * or a grid of small multiples) with a colour bar, curves with a legend.
 * Pure layout: every value drawn was computed by plot_figure.c from the
 * library. Draws only with POSENC_HAVE_CAIRO. */
#include "plot.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The colour maps need no Cairo (tests compare pixels with them). */

typedef struct stop {
    double at;         /* position in [0, 1] along the map */
    double r, g, b;
} stop;

#define RGB(x) ((x) >> 16 & 255) / 255.0, ((x) >> 8 & 255) / 255.0, ((x) & 255) / 255.0

/* Diverging (ColorBrewer RdBu): at 0 = value -1 (blue), 0.5 = 0, 1 = +1 (red). */
static const stop DIVERGING[] = {
    {0.00, RGB(0x2166ac)}, {0.25, RGB(0x92c5de)}, {0.50, RGB(0xf7f7f7)},
    {0.75, RGB(0xf4a582)}, {1.00, RGB(0xb2182b)},
};
/* Negative values (ColorBrewer Blues): at 0 = value 0, 1 = most negative. */
static const stop NEGATIVE[] = {
    {0.00, RGB(0xf7fbff)}, {0.25, RGB(0xc6dbef)}, {0.50, RGB(0x6baed6)},
    {0.75, RGB(0x2171b5)}, {1.00, RGB(0x08306b)},
};
/* Sequential (viridis, sampled): at 0 = vmin, 1 = vmax. */
static const stop SEQUENTIAL[] = {
    {0.00, RGB(0x440154)}, {0.25, RGB(0x3b528b)}, {0.50, RGB(0x21918c)},
    {0.75, RGB(0x5ec962)}, {1.00, RGB(0xfde725)},
};
#define N_STOPS 5

static const stop *stops_of(int cmap)
{
    return cmap == PLOT_CMAP_NEGATIVE ? NEGATIVE : cmap == PLOT_CMAP_SEQUENTIAL ? SEQUENTIAL
                                                                               : DIVERGING;
}

/* Position along the map of value t (see plot_cmap_colour). */
static double map_at(int cmap, double t)
{
    if (!(t == t))
        t = 0;
    if (cmap == PLOT_CMAP_NEGATIVE) {
        t = t < -1 ? -1 : t > 0 ? 0 : t;
        return -t;
    }
    if (cmap == PLOT_CMAP_SEQUENTIAL)
        return t < 0 ? 0 : t > 1 ? 1 : t;
    t = t < -1 ? -1 : t > 1 ? 1 : t;
    return (t + 1) / 2;
}

void plot_cmap_colour(int cmap, double t, double rgb[3])
{
    const stop *s = stops_of(cmap);
    double u = map_at(cmap, t);
    int i = 0;
    while (i < N_STOPS - 2 && u > s[i + 1].at)
        i++;
    double w = (u - s[i].at) / (s[i + 1].at - s[i].at);
    rgb[0] = s[i].r + w * (s[i + 1].r - s[i].r);
    rgb[1] = s[i].g + w * (s[i + 1].g - s[i].g);
    rgb[2] = s[i].b + w * (s[i + 1].b - s[i].b);
}

int plot_format_of(const char *path)
{
    size_t n = strlen(path);
    if (n > 4 && strcasecmp(path + n - 4, ".png") == 0)
        return PLOT_FMT_PNG;
    if (n > 4 && strcasecmp(path + n - 4, ".svg") == 0)
        return PLOT_FMT_SVG;
    if (n > 4 && strcasecmp(path + n - 4, ".pdf") == 0)
        return PLOT_FMT_PDF;
    return -1;
}

#ifndef POSENC_HAVE_CAIRO

int plot_draw_file(const plot_figure *f, const char *path, char *why, size_t n)
{
    (void)f;
    (void)path;
    snprintf(why, n, "plotting needs Cairo, and this posenc was built without it "
                     "(apt-get install libcairo2-dev, then rebuild with make)");
    return 0;
}

#else

#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Curve colours (Tableau 10). */
static const unsigned PALETTE[] = {0x1f77b4, 0xd62728, 0x2ca02c, 0xff7f0e,
                                   0x9467bd, 0x8c564b, 0xe377c2, 0x17becf};
#define N_PALETTE (sizeof PALETTE / sizeof PALETTE[0])

static const char *FONT = "DejaVu Sans";
static const double PI = 3.14159265358979323846;

/* ---- a growing memory buffer that Cairo writes into --------------------------- */

typedef struct membuf {
    unsigned char *p;
    size_t len, cap;
} membuf;

static cairo_status_t mem_write(void *closure, const unsigned char *data, unsigned int n)
{
    membuf *m = closure;
    if (m->len + n > m->cap) {
        size_t cap = m->cap ? m->cap : 1 << 16;
        while (cap < m->len + n)
            cap *= 2;
        unsigned char *p = realloc(m->p, cap);
        if (!p)
            return CAIRO_STATUS_NO_MEMORY;
        m->p = p;
        m->cap = cap;
    }
    memcpy(m->p + m->len, data, n);
    m->len += n;
    return CAIRO_STATUS_SUCCESS;
}

/* ---- small drawing helpers ------------------------------------------------- */

static void set_hex(cairo_t *cr, unsigned hex) { cairo_set_source_rgb(cr, RGB(hex)); }

static void font(cairo_t *cr, double size, int bold)
{
    cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

/* Text anchored at (x, y): ax 0 left, 0.5 centre, 1 right; ay 0 top, 0.5
 * middle, 1 baseline-ish bottom. */
static void text_at(cairo_t *cr, double x, double y, double ax, double ay, const char *s)
{
    cairo_text_extents_t e;
    cairo_font_extents_t fe;
    cairo_text_extents(cr, s, &e);
    cairo_font_extents(cr, &fe);
    double h = fe.ascent * 0.78; /* about the height of a capital */
    cairo_move_to(cr, x - ax * e.x_advance, y + (1 - ay) * h);
    cairo_show_text(cr, s);
}

static double text_width(cairo_t *cr, const char *s)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    return e.x_advance;
}

/* Vertical text reading upwards, centred on (x, y). */
static void text_up(cairo_t *cr, double x, double y, const char *s)
{
    cairo_save(cr);
    cairo_translate(cr, x, y);
    cairo_rotate(cr, -PI / 2);
    text_at(cr, 0, 0, 0.5, 0.5, s);
    cairo_restore(cr);
}

static void line(cairo_t *cr, double x0, double y0, double x1, double y1)
{
    cairo_move_to(cr, x0, y0);
    cairo_line_to(cr, x1, y1);
    cairo_stroke(cr);
}

/* ---- ticks -------------------------------------------------------------------- */

#define MAX_TICKS 64

/* Round numbers (1, 2 or 5 times a power of ten) between lo and hi, about
 * `want` of them. Returns the count. */
static int nice_ticks(double lo, double hi, int want, double *t)
{
    if (!(hi > lo))
        hi = lo + 1;
    double raw = (hi - lo) / want;
    double mag = pow(10, floor(log10(raw)));
    double norm = raw / mag;
    double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
    int n = 0;
    for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9 && n < MAX_TICKS;
         v += step)
        t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
    return n;
}

/* Integer ticks for an index axis 0 .. count-1, at most about `want` of
 * them, a step of 1, 2 or 5 times a power of ten. */
static int index_ticks(size_t count, int want, double *t)
{
    static const double mult[] = {1, 2, 5};
    double step = 1;
    for (double e = 1; (double)count / step > want; e *= 10)
        for (int i = 0; i < 3 && (double)count / (step = mult[i] * e) > want; i++)
            ;
    int n = 0;
    for (double v = 0; v < (double)count && n < MAX_TICKS; v += step)
        t[n++] = v;
    return n;
}

/* 1, 10, 100, 1k, 10k, 100k, 1M ... for log axes; %g otherwise. */
static void tick_label(double v, int logscale, char *s, size_t n)
{
    if (logscale && v >= 1000) {
        const char *unit = v >= 1e9 ? "G" : v >= 1e6 ? "M" : "k";
        double d = v >= 1e9 ? 1e9 : v >= 1e6 ? 1e6 : 1e3;
        snprintf(s, n, "%g%s", v / d, unit);
    } else {
        snprintf(s, n, "%g", v);
    }
}

/* ---- the frame of a chart --------------------------------------------------------- */

typedef struct box {
    double x, y, w, h;
} box;

static void draw_title(cairo_t *cr, const plot_figure *f)
{
    set_hex(cr, 0x111111);
    font(cr, 18, 1);
    text_at(cr, f->width / 2.0, 14, 0.5, 0, f->title);
    if (f->subtitle[0]) {
        set_hex(cr, 0x555555);
        font(cr, 12.5, 0);
        text_at(cr, f->width / 2.0, 38, 0.5, 0, f->subtitle);
    }
}

static double top_margin(const plot_figure *f) { return f->subtitle[0] ? 68 : 50; }

/* ---- heatmaps ------------------------------------------------------------------ */

/* The scale a panel is coloured by: its own, or the figure's. */
typedef struct cscale {
    int cmap;
    double vmin, vmax;
    const char *label;
} cscale;

static cscale scale_of(const plot_figure *f, const plot_heatmap *m)
{
    if (m && m->own)
        return (cscale){m->cmap, m->vmin, m->vmax, m->cbar_label};
    return (cscale){f->cmap, f->vmin, f->vmax, f->cbar_label};
}

static void draw_colour_bar(cairo_t *cr, cscale sc, box b)
{
    double lo = sc.cmap == PLOT_CMAP_DIVERGING ? -sc.vmax : sc.vmin;
    double hi = sc.cmap == PLOT_CMAP_NEGATIVE ? 0 : sc.vmax;
    const stop *s = stops_of(sc.cmap);
    /* The bar runs from hi at the top to lo at the bottom. */
    cairo_pattern_t *g = cairo_pattern_create_linear(0, b.y, 0, b.y + b.h);
    for (int i = 0; i < N_STOPS; i++) {
        /* offset 0 is the top of the bar (hi), 1 the bottom (lo) */
        double at = sc.cmap == PLOT_CMAP_NEGATIVE ? s[i].at : 1 - s[i].at;
        cairo_pattern_add_color_stop_rgb(g, at, s[i].r, s[i].g, s[i].b);
    }
    cairo_rectangle(cr, b.x, b.y, b.w, b.h);
    cairo_set_source(cr, g);
    cairo_fill(cr);
    cairo_pattern_destroy(g);
    set_hex(cr, 0x444444);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, b.x + 0.5, b.y + 0.5, b.w - 1, b.h - 1);
    cairo_stroke(cr);

    double t[MAX_TICKS];
    int nt = nice_ticks(lo, hi, 6, t);
    font(cr, 11, 0);
    char lab[32];
    for (int i = 0; i < nt; i++) {
        double y = b.y + b.h * (hi - t[i]) / (hi - lo);
        line(cr, b.x + b.w, y, b.x + b.w + 4, y);
        tick_label(t[i], 0, lab, sizeof lab);
        text_at(cr, b.x + b.w + 7, y, 0, 0.5, lab);
    }
    if (sc.label) {
        font(cr, 12, 0);
        text_up(cr, b.x + b.w + 52, b.y + b.h / 2, sc.label);
    }
}

/* One panel's cells, with edges on whole pixels so neighbours never leave a
 * seam; value v is coloured by v / scale. */
static void draw_cells(cairo_t *cr, const plot_figure *f, const plot_heatmap *m, box b)
{
    cscale sc = scale_of(f, m);
    double lo = sc.cmap == PLOT_CMAP_SEQUENTIAL ? sc.vmin : 0;
    double scale = sc.cmap == PLOT_CMAP_NEGATIVE     ? fabs(sc.vmin)
                   : sc.cmap == PLOT_CMAP_SEQUENTIAL ? sc.vmax - sc.vmin
                                                     : sc.vmax;
    if (!(scale > 0))
        scale = 1;
    cairo_save(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    for (size_t r = 0; r < m->rows; r++) {
        double y0 = round(b.y + b.h * (double)r / (double)m->rows);
        double y1 = round(b.y + b.h * (double)(r + 1) / (double)m->rows);
        if (y1 <= y0)
            continue;
        for (size_t c = 0; c < m->cols; c++) {
            double x0 = round(b.x + b.w * (double)c / (double)m->cols);
            double x1 = round(b.x + b.w * (double)(c + 1) / (double)m->cols);
            if (x1 <= x0)
                continue;
            double rgb[3];
            if (m->mask && m->mask[r * m->cols + c]) {
                rgb[0] = rgb[1] = rgb[2] = 0xdd / 255.0;
            } else {
                plot_cmap_colour(sc.cmap, (m->v[r * m->cols + c] - lo) / scale, rgb);
            }
            cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
            cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
            cairo_fill(cr);
        }
    }
    cairo_restore(cr);
    set_hex(cr, 0x444444);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, round(b.x) - 0.5, round(b.y) - 0.5, round(b.w) + 1, round(b.h) + 1);
    cairo_stroke(cr);
}

/* Index ticks on the left (rows) and bottom (columns) of a panel, at cell
 * centres. want: how many ticks fit. */
static void draw_index_axes(cairo_t *cr, const plot_heatmap *m, box b, int want_x, int want_y,
                            double fsize)
{
    double t[MAX_TICKS];
    char lab[32];
    set_hex(cr, 0x333333);
    cairo_set_line_width(cr, 1);
    font(cr, fsize, 0);
    int n = index_ticks(m->cols, want_x, t);
    for (int i = 0; i < n; i++) {
        double x = b.x + b.w * (t[i] + 0.5) / (double)m->cols;
        line(cr, x, b.y + b.h, x, b.y + b.h + 4);
        snprintf(lab, sizeof lab, "%g", t[i]);
        text_at(cr, x, b.y + b.h + 7, 0.5, 0, lab);
    }
    n = index_ticks(m->rows, want_y, t);
    for (int i = 0; i < n; i++) {
        double y = b.y + b.h * (t[i] + 0.5) / (double)m->rows;
        line(cr, b.x - 4, y, b.x, y);
        snprintf(lab, sizeof lab, "%g", t[i]);
        text_at(cr, b.x - 7, y, 1, 0.5, lab);
    }
}

/* Where the heatmap panels go: the grid of gc x gr panels of pw x ph with
 * gaps, each with `head` room above it for its title. */
typedef struct grid {
    box all;
    size_t gc, gr;
    double pw, ph, gap_x, gap_y, head;
} grid;

/* 1 when the panels carry their own colour scales (and bars). */
static int own_scales(const plot_figure *f)
{
    for (size_t i = 0; i < f->n_maps; i++)
        if (f->maps[i].own)
            return 1;
    return 0;
}

static grid heatmap_grid(const plot_figure *f)
{
    grid g;
    double top = top_margin(f), left = 78, bottom = 58, right = 110;
    g.all = (box){left, top, f->width - left - right, f->height - top - bottom};
    g.gc = f->grid_cols ? f->grid_cols : 1;
    g.gr = (f->n_maps + g.gc - 1) / g.gc;
    int multi = f->n_maps > 1;
    g.gap_x = multi ? (own_scales(f) ? 120 : 40) : 0;
    g.gap_y = multi ? 44 : 0;
    g.head = multi ? 18 : 0;
    g.pw = (g.all.w - g.gap_x * (double)(g.gc - 1)) / (double)g.gc;
    g.ph = (g.all.h - g.gap_y * (double)(g.gr - 1)) / (double)g.gr - g.head;
    if (multi) { /* square panels look like matrices */
        double side = g.pw < g.ph ? g.pw : g.ph;
        g.pw = g.ph = side;
    }
    return g;
}

static box panel_box(const grid *g, size_t i)
{
    size_t r = i / g->gc, c = i % g->gc;
    return (box){g->all.x + (double)c * (g->pw + g->gap_x),
                 g->all.y + g->head + (double)r * (g->ph + g->head + g->gap_y), g->pw, g->ph};
}

void plot_cell_centre(const plot_figure *f, size_t panel, size_t row, size_t col, double *x,
                      double *y)
{
    grid g = heatmap_grid(f);
    box b = panel_box(&g, panel);
    const plot_heatmap *m = &f->maps[panel];
    /* the same whole-pixel edges as draw_cells */
    double x0 = round(b.x + b.w * (double)col / (double)m->cols);
    double x1 = round(b.x + b.w * (double)(col + 1) / (double)m->cols);
    double y0 = round(b.y + b.h * (double)row / (double)m->rows);
    double y1 = round(b.y + b.h * (double)(row + 1) / (double)m->rows);
    *x = (x0 + x1) / 2;
    *y = (y0 + y1) / 2;
}

static void draw_heatmaps(cairo_t *cr, const plot_figure *f)
{
    grid g = heatmap_grid(f);
    box all = g.all;
    size_t gc = g.gc, gr = g.gr;
    int multi = f->n_maps > 1;
    double pw = g.pw, ph = g.ph, gap_x = g.gap_x, gap_y = g.gap_y, head = g.head;
    for (size_t i = 0; i < f->n_maps; i++) {
        box b = panel_box(&g, i);
        draw_cells(cr, f, &f->maps[i], b);
        int want_x = multi ? 3 : 10, want_y = multi ? 3 : 8;
        draw_index_axes(cr, &f->maps[i], b, want_x, want_y, multi ? 10 : 11);
        if (f->maps[i].title[0]) {
            set_hex(cr, 0x222222);
            font(cr, 12, 0);
            text_at(cr, b.x + b.w / 2, b.y - 6, 0.5, 1, f->maps[i].title);
        }
        if (f->maps[i].own) /* the panel's own bar, in the gap right of it */
            draw_colour_bar(cr, scale_of(f, &f->maps[i]), (box){b.x + b.w + 10, b.y, 12, b.h});
    }
    /* Axis names once for the whole grid. */
    double used_w = (double)gc * pw + gap_x * (double)(gc - 1);
    double used_h = (double)gr * (ph + head) + gap_y * (double)(gr - 1);
    set_hex(cr, 0x111111);
    font(cr, 13, 0);
    if (f->xlabel)
        text_at(cr, all.x + used_w / 2, all.y + used_h + 28, 0.5, 0, f->xlabel);
    if (f->ylabel)
        text_up(cr, 24, all.y + used_h / 2, f->ylabel);
    box bar = {all.x + used_w + 22, all.y + head, 16, used_h - head};
    if (!own_scales(f))
        draw_colour_bar(cr, scale_of(f, NULL), bar);
}

/* ---- curves ------------------------------------------------------------------ */

typedef struct axes {
    box b;
    double x0, x1, y0, y1;
    int xlog, ylog;
} axes;

static double ax_x(const axes *a, double x)
{
    double u = a->xlog ? (log10(x) - log10(a->x0)) / (log10(a->x1) - log10(a->x0))
                       : (x - a->x0) / (a->x1 - a->x0);
    return a->b.x + u * a->b.w;
}

static double ax_y(const axes *a, double y)
{
    double u = a->ylog ? (log10(y) - log10(a->y0)) / (log10(a->y1) - log10(a->y0))
                       : (y - a->y0) / (a->y1 - a->y0);
    return a->b.y + a->b.h - u * a->b.h;
}

/* Ticks, labels and light grid lines of one axis. */
static void draw_axis(cairo_t *cr, const axes *a, int vertical)
{
    double lo = vertical ? a->y0 : a->x0, hi = vertical ? a->y1 : a->x1;
    int logscale = vertical ? a->ylog : a->xlog;
    double t[MAX_TICKS];
    int n = 0, minor_n = 0;
    double minor[MAX_TICKS * 2];
    if (logscale) {
        for (double e = floor(log10(lo)); e <= ceil(log10(hi)) && n < MAX_TICKS; e++) {
            double d = pow(10, e);
            if (d >= lo * (1 - 1e-9) && d <= hi * (1 + 1e-9))
                t[n++] = d;
            for (int m = 2; m <= 9 && minor_n < MAX_TICKS * 2; m++)
                if (m * d > lo && m * d < hi)
                    minor[minor_n++] = m * d;
        }
    } else {
        n = nice_ticks(lo, hi, vertical ? 7 : 9, t);
    }
    char lab[32];
    font(cr, 11, 0);
    for (int pass = 0; pass < 2; pass++) {
        int cnt = pass ? minor_n : n;
        const double *v = pass ? minor : t;
        for (int i = 0; i < cnt; i++) {
            double p = vertical ? ax_y(a, v[i]) : ax_x(a, v[i]);
            set_hex(cr, pass ? 0xf0f0f0 : 0xdddddd);
            cairo_set_line_width(cr, 1);
            if (vertical)
                line(cr, a->b.x, p, a->b.x + a->b.w, p);
            else
                line(cr, p, a->b.y, p, a->b.y + a->b.h);
            set_hex(cr, 0x333333);
            double len = pass ? 3 : 5;
            if (vertical)
                line(cr, a->b.x - len, p, a->b.x, p);
            else
                line(cr, p, a->b.y + a->b.h, p, a->b.y + a->b.h + len);
            if (!pass) {
                tick_label(v[i], logscale, lab, sizeof lab);
                if (vertical)
                    text_at(cr, a->b.x - 8, p, 1, 0.5, lab);
                else
                    text_at(cr, p, a->b.y + a->b.h + 8, 0.5, 0, lab);
            }
        }
    }
    if (!logscale && lo < 0 && hi > 0) { /* the zero line */
        set_hex(cr, 0x999999);
        if (vertical)
            line(cr, a->b.x, ax_y(a, 0), a->b.x + a->b.w, ax_y(a, 0));
    }
}

static void draw_legend(cairo_t *cr, const plot_figure *f, const axes *a)
{
    size_t n = 0;
    double w = 0;
    font(cr, 11.5, 0);
    for (size_t i = 0; i < f->n_curves; i++)
        if (f->curves[i].label[0]) {
            n++;
            double tw = text_width(cr, f->curves[i].label);
            w = tw > w ? tw : w;
        }
    if (!n)
        return;
    double row = 18, bw = w + 54, bh = (double)n * row + 10;
    double x = f->legend_left ? a->b.x + 10 : a->b.x + a->b.w - bw - 10, y = a->b.y + 10;
    cairo_rectangle(cr, x, y, bw, bh);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.92);
    cairo_fill_preserve(cr);
    set_hex(cr, 0xbbbbbb);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    size_t k = 0;
    for (size_t i = 0; i < f->n_curves; i++) {
        const plot_curve *c = &f->curves[i];
        if (!c->label[0])
            continue;
        double cy = y + 5 + row * ((double)k + 0.5);
        set_hex(cr, PALETTE[(size_t)c->colour % N_PALETTE]);
        cairo_set_line_width(cr, 2.2);
        double dash[] = {6, 3};
        cairo_set_dash(cr, dash, c->dashed ? 2 : 0, 0);
        line(cr, x + 8, cy, x + 38, cy);
        cairo_set_dash(cr, NULL, 0, 0);
        set_hex(cr, 0x222222);
        text_at(cr, x + 46, cy, 0, 0.5, c->label);
        k++;
    }
}

static void draw_curves(cairo_t *cr, const plot_figure *f)
{
    double top = top_margin(f), left = 78, bottom = 58, right = 30;
    axes a = {{left, top, f->width - left - right, f->height - top - bottom},
              f->xmin, f->xmax, f->ymin, f->ymax, f->xlog, f->ylog};
    cairo_set_line_width(cr, 1);
    draw_axis(cr, &a, 0);
    draw_axis(cr, &a, 1);

    cairo_save(cr);
    cairo_rectangle(cr, a.b.x, a.b.y, a.b.w, a.b.h);
    cairo_clip(cr);
    for (size_t i = 0; i < f->n_spans; i++) { /* shaded x ranges, behind everything */
        double x0 = ax_x(&a, f->spans[i].lo), x1 = ax_x(&a, f->spans[i].hi);
        unsigned hex = PALETTE[(size_t)f->spans[i].colour % N_PALETTE];
        cairo_rectangle(cr, x0, a.b.y, x1 - x0, a.b.h);
        cairo_set_source_rgba(cr, RGB(hex), 0.13);
        cairo_fill(cr);
        double dash[] = {4, 3};
        set_hex(cr, hex);
        cairo_set_line_width(cr, 1);
        cairo_set_dash(cr, dash, 2, 0);
        line(cr, x0, a.b.y, x0, a.b.y + a.b.h);
        line(cr, x1, a.b.y, x1, a.b.y + a.b.h);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    for (size_t i = 0; i < f->n_hlines; i++) {
        double y = ax_y(&a, f->hline_y[i]);
        double dash[] = {2, 3};
        set_hex(cr, 0x555555);
        cairo_set_line_width(cr, 1.2);
        cairo_set_dash(cr, dash, 2, 0);
        line(cr, a.b.x, y, a.b.x + a.b.w, y);
        cairo_set_dash(cr, NULL, 0, 0);
        font(cr, 11, 0);
        text_at(cr, a.b.x + 8, y - 4, 0, 1, f->hline_label[i]);
    }
    for (size_t i = 0; i < f->n_curves; i++) {
        const plot_curve *c = &f->curves[i];
        set_hex(cr, PALETTE[(size_t)c->colour % N_PALETTE]);
        cairo_set_line_width(cr, c->dashed ? 1.6 : 2.2);
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
        double dash[] = {6, 3};
        cairo_set_dash(cr, dash, c->dashed ? 2 : 0, 0);
        int pen = 0;
        for (size_t k = 0; k < c->n; k++) {
            double x = c->x[k], y = c->y[k];
            int ok = isfinite(x) && isfinite(y) && (!a.xlog || x > 0) && (!a.ylog || y > 0);
            if (!ok) {
                pen = 0;
                continue;
            }
            if (pen)
                cairo_line_to(cr, ax_x(&a, x), ax_y(&a, y));
            else
                cairo_move_to(cr, ax_x(&a, x), ax_y(&a, y));
            pen = 1;
        }
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        for (size_t k = 0; c->markers && k < c->n; k++) {
            double x = c->x[k], y = c->y[k];
            if (!isfinite(x) || !isfinite(y) || (a.xlog && x <= 0) || (a.ylog && y <= 0))
                continue;
            cairo_new_sub_path(cr);
            cairo_arc(cr, ax_x(&a, x), ax_y(&a, y), 2.6, 0, 2 * PI);
            cairo_fill(cr);
        }
    }
    cairo_restore(cr);

    set_hex(cr, 0x444444);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, a.b.x + 0.5, a.b.y + 0.5, a.b.w - 1, a.b.h - 1);
    cairo_stroke(cr);
    draw_legend(cr, f, &a);
    /* span labels along the bottom of the chart, the last span lowest,
     * each starting at its span (pulled left to stay inside) */
    font(cr, 11, 0);
    for (size_t i = 0; i < f->n_spans; i++) {
        double x0 = ax_x(&a, f->spans[i].lo), w = text_width(cr, f->spans[i].label);
        double tx = x0 + 5 + w > a.b.x + a.b.w - 6 ? a.b.x + a.b.w - 6 - w : x0 + 5;
        double ty = a.b.y + a.b.h - 8 - 17.0 * (double)(f->n_spans - 1 - i);
        cairo_rectangle(cr, tx - 3, ty - 13, w + 6, 16);
        cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
        cairo_fill(cr);
        set_hex(cr, PALETTE[(size_t)f->spans[i].colour % N_PALETTE]);
        text_at(cr, tx, ty, 0, 1, f->spans[i].label);
    }

    set_hex(cr, 0x111111);
    font(cr, 13, 0);
    if (f->xlabel)
        text_at(cr, a.b.x + a.b.w / 2, a.b.y + a.b.h + 30, 0.5, 0, f->xlabel);
    if (f->ylabel)
        text_up(cr, 22, a.b.y + a.b.h / 2, f->ylabel);
}

/* ---- the whole picture ----------------------------------------------------------- */

static void draw(cairo_t *cr, const plot_figure *f)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    draw_title(cr, f);
    if (f->n_maps)
        draw_heatmaps(cr, f);
    else
        draw_curves(cr, f);
}

int plot_draw_file(const plot_figure *f, const char *path, char *why, size_t n)
{
    int fmt = plot_format_of(path);
    if (fmt < 0) {
        snprintf(why, n, "'%s': the file name must end in .png, .svg or .pdf", path);
        return 0;
    }
    membuf m = {0};
    cairo_surface_t *s;
    if (fmt == PLOT_FMT_PNG)
        s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, f->width, f->height);
    else if (fmt == PLOT_FMT_SVG)
        s = cairo_svg_surface_create_for_stream(mem_write, &m, f->width, f->height);
    else
        s = cairo_pdf_surface_create_for_stream(mem_write, &m, f->width, f->height);
    cairo_t *cr = cairo_create(s);
    draw(cr, f);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS && fmt == PLOT_FMT_PNG)
        st = cairo_surface_write_to_png_stream(s, mem_write, &m);
    cairo_surface_finish(s);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(s);
    cairo_surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(why, n, "drawing failed: %s", cairo_status_to_string(st));
        free(m.p);
        return 0;
    }
    FILE *out = fopen(path, "wb");
    if (!out) {
        snprintf(why, n, "cannot write '%s': %s", path, strerror(errno));
        free(m.p);
        return 0;
    }
    int ok = fwrite(m.p, 1, m.len, out) == m.len;
    ok = (fclose(out) == 0) && ok;
    free(m.p);
    if (!ok) {
        snprintf(why, n, "error writing '%s'", path);
        remove(path);
        return 0;
    }
    return 1;
}

#endif /* POSENC_HAVE_CAIRO */
