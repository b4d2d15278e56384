/* Elementwise engine: conversions, operands, the block driver (ew.h). */
#include "backends/cpu/ew.h"
#include "backends/cpu/k_strided.h"
#include "backends/cpu/parallel.h"

#include "core/core.h"
#include "ir/ir.h"
#include "ops/meta_util.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

/* ---- f16 / bf16 (the FP16 library's bit tricks, as c10 uses) ---------- */

static inline uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint16_t airc_f32_to_f16(float f)
{
    const float scale_to_inf = 0x1.0p+112f;
    const float scale_to_zero = 0x1.0p-110f;
    float base = (fabsf(f) * scale_to_inf) * scale_to_zero;
    const uint32_t w = f32_bits(f);
    const uint32_t shl1_w = w + w;
    const uint32_t sign = w & UINT32_C(0x80000000);
    uint32_t bias = shl1_w & UINT32_C(0xFF000000);
    if (bias < UINT32_C(0x71000000))
        bias = UINT32_C(0x71000000);
    /* adding 2^(exponent) rounds the mantissa to 10 bits, nearest-even */
    base = f32_from_bits((bias >> 1) + UINT32_C(0x07800000)) + base;
    const uint32_t bits = f32_bits(base);
    const uint32_t exp_bits = (bits >> 13) & UINT32_C(0x00007C00);
    const uint32_t mantissa_bits = bits & UINT32_C(0x00000FFF);
    const uint32_t nonsign = exp_bits + mantissa_bits;
    return (uint16_t)((sign >> 16) | (shl1_w > UINT32_C(0xFF000000) ? UINT16_C(0x7E00) : nonsign));
}

float airc_f16_to_f32(uint16_t h)
{
    const uint32_t w = (uint32_t)h << 16;
    const uint32_t sign = w & UINT32_C(0x80000000);
    const uint32_t two_w = w + w;
    const uint32_t exp_offset = UINT32_C(0xE0) << 23;
    const float normalized = f32_from_bits((two_w >> 4) + exp_offset) * 0x1.0p-112f;
    const uint32_t magic_mask = UINT32_C(126) << 23;
    const float denormalized = f32_from_bits((two_w >> 17) | magic_mask) - 0.5f;
    const uint32_t cutoff = UINT32_C(1) << 27;
    return f32_from_bits(sign |
                         (two_w < cutoff ? f32_bits(denormalized) : f32_bits(normalized)));
}

uint16_t airc_f32_to_bf16(float f)
{
    if (f != f)
        return UINT16_C(0x7FC0);
    uint32_t u = f32_bits(f);
    uint32_t rounding_bias = ((u >> 16) & 1) + UINT32_C(0x7FFF);
    return (uint16_t)((u + rounding_bias) >> 16);
}

float airc_bf16_to_f32(uint16_t h)
{
    return f32_from_bits((uint32_t)h << 16);
}

/* ---- scalar conversions ------------------------------------------------ */

/* cvttsd2si semantics: NaN and out-of-range give the "integer indefinite" */
static inline int64_t f2i64(double x)
{
    if (x >= -9223372036854775808.0 && x < 9223372036854775808.0)
        return (int64_t)x;
    return INT64_MIN;
}

static inline int32_t f2i32(double x)
{
    if (x > -2147483649.0 && x < 2147483648.0)
        return (int32_t)x;
    return INT32_MIN;
}

/* ---- block conversions through double or int64 ------------------------- */

#define CAST_BLOCK 256

/* Loads n elements of a floating dtype as doubles. */
static void load_f(airc_dtype st, const void *src, int64_t ss, int64_t n, double *b)
{
    switch (st) {
    case AIRC_DTYPE_F32: {
        const float *s = src;
        for (int64_t i = 0; i < n; i++)
            b[i] = s[i * ss];
        break;
    }
    case AIRC_DTYPE_F64: {
        const double *s = src;
        for (int64_t i = 0; i < n; i++)
            b[i] = s[i * ss];
        break;
    }
    case AIRC_DTYPE_F16: {
        const uint16_t *s = src;
        for (int64_t i = 0; i < n; i++)
            b[i] = airc_f16_to_f32(s[i * ss]);
        break;
    }
    default: {
        const uint16_t *s = src;
        for (int64_t i = 0; i < n; i++)
            b[i] = airc_bf16_to_f32(s[i * ss]);
        break;
    }
    }
}

