/* LAPACK wrappers, batches and messages of the linear-algebra kernels
 * (k_lapack.h), and _linalg_check_errors. OpenBLAS exports LAPACK's
 * Fortran routines; their prototypes are here, LP64 (int), with the
 * hidden lengths of character arguments that gfortran passes last. */
#include "backends/cpu/k_lapack.h"

#include <cblas.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

typedef size_t flen; /* a character argument's hidden length */

void sgetrf_(const int *m, const int *n, float *a, const int *lda, int *ipiv, int *info);
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void sgetrs_(const char *trans, const int *n, const int *nrhs, const float *a, const int *lda,
             const int *ipiv, float *b, const int *ldb, int *info, flen);
void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda,
             const int *ipiv, double *b, const int *ldb, int *info, flen);
void spotrf_(const char *uplo, const int *n, float *a, const int *lda, int *info, flen);
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, flen);
void spotrs_(const char *uplo, const int *n, const int *nrhs, const float *a, const int *lda,
             float *b, const int *ldb, int *info, flen);
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda,
             double *b, const int *ldb, int *info, flen);
void spotri_(const char *uplo, const int *n, float *a, const int *lda, int *info, flen);
void dpotri_(const char *uplo, const int *n, double *a, const int *lda, int *info, flen);
void ssyevd_(const char *jobz, const char *uplo, const int *n, float *a, const int *lda, float *w,
             float *work, const int *lwork, int *iwork, const int *liwork, int *info, flen, flen);
void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
             double *work, const int *lwork, int *iwork, const int *liwork, int *info, flen, flen);
void sgesdd_(const char *jobz, const int *m, const int *n, float *a, const int *lda, float *s,
             float *u, const int *ldu, float *vt, const int *ldvt, float *work, const int *lwork,
             int *iwork, int *info, flen);
void dgesdd_(const char *jobz, const int *m, const int *n, double *a, const int *lda, double *s,
             double *u, const int *ldu, double *vt, const int *ldvt, double *work, const int *lwork,
             int *iwork, int *info, flen);
void sgeqrf_(const int *m, const int *n, float *a, const int *lda, float *tau, float *work,
             const int *lwork, int *info);
void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
             const int *lwork, int *info);
void sorgqr_(const int *m, const int *n, const int *k, float *a, const int *lda, const float *tau,
             float *work, const int *lwork, int *info);
void dorgqr_(const int *m, const int *n, const int *k, double *a, const int *lda, const double *tau,
             double *work, const int *lwork, int *info);

void ssyev_(const char *jobz, const char *uplo, const int *n, float *a, const int *lda, float *w,
            float *work, const int *lwork, int *info, flen, flen);
void dsyev_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
            double *work, const int *lwork, int *info, flen, flen);
void ssytrf_(const char *uplo, const int *n, float *a, const int *lda, int *ipiv, float *work,
             const int *lwork, int *info, flen);
void dsytrf_(const char *uplo, const int *n, double *a, const int *lda, int *ipiv, double *work,
             const int *lwork, int *info, flen);
void ssytrs_(const char *uplo, const int *n, const int *nrhs, const float *a, const int *lda,
             const int *ipiv, float *b, const int *ldb, int *info, flen);
void dsytrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda,
             const int *ipiv, double *b, const int *ldb, int *info, flen);
void sormqr_(const char *side, const char *trans, const int *m, const int *n, const int *k,
             const float *a, const int *lda, const float *tau, float *c, const int *ldc,
             float *work, const int *lwork, int *info, flen, flen);
void dormqr_(const char *side, const char *trans, const int *m, const int *n, const int *k,
             const double *a, const int *lda, const double *tau, double *c, const int *ldc,
             double *work, const int *lwork, int *info, flen, flen);
void sgels_(const char *trans, const int *m, const int *n, const int *nrhs, float *a,
            const int *lda, float *b, const int *ldb, float *work, const int *lwork, int *info,
            flen);
void dgels_(const char *trans, const int *m, const int *n, const int *nrhs, double *a,
            const int *lda, double *b, const int *ldb, double *work, const int *lwork, int *info,
            flen);
