/* test_safetensors.c - learned tables read from safetensors files that the
 * tests write themselves (8-byte little-endian length, JSON header, raw
 * little-endian data): every dtype against values computed here, a missing
 * tensor, and each corruption of the header, the offsets and the data. */
#define _GNU_SOURCE /* fopencookie: a stream whose seeks and reads fail on demand */
#include "check.h"
#include "capped.h"
#include "posenc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- allocation failures on demand (-Wl,--wrap, see the Makefile) -------------- */

#include "fault.h" /* alloc_countdown, alloc_failed */

/* ---- writing files --------------------------------------------------------------- */

typedef struct blob {
    unsigned char *p;
    size_t n;
} blob;

/* 8-byte length, the header as given, then data (n_data bytes). */
static blob make(const char *header, const void *data, size_t n_data)
{
    size_t h = strlen(header);
    blob b = {malloc(8 + h + n_data + 1), 8 + h + n_data};
    if (!b.p)
        abort();
    for (int k = 0; k < 8; k++)
        b.p[k] = (unsigned char)((uint64_t)h >> (8 * k));
    memcpy(b.p + 8, header, h);
    if (n_data)
        memcpy(b.p + 8 + h, data, n_data);
    return b;
}

static posenc_status read_blob(blob b, const char *name, posenc_learned **t,
                               posenc_load_error *e)
{
    FILE *f = fmemopen(b.p, b.n, "r");
    if (!f)
        abort();
    posenc_status s = posenc_learned_read_safetensors(f, name, t, e);
    fclose(f);
    return s;
}

/* The same through a real file (posenc_learned_load_safetensors). */
static posenc_status load_blob(blob b, const char *name, posenc_learned **t,
                               posenc_load_error *e)
{
    char path[] = "/tmp/posenc-st-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        abort();
    if (write(fd, b.p, b.n) != (ssize_t)b.n)
        abort();
    close(fd);
    posenc_status s = posenc_learned_load_safetensors(path, name, t, e);
    unlink(path);
    return s;
}

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int k = 0; k < bytes; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

/* ---- every dtype ---------------------------------------------------------------- */

TEST(f32_table_after_another_tensor_with_metadata)
{
    /* data: "bias" [2] F32 (8 bytes) then "wpe.weight" [3, 2] F32 (24 bytes) */
    float v[8] = {9.0f, 9.0f, 0.1f, -2.5f, 3.0e-39f /* subnormal */, 1e30f, -0.0f, 7.0f};
    unsigned char data[32];
    for (int i = 0; i < 8; i++) {
        uint32_t u;
        memcpy(&u, &v[i], 4);
        put_le(data + 4 * i, u, 4);
    }
    blob b = make("{\"__metadata__\":{\"format\":\"pt\"},"
                  "\"wpe.weight\":{\"dtype\":\"F32\",\"shape\":[3,2],\"data_offsets\":[8,32]},"
                  "\"bias\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}   ",
                  data, sizeof data);
    for (int via_file = 0; via_file <= 1; via_file++) {
        posenc_learned *t = NULL;
        posenc_load_error e;
        posenc_status s = via_file ? load_blob(b, "wpe.weight", &t, &e)
                                   : read_blob(b, "wpe.weight", &t, &e);
        CHECK_EQ_INT(s, POSENC_OK);
        if (s != POSENC_OK) {
            fprintf(stderr, "detail: %s\n", e.detail);
            continue;
        }
        CHECK_EQ_INT(posenc_learned_n_pos(t), 3);
        CHECK_EQ_INT(posenc_learned_dim(t), 2);
        double row[2];
        for (int p = 0; p < 3; p++) {
            CHECK(posenc_learned_row_f64(t, p, row) == POSENC_OK);
            CHECK(row[0] == (double)v[2 + 2 * p] && row[1] == (double)v[3 + 2 * p]);
        }
        CHECK(signbit(row[0]) && row[0] == 0.0); /* -0 kept */
        CHECK_EQ_INT(posenc_learned_row_f64(t, 3, row), POSENC_ERR_POS);
        posenc_learned_free(t);
    }
    free(b.p);
}

TEST(f64_f16_bf16_values_convert_exactly)
{
    /* F64 [2, 2] */
    double d[4] = {0.1, -1e-300, 123456789.123456789, 4.9e-324};
    unsigned char data[64];
    for (int i = 0; i < 4; i++) {
        uint64_t u;
        memcpy(&u, &d[i], 8);
        put_le(data + 8 * i, u, 8);
    }
    blob b = make("{\"x\":{\"dtype\":\"F64\",\"shape\":[2,2],\"data_offsets\":[0,32]}}", data,
                  32);
    posenc_learned *t = NULL;
    posenc_load_error e;
    double row[4];
    CHECK_EQ_INT(read_blob(b, "x", &t, &e), POSENC_OK);
    for (int p = 0; p < 2 && t; p++) {
        CHECK(posenc_learned_row_f64(t, p, row) == POSENC_OK);
        CHECK(row[0] == d[2 * p] && row[1] == d[2 * p + 1]);
    }
    posenc_learned_free(t);
    free(b.p);

    /* F16 [1, 6]: 1, -2, the smallest subnormal 2^-24, the largest 65504,
     * 1/3 rounded (0x3555 = 1365/4096), -0 */
    unsigned short h[6] = {0x3C00, 0xC000, 0x0001, 0x7BFF, 0x3555, 0x8000};
    double hv[6] = {1.0, -2.0, ldexp(1.0, -24), 65504.0, 1365.0 / 4096.0, -0.0};
    for (int i = 0; i < 6; i++)
        put_le(data + 2 * i, h[i], 2);
    b = make("{\"pe\":{\"dtype\":\"F16\",\"shape\":[1,6],\"data_offsets\":[0,12]}}", data, 12);
    t = NULL;
    CHECK_EQ_INT(read_blob(b, "pe", &t, &e), POSENC_OK);
    double r6[6];
    if (t) {
        CHECK(posenc_learned_row_f64(t, 0, r6) == POSENC_OK);
        for (int i = 0; i < 6; i++)
            CHECK(r6[i] == hv[i]);
        CHECK(signbit(r6[5]));
    }
    posenc_learned_free(t);
    free(b.p);

    /* BF16 [3, 1]: 1 (0x3F80), -3 (0xC040), 2^-133 (0x0001, a float subnormal) */
    unsigned short bf[3] = {0x3F80, 0xC040, 0x0001};
    double bv[3] = {1.0, -3.0, ldexp(1.0, -133)};
    for (int i = 0; i < 3; i++)
        put_le(data + 2 * i, bf[i], 2);
    b = make("{\"pe\":{\"dtype\":\"BF16\",\"shape\":[3,1],\"data_offsets\":[0,6]}}", data, 6);
    t = NULL;
    CHECK_EQ_INT(read_blob(b, "pe", &t, &e), POSENC_OK);
    for (int p = 0; p < 3 && t; p++) {
        CHECK(posenc_learned_row_f64(t, p, row) == POSENC_OK);
        CHECK(row[0] == bv[p]);
    }
    posenc_learned_free(t);
    free(b.p);
}

