/* test_plot_models.c - `posenc plot` and PLOT on a config.json, a model
 * of the registry, a layer, --rope and M-RoPE: the curves follow the model's
 * RoPE and lengths (tests/model_lengths.h), layers without RoPE are refused.
 * Built with Cairo only; without it this program says it skipped. */
#include "check.h"
#include "plot.h"

#include <stdlib.h>

#ifndef POSENC_HAVE_CAIRO

int main(void)
{
    (void)check__failed_checks;
    check_skip("plot_models", 8, "the plots of configs, models and --rope: built without Cairo", "libcairo2-dev");
    return check_summary("plot_models");
}

#else

#include "plot_harness.h"
#include "model_lengths.h"

/* --config FILE: a series per file; a broken one fails with exit 2 and
 * writes nothing; without the config reader, the message says what to
 * install. */
TEST(config_option)
{
    if (!rope_spec_have_config_reader()) {
        check_refused("freqs --config tests/data/llama-3.1-8b.json -o @/nj.png", "nj.png",
                      "install libjansson-dev");
        return;
    }
    char got[256];
    CHECK_EQ_INT(run_plot("freqs --context 0 --config tests/data/llama-3.1-8b.json "
                          "--config tests/data/gpt-oss-20b.json -o @/fs.svg"),
                 0);
    if (have_python) { /* a dot per pair: 64 + 32; the dashed plain curves have none */
        svg_query("markers", path_in("fs.svg"), got, sizeof got);
        CHECK(strcmp(got, "96") == 0);
    }
    CHECK_EQ_INT(run_plot("rope-decay --max-offset 100 --samples 2 --base 10000 "
                          "--config tests/data/llama-3.1-8b.json -o @/rd.png"),
                 0);
    CHECK(exists(path_in("rd.png")));
    check_refused("freqs --config tests/data/bad-json.json -o @/b1.png", "b1.png",
                  "--config: tests/data/bad-json.json");
    check_refused("rope-decay --config tests/data/bad-unknown-key.json -o @/b2.png", "b2.png",
                  "bad-unknown-key.json");
    check_refused("freqs --config tests/data/no-such.json -o @/b3.png", "b3.png", "no-such.json");
    check_refused("freqs --config", NULL, "needs a value");
}

/* argv of `posenc plot ARGS` (split at spaces) into *pa. */
static plot_args_status parse_args(const char *args, plot_args *pa, char *why, size_t n)
{
    static char buf[1024];
    char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "plot %s", args);
    for (char *w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " "))
        argv[argc++] = w;
    argv[argc] = NULL;
    return plot_args_parse(argc, argv, pa, why, n);
}

/* The wavelengths of curve c of a freqs figure against Qwen 1's dynamic
 * NTK at length L (tests/model_lengths.h). */
static void check_qwen_curve(const plot_figure *f, size_t c, int64_t L)
{
    CHECK(c < f->n_curves && f->curves[c].n == 64);
    if (c >= f->n_curves || f->curves[c].n != 64)
        return;
    for (uint32_t k = 0; k < 64; k++) {
        double want = 2.0 * 3.14159265358979323846 / qwen_inv_freq(10000.0, 128, 2048.0, L, k);
        CHECK_NEAR(f->curves[c].y[k], want, 1e-13 * want);
    }
}

/* `posenc plot freqs --config qwen-14b-chat.json --seq-len N` and PLOT freqs
 * with SET seq_len N draw the layer's RoPE at N as the model's code builds
 * it: Qwen 1's dynamic NTK (2048: plain; 8192: alpha 7; 16384: alpha 15). */
TEST(config_freqs_follow_the_length)
{
    if (!rope_spec_have_config_reader())
        return;
    static const int64_t lens[] = {2048, 8192, 16384};
    plot_args pa;
    char why[1400], args[256];
    for (size_t i = 0; i < 3; i++) {
        snprintf(args, sizeof args,
                 "freqs --config tests/data/qwen-14b-chat.json --layer 39 --seq-len %lld -o x.png",
                 (long long)lens[i]);
        CHECK_EQ_INT(parse_args(args, &pa, why, sizeof why), PLOT_ARGS_OK);
        CHECK(pa.rq.cur_len == lens[i] && pa.rq.rope_layer[0] == 39);
        plot_built *b = plot_build(&pa.rq, why, sizeof why);
        CHECK(b != NULL);
        if (b)
            check_qwen_curve(plot_built_figure(b), 0, lens[i]);
        plot_built_free(b);
        plot_args_free(&pa);
    }
    /* PLOT in the interpreter: the model and layer in force, SET seq_len */
    posenc_model *m;
    CHECK(rope_spec_read_model("tests/data/models/qwen-7b-chat.json", NULL, &m, why, sizeof why));
    plot_settings set = settings;
    set.model = m;
    set.layer = 31;
    set.seq_len = 8192;
    cli_token t[8];
    size_t nt = split_words("freqs 128 x.png", t, 8);
    plot_request rq;
    char path[64];
    CHECK(plot_words_parse(t, nt, &set, &rq, path, sizeof path, why, sizeof why));
    CHECK(rq.rope_model[0] == m && rq.rope_layer[0] == 31 && rq.cur_len == 8192);
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (b) /* the plain base series first, then the model's */
        check_qwen_curve(plot_built_figure(b), 1, 8192);
    plot_built_free(b);
    posenc_model_free(m);
}

