/* model_lengths.h - the length rules of three families' published code,
 * computed here in plain double arithmetic apart from the library, for the
 * tests that check every front end (library, interpreter, plots) asks the
 * model for a layer's RoPE at the user's length:
 *
 *   Qwen 1 (use_dynamic_ntk): Qwen/Qwen-7B-Chat modeling_qwen.py @04df5dd5
 *     (copy: undefdev/Qwen-7B-Chat), QWenAttention.forward
 *     "context_value = math.log(kv_seq_len / self.seq_length, 2) + 1",
 *     "ntk_alpha = 2 ** math.ceil(context_value) - 1", max(ntk_alpha, 1);
 *     RotaryEmbedding.update_rotary_pos_emb_cache
 *     "base = self.base * ntk_alpha ** (self.dim / (self.dim - 2))",
 *     inv_freq = 1 / base ** (arange(0, dim, 2) / dim).
 *   Hugging Face "dynamic": transformers 5.23.0 modeling_rope_utils.py
 *     _compute_dynamic_ntk_parameters L330-342: seq_len = max(seq_len,
 *     max_position_embeddings), base * ((factor * seq_len / max_pos) -
 *     (factor - 1)) ** (dim / (dim - 2)).
 *   LongRoPE: the same file, _compute_longrope_parameters L580-585:
 *     long_factor when seq_len > original_max_position_embeddings, else
 *     short_factor; inv_freq = 1 / (ext_factors * base ** (arange(0, dim,
 *     2) / dim)).
 */
#ifndef POSENC_TESTS_MODEL_LENGTHS_H
#define POSENC_TESTS_MODEL_LENGTHS_H

#include <math.h>
#include <stdint.h>

/* Qwen 1's ntk_alpha at length L for trained length seq_length. */
static inline double qwen_alpha(int64_t L, double seq_length)
{
    double a = pow(2.0, ceil(log2((double)L / seq_length) + 1.0)) - 1.0;
    return a > 1.0 ? a : 1.0;
}

/* Qwen 1: pair k's inverse frequency at length L (dim = rotary dims). */
static inline double qwen_inv_freq(double base, uint32_t dim, double seq_length, int64_t L,
                                   uint32_t k)
{
    double b = base * pow(qwen_alpha(L, seq_length), (double)dim / (dim - 2.0));
    return 1.0 / pow(b, (2.0 * k) / dim);
}

/* Hugging Face dynamic NTK: pair k at length L. */
static inline double hf_dynamic_inv_freq(double base, uint32_t dim, double factor,
                                         double max_pos, int64_t L, uint32_t k)
{
    double s = (double)L > max_pos ? (double)L : max_pos;
    double b = base * pow(factor * s / max_pos - (factor - 1.0), (double)dim / (dim - 2.0));
    return 1.0 / pow(b, (2.0 * k) / dim);
}

/* LongRoPE: pair k at length L with the short and long factor lists. */
static inline double longrope_inv_freq(double base, uint32_t dim, double original,
                                       const double *short_factor, const double *long_factor,
                                       int64_t L, uint32_t k)
{
    double e = (double)L > original ? long_factor[k] : short_factor[k];
    return 1.0 / (e * pow(base, (2.0 * k) / dim));
}

#endif
