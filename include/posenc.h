/*
 * posenc.h - position encodings for transformers, computed from their formulas.
 *
 * This header is the whole public API of libposenc. Everything a caller can do
 * is declared here, and each declaration says what it computes, the units and
 * valid ranges of its arguments, who owns memory, and which errors it returns.
 *
 * ---------------------------------------------------------------------------
 * The definitions (the contract)
 * ---------------------------------------------------------------------------
 * D is the length of the vector being encoded or rotated. Element i belongs to
 * pair k = i / 2 (integer division). Pair k turns at the inverse frequency
 *
 *     inv_freq(k) = base^(-2k/D)          (radians per token)
 *
 * and at integer position pos its angle is
 *
 *     theta(pos, k) = pos * inv_freq(k) = pos / base^(2k/D)      (radians)
 *
 * base = 10000 in the original transformer (POSENC_DEFAULT_BASE).
 *
 * Sinusoid:   PE(pos)[2k] = sin(theta), PE(pos)[2k+1] = cos(theta).
 *             With odd D the last element is the sine of a pair whose cosine
 *             fell off the end.
 *             Worked trace: D = 4, pos = 2 -> 0.9093 -0.4161 0.0200 0.9998.
 *
 * Rotation (RoPE): each pair (a, b) becomes
 *             (a cos theta - b sin theta,  a sin theta + b cos theta),
 *             a counter-clockwise turn: rotating (1, 0) by a small positive
 *             angle raises the second coordinate. Where the pair lives in the
 *             vector is the layout (ggml draws them as c = first element of a
 *             pair, s = second element, 0 = untouched):
 *
 *               POSENC_LAYOUT_INTERLEAVED  [cscscs..]  pair k = (x[2k], x[2k+1])
 *                                          original RoPE, GPT-J, llama2.c
 *               POSENC_LAYOUT_HALF         [ccc..sss]  pair k = (x[k], x[k+D/2])
 *                                          GPT-NeoX, Hugging Face checkpoints
 *
 *             With odd D the last element has no partner and is unchanged.
 *
 * Dot product: DOT(m, n, q, k) = ROPE(m, q) . ROPE(n, k). It depends only on
 *             m - n (rotations compose), e.g. q = k = (1, 0): DOT(5, 3) =
 *             DOT(9, 7) = cos 2 = -0.4161.
 *
 * ALiBi:      head h of H (h = 1..H) has slope m_h = 2^(-8h/H) when H is a
 *             power of two; otherwise, with n the largest power of two below
 *             H, the n slopes for n heads followed by the first H - n of every
 *             other slope (the odd-numbered ones) for 2n heads. The penalty
 *             between query position i and key position j is -m_h * |i - j|.
 *
 * Learned:    row pos of a table; pos at or past the table's length is an
 *             error (the hard edge of a learned table).
 *
 * ---------------------------------------------------------------------------
 * Accuracy
 * ---------------------------------------------------------------------------
 * Angles are not formed as a double product: inv_freq is computed in
 * double-double arithmetic (relative error below 2^-94), multiplied by the
 * exact integer position, and reduced modulo pi/2 with a three-part pi/2, so
 * sin and cos keep their digits at every position 0 .. 2^31 - 1 (D up to
 * 4096, base 100 to 1e9). "Exact" means cos and sin of the mathematically
 * exact angle. Double results are within 2 ulps of the exact value or 2^-60
 * absolute (whichever is larger). Float results are within 1 ulp, or 2^-25
 * absolute where |value| < 1/4.
 *
 * Every float cos/sin (single-vector _f32 functions, sinusoid tables, the
 * RoPE cache, the tensor kernels with or without the cache) comes from one
 * fill: with p = A + j, A the multiple of 32 at or below p,
 *     value(p, k) = float( [scale (cos A f + i sin A f)] * (cos j f + i sin j f) )
 * both factors evaluated directly (exact angle, double results), one complex
 * product in double (error below 2^-50 |scale| before the rounding to
 * float). The value of a (position, pair) is the same few operations
 * whichever call, block or instruction set computes it, so all float paths
 * agree bit for bit (a single position costs two direct evaluations per
 * pair; a table one complex product per value). Double results come from
 * the direct evaluation itself. Proven bound and GNU MPFR measurements
 * (make accuracy): docs/ACCURACY.md.
 *
 * Float rotations (the _f32 functions) first round cos and sin to float, then
 * compute a*c - b*s and a*s + b*c in float arithmetic, each product and the
 * sum rounded separately (no fused multiply-add), in that order. The tensor
 * kernels use the same order, so their float32 results are bit-identical to
 * the single-vector functions.
 *
 * ---------------------------------------------------------------------------
 * Conventions
 * ---------------------------------------------------------------------------
 * - Every function returns a posenc_status; POSENC_OK (0) is success, and
 *   posenc_strerror() turns any value into a sentence. On error nothing has
 *   been written to output buffers unless the function says otherwise.
 * - The library never exits, never prints, and keeps no global mutable state
 *   (the instruction set of the vector loops is chosen once, read-only
 *   after): every function is thread-safe on distinct output buffers.
 * - The caller owns every buffer. Three conveniences allocate, and say so:
 *   the learned-table loaders, text and safetensors (posenc_learned_free),
 *   posenc_rope_cache_create (posenc_rope_cache_free; posenc_rope_cache_init
 *   uses the caller's buffer instead), and the optional config readers of
 *   posenc_config.h (jansson and a file buffer, freed before the call
 *   returns). Every free function accepts NULL. The tensor kernels allocate
 *   nothing.
 *
 * - Positions are integers 0 .. POSENC_MAX_POS (2^31 - 1), passed as int64_t so
 *   that a negative value is an error, not a wrap-around.
 * - Every function that returns a posenc_status is POSENC_NODISCARD
 *   (warn_unused_result on GCC and clang): an unchecked failure would leave a
 *   buffer silently unwritten.
 *
 * ---------------------------------------------------------------------------
 * Map of this header, in its order: three tiers, as zstd.h introduces its
 * simple API before the advanced one
 * ---------------------------------------------------------------------------
 *   Basics ..................... POSENC_NODISCARD, limits, status codes,
 *                                layouts, posenc_direction
 *
 *   TIER 1 - THE LESSON: one vector at a time
 *   1.1 frequencies and angles . posenc_inv_freq, posenc_angle, posenc_sincos,
 *                                posenc_pair_index
 *   1.2 sinusoid ............... posenc_sinusoid_fill/add (one position),
 *                                posenc_sinusoid_table (many positions)
 *   1.3 rotate one vector ...... posenc_rope_apply_f32/_f64, posenc_rope_dot_f64
 *   1.4 ALiBi .................. posenc_alibi_slopes/penalties, and the bias
 *                                tensor posenc_alibi_bias_f32
 *   1.5 learned tables ......... posenc_learned_load/read/row_f64/free, and from
 *                                checkpoints: posenc_learned_load_safetensors
 *   1.6 T5 relative buckets .... posenc_t5_bucket, posenc_t5_bucket_explain, and
 *                                the bias tensor posenc_t5_bias_f32
 *   1.7 sinusoid layouts ....... posenc_sinusoid_spec, posenc_sinusoid_family_spec,
 *                                posenc_sinusoid_table_grows,
 *                                posenc_sinusoid_layout_fill_f32/_f64 ([scsc],
 *                                [sscc], [ccss]; fairseq, CTRL, MusicGen)
 *   1.8 MPNet, CPM-Ant, LongT5,  posenc_mpnet_bucket, posenc_cpmant_bucket,
 *       VITS, DeBERTa            posenc_longt5_side_positions, posenc_window_rel_index,
 *                                posenc_deberta_log_bucket (+ _explain),
 *                                posenc_deberta_relative_ids
 *   1.9 XLNet, Funnel .......... posenc_xlnet_rel_positions,
 *                                posenc_rel_sinusoid_explain,
 *                                posenc_funnel_rel_positions,
 *                                posenc_funnel_factorized_positions
 *   1.10 RoFormer .............. posenc_roformer_rotate_f32/_f64
 *   1.11 other position ids .... posenc_box2d_ids (LayoutLM), posenc_tapas_positions,
 *                                posenc_axial_ids (Reformer)
 *
 *   TIER 2 - THE MODEL: a model's RoPE over its q/k tensors
 *   2.1 a model's RoPE object .. posenc_rope, posenc_rope_init
 *   2.2 scalings ............... posenc_rope_scaling, posenc_rope_init_scaled
 *                                (YaRN, Llama 3, NTK, LongRoPE...),
 *                                posenc_rope_explain_freqs
 *   2.3 a model's config ....... posenc_rope_config, posenc_rope_init_config
 *   2.4 one head ............... the rotation contract; posenc_rope_vec_f32/_f64,
 *                                posenc_rope_vec_dot_f64
 *   2.5 the cos/sin cache ...... posenc_rope_cache_size/init/create/free/row
 *   2.6 q/k tensors ............ posenc_rope_view(_dense), posenc_rope_qk_args,
 *                                posenc_rope_qk, posenc_pool_create/free,
 *                                posenc_rope_qk_pool
 *   2.7 decode ................. posenc_rope_decode_f32
 *   2.8 multimodal RoPE ........ M-RoPE (posenc_mrope_init/_qk/_positions,
 *                                Qwen2-VL to Qwen3-VL) and vision 2D RoPE
 *                                (posenc_rope2d_init/_qk)
 *   (models, a scheme per layer: posenc_model.h; config.json readers:
 *    posenc_config.h, with the optional library libposenc_config.a)
 *   (ALiBi bias tensors for attention: 1.4)
 *
 *   TIER 3 - UTILITIES
 *   3.1 number syntax .......... posenc_parse_number, posenc_parse_int64
 *   3.2 explain and trace ...... posenc_pair_trace, posenc_pair_explain
 *   3.3 version, errors, CPU ... posenc_version_number/string, posenc_strerror,
 *                                posenc_rope_isa
 *   3.4 deprecated names ....... the 2.0 enum spellings POSENC_AXIS_*,
 *                                POSENC_SEG_* (aliases for one release)
 *
 * ---------------------------------------------------------------------------
 * Example (compile with: cc ex.c $(pkg-config --cflags --libs posenc))
 * ---------------------------------------------------------------------------
 *     #include <posenc.h>
 *     #include <stdio.h>
 *     int main(void) {
 *         double pe[4];
 *         if (posenc_sinusoid_fill_f64(2, 4, POSENC_DEFAULT_BASE, pe) != POSENC_OK)
 *             return 1;
 *         printf("%.4f %.4f %.4f %.4f\n", pe[0], pe[1], pe[2], pe[3]);
 *         return 0;           // prints 0.9093 -0.4161 0.0200 0.9998
 *     }
 */
#ifndef POSENC_H
#define POSENC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every function that returns a posenc_status is marked must-check: an
 * unchecked failure leaves q and k silently unrotated. */
#if defined(__GNUC__) || defined(__clang__)
#define POSENC_NODISCARD __attribute__((warn_unused_result))
#else
#define POSENC_NODISCARD
#endif

/* ========================================================================= */
/* BASICS: limits, status codes, layouts, direction                        */
/* ========================================================================= */

#define POSENC_VERSION_MAJOR 3
#define POSENC_VERSION_MINOR 0
#define POSENC_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH, as zstd does. */
#define POSENC_VERSION_NUMBER \
    (POSENC_VERSION_MAJOR * 10000 + POSENC_VERSION_MINOR * 100 + POSENC_VERSION_PATCH)

/* Largest position accepted anywhere (int32 max: every position a model with
 * int32 token indices can use). */
#define POSENC_MAX_POS 2147483647LL
/* Largest vector length D (and largest ALiBi head count H). */
#define POSENC_MAX_DIM 1048576u
/* Largest learned table, in elements (rows * columns): 2^27 doubles = 1 GiB. */
#define POSENC_LEARNED_MAX_ELEMS 134217728u
/* The original transformer's base. */
#define POSENC_DEFAULT_BASE 10000.0

/* Status codes (values are pinned: they never change between versions). */
typedef enum posenc_status {
    POSENC_OK = 0,
    POSENC_ERR_NULL = 1,       /* a required pointer argument was NULL */
    POSENC_ERR_DIM = 2,        /* a dimension (D, H, head_dim...) is 0 or too large */
    POSENC_ERR_POS = 3,        /* a position is negative or past its limit */
    POSENC_ERR_BASE = 4,       /* base is not finite or not > 1 */
    POSENC_ERR_LAYOUT = 5,     /* unknown posenc_layout value */
    POSENC_ERR_RANGE = 6,      /* another argument is outside its documented range */
    POSENC_ERR_NOMEM = 7,      /* memory allocation failed */
    POSENC_ERR_IO = 8,         /* a file could not be opened or read */
    POSENC_ERR_FORMAT = 9,     /* a file's contents are malformed */
    POSENC_ERR_OVERFLOW = 10,  /* a size computation would overflow */
    POSENC_ERR_NOT_FINITE = 11 /* an input value is NaN or infinite */
} posenc_status;

/* Where pair k lives in a vector of length D (see the top of this file). */
typedef enum posenc_layout {
    POSENC_LAYOUT_INTERLEAVED = 0, /* [cscs..]: (x[2k], x[2k+1]) */
    POSENC_LAYOUT_HALF = 1         /* [cc..ss]: (x[k], x[k + D/2]) */
} posenc_layout;

/* Which way a rotation turns. Every rotating function takes one. */
typedef enum posenc_direction {
    POSENC_FORWARD = 0, /* by +theta: the rotation applied in the forward pass */
    POSENC_INVERSE = 1  /* by -theta (the transpose): undoes FORWARD when the
                           attention factor is 1; the backward pass of RoPE */
} posenc_direction;

/* The element indices of pair k in a vector of length D under layout.
 * Valid k: 0 <= k < D/2 (rounded down; the unpaired last element of an odd D
 * has no pair). Writes *i0 (first element, the one cos multiplies in the new
 * first coordinate) and *i1 (its partner).
 * Errors: POSENC_ERR_NULL, POSENC_ERR_DIM (D == 0 or > POSENC_MAX_DIM),
 * POSENC_ERR_RANGE (k >= D/2), POSENC_ERR_LAYOUT. */
POSENC_NODISCARD
posenc_status posenc_pair_index(uint32_t k, uint32_t D, posenc_layout layout,
                                uint32_t *i0, uint32_t *i1);

/* ========================================================================= */
/* TIER 1 - THE LESSON: one vector at a time                               */
/* ========================================================================= */

/* ------------------------------------------------------------------------- */
/* 1.1 Frequencies and angles (src/math/angle.c)                                */
/* ------------------------------------------------------------------------- */

/* inv_freq(k) = base^(-2k/D), radians per token, rounded to double.
 * Valid: 1 <= D <= POSENC_MAX_DIM, 0 <= 2k < D (k <= (D-1)/2, which
 * includes the sine-only pair of an odd D), base finite and > 1.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_DIM, POSENC_ERR_RANGE (k), POSENC_ERR_BASE. */
POSENC_NODISCARD
posenc_status posenc_inv_freq(uint32_t k, uint32_t D, double base, double *inv_freq);

/* theta = pos / base^(2k/D) in radians, rounded to double (not reduced).
 * Same ranges as posenc_inv_freq, and 0 <= pos <= POSENC_MAX_POS.
 * Errors: those of posenc_inv_freq and POSENC_ERR_POS. */
POSENC_NODISCARD
posenc_status posenc_angle(int64_t pos, uint32_t k, uint32_t D, double base, double *theta);

