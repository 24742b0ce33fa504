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
    check_skip("config", 5, "the config.json reader tests: built without jansson",
               "libjansson-dev");
    return check_summary("config");
}
#else

#include "rope_golden.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A rope_scaling block that carries its own rope_theta (gpt-oss-120b's
 * config.json): transformers 5 takes the block as its rope_parameters, so the
 * block's value wins over the top-level key (modeling_rope_utils.py
 * convert_rope_params_to_dict: "Values in rope_parameters dict" first). The
 * frequencies must be those of base 150000 computed apart: f_k =
 * 150000^(-2k/64), the first and last pair, and the top-level 10000 must not
 * be used. */
TEST(rope_scaling_own_theta)
{
    const char *j = "{\"head_dim\": 64, \"rope_theta\": 10000, \"rope_scaling\": "
                    "{\"rope_type\": \"linear\", \"factor\": 2.0, \"rope_theta\": 150000, "
                    "\"partial_rotary_factor\": 0.5}}";
    posenc_config_error err;
    CHECK(posenc_rope_from_config_text(j, strlen(j), &cfg, &err) == POSENC_OK);
    CHECK(cfg.base == 150000.0 && cfg.rotary_dim == 32 && cfg.scaling.type == POSENC_ROPE_LINEAR);
    CHECK(posenc_rope_init_config(&rope, &cfg, 0) == POSENC_OK);
    /* linear factor 2: f_k = 150000^(-2k/32) / 2 */
    CHECK(fabs(rope.inv_freq_hi[0] - 0.5) == 0.0);
    CHECK(fabs(rope.inv_freq_hi[15] / (pow(150000.0, -30.0 / 32.0) / 2) - 1) < 1e-15);
}

/* A block without rope_type or type: transformers 5 sets the type
 * "default" (modeling_rope_utils.py L825: setdefault("rope_type",
 * get("type", "default"))), so {"rope_theta": 500000} is the default RoPE of
 * base 500000: f_k = 500000^(-2k/64), computed apart. A typeless block that
 * also holds a scaling key is refused by that key's name (transformers would
 * leave it unread), and a null type stays refused (None is no RoPE type). */
TEST(typeless_block_is_default)
{
    const char *j = "{\"head_dim\": 64, \"rope_parameters\": {\"rope_theta\": 500000}}";
    posenc_config_error err;
    CHECK(posenc_rope_from_config_text(j, strlen(j), &cfg, &err) == POSENC_OK);
    CHECK(cfg.base == 500000.0 && cfg.rotary_dim == 64 && cfg.scaling.type == POSENC_ROPE_DEFAULT);
    CHECK(posenc_rope_init_config(&rope, &cfg, 0) == POSENC_OK);
    CHECK(rope.inv_freq_hi[0] == 1.0);
    CHECK(fabs(rope.inv_freq_hi[31] / pow(500000.0, -62.0 / 64.0) - 1) < 1e-15);
    const char *scaled = "{\"head_dim\": 64, \"rope_scaling\": {\"rope_theta\": 1e6, "
                         "\"factor\": 4}}";
    CHECK(posenc_rope_from_config_text(scaled, strlen(scaled), &cfg, &err) == POSENC_ERR_FORMAT);
    CHECK(strcmp(err.key, "rope_scaling.rope_type") == 0);
    CHECK(strstr(err.detail, "leaves rope_scaling.factor unread") != NULL);
}

/* Gemma 4's proportional set as a bare rope_parameters block: the whole head
 * rotates and partial_rotary_factor is the scaling's p (not the rotated part);
 * the frequencies are the mpmath golden case gemma4-proportional's. */