/* A table bigger than the reader's 64 KiB chunk: [300, 100] F32 = 120 KB. */
TEST(a_large_table_is_read_in_chunks)
{
    size_t n = 300 * 100;
    unsigned char *data = malloc(4 * n);
    CHECK(data != NULL);
    if (!data)
        return;
    for (size_t i = 0; i < n; i++) {
        float f = (float)i * 0.5f - 7.25f;
        uint32_t u;
        memcpy(&u, &f, 4);
        put_le(data + 4 * i, u, 4);
    }
    char hdr[200];
    snprintf(hdr, sizeof hdr,
             "{\"model.decoder.embed_positions.weight\":{\"dtype\":\"F32\",\"shape\":[300,100],"
             "\"data_offsets\":[0,%zu]}}",
             4 * n);
    blob b = make(hdr, data, 4 * n);
    posenc_learned *t = NULL;
    posenc_load_error e;
    CHECK_EQ_INT(load_blob(b, "model.decoder.embed_positions.weight", &t, &e), POSENC_OK);
    double row[100];
    int bad = 0;
    for (int p = 0; p < 300 && t; p++) {
        CHECK(posenc_learned_row_f64(t, p, row) == POSENC_OK);
        for (int c = 0; c < 100; c++)
            bad += row[c] != (double)((float)(p * 100 + c) * 0.5f - 7.25f);
    }
    CHECK_EQ_INT(bad, 0);
    /* OPT indexes its table with an offset of 2: the caller adds it */
    if (t) {
        CHECK(posenc_learned_row_f64(t, 0 + 2, row) == POSENC_OK);
        CHECK(row[0] == 200 * 0.5 - 7.25);
    }
    posenc_learned_free(t);
    free(b.p);
    free(data);
}

/* Names with escapes and non-ASCII letters match their UTF-8 spelling. */
TEST(names_are_compared_after_decoding)
{
    unsigned char data[4] = {0, 0, 0x80, 0x3F}; /* 1.0f */
    blob b = make("{\"pos\\u002e\\u00e9\\ud83d\\ude00\\\"\\\\\\/\\b\\f\\n\\r\\t\":{\"dtype\":"
                  "\"F32\",\"shape\":[1,1],\"data_offsets\":[0,4]},\"\xc3\xa9t\xc3\xa9\":"
                  "{\"dtype\":\"U8\",\"shape\":[],\"data_offsets\":[4,5]}}",
                  "\0\0\x80\x3f\x01", 5);
    (void)data;
    posenc_learned *t = NULL;
    posenc_load_error e;
    CHECK_EQ_INT(read_blob(b, "pos.\xc3\xa9\xf0\x9f\x98\x80\"\\/\b\f\n\r\t", &t, &e), POSENC_OK);
    double r;
    if (t) {
        CHECK(posenc_learned_row_f64(t, 0, &r) == POSENC_OK);
        CHECK(r == 1.0);
    }
    posenc_learned_free(t);
    /* the U8 scalar is a valid tensor, but not a table */
    t = NULL;
    CHECK_EQ_INT(read_blob(b, "\xc3\xa9t\xc3\xa9", &t, &e), POSENC_ERR_RANGE);
    CHECK(t == NULL);
    CHECK(strstr(e.detail, "is U8") != NULL);
    free(b.p);
}

/* ---- refusals ---------------------------------------------------------------------- */

typedef struct bad_case {
    const char *header;
    size_t n_data;         /* zero bytes of data after the header */
    const char *name;
    posenc_status want;
    const char *detail;    /* a piece of the message */
} bad_case;

#define T1 "\"t\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8]}"

