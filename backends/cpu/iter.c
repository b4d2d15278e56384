/* The strided N-d iterator of the elementwise CPU kernels (see iter.h). */
#include "backends/cpu/iter.h"

#include "core/core.h"

#include <string.h>

/* Dim a should sit inside (be iterated faster than) dim b: smaller output
 * stride, ties broken by the inputs' strides in order. */
static bool inner_than(const airc_iter *it, int32_t a, int32_t b)
{
    for (int32_t op = 0; op < it->nops; op++) {
        int64_t sa = it->strides[op][a], sb = it->strides[op][b];
        if (sa != sb)
            return sa < sb;
    }
    return false;
}

static void swap_dims(airc_iter *it, int32_t a, int32_t b)
{
    int64_t t = it->shape[a];
    it->shape[a] = it->shape[b];
    it->shape[b] = t;
    for (int32_t op = 0; op < it->nops; op++) {
        t = it->strides[op][a];
        it->strides[op][a] = it->strides[op][b];
        it->strides[op][b] = t;
    }
}

static void coalesce(airc_iter *it)
{
    int32_t c = 0;
    for (int32_t j = 1; j < it->ndim; j++) {
        bool merge = true;
        for (int32_t op = 0; op < it->nops && merge; op++)
            merge = it->strides[op][j] == it->strides[op][c] * it->shape[c];
        if (merge) {
            it->shape[c] *= it->shape[j];
            continue;
        }
        c++;
        it->shape[c] = it->shape[j];
        for (int32_t op = 0; op < it->nops; op++)
            it->strides[op][c] = it->strides[op][j];
    }
    it->ndim = c + 1;
}

bool airc_iter_flat(const airc_tview *out, const airc_tview *const *in, int32_t nin)
{
    for (int32_t i = -1; i < nin; i++) {
        const airc_tview *t = i < 0 ? out : in[i];
        if (i >= 0 && t->ndim == 0)
            continue;
        if (t->ndim != out->ndim)
            return false;
        int64_t expect = 1;
        for (int32_t d = t->ndim - 1; d >= 0; d--) {
            if (t->shape[d] != out->shape[d] || (t->shape[d] != 1 && t->strides[d] != expect))
                return false;
            expect *= t->shape[d];
        }
    }
    return true;
}

static airc_status init_flat(airc_iter *it, const airc_tview *out, const airc_tview *const *in,
                             int32_t nin)
{
    int64_t numel = 1;
    for (int32_t d = 0; d < out->ndim; d++)
        numel *= out->shape[d];
    it->nops = nin + 1;
    it->ndim = 1;
    it->numel = numel;
    it->shape[0] = numel ? numel : 1;
    for (int32_t op = 0; op < it->nops; op++) {
        const airc_tview *t = op ? in[op - 1] : out;
        it->data[op] = t->data;
        it->dtype[op] = t->dtype;
        it->elsize[op] = airc_dtype_size(t->dtype);
        it->strides[op][0] = op && t->ndim == 0 ? 0 : 1;
        if (!it->elsize[op])
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_iter_init: operand %d has dtype %d",
                             (int)op, (int)t->dtype);
        if (numel && !t->data)
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_iter_init: operand %d has no data",
                             (int)op);
    }
    return AIRC_OK;
}

