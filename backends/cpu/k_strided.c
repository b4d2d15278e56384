/* Argument readers, dtype conversion and strided copy/fill for the linalg
 * and shape kernels. Copies walk the destination's shape with the dims of
 * all operands coalesced where their strides allow, so a dense copy is one
 * memcpy and a transposed one a tight inner loop. */
#include "backends/cpu/k_strided.h"
#include "backends/cpu/ew.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

airc_status airc_cpu_fail(const airc_kernel_ctx *k, airc_status code, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *op = k && k->op ? k->op->qualname : "kernel";
    return airc_fail(code, "%s: %s", op, msg);
}

airc_status airc_cpu_oom(const airc_kernel_ctx *k, const char *what)
{
    return airc_cpu_fail(k, AIRC_E_OUT_OF_MEMORY, "out of memory: allocating %s", what);
}

/* ---- arguments --------------------------------------------------------- */

static const airc_value *arg(const airc_kernel_ctx *k, size_t i)
{
    if (i >= k->nargs || !k->args[i] || k->args[i]->kind == AIRC_VALUE_NONE)
        return NULL;
    return k->args[i];
}

bool airc_cpu_arg_present(const airc_kernel_ctx *k, size_t i)
{
    return arg(k, i) != NULL;
}

int64_t airc_cpu_arg_int(const airc_kernel_ctx *k, size_t i, int64_t def)
{
    const airc_value *v = arg(k, i);
    if (!v)
        return def;
    switch (v->kind) {
    case AIRC_VALUE_INT: return v->u.i;
    case AIRC_VALUE_BOOL: return v->u.b != 0;
    case AIRC_VALUE_FLOAT: return (int64_t)v->u.f;
    default: return def;
    }
}

double airc_cpu_arg_double(const airc_kernel_ctx *k, size_t i, double def)
{
    const airc_value *v = arg(k, i);
    if (!v)
        return def;
    switch (v->kind) {
    case AIRC_VALUE_INT: return (double)v->u.i;
    case AIRC_VALUE_BOOL: return v->u.b != 0;
    case AIRC_VALUE_FLOAT: return v->u.f;
    default: return def;
    }
}

bool airc_cpu_arg_bool(const airc_kernel_ctx *k, size_t i, bool def)
{
    const airc_value *v = arg(k, i);
    if (!v)
        return def;
    if (v->kind == AIRC_VALUE_BOOL)
        return v->u.b != 0;
    if (v->kind == AIRC_VALUE_INT)
        return v->u.i != 0;
    return def;
}

airc_status airc_cpu_arg_ints(const airc_kernel_ctx *k, size_t i, int64_t *out, int32_t cap,
                              int32_t *n)
{
    const airc_value *v = arg(k, i);
    *n = 0;
    if (!v)
        return AIRC_OK;
    if (v->kind == AIRC_VALUE_INT) {
        out[0] = v->u.i;
        *n = 1;
        return AIRC_OK;
    }
    if (v->kind != AIRC_VALUE_LIST && v->kind != AIRC_VALUE_TUPLE)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "argument %zu must be a list of ints", i);
    if (v->len > (uint32_t)cap)
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED, "argument %zu has %u items (at most %d)", i,
                             (unsigned)v->len, (int)cap);
    for (uint32_t j = 0; j < v->len; j++) {
        const airc_value *it = v->u.items[j];
        if (it->kind != AIRC_VALUE_INT && it->kind != AIRC_VALUE_BOOL)
            return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                                 "argument %zu: item %u is not an int", i, (unsigned)j);
        out[j] = it->kind == AIRC_VALUE_INT ? it->u.i : it->u.b != 0;
    }
    *n = (int32_t)v->len;
    return AIRC_OK;
}

airc_status airc_cpu_arg_scalar(const airc_kernel_ctx *k, size_t i, airc_cpu_scalar *out,
                                bool *present)
{
    memset(out, 0, sizeof *out);
    *present = false;
    const airc_value *v = arg(k, i);
    if (!v)
        return AIRC_OK;
    switch (v->kind) {
    case AIRC_VALUE_INT: out->i = v->u.i; out->f = (double)v->u.i; break;
    case AIRC_VALUE_BOOL: out->i = v->u.b != 0; out->f = (double)out->i; break;
    case AIRC_VALUE_FLOAT: out->is_float = true; out->f = v->u.f; out->i = 0; break;
    case AIRC_VALUE_NODE: {
        const airc_tview *t = k->in ? k->in[i] : NULL;
        if (!t || airc_cpu_numel(t) != 1)
            return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                                 "argument %zu must be a number or a one-element tensor", i);
        out->is_float = airc_cpu_dtype_is_float(t->dtype);
        out->f = airc_cpu_load_f64(t->data, t->dtype);
        out->i = out->is_float ? 0 : airc_cpu_load_i64(t->data, t->dtype);
        break;
    }
    default:
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "argument %zu must be a number", i);
    }
    *present = true;
    return AIRC_OK;
}

