/* dlpack.c - CPU torch tensors read through their DLPack export (data
 * pointer, shape, strides and dtype in one call; see dlpack.h), so nothing
 * is copied. The extension never imports torch: posenc.torch hands over
 * torch.Tensor and to_dlpack (use_torch). */
#include "pyposenc.h"

#include <string.h>

/* torch.Tensor and torch.utils.dlpack.to_dlpack, handed over by
 * posenc/__init__.py (use_torch) the first time it meets a tensor: the
 * extension never imports torch. NULL until then. */
static PyObject *torch_tensor_type, *torch_to_dlpack;
static PyObject *str_is_neg, *str_requires_grad; /* interned names, made once */

PyObject *pyp_use_torch(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *type, *fn;
    if (!PyArg_ParseTuple(args, "O!O", &PyType_Type, &type, &fn))
        return NULL;
    if (!PyCallable_Check(fn)) {
        PyErr_SetString(PyExc_TypeError, "use_torch(Tensor, to_dlpack): to_dlpack must be callable");
        return NULL;
    }
    if (!str_is_neg && !(str_is_neg = PyUnicode_InternFromString("is_neg")))
        return NULL;
    if (!str_requires_grad && !(str_requires_grad = PyUnicode_InternFromString("requires_grad")))
        return NULL;
    Py_INCREF(type);
    Py_INCREF(fn);
    Py_XSETREF(torch_tensor_type, type);
    Py_XSETREF(torch_to_dlpack, fn);
    Py_RETURN_NONE;
}

int pyp_is_torch(PyObject *obj)
{
    return torch_tensor_type && PyObject_TypeCheck(obj, (PyTypeObject *)torch_tensor_type);
}

/* obj.<attr> as a string for a message (a placeholder if that fails). */
static PyObject *attr_str(PyObject *obj, const char *attr)
{
    PyObject *a = PyObject_GetAttrString(obj, attr), *s = a ? PyObject_Str(a) : NULL;
    Py_XDECREF(a);
    if (!s) {
        PyErr_Clear();
        s = PyUnicode_FromString("?");
    }
    return s;
}

/* Whether obj.<method>() is true (-1 with an exception set on failure). */
static int call_true(PyObject *obj, PyObject *method)
{
    PyObject *r = PyObject_CallMethodNoArgs(obj, method);
    if (!r)
        return -1;
    int yes = PyObject_IsTrue(r);
    Py_DECREF(r);
    return yes;
}

/* The DLPack export of a CPU torch tensor (*capsule owns it), with the
 * checks a view of its memory needs: on the CPU, no lazy negation (its
 * memory holds -x: torch's export does not say so), and, when it is to be
 * written, not requiring grad. NULL with an exception naming the argument
 * otherwise. */
static const pydl_tensor *torch_export(PyObject *obj, PyObject **capsule, int writable,
                                       const char *name)
{
    *capsule = PyObject_CallOneArg(torch_to_dlpack, obj);
    if (!*capsule) { /* meta, sparse, ...: say where it lives or why */
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyObject *dev = attr_str(obj, "device");
        if (PyUnicode_CompareWithASCIIString(dev, "cpu") != 0)
            PyErr_Format(PyExc_ValueError,
                         "%s is on %U: posenc rotates CPU tensors in place; for a model on "
                         "another device use posenc.torch.RotaryEmbedding (exact cos/sin "
                         "moved to the device)",
                         name, dev);
        else
            PyErr_Format(PyExc_TypeError,
                         "%s: this tensor cannot be viewed without a copy (%S)", name,
                         value ? value : Py_None);
        Py_DECREF(dev);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        return NULL;
    }
    pydl_managed *m = PyCapsule_GetPointer(*capsule, "dltensor");
    if (!m)
        goto fail;
    if (m->dl_tensor.device.device_type != PYDL_CPU) {
        PyObject *dev = attr_str(obj, "device");
        PyErr_Format(PyExc_ValueError,
                     "%s is on %U: posenc rotates CPU tensors in place; for a model on another "
                     "device use posenc.torch.RotaryEmbedding (exact cos/sin moved to the "
                     "device)",
                     name, dev);
        Py_DECREF(dev);
        goto fail;
    }
    int neg = call_true(obj, str_is_neg);
    if (neg < 0)
        goto fail;
    if (neg) {
        PyErr_Format(PyExc_TypeError,
                     "%s: this tensor has its negative bit set (a lazy negation, e.g. the "
                     "imaginary part of a conjugate view): pass %s.resolve_neg()",
                     name, name);
        goto fail;
    }
    if (writable) {
        PyObject *g = PyObject_GetAttr(obj, str_requires_grad);
        int grad = g ? PyObject_IsTrue(g) : -1;
        Py_XDECREF(g);
        if (grad < 0)
            goto fail;
        if (grad) {
            PyErr_Format(PyExc_ValueError,
                         "%s requires grad: posenc changes tensors outside autograd; call it "
                         "under torch.no_grad() on tensors that do not require grad",
                         name);
            goto fail;
        }
    }
    return &m->dl_tensor;
fail:
    Py_CLEAR(*capsule);
    return NULL;
}

