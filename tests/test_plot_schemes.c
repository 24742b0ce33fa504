/* test_plot_schemes.c - the pictures of the schemes that do not rotate
 * (issue 36): `posenc plot sinusoid` (a posenc_sinusoid_spec's table beside
 * the lesson's), `posenc plot buckets` (T5's bucket map beside DeBERTa's log
 * buckets), both from options and from a --config layer (and with no kind),
 * and PLOT sinusoid / PLOT buckets. The plotted numbers are checked against
 * the formulas computed here in long double (the lesson's and fairseq's
 * sinusoids, MusicGen's cosine-first halves, Marian's power halves, DeBERTa's
 * make_log_bucket_position as in modeling_deberta_v2.py, T5's hand-worked
 * buckets of docs/SCHEMES.md), the PNG's pixels against the colour of those
 * values, and the refusals by name. Built with Cairo only; without it this
 * program says it skipped. */
#include "check.h"
#include "plot.h"

#include <stdlib.h>

#ifndef POSENC_HAVE_CAIRO

int main(void)
{
    (void)check__failed_checks;
    check_skip("plot_schemes", 7, "the sinusoid and buckets picture tests: built without Cairo",
               "libcairo2-dev");
    return check_summary("plot_schemes");
}

#else

#include "plot_harness.h"

#include <math.h>

/* ---- the formulas, independently (long double) ------------------------------------- */

/* The lesson's PE(pos)[i]: interleaved, angle pos / base^(2k/D). */
static long double lesson_pe(long double pos, uint32_t i, uint32_t D, long double base)
{
    uint32_t k = i / 2;
    long double a = pos / powl(base, 2.0L * k / D);
    return i % 2 ? cosl(a) : sinl(a);
}

/* Halves [first | second] of frequency w_k (fairseq: exp(-k ln(base) /
 * (D/2 - 1)); power: base^(-2k/D)); cos_first swaps the halves. */
static long double halves_pe(long double pos, uint32_t i, uint32_t D, long double base,
                             int fairseq, int cos_first)
{
    uint32_t h = D / 2, k = i < h ? i : i - h;
    long double w = fairseq ? expl(-(long double)k * logl(base) / (long double)(h - 1))
                            : powl(base, -2.0L * k / D);
    int first = i < h;
    return first != cos_first ? sinl(pos * w) : cosl(pos * w);
}

/* DeBERTa-v2's make_log_bucket_position (modeling_deberta_v2.py L51-63),
 * in exact arithmetic: rel itself within mid = bucket_size / 2, else
 * sign(rel) (ceil(ln(|rel| / mid) / ln((max_position - 1) / mid) (mid - 1)) + mid).
 * *near: the scaled value is within 1e-4 of a whole number (float32 steps
 * may round it either way there). */
static int64_t deberta_id(int64_t rel, uint32_t bucket_size, uint32_t max_position, int *near)
{
    int64_t mid = bucket_size / 2, a = rel < 0 ? -rel : rel;
    *near = 0;
    if (a <= mid)
        return rel;
    long double s = logl((long double)a / mid) / logl((long double)(max_position - 1) / mid) *
                    (long double)(mid - 1);
    *near = fabsl(s - roundl(s)) < 1e-4L;
    int64_t b = (int64_t)ceill(s) + mid;
    return rel < 0 ? -b : b;
}

static plot_built *build(const plot_request *rq)
{
    char why[512];
    plot_built *b = plot_build(rq, why, sizeof why);
    if (!b)
        fprintf(stderr, "  plot_build: %s\n", why);
    return b;
}

/* ---- tests ---------------------------------------------------------------------- */

/* sinusoid: fairseq's halves with offset 2 beside the lesson's; every cell
 * against the formula (float32 values: 2^-22 relative to the angle). */