void sgelsy_(const int *m, const int *n, const int *nrhs, float *a, const int *lda, float *b,
             const int *ldb, int *jpvt, const float *rcond, int *rank, float *work,
             const int *lwork, int *info);
void dgelsy_(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b,
             const int *ldb, int *jpvt, const double *rcond, int *rank, double *work,
             const int *lwork, int *info);
void sgelsd_(const int *m, const int *n, const int *nrhs, float *a, const int *lda, float *b,
             const int *ldb, float *s, const float *rcond, int *rank, float *work, const int *lwork,
             int *iwork, int *info);
void dgelsd_(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b,
             const int *ldb, double *s, const double *rcond, int *rank, double *work,
             const int *lwork, int *iwork, int *info);
void sgelss_(const int *m, const int *n, const int *nrhs, float *a, const int *lda, float *b,
             const int *ldb, float *s, const float *rcond, int *rank, float *work, const int *lwork,
             int *info);
void dgelss_(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b,
             const int *ldb, double *s, const double *rcond, int *rank, double *work,
             const int *lwork, int *info);

static bool f32(airc_dtype dt)
{
    return dt == AIRC_DTYPE_F32;
}

int airc_la_getrf(airc_dtype dt, int m, int n, void *a, int lda, int *ipiv)
{
    int info = 0;
    if (f32(dt))
        sgetrf_(&m, &n, a, &lda, ipiv, &info);
    else
        dgetrf_(&m, &n, a, &lda, ipiv, &info);
    return info;
}

int airc_la_getrs(airc_dtype dt, char trans, int n, int nrhs, const void *a, int lda,
                  const int *ipiv, void *b, int ldb)
{
    int info = 0;
    if (f32(dt))
        sgetrs_(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1);
    else
        dgetrs_(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1);
    return info;
}

int airc_la_potrf(airc_dtype dt, char uplo, int n, void *a, int lda)
{
    int info = 0;
    if (f32(dt))
        spotrf_(&uplo, &n, a, &lda, &info, 1);
    else
        dpotrf_(&uplo, &n, a, &lda, &info, 1);
    return info;
}

int airc_la_potrs(airc_dtype dt, char uplo, int n, int nrhs, const void *a, int lda, void *b,
                  int ldb)
{
    int info = 0;
    if (f32(dt))
        spotrs_(&uplo, &n, &nrhs, a, &lda, b, &ldb, &info, 1);
    else
        dpotrs_(&uplo, &n, &nrhs, a, &lda, b, &ldb, &info, 1);
    return info;
}

int airc_la_potri(airc_dtype dt, char uplo, int n, void *a, int lda)
{
    int info = 0;
    if (f32(dt))
        spotri_(&uplo, &n, a, &lda, &info, 1);
    else
        dpotri_(&uplo, &n, a, &lda, &info, 1);
    return info;
}

void airc_la_trsm(airc_dtype dt, char side, char uplo, char trans, char diag, int m, int n,
                  const void *a, int lda, void *b, int ldb)
{
    enum CBLAS_SIDE s = side == 'L' ? CblasLeft : CblasRight;
    enum CBLAS_UPLO u = uplo == 'U' ? CblasUpper : CblasLower;
    enum CBLAS_TRANSPOSE t = trans == 'N' ? CblasNoTrans : CblasTrans;
    enum CBLAS_DIAG d = diag == 'U' ? CblasUnit : CblasNonUnit;
    if (!m || !n)
        return;
    if (f32(dt))
        cblas_strsm(CblasColMajor, s, u, t, d, m, n, 1.0f, a, lda, b, ldb);
    else
        cblas_dtrsm(CblasColMajor, s, u, t, d, m, n, 1.0, a, lda, b, ldb);
}

/* A workspace of the size LAPACK's query answered (at least min). */
static airc_status work_alloc(const airc_kernel_ctx *k, airc_dtype dt, double query, int min,
                              void **work, int *lwork)
{
    double q = query > min ? query : min;
    if (!(q < (double)INT_MAX))
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED, "LAPACK's workspace passes 2^31 items");
    *lwork = (int)q;
    *work = airc_la_alloc(k, dt, (size_t)*lwork, "LAPACK's workspace");
    return *work ? AIRC_OK : AIRC_E_OUT_OF_MEMORY;
}

