/* torch 1.13's fused inference attention to Ascend IR, as composites of
 * basic ops (TorchAir has no converter for either):
 * _native_multi_head_attention -> MatMul of the rows by qkv_weight
 * (transpose_x2; one for a self-attention, else three of its SplitV
 * thirds), Add of qkv_bias, Mul of q by 1/sqrt(head_dim), Reshape and
 * Transpose to [B*H, T, head_dim], BatchMatMul q k^T (adj_x2), SelectV2
 * of -inf where the mask (Cast to bool; a [B, T] one Reshaped to
 * [B, 1, 1, T]) is true, SoftmaxV2 over the keys, BatchMatMul by v,
 * Transpose back, MatMul by proj_weight (transpose_x2) and Add of
 * proj_bias; the weights are the softmax (ReduceSum over the heads and
 * RealDiv by their count when averaged), a [0] Fill without need_weights.
 * _transformer_encoder_layer_fwd -> that attention, Add of the residuals,
 * LayerNormV3 over embed_dim, MatMul / Add / Relu or Gelu / MatMul / Add for
 * the feed-forward. _masked_softmax -> the same SelectV2 and SoftmaxV2.
 * All in f32 for bf16 (f64 for f64), Cast once at the
 * end, as the CPU kernels. Every op emitted has its raiser in another
 * family. */
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"

#include <math.h>
#include <string.h>

/* The attention's inputs and sizes. */
typedef struct attn {
    airc_dtype ct;
    int64_t B, T, D, H, E;
    airc_ge_tensor x[3]; /* query, key, value as [B*T, D] (one tensor: self-attention) */
    bool self;
    size_t w_arg, mask_arg, mask_type_arg; /* qkv_weight (then qkv_bias, proj_*), mask */
} attn;

/* x1 @ x2 (x2 transposed when t2): a MatMul of [rows, cols], or for n > 0
 * a BatchMatMul of [n, rows, cols]. */
static airc_status matmul(airc_ge_builder *b, airc_ge_tensor x1, airc_ge_tensor x2, bool t2,
                          airc_dtype ct, int64_t n, int64_t rows, int64_t cols, airc_ge_tensor *out)
{
    bool batch = n > 0;
    int64_t shape[3] = {n, rows, cols};
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, batch ? "BatchMatMul" : "MatMul", &op));
    AIRC_TRY(airc_ge_op_input(op, "x1", x1));
    AIRC_TRY(airc_ge_op_input(op, "x2", x2));
    AIRC_TRY(airc_ge_op_attr_bool(op, batch ? "adj_x1" : "transpose_x1", 0));
    AIRC_TRY(airc_ge_op_attr_bool(op, batch ? "adj_x2" : "transpose_x2", t2));
    return airc_ge_op_output(op, "y", ct, batch ? 3 : 2, batch ? shape : shape + 1, out);
}

/* x + y (y broadcast) of shape (nd, shape). */
static airc_status add(airc_ge_builder *b, airc_ge_tensor x, airc_ge_tensor y, airc_dtype ct,
                       int32_t nd, const int64_t *shape, airc_ge_tensor *out)
{
    airc_ge_tensor in[2] = {x, y};
    return airc_ge_ew_op(b, "Add", in, 2, ct, nd, shape, out);
}

/* x [rows, k] @ (argument w_arg)^T + argument b_arg: a [rows, n] linear. */
static airc_status linear(airc_ge_builder *b, airc_ge_tensor x, size_t w_arg, size_t b_arg,
                          airc_dtype ct, int64_t rows, int64_t n, airc_ge_tensor *out)
{
    airc_ge_tensor w, bias;
    int64_t shape[2] = {rows, n};
    AIRC_TRY(airc_ge_operand(b, w_arg, ct, &w));
    AIRC_TRY(airc_ge_operand(b, b_arg, ct, &bias));
    AIRC_TRY(matmul(b, x, w, true, ct, 0, rows, n, out));
    return add(b, *out, bias, ct, 2, shape, out);
}

