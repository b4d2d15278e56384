/* Built-in CPU kernels of sort, topk, median, nanmedian and kthvalue
 * (reduce family; table entries in k_reduce.c). Each line along dim is read into (key, index)
 * pairs, the key the element mapped to an unsigned integer in the element's order (NaN above +inf,
 * -0.0 equal to 0.0, descending order the key's complement), and ordered by key, then index: a
 * stable order, as torch's stable sort and its sort of short lines. A line is sorted by insertion
 * when short, else by an LSD radix sort on the key bytes that vary (stable
 * by construction); topk with k much smaller than the line keeps a heap
 * of the k best instead. Values are copied bit for bit from self. */
#include "backends/cpu/k_reduce_internal.h"
#include "backends/cpu/k_strided.h"
#include "backends/cpu/parallel.h"

#include <math.h>
#include <stdatomic.h>
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

static bool item_less(const sort_item *a, const sort_item *b)
{
    return a->key < b->key || (a->key == b->key && a->index < b->index);
}

/* Sorts a[0..n) (in index order on entry) by key, stably; tmp holds n. */
static void sort_items(sort_item *a, sort_item *tmp, int64_t n)
{
    if (n <= 32) {
        for (int64_t i = 1; i < n; i++) {
            sort_item x = a[i];
            int64_t j = i;
            for (; j > 0 && a[j - 1].key > x.key; j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
        return;
    }
    uint64_t diff = 0;
    for (int64_t i = 1; i < n; i++)
        diff |= a[i].key ^ a[0].key;
    sort_item *src = a, *dst = tmp;
    for (int shift = 0; shift < 64; shift += 8) {
        if (!((diff >> shift) & 0xff))
            continue; /* every key has this byte */
        int64_t at[256] = {0};
        for (int64_t i = 0; i < n; i++)
            at[(src[i].key >> shift) & 0xff]++;
        for (int64_t b = 0, sum = 0; b < 256; b++) {
            int64_t c = at[b];
            at[b] = sum;
            sum += c;
        }
        for (int64_t i = 0; i < n; i++)
            dst[at[(src[i].key >> shift) & 0xff]++] = src[i];
        sort_item *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, (size_t)n * sizeof *a);
}

/* The k least of keys[0..n) (by key, then index) into heap[0..k), in
 * order: a max-heap of the k best so far (a later key must be strictly
 * less than the root's to enter: an equal one has a greater index), then a
 * sort of those. */
static void select_keys(const uint64_t *keys, int64_t n, int64_t k, sort_item *heap)
{
    for (int64_t j = 0; j < n; j++) {
        int64_t i = 0;
        if (j < k) {
            heap[j] = (sort_item){keys[j], j};
            for (i = j; i > 0 && item_less(&heap[(i - 1) / 2], &heap[i]); i = (i - 1) / 2) {
                sort_item t = heap[i];
                heap[i] = heap[(i - 1) / 2];
                heap[(i - 1) / 2] = t;
            }
            continue;
        }
        if (keys[j] >= heap[0].key)
            continue;
        heap[0] = (sort_item){keys[j], j};
        for (;;) { /* sift the new root down */
            int64_t c = 2 * i + 1;
            if (c >= k)
                break;
            if (c + 1 < k && item_less(&heap[c], &heap[c + 1]))
                c++;
            if (!item_less(&heap[i], &heap[c]))
                break;
            sort_item t = heap[i];
            heap[i] = heap[c];
            heap[c] = t;
            i = c;
        }
    }
    qsort(heap, (size_t)k, sizeof *heap, cmp_item);
}

static inline uint64_t key_double(double v)
{
    const uint64_t sign = UINT64_C(1) << 63;
    if (v != v)
        return UINT64_MAX;
    if (v == 0)
        v = 0; /* -0.0 sorts with 0.0 */
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits & sign ? ~bits : bits | sign;
}

static inline uint64_t key_int(int64_t v)
{
    return (uint64_t)v ^ (UINT64_C(1) << 63);
}

static inline uint64_t key_half(uint16_t h)
{
    return key_double(airc_kred_h2f(h));
}

static inline uint64_t key_bhalf(uint16_t h)
{
    return key_double(airc_kred_bf2f(h));
}

/* The keys of the line at element offset off (stride sx, n elements) of
 * x, each XOR flip (all ones: descending). */
static void line_keys(const airc_tview *x, int64_t off, int64_t sx, int64_t n, uint64_t flip,
                      uint64_t *keys)
{
#define KEYS(T, KEY)                                                                               \
    do {                                                                                           \
        const T *p = (const T *)x->data + off;                                                     \
        for (int64_t j = 0; j < n; j++)                                                            \
            keys[j] = KEY(p[j * sx]) ^ flip;                                                       \
    } while (0)
    switch (x->dtype) {
    case AIRC_DTYPE_F32: KEYS(float, key_double); break;
    case AIRC_DTYPE_F64: KEYS(double, key_double); break;
    case AIRC_DTYPE_F16: KEYS(uint16_t, key_half); break;
    case AIRC_DTYPE_BF16: KEYS(uint16_t, key_bhalf); break;
    case AIRC_DTYPE_I64: KEYS(int64_t, key_int); break;
    case AIRC_DTYPE_I32: KEYS(int32_t, key_int); break;
    case AIRC_DTYPE_I16: KEYS(int16_t, key_int); break;
    case AIRC_DTYPE_I8: KEYS(int8_t, key_int); break;
    default: KEYS(uint8_t, key_int); break; /* u8, bool */
    }
#undef KEYS
}

/* Lines of x along dim sorted into (vals, idx), the first `keep` items of
 * each kept, split between threads by lines. */
typedef struct sort_job {
    airc_kernel_ctx *k;
    const airc_tview *x, *vals, *idx;
    int64_t n, keep, sx, sv, si;
    bool descending;
    airc_kred_lines lv, li; /* at the first line: lv walks the values, or
                             * (argsort) the indices again */
    atomic_bool oom;
} sort_job;

static void sort_chunk(void *arg, int64_t first, int64_t end)
{
    sort_job *j = arg;
    int64_t n = j->n, keep = j->keep;
    bool select = keep * 16 < n;
    /* keys, then the items (and the radix sort's second buffer) */
    size_t nitems = select ? (size_t)keep : 2 * (size_t)n;
    uint64_t *keys = airc_malloc(j->k->ctx, (size_t)n * sizeof *keys + nitems * sizeof(sort_item));
    if (!keys) {
        atomic_store(&j->oom, true);
        return;
    }
    sort_item *items = (sort_item *)(keys + n);
    const airc_tview *x = j->x;
    size_t esz = airc_dtype_size(x->dtype);
    airc_kred_lines lv = j->lv, li = j->li;
    airc_kred_lines_seek(&lv, first, end - first);
    airc_kred_lines_seek(&li, first, end - first);
    do {
        line_keys(x, lv.in, j->sx, n, j->descending ? UINT64_MAX : 0, keys);
        if (select) {
            select_keys(keys, n, keep, items);
        } else {
            for (int64_t e = 0; e < n; e++)
                items[e] = (sort_item){keys[e], e};
            sort_items(items, items + n, n);
        }
        const char *xp = (const char *)x->data + lv.in * (int64_t)esz;
        int64_t *ip = (int64_t *)j->idx->data + li.out;
        for (int64_t e = 0; e < keep; e++)
            ip[e * j->si] = items[e].index;
        for (int64_t e = 0; j->vals && e < keep; e++)
            memcpy((char *)j->vals->data + (lv.out + e * j->sv) * (int64_t)esz,
                   xp + items[e].index * j->sx * (int64_t)esz, esz);
        airc_kred_lines_next(&li);
    } while (airc_kred_lines_next(&lv));
    airc_free(j->k->ctx, keys);
}

/* Sorts every line of x along dim into (vals, idx), keeping the first
 * `keep` items of each: ascending, or descending when `descending`. */
static airc_status sort_lines(airc_kernel_ctx *k, const airc_tview *x, const airc_tview *vals,
                              const airc_tview *idx, int32_t dim, int64_t keep, bool descending)
{
    if (airc_kred_numel(idx) == 0)
        return AIRC_OK;
    int64_t n = x->ndim ? x->shape[dim] : 1;
    sort_job j = {.k = k,
                  .x = x,
                  .vals = vals,
                  .idx = idx,
                  .n = n,
                  .keep = keep,
                  .sx = x->ndim ? x->strides[dim] : 0,
                  .sv = x->ndim && vals ? vals->strides[dim] : 0,
                  .si = x->ndim ? idx->strides[dim] : 0,
                  .descending = descending};
    airc_kred_lines_init(&j.lv, x, vals ? vals : idx, dim);
    airc_kred_lines_init(&j.li, x, idx, dim);
    atomic_init(&j.oom, false);
    /* a line costs a pass over its n keys at least */
    airc_cpu_parallel_for(k->num_threads, j.lv.left, airc_kred_line_grain(n), sort_chunk, &j);
    return atomic_load(&j.oom) ? airc_fail_oom("sort line") : AIRC_OK;
}

/* self and dim; outputs (values, int64 indices), or (indices_only) the
 * int64 indices alone */
static airc_status setup(airc_kernel_ctx *k, bool indices_only, const airc_tview **x, int32_t *dim)
{
    *x = airc_kred_input(k, "self");
    if (!*x)
        return airc_kred_fail(k, AIRC_E_UNSUPPORTED, "self must be a tensor");
    const airc_tview *idx = &k->out[indices_only ? 0 : 1];
    if (k->nout < (indices_only ? 1 : 2) || !idx->data || idx->dtype != AIRC_DTYPE_I64 ||
        (!indices_only && (!k->out[0].data || k->out[0].dtype != (*x)->dtype)))
        return airc_kred_fail(k, AIRC_E_RUNTIME, "outputs not allocated as %s",
                              indices_only ? "int64 indices" : "(values, int64)");
    return airc_kred_wrap_dim(k, airc_kred_int(k, "dim", -1), (*x)->ndim, dim);
}

/* sort.default / sort.stable: stable either way (torch leaves the order
 * of equal elements open when stable is not set). */
airc_status airc_kred_sort(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x;
    int32_t dim;
    AIRC_TRY(setup(k, false, &x, &dim));
    int64_t n = x->ndim ? x->shape[dim] : 1;
    return sort_lines(k, x, &k->out[0], &k->out[1], dim, n, airc_kred_bool(k, "descending", false));
}

/* argsort.stable: sort.stable's indices */
airc_status airc_kred_argsort(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x;
    int32_t dim;
    AIRC_TRY(setup(k, true, &x, &dim));
    int64_t n = x->ndim ? x->shape[dim] : 1;
    return sort_lines(k, x, NULL, &k->out[0], dim, n, airc_kred_bool(k, "descending", false));
}

/* topk: the k largest (smallest) in descending (ascending) order, sorted
 * or not (torch leaves the order open then; sorted is one such order). */
airc_status airc_kred_topk(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x;
    int32_t dim;
    AIRC_TRY(setup(k, false, &x, &dim));
    int64_t n = x->ndim ? x->shape[dim] : 1, kk = airc_kred_int(k, "k", 0);
    if (kk < 0 || kk > n || (x->ndim && k->out[0].shape[dim] != kk))
        return airc_kred_fail(k, AIRC_E_RUNTIME, "selected index k out of range");
    /* a 0-dim self is its own top, whatever k (torch's result is 0-dim) */
    return sort_lines(k, x, &k->out[0], &k->out[1], dim, x->ndim ? kk : 1,
                      airc_kred_bool(k, "largest", true));
}

/* ---- median, nanmedian, kthvalue ---------------------------------------------- */

typedef enum pick_kind { PICK_MEDIAN, PICK_NANMEDIAN, PICK_KTH } pick_kind;

/* The sorted position a line of n items picks (nan: its NaNs, sorted last
 * and in index order): median's lower middle, or its first NaN; nanmedian's
 * lower middle of the others (all NaN: the first NaN); kthvalue's k-1. */
static int64_t pick_position(pick_kind kind, int64_t n, int64_t nan, int64_t k)
{
    if (kind == PICK_KTH)
        return k - 1;
    if (kind == PICK_MEDIAN)
        return nan ? n - nan : (n - 1) / 2;
    return n - nan ? (n - nan - 1) / 2 : 0;
}

/* t with a size-1 dim of stride 0 inserted at d (a reduced result seen
 * with keepdim), unless it already has x's rank. */
static airc_tview keep_dim(const airc_tview *t, int32_t rank, int32_t d)
{
    airc_tview v = *t;
    if (t->ndim == rank)
        return v;
    for (int32_t i = rank - 1; i > d; i--) {
        v.shape[i] = t->shape[i - 1];
        v.strides[i] = t->strides[i - 1];
    }
    v.shape[d] = 1;
    v.strides[d] = 0;
    v.ndim = rank;
    return v;
}

/* Each line of x along dim sorted stably by key (NaN above every number),
 * the picked item's value (bit for bit) into vals, its index into idx
 * (NULL: values only). */
static airc_status pick_lines(airc_kernel_ctx *k, const airc_tview *x, int32_t dim, pick_kind kind,
                              int64_t kk, const airc_tview *vals_out, const airc_tview *idx_out)
{
    int32_t rank = x->ndim;
    airc_tview vals = keep_dim(vals_out, rank, dim), idx = {0};
    if (idx_out)
        idx = keep_dim(idx_out, rank, dim);
    int64_t n = rank ? x->shape[dim] : 1, sx = rank ? x->strides[dim] : 0;
    if (airc_kred_numel(&vals) == 0)
        return AIRC_OK;
    uint64_t *keys = airc_malloc(k->ctx, (size_t)n * (sizeof *keys + 2 * sizeof(sort_item)));
    if (!keys)
        return airc_fail_oom("pick line");
    sort_item *items = (sort_item *)(keys + n);
    size_t esz = airc_dtype_size(x->dtype);
    bool fp = airc_kred_is_float(x->dtype);
    airc_kred_lines lv, li;
    airc_kred_lines_init(&lv, x, &vals, dim);
    airc_kred_lines_init(&li, x, idx_out ? &idx : &vals, dim);
    do {
        line_keys(x, lv.in, sx, n, 0, keys);
        int64_t nan = 0;
        for (int64_t j = 0; j < n; j++) {
            items[j] = (sort_item){keys[j], j};
            nan += fp && keys[j] == UINT64_MAX;
        }
        sort_items(items, items + n, n);
        int64_t at = items[pick_position(kind, n, nan, kk)].index;
        memcpy((char *)vals.data + lv.out * (int64_t)esz,
               (const char *)x->data + (lv.in + at * sx) * (int64_t)esz, esz);
        if (idx_out)
            ((int64_t *)idx.data)[li.out] = at;
        airc_kred_lines_next(&li);
    } while (airc_kred_lines_next(&lv));
    airc_free(k->ctx, keys);
    return AIRC_OK;
}

/* median / nanmedian (.default: every element, the value; .dim: values
 * and indices) and kthvalue(self, k, dim, keepdim). An empty self's
 * median is NaN. */
static airc_status pick(airc_kernel_ctx *k, pick_kind kind)
{
    const airc_tview *x = airc_kred_input(k, "self");
    if (!x)
        return airc_kred_fail(k, AIRC_E_UNSUPPORTED, "self must be a tensor");
    bool pair = k->nout >= 2;
    if (!k->out[0].data || k->out[0].dtype != x->dtype ||
        (pair && (!k->out[1].data || k->out[1].dtype != AIRC_DTYPE_I64)))
        return airc_kred_fail(k, AIRC_E_RUNTIME, "outputs not allocated as the meta says");
    if (!pair) { /* every element: x as one contiguous line */
        int64_t n = airc_kred_numel(x);
        if (n == 0) { /* NaN, converted as x86 converts it for an integer self */
            const double nan = NAN;
            airc_cpu_convert(k->out[0].data, x->dtype, &nan, AIRC_DTYPE_F64);
            return AIRC_OK;
        }
        airc_tview flat = {.dtype = x->dtype, .ndim = 1};
        flat.shape[0] = n;
        flat.strides[0] = 1;
        flat.data = airc_malloc(k->ctx, (size_t)n * airc_dtype_size(x->dtype));
        if (!flat.data)
            return airc_fail_oom("median's copy");
        airc_cpu_copy_reshape(&flat, x);
        airc_status st = pick_lines(k, &flat, 0, kind, 0, &k->out[0], NULL);
        airc_free(k->ctx, flat.data);
        return st;
    }
    int32_t dim;
    AIRC_TRY(airc_kred_wrap_dim(k, airc_kred_int(k, "dim", -1), x->ndim, &dim));
    int64_t kk = kind == PICK_KTH ? airc_kred_int(k, "k", 1) : 0;
    int64_t n = x->ndim ? x->shape[dim] : 1;
    if (kind == PICK_KTH && (kk < 1 || kk > n))
        return airc_kred_fail(k, AIRC_E_RUNTIME,
                              "kthvalue(): selected number k out of range for dimension %d",
                              (int)dim);
    return pick_lines(k, x, dim, kind, kk, &k->out[0], &k->out[1]);
}

airc_status airc_kred_median(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    return pick(k, PICK_MEDIAN);
}

airc_status airc_kred_nanmedian(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    return pick(k, PICK_NANMEDIAN);
}

airc_status airc_kred_kthvalue(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    return pick(k, PICK_KTH);
}
