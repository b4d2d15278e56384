/* f32 GEMMs through oneDNN's sgemm (k_conv_dnnl.h): one OpenMP thread per
 * call, C split into row (or column) blocks over airc's pool. */
#include "backends/cpu/k_conv_dnnl.h"
#include "backends/cpu/parallel.h"

#ifdef AIRC_HAVE_DNNL
#include <dnnl.h>
#include <stdatomic.h>

typedef struct gemm {
    bool at, bt, by_rows;
    int64_t m, n, k, lda, ldb, ldc;
    float alpha, beta;
    const float *a, *b;
    float *c;
    atomic_bool failed;
} gemm;

/* rows (or columns) [b, e) of C */
static void gemm_chunk(void *arg, int64_t b, int64_t e)
{
    gemm *g = arg;
    const float *a = g->a, *bm = g->b;
    float *c = g->c;
    int64_t m = g->m, n = g->n;
    if (g->by_rows) { /* A's rows b..e: A^T's columns when transposed */
        a += g->at ? b : b * g->lda;
        c += b * g->ldc;
        m = e - b;
    } else { /* B's columns b..e: B^T's rows when transposed */
        bm += g->bt ? b * g->ldb : b;
        c += b;
        n = e - b;
    }
    if (!airc_cpu_dnnl_one_thread() ||
        dnnl_sgemm(g->at ? 'T' : 'N', g->bt ? 'T' : 'N', m, n, g->k, g->alpha, a, g->lda, bm,
                   g->ldb, g->beta, c, g->ldc) != dnnl_success)
        atomic_store(&g->failed, true);
}

bool airc_cpu_sgemm_dnnl(int32_t threads, bool at, bool bt, int64_t m, int64_t n, int64_t k,
                         float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
                         float beta, float *c, int64_t ldc)
{
    gemm g = {at, bt, m >= n, m, n, k, lda, ldb, ldc, alpha, beta, a, b, c, false};
    /* blocks of about a million multiply-adds, at least 16 rows / columns */
    int64_t other = (g.by_rows ? n : m) * (k > 0 ? k : 1);
    int64_t grain = airc_cpu_grain(other, (int64_t)1 << 20);
    if (grain < 16)
        grain = 16;
    airc_cpu_parallel_for(threads, g.by_rows ? m : n, grain, gemm_chunk, &g);
    return !atomic_load(&g.failed);
}

#else

bool airc_cpu_sgemm_dnnl(int32_t threads, bool at, bool bt, int64_t m, int64_t n, int64_t k,
                         float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
                         float beta, float *c, int64_t ldc)
{
    (void)threads, (void)at, (void)bt, (void)m, (void)n, (void)k, (void)alpha, (void)a, (void)lda,
        (void)b, (void)ldb, (void)beta, (void)c, (void)ldc;
    return false;
}

#endif
