/* airc — partition API (part of the public API; included by airc/airc.h).
 *
 * torch.fx's CapabilityBasedPartitioner: group the nodes an operator-support
 * callback accepts into partitions, then fuse each partition into a
 * `call_module` node calling a nested graph (`fused_0`, `fused_1`, ...).
 *
 *     airc_support *sup;
 *     airc_support_create_ops(ctx, (const char *[]){"aten.add.Tensor",
 *                             "aten.relu.default"}, 2, &sup);
 *     airc_partitions *parts;
 *     airc_graph_propose_partitions(g, sup, NULL, &parts);
 *     airc_graph_fuse_partitions(g, parts);
 *     airc_partitions_destroy(parts);
 *     airc_support_destroy(sup);
 *     ...
 *     airc_graph_inline_submodules(g);   // a backend, before lowering
 *
 * Semantics follow torch 2.0's partitioner:
 * nodes are visited in reverse order; a supported node starts a partition
 * that is merged with its users' partitions when the merge creates no cycle
 * through outside nodes; an unsupported node's users' partitions are merged
 * too (torch's limited horizontal fusion; switch it off with
 * horizontal_fusion = 0, which gives torch 1.13's results); getitem nodes
 * follow their producer; partitions with at most one compute node are
 * dropped unless allowed. Unlike torch, the cycle checks are bounded
 * searches (no transitive closures, no recursion): linear-ish on long chains.
 */
#ifndef AIRC_PARTITION_H
#define AIRC_PARTITION_H

#include "airc/airc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Operator support (torch.fx OperatorSupportBase)                          */
/* ------------------------------------------------------------------------ */

/** Returns nonzero when `node` may go into a partition. Only call_function
 *  nodes are asked (placeholders, get_attr, call_module and output are never
 *  partitioned). Must not edit the graph. */
typedef int32_t (*airc_support_fn)(void *user_data, const airc_node *node);

/** An operator-support object: a callback, or a combination of others.
 *  Reference counted internally: combinations keep their parts alive, so
 *  the caller may destroy a part right after combining it. */
typedef struct airc_support airc_support;

/** Wraps a callback. free_user_data (may be NULL) is called once when the
 *  object dies; not on failure.
 *  @return AIRC_OK, AIRC_E_MISUSE (ctx), AIRC_E_INVALID_ARGUMENT (fn NULL),
 *          AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_support_create(airc_context *ctx, airc_support_fn fn, void *user_data,
                                         airc_free_fn free_user_data, airc_support **out);
/** Supports exactly the call_function nodes whose op is one of `ops` (any
 *  spelling airc_context_find_op accepts).
 *  @return AIRC_OK, AIRC_E_NOT_FOUND naming an unknown op,
 *          AIRC_E_INVALID_ARGUMENT, AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_support_create_ops(airc_context *ctx, const char *const *ops, size_t n,
                                             airc_support **out);
/** torch's `chain`: supported when every part supports the node (n == 0:
 *  everything). Parts are evaluated in order and stop at the first refusal. */
AIRC_API airc_status airc_support_chain(airc_context *ctx, airc_support *const *parts, size_t n,
                                        airc_support **out);
/** torch's `any_chain`: supported when some part supports it (n == 0:
 *  nothing). Stops at the first acceptance. */
AIRC_API airc_status airc_support_any_chain(airc_context *ctx, airc_support *const *parts,
                                            size_t n, airc_support **out);
/** Asks s about node: 1 supported, 0 not (also for NULL arguments and for
 *  nodes that are not call_function). */
AIRC_API int32_t airc_support_is_supported(const airc_support *s, const airc_node *node);
/** Releases the caller's reference. NULL is a no-op. */
AIRC_API void airc_support_destroy(airc_support *s);

/* ------------------------------------------------------------------------ */
/* Partitioner                                                              */
/* ------------------------------------------------------------------------ */

/** Options. Fill with airc_partition_options_init, then set fields. Name
 *  lists are borrowed for the duration of the call. */
typedef struct airc_partition_options {
    size_t struct_size; /* sizeof(airc_partition_options) */
    /** Keep partitions with a single compute node (default 0). */
    int32_t allows_single_node_partition;
    /** Ops that do not count as compute when judging single-node
     *  partitions, in addition to operator.getitem and aten.view. A name
     *  without an overload ("aten.view", "torch.ops.aten.view") stands for
     *  every overload (torch 1.13/2.x compare "torch.ops.aten.view" with the
     *  overload's name, so its default never matches; airc's does). */
    const char *const *non_compute_ops;
    size_t num_non_compute_ops;
    /** Ops whose single node makes a partition worth keeping (counted as
     *  two compute nodes, as torch does). Same spelling as above. */
    const char *const *allowed_single_node_partition_ops;
    size_t num_allowed_single_node_partition_ops;
    /** 1 (default): torch 2.0's limited horizontal fusion: the partitions of
     *  the users of any node (supported or not, placeholders included) are
     *  merged when acyclic. 0: only a supported node's new partition is
     *  merged with its users' partitions (torch 1.13's results). */
    int32_t horizontal_fusion;
} airc_partition_options;
AIRC_API void airc_partition_options_init(airc_partition_options *opts);

