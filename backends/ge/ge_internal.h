/* Internal layout of the Ascend IR lowering (backends/ge): the builder
 * behind include/airc/ge.h, the lowering driver, the built-in converters,
 * serialization, and the reference executor. Every protobuf-c struct of a
 * model being built lives in the builder's arena. */
#ifndef AIRC_GE_INTERNAL_H
#define AIRC_GE_INTERNAL_H

#include "airc/ge.h"
#include "backends/ge/ge_model.pb-c.h"
#include "core/core.h"

/* Scope attributes nest at most this deep (the linter's limit). */
#define AIRC_GE_MAX_SCOPES 64

typedef struct ge_op_caps {
    size_t input, attr, input_desc, output_desc;
    size_t controls; /* leading control inputs, moved last by airc_ge_finish */
} ge_op_caps;

struct airc_ge_op {
    airc_ge_builder *b;
    uint32_t index;
};

/* One stream (a `_user_stream_label`, or the main stream ""): its last op,
 * and the control inputs waiting for its next op (air.wait). */
typedef struct ge_stream {
    const char *label;
    int64_t last_op; /* -1: none yet */
    const char **pending;
    size_t npending, pending_cap;
} ge_stream;

/* A node's lowered results. */
typedef struct ge_result {
    airc_ge_tensor *t;
    uint32_t n;
    uint32_t set;  /* how many were set */
    char *control; /* air.record: "<op>:-1", or NULL when no op preceded it */
    bool is_record;
} ge_result;

struct airc_ge_builder {
    airc_context *ctx;
    airc_arena mem;
    Ge__Proto__ModelDef *model;
    Ge__Proto__GraphDef *graph;
    size_t ops_cap, caps_cap;
    ge_op_caps *caps;  /* per op */
    airc_strmap names; /* op names taken */
    /* the node being converted */
    const airc_graph *g;
    const airc_node *node;
    const airc_value **args;
    uint32_t nargs;
    uint32_t node_ops;  /* ops created for it so far */
    bool node_named;    /* an op took the node's name */
    ge_result *results; /* by node id */
    /* the scope stack (air.scope_enter) */
    const char *scope_keys[AIRC_GE_MAX_SCOPES][8];
    const char *scope_values[AIRC_GE_MAX_SCOPES][8];
    uint32_t scope_n[AIRC_GE_MAX_SCOPES];
    uint32_t depth;
    ge_stream *streams;
    size_t nstreams, streams_cap;
    char scratch_name[256];
    int64_t shape_scratch[AIRC_MAX_DIMS];
};

/* dtype numberings: the proto enum (TensorDescriptor.dtype) and GE's C++
 * ge::DataType (attributes). -1 / UNDEFINED when there is none. */
AIRC_HIDDEN int32_t airc_ge_proto_dtype(airc_dtype d);
AIRC_HIDDEN airc_dtype airc_ge_from_proto_dtype(int32_t d);
AIRC_HIDDEN int64_t airc_ge_attr_dtype(airc_dtype d);
AIRC_HIDDEN airc_dtype airc_ge_from_attr_dtype(int64_t d);

/* Builder life cycle (builder.c). */
AIRC_HIDDEN airc_status airc_ge_builder_init(airc_ge_builder *b, airc_context *ctx,
                                             const airc_graph *g, const char *name);
AIRC_HIDDEN void airc_ge_builder_free(airc_ge_builder *b);
/* Starts/ends converting node n (its bound arguments, its op names). */
AIRC_HIDDEN airc_status airc_ge_begin_node(airc_ge_builder *b, const airc_node *n);
AIRC_HIDDEN void airc_ge_end_node(airc_ge_builder *b);
/* The stream of the open scopes (innermost _user_stream_label; "" = main);
 * NULL on OOM. */
AIRC_HIDDEN ge_stream *airc_ge_current_stream(airc_ge_builder *b);
/* Moves each op's control inputs after its data inputs (GE's order). */
AIRC_HIDDEN void airc_ge_finish(airc_ge_builder *b);
/* A new op named exactly `name` (made unique) with no node context. */
AIRC_HIDDEN airc_status airc_ge_op_create_named(airc_ge_builder *b, const char *type,
                                                const char *name, airc_ge_op **out);
