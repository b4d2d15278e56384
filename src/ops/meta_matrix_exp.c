/* Meta of linalg_matrix_exp (torch.linalg.matrix_exp, torch.matrix_exp):
 * torch 1.13's checks in its order and the layout of the tensor its
 * kernel returns, which depends on the matrix size:
 *   n == 0: A.clone() (A's layout preserved);
 *   n == 1: A.exp() (TensorIterator's output layout);
 *   n >= 2: A viewed as [-1, n, n] (a view torch fails where A's batch
 *           dims do not merge), the result empty_like that view, viewed
 *           back to A's shape.
 * f16 passes here as in torch: its n == 1 kernel is missing whatever the
 * data, the n >= 2 one fails or not by the matrices' norms (the CPU
 * kernel says which). */
#include "ops/meta_util.h"

#include <string.h>

airc_status airc_meta_linalg_matrix_exp(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta t;
    AIRC_TRY(airc_meta_tensor(&a, a.schema->args[0].name, &t));
    if (t.ndim < 2)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: linalg.matrix_exp: The input tensor A must have at least 2 "
                         "dimensions.",
                         a.op);
    int64_t rows = t.shape[t.ndim - 2], cols = t.shape[t.ndim - 1];
    if (rows != cols)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: linalg.matrix_exp: A must be batches of square matrices, but they "
                         "are %lld by %lld matrices",
                         a.op, (long long)rows, (long long)cols);
    if (!airc_dtype_is_floating(t.dtype))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: matrix_exp: Expected a floating point or complex tensor as input. "
                         "Got %s",
                         a.op, airc_dtype_torch_type_name(t.dtype));
    if (cols == 0)
        return airc_meta_set_clone(n, &t);
    airc_tmeta out = t;
    if (cols == 1) {
        if (t.dtype == AIRC_DTYPE_F16)
            return airc_fail(AIRC_E_SHAPE, "%s: \"exp_vml_cpu\" not implemented for 'Half'", a.op);
        airc_operand op = {.t = t, .present = true, .name = "self"};
        airc_meta_iter_strides(&op, 1, out.shape, out.ndim, out.strides);
        return airc_meta_set(n, &out);
    }
    /* a3 = A.view(-1, n, n) */
    airc_tmeta a3;
    memset(&a3, 0, sizeof a3);
    a3.dtype = t.dtype;
    a3.ndim = 3;
    a3.shape[0] = 1;
    for (int32_t i = 0; i < t.ndim - 2; i++)
        a3.shape[0] *= t.shape[i]; /* the numel fits: A exists */
    a3.shape[1] = a3.shape[2] = cols;
    if (!airc_meta_view_strides(&t, a3.shape, 3, a3.strides))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: view size is not compatible with input tensor's size and stride (at "
                         "least one dimension spans across two contiguous subspaces). Use "
                         ".reshape(...) instead.",
                         a.op);
    airc_tmeta r3 = a3;
    airc_meta_like_strides(&a3, AIRC_MEMORY_FORMAT_PRESERVE, true, r3.strides);
    if (!airc_meta_view_strides(&r3, t.shape, t.ndim, out.strides))
        airc_tmeta_contiguous(&out); /* not reached: r3 is dense */
    return airc_meta_set(n, &out);
}
