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
 * double-double arithmetic (about 100 bits), multiplied by the exact integer
 * position, and reduced modulo pi/2 with a three-part pi/2, so sin and cos
 * keep their digits at every position 0 .. 2^31 - 1. Double results are within
 * 2 ulps of the exact value or 2^-60 absolute (whichever is larger); float
 * results are the double result rounded once, within 1 ulp (see
 * docs/ACCURACY.md).
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
 * - The library never exits, never prints, and keeps no global mutable state:
 *   every function is thread-safe on distinct output buffers.
 * - The caller owns every buffer. Only the learned-table loader allocates
 *   (and says so); posenc_learned_free() releases it and accepts NULL.
 * - Positions are integers 0 .. POSENC_MAX_POS (2^31 - 1), passed as int64_t so
 *   that a negative value is an error, not a wrap-around.
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

/* ------------------------------------------------------------------------- */
/* Version                                                                   */
/* ------------------------------------------------------------------------- */

#define POSENC_VERSION_MAJOR 0
#define POSENC_VERSION_MINOR 1
#define POSENC_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH, as zstd does. */
#define POSENC_VERSION_NUMBER \
    (POSENC_VERSION_MAJOR * 10000 + POSENC_VERSION_MINOR * 100 + POSENC_VERSION_PATCH)

/* The version of the library actually linked, in the POSENC_VERSION_NUMBER
 * form; compare with the macro to detect a header/library mismatch. */
unsigned posenc_version_number(void);
/* The same as "MAJOR.MINOR.PATCH"; a static string, never NULL. */
const char *posenc_version_string(void);

/* ------------------------------------------------------------------------- */
/* Limits                                                                    */
/* ------------------------------------------------------------------------- */

/* Largest position accepted anywhere (int32 max: every position a model with
 * int32 token indices can use). */
#define POSENC_MAX_POS 2147483647LL
/* Largest vector length D (and largest ALiBi head count H). */
#define POSENC_MAX_DIM 1048576u
/* Largest learned table, in elements (rows * columns): 2^27 doubles = 1 GiB. */
#define POSENC_LEARNED_MAX_ELEMS 134217728u
/* The original transformer's base. */
#define POSENC_DEFAULT_BASE 10000.0

/* ------------------------------------------------------------------------- */
/* Status codes (values are pinned: they never change between versions)      */
/* ------------------------------------------------------------------------- */

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

/* A short English sentence describing status s (no trailing newline); a
 * static string, never NULL, also for values outside the enum. */
const char *posenc_strerror(posenc_status s);

/* ------------------------------------------------------------------------- */
/* Layouts                                                                   */
/* ------------------------------------------------------------------------- */

/* Where pair k lives in a vector of length D (see the top of this file). */
typedef enum posenc_layout {
    POSENC_LAYOUT_INTERLEAVED = 0, /* [cscs..]: (x[2k], x[2k+1]) */
    POSENC_LAYOUT_HALF = 1         /* [cc..ss]: (x[k], x[k + D/2]) */
} posenc_layout;

/* The element indices of pair k in a vector of length D under layout.
 * Valid k: 0 <= k < D/2 (rounded down; the unpaired last element of an odd D
 * has no pair). Writes *i0 (first element, the one cos multiplies in the new
 * first coordinate) and *i1 (its partner).
 * Errors: POSENC_ERR_NULL, POSENC_ERR_DIM (D == 0 or > POSENC_MAX_DIM),
 * POSENC_ERR_RANGE (k >= D/2), POSENC_ERR_LAYOUT. */
posenc_status posenc_pair_index(uint32_t k, uint32_t D, posenc_layout layout,
                                uint32_t *i0, uint32_t *i1);

/* ------------------------------------------------------------------------- */
/* Frequencies and angles (src/angle.c)                                      */
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

/* inv_freq(k) = base^(-2k/D), radians per token, rounded to double.
 * Valid: 1 <= D <= POSENC_MAX_DIM, 0 <= 2k < D (k <= (D-1)/2, which
 * includes the sine-only pair of an odd D), base finite and > 1.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_DIM, POSENC_ERR_RANGE (k), POSENC_ERR_BASE. */
posenc_status posenc_inv_freq(uint32_t k, uint32_t D, double base, double *inv_freq);

