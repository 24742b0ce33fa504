/* _core.c - the C extension module posenc._core: the Python glue.
 *
 * Arrays arrive through the buffer protocol (NumPy arrays) or, for CPU
 * torch tensors, through torch's DLPack export (data pointer, shape,
 * strides and dtype in one call; see _dlpack.h), so nothing is copied. This file checks every shape, stride and element type
 * and maps them to the library's views; it calls the library only through
 * _calls.h (one file to change when the C API changes). The public,
 * documented API is the Python layer in posenc/__init__.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <posenc_config.h> /* POSENC_CONFIG_MAX_BYTES (a macro: no link) */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_calls.h"
#include "_dlpack.h"

static PyObject *PosencError; /* posenc.Error, a ValueError */
static int check_threads(long threads, const char *who);

/* Raises the exception for status st: posenc.Error (a ValueError) with a
 * status attribute, MemoryError for POSENC_ERR_NOMEM, OSError for
 * POSENC_ERR_IO. The message is "what: <posenc_strerror>[: detail]". */
static PyObject *raise_status(int st, const char *what, const char *detail)
{
    PyObject *msg;
    if (detail && detail[0])
        msg = PyUnicode_FromFormat("%s: %s: %s", what, pyposenc_strerror(st), detail);
    else
        msg = PyUnicode_FromFormat("%s: %s", what, pyposenc_strerror(st));
    if (!msg)
        return NULL;
    if (st == POSENC_ERR_NOMEM) {
        PyErr_SetObject(PyExc_MemoryError, msg);
    } else if (st == POSENC_ERR_IO) {
        PyErr_SetObject(PyExc_OSError, msg);
    } else {
        PyObject *exc = PyObject_CallOneArg(PosencError, msg);
        if (exc) {
            PyObject *code = PyLong_FromLong(st);
            if (code && PyObject_SetAttrString(exc, "status", code) == 0)
                PyErr_SetObject(PosencError, exc);
            Py_XDECREF(code);
            Py_DECREF(exc);
        }
    }
    Py_DECREF(msg);
    return NULL;
}

/* posenc.Error (status st) "what: name must be lo .. hi<why>, got v": an
 * argument outside its range, said before the library would narrow it. */
static PyObject *raise_range(int st, const char *what, const char *name, long long v,
                             long long lo, long long hi, const char *why)
{
    char d[200];
    snprintf(d, sizeof d, "%s must be %lld .. %lld%s, got %lld", name, lo, hi, why, v);
    PyObject *msg = PyUnicode_FromFormat("%s: %s", what, d);
    if (!msg)
        return NULL;
    PyObject *exc = PyObject_CallOneArg(PosencError, msg);
    Py_DECREF(msg);
    if (exc) {
        PyObject *code = PyLong_FromLong(st);
        if (code && PyObject_SetAttrString(exc, "status", code) == 0)
            PyErr_SetObject(PosencError, exc);
        Py_XDECREF(code);
        Py_DECREF(exc);
    }
    return NULL;
}

/* ---- buffers ------------------------------------------------------------ */

/* The element type letter of a buffer format ("<f" -> 'f'), or 0 when the
 * format is not a single native little-endian scalar. */
static char format_letter(const char *fmt)
{
    if (!fmt)
        return 'B';
    if (*fmt == '@' || *fmt == '=' || *fmt == '<')
        fmt++;
    if (fmt[0] == 0 || fmt[1] != 0)
        return 0;
    return fmt[0];
}

/* A writable (or readable), C-contiguous buffer of n elements of format
 * letter want (element size size). On error raises and returns -1. */
static int get_flat(PyObject *obj, Py_buffer *b, char want, Py_ssize_t size, Py_ssize_t n,
                    int writable, const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, b, flags) != 0) {
        PyErr_Format(PyExc_ValueError, "%s must be a%s C-contiguous array", name,
                     writable ? " writable" : "");
        return -1;
    }
    if (format_letter(b->format) != want || b->itemsize != size) {
        PyErr_Format(PyExc_TypeError, "%s has element format '%s'; expected '%c'", name,
                     b->format ? b->format : "B", want);
        PyBuffer_Release(b);
        return -1;
    }
    if (b->len != n * size) {
        PyErr_Format(PyExc_ValueError, "%s has %zd elements; expected %zd", name,
                     b->len / size, n);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

/* A q or k tensor as the kernels see it: batch x [n_tok tokens, n_head
 * heads, head_dim elements], strides in elements. */
typedef struct tensor {
    Py_buffer b;
    int held;
    PyObject *capsule;        /* a torch tensor's DLPack export, kept while in use */
    char *base;               /* element (0, 0, 0, 0), after rebasing */
    int ndim;
    int dtype;                /* posenc_dtype */
    Py_ssize_t itemsize;
    Py_ssize_t batch, n_tok, n_head, head_dim;
    Py_ssize_t batch_stride;  /* may be negative */
    Py_ssize_t tok_stride, head_stride; /* >= 0 */
} tensor;

static void tensor_release(tensor *t)
{
    if (t->held)
        PyBuffer_Release(&t->b);
    t->held = 0;
    Py_CLEAR(t->capsule);
}

/* Whether rotating one head of t would change another head (or token, or
 * batch entry): the library refuses such views (POSENC_ERR_RANGE); this
 * says why in the caller's terms first. Every (token, head) must own its
 * head_dim elements in one of the two orders the library accepts (tokens
 * outer: hs >= hd and ts >= (n_head - 1) hs + hd; heads outer: ts >= hd and
 * hs >= (n_tok - 1) ts + hd). Returns -1 with posenc.Error (a ValueError) set if not. */
static int tensor_overlaps(const tensor *t, const char *name)
{
    Py_ssize_t ts = t->tok_stride, hs = t->head_stride, hd = t->head_dim;
    Py_ssize_t nt = t->n_tok, nh = t->n_head;
    if (nt == 0 || nh == 0 || t->batch == 0 || hd == 0)
        return 0;
    if (nh > 1 && hs == 0) {
        PyErr_Format(PosencError,
                     "%s: its %zd heads share the same memory (head stride 0: an expanded or "
                     "broadcast view); rotating one would rotate all: pass a copy",
                     name, nh);
        return -1;
    }
    if (nt > 1 && ts == 0) {
        PyErr_Format(PosencError,
                     "%s: its %zd tokens share the same memory (token stride 0: an expanded or "
                     "broadcast view); pass a copy",
                     name, nt);
        return -1;
    }
    if (t->batch > 1 && t->batch_stride == 0) {
        PyErr_Format(PosencError,
                     "%s: its %zd batch entries share the same memory (batch stride 0); pass a "
                     "copy",
                     name, t->batch);
        return -1;
    }
    int tokens_outer = (nh == 1 || hs >= hd) && (nt == 1 || ts >= (nh - 1) * hs + hd);
    int heads_outer = (nt == 1 || ts >= hd) && (nh == 1 || hs >= (nt - 1) * ts + hd);
    if (!tokens_outer && !heads_outer) {
        PyErr_Format(PosencError,
                     "%s: its heads or tokens overlap in memory (token stride %zd, head stride "
                     "%zd elements, head_dim %zd): rotating one would change another; pass a "
                     "copy",
                     name, ts, hs, hd);
        return -1;
    }
    return 0;
}

/* ---- torch tensors ---------------------------------------------------------- */

/* torch.Tensor and torch.utils.dlpack.to_dlpack, handed over by
 * posenc/__init__.py (use_torch) the first time it meets a tensor: the
 * extension never imports torch. NULL until then. */
static PyObject *torch_tensor_type, *torch_to_dlpack;
static PyObject *str_is_neg, *str_requires_grad; /* interned names, made once */

static PyObject *m_use_torch(PyObject *m, PyObject *args)
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

static int is_torch(PyObject *obj)
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
static int torch_tensor(PyObject *obj, tensor *t, int writable, int dtype_hint,
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

/* A NumPy array (or any buffer) into t: base, ndim, dtype, itemsize, and
 * its shape and strides (elements). dtype_hint as get_tensor's. */
static int buffer_tensor(PyObject *obj, tensor *t, int writable, int dtype_hint,
                         const char *name, Py_ssize_t *sh, Py_ssize_t *st)
{
    int flags = PyBUF_STRIDES | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, &t->b, flags) != 0) {
        PyErr_Clear();
        if (writable && PyObject_GetBuffer(obj, &t->b, PyBUF_STRIDES | PyBUF_FORMAT) == 0) {
            PyBuffer_Release(&t->b);
            PyErr_Format(PyExc_ValueError,
                         "%s is read-only: an in-place rotation needs a writable array "
                         "(or pass inplace=False)",
                         name);
        } else {
            PyErr_Format(PyExc_TypeError,
                         "%s must be a NumPy array or a CPU torch tensor, got %.80s", name,
                         Py_TYPE(obj)->tp_name);
        }
        return -1;
    }
    t->held = 1;
    char c = format_letter(t->b.format);
    Py_ssize_t sz = t->b.itemsize;
    int dt = -1;
    if (dtype_hint == POSENC_DTYPE_BF16) {
        if ((c == 'H' || c == 'h') && sz == 2)
            dt = POSENC_DTYPE_BF16;
    } else if (c == 'f' && sz == 4) {
        dt = POSENC_DTYPE_F32;
    } else if (c == 'e' && sz == 2) {
        dt = POSENC_DTYPE_F16;
    }
    if (dt < 0 || (dtype_hint >= 0 && dt != dtype_hint)) {
        if (dtype_hint < 0 && (c == 'H' || c == 'h') && sz == 2)
            PyErr_Format(PyExc_TypeError,
                         "%s has 16-bit integer elements: for bfloat16 stored as uint16 pass "
                         "dtype='bfloat16'",
                         name);
        else if (dtype_hint == POSENC_DTYPE_BF16)
            PyErr_Format(PyExc_TypeError,
                         "%s: dtype='bfloat16' needs uint16 (or int16) storage, got format "
                         "'%s'",
                         name, t->b.format ? t->b.format : "B");
        else
            PyErr_Format(PyExc_TypeError,
                         "%s has element format '%s'; posenc rotates float32, float16 and "
                         "bfloat16 (uint16 storage with dtype='bfloat16')%s",
                         name, t->b.format ? t->b.format : "B",
                         dtype_hint >= 0 ? ", and it must match the dtype argument" : "");
        tensor_release(t);
        return -1;
    }
    t->dtype = dt;
    t->itemsize = sz;
    t->base = t->b.buf;
    t->ndim = t->b.ndim;
    for (int i = 0; i < t->ndim && i < 4; i++) {
        Py_ssize_t s = t->b.strides[i];
        if (s % sz != 0) {
            PyErr_Format(PyExc_ValueError,
                         "%s: stride %zd bytes of axis %d is not a multiple of the element "
                         "size %zd",
                         name, s, i, sz);
            tensor_release(t);
            return -1;
        }
        sh[i] = t->b.shape[i];
        st[i] = s / sz;
    }
    return 0;
}