/* sin and cos of the exact angle theta(pos, k) (not of the rounded double
 * angle), accurate at every position: see "Accuracy" above.
 * Same ranges and errors as posenc_angle; s and c must not be NULL. */
POSENC_NODISCARD
posenc_status posenc_sincos(int64_t pos, uint32_t k, uint32_t D, double base,
                            double *s, double *c);

/* ------------------------------------------------------------------------- */
/* 1.2 Sinusoid: one position, or many (src/math/sinusoid.c, src/math/table.c)       */
/* ------------------------------------------------------------------------- */

/* out[0..D) = PE(pos): out[2k] = sin(theta(pos,k)), out[2k+1] = cos(theta(pos,k)).
 * out is the caller's buffer of D elements.
 * Valid: 0 <= pos <= POSENC_MAX_POS, 1 <= D <= POSENC_MAX_DIM, base finite > 1.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_POS, POSENC_ERR_DIM, POSENC_ERR_BASE. */
POSENC_NODISCARD
posenc_status posenc_sinusoid_fill_f64(int64_t pos, uint32_t D, double base, double *out);
/* The same in float: row pos of posenc_sinusoid_table_f32, each element
 * within 1 ulp of exact (see "Accuracy"). */
POSENC_NODISCARD
posenc_status posenc_sinusoid_fill_f32(int64_t pos, uint32_t D, double base, float *out);

/* x[i] += PE(pos)[i] for i < D, in place: the embedding step
 * x[t] = tok[id] + PE(t). D is the length of x. Ranges and errors as
 * posenc_sinusoid_fill_f64, plus POSENC_ERR_NOT_FINITE if an element of x is
 * NaN or infinite (x is then left unchanged). */
POSENC_NODISCARD
posenc_status posenc_sinusoid_add_f64(int64_t pos, uint32_t D, double base, double *x);
/* The same on floats: x[i] = x[i] + (float)PE(pos)[i], a float addition. */
POSENC_NODISCARD
posenc_status posenc_sinusoid_add_f32(int64_t pos, uint32_t D, double base, float *x);

/* ---- many positions at once ------------------------------------------- */

/* out is row-major n_pos x D: row t is PE(pos0 + t), i.e.
 *     out[t*D + 2k]     = sin((pos0 + t) / base^(2k/D))
 *     out[t*D + 2k + 1] = cos((pos0 + t) / base^(2k/D))
 * (odd D: the last element of each row is the sine of the unpaired pair).
 * Every value is within 1 ulp of the exact one, or within 2^-25 absolute
 * where |value| < 1/4 (see "Accuracy" and docs/ACCURACY.md), and row t is
 * bit for bit posenc_sinusoid_fill_f32(pos0 + t): one complex product in
 * double per value from exact rotations (see "Accuracy"), under 1 ns per
 * element on one core.
 * out is the caller's buffer of n_pos * D floats. n_pos = 0 writes nothing.
 * Valid: 0 <= pos0, pos0 + n_pos - 1 <= POSENC_MAX_POS, 1 <= D <=
 * POSENC_MAX_DIM, base finite > 1. Thread-safe on distinct buffers; no
 * allocation.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_DIM, POSENC_ERR_BASE, POSENC_ERR_POS
 * (pos0 negative or the last row past POSENC_MAX_POS), POSENC_ERR_OVERFLOW
 * (n_pos * D does not fit in size_t). Arguments are checked in that order. */
POSENC_NODISCARD
posenc_status posenc_sinusoid_table_f32(int64_t pos0, size_t n_pos, uint32_t D, double base,
                                        float *out);

/* The same in double: each value is posenc_sinusoid_fill_f64's (evaluated
 * directly, within 2 ulps or 2^-60 absolute), a few ns per element. Same
 * ranges and errors. */
POSENC_NODISCARD
posenc_status posenc_sinusoid_table_f64(int64_t pos0, size_t n_pos, uint32_t D, double base,
                                        double *out);

/* ------------------------------------------------------------------------- */
/* 1.3 Rotating one vector (src/math/rope.c)                                    */
/* ------------------------------------------------------------------------- */

/* Rotates x (length D) in place by position pos: every pair k of the layout
 * turns by +theta(pos, k) (dir POSENC_FORWARD) or by -theta (POSENC_INVERSE:
 * the transpose, which undoes the forward turn with the same arguments and is
 * the backward pass of RoPE); an unpaired last element (odd D) is unchanged.
 * Valid: 0 <= pos <= POSENC_MAX_POS, 1 <= D <= POSENC_MAX_DIM, base finite > 1.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_POS, POSENC_ERR_DIM, POSENC_ERR_BASE,
 * POSENC_ERR_LAYOUT, POSENC_ERR_RANGE (dir outside the enum),
 * POSENC_ERR_NOT_FINITE (an element of x is NaN or infinite; x is then left
 * unchanged). */
POSENC_NODISCARD
posenc_status posenc_rope_apply_f64(int64_t pos, uint32_t D, double base,
                                    posenc_layout layout, posenc_direction dir, double *x);
/* Float version; arithmetic order as described under "Accuracy". */
POSENC_NODISCARD
posenc_status posenc_rope_apply_f32(int64_t pos, uint32_t D, double base,
                                    posenc_layout layout, posenc_direction dir, float *x);

/* *out = ROPE(m, q) . ROPE(n, k) for vectors q and k of length D, neither
 * modified. Computed pair by pair in double without allocating.
 * Valid: m and n in 0..POSENC_MAX_POS, other ranges as posenc_rope_apply_f64.
 * Errors: those of posenc_rope_apply_f64. */
POSENC_NODISCARD
posenc_status posenc_rope_dot_f64(int64_t m, int64_t n, uint32_t D, double base,
                                  posenc_layout layout, const double *q,
                                  const double *k, double *out);

/* ------------------------------------------------------------------------- */
/* 1.4 ALiBi: slopes, penalties, the bias tensor (src/alibi*.c)            */
/* ------------------------------------------------------------------------- */

/* slopes[0..H) = m_1 .. m_H by the ALiBi paper's rule (see the top).
 * Valid: 1 <= H <= POSENC_MAX_DIM. Errors: POSENC_ERR_NULL, POSENC_ERR_DIM. */
POSENC_NODISCARD
posenc_status posenc_alibi_slopes(uint32_t H, double *slopes);

/* out[h-1] = -m_h * |i - j| for h = 1..H: the penalty added to the attention
 * score of query position i against key position j.
 * Valid: 1 <= H <= POSENC_MAX_DIM, i and j in 0..POSENC_MAX_POS.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_DIM, POSENC_ERR_POS. */
POSENC_NODISCARD
posenc_status posenc_alibi_penalties(uint32_t H, int64_t i, int64_t j, double *out);

/* ---- the bias tensor for attention code -------------------------------- */

/* Fills out[h][i][j] (row-major [n_head, n_query, n_key] floats, the
 * caller's buffer) with the ALiBi bias of head h+1 between query i, at
 * absolute position q_offset + i (q_offset: tokens already in the KV cache),
 * and key j at position j:
 *     out = (float)(-m_{h+1} * |q_offset + i - j|)   (posenc_alibi_penalties)
 * and with causal != 0, -INFINITY (the masked future) where j > q_offset + i,
 * so that softmax gives those keys weight exactly 0, as PyTorch's
 * masked_fill(-inf) does; a row always keeps key 0, never all -inf.
 * n_threads: 1 computes in the calling thread; more splits the heads x
 * queries rows across that many POSIX threads (at most 64, fewer if there
 * are fewer rows); if a thread cannot be created its rows are computed by the
 * caller, so the result never depends on the thread count.
 * Valid: 1 <= n_head <= POSENC_MAX_DIM, n_query and n_key >= 1, q_offset >=
 * 0, q_offset + n_query - 1 and n_key - 1 <= POSENC_MAX_POS, 1 <= n_threads
 * <= 64. Errors: POSENC_ERR_NULL, POSENC_ERR_DIM (n_head, n_query, n_key),
 * POSENC_ERR_POS, POSENC_ERR_RANGE (n_threads), POSENC_ERR_OVERFLOW (the
 * element count does not fit size_t). */
POSENC_NODISCARD
posenc_status posenc_alibi_bias_f32(uint32_t n_head, uint32_t n_query, uint32_t n_key,
                                    int64_t q_offset, int causal, unsigned n_threads,
                                    float *out);

/* ------------------------------------------------------------------------- */
/* 1.5 Learned position tables (src/math/learned.c)                             */
/* ------------------------------------------------------------------------- */

/* An immutable table of n_pos rows of dim doubles. Opaque. */
typedef struct posenc_learned posenc_learned;

/* Where a table file went wrong, for messages. */
typedef struct posenc_load_error {
    size_t line;         /* 1-based line of the file where the problem is, 0 if none */
    size_t expected;     /* for a ragged row: the length of the first row */
    size_t got;          /* for a ragged row: the length of this row */
    char detail[256];    /* short description, "" if none */
} posenc_load_error;

/* Reads a learned table from a text stream: one row per position, numbers
 * separated by white space (commas also accepted), every row the same length;
 * blank lines and text after '#' are ignored. Numbers must be finite.
 * On success *out is a new table that the caller releases with
 * posenc_learned_free(). err may be NULL; when not, it describes a failure.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_IO (read error), POSENC_ERR_FORMAT
 * (not a number, not finite, ragged row, empty table), POSENC_ERR_DIM (a row
 * longer than POSENC_MAX_DIM), POSENC_ERR_OVERFLOW (more than
 * POSENC_LEARNED_MAX_ELEMS elements or more than POSENC_MAX_POS + 1 rows),
 * POSENC_ERR_NOMEM. */
POSENC_NODISCARD
posenc_status posenc_learned_read(FILE *in, posenc_learned **out, posenc_load_error *err);

/* posenc_learned_read() on the file at path. POSENC_ERR_IO if it cannot be
 * opened (err->detail then holds strerror(errno)). */
POSENC_NODISCARD
posenc_status posenc_learned_load(const char *path, posenc_learned **out,
                                  posenc_load_error *err);

/* Releases a table; NULL is accepted and ignored. */
void posenc_learned_free(posenc_learned *table);

/* Number of rows (positions) and columns of a table; 0 for NULL. */
size_t posenc_learned_n_pos(const posenc_learned *table);
size_t posenc_learned_dim(const posenc_learned *table);

/* Copies row pos into out (posenc_learned_dim(table) doubles).
 * Errors: POSENC_ERR_NULL, POSENC_ERR_POS (pos < 0 or pos >= n_pos: the hard
 * edge of a learned table). */
POSENC_NODISCARD
posenc_status posenc_learned_row_f64(const posenc_learned *table, int64_t pos, double *out);

/* ---- learned tables from checkpoints: safetensors (src/formats/safetensors.c) ---- */

/*
 * A safetensors file is: an unsigned 64-bit little-endian length N, N bytes
 * of JSON (the header), then the data. The header maps each tensor name to
 *     {"dtype": "F32", "shape": [rows, cols], "data_offsets": [begin, end]}
 * (offsets in bytes from the start of the data, end exclusive), plus an
 * optional "__metadata__" object of strings. Names used by checkpoints for
 * their position tables: GPT-2 "wpe.weight" or "transformer.wpe.weight",
 * BERT "embeddings.position_embeddings.weight" (prefixed "bert." in task
 * models), OPT "model.decoder.embed_positions.weight" or
 * "decoder.embed_positions.weight". Some families index their table with an
 * offset (OPT and BART: row pos + 2; RoBERTa: pos + padding_idx + 1): the
 * table is loaded as stored, and the caller adds the offset when it reads a
 * row (posenc_learned_row_f64(table, pos + offset, ...)).
 *
 * The header is untrusted input and is checked whole before any data is
 * read: N at most POSENC_SAFETENSORS_MAX_HEADER and within the file; the
 * header a strict JSON object (UTF-8, no duplicate keys at any level, no
 * keys other than the three above in a tensor, shapes of at most 64
 * dimensions, shapes and offsets non-negative integers below 2^64); every
 * dtype known; for every tensor,
 * end - begin = (product of the shape) * (dtype size), computed without
 * overflow; the tensors, taken in offset order, tile the data exactly (no
 * overlap, no gap, nothing past the end, the last ending at the file's end).
 * The named tensor must be 2-D [n_pos, dim] of F64, F32, F16 or BF16 (each
 * value converted exactly to double, and finite), with n_pos * dim <=
 * POSENC_LEARNED_MAX_ELEMS and dim <= POSENC_MAX_DIM. Only the header and
 * that tensor's bytes are read (fseeko to it), so a 10 GB checkpoint costs
 * the table and the header.
 *
 * On a refusal, err->detail names the tensor (when it is the tensor's
 * fault) and the problem; err->line is 0.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_IO (cannot open, seek or read; a file
 * shorter than 8 bytes is POSENC_ERR_FORMAT), POSENC_ERR_FORMAT (any check of
 * the header or of the values above), POSENC_ERR_RANGE (a well-formed file
 * without that tensor, or where it is not a 2-D table of a float dtype),
 * POSENC_ERR_DIM (dim > POSENC_MAX_DIM), POSENC_ERR_OVERFLOW (more than
 * POSENC_LEARNED_MAX_ELEMS elements), POSENC_ERR_NOMEM.
 * On success *out is a new table (free with posenc_learned_free); on error
 * *out is untouched. Thread-safe; allocates the table, the header text and
 * its index (freed before returning).
 */

/* Largest header accepted, in bytes (100 MB, as the reference reader). */
#define POSENC_SAFETENSORS_MAX_HEADER 100000000u

/* Reads tensor `name` (exact, case-sensitive) of the safetensors file at
 * path into a learned table. */
POSENC_NODISCARD
posenc_status posenc_learned_load_safetensors(const char *path, const char *name,
                                              posenc_learned **out, posenc_load_error *err);

/* The same on an open stream whose byte 0 is the file's first byte (it must
 * support fseeko, e.g. a file or fmemopen; the current position does not
 * matter). Its position afterwards is unspecified. */
POSENC_NODISCARD
posenc_status posenc_learned_read_safetensors(FILE *in, const char *name, posenc_learned **out,
                                              posenc_load_error *err);

/* ------------------------------------------------------------------------- */
/* 1.6 T5 relative position buckets (src/math/t5.c)                             */
/* ------------------------------------------------------------------------- */

