/* config_model.c - a model from its config.json, through the registry
 * (src/config/config_families.c): which family, which part of the config, and for every
 * layer the position scheme its family's code applies.
 *
 * Part of the optional config library (needs jansson, like src/config/config.c,
 * whose RoPE block reader it shares through config_internal.h). Families are
 * read by their registry entry's rules; the few that need more (ChatGLM's
 * rope_ratio, Qwen 1's dynamic NTK and log-n, the absolute and relative
 * schemes) have a function each in the files config_read.h lists; this one
 * holds the entry points, the helpers they share and the family dispatch.
 * Every refusal names its key.
 *
 * Two facts the checks below lean on: jansson refuses a number that
 * overflows a double ("real number overflow"), so every number read from the
 * JSON is finite and only values computed from them (a base times rope_ratio)
 * are tested with isfinite; and where a value was just found non-NULL its
 * type is read with json_typeof, not the json_is_* macros, whose NULL test
 * could not fail there. */
#include "config_read.h"

/* ---- entry points ------------------------------------------------------------------ */

posenc_status posenc_model_from_config_text(const char *json, size_t len,
                                            const char *model_type, posenc_model *out,
                                            posenc_config_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
    if (!json || !out)
        return POSENC_ERR_NULL;
    mread *r = calloc(1, sizeof *r);
    posenc_model *m = calloc(1, sizeof *m);
    if (!r || !m) {
        reader rd = {err, ""};
        free(r);
        free(m);
        return posenc__cfg_fail(&rd, POSENC_ERR_NOMEM, "", "out of memory");
    }
    r->rd.err = err;
    r->rd.block = "";
    r->m = m;
    r->json = json;
    r->len = len;
    json_error_t jerr;
    json_t *root = len > POSENC_CONFIG_MAX_BYTES
                       ? NULL
                       : json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
    posenc_status st;
    if (!root && len > POSENC_CONFIG_MAX_BYTES) {
        st = posenc__cfg_fail(&r->rd, POSENC_ERR_FORMAT, "",
                              "the config text is larger than %u bytes", POSENC_CONFIG_MAX_BYTES);
    } else if (!root) {
        if (err) {
            err->line = jerr.line;
            err->column = jerr.column;
        }
        st = FAIL(r, POSENC_ERR_FORMAT, "", "invalid JSON at line %d, column %d: %s", jerr.line,
                  jerr.column, jerr.text);
    } else {
        st = read_model(r, root, model_type);
        json_decref(root);
    }
    if (st == POSENC_OK)
        *out = *m;
    free(m);
    free(r);
    return st;
}

posenc_status posenc_model_from_config(const char *path, const char *model_type,
                                       posenc_model *out, posenc_config_error *err)
{
    char *buf;
    size_t n;
    posenc_status st = posenc__cfg_open(path, out, err, "", &buf, &n);
    if (st == POSENC_OK)
        st = posenc_model_from_config_text(buf, n, model_type, out, err);
    free(buf);
    return st;
}