/* q, k or an output as the kernels see it: a NumPy array (buffer protocol)
 * or a CPU torch tensor (DLPack). dtype_hint: -1 infer from the array, else
 * a posenc_dtype it must have. */
static int get_tensor(PyObject *obj, tensor *t, int writable, int dtype_hint, const char *name)
{
    memset(t, 0, sizeof *t);
    Py_ssize_t sh[4], st[4];
    if ((is_torch(obj) ? torch_tensor : buffer_tensor)(obj, t, writable, dtype_hint, name, sh,
                                                       st) != 0)
        return -1;
    Py_ssize_t sz = t->itemsize;
    int nd = t->ndim;
    if (nd < 2 || nd > 4) {
        PyErr_Format(PyExc_ValueError,
                     "%s has %d dimensions; expected [n_tok, head_dim], [n_tok, n_head, "
                     "head_dim] or [batch, n_head, seq, head_dim]",
                     name, nd);
        tensor_release(t);
        return -1;
    }
    if ((uintptr_t)t->base % (uintptr_t)sz != 0) {
        PyErr_Format(PyExc_ValueError,
                     "%s is not aligned to its %zd-byte elements; pass a copy", name, sz);
        tensor_release(t);
        return -1;
    }
    t->head_dim = sh[nd - 1];
    if (t->head_dim > 1 && st[nd - 1] != 1) {
        PyErr_Format(PyExc_ValueError,
                     "%s: the last axis (head_dim) must be contiguous (stride %zd elements); "
                     "pass a copy",
                     name, st[nd - 1]);
        tensor_release(t);
        return -1;
    }
    Py_ssize_t ts, hs = t->head_dim;
    t->batch = 1;
    t->n_head = 1;
    if (nd == 2) {
        t->n_tok = sh[0];
        ts = st[0];
    } else if (nd == 3) {
        t->n_tok = sh[0];
        t->n_head = sh[1];
        ts = st[0];
        hs = st[1];
    } else {
        t->batch = sh[0];
        t->n_head = sh[1];
        t->n_tok = sh[2];
        t->batch_stride = st[0];
        hs = st[1];
        ts = st[2];
    }
    if (t->n_head <= 1)
        hs = t->head_dim;
    if (hs < 0) { /* heads in reverse order: all turn alike, so start at the last */
        t->base += (t->n_head - 1) * hs * sz;
        hs = -hs;
    }
    if (t->n_tok <= 1)
        ts = 0;
    if (ts < 0) {
        PyErr_Format(PyExc_ValueError,
                     "%s: a negative token stride (a reversed view) is not supported; pass a "
                     "copy",
                     name);
        tensor_release(t);
        return -1;
    }
    if (t->batch <= 1)
        t->batch_stride = 0;
    t->tok_stride = ts;
    t->head_stride = hs;
    if (tensor_overlaps(t, name) != 0) {
        tensor_release(t);
        return -1;
    }
    return 0;
}

/* Lowest and one-past-highest byte of a tensor. */
static void tensor_extent(const tensor *t, char **lo, char **hi)
{
    Py_ssize_t sz = t->itemsize;
    char *b0 = t->base, *b1 = t->base + (t->batch - 1) * t->batch_stride * sz;
    char *first = b0 < b1 ? b0 : b1, *last = b0 < b1 ? b1 : b0;
    *lo = first;
    *hi = last + ((t->n_tok - 1) * t->tok_stride + (t->n_head - 1) * t->head_stride +
                  t->head_dim) * sz;
}

/* Positions as a contiguous int64 array (a pointer into the buffer, or a
 * converted copy in *owned). shape: *pdim (1 or 2) and *pshape. */
typedef struct positions {
    Py_buffer b;
    int held;
    int64_t *owned;
    const int64_t *p;
    int ndim;
    Py_ssize_t shape[2];
} positions;

static void positions_release(positions *p)
{
    if (p->held)
        PyBuffer_Release(&p->b);
    free(p->owned);
    p->held = 0;
    p->owned = NULL;
}

