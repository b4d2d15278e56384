/* Helpers shared by the built-in meta functions (src/ops/meta_*.c): reading
 * a node's bound arguments, PyTorch's broadcasting and type promotion, dim
 * wrapping, view geometry and TensorIterator's output layout. Every helper
 * that can fail records AIRC_E_SHAPE (or another code) with a message that
 * starts with the op's qualname; meta propagation prefixes the node name. */
#ifndef AIRC_OPS_META_UTIL_H
#define AIRC_OPS_META_UTIL_H

#include "ops/ops.h"

#include <stdbool.h>

/* Most arguments any built-in schema has (convolution: 9). */
#define AIRC_META_MAX_ARGS 32
/* Bytes of a formatted shape: "[a, b, ...]" for AIRC_MAX_DIMS int64s. */
#define AIRC_META_SHAPE_STR 400

/* A call_function node's arguments bound to its op's schema. */
typedef struct airc_meta_args {
    airc_node *node;
    const airc_schema *schema;
    const char *op; /* qualname, "aten.mm.default" */
    const airc_value *v[AIRC_META_MAX_ARGS];
} airc_meta_args;

/* Binds n's args and kwargs (explicit or default) to schema positions.
 * AIRC_E_INVALID_GRAPH when they do not fit the schema. */
AIRC_HIDDEN airc_status airc_meta_bind(airc_node *n, airc_meta_args *a);
/* Schema position of argument `name`; -1 when the schema has none. */
AIRC_HIDDEN int airc_meta_find(const airc_meta_args *a, const char *name);
/* Value bound to `name`; NULL when absent, None, or not in the schema. */
AIRC_HIDDEN const airc_value *airc_meta_get(const airc_meta_args *a, const char *name);
/* The op's schema name ("add_") and overload ("Tensor", "" for default). */
AIRC_HIDDEN const char *airc_meta_name(const airc_meta_args *a);
AIRC_HIDDEN const char *airc_meta_overload(const airc_meta_args *a);
/* true when the op writes its first argument (add_, copy_ ...). */
AIRC_HIDDEN bool airc_meta_is_inplace(const airc_meta_args *a);

/* ---- argument readers (AIRC_E_SHAPE naming op and argument) ------------ */

/* Meta of a node reference: a tensor node's meta, or the single meta of a
 * getitem result. `what` names the argument in messages. */
AIRC_HIDDEN airc_status airc_meta_value_tensor(const airc_meta_args *a, const char *what,
                                               const airc_value *v, airc_tmeta *out);
AIRC_HIDDEN airc_status airc_meta_tensor(const airc_meta_args *a, const char *name,
                                         airc_tmeta *out);
/* *present false (out untouched) when the argument is absent or None. */
AIRC_HIDDEN airc_status airc_meta_opt_tensor(const airc_meta_args *a, const char *name,
                                             airc_tmeta *out, bool *present);
/* def is used when the argument is absent or None. */
AIRC_HIDDEN airc_status airc_meta_int(const airc_meta_args *a, const char *name, int64_t def,
                                      int64_t *out);
AIRC_HIDDEN airc_status airc_meta_opt_int(const airc_meta_args *a, const char *name, int64_t *out,
                                          bool *present);
AIRC_HIDDEN airc_status airc_meta_bool(const airc_meta_args *a, const char *name, bool def,
                                       bool *out);
AIRC_HIDDEN airc_status airc_meta_double(const airc_meta_args *a, const char *name, double def,
                                         double *out);
/* An int list (a single int counts as a list of one, or of N for int[N]).
 * *n receives its length; at most `cap` items. *present false when absent
 * or None (then *n = 0). */
AIRC_HIDDEN airc_status airc_meta_int_list(const airc_meta_args *a, const char *name,
                                           int64_t *out, int32_t cap, int32_t *n, bool *present);
AIRC_HIDDEN airc_status airc_meta_opt_dtype(const airc_meta_args *a, const char *name,
                                            airc_dtype *out, bool *present);
/* memory_format argument; *present false when absent or None. */
AIRC_HIDDEN airc_status airc_meta_opt_memory_format(const airc_meta_args *a, const char *name,
                                                    airc_memory_format *out, bool *present);
/* A string argument or NULL when absent/None. */
AIRC_HIDDEN airc_status airc_meta_opt_string(const airc_meta_args *a, const char *name,
                                             const char **out);

/* ---- operands of elementwise ops and type promotion -------------------- */

