/* gguf_check.c - `posenc check --gguf MODEL.gguf --config config.json`: is
 * the conversion faithful? The comparison is the library's
 * (posenc_gguf_compare, posenc_gguf.h tier 4); this file reads the two
 * files and prints a CHECK line and a CAUSE line per difference. */
#include "check_cmd.h"
#include "message.h"
#include "rope_spec.h"

#include "posenc_gguf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CAUSES 32

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

int cli_check_gguf(const char *gguf, const char *config, uint64_t n_ctx)
{
    posenc_gguf *g = NULL;
    posenc_gguf_hparams *hp = malloc(sizeof *hp);
    posenc_gguf_cause causes[MAX_CAUSES]; /* 14 KiB */
    posenc_model *m = NULL;
    posenc_load_error e;
    char why[1400];
    size_t n = 0;
    int rc = CLI_EXIT_USAGE;
    if (!hp) {
        cli_fail(stderr, "check", 0, "out of memory");
        goto out;
    }
    if (posenc_gguf_load(gguf, NULL, &g, &e) != POSENC_OK ||
        posenc_gguf_llama_hparams(g, hp, &e) != POSENC_OK) {
        cli_fail(stderr, "check", 0, "%s: %s", gguf, e.detail);
        goto out;
    }
    if (!rope_spec_read_model(config, NULL, &m, why, sizeof why)) {
        cli_fail(stderr, "check", 0, "%s", why);
        goto out;
    }
    if (posenc_gguf_compare(g, hp, m, n_ctx, causes, MAX_CAUSES, &n, &e) != POSENC_OK) {
        cli_fail(stderr, "check", 0, "%s: %s", gguf, e.detail);
        goto out;
    }
    printf("CHECK verdict=%s gguf=", n ? "mismatch" : "match");
    cli_write_escaped(stdout, base_name(gguf), strlen(base_name(gguf)));
    fputs(" config=", stdout);
    cli_write_escaped(stdout, base_name(config), strlen(base_name(config)));
    printf(" arch=%s rope_type=%s layers=%u n_ctx=%llu causes=%zu\n", hp->arch,
           posenc_gguf_rope_type_name(hp->rope_type), hp->n_layer,
           (unsigned long long)(n_ctx ? n_ctx : hp->n_ctx_train), n);
    for (size_t i = 0; i < n && i < MAX_CAUSES; i++)
        printf("CAUSE name=%s key=%s layer=%u %s\n", causes[i].name, causes[i].key,
               causes[i].layer, causes[i].detail);
    if (n > MAX_CAUSES)
        printf("CAUSE name=more count=%zu\n", n - MAX_CAUSES);
    rc = n ? 1 : 0;
out:
    posenc_model_free(m);
    posenc_gguf_free(g);
    free(hp);
    return rc;
}

posenc_status cli_golden_gguf_save(const char *path, const posenc_rope_config *cfg,
                                   const posenc_rope *r, const posenc_check_input *in,
                                   const char *const *meta, posenc_load_error *err)
{
    posenc_gguf_op_args *op = malloc(sizeof *op);
    float *tol = malloc(in->n_tok * sizeof *tol);
    char keys[8][64];
    const char *kv[17];
    size_t nk = 0;
    posenc_status s = op && tol ? posenc_gguf_op_from_rope(cfg, r, op) : POSENC_ERR_NOMEM;
    if (s == POSENC_ERR_RANGE)
        snprintf(err->detail, sizeof err->detail, "this RoPE has no ggml_rope_ext arguments "
                                                  "(a pair that does not turn)");
    for (; meta && meta[0] && meta[1] && nk < 8; meta += 2, nk++) {
        snprintf(keys[nk], sizeof keys[nk], "posenc.golden.%s", meta[0]);
        kv[2 * nk] = keys[nk];
        kv[2 * nk + 1] = meta[1];
    }
    kv[2 * nk] = NULL;
    if (s == POSENC_OK) {
        /* the bound for the largest |x| of each token */
        size_t per = (size_t)in->n_head * in->head_dim;
        for (size_t t = 0; t < in->n_tok; t++) {
            double xm = 0;
            for (size_t i = 0; i < per; i++)
                if (fabs((double)in->x[t * per + i]) > xm)
                    xm = fabs((double)in->x[t * per + i]);
            tol[t] = (float)posenc_gguf_f32_tolerance(op, in->pos[t], xm);
        }
        posenc_gguf_golden gd = {in->n_tok, in->n_head, in->head_dim, in->pos, in->x,
                                 in->y, tol, op, kv};
        s = posenc_gguf_golden_save(path, &gd, err);
    }
    free(op);
    free(tol);
    return s;
}

int cli_gguf_layer_config(const char *path, uint32_t layer, uint64_t n_ctx, posenc_rope_config *out,
                          char *why, size_t n)
{
    posenc_gguf *g = NULL;
    posenc_gguf_hparams *hp = malloc(sizeof *hp);
    posenc_gguf_rope_op op;
    posenc_load_error e;
    int ok = 0;
    if (!hp)
        snprintf(why, n, "out of memory");
    else if (posenc_gguf_load(path, NULL, &g, &e) != POSENC_OK ||
             posenc_gguf_llama_hparams(g, hp, &e) != POSENC_OK ||
             posenc_gguf_llama_layer(g, hp, layer, n_ctx, &op, &e) != POSENC_OK)
        snprintf(why, n, "%s: %s", path, e.detail);
    else if (!op.rotates)
        snprintf(why, n, "%s: layer %u runs no RoPE in llama.cpp", path, layer);
    else if (posenc_gguf_op_config(&op, hp->n_embd_head_k, out) != POSENC_OK)
        snprintf(why, n, "%s: layer %u: llama.cpp's op (mode %s, ext_factor %g) has no posenc "
                         "RoPE", path, layer,
                 posenc_gguf_rope_type_name((posenc_gguf_rope_type)op.mode), (double)op.ext_factor);
    else
        ok = 1;
    posenc_gguf_free(g);
    free(hp);
    return ok;
}