/*
 * T5 (and mT5, and models built on them) add to each attention score a
 * learned bias that depends on the key's position relative to the query's,
 * through a bucket. With r = key_pos - query_pos, nb = num_buckets
 * (relative_attention_num_buckets, default 32) and md = max_distance
 * (relative_attention_max_distance, default 128):
 *
 *   bidirectional (the encoder): nb' = nb / 2 (rounded down); offset = nb'
 *       when r > 0 (the key after the query), else 0; n = |r|.
 *   causal (the decoder): nb' = nb; offset = 0; n = max(-r, 0) (a key after
 *       the query falls into bucket 0; the attention mask hides it anyway).
 *   max_exact = nb' / 2 (rounded down).
 *   n < max_exact:  bucket = offset + n                       (one per distance)
 *   otherwise:      bucket = offset + min(max_exact + trunc(v), nb' - 1),
 *       v = log(n / max_exact) / log(md / max_exact) * (nb' - max_exact)
 *       (logarithmic buckets up to md; every farther distance shares the last).
 *
 * v is computed as the published implementations compute it, in float32:
 *     a = (float)n / (float)max_exact               float32 division
 *     l = logf(a)                                   correctly rounded
 *     c = (float)log((double)md / max_exact)        a double rounded to float
 *     v = (l / c) * (float)(nb' - max_exact)        float32 division, product
 * then truncated toward zero, so the buckets equal the checkpoints' own.
 * For the settings tested (32/128, 128/128, 32/256, 48/200, 64/1000 and odd
 * bucket counts, both directions) the exact v would pick the same bucket at
 * every distance (docs/SCHEMES.md has the margins and the exceptions to
 * watch).
 * Worked example (nb 32, md 128, bidirectional): query 0, key 20: r = 20,
 * offset 16, n = 20, max_exact 8, a = 2.5, l = 0.91629, c = 2.77259,
 * v = 2.64386, bucket = 16 + 8 + 2 = 26.
 *
 * Valid: 2 <= num_buckets <= POSENC_T5_MAX_BUCKETS with max_exact >= 1
 * (num_buckets >= 4 when bidirectional), max_exact < max_distance <=
 * POSENC_MAX_POS, positions 0 .. POSENC_MAX_POS. bidirectional: 0 or not.
 * Thread-safe, no allocation, nothing written on error.
 */

/* Largest num_buckets accepted. */
#define POSENC_T5_MAX_BUCKETS 1048576u

/* *bucket = the bucket (0 .. num_buckets - 1) of the pair (query_pos, key_pos).
 * Errors: POSENC_ERR_NULL, POSENC_ERR_POS (a position), POSENC_ERR_RANGE
 * (num_buckets or max_distance outside the ranges above). */
POSENC_NODISCARD
posenc_status posenc_t5_bucket(int64_t query_pos, int64_t key_pos, uint32_t num_buckets,
                               uint32_t max_distance, int bidirectional, uint32_t *bucket);

/* Every step of one bucket, for worked traces (EXPLAIN T5BUCKET). The float
 * fields are the float32 values of the computation above; they are 0 when
 * is_small (no logarithm is taken). */
typedef struct posenc_t5_trace {
    int64_t relative_position; /* r = key_pos - query_pos */
    uint32_t side_buckets;     /* nb': num_buckets / 2 bidirectional, else num_buckets */
    uint32_t offset;           /* nb' for a later key when bidirectional, else 0 */
    int64_t distance;          /* n */
    uint32_t max_exact;        /* nb' / 2 */
    int is_small;              /* 1: n < max_exact, bucket = offset + n */
    float ratio;               /* a = (float)n / max_exact */
    float log_ratio;           /* l = logf(a) */
    float log_max;             /* c = (float)log(md / max_exact) */
    float scaled;              /* v = l / c * (nb' - max_exact), float32 */
    int64_t truncated;         /* max_exact + trunc(v) */
    int clamped;               /* 1: truncated > nb' - 1, so nb' - 1 was taken */
    uint32_t bucket;           /* the result, as posenc_t5_bucket */
    double exact_value;        /* v computed in double (for comparison); 0 if is_small */
} posenc_t5_trace;

/* Fills *out with the steps of posenc_t5_bucket for the same arguments.
 * Same ranges and errors. */
POSENC_NODISCARD
posenc_status posenc_t5_bucket_explain(int64_t query_pos, int64_t key_pos, uint32_t num_buckets,
                                       uint32_t max_distance, int bidirectional,
                                       posenc_t5_trace *out);

/* The bias tensor of one attention stack: out[h][i][j] (row-major
 * [n_head, n_query, n_key] floats, the caller's buffer) =
 *     table[b * n_head + h],   b = posenc_t5_bucket(q_offset + i, j, ...)
 * where table is the model's learned [num_buckets, n_head] float table
 * (relative_attention_bias.weight of block 0: row = bucket, column = head),
 * query i sits at absolute position q_offset + i (q_offset: tokens already in
 * the KV cache) and key j at position j. No mask is added (T5's decoder adds
 * its causal mask separately; its future keys all read bucket 0) and no
 * scaling (T5 does not divide scores by sqrt(d)).
 * n_threads: 1 computes in the calling thread; more splits the queries
 * across that many POSIX threads (at most 64, fewer if there are fewer
 * queries); if a thread cannot be created its queries are computed by the
 * caller, so the result never depends on the thread count.
 * Valid: the bucket ranges above, 1 <= n_head <= POSENC_MAX_DIM, n_query and
 * n_key >= 1, q_offset >= 0, q_offset + n_query - 1 and n_key - 1 <=
 * POSENC_MAX_POS, 1 <= n_threads <= 64. table holds num_buckets * n_head
 * floats (copied as they are, NaN included).
 * Errors: POSENC_ERR_NULL, POSENC_ERR_DIM (n_head, n_query, n_key),
 * POSENC_ERR_RANGE (num_buckets, max_distance, n_threads), POSENC_ERR_POS,
 * POSENC_ERR_OVERFLOW (the element count does not fit size_t). */
POSENC_NODISCARD
posenc_status posenc_t5_bias_f32(const float *table, uint32_t num_buckets, uint32_t n_head,
                                 uint32_t max_distance, int bidirectional, uint32_t n_query,
                                 uint32_t n_key, int64_t q_offset, unsigned n_threads,
                                 float *out);

/* ------------------------------------------------------------------------- */
/* 1.7 Sinusoids as checkpoints lay them out (src/math/sinusoid_layout.c)    */
/* ------------------------------------------------------------------------- */

/*
 * The sinusoid of 1.2 in the layouts, frequency rules, offsets and float
 * arithmetic of real checkpoints. Position p (an integer, negative allowed:
 * XLNet's distances) reads p + offset; frequency k is w_k; s_k = sin(p w_k),
 * c_k = cos(p w_k). A row of D elements (F = number of frequencies):
 *
 *   INTERLEAVED [scsc..]  out[2k] = s_k, out[2k+1] = c_k        (the lesson)
 *   SIN_COS     [ss..cc]  out[k] = s_k (k < F), out[F + k] = c_k (Marian,
 *                         Pegasus, RoFormer's table, CTRL, XLNet, fairseq)
 *   COS_SIN     [cc..ss]  out[k] = c_k, out[F + k] = s_k         (MusicGen)
 *
 *   FREQ_POWER    w_k = base^(-2k/D), F = ceil(D/2); odd D: the first block
 *                 has F entries, the second F - 1 (Marian's "sentinel").
 *   FREQ_FAIRSEQ  w_k = exp(-k ln(base) / (D/2 - 1)), F = D/2 (note the
 *                 divisor D/2 - 1, not D); odd D: out[D-1] = 0. D >= 4.
 *
 * e.g. D = 6, FREQ_POWER: INTERLEAVED [s0 c0 s1 c1 s2 c2], SIN_COS
 * [s0 s1 s2 c0 c1 c2]; D = 7, FAIRSEQ, SIN_COS [s0 s1 s2 c0 c1 c2 0].
 *
 * Arithmetic of the _f32 output (the _f64 output is always the exact value,
 * within 2 ulps):
 *   ROUND_ONCE  the exact value rounded once to float: numpy float64 then
 *               torch.FloatTensor (Marian, Pegasus, RoFormer), the lesson.
 *   TORCH_F32   the float32 steps of the family's torch code: for
 *               FREQ_POWER CTRL's and XLNet's e = (float)(2k) / D,
 *               w = 1 / powf(base, e), a = (float)p * w; for FREQ_FAIRSEQ
 *               fairseq's c = ln(base) / (D/2 - 1) in double,
 *               w = expf((float)k * (float)-c), a = (float)p * w; then
 *               sinf(a), cosf(a). Each float function here is the correctly
 *               rounded one; a is as torch forms it, so at large positions
 *               the value follows torch's float angle, not the exact one.
 *               torch's vectorised (SLEEF) functions on CPU are within an ulp
 *               of these: sinf/cosf differ by 1 ulp in about 4% of values,
 *               and expf at a few k (24 of 32; 96, 126, 239, 401 of 512),
 *               which moves those columns by up to |p| ulp(w_k)
 *               (tests/hf/test_schemes_hf.py measures both).
 * Family citations are in src/math/sinusoid_layout.c.
 */
typedef enum posenc_sinusoid_order {
    POSENC_SINUSOID_INTERLEAVED = 0, /* [scsc..] */
    POSENC_SINUSOID_SIN_COS = 1,     /* [ss..cc] */
    POSENC_SINUSOID_COS_SIN = 2      /* [cc..ss] */
} posenc_sinusoid_order;

typedef enum posenc_sinusoid_freqs {
    POSENC_SINUSOID_FREQ_POWER = 0,  /* base^(-2k/D) */
    POSENC_SINUSOID_FREQ_FAIRSEQ = 1 /* exp(-k ln(base) / (D/2 - 1)) */
} posenc_sinusoid_freqs;

typedef enum posenc_sinusoid_arith {
    POSENC_SINUSOID_ROUND_ONCE = 0, /* exact, rounded once to float */
    POSENC_SINUSOID_TORCH_F32 = 1   /* the family's float32 steps */
} posenc_sinusoid_arith;

typedef struct posenc_sinusoid_spec {
    posenc_sinusoid_order order;
    posenc_sinusoid_freqs freqs;
    posenc_sinusoid_arith arith;
    double base;    /* 10000 in every family (Pegasus-X: max_scale) */
    int64_t offset; /* added to each position: fairseq's padding_idx + 1
                       (M2M100, NLLB, XGLM, Speech2Text, Kosmos-2), else 0 */
} posenc_sinusoid_spec;

/* The families' specs (base 10000, the given offset):
 *   LESSON    INTERLEAVED, POWER,   ROUND_ONCE  (posenc_sinusoid_fill's values)
 *   MARIAN    SIN_COS,     POWER,   ROUND_ONCE  (Marian/Opus-MT, Pegasus,
 *                                                RoFormer's table)
 *   CTRL      SIN_COS,     POWER,   TORCH_F32   (CTRL; XLNet's relative
 *                                                sinusoid, at its distances)
 *   FAIRSEQ   SIN_COS,     FAIRSEQ, TORCH_F32   (M2M100, NLLB-MoE, XGLM,
 *                                                Speech2Text, Kosmos-2 with
 *                                                offset padding_idx + 1;
 *                                                Pegasus-X with offset 0 and
 *                                                base max_scale, even D)
 *   MUSICGEN  COS_SIN,     FAIRSEQ, TORCH_F32   (offset 0) */
typedef enum posenc_sinusoid_family {
    POSENC_SINUSOID_LESSON = 0,
    POSENC_SINUSOID_MARIAN = 1,
    POSENC_SINUSOID_CTRL = 2,
    POSENC_SINUSOID_FAIRSEQ = 3,
    POSENC_SINUSOID_MUSICGEN = 4
} posenc_sinusoid_family;

/* *spec = the family's spec with the given offset.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE (unknown family), POSENC_ERR_POS
 * (|offset| > POSENC_MAX_POS). */
POSENC_NODISCARD
posenc_status posenc_sinusoid_family_spec(posenc_sinusoid_family family, int64_t offset,
                                          posenc_sinusoid_spec *spec);

/* 1 when a table of spec's family grows past its rows as the sequence
 * does (fairseq's and MusicGen's make_weights: FREQ_FAIRSEQ with a padding
 * offset, or COS_SIN), 0 when it ends at them, where transformers raises
 * (Marian's, Pegasus's, CTRL's, TIPSv2's, Whisper's, DistilBERT's
 * nn.Embedding or buffer); 0 for a NULL spec. golden, plot and Python give
 * no vector past a table that ends. Thread-safe; no allocation. */
int posenc_sinusoid_table_grows(const posenc_sinusoid_spec *spec);

/* out is row-major [n_pos, D]: row t is the vector at pos[t] + spec->offset
 * in spec's layout (above). pos[t] are the token indices before the offset
 * (fairseq's row padding_idx, zeroed in its table, is never read at offsets
 * past it). n_pos = 0 writes nothing (pos and out may then be NULL).
 * Valid: |pos[t]|, |spec->offset|, |pos[t] + offset| <= POSENC_MAX_POS;
 * 1 <= D <= POSENC_MAX_DIM (D >= 4 for FREQ_FAIRSEQ); base finite > 1.
 * Thread-safe; no allocation.
 * Errors, in this order: POSENC_ERR_NULL, POSENC_ERR_LAYOUT (an enum of
 * spec out of range), POSENC_ERR_DIM, POSENC_ERR_BASE, POSENC_ERR_POS,
 * POSENC_ERR_OVERFLOW (n_pos * D). */
POSENC_NODISCARD
posenc_status posenc_sinusoid_layout_fill_f64(const posenc_sinusoid_spec *spec,
                                              const int64_t *pos, size_t n_pos, uint32_t D,
                                              double *out);
/* The same in float, with spec->arith's arithmetic. */
POSENC_NODISCARD
posenc_status posenc_sinusoid_layout_fill_f32(const posenc_sinusoid_spec *spec,
                                              const int64_t *pos, size_t n_pos, uint32_t D,
                                              float *out);

/* ------------------------------------------------------------------------- */
/* 1.8 Relative position ids beyond T5: MPNet, CPM-Ant, LongT5, VITS,       */
/*     DeBERTa (src/math/mpnet.c, cpmant.c, longt5.c, window_rel.c,          */
/*     deberta.c)                                                            */
/* ------------------------------------------------------------------------- */

/* MPNet's bucket of (query, key): transformers' MPNet relative_position_bucket
 * (num_buckets 32, max_distance 128 in every checkpoint) is T5's
 * bidirectional bucket line for line (src/math/mpnet.c), so this is
 * posenc_t5_bucket(query_pos, key_pos, num_buckets, max_distance, 1):
 * buckets 0 .. 15 for keys at or before the query, 16 .. 31 after it.
 * Ranges and errors: posenc_t5_bucket's. */
POSENC_NODISCARD
posenc_status posenc_mpnet_bucket(int64_t query_pos, int64_t key_pos, uint32_t num_buckets,
                                  uint32_t max_distance, uint32_t *bucket);

/* CPM-Ant's bucket of (query, key) with their segments: inside one segment
 * (query_segment == key_segment) T5's bidirectional bucket of key - query,
 * posenc_t5_bucket(query_pos, key_pos, num_buckets, max_distance, 1);
 * across segments num_buckets + query_segment * num_segments + key_segment
 * (config position_bias_num_buckets, position_bias_max_distance,
 * segment_types). Valid: posenc_t5_bucket's ranges, segments <
 * num_segments. Errors: POSENC_ERR_NULL, POSENC_ERR_POS, POSENC_ERR_RANGE. */
POSENC_NODISCARD
posenc_status posenc_cpmant_bucket(int64_t query_pos, int64_t key_pos, uint32_t query_segment,
                                   uint32_t key_segment, uint32_t num_buckets,
                                   uint32_t max_distance, uint32_t num_segments, uint32_t *bucket);

/* LongT5's transient-global side positions (encoder, no padding): for token
 * t of n_tok and global block k < *n_global = n_tok / global_block_size,
 *     out[t * *n_global + k] = k - min(t / global_block_size, *n_global - 1)
 * (a last partial block's tokens join the block before it); the side bias
 * is T5's bucket of it, posenc_t5_bucket(k - out[..], k, num_buckets,
 * max_distance, 1) (query the token's block, key k: positions are never
 * negative) read from global_relative_attention_bias
 * (posenc_model_layer_side_buckets from a config). The local
 * attention's buckets are posenc_t5_bucket(block_length + i, j, ...) for
 * query i < block_length = local_radius + 1 and key j < 3 block_length of
 * its window (src/math/longt5.c). *n_global is always set; out may be NULL
 * with cap 0 to ask for the count.
 * Valid: global_block_size >= 1, n_tok <= POSENC_MAX_POS + 1.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE (global_block_size 0, cap too
 * small), POSENC_ERR_POS, POSENC_ERR_OVERFLOW. */
