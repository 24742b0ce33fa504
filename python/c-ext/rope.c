/* rope.c - posenc._core.Rope: one layer's RoPE (its model, layer and
 * length), with apply (q and k rotated in place or into outputs), cos_sin,
 * inv_freq and the getters that posenc.RoPE reads. */
#include "pyposenc.h"

#include <stdlib.h>
#include <string.h>

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
    CacheObject *co = pyp_cache_new(&self->r, n);
    if (!co)
        return NULL;
    self->cache = co;
    Py_XDECREF(old);
    Py_RETURN_NONE;
}

static PyObject *Rope_get_cache_len(RopeObject *s, void *c)
{
    (void)c;
    return PyLong_FromLongLong(s->cache ? s->cache->max_pos : 0);
}


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
        return (RopeObject *)pyp_raise_status(
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
        return pyp_raise_range(POSENC_ERR_DIM, "RoPE", "head_dim", head_dim, 1,
                           POSENC_ROPE_MAX_HEAD_DIM, " (the largest head dimension posenc rotates)");
    if (rotary_dim < 0 || rotary_dim > head_dim)
        return pyp_raise_range(POSENC_ERR_DIM, "RoPE", "rotary_dim", rotary_dim, 0, head_dim,
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
    if (st == POSENC_ERR_RANGE && !detail[0]) /* say which argument */
        pyposenc_config_blame(&cfg, detail, sizeof detail);
    if (st != POSENC_OK)
        return pyp_raise_status(st, "RoPE", detail);
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
    if (st == POSENC_ERR_FORMAT) /* a dict or a PretrainedConfig is no file */
        return pyp_raise_said(st, "RoPE.from_config", "malformed config", detail);
    if (st != POSENC_OK)
        return pyp_raise_status(st, "RoPE.from_config", detail);
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
        return pyp_raise_status(st, "RoPE", NULL);
    return (PyObject *)rope_new_from(Py_TYPE(self), m, self->layer, n, self->indexer);
}

/* inv_freq(out_hi[, out_lo]): rotary_dim/2 doubles each. */
static PyObject *Rope_inv_freq(RopeObject *self, PyObject *args)
{
    PyObject *ohi, *olo = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &ohi, &olo))
        return NULL;
    Py_ssize_t P = self->r.rotary_dim / 2;
    const pyp_flat f[] = {{ohi, 'd', 8, P, 1, "out"}, {olo, 'd', 8, P, 1, "out_lo"}};
    const double *v[] = {self->r.inv_freq_hi, self->r.inv_freq_lo};
    int n = olo != Py_None ? 2 : 1;
    Py_buffer b[2];
    if (pyp_get_flats(f, b, n) != 0)
        return NULL;
    for (int i = 0; i < n; i++)
        memcpy(b[i].buf, v[i], (size_t)P * sizeof(double));
    pyp_release_flats(b, n);
    Py_RETURN_NONE;
}

/* model_info() -> (model_type, part, mrope, hf_module): what the config
 * reader read the layer as (posenc_model_type, posenc_model_part: "" for a
 * RoPE not from a config, or a config's top), the layer's M-RoPE as
 * ((s_t, s_h, s_w), rule name), or None when the layer has none, and the
 * family's transformers module convention
 * (posenc_model_hf_module_convention: "plain", "complex", "interleave"). */
static PyObject *Rope_model_info(RopeObject *self, PyObject *noargs)
{
    (void)noargs;
    const char *type, *part, *rule, *hf;
    uint32_t sec[3];
    (void)pyposenc_model_info(self->model, self->layer, &type, &part, sec, &rule, &hf);
    if (!rule)
        return Py_BuildValue("(ssOs)", type, part, Py_None, hf);
    return Py_BuildValue("(ss((III)s)s)", type, part, sec[0], sec[1], sec[2], rule, hf);
}

/* rope_rows() -> (rows, rotary_value): posenc_model_layer_rope_rows of the
 * layer (RoFormer's cos/sin table rows, 0: any position; 1 when the values
 * turn too). */
static PyObject *Rope_rope_rows(RopeObject *self, PyObject *noargs)
{
    (void)noargs;
    int64_t rows;
    int values;
    (void)pyposenc_model_rope_rows(self->model, self->layer, &rows, &values);
    return Py_BuildValue("(Li)", (long long)rows, values);
}

/* sense() -> 1 or -1: the sense the layer's q and k turn in
 * (posenc_model_layer_rope_sense; -1: NanoChat, whose frequencies are held
 * negated; 1 for a RoPE not from a config). */
static PyObject *Rope_sense(RopeObject *self, PyObject *noargs)
{
    (void)noargs;
    const char *type;
    return PyLong_FromLong(pyposenc_model_sense(self->model, self->layer, &type) < 0 ? -1 : 1);
}

