/* check.c - the C extension module posenc._check: posenc_check_run
 * (include/posenc_check.h) for Python, through the extension's one door
 * into the library (calls.h). The documented API is posenc.check() and
 * posenc.testing (posenc/_checking.py, posenc/testing.py), which hand this
 * module contiguous float32 and int64 arrays and arguments already checked
 * (posenc/_args.py); the ranges are checked here again before any
 * narrowing. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "calls.h"

/* The model of config text json and, in *cfg, its layer's RoPE at seq_len
 * (*seq_len <= 0: max(positions) + 1, written back). NULL with ValueError
 * (or RuntimeError without the config reader) set. */
static posenc_model *load_layer(const char *json, Py_ssize_t json_len, long long layer,
                                const Py_buffer *bp, long long *seq_len,
                                posenc_rope_config *cfg)
{
    if (!pyposenc_have_config_reader()) {
        PyErr_SetString(PyExc_RuntimeError, "posenc.check needs the config reader: install "
                        "libjansson-dev and rebuild");
        return NULL;
    }
    if (layer < 0 || layer >= POSENC_MODEL_MAX_LAYERS) {
        PyErr_Format(PyExc_ValueError, "posenc.check: layer must be 0 .. %u, got %lld",
                     POSENC_MODEL_MAX_LAYERS - 1, layer);
        return NULL;
    }
    if (*seq_len < 0 || *seq_len > POSENC_MAX_POS + 1) {
        PyErr_Format(PyExc_ValueError, "posenc.check: seq_len must be 1 .. %lld, got %lld",
                     POSENC_MAX_POS + 1, *seq_len);
        return NULL;
    }
    posenc_model *m = NULL;
    char detail[400];
    /* the layer past the last, or without RoPE, is refused by its number */
    int st = pyposenc_config_from_text(json, (size_t)json_len, layer, &m, detail, sizeof detail);
    if (st != POSENC_OK) {
        PyErr_Format(PyExc_ValueError, "posenc.check: config: %s",
                     detail[0] ? detail : pyposenc_strerror(st));
        return NULL;
    }
    const char *type;
    if (pyposenc_model_sense(m, (uint32_t)layer, &type) < 0) { /* NanoChat */
        PyErr_Format(PyExc_ValueError,
                     "posenc.check: model_type %s turns q and k by -theta (sense=-1): check's "
                     "hypotheses are rotations by +theta, so such a layer is not checked",
                     type);
        pyposenc_model_free(m);
        return NULL;
    }
    if (*seq_len <= 0) { /* the engine's length: max(positions) + 1 */
        const int64_t *pp = (const int64_t *)bp->buf;
        for (Py_ssize_t t = 0; t < bp->len / 8; t++)
            if (pp[t] >= 0 && pp[t] <= POSENC_MAX_POS && pp[t] + 1 > *seq_len)
                *seq_len = pp[t] + 1;
    }
    /* the layer's RoPE at the engine's length, the family's length rules
     * included (Qwen 1's dynamic NTK) */
    st = pyposenc_layer_config_at(m, (uint32_t)layer, (int64_t)*seq_len, cfg);
    if (st != POSENC_OK) {
        PyErr_Format(PyExc_ValueError, "posenc.check: the layer's RoPE at length %lld: %s",
                     *seq_len, pyposenc_strerror(st));
        pyposenc_model_free(m);
        return NULL;
    }
    return m;
}

/* The input of posenc_check_run: x, y (or the engine's cos and sin when
 * tables) over n_tok tokens of positions bp. -1 with ValueError if the
 * shapes do not fit cfg's head_dim. */
static int fill_input(posenc_check_input *in, const Py_buffer *bx, const Py_buffer *by,
                      const Py_buffer *bp, int dtype, int tables,
                      const posenc_rope_config *cfg)
{
    size_t n_tok = (size_t)(bp->len / 8);
    memset(in, 0, sizeof *in);
    in->dtype = (posenc_dtype)dtype;
    in->n_tok = n_tok;
    in->pos = (const int64_t *)bp->buf;
    size_t per = n_tok ? (size_t)(bx->len / 4) / n_tok : 0;
    if (tables) {
        in->cos = (const float *)bx->buf;
        in->sin = (const float *)by->buf;
        in->table_dim = (uint32_t)per;
    } else {
        in->x = (const float *)bx->buf;
        in->y = (const float *)by->buf;
        in->head_dim = cfg->head_dim;
        in->n_head = cfg->head_dim ? (uint32_t)(per / cfg->head_dim) : 0;
        if ((size_t)in->n_head * cfg->head_dim != per) {
            PyErr_Format(PyExc_ValueError, "posenc.check: heads of %zu elements do not "
                         "fit the model's head_dim %u", per, cfg->head_dim);
            return -1;
        }
    }
    if (bx->len != by->len || n_tok == 0) {
        PyErr_SetString(PyExc_ValueError, "posenc.check: x and y must have the same "
                        "shape, with at least one token");
        return -1;
    }
    return 0;
}

