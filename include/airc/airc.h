/*
 * airc — an embeddable graph compiler with torch.fx semantics.
 *
 * This is the one header an application needs. A short tour:
 *
 *     airc_context *ctx;
 *     airc_context_create(NULL, &ctx);              // default allocator
 *     airc_graph *g;
 *     airc_graph_parse_file(ctx, "model.fx", &g);   // torch.fx str(graph) text
 *     airc_graph_lint(g);                           // torch.fx checks + schemas
 *     airc_graph_propagate_meta(g);                 // after placeholders got meta
 *     char *text;
 *     airc_graph_print(g, AIRC_PRINT_TYPES, &text);
 *     puts(text);
 *     airc_string_free(text);
 *     airc_graph_destroy(g);
 *     airc_context_destroy(ctx);
 *
 * Conventions (see docs/api.md):
 * - Fallible functions return airc_status (AIRC_OK == 0); on failure the
 *   thread-local airc_last_error() says what and where, and out-parameters
 *   are left untouched.
 * - Handles are opaque. *_destroy(NULL) is a no-op. A NULL or destroyed
 *   handle gives AIRC_E_MISUSE (best effort for freed memory; always for
 *   erased nodes, which stay allocated until their graph dies).
 * - Input strings are borrowed for the duration of the call and copied.
 *   Returned `const char *` are borrowed from the object they came from.
 * - Callbacks are (function, user_data, free function); the free function,
 *   when not NULL, is called exactly once when airc no longer needs user_data.
 *   On failure of the registering call, it is not called: the caller keeps
 *   ownership.
 * - Thread-safety: a context may be shared by threads (its registry is
 *   locked: ops, kernels and plugins may be registered while others
 *   compile); a graph is used by one thread at a time; distinct graphs may
 *   be used concurrently; calls on one compiled object are serialized.
 *   docs/api.md says what each thread sees.
 */
#ifndef AIRC_AIRC_H
#define AIRC_AIRC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#  if defined(AIRC_BUILDING)
#    define AIRC_API __declspec(dllexport)
#  else
#    define AIRC_API
#  endif
#else
#  define AIRC_API __attribute__((visibility("default")))
#endif

/* ------------------------------------------------------------------------ */
/* Versions                                                                 */
/* ------------------------------------------------------------------------ */

#define AIRC_VERSION_MAJOR 0
#define AIRC_VERSION_MINOR 1
#define AIRC_VERSION_PATCH 0
#define AIRC_VERSION_STRING "0.1.0"
/* Bumped whenever a public struct layout or a function signature changes. */
#define AIRC_ABI_VERSION 1

/** The library's version string, e.g. "0.1.0". Static storage. */
AIRC_API const char *airc_version(void);
/** The library's ABI version (AIRC_ABI_VERSION it was built with). Bindings
 *  and plugins compare it with the header they were built against. */
AIRC_API int32_t airc_abi_version(void);

/* ------------------------------------------------------------------------ */
/* Status codes and errors                                                  */
/* ------------------------------------------------------------------------ */

typedef int32_t airc_status;
enum {
    AIRC_OK = 0,
    AIRC_E_INVALID_ARGUMENT = 1, /* a value the caller passed is wrong          */
    AIRC_E_OUT_OF_MEMORY = 2,    /* the allocator hook returned NULL             */
    AIRC_E_MISUSE = 3,           /* NULL/destroyed handle, wrong call order      */
    AIRC_E_PARSE = 4,            /* malformed text, schema, or file contents     */
    AIRC_E_NOT_FOUND = 5,        /* unknown op, node, key, constant, file        */
    AIRC_E_EXISTS = 6,           /* duplicate op, name, constant                 */
    AIRC_E_INVALID_GRAPH = 7,    /* lint failure, order violation, users remain  */
    AIRC_E_SHAPE = 8,            /* shape or dtype error found by a meta function */
    AIRC_E_UNSUPPORTED = 9,      /* valid request that airc cannot do (yet)      */
    AIRC_E_IO = 10,              /* reading or writing a file failed             */
    AIRC_E_PASS = 11,            /* a pass failed                                */
    AIRC_E_RUNTIME = 12,         /* a runtime or kernel failed                   */
    AIRC_E_INTERNAL = 13         /* a bug in airc: please report                 */
};

/** Message of the last failed airc call on this thread ("" if none). Valid
 *  until the next airc call on the same thread. Thread-safe. */
AIRC_API const char *airc_last_error(void);
/** Status of the last failed airc call on this thread (AIRC_OK if none). */
AIRC_API airc_status airc_last_error_code(void);
/** Static name of a status code: "AIRC_E_PARSE"; "AIRC_E_UNKNOWN" otherwise. */
AIRC_API const char *airc_status_name(airc_status status);
/** Frees a string airc returned through a `char **` out-parameter
 *  (airc_graph_print, airc_schema_to_string...). NULL is a no-op. */
AIRC_API void airc_string_free(char *s);

/* ------------------------------------------------------------------------ */
/* Context: allocator, logging, op registry                                 */
/* ------------------------------------------------------------------------ */

typedef struct airc_context airc_context;
typedef struct airc_graph airc_graph;
typedef struct airc_node airc_node;
typedef struct airc_value airc_value;
typedef struct airc_op airc_op;
typedef struct airc_schema airc_schema;
typedef struct airc_config airc_config;
typedef struct airc_tensor airc_tensor;

typedef void (*airc_free_fn)(void *user_data);

