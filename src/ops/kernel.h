/* Internal layout of a kernel call, shared by the executors (which fill it)
 * and the built-in kernels (which read it directly; custom kernels use the
 * accessors of include/airc/kernel.h). */
#ifndef AIRC_OPS_KERNEL_H
#define AIRC_OPS_KERNEL_H

#include "airc/ge.h"
#include "airc/kernel.h"
#include "ops/ops.h"

struct airc_kernel_ctx {
    const airc_node *node;
    const airc_op *op;
    uint32_t nargs;               /* schema arguments */
    const airc_value **args;      /* bound values, airc_schema_bind order */
    const airc_tview **in;        /* per argument: the tensor, or NULL */
    const airc_tview **in_list;   /* per argument: a Tensor[] list's views (array), or NULL */
    uint32_t *in_list_len;        /* per argument: its length (0 if not a list) */
    uint32_t nout;
    airc_tview *out;              /* allocated from meta, or set by view kernels */
    int32_t num_threads;
    airc_context *ctx;
    void *stream; /* the runtime stream of the launch (airc_kernel_stream); NULL outside one */
};

/* Fills t from a meta (data NULL). */
AIRC_HIDDEN void airc_tview_from_meta(airc_tview *t, const airc_tmeta *m);
/* Bytes spanned by t's strided layout (0 for an empty tensor). */
AIRC_HIDDEN size_t airc_tview_span_bytes(const airc_tview *t);

/* The kernel an op has registered in its context for a device type
 * (airc_context_set_op_kernel); false when none. Built-in CPU kernels are
 * found by the executor (src/exec/), not here: ops/ sits below backends/. */
typedef struct airc_kernel_ref {
    airc_kernel_fn fn;
    void *user_data;
} airc_kernel_ref;
AIRC_HIDDEN bool airc_op_registered_kernel(const airc_op *op, const char *device_type,
                                           airc_kernel_ref *out);

/* The converter an op has registered in its context
 * (airc_context_set_op_converter); false when none. Built-in converters are
 * found by the lowering (backends/ge), not here. */
AIRC_HIDDEN bool airc_op_registered_converter(const airc_op *op, airc_ge_converter_fn *fn,
                                              void **user_data);

#endif