/* A tensor, or a Python number given where torch wraps it in a 0-dim
 * "wrapped number" tensor (a Scalar argument, or a literal passed for a
 * Tensor argument). Wrapped numbers have dtype b8, i64 or f64. */
typedef struct airc_operand {
    airc_tmeta t;
    bool present;
    bool wrapped;
    const char *name; /* argument name, for messages */
} airc_operand;

/* Reads argument `name` as an operand; absent/None gives present=false. */
AIRC_HIDDEN airc_status airc_meta_operand(const airc_meta_args *a, const char *name,
                                          airc_operand *out);

AIRC_HIDDEN bool airc_dtype_is_floating(airc_dtype d);
/* Integral types; bool counts when include_bool. */
AIRC_HIDDEN bool airc_dtype_is_integral(airc_dtype d, bool include_bool);
/* torch.promote_types. */
AIRC_HIDDEN airc_dtype airc_promote_types(airc_dtype a, airc_dtype b);
/* torch.result_type over the present operands (dimensioned tensors, 0-dim
 * tensors and wrapped numbers in torch's three priority tiers). */
AIRC_HIDDEN airc_dtype airc_result_type(const airc_operand *ops, size_t n);
/* c10::canCast: whether an op may write a `from` result into `to`. */
AIRC_HIDDEN bool airc_can_cast(airc_dtype from, airc_dtype to);
/* "Float", "Long"...: torch's ScalarType names, for messages that follow
 * torch's wording. */
AIRC_HIDDEN const char *airc_dtype_torch_type_name(airc_dtype d);
/* "float", "long int", "c10::Half"...: c10's TypeMeta names, as torch's
 * messages that print a TensorOptions or a tensor's dtype give them. */
AIRC_HIDDEN const char *airc_dtype_type_meta_name(airc_dtype d);

/* The dtype isin compares elements and test elements in (meta_sort.c):
 * a Tensor test's promote_types, a Scalar test's (test_is_float: a float)
 * eq type. */
AIRC_HIDDEN airc_dtype airc_isin_dtype(airc_dtype elements, airc_dtype test, bool scalar_test,
                                       bool test_is_float);

/* histogram.bin_ct's range (a float[] value, NULL or None: absent): its
 * length, -1 when absent; at most its first cap items into out
 * (meta_histc.c). */
AIRC_HIDDEN int32_t airc_histogram_range(const airc_value *v, double *out, int32_t cap);

/* segment_reduce's reduce string: 0 sum, 1 mean, 2 max, 3 min, 4 prod;
 * -1 for anything else (meta_index.c). */
AIRC_HIDDEN int airc_segment_reduce_kind(const char *reduce);

/* index_reduce's reduce string: 0 prod, 1 mean, 2 amax, 3 amin; -1 for
 * anything else (meta_index.c). */
AIRC_HIDDEN int airc_index_reduce_kind(const char *reduce);

/* The *_scatter ops (select, slice, diagonal, as_strided): AIRC_E_SHAPE
 * with torch's message unless src has the shape of self's slice. */
AIRC_HIDDEN airc_status airc_meta_src_fits_slice(const airc_meta_args *a, const airc_tmeta *src,
                                                 const airc_tmeta *slice);
/* n's result: self.clone() (memory format preserved). */
AIRC_HIDDEN airc_status airc_meta_set_clone(airc_node *n, const airc_tmeta *self);

/* ---- shapes ------------------------------------------------------------ */

/* "[2, 3]" into buf (AIRC_META_SHAPE_STR bytes); returns buf. */
AIRC_HIDDEN const char *airc_meta_shape_str(const int64_t *shape, int32_t ndim, char *buf);

/* AIRC_E_SHAPE unless every size is >= 0 and the element count fits in
 * int64 (checked before strides are computed from a new shape). */
AIRC_HIDDEN airc_status airc_meta_check_numel(const airc_meta_args *a, const int64_t *shape,
                                              int32_t ndim);
/* torch's checked conversion of Scalar argument `name` to dt (alpha, clamp
 * bounds, fill values): AIRC_E_SHAPE "value cannot be converted to type T
 * without overflow" for a finite float past a floating type's range, an
 * int outside an integer type's (u8 also takes ints down to -255, which
 * wrap), or a float outside it, infinite or NaN. Infinities and NaN fit
 * floating types; anything fits f64 and bool. OK when the argument is
 * absent, None or not a number. */
