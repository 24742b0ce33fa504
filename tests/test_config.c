/* test_config.c - the Hugging Face config.json reader (optional part, needs
 * jansson): every model fixture gives the parameters and frequencies of the
 * golden file (which tools/gen_rope_golden.py derived from the same JSON
 * with its own reading of the rules), and broken configs are refused with a
 * message naming the key. */
#include "posenc_config.h"

#include "check.h"

#ifndef POSENC_HAVE_JSON

int main(void)
{
    (void)check__failed_checks;
    check_skip("test_config", 1, "the config.json reader tests: built without jansson",
               "libjansson-dev");
    return check_summary("test_config");
}
#else

#include "rope_golden.h"

#include <string.h>

static golden_case cases[GOLDEN_MAX_CASES];
static int n_cases;
static posenc_rope_config cfg;
static posenc_rope rope;

TEST(fixtures_match_golden)
{
    n_cases = golden_read("tests/data/rope_golden.txt", cases, GOLDEN_MAX_CASES);
    CHECK(n_cases > 0);
    int from_files = 0;
    for (int i = 0; i < n_cases; i++) {
        const golden_case *g = &cases[i];
        if (strcmp(g->source, "-") == 0)
            continue;
        char path[128];
        snprintf(path, sizeof path, "tests/data/%s", g->source);
        posenc_config_error err;
        posenc_status st = posenc_rope_from_config(path, &cfg, &err);
        if (st != POSENC_OK)
            fprintf(stderr, "%s: %s: %s\n", path, posenc_strerror(st), err.detail);
        CHECK(st == POSENC_OK);
        if (st != POSENC_OK)
            continue;
        from_files++;
        const posenc_rope_scaling *a = &cfg.scaling, *b = &g->cfg.scaling;
        CHECK_EQ_INT(cfg.head_dim, g->head_dim);
        CHECK_EQ_INT(cfg.rotary_dim, g->rotary_dim);
        CHECK_EQ_INT(cfg.layout, g->layout);
        CHECK(cfg.base == g->base);
        CHECK_EQ_INT(a->type, b->type);
        CHECK(a->factor == b->factor);
        CHECK(a->original_max_position_embeddings == b->original_max_position_embeddings);
        CHECK(a->beta_fast == b->beta_fast && a->beta_slow == b->beta_slow);
        CHECK(!a->truncate == !b->truncate);
        CHECK(a->mscale == b->mscale && a->mscale_all_dim == b->mscale_all_dim);
        CHECK(a->attention_factor == b->attention_factor);
        CHECK(a->low_freq_factor == b->low_freq_factor);
        CHECK(a->high_freq_factor == b->high_freq_factor);
        CHECK_EQ_INT(a->n_short_factor, b->n_short_factor);
        CHECK_EQ_INT(a->n_long_factor, b->n_long_factor);
        CHECK(memcmp(cfg.short_factor, g->cfg.short_factor,
                     b->n_short_factor * sizeof(double)) == 0);
        CHECK(memcmp(cfg.long_factor, g->cfg.long_factor, b->n_long_factor * sizeof(double)) ==
              0);
        CHECK(posenc_rope_init_config(&rope, &cfg, g->cur_len) == POSENC_OK);
        CHECK_NEAR(rope.attn_factor, g->attn_hi, 1e-15);
        for (uint32_t k = 0; k < g->n_freqs; k++)
            CHECK(fabs((rope.inv_freq_hi[k] - g->f_hi[k]) + (rope.inv_freq_lo[k] - g->f_lo[k])) <=
                  1e-28 * g->f_hi[k]);
    }
    CHECK(from_files >= 13);
}

/* Published values read back, by hand. */
TEST(known_models)
{
    posenc_config_error err;
    CHECK(posenc_rope_from_config("tests/data/gpt-neox-20b.json", &cfg, &err) == POSENC_OK);
    CHECK(cfg.head_dim == 96 && cfg.rotary_dim == 24 && cfg.layout == POSENC_LAYOUT_HALF);
    CHECK(posenc_rope_from_config("tests/data/deepseek-v2-lite.json", &cfg, &err) == POSENC_OK);
    CHECK(cfg.head_dim == 64 && cfg.rotary_dim == 64 &&
          cfg.layout == POSENC_LAYOUT_INTERLEAVED);
    CHECK(cfg.scaling.type == POSENC_ROPE_YARN && cfg.scaling.factor == 40.0 &&
          cfg.scaling.mscale == 0.707 && cfg.max_position_embeddings == 163840);
    CHECK(posenc_rope_from_config("tests/data/phi-4-mini.json", &cfg, &err) == POSENC_OK);
    CHECK(cfg.head_dim == 128 && cfg.rotary_dim == 96);
    CHECK(cfg.scaling.factor == 32.0 && cfg.scaling.original_max_position_embeddings == 4096.0);
    CHECK(cfg.long_factor[47] == 47.77);
    CHECK(posenc_rope_from_config("tests/data/gpt-oss-20b.json", &cfg, &err) == POSENC_OK);
    CHECK(cfg.scaling.truncate == 0 && cfg.base == 150000.0 && cfg.head_dim == 64);
}

/* The config text and what the error must say: status, key, a phrase. */
typedef struct bad {
    const char *json; /* or a file under tests/data when it starts with '@' */
    posenc_status st;
    const char *key, *phrase;
} bad;

