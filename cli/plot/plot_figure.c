/* plot_figure.c - the figure builder of the plot module: what each picture
 * shows. From a plot_request it asks the library for every number and fills
 * a plot_figure for plot_draw.c. It sees neither argv nor the interpreter
 * (plot_options.c turns those into a plot_request).
 * The only arithmetic here is bookkeeping: dot products of library vectors,
 * averages over random unit vectors, and turning radians per token into
 * tokens per turn (2 pi / inv_freq). */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const double TWO_PI = 6.28318530717958647692;

static const char *const KIND_NAMES[] = {"pe",    "similarity", "rope-decay", "freqs",
                                         "alibi", "t5-buckets", "sinusoid",   "buckets"};
#define N_KINDS (sizeof KIND_NAMES / sizeof KIND_NAMES[0])

int plot_kind_of(const char *s, size_t len)
{
    for (int i = 0; i < (int)N_KINDS; i++)
        if (strlen(KIND_NAMES[i]) == len && strncasecmp(s, KIND_NAMES[i], len) == 0)
            return i;
    return -1;
}

const char *plot_kind_name(plot_kind kind)
{
    return (unsigned)kind < N_KINDS ? KIND_NAMES[kind] : "?";
}

void plot_request_defaults(plot_request *rq, plot_kind kind)
{
    /* every field not named here is 0 */
    *rq = (plot_request){
        .kind = kind,
        .base = {POSENC_DEFAULT_BASE}, .n_base = 1, .layout = POSENC_LAYOUT_INTERLEAVED,
        .dim = 128, .positions = 128,
        .width = 900, .height = 600,
        .max_offset = 32768, .samples = 64, .points = 400, .seed = 1,
        .context = 4096, .heads = 8, .causal = 1,
        .t5_buckets = 32, .t5_max_distance = 128,
        /* sinusoid: fairseq's halves (posenc_sinusoid_family_spec's FAIRSEQ) */
        .sinusoid = {POSENC_SINUSOID_SIN_COS, POSENC_SINUSOID_FREQ_FAIRSEQ,
                     POSENC_SINUSOID_TORCH_F32, POSENC_DEFAULT_BASE, 0},
        .sinusoid_label = "fairseq",
        /* buckets: T5's encoder beside DeBERTa-v3's (position_buckets 256,
         * max_relative_positions -1: max_position_embeddings 512) */
        .panels = PLOT_PANEL_T5 | PLOT_PANEL_DEBERTA, .t5_bidirectional = 1,
        .deberta_buckets = 256, .deberta_max_position = 512,
    };
    switch (kind) {
    case PLOT_PE:
        rq->height = 640;
        break;
    case PLOT_SIMILARITY:
        rq->width = 780;
        rq->height = 680;
        break;
    case PLOT_ALIBI:
        rq->positions = 16;
        rq->width = 1000;
        rq->height = 560;
        break;
    case PLOT_T5_BUCKETS:
        rq->positions = 160;
        rq->width = 1100;
        rq->height = 560;
        break;
    case PLOT_SINUSOID:
        rq->width = 1100;
        rq->height = 600;
        break;
    case PLOT_BUCKETS: /* past DeBERTa-v3's 128 exact distances */
        rq->positions = 320;
        rq->width = 1200;
        rq->height = 600;
        break;
    default:
        break;
    }
}

/* ---- random unit vectors (splitmix64 + Box-Muller): reproducible by seed ---- */

static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double uniform01(uint64_t *s) /* in (0, 1] */
{
    return ((double)(next_u64(s) >> 11) + 1.0) / 9007199254740992.0;
}

/* A direction drawn uniformly on the unit sphere of R^D. */
static void random_unit(uint64_t *s, uint32_t D, double *u)
{
    double norm2 = 0;
    for (uint32_t i = 0; i < D; i++) {
        u[i] = sqrt(-2 * log(uniform01(s))) * cos(TWO_PI * uniform01(s));
        norm2 += u[i] * u[i];
    }
    double inv = 1 / sqrt(norm2);
    for (uint32_t i = 0; i < D; i++)
        u[i] *= inv;
}

/* ---- RoPE series ---------------------------------------------------------------- */

/* 1 if r is plain RoPE (exactly what posenc_rope_init builds from r->base). */
static int rope_is_plain(const posenc_rope *r)
{
    posenc_rope ref;
    if (posenc_rope_init(&ref, r->head_dim, r->rotary_dim, r->base, r->layout) != POSENC_OK)
        return 0;
    size_t np = r->rotary_dim / 2;
    return r->attn_factor == 1.0 &&
           memcmp(ref.inv_freq_hi, r->inv_freq_hi, np * sizeof(double)) == 0 &&
           memcmp(ref.inv_freq_lo, r->inv_freq_lo, np * sizeof(double)) == 0;
}

/* *out = ROPE(offset, q) . ROPE(0, k) under the model RoPE r (q, k of
 * r->head_dim), scaling included: the library rotates the first rotary_dim
 * elements with r's frequencies and attention factor a, the rest pass
 * through, so its score is a^2 R + P (R: the rotated part, P: the rest).
 * The attention factor is divided out here, *out = R + P, so that every
 * curve starts at the same height and only the decay differs (a is a
 * constant temperature on the rotated part; the legend states it). */
static posenc_status rope_score(const posenc_rope *r, int64_t offset, const double *q,
                                const double *k, double *out)
{
    posenc_status s = posenc_rope_vec_dot_f64(r, offset, 0, q, k, out);
    if (s != POSENC_OK || r->attn_factor == 1.0)
        return s;
    double rest = 0;
    for (uint32_t i = r->rotary_dim; i < r->head_dim; i++)
        rest += q[i] * k[i];
    *out = (*out - rest) / (r->attn_factor * r->attn_factor) + rest;
    return s;
}

/* ---- the figures ---------------------------------------------------------------- */

/* Everything one figure owns; freed by plot_built_free. */
struct plot_built {
    plot_figure f;
    plot_heatmap maps[64];
    plot_curve curves[2 * PLOT_MAX_SERIES + PLOT_MAX_SERIES];
    double *mem;
    unsigned char *mask;
    posenc_rope *ropes; /* the plain series built from bases, then the configs' */
    posenc_rope_config *cfgs; /* the model layers' configurations (rope_model) */
};
typedef struct plot_built built;

void plot_built_free(plot_built *b)
{
    if (!b)
        return;
    free(b->mem);
    free(b->mask);
    free(b->ropes);
    free(b->cfgs);
    free(b);
}