/* SplitV of x (nd, shape) into 3 equal parts along axis. */
static airc_status split3(airc_ge_builder *b, airc_ge_tensor x, airc_dtype ct, int32_t nd,
                          const int64_t *shape, int32_t axis, airc_ge_tensor *out)
{
    int64_t part = shape[axis] / 3, sizes[3] = {part, part, part}, ps[AIRC_MAX_DIMS];
    airc_ge_tensor sz, dim;
    AIRC_TRY(airc_ge_const_ints(b, sizes, 3, &sz));
    AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I32, 0, NULL, &axis, &dim));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "SplitV", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "size_splits", sz));
    AIRC_TRY(airc_ge_op_input(op, "split_dim", dim));
    AIRC_TRY(airc_ge_op_attr_int(op, "num_split", 3));
    memcpy(ps, shape, sizeof *ps * (size_t)nd);
    ps[axis] = part;
    static const char *const names[3] = {"y0", "y1", "y2"};
    for (int i = 0; i < 3; i++)
        AIRC_TRY(airc_ge_op_output(op, names[i], ct, nd, ps, &out[i]));
    return AIRC_OK;
}

/* Transpose of a 4-d x by perm (a Const), its result (ct, shape). */
static airc_status transpose4(airc_ge_builder *b, airc_ge_tensor x, const int64_t *perm,
                              airc_dtype ct, const int64_t *shape, airc_ge_tensor *out)
{
    airc_ge_tensor p;
    AIRC_TRY(airc_ge_const_ints(b, perm, 4, &p));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Transpose", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "perm", p));
    return airc_ge_op_output(op, "y", ct, 4, shape, out);
}

/* [B*T, D] rows as [B*H, T, hd] heads (swap: back from heads to rows). */
static airc_status heads(airc_ge_builder *b, const attn *a, airc_ge_tensor x, bool back,
                         airc_ge_tensor *out)
{
    int64_t hd = a->D / a->H, bthd[4] = {a->B, a->T, a->H, hd}, bhtd[4] = {a->B, a->H, a->T, hd};
    int64_t perm[4] = {0, 2, 1, 3}, bh[3] = {a->B * a->H, a->T, hd}, rows[2] = {a->B * a->T, a->D};
    if (!back) {
        AIRC_TRY(airc_ge_reshape(b, x, a->ct, 4, bthd, &x));
        AIRC_TRY(transpose4(b, x, perm, a->ct, bhtd, &x));
        return airc_ge_reshape(b, x, a->ct, 3, bh, out);
    }
    AIRC_TRY(airc_ge_reshape(b, x, a->ct, 4, bhtd, &x));
    AIRC_TRY(transpose4(b, x, perm, a->ct, bthd, &x));
    return airc_ge_reshape(b, x, a->ct, 2, rows, out);
}

/* The attention of a (its arguments from a->w_arg on: qkv_weight,
 * qkv_bias, proj_weight, proj_bias): *out [B*T, E]; *probs the softmax
 * [B, H, T, T] (NULL: not wanted). */
