/* airc — transform API (part of the public API; included by airc/airc.h).
 *
 * torch.fx's transform toolkit, in C:
 * - a Transformer re-emits every node of a graph through a callback into a
 *   new graph (keep, replace one-to-one, expand one-to-many, drop);
 * - a SubgraphMatcher finds the occurrences of a pattern graph;
 * - the subgraph rewriter (replace_pattern, replace_pattern_with_filters)
 *   replaces them by a replacement graph, in place.
 *
 * Patterns and replacements are ordinary graphs (built through the API or
 * parsed from FX text) of the same context as the graph they apply to.
 * Everything here is iterative (no recursion over the graph) and linear in
 * the graph for a fixed pattern (see airc_matcher_match for the one
 * exception torch.fx shares: several independent anchors).
 *
 * Thread-safety: as for graphs (airc.h). A matcher may be used by several
 * threads at once as long as its pattern graph is not edited.
 */
#ifndef AIRC_TRANSFORM_H
#define AIRC_TRANSFORM_H

#include "airc/airc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Transformer (torch.fx.Transformer)                                       */
/* ------------------------------------------------------------------------ */

typedef struct airc_transformer airc_transformer;
/** Handle given to a transform callback: creates nodes in the new graph
 *  and maps old-graph values to new-graph ones. Valid only during the
 *  callback. */
typedef struct airc_emitter airc_emitter;

/** Called once for each node of the source graph, in order (placeholders
 *  and the output node included). It decides what stands for `old` in the
 *  new graph and stores it in *out:
 *  - keep:     airc_emitter_copy(em, old, NULL, out) (what a NULL callback
 *              does for every node);
 *  - replace:  airc_emitter_copy(em, old, "aten.mul.Tensor", out), or any
 *              node built with airc_graph_create_node on
 *              airc_emitter_graph(em) from airc_emitter_map_value'd args;
 *  - expand:   create several nodes; *out is the one whose value stands for
 *              old (the others are reachable from it or have side effects);
 *  - drop:     *out = one of old's inputs — either the input itself (a node
 *              of the source graph, translated automatically) or its image
 *              (airc_emitter_lookup);
 *  - *out = NULL: nothing stands for old; allowed when no later node uses
 *              it (otherwise that later copy fails with AIRC_E_INVALID_GRAPH).
 *  New nodes are appended (the new graph's insertion point is reset to the
 *  end before each call). Return AIRC_OK, or a status with a message (e.g.
 *  from airc_pass_fail); the run then fails with that status.
 *  @param old borrowed; a node of the source graph (read-only). */
typedef airc_status (*airc_transform_fn)(void *user_data, airc_emitter *em, const airc_node *old,
                                         airc_node **out);

/** Creates a transformer.
 *  @param ctx  allocations go through ctx's allocator; the transformer holds
 *              a reference to ctx.
 *  @param fn   the callback; NULL copies every node (an identity transform).
 *  @param free_user_data called once with user_data by
 *              airc_transformer_destroy; not called when create fails.
 *  @return AIRC_OK, AIRC_E_MISUSE (bad ctx), AIRC_E_INVALID_ARGUMENT (out
 *          NULL), AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_transformer_create(airc_context *ctx, airc_transform_fn fn,
                                             void *user_data, airc_free_fn free_user_data,
                                             airc_transformer **out);
/** Frees the transformer (and its user_data through free_user_data). NULL
 *  is a no-op. */
AIRC_API void airc_transformer_destroy(airc_transformer *t);

