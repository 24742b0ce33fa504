/*
 * posenc_check.h - is an engine's RoPE right, and if not, what is wrong with it.
 *
 * An engine rotated some vectors x into y at positions pos (or built cos/sin
 * tables). posenc_check_run() compares y with the exact rotation of the
 * model's RoPE (posenc_rope_config: frequencies, scaling, rotary_dim,
 * layout, attention factor), says how far it is, and when it is wrong,
 * refits y under each known mistake and names those that explain it, best
 * first. The "dump" functions read and write the exchange format, a
 * safetensors file. Part of libposenc (src/check/); needs only posenc.h.
 *
 *     posenc_check_input in;  posenc_load_error e;  posenc_check_result *res;
 *     if (posenc_dump_load("engine.safetensors", &in, &e) != POSENC_OK) ...
 *     res = malloc(sizeof *res);
 *     if (posenc_check_run(&model_rope, &in, 0, 0, res) != POSENC_OK) ...
 *     printf("%s\n", res->match ? "match" : posenc_check_cause_name(res->cause[0].cause));
 *     posenc_dump_free(&in);
 *
 * ERRORS. Error of one element, in ulps of the dump's dtype relative to its
 * pair's norm: for pair k of head h of token t (the model's layout), with
 * e = the exact rotation in double (attn_factor * R(theta) (x0, x1)) and
 * u = ulp_dtype(|e|) = 2^(floor(log2 |e|) - p) (p = 23 F32, 10 F16, 7 BF16;
 * |e| below the dtype's smallest normal counts as that normal),
 *     err = max(|y0 - e0|, |y1 - e1|) / u.
 * Elements past rotary_dim must equal x: err = |y - x| / ulp_dtype(|x|).
 * max_abs is the largest |y - e| (not scaled). A dump matches when every
 * err <= tol (default POSENC_CHECK_DEFAULT_TOL ulps, for every dtype: the
 * library's own float32 path is within 2, Hugging Face's bf16 arithmetic,
 * cos/sin rounded to bf16 then products and sum rounded, within 2.5).
 *
 * CAUSES. When the dump does not match, each hypothesis below predicts y
 * from x (in double) and is fitted to the engine's y with the same error
 * measure; it fits when its largest error is <= tol. Only hypotheses that
 * fit are reported, sorted by fit (ties: the order below). The candidates
 * (bounded lists, all tried):
 *   layout-swapped    pairs of the other layout, cos/sin alike (params
 *                     layout=interleaved|half: the engine's)
 *   layout-mixed      cos/sin indexed for one layout, pairs of the other
 *                     (params table=LAYOUT pairs=LAYOUT); for full-width
 *                     tables: the table in the other layout's order
 *   angle-precision   each angle off by at most 8 ulps of float32 of the
 *                     angle, plus 2^-24 (the float32 formula inv_freq *
 *                     pos with a few roundings of inv_freq): y fitted with
 *                     the best angle inside that envelope; params
 *                     onset=P, the smallest position whose error exceeds tol
 *   position-offset   positions pos + c, c in +-1..+-16, +-2^5..+-2^20 (c=)
 *   base              the model's scaling on another base: 10000, 20000,
 *                     50000, 75000, 100000, 150000, 250000, 500000, 640000,
 *                     10^6, 2*10^6, 5*10^6, 8*10^6, 10^7, 10^8, and the
 *                     model's base times 1/10, 1/4, 1/2, 2, 4, 10 (base=)
 *   scaling           the scaling left out (what=none), or type linear, ntk,
 *                     dynamic, yarn, llama3 with factor 2, 4, 8, 16, 32, 40,
 *                     64 or the model's (L = the model's original length,
 *                     else max_position_embeddings, else 4096); the model's
 *                     dynamic scaling at lengths max_position_embeddings, L,
 *                     2 L, 4 L, 8 L (what=TYPE factor=F [len=N])
 *   longrope-factors  the other LongRoPE factor set (set=short|long)
 *   rotary-dim        every other even rotary_dim 2..head_dim (rotary_dim=)
 *   attn-factor       attention factor 1, the model's squared, its square
 *                     root, or the least-squares gain of the engine (factor=)
 *   direction         rotated by -theta
 *   dtype-rounding    cos/sin (after the attention factor) rounded to bf16
 *                     or f16, positions rounded to bf16 or f16, or the
 *                     frequencies inv_freq stored in bf16 or f16 (a model
 *                     cast whole, buffers included, e.g. torch's
 *                     model.to(torch.bfloat16)) (what=cos-sin-bf16|
 *                     cos-sin-f16|positions-bf16|positions-f16|inv-freq-bf16|
 *                     inv-freq-f16)
 * Candidates are first fitted on up to 256 tokens spread over the dump; the
 * best POSENC_CHECK_MAX_CAUSES of those that fit there are refitted on every
 * token, and only those that still fit are reported.
 *
 * ENGINES. An engine model says how an engine forms its angles
 * (src/check/engines.c cites each rule):
 *   exact         theta = pos * inv_freq, exactly
 *   f32-product   theta = fl32(inv_freq_f32 * fl32(pos)), inv_freq_f32 =
 *                 1 / powf(base, fl32(2k / d)) (Llama 3's smoothing in float32
 *                 as transformers computes it; other scalings: times their
 *                 exact ratio, rounded once):
 *                 transformers' eager float32, a float32 cos/sin cache (vLLM);
 *                 its angle may move 4 float32 ulps
 *   ggml-chain    ggml's CPU chain: theta_scale = powf(base, -2/n_dims), theta
 *                 = (float)pos then theta *= theta_scale per pair in float32,
 *                 / freq_factor, * freq_scale, YaRN's ramp blend (corr dims
 *                 with floorf/ceilf), with the arguments llama.cpp derives
 *                 (freq_scale 1/factor for linear and yarn, ext_factor 1 for
 *                 yarn, Llama 3's rope_freqs as its converter writes them,
 *                 LongRoPE's lists, other scalings as per-pair divisors); its
 *                 angle may move 1 float32 ulp
 * The engine expected (posenc_check_run_engine; exact for posenc_check_run)
 * makes the verdict: a dump matches when it matches that engine's arithmetic.
 * A table or frequency rounded to bf16/f16 stays a dtype-rounding cause, alone
 * or on top of an engine model.
 *
 * COMPOUND CAUSES. The search is staged, simplest first, and stops at the
 * first stage where something fits:
 *   1. each candidate above alone on the expected engine's arithmetic, and
 *      each other engine model alone (angle-precision, params "onset=P
 *      model=NAME"; the generic envelope is not named where a model fits);
 *   2. each candidate on another engine model: the mistake first, then
 *      "angle-precision onset=P model=NAME" (a planted bug in an engine whose
 *      own float32 error shows too);
 *   3. two candidates together, on every engine model: the layout with any
 *      other, the base with the scaling (a layer of another type: Gemma 3's
 *      full layer computed as a sliding one), either with the attention factor
 *      or a position offset.
 * The causes of one explanation share a group (posenc_check_cause.group),
 * in that order; explanations that name the same causes in the same order
 * collapse to the best fitting one. When nothing fits (n_cause 0 on a
 * mismatch), nearest says which single hypothesis came nearest (the
 * smallest root mean square error on 16 of the screening tokens; one on
 * another engine model only when that halves it; not the least-squares
 * attention factor) and where its largest error is over every token.
 *
 * Thread-safe (no global state); allocates working memory during the call
 * (the x and y of a dump are held as float); the passes over the tokens are
 * split between up to 16 threads (the online CPUs), started and joined
 * inside the call, with the same result as one.
 */
