/* rope_from_config.c - from a Hugging Face config.json to one layer's RoPE
 * to rotated q and k, as a C inference engine would do it with posenc.
 *
 *   cc rope_from_config.c $(pkg-config --cflags --libs posenc-config) -o rope_from_config
 *   ./rope_from_config config.json [LAYER [SEQ_LEN]]
 *
 * Steps: read the config through the model registry (posenc_config.h:
 * the family's layout, partial rotary, scaling and per-layer rules), take
 * the layer's RoPE at the sequence length (posenc_model_layer_rope: for
 * length-dependent scalings such as LongRoPE or dynamic NTK), then rotate a
 * query at position m and a key at position n in place
 * (posenc_rope_vec_f32). The head q[i] = ((i % 7) - 3) / 4, k[i] = ((i % 5) - 2)
 * / 4, positions 0, 1, 1000 and SEQ_LEN - 1 (default 4096). Prints one line
 * describing the layer, then per position "q POS v0 v1 ..." and
 * "k POS v0 v1 ..." (%.7g). tests/install_test.sh builds
 * it against an installed posenc with pkg-config and checks its numbers
 * against an independent awk reference (tests/install/rope_reference.awk). */
#include <posenc_config.h>

#include <stdio.h>
#include <stdlib.h>

static void fill(float *v, uint32_t n, int mod)
{
    for (uint32_t i = 0; i < n; i++)
        v[i] = (float)((int)(i % (uint32_t)mod) - mod / 2) / 4.0f;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: rope_from_config config.json [LAYER [SEQ_LEN]]\n");
        return 2;
    }
    uint32_t layer = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 0;
    int64_t seq_len = argc > 3 ? strtoll(argv[3], NULL, 10) : 4096;
    posenc_model *m = NULL;
    posenc_config_error e;
    static posenc_rope r; /* about 8 KiB: static, off the stack */
    if (posenc_model_create(&m) != POSENC_OK)
        return 1;
    posenc_status s = posenc_model_from_config(argv[1], NULL, m, &e);
    if (s != POSENC_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], e.detail);
        posenc_model_free(m);
        return 1;
    }
    /* the layer's RoPE (POSENC_ERR_RANGE when the layer has none) */
    s = posenc_model_layer_rope(m, layer, seq_len, &r);
    if (s != POSENC_OK) {
        fprintf(stderr, "layer %u: %s\n", layer, posenc_strerror(s));
        posenc_model_free(m);
        return 1;
    }
    printf("layer %u of %s: layout=%s head_dim=%u rotary_dim=%u base=%.9g attn_factor=%.9g\n",
           layer, posenc_model_type(m), r.layout == POSENC_LAYOUT_HALF ? "half" : "interleaved",
           r.head_dim, r.rotary_dim, r.base, r.attn_factor);
    float *q = malloc(r.head_dim * sizeof *q), *k = malloc(r.head_dim * sizeof *k);
    const int64_t pos[4] = {0, 1, 1000, seq_len - 1};
    for (int t = 0; q && k && t < 4; t++) {
        fill(q, r.head_dim, 7);
        fill(k, r.head_dim, 5);
        /* q and k of one head, rotated in place at the token's position */
        if (posenc_rope_vec_f32(&r, pos[t], POSENC_FORWARD, q) != POSENC_OK ||
            posenc_rope_vec_f32(&r, pos[t], POSENC_FORWARD, k) != POSENC_OK)
            return 1;
        printf("q %lld", (long long)pos[t]);
        for (uint32_t i = 0; i < r.head_dim; i++)
            printf(" %.7g", (double)q[i]);
        printf("\nk %lld", (long long)pos[t]);
        for (uint32_t i = 0; i < r.head_dim; i++)
            printf(" %.7g", (double)k[i]);
        printf("\n");
    }
    free(q);
    free(k);
    posenc_model_free(m);
    return 0;
}