static const bad_case BAD[] = {
    /* the tensor asked for */
    {"{" T1 "}", 8, "wpe.weight", POSENC_ERR_RANGE, "no tensor 'wpe.weight' in the file (it has 1)"},
    {"{" T1 "}", 8, "T", POSENC_ERR_RANGE, "no tensor 'T'"}, /* case-sensitive */
    {"{\"t\":{\"dtype\":\"I64\",\"shape\":[1,2],\"data_offsets\":[0,16]}}", 16, "t",
     POSENC_ERR_RANGE, "tensor 't' is I64: a table must be F64, F32, F16 or BF16"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8, "t",
     POSENC_ERR_RANGE, "tensor 't' has 1 dimensions"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,1,2],\"data_offsets\":[0,8]}}", 8, "t",
     POSENC_ERR_RANGE, "has 3 dimensions"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[0,2],\"data_offsets\":[0,0]}}", 0, "t",
     POSENC_ERR_RANGE, "has shape [0, 2]"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[2,0],\"data_offsets\":[0,0]}}", 0, "t",
     POSENC_ERR_RANGE, "has shape [2, 0]"},
    {"{}", 0, "t", POSENC_ERR_RANGE, "no tensor 't' in the file (it has 0)"},
    /* the header's JSON */
    {" {" T1 "}", 8, "t", POSENC_ERR_FORMAT, "header byte 0: the header must begin with '{'"},
    {"[" T1 "]", 8, "t", POSENC_ERR_FORMAT, "must begin with '{'"},
    {"{" T1 "} x", 8, "t", POSENC_ERR_FORMAT, "text after the header's closing '}'"},
    {"{" T1 "}\n\t\r ", 8, "t", POSENC_OK, ""}, /* trailing white space is padding */
    {"{" T1, 8, "t", POSENC_ERR_FORMAT, "expected ',' or '}'"},
    {"{" T1 ",}", 8, "t", POSENC_ERR_FORMAT, "expected a string"},
    {"{\"t\" {}}", 0, "t", POSENC_ERR_FORMAT, "expected ':' after a key"},
    {"{\"t\":[]}", 0, "t", POSENC_ERR_FORMAT, "expected '{' to open a tensor's description"},
    {"{\"t\":{}}", 0, "t", POSENC_ERR_FORMAT, "tensor 't': dtype, shape and data_offsets are missing"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2]}}", 0, "t", POSENC_ERR_FORMAT, "tensor 't': data_offsets is missing"},
    {"{\"t\":{\"dtype\":\"F32\",\"data_offsets\":[0,8]}}", 8, "t", POSENC_ERR_FORMAT, "tensor 't': shape is missing"},
    {"{\"t\":{\"shape\":[1,2],\"data_offsets\":[0,8]}}", 8, "t", POSENC_ERR_FORMAT, "tensor 't': dtype is missing"},
    {"{\"t\":{\"dtype\":\"F32\",\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8]}}", 8,
     "t", POSENC_ERR_FORMAT, "tensor 't': duplicate key 'dtype'"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8],\"extra\":1}}", 8, "t",
     POSENC_ERR_FORMAT, "tensor 't': unknown key 'extra'"},
    {"{\"t\":{\"dtype\":\"F12\",\"shape\":[1,2],\"data_offsets\":[0,8]}}", 8, "t",
     POSENC_ERR_FORMAT, "tensor 't': unknown dtype 'F12'"},
    {"{\"t\":{\"dtype\":32,\"shape\":[1,2],\"data_offsets\":[0,8]}}", 8, "t", POSENC_ERR_FORMAT,
     "expected a string"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8,9]}}", 8, "t",
     POSENC_ERR_FORMAT, "too many numbers"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[8]}}", 8, "t",
     POSENC_ERR_FORMAT, "data_offsets needs two numbers"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":1,\"data_offsets\":[0,8]}}", 8, "t",
     POSENC_ERR_FORMAT, "expected '[' to open a shape"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":{}}}", 8, "t",
     POSENC_ERR_FORMAT, "expected '[' to open data_offsets"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1 2],\"data_offsets\":[0,8]}}", 8, "t",
     POSENC_ERR_FORMAT, "expected ',' or ']'"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,-2],\"data_offsets\":[0,8]}}", 8, "t",
     POSENC_ERR_FORMAT, "negative number"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2.0],\"data_offsets\":[0,8]}}", 8, "t",
     POSENC_ERR_FORMAT, "fraction or exponent"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2e0],\"data_offsets\":[0,8]}}", 8, "t",
     POSENC_ERR_FORMAT, "fraction or exponent"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[01,2],\"data_offsets\":[0,8]}}", 8, "t",
     POSENC_ERR_FORMAT, "leading zero"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,x],\"data_offsets\":[0,8]}}", 8, "t",
     POSENC_ERR_FORMAT, "expected a non-negative integer"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,18446744073709551616],\"data_offsets\":[0,8]}}", 8,
     "t", POSENC_ERR_FORMAT, "does not fit in 64 bits"},
    /* strings */
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8]}", 8, "t",
     POSENC_ERR_FORMAT, "expected ',' or '}'"},
    {"{\"t", 0, "t", POSENC_ERR_FORMAT, "unterminated string"},
    {"{\"t\\", 0, "t", POSENC_ERR_FORMAT, "unterminated string"},
    {"{\"t\x01\":{}}", 0, "t", POSENC_ERR_FORMAT, "control character in a string"},
    {"{\"t\\x\":{}}", 0, "t", POSENC_ERR_FORMAT, "bad escape in a string"},
    {"{\"t\\u12\":{}}", 0, "t", POSENC_ERR_FORMAT, "bad \\u escape"},
    {"{\"t\\u12G4\":{}}", 0, "t", POSENC_ERR_FORMAT, "bad \\u escape"},
    {"{\"t\\udc00\":{}}", 0, "t", POSENC_ERR_FORMAT, "lone low surrogate"},
    {"{\"t\\ud800x\":{}}", 0, "t", POSENC_ERR_FORMAT, "high surrogate without its low half"},
    {"{\"t\\ud800\\u0041\":{}}", 0, "t", POSENC_ERR_FORMAT, "high surrogate without"},
    {"{\"t\xff\":{}}", 0, "t", POSENC_ERR_FORMAT, "not UTF-8"},
    {"{\"t\xc0\xaf\":{}}", 0, "t", POSENC_ERR_FORMAT, "not UTF-8"},         /* overlong */
    {"{\"t\xed\xa0\x80\":{}}", 0, "t", POSENC_ERR_FORMAT, "not UTF-8"},     /* a surrogate */
    {"{\"t\xf4\x90\x80\x80\":{}}", 0, "t", POSENC_ERR_FORMAT, "not UTF-8"}, /* > U+10FFFF */
    {"{\"t\xe2\x82\":{}}", 0, "t", POSENC_ERR_FORMAT, "not UTF-8"},         /* cut short */
    {"{\"t\xe2\x28\xa1\":{}}", 0, "t", POSENC_ERR_FORMAT, "not UTF-8"},     /* bad continuation */
    {"{\"t\\u00C9\":{}}", 0, "t", POSENC_ERR_FORMAT, "tensor 't\xc3\x89': dtype, shape"},
    {"{\"t\\u20ac\":{}}", 0, "t", POSENC_ERR_FORMAT, "tensor 't\xe2\x82\xac': dtype, shape"},
    {"{\"t\":{1:2}}", 0, "t", POSENC_ERR_FORMAT, "expected a string"},
    {"{\"t\":{\"dtype\" \"F32\"}}", 0, "t", POSENC_ERR_FORMAT, "expected ':' after a key"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2", 0, "t", POSENC_ERR_FORMAT, "expected ',' or ']'"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[0,4]}}", 4, "t",
     POSENC_ERR_RANGE, "tensor 't' has 0 dimensions"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8]}x}", 8, "t",
     POSENC_ERR_FORMAT, "expected ',' or '}'"},
    /* more of the string and number syntax */
    {"{\"t\\u12g4\":{}}", 0, "t", POSENC_ERR_FORMAT, "bad \\u escape"},
    {"{\"t\\u12", 0, "t", POSENC_ERR_FORMAT, "bad \\u escape"},
    {"{\"t\xe2", 0, "t", POSENC_ERR_FORMAT, "not UTF-8"},              /* cut at the end */
    {"{\"t\xe0\x80\xaf\":{}}", 0, "t", POSENC_ERR_FORMAT, "not UTF-8"}, /* overlong, 3 bytes */
    {"{\"t\\ud800", 0, "t", POSENC_ERR_FORMAT, "high surrogate without its low half"},
    {"{\"t\\ud800\\x0041\":{}}", 0, "t", POSENC_ERR_FORMAT, "high surrogate without"},
    {"{\"t\\ud800\\uzz41\":{}}", 0, "t", POSENC_ERR_FORMAT, "high surrogate without"},
    {"{\"t\\ud800\\ue000\":{}}", 0, "t", POSENC_ERR_FORMAT, "high surrogate without"},
    /* U+E000, just past the surrogates: a letter like any other */
    {"{\"t\xee\x80\x80\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8]}}", 8,
     "t\xee\x80\x80", POSENC_OK, ""},
    {"{\"t\\ue000\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8]}}", 8,
     "t\xee\x80\x80", POSENC_OK, ""},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,\"2\"],\"data_offsets\":[0,8]}}", 8, "t",
     POSENC_ERR_FORMAT, "expected a non-negative integer"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2E0],\"data_offsets\":[0,8]}}", 8, "t",
     POSENC_ERR_FORMAT, "fraction or exponent"},
    {"{\"t\":{\"dtype\":\"F32\" \"shape\":[1,2],\"data_offsets\":[0,8]}}", 8, "t",
     POSENC_ERR_FORMAT, "header byte 20: expected ',' or '}'"},
    {"{\"__metadata__\":{\"a\":\"1\",\"b\":\"2\"}," T1 "}", 8, "t", POSENC_OK, ""},
    /* duplicates and metadata */
    {"{\"__metadata__\":{1:\"a\"}}", 0, "t", POSENC_ERR_FORMAT, "expected a string"},
    {"{\"__metadata__\":{\"a\":\"b\" \"c\":\"d\"}}", 0, "t", POSENC_ERR_FORMAT,
     "expected ',' or '}'"},
    {"{\"__metadata__\":{\"a\":\"b\x01\"}}", 0, "t", POSENC_ERR_FORMAT,
     "control character in a string"},
    {"{\"__metadata__\":{}x}", 0, "t", POSENC_ERR_FORMAT, "expected ',' or '}'"},
    /* empty tensors may share an offset */
    {"{\"a\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]},\"b\":{\"dtype\":\"I8\","
     "\"shape\":[2,0],\"data_offsets\":[0,0]}," T1 "}", 8, "t", POSENC_OK, ""},
    {"{" T1 "," T1 "}", 8, "t", POSENC_ERR_FORMAT, "duplicate tensor 't'"},
    {"{" T1 ",\"\\u0074\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[8,8]}}", 8, "t",
     POSENC_ERR_FORMAT, "duplicate tensor 't'"},
    {"{\"__metadata__\":{},\"__metadata__\":{}," T1 "}", 8, "t", POSENC_ERR_FORMAT,
     "duplicate key '__metadata__'"},
    {"{\"__metadata__\":{\"a\":\"1\",\"b\":\"2\",\"a\":\"3\"}," T1 "}", 8, "t",
     POSENC_ERR_FORMAT, "__metadata__: duplicate key 'a'"},
    {"{\"__metadata__\":{\"a\":1}," T1 "}", 8, "t", POSENC_ERR_FORMAT,
     "__metadata__ values must be strings"},
    {"{\"__metadata__\":[]," T1 "}", 8, "t", POSENC_ERR_FORMAT,
     "__metadata__ must be an object of strings"},
    {"{\"__metadata__\":{\"a\" \"b\"}}", 0, "t", POSENC_ERR_FORMAT, "expected ':' after a key"},
    /* sizes and offsets */
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,7]}}", 7, "t",
     POSENC_ERR_FORMAT, "data_offsets [0, 7] do not hold the 8 bytes"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[8,0]}}", 8, "t",
     POSENC_ERR_FORMAT, "data_offsets [8, 0]"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,8]}}", 8,
     "t", POSENC_ERR_FORMAT, "element count overflows"},
    {"{\"t\":{\"dtype\":\"F64\",\"shape\":[4294967296,536870912],\"data_offsets\":[0,8]}}", 8,
     "t", POSENC_ERR_FORMAT, "byte size overflows"},
    {"{\"t\":{\"dtype\":\"F4\",\"shape\":[3],\"data_offsets\":[0,2]}}", 2, "t",
     POSENC_ERR_FORMAT, "3 elements of F4 do not fill whole bytes"},
    {"{" T1 ",\"u\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", 8, "t",
     POSENC_ERR_FORMAT, "(overlap)"},
    {"{" T1 ",\"u\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[12,16]}}", 16, "t",
     POSENC_ERR_FORMAT, "(gap)"},
    {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[4,12]}}", 12, "t",
     POSENC_ERR_FORMAT, "begins at data byte 4 where the previous tensor ends at 0 (gap)"},
    {"{" T1 "}", 4, "t", POSENC_ERR_FORMAT, "data_offsets end at 8, past the end of the data (4 bytes)"},
    {"{" T1 "}", 9, "t", POSENC_ERR_FORMAT, "the tensors end at data byte 8 but the file has 9 bytes"},
};

