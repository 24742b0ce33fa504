/* test_rope_spec.c - the RoPE specification parser of the program
 * (cli/rope_spec.c), the words of SET rope and `posenc plot --rope`, alone:
 * every error with its exact message, what a good specification fills in
 * (checked field by field against the words), what it keeps from the model
 * already active, and the config.json loader shared by --config. Links
 * cli/words.o, cli/rope_spec.o and the library only. */
#include "check.h"
#include "rope_spec.h"

#include <stdlib.h>
#include <string.h>

/* Splits line at spaces into words. */
static size_t split(const char *line, cli_token *t, size_t max)
{
    size_t n = 0;
    for (const char *p = line; *p && n < max;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (len)
            t[n++] = (cli_token){p, len};
        p += len;
    }
    return n;
}

static posenc_rope_config cfg;
static char why[1024];

/* The status of parsing line from the plain settings (base 10000,
 * interleaved) and the model current (NULL: none). */
static rope_spec_status parse_from(const char *line, const posenc_rope_config *current)
{
    cli_token t[600];
    size_t n = split(line, t, 600);
    rope_spec_start from = {10000.0, POSENC_LAYOUT_INTERLEAVED, current};
    why[0] = '\0';
    return rope_spec_parse(t, n, &from, &cfg, why, sizeof why);
}

/* line must be refused with exactly message. */
#define REFUSED(line, message) refused(__LINE__, line, message)
static void refused(int at, const char *line, const char *message)
{
    rope_spec_status s = parse_from(line, NULL);
    if (s != ROPE_SPEC_BAD || strcmp(why, message) != 0) {
        fprintf(stderr, "  line %d: '%.60s'\n    status %d, '%s'\n    want %d, '%s'\n", at, line,
                (int)s, why, (int)ROPE_SPEC_BAD, message);
        check__failed_checks++;
    }
}

#define KEYS                                                                                   \
    "(head_dim, rotary_dim, base, factor, original, beta_fast, beta_slow, truncate, mscale, " \
    "mscale_all_dim, attention_factor, low_freq_factor, high_freq_factor, short_factor, "      \
    "long_factor, freq_factors, partial_rotary_factor)"

TEST(each_word_error_has_its_message)
{
    REFUSED("", "SET rope needs a type: off, default, linear, ntk, dynamic, yarn, llama3, "
                "longrope or proportional, then key=value settings");
    REFUSED("warp", "SET rope: unknown type 'warp' (off, default, linear, ntk, dynamic, yarn, "
                    "llama3, longrope, proportional)");
    /* 16 letters: longer than any type, refused without a lookup */
    REFUSED("linearlinearline", "SET rope: unknown type 'linearlinearline' (off, default, "
                                "linear, ntk, dynamic, yarn, llama3, longrope, proportional)");
    /* a word of 41 bytes is cut at 40 and says so */
    REFUSED("abcdefghijklmnopqrstuvwxyzabcdefghijklmno",
            "SET rope: unknown type 'abcdefghijklmnopqrstuvwxyzabcdefghijklmn...' (off, default, "
            "linear, ntk, dynamic, yarn, llama3, longrope, proportional)");
    REFUSED("linear factor", "SET rope: 'factor' is not key=value");
    REFUSED("linear head_dim=8 colour=red", "SET rope: unknown key 'colour' " KEYS);
    REFUSED("linear abcdefghijklmnopqrstuvwxyzabcdefghijklmnopq=1",
            "SET rope: unknown key 'abcdefghijklmnopqrstuvwxyzabcdefghijklmn...' " KEYS);
    REFUSED("linear factor=abc", "SET rope: factor=abc is not a number");
    REFUSED("yarn beta_fast=1e999", "SET rope: beta_fast=1e999 is not a number");
    REFUSED("linear head_dim=0", "SET rope: head_dim=0 must be an integer from 1 to 1024");
    REFUSED("linear head_dim=1025", "SET rope: head_dim=1025 must be an integer from 1 to 1024");
    REFUSED("linear rotary_dim=x", "SET rope: rotary_dim=x must be an integer from 1 to 1024");
    REFUSED("yarn head_dim=8 truncate=maybe",
            "SET rope: truncate must be true or false, got 'maybe'");
    REFUSED("longrope head_dim=8 short_factor=1:x:3",
            "SET rope: short_factor: 'x' is not a number (write values as a:b:c)");
    REFUSED("longrope head_dim=8 long_factor=1::3",
            "SET rope: long_factor: '' is not a number (write values as a:b:c)");
    /* 513 values: one more than a list can hold */
    char *big = malloc(20 + 2 * 513);
    CHECK(big != NULL);
    if (big) {
        strcpy(big, "llama3 freq_factors=");
        for (int i = 0; i < 513; i++)
            strcat(big, i ? ":1" : "1");
        REFUSED(big, "SET rope: freq_factors has more than 512 values");
        free(big);
    }
    REFUSED("linear factor=2",
            "SET rope linear needs head_dim=N (no model RoPE is active to take it from)");
}

