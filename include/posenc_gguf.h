/*
 * posenc_gguf.h - GGUF files (ggml / llama.cpp) and the RoPE llama.cpp runs
 * for them (libposenc; libc and libm only).
 *
 * Two tiers:
 *   1. The reader. posenc_gguf_read() checks a GGUF v2 or v3 file whole
 *      (header, every key/value pair of the 13 value types, arrays of them,
 *      every tensor's description, alignment, the data's place in the file)
 *      and keeps the metadata and the values of the three RoPE tensors
 *      (rope_freqs.weight, rope_factors_long.weight,
 *      rope_factors_short.weight). It never reads other tensors' data, so a
 *      30 GB model costs its metadata. Every malformed file is refused with
 *      POSENC_ERR_FORMAT and a message naming the byte offset, the key or the
 *      tensor, and the problem; nothing is read past the file's size or the
 *      limits in posenc_gguf_limits.
 *   2. llama.cpp's semantics. posenc_gguf_llama_hparams() reads the keys
 *      llama.cpp's loader reads for RoPE (with its types and defaults), and
 *      posenc_gguf_llama_layer() gives the arguments of the ggml_rope_ext()
 *      call llama.cpp makes for one layer at a context size: n_dims, mode,
 *      n_ctx_orig, freq_base, freq_scale, ext_factor, attn_factor,
 *      beta_fast, beta_slow and the freq_factors tensor.
 *
 * The facts come from llama.cpp as vendored by llama-cpp-python 0.3.36
 * (vendor/llama.cpp): the format from ggml/include/gguf.h and
 * ggml/src/gguf.cpp, the key names from src/llama-arch.cpp, the rope types
 * from src/llama-model.cpp llama_model_rope_type(), the arguments from
 * src/llama-model.cpp, src/llama-context.cpp and src/models/ (the
 * source files cite lines).
 *
 * Example (the RoPE of layer 0 of a file run with -c 8192):
 *     posenc_gguf *g;
 *     posenc_gguf_hparams hp;
 *     posenc_gguf_rope_op op;
 *     posenc_load_error e;
 *     if (posenc_gguf_load("model.gguf", NULL, &g, &e) != POSENC_OK) ... e.detail ...
 *     if (posenc_gguf_llama_hparams(g, &hp, &e) == POSENC_OK &&
 *         posenc_gguf_llama_layer(g, &hp, 0, 8192, &op, &e) == POSENC_OK)
 *         ... op.n_dims, op.mode, op.freq_base, op.freq_factors ...
 *     posenc_gguf_free(g);
 *
 * Memory: the object returned by posenc_gguf_read owns everything the
 * queries point to (keys, strings, arrays, tensor names, factor values);
 * pointers stay valid until posenc_gguf_free. No global state; nothing
 * prints. Queries on a const posenc_gguf may run concurrently.
 */
#ifndef POSENC_GGUF_H
#define POSENC_GGUF_H

#include "posenc.h"
#include "posenc_model.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------- */
/* 1. The reader                                                             */
/* ------------------------------------------------------------------------- */

/* The value types of GGUF metadata, with the format's numbers
 * (gguf.h enum gguf_type). */
typedef enum posenc_gguf_type {
    POSENC_GGUF_U8 = 0,
    POSENC_GGUF_I8 = 1,
    POSENC_GGUF_U16 = 2,
    POSENC_GGUF_I16 = 3,
    POSENC_GGUF_U32 = 4,
    POSENC_GGUF_I32 = 5,
    POSENC_GGUF_F32 = 6,
    POSENC_GGUF_BOOL = 7,   /* one byte; llama.cpp reads any nonzero byte as true */
    POSENC_GGUF_STRING = 8, /* u64 length, then the bytes (no NUL) */
    POSENC_GGUF_ARRAY = 9,  /* element type, u64 count, the elements (no arrays of arrays) */
    POSENC_GGUF_U64 = 10,
    POSENC_GGUF_I64 = 11,
    POSENC_GGUF_F64 = 12
} posenc_gguf_type;

/* "u8", "i8", ..., "f64" as gguf.cpp names them; "unknown" outside the
 * enum. A static string. */
const char *posenc_gguf_type_name(posenc_gguf_type t);