TEST(each_corruption_is_refused_with_its_reason)
{
    unsigned char zeros[32] = {0};
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        blob b = make(BAD[i].header, zeros, BAD[i].n_data);
        posenc_learned *t = (posenc_learned *)(uintptr_t)1;
        posenc_load_error e;
        posenc_status s = read_blob(b, BAD[i].name, &t, &e);
        int ok = s == BAD[i].want && strstr(e.detail, BAD[i].detail) != NULL && e.line == 0;
        if (s == POSENC_OK)
            posenc_learned_free(t);
        else
            ok = ok && t == (posenc_learned *)(uintptr_t)1; /* untouched */
        if (!ok)
            fprintf(stderr, "case %zu (%s): status %d, want %d; detail '%s', want '%s'\n", i,
                    BAD[i].header, (int)s, (int)BAD[i].want, e.detail, BAD[i].detail);
        CHECK(ok);
        free(b.p);
    }
}

TEST(the_length_prefix_is_checked)
{
    posenc_learned *t = NULL;
    posenc_load_error e;
    unsigned char raw[16] = {0};
    /* shorter than 8 bytes */
    blob b = {raw, 5};
    CHECK_EQ_INT(read_blob(b, "t", &t, &e), POSENC_ERR_FORMAT);
    CHECK(strstr(e.detail, "file of 5 bytes: too short") != NULL);
    /* length 0 */
    b.n = 16;
    CHECK_EQ_INT(read_blob(b, "t", &t, &e), POSENC_ERR_FORMAT);
    CHECK(strstr(e.detail, "header length 0 is outside 1 .. 100000000 bytes") != NULL);
    /* past the limit, and the largest 64-bit value */
    put_le(raw, 100000001u, 8);
    CHECK_EQ_INT(read_blob(b, "t", &t, &e), POSENC_ERR_FORMAT);
    CHECK(strstr(e.detail, "header length 100000001 is outside") != NULL);
    put_le(raw, UINT64_MAX, 8);
    CHECK_EQ_INT(read_blob(b, "t", &t, &e), POSENC_ERR_FORMAT);
    CHECK(strstr(e.detail, "header length 18446744073709551615") != NULL);
    /* past the end of the file */
    put_le(raw, 9, 8);
    CHECK_EQ_INT(read_blob(b, "t", &t, &e), POSENC_ERR_FORMAT);
    CHECK(strstr(e.detail, "header length 9 is past the end of the file (16 bytes)") != NULL);
    CHECK(t == NULL);
}

