/* The reference executor's front half: a ModelDef read back, validated and
 * raised into an ATen graph that airc_run_eager runs (execute.c). */
#ifndef AIRC_GE_EXECUTE_H
#define AIRC_GE_EXECUTE_H

#include "backends/ge/ge_internal.h"

/* Validates m and builds the equivalent ATen graph (placeholders in Data
 * index order; *ninputs their count). AIRC_E_INVALID_GRAPH naming the op
 * for a malformed model; AIRC_E_OUT_OF_MEMORY. */
AIRC_HIDDEN airc_status airc_ge_raise_model(airc_context *ctx, const Ge__Proto__ModelDef *m,
                                            airc_graph **out, size_t *ninputs);

#endif
