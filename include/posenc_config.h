/*
 * posenc_config.h - reading Hugging Face config.json files (optional part).
 *
 * Everything declared here lives in a separate library, libposenc_config.a,
 * built only when jansson (Debian: libjansson-dev) is found; link it before
 * libposenc with -lposenc_config -lposenc -ljansson. libposenc itself needs
 * only libc and libm, and its headers (posenc.h and posenc_model.h,
 * included here) declare the types these readers fill: posenc_rope_config
 * and the opaque posenc_model. The family registry (what each model_type's
 * code does, and the config keys it reads) lives in this library only. POSENC_HAVE_JSON is defined by the build for the program; a
 * caller can test for the library with its own build checks.
 *
 * Both readers allocate during the call only (jansson, and a buffer for the
 * file) and free it all before returning; they never print and are
 * thread-safe. On error *out is untouched and err (which may be NULL) names
 * the key at fault.
 */
#ifndef POSENC_CONFIG_H
#define POSENC_CONFIG_H

#include "posenc.h"
#include "posenc_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------- */
/* One RoPE from a config.json, without the registry (src/config/config.c)          */
/* ------------------------------------------------------------------------- */

/* The RoPE block of a config read as is, whatever the model_type: no
 * family knowledge (the layout is half unless the keys say otherwise, every
 * layer alike). posenc_model_from_config below reads a model as its
 * family's code does; prefer it for real checkpoints.
 *
 * Keys read (top level): rope_theta (default 10000) or rotary_emb_base
 * (GPT-NeoX); head_dim, else hidden_size / num_attention_heads;
 * qk_rope_head_dim (DeepSeek: the rotated part of each head, stored
 * interleaved); partial_rotary_factor or rotary_pct (GPT-NeoX), rotary_dim =
 * floor(head_dim * factor); max_position_embeddings;
 * original_max_position_embeddings (Phi-3); rope_interleave; rope_scaling or
 * rope_parameters (rope_type or type, and the keys of posenc_rope_scaling,
 * original_max_position_embeddings included; rope_parameters may also hold
 * rope_theta and partial_rotary_factor). Layout: half, because Hugging Face
 * checkpoints have their q and k weights permuted for rotate_half at
 * conversion; interleaved for qk_rope_head_dim models or rope_interleave true.
 * A key inside rope_scaling that the type does not use, a type posenc does
 * not know, a wrong JSON type, a missing required key, per-layer-type RoPE,
 * rope_local_base_freq, use_dynamic_ntk and use_logn_attn are refused. */
typedef struct posenc_config_error {
    int line, column;  /* JSON syntax error position (1-based), else 0 */
    char key[96];      /* the key at fault, e.g. "rope_scaling.factor"; "" if none */
    char detail[1024]; /* one sentence naming the key and what is wrong */
} posenc_config_error;

/* The largest config.json any reader accepts, in bytes, whether from a
 * path or as text (real ones are a few KiB): a file or text past it is
 * refused with POSENC_ERR_FORMAT naming the bound, so that a reader given
 * /dev/zero or a huge file never runs out of memory. Front ends (the
 * program, the Python package) read at most this many bytes plus one. */
#define POSENC_CONFIG_MAX_BYTES (64u * 1024u * 1024u)

/* Reads the config.json at path into *out. err may be NULL.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_IO (cannot open/read; detail has the
 * reason), POSENC_ERR_FORMAT (bad JSON, wrong type, unknown or missing key,
 * unsupported feature), and the errors of posenc_rope_init_config for
 * values out of range (the reader checks them with cur_len 0).
 * Allocates during the call only (jansson, and a buffer for the file), and
 * frees it all before returning; thread-safe. */
POSENC_NODISCARD
posenc_status posenc_rope_from_config(const char *path, posenc_rope_config *out,
                                      posenc_config_error *err);

/* The same on the len bytes of JSON text at json (need not be NUL-terminated). */
POSENC_NODISCARD
posenc_status posenc_rope_from_config_text(const char *json, size_t len,
                                           posenc_rope_config *out, posenc_config_error *err);

/* ------------------------------------------------------------------------- */
/* A model from its config.json, through the registry (src/config/config_model.c)   */
/* ------------------------------------------------------------------------- */

/* One registry entry as a listing shows it (posenc --models). Strings are
 * static; NULL where a field does not apply. */
