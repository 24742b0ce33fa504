/* args.c - posenc.Error, the range checks and the keyword parsing that the
 * entry points of posenc._core share (see pyposenc.h). */
#include "pyposenc.h"

#include <stdio.h>

PyObject *pyp_Error; /* posenc.Error, a ValueError */

/* Sets posenc.Error(msg) with its status attribute st (msg: a new reference,
 * taken). Returns NULL. */
static PyObject *set_error(int st, PyObject *msg)
{
    if (!msg)
        return NULL;
    PyObject *exc = PyObject_CallOneArg(pyp_Error, msg);
    Py_DECREF(msg);
    if (exc) {
        PyObject *code = PyLong_FromLong(st);
        if (code && PyObject_SetAttrString(exc, "status", code) == 0)
            PyErr_SetObject(pyp_Error, exc);
        Py_XDECREF(code);
        Py_DECREF(exc);
    }
    return NULL;
}

PyObject *pyp_raise_status(int st, const char *what, const char *detail)
{
    return pyp_raise_said(st, what, pyposenc_strerror(st), detail);
}

PyObject *pyp_raise_said(int st, const char *what, const char *said, const char *detail)
{
    PyObject *msg;
    if (detail && detail[0])
        msg = PyUnicode_FromFormat("%s: %s: %s", what, said, detail);
    else
        msg = PyUnicode_FromFormat("%s: %s", what, said);
    if (msg && (st == POSENC_ERR_NOMEM || st == POSENC_ERR_IO)) {
        PyErr_SetObject(st == POSENC_ERR_NOMEM ? PyExc_MemoryError : PyExc_OSError, msg);
        Py_DECREF(msg);
        return NULL;
    }
    return set_error(st, msg);
}

PyObject *pyp_raise_range(int st, const char *what, const char *name, long long v,
                          long long lo, long long hi, const char *why)
{
    return set_error(st, PyUnicode_FromFormat("%s: %s must be %lld .. %lld%s, got %lld", what,
                                              name, lo, hi, why, v));
}

int pyp_check_ranges(const char *what, const pyp_range *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (r[i].v < r[i].lo || r[i].v > r[i].hi) {
            pyp_raise_range(r[i].st, what, r[i].name, r[i].v, r[i].lo, r[i].hi, "");
            return -1;
        }
    return 0;
}

PyObject *pyp_result(int st, const char *what)
{
    if (st != POSENC_OK)
        return pyp_raise_status(st, what, NULL);
    Py_RETURN_NONE;
}

int pyp_check_threads(long threads, const char *who)
{
    if (threads >= 1 && threads <= (long)POSENC_MAX_THREADS)
        return 0;
    char msg[96];
    snprintf(msg, sizeof msg, "threads must be 1 .. %u, got %ld", (unsigned)POSENC_MAX_THREADS,
             threads);
    pyp_raise_status(POSENC_ERR_RANGE, who, msg);
    return -1;
}

int pyp_parse_fast(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                   const char *const *names, int n, int max_positional, int n_required,
                   PyObject **out, const char *who)
{
    if (nargs > max_positional) {
        PyErr_Format(PyExc_TypeError, "%s takes at most %d positional arguments (%zd given)",
                     who, max_positional, nargs);
        return -1;
    }
    for (int i = 0; i < n; i++)
        out[i] = i < nargs ? args[i] : NULL;
    Py_ssize_t n_kw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t j = 0; j < n_kw; j++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, j);
        int i = 0;
        while (i < n && PyUnicode_CompareWithASCIIString(key, names[i]) != 0)
            i++;
        if (i == n) {
            PyErr_Format(PyExc_TypeError, "%s got an unexpected keyword argument '%U'", who, key);
            return -1;
        }
        if (out[i]) {
            PyErr_Format(PyExc_TypeError, "%s got multiple values for argument '%s'", who,
                         names[i]);
            return -1;
        }
        out[i] = args[nargs + j];
    }
    for (int i = 0; i < n_required; i++)
        if (!out[i]) {
            PyErr_Format(PyExc_TypeError, "%s missing required argument '%s'", who, names[i]);
            return -1;
        }
    return 0;
}
