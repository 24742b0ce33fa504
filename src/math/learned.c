/* learned.c - learned position tables: row pos of a table read from text,
 * with the hard edge at the table's length. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct posenc_learned {
    size_t n_pos;  /* rows */
    size_t dim;    /* columns */
    double *data;  /* n_pos * dim, row-major */
};

/* The table being built while reading. */
typedef struct builder {
    double *data;
    size_t len, cap;   /* elements */
    size_t dim;        /* length of the first row, 0 until it ends */
    size_t row_len;    /* elements in the current row so far */
    size_t n_rows;
} builder;

static void set_error(posenc_load_error *err, size_t line, const char *detail)
{
    if (!err)
        return;
    err->line = line;
    snprintf(err->detail, sizeof err->detail, "%s", detail);
}

static posenc_status push_value(builder *b, double v)
{
    if (b->len >= POSENC_LEARNED_MAX_ELEMS)
        return POSENC_ERR_OVERFLOW;
    if (b->row_len >= POSENC_MAX_DIM)
        return POSENC_ERR_DIM;
    /* 1024 doubled lands exactly on the limit: len < cap <= the limit */
    _Static_assert(POSENC_LEARNED_MAX_ELEMS % 1024 == 0 &&
                       ((POSENC_LEARNED_MAX_ELEMS / 1024) &
                        (POSENC_LEARNED_MAX_ELEMS / 1024 - 1)) == 0,
                   "POSENC_LEARNED_MAX_ELEMS must be 1024 times a power of two");
    if (!posenc__array_grow((void **)&b->data, &b->cap, b->len, 1024, sizeof *b->data))
        return POSENC_ERR_NOMEM;
    b->data[b->len++] = v;
    b->row_len++;
    return POSENC_OK;
}

/* Ends the current line's row; blank lines are not rows. */
static posenc_status end_row(builder *b, size_t line, posenc_load_error *err)
{
    if (b->row_len == 0)
        return POSENC_OK;
    if (b->n_rows == 0) {
        b->dim = b->row_len;
    } else if (b->row_len != b->dim) {
        if (err) {
            err->expected = b->dim;
            err->got = b->row_len;
        }
        char msg[96];
        snprintf(msg, sizeof msg, "ragged row: %zu numbers, the first row has %zu", b->row_len,
                 b->dim);
        set_error(err, line, msg);
        return POSENC_ERR_FORMAT;
    }
    /* Every row holds a number, so the element limit bounds the rows too. */
    _Static_assert(POSENC_LEARNED_MAX_ELEMS <= (uint64_t)POSENC_MAX_POS + 1,
                   "a table may not have more rows than positions");
    b->n_rows++;
    b->row_len = 0;
    return POSENC_OK;
}

static posenc_status end_token(builder *b, const char *tok, size_t len, int too_long,
                               size_t line, posenc_load_error *err)
{
    double v;
    posenc_status st = too_long ? POSENC_ERR_FORMAT : posenc_parse_number(tok, len, &v);
    if (st == POSENC_ERR_NOT_FINITE) {
        set_error(err, line, "number is not finite");
        return POSENC_ERR_FORMAT;
    }
    if (st != POSENC_OK) {
        char msg[96];
        snprintf(msg, sizeof msg, "not a number: '%.40s%s'", tok, too_long ? "..." : "");
        set_error(err, line, msg);
        return POSENC_ERR_FORMAT;
    }
    st = push_value(b, v);
    if (st == POSENC_ERR_DIM)
        set_error(err, line, "row longer than 1048576 numbers");
    else if (st == POSENC_ERR_OVERFLOW)
        set_error(err, line, "table larger than 134217728 numbers");
    return st;
}

static int is_separator(int ch) { return ch == ' ' || ch == '\t' || ch == ',' || ch == '\r'; }

/* Reads the whole stream with a bounded token buffer: memory is the table
 * itself and nothing else. */
static posenc_status read_rows(FILE *in, builder *b, posenc_load_error *err)
{
    char tok[POSENC_MAX_NUMBER_LEN + 1];
    size_t tok_len = 0, line = 1;
    int in_comment = 0;
    for (;;) {
        int ch = getc(in);
        int at_end = ch == EOF;
        int ends_token = at_end || ch == '\n' || is_separator(ch) || ch == '#';
        if (!in_comment && ends_token && tok_len > 0) {
            tok[tok_len] = '\0';
            posenc_status st = end_token(b, tok, tok_len, 0, line, err);
            if (st != POSENC_OK)
                return st;
            tok_len = 0;
        }
        if (at_end || ch == '\n') {
            posenc_status st = end_row(b, line, err);
            if (st != POSENC_OK)
                return st;
            if (at_end)
                return ferror(in) ? POSENC_ERR_IO : POSENC_OK;
            line++;
            in_comment = 0;
        } else if (ch == '#') {
            in_comment = 1;
        } else if (!in_comment && !ends_token) {
            if (tok_len < POSENC_MAX_NUMBER_LEN) {
                tok[tok_len++] = (char)ch;
            } else {
                /* Refuse now rather than at the word's end: a stream with
                 * no separator at all (LOAD /dev/zero) would never get there. */
                tok[tok_len] = '\0';
                return end_token(b, tok, tok_len, 1, line, err);
            }
        }
    }
}

posenc_status posenc_learned_read(FILE *in, posenc_learned **out, posenc_load_error *err)
{
    posenc_status st = posenc__load_start(err, in && out);
    if (st != POSENC_OK)
        return st;
    builder b = {0};
    st = read_rows(in, &b, err);
    if (st == POSENC_OK && b.n_rows == 0) {
        set_error(err, 0, "the table has no rows");
        st = POSENC_ERR_FORMAT;
    }
    if (st == POSENC_ERR_IO)
        set_error(err, 0, "read error");
    posenc_learned *t = NULL;
    if (st == POSENC_OK) {
        t = malloc(sizeof *t);
        if (!t)
            st = POSENC_ERR_NOMEM;
    }
    if (st != POSENC_OK) {
        free(b.data);
        return st;
    }
    t->n_pos = b.n_rows;
    t->dim = b.dim;
    t->data = b.data;
    *out = t;
    return POSENC_OK;
}

posenc_status posenc_learned_load(const char *path, posenc_learned **out,
                                  posenc_load_error *err)
{
    FILE *f;
    posenc_status st = posenc__load_open(path, out != NULL, &f, err);
    return st == POSENC_OK ? posenc__load_close(f, posenc_learned_read(f, out, err)) : st;
}

posenc_status posenc__learned_adopt(double *data, size_t n_pos, size_t dim, posenc_learned **out)
{
    posenc_learned *t = malloc(sizeof *t);
    if (!t)
        return POSENC_ERR_NOMEM;
    t->n_pos = n_pos;
    t->dim = dim;
    t->data = data;
    *out = t;
    return POSENC_OK;
}

void posenc_learned_free(posenc_learned *table)
{
    if (!table)
        return;
    free(table->data);
    free(table);
}

size_t posenc_learned_n_pos(const posenc_learned *table) { return table ? table->n_pos : 0; }

size_t posenc_learned_dim(const posenc_learned *table) { return table ? table->dim : 0; }

posenc_status posenc_learned_row_f64(const posenc_learned *table, int64_t pos, double *out)
{
    if (!table || !out)
        return POSENC_ERR_NULL;
    if (pos < 0 || (uint64_t)pos >= table->n_pos)
        return POSENC_ERR_POS;
    memcpy(out, table->data + (size_t)pos * table->dim, table->dim * sizeof *out);
    return POSENC_OK;
}