POSENC_NODISCARD
posenc_status posenc_longt5_side_positions(uint32_t n_tok, uint32_t global_block_size, int64_t *out,
                                           size_t cap, size_t *n_global);

/* VITS's windowed relative positions (Shaw et al.): key key_pos of query
 * query_pos reads *row = (key_pos - query_pos) + window_size of its learned
 * tables emb_rel_k and emb_rel_v (2 window_size + 1 rows, config
 * window_size, 4 by default), or nothing (*row = -1: a zero vector) when
 * |key_pos - query_pos| > window_size (src/math/window_rel.c).
 * Valid: positions 0 .. POSENC_MAX_POS, 1 <= window_size <= POSENC_MAX_POS.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_POS, POSENC_ERR_RANGE. */
POSENC_NODISCARD
posenc_status posenc_window_rel_index(int64_t query_pos, int64_t key_pos, uint32_t window_size,
                                      int64_t *row);

/* DeBERTa-v2/v3's log bucket of the relative position rel = query - key
 * (make_log_bucket_position, bucket_size = config position_buckets,
 * max_position = max_relative_positions), mid = bucket_size / 2:
 *     |rel| <= mid:  rel
 *     otherwise:     sign(rel) * (ceil(ln(|rel| / mid) / ln((max_position - 1)
 *                    / mid) * (mid - 1)) + mid)
 * in transformers' float32 steps (src/math/deberta.c), so the integers are
 * transformers' own. Not clamped: |result| grows past bucket_size for
 * |rel| >= max_position (the attention clamps its index later).
 * Valid: |rel| <= POSENC_MAX_POS, 2 <= bucket_size <= POSENC_DEBERTA_MAX_BUCKETS,
 * 2 <= max_position <= POSENC_MAX_POS, and the float ln((max_position - 1) / mid)
 * not 0 (max_position - 1 == mid divides by zero in transformers too). With
 * max_position - 1 < mid the logarithm is negative and so are some buckets of
 * positive rel, as in transformers (deberta-v2 defaults max_relative_positions
 * to max_position_embeddings; the registry passes what the model passes).
 * Errors: POSENC_ERR_NULL, POSENC_ERR_POS, POSENC_ERR_RANGE. */
#define POSENC_DEBERTA_MAX_BUCKETS 1048576u
POSENC_NODISCARD
posenc_status posenc_deberta_log_bucket(int64_t rel, uint32_t bucket_size, uint32_t max_position,
                                        int64_t *bucket);

/* Every step of one log bucket, for worked traces. */
typedef struct posenc_deberta_trace {
    int64_t relative_position; /* rel = query - key */
    uint32_t mid;              /* bucket_size / 2 */
    int64_t abs_pos;           /* mid - 1 if |rel| < mid, else |rel| */
    int is_small;              /* abs_pos <= mid: the bucket is rel itself */
    /* float32 steps, set when !is_small: */
    float ratio;               /* abs_pos / mid */
    float log_ratio;           /* ln(ratio) */
    float log_max;             /* ln((float)((max_position - 1) / mid)) */
    float scaled;              /* log_ratio / log_max * (mid - 1) */
    float log_pos;             /* ceil(scaled) + mid */
    double exact_scaled;       /* the same quantity in exact arithmetic (double) */
    int64_t bucket;            /* the result, as posenc_deberta_log_bucket */
} posenc_deberta_trace;

/* Fills *out with the steps of posenc_deberta_log_bucket for the same
 * arguments. Same ranges and errors. */
POSENC_NODISCARD
posenc_status posenc_deberta_log_bucket_explain(int64_t rel, uint32_t bucket_size,
                                                uint32_t max_position, posenc_deberta_trace *out);

/* build_relative_position of DeBERTa (v1 and v2): out is row-major
 * [n_query, n_key], out[i * n_key + j] = i - j (query i, key j, both from
 * 0), log-bucketed as above when bucket_size > 0 and max_position > 0 (v2
 * with position_buckets > 0), else the plain distance (v1; v2 with
 * position_buckets <= 0: pass 0, 0).
 * Valid: n_query, n_key <= POSENC_MAX_POS + 1; bucket parameters as above.
 * Errors: POSENC_ERR_NULL (out NULL with n_query * n_key > 0), POSENC_ERR_POS,
 * POSENC_ERR_RANGE, POSENC_ERR_OVERFLOW. */
POSENC_NODISCARD
posenc_status posenc_deberta_relative_ids(uint32_t n_query, uint32_t n_key, uint32_t bucket_size,
                                          uint32_t max_position, int64_t *out);

/* ------------------------------------------------------------------------- */
/* 1.9 Relative sinusoids: XLNet, Funnel (src/math/xlnet.c, src/math/funnel.c) */
/* ------------------------------------------------------------------------- */

/* The distances XLNet's relative attention reads, in its order:
 *     bidirectional (attn_type "bi"):  klen, klen - 1, ..., -qlen + 1
 *                                      (*n_out = klen + qlen)
 *     unidirectional ("uni"):          klen, klen - 1, ..., 0
 *                                      (*n_out = klen + 1)
 * each clamped to [-clamp_len, clamp_len] when clamp_len > 0. Their vectors
 * are posenc_sinusoid_layout_fill_f32 with
 * posenc_sinusoid_family_spec(POSENC_SINUSOID_CTRL, 0) and D = d_model:
 * [sin | cos] of pos / 10000^(2k/d) in float32 steps. bi_data's second,
 * negated sequence (pretraining only) is not produced.
 * *n_out is always set; out may be NULL with cap 0 to ask for the count.
 * Valid: 1 <= qlen, qlen and klen <= POSENC_MAX_POS, clamp_len <= POSENC_MAX_POS.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_POS, POSENC_ERR_RANGE (cap < *n_out,
 * clamp_len too large). */
POSENC_NODISCARD
posenc_status posenc_xlnet_rel_positions(uint32_t qlen, uint32_t klen, int bidirectional,
                                         int64_t clamp_len, int64_t *out, size_t cap,
                                         size_t *n_out);

/* Funnel Transformer's relative distances (attention_type "relative_shift")
 * for block `block` (0-based) of a sequence of seq_len tokens, in its
 * order: pooling = 0 the distances of its attention among the block's own
 * (pooled) positions, pooling = 1 (block >= 1) those of the first layer's
 * pooled queries against the previous block's keys. The positions pool as
 * Funnel's config says: separate_cls keeps the <cls> token at 1 - 2^b,
 * truncate_seq drops the last token before each pooling. Their vectors are
 * posenc_sinusoid_layout_fill_f32 with POSENC_SINUSOID_CTRL's spec and D =
 * d_model (src/math/funnel.c). The "factorized" attention type uses the
 * same sinusoid at positions 0 .. seq_len - 1. *n_out is always set; out
 * may be NULL with cap 0 to ask for the count.
 * Valid: 1 <= seq_len <= POSENC_FUNNEL_MAX_LEN, block <= POSENC_FUNNEL_MAX_BLOCKS.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_POS (seq_len), POSENC_ERR_RANGE (block,
 * pooling at block 0, cap < *n_out). */
#define POSENC_FUNNEL_MAX_LEN 16777216u
#define POSENC_FUNNEL_MAX_BLOCKS 24u
POSENC_NODISCARD
posenc_status posenc_funnel_rel_positions(uint32_t seq_len, uint32_t block, int pooling,
                                          int separate_cls, int truncate_seq, int64_t *out,
                                          size_t cap, size_t *n_out);

/* Every step of one frequency of Transformer-XL's relative sinusoid (XLNet's
 * and Funnel's vectors: POSENC_SINUSOID_CTRL's spec), for worked traces:
 * distance dist, width D, frequency k < D / 2. */
typedef struct posenc_rel_sinusoid_step {
    float e;            /* (float)(2k) / D (Funnel's k / (D/2) rounds the same) */
    float w;            /* 1 / pow(10000, e) in float: inv_freq */
    float angle;        /* (float)dist * w: the code's float angle */
    float sin_f32;      /* sin(angle), out[k], as posenc_sinusoid_layout_fill_f32 */
    float cos_f32;      /* cos(angle), out[D/2 + k] */
    double w_exact;     /* 10000^(-2k/D) */
    double angle_exact; /* dist * w_exact */
    double sin_exact;   /* sin(angle_exact), as posenc_sinusoid_layout_fill_f64 */
    double cos_exact;
} posenc_rel_sinusoid_step;

/* Fills *out with the steps above. Valid: |dist| <= POSENC_MAX_POS, D even
 * in 2..POSENC_MAX_DIM, k < D / 2. Errors: POSENC_ERR_NULL, POSENC_ERR_POS,
 * POSENC_ERR_DIM (D), POSENC_ERR_RANGE (k), POSENC_ERR_NOMEM (a row of D
 * values is allocated during the call). */
POSENC_NODISCARD
posenc_status posenc_rel_sinusoid_explain(int64_t dist, uint32_t D, uint32_t k,
                                          posenc_rel_sinusoid_step *out);

/* Funnel's token positions at block `block` (attention_type "factorized",
 * and the length of every block's sequence): 0 .. seq_len - 1 pooled block
 * times by its stride_pool, each pooling
 *     separate_cls:  ([p0] + p)[:-1:2] with truncate_seq, ([p0] + p)[::2] without
 *     otherwise:     p[::2]
 * (modeling_funnel.py L254-281). *n_out is the block's sequence length;
 * *n_out is always set, out may be NULL with cap 0 to ask for the count.
 * *pooled (may be NULL) = 1 when the code pools at every block up to
 * `block` at this length (its encoder skips the pooling of a sequence of
 * at most 2 tokens with separate_cls, else 1: L558-560).
 * Valid and errors: those of posenc_funnel_rel_positions. */
POSENC_NODISCARD
posenc_status posenc_funnel_factorized_positions(uint32_t seq_len, uint32_t block,
                                                 int separate_cls, int truncate_seq,
                                                 int64_t *out, size_t cap, size_t *n_out,
                                                 int *pooled);

/* ------------------------------------------------------------------------- */
/* 1.10 RoFormer's rotation (src/math/roformer.c)                             */
/* ------------------------------------------------------------------------- */

/* Rotates x[0..head_dim) in place as RoFormer does (queries, keys, and
 * values when rotary_value): for each pair k < head_dim / 2,
 *     x'[2k]   = x[2k] c_k - x[2k+1] s_k
 *     x'[2k+1] = x[2k+1] c_k + x[2k] s_k,   theta_k = pos * base^(-2k/head_dim)
 * i.e. interleaved RoPE [cscs]: _f64 is posenc_rope_apply_f64(pos, head_dim,
 * base, POSENC_LAYOUT_INTERLEAVED, POSENC_FORWARD, x). _f32 takes c_k, s_k
 * from RoFormer's float table (exact values rounded once) and rounds each
 * product, then the sum, in float, as transformers' three tensor operations
 * do. RoFormer's base is 10000.
 * Valid: 0 <= pos <= POSENC_MAX_POS, head_dim even, 2 <= head_dim <=
 * POSENC_MAX_DIM, base finite > 1.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_POS, POSENC_ERR_DIM, POSENC_ERR_BASE. */
POSENC_NODISCARD
posenc_status posenc_roformer_rotate_f32(int64_t pos, uint32_t head_dim, double base, float *x);
POSENC_NODISCARD
posenc_status posenc_roformer_rotate_f64(int64_t pos, uint32_t head_dim, double base, double *x);

/* ------------------------------------------------------------------------- */
/* 1.11 Other position ids: LayoutLM boxes, TAPAS cells, Reformer's axes     */
/*      (src/math/box2d.c, src/math/tapas.c, src/math/axial.c)               */
/* ------------------------------------------------------------------------- */

/* Indices into ids[6] of posenc_box2d_ids. */
enum {
    POSENC_BOX2D_X0 = 0, /* row of x_position_embeddings: left */
    POSENC_BOX2D_Y0 = 1, /* row of y_position_embeddings: upper */
    POSENC_BOX2D_X1 = 2, /* row of x_position_embeddings: right */
    POSENC_BOX2D_Y1 = 3, /* row of y_position_embeddings: lower */
    POSENC_BOX2D_H = 4,  /* row of h_position_embeddings: y1 - y0 */
    POSENC_BOX2D_W = 5   /* row of w_position_embeddings: x1 - x0 */
};

/* The six learned-table rows a word's box (x0, y0, x1, y1), in LayoutLM's
 * 0..1000 page units, reads; the word's 2D embedding is the sum of those
 * rows. Valid: 0 <= box[i] < max_2d (max_2d_position_embeddings, 1024),
 * x0 <= x1, y0 <= y1.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE (max_2d = 0), POSENC_ERR_POS (a
 * coordinate outside the tables, or a negative height or width). */
POSENC_NODISCARD
posenc_status posenc_box2d_ids(const int64_t box[4], uint32_t max_2d, int64_t ids[6]);

/* TAPAS's position ids with reset_position_index_per_cell: token t of a
 * table's sequence sits in cell (column[t], row[t]) (token_type_ids[..., 1]
 * and [..., 2]; the question is cell (0, 0)); its position is its distance
 * from the cell's first token, capped at max_position_embeddings - 1:
 *     out[t] = min(max_position_embeddings - 1, t - min{s : cell(s) = cell(t)})
 * (src/math/tapas.c). O(n_tok^2) at worst; no allocation.
 * Valid: n_tok <= POSENC_TAPAS_MAX_TOKENS, max_position_embeddings >= 1.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE, POSENC_ERR_POS (n_tok). */
#define POSENC_TAPAS_MAX_TOKENS 65536u
POSENC_NODISCARD
posenc_status posenc_tapas_positions(const uint32_t *column, const uint32_t *row, size_t n_tok,
                                     uint32_t max_position_embeddings, int64_t *out);

/* Reformer's axial position embedding: with axial_pos_shape (h, w), position
 * pos reads *row = pos / w of the first axis's table and *col = pos % w of
 * the second's, and the vector is their concatenation [first | second]
 * (axial_pos_embds_dim (d0, d1)) (src/math/axial.c).
 * Valid: h, w >= 1, 0 <= pos < h * w.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE (h or w 0), POSENC_ERR_POS. */
POSENC_NODISCARD
posenc_status posenc_axial_ids(int64_t pos, uint32_t h, uint32_t w, int64_t *row, int64_t *col);

/* SAM 3 LiteText's resampled table: its text model adds, to token tok of a
 * sequence of seq_len tokens, the learned table of n_rows rows resized to
 * seq_len rows by F.interpolate(table [1, 1, n_rows, d], size=(seq_len, d),
 * mode="bilinear") (align_corners False, no antialias; the width axis keeps
 * its size, so it copies): the vector is
 *     (1 - weight1) * table[row0] + weight1 * table[row1]
 * with, in PyTorch's CPU float32 steps (aten UpSample.h
 * area_pixel_compute_scale / area_pixel_compute_source_index, the linear
 * kernel's guard_index_and_lambda):
 *     seq_len == n_rows: row0 = row1 = tok, weight1 = 0 (the table as is);
 *     else scale = (float)n_rows / (float)seq_len,
 *          src = fmaf(scale, (float)tok + 0.5f, -0.5f), 0 where negative,
 *          row0 = min(floor(src), n_rows - 1), row1 = row0 + (row0 < n_rows - 1),
 *          weight1 = min(max(src - row0, 0), 1); weight0 = 1.0f - weight1.
 * The fused multiply-add is what torch 2.13's x86 kernels (AVX2, AVX512)
 * compute; a build without FMA rounds the product first (1 ulp of src apart
 * at some tokens). src/math/resample.c.
 * Valid: 1 <= n_rows, seq_len <= 2^23, 0 <= tok < seq_len.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE (n_rows or seq_len), POSENC_ERR_POS
 * (tok). */