static airc_status attention(airc_ge_builder *b, const attn *a, airc_ge_tensor *out,
                             airc_ge_tensor *probs)
{
    airc_dtype ct = a->ct;
    int64_t N = a->B * a->T, D = a->D, H = a->H, T = a->T, BH = a->B * H, hd = D / H;
    int64_t rows3[2] = {N, 3 * D}, rows[2] = {N, D}, w3[2] = {3 * D, D}, b3[1] = {3 * D};
    airc_ge_tensor w, wb, qkv[3], t[2];
    AIRC_TRY(airc_ge_operand(b, a->w_arg, ct, &w));
    AIRC_TRY(airc_ge_operand(b, a->w_arg + 1, ct, &wb));
    if (a->self) {
        AIRC_TRY(matmul(b, a->x[0], w, true, ct, 0, N, 3 * D, &t[0]));
        AIRC_TRY(add(b, t[0], wb, ct, 2, rows3, &t[0]));
        AIRC_TRY(split3(b, t[0], ct, 2, rows3, 1, qkv));
    } else {
        airc_ge_tensor ws[3], bs[3];
        AIRC_TRY(split3(b, w, ct, 2, w3, 0, ws));
        AIRC_TRY(split3(b, wb, ct, 1, b3, 0, bs));
        for (int i = 0; i < 3; i++) {
            AIRC_TRY(matmul(b, a->x[i], ws[i], true, ct, 0, N, D, &qkv[i]));
            AIRC_TRY(add(b, qkv[i], bs[i], ct, 2, rows, &qkv[i]));
        }
    }
    /* q / sqrt(head_dim), as torch: 1 / sqrt in the compute type */
    double inv = ct == AIRC_DTYPE_F64 ? 1.0 / sqrt((double)hd) : (float)(1.0 / sqrtf((float)hd));
    t[0] = qkv[0];
    AIRC_TRY(airc_ge_const_scalar(b, ct, inv, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, ct, 2, rows, &qkv[0]));
    for (int i = 0; i < 3; i++)
        AIRC_TRY(heads(b, a, qkv[i], false, &qkv[i]));
    airc_ge_tensor s;
    int64_t bhtt[4] = {a->B, H, T, T}, bhtt3[3] = {BH, T, T};
    AIRC_TRY(matmul(b, qkv[0], qkv[1], true, ct, BH, T, T, &s));
    AIRC_TRY(airc_ge_reshape(b, s, ct, 4, bhtt, &s));
    if (airc_ge_arg_present(b, a->mask_arg)) {
        const airc_value *mv = airc_ge_arg(b, a->mask_arg);
        const airc_tmeta *mm = &mv->u.node->out[0];
        airc_ge_tensor m, ninf;
        AIRC_TRY(airc_ge_input(b, a->mask_arg, &m));
        AIRC_TRY(airc_ge_cast(b, m, AIRC_DTYPE_BOOL, &m));
        if (mm->ndim == 2) { /* a key padding mask: [B, 1, 1, T] */
            int64_t pad[4] = {a->B, 1, 1, T};
            AIRC_TRY(airc_ge_reshape(b, m, AIRC_DTYPE_BOOL, 4, pad, &m));
        }
        AIRC_TRY(airc_ge_const_scalar(b, ct, -INFINITY, &ninf));
        AIRC_TRY(airc_ge_select(b, m, ninf, s, ct, 4, bhtt, &s));
    }
    airc_ge_op *op;
    int64_t axis = 3;
    AIRC_TRY(airc_ge_op_create(b, "SoftmaxV2", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", s));
    AIRC_TRY(airc_ge_op_attr_ints(op, "axes", &axis, 1));
    AIRC_TRY(airc_ge_op_attr_bool(op, "half_to_float", 0));
    AIRC_TRY(airc_ge_op_output(op, "y", ct, 4, bhtt, &s));
    if (probs)
        *probs = s;
    airc_ge_tensor ctx;
    AIRC_TRY(airc_ge_reshape(b, s, ct, 3, bhtt3, &s));
    AIRC_TRY(matmul(b, s, qkv[2], false, ct, BH, T, hd, &ctx));
    AIRC_TRY(heads(b, a, ctx, true, &ctx));
    return linear(b, ctx, a->w_arg + 2, a->w_arg + 3, ct, N, a->E, out);
}

/* Argument arg as the compute type's [B*T, D] rows. */
static airc_status rows_of(airc_ge_builder *b, const attn *a, size_t arg, airc_ge_tensor *out)
{
    int64_t rows[2] = {a->B * a->T, a->D};
    AIRC_TRY(airc_ge_operand(b, arg, a->ct, out));
    return airc_ge_reshape(b, *out, a->ct, 2, rows, out);
}

/* Whether arguments i and j are one graph value. */
static bool same_arg(airc_ge_builder *b, size_t i, size_t j)
{
    const airc_value *x = airc_ge_arg(b, i), *y = airc_ge_arg(b, j);
    return x && y && x->kind == AIRC_VALUE_NODE && y->kind == AIRC_VALUE_NODE &&
           x->u.node == y->u.node;
}

/* A result with no element (torch's early returns): a Fill. */
static airc_status empty_result(airc_ge_builder *b, const airc_tmeta *m, size_t j)
{
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_fill(b, m->dtype, m->ndim, m->shape, 0, &y));
    return airc_ge_set_result(b, j, y);
}

/* t (the compute type) as the node's result j: Reshape, Cast. */
static airc_status result(airc_ge_builder *b, const airc_node *n, airc_ge_tensor t, size_t j)
{
    const airc_tmeta *m = &n->out[j];
    AIRC_TRY(airc_ge_reshape(b, t, airc_ge_compute_dtype(m->dtype), m->ndim, m->shape, &t));
    AIRC_TRY(airc_ge_cast(b, t, m->dtype, &t));
    return airc_ge_set_result(b, j, t);
}

/* _native_multi_head_attention(query, key, value, embed_dim, num_head,
 * qkv_weight, qkv_bias, proj_weight, proj_bias, mask, need_weights,
 * average_attn_weights, mask_type) */
static airc_status conv_mha(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *q = &n->inputs[0]->out[0], *om = &n->out[0];
    if (airc_tmeta_numel(q) == 0 || n->nout < 2) { /* torch's early return */
        AIRC_TRY(empty_result(b, om, 0));
        return empty_result(b, &n->out[1], 1);
    }
    attn a = {.ct = airc_ge_compute_dtype(om->dtype),
              .B = q->shape[0],
              .T = q->shape[1],
              .D = q->shape[2],
              .H = airc_ge_int_arg(b, 4, 1),
              .E = om->shape[2],
              .w_arg = 5,
              .mask_arg = 9};
    if (q->ndim != 3 || a.H <= 0 || a.D % a.H)
        return airc_fail(AIRC_E_INVALID_GRAPH, "%s: inconsistent sizes", n->target);
    bool kq = same_arg(b, 0, 1), vk = same_arg(b, 1, 2);
    a.self = kq && vk;
    AIRC_TRY(rows_of(b, &a, 0, &a.x[0]));
    a.x[1] = a.x[2] = a.x[0];
    if (!kq)
        AIRC_TRY(rows_of(b, &a, 1, &a.x[1]));
    if (vk)
        a.x[2] = a.x[1];
    else
        AIRC_TRY(rows_of(b, &a, 2, &a.x[2]));
    bool need = airc_ge_bool_arg(b, 10, true), average = airc_ge_bool_arg(b, 11, true);
    airc_ge_tensor y, p;
    AIRC_TRY(attention(b, &a, &y, need ? &p : NULL));
    AIRC_TRY(result(b, n, y, 0));
    if (!need)
        return empty_result(b, &n->out[1], 1);
    if (average) { /* torch: sum(1), then /= num_heads */
        int64_t axis = 1, btt[3] = {a.B, a.T, a.T};
        airc_ge_tensor t[2];
        AIRC_TRY(airc_ge_reduce(b, "ReduceSum", p, &axis, 1, false, a.ct, 3, btt, &t[0]));
        AIRC_TRY(airc_ge_const_scalar(b, a.ct, (double)a.H, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "RealDiv", t, 2, a.ct, 3, btt, &p));
    }
    return result(b, n, p, 1);
}

/* LayerNormV3 of rows x [N, D] by arguments w_arg, w_arg + 1 (its y). */
static airc_status layer_norm(airc_ge_builder *b, const attn *a, airc_ge_tensor x, size_t w_arg,
                              double eps, airc_ge_tensor *out)
{
    int64_t N = a->B * a->T, rows[2] = {N, a->D}, stat[2] = {N, 1};
    airc_ge_tensor g, be, unused;
    AIRC_TRY(airc_ge_operand(b, w_arg, a->ct, &g));
    AIRC_TRY(airc_ge_operand(b, w_arg + 1, a->ct, &be));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "LayerNormV3", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "gamma", g));
    AIRC_TRY(airc_ge_op_input(op, "beta", be));
    AIRC_TRY(airc_ge_op_attr_int(op, "begin_norm_axis", 1));
    AIRC_TRY(airc_ge_op_attr_int(op, "begin_params_axis", 1));
    AIRC_TRY(airc_ge_op_attr_float(op, "epsilon", eps));
    AIRC_TRY(airc_ge_op_output(op, "y", a->ct, 2, rows, out));
    AIRC_TRY(airc_ge_op_output(op, "mean", a->ct, 2, stat, &unused));
    return airc_ge_op_output(op, "rstd", a->ct, 2, stat, &unused);
}