/* Appends an input_desc with no input edge (Data's "x"). */
AIRC_HIDDEN airc_status airc_ge_op_input_desc(airc_ge_op *op, const char *name, airc_dtype dtype,
                                              int32_t ndim, const int64_t *shape);
/* "<op name>:<index>" of t (arena). */
AIRC_HIDDEN const char *airc_ge_edge(airc_ge_builder *b, airc_ge_tensor t);
/* Adds a model/graph attribute. */
AIRC_HIDDEN airc_status airc_ge_graph_attr_string(airc_ge_builder *b, bool model, const char *key,
                                                  const char *v);
/* Attribute value constructors (arena) and map entries. */
AIRC_HIDDEN Ge__Proto__AttrDef *airc_ge_attr_new(airc_ge_builder *b);

/* ---- built-in converters and raisers (convert_*.c, registry.c) -------------
 * Each family file lists, for the ATen ops it lowers, the converter (ATen
 * node -> GE ops) and, for the GE op types it emits, the raiser (GE op ->
 * ATen nodes) the reference executor uses. user_data is the entry's own
 * `data` (a GE type name, an ATen op name). */

/* Raising one GE op back to ATen nodes in graph g. */
typedef struct ge_raise {
    airc_graph *g;
    const Ge__Proto__OpDef *op;
    airc_node **in;                   /* per data input, in order; NULL when absent */
    const Ge__Proto__TensorDef **cin; /* per data input: its Const's tensor, or NULL */
    size_t nin;
    airc_node **out;  /* per output: the node holding it (set by the raiser) */
    size_t nout;      /* the op's output_desc count */
    const void *data; /* the entry's data */
} ge_raise;
typedef airc_status (*ge_raise_fn)(ge_raise *r);

typedef struct ge_conv_entry {
    const char *aten; /* qualname */
    airc_ge_converter_fn fn;
    const void *data;
} ge_conv_entry;

typedef struct ge_raise_entry {
    const char *type; /* GE op type */
    ge_raise_fn fn;
    const void *data;
} ge_raise_entry;

typedef struct ge_family {
    const ge_conv_entry *conv;
    size_t nconv;
    const ge_raise_entry *raise;
    size_t nraise;
} ge_family;

/* The families (one per convert_*.c). */
extern const ge_family airc_ge_family_elementwise;
extern const ge_family airc_ge_family_linalg;
extern const ge_family airc_ge_family_shape;  /* views, reshapes, cat/split, index */
extern const ge_family airc_ge_family_create; /* zeros, full, arange, *_like, where */
extern const ge_family airc_ge_family_reduce; /* sum, mean, max, softmax, var, cumsum */
extern const ge_family airc_ge_family_nn;     /* norm, conv, pool, activations, clamp */
extern const ge_family airc_ge_family_lapack; /* linalg factorizations and solves */
extern const ge_family airc_ge_family_lapack_lu; /* lu_unpack, lu_solve, lstsq */
extern const ge_family airc_ge_family_householder; /* geqrf, householder_product, ormqr */
extern const ge_family airc_ge_family_sort;   /* sort, topk */
extern const ge_family airc_ge_family_index;  /* index.Tensor */
extern const ge_family airc_ge_family_activation; /* softplus .. exp2, prelu, glu */
extern const ge_family
    airc_ge_family_spatial; /* pixel_(un)shuffle, roll, grid_sampler_2d, im2col */
extern const ge_family
    airc_ge_family_diag; /* unfold, diagonal, diag(_embed), trace, eye, linspace */