/* Loads n elements of an integer or bool dtype as int64s. */
static void load_i(airc_dtype st, const void *src, int64_t ss, int64_t n, int64_t *b)
{
#define LOAD_I(T, EXPR)                                                                            \
    {                                                                                              \
        const T *s = src;                                                                          \
        for (int64_t i = 0; i < n; i++)                                                            \
            b[i] = EXPR;                                                                           \
        break;                                                                                     \
    }
    switch (st) {
    case AIRC_DTYPE_I64:
        LOAD_I(int64_t, s[i * ss])
    case AIRC_DTYPE_I32:
        LOAD_I(int32_t, s[i * ss])
    case AIRC_DTYPE_I16:
        LOAD_I(int16_t, s[i * ss])
    case AIRC_DTYPE_I8:
        LOAD_I(int8_t, s[i * ss])
    case AIRC_DTYPE_U8:
        LOAD_I(uint8_t, s[i * ss])
    default:
        LOAD_I(uint8_t, s[i * ss] != 0)
    }
#undef LOAD_I
}

#define STORE(T, EXPR)                                                                             \
    {                                                                                              \
        T *d = dst;                                                                                \
        for (int64_t i = 0; i < n; i++)                                                            \
            d[i * ds] = EXPR;                                                                      \
        break;                                                                                     \
    }

static void store_f(airc_dtype dt, void *dst, int64_t ds, const double *b, int64_t n)
{
    switch (dt) {
    case AIRC_DTYPE_F32:
        STORE(float, (float)b[i])
    case AIRC_DTYPE_F64:
        STORE(double, b[i])
    case AIRC_DTYPE_F16:
        STORE(uint16_t, airc_f32_to_f16((float)b[i]))
    case AIRC_DTYPE_BF16:
        STORE(uint16_t, airc_f32_to_bf16((float)b[i]))
    case AIRC_DTYPE_I64:
        STORE(int64_t, f2i64(b[i]))
    case AIRC_DTYPE_I32:
        STORE(int32_t, f2i32(b[i]))
    case AIRC_DTYPE_I16:
        STORE(int16_t, (int16_t)f2i32(b[i]))
    case AIRC_DTYPE_I8:
        STORE(int8_t, (int8_t)f2i32(b[i]))
    case AIRC_DTYPE_U8:
        STORE(uint8_t, (uint8_t)f2i32(b[i]))
    default:
        STORE(uint8_t, b[i] != 0)
    }
}

static void store_i(airc_dtype dt, void *dst, int64_t ds, const int64_t *b, int64_t n)
{
    switch (dt) {
    case AIRC_DTYPE_F32:
        STORE(float, (float)b[i])
    case AIRC_DTYPE_F64:
        STORE(double, (double)b[i])
    case AIRC_DTYPE_F16:
        STORE(uint16_t, airc_f32_to_f16((float)b[i]))
    case AIRC_DTYPE_BF16:
        STORE(uint16_t, airc_f32_to_bf16((float)b[i]))
    case AIRC_DTYPE_I64:
        STORE(int64_t, b[i])
    case AIRC_DTYPE_I32:
        STORE(int32_t, (int32_t)b[i])
    case AIRC_DTYPE_I16:
        STORE(int16_t, (int16_t)b[i])
    case AIRC_DTYPE_I8:
        STORE(int8_t, (int8_t)b[i])
    case AIRC_DTYPE_U8:
        STORE(uint8_t, (uint8_t)b[i])
    default:
        STORE(uint8_t, b[i] != 0)
    }
}
#undef STORE

static void copy_same(size_t es, void *dst, int64_t ds, const void *src, int64_t ss, int64_t n)
{
    if (ds == 1 && ss == 1) {
        memmove(dst, src, (size_t)n * es);
        return;
    }
#define COPY(T)                                                                                    \
    {                                                                                              \
        T *d = dst;                                                                                \
        const T *s = src;                                                                          \
        for (int64_t i = 0; i < n; i++)                                                            \
            d[i * ds] = s[i * ss];                                                                 \
        return;                                                                                    \
    }
    switch (es) {
    case 1:
        COPY(uint8_t)
    case 2:
        COPY(uint16_t)
    case 4:
        COPY(uint32_t)
    default:
        COPY(uint64_t)
    }
#undef COPY
}

