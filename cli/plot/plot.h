/* plot.h - the plot module: pictures of the encodings.
 *
 * Two layers, both part of the program (the library never draws), and both
 * see only the public posenc.h and this header, never argv or the
 * interpreter:
 *   plot_figure.c  the figure builder: from a plot_request, asks the library
 *                  for every number (posenc_sinusoid_fill_f64,
 *                  posenc_rope_vec_dot_f64, posenc_rope_init_config,
 *                  posenc_alibi_penalties ...) and fills a plot_figure;
 *   plot_draw.c    the drawer: how a plot_figure looks with Cairo (axes,
 *                  ticks, colour bars, legends, heatmaps, curves and small
 *                  multiples), to PNG, SVG or PDF.
 * plot_options.h turns `posenc plot` argv or PLOT's words into a
 * plot_request. plot_draw.c draws only with POSENC_HAVE_CAIRO (the Makefile
 * defines it when `pkg-config --exists cairo`); without it every plot request
 * fails with a message saying how to get Cairo. */
#ifndef POSENC_CLI_PLOT_H
#define POSENC_CLI_PLOT_H

#include "posenc.h"
#include "posenc_model.h"

#include <stddef.h>
#include <stdint.h>

/* ---- the figure: what plot_draw.c knows how to draw ------------------------ */

/* Colour maps. DIVERGING maps [-vmax, vmax] through blue - near-white - red
 * with near-white exactly at 0 (vmin is ignored: the map is centred on 0).
 * NEGATIVE maps [vmin, 0] through dark blue .. near-white (0 is near-white).
 * SEQUENTIAL maps [vmin, vmax] through dark purple .. yellow (viridis). */
enum { PLOT_CMAP_DIVERGING = 0, PLOT_CMAP_NEGATIVE = 1, PLOT_CMAP_SEQUENTIAL = 2 };

/* One heatmap panel: rows * cols values, row-major, row 0 drawn at the top,
 * column 0 at the left. mask (optional, same shape): nonzero = not a value
 * (drawn light grey). */
typedef struct plot_heatmap {
    size_t rows, cols;
    const double *v;
    const unsigned char *mask;
    char title[64]; /* panel title for small multiples; "" for none */
    /* A colour scale of the panel's own (own != 0), drawn as a colour bar
     * right of the panel instead of the figure's (cmap, vmin, vmax and
     * cbar_label as plot_figure's): panels of different ranges side by
     * side, e.g. T5's buckets 0..31 beside DeBERTa's signed ids. */
    int own, cmap;
    double vmin, vmax;
    const char *cbar_label;
} plot_heatmap;

/* One curve: n points (x[i], y[i]); non-finite points break the line. */
typedef struct plot_curve {
    size_t n;
    const double *x, *y;
    int colour; /* index into the curve palette */
    int dashed;
    int markers;    /* a dot at every point too */
    char label[96]; /* legend entry; "" for none */
} plot_curve;

#define PLOT_MAX_HLINES 4

typedef struct plot_figure {
    char title[160];
    char subtitle[160]; /* a smaller second line under the title, "" for none */
    const char *xlabel, *ylabel;
    int width, height; /* pixels (PNG) or points (SVG, PDF) */

    /* Heatmaps (n_maps > 0): panels laid out in a grid of grid_cols columns,
     * sharing one colour bar. */
    size_t n_maps, grid_cols;
    const plot_heatmap *maps;
    int cmap;
    double vmin, vmax;
    const char *cbar_label;

    /* Curves (n_curves > 0): one chart. */
    size_t n_curves;
    const plot_curve *curves;
    int xlog, ylog;
    double xmin, xmax, ymin, ymax; /* axis limits */
    int legend_left;               /* legend in the top-left corner (else top-right) */
    size_t n_hlines;               /* dotted horizontal reference lines */
    double hline_y[PLOT_MAX_HLINES];
    char hline_label[PLOT_MAX_HLINES][96];
    /* Shaded ranges of x (e.g. the pairs a scaling blends), drawn behind the
     * curves in a curve colour, edges dashed, labelled along the bottom. */
    size_t n_spans;
    struct {
        double lo, hi;
        int colour;
        char label[128];
    } spans[PLOT_MAX_HLINES];
} plot_figure;

/* The colour of value t under a map, as r, g, b in [0, 1]. t is the value
 * already scaled and clamped to the map's range: v / vmax in [-1, 1] for
 * DIVERGING, v / |vmin| in [-1, 0] for NEGATIVE, (v - vmin) / (vmax - vmin) in
 * [0, 1] for SEQUENTIAL. Exposed so tests can compare pixels. */
void plot_cmap_colour(int cmap, double t, double rgb[3]);

/* The centre, in pixels, of the cell (row, col) of heatmap panel `panel` of
 * f as plot_draw_file draws it (for tests that read pixels back). Needs
 * Cairo. */
void plot_cell_centre(const plot_figure *f, size_t panel, size_t row, size_t col, double *x,
                      double *y);

/* The output format of a file name by its extension (case-insensitive):
 * ".png", ".svg", ".pdf". Returns PLOT_FMT_* or -1. */
enum { PLOT_FMT_PNG = 0, PLOT_FMT_SVG = 1, PLOT_FMT_PDF = 2 };
int plot_format_of(const char *path);

/* Draws f into a memory buffer, then writes it to path (format by extension).
 * Nothing is written when drawing fails; a failed write removes what it
 * created. Returns 1 on success, else 0 with a reason in why. Needs Cairo. */
int plot_draw_file(const plot_figure *f, const char *path, char *why, size_t n);

/* ---- the request: what the user asked for --------------------------------- */

