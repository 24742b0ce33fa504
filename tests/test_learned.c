/* test_learned.c - learned position tables (src/math/learned.c): reading a table
 * file, its rows, the hard edge past the last row, every limit and read
 * error, and the fuzz findings. The out-of-memory path is in
 * test_resources.c. */
#define _GNU_SOURCE /* fopencookie: a stream whose read fails */
#include "check.h"
#include "posenc.h"

#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/types.h>

/* ---- helpers ------------------------------------------------------------ */

static posenc_status load_text(const char *text, posenc_learned **t, posenc_load_error *e)
{
    FILE *f = tmpfile();
    if (!f)
        return POSENC_ERR_IO;
    fputs(text, f);
    rewind(f);
    posenc_status s = posenc_learned_read(f, t, e);
    fclose(f);
    return s;
}

/* ---- learned tables: limits, read errors, fuzz regressions -------------------- */

static posenc_status load_bytes(const char *text, size_t len, posenc_learned **t,
                                posenc_load_error *e)
{
    FILE *f = fmemopen((void *)text, len, "r");
    if (!f)
        return POSENC_ERR_IO;
    posenc_status s = posenc_learned_read(f, t, e);
    fclose(f);
    return s;
}

/* A stream whose every read fails with EIO. */
static ssize_t failing_read(void *cookie, char *buf, size_t n)
{
    (void)cookie, (void)buf, (void)n;
    errno = EIO;
    return -1;
}

/* A stream of n bytes of a repeated pattern, without storing it. */
typedef struct pattern_stream {
    const char *pat;
    size_t pat_len, left, at;
} pattern_stream;

static ssize_t pattern_read(void *cookie, char *buf, size_t n)
{
    pattern_stream *p = cookie;
    size_t k = 0;
    while (k < n && p->left > 0) {
        buf[k++] = p->pat[p->at];
        p->at = (p->at + 1) % p->pat_len;
        p->left--;
    }
    return (ssize_t)k;
}

static posenc_status read_text(const char *text, posenc_learned **out, posenc_load_error *err)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    if (!f)
        return POSENC_ERR_IO;
    posenc_status st = posenc_learned_read(f, out, err);
    fclose(f);
    return st;
}

TEST(learned_tables)
{
    posenc_learned *t = NULL;
    posenc_load_error e;
    CHECK(load_text("# a table\n0.5 1 2\n\n3, 4, 5 # row 1\r\n6 7 8", &t, &e) == POSENC_OK);
    CHECK(posenc_learned_n_pos(t) == 3 && posenc_learned_dim(t) == 3);
    double row[3];
    CHECK(posenc_learned_row_f64(t, 1, row) == POSENC_OK);
    CHECK(row[0] == 3 && row[1] == 4 && row[2] == 5);
    CHECK(posenc_learned_row_f64(t, 2, row) == POSENC_OK && row[2] == 8);
    CHECK(posenc_learned_row_f64(t, 3, row) == POSENC_ERR_POS); /* the hard edge */
    CHECK(posenc_learned_row_f64(t, -1, row) == POSENC_ERR_POS);
    posenc_learned_free(t);
    posenc_learned_free(NULL);

    t = NULL;
    CHECK(load_text("1 2\n3 4\n5\n", &t, &e) == POSENC_ERR_FORMAT);
    CHECK(t == NULL && e.line == 3 && e.expected == 2 && e.got == 1);
    CHECK(load_text("1 2\nx 4\n", &t, &e) == POSENC_ERR_FORMAT && e.line == 2);
    CHECK(load_text("1 nan\n", &t, &e) == POSENC_ERR_FORMAT && e.line == 1);
    CHECK(load_text("1 1e999\n", &t, &e) == POSENC_ERR_FORMAT);
    CHECK(load_text("# only a comment\n\n", &t, &e) == POSENC_ERR_FORMAT);
    CHECK(posenc_learned_load("/nonexistent/table.txt", &t, &e) == POSENC_ERR_IO);
    CHECK(posenc_learned_read(NULL, &t, &e) == POSENC_ERR_NULL);
    CHECK(posenc_learned_n_pos(NULL) == 0 && posenc_learned_dim(NULL) == 0);
}

