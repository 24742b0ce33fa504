/* cli.h - the command interpreter of the posenc program: a thin layer that
 * parses lines, calls the public API and prints. No math lives here. It
 * uses the pure parsers (words.h, rope_spec.h) and hands PLOT to the plot
 * module (plot_options.h); nothing below it calls back (see words.h for the
 * order of cli/). */
#ifndef POSENC_CLI_H
#define POSENC_CLI_H

#include "posenc.h"
#include "posenc_gguf.h"
#include "posenc_model.h"
#include "message.h"
#include "words.h"

#include <stdarg.h>
#include <stdio.h>

/* Longest input line in bytes; a longer line is reported and skipped. Large
 * enough for a million numbers of up to 60 characters each. */
#define CLI_MAX_LINE (64u * 1024u * 1024u)

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
    int show_comments; /* --comments: comment and blank lines printed as they are */
    /* the current line, for messages */
    const char *source; /* file name, or NULL for standard input and -c */
    size_t line_no;
    int failed; /* a line has failed since the start */
    const char *cmd_rest; /* the current line after its first word (LOAD's file) */
    size_t cmd_rest_len;
    /* scratch buffers, grown on demand and reused (bounded by the limits) */
    cli_token *tok;
    size_t tok_cap;
    double *vec;
    size_t vec_cap;
    double *vec2;
    size_t vec2_cap;
    char num[400];  /* one formatted number: "%.17f" of the largest double fits */
    /* The model (--config, or SET rope: one RoPE on one layer; rope_cmds.c,
     * model_cmds.c), or NULL for plain RoPE over the whole vector. ROPE,
     * DOT, EXPLAIN FREQS and PLOT ask it for the active layer's scheme, its
     * RoPE at the length in use (posenc_model_layer_rope). model_from_config:
     * it was read from a config.json (EXPLAIN MODEL, LEARNED's offset).
     * model_next, model_rope and model_cfg are scratch. */
    posenc_model *model, *model_next;
    int model_from_config;
    uint32_t layer; /* the active layer (SET layer, --layer) */
    posenc_rope *model_rope;
    posenc_rope_config *model_cfg;
    int64_t seq_len; /* SET seq_len: the length the layer's RoPE is built for; 0 = pos + 1 */
    char model_label[96]; /* the model's name in pictures: config file name or type */
    /* M-RoPE (SET rope mrope ...; mrope_cmds.c): mrope_on when the model RoPE
     * is multimodal, with its pair-to-axis table; merge (spatial_merge_size,
     * 0 = the default 2) and tokens_per_second (0: Qwen2-VL's rule) for
     * MROPE_POSITIONS */
    int mrope_on;
    posenc_mrope mrope;
    uint32_t mrope_merge, mrope_tps;
    /* T5 relative buckets (SET t5; t5_cmds.c): default 32 / 128 / yes;
     * t5_given: the keys SET t5 has set (CLI_T5_*), which win over a T5
     * config's (cli_t5_settings) */
    uint32_t t5_buckets, t5_max_distance;
    int t5_bidirectional;
    unsigned t5_given;
    /* --gguf FILE (gguf_cmds.c): the file, llama.cpp's hyperparameters of
     * it, the context size (--ctx N, 0 = the file's context_length), and
     * its name as given; EXPLAIN MODEL states the file's RoPE */
    posenc_gguf *gguf;
    posenc_gguf_hparams *gguf_hp;
    uint64_t gguf_ctx;
    const char *gguf_path;
    int gguf_per_layer; /* layers run different ops: the model is the active layer's */
} cli_state;

/* `posenc [OPTIONS] [FILE...]` (interp_main.c): the interpreter's command
 * line; returns the exit status (0, 1 a line failed, 2 bad options). */
int cli_interp_main(int argc, char **argv);

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

/* Runs standard input when it is a terminal: with line editing and history
 * (kept in ~/.posenc_history) when built with libedit, else as
 * cli_run_stream(st, stdin, 1). Returns 0 if all ran, 1 if any failed. */
int cli_run_terminal(cli_state *st);
int cli_have_line_editing(void); /* 1 when built with libedit */

/* Runs a -c string: lines separated by newlines or ';'. */
int cli_run_string(cli_state *st, const char *text);

/* Output helpers (output.c). */
const char *cli_format_number(cli_state *st, double v); /* valid until the next call */
void cli_print_numbers(cli_state *st, const double *v, size_t n);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void cli_error(cli_state *st, const char *fmt, ...);
/* Every message goes out through the escaping printer (message.h):
 * cli_write_escaped, cli_message, cli_fail. */

