/* test_interpreter.c - the command interpreter (cli/) as a whole, driven
 * in-process through cli_run_line and cli_run_stream: its out-of-memory
 * messages (under a capped address space, tests/capped.h, and with one
 * allocation failing at a time: malloc and realloc are wrapped by the
 * linker), and PLOT, whose
 * words the interpreter hands to the plot module with its settings (SET
 * rope, SET base ...). The words and pictures of PLOT themselves are tested
 * in tests/test_plot_build.c against the plot module
 * alone; here only the hand-over. */
#include "check.h"
#include "model_lengths.h"
#include "capped.h"
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- allocation failures on demand (-Wl,--wrap, see the Makefile) -------------- */

#include "fault.h" /* alloc_countdown, alloc_failed */
#ifdef POSENC_HAVE_CAIRO
#include <cairo.h>

/* Fontconfig (under Cairo's text) keeps its configuration for the life of
 * the process; LeakSanitizer, when present, is told so. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libfontconfig.so\n"; }
#endif

/* ---- the program's out-of-memory messages (cli/) --------------------------------- */

typedef struct cli_case {
    const char *line;    /* run under the cap */
    const char *warm;    /* run before the cap (NULL: none) */
    const char *message; /* the whole of standard error wanted */
} cli_case;

static char err_buf[4096], out_buf[1 << 16]; /* EXPLAIN FREQS of 64 pairs at precision 17 fits */

static int cli_out_of_memory(void *arg)
{
    const cli_case *c = arg;
    memset(err_buf, 0, sizeof err_buf);
    memset(out_buf, 0, sizeof out_buf);
    FILE *err = fmemopen(err_buf, sizeof err_buf - 1, "w");
    FILE *out = fmemopen(out_buf, sizeof out_buf - 1, "w");
    if (!err || !out)
        return 0;
    cli_state st;
    cli_init(&st, out, err);
    /* the cap is already set: fmemopen and cli_init allocate little */
    int r = cli_run_line(&st, c->line, strlen(c->line));
    fflush(err);
    fflush(out);
    int ok = r == 1 && strcmp(err_buf, c->message) == 0 && out_buf[0] == '\0';
    if (!ok)
        fprintf(stderr, "cli under the cap: returned %d, stderr '%s', stdout '%.60s'\n", r,
                err_buf, out_buf);
    return ok;
}

/* A line "WORD x x x ..." of n words after the command. */
static char *many_words(const char *cmd, size_t n, const char *word)
{
    size_t wl = strlen(word), cl = strlen(cmd);
    char *s = malloc(cl + n * (wl + 1) + 1);
    if (!s)
        return NULL;
    memcpy(s, cmd, cl);
    size_t p = cl;
    for (size_t i = 0; i < n; i++) {
        s[p++] = ' ';
        memcpy(s + p, word, wl);
        p += wl;
    }
    s[p] = '\0';
    return s;
}

TEST(cli_reports_out_of_memory)
{
    /* the words of a line: 600000 need 16 B each */
    char *words = many_words("PE", 600000, "1");
    /* a vector: PE of 2^20 elements needs 8 MiB */
    cli_case pe = {"PE 0 1048576", NULL, "posenc: line 0: out of memory\n"};
    cli_case ex = {"EXPLAIN PE 0 1048576", NULL, "posenc: line 0: out of memory\n"};
    cli_case al = {"ALIBI 1048576 0 1", NULL, "posenc: line 0: out of memory\n"};
    /* LOAD copies its file name: 2 MiB of it */
    char *load = malloc((2u << 20) + 8);
    if (load) {
        memcpy(load, "LOAD ", 5);
        memset(load + 5, 'a', 2u << 20);
        load[5 + (2u << 20)] = '\0';
    }
    CHECK(words && load);
    if (words && load) {
        cli_case w = {words, NULL, "posenc: line 0: out of memory\n"};
        CHECK_CAPPED(cli_out_of_memory, &w);
        CHECK_CAPPED(cli_out_of_memory, &pe);
        CHECK_CAPPED(cli_out_of_memory, &ex);
        CHECK_CAPPED(cli_out_of_memory, &al);
        cli_case l = {load, NULL, "posenc: line 0: out of memory\n"};
        CHECK_CAPPED(cli_out_of_memory, &l);
    }
    free(words);
    free(load);
}

/* A line run under the cap on a state prepared before it. */
typedef struct warm_case {
    cli_state *st;
    const char *line;
    const char *message;
} warm_case;