TEST(values_must_be_finite)
{
    unsigned char data[8];
    unsigned short h[4] = {0x3C00, 0x3C00, 0x3C00, 0x7C00}; /* row 1 column 1 is +inf */
    for (int i = 0; i < 4; i++)
        put_le(data + 2 * i, h[i], 2);
    blob b = make("{\"pe\":{\"dtype\":\"F16\",\"shape\":[2,2],\"data_offsets\":[0,8]}}", data, 8);
    posenc_learned *t = NULL;
    posenc_load_error e;
    CHECK_EQ_INT(read_blob(b, "pe", &t, &e), POSENC_ERR_FORMAT);
    CHECK(strstr(e.detail, "tensor 'pe': row 1 column 1 is not finite") != NULL);
    put_le(b.p + b.n - 2, 0x7E00, 2); /* NaN */
    CHECK_EQ_INT(read_blob(b, "pe", &t, &e), POSENC_ERR_FORMAT);
    put_le(b.p + b.n - 4, 0xFF80, 2); /* BF16 -inf read as F16 is a NaN too: row 1 col 0 */
    CHECK_EQ_INT(read_blob(b, "pe", &t, &e), POSENC_ERR_FORMAT);
    CHECK(strstr(e.detail, "row 1 column 0") != NULL);
    CHECK(t == NULL);
    free(b.p);
}

TEST(tables_past_the_limits)
{
    /* a row longer than POSENC_MAX_DIM: [1, 2^20 + 1] of U8-sized... F16 */
    size_t cols = POSENC_MAX_DIM + 1u;
    unsigned char *data = calloc(2 * cols, 1);
    CHECK(data != NULL);
    if (!data)
        return;
    char hdr[160];
    snprintf(hdr, sizeof hdr,
             "{\"w\":{\"dtype\":\"F16\",\"shape\":[1,%zu],\"data_offsets\":[0,%zu]}}", cols,
             2 * cols);
    blob b = make(hdr, data, 2 * cols);
    posenc_learned *t = NULL;
    posenc_load_error e;
    CHECK_EQ_INT(read_blob(b, "w", &t, &e), POSENC_ERR_DIM);
    CHECK(strstr(e.detail, "rows of 1048577 numbers") != NULL);
    free(b.p);
    free(data);
    /* more than POSENC_LEARNED_MAX_ELEMS elements: a sparse file of 2^27 + 2^10 F16 */
    uint64_t rows = POSENC_LEARNED_MAX_ELEMS / 1024 + 1;
    snprintf(hdr, sizeof hdr,
             "{\"w\":{\"dtype\":\"F16\",\"shape\":[%llu,1024],\"data_offsets\":[0,%llu]}}",
             (unsigned long long)rows, (unsigned long long)(rows * 2048));
    b = make(hdr, NULL, 0);
    char path[] = "/tmp/posenc-st-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    CHECK(write(fd, b.p, b.n) == (ssize_t)b.n);
    CHECK(ftruncate(fd, (off_t)(b.n + rows * 2048)) == 0);
    close(fd);
    CHECK_EQ_INT(posenc_learned_load_safetensors(path, "w", &t, &e), POSENC_ERR_OVERFLOW);
    CHECK(strstr(e.detail, "table larger than 134217728 numbers") != NULL);
    unlink(path);
    free(b.p);
}

TEST(arguments_and_files)
{
    posenc_learned *t = NULL;
    posenc_load_error e;
    FILE *f = fmemopen((void *)"x", 1, "r");
    CHECK(f != NULL);
    CHECK_EQ_INT(posenc_learned_read_safetensors(NULL, "t", &t, &e), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_learned_read_safetensors(f, NULL, &t, &e), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_learned_read_safetensors(f, "t", NULL, &e), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_learned_read_safetensors(f, "t", &t, NULL), POSENC_ERR_FORMAT);
    fclose(f);
    CHECK_EQ_INT(posenc_learned_load_safetensors(NULL, "t", &t, &e), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_learned_load_safetensors("x", NULL, &t, &e), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_learned_load_safetensors("x", "t", NULL, &e), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_learned_load_safetensors("/nonexistent/posenc.safetensors", "t", &t, &e),
                 POSENC_ERR_IO);
    CHECK(strstr(e.detail, "No such file") != NULL);
    /* a directory opens but cannot be read */
    CHECK_EQ_INT(posenc_learned_load_safetensors("/", "t", &t, &e), POSENC_ERR_IO);
    /* a pipe cannot seek */
    int fds[2];
    CHECK(pipe(fds) == 0);
    FILE *p = fdopen(fds[0], "r");
    CHECK(p != NULL);
    CHECK(write(fds[1], "12345678", 8) == 8);
    close(fds[1]);
    CHECK_EQ_INT(posenc_learned_read_safetensors(p, "t", &t, &e), POSENC_ERR_IO);
    CHECK(strstr(e.detail, "cannot seek") != NULL);
    fclose(p);
    CHECK(t == NULL);
}