const plot_figure *plot_built_figure(const plot_built *b) { return &b->f; }

static int fail(char *why, size_t n, const char *what, posenc_status s)
{
    snprintf(why, n, "%s: %s", what, posenc_strerror(s));
    return 0;
}

static int nomem(char *why, size_t n)
{
    snprintf(why, n, "out of memory");
    return 0;
}

static void base_text(double base, char *s, size_t n) { snprintf(s, n, "%.10g", base); }

/* The PE table: row pos of out (rq->dim numbers) = PE(pos), pos < rq->positions. */
static int pe_rows(const plot_request *rq, double *out, char *why, size_t n)
{
    for (uint32_t pos = 0; pos < rq->positions; pos++) {
        posenc_status s = posenc_sinusoid_fill_f64(pos, rq->dim, rq->base[0],
                                                   out + (size_t)pos * rq->dim);
        if (s != POSENC_OK)
            return fail(why, n, "PE", s);
    }
    return 1;
}

/* b->mem: the P x D rows PE(pos) of rq's first base, then extra doubles
 * for the caller. */
static int alloc_pe_rows(const plot_request *rq, built *b, size_t extra, char *why, size_t n)
{
    b->mem = malloc(((size_t)rq->positions * rq->dim + extra) * sizeof(double));
    if (!b->mem)
        return nomem(why, n);
    return pe_rows(rq, b->mem, why, n);
}

/* The title "<what>, D = <dim>, base <first base>". */
static void title_dim_base(plot_figure *f, const char *what, const plot_request *rq)
{
    char bt[32];
    base_text(rq->base[0], bt, sizeof bt);
    snprintf(f->title, sizeof f->title, "%s, D = %u, base %s", what, rq->dim, bt);
}

/* A figure of one heatmap: rows x cols values from data, axes x and y,
 * colour map cmap. */
static void one_map(built *b, uint32_t rows, uint32_t cols, const double *data, const char *x,
                    const char *y, int cmap)
{
    b->maps[0] = (plot_heatmap){rows, cols, data, NULL, "", 0, 0, 0, 0, NULL};
    b->f.n_maps = 1;
    b->f.xlabel = x;
    b->f.ylabel = y;
    b->f.cmap = cmap;
}

static int build_pe(const plot_request *rq, built *b, char *why, size_t n)
{
    uint32_t P = rq->positions, D = rq->dim;
    if (!alloc_pe_rows(rq, b, 0, why, n))
        return 0;
    plot_figure *f = &b->f;
    title_dim_base(f, "Sinusoidal position encoding PE(pos)", rq);
    snprintf(f->subtitle, sizeof f->subtitle,
             "pair k = i // 2: PE[2k] = sin(pos / base^(2k/D)), PE[2k+1] = cos; fast on the left");
    one_map(b, P, D, b->mem, "dimension i", "position pos", PLOT_CMAP_DIVERGING);
    f->vmax = 1;
    f->cbar_label = "PE(pos)[i]";
    return 1;
}

static int build_similarity(const plot_request *rq, built *b, char *why, size_t n)
{
    uint32_t P = rq->positions, D = rq->dim;
    if (!alloc_pe_rows(rq, b, (size_t)P * P, why, n))
        return 0;
    double *pe = b->mem, *sim = b->mem + (size_t)P * D;
    double vmin = INFINITY, vmax = -INFINITY;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            double d = 0;
            for (uint32_t e = 0; e < D; e++)
                d += pe[(size_t)i * D + e] * pe[(size_t)j * D + e];
            sim[(size_t)i * P + j] = d;
            vmin = d < vmin ? d : vmin;
            vmax = d > vmax ? d : vmax;
        }
    plot_figure *f = &b->f;
    title_dim_base(f, "Similarity of positions PE(i) . PE(j)", rq);
    snprintf(f->subtitle, sizeof f->subtitle,
             "largest on the diagonal (D/2): near positions look alike, far ones less");
    one_map(b, P, P, sim, "position j", "position i", PLOT_CMAP_SEQUENTIAL);
    f->vmin = vmin;
    f->vmax = vmax > vmin ? vmax : vmin + 1;
    f->cbar_label = "PE(i) . PE(j)";
    return 1;
}

/* The series of rope-decay and freqs: one plain RoPE per base, then the
 * caller's RoPEs (those given by config built at cur_len). cfg[k] is the
 * config of series k, or NULL. */
static int series(const plot_request *rq, built *b, int64_t cur_len, const posenc_rope **r,
                  const posenc_rope_config **cfg, const char **label, char (*lab)[96],
                  char *why, size_t n)
{
    b->ropes = malloc((rq->n_base + rq->n_rope) * sizeof *b->ropes);
    b->cfgs = malloc((rq->n_rope ? rq->n_rope : 1) * sizeof *b->cfgs);
    if (!b->ropes || !b->cfgs)
        return nomem(why, n);
    size_t k = 0;
    for (size_t i = 0; i < rq->n_base; i++, k++) {
        posenc_status s = posenc_rope_init(&b->ropes[k], rq->dim, rq->dim, rq->base[i], rq->layout);
        if (s != POSENC_OK)
            return fail(why, n, "RoPE", s);
        char bt[32];
        base_text(rq->base[i], bt, sizeof bt);
        snprintf(lab[k], sizeof lab[k], "base %s", bt);
        r[k] = &b->ropes[k];
        cfg[k] = NULL;
        label[k] = lab[k];
    }
    for (size_t i = 0; i < rq->n_rope; i++, k++) {
        label[k] = rq->rope_label[i] ? rq->rope_label[i] : "model RoPE";
        cfg[k] = rq->rope_config[i];
        r[k] = rq->rope[i];
        if (rq->rope_model[i]) {
            /* a model's layer: its RoPE at cur_len from the library's
             * per-layer call (a family's length rule included) */
            const posenc_model *m = rq->rope_model[i];
            posenc_status s = posenc_model_layer_rope(m, rq->rope_layer[i], cur_len, &b->ropes[k]);
            if (s == POSENC_OK)
                s = posenc_model_layer_rope_config(m, rq->rope_layer[i], &b->cfgs[i]);
            if (s != POSENC_OK) {
                snprintf(why, n, "RoPE of '%s': %s", label[k], posenc_strerror(s));
                return 0;
            }
            cfg[k] = &b->cfgs[i];
            r[k] = &b->ropes[k];
        } else if (cfg[k]) {
            posenc_status s = posenc_rope_init_config(&b->ropes[k], cfg[k], cur_len);
            if (s != POSENC_OK) {
                snprintf(why, n, "RoPE of '%s': %s", label[k], posenc_strerror(s));
                return 0;
            }
            r[k] = &b->ropes[k];
        } else if (!r[k]) {
            snprintf(why, n, "series '%s' has no RoPE", label[k]);
            return 0;
        }
    }
    return (int)k;
}