static int cli_warm_out_of_memory(void *arg)
{
    warm_case *c = arg;
    int r = cli_run_line(c->st, c->line, strlen(c->line));
    fflush(c->st->err);
    int ok = r == 1 && strcmp(err_buf, c->message) == 0;
    if (!ok)
        fprintf(stderr, "cli under the cap: %.20s returned %d, stderr '%s'\n", c->line, r, err_buf);
    return ok;
}

/* ROPE of 2^20 numbers: the words fit (grown before the cap), the vector of
 * 8 MiB does not; and LEARNED of a row 2^20 wide. */
TEST(cli_vectors_out_of_memory)
{
    memset(err_buf, 0, sizeof err_buf);
    memset(out_buf, 0, sizeof out_buf);
    FILE *err = fmemopen(err_buf, sizeof err_buf - 1, "w");
    FILE *out = fmemopen(out_buf, sizeof out_buf - 1, "w");
    char *rope = many_words("ROPE 0", POSENC_MAX_DIM, "1");
    char *junk = many_words("NOPE", POSENC_MAX_DIM + 1, "1");
    CHECK(err && out && rope && junk);
    if (err && out && rope && junk) {
        cli_state st;
        cli_init(&st, out, err);
        /* before the cap: room for the words (the unknown command fails) */
        CHECK_EQ_INT(cli_run_line(&st, junk, strlen(junk)), 1);
        fflush(err);
        CHECK(strcmp(err_buf, "posenc: line 0: unknown command 'NOPE' (HELP lists the "
                              "commands)\n") == 0);
        rewind(err);
        memset(err_buf, 0, sizeof err_buf);
        warm_case c = {&st, rope, "posenc: line 0: out of memory\n"};
        CHECK_CAPPED(cli_warm_out_of_memory, &c);

        /* EXPLAIN ROPE keeps a copy of its input: with the vector grown
         * before the cap (PE of 2^20), only that copy fails */
        CHECK_EQ_INT(cli_run_line(&st, "PE 0 1048576", 12), 0);
        rewind(out);
        char *explain = many_words("EXPLAIN ROPE 0", POSENC_MAX_DIM, "1");
        CHECK(explain != NULL);
        if (explain) {
            warm_case x = {&st, explain, "posenc: line 0: out of memory\n"};
            CHECK_CAPPED(cli_warm_out_of_memory, &x);
            free(explain);
        }

        /* LEARNED: a loaded table 2^20 wide, the row does not fit under the cap */
        char *text = million_ones();
        char path[] = "/tmp/posenc_interpreter_XXXXXX";
        int fd = text ? mkstemp(path) : -1;
        CHECK(fd >= 0);
        if (fd >= 0) {
            FILE *f = fdopen(fd, "w");
            CHECK(f && fputs(text, f) >= 0);
            if (f)
                fclose(f);
            char cmd[64];
            snprintf(cmd, sizeof cmd, "LOAD %s", path);
            cli_state st2;
            rewind(err);
            memset(err_buf, 0, sizeof err_buf);
            cli_init(&st2, out, err);
            CHECK_EQ_INT(cli_run_line(&st2, cmd, strlen(cmd)), 0);
            remove(path);
            warm_case l = {&st2, "LEARNED 0", "posenc: line 0: out of memory\n"};
            CHECK_CAPPED(cli_warm_out_of_memory, &l);
            cli_free(&st2);
        }
        free(text);
        cli_free(&st);
    }
    if (err)
        fclose(err);
    if (out)
        fclose(out);
    free(rope);
    free(junk);
}

static int cli_long_line_out_of_memory(void *arg)
{
    FILE *in = arg;
    memset(err_buf, 0, sizeof err_buf);
    FILE *err = fmemopen(err_buf, sizeof err_buf - 1, "w");
    FILE *out = fmemopen(out_buf, sizeof out_buf - 1, "w");
    if (!err || !out)
        return 0;
    cli_state st;
    cli_init(&st, out, err);
    int r = cli_run_stream(&st, in, 0);
    fflush(err);
    /* the line buffer cannot grow: the line is dropped, and the next line
     * still runs (an unknown command: line 2) */
    const char *want = "posenc: line 1: out of memory for this line, skipped\n"
                       "posenc: line 2: unknown command 'X' (HELP lists the commands)\n";
    int ok = r == 1 && strcmp(err_buf, want) == 0;
    if (!ok)
        fprintf(stderr, "stream under the cap: %d '%s'\n", r, err_buf);
    return ok;
}