TEST(proportional_form)
{
    const char *j = "{\"head_dim\": 512, \"rope_parameters\": {\"rope_type\": \"proportional\", "
                    "\"rope_theta\": 1000000.0, \"partial_rotary_factor\": 0.25}}";
    posenc_config_error err;
    CHECK(posenc_rope_from_config_text(j, strlen(j), &cfg, &err) == POSENC_OK);
    CHECK(cfg.head_dim == 512 && cfg.rotary_dim == 512);
    CHECK(cfg.scaling.type == POSENC_ROPE_PROPORTIONAL && cfg.scaling.partial_rotary_factor == 0.25);
    const golden_case *g = NULL;
    for (int i = 0; i < n_cases; i++)
        if (strcmp(cases[i].name, "gemma4-proportional") == 0)
            g = &cases[i];
    CHECK(g != NULL);
    if (g) {
        CHECK(posenc_rope_init_config(&rope, &cfg, 0) == POSENC_OK);
        CHECK(memcmp(rope.inv_freq_hi, g->f_hi, 256 * sizeof(double)) == 0);
        for (int k = 0; k < 256; k++) /* double-double: to the goldens' 1e-28 */
            CHECK(fabs(rope.inv_freq_lo[k] - g->f_lo[k]) <= 1e-28 * g->f_hi[k]);
    }
    /* a key proportional does not read is refused by name */
    const char *bad = "{\"head_dim\": 512, \"rope_parameters\": {\"rope_type\": "
                      "\"proportional\", \"rope_theta\": 1e6, \"low_freq_factor\": 1}}";
    CHECK(posenc_rope_from_config_text(bad, strlen(bad), &cfg, &err) == POSENC_ERR_FORMAT);
    CHECK(strcmp(err.key, "rope_parameters.low_freq_factor") == 0);
}

/* ---- edge cases and every error of the reader -------------------------------- */

/* A config text, the status, the key and the whole detail the reader must give. */
typedef struct bad_config {
    const char *json;
    posenc_status st;
    const char *key, *detail;
} bad_config;