/* The first item of a query's workspace, as a double. */
static double query_size(airc_dtype dt, const void *q)
{
    return f32(dt) ? (double)*(const float *)q : *(const double *)q;
}

airc_status airc_la_syevd(const airc_kernel_ctx *k, airc_dtype dt, char jobz, char uplo, int n,
                          void *a, int lda, void *w, int *info)
{
    double q[1];
    int iq = 0, lw = -1, liw = -1;
    if (f32(dt))
        ssyevd_(&jobz, &uplo, &n, a, &lda, w, (float *)q, &lw, &iq, &liw, info, 1, 1);
    else
        dsyevd_(&jobz, &uplo, &n, a, &lda, w, q, &lw, &iq, &liw, info, 1, 1);
    void *work;
    AIRC_TRY(work_alloc(k, dt, query_size(dt, q), 1, &work, &lw));
    liw = iq > 1 ? iq : 1;
    int *iwork = airc_malloc(k->ctx, (size_t)liw * sizeof *iwork);
    if (!iwork) {
        airc_free(k->ctx, work);
        return airc_cpu_oom(k, "LAPACK's workspace");
    }
    if (f32(dt))
        ssyevd_(&jobz, &uplo, &n, a, &lda, w, work, &lw, iwork, &liw, info, 1, 1);
    else
        dsyevd_(&jobz, &uplo, &n, a, &lda, w, work, &lw, iwork, &liw, info, 1, 1);
    airc_free(k->ctx, iwork);
    airc_free(k->ctx, work);
    return AIRC_OK;
}

airc_status airc_la_gesdd(const airc_kernel_ctx *k, airc_dtype dt, char jobz, int m, int n, void *a,
                          int lda, void *s, void *u, int ldu, void *vt, int ldvt, int *info)
{
    int mn = m < n ? m : n;
    int *iwork = airc_malloc(k->ctx, (size_t)(8 * (mn > 0 ? mn : 1)) * sizeof *iwork);
    if (!iwork)
        return airc_cpu_oom(k, "LAPACK's workspace");
    double q[1];
    int lw = -1;
    if (f32(dt))
        sgesdd_(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, (float *)q, &lw, iwork, info, 1);
    else
        dgesdd_(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, q, &lw, iwork, info, 1);
    void *work;
    airc_status st = work_alloc(k, dt, query_size(dt, q), 1, &work, &lw);
    if (st == AIRC_OK) {
        if (f32(dt))
            sgesdd_(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lw, iwork, info, 1);
        else
            dgesdd_(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lw, iwork, info, 1);
        airc_free(k->ctx, work);
    }
    airc_free(k->ctx, iwork);
    return st;
}

airc_status airc_la_geqrf(const airc_kernel_ctx *k, airc_dtype dt, int m, int n, void *a, int lda,
                          void *tau, int *info)
{
    double q[1];
    int lw = -1;
    if (f32(dt))
        sgeqrf_(&m, &n, a, &lda, tau, (float *)q, &lw, info);
    else
        dgeqrf_(&m, &n, a, &lda, tau, q, &lw, info);
    void *work;
    AIRC_TRY(work_alloc(k, dt, query_size(dt, q), 1, &work, &lw));
    if (f32(dt))
        sgeqrf_(&m, &n, a, &lda, tau, work, &lw, info);
    else
        dgeqrf_(&m, &n, a, &lda, tau, work, &lw, info);
    airc_free(k->ctx, work);
    return AIRC_OK;
}

airc_status airc_la_orgqr(const airc_kernel_ctx *k, airc_dtype dt, int m, int n, int kk, void *a,
                          int lda, const void *tau, int *info)
{
    double q[1];
    int lw = -1;
    if (f32(dt))
        sorgqr_(&m, &n, &kk, a, &lda, tau, (float *)q, &lw, info);
    else
        dorgqr_(&m, &n, &kk, a, &lda, tau, q, &lw, info);
    void *work;
    AIRC_TRY(work_alloc(k, dt, query_size(dt, q), 1, &work, &lw));
    if (f32(dt))
        sorgqr_(&m, &n, &kk, a, &lda, tau, work, &lw, info);
    else
        dorgqr_(&m, &n, &kk, a, &lda, tau, work, &lw, info);
    airc_free(k->ctx, work);
    return AIRC_OK;
}

