/* words.h - the words of the command language and the values they name:
 * pure parsers shared by the interpreter (SET, the program's options) and
 * the plot options (--base, --layout, PLOT's words). Each returns a status
 * and, on failure, a message; none prints and none keeps state.
 *
 * Dependency order of cli/ (each file calls only those above it; no cycle:
 * tests/cycles.sh checks it on the objects). One folder per subcommand:
 *   posenc.h, posenc_model.h       the library
 *   common/message.[ch]            the one error printer (escapes what it echoes)
 *   common/options.[ch]            the option kit every subcommand parses argv with
 *   common/words.[ch]              words, settings
 *   common/rope_spec.[ch]          a RoPE from SET rope's words; the one
 *                                  config.json reader (a model, a layer)
 *   plot/plot.h, plot_draw.c,      the plot module: figure model, Cairo drawer,
 *     plot_figure.c                figure builder (they include the library only)
 *   plot/plot_options.[ch]         argv / PLOT's words -> plot_request
 *   plot/plot_main.c               `posenc plot`: parse, draw, print
 *   grade/                         `posenc grade` (grade.h gives its layers)
 *   check/check_main.c             `posenc check` and `posenc golden`
 *   interp/cli.h, output.c         the interpreter's state, messages and numbers
 *   interp/rope_cmds.c             the model and its active layer, SET rope,
 *                                  ROPE, DOT, EXPLAIN FREQS at the length in use
 *   interp/mrope_cmds.c            SET rope mrope, M-RoPE positions and commands
 *   interp/model_cmds.c            --config, SET layer, EXPLAIN MODEL, --models
 *   interp/layer_cmds.c            what the active layer does: ROPE and DOT's one call
 *   interp/t5_cmds.c,              T5 buckets; LOAD of a safetensors table
 *     checkpoint_cmds.c
 *   interp/commands.c              the command table, HELP and the other commands
 *   interp/input.c, terminal.c     lines of a stream or -c string; the prompt
 *   interp/interp_main.c           the interpreter's options, files, exit status
 *   main.c                         the program: the subcommand table */
#ifndef POSENC_CLI_WORDS_H
#define POSENC_CLI_WORDS_H

#include "posenc.h"

#include <stddef.h>

/* One word of a line: a number, a name, or a bracket (not NUL-terminated). */
typedef struct cli_token {
    const char *s;
    size_t len;
} cli_token;

/* 1 if the word is name, in any case. */
int cli_word_is(cli_token t, const char *name);

/* A word quoted in a message: at most CLI_SHOW_MAX bytes of it, then "..."
 * when it was cut, so that a reader knows the word goes on. Three printf
 * arguments, for the format "%.*s%s". */
#define CLI_SHOW_MAX 40
#define CLI_SHOW(s, len)                                                                  \
    (int)((len) > CLI_SHOW_MAX ? CLI_SHOW_MAX : (len)), (s),                              \
        ((len) > CLI_SHOW_MAX ? "..." : "")

/* Setting parsers (SET base/layout/precision, --base, --layout,
 * --precision). On failure they return 0 and write a reason into why (size
 * n); *out is untouched then. */
int cli_parse_base(const char *s, size_t len, double *out, char *why, size_t n);
int cli_parse_layout(const char *s, size_t len, posenc_layout *out, char *why, size_t n);
int cli_parse_precision(const char *s, size_t len, int *out, char *why, size_t n);

/* For a library call whose arguments the command has already checked the
 * way the library checks them (positions, dimensions, the base, the layout,
 * finite elements, a model SET rope accepted): it cannot fail, so instead of
 * an error path at every such call that no input can take, one check here;
 * a failure would be a bug in posenc, and stops the program saying so (the
 * one thing here that prints). */
void cli_cannot_fail(posenc_status s);

#endif
