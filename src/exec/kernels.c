/* Kernel lookup for the executors: a kernel the context registered for the
 * runtime's device type wins (custom ops, overrides), then airc's built-in
 * CPU kernels. */
#include "exec/exec.h"

#include "backends/cpu/cpu_kernels.h"

#include <string.h>

bool airc_find_kernel(const airc_op *op, const char *device_type, airc_kernel_ref *out)
{
    airc_kernel_ref ref;
    if (airc_op_registered_kernel(op, device_type, &ref)) {
        *out = ref;
        return true;
    }
    if (strcmp(device_type, "cpu"))
        return false;
    airc_kernel_fn fn = airc_cpu_find_kernel(op->qualname);
    if (!fn)
        return false;
    out->fn = fn;
    out->user_data = NULL;
    return true;
}
