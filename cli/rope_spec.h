/* rope_spec.h - a model's RoPE from words or from a file, for SET rope,
 * --config and `posenc plot --rope/--config`: pure parsers that fill a
 * posenc_rope_config and return a status and a message, never printing.
 * Uses words.h and the library only (see words.h for the order of cli/). */
#ifndef POSENC_CLI_ROPE_SPEC_H
#define POSENC_CLI_ROPE_SPEC_H

#include "posenc.h"
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

/* The RoPE of a Hugging Face config.json at path, in the checkpoint's own
 * layout, into *out, and its label (the file name without directory and
 * ".json") into label. Returns 1, or 0 with a reason in why (also when the
 * program has no config reader: the message says what to install). */
int rope_spec_load_config(const char *path, posenc_rope_config *out, char *label,
                          size_t label_n, char *why, size_t why_n);

/* Layer `layer` of the model a config.json describes, read through the
 * model registry as --config reads it (posenc_model_from_config, the
 * config's own model_type): its group (a copy) into *g, the model_type read
 * into type (size type_n), the label (the file name, with " layer N" after
 * it when layer is not 0). Returns 1, or 0 with a reason in why (also for a
 * layer past the model's last). */
int rope_spec_model_layer(const char *path, uint32_t layer, posenc_model_group *g, char *type,
                          size_t type_n, char *label, size_t label_n, char *why, size_t why_n);

/* rope_spec_model_layer for a RoPE: the layer's RoPE in the family's
 * layout into *out. A layer without RoPE is refused with a reason naming the
 * layer, the model_type and the layer's scheme. */
int rope_spec_load_model(const char *path, uint32_t layer, posenc_rope_config *out, char *label,
                         size_t label_n, char *why, size_t why_n);

#endif