extern const ge_family airc_ge_family_loss; /* mse .. binary cross entropy, nll_loss */
extern const ge_family airc_ge_family_scan; /* cummax, cummin, logcumsumexp */
extern const ge_family airc_ge_family_pool; /* 3-d pools, max unpooling */
extern const ge_family airc_ge_family_norm; /* _weight_norm_interface, renorm */
extern const ge_family airc_ge_family_histc;      /* histc, histogram */
extern const ge_family airc_ge_family_upsample3d; /* upsample_nearest3d, _trilinear3d */
extern const ge_family airc_ge_family_embedding_bag; /* _embedding_bag(_forward_only) */
extern const ge_family airc_ge_family_trilinear;     /* _trilinear */
extern const ge_family airc_ge_family_view_scatter;  /* diagonal_scatter, as_strided_scatter */
extern const ge_family
    airc_ge_family_attention; /* _native_multi_head_attention, _transformer_encoder_layer_fwd */
extern const ge_family airc_ge_family_upsample_aa; /* _upsample_bilinear2d_aa, bicubic */
extern const ge_family airc_ge_family_special;     /* igamma, gcd, i0, erfcx, ... */
extern const ge_family airc_ge_family_bessel;      /* special_bessel_j0 .., the polynomials */
extern const ge_family airc_ge_family_matrix_exp;  /* linalg_matrix_exp */
extern const ge_family airc_ge_family_quant;       /* fake_quantize_* */

/* The built-in converter of an op, by qualname; false when none. */
AIRC_HIDDEN bool airc_ge_builtin_converter(const char *qualname, airc_ge_converter_fn *fn,
                                           void **user_data);
/* The built-in raiser of a GE op type; NULL when none. */
AIRC_HIDDEN const ge_raise_entry *airc_ge_builtin_raiser(const char *type);

/* The converter lowering uses for op (lower.c): the context's
 * registration, else the built-in one, else — for a functional twin of an
 * in-place op (airc_op_inplace_origin) — the in-place op's. false when
 * none. */
AIRC_HIDDEN bool airc_ge_find_converter(const airc_op *op, airc_ge_converter_fn *fn,
                                        void **user_data);
/* Whether lowering node n goes through a converter (not getitem, not the
 * air.* stream markers, which the lowering handles itself). */
AIRC_HIDDEN bool airc_ge_node_needs_converter(const airc_node *n);
/* The compile-time check of max-autotune (lower.c): every node that needs
 * a converter has one. AIRC_E_UNSUPPORTED "no Ascend IR converter for
 * <op> (node '<n>') (needed by max-autotune)", naming the in-place op for
 * a functional twin. */
AIRC_HIDDEN airc_status airc_ge_check_converters(const airc_graph *g);

/* Custom GE types (airc_context_set_ge_op, custom_types.c): the declared
 * op, and the op the executor calls (its functional twin when it writes
 * arguments). */
typedef struct airc_ge_custom_type {
    const airc_op *op;
    const airc_op *call;
} airc_ge_custom_type;
/* The context's declaration of a GE type; false when none. Thread-safe. */
AIRC_HIDDEN bool airc_ge_custom_type_find(airc_context *ctx, const char *ge_type,
                                          airc_ge_custom_type *out);
/* The raiser of a declared type; r->data points at its airc_ge_custom_type. */
AIRC_HIDDEN airc_status airc_ge_raise_custom(ge_raise *r);

/* Helpers for converters. */
/* The node's result dtype j (meta). */
AIRC_HIDDEN airc_dtype airc_ge_node_dtype(const airc_ge_builder *b, size_t j);
/* Argument arg as a tensor of dtype: its GE tensor cast, or a 0-d Const of
 * the number bound there. */
AIRC_HIDDEN airc_status airc_ge_operand(airc_ge_builder *b, size_t arg, airc_dtype dtype,
                                        airc_ge_tensor *out);
/* torch.result_type of the node's first two arguments (a 0-dim tensor and
 * a number weigh less than a dimensioned tensor); UNDEFINED when they
 * cannot be read. */
AIRC_HIDDEN airc_dtype airc_ge_promoted_dtype(const airc_node *n);
/* Whether argument arg is given and not None (an optional tensor). */
AIRC_HIDDEN bool airc_ge_arg_present(airc_ge_builder *b, size_t arg);
/* Scalar arguments; dflt when absent, None or of another kind. A bool
 * counts as an int and a number (torch's promotion), an int as a bool (its
 * truth, as torch.ops takes it). */
