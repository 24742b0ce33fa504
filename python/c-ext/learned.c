/* learned.c - posenc._core.Learned: a learned position table read by the
 * library (a text file or a .safetensors tensor). */
#include "pyposenc.h"

#include <stdio.h>


static PyObject *Learned_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"path", "tensor", NULL};
    PyObject *opath;
    const char *tensor_name = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|z", kw, PyUnicode_FSConverter, &opath,
                                     &tensor_name))
        return NULL;
    char detail[256];
    void *t = NULL;
    size_t n = 0, d = 0;
    int st = pyposenc_learned_load(PyBytes_AS_STRING(opath), tensor_name, &t, &n, &d, detail,
                                   sizeof detail);
    if (st != POSENC_OK) {
        char what[300];
        snprintf(what, sizeof what, "learned_table('%.200s')", PyBytes_AS_STRING(opath));
        Py_DECREF(opath);
        return pyp_raise_status(st, what, detail);
    }
    Py_DECREF(opath);
    LearnedObject *self = (LearnedObject *)type->tp_alloc(type, 0);
    if (!self) {
        pyposenc_learned_free(t);
        return NULL;
    }
    self->t = t;
    self->n_pos = n;
    self->dim = d;
    return (PyObject *)self;
}

static void Learned_dealloc(LearnedObject *self)
{
    pyposenc_learned_free(self->t);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Learned_rows(LearnedObject *self, PyObject *out)
{
    Py_buffer b;
    if (pyp_get_flat(out, &b, 'd', 8, (Py_ssize_t)(self->n_pos * self->dim), 1, "out") != 0)
        return NULL;
    int st = pyposenc_learned_rows(self->t, b.buf);
    PyBuffer_Release(&b);
    return pyp_result(st, "learned_table");
}

static PyObject *Learned_shape(LearnedObject *self, void *c)
{
    (void)c;
    return Py_BuildValue("(nn)", (Py_ssize_t)self->n_pos, (Py_ssize_t)self->dim);
}

static PyMethodDef Learned_methods[] = {
    {"rows", (PyCFunction)Learned_rows, METH_O, "rows(out): copy every row (float64)"},
    {NULL, NULL, 0, NULL}};
static PyGetSetDef Learned_getset[] = {
    {"shape", (getter)Learned_shape, NULL, "(n_pos, dim)", NULL}, {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pyp_LearnedType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "posenc._core.Learned",
    .tp_basicsize = sizeof(LearnedObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A learned position table (posenc_learned); use posenc.learned_table.",
    .tp_new = Learned_new,
    .tp_dealloc = (destructor)Learned_dealloc,
    .tp_methods = Learned_methods,
    .tp_getset = Learned_getset,
};

