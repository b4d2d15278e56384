/* airc — Ascend IR (GE graph) lowering for max-autotune: op converters
 * (part of the public API; included by airc/airc.h).
 *
 * max-autotune lowers a graph to one GE ModelDef (Ascend's ge.proto): a
 * placeholder becomes a `Data` op, a constant a `Const`, the output a
 * `NetOutput`, and every call_function node goes through the converter
 * registered for its op — a C function that emits GE ops, TorchAir's
 * `@register_fx_node_ge_converter` in C:
 *
 *     static airc_status conv_mm(airc_ge_builder *b, const airc_node *n, void *ud)
 *     {
 *         airc_ge_tensor x1, x2, y;
 *         airc_ge_op *op;
 *         AIRC_TRY(airc_ge_input(b, 0, &x1));       // schema argument 0: self
 *         AIRC_TRY(airc_ge_input(b, 1, &x2));       // argument 1: mat2
 *         AIRC_TRY(airc_ge_op_create(b, "MatMul", &op));
 *         AIRC_TRY(airc_ge_op_input(op, "x1", x1));
 *         AIRC_TRY(airc_ge_op_input(op, "x2", x2));
 *         AIRC_TRY(airc_ge_op_attr_bool(op, "transpose_x1", 0));
 *         AIRC_TRY(airc_ge_op_attr_bool(op, "transpose_x2", 0));
 *         AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y)); // desc from n's meta
 *         return airc_ge_set_result(b, 0, y);
 *     }
 *     airc_context_set_op_converter(ctx, "aten.mm.default", conv_mm, NULL, NULL);
 *
 * Tensors are GE op outputs (`"op:index"` edges). Names: the first op a
 * converter creates takes the node's name, later ones `<node>/<Type>` (made
 * unique). Scope attributes of air.scope_enter (`_user_stream_label`, ...)
 * are stamped on every op created inside the scope, and air.record /
 * air.wait become control edges, as TorchAir lowers them. */
#ifndef AIRC_GE_H
#define AIRC_GE_H

#include "airc/airc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct airc_ge_builder airc_ge_builder;
typedef struct airc_ge_op airc_ge_op;

/** An output of a GE op in the graph being built. */
typedef struct airc_ge_tensor {
    uint32_t op;   /* the op's position in the GraphDef */
    int32_t index; /* its output index */
} airc_ge_tensor;

/** Converts `node` (the node being lowered; borrowed for the call) by
 *  emitting GE ops through `b` and setting each of the node's results
 *  with airc_ge_set_result. Return AIRC_OK, or a status with a message
 *  (airc_set_error); airc prefixes the node's name. */
typedef airc_status (*airc_ge_converter_fn)(airc_ge_builder *b, const airc_node *node,
                                            void *user_data);

/** Registers (or replaces) the converter of an op in ctx; built-in ops
 *  have built-in converters, which this overrides in ctx. For an op that
 *  writes arguments the converter is called for its functional twin's
 *  nodes (what functionalize leaves): it sets result k to the new value of
 *  written argument k. In max-autotune airc_compile refuses a graph with an
 *  op that has no converter ("no Ascend IR converter for demo.my_op.default
 *  (node 'my_op') (needed by max-autotune)"). user_data is
 *  freed with free_user_data when the context dies (a replaced converter's
 *  too: a compile on another thread may still be calling it).
 *  @return AIRC_OK, AIRC_E_NOT_FOUND (unknown op), AIRC_E_INVALID_ARGUMENT,
 *          AIRC_E_MISUSE, AIRC_E_OUT_OF_MEMORY. Thread-safe (registry
 *          lock): a compile running meanwhile uses the old converter or
 *          the new one for each node. */
AIRC_API airc_status airc_context_set_op_converter(airc_context *ctx, const char *op,
                                                   airc_ge_converter_fn fn, void *user_data,
                                                   airc_free_fn free_user_data);

/** Declares that GE op type `ge_type` ("MyOp") computes the op `op`
 *  ("demo.my_op.default", any spelling airc_context_find_op takes), so that
 *  the reference executor (airc_model_read, max-autotune runs) can run a
 *  custom type a converter emits. An op of that type is raised to a call of
 *  `op` — or, when `op` writes arguments (`Tensor(a!)`), of its functional
 *  twin — with:
 *   - the GE op's data inputs as the op's Tensor / Tensor? arguments, in
 *     schema order (an absent optional input, or a missing trailing one,
 *     is None);
 *   - its attributes as the op's other arguments, by name: int, SymInt,
 *     float, bool, str, Scalar, ScalarType (a dtype attribute), int[],
 *     float[], bool[]; an argument with no attribute takes its schema
 *     default (None when optional), else it is an error;
 *   - its outputs as the op's results, in order (for an in-place op: output
 *     k is the new value of written argument k, which converters name like
 *     that input).
 *  The context's declaration wins over a built-in type of the same name,
 *  so a user can override one; declaring a type again replaces it. `Data`,
 *  `Const` and `NetOutput` cannot be declared. Errors while raising name
 *  the GE op, the type, the ATen op and the input or attribute.
 *  @return AIRC_OK; AIRC_E_MISUSE (not a live context);
 *          AIRC_E_INVALID_ARGUMENT (NULL or empty argument, a reserved
 *          type); AIRC_E_NOT_FOUND (unknown op); AIRC_E_UNSUPPORTED (an op
 *          the executor cannot call this way: a Tensor[] argument, a result
 *          that is not a Tensor, no results, an in-place op without a
 *          functional twin); AIRC_E_OUT_OF_MEMORY.
 *  Thread-safe (a lock per context's table). */