TEST(sinusoid_fairseq_beside_lesson)
{
    char why[512];
    plot_args pa;
    CHECK_EQ_INT(plot_args_parse(7, (char *[]){"plot", "sinusoid", "--offset", "2", "--dim",
                                               "10", "-o", NULL}, &pa, why, sizeof why),
                 PLOT_ARGS_BAD); /* -o without its value */
    plot_args_free(&pa);
    plot_request rq;
    plot_request_defaults(&rq, PLOT_SINUSOID);
    CHECK_EQ_INT(rq.positions, 128);
    CHECK(strcmp(rq.sinusoid_label, "fairseq") == 0 && rq.alone == 0);
    rq.positions = 40;
    rq.dim = 10;
    rq.sinusoid.offset = 2;
    rq.out = "x.png";
    plot_built *b = build(&rq);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_maps, 2);
    CHECK_EQ_INT(f->grid_cols, 2);
    CHECK(strcmp(f->maps[0].title, "lesson: [s c s c ..]") == 0);
    CHECK(strcmp(f->maps[1].title, "fairseq: [sin | cos], offset 2") == 0);
    CHECK(strcmp(f->title, "Sinusoid layouts: fairseq beside the lesson's, D = 10") == 0);
    CHECK(strstr(f->subtitle, "fairseq frequencies") != NULL);
    CHECK(f->cmap == PLOT_CMAP_DIVERGING && f->vmax == 1);
    CHECK(strcmp(f->ylabel, "token index t") == 0);
    double worst_l = 0, worst_f = 0;
    for (uint32_t t = 0; t < 40; t++)
        for (uint32_t i = 0; i < 10; i++) {
            double l = (double)lesson_pe(t, i, 10, 10000);
            double q = (double)halves_pe(t + 2, i, 10, 10000, 1, 0);
            worst_l = fmax(worst_l, fabs(f->maps[0].v[t * 10 + i] - l));
            /* torch's float angle (t + 2) * w: off by up to (t + 2) ulp(w) */
            worst_f = fmax(worst_f, fabs(f->maps[1].v[t * 10 + i] - q) / (1.0 + (t + 2)));
        }
    CHECK(worst_l <= 0x1p-24); /* the exact value rounded once */
    CHECK(worst_f <= 0x1p-22);
    /* fairseq's token 0 is position 2: sin(2) first, cos(2) at D/2 */
    CHECK_NEAR(f->maps[1].v[0], sin(2.0), 1e-7);
    CHECK_NEAR(f->maps[1].v[5], cos(2.0), 1e-7);
    plot_built_free(b);
    /* a spec without a label is called "spec" */
    rq.sinusoid_label = NULL;
    b = build(&rq);
    CHECK(b != NULL);
    if (b)
        CHECK(strcmp(plot_built_figure(b)->maps[1].title, "spec: [sin | cos], offset 2") == 0);
    plot_built_free(b);
    rq.alone = 1;
    b = build(&rq);
    CHECK(b != NULL);
    if (b)
        CHECK(strcmp(plot_built_figure(b)->title,
                     "Sinusoid table of spec: [sin | cos], offset 2, D = 10") == 0);
    plot_built_free(b);
}

/* sinusoid --alone of MusicGen (cosines first) and Marian (power halves),
 * through the program's options; a --base reaches the family's spec. */
TEST(sinusoid_families_alone)
{
    char why[512];
    plot_args pa;
    CHECK_EQ_INT(plot_args_parse(11, (char *[]){"plot", "sinusoid", "--family", "musicgen",
                                                "--alone", "--dim", "8", "--positions", "30",
                                                "-o", "x.png", NULL},
                                 &pa, why, sizeof why),
                 PLOT_ARGS_OK);
    CHECK(pa.rq.alone && strcmp(pa.rq.sinusoid_label, "musicgen") == 0);
    plot_built *b = build(&pa.rq);
    CHECK(b != NULL);
    if (b) {
        const plot_figure *f = plot_built_figure(b);
        CHECK_EQ_INT(f->n_maps, 1);
        CHECK(strcmp(f->title, "Sinusoid table of musicgen: [cos | sin], D = 8") == 0);
        CHECK(f->maps[0].title[0] == '\0');
        double worst = 0;
        for (uint32_t t = 0; t < 30; t++)
            for (uint32_t i = 0; i < 8; i++)
                worst = fmax(worst, fabs(f->maps[0].v[t * 8 + i] -
                                         (double)halves_pe(t, i, 8, 10000, 1, 1)) /
                                        (1.0 + t));
        CHECK(worst <= 0x1p-22);
        CHECK(f->maps[0].v[0] == 1 && f->maps[0].v[4] == 0); /* cos 0, sin 0 */
    }
    plot_built_free(b);
    plot_args_free(&pa);
    CHECK_EQ_INT(plot_args_parse(10, (char *[]){"plot", "sinusoid", "--family", "marian",
                                                "--base", "500", "--dim", "6", "-o", "x.png",
                                                NULL},
                                 &pa, why, sizeof why),
                 PLOT_ARGS_OK);
    CHECK(pa.rq.sinusoid.base == 500);
    b = build(&pa.rq);
    CHECK(b != NULL);
    if (b) {
        const plot_figure *f = plot_built_figure(b);
        double worst = 0;
        for (uint32_t t = 0; t < 128; t++)
            for (uint32_t i = 0; i < 6; i++) {
                worst = fmax(worst, fabs(f->maps[1].v[t * 6 + i] -
                                         (double)halves_pe(t, i, 6, 500, 0, 0)));
                worst = fmax(worst, fabs(f->maps[0].v[t * 6 + i] -
                                         (double)lesson_pe(t, i, 6, 500)));
            }
        CHECK(worst <= 0x1p-24); /* Marian and the lesson: rounded once */
    }
    plot_built_free(b);
    plot_args_free(&pa);
}