AIRC_HIDDEN int64_t airc_ge_int_arg(airc_ge_builder *b, size_t arg, int64_t dflt);
AIRC_HIDDEN bool airc_ge_bool_arg(airc_ge_builder *b, size_t arg, bool dflt);
AIRC_HIDDEN double airc_ge_number_arg(airc_ge_builder *b, size_t arg, double dflt);
/* t * the number in argument `arg` as a Mul by a 0-d Const of t's dtype
 * (t itself when the argument is absent, None or 1); an int converts
 * exactly, as airc_ge_operand's. */
AIRC_HIDDEN airc_status airc_ge_scale(airc_ge_builder *b, airc_ge_tensor t, size_t arg,
                                      airc_ge_tensor *out);
/* Emits op `type` with inputs (names[i], in[i]) and one output "y" shaped
 * like the node's result 0, and sets it as the node's result. */
AIRC_HIDDEN airc_status airc_ge_simple(airc_ge_builder *b, const char *type,
                                       const char *const *names, const airc_ge_tensor *in,
                                       size_t nin, airc_ge_op **op_out);

/* The int[] argument `arg` into v (at most cap items). */
AIRC_HIDDEN airc_status airc_ge_ints_arg(airc_ge_builder *b, size_t arg, int64_t *v, size_t cap,
                                         size_t *n);
/* The int list argument `arg` (an int is a one-item list; absent or None
 * none) into out (at most cap items); *n its length. */
AIRC_HIDDEN airc_status airc_ge_int_list_arg(airc_ge_builder *b, size_t arg, int64_t *out,
                                             size_t cap, size_t *n);
/* An int list argument as exactly k items (a pool's or convolution's
 * per-dim parameters): one item repeats, none takes dflt (NULL:
 * required). */
AIRC_HIDDEN airc_status airc_ge_spatial_arg(airc_ge_builder *b, size_t arg, size_t k,
                                            const int64_t *dflt, int64_t *out);
/* GatherV2(x, idx, axis (a 0-d Const)) with a result of (dt, nd, shape). */
AIRC_HIDDEN airc_status airc_ge_gather(airc_ge_builder *b, airc_ge_tensor x, airc_ge_tensor idx,
                                       int64_t axis, airc_dtype dt, int32_t nd,
                                       const int64_t *shape, airc_ge_tensor *out);
/* Fill(dims, value): a (dt, nd, shape) tensor of v. */
AIRC_HIDDEN airc_status airc_ge_fill(airc_ge_builder *b, airc_dtype dt, int32_t nd,
                                     const int64_t *shape, double v, airc_ge_tensor *out);
/* A Const int64 of (nd, shape) holding from, from + 1, ... in row-major
 * order (the positions along a dim; shape's element count fits: the
 * caller's meta). */
AIRC_HIDDEN airc_status airc_ge_positions(airc_ge_builder *b, int64_t from, int32_t nd,
                                          const int64_t *shape, airc_ge_tensor *out);
/* Transpose of t (dt, nd, shape) by perm (a Const). */
AIRC_HIDDEN airc_status airc_ge_transpose(airc_ge_builder *b, airc_ge_tensor t, airc_dtype dt,
                                          int32_t nd, const int64_t *shape, const int64_t *perm,
                                          airc_ge_tensor *out);
/* ConcatV2 of pieces[0..n) along axis (a Const), the result of dtype dt
 * and shape (nd, shape). */
AIRC_HIDDEN airc_status airc_ge_concat(airc_ge_builder *b, const airc_ge_tensor *pieces, size_t n,
                                       int64_t axis, airc_dtype dt, int32_t nd,
                                       const int64_t *shape, airc_ge_tensor *out);
/* t BroadcastTo (nd, shape) (a Const shape), or t itself when its shape
 * is that already. */
AIRC_HIDDEN airc_status airc_ge_broadcast(airc_ge_builder *b, airc_ge_tensor t, int32_t nd,
                                          const int64_t *shape, airc_ge_tensor *out);