#define HD "{\"head_dim\": 8, "
static const bad_config BAD_CONFIGS[] = {
    /* the words for each JSON type */
    {HD "\"rope_theta\": {}}", POSENC_ERR_FORMAT, "rope_theta",
     "rope_theta must be a number, got an object"},
    {HD "\"rope_theta\": [1]}", POSENC_ERR_FORMAT, "rope_theta",
     "rope_theta must be a number, got an array"},
    {HD "\"rope_theta\": true}", POSENC_ERR_FORMAT, "rope_theta",
     "rope_theta must be a number, got a boolean"},
    {HD "\"rope_interleave\": 1}", POSENC_ERR_FORMAT, "rope_interleave",
     "rope_interleave must be true or false, got an integer"},
    {HD "\"rope_interleave\": 1.5}", POSENC_ERR_FORMAT, "rope_interleave",
     "rope_interleave must be true or false, got a number"},
    {HD "\"rope_interleave\": \"yes\"}", POSENC_ERR_FORMAT, "rope_interleave",
     "rope_interleave must be true or false, got a string"},
    /* the base */
    {HD "\"rope_parameters\": {\"rope_type\": \"default\", \"rope_theta\": \"1e4\"}}",
     POSENC_ERR_FORMAT, "rope_parameters.rope_theta",
     "rope_parameters.rope_theta must be a number, got a string"},
    {HD "\"rotary_emb_base\": false}", POSENC_ERR_FORMAT, "rotary_emb_base",
     "rotary_emb_base must be a number, got a boolean"},
    {HD "\"rope_theta\": 1}", POSENC_ERR_BASE, "rope_theta",
     "rope_theta must be finite and > 1, got 1"},
    /* the dimensions */
    {"{\"qk_rope_head_dim\": \"64\"}", POSENC_ERR_FORMAT, "qk_rope_head_dim",
     "qk_rope_head_dim must be a number, got a string"},
    {"{\"head_dim\": -8}", POSENC_ERR_FORMAT, "head_dim",
     "head_dim must be a non-negative integer, got -8"},
    {"{\"head_dim\": 1e16}", POSENC_ERR_FORMAT, "head_dim",
     "head_dim is 10000000000000000, past the largest count posenc reads (9e15; a length in "
     "tokens is at most 2^31)"},
    {"{\"head_dim\": 9223372036854775807}", POSENC_ERR_FORMAT, "head_dim",
     "head_dim is 9223372036854775807, past the largest count posenc reads (9e15; a length in "
     "tokens is at most 2^31)"},
    {"{\"head_dim\": 64.5}", POSENC_ERR_FORMAT, "head_dim",
     "head_dim must be a non-negative integer, got 64.5"},
    {"{\"hidden_size\": \"4096\", \"num_attention_heads\": 32}", POSENC_ERR_FORMAT,
     "hidden_size", "hidden_size must be a number, got a string"},
    {"{\"hidden_size\": 4096, \"num_attention_heads\": 3.5}", POSENC_ERR_FORMAT,
     "num_attention_heads", "num_attention_heads must be a non-negative integer, got 3.5"},
    {"{\"num_attention_heads\": 32}", POSENC_ERR_FORMAT, "hidden_size",
     "missing key hidden_size: the head size comes from head_dim or hidden_size / "
     "num_attention_heads"},
    {"{\"hidden_size\": 4096, \"num_attention_heads\": 0}", POSENC_ERR_FORMAT,
     "num_attention_heads", "num_attention_heads must be at least 1"},
    {"{\"hidden_size\": 64, \"num_attention_heads\": 64}", POSENC_ERR_DIM, "head_dim",
     "the head size 1 is outside 2..1024"},
    {"{\"head_dim\": 2048}", POSENC_ERR_DIM, "head_dim", "the head size 2048 is outside 2..1024"},
    {"{\"head_dim\": 64, \"qk_rope_head_dim\": 0}", POSENC_ERR_DIM, "qk_rope_head_dim",
     "the head size 0 is outside 2..1024"},
    {HD "\"rope_parameters\": {\"rope_type\": \"default\", \"partial_rotary_factor\": null, "
        "\"rope_theta\": 1e4}, \"partial_rotary_factor\": [0.5]}",
     POSENC_ERR_FORMAT, "partial_rotary_factor",
     "partial_rotary_factor must be a number, got an array"},
    {HD "\"rope_parameters\": {\"rope_type\": \"default\", \"partial_rotary_factor\": \"0.5\"}}",
     POSENC_ERR_FORMAT, "rope_parameters.partial_rotary_factor",
     "rope_parameters.partial_rotary_factor must be a number, got a string"},
    {HD "\"rope_parameters\": {\"rope_type\": \"default\", \"partial_rotary_factor\": 0}}",
     POSENC_ERR_RANGE, "rope_parameters.partial_rotary_factor",
     "rope_parameters.partial_rotary_factor must be in (0, 1], got 0"},
    {HD "\"rotary_pct\": true}", POSENC_ERR_FORMAT, "rotary_pct",
     "rotary_pct must be a number, got a boolean"},
    {HD "\"partial_rotary_factor\": 1.5}", POSENC_ERR_RANGE, "partial_rotary_factor",
     "partial_rotary_factor must be in (0, 1], got 1.5"},
    {HD "\"max_position_embeddings\": \"4k\"}", POSENC_ERR_FORMAT, "max_position_embeddings",
     "max_position_embeddings must be a number, got a string"},
    {HD "\"original_max_position_embeddings\": -1}", POSENC_ERR_FORMAT,
     "original_max_position_embeddings",
     "original_max_position_embeddings must be a non-negative integer, got -1"},
    /* features and blocks */
    {HD "\"use_dynamic_ntk\": true}", POSENC_ERR_FORMAT, "use_dynamic_ntk",
     "key use_dynamic_ntk changes RoPE in a way posenc does not implement"},
    {HD "\"use_logn_attn\": 1}", POSENC_ERR_FORMAT, "use_logn_attn",
     "key use_logn_attn changes RoPE in a way posenc does not implement"},
    {HD "\"rope_parameters\": {\"rope_type\": \"default\"}, \"rope_scaling\": {\"type\": "
        "\"default\"}}",
     POSENC_ERR_FORMAT, "rope_parameters",
     "both rope_parameters and rope_scaling are given: which one applies is ambiguous"},
    {HD "\"rope_scaling\": \"linear\"}", POSENC_ERR_FORMAT, "rope_scaling",
     "rope_scaling must be an object or null, got a string"},
    {HD "\"rope_parameters\": [1]}", POSENC_ERR_FORMAT, "rope_parameters",
     "rope_parameters must be an object or null, got an array"},
    /* the type */
    {HD "\"rope_scaling\": {\"rope_type\": 5}}", POSENC_ERR_FORMAT, "rope_scaling.rope_type",
     "rope_scaling.rope_type must be a string, got an integer"},
    {HD "\"rope_scaling\": {\"rope_type\": null, \"type\": false}}", POSENC_ERR_FORMAT,
     "rope_scaling.type", "rope_scaling.type must be a string, got a boolean"},
    {HD "\"rope_scaling\": {\"rope_type\": \"linear\", \"type\": 2, \"factor\": 2}}",
     POSENC_ERR_FORMAT, "rope_scaling.type",
     "rope_scaling.type and rope_scaling.rope_type disagree"},
    {HD "\"rope_parameters\": {\"type\": null}}", POSENC_ERR_FORMAT, "rope_parameters.rope_type",
     "missing key rope_parameters.rope_type (or type)"},
    {HD "\"rope_scaling\": {\"type\": \"yarn\", \"factor\": 2, "
        "\"original_max_position_embeddings\": \"4096\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.original_max_position_embeddings",
     "rope_scaling.original_max_position_embeddings must be a number, got a string"},
    {HD "\"rope_scaling\": {\"type\": \"yarn\", \"factor\": 2, \"attention_factor\": [], "
        "\"original_max_position_embeddings\": 4096}}",
     POSENC_ERR_FORMAT, "rope_scaling.attention_factor",
     "rope_scaling.attention_factor must be a number, got an array"},
    /* dynamic */
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"dynamic\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.factor", "missing key rope_scaling.factor"},
    {HD "\"rope_scaling\": {\"type\": \"dynamic\", \"factor\": 2}}", POSENC_ERR_FORMAT,
     "max_position_embeddings",
     "missing key max_position_embeddings (dynamic NTK's trained length)"},
    /* yarn */
    {HD "\"rope_scaling\": {\"type\": \"yarn\", \"factor\": 4}}", POSENC_ERR_FORMAT,
     "rope_scaling.original_max_position_embeddings",
     "missing key rope_scaling.original_max_position_embeddings (or max_position_embeddings)"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"yarn\", \"factor\": "
        "\"4\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.factor",
     "rope_scaling.factor must be a number, got a string"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"yarn\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.factor", "missing key rope_scaling.factor"},
    {HD "\"rope_scaling\": {\"type\": \"yarn\", \"original_max_position_embeddings\": 4096}}",
     POSENC_ERR_FORMAT, "rope_scaling.factor", "missing key rope_scaling.factor"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"yarn\", \"factor\": "
        "4, \"beta_fast\": \"32\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.beta_fast",
     "rope_scaling.beta_fast must be a number, got a string"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"yarn\", \"factor\": "
        "4, \"beta_slow\": {}}}",
     POSENC_ERR_FORMAT, "rope_scaling.beta_slow",
     "rope_scaling.beta_slow is an object: per-layer-type RoPE parameters are not supported"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"yarn\", \"factor\": "
        "4, \"beta_slow\": true}}",
     POSENC_ERR_FORMAT, "rope_scaling.beta_slow",
     "rope_scaling.beta_slow must be a number, got a boolean"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"yarn\", \"factor\": "
        "4, \"mscale\": \"1\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.mscale", "rope_scaling.mscale must be a number, got a string"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"yarn\", \"factor\": "
        "4, \"mscale_all_dim\": [0]}}",
     POSENC_ERR_FORMAT, "rope_scaling.mscale_all_dim",
     "rope_scaling.mscale_all_dim must be a number, got an array"},
    /* llama3 */
    {HD "\"rope_scaling\": {\"rope_type\": \"llama3\", \"low_freq_factor\": 1, "
        "\"high_freq_factor\": 4, \"original_max_position_embeddings\": 8192}}",
     POSENC_ERR_FORMAT, "rope_scaling.factor", "missing key rope_scaling.factor"},
    {HD "\"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8, "
        "\"high_freq_factor\": 4, \"original_max_position_embeddings\": 8192}}",
     POSENC_ERR_FORMAT, "rope_scaling.low_freq_factor", "missing key rope_scaling.low_freq_factor"},
    {HD "\"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8, \"low_freq_factor\": 1, "
        "\"high_freq_factor\": 4}}",
     POSENC_ERR_FORMAT, "rope_scaling.original_max_position_embeddings",
     "missing key rope_scaling.original_max_position_embeddings"},
    /* longrope (head_dim 8: 4 values per list) */
    {HD "\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": [1, 1, 1, 1]}}",
     POSENC_ERR_FORMAT, "rope_scaling.long_factor",
     "missing key rope_scaling.long_factor (longrope needs it)"},
    {HD "\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": null, \"long_factor\": "
        "[1, 1, 1, 1]}}",
     POSENC_ERR_FORMAT, "rope_scaling.short_factor",
     "missing key rope_scaling.short_factor (longrope needs it)"},
    {HD "\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": \"1,1,1,1\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.short_factor",
     "rope_scaling.short_factor must be an array of numbers, got a string"},
    {HD "\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": [1, null, 1, 1]}}",
     POSENC_ERR_FORMAT, "rope_scaling.short_factor",
     "rope_scaling.short_factor[1] must be a number, got null"},
    {HD "\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": [1, 1, 1, 1], "
        "\"long_factor\": [1, 1, 1, 1]}}",
     POSENC_ERR_FORMAT, "original_max_position_embeddings",
     "missing key original_max_position_embeddings (or max_position_embeddings)"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"longrope\", "
        "\"short_factor\": [1, 1, 1, 1], \"long_factor\": [1, 1, 1, 1], \"factor\": \"2\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.factor", "rope_scaling.factor must be a number, got a string"},
    /* values the reader passes on and posenc_rope_init_config refuses */
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"longrope\", "
        "\"short_factor\": [1, 0, 1, 1], \"long_factor\": [1, 1, 1, 1]}}",
     POSENC_ERR_RANGE, "rope_scaling",
     "the RoPE parameters in rope_scaling are out of range: argument out of range (a value "
     "past its limit, or one that makes a frequency 0, subnormal, infinite or NaN)"},
    /* the root and the refused features */
    {"[1]", POSENC_ERR_FORMAT, "", "a config.json must be a JSON object, got an array"},
    {HD "\"use_dynamic_ntk\": true}", POSENC_ERR_FORMAT, "use_dynamic_ntk",
     "key use_dynamic_ntk changes RoPE in a way posenc does not implement"},
    /* the block: one of the two, an object, with a type that is a known string */
    {HD "\"rope_parameters\": {\"rope_type\": \"default\"}, \"rope_scaling\": {\"type\": "
        "\"linear\", \"factor\": 2}}",
     POSENC_ERR_FORMAT, "rope_parameters",
     "both rope_parameters and rope_scaling are given: which one applies is ambiguous"},
    {HD "\"rope_scaling\": 2}", POSENC_ERR_FORMAT, "rope_scaling",
     "rope_scaling must be an object or null, got an integer"},
    {HD "\"rope_scaling\": {\"factor\": 2}}", POSENC_ERR_FORMAT, "rope_scaling.rope_type",
     "missing key rope_scaling.rope_type (or type): transformers reads a block without one as "
     "the default RoPE and leaves rope_scaling.factor unread; name the type"},
    {HD "\"rope_scaling\": {\"type\": 3}}", POSENC_ERR_FORMAT, "rope_scaling.type",
     "rope_scaling.type must be a string, got an integer"},
    {HD "\"rope_scaling\": {\"rope_type\": \"linear\", \"type\": 3, \"factor\": 2}}",
     POSENC_ERR_FORMAT, "rope_scaling.type",
     "rope_scaling.type and rope_scaling.rope_type disagree"},
    {HD "\"rope_parameters\": {\"rope_type\": \"frob\"}}", POSENC_ERR_FORMAT,
     "rope_parameters.rope_type",
     "rope_parameters.rope_type 'frob' is not a RoPE type posenc knows (default, linear, ntk, "
     "dynamic, yarn, llama3, longrope, proportional)"},
    /* longrope's lists */
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"longrope\", "
        "\"long_factor\": [1, 1, 1, 1]}}",
     POSENC_ERR_FORMAT, "rope_scaling.short_factor",
     "missing key rope_scaling.short_factor (longrope needs it)"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"longrope\", "
        "\"short_factor\": 1, \"long_factor\": [1, 1, 1, 1]}}",
     POSENC_ERR_FORMAT, "rope_scaling.short_factor",
     "rope_scaling.short_factor must be an array of numbers, got an integer"},
};
#undef HD

