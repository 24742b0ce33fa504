/* safetensors.c - a learned position table read from a model's weights: one
 * tensor of a safetensors file, found through its untrusted JSON header
 * (checked whole by the strict parser below), read alone, converted to
 * double. The format: u64 little-endian header length N, N bytes of JSON,
 * the data (https://github.com/huggingface/safetensors, "Format"). */
#include "bytes.h"
#include "halfs.h"
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* ---- dtypes ------------------------------------------------------------------ */

/* Every dtype of the format, with its size in bits (sizes of other tensors
 * are checked too). The first four are the ones a table may have. */
enum { DT_F64 = 0, DT_F32, DT_F16, DT_BF16 };
static const struct {
    const char *name;
    unsigned bits;
} DTYPES[] = {
    {"F64", 64},     {"F32", 32},     {"F16", 16},     {"BF16", 16},    {"BOOL", 8},
    {"U8", 8},       {"I8", 8},       {"F8_E5M2", 8},  {"F8_E4M3", 8},  {"F8_E8M0", 8},
    {"I16", 16},     {"U16", 16},     {"I32", 32},     {"U32", 32},     {"I64", 64},
    {"U64", 64},     {"C64", 64},     {"F6_E2M3", 6},  {"F6_E3M2", 6},  {"F4", 4},
};
#define N_DTYPES (sizeof DTYPES / sizeof DTYPES[0])
#define MAX_RANK 64u

/* ---- the header's index --------------------------------------------------------- */

typedef struct keyref {
    const char *s; /* decoded UTF-8 inside the parser's arena */
    size_t len;
} keyref;

typedef struct entry {
    keyref key;
    uint64_t begin, end; /* data_offsets */
    unsigned dtype;      /* index into DTYPES */
    size_t rank;
    uint64_t dim0, dim1, dim2; /* the first three dimensions */
} entry;

typedef struct parser {
    const unsigned char *p;
    size_t n, i;
    char *arena; /* decoded strings; n bytes are always enough */
    size_t arena_len;
    entry *ents;
    size_t n_ents, cap;
    keyref *meta; /* keys of __metadata__ */
    size_t n_meta, meta_cap;
    posenc_load_error *err;
} parser;

/* A short quotation of a name for messages. */
#define NAME_SHOW 80
#define NAME_ARGS(s, len) (int)((len) > NAME_SHOW ? NAME_SHOW : (len)), (s), \
                          ((len) > NAME_SHOW ? "..." : "")

static posenc_status syntax(parser *ps, const char *what)
{
    return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "header byte %zu: %s", ps->i, what);
}

static void skip_ws(parser *ps)
{
    while (ps->i < ps->n && (ps->p[ps->i] == ' ' || ps->p[ps->i] == '\t' ||
                             ps->p[ps->i] == '\n' || ps->p[ps->i] == '\r'))
        ps->i++;
}

static int peek(parser *ps) { return ps->i < ps->n ? ps->p[ps->i] : -1; }

static posenc_status expect(parser *ps, int ch, const char *what)
{
    skip_ws(ps);
    if (peek(ps) != ch)
        return syntax(ps, what);
    ps->i++;
    return POSENC_OK;
}

static int hex4(const unsigned char *s, unsigned *out)
{
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        int c = s[k], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return 0;
        v = v * 16 + (unsigned)d;
    }
    *out = v;
    return 1;
}

static void put_utf8(parser *ps, unsigned cp)
{
    char *o = ps->arena + ps->arena_len;
    if (cp < 0x80) {
        o[0] = (char)cp;
        ps->arena_len += 1;
    } else if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        ps->arena_len += 2;
    } else if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        ps->arena_len += 3;
    } else {
        o[0] = (char)(0xF0 | (cp >> 18));
        o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[3] = (char)(0x80 | (cp & 0x3F));
        ps->arena_len += 4;
    }
}