/* ScatterElements(data, idx, upd; axis, reduction "add" or "none") with a
 * result of (dt, nd, shape). */
/* The same with reduction "none", "add" or "mul" (scatter.reduce's multiply). */
AIRC_HIDDEN airc_status airc_ge_scatter_elements_reduce(airc_ge_builder *b, airc_ge_tensor data,
                                                        airc_ge_tensor idx, airc_ge_tensor upd,
                                                        int64_t axis, const char *reduction,
                                                        airc_dtype dt, int32_t nd,
                                                        const int64_t *shape, airc_ge_tensor *out);
AIRC_HIDDEN airc_status airc_ge_scatter_elements(airc_ge_builder *b, airc_ge_tensor data,
                                                 airc_ge_tensor idx, airc_ge_tensor upd,
                                                 int64_t axis, bool add, airc_dtype dt, int32_t nd,
                                                 const int64_t *shape, airc_ge_tensor *out);
/* A dynamic input: t[0..n) as inputs prefix0, prefix1, ... */
AIRC_HIDDEN airc_status airc_ge_op_input_list(airc_ge_op *op, const char *prefix,
                                              const airc_ge_tensor *t, size_t n);
/* An op of `type` on in[0..nin) (inputs "x", or "x1" and "x2") with one
 * output "y" of (dt, nd, shape). */
AIRC_HIDDEN airc_status airc_ge_ew_op(airc_ge_builder *b, const char *type,
                                      const airc_ge_tensor *in, size_t nin, airc_dtype dt,
                                      int32_t nd, const int64_t *shape, airc_ge_tensor *out);
/* The dtype a composite lowering computes a dt result in: f32 for f16 and
 * bf16 (cast back at the end: one rounding, as the CPU kernels), else dt. */
AIRC_HIDDEN airc_dtype airc_ge_compute_dtype(airc_dtype dt);
/* SelectV2(cond, then, other) with a result of (dt, nd, shape)
 * (convert_elementwise.c). */
AIRC_HIDDEN airc_status airc_ge_select(airc_ge_builder *b, airc_ge_tensor cond, airc_ge_tensor then,
                                       airc_ge_tensor other, airc_dtype dt, int32_t nd,
                                       const int64_t *shape, airc_ge_tensor *out);
/* x < 0, or x == 0 and 1 / x < 0 (-0), as bools of (nd, shape): the sign
 * bit of x in dt (floating: a NaN's sign bit is not seen; torch:
 * signbit(-nan) is true) (convert_elementwise.c). */
AIRC_HIDDEN airc_status airc_ge_sign_bit(airc_ge_builder *b, airc_ge_tensor x, airc_dtype dt,
                                         int32_t nd, const int64_t *shape, airc_ge_tensor *out);
/* A Reduce* op (`type`) of x over dims[0..n), keep_dims `keep`, its
 * output of (dt, nd, shape) (convert_reduce.c). */
AIRC_HIDDEN airc_status airc_ge_reduce(airc_ge_builder *b, const char *type, airc_ge_tensor x,
                                       const int64_t *dims, size_t n, bool keep, airc_dtype dt,
                                       int32_t nd, const int64_t *shape, airc_ge_tensor *out);
/* _upsample_nearest_exact1d / 2d / 3d node n -> UpsampleNearestExact3d
 * (the 1-d and 2-d input Reshaped to a unit D, and H, and back), its
 * source scales torch's float 1 / factor where a factor is not in / out;
 * AIRC_E_UNSUPPORTED for such a factor of an f64 result
 * (convert_upsample3d.c). */
AIRC_HIDDEN airc_status airc_ge_nearest_exact_nd(airc_ge_builder *b, const airc_node *n);
/* A Reshape of x to (dt, nd, shape), its shape a Const. */
AIRC_HIDDEN airc_status airc_ge_reshape(airc_ge_builder *b, airc_ge_tensor x, airc_dtype dt,
                                        int32_t nd, const int64_t *shape, airc_ge_tensor *out);