static PyObject *Rope_cos_sin(RopeObject *self, PyObject *args)
{
    PyObject *opos, *oc, *os;
    long threads = 1;
    int f64;
    if (!PyArg_ParseTuple(args, "OOOl", &opos, &oc, &os, &threads) ||
        pyp_check_threads(threads, "RoPE.cos_sin") != 0 || pyp_float_kind(oc, &f64) != 0)
        return NULL;
    pyp_positions p;
    if (pyp_get_positions(opos, &p) != 0)
        return NULL;
    Py_ssize_t n = p.shape[0] * (p.ndim == 2 ? p.shape[1] : 1);
    Py_ssize_t P = self->r.rotary_dim / 2, sz = f64 ? 8 : 4;
    const pyp_flat f[] = {{oc, f64 ? 'd' : 'f', sz, n * P, 1, "cos"},
                          {os, f64 ? 'd' : 'f', sz, n * P, 1, "sin"}};
    Py_buffer b[2];
    if (pyp_get_flats(f, b, 2) != 0) {
        pyp_positions_release(&p);
        return NULL;
    }
    int st = POSENC_OK;
    size_t chunk = n < 1024 ? (size_t)n : 1024;
    void *scratch = n > 0 ? malloc((f64 ? 1 : chunk) * self->r.head_dim * (size_t)sz) : NULL;
    if (n > 0 && !scratch) {
        st = POSENC_ERR_NOMEM;
    } else if (n > 0) {
        Py_BEGIN_ALLOW_THREADS
        if (f64)
            st = pyposenc_rope_cos_sin_f64(&self->r, (size_t)n, p.p, b[0].buf, b[1].buf,
                                           scratch);
        else
            st = pyposenc_rope_cos_sin_f32(&self->r, (size_t)n, p.p, b[0].buf, b[1].buf,
                                           scratch, chunk, (unsigned)threads);
        Py_END_ALLOW_THREADS
    }
    free(scratch);
    pyp_release_flats(b, 2);
    pyp_positions_release(&p);
    return pyp_result(st, "RoPE.cos_sin");
}

/* One call of apply: its operands as the kernels see them. */
typedef struct apply_call {
    pyp_tensor q, k, qo, ko; /* k, qo, ko unused (zero) when absent */
    pyp_positions p;         /* p.p NULL: pos0, pos0 + 1, ... */
    int has_k, out_of_place, per_batch;
} apply_call;

static void apply_release(apply_call *c)
{
    pyp_tensor_release(&c->q);
    pyp_tensor_release(&c->k);
    pyp_tensor_release(&c->qo);
    pyp_tensor_release(&c->ko);
    pyp_positions_release(&c->p);
}

static int same_shape(const pyp_tensor *a, const pyp_tensor *b)
{
    return a->ndim == b->ndim && a->n_tok == b->n_tok && a->batch == b->batch &&
           a->n_head == b->n_head && a->head_dim == b->head_dim;
}

/* q, k and the outputs into c, their shapes checked against each other and
 * head_dim. -1 with the error set. */
static int apply_tensors(apply_call *c, const RopeObject *self, PyObject *oq, PyObject *ok,
                         PyObject *oqo, PyObject *oko, int dtype)
{
    Py_ssize_t hd = (Py_ssize_t)self->r.head_dim;
    if (pyp_get_tensor(oq, &c->q, !c->out_of_place, dtype, "q") != 0 ||
        (c->has_k && pyp_get_tensor(ok, &c->k, !c->out_of_place, c->q.dtype, "k") != 0) ||
        (c->out_of_place && pyp_get_tensor(oqo, &c->qo, 1, c->q.dtype, "q_out") != 0) ||
        (c->out_of_place && c->has_k && pyp_get_tensor(oko, &c->ko, 1, c->q.dtype, "k_out") != 0))
        return -1;
    if (c->q.head_dim != hd || (c->has_k && c->k.head_dim != hd)) {
        PyErr_Format(PyExc_ValueError, "the last axis of q%s is %zd; this RoPE has head_dim %u",
                     c->has_k ? " and k" : "", c->q.head_dim != hd ? c->q.head_dim : c->k.head_dim,
                     self->r.head_dim);
        return -1;
    }
    if (c->has_k && (c->k.ndim != c->q.ndim || c->k.n_tok != c->q.n_tok ||
                     c->k.batch != c->q.batch)) {
        PyErr_SetString(PyExc_ValueError,
                        "q and k must have the same number of dimensions, tokens (seq) and "
                        "batch; only their head counts may differ");
        return -1;
    }
    if (c->out_of_place &&
        (!same_shape(&c->qo, &c->q) || (c->has_k && !same_shape(&c->ko, &c->k)))) {
        PyErr_SetString(PyExc_ValueError, "q_out and k_out must have the shapes of q and k");
        return -1;
    }
    return 0;
}

