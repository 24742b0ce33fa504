/* schemes.c - posenc._schemes: the registry's non-rotary schemes for Python
 * (posenc/schemes.py): a sinusoid layer's vectors and a relative-bucket
 * layer's bucket ids from a config, as `posenc golden --config F --layer N`
 * writes them (cli/check/golden_tables.c). Its own module, like _check;
 * positions come in as a contiguous int64 buffer, results go out as bytes
 * that schemes.py views with NumPy. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "calls.h"

#include <stdlib.h>
#include <string.h>

/* layer_values(json_bytes, layer, positions_bytes) -> (kind, width, data):
 * kind "sinusoid" (data: float32 [n, width]) or "buckets" (int64 [n, n],
 * width n); positions: native int64. Raises ValueError with the reader's
 * or the library's sentence. */
/* A copy of the n = plen / 8 native int64 positions at pb, at most max
 * (else ValueError naming the count): never NULL on success (one element
 * when empty); NULL with the exception set. */
static int64_t *copy_positions(const char *pb, Py_ssize_t plen, size_t max, size_t *n)
{
    *n = (size_t)plen / sizeof(int64_t);
    if (*n > max) {
        PyErr_Format(PyExc_ValueError, "%zu positions: at most %zu", *n, max);
        return NULL;
    }
    int64_t *pos = malloc((*n ? *n : 1) * sizeof *pos);
    if (!pos)
        return (int64_t *)PyErr_NoMemory();
    if (*n)
        memcpy(pos, pb, *n * sizeof *pos);
    return pos;
}

static PyObject *layer_values(PyObject *self, PyObject *args)
{
    (void)self;
    const char *json, *pb;
    Py_ssize_t jlen, plen;
    long long layer;
    if (!PyArg_ParseTuple(args, "y#Ly#", &json, &jlen, &layer, &pb, &plen))
        return NULL;
    size_t n;
    int64_t *pos = copy_positions(pb, plen, 16384, &n);
    if (!pos)
        return NULL;
    int kind = 0;
    uint32_t width = 0;
    void *out = NULL;
    char detail[600];
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_scheme_values(json, (size_t)jlen, layer, pos, n, &kind, &width, &out, detail,
                                sizeof detail);
    Py_END_ALLOW_THREADS
    free(pos);
    if (st != 0) {
        PyErr_SetString(PyExc_ValueError, detail);
        return NULL;
    }
    size_t bytes = kind == 1 ? n * width * sizeof(float) : n * n * sizeof(int64_t);
    PyObject *b = PyBytes_FromStringAndSize(out ? (const char *)out : "", (Py_ssize_t)bytes);
    free(out);
    if (!b)
        return NULL;
    return Py_BuildValue("(sIN)", kind == 1 ? "sinusoid" : "buckets", width, b);
}

/* side_buckets(json_bytes, layer, n_tok, positions_bytes) -> (n_global, data):
 * LongT5's transient-global side buckets, int64 [n, n_global]. */
static PyObject *side_buckets(PyObject *self, PyObject *args)
{
    (void)self;
    const char *json, *pb;
    Py_ssize_t jlen, plen;
    long long layer, n_tok;
    if (!PyArg_ParseTuple(args, "y#LLy#", &json, &jlen, &layer, &n_tok, &pb, &plen))
        return NULL;
    size_t n;
    int64_t *pos = copy_positions(pb, plen, 16384, &n);
    if (!pos)
        return NULL;
    int64_t *out = NULL;
    size_t ng = 0;
    char detail[600];
    detail[0] = 0;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_side_buckets(json, (size_t)jlen, layer, n_tok, pos, n, &out, &ng, detail,
                               sizeof detail);
    Py_END_ALLOW_THREADS
    free(pos);
    if (st != 0) {
        PyErr_SetString(PyExc_ValueError, detail);
        return NULL;
    }
    PyObject *b = PyBytes_FromStringAndSize(out ? (const char *)out : "",
                                            (Py_ssize_t)(n * ng * sizeof(int64_t)));
    free(out);
    if (!b)
        return NULL;
    return Py_BuildValue("(nN)", (Py_ssize_t)ng, b);
}

/* learned_rows(json_bytes, layer, positions_bytes, columns_bytes, rows_bytes) ->
 * (ids_kind, width, data): data int64 [n, width] (pyposenc_learned_ids);
 * positions native int64, or columns and rows native uint32 (TAPAS's cells;
 * None otherwise). Raises ValueError with the reader's or the library's
 * sentence. */