/* Length of the well-formed UTF-8 sequence at s (at most avail bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
    unsigned c = s[0], need, cp, min;
    if (c < 0xC2 || c > 0xF4)
        return 0;
    need = c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
    min = need == 1 ? 0x80 : need == 2 ? 0x800 : 0x10000;
    cp = c & (need == 1 ? 0x1F : need == 2 ? 0x0F : 0x07);
    if (avail < need + 1)
        return 0;
    for (unsigned k = 1; k <= need; k++) {
        if ((s[k] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return need + 1;
}

/* A JSON string, decoded into the arena: *out points at it. */
static posenc_status parse_string(parser *ps, keyref *out)
{
    skip_ws(ps);
    if (peek(ps) != '"')
        return syntax(ps, "expected a string");
    ps->i++;
    out->s = ps->arena + ps->arena_len;
    size_t start = ps->arena_len;
    for (;;) {
        if (ps->i >= ps->n)
            return syntax(ps, "unterminated string");
        unsigned c = ps->p[ps->i];
        if (c == '"') {
            ps->i++;
            break;
        }
        if (c < 0x20)
            return syntax(ps, "control character in a string");
        if (c == '\\') {
            if (ps->i + 1 >= ps->n)
                return syntax(ps, "unterminated string");
            unsigned e = ps->p[ps->i + 1];
            const char *map = strchr("\"\\/bfnrt", (int)e);
            if (e != 0 && map) {
                static const char decoded[] = "\"\\/\b\f\n\r\t";
                ps->arena[ps->arena_len++] = decoded[map - "\"\\/bfnrt"];
                ps->i += 2;
                continue;
            }
            if (e != 'u')
                return syntax(ps, "bad escape in a string");
            unsigned cp, lo;
            if (ps->n - ps->i < 6 || !hex4(ps->p + ps->i + 2, &cp))
                return syntax(ps, "bad \\u escape");
            ps->i += 6;
            if (cp >= 0xDC00 && cp <= 0xDFFF)
                return syntax(ps, "lone low surrogate in a \\u escape");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (ps->n - ps->i < 6 || ps->p[ps->i] != '\\' || ps->p[ps->i + 1] != 'u' ||
                    !hex4(ps->p + ps->i + 2, &lo) || lo < 0xDC00 || lo > 0xDFFF)
                    return syntax(ps, "high surrogate without its low half");
                ps->i += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            put_utf8(ps, cp);
            continue;
        }
        if (c < 0x80) {
            ps->arena[ps->arena_len++] = (char)c;
            ps->i++;
            continue;
        }
        size_t k = utf8_len(ps->p + ps->i, ps->n - ps->i);
        if (k == 0)
            return syntax(ps, "bytes that are not UTF-8 in a string");
        memcpy(ps->arena + ps->arena_len, ps->p + ps->i, k);
        ps->arena_len += k;
        ps->i += k;
    }
    out->len = ps->arena_len - start;
    return POSENC_OK;
}

/* A non-negative JSON integer below 2^64. */
static posenc_status parse_u64(parser *ps, uint64_t *out)
{
    skip_ws(ps);
    int c = peek(ps);
    if (c == '-')
        return syntax(ps, "negative number where a size or offset belongs");
    if (c < '0' || c > '9')
        return syntax(ps, "expected a non-negative integer");
    uint64_t v = 0;
    size_t start = ps->i;
    while ((c = peek(ps)) >= '0' && c <= '9') {
        if (v > (UINT64_MAX - (uint64_t)(c - '0')) / 10)
            return syntax(ps, "integer does not fit in 64 bits");
        v = v * 10 + (uint64_t)(c - '0');
        ps->i++;
    }
    if (ps->p[start] == '0' && ps->i - start > 1)
        return syntax(ps, "leading zero in a number");
    if (c == '.' || c == 'e' || c == 'E')
        return syntax(ps, "expected an integer, got a fraction or exponent");
    *out = v;
    return POSENC_OK;
}