TEST(broken_config_texts)
{
    for (size_t i = 0; i < sizeof BAD_CONFIGS / sizeof BAD_CONFIGS[0]; i++) {
        const bad_config *b = &BAD_CONFIGS[i];
        posenc_config_error err;
        memset(&cfg, 0x33, sizeof cfg);
        posenc_status st = posenc_rope_from_config_text(b->json, strlen(b->json), &cfg, &err);
        int ok = st == b->st && strcmp(err.key, b->key) == 0 && strcmp(err.detail, b->detail) == 0;
        if (!ok)
            fprintf(stderr, "bad config %zu: status %d key '%s' detail '%s'\n", i, (int)st,
                    err.key, err.detail);
        CHECK(ok);
        CHECK(err.line == 0 && err.column == 0);
        CHECK(cfg.head_dim == 0x33333333u); /* untouched on error */
        /* the same without a place for the message: the same status */
        CHECK(posenc_rope_from_config_text(b->json, strlen(b->json), &cfg, NULL) == b->st);
    }
}

static posenc_status read_text(const char *json)
{
    posenc_config_error err;
    memset(&cfg, 0, sizeof cfg);
    posenc_status st = posenc_rope_from_config_text(json, strlen(json), &cfg, &err);
    if (st != POSENC_OK)
        fprintf(stderr, "config %s: %s\n", json, err.detail);
    return st;
}

