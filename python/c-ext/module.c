/* module.c - the module posenc._core: its functions (sinusoid tables,
 * ALiBi, T5 buckets and bias, version, ISA) and PyInit__core, which readies
 * the types of rope.c, cache.c and learned.c. Arguments arrive checked by
 * the Python layer (posenc/_args.py); the ranges are checked here again
 * before any narrowing to the library's uint32_t. */
#include "pyposenc.h"

#include <posenc_config.h> /* POSENC_CONFIG_MAX_BYTES (a macro: no link) */

/* sinusoid(pos0, n_pos, d, base, out): out float32 or float64, C-contiguous. */
static PyObject *m_sinusoid(PyObject *m, PyObject *args)
{
    (void)m;
    long long pos0, n_pos, d;
    double base;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "LLLdO", &pos0, &n_pos, &d, &base, &out))
        return NULL;
    const pyp_range r[] = {{"n_pos", n_pos, 0, POSENC_MAX_POS + 1, POSENC_ERR_RANGE},
                           {"d", d, 1, POSENC_MAX_DIM, POSENC_ERR_DIM}};
    int f64;
    if (pyp_check_ranges("sinusoid", r, 2) || pyp_float_kind(out, &f64))
        return NULL;
    Py_buffer b;
    if (pyp_get_flat(out, &b, f64 ? 'd' : 'f', f64 ? 8 : 4, (Py_ssize_t)(n_pos * d), 1, "out"))
        return NULL;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_sinusoid_table(pos0, (size_t)n_pos, (uint32_t)d, base, f64, b.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    return pyp_result(st, "sinusoid");
}

static PyObject *m_alibi_slopes(PyObject *m, PyObject *args)
{
    (void)m;
    long long h;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "LO", &h, &out))
        return NULL;
    const pyp_range r[] = {{"n_head", h, 1, POSENC_MAX_DIM, POSENC_ERR_DIM}};
    Py_buffer b;
    if (pyp_check_ranges("alibi_slopes", r, 1) ||
        pyp_get_flat(out, &b, 'd', 8, (Py_ssize_t)h, 1, "out"))
        return NULL;
    int st = pyposenc_alibi_slopes((uint32_t)h, b.buf);
    PyBuffer_Release(&b);
    return pyp_result(st, "alibi_slopes");
}

/* alibi_bias(n_head, n_query, n_key, q_offset, causal, threads, out): out
 * float32 [n_head * n_query * n_key] (C-contiguous, written). */
static PyObject *m_alibi_bias(PyObject *m, PyObject *args)
{
    (void)m;
    long long h, nq, nk, q_offset;
    int causal;
    long threads;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "LLLLplO", &h, &nq, &nk, &q_offset, &causal, &threads, &out))
        return NULL;
    const pyp_range r[] = {{"n_head", h, 1, POSENC_MAX_DIM, POSENC_ERR_DIM},
                           {"n_query", nq, 1, UINT32_MAX, POSENC_ERR_DIM},
                           {"n_key", nk, 1, UINT32_MAX, POSENC_ERR_DIM}};
    Py_buffer b;
    if (pyp_check_threads(threads, "alibi_bias") || pyp_check_ranges("alibi_bias", r, 3) ||
        pyp_get_flat(out, &b, 'f', 4, (Py_ssize_t)(h * nq * nk), 1, "out"))
        return NULL;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_alibi_bias((uint32_t)h, (uint32_t)nq, (uint32_t)nk, q_offset, causal,
                             (unsigned)threads, b.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    return pyp_result(st, "alibi_bias");
}

/* t5_bias(table, num_buckets, n_head, max_distance, bidirectional, n_query,
 * n_key, q_offset, threads, out): table float32 [num_buckets * n_head], out
 * float32 [n_head * n_query * n_key] (C-contiguous, written). */
