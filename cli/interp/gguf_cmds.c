/* gguf_cmds.c - a GGUF file in the command language: --gguf FILE (with
 * --ctx N) read as llama.cpp's loader reads it, its RoPE installed as the
 * model ROPE and DOT use, and EXPLAIN MODEL stating the file's keys, its
 * factor tensors and the ggml_rope_ext arguments llama.cpp derives, layer
 * by layer. Parsing and printing only: the facts and their llama.cpp
 * citations come from the library (posenc_gguf.h). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

void cli_gguf_free(cli_state *st)
{
    posenc_gguf_free(st->gguf);
    free(st->gguf_hp);
    st->gguf = NULL;
    st->gguf_hp = NULL;
}

/* The op of layer il as a model of n_layer layers (into *out). */
static int op_model(cli_state *st, uint32_t il, posenc_model **out, char *why, size_t n)
{
    posenc_load_error e;
    posenc_gguf_rope_op op;
    posenc_rope_config *c = malloc(sizeof *c);
    posenc_model *m = NULL;
    posenc_status s = c ? posenc_model_create(&m) : POSENC_ERR_NOMEM;
    if (s == POSENC_OK)
        s = posenc_gguf_llama_layer(st->gguf, st->gguf_hp, il, st->gguf_ctx, &op, &e);
    if (s == POSENC_OK && !op.rotates) {
        snprintf(why, n, "layer %u runs no RoPE in llama.cpp: choose another --layer", il);
        s = POSENC_ERR_RANGE;
    } else if (s == POSENC_OK &&
               (s = posenc_gguf_op_config(&op, st->gguf_hp->n_embd_head_k, c)) != POSENC_OK)
        snprintf(why, n, "layer %u: llama.cpp's op (mode %s) has no posenc RoPE", il,
                 posenc_gguf_rope_type_name((posenc_gguf_rope_type)op.mode));
    else if (s == POSENC_OK)
        s = posenc_model_set_rope(m, c, st->gguf_hp->n_layer);
    else
        snprintf(why, n, "%s", e.detail[0] ? e.detail : posenc_strerror(s));
    free(c);
    if (s != POSENC_OK) {
        if (!why[0])
            snprintf(why, n, "%s", posenc_strerror(s));
        posenc_model_free(m);
        return 0;
    }
    *out = m;
    return 1;
}

int cli_gguf_load(cli_state *st, const char *path, uint64_t n_ctx, char *why, size_t n)
{
    posenc_load_error e;
    posenc_gguf *g = NULL;
    posenc_gguf_hparams *hp = malloc(sizeof *hp);
    why[0] = '\0';
    posenc_status s = hp ? posenc_gguf_load(path, NULL, &g, &e) : POSENC_ERR_NOMEM;
    if (s == POSENC_OK)
        s = posenc_gguf_llama_hparams(g, hp, &e);
    if (s != POSENC_OK) {
        snprintf(why, n, "%s: %s", path, hp ? e.detail : "out of memory");
        posenc_gguf_free(g);
        free(hp);
        return 0;
    }
    cli_gguf_free(st);
    st->gguf = g;
    st->gguf_hp = hp;
    st->gguf_ctx = n_ctx;
    st->gguf_path = path;
    st->gguf_per_layer = 0;
    if (!hp->layers_modelled) /* EXPLAIN MODEL says why; ROPE and DOT stay plain */
        return 1;
    posenc_model *m = NULL;
    if (posenc_model_create(&m) != POSENC_OK) {
        snprintf(why, n, "out of memory");
        return 0;
    }
    if (posenc_gguf_model(g, hp, n_ctx, m, &e) != POSENC_OK) { /* layers differ */
        posenc_model_free(m);
        m = NULL;
        if (st->layer >= hp->n_layer) {
            snprintf(why, n, "layer %u does not exist: the file has %u layers", st->layer,
                     hp->n_layer);
            return 0;
        }
        if (!op_model(st, st->layer, &m, why, n))
            return 0;
        st->gguf_per_layer = 1;
    }
    if (!cli_install_model(st, m, 1, why, n))
        return 0;
    const char *base = strrchr(path, '/');
    snprintf(st->model_label, sizeof st->model_label, "%s", base ? base + 1 : path);
    return 1;
}

