/* buffers.c - NumPy arrays (any object with the buffer protocol) as the
 * kernels see them: q/k tensors with their strides checked, positions
 * copied as int64, and the exact shared-memory test. Torch tensors come in
 * through dlpack.c; both end in the same pyp_tensor (pyposenc.h). */
#include "pyposenc.h"

#include <stdlib.h>
#include <string.h>

/* The element type letter of a buffer format ("<f" -> 'f'), or 0 when the
 * format is not a single native little-endian scalar. */
char pyp_format_letter(const char *fmt)
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
int pyp_get_flat(PyObject *obj, Py_buffer *b, char want, Py_ssize_t size, Py_ssize_t n,
                    int writable, const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, b, flags) != 0) {
        PyErr_Format(PyExc_ValueError, "%s must be a%s C-contiguous array", name,
                     writable ? " writable" : "");
        return -1;
    }
    if (pyp_format_letter(b->format) != want || b->itemsize != size) {
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

int pyp_get_flats(const pyp_flat *f, Py_buffer *b, int n)
{
    for (int i = 0; i < n; i++)
        if (pyp_get_flat(f[i].obj, &b[i], f[i].want, f[i].size, f[i].n, f[i].writable,
                         f[i].name) != 0) {
            pyp_release_flats(b, i);
            return -1;
        }
    return 0;
}

void pyp_release_flats(Py_buffer *b, int n)
{
    for (int i = 0; i < n; i++)
        PyBuffer_Release(&b[i]);
}

int pyp_float_kind(PyObject *out, int *f64)
{
    Py_buffer b;
    if (PyObject_GetBuffer(out, &b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) != 0)
        return -1;
    *f64 = pyp_format_letter(b.format) == 'd';
    PyBuffer_Release(&b);
    return 0;
}


void pyp_tensor_release(pyp_tensor *t)
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
static int tensor_overlaps(const pyp_tensor *t, const char *name)
{
    Py_ssize_t ts = t->tok_stride, hs = t->head_stride, hd = t->head_dim;
    Py_ssize_t nt = t->n_tok, nh = t->n_head;
    if (nt == 0 || nh == 0 || t->batch == 0 || hd == 0)
        return 0;
    /* an axis of stride 0 (an expanded or broadcast view) */
    const struct {
        Py_ssize_t n, stride;
        const char *what, *why, *then;
    } axes[] = {
        {nh, hs, "heads", "head stride 0: an expanded or broadcast view",
         "; rotating one would rotate all:"},
        {nt, ts, "tokens", "token stride 0: an expanded or broadcast view", ";"},
        {t->batch, t->batch_stride, "batch entries", "batch stride 0", ";"}};
    for (int i = 0; i < 3; i++)
        if (axes[i].n > 1 && axes[i].stride == 0) {
            PyErr_Format(pyp_Error, "%s: its %zd %s share the same memory (%s)%s pass a copy",
                         name, axes[i].n, axes[i].what, axes[i].why, axes[i].then);
            return -1;
        }
    int tokens_outer = (nh == 1 || hs >= hd) && (nt == 1 || ts >= (nh - 1) * hs + hd);
    int heads_outer = (nt == 1 || ts >= hd) && (nh == 1 || hs >= (nt - 1) * ts + hd);
    if (!tokens_outer && !heads_outer) {
        PyErr_Format(pyp_Error,
                     "%s: its heads or tokens overlap in memory (token stride %zd, head stride "
                     "%zd elements, head_dim %zd): rotating one would change another; pass a "
                     "copy",
                     name, ts, hs, hd);
        return -1;
    }
    return 0;
}

/* A NumPy array (or any buffer) into t: base, ndim, dtype, itemsize, and
 * its shape and strides (elements). dtype_hint as pyp_get_tensor's. */
static int buffer_tensor(PyObject *obj, pyp_tensor *t, int writable, int dtype_hint,
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
    char c = pyp_format_letter(t->b.format);
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
        pyp_tensor_release(t);
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
            pyp_tensor_release(t);
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
int pyp_get_tensor(PyObject *obj, pyp_tensor *t, int writable, int dtype_hint, const char *name)
{
    memset(t, 0, sizeof *t);
    Py_ssize_t sh[4], st[4];
    if ((pyp_is_torch(obj) ? pyp_torch_tensor : buffer_tensor)(obj, t, writable, dtype_hint, name, sh,
                                                       st) != 0)
        return -1;
    Py_ssize_t sz = t->itemsize;
    int nd = t->ndim;
    if (nd < 2 || nd > 4) {
        PyErr_Format(PyExc_ValueError,
                     "%s has %d dimensions; expected [n_tok, head_dim], [n_tok, n_head, "
                     "head_dim] or [batch, n_head, seq, head_dim]",
                     name, nd);
        pyp_tensor_release(t);
        return -1;
    }
    if ((uintptr_t)t->base % (uintptr_t)sz != 0) {
        PyErr_Format(PyExc_ValueError,
                     "%s is not aligned to its %zd-byte elements; pass a copy", name, sz);
        pyp_tensor_release(t);
        return -1;
    }
    t->head_dim = sh[nd - 1];
    if (t->head_dim > 1 && st[nd - 1] != 1) {
        PyErr_Format(PyExc_ValueError,
                     "%s: the last axis (head_dim) must be contiguous (stride %zd elements); "
                     "pass a copy",
                     name, st[nd - 1]);
        pyp_tensor_release(t);
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
        pyp_tensor_release(t);
        return -1;
    }
    if (t->batch <= 1)
        t->batch_stride = 0;
    t->tok_stride = ts;
    t->head_stride = hs;
    if (tensor_overlaps(t, name) != 0) {
        pyp_tensor_release(t);
        return -1;
    }
    return 0;
}

/* Lowest and one-past-highest byte of a tensor. */
void pyp_tensor_extent(const pyp_tensor *t, char **lo, char **hi)
{
    Py_ssize_t sz = t->itemsize;
    char *b0 = t->base, *b1 = t->base + (t->batch - 1) * t->batch_stride * sz;
    char *first = b0 < b1 ? b0 : b1, *last = b0 < b1 ? b1 : b0;
    *lo = first;
    *hi = last + ((t->n_tok - 1) * t->tok_stride + (t->n_head - 1) * t->head_stride +
                  t->head_dim) * sz;
}

void pyp_positions_release(pyp_positions *p)
{
    if (p->held)
        PyBuffer_Release(&p->b);
    free(p->owned);
    p->held = 0;
    p->owned = NULL;
}

/* The integer elements of a positions buffer (p->b, held): address, kind
 * and size, and shape and byte strides (at most 2 axes read). -1 with a
 * TypeError naming a format that is not an integer's. */
static int buffer_positions(PyObject *obj, pyp_positions *p, const char **buf, int *nd,
                            Py_ssize_t *shape, Py_ssize_t *strides, Py_ssize_t *sz,
                            int *is_signed)
{
    if (PyObject_GetBuffer(obj, &p->b, PyBUF_STRIDES | PyBUF_FORMAT) != 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "positions must be an integer array, got %.80s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    p->held = 1;
    switch (pyp_format_letter(p->b.format)) {
    case 'b': case 'h': case 'i': case 'l': case 'q': *is_signed = 1; break;
    case 'B': case 'H': case 'I': case 'L': case 'Q': *is_signed = 0; break;
    default:
        PyErr_Format(PyExc_TypeError,
                     "positions must be integers (int64), got format '%s': those are not "
                     "token positions (posenc never truncates)",
                     p->b.format ? p->b.format : "B");
        return -1;
    }
    *buf = p->b.buf;
    *sz = p->b.itemsize;
    *nd = p->b.ndim;
    for (int i = 0; i < *nd && i < 2; i++) {
        shape[i] = p->b.shape[i];
        strides[i] = p->b.strides[i];
    }
    return 0;
}

/* Element e (sz bytes, signed or not) as int64; an unsigned value past
 * INT64_MAX becomes -1, which every position check refuses. */
static int64_t int64_at(const char *e, Py_ssize_t sz, int is_signed)
{
    if (is_signed)
        switch (sz) {
        case 1: return *(const int8_t *)e;
        case 2: return *(const int16_t *)e;
        case 4: return *(const int32_t *)e;
        default: return *(const int64_t *)e;
        }
    uint64_t u;
    switch (sz) {
    case 1: u = *(const uint8_t *)e; break;
    case 2: u = *(const uint16_t *)e; break;
    case 4: u = *(const uint32_t *)e; break;
    default: u = *(const uint64_t *)e; break;
    }
    return u > (uint64_t)INT64_MAX ? -1 : (int64_t)u;
}

/* Positions from an integer NumPy array or torch tensor of 1 or 2 axes,
 * copied into p->owned as int64. */
int pyp_get_positions(PyObject *obj, pyp_positions *p)
{
    memset(p, 0, sizeof *p);
    const char *buf;
    Py_ssize_t shape[4], strides[4], sz;
    int is_signed, nd;
    if ((pyp_is_torch(obj) ? pyp_torch_positions(obj, &buf, &nd, shape, strides, &sz, &is_signed)
                           : buffer_positions(obj, p, &buf, &nd, shape, strides, &sz,
                                              &is_signed)) != 0) {
        pyp_positions_release(p);
        return -1;
    }
    if (nd < 1 || nd > 2) {
        PyErr_Format(PyExc_ValueError, "positions must have 1 or 2 dimensions, got %d", nd);
        pyp_positions_release(p);
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
        pyp_positions_release(p);
        PyErr_NoMemory();
        return -1;
    }
    p->p = p->owned;
    if (contiguous) {
        if (n)
            memcpy(p->owned, buf, (size_t)n * sizeof *p->owned);
        return 0;
    }
    Py_ssize_t cols = p->ndim == 2 ? p->shape[1] : p->shape[0];
    Py_ssize_t rows = p->ndim == 2 ? p->shape[0] : 1;
    Py_ssize_t s0 = p->ndim == 2 ? strides[0] : 0, s1 = strides[p->ndim - 1];
    for (Py_ssize_t i = 0; i < rows; i++)
        for (Py_ssize_t j = 0; j < cols; j++)
            p->owned[i * cols + j] = int64_at(buf + i * s0 + j * s1, sz, is_signed);
    return 0;
}
static PyObject *numpy_ndarray, *numpy_shares; /* numpy.ndarray, numpy.shares_memory:
                                                * imported when first needed */

/* A NumPy array over t's elements ([batch, n_tok, n_head, head_dim] with
 * its strides), on a memoryview of its extent: NumPy's own view of t. */
static PyObject *ndarray_over(const pyp_tensor *t)
{
    char *lo, *hi;
    pyp_tensor_extent(t, &lo, &hi);
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
int pyp_shares_memory(const pyp_tensor *a, const pyp_tensor *b)
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
