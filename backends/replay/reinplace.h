/* reinplace: the reduce-overhead backend pass that runs out-of-place ops in
 * place (issue 5; TorchAir's reinplace_inplaceable_ops and
 * reinplace_input_mutated_ops). Runs on a graph after the compile pipeline:
 * functionalized, meta on every node, lint-clean, no call_module. It builds
 * its own stream plan (stream_plan.h) to know each node's stream and never
 * reinplaces across streams.
 *
 * The in-place twin of `ns.name.overload` is `ns.name_.overload`: a
 * registered op whose schema takes `Tensor(a!) self` first and returns
 * `Tensor(a!)`, whose other arguments match the op's (names, kinds,
 * keyword-only), and which has a kernel for device "cpu" (registered or
 * built in: the lookup the eager executor uses). air.* ops, view ops,
 * side-effect ops and ops that already write an argument are never
 * retargeted.
 *
 * 1. inplaceable_ops: `n = op(X, ...)` becomes `op_(X, ...)` when X is the
 *    single-tensor result of a call_function that allocates it (not a view,
 *    side-effect or aliasing op, not air.*; a getitem of such an op's tuple
 *    is fine), X's meta (dtype, shape, strides) equals n's (no broadcasting
 *    or promotion into X), the output does not read X, no user of X is a
 *    view op, every other user of X comes before n, and X's producer (and
 *    its tuple op), n and every user of X run on one stream.
 * 2. input_mutated_ops: functionalize writes an input P back with
 *    `copy_(P, r)` (no users) after `r = op(P, ...)`. That becomes
 *    `r = op_(P, ...)` and the copy_ is erased when r's meta equals P's,
 *    every user of P other than r and the copy_ comes before r (the output
 *    may read P too: it sees the same value), no user of P is a view op,
 *    every user of r other than the output comes before the copy_ (so r's
 *    buffer, now P's, is not written again by rule 1), and r, the copy_ and
 *    every user of P run on one stream. r's later readers keep reading r,
 *    which now aliases P: the copy_ would have made them equal.
 * 3. synthesized twins (an in-place custom op's `ns::name_functional`,
 *    airc_op_inplace_origin): a twin node goes back to its in-place op when
 *    the op has a kernel for "cpu" and every written argument k (a
 *    distinct node, read by no other argument) has result k's meta and
 *    may be written: an intermediate by rule 1's conditions (rule 1 on),
 *    or a graph input written back by `copy_(P, result k)` by rule 2's
 *    (rule 2 on; the copy_ is erased). All written arguments or none. When
 *    the in-place op returns () (form B), every use of result k (the node
 *    itself for one written argument, else its getitem, which is erased)
 *    reads written argument k instead, and the node's result becomes ();
 *    when it returns its written arguments in order (form A) the node's
 *    result is their alias, as for rule 1. Twins whose in-place op returns
 *    them in another order are left alone.
 *
 * Candidates are collected on the unchanged graph, then applied. */
#ifndef AIRC_REINPLACE_H
#define AIRC_REINPLACE_H

#include "core/core.h"

#include <stdbool.h>

typedef struct airc_reinplace_options {
    /* rule 1; off with debug.aclgraph.disable_reinplace_inplaceable_ops_pass */
    bool inplaceable_ops;
    /* rule 2; off with debug.aclgraph.disable_reinplace_input_mutated_ops_pass */
    bool input_mutated_ops;
    /* the runtime's device type: an op goes in place only where that
     * device has a kernel for its in-place twin (NULL: "cpu") */
    const char *device;
} airc_reinplace_options;

/* Runs the rules o enables (o NULL: both) on g.
 * @param g       the graph (edited in place; meta is kept: an in-place
 *                twin's result has its self's meta, which equals the old one)
 * @param o       options (borrowed), or NULL
 * @param changed optional out: number of nodes rewritten (retargeted ops;
 *                an erased copy_ or getitem is not counted); written only
 *                on success
 * @return AIRC_OK; AIRC_E_MISUSE (bad graph handle); AIRC_E_INVALID_GRAPH
 *         (the stream plan refuses the graph: unpaired scopes, no output);
 *         AIRC_E_OUT_OF_MEMORY. All or nothing: on failure g is unchanged
 *         (with rule-3 rewrites, g's contents are then a clone taken before
 *         them: node pointers into g do not survive a failure).
 * Not thread-safe for g. */
AIRC_HIDDEN airc_status airc_replay_reinplace(airc_graph *g, const airc_reinplace_options *o,
                                              int32_t *changed);

#endif
