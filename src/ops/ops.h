/* Internal layout of schemas, ops and the registry. */
#ifndef AIRC_OPS_H
#define AIRC_OPS_H

#include "ir/ir.h"

typedef struct airc_type {
    airc_type_kind kind; /* element kind for lists */
    bool optional;       /* "T?" (or "T[]?") */
    bool is_list;        /* "T[]" / "T[N]" */
    bool elem_optional;  /* "T?[]" */
    int32_t list_size;   /* N of "T[N]", 0 otherwise */
    const char *alias;   /* "a" of Tensor(a) / Tensor(a!), NULL if none */
    bool is_write;       /* "!" */
    const char *text;    /* canonical text, e.g. "Tensor(a!)", "int[2]", "Tensor?[]" */
} airc_type;

typedef struct airc_arg {
    const char *name;        /* "" for unnamed returns */
    airc_type type;
    const airc_value *def;   /* default or NULL; owner NULL */
    bool kwarg_only;
} airc_arg;

struct airc_schema {
    uint32_t magic;
    airc_context *ctx;
    airc_arena *arena;       /* where it lives (own arena when standalone) */
    bool owns_arena;
    const char *ns;          /* "aten" ("" when the text had no "ns::") */
    const char *name;        /* "add" */
    const char *overload;    /* "Tensor" or "" */
    airc_arg *args;
    uint32_t nargs;
    airc_arg *rets;
    uint32_t nrets;
    bool vararg;             /* "..." in args */
    bool varret;             /* "..." in returns */
    bool is_mutable;         /* some argument is written */
};

/* Parses a schema into arena a (the schema struct too). On failure returns
 * AIRC_E_PARSE with "schema:col: expected ..." and allocations stay in a. */
AIRC_HIDDEN airc_status airc_schema_parse_in(airc_context *ctx, airc_arena *a, const char *text,
                                             airc_schema **out);

/* Kernels and converters are filled in by later layers through these slots
 * (a per-device-type list and one converter), each fn + user_data + free. */
/* Callbacks of later layers are stored as a generic function pointer
 * (ISO C converts between function pointer types, not to void *). */
typedef void (*airc_generic_fn)(void);

typedef struct airc_op_kernel {
    char *device_type; /* "cpu", "cuda" */
    airc_generic_fn fn;
    void *user_data;
    airc_free_fn free_user_data;
} airc_op_kernel;

/* An op's meta function. Replacing it publishes a new record (readers load
 * the pointer once, so fn and user_data always match); the old one is
 * retired, not freed, since another thread may be running it. */
typedef struct airc_op_meta {
    airc_meta_fn fn;
    void *user_data;
    airc_free_fn free_user_data;
} airc_op_meta;

struct airc_op {
    uint32_t magic;
    const char *qualname;      /* "aten.add.Tensor" ("default" overload spelled out) */
    const char *target_string; /* "torch.ops.aten.add.Tensor", "operator.getitem" */
    const char *short_name;    /* "add": node name candidate */
    airc_schema *schema;
    uint32_t flags;
    bool builtin;
    _Atomic(const airc_op_meta *) meta; /* &meta0 until replaced; never NULL */
    airc_op_meta meta0;
    airc_op_kernel *kernels;
    size_t nkernels, kernels_cap;
    airc_generic_fn converter;
    void *converter_user_data;
    airc_free_fn converter_free;
    /* a synthesized functional twin: the in-place op it computes
     * (functional_twin.c); set before the op is published, then fixed */
    const airc_op *inplace_origin;
};

/* One built-in op: the table in builtin_ops.c is sorted by qualname (a test
 * checks), and each entry is parsed into a context the first time it is
 * looked up there. */
typedef struct airc_builtin_op {
    const char *qualname; /* "aten.add.Tensor" */
    const char *schema;   /* "aten::add.Tensor(Tensor self, ...) -> Tensor" */
    uint32_t flags;
    airc_meta_fn meta;
} airc_builtin_op;

AIRC_HIDDEN extern const airc_builtin_op airc_builtin_ops[];
AIRC_HIDDEN extern const size_t airc_num_builtin_ops;

/* Registry lifecycle (called by context create/destroy). */
AIRC_HIDDEN airc_status airc_registry_create(airc_context *ctx);
AIRC_HIDDEN void airc_registry_destroy(airc_context *ctx);

/* Finds an op by any accepted spelling (see airc_context_find_op).
 * AIRC_E_NOT_FOUND ("unknown op 'x'") or AIRC_E_OUT_OF_MEMORY (a built-in
 * could not be loaded into the context). Thread-safe. */
AIRC_HIDDEN airc_status airc_registry_find(airc_context *ctx, const char *name, size_t len,
                                           const airc_op **out);
/* The same, NULL on any failure (the error is recorded). Prefer
 * airc_registry_find where an out-of-memory must not read as "unknown". */
