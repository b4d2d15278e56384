/* Built-in CPU kernels, linalg family: the GEMM behind mm, addmm, bmm,
 * baddbmm, matmul, linear, mv and dot (OpenBLAS for f32/f64), and the family's table
 * (convolution in k_linalg_conv.c, pooling in k_linalg_pool.c).
 *
 * Threads: these kernels start none of their own. OpenBLAS's thread count
 * is the CPU runtime's policy (its thread budget per stream), set there. */
#include "backends/cpu/ew.h"
#include "backends/cpu/k_conv_dnnl.h"
#include "backends/cpu/k_lapack.h"
#include "backends/cpu/k_linalg_impl.h"
#include "backends/cpu/k_math.h"

#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <string.h>

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static airc_cpu_mat mat_t(airc_cpu_mat m)
{
    airc_cpu_mat t = {m.p, m.cols, m.rows, m.cs, m.rs};
    return t;
}

/* How BLAS can address m without a copy: row-major (NoTrans: element
 * (i, j) at i*ld + j) or column-major (Trans: at j*ld + i). */
static bool blas_view(const airc_cpu_mat *m, bool *trans, int64_t *ld)
{
    int64_t r = m->rows, c = m->cols;
    if (m->cs == 1 || c <= 1) {
        int64_t l = r <= 1 ? max64(c, 1) : m->rs;
        if (l >= max64(c, 1) && l <= INT_MAX) {
            *trans = false;
            *ld = l;
            return true;
        }
    }
    if (m->rs == 1 || r <= 1) {
        int64_t l = c <= 1 ? max64(r, 1) : m->cs;
        if (l >= max64(r, 1) && l <= INT_MAX) {
            *trans = true;
            *ld = l;
            return true;
        }
    }
    return false;
}

static airc_tview mat_view(const airc_cpu_mat *m, airc_dtype dtype)
{
    airc_tview v = {.data = m->p, .dtype = dtype, .ndim = 2};
    v.shape[0] = m->rows;
    v.shape[1] = m->cols;
    v.strides[0] = m->rs;
    v.strides[1] = m->cs;
    return v;
}

/* A contiguous copy of m (when `copy_in`, else uninitialised) in *mem. */
static airc_status mat_temp(const airc_kernel_ctx *k, airc_dtype dtype, const airc_cpu_mat *m,
                            bool copy_in, airc_cpu_mat *out, void **mem)
{
    size_t esz = airc_dtype_size(dtype);
    void *p = airc_malloc(k->ctx, (size_t)max64(m->rows * m->cols, 1) * esz);
    if (!p)
        return airc_cpu_oom(k, "a GEMM operand");
    airc_cpu_mat t = {p, m->rows, m->cols, m->cols, 1};
    if (copy_in) {
        airc_tview d = mat_view(&t, dtype), s = mat_view(m, dtype);
        airc_cpu_copy(&d, &s);
    }
    *out = t;
    *mem = p;
    return AIRC_OK;
}

/* C = beta * C, elementwise (K == 0: the product is empty). */
static void scale(airc_dtype dtype, double beta, const airc_cpu_mat *c)
{
    size_t esz = airc_dtype_size(dtype);
    for (int64_t i = 0; i < c->rows; i++) {
        for (int64_t j = 0; j < c->cols; j++) {
            char *p = c->p + (i * c->rs + j * c->cs) * (int64_t)esz;
            if (beta == 0)
                airc_cpu_store_i64(p, dtype, 0);
            else if (airc_cpu_dtype_is_float(dtype))
                airc_cpu_store_f64(p, dtype, beta * airc_cpu_load_f64(p, dtype));
            else
                airc_cpu_store_i64(p, dtype, (int64_t)beta * airc_cpu_load_i64(p, dtype));
        }
    }
}

/* Plain loops for the dtypes BLAS has no GEMM for. */
static void gemm_loop(airc_dtype dtype, double alpha, const airc_cpu_mat *a,
                      const airc_cpu_mat *b, double beta, const airc_cpu_mat *c)
{
    int64_t esz = (int64_t)airc_dtype_size(dtype);
    bool fp = airc_cpu_dtype_is_float(dtype);
    for (int64_t i = 0; i < c->rows; i++) {
        for (int64_t j = 0; j < c->cols; j++) {
            char *pc = c->p + (i * c->rs + j * c->cs) * esz;
            if (fp) {
                double acc = 0;
                for (int64_t q = 0; q < a->cols; q++)
                    acc += airc_cpu_load_f64(a->p + (i * a->rs + q * a->cs) * esz, dtype) *
                           airc_cpu_load_f64(b->p + (q * b->rs + j * b->cs) * esz, dtype);
                double old = beta == 0 ? 0 : beta * airc_cpu_load_f64(pc, dtype);
                airc_cpu_store_f64(pc, dtype, alpha * acc + old);
            } else {
                uint64_t acc = 0; /* wraps like torch's integer GEMM */
                for (int64_t q = 0; q < a->cols; q++)
                    acc += (uint64_t)airc_cpu_load_i64(a->p + (i * a->rs + q * a->cs) * esz, dtype) *
                           (uint64_t)airc_cpu_load_i64(b->p + (q * b->rs + j * b->cs) * esz, dtype);
                uint64_t old = beta == 0 ? 0
                                         : (uint64_t)(int64_t)beta *
                                               (uint64_t)airc_cpu_load_i64(pc, dtype);
                airc_cpu_store_i64(pc, dtype, (int64_t)((uint64_t)(int64_t)alpha * acc + old));
            }
        }
    }
}

