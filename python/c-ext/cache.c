/* cache.c - posenc._core.Cache: a Rope's cos/sin cache (posenc_rope_cache
 * through calls.h), an object of its own so that a call that released the
 * GIL keeps it alive while another thread replaces the Rope's cache. */
#include "pyposenc.h"

static void Cache_dealloc(CacheObject *self)
{
    pyposenc_rope_cache_free(self->cache);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyTypeObject pyp_CacheType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "posenc._core.Cache",
    .tp_basicsize = sizeof(CacheObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A cos/sin cache of one RoPE (posenc_rope_cache).",
    .tp_dealloc = (destructor)Cache_dealloc,
};

CacheObject *pyp_cache_new(const posenc_rope *r, int64_t max_pos)
{
    void *c = NULL;
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = pyposenc_rope_cache_create(r, max_pos, &c);
    Py_END_ALLOW_THREADS
    if (st != POSENC_OK)
        return (CacheObject *)pyp_raise_status(st, "RoPE.cache", NULL);
    CacheObject *co = PyObject_New(CacheObject, &pyp_CacheType);
    if (!co) {
        pyposenc_rope_cache_free(c);
        return NULL;
    }
    co->cache = c;
    co->max_pos = max_pos;
    return co;
}
