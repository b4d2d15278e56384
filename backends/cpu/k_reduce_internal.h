/* Shared pieces of the reduce family (k_reduce.c, k_reduce_rows.c, k_norm.c,
 * k_reduce_simd_*.c): reading bound arguments, loading and storing any
 * dtype as double / int64, and the per-ISA SIMD loops over contiguous f32
 * rows. Internal to backends/cpu. */
#ifndef AIRC_CPU_K_REDUCE_INTERNAL_H
#define AIRC_CPU_K_REDUCE_INTERNAL_H

#include "backends/cpu/cpu_kernels.h"
#include "backends/cpu/parallel.h"
#include "core/core.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---- arguments (schema positions looked up by name) --------------------- */

/* The bound value of argument `name`; NULL when the schema has none, or it
 * is absent or None. */
AIRC_HIDDEN const airc_value *airc_kred_arg(const airc_kernel_ctx *k, const char *name);
/* The tensor bound to `name`, NULL when none. */
AIRC_HIDDEN const airc_tview *airc_kred_input(const airc_kernel_ctx *k, const char *name);
AIRC_HIDDEN bool airc_kred_bool(const airc_kernel_ctx *k, const char *name, bool def);
AIRC_HIDDEN int64_t airc_kred_int(const airc_kernel_ctx *k, const char *name, int64_t def);
AIRC_HIDDEN double airc_kred_double(const airc_kernel_ctx *k, const char *name, double def);
/* An int list (a single int counts as a list of one): its length, at most
 * cap items written; -1 when absent or None. */
AIRC_HIDDEN int32_t airc_kred_int_list(const airc_kernel_ctx *k, const char *name, int64_t *out,
                                       int32_t cap);
/* Wraps dim into [0, ndim) (a 0-dim tensor accepts 0 and -1). Fails with
 * AIRC_E_RUNTIME in torch's words, naming the node. */
AIRC_HIDDEN airc_status airc_kred_wrap_dim(const airc_kernel_ctx *k, int64_t dim, int32_t ndim,
                                           int32_t *out);
/* Records code with "node 'n' (op): message"; returns code. */
AIRC_HIDDEN airc_status airc_kred_fail(const airc_kernel_ctx *k, airc_status code,
                                       const char *fmt, ...) AIRC_PRINTF(3, 4);
AIRC_HIDDEN bool airc_kred_is_float(airc_dtype d);
AIRC_HIDDEN int64_t airc_kred_numel(const airc_tview *t);

/* ---- lines along one dim ------------------------------------------------ */

/* Walks every line of a (and the same positions of b) along dim `skip`:
 * `in`/`out` are the element offsets of each line's first element. */
typedef struct airc_kred_lines {
    int32_t nd;
    int64_t size[AIRC_MAX_DIMS], sa[AIRC_MAX_DIMS], sb[AIRC_MAX_DIMS], idx[AIRC_MAX_DIMS];
    int64_t in, out, left;
} airc_kred_lines;

static inline void airc_kred_lines_init(airc_kred_lines *it, const airc_tview *a,
                                        const airc_tview *b, int32_t skip)
{
    memset(it, 0, sizeof *it);
    it->left = 1;
    for (int32_t d = 0; d < a->ndim; d++) {
        it->left *= d == skip ? 1 : a->shape[d];
        if (d == skip || a->shape[d] == 1)
            continue;
        it->size[it->nd] = a->shape[d];
        it->sa[it->nd] = a->strides[d];
        it->sb[it->nd++] = b->strides[d];
    }
}

static inline bool airc_kred_lines_next(airc_kred_lines *it)
{
    if (--it->left <= 0)
        return false;
    for (int32_t d = it->nd - 1; d >= 0; d--) {
        if (++it->idx[d] < it->size[d]) {
            it->in += it->sa[d];
            it->out += it->sb[d];
            return true;
        }
        it->in -= it->sa[d] * (it->size[d] - 1);
        it->out -= it->sb[d] * (it->size[d] - 1);
        it->idx[d] = 0;
    }
    return false;
}

/* Positions it (fresh from init) at line `line` of its walk, with `count`
 * lines left: a range of lines for one thread. */
static inline void airc_kred_lines_seek(airc_kred_lines *it, int64_t line, int64_t count)
{
    it->in = it->out = 0;
    for (int32_t d = it->nd - 1; d >= 0; d--) {
        it->idx[d] = line % it->size[d];
        line /= it->size[d];
        it->in += it->idx[d] * it->sa[d];
        it->out += it->idx[d] * it->sb[d];
    }
    it->left = count;
}

/* Lines per chunk when splitting `lines` lines of n elements between
 * threads: about 16K elements each. */
static inline int64_t airc_kred_line_grain(int64_t n)
{
    return airc_cpu_grain(n, (int64_t)1 << 14);
}

/* ---- element conversions ------------------------------------------------ */