/* The offsets of rope-decay into x: evenly spaced on the axis (log or
 * linear), whole tokens, each once. Returns their count. */
static size_t decay_offsets(const plot_request *rq, double *x)
{
    uint32_t np = rq->points;
    size_t cnt = 0;
    for (uint32_t i = 0; i < np; i++) {
        double t = np > 1 ? (double)i / (np - 1) : 0;
        double o = rq->linear ? round(t * (double)rq->max_offset)
                              : round(exp(t * log((double)rq->max_offset)));
        if (cnt == 0 || o > x[cnt - 1])
            x[cnt++] = o;
    }
    return cnt;
}

/* One series' scores at the offsets x[0..cnt): yo with q = k = ones (the
 * score over |q||k| = D, cosine similarity), yr the mean over random unit
 * q = k (the same vectors at every offset: a smooth curve); ones and u hold
 * head_dim numbers. *ymin lowered to the least. 0 with a reason. */
static int decay_scores(const plot_request *rq, const posenc_rope *r, const double *x,
                        size_t cnt, const double *ones, double *u, double *yo, double *yr,
                        double *ymin, char *why, size_t n)
{
    uint32_t D = r->head_dim;
    for (size_t i = 0; i < cnt; i++) {
        double d;
        posenc_status st = rope_score(r, (int64_t)x[i], ones, ones, &d);
        if (st != POSENC_OK)
            return fail(why, n, "DOT", st);
        yo[i] = d / D;
        double sum = 0;
        uint64_t seed = rq->seed;
        for (uint32_t v = 0; v < rq->samples; v++) {
            random_unit(&seed, D, u);
            st = rope_score(r, (int64_t)x[i], u, u, &d);
            if (st != POSENC_OK)
                return fail(why, n, "DOT", st);
            sum += d;
        }
        yr[i] = rq->samples ? sum / rq->samples : 0;
        *ymin = yo[i] < *ymin ? yo[i] : *ymin;
        if (rq->samples)
            *ymin = yr[i] < *ymin ? yr[i] : *ymin;
    }
    return 1;
}

/* The legend of a rope-decay series' q = k = ones curve. A label longer
 * than the legend's room is cut: that is fine. */
static void decay_label(plot_curve *c, const char *label, const posenc_rope *r,
                        const posenc_rope_config *cfg)
{
    uint32_t D = r->head_dim;
    char attn[40] = "";
    if (r->attn_factor != 1.0)
        snprintf(attn, sizeof attn, ", a = %.4g", r->attn_factor);
    char type[24] = "";
    if (cfg && cfg->scaling.type != POSENC_ROPE_DEFAULT)
        snprintf(type, sizeof type, " (%s)", posenc_rope_type_name(cfg->scaling.type));
    int n;
    if (r->rotary_dim < D)
        n = snprintf(c->label, sizeof c->label, "%s%s, D = %u (%u rotated)%s: q = k = ones",
                     label, type, D, r->rotary_dim, attn);
    else
        n = snprintf(c->label, sizeof c->label, "%s%s, D = %u%s: q = k = ones", label, type, D,
                     attn);
    (void)n;
}

static int build_rope_decay(const plot_request *rq, built *b, char *why, size_t n)
{
    const posenc_rope *r[PLOT_MAX_SERIES];
    const posenc_rope_config *cfg[PLOT_MAX_SERIES];
    const char *label[PLOT_MAX_SERIES];
    char lab[PLOT_MAX_SERIES][96];
    int64_t len = rq->cur_len ? rq->cur_len : rq->max_offset + 1;
    int ns = series(rq, b, len, r, cfg, label, lab, why, n);
    if (ns <= 0)
        return 0;
    uint32_t maxd = 0;
    int any_attn = 0;
    for (int s = 0; s < ns; s++) {
        maxd = r[s]->head_dim > maxd ? r[s]->head_dim : maxd;
        any_attn |= r[s]->attn_factor != 1.0;
    }
    uint32_t np = rq->points;
    b->mem = malloc(((size_t)np * (1 + 2 * (size_t)ns) + 2 * (size_t)maxd) * sizeof(double));
    if (!b->mem)
        return nomem(why, n);
    /* x[np] offsets, y[2 ns][np] curves, ones[maxd], u[maxd] */
    double *x = b->mem, *y = x + np, *ones = y + 2 * (size_t)ns * np, *u = ones + maxd;
    size_t cnt = decay_offsets(rq, x);
    for (uint32_t i = 0; i < maxd; i++)
        ones[i] = 1;
    plot_figure *f = &b->f;
    size_t nc = 0;
    double ymin = 0;
    for (int s = 0; s < ns; s++) {
        double *yo = y + (size_t)(2 * s) * np, *yr = yo + np;
        if (!decay_scores(rq, r[s], x, cnt, ones, u, yo, yr, &ymin, why, n))
            return 0;
        plot_curve *c = &b->curves[nc++];
        *c = (plot_curve){cnt, x, yo, s, 0, 0, ""};
        decay_label(c, label[s], r[s], cfg[s]);
        if (rq->samples) {
            c = &b->curves[nc++];
            *c = (plot_curve){cnt, x, yr, s, 1, 0, ""};
            snprintf(c->label, sizeof c->label, "%s: mean of %u random unit q = k", label[s],
                     rq->samples);
        }
    }
    snprintf(f->title, sizeof f->title, "RoPE: score of the same query and key against their offset");
    if (any_attn)
        snprintf(f->subtitle, sizeof f->subtitle,
                 "ROPE(m, q) . ROPE(n, k) / (|q| |k|) at offset m - n, with each attention "
                 "factor a divided out (the model's score is a^2 times the rotated part)");
    else if (rq->n_rope)
        snprintf(f->subtitle, sizeof f->subtitle,
                 "ROPE(m, q) . ROPE(n, k) / (|q| |k|) at offset m - n");
    else
        snprintf(f->subtitle, sizeof f->subtitle,
                 "ROPE(m, q) . ROPE(n, k) / (|q| |k|) at offset m - n; %s layout",
                 rq->layout == POSENC_LAYOUT_HALF ? "half" : "interleaved");
    f->xlabel = rq->linear ? "offset m - n (tokens)" : "offset m - n (tokens, log scale)";
    f->ylabel = "cosine similarity after rotation";
    f->curves = b->curves;
    f->n_curves = nc;
    f->xlog = !rq->linear;
    f->xmin = rq->linear ? 0 : 1;
    f->xmax = (double)rq->max_offset;
    f->ymin = floor(ymin * 10 - 0.5) / 10;
    f->ymin = f->ymin > -0.2 ? -0.2 : f->ymin;
    f->ymax = 1.05;
    return 1;
}