TEST(each_type_says_what_it_needs)
{
    REFUSED("linear head_dim=8 factor=0.5",
            "SET rope linear: argument out of range (linear needs factor >= 1"
            "; and every scaled frequency a normal number: an extreme factor or list value "
            "makes one 0, subnormal or infinite)");
    REFUSED("ntk head_dim=2 factor=2",
            "SET rope ntk: argument out of range (ntk needs factor >= 1 and rotary_dim >= 4"
            "; and every scaled frequency a normal number: an extreme factor or list value "
            "makes one 0, subnormal or infinite)");
    REFUSED("dynamic head_dim=8 factor=2 original=0",
            "SET rope dynamic: argument out of range (dynamic needs factor >= 1, 1 <= original "
            "<= 2^31 and rotary_dim >= 4"
            "; and every scaled frequency a normal number: an extreme factor or list value "
            "makes one 0, subnormal or infinite)");
    REFUSED("yarn head_dim=8 factor=4 original=64 beta_fast=1 beta_slow=2",
            "SET rope yarn: argument out of range (yarn needs factor >= 1, 1 <= original <= 2^31, "
            "beta_fast >= beta_slow > 0, mscale and mscale_all_dim >= 0"
            "; and every scaled frequency a normal number: an extreme factor or list value "
            "makes one 0, subnormal or infinite)");
    REFUSED("llama3 head_dim=8 factor=8 original=64 low_freq_factor=4 high_freq_factor=1",
            "SET rope llama3: argument out of range (llama3 needs factor >= 1, 1 <= original <= 2^31, "
            "0 < low_freq_factor < high_freq_factor"
            "; and every scaled frequency a normal number: an extreme factor or list value "
            "makes one 0, subnormal or infinite)");
    REFUSED("default head_dim=7",
            "SET rope default: argument out of range (the dimensions must satisfy 2 <= "
            "rotary_dim <= head_dim, rotary_dim even)");
    /* LongRoPE without its lists names the one missing */
    REFUSED("longrope head_dim=8 factor=4 original=64",
            "SET rope longrope needs short_factor=a:b:... (rotary_dim/2 = 4 values)");
    REFUSED("longrope head_dim=8 rotary_dim=4 factor=4 original=64 short_factor=1:1",
            "SET rope longrope needs long_factor=a:b:... (rotary_dim/2 = 2 values)");
    /* lists of the wrong length, or with a value that is not positive: the
     * library's verdict, and what longrope needs */
    REFUSED("longrope head_dim=8 factor=4 original=64 short_factor=1:1 long_factor=1:1",
            "SET rope longrope: dimension out of range (must be 1 to 1048576) (longrope needs "
            "factor > 0, 1 < original <= 2^31 and short_factor and long_factor with "
            "rotary_dim/2 positive values each)");
    REFUSED("longrope head_dim=4 factor=4 original=64 short_factor=1:0 long_factor=1:1",
            "SET rope longrope: argument out of range (longrope needs factor > 0, 1 < original "
            "<= 2^31 and short_factor and long_factor with rotary_dim/2 positive values each"
            "; and every scaled frequency a normal number: an extreme factor or list value "
            "makes one 0, subnormal or infinite)");
}

