/* Internal layout shared by the matcher and the rewriter. */
#ifndef AIRC_TRANSFORM_INTERNAL_H
#define AIRC_TRANSFORM_INTERNAL_H

#include "ir/ir.h"

#define AIRC_MAGIC_MATCHER 0x41430010u
#define AIRC_MAGIC_MATCH_LIST 0x41430011u
#define AIRC_MAGIC_TRANSFORMER 0x41430012u
#define AIRC_MAGIC_REPLACED 0x41430013u

struct airc_matcher {
    uint32_t magic;
    airc_context *ctx;
    const airc_graph *pattern;
    airc_matcher_options opts;
    size_t np;                /* live pattern nodes, output included */
    const airc_node **pnodes; /* in pattern order */
    uint32_t *pidx;           /* pattern node id -> index + 1 (0: none) */
    uint32_t nids;            /* pattern->next_id when created */
    uint32_t *ph;             /* placeholder indices, in order */
    size_t nph;
    uint32_t *ret; /* returning node indices (output's distinct inputs) */
    size_t nret;
    uint32_t *anch; /* anchor indices */
    size_t nanch;
    uint32_t out_idx; /* index of the output node */
};

/* One match: arrays sized by the list's pattern counts. */
struct airc_match {
    const airc_match_list *list;
    airc_node **anchors;       /* nanch */
    airc_node **gnodes;        /* np: image of each pattern node or NULL */
    const airc_value **lits;   /* np: literal bound by a placeholder or NULL */
    airc_node **ret;           /* nret */
};

struct airc_match_list {
    uint32_t magic;
    airc_context *ctx;
    /* pattern layout, copied so that the list outlives the matcher */
    size_t np, nph, nret, nanch;
    const airc_node **pnodes;
    uint32_t *ph;
    bool with_output; /* output is an entry (match_output) */
    uint32_t out_idx;
    airc_match **items;
    size_t n, cap;
};

#endif