/* The element address, shape and strides (elements) of a DLPack tensor of
 * at most 4 axes (nd: its axes, whatever their number). */
static char *dl_layout(const pydl_tensor *d, int *nd, Py_ssize_t *shape, Py_ssize_t *strides)
{
    *nd = d->ndim;
    if (d->ndim < 0 || d->ndim > 4)
        return NULL;
    Py_ssize_t step = 1;
    for (int i = d->ndim - 1; i >= 0; i--) {
        shape[i] = (Py_ssize_t)d->shape[i];
        strides[i] = d->strides ? (Py_ssize_t)d->strides[i] : step;
        step *= shape[i];
    }
    return (char *)d->data + d->byte_offset;
}

static const char *dtype_torch_name(int dt)
{
    return dt == POSENC_DTYPE_F32    ? "torch.float32"
           : dt == POSENC_DTYPE_BF16 ? "torch.bfloat16"
                                     : "torch.float16";
}

/* A torch tensor's memory into t (t->capsule keeps the export): base,
 * ndim, dtype, itemsize, and its shape and strides (elements). */
int pyp_torch_tensor(PyObject *obj, pyp_tensor *t, int writable, int dtype_hint,
                        const char *name, Py_ssize_t *sh, Py_ssize_t *st)
{
    const pydl_tensor *d = torch_export(obj, &t->capsule, writable, name);
    if (!d)
        return -1;
    int dt = -1;
    if (d->dtype.lanes == 1 && d->dtype.code == PYDL_FLOAT && d->dtype.bits == 32)
        dt = POSENC_DTYPE_F32;
    else if (d->dtype.lanes == 1 && d->dtype.code == PYDL_FLOAT && d->dtype.bits == 16)
        dt = POSENC_DTYPE_F16;
    else if (d->dtype.lanes == 1 && d->dtype.code == PYDL_BFLOAT && d->dtype.bits == 16)
        dt = POSENC_DTYPE_BF16;
    if (dt < 0 || (dtype_hint >= 0 && dt != dtype_hint)) {
        PyObject *s = attr_str(obj, "dtype");
        if (dt < 0)
            PyErr_Format(PyExc_TypeError,
                         "%s is %U; posenc rotates float32, float16 and bfloat16 tensors",
                         name, s);
        else
            PyErr_Format(PyExc_TypeError, "%s is %U but %s is %s", name, s,
                         strcmp(name, "q") == 0 ? "the dtype argument" : "q",
                         dtype_torch_name(dtype_hint));
        Py_DECREF(s);
        Py_CLEAR(t->capsule);
        return -1;
    }
    t->dtype = dt;
    t->itemsize = 2 + 2 * (dt == POSENC_DTYPE_F32);
    t->base = dl_layout(d, &t->ndim, sh, st);
    return 0;
}

/* A torch tensor of positions (see pyposenc.h); the export is dropped at once. */
int pyp_torch_positions(PyObject *obj, const char **buf, int *nd, Py_ssize_t *shape,
                           Py_ssize_t *strides, Py_ssize_t *sz, int *is_signed)
{
    PyObject *cap;
    const pydl_tensor *d = torch_export(obj, &cap, 0, "positions");
    if (!d)
        return -1;
    int ok = d->dtype.lanes == 1 && (d->dtype.code == PYDL_INT || d->dtype.code == PYDL_UINT) &&
             (d->dtype.bits == 8 || d->dtype.bits == 16 || d->dtype.bits == 32 ||
              d->dtype.bits == 64);
    if (!ok) {
        PyObject *s = attr_str(obj, "dtype");
        PyErr_Format(PyExc_TypeError,
                     "positions must be integers (int64), got %U: those are not token "
                     "positions (posenc never truncates)",
                     s);
        Py_DECREF(s);
        Py_DECREF(cap);
        return -1;
    }
    Py_ssize_t st[4] = {0, 0, 0, 0};
    *is_signed = d->dtype.code == PYDL_INT;
    *sz = d->dtype.bits / 8;
    *buf = dl_layout(d, nd, shape, st);
    for (int i = 0; i < *nd && i < 2; i++)
        strides[i] = st[i] * *sz;
    /* the capsule goes now: its export holds no memory of its own, and the
     * tensor (the caller's argument) keeps the elements while they are copied */
    Py_DECREF(cap);
    return 0;
}
