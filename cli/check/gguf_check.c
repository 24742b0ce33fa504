/* gguf_check.c - `posenc check --gguf MODEL.gguf --config config.json`: is
 * the conversion faithful? The comparison is the library's
 * (posenc_gguf_compare, posenc_gguf.h tier 4); this file reads the two
 * files and prints a CHECK line and a CAUSE line per difference. */
#include "check_cmd.h"
#include "message.h"
#include "rope_spec.h"

#include "posenc_gguf.h"

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
    posenc_gguf_cause *causes = malloc(MAX_CAUSES * sizeof *causes);
    posenc_model *m = NULL;
    posenc_load_error e;
    char why[1400];
    size_t n = 0;
    int rc = CLI_EXIT_USAGE;
    if (!hp || !causes) {
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
    free(causes);
    return rc;
}