void airc_cpu_cast(airc_dtype dt, void *dst, int64_t ds, airc_dtype st, const void *src,
                   int64_t ss, int64_t n)
{
    if (dt == st) {
        copy_same(airc_dtype_size(dt), dst, ds, src, ss, n);
        return;
    }
    /* the hot pairs, direct */
    if (dt == AIRC_DTYPE_F32 && st == AIRC_DTYPE_F64) {
        float *d = dst;
        const double *s = src;
        for (int64_t i = 0; i < n; i++)
            d[i * ds] = (float)s[i * ss];
        return;
    }
    if (dt == AIRC_DTYPE_F64 && st == AIRC_DTYPE_F32) {
        double *d = dst;
        const float *s = src;
        for (int64_t i = 0; i < n; i++)
            d[i * ds] = s[i * ss];
        return;
    }
    size_t des = airc_dtype_size(dt), ses = airc_dtype_size(st);
    bool from_float = airc_ew_is_float(st);
    union {
        double f[CAST_BLOCK];
        int64_t i[CAST_BLOCK];
    } b;
    for (int64_t off = 0; off < n; off += CAST_BLOCK) {
        int64_t m = n - off < CAST_BLOCK ? n - off : CAST_BLOCK;
        const char *s = (const char *)src + off * ss * (int64_t)ses;
        char *d = (char *)dst + off * ds * (int64_t)des;
        if (from_float) {
            load_f(st, s, ss, m, b.f);
            store_f(dt, d, ds, b.f, m);
        } else {
            load_i(st, s, ss, m, b.i);
            store_i(dt, d, ds, b.i, m);
        }
    }
}

bool airc_cpu_store_number(airc_dtype dt, void *dst, const airc_value *v)
{
    if (!v)
        return false;
    if (v->kind == AIRC_VALUE_FLOAT) {
        store_f(dt, dst, 1, &v->u.f, 1);
        return true;
    }
    int64_t i;
    if (v->kind == AIRC_VALUE_INT)
        i = v->u.i;
    else if (v->kind == AIRC_VALUE_BOOL)
        i = v->u.b != 0;
    else
        return false;
    store_i(dt, dst, 1, &i, 1);
    return true;
}

typedef struct copy_state {
    airc_dtype dt, st;
} copy_state;

static void copy_loop(void *user, int64_t n, char *const *p, const int64_t *s)
{
    const copy_state *c = user;
    airc_cpu_cast(c->dt, p[0], s[0], c->st, p[1], s[1], n);
}

airc_status airc_cpu_copy_cast(const airc_tview *out, const airc_tview *in)
{
    airc_iter it;
    AIRC_TRY(airc_iter_init(&it, out, &in, 1));
    copy_state c = {out->dtype, in->dtype};
    airc_iter_run(&it, copy_loop, &c);
    return AIRC_OK;
}

/* ---- the engine -------------------------------------------------------- */

bool airc_ew_is_float(airc_dtype d)
{
    return d == AIRC_DTYPE_F32 || d == AIRC_DTYPE_F64 || d == AIRC_DTYPE_F16 ||
           d == AIRC_DTYPE_BF16;
}

airc_dtype airc_ew_compute_type(airc_dtype d)
{
    if (d == AIRC_DTYPE_F64)
        return AIRC_DTYPE_F64;
    if (airc_ew_is_float(d))
        return AIRC_DTYPE_F32;
    return AIRC_DTYPE_I64;
}

#define EW_BLOCK 512

typedef struct ew_state {
    airc_ew *op;
    const airc_iter *it;
    size_t es[AIRC_ITER_MAX_OPERANDS];   /* element sizes: operand dtypes */
    bool same[AIRC_ITER_MAX_OPERANDS];   /* operand dtype == its compute type */
    /* the dtype an operand converts to first (common_via), or UNDEFINED */
    airc_dtype via[AIRC_ITER_MAX_OPERANDS];
} ew_state;

static bool narrow_int(airc_dtype dt);

/* The dtype an input converts to before its compute type: torch casts
 * every operand to the common dtype first, so an f32 0-d tensor next to a
 * bf16 tensor is rounded to bf16, an i64 one next to i8 wraps to i8 (and
 * then reads as 0 in a logical op). UNDEFINED when that changes nothing
 * (common no narrower than the compute type, or the input already of the
 * common dtype, or an input the common dtype does not apply to). */
static airc_dtype common_via(const airc_ew *op, int32_t i, airc_dtype dtype)
{
    airc_dtype c = op->common;
    if (!(narrow_int(c) || c == AIRC_DTYPE_BOOL || c == AIRC_DTYPE_F16 || c == AIRC_DTYPE_BF16) ||
        dtype == c || op->no_common[i])
        return AIRC_DTYPE_UNDEFINED;
    return c;
}