/** A list of partitions, each a list of nodes of one graph. The nodes are
 *  borrowed from the graph: editing the graph (erasing a node) between
 *  propose and fuse makes fuse refuse the stale partition. */
typedef struct airc_partitions airc_partitions;

/** Proposes partitions of g (not its submodules). The result lists
 *  partitions in torch's order (by creation id) and each partition's nodes
 *  in graph order. Fusing every proposed partition creates no cycle.
 *  @param opts NULL for the defaults.
 *  @return AIRC_OK; AIRC_E_MISUSE (handles); AIRC_E_INVALID_ARGUMENT (bad
 *          options); AIRC_E_NOT_FOUND (an unknown op name in the options);
 *          AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_graph_propose_partitions(airc_graph *g, const airc_support *support,
                                                   const airc_partition_options *opts,
                                                   airc_partitions **out);
/** An empty list for g, to be filled with airc_partitions_add (torch's
 *  fuse_by_partitions with hand-made partitions). */
AIRC_API airc_status airc_partitions_create(airc_graph *g, airc_partitions **out);
/** Appends a partition. Nodes must be live call_function nodes of the
 *  list's graph, not in another partition of the list, n >= 1 (any order;
 *  duplicates are refused). Whether fusing creates a cycle is checked by
 *  airc_graph_fuse_partitions. */
AIRC_API airc_status airc_partitions_add(airc_partitions *p, airc_node *const *nodes, size_t n);
AIRC_API void airc_partitions_destroy(airc_partitions *p);
AIRC_API size_t airc_partitions_count(const airc_partitions *p);
/** Number of nodes of partition i (0 when out of range). */
AIRC_API size_t airc_partition_size(const airc_partitions *p, size_t i);
/** Node j of partition i, in graph order at the time the list was built;
 *  NULL when out of range. */
AIRC_API airc_node *airc_partition_node(const airc_partitions *p, size_t i, size_t j);

/** Fuses each partition i into a nested graph, added to g as submodule
 *  `fused_K` (K = i, or the next free number when that name is taken), and
 *  a call_module node named like it that takes the partition's external
 *  inputs in first-use order. In the nested graph the placeholders are named
 *  after the input nodes and the copied nodes keep their names; it returns
 *  the nodes that have users outside the partition (one value, or a tuple
 *  in graph order). Several outputs are read with operator.getitem nodes
 *  (`getitem`, `getitem_1`, ...), as torch's fuse_by_partitions does. Meta
 *  and attributes are copied. g is reordered (stably) so that it stays
 *  topologically sorted, and it and the nested graphs lint.
 *  @return AIRC_OK; AIRC_E_MISUSE (handles, a partition of another graph or
 *          with erased nodes); AIRC_E_INVALID_ARGUMENT (the partitions form
 *          a cycle: nothing is changed); AIRC_E_OUT_OF_MEMORY (g stays a
 *          valid graph but may be partly fused). */
AIRC_API airc_status airc_graph_fuse_partitions(airc_graph *g, const airc_partitions *p);
/** propose + fuse. @param num_fused optional: number of partitions fused. */
AIRC_API airc_status airc_graph_partition_and_fuse(airc_graph *g, const airc_support *support,
                                                   const airc_partition_options *opts,
                                                   size_t *num_fused);

/** Replaces every call_module node of g by a copy of its nested graph's
 *  nodes (placeholders wired to the call's arguments, the nested graph's
 *  output to the call's users; a getitem(call, i) is replaced by output
 *  i), recursively, then removes the submodules no node calls any more.
 *  Copied nodes take the nested graph's names, made unique in g.
 *  @param num_inlined optional: number of call_module nodes replaced.
 *  @return AIRC_OK; AIRC_E_MISUSE; AIRC_E_UNSUPPORTED (a call with kwargs
 *          or non-node arguments, a tuple result used other than through
 *          getitem with an int index); AIRC_E_INVALID_GRAPH (arity
 *          mismatch); AIRC_E_OUT_OF_MEMORY. Checks are made before any edit
 *          of a call. */
AIRC_API airc_status airc_graph_inline_submodules(airc_graph *g, size_t *num_inlined);

#ifdef __cplusplus
}
#endif
#endif
