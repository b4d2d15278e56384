/* Executors: eager (node by node, the reference for the compiled modes). */
#ifndef AIRC_EXEC_H
#define AIRC_EXEC_H

#include "airc/exec.h"
#include "airc/runtime.h"
#include "ops/kernel.h"

/* The kernel for an op on a runtime's device type: the context's
 * registration first, then airc's built-in CPU kernels for "cpu". */
AIRC_HIDDEN bool airc_find_kernel(const airc_op *op, const char *device_type,
                                  airc_kernel_ref *out);

/* The elements of t, whose first element is at base, into contiguous dst
 * (host memory; the CPU kernels' strided copy). */
AIRC_HIDDEN void airc_exec_gather(void *dst, const void *base, const airc_tview *t);

typedef struct airc_data_dump airc_data_dump;

/* airc_run_eager, saving nodes' inputs and results as it goes when dump is
 * not NULL (debug.data_dump, exec/data_dump.h). */
AIRC_HIDDEN airc_status airc_run_eager_dumping(const airc_graph *g, airc_runtime *rt,
                                               airc_tensor *const *inputs, size_t ninputs,
                                               airc_tensor **outputs, size_t outputs_cap,
                                               size_t *noutputs, airc_run_stats *stats,
                                               const airc_data_dump *dump);

#endif