/** Builds a new graph from g (which is not changed, like torch.fx's
 *  Transformer which returns a new GraphModule): constants are shared with
 *  g (reference counted), submodules are cloned, then every node goes
 *  through the callback. Copies keep their node's name (made unique if the
 *  callback already used it), meta, type annotation and attributes; a copy
 *  with another target gets a name derived from that target and no meta.
 *  (torch.fx re-derives every name from its target; with make_fx names the
 *  identity transform therefore prints the same text in both.)
 *  The result is not linted: a callback may leave it incomplete.
 *  @param out receives the new graph (caller destroys it); untouched on
 *         failure, when the partial new graph is destroyed.
 *  @return AIRC_OK; the callback's status (message prefixed with the node
 *          name); AIRC_E_INVALID_ARGUMENT (the callback returned a node of
 *          another graph, or a source node that has no image yet);
 *          AIRC_E_INVALID_GRAPH (a copied node uses a dropped one);
 *          AIRC_E_MISUSE; AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_transformer_run(airc_transformer *t, const airc_graph *g,
                                          airc_graph **out);

/** The graph being built (create nodes and values in it). */
AIRC_API airc_graph *airc_emitter_graph(const airc_emitter *em);
/** The graph being transformed. */
AIRC_API const airc_graph *airc_emitter_source(const airc_emitter *em);
/** The new-graph node standing for a source node already visited; NULL if
 *  none (not yet visited, dropped, or not a source node). */
AIRC_API airc_node *airc_emitter_lookup(const airc_emitter *em, const airc_node *old);
/** Copies a source-graph value (an argument of a source node) into the new
 *  graph, each node reference replaced by its image. Values already of the
 *  new graph are returned as they are.
 *  @return AIRC_OK; AIRC_E_INVALID_GRAPH (a referenced node has no image);
 *          AIRC_E_INVALID_ARGUMENT (a value of another graph);
 *          AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_emitter_map_value(airc_emitter *em, const airc_value *v,
                                            const airc_value **out);
/** Appends a copy of a source node to the new graph, its args and kwargs
 *  mapped (airc_emitter_map_value).
 *  @param target NULL keeps old's target; otherwise the new target (an op
 *         name for call_function: "aten.mul.Tensor"). May be called several
 *         times for one node (names are made unique).
 *  @return AIRC_OK, or the errors of airc_emitter_map_value and
 *          airc_graph_create_node (AIRC_E_NOT_FOUND for an unknown op). */
AIRC_API airc_status airc_emitter_copy(airc_emitter *em, const airc_node *old, const char *target,
                                       airc_node **out);

/* ------------------------------------------------------------------------ */
/* SubgraphMatcher (torch.fx.passes.utils.matcher_utils)                    */
/* ------------------------------------------------------------------------ */

typedef struct airc_matcher airc_matcher;
typedef struct airc_match airc_match;
typedef struct airc_match_list airc_match_list;

/** Matcher options; fill with airc_matcher_options_init, then set fields. */
typedef struct airc_matcher_options {
    size_t struct_size; /* sizeof(airc_matcher_options) */
    /** Anchor on the pattern's output node: the match must end at the
     *  graph's output node (default 0). */
    int32_t match_output;
    /** Pattern placeholders match only graph placeholders (default 0: a
     *  pattern placeholder is a wildcard for any node or literal). */
    int32_t match_placeholder;
    /** Drop every match whose compute nodes overlap an earlier match's,
     *  greedily in discovery (graph) order (default 1). */
    int32_t remove_overlapping_matches;
    /** Literal arguments always match each other (default 0: equal kind and
     *  value; 1 never matches 1.0). Pattern nodes still never match
     *  literals (upstream's `or ignore_literals` lets them; airc does not,
     *  since such a "match" has no node to rewrite). */
    int32_t ignore_literals;
} airc_matcher_options;

/** Defaults: match_output 0, match_placeholder 0, remove_overlapping_matches
 *  1, ignore_literals 0 (torch.fx's). */
AIRC_API void airc_matcher_options_init(airc_matcher_options *options);

/** Creates a matcher for a pattern graph.
 *  @param pattern borrowed: it must outlive the matcher and not be edited
 *         while the matcher lives.
 *  @param options NULL for the defaults; copied.
 *  @return AIRC_OK; AIRC_E_INVALID_ARGUMENT: empty pattern, no output node
 *          or nodes after it, a node without users ("dead code", as
 *          torch.fx), an output that returns no node, bad struct_size;
 *          AIRC_E_MISUSE; AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_matcher_create(const airc_graph *pattern,
                                         const airc_matcher_options *options,
                                         airc_matcher **out);
/** NULL is a no-op. */
AIRC_API void airc_matcher_destroy(airc_matcher *m);