/* Pair index (fractional) whose plain wavelength 2 pi base^(2k/d) is w. */
static double pair_of_wavelength(double w, double base, uint32_t d)
{
    return 0.5 * d * log(w / TWO_PI) / log(base);
}

/* An M-RoPE series: the pairs of each axis (t, h, w) as dots in a colour of
 * their own (from colour on), into curves[0..3); the points go to q, 4 per
 * pair. Returns q past them. */
static double *mrope_curves(const posenc_mrope *mr, const double *x, const double *y,
                            uint32_t np, const char *label, int colour, double *q,
                            plot_curve *curves)
{
    static const char *const axis_word[3] = {"temporal", "height", "width"};
    for (int a = 0; a < 3; a++) {
        /* dots only: a NaN after each point breaks the line */
        size_t m = mr->section[a], i = 0;
        for (uint32_t k = 0; k < np; k++)
            if (mr->axis[k] == a) {
                q[2 * i] = x[k];
                q[2 * m + 2 * i] = y[k];
                q[2 * i + 1] = q[2 * m + 2 * i + 1] = NAN;
                i++;
            }
        plot_curve *c = &curves[a];
        *c = (plot_curve){2 * m, q, q + 2 * m, colour + a, 0, 1, ""};
        snprintf(c->label, sizeof c->label, "%s: %zu pairs follow the %s position %s", label, m,
                 axis_word[a], a == 0 ? "t" : a == 1 ? "h" : "w");
        q += 4 * m;
    }
    return q;
}

/* The pairs a Llama 3 blend band or a YaRN ramp of cfg (series s, rotary_dim
 * d) covers, shaded: a span of f. 1, or 0 with a reason. */
static int band_span(plot_figure *f, const posenc_rope_config *cfg, const char *label, int s,
                     uint32_t d, int frac, char *why, size_t n)
{
    posenc_rope_type t = cfg ? cfg->scaling.type : POSENC_ROPE_DEFAULT;
    if ((t != POSENC_ROPE_LLAMA3 && t != POSENC_ROPE_YARN) || f->n_spans >= PLOT_MAX_HLINES)
        return 1;
    uint32_t np = d / 2;
    posenc_rope_scaling sc;
    posenc_freqs_summary sum;
    posenc_status st = posenc_rope_config_scaling(cfg, &sc);
    if (st == POSENC_OK)
        st = posenc_rope_explain_freqs(d, cfg->base, &sc, 0, NULL, &sum);
    if (st != POSENC_OK)
        return fail(why, n, "RoPE", st);
    double k0, k1;
    char *sl = f->spans[f->n_spans].label;
    size_t sn = sizeof f->spans[0].label;
    if (t == POSENC_ROPE_LLAMA3) { /* wavelengths before scaling, in tokens */
        k0 = pair_of_wavelength(sum.llama3_keep_below, cfg->base, d);
        k1 = pair_of_wavelength(sum.llama3_divide_above, cfg->base, d);
        snprintf(sl, sn,
                 "%s: blend band, wavelengths %.6g..%.6g before scaling; "
                 "longer ones / %.6g",
                 label, sum.llama3_keep_below, sum.llama3_divide_above, cfg->scaling.factor);
    } else { /* the ramp's pair range, pair indices */
        k0 = sum.yarn_ramp_lo;
        k1 = sum.yarn_ramp_hi;
        snprintf(sl, sn, "%s: YaRN ramp, pairs %.4g..%.4g; later pairs / %.6g", label, k0, k1,
                 cfg->scaling.factor);
    }
    k0 = k0 < 0 ? 0 : k0 > np - 1 ? np - 1 : k0;
    k1 = k1 < 0 ? 0 : k1 > np - 1 ? np - 1 : k1;
    f->spans[f->n_spans].lo = frac ? 2 * k0 / d : k0;
    f->spans[f->n_spans].hi = frac ? 2 * k1 / d : k1;
    f->spans[f->n_spans].colour = s;
    f->n_spans++;
    return 1;
}

/* The frame of freqs: the context line, titles, axes from lo to hi
 * wavelengths. dashed: a series is drawn before its scaling too; mrope: an
 * M-RoPE series; frac: x is 2k / rotary_dim; maxp: the most pairs. */
static void freqs_frame(const plot_request *rq, plot_figure *f, int dashed, int mrope,
                        int frac, uint32_t maxp, double lo, double hi)
{
    if (rq->context > 0) {
        f->n_hlines = 1;
        f->hline_y[0] = (double)rq->context;
        snprintf(f->hline_label[0], sizeof f->hline_label[0],
                 "context %lld tokens: pairs above never finish a turn",
                 (long long)rq->context);
        hi = (double)rq->context > hi ? (double)rq->context : hi;
        lo = (double)rq->context < lo ? (double)rq->context : lo;
    }
    snprintf(f->title, sizeof f->title, "RoPE frequency bands: wavelength of every pair");
    if (mrope)
        snprintf(f->subtitle, sizeof f->subtitle,
                 "wavelength = 2 pi / inv_freq(k) tokens per full turn; M-RoPE: each pair "
                 "coloured by the position it follows (t, h or w)");
    else if (dashed)
        snprintf(f->subtitle, sizeof f->subtitle,
                 "wavelength = 2 pi / inv_freq(k) tokens per full turn; dashed: before the "
                 "scaling, shaded: the pairs it blends");
    else
        snprintf(f->subtitle, sizeof f->subtitle,
                 "wavelength = 2 pi / inv_freq(k) = 2 pi base^(2k/D) tokens per full turn");
    f->xlabel = frac ? "pair position 2k / rotary_dim (0: fastest pair, 1: slowest)"
                     : "pair k (dimensions 2k, 2k+1)";
    f->ylabel = "wavelength (tokens, log scale)";
    f->ylog = 1;
    f->xmin = 0;
    f->xmax = frac ? 1 : maxp > 1 ? maxp - 1 : 1;
    f->ymin = pow(10, floor(log10(lo)));
    f->ymax = pow(10, ceil(log10(hi * 1.0000001)));
    f->legend_left = 1;
}