/* --config is read through the model registry at --layer: Gemma 3's
 * sliding layers (rope_local_base_freq 10000, unscaled) and its global ones
 * (rope_theta 1e6, linear factor 8), as tests/data/models/gemma3-synthetic.json
 * gives them; a T5 config gives t5-buckets its buckets and max distance
 * (48 and 200 in t5-48-200-synthetic.json). */
TEST(config_through_the_registry)
{
    plot_args pa;
    char why[1400];
    if (!rope_spec_have_config_reader()) {
        CHECK_EQ_INT(parse_args("freqs --config tests/data/models/gemma3-synthetic.json -o x.png",
                                &pa, why, sizeof why),
                     PLOT_ARGS_BAD);
        CHECK(strstr(why, "install libjansson-dev") != NULL);
        plot_args_free(&pa);
        return;
    }
    CHECK_EQ_INT(parse_args("freqs --config tests/data/models/gemma3-synthetic.json -o x.png",
                            &pa, why, sizeof why),
                 PLOT_ARGS_OK);
    CHECK_EQ_INT(pa.rq.n_rope, 1);
    posenc_rope_config c;
    /* the series is the model's layer, asked of the library at the plot's length */
    CHECK(pa.rq.rope_model[0] == pa.model_of[0] && pa.rq.rope_layer[0] == 0);
    CHECK(posenc_model_layer_rope_config(pa.model_of[0], 0, &c) == POSENC_OK);
    CHECK(c.base == 10000.0 && c.scaling.type == POSENC_ROPE_DEFAULT);
    CHECK(c.layout == POSENC_LAYOUT_HALF && c.head_dim == 256);
    CHECK(strcmp(pa.labels[0], "gemma3-synthetic") == 0);
    plot_args_free(&pa);
    CHECK_EQ_INT(parse_args("rope-decay --layer 5 --config tests/data/models/gemma3-synthetic.json "
                            "-o x.png",
                            &pa, why, sizeof why),
                 PLOT_ARGS_OK);
    CHECK(pa.rq.rope_layer[0] == 5 &&
          posenc_model_layer_rope_config(pa.model_of[0], 5, &c) == POSENC_OK);
    CHECK(c.base == 1000000.0 && c.scaling.type == POSENC_ROPE_LINEAR && c.scaling.factor == 8.0);
    CHECK(strcmp(pa.labels[0], "gemma3-synthetic layer 5") == 0);
    plot_args_free(&pa);
    /* a NoPE layer of Llama 4 (every fourth) */
    CHECK_EQ_INT(parse_args("freqs --config tests/data/models/llama4-scout-synthetic.json --layer 3 "
                            "-o x.png",
                            &pa, why, sizeof why),
                 PLOT_ARGS_BAD);
    CHECK(strstr(why, "layer 3 of llama4_text has no RoPE (scheme none)") != NULL);
    plot_args_free(&pa);
    CHECK_EQ_INT(parse_args("t5-buckets --config tests/data/models/t5-48-200-synthetic.json "
                            "--layer 3 -o x.png",
                            &pa, why, sizeof why),
                 PLOT_ARGS_OK);
    CHECK_EQ_INT(pa.rq.t5_buckets, 48);
    CHECK_EQ_INT(pa.rq.t5_max_distance, 200);
    plot_args_free(&pa);
    /* --buckets wins (and max distance keeps its default) */
    CHECK_EQ_INT(parse_args("t5-buckets --buckets 64 --config tests/data/models/t5-48-200-synthetic.json "
                            "-o x.png",
                            &pa, why, sizeof why),
                 PLOT_ARGS_OK);
    CHECK_EQ_INT(pa.rq.t5_buckets, 64);
    CHECK_EQ_INT(pa.rq.t5_max_distance, 128);
    plot_args_free(&pa);
    CHECK_EQ_INT(parse_args("t5-buckets --config tests/data/no-such.json -o x.png", &pa, why,
                            sizeof why),
                 PLOT_ARGS_BAD);
    CHECK(strstr(why, "--config: tests/data/no-such.json") != NULL);
    plot_args_free(&pa);
    CHECK_EQ_INT(parse_args("t5-buckets --rope linear_factor=2 -o x.png", &pa, why, sizeof why),
                 PLOT_ARGS_BAD);
    CHECK(strstr(why, "t5-buckets takes one --config") != NULL);
    plot_args_free(&pa);
}