/** Allocator hook, with libc's contracts. All memory airc allocates goes
 *  through it. Every function receives user_data first. A NULL return is
 *  reported as AIRC_E_OUT_OF_MEMORY (realloc_fn must then leave ptr valid).
 *  Alignment: at least that of max_align_t. Thread-safety: like malloc —
 *  the hook is called concurrently, from the application's threads and from
 *  the CPU runtime's stream workers (kernels' scratch memory). */
typedef struct airc_allocator {
    size_t struct_size; /* sizeof(airc_allocator) */
    void *(*malloc_fn)(void *user_data, size_t size);
    void *(*realloc_fn)(void *user_data, void *ptr, size_t size);
    void (*free_fn)(void *user_data, void *ptr);
    void *user_data;
} airc_allocator;

/** Log levels. AIRC_LOG (environment) = error|warn|info|debug sets a new
 *  context's level; the default is warn. */
enum { AIRC_LOG_ERROR = 0, AIRC_LOG_WARN = 1, AIRC_LOG_INFO = 2, AIRC_LOG_DEBUG = 3 };
typedef void (*airc_log_fn)(void *user_data, int32_t level, const char *message);

/** Creates a context with the built-in ops registered.
 *  @param allocator NULL for libc; otherwise copied (its user_data must
 *         outlive the context and every string airc returned).
 *  @param out receives the context.
 *  @return AIRC_OK, AIRC_E_INVALID_ARGUMENT (bad struct_size, missing
 *          functions), AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_context_create(const airc_allocator *allocator, airc_context **out);
/** Releases the caller's reference. Graphs created from the context keep it
 *  alive until they are destroyed. NULL is a no-op. */
AIRC_API void airc_context_destroy(airc_context *ctx);
/** Sets the log callback (replacing and freeing the previous user_data).
 *  fn NULL restores the default (stderr). Messages are sent from the thread
 *  that logs. */
AIRC_API airc_status airc_context_set_log(airc_context *ctx, airc_log_fn fn, void *user_data,
                                          airc_free_fn free_user_data);
AIRC_API airc_status airc_context_set_log_level(airc_context *ctx, int32_t level);
AIRC_API int32_t airc_context_log_level(const airc_context *ctx);

/* ------------------------------------------------------------------------ */
/* Data types                                                               */
/* ------------------------------------------------------------------------ */

typedef int32_t airc_dtype;
enum {
    AIRC_DTYPE_UNDEFINED = 0,
    AIRC_DTYPE_F32 = 1,
    AIRC_DTYPE_F64 = 2,
    AIRC_DTYPE_F16 = 3,
    AIRC_DTYPE_BF16 = 4,
    AIRC_DTYPE_I64 = 5,
    AIRC_DTYPE_I32 = 6,
    AIRC_DTYPE_I16 = 7,
    AIRC_DTYPE_I8 = 8,
    AIRC_DTYPE_U8 = 9,
    AIRC_DTYPE_BOOL = 10
};
#define AIRC_MAX_DIMS 16

/** Short name ("f32", "b8"); NULL for an invalid dtype. */
AIRC_API const char *airc_dtype_name(airc_dtype dtype);
/** torch name ("torch.float32", "torch.bool"); NULL for an invalid dtype. */
AIRC_API const char *airc_dtype_torch_name(airc_dtype dtype);
/** Element size in bytes; 0 for an invalid dtype. */
AIRC_API size_t airc_dtype_size(airc_dtype dtype);
/** Parses "f32" or "torch.float32" (and torch aliases such as
 *  "torch.float", "torch.long"); AIRC_E_NOT_FOUND otherwise. */
AIRC_API airc_status airc_dtype_from_name(const char *name, airc_dtype *out);

typedef int32_t airc_memory_format;
enum {
    AIRC_MEMORY_FORMAT_CONTIGUOUS = 0,
    AIRC_MEMORY_FORMAT_CHANNELS_LAST = 1,
    AIRC_MEMORY_FORMAT_PRESERVE = 2,
    AIRC_MEMORY_FORMAT_CHANNELS_LAST_3D = 3
};
typedef int32_t airc_layout;
enum { AIRC_LAYOUT_STRIDED = 0, AIRC_LAYOUT_SPARSE_COO = 1 };

/* ------------------------------------------------------------------------ */
/* Values: arguments of nodes (immutable, owned by a graph)                 */
/* ------------------------------------------------------------------------ */

typedef int32_t airc_value_kind;
enum {
    AIRC_VALUE_NONE = 0,
    AIRC_VALUE_INT = 1,
    AIRC_VALUE_FLOAT = 2,
    AIRC_VALUE_BOOL = 3,
    AIRC_VALUE_STRING = 4,
    AIRC_VALUE_NODE = 5,
    AIRC_VALUE_DTYPE = 6,
    AIRC_VALUE_DEVICE = 7,
    AIRC_VALUE_MEMORY_FORMAT = 8,
    AIRC_VALUE_LAYOUT = 9,
    AIRC_VALUE_LIST = 10,
    AIRC_VALUE_TUPLE = 11
};

/* Constructors. The value belongs to graph g and lives as long as g; it may
 * be used in any number of nodes of g (not of another graph). Strings are
 * copied. Returns AIRC_OK, AIRC_E_MISUSE, AIRC_E_INVALID_ARGUMENT,
 * AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_value_none(airc_graph *g, const airc_value **out);
AIRC_API airc_status airc_value_int(airc_graph *g, int64_t v, const airc_value **out);
AIRC_API airc_status airc_value_float(airc_graph *g, double v, const airc_value **out);
AIRC_API airc_status airc_value_bool(airc_graph *g, int32_t v, const airc_value **out);
AIRC_API airc_status airc_value_string(airc_graph *g, const char *s, const airc_value **out);
AIRC_API airc_status airc_value_node(airc_graph *g, airc_node *n, const airc_value **out);
AIRC_API airc_status airc_value_dtype(airc_graph *g, airc_dtype d, const airc_value **out);
/** type: "cpu", "cuda", "npu", "meta"...; index -1 for none. */
AIRC_API airc_status airc_value_device(airc_graph *g, const char *type, int32_t index,
                                       const airc_value **out);