/* Bounds on what a file may ask for (all > 0). The defaults
 * (posenc_gguf_limits_default) take every published model: */
typedef struct posenc_gguf_limits {
    uint64_t max_kv;          /* key/value pairs; default 65536 */
    uint64_t max_tensors;     /* tensors; default 1048576 */
    uint64_t max_string;      /* bytes of one string (key, value, name); default 16 MiB */
    uint64_t max_array;       /* elements of one array; default 2^28 */
} posenc_gguf_limits;

/* *l = the default limits above. Errors: POSENC_ERR_NULL. */
POSENC_NODISCARD
posenc_status posenc_gguf_limits_default(posenc_gguf_limits *l);

typedef struct posenc_gguf posenc_gguf; /* opaque: one file's metadata */

/* Reads and checks the GGUF file at in (opened for reading, seekable) with
 * limits lim (NULL: the defaults). Checks, in the order of gguf.cpp
 * gguf_init_from_reader (lines 460-830): magic "GGUF"; version 2 or 3 (1 is
 * refused as llama.cpp does, and a byte-swapped version is named as such);
 * the tensor and key counts within the limits and the file; every key
 * non-empty and not seen before; every value type known, an array's element
 * type not an array, every string and array inside the file; the key
 * "general.alignment", when present, a u32 power of two (default 32);
 * every tensor name shorter than 64 bytes and not seen before, at most 4
 * dimensions, none negative, an element count below 2^63, a ggml type that
 * exists (0..42 without the removed ones) with a row a whole number of
 * blocks, and its data offset exactly where the previous tensor's padded
 * data ends; then the data section, which begins at the first multiple of
 * the alignment after the tensor descriptions, must hold every tensor
 * inside the file. The RoPE tensors rope_freqs.weight,
 * rope_factors_long.weight and rope_factors_short.weight, when present, must
 * be F32 vectors of 1 to POSENC_MAX_DIM finite values > 0 (a factor divides
 * the angle); they are read.
 * On success *out is a new object (posenc_gguf_free). On failure *out is
 * untouched and err (may be NULL) says where and why: "byte 24: ...",
 * "key 'llama.rope.freq_base': ...", "tensor 'rope_freqs.weight': ...".
 * Errors: POSENC_ERR_NULL, POSENC_ERR_IO (seek or read error),
 * POSENC_ERR_FORMAT (malformed), POSENC_ERR_RANGE (a limit is 0, or the
 * file exceeds a limit), POSENC_ERR_NOMEM. */
POSENC_NODISCARD
posenc_status posenc_gguf_read(FILE *in, const posenc_gguf_limits *lim, posenc_gguf **out,
                               posenc_load_error *err);

/* posenc_gguf_read() on the file at path. POSENC_ERR_IO if it cannot be
 * opened (err->detail then holds strerror(errno)). */
POSENC_NODISCARD
posenc_status posenc_gguf_load(const char *path, const posenc_gguf_limits *lim, posenc_gguf **out,
                               posenc_load_error *err);

/* Releases g; NULL is accepted. */
void posenc_gguf_free(posenc_gguf *g);

/* The file as a whole; 0 for NULL. */
uint32_t posenc_gguf_version(const posenc_gguf *g);     /* 2 or 3 */
uint32_t posenc_gguf_alignment(const posenc_gguf *g);   /* a power of two */
uint64_t posenc_gguf_data_offset(const posenc_gguf *g); /* file offset of the data section */
uint64_t posenc_gguf_n_kv(const posenc_gguf *g);
uint64_t posenc_gguf_n_tensors(const posenc_gguf *g);

/* One metadata value. For an array, type is POSENC_GGUF_ARRAY, elem its
 * element type and n its length; data points to n packed little-endian
 * elements as in the file for numeric and bool arrays, and is NULL for
 * arrays of strings (those are checked, not kept). For a string, str is
 * NUL-terminated inside g (it may hold other NUL bytes: len is exact). For
 * a scalar, n is 1 and the value is in u (unsigned types, bool), i (signed)
 * or f (f32 widened exactly, f64). */
typedef struct posenc_gguf_value {
    posenc_gguf_type type;
    posenc_gguf_type elem; /* arrays only */
    uint64_t n;
    uint64_t u;
    int64_t i;
    double f;
    const char *str;
    uint64_t len;
    const void *data;
} posenc_gguf_value;