int32_t airc_cpu_wrap_dim(int64_t dim, int32_t ndim)
{
    int32_t n = ndim ? ndim : 1;
    return (int32_t)(dim < 0 ? dim + n : dim);
}

/* ---- elements ---------------------------------------------------------- */

/* half and bfloat16 conversions are ew.c's (round to nearest even, as c10) */

bool airc_cpu_dtype_is_float(airc_dtype d)
{
    return d == AIRC_DTYPE_F32 || d == AIRC_DTYPE_F64 || d == AIRC_DTYPE_F16 ||
           d == AIRC_DTYPE_BF16;
}

double airc_cpu_load_f64(const void *p, airc_dtype d)
{
    switch (d) {
    case AIRC_DTYPE_F32: { float v; memcpy(&v, p, 4); return v; }
    case AIRC_DTYPE_F64: { double v; memcpy(&v, p, 8); return v; }
    case AIRC_DTYPE_F16: { uint16_t v; memcpy(&v, p, 2); return airc_f16_to_f32(v); }
    case AIRC_DTYPE_BF16: { uint16_t v; memcpy(&v, p, 2); return airc_bf16_to_f32(v); }
    case AIRC_DTYPE_I64:
    case AIRC_DTYPE_I32:
    case AIRC_DTYPE_I16:
    case AIRC_DTYPE_I8:
    case AIRC_DTYPE_U8:
    case AIRC_DTYPE_BOOL: return (double)airc_cpu_load_i64(p, d);
    default: return 0; /* no element type: nothing to read */
    }
}

double airc_cpu_round_f64(airc_dtype d, double v)
{
    uint64_t b = 0;
    airc_cpu_store_f64(&b, d, v);
    return airc_cpu_load_f64(&b, d);
}

int64_t airc_cpu_round_i64(airc_dtype d, int64_t v)
{
    uint64_t b = 0;
    airc_cpu_store_i64(&b, d, v);
    return airc_cpu_load_i64(&b, d);
}

int64_t airc_cpu_load_i64(const void *p, airc_dtype d)
{
    switch (d) {
    case AIRC_DTYPE_I64: { int64_t v; memcpy(&v, p, 8); return v; }
    case AIRC_DTYPE_I32: { int32_t v; memcpy(&v, p, 4); return v; }
    case AIRC_DTYPE_I16: { int16_t v; memcpy(&v, p, 2); return v; }
    case AIRC_DTYPE_I8: return *(const int8_t *)p;
    case AIRC_DTYPE_U8: return *(const uint8_t *)p;
    case AIRC_DTYPE_BOOL: return *(const uint8_t *)p != 0;
    case AIRC_DTYPE_F32:
    case AIRC_DTYPE_F64:
    case AIRC_DTYPE_F16:
    case AIRC_DTYPE_BF16: {
        double v = airc_cpu_load_f64(p, d);
        /* out-of-range casts are undefined in C; torch's give garbage too */
        return v >= -9.2e18 && v <= 9.2e18 ? (int64_t)v : INT64_MIN;
    }
    default: return 0; /* no element type: nothing to read */
    }
}

void airc_cpu_store_i64(void *p, airc_dtype d, int64_t v)
{
    switch (d) {
    case AIRC_DTYPE_I64: memcpy(p, &v, 8); break;
    case AIRC_DTYPE_I32: { int32_t x = (int32_t)(uint32_t)v; memcpy(p, &x, 4); break; }
    case AIRC_DTYPE_I16: { int16_t x = (int16_t)(uint16_t)v; memcpy(p, &x, 2); break; }
    case AIRC_DTYPE_I8: *(int8_t *)p = (int8_t)(uint8_t)v; break;
    case AIRC_DTYPE_U8: *(uint8_t *)p = (uint8_t)v; break;
    case AIRC_DTYPE_BOOL: *(uint8_t *)p = v != 0; break;
    default: airc_cpu_store_f64(p, d, (double)v); break;
    }
}