/* m elements of input i at q (stride si) into dst as its compute type;
 * scratch holds m elements of the via dtype. */
static void load_input(const ew_state *st, int32_t i, void *dst, const char *q, int64_t si,
                       int64_t m, void *scratch)
{
    airc_dtype from = st->it->dtype[i + 1], via = st->via[i + 1];
    if (via) {
        airc_cpu_cast(via, scratch, 1, from, q, si, m);
        from = via;
        q = scratch;
        si = 1;
    }
    airc_cpu_cast(st->op->in_type[i], dst, 1, from, q, si, m);
}

static void ew_loop(void *user, int64_t n, char *const *p, const int64_t *s)
{
    ew_state *st = user;
    airc_ew *op = st->op;
    const airc_iter *it = st->it;
    if (op->status != AIRC_OK)
        return;
    const void *src[AIRC_EW_MAX_IN];
    int inc[AIRC_EW_MAX_IN];

    bool direct = st->same[0] && s[0] == 1;
    for (int32_t i = 0; direct && i < op->nin; i++)
        direct = st->same[i + 1] && (s[i + 1] == 1 || (s[i + 1] == 0 && !op->contiguous));
    if (direct) {
        for (int32_t i = 0; i < op->nin; i++) {
            src[i] = p[i + 1];
            inc[i] = s[i + 1] != 0;
        }
        op->fn(op, n, p[0], src, inc);
        return;
    }

    /* 16 KiB of block buffers: fine on any worker stack */
    int64_t buf[AIRC_EW_MAX_IN + 1][EW_BLOCK];
    for (int64_t off = 0; off < n && op->status == AIRC_OK; off += EW_BLOCK) {
        int64_t m = n - off < EW_BLOCK ? n - off : EW_BLOCK;
        for (int32_t i = 0; i < op->nin; i++) {
            int64_t si = s[i + 1];
            char *q = p[i + 1] + off * si * (int64_t)st->es[i + 1];
            if (si == 0 && !op->contiguous) {
                inc[i] = 0;
                if (st->same[i + 1]) {
                    src[i] = q;
                } else {
                    load_input(st, i, buf[i], q, 0, 1, buf[AIRC_EW_MAX_IN]);
                    src[i] = buf[i];
                }
            } else if (si == 1 && st->same[i + 1]) {
                inc[i] = 1;
                src[i] = q;
            } else {
                inc[i] = 1;
                /* the output block is free until op->fn writes it */
                load_input(st, i, buf[i], q, si, m, buf[AIRC_EW_MAX_IN]);
                src[i] = buf[i];
            }
        }
        char *o = p[0] + off * s[0] * (int64_t)st->es[0];
        if (st->same[0] && s[0] == 1) {
            op->fn(op, m, o, src, inc);
        } else {
            op->fn(op, m, buf[AIRC_EW_MAX_IN], src, inc);
            airc_cpu_cast(it->dtype[0], o, s[0], op->out_type, buf[AIRC_EW_MAX_IN], 1, m);
        }
    }
}

/* Flat operands already in the compute types: one call of op->fn over
 * the whole tensor, without the iterator (most calls of a small graph). */
/* One flat run, split between threads: each chunk runs a copy of the op,
 * and the first chunk that stops the run reports for all of them. */
typedef struct direct_run {
    const airc_ew *op;
    char *out;
    const char *in[AIRC_EW_MAX_IN];
    int inc[AIRC_EW_MAX_IN];
    size_t out_size, in_size[AIRC_EW_MAX_IN]; /* bytes per element; 0: repeated */
    _Atomic airc_status status;
    const char *message; /* written by the chunk that set status */
} direct_run;

static void direct_chunk(void *arg, int64_t b, int64_t e)
{
    direct_run *r = arg;
    airc_ew op = *r->op;
    const void *src[AIRC_EW_MAX_IN];
    for (int32_t i = 0; i < op.nin; i++)
        src[i] = r->in[i] + (size_t)b * r->in_size[i];
    op.status = AIRC_OK;
    op.fn(&op, e - b, r->out + (size_t)b * r->out_size, src, r->inc);
    airc_status none = AIRC_OK;
    if (op.status != AIRC_OK && atomic_compare_exchange_strong(&r->status, &none, op.status))
        r->message = op.message;
}