/* Index of key (exact bytes), or -1 when absent or g/key is NULL. */
int64_t posenc_gguf_find_key(const posenc_gguf *g, const char *key);

/* The key of pair i (NUL-terminated, inside g), or NULL when i is out of
 * range. */
const char *posenc_gguf_key(const posenc_gguf *g, uint64_t i);

/* *v = the value of pair i. Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE
 * (i >= n_kv). */
POSENC_NODISCARD
posenc_status posenc_gguf_value_at(const posenc_gguf *g, uint64_t i, posenc_gguf_value *v);

/* One tensor's description. type is ggml's number (0 F32, 1 F16, 30 BF16,
 * ...); ne[d] is 1 past n_dims, as ggml keeps it; offset is relative to the
 * data section; n_bytes its size. */
typedef struct posenc_gguf_tensor {
    const char *name; /* inside g */
    uint32_t n_dims;
    int64_t ne[4];
    uint32_t type;
    uint64_t offset;
    uint64_t n_bytes;
} posenc_gguf_tensor;

/* ggml's name of a tensor type ("f32", "q4_K", ...); "unknown" for a
 * number that is not one. A static string. */
const char *posenc_gguf_ggml_type_name(uint32_t type);

/* Index of the tensor called name, or -1. */
int64_t posenc_gguf_find_tensor(const posenc_gguf *g, const char *name);

/* *t = tensor i. Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE (i). */
POSENC_NODISCARD
posenc_status posenc_gguf_tensor_at(const posenc_gguf *g, uint64_t i, posenc_gguf_tensor *t);

/* The RoPE factor tensors the reader keeps. */
typedef enum posenc_gguf_factors {
    POSENC_GGUF_ROPE_FREQS = 0,         /* rope_freqs.weight (Llama 3.x, ...) */
    POSENC_GGUF_ROPE_FACTORS_LONG = 1,  /* rope_factors_long.weight (LongRoPE) */
    POSENC_GGUF_ROPE_FACTORS_SHORT = 2  /* rope_factors_short.weight (LongRoPE) */
} posenc_gguf_factors;

/* The tensor's file name ("rope_freqs.weight", ...); "unknown" outside the
 * enum. A static string. */
const char *posenc_gguf_factors_name(posenc_gguf_factors which);

/* *values = the float values of that tensor (inside g), *n their count;
 * NULL and 0 when the file has no such tensor.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE (which outside the enum). */
POSENC_NODISCARD
posenc_status posenc_gguf_factors_get(const posenc_gguf *g, posenc_gguf_factors which,
                                      const float **values, size_t *n);

/* ------------------------------------------------------------------------- */
/* 2. The RoPE llama.cpp runs                                                */
/* ------------------------------------------------------------------------- */

/* llama.cpp's rope types (include/llama.h enum llama_rope_type), whose
 * values are ggml_rope_ext's mode (ggml.h GGML_ROPE_TYPE_*). NORM turns
 * pairs of neighbours [x0 x1][x2 x3]... ("[cscs]" interleaved); NEOX turns
 * x_i with x_{i + n_dims/2} ("[ccss]" half-split); MROPE and IMROPE are
 * NEOX with positions per section (t, h, w, e) in blocks or interleaved;
 * VISION is the 2D M-RoPE of vision encoders. */
typedef enum posenc_gguf_rope_type {
    POSENC_GGUF_ROPE_NONE = -1,
    POSENC_GGUF_ROPE_NORM = 0,
    POSENC_GGUF_ROPE_NEOX = 2,
    POSENC_GGUF_ROPE_MROPE = 8,
    POSENC_GGUF_ROPE_VISION = 24,
    POSENC_GGUF_ROPE_IMROPE = 40
} posenc_gguf_rope_type;

/* "none", "norm", "neox", "mrope", "vision", "imrope"; "unknown" otherwise. */
const char *posenc_gguf_rope_type_name(posenc_gguf_rope_type t);

/* llama.cpp's scaling types (llama.h enum llama_rope_scaling_type) as the
 * key {arch}.rope.scaling.type names them. */