int cli_gguf_set_layer(cli_state *st, uint32_t layer, char *why, size_t n)
{
    posenc_model *m = NULL;
    why[0] = '\0';
    if (!op_model(st, layer, &m, why, n))
        return 0;
    uint32_t old = st->layer;
    st->layer = layer;
    if (!cli_install_model(st, m, 1, why, n)) {
        st->layer = old;
        return 0;
    }
    return 1;
}

/* One metadata value as key=value text. */
static void put_value(FILE *out, const posenc_gguf_value *v)
{
    switch (v->type) {
    case POSENC_GGUF_F32:
    case POSENC_GGUF_F64: fprintf(out, "%.9g", v->f); break;
    case POSENC_GGUF_I8:
    case POSENC_GGUF_I16:
    case POSENC_GGUF_I32:
    case POSENC_GGUF_I64: fprintf(out, "%lld", (long long)v->i); break;
    case POSENC_GGUF_BOOL: fputs(v->u ? "true" : "false", out); break;
    case POSENC_GGUF_STRING: cli_write_escaped(out, v->str, (size_t)v->len); break;
    case POSENC_GGUF_ARRAY:
        if (v->elem == POSENC_GGUF_I32 && v->data && v->n <= 8) {
            const unsigned char *p = v->data;
            fputc('[', out);
            for (uint64_t k = 0; k < v->n; k++, p += 4) {
                uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                             (uint32_t)p[3] << 24;
                fprintf(out, "%s%d", k ? "," : "", (int)(int32_t)u);
            }
            fputc(']', out);
        } else {
            fprintf(out, "%s[%llu]", posenc_gguf_type_name(v->elem), (unsigned long long)v->n);
        }
        break;
    default: fprintf(out, "%llu", (unsigned long long)v->u); break;
    }
}

/* Whether key is one llama.cpp reads for RoPE: {arch}.rope.*,
 * {arch}.context_length, {arch}.attention.key_length and the
 * sliding-window keys. */
static int rope_key(const char *key, const char *arch)
{
    static const char *const tails[] = {"rope.", "context_length", "attention.key_length",
                                        "attention.sliding_window"};
    size_t la = strlen(arch);
    if (strncmp(key, arch, la) != 0 || key[la] != '.')
        return 0;
    for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++)
        if (!strncmp(key + la + 1, tails[i], strlen(tails[i])))
            return 1;
    return 0;
}

static void put_keys(FILE *out, const posenc_gguf *g, const char *arch)
{
    fputs("keys", out);
    for (uint64_t i = 0; i < posenc_gguf_n_kv(g); i++) {
        posenc_gguf_value v;
        const char *k = posenc_gguf_key(g, i);
        if (!rope_key(k, arch) || posenc_gguf_value_at(g, i, &v) != POSENC_OK)
            continue;
        fprintf(out, " %s=", k);
        put_value(out, &v);
    }
    fputc('\n', out);
    fputs("tensors", out);
    int any = 0;
    for (int w = POSENC_GGUF_ROPE_FREQS; w <= POSENC_GGUF_ROPE_FACTORS_SHORT; w++) {
        const float *f;
        size_t nf;
        if (posenc_gguf_factors_get(g, (posenc_gguf_factors)w, &f, &nf) == POSENC_OK && f) {
            fprintf(out, " %s[%zu]=%.9g..%.9g", posenc_gguf_factors_name((posenc_gguf_factors)w),
                    nf, (double)f[0], (double)f[nf - 1]);
            any = 1;
        }
    }
    fputs(any ? "\n" : " none\n", out);
}