/* Accepted forms, each read back by hand. */
TEST(accepted_config_forms)
{
    /* null means absent: the default base; a false refused feature is no feature */
    CHECK(read_text("{\"head_dim\": 8, \"rope_theta\": null, \"use_logn_attn\": false, "
                    "\"rope_local_base_freq\": null, \"rope_scaling\": null, "
                    "\"rope_parameters\": null, \"rope_interleave\": null}") == POSENC_OK);
    CHECK(cfg.base == 10000.0 && cfg.head_dim == 8 && cfg.rotary_dim == 8);
    CHECK(cfg.layout == POSENC_LAYOUT_HALF && cfg.scaling.type == POSENC_ROPE_DEFAULT);
    /* GPT-NeoX's names; rope_interleave true; rope_scaling null beside rope_parameters */
    CHECK(read_text("{\"hidden_size\": 6144, \"num_attention_heads\": 64, \"rotary_emb_base\": "
                    "500000, \"rotary_pct\": 0.25, \"rope_interleave\": true}") == POSENC_OK);
    CHECK(cfg.head_dim == 96 && cfg.rotary_dim == 24 && cfg.base == 500000.0);
    CHECK(cfg.layout == POSENC_LAYOUT_INTERLEAVED);
    /* rope_parameters with rope_theta and partial_rotary_factor inside, type "default" */
    CHECK(read_text("{\"head_dim\": 64, \"rope_scaling\": null, \"rope_parameters\": "
                    "{\"rope_type\": \"default\", \"rope_theta\": 1e6, \"partial_rotary_factor\": "
                    "0.5}, \"partial_rotary_factor\": 0.25}") == POSENC_OK);
    CHECK(cfg.base == 1e6 && cfg.rotary_dim == 32 && cfg.scaling.type == POSENC_ROPE_DEFAULT);
    /* both type names, the same */
    CHECK(read_text("{\"head_dim\": 8, \"rope_scaling\": {\"rope_type\": \"linear\", \"type\": "
                    "\"linear\", \"factor\": 2}}") == POSENC_OK);
    CHECK(cfg.scaling.type == POSENC_ROPE_LINEAR && cfg.scaling.factor == 2.0);
    /* dynamic: the block's L may repeat max_position_embeddings */
    CHECK(read_text("{\"head_dim\": 8, \"max_position_embeddings\": 4096, \"rope_scaling\": "
                    "{\"type\": \"dynamic\", \"factor\": 2, \"original_max_position_embeddings\": "
                    "4096}}") == POSENC_OK);
    CHECK(cfg.scaling.original_max_position_embeddings == 4096.0);
    /* yarn without factor: max_position_embeddings / L = 16384 / 4096; beta 0 = default */
    CHECK(read_text("{\"head_dim\": 8, \"max_position_embeddings\": 16384, \"rope_scaling\": "
                    "{\"type\": \"yarn\", \"original_max_position_embeddings\": 4096, "
                    "\"beta_fast\": 0, \"beta_slow\": 0, \"truncate\": null}}") == POSENC_OK);
    CHECK(cfg.scaling.factor == 4.0 && cfg.scaling.beta_fast == 32.0 &&
          cfg.scaling.beta_slow == 1.0 && cfg.scaling.truncate == 1);
    /* longrope without factor or max_position_embeddings: factor 1, attention 1 */
    CHECK(read_text("{\"head_dim\": 8, \"original_max_position_embeddings\": 4096, "
                    "\"rope_scaling\": {\"type\": \"su\", \"short_factor\": [1, 2, 3, 4], "
                    "\"long_factor\": [5, 6, 7, 8]}}") == POSENC_OK);
    CHECK(cfg.scaling.type == POSENC_ROPE_LONGROPE && cfg.scaling.factor == 1.0);
    CHECK(cfg.scaling.original_max_position_embeddings == 4096.0);
    CHECK(cfg.short_factor[3] == 4.0 && cfg.long_factor[0] == 5.0);
}