TEST(good_words_fill_the_config)
{
    CHECK_EQ_INT(parse_from("YaRN head_dim=16 rotary_dim=8 base=500000 factor=4 original=4096 "
                            "beta_fast=16 beta_slow=2 truncate=false mscale=1 mscale_all_dim=0.5 "
                            "attn=1.25",
                            NULL),
                 ROPE_SPEC_SET);
    CHECK_EQ_INT(why[0], '\0');
    CHECK_EQ_INT(cfg.head_dim, 16);
    CHECK_EQ_INT(cfg.rotary_dim, 8);
    CHECK(cfg.base == 500000.0);
    CHECK_EQ_INT(cfg.layout, POSENC_LAYOUT_INTERLEAVED);
    CHECK_EQ_INT(cfg.scaling.type, POSENC_ROPE_YARN);
    CHECK(cfg.scaling.factor == 4.0);
    CHECK(cfg.scaling.original_max_position_embeddings == 4096.0);
    CHECK(cfg.scaling.beta_fast == 16.0 && cfg.scaling.beta_slow == 2.0);
    CHECK_EQ_INT(cfg.scaling.truncate, 0);
    CHECK(cfg.scaling.mscale == 1.0 && cfg.scaling.mscale_all_dim == 0.5);
    CHECK(cfg.scaling.attention_factor == 1.25);
    /* lists, and the long name of original */
    CHECK_EQ_INT(parse_from("longrope head_dim=4 factor=4 original_max_position_embeddings=64 "
                            "short_factor=1:2 long_factor=3:4.5 truncate=1",
                            NULL),
                 ROPE_SPEC_SET);
    CHECK(cfg.scaling.original_max_position_embeddings == 64.0);
    CHECK_EQ_INT(cfg.scaling.truncate, 1);
    CHECK_EQ_INT(cfg.scaling.n_short_factor, 2);
    CHECK_EQ_INT(cfg.scaling.n_long_factor, 2);
    CHECK(cfg.short_factor[1] == 2.0 && cfg.long_factor[0] == 3.0 && cfg.long_factor[1] == 4.5);
    CHECK_EQ_INT(parse_from("llama3 head_dim=8 factor=8 original=64 low_freq_factor=1 "
                            "high_freq_factor=4 freq_factors=1:2:3:4 attention_factor=2",
                            NULL),
                 ROPE_SPEC_SET);
    CHECK(cfg.scaling.low_freq_factor == 1.0 && cfg.scaling.high_freq_factor == 4.0);
    CHECK_EQ_INT(cfg.scaling.n_freq_factors, 4);
    CHECK(cfg.freq_factors[3] == 4.0 && cfg.scaling.attention_factor == 2.0);
}