/* buckets: T5's panel holds the hand-worked buckets (32, 128), DeBERTa's
 * every cell of make_log_bucket_position (256, 512) and the plain distance
 * with position_buckets 0; each panel has its own scale. */
TEST(buckets_t5_beside_deberta)
{
    plot_request rq;
    plot_request_defaults(&rq, PLOT_BUCKETS);
    CHECK_EQ_INT(rq.positions, 320);
    CHECK(rq.panels == (PLOT_PANEL_T5 | PLOT_PANEL_DEBERTA) && rq.t5_bidirectional == 1);
    CHECK(rq.deberta_buckets == 256 && rq.deberta_max_position == 512);
    rq.out = "x.png";
    plot_built *b = build(&rq);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    const size_t N = 320;
    CHECK_EQ_INT(f->n_maps, 2);
    CHECK(strcmp(f->maps[0].title, "T5 (bidirectional)") == 0);
    CHECK(strcmp(f->maps[1].title, "DeBERTa (log buckets)") == 0);
    CHECK(strcmp(f->title, "Relative positions: T5's buckets beside DeBERTa's log buckets") == 0);
    CHECK(strcmp(f->subtitle, "T5: 32 buckets, max_distance 128; DeBERTa: position_buckets 256, "
                              "max_relative_positions 512") == 0);
    const plot_heatmap *t5 = &f->maps[0], *de = &f->maps[1];
    CHECK(t5->own && t5->cmap == PLOT_CMAP_SEQUENTIAL && t5->vmin == 0 && t5->vmax == 31);
    CHECK(de->own && de->cmap == PLOT_CMAP_DIVERGING);
    CHECK(t5->v[0 * N + 20] == 26 && t5->v[20 * N + 0] == 10 && t5->v[7 * N + 7] == 0);
    CHECK(t5->v[4 * N + 5] == 17 && t5->v[5 * N + 4] == 1 && t5->v[159 * N + 0] == 15);
    size_t bad = 0, near = 0;
    double most = 0;
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++) {
            int nr;
            int64_t want = deberta_id((int64_t)i - (int64_t)j, 256, 512, &nr);
            near += nr;
            bad += !nr && de->v[i * N + j] != (double)want;
            most = fmax(most, fabs((double)want));
        }
    CHECK_EQ_INT(bad, 0);
    CHECK(near < N); /* the boundary cells are few */
    CHECK(de->vmax == most && de->vmin == -most);
    /* by hand: |rel| <= 128 is rel; 129 -> 128 + ceil(ln(129/128)/ln(511/128) * 127) = 129 */
    CHECK(de->v[0 * N + 5] == -5 && de->v[128 * N + 0] == 128 && de->v[129 * N + 0] == 129);
    CHECK(de->v[0 * N + 129] == -129);
    plot_built_free(b);
    /* DeBERTa v1: the plain distance */
    rq.deberta_buckets = 0;
    rq.positions = 12;
    b = build(&rq);
    CHECK(b != NULL);
    if (b) {
        f = plot_built_figure(b);
        CHECK(strcmp(f->maps[1].title, "DeBERTa (plain distance)") == 0);
        CHECK(strstr(f->subtitle, "DeBERTa: query - key, no log buckets") != NULL);
        size_t off = 0;
        for (int i = 0; i < 12; i++)
            for (int j = 0; j < 12; j++)
                off += f->maps[1].v[i * 12 + j] != i - j;
        CHECK_EQ_INT(off, 0);
        CHECK(f->maps[1].vmax == 11);
    }
    plot_built_free(b);
}