/* A torch tensor of positions: its integer elements' address, kind and
 * size, and shape and byte strides (at most 2 axes read). */
static int torch_positions(PyObject *obj, const char **buf, int *nd, Py_ssize_t *shape,
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

/* Positions from an integer NumPy array or torch tensor of 1 or 2 axes,
 * copied into p->owned as int64. */
static int get_positions(PyObject *obj, positions *p)
{
    memset(p, 0, sizeof *p);
    const char *buf;
    Py_ssize_t shape[4], strides[4], sz;
    int is_signed, nd;
    if (is_torch(obj)) {
        if (torch_positions(obj, &buf, &nd, shape, strides, &sz, &is_signed) != 0)
            return -1;
    } else {
        if (PyObject_GetBuffer(obj, &p->b, PyBUF_STRIDES | PyBUF_FORMAT) != 0) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "positions must be an integer array, got %.80s",
                         Py_TYPE(obj)->tp_name);
            return -1;
        }
        p->held = 1;
        char c = format_letter(p->b.format);
        switch (c) {
        case 'b': case 'h': case 'i': case 'l': case 'q': is_signed = 1; break;
        case 'B': case 'H': case 'I': case 'L': case 'Q': is_signed = 0; break;
        default:
            PyErr_Format(PyExc_TypeError,
                         "positions must be integers (int64), got format '%s': those are not "
                         "token positions (posenc never truncates)",
                         p->b.format ? p->b.format : "B");
            positions_release(p);
            return -1;
        }
        buf = p->b.buf;
        sz = p->b.itemsize;
        nd = p->b.ndim;
        for (int i = 0; i < nd && i < 2; i++) {
            shape[i] = p->b.shape[i];
            strides[i] = p->b.strides[i];
        }
    }
    if (nd < 1 || nd > 2) {
        PyErr_Format(PyExc_ValueError, "positions must have 1 or 2 dimensions, got %d", nd);
        positions_release(p);
        return -1;
    }
    p->ndim = nd;
    Py_ssize_t n = 1;
    for (int i = 0; i < p->ndim; i++) {
        p->shape[i] = shape[i];
        n *= p->shape[i];
    }
    /* Always a copy, made here under the GIL: the kernels run with the GIL
     * released, and the caller's array may alias q, k or an output (rotating
     * would rewrite positions still to be read) or be written by another
     * thread meanwhile. The copy is what gets checked and used. */
    int contiguous = sz == 8 && is_signed &&
                     (n <= 1 || (nd == 1 ? strides[0] == 8
                                         : strides[1] == 8 &&
                                               (shape[0] <= 1 || strides[0] == 8 * shape[1])));
    p->owned = malloc((size_t)(n ? n : 1) * sizeof *p->owned);
    if (!p->owned) {
        positions_release(p);
        PyErr_NoMemory();
        return -1;
    }
    if (contiguous) {
        if (n)
            memcpy(p->owned, buf, (size_t)n * sizeof *p->owned);
        p->p = p->owned;
        return 0;
    }
    Py_ssize_t cols = p->ndim == 2 ? p->shape[1] : p->shape[0];
    Py_ssize_t rows = p->ndim == 2 ? p->shape[0] : 1;
    Py_ssize_t s0 = p->ndim == 2 ? strides[0] : 0, s1 = strides[p->ndim - 1];
    for (Py_ssize_t i = 0; i < rows; i++)
        for (Py_ssize_t j = 0; j < cols; j++) {
            const char *e = buf + i * s0 + j * s1;
            int64_t v;
            if (is_signed) {
                switch (sz) {
                case 1: v = *(const int8_t *)e; break;
                case 2: v = *(const int16_t *)e; break;
                case 4: v = *(const int32_t *)e; break;
                default: v = *(const int64_t *)e; break;
                }
            } else {
                uint64_t u;
                switch (sz) {
                case 1: u = *(const uint8_t *)e; break;
                case 2: u = *(const uint16_t *)e; break;
                case 4: u = *(const uint32_t *)e; break;
                default: u = *(const uint64_t *)e; break;
                }
                v = u > (uint64_t)INT64_MAX ? -1 : (int64_t)u;
            }
            p->owned[i * cols + j] = v;
        }
    p->p = p->owned;
    return 0;
}

/* ---- the RoPE object -------------------------------------------------------- */

/* A cos/sin cache (posenc_rope_cache) for positions 0 .. max_pos - 1, its
 * own object so that a call that released the GIL keeps it alive. */
typedef struct CacheObject {
    PyObject_HEAD
    void *cache;
    int64_t max_pos;
} CacheObject;

static void Cache_dealloc(CacheObject *self)
{
    pyposenc_rope_cache_free(self->cache);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject CacheType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "posenc._core.Cache",
    .tp_basicsize = sizeof(CacheObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A cos/sin cache of one RoPE (posenc_rope_cache).",
    .tp_dealloc = (destructor)Cache_dealloc,
};

typedef struct RopeObject {
    PyObject_HEAD
    posenc_rope_config cfg; /* the layer's configuration, for the getters */
    posenc_model *model;    /* the model the RoPE comes from (owned), and its layer */
    uint32_t layer;
    int indexer;            /* 1: the layer's indexer RoPE (DeepSeek V3.2), not its attention's */
    posenc_rope r;          /* the layer's RoPE at seq_len, from the library's per-layer call */
    int64_t seq_len;
    CacheObject *cache; /* NULL: none */
} RopeObject;

static void Rope_dealloc(RopeObject *self)
{
    pyposenc_model_free(self->model);
    Py_XDECREF(self->cache);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* set_cache(max_pos): builds a cos/sin cache for positions 0 .. max_pos - 1
 * that apply() then uses for calls whose positions it covers; 0 drops it. */
static PyObject *Rope_set_cache(RopeObject *self, PyObject *arg)
{
    long long n = PyLong_AsLongLong(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    CacheObject *old = self->cache;
    if (n == 0) {
        self->cache = NULL;
        Py_XDECREF(old);
        Py_RETURN_NONE;
    }
    void *c = NULL;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_rope_cache_create(&self->r, n, &c);
    Py_END_ALLOW_THREADS
    if (st != POSENC_OK)
        return raise_status(st, "RoPE.cache", NULL);
    CacheObject *co = PyObject_New(CacheObject, &CacheType);
    if (!co) {
        pyposenc_rope_cache_free(c);
        return NULL;
    }
    co->cache = c;
    co->max_pos = n;
    self->cache = co;
    Py_XDECREF(old);
    Py_RETURN_NONE;
}

static PyObject *Rope_get_cache_len(RopeObject *s, void *c)
{
    (void)c;
    return PyLong_FromLongLong(s->cache ? s->cache->max_pos : 0);
}

static PyTypeObject RopeType;

/* A RoPE object for layer `layer` of model (taken over: freed on failure)
 * at sequence length seq_len. */
static RopeObject *rope_new_from(PyTypeObject *type, posenc_model *model, uint32_t layer,
                                 int64_t seq_len, int indexer)
{
    if (seq_len < 0) {
        pyposenc_model_free(model);
        PyErr_SetString(PyExc_ValueError, "seq_len must be >= 0");
        return NULL;
    }
    RopeObject *self = (RopeObject *)type->tp_alloc(type, 0);
    if (!self) {
        pyposenc_model_free(model);
        return NULL;
    }
    self->model = model;
    self->layer = layer;
    self->indexer = indexer;
    self->seq_len = seq_len;
    int st = pyposenc_model_rope(model, layer, seq_len, indexer, &self->r, &self->cfg);
    if (st != POSENC_OK) {
        Py_DECREF(self);
        return (RopeObject *)raise_status(
            st, "RoPE",
            indexer && st == POSENC_ERR_RANGE
                ? "indexer=True, but this model's layers have no indexer (DeepSeek Sparse "
                  "Attention's, as in DeepSeek V3.2)"
                : NULL);
    }
    return self;
}

/* A list of numbers from a sequence, into dst (at most cap). */
static int get_list(PyObject *dict, const char *key, double *dst, size_t cap, size_t *n)
{
    *n = 0;
    PyObject *v = PyDict_GetItemString(dict, key); /* borrowed */
    if (!v || v == Py_None)
        return 0;
    PyObject *seq = PySequence_Fast(v, "a list of numbers");
    if (!seq) {
        PyErr_Format(PyExc_TypeError, "scaling['%s'] must be a list of numbers", key);
        return -1;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if ((size_t)len > cap) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "scaling['%s'] has %zd values; at most %zu are possible",
                     key, len, cap);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        double x = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (x == -1.0 && PyErr_Occurred()) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_TypeError, "scaling['%s'][%zd] is not a number", key, i);
            return -1;
        }
        dst[i] = x;
    }
    *n = (size_t)len;
    Py_DECREF(seq);
    return 0;
}