/* ',' then more, or the closing bracket: returns 1 for more, 0 at the end. */
static posenc_status next_item(parser *ps, int close, int *more)
{
    skip_ws(ps);
    int c = peek(ps);
    if (c == ',') {
        ps->i++;
        *more = 1;
        return POSENC_OK;
    }
    if (c == close) {
        ps->i++;
        *more = 0;
        return POSENC_OK;
    }
    return syntax(ps, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
}

static int key_is(keyref k, const char *s) { return k.len == strlen(s) && !memcmp(k.s, s, k.len); }

/* The opening bracket open (what: the message without it), and *empty 1
 * when the closing one follows at once (then consumed). */
static posenc_status open_container(parser *ps, int open, int close, const char *what,
                                    int *empty)
{
    posenc_status s = expect(ps, open, what);
    if (s != POSENC_OK)
        return s;
    skip_ws(ps);
    *empty = peek(ps) == close;
    if (*empty)
        ps->i++;
    return POSENC_OK;
}

/* An array of integers, at most max of them ([] is empty). */
static posenc_status parse_u64_array(parser *ps, uint64_t *v, size_t max, size_t *count,
                                     const char *what)
{
    int empty;
    *count = 0;
    posenc_status s = open_container(ps, '[', ']', what, &empty);
    if (s != POSENC_OK || empty)
        return s;
    for (int more = 1; more;) {
        uint64_t x = 0;
        if ((s = parse_u64(ps, &x)) != POSENC_OK)
            return s;
        if (*count < max)
            v[*count] = x;
        (*count)++;
        if (*count > max)
            return syntax(ps, "too many numbers in a shape or data_offsets");
        if ((s = next_item(ps, ']', &more)) != POSENC_OK)
            return s;
    }
    return POSENC_OK;
}

/* A tensor's object; the entry is added to ps->ents. */
static posenc_status parse_tensor(parser *ps, keyref name)
{
    posenc_status s = expect(ps, '{', "expected '{' to open a tensor's description");
    if (s != POSENC_OK)
        return s;
    int have_dtype = 0, have_shape = 0, have_offsets = 0;
    entry e = {name, 0, 0, 0, 0, 0, 0, 0};
    uint64_t shape[MAX_RANK], off[2];
    size_t n_off = 0;
    skip_ws(ps);
    if (peek(ps) == '}')
        return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "tensor '%.*s%s': dtype, shape and "
                    "data_offsets are missing", NAME_ARGS(name.s, name.len));
    for (int more = 1; more;) {
        keyref k;
        size_t mark = ps->arena_len;
        if ((s = parse_string(ps, &k)) != POSENC_OK ||
            (s = expect(ps, ':', "expected ':' after a key")) != POSENC_OK)
            return s;
        int *seen = key_is(k, "dtype") ? &have_dtype : key_is(k, "shape") ? &have_shape
                  : key_is(k, "data_offsets") ? &have_offsets : NULL;
        if (!seen)
            return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "tensor '%.*s%s': unknown key '%.*s%s' "
                        "(a tensor has dtype, shape and data_offsets)",
                        NAME_ARGS(name.s, name.len), NAME_ARGS(k.s, k.len));
        if (*seen)
            return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "tensor '%.*s%s': duplicate key '%.*s%s'",
                        NAME_ARGS(name.s, name.len), NAME_ARGS(k.s, k.len));
        *seen = 1;
        if (seen == &have_dtype) {
            keyref d;
            if ((s = parse_string(ps, &d)) != POSENC_OK)
                return s;
            e.dtype = N_DTYPES;
            for (unsigned t = 0; t < N_DTYPES; t++)
                if (key_is(d, DTYPES[t].name))
                    e.dtype = t;
            if (e.dtype == N_DTYPES)
                return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "tensor '%.*s%s': unknown dtype "
                            "'%.*s%s'", NAME_ARGS(name.s, name.len), NAME_ARGS(d.s, d.len));
        } else if (seen == &have_shape) {
            if ((s = parse_u64_array(ps, shape, MAX_RANK, &e.rank,
                                     "expected '[' to open a shape")) != POSENC_OK)
                return s;
        } else {
            if ((s = parse_u64_array(ps, off, 2, &n_off,
                                     "expected '[' to open data_offsets")) != POSENC_OK)
                return s;
            if (n_off != 2)
                return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "tensor '%.*s%s': data_offsets needs "
                            "two numbers [begin, end]", NAME_ARGS(name.s, name.len));
        }
        ps->arena_len = mark; /* the key and the dtype string are not kept */
        if ((s = next_item(ps, '}', &more)) != POSENC_OK)
            return s;
    }
    if (!have_dtype || !have_shape || !have_offsets)
        return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "tensor '%.*s%s': %s is missing",
                    NAME_ARGS(name.s, name.len),
                    !have_dtype ? "dtype" : !have_shape ? "shape" : "data_offsets");
    /* end - begin must be the shape's byte size, computed without overflow */
    uint64_t elems = 1;
    for (size_t d = 0; d < e.rank; d++) {
        if (shape[d] != 0 && elems > UINT64_MAX / shape[d])
            return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "tensor '%.*s%s': the shape's element "
                        "count overflows 64 bits", NAME_ARGS(name.s, name.len));
        elems *= shape[d];
    }
    uint64_t bits = DTYPES[e.dtype].bits;
    if (elems > UINT64_MAX / bits)
        return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "tensor '%.*s%s': the byte size overflows "
                    "64 bits", NAME_ARGS(name.s, name.len));
    if (elems * bits % 8)
        return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "tensor '%.*s%s': %llu elements of %s do not "
                    "fill whole bytes", NAME_ARGS(name.s, name.len), (unsigned long long)elems,
                    DTYPES[e.dtype].name);
    e.begin = off[0];
    e.end = off[1];
    if (e.end < e.begin || e.end - e.begin != elems * bits / 8)
        return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "tensor '%.*s%s': data_offsets [%llu, %llu] "
                    "do not hold the %llu bytes its shape and dtype need",
                    NAME_ARGS(name.s, name.len), (unsigned long long)e.begin,
                    (unsigned long long)e.end, (unsigned long long)(elems * bits / 8));
    e.dim0 = e.rank > 0 ? shape[0] : 0;
    e.dim1 = e.rank > 1 ? shape[1] : 0;
    e.dim2 = e.rank > 2 ? shape[2] : 0;
    if (!posenc__array_grow((void **)&ps->ents, &ps->cap, ps->n_ents, 16, sizeof *ps->ents))
        return posenc__load_fail(ps->err, POSENC_ERR_NOMEM, "out of memory reading the header");
    ps->ents[ps->n_ents++] = e;
    return POSENC_OK;
}