int airc_la_sytrs(airc_dtype dt, char uplo, int n, int nrhs, const void *a, int lda,
                  const int *ipiv, void *b, int ldb)
{
    int info = 0;
    if (f32(dt))
        ssytrs_(&uplo, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1);
    else
        dsytrs_(&uplo, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1);
    return info;
}

airc_status airc_la_syev(const airc_kernel_ctx *k, airc_dtype dt, char jobz, char uplo, int n,
                         void *a, int lda, void *w, int *info)
{
    double q[1];
    int lw = -1;
    if (f32(dt))
        ssyev_(&jobz, &uplo, &n, a, &lda, w, (float *)q, &lw, info, 1, 1);
    else
        dsyev_(&jobz, &uplo, &n, a, &lda, w, q, &lw, info, 1, 1);
    void *work;
    AIRC_TRY(work_alloc(k, dt, query_size(dt, q), 1, &work, &lw));
    if (f32(dt))
        ssyev_(&jobz, &uplo, &n, a, &lda, w, work, &lw, info, 1, 1);
    else
        dsyev_(&jobz, &uplo, &n, a, &lda, w, work, &lw, info, 1, 1);
    airc_free(k->ctx, work);
    return AIRC_OK;
}

airc_status airc_la_sytrf(const airc_kernel_ctx *k, airc_dtype dt, char uplo, int n, void *a,
                          int lda, int *ipiv, int *info)
{
    double q[1];
    int lw = -1;
    if (f32(dt))
        ssytrf_(&uplo, &n, a, &lda, ipiv, (float *)q, &lw, info, 1);
    else
        dsytrf_(&uplo, &n, a, &lda, ipiv, q, &lw, info, 1);
    void *work;
    AIRC_TRY(work_alloc(k, dt, query_size(dt, q), 1, &work, &lw));
    if (f32(dt))
        ssytrf_(&uplo, &n, a, &lda, ipiv, work, &lw, info, 1);
    else
        dsytrf_(&uplo, &n, a, &lda, ipiv, work, &lw, info, 1);
    airc_free(k->ctx, work);
    return AIRC_OK;
}

airc_status airc_la_ormqr(const airc_kernel_ctx *k, airc_dtype dt, char side, char trans, int m,
                          int n, int kk, const void *a, int lda, const void *tau, void *c, int ldc,
                          int *info)
{
    double q[1];
    int lw = -1;
    if (f32(dt))
        sormqr_(&side, &trans, &m, &n, &kk, a, &lda, tau, c, &ldc, (float *)q, &lw, info, 1, 1);
    else
        dormqr_(&side, &trans, &m, &n, &kk, a, &lda, tau, c, &ldc, q, &lw, info, 1, 1);
    void *work;
    AIRC_TRY(work_alloc(k, dt, query_size(dt, q), 1, &work, &lw));
    if (f32(dt))
        sormqr_(&side, &trans, &m, &n, &kk, a, &lda, tau, c, &ldc, work, &lw, info, 1, 1);
    else
        dormqr_(&side, &trans, &m, &n, &kk, a, &lda, tau, c, &ldc, work, &lw, info, 1, 1);
    airc_free(k->ctx, work);
    return AIRC_OK;
}

