/* pyposenc.h - the internal header of the C extension posenc._core: the
 * object structs of its types and what one file of the extension offers the
 * others. Laid out by type, as python-zstandard's c-ext/:
 *
 *   args.c      posenc.Error, range checks and keyword parsing shared by all
 *   buffers.c   NumPy arrays (buffer protocol) as q/k tensors and positions
 *   dlpack.c    CPU torch tensors read through their DLPack export
 *   rope.c      posenc._core.Rope (a layer's RoPE; apply, cos_sin, getters)
 *   cache.c     posenc._core.Cache (a Rope's cos/sin cache)
 *   learned.c   posenc._core.Learned (a learned position table)
 *   module.c    the module functions (tables, ALiBi, T5) and PyInit__core
 *   calls.[ch]  the only door into libposenc (also for check.c, the module
 *               posenc._check)
 *
 * No file here but calls.c calls a posenc_* function: posenc.h and
 * posenc_model.h are included for their types and macros only. The public,
 * documented API is the Python layer in posenc/__init__.py.
 */
#ifndef PYPOSENC_H
#define PYPOSENC_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include "calls.h"
#include "dlpack.h"

/* ---- args.c -------------------------------------------------------------- */

extern PyObject *pyp_Error; /* posenc.Error, a ValueError (set by PyInit__core) */

/* Raises the exception for status st: posenc.Error (a ValueError) with a
 * status attribute, MemoryError for POSENC_ERR_NOMEM, OSError for
 * POSENC_ERR_IO. The message is "what: <posenc_strerror>[: detail]".
 * Returns NULL. */
PyObject *pyp_raise_status(int st, const char *what, const char *detail);
/* The same with `said` in place of posenc_strerror(st). */
PyObject *pyp_raise_said(int st, const char *what, const char *said, const char *detail);

/* posenc.Error (status st) "what: name must be lo .. hi<why>, got v": an
 * argument outside its range, said before the library would narrow it.
 * Returns NULL. */
PyObject *pyp_raise_range(int st, const char *what, const char *name, long long v,
                          long long lo, long long hi, const char *why);

/* An integer argument and its range (st: the status of a refusal). */
typedef struct pyp_range {
    const char *name;
    long long v, lo, hi;
    int st;
} pyp_range;
/* 0 when every r[i].v is in r[i].lo .. r[i].hi, else -1 with
 * pyp_raise_range's error for the first that is not. */
int pyp_check_ranges(const char *what, const pyp_range *r, size_t n);

/* None for POSENC_OK, else pyp_raise_status(st, what, NULL). */
PyObject *pyp_result(int st, const char *what);

/* The one rule for a thread count (apply, cos_sin, alibi_bias, t5_bias):
 * 1 .. POSENC_MAX_THREADS, else -1 with posenc.Error naming who and the value. */
int pyp_check_threads(long threads, const char *who);

/* METH_FASTCALL | METH_KEYWORDS arguments into out[0 .. n) by name (names[],
 * the first max_positional also by position; NULL: not given). -1 with a
 * TypeError naming `who` for an unknown, repeated or missing argument (the
 * first n_required are required). */
int pyp_parse_fast(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                   const char *const *names, int n, int max_positional, int n_required,
                   PyObject **out, const char *who);

/* ---- buffers.c: arrays as the kernels see them ------------------------------ */

/* The element type letter of a buffer format ("<f" -> 'f'), or 0 when the
 * format is not a single native little-endian scalar. */
char pyp_format_letter(const char *fmt);

/* A writable (or readable), C-contiguous buffer of n elements of format
 * letter want (element size size). On error raises and returns -1. */
int pyp_get_flat(PyObject *obj, Py_buffer *b, char want, Py_ssize_t size, Py_ssize_t n,
                 int writable, const char *name);

/* Several pyp_get_flat buffers at once: all of them (0), or none (-1, the
 * ones already taken released). */
typedef struct pyp_flat {
    PyObject *obj;
    char want;
    Py_ssize_t size, n;
    int writable;
    const char *name;
} pyp_flat;
int pyp_get_flats(const pyp_flat *f, Py_buffer *b, int n);
void pyp_release_flats(Py_buffer *b, int n);

