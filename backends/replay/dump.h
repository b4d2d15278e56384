/* The reduce-overhead `txt` graph dump (debug.graph_dump.type = txt): the
 * FX text after the backend passes, then the launch table and the memory
 * plan as '#' comment lines. dump.c documents the format. */
#ifndef AIRC_REPLAY_DUMP_H
#define AIRC_REPLAY_DUMP_H

#include "backends/replay/launch.h"
#include "backends/replay/memory_plan.h"
#include "core/core.h"

/* Appends the dump of g, its launch table t and memory plan to out (an
 * initialised strbuf with a context; borrowed; on failure it keeps the
 * text appended so far). plan may be NULL ("# memory plan: none").
 * node_offsets may be NULL; else it is indexed by node id (airc_node.id,
 * g->next_id entries) and gives the arena offset of each launch's output
 * (AIRC_MEM_UNPLANNED: outside the arena), printed as `offset=`.
 * Returns AIRC_OK; AIRC_E_INVALID_ARGUMENT (g, t or out NULL, a table
 * whose arrays are NULL or whose streams/events are out of range);
 * AIRC_E_MISUSE (bad graph handle); AIRC_E_OUT_OF_MEMORY. Reads only. */
AIRC_HIDDEN airc_status airc_replay_dump_txt(const airc_graph *g, const airc_launch_table *t,
                                             const airc_mem_plan *plan,
                                             const uint64_t *node_offsets, airc_strbuf *out);

#endif