#ifndef POSENC_CHECK_API_H
#define POSENC_CHECK_API_H

#include "posenc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Default tolerance, ulps of the dump's dtype (see ERRORS above). */
#define POSENC_CHECK_DEFAULT_TOL 4.0
/* At most this many position bands and causes in a result. */
#define POSENC_CHECK_MAX_BANDS 16u
#define POSENC_CHECK_MAX_CAUSES 8u
/* Largest dump accepted: tokens * heads * head_dim elements (2^31). */
#define POSENC_CHECK_MAX_ELEMS 2147483648ull

/* What the engine produced. Either x and y (cos and sin NULL), or cos and
 * sin (x and y NULL). Values are the dtype's, held exactly in float. */
typedef struct posenc_check_input {
    posenc_dtype dtype;    /* the dtype the engine computed in: ulps are its */
    size_t n_tok;          /* tokens, >= 1 */
    uint32_t n_head;       /* heads per token (x, y) */
    uint32_t head_dim;     /* elements per head: the model's head_dim */
    const int64_t *pos;    /* n_tok positions, 0 .. POSENC_MAX_POS */
    const float *x, *y;    /* [n_tok][n_head][head_dim]: before and after RoPE */
    const float *cos, *sin;/* or the engine's tables, [n_tok][table_dim]: full
                              width (rotary_dim, laid out as the model's layout
                              repeats its angles) or half (rotary_dim / 2, pair k) */
    uint32_t table_dim;
} posenc_check_input;