static bool run_direct(airc_ew *op, const airc_tview *out, const airc_tview *const *in)
{
    if (out->dtype != op->out_type || !out->data || !airc_iter_flat(out, in, op->nin))
        return false;
    const void *src[AIRC_EW_MAX_IN];
    int inc[AIRC_EW_MAX_IN];
    for (int32_t i = 0; i < op->nin; i++) {
        inc[i] = in[i]->ndim > 0 || out->ndim == 0;
        if (in[i]->dtype != op->in_type[i] || !in[i]->data || (!inc[i] && op->contiguous))
            return false;
        src[i] = in[i]->data;
    }
    int64_t n = 1;
    for (int32_t d = 0; d < out->ndim; d++)
        n *= out->shape[d];
    op->status = AIRC_OK;
    direct_run run = {op, out->data, {0}, {0}, airc_dtype_size(op->out_type), {0}, AIRC_OK, NULL};
    for (int32_t i = 0; i < op->nin; i++) {
        run.in[i] = src[i];
        run.inc[i] = inc[i];
        run.in_size[i] = inc[i] ? airc_dtype_size(op->in_type[i]) : 0;
    }
    airc_cpu_parallel_for(op->threads, n, AIRC_CPU_GRAIN_EW, direct_chunk, &run);
    op->status = atomic_load(&run.status);
    op->message = run.message;
    return true;
}

airc_status airc_ew_run(airc_ew *op, const airc_tview *out, const airc_tview *const *in)
{
    bool via = false;
    for (int32_t i = 0; i < op->nin && i < AIRC_EW_MAX_IN; i++)
        via = via || common_via(op, i, in[i]->dtype);
    bool direct =
        !via && op->nin >= 0 && op->nin < AIRC_ITER_MAX_OPERANDS && run_direct(op, out, in);
    if (!direct) {
        airc_iter it;
        AIRC_TRY(airc_iter_init(&it, out, in, op->nin));
        ew_state st = {.op = op, .it = &it};
        st.es[0] = it.elsize[0];
        st.same[0] = it.dtype[0] == op->out_type;
        for (int32_t i = 0; i < op->nin; i++) {
            st.es[i + 1] = it.elsize[i + 1];
            st.via[i + 1] = common_via(op, i, it.dtype[i + 1]);
            st.same[i + 1] = it.dtype[i + 1] == op->in_type[i] && !st.via[i + 1];
        }
        op->status = AIRC_OK;
        airc_iter_run(&it, ew_loop, &st);
    }
    if (op->status != AIRC_OK)
        return airc_fail(op->status, "%s", op->message ? op->message : "elementwise kernel failed");
    return AIRC_OK;
}

/* ---- kernel arguments -------------------------------------------------- */

const char *airc_ew_name(const airc_kernel_ctx *k)
{
    return k->op && k->op->qualname ? k->op->qualname : "kernel";
}

static const airc_value *arg(const airc_kernel_ctx *k, uint32_t i)
{
    return i < k->nargs && k->args ? k->args[i] : NULL;
}

static const airc_tview *input(const airc_kernel_ctx *k, uint32_t i)
{
    return i < k->nargs && k->in ? k->in[i] : NULL;
}

static bool is_number(const airc_value *v)
{
    return v && (v->kind == AIRC_VALUE_INT || v->kind == AIRC_VALUE_FLOAT ||
                 v->kind == AIRC_VALUE_BOOL);
}

static bool narrow_int(airc_dtype dt)
{
    return dt == AIRC_DTYPE_I32 || dt == AIRC_DTYPE_I16 || dt == AIRC_DTYPE_I8 ||
           dt == AIRC_DTYPE_U8;
}

int64_t airc_ew_wrap_int(airc_dtype dt, int64_t v)
{
    if (!narrow_int(dt))
        return v;
    unsigned char bytes[8];
    int64_t back;
    airc_cpu_cast(dt, bytes, 1, AIRC_DTYPE_I64, &v, 1, 1);
    airc_cpu_cast(AIRC_DTYPE_I64, &back, 1, dt, bytes, 1, 1);
    return back;
}

