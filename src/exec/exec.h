/* Executors: eager (node by node, the reference for the compiled modes). */
#ifndef AIRC_EXEC_H
#define AIRC_EXEC_H

#include "airc/runtime.h"
#include "ops/kernel.h"

/* The kernel for an op on a runtime's device type: the context's
 * registration first, then airc's built-in CPU kernels for "cpu". */
AIRC_HIDDEN bool airc_find_kernel(const airc_op *op, const char *device_type,
                                  airc_kernel_ref *out);

/* Copies the elements of view t, whose first element is at `base` (host
 * memory), into dst in row-major order (dst holds numel elements). */
AIRC_HIDDEN void airc_gather_strided(void *dst, const void *base, const airc_tview *t);

#endif
