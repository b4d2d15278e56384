/* Advanced indexing to and from Ascend IR, with TorchAir's choice:
 * index.Tensor(self, indices) -> IndexByTensor(x, indices0..) with the
 * attribute indices_mask (1 where indices holds a tensor, 0 for None), each
 * index Cast to int64. The raiser rebuilds the list, None where the mask
 * is 0. */
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"

#include <stdio.h>

static airc_status conv_index(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x, idx[AIRC_MAX_DIMS];
    AIRC_TRY(airc_ge_input(b, 0, &x));
    const airc_value *list = airc_ge_arg(b, 1);
    size_t len = airc_ge_input_list_length(b, 1), count = 0;
    if (!len || len > AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_UNSUPPORTED, "index: %zu indices (1 to %d)", len, AIRC_MAX_DIMS);
    int64_t mask[AIRC_MAX_DIMS];
    for (size_t j = 0; j < len; j++) {
        const airc_value *item = airc_value_item(list, j);
        mask[j] = item && item->kind != AIRC_VALUE_NONE;
        if (!mask[j])
            continue;
        AIRC_TRY(airc_ge_input_list_item(b, 1, j, &idx[count]));
        AIRC_TRY(airc_ge_cast(b, idx[count], AIRC_DTYPE_I64, &idx[count]));
        count++;
    }
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "IndexByTensor", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    for (size_t k = 0; k < count; k++) {
        char name[32];
        snprintf(name, sizeof name, "indices%zu", k);
        AIRC_TRY(airc_ge_op_input(op, name, idx[k]));
    }
    AIRC_TRY(airc_ge_op_attr_ints(op, "indices_mask", mask, len));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

/* IndexByTensor(x, indices0..; indices_mask) -> index.Tensor */
static airc_status raise_index(ge_raise *r)
{
    int64_t mask[AIRC_MAX_DIMS];
    size_t n = 0, count = 0;
    AIRC_TRY(airc_ge_attr_ints(r, "indices_mask", true, mask, AIRC_MAX_DIMS, &n));
    for (size_t j = 0; j < n; j++)
        count += mask[j] != 0;
    AIRC_TRY(airc_ge_raise_arity(r, 1 + count));
    const airc_value *items[AIRC_MAX_DIMS], *list = NULL;
    for (size_t j = 0, k = 1; j < n; j++)
        if (!(items[j] = mask[j] ? airc_ge_vnode(r, r->in[k++]) : airc_ge_vnone(r)))
            return airc_fail_oom("raised indices");
    airc_value_list(r->g, items, n, &list);
    const airc_value *args[2] = {airc_ge_vnode(r, r->in[0]), list};
    return airc_ge_raise_call(r, "aten.index.Tensor", args, 2, NULL, NULL, 0, &r->out[0]);
}

static const ge_conv_entry conv[] = {
    {"aten.index.Tensor", conv_index, NULL},
};

static const ge_raise_entry raise[] = {
    {"IndexByTensor", raise_index, NULL},
};

const ge_family airc_ge_family_index = {conv, sizeof conv / sizeof *conv, raise,
                                        sizeof raise / sizeof *raise};