AIRC_HIDDEN airc_status airc_meta_check_scalar(const airc_meta_args *a, const char *name,
                                               airc_dtype dt);
/* The same test for a number given by value (is_float: f, else the int i),
 * for kernels that read it from a 0-dim tensor (masked_fill.Tensor's
 * value.item()): the type's name as torch's message has it, or NULL. */
AIRC_HIDDEN const char *airc_meta_number_overflows(bool is_float, double f, int64_t i,
                                                   airc_dtype dt);
/* torch's check before an in-place TensorIterator op or copy_ writes t:
 * AIRC_E_SHAPE when a dim of size > 1 has stride 0 (an expanded tensor,
 * where several elements are one memory location). */
AIRC_HIDDEN airc_status airc_meta_no_internal_overlap(const airc_meta_args *a, const airc_tmeta *t);
/* AIRC_E_SHAPE unless tensors na (x) and nb (y) have one dtype. */
AIRC_HIDDEN airc_status airc_meta_same_dtype(const airc_meta_args *a, const char *na,
                                             const airc_tmeta *x, const char *nb,
                                             const airc_tmeta *y);
/* The common message for size arithmetic that overflows int64. */
AIRC_HIDDEN airc_status airc_meta_overflow(const airc_meta_args *a);

/* Broadcast shape of the present operands; AIRC_E_SHAPE naming the two
 * operands and the dim that differ. */
AIRC_HIDDEN airc_status airc_meta_broadcast(const airc_meta_args *a, const airc_operand *ops,
                                            size_t n, int64_t *shape, int32_t *ndim);
/* Broadcast of two plain shapes (names for messages). */
AIRC_HIDDEN airc_status airc_meta_broadcast2(const airc_meta_args *a, const char *na,
                                             const int64_t *sa, int32_t da, const char *nb,
                                             const int64_t *sb, int32_t db, int64_t *shape,
                                             int32_t *ndim);

/* `t` (argument `name`) must broadcast to `out` (expand's rule: trailing
 * alignment, the result's shape unchanged). */
AIRC_HIDDEN airc_status airc_meta_check_expands_to(const airc_meta_args *a, const char *name,
                                                   const airc_tmeta *t, const airc_tmeta *out);

/* torch's maybe_wrap_dim: dim in [-ndim, ndim) (ndim 0 counts as 1 when
 * wrap_scalar). AIRC_E_SHAPE with torch's wording otherwise. */
AIRC_HIDDEN airc_status airc_meta_wrap_dim(const airc_meta_args *a, int64_t dim, int32_t ndim,
                                           bool wrap_scalar, int32_t *out);
/* torch's dim_list_to_bitset: mask[d] for each of the nd dims, wrapped as
 * maybe_wrap_dim(wrap_scalar) does; a dim named twice is AIRC_E_SHAPE. A
 * 0-dim tensor's dim 0 sets no mask entry. */
AIRC_HIDDEN airc_status airc_meta_dim_mask(const airc_meta_args *a, const int64_t *dims,
                                           int32_t nd, int32_t ndim, bool *mask);

/* _trilinear's dims (meta_trilinear.c, for its kernel and lowering): for
 * `total` dims, src[k][i] operand k's own dim at dim i (-1 where it is
 * unsqueezed: mask[k], k < 3); size[i] the size torch gives dim i (the
 * last operand's not unsqueezed there, 0 where none is); sum[i] from
 * mask[3] (sumdim); extent[i] the items torch takes along dim i: size[i]
 * where kept and at the unrolled dim, else the operands' size other
 * than 1 (1 where none); role[i] the dim's place in torch's contraction
 * order, which decides where infinities meet: over the unrolled dim
 * where summed, a result element adds buf * i3 contracted over the
 * summed dims i3 has (SUM23_*), buf being i1 * i2 contracted over the
 * summed dims i3 is unsqueezed at (SUM12_*); a contraction (torch's
 * sumproduct_pair) first sums each side over the dims only it has (the
 * other's size 1: _L the left side, _R the right), then adds the
 * products over the dims both have (_B). */