typedef enum posenc_gguf_scaling {
    POSENC_GGUF_SCALING_NONE = 0,
    POSENC_GGUF_SCALING_LINEAR = 1,
    POSENC_GGUF_SCALING_YARN = 2,
    POSENC_GGUF_SCALING_LONGROPE = 3
} posenc_gguf_scaling;

/* "none", "linear", "yarn", "longrope"; "unknown" otherwise. */
const char *posenc_gguf_scaling_name(posenc_gguf_scaling s);

/* The rope type llama.cpp's llama_model_rope_type() gives the architecture
 * named arch (general.architecture): *type, and *type_mrope, the type when
 * the file's {arch}.rope.dimension_sections has its first two sections > 0
 * (equal to *type for the architectures where sections do not matter). The
 * names are data (src/formats/gguf_archs.h).
 * Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE (not an architecture of
 * llama.cpp's table). */
POSENC_NODISCARD
posenc_status posenc_gguf_arch_rope_type(const char *arch, posenc_gguf_rope_type *type,
                                         posenc_gguf_rope_type *type_mrope);

#define POSENC_GGUF_MAX_LAYERS 512u /* LLAMA_MAX_LAYERS, src/llama-hparams.h:11 */

/* What llama.cpp's loader reads for RoPE (src/llama-model.cpp
 * load_hparams, lines 1320-1491, and the architecture's load_arch_hparams
 * in src/models/), keys named "{arch}.KEY" with arch = general.architecture,
 * each with the type llama.cpp demands (a key of another type is refused as
 * llama.cpp refuses it: "key X has wrong type"). Floats are kept as the
 * float llama.cpp holds. */
typedef struct posenc_gguf_hparams {
    char arch[64];                      /* general.architecture */
    posenc_gguf_rope_type rope_type;    /* llama_model_rope_type() */
    uint32_t n_layer;                   /* block_count, 1..POSENC_GGUF_MAX_LAYERS */
    uint32_t n_ctx_train;               /* context_length */
    uint32_t n_embd;                    /* embedding_length */
    uint32_t n_head;                    /* attention.head_count (layer 0) */
    uint32_t n_embd_head_k;             /* attention.key_length, default n_embd / n_head */
    uint32_t n_rot;                     /* rope.dimension_count, default n_embd_head_k */
    uint32_t n_rot_swa;                 /* rope.dimension_count_swa, default n_rot */
    float freq_base;                    /* rope.freq_base, default 10000 */
    float freq_scale;                   /* 1 / rope.scaling.factor (or rope.scale_linear);
                                           1 when absent or 0 */
    float freq_base_swa;                /* SWA layers (see swa below) */
    float freq_scale_swa;
    posenc_gguf_scaling scaling;        /* rope.scaling.type, default "linear" */
    uint32_t n_ctx_orig_yarn;           /* rope.scaling.original_context_length,
                                           default n_ctx_train */
    float rope_attn_factor;             /* rope.scaling.attn_factor, default 1 */
    float yarn_log_mul;                 /* rope.scaling.yarn_log_multiplier (archs that read it) */
    float yarn_ext_factor;              /* rope.scaling.yarn_ext_factor; -1 = not set */
    float yarn_attn_factor;             /* rope.scaling.yarn_attn_factor, default 1 */
    float yarn_beta_fast;               /* rope.scaling.yarn_beta_fast, default 32 */
    float yarn_beta_slow;               /* rope.scaling.yarn_beta_slow, default 1 */
    int32_t sections[4];                /* rope.dimension_sections (M-RoPE), else 0 */
    int swa;                            /* 1 when some layers are sliding-window layers
                                           with a RoPE of their own (is_swa below) */
    uint8_t is_swa[POSENC_GGUF_MAX_LAYERS];
    int layers_modelled;                /* 1 when the arch's per-layer RoPE rules are
                                           known here (posenc_gguf_llama_layer works):
                                           archs whose graph runs one op in every
                                           layer, and gemma2, gemma3, gpt-oss,
                                           cohere2, olmo2, llama4, afmoe, smollm3
                                           (sliding-window and NoPE layers) */
} posenc_gguf_hparams;