airc_status airc_cpu_gemm(const airc_kernel_ctx *k, airc_dtype dtype, double alpha, airc_cpu_mat a,
                          airc_cpu_mat b, double beta, airc_cpu_mat c)
{
    if (c.rows == 0 || c.cols == 0)
        return AIRC_OK;
    if (a.cols == 0) {
        scale(dtype, beta, &c);
        return AIRC_OK;
    }
    if (dtype == AIRC_DTYPE_BOOL)
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED, "matrix products of bool tensors");
    if (dtype != AIRC_DTYPE_F32 && dtype != AIRC_DTYPE_F64) {
        gemm_loop(dtype, alpha, &a, &b, beta, &c);
        return AIRC_OK;
    }
    if (c.rows > INT_MAX || c.cols > INT_MAX || a.cols > INT_MAX)
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED, "a GEMM dimension exceeds INT_MAX");

    void *tc = NULL, *ta = NULL, *tb = NULL;
    airc_status st = AIRC_OK;
    airc_cpu_mat c0 = c; /* where the result must land */
    bool ctrans;
    int64_t ldc;
    if (!blas_view(&c, &ctrans, &ldc)) {
        st = mat_temp(k, dtype, &c0, beta != 0, &c, &tc);
        ctrans = false;
        ldc = c.cols;
    }
    if (st == AIRC_OK && ctrans) {
        /* a column-major C: compute C^T = B^T A^T, row-major */
        airc_cpu_mat na = mat_t(b), nb = mat_t(a);
        a = na;
        b = nb;
        c = mat_t(c);
    }
    bool at = false, bt = false;
    int64_t lda = 0, ldb = 0;
    if (st == AIRC_OK && !blas_view(&a, &at, &lda)) {
        st = mat_temp(k, dtype, &a, true, &a, &ta);
        at = false;
        lda = a.cols;
    }
    if (st == AIRC_OK && !blas_view(&b, &bt, &ldb)) {
        st = mat_temp(k, dtype, &b, true, &b, &tb);
        bt = false;
        ldb = b.cols;
    }
    if (st == AIRC_OK) {
        enum CBLAS_TRANSPOSE ta_ = at ? CblasTrans : CblasNoTrans;
        enum CBLAS_TRANSPOSE tb_ = bt ? CblasTrans : CblasNoTrans;
        int m = (int)c.rows, n = (int)c.cols, kk = (int)a.cols;
        /* oneDNN's sgemm where the build has it: AVX-512 where this
         * machine's OpenBLAS is held to AVX2, twice as fast on one thread */
        if (dtype == AIRC_DTYPE_F32 && airc_cpu_have_dnnl()) {
            if (!airc_cpu_sgemm_dnnl(k ? k->num_threads : 1, at, bt, m, n, kk, (float)alpha,
                                     (const float *)a.p, lda, (const float *)b.p, ldb, (float)beta,
                                     (float *)c.p, ldc))
                st = airc_cpu_fail(k, AIRC_E_RUNTIME, "oneDNN's sgemm failed (%d x %d x %d)", m, n,
                                   kk);
        } else if (dtype == AIRC_DTYPE_F32)
            cblas_sgemm(CblasRowMajor, ta_, tb_, m, n, kk, (float)alpha, (const float *)a.p,
                        (int)lda, (const float *)b.p, (int)ldb, (float)beta, (float *)c.p,
                        (int)ldc);
        else
            cblas_dgemm(CblasRowMajor, ta_, tb_, m, n, kk, alpha, (const double *)a.p, (int)lda,
                        (const double *)b.p, (int)ldb, beta, (double *)c.p, (int)ldc);
        if (tc) {
            airc_tview d = mat_view(&c0, dtype), s = mat_view(&c, dtype);
            airc_cpu_copy(&d, &s);
        }
    }
    airc_free(k->ctx, ta);
    airc_free(k->ctx, tb);
    airc_free(k->ctx, tc);
    return st;
}

/* ---- kernels ----------------------------------------------------------- */

static airc_status tensor_arg(airc_kernel_ctx *k, size_t i, const airc_tview **out)
{
    if (i < k->nargs && k->in && k->in[i]) {
        *out = k->in[i];
        return AIRC_OK;
    }
    *out = NULL; /* never read: keeps -Wmaybe-uninitialized quiet */
    return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "argument %zu must be a tensor", i);
}

/* The matrix of dims (r, c) of t, at t's data. */
static airc_cpu_mat mat_of(const airc_tview *t, int32_t r, int32_t c)
{
    airc_cpu_mat m = {t->data, t->shape[r], t->shape[c], t->strides[r], t->strides[c]};
    return m;
}

static airc_status want(airc_kernel_ctx *k, bool ok, const char *what)
{
    return ok ? AIRC_OK : airc_cpu_fail(k, AIRC_E_RUNTIME, "%s", what);
}

static airc_status same_dtypes(airc_kernel_ctx *k, const airc_tview *x, const airc_tview *y)
{
    return want(k, x->dtype == y->dtype && x->dtype == k->out[0].dtype,
                "operands and result must have the same dtype");
}

/* mm(self, mat2) */
static airc_status k_mm(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *y;
    AIRC_TRY(tensor_arg(k, 0, &x));
    AIRC_TRY(tensor_arg(k, 1, &y));
    const airc_tview *o = &k->out[0];
    AIRC_TRY(want(k, x->ndim == 2 && y->ndim == 2 && o->ndim == 2 && x->shape[1] == y->shape[0],
                  "expects 2-d operands with matching inner dims"));
    AIRC_TRY(same_dtypes(k, x, y));
    return airc_cpu_gemm(k, o->dtype, 1.0, mat_of(x, 0, 1), mat_of(y, 0, 1), 0.0, mat_of(o, 0, 1));
}