static int get_num(PyObject *dict, const char *key, double *out, int *present)
{
    PyObject *v = PyDict_GetItemString(dict, key);
    if (present)
        *present = 0;
    if (!v || v == Py_None)
        return 0;
    double x = PyFloat_AsDouble(v);
    if (x == -1.0 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "scaling['%s'] must be a number", key);
        return -1;
    }
    *out = x;
    if (present)
        *present = 1;
    return 0;
}

/* _core.Rope(head_dim, rotary_dim, base, layout, scaling, seq_len): scaling is
 * None or a dict with the normalized keys of posenc_rope_scaling plus "type". */
static PyObject *Rope_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"head_dim", "rotary_dim", "base", "layout", "scaling", "seq_len", NULL};
    long long head_dim, rotary_dim, seq_len = 0;
    double base;
    int layout;
    PyObject *scaling = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "LLdi|OL", kw, &head_dim, &rotary_dim, &base,
                                     &layout, &scaling, &seq_len))
        return NULL;
    if (head_dim < 1 || head_dim > POSENC_ROPE_MAX_HEAD_DIM)
        return raise_range(POSENC_ERR_DIM, "RoPE", "head_dim", head_dim, 1,
                           POSENC_ROPE_MAX_HEAD_DIM, " (the largest head dimension posenc rotates)");
    if (rotary_dim < 0 || rotary_dim > head_dim)
        return raise_range(POSENC_ERR_DIM, "RoPE", "rotary_dim", rotary_dim, 0, head_dim,
                           " (head_dim)");
    static double lists[3][POSENC_ROPE_MAX_HEAD_DIM / 2]; /* under the GIL */
    pyposenc_scaling_in s;
    memset(&s, 0, sizeof s);
    PyObject *tname = NULL;
    if (scaling != Py_None) {
        if (!PyDict_Check(scaling)) {
            PyErr_SetString(PyExc_TypeError, "scaling must be a dict or None");
            return NULL;
        }
        PyObject *t = PyDict_GetItemString(scaling, "type");
        if (!t || !PyUnicode_Check(t)) {
            PyErr_SetString(PyExc_TypeError, "scaling['type'] must be a string");
            return NULL;
        }
        s.type = PyUnicode_AsUTF8(t);
        if (!s.type)
            return NULL;
        tname = t;
        double tr = 1;
        s.factor = 1;
        if (get_num(scaling, "factor", &s.factor, NULL) ||
            get_num(scaling, "original_max_position_embeddings",
                    &s.original_max_position_embeddings, NULL) ||
            get_num(scaling, "beta_fast", &s.beta_fast, &s.has_beta_fast) ||
            get_num(scaling, "beta_slow", &s.beta_slow, &s.has_beta_slow) ||
            get_num(scaling, "truncate", &tr, &s.has_truncate) ||
            get_num(scaling, "mscale", &s.mscale, NULL) ||
            get_num(scaling, "mscale_all_dim", &s.mscale_all_dim, NULL) ||
            get_num(scaling, "attention_factor", &s.attention_factor, NULL) ||
            get_num(scaling, "low_freq_factor", &s.low_freq_factor, NULL) ||
            get_num(scaling, "high_freq_factor", &s.high_freq_factor, NULL) ||
            get_num(scaling, "partial_rotary_factor", &s.partial_rotary_factor, &s.has_prf) ||
            get_list(scaling, "short_factor", lists[0], POSENC_ROPE_MAX_HEAD_DIM / 2,
                     &s.n_short_factor) ||
            get_list(scaling, "long_factor", lists[1], POSENC_ROPE_MAX_HEAD_DIM / 2,
                     &s.n_long_factor) ||
            get_list(scaling, "freq_factors", lists[2], POSENC_ROPE_MAX_HEAD_DIM / 2,
                     &s.n_freq_factors))
            return NULL;
        s.truncate = tr != 0;
        s.short_factor = lists[0];
        s.long_factor = lists[1];
        s.freq_factors = lists[2];
    }
    (void)tname;
    posenc_rope_config cfg;
    char detail[256];
    int st = pyposenc_config_build(&cfg, (uint32_t)head_dim, (uint32_t)rotary_dim, base,
                                   (posenc_layout)layout,
                                   scaling == Py_None ? NULL : &s, detail, sizeof detail);
    posenc_model *m = NULL;
    if (st == POSENC_OK)
        st = pyposenc_model_from_rope(&cfg, &m); /* one RoPE on every layer */
    if (st != POSENC_OK)
        return raise_status(st, "RoPE", detail);
    return (PyObject *)rope_new_from(type, m, 0, seq_len, 0);
}

static PyObject *Rope_from_config_text(PyObject *cls, PyObject *args)
{
    Py_buffer text;
    long long layer = 0, seq_len = 0;
    int indexer = 0;
    if (!PyArg_ParseTuple(args, "y*LL|p", &text, &layer, &seq_len, &indexer))
        return NULL;
    posenc_model *m = NULL;
    char detail[400];
    int st = pyposenc_config_from_text(text.buf, (size_t)text.len, layer, &m, detail,
                                       sizeof detail);
    PyBuffer_Release(&text);
    if (st != POSENC_OK)
        return raise_status(st, "RoPE.from_config", detail);
    /* the layer's RoPE at seq_len comes from the model, family rules included */
    return (PyObject *)rope_new_from((PyTypeObject *)cls, m, (uint32_t)layer, seq_len, indexer);
}

static PyObject *Rope_with_seq_len(RopeObject *self, PyObject *arg)
{
    long long n = PyLong_AsLongLong(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    posenc_model *m = NULL;
    int st = pyposenc_model_copy(self->model, &m);
    if (st != POSENC_OK)
        return raise_status(st, "RoPE", NULL);
    return (PyObject *)rope_new_from(Py_TYPE(self), m, self->layer, n, self->indexer);
}

/* inv_freq(out_hi[, out_lo]): rotary_dim/2 doubles each. */
static PyObject *Rope_inv_freq(RopeObject *self, PyObject *args)
{
    PyObject *ohi, *olo = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &ohi, &olo))
        return NULL;
    Py_ssize_t P = self->r.rotary_dim / 2;
    Py_buffer bh, bl;
    if (get_flat(ohi, &bh, 'd', 8, P, 1, "out") != 0)
        return NULL;
    if (olo != Py_None && get_flat(olo, &bl, 'd', 8, P, 1, "out_lo") != 0) {
        PyBuffer_Release(&bh);
        return NULL;
    }
    memcpy(bh.buf, self->r.inv_freq_hi, (size_t)P * sizeof(double));
    PyBuffer_Release(&bh);
    if (olo != Py_None) {
        memcpy(bl.buf, self->r.inv_freq_lo, (size_t)P * sizeof(double));
        PyBuffer_Release(&bl);
    }
    Py_RETURN_NONE;
}

