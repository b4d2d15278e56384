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
 * kernel says which). Also the constants of torch's algorithm, which the
 * CPU kernel and the GE lowering share (meta_util.h). */
#include "ops/meta_util.h"

#include <string.h>

/* torch's bounds on the 1-norm for degrees 1, 2, 4, 8, 12, 18 */
const double airc_matrix_exp_theta_f32[6] = {1.192092800768788e-07, 5.978858893805233e-04,
                                             5.116619363445086e-02, 5.800524627688768e-01,
                                             1.461661507209034e+00, 3.010066362817634e+00};
const double airc_matrix_exp_theta_f64[6] = {2.220446049250313e-16, 2.580956802971767e-08,
                                             3.397168839976962e-04, 4.991228871115323e-02,
                                             2.996158913811580e-01, 1.090863719290036e+00};

/* Degree 18: B_i = sum_j b18[i][j] P_j over P = (I, A, A^2, A^3, A^6) */
const double airc_matrix_exp_b18[5][5] = {
    {0., -1.00365581030144618291e-01, -8.02924648241156932449e-03, -8.92138498045729985177e-04, 0.},
    {0., 3.97849749499645077844e-01, 1.36783778460411720168e+00, 4.98289622525382669416e-01,
     -6.37898194594723280150e-04},
    {-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
     -6.98210122488052056106e-03, 3.34975017086070470649e-05},
    {-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
     2.95552570429315521194e-02, -1.39180257516060693404e-05},
    {0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02,
     -1.40086798182036094347e-05}};

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