enum {
    AIRC_TRI_KEPT,
    AIRC_TRI_UNROLLED,
    AIRC_TRI_SUM23_B,
    AIRC_TRI_SUM23_L,
    AIRC_TRI_SUM23_R,
    AIRC_TRI_SUM12_B,
    AIRC_TRI_SUM12_L,
    AIRC_TRI_SUM12_R
};
typedef struct airc_trilinear_dims {
    int32_t total;
    int32_t src[3][AIRC_MAX_DIMS];
    int64_t size[AIRC_MAX_DIMS], extent[AIRC_MAX_DIMS];
    bool sum[AIRC_MAX_DIMS];
    int role[AIRC_MAX_DIMS];
} airc_trilinear_dims;
/* _trilinear's expand1..3 and sumdim lists (of len[j] dims, already
 * checked by the meta) as masks over `total` dims; false for a dim out of
 * range. */
AIRC_HIDDEN bool airc_trilinear_masks(const int64_t lists[4][AIRC_MAX_DIMS + 1],
                                      const int32_t len[4], int32_t total,
                                      bool mask[4][AIRC_MAX_DIMS]);
AIRC_HIDDEN void airc_trilinear_layout(const int32_t ndim[3], const int64_t *const shape[3],
                                       const bool mask[4][AIRC_MAX_DIMS], int32_t total,
                                       int32_t unroll, airc_trilinear_dims *out);

/* torch's linalg_solve_is_vector_rhs: B (nb dims) is a vector right-hand
 * side of A (na dims): 1-d, or A's shape less its last dim (meta_lapack.c;
 * the solve's kernel and lowering ask the same). */
AIRC_HIDDEN bool airc_linalg_vector_rhs(const int64_t *a, int32_t na, const int64_t *b, int32_t nb);
/* linalg_lstsq's driver by name: 'g' gels, 'y' gelsy (also for NULL, the
 * CPU default), 'd' gelsd, 's' gelss; 0 for another name */
AIRC_HIDDEN char airc_lstsq_driver(const char *name);

/* matrix_exp's constants, torch 1.13's (Bader, Blanes and Casas), shared
 * by the CPU kernel and the GE lowering: the bounds on the 1-norm for the
 * Taylor degrees 1, 2, 4, 8, 12, 18 (f32, and f64), and the degree-18
 * combinations B_i = sum_j b18[i][j] P_j over P = (I, A, A^2, A^3, A^6). */
AIRC_HIDDEN extern const double airc_matrix_exp_theta_f32[6];
AIRC_HIDDEN extern const double airc_matrix_exp_theta_f64[6];
AIRC_HIDDEN extern const double airc_matrix_exp_b18[5][5];

/* infer_size: resolves one -1 in `shape` for `numel` elements. */
AIRC_HIDDEN airc_status airc_meta_infer_size(const airc_meta_args *a, const int64_t *shape,
                                             int32_t n, int64_t numel, int64_t *out);
/* torch's computeStride: strides for viewing `in` as newshape, or false
 * when no view is possible. */
AIRC_HIDDEN bool airc_meta_view_strides(const airc_tmeta *in, const int64_t *newshape,
                                        int32_t n, int64_t *newstrides);

/* t.expand(shape) (inferExpandGeometry); shape must be a broadcast of t's
 * (checked by the caller). */
AIRC_HIDDEN void airc_meta_expand_to(const airc_tmeta *t, const int64_t *shape, int32_t ndim,
                                     airc_tmeta *out);

/* ---- layouts (TensorImpl's flags, TensorIterator, empty_like) ---------- */

/* torch's is_contiguous(): size-1 dims may have any stride, and a tensor
 * with no elements is contiguous. */
AIRC_HIDDEN bool airc_meta_is_contiguous(const airc_tmeta *t);
/* is_non_overlapping_and_dense() (contiguous counts, as in TensorImpl). */
AIRC_HIDDEN bool airc_meta_is_non_overlapping_and_dense(const airc_tmeta *t);
AIRC_HIDDEN bool airc_meta_is_channels_last_contiguous(const airc_tmeta *t);
/* suggest_memory_format() == ChannelsLast */
AIRC_HIDDEN bool airc_meta_is_channels_last_like(const airc_tmeta *t);
/* Channels-last strides for a 4-d shape. */
AIRC_HIDDEN void airc_meta_channels_last_strides(airc_tmeta *t);
/* suggest_memory_format() == ChannelsLast3d (a 5-d t only) */
AIRC_HIDDEN bool airc_meta_is_channels_last_3d_like(const airc_tmeta *t);
/* Channels-last-3d strides ([N, C, D, H, W] stored as N, D, H, W, C) for a
 * 5-d shape. */