/* addmm's and baddbmm's start: the result holds self (or its number),
 * broadcast, unless beta is 0 (which ignores self, its NaNs too). */
static airc_status self_into(airc_kernel_ctx *k, int32_t ndim, double beta, const airc_tview *o)
{
    if (beta == 0)
        return AIRC_OK;
    if (k->in[0]) {
        airc_tview e;
        AIRC_TRY(want(k, airc_cpu_expand(k->in[0], o->shape, ndim, &e),
                      "self does not broadcast to the result"));
        return airc_cpu_copy_cast(o, &e);
    }
    airc_cpu_scalar v;
    bool present;
    AIRC_TRY(airc_cpu_arg_scalar(k, 0, &v, &present));
    airc_cpu_fill(o, &v);
    return AIRC_OK;
}

static airc_status self_into_out(airc_kernel_ctx *k, int32_t ndim, double beta)
{
    return self_into(k, ndim, beta, &k->out[0]);
}

/* addmm(self, mat1, mat2, *, beta=1, alpha=1): beta 0 ignores self (its
 * NaNs included), as torch does. */
static airc_status k_addmm(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *y;
    AIRC_TRY(tensor_arg(k, 1, &x));
    AIRC_TRY(tensor_arg(k, 2, &y));
    const airc_tview *o = &k->out[0];
    AIRC_TRY(want(k, x->ndim == 2 && y->ndim == 2 && o->ndim == 2 && x->shape[1] == y->shape[0],
                  "expects 2-d operands with matching inner dims"));
    AIRC_TRY(same_dtypes(k, x, y));
    double beta = airc_cpu_arg_double(k, 3, 1.0), alpha = airc_cpu_arg_double(k, 4, 1.0);
    AIRC_TRY(self_into_out(k, 2, beta));
    return airc_cpu_gemm(k, o->dtype, alpha, mat_of(x, 0, 1), mat_of(y, 0, 1), beta,
                         mat_of(o, 0, 1));
}

/* A contiguous f32 copy of t (freed with airc_free). */
static airc_status f32_copy(airc_kernel_ctx *k, const airc_tview *t, airc_tview *out)
{
    *out = *t;
    out->dtype = AIRC_DTYPE_F32;
    airc_cpu_set_contiguous(out);
    int64_t n = 1;
    for (int32_t d = 0; d < t->ndim; d++)
        n *= t->shape[d];
    out->data = airc_malloc(k->ctx, (size_t)(n > 0 ? n : 1) * sizeof(float));
    if (!out->data)
        return airc_cpu_oom(k, "an f32 copy");
    return t->data ? airc_cpu_copy_cast(out, t) : AIRC_OK;
}

/* relu (NaN kept) or the exact gelu of n contiguous floats, in place */
static void activation_f32(float *p, int64_t n, bool gelu)
{
    if (gelu)
        airc_cpu_gelu_f32(n, p, p);
    for (int64_t i = 0; !gelu && i < n; i++)
        p[i] = p[i] < 0 ? 0.0f : p[i];
}

/* _addmm_activation(self, mat1, mat2, *, beta, alpha, use_gelu): addmm,
 * then relu_ or the exact gelu_ of its result in place, as torch; bf16
 * and f16 (which torch's CPU addmm lacks) compute both in f32 and round
 * once. The meta refuses an integer gelu. */
static airc_status k_addmm_activation(airc_kernel_ctx *k, void *ud)
{
    const airc_tview *o = &k->out[0];
    bool gelu = airc_cpu_arg_bool(k, 5, false);
    int64_t n = 1;
    for (int32_t d = 0; d < o->ndim; d++)
        n *= o->shape[d];
    if (o->dtype == AIRC_DTYPE_BF16 || o->dtype == AIRC_DTYPE_F16) {
        const airc_tview *x, *y;
        AIRC_TRY(tensor_arg(k, 1, &x));
        AIRC_TRY(tensor_arg(k, 2, &y));
        AIRC_TRY(want(k, x->ndim == 2 && y->ndim == 2 && o->ndim == 2 && x->shape[1] == y->shape[0],
                      "expects 2-d operands with matching inner dims"));
        AIRC_TRY(same_dtypes(k, x, y));
        double beta = airc_cpu_arg_double(k, 3, 1.0), alpha = airc_cpu_arg_double(k, 4, 1.0);
        airc_tview t[3] = {{0}, {0}, {0}}, none = *o;
        none.data = NULL;
        airc_status st = f32_copy(k, x, &t[0]);
        if (st == AIRC_OK)
            st = f32_copy(k, y, &t[1]);
        if (st == AIRC_OK)
            st = f32_copy(k, &none, &t[2]);
        if (st == AIRC_OK)
            st = self_into(k, 2, beta, &t[2]);
        if (st == AIRC_OK)
            st = airc_cpu_gemm(k, AIRC_DTYPE_F32, alpha, mat_of(&t[0], 0, 1), mat_of(&t[1], 0, 1),
                               beta, mat_of(&t[2], 0, 1));
        if (st == AIRC_OK) {
            activation_f32(t[2].data, n, gelu);
            st = airc_cpu_copy_cast(o, &t[2]);
        }
        for (int i = 0; i < 3; i++)
            airc_free(k->ctx, t[i].data);
        return st;
    }
    AIRC_TRY(k_addmm(k, ud));
    AIRC_TRY(want(k, airc_cpu_is_contiguous(o), "expects a contiguous result"));
    if (o->dtype == AIRC_DTYPE_F32) {
        activation_f32(o->data, n, gelu);
        return AIRC_OK;
    }
    if (o->dtype == AIRC_DTYPE_F64) {
        double *p = o->data;
        for (int64_t i = 0; i < n; i++)
            p[i] = gelu ? 0.5 * p[i] * erfc(p[i] * -0.70710678118654752440) : p[i] < 0 ? 0.0 : p[i];
        return AIRC_OK;
    }
    AIRC_TRY(want(k, !gelu && !airc_cpu_dtype_is_float(o->dtype), "gelu of an integer result"));
    size_t es = airc_dtype_size(o->dtype);
    for (int64_t i = 0; i < n; i++) { /* relu of an integer: the negatives to 0 */
        char *p = (char *)o->data + i * (int64_t)es;
        if (airc_cpu_load_i64(p, o->dtype) < 0)
            airc_cpu_store_i64(p, o->dtype, 0);
    }
    return AIRC_OK;
}