/* The positions (None: pos0, pos0 + 1, ...) into c->p, shaped [n_tok] or,
 * for a 4-D q, [batch or 1, n_tok]; with several batch rows every position
 * is checked first, so that a bad one in a later row writes nothing. -1 with
 * the error set. */
static int apply_positions(apply_call *c, PyObject *opos)
{
    if (opos == Py_None)
        return 0;
    pyp_positions *p = &c->p;
    if (pyp_get_positions(opos, p) != 0)
        return -1;
    Py_ssize_t n_tok = c->q.n_tok, batch = c->q.batch;
    int four = c->q.ndim == 4;
    if (!((p->ndim == 1 && p->shape[0] == n_tok) ||
          (p->ndim == 2 && four && p->shape[1] == n_tok &&
           (p->shape[0] == batch || p->shape[0] == 1)))) {
        if (p->ndim == 1)
            PyErr_Format(PyExc_ValueError,
                         "positions must have shape [%zd]%s (one per token), got [%zd]", n_tok,
                         four ? " or [batch, seq]" : "", p->shape[0]);
        else
            PyErr_Format(PyExc_ValueError,
                         "positions must have shape [%zd]%s (one per token), got [%zd, %zd]",
                         n_tok, four ? " or [batch, seq]" : "", p->shape[0], p->shape[1]);
        return -1;
    }
    c->per_batch = p->ndim == 2 && p->shape[0] == batch && batch > 1;
    if (batch > 1 && n_tok > 0) {
        Py_ssize_t total = p->ndim == 2 ? p->shape[0] * p->shape[1] : p->shape[0];
        for (Py_ssize_t i = 0; i < total; i++)
            if (p->p[i] < 0 || p->p[i] > POSENC_MAX_POS) {
                char msg[200];
                snprintf(msg, sizeof msg, "position %lld (index %zd) is outside 0 .. %lld",
                         (long long)p->p[i], i, (long long)POSENC_MAX_POS);
                pyp_raise_status(POSENC_ERR_POS, "RoPE.apply", msg);
                return -1;
            }
    }
    return 0;
}

/* In place, q and k must not share an element. -1 with the error set if
 * they do. */
static int apply_disjoint(const apply_call *c)
{
    if (!c->has_k || c->out_of_place || c->k.n_head == 0 || c->q.n_head == 0 ||
        c->q.n_tok == 0 || c->q.batch == 0)
        return 0;
    char *ql, *qh, *kl, *kh;
    pyp_tensor_extent(&c->q, &ql, &qh);
    pyp_tensor_extent(&c->k, &kl, &kh);
    if (!(ql < kh && kl < qh))
        return 0;
    int sh = pyp_shares_memory(&c->q, &c->k);
    if (sh > 0)
        PyErr_SetString(PyExc_ValueError, "q and k share memory: rotating them in place "
                        "together would turn the shared elements twice");
    return sh != 0 ? -1 : 0;
}

/* The Rope's cache when it covers every position of the call, else NULL
 * (a new reference: the cache outlives a set_cache of another thread). */
static CacheObject *apply_cache(const RopeObject *self, const apply_call *c, int64_t pos0)
{
    CacheObject *cache = self->cache;
    if (!cache)
        return NULL;
    int64_t top = pos0 + c->q.n_tok - 1;
    if (c->p.p) {
        Py_ssize_t total = c->p.ndim == 2 ? c->p.shape[0] * c->p.shape[1] : c->p.shape[0];
        top = -1;
        for (Py_ssize_t i = 0; i < total; i++)
            if (c->p.p[i] > top)
                top = c->p.p[i];
    }
    if (top >= cache->max_pos)
        return NULL;
    Py_INCREF(cache);
    return cache;
}

static void fill_view(pyposenc_view *v, const pyp_tensor *dst, const pyp_tensor *src,
                      Py_ssize_t bi)
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

/* Every batch row through posenc_rope_qk (a->pos0, a->inverse, a->n_threads
 * set by the caller); the GIL is released for 16384 elements or more. */