/* _transformer_encoder_layer_fwd(src, embed_dim, num_heads, qkv_weight,
 * qkv_bias, proj_weight, proj_bias, use_gelu, norm_first, eps,
 * norm_weight_1, norm_bias_1, norm_weight_2, norm_bias_2, ffn_weight_1,
 * ffn_bias_1, ffn_weight_2, ffn_bias_2, mask, mask_type) */
static airc_status conv_encoder_layer(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *src = &n->inputs[0]->out[0], *om = &n->out[0];
    if (airc_tmeta_numel(src) == 0)
        return empty_result(b, om, 0);
    const airc_value *w1 = airc_ge_arg(b, 14);
    attn a = {.ct = airc_ge_compute_dtype(om->dtype),
              .B = src->shape[0],
              .T = src->shape[1],
              .D = src->shape[2],
              .H = airc_ge_int_arg(b, 2, 1),
              .w_arg = 3,
              .mask_arg = 18,
              .self = true};
    a.E = a.D;
    if (src->ndim != 3 || om->ndim != 3 || a.H <= 0 || a.D % a.H || !w1 ||
        w1->kind != AIRC_VALUE_NODE || w1->u.node->out[0].ndim != 2)
        return airc_fail(AIRC_E_INVALID_GRAPH, "%s: inconsistent sizes", n->target);
    bool gelu = airc_ge_bool_arg(b, 7, false), norm_first = airc_ge_bool_arg(b, 8, false);
    double eps = airc_ge_number_arg(b, 9, 1e-5);
    int64_t N = a.B * a.T, F = w1->u.node->out[0].shape[0], E2 = om->shape[2];
    int64_t rows[2] = {N, a.D}, ff[2] = {N, F}, out2[2] = {N, E2};
    airc_ge_tensor x, h, y;
    AIRC_TRY(rows_of(b, &a, 0, &x));
    h = x;
    if (norm_first)
        AIRC_TRY(layer_norm(b, &a, x, 10, eps, &h));
    a.x[0] = a.x[1] = a.x[2] = h;
    AIRC_TRY(attention(b, &a, &y, NULL));
    AIRC_TRY(add(b, y, x, a.ct, 2, rows, &x));
    if (!norm_first)
        AIRC_TRY(layer_norm(b, &a, x, 10, eps, &x));
    h = x;
    if (norm_first)
        AIRC_TRY(layer_norm(b, &a, x, 12, eps, &h));
    AIRC_TRY(linear(b, h, 14, 15, a.ct, N, F, &h));
    AIRC_TRY(airc_ge_ew_op(b, gelu ? "Gelu" : "Relu", &h, 1, a.ct, 2, ff, &h));
    AIRC_TRY(linear(b, h, 16, 17, a.ct, N, E2, &y));
    AIRC_TRY(add(b, y, x, a.ct, 2, out2, &y));
    if (!norm_first)
        AIRC_TRY(layer_norm(b, &a, y, 12, eps, &y));
    return result(b, n, y, 0);
}