/* PLOT on a --config model's layer without RoPE: refused with the reason
 * the interpreter gives, rather than drawn as plain RoPE; other kinds draw. */
TEST(plot_command_on_a_layer_without_rope)
{
    char line[512], why[512];
    settings.no_rope = "layer 3 of llama4_text has no RoPE (scheme none)";
    snprintf(line, sizeof line, "freqs 16 %s", path_in("nope.svg"));
    CHECK(!plot_line(line, why, sizeof why));
    CHECK(strstr(why, "PLOT freqs: layer 3 of llama4_text has no RoPE (scheme none)") != NULL);
    CHECK(!exists(path_in("nope.svg")));
    snprintf(line, sizeof line, "pe 4 6 %s", path_in("nope-pe.png"));
    CHECK(plot_line(line, why, sizeof why));
    settings.no_rope = NULL;
}

/* --rope 'TYPE key=value ...' takes SET rope's words. */
TEST(rope_option)
{
    char a0[] = "plot", a1[] = "freqs", a2[] = "--dim", a3[] = "16", a4[] = "--base",
         a5[] = "10000", a6[] = "--rope", a7[] = "linear factor=4", a8[] = "-o", a9[256];
    snprintf(a9, sizeof a9, "%s", path_in("rope.svg"));
    char *argv[] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, NULL};
    CHECK_EQ_INT(run_plot_argv(10, argv), 0);
    char got[256];
    if (have_python) {
        svg_query("markers", path_in("rope.svg"), got, sizeof got);
        CHECK(strcmp(got, "16") == 0);
    }
    char b7[] = "linear factor=abc", b9[256];
    snprintf(b9, sizeof b9, "%s", path_in("rope-bad.png"));
    argv[7] = b7;
    argv[9] = b9;
    CHECK_EQ_INT(run_plot_argv(10, argv), 2);
    CHECK(strstr(err_text, "posenc plot: --rope: SET rope: factor=abc is not a number") != NULL);
    CHECK(!exists(b9));
    char c7[] = "warp factor=2";
    argv[7] = c7;
    CHECK_EQ_INT(run_plot_argv(10, argv), 2);
    CHECK(strstr(err_text, "unknown type 'warp'") != NULL);
    CHECK(!exists(b9));
}

/* freqs of an M-RoPE series: three dot-only curves, one per axis, holding
 * exactly the pairs of each axis (Qwen3-VL's rule on 8 pairs: t h w t h w t
 * t), each at its plain wavelength; and the same through --mrope. */
TEST(freqs_of_mrope)
{
    posenc_rope_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.head_dim = cfg.rotary_dim = 16;
    cfg.base = 10000;
    cfg.layout = POSENC_LAYOUT_HALF;
    CHECK_EQ_INT(posenc_rope_scaling_init(&cfg.scaling, POSENC_ROPE_DEFAULT), POSENC_OK);
    posenc_mrope m;
    const uint32_t sec[3] = {4, 2, 2};
    CHECK_EQ_INT(posenc_mrope_init(&m, 8, sec, POSENC_MROPE_INTERLEAVED), POSENC_OK);
    plot_request rq;
    char why[256];
    plot_request_defaults(&rq, PLOT_FREQS);
    rq.dim = 16;
    rq.n_base = 0;
    rq.rope_config[0] = &cfg;
    rq.rope_label[0] = "qwen3";
    rq.mrope[0] = &m;
    rq.n_rope = 1;
    rq.out = "x.png";
    plot_built *b = plot_build(&rq, why, sizeof why);
    CHECK(b != NULL);
    if (!b)
        return;
    const plot_figure *f = plot_built_figure(b);
    CHECK_EQ_INT(f->n_curves, 3);
    static const int pairs[3][4] = {{0, 3, 6, 7}, {1, 4, -1, -1}, {2, 5, -1, -1}};
    for (size_t a = 0; a < 3 && f->n_curves == 3; a++) {
        const plot_curve *c = &f->curves[a];
        CHECK_EQ_INT(c->n, 2 * sec[a]);
        for (size_t i = 0; i < sec[a]; i++) {
            int k = pairs[a][i];
            CHECK_NEAR(c->x[2 * i], k, 0);
            CHECK_NEAR(c->y[2 * i] / (TWO_PI * pow(10000.0, 2.0 * k / 16)), 1, 1e-13);
            CHECK(isnan(c->y[2 * i + 1])); /* dots only */
        }
        CHECK(c->markers);
    }
    CHECK(strstr(f->curves[0].label, "4 pairs follow the temporal position t") != NULL);
    CHECK(strstr(f->curves[2].label, "width") != NULL);
    CHECK(strstr(f->subtitle, "M-RoPE") != NULL);
    plot_built_free(b);
    /* --mrope on the command line */
    char a0[] = "plot", a1[] = "freqs", a2[] = "--dim", a3[] = "16", a4[] = "--mrope",
         a5[] = "4:2:2,interleaved", a6[] = "-o", a7[256];
    snprintf(a7, sizeof a7, "%s", path_in("mrope.svg"));
    char *argv[] = {a0, a1, a2, a3, a4, a5, a6, a7, NULL};
    CHECK_EQ_INT(run_plot_argv(8, argv), 0);
    CHECK(exists(a7));
    char b5[] = "4:2:2,sideways";
    argv[5] = b5;
    CHECK_EQ_INT(run_plot_argv(8, argv), 2);
    CHECK(strstr(err_text, "posenc plot: --mrope: '4:2:2,sideways' is not T:H:W") != NULL);
    char c5[] = "4:2:3";
    argv[5] = c5;
    CHECK_EQ_INT(run_plot_argv(8, argv), 2);
    CHECK(strstr(err_text, "they must add up to D/2") != NULL);
}

