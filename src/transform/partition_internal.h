/* Internal layout shared by the partitioner, fuse and inline files. */
#ifndef AIRC_PARTITION_INTERNAL_H
#define AIRC_PARTITION_INTERNAL_H

#include "ir/ir.h"

#define AIRC_MAGIC_PARTITIONS 0x41430010u
#define AIRC_MAGIC_SUPPORT 0x41430011u

/* Partitions stored flat: partition i is nodes[start[i] .. start[i+1]). */
struct airc_partitions {
    uint32_t magic;
    airc_context *ctx;
    airc_graph *g;
    airc_node **nodes;
    size_t nnodes, nodes_cap;
    size_t *start; /* count + 1 entries */
    size_t count, start_cap;
};

/* Appends a partition (nodes copied as given). false on OOM (unchanged). */
AIRC_HIDDEN bool airc_partitions_push(airc_partitions *p, airc_node *const *nodes, size_t n);

/* true for a live support object. */
AIRC_HIDDEN bool airc_support_live(const airc_support *s);

/* Copies node x into graph dst at its insertion point, refs mapped with
 * map (airc_value_copy), name x's made unique, meta and attributes copied. */
AIRC_HIDDEN airc_status airc_fuse_copy_node(airc_graph *dst, const airc_node *x,
                                            airc_node_map_fn map, void *user, airc_node **out);

#endif