/* Appends item (a new reference, taken; NULL: the error of building it) to
 * list. -1 on failure. */
static int append_new(PyObject *list, PyObject *item)
{
    int e = item ? PyList_Append(list, item) : -1;
    Py_XDECREF(item);
    return e;
}

/* The dict posenc/_checking.py reads (CheckResult). */
static PyObject *result_dict(const posenc_check_result *res)
{
    PyObject *bands = PyList_New(0), *causes = PyList_New(0);
    if (!bands || !causes)
        goto fail;
    for (size_t b = 0; b < res->n_band; b++) {
        const posenc_check_band *d = &res->band[b];
        if (append_new(bands, Py_BuildValue("(LLndd)", (long long)d->pos_lo,
                                            (long long)d->pos_hi, (Py_ssize_t)d->n_tok,
                                            d->max_ulp, d->max_abs)) != 0)
            goto fail;
    }
    for (size_t k = 0; k < res->n_cause; k++) {
        const posenc_check_cause *c = &res->cause[k];
        if (append_new(causes, Py_BuildValue("(sds)", pyposenc_check_cause_name(c->cause),
                                             c->fit_ulp, c->params)) != 0)
            goto fail;
    }
    return Py_BuildValue("{s:O,s:n,s:I,s:d,s:d,s:d,s:L,s:L,s:N,s:N}", "match",
                         res->match ? Py_True : Py_False, "n_tok", (Py_ssize_t)res->n_tok,
                         "n_head", res->n_head, "tol_ulp", res->tol_ulp, "max_ulp",
                         res->max_ulp, "max_abs", res->max_abs, "worst_pos",
                         (long long)res->worst_pos, "seq_len", (long long)res->seq_len,
                         "bands", bands, "causes", causes);
fail:
    Py_XDECREF(bands);
    Py_XDECREF(causes);
    return NULL;
}

/* run(x, y, positions, config_json, layer, seq_len, tol, dtype, tables)
 * x, y: float32 buffers, C-contiguous, [n_tok, n_head, head_dim] (or tables
 * [n_tok, table_dim] when tables is true); positions: int64 [n_tok];
 * config_json: bytes of a config.json; layer and seq_len int64 (checked
 * here before narrowing; seq_len 0: max(positions) + 1); dtype 0 F32,
 * 1 BF16, 2 F16. Returns a dict (see posenc/_checking.py). */
static PyObject *run(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer bx, by, bp;
    const char *json;
    Py_ssize_t json_len;
    long long layer, seq_len;
    double tol;
    int dtype, tables;
    if (!PyArg_ParseTuple(args, "y*y*y*y#LLdip", &bx, &by, &bp, &json, &json_len, &layer,
                          &seq_len, &tol, &dtype, &tables))
        return NULL;
    PyObject *ret = NULL;
    posenc_rope_config cfg;
    posenc_check_input in;
    posenc_check_result *res = malloc(sizeof *res);
    /* kept to the end: cfg's LongRoPE lists point into it */
    posenc_model *m = res ? load_layer(json, json_len, layer, &bp, &seq_len, &cfg) : NULL;
    if (!res)
        PyErr_NoMemory();
    if (m && fill_input(&in, &bx, &by, &bp, dtype, tables, &cfg) == 0) {
        int s;
        Py_BEGIN_ALLOW_THREADS
        s = pyposenc_check_run(&cfg, &in, (int64_t)seq_len, tol, res);
        Py_END_ALLOW_THREADS
        if (s != POSENC_OK)
            PyErr_Format(PyExc_ValueError, "posenc.check: %s", pyposenc_strerror(s));
        else
            ret = result_dict(res);
    }
    pyposenc_model_free(m);
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