/* o[b] = alpha * x[b] @ y[b] + beta * o[b], one GEMM per batch. */
static airc_status batched_gemm(airc_kernel_ctx *k, const airc_tview *x, const airc_tview *y,
                                double alpha, double beta)
{
    const airc_tview *o = &k->out[0];
    AIRC_TRY(want(k, x->ndim == 3 && y->ndim == 3 && o->ndim == 3 && x->shape[2] == y->shape[1] &&
                         x->shape[0] == y->shape[0] && o->shape[0] == x->shape[0],
                  "expects 3-d operands with matching batch and inner dims"));
    AIRC_TRY(same_dtypes(k, x, y));
    int64_t esz = (int64_t)airc_dtype_size(o->dtype);
    for (int64_t b = 0; b < o->shape[0]; b++) {
        airc_cpu_mat a = mat_of(x, 1, 2), bb = mat_of(y, 1, 2), c = mat_of(o, 1, 2);
        a.p += b * x->strides[0] * esz;
        bb.p += b * y->strides[0] * esz;
        c.p += b * o->strides[0] * esz;
        AIRC_TRY(airc_cpu_gemm(k, o->dtype, alpha, a, bb, beta, c));
    }
    return AIRC_OK;
}

/* bmm(self, mat2): one GEMM per batch. */
static airc_status k_bmm(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *y;
    AIRC_TRY(tensor_arg(k, 0, &x));
    AIRC_TRY(tensor_arg(k, 1, &y));
    return batched_gemm(k, x, y, 1.0, 0.0);
}

/* baddbmm(self, batch1, batch2, *, beta=1, alpha=1) */
static airc_status k_baddbmm(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *y;
    AIRC_TRY(tensor_arg(k, 1, &x));
    AIRC_TRY(tensor_arg(k, 2, &y));
    double beta = airc_cpu_arg_double(k, 3, 1.0), alpha = airc_cpu_arg_double(k, 4, 1.0);
    AIRC_TRY(want(k, k->out[0].ndim == 3, "expects a 3-d result"));
    AIRC_TRY(self_into_out(k, 3, beta));
    return batched_gemm(k, x, y, alpha, beta);
}

/* addbmm(self, batch1, batch2, *, beta=1, alpha=1) = beta self + alpha
 * sum_b batch1[b] @ batch2[b], as torch: self into the result, then one
 * GEMM per batch accumulating (beta first, then 1); no batch leaves
 * beta self (0 when beta is 0). */
static airc_status k_addbmm(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *y;
    AIRC_TRY(tensor_arg(k, 1, &x));
    AIRC_TRY(tensor_arg(k, 2, &y));
    const airc_tview *o = &k->out[0];
    AIRC_TRY(want(k,
                  x->ndim == 3 && y->ndim == 3 && o->ndim == 2 && x->shape[2] == y->shape[1] &&
                      x->shape[0] == y->shape[0] && o->shape[0] == x->shape[1] &&
                      o->shape[1] == y->shape[2],
                  "expects 3-d batches with matching batch and inner dims"));
    AIRC_TRY(same_dtypes(k, x, y));
    double beta = airc_cpu_arg_double(k, 3, 1.0), alpha = airc_cpu_arg_double(k, 4, 1.0);
    AIRC_TRY(self_into_out(k, 2, beta));
    airc_cpu_mat c = mat_of(o, 0, 1);
    if (x->shape[0] == 0) {
        airc_cpu_mat none = {x->data, o->shape[0], 0, 0, 0},
                     none_t = {y->data, 0, o->shape[1], 0, 0};
        return airc_cpu_gemm(k, o->dtype, alpha, none, none_t, beta, c);
    }
    int64_t esz = (int64_t)airc_dtype_size(o->dtype);
    for (int64_t b = 0; b < x->shape[0]; b++) {
        airc_cpu_mat a = mat_of(x, 1, 2), bb = mat_of(y, 1, 2);
        a.p += b * x->strides[0] * esz;
        bb.p += b * y->strides[0] * esz;
        AIRC_TRY(airc_cpu_gemm(k, o->dtype, alpha, a, bb, b ? 1.0 : beta, c));
    }
    return AIRC_OK;
}

/* addmv(self, mat, vec, *, beta=1, alpha=1): self (converted to mat's
 * dtype) into the result, then one GEMM with vec as a column. */