static int build_freqs(const plot_request *rq, built *b, char *why, size_t n)
{
    const posenc_rope *r[PLOT_MAX_SERIES];
    const posenc_rope_config *cfg[PLOT_MAX_SERIES];
    const char *label[PLOT_MAX_SERIES];
    char lab[PLOT_MAX_SERIES][96];
    int ns = series(rq, b, rq->cur_len ? rq->cur_len : rq->context, r, cfg, label, lab, why, n);
    if (ns <= 0)
        return 0;
    /* x: the pair k when every series has the same rotary_dim d; otherwise
     * 2k/d, so that pairs of the same base frequency line up. */
    int frac = 0;
    size_t total = 0;
    uint32_t maxp = 0;
    for (int s = 0; s < ns; s++) {
        total += r[s]->rotary_dim / 2;
        maxp = r[s]->rotary_dim / 2 > maxp ? r[s]->rotary_dim / 2 : maxp;
        frac |= r[s]->rotary_dim != r[0]->rotary_dim;
    }
    /* x, y, and the plain y of a scaled series; then an M-RoPE series'
     * points regrouped by axis */
    b->mem = malloc(7 * total * sizeof(double));
    if (!b->mem)
        return nomem(why, n);
    double *p = b->mem, *q = b->mem + 3 * total, lo = INFINITY, hi = 0;
    plot_figure *f = &b->f;
    size_t nc = 0, n_mrope = 0;
    for (int s = 0; s < ns; s++) {
        uint32_t np = r[s]->rotary_dim / 2, d = r[s]->rotary_dim;
        double *x = p, *y = p + np, *y0 = p + 2 * (size_t)np;
        p += 3 * (size_t)np;
        int scaled = !rope_is_plain(r[s]);
        for (int t = 0; t < s && scaled; t++) /* already drawn as a plain series? */
            scaled = !(r[t]->rotary_dim == d && r[t]->base == r[s]->base && rope_is_plain(r[t]));
        posenc_rope plain;
        if (scaled) {
            posenc_status st = posenc_rope_init(&plain, r[s]->head_dim, d, r[s]->base, r[s]->layout);
            if (st != POSENC_OK)
                return fail(why, n, "RoPE", st);
        }
        for (uint32_t k = 0; k < np; k++) {
            x[k] = frac ? 2.0 * k / d : k;
            /* tokens per full turn of pair k */
            /* proportional RoPE's zero pairs never turn: no point (NaN); a
             * layer turning by -theta (NanoChat) holds them negated */
            y[k] = r[s]->inv_freq_hi[k] != 0 ? TWO_PI / fabs(r[s]->inv_freq_hi[k]) : NAN;
            lo = y[k] < lo ? y[k] : lo;
            hi = y[k] > hi ? y[k] : hi;
            y0[k] = scaled ? TWO_PI / plain.inv_freq_hi[k] : 0;
            lo = scaled && y0[k] < lo ? y0[k] : lo;
            hi = scaled && y0[k] > hi ? y0[k] : hi;
        }
        const posenc_mrope *mr = s >= (int)rq->n_base ? rq->mrope[s - (int)rq->n_base] : NULL;
        if (mr && mr->n_pairs == np) {
            q = mrope_curves(mr, x, y, np, label[s], ns + 3 * (int)n_mrope, q, b->curves + nc);
            nc += 3;
            n_mrope++;
            continue;
        }
        plot_curve *c = &b->curves[nc++];
        *c = (plot_curve){np, x, y, s, 0, 1, ""}; /* a dot per pair */
        char attn[40] = "";
        if (r[s]->attn_factor != 1.0)
            snprintf(attn, sizeof attn, ", a = %.4g", r[s]->attn_factor);
        if (cfg[s] && cfg[s]->scaling.type != POSENC_ROPE_DEFAULT)
            snprintf(c->label, sizeof c->label, "%s (%s%s), rotary_dim %u", label[s],
                     posenc_rope_type_name(cfg[s]->scaling.type), attn, d);
        else
            snprintf(c->label, sizeof c->label, "%s, rotary_dim %u", label[s], d);
        if (scaled) { /* before scaling: the base frequencies, dashed */
            c = &b->curves[nc++];
            *c = (plot_curve){np, x, y0, s, 1, 0, ""};
            char bt[32];
            base_text(r[s]->base, bt, sizeof bt);
            snprintf(c->label, sizeof c->label, "%s before scaling (base %s)", label[s], bt);
        }
        /* The pairs a Llama 3 blend band or a YaRN ramp covers. */
        if (!band_span(f, cfg[s], label[s], s, d, frac, why, n))
            return 0;
    }
    f->n_curves = nc;
    f->curves = b->curves;
    freqs_frame(rq, f, nc > (size_t)ns, n_mrope != 0, frac, maxp, lo, hi);
    return 1;
}

static int build_alibi(const plot_request *rq, built *b, char *why, size_t n)
{
    uint32_t H = rq->heads, N = rq->positions;
    size_t cells = (size_t)N * N;
    b->mem = malloc((cells * H + 2 * (size_t)H) * sizeof(double));
    b->mask = malloc(cells);
    if (!b->mem || !b->mask)
        return nomem(why, n);
    double *pen = b->mem + cells * H, *slopes = pen + H;
    posenc_status s = posenc_alibi_slopes(H, slopes);
    if (s != POSENC_OK)
        return fail(why, n, "ALiBi", s);
    double vmin = 0;
    for (uint32_t i = 0; i < N; i++)
        for (uint32_t j = 0; j < N; j++) {
            s = posenc_alibi_penalties(H, i, j, pen);
            if (s != POSENC_OK)
                return fail(why, n, "ALiBi", s);
            b->mask[(size_t)i * N + j] = rq->causal && j > i;
            for (uint32_t h = 0; h < H; h++) {
                b->mem[h * cells + (size_t)i * N + j] = pen[h];
                vmin = pen[h] < vmin && !b->mask[(size_t)i * N + j] ? pen[h] : vmin;
            }
        }
    plot_figure *f = &b->f;
    for (uint32_t h = 0; h < H; h++) {
        plot_heatmap *m = &b->maps[h];
        *m = (plot_heatmap){N, N, b->mem + h * cells, b->mask, "", 0, 0, 0, 0, NULL};
        double inv = 1 / slopes[h];
        if (inv == round(inv) && inv < 1e6)
            snprintf(m->title, sizeof m->title, "head %u: m = 1/%.0f", h + 1, inv);
        else
            snprintf(m->title, sizeof m->title, "head %u: m = %.3g", h + 1, slopes[h]);
    }
    snprintf(f->title, sizeof f->title, "ALiBi: the bias -m |i - j| of each of %u heads", H);
    snprintf(f->subtitle, sizeof f->subtitle, "%s; one colour scale for all heads",
             rq->causal ? "causal: grey keys j > i are masked" : "every key j");
    f->xlabel = "key position j";
    f->ylabel = "query position i";
    f->maps = b->maps;
    f->n_maps = H;
    f->grid_cols = H <= 4 ? H : H <= 16 ? 4 : 8;
    f->cmap = PLOT_CMAP_NEGATIVE;
    f->vmin = vmin < 0 ? vmin : -1;
    f->cbar_label = "bias added to the score";
    return 1;
}