static const bad BAD[] = {
    {"@bad-unknown-type.json", POSENC_ERR_FORMAT, "rope_scaling.rope_type",
     "'ntk-by-parts' is not a RoPE type"},
    {"@bad-missing-key.json", POSENC_ERR_FORMAT, "rope_scaling.high_freq_factor", "missing key"},
    {"@bad-wrong-type.json", POSENC_ERR_FORMAT, "rope_theta", "must be a number, got a string"},
    {"@bad-json.json", POSENC_ERR_FORMAT, "", "invalid JSON at line 3"},
    {"@bad-unknown-key.json", POSENC_ERR_FORMAT, "rope_scaling.mrope_section",
     "not a parameter of rope type default"},
    {"@bad-no-dims.json", POSENC_ERR_FORMAT, "hidden_size", "text_config"},
    {"{\"head_dim\": 64, \"rope_theta\": 1e4, \"rope_theta\": 5e5}", POSENC_ERR_FORMAT, "",
     "duplicate"},
    {"{\"head_dim\": 64, \"rope_scaling\": {\"type\": \"yarn\", \"rope_type\": \"linear\", "
     "\"factor\": 2}}",
     POSENC_ERR_FORMAT, "rope_scaling.type", "disagree"},
    {"{\"head_dim\": 64, \"rope_parameters\": {\"full_attention\": {\"rope_type\": \"default\"}}}",
     POSENC_ERR_FORMAT, "rope_parameters.full_attention", "per-layer-type"},
    {"{\"head_dim\": 64, \"rope_local_base_freq\": 10000}", POSENC_ERR_FORMAT,
     "rope_local_base_freq", "does not implement"},
    {"{\"head_dim\": 64, \"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": "
     "\"yarn\", \"factor\": 4, \"truncate\": \"no\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.truncate", "true or false"},
    {"{\"head_dim\": 8, \"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": [1, 1], "
     "\"long_factor\": [1, 2, 3, 4]}, \"max_position_embeddings\": 4096}",
     POSENC_ERR_FORMAT, "rope_scaling.short_factor", "has 2 values"},
    {"{\"head_dim\": 64, \"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": "
     "\"dynamic\", \"factor\": 2, \"original_max_position_embeddings\": 2048}}",
     POSENC_ERR_FORMAT, "rope_scaling.original_max_position_embeddings", "ambiguous"},
    {"{\"head_dim\": 64, \"rope_scaling\": {\"type\": \"linear\", \"factor\": 0.5}}",
     POSENC_ERR_RANGE, "rope_scaling", "out of range"},
    {"{\"head_dim\": 80, \"partial_rotary_factor\": 0.3125}", POSENC_ERR_RANGE,
     "partial_rotary_factor", "rotary dimension of 25"},
    {"{\"head_dim\": 80, \"rotary_pct\": 0.01}", POSENC_ERR_RANGE, "rotary_pct",
     "must be even and at least 2"},
    {"[1, 2]", POSENC_ERR_FORMAT, "", "must be a JSON object"},
    {"{\"hidden_size\": 4096}", POSENC_ERR_FORMAT, "num_attention_heads", "missing key"},
    {"{\"head_dim\": 64, \"rope_scaling\": {\"factor\": 2}}", POSENC_ERR_FORMAT,
     "rope_scaling.rope_type", "missing key"},
};

TEST(broken_configs)
{
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        const bad *b = &BAD[i];
        posenc_config_error err;
        posenc_status st;
        memset(&cfg, 0x33, sizeof cfg);
        if (b->json[0] == '@') {
            char path[128];
            snprintf(path, sizeof path, "tests/data/%s", b->json + 1);
            st = posenc_rope_from_config(path, &cfg, &err);
        } else {
            st = posenc_rope_from_config_text(b->json, strlen(b->json), &cfg, &err);
        }
        int ok = st == b->st && strcmp(err.key, b->key) == 0 && strstr(err.detail, b->phrase);
        if (!ok)
            fprintf(stderr, "bad config %zu: status %d key '%s' detail '%s'\n", i, (int)st,
                    err.key, err.detail);
        CHECK(ok);
        CHECK(cfg.head_dim == 0x33333333u); /* untouched on error */
    }
    posenc_config_error err;
    CHECK(posenc_rope_from_config("tests/data/no-such-config.json", &cfg, &err) == POSENC_ERR_IO);
    CHECK(strstr(err.detail, "No such file") != NULL);
    CHECK(posenc_rope_from_config("tests/data/bad-json.json", &cfg, &err) == POSENC_ERR_FORMAT);
    CHECK(err.line == 3 && err.column >= 1);
    CHECK(posenc_rope_from_config(NULL, &cfg, NULL) == POSENC_ERR_NULL);
}

/* The new transformers form: rope_parameters holding rope_theta too. */
TEST(rope_parameters_form)
{
    const char *j = "{\"hidden_size\": 4096, \"num_attention_heads\": 32, "
                    "\"max_position_embeddings\": 131072, \"rope_parameters\": {\"rope_type\": "
                    "\"llama3\", \"rope_theta\": 500000.0, \"factor\": 8.0, \"low_freq_factor\": "
                    "1.0, \"high_freq_factor\": 4.0, \"original_max_position_embeddings\": 8192}}";
    posenc_config_error err;
    CHECK(posenc_rope_from_config_text(j, strlen(j), &cfg, &err) == POSENC_OK);
    CHECK(cfg.base == 500000.0 && cfg.scaling.type == POSENC_ROPE_LLAMA3 && cfg.head_dim == 128);
    const golden_case *g = NULL;
    for (int i = 0; i < n_cases; i++)
        if (strcmp(cases[i].name, "llama-3.1-8b") == 0)
            g = &cases[i];
    CHECK(g != NULL);
    if (g) {
        CHECK(posenc_rope_init_config(&rope, &cfg, 0) == POSENC_OK);
        CHECK(memcmp(rope.inv_freq_hi, g->f_hi, 64 * sizeof(double)) == 0);
    }
}

int main(void)
{
    RUN(fixtures_match_golden);
    RUN(known_models);
    RUN(broken_configs);
    RUN(rope_parameters_form);
    return check_summary("test_config");
}
#endif
