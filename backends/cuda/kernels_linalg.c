/* CUDA kernels, linalg family (f32): mm and bmm through cuBLAS (strided
 * batched for bmm), on the cuBLAS handle of the launch's stream.
 *
 * cuBLAS is column-major. A row-major matrix with leading stride ld is its
 * transpose in column-major with the same ld, so each operand is either
 * used as stored (op N) or transposed (op T), and a row-major result is
 * computed as C^T = B^T A^T. Operands must be row- or column-contiguous
 * (contiguous, or the transpose of a contiguous matrix); anything else is
 * AIRC_E_UNSUPPORTED with a message (phase 2 may copy it first). */
#include "backends/cpu/k_strided.h"
#include "backends/cuda/cuda_internal.h"

#include <limits.h>

/* A matrix (dims dr, dc of t) as cuBLAS sees its storage. */
typedef struct mat {
    bool row_major; /* element (r, c) at r * ld + c; else at r + c * ld */
    int ld;
} mat;

static bool fits_int(int64_t v)
{
    return v >= 0 && v <= INT_MAX;
}

static bool describe(const airc_tview *t, int32_t dr, int32_t dc, mat *m)
{
    int64_t R = t->shape[dr], C = t->shape[dc], sr = t->strides[dr], sc = t->strides[dc];
    if ((sc == 1 || C == 1) && (R == 1 || sr >= C)) {
        int64_t ld = R == 1 ? (C > 1 ? C : 1) : sr;
        m->row_major = true;
        m->ld = (int)ld;
        return fits_int(ld) && ld >= 1;
    }
    if ((sr == 1 || R == 1) && (C == 1 || sc >= R)) {
        int64_t ld = C == 1 ? (R > 1 ? R : 1) : sc;
        m->row_major = false;
        m->ld = (int)ld;
        return fits_int(ld) && ld >= 1;
    }
    return false;
}

static airc_status layout(const airc_kernel_ctx *k, const airc_tview *t, int32_t dr, mat *m,
                          const char *what)
{
    if (t->dtype != AIRC_DTYPE_F32)
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED, "%s is %s: the CUDA kernels take float32 only",
                             what, airc_dtype_name(t->dtype));
    if (describe(t, dr, dr + 1, m))
        return AIRC_OK;
    return airc_cpu_fail(k, AIRC_E_UNSUPPORTED,
                         "%s has strides (%lld, %lld) for shape (%lld, %lld): cuBLAS needs a "
                         "contiguous or transposed-contiguous matrix",
                         what, (long long)t->strides[dr], (long long)t->strides[dr + 1],
                         (long long)t->shape[dr], (long long)t->shape[dr + 1]);
}

/* C[b] = A[b] B[b] for b < batch (batch strides in elements; mm: batch 1).
 * A is m x kk, B kk x n, C m x n; dr is the row dimension in each view. */
