/* CUDA kernels, elementwise family (f32): unary ops, binary ops with
 * torch's broadcasting (Tensor and Scalar overloads, number operands,
 * alpha), their in-place forms, and strided copies (clone, contiguous,
 * reshape). The host side: argument checks, broadcasting and dimension
 * coalescing over the views' strides; the device code is kernels_ew.cu. */
#include "backends/cpu/k_shape_impl.h"
#include "backends/cuda/cuda_ew.h"
#include "backends/cuda/cuda_internal.h"

#include <string.h>

_Static_assert(AIRC_CUDA_MAX_DIMS == AIRC_MAX_DIMS, "cuda_ew.h's dimension bound");

airc_status airc_cuda_kernel_stream(const airc_kernel_ctx *k, airc_cuda_stream **out)
{
    airc_cuda_stream *s = k->stream;
    if (!s || s->magic != AIRC_MAGIC_CUDA_STREAM)
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED,
                             "airc's CUDA kernels run on streams of airc's CUDA runtime "
                             "(airc_cuda_runtime_create); this launch has %s",
                             s ? "a stream of another runtime" : "no stream");
    *out = s;
    return AIRC_OK;
}

static airc_status launched(const airc_kernel_ctx *k, int err, const char *what)
{
    if (err == cudaSuccess)
        return AIRC_OK;
    cudaGetLastError();
    return airc_cpu_fail(k, AIRC_E_RUNTIME, "launching the %s kernel failed: %s (%s)", what,
                         cudaGetErrorString((cudaError_t)err), cudaGetErrorName((cudaError_t)err));
}

static airc_status need_f32(const airc_kernel_ctx *k, const airc_tview *t, const char *what)
{
    if (t->dtype == AIRC_DTYPE_F32)
        return AIRC_OK;
    return airc_cpu_fail(k, AIRC_E_UNSUPPORTED, "%s is %s: the CUDA kernels take float32 only",
                         what, airc_dtype_name(t->dtype));
}

/* ---- layouts ----------------------------------------------------------------------------- */

/* The iteration space of out with up to two inputs already expanded to
 * its shape: size-1 dimensions dropped, then neighbours merged where every
 * operand is contiguous across them (stride[d] == stride[d+1] * shape[d+1]),
 * so that contiguous operands end as one dimension of unit stride. */
static void make_layout(airc_cuda_ew_layout *l, const airc_tview *out, const airc_tview *const *in,
                        int nin)
{
    memset(l, 0, sizeof *l);
    l->numel = airc_cpu_numel(out);
    int32_t n = 0;
    for (int32_t d = 0; d < out->ndim; d++) {
        if (out->shape[d] == 1)
            continue;
        l->shape[n] = out->shape[d];
        l->stride[0][n] = out->strides[d];
        for (int i = 0; i < nin; i++)
            l->stride[1 + i][n] = in[i] ? in[i]->strides[d] : 0;
        n++;
    }
    int32_t m = 0;
    for (int32_t d = 0; d < n; d++) {
        if (m > 0) {
            bool merge = true;
            for (int k = 0; k < 3 && merge; k++)
                merge = l->stride[k][m - 1] == l->stride[k][d] * l->shape[d];
            if (merge) {
                l->shape[m - 1] *= l->shape[d];
                for (int k = 0; k < 3; k++)
                    l->stride[k][m - 1] = l->stride[k][d];
                continue;
            }
        }
        l->shape[m] = l->shape[d];
        for (int k = 0; k < 3; k++)
            l->stride[k][m] = l->stride[k][d];
        m++;
    }
    l->ndim = m;
}

/* ---- unary ------------------------------------------------------------------------------- */