TEST(learned_limits)
{
    posenc_learned *t = NULL;
    posenc_load_error e;
    char longword[POSENC_MAX_NUMBER_LEN + 8];
    memset(longword, '1', sizeof longword);
    /* a 519-digit word is refused where it exceeds 512 bytes, not at its end */
    CHECK(load_bytes(longword, sizeof longword, &t, &e) == POSENC_ERR_FORMAT);
    CHECK(t == NULL && e.line == 1 && strstr(e.detail, "not a number") != NULL);
    /* 512 digits: a number (too large for a double: not finite) */
    CHECK(load_bytes(longword, POSENC_MAX_NUMBER_LEN, &t, &e) == POSENC_ERR_FORMAT);
    CHECK(strcmp(e.detail, "number is not finite") == 0);

    /* NUL bytes are not separators: a word of 600 NULs (LOAD /dev/zero) */
    char zeros[600] = {0};
    CHECK(load_bytes(zeros, sizeof zeros, &t, &e) == POSENC_ERR_FORMAT && e.line == 1);

    /* a read error */
    cookie_io_functions_t io = {.read = failing_read};
    FILE *f = fopencookie(NULL, "r", io);
    CHECK(f != NULL);
    if (f) {
        CHECK(posenc_learned_read(f, &t, &e) == POSENC_ERR_IO);
        CHECK(strcmp(e.detail, "read error") == 0 && t == NULL);
        fclose(f);
    }
    CHECK(posenc_learned_read(stdin, NULL, &e) == POSENC_ERR_NULL);
    CHECK(posenc_learned_load(NULL, &t, &e) == POSENC_ERR_NULL);
    CHECK(posenc_learned_load("/", &t, NULL) == POSENC_ERR_IO); /* a directory; err NULL */

    /* a row of POSENC_MAX_DIM numbers is a table; one more is POSENC_ERR_DIM,
     * read from a generated stream "0 0 0 ..." */
    pattern_stream ps = {"0 ", 2, 2 * (size_t)POSENC_MAX_DIM, 0};
    f = fopencookie(&ps, "r", (cookie_io_functions_t){.read = pattern_read});
    CHECK(f && posenc_learned_read(f, &t, &e) == POSENC_OK);
    if (f)
        fclose(f);
    CHECK(posenc_learned_n_pos(t) == 1 && posenc_learned_dim(t) == POSENC_MAX_DIM);
    posenc_learned_free(t);
    t = NULL;
    ps = (pattern_stream){"0 ", 2, 2 * (size_t)POSENC_MAX_DIM + 2, 0};
    f = fopencookie(&ps, "r", (cookie_io_functions_t){.read = pattern_read});
    CHECK(f && posenc_learned_read(f, &t, &e) == POSENC_ERR_DIM);
    if (f)
        fclose(f);
    CHECK(t == NULL && strcmp(e.detail, "row longer than 1048576 numbers") == 0);

    /* row access never reads past the table: the last row of a 2 x 3 table */
    static const char two[] = "1 2 3\n4 5 6";
    double row[3];
    CHECK(load_bytes(two, sizeof two - 1, &t, &e) == POSENC_OK);
    CHECK(posenc_learned_row_f64(t, 1, row) == POSENC_OK && row[0] == 4 && row[2] == 6);
    CHECK(posenc_learned_row_f64(t, INT64_MIN, row) == POSENC_ERR_POS);
    CHECK(posenc_learned_row_f64(t, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_learned_row_f64(NULL, 0, row) == POSENC_ERR_NULL);
    posenc_learned_free(t);
}

TEST(learned_errors_without_an_error_record)
{
    posenc_learned *t = NULL;
    CHECK_EQ_INT(read_text("1 2 3\n4 5\n", &t, NULL), POSENC_ERR_FORMAT); /* ragged */
    CHECK(t == NULL);
    CHECK_EQ_INT(read_text("1 x\n", &t, NULL), POSENC_ERR_FORMAT);
    CHECK(t == NULL);
    posenc_load_error e;
    CHECK_EQ_INT(posenc_learned_load("tests/data/none", NULL, &e), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_learned_load(NULL, &t, &e), POSENC_ERR_NULL);
    /* commas, tabs and a CR inside a line separate numbers too */
    CHECK_EQ_INT(read_text("1,2\r3\n4\t5 6\r\n", &t, NULL), POSENC_OK);
    double r2[3];
    CHECK_EQ_INT(posenc_learned_n_pos(t), 2);
    CHECK_EQ_INT(posenc_learned_row_f64(t, 0, r2), POSENC_OK);
    CHECK(r2[0] == 1 && r2[1] == 2 && r2[2] == 3);
    CHECK_EQ_INT(posenc_learned_row_f64(t, 1, r2), POSENC_OK);
    CHECK(r2[0] == 4 && r2[1] == 5 && r2[2] == 6);
    posenc_learned_free(t);
    /* control: two rows of three, row 1 read back */
    CHECK_EQ_INT(read_text("1 2 3\n4 5 6\n", &t, NULL), POSENC_OK);
    double row[3];
    CHECK_EQ_INT(posenc_learned_row_f64(t, 1, row), POSENC_OK);
    CHECK(row[0] == 4 && row[1] == 5 && row[2] == 6);
    posenc_learned_free(t);
}

int main(void)
{
    RUN(learned_tables);
    RUN(learned_limits);
    RUN(learned_errors_without_an_error_record);
    return check_summary("learned");
}