AIRC_HIDDEN const airc_op *airc_registry_lookup(airc_context *ctx, const char *name);
AIRC_HIDDEN const airc_op *airc_registry_lookupn(airc_context *ctx, const char *name, size_t len);

/* Registers a custom op from def (already checked by the caller: schema
 * not NULL, known flags), the path airc_context_register_op takes. setup,
 * when not NULL, fills in more of the op before any other thread can find
 * it: it may allocate in a (the op's arena, freed with it) and add kernels
 * (heap, as airc_context_set_op_kernel does; freed here on failure).
 * AIRC_E_PARSE, AIRC_E_INVALID_ARGUMENT (no namespace), AIRC_E_EXISTS (the
 * name is taken), AIRC_E_OUT_OF_MEMORY, or setup's status. Thread-safe. */
typedef airc_status (*airc_op_setup_fn)(airc_op *op, airc_arena *a, void *user_data);
AIRC_HIDDEN airc_status airc_registry_add(airc_context *ctx, const airc_op_def *def,
                                          airc_op_setup_fn setup, void *setup_data,
                                          const airc_op **out);

/* The functional twin of an op that writes arguments (`Tensor(a!)`), in
 * *out (functional_twin.c):
 *  - a registered op by the twin rules: `ns.name_.ov` -> `ns.name.ov`
 *    (aten's renamed twins: pow_.Scalar -> pow.Tensor_Scalar, zero_ ->
 *    zeros_like), taking the same arguments (plus keyword-only ones with
 *    defaults) and writing none;
 *  - else, for an op that is not built in and has one of DESIGN.md's two
 *    forms (returns () -- form B -- or exactly the aliases of its written
 *    arguments -- form A; each written argument a plain `Tensor(x!)`), the
 *    synthesized `ns::<name without trailing '_'>_functional.<ov>`: the
 *    arguments without alias annotations, one `Tensor` return per written
 *    argument in argument order, pure, meta "result k = meta of written
 *    argument k", and a kernel for each device type the in-place op had a
 *    registered kernel for when the twin was made (it copies the written
 *    arguments into its outputs, strides honoured, in host memory, then
 *    runs the in-place op's kernel, looked up at each call, on the
 *    outputs). Registered in ctx on the first request; concurrent requests
 *    get the same op.
 * A user's op that already has the synthesized name is the twin if it
 * takes the same arguments and returns one tensor per written argument.
 * *out = NULL (AIRC_OK) when the op writes nothing or has no twin (neither
 * form, a written list, the name taken by an op that does not fit).
 * AIRC_E_OUT_OF_MEMORY (nothing registered). Thread-safe. */
AIRC_HIDDEN airc_status airc_op_functional_twin(airc_context *ctx, const airc_op *op,
                                                const airc_op **out);
/* The in-place op a synthesized twin came from; NULL for other ops. */
AIRC_HIDDEN const airc_op *airc_op_inplace_origin(const airc_op *twin);

/* The registry lock, for edits of an op's callback slots. */
AIRC_HIDDEN void airc_registry_lock(airc_context *ctx);
AIRC_HIDDEN void airc_registry_unlock(airc_context *ctx);

/* Keeps a replaced callback's user_data (freed with free_user_data) and
 * block (airc_free'd; NULL for none) until the context dies: a compiled
 * object or another thread may still call the callback it belonged to.
 * Called with the registry lock held, before the replacement is stored;
 * false (nothing kept, an out-of-memory error set) when the list cannot
 * grow, and the caller must then leave the old callback in place. */
AIRC_HIDDEN bool airc_registry_retire(airc_context *ctx, void *user_data,
                                      airc_free_fn free_user_data, void *block);

/* The op's meta function and its user_data (one consistent pair, from any
 * thread); false when it has none. */
AIRC_HIDDEN bool airc_op_get_meta(const airc_op *op, airc_meta_fn *fn, void **user_data);

/* Ops the IR layer needs to recognise. */
#define AIRC_OP_GETITEM "operator.getitem"
#define AIRC_OP_SCOPE_ENTER "air.scope_enter.default"
#define AIRC_OP_SCOPE_EXIT "air.scope_exit.default"
#define AIRC_OP_RECORD "air.record.default"
#define AIRC_OP_WAIT "air.wait.default"

/* Checks a call_function node's args/kwargs against its op's schema: arity,
 * unknown or duplicate keywords, argument kinds (a Tensor argument must be a
 * node ref, an int[] a list of ints, ...). AIRC_E_INVALID_GRAPH naming the
 * node and the argument. Used by lint. */
AIRC_HIDDEN airc_status airc_schema_check_node(const airc_node *n);

/* Binds a call_function node's arguments to schema positions: out[i] is the
 * value for schema argument i (explicit or default; NULL when absent with no
 * default). out must hold schema->nargs entries. Assumes the node passed
 * airc_schema_check_node. */
AIRC_HIDDEN void airc_schema_bind(const airc_node *n, const airc_value **out);

#endif
