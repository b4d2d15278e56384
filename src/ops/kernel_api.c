/* Kernel registration per device type and the accessors custom kernels use
 * to read their arguments. */
#include "ops/kernel.h"

#include <string.h>

void airc_tview_from_meta(airc_tview *t, const airc_tmeta *m)
{
    memset(t, 0, sizeof *t);
    t->dtype = m->dtype;
    t->ndim = m->ndim;
    for (int32_t i = 0; i < m->ndim; i++) {
        t->shape[i] = m->shape[i];
        t->strides[i] = m->strides[i];
    }
}

size_t airc_tview_span_bytes(const airc_tview *t)
{
    size_t span = 1;
    for (int32_t i = 0; i < t->ndim; i++) {
        if (t->shape[i] == 0)
            return 0;
        span += (size_t)(t->shape[i] - 1) * (size_t)t->strides[i];
    }
    return span * airc_dtype_size(t->dtype);
}

airc_status airc_context_set_op_kernel(airc_context *ctx, const char *opname,
                                       const char *device_type, airc_kernel_fn fn,
                                       void *user_data, airc_free_fn free_user_data)
{
    static const char fn_name[] = "airc_context_set_op_kernel";
    AIRC_TRY(airc_check_context(ctx, fn_name));
    if (!opname || !device_type || !*device_type || !fn)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: NULL or empty argument", fn_name);
    const airc_op *cop;
    AIRC_TRY(airc_registry_find(ctx, opname, strlen(opname), &cop));
    airc_op *op = (airc_op *)cop;
    airc_status st = AIRC_OK;
    airc_registry_lock(ctx);
    size_t i = 0;
    while (i < op->nkernels && strcmp(op->kernels[i].device_type, device_type))
        i++;
    if (i == op->nkernels) {
        char *dev = airc_strdup(ctx, device_type);
        if (!dev || !airc_grow(ctx, (void **)&op->kernels, &op->kernels_cap, op->nkernels + 1,
                               sizeof *op->kernels)) {
            airc_free(ctx, dev);
            st = airc_fail_oom("op kernel");
        } else {
            op->kernels[op->nkernels++] = (airc_op_kernel){dev, NULL, NULL, NULL};
        }
    }
    if (st == AIRC_OK &&
        !airc_registry_retire(ctx, op->kernels[i].user_data, op->kernels[i].free_user_data, NULL))
        st = AIRC_E_OUT_OF_MEMORY;
    if (st == AIRC_OK) {
        op->kernels[i].fn = (airc_generic_fn)fn;
        op->kernels[i].user_data = user_data;
        op->kernels[i].free_user_data = free_user_data;
    }
    airc_registry_unlock(ctx);
    return st;
}

bool airc_op_registered_kernel(const airc_op *op, const char *device_type, airc_kernel_ref *out)
{
    /* the list may grow while another thread registers a kernel */
    bool found = false;
    airc_registry_lock(op->schema->ctx);
    for (size_t i = 0; i < op->nkernels && !found; i++) {
        if (!strcmp(op->kernels[i].device_type, device_type)) {
            out->fn = (airc_kernel_fn)op->kernels[i].fn;
            out->user_data = op->kernels[i].user_data;
            found = true;
        }
    }
    airc_registry_unlock(op->schema->ctx);
    return found;
}

const airc_node *airc_kernel_node(const airc_kernel_ctx *k)
{
    return k ? k->node : NULL;
}

size_t airc_kernel_num_args(const airc_kernel_ctx *k)
{
    return k ? k->nargs : 0;
}

const airc_tview *airc_kernel_input(const airc_kernel_ctx *k, size_t i)
{
    return k && i < k->nargs ? k->in[i] : NULL;
}

const airc_value *airc_kernel_arg(const airc_kernel_ctx *k, size_t i)
{
    return k && i < k->nargs ? k->args[i] : NULL;
}

size_t airc_kernel_input_list_length(const airc_kernel_ctx *k, size_t i)
{
    return k && i < k->nargs && k->in_list_len ? k->in_list_len[i] : 0;
}

const airc_tview *airc_kernel_input_list_item(const airc_kernel_ctx *k, size_t i, size_t j)
{
    if (j >= airc_kernel_input_list_length(k, i) || !k->in_list[i])
        return NULL;
    return &k->in_list[i][j];
}

size_t airc_kernel_num_outputs(const airc_kernel_ctx *k)
{
    return k ? k->nout : 0;
}

airc_tview *airc_kernel_output(airc_kernel_ctx *k, size_t i)
{
    return k && i < k->nout ? &k->out[i] : NULL;
}

int32_t airc_kernel_num_threads(const airc_kernel_ctx *k)
{
    return k && k->num_threads > 0 ? k->num_threads : 1;
}

void *airc_kernel_stream(const airc_kernel_ctx *k)
{
    return k ? k->stream : NULL;
}

airc_status airc_context_set_op_converter(airc_context *ctx, const char *opname,
                                          airc_ge_converter_fn fn, void *user_data,
                                          airc_free_fn free_user_data)
{
    static const char fn_name[] = "airc_context_set_op_converter";
    AIRC_TRY(airc_check_context(ctx, fn_name));
    if (!opname || !fn)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: NULL argument", fn_name);
    const airc_op *cop;
    AIRC_TRY(airc_registry_find(ctx, opname, strlen(opname), &cop));
    airc_op *op = (airc_op *)cop;
    airc_registry_lock(ctx);
    bool kept = airc_registry_retire(ctx, op->converter_user_data, op->converter_free, NULL);
    if (kept) {
        op->converter = (airc_generic_fn)fn;
        op->converter_user_data = user_data;
        op->converter_free = free_user_data;
    }
    airc_registry_unlock(ctx);
    return kept ? AIRC_OK : AIRC_E_OUT_OF_MEMORY;
}

bool airc_op_registered_converter(const airc_op *op, airc_ge_converter_fn *fn, void **user_data)
{
    airc_registry_lock(op->schema->ctx);
    bool found = op->converter != NULL;
    if (found) {
        *fn = (airc_ge_converter_fn)op->converter;
        *user_data = op->converter_user_data;
    }
    airc_registry_unlock(op->schema->ctx);
    return found;
}