void airc_cpu_store_f64(void *p, airc_dtype d, double v)
{
    switch (d) {
    case AIRC_DTYPE_F32: { float x = (float)v; memcpy(p, &x, 4); break; }
    case AIRC_DTYPE_F64: memcpy(p, &v, 8); break;
    case AIRC_DTYPE_F16: { uint16_t x = airc_f32_to_f16((float)v); memcpy(p, &x, 2); break; }
    case AIRC_DTYPE_BF16: { uint16_t x = airc_f32_to_bf16((float)v); memcpy(p, &x, 2); break; }
    case AIRC_DTYPE_BOOL: *(uint8_t *)p = v != 0; break;
    case AIRC_DTYPE_I64:
        airc_cpu_store_i64(p, d, v >= -9.2e18 && v <= 9.2e18 ? (int64_t)v : INT64_MIN);
        break;
    default:
        /* torch's static_cast as x86 does it (airc_cpu_cast's rule): the
         * narrower types go through int32, whose out-of-range and NaN is
         * INT32_MIN */
        airc_cpu_store_i64(p, d, v > -2147483649.0 && v < 2147483648.0 ? (int64_t)v : INT32_MIN);
        break;
    }
}

void airc_cpu_store_scalar(void *p, airc_dtype d, const airc_cpu_scalar *v)
{
    if (v->is_float)
        airc_cpu_store_f64(p, d, v->f);
    else
        airc_cpu_store_i64(p, d, v->i);
}

void airc_cpu_convert(void *dst, airc_dtype dd, const void *src, airc_dtype sd)
{
    if (airc_cpu_dtype_is_float(sd))
        airc_cpu_store_f64(dst, dd, airc_cpu_load_f64(src, sd));
    else
        airc_cpu_store_i64(dst, dd, airc_cpu_load_i64(src, sd));
}

/* ---- views ------------------------------------------------------------- */

int64_t airc_cpu_numel(const airc_tview *t)
{
    int64_t n = 1;
    for (int32_t i = 0; i < t->ndim; i++)
        n *= t->shape[i];
    return n;
}

bool airc_cpu_is_contiguous(const airc_tview *t)
{
    int64_t expect = 1;
    for (int32_t i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] == 0)
            return true;
        if (t->shape[i] != 1 && t->strides[i] != expect)
            return false;
        expect *= t->shape[i];
    }
    return true;
}

void airc_cpu_set_contiguous(airc_tview *t)
{
    int64_t s = 1;
    for (int32_t i = t->ndim - 1; i >= 0; i--) {
        t->strides[i] = s;
        s *= t->shape[i] ? t->shape[i] : 1;
    }
}

char *airc_cpu_at(const airc_tview *t, const int64_t *index)
{
    int64_t off = 0;
    for (int32_t i = 0; i < t->ndim; i++)
        off += index[i] * t->strides[i];
    return (char *)t->data + off * (int64_t)airc_dtype_size(t->dtype);
}

int64_t airc_cpu_flat_offset(const airc_tview *t, int32_t from, int64_t p)
{
    int64_t off = 0;
    for (int32_t d = t->ndim - 1; d >= from; d--) {
        off += p % t->shape[d] * t->strides[d];
        p /= t->shape[d];
    }
    return off;
}

bool airc_cpu_next_index(int64_t *idx, const int64_t *shape, int32_t nd)
{
    for (int32_t d = nd - 1; d >= 0; d--) {
        if (++idx[d] < shape[d])
            return true;
        idx[d] = 0;
    }
    return false;
}

void airc_cpu_narrow(airc_tview *t, int32_t d, int64_t start, int64_t len)
{
    if (len > 0)
        t->data = (char *)t->data + start * t->strides[d] * (int64_t)airc_dtype_size(t->dtype);
    t->shape[d] = len;
}

void airc_cpu_select(airc_tview *t, int32_t d, int64_t i)
{
    t->data = (char *)t->data + i * t->strides[d] * (int64_t)airc_dtype_size(t->dtype);
    for (int32_t j = d; j + 1 < t->ndim; j++) {
        t->shape[j] = t->shape[j + 1];
        t->strides[j] = t->strides[j + 1];
    }
    t->ndim--;
}

bool airc_cpu_expand(const airc_tview *src, const int64_t *shape, int32_t ndim, airc_tview *out)
{
    if (ndim < src->ndim)
        return false;
    airc_tview r = *src;
    r.ndim = ndim;
    for (int32_t i = ndim - 1; i >= 0; i--) {
        int32_t j = i - (ndim - src->ndim);
        if (j < 0) {
            r.strides[i] = 0;
        } else if (src->shape[j] == shape[i]) {
            r.strides[i] = src->strides[j];
        } else if (src->shape[j] == 1) {
            r.strides[i] = 0;
        } else {
            return false;
        }
        r.shape[i] = shape[i];
    }
    *out = r;
    return true;
}

