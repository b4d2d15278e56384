/* Lookup over the per-family built-in CPU kernel tables. */
#include "backends/cpu/cpu_kernels.h"

#include <string.h>

static airc_kernel_fn search(const airc_cpu_kernel_entry *t, size_t n, const char *name)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(name, t[mid].qualname);
        if (!c)
            return t[mid].fn;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

airc_kernel_fn airc_cpu_find_kernel(const char *qualname)
{
    static const struct {
        const airc_cpu_kernel_entry *table;
        const size_t *count;
    } families[] = {
        {airc_cpu_kernels_unary, &airc_cpu_num_kernels_unary},
        {airc_cpu_kernels_binary, &airc_cpu_num_kernels_binary},
        {airc_cpu_kernels_ternary, &airc_cpu_num_kernels_ternary},
        {airc_cpu_kernels_loss, &airc_cpu_num_kernels_loss},
        {airc_cpu_kernels_reduce, &airc_cpu_num_kernels_reduce},
        {airc_cpu_kernels_linalg, &airc_cpu_num_kernels_linalg},
        {airc_cpu_kernels_shape, &airc_cpu_num_kernels_shape},
    };
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        airc_kernel_fn fn = search(families[i].table, *families[i].count, qualname);
        if (fn)
            return fn;
    }
    return NULL;
}