/* T5: the bucket of every (query i, key j), encoder (bidirectional) and
 * decoder (causal) side by side, from posenc_t5_bucket. */
static int build_t5_buckets(const plot_request *rq, built *b, char *why, size_t n)
{
    uint32_t N = rq->positions, nb = rq->t5_buckets, md = rq->t5_max_distance;
    size_t cells = (size_t)N * N;
    b->mem = malloc(2 * cells * sizeof(double));
    if (!b->mem)
        return nomem(why, n);
    for (int p = 0; p < 2; p++) {
        int bidir = p == 0;
        for (uint32_t i = 0; i < N; i++)
            for (uint32_t j = 0; j < N; j++) {
                uint32_t bk;
                posenc_status s = posenc_t5_bucket(i, j, nb, md, bidir, &bk);
                if (s != POSENC_OK)
                    return fail(why, n, "T5 buckets", s);
                b->mem[p * cells + (size_t)i * N + j] = bk;
            }
        b->maps[p] = (plot_heatmap){N, N, b->mem + p * cells, NULL, "", 0, 0, 0, 0, NULL};
        snprintf(b->maps[p].title, sizeof b->maps[p].title, "%s",
                 bidir ? "encoder (bidirectional)" : "decoder (causal)");
    }
    plot_figure *f = &b->f;
    snprintf(f->title, sizeof f->title, "T5 relative position buckets: %u buckets, "
             "max_distance %u", nb, md);
    snprintf(f->subtitle, sizeof f->subtitle, "bucket of key j for query i: one per distance "
             "below %u (encoder) or %u (decoder), logarithmic up to %u", nb / 2 / 2, nb / 2, md);
    f->xlabel = "key position j";
    f->ylabel = "query position i";
    f->maps = b->maps;
    f->n_maps = 2;
    f->grid_cols = 2;
    f->cmap = PLOT_CMAP_SEQUENTIAL;
    f->vmin = 0;
    f->vmax = nb - 1;
    f->cbar_label = "bucket (row of the learned table)";
    return 1;
}

/* ---- sinusoid layouts and relative buckets (issue 36) -------------------------- */

/* The layout of a sinusoid spec in words, for a panel title. */
static const char *order_words(const posenc_sinusoid_spec *sp)
{
    switch (sp->order) {
    case POSENC_SINUSOID_SIN_COS: return "[sin | cos]";
    case POSENC_SINUSOID_COS_SIN: return "[cos | sin]";
    default: return "[s c s c ..]";
    }
}

/* sinusoid: row t of a panel is the float32 vector the spec's family adds
 * at token index t (posenc_sinusoid_layout_fill_f32: its layout, frequency
 * rule, float steps and offset), the lesson's (base[0]) on the left unless
 * alone. */
static int build_sinusoid(const plot_request *rq, built *b, char *why, size_t n)
{
    uint32_t P = rq->positions, D = rq->dim;
    size_t cells = (size_t)P * D;
    posenc_sinusoid_spec sp[2];
    size_t np = 0;
    if (!rq->alone) {
        posenc_status s = posenc_sinusoid_family_spec(POSENC_SINUSOID_LESSON, 0, &sp[np]);
        if (s != POSENC_OK)
            return fail(why, n, "sinusoid", s);
        sp[np++].base = rq->base[0];
    }
    sp[np++] = rq->sinusoid;
    /* doubles for the panels, then the float rows and the token indices */
    b->mem = malloc(np * cells * sizeof(double) + cells * sizeof(float) + P * sizeof(int64_t));
    if (!b->mem)
        return nomem(why, n);
    float *row = (float *)(b->mem + np * cells);
    int64_t *pos = (int64_t *)(row + cells);
    for (uint32_t t = 0; t < P; t++)
        pos[t] = t;
    for (size_t p = 0; p < np; p++) {
        posenc_status s = posenc_sinusoid_layout_fill_f32(&sp[p], pos, P, D, row);
        if (s != POSENC_OK)
            return fail(why, n, "sinusoid", s);
        for (size_t c = 0; c < cells; c++)
            b->mem[p * cells + c] = row[c];
        plot_heatmap *m = &b->maps[p];
        *m = (plot_heatmap){P, D, b->mem + p * cells, NULL, "", 0, 0, 0, 0, NULL};
        int lesson = !rq->alone && p == 0;
        const char *label = lesson ? "lesson" : rq->sinusoid_label ? rq->sinusoid_label : "spec";
        if (sp[p].offset)
            snprintf(m->title, sizeof m->title, "%.28s: %s, offset %lld", label,
                     order_words(&sp[p]), (long long)sp[p].offset);
        else
            snprintf(m->title, sizeof m->title, "%.28s: %s", label, order_words(&sp[p]));
    }
    plot_figure *f = &b->f;
    if (np == 2)
        snprintf(f->title, sizeof f->title, "Sinusoid layouts: %.60s beside the lesson's, D = %u",
                 rq->sinusoid_label ? rq->sinusoid_label : "spec", D);
    else
        snprintf(f->title, sizeof f->title, "Sinusoid table of %.64s, D = %u",
                 b->maps[0].title, D);
    if (np == 1) /* one panel: its title is the figure's */
        b->maps[0].title[0] = '\0';
    snprintf(f->subtitle, sizeof f->subtitle,
             "row t: the float32 vector added at token index t (offset applied); %s",
             rq->sinusoid.freqs == POSENC_SINUSOID_FREQ_FAIRSEQ
                 ? "fairseq frequencies exp(-k ln(base) / (D/2 - 1))"
                 : "frequencies base^(-2k/D)");
    f->xlabel = "dimension i";
    f->ylabel = "token index t";
    f->n_maps = np;
    f->grid_cols = np;
    f->cmap = PLOT_CMAP_DIVERGING;
    f->vmax = 1;
    f->cbar_label = "PE(t)[i]";
    return 1;
}