#define POSENC_RESAMPLE_MAX_ROWS 8388608
POSENC_NODISCARD
posenc_status posenc_resample_rows(int64_t n_rows, int64_t seq_len, int64_t tok, int64_t *row0,
                                   int64_t *row1, float *weight1);

/* ========================================================================= */
/* TIER 2 - THE MODEL: a model's RoPE over its q/k tensors                 */
/* ========================================================================= */

/* ------------------------------------------------------------------------- */
/* 2.1 A model's RoPE object (src/math/rope_params.c)                           */
/* ------------------------------------------------------------------------- */

/* Largest head_dim the tensor kernels and the cache accept. */
#define POSENC_ROPE_MAX_HEAD_DIM 1024u

/* How one model rotates each head: the frequencies of its pairs, which
 * elements are rotated, and the factor applied to cos and sin. Filled by
 * posenc_rope_init() (plain frequencies); read by the tensor kernels and the
 * cos/sin cache. A plain struct the caller owns (about 8 KiB); treat the
 * fields as read-only after init.
 *
 * A head of head_dim elements rotates its first rotary_dim elements and
 * passes the rest through (partial rotary, e.g. GPT-NeoX rotary_pct 0.25).
 * Pairs live in the rotary part only: interleaved (x[2k], x[2k+1]) or half
 * (x[k], x[k + rotary_dim/2]), k < rotary_dim/2, and the frequencies use
 * rotary_dim, not head_dim: inv_freq[k] = base^(-2k/rotary_dim). */
typedef struct posenc_rope {
    uint32_t head_dim;    /* elements per head, 1..POSENC_ROPE_MAX_HEAD_DIM */
    uint32_t rotary_dim;  /* leading elements rotated: even, 2..head_dim */
    posenc_layout layout; /* pair layout inside the rotary part */
    double base;          /* the base the frequencies came from */
    double attn_factor;   /* cos and sin are multiplied by this; 1 for plain RoPE */
    /* inv_freq[k] = inv_freq_hi[k] + inv_freq_lo[k] (a double-double, ~100
     * bits), radians per token, for k < rotary_dim / 2. Every apply call
     * accepts them negated (each pair then turns by -theta, as
     * POSENC_INVERSE on the positive ones, bit for bit): a model layer that
     * turns by -theta holds them so (posenc_model_layer_rope_sense). */
    double inv_freq_hi[POSENC_ROPE_MAX_HEAD_DIM / 2];
    double inv_freq_lo[POSENC_ROPE_MAX_HEAD_DIM / 2];
} posenc_rope;

/* Fills *r with plain RoPE: inv_freq[k] = base^(-2k/rotary_dim), attn_factor 1.
 * Valid: 1 <= head_dim <= POSENC_ROPE_MAX_HEAD_DIM; rotary_dim even,
 * 2 <= rotary_dim <= head_dim; base finite > 1.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_DIM (head_dim), POSENC_ERR_RANGE
 * (rotary_dim odd, 0 or > head_dim), POSENC_ERR_BASE, POSENC_ERR_LAYOUT. */
POSENC_NODISCARD
posenc_status posenc_rope_init(posenc_rope *r, uint32_t head_dim, uint32_t rotary_dim,
                               double base, posenc_layout layout);

/* ------------------------------------------------------------------------- */
/* 2.2 Scalings of real checkpoints (src/math/scaling.c)                        */
/* ------------------------------------------------------------------------- */

/* Long-context checkpoints change the plain frequencies. Each variant below
 * is a function of its parameters, named as in Hugging Face config.json
 * (rope_scaling / rope_parameters). Notation: d = rotary_dim, k = 0..d/2-1
 * the pair, f0(k) = base^(-2k/d) the plain frequency (radians per token),
 * L = original_max_position_embeddings (the trained length), s = factor.
 * Every variant reports an attention factor that multiplies cos and sin
 * (posenc_rope.attn_factor); it is 1 unless stated.
 *
 *   POSENC_ROPE_DEFAULT   f(k) = f0(k).
 *   POSENC_ROPE_LINEAR    "linear" (position interpolation): f(k) = f0(k) / s.
 *   POSENC_ROPE_NTK       static NTK-aware (not a Hugging Face rope_type; the
 *                         name "ntk" is posenc's): the base is stretched,
 *                         base' = base * s^(d/(d-2)), f(k) = base'^(-2k/d).
 *   POSENC_ROPE_DYNAMIC   "dynamic" NTK: base' = base * (s*Lc/L - (s-1))^(d/(d-2))
 *                         with Lc = max(cur_len, L); so f = f0 exactly while
 *                         cur_len <= L, and the stretch grows with the length.
 *                         (Hugging Face uses max_position_embeddings as L here.)
 *   POSENC_ROPE_YARN      "yarn" (Peng et al. 2023): correction dimensions
 *                         c(r) = d ln(L / (2 pi r)) / (2 ln base) for r =
 *                         beta_fast (lo) and beta_slow (hi), beta_fast >=
 *                         beta_slow (equal: a step); with truncate,
 *                         lo = floor(lo), hi = ceil(hi); then lo = max(lo, 0),
 *                         hi = min(hi, d - 1), and hi += 0.001 if lo == hi.
 *                         ramp(k) = clamp((k - lo) / (hi - lo), 0, 1);
 *                         f(k) = f0(k) * (1 - ramp(k)) + (f0(k) / s) * ramp(k).
 *                         Attention factor: attention_factor if > 0; else if
 *                         mscale and mscale_all_dim are both nonzero,
 *                         m(s, mscale) / m(s, mscale_all_dim); else m(s, 1),
 *                         with m(s, a) = 0.1 a ln(s) + 1 (1 when s <= 1).
 *                         (As Hugging Face: mscale alone is ignored.)
 *   POSENC_ROPE_LLAMA3    "llama3" (Llama 3.1): wavelength w(k) = 2 pi / f0(k).
 *                         w < L / high_freq_factor: kept, f = f0 (band HIGH);
 *                         w > L / low_freq_factor: f = f0 / s (band LOW);
 *                         between (band BLEND): g = (L / w - low_freq_factor) /
 *                         (high_freq_factor - low_freq_factor),
 *                         f = (1 - g) f0 / s + g f0.
 *   POSENC_ROPE_LONGROPE  "longrope" (Phi-3, Phi-4-mini): f(k) = f0(k) / e[k]
 *                         with e = long_factor when cur_len > L, else
 *                         short_factor. Attention factor: attention_factor if
 *                         > 0, else 1 when s <= 1, else
 *                         sqrt(1 + ln(s) / ln(L)) (s: the config's factor, or
 *                         max_position_embeddings / L: see the config reader).
 *   POSENC_ROPE_PROPORTIONAL "proportional" (Gemma 4's full-attention
 *                         layers): with p = partial_rotary_factor and
 *                         n = floor(p d / 2) (d = rotary_dim, which for
 *                         Gemma 4 is the whole head), f(k) = f0(k) / s for
 *                         k < n and f(k) = 0 for k >= n: the exponent 2k/d
 *                         is taken over the whole d, not over the 2n rotated
 *                         elements, and the pairs past n turn by angle 0
 *                         (cos 1, sin 0: passed through unchanged, also in
 *                         float). With the half layout the rotated elements
 *                         are h[0..n) and h[d/2..d/2+n). (transformers
 *                         modeling_rope_utils.py
 *                         _compute_proportional_rope_parameters.)
 *
 * Per-pair frequency factors (what ggml calls freq_factors) apply on top of
 * any variant: f(k) = f_variant(k) / freq_factors[k].
 *
 * Precision: every frequency is computed in double-double (error about 2^-94)
 * from the double parameters, including logs and powers; YaRN's ramp and
 * Llama 3's blend weight are double-double too, so inv_freq_lo is the true
 * low part in every variant (the only non-smooth steps, floor/ceil and the
 * band comparisons, are taken on the double-double values). */
typedef enum posenc_rope_type {
    POSENC_ROPE_DEFAULT = 0,
    POSENC_ROPE_LINEAR = 1,
    POSENC_ROPE_NTK = 2,
    POSENC_ROPE_DYNAMIC = 3,
    POSENC_ROPE_YARN = 4,
    POSENC_ROPE_LLAMA3 = 5,
    POSENC_ROPE_LONGROPE = 6,
    POSENC_ROPE_PROPORTIONAL = 7
} posenc_rope_type;

/* The config-file name of a type ("default", "linear", "ntk", "dynamic",
 * "yarn", "llama3", "longrope", "proportional"); a static string, "unknown"
 * outside the enum. */
const char *posenc_rope_type_name(posenc_rope_type type);

/* Parses a config-file name (exact, lower case; "su" is accepted for
 * longrope, its old Phi-3 name). Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE
 * (not a known name; *type untouched). */
POSENC_NODISCARD
posenc_status posenc_rope_type_parse(const char *name, posenc_rope_type *type);

/* One scaling: the type and its parameters. Fields a type does not use are
 * ignored (but must still be left at their posenc_rope_scaling_init values
 * or valid). The arrays are the caller's; they are read only during
 * posenc_rope_init_scaled / posenc_rope_explain_freqs. */
typedef struct posenc_rope_scaling {
    posenc_rope_type type;
    double factor;            /* s: >= 1 for linear, ntk, dynamic, yarn, llama3;
                                 > 0 for longrope (it only sets the attention factor)
                                 and proportional */
    double original_max_position_embeddings; /* L, tokens: finite, >= 1 (> 1 for
                                 longrope); used by dynamic, yarn, llama3, longrope */
    double beta_fast;         /* yarn: default 32; finite, beta_fast >= beta_slow > 0 */
    double beta_slow;         /* yarn: default 1 */
    int truncate;             /* yarn: nonzero (default) floors/ceils the correction range */
    double mscale;            /* yarn: 0 = absent; finite >= 0 */
    double mscale_all_dim;    /* yarn: 0 = absent; finite >= 0 */
    double attention_factor;  /* 0 = derive as documented above; else finite > 0,
                                 used as is (any type) */
    double low_freq_factor;   /* llama3: finite > 0 */
    double high_freq_factor;  /* llama3: finite > low_freq_factor */
    const double *short_factor; /* longrope: d/2 finite values > 0 */
    size_t n_short_factor;
    const double *long_factor;  /* longrope: d/2 finite values > 0 */
    size_t n_long_factor;
    const double *freq_factors; /* optional (NULL): d/2 finite values > 0, any type */
    size_t n_freq_factors;
    double partial_rotary_factor; /* proportional: p, finite, 0 < p <= 1 (default 1) */
} posenc_rope_scaling;

/* Sets *s to type with its defaults: factor 1, L 0 (must be set where used),
 * beta_fast 32, beta_slow 1, truncate 1, partial_rotary_factor 1,
 * everything else 0 / NULL.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE (type outside the enum). */
POSENC_NODISCARD
posenc_status posenc_rope_scaling_init(posenc_rope_scaling *s, posenc_rope_type type);

/* Fills *r like posenc_rope_init() but with the frequencies and attention
 * factor of scaling s (NULL means default). cur_len is the current sequence
 * length in tokens (0 .. POSENC_MAX_POS + 1), read by dynamic (Lc) and
 * longrope (long or short factors) only; pass 0 when unknown (trained
 * length behaviour). r->base is the base given (not a stretched one).
 * Errors: those of posenc_rope_init(); POSENC_ERR_RANGE for a parameter
 * outside its range above (a factor, beta, L, an attention factor that comes
 * out <= 0 or not finite, ntk/dynamic with rotary_dim < 4, type outside the
 * enum, dynamic with s * Lc / L past the largest double, L past
 * POSENC_MAX_POS + 1, or extreme values that drive a frequency to 0, below
 * the normal doubles (DBL_MIN), to infinity or NaN; proportional's pairs
 * past n are exactly 0 by definition and accepted), POSENC_ERR_NULL
 * (longrope without both lists), POSENC_ERR_DIM (a
 * list whose length is not rotary_dim / 2), POSENC_ERR_NOT_FINITE (a list
 * element NaN or infinite), POSENC_ERR_POS (cur_len). *r is untouched on
 * error. Thread-safe; no allocation. */
POSENC_NODISCARD
posenc_status posenc_rope_init_scaled(posenc_rope *r, uint32_t head_dim, uint32_t rotary_dim,
                                      double base, posenc_layout layout,
                                      const posenc_rope_scaling *s, int64_t cur_len);

/* Which rule set a pair's frequency (EXPLAIN FREQS). */
typedef enum posenc_freq_band {
    POSENC_BAND_UNIFORM = 0, /* the same rule for every pair: default, linear, ntk, dynamic */
    POSENC_BAND_HIGH = 1,    /* kept unscaled: Llama 3 short wavelength, YaRN ramp 0 */
    POSENC_BAND_LOW = 2,     /* divided by factor: Llama 3 long wavelength, YaRN ramp 1 */
    POSENC_BAND_BLEND = 3,   /* a blend of the two, weight in ramp */
    POSENC_BAND_LIST = 4,    /* divided by its own factor from a list (longrope) */
    POSENC_BAND_ZERO = 5     /* frequency 0, not rotated (proportional past its n pairs) */
} posenc_freq_band;

/* "uniform", "high", "low", "blend", "list", "zero"; "unknown" outside the
 * enum. */
const char *posenc_freq_band_name(posenc_freq_band band);

/* One pair's frequencies, before and after the scaling. */
typedef struct posenc_freq_info {
    uint32_t k;             /* pair index */
    double base_inv_freq;   /* f0(k) = base^(-2k/d), radians per token */
    double inv_freq;        /* f(k), scaled, as stored in posenc_rope (hi + lo rounded) */
    double base_wavelength; /* 2 pi / f0(k), tokens per turn */
    double wavelength;      /* 2 pi / f(k), tokens per turn (infinity when f(k) = 0) */
    posenc_freq_band band;
    double ramp;            /* weight of f0/s in f, 0..1: YaRN ramp(k), Llama 3
                               1 - g; 0 for other types */
    double pair_factor;     /* divisor from the lists: longrope e[k] times
                               freq_factors[k]; 1 when there are none */
} posenc_freq_info;

/* What the scaling as a whole did. */
typedef struct posenc_freqs_summary {
    double attn_factor;    /* the factor on cos and sin */
    double effective_base; /* ntk/dynamic: base'; otherwise base */
    double llama3_keep_below;   /* llama3: L / high_freq_factor, a wavelength in
                                   tokens: pairs with a shorter plain wavelength
                                   are kept; else 0 */
    double llama3_divide_above; /* llama3: L / low_freq_factor, tokens: pairs with a
                                   longer plain wavelength are divided by s; else 0 */
    double yarn_ramp_lo;        /* yarn: lo of the correction range, a pair index
                                   (ramp 0 at and below it); else 0 */
    double yarn_ramp_hi;        /* yarn: hi of the correction range as used (after
                                   the +0.001), a pair index (ramp 1 at and above
                                   it); else 0 */
    int uses_long_factor;  /* longrope: 1 when long_factor was chosen */
    int64_t len;           /* dynamic: Lc = max(cur_len, L); else cur_len */
} posenc_freqs_summary;