/* model_info() -> (model_type, part, mrope): what the config reader read
 * the layer as (posenc_model_type, posenc_model_part: "" for a RoPE not from
 * a config, or a config's top), and the layer's M-RoPE as ((s_t, s_h, s_w),
 * rule name), or None when the layer has none. */
static PyObject *Rope_model_info(RopeObject *self, PyObject *noargs)
{
    (void)noargs;
    const char *type, *part, *rule;
    uint32_t sec[3];
    (void)pyposenc_model_info(self->model, self->layer, &type, &part, sec, &rule);
    if (!rule)
        return Py_BuildValue("(ssO)", type, part, Py_None);
    return Py_BuildValue("(ss((III)s))", type, part, sec[0], sec[1], sec[2], rule);
}

/* The one rule for a thread count, for every entry point (apply, cos_sin and
 * the torch module through apply): 1 .. POSENC_MAX_THREADS, or posenc.Error
 * naming the entry point and the value. */
static int check_threads(long threads, const char *who)
{
    if (threads >= 1 && threads <= (long)POSENC_MAX_THREADS)
        return 0;
    char msg[96];
    snprintf(msg, sizeof msg, "threads must be 1 .. %u, got %ld", (unsigned)POSENC_MAX_THREADS,
             threads);
    raise_status(POSENC_ERR_RANGE, who, msg);
    return -1;
}

/* cos_sin(positions, cos_out, sin_out, threads): positions a contiguous
 * int64 array of n; outs n * rotary_dim/2 of float32 ('f') or float64 ('d'). */