AIRC_API airc_status airc_value_memory_format(airc_graph *g, airc_memory_format f,
                                              const airc_value **out);
AIRC_API airc_status airc_value_layout(airc_graph *g, airc_layout l, const airc_value **out);
/** items[i] must belong to g; n may be 0 (items may then be NULL). */
AIRC_API airc_status airc_value_list(airc_graph *g, const airc_value *const *items, size_t n,
                                     const airc_value **out);
AIRC_API airc_status airc_value_tuple(airc_graph *g, const airc_value *const *items, size_t n,
                                      const airc_value **out);

/* Readers. Kind of a NULL value is AIRC_VALUE_NONE. The getters return
 * AIRC_E_INVALID_ARGUMENT when the kind does not match (get_float also
 * accepts an int; get_int accepts a bool). */
AIRC_API airc_value_kind airc_value_get_kind(const airc_value *v);
AIRC_API airc_status airc_value_get_int(const airc_value *v, int64_t *out);
AIRC_API airc_status airc_value_get_float(const airc_value *v, double *out);
AIRC_API airc_status airc_value_get_bool(const airc_value *v, int32_t *out);
/** Borrowed from the value's graph. */
AIRC_API airc_status airc_value_get_string(const airc_value *v, const char **out);
AIRC_API airc_status airc_value_get_node(const airc_value *v, airc_node **out);
AIRC_API airc_status airc_value_get_dtype(const airc_value *v, airc_dtype *out);
AIRC_API airc_status airc_value_get_device(const airc_value *v, const char **type,
                                           int32_t *index);
AIRC_API airc_status airc_value_get_enum(const airc_value *v, int32_t *out); /* format/layout */
/** Number of items of a list or tuple; 0 for other kinds. */
AIRC_API size_t airc_value_length(const airc_value *v);
/** i-th item of a list or tuple; NULL when out of range. */
AIRC_API const airc_value *airc_value_item(const airc_value *v, size_t i);
/** 1 when equal (deep; node refs by identity, floats bitwise-or-equal). */
AIRC_API int32_t airc_value_equal(const airc_value *a, const airc_value *b);

/* ------------------------------------------------------------------------ */
/* Graphs and nodes                                                         */
/* ------------------------------------------------------------------------ */

typedef int32_t airc_node_kind;
enum {
    AIRC_NODE_PLACEHOLDER = 0,
    AIRC_NODE_GET_ATTR = 1,
    AIRC_NODE_CALL_FUNCTION = 2,
    AIRC_NODE_CALL_MODULE = 3,
    AIRC_NODE_OUTPUT = 4
};
/** "placeholder", "get_attr", "call_function", "call_module", "output". */
AIRC_API const char *airc_node_kind_name(airc_node_kind kind);

/** Creates an empty graph (it holds a reference to ctx).
 *  @return AIRC_OK, AIRC_E_MISUSE, AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_graph_create(airc_context *ctx, airc_graph **out);
/** Destroys the graph, its nodes, values, constants and submodules. Every
 *  handle obtained from it dies with it. NULL is a no-op. */
AIRC_API void airc_graph_destroy(airc_graph *g);
AIRC_API airc_context *airc_graph_context(const airc_graph *g);
/** Deep copy: nodes (same names), values, meta, attributes, constants
 *  (shared data, reference counted), submodules. */
AIRC_API airc_status airc_graph_clone(const airc_graph *g, airc_graph **out);

/** Live (not erased) nodes, in order. */
AIRC_API size_t airc_graph_num_nodes(const airc_graph *g);
/** First/last live node; NULL when empty. */
AIRC_API airc_node *airc_graph_first_node(const airc_graph *g);
AIRC_API airc_node *airc_graph_last_node(const airc_graph *g);
AIRC_API airc_node *airc_node_next(const airc_node *n);
AIRC_API airc_node *airc_node_prev(const airc_node *n);
/** Live node with this name; NULL if none. O(1). */
AIRC_API airc_node *airc_graph_find_node(const airc_graph *g, const char *name);
/** The (first) output node; NULL if none. */
AIRC_API airc_node *airc_graph_output_node(const airc_graph *g);

/* Insertion point: where the next created node goes.
 * AIRC_INSERT_END (default): append at the end of the graph (torch.fx).
 * AIRC_INSERT_BEFORE anchor: just before anchor; successive nodes keep
 *   creation order (torch.fx inserting_before).
 * AIRC_INSERT_AFTER anchor: just after anchor, and the point then moves past
 *   each created node, so successive nodes keep creation order. This differs
 *   from torch.fx's inserting_after, which puts each node directly after the
 *   anchor (reversing chains); see docs/ir.md.
 * AIRC_INSERT_FRONT: at the start (before all nodes). */
enum { AIRC_INSERT_END = 0, AIRC_INSERT_BEFORE = 1, AIRC_INSERT_AFTER = 2, AIRC_INSERT_FRONT = 3 };
AIRC_API airc_status airc_graph_set_insert_point(airc_graph *g, int32_t where, airc_node *anchor);
/** Current insertion point (to save and restore around a scope). */
AIRC_API airc_status airc_graph_get_insert_point(const airc_graph *g, int32_t *where,
                                                 airc_node **anchor);

