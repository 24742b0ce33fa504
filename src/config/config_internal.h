/* config_internal.h - shared by the config readers of the optional config
 * library (src/config/config.c, src/config/config_model.c); not installed. */
#ifndef POSENC_CONFIG_INTERNAL_H
#define POSENC_CONFIG_INTERNAL_H

#include "posenc_config.h"

#include <jansson.h>

/* Where messages go, and the name of the RoPE block being read ("rope_scaling",
 * "rope_parameters", "text_config.rope_parameters.full_attention"...). */
typedef struct reader {
    posenc_config_error *err;
    const char *block;
} reader;

/* Records key and the formatted detail in rd->err (when not NULL); returns st. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
posenc_status posenc__cfg_fail(reader *rd, posenc_status st, const char *key, const char *fmt,
                               ...);
/* "an object", "a string"...: for messages. */
const char *posenc__cfg_type_word(const json_t *v);
/* A number / non-negative integer / boolean at obj[key]; absent or null:
 * *present = 0. name is the key's full name for messages. */
posenc_status posenc__cfg_number(reader *rd, const json_t *obj, const char *key, const char *name,
                                 double *out, int *present);
posenc_status posenc__cfg_count(reader *rd, const json_t *obj, const char *key, const char *name,
                                int64_t *out, int *present);
posenc_status posenc__cfg_bool(reader *rd, const json_t *obj, const char *key, const char *name,
                               int *out, int *present);
/* Reads the scaling block rs (see config.c). */
posenc_status posenc__cfg_scaling(reader *rd, const json_t *rs, int64_t maxpos,
                                  int have_maxpos, int64_t top_orig, int have_top_orig,
                                  posenc_rope_config *c);
/* posenc_rope_init_config(r, c, cur_len), with a message naming rd->block. */
posenc_status posenc__cfg_usable(reader *rd, posenc_rope *r, const posenc_rope_config *c,
                                 int64_t cur_len);
/* Reads the file at path into a malloc'd buffer (*buf, *len); the caller frees. */
posenc_status posenc__cfg_slurp(reader *rd, const char *path, char **buf, size_t *len);
/* The file entry points' start: err cleared, POSENC_ERR_NULL for a NULL
 * path or out, then the file read into *buf (NULL on failure; the caller
 * frees), messages naming block. */
posenc_status posenc__cfg_open(const char *path, const void *out, posenc_config_error *err,
                               const char *block, char **buf, size_t *n);

#endif