/* Out of memory: a header of 2 MiB (spaces after the object) and a table of
 * 8 MiB of doubles, each past the capped child's 1 MiB. */
static int header_without_memory(void *arg)
{
    blob *b = arg;
    posenc_learned *t = NULL;
    posenc_load_error e;
    return read_blob(b[0], "t", &t, &e) == POSENC_ERR_NOMEM &&
           strstr(e.detail, "out of memory for a header") != NULL &&
           read_blob(b[1], "w", &t, &e) == POSENC_ERR_NOMEM &&
           strstr(e.detail, "out of memory for tensor 'w'") != NULL && t == NULL;
}

TEST(memory_runs_out_cleanly)
{
    size_t pad = 2u << 20;
    char *hdr = malloc(pad + 100);
    CHECK(hdr != NULL);
    if (!hdr)
        return;
    strcpy(hdr, "{" T1 "}");
    size_t len = strlen(hdr);
    memset(hdr + len, ' ', pad);
    hdr[len + pad] = '\0';
    unsigned char zeros[8] = {0};
    blob b[2];
    b[0] = make(hdr, zeros, 8);
    free(hdr);
    unsigned char *data = calloc(2u << 20, 1);
    CHECK(data != NULL);
    b[1] = make("{\"w\":{\"dtype\":\"F16\",\"shape\":[1024,1024],\"data_offsets\":[0,2097152]}}",
                data, 2u << 20);
    free(data);
    CHECK_CAPPED(header_without_memory, b);
    /* with memory, both read */
    posenc_learned *t = NULL;
    posenc_load_error e;
    CHECK_EQ_INT(read_blob(b[0], "t", &t, &e), POSENC_OK);
    posenc_learned_free(t);
    t = NULL;
    CHECK_EQ_INT(read_blob(b[1], "w", &t, &e), POSENC_OK);
    CHECK_EQ_INT(posenc_learned_n_pos(t), 1024);
    posenc_learned_free(t);
    free(b[0].p);
    free(b[1].p);
}

/* fuzz_safetensors, its first seed: a file with one tensor and no
 * __metadata__ made the reader call qsort on a NULL array of 0 metadata keys
 * (undefined behaviour, caught by UBSan). Now qsort sees only two or more. */
TEST(safetensors_without_metadata_sorts_nothing)
{
    static const char hdr[] = "{\"t\":{\"dtype\":\"F32\",\"shape\":[2,2],"
                              "\"data_offsets\":[0,16]}}";
    unsigned char file[8 + sizeof hdr - 1 + 16] = {sizeof hdr - 1};
    memcpy(file + 8, hdr, sizeof hdr - 1);
    static const unsigned char data[16] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0,
                                           0, 0, 0, 0x3f, 0, 0, 0x40, 0x40};
    memcpy(file + 8 + sizeof hdr - 1, data, 16);
    FILE *f = fmemopen(file, sizeof file, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    posenc_learned *t = NULL;
    posenc_load_error e;
    CHECK_EQ_INT(posenc_learned_read_safetensors(f, "t", &t, &e), POSENC_OK);
    fclose(f);
    double row[2];
    CHECK(t && posenc_learned_row_f64(t, 1, row) == POSENC_OK && row[0] == 0.5 && row[1] == 3.0);
    posenc_learned_free(t);
}

/* ---- messages quote at most 80 bytes of a name -------------------------------------- */

/* Each refusal that quotes a tensor's name (or a key, or a dtype) cuts a
 * 100-byte one at 80 bytes and adds "...". */