/** Creates a node at the insertion point.
 *  @param kind   AIRC_NODE_*.
 *  @param target op name for call_function ("aten.mm.default",
 *                "torch.ops.aten.mm.default", "operator.getitem"); the input
 *                name for placeholder; the constant name for get_attr; the
 *                submodule name for call_module; ignored for output.
 *  @param args,nargs positional values (of this graph).
 *  @param kw_names,kw_values,nkw keyword arguments (names copied).
 *  @param name   desired node name or NULL (derived from the target as
 *                make_fx does: op name without overload); made unique with
 *                a _N suffix.
 *  @return AIRC_OK; AIRC_E_NOT_FOUND (unknown op or submodule);
 *          AIRC_E_INVALID_GRAPH (an argument defined after the insertion
 *          point, or from another graph); AIRC_E_INVALID_ARGUMENT;
 *          AIRC_E_OUT_OF_MEMORY. The graph is unchanged on failure. */
AIRC_API airc_status airc_graph_create_node(airc_graph *g, airc_node_kind kind, const char *target,
                                            const airc_value *const *args, size_t nargs,
                                            const char *const *kw_names,
                                            const airc_value *const *kw_values, size_t nkw,
                                            const char *name, airc_node **out);
/** Shorthands for airc_graph_create_node. */
AIRC_API airc_status airc_graph_placeholder(airc_graph *g, const char *name, airc_node **out);
AIRC_API airc_status airc_graph_get_attr(airc_graph *g, const char *target, airc_node **out);
AIRC_API airc_status airc_graph_call_function(airc_graph *g, const char *op,
                                              const airc_value *const *args, size_t nargs,
                                              airc_node **out);
/** result: a node value, or a tuple/list of them (torch.fx's output args[0]). */
AIRC_API airc_status airc_graph_output(airc_graph *g, const airc_value *result, airc_node **out);

/** Erases a node. AIRC_E_INVALID_GRAPH while it has users; AIRC_E_MISUSE
 *  when it is already erased or of another graph. Its handle stays readable
 *  (kind, name) until the graph dies, but every edit on it is refused. */
AIRC_API airc_status airc_graph_erase_node(airc_graph *g, airc_node *n);
/** Erases several nodes at once, in time linear in their edges (erasing
 *  them one by one is quadratic when they share an input). Every user of a
 *  listed node must be listed too. All or nothing: AIRC_E_INVALID_GRAPH
 *  (a user left behind), AIRC_E_MISUSE (erased or foreign node),
 *  AIRC_E_INVALID_ARGUMENT (listed twice). Allocates nothing. */
AIRC_API airc_status airc_graph_erase_nodes(airc_graph *g, airc_node *const *nodes, size_t count);
/** Moves n just before / after anchor. Refused (AIRC_E_INVALID_GRAPH) when
 *  that would put a use before its definition. */
AIRC_API airc_status airc_node_move_before(airc_node *n, airc_node *anchor);
AIRC_API airc_status airc_node_move_after(airc_node *n, airc_node *anchor);

/** torch.fx Graph.lint plus airc's checks: node order and ownership, unique
 *  names, users consistent, one output node and last, placeholders first,
 *  every call_function's arity and argument kinds against its schema, every
 *  get_attr has a constant (when the graph has constants), every call_module
 *  has a submodule, air.scope_enter/scope_exit paired. Messages name the
 *  node. @return AIRC_OK or AIRC_E_INVALID_GRAPH. */
AIRC_API airc_status airc_graph_lint(const airc_graph *g);
/** torch.fx eliminate_dead_code: one reverse sweep erasing nodes without
 *  users that are not impure (placeholders, output, side-effect ops).
 *  @param changed optional; receives 1 when a node was erased. */
AIRC_API airc_status airc_graph_eliminate_dead_code(airc_graph *g, int32_t *changed);

/* Node reading */
AIRC_API airc_node_kind airc_node_get_kind(const airc_node *n);
AIRC_API const char *airc_node_name(const airc_node *n);
/** Target as text: "aten.mm.default", "operator.getitem", the placeholder's
 *  target, the constant or submodule name, "output". */
AIRC_API const char *airc_node_target(const airc_node *n);
/** The op of a call_function node; NULL otherwise. */
AIRC_API const airc_op *airc_node_op(const airc_node *n);
AIRC_API airc_graph *airc_node_graph(const airc_node *n);
AIRC_API int32_t airc_node_is_erased(const airc_node *n);
AIRC_API size_t airc_node_num_args(const airc_node *n);
AIRC_API const airc_value *airc_node_arg(const airc_node *n, size_t i);
AIRC_API size_t airc_node_num_kwargs(const airc_node *n);
AIRC_API const char *airc_node_kwarg_name(const airc_node *n, size_t i);
AIRC_API const airc_value *airc_node_kwarg_value(const airc_node *n, size_t i);
/** Keyword argument by name; NULL if absent. */
AIRC_API const airc_value *airc_node_kwarg(const airc_node *n, const char *name);
/** Users in torch.fx order (insertion-ordered set; a user appears once). */
AIRC_API size_t airc_node_num_users(const airc_node *n);
AIRC_API airc_node *airc_node_user(const airc_node *n, size_t i);
/** Distinct input nodes in args-then-kwargs first-occurrence order. */
AIRC_API size_t airc_node_num_inputs(const airc_node *n);
AIRC_API airc_node *airc_node_input(const airc_node *n, size_t i);