/* theta = pos / base^(2k/D) in radians, rounded to double (not reduced).
 * Same ranges as posenc_inv_freq, and 0 <= pos <= POSENC_MAX_POS.
 * Errors: those of posenc_inv_freq and POSENC_ERR_POS. */
posenc_status posenc_angle(int64_t pos, uint32_t k, uint32_t D, double base, double *theta);

/* sin and cos of the exact angle theta(pos, k) (not of the rounded double
 * angle), accurate at every position: see "Accuracy" above.
 * Same ranges and errors as posenc_angle; s and c must not be NULL. */
posenc_status posenc_sincos(int64_t pos, uint32_t k, uint32_t D, double base,
                            double *s, double *c);

/* Fills *out with the worked trace of pair k at pos (see posenc_pair_trace).
 * Same ranges and errors as posenc_angle. */
posenc_status posenc_pair_explain(int64_t pos, uint32_t k, uint32_t D, double base,
                                  posenc_pair_trace *out);

/* ------------------------------------------------------------------------- */
/* Sinusoid (src/sinusoid.c)                                                 */
/* ------------------------------------------------------------------------- */

/* out[0..D) = PE(pos): out[2k] = sin(theta(pos,k)), out[2k+1] = cos(theta(pos,k)).
 * out is the caller's buffer of D elements.
 * Valid: 0 <= pos <= POSENC_MAX_POS, 1 <= D <= POSENC_MAX_DIM, base finite > 1.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_POS, POSENC_ERR_DIM, POSENC_ERR_BASE. */
posenc_status posenc_sinusoid_fill_f64(int64_t pos, uint32_t D, double base, double *out);
/* The same, each element rounded once to float. */
posenc_status posenc_sinusoid_fill_f32(int64_t pos, uint32_t D, double base, float *out);

/* x[i] += PE(pos)[i] for i < D, in place: the embedding step
 * x[t] = tok[id] + PE(t). D is the length of x. Ranges and errors as
 * posenc_sinusoid_fill_f64, plus POSENC_ERR_NOT_FINITE if an element of x is
 * NaN or infinite (x is then left unchanged). */
posenc_status posenc_sinusoid_add_f64(int64_t pos, uint32_t D, double base, double *x);
/* The same on floats: x[i] = x[i] + (float)PE(pos)[i], a float addition. */
posenc_status posenc_sinusoid_add_f32(int64_t pos, uint32_t D, double base, float *x);

/* ------------------------------------------------------------------------- */
/* Rotary embedding of one vector (src/rope.c)                               */
/* ------------------------------------------------------------------------- */

/* Rotates x (length D) in place by position pos: every pair k of the layout
 * turns by +theta(pos, k); an unpaired last element (odd D) is unchanged.
 * Valid: 0 <= pos <= POSENC_MAX_POS, 1 <= D <= POSENC_MAX_DIM, base finite > 1.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_POS, POSENC_ERR_DIM, POSENC_ERR_BASE,
 * POSENC_ERR_LAYOUT, POSENC_ERR_NOT_FINITE (an element of x is NaN or
 * infinite; x is then left unchanged). */
posenc_status posenc_rope_apply_f64(int64_t pos, uint32_t D, double base,
                                    posenc_layout layout, double *x);
/* Float version; arithmetic order as described under "Accuracy". */
posenc_status posenc_rope_apply_f32(int64_t pos, uint32_t D, double base,
                                    posenc_layout layout, float *x);

/* The inverse rotation (the transpose, a turn by -theta): undoes
 * posenc_rope_apply_* with the same arguments, and is the backward pass of
 * RoPE. Same ranges and errors. */
posenc_status posenc_rope_invert_f64(int64_t pos, uint32_t D, double base,
                                     posenc_layout layout, double *x);
posenc_status posenc_rope_invert_f32(int64_t pos, uint32_t D, double base,
                                     posenc_layout layout, float *x);

/* *out = ROPE(m, q) . ROPE(n, k) for vectors q and k of length D, neither
 * modified. Computed pair by pair in double without allocating.
 * Valid: m and n in 0..POSENC_MAX_POS, other ranges as posenc_rope_apply_f64.
 * Errors: those of posenc_rope_apply_f64. */