static PyObject *Rope_cos_sin(RopeObject *self, PyObject *args)
{
    PyObject *opos, *oc, *os;
    long threads = 1;
    if (!PyArg_ParseTuple(args, "OOOl", &opos, &oc, &os, &threads))
        return NULL;
    if (check_threads(threads, "RoPE.cos_sin") != 0)
        return NULL;
    positions p;
    if (get_positions(opos, &p) != 0)
        return NULL;
    Py_ssize_t n = p.shape[0] * (p.ndim == 2 ? p.shape[1] : 1);
    Py_ssize_t P = self->r.rotary_dim / 2;
    Py_buffer bc;
    if (PyObject_GetBuffer(oc, &bc, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) {
        positions_release(&p);
        return NULL;
    }
    char c = format_letter(bc.format);
    PyBuffer_Release(&bc);
    int f64 = c == 'd';
    Py_buffer bs;
    if (get_flat(oc, &bc, f64 ? 'd' : 'f', f64 ? 8 : 4, n * P, 1, "cos") != 0) {
        positions_release(&p);
        return NULL;
    }
    if (get_flat(os, &bs, f64 ? 'd' : 'f', f64 ? 8 : 4, n * P, 1, "sin") != 0) {
        PyBuffer_Release(&bc);
        positions_release(&p);
        return NULL;
    }
    int st = POSENC_OK;
    if (n > 0) {
        size_t chunk = n < 1024 ? (size_t)n : 1024;
        void *scratch = malloc((f64 ? 1 : chunk) * self->r.head_dim * (f64 ? 8 : 4));
        if (!scratch) {
            st = POSENC_ERR_NOMEM;
        } else {
            Py_BEGIN_ALLOW_THREADS
            if (f64)
                st = pyposenc_rope_cos_sin_f64(&self->r, (size_t)n, p.p, bc.buf, bs.buf,
                                               scratch);
            else
                st = pyposenc_rope_cos_sin_f32(&self->r, (size_t)n, p.p, bc.buf, bs.buf,
                                               scratch, chunk, (unsigned)threads);
            Py_END_ALLOW_THREADS
            free(scratch);
        }
    }
    PyBuffer_Release(&bc);
    PyBuffer_Release(&bs);
    positions_release(&p);
    if (st != POSENC_OK)
        return raise_status(st, "RoPE.cos_sin", NULL);
    Py_RETURN_NONE;
}

static PyObject *numpy_ndarray, *numpy_shares; /* numpy.ndarray, numpy.shares_memory:
                                                * imported when first needed */

/* A NumPy array over t's elements ([batch, n_tok, n_head, head_dim] with
 * its strides), on a memoryview of its extent: NumPy's own view of t. */
static PyObject *ndarray_over(const tensor *t)
{
    char *lo, *hi;
    tensor_extent(t, &lo, &hi);
    Py_ssize_t sz = t->itemsize;
    PyObject *mv = PyMemoryView_FromMemory(lo, hi - lo, PyBUF_READ);
    if (!mv)
        return NULL;
    PyObject *a = PyObject_CallFunction(
        numpy_ndarray, "(nnnn)sOn(nnnn)", t->batch, t->n_tok, t->n_head, t->head_dim,
        sz == 4 ? "u4" : "u2", mv, (Py_ssize_t)(t->base - lo), t->batch_stride * sz,
        t->tok_stride * sz, t->head_stride * sz, sz);
    Py_DECREF(mv);
    return a;
}

/* Whether a and b (which overlap in extent) share an element: NumPy's exact
 * test (numpy.shares_memory) on views of both. */
static int really_shares(const tensor *a, const tensor *b)
{
    if (!numpy_shares) {
        PyObject *np = PyImport_ImportModule("numpy");
        if (!np)
            return -1;
        numpy_ndarray = PyObject_GetAttrString(np, "ndarray");
        numpy_shares = numpy_ndarray ? PyObject_GetAttrString(np, "shares_memory") : NULL;
        Py_DECREF(np);
        if (!numpy_shares) {
            Py_CLEAR(numpy_ndarray);
            return -1;
        }
    }
    PyObject *va = ndarray_over(a), *vb = va ? ndarray_over(b) : NULL;
    PyObject *r = vb ? PyObject_CallFunctionObjArgs(numpy_shares, va, vb, NULL) : NULL;
    Py_XDECREF(va);
    Py_XDECREF(vb);
    if (!r)
        return -1;
    int yes = PyObject_IsTrue(r);
    Py_DECREF(r);
    return yes;
}

static void fill_view(pyposenc_view *v, const tensor *dst, const tensor *src, Py_ssize_t bi)
{
    v->dst = dst->base + bi * dst->batch_stride * dst->itemsize;
    v->n_head = (size_t)dst->n_head;
    v->tok_stride = (size_t)dst->tok_stride;
    v->head_stride = (size_t)dst->head_stride;
    if (src) {
        v->src = src->base + bi * src->batch_stride * src->itemsize;
        v->src_tok_stride = (size_t)src->tok_stride;
        v->src_head_stride = (size_t)src->head_stride;
    } else {
        v->src = NULL;
        v->src_tok_stride = v->src_head_stride = 0;
    }
}

/* apply(q, k, positions, pos0, inverse, threads, dtype, q_out, k_out)
 * k, positions, q_out, k_out may be None; dtype -1 infers. With q_out
 * (and k_out when k is given) the inputs are read only and the results go
 * to the outs, which must have the inputs' shapes. */
static PyObject *Rope_apply(RopeObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "apply takes 9 arguments");
        return NULL;
    }
    PyObject *oq = args[0], *ok = args[1], *opos = args[2], *oqo = args[7], *oko = args[8];
    long long pos0 = PyLong_AsLongLong(args[3]);
    int inverse = PyObject_IsTrue(args[4]);
    long threads = PyLong_AsLong(args[5]);
    long dtype = PyLong_AsLong(args[6]);
    if (PyErr_Occurred() || inverse < 0)
        return NULL;
    if (check_threads(threads, "RoPE.apply") != 0)
        return NULL;
    if (pos0 < 0)
        return raise_status(POSENC_ERR_POS, "RoPE.apply", "the first position is negative");
    int has_k = ok != Py_None, out_of_place = oqo != Py_None;
    tensor q, k, qo, ko;
    positions p;
    memset(&k, 0, sizeof k);
    memset(&qo, 0, sizeof qo);
    memset(&ko, 0, sizeof ko);
    memset(&p, 0, sizeof p);
    PyObject *result = NULL;
    int st = POSENC_OK;
    const char *detail = NULL;
    char msg[200];

    if (get_tensor(oq, &q, !out_of_place, (int)dtype, "q") != 0)
        return NULL;
    if (has_k && get_tensor(ok, &k, !out_of_place, q.dtype, "k") != 0)
        goto done;
    if (out_of_place) {
        if (get_tensor(oqo, &qo, 1, q.dtype, "q_out") != 0)
            goto done;
        if (has_k && get_tensor(oko, &ko, 1, q.dtype, "k_out") != 0)
            goto done;
    }
    /* Shapes. */
    if (q.head_dim != (Py_ssize_t)self->r.head_dim ||
        (has_k && k.head_dim != (Py_ssize_t)self->r.head_dim)) {
        PyErr_Format(PyExc_ValueError,
                     "the last axis of q%s is %zd; this RoPE has head_dim %u",
                     has_k ? " and k" : "",
                     q.head_dim != (Py_ssize_t)self->r.head_dim ? q.head_dim : k.head_dim,
                     self->r.head_dim);
        goto done;
    }
    if (has_k && (k.ndim != q.ndim || k.n_tok != q.n_tok || k.batch != q.batch)) {
        PyErr_SetString(PyExc_ValueError,
                        "q and k must have the same number of dimensions, tokens (seq) and "
                        "batch; only their head counts may differ");
        goto done;
    }
    if (out_of_place && (qo.ndim != q.ndim || qo.n_tok != q.n_tok || qo.batch != q.batch ||
                         qo.n_head != q.n_head || qo.head_dim != q.head_dim ||
                         (has_k && (ko.ndim != k.ndim || ko.n_tok != k.n_tok ||
                                    ko.batch != k.batch || ko.n_head != k.n_head ||
                                    ko.head_dim != k.head_dim)))) {
        PyErr_SetString(PyExc_ValueError, "q_out and k_out must have the shapes of q and k");
        goto done;
    }
    Py_ssize_t n_tok = q.n_tok, batch = q.batch;
    /* Positions. */
    int per_batch = 0;
    if (opos != Py_None) {
        if (get_positions(opos, &p) != 0)
            goto done;
        Py_ssize_t want = n_tok;
        int ok_shape = (p.ndim == 1 && p.shape[0] == want) ||
                       (p.ndim == 2 && q.ndim == 4 && p.shape[1] == want &&
                        (p.shape[0] == batch || p.shape[0] == 1));
        if (!ok_shape) {
            if (p.ndim == 1)
                PyErr_Format(PyExc_ValueError,
                             "positions must have shape [%zd]%s (one per token), got [%zd]",
                             n_tok, q.ndim == 4 ? " or [batch, seq]" : "", p.shape[0]);
            else
                PyErr_Format(PyExc_ValueError,
                             "positions must have shape [%zd]%s (one per token), got [%zd, %zd]",
                             n_tok, q.ndim == 4 ? " or [batch, seq]" : "", p.shape[0],
                             p.shape[1]);
            goto done;
        }
        per_batch = p.ndim == 2 && p.shape[0] == batch && batch > 1;
        if (batch > 1 && n_tok > 0) { /* several calls: check every position first */
            Py_ssize_t total = p.ndim == 2 ? p.shape[0] * p.shape[1] : p.shape[0];
            for (Py_ssize_t i = 0; i < total; i++)
                if (p.p[i] < 0 || p.p[i] > POSENC_MAX_POS) {
                    snprintf(msg, sizeof msg, "position %lld (index %zd) is outside 0 .. %lld",
                             (long long)p.p[i], i, (long long)POSENC_MAX_POS);
                    st = POSENC_ERR_POS;
                    detail = msg;
                    goto done;
                }
        }
    }
    if (n_tok == 0 || batch == 0 || q.n_head == 0) { /* nothing to rotate */
        if (!(has_k && k.n_head > 0 && n_tok > 0 && batch > 0))
            goto ok;
    }
    /* In place, q and k must not share an element. */
    if (has_k && !out_of_place && k.n_head > 0 && q.n_head > 0) {
        char *ql, *qh, *kl, *kh;
        tensor_extent(&q, &ql, &qh);
        tensor_extent(&k, &kl, &kh);
        if (ql < kh && kl < qh) {
            int sh = really_shares(&q, &k);
            if (sh < 0)
                goto done;
            if (sh) {
                PyErr_SetString(PyExc_ValueError,
                                "q and k share memory: rotating them in place together would "
                                "turn the shared elements twice");
                goto done;
            }
        }
    }
    {
        /* The cache, when it covers every position of the call. */
        CacheObject *cache = self->cache;
        if (cache) {
            int64_t top = (int64_t)pos0 + n_tok - 1;
            if (p.p) {
                Py_ssize_t total = p.ndim == 2 ? p.shape[0] * p.shape[1] : p.shape[0];
                top = -1;
                for (Py_ssize_t i = 0; i < total; i++)
                    if (p.p[i] > top)
                        top = p.p[i];
            }
            if (top >= cache->max_pos)
                cache = NULL;
        }
        Py_XINCREF(cache);
        pyposenc_view qv, kv;
        int use_q = q.n_head > 0, use_k = has_k && k.n_head > 0;
        size_t elems = (size_t)batch * (size_t)n_tok *
                       (size_t)(q.n_head + (has_k ? k.n_head : 0)) * (size_t)q.head_dim;
        PyThreadState *ts = NULL;
        if (elems >= 16384)
            ts = PyEval_SaveThread();
        for (Py_ssize_t bi = 0; bi < batch && st == POSENC_OK; bi++) {
            if (use_q)
                fill_view(&qv, out_of_place ? &qo : &q, out_of_place ? &q : NULL, bi);
            if (use_k)
                fill_view(&kv, out_of_place ? &ko : &k, out_of_place ? &k : NULL, bi);
            const int64_t *pp = p.p ? p.p + (per_batch ? bi * n_tok : 0) : NULL;
            st = pyposenc_rope_qk(&self->r, cache ? cache->cache : NULL,
                                  (posenc_dtype)q.dtype, (size_t)n_tok, pp,
                                  pp ? 0 : (int64_t)pos0, use_q ? &qv : NULL,
                                  use_k ? &kv : NULL, inverse, (unsigned)threads);
        }
        if (ts)
            PyEval_RestoreThread(ts);
        Py_XDECREF(cache);
        if (st != POSENC_OK)
            goto done;
    }