/* Helpers for raisers. */
/* The first element of a Const's tensor as a number of its dtype's kind (an
 * int for integer and bool Consts, read exactly), and that dtype (dt may be
 * NULL). *out NULL with AIRC_OK means the value could not be allocated. */
AIRC_HIDDEN airc_status airc_ge_tensordef_number(ge_raise *r, const Ge__Proto__TensorDef *t,
                                                 const airc_value **out, airc_dtype *dt);
AIRC_HIDDEN const Ge__Proto__AttrDef *airc_ge_find_attr(const Ge__Proto__OpDef *op,
                                                        const char *key);
AIRC_HIDDEN airc_status airc_ge_attr_i(const ge_raise *r, const char *key, bool required,
                                       int64_t dflt, int64_t *out);
/* A list-int attribute into out (at most cap items): *n = 0 when absent
 * and not required. */
AIRC_HIDDEN airc_status airc_ge_attr_ints(const ge_raise *r, const char *key, bool required,
                                          int64_t *out, size_t cap, size_t *n);
AIRC_HIDDEN airc_status airc_ge_attr_b(const ge_raise *r, const char *key, bool required, bool dflt,
                                       bool *out);
AIRC_HIDDEN airc_status airc_ge_attr_f(const ge_raise *r, const char *key, bool required,
                                       double dflt, double *out);
/* The int64/int32 values of Const input i (axes, shapes, perms). */
AIRC_HIDDEN airc_status airc_ge_const_input_ints(const ge_raise *r, size_t i, int64_t *out,
                                                 size_t cap, size_t *n);
/* Requires exactly nin data inputs (absent ones count). */
AIRC_HIDDEN airc_status airc_ge_raise_arity(const ge_raise *r, size_t nin);
/* Adds call_function `aten` with these args (positional) and kwargs. */
AIRC_HIDDEN airc_status airc_ge_raise_call(ge_raise *r, const char *aten,
                                           const airc_value *const *args, size_t nargs,
                                           const char *const *kw_names,
                                           const airc_value *const *kw_values, size_t nkw,
                                           airc_node **out);
/* r->out[j] = operator.getitem(t, j) for j < n, the op's n outputs (a
 * raised tuple-valued aten op). */
AIRC_HIDDEN airc_status airc_ge_raise_getitems(ge_raise *r, airc_node *t, size_t n);
/* Values in r->g (NULL when out of memory; airc_ge_raise_call then fails). */
AIRC_HIDDEN const airc_value *airc_ge_vnode(ge_raise *r, airc_node *n);
AIRC_HIDDEN const airc_value *airc_ge_vint(ge_raise *r, int64_t v);
AIRC_HIDDEN const airc_value *airc_ge_vbool(ge_raise *r, bool v);
AIRC_HIDDEN const airc_value *airc_ge_vfloat(ge_raise *r, double v);
AIRC_HIDDEN const airc_value *airc_ge_vnone(ge_raise *r);
AIRC_HIDDEN const airc_value *airc_ge_vints(ge_raise *r, const int64_t *v, size_t n);

/* Lowering (lower.c): g (meta on every node, no call_module, lint-clean)
 * into *model (owned by b). */
typedef struct airc_ge_lower_options {
    const airc_config *config; /* ge_config.* graph options; may be NULL */
    const char *name;          /* graph name */
} airc_ge_lower_options;
AIRC_HIDDEN airc_status airc_ge_lower(airc_ge_builder *b, const airc_graph *g,
                                      const airc_ge_lower_options *o);

/* Serialization (serialize.c). */
AIRC_HIDDEN airc_status airc_ge_pack(airc_context *ctx, const Ge__Proto__ModelDef *m, uint8_t **out,
                                     size_t *len);
AIRC_HIDDEN airc_status airc_ge_unpack(airc_context *ctx, const uint8_t *data, size_t len,
                                       Ge__Proto__ModelDef **out);
AIRC_HIDDEN void airc_ge_unpacked_free(airc_context *ctx, Ge__Proto__ModelDef *m);

#endif