/* *f64 = whether out (a writable C-contiguous buffer) holds float64 ('d'),
 * else float32 is asked of it. -1 with the buffer's error. */
int pyp_float_kind(PyObject *out, int *f64);

/* A q or k tensor as the kernels see it: batch x [n_tok tokens, n_head
 * heads, head_dim elements], strides in elements. */
typedef struct pyp_tensor {
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
} pyp_tensor;

/* q, k or an output as the kernels see it: a NumPy array (buffer protocol)
 * or a CPU torch tensor (DLPack). dtype_hint: -1 infer from the array, else
 * a posenc_dtype it must have. -1 with an exception naming `name` if not. */
int pyp_get_tensor(PyObject *obj, pyp_tensor *t, int writable, int dtype_hint,
                   const char *name);
void pyp_tensor_release(pyp_tensor *t);
/* Lowest and one-past-highest byte of a tensor. */
void pyp_tensor_extent(const pyp_tensor *t, char **lo, char **hi);
/* Whether a and b (which overlap in extent) share an element (numpy's
 * exact test); -1 with an exception set on failure. */
int pyp_shares_memory(const pyp_tensor *a, const pyp_tensor *b);

/* Positions as a contiguous int64 copy (p->p) of 1 or 2 axes (ndim, shape). */
typedef struct pyp_positions {
    Py_buffer b;
    int held;
    int64_t *owned;
    const int64_t *p;
    int ndim;
    Py_ssize_t shape[2];
} pyp_positions;

/* Positions from an integer NumPy array or torch tensor of 1 or 2 axes,
 * copied into p->owned as int64 (made under the GIL: see buffers.c). */
int pyp_get_positions(PyObject *obj, pyp_positions *p);
void pyp_positions_release(pyp_positions *p);

/* ---- dlpack.c: CPU torch tensors ------------------------------------------ */

/* Whether obj is a torch.Tensor (known once posenc.torch called use_torch). */
int pyp_is_torch(PyObject *obj);
/* A torch tensor's memory into t (t->capsule keeps the export): base, ndim,
 * dtype, itemsize, and its shape and strides (elements) into sh, st. */
int pyp_torch_tensor(PyObject *obj, pyp_tensor *t, int writable, int dtype_hint,
                     const char *name, Py_ssize_t *sh, Py_ssize_t *st);
/* A torch tensor of positions: its integer elements' address, kind and
 * size, and shape and byte strides (at most 2 axes read). */
int pyp_torch_positions(PyObject *obj, const char **buf, int *nd, Py_ssize_t *shape,
                        Py_ssize_t *strides, Py_ssize_t *sz, int *is_signed);
/* use_torch(torch.Tensor, to_dlpack): the module function. */
PyObject *pyp_use_torch(PyObject *m, PyObject *args);

/* ---- the types ---------------------------------------------------------------- */

/* A cos/sin cache (posenc_rope_cache) for positions 0 .. max_pos - 1, its
 * own object so that a call that released the GIL keeps it alive. */
typedef struct CacheObject {
    PyObject_HEAD
    void *cache;
    int64_t max_pos;
} CacheObject;
extern PyTypeObject pyp_CacheType;
/* A new cache of r for positions 0 .. max_pos - 1 (built with the GIL
 * released), or NULL with posenc.Error / MemoryError set. */
CacheObject *pyp_cache_new(const posenc_rope *r, int64_t max_pos);

typedef struct RopeObject {
    PyObject_HEAD
    posenc_rope_config cfg; /* the layer's configuration, for the getters */
    posenc_model *model;    /* the model the RoPE comes from (owned), and its layer */
    uint32_t layer;
    int indexer;            /* 1: the layer's indexer RoPE (DeepSeek V3.2), not its attention's */
    posenc_rope r;          /* the layer's RoPE at seq_len, from the library's per-layer call */
    int64_t seq_len;
    CacheObject *cache;     /* NULL: none */
} RopeObject;
extern PyTypeObject pyp_RopeType;

typedef struct LearnedObject {
    PyObject_HEAD
    void *t;
    size_t n_pos, dim;
} LearnedObject;
extern PyTypeObject pyp_LearnedType;

/* ---- module.c ------------------------------------------------------------------- */

PyMODINIT_FUNC PyInit__core(void);

#endif