static inline float airc_kred_h2f(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, bits;
    if (e == 0) {
        float f = (float)m * 0x1p-24f; /* zero or subnormal: exact */
        return s ? -f : f;
    }
    if (e == 31)
        bits = s | 0x7f800000u | (m << 13);
    else
        bits = s | ((e + 112) << 23) | (m << 13);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Round to nearest even, as torch's c10::Half. */
static inline uint16_t airc_kred_f2h(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    x &= 0x7fffffffu;
    if (x >= 0x7f800000u)
        return (uint16_t)(sign | 0x7c00u | (x > 0x7f800000u ? 0x200u : 0));
    if (x >= 0x477ff000u) /* >= 65520 rounds past the largest half */
        return (uint16_t)(sign | 0x7c00u);
    if (x < 0x38800000u) { /* below 2^-14: subnormal half; scaling is exact */
        float a;
        memcpy(&a, &x, sizeof a);
        return (uint16_t)(sign | (uint16_t)lrintf(a * 0x1p24f));
    }
    uint32_t r = x + 0xc8000fffu + ((x >> 13) & 1u);
    return (uint16_t)(sign | (r >> 13));
}

static inline float airc_kred_bf2f(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint16_t airc_kred_f2bf(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return 0x7fc0u;
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

/* Element i (in elements) of base as double / int64. */
static inline double airc_kred_load_d(const void *base, int64_t i, airc_dtype dt)
{
    switch (dt) {
    case AIRC_DTYPE_F32: return ((const float *)base)[i];
    case AIRC_DTYPE_F64: return ((const double *)base)[i];
    case AIRC_DTYPE_F16: return airc_kred_h2f(((const uint16_t *)base)[i]);
    case AIRC_DTYPE_BF16: return airc_kred_bf2f(((const uint16_t *)base)[i]);
    case AIRC_DTYPE_I64: return (double)((const int64_t *)base)[i];
    case AIRC_DTYPE_I32: return ((const int32_t *)base)[i];
    case AIRC_DTYPE_I16: return ((const int16_t *)base)[i];
    case AIRC_DTYPE_I8: return ((const int8_t *)base)[i];
    case AIRC_DTYPE_U8: return ((const uint8_t *)base)[i];
    case AIRC_DTYPE_BOOL: return ((const uint8_t *)base)[i] != 0;
    default: return 0;
    }
}

static inline int64_t airc_kred_load_i(const void *base, int64_t i, airc_dtype dt)
{
    switch (dt) {
    case AIRC_DTYPE_I64: return ((const int64_t *)base)[i];
    case AIRC_DTYPE_I32: return ((const int32_t *)base)[i];
    case AIRC_DTYPE_I16: return ((const int16_t *)base)[i];
    case AIRC_DTYPE_I8: return ((const int8_t *)base)[i];
    case AIRC_DTYPE_U8: return ((const uint8_t *)base)[i];
    case AIRC_DTYPE_BOOL: return ((const uint8_t *)base)[i] != 0;
    default: {
        double d = airc_kred_load_d(base, i, dt);
        /* C leaves out-of-range float -> int undefined; torch gives garbage */
        return d == d && fabs(d) < 9.2e18 ? (int64_t)d : INT64_MIN;
    }
    }
}

static inline void airc_kred_store_d(void *base, int64_t i, airc_dtype dt, double v)
{
    switch (dt) {
    case AIRC_DTYPE_F32: ((float *)base)[i] = (float)v; return;
    case AIRC_DTYPE_F64: ((double *)base)[i] = v; return;
    case AIRC_DTYPE_F16: ((uint16_t *)base)[i] = airc_kred_f2h((float)v); return;
    case AIRC_DTYPE_BF16: ((uint16_t *)base)[i] = airc_kred_f2bf((float)v); return;
    case AIRC_DTYPE_BOOL: ((uint8_t *)base)[i] = v != 0; return;
    default: {
        int64_t x = v == v && fabs(v) < 9.2e18 ? (int64_t)v : INT64_MIN;
        switch (dt) {
        case AIRC_DTYPE_I64: ((int64_t *)base)[i] = x; return;
        case AIRC_DTYPE_I32: ((int32_t *)base)[i] = (int32_t)x; return;
        case AIRC_DTYPE_I16: ((int16_t *)base)[i] = (int16_t)x; return;
        case AIRC_DTYPE_I8: ((int8_t *)base)[i] = (int8_t)x; return;
        case AIRC_DTYPE_U8: ((uint8_t *)base)[i] = (uint8_t)x; return;
        default: return;
        }
    }
    }
}

static inline void airc_kred_store_i(void *base, int64_t i, airc_dtype dt, int64_t v)
{
    switch (dt) {
    case AIRC_DTYPE_I64: ((int64_t *)base)[i] = v; return;
    case AIRC_DTYPE_I32: ((int32_t *)base)[i] = (int32_t)v; return;
    case AIRC_DTYPE_I16: ((int16_t *)base)[i] = (int16_t)v; return;
    case AIRC_DTYPE_I8: ((int8_t *)base)[i] = (int8_t)v; return;
    case AIRC_DTYPE_U8: ((uint8_t *)base)[i] = (uint8_t)v; return;
    case AIRC_DTYPE_BOOL: ((uint8_t *)base)[i] = v != 0; return;
    default: airc_kred_store_d(base, i, dt, (double)v); return;
    }
}

/* Typed strided row copies: n elements from base[off + j*stride]. */
AIRC_HIDDEN void airc_kred_load_row_d(const void *base, int64_t off, int64_t stride, int64_t n,
                                      airc_dtype dt, double *dst);
AIRC_HIDDEN void airc_kred_load_row_i(const void *base, int64_t off, int64_t stride, int64_t n,
                                      airc_dtype dt, int64_t *dst);
AIRC_HIDDEN void airc_kred_store_row_d(void *base, int64_t off, int64_t stride, int64_t n,
                                       airc_dtype dt, const double *src);

/* ---- SIMD loops over contiguous f32 (one table per ISA) ----------------- */

typedef struct airc_kred_simd {
    const char *isa;
    /* sums in double */
    double (*sum)(const float *x, int64_t n);
    double (*sqdev)(const float *x, int64_t n, double mean);
    /* max / min of n >= 1 values; NaN when one is NaN (torch propagates) */
    float (*max)(const float *x, int64_t n);
    float (*min)(const float *x, int64_t n);
    /* column accumulation: acc[j] op= x[j], j < n */
    void (*col_sum)(const float *x, double *acc, int64_t n);
    void (*col_sqdev)(const float *x, const double *mean, double *acc, int64_t n);
    /* acc keeps a NaN once it has seen one */
    void (*col_max)(const float *x, float *acc, int64_t n);
    void (*col_min)(const float *x, float *acc, int64_t n);
    /* softmax / log_softmax of a contiguous row (y may alias x) */
    void (*softmax)(const float *x, float *y, int64_t n, bool log);
    /* softmax over rows of n elements spaced `inner` apart, for `inner`
     * contiguous columns at once: x[r*inner + j]. ws: 16*inner bytes,
     * 8-byte aligned. */
    void (*softmax_cols)(const float *x, float *y, int64_t n, int64_t inner, bool log, void *ws);
    /* y = (x*a + c) * w + b; w, b NULL for no affine */
    void (*norm_apply)(const float *x, float *y, int64_t n, float a, float c, const float *w,
                       const float *b);
} airc_kred_simd;

AIRC_HIDDEN extern const airc_kred_simd airc_kred_simd_sse2;
AIRC_HIDDEN extern const airc_kred_simd airc_kred_simd_avx2;
AIRC_HIDDEN extern const airc_kred_simd airc_kred_simd_avx512;
/* The best table this CPU runs. */
AIRC_HIDDEN const airc_kred_simd *airc_kred_simd_best(void);
/* Test hook: while non-NULL, airc_kred_simd_best returns it. Not for
 * concurrent use with running kernels. */
AIRC_HIDDEN void airc_kred_simd_force(const airc_kred_simd *s);

/* ---- rows shared with kernels of other families (k_norm.c) -------------- */

/* softmax (log_softmax when take_log) of a row of n doubles, in place; a
 * NaN wins the max, an all -inf row gives NaN, as torch. */
AIRC_HIDDEN void airc_kred_softmax_row_d(double *v, int64_t n, bool take_log);
/* Layer norm of a contiguous f32 row of n (y may alias x) as torch's
 * kernel: mean and variance in double, y = x * rstd - rstd * mean in
 * float, then * w + b (NULL: none); the row's mean and rstd out (rstd NaN
 * for n == 0). */
AIRC_HIDDEN void airc_kred_layer_norm_row_f32(const airc_kred_simd *simd, const float *x, float *y,
                                              int64_t n, double eps, const float *w, const float *b,
                                              double *mean, double *rstd);
/* The same for a row of doubles, in place. */
AIRC_HIDDEN void airc_kred_layer_norm_row_d(double *row, int64_t n, double eps, const double *w,
                                            const double *b, double *mean, double *rstd);

/* ---- kernels living outside k_reduce.c (its table lists them) ----------- */

AIRC_HIDDEN airc_status airc_kred_softmax(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_log_softmax(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_layer_norm(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_batch_norm(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_masked_softmax(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_batch_norm_update_stats(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_group_norm(airc_kernel_ctx *k, void *user_data);
/* k_histc.c */
AIRC_HIDDEN airc_status airc_kred_histc(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_histogram(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_histogramdd(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_histogramdd_bin_edges(airc_kernel_ctx *k, void *user_data);
/* k_mode.c, k_renorm.c, k_segment_reduce.c */
AIRC_HIDDEN airc_status airc_kred_mode(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_renorm(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_segment_reduce(airc_kernel_ctx *k, void *user_data);
/* k_weight_norm.c */
AIRC_HIDDEN airc_status airc_kred_weight_norm(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_cumsum(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_cumprod(airc_kernel_ctx *k, void *user_data);
/* k_sort.c */
AIRC_HIDDEN airc_status airc_kred_sort(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_argsort(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_topk(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_median(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_nanmedian(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_kthvalue(airc_kernel_ctx *k, void *user_data);
/* k_scan.c */
AIRC_HIDDEN airc_status airc_kred_cummax(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_cummin(airc_kernel_ctx *k, void *user_data);
AIRC_HIDDEN airc_status airc_kred_logcumsumexp(airc_kernel_ctx *k, void *user_data);

#endif