/* Fills *hp from g as llama.cpp's loader does. Refuses, naming the key:
 * a missing general.architecture, context_length, embedding_length or
 * block_count; a key of the wrong type; an architecture not in llama.cpp's
 * table; a rope.scaling.type llama.cpp does not know; block_count outside
 * 1..512; head_count 0 where RoPE needs it; n_rot odd, 0 or above
 * n_embd_head_k (ggml's requirement), or different from n_embd_head_k for
 * llama, deci, falcon, llama-embed (llama-model.cpp:1450); a factor tensor
 * whose length is not n_rot / 2 (llama-model-loader.cpp check_tensor_dims).
 * Errors: POSENC_ERR_NULL, POSENC_ERR_FORMAT (the problems above),
 * POSENC_ERR_RANGE (an architecture without RoPE or not in the table).
 * *hp is untouched on error. */
POSENC_NODISCARD
posenc_status posenc_gguf_llama_hparams(const posenc_gguf *g, posenc_gguf_hparams *hp,
                                        posenc_load_error *err);

/* The arguments of llama.cpp's ggml_rope_ext(ctx, x, pos, freq_factors,
 * n_dims, mode, n_ctx_orig, freq_base, freq_scale, ext_factor, attn_factor,
 * beta_fast, beta_slow) for q and k of one layer (ggml.h). */
typedef struct posenc_gguf_rope_op {
    int rotates;            /* 0: llama.cpp applies no RoPE in this layer */
    int is_swa;             /* a sliding-window layer */
    int n_dims;             /* rotated dimensions of a head (n_rot) */
    int mode;               /* posenc_gguf_rope_type */
    int n_ctx_orig;         /* YaRN's original context (cparams.n_ctx_orig_yarn) */
    float freq_base, freq_scale, ext_factor, attn_factor, beta_fast, beta_slow;
    int32_t sections[4];    /* M-RoPE sections (ggml_rope_multi), else 0 */
    const float *freq_factors; /* n_dims/2 values inside g, or NULL */
    size_t n_freq_factors;
    posenc_gguf_factors factors; /* which tensor freq_factors is (when not NULL) */
} posenc_gguf_rope_op;

/* *op = what llama.cpp passes to ggml_rope_ext for layer of the file g
 * (hp from posenc_gguf_llama_hparams on g) run with context n_ctx (the -c
 * option; 0 = the file's context_length), one sequence, and every RoPE
 * option of llama_context_default_params left at its default. llama.cpp
 * rounds n_ctx up to a multiple of 256 (llama-context.cpp:289) and picks
 * the LongRoPE long factors when that exceeds n_ctx_orig_yarn
 * (llama-model.cpp:2337-2350). Errors, naming the reason in err:
 * POSENC_ERR_NULL, POSENC_ERR_RANGE (layer >= n_layer; an architecture
 * whose per-layer rules are not modelled: hp->layers_modelled 0),
 * POSENC_ERR_POS (n_ctx above 2^32 - 256). *op is untouched on error. */
POSENC_NODISCARD
posenc_status posenc_gguf_llama_layer(const posenc_gguf *g, const posenc_gguf_hparams *hp,
                                      uint32_t layer, uint64_t n_ctx, posenc_gguf_rope_op *op,
                                      posenc_load_error *err);

/* One line of text, "key=value ..." separated by single spaces and starting
 * with a space, stating the op of layer at context n_ctx and where each part
 * comes from, for a front end's EXPLAIN MODEL:
 *   " arch=llama rope_type=norm n_dims=128 n_ctx_orig=131072
 *     freq_base=500000 freq_scale=1 ext_factor=0 attn_factor=1 beta_fast=32
 *     beta_slow=1 freq_factors=rope_freqs.weight[64] scaling=linear swa=0
 *     rotates=1 n_ctx_seq=8192"
 * (one line; numbers %.9g, which gives a float back exactly;
 * freq_factors=none without a tensor; sections=[t,h,w,e] added for M-RoPE).
 * posenc_gguf_source() names the llama.cpp code these follow.
 * Writes at most n bytes with the NUL.
 * Errors: those of posenc_gguf_llama_layer; POSENC_ERR_NULL (buf);
 * POSENC_ERR_OVERFLOW (n too small; buf then holds a truncated line). */
