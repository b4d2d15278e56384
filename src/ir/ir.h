/* Internal layout of the IR: values, nodes, graphs. Only src/ and the layers
 * above read these structs; the public API is accessor functions. */
#ifndef AIRC_IR_H
#define AIRC_IR_H

#include "core/core.h"

/* ---- values ------------------------------------------------------------ */

struct airc_value {
    airc_value_kind kind;
    uint32_t len;             /* items of a list/tuple; bytes of a string */
    uint32_t depth;           /* nesting depth of lists/tuples (0 for scalars) */
    const airc_graph *owner;  /* graph whose arena holds it; NULL: schema default */
    union {
        int64_t i;
        double f;
        int32_t b;
        const char *s;        /* NUL-terminated */
        airc_node *node;
        airc_dtype dtype;
        int32_t e;            /* memory format / layout */
        struct {
            const char *type;
            int32_t index;
        } dev;
        const airc_value *const *items;
    } u;
};

/* Lists and tuples nest at most this deep (recursive walks stay bounded). */
#define AIRC_MAX_VALUE_DEPTH 64

/* Allocates a value in an arena (owner may be NULL). NULL on OOM. */
AIRC_HIDDEN airc_value *airc_value_alloc(airc_arena *a, const airc_graph *owner,
                                         airc_value_kind kind);
/* Deep copy of v into arena a for graph `owner`; node refs are mapped with
 * map(user, old_node) (NULL map: refs kept). NULL on OOM or when map
 * returns NULL (then *missing is set). */
typedef airc_node *(*airc_node_map_fn)(void *user, airc_node *old);
AIRC_HIDDEN const airc_value *airc_value_copy(airc_arena *a, const airc_graph *owner,
                                              const airc_value *v, airc_node_map_fn map,
                                              void *user);
/* Calls fn(user, node) for every node ref inside v, in order (nested). */
AIRC_HIDDEN void airc_value_visit_nodes(const airc_value *v, void (*fn)(void *, airc_node *),
                                        void *user);
/* true when v contains a reference to node n. */
AIRC_HIDDEN bool airc_value_mentions(const airc_value *v, const airc_node *n);

/* ---- tensor meta ------------------------------------------------------- */

typedef struct airc_tmeta {
    airc_dtype dtype;
    int32_t ndim;
    int64_t shape[AIRC_MAX_DIMS];
    int64_t strides[AIRC_MAX_DIMS];
} airc_tmeta;

/* Fills contiguous strides for t->shape. */
AIRC_HIDDEN void airc_tmeta_contiguous(airc_tmeta *t);
AIRC_HIDDEN bool airc_tmeta_is_contiguous(const airc_tmeta *t);
AIRC_HIDDEN int64_t airc_tmeta_numel(const airc_tmeta *t);
/* Sets dtype/ndim/shape/strides (strides NULL = contiguous). Validates
 * ndim <= AIRC_MAX_DIMS, shape >= 0, known dtype: AIRC_E_INVALID_ARGUMENT. */
AIRC_HIDDEN airc_status airc_tmeta_set(airc_tmeta *t, airc_dtype dtype, int32_t ndim,
                                       const int64_t *shape, const int64_t *strides);

/* ---- nodes ------------------------------------------------------------- */

/* Laid out by use: a node is three cache lines (node.c allocates them
 * back to back from a 64-byte boundary). The first holds what the walks of
 * the big passes read of every node (matcher, rewriter, CSE, DCE, print's
 * users count); the second what an edit touches on a node's inputs; the
 * third the rarely read rest. */
struct airc_node {
    /* line 1: identity, list walk, what a node computes */
    uint32_t magic;
    airc_node_kind kind;
    airc_node *next;   /* circular list through graph->root */
    uint64_t order;    /* strictly increasing along the list */
    const airc_op *op; /* call_function only */
    const airc_value **args;
    uint32_t nargs;
    uint32_t id; /* creation index in its graph */
    uint32_t nkw;
    /* use-def, kept exact by every edit; heap arrays (context allocator)
     * or, while small, arena ones (see users_in_arena) */
    uint32_t nusers;
    airc_node **users;

    /* line 2: what an edit reads and writes on the nodes it links */
    airc_node *prev;
    airc_graph *graph;
    uint64_t mark;      /* scratch for walks: equal to graph->epoch when visited */
    airc_node **inputs; /* distinct, args-then-kwargs first occurrence */
    uint32_t ninputs;
    uint32_t users_cap, inputs_cap;
    bool erased;
    /* users / inputs still live in the graph's arena (their first, small
     * array: no heap call per node); growing moves them to the heap */
    bool users_in_arena, inputs_in_arena;
    bool type_annotated; /* the parsed text carried a type slot for it */
    const char *name;    /* arena */
    const char *target;  /* arena; for call_function the op's name */

    /* line 3: keywords, meta, free attributes */
    const char **kw_names;
    const airc_value **kw_values;
    int32_t meta_kind; /* AIRC_META_* */
    uint32_t nout;
    airc_tmeta *out; /* heap, nout entries (1 for a tensor) */
    size_t out_cap;
    const char **attr_keys;
    const airc_value **attr_values;
    uint32_t nattrs, attrs_cap;
};

/* ---- constants and graphs ---------------------------------------------- */

typedef struct airc_constant {
    atomic_int refs; /* shared between clones */
    airc_context *ctx;
    char *name;
    airc_tmeta meta;
    void *data;
    bool owned;          /* allocated by airc (copied) */
    airc_free_fn free_data;
    void *user_data;
} airc_constant;