airc_status airc_iter_init(airc_iter *it, const airc_tview *out, const airc_tview *const *in,
                           int32_t nin)
{
    if (nin >= 0 && nin < AIRC_ITER_MAX_OPERANDS && out->ndim >= 0 && out->ndim <= AIRC_MAX_DIMS &&
        airc_iter_flat(out, in, nin))
        return init_flat(it, out, in, nin);
    if (nin < 0 || nin >= AIRC_ITER_MAX_OPERANDS || out->ndim < 0 || out->ndim > AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_iter_init: bad operand count or rank");
    memset(it, 0, sizeof *it);
    it->nops = nin + 1;
    const airc_tview *ops[AIRC_ITER_MAX_OPERANDS] = {out};
    for (int32_t i = 0; i < nin; i++)
        ops[i + 1] = in[i];
    int64_t numel = 1;
    for (int32_t d = 0; d < out->ndim; d++)
        numel *= out->shape[d];
    for (int32_t op = 0; op < it->nops; op++) {
        const airc_tview *t = ops[op];
        it->data[op] = t->data;
        it->dtype[op] = t->dtype;
        it->elsize[op] = airc_dtype_size(t->dtype);
        if (!it->elsize[op])
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_iter_init: operand %d has dtype %d",
                             (int)op, (int)t->dtype);
        if (t->ndim < 0 || t->ndim > out->ndim)
            return airc_fail(AIRC_E_SHAPE,
                             "airc_iter_init: operand %d has %d dims, the output %d", (int)op,
                             (int)t->ndim, (int)out->ndim);
        if (numel && !t->data)
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_iter_init: operand %d has no data",
                             (int)op);
    }
    it->numel = numel;
    if (!numel)
        return AIRC_OK;

    /* dims in reverse (dim 0 = the output's last), size-1 dims dropped */
    int32_t nd = 0;
    for (int32_t d = out->ndim - 1; d >= 0; d--) {
        int64_t size = out->shape[d];
        for (int32_t op = 1; op < it->nops; op++) {
            const airc_tview *t = ops[op];
            int32_t k = d - (out->ndim - t->ndim);
            if (k >= 0 && t->shape[k] != size && t->shape[k] != 1)
                return airc_fail(AIRC_E_SHAPE,
                                 "airc_iter_init: input %d of size %lld at dim %d does not "
                                 "broadcast to the output's %lld",
                                 (int)op - 1, (long long)t->shape[k], (int)d, (long long)size);
        }
        if (size == 1)
            continue;
        it->shape[nd] = size;
        for (int32_t op = 0; op < it->nops; op++) {
            const airc_tview *t = ops[op];
            int32_t k = d - (out->ndim - t->ndim);
            it->strides[op][nd] = (k >= 0 && t->shape[k] != 1) ? t->strides[k] : 0;
        }
        nd++;
    }
    if (!nd) {
        it->ndim = 1;
        it->shape[0] = 1;
        return AIRC_OK;
    }
    it->ndim = nd;
    /* insertion sort, stable: dims already in order stay put */
    for (int32_t i = 1; i < nd; i++)
        for (int32_t j = i; j > 0 && inner_than(it, j, j - 1); j--)
            swap_dims(it, j, j - 1);
    coalesce(it);
    return AIRC_OK;
}

void airc_iter_run(const airc_iter *it, airc_iter_loop_fn loop, void *user)
{
    if (!it->numel)
        return;
    char *p[AIRC_ITER_MAX_OPERANDS];
    int64_t inner[AIRC_ITER_MAX_OPERANDS];
    if (it->ndim == 1) { /* one run: no index bookkeeping */
        for (int32_t op = 0; op < it->nops; op++) {
            p[op] = it->data[op];
            inner[op] = it->strides[op][0];
        }
        loop(user, it->shape[0], p, inner);
        return;
    }
    int64_t step[AIRC_ITER_MAX_OPERANDS][AIRC_MAX_DIMS]; /* bytes */
    for (int32_t op = 0; op < it->nops; op++) {
        p[op] = it->data[op];
        inner[op] = it->strides[op][0];
        for (int32_t d = 1; d < it->ndim; d++)
            step[op][d] = it->strides[op][d] * (int64_t)it->elsize[op];
    }
    int64_t idx[AIRC_MAX_DIMS] = {0};
    for (;;) {
        loop(user, it->shape[0], p, inner);
        int32_t d = 1;
        for (; d < it->ndim; d++) {
            for (int32_t op = 0; op < it->nops; op++)
                p[op] += step[op][d];
            if (++idx[d] < it->shape[d])
                break;
            for (int32_t op = 0; op < it->nops; op++)
                p[op] -= step[op][d] * it->shape[d];
            idx[d] = 0;
        }
        if (d >= it->ndim)
            return;
    }
}