static int apply_rotate(const RopeObject *self, const apply_call *c, pyposenc_qk_args *a)
{
    const pyp_tensor *q = &c->q, *k = &c->k;
    Py_ssize_t n_tok = q->n_tok, batch = q->batch;
    int use_q = q->n_head > 0, use_k = c->has_k && k->n_head > 0;
    if (n_tok == 0 || batch == 0 || (!use_q && !use_k)) /* nothing to rotate */
        return POSENC_OK;
    CacheObject *cache = apply_cache(self, c, a->pos0);
    pyposenc_view qv, kv;
    a->rope = &self->r;
    a->cache = cache ? cache->cache : NULL;
    a->dtype = (posenc_dtype)q->dtype;
    a->n_tok = (size_t)n_tok;
    a->q = use_q ? &qv : NULL;
    a->k = use_k ? &kv : NULL;
    int64_t pos0 = a->pos0;
    size_t elems = (size_t)batch * (size_t)n_tok *
                   (size_t)(q->n_head + (c->has_k ? k->n_head : 0)) * (size_t)q->head_dim;
    int st = POSENC_OK;
    PyThreadState *ts = elems >= 16384 ? PyEval_SaveThread() : NULL;
    for (Py_ssize_t bi = 0; bi < batch && st == POSENC_OK; bi++) {
        if (use_q)
            fill_view(&qv, c->out_of_place ? &c->qo : q, c->out_of_place ? q : NULL, bi);
        if (use_k)
            fill_view(&kv, c->out_of_place ? &c->ko : k, c->out_of_place ? k : NULL, bi);
        a->pos = c->p.p ? c->p.p + (c->per_batch ? bi * n_tok : 0) : NULL;
        a->pos0 = a->pos ? 0 : pos0;
        st = pyposenc_rope_qk(a);
    }
    if (ts)
        PyEval_RestoreThread(ts);
    Py_XDECREF(cache);
    return st;
}

/* apply(q, k=None, positions=None, pos0=0, inverse=False, threads=1,
 *       dtype=-1, q_out=None, k_out=None), by position or keyword
 * The keywords are posenc_rope_qk_args' fields (calls.h pyposenc_qk_args):
 * positions .pos, pos0 .pos0, inverse .direction, threads .n_threads,
 * dtype .dtype (-1: q's own). With q_out (and k_out when k is given) the
 * inputs are read only and the results go to the outs, which must have the
 * inputs' shapes. Nothing is written when a check fails. */
static PyObject *Rope_apply(RopeObject *self, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames)
{
    static const char *const names[] = {"q", "k", "positions", "pos0", "inverse",
                                        "threads", "dtype", "q_out", "k_out"};
    enum { Q, K, POS, POS0, INVERSE, THREADS, DTYPE, Q_OUT, K_OUT, N_ARGS };
    PyObject *v[N_ARGS];
    if (pyp_parse_fast(args, nargs, kwnames, names, N_ARGS, N_ARGS, 1, v, "RoPE.apply") != 0)
        return NULL;
    long long pos0 = v[POS0] ? PyLong_AsLongLong(v[POS0]) : 0;
    int inverse = v[INVERSE] ? PyObject_IsTrue(v[INVERSE]) : 0;
    long threads = v[THREADS] ? PyLong_AsLong(v[THREADS]) : 1;
    long dtype = v[DTYPE] ? PyLong_AsLong(v[DTYPE]) : -1;
    if (PyErr_Occurred() || inverse < 0 || pyp_check_threads(threads, "RoPE.apply") != 0)
        return NULL;
    if (pos0 < 0 || pos0 > POSENC_MAX_POS)
        return pyp_raise_range(POSENC_ERR_POS, "RoPE.apply", "pos0", pos0, 0, POSENC_MAX_POS,
                               "");
    apply_call c;
    memset(&c, 0, sizeof c);
    c.has_k = v[K] && v[K] != Py_None;
    c.out_of_place = v[Q_OUT] && v[Q_OUT] != Py_None;
    pyposenc_qk_args a = {.pos0 = pos0, .inverse = inverse, .n_threads = (unsigned)threads};
    int st = POSENC_OK;
    if (apply_tensors(&c, self, v[Q], v[K], v[Q_OUT], v[K_OUT], (int)dtype) == 0 &&
        apply_positions(&c, v[POS] ? v[POS] : Py_None) == 0 && apply_disjoint(&c) == 0)
        st = apply_rotate(self, &c, &a);
    apply_release(&c);
    return PyErr_Occurred() ? NULL : pyp_result(st, "RoPE.apply");
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
     "model_info() -> (model_type, part, ((s_t, s_h, s_w), rule) or None, hf_module)"},
    {"rope_rows", (PyCFunction)Rope_rope_rows, METH_NOARGS,
     "rope_rows() -> (table rows or 0, rotary_value)"},
    {"sense", (PyCFunction)Rope_sense, METH_NOARGS, "sense() -> 1, or -1 (q and k turn by -theta)"},
    {"cos_sin", (PyCFunction)Rope_cos_sin, METH_VARARGS, "cos_sin(positions, cos, sin, threads)"},
    {"apply", (PyCFunction)(void (*)(void))Rope_apply, METH_FASTCALL | METH_KEYWORDS,
     "apply(q, k=None, positions=None, pos0=0, inverse=False, threads=1, dtype=-1, "
     "q_out=None, k_out=None)"},
    {NULL, NULL, 0, NULL}};

PyTypeObject pyp_RopeType = {
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