TEST(cli_line_that_cannot_grow_is_skipped)
{
    /* 8 MiB of '#' (a comment: its buffer would need 16 MiB), then a line */
    size_t n = 8u << 20;
    char *text = malloc(n + 4);
    CHECK(text != NULL);
    if (!text)
        return;
    memset(text, '#', n);
    memcpy(text + n, "\nX\n", 4);
    FILE *in = fmemopen(text, n + 3, "r");
    CHECK(in != NULL);
    if (in) {
        CHECK_CAPPED(cli_long_line_out_of_memory, in);
        fclose(in);
    }
    free(text);
}

/* SET rope and --config with the k-th allocation failing, k = 0, 1 ...
 * until a run has every allocation it needs: each failing run reports "out
 * of memory" and keeps the model it had (none); the last one sets it. */
TEST(model_rope_allocations_fail_in_turn)
{
    const char *set = "SET rope linear head_dim=8 factor=2";
    int failures = 0;
    for (long k = 0; k < 20; k++) {
        memset(err_buf, 0, sizeof err_buf);
        FILE *err = fmemopen(err_buf, sizeof err_buf - 1, "w");
        CHECK(err != NULL);
        if (!err)
            return;
        cli_state st;
        cli_init(&st, stdout, err);
        alloc_failed = 0;
        alloc_countdown = k;
        int rc = cli_run_line(&st, set, strlen(set));
        alloc_countdown = -1;
        fflush(err);
        if (!alloc_failed) {
            CHECK_EQ_INT(rc, 0);
            CHECK(st.model != NULL && cli_active_rope(&st) && cli_active_rope(&st)->head_dim == 8 &&
                  cli_active_rope(&st)->scaling.factor == 2);
            CHECK(strcmp(st.model_label, "linear RoPE") == 0);
            cli_free(&st);
            fclose(err);
            break;
        }
        failures++;
        CHECK_EQ_INT(rc, 1);
        CHECK(strcmp(err_buf, "posenc: line 0: out of memory\n") == 0);
        CHECK(st.model == NULL);
        cli_free(&st);
        fclose(err);
    }
    CHECK(failures >= 2); /* the words, the model */
#ifdef POSENC_HAVE_JSON
    /* --config (the program's one reader): the model, the reader's buffers,
     * the scratch the active layer needs */
    failures = 0;
    for (long k = 0; k < 40; k++) {
        cli_state st;
        char why[256];
        cli_init(&st, stdout, stderr);
        alloc_failed = 0;
        alloc_countdown = k;
        int ok = cli_model_load(&st, "tests/data/llama-2-7b.json", NULL, 0, why, sizeof why);
        alloc_countdown = -1;
        if (!alloc_failed) {
            CHECK_EQ_INT(ok, 1);
            CHECK(cli_active_rope(&st) && cli_active_rope(&st)->head_dim == 128);
            CHECK(strcmp(st.model_label, "llama-2-7b") == 0);
            CHECK_EQ_INT(st.layout, POSENC_LAYOUT_HALF);
            cli_free(&st);
            break;
        }
        failures++;
        CHECK_EQ_INT(ok, 0);
        CHECK(strstr(why, "out of memory") != NULL);
        CHECK(st.model == NULL);
        cli_free(&st);
    }
    CHECK(failures >= 2); /* the model, its scratch */
    /* --config through the registry: the model, then the layer's copies */
    failures = 0;
    for (long k = 0; k < 40; k++) {
        cli_state st;
        char why[256] = "";
        cli_init(&st, stdout, stderr);
        alloc_failed = 0;
        alloc_countdown = k;
        int ok = cli_model_load(&st, "tests/data/models/llama-3.2-1b-instruct.json", NULL, 0, why,
                                sizeof why);
        alloc_countdown = -1;
        if (!alloc_failed) {
            CHECK_EQ_INT(ok, 1);
            CHECK(st.model != NULL && posenc_model_n_layer(st.model) == 16);
            CHECK(cli_active_rope(&st) && cli_active_rope(&st)->head_dim == 64 &&
                  cli_active_rope(&st)->base == 500000.0);
            cli_free(&st);
            break;
        }
        failures++;
        CHECK_EQ_INT(ok, 0);
        CHECK(strstr(why, "out of memory") != NULL);
        CHECK(st.model == NULL);
        cli_free(&st);
    }
    CHECK(failures >= 3); /* the model, the reader's RoPE check, the layer's copies */
#endif
    /* LOAD FILE TENSOR: the path's copy, the reader's buffers, the table */
    static const char hdr[] = "{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8]}}";
    unsigned char file[8 + sizeof hdr - 1 + 8] = {sizeof hdr - 1};
    static const unsigned char values[8] = {0, 0, 0x80, 0x3F, 0, 0, 0, 0x40}; /* 1.0f, 2.0f */
    memcpy(file + 8, hdr, sizeof hdr - 1);
    memcpy(file + 8 + sizeof hdr - 1, values, 8);
    char dir[] = "/tmp/posenc-interp-XXXXXX", path[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/pe.safetensors", dir);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(fwrite(file, 1, sizeof file, f) == sizeof file);
    fclose(f);
    char line[128];
    snprintf(line, sizeof line, "LOAD %s t", path);
    failures = 0;
    for (long k = 0; k < 20; k++) {
        memset(err_buf, 0, sizeof err_buf);
        FILE *err = fmemopen(err_buf, sizeof err_buf - 1, "w");
        CHECK(err != NULL);
        if (!err)
            break;
        cli_state st;
        cli_init(&st, stdout, err);
        alloc_failed = 0;
        alloc_countdown = k;
        int rc = cli_run_line(&st, line, strlen(line));
        alloc_countdown = -1;
        fflush(err);
        if (!alloc_failed) {
            CHECK_EQ_INT(rc, 0);
            double row[2] = {0, 0};
            CHECK(st.table && posenc_learned_row_f64(st.table, 0, row) == POSENC_OK &&
                  row[0] == 1.0 && row[1] == 2.0);
            cli_free(&st);
            fclose(err);
            break;
        }
        failures++;
        CHECK_EQ_INT(rc, 1);
        CHECK(strstr(err_buf, "out of memory") != NULL);
        CHECK(st.table == NULL);
        cli_free(&st);
        fclose(err);
    }
    CHECK(failures >= 3);
    remove(path);
    remove(dir);
}

/* SET rope mrope and MROPE_POSITIONS allocate (the words, the model, the
 * segments, the rows): each allocation fails in turn, with a message, and
 * the state stays as it was; then the commands work. */
TEST(mrope_allocations_fail_in_turn)
{
    static const char *const lines[2] = {"SET rope mrope sections=2:3:3 head_dim=16",
                                         "MROPE_POSITIONS text 2 image 1x2x2"};
    static const char *const want_out[2] = {"", "t: 0 1 2\nh: 0 1 2\nw: 0 1 2\n"};
    for (int li = 0; li < 2; li++) {
        int failures = 0;
        for (long k = 0; k < 20; k++) {
            memset(err_buf, 0, sizeof err_buf);
            memset(out_buf, 0, sizeof out_buf);
            FILE *err = fmemopen(err_buf, sizeof err_buf - 1, "w");
            FILE *out = fmemopen(out_buf, sizeof out_buf - 1, "w");
            CHECK(err && out);
            if (!err || !out)
                return;
            cli_state st;
            cli_init(&st, out, err);
            alloc_failed = 0;
            alloc_countdown = k;
            int rc = cli_run_line(&st, lines[li], strlen(lines[li]));
            alloc_countdown = -1;
            fflush(err);
            fflush(out);
            if (!alloc_failed) {
                CHECK_EQ_INT(rc, 0);
                CHECK(strcmp(out_buf, want_out[li]) == 0);
                CHECK_EQ_INT(st.mrope_on, li == 0);
                cli_free(&st);
                fclose(err);
                fclose(out);
                break;
            }
            failures++;
            CHECK_EQ_INT(rc, 1);
            CHECK(strstr(err_buf, "posenc: line 0: ") == err_buf);
            CHECK(strstr(err_buf, "memory") != NULL);
            CHECK_EQ_INT(st.mrope_on, 0);
            CHECK(out_buf[0] == '\0');
            cli_free(&st);
            fclose(err);
            fclose(out);
        }
        CHECK(failures >= 2); /* SET: the words, the model; MROPE_POSITIONS: segments, rows */
    }
}

/* ---- PLOT: the interpreter's settings reach the plot module ------------------- */

static int file_exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* The interpreter's messages for PLOT: its own prefix, then the plot
 * module's message whole; with a model RoPE (SET rope) PLOT freqs and
 * rope-decay draw it, and SET rope off takes it away again. */
TEST(plot_takes_the_interpreter_settings)
{
    char dir[] = "/tmp/posenc-interp-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    memset(err_buf, 0, sizeof err_buf);
    FILE *err = fmemopen(err_buf, sizeof err_buf - 1, "w");
    FILE *out = fmemopen(out_buf, sizeof out_buf - 1, "w");
    CHECK(err && out);
    if (!err || !out)
        return;
    cli_state st;
    cli_init(&st, out, err);
    char line[256], path[128];
#ifdef POSENC_HAVE_CAIRO
    const char *set = "SET rope llama3 head_dim=8 factor=8 original=1024 low_freq_factor=1 "
                      "high_freq_factor=4";
    CHECK_EQ_INT(cli_run_line(&st, set, strlen(set)), 0);
    snprintf(path, sizeof path, "%s/model.svg", dir);
    snprintf(line, sizeof line, "PLOT freqs 8 %s", path);
    CHECK_EQ_INT(cli_run_line(&st, line, strlen(line)), 0);
    CHECK(file_exists(path));
    remove(path);
    snprintf(path, sizeof path, "%s/model.png", dir);
    snprintf(line, sizeof line, "plot rope-decay 8 100 %s", path);
    CHECK_EQ_INT(cli_run_line(&st, line, strlen(line)), 0);
    CHECK(file_exists(path));
    remove(path);
    /* an M-RoPE model: freqs colours its pairs by axis */
    const char *mset = "SET rope mrope sections=2:3:3 head_dim=16 interleaved=no";
    CHECK_EQ_INT(cli_run_line(&st, mset, strlen(mset)), 0);
    snprintf(path, sizeof path, "%s/mrope.svg", dir);
    snprintf(line, sizeof line, "PLOT freqs 16 %s", path);
    CHECK_EQ_INT(cli_run_line(&st, line, strlen(line)), 0);
    CHECK(file_exists(path));
    remove(path);
    CHECK_EQ_INT(cli_run_line(&st, "SET rope off", 12), 0);
    CHECK_EQ_INT(st.mrope_on, 0);
    snprintf(path, sizeof path, "%s/cmd.png", dir);
    snprintf(line, sizeof line, "PLOT pe 4 6 %s", path);
    CHECK_EQ_INT(cli_run_line(&st, line, strlen(line)), 0);
    CHECK(file_exists(path));
    remove(path);
    fflush(err);
    CHECK_EQ_INT(err_buf[0], '\0');
#endif
    /* refused requests: "posenc: line 0: " and the plot module's message */
    snprintf(path, sizeof path, "%s/cmd0.png", dir);
    snprintf(line, sizeof line, "PLOT pe 4 0 %s", path);
    CHECK_EQ_INT(cli_run_line(&st, line, strlen(line)), 1);
    CHECK(!file_exists(path));
    CHECK_EQ_INT(cli_run_line(&st, "PLOT alibi 4 x.png", 18), 1);
    CHECK_EQ_INT(cli_run_line(&st, "PLOT waves 1 x.png", 18), 1);
    fflush(err);
    CHECK(strcmp(err_buf, "posenc: line 0: PLOT: D '0' must be an integer from 1 to 1048576\n"
                          "posenc: line 0: PLOT alibi takes 3 words: PLOT alibi H POSITIONS "
                          "FILE\n"
                          "posenc: line 0: PLOT needs a kind: pe, similarity, rope-decay, freqs, "
                          "alibi, t5-buckets, sinusoid or buckets\n") == 0);
    cli_free(&st);
    fclose(err);
    fclose(out);
    rmdir(dir);
}

/* ---- what the commands take from a --config model ---------------------------- */

/* Runs the lines (';'-separated) on st; stdout into out_buf, stderr into err_buf. */
static int run_lines(cli_state *st, const char *text)
{
    memset(out_buf, 0, sizeof out_buf);
    memset(err_buf, 0, sizeof err_buf);
    FILE *out = fmemopen(out_buf, sizeof out_buf - 1, "w");
    FILE *err = fmemopen(err_buf, sizeof err_buf - 1, "w");
    if (!out || !err)
        return -1;
    st->out = out;
    st->err = err;
    int r = cli_run_string(st, text);
    fclose(out);
    fclose(err);
    st->out = stdout;
    st->err = stderr;
    return r;
}

#ifdef POSENC_HAVE_JSON
/* The freq= value of pair k in EXPLAIN FREQS output (SET precision 17: 17
 * decimals, so within 5e-18 of the library's double), or -1. */
static double freq_of_pair(const char *out, uint32_t k)
{
    char key[32];
    snprintf(key, sizeof key, "\nk=%u elements", k);
    const char *p = k == 0 ? strstr(out, "k=0 elements") : strstr(out, key);
    p = p ? strstr(p, " freq=") : NULL;
    return p ? strtod(p + 6, NULL) : -1.0;
}
#endif

/* ROPE, DOT and EXPLAIN FREQS ask the model for the active layer's RoPE at
 * the length in use (EXPLAIN FREQS N, SET seq_len N, or pos + 1): Qwen 1's
 * dynamic NTK for Qwen-14B-Chat and Qwen-7B-Chat, Hugging Face's dynamic
 * and LongRoPE's switch equal their published formulas
 * (tests/model_lengths.h) below and above the switch. */
TEST(lengths_follow_the_model)
{
#ifdef POSENC_HAVE_JSON
    static const char *const qwen[] = {"tests/data/qwen-14b-chat.json",
                                       "tests/data/models/qwen-7b-chat.json"};
    static const int64_t lens[] = {2048, 8192, 16384};
    char why[512], line[4096];
    for (size_t f = 0; f < 2; f++) {
        cli_state st;
        cli_init(&st, stdout, stderr);
        CHECK(cli_model_load(&st, qwen[f], NULL, 0, why, sizeof why));
        for (size_t i = 0; i < 3; i++) {
            /* EXPLAIN FREQS N, and SET seq_len N with EXPLAIN FREQS */
            snprintf(line, sizeof line, "SET precision 17; EXPLAIN FREQS %lld", (long long)lens[i]);
            CHECK_EQ_INT(run_lines(&st, line), 0);
            for (uint32_t k = 0; k < 64; k += 7) {
                double want = qwen_inv_freq(10000.0, 128, 2048.0, lens[i], k);
                CHECK_NEAR(freq_of_pair(out_buf, k), want, 1e-14 * want + 1e-17);
            }
            snprintf(line, sizeof line, "SET layer 39; SET seq_len %lld; EXPLAIN FREQS",
                     (long long)lens[i]);
            if (f == 1)
                snprintf(line, sizeof line, "SET layer 31; SET seq_len %lld; EXPLAIN FREQS",
                         (long long)lens[i]);
            CHECK_EQ_INT(run_lines(&st, line), 0);
            double want1 = qwen_inv_freq(10000.0, 128, 2048.0, lens[i], 1);
            CHECK_NEAR(freq_of_pair(out_buf, 1), want1, 1e-14 * want1 + 1e-17);
            if (lens[i] == 8192)
                CHECK_NEAR(want1, 0.83963, 5e-6);
            /* ROPE at position 1 of e_1 (half layout: pair 1 = elements 1, 65):
             * cos and sin of the pair's frequency at that length */
            int n = snprintf(line, sizeof line, "ROPE 1");
            for (int e = 0; e < 128; e++)
                n += snprintf(line + n, sizeof line - (size_t)n, " %d", e == 1);
            CHECK_EQ_INT(run_lines(&st, line), 0);
            char *p = out_buf;
            double v[128];
            for (int e = 0; e < 128; e++)
                v[e] = strtod(p, &p);
            CHECK_NEAR(v[1], cos(want1), 1e-14);
            CHECK_NEAR(v[65], sin(want1), 1e-14);
        }
        /* SET seq_len 0: the length is pos + 1, the trained one here */
        CHECK_EQ_INT(run_lines(&st, "SET seq_len 0; EXPLAIN FREQS"), 0);
        CHECK_NEAR(freq_of_pair(out_buf, 1), qwen_inv_freq(10000.0, 128, 2048.0, 1, 1), 1e-15);
        cli_free(&st);
    }
    /* Hugging Face dynamic (factor 2 over 4096) and LongRoPE (original 4096) */
    cli_state st;
    cli_init(&st, stdout, stderr);
    CHECK(cli_model_load(&st, "tests/data/llama-2-7b-dynamic.json", NULL, 0, why, sizeof why));
    static const int64_t dl[] = {2048, 4096, 8192, 16384};
    for (size_t i = 0; i < 4; i++) {
        snprintf(line, sizeof line, "SET precision 17; EXPLAIN FREQS %lld", (long long)dl[i]);
        CHECK_EQ_INT(run_lines(&st, line), 0);
        for (uint32_t k = 0; k < 64; k += 9) {
            double want = hf_dynamic_inv_freq(10000.0, 128, 2.0, 4096.0, dl[i], k);
            CHECK_NEAR(freq_of_pair(out_buf, k), want, 1e-14 * want + 1e-17);
        }
    }
    CHECK(cli_model_load(&st, "tests/data/models/phi3-phi-3.5-mini-instruct.json", NULL, 0, why,
                         sizeof why));
    /* the lists as the config holds them, for pair 47: EXPLAIN FREQS prints
     * the factor it divides by (pair_factor=), short up to 4096, long after */
    CHECK_EQ_INT(run_lines(&st, "SET precision 17; EXPLAIN FREQS 4096"), 0);
    double at4096 = freq_of_pair(out_buf, 47);
    CHECK_EQ_INT(run_lines(&st, "EXPLAIN FREQS 4097"), 0);
    double at4097 = freq_of_pair(out_buf, 47);
    CHECK(strstr(out_buf, "factors=long") != NULL);
    posenc_rope_config c;
    CHECK(posenc_model_layer_rope_config(st.model, 0, &c) == POSENC_OK);
    CHECK_NEAR(at4096, longrope_inv_freq(10000.0, 96, 4096.0, c.short_factor, c.long_factor,
                                         4096, 47),
               1e-14 * at4096 + 1e-17);
    CHECK_NEAR(at4097, longrope_inv_freq(10000.0, 96, 4096.0, c.short_factor, c.long_factor,
                                         4097, 47),
               1e-14 * at4097 + 1e-17);
    CHECK(at4096 != at4097);
    cli_free(&st);
#endif
}

/* LEARNED reads row pos + the family's offset (the registry's, from the
 * config: OPT 2, RoBERTa pad_token_id + 1 = 2, GPT-2 0) of the table of
 * tests/cli/table.txt (row r = r + 0.1, r + 0.2, ...); T5BUCKET takes a
 * T5 config's 48 buckets / max_distance 200 (first distances of buckets 22
 * and 23 in tests/data/t5_buckets.txt: 126 and 159), SET t5 key by key over it. */
TEST(commands_follow_the_model)
{
#ifdef POSENC_HAVE_JSON
    static const struct {
        const char *config;
        int64_t offset;
    } fam[] = {{"tests/data/models/opt-synthetic.json", 2},
               {"tests/data/models/roberta-synthetic.json", 2},
               {"tests/data/models/gpt2.json", 0}};
    char why[512];
    for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++) {
        cli_state st;
        posenc_model_table tb;
        int has;
        cli_init(&st, stdout, stderr);
        CHECK(cli_model_load(&st, fam[i].config, NULL, 0, why, sizeof why));
        CHECK(cli_learned_offset(&st, &tb, &has) == fam[i].offset && has);
        CHECK_EQ_INT(run_lines(&st, "LOAD tests/cli/table.txt; SET precision 1; LEARNED 0"), 0);
        char want[64];
        snprintf(want, sizeof want, "%lld.1 %lld.2 %lld.3 %lld.4\n", (long long)fam[i].offset,
                 (long long)fam[i].offset, (long long)fam[i].offset, (long long)fam[i].offset);
        CHECK(strcmp(out_buf, want) == 0);
        cli_free(&st);
    }
    cli_state st;
    uint32_t nb, md;
    int bidir;
    posenc_layer_info g;
    posenc_model_table tb;
    int has;
    cli_init(&st, stdout, stderr);
    /* no model: SET t5's defaults */
    CHECK(cli_t5_settings(&st, &nb, &md, &bidir, &g) == 0);
    CHECK(nb == 32 && md == 128 && bidir == 1);
    CHECK(cli_model_load(&st, "tests/data/models/t5-48-200-synthetic.json", NULL, 0, why,
                         sizeof why));
    CHECK(cli_t5_settings(&st, &nb, &md, &bidir, &g) == 1);
    CHECK(nb == 48 && md == 200 && bidir == 1 && strcmp(g.layer_type, "encoder") == 0);
    CHECK(cli_learned_offset(&st, &tb, &has) == 0 && !has); /* not a learned layer */
    CHECK_EQ_INT(run_lines(&st, "T5BUCKET 159 0; T5BUCKET 0 126; SET layer 2; T5BUCKET 0 159"),
                 0);
    CHECK(strcmp(out_buf, "23\n46\n0\n") == 0); /* 23; 24 + 22; causal: a later key is 0 */
    CHECK_EQ_INT(run_lines(&st, "SET t5 max_distance=128; SET layer 0"), 0);
    CHECK(cli_t5_settings(&st, &nb, &md, &bidir, &g) == 1);
    CHECK(nb == 48 && md == 128 && bidir == 1);
    CHECK_EQ_INT(run_lines(&st, "LEARNED 0"), 1); /* no table loaded */
    CHECK(strstr(err_buf, "no learned table is loaded") != NULL);
    cli_free(&st);
#else
    cli_state st;
    uint32_t nb, md;
    int bidir;
    posenc_layer_info g;
    posenc_model_table tb;
    int has;
    cli_init(&st, stdout, stderr);
    CHECK(cli_t5_settings(&st, &nb, &md, &bidir, &g) == 0);
    CHECK(nb == 32 && md == 128 && bidir == 1);
    CHECK(cli_learned_offset(&st, &tb, &has) == 0 && !has);
    cli_free(&st);
#endif
}