static airc_status k_addmv(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *v;
    AIRC_TRY(tensor_arg(k, 1, &x));
    AIRC_TRY(tensor_arg(k, 2, &v));
    AIRC_TRY(same_dtypes(k, x, v));
    const airc_tview *o = &k->out[0];
    AIRC_TRY(want(k,
                  x->ndim == 2 && v->ndim == 1 && o->ndim == 1 && x->shape[1] == v->shape[0] &&
                      o->shape[0] == x->shape[0],
                  "expects a matrix and a vector with matching sizes"));
    double beta = airc_cpu_arg_double(k, 3, 1.0), alpha = airc_cpu_arg_double(k, 4, 1.0);
    AIRC_TRY(self_into_out(k, 1, beta));
    airc_cpu_mat b = {v->data, v->shape[0], 1, v->strides[0], 0};
    airc_cpu_mat c = {o->data, o->shape[0], 1, o->strides[0], 0};
    return airc_cpu_gemm(k, o->dtype, alpha, mat_of(x, 0, 1), b, beta, c);
}

/* v rounded to dt (through a store), as torch's scalar_t arithmetic. */
static double round_to(airc_dtype dt, double v)
{
    if (dt == AIRC_DTYPE_F64)
        return v;
    uint64_t tmp;
    airc_cpu_store_f64(&tmp, dt, v);
    return airc_cpu_load_f64(&tmp, dt);
}

/* addr(self, vec1, vec2, *, beta=1, alpha=1) elementwise, as torch's
 * kernel: beta * self + (alpha * vec1[i]) * vec2[j] with beta and alpha
 * in the dtype and each operation rounded to it (beta 0: self ignored);
 * integers wrap; bools are (beta and self) or (alpha and vec1 and vec2). */
static airc_status k_addr(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *v1, *v2;
    AIRC_TRY(tensor_arg(k, 1, &v1));
    AIRC_TRY(tensor_arg(k, 2, &v2));
    const airc_tview *o = &k->out[0];
    AIRC_TRY(want(k,
                  v1->ndim == 1 && v2->ndim == 1 && o->ndim == 2 && o->shape[0] == v1->shape[0] &&
                      o->shape[1] == v2->shape[0],
                  "expects two vectors and their outer product's shape"));
    airc_dtype dt = o->dtype;
    double beta = round_to(dt, airc_cpu_arg_double(k, 3, 1.0));
    double alpha = round_to(dt, airc_cpu_arg_double(k, 4, 1.0));
    AIRC_TRY(self_into_out(k, 2, beta)); /* self in the result's dtype */
    bool fp = airc_cpu_dtype_is_float(dt);
    /* integer and bool results: beta and alpha are ints or bools (meta) */
    int64_t ib = fp ? 0 : airc_cpu_arg_int(k, 3, 1), ia = fp ? 0 : airc_cpu_arg_int(k, 4, 1);
    int64_t e1 = (int64_t)airc_dtype_size(v1->dtype), e2 = (int64_t)airc_dtype_size(v2->dtype),
            eo = (int64_t)airc_dtype_size(dt);
    for (int64_t i = 0; i < o->shape[0]; i++) {
        const char *p1 = (const char *)v1->data + i * v1->strides[0] * e1;
        for (int64_t j = 0; j < o->shape[1]; j++) {
            const char *p2 = (const char *)v2->data + j * v2->strides[0] * e2;
            char *po = (char *)o->data + (i * o->strides[0] + j * o->strides[1]) * eo;
            if (dt == AIRC_DTYPE_BOOL) {
                bool r = ia && airc_cpu_load_i64(p1, v1->dtype) && airc_cpu_load_i64(p2, v2->dtype);
                r = r || (ib && airc_cpu_load_i64(po, dt));
                airc_cpu_store_i64(po, dt, r);
            } else if (fp) {
                double a = round_to(dt, airc_cpu_load_f64(p1, v1->dtype));
                double b = round_to(dt, airc_cpu_load_f64(p2, v2->dtype));
                double r = round_to(dt, round_to(dt, alpha * a) * b);
                if (beta != 0)
                    r = round_to(dt, round_to(dt, beta * airc_cpu_load_f64(po, dt)) + r);
                airc_cpu_store_f64(po, dt, r);
            } else {
                uint64_t r = (uint64_t)ia * (uint64_t)airc_cpu_load_i64(p1, v1->dtype) *
                             (uint64_t)airc_cpu_load_i64(p2, v2->dtype);
                if (ib != 0)
                    r += (uint64_t)ib * (uint64_t)airc_cpu_load_i64(po, dt);
                airc_cpu_store_i64(po, dt, (int64_t)r);
            }
        }
    }
    return AIRC_OK;
}

/* mv(self, vec) and dot(self, tensor): one GEMM with the vector as a
 * column (and dot's self as a row). */
static airc_status k_mv(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *v;
    AIRC_TRY(tensor_arg(k, 0, &x));
    AIRC_TRY(tensor_arg(k, 1, &v));
    AIRC_TRY(same_dtypes(k, x, v));
    const airc_tview *o = &k->out[0];
    bool dot = x->ndim == 1;
    AIRC_TRY(want(k,
                  (x->ndim == 2 || dot) && v->ndim == 1 && o->ndim == x->ndim - 1 &&
                      x->shape[x->ndim - 1] == v->shape[0] && (dot || o->shape[0] == x->shape[0]),
                  "expects a matrix or vector and a vector with matching sizes"));
    airc_cpu_mat a = {x->data, 1, x->shape[0], 0, x->strides[0]};
    if (!dot)
        a = mat_of(x, 0, 1);
    airc_cpu_mat b = {v->data, v->shape[0], 1, v->strides[0], 0};
    airc_cpu_mat c = {o->data, a.rows, 1, dot ? 0 : o->strides[0], 0};
    return airc_cpu_gemm(k, o->dtype, 1.0, a, b, 0.0, c);
}