POSENC_NODISCARD
posenc_status posenc_gguf_layer_describe(const posenc_gguf *g, const posenc_gguf_hparams *hp,
                                         uint32_t layer, uint64_t n_ctx, char *buf, size_t n,
                                         posenc_load_error *err);

/* The llama.cpp version and files the rules of this header follow (a static
 * string, for front ends to print beside the description). */
const char *posenc_gguf_source(void);

/* ------------------------------------------------------------------------- */
/* 3. The same RoPE in posenc's terms                                        */
/* ------------------------------------------------------------------------- */

/* *c = the RoPE op describes, for heads of head_dim elements
 * (hp->n_embd_head_k), as a posenc_rope_config (posenc.h 2.3):
 *   rotary_dim n_dims, base freq_base; layout INTERLEAVED for NORM
 *   ([cscs]: llama.cpp's converter permutes a NORM arch's q/k rows so that
 *   this runs the checkpoint's half-split RoPE), HALF for NEOX;
 *   ext_factor 0: type LINEAR with factor 1 / freq_scale (DEFAULT when it is
 *   1); ext_factor 1: type YARN with that factor, original n_ctx_orig,
 *   beta_fast, beta_slow, truncate 1 (ggml_rope_yarn_corr_dims takes floorf
 *   and ceilf);
 *   attention_factor the cos/sin multiplier ggml applies: attn_factor, times
 *   1 + 0.1 ln(1 / freq_scale) when ext_factor != 0 (ggml-cpu/ops.cpp
 *   rope_yarn: 6187-6202), in float;
 *   freq_factors the op's freq_factors (ggml divides each pair's angle by
 *   its factor before the YaRN mix; posenc divides the frequency after it:
 *   the same, the mix being linear).
 * max_position_embeddings is 0. The result is exact mathematics; ggml's own
 * float rounding is not part of it.
 * Errors: POSENC_ERR_NULL; POSENC_ERR_RANGE (op does not rotate, mode
 * MROPE, IMROPE or VISION, ext_factor neither 0 nor 1, freq_scale not in
 * (0, 1], n_dims above head_dim or POSENC_ROPE_MAX_HEAD_DIM). *c is untouched
 * on error. */
POSENC_NODISCARD
posenc_status posenc_gguf_op_config(const posenc_gguf_rope_op *op, uint32_t head_dim,
                                    posenc_rope_config *c);

/* Fills m (created by posenc_model_create, posenc_model.h) with the RoPE
 * llama.cpp runs for g at context n_ctx: posenc_model_set_rope with
 * posenc_gguf_op_config of layer 0 on hp->n_layer layers, when every layer
 * runs the same op. This is what a front end calls for `--gguf FILE` before
 * asking the model as it asks one read from config.json.
 * Errors: those of posenc_gguf_llama_layer and posenc_gguf_op_config;
 * POSENC_ERR_RANGE also when layers differ (sliding-window layers with a
 * RoPE of their own, layers without RoPE: ask posenc_gguf_llama_layer per
 * layer instead), naming the first layer that differs; those of
 * posenc_model_set_rope. m is unchanged on error. */
POSENC_NODISCARD
posenc_status posenc_gguf_model(const posenc_gguf *g, const posenc_gguf_hparams *hp,
                                uint64_t n_ctx, posenc_model *m, posenc_load_error *err);

/* ------------------------------------------------------------------------- */
/* 4. Against a config: is the conversion faithful? (src/check/gguf_convert.c) */
/* ------------------------------------------------------------------------- */

/* One difference between the RoPE llama.cpp runs for a file and the one
 * transformers runs for the config it was converted from, named by the
 * GGUF key or tensor that carries it. */
typedef struct posenc_gguf_cause {
    const char *name;  /* static: "freq-base", "freq-base-swa", "dimension-count",
                          "rope-type", "scaling-type", "scaling-factor",
                          "original-context", "yarn-beta-fast", "yarn-beta-slow",
                          "attn-factor", "rope-freqs-missing", "rope-freqs",
                          "rope-freqs-unexpected", "rope-factors-missing",
                          "rope-factors-swapped", "rope-factors-long",
                          "rope-factors-short", "scaling-unsupported",
                          "block-count", "layer-with-rope", "layer-without-rope",
                          "frequencies" (what no key explains) */
    char key[160];     /* "{arch}.rope.freq_base", "rope_freqs.weight",
                          "general.architecture", ... ("-" for frequencies) */
    uint32_t layer;    /* the first layer it shows in */
    char detail[256];  /* "got=... want=..." and what else helps */
} posenc_gguf_cause;