/* The layers described alike, as runs "0-4,6": one line per description. */
static int put_layers(cli_state *st, FILE *out)
{
    const posenc_gguf_hparams *hp = st->gguf_hp;
    static char text[POSENC_GGUF_MAX_LAYERS][512];
    static unsigned char done[POSENC_GGUF_MAX_LAYERS];
    posenc_load_error e;
    for (uint32_t i = 0; i < hp->n_layer; i++) {
        done[i] = 0;
        if (posenc_gguf_layer_describe(st->gguf, hp, i, st->gguf_ctx, text[i], sizeof text[i],
                                       &e) != POSENC_OK) {
            cli_error(st, "EXPLAIN MODEL: %s", e.detail);
            return 0;
        }
    }
    for (uint32_t i = 0; i < hp->n_layer; i++) {
        if (done[i])
            continue;
        fputs("layers ", out);
        int first = 1;
        for (uint32_t j = i; j < hp->n_layer;) {
            if (done[j] || strcmp(text[j], text[i]) != 0) {
                j++;
                continue;
            }
            uint32_t k = j;
            while (k + 1 < hp->n_layer && !done[k + 1] && !strcmp(text[k + 1], text[i]))
                k++;
            fprintf(out, "%s%u", first ? "" : ",", j);
            if (k > j)
                fprintf(out, "-%u", k);
            for (uint32_t t = j; t <= k; t++)
                done[t] = 1;
            first = 0;
            j = k + 1;
        }
        fprintf(out, ":%s\n", text[i]);
    }
    return 1;
}

/* How llama.cpp's loader turns the keys into the op's arguments, with the
 * lines of llama.cpp (llama-cpp-python 0.3.36's vendor/llama.cpp) that do
 * it; the library follows the same lines (src/formats/gguf_rope.c). */
/* Which elements each rope type pairs, from ggml's CPU rope
 * (ggml/src/ggml-cpu/ops.cpp:6292-6308 rotate_pairs, its offset per mode at
 * 6434-6448; the M-RoPE sections at 6221-6283). */
static const char *pairing_words(posenc_gguf_rope_type t)
{
    switch (t) {
    case POSENC_GGUF_ROPE_NORM:
        return "norm turns adjacent pairs [x2i x2i+1] (ggml-cpu/ops.cpp:6436), on q/k rows the "
               "converter permuted from the checkpoint's halves (convert_hf_to_gguf.py "
               "LlamaModel.permute)";
    case POSENC_GGUF_ROPE_NEOX:
        return "neox turns pairs [xi xi+n_dims/2] (ggml-cpu/ops.cpp:6438-6441), the "
               "checkpoint's half layout, rows as converted unpermuted";
    case POSENC_GGUF_ROPE_MROPE:
        return "mrope turns neox pairs [xi xi+n_dims/2], pair i's angle from the t, h, w or e "
               "position by consecutive rope.dimension_sections (ggml-cpu/ops.cpp:6221-6283, "
               "6438-6441)";
    case POSENC_GGUF_ROPE_IMROPE:
        return "imrope turns neox pairs [xi xi+n_dims/2], pair i's position axis t, h, w by "
               "i % 3 within rope.dimension_sections (ggml-cpu/ops.cpp:6256-6263, 6438-6441)";
    case POSENC_GGUF_ROPE_VISION:
        return "vision turns pairs [xi xi+n_dims] over the whole head (ggml-cpu/ops.cpp:6442-6444)";
    case POSENC_GGUF_ROPE_NONE:
        break;
    }
    return "none: the arch's attention does not rotate";
}