AIRC_HIDDEN void airc_meta_channels_last_3d_strides(airc_tmeta *t);
/* infer_dense_strides: dense strides in the order of t's strides. */
AIRC_HIDDEN void airc_meta_dense_strides_like(const airc_tmeta *t, int64_t *strides);
/* Strides of empty_like(t) / clone(t) / _to_copy(t) with memory format
 * `fmt` (AIRC_MEMORY_FORMAT_PRESERVE: keep t's layout as torch does). */
AIRC_HIDDEN void airc_meta_like_strides(const airc_tmeta *t, airc_memory_format fmt,
                                        bool dense_for_non_dense, int64_t *strides);
/* TensorIterator's output strides for the present operands over the
 * broadcast shape (fast set-up, then the stride-sorted permutation). */
AIRC_HIDDEN void airc_meta_iter_strides(const airc_operand *ops, size_t n, const int64_t *shape,
                                        int32_t ndim, int64_t *strides);

/* ---- output ------------------------------------------------------------ */

AIRC_HIDDEN airc_status airc_meta_set(airc_node *n, const airc_tmeta *t);
AIRC_HIDDEN airc_status airc_meta_set_tuple(airc_node *n, const airc_tmeta *ts, size_t count);

/* ---- the built-in meta functions (builtin_ops.c's table) --------------- */

/* squeeze_, unsqueeze_, t_ and transpose_ (node n, of self) change self's
 * shape, not its data. airc gives the new shape to n's result only, so
 * self must not be read after n (torch.fx code that goes on using the
 * input after `x.squeeze_()`), nor be a graph input or a constant, whose
 * owner would see the change in torch: AIRC_E_UNSUPPORTED then, with a
 * message. make_fx's graphs read the result: they pass. */
AIRC_HIDDEN airc_status airc_meta_inplace_view_ok(const airc_node *n, const airc_node *self);

#define AIRC_META_FN(name) AIRC_HIDDEN airc_status airc_meta_##name(airc_node *n, void *user_data)
AIRC_META_FN(unary);
AIRC_META_FN(unary_float);
AIRC_META_FN(logical_not);
AIRC_META_FN(binary);
AIRC_META_FN(add_relu);
AIRC_META_FN(dist);
AIRC_META_FN(narrow_copy);
AIRC_META_FN(view_dtype);
AIRC_META_FN(compare);
AIRC_META_FN(where);
AIRC_META_FN(clamp);
AIRC_META_FN(addcmul);
AIRC_META_FN(lerp);
AIRC_META_FN(masked_fill);
AIRC_META_FN(reduce);
AIRC_META_FN(cumsum);
AIRC_META_FN(scan);
AIRC_META_FN(addmv);
AIRC_META_FN(addr);
AIRC_META_FN(index_fill);
AIRC_META_FN(take);
AIRC_META_FN(rot90);
AIRC_META_FN(max_unpool);
AIRC_META_FN(weight_norm);
AIRC_META_FN(lapack);
AIRC_META_FN(linalg_check_errors);
AIRC_META_FN(assert_async); /* meta_lapack.c, beside the other assertion */
AIRC_META_FN(linalg_matrix_exp);
AIRC_META_FN(soft_margin_loss);
AIRC_META_FN(pdist);
AIRC_META_FN(histc);
AIRC_META_FN(multi_margin_loss);
AIRC_META_FN(multilabel_margin_loss);
AIRC_META_FN(search);
AIRC_META_FN(pick);
AIRC_META_FN(masked_scatter);
/* The pairs tril_indices (upper: triu_indices) lists for a row x col
 * matrix and offset. */
AIRC_HIDDEN int64_t airc_tri_count(int64_t row, int64_t col, int64_t offset, bool upper);
/* offset clamped to [-row - 1, col + 1], where every larger one gives the
 * same triangle (row + offset then cannot overflow). */