static posenc_status parse_metadata(parser *ps)
{
    int empty;
    posenc_status s = open_container(ps, '{', '}', "__metadata__ must be an object of strings",
                                     &empty);
    if (s != POSENC_OK || empty)
        return s;
    for (int more = 1; more;) {
        keyref k, v;
        if ((s = parse_string(ps, &k)) != POSENC_OK ||
            (s = expect(ps, ':', "expected ':' after a key")) != POSENC_OK)
            return s;
        size_t mark = ps->arena_len;
        skip_ws(ps);
        if (peek(ps) != '"')
            return syntax(ps, "__metadata__ values must be strings");
        if ((s = parse_string(ps, &v)) != POSENC_OK)
            return s;
        ps->arena_len = mark; /* values are checked, not kept */
        if (!posenc__array_grow((void **)&ps->meta, &ps->meta_cap, ps->n_meta, 16,
                                sizeof *ps->meta))
            return posenc__load_fail(ps->err, POSENC_ERR_NOMEM, "out of memory reading the header");
        ps->meta[ps->n_meta++] = k;
        if ((s = next_item(ps, '}', &more)) != POSENC_OK)
            return s;
    }
    return POSENC_OK;
}

static int cmp_key(const keyref *a, const keyref *b)
{
    size_t m = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->s, b->s, m);
    return c ? c : (a->len > b->len) - (a->len < b->len);
}
static int cmp_keyref(const void *a, const void *b) { return cmp_key(a, b); }
static int cmp_entry_key(const void *a, const void *b)
{
    return cmp_key(&((const entry *)a)->key, &((const entry *)b)->key);
}
static int cmp_entry_offset(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end);
}

/* The whole header: {"name": {...}, ..., "__metadata__": {...}}, then only
 * white space (the format pads with spaces). */