airc_status airc_ew_operand(const airc_kernel_ctx *k, uint32_t i, airc_dtype dt,
                            airc_dtype common, airc_ew_scalar *storage, airc_tview *tmp,
                            const airc_tview **out, bool *present)
{
    const airc_tview *t = input(k, i);
    if (t) {
        *out = t;
        *present = true;
        return AIRC_OK;
    }
    const airc_value *v = arg(k, i);
    if (!v || v->kind == AIRC_VALUE_NONE) {
        *present = false;
        return AIRC_OK;
    }
    if (!is_number(v))
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: argument %u is neither a tensor nor a number",
                         airc_ew_name(k), (unsigned)i);
    /* torch converts a wrapped number to the common dtype (70000 is inf
     * next to f16, -2 is 254 next to u8, 0.5 is true next to bool); the
     * engine then converts the operand from its dtype to the compute type */
    if (narrow_int(common) || common == AIRC_DTYPE_BOOL || common == AIRC_DTYPE_F16 ||
        common == AIRC_DTYPE_BF16)
        dt = common;
    memset(storage, 0, sizeof *storage);
    airc_cpu_store_number(dt, storage->bytes, v);
    memset(tmp, 0, sizeof *tmp);
    tmp->data = storage->bytes;
    tmp->dtype = dt;
    tmp->ndim = 0;
    *out = tmp;
    *present = true;
    return AIRC_OK;
}

airc_dtype airc_ew_result_type(const airc_kernel_ctx *k, const uint32_t *args, int32_t n)
{
    airc_operand ops[AIRC_EW_MAX_IN + 1];
    size_t m = 0;
    for (int32_t j = 0; j < n && m < AIRC_EW_MAX_IN + 1; j++) {
        const airc_tview *t = input(k, args[j]);
        const airc_value *v = arg(k, args[j]);
        /* airc_result_type reads present, wrapped, t.dtype and t.ndim */
        ops[m].wrapped = false;
        ops[m].t.ndim = 0;
        if (t) {
            ops[m].t.dtype = t->dtype;
            ops[m].t.ndim = t->ndim;
        } else if (is_number(v)) {
            ops[m].wrapped = true;
            ops[m].t.dtype = v->kind == AIRC_VALUE_FLOAT ? AIRC_DTYPE_F64
                             : v->kind == AIRC_VALUE_INT ? AIRC_DTYPE_I64
                                                         : AIRC_DTYPE_BOOL;
        } else {
            continue;
        }
        ops[m].present = true;
        m++;
    }
    return airc_result_type(ops, m);
}

airc_status airc_ew_arg_double(const airc_kernel_ctx *k, uint32_t i, double def, double *out)
{
    const airc_value *v = arg(k, i);
    if (!v || v->kind == AIRC_VALUE_NONE) {
        *out = def;
        return AIRC_OK;
    }
    if (v->kind == AIRC_VALUE_FLOAT)
        *out = v->u.f;
    else if (v->kind == AIRC_VALUE_INT)
        *out = (double)v->u.i;
    else if (v->kind == AIRC_VALUE_BOOL)
        *out = v->u.b != 0;
    else
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: argument %u is not a number", airc_ew_name(k),
                         (unsigned)i);
    return AIRC_OK;
}

airc_status airc_ew_arg_int(const airc_kernel_ctx *k, uint32_t i, int64_t def, int64_t *out)
{
    const airc_value *v = arg(k, i);
    if (!v || v->kind == AIRC_VALUE_NONE) {
        *out = def;
        return AIRC_OK;
    }
    if (v->kind == AIRC_VALUE_FLOAT)
        *out = f2i64(v->u.f);
    else if (v->kind == AIRC_VALUE_INT)
        *out = v->u.i;
    else if (v->kind == AIRC_VALUE_BOOL)
        *out = v->u.b != 0;
    else
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: argument %u is not a number", airc_ew_name(k),
                         (unsigned)i);
    return AIRC_OK;
}

airc_status airc_ew_check_item(const airc_kernel_ctx *k, const airc_tview *value, airc_dtype dtype)
{
    if (!value->data || value->dtype == AIRC_DTYPE_BOOL)
        return AIRC_OK;
    bool is_float = airc_ew_is_float(value->dtype);
    const char *type = airc_meta_number_overflows(
        is_float, is_float ? airc_cpu_load_f64(value->data, value->dtype) : 0,
        is_float ? 0 : airc_cpu_load_i64(value->data, value->dtype), dtype);
    if (type)
        return airc_fail(AIRC_E_RUNTIME,
                         "%s: value cannot be converted to type %s without overflow",
                         airc_ew_name(k), type);
    return AIRC_OK;
}

const char *airc_ew_arg_string(const airc_kernel_ctx *k, uint32_t i)
{
    const airc_value *v = arg(k, i);
    return v && v->kind == AIRC_VALUE_STRING ? v->u.s : NULL;
}