/* One call of a least-squares driver (lwork -1: the workspace query). */
static void lstsq_call(airc_dtype dt, char driver, const airc_la_lstsq_args *l, void *work,
                       int lwork, int *iwork, int *info)
{
    float rf = (float)l->rcond;
    const int *m = &l->m, *n = &l->n, *r = &l->nrhs, *lda = &l->lda, *ldb = &l->ldb;
    bool s = f32(dt);
    switch (driver) {
    case 'g': /* gels */
        if (s)
            sgels_("N", m, n, r, l->a, lda, l->b, ldb, work, &lwork, info, 1);
        else
            dgels_("N", m, n, r, l->a, lda, l->b, ldb, work, &lwork, info, 1);
        break;
    case 'y':
        if (s)
            sgelsy_(m, n, r, l->a, lda, l->b, ldb, l->jpvt, &rf, l->rank, work, &lwork, info);
        else
            dgelsy_(m, n, r, l->a, lda, l->b, ldb, l->jpvt, &l->rcond, l->rank, work, &lwork, info);
        break;
    case 'd':
        if (s)
            sgelsd_(m, n, r, l->a, lda, l->b, ldb, l->s, &rf, l->rank, work, &lwork, iwork, info);
        else
            dgelsd_(m, n, r, l->a, lda, l->b, ldb, l->s, &l->rcond, l->rank, work, &lwork, iwork,
                    info);
        break;
    default: /* gelss */
        if (s)
            sgelss_(m, n, r, l->a, lda, l->b, ldb, l->s, &rf, l->rank, work, &lwork, info);
        else
            dgelss_(m, n, r, l->a, lda, l->b, ldb, l->s, &l->rcond, l->rank, work, &lwork, info);
    }
}

airc_status airc_la_lstsq_workspace(const airc_kernel_ctx *k, airc_dtype dt, char driver,
                                    const airc_la_lstsq_args *l, airc_la_lstsq_work *w)
{
    double q[1];
    int iq = 1, info = 0;
    memset(w, 0, sizeof *w);
    lstsq_call(dt, driver, l, q, -1, &iq, &info);
    AIRC_TRY(work_alloc(k, dt, query_size(dt, q), 1, &w->work, &w->lwork));
    w->iwork = airc_malloc(k->ctx, (size_t)(iq > 1 ? iq : 1) * sizeof *w->iwork);
    if (w->iwork)
        return AIRC_OK;
    airc_free(k->ctx, w->work);
    return airc_cpu_oom(k, "LAPACK's workspace");
}

int airc_la_lstsq(airc_dtype dt, char driver, const airc_la_lstsq_args *l,
                  const airc_la_lstsq_work *w)
{
    int info = 0;
    lstsq_call(dt, driver, l, w->work, w->lwork, w->iwork, &info);
    return info;
}

void airc_la_lstsq_free(const airc_kernel_ctx *k, airc_la_lstsq_work *w)
{
    airc_free(k->ctx, w->iwork);
    airc_free(k->ctx, w->work);
}

/* ---- batches ----------------------------------------------------------- */

void airc_la_batch_of(airc_la_batch *b, const airc_tview *t, int32_t tail)
{
    memset(b, 0, sizeof *b);
    b->nb = t->ndim > tail ? t->ndim - tail : 0;
    b->count = 1;
    for (int32_t i = 0; i < b->nb; i++) {
        b->shape[i] = t->shape[i];
        b->count *= t->shape[i];
    }
}

bool airc_la_next(airc_la_batch *b)
{
    return airc_cpu_next_index(b->idx, b->shape, b->nb);
}

airc_tview airc_la_at(const airc_tview *t, int32_t tail, const airc_la_batch *b)
{
    airc_tview r = *t;
    int32_t own = t->ndim - tail;
    int64_t off = 0;
    for (int32_t i = 0; i < own; i++) {
        int64_t j = b->idx[b->nb - own + i];
        if (t->shape[i] != 1)
            off += j * t->strides[i];
    }
    r.data = (char *)t->data + off * (int64_t)airc_dtype_size(t->dtype);
    r.ndim = tail;
    for (int32_t i = 0; i < tail; i++) {
        r.shape[i] = t->shape[own + i];
        r.strides[i] = t->strides[own + i];
    }
    return r;
}

airc_tview airc_la_colmajor(void *p, airc_dtype dt, int64_t rows, int64_t cols)
{
    airc_tview v = {.data = p, .dtype = dt, .ndim = 2};
    v.shape[0] = rows;
    v.shape[1] = cols;
    v.strides[0] = 1;
    v.strides[1] = rows > 1 ? rows : 1;
    return v;
}

airc_status airc_la_dims(const airc_kernel_ctx *k, const char *what, int64_t rows, int64_t cols,
                         size_t *elems)
{
    if (rows > INT_MAX || cols > INT_MAX || (rows && cols > INT_MAX / rows))
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED,
                             "%s of %" PRId64 " x %" PRId64 " passes LAPACK's 32-bit sizes", what,
                             rows, cols);
    *elems = (size_t)(rows * cols > 0 ? rows * cols : 1);
    return AIRC_OK;
}

