/* _dlpack.h - the part of the DLPack exchange format (dlpack.h, version
 * 0.x: the "dltensor" capsule that torch.utils.dlpack.to_dlpack returns)
 * that the extension reads, written from the format's specification.
 *
 * A capsule named "dltensor" holds a DLManagedTensor. The exporter's
 * memory stays its own: a consumer that does not take the tensor over
 * leaves the capsule's name as it is, and the capsule's destructor then
 * calls the deleter (the export holds a reference to the tensor, so its
 * memory lives at least as long as the capsule).
 *
 * Layout of element (i0, .., i_{n-1}): data + byte_offset +
 * (sum_j i_j * strides[j]) * bits / 8, strides in elements; strides NULL
 * means compact row-major.
 */
#ifndef PYPOSENC_DLPACK_H
#define PYPOSENC_DLPACK_H

#include <stdint.h>

enum { PYDL_CPU = 1 }; /* DLDeviceType kDLCPU */

/* DLDataTypeCode */
enum { PYDL_INT = 0, PYDL_UINT = 1, PYDL_FLOAT = 2, PYDL_BFLOAT = 4 };

typedef struct pydl_device {
    int32_t device_type;
    int32_t device_id;
} pydl_device;

typedef struct pydl_dtype {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
} pydl_dtype;

typedef struct pydl_tensor {
    void *data;
    pydl_device device;
    int32_t ndim;
    pydl_dtype dtype;
    int64_t *shape;
    int64_t *strides; /* elements; NULL: compact row-major */
    uint64_t byte_offset;
} pydl_tensor;

typedef struct pydl_managed {
    pydl_tensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct pydl_managed *self);
} pydl_managed;

#endif
