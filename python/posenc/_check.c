/* _check.c - the C extension module posenc._check: posenc_check_run
 * (include/posenc_check.h) for Python. The documented API is
 * posenc.check() and posenc.testing (posenc/_checking.py, posenc/testing.py),
 * which hand this module contiguous float32 and int64 arrays. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "posenc_check.h"
#include "posenc_model.h"
#ifdef POSENC_HAVE_JSON
#include "posenc_config.h"
#endif

/* run(x, y, positions, config_json, layer, seq_len, tol, dtype, tables)
 * x, y: float32 buffers, C-contiguous, [n_tok, n_head, head_dim] (or tables
 * [n_tok, table_dim] when tables is true); positions: int64 [n_tok];
 * config_json: bytes of a config.json; dtype 0 F32, 1 BF16, 2 F16.
 * Returns a dict (see posenc/_checking.py). */
static PyObject *run(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer bx, by, bp;
    const char *json;
    Py_ssize_t json_len;
    long long layer, seq_len; /* int64: checked here before any narrowing */
    double tol;
    int dtype, tables;
    if (!PyArg_ParseTuple(args, "y*y*y*y#LLdip", &bx, &by, &bp, &json, &json_len, &layer,
                          &seq_len, &tol, &dtype, &tables))
        return NULL;
    PyObject *ret = NULL;
    posenc_rope_config cfg;
    posenc_check_result *res = NULL;
    posenc_model *m = NULL; /* kept to the end: cfg's LongRoPE lists point into it */
#ifdef POSENC_HAVE_JSON
    res = malloc(sizeof *res);
    if (!res || posenc_model_create(&m) != POSENC_OK) {
        PyErr_NoMemory();
        goto out;
    }
    posenc_config_error err;
    memset(&err, 0, sizeof err);
    posenc_status s = posenc_model_from_config_text(json, (size_t)json_len, NULL, m, &err);
    if (s == POSENC_OK && (layer < 0 || layer >= (long long)posenc_model_n_layer(m))) {
        uint32_t nl = posenc_model_n_layer(m);
        PyErr_Format(PyExc_ValueError,
                     "posenc.check: layer %lld does not exist: the model has %u layers (0 to %u)",
                     layer, nl, nl - 1);
        goto out;
    }
    if (seq_len < 0 || seq_len > POSENC_MAX_POS + 1) {
        PyErr_Format(PyExc_ValueError, "posenc.check: seq_len must be 1 .. %lld, got %lld",
                     POSENC_MAX_POS + 1, seq_len);
        goto out;
    }
    posenc_layer_info li;
    if (s == POSENC_OK)
        s = posenc_model_layer(m, (uint32_t)layer, &li);
    if (s != POSENC_OK || li.scheme != POSENC_SCHEME_ROPE) {
        PyErr_Format(PyExc_ValueError, "posenc.check: config: %s",
                     s != POSENC_OK ? (err.detail[0] ? err.detail : posenc_strerror(s))
                                    : "that layer has no RoPE");
        goto out;
    }
    /* the layer's RoPE at the engine's length, the family's length rules
     * included (Qwen 1's dynamic NTK) */
    if (seq_len <= 0) {
        const int64_t *pp = (const int64_t *)bp.buf;
        for (Py_ssize_t t = 0; t < bp.len / 8; t++)
            if (pp[t] >= 0 && pp[t] <= POSENC_MAX_POS && pp[t] + 1 > seq_len)
                seq_len = pp[t] + 1;
    }
    posenc_rope_scaling sc;
    s = posenc_model_layer_rope_config(m, (uint32_t)layer, &cfg);
    if (s == POSENC_OK)
        s = posenc_model_layer_scaling(m, (uint32_t)layer, (int64_t)seq_len, &sc);
    if (s != POSENC_OK) {
        PyErr_Format(PyExc_ValueError, "posenc.check: the layer's RoPE at length %lld: %s",
                     seq_len, posenc_strerror(s));
        goto out;
    }
    cfg.scaling = sc;
#else
    (void)json;
    (void)json_len;
    (void)layer;
    (void)cfg;
    PyErr_SetString(PyExc_RuntimeError, "posenc.check needs the config reader: install "
                    "libjansson-dev and rebuild");
    goto out;
#endif
#ifdef POSENC_HAVE_JSON
    {
        size_t n_tok = (size_t)(bp.len / 8);
        posenc_check_input in = {.dtype = (posenc_dtype)dtype, .n_tok = n_tok,
                                 .pos = (const int64_t *)bp.buf};
        size_t per = n_tok ? (size_t)(bx.len / 4) / n_tok : 0;
        if (tables) {
            in.cos = (const float *)bx.buf;
            in.sin = (const float *)by.buf;
            in.table_dim = (uint32_t)per;
        } else {
            in.x = (const float *)bx.buf;
            in.y = (const float *)by.buf;
            in.head_dim = cfg.head_dim;
            in.n_head = cfg.head_dim ? (uint32_t)(per / cfg.head_dim) : 0;
            if ((size_t)in.n_head * cfg.head_dim != per) {
                PyErr_Format(PyExc_ValueError, "posenc.check: heads of %zu elements do not "
                             "fit the model's head_dim %u", per, cfg.head_dim);
                goto out;
            }
        }
        if (bx.len != by.len || n_tok == 0) {
            PyErr_SetString(PyExc_ValueError, "posenc.check: x and y must have the same "
                            "shape, with at least one token");
            goto out;
        }
        Py_BEGIN_ALLOW_THREADS
        s = posenc_check_run(&cfg, &in, (int64_t)seq_len, tol, res);
        Py_END_ALLOW_THREADS
        if (s != POSENC_OK) {
            PyErr_Format(PyExc_ValueError, "posenc.check: %s", posenc_strerror(s));
            goto out;
        }
        PyObject *bands = PyList_New(0), *causes = PyList_New(0);
        if (!bands || !causes) {
            Py_XDECREF(bands);
            Py_XDECREF(causes);
            goto out;
        }
        for (size_t b = 0; b < res->n_band; b++) {
            PyObject *t = Py_BuildValue("(LLndd)", (long long)res->band[b].pos_lo,
                                        (long long)res->band[b].pos_hi,
                                        (Py_ssize_t)res->band[b].n_tok, res->band[b].max_ulp,
                                        res->band[b].max_abs);
            if (!t || PyList_Append(bands, t) < 0) {
                Py_XDECREF(t);
                Py_DECREF(bands);
                Py_DECREF(causes);
                goto out;
            }
            Py_DECREF(t);
        }
        for (size_t k = 0; k < res->n_cause; k++) {
            PyObject *t = Py_BuildValue("(sds)", posenc_check_cause_name(res->cause[k].cause),
                                        res->cause[k].fit_ulp, res->cause[k].params);
            if (!t || PyList_Append(causes, t) < 0) {
                Py_XDECREF(t);
                Py_DECREF(bands);
                Py_DECREF(causes);
                goto out;
            }
            Py_DECREF(t);
        }
        ret = Py_BuildValue("{s:O,s:n,s:I,s:d,s:d,s:d,s:L,s:L,s:N,s:N}", "match",
                            res->match ? Py_True : Py_False, "n_tok", (Py_ssize_t)res->n_tok,
                            "n_head", res->n_head, "tol_ulp", res->tol_ulp, "max_ulp",
                            res->max_ulp, "max_abs", res->max_abs, "worst_pos",
                            (long long)res->worst_pos, "seq_len", (long long)res->seq_len,
                            "bands", bands, "causes", causes);
    }
#endif
out:
    posenc_model_free(m);
    free(res);
    PyBuffer_Release(&bx);
    PyBuffer_Release(&by);
    PyBuffer_Release(&bp);
    return ret;
}

static PyMethodDef methods[] = {
    {"run", run, METH_VARARGS, "posenc_check_run on float32 x, y and int64 positions"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "posenc._check", "posenc_check_run for posenc.check", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__check(void) { return PyModule_Create(&module); }