/* Explains scaling s (NULL = default) for rotary_dim and base at cur_len:
 * pairs[0 .. rotary_dim/2) receive each pair's information, *summary the
 * whole (either may be NULL). The same computation as
 * posenc_rope_init_scaled, so the frequencies agree bit for bit.
 * Valid: rotary_dim even, 2 .. POSENC_ROPE_MAX_HEAD_DIM; the rest as
 * posenc_rope_init_scaled, with the same errors (nothing written on error). */
POSENC_NODISCARD
posenc_status posenc_rope_explain_freqs(uint32_t rotary_dim, double base,
                                        const posenc_rope_scaling *s, int64_t cur_len,
                                        posenc_freq_info *pairs, posenc_freqs_summary *summary);

/* ------------------------------------------------------------------------- */
/* 2.3 A model's RoPE as its config says it (src/math/scaling.c)                */
/* ------------------------------------------------------------------------- */

/* Everything a model's config says about its RoPE, self-contained (the
 * lists are stored inside, so the struct may be copied freely; about 12 KiB).
 * Filled by posenc_rope_from_config() or by hand. */
typedef struct posenc_rope_config {
    uint32_t head_dim;        /* elements per head */
    uint32_t rotary_dim;      /* leading elements rotated */
    double base;              /* the base of the plain frequencies */
    posenc_layout layout;     /* pair layout the checkpoint's weights expect */
    int64_t max_position_embeddings; /* the config's value, 0 if absent */
    posenc_rope_scaling scaling; /* its three list pointers are ignored: the
                                    lists are the arrays below, with the
                                    counts in scaling.n_* */
    double short_factor[POSENC_ROPE_MAX_HEAD_DIM / 2];
    double long_factor[POSENC_ROPE_MAX_HEAD_DIM / 2];
    double freq_factors[POSENC_ROPE_MAX_HEAD_DIM / 2];
} posenc_rope_config;

/* *s = c->scaling with its list pointers aimed at c's arrays (NULL where the
 * count is 0). s stays valid while *c lives. Errors: POSENC_ERR_NULL. */
POSENC_NODISCARD
posenc_status posenc_rope_config_scaling(const posenc_rope_config *c, posenc_rope_scaling *s);

/* posenc_rope_init_scaled(r, c->head_dim, c->rotary_dim, c->base, c->layout,
 * <c's scaling>, cur_len), with the same errors. */
POSENC_NODISCARD
posenc_status posenc_rope_init_config(posenc_rope *r, const posenc_rope_config *c,
                                      int64_t cur_len);

/* ------------------------------------------------------------------------- */
/* 2.4 One head: the rotation contract (math/rope_vec.c, tensor/kernels.c)   */
/* ------------------------------------------------------------------------- */

/*
 * An inference engine rotates every query and key head of every token, every
 * layer. Sections 2.4 to 2.7 do that, one head (the reference) or whole
 * tensors at a time, described by a
 * posenc_rope (the model's frequencies, rotary_dim, layout, attn_factor), an
 * optional cos/sin cache, and strided views of q and k.
 *
 * Per head of head_dim elements, pair k (k < P = rotary_dim / 2) of token t
 * turns by theta = pos[t] * inv_freq[k]:
 *
 *     c = (float)(attn_factor * cos theta),  s = (float)(attn_factor * sin theta)
 *     x' = (x*c) - (y*s),   y' = (x*s) + (y*c)          (forward)
 *     the inverse (transpose, backward pass) uses -s instead of s
 *
 * where (x, y) = (h[2k], h[2k+1])        interleaved [cscs..cs|0000]
 *            or (h[k], h[k + P])         half-split  [cc..ss..|0000]
 * and the elements h[rotary_dim .. head_dim) ("0" above) are not rotated.
 *
 * Guarantees:
 * - float32: each product and each sum is rounded separately, in that order,
 *   with no fused multiply-add, on every path (scalar, AVX2, AVX-512), so the
 *   result is bit-identical to posenc_rope_vec_f32() on each head, whatever
 *   the thread count, the cache or the instruction set.
 * - bfloat16 / float16: each element is converted exactly to float32, rotated
 *   as above, and rounded back to nearest-even. Overflow gives +-inf, float16
 *   subnormals are produced and read exactly, NaN stays NaN (quiet; payload
 *   not guaranteed). Also bit-identical across paths.
 * - The tensor kernels do not check for NaN or infinity in the data (that
 *   would cost a pass over memory); such values propagate by IEEE rules.
 * - c and s come from the library's cos/sin block fill: the exact angle
 *   (double-double frequency times the integer position), each value within
 *   1 ulp of the exact one.
 *
 * Instruction sets are chosen once, at the first call, from cpuid and the
 * operating system's enabled vector state (xgetbv): AVX-512F, else AVX2 with
 * FMA and F16C, else plain C, for every vector loop of the library (the
 * tensor kernels and the cos/sin fills and evaluations alike). The
 * environment variable POSENC_ISA=scalar|avx2|avx512, read at that moment,
 * forces a path (a path the machine cannot run, or an unknown value, is
 * ignored); posenc_rope_isa() (3.3) names the path in use. Building with
 * `make POSENC_SCALAR_ONLY=1`, or on a machine other than x86-64, gives
 * the plain C path only. Every path gives the same bits: the only fused
 * multiply-adds are the error terms of exact products in the cos/sin
 * evaluation (in plain C the same exact values by Dekker's splitting, or
 * fma()), never in the rotations.
 */

/* Rotates one head in place, the single-vector reference of the tensor
 * kernels: x[0 .. r->head_dim) is one head; its first r->rotary_dim elements
 * turn by position pos as described above (POSENC_INVERSE: by -theta), the
 * rest are unchanged. For parameters from posenc_rope_init() this equals
 * posenc_rope_apply_f32(pos, rotary_dim, base, layout, dir, x) bit for bit.
 * Valid: r filled by posenc_rope_init() (or the same shape by other means),
 * 0 <= pos <= POSENC_MAX_POS.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_POS, POSENC_ERR_DIM / POSENC_ERR_RANGE /
 * POSENC_ERR_LAYOUT (a malformed r, as posenc_rope_init() would report;
 * also POSENC_ERR_RANGE for a non-finite attn_factor or dir outside the
 * enum), POSENC_ERR_NOT_FINITE
 * (an element of x is NaN or infinite; x is then unchanged). */
POSENC_NODISCARD
posenc_status posenc_rope_vec_f32(const posenc_rope *r, int64_t pos, posenc_direction dir,
                                  float *x);

/* x is one head of r->head_dim doubles, rotated in place at position pos:
 * for every pair k < rotary_dim/2 of r's layout inside the first
 * rotary_dim elements, with theta = pos * inv_freq[k] (the double-double
 * frequency times the exact position) and a = r->attn_factor,
 *     (x0, x1) -> (x0 a cos theta - x1 a sin theta, x0 a sin theta + x1 a cos theta);
 * elements rotary_dim .. head_dim-1 are left unchanged.
 * dir POSENC_INVERSE applies the transpose instead (sin negated, a kept): the
 * backward pass; it undoes the forward rotation only when a = 1 (otherwise
 * the rotated part comes back multiplied by a^2).
 * Valid: r filled by posenc_rope_init* (fields are checked), 0 <= pos <=
 * POSENC_MAX_POS. Errors: POSENC_ERR_NULL, POSENC_ERR_POS, POSENC_ERR_DIM /
 * POSENC_ERR_RANGE / POSENC_ERR_LAYOUT (r's fields inconsistent; RANGE also
 * for dir outside the enum), POSENC_ERR_NOT_FINITE (an element of x; x then
 * unchanged). */
POSENC_NODISCARD
posenc_status posenc_rope_vec_f64(const posenc_rope *r, int64_t pos, posenc_direction dir,
                                  double *x);

/* *out = ROPE(m, q) . ROPE(n, k) with r's rotation (posenc_rope_vec_f64)
 * for heads q and k of r->head_dim doubles, neither modified: the rotated
 * part contributes a^2 times the rotated dot product, the rest its plain
 * dot product. Depends on m - n only (through the angles). No allocation.
 * Errors: those of posenc_rope_vec_f64 (either position, either vector). */
POSENC_NODISCARD
posenc_status posenc_rope_vec_dot_f64(const posenc_rope *r, int64_t m, int64_t n,
                                      const double *q, const double *k, double *out);

/* ------------------------------------------------------------------------- */
/* 2.5 The cos/sin cache (src/tensor/cache.c)                                  */
/* ------------------------------------------------------------------------- */

/* The values c and s (see above) for positions 0 .. max_pos - 1 and every
 * pair, built once and shared read-only by every layer, head and thread.
 * Memory: max_pos * rotary_dim * 4 bytes plus about 8 KiB (e.g. 8 MiB for
 * rotary_dim 128 and 16384 positions). Opaque. */
typedef struct posenc_rope_cache posenc_rope_cache;

/* *bytes = the buffer size posenc_rope_cache_init() needs for r and max_pos.
 * Valid: r well formed (see posenc_rope_vec_f32), 1 <= max_pos <=
 * POSENC_MAX_POS + 1.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_DIM / POSENC_ERR_RANGE / POSENC_ERR_LAYOUT
 * (r), POSENC_ERR_POS (max_pos), POSENC_ERR_OVERFLOW (size exceeds size_t). */
POSENC_NODISCARD
posenc_status posenc_rope_cache_size(const posenc_rope *r, int64_t max_pos, size_t *bytes);

/* Builds a cache inside the caller's buffer buf of buf_size bytes (at least
 * posenc_rope_cache_size(), aligned to 16 bytes, e.g. from malloc) and sets
 * *out to it (a pointer into buf). The caller keeps owning buf: the cache
 * lives as long as buf does, and needs no free. Costs max_pos * rotary_dim / 2
 * cos/sin evaluations. The cache copies what it needs from r.
 * Errors: those of posenc_rope_cache_size, POSENC_ERR_NULL (buf or out),
 * POSENC_ERR_RANGE (buf_size too small or buf misaligned). */
POSENC_NODISCARD
posenc_status posenc_rope_cache_init(const posenc_rope *r, int64_t max_pos, void *buf,
                                     size_t buf_size, posenc_rope_cache **out);

/* The same with memory from malloc; release with posenc_rope_cache_free().
 * Extra error: POSENC_ERR_NOMEM. */
POSENC_NODISCARD
posenc_status posenc_rope_cache_create(const posenc_rope *r, int64_t max_pos,
                                       posenc_rope_cache **out);

/* Releases a cache from posenc_rope_cache_create(); NULL is accepted, and a
 * cache built by posenc_rope_cache_init() is left alone (its buffer is the
 * caller's). */
void posenc_rope_cache_free(posenc_rope_cache *cache);

/* Number of positions a cache covers (its max_pos); 0 for NULL. */
int64_t posenc_rope_cache_max_pos(const posenc_rope_cache *cache);

/* Points *cos_row and *sin_row at the rotary_dim / 2 values c[k] and s[k] of
 * position pos (forward sign), for callers with their own kernels. Read-only;
 * valid while the cache is.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_POS (pos < 0 or pos >= max_pos). */
POSENC_NODISCARD
posenc_status posenc_rope_cache_row(const posenc_rope_cache *cache, int64_t pos,
                                    const float **cos_row, const float **sin_row);

/* ------------------------------------------------------------------------- */
/* 2.6 q/k tensors (src/tensor/kernels.c)                                      */
/* ------------------------------------------------------------------------- */

/* Storage type of the q/k elements (arithmetic is always float32). */
typedef enum posenc_dtype {
    POSENC_DTYPE_F32 = 0,  /* IEEE binary32 */
    POSENC_DTYPE_BF16 = 1, /* bfloat16: the top 16 bits of a binary32 */
    POSENC_DTYPE_F16 = 2   /* IEEE binary16 */
} posenc_dtype;

/* Most threads one call uses (n_threads above this is an error). */
#define POSENC_MAX_THREADS 64u

/* How the heads and tokens of a view nest in memory. The library cannot know
 * a buffer's size, so the caller says which index is outer, and the strides
 * are checked against it for every n_tok: a view whose heads would overlap
 * each other or the next token is refused. */
typedef enum posenc_view_order {
    POSENC_TOKENS_OUTER = 0, /* [n_tok][n_head][head_dim] and fused QKV rows: the
                                default (a zero-initialized view) */
    POSENC_HEADS_OUTER = 1   /* [n_head][n_tok][head_dim], e.g. Hugging Face's
                                [batch][n_head][seq][head_dim] for one batch row */
} posenc_view_order;

/* One tensor (q or k) of n_tok tokens, n_head heads of r->head_dim elements:
 * element i of head h of token t is
 *     dst[t * tok_stride + h * head_stride + i]        (strides in elements)
 * so a view into a fused QKV buffer is just a pointer and two strides.
 * src NULL (or equal to dst): in place. Otherwise the input is read from
 *     src[t * src_tok_stride + h * src_head_stride + i]
 * and written to dst; the elements past rotary_dim are then copied, and src
 * must not overlap dst (not checked).
 * The strides must match order (and the src strides src_order):
 *   POSENC_TOKENS_OUTER  head_stride >= head_dim (when n_head > 1) and
 *                        tok_stride >= (n_head - 1) * head_stride + head_dim
 *                        (whatever n_tok is, also 1: decode)
 *   POSENC_HEADS_OUTER   tok_stride >= head_dim and (when n_head > 1)
 *                        head_stride >= (n_tok - 1) * tok_stride + head_dim
 * Gaps between heads or tokens are never touched.
 * A view with dst NULL and n_head 0 (all zero) is absent.
 * Fill one with designated initializers, or posenc_rope_view_dense():
 *     posenc_rope_view q = {.dst = qbuf, .n_head = 32,
 *                           .tok_stride = 3 * 4096, .head_stride = 128};  */
typedef struct posenc_rope_view {
    void *dst;
    const void *src;
    size_t n_head;
    size_t tok_stride, head_stride;
    size_t src_tok_stride, src_head_stride;
    posenc_view_order order;     /* of dst's strides */
    posenc_view_order src_order; /* of src's strides (unused in place) */
} posenc_rope_view;

/* The in-place view of a dense [n_tok][n_head][head_dim] tensor at data:
 * tok_stride n_head * head_dim, head_stride head_dim, tokens outer. Computes
 * nothing else and checks nothing (posenc_rope_qk checks). */
posenc_rope_view posenc_rope_view_dense(void *data, uint32_t n_head, uint32_t head_dim);

