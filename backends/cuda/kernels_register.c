/* Registration of airc's CUDA kernels in a context (device type "cuda").
 *
 * View ops only compute their output's data pointer from their input's
 * (the executors allocate nothing for them), which is the same arithmetic
 * for device memory: the CPU view kernels are registered for "cuda" as
 * they are. They never dereference a tensor. */
#include "backends/cpu/cpu_kernels.h"
#include "backends/cuda/cuda_internal.h"

#include <string.h>

/* Device-agnostic view kernels taken from the CPU family table. */
static const char *const view_ops[] = {
    "aten._reshape_alias.default",
    "aten.alias.default",
    "aten.as_strided.default",
    "aten.detach.default",
    "aten.expand.default",
    "aten.lift.default",
    "aten.lift_fresh.default",
    "aten.permute.default",
    "aten.select.int",
    "aten.slice.Tensor",
    "aten.split.Tensor",
    "aten.split_with_sizes.default",
    "aten.squeeze.default",
    "aten.squeeze.dim",
    "aten.t.default",
    "aten.transpose.int",
    "aten.unbind.int",
    "aten.unsqueeze.default",
    "aten.view.default",
    "aten.view.dtype",
};

/* Registers fn for op unless the context already has a "cuda" kernel for
 * it (a user's override, or ours from an earlier runtime): registering is
 * idempotent and never undoes an application's choice. An op this build's
 * registry lacks is skipped. */
static airc_status register_one(airc_context *ctx, const char *qualname, airc_kernel_fn fn)
{
    const airc_op *op;
    if (!fn)
        return airc_fail(AIRC_E_INTERNAL, "cuda kernels: no kernel for %s", qualname);
    if (airc_registry_find(ctx, qualname, strlen(qualname), &op) != AIRC_OK)
        return AIRC_OK;
    airc_kernel_ref ref;
    if (airc_op_registered_kernel(op, "cuda", &ref))
        return AIRC_OK;
    return airc_context_set_op_kernel(ctx, qualname, "cuda", fn, NULL, NULL);
}

airc_status airc_cuda_register_kernels(airc_context *ctx)
{
    static const struct {
        const airc_cuda_kernel_entry *table;
        const size_t *count;
    } families[] = {
        {airc_cuda_kernels_ew, &airc_cuda_num_kernels_ew},
        {airc_cuda_kernels_linalg, &airc_cuda_num_kernels_linalg},
    };
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (size_t i = 0; i < *families[f].count; i++)
            AIRC_TRY(register_one(ctx, families[f].table[i].qualname, families[f].table[i].fn));
    for (size_t i = 0; i < sizeof view_ops / sizeof view_ops[0]; i++)
        AIRC_TRY(register_one(ctx, view_ops[i], airc_cpu_find_kernel(view_ops[i])));
    return AIRC_OK;
}