/* buckets: T5's bucket (posenc_t5_bucket) and DeBERTa's relative id
 * (posenc_deberta_relative_ids: i - j, log-bucketed) of every (query i,
 * key j), each panel with its own colour scale. */
static int build_buckets(const plot_request *rq, built *b, char *why, size_t n)
{
    uint32_t N = rq->positions, nb = rq->t5_buckets, md = rq->t5_max_distance;
    uint32_t db = rq->deberta_buckets, dm = db ? rq->deberta_max_position : 0;
    size_t cells = (size_t)N * N, np = 0;
    b->mem = malloc(2 * cells * sizeof(double) + cells * sizeof(int64_t));
    if (!b->mem)
        return nomem(why, n);
    int64_t *ids = (int64_t *)(b->mem + 2 * cells);
    if (rq->panels & PLOT_PANEL_T5) {
        double *v = b->mem;
        for (uint32_t i = 0; i < N; i++)
            for (uint32_t j = 0; j < N; j++) {
                uint32_t bk;
                posenc_status s = posenc_t5_bucket(i, j, nb, md, rq->t5_bidirectional, &bk);
                if (s != POSENC_OK)
                    return fail(why, n, "T5 buckets", s);
                v[(size_t)i * N + j] = bk;
            }
        plot_heatmap *m = &b->maps[np++];
        *m = (plot_heatmap){N, N, v, NULL, "", 1, PLOT_CMAP_SEQUENTIAL, 0, nb - 1, "T5 bucket"};
        snprintf(m->title, sizeof m->title, "%.36s (%s)", rq->t5_label ? rq->t5_label : "T5",
                 rq->t5_bidirectional ? "bidirectional" : "causal");
    }
    if (rq->panels & PLOT_PANEL_DEBERTA) {
        posenc_status s = posenc_deberta_relative_ids(N, N, db, dm, ids);
        if (s != POSENC_OK)
            return fail(why, n, "DeBERTa relative ids", s);
        double *v = b->mem + cells, vmax = 1;
        for (size_t c = 0; c < cells; c++) {
            v[c] = (double)ids[c];
            vmax = fabs(v[c]) > vmax ? fabs(v[c]) : vmax;
        }
        plot_heatmap *m = &b->maps[np++];
        *m = (plot_heatmap){N, N, v, NULL, "", 1, PLOT_CMAP_DIVERGING, -vmax, vmax,
                            "relative id (query - key)"};
        snprintf(m->title, sizeof m->title, "%.36s (%s)",
                 rq->deberta_label ? rq->deberta_label : "DeBERTa",
                 db ? "log buckets" : "plain distance");
    }
    plot_figure *f = &b->f;
    int t5 = (rq->panels & PLOT_PANEL_T5) != 0, de = (rq->panels & PLOT_PANEL_DEBERTA) != 0;
    if (t5 && de)
        snprintf(f->title, sizeof f->title, "Relative positions: T5's buckets beside DeBERTa's "
                 "log buckets");
    else if (t5)
        snprintf(f->title, sizeof f->title, "T5 relative position buckets");
    else
        snprintf(f->title, sizeof f->title, "DeBERTa relative position ids");
    char tw[80] = "", dw[80] = "";
    if (t5)
        snprintf(tw, sizeof tw, "T5: %u buckets, max_distance %u", nb, md);
    if (de && db)
        snprintf(dw, sizeof dw, "DeBERTa: position_buckets %u, max_relative_positions %u", db,
                 dm);
    else if (de)
        snprintf(dw, sizeof dw, "DeBERTa: query - key, no log buckets");
    snprintf(f->subtitle, sizeof f->subtitle, "%s%s%s", tw, t5 && de ? "; " : "", dw);
    if (np == 1) { /* one panel: its title goes after the figure's */
        size_t len = strlen(f->title);
        snprintf(f->title + len, sizeof f->title - len, ": %s", b->maps[0].title);
        b->maps[0].title[0] = '\0';
    }
    f->xlabel = "key position j";
    f->ylabel = "query position i";
    f->n_maps = np;
    f->grid_cols = np;
    f->cmap = PLOT_CMAP_SEQUENTIAL;
    f->vmin = 0;
    f->vmax = 1;
    return 1;
}

/* buckets: at least one panel, and parameters the library takes. */
static int check_buckets(const plot_request *rq, char *why, size_t n)
{
    uint32_t bk;
    int64_t id;
    if (!(rq->panels & (PLOT_PANEL_T5 | PLOT_PANEL_DEBERTA)) ||
        (rq->panels & ~(PLOT_PANEL_T5 | PLOT_PANEL_DEBERTA))) {
        snprintf(why, n, "panels %#x: buckets draws T5's (1), DeBERTa's (2) or both (3)",
                 rq->panels);
        return 0;
    }
    if ((rq->panels & PLOT_PANEL_T5) &&
        posenc_t5_bucket(0, 0, rq->t5_buckets, rq->t5_max_distance, 1, &bk) != POSENC_OK) {
        snprintf(why, n, "%u buckets, max_distance %u: T5 needs at least 4 buckets and a "
                 "max_distance above a quarter of them (up to %lld)", rq->t5_buckets,
                 rq->t5_max_distance, POSENC_MAX_POS);
        return 0;
    }
    if ((rq->panels & PLOT_PANEL_DEBERTA) && rq->deberta_buckets &&
        posenc_deberta_log_bucket(rq->deberta_buckets, rq->deberta_buckets,
                                  rq->deberta_max_position, &id) != POSENC_OK) {
        snprintf(why, n, "position_buckets %u, max_relative_positions %u: DeBERTa needs "
                 "2 to %u buckets and a max_relative_positions from 2 whose log is not 0 "
                 "(max_relative_positions - 1 != position_buckets / 2)", rq->deberta_buckets,
                 rq->deberta_max_position, POSENC_DEBERTA_MAX_BUCKETS);
        return 0;
    }
    return 1;
}

