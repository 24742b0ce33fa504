/* config_families.c - the family registry and its look-ups (see
 * config_families.h). Every entry cites the file and lines of the code it
 * follows. Paths under "models/" are in the repository
 * zucchini-nlp/transformers (a recent copy of Hugging Face transformers)
 * below src/transformers/; others name the model's own repository on the
 * Hugging Face Hub. docs/MODELS.md has the table in prose. */
#include "config_families.h"
#include "posenc_config.h"

#include <string.h>

#define HALF POSENC_LAYOUT_HALF
#define INTERLEAVED POSENC_LAYOUT_INTERLEAVED

/* Sorted by model_type (the listing's order; tests check it). */
static const posenc_model_family FAMILIES[] = {
#include "config_families_table.h"
};

#define N_FAMILIES (sizeof FAMILIES / sizeof FAMILIES[0])

size_t posenc__families(const posenc_model_family **table)
{
    if (table)
        *table = FAMILIES;
    return N_FAMILIES;
}

const posenc_model_family *posenc__family_find(const char *model_type)
{
    if (!model_type)
        return NULL;
    for (size_t i = 0; i < N_FAMILIES; i++)
        if (strcmp(FAMILIES[i].model_type, model_type) == 0)
            return &FAMILIES[i];
    return NULL;
}

const posenc_model_family *posenc__family_by_arch(const char *class_name)
{
    if (!class_name)
        return NULL;
    static const char *const suffix[] = {"For", "Model", "LMHead"};
    for (size_t i = 0; i < N_FAMILIES; i++) {
        const char *a = FAMILIES[i].arch;
        if (!a)
            continue;
        size_t n = strlen(a);
        if (strncmp(class_name, a, n) != 0)
            continue;
        for (size_t j = 0; j < sizeof suffix / sizeof suffix[0]; j++)
            if (strncmp(class_name + n, suffix[j], strlen(suffix[j])) == 0)
                return &FAMILIES[i];
    }
    return NULL;
}

size_t posenc_model_family_count(void) { return N_FAMILIES; }

posenc_status posenc_model_family_info(size_t i, posenc_family_info *out)
{
    if (!out)
        return POSENC_ERR_NULL;
    if (i >= N_FAMILIES)
        return POSENC_ERR_RANGE;
    const posenc_model_family *f = &FAMILIES[i];
    int rope = !f->nested && (f->scheme == POSENC_SCHEME_ROPE || f->scheme == POSENC_SCHEME_MIXED) &&
               f->layers != POSENC_LAYERS_ENC_DEC;
    out->model_type = f->model_type;
    out->scheme = f->scheme;
    out->rope_layout = rope ? (int)f->layout : -1;
    out->part = f->nested;
    out->part_type = f->nested ? f->nested_type : NULL;
    out->or_alibi = (f->flags & (POSENC_FAMILY_ALIBI_KEY | POSENC_FAMILY_BAICHUAN)) != 0;
    out->supported = f->refused == NULL;
    out->source = f->source;
    return POSENC_OK;
}