static PyObject *m_t5_bias(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *table, *out;
    long long nb, h, md, nq, nk, q_offset;
    int bidir;
    long threads;
    if (!PyArg_ParseTuple(args, "OLLLpLLLlO", &table, &nb, &h, &md, &bidir, &nq, &nk, &q_offset,
                          &threads, &out))
        return NULL;
    const pyp_range r[] = {{"num_buckets", nb, 1, POSENC_T5_MAX_BUCKETS, POSENC_ERR_RANGE},
                           {"n_head", h, 1, POSENC_MAX_DIM, POSENC_ERR_DIM},
                           {"max_distance", md, 1, UINT32_MAX, POSENC_ERR_RANGE},
                           {"n_query", nq, 1, UINT32_MAX, POSENC_ERR_DIM},
                           {"n_key", nk, 1, UINT32_MAX, POSENC_ERR_DIM}};
    if (pyp_check_threads(threads, "t5_bias") || pyp_check_ranges("t5_bias", r, 5))
        return NULL;
    const pyp_flat f[] = {{table, 'f', 4, (Py_ssize_t)(nb * h), 0, "table"},
                          {out, 'f', 4, (Py_ssize_t)(h * nq * nk), 1, "out"}};
    Py_buffer b[2];
    if (pyp_get_flats(f, b, 2))
        return NULL;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_t5_bias(b[0].buf, (uint32_t)nb, (uint32_t)h, (uint32_t)md, bidir,
                          (uint32_t)nq, (uint32_t)nk, q_offset, (unsigned)threads, b[1].buf);
    Py_END_ALLOW_THREADS
    pyp_release_flats(b, 2);
    return pyp_result(st, "t5_bias");
}

/* t5_buckets(query_pos, key_pos, n, num_buckets, max_distance, bidirectional,
 * out): int64 arrays of n entries (C-contiguous); out[i] the bucket. */
static PyObject *m_t5_buckets(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *qp, *kp, *out;
    long long nb, md;
    Py_ssize_t n;
    int bidir;
    if (!PyArg_ParseTuple(args, "OOnLLpO", &qp, &kp, &n, &nb, &md, &bidir, &out))
        return NULL;
    const pyp_range r[] = {{"num_buckets", nb, 1, POSENC_T5_MAX_BUCKETS, POSENC_ERR_RANGE},
                           {"max_distance", md, 1, UINT32_MAX, POSENC_ERR_RANGE}};
    const char i64 = sizeof(long) == 8 ? 'l' : 'q'; /* NumPy's int64 format letter */
    const pyp_flat f[] = {{qp, i64, 8, n, 0, "query_pos"},
                          {kp, i64, 8, n, 0, "key_pos"},
                          {out, i64, 8, n, 1, "out"}};
    Py_buffer b[3];
    if (pyp_check_ranges("t5_bucket", r, 2) || pyp_get_flats(f, b, 3))
        return NULL;
    int st = pyposenc_t5_buckets(b[0].buf, b[1].buf, (size_t)n, (uint32_t)nb, (uint32_t)md,
                                 bidir, b[2].buf);
    pyp_release_flats(b, 3);
    return pyp_result(st, "t5_bucket");
}

static PyObject *m_pair_index(PyObject *m, PyObject *args)
{
    (void)m;
    long long k, d;
    int layout;
    if (!PyArg_ParseTuple(args, "LLi", &k, &d, &layout))
        return NULL;
    const pyp_range r[] = {{"d", d, 1, POSENC_MAX_DIM, POSENC_ERR_DIM},
                           {"k", k, 0, d - 1, POSENC_ERR_RANGE}};
    if (pyp_check_ranges("pair_index", r, 2))
        return NULL;
    uint32_t i0, i1;
    int st = pyposenc_pair_index((uint32_t)k, (uint32_t)d, (posenc_layout)layout, &i0, &i1);
    if (st != POSENC_OK)
        return pyp_raise_status(st, "pair_index", NULL);
    return Py_BuildValue("(II)", i0, i1);
}

static PyObject *m_version(PyObject *m, PyObject *a)
{
    (void)m;
    (void)a;
    return Py_BuildValue("(sI)", pyposenc_version_string(), pyposenc_version_number());
}

static PyObject *m_isa(PyObject *m, PyObject *a)
{
    (void)m;
    (void)a;
    return PyUnicode_FromString(pyposenc_rope_isa());
}

static PyObject *m_have_config(PyObject *m, PyObject *a)
{
    (void)m;
    (void)a;
    return PyBool_FromLong(pyposenc_have_config_reader());
}

