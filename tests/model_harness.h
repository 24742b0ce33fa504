/* model_harness.h - what the tests of the model layer and its reader share
 * (test_model_*.c): the model under test, a layer's group (white box), a
 * config.json written inline, and the three keys most inline configs give.
 * Included once per test program. */
#ifndef POSENC_TESTS_MODEL_HARNESS_H
#define POSENC_TESTS_MODEL_HARNESS_H

#include "posenc_config.h"
#include "config_families.h" /* white box: the registry (src/) */
#include "model.h"           /* white box: a model's groups (src/) */

#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static posenc_model model; /* ~50 KiB: static, not on the stack */

/* The group of a layer (white box), with posenc_model_layer's status. */
static inline posenc_status group_at(const posenc_model *m, uint32_t layer,
                                     const posenc_model_group **g)
{
    posenc_layer_info li;
    posenc_status st = posenc_model_layer(m, layer, g ? &li : NULL);
    if (st == POSENC_OK)
        *g = posenc__model_group(m, layer);
    return st;
}

#ifdef POSENC_HAVE_JSON
#define L32 "\"num_hidden_layers\": 2, \"hidden_size\": 256, \"num_attention_heads\": 4"

/* model read from a config.json given as text, with --model-type override
 * (NULL: none); the reader's message on stderr when it refuses. */
static inline posenc_status read_text(const char *json, const char *override)
{
    posenc_config_error err;
    posenc_status st = posenc_model_from_config_text(json, strlen(json), override, &model, &err);
    if (st != POSENC_OK)
        fprintf(stderr, "read_text: %s\n", err.detail);
    return st;
}
#endif

#endif