/* Node edits. Each validates fully before it changes anything. */
AIRC_API airc_status airc_node_set_args(airc_node *n, const airc_value *const *args, size_t nargs);
AIRC_API airc_status airc_node_set_kwargs(airc_node *n, const char *const *names,
                                          const airc_value *const *values, size_t nkw);
AIRC_API airc_status airc_node_update_arg(airc_node *n, size_t i, const airc_value *v);
/** Sets (or adds) one keyword argument; v NULL removes it. */
AIRC_API airc_status airc_node_update_kwarg(airc_node *n, const char *name, const airc_value *v);
/** Retargets a call_function node to another op (torch.fx: node.target = ...). */
AIRC_API airc_status airc_node_set_target(airc_node *n, const char *op);
/** Renames n (torch.fx's Node._rename): the new name is made from
 *  `candidate` by the rules of new nodes' names (sanitized, "_N" added
 *  when taken), so it may differ from candidate; n's old name stays
 *  reserved (names are never reused). Users print the new name; a
 *  placeholder's target is not changed.
 *  @param name optional: the name given (borrowed from the graph).
 *  @return AIRC_OK; AIRC_E_INVALID_ARGUMENT (NULL or empty candidate);
 *          AIRC_E_MISUSE; AIRC_E_OUT_OF_MEMORY (n keeps its name). */
AIRC_API airc_status airc_node_rename(airc_node *n, const char *candidate, const char **name);

/** Optional filter for replace_all_uses_with: return nonzero to rewrite user. */
typedef int32_t (*airc_user_filter_fn)(void *user_data, const airc_node *user);
/** Rewrites every use of n (in each user passing filter; filter NULL = all)
 *  to `replacement`. Refused when replacement is n, is erased, is from
 *  another graph, or comes after a user.
 *  @param n_changed optional: number of users rewritten. */
AIRC_API airc_status airc_node_replace_all_uses_with(airc_node *n, airc_node *replacement,
                                                     airc_user_filter_fn filter, void *user_data,
                                                     size_t *n_changed);
/** Rewrites uses of `old_input` inside n to `new_input`. AIRC_E_NOT_FOUND
 *  when old_input is not an input of n. */
AIRC_API airc_status airc_node_replace_input_with(airc_node *n, airc_node *old_input,
                                                  airc_node *new_input);

/* Meta: the dtype/shape/strides of a node's result. A node has no meta, a
 * single tensor, or a tuple of tensors (multi-output ops). */
enum { AIRC_META_NONE = 0, AIRC_META_TENSOR = 1, AIRC_META_TUPLE = 2 };
AIRC_API int32_t airc_node_meta_kind(const airc_node *n);
/** Number of tensors described: 0, 1, or the tuple length. */
AIRC_API size_t airc_node_num_outputs(const airc_node *n);
/** Reads output i's meta. Pointers are borrowed until the meta changes.
 *  Any out pointer may be NULL. AIRC_E_NOT_FOUND when out of range. */
AIRC_API airc_status airc_node_output_meta(const airc_node *n, size_t i, airc_dtype *dtype,
                                           int32_t *ndim, const int64_t **shape,
                                           const int64_t **strides);
/** Sets a single-tensor meta. strides NULL = contiguous. */
AIRC_API airc_status airc_node_set_meta(airc_node *n, airc_dtype dtype, int32_t ndim,
                                        const int64_t *shape, const int64_t *strides);
/** Makes the meta a tuple of `count` tensors (each then set with
 *  airc_node_set_output_meta). count 0 is `()`. */
AIRC_API airc_status airc_node_set_meta_tuple(airc_node *n, size_t count);
AIRC_API airc_status airc_node_set_output_meta(airc_node *n, size_t i, airc_dtype dtype,
                                               int32_t ndim, const int64_t *shape,
                                               const int64_t *strides);
AIRC_API airc_status airc_node_clear_meta(airc_node *n);
/** Meta of a value: a node ref's single output (or its output 0). */
AIRC_API airc_status airc_value_meta(const airc_value *v, airc_dtype *dtype, int32_t *ndim,
                                     const int64_t **shape, const int64_t **strides);

/* Free key/value attributes of a node (torch.fx node.meta[...]), e.g. a
 * stream label. v must belong to the node's graph; NULL removes the key. */
AIRC_API airc_status airc_node_set_attr(airc_node *n, const char *key, const airc_value *v);
AIRC_API const airc_value *airc_node_get_attr(const airc_node *n, const char *key);
AIRC_API size_t airc_node_num_attrs(const airc_node *n);
AIRC_API const char *airc_node_attr_key(const airc_node *n, size_t i);

/* ------------------------------------------------------------------------ */
/* Constants (get_attr targets) and submodules (call_module targets)        */
/* ------------------------------------------------------------------------ */

/** Binds tensor data to a constant name.
 *  @param data   copied when free_data is NULL; otherwise borrowed and
 *                released by free_data(user_data) when the last graph using
 *                it dies (clones share it). On failure free_data is not called.
 *  @param strides NULL for contiguous.
 *  @return AIRC_OK, AIRC_E_EXISTS (name taken), AIRC_E_INVALID_ARGUMENT,
 *          AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_graph_set_constant(airc_graph *g, const char *name, airc_dtype dtype,
                                             int32_t ndim, const int64_t *shape,
                                             const int64_t *strides, void *data,
                                             airc_free_fn free_data, void *user_data);
/** Reads a constant; any out pointer may be NULL. Borrowed. */
AIRC_API airc_status airc_graph_get_constant(const airc_graph *g, const char *name,
                                             airc_dtype *dtype, int32_t *ndim,
                                             const int64_t **shape, const int64_t **strides,
                                             void **data);
