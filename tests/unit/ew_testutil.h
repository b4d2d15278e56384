/* Helpers of the elementwise kernel tests (test_kernels_elementwise.c,
 * test_kernels_binary.c): strided test tensors, element access in any
 * dtype, and kernel contexts built by hand (struct airc_kernel_ctx, as the
 * executor fills it: args in schema order, in[i] NULL for a number). */
#ifndef AIRC_TEST_EW_TESTUTIL_H
#define AIRC_TEST_EW_TESTUTIL_H

#include "testutil.h"

#include "backends/cpu/cpu_kernels.h"
#include "backends/cpu/ew.h"
#include "backends/cpu/iter.h"
#include "backends/cpu/k_math.h"
#include "ir/ir.h"
#include "ops/ops.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tensors ------------------------------------------------------------ */

typedef struct tt {
    airc_tview v;
    void *buf;
} tt;

/* A tensor whose memory order is perm (outermost first; NULL: row-major)
 * and whose innermost memory dim has stride `step` (2: every other slot,
 * so the tensor is not dense). */
static inline tt tmake(airc_dtype dt, int nd, const int64_t *shape, const int *perm, int64_t step)
{
    tt t;
    memset(&t, 0, sizeof t);
    t.v.dtype = dt;
    t.v.ndim = nd;
    int order[AIRC_MAX_DIMS];
    for (int i = 0; i < nd; i++) {
        t.v.shape[i] = shape[i];
        order[i] = perm ? perm[i] : i;
    }
    int64_t s = step;
    for (int j = nd - 1; j >= 0; j--) {
        t.v.strides[order[j]] = s;
        s *= shape[order[j]] ? shape[order[j]] : 1;
    }
    size_t bytes = (size_t)s * airc_dtype_size(dt) + 16;
    t.buf = calloc(1, bytes);
    assert_non_null(t.buf);
    t.v.data = t.buf;
    return t;
}

static inline tt tvec(airc_dtype dt, int64_t n)
{
    return tmake(dt, 1, &n, NULL, 1);
}

static inline void tfree(tt *t)
{
    free(t->buf);
    t->buf = NULL;
}

static inline int64_t numel(const airc_tview *v)
{
    int64_t n = 1;
    for (int i = 0; i < v->ndim; i++)
        n *= v->shape[i];
    return n;
}

/* Element offset of row-major logical index i. */
static inline int64_t offset_of(const airc_tview *v, int64_t i)
{
    int64_t off = 0;
    for (int d = v->ndim - 1; d >= 0; d--) {
        int64_t size = v->shape[d];
        off += (i % size) * v->strides[d];
        i /= size;
    }
    return off;
}

static inline double rd(const airc_tview *v, int64_t off)
{
    /* memcpy loads: a typed deref of a small buffer trips gcc -O3's
     * array-bounds analysis on the paths of the other dtypes */
    const char *p = (const char *)v->data + off * (int64_t)airc_dtype_size(v->dtype);
#define RD_LOAD(T)                                                                                 \
    do {                                                                                           \
        T x_;                                                                                      \
        memcpy(&x_, p, sizeof x_);                                                                 \
        return (double)x_;                                                                         \
    } while (0)
    switch (v->dtype) {
    case AIRC_DTYPE_F32: RD_LOAD(float);
    case AIRC_DTYPE_F64: RD_LOAD(double);
    case AIRC_DTYPE_F16: { uint16_t h; memcpy(&h, p, 2); return airc_f16_to_f32(h); }
    case AIRC_DTYPE_BF16: { uint16_t h; memcpy(&h, p, 2); return airc_bf16_to_f32(h); }
    case AIRC_DTYPE_I64: RD_LOAD(int64_t);
    case AIRC_DTYPE_I32: RD_LOAD(int32_t);
    case AIRC_DTYPE_I16: RD_LOAD(int16_t);
    case AIRC_DTYPE_I8: RD_LOAD(int8_t);
    case AIRC_DTYPE_U8: RD_LOAD(uint8_t);
    default: RD_LOAD(uint8_t);
    }
#undef RD_LOAD
}

static inline double get(const tt *t, int64_t i)
{
    return rd(&t->v, offset_of(&t->v, i));
}

static inline int64_t geti(const tt *t, int64_t i)
{
    const char *p = (const char *)t->v.data +
                    offset_of(&t->v, i) * (int64_t)airc_dtype_size(t->v.dtype);
    switch (t->v.dtype) {
    case AIRC_DTYPE_I64: return *(const int64_t *)p;
    case AIRC_DTYPE_I32: return *(const int32_t *)p;
    case AIRC_DTYPE_I16: return *(const int16_t *)p;
    case AIRC_DTYPE_I8: return *(const int8_t *)p;
    default: return *(const uint8_t *)p;
    }
}

