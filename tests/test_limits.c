/* test_limits.c - argument checks of the lesson tier's functions (pair
 * indices, angles, sinusoid, rotation, the RoPE object, status strings, the
 * number syntax), their limits and the regressions the fuzzers found there
 * (ALiBi's and learned tables' are in test_alibi.c and test_learned.c), and
 * the program under inputs that are
 * too big for a data-file case (a million numbers, an over-long line, a pipe
 * driven line by line with -u, output to a full disk).
 *
 * The program is found beside this test's build directory: argv[0] is
 * BUILD/tests/test_limits, the program BUILD/posenc. */
#define _GNU_SOURCE /* fopencookie: a stream whose read fails */
#include "posenc.h"
#include "internal.h"
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static const double B = POSENC_DEFAULT_BASE;
static const posenc_layout IL = POSENC_LAYOUT_INTERLEAVED, HALF = POSENC_LAYOUT_HALF;
static const posenc_layout BAD_LAYOUT = (posenc_layout)2;
static char program[4096];

/* ---- the library: every argument check ------------------------------------- */

TEST(pair_index_checks)
{
    uint32_t a = 77, b = 77;
    CHECK(posenc_pair_index(0, 4, IL, NULL, &b) == POSENC_ERR_NULL);
    CHECK(posenc_pair_index(0, 4, IL, &a, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_pair_index(0, 0, IL, &a, &b) == POSENC_ERR_DIM);
    CHECK(posenc_pair_index(0, POSENC_MAX_DIM + 1, IL, &a, &b) == POSENC_ERR_DIM);
    CHECK(posenc_pair_index(2, 4, IL, &a, &b) == POSENC_ERR_RANGE);
    CHECK(posenc_pair_index(0, 1, IL, &a, &b) == POSENC_ERR_RANGE); /* odd D = 1: no pair */
    CHECK(posenc_pair_index(0, 4, BAD_LAYOUT, &a, &b) == POSENC_ERR_LAYOUT);
    CHECK(a == 77 && b == 77); /* nothing written on error */
    CHECK(posenc_pair_index(1, 5, IL, &a, &b) == POSENC_OK && a == 2 && b == 3);
    CHECK(posenc_pair_index(1, 5, HALF, &a, &b) == POSENC_OK && a == 1 && b == 3);
    /* the largest D: the last pair of the half layout is (D/2 - 1, D - 1) */
    CHECK(posenc_pair_index(POSENC_MAX_DIM / 2 - 1, POSENC_MAX_DIM, HALF, &a, &b) == POSENC_OK);
    CHECK(a == POSENC_MAX_DIM / 2 - 1 && b == POSENC_MAX_DIM - 1);
}

TEST(angle_checks)
{
    double v = 5, s = 5, c = 5;
    posenc_pair_trace tr;
    CHECK(posenc_inv_freq(0, 4, B, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_inv_freq(0, 0, B, &v) == POSENC_ERR_DIM);
    CHECK(posenc_inv_freq(3, 4, B, &v) == POSENC_ERR_RANGE);
    CHECK(posenc_inv_freq(2, 4, B, &v) == POSENC_ERR_RANGE);  /* 2k = D: past the end */
    CHECK(posenc_inv_freq(0, 4, 1.0, &v) == POSENC_ERR_BASE);
    CHECK(posenc_inv_freq(0, 4, -INFINITY, &v) == POSENC_ERR_BASE);
    CHECK(v == 5);
    /* k = (D-1)/2 of an odd D is the sine-only pair: valid. 10000^(-4/5). */
    CHECK(posenc_inv_freq(2, 5, B, &v) == POSENC_OK);
    CHECK_NEAR(v, pow(10000.0, -0.8), 1e-18);
    /* UINT32_MAX for k must not wrap 2k */
    CHECK(posenc_inv_freq(UINT32_MAX, POSENC_MAX_DIM, B, &v) == POSENC_ERR_RANGE);

    CHECK(posenc_angle(0, 0, 4, B, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_angle(0, 0, 0, B, &v) == POSENC_ERR_DIM);
    CHECK(posenc_angle(-1, 0, 4, B, &v) == POSENC_ERR_POS);
    CHECK(posenc_angle(POSENC_MAX_POS + 1, 0, 4, B, &v) == POSENC_ERR_POS);
    CHECK(posenc_angle(INT64_MIN, 0, 4, B, &v) == POSENC_ERR_POS);
    CHECK(posenc_angle(POSENC_MAX_POS, 0, 4, B, &v) == POSENC_OK && v == 2147483647.0);

    CHECK(posenc_sincos(0, 0, 4, B, NULL, &c) == POSENC_ERR_NULL);
    CHECK(posenc_sincos(0, 9, 4, B, &s, &c) == POSENC_ERR_RANGE);
    CHECK(posenc_sincos(POSENC_MAX_POS + 1, 0, 4, B, &s, &c) == POSENC_ERR_POS);

    CHECK(posenc_pair_explain(0, 0, 4, B, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_pair_explain(0, 0, 4, NAN, &tr) == POSENC_ERR_BASE);
    CHECK(posenc_pair_explain(-3, 0, 4, B, &tr) == POSENC_ERR_POS);
    /* pair 1 of D = 4 at pos 3: divisor 100, wavelength 200 pi, angle 0.03 */
    CHECK(posenc_pair_explain(3, 1, 4, B, &tr) == POSENC_OK);
    CHECK(tr.k == 1 && tr.divisor == 100.0 && tr.inv_freq == 0.01);
    CHECK_NEAR(tr.wavelength, 200.0 * 3.14159265358979323846, 1e-12);
    CHECK_NEAR(tr.angle, 0.03, 1e-17);
    CHECK_NEAR(tr.sin_angle, sin(0.03), 1e-16);
}

TEST(sinusoid_checks)
{
    double d[3] = {1, 2, 3};
    float f[3] = {1, 2, 3};
    CHECK(posenc_sinusoid_fill_f32(-1, 3, B, f) == POSENC_ERR_POS);
    CHECK(posenc_sinusoid_fill_f32(0, 0, B, f) == POSENC_ERR_DIM);
    CHECK(posenc_sinusoid_fill_f32(0, 3, 0.0, f) == POSENC_ERR_BASE);
    CHECK(posenc_sinusoid_add_f64(0, 3, B, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_sinusoid_add_f64(0, POSENC_MAX_DIM + 1, B, d) == POSENC_ERR_DIM);
    CHECK(posenc_sinusoid_add_f32(0, 3, B, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_sinusoid_add_f32(POSENC_MAX_POS + 1, 3, B, f) == POSENC_ERR_POS);
    f[2] = NAN;
    CHECK(posenc_sinusoid_add_f32(1, 3, B, f) == POSENC_ERR_NOT_FINITE);
    CHECK(f[0] == 1 && f[1] == 2 && isnan(f[2])); /* unchanged */
    d[1] = -INFINITY;
    CHECK(posenc_sinusoid_add_f64(1, 3, B, d) == POSENC_ERR_NOT_FINITE);
    CHECK(d[0] == 1 && d[2] == 3);
    /* odd D in float: PE(1) for D = 3 is sin 1, cos 1, sin(1/10000^(2/3)) */
    f[0] = 0, f[1] = 0, f[2] = 0;
    CHECK(posenc_sinusoid_add_f32(1, 3, B, f) == POSENC_OK);
    CHECK(f[0] == (float)sin(1.0) && f[1] == (float)cos(1.0));
    CHECK_NEAR(f[2], sin(pow(10000.0, -2.0 / 3.0)), 1e-9);
}

TEST(rope_checks)
{
    double d[4] = {1, 0, 0, 1};
    float f[4] = {1, 0, 0, 1};
    double out = 42;
    CHECK(posenc_rope_apply_f64(0, 4, B, IL, POSENC_FORWARD, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_rope_apply_f64(-1, 4, B, IL, POSENC_FORWARD, d) == POSENC_ERR_POS);
    CHECK(posenc_rope_apply_f64(0, 0, B, IL, POSENC_FORWARD, d) == POSENC_ERR_DIM);
    CHECK(posenc_rope_apply_f64(0, 4, 1.0, IL, POSENC_FORWARD, d) == POSENC_ERR_BASE);
    CHECK(posenc_rope_apply_f64(0, 4, B, BAD_LAYOUT, POSENC_INVERSE, d) == POSENC_ERR_LAYOUT);
    CHECK(posenc_rope_apply_f32(0, 4, B, (posenc_layout)-1, POSENC_INVERSE, f) ==
          POSENC_ERR_LAYOUT);
    CHECK(posenc_rope_apply_f32(0, POSENC_MAX_DIM + 1, B, IL, POSENC_FORWARD, f) == POSENC_ERR_DIM);
    CHECK(d[0] == 1 && d[3] == 1 && f[0] == 1 && f[3] == 1);
    CHECK(posenc_rope_dot_f64(0, 0, 4, B, IL, d, d, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_rope_dot_f64(0, 0, 4, B, IL, NULL, d, &out) == POSENC_ERR_NULL);
    CHECK(posenc_rope_dot_f64(POSENC_MAX_POS + 1, 0, 4, B, IL, d, d, &out) == POSENC_ERR_POS);
    CHECK(posenc_rope_dot_f64(0, 0, 0, B, IL, d, d, &out) == POSENC_ERR_DIM);
    CHECK(posenc_rope_dot_f64(0, 0, 4, B, BAD_LAYOUT, d, d, &out) == POSENC_ERR_LAYOUT);
    double k[4] = {0, 0, NAN, 0};
    CHECK(posenc_rope_dot_f64(0, 0, 4, B, IL, d, k, &out) == POSENC_ERR_NOT_FINITE);
    CHECK(out == 42);
    /* the unpaired element of an odd D adds its plain product:
     * q = k = (1, 0, 3): DOT(m, n) = cos(m - n) + 9 */
    double q3[3] = {1, 0, 3};
    CHECK(posenc_rope_dot_f64(7, 4, 3, B, HALF, q3, q3, &out) == POSENC_OK);
    CHECK_NEAR(out, cos(3.0) + 9.0, 1e-15);
}

TEST(rope_init_checks)
{
    static posenc_rope r; /* about 8 KiB */
    CHECK(posenc_rope_init(NULL, 64, 64, B, IL) == POSENC_ERR_NULL);
    CHECK(posenc_rope_init(&r, 0, 2, B, IL) == POSENC_ERR_DIM);
    CHECK(posenc_rope_init(&r, POSENC_ROPE_MAX_HEAD_DIM + 1, 2, B, IL) == POSENC_ERR_DIM);
    CHECK(posenc_rope_init(&r, 64, 0, B, IL) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_init(&r, 64, 31, B, IL) == POSENC_ERR_RANGE); /* odd */
    CHECK(posenc_rope_init(&r, 64, 66, B, IL) == POSENC_ERR_RANGE); /* > head_dim */
    CHECK(posenc_rope_init(&r, 64, 64, 1.0, IL) == POSENC_ERR_BASE);
    CHECK(posenc_rope_init(&r, 64, 64, B, BAD_LAYOUT) == POSENC_ERR_LAYOUT);
    /* partial rotary: frequencies from rotary_dim, not head_dim */
    CHECK(posenc_rope_init(&r, 80, 20, 500000.0, HALF) == POSENC_OK);
    CHECK(r.head_dim == 80 && r.rotary_dim == 20 && r.layout == HALF && r.attn_factor == 1.0);
    for (uint32_t k = 0; k < 10; k++) {
        double f;
        CHECK(posenc_inv_freq(k, 20, 500000.0, &f) == POSENC_OK && r.inv_freq_hi[k] == f);
        CHECK(fabs(r.inv_freq_lo[k]) <= 0.5 * (nextafter(f, 1.0) - f));
    }
}

TEST(strerror_every_status)
{
    /* each status its own sentence */
    for (int a = 0; a <= POSENC_ERR_NOT_FINITE; a++)
        for (int b = a + 1; b <= POSENC_ERR_NOT_FINITE; b++)
            CHECK(strcmp(posenc_strerror((posenc_status)a), posenc_strerror((posenc_status)b)));
    CHECK(strcmp(posenc_strerror((posenc_status)-1), "unknown status") == 0);
}

/* ---- number syntax: limits and fuzz regressions ------------------------------ */

TEST(parse_limits)
{
    char buf[POSENC_MAX_NUMBER_LEN + 2];
    double v = 3;
    /* 512 digits is the longest number: 0.000...1 (511 fraction digits) */
    memset(buf, '0', sizeof buf);
    buf[1] = '.';
    buf[POSENC_MAX_NUMBER_LEN - 1] = '1';
    CHECK(posenc_parse_number(buf, POSENC_MAX_NUMBER_LEN, &v) == POSENC_OK);
    CHECK(v == 0.0 && !signbit(v)); /* 1e-510 underflows to zero */
    CHECK(posenc_parse_number(buf, POSENC_MAX_NUMBER_LEN + 1, &v) == POSENC_ERR_FORMAT);
    memset(buf, '9', sizeof buf);
    CHECK(posenc_parse_number(buf, 308, &v) == POSENC_OK && v == 1e308);
    CHECK(posenc_parse_number(buf, 309, &v) == POSENC_ERR_NOT_FINITE);
    CHECK(posenc_parse_number(NULL, 1, &v) == POSENC_ERR_NULL);
    CHECK(posenc_parse_number("1", 1, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_parse_number("1", 0, &v) == POSENC_ERR_FORMAT); /* empty */
    CHECK(posenc_parse_number("-.e1", 4, &v) == POSENC_ERR_FORMAT);
    CHECK(posenc_parse_number("1e+", 3, &v) == POSENC_ERR_FORMAT);
    CHECK(posenc_parse_number("1\0", 2, &v) == POSENC_ERR_FORMAT); /* an embedded NUL */

    int64_t i = 3;
    CHECK(posenc_parse_int64(NULL, 1, &i) == POSENC_ERR_NULL);
    CHECK(posenc_parse_int64("1", 1, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_parse_int64("", 0, &i) == POSENC_ERR_FORMAT);
    CHECK(posenc_parse_int64("+", 1, &i) == POSENC_ERR_FORMAT);
    /* fuzz_parse finding: INT64_MIN is an int64 (it was refused as RANGE) */
    CHECK(posenc_parse_int64("-9223372036854775808", 20, &i) == POSENC_OK && i == INT64_MIN);
    CHECK(posenc_parse_int64("-9223372036854775809", 20, &i) == POSENC_ERR_RANGE);
    CHECK(posenc_parse_int64("-0009223372036854775807", 23, &i) == POSENC_OK && i == -INT64_MAX);
    CHECK(posenc_parse_int64("+0", 2, &i) == POSENC_OK && i == 0);
}

/* ---- the shared cos/sin block (internal, used by caches and kernels) ---------- */

TEST(sincos_table_block)
{
    /* two positions x three pairs, ld 4, scale 0.5, against posenc_sincos */
    double f_hi[3], f_lo[3];
    for (uint32_t k = 0; k < 3; k++) {
        posenc__dd f = posenc__inv_freq_dd(k, 6, B);
        f_hi[k] = f.hi;
        f_lo[k] = f.lo;
    }
    float cs[8], sn[8];
    for (int i = 0; i < 8; i++)
        cs[i] = sn[i] = -7;
    posenc__sincos_table_f32(POSENC_MAX_POS - 1, 2, f_hi, f_lo, 3, 0.5, cs, sn, 4);
    for (int t = 0; t < 2; t++) {
        for (uint32_t k = 0; k < 3; k++) {
            double s, c;
            CHECK(posenc_sincos(POSENC_MAX_POS - 1 + t, k, 6, B, &s, &c) == POSENC_OK);
            CHECK(cs[t * 4 + k] == (float)(0.5 * c) && sn[t * 4 + k] == (float)(0.5 * s));
        }
        CHECK(cs[t * 4 + 3] == -7 && sn[t * 4 + 3] == -7); /* the padding is untouched */
    }
}

/* ---- the program ----------------------------------------------------------- */

/* Runs the program with args, standard input from the file in (or /dev/null),
 * standard output and error into files; returns the exit status (or -1). */
static int run_program(char *const args[], const char *in, const char *out, const char *err)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fi = open(in ? in : "/dev/null", O_RDONLY);
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fi < 0 || fo < 0 || fe < 0)
            _exit(127);
        dup2(fi, 0), dup2(fo, 1), dup2(fe, 2);
        execv(program, args);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

static char tmpdir[] = "/tmp/posenc-hard-XXXXXX";
static char in_path[64], out_path[64], err_path[64];

/* The whole of a small file, NUL-terminated (caller frees), or NULL. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *p = realloc(buf, 2 * cap + 1);
            if (!p) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = p;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* Writes the line "head" followed by count copies of word, then "\n". */
static int write_long_line(const char *head, const char *word, size_t count)
{
    FILE *f = fopen(in_path, "w");
    if (!f)
        return 0;
    fputs(head, f);
    for (size_t i = 0; i < count; i++)
        fputs(word, f);
    fputs("\n", f);
    return fclose(f) == 0;
}

TEST(program_million_numbers)
{
    /* ROPE at position 0 is the identity: a million ones come back as ones */
    CHECK(write_long_line("ROPE 0", " 1", 1000000));
    char *args[] = {"posenc", NULL};
    CHECK(run_program(args, in_path, out_path, err_path) == 0);
    size_t len;
    char *out = slurp(out_path, &len);
    CHECK(out != NULL && len == 1000000 * 7);
    int all_ones = out != NULL;
    for (size_t i = 0; out && i < len; i += 7)
        all_ones &= memcmp(out + i, i + 7 == len ? "1.0000\n" : "1.0000 ", 7) == 0;
    CHECK(all_ones);
    free(out);

    /* one more than POSENC_MAX_DIM is refused with the count */
    CHECK(write_long_line("ADD 1", " 0", POSENC_MAX_DIM + 1));
    CHECK(run_program(args, in_path, out_path, err_path) == 1);
    char *err = slurp(err_path, NULL);
    CHECK(err && strcmp(err, "posenc: line 1: a vector has at most 1048576 numbers, got "
                             "1048577\n") == 0);
    free(err);

    /* more words than two vectors' worth (2 * 1048576 + 16) */
    CHECK(write_long_line("DOT 1 2", " 0", 2 * (size_t)POSENC_MAX_DIM + 20));
    CHECK(run_program(args, in_path, out_path, err_path) == 1);
    err = slurp(err_path, NULL);
    CHECK(err && strcmp(err, "posenc: line 1: too many words on one line (at most "
                             "2097168)\n") == 0);
    free(err);
}

TEST(program_long_line)
{
    /* a line of 64 MiB + 1 bytes is skipped with a message; the next runs */
    FILE *f = fopen(in_path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("PE 2 4 #", f);
    for (size_t i = 8; i < (size_t)64 * 1024 * 1024 + 1; i++)
        fputc('x', f);
    fputs("\nPE 2 4\n", f);
    fclose(f);
    char *args[] = {"posenc", NULL};
    CHECK(run_program(args, in_path, out_path, err_path) == 1);
    char *out = slurp(out_path, NULL), *err = slurp(err_path, NULL);
    CHECK(out && strcmp(out, "0.9093 -0.4161 0.0200 0.9998\n") == 0);
    CHECK(err && strcmp(err, "posenc: line 1: line longer than 67108864 bytes, skipped\n") == 0);
    free(out);
    free(err);
    /* the same from a named file says the file */
    char *args2[] = {"posenc", in_path, NULL};
    CHECK(run_program(args2, NULL, out_path, err_path) == 1);
    err = slurp(err_path, NULL);
    char want[160];
    snprintf(want, sizeof want, "posenc: %s: line 1: line longer than 67108864 bytes, skipped\n",
             in_path);
    CHECK(err && strcmp(err, want) == 0);
    free(err);
}

TEST(program_full_disk)
{
    /* output that cannot be written is an error, not silence */
    char *args[] = {"posenc", "-c", "PE 2 4", NULL};
    CHECK(run_program(args, NULL, "/dev/full", err_path) == 1);
    char *err = slurp(err_path, NULL);
    CHECK(err && strstr(err, "posenc: error writing output: ") == err);
    free(err);
}

/* Reads one line from fd within a deadlock guard of 20 s; returns its length
 * or -1. The guard only stops a broken -u from hanging the suite. */
static long read_line_fd(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    while (n + 1 < cap) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 20000) <= 0)
            return -1;
        ssize_t r = read(fd, buf + n, 1);
        if (r <= 0)
            return -1;
        if (buf[n++] == '\n')
            break;
    }
    buf[n] = '\0';
    return (long)n;
}

TEST(program_unbuffered_pipe)
{
    /* -u: each answer comes back through the pipe before the next command is
     * sent, as a program driving posenc line by line needs. */
    int to[2], from[2];
    CHECK(pipe(to) == 0 && pipe(from) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(to[0], 0), dup2(from[1], 1);
        close(to[1]), close(from[0]);
        char *args[] = {"posenc", "-u", NULL};
        execv(program, args);
        _exit(127);
    }
    close(to[0]), close(from[1]);
    char line[256];
    CHECK(write(to[1], "PE 2 4\n", 7) == 7);
    CHECK(read_line_fd(from[0], line, sizeof line) > 0 &&
          strcmp(line, "0.9093 -0.4161 0.0200 0.9998\n") == 0);
    CHECK(write(to[1], "ROPE 1 1 0\n", 11) == 11);
    CHECK(read_line_fd(from[0], line, sizeof line) > 0 && strcmp(line, "0.5403 0.8415\n") == 0);
    close(to[1]);
    CHECK(read_line_fd(from[0], line, sizeof line) == -1); /* end of output */
    close(from[0]);
    int status;
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Opens a pseudo-terminal; returns the master fd and the slave's name. */
static int open_pty(char *name, size_t n)
{
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0 || ptsname_r(m, name, n) != 0) {
        if (m >= 0)
            close(m);
        return -1;
    }
    return m;
}

/* Reads from fd until want appears (or 20 s pass without data); 1 if seen. */
static int read_until(int fd, const char *want, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    while (n + 1 < cap && !strstr(buf, want)) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 20000) <= 0)
            return 0;
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r <= 0)
            return 0;
        n += (size_t)r;
        buf[n] = '\0';
    }
    return strstr(buf, want) != NULL;
}

/* Whether the program was built with line editing (posenc --features). */
static int program_has_line_editing(void)
{
    char cmd[4200], line[64];
    snprintf(cmd, sizeof cmd, "'%s' --features", program);
    FILE *p = popen(cmd, "r");
    int yes = 0;
    while (p && fgets(line, sizeof line, p))
        yes |= strcmp(line, "line-editing\n") == 0;
    if (p)
        pclose(p);
    return yes;
}

/* With line editing the program switches the terminal out of canonical mode
 * while it waits for a line, and back after it: keys typed in between would
 * be cooked by the terminal (a Ctrl-D there is an end of file that the
 * editor never sees). A person types after seeing the prompt; a test waits
 * until the editor is reading (up to 10 s; 1 if it is). On Linux the
 * master's attributes are those of the terminal. */
static int wait_editor_reading(int m)
{
    for (int i = 0; i < 1000; i++) {
        struct termios t;
        if (tcgetattr(m, &t) == 0 && !(t.c_lflag & ICANON))
            return 1;
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    return 0;
}

TEST(program_terminal)
{
    int editing = program_has_line_editing();
    char name[128], buf[4096];
    /* 1. Standard output a terminal, input a pipe kept open: the answer shows
     *    up at the end of its line (line buffering), without -u. */
    int m = open_pty(name, sizeof name), to[2];
    CHECK(m >= 0 && pipe(to) == 0);
    if (m < 0)
        return;
    pid_t pid = fork();
    if (pid == 0) {
        int sl = open(name, O_RDWR);
        dup2(to[0], 0), dup2(sl, 1);
        close(to[1]);
        char *args[] = {"posenc", NULL};
        execv(program, args);
        _exit(127);
    }
    close(to[0]);
    CHECK(write(to[1], "PE 2 4\n", 7) == 7);
    CHECK(read_until(m, "0.9093 -0.4161 0.0200 0.9998", buf, sizeof buf));
    close(to[1]);
    int status;
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(m);

    /* 2. Input a terminal too: a prompt before each line, a newline at the end. */
    m = open_pty(name, sizeof name);
    CHECK(m >= 0);
    if (m < 0)
        return;
    pid = fork();
    if (pid == 0) {
        setsid();
        int sl = open(name, O_RDWR);
        dup2(sl, 0), dup2(sl, 1);
        char *args[] = {"posenc", NULL};
        execv(program, args);
        _exit(127);
    }
    CHECK(read_until(m, "posenc> ", buf, sizeof buf));
    if (editing)
        CHECK(wait_editor_reading(m));
    CHECK(write(m, "ROPE 1 1 0\n", 11) == 11);
    /* the echo, the answer, and the next prompt (the terminal writes \r\n) */
    CHECK(read_until(m, "0.5403 0.8415\r\nposenc> ", buf, sizeof buf));
    if (editing)
        CHECK(wait_editor_reading(m));
    CHECK(write(m, "\x04", 1) == 1); /* end of input at the terminal */
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(m);
}

/* Line editing at the prompt, as a learner uses it: PE 2 4, then the Up
 * arrow and Enter run it again, then Ctrl-D; the arrow's escape sequence
 * never reaches the interpreter, and the line is in the history file. */
TEST(program_line_editing)
{
    char name[128], buf[8192], hist[4200];
    int m = open_pty(name, sizeof name);
    CHECK(m >= 0);
    if (m < 0)
        return;
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        setenv("HOME", tmpdir, 1);
        setenv("TERM", "xterm", 1);
        int sl = open(name, O_RDWR);
        dup2(sl, 0), dup2(sl, 1), dup2(sl, 2);
        char *args[] = {"posenc", NULL};
        execv(program, args);
        _exit(127);
    }
    const char *vec = "0.9093 -0.4161 0.0200 0.9998";
    CHECK(wait_editor_reading(m));
    CHECK(write(m, "PE 2 4\r", 7) == 7);
    CHECK(read_until(m, vec, buf, sizeof buf));
    CHECK(wait_editor_reading(m));
    CHECK(write(m, "\x1b[A\r", 4) == 4); /* Up, Enter */
    CHECK(read_until(m, vec, buf, sizeof buf));
    CHECK(strstr(buf, "unknown command") == NULL);
    CHECK(wait_editor_reading(m));
    CHECK(write(m, "\x04", 1) == 1);
    int status;
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(m);
    snprintf(hist, sizeof hist, "%s/.posenc_history", tmpdir);
    FILE *f = fopen(hist, "r");
    CHECK(f != NULL);
    if (f) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        fclose(f);
        CHECK(strstr(buf, "PE") != NULL && strstr(buf, "4") != NULL);
        remove(hist);
    }
}

/* A 160 MB history file (160 lines of 1 MB, then a short one): the prompt
 * reads only its last 1 MiB of whole lines, so it is up in well under a
 * second (it took 25 s and 365 MB when the whole file was read back), the
 * file is cut to that size, and the short line is still in it. */
TEST(program_huge_history)
{
    char name[128], buf[8192], hist[4200];
    snprintf(hist, sizeof hist, "%s/.posenc_history", tmpdir);
    FILE *f = fopen(hist, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    static char line[1 << 20];
    memset(line, 'A', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    fputs("_HiStOrY_V2_\n", f);
    for (int i = 0; i < 160; i++)
        CHECK(fwrite(line, 1, sizeof line, f) == sizeof line);
    fputs("PE\0402\0404\n", f); /* libedit writes a space as \040 */
    CHECK(fclose(f) == 0);
    int m = open_pty(name, sizeof name);
    CHECK(m >= 0);
    if (m < 0)
        return;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        setenv("HOME", tmpdir, 1);
        setenv("TERM", "xterm", 1);
        int sl = open(name, O_RDWR);
        dup2(sl, 0), dup2(sl, 1), dup2(sl, 2);
        char *args[] = {"posenc", NULL};
        execv(program, args);
        _exit(127);
    }
    CHECK(wait_editor_reading(m));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("limits: the prompt with a 160 MB history was up in %.3f s\n", secs);
    CHECK(secs < 1.0);
    CHECK(write(m, "\x1b[A\r", 4) == 4); /* Up, Enter: the last line of the file */
    CHECK(read_until(m, "0.9093 -0.4161 0.0200 0.9998", buf, sizeof buf));
    CHECK(wait_editor_reading(m));
    CHECK(write(m, "\x04", 1) == 1);
    int status;
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(m);
    f = fopen(hist, "rb");
    CHECK(f != NULL);
    if (f) {
        CHECK(fseek(f, 0, SEEK_END) == 0);
        CHECK(ftell(f) <= 1024L * 1024L + 64);
        fclose(f);
    }
    remove(hist);
}

int main(int argc, char **argv)
{
    (void)argc;
    /* BUILD/tests/test_limits -> BUILD/posenc */
    snprintf(program, sizeof program, "%s", argv[0]);
    char *slash = strrchr(program, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(program, sizeof program, ".");
    strncat(program, "/../posenc", sizeof program - strlen(program) - 1);
    signal(SIGPIPE, SIG_IGN);

    RUN(pair_index_checks);
    RUN(angle_checks);
    RUN(sinusoid_checks);
    RUN(rope_checks);
    RUN(rope_init_checks);
    RUN(strerror_every_status);
    RUN(parse_limits);
    RUN(sincos_table_block);

    if (access(program, X_OK) != 0 || !mkdtemp(tmpdir)) {
        fprintf(stderr, "test_limits: no program at %s\n", program);
        check__failed++;
    } else {
        snprintf(in_path, sizeof in_path, "%s/in", tmpdir);
        snprintf(out_path, sizeof out_path, "%s/out", tmpdir);
        snprintf(err_path, sizeof err_path, "%s/err", tmpdir);
        RUN(program_million_numbers);
        RUN(program_long_line);
        RUN(program_full_disk);
        RUN(program_unbuffered_pipe);
        RUN(program_terminal);
        if (program_has_line_editing()) {
            RUN(program_line_editing);
            RUN(program_huge_history);
        } else
            check_skip("limits", 2, "line editing at the prompt: built without libedit",
                       "libedit-dev");
        unlink(in_path), unlink(out_path), unlink(err_path);
        rmdir(tmpdir);
    }
    return check_summary("limits");
}