/* The PNG: cells of both panels have the colour of the formula's value,
 * each under its panel's scale (T5: bucket / 31 viridis; DeBERTa: id / vmax
 * blue-white-red); the sinusoid picture's cells likewise. */
TEST(png_cells_have_the_formula_colours)
{
    CHECK_EQ_INT(run_plot("buckets --positions 20 --buckets 8 --max-distance 16 "
                          "--position-buckets 8 --max-relative-positions 12 --size 900x500 "
                          "-o @/bk.png"),
                 0);
    plot_request rq;
    plot_request_defaults(&rq, PLOT_BUCKETS);
    rq.positions = 20;
    rq.t5_buckets = 8;
    rq.t5_max_distance = 16;
    rq.deberta_buckets = 8;
    rq.deberta_max_position = 12;
    rq.width = 900;
    rq.height = 500;
    rq.out = "x.png";
    plot_built *b = build(&rq);
    png p;
    CHECK(b != NULL && png_open(&p, path_in("bk.png")));
    if (!b || !p.data) {
        plot_built_free(b);
        return;
    }
    const plot_figure *f = plot_built_figure(b);
    CHECK(p.w == 900 && p.h == 500);
    double vmax = 0;
    for (int i = 0; i < 20; i++) /* the largest |id| of the formula */
        for (int j = 0; j < 20; j++) {
            int nr;
            vmax = fmax(vmax, fabs((double)deberta_id(i - j, 8, 12, &nr)));
        }
    static const int cells[][2] = {{0, 0}, {0, 19}, {19, 0}, {3, 9}, {12, 2}, {10, 10}};
    for (size_t c = 0; c < sizeof cells / sizeof cells[0]; c++) {
        int i = cells[c][0], j = cells[c][1], nr;
        double x, y, rgb[3];
        uint32_t bk;
        CHECK(posenc_t5_bucket(i, j, 8, 16, 1, &bk) == POSENC_OK);
        /* T5 with 8 buckets, 16: a key 9 after query 3 is 4 + 2 + ... by the
         * formula: the hand values below pin two of them */
        plot_cell_centre(f, 0, (size_t)i, (size_t)j, &x, &y);
        plot_cmap_colour(PLOT_CMAP_SEQUENTIAL, bk / 7.0, rgb);
        CHECK(pixel_is(&p, x, y, rgb));
        plot_cell_centre(f, 1, (size_t)i, (size_t)j, &x, &y);
        plot_cmap_colour(PLOT_CMAP_DIVERGING, (double)deberta_id(i - j, 8, 12, &nr) / vmax, rgb);
        CHECK(!nr && pixel_is(&p, x, y, rgb));
    }
    uint32_t b1, b2;
    CHECK(posenc_t5_bucket(0, 19, 8, 16, 1, &b1) == POSENC_OK && b1 == 7); /* far after: last */
    CHECK(posenc_t5_bucket(19, 0, 8, 16, 1, &b2) == POSENC_OK && b2 == 3);
    cairo_surface_destroy(p.s);
    plot_built_free(b);

    /* sinusoid: fairseq with offset 2 beside the lesson's */
    CHECK_EQ_INT(run_plot("sinusoid --positions 16 --dim 8 --offset 2 --size 800x420 "
                          "-o @/sin.png"),
                 0);
    plot_request_defaults(&rq, PLOT_SINUSOID);
    rq.positions = 16;
    rq.dim = 8;
    rq.sinusoid.offset = 2;
    rq.width = 800;
    rq.height = 420;
    rq.out = "x.png";
    b = build(&rq);
    CHECK(b != NULL && png_open(&p, path_in("sin.png")));
    if (!b || !p.data) {
        plot_built_free(b);
        return;
    }
    f = plot_built_figure(b);
    for (uint32_t t = 0; t < 16; t += 5)
        for (uint32_t i = 0; i < 8; i += 3) {
            double x, y, rgb[3];
            plot_cell_centre(f, 0, t, i, &x, &y);
            plot_cmap_colour(PLOT_CMAP_DIVERGING, (double)lesson_pe(t, i, 8, 10000), rgb);
            CHECK(pixel_is(&p, x, y, rgb));
            plot_cell_centre(f, 1, t, i, &x, &y);
            plot_cmap_colour(PLOT_CMAP_DIVERGING, (double)halves_pe(t + 2, i, 8, 10000, 1, 0),
                             rgb);
            CHECK(pixel_is(&p, x, y, rgb));
        }
    cairo_surface_destroy(p.s);
    plot_built_free(b);
}