/** Finds the pattern's occurrences in g, with torch.fx's rules:
 *  - anchors are the pattern's returning nodes whose only user is the
 *    output (or the output itself with match_output); each graph node that
 *    equals an anchor (same kind and target) is a candidate, in graph order;
 *  - from an anchor the match proceeds backwards through args and kwargs,
 *    positionally (no commutativity, no backtracking within an anchor):
 *    kinds and targets equal; argument counts and keyword names equal;
 *    lists matched item by item; literals equal (unless ignore_literals);
 *  - pattern placeholders are wildcards that bind any node (injectively:
 *    add(x, y) does not match add(a, a)) or literal;
 *  - several anchors: every combination of candidates is tried;
 *  - a match is dropped when an intermediate node (neither placeholder nor
 *    returning node) has a user outside the match, or when fusing it would
 *    create a cycle (a path leaving the match and coming back);
 *  - overlapping matches are removed when asked (see options).
 *  Fixes torch 1.13's bugs: no KeyError when an anchor has no candidate
 *  (just no match), no recursion limit (iterative), no per-match walk of
 *  the whole graph (the cycle check stops at the match's last node).
 *  @param out receives the matches (caller destroys); they refer to g's
 *         nodes (valid while g lives) and to pattern nodes (by identity).
 *  @return AIRC_OK (possibly with 0 matches); AIRC_E_INVALID_ARGUMENT
 *          (out NULL); AIRC_E_MISUSE; AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_matcher_match(const airc_matcher *m, const airc_graph *g,
                                        airc_match_list **out);

/** Number of matches (0 for NULL). */
AIRC_API size_t airc_match_list_size(const airc_match_list *list);
/** i-th match, in discovery order; NULL when out of range. Borrowed from
 *  the list. */
AIRC_API const airc_match *airc_match_list_get(const airc_match_list *list, size_t i);
/** NULL is a no-op. */
AIRC_API void airc_match_list_destroy(airc_match_list *list);

/* InternalMatch's fields. Graph nodes are borrowed from the matched graph
 * (an erased node stays readable until its graph dies); literals are
 * borrowed values of that graph. */
/** The i-th anchor as the graph node it matched (torch.fx's
 *  InternalMatch.anchors holds the pattern's node; the pattern node is
 *  the i-th returning node of the pattern). */
AIRC_API size_t airc_match_num_anchors(const airc_match *m);
AIRC_API airc_node *airc_match_anchor(const airc_match *m, size_t i);
/** nodes_map: one entry per pattern node (the output only with
 *  match_output), in pattern order. *graph_node is NULL and *literal set
 *  when a placeholder bound a literal. Any out pointer may be NULL.
 *  @return AIRC_OK, AIRC_E_NOT_FOUND (i out of range), AIRC_E_MISUSE. */
AIRC_API size_t airc_match_num_entries(const airc_match *m);
AIRC_API airc_status airc_match_entry(const airc_match *m, size_t i, const airc_node **pattern_node,
                                      airc_node **graph_node, const airc_value **literal);
/** The graph node a pattern node matched; NULL when it is not in the match
 *  or bound a literal (then see airc_match_lookup_literal). */
AIRC_API airc_node *airc_match_lookup(const airc_match *m, const airc_node *pattern_node);
AIRC_API const airc_value *airc_match_lookup_literal(const airc_match *m,
                                                     const airc_node *pattern_node);
/** placeholder_nodes: what each pattern placeholder bound, in pattern
 *  placeholder order: a node, or NULL and a literal. */
AIRC_API size_t airc_match_num_placeholders(const airc_match *m);
AIRC_API airc_node *airc_match_placeholder(const airc_match *m, size_t i);
AIRC_API const airc_value *airc_match_placeholder_literal(const airc_match *m, size_t i);
/** returning_nodes: the images of the pattern output's distinct input
 *  nodes, in the pattern output's order. */
AIRC_API size_t airc_match_num_returning(const airc_match *m);
AIRC_API airc_node *airc_match_returning(const airc_match *m, size_t i);

/* ------------------------------------------------------------------------ */
/* Subgraph rewriter (torch.fx.subgraph_rewriter)                           */
/* ------------------------------------------------------------------------ */

/** A match filter (torch.fx match_filters): return 1 to replace the match,
 *  0 to leave it, a negative value to abort the whole rewrite (the graph is
 *  left unchanged; record a message with airc_pass_fail first). Filters run
 *  on the matches that survived overlap removal, before any change. */