static PyObject *m_strerror(PyObject *m, PyObject *a)
{
    (void)m;
    long st = PyLong_AsLong(a);
    if (st == -1 && PyErr_Occurred())
        return NULL;
    return PyUnicode_FromString(pyposenc_strerror((int)st));
}

static PyMethodDef module_methods[] = {
    {"sinusoid", m_sinusoid, METH_VARARGS, "sinusoid(pos0, n_pos, d, base, out)"},
    {"alibi_slopes", m_alibi_slopes, METH_VARARGS, "alibi_slopes(h, out)"},
    {"alibi_bias", m_alibi_bias, METH_VARARGS,
     "alibi_bias(n_head, n_query, n_key, q_offset, causal, threads, out)"},
    {"pair_index", m_pair_index, METH_VARARGS, "pair_index(k, d, layout) -> (i0, i1)"},
    {"t5_bias", m_t5_bias, METH_VARARGS,
     "t5_bias(table, num_buckets, n_head, max_distance, bidirectional, n_query, n_key, "
     "q_offset, threads, out)"},
    {"t5_buckets", m_t5_buckets, METH_VARARGS,
     "t5_buckets(query_pos, key_pos, n, num_buckets, max_distance, bidirectional, out)"},
    {"version", m_version, METH_NOARGS, "(version string, version number) of the library"},
    {"isa", m_isa, METH_NOARGS, "instruction set of the tensor kernels"},
    {"have_config_reader", m_have_config, METH_NOARGS, "whether from_config is available"},
    {"strerror", m_strerror, METH_O, "posenc_strerror(status)"},
    {"use_torch", pyp_use_torch, METH_VARARGS,
     "use_torch(torch.Tensor, torch.utils.dlpack.to_dlpack): tensors of that type are read "
     "through their DLPack export"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "posenc._core",
    "The C core of posenc (private: use the posenc package).", -1, module_methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&pyp_RopeType) < 0 || PyType_Ready(&pyp_LearnedType) < 0 ||
        PyType_Ready(&pyp_CacheType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    pyp_Error = PyErr_NewExceptionWithDoc(
        "posenc.Error",
        "An error reported by the posenc C library. A ValueError; its status attribute "
        "is the library's posenc_status value and its message says what went wrong.",
        PyExc_ValueError, NULL);
    Py_INCREF(&pyp_RopeType);
    Py_INCREF(&pyp_LearnedType);
    if (!pyp_Error || PyModule_AddObject(m, "Error", pyp_Error) < 0 ||
        PyModule_AddObject(m, "Rope", (PyObject *)&pyp_RopeType) < 0 ||
        PyModule_AddObject(m, "Learned", (PyObject *)&pyp_LearnedType) < 0 ||
        PyModule_AddIntConstant(m, "MAX_POS", (long)POSENC_MAX_POS) < 0 ||
        PyModule_AddIntConstant(m, "CONFIG_MAX_BYTES", (long)POSENC_CONFIG_MAX_BYTES) < 0 ||
        PyModule_AddIntConstant(m, "MAX_THREADS", (long)POSENC_MAX_THREADS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_DIM", (long)POSENC_MAX_DIM) < 0 ||
        PyModule_AddIntConstant(m, "ROPE_MAX_HEAD_DIM", (long)POSENC_ROPE_MAX_HEAD_DIM) < 0 ||
        PyModule_AddIntConstant(m, "MODEL_MAX_LAYERS", (long)POSENC_MODEL_MAX_LAYERS) < 0 ||
        PyModule_AddIntConstant(m, "ERR_DIM", POSENC_ERR_DIM) < 0 ||
        PyModule_AddIntConstant(m, "ERR_POS", POSENC_ERR_POS) < 0 ||
        PyModule_AddIntConstant(m, "ERR_RANGE", POSENC_ERR_RANGE) < 0 ||
        PyModule_AddIntConstant(m, "ERR_FORMAT", POSENC_ERR_FORMAT) < 0 ||
        PyModule_AddIntConstant(m, "DTYPE_F32", POSENC_DTYPE_F32) < 0 ||
        PyModule_AddIntConstant(m, "DTYPE_BF16", POSENC_DTYPE_BF16) < 0 ||
        PyModule_AddIntConstant(m, "DTYPE_F16", POSENC_DTYPE_F16) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(pyp_Error); /* kept in the static too */
    return m;
}