/* Dims [0, n) of t merge into one with a single stride (*stride). */
static bool merge_dims(const airc_tview *t, int32_t n, int64_t *stride)
{
    int64_t s = 1, expect = -1;
    for (int32_t i = n - 1; i >= 0; i--) {
        if (t->shape[i] == 1)
            continue;
        if (expect < 0)
            s = t->strides[i];
        else if (t->strides[i] != expect)
            return false;
        expect = t->strides[i] * t->shape[i];
    }
    *stride = s;
    return true;
}

static int64_t prod(const int64_t *v, int32_t n)
{
    int64_t p = 1;
    for (int32_t i = 0; i < n; i++)
        p *= v[i];
    return p;
}

/* matmul(self, other) with torch's rules: 1-d operands gain (and lose) a
 * unit dim, batch dims broadcast. When other has no batch dims, self's
 * batch folds into the rows of one GEMM where its strides allow. */
static airc_status k_matmul(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *y;
    AIRC_TRY(tensor_arg(k, 0, &x));
    AIRC_TRY(tensor_arg(k, 1, &y));
    AIRC_TRY(same_dtypes(k, x, y));
    const airc_tview *o = &k->out[0];
    int32_t xd = x->ndim, yd = y->ndim;
    AIRC_TRY(want(k, xd >= 1 && yd >= 1, "both arguments to matmul need to be at least 1D"));
    int32_t xb = xd > 2 ? xd - 2 : 0, yb = yd > 2 ? yd - 2 : 0;
    int32_t nb = o->ndim - (xd >= 2) - (yd >= 2);
    AIRC_TRY(want(k, nb >= 0 && nb >= xb && nb >= yb, "result dims do not match the operands"));
    int64_t esz = (int64_t)airc_dtype_size(o->dtype);
    airc_cpu_mat a = {x->data, 1, x->shape[xd - 1], 0, x->strides[xd - 1]};
    if (xd >= 2)
        a = mat_of(x, xd - 2, xd - 1);
    airc_cpu_mat b = {y->data, y->shape[0], 1, y->strides[0], 0};
    if (yd >= 2)
        b = mat_of(y, yd - 2, yd - 1);
    airc_cpu_mat c = {o->data, a.rows, b.cols, 0, 0};
    if (xd >= 2)
        c.rs = o->strides[nb];
    if (yd >= 2)
        c.cs = o->strides[o->ndim - 1];
    AIRC_TRY(want(k, a.cols == b.rows, "inner dims differ"));

    int64_t xs, os;
    if (yb == 0 && xb > 0 && merge_dims(x, xd - 1, &xs) &&
        merge_dims(o, o->ndim - (yd >= 2), &os)) {
        a.rows = prod(x->shape, xd - 1);
        a.rs = xs;
        c.rows = a.rows;
        c.rs = os;
        return airc_cpu_gemm(k, o->dtype, 1.0, a, b, 0.0, c);
    }
    int64_t nbatch = prod(o->shape, nb), idx[AIRC_MAX_DIMS] = {0};
    for (int64_t e = 0; e < nbatch; e++) {
        airc_cpu_mat ab = a, bb = b, cb = c;
        for (int32_t j = 0; j < nb; j++) {
            int32_t jx = j - (nb - xb), jy = j - (nb - yb);
            if (jx >= 0 && x->shape[jx] != 1)
                ab.p += idx[j] * x->strides[jx] * esz;
            if (jy >= 0 && y->shape[jy] != 1)
                bb.p += idx[j] * y->strides[jy] * esz;
            cb.p += idx[j] * o->strides[j] * esz;
        }
        AIRC_TRY(airc_cpu_gemm(k, o->dtype, 1.0, ab, bb, 0.0, cb));
        for (int32_t j = nb - 1; j >= 0; j--) {
            if (++idx[j] < o->shape[j])
                break;
            idx[j] = 0;
        }
    }
    return AIRC_OK;
}

/* linear(input, weight, bias=None) = input @ weight^T + bias, the leading
 * dims of input folded into the rows of one GEMM (through a contiguous
 * copy when its strides do not fold). A 1-d weight is torch 1.13's
 * matmul(input, weight): a [1, k] weight and a result with a unit last
 * dim. */
