/* The linear-algebra kernels on LAPACK (OpenBLAS's, the one torch 1.13 in
 * Debian calls, so that factorizations, pivots and the signs of singular
 * and eigen vectors come out as torch's): f32 / f64 wrappers of the
 * routines they call, batches of matrices, column-major scratch copies,
 * and torch's messages for a failed factorization. */
#ifndef AIRC_CPU_K_LAPACK_H
#define AIRC_CPU_K_LAPACK_H

#include "backends/cpu/k_linalg_impl.h"

/* ---- routines (f32 or f64 by dtype; return LAPACK's info) -------------- */

AIRC_HIDDEN int airc_la_getrf(airc_dtype dt, int m, int n, void *a, int lda, int *ipiv);
AIRC_HIDDEN int airc_la_getrs(airc_dtype dt, char trans, int n, int nrhs, const void *a, int lda,
                              const int *ipiv, void *b, int ldb);
AIRC_HIDDEN int airc_la_potrf(airc_dtype dt, char uplo, int n, void *a, int lda);
AIRC_HIDDEN int airc_la_potrs(airc_dtype dt, char uplo, int n, int nrhs, const void *a, int lda,
                              void *b, int ldb);
AIRC_HIDDEN int airc_la_potri(airc_dtype dt, char uplo, int n, void *a, int lda);
/* B = op(A)^-1 B (side 'L') or B op(A)^-1 ('R'), BLAS trsm with alpha 1 */
AIRC_HIDDEN void airc_la_trsm(airc_dtype dt, char side, char uplo, char trans, char diag, int m,
                              int n, const void *a, int lda, void *b, int ldb);

/* The routines that take a workspace query it and allocate it from the
 * context (AIRC_E_OUT_OF_MEMORY through k); *info receives LAPACK's. */
AIRC_HIDDEN airc_status airc_la_syevd(const airc_kernel_ctx *k, airc_dtype dt, char jobz, char uplo,
                                      int n, void *a, int lda, void *w, int *info);
AIRC_HIDDEN airc_status airc_la_gesdd(const airc_kernel_ctx *k, airc_dtype dt, char jobz, int m,
                                      int n, void *a, int lda, void *s, void *u, int ldu, void *vt,
                                      int ldvt, int *info);
AIRC_HIDDEN airc_status airc_la_geqrf(const airc_kernel_ctx *k, airc_dtype dt, int m, int n,
                                      void *a, int lda, void *tau, int *info);
AIRC_HIDDEN airc_status airc_la_orgqr(const airc_kernel_ctx *k, airc_dtype dt, int m, int n, int kk,
                                      void *a, int lda, const void *tau, int *info);

AIRC_HIDDEN int airc_la_sytrs(airc_dtype dt, char uplo, int n, int nrhs, const void *a, int lda,
                              const int *ipiv, void *b, int ldb);
AIRC_HIDDEN airc_status airc_la_syev(const airc_kernel_ctx *k, airc_dtype dt, char jobz, char uplo,
                                     int n, void *a, int lda, void *w, int *info);
AIRC_HIDDEN airc_status airc_la_sytrf(const airc_kernel_ctx *k, airc_dtype dt, char uplo, int n,
                                      void *a, int lda, int *ipiv, int *info);
AIRC_HIDDEN airc_status airc_la_ormqr(const airc_kernel_ctx *k, airc_dtype dt, char side,
                                      char trans, int m, int n, int kk, const void *a, int lda,
                                      const void *tau, void *c, int ldc, int *info);

/* A least-squares call: A (m x n, leading dimension lda) and B (nrhs
 * columns of ldb >= max(m, n) rows) overwritten; jpvt (gelsy, n zeros),
 * s (gelsd / gelss, min(m, n) singular values), rank (not gels). */
typedef struct airc_la_lstsq_args {
    int m, n, nrhs, lda, ldb;
    void *a, *b, *s;
    int *jpvt, *rank;
    double rcond;
} airc_la_lstsq_args;
/* The workspace of a driver's calls of these sizes ('g' gels, 'y' gelsy,
 * 'd' gelsd, 's' gelss): queried once, kept for every matrix of a batch */
typedef struct airc_la_lstsq_work {
    void *work;
    int lwork;
    int *iwork;
} airc_la_lstsq_work;
AIRC_HIDDEN airc_status airc_la_lstsq_workspace(const airc_kernel_ctx *k, airc_dtype dt,
                                                char driver, const airc_la_lstsq_args *l,
                                                airc_la_lstsq_work *w);
/* One call; returns LAPACK's info */
AIRC_HIDDEN int airc_la_lstsq(airc_dtype dt, char driver, const airc_la_lstsq_args *l,
                              const airc_la_lstsq_work *w);
AIRC_HIDDEN void airc_la_lstsq_free(const airc_kernel_ctx *k, airc_la_lstsq_work *w);

/* ---- batches ----------------------------------------------------------- */

/* The batch dims of a call (the broadcast of its operands'): shape[0..nb)
 * and the current index, stepped with airc_la_next. */
typedef struct airc_la_batch {
    int32_t nb;
    int64_t shape[AIRC_MAX_DIMS];
    int64_t idx[AIRC_MAX_DIMS];
    int64_t count;
} airc_la_batch;

/* A batch over t's dims but its last `tail`. */
AIRC_HIDDEN void airc_la_batch_of(airc_la_batch *b, const airc_tview *t, int32_t tail);
AIRC_HIDDEN bool airc_la_next(airc_la_batch *b);
/* t's last `tail` dims at the batch's index (t's batch dims aligned to the
 * batch's last ones; a size-1 dim broadcasts). */