TEST(config_arguments)
{
    posenc_config_error err;
    const char *j = "{\"head_dim\": 8}";
    CHECK(posenc_rope_from_config_text(NULL, 3, &cfg, &err) == POSENC_ERR_NULL);
    CHECK(posenc_rope_from_config_text(j, strlen(j), NULL, &err) == POSENC_ERR_NULL);
    CHECK(posenc_rope_from_config_text(j, strlen(j), &cfg, NULL) == POSENC_OK);
    CHECK(cfg.head_dim == 8);
    /* bad JSON without err: only the status; len counts, no NUL needed */
    CHECK(posenc_rope_from_config_text(j, strlen(j) - 1, &cfg, NULL) == POSENC_ERR_FORMAT);
    CHECK(posenc_rope_from_config("tests/data/llama-2-7b.json", NULL, &err) == POSENC_ERR_NULL);
    /* a directory opens but cannot be read */
    CHECK(posenc_rope_from_config("tests/data", &cfg, &err) == POSENC_ERR_IO);
    CHECK(strcmp(err.detail, "error reading tests/data") == 0 && err.key[0] == '\0');
}

/* The 64 MiB limit of a config file: a sparse file of exactly 67108864 bytes
 * is read whole (and then refused as JSON: NUL bytes), one byte more is
 * refused by size. */
