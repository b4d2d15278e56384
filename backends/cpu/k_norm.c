/* Built-in CPU kernels of the reduce family that work along lines rather
 * than collapsing dims: softmax / log_softmax (all overloads), cumsum, cumprod,
 * native_layer_norm, native_batch_norm and native_group_norm. Their table
 * entries are in k_reduce.c.
 *
 * f32 in and out take the SIMD loops of k_reduce_simd.h: rows contiguous
 * along the softmax dim in place, contiguous tensors softmaxed over an
 * outer dim column-block-wise, anything else gathered into a contiguous
 * scratch row. Other dtypes compute in double. */
#include "backends/cpu/k_reduce_internal.h"

#include "backends/cpu/ew.h"
#include "backends/cpu/parallel.h"
#include "ops/meta_util.h"

#include <inttypes.h>

#define D AIRC_MAX_DIMS

/* torch's is_contiguous: size-1 dims may have any stride */
static bool contiguous_from(const airc_tview *t, int32_t axis)
{
    int64_t want = 1;
    for (int32_t d = t->ndim - 1; d >= axis; d--) {
        if (t->shape[d] != 1 && t->strides[d] != want)
            return false;
        want *= t->shape[d];
    }
    return true;
}

static bool same_shape(const airc_tview *a, const airc_tview *b)
{
    if (a->ndim != b->ndim)
        return false;
    for (int32_t d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return false;
    return true;
}

static airc_status out0(const airc_kernel_ctx *k, const airc_tview *x, airc_tview **out)
{
    if (k->nout < 1 || !k->out[0].data)
        return airc_kred_fail(k, AIRC_E_RUNTIME, "output not allocated");
    if (!same_shape(x, &k->out[0]))
        return airc_kred_fail(k, AIRC_E_RUNTIME, "output shape differs from the input's");
    *out = &k->out[0];
    return AIRC_OK;
}

/* ---- softmax ------------------------------------------------------------- */

void airc_kred_softmax_row_d(double *v, int64_t n, bool take_log)
{
    double m = -INFINITY;
    for (int64_t j = 0; j < n; j++)
        if (v[j] > m || v[j] != v[j])
            m = v[j];
    double s = 0;
    for (int64_t j = 0; j < n; j++)
        s += exp(v[j] - m);
    if (take_log) {
        double ls = log(s);
        for (int64_t j = 0; j < n; j++)
            v[j] = (v[j] - m) - ls;
    } else {
        for (int64_t j = 0; j < n; j++)
            v[j] = exp(v[j] - m) / s;
    }
}

/* Contiguous f32 rows, split between threads. */
typedef struct softmax_rows {
    const airc_kred_simd *simd;
    const float *x;
    float *y;
    int64_t n;
    bool take_log;
    airc_kred_lines lines; /* at the first row */
} softmax_rows;

static void softmax_chunk(void *arg, int64_t b, int64_t e)
{
    const softmax_rows *r = arg;
    airc_kred_lines it = r->lines;
    airc_kred_lines_seek(&it, b, e - b);
    do
        r->simd->softmax(r->x + it.in, r->y + it.out, r->n, r->take_log);
    while (airc_kred_lines_next(&it));
}

static airc_status softmax_common(airc_kernel_ctx *k, bool take_log)
{
    const airc_tview *x = airc_kred_input(k, "self");
    if (!x)
        return airc_kred_fail(k, AIRC_E_UNSUPPORTED, "self must be a tensor");
    airc_tview *y = NULL;
    AIRC_TRY(out0(k, x, &y));
    int32_t dim;
    AIRC_TRY(airc_kred_wrap_dim(k, airc_kred_int(k, "dim", 0), x->ndim, &dim));
    if (airc_kred_numel(x) == 0)
        return AIRC_OK;
    int64_t n = x->ndim ? x->shape[dim] : 1;
    int64_t sx = x->ndim ? x->strides[dim] : 1, sy = x->ndim ? y->strides[dim] : 1;
    const airc_kred_simd *simd = airc_kred_simd_best();
    bool f32 = x->dtype == AIRC_DTYPE_F32 && y->dtype == AIRC_DTYPE_F32;
    const float *xf = x->data;
    float *yf = y->data;
    airc_kred_lines it;
    if (f32 && (sx == 1 || n == 1) && (sy == 1 || n == 1)) {
        softmax_rows r = {simd, xf, yf, n, take_log, {0}};
        airc_kred_lines_init(&r.lines, x, y, dim);
        airc_cpu_parallel_for(k->num_threads, r.lines.left, airc_kred_line_grain(n), softmax_chunk,
                              &r);
        return AIRC_OK;
    }
    if (f32 && contiguous_from(x, 0) && contiguous_from(y, 0)) {
        int64_t outer = 1, inner = 1;
        for (int32_t d = 0; d < dim; d++)
            outer *= x->shape[d];
        for (int32_t d = dim + 1; d < x->ndim; d++)
            inner *= x->shape[d];
        void *ws = airc_malloc(k->ctx, (size_t)inner * 16);
        if (!ws)
            return airc_fail_oom("softmax scratch");
        for (int64_t o = 0; o < outer; o++)
            simd->softmax_cols(xf + o * n * inner, yf + o * n * inner, n, inner, take_log, ws);
        airc_free(k->ctx, ws);
        return AIRC_OK;
    }
    /* strided: one row at a time through scratch */
    size_t esz = f32 ? sizeof(float) : sizeof(double);
    void *row = airc_malloc(k->ctx, (size_t)n * esz);
    if (!row)
        return airc_fail_oom("softmax row");
    airc_kred_lines_init(&it, x, y, dim);
    do {
        if (f32) {
            float *r = row;
            for (int64_t j = 0; j < n; j++)
                r[j] = xf[it.in + j * sx];
            simd->softmax(r, r, n, take_log);
            for (int64_t j = 0; j < n; j++)
                yf[it.out + j * sy] = r[j];
        } else {
            double *r = row;
            airc_kred_load_row_d(x->data, it.in, sx, n, x->dtype, r);
            airc_kred_softmax_row_d(r, n, take_log);
            airc_kred_store_row_d(y->data, it.out, sy, n, y->dtype, r);
        }
    } while (airc_kred_lines_next(&it));
    airc_free(k->ctx, row);
    return AIRC_OK;
}

airc_status airc_kred_softmax(airc_kernel_ctx *k, void *user_data)
{
    return softmax_common(k, false);
}

airc_status airc_kred_log_softmax(airc_kernel_ctx *k, void *user_data)
{
    return softmax_common(k, true);
}

/* ---- cumsum -------------------------------------------------------------- */

/* Element off of x converted to dt first (torch's cumsum(x, dtype=D)
 * sums x.to(D): f32 elements round to bf16, inf to i32 is INT32_MIN): a
 * pointer to it in dt, in x or in *tmp. */
/* v as an element of dt holds it */
static double rnd(airc_dtype dt, double v)
{
    uint64_t b = 0;
    airc_kred_store_d(&b, 0, dt, v);
    return airc_kred_load_d(&b, 0, dt);
}

/* _masked_softmax(self, mask, dim?, mask_type?) as torch 1.13's CPU
 * kernel: per row along dim, the max of the unmasked elements (std::max:
 * a NaN stays only where it comes first), z = exp(x - max) for them (0
 * for the masked), each step rounded to the dtype; their sum in the
 * accumulate type (double; float for bf16), out = z * (1 / sum) rounded
 * (1 / sum itself rounded to bf16 for bf16).
 * A row masked whole gives 0 * inf: NaN. Meta checked the mask's shape
 * and dtype and refused a dim of size 0. */
airc_status airc_kred_masked_softmax(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x = airc_kred_input(k, "self"), *m = airc_kred_input(k, "mask");
    if (!x || !m || !same_shape(x, m))
        return airc_kred_fail(k, AIRC_E_UNSUPPORTED, "self and mask must be tensors of one shape");
    airc_tview *y = NULL;
    AIRC_TRY(out0(k, x, &y));
    int32_t dim;
    AIRC_TRY(airc_kred_wrap_dim(k, airc_kred_int(k, "dim", x->ndim - 1), x->ndim, &dim));
    if (airc_kred_numel(x) == 0)
        return AIRC_OK;
    airc_dtype dt = x->dtype;
    bool bf16 = dt == AIRC_DTYPE_BF16;
    int64_t n = x->ndim ? x->shape[dim] : 1;
    int64_t sx = x->ndim ? x->strides[dim] : 1, sy = x->ndim ? y->strides[dim] : 1,
            sm = m->ndim ? m->strides[dim] : 1;
    double *row = airc_malloc(k->ctx, (size_t)n * sizeof *row);
    if (!row)
        return airc_fail_oom("masked softmax row");
    airc_kred_lines it, mit;
    airc_kred_lines_init(&it, x, y, dim);
    airc_kred_lines_init(&mit, m, m, dim);
    do {
        const uint8_t *mask = (const uint8_t *)m->data + mit.in;
        airc_kred_load_row_d(x->data, it.in, sx, n, dt, row);
        bool found = false;
        double max = row[0], sum = 0;
        for (int64_t j = 0; j < n; j++)
            if (!mask[j * sm]) {
                max = found && !(max < row[j]) ? max : row[j];
                found = true;
            }
        for (int64_t j = 0; j < n; j++) {
            double z = mask[j * sm] ? 0 : rnd(dt, exp(rnd(dt, row[j] - max)));
            row[j] = z;
            sum = bf16 ? (double)(float)(sum + z) : sum + z;
        }
        /* bf16: torch's BFloat16 *= float converts the float to bf16 first */
        double inv = bf16 ? rnd(dt, (double)(1.0f / (float)sum)) : 1.0 / sum;
        for (int64_t j = 0; j < n; j++)
            row[j] = bf16 ? (double)(float)(row[j] * inv) : row[j] * inv;
        airc_kred_store_row_d(y->data, it.out, sy, n, y->dtype, row);
        airc_kred_lines_next(&mit);
    } while (airc_kred_lines_next(&it));
    airc_free(k->ctx, row);
    return AIRC_OK;
}

static const void *as_result(const airc_tview *x, int64_t off, airc_dtype dt, int64_t *tmp)
{
    const char *p = (const char *)x->data + off * (int64_t)airc_dtype_size(x->dtype);
    if (x->dtype == dt)
        return p;
    airc_cpu_cast(dt, tmp, 1, x->dtype, p, 1, 1);
    return tmp;
}

static double as_result_d(const airc_tview *x, int64_t off, airc_dtype dt)
{
    int64_t tmp;
    return airc_kred_load_d(as_result(x, off, dt, &tmp), 0, dt);
}

static int64_t as_result_i(const airc_tview *x, int64_t off, airc_dtype dt)
{
    int64_t tmp;
    return airc_kred_load_i(as_result(x, off, dt, &tmp), 0, dt);
}

/* cumsum / cumprod: a running sum (product) along dim, accumulated in
 * double for floats (torch's CPU acc_type), wrapping int64 otherwise. */
static airc_status cumulative(airc_kernel_ctx *k, bool prod)
{
    const airc_tview *x = airc_kred_input(k, "self");
    if (!x)
        return airc_kred_fail(k, AIRC_E_UNSUPPORTED, "self must be a tensor");
    airc_tview *y = NULL;
    AIRC_TRY(out0(k, x, &y));
    int32_t dim;
    AIRC_TRY(airc_kred_wrap_dim(k, airc_kred_int(k, "dim", 0), x->ndim, &dim));
    if (airc_kred_numel(x) == 0)
        return AIRC_OK;
    if (x->ndim == 0 && x->dtype != y->dtype && x->dtype != AIRC_DTYPE_BOOL) {
        /* torch fills a 0-dim result with self.item(), converted with the
         * overflow check (a 1-dim one casts: 300 to u8 is 44 there) */
        bool f = airc_kred_is_float(x->dtype);
        const char *type =
            airc_meta_number_overflows(f, f ? airc_kred_load_d(x->data, 0, x->dtype) : 0,
                                       f ? 0 : airc_kred_load_i(x->data, 0, x->dtype), y->dtype);
        if (type)
            return airc_kred_fail(k, AIRC_E_RUNTIME,
                                  "value cannot be converted to type %s without overflow", type);
    }
    int64_t n = x->ndim ? x->shape[dim] : 1;
    int64_t sx = x->ndim ? x->strides[dim] : 1, sy = x->ndim ? y->strides[dim] : 1;
    bool dbl = airc_kred_is_float(y->dtype);
    airc_kred_lines it;
    airc_kred_lines_init(&it, x, y, dim);
    do {
        if (x->dtype == AIRC_DTYPE_F32 && y->dtype == AIRC_DTYPE_F32) {
            const float *xp = (const float *)x->data + it.in;
            float *yp = (float *)y->data + it.out;
            double acc = prod; /* torch's CPU acc_type of float */
            for (int64_t j = 0; j < n; j++) {
                acc = prod ? acc * xp[j * sx] : acc + xp[j * sx];
                yp[j * sy] = (float)acc;
            }
        } else if (dbl) {
            double acc = prod;
            for (int64_t j = 0; j < n; j++) {
                double v = as_result_d(x, it.in + j * sx, y->dtype);
                acc = prod ? acc * v : acc + v;
                airc_kred_store_d(y->data, it.out + j * sy, y->dtype, acc);
            }
        } else {
            uint64_t acc = prod; /* wraps like torch */
            for (int64_t j = 0; j < n; j++) {
                uint64_t v = (uint64_t)as_result_i(x, it.in + j * sx, y->dtype);
                acc = prod ? acc * v : acc + v;
                airc_kred_store_i(y->data, it.out + j * sy, y->dtype, (int64_t)acc);
            }
        }
    } while (airc_kred_lines_next(&it));
    return AIRC_OK;
}

airc_status airc_kred_cumsum(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    return cumulative(k, false);
}

airc_status airc_kred_cumprod(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    return cumulative(k, true);
}

/* ---- native_layer_norm ----------------------------------------------------- */

/* Copies the trailing dims [axis, ndim) of t at element offset base to or
 * from a contiguous row of f32 or f64 (row_dt). */
static void trail_copy(const airc_tview *t, int32_t axis, int64_t base, void *row,
                       airc_dtype row_dt, bool to_row)
{
    int64_t idx[D] = {0}, off = base, n = 1;
    for (int32_t d = axis; d < t->ndim; d++)
        n *= t->shape[d];
    for (int64_t j = 0; j < n; j++) {
        if (to_row)
            airc_kred_store_d(row, j, row_dt, airc_kred_load_d(t->data, off, t->dtype));
        else
            airc_kred_store_d(t->data, off, t->dtype, airc_kred_load_d(row, j, row_dt));
        for (int32_t d = t->ndim - 1; d >= axis; d--) {
            if (++idx[d] < t->shape[d]) {
                off += t->strides[d];
                break;
            }
            off -= t->strides[d] * (t->shape[d] - 1);
            idx[d] = 0;
        }
    }
}

void airc_kred_layer_norm_row_f32(const airc_kred_simd *simd, const float *x, float *y, int64_t n,
                                  double eps, const float *w, const float *b, double *mean,
                                  double *rstd)
{
    *mean = 0;
    *rstd = NAN;
    if (n > 0) {
        *mean = simd->sum(x, n) / (double)n;
        double var = simd->sqdev(x, n, *mean) / (double)n;
        *rstd = 1.0 / sqrt(var + eps);
    }
    /* torch's y = x * scale + bias with scale = rstd and bias = -rstd *
     * mean in float, so x == mean gives exactly 0 */
    float scale = (float)*rstd, shift = -scale * (float)*mean;
    simd->norm_apply(x, y, n, scale, shift, w, b);
}

void airc_kred_layer_norm_row_d(double *row, int64_t n, double eps, const double *w,
                                const double *b, double *mean, double *rstd)
{
    double m = 0, ss = 0;
    *rstd = NAN;
    if (n > 0) {
        for (int64_t j = 0; j < n; j++)
            m += row[j];
        m /= (double)n;
        for (int64_t j = 0; j < n; j++)
            ss += (row[j] - m) * (row[j] - m);
        *rstd = 1.0 / sqrt(ss / (double)n + eps);
    }
    *mean = m;
    for (int64_t j = 0; j < n; j++)
        row[j] = (row[j] - m) * *rstd * (w ? w[j] : 1.0) + (b ? b[j] : 0.0);
}

typedef struct ln_rows {
    const airc_tview *x;
    airc_tview *y, *mean, *rstd;
    int32_t axis;
    int64_t rows, n;
    double eps;
} ln_rows;

/* Advances the offsets of x, y, mean and rstd to the next row (the
 * leading dims' odometer). */
static void ln_next(const ln_rows *r, int64_t *idx, int64_t *off)
{
    const airc_tview *t[4] = {r->x, r->y, r->mean, r->rstd};
    for (int32_t d = r->axis - 1; d >= 0; d--) {
        int64_t n = r->x->shape[d];
        if (++idx[d] < n) {
            for (int i = 0; i < 4; i++)
                off[i] += t[i]->strides[d];
            return;
        }
        for (int i = 0; i < 4; i++)
            off[i] -= t[i]->strides[d] * (n - 1);
        idx[d] = 0;
    }
}

/* The offsets of x, y, mean and rstd at row `row`, and its odometer. */
static void ln_seek(const ln_rows *r, int64_t row, int64_t *idx, int64_t *off)
{
    const airc_tview *t[4] = {r->x, r->y, r->mean, r->rstd};
    for (int i = 0; i < 4; i++)
        off[i] = 0;
    for (int32_t d = r->axis - 1; d >= 0; d--) {
        idx[d] = row % r->x->shape[d];
        row /= r->x->shape[d];
        for (int i = 0; i < 4; i++)
            off[i] += idx[d] * t[i]->strides[d];
    }
}

/* Rows whose x and y are contiguous, split between threads. */
typedef struct ln_chunks {
    const ln_rows *r;
    const airc_kred_simd *simd;
    const float *w, *b;
} ln_chunks;

static void ln_f32_chunk(void *arg, int64_t first, int64_t end)
{
    const ln_chunks *c = arg;
    const ln_rows *r = c->r;
    int64_t idx[D] = {0}, off[4];
    ln_seek(r, first, idx, off);
    for (int64_t row = first; row < end; row++) {
        double mean, rstd;
        airc_kred_layer_norm_row_f32(c->simd, (const float *)r->x->data + off[0],
                                     (float *)r->y->data + off[1], r->n, r->eps, c->w, c->b, &mean,
                                     &rstd);
        airc_kred_store_d(r->mean->data, off[2], r->mean->dtype, mean);
        airc_kred_store_d(r->rstd->data, off[3], r->rstd->dtype, rstd);
        ln_next(r, idx, off);
    }
}

static airc_status ln_f32(airc_kernel_ctx *k, const ln_rows *r, const airc_tview *w,
                          const airc_tview *b)
{
    const airc_kred_simd *simd = airc_kred_simd_best();
    int64_t n = r->n;
    bool xc = contiguous_from(r->x, r->axis), yc = contiguous_from(r->y, r->axis);
    /* scratch: x row, y row, weight, bias (only what is needed) */
    float *buf = airc_malloc(k->ctx, (size_t)(4 * n + 4) * sizeof *buf);
    if (!buf)
        return airc_fail_oom("layer norm scratch");
    float *xrow = buf, *yrow = buf + n, *wv = NULL, *bv = NULL;
    if (w || b) {
        wv = buf + 2 * n;
        bv = buf + 3 * n;
        for (int64_t j = 0; j < n; j++) {
            wv[j] = 1;
            bv[j] = 0;
        }
        if (w)
            trail_copy(w, 0, 0, wv, AIRC_DTYPE_F32, true);
        if (b)
            trail_copy(b, 0, 0, bv, AIRC_DTYPE_F32, true);
    }
    if (xc && yc) {
        ln_chunks c = {r, simd, wv, bv};
        airc_cpu_parallel_for(k->num_threads, r->rows, airc_kred_line_grain(n), ln_f32_chunk, &c);
        airc_free(k->ctx, buf);
        return AIRC_OK;
    }
    const airc_tview *x = r->x;
    int64_t idx[D] = {0}, off[4] = {0, 0, 0, 0}; /* x, y, mean, rstd */
    for (int64_t row = 0; row < r->rows; row++) {
        const float *xr = (const float *)x->data + off[0];
        if (!xc) {
            trail_copy(x, r->axis, off[0], xrow, AIRC_DTYPE_F32, true);
            xr = xrow;
        }
        float *yr = yc ? (float *)r->y->data + off[1] : yrow;
        double mean, rstd;
        airc_kred_layer_norm_row_f32(simd, xr, yr, n, r->eps, wv, bv, &mean, &rstd);
        if (!yc)
            trail_copy(r->y, r->axis, off[1], yrow, AIRC_DTYPE_F32, false);
        airc_kred_store_d(r->mean->data, off[2], r->mean->dtype, mean);
        airc_kred_store_d(r->rstd->data, off[3], r->rstd->dtype, rstd);
        ln_next(r, idx, off);
    }
    airc_free(k->ctx, buf);
    return AIRC_OK;
}

static airc_status ln_double(airc_kernel_ctx *k, const ln_rows *r, const airc_tview *w,
                             const airc_tview *b)
{
    int64_t n = r->n;
    double *buf = airc_malloc(k->ctx, (size_t)(3 * n + 3) * sizeof *buf);
    if (!buf)
        return airc_fail_oom("layer norm scratch");
    double *row = buf, *wv = buf + n, *bv = buf + 2 * n;
    for (int64_t j = 0; j < n; j++) {
        wv[j] = 1;
        bv[j] = 0;
    }
    if (w)
        trail_copy(w, 0, 0, wv, AIRC_DTYPE_F64, true);
    if (b)
        trail_copy(b, 0, 0, bv, AIRC_DTYPE_F64, true);
    const airc_tview *x = r->x;
    int64_t idx[D] = {0}, off[4] = {0, 0, 0, 0}; /* x, y, mean, rstd */
    for (int64_t rw = 0; rw < r->rows; rw++) {
        trail_copy(x, r->axis, off[0], row, AIRC_DTYPE_F64, true);
        double mean, rstd;
        airc_kred_layer_norm_row_d(row, n, r->eps, wv, bv, &mean, &rstd);
        trail_copy(r->y, r->axis, off[1], row, AIRC_DTYPE_F64, false);
        airc_kred_store_d(r->mean->data, off[2], r->mean->dtype, mean);
        airc_kred_store_d(r->rstd->data, off[3], r->rstd->dtype, rstd);
        ln_next(r, idx, off);
    }
    airc_free(k->ctx, buf);
    return AIRC_OK;
}

airc_status airc_kred_layer_norm(airc_kernel_ctx *k, void *user_data)
{
    ln_rows r;
    memset(&r, 0, sizeof r);
    r.x = airc_kred_input(k, "input");
    if (!r.x)
        return airc_kred_fail(k, AIRC_E_UNSUPPORTED, "input must be a tensor");
    int64_t shape[D];
    int32_t nn = airc_kred_int_list(k, "normalized_shape", shape, D);
    r.axis = r.x->ndim - nn;
    if (nn < 1 || r.axis < 0)
        return airc_kred_fail(k, AIRC_E_RUNTIME,
                              "normalized_shape of %d dims does not fit an input of %d dims",
                              (int)nn, (int)r.x->ndim);
    if (k->nout < 3 || !k->out[1].data || !k->out[2].data)
        return airc_kred_fail(k, AIRC_E_RUNTIME, "outputs not allocated");
    AIRC_TRY(out0(k, r.x, &r.y));
    r.mean = &k->out[1];
    r.rstd = &k->out[2];
    for (int32_t d = 0; d < r.axis; d++)
        if (r.mean->ndim != r.x->ndim || r.mean->shape[d] != r.x->shape[d] ||
            r.rstd->ndim != r.x->ndim || r.rstd->shape[d] != r.x->shape[d])
            return airc_kred_fail(k, AIRC_E_RUNTIME, "mean/rstd do not have the meta's shape");
    r.eps = airc_kred_double(k, "eps", 1e-5);
    r.rows = 1;
    r.n = 1;
    for (int32_t d = 0; d < r.x->ndim; d++)
        *(d < r.axis ? &r.rows : &r.n) *= r.x->shape[d];
    const airc_tview *w = airc_kred_input(k, "weight"), *b = airc_kred_input(k, "bias");
    const airc_tview *params[2] = {w, b};
    for (int i = 0; i < 2; i++)
        if (params[i] && airc_kred_numel(params[i]) != r.n)
            return airc_kred_fail(k, AIRC_E_RUNTIME,
                                  "%s has %" PRId64 " elements, normalized_shape %" PRId64,
                                  i ? "bias" : "weight", airc_kred_numel(params[i]), r.n);
    if (r.rows == 0)
        return AIRC_OK;
    if (r.x->dtype == AIRC_DTYPE_F32 && r.y->dtype == AIRC_DTYPE_F32)
        return ln_f32(k, &r, w, b);
    return ln_double(k, &r, w, b);
}

/* ---- native_batch_norm ----------------------------------------------------- */

/* Per channel c of t (dim 1): the sum of (v - center[c])^p, p 1 or 2, over
 * every line along dim 1, into acc. */
static void bn_channel_sums(const airc_tview *t, const double *center, int p, double *acc)
{
    int64_t c = t->shape[1];
    airc_kred_lines it;
    airc_kred_lines_init(&it, t, t, 1);
    do {
        for (int64_t j = 0; j < c; j++) {
            double v = airc_kred_load_d(t->data, it.in + j * t->strides[1], t->dtype);
            v -= center ? center[j] : 0;
            acc[j] += p == 1 ? v : v * v;
        }
    } while (airc_kred_lines_next(&it));
}

/* native_batch_norm(input, weight?, bias?, running_mean?, running_var?,
 * training, momentum, eps) over dim 1, in double: y = x * scale + shift
 * with scale = weight / sqrt(var + eps) and shift = bias - mean * scale.
 * mean and var are the running statistics, or in training the batch's
 * (var biased, two passes), also written to save_mean and save_invstd.
 * Meta has refused training with running statistics (their in-place
 * update). */
airc_status airc_kred_batch_norm(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    if (k->nargs < 8 || !k->in || !k->in[0] || k->nout < 3)
        return airc_fail(AIRC_E_UNSUPPORTED, "native_batch_norm: input must be a tensor");
    const airc_tview *x = k->in[0], *y = &k->out[0];
    bool training = airc_kred_bool(k, "training", false);
    double eps = airc_kred_double(k, "eps", 1e-5);
    int64_t c = x->ndim >= 2 ? x->shape[1] : 0;
    if (x->ndim < 2 || !same_shape(x, y) || (!training && (!k->in[3] || !k->in[4])))
        return airc_fail(AIRC_E_UNSUPPORTED, "native_batch_norm: arguments do not match");
    for (size_t i = 1; i < 5; i++)
        if (k->in[i] && (k->in[i]->ndim != 1 || k->in[i]->shape[0] != c))
            return airc_fail(AIRC_E_UNSUPPORTED, "native_batch_norm: argument %zu is not [%lld]", i,
                             (long long)c);
    int64_t numel = 1;
    for (int32_t d = 0; d < x->ndim; d++)
        numel *= x->shape[d];
    double *st = airc_calloc(k->ctx, (size_t)(4 * c + 1), sizeof *st);
    if (!st)
        return airc_fail_oom("batch norm statistics");
    double *mean = st, *var = st + c, *scale = st + 2 * c, *shift = st + 3 * c;
    if (training) {
        if (numel > 0) {
            double per = (double)(numel / c);
            bn_channel_sums(x, NULL, 1, mean);
            for (int64_t j = 0; j < c; j++)
                mean[j] /= per;
            bn_channel_sums(x, mean, 2, var);
            for (int64_t j = 0; j < c; j++)
                var[j] /= per;
        } else {
            for (int64_t j = 0; j < c; j++)
                mean[j] = var[j] = NAN;
        }
    } else {
        for (int64_t j = 0; j < c; j++) {
            mean[j] = airc_kred_load_d(k->in[3]->data, j * k->in[3]->strides[0], k->in[3]->dtype);
            var[j] = airc_kred_load_d(k->in[4]->data, j * k->in[4]->strides[0], k->in[4]->dtype);
        }
    }
    const airc_tview *w = k->in[1], *b = k->in[2];
    for (int64_t j = 0; j < c; j++) {
        double invstd = 1.0 / sqrt(var[j] + eps);
        double wj = w ? airc_kred_load_d(w->data, j * w->strides[0], w->dtype) : 1;
        double bj = b ? airc_kred_load_d(b->data, j * b->strides[0], b->dtype) : 0;
        scale[j] = wj * invstd;
        shift[j] = bj - mean[j] * scale[j];
        if (training) {
            airc_kred_store_d(k->out[1].data, j * k->out[1].strides[0], k->out[1].dtype, mean[j]);
            airc_kred_store_d(k->out[2].data, j * k->out[2].strides[0], k->out[2].dtype, invstd);
        }
    }
    if (numel > 0) {
        airc_kred_lines it;
        airc_kred_lines_init(&it, x, y, 1);
        do {
            for (int64_t j = 0; j < c; j++) {
                double v = airc_kred_load_d(x->data, it.in + j * x->strides[1], x->dtype);
                airc_kred_store_d(y->data, it.out + j * y->strides[1], y->dtype,
                                  v * scale[j] + shift[j]);
            }
        } while (airc_kred_lines_next(&it));
    }
    airc_free(k->ctx, st);
    return AIRC_OK;
}

/* batch_norm_update_stats(input, running_mean?, running_var?, momentum)
 * -> (mean, biased var) per channel (dim 1), two passes in double, as
 * native_batch_norm's training statistics; the running statistics are
 * not read (meta: torch updates them in place, which airc does not). */
airc_status airc_kred_batch_norm_update_stats(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    if (!k->in || !k->in[0] || k->nout < 2 || k->in[0]->ndim < 2)
        return airc_fail(AIRC_E_UNSUPPORTED, "batch_norm_update_stats: input must be a tensor");
    const airc_tview *x = k->in[0];
    int64_t c = x->shape[1], per = c ? airc_kred_numel(x) / c : 0;
    double *st = airc_calloc(k->ctx, (size_t)(2 * c + 1), sizeof *st);
    if (!st)
        return airc_fail_oom("batch norm statistics");
    double *mean = st, *var = st + c;
    if (per > 0) {
        bn_channel_sums(x, NULL, 1, mean);
        for (int64_t j = 0; j < c; j++)
            mean[j] /= (double)per;
        bn_channel_sums(x, mean, 2, var);
    }
    for (int64_t j = 0; j < c; j++) {
        airc_kred_store_d(k->out[0].data, j * k->out[0].strides[0], k->out[0].dtype, mean[j]);
        airc_kred_store_d(k->out[1].data, j * k->out[1].strides[0], k->out[1].dtype,
                          var[j] / (double)per);
    }
    airc_free(k->ctx, st);
    return AIRC_OK;
}

/* ---- native_group_norm ------------------------------------------------------- */

/* Offset (elements) of spatial element j of t: meta gives group norm an
 * input and result contiguous in NCHW or NHWC, whose spatial dims merge
 * into one of stride strides[ndim - 1]. */
static int64_t spatial_off(const airc_tview *t, int64_t j)
{
    return t->ndim > 2 ? j * t->strides[t->ndim - 1] : 0;
}

/* native_group_norm(input, weight?, bias?, N, C, HxW, group, eps): per
 * image and group, the mean and biased variance of its C / group channels
 * (two passes, in double), y = (x - mean) * rstd * weight + bias, and
 * mean and rstd [N, group]. */
airc_status airc_kred_group_norm(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    if (k->nargs < 8 || !k->in || !k->in[0] || k->nout < 3)
        return airc_fail(AIRC_E_UNSUPPORTED, "native_group_norm: input must be a tensor");
    const airc_tview *x = k->in[0], *y = &k->out[0], *w = k->in[1], *b = k->in[2];
    int64_t group = airc_kred_int(k, "group", 1);
    double eps = airc_kred_double(k, "eps", 1e-5);
    if (x->ndim < 2 || !same_shape(x, y) || group <= 0 || x->shape[1] % group)
        return airc_fail(AIRC_E_UNSUPPORTED, "native_group_norm: arguments do not match");
    int64_t nb = x->shape[0], c = x->shape[1], cg = c / group, hw = 1;
    for (int32_t d = 2; d < x->ndim; d++)
        hw *= x->shape[d];
    double count = (double)(cg * hw);
    for (int64_t n = 0; n < nb; n++) {
        for (int64_t g = 0; g < group; g++) {
            double sum = 0, ss = 0;
            for (int pass = 0; pass < 2; pass++) {
                double mean = sum / count;
                for (int64_t ch = g * cg; ch < (g + 1) * cg; ch++) {
                    int64_t base = n * x->strides[0] + ch * x->strides[1];
                    for (int64_t j = 0; j < hw; j++) {
                        double v = airc_kred_load_d(x->data, base + spatial_off(x, j), x->dtype);
                        if (pass == 0)
                            sum += v;
                        else
                            ss += (v - mean) * (v - mean);
                    }
                }
            }
            double mean = count > 0 ? sum / count : NAN;
            double rstd = count > 0 ? 1.0 / sqrt(ss / count + eps) : NAN;
            for (int64_t ch = g * cg; ch < (g + 1) * cg; ch++) {
                double wc = w ? airc_kred_load_d(w->data, ch * w->strides[0], w->dtype) : 1;
                double bc = b ? airc_kred_load_d(b->data, ch * b->strides[0], b->dtype) : 0;
                int64_t xb = n * x->strides[0] + ch * x->strides[1];
                int64_t yb = n * y->strides[0] + ch * y->strides[1];
                for (int64_t j = 0; j < hw; j++) {
                    double v = airc_kred_load_d(x->data, xb + spatial_off(x, j), x->dtype);
                    airc_kred_store_d(y->data, yb + spatial_off(y, j), y->dtype,
                                      (v - mean) * rstd * wc + bc);
                }
            }
            const airc_tview *m = &k->out[1], *r = &k->out[2];
            airc_kred_store_d(m->data, n * m->strides[0] + g * m->strides[1], m->dtype, mean);
            airc_kred_store_d(r->data, n * r->strides[0] + g * r->strides[1], r->dtype, rstd);
        }
    }
    return AIRC_OK;
}