TEST(long_names_are_cut_in_messages)
{
    char N[101], cut[90], hdr[1024];
    for (int i = 0; i < 100; i++)
        N[i] = (char)('a' + i % 26);
    N[100] = 0;
    snprintf(cut, sizeof cut, "'%.80s...'", N);
    static const struct {
        const char *fmt; /* %1$s: the long name (printf's positional form is POSIX) */
        size_t n_data;
        posenc_status want;
        const char *detail;
    } C[] = {
        {"{\"%1$s\":{}}", 0, POSENC_ERR_FORMAT, ": dtype, shape and data_offsets are missing"},
        {"{\"t\":{\"%1$s\":1}}", 0, POSENC_ERR_FORMAT, " (a tensor has dtype"},
        {"{\"%1$s\":{\"dtype\":\"F32\",\"dtype\":\"F32\"}}", 0, POSENC_ERR_FORMAT,
         ": duplicate key 'dtype'"},
        {"{\"t\":{\"dtype\":\"%1$s\"}}", 0, POSENC_ERR_FORMAT, ""},
        {"{\"%1$s\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[8]}}", 0,
         POSENC_ERR_FORMAT, ": data_offsets needs two numbers"},
        {"{\"%1$s\":{\"dtype\":\"F32\",\"shape\":[1,2]}}", 0, POSENC_ERR_FORMAT,
         ": data_offsets is missing"},
        {"{\"%1$s\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,8]}}",
         8, POSENC_ERR_FORMAT, ": the shape's element count overflows"},
        {"{\"%1$s\":{\"dtype\":\"F64\",\"shape\":[4294967296,536870912],\"data_offsets\":[0,8]}}",
         8, POSENC_ERR_FORMAT, ": the byte size overflows"},
        {"{\"%1$s\":{\"dtype\":\"F4\",\"shape\":[3],\"data_offsets\":[0,2]}}", 2,
         POSENC_ERR_FORMAT, ": 3 elements of F4 do not fill whole bytes"},
        {"{\"%1$s\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,7]}}", 7,
         POSENC_ERR_FORMAT, ": data_offsets [0, 7] do not hold the 8 bytes"},
        {"{\"__metadata__\":{\"%1$s\":\"1\",\"%1$s\":\"2\"}}", 0, POSENC_ERR_FORMAT, ""},
        {"{\"%1$s\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]},"
         "\"%1$s\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}}",
         0, POSENC_ERR_FORMAT, ""},
        {"{\"%1$s\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[4,12]}}", 12,
         POSENC_ERR_FORMAT, ": begins at data byte 4 where the previous tensor ends at 0 (gap)"},
        {"{\"%1$s\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8]}}", 4,
         POSENC_ERR_FORMAT, ": data_offsets end at 8, past the end of the data (4 bytes)"},
        {"{\"%1$s\":{\"dtype\":\"I32\",\"shape\":[1,2],\"data_offsets\":[0,8]}}", 8,
         POSENC_ERR_RANGE, " is I32: a table must be"},
        {"{\"%1$s\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8,
         POSENC_ERR_RANGE, " has 1 dimensions"},
        {"{\"%1$s\":{\"dtype\":\"F32\",\"shape\":[2,0],\"data_offsets\":[0,0]}}", 0,
         POSENC_ERR_RANGE, " has shape [2, 0]"},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8]}}", 8, POSENC_ERR_RANGE,
         " in the file (it has 1)"},
    };
    unsigned char zeros[16] = {0};
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        snprintf(hdr, sizeof hdr, C[i].fmt, N);
        blob b = make(hdr, zeros, C[i].n_data);
        posenc_learned *t = NULL;
        posenc_load_error e;
        posenc_status s = read_blob(b, N, &t, &e);
        char want[200];
        snprintf(want, sizeof want, "%s%s", cut, C[i].detail);
        int ok = s == C[i].want && strstr(e.detail, want) != NULL && t == NULL;
        if (!ok)
            fprintf(stderr, "long case %zu: status %d, detail '%s'\n", i, (int)s, e.detail);
        CHECK(ok);
        free(b.p);
    }
    /* the non-finite value's message too */
    unsigned char data[4] = {0x00, 0x3C, 0x00, 0x7C}; /* 1, +inf */
    snprintf(hdr, sizeof hdr, "{\"%s\":{\"dtype\":\"F16\",\"shape\":[1,2],\"data_offsets\":[0,4]}}",
             N);
    blob b = make(hdr, data, 4);
    posenc_learned *t = NULL;
    posenc_load_error e;
    CHECK_EQ_INT(read_blob(b, N, &t, &e), POSENC_ERR_FORMAT);
    char want[200];
    snprintf(want, sizeof want, "tensor %s: row 0 column 1 is not finite", cut);
    CHECK(strstr(e.detail, want) != NULL);
    free(b.p);
}

/* Seventeen tensors and seventeen metadata keys: the index grows past its
 * first 16 entries; the table is found among them. */
TEST(many_tensors_and_metadata_keys)
{
    char hdr[4096];
    size_t n = (size_t)snprintf(hdr, sizeof hdr, "{\"__metadata__\":{");
    for (int i = 0; i < 17; i++)
        n += (size_t)snprintf(hdr + n, sizeof hdr - n, "%s\"k%d\":\"v%d\"", i ? "," : "", i, i);
    n += (size_t)snprintf(hdr + n, sizeof hdr - n, "}");
    for (int i = 0; i < 17; i++)
        n += (size_t)snprintf(hdr + n, sizeof hdr - n,
                              ",\"e%d\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}", i);
    snprintf(hdr + n, sizeof hdr - n, "," T1 "}");
    unsigned char data[8] = {0, 0, 0x80, 0x3F, 0, 0, 0, 0x40}; /* 1.0f, 2.0f */
    blob b = make(hdr, data, 8);
    posenc_learned *t = NULL;
    posenc_load_error e;
    CHECK_EQ_INT(read_blob(b, "t", &t, &e), POSENC_OK);
    double row[2] = {0, 0};
    CHECK(t && posenc_learned_row_f64(t, 0, row) == POSENC_OK && row[0] == 1.0 && row[1] == 2.0);
    posenc_learned_free(t);
    t = NULL;
    CHECK_EQ_INT(read_blob(b, "e16", &t, &e), POSENC_ERR_RANGE);
    CHECK(strstr(e.detail, "has 1 dimensions") != NULL);
    CHECK_EQ_INT(read_blob(b, "e17", &t, &e), POSENC_ERR_RANGE);
    CHECK(strstr(e.detail, "no tensor 'e17' in the file (it has 18)") != NULL);
    free(b.p);
}

/* A backslash followed by a NUL byte (strchr would find the terminator). */
TEST(a_nul_after_a_backslash_is_a_bad_escape)
{
    static const char hdr[] = "{\"t\\\0\":{}}";
    blob b = make("", NULL, 0);
    free(b.p);
    size_t h = sizeof hdr - 1;
    b.n = 8 + h;
    b.p = malloc(b.n);
    CHECK(b.p != NULL);
    if (!b.p)
        return;
    put_le(b.p, h, 8);
    memcpy(b.p + 8, hdr, h);
    posenc_learned *t = NULL;
    posenc_load_error e;
    CHECK_EQ_INT(read_blob(b, "t", &t, &e), POSENC_ERR_FORMAT);
    CHECK(strstr(e.detail, "header byte 3: bad escape in a string") != NULL);
    free(b.p);
}

/* A stream whose seeks or reads fail on demand (glibc's fopencookie): the
 * errors the reader reports for a file that fails under it. */
typedef struct flaky {
    blob b;
    off_t at;
    int seeks_ok;  /* seeks that succeed before one fails (-1: all) */
    size_t read_limit; /* bytes that can be read in all */
    size_t got;
    int tell_fails;
} flaky;

static ssize_t flaky_read(void *c, char *buf, size_t n)
{
    flaky *f = c;
    if (f->got >= f->read_limit)
        return -1;
    if (n > f->read_limit - f->got)
        n = f->read_limit - f->got;
    if ((size_t)f->at >= f->b.n)
        return 0;
    if (n > f->b.n - (size_t)f->at)
        n = f->b.n - (size_t)f->at;
    memcpy(buf, f->b.p + f->at, n);
    f->at += (off_t)n;
    f->got += n;
    return (ssize_t)n;
}

static int flaky_seek(void *c, off64_t *off, int whence)
{
    flaky *f = c;
    if (f->seeks_ok == 0)
        return -1;
    if (f->seeks_ok > 0)
        f->seeks_ok--;
    off_t to = whence == SEEK_SET ? *off : whence == SEEK_CUR ? f->at + *off : (off_t)f->b.n + *off;
    f->at = to;
    *off = f->tell_fails ? -1 : to;
    return 0;
}