/* ---- iteration --------------------------------------------------------- */

/* The shape of operand 0 with up to two operands' byte strides, size-1
 * dims dropped and adjacent dims merged where every operand allows. */
typedef struct iter {
    int32_t ndim;
    int nops;
    int64_t shape[AIRC_MAX_DIMS];
    int64_t st[2][AIRC_MAX_DIMS];
    bool empty;
} iter;

static void iter_init(iter *it, int nops, const airc_tview *a, const airc_tview *b)
{
    const airc_tview *ts[2] = {a, b};
    it->nops = nops;
    it->ndim = 0;
    it->empty = false;
    /* nothing to visit: the other dims may be huge (a [0, 2^62] tensor),
     * their strides in bytes past int64 */
    for (int32_t i = 0; i < a->ndim; i++)
        it->empty |= a->shape[i] == 0;
    for (int32_t i = 0; i < a->ndim && !it->empty; i++) {
        if (a->shape[i] == 1)
            continue;
        int32_t n = it->ndim;
        it->shape[n] = a->shape[i];
        for (int o = 0; o < nops; o++)
            it->st[o][n] = ts[o]->strides[i] * (int64_t)airc_dtype_size(ts[o]->dtype);
        /* merge into the previous (outer) dim when it steps exactly over
         * this one for every operand */
        bool merge = n > 0;
        for (int o = 0; merge && o < nops; o++)
            merge = it->st[o][n - 1] == it->st[o][n] * it->shape[n];
        if (merge) {
            it->shape[n - 1] *= it->shape[n];
            for (int o = 0; o < nops; o++)
                it->st[o][n - 1] = it->st[o][n];
        } else {
            it->ndim++;
        }
    }
}

typedef void (*inner_fn)(char *p0, char *p1, int64_t s0, int64_t s1, int64_t n, const void *u);

/* Calls fn once per innermost row. */
static void iter_run(const iter *it, char *p0, char *p1, inner_fn fn, const void *u)
{
    if (it->empty)
        return;
    if (it->ndim == 0) {
        fn(p0, p1, 0, 0, 1, u);
        return;
    }
    int32_t last = it->ndim - 1;
    int64_t idx[AIRC_MAX_DIMS] = {0};
    for (;;) {
        fn(p0, p1, it->st[0][last], it->nops > 1 ? it->st[1][last] : 0, it->shape[last], u);
        int32_t d = last - 1;
        for (; d >= 0; d--) {
            p0 += it->st[0][d];
            if (it->nops > 1)
                p1 += it->st[1][d];
            if (++idx[d] < it->shape[d])
                break;
            p0 -= it->st[0][d] * it->shape[d];
            if (it->nops > 1)
                p1 -= it->st[1][d] * it->shape[d];
            idx[d] = 0;
        }
        if (d < 0)
            return;
    }
}

typedef struct copy_info {
    airc_dtype dd, sd;
    size_t esz;
} copy_info;

#define STRIDED_MOVE(T)                                                                            \
    for (int64_t i = 0; i < n; i++)                                                                \
        memcpy(d + i * ds, s + i * ss, sizeof(T))

static void copy_row(char *d, char *s, int64_t ds, int64_t ss, int64_t n, const void *u)
{
    const copy_info *c = u;
    if (c->dd != c->sd) {
        for (int64_t i = 0; i < n; i++)
            airc_cpu_convert(d + i * ds, c->dd, s + i * ss, c->sd);
        return;
    }
    if (ds == (int64_t)c->esz && ss == (int64_t)c->esz) {
        memcpy(d, s, (size_t)n * c->esz);
        return;
    }
    if (ds == 4 && ss == -4 && c->esz == 4) { /* flip's last dim: a reversed row */
        for (int64_t i = 0; i < n; i++)
            memcpy(d + 4 * i, s - 4 * i, 4);
        return;
    }
    switch (c->esz) {
    case 1: STRIDED_MOVE(uint8_t); break;
    case 2: STRIDED_MOVE(uint16_t); break;
    case 4: STRIDED_MOVE(uint32_t); break;
    default: STRIDED_MOVE(uint64_t); break;
    }
}

void airc_cpu_copy(const airc_tview *dst, const airc_tview *src)
{
    if (dst->data == src->data && dst->dtype == src->dtype && dst->ndim == src->ndim &&
        !memcmp(dst->strides, src->strides, sizeof(int64_t) * (size_t)dst->ndim))
        return; /* the same memory */
    iter it;
    iter_init(&it, 2, dst, src);
    copy_info c = {dst->dtype, src->dtype, airc_dtype_size(dst->dtype)};
    iter_run(&it, dst->data, src->data, copy_row, &c);
}