/* A config's layer: M2M100's fairseq sinusoid from pad_token_id + 1 (its
 * width d_model), a DeBERTa-v2 layer's log buckets, T5's decoder (causal);
 * with no kind the layer's scheme picks it. Needs the config reader. */
TEST(config_layers)
{
    if (!rope_spec_have_config_reader()) {
        check_skip("plot_schemes", 1, "--config: built without the config reader",
                   "libjansson-dev");
        return;
    }
    FILE *c = fopen(path_in("m2m.json"), "w");
    CHECK(c != NULL);
    if (!c)
        return;
    fputs("{\"model_type\": \"m2m_100\", \"d_model\": 12, \"encoder_layers\": 1, "
          "\"decoder_layers\": 1, \"max_position_embeddings\": 64, \"pad_token_id\": 1}",
          c);
    fclose(c);
    c = fopen(path_in("deberta.json"), "w");
    CHECK(c != NULL);
    if (!c)
        return;
    fputs("{\"model_type\": \"deberta-v2\", \"hidden_size\": 16, \"num_hidden_layers\": 2, "
          "\"num_attention_heads\": 2, \"max_position_embeddings\": 512, "
          "\"relative_attention\": true, \"pos_att_type\": [\"c2p\"], "
          "\"position_buckets\": 64, "
          "\"max_relative_positions\": 100, \"position_biased_input\": false}",
          c);
    fclose(c);
    char why[512], args[600];
    plot_args pa;
    /* no kind: m2m_100's layer 0 is a sinusoid */
    snprintf(args, sizeof args, "%s", path_in("m2m.json"));
    CHECK_EQ_INT(plot_args_parse(6, (char *[]){"plot", "--config", args, "-o", "x.png", "--alone",
                                               NULL},
                                 &pa, why, sizeof why),
                 PLOT_ARGS_OK);
    CHECK(pa.rq.kind == PLOT_SINUSOID && pa.rq.dim == 12 && pa.rq.sinusoid.offset == 2);
    CHECK(pa.rq.positions == 128 && pa.rq.width == 1100);
    CHECK(strcmp(pa.rq.sinusoid_label, "m2m") == 0);
    plot_built *b = build(&pa.rq);
    CHECK(b != NULL);
    if (b) {
        const plot_figure *f = plot_built_figure(b);
        CHECK(strcmp(f->title, "Sinusoid table of m2m: [sin | cos], offset 2, D = 12") == 0);
        double worst = 0;
        for (uint32_t t = 0; t < 128; t++)
            for (uint32_t i = 0; i < 12; i++)
                worst = fmax(worst, fabs(f->maps[0].v[t * 12 + i] -
                                         (double)halves_pe(t + 2, i, 12, 10000, 1, 0)) /
                                        (t + 3.0));
        CHECK(worst <= 0x1p-22);
    }
    plot_built_free(b);
    plot_args_free(&pa);
    /* no kind: DeBERTa-v2's layer 1 is relative buckets (64, 100) */
    snprintf(args, sizeof args, "%s", path_in("deberta.json"));
    CHECK_EQ_INT(plot_args_parse(9, (char *[]){"plot", "--layer", "1", "--config", args,
                                               "--positions", "90", "-o", "x.png", NULL},
                                 &pa, why, sizeof why),
                 PLOT_ARGS_OK);
    CHECK(pa.rq.kind == PLOT_BUCKETS && pa.rq.panels == PLOT_PANEL_DEBERTA);
    CHECK(pa.rq.deberta_buckets == 64 && pa.rq.deberta_max_position == 100);
    CHECK(pa.rq.positions == 90 && pa.rq.width == 1200 && pa.rq.height == 600);
    plot_args_free(&pa);
    CHECK_EQ_INT(plot_args_parse(11, (char *[]){"plot", "--layer", "1", "--config", args,
                                                "--positions", "90", "--size", "700x400", "-o",
                                                "x.png", NULL},
                                 &pa, why, sizeof why),
                 PLOT_ARGS_OK);
    CHECK(pa.rq.kind == PLOT_BUCKETS && pa.rq.width == 700 && pa.rq.height == 400);
    b = build(&pa.rq);
    CHECK(b != NULL);
    if (b) {
        const plot_figure *f = plot_built_figure(b);
        CHECK_EQ_INT(f->n_maps, 1);
        CHECK(strcmp(f->title, "DeBERTa relative position ids: deberta layer 1 (log buckets)") ==
              0);
        size_t bad = 0;
        for (int i = 0; i < 90; i++)
            for (int j = 0; j < 90; j++) {
                int nr;
                int64_t want = deberta_id(i - j, 64, 100, &nr);
                bad += !nr && f->maps[0].v[i * 90 + j] != (double)want;
            }
        CHECK_EQ_INT(bad, 0);
    }
    plot_built_free(b);
    plot_args_free(&pa);
    /* buckets of T5's decoder layer (t5-small: 6 + 6 layers): causal */
    CHECK_EQ_INT(plot_args_parse(8, (char *[]){"plot", "buckets", "--config",
                                               "tests/data/models/t5-small.json", "--layer", "7",
                                               "-o", "x.png", NULL},
                                 &pa, why, sizeof why),
                 PLOT_ARGS_OK);
    CHECK(pa.rq.panels == PLOT_PANEL_T5 && pa.rq.t5_bidirectional == 0);
    CHECK(pa.rq.t5_buckets == 32 && pa.rq.t5_max_distance == 128);
    b = build(&pa.rq);
    CHECK(b != NULL);
    if (b) {
        const plot_figure *f = plot_built_figure(b);
        CHECK(strcmp(f->title, "T5 relative position buckets: t5-small layer 7 (causal)") == 0);
        const double *v = f->maps[0].v;
        CHECK(v[5 * 320 + 0] == 5 && v[0 * 320 + 5] == 0 && v[113 * 320 + 0] == 31);
    }
    plot_built_free(b);
    plot_args_free(&pa);
    /* PLOT sinusoid / PLOT buckets with a --config model: its active layer's */
    posenc_model *m;
    posenc_layer_info li;
    char label[96], reason[600], line[1200], path[1024];
    cli_token tk[8];
    plot_request rq;
    CHECK(rope_spec_model_layer(path_in("m2m.json"), 0, &m, &li, label, sizeof label, reason,
                                sizeof reason));
    settings.model = m;
    settings.layer = 0;
    settings.model_label = "m2m";
    snprintf(line, sizeof line, "sinusoid 8 12 %s", path_in("wm.png"));
    size_t nt = split_words(line, tk, 8);
    CHECK(plot_words_parse(tk, nt, &settings, &rq, path, sizeof path, why, sizeof why));
    CHECK(rq.sinusoid.offset == 2 && rq.sinusoid.order == POSENC_SINUSOID_SIN_COS &&
          rq.sinusoid.freqs == POSENC_SINUSOID_FREQ_FAIRSEQ && rq.dim == 12);
    CHECK(strcmp(rq.sinusoid_label, "m2m") == 0);
    CHECK(!plot_line("sinusoid 8 16 x.png", why, sizeof why));
    CHECK(strcmp(why, "PLOT sinusoid: D 16 is not the width of layer 0's table (12)") == 0);
    /* PLOT buckets on a sinusoid layer: the kind's own two panels */
    snprintf(line, sizeof line, "buckets 8 %s", path_in("wm.png"));
    nt = split_words(line, tk, 8);
    CHECK(plot_words_parse(tk, nt, &settings, &rq, path, sizeof path, why, sizeof why));
    CHECK(rq.panels == (PLOT_PANEL_T5 | PLOT_PANEL_DEBERTA) && rq.t5_label == NULL);
    posenc_model_free(m);
    CHECK(rope_spec_model_layer(path_in("deberta.json"), 1, &m, &li, label, sizeof label, reason,
                                sizeof reason));
    settings.model = m;
    settings.layer = 1;
    settings.model_label = NULL;
    CHECK(plot_words_parse(tk, nt, &settings, &rq, path, sizeof path, why, sizeof why));
    CHECK(rq.panels == PLOT_PANEL_DEBERTA && rq.deberta_buckets == 64 &&
          rq.deberta_max_position == 100 && strcmp(rq.deberta_label, "model") == 0);
    CHECK(plot_words_run(tk, nt, &settings, why, sizeof why));
    CHECK(exists(path_in("wm.png")));
    posenc_model_free(m);
    CHECK(rope_spec_model_layer("tests/data/models/t5-small.json", 7, &m, &li, label,
                                sizeof label, reason, sizeof reason));
    settings.model = m;
    settings.layer = 7;
    settings.model_label = "t5-small";
    CHECK(plot_words_parse(tk, nt, &settings, &rq, path, sizeof path, why, sizeof why));
    CHECK(rq.panels == PLOT_PANEL_T5 && rq.t5_bidirectional == 0 && rq.t5_buckets == 32 &&
          strcmp(rq.t5_label, "t5-small") == 0);
    /* PLOT sinusoid on a bucket layer: the kind's defaults */
    snprintf(line, sizeof line, "sinusoid 8 12 %s", path_in("wm.png"));
    nt = split_words(line, tk, 8);
    CHECK(plot_words_parse(tk, nt, &settings, &rq, path, sizeof path, why, sizeof why));
    CHECK(strcmp(rq.sinusoid_label, "fairseq") == 0 && rq.sinusoid.offset == 0);
    posenc_model_free(m);
    settings.model = NULL;
    settings.layer = 0;
    settings.model_label = NULL;
    /* the picture of a config's layer is written */
    snprintf(args, sizeof args, "--config %s --positions 20 -o @/m2m.png", path_in("m2m.json"));
    CHECK_EQ_INT(run_plot(args), 0);
    CHECK(exists(path_in("m2m.png")));
    /* refusals that need a config */
    snprintf(args, sizeof args, "sinusoid --config %s -o @/n.png", path_in("deberta.json"));
    CHECK_EQ_INT(run_plot(args), 2);
    CHECK(strstr(err_text, "layer 0 of deberta-v2 has no sinusoid table (scheme "
                           "relative-buckets)") != NULL);
    snprintf(args, sizeof args, "buckets --config %s -o @/n.png", path_in("m2m.json"));
    CHECK_EQ_INT(run_plot(args), 2);
    CHECK(strstr(err_text, "layer 0 of m2m_100 has no relative position buckets (scheme "
                           "sinusoid)") != NULL);
    CHECK(!exists(path_in("n.png")));
}