static posenc_status read_flaky(flaky *f, posenc_load_error *e)
{
    cookie_io_functions_t io = {flaky_read, NULL, flaky_seek, NULL};
    FILE *in = fopencookie(f, "r", io);
    if (!in)
        abort();
    posenc_learned *t = NULL;
    posenc_status s = posenc_learned_read_safetensors(in, "t", &t, e);
    fclose(in);
    posenc_learned_free(t);
    return s;
}

TEST(seek_and_read_errors_are_reported)
{
    unsigned char data[8] = {0};
    blob b = make("{" T1 "}", data, 8);
    posenc_load_error e;
    /* all well: the stream itself works */
    flaky f = {b, 0, -1, (size_t)-1, 0, 0};
    CHECK_EQ_INT(read_flaky(&f, &e), POSENC_OK);
    /* the size: the seek to the end, the position (ftello asks the stream),
     * the seek back */
    for (int k = 0; k < 3; k++) {
        flaky g = {b, 0, k, (size_t)-1, 0, 0};
        CHECK_EQ_INT(read_flaky(&g, &e), POSENC_ERR_IO);
        CHECK(strstr(e.detail, "cannot seek in the file") != NULL);
    }
    flaky tell = {b, 0, -1, (size_t)-1, 0, 1};
    CHECK_EQ_INT(read_flaky(&tell, &e), POSENC_ERR_IO);
    CHECK(strstr(e.detail, "cannot seek in the file") != NULL);
    /* the length, then the header, cut short by a read error */
    flaky len = {b, 0, -1, 4, 0, 0};
    CHECK_EQ_INT(read_flaky(&len, &e), POSENC_ERR_IO);
    CHECK(strstr(e.detail, "read error in the header length") != NULL);
    flaky head = {b, 0, -1, 8 + 10, 0, 0};
    CHECK_EQ_INT(read_flaky(&head, &e), POSENC_ERR_IO);
    CHECK(strstr(e.detail, "read error in the header") != NULL);
    /* the seek to the table's data, and its read */
    flaky seek = {b, 0, 3, (size_t)-1, 0, 0};
    CHECK_EQ_INT(read_flaky(&seek, &e), POSENC_ERR_IO);
    CHECK(strstr(e.detail, "cannot seek to tensor 't'") != NULL);
    flaky data_read = {b, 0, -1, b.n - 4, 0, 0};
    CHECK_EQ_INT(read_flaky(&data_read, &e), POSENC_ERR_IO);
    CHECK(strstr(e.detail, "tensor 't': read error or early end of file") != NULL);
    free(b.p);
}

/* Each allocation in turn fails (the header's text and its decoded strings,
 * the index as it grows past 16 tensors and 16 metadata keys, the table and
 * its handle): POSENC_ERR_NOMEM and "out of memory", with and without err. */
TEST(each_allocation_can_fail)
{
    char hdr[4096];
    size_t n = (size_t)snprintf(hdr, sizeof hdr, "{\"__metadata__\":{");
    for (int i = 0; i < 17; i++)
        n += (size_t)snprintf(hdr + n, sizeof hdr - n, "%s\"k%d\":\"v%d\"", i ? "," : "", i, i);
    n += (size_t)snprintf(hdr + n, sizeof hdr - n, "}");
    for (int i = 0; i < 17; i++)
        n += (size_t)snprintf(hdr + n, sizeof hdr - n,
                              ",\"e%d\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}", i);
    snprintf(hdr + n, sizeof hdr - n, "," T1 "}");
    unsigned char data[8] = {0, 0, 0x80, 0x3F, 0, 0, 0, 0x40};
    blob b = make(hdr, data, 8);
    for (int with_err = 0; with_err <= 1; with_err++) {
        long fails = 0;
        for (long k = 0; k < 100; k++) {
            posenc_learned *t = NULL;
            posenc_load_error e;
            alloc_failed = 0;
            alloc_countdown = k;
            posenc_status s = read_blob(b, "t", &t, with_err ? &e : NULL);
            alloc_countdown = -1;
            if (!alloc_failed) {
                CHECK_EQ_INT(s, POSENC_OK);
                double row[2] = {0, 0};
                CHECK(t && posenc_learned_row_f64(t, 0, row) == POSENC_OK && row[1] == 2.0);
                posenc_learned_free(t);
                break;
            }
            fails++;
            CHECK_EQ_INT(s, POSENC_ERR_NOMEM);
            CHECK(t == NULL);
            if (with_err)
                CHECK(strstr(e.detail, "out of memory") != NULL);
        }
        CHECK(fails >= 6); /* text, arena, index, metadata (twice each), table, handle */
    }
    free(b.p);
    /* posenc_learned_load_safetensors without err: the same refusals */
    posenc_learned *t = NULL;
    CHECK_EQ_INT(posenc_learned_load_safetensors("/nonexistent/x.safetensors", "t", &t, NULL),
                 POSENC_ERR_IO);
}

int main(void)
{
    capped_setup();
    RUN(memory_runs_out_cleanly);
    RUN(f32_table_after_another_tensor_with_metadata);
    RUN(f64_f16_bf16_values_convert_exactly);
    RUN(a_large_table_is_read_in_chunks);
    RUN(names_are_compared_after_decoding);
    RUN(each_corruption_is_refused_with_its_reason);
    RUN(the_length_prefix_is_checked);
    RUN(values_must_be_finite);
    RUN(tables_past_the_limits);
    RUN(arguments_and_files);
    RUN(safetensors_without_metadata_sorts_nothing);
    RUN(long_names_are_cut_in_messages);
    RUN(many_tensors_and_metadata_keys);
    RUN(a_nul_after_a_backslash_is_a_bad_escape);
    RUN(seek_and_read_errors_are_reported);
    RUN(each_allocation_can_fail);
    if (skipped_capped)
        fprintf(stderr, "test_safetensors: %d out-of-memory checks skipped (%s)\n",
                skipped_capped,
                UNDER_ASAN ? "AddressSanitizer maps memory of its own" : "no /proc/self/statm");
    return check_summary("safetensors");
}
