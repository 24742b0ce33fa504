/* cli.h - the command interpreter of the posenc program: a thin layer that
 * parses lines, calls the public API and prints. No math lives here. */
#ifndef POSENC_CLI_H
#define POSENC_CLI_H

#include "posenc_config.h"

#include <stdio.h>

/* Longest input line in bytes; a longer line is reported and skipped. Large
 * enough for a million numbers of up to 60 characters each. */
#define CLI_MAX_LINE (64u * 1024u * 1024u)

/* One word of a line: a number, a name, or a bracket. */
typedef struct cli_token {
    const char *s;
    size_t len;
} cli_token;

/* Settings and buffers that live across lines. */
typedef struct cli_state {
    /* settings (SET, --base ...) */
    double base;
    posenc_layout layout;
    int precision;
    /* the learned table of the last successful LOAD, or NULL */
    posenc_learned *table;
    /* where output and messages go */
    FILE *out, *err;
    int flush_each; /* -u: flush after every command */
    /* the current line, for messages */
    const char *source; /* file name, or NULL for standard input and -c */
    size_t line_no;
    int failed; /* a line has failed since the start */
    /* scratch buffers, grown on demand and reused (bounded by the limits) */
    cli_token *tok;
    size_t tok_cap;
    double *vec;
    size_t vec_cap;
    double *vec2;
    size_t vec2_cap;
    char num[400];  /* one formatted number: "%.17f" of the largest double fits */
    /* a model's RoPE (--config, SET rope; rope_cmds.c): NULL means plain RoPE
     * over the whole vector; model_next and model_rope are scratch */
    posenc_rope_config *model, *model_next;
    posenc_rope *model_rope;
    int64_t seq_len; /* SET seq_len: the length dynamic/longrope see; 0 = auto */
    char model_label[96]; /* the model's name in pictures: config file name or type */
    /* a model read through the registry (--config; model_cmds.c), or NULL, and
     * the layer whose RoPE st->model holds (SET layer, --layer) */
    posenc_model *registry_model;
    uint32_t layer;
} cli_state;

/* Initialises st with defaults (base 10000, interleaved, precision 4). */
void cli_init(cli_state *st, FILE *out, FILE *err);
/* Releases what st owns. */
void cli_free(cli_state *st);

/* Runs one line (without its newline; len bytes, need not be NUL-terminated).
 * Returns 0 if it ran, 1 if it failed (a message went to st->err). */
int cli_run_line(cli_state *st, const char *line, size_t len);

/* Runs every line of a stream. prompt: print "posenc> " before each line.
 * Returns 0 if all ran, 1 if any failed. */
int cli_run_stream(cli_state *st, FILE *in, int prompt);

/* Runs a -c string: lines separated by newlines or ';'. */
int cli_run_string(cli_state *st, const char *text);

/* Setting parsers shared by SET and the command-line options. On failure
 * they return 0 and write a reason into why (size n). */
int cli_parse_base(const char *s, size_t len, double *out, char *why, size_t n);
int cli_parse_layout(const char *s, size_t len, posenc_layout *out, char *why, size_t n);
int cli_parse_precision(const char *s, size_t len, int *out, char *why, size_t n);

/* Output helpers (output.c). */
const char *cli_format_number(cli_state *st, double v); /* valid until the next call */
void cli_print_numbers(cli_state *st, const double *v, size_t n);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void cli_error(cli_state *st, const char *fmt, ...);

/* A model's RoPE (rope_cmds.c). cli_load_config: --config FILE (the
 * checkpoint's layout unless layout_given); 0 with a reason in why on failure. */
int cli_load_config(cli_state *st, const char *path, int layout_given, char *why, size_t n);
int cli_have_config_reader(void);
int cli_set_rope(cli_state *st, const cli_token *a, size_t n); /* SET rope TYPE k=v ... */
int cli_set_seq_len(cli_state *st, cli_token t);
void cli_rope_settings_changed(cli_state *st); /* after SET base / SET layout */
int cli_model_rope(cli_state *st, int64_t pos, size_t D);          /* st->vec */
int cli_model_dot(cli_state *st, int64_t m, int64_t n, size_t D);  /* st->vec, st->vec2 */
int cli_explain_freqs(cli_state *st, const cli_token *a, size_t n);
void cli_rope_free(cli_state *st);

/* A model from the registry (model_cmds.c). cli_model_load: --config FILE
 * read as its family's code does (model_type NULL: the config's own), the
 * active layer's RoPE installed as st->model; 0 with a reason on failure.
 * cli_layer_rotates: 0 when a registry model is loaded and the active layer
 * has no RoPE (ROPE and DOT then use the passthroughs). */
int cli_model_load(cli_state *st, const char *path, const char *model_type, int layout_given,
                   char *why, size_t n);
int cli_set_layer(cli_state *st, cli_token t);                    /* SET layer N */
int cli_layer_rotates(const cli_state *st);
int cli_layer_rope_passthrough(cli_state *st, size_t D);          /* st->vec, unchanged */
int cli_layer_dot_passthrough(cli_state *st, size_t D);           /* st->vec . st->vec2 */
int cli_model_explain_freqs(cli_state *st, const cli_token *a, size_t n);
int cli_explain_model(cli_state *st, const cli_token *a, size_t n);
void cli_list_models(FILE *out);                                  /* posenc --models */
void cli_model_free(cli_state *st);

/* Prints the HELP text. */
void cli_print_help(FILE *out);

#endif