/* PLOT with a model RoPE (SET rope): the model is a series next to plain
 * RoPE of the same base; its plain frequencies are not drawn twice. */
TEST(plot_command_with_model)
{
    char why[512], line[512], got[256];
    CHECK(set_rope("llama3 head_dim=8 factor=8 original=1024 low_freq_factor=1 "
                   "high_freq_factor=4",
                   why, sizeof why));
    snprintf(line, sizeof line, "freqs 8 %s", path_in("model.svg"));
    CHECK(plot_line(line, why, sizeof why));
    if (have_python) {
        svg_query("markers", path_in("model.svg"), got, sizeof got);
        CHECK(strcmp(got, "8") == 0);
    }
    snprintf(line, sizeof line, "rope-decay 8 100 %s", path_in("model.png"));
    CHECK(plot_line(line, why, sizeof why));
    CHECK(exists(path_in("model.png")));
    CHECK(set_rope("off", why, sizeof why));
    CHECK(settings.model == NULL);
}

/* PLOT in the command language: its words, read by the plot module. */
TEST(plot_command)
{
    char line[512], why[512];
    snprintf(line, sizeof line, "pe 4 6 %s", path_in("cmd.png"));
    CHECK(plot_line(line, why, sizeof why));
    png p;
    CHECK(png_open(&p, path_in("cmd.png")));
    if (p.data) {
        CHECK_EQ_INT(p.w, 900);
        CHECK_EQ_INT(p.h, 640);
        cairo_surface_destroy(p.s);
    }
    snprintf(line, sizeof line, "freqs 16 %s", path_in("cmd.svg"));
    CHECK(plot_line(line, why, sizeof why));
    char got[256];
    svg_query("markers", path_in("cmd.svg"), got, sizeof got);
    CHECK(!have_python || strcmp(got, "8") == 0);
    snprintf(line, sizeof line, "pe 4 0 %s", path_in("cmd0.png"));
    CHECK(!plot_line(line, why, sizeof why));
    CHECK(!exists(path_in("cmd0.png")));
    CHECK(strstr(why, "D '0' must be") != NULL);
    snprintf(line, sizeof line, "alibi 4 %s", path_in("cmd1.png"));
    CHECK(!plot_line(line, why, sizeof why));
    CHECK(!exists(path_in("cmd1.png")));
    CHECK(strstr(why, "PLOT alibi H POSITIONS FILE") != NULL);
    CHECK(!plot_line("waves 1 x.png", why, sizeof why));
    CHECK(strstr(why, "PLOT needs a kind") != NULL);
}

int main(void)
{
    if (!harness_start("/tmp/posenc-plot-XXXXXX"))
        return 1;
    RUN(plot_command);
    RUN(config_option);
    RUN(config_through_the_registry);
    RUN(config_freqs_follow_the_length);
    RUN(plot_command_on_a_layer_without_rope);
    RUN(rope_option);
    RUN(freqs_of_mrope);
    RUN(plot_command_with_model);

    remove_dir();
    cairo_debug_reset_static_data(); /* so LeakSanitizer sees only our leaks */
    return check_summary("plot_models");
}

#endif