/* Limits that keep pictures readable and drawing quick. */
static int check_request(const plot_request *rq, char *why, size_t n)
{
    int rope_kind = rq->kind == PLOT_ROPE_DECAY || rq->kind == PLOT_FREQS;
    if (rq->kind == PLOT_T5_BUCKETS) {
        uint32_t bk;
        posenc_status s = posenc_t5_bucket(0, 0, rq->t5_buckets, rq->t5_max_distance, 1, &bk);
        if (s != POSENC_OK) {
            snprintf(why, n, "%u buckets, max_distance %u: T5 needs at least 4 buckets and a "
                     "max_distance above a quarter of them (up to %lld)", rq->t5_buckets,
                     rq->t5_max_distance, POSENC_MAX_POS);
            return 0;
        }
    }
    if (rq->kind == PLOT_BUCKETS && !check_buckets(rq, why, n))
        return 0;
    if (rq->kind != PLOT_ALIBI && (rq->dim < 1 || rq->dim > POSENC_MAX_DIM)) {
        snprintf(why, n, "D = %u: D must be from 1 to %u", rq->dim, POSENC_MAX_DIM);
        return 0;
    }
    if (rope_kind && (rq->dim % 2 || rq->dim < 2 || rq->dim > POSENC_ROPE_MAX_HEAD_DIM)) {
        snprintf(why, n, "D = %u: RoPE plots need an even D from 2 to %u", rq->dim,
                 POSENC_ROPE_MAX_HEAD_DIM);
        return 0;
    }
    if (rq->positions < 1) {
        snprintf(why, n, "positions must be at least 1");
        return 0;
    }
    size_t cells = rq->kind == PLOT_PE           ? (size_t)rq->positions * rq->dim
                   : rq->kind == PLOT_SIMILARITY ? (size_t)rq->positions * rq->positions
                   : rq->kind == PLOT_ALIBI ? (size_t)rq->positions * rq->positions * rq->heads
                   : rq->kind == PLOT_T5_BUCKETS ? 2 * (size_t)rq->positions * rq->positions
                   : rq->kind == PLOT_SINUSOID
                       ? (rq->alone ? 1 : 2) * (size_t)rq->positions * rq->dim
                   : rq->kind == PLOT_BUCKETS ? 2 * (size_t)rq->positions * rq->positions
                                              : 0;
    if (rq->kind == PLOT_SIMILARITY && (size_t)rq->positions * rq->dim > PLOT_MAX_CELLS)
        cells = (size_t)rq->positions * rq->dim;
    if (cells > PLOT_MAX_CELLS) {
        snprintf(why, n, "%zu cells is too many to draw (at most %u)", cells, PLOT_MAX_CELLS);
        return 0;
    }
    if (rq->kind == PLOT_ALIBI && (rq->heads < 1 || rq->heads > PLOT_MAX_HEADS)) {
        snprintf(why, n, "heads = %u: heads must be from 1 to 64", rq->heads);
        return 0;
    }
    if (rq->kind == PLOT_ROPE_DECAY) {
        if (rq->max_offset < 1 || rq->max_offset > POSENC_MAX_POS) {
            snprintf(why, n, "max offset must be from 1 to %lld", POSENC_MAX_POS);
            return 0;
        }
        if (rq->points < 2 || rq->points > PLOT_MAX_POINTS) {
            snprintf(why, n, "points must be from 2 to %u", PLOT_MAX_POINTS);
            return 0;
        }
        if (rq->samples > PLOT_MAX_SAMPLES) {
            snprintf(why, n, "samples must be from 0 to %u", PLOT_MAX_SAMPLES);
            return 0;
        }
    }
    if (rq->n_base + rq->n_rope < 1) {
        snprintf(why, n, "no series to draw: give a base or a RoPE");
        return 0;
    }
    if (rq->n_base + rq->n_rope > PLOT_MAX_SERIES) {
        snprintf(why, n, "at most %d series (bases and RoPEs) on one chart", PLOT_MAX_SERIES);
        return 0;
    }
    if (rq->width < 200 || rq->width > 8000 || rq->height < 150 || rq->height > 8000) {
        snprintf(why, n, "size %dx%d: width must be 200 to 8000 and height 150 to 8000",
                 rq->width, rq->height);
        return 0;
    }
    if (!rq->out) {
        snprintf(why, n, "no file name: give one ending in .png, .svg or .pdf");
        return 0;
    }
    if (plot_format_of(rq->out) < 0) {
        snprintf(why, n, "'%s': the file name must end in .png, .svg or .pdf", rq->out);
        return 0;
    }
    return 1;
}

plot_built *plot_build(const plot_request *rq, char *why, size_t n)
{
    if (!check_request(rq, why, n))
        return NULL;
    built *b = calloc(1, sizeof *b);
    if (!b) {
        nomem(why, n);
        return NULL;
    }
    b->f.width = rq->width;
    b->f.height = rq->height;
    b->f.maps = b->maps;
    int ok;
    switch (rq->kind) {
    case PLOT_PE: ok = build_pe(rq, b, why, n); break;
    case PLOT_SIMILARITY: ok = build_similarity(rq, b, why, n); break;
    case PLOT_ROPE_DECAY: ok = build_rope_decay(rq, b, why, n); break;
    case PLOT_FREQS: ok = build_freqs(rq, b, why, n); break;
    case PLOT_ALIBI: ok = build_alibi(rq, b, why, n); break;
    case PLOT_T5_BUCKETS: ok = build_t5_buckets(rq, b, why, n); break;
    case PLOT_SINUSOID: ok = build_sinusoid(rq, b, why, n); break;
    case PLOT_BUCKETS: ok = build_buckets(rq, b, why, n); break;
    default: ok = 0; snprintf(why, n, "unknown kind of plot");
    }
    if (ok && rq->title)
        snprintf(b->f.title, sizeof b->f.title, "%s", rq->title);
    if (!ok) {
        plot_built_free(b);
        return NULL;
    }
    return b;
}

int plot_run(const plot_request *rq, char *why, size_t n)
{
#ifndef POSENC_HAVE_CAIRO
    snprintf(why, n, "plotting needs Cairo, and this posenc was built without it "
                     "(apt-get install libcairo2-dev, then rebuild with make)");
    return 0;
#endif
    plot_built *b = plot_build(rq, why, n);
    if (!b)
        return 0;
    int ok = plot_draw_file(&b->f, rq->out, why, n);
    plot_built_free(b);
    return ok;
}