typedef struct posenc_family_info {
    const char *model_type;  /* e.g. "llama" */
    posenc_scheme scheme;    /* what the family applies (MIXED: layers differ) */
    int rope_layout;         /* the posenc_layout its RoPE layers use, or -1 (no RoPE
                                of its own: a wrapper, an encoder-decoder) */
    const char *part;        /* a wrapper: the key of its language part ("text_config") */
    const char *part_type;   /* a wrapper: the type that part is read as when it names
                                none (NULL: the part must name its own) */
    int or_alibi;            /* 1: a key or the model size picks ALiBi instead
                                (Falcon's alibi, Baichuan 13B) */
    int supported;           /* 0: known, but the reader refuses it */
    const char *source;      /* the modeling file and lines the entry follows */
} posenc_family_info;

/* The number of registry entries. */
size_t posenc_model_family_count(void);

/* *out = entry i (0 <= i < posenc_model_family_count(), sorted by
 * model_type). Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE (i). */
POSENC_NODISCARD
posenc_status posenc_model_family_info(size_t i, posenc_family_info *out);

/* Reads the config.json at path as its family's code does and fills *out
 * (see posenc_model.h; out comes from posenc_model_create): the layer
 * count and, per layer, the position scheme with its parameters.
 *
 * Which family: model_type (the override when not NULL, else the config's
 * model_type, else the one family its architectures[] classes name). A
 * wrapper type (gemma3, llama4, mistral3) is read through its language part
 * (text_config); an unknown type whose text_config, llm_config or
 * language_config part has a known model_type is read through that part;
 * posenc_model_part() names the part used, and the part's own model_type
 * wins when it has one. A config with neither model_type nor architectures but with a
 * RoPE key (rope_theta, rope_scaling, rope_parameters, rotary_emb_base,
 * rotary_pct, partial_rotary_factor, qk_rope_head_dim, head_dim) is read by
 * posenc_rope_from_config's rules as one RoPE on every layer
 * (num_hidden_layers, else 1; no source, model_type ""); without one
 * it is refused.
 *
 * Keys: the family's keys and legacy names (n_embd, n_head, n_layer,
 * rotary_dim, kv_channels, rotary_pct, rotary_emb_base, seq_length...), with
 * the defaults of the family's config class when absent; rope_scaling or
 * rope_parameters (one set, or one per layer type: {"full_attention": {...},
 * "sliding_attention": {...}}), read as posenc_rope_from_config reads them;
 * layer_types, sliding_window_pattern, no_rope_layers,
 * no_rope_layer_interval. Keys near positions that the family's code does
 * not use for them (sliding_window, max_window_layers...) are accepted and
 * listed by posenc_model_ignored().
 *
 * Multimodal RoPE families (qwen2_vl, qwen2_5_vl, qwen3_vl) are read with
 * their mrope_section (posenc_model_layer_mrope); Qwen 1's use_dynamic_ntk
 * and use_logn_attn become the layer's length rule and query scaling
 * (posenc_model_layer_rope, posenc_model_query_scale).
 *
 * out is written only on success.
 *
 * Errors (err->key names the key, err->detail says why):
 *   POSENC_ERR_FORMAT  invalid JSON; a wrong JSON type; a missing required
 *                      key; model_type unknown (the detail lists the known
 *                      ones; key "model_type"), absent with no unambiguous
 *                      architectures entry, or refused (a family listed as
 *                      supported=no); a key that changes the
 *                      position scheme in a way posenc does not implement;
 *   POSENC_ERR_RANGE, POSENC_ERR_DIM, POSENC_ERR_BASE, POSENC_ERR_NOT_FINITE
 *                      values out of range (as posenc_rope_init_config);
 *   POSENC_ERR_IO, POSENC_ERR_NOMEM, POSENC_ERR_NULL (path or out NULL). */
POSENC_NODISCARD
posenc_status posenc_model_from_config(const char *path, const char *model_type,
                                       posenc_model *out, posenc_config_error *err);

/* The same on the len bytes of JSON text at json (need not be NUL-terminated). */
POSENC_NODISCARD
posenc_status posenc_model_from_config_text(const char *json, size_t len,
                                            const char *model_type, posenc_model *out,
                                            posenc_config_error *err);

#ifdef __cplusplus
}
#endif

#endif /* POSENC_CONFIG_H */
