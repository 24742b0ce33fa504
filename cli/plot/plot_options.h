/* plot_options.h - the options layer of the plot module: turns the argv of
 * `posenc plot KIND [options] -o FILE`, or the words of the language's PLOT
 * command, into a plot_request (plot.h). Parsers return a status and a
 * message; they never print. Uses words.h, rope_spec.h and plot.h (see
 * words.h for the order of cli/), never the interpreter. */
#ifndef POSENC_CLI_PLOT_OPTIONS_H
#define POSENC_CLI_PLOT_OPTIONS_H

#include "plot.h"
#include "words.h"

#include <stdio.h>

/* ---- `posenc plot` ------------------------------------------------------------ */

/* A request read from argv, with what its model series need: the RoPEs of
 * --config and --rope (rq.rope_config[i] points into models) and their
 * labels. rq.out and rq.title point into argv. Free with plot_args_free. */
typedef struct plot_args {
    plot_request rq;
    posenc_rope_config *models; /* rq.n_rope of them, or NULL */
    posenc_model *model_of[PLOT_MAX_SERIES]; /* --config series' models (rq.rope_model[i]) */
    char labels[PLOT_MAX_SERIES][96];
    posenc_mrope mropes[PLOT_MAX_SERIES]; /* --mrope series' tables (rq.mrope[i]) */
} plot_args;

typedef enum plot_args_status {
    PLOT_ARGS_OK = 0,   /* pa->rq is ready for plot_run */
    PLOT_ARGS_HELP = 1, /* -h or --help: print plot_print_usage, draw nothing */
    PLOT_ARGS_BAD = 2   /* a reason in why, as "posenc plot: " would end it */
} plot_args_status;

/* argv[0] is "plot", argv[1] the kind, then the options. --rope takes the
 * words of SET rope (head_dim and rotary_dim from --dim unless given, base
 * from the first --base, layout from --layout); --config a config.json;
 * --mrope T:H:W[,interleaved] plain RoPE of --dim and the first --base with
 * M-RoPE sections (freqs colours each pair by its axis). The
 * models are read after every option, and with models and no --base the
 * chart shows the models only. pa needs plot_args_free whatever the status. */
plot_args_status plot_args_parse(int argc, char **argv, plot_args *pa, char *why, size_t n);
void plot_args_free(plot_args *pa);

/* The help text of `posenc plot --help`. */
void plot_print_usage(FILE *out);

/* `posenc plot ...` whole (plot_main.c): parses argv, prints the help to
 * standard output or a message "posenc plot: ..." to err, draws. Returns the
 * exit status: 0 written (or help), 2 bad request or failure. */
int cli_plot_main(int argc, char **argv, FILE *err);

/* ---- PLOT in the command language ---------------------------------------------- */

/* What PLOT takes from the interpreter's settings (SET base, SET layout,
 * SET rope or --config, SET seq_len, SET t5). model may be NULL; model_label NULL or
 * "" reads "model RoPE". */
typedef struct plot_settings {
    double base;
    posenc_layout layout;
    const posenc_model *model; /* the model, or NULL (PLOT sinusoid and PLOT buckets
                                  draw its active layer's when it has that scheme) */
    uint32_t layer;            /* its active layer */
    const char *model_label;
    int64_t seq_len;
    uint32_t t5_buckets, t5_max_distance; /* t5-buckets */
    /* not NULL: the active layer of a --config model has no RoPE (the reason,
     * e.g. "layer 3 of llama4_text has no RoPE (scheme none)"): rope-decay and
     * freqs are refused with it rather than drawing plain RoPE as the model's */
    const char *no_rope;
    const posenc_mrope *mrope; /* the model's M-RoPE table, or NULL */
} plot_settings;

/* The words after PLOT (KIND, its counts, FILE) into *rq, the file name
 * copied into path (size path_n). The model RoPE, when there is one, is a
 * series of rope-decay and freqs next to plain RoPE. Returns 1, or 0 with
 * the whole message in why ("PLOT ..."). */
int plot_words_parse(const cli_token *a, size_t n, const plot_settings *set, plot_request *rq,
                     char *path, size_t path_n, char *why, size_t why_n);

/* plot_words_parse, then plot_run: returns 1 when the file is written, else
 * 0 with the whole message in why. */
int plot_words_run(const cli_token *a, size_t n, const plot_settings *set, char *why,
                   size_t why_n);

#endif
