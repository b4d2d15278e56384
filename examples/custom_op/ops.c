/* The example's custom ops: every piece of seed 002, through airc's API. */
#include "ops.h"

#include <stdio.h>
#include <string.h>

/* ---- step 1: schemas ------------------------------------------------------- */

static const char MY_OP[] = "demo::my_op(Tensor x, float alpha) -> Tensor";
/* in-place, returning nothing (TorchAir's custom in-place form) */
static const char MY_INPLACE[] = "demo::my_inplace(Tensor(a!) x, float alpha) -> ()";

/* ---- step 2/3: kernels (strided f32; eager and both graph modes call them) -- */

static double alpha_of(const airc_kernel_ctx *k)
{
    double a = 1.0;
    int64_t i;
    const airc_value *v = airc_kernel_arg(k, 1);
    if (v && airc_value_get_float(v, &a) != AIRC_OK && airc_value_get_int(v, &i) == AIRC_OK)
        a = (double)i;
    return a;
}

/* Calls fn on every element of out (and the same index of in, when given). */
static void each(const airc_tview *in, airc_tview *out, double alpha,
                 float (*fn)(float x, double alpha))
{
    int64_t idx[AIRC_MAX_DIMS] = {0}, numel = 1;
    for (int32_t d = 0; d < out->ndim; d++)
        numel *= out->shape[d];
    for (int64_t n = 0; n < numel; n++) {
        int64_t oi = 0, ii = 0;
        for (int32_t d = 0; d < out->ndim; d++) {
            oi += idx[d] * out->strides[d];
            ii += idx[d] * in->strides[d];
        }
        ((float *)out->data)[oi] = fn(((const float *)in->data)[ii], alpha);
        for (int32_t d = out->ndim - 1; d >= 0 && ++idx[d] == out->shape[d]; d--)
            idx[d] = 0;
    }
}

static float scale_plus_one(float x, double alpha)
{
    return (float)(x * alpha + 1.0);
}

static float relu_scale(float x, double alpha)
{
    return (float)((x > 0 ? x : 0) * alpha);
}

static airc_status check_f32(const airc_tview *t, const char *op)
{
    if (!t || t->dtype != AIRC_DTYPE_F32) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s: x must be an f32 tensor", op);
        return airc_set_error(AIRC_E_UNSUPPORTED, msg);
    }
    return AIRC_OK;
}

static airc_status my_op_kernel(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x = airc_kernel_input(k, 0);
    if (check_f32(x, "demo.my_op") != AIRC_OK)
        return AIRC_E_UNSUPPORTED;
    each(x, airc_kernel_output(k, 0), alpha_of(k), scale_plus_one);
    return AIRC_OK;
}

static airc_status my_inplace_kernel(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    airc_tview *x = (airc_tview *)airc_kernel_input(k, 0);
    if (check_f32(x, "demo.my_inplace") != AIRC_OK)
        return AIRC_E_UNSUPPORTED;
    each(x, x, alpha_of(k), relu_scale);
    return AIRC_OK;
}

/* ---- step 4: meta functions (required for any graph mode) ------------------- */

static airc_status my_op_meta(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape;
    airc_status st = airc_value_meta(airc_node_arg(n, 0), &dt, &nd, &shape, NULL);
    if (st != AIRC_OK)
        return st;
    if (dt != AIRC_DTYPE_F32)
        return airc_set_error(AIRC_E_SHAPE, "demo.my_op: x must be f32");
    return airc_node_set_meta(n, dt, nd, shape, NULL);
}

/* An op returning () has no tensor to describe: an empty tuple. */
static airc_status my_inplace_meta(airc_node *n, void *user_data)
{
    (void)user_data;
    return airc_node_set_meta_tuple(n, 0);
}

/* ---- step 5: functionalization --------------------------------------------
 * Nothing to write: airc derives demo::my_inplace_functional(Tensor x, float
 * alpha) -> Tensor from the schema's (a!) (its kernel runs my_inplace on a
 * copy), and reduce-overhead puts the in-place op back where it is safe. */

/* ---- step 6: Ascend IR converters (max-autotune) ---------------------------- */

static airc_status emit(airc_ge_builder *b, const char *type, const char *out_name)
{
    airc_ge_tensor x, y;
    airc_ge_op *op;
    double alpha = 1.0;
    const airc_value *a = airc_ge_arg(b, 1);
    if (a)
        airc_value_get_float(a, &alpha);
    airc_status st = airc_ge_input(b, 0, &x);
    if (st == AIRC_OK)
        st = airc_ge_op_create(b, type, &op);
    if (st == AIRC_OK)
        st = airc_ge_op_input(op, "x", x);
    if (st == AIRC_OK)
        st = airc_ge_op_attr_float(op, "alpha", alpha);
    if (st == AIRC_OK)
        st = airc_ge_op_output_like_node(op, out_name, 0, &y);
    return st == AIRC_OK ? airc_ge_set_result(b, 0, y) : st;
}

static airc_status my_op_converter(airc_ge_builder *b, const airc_node *n, void *user_data)
{
    (void)n;
    (void)user_data;
    return emit(b, "MyOp", "y");
}

/* Called for the functionalized node: result 0 is x's new value, from an
 * in-place IR whose output is named like the input it overwrites. */
static airc_status my_inplace_converter(airc_ge_builder *b, const airc_node *n, void *user_data)
{
    (void)n;
    (void)user_data;
    return emit(b, "MyInplace", "x");
}

/* ---- registration ---------------------------------------------------------------- */

airc_status custom_op_register(airc_context *ctx)
{
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = MY_OP;
    def.meta = my_op_meta;
    airc_status st = airc_context_register_op(ctx, &def, NULL);
    if (st != AIRC_OK)
        return st;
    airc_op_def_init(&def);
    def.schema = MY_INPLACE;
    def.meta = my_inplace_meta;
    if ((st = airc_context_register_op(ctx, &def, NULL)) != AIRC_OK)
        return st;
    if ((st = airc_context_set_op_kernel(ctx, "demo.my_op.default", "cpu", my_op_kernel, NULL,
                                         NULL)) != AIRC_OK ||
        (st = airc_context_set_op_kernel(ctx, "demo.my_inplace.default", "cpu",
                                         my_inplace_kernel, NULL, NULL)) != AIRC_OK ||
        (st = airc_context_set_op_converter(ctx, "demo.my_op.default", my_op_converter, NULL,
                                            NULL)) != AIRC_OK ||
        (st = airc_context_set_op_converter(ctx, "demo.my_inplace.default",
                                            my_inplace_converter, NULL, NULL)) != AIRC_OK)
        return st;
    /* the reference executor runs the custom IR types with the ops */
    if ((st = airc_context_set_ge_op(ctx, "MyOp", "demo.my_op.default")) != AIRC_OK)
        return st;
    return airc_context_set_ge_op(ctx, "MyInplace", "demo.my_inplace.default");
}