typedef enum plot_kind {
    PLOT_PE = 0,
    PLOT_SIMILARITY,
    PLOT_ROPE_DECAY,
    PLOT_FREQS,
    PLOT_ALIBI,
    PLOT_T5_BUCKETS,
    PLOT_SINUSOID, /* a posenc_sinusoid_spec's table beside the lesson's */
    PLOT_BUCKETS   /* T5's bucket map beside DeBERTa's log-bucketed ids */
} plot_kind;

/* Most series (bases or RoPE configurations) on one chart. */
#define PLOT_MAX_SERIES 6
/* Biggest pictures: cells of all heatmaps together, points per curve,
 * random vectors averaged per point, heads of an ALiBi picture. */
#define PLOT_MAX_CELLS (1u << 20)
#define PLOT_MAX_POINTS 4096u
#define PLOT_MAX_SAMPLES 4096u
#define PLOT_MAX_HEADS 64u

typedef struct plot_request {
    plot_kind kind;
    const char *out;    /* file name */
    const char *title;  /* NULL: a title made from the request */
    int width, height;
    uint32_t positions; /* pe, similarity: rows; alibi: query/key positions */
    uint32_t dim;       /* D (head_dim for rope-decay, freqs) */
    double base[PLOT_MAX_SERIES];
    size_t n_base;      /* >= 1; pe and similarity use base[0] */
    posenc_layout layout;
    /* rope-decay */
    int64_t max_offset;
    int linear;         /* linear offset axis (default: log) */
    uint32_t samples;   /* random unit vectors averaged */
    uint32_t points;    /* offsets sampled along the axis */
    uint64_t seed;
    /* freqs */
    int64_t context;    /* reference line at this many tokens; 0 = none */
    /* alibi */
    uint32_t heads;
    int causal;
    /* t5-buckets: num_buckets and max_distance (positions: query/key positions) */
    uint32_t t5_buckets, t5_max_distance;
    /* Extra series for rope-decay and freqs: a model's RoPE (e.g. a scaled
     * one) drawn next to the plain bases. Not owned. */
    const posenc_rope *rope[PLOT_MAX_SERIES];
    const char *rope_label[PLOT_MAX_SERIES];
    size_t n_rope;
    /* A model's RoPE by its config (scaling included): where rope_config[i]
     * is not NULL it replaces rope[i], and the plot builds it with
     * posenc_rope_init_config at the length the chart covers (cur_len when
     * nonzero, else rope-decay: max_offset + 1, freqs: context), so dynamic
     * NTK and LongRoPE show the frequencies of that length. freqs also draws
     * a scaled series' frequencies before scaling (dashed) and shades the
     * pairs that YaRN's ramp or Llama 3's blend band covers. Not owned. */
    const posenc_rope_config *rope_config[PLOT_MAX_SERIES];
    /* A model's layer: where rope_model[i] is not NULL it replaces both, and
     * the plot asks the library for layer rope_layer[i]'s RoPE at that
     * length (posenc_model_layer_rope: the family's own length rules, e.g.
     * Qwen 1's dynamic NTK, included). Not owned. */
    const posenc_model *rope_model[PLOT_MAX_SERIES];
    uint32_t rope_layer[PLOT_MAX_SERIES];
    int64_t cur_len;
    /* M-RoPE: where mrope[i] is not NULL, rope series i is multimodal and
     * freqs draws its pairs in three colours by the axis each follows
     * (temporal, height, width). Not owned. */
    const posenc_mrope *mrope[PLOT_MAX_SERIES];
    /* sinusoid: the table PE of `sinusoid` (posenc_sinusoid_layout_fill_f32,
     * the family's float arithmetic and offset) at token indices
     * 0 .. positions - 1, width dim, labelled sinusoid_label; beside the
     * lesson's (POSENC_SINUSOID_LESSON, base[0]) unless alone. */
    posenc_sinusoid_spec sinusoid;
    const char *sinusoid_label;
    int alone;
    /* buckets: panels (PLOT_PANEL_T5 | PLOT_PANEL_DEBERTA) of every
     * (query i, key j) < positions: T5's bucket (t5_buckets,
     * t5_max_distance, t5_bidirectional) and DeBERTa's relative id i - j,
     * log-bucketed by posenc_deberta_log_bucket(i - j, deberta_buckets,
     * deberta_max_position) when deberta_buckets > 0 (plain i - j when 0);
     * each panel titled with t5_label / deberta_label when not NULL. */
    unsigned panels;
    int t5_bidirectional;
    uint32_t deberta_buckets, deberta_max_position;
    const char *t5_label, *deberta_label;
} plot_request;

#define PLOT_PANEL_T5 1u
#define PLOT_PANEL_DEBERTA 2u

/* Fills rq with the defaults of kind (every option has one). */
void plot_request_defaults(plot_request *rq, plot_kind kind);

/* The kind named s (in any case), or -1; and the name of a kind. */
int plot_kind_of(const char *s, size_t len);
const char *plot_kind_name(plot_kind kind);

/* The figure of a request with the numbers computed (no drawing, no Cairo
 * needed): NULL with a reason in why for a bad request. Free with
 * plot_built_free (NULL accepted). */
typedef struct plot_built plot_built;
plot_built *plot_build(const plot_request *rq, char *why, size_t n);
const plot_figure *plot_built_figure(const plot_built *b);
void plot_built_free(plot_built *b);

/* Computes the numbers, draws and writes rq->out. Returns 1, or 0 with a
 * reason in why (nothing written then). */
int plot_run(const plot_request *rq, char *why, size_t n);

#endif