TEST(config_size_limit)
{
    char path[] = "/tmp/posenc-cov-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    posenc_config_error err;
    const off_t limit = 64 * 1024 * 1024;
    CHECK(ftruncate(fd, limit) == 0);
    CHECK(posenc_rope_from_config(path, &cfg, &err) == POSENC_ERR_FORMAT);
    CHECK(strncmp(err.detail, "invalid JSON at line 1, column ", 31) == 0);
    CHECK(ftruncate(fd, limit + 1) == 0);
    CHECK(posenc_rope_from_config(path, &cfg, &err) == POSENC_ERR_FORMAT);
    char want[128];
    snprintf(want, sizeof want, "%s is larger than 67108864 bytes", path);
    CHECK(strcmp(err.detail, want) == 0);
    close(fd);
    unlink(path);
    /* the public bound, and text past it refused by both text readers */
    CHECK_EQ_INT(POSENC_CONFIG_MAX_BYTES, limit);
    char *big = calloc((size_t)limit + 1, 1);
    CHECK(big != NULL);
    if (!big)
        return;
    CHECK(posenc_rope_from_config_text(big, (size_t)limit + 1, &cfg, &err) == POSENC_ERR_FORMAT);
    CHECK(strcmp(err.detail, "the config text is larger than 67108864 bytes") == 0);
    posenc_model *m = NULL;
    CHECK(posenc_model_create(&m) == POSENC_OK);
    if (m) {
        CHECK(posenc_model_from_config_text(big, (size_t)limit + 1, NULL, m, &err) ==
              POSENC_ERR_FORMAT);
        CHECK(strcmp(err.detail, "the config text is larger than 67108864 bytes") == 0);
        posenc_model_free(m);
    }
    free(big);
}

int main(void)
{
    RUN(fixtures_match_golden);
    RUN(known_models);
    RUN(broken_configs);
    RUN(rope_parameters_form);
    RUN(typeless_block_is_default);
    RUN(proportional_form);
    RUN(rope_scaling_own_theta);
    RUN(broken_config_texts);
    RUN(accepted_config_forms);
    RUN(config_arguments);
    RUN(config_size_limit);
    return check_summary("config");
}
#endif