AIRC_HIDDEN void airc_constant_release(airc_constant *c);

typedef struct airc_namespace {
    /* every name ever used in the graph (never released) -> its node; an
     * erased node keeps its entry, and names a clone inherits from its
     * source's erased nodes map to the graph's name_tomb */
    airc_strmap used;
    airc_strmap bases; /* base -> (uintptr_t) next suffix to try */
    /* base -> airc_name_run: which "base_N" names (N as unique_name
     * writes it) are in `used`, so that unique_name finds a free one
     * without probing the big table for each candidate (a rewrite naming
     * a new "mul" in a graph that has mul_1 .. mul_300000). Kept by every
     * insertion into `used`. */
    airc_strmap runs;
} airc_namespace;

typedef struct airc_name_run {
    uint64_t dense; /* base_1 .. base_{dense-1} are all used */
    uint64_t max;   /* no base_N with N > max is used */
} airc_name_run;

/* ns.runs bookkeeping for a name about to go into ns.used:
 * airc_names_prepare (which can fail: false on OOM, nothing changed) then,
 * once the name is in, airc_names_commit (cannot fail). names.c. */
typedef struct airc_name_note {
    airc_name_run *run; /* NULL: the name has no "_N" suffix */
    uint64_t num;
    bool fresh;         /* run is new: insert the base */
    size_t base_len;
    uint64_t hash;      /* of the base */
} airc_name_note;
AIRC_HIDDEN bool airc_names_prepare(airc_graph *g, const char *name, size_t len,
                                    airc_name_note *note);
AIRC_HIDDEN void airc_names_commit(airc_graph *g, const char *name, const airc_name_note *note);

struct airc_graph {
    uint32_t magic;
    airc_context *ctx;
    airc_arena arena;
    /* the nodes alone, back to back: passes walk the node list, and a walk
     * over nodes interleaved with their values and arrays reads twice the
     * memory (a million-node graph is far larger than the cache) */
    airc_arena node_arena;
    airc_node root; /* sentinel: root.next is the first node */
    size_t nnodes;  /* live nodes */
    uint32_t next_id;
    airc_namespace ns;
    airc_node name_tomb; /* an always-erased node: see airc_namespace.used */

    int32_t ins_where;
    airc_node *ins_anchor;

    airc_graph *parent;
    char **sub_names;
    airc_graph **subs;
    size_t nsubs, subs_cap;
    airc_strmap sub_by_name; /* name -> airc_graph */

    airc_constant **consts;
    size_t nconsts, consts_cap;

    airc_node **erased; /* erased nodes: their heap arrays are freed at destroy */
    size_t nerased, erased_cap;

    bool num_users_style; /* text used [num_users=N] */
    uint64_t epoch;       /* see airc_node.mark */
};

/* Exchanges the contents of two graphs of one context (nodes, values,
 * names, constants, submodules), fixing back-pointers; each handle and its
 * parent link stay put. Cannot fail (src/ir/swap.c). */
AIRC_HIDDEN void airc_graph_swap(airc_graph *a, airc_graph *b);

/* The live node named name[0..len); NULL if none. */
AIRC_HIDDEN airc_node *airc_graph_node_by_name(const airc_graph *g, const char *name, size_t len);
/* Makes room so that `extra` more node names need no rehash (parse and
 * clone know their size up front). false on OOM. */
AIRC_HIDDEN bool airc_graph_reserve_names(airc_graph *g, size_t extra);

/* Destroys the submodules with drop[i] != 0 and compacts the list. */
AIRC_HIDDEN void airc_graph_drop_submodules(airc_graph *g, const uint8_t *drop);

/* Validates handles: MISUSE with a message naming `fn`. */
AIRC_HIDDEN airc_status airc_check_graph(const airc_graph *g, const char *fn);
AIRC_HIDDEN airc_status airc_check_node(const airc_node *n, const char *fn); /* live node */

/* Flags for airc_node_create. */
enum {
    AIRC_CREATE_EXACT_NAME = 1u << 0 /* use `name` as is; AIRC_E_EXISTS if taken */
};

/* The one node constructor (the public create functions and the parser go
 * through it). For call_function, `op` must be set and `target` is ignored.
 * Validates everything before linking; graph unchanged on failure. */
AIRC_HIDDEN airc_status airc_node_create(airc_graph *g, airc_node_kind kind, const char *target,
                                         const airc_op *op, const airc_value *const *args,
                                         size_t nargs, const char *const *kw_names,
                                         const airc_value *const *kw_values, size_t nkw,
                                         const char *name, uint32_t flags, airc_node **out);

/* Unique name from a candidate with torch.fx's rules (sanitize, _N suffix,
 * Python keywords/builtins avoided), amortised O(1). Arena string; NULL on
 * OOM. The caller marks it used (ns.used) when the node is committed. */
AIRC_HIDDEN const char *airc_graph_unique_name(airc_graph *g, const char *candidate);
/* Default name candidate for a target, snake-cased as torch.fx does: for an
 * op, its name without namespace/overload ("aten.add.Tensor" -> "add",
 * "operator.getitem" -> "getitem"); otherwise the target itself. */
AIRC_HIDDEN void airc_name_from_target(const char *target, bool is_op, char *buf, size_t cap);

/* Walks live nodes in order. */
#define AIRC_FOR_EACH_NODE(g, n)                                                                   \
    for (airc_node *n = (g)->root.next; n != &(g)->root; n = n->next)

#endif
