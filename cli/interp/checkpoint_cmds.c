/* checkpoint_cmds.c - LOAD file.safetensors TENSOR: a learned position
 * table read from a model's weights (posenc_learned_load_safetensors). The
 * text tables of LOAD file stay in commands.c. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char SUFFIX[] = ".safetensors";
#define SUFFIX_LEN (sizeof SUFFIX - 1)

static int ends_in_suffix(const char *s, size_t len)
{
    return len >= SUFFIX_LEN && strncasecmp(s + len - SUFFIX_LEN, SUFFIX, SUFFIX_LEN) == 0;
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

int cli_load_names_checkpoint(const char *text, size_t len)
{
    if (ends_in_suffix(text, len))
        return 1;
    size_t w = len;
    while (w > 0 && !is_blank(text[w - 1]))
        w--;
    while (w > 0 && is_blank(text[w - 1]))
        w--;
    return w > 0 && ends_in_suffix(text, w);
}

int cli_table_loaded(cli_state *st, const char *path, posenc_status s,
                     const posenc_load_error *e, posenc_learned *t)
{
    if (s == POSENC_ERR_IO && e->line == 0)
        cli_error(st, "cannot read '%s': %s", path, e->detail[0] ? e->detail : posenc_strerror(s));
    else if (s != POSENC_OK && e->line > 0) /* a text table's line */
        cli_error(st, "%s: line %zu: %s", path, e->line, e->detail);
    else if (s != POSENC_OK)
        cli_error(st, "%s: %s", path, e->detail[0] ? e->detail : posenc_strerror(s));
    if (s != POSENC_OK)
        return 0;
    posenc_learned_free(st->table);
    st->table = t;
    return 1;
}

int cli_load_checkpoint(cli_state *st, const char *text, size_t len)
{
    if (ends_in_suffix(text, len)) {
        cli_error(st, "LOAD %.*s%s: name the tensor to read after the file, e.g. LOAD "
                      "model.safetensors wpe.weight",
                  CLI_SHOW(text, len));
        return 0;
    }
    size_t name_at = len, path_len;
    while (!is_blank(text[name_at - 1]))
        name_at--;
    for (path_len = name_at; is_blank(text[path_len - 1]); path_len--)
        ;
    char *path = malloc(len + 2);
    if (!path) {
        cli_error(st, "out of memory");
        return 0;
    }
    char *name = path + path_len + 1;
    memcpy(path, text, path_len);
    path[path_len] = '\0';
    memcpy(name, text + name_at, len - name_at);
    name[len - name_at] = '\0';
    posenc_learned *t = NULL;
    posenc_load_error e;
    posenc_status s = posenc_learned_load_safetensors(path, name, &t, &e);
    int ok = cli_table_loaded(st, path, s, &e, t);
    free(path);
    return ok;
}