static airc_status gemm(airc_kernel_ctx *k, const airc_tview *A, const airc_tview *B, airc_tview *C,
                        int32_t dr, int64_t batch, int64_t sa, int64_t sb, int64_t sc)
{
    airc_cuda_stream *s = NULL;
    AIRC_TRY(airc_cuda_kernel_stream(k, &s));
    mat ma, mb, mc;
    AIRC_TRY(layout(k, A, dr, &ma, "argument 0"));
    AIRC_TRY(layout(k, B, dr, &mb, "argument 1"));
    AIRC_TRY(layout(k, C, dr, &mc, "the result"));
    int64_t m = A->shape[dr], kk = A->shape[dr + 1], n = B->shape[dr + 1];
    if (B->shape[dr] != kk || C->shape[dr] != m || C->shape[dr + 1] != n)
        return airc_cpu_fail(k, AIRC_E_RUNTIME,
                             "shapes (%lld x %lld) @ (%lld x %lld) -> (%lld x %lld) do not match",
                             (long long)m, (long long)kk, (long long)B->shape[dr], (long long)n,
                             (long long)C->shape[dr], (long long)C->shape[dr + 1]);
    if (!fits_int(m) || !fits_int(n) || !fits_int(kk) || !fits_int(batch))
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED, "sizes beyond cuBLAS's int range");
    if (m == 0 || n == 0 || batch == 0)
        return AIRC_OK;
    const float one = 1.0f, zero = 0.0f;
    const float *a = A->data, *b = B->data;
    float *c = C->data;
    cublasStatus_t st = 0;
    if (mc.row_major) {
        /* C^T (n x m, column-major, ld mc.ld) = B^T A^T */
        cublasOperation_t ob = mb.row_major ? CUBLAS_OP_N : CUBLAS_OP_T;
        cublasOperation_t oa = ma.row_major ? CUBLAS_OP_N : CUBLAS_OP_T;
        if (batch == 1)
            st = cublasSgemm(s->blas, ob, oa, (int)n, (int)m, (int)kk, &one, b, mb.ld, a, ma.ld,
                             &zero, c, mc.ld);
        else
            st = cublasSgemmStridedBatched(s->blas, ob, oa, (int)n, (int)m, (int)kk, &one, b, mb.ld,
                                           sb, a, ma.ld, sa, &zero, c, mc.ld, sc, (int)batch);
    } else {
        /* C (m x n, column-major) = A B */
        cublasOperation_t oa = ma.row_major ? CUBLAS_OP_T : CUBLAS_OP_N;
        cublasOperation_t ob = mb.row_major ? CUBLAS_OP_T : CUBLAS_OP_N;
        if (batch == 1)
            st = cublasSgemm(s->blas, oa, ob, (int)m, (int)n, (int)kk, &one, a, ma.ld, b, mb.ld,
                             &zero, c, mc.ld);
        else
            st = cublasSgemmStridedBatched(s->blas, oa, ob, (int)m, (int)n, (int)kk, &one, a, ma.ld,
                                           sa, b, mb.ld, sb, &zero, c, mc.ld, sc, (int)batch);
    }
    if (st != CUBLAS_STATUS_SUCCESS)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "%s failed: %s (%s)",
                             batch == 1 ? "cublasSgemm" : "cublasSgemmStridedBatched",
                             cublasGetStatusString(st), cublasGetStatusName(st));
    return AIRC_OK;
}

static airc_status two_tensors(const airc_kernel_ctx *k, int32_t ndim, const airc_tview **a,
                               const airc_tview **b)
{
    *a = k->nargs > 0 ? k->in[0] : NULL;
    *b = k->nargs > 1 ? k->in[1] : NULL;
    if (!*a || !*b)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "arguments 0 and 1 must be tensors");
    if ((*a)->ndim != ndim || (*b)->ndim != ndim || k->out[0].ndim != ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "expected %d-d tensors, got %d-d and %d-d",
                             (int)ndim, (int)(*a)->ndim, (int)(*b)->ndim);
    return AIRC_OK;
}

/* mm(self, mat2) */
static airc_status k_mm(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a, *b;
    AIRC_TRY(two_tensors(k, 2, &a, &b));
    return gemm(k, a, b, &k->out[0], 0, 1, 0, 0, 0);
}

/* bmm(self, mat2): one strided-batched call; a batch stride of 0 (an
 * expanded operand) is fine for the inputs. */
static airc_status k_bmm(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a, *b;
    AIRC_TRY(two_tensors(k, 3, &a, &b));
    airc_tview *c = &k->out[0];
    int64_t batch = c->shape[0];
    if (a->shape[0] != batch || b->shape[0] != batch)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "batch sizes %lld and %lld differ",
                             (long long)a->shape[0], (long long)b->shape[0]);
    if (batch > 1 && c->strides[0] == 0)
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED, "the result has batch stride 0");
    return gemm(k, a, b, c, 1, batch, a->strides[0], b->strides[0], c->strides[0]);
}

const airc_cuda_kernel_entry airc_cuda_kernels_linalg[] = {
    {"aten.bmm.default", k_bmm},
    {"aten.mm.default", k_mm},
};
const size_t airc_cuda_num_kernels_linalg =
    sizeof airc_cuda_kernels_linalg / sizeof airc_cuda_kernels_linalg[0];