void *airc_la_alloc(const airc_kernel_ctx *k, airc_dtype dt, size_t n, const char *what)
{
    void *p = airc_malloc(k->ctx, (n ? n : 1) * airc_dtype_size(dt));
    if (!p)
        airc_cpu_oom(k, what);
    return p;
}

airc_tview airc_la_load(const airc_tview *t, const airc_la_batch *b, void *buf, airc_dtype dt)
{
    airc_tview src = airc_la_at(t, 2, b);
    airc_tview dst = airc_la_colmajor(buf, dt, src.shape[0], src.shape[1]);
    airc_cpu_copy(&dst, &src);
    return dst;
}

void airc_la_store(const airc_tview *out, const airc_la_batch *b, const void *buf, int64_t ld)
{
    airc_tview dst = airc_la_at(out, 2, b);
    airc_tview src = airc_la_colmajor((void *)buf, out->dtype, dst.shape[0], dst.shape[1]);
    if (ld)
        src.strides[1] = ld;
    airc_cpu_copy(&dst, &src);
}

airc_status airc_la_buf(const airc_kernel_ctx *k, airc_la_bufs *s, int i, airc_dtype dt,
                        int64_t rows, int64_t cols, const char *what)
{
    size_t elems = 0;
    AIRC_TRY(airc_la_dims(k, what, rows, cols, &elems));
    s->p[i] = airc_la_alloc(k, dt, elems, what);
    return s->p[i] ? AIRC_OK : AIRC_E_OUT_OF_MEMORY;
}

void airc_la_bufs_free(const airc_kernel_ctx *k, airc_la_bufs *s)
{
    for (int i = 0; i < 4; i++)
        airc_free(k->ctx, s->p[i]);
}

void airc_la_read_pivots(const airc_tview *piv, int64_t count, int *ipiv, int64_t *lo, int64_t *hi)
{
    int64_t step = piv->strides[0] * (int64_t)airc_dtype_size(piv->dtype);
    for (int64_t i = 0; i < count; i++) {
        int64_t v = airc_cpu_load_i64((const char *)piv->data + i * step, piv->dtype);
        *lo = v < *lo ? v : *lo;
        *hi = v > *hi ? v : *hi;
        if (ipiv)
            ipiv[i] = v >= INT_MIN && v <= INT_MAX ? (int)v : 0;
    }
}

void airc_la_store_vector(const airc_tview *out, const airc_la_batch *b, const void *buf)
{
    airc_tview dst = airc_la_at(out, 1, b);
    airc_tview src = {.data = (void *)buf, .dtype = out->dtype, .ndim = 1, .shape = {dst.shape[0]}};
    src.strides[0] = 1;
    airc_cpu_copy(&dst, &src);
}

airc_tview airc_la_unsqueezed(const airc_tview *t)
{
    airc_tview r = *t;
    r.shape[r.ndim] = 1;
    r.strides[r.ndim] = 1;
    r.ndim++;
    return r;
}

bool airc_la_row_major(const airc_tview *a)
{
    return airc_cpu_is_contiguous(a);
}

/* ---- errors ------------------------------------------------------------ */

