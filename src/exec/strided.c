/* Strided gather into contiguous memory (results handed back as host
 * tensors). */
#include "exec/exec.h"

#include <string.h>

/* Gathers the elements of a view whose first element is at `base` into dst,
 * in row-major order. Dimensions of size 1 are skipped and the innermost
 * run of contiguous elements is copied with one memcpy. */
void airc_gather_strided(void *dst, const void *base, const airc_tview *t)
{
    size_t esize = airc_dtype_size(t->dtype);
    int64_t shape[AIRC_MAX_DIMS], strides[AIRC_MAX_DIMS];
    int32_t nd = 0;
    for (int32_t i = 0; i < t->ndim; i++) {
        if (t->shape[i] == 0)
            return;
        if (t->shape[i] == 1)
            continue;
        shape[nd] = t->shape[i];
        strides[nd] = t->strides[i];
        nd++;
    }
    /* merge trailing dims that are contiguous with each other */
    int64_t inner = 1;
    while (nd > 0 && strides[nd - 1] == inner) {
        inner *= shape[nd - 1];
        nd--;
    }
    size_t run = (size_t)inner * esize;
    if (nd == 0) {
        memcpy(dst, base, run);
        return;
    }
    int64_t idx[AIRC_MAX_DIMS] = {0};
    const char *src = base;
    char *out = dst;
    for (;;) {
        int64_t off = 0;
        for (int32_t i = 0; i < nd; i++)
            off += idx[i] * strides[i];
        memcpy(out, src + off * (int64_t)esize, run);
        out += run;
        int32_t d = nd - 1;
        while (d >= 0 && ++idx[d] == shape[d])
            idx[d--] = 0;
        if (d < 0)
            return;
    }
}
