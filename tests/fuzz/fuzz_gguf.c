/* fuzz_gguf.c - libFuzzer target: GGUF files through posenc_gguf_read(),
 * then, for a file read, llama.cpp's RoPE (posenc_gguf_llama_hparams and
 * posenc_gguf_llama_layer for every layer at a few context sizes).
 *
 * Invariants checked on every input:
 *   - failure leaves *out untouched, reports a documented status, and says
 *     why (a non-empty, NUL-terminated detail); reading again gives the
 *     same status and detail;
 *   - a file read has version 2 or 3, a power-of-two alignment, a data
 *     offset inside the file, every key non-empty and findable, every
 *     tensor's data inside the file, and factor values finite and > 0;
 *   - hparams, when given, have 1..512 layers and an even n_rot in 2..head
 *     size; a layer's op has n_dims = that n_rot (or n_rot_swa), finite
 *     float arguments, and freq_factors of n_dims / 2 values or none.
 * Seeds: `build/tests/test_gguf --seeds DIR` writes faithful and broken
 * files (make fuzz does it into build/fuzz/corpus/fuzz_gguf). */
#include "posenc_gguf.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static posenc_status read_once(const uint8_t *data, size_t size, posenc_gguf **g,
                               posenc_load_error *e)
{
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        abort();
    posenc_status s = posenc_gguf_read(in, NULL, g, e);
    fclose(in);
    return s;
}

static void check_file(const posenc_gguf *g, size_t size)
{
    uint32_t a = posenc_gguf_alignment(g);
    if ((posenc_gguf_version(g) != 2 && posenc_gguf_version(g) != 3) || a == 0 || (a & (a - 1)) ||
        posenc_gguf_data_offset(g) > size)
        abort();
    for (uint64_t i = 0; i < posenc_gguf_n_kv(g); i++) {
        const char *k = posenc_gguf_key(g, i);
        posenc_gguf_value v;
        if (!k || !k[0] || posenc_gguf_find_key(g, k) != (int64_t)i ||
            posenc_gguf_value_at(g, i, &v) != POSENC_OK)
            abort();
        if (v.type == POSENC_GGUF_STRING && (!v.str || v.str[v.len] != '\0'))
            abort();
    }
    for (uint64_t i = 0; i < posenc_gguf_n_tensors(g); i++) {
        posenc_gguf_tensor t;
        if (posenc_gguf_tensor_at(g, i, &t) != POSENC_OK || t.n_dims > 4 ||
            posenc_gguf_data_offset(g) + t.offset + t.n_bytes > size)
            abort();
    }
    for (int f = 0; f < 3; f++) {
        const float *v;
        size_t n;
        if (posenc_gguf_factors_get(g, (posenc_gguf_factors)f, &v, &n) != POSENC_OK ||
            (v == NULL) != (n == 0))
            abort();
        for (size_t j = 0; j < n; j++)
            if (!isfinite(v[j]) || !(v[j] > 0))
                abort();
    }
}

static void check_rope(const posenc_gguf *g)
{
    posenc_gguf_hparams hp;
    posenc_load_error e;
    posenc_status s = posenc_gguf_llama_hparams(g, &hp, &e);
    if (s != POSENC_OK) {
        if ((s != POSENC_ERR_FORMAT && s != POSENC_ERR_RANGE) || !e.detail[0])
            abort();
        return;
    }
    if (hp.n_layer < 1 || hp.n_layer > POSENC_GGUF_MAX_LAYERS || hp.n_rot < 2 || hp.n_rot % 2 ||
        hp.n_rot > hp.n_embd_head_k)
        abort();
    static const uint64_t ctx[] = {0, 1, 4096, 4097, 1u << 20};
    for (uint32_t il = 0; il < hp.n_layer; il++)
        for (size_t c = 0; c < sizeof ctx / sizeof ctx[0]; c++) {
            posenc_gguf_rope_op op;
            s = posenc_gguf_llama_layer(g, &hp, il, ctx[c], &op, &e);
            if (s != POSENC_OK) {
                if (s != POSENC_ERR_RANGE || hp.layers_modelled || !e.detail[0])
                    abort();
                return;
            }
            if ((op.n_dims != (int)hp.n_rot && op.n_dims != (int)hp.n_rot_swa) ||
                (op.freq_factors && op.n_freq_factors != (size_t)op.n_dims / 2))
                abort();
            /* ggml takes any float here; the reader's own arithmetic must
             * not invent a NaN from finite inputs */
            if (isfinite(hp.freq_scale) && hp.freq_scale > 0 && isfinite(hp.rope_attn_factor) &&
                !isfinite(op.freq_scale))
                abort();
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    posenc_gguf *g = (posenc_gguf *)(uintptr_t)1; /* must stay untouched on failure */
    posenc_load_error e;
    posenc_status s = read_once(data, size, &g, &e);
    if (s != POSENC_OK) {
        if (g != (posenc_gguf *)(uintptr_t)1)
            abort();
        if (s != POSENC_ERR_FORMAT && s != POSENC_ERR_RANGE && s != POSENC_ERR_NOMEM &&
            s != POSENC_ERR_IO)
            abort();
        if (memchr(e.detail, '\0', sizeof e.detail) == NULL || e.detail[0] == '\0')
            abort();
        posenc_load_error e2;
        posenc_gguf *g2 = NULL;
        if (read_once(data, size, &g2, &e2) != s || strcmp(e.detail, e2.detail) != 0)
            abort();
        return 0;
    }
    check_file(g, size);
    check_rope(g);
    posenc_gguf_free(g);
    return 0;
}