AIRC_API size_t airc_graph_num_constants(const airc_graph *g);
AIRC_API const char *airc_graph_constant_name(const airc_graph *g, size_t i);

/** Adds sub as a nested graph named `name`; the parent takes ownership of
 *  sub on success. sub must share g's context and have no parent. */
AIRC_API airc_status airc_graph_add_submodule(airc_graph *g, const char *name, airc_graph *sub);
AIRC_API airc_graph *airc_graph_submodule(const airc_graph *g, const char *name);
AIRC_API size_t airc_graph_num_submodules(const airc_graph *g);
AIRC_API airc_graph *airc_graph_submodule_at(const airc_graph *g, size_t i, const char **name);

/* ------------------------------------------------------------------------ */
/* Text format (torch.fx str(graph))                                        */
/* ------------------------------------------------------------------------ */

/** Parses torch.fx text. `source` names the text in messages (a file name)
 *  and may be NULL ("<text>"). Errors are AIRC_E_PARSE with
 *  "source:line:col: expected ..." or AIRC_E_NOT_FOUND for an unknown op.
 *  text need not be NUL-terminated (len bytes are read). */
AIRC_API airc_status airc_graph_parse(airc_context *ctx, const char *text, size_t len,
                                      const char *source, airc_graph **out);
/** Reads a file ("-" = standard input) and parses it. */
AIRC_API airc_status airc_graph_parse_file(airc_context *ctx, const char *path, airc_graph **out);

enum {
    AIRC_PRINT_DEFAULT = 0,
    /** Print every node's meta in the type slot (`f32[3, 3]`), not only the
     *  types the parsed text carried. */
    AIRC_PRINT_TYPES = 1u << 0,
    /** Never print the type slot. */
    AIRC_PRINT_NO_TYPES = 1u << 1
};
/** Prints the graph (and its submodules) as torch.fx text. *out is freed
 *  with airc_string_free. Print -> parse -> print is the identity. */
AIRC_API airc_status airc_graph_print(const airc_graph *g, uint32_t flags, char **out);

/* ------------------------------------------------------------------------ */
/* Ops and schemas                                                          */
/* ------------------------------------------------------------------------ */

/** Parses a schema in PyTorch's schema language:
 *  "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor".
 *  The result is owned by the caller (airc_schema_destroy). */
AIRC_API airc_status airc_schema_parse(airc_context *ctx, const char *text, airc_schema **out);
AIRC_API void airc_schema_destroy(airc_schema *s);
/** Canonical text of the schema; free with airc_string_free. */
AIRC_API airc_status airc_schema_to_string(const airc_schema *s, char **out);
/** "aten", "add", "Tensor" ("" when the schema has no overload name). */
AIRC_API const char *airc_schema_namespace(const airc_schema *s);
AIRC_API const char *airc_schema_name(const airc_schema *s);
AIRC_API const char *airc_schema_overload(const airc_schema *s);

typedef int32_t airc_type_kind;
enum {
    AIRC_TYPE_TENSOR = 0,
    AIRC_TYPE_INT = 1,
    AIRC_TYPE_SYMINT = 2,
    AIRC_TYPE_FLOAT = 3,
    AIRC_TYPE_BOOL = 4,
    AIRC_TYPE_STR = 5,
    AIRC_TYPE_SCALAR = 6,
    AIRC_TYPE_SCALAR_TYPE = 7,
    AIRC_TYPE_DEVICE = 8,
    AIRC_TYPE_LAYOUT = 9,
    AIRC_TYPE_MEMORY_FORMAT = 10,
    AIRC_TYPE_GENERATOR = 11,
    AIRC_TYPE_ANY = 12,
    AIRC_TYPE_NONE = 13,
    AIRC_TYPE_DIMNAME = 14,
    AIRC_TYPE_STORAGE = 15
};
/** Arguments (i < num_args) and returns (i < num_returns). */
AIRC_API size_t airc_schema_num_args(const airc_schema *s);
AIRC_API size_t airc_schema_num_returns(const airc_schema *s);
/** Argument name ("" for unnamed returns). */
AIRC_API const char *airc_schema_arg_name(const airc_schema *s, size_t i);
/** Element type kind (Tensor for "Tensor?[]"). */
AIRC_API airc_type_kind airc_schema_arg_type(const airc_schema *s, size_t i);
/** Type as written canonically: "Tensor?", "int[2]", "Tensor(a!)". */
AIRC_API const char *airc_schema_arg_type_string(const airc_schema *s, size_t i);
AIRC_API int32_t airc_schema_arg_is_optional(const airc_schema *s, size_t i);
AIRC_API int32_t airc_schema_arg_is_list(const airc_schema *s, size_t i);
/** Fixed list size (int[2] -> 2), 0 when none. */
AIRC_API int32_t airc_schema_arg_list_size(const airc_schema *s, size_t i);
AIRC_API int32_t airc_schema_arg_is_kwarg_only(const airc_schema *s, size_t i);
/** Default value or NULL when the argument has none. Borrowed. */
AIRC_API const airc_value *airc_schema_arg_default(const airc_schema *s, size_t i);
/** Alias set ("a" for Tensor(a!)) or NULL; is_write 1 for "!". */
AIRC_API const char *airc_schema_arg_alias(const airc_schema *s, size_t i);
AIRC_API int32_t airc_schema_arg_is_write(const airc_schema *s, size_t i);
AIRC_API airc_type_kind airc_schema_return_type(const airc_schema *s, size_t i);
AIRC_API const char *airc_schema_return_type_string(const airc_schema *s, size_t i);
AIRC_API const char *airc_schema_return_name(const airc_schema *s, size_t i);
AIRC_API const char *airc_schema_return_alias(const airc_schema *s, size_t i);
AIRC_API int32_t airc_schema_return_is_write(const airc_schema *s, size_t i);
/** 1 when some argument is written (a!) — the op mutates an input. */
AIRC_API int32_t airc_schema_is_mutable(const airc_schema *s);

