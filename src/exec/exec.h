/* Executors: eager (node by node, the reference for the compiled modes). */
#ifndef AIRC_EXEC_H
#define AIRC_EXEC_H

#include "airc/runtime.h"
#include "ops/kernel.h"

/* The kernel for an op on a runtime's device type: the context's
 * registration first, then airc's built-in CPU kernels for "cpu". */
AIRC_HIDDEN bool airc_find_kernel(const airc_op *op, const char *device_type,
                                  airc_kernel_ref *out);

/* The elements of t, whose first element is at base, into contiguous dst
 * (host memory; the CPU kernels' strided copy). */
AIRC_HIDDEN void airc_exec_gather(void *dst, const void *base, const airc_tview *t);

#endif