void airc_cpu_copy_reshape(const airc_tview *dst, const airc_tview *src)
{
    bool same = dst->ndim == src->ndim;
    for (int32_t i = 0; same && i < dst->ndim; i++)
        same = dst->shape[i] == src->shape[i];
    if (same) {
        airc_cpu_copy(dst, src);
        return;
    }
    if (dst->data == src->data && dst->dtype == src->dtype && airc_cpu_is_contiguous(dst) &&
        airc_cpu_is_contiguous(src))
        return; /* already in place: the result aliases its input */
    if (airc_cpu_is_contiguous(src)) {
        airc_tview s = *dst;
        s.data = src->data;
        s.dtype = src->dtype;
        airc_cpu_set_contiguous(&s);
        airc_cpu_copy(dst, &s);
        return;
    }
    if (airc_cpu_is_contiguous(dst)) {
        airc_tview d = *src;
        d.data = dst->data;
        d.dtype = dst->dtype;
        airc_cpu_set_contiguous(&d);
        airc_cpu_copy(&d, src);
        return;
    }
    /* both strided: two row-major cursors in lockstep */
    int64_t n = airc_cpu_numel(dst);
    int64_t di[AIRC_MAX_DIMS] = {0}, si[AIRC_MAX_DIMS] = {0};
    size_t des = airc_dtype_size(dst->dtype), ses = airc_dtype_size(src->dtype);
    char *dp = dst->data, *sp = src->data;
    for (int64_t e = 0; e < n; e++) {
        if (dst->dtype == src->dtype)
            memcpy(dp, sp, des);
        else
            airc_cpu_convert(dp, dst->dtype, sp, src->dtype);
        for (int32_t d = dst->ndim - 1; d >= 0; d--) {
            dp += dst->strides[d] * (int64_t)des;
            if (++di[d] < dst->shape[d])
                break;
            dp -= dst->strides[d] * dst->shape[d] * (int64_t)des;
            di[d] = 0;
        }
        for (int32_t d = src->ndim - 1; d >= 0; d--) {
            sp += src->strides[d] * (int64_t)ses;
            if (++si[d] < src->shape[d])
                break;
            sp -= src->strides[d] * src->shape[d] * (int64_t)ses;
            si[d] = 0;
        }
    }
}

typedef struct fill_info {
    unsigned char pattern[8];
    size_t esz;
} fill_info;

#define STRIDED_FILL(T)                                                                            \
    do {                                                                                           \
        T v_;                                                                                      \
        memcpy(&v_, f->pattern, sizeof v_);                                                        \
        for (int64_t i = 0; i < n; i++)                                                            \
            memcpy(d + i * ds, &v_, sizeof v_);                                                    \
    } while (0)

static void fill_row(char *d, char *unused, int64_t ds, int64_t us, int64_t n, const void *u)
{
    (void)unused;
    (void)us;
    const fill_info *f = u;
    bool zero = true;
    for (size_t i = 0; i < f->esz; i++)
        zero = zero && !f->pattern[i];
    if (zero && ds == (int64_t)f->esz) {
        memset(d, 0, (size_t)n * f->esz);
        return;
    }
    switch (f->esz) {
    case 1: STRIDED_FILL(uint8_t); break;
    case 2: STRIDED_FILL(uint16_t); break;
    case 4: STRIDED_FILL(uint32_t); break;
    default: STRIDED_FILL(uint64_t); break;
    }
}

void airc_cpu_fill(const airc_tview *dst, const airc_cpu_scalar *v)
{
    fill_info f;
    memset(&f, 0, sizeof f);
    f.esz = airc_dtype_size(dst->dtype);
    airc_cpu_store_scalar(f.pattern, dst->dtype, v);
    iter it;
    iter_init(&it, 1, dst, NULL);
    iter_run(&it, dst->data, NULL, fill_row, &f);
}

airc_status airc_cpu_contiguous_copy(const airc_kernel_ctx *k, const airc_tview *src,
                                     airc_tview *dst, void **out)
{
    size_t esz = airc_dtype_size(src->dtype);
    int64_t n = airc_cpu_numel(src);
    void *mem = airc_malloc(k->ctx, (size_t)(n ? n : 1) * esz);
    if (!mem)
        return airc_cpu_oom(k, "a contiguous copy");
    airc_tview d = *src;
    d.data = mem;
    airc_cpu_set_contiguous(&d);
    airc_cpu_copy(&d, src);
    *dst = d;
    *out = mem;
    return AIRC_OK;
}