/* Refusals of the new options by name (the program's cases in
 * tests/cli/plot hold more). */
TEST(refusals)
{
    static const struct {
        const char *args, *want;
    } R[] = {
        {"sinusoid --family bogus -o @/n.png",
         "--family: unknown family 'bogus' (lesson, marian, ctrl, fairseq or musicgen)"},
        {"pe --family fairseq -o @/n.png", "--family is an option of sinusoid plots, not of pe"},
        {"buckets --alone -o @/n.png", "--alone is an option of sinusoid plots, not of buckets"},
        {"sinusoid --position-buckets 8 -o @/n.png",
         "--position-buckets is an option of buckets plots, not of sinusoid"},
        {"t5-buckets --max-relative-positions 8 -o @/n.png",
         "--max-relative-positions is an option of buckets plots, not of t5-buckets"},
        {"sinusoid --offset 1.5 -o @/n.png", "--offset: '1.5' is not an offset"},
        {"buckets --position-buckets 256 --max-relative-positions 129 -o @/n.png",
         "position_buckets 256, max_relative_positions 129: DeBERTa needs"},
        {"buckets --position-buckets 1 -o @/n.png",
         "position_buckets 1, max_relative_positions 512: DeBERTa needs 2 to 1048576"},
        {"buckets --position-buckets 2000000 -o @/n.png",
         "--position-buckets: '2000000': position_buckets must be from 0 to 1048576"},
        {"buckets --max-relative-positions 1 -o @/n.png",
         "--max-relative-positions: '1': max_relative_positions must be from 2 to"},
        {"buckets --buckets 32 --max-distance 8 -o @/n.png", "32 buckets, max_distance 8: T5"},
        {"sinusoid --family musicgen --dim 3 -o @/n.png", "sinusoid: "},
        {"sinusoid --positions 1048576 -o @/n.png", "cells is too many to draw"},
        {"--positions 4 -o @/n.png", "which plot? name a kind, or give --config FILE"},
        {"buckets --rope default -o @/n.png", "buckets takes one --config (a config.json) and "
                                              "no --rope or --mrope"},
        {"--mrope 16:8:8 -o @/n.png", "a plot of a layer's scheme takes one --config"},
    };
    for (size_t i = 0; i < sizeof R / sizeof R[0]; i++) {
        int rc = run_plot(R[i].args);
        if (rc != 2 || !strstr(err_text, R[i].want))
            fprintf(stderr, "  '%s': rc %d, '%s'\n", R[i].args, rc, err_text);
        CHECK_EQ_INT(rc, 2);
        CHECK(strstr(err_text, R[i].want) != NULL);
    }
    CHECK(!exists(path_in("n.png")));
    /* a request with no panel, or an unknown one, is refused by the builder */
    plot_request rq;
    char why[512];
    plot_request_defaults(&rq, PLOT_BUCKETS);
    rq.out = "x.png";
    rq.panels = 0;
    CHECK(plot_build(&rq, why, sizeof why) == NULL);
    CHECK(strstr(why, "buckets draws T5's (1), DeBERTa's (2) or both (3)") != NULL);
    rq.panels = 4;
    CHECK(plot_build(&rq, why, sizeof why) == NULL);
}