AIRC_HIDDEN airc_tview airc_la_at(const airc_tview *t, int32_t tail, const airc_la_batch *b);
/* A column-major rows x cols matrix at p (leading dimension max(rows, 1)). */
AIRC_HIDDEN airc_tview airc_la_colmajor(void *p, airc_dtype dt, int64_t rows, int64_t cols);
/* The element count of a rows x cols scratch matrix; AIRC_E_UNSUPPORTED
 * when a size passes LAPACK's int (`what` names the matrix). */
AIRC_HIDDEN airc_status airc_la_dims(const airc_kernel_ctx *k, const char *what, int64_t rows,
                                     int64_t cols, size_t *elems);
/* n elements of dtype dt from the context allocator, or NULL after
 * airc_cpu_oom(k, what). */
AIRC_HIDDEN void *airc_la_alloc(const airc_kernel_ctx *k, airc_dtype dt, size_t n,
                                const char *what);
/* t's matrix at the batch's index copied into column-major scratch of
 * dtype dt (its view returned). */
AIRC_HIDDEN airc_tview airc_la_load(const airc_tview *t, const airc_la_batch *b, void *buf,
                                    airc_dtype dt);
/* A column-major scratch matrix (leading dimension ld; 0: its rows) into
 * out's matrix at the batch's index. */
AIRC_HIDDEN void airc_la_store(const airc_tview *out, const airc_la_batch *b, const void *buf,
                               int64_t ld);

/* A contiguous scratch vector into out's last dim at the batch's index */
AIRC_HIDDEN void airc_la_store_vector(const airc_tview *out, const airc_la_batch *b,
                                      const void *buf);
/* t with a trailing dim of size 1 (a vector right-hand side; t->ndim <
 * AIRC_MAX_DIMS) */
AIRC_HIDDEN airc_tview airc_la_unsqueezed(const airc_tview *t);

/* Scratch blocks of one kernel call, freed together. */
typedef struct airc_la_bufs {
    void *p[4];
} airc_la_bufs;
/* s->p[i]: rows x cols elements of dt (AIRC_E_UNSUPPORTED past LAPACK's
 * int, AIRC_E_OUT_OF_MEMORY; `what` names it) */
AIRC_HIDDEN airc_status airc_la_buf(const airc_kernel_ctx *k, airc_la_bufs *s, int i, airc_dtype dt,
                                    int64_t rows, int64_t cols, const char *what);
AIRC_HIDDEN void airc_la_bufs_free(const airc_kernel_ctx *k, airc_la_bufs *s);

/* A row of count pivots (a 1-d view of any integer type) into ipiv (NULL:
 * not stored; a value past int stored as 0), widening the range [*lo,
 * *hi] seen: the callers check it before LAPACK reads rows by them. */
AIRC_HIDDEN void airc_la_read_pivots(const airc_tview *piv, int64_t count, int *ipiv, int64_t *lo,
                                     int64_t *hi);

/* torch's is_contiguous for a batch of matrices: where it holds, torch
 * factors A^T (its column-major copy of A is then free) and solves with
 * the transpose. */
AIRC_HIDDEN bool airc_la_row_major(const airc_tview *a);

/* ---- errors ------------------------------------------------------------ */

/* torch's _linalg_check_errors message for a nonzero info of `api` (batch
 * element `batch`, or -1 for a single matrix), into buf. */
AIRC_HIDDEN void airc_la_info_message(char *buf, size_t size, const char *api, int64_t batch,
                                      int32_t info);
/* AIRC_E_RUNTIME with that message. */
AIRC_HIDDEN airc_status airc_la_fail_info(const airc_kernel_ctx *k, const char *api, int64_t batch,
                                          int32_t info);

/* torch's _linalg_check_errors over an int32 info tensor: the first
 * nonzero info raises (is_matrix: a single matrix's, which must be the
 * only one); all zeros pass. */
AIRC_HIDDEN airc_status airc_la_check_infos(const airc_kernel_ctx *k, const airc_tview *info,
                                            const char *api, bool is_matrix);

AIRC_CPU_KERNEL(linalg_check_errors);
AIRC_CPU_KERNEL(assert_async); /* _assert_async */
/* k_lapack_lu.c */
AIRC_CPU_KERNEL(linalg_lu_factor_ex);
AIRC_CPU_KERNEL(linalg_lu);
AIRC_CPU_KERNEL(lu_unpack);
AIRC_CPU_KERNEL(linalg_lu_solve);
AIRC_CPU_KERNEL(linalg_solve_ex);
AIRC_CPU_KERNEL(linalg_inv_ex);
AIRC_CPU_KERNEL(linalg_det);
/* k_lapack_sym.c */
AIRC_CPU_KERNEL(linalg_cholesky_ex);
AIRC_CPU_KERNEL(cholesky_solve);
AIRC_CPU_KERNEL(cholesky_inverse);
AIRC_CPU_KERNEL(linalg_eigh);
AIRC_CPU_KERNEL(symeig);
AIRC_CPU_KERNEL(linalg_ldl_factor_ex);
AIRC_CPU_KERNEL(linalg_ldl_solve);
/* k_lapack_qr.c */
AIRC_CPU_KERNEL(linalg_svd);
AIRC_CPU_KERNEL(linalg_qr);
AIRC_CPU_KERNEL(geqrf);
AIRC_CPU_KERNEL(linalg_householder_product);
AIRC_CPU_KERNEL(ormqr);
AIRC_CPU_KERNEL(linalg_solve_triangular);
/* k_lapack_lstsq.c */
AIRC_CPU_KERNEL(linalg_lstsq);
/* k_lapack_pinv.c */
AIRC_CPU_KERNEL(linalg_pinv);

#endif