static inline int64_t airc_tri_offset(int64_t row, int64_t col, int64_t offset)
{
    return offset < -row - 1 ? -row - 1 : offset > col + 1 ? col + 1 : offset;
}
AIRC_META_FN(view);
AIRC_META_FN(as_strided);
AIRC_META_FN(as_strided_scatter);
AIRC_META_FN(permute);
AIRC_META_FN(transpose);
AIRC_META_FN(expand);
AIRC_META_FN(squeeze);
AIRC_META_FN(unsqueeze);
AIRC_META_FN(slice);
AIRC_META_FN(select);
AIRC_META_FN(split);
AIRC_META_FN(unfold);
AIRC_META_FN(diagonal);
AIRC_META_FN(diagonal_scatter);
AIRC_META_FN(diag_embed);
AIRC_META_FN(diag);
AIRC_META_FN(trace);
AIRC_META_FN(pointwise_loss);
AIRC_META_FN(bce);
AIRC_META_FN(bce_logits);
AIRC_META_FN(nll_loss);
AIRC_META_FN(channel_shuffle);
AIRC_META_FN(cdist);
AIRC_META_FN(cross);
AIRC_META_FN(alias);
AIRC_META_FN(mm);
AIRC_META_FN(linear_combination); /* _compute_linear_combination */
AIRC_META_FN(linear);
AIRC_META_FN(mv);
AIRC_META_FN(grid_sampler);
AIRC_META_FN(grid_sampler_3d);
AIRC_META_FN(fractional_max_pool);
AIRC_META_FN(ctc_loss);
AIRC_META_FN(embedding_renorm);
AIRC_META_FN(affine_grid);
AIRC_META_FN(fold);
AIRC_META_FN(log_sigmoid);
AIRC_META_FN(matmul);
AIRC_META_FN(convolution);
AIRC_META_FN(slow_conv); /* the slow_conv* forwards (meta_conv_slow.c) */
AIRC_META_FN(conv_tbc);
/* Where a convolution entry point (convolution, _convolution, the
 * slow_conv* forwards) keeps its arguments: schema positions, -1 where it
 * has none (stride and dilation 1s, padding and output_padding 0s,
 * groups the input's channels over the weight's dim 1, or 1 transposed). */
typedef struct airc_conv_layout {
    int8_t bias, stride, padding, dilation;
    int8_t transposed; /* the flag's position; -1: never, -2: always */
    int8_t output_padding, groups;
    int8_t spatial; /* spatial dims; 0: the input's */
} airc_conv_layout;
/* false when qualname is none of them */
AIRC_HIDDEN bool airc_conv_layout_of(const char *qualname, airc_conv_layout *out);
AIRC_META_FN(pool2d);
AIRC_META_FN(adaptive_pool2d);
AIRC_META_FN(softmax);
AIRC_META_FN(masked_softmax);
AIRC_META_FN(layer_norm);
AIRC_META_FN(multi_head_attention);
AIRC_META_FN(transformer_encoder_layer);
AIRC_META_FN(batch_norm);
AIRC_META_FN(batch_norm_update_stats); /* meta_training.c */
AIRC_META_FN(native_dropout);
AIRC_META_FN(repeat);
AIRC_META_FN(flip);
AIRC_META_FN(sort);
AIRC_META_FN(topk);
AIRC_META_FN(index);
AIRC_META_FN(index_put);
AIRC_META_FN(prelu);
AIRC_META_FN(glu);
AIRC_META_FN(scatter);
AIRC_META_FN(index_copy);
AIRC_META_FN(pixel_shuffle);
AIRC_META_FN(roll);
AIRC_META_FN(pad2d);
AIRC_META_FN(group_norm);
AIRC_META_FN(upsample2d);
/* The scale factor of spatial dim d of an upsample node from its argument
 * `v`: for .vec (vec) the scale_factors list, item d; for .default the
 * dim's own scales float. 0 when absent, None or not a number. */
AIRC_HIDDEN double airc_meta_upsample_scale(const airc_value *v, bool vec, int d);
AIRC_META_FN(copy);
AIRC_META_FN(create);
AIRC_META_FN(window);
AIRC_META_FN(cat);
AIRC_META_FN(index_select);
AIRC_META_FN(gather);
AIRC_META_FN(embedding);
AIRC_META_FN(embedding_bag);
AIRC_META_FN(isin);
AIRC_META_FN(rrelu_with_noise);
AIRC_META_FN(frexp);
AIRC_META_FN(mvlgamma);
AIRC_META_FN(renorm);
AIRC_META_FN(index_reduce);
AIRC_META_FN(put);
AIRC_META_FN(block_diag);
AIRC_META_FN(histogram);
AIRC_META_FN(histogramdd);
AIRC_META_FN(fake_quantize);
AIRC_META_FN(segment_reduce);
AIRC_META_FN(trilinear);
AIRC_META_FN(constant_pad_nd);
AIRC_META_FN(scatter_view);
AIRC_META_FN(getitem);
AIRC_META_FN(air);
#undef AIRC_META_FN

#endif