static PyObject *learned_rows(PyObject *self, PyObject *args)
{
    (void)self;
    const char *json, *pb, *cb = NULL, *rb = NULL;
    Py_ssize_t jlen, plen, clen = 0, rlen = 0;
    long long layer;
    if (!PyArg_ParseTuple(args, "y#Ly#z#z#", &json, &jlen, &layer, &pb, &plen, &cb, &clen, &rb,
                          &rlen))
        return NULL;
    int cells = cb != NULL;
    size_t n = cells ? (size_t)clen / sizeof(uint32_t) : (size_t)plen / sizeof(int64_t);
    if (n > 65536) {
        PyErr_Format(PyExc_ValueError, "%zu tokens: at most 65536", n);
        return NULL;
    }
    if (cells && (!rb || (size_t)rlen != (size_t)clen)) {
        PyErr_SetString(PyExc_ValueError, "cells: as many rows as columns");
        return NULL;
    }
    void *buf = malloc((n ? n : 1) * (cells ? 2 * sizeof(uint32_t) : sizeof(int64_t)));
    if (!buf)
        return PyErr_NoMemory();
    if (n)
        memcpy(buf, cells ? cb : pb, n * (cells ? sizeof(uint32_t) : sizeof(int64_t)));
    if (cells && n)
        memcpy((uint32_t *)buf + n, rb, n * sizeof(uint32_t));
    int kind = 0;
    uint32_t width = 0;
    int64_t *out = NULL;
    char detail[600];
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_learned_ids(json, (size_t)jlen, layer, cells ? NULL : (const int64_t *)buf,
                               cells ? (const uint32_t *)buf : NULL,
                               cells ? (const uint32_t *)buf + n : NULL, n, &kind, &width, &out,
                               detail, sizeof detail);
    Py_END_ALLOW_THREADS
    free(buf);
    if (st != 0) {
        PyErr_SetString(PyExc_ValueError, detail);
        return NULL;
    }
    PyObject *b = PyBytes_FromStringAndSize(out ? (const char *)out : "",
                                            (Py_ssize_t)(n * width * sizeof(int64_t)));
    free(out);
    if (!b)
        return NULL;
    return Py_BuildValue("(iIN)", kind, width, b);
}

/* rel_sinusoid(json_bytes, layer, seq_len, distances_bytes or None) ->
 * (positions_bytes, width, pe_bytes): a relative-sinusoid layer's distances
 * (int64 [n]) and vectors (float32 [n, width]). Raises ValueError with the
 * reader's or the library's sentence. */
static PyObject *rel_sinusoid(PyObject *self, PyObject *args)
{
    (void)self;
    const char *json;
    Py_ssize_t jlen;
    long long layer, seq_len;
    PyObject *given;
    if (!PyArg_ParseTuple(args, "y#LLO", &json, &jlen, &layer, &seq_len, &given))
        return NULL;
    Py_buffer view = {0};
    int have = given != Py_None;
    if (have && PyObject_GetBuffer(given, &view, PyBUF_SIMPLE) != 0)
        return NULL;
    size_t ng = have ? (size_t)view.len / sizeof(int64_t) : 0;
    if (ng > 65536) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_ValueError, "%zu distances: at most 65536", ng);
        return NULL;
    }
    int64_t *g = have ? malloc((ng ? ng : 1) * sizeof *g) : NULL;
    if (have && !g) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    if (have && ng)
        memcpy(g, view.buf, ng * sizeof *g);
    if (have)
        PyBuffer_Release(&view);
    int64_t *pos = NULL;
    float *pe = NULL;
    size_t n = 0;
    uint32_t width = 0;
    char detail[600];
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_rel_sinusoid(json, (size_t)jlen, layer, seq_len, g, ng, &pos, &n, &pe, &width,
                               detail, sizeof detail);
    Py_END_ALLOW_THREADS
    free(g);
    if (st != 0) {
        PyErr_SetString(PyExc_ValueError, detail);
        return NULL;
    }
    PyObject *r = Py_BuildValue("(y#Iy#)", (const char *)pos, (Py_ssize_t)(n * sizeof *pos),
                                width, (const char *)pe,
                                (Py_ssize_t)(n * width * sizeof *pe));
    free(pos);
    free(pe);
    return r;
}

/* query_scale(json_bytes, layer, positions_bytes) -> bytes: float64 [n], the
 * factor on the layer's queries at each position (1: none). */
static PyObject *query_scale(PyObject *self, PyObject *args)
{
    (void)self;
    const char *json, *pb;
    Py_ssize_t jlen, plen;
    long long layer;
    if (!PyArg_ParseTuple(args, "y#Ly#", &json, &jlen, &layer, &pb, &plen))
        return NULL;
    size_t n;
    int64_t *pos = copy_positions(pb, plen, 16384, &n);
    if (!pos)
        return NULL;
    double *out = malloc((n ? n : 1) * sizeof *out);
    if (!out) {
        free(pos);
        return PyErr_NoMemory();
    }
    char detail[600];
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_query_scales(json, (size_t)jlen, layer, pos, n, out, detail, sizeof detail);
    Py_END_ALLOW_THREADS
    free(pos);
    if (st != 0) {
        free(out);
        PyErr_SetString(PyExc_ValueError, detail);
        return NULL;
    }
    PyObject *b = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)(n * sizeof *out));
    free(out);
    return b;
}