static posenc_status parse_header(parser *ps)
{
    if (peek(ps) != '{')
        return syntax(ps, "the header must begin with '{'");
    ps->i++;
    posenc_status s;
    int have_meta = 0;
    skip_ws(ps);
    if (peek(ps) == '}')
        ps->i++;
    else
        for (int more = 1; more;) {
            keyref k;
            if ((s = parse_string(ps, &k)) != POSENC_OK ||
                (s = expect(ps, ':', "expected ':' after a key")) != POSENC_OK)
                return s;
            if (key_is(k, "__metadata__")) {
                if (have_meta)
                    return posenc__load_fail(ps->err, POSENC_ERR_FORMAT,
                                "header: duplicate key '__metadata__'");
                have_meta = 1;
                s = parse_metadata(ps);
            } else {
                s = parse_tensor(ps, k);
            }
            if (s != POSENC_OK || (s = next_item(ps, '}', &more)) != POSENC_OK)
                return s;
        }
    skip_ws(ps);
    if (ps->i != ps->n)
        return syntax(ps, "text after the header's closing '}'");
    if (ps->n_meta > 1) /* qsort must not see NULL, even for 0 elements */
        qsort(ps->meta, ps->n_meta, sizeof *ps->meta, cmp_keyref);
    for (size_t k = 1; k < ps->n_meta; k++)
        if (!cmp_key(&ps->meta[k - 1], &ps->meta[k]))
            return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "__metadata__: duplicate key '%.*s%s'",
                        NAME_ARGS(ps->meta[k].s, ps->meta[k].len));
    if (ps->n_ents > 1)
        qsort(ps->ents, ps->n_ents, sizeof *ps->ents, cmp_entry_key);
    for (size_t k = 1; k < ps->n_ents; k++)
        if (!cmp_key(&ps->ents[k - 1].key, &ps->ents[k].key))
            return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "header: duplicate tensor '%.*s%s'",
                        NAME_ARGS(ps->ents[k].key.s, ps->ents[k].key.len));
    return POSENC_OK;
}

/* The tensors in offset order must tile [0, data_size) exactly. */
static posenc_status check_tiling(parser *ps, uint64_t data_size)
{
    if (ps->n_ents > 1)
        qsort(ps->ents, ps->n_ents, sizeof *ps->ents, cmp_entry_offset);
    uint64_t at = 0;
    for (size_t k = 0; k < ps->n_ents; k++) {
        const entry *e = &ps->ents[k];
        if (e->begin != at)
            return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "tensor '%.*s%s': begins at data byte %llu "
                        "where the previous tensor ends at %llu (%s)",
                        NAME_ARGS(e->key.s, e->key.len), (unsigned long long)e->begin,
                        (unsigned long long)at, e->begin < at ? "overlap" : "gap");
        if (e->end > data_size)
            return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "tensor '%.*s%s': data_offsets end at "
                        "%llu, past the end of the data (%llu bytes)",
                        NAME_ARGS(e->key.s, e->key.len), (unsigned long long)e->end,
                        (unsigned long long)data_size);
        at = e->end;
    }
    if (at != data_size)
        return posenc__load_fail(ps->err, POSENC_ERR_FORMAT, "the tensors end at data byte %llu but the "
                    "file has %llu bytes of data after the header",
                    (unsigned long long)at, (unsigned long long)data_size);
    return POSENC_OK;
}

/* ---- the values ----------------------------------------------------------------- */

static double decode(unsigned dtype, const unsigned char *b)
{
    switch (dtype) {
    case DT_F64:
        return posenc__le_f64(b);
    case DT_F32:
        return posenc__le_f32(b);
    case DT_F16:
        return posenc__f16_to_f32(posenc__le16(b));
    default: /* DT_BF16: the top half of a float */
        return posenc__bf16_to_f32(posenc__le16(b));
    }
}

/* Reads the table's bytes at file offset `at` in chunks, converting. */
static posenc_status read_values(FILE *in, off_t at, const entry *e, double *out,
                                 posenc_load_error *err)
{
    unsigned char buf[65536];
    size_t size = DTYPES[e->dtype].bits / 8, n = (size_t)(e->dim0 * e->dim1);
    size_t per = sizeof buf / size, done = 0;
    if (fseeko(in, at, SEEK_SET) != 0)
        return posenc__load_fail(err, POSENC_ERR_IO, "cannot seek to tensor '%.*s%s': %s",
                    NAME_ARGS(e->key.s, e->key.len), strerror(errno));
    while (done < n) {
        size_t m = n - done < per ? n - done : per;
        if (fread(buf, size, m, in) != m)
            return posenc__load_fail(err, POSENC_ERR_IO, "tensor '%.*s%s': read error or early end of file",
                        NAME_ARGS(e->key.s, e->key.len));
        for (size_t k = 0; k < m; k++) {
            double v = decode(e->dtype, buf + k * size);
            if (!isfinite(v))
                return posenc__load_fail(err, POSENC_ERR_FORMAT, "tensor '%.*s%s': row %llu column %llu "
                            "is not finite", NAME_ARGS(e->key.s, e->key.len),
                            (unsigned long long)((done + k) / e->dim1),
                            (unsigned long long)((done + k) % e->dim1));
            out[done + k] = v;
        }
        done += m;
    }
    return POSENC_OK;
}

