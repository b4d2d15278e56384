/* Reduce family helpers: bound-argument readers, typed strided row copies
 * and the run-time choice of SIMD loops. */
#include "backends/cpu/k_reduce_internal.h"
#include "backends/cpu/k_strided.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

/* ---- arguments ---------------------------------------------------------- */

static int arg_index(const airc_kernel_ctx *k, const char *name)
{
    const airc_schema *s = k->op ? k->op->schema : NULL;
    if (!s)
        return -1;
    for (uint32_t i = 0; i < s->nargs && i < k->nargs; i++)
        if (!strcmp(s->args[i].name, name))
            return (int)i;
    return -1;
}

const airc_value *airc_kred_arg(const airc_kernel_ctx *k, const char *name)
{
    int i = arg_index(k, name);
    if (i < 0 || !k->args[i] || k->args[i]->kind == AIRC_VALUE_NONE)
        return NULL;
    return k->args[i];
}

const airc_tview *airc_kred_input(const airc_kernel_ctx *k, const char *name)
{
    int i = arg_index(k, name);
    return i < 0 ? NULL : k->in[i];
}

/* Typed readers by name: the family-wide readers of k_strided.c behind a
 * schema-name lookup (-1, an unknown name, reads as absent). */
bool airc_kred_bool(const airc_kernel_ctx *k, const char *name, bool def)
{
    int i = arg_index(k, name);
    return i < 0 ? def : airc_cpu_arg_bool(k, (size_t)i, def);
}

int64_t airc_kred_int(const airc_kernel_ctx *k, const char *name, int64_t def)
{
    int i = arg_index(k, name);
    return i < 0 ? def : airc_cpu_arg_int(k, (size_t)i, def);
}

double airc_kred_double(const airc_kernel_ctx *k, const char *name, double def)
{
    int i = arg_index(k, name);
    return i < 0 ? def : airc_cpu_arg_double(k, (size_t)i, def);
}

int32_t airc_kred_int_list(const airc_kernel_ctx *k, const char *name, int64_t *out, int32_t cap)
{
    const airc_value *v = airc_kred_arg(k, name);
    if (!v)
        return -1;
    if (v->kind == AIRC_VALUE_INT) {
        if (cap > 0)
            out[0] = v->u.i;
        return 1;
    }
    if (v->kind != AIRC_VALUE_LIST && v->kind != AIRC_VALUE_TUPLE)
        return -1;
    for (uint32_t i = 0; i < v->len && (int32_t)i < cap; i++) {
        const airc_value *it = v->u.items[i];
        out[i] = it && it->kind == AIRC_VALUE_INT ? it->u.i : 0;
    }
    return (int32_t)v->len;
}

airc_status airc_kred_fail(const airc_kernel_ctx *k, airc_status code, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *node = k->node && k->node->name ? k->node->name : "?";
    const char *op = k->op && k->op->qualname ? k->op->qualname : "?";
    return airc_fail(code, "node '%s' (%s): %s", node, op, msg);
}

airc_status airc_kred_wrap_dim(const airc_kernel_ctx *k, int64_t dim, int32_t ndim, int32_t *out)
{
    int64_t n = ndim > 0 ? ndim : 1;
    if (dim < -n || dim >= n)
        return airc_kred_fail(k, AIRC_E_RUNTIME,
                              "Dimension out of range (expected to be in range of [%" PRId64
                              ", %" PRId64 "], but got %" PRId64 ")",
                              -n, n - 1, dim);
    *out = (int32_t)(dim < 0 ? dim + n : dim);
    return AIRC_OK;
}

bool airc_kred_is_float(airc_dtype d)
{
    return d == AIRC_DTYPE_F32 || d == AIRC_DTYPE_F64 || d == AIRC_DTYPE_F16 ||
           d == AIRC_DTYPE_BF16;
}

int64_t airc_kred_numel(const airc_tview *t)
{
    int64_t n = 1;
    for (int32_t d = 0; d < t->ndim; d++)
        n *= t->shape[d];
    return n;
}

/* ---- typed strided rows -------------------------------------------------- */

#define ROW_LOOP(T, EXPR)                                                                          \
    do {                                                                                           \
        const T *p_ = (const T *)base + off;                                                       \
        for (int64_t j = 0; j < n; j++) {                                                          \
            T v_ = p_[j * stride];                                                                 \
            dst[j] = (EXPR);                                                                       \
        }                                                                                          \
    } while (0)

void airc_kred_load_row_d(const void *base, int64_t off, int64_t stride, int64_t n,
                          airc_dtype dt, double *dst)
{
    switch (dt) {
    case AIRC_DTYPE_F32: ROW_LOOP(float, (double)v_); return;
    case AIRC_DTYPE_F64: ROW_LOOP(double, v_); return;
    case AIRC_DTYPE_I64: ROW_LOOP(int64_t, (double)v_); return;
    case AIRC_DTYPE_I32: ROW_LOOP(int32_t, (double)v_); return;
    case AIRC_DTYPE_U8: ROW_LOOP(uint8_t, (double)v_); return;
    case AIRC_DTYPE_BOOL: ROW_LOOP(uint8_t, (double)(v_ != 0)); return;
    default:
        for (int64_t j = 0; j < n; j++)
            dst[j] = airc_kred_load_d(base, off + j * stride, dt);
        return;
    }
}

void airc_kred_load_row_i(const void *base, int64_t off, int64_t stride, int64_t n,
                          airc_dtype dt, int64_t *dst)
{
    switch (dt) {
    case AIRC_DTYPE_I64: ROW_LOOP(int64_t, v_); return;
    case AIRC_DTYPE_I32: ROW_LOOP(int32_t, (int64_t)v_); return;
    case AIRC_DTYPE_U8: ROW_LOOP(uint8_t, (int64_t)v_); return;
    case AIRC_DTYPE_BOOL: ROW_LOOP(uint8_t, (int64_t)(v_ != 0)); return;
    default:
        for (int64_t j = 0; j < n; j++)
            dst[j] = airc_kred_load_i(base, off + j * stride, dt);
        return;
    }
}

void airc_kred_store_row_d(void *base, int64_t off, int64_t stride, int64_t n, airc_dtype dt,
                           const double *src)
{
    if (dt == AIRC_DTYPE_F32) {
        float *p = (float *)base + off;
        for (int64_t j = 0; j < n; j++)
            p[j * stride] = (float)src[j];
        return;
    }
    for (int64_t j = 0; j < n; j++)
        airc_kred_store_d(base, off + j * stride, dt, src[j]);
}

/* ---- SIMD dispatch -------------------------------------------------------- */

static _Atomic(const airc_kred_simd *) forced;

void airc_kred_simd_force(const airc_kred_simd *s)
{
    atomic_store(&forced, s);
}

const airc_kred_simd *airc_kred_simd_best(void)
{
    const airc_kred_simd *f = atomic_load(&forced);
    if (f)
        return f;
#if defined(__x86_64__) || defined(__i386__)
    /* __builtin_cpu_supports reads what libgcc's constructor found once */
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
        return &airc_kred_simd_avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return &airc_kred_simd_avx2;
#endif
    return &airc_kred_simd_sse2;
}