/* Everything posenc_rope_qk needs, read with designated initializers; fields
 * left out are zero, which is the default for each:
 *     posenc_rope_qk_args a = {.rope = &r, .cache = cache, .n_tok = T, .pos0 = past,
 *                              .q = posenc_rope_view_dense(q, 32, 128),
 *                              .k = posenc_rope_view_dense(k, 8, 128)};
 *     if (posenc_rope_qk(&a) != POSENC_OK) ...
 *
 *   rope      the model's RoPE parameters (required).
 *   cache     NULL: c and s are computed in this call, once per token (once
 *             per run of equal positions) and shared by all heads of q and k;
 *             or a cache built from the same frequencies, rotary_dim and
 *             attn_factor as rope, covering every position used. Same results.
 *   dtype     storage type of q and k (both); 0 is POSENC_DTYPE_F32.
 *   n_tok     tokens, >= 1.
 *   pos       n_tok positions, any values in 0 .. POSENC_MAX_POS (packed
 *             sequences, a KV-cache offset, a batch at different lengths);
 *             or NULL: positions pos0, pos0 + 1, .. pos0 + n_tok - 1.
 *   pos0      the first position when pos is NULL; must be 0 otherwise.
 *   q, k      the tensors; either may be absent (all zero: rotate only the
 *             other), not both. q and k must not overlap each other (not
 *             checked).
 *   direction POSENC_FORWARD (0) rotates by +theta, POSENC_INVERSE by -theta.
 *   n_threads 0 or 1 runs on the calling thread only; up to
 *             POSENC_MAX_THREADS splits the tokens between up to n_threads
 *             threads (pthreads, started and joined inside the call), but only
 *             when each thread gets at least 8 Mi elements (q + k of a Llama
 *             layer, 40 heads of 128, at n_tok >= 4096): starting and
 *             joining a thread costs ~40-80 us, and at n_tok 512 two threads
 *             started per call were measured slower than one. Smaller calls
 *             run on the calling thread; posenc_rope_qk_pool uses threads
 *             that are already running. If a thread cannot be started, the
 *             calling thread does its share. */
typedef struct posenc_rope_qk_args {
    const posenc_rope *rope;
    const posenc_rope_cache *cache;
    posenc_dtype dtype;
    size_t n_tok;
    const int64_t *pos;
    int64_t pos0;
    posenc_rope_view q, k;
    posenc_direction direction;
    unsigned n_threads; /* 0 = 1 */
} posenc_rope_qk_args;

/* Rotates a->q and a->k (grouped-query attention: any head counts) of
 * a->n_tok tokens by their positions, with a->rope's frequencies, layout,
 * rotary_dim and attn_factor (see the top of this section and
 * posenc_rope_qk_args).
 *
 * Allocates nothing (the no-cache path uses a fixed ~80 KiB of stack per
 * thread). Without a cache, a token costs two direct cos/sin evaluations
 * per pair when it is alone (decode: about the time of copying q and k once
 * more), and less per token in runs of consecutive positions.
 * Thread-safe: concurrent calls on distinct tensors are fine.
 * Every argument is checked before anything is written.
 * The arrays during a call: q, k and their sources are read and written
 * only by the call; the positions are read, never written, and must not
 * change until it returns (no other thread writing them, no overlap with
 * q, k or their sources). A caller that breaks this still gets a call
 * that stays inside its buffers: each position is read once where it is
 * used and checked there against the cache's range (one comparison per
 * token); a token whose position is then out of range is left unrotated
 * and the call returns POSENC_ERR_POS (the other tokens' values are then
 * unspecified: rotated at whatever valid position was read).
 * Errors: POSENC_ERR_NULL (a, a->rope, both views absent, a view with
 * n_head > 0 and dst NULL), POSENC_ERR_DIM / POSENC_ERR_RANGE /
 * POSENC_ERR_LAYOUT (malformed rope), POSENC_ERR_RANGE (n_tok 0, a view with
 * a dst and n_head 0, strides that do not fit the view's order, an unknown
 * order, pos0 != 0 with pos, unknown dtype or direction, n_threads too
 * large, a cache built for other parameters), POSENC_ERR_POS (a position
 * negative, past POSENC_MAX_POS, or at or past the cache's max_pos),
 * POSENC_ERR_OVERFLOW (an element offset or its byte offset does not fit in
 * a ptrdiff_t). */
POSENC_NODISCARD
posenc_status posenc_rope_qk(const posenc_rope_qk_args *a);

/* A pool of threads the caller creates once and passes to every
 * posenc_rope_qk_pool / posenc_mrope_qk_pool call (e.g. one per model, or
 * per engine worker). n_threads threads in all: n_threads - 1 workers that
 * persist until posenc_pool_free, and the calling thread of each call. A
 * call splits its tokens into equal consecutive slices and slice i always
 * runs on worker i (slice 0 on the caller), so calls over the same n_tok
 * give each thread the same tokens call after call, and each core finds its
 * part of q and k where the last call left it.
 * Cost: creating the pool starts the workers (~50-100 us each, once); a
 * call wakes them: under 1 us while they still spin after the last call
 * (a few thousand pause instructions), ~20 us from sleep (a condition
 * variable; a sleeping worker uses no CPU), measured on a loaded 2-vCPU VM
 * (bench/NOTES.md). Calls with less than 512 Ki elements per thread use
 * fewer threads (decode: the caller alone).
 * One call at a time per pool: concurrent calls on the same pool wait for
 * each other (use one pool per calling thread to run calls side by side).
 * Errors: POSENC_ERR_NULL (out), POSENC_ERR_RANGE (n_threads 0 or past
 * POSENC_MAX_THREADS), POSENC_ERR_NOMEM (memory, or a thread could not be
 * started; *out is then unchanged and nothing is left running). */
typedef struct posenc_pool posenc_pool;
POSENC_NODISCARD
posenc_status posenc_pool_create(unsigned n_threads, posenc_pool **out);

/* Stops and joins the workers and frees the pool; NULL is a no-op. No call
 * may be using the pool. */
void posenc_pool_free(posenc_pool *pool);

/* posenc_rope_qk on pool's threads: the same checks, errors and bits. With
 * a pool, a->n_threads 0 uses all the pool's threads, otherwise at most
 * a->n_threads of them (still <= POSENC_MAX_THREADS). pool NULL: exactly
 * posenc_rope_qk(a). */
POSENC_NODISCARD
posenc_status posenc_rope_qk_pool(const posenc_rope_qk_args *a, posenc_pool *pool);

/* ------------------------------------------------------------------------- */
/* 2.7 Decode: one token (src/tensor/kernels.c)                                */
/* ------------------------------------------------------------------------- */

/* Rotates one token forward, in place, at position pos: q is n_q_head dense
 * heads of r->head_dim floats ([n_q_head][head_dim]), k is n_k_head heads
 * ([n_k_head][head_dim]). Either may be NULL with its head count 0 (rotate
 * only the other), not both. cache may be NULL (c and s computed in the call:
 * two direct evaluations per pair) or a cache for r covering pos.
 * The same as posenc_rope_qk with n_tok 1 and dense views, so each head is
 * bit for bit posenc_rope_vec_f32(r, pos, POSENC_FORWARD, head).
 * Errors: those of posenc_rope_qk (POSENC_ERR_NULL for a NULL pointer with a
 * nonzero head count or both absent, POSENC_ERR_RANGE for a pointer with
 * head count 0). */
POSENC_NODISCARD
posenc_status posenc_rope_decode_f32(const posenc_rope *r, const posenc_rope_cache *cache,
                                     int64_t pos, float *q, uint32_t n_q_head, float *k,
                                     uint32_t n_k_head);

/* ------------------------------------------------------------------------- */
/* 2.8 M-RoPE and vision 2D RoPE (src/math/mrope.c, src/tensor/mrope_qk.c)   */
/* ------------------------------------------------------------------------- */
/*
 * M-RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL, GLM-4V): every token has three positions,
 * temporal t, height h and width w (a text token has t = h = w = its 1D
 * position). The P = rotary_dim / 2 pairs of a head are split between the
 * three axes by mrope_section = [s_t, s_h, s_w] (in pairs, s_t + s_h + s_w
 * = P); pair k keeps its frequency inv_freq[k] (r's, any scaling) and
 * turns by pos_axis(k)(token) * inv_freq[k]. Which axis a pair follows is
 * the rule:
 *
 *   POSENC_MROPE_CONTIGUOUS  (Qwen2-VL, Qwen2.5-VL, GLM-4V) blocks: pairs
 *       0 .. s_t-1 follow t, s_t .. s_t+s_h-1 follow h, the rest follow w.
 *       Hugging Face splits the duplicated cos/sin of length 2P by
 *       mrope_section * 2 = [s_t, s_h, s_w, s_t, s_h, s_w] and takes chunk i
 *       from axis i % 3 (apply_multimodal_rotary_pos_emb in
 *       transformers/models/qwen2_vl/modeling_qwen2_vl.py): both halves of
 *       the half layout get the same split, so pair k = (x[k], x[k + P])
 *       follows the axis of its block. [16, 24, 24], P = 64:
 *       TTTTTTTTTTTTTTTT HHH..(24)..HHH WWW..(24)..WWW
 *       GLM-4V (transformers/models/glm4v/modeling_glm4v.py
 *       recomposition_frequencies, apply_rotary_pos_emb) takes the same
 *       blocks of pairs, repeat_interleave(2)s them and rotates x[0::2],
 *       x[1::2] of the first rotary_dim elements only: r with
 *       POSENC_LAYOUT_INTERLEAVED and rotary_dim < head_dim (partial
 *       rotary), pair k = (x[2k], x[2k + 1]), the rest unchanged. [8, 12, 12],
 *       head_dim 128, rotary_dim 64 (factor 0.5):
 *       [t t .. (16 elements) h h .. (24) w w .. (24) | 64 unrotated]
 *       (GLM-4.5V, glm4v_moe: the same blocks in the half layout.)
 *   POSENC_MROPE_INTERLEAVED (Qwen3-VL, mrope_interleaved) round robin:
 *       pair k follows h if k % 3 == 1 and k < 3 s_h, w if k % 3 == 2 and
 *       k < 3 s_w, t otherwise (apply_interleaved_mrope in
 *       transformers/models/qwen3_vl/modeling_qwen3_vl.py overwrites the
 *       temporal frequencies at slice(1, 3 s_h, 3) and slice(2, 3 s_w, 3)).
 *       [24, 20, 20], P = 64: THWTHW..THW (60 pairs) TTTT.
 *       The section must be one this rule reproduces: exactly s_h pairs
 *       follow h and s_w follow w (e.g. 3 s_h <= P + 1).
 *   POSENC_MROPE_HW_ALTERNATING (ERNIE 4.5 VL, NeoMME) h and w pair by
 *       pair: pair k < 2 s_h follows h if k is even, w if k is odd; the
 *       last s_t pairs follow t. Needs s_h == s_w. [20, 22, 22], P = 64:
 *       HWHW..HW (44 pairs) TTT..(20)..TTT. ERNIE 4.5 VL
 *       (transformers/models/ernie4_5_vl_moe/modeling_ernie4_5_vl_moe.py
 *       L90-100, L104-126) writes its section [s_h, s_w, s_t] and
 *       pre-permutes inv_freq (the even, then the odd ones of the first
 *       s_h + s_w) before splitting it, then stack([h, w]).flatten(): the
 *       two permutations cancel, so pair k keeps inv_freq[k] = base^(-2k/d)
 *       and its angle is exactly this rule's; pairs (x[2k], x[2k + 1])
 *       (repeat_interleave(2), rotate_half_text). NeoMME
 *       (models/neomme/modeling_neomme.py L152-167) is the same rule over
 *       two axes, [0, P/2, P/2]: rows at the even pairs, columns at the odd
 *       ones, in the half layout (cat([angles, angles])).
 *
 * A cos/sin cache of r (posenc_rope_cache) serves M-RoPE as it is: row p
 * holds c and s of every pair at position p, and pair k of a token takes
 * them from row pos_axis(k); frequencies are per pair, so this is exact.
 *
 * Vision 2D RoPE (Qwen2-VL's vision tower, VisionRotaryEmbedding and
 * rot_pos_emb in modeling_qwen2_vl.py; Pixtral): a patch at (row, col) of a
 * head of D elements (D a multiple of 4, P = D/2 pairs) turns
 *     pair k < D/4   by row * base^(-2k / (D/2))
 *     pair k >= D/4  by col * base^(-2(k - D/4) / (D/2))
 * (the frequency index restarts in each half; base 10000 in Qwen2-VL).
 * It is M-RoPE with the frequencies above and sections [0, D/4, D/4]
 * (h = row, w = col), which is how posenc computes it. In the half layout
 * pair k is (x[k], x[k + D/2]), Hugging Face's convention
 * (cat(rotary_pos_emb, rotary_pos_emb) with rotate_half). In the
 * interleaved layout the same pairs k, with the same angles, are
 * (x[2k], x[2k + 1]): the first D/2 elements follow the row and the last
 * D/2 the column. That is the half-layout model with its q/k weights
 * permuted from half to interleaved order, not a different model.
 */

/* How mrope_section assigns pairs to axes (see above). */
typedef enum posenc_mrope_rule {
    POSENC_MROPE_CONTIGUOUS = 0,  /* blocks [t..t h..h w..w] (Qwen2-VL, Qwen2.5-VL, GLM-4V) */
    POSENC_MROPE_INTERLEAVED = 1, /* round robin [t h w t h w .. t t] (Qwen3-VL) */
    POSENC_MROPE_HW_ALTERNATING = 2 /* [h w h w .. h w t .. t] (ERNIE 4.5 VL, NeoMME) */
} posenc_mrope_rule;

/* The three position axes; their values index posenc_mrope.axis. */
typedef enum posenc_mrope_axis {
    POSENC_MROPE_AXIS_T = 0, /* temporal */
    POSENC_MROPE_AXIS_H = 1, /* height (row) */
    POSENC_MROPE_AXIS_W = 2  /* width (column) */
} posenc_mrope_axis;

/* An M-RoPE description: the sections, the rule, and (filled by
 * posenc_mrope_init) the axis of every pair. A plain struct the caller
 * owns (about 1 KiB); read-only after init. */
typedef struct posenc_mrope {
    uint32_t n_pairs;         /* P = rotary_dim / 2 */
    uint32_t section[3];      /* pairs per axis t, h, w; sum P */
    posenc_mrope_rule rule;
    uint8_t axis[POSENC_ROPE_MAX_HEAD_DIM / 2]; /* axis[k]: a posenc_mrope_axis */
} posenc_mrope;

/* "t", "h", "w" (axis), "contiguous", "interleaved", "hw-alternating" (rule); "unknown"
 * outside the enums. Static strings. */
const char *posenc_mrope_axis_name(posenc_mrope_axis axis);
const char *posenc_mrope_rule_name(posenc_mrope_rule rule);

/* Fills *m for n_pairs pairs (rotary_dim / 2 of the model's posenc_rope)
 * with section[0..3) = mrope_section [t, h, w] in pairs and rule.
 * Valid: 1 <= n_pairs <= POSENC_ROPE_MAX_HEAD_DIM / 2, section[0] +
 * section[1] + section[2] == n_pairs (a section may be 0), for the
 * interleaved rule a section it reproduces (see above), for the
 * hw-alternating rule section[1] == section[2].
 * Errors: POSENC_ERR_NULL, POSENC_ERR_DIM (n_pairs), POSENC_ERR_RANGE (the
 * sum, the rule value, a section the interleaved rule cannot make, s_h !=
 * s_w under the hw-alternating rule). *m is
 * untouched on error. */
POSENC_NODISCARD
posenc_status posenc_mrope_init(posenc_mrope *m, uint32_t n_pairs, const uint32_t section[3],
                                posenc_mrope_rule rule);