/* The command names of docs/posenc.1's COMMANDS section: each ".B" line's
 * bold words (up to an italic or roman font change), a first word in
 * capitals and, after EXPLAIN or SET, the word that follows. */
static size_t man_commands(char names[][80], size_t cap)
{
    FILE *f = fopen("docs/posenc.1", "r");
    char line[1024];
    size_t n = 0;
    int in = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, ".SH", 3) == 0)
            in = strncmp(line, ".SH COMMANDS", 12) == 0;
        if (!in || strncmp(line, ".B ", 3) != 0)
            continue;
        /* bold runs: from ".B " and after each "\fB", to the next "\f" */
        for (const char *p = line + 3; p && *p;) {
            char w1[40] = "", w2[40] = "";
            size_t len = strcspn(p, "\\\n");
            char run[256];
            snprintf(run, sizeof run, "%.*s", (int)(len < 255 ? len : 255), p);
            if (sscanf(run, "%39s %39s", w1, w2) >= 1 && w1[0] >= 'A' && w1[0] <= 'Z' &&
                n < cap) {
                int two = strcmp(w1, "EXPLAIN") == 0 || strcmp(w1, "SET") == 0;
                /* at most 39 + 1 + 39 characters: names[] has room for 80 */
                snprintf(names[n], 80, "%.39s%s%.39s", w1, two ? " " : "", two ? w2 : "");
                int dup = 0;
                for (size_t i = 0; i < n; i++)
                    dup |= strcmp(names[i], names[n]) == 0;
                n += !dup;
            }
            p = strstr(p + len, "\\fB");
            p = p ? p + 3 : NULL;
        }
    }
    if (f)
        fclose(f);
    return n;
}

