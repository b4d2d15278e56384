/* linalg_lstsq on LAPACK's least-squares drivers, as torch 1.13 calls
 * them: gelsy (the CPU default), gels, gelsd and gelss, each matrix and
 * right-hand side copied to column-major scratch (B's of max(m, n) rows,
 * whose first n rows are the solution); the residuals (m > n, drivers but
 * gelsy) the sums of squares of the rows past n. gelsy's column pivots
 * start free (zeros); torch 1.13 hands it an uninitialized array, so its
 * solution of a rank-deficient system varies from call to call (batched
 * or not), while airc's is LAPACK's documented one. */
#include "backends/cpu/k_lapack.h"
#include "ops/meta_util.h"

#include <float.h>
#include <inttypes.h>
#include <string.h>

typedef struct lstsq_call {
    const airc_tview *a, *b; /* B with its unit column where a vector */
    airc_tview sol;          /* likewise */
    char driver;             /* 'y' gelsy, 'g' gels, 'd' gelsd, 's' gelss */
    double rcond;
} lstsq_call;

/* The residuals of the solve at the batch's index: each column's sum of
 * squares over rows [n, m) of the solved buffer, in the dtype as torch's
 * pow_ and sum (the squares rounded, their sum in double, rounded). */
static void residuals(const airc_tview *res, const airc_la_batch *b, const void *buf, int64_t ld,
                      int64_t n, int64_t m)
{
    airc_tview r = airc_la_at(res, 1, b);
    size_t esz = airc_dtype_size(res->dtype);
    for (int64_t j = 0; j < r.shape[0]; j++) {
        double sum = 0;
        for (int64_t i = n; i < m; i++) {
            double v =
                airc_cpu_load_f64((const char *)buf + (j * ld + i) * (int64_t)esz, res->dtype);
            sum += res->dtype == AIRC_DTYPE_F32 ? (double)(float)(v * v) : v * v;
        }
        airc_cpu_store_f64((char *)r.data + j * r.strides[0] * (int64_t)esz, res->dtype, sum);
    }
}

static airc_status run(airc_kernel_ctx *k, const lstsq_call *c, const airc_tview *res,
                       const airc_tview *rank, const airc_tview *sv)
{
    const airc_tview *a = c->a;
    airc_dtype dt = a->dtype;
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    int64_t nrhs = c->sol.shape[c->sol.ndim - 1], rows = m > n ? m : n, kk = m < n ? m : n;
    bool want_res = airc_cpu_numel(res) > 0, want_sv = c->driver == 'd' || c->driver == 's';
    if (c->driver == 'd' && m && n && !nrhs) /* torch's call fails (slalsd's NRHS) */
        return airc_la_fail_info(k, "torch.linalg.lstsq", -1, -4);
    airc_la_bufs s = {{0}};
    airc_status st = airc_la_buf(k, &s, 0, dt, m, n, "a matrix");
    if (st == AIRC_OK)
        st = airc_la_buf(k, &s, 1, dt, rows, nrhs, "the right-hand side");
    if (st == AIRC_OK)
        st = airc_la_buf(k, &s, 2, dt, kk, 1, "the singular values");
    int *jpvt = st == AIRC_OK ? airc_malloc(k->ctx, (size_t)(n + 1) * sizeof *jpvt) : NULL;
    if (st == AIRC_OK && !jpvt)
        st = airc_cpu_oom(k, "the column pivots");
    int r = 0;
    int64_t ldb = rows > 1 ? rows : 1;
    airc_la_lstsq_args l = {(int)m,   (int)n, (int)nrhs, (int)(m > 1 ? m : 1),
                            (int)ldb, s.p[0], s.p[1],    s.p[2],
                            jpvt,     &r,     c->rcond};
    airc_la_lstsq_work w = {0};
    if (st == AIRC_OK && m && n)
        st = airc_la_lstsq_workspace(k, dt, c->driver, &l, &w);
    size_t esz = airc_dtype_size(dt);
    airc_la_batch b;
    airc_la_batch_of(&b, &c->sol, 2);
    for (int64_t p = 0; p < b.count && st == AIRC_OK; p++, airc_la_next(&b)) {
        airc_la_load(a, &b, s.p[0], dt);
        memset(s.p[1], 0, (size_t)(rows * nrhs) * esz);
        airc_tview bm = airc_la_at(c->b, 2, &b);
        airc_tview dst = airc_la_colmajor(s.p[1], dt, m, nrhs);
        dst.strides[1] = ldb;
        airc_cpu_copy(&dst, &bm);
        memset(jpvt, 0, (size_t)(n + 1) * sizeof *jpvt); /* all columns free */
        r = 0;
        int info = m && n ? airc_la_lstsq(dt, c->driver, &l, &w) : 0;
        if (st == AIRC_OK && info)
            st = airc_la_fail_info(k, "torch.linalg.lstsq", a->ndim == 2 ? -1 : p, info);
        if (st != AIRC_OK)
            break;
        airc_la_store(&c->sol, &b, s.p[1], dst.strides[1]);
        if (rank->ndim == a->ndim - 2 && c->driver != 'g')
            *(int64_t *)airc_la_at(rank, 0, &b).data = r;
        if (want_sv)
            airc_la_store_vector(sv, &b, s.p[2]);
        if (!want_res)
            continue;
        /* gelsd / gelss: torch's residuals only where every matrix has full
         * rank; otherwise a [0] tensor, which airc's graph cannot hold */
        if (want_sv && r != n)
            st = airc_cpu_fail(k, AIRC_E_UNSUPPORTED,
                               "torch.linalg.lstsq: the matrix has rank %d < n = %" PRId64
                               " where driver %s computes the residuals: torch then returns "
                               "none, a result shape that depends on the values (the graph "
                               "holds them for full rank); use driver 'gelsy' or 'gels', or "
                               "compute the residuals from the solution",
                               r, n, c->driver == 'd' ? "gelsd" : "gelss");
        else
            residuals(res, &b, s.p[1], dst.strides[1], n, m);
    }
    airc_la_lstsq_free(k, &w);
    airc_free(k->ctx, jpvt);
    airc_la_bufs_free(k, &s);
    return st;
}

/* linalg_lstsq(A, B, rcond, *, driver) -> (solution, residuals, rank,
 * singular_values). rcond defaults to the dtype's eps times max(m, n). */
airc_status airc_cpu_k_linalg_lstsq(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL, *b = k->in ? k->in[1] : NULL;
    if (!a || !b || a->ndim < 2 || b->ndim < 1 || b->ndim >= AIRC_MAX_DIMS || k->nout != 4)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A and B must be tensors");
    const airc_value *dv = airc_kernel_arg(k, 3);
    lstsq_call c = {a, b, k->out[0], 0, 0};
    c.driver = airc_lstsq_driver(dv && dv->kind == AIRC_VALUE_STRING ? dv->u.s : NULL);
    if (!c.driver)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "unknown driver");
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    double eps = a->dtype == AIRC_DTYPE_F32 ? FLT_EPSILON : DBL_EPSILON;
    c.rcond = airc_cpu_arg_double(k, 2, eps * (double)(m > n ? m : n));
    airc_tview bu;
    if (airc_linalg_vector_rhs(a->shape, a->ndim, b->shape, b->ndim)) {
        bu = airc_la_unsqueezed(b);
        c.b = &bu;
        c.sol = airc_la_unsqueezed(&k->out[0]);
    }
    return run(k, &c, &k->out[1], &k->out[2], &k->out[3]);
}