static airc_status unary(airc_kernel_ctx *k, int op, bool inplace)
{
    airc_cuda_stream *s = NULL;
    AIRC_TRY(airc_cuda_kernel_stream(k, &s));
    const airc_tview *x = k->nargs > 0 ? k->in[0] : NULL;
    if (!x)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "argument 0 must be a tensor");
    airc_tview *out = inplace ? airc_cpu_inplace_target(k) : &k->out[0];
    AIRC_TRY(need_f32(k, x, "the input"));
    AIRC_TRY(need_f32(k, out, "the result"));
    airc_tview xe;
    if (!airc_cpu_expand(x, out->shape, out->ndim, &xe))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "the input's shape does not match the result's");
    const airc_tview *ins[1] = {&xe};
    airc_cuda_ew_layout l;
    make_layout(&l, out, ins, 1);
    return launched(k, airc_cuda_ew_unary_f32(op, &l, out->data, xe.data, s->s), "unary");
}

#define UNARY(name, op)                                                                            \
    static airc_status k_##name(airc_kernel_ctx *k, void *ud)                                      \
    {                                                                                              \
        (void)ud;                                                                                  \
        return unary(k, op, false);                                                                \
    }                                                                                              \
    static airc_status k_##name##_(airc_kernel_ctx *k, void *ud)                                   \
    {                                                                                              \
        (void)ud;                                                                                  \
        return unary(k, op, true);                                                                 \
    }
UNARY(relu, AIRC_CUDA_UNARY_RELU)
UNARY(abs, AIRC_CUDA_UNARY_ABS)
UNARY(neg, AIRC_CUDA_UNARY_NEG)
UNARY(exp, AIRC_CUDA_UNARY_EXP)
UNARY(tanh, AIRC_CUDA_UNARY_TANH)
UNARY(sigmoid, AIRC_CUDA_UNARY_SIGMOID)

/* clone / contiguous / lift_fresh_copy: the result's layout from meta. */
static airc_status k_clone(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return unary(k, AIRC_CUDA_UNARY_COPY, false);
}

/* reshape / _unsafe_view: the input read in row-major order. */
static airc_status k_reshape(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    airc_cuda_stream *s = NULL;
    AIRC_TRY(airc_cuda_kernel_stream(k, &s));
    const airc_tview *x = k->nargs > 0 ? k->in[0] : NULL;
    if (!x)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "argument 0 must be a tensor");
    airc_tview *out = &k->out[0];
    AIRC_TRY(need_f32(k, x, "the input"));
    AIRC_TRY(need_f32(k, out, "the result"));
    int64_t n = airc_cpu_numel(out);
    if (n != airc_cpu_numel(x))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "result and input sizes differ");
    return launched(k,
                    airc_cuda_reshape_copy_f32(n, out->ndim, out->shape, out->strides, out->data,
                                               x->ndim, x->shape, x->strides, x->data, s->s),
                    "reshape");
}

/* ---- binary ------------------------------------------------------------------------------ */

/* An operand: a tensor expanded to the result's shape, or a number. */
typedef struct operand {
    airc_tview t;
    bool is_tensor;
    float value;
} operand;

static airc_status get_operand(airc_kernel_ctx *k, size_t i, const airc_tview *out, operand *o)
{
    memset(o, 0, sizeof *o);
    const airc_tview *t = i < k->nargs ? k->in[i] : NULL;
    if (t) {
        AIRC_TRY(need_f32(k, t, i ? "argument 1" : "argument 0"));
        if (!airc_cpu_expand(t, out->shape, out->ndim, &o->t))
            return airc_cpu_fail(k, AIRC_E_RUNTIME,
                                 "argument %zu does not broadcast to the result's shape", i);
        o->is_tensor = true;
        return AIRC_OK;
    }
    if (!airc_cpu_arg_present(k, i))
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "argument %zu is missing", i);
    o->value = (float)airc_cpu_arg_double(k, i, 0.0);
    return AIRC_OK;
}

