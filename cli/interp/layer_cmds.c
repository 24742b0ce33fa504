/* layer_cmds.c - what the active layer does to a head, in one place: ROPE
 * and DOT make one call here whatever the state holds. The layer is one of
 * (cli_layer_kind): plain RoPE over the whole vector (SET base, SET layout;
 * no model), a model's RoPE on heads of its head_dim (SET rope, --config),
 * a model's M-RoPE (t:h:w positions), or a --config layer without RoPE
 * (heads unchanged). Every number comes from the library.
 *
 * Plain RoPE stays a kind of its own rather than a one-layer posenc_model:
 * a model's layer fixes head_dim (at most POSENC_ROPE_MAX_HEAD_DIM) and an
 * even rotary_dim, while plain ROPE takes vectors of any length D, with
 * base^(2k/D) for odd D too; a library model for it would change those
 * outputs (posenc_model.h would need a layer of any head_dim). */
#include "cli.h"

cli_layer_kind cli_layer_kind_of(const cli_state *st)
{
    if (!st->model)
        return CLI_LAYER_PLAIN;
    if (st->mrope_on)
        return CLI_LAYER_MROPE;
    return cli_layer_rotates(st) ? CLI_LAYER_ROPE : CLI_LAYER_NONE;
}

int cli_layer_rotate(cli_state *st, const int64_t p[3], size_t D)
{
    switch (cli_layer_kind_of(st)) {
    case CLI_LAYER_MROPE: return cli_mrope_rope(st, p, D);
    case CLI_LAYER_ROPE: return cli_model_rope(st, p[0], D);
    case CLI_LAYER_NONE: /* the head, unchanged */
        cli_print_numbers(st, st->vec, D);
        return 1;
    default: /* plain RoPE of D (any D: an odd last element is unchanged) */
        cli_cannot_fail(posenc_rope_apply_f64(p[0], (uint32_t)D, st->base, st->layout,
                                              POSENC_FORWARD, st->vec));
        cli_print_numbers(st, st->vec, D);
        return 1;
    }
}

int cli_layer_dot(cli_state *st, const int64_t m[3], const int64_t n[3], size_t D)
{
    double dot;
    switch (cli_layer_kind_of(st)) {
    case CLI_LAYER_MROPE: return cli_mrope_dot(st, m, n, D);
    case CLI_LAYER_ROPE: return cli_model_dot(st, m[0], n[0], D);
    case CLI_LAYER_NONE: /* the plain dot product */
        dot = 0.0;
        for (size_t i = 0; i < D; i++)
            dot += st->vec[i] * st->vec2[i];
        cli_print_numbers(st, &dot, 1);
        return 1;
    default:
        cli_cannot_fail(posenc_rope_dot_f64(m[0], n[0], (uint32_t)D, st->base, st->layout,
                                            st->vec, st->vec2, &dot));
        cli_print_numbers(st, &dot, 1);
        return 1;
    }
}