/* A model's RoPE (rope_cmds.c). cli_active_rope: the active layer's RoPE
 * configuration (into st->model_cfg), or NULL when there is no model or
 * the layer has none. cli_install_model: m (owned from now on) becomes the
 * model, its active layer's settings (base, layout, M-RoPE) in force; 0
 * with a reason (m freed) when the active layer does not exist. */
const posenc_rope_config *cli_active_rope(cli_state *st);
int cli_install_model(cli_state *st, posenc_model *m, int from_config, char *why, size_t n);
int cli_set_rope(cli_state *st, const cli_token *a, size_t n); /* SET rope TYPE k=v ... */
int cli_set_seq_len(cli_state *st, cli_token t);
/* The layer's RoPE for a sequence reaching position last, into
 * st->model_rope (cur_len = SET seq_len, or last + 1 when that is 0). */
posenc_status cli_layer_rope(cli_state *st, int64_t last);
void cli_rope_settings_changed(cli_state *st); /* after SET base / SET layout */
int cli_model_rope(cli_state *st, int64_t pos, size_t D);          /* st->vec */
int cli_model_dot(cli_state *st, int64_t m, int64_t n, size_t D);  /* st->vec, st->vec2 */
int cli_explain_freqs(cli_state *st, const cli_token *a, size_t n);
void cli_rope_free(cli_state *st);
/* Makes *spec (checked by rope_spec_parse) the model: one RoPE on one
 * layer; 0 when out of memory. */
int cli_set_rope_config(cli_state *st, const posenc_rope_config *spec);

/* What the active layer does to a head (layer_cmds.c): ROPE and DOT make
 * one call, cli_layer_rotate (st->vec, printed) or cli_layer_dot (st->vec .
 * st->vec2); positions are p[0] except on an M-RoPE layer (t:h:w). */
typedef enum cli_layer_kind {
    CLI_LAYER_PLAIN, /* no model: plain RoPE of any D (SET base, SET layout) */
    CLI_LAYER_ROPE,  /* the model's RoPE on heads of its head_dim */
    CLI_LAYER_MROPE, /* the model's M-RoPE */
    CLI_LAYER_NONE   /* a --config layer without RoPE: heads unchanged */
} cli_layer_kind;
cli_layer_kind cli_layer_kind_of(const cli_state *st);
int cli_layer_rotate(cli_state *st, const int64_t p[3], size_t D);
int cli_layer_dot(cli_state *st, const int64_t m[3], const int64_t n[3], size_t D);

/* Multimodal RoPE (mrope_cmds.c). Positions: "t:h:w" or "p" (p:p:p) into p;
 * "row:col" for ROPE2D. The commands take the vector already in st->vec
 * (and st->vec2 for DOT; EXPLAIN ROPE uses st->vec2 as scratch, reserved by
 * the caller for D numbers). */
int cli_set_rope_mrope(cli_state *st, const cli_token *a, size_t n); /* SET rope mrope ... */
int cli_parse_mrope_position(cli_state *st, cli_token t, int64_t p[3]);
int cli_parse_rope2d_position(cli_state *st, cli_token t, int64_t *row, int64_t *col);
int cli_mrope_rope(cli_state *st, const int64_t p[3], size_t D);
int cli_mrope_dot(cli_state *st, const int64_t m[3], const int64_t n[3], size_t D);
int cli_mrope_explain(cli_state *st, const int64_t p[3], size_t D);
int cli_rope2d(cli_state *st, int64_t row, int64_t col, size_t D);
int cli_mrope_positions(cli_state *st, const cli_token *a, size_t n); /* MROPE_POSITIONS */

/* T5 relative buckets (t5_cmds.c): SET t5 k=v ..., T5BUCKET i j,
 * EXPLAIN T5BUCKET i j. */
#define CLI_T5_BUCKETS 1u
#define CLI_T5_MAX_DISTANCE 2u
#define CLI_T5_BIDIRECTIONAL 4u
/* The settings T5BUCKET, EXPLAIN T5BUCKET and PLOT t5-buckets use: each key
 * from SET t5 when given there, else from the active layer of a --config
 * model with relative buckets (T5, mT5: bidirectional in the encoder stack,
 * causal in the decoder's), else the default. Returns 1 with *from that
 * layer when the model has such a layer, else 0. */
int cli_t5_settings(const cli_state *st, uint32_t *buckets, uint32_t *max_distance,
                    int *bidirectional, posenc_layer_info *from);
int cli_set_t5(cli_state *st, const cli_token *a, size_t n);
int cli_t5_bucket(cli_state *st, const cli_token *a, size_t n);
int cli_explain_t5(cli_state *st, const cli_token *a, size_t n);
/* scheme_cmds.c: EXPLAIN SINUSOID pos, EXPLAIN DEBERTA i j (a --config model's
 * sinusoid layer, DeBERTa's relative ids) */
