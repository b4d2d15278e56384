/* airc — kernels: how an op's computation is plugged in, per device type
 * (part of the public API; included by airc/airc.h).
 *
 * A kernel is a C function called once per execution of a node, with the
 * node's arguments already bound to the op's schema positions: tensor
 * arguments as strided views (airc_tview), everything else as values.
 * Outputs arrive allocated from the node's meta (dtype, shape, strides),
 * except for view ops (AIRC_OP_VIEW) and in-place results, whose output
 * the executor points at the input's memory. */
#ifndef AIRC_KERNEL_H
#define AIRC_KERNEL_H

#include "airc/airc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A strided tensor in some device's memory. Strides are in elements.
 *  A kernel must honour the strides of inputs and outputs (views are not
 *  made contiguous for it). */
typedef struct airc_tview {
    void *data;
    airc_dtype dtype;
    int32_t ndim;
    int64_t shape[AIRC_MAX_DIMS];
    int64_t strides[AIRC_MAX_DIMS];
} airc_tview;

typedef struct airc_kernel_ctx airc_kernel_ctx;

/** A kernel. Returns AIRC_OK, or a status with a message set through
 *  airc_set_error (AIRC_E_RUNTIME for a computation that cannot proceed,
 *  AIRC_E_UNSUPPORTED for an argument combination it does not handle).
 *  Called from the runtime's worker threads: no thread-local state. */
typedef airc_status (*airc_kernel_fn)(airc_kernel_ctx *k, void *user_data);

/** Registers (or replaces) the kernel of an op for a device type ("cpu",
 *  "cuda", "npu"). Built-in ops have built-in CPU kernels; registering one
 *  for "cpu" overrides it in this context. user_data is freed with
 *  free_user_data when the context dies, a replaced kernel's too: graphs
 *  compiled or captured before the replacement keep calling the kernel
 *  they resolved (eager runs and new captures resolve it again).
 *  @return AIRC_OK, AIRC_E_NOT_FOUND (unknown op), AIRC_E_INVALID_ARGUMENT,
 *          AIRC_E_OUT_OF_MEMORY. Thread-safe (registry lock). */
AIRC_API airc_status airc_context_set_op_kernel(airc_context *ctx, const char *op,
                                                const char *device_type, airc_kernel_fn fn,
                                                void *user_data, airc_free_fn free_user_data);

/* Reading a kernel's arguments. `i` is the schema argument index. */

/** The node being executed (its name for messages, its meta). */
AIRC_API const airc_node *airc_kernel_node(const airc_kernel_ctx *k);
AIRC_API size_t airc_kernel_num_args(const airc_kernel_ctx *k);
/** The tensor bound to argument i, or NULL when the argument is not a
 *  tensor (a number given for a Tensor argument, None for Tensor?, ...). */
AIRC_API const airc_tview *airc_kernel_input(const airc_kernel_ctx *k, size_t i);
/** The value bound to argument i (the node's literal or the schema's
 *  default); NULL when absent. Tensor arguments are node values here. */
AIRC_API const airc_value *airc_kernel_arg(const airc_kernel_ctx *k, size_t i);
/** Tensor[] arguments (cat): length and items. */
AIRC_API size_t airc_kernel_input_list_length(const airc_kernel_ctx *k, size_t i);
AIRC_API const airc_tview *airc_kernel_input_list_item(const airc_kernel_ctx *k, size_t i,
                                                        size_t j);
AIRC_API size_t airc_kernel_num_outputs(const airc_kernel_ctx *k);
AIRC_API airc_tview *airc_kernel_output(airc_kernel_ctx *k, size_t i);
/** Threads the kernel may use (the runtime's budget for this stream). */
AIRC_API int32_t airc_kernel_num_threads(const airc_kernel_ctx *k);
/** The runtime's handle of the stream this launch runs on (the
 *  airc_stream_t the runtime passed to the launched function): a device
 *  kernel enqueues its work there. NULL when the kernel runs outside a
 *  stream launch (view kernels evaluated while a replay plan is built, the
 *  CPU runtime's inline replay of its main stream); CPU kernels ignore it.
 *  On airc's CUDA runtime it is never NULL for a launched kernel: it
 *  points at the runtime's stream object, whose first member is the
 *  cudaStream_t (`*(cudaStream_t *)airc_kernel_stream(k)`). */
AIRC_API void *airc_kernel_stream(const airc_kernel_ctx *k);

/** Sets this thread's last error (for kernels, passes, meta functions and
 *  other callbacks written outside airc); returns code. */
AIRC_API airc_status airc_set_error(airc_status code, const char *message);

#ifdef __cplusplus
}
#endif
#endif