typedef int32_t (*airc_match_filter_fn)(void *user_data, const airc_match *match,
                                        const airc_graph *graph, const airc_graph *pattern);
/** user_data is borrowed for the duration of the call (nothing to free). */
typedef struct airc_match_filter {
    airc_match_filter_fn fn;
    void *user_data;
} airc_match_filter;

/** ReplacedPatterns, one per replaced match. */
typedef struct airc_replaced_patterns airc_replaced_patterns;

/** torch.fx replace_pattern: replace_pattern_with_filters with no filter
 *  and ignore_literals 0. */
AIRC_API airc_status airc_replace_pattern(airc_graph *g, const airc_graph *pattern,
                                          const airc_graph *replacement,
                                          airc_replaced_patterns **out);
/** Replaces, in place, the occurrences of `pattern` in g by `replacement`,
 *  with torch.fx's semantics:
 *  - matches: airc_matcher_match(match_output 0, match_placeholder 0,
 *    remove_overlapping_matches 1, ignore_literals), then the filters (all
 *    must accept);
 *  - each match in turn: the replacement's placeholders bind positionally
 *    to the match's placeholder_nodes (a node that an earlier match replaced
 *    stands for its replacement); the replacement's nodes are copied just
 *    before the first user (in graph order) of any returning node — after
 *    the match's last node when they have none — named after the
 *    replacement's node names (`sub_tensor`, made unique); the replacement's
 *    outputs replace the returning nodes positionally; the matched nodes
 *    are erased. A single sweep: what replacements create is not re-matched.
 *  - transactional: on any failure (a filter aborting, a replacement output
 *    bound to a literal, out of memory...) g is left as it was: same nodes,
 *    args, users and order, node handles valid. Only names the failed
 *    attempt used stay reserved (as for any erased node).
 *  New nodes have no meta (run airc_graph_propagate_meta).
 *  @param pattern,replacement borrowed, not changed, of g's context; the
 *         replacement has as many placeholders as the pattern, an output
 *         node, and as many outputs (a node, or a tuple/list of nodes) as
 *         the pattern has returning nodes.
 *  @param filters,nfilters may be NULL/0.
 *  @param out optional: receives the replaced patterns (caller destroys);
 *         untouched on failure.
 *  @return AIRC_OK (also with 0 matches); AIRC_E_INVALID_ARGUMENT (pattern
 *          rejected by airc_matcher_create, replacement mismatched, other
 *          context, g used as pattern or replacement); AIRC_E_PASS (a
 *          filter aborted); AIRC_E_UNSUPPORTED (a returning node replaced
 *          by a literal); AIRC_E_NOT_FOUND (a replacement call_module whose
 *          submodule g lacks); AIRC_E_MISUSE; AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_replace_pattern_with_filters(airc_graph *g, const airc_graph *pattern,
                                                       const airc_graph *replacement,
                                                       const airc_match_filter *filters,
                                                       size_t nfilters, int32_t ignore_literals,
                                                       airc_replaced_patterns **out);

/** Number of replaced matches (0 for NULL). */
AIRC_API size_t airc_replaced_patterns_size(const airc_replaced_patterns *r);
/** The i-th replaced match (anchors, nodes_map, placeholders, returning
 *  nodes: the now erased graph nodes, readable by name); NULL when out of
 *  range. */
AIRC_API const airc_match *airc_replaced_patterns_match(const airc_replaced_patterns *r, size_t i);
/** The match's first anchor (ReplacedPatterns.anchor). */
AIRC_API airc_node *airc_replaced_patterns_anchor(const airc_replaced_patterns *r, size_t i);
/** The nodes created for match i, in creation (replacement graph) order. */
AIRC_API size_t airc_replaced_patterns_num_replacements(const airc_replaced_patterns *r, size_t i);
AIRC_API airc_node *airc_replaced_patterns_replacement(const airc_replaced_patterns *r, size_t i,
                                                       size_t j);
/** NULL is a no-op. */
AIRC_API void airc_replaced_patterns_destroy(airc_replaced_patterns *r);

#ifdef __cplusplus
}
#endif
#endif