/* HELP and dispatch come from one table, and the man page lists the same
 * commands: every table name is a COMMANDS entry of docs/posenc.1 and every
 * entry there is in the table; every name with help runs (its own run, or
 * its first word's). */
TEST(command_table_matches_the_man_page)
{
    size_t nt, nm;
    const cli_command *c = cli_commands(&nt);
    static char man[64][80];
    nm = man_commands(man, 64);
    CHECK(nm >= 20);
    for (size_t i = 0; i < nt; i++) {
        int found = c[i].help == NULL; /* EXPLAIN, SET: their forms are listed */
        for (size_t j = 0; j < nm && !found; j++)
            found = strcmp(man[j], c[i].name) == 0;
        CHECK(found);
        if (!found)
            fprintf(stderr, "command %s is not in docs/posenc.1\n", c[i].name);
        /* a form without its own run: its first word's entry has one */
        char first[40];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(c[i].name, " "), c[i].name);
        int runs = 0;
        for (size_t j = 0; j < nt; j++)
            runs |= c[j].run && strcmp(c[j].name, first) == 0;
        CHECK(runs);
    }
    for (size_t j = 0; j < nm; j++) {
        int found = 0;
        for (size_t i = 0; i < nt && !found; i++)
            found = strcmp(man[j], c[i].name) == 0;
        CHECK(found);
        if (!found)
            fprintf(stderr, "docs/posenc.1 lists %s, which the command table has not\n", man[j]);
    }
    /* HELP prints each entry's lines */
    cli_state st;
    cli_init(&st, stdout, stderr);
    CHECK_EQ_INT(run_lines(&st, "HELP"), 0);
    cli_free(&st);
    for (size_t i = 0; i < nt; i++)
        CHECK(!c[i].help || strstr(out_buf, c[i].help) != NULL);
}

int main(void)
{
    capped_setup();
    /* The capped children first: no thread has run yet, so no thread stack
     * is cached for the children to reuse. */
    RUN(cli_reports_out_of_memory);
    RUN(cli_vectors_out_of_memory);
    RUN(cli_line_that_cannot_grow_is_skipped);
    RUN(model_rope_allocations_fail_in_turn);
    RUN(mrope_allocations_fail_in_turn);
    RUN(plot_takes_the_interpreter_settings);
    RUN(commands_follow_the_model);
    RUN(lengths_follow_the_model);
    RUN(command_table_matches_the_man_page);
    if (skipped_capped)
        fprintf(stderr, "interpreter: %d out-of-memory checks skipped (%s)\n", skipped_capped,
                UNDER_ASAN ? "AddressSanitizer maps memory of its own" : "no /proc/self/statm");
#ifdef POSENC_HAVE_CAIRO
    cairo_debug_reset_static_data(); /* so LeakSanitizer sees only our leaks */
#endif
    return check_summary("interpreter");
}