/* Compares, layer by layer, llama.cpp's op for g at context n_ctx (0: the
 * file's context_length; hp from posenc_gguf_llama_hparams on g) with the
 * RoPE of the model m (posenc_model_from_config, posenc_config.h, or any
 * posenc_model), as llama.cpp's converter (convert_hf_to_gguf.py) writes
 * the keys:
 *   rope type: a family with neighbouring pairs ([cscs], interleaved) needs
 *     NORM; a half-split family ([ccss]) runs as NEOX, or as NORM on the
 *     rows the converter permutes (conversion/llama.py:176-181): both are
 *     faithful. Otherwise a cause on general.architecture.
 *   {arch}.rope.freq_base (_swa for sliding-window layers) = rope_theta as
 *     a float; rope.dimension_count (_swa) = the rotated dimensions;
 *   linear: rope.scaling.type linear, factor; yarn: type yarn, factor,
 *     original_context_length, yarn_beta_fast/slow, and ggml's cos/sin
 *     multiplier equal to transformers' attention factor (else a cause on
 *     the key that sets it: yarn_log_multiplier, yarn_attn_factor or
 *     attn_factor); llama3: no factor, rope_freqs.weight equal (relative
 *     1e-5) to the converter's factors (conversion/llama.py:298-326);
 *     longrope: rope_factors_long/short.weight equal to long_factor /
 *     short_factor as floats, original_context_length, attn_factor
 *     (conversion/phi.py:175-211); other scalings: scaling-unsupported.
 *   when no key differs, the frequencies pair by pair (relative 1e-5).
 * The causes go into causes[0 .. cap) (one per name and key, at the first
 * layer it shows in); *n_causes is their count (0: faithful), which may
 * exceed cap. Errors: POSENC_ERR_NULL; those of posenc_gguf_llama_layer
 * (e.g. an arch whose layers are not modelled); POSENC_ERR_NOMEM.
 * *n_causes is untouched on error. */
POSENC_NODISCARD
posenc_status posenc_gguf_compare(const posenc_gguf *g, const posenc_gguf_hparams *hp,
                                  const posenc_model *m, uint64_t n_ctx,
                                  posenc_gguf_cause *causes, size_t cap, size_t *n_causes,
                                  posenc_load_error *err);

/* ------------------------------------------------------------------------- */
/* 5. Golden files for ggml engines (src/formats/gguf_golden.c)              */
/* ------------------------------------------------------------------------- */

/* The arguments of ggml_rope_ext(ctx, x, pos, freq_factors, n_dims, mode,
 * n_ctx_orig, freq_base, freq_scale, ext_factor, attn_factor, beta_fast,
 * beta_slow) that run a RoPE, with freq_factors held here. */
typedef struct posenc_gguf_op_args {
    int n_dims, mode, n_ctx_orig;
    float freq_base, freq_scale, ext_factor, attn_factor, beta_fast, beta_slow;
    size_t n_freq_factors; /* 0, or n_dims / 2 */
    float freq_factors[POSENC_ROPE_MAX_HEAD_DIM / 2];
} posenc_gguf_op_args;

/* *out = ggml's arguments for the RoPE r of configuration c (r =
 * posenc_rope_init_config(c, cur_len), or a model layer's): mode NORM for
 * the interleaved layout ([cscs]), NEOX for half ([ccss]); n_dims
 * rotary_dim; freq_base the base; then
 *   default (base a float): freq_scale 1, attn_factor r->attn_factor;
 *   linear: freq_scale 1 / factor;
 *   yarn with truncate: freq_scale 1 / factor, ext_factor 1, n_ctx_orig,
 *     beta_fast, beta_slow, attn_factor r->attn_factor / (1 + 0.1 ln
 *     factor) (ggml multiplies by that; ggml-cpu/ops.cpp rope_yarn);
 *   any other (llama3, longrope at r's length, ntk, dynamic, yarn without
 *     truncate, per-pair factors): freq_scale 1, ext_factor 0 and
 *     freq_factors[k] = base^(-2k/d) / inv_freq[k] (ggml divides pair k's
 *     angle by it), so the op turns pair k by pos * inv_freq[k].
 * Errors: POSENC_ERR_NULL; POSENC_ERR_RANGE (a pair with frequency 0, as in
 * proportional RoPE, has no finite factor; r not a valid RoPE). */