TEST(off_and_what_is_kept_from_the_active_model)
{
    CHECK_EQ_INT(parse_from("off", NULL), ROPE_SPEC_OFF);
    CHECK_EQ_INT(parse_from("OFF head_dim=8", NULL), ROPE_SPEC_OFF);
    CHECK_EQ_INT(parse_from("default", NULL), ROPE_SPEC_OFF);
    posenc_rope_config active;
    CHECK_EQ_INT(parse_from("linear head_dim=16 rotary_dim=8 factor=2", NULL), ROPE_SPEC_SET);
    active = cfg;
    active.max_position_embeddings = 4096;
    /* "default" alone with a model active: plain RoPE of the model's dims */
    CHECK_EQ_INT(parse_from("default", &active), ROPE_SPEC_SET);
    CHECK_EQ_INT(cfg.scaling.type, POSENC_ROPE_DEFAULT);
    CHECK_EQ_INT(cfg.head_dim, 16);
    CHECK_EQ_INT(cfg.rotary_dim, 8);
    CHECK_EQ_INT(cfg.max_position_embeddings, 4096);
    /* a new head_dim below the kept rotary_dim takes rotary_dim with it */
    CHECK_EQ_INT(parse_from("ntk head_dim=4 factor=2", &active), ROPE_SPEC_SET);
    CHECK_EQ_INT(cfg.head_dim, 4);
    CHECK_EQ_INT(cfg.rotary_dim, 4);
    /* without a model, rotary_dim follows head_dim */
    CHECK_EQ_INT(parse_from("ntk head_dim=12 factor=2", NULL), ROPE_SPEC_SET);
    CHECK_EQ_INT(cfg.rotary_dim, 12);
    /* base and layout come from the settings, not from the active model */
    cli_token t[2];
    size_t n = split("linear factor=3", t, 2);
    rope_spec_start from = {500.0, POSENC_LAYOUT_HALF, &active};
    CHECK_EQ_INT(rope_spec_parse(t, n, &from, &cfg, why, sizeof why), ROPE_SPEC_SET);
    CHECK(cfg.base == 500.0);
    CHECK_EQ_INT(cfg.layout, POSENC_LAYOUT_HALF);
    CHECK(cfg.scaling.factor == 3.0);
}

TEST(config_files)
{
    char label[96] = "";
    posenc_model *m = NULL;
    posenc_layer_info li;
    rope_spec_file_label("a/b/llama-3.1-8b.json", label, sizeof label);
    CHECK(strcmp(label, "llama-3.1-8b") == 0);
    rope_spec_file_label("no-such", label, sizeof label); /* no .json: the name whole */
    CHECK(strcmp(label, "no-such") == 0);
    if (!rope_spec_have_config_reader()) {
        CHECK_EQ_INT(rope_spec_read_model("tests/data/llama-3.1-8b.json", NULL, &m, why,
                                          sizeof why),
                     0);
        CHECK(strstr(why, "install libjansson-dev") != NULL);
        return;
    }
    CHECK_EQ_INT(rope_spec_model_layer("tests/data/llama-3.1-8b.json", 0, &m, &li, label,
                                       sizeof label, why, sizeof why),
                 1);
    CHECK(strcmp(label, "llama-3.1-8b") == 0);
    CHECK(m && posenc_model_layer_rope_config(m, 0, &cfg) == POSENC_OK);
    CHECK_EQ_INT(cfg.head_dim, 128);
    CHECK(cfg.base == 500000.0);
    CHECK_EQ_INT(cfg.layout, POSENC_LAYOUT_HALF);
    CHECK_EQ_INT(cfg.scaling.type, POSENC_ROPE_LLAMA3);
    posenc_model_free(m);
    /* a later layer is labelled with its number; one past the last is refused */
    CHECK_EQ_INT(rope_spec_model_layer("tests/data/llama-3.1-8b.json", 31, &m, &li, label,
                                       sizeof label, why, sizeof why),
                 1);
    CHECK(strcmp(label, "llama-3.1-8b layer 31") == 0);
    posenc_model_free(m);
    CHECK_EQ_INT(rope_spec_model_layer("tests/data/llama-3.1-8b.json", 32, &m, &li, label,
                                       sizeof label, why, sizeof why),
                 0);
    CHECK(strstr(why, "layer 32 does not exist: the model has 32 layers (0 to 31)") != NULL);
    CHECK_EQ_INT(rope_spec_read_model("tests/data/no-such", NULL, &m, why, sizeof why), 0);
    CHECK(strncmp(why, "tests/data/no-such: ", 20) == 0);
}

int main(void)
{
    RUN(each_word_error_has_its_message);
    RUN(each_type_says_what_it_needs);
    RUN(good_words_fill_the_config);
    RUN(off_and_what_is_kept_from_the_active_model);
    RUN(config_files);
    return check_summary("rope_spec");
}
