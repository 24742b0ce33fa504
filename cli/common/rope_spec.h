/* rope_spec.h - a model's RoPE from words or from a file, for SET rope,
 * --config and `posenc plot --rope/--config`: pure parsers that fill a
 * posenc_rope_config and return a status and a message, never printing.
 * Uses words.h and the library only (see words.h for the order of cli/). */
#ifndef POSENC_CLI_ROPE_SPEC_H
#define POSENC_CLI_ROPE_SPEC_H

#include "posenc.h"
#include "posenc_model.h"
#include "words.h"

/* What a specification starts from: the settings in force (SET base, SET
 * layout, or --base and --layout of a plot) and the model RoPE already
 * active, whose head_dim, rotary_dim and max_position_embeddings a new
 * specification keeps unless its words say otherwise (NULL: none active). */
typedef struct rope_spec_start {
    double base;
    posenc_layout layout;
    const posenc_rope_config *current;
} rope_spec_start;

typedef enum rope_spec_status {
    ROPE_SPEC_SET = 0, /* *out holds the RoPE the words describe, checked by the library */
    ROPE_SPEC_OFF = 1, /* "off", or "default" alone with no model active: plain RoPE */
    ROPE_SPEC_BAD = 2  /* a reason in why; *out was used as scratch */
} rope_spec_status;

/* The words of `SET rope TYPE key=value ...` after "rope": TYPE is off,
 * default, linear, ntk, dynamic, yarn, llama3 or longrope; the keys are
 * head_dim, rotary_dim, base, factor, original
 * (original_max_position_embeddings), beta_fast, beta_slow, truncate, mscale,
 * mscale_all_dim, attention_factor (attn), low_freq_factor,
 * high_freq_factor, short_factor, long_factor, freq_factors (lists written
 * a:b:c). rotary_dim defaults to head_dim. out must not alias from->current.
 * Each message starts "SET rope", the command whose words these are. */
rope_spec_status rope_spec_parse(const cli_token *words, size_t n, const rope_spec_start *from,
                                 posenc_rope_config *out, char *why, size_t why_n);

/* 1 if this program was built with the config reader (jansson). */
int rope_spec_have_config_reader(void);

/* label: the file name of path without directory and ".json". */
void rope_spec_file_label(const char *path, char *label, size_t label_n);

/* The program's one config.json reader: the model path describes, read as
 * its family's code does (posenc_model_from_config; model_type NULL: the
 * config's own), into *out (free with posenc_model_free). Returns 1, or 0
 * with "PATH: reason" in why (or, when the program has no config reader,
 * a message that says what to install). */
int rope_spec_read_model(const char *path, const char *model_type, posenc_model **out, char *why,
                         size_t why_n);

/* rope_spec_read_model with the config's own model_type, checked to have
 * layer `layer`: *li that layer, the label the file name with " layer N"
 * after it when layer is not 0. Returns 1, or 0 with a reason (nothing to
 * free). */
int rope_spec_model_layer(const char *path, uint32_t layer, posenc_model **out,
                          posenc_layer_info *li, char *label, size_t label_n, char *why,
                          size_t why_n);

/* rope_spec_model_layer for a RoPE: a layer without RoPE is refused with a
 * reason naming the layer, the model_type and the layer's scheme. */
int rope_spec_load_model(const char *path, uint32_t layer, posenc_model **out, char *label,
                         size_t label_n, char *why, size_t why_n);

/* The model_type of m for messages ("the model" when it has none). */
const char *rope_spec_model_type(const posenc_model *m);

#endif