/** Op flags. */
enum {
    AIRC_OP_PURE = 0,
    /** Never removed by DCE or CSE (streams, events, asserts, in-place on
     *  inputs); set automatically for schemas that write an argument. */
    AIRC_OP_SIDE_EFFECT = 1u << 0,
    /** Result aliases its input (view ops; with a written self, an in-place
     *  view such as squeeze_, whose result has the new shape). */
    AIRC_OP_VIEW = 1u << 1
};

/** Computes the meta of a call_function node's result from its arguments'
 *  meta (airc_value_meta) and literals, and sets it with airc_node_set_meta
 *  / airc_node_set_meta_tuple. Returns AIRC_E_SHAPE with a message for bad
 *  shapes or dtypes (airc prefixes the node name). */
typedef airc_status (*airc_meta_fn)(airc_node *node, void *user_data);

/** Registration of an op. Fill with airc_op_def_init, then set fields. */
typedef struct airc_op_def {
    size_t struct_size;  /* sizeof(airc_op_def) */
    const char *schema;  /* "ns::name.overload(args) -> returns"; copied */
    uint32_t flags;      /* AIRC_OP_* */
    airc_meta_fn meta;   /* may be NULL (then graph modes refuse the op) */
    void *meta_user_data;
    airc_free_fn meta_free;
} airc_op_def;
AIRC_API void airc_op_def_init(airc_op_def *def);

/** Registers an op in ctx. Safe while other threads use ctx (registry lock).
 *  @param out optional; the op (lives as long as ctx).
 *  @return AIRC_OK; AIRC_E_PARSE (bad schema); AIRC_E_EXISTS (name taken,
 *          built-in ops included); AIRC_E_INVALID_ARGUMENT; AIRC_E_OUT_OF_MEMORY.
 *  On failure meta_free is not called. */
AIRC_API airc_status airc_context_register_op(airc_context *ctx, const airc_op_def *def,
                                              const airc_op **out);
/** Finds an op by "ns.name.overload" ("aten.mm.default"), also accepting
 *  "torch.ops." in front, "ns::name.overload", and "operator.getitem".
 *  Thread-safe. @return AIRC_OK or AIRC_E_NOT_FOUND. */
AIRC_API airc_status airc_context_find_op(airc_context *ctx, const char *name,
                                          const airc_op **out);
/** Replaces an op's meta function (custom or built-in). The old
 *  user_data is freed (by its free function) when ctx dies, not now: a
 *  compile on another thread may be running the old function. Thread-safe:
 *  each node's meta comes from the old function or the new one.
 *  @return AIRC_OK; AIRC_E_NOT_FOUND (unknown op); AIRC_E_MISUSE;
 *          AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_context_set_op_meta(airc_context *ctx, const char *name,
                                              airc_meta_fn meta, void *user_data,
                                              airc_free_fn free_user_data);
/** Number of ops known to ctx (built-ins + custom) and their names, in a
 *  stable order (built-ins sorted, then custom ops in registration order). */
AIRC_API size_t airc_context_num_ops(airc_context *ctx);
AIRC_API const char *airc_context_op_name(airc_context *ctx, size_t i);

/** "aten.mm.default" */
AIRC_API const char *airc_op_name(const airc_op *op);
/** How torch prints the target: "torch.ops.aten.mm.default", "operator.getitem". */
AIRC_API const char *airc_op_target_string(const airc_op *op);
AIRC_API const airc_schema *airc_op_schema(const airc_op *op);
AIRC_API uint32_t airc_op_flags(const airc_op *op);
AIRC_API int32_t airc_op_has_meta(const airc_op *op);

/* ------------------------------------------------------------------------ */
/* Meta propagation                                                          */
/* ------------------------------------------------------------------------ */

/** Computes every node's meta in order from the placeholders' meta (set
 *  with airc_node_set_meta), constants, and the ops' meta functions.
 *  @return AIRC_OK; AIRC_E_SHAPE / AIRC_E_UNSUPPORTED naming the node; the
 *          graph's meta is left as it was on failure. */
AIRC_API airc_status airc_graph_propagate_meta(airc_graph *g);

/* ------------------------------------------------------------------------ */
/* Host tensors and .npy files                                              */
/* ------------------------------------------------------------------------ */

/** Creates a zero-filled contiguous host tensor (64-byte aligned data). */
AIRC_API airc_status airc_tensor_create(airc_context *ctx, airc_dtype dtype, int32_t ndim,
                                        const int64_t *shape, airc_tensor **out);
