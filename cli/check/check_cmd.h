/* check_cmd.h - `posenc check` and `posenc golden` (cli/check_main.c): the
 * program's subcommands around the library's RoPE check (posenc_check.h).
 * They use the option kit and printer (cli/common), words.h, rope_spec.h and
 * the library. */
#ifndef POSENC_CLI_CHECK_CMD_H
#define POSENC_CLI_CHECK_CMD_H

#include "posenc_check.h"

#include <stdint.h>
#include <stdio.h>

/* `posenc check ...` (argv[0] is "check"): prints CHECK/BAND/CAUSE lines;
 * returns 0 match, 1 mismatch, 2 bad input (a message on standard error). */
int cli_check_main(int argc, char **argv);

/* `posenc golden ...` (argv[0] is "golden"): writes reference dumps and a
 * GOLDEN line for each; returns 0, or 2 with a message on standard error. */
int cli_golden_main(int argc, char **argv);

/* `posenc golden --config F --layer N -o FILE` for a layer that does not
 * rotate (golden_tables.c): a sinusoid layer's positions and pe, a
 * relative-bucket layer's q_pos, k_pos and bucket, at the positions of list
 * (NULL: the default). Returns 0, or 2 with a message on standard error. */
struct posenc_model;
int cli_golden_table(const char *path, const struct posenc_model *m, uint32_t layer,
                     const char *list);

/* The same for a relative-sinusoid layer (XLNet, Funnel; golden_tables.c):
 * positions (I64 [n]: the distances query - key the layer reads, in its
 * code's order, for a sequence of seq_len tokens (0: 16) with no memory;
 * Funnel's factorized attention: its token positions) and pe (F32
 * [n, d_model]: [sin | cos] in the code's float32 steps). list: the
 * distances instead (negatives allowed; XLNet's clamped by clamp_len). */
int cli_golden_rel_sinusoid(const char *path, const struct posenc_model *m, uint32_t layer,
                            const char *list, int64_t seq_len);

/* The same for SAM 3 LiteText's resampled table (golden_tables.c): for
 * each token of list (NULL: all) of a sequence of seq_len tokens (0: 16),
 * positions, row0, row1 (I64 [n]) and weight1 (F32 [n]): the token's vector
 * is (1 - weight1) table[row0] + weight1 table[row1] (posenc_resample_rows). */
int cli_golden_resampled(const char *path, const struct posenc_model *m, uint32_t layer,
                         const char *list, int64_t seq_len);

/* `posenc check --gguf FILE --config FILE [--ctx N]` (gguf_check.c): the
 * conversion against the config (posenc_gguf_compare); prints a CHECK
 * line and a CAUSE line per difference; returns 0 match, 1 mismatch, 2 bad
 * input. */
int cli_check_gguf(const char *gguf, const char *config, uint64_t n_ctx);

/* *out = the RoPE llama.cpp runs for layer of the GGUF file at path, at
 * context n_ctx (0: its context_length), as a posenc_rope_config
 * (posenc_gguf_op_config); 0 with a reason in why. */
int cli_gguf_layer_config(const char *path, uint32_t layer, uint64_t n_ctx, posenc_rope_config *out,
                          char *why, size_t n);

/* posenc golden --format gguf (gguf_check.c): in's positions, x and y with
 * the ggml op of cfg's RoPE r and the float32 bound per token
 * (posenc_gguf_golden_save); meta: key, value, ..., NULL (written with a
 * "posenc.golden." prefix). */
posenc_status cli_golden_gguf_save(const char *path, const posenc_rope_config *cfg,
                                   const posenc_rope *r, const posenc_check_input *in,
                                   const char *const *meta, posenc_load_error *err);

#endif