/* The causes (names: posenc_check_cause_name). Values are pinned. */
typedef enum posenc_check_cause_id {
    POSENC_CAUSE_LAYOUT_SWAPPED = 0,
    POSENC_CAUSE_LAYOUT_MIXED = 1,
    POSENC_CAUSE_ANGLE_PRECISION = 2,
    POSENC_CAUSE_POSITION_OFFSET = 3,
    POSENC_CAUSE_BASE = 4,
    POSENC_CAUSE_SCALING = 5,
    POSENC_CAUSE_LONGROPE_FACTORS = 6,
    POSENC_CAUSE_ROTARY_DIM = 7,
    POSENC_CAUSE_ATTN_FACTOR = 8,
    POSENC_CAUSE_DIRECTION = 9,
    POSENC_CAUSE_DTYPE_ROUNDING = 10
} posenc_check_cause_id;

/* "layout-swapped", "layout-mixed", "angle-precision", "position-offset",
 * "base", "scaling", "longrope-factors", "rotary-dim", "attn-factor",
 * "direction", "dtype-rounding"; "unknown" outside the enum. */
const char *posenc_check_cause_name(posenc_check_cause_id id);

/* The engine whose arithmetic is expected (posenc_check_run_engine): how it
 * forms its angles and tables. Values are pinned. A dump made by that
 * engine's arithmetic matches; each is also a hypothesis when another is
 * expected (CAUSE angle-precision model=NAME, ENGINES above). */
typedef enum posenc_check_engine {
    POSENC_CHECK_ENGINE_EXACT = 0,     /* "exact": the exact angle (the default) */
    POSENC_CHECK_ENGINE_GGML = 1,      /* "ggml": ggml's CPU float32 chain (model ggml-chain) */
    POSENC_CHECK_ENGINE_HF = 2,        /* "hf": transformers' eager float32 (f32-product) */
    POSENC_CHECK_ENGINE_HF_BF16 = 3,   /* "hf-bf16": the same with inv_freq in bf16
                                          (model.to(torch.bfloat16)) */
    POSENC_CHECK_ENGINE_CACHE_F32 = 4, /* "cache-f32": a float32 cos/sin table built once
                                          (vLLM; f32-product) */
    POSENC_CHECK_ENGINE_CACHE_BF16 = 5 /* "cache-bf16": that table rounded to bf16 */
} posenc_check_engine;

/* "exact", "ggml", "hf", "hf-bf16", "cache-f32", "cache-bf16"; "unknown" outside the enum. */
const char *posenc_check_engine_name(posenc_check_engine e);

/* The engine named word (the names above) into *out.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE (not a name; *out untouched). */
POSENC_NODISCARD
posenc_status posenc_check_engine_parse(const char *word, posenc_check_engine *out);

/* Errors of the tokens whose positions fall in [pos_lo, pos_hi]. */
typedef struct posenc_check_band {
    int64_t pos_lo, pos_hi;  /* the band: 0-15, then 16*4^j .. 16*4^(j+1)-1 */
    size_t n_tok;
    double max_ulp, max_abs;
} posenc_check_band;

/* One explanation that fits. */
typedef struct posenc_check_cause {
    posenc_check_cause_id cause;
    double fit_ulp;     /* the largest error of the refit, ulps as above */
    char params[96];    /* what fits, key=value words ("c=1", "base=500000",
                           "what=linear factor=8", "onset=4096"); "" if none */
    uint32_t group;     /* the explanation this cause belongs to: causes with the
                           same group explain the dump together (the mistake
                           first, an engine model's angle-precision last);
                           group 0 is the best explanation */
} posenc_check_cause;

/* When nothing fits: the nearest hypothesis and where its error is largest. */
typedef struct posenc_check_nearest {
    int valid;          /* 1 on a mismatch that no cause explains */
    posenc_check_cause_id cause;
    double fit_ulp;     /* its largest error over every token */
    char params[96];    /* as a cause's ("model=ggml-chain" appended when on
                           another engine model) */
    int64_t pos;        /* the position of that error */
    uint32_t pair;      /* its pair k in the model's layout (past the rotary
                           part: P + the element's index past rotary_dim) */
    uint32_t head;
} posenc_check_nearest;

/* The verdict. A plain struct the caller owns (about 3 KiB). */
typedef struct posenc_check_result {
    int match;              /* 1: every error <= tol_ulp */
    posenc_dtype dtype;
    size_t n_tok;
    uint32_t n_head;        /* for tables: 1 (half width) or 2 (full width) */
    double tol_ulp;
    double max_ulp, max_abs;
    int64_t worst_pos;      /* position of the largest error */
    int64_t seq_len;        /* the length the model's RoPE was built for */
    size_t n_band;
    posenc_check_band band[POSENC_CHECK_MAX_BANDS];
    size_t n_cause;         /* 0 when match, or when nothing fits */
    posenc_check_cause cause[POSENC_CHECK_MAX_CAUSES];
    posenc_check_engine engine;  /* the engine expected */
    posenc_check_nearest nearest; /* valid when n_cause is 0 on a mismatch */
} posenc_check_result;

