/* example_model.c - a model through the installed headers and libraries
 * (posenc_config.h and posenc_model.h, -lposenc_config -lposenc -ljansson):
 * Llama 4's layer 3 has no RoPE, layer 0 rotates interleaved pairs; prints
 * "llama4_text 48 none rope interleaved". */
#include <posenc_config.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    const char *json = "{\"model_type\": \"llama4\", \"text_config\": {}}";
    posenc_model *m;
    posenc_layer_info l3, l0;
    static posenc_rope r;
    if (posenc_model_create(&m) != POSENC_OK)
        return 1;
    if (posenc_model_from_config_text(json, strlen(json), NULL, m, NULL) != POSENC_OK ||
        posenc_model_layer(m, 3, &l3) != POSENC_OK || posenc_model_layer(m, 0, &l0) != POSENC_OK ||
        posenc_model_layer_rope(m, 0, 0, &r) != POSENC_OK) {
        posenc_model_free(m);
        return 1;
    }
    printf("%s %u %s %s %s\n", posenc_model_type(m), posenc_model_n_layer(m),
           posenc_scheme_name(l3.scheme), posenc_scheme_name(l0.scheme),
           r.layout == POSENC_LAYOUT_INTERLEAVED ? "interleaved" : "half");
    posenc_model_free(m);
    return 0;
}
