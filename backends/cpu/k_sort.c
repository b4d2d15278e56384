/* Built-in CPU kernels of sort and topk (reduce family; table entries in
 * k_reduce.c). Each line along dim is read into (key, index) pairs and
 * sorted by key, then index: a stable sort, as torch's stable sort and its
 * sort of short lines. A key is the element mapped to an unsigned integer
 * in the element's order: NaN above +inf, -0.0 equal to 0.0, descending
 * order the key's complement. Values are copied bit for bit from self. */
#include "backends/cpu/k_reduce_internal.h"

#include <stdlib.h>

typedef struct sort_item {
    uint64_t key;
    int64_t index;
} sort_item;

static int cmp_item(const void *pa, const void *pb)
{
    const sort_item *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static uint64_t key_of(const void *base, int64_t i, airc_dtype dt)
{
    const uint64_t sign = UINT64_C(1) << 63;
    if (!airc_kred_is_float(dt))
        return (uint64_t)airc_kred_load_i(base, i, dt) ^ sign;
    double v = airc_kred_load_d(base, i, dt);
    if (v != v)
        return UINT64_MAX;
    if (v == 0)
        v = 0; /* -0.0 sorts with 0.0 */
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits & sign ? ~bits : bits | sign;
}

/* Sorts every line of x along dim into (vals, idx), keeping the first
 * `keep` items of each: ascending, or descending when `descending`. */
static airc_status sort_lines(airc_kernel_ctx *k, const airc_tview *x, int32_t dim, int64_t keep,
                              bool descending)
{
    const airc_tview *vals = &k->out[0], *idx = &k->out[1];
    if (airc_kred_numel(vals) == 0)
        return AIRC_OK;
    int64_t n = x->ndim ? x->shape[dim] : 1;
    int64_t sx = x->ndim ? x->strides[dim] : 0, sv = x->ndim ? vals->strides[dim] : 0,
            si = x->ndim ? idx->strides[dim] : 0;
    sort_item *items = airc_malloc(k->ctx, (size_t)n * sizeof *items);
    if (!items)
        return airc_fail_oom("sort line");
    size_t esz = airc_dtype_size(x->dtype);
    airc_kred_lines lv, li;
    airc_kred_lines_init(&lv, x, vals, dim);
    airc_kred_lines_init(&li, x, idx, dim);
    do {
        for (int64_t j = 0; j < n; j++) {
            uint64_t key = key_of(x->data, lv.in + j * sx, x->dtype);
            items[j] = (sort_item){descending ? ~key : key, j};
        }
        qsort(items, (size_t)n, sizeof *items, cmp_item);
        char *vp = (char *)vals->data + lv.out * (int64_t)esz;
        const char *xp = (const char *)x->data + lv.in * (int64_t)esz;
        int64_t *ip = (int64_t *)idx->data + li.out;
        for (int64_t j = 0; j < keep; j++) {
            memcpy(vp + j * sv * (int64_t)esz, xp + items[j].index * sx * (int64_t)esz, esz);
            ip[j * si] = items[j].index;
        }
        airc_kred_lines_next(&li);
    } while (airc_kred_lines_next(&lv));
    airc_free(k->ctx, items);
    return AIRC_OK;
}

static airc_status setup(airc_kernel_ctx *k, const airc_tview **x, int32_t *dim)
{
    *x = airc_kred_input(k, "self");
    if (!*x)
        return airc_kred_fail(k, AIRC_E_UNSUPPORTED, "self must be a tensor");
    if (k->nout < 2 || !k->out[0].data || !k->out[1].data ||
        k->out[0].dtype != (*x)->dtype || k->out[1].dtype != AIRC_DTYPE_I64)
        return airc_kred_fail(k, AIRC_E_RUNTIME, "outputs not allocated as (values, int64)");
    return airc_kred_wrap_dim(k, airc_kred_int(k, "dim", -1), (*x)->ndim, dim);
}

/* sort.default / sort.stable: stable either way (torch leaves the order
 * of equal elements open when stable is not set). */
airc_status airc_kred_sort(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x;
    int32_t dim;
    AIRC_TRY(setup(k, &x, &dim));
    int64_t n = x->ndim ? x->shape[dim] : 1;
    return sort_lines(k, x, dim, n, airc_kred_bool(k, "descending", false));
}

/* topk: the k largest (smallest) in descending (ascending) order, sorted
 * or not (torch leaves the order open then; sorted is one such order). */
airc_status airc_kred_topk(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x;
    int32_t dim;
    AIRC_TRY(setup(k, &x, &dim));
    int64_t n = x->ndim ? x->shape[dim] : 1, kk = airc_kred_int(k, "k", 0);
    if (kk < 0 || kk > n || (x->ndim && k->out[0].shape[dim] != kk))
        return airc_kred_fail(k, AIRC_E_RUNTIME, "selected index k out of range");
    /* a 0-dim self is its own top, whatever k (torch's result is 0-dim) */
    return sort_lines(k, x, dim, x->ndim ? kk : 1, airc_kred_bool(k, "largest", true));
}