/* Checks in against model (the layer's RoPE as its config says, e.g. from
 * posenc_model_layer or posenc_rope_from_config). seq_len: the sequence
 * length the engine ran (0: max(pos) + 1), read by the scalings that depend
 * on it (dynamic, longrope). tol_ulp: 0 for POSENC_CHECK_DEFAULT_TOL, else
 * finite > 0. Fills *out.
 * Valid: x/y with head_dim == model->head_dim, n_head >= 1; tables with
 * table_dim == rotary_dim or rotary_dim / 2; n_tok * n_head * head_dim <=
 * POSENC_CHECK_MAX_ELEMS; every value finite.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_DIM (a dimension that does not fit the
 * model), POSENC_ERR_RANGE (n_tok or n_head 0, both or neither of x/y and
 * cos/sin, dtype, tol, seq_len), POSENC_ERR_POS (a position), POSENC_ERR_NOT_FINITE,
 * POSENC_ERR_OVERFLOW (too many elements), POSENC_ERR_NOMEM, and those of
 * posenc_rope_init_config for the model. *out is unspecified on error. */
POSENC_NODISCARD
posenc_status posenc_check_run(const posenc_rope_config *model, const posenc_check_input *in,
                               int64_t seq_len, double tol_ulp, posenc_check_result *out);

/* posenc_check_run with engine's arithmetic expected: the verdict is whether
 * the dump matches that engine (posenc_check_run is engine
 * POSENC_CHECK_ENGINE_EXACT). Errors: those of posenc_check_run, and
 * POSENC_ERR_RANGE for an engine outside the enum. */
POSENC_NODISCARD
posenc_status posenc_check_run_engine(const posenc_rope_config *model, const posenc_check_input *in,
                                      int64_t seq_len, double tol_ulp, posenc_check_engine engine,
                                      posenc_check_result *out);

/* The CAUSE lines of a result, as `posenc check` prints them, into buf
 * (NUL-terminated, cut at n - 1 bytes): on a mismatch one line per cause
 *     CAUSE name=NAME fit_ulp=%.4g[ PARAMS]
 * or, when nothing fits,
 *     CAUSE name=none nearest=NAME fit_ulp=%.4g[ PARAMS] pair=K pos=P head=H
 * and nothing on a match. Returns the length of the whole text (as snprintf).
 * r and buf must not be NULL unless n is 0. */
size_t posenc_check_cause_lines(const posenc_check_result *r, char *buf, size_t n);

/* ---- dumps: the exchange format (src/check/dump.c) ------------------------- */

/* A dump is a safetensors file (posenc.h, section 1.5, for the format and
 * the strict header checks) with the tensors
 *     positions  I64 or I32, [n_tok]
 *     x, y       F32, F16 or BF16 (both the same), [n_tok, n_head, head_dim]
 * or, instead of x and y,
 *     cos, sin   F32, F16 or BF16, [n_tok, table_dim]
 * Other tensors are ignored. */

/* Reads the dump at path into *out, whose arrays are then allocated (free
 * them with posenc_dump_free). err (may be NULL) says what is wrong.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_IO, POSENC_ERR_FORMAT (the header's
 * checks, a missing or misshapen tensor, a dtype not allowed, a value not
 * finite), POSENC_ERR_POS (a position out of range), POSENC_ERR_OVERFLOW,
 * POSENC_ERR_NOMEM. *out is untouched on error. */
POSENC_NODISCARD
posenc_status posenc_dump_load(const char *path, posenc_check_input *out, posenc_load_error *err);

/* The same on an open stream whose byte 0 is the file's first byte (it must
 * support fseeko, e.g. a file or fmemopen). */
POSENC_NODISCARD
posenc_status posenc_dump_read(FILE *in, posenc_check_input *out, posenc_load_error *err);

/* Frees the arrays posenc_dump_load allocated and zeroes *in (NULL is fine). */
void posenc_dump_free(posenc_check_input *in);

/* Writes in (x/y or cos/sin) as a dump at path: positions I64, the rest in
 * in->dtype (each float rounded to nearest-even; exact for values already
 * in the dtype). meta: NULL, or NULL-terminated key, value strings for
 * __metadata__ (ASCII letters, digits and " .,:=_-/+" only).
 * Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE (a shape or a metadata string),
 * POSENC_ERR_IO (cannot write; err->detail says why). */
POSENC_NODISCARD
posenc_status posenc_dump_save(const char *path, const posenc_check_input *in,
                               const char *const *meta, posenc_load_error *err);

#ifdef __cplusplus
}
#endif

#endif /* POSENC_CHECK_API_H */