/* ---- the entry points ------------------------------------------------------------ */

/* Checks the named entry as a table; *found is its index. */
static posenc_status find_table(const parser *ps, const char *name, size_t *found)
{
    size_t len = strlen(name);
    keyref want = {name, len};
    for (size_t k = 0; k < ps->n_ents; k++) {
        const entry *e = &ps->ents[k];
        if (cmp_key(&e->key, &want))
            continue;
        if (e->dtype > DT_BF16)
            return posenc__load_fail(ps->err, POSENC_ERR_RANGE, "tensor '%.*s%s' is %s: a table must be "
                        "F64, F32, F16 or BF16", NAME_ARGS(name, len), DTYPES[e->dtype].name);
        if (e->rank != 2)
            return posenc__load_fail(ps->err, POSENC_ERR_RANGE, "tensor '%.*s%s' has %zu dimensions: a "
                        "table has 2 [positions, dim]", NAME_ARGS(name, len), e->rank);
        if (e->dim0 == 0 || e->dim1 == 0)
            return posenc__load_fail(ps->err, POSENC_ERR_RANGE, "tensor '%.*s%s' has shape [%llu, %llu]: a "
                        "table needs a row and a column", NAME_ARGS(name, len),
                        (unsigned long long)e->dim0, (unsigned long long)e->dim1);
        if (e->dim1 > POSENC_MAX_DIM)
            return posenc__load_fail(ps->err, POSENC_ERR_DIM, "tensor '%.*s%s': rows of %llu numbers, "
                        "longer than %u", NAME_ARGS(name, len), (unsigned long long)e->dim1,
                        POSENC_MAX_DIM);
        if (e->dim0 > POSENC_LEARNED_MAX_ELEMS / e->dim1)
            return posenc__load_fail(ps->err, POSENC_ERR_OVERFLOW, "tensor '%.*s%s': table larger than %u "
                        "numbers", NAME_ARGS(name, len), POSENC_LEARNED_MAX_ELEMS);
        *found = k;
        return POSENC_OK;
    }
    return posenc__load_fail(ps->err, POSENC_ERR_RANGE, "no tensor '%.*s%s' in the file (it has %zu)",
                NAME_ARGS(name, len), ps->n_ents);
}

/* The header of the file at in, read and checked whole (parse_header,
 * check_tiling) into *ps; *hlen is its length. On success the caller frees
 * *text and ps's arrays; on error they are freed here. */
static posenc_status read_header(FILE *in, parser *ps_out, unsigned char **text_out,
                                 uint64_t *hlen_out, posenc_load_error *err)
{
    /* the file's size, then the 8-byte length */
    off_t fsize;
    if (fseeko(in, 0, SEEK_END) != 0 || (fsize = ftello(in)) < 0 ||
        fseeko(in, 0, SEEK_SET) != 0)
        return posenc__load_fail(err, POSENC_ERR_IO, "cannot seek in the file: %s", strerror(errno));
    unsigned char len8[8];
    if (fsize < 8)
        return posenc__load_fail(err, POSENC_ERR_FORMAT, "file of %lld bytes: too short for the 8-byte "
                    "header length", (long long)fsize);
    if (fread(len8, 1, 8, in) != 8)
        return posenc__load_fail(err, POSENC_ERR_IO, "read error in the header length");
    uint64_t hlen = posenc__le64(len8);
    if (hlen == 0 || hlen > POSENC_SAFETENSORS_MAX_HEADER)
        return posenc__load_fail(err, POSENC_ERR_FORMAT, "header length %llu is outside 1 .. %u bytes",
                    (unsigned long long)hlen, POSENC_SAFETENSORS_MAX_HEADER);
    if (hlen > (uint64_t)fsize - 8)
        return posenc__load_fail(err, POSENC_ERR_FORMAT, "header length %llu is past the end of the file "
                    "(%lld bytes)", (unsigned long long)hlen, (long long)fsize);
    parser ps = {0};
    ps.n = (size_t)hlen;
    ps.err = err;
    unsigned char *text = malloc(ps.n);
    ps.arena = malloc(ps.n);
    posenc_status s = POSENC_OK;
    if (!text || !ps.arena)
        s = posenc__load_fail(err, POSENC_ERR_NOMEM, "out of memory for a header of %zu bytes", ps.n);
    else if (fread(text, 1, ps.n, in) != ps.n)
        s = posenc__load_fail(err, POSENC_ERR_IO, "read error in the header");
    ps.p = text;
    if (s == POSENC_OK)
        s = parse_header(&ps);
    if (s == POSENC_OK)
        s = check_tiling(&ps, (uint64_t)fsize - 8 - hlen);
    if (s != POSENC_OK) {
        free(text);
        free(ps.arena);
        free(ps.ents);
        free(ps.meta);
        return s;
    }
    *ps_out = ps;
    *text_out = text;
    *hlen_out = hlen;
    return POSENC_OK;
}