/* out = a op b; alpha (argument 2) for add and sub. */
static airc_status binary(airc_kernel_ctx *k, int op, bool inplace)
{
    airc_cuda_stream *s = NULL;
    AIRC_TRY(airc_cuda_kernel_stream(k, &s));
    if (k->nargs < 1 || !k->in[0])
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "argument 0 must be a tensor");
    airc_tview *out = inplace ? airc_cpu_inplace_target(k) : &k->out[0];
    AIRC_TRY(need_f32(k, out, "the result"));
    operand a, b;
    AIRC_TRY(get_operand(k, 0, out, &a));
    AIRC_TRY(get_operand(k, 1, out, &b));
    float alpha = 1.0f;
    if (op == AIRC_CUDA_BINARY_ADD || op == AIRC_CUDA_BINARY_SUB)
        alpha = (float)airc_cpu_arg_double(k, 2, 1.0);
    const airc_tview *ins[2] = {a.is_tensor ? &a.t : NULL, b.is_tensor ? &b.t : NULL};
    airc_cuda_ew_layout l;
    make_layout(&l, out, ins, 2);
    return launched(k,
                    airc_cuda_ew_binary_f32(op, &l, out->data, a.is_tensor ? a.t.data : NULL,
                                            a.value, b.is_tensor ? b.t.data : NULL, b.value, alpha,
                                            s->s),
                    "binary");
}

#define BINARY(name, op)                                                                           \
    static airc_status k_##name(airc_kernel_ctx *k, void *ud)                                      \
    {                                                                                              \
        (void)ud;                                                                                  \
        return binary(k, op, false);                                                               \
    }                                                                                              \
    static airc_status k_##name##_(airc_kernel_ctx *k, void *ud)                                   \
    {                                                                                              \
        (void)ud;                                                                                  \
        return binary(k, op, true);                                                                \
    }
BINARY(add, AIRC_CUDA_BINARY_ADD)
BINARY(sub, AIRC_CUDA_BINARY_SUB)
BINARY(mul, AIRC_CUDA_BINARY_MUL)
BINARY(div, AIRC_CUDA_BINARY_DIV)

const airc_cuda_kernel_entry airc_cuda_kernels_ew[] = {
    {"aten._unsafe_view.default", k_reshape},
    {"aten.abs.default", k_abs},
    {"aten.abs_.default", k_abs_},
    {"aten.add.Scalar", k_add},
    {"aten.add.Tensor", k_add},
    {"aten.add_.Scalar", k_add_},
    {"aten.add_.Tensor", k_add_},
    {"aten.clone.default", k_clone},
    {"aten.contiguous.default", k_clone},
    {"aten.div.Scalar", k_div},
    {"aten.div.Tensor", k_div},
    {"aten.div_.Scalar", k_div_},
    {"aten.div_.Tensor", k_div_},
    {"aten.exp.default", k_exp},
    {"aten.exp_.default", k_exp_},
    {"aten.lift_fresh_copy.default", k_clone},
    {"aten.mul.Scalar", k_mul},
    {"aten.mul.Tensor", k_mul},
    {"aten.mul_.Scalar", k_mul_},
    {"aten.mul_.Tensor", k_mul_},
    {"aten.neg.default", k_neg},
    {"aten.neg_.default", k_neg_},
    {"aten.relu.default", k_relu},
    {"aten.relu_.default", k_relu_},
    {"aten.reshape.default", k_reshape},
    {"aten.sigmoid.default", k_sigmoid},
    {"aten.sigmoid_.default", k_sigmoid_},
    {"aten.sub.Scalar", k_sub},
    {"aten.sub.Tensor", k_sub},
    {"aten.sub_.Scalar", k_sub_},
    {"aten.sub_.Tensor", k_sub_},
    {"aten.tanh.default", k_tanh},
    {"aten.tanh_.default", k_tanh_},
};
const size_t airc_cuda_num_kernels_ew =
    sizeof airc_cuda_kernels_ew / sizeof airc_cuda_kernels_ew[0];