/* PLOT sinusoid and PLOT buckets in the command language: SET base reaches
 * both sinusoid panels, SET t5 the T5 panel. */
TEST(plot_words)
{
    char line[1200], why[512], path[1024];
    cli_token t[8];
    plot_request rq;
    settings.base = 100;
    snprintf(line, sizeof line, "sinusoid 6 8 %s", path_in("w.png"));
    size_t nt = split_words(line, t, 8);
    CHECK(plot_words_parse(t, nt, &settings, &rq, path, sizeof path, why, sizeof why));
    CHECK(rq.kind == PLOT_SINUSOID && rq.positions == 6 && rq.dim == 8);
    CHECK(rq.base[0] == 100 && rq.sinusoid.base == 100);
    CHECK(plot_line(line, why, sizeof why));
    CHECK(exists(path_in("w.png")));
    settings.base = POSENC_DEFAULT_BASE;
    settings.t5_buckets = 16;
    settings.t5_max_distance = 40;
    snprintf(line, sizeof line, "buckets 30 %s", path_in("wb.png"));
    nt = split_words(line, t, 8);
    CHECK(plot_words_parse(t, nt, &settings, &rq, path, sizeof path, why, sizeof why));
    CHECK(rq.kind == PLOT_BUCKETS && rq.positions == 30 && rq.t5_buckets == 16 &&
          rq.t5_max_distance == 40 && rq.panels == (PLOT_PANEL_T5 | PLOT_PANEL_DEBERTA));
    CHECK(plot_line(line, why, sizeof why));
    CHECK(exists(path_in("wb.png")));
    settings.t5_buckets = 32;
    settings.t5_max_distance = 128;
    CHECK(!plot_line("sinusoid 4 x.png", why, sizeof why));
    CHECK(strstr(why, "PLOT sinusoid takes 3 words: PLOT sinusoid POSITIONS D FILE") != NULL);
    CHECK(!plot_line("buckets x.png", why, sizeof why));
    CHECK(strstr(why, "PLOT buckets takes 2 words: PLOT buckets POSITIONS FILE") != NULL);
}

int main(void)
{
    if (!harness_start("/tmp/posenc-plot-schemes-XXXXXX"))
        return 1;
    RUN(sinusoid_fairseq_beside_lesson);
    RUN(sinusoid_families_alone);
    RUN(buckets_t5_beside_deberta);
    RUN(png_cells_have_the_formula_colours);
    RUN(config_layers);
    RUN(refusals);
    RUN(plot_words);
    remove_dir();
    cairo_debug_reset_static_data(); /* so LeakSanitizer sees only our leaks */
    return check_summary("plot_schemes");
}

#endif