AIRC_API airc_status airc_context_set_ge_op(airc_context *ctx, const char *ge_type, const char *op);

/* ---- reading the node's arguments (schema positions, as kernels do) ---- */

/** The GE tensor of schema argument `arg` of the node being converted.
 *  AIRC_E_NOT_FOUND when the argument is not a tensor (a number, None). */
AIRC_API airc_status airc_ge_input(airc_ge_builder *b, size_t arg, airc_ge_tensor *out);
/** Tensor[] arguments (cat): number of items, and item j. */
AIRC_API size_t airc_ge_input_list_length(airc_ge_builder *b, size_t arg);
AIRC_API airc_status airc_ge_input_list_item(airc_ge_builder *b, size_t arg, size_t j,
                                             airc_ge_tensor *out);
/** The value bound to argument `arg` (the node's literal or the schema's
 *  default); NULL when absent. */
AIRC_API const airc_value *airc_ge_arg(airc_ge_builder *b, size_t arg);
/** dtype and shape of a tensor (shape borrowed until the next call on b). */
AIRC_API airc_status airc_ge_tensor_meta(airc_ge_builder *b, airc_ge_tensor t, airc_dtype *dtype,
                                         int32_t *ndim, const int64_t **shape);

/* ---- emitting ops ----------------------------------------------------------- */

/** A new op of GE type `type` ("MatMul"), appended to the graph. */
AIRC_API airc_status airc_ge_op_create(airc_ge_builder *b, const char *type, airc_ge_op **out);
/** Appends a data input named `name` (its input_desc copies t's desc). */
AIRC_API airc_status airc_ge_op_input(airc_ge_op *op, const char *name, airc_ge_tensor t);
/** Appends an absent optional input (TorchAir: '' with _is_unfed_optional). */
AIRC_API airc_status airc_ge_op_input_absent(airc_ge_op *op, const char *name);
/** Appends an output named `name` with this dtype and shape. */
AIRC_API airc_status airc_ge_op_output(airc_ge_op *op, const char *name, airc_dtype dtype,
                                       int32_t ndim, const int64_t *shape, airc_ge_tensor *out);
/** Appends an output whose desc is the node's result `result` (its meta). */
AIRC_API airc_status airc_ge_op_output_like_node(airc_ge_op *op, const char *name, size_t result,
                                                 airc_ge_tensor *out);
/** Attributes. A dtype attribute is written in GE's ge::DataType numbering
 *  (DT_FLOAT = 0), as TorchAir writes attributes. */
AIRC_API airc_status airc_ge_op_attr_int(airc_ge_op *op, const char *key, int64_t v);
AIRC_API airc_status airc_ge_op_attr_float(airc_ge_op *op, const char *key, double v);
AIRC_API airc_status airc_ge_op_attr_bool(airc_ge_op *op, const char *key, int32_t v);
AIRC_API airc_status airc_ge_op_attr_string(airc_ge_op *op, const char *key, const char *v);
AIRC_API airc_status airc_ge_op_attr_ints(airc_ge_op *op, const char *key, const int64_t *v,
                                          size_t n);
AIRC_API airc_status airc_ge_op_attr_floats(airc_ge_op *op, const char *key, const double *v,
                                            size_t n);
AIRC_API airc_status airc_ge_op_attr_dtype(airc_ge_op *op, const char *key, airc_dtype v);

/** A Const op holding a host tensor (contiguous, copied). */
AIRC_API airc_status airc_ge_const(airc_ge_builder *b, airc_dtype dtype, int32_t ndim,
                                   const int64_t *shape, const void *data, airc_ge_tensor *out);
/** Shorthands: a 0-d / 1-d Const. */
AIRC_API airc_status airc_ge_const_scalar(airc_ge_builder *b, airc_dtype dtype, double v,
                                          airc_ge_tensor *out);
AIRC_API airc_status airc_ge_const_ints(airc_ge_builder *b, const int64_t *v, size_t n,
                                        airc_ge_tensor *out);
/** t as dtype: t itself when it already is, else a new Cast op. */
AIRC_API airc_status airc_ge_cast(airc_ge_builder *b, airc_ge_tensor t, airc_dtype dtype,
                                  airc_ge_tensor *out);
/** Sets result `result` of the node being converted. */
AIRC_API airc_status airc_ge_set_result(airc_ge_builder *b, size_t result, airc_ge_tensor t);

/* ---- reading models back ------------------------------------------------------- */

/** Reads a serialized GE ModelDef (what max-autotune emits; TorchAir's
 *  Ascend IR) and builds the ATen graph airc's reference executor runs:
 *  placeholders in `Data` index order, each `Const` as a get_attr with its
 *  bytes bound as a constant, each other op raised to ATen nodes, the
 *  NetOutput's inputs as the output tuple. Run it with airc_run_eager.
 *  Validated first: one GraphDef; unique op names; data inputs "op:index"
 *  naming an earlier op and an output it has (a later or unknown op is a
 *  dangling or cyclic input); Data indices 0..n-1; Const values whose bytes
 *  match their shape; a NetOutput, last; known op types with their arity
 *  and required attributes.
 *  @return AIRC_OK; AIRC_E_MISUSE; AIRC_E_INVALID_ARGUMENT (NULL);
 *          AIRC_E_PARSE (not a ModelDef: truncated or malformed bytes);
 *          AIRC_E_INVALID_GRAPH ("ModelDef: op 'mm' (MatMul): ..." naming
 *          the op); AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_model_read(airc_context *ctx, const void *data, size_t len,
                                     airc_graph **out);

#ifdef __cplusplus
}
#endif
#endif
