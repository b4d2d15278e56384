/* meta_propagation: placeholders get the example inputs' meta, then every
 * node's dtype/shape/strides are computed (airc_graph_propagate_meta).
 * All or nothing: the placeholders' previous meta is put back when the
 * propagation fails. */
#include "passmgr/passmgr.h"

#include <string.h>

typedef struct saved_input {
    airc_node *node;
    int32_t kind;
    airc_tmeta meta;
} saved_input;

static void restore_inputs(const saved_input *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        /* the node already holds a tensor's worth of meta storage, so
         * setting it again cannot fail; clearing never fails */
        if (s[i].kind == AIRC_META_TENSOR)
            (void)airc_node_set_meta(s[i].node, s[i].meta.dtype, s[i].meta.ndim, s[i].meta.shape,
                                     s[i].meta.strides);
        else
            (void)airc_node_clear_meta(s[i].node);
    }
}

airc_status airc_pass_meta_propagation(airc_graph *g, const airc_example_inputs *inputs,
                                       int32_t *changed)
{
    AIRC_TRY(airc_check_graph(g, "airc_pass_meta_propagation"));
    if (inputs && inputs->magic != AIRC_MAGIC_INPUTS)
        return airc_fail(AIRC_E_MISUSE,
                         "airc_pass_meta_propagation: not a live airc_example_inputs");
    size_t np = 0;
    bool all_known = true;
    AIRC_FOR_EACH_NODE(g, n)
        if (n->kind == AIRC_NODE_PLACEHOLDER) {
            np++;
            all_known &= n->meta_kind != AIRC_META_NONE;
        }
    if (!inputs && !all_known) {
        airc_log(g->ctx, AIRC_LOG_INFO,
                 "meta_propagation: skipped (no example inputs and placeholders without meta)");
        if (changed)
            *changed = 0;
        return AIRC_OK;
    }
    uint64_t before = airc_graph_fingerprint(g);
    saved_input *saved = NULL;
    if (inputs) {
        saved = airc_calloc(g->ctx, np ? np : 1, sizeof *saved);
        if (!saved)
            return airc_fail_oom("meta_propagation snapshot");
        size_t k = 0;
        AIRC_FOR_EACH_NODE(g, n) {
            if (n->kind != AIRC_NODE_PLACEHOLDER)
                continue;
            saved[k].node = n;
            /* a tuple meta on a placeholder is not a thing inputs have:
             * treat it as none */
            saved[k].kind = n->meta_kind == AIRC_META_TENSOR ? AIRC_META_TENSOR : AIRC_META_NONE;
            if (saved[k].kind == AIRC_META_TENSOR)
                saved[k].meta = n->out[0];
            k++;
        }
    }
    airc_status st = inputs ? airc_seed_placeholder_meta(g, inputs) : AIRC_OK;
    if (st == AIRC_OK)
        st = airc_graph_propagate_meta(g);
    if (st != AIRC_OK) {
        if (saved)
            restore_inputs(saved, np);
        airc_free(g->ctx, saved);
        return airc_fail_prefix("meta_propagation");
    }
    airc_free(g->ctx, saved);
    if (changed)
        *changed = airc_graph_fingerprint(g) != before;
    return AIRC_OK;
}