int cli_explain_sinusoid(cli_state *st, const cli_token *a, size_t n);
int cli_explain_deberta(cli_state *st, const cli_token *a, size_t n);
/* bucket_cmds.c: EXPLAIN BUCKET i j [n_tok] (LongT5's encoder, CPM-Ant, VITS) */
int cli_explain_bucket(cli_state *st, const cli_token *a, size_t n);
/* scheme_cmds.c: EXPLAIN AXIAL pos (Reformer's axial rows), EXPLAIN BOX x0 y0 x1 y1
 * (LayoutLM's box rows) of a --config model's layer */
int cli_explain_axial(cli_state *st, const cli_token *a, size_t n);
int cli_explain_box(cli_state *st, const cli_token *a, size_t n);
/* relsin_cmds.c: EXPLAIN RELSIN dist [D] (XLNet's, Funnel's relative sinusoid) */
int cli_explain_relsin(cli_state *st, const cli_token *a, size_t n);

/* LOAD file.safetensors TENSOR (checkpoint_cmds.c): text is LOAD's rest of
 * the line, trimmed. cli_load_names_checkpoint: 1 when it ends in
 * ".safetensors", alone or followed by one more word (the tensor). */
int cli_load_names_checkpoint(const char *text, size_t len);
int cli_load_checkpoint(cli_state *st, const char *text, size_t len);
/* The end of every LOAD: s's message (path, the line of a text table) and
 * 0, or t (owned from now on) installed as the table and 1. */
int cli_table_loaded(cli_state *st, const char *path, posenc_status s,
                     const posenc_load_error *e, posenc_learned *t);
/* A model from its config (model_cmds.c). cli_model_load: --config FILE
 * read as its family's code does (model_type NULL: the config's own),
 * installed as st->model; 0 with a reason on failure. This is the one
 * --config reader of the program (plots use it through rope_spec.h's
 * rope_spec_read_model). cli_layer_rotates: 0 when a model is loaded and the
 * active layer has no RoPE (ROPE and DOT then leave heads unchanged). */
int cli_model_load(cli_state *st, const char *path, const char *model_type, int layout_given,
                   char *why, size_t n);
int cli_set_layer(cli_state *st, cli_token t);                    /* SET layer N */
int cli_layer_rotates(const cli_state *st);
int cli_model_explain_freqs(cli_state *st, const cli_token *a, size_t n);
int cli_explain_model(cli_state *st, const cli_token *a, size_t n);
/* The row of the learned table that position 0 reads: with a --config
 * model whose active layer has a learned table, the family's offset (OPT,
 * BART: 2; RoBERTa: pad_token_id + 1), *t that layer's table and *has 1;
 * else 0 and *has 0. */
int64_t cli_learned_offset(const cli_state *st, posenc_model_table *t, int *has);
/* EXPLAIN LEARNED's sentence on where the offset comes from (model_cmds.c). */
void cli_explain_learned_offset(cli_state *st, const posenc_model_table *t, int has);
void cli_list_models(FILE *out);                                  /* posenc --models */
void cli_model_free(cli_state *st);

/* A GGUF file (gguf_cmds.c). cli_gguf_load: --gguf FILE read as
 * llama.cpp's loader reads it (posenc_gguf.h), st->gguf set, and the RoPE
 * llama.cpp runs installed as the model: every layer's when all layers run
 * one op, else the op of the active layer (--layer); 0 with a reason on
 * failure. cli_gguf_explain: EXPLAIN MODEL for it. cli_gguf_free: releases
 * st's file. */
int cli_gguf_load(cli_state *st, const char *path, uint64_t n_ctx, char *why, size_t n);
int cli_gguf_explain(cli_state *st);
/* SET layer N on a --gguf file whose layers differ: layer's op becomes the
 * model; 0 with a reason (the layer runs no RoPE). */
int cli_gguf_set_layer(cli_state *st, uint32_t layer, char *why, size_t n);
void cli_gguf_free(cli_state *st);

/* Prints the HELP text (from the command table). */
void cli_print_help(FILE *out);

/* One command of the language (commands.c). */
typedef struct cli_command {
    const char *name; /* "ROPE", or "EXPLAIN FREQS", "SET seq_len" */
    /* runs it with the words after its name (NULL: a form of a command
     * whose first word's entry runs it) */
    int (*run)(cli_state *st, const cli_token *a, size_t n);
    const char *help; /* its lines of HELP, or NULL */
} cli_command;

/* The command table: *n entries, in HELP's order. */
const cli_command *cli_commands(size_t *n);

#endif