/* _masked_softmax(self, mask, dim?, mask_type?) -> SelectV2 of -inf where
 * the mask is true, SoftmaxV2 over dim (a row masked whole: NaN, as
 * torch), in f32 for bf16 and Cast back; a 0-d self as [1]. */
static airc_status conv_masked_softmax(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_dtype ct = airc_ge_compute_dtype(om->dtype);
    int32_t nd = om->ndim ? om->ndim : 1;
    int64_t one = 1, dim = airc_ge_int_arg(b, 2, nd - 1);
    const int64_t *shape = om->ndim ? om->shape : &one;
    dim = dim < 0 ? dim + nd : dim;
    airc_ge_tensor x, m, ninf, y;
    AIRC_TRY(airc_ge_operand(b, 0, ct, &x));
    AIRC_TRY(airc_ge_operand(b, 1, AIRC_DTYPE_BOOL, &m));
    if (!om->ndim) {
        AIRC_TRY(airc_ge_reshape(b, x, ct, 1, &one, &x));
        AIRC_TRY(airc_ge_reshape(b, m, AIRC_DTYPE_BOOL, 1, &one, &m));
    }
    AIRC_TRY(airc_ge_const_scalar(b, ct, -INFINITY, &ninf));
    AIRC_TRY(airc_ge_select(b, m, ninf, x, ct, nd, shape, &x));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "SoftmaxV2", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_attr_ints(op, "axes", &dim, 1));
    AIRC_TRY(airc_ge_op_attr_bool(op, "half_to_float", 0));
    AIRC_TRY(airc_ge_op_output(op, "y", ct, nd, shape, &y));
    AIRC_TRY(airc_ge_cast(b, y, om->dtype, &y));
    if (!om->ndim)
        AIRC_TRY(airc_ge_reshape(b, y, om->dtype, 0, NULL, &y));
    return airc_ge_set_result(b, 0, y);
}

static const ge_conv_entry conv[] = {
    {"aten._masked_softmax.default", conv_masked_softmax, NULL},
    {"aten._native_multi_head_attention.default", conv_mha, NULL},
    {"aten._transformer_encoder_layer_fwd.default", conv_encoder_layer, NULL},
};

const ge_family airc_ge_family_attention = {conv, sizeof conv / sizeof *conv, NULL, 0};