/* resampled_rows(json_bytes, layer, seq_len, positions_bytes) -> (rows, weight1):
 * int64 [2, n] (row0 then row1) and float32 [n]. */
static PyObject *resampled_rows(PyObject *self, PyObject *args)
{
    (void)self;
    const char *json, *pb;
    Py_ssize_t jlen, plen;
    long long layer, seq_len;
    if (!PyArg_ParseTuple(args, "y#LLy#", &json, &jlen, &layer, &seq_len, &pb, &plen))
        return NULL;
    size_t n;
    int64_t *pos = copy_positions(pb, plen, 65536, &n);
    if (!pos)
        return NULL;
    int64_t *rows = malloc((n ? 2 * n : 1) * sizeof *rows);
    float *w = malloc((n ? n : 1) * sizeof *w);
    if (!rows || !w) {
        free(pos);
        free(rows);
        free(w);
        return PyErr_NoMemory();
    }
    char detail[600];
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_resampled_rows(json, (size_t)jlen, layer, seq_len, pos, n, rows, w, detail,
                                 sizeof detail);
    Py_END_ALLOW_THREADS
    free(pos);
    PyObject *r = NULL;
    if (st != 0)
        PyErr_SetString(PyExc_ValueError, detail);
    else
        r = Py_BuildValue("(y#y#)", (const char *)rows, (Py_ssize_t)(2 * n * sizeof *rows),
                          (const char *)w, (Py_ssize_t)(n * sizeof *w));
    free(rows);
    free(w);
    return r;
}

/* prophetnet_predict(json_bytes, layer, positions_bytes) -> data: ProphetNet's
 * predicting streams' buckets, int64 [n, 2n]. */
static PyObject *prophetnet_predict(PyObject *self, PyObject *args)
{
    (void)self;
    const char *json, *pb;
    Py_ssize_t jlen, plen;
    long long layer;
    if (!PyArg_ParseTuple(args, "y#Ly#", &json, &jlen, &layer, &pb, &plen))
        return NULL;
    size_t n = (size_t)plen / sizeof(int64_t);
    if (n > 4096) {
        PyErr_Format(PyExc_ValueError, "%zu positions: at most 4096", n);
        return NULL;
    }
    int64_t *pos = n ? malloc(n * sizeof *pos) : NULL;
    if (n && !pos)
        return PyErr_NoMemory();
    if (n)
        memcpy(pos, pb, n * sizeof *pos);
    int64_t *out = NULL;
    char detail[600];
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_prophetnet_predict(json, (size_t)jlen, layer, pos, n, &out, detail,
                                     sizeof detail);
    Py_END_ALLOW_THREADS
    free(pos);
    if (st != 0) {
        PyErr_SetString(PyExc_ValueError, detail);
        return NULL;
    }
    PyObject *b = PyBytes_FromStringAndSize(out ? (const char *)out : "",
                                            (Py_ssize_t)(2 * n * n * sizeof(int64_t)));
    free(out);
    return b;
}

static PyMethodDef methods[] = {
    {"layer_values", layer_values, METH_VARARGS,
     "layer_values(json, layer, positions_int64) -> (kind, width, bytes)"},
    {"side_buckets", side_buckets, METH_VARARGS,
     "side_buckets(json, layer, n_tok, positions_int64) -> (n_global, bytes)"},
    {"learned_rows", learned_rows, METH_VARARGS,
     "learned_rows(json, layer, positions_int64, columns_u32, rows_u32) -> (kind, width, bytes)"},
    {"rel_sinusoid", rel_sinusoid, METH_VARARGS,
     "rel_sinusoid(json, layer, seq_len, distances_int64 or None) -> (positions, width, pe)"},
    {"prophetnet_predict", prophetnet_predict, METH_VARARGS,
     "prophetnet_predict(json, layer, positions_int64) -> bytes (int64 [n, 2n])"},
    {"query_scale", query_scale, METH_VARARGS,
     "query_scale(json, layer, positions_int64) -> float64 bytes"},
    {"resampled_rows", resampled_rows, METH_VARARGS,
     "resampled_rows(json, layer, seq_len, positions_int64) -> (rows, weight1)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "posenc._schemes",
                                    "A config's sinusoid tables and relative buckets.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__schemes(void)
{
    return PyModule_Create(&module);
}