/** A tensor over memory the caller owns (contiguous, C order): destroying
 *  it frees only the handle. data may be NULL only when the tensor is
 *  empty. @return AIRC_OK, AIRC_E_INVALID_ARGUMENT, AIRC_E_MISUSE,
 *  AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_tensor_wrap(airc_context *ctx, airc_dtype dtype, int32_t ndim,
                                      const int64_t *shape, void *data, airc_tensor **out);
AIRC_API void airc_tensor_destroy(airc_tensor *t);
/** 1 when the tensor owns its data (airc_tensor_create, npy reads, eager
 *  results, copied results), 0 when it borrows memory it will not free
 *  (airc_tensor_wrap: a caller's buffer, or a reduce-overhead result in
 *  the arena, valid until the next run). A binding can hand owned data out
 *  without a copy and must copy borrowed data it keeps. */
AIRC_API int32_t airc_tensor_owns_data(const airc_tensor *t);
AIRC_API airc_dtype airc_tensor_dtype(const airc_tensor *t);
AIRC_API int32_t airc_tensor_ndim(const airc_tensor *t);
AIRC_API const int64_t *airc_tensor_shape(const airc_tensor *t);
AIRC_API size_t airc_tensor_numel(const airc_tensor *t);
AIRC_API size_t airc_tensor_nbytes(const airc_tensor *t);
AIRC_API void *airc_tensor_data(const airc_tensor *t);

/** Reads a .npy file (versions 1-3, C order; big-endian data is byte-swapped;
 *  dtypes f4 f8 f2 i8 i4 i2 i1 u1 b1). Errors name the file and the problem
 *  (Fortran order, unsupported dtype, truncated). */
AIRC_API airc_status airc_npy_read(airc_context *ctx, const char *path, airc_tensor **out);
AIRC_API airc_status airc_npy_read_buffer(airc_context *ctx, const void *data, size_t len,
                                          const char *source, airc_tensor **out);
/** Writes a .npy (version 1.0) file. bf16 is refused (numpy has no bf16). */
AIRC_API airc_status airc_npy_write(const airc_tensor *t, const char *path);

/* ------------------------------------------------------------------------ */
/* Compiler config (TorchAir's CompilerConfig option tree)                  */
/* ------------------------------------------------------------------------ */

/** Creates a config with TorchAir's defaults (airc's mode default is
 *  reduce-overhead). */
AIRC_API airc_status airc_config_create(airc_context *ctx, airc_config **out);
AIRC_API void airc_config_destroy(airc_config *cfg);
AIRC_API airc_status airc_config_clone(const airc_config *cfg, airc_config **out);
/** Sets an option by dotted key ("debug.graph_dump.type", "mode"). Values
 *  are text: booleans "true/false/1/0/True/False", ints in decimal; NULL
 *  resets the option to its default.
 *  @return AIRC_OK; AIRC_E_NOT_FOUND for an unknown key;
 *          AIRC_E_INVALID_ARGUMENT for a value the option does not allow
 *          (the message lists the allowed values). */
AIRC_API airc_status airc_config_set(airc_config *cfg, const char *key, const char *value);
/** Reads an option as text (booleans "1"/"0", as TorchAir serializes; an
 *  unset optional option is ""). Borrowed until the option changes. */
AIRC_API airc_status airc_config_get(const airc_config *cfg, const char *key, const char **out);
AIRC_API airc_status airc_config_set_bool(airc_config *cfg, const char *key, int32_t v);
AIRC_API airc_status airc_config_get_bool(const airc_config *cfg, const char *key, int32_t *out);
AIRC_API airc_status airc_config_set_int(airc_config *cfg, const char *key, int64_t v);
AIRC_API airc_status airc_config_get_int(const airc_config *cfg, const char *key, int64_t *out);
/** 1 when the option was set explicitly (differs from "has its default"). */
AIRC_API int32_t airc_config_is_set(const airc_config *cfg, const char *key);
/** Option types (airc_config_key_type). */
enum {
    AIRC_CONFIG_BOOL = 0,
    AIRC_CONFIG_INT = 1,
    AIRC_CONFIG_STRING = 2, /* free text */
    AIRC_CONFIG_ENUM = 3,   /* one of airc_config_key_allowed's values */
    AIRC_CONFIG_PATH = 4    /* a file system path */
};
/** The type of an option (AIRC_CONFIG_*). @return AIRC_OK, AIRC_E_NOT_FOUND,
 *  AIRC_E_INVALID_ARGUMENT, AIRC_E_MISUSE. */
AIRC_API airc_status airc_config_key_type(const airc_config *cfg, const char *key,
                                          int32_t *type);
/** The i-th value an ENUM option allows (static), NULL past the last or for
 *  other types and unknown keys. */
AIRC_API const char *airc_config_key_allowed(const airc_config *cfg, const char *key, size_t i);
/** The inclusive range of an INT option. AIRC_E_INVALID_ARGUMENT for other
 *  types. */
AIRC_API airc_status airc_config_key_range(const airc_config *cfg, const char *key, int64_t *min,
                                           int64_t *max);
/** All keys, in a stable order. */
AIRC_API size_t airc_config_num_keys(const airc_config *cfg);
AIRC_API const char *airc_config_key(const airc_config *cfg, size_t i);

#ifdef __cplusplus
}
#endif

/* The rest of the public API, by area. */
#include "airc/passes.h"    /* pass manager, user passes, compile pipeline */
#include "airc/transform.h" /* Transformer, SubgraphMatcher, subgraph rewriter */
#include "airc/partition.h" /* CapabilityBasedPartitioner */
#include "airc/kernel.h"    /* kernels per device type */
#include "airc/exec.h"      /* eager execution, .npz archives */
#include "airc/compile.h"   /* compile, capture and replay */
#include "airc/ge.h"        /* Ascend IR converters (max-autotune) */

#endif /* AIRC_AIRC_H */