static airc_status k_linear(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *w;
    AIRC_TRY(tensor_arg(k, 0, &x));
    AIRC_TRY(tensor_arg(k, 1, &w));
    AIRC_TRY(same_dtypes(k, x, w));
    const airc_tview *o = &k->out[0];
    double beta = 0;
    if (k->nargs > 2 && k->in[2]) {
        airc_tview e;
        AIRC_TRY(want(k, airc_cpu_expand(k->in[2], o->shape, o->ndim, &e),
                      "bias does not broadcast to the result"));
        airc_cpu_copy(o, &e);
        beta = 1;
    }
    airc_tview w2, o2;
    if (w->ndim == 1 && x->ndim >= 1 && o->ndim == x->ndim - 1) {
        w2 = *w;
        w2.ndim = 2;
        w2.shape[0] = 1;
        w2.strides[0] = w->shape[0] * w->strides[0];
        w2.shape[1] = w->shape[0];
        w2.strides[1] = w->strides[0];
        o2 = *o;
        o2.shape[o2.ndim] = 1;
        o2.strides[o2.ndim++] = 1;
        w = &w2;
        o = &o2;
    }
    AIRC_TRY(want(k,
                  x->ndim >= 1 && w->ndim == 2 && o->ndim == x->ndim &&
                      x->shape[x->ndim - 1] == w->shape[1] && o->shape[o->ndim - 1] == w->shape[0],
                  "input, weight and result shapes do not match"));
    int32_t lead = x->ndim - 1;
    int64_t rows = prod(x->shape, lead), xs = 0, os = 0;
    airc_tview xin = *x;
    void *xmem = NULL;
    if (!merge_dims(x, lead, &xs)) {
        AIRC_TRY(airc_cpu_contiguous_copy(k, x, &xin, &xmem));
        xs = x->shape[lead];
    }
    airc_cpu_mat a = {xin.data, rows, x->shape[lead], xs, xin.strides[lead]};
    airc_cpu_mat b = {w->data, w->shape[1], w->shape[0], w->strides[1], w->strides[0]};
    airc_status st;
    if (merge_dims(o, lead, &os)) {
        airc_cpu_mat c = {o->data, rows, o->shape[lead], os, o->strides[lead]};
        st = airc_cpu_gemm(k, o->dtype, 1.0, a, b, beta, c);
    } else {
        /* a result layout whose rows do not fold: one GEMM per row */
        st = AIRC_OK;
        int64_t idx[AIRC_MAX_DIMS] = {0}, esz = (int64_t)airc_dtype_size(o->dtype);
        for (int64_t r = 0; r < rows && st == AIRC_OK; r++) {
            airc_cpu_mat ar = a, cr = {o->data, 1, o->shape[lead], 0, o->strides[lead]};
            ar.p += r * a.rs * esz;
            ar.rows = 1;
            for (int32_t j = 0; j < lead; j++)
                cr.p += idx[j] * o->strides[j] * esz;
            st = airc_cpu_gemm(k, o->dtype, 1.0, ar, b, beta, cr);
            for (int32_t j = lead - 1; j >= 0; j--) {
                if (++idx[j] < o->shape[j])
                    break;
                idx[j] = 0;
            }
        }
    }
    airc_free(k->ctx, xmem);
    return st;
}