ok:
    result = Py_None;
    Py_INCREF(result);
done:
    if (st != POSENC_OK && !PyErr_Occurred())
        raise_status(st, "RoPE.apply", detail);
    tensor_release(&q);
    tensor_release(&k);
    tensor_release(&qo);
    tensor_release(&ko);
    positions_release(&p);
    return result;
}

static PyObject *Rope_get_head_dim(RopeObject *s, void *c) { (void)c; return PyLong_FromUnsignedLong(s->r.head_dim); }
static PyObject *Rope_get_rotary_dim(RopeObject *s, void *c) { (void)c; return PyLong_FromUnsignedLong(s->r.rotary_dim); }
static PyObject *Rope_get_base(RopeObject *s, void *c) { (void)c; return PyFloat_FromDouble(s->r.base); }
static PyObject *Rope_get_layout(RopeObject *s, void *c) { (void)c; return PyLong_FromLong((long)s->r.layout); }
static PyObject *Rope_get_attn(RopeObject *s, void *c) { (void)c; return PyFloat_FromDouble(s->r.attn_factor); }
static PyObject *Rope_get_seq_len(RopeObject *s, void *c) { (void)c; return PyLong_FromLongLong(s->seq_len); }
static PyObject *Rope_get_type(RopeObject *s, void *c)
{
    (void)c;
    return PyUnicode_FromString(pyposenc_rope_type_name((int)s->cfg.scaling.type));
}
static PyObject *Rope_get_maxpos(RopeObject *s, void *c)
{
    (void)c;
    return PyLong_FromLongLong(s->cfg.max_position_embeddings);
}
static PyObject *Rope_get_scaling(RopeObject *s, void *c)
{
    (void)c;
    const posenc_rope_scaling *d = &s->cfg.scaling;
    PyObject *r = Py_BuildValue(
        "{s:s,s:d,s:d,s:d,s:d,s:i,s:d,s:d,s:d,s:d,s:d}", "type",
        pyposenc_rope_type_name((int)d->type), "factor", d->factor,
        "original_max_position_embeddings", d->original_max_position_embeddings, "beta_fast",
        d->beta_fast, "beta_slow", d->beta_slow, "truncate", d->truncate, "mscale", d->mscale,
        "mscale_all_dim", d->mscale_all_dim, "attention_factor", d->attention_factor,
        "low_freq_factor", d->low_freq_factor, "high_freq_factor", d->high_freq_factor);
    if (!r)
        return NULL;
    if (d->type == POSENC_ROPE_PROPORTIONAL) {
        PyObject *p = PyFloat_FromDouble(d->partial_rotary_factor);
        if (!p || PyDict_SetItemString(r, "partial_rotary_factor", p) != 0) {
            Py_XDECREF(p);
            Py_DECREF(r);
            return NULL;
        }
        Py_DECREF(p);
    }
    const struct { const char *key; const double *v; size_t n; } lists[] = {
        {"short_factor", s->cfg.short_factor, d->n_short_factor},
        {"long_factor", s->cfg.long_factor, d->n_long_factor},
        {"freq_factors", s->cfg.freq_factors, d->n_freq_factors}};
    for (int i = 0; i < 3; i++) {
        PyObject *l = PyList_New((Py_ssize_t)lists[i].n);
        if (!l) {
            Py_DECREF(r);
            return NULL;
        }
        for (size_t j = 0; j < lists[i].n; j++)
            PyList_SET_ITEM(l, (Py_ssize_t)j, PyFloat_FromDouble(lists[i].v[j]));
        int e = PyDict_SetItemString(r, lists[i].key, l);
        Py_DECREF(l);
        if (e) {
            Py_DECREF(r);
            return NULL;
        }
    }
    return r;
}

