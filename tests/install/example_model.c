/* example_model.c - the model registry through the installed headers and
 * libraries (posenc_config.h, -lposenc_config -lposenc -ljansson): Llama 4's
 * layer 3 has no RoPE, layer 0 rotates interleaved pairs; prints
 * "llama4_text 48 none rope interleaved". */
#include <posenc_config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    const char *json = "{\"model_type\": \"llama4\", \"text_config\": {}}";
    posenc_model *m = malloc(sizeof *m);
    const posenc_model_group *g3, *g0;
    static posenc_rope r;
    if (!m || posenc_model_from_config_text(json, strlen(json), NULL, m, NULL) != POSENC_OK ||
        posenc_model_layer(m, 3, &g3) != POSENC_OK || posenc_model_layer(m, 0, &g0) != POSENC_OK ||
        posenc_model_layer_rope(m, 0, 0, &r) != POSENC_OK)
        return 1;
    printf("%s %u %s %s %s\n", m->model_type, m->n_layer, posenc_scheme_name(g3->scheme),
           posenc_scheme_name(g0->scheme),
           r.layout == POSENC_LAYOUT_INTERLEAVED ? "interleaved" : "half");
    free(m);
    return 0;
}