POSENC_NODISCARD
posenc_status posenc_gguf_op_from_rope(const posenc_rope_config *c, const posenc_rope *r,
                                       posenc_gguf_op_args *out);

/* An upper bound of |y_engine - y_exact| for every element of a token at
 * position pos rotated by a float32 engine that forms its angles as ggml's
 * CPU kernel does (ggml-cpu/ops.cpp ggml_rope_cache_init: theta_scale =
 * powf(freq_base, -2.0f / n_dims); theta = pos; per pair theta_k =
 * theta / freq_factor[k], times freq_scale, YaRN's mix; cosf, sinf times
 * the multiplier; theta *= theta_scale), for inputs |x| <= x_max.
 * The bound, with u = 2^-24 (float32's unit roundoff) and
 * theta_k = pos * freq_base^(-2k/n) / freq_factor[k] (an upper bound of
 * the true angle): the angle's relative error is at most
 *   u * (k * (3 + (2 / n) ln freq_base) + ops)
 * (theta_scale's exponent rounded: k (2/n) ln(base) u through the k-th
 * power; powf within 1 ulp: 2u per factor, k factors; the k products of the
 * chain: u each; ops: (float)pos past 2^24, the division by freq_factor,
 * the product by freq_scale, YaRN's 3 operations, u each), so
 *   |dy| <= m * 2 x_max * (max_k theta_k * rel_k + 7u)
 * (cosf and sinf within 1 ulp, the multiplier m, two products, a
 * difference and y's rounding), doubled for second-order terms. It grows
 * with pos: 10^4 to 10^6 ulps of y at positions 10^4 to 10^6 is ggml's
 * own float32 arithmetic, not a bug. NAN for NULL op or pos < 0. */
double posenc_gguf_f32_tolerance(const posenc_gguf_op_args *op, int64_t pos, double x_max);

/* A golden file: positions, x and the exact y of n_tok tokens of n_head
 * heads of head_dim floats ([n_tok][n_head][head_dim], row-major), tol[t]
 * the bound for token t (posenc_gguf_f32_tolerance), the op, and extra
 * string metadata meta: key, value, ..., NULL (may be NULL). */
typedef struct posenc_gguf_golden {
    size_t n_tok;
    uint32_t n_head, head_dim;
    const int64_t *pos;
    const float *x, *y, *tol;
    const posenc_gguf_op_args *op;
    const char *const *meta;
} posenc_gguf_golden;

/* Writes gd as a GGUF v3 file at path (readable by posenc_gguf_read and
 * ggml's gguf_init_from_file): general.architecture "posenc-golden",
 * posenc.golden.version 1 (u32), posenc.rope.n_dims, mode, n_ctx_orig
 * (i32), posenc.rope.freq_base, freq_scale, ext_factor, attn_factor,
 * beta_fast, beta_slow (f32), posenc.golden.tol (a sentence), then meta;
 * tensors pos (I32 [n_tok]), x and y (F32, ggml's ne {head_dim, n_head,
 * n_tok}), tol (F32 [n_tok]) and, when the op has freq_factors,
 * rope_freqs.weight (F32 [n_dims / 2]), each aligned to 32 bytes.
 * Errors: POSENC_ERR_NULL; POSENC_ERR_RANGE (empty, n_dims above head_dim,
 * head_dim above POSENC_ROPE_MAX_HEAD_DIM); POSENC_ERR_POS (a position
 * outside int32); POSENC_ERR_IO; POSENC_ERR_NOMEM. err (may be NULL) says
 * which. */
POSENC_NODISCARD
posenc_status posenc_gguf_golden_save(const char *path, const posenc_gguf_golden *gd,
                                      posenc_load_error *err);

#ifdef __cplusplus
}
#endif

#endif /* POSENC_GGUF_H */