static PyGetSetDef Rope_getset[] = {
    {"head_dim", (getter)Rope_get_head_dim, NULL, "elements per head", NULL},
    {"rotary_dim", (getter)Rope_get_rotary_dim, NULL, "leading elements rotated", NULL},
    {"base", (getter)Rope_get_base, NULL, "the base (rope_theta)", NULL},
    {"layout_code", (getter)Rope_get_layout, NULL, "0 interleaved, 1 half", NULL},
    {"attention_factor", (getter)Rope_get_attn, NULL, "factor on cos and sin", NULL},
    {"seq_len", (getter)Rope_get_seq_len, NULL, "the current length the frequencies are for", NULL},
    {"scaling_type", (getter)Rope_get_type, NULL, "the scaling's name", NULL},
    {"max_position_embeddings", (getter)Rope_get_maxpos, NULL, "the config's value, 0 if absent", NULL},
    {"scaling", (getter)Rope_get_scaling, NULL, "the scaling's parameters as a dict", NULL},
    {"cache_len", (getter)Rope_get_cache_len, NULL, "positions the cos/sin cache covers", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef Rope_methods[] = {
    {"from_config_text", (PyCFunction)Rope_from_config_text, METH_VARARGS | METH_CLASS,
     "from_config_text(json_bytes, layer, seq_len)"},
    {"with_seq_len", (PyCFunction)Rope_with_seq_len, METH_O, "with_seq_len(n)"},
    {"set_cache", (PyCFunction)Rope_set_cache, METH_O, "set_cache(max_pos); 0 drops it"},
    {"inv_freq", (PyCFunction)Rope_inv_freq, METH_VARARGS, "inv_freq(out_hi[, out_lo])"},
    {"model_info", (PyCFunction)Rope_model_info, METH_NOARGS,
     "model_info() -> (model_type, part, ((s_t, s_h, s_w), rule) or None)"},
    {"cos_sin", (PyCFunction)Rope_cos_sin, METH_VARARGS, "cos_sin(positions, cos, sin, threads)"},
    {"apply", (PyCFunction)(void (*)(void))Rope_apply, METH_FASTCALL,
     "apply(q, k, positions, pos0, inverse, threads, dtype, q_out, k_out)"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject RopeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "posenc._core.Rope",
    .tp_basicsize = sizeof(RopeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Low-level RoPE parameters (posenc_rope); use posenc.RoPE.",
    .tp_new = Rope_new,
    .tp_dealloc = (destructor)Rope_dealloc,
    .tp_methods = Rope_methods,
    .tp_getset = Rope_getset,
};

/* ---- learned tables ----------------------------------------------------------- */

typedef struct LearnedObject {
    PyObject_HEAD
    void *t;
    size_t n_pos, dim;
} LearnedObject;

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
        return raise_status(st, what, detail);
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
    if (get_flat(out, &b, 'd', 8, (Py_ssize_t)(self->n_pos * self->dim), 1, "out") != 0)
        return NULL;
    int st = pyposenc_learned_rows(self->t, b.buf);
    PyBuffer_Release(&b);
    if (st != POSENC_OK)
        return raise_status(st, "learned_table", NULL);
    Py_RETURN_NONE;
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

static PyTypeObject LearnedType = {
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

/* ---- module functions ----------------------------------------------------------- */

/* Whether lo <= v <= hi, else posenc.Error naming the argument and its range
 * (checked before v is narrowed to the library's uint32_t). */
static int check_u32(long long v, const char *name, int st_code, const char *what,
                     long long lo, long long hi)
{
    if (v < lo || v > hi) {
        raise_range(st_code, what, name, v, lo, hi, "");
        return -1;
    }
    return 0;
}

/* sinusoid(pos0, n_pos, d, base, out): out float32 or float64, C-contiguous. */
static PyObject *m_sinusoid(PyObject *m, PyObject *args)
{
    (void)m;
    long long pos0, n_pos, d;
    double base;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "LLLdO", &pos0, &n_pos, &d, &base, &out))
        return NULL;
    if (n_pos < 0)
        return raise_status(POSENC_ERR_RANGE, "sinusoid", "n_pos is negative");
    if (check_u32(d, "d", POSENC_ERR_DIM, "sinusoid", 1, POSENC_MAX_DIM))
        return NULL;
    Py_buffer b;
    if (PyObject_GetBuffer(out, &b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) != 0)
        return NULL;
    int f64 = format_letter(b.format) == 'd';
    PyBuffer_Release(&b);
    if (get_flat(out, &b, f64 ? 'd' : 'f', f64 ? 8 : 4, (Py_ssize_t)(n_pos * d), 1, "out"))
        return NULL;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_sinusoid_table(pos0, (size_t)n_pos, (uint32_t)d, base, f64, b.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    if (st != POSENC_OK)
        return raise_status(st, "sinusoid", NULL);
    Py_RETURN_NONE;
}

static PyObject *m_alibi_slopes(PyObject *m, PyObject *args)
{
    (void)m;
    long long h;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "LO", &h, &out))
        return NULL;
    if (check_u32(h, "n_head", POSENC_ERR_DIM, "alibi_slopes", 1, POSENC_MAX_DIM))
        return NULL;
    Py_buffer b;
    if (get_flat(out, &b, 'd', 8, (Py_ssize_t)h, 1, "out"))
        return NULL;
    int st = pyposenc_alibi_slopes((uint32_t)h, b.buf);
    PyBuffer_Release(&b);
    if (st != POSENC_OK)
        return raise_status(st, "alibi_slopes", NULL);
    Py_RETURN_NONE;
}

static PyObject *m_alibi_bias(PyObject *m, PyObject *args)
{
    (void)m;
    long long h, nq, nk, q_offset;
    int causal;
    long threads;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "LLLLplO", &h, &nq, &nk, &q_offset, &causal, &threads, &out))
        return NULL;
    if (check_threads(threads, "alibi_bias") != 0)
        return NULL;
    if (check_u32(h, "n_head", POSENC_ERR_DIM, "alibi_bias", 1, POSENC_MAX_DIM) ||
        check_u32(nq, "n_query", POSENC_ERR_DIM, "alibi_bias", 1, UINT32_MAX) ||
        check_u32(nk, "n_key", POSENC_ERR_DIM, "alibi_bias", 1, UINT32_MAX))
        return NULL;
    Py_buffer b;
    if (get_flat(out, &b, 'f', 4, (Py_ssize_t)(h * nq * nk), 1, "out"))
        return NULL;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_alibi_bias((uint32_t)h, (uint32_t)nq, (uint32_t)nk, q_offset, causal,
                             (unsigned)threads, b.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    if (st != POSENC_OK)
        return raise_status(st, "alibi_bias", NULL);
    Py_RETURN_NONE;
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
    if (check_threads(threads, "t5_bias") != 0)
        return NULL;
    if (check_u32(nb, "num_buckets", POSENC_ERR_RANGE, "t5_bias", 1, POSENC_T5_MAX_BUCKETS) ||
        check_u32(h, "n_head", POSENC_ERR_DIM, "t5_bias", 1, POSENC_MAX_DIM) ||
        check_u32(md, "max_distance", POSENC_ERR_RANGE, "t5_bias", 1, UINT32_MAX) ||
        check_u32(nq, "n_query", POSENC_ERR_DIM, "t5_bias", 1, UINT32_MAX) ||
        check_u32(nk, "n_key", POSENC_ERR_DIM, "t5_bias", 1, UINT32_MAX))
        return NULL;
    Py_buffer tb, ob;
    if (get_flat(table, &tb, 'f', 4, (Py_ssize_t)(nb * h), 0, "table"))
        return NULL;
    if (get_flat(out, &ob, 'f', 4, (Py_ssize_t)(h * nq * nk), 1, "out")) {
        PyBuffer_Release(&tb);
        return NULL;
    }
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_t5_bias(tb.buf, (uint32_t)nb, (uint32_t)h, (uint32_t)md, bidir, (uint32_t)nq,
                          (uint32_t)nk, q_offset, (unsigned)threads, ob.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&tb);
    PyBuffer_Release(&ob);
    if (st != POSENC_OK)
        return raise_status(st, "t5_bias", NULL);
    Py_RETURN_NONE;
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
    if (check_u32(nb, "num_buckets", POSENC_ERR_RANGE, "t5_bucket", 1, POSENC_T5_MAX_BUCKETS) ||
        check_u32(md, "max_distance", POSENC_ERR_RANGE, "t5_bucket", 1, UINT32_MAX))
        return NULL;
    const char i64 = sizeof(long) == 8 ? 'l' : 'q'; /* NumPy's int64 format letter */
    Py_buffer qb, kb, ob;
    if (get_flat(qp, &qb, i64, 8, n, 0, "query_pos"))
        return NULL;
    if (get_flat(kp, &kb, i64, 8, n, 0, "key_pos")) {
        PyBuffer_Release(&qb);
        return NULL;
    }
    if (get_flat(out, &ob, i64, 8, n, 1, "out")) {
        PyBuffer_Release(&qb);
        PyBuffer_Release(&kb);
        return NULL;
    }
    int st = pyposenc_t5_buckets(qb.buf, kb.buf, (size_t)n, (uint32_t)nb, (uint32_t)md, bidir,
                                 ob.buf);
    PyBuffer_Release(&qb);
    PyBuffer_Release(&kb);
    PyBuffer_Release(&ob);
    if (st != POSENC_OK)
        return raise_status(st, "t5_bucket", NULL);
    Py_RETURN_NONE;
}

static PyObject *m_pair_index(PyObject *m, PyObject *args)
{
    (void)m;
    long long k, d;
    int layout;
    if (!PyArg_ParseTuple(args, "LLi", &k, &d, &layout))
        return NULL;
    if (check_u32(d, "d", POSENC_ERR_DIM, "pair_index", 1, POSENC_MAX_DIM) ||
        check_u32(k, "k", POSENC_ERR_RANGE, "pair_index", 0, d - 1))
        return NULL;
    uint32_t i0, i1;
    int st = pyposenc_pair_index((uint32_t)k, (uint32_t)d, (posenc_layout)layout, &i0, &i1);
    if (st != POSENC_OK)
        return raise_status(st, "pair_index", NULL);
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
    {"use_torch", m_use_torch, METH_VARARGS,
     "use_torch(torch.Tensor, torch.utils.dlpack.to_dlpack): tensors of that type are read "
     "through their DLPack export"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "posenc._core",
    "The C core of posenc (private: use the posenc package).", -1, module_methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&RopeType) < 0 || PyType_Ready(&LearnedType) < 0 ||
        PyType_Ready(&CacheType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    PosencError = PyErr_NewExceptionWithDoc(
        "posenc.Error",
        "An error reported by the posenc C library. A ValueError; its status attribute "
        "is the library's posenc_status value and its message says what went wrong.",
        PyExc_ValueError, NULL);
    Py_INCREF(&RopeType);
    Py_INCREF(&LearnedType);
    if (!PosencError || PyModule_AddObject(m, "Error", PosencError) < 0 ||
        PyModule_AddObject(m, "Rope", (PyObject *)&RopeType) < 0 ||
        PyModule_AddObject(m, "Learned", (PyObject *)&LearnedType) < 0 ||
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
    Py_INCREF(PosencError); /* kept in the static too */
    return m;
}