void airc_la_info_message(char *buf, size_t size, const char *api, int64_t batch, int32_t info)
{
    char where[64] = ":";
    if (batch >= 0)
        snprintf(where, sizeof where, ": (Batch element %" PRId64 "):", batch);
    if (strstr(api, "svd") && info == -4)
        snprintf(buf, size,
                 "%s%s The algorithm failed to converge because the input matrix contained "
                 "non-finite values.",
                 api, where);
    else if (info < 0)
        snprintf(buf, size,
                 "%s%s Argument %d has illegal value. Most certainly there is a bug in the "
                 "implementation calling the backend library.",
                 api, where, -info);
    else if (strstr(api, "inv"))
        snprintf(buf, size,
                 "%s%s The diagonal element %d is zero, the inversion could not be completed "
                 "because the input matrix is singular.",
                 api, where, info);
    else if (strstr(api, "solve"))
        snprintf(buf, size, "%s%s The solver failed because the input matrix is singular.", api,
                 where);
    else if (strstr(api, "cholesky"))
        snprintf(buf, size,
                 "%s%s The factorization could not be completed because the input is not "
                 "positive-definite (the leading minor of order %d is not positive-definite).",
                 api, where, info);
    else if (strstr(api, "svd"))
        snprintf(buf, size,
                 "%s%s The algorithm failed to converge because the input matrix is "
                 "ill-conditioned or has too many repeated singular values (error code: %d).",
                 api, where, info);
    else if (strstr(api, "eig") || strstr(api, "syevd"))
        snprintf(buf, size,
                 "%s%s The algorithm failed to converge because the input matrix is "
                 "ill-conditioned or has too many repeated eigenvalues (error code: %d).",
                 api, where, info);
    else if (strstr(api, "lstsq"))
        snprintf(buf, size,
                 "%s%s The least squares solution could not be computed because the input "
                 "matrix does not have full rank (error code: %d).",
                 api, where, info);
    else if (strstr(api, "lu_factor"))
        snprintf(buf, size,
                 "%s%s U[%d,%d] is zero and using it on lu_solve would result in a division by "
                 "zero. If you still want to perform the factorization, consider calling "
                 "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)",
                 api, where, info, info);
    else
        snprintf(buf, size, "%s%s Unknown error code: %d.", api, where, info);
}

airc_status airc_la_fail_info(const airc_kernel_ctx *k, const char *api, int64_t batch,
                              int32_t info)
{
    char msg[512];
    airc_la_info_message(msg, sizeof msg, api, batch, info);
    return airc_cpu_fail(k, AIRC_E_RUNTIME, "%s", msg);
}

airc_status airc_la_check_infos(const airc_kernel_ctx *k, const airc_tview *info, const char *api,
                                bool is_matrix)
{
    int64_t n = airc_cpu_numel(info);
    for (int64_t p = 0; p < n; p++) {
        int32_t v = ((const int32_t *)info->data)[airc_cpu_flat_offset(info, 0, p)];
        if (v && is_matrix && n != 1) /* torch reads a matrix's one info */
            return airc_cpu_fail(k, AIRC_E_RUNTIME,
                                 "a Tensor with %" PRId64 " elements cannot be converted to Scalar",
                                 n);
        if (v)
            return airc_la_fail_info(k, api, is_matrix ? -1 : p, v);
    }
    return AIRC_OK;
}

/* _linalg_check_errors(info, api_name, is_matrix): the first nonzero
 * info (one matrix's, or the first in the batch's flat order) raises
 * torch's message; all zeros pass, whatever their count (the meta
 * checked info's dtype). */
airc_status airc_cpu_k_linalg_check_errors(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *info = k->nargs > 0 && k->in ? k->in[0] : NULL;
    const airc_value *api = airc_kernel_arg(k, 1);
    if (!info || info->dtype != AIRC_DTYPE_I32 || !api || api->kind != AIRC_VALUE_STRING)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                             "info must be an int32 tensor and api_name a string");
    return airc_la_check_infos(k, info, api->u.s, airc_cpu_arg_bool(k, 2, false));
}

/* _assert_async(self): torch's is_nonzero of its one element (meta
 * checked the count): a zero (or false) raises torch's message; NaN is
 * nonzero. */
airc_status airc_cpu_k_assert_async(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *t = k->nargs > 0 && k->in ? k->in[0] : NULL;
    if (!t || airc_cpu_numel(t) != 1)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "self must be a one-element tensor");
    int64_t idx[AIRC_MAX_DIMS] = {0};
    const char *p = airc_cpu_at(t, idx);
    bool nonzero = airc_cpu_dtype_is_float(t->dtype) ? airc_cpu_load_f64(p, t->dtype) != 0
                                                     : airc_cpu_load_i64(p, t->dtype) != 0;
    if (!nonzero)
        return airc_cpu_fail(k, AIRC_E_RUNTIME,
                             "Expected Tensor with single nonzero value, but got zero");
    return AIRC_OK;
}