/* Sorted by qualname (strcmp order); a test checks. */
const airc_cpu_kernel_entry airc_cpu_kernels_linalg[] = {
    {"aten._adaptive_avg_pool2d.default", airc_cpu_k_adaptive_avg_pool2d},
    {"aten._adaptive_avg_pool3d.default", airc_cpu_k_adaptive_avg_pool3d},
    {"aten._addmm_activation.default", k_addmm_activation},
    {"aten._assert_async.default", airc_cpu_k_assert_async},
    {"aten._cdist_forward.default", airc_cpu_k_cdist},
    {"aten._cholesky_solve_helper.default", airc_cpu_k_cholesky_solve},
    {"aten._compute_linear_combination.default", airc_cpu_k_linear_combination},
    {"aten._convolution.default", airc_cpu_k_convolution},
    {"aten._euclidean_dist.default", airc_cpu_k_euclidean_dist},
    {"aten._linalg_check_errors.default", airc_cpu_k_linalg_check_errors},
    {"aten._linalg_det.default", airc_cpu_k_linalg_det},
    {"aten._linalg_eigh.default", airc_cpu_k_linalg_eigh},
    {"aten._linalg_slogdet.default", airc_cpu_k_linalg_det},
    {"aten._linalg_solve_ex.default", airc_cpu_k_linalg_solve_ex},
    {"aten._linalg_svd.default", airc_cpu_k_linalg_svd},
    {"aten._native_multi_head_attention.default", airc_cpu_k_native_multi_head_attention},
    {"aten._pdist_forward.default", airc_cpu_k_pdist},
    {"aten._slow_conv2d_forward.default", airc_cpu_k_convolution},
    {"aten._transformer_encoder_layer_fwd.default", airc_cpu_k_transformer_encoder_layer_fwd},
    {"aten._trilinear.default", airc_cpu_k_trilinear},
    {"aten._upsample_bicubic2d_aa.default", airc_cpu_k_upsample_aa},
    {"aten._upsample_bicubic2d_aa.vec", airc_cpu_k_upsample_aa},
    {"aten._upsample_bilinear2d_aa.default", airc_cpu_k_upsample_aa},
    {"aten._upsample_bilinear2d_aa.vec", airc_cpu_k_upsample_aa},
    {"aten._upsample_nearest_exact1d.default", airc_cpu_k_upsample_nearest_exact},
    {"aten._upsample_nearest_exact1d.vec", airc_cpu_k_upsample_nearest_exact},
    {"aten._upsample_nearest_exact2d.default", airc_cpu_k_upsample_nearest_exact},
    {"aten._upsample_nearest_exact2d.vec", airc_cpu_k_upsample_nearest_exact},
    {"aten._upsample_nearest_exact3d.default", airc_cpu_k_upsample_nearest_exact},
    {"aten._upsample_nearest_exact3d.vec", airc_cpu_k_upsample_nearest_exact},
    {"aten.adaptive_avg_pool2d.default", airc_cpu_k_adaptive_avg_pool2d},
    {"aten.adaptive_max_pool2d.default", airc_cpu_k_adaptive_max_pool2d},
    {"aten.adaptive_max_pool3d.default", airc_cpu_k_adaptive_max_pool3d},
    {"aten.addbmm.default", k_addbmm},
    {"aten.addmm.default", k_addmm},
    {"aten.addmv.default", k_addmv},
    {"aten.addr.default", k_addr},
    {"aten.affine_grid_generator.default", airc_cpu_k_affine_grid_generator},
    {"aten.avg_pool2d.default", airc_cpu_k_avg_pool2d},
    {"aten.avg_pool3d.default", airc_cpu_k_avg_pool3d},
    {"aten.baddbmm.default", k_baddbmm},
    {"aten.bmm.default", k_bmm},
    {"aten.cholesky.default", airc_cpu_k_linalg_cholesky_ex},
    {"aten.cholesky_inverse.default", airc_cpu_k_cholesky_inverse},
    {"aten.cholesky_solve.default", airc_cpu_k_cholesky_solve},
    {"aten.col2im.default", airc_cpu_k_col2im},
    {"aten.conv_tbc.default", airc_cpu_k_conv_tbc},
    {"aten.convolution.default", airc_cpu_k_convolution},
    {"aten.dot.default", k_mv},
    {"aten.fractional_max_pool2d.default", airc_cpu_k_fractional_max_pool2d},
    {"aten.fractional_max_pool3d.default", airc_cpu_k_fractional_max_pool3d},
    {"aten.geqrf.default", airc_cpu_k_geqrf},
    {"aten.grid_sampler_2d.default", airc_cpu_k_grid_sampler_2d},
    {"aten.grid_sampler_3d.default", airc_cpu_k_grid_sampler_3d},
    {"aten.im2col.default", airc_cpu_k_im2col},
    {"aten.linalg_cholesky_ex.default", airc_cpu_k_linalg_cholesky_ex},
    {"aten.linalg_cross.default", airc_cpu_k_linalg_cross},
    {"aten.linalg_householder_product.default", airc_cpu_k_linalg_householder_product},
    {"aten.linalg_inv_ex.default", airc_cpu_k_linalg_inv_ex},
    {"aten.linalg_ldl_factor_ex.default", airc_cpu_k_linalg_ldl_factor_ex},
    {"aten.linalg_ldl_solve.default", airc_cpu_k_linalg_ldl_solve},
    {"aten.linalg_lstsq.default", airc_cpu_k_linalg_lstsq},
    {"aten.linalg_lu.default", airc_cpu_k_linalg_lu},
    {"aten.linalg_lu_factor_ex.default", airc_cpu_k_linalg_lu_factor_ex},
    {"aten.linalg_lu_solve.default", airc_cpu_k_linalg_lu_solve},
    {"aten.linalg_matrix_exp.default", airc_cpu_k_linalg_matrix_exp},
    {"aten.linalg_pinv.atol_rtol_tensor", airc_cpu_k_linalg_pinv},
    {"aten.linalg_qr.default", airc_cpu_k_linalg_qr},
    {"aten.linalg_solve_triangular.default", airc_cpu_k_linalg_solve_triangular},
    {"aten.linear.default", k_linear},
    {"aten.lu_unpack.default", airc_cpu_k_lu_unpack},
    {"aten.matmul.default", k_matmul},
    {"aten.max_pool2d_with_indices.default", airc_cpu_k_max_pool2d_with_indices},
    {"aten.max_pool3d_with_indices.default", airc_cpu_k_max_pool3d_with_indices},
    {"aten.max_unpool2d.default", airc_cpu_k_max_unpool2d},
    {"aten.max_unpool3d.default", airc_cpu_k_max_unpool3d},
    {"aten.mm.default", k_mm},
    {"aten.mv.default", k_mv},
    {"aten.ormqr.default", airc_cpu_k_ormqr},
    {"aten.slow_conv3d_forward.default", airc_cpu_k_convolution},
    {"aten.slow_conv_dilated2d.default", airc_cpu_k_convolution},
    {"aten.slow_conv_dilated3d.default", airc_cpu_k_convolution},
    {"aten.slow_conv_transpose2d.default", airc_cpu_k_convolution},
    {"aten.slow_conv_transpose3d.default", airc_cpu_k_convolution},
    {"aten.symeig.default", airc_cpu_k_symeig},
    {"aten.triangular_solve.default", airc_cpu_k_linalg_solve_triangular},
    {"aten.upsample_bicubic2d.default", airc_cpu_k_upsample_bicubic2d},
    {"aten.upsample_bicubic2d.vec", airc_cpu_k_upsample_bicubic2d},
    {"aten.upsample_bilinear2d.default", airc_cpu_k_upsample_linear},
    {"aten.upsample_bilinear2d.vec", airc_cpu_k_upsample_linear},
    {"aten.upsample_linear1d.default", airc_cpu_k_upsample_linear},
    {"aten.upsample_linear1d.vec", airc_cpu_k_upsample_linear},
    {"aten.upsample_nearest1d.default", airc_cpu_k_upsample_nearest},
    {"aten.upsample_nearest1d.vec", airc_cpu_k_upsample_nearest},
    {"aten.upsample_nearest2d.default", airc_cpu_k_upsample_nearest},
    {"aten.upsample_nearest2d.vec", airc_cpu_k_upsample_nearest},
    {"aten.upsample_nearest3d.default", airc_cpu_k_upsample_nearest},
    {"aten.upsample_nearest3d.vec", airc_cpu_k_upsample_nearest},
    {"aten.upsample_trilinear3d.default", airc_cpu_k_upsample_linear},
    {"aten.upsample_trilinear3d.vec", airc_cpu_k_upsample_linear},
    {"aten.vdot.default", k_mv},
};
const size_t airc_cpu_num_kernels_linalg =
    sizeof airc_cpu_kernels_linalg / sizeof airc_cpu_kernels_linalg[0];