posenc_status posenc_rope_dot_f64(int64_t m, int64_t n, uint32_t D, double base,
                                  posenc_layout layout, const double *q,
                                  const double *k, double *out);

/* ------------------------------------------------------------------------- */
/* RoPE parameters of a model (src/rope_params.c)                            */
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
     * bits), radians per token, for k < rotary_dim / 2. */
    double inv_freq_hi[POSENC_ROPE_MAX_HEAD_DIM / 2];
    double inv_freq_lo[POSENC_ROPE_MAX_HEAD_DIM / 2];
} posenc_rope;

/* Fills *r with plain RoPE: inv_freq[k] = base^(-2k/rotary_dim), attn_factor 1.
 * Valid: 1 <= head_dim <= POSENC_ROPE_MAX_HEAD_DIM; rotary_dim even,
 * 2 <= rotary_dim <= head_dim; base finite > 1.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_DIM (head_dim), POSENC_ERR_RANGE
 * (rotary_dim odd, 0 or > head_dim), POSENC_ERR_BASE, POSENC_ERR_LAYOUT. */
posenc_status posenc_rope_init(posenc_rope *r, uint32_t head_dim, uint32_t rotary_dim,
                               double base, posenc_layout layout);

/* ------------------------------------------------------------------------- */
/* ALiBi (src/alibi.c)                                                       */
/* ------------------------------------------------------------------------- */

/* slopes[0..H) = m_1 .. m_H by the ALiBi paper's rule (see the top).
 * Valid: 1 <= H <= POSENC_MAX_DIM. Errors: POSENC_ERR_NULL, POSENC_ERR_DIM. */
posenc_status posenc_alibi_slopes(uint32_t H, double *slopes);

/* out[h-1] = -m_h * |i - j| for h = 1..H: the penalty added to the attention
 * score of query position i against key position j.
 * Valid: 1 <= H <= POSENC_MAX_DIM, i and j in 0..POSENC_MAX_POS.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_DIM, POSENC_ERR_POS. */
posenc_status posenc_alibi_penalties(uint32_t H, int64_t i, int64_t j, double *out);

/* ------------------------------------------------------------------------- */
/* Number syntax (src/parse.c): shared by the command language and table files */
/* ------------------------------------------------------------------------- */

/* Longest number text accepted, in bytes. */
#define POSENC_MAX_NUMBER_LEN 512u

/* Parses exactly the len bytes at s as a finite decimal number:
 *     [+-] digits [. digits] [(e|E) [+-] digits]   or   [+-] . digits [exponent]
 * (no hexadecimal, no "inf" or "nan", no surrounding space). s need not be
 * NUL-terminated. Values too small for a double become 0 or subnormal.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_FORMAT (not that syntax, or longer than
 * POSENC_MAX_NUMBER_LEN), POSENC_ERR_NOT_FINITE (overflows a double). */
posenc_status posenc_parse_number(const char *s, size_t len, double *out);

/* Parses exactly the len bytes at s as a decimal integer [+-] digits.
 * Errors: POSENC_ERR_NULL, POSENC_ERR_FORMAT, POSENC_ERR_RANGE (outside int64). */
posenc_status posenc_parse_int64(const char *s, size_t len, int64_t *out);

/* ------------------------------------------------------------------------- */
/* Learned position tables (src/learned.c)                                   */
/* ------------------------------------------------------------------------- */

/* An immutable table of n_pos rows of dim doubles. Opaque. */
typedef struct posenc_learned posenc_learned;

/* Where a table file went wrong, for messages. */
typedef struct posenc_load_error {
    size_t line;         /* 1-based line of the file where the problem is, 0 if none */
    size_t expected;     /* for a ragged row: the length of the first row */
    size_t got;          /* for a ragged row: the length of this row */
    char detail[96];     /* short description, "" if none */
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
posenc_status posenc_learned_read(FILE *in, posenc_learned **out, posenc_load_error *err);

/* posenc_learned_read() on the file at path. POSENC_ERR_IO if it cannot be
 * opened (err->detail then holds strerror(errno)). */
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
posenc_status posenc_learned_row_f64(const posenc_learned *table, int64_t pos, double *out);

#ifdef __cplusplus
}
#endif

#endif /* POSENC_H */