static inline void set(tt *t, int64_t i, double x)
{
    char *p = (char *)t->v.data + offset_of(&t->v, i) * (int64_t)airc_dtype_size(t->v.dtype);
    switch (t->v.dtype) {
    case AIRC_DTYPE_F32: *(float *)p = (float)x; break;
    case AIRC_DTYPE_F64: *(double *)p = x; break;
    case AIRC_DTYPE_F16: *(uint16_t *)p = airc_f32_to_f16((float)x); break;
    case AIRC_DTYPE_BF16: *(uint16_t *)p = airc_f32_to_bf16((float)x); break;
    case AIRC_DTYPE_I64: *(int64_t *)p = (int64_t)x; break;
    case AIRC_DTYPE_I32: *(int32_t *)p = (int32_t)x; break;
    case AIRC_DTYPE_I16: *(int16_t *)p = (int16_t)x; break;
    case AIRC_DTYPE_I8: *(int8_t *)p = (int8_t)x; break;
    case AIRC_DTYPE_U8: *(uint8_t *)p = (uint8_t)x; break;
    default: *(uint8_t *)p = x != 0; break;
    }
}

static inline void seti(tt *t, int64_t i, int64_t x)
{
    char *p = (char *)t->v.data + offset_of(&t->v, i) * (int64_t)airc_dtype_size(t->v.dtype);
    switch (t->v.dtype) {
    case AIRC_DTYPE_I64: *(int64_t *)p = x; break;
    case AIRC_DTYPE_I32: *(int32_t *)p = (int32_t)x; break;
    default: set(t, i, (double)x); break;
    }
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static inline double urand(double lo, double hi)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return lo + (hi - lo) * (double)(rng_state >> 11) / 9007199254740992.0;
}

static inline void fill_rand(tt *t, double lo, double hi)
{
    bool integral = !airc_ew_is_float(t->v.dtype);
    for (int64_t i = 0; i < numel(&t->v); i++) {
        double x = urand(lo, hi);
        set(t, i, integral ? floor(x) : x);
    }
}

/* Value of operand t at the out's row-major index i, broadcasting. */
static inline double bget(const tt *t, const airc_tview *out, int64_t i)
{
    int64_t idx[AIRC_MAX_DIMS];
    for (int d = out->ndim - 1; d >= 0; d--) {
        idx[d] = i % out->shape[d];
        i /= out->shape[d];
    }
    int64_t off = 0;
    int lead = out->ndim - t->v.ndim;
    for (int d = 0; d < t->v.ndim; d++)
        if (t->v.shape[d] != 1)
            off += idx[d + lead] * t->v.strides[d];
    return rd(&t->v, off);
}

/* ---- kernel calls ------------------------------------------------------- */

typedef struct call {
    airc_kernel_ctx k;
    const airc_value *args[8];
    const airc_tview *in[8];
    airc_value vals[8];
    uint32_t list_len[8];
} call;

static inline void cinit(call *c, uint32_t nargs)
{
    memset(c, 0, sizeof *c);
    c->k.nargs = nargs;
    c->k.args = c->args;
    c->k.in = c->in;
    c->k.in_list_len = c->list_len;
    c->k.num_threads = 1;
}

static inline void arg_t(call *c, int i, const tt *t)
{
    c->vals[i].kind = AIRC_VALUE_NODE;
    c->args[i] = &c->vals[i];
    c->in[i] = &t->v;
}

static inline void arg_i(call *c, int i, int64_t v)
{
    c->vals[i].kind = AIRC_VALUE_INT;
    c->vals[i].u.i = v;
    c->args[i] = &c->vals[i];
}

static inline void arg_f(call *c, int i, double v)
{
    c->vals[i].kind = AIRC_VALUE_FLOAT;
    c->vals[i].u.f = v;
    c->args[i] = &c->vals[i];
}

static inline void arg_b(call *c, int i, int v)
{
    c->vals[i].kind = AIRC_VALUE_BOOL;
    c->vals[i].u.b = v;
    c->args[i] = &c->vals[i];
}

static inline void arg_s(call *c, int i, const char *s)
{
    c->vals[i].kind = AIRC_VALUE_STRING;
    c->vals[i].u.s = s;
    c->vals[i].len = (uint32_t)strlen(s);
    c->args[i] = &c->vals[i];
}

static inline airc_status crun(call *c, const char *qualname, tt *out)
{
    airc_kernel_fn fn = airc_cpu_find_kernel(qualname);
    if (!fn)
        fail_msg("no kernel for %s", qualname);
    c->k.out = &out->v;
    c->k.nout = 1;
    return fn(&c->k, NULL);
}

/* Unary op on x into out, with an optional string argument 1. */
static inline airc_status run_unary(const char *q, tt *x, tt *out, const char *s1)
{
    call c;
    cinit(&c, s1 ? 2 : 1);
    arg_t(&c, 0, x);
    if (s1)
        arg_s(&c, 1, s1);
    return crun(&c, q, out);
}

/* y (an f32 result) against the double reference: 1e-6 relative + 1e-7
 * absolute; a reference beyond float's range must give the same inf. */
static inline bool close_f32(double y, double ref, double rtol, double atol)
{
    if (isnan(ref))
        return isnan(y);
    if (isnan(y))
        return false;
    if (fabs(ref) > FLT_MAX) {
        if (isinf(y))
            return (y > 0) == (ref > 0);
        return fabs(y - ref) <= rtol * fabs(ref);
    }
    return fabs(y - ref) <= rtol * fabs(ref) + atol;
}


#endif