posenc_status posenc_learned_read_safetensors(FILE *in, const char *name, posenc_learned **out,
                                              posenc_load_error *err)
{
    parser ps;
    unsigned char *text;
    uint64_t hlen;
    posenc_status s = posenc__load_start(err, in && name && out);
    if (s == POSENC_OK)
        s = read_header(in, &ps, &text, &hlen, err);
    if (s != POSENC_OK)
        return s;
    size_t k = 0;
    s = find_table(&ps, name, &k);
    double *data = NULL;
    if (s == POSENC_OK) {
        const entry *e = &ps.ents[k];
        data = malloc((size_t)(e->dim0 * e->dim1) * sizeof *data);
        if (!data)
            s = posenc__load_fail(err, POSENC_ERR_NOMEM, "out of memory for tensor '%.*s%s'",
                     NAME_ARGS(name, strlen(name)));
        else
            s = read_values(in, (off_t)(8 + hlen + e->begin), e, data, err);
        if (s == POSENC_OK)
            s = posenc__learned_adopt(data, (size_t)e->dim0, (size_t)e->dim1, out);
        if (s == POSENC_OK)
            data = NULL;
        else if (s == POSENC_ERR_NOMEM && err && !err->detail[0])
            posenc__load_fail(err, s, "out of memory");
    }
    free(data);
    free(text);
    free(ps.arena);
    free(ps.ents);
    free(ps.meta);
    return s;
}

posenc_status posenc_learned_load_safetensors(const char *path, const char *name,
                                              posenc_learned **out, posenc_load_error *err)
{
    FILE *f;
    posenc_status s = posenc__load_open(path, name && out, &f, err);
    return s == POSENC_OK ? posenc__load_close(f, posenc_learned_read_safetensors(f, name, out, err))
                          : s;
}

/* ---- the index for other readers (src/check/dump.c) --------------------------- */

posenc_status posenc__safetensors_find(FILE *in, size_t n, const char *const *names,
                                       posenc__st_tensor *out, posenc_load_error *err)
{
    parser ps;
    unsigned char *text;
    uint64_t hlen;
    posenc_status s = posenc__load_start(err, in && (!n || (names && out)));
    if (s == POSENC_OK)
        s = read_header(in, &ps, &text, &hlen, err);
    if (s != POSENC_OK)
        return s;
    for (size_t i = 0; i < n; i++) {
        keyref want = {names[i], strlen(names[i])};
        memset(&out[i], 0, sizeof out[i]);
        for (size_t k = 0; k < ps.n_ents; k++) {
            const entry *e = &ps.ents[k];
            if (cmp_key(&e->key, &want))
                continue;
            out[i].dtype = DTYPES[e->dtype].name;
            out[i].rank = e->rank;
            out[i].shape[0] = e->dim0;
            out[i].shape[1] = e->dim1;
            out[i].shape[2] = e->dim2;
            out[i].offset = 8 + hlen + e->begin;
            out[i].n_bytes = e->end - e->begin;
        }
    }
    free(text);
    free(ps.arena);
    free(ps.ents);
    free(ps.meta);
    return POSENC_OK;
}