/* Rotates one head (r->head_dim elements) in place at positions (pt, ph,
 * pw): pair k turns by pos_axis(k) * inv_freq[k] with r's attn_factor, as
 * posenc_rope_vec_f64 does at one position (dir POSENC_INVERSE: the
 * transpose).
 * With pt == ph == pw it equals posenc_rope_vec_f64(r, pt, ...).
 * The single-vector references of the M-RoPE kernel.
 * Valid: r well formed, m->n_pairs == r->rotary_dim / 2, positions 0 ..
 * POSENC_MAX_POS. Errors: POSENC_ERR_NULL, those of posenc_rope_vec_f64,
 * POSENC_ERR_RANGE (m does not match r, m malformed, unknown dir), POSENC_ERR_POS,
 * POSENC_ERR_NOT_FINITE (x then unchanged). */
POSENC_NODISCARD
posenc_status posenc_mrope_vec_f64(const posenc_rope *r, const posenc_mrope *m, int64_t pt,
                                   int64_t ph, int64_t pw, posenc_direction dir, double *x);
/* The same in float, in the order of the tensor kernels (c and s are the
 * fill's floats of each pair at its axis' position; products and sums
 * rounded separately, no FMA): bit for bit what posenc_mrope_qk computes,
 * and with pt == ph == pw bit for bit posenc_rope_vec_f32. */
POSENC_NODISCARD
posenc_status posenc_mrope_vec_f32(const posenc_rope *r, const posenc_mrope *m, int64_t pt,
                                   int64_t ph, int64_t pw, posenc_direction dir, float *x);

/* *out = MROPE(m_pos, q) . MROPE(n_pos, k) for heads q and k of r->head_dim
 * doubles, neither modified (m_pos, n_pos: t, h, w each): both rotated by
 * posenc_mrope_vec_f64, then the dot product summed in order in double.
 * With every axis equal it is posenc_rope_vec_dot_f64 up to rounding. It
 * depends only on m_pos - n_pos per axis. No allocation.
 * Errors: those of posenc_mrope_vec_f64 (either position, either vector). */
POSENC_NODISCARD
posenc_status posenc_mrope_vec_dot_f64(const posenc_rope *r, const posenc_mrope *m,
                                       const int64_t m_pos[3], const int64_t n_pos[3],
                                       const double *q, const double *k, double *out);

/* posenc_rope_qk's arguments, and the M-RoPE parts. */
typedef struct posenc_mrope_qk_args {
    posenc_rope_qk_args base; /* as for posenc_rope_qk; base.pos is the temporal
                                 row t (or, with pos_h and pos_w NULL, the one
                                 row of a text-only call, where base.pos NULL
                                 and base.pos0 work as in posenc_rope_qk) */
    const posenc_mrope *mrope; /* the pair-to-axis table (required) */
    const int64_t *pos_h;     /* the height row, n_tok entries, or NULL */
    const int64_t *pos_w;     /* the width row, n_tok entries, or NULL */
} posenc_mrope_qk_args;

/* posenc_rope_qk for M-RoPE: token t of q and k turns with pair k at
 * position pos_axis(k)[t], where base.pos, pos_h, pos_w are the three
 * position rows of base.n_tok entries (posenc_mrope_positions makes them).
 * pos_h and pos_w both NULL: a text-only call, every axis at the one row
 * (p means p:p:p; the same bits as posenc_rope_qk(&a->base)).
 * Everything else (rope, cache, dtype, views, direction, n_threads,
 * strides, in place or not, no allocation) is as posenc_rope_qk; a cache
 * must cover every position of the three rows. The per-axis c/s come from
 * the same fill as every other path, gathered per pair, and the rotation is
 * the same per-ISA body, so the result is bit for bit posenc_mrope_vec_f32
 * on each head, on every instruction set and thread count.
 *     posenc_mrope_qk_args a = {.base = {.rope = &r, .n_tok = n, .pos = t_row,
 *                                        .q = posenc_rope_view_dense(q, 28, 128),
 *                                        .k = posenc_rope_view_dense(k, 4, 128)},
 *                               .mrope = &m, .pos_h = h_row, .pos_w = w_row};
 * Errors: those of posenc_rope_qk (positions: any of the three rows),
 * POSENC_ERR_NULL (a, mrope, base.pos with the other rows, or exactly one of
 * pos_h / pos_w NULL), POSENC_ERR_RANGE (mrope malformed or mrope->n_pairs
 * != rotary_dim / 2, base.pos0 != 0 with three rows). */
POSENC_NODISCARD
posenc_status posenc_mrope_qk(const posenc_mrope_qk_args *a);

/* posenc_mrope_qk on a caller's pool (as posenc_rope_qk_pool); pool NULL:
 * exactly posenc_mrope_qk(a). */
POSENC_NODISCARD
posenc_status posenc_mrope_qk_pool(const posenc_mrope_qk_args *a, posenc_pool *pool);

/* ---- M-RoPE position ids -------------------------------------------------- */

/* One run of a multimodal sequence. */
typedef enum posenc_mrope_kind {
    POSENC_MROPE_KIND_TEXT = 0,  /* n text tokens */
    POSENC_MROPE_KIND_IMAGE = 1, /* an image: grid t x h x w patches (t = 1 for images) */
    POSENC_MROPE_KIND_VIDEO = 2  /* a video: grid t x h x w patches, t temporal patches */
} posenc_mrope_kind;

typedef struct posenc_mrope_segment {
    posenc_mrope_kind kind;
    uint32_t n;               /* text: tokens (>= 1) */
    uint32_t t, h, w;         /* image/video: image_grid_thw / video_grid_thw, in
                                 patches before merging (h, w multiples of merge) */
    double seconds_per_grid;  /* video with tokens_per_second > 0 (Qwen2.5-VL):
                                 second_per_grid_t, seconds per temporal patch */
} posenc_mrope_segment;

/* The position rows of a sequence of n_seg segments, the rule of
 * get_rope_index (transformers/models/qwen2_vl/modeling_qwen2_vl.py and
 * qwen2_5_vl/modeling_qwen2_5_vl.py):
 *   st = 0 at the start, then (the largest position so far) + 1;
 *   text of n tokens: st + i on all three rows, i < n;
 *   image/video grid t x h x w with merge = spatial_merge_size: t * (h/merge)
 *     * (w/merge) tokens, in order (ti outer, then hi, then wi inner):
 *         temporal st + ti * step,  height st + hi,  width st + wi
 *     step = 1 when tokens_per_second == 0 (Qwen2-VL); for a video with
 *     tokens_per_second > 0 (Qwen2.5-VL) step = tokens_per_second *
 *     trunc(seconds_per_grid) (the checkpoints' code converts the seconds
 *     to an integer before multiplying; 0.5 s gives step 0), and 0 for an
 *     image (t = 1 there anyway).
 * Example (merge 2): text 5, image 1x4x6, text 3 gives 5 + 6 + 3 tokens:
 *     t: 0 1 2 3 4  5 5 5 5 5 5  8 9 10
 *     h: 0 1 2 3 4  5 5 5 6 6 6  8 9 10
 *     w: 0 1 2 3 4  5 6 7 5 6 7  8 9 10
 * pos_t, pos_h, pos_w: the caller's rows of capacity entries each; all three
 * NULL only counts the tokens into *n_tok (capacity ignored).
 * Valid: n_seg >= 1; text n >= 1; grids t, h, w >= 1, h and w multiples of
 * merge; 1 <= merge <= 64; seconds_per_grid finite, >= 0; every position
 * <= POSENC_MAX_POS.
 * Errors: POSENC_ERR_NULL (seg or n_tok; some but not all rows NULL),
 * POSENC_ERR_RANGE (a segment, merge, seconds, kind outside the enum; rows
 * shorter than the sequence: *n_tok then holds the length needed),
 * POSENC_ERR_POS (a position past POSENC_MAX_POS), POSENC_ERR_OVERFLOW (the
 * token count does not fit size_t). Nothing is written to the rows on error. */
POSENC_NODISCARD
posenc_status posenc_mrope_positions(const posenc_mrope_segment *seg, size_t n_seg,
                                     uint32_t merge, uint32_t tokens_per_second,
                                     int64_t *pos_t, int64_t *pos_h, int64_t *pos_w,
                                     size_t capacity, size_t *n_tok);

/* ---- vision 2D RoPE ------------------------------------------------------- */

/* Fills *r and *m for vision 2D RoPE on heads of head_dim elements (all
 * rotated): r->inv_freq[k] = base^(-2 (k mod D/4) / (D/2)) (double-double,
 * attn_factor 1), m = sections [0, D/4, D/4], contiguous. Use them with
 * posenc_rope2d_qk / _vec_* (or posenc_mrope_* with pos_h = row, pos_w =
 * col), and with posenc_rope_cache_create(r, ...) for a cache covering
 * every row and column.
 * Valid: head_dim a multiple of 4, 4 .. POSENC_ROPE_MAX_HEAD_DIM; base
 * finite > 1. Errors: POSENC_ERR_NULL, POSENC_ERR_DIM (head_dim),
 * POSENC_ERR_BASE, POSENC_ERR_LAYOUT. */
POSENC_NODISCARD
posenc_status posenc_rope2d_init(posenc_rope *r, posenc_mrope *m, uint32_t head_dim,
                                 double base, posenc_layout layout);

/* One head at (row, col), in place: posenc_mrope_vec_f64 / _f32 with
 * positions (row, row, col). Same errors. */
POSENC_NODISCARD
posenc_status posenc_rope2d_vec_f64(const posenc_rope *r, const posenc_mrope *m, int64_t row,
                                    int64_t col, posenc_direction dir, double *x);
POSENC_NODISCARD
posenc_status posenc_rope2d_vec_f32(const posenc_rope *r, const posenc_mrope *m, int64_t row,
                                    int64_t col, posenc_direction dir, float *x);

/* Patch tensors: posenc_mrope_qk with the rows in a->base.pos (pos_t =
 * pos_h = rows) and the columns in a->pos_w (base.n_tok entries each;
 * pos_h must be NULL). A dense [n_patch][n_head][head_dim] tensor is the
 * view posenc_rope_view_dense(x, n_head, head_dim). Same guarantees and
 * errors as posenc_mrope_qk (POSENC_ERR_NULL: rows or cols NULL;
 * POSENC_ERR_RANGE: pos_h given). */
POSENC_NODISCARD
posenc_status posenc_rope2d_qk(const posenc_mrope_qk_args *a);

/* (row, col) of each patch of a t x h x w grid in the order the vision
 * tower sees them (rot_pos_emb in modeling_qwen2_vl.py): merge x merge
 * windows in row-major order, patches row-major inside each window, the
 * whole repeated for each of the t temporal patches. rows and cols hold
 * t * h * w entries each.
 * Valid: t, h, w >= 1, 1 <= merge <= 64, h and w multiples of merge.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_RANGE, POSENC_ERR_OVERFLOW. */
POSENC_NODISCARD
posenc_status posenc_vision_patch_positions(uint32_t t, uint32_t h, uint32_t w, uint32_t merge,
                                            int64_t *rows, int64_t *cols);
/* ========================================================================= */
/* TIER 3 - UTILITIES                                                      */
/* ========================================================================= */

/* ------------------------------------------------------------------------- */
/* 3.1 Number syntax (src/common/parse.c): the command language and table files   */
/* ------------------------------------------------------------------------- */

/* Longest number text accepted, in bytes. */
#define POSENC_MAX_NUMBER_LEN 512u

/* Parses exactly the len bytes at s as a finite decimal number:
 *     [+-] digits [. digits] [(e|E) [+-] digits]   or   [+-] . digits [exponent]
 * (no hexadecimal, no "inf" or "nan", no surrounding space). s need not be
 * NUL-terminated. Values too small for a double become 0 or subnormal.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_FORMAT (not that syntax, or longer than
 * POSENC_MAX_NUMBER_LEN), POSENC_ERR_NOT_FINITE (overflows a double). */
POSENC_NODISCARD
posenc_status posenc_parse_number(const char *s, size_t len, double *out);

/* Parses exactly the len bytes at s as a decimal integer [+-] digits.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_FORMAT, POSENC_ERR_RANGE (outside int64). */
POSENC_NODISCARD
posenc_status posenc_parse_int64(const char *s, size_t len, int64_t *out);

/* ------------------------------------------------------------------------- */
/* 3.2 Explain and trace (src/math/angle.c)                                     */
/* ------------------------------------------------------------------------- */

/* Everything about one pair at one position, for worked traces (EXPLAIN). */
typedef struct posenc_pair_trace {
    uint32_t k;        /* pair index */
    double divisor;    /* base^(2k/D): the position is divided by this */
    double inv_freq;   /* base^(-2k/D), radians per token */
    double wavelength; /* 2 pi base^(2k/D), tokens per full turn */
    double angle;      /* pos / divisor, radians (the exact angle, rounded) */
    double sin_angle;  /* sin(angle), computed from the exact angle */
    double cos_angle;  /* cos(angle), computed from the exact angle */
} posenc_pair_trace;

/* Fills *out with the worked trace of pair k at pos (see posenc_pair_trace).
 * Same ranges and errors as posenc_angle. */
POSENC_NODISCARD
posenc_status posenc_pair_explain(int64_t pos, uint32_t k, uint32_t D, double base,
                                  posenc_pair_trace *out);

/* ------------------------------------------------------------------------- */
/* 3.3 Version, error messages, instruction set (src/common/status.c, cpu.c)      */
/* ------------------------------------------------------------------------- */

/* The version of the library actually linked, in the POSENC_VERSION_NUMBER
 * form; compare with the macro to detect a header/library mismatch. */
unsigned posenc_version_number(void);
/* The same as "MAJOR.MINOR.PATCH"; a static string, never NULL. */
const char *posenc_version_string(void);

/* A short English sentence describing status s (no trailing newline); a
 * static string, never NULL, also for values outside the enum. */
const char *posenc_strerror(posenc_status s);

/* Name of the instruction set every vector loop (tensor kernels, cos/sin
 * fills) uses in this process: "avx512", "avx2" or "scalar". A static
 * string. Thread-safe. */
const char *posenc_rope_isa(void);

/* ------------------------------------------------------------------------- */
/* 3.4 Deprecated names                                                      */
/* ------------------------------------------------------------------------- */

/* Enum values are named after their type: posenc_<type> has the values
 * POSENC_<TYPE>_* (a trailing _type dropped: posenc_rope_type ->
 * POSENC_ROPE_*). The 2.0 spellings below broke that rule; they still
 * compile as aliases of the 2.x names for one release and are then
 * removed. Define POSENC_NO_DEPRECATED to hide them now. (posenc_model.h
 * has the same for posenc_query_scale_type.) */
#ifndef POSENC_NO_DEPRECATED
#define POSENC_AXIS_T POSENC_MROPE_AXIS_T       /* deprecated: POSENC_MROPE_AXIS_T */
#define POSENC_AXIS_H POSENC_MROPE_AXIS_H       /* deprecated: POSENC_MROPE_AXIS_H */
#define POSENC_AXIS_W POSENC_MROPE_AXIS_W       /* deprecated: POSENC_MROPE_AXIS_W */
#define POSENC_SEG_TEXT POSENC_MROPE_KIND_TEXT   /* deprecated: POSENC_MROPE_KIND_TEXT */
#define POSENC_SEG_IMAGE POSENC_MROPE_KIND_IMAGE /* deprecated: POSENC_MROPE_KIND_IMAGE */
#define POSENC_SEG_VIDEO POSENC_MROPE_KIND_VIDEO /* deprecated: POSENC_MROPE_KIND_VIDEO */
#endif

#ifdef __cplusplus
}
#endif

#endif /* POSENC_H */