static void put_rules(FILE *out, const posenc_gguf_hparams *hp)
{
    fprintf(out, "rule rope_type=%s: llama_model_rope_type() names arch %s "
                 "(src/llama-model.cpp:3023-3212); %s\n",
            posenc_gguf_rope_type_name(hp->rope_type), hp->arch, pairing_words(hp->rope_type));
    fputs("rule freq_base=rope.freq_base (default 10000), freq_scale=1/rope.scaling.factor "
          "(1 when absent or 0; 1 for scaling type none): src/llama-model.cpp:1320-1491, "
          "src/llama-context.cpp:134-135,169-171\n",
          out);
    fputs("rule ext_factor=1 for yarn else 0 (rope.scaling.yarn_ext_factor when set); yarn's "
          "attn_factor=get_mscale(factor, log_mul)/get_mscale(factor, log_mul) over ggml's "
          "1+0.1*ln(factor), times rope.scaling.attn_factor: src/llama-context.cpp:114-115,"
          "173-214\n",
          out);
    fputs("rule n_ctx_seq=n_ctx rounded up to 256 (src/llama-context.cpp:289-296); "
          "freq_factors=rope_freqs.weight, else rope_factors_long when n_ctx_seq > "
          "n_ctx_orig_yarn, else rope_factors_short (src/llama-model.cpp:2337-2350)\n",
          out);
    if (hp->swa)
        fputs("rule sliding-window layers take rope.freq_base_swa and freq_scale_swa, or "
              "plain RoPE, by arch (src/llama-model.cpp:2329-2336, src/models/)\n",
              out);
}

int cli_gguf_explain(cli_state *st)
{
    FILE *out = st->out;
    const posenc_gguf_hparams *hp = st->gguf_hp;
    const char *base = strrchr(st->gguf_path, '/');
    fputs("GGUF file=", out);
    cli_write_escaped(out, base ? base + 1 : st->gguf_path, strlen(base ? base + 1 : st->gguf_path));
    fprintf(out, " version=%u arch=%s rope_type=%s layers=%u context_length=%u n_ctx=%llu\n",
            posenc_gguf_version(st->gguf), hp->arch, posenc_gguf_rope_type_name(hp->rope_type),
            hp->n_layer, hp->n_ctx_train,
            (unsigned long long)(st->gguf_ctx ? st->gguf_ctx : hp->n_ctx_train));
    put_keys(out, st->gguf, hp->arch);
    fprintf(out, "read n_rot=%u n_embd_head_k=%u freq_base=%.9g freq_scale=%.9g "
                 "freq_base_swa=%.9g freq_scale_swa=%.9g scaling=%s n_ctx_orig_yarn=%u "
                 "rope_attn_factor=%.9g yarn_attn_factor=%.9g yarn_log_mul=%.9g\n",
            hp->n_rot, hp->n_embd_head_k, (double)hp->freq_base, (double)hp->freq_scale,
            (double)hp->freq_base_swa, (double)hp->freq_scale_swa,
            posenc_gguf_scaling_name(hp->scaling), hp->n_ctx_orig_yarn,
            (double)hp->rope_attn_factor, (double)hp->yarn_attn_factor, (double)hp->yarn_log_mul);
    put_rules(out, hp);
    if (!hp->layers_modelled) {
        fprintf(out, "layers: the per-layer rules of arch %s are not modelled here (its graph "
                     "in src/models/ decides each layer's RoPE)\n",
                hp->arch);
    } else if (!put_layers(st, out)) {
        return 0;
    }
    const posenc_rope_config *c = cli_active_rope(st);
    char text[1024];
    if (st->model && c &&
        posenc_model_layer_describe(st->model, st->layer, text, sizeof text) == POSENC_OK) {
        fprintf(out, "ROPE and DOT: layer %u as posenc runs it: rope%s", st->layer, text);
        if (c->scaling.n_freq_factors)
            fprintf(out, " freq_factors=%zu (each pair's frequency divided by its factor)",
                    c->scaling.n_freq_factors);
        fputc('\n', out);
    }
    fprintf(out, "source %s\n", posenc_gguf_source());
    return 1;
}
