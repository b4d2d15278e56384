/* Orthogonal factorizations and triangular solves on LAPACK / BLAS, as
 * torch 1.13 computes them: _linalg_svd (gesdd), linalg_qr (geqrf, then
 * orgqr for Q), geqrf, linalg_householder_product (orgqr), ormqr,
 * linalg_solve_triangular and triangular_solve (trsm). */
#include "backends/cpu/k_lapack.h"

#include <string.h>

/* Every matrix of t the identity (a rectangular one: ones on the diagonal). */
static void fill_identity(const airc_tview *t)
{
    int64_t n = airc_cpu_numel(t);
    for (int64_t p = 0; p < n; p++) {
        int64_t r = p / t->shape[t->ndim - 1] % t->shape[t->ndim - 2];
        int64_t c = p % t->shape[t->ndim - 1];
        airc_cpu_store_f64((char *)t->data +
                               airc_cpu_flat_offset(t, 0, p) * (int64_t)airc_dtype_size(t->dtype),
                           t->dtype, r == c ? 1.0 : 0.0);
    }
}

/* _linalg_svd(A, full_matrices, compute_uv, *, driver) -> (U, S, Vh) */
airc_status airc_cpu_k_linalg_svd(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL;
    if (!a || a->ndim < 2 || k->nout != 3)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A must be a matrix or a batch of them");
    bool full = airc_cpu_arg_bool(k, 1, false), uv = airc_cpu_arg_bool(k, 2, true);
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], kk = m < n ? m : n;
    if (!airc_cpu_numel(a)) { /* torch: the identity is an SVD of an empty matrix */
        if (uv && full) {
            fill_identity(&k->out[0]);
            fill_identity(&k->out[2]);
        }
        return AIRC_OK;
    }
    int64_t ucols = full ? m : kk, vrows = full ? n : kk;
    char jobz = !uv ? 'N' : full ? 'A' : 'S';
    airc_la_bufs s = {{0}};
    airc_status st = airc_la_buf(k, &s, 0, a->dtype, m, n, "a matrix");
    if (st == AIRC_OK)
        st = airc_la_buf(k, &s, 1, a->dtype, kk, 1, "the singular values");
    if (st == AIRC_OK)
        st = airc_la_buf(k, &s, 2, a->dtype, uv ? m : 1, uv ? ucols : 1, "U");
    if (st == AIRC_OK)
        st = airc_la_buf(k, &s, 3, a->dtype, uv ? vrows : 1, uv ? n : 1, "Vh");
    airc_la_batch b;
    airc_la_batch_of(&b, a, 2);
    for (int64_t p = 0; p < b.count && st == AIRC_OK; p++, airc_la_next(&b)) {
        airc_la_load(a, &b, s.p[0], a->dtype);
        int info = 0;
        st = airc_la_gesdd(k, a->dtype, jobz, (int)m, (int)n, s.p[0], (int)m, s.p[1], s.p[2],
                           (int)m, s.p[3], uv ? (int)vrows : 1, &info);
        if (st == AIRC_OK && info)
            st = airc_la_fail_info(k, "linalg.svd", a->ndim == 2 ? -1 : p, info);
        if (st != AIRC_OK)
            break;
        airc_la_store_vector(&k->out[1], &b, s.p[1]);
        if (uv) {
            airc_la_store(&k->out[0], &b, s.p[2], m);
            airc_la_store(&k->out[2], &b, s.p[3], vrows);
        }
    }
    airc_la_bufs_free(k, &s);
    return st;
}

/* linalg_qr(A, mode) -> (Q, R): geqrf of A; R the upper triangle of its
 * first rows; Q (but for mode 'r') orgqr of the reflectors. */
airc_status airc_cpu_k_linalg_qr(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL;
    if (!a || a->ndim < 2 || k->nout != 2)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A must be a matrix or a batch of them");
    const airc_tview *q = &k->out[0], *r = &k->out[1];
    bool compute_q = q->ndim >= 2;
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], kk = m < n ? m : n;
    int64_t qcols = compute_q ? q->shape[q->ndim - 1] : 0, rrows = r->shape[r->ndim - 2];
    size_t esz = airc_dtype_size(a->dtype);
    airc_la_bufs s = {{0}};
    airc_status st = airc_la_buf(k, &s, 0, a->dtype, m, n, "a matrix");
    if (st == AIRC_OK)
        st = airc_la_buf(k, &s, 1, a->dtype, kk, 1, "tau");
    if (st == AIRC_OK && compute_q)
        st = airc_la_buf(k, &s, 2, a->dtype, m, qcols, "Q");
    airc_la_batch b;
    airc_la_batch_of(&b, a, 2);
    for (int64_t p = 0; p < b.count && st == AIRC_OK; p++, airc_la_next(&b)) {
        airc_la_load(a, &b, s.p[0], a->dtype);
        int info = 0, ld = (int)(m > 1 ? m : 1);
        if (m && n)
            st = airc_la_geqrf(k, a->dtype, (int)m, (int)n, s.p[0], ld, s.p[1], &info);
        if (st != AIRC_OK)
            break;
        if (compute_q) {
            int64_t c = qcols < n ? qcols : n;
            memset(s.p[2], 0, (size_t)(m * qcols) * esz);
            memcpy(s.p[2], s.p[0], (size_t)(m * c) * esz);
            if (m && qcols)
                st = airc_la_orgqr(k, a->dtype, (int)m, (int)qcols, (int)kk, s.p[2], ld, s.p[1],
                                   &info);
            airc_la_store(q, &b, s.p[2], ld);
        }
        /* R: the upper triangle of the first rrows rows */
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = j + 1; i < m; i++)
                memset((char *)s.p[0] + (j * m + i) * (int64_t)esz, 0, esz);
        airc_tview rd = airc_la_at(r, 2, &b);
        airc_tview rs = airc_la_colmajor(s.p[0], a->dtype, rrows, n);
        rs.strides[1] = ld;
        airc_cpu_copy(&rd, &rs);
    }
    airc_la_bufs_free(k, &s);
    return st;
}

/* A 1-d view (tau) into contiguous scratch of n items */
static void load_vector(const airc_tview *v, const airc_la_batch *b, void *buf)
{
    airc_tview src = airc_la_at(v, 1, b);
    airc_tview dst = {.data = buf, .dtype = v->dtype, .ndim = 1, .shape = {src.shape[0]}};
    dst.strides[0] = 1;
    airc_cpu_copy(&dst, &src);
}

/* geqrf(A) -> (a, tau): LAPACK's compact QR (R on and above the diagonal,
 * the reflectors below it) */
airc_status airc_cpu_k_geqrf(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL;
    if (!a || a->ndim < 2 || k->nout != 2)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A must be a matrix or a batch of them");
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], kk = m < n ? m : n;
    airc_la_bufs s = {{0}};
    airc_status st = airc_la_buf(k, &s, 0, a->dtype, m, n, "a matrix");
    if (st == AIRC_OK)
        st = airc_la_buf(k, &s, 1, a->dtype, kk, 1, "tau");
    airc_la_batch b;
    airc_la_batch_of(&b, a, 2);
    for (int64_t p = 0; p < b.count && st == AIRC_OK && m && n; p++, airc_la_next(&b)) {
        airc_la_load(a, &b, s.p[0], a->dtype);
        int info = 0;
        st = airc_la_geqrf(k, a->dtype, (int)m, (int)n, s.p[0], (int)m, s.p[1], &info);
        airc_la_store(&k->out[0], &b, s.p[0], 0);
        airc_la_store_vector(&k->out[1], &b, s.p[1]);
    }
    airc_la_bufs_free(k, &s);
    return st;
}

/* linalg_householder_product(A, tau) -> Q: orgqr, the first tau.shape[-1]
 * reflectors (the rest of Q's columns the identity's) */
airc_status airc_cpu_k_linalg_householder_product(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL, *tau = k->in ? k->in[1] : NULL;
    if (!a || !tau || a->ndim < 2 || tau->ndim < 1 || k->nout != 1)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "input and tau must be tensors");
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], kk = tau->shape[tau->ndim - 1];
    airc_la_bufs s = {{0}};
    airc_status st = airc_la_buf(k, &s, 0, a->dtype, m, n, "a matrix");
    if (st == AIRC_OK)
        st = airc_la_buf(k, &s, 1, a->dtype, kk, 1, "tau");
    airc_la_batch b;
    airc_la_batch_of(&b, a, 2);
    for (int64_t p = 0; p < b.count && st == AIRC_OK && m && n; p++, airc_la_next(&b)) {
        airc_la_load(a, &b, s.p[0], a->dtype);
        load_vector(tau, &b, s.p[1]);
        int info = 0;
        st = airc_la_orgqr(k, a->dtype, (int)m, (int)n, (int)kk, s.p[0], (int)m, s.p[1], &info);
        airc_la_store(&k->out[0], &b, s.p[0], 0);
    }
    airc_la_bufs_free(k, &s);
    return st;
}

/* ormqr(A, tau, C, left, transpose) -> Q C, Q^T C, C Q or C Q^T, Q the
 * product of A's first tau.shape[-1] reflectors */
airc_status airc_cpu_k_ormqr(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL, *tau = k->in ? k->in[1] : NULL;
    const airc_tview *c = k->in ? k->in[2] : NULL;
    if (!a || !tau || !c || a->ndim < 2 || tau->ndim < 1 || c->ndim < 2 || k->nout != 1)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "input, tau and other must be tensors");
    bool left = airc_cpu_arg_bool(k, 3, true), trans = airc_cpu_arg_bool(k, 4, false);
    int64_t am = a->shape[a->ndim - 2], an = a->shape[a->ndim - 1], kk = tau->shape[tau->ndim - 1];
    int64_t m = c->shape[c->ndim - 2], n = c->shape[c->ndim - 1];
    airc_la_bufs s = {{0}};
    airc_status st = airc_la_buf(k, &s, 0, a->dtype, am, an, "a matrix");
    if (st == AIRC_OK)
        st = airc_la_buf(k, &s, 1, a->dtype, kk, 1, "tau");
    if (st == AIRC_OK)
        st = airc_la_buf(k, &s, 2, a->dtype, m, n, "other");
    airc_la_batch b;
    airc_la_batch_of(&b, c, 2);
    for (int64_t p = 0; p < b.count && st == AIRC_OK && m && n; p++, airc_la_next(&b)) {
        airc_la_load(a, &b, s.p[0], a->dtype);
        load_vector(tau, &b, s.p[1]);
        airc_la_load(c, &b, s.p[2], a->dtype);
        int info = 0;
        st = airc_la_ormqr(k, a->dtype, left ? 'L' : 'R', trans ? 'T' : 'N', (int)m, (int)n,
                           (int)kk, s.p[0], (int)(am > 1 ? am : 1), s.p[1], s.p[2], (int)m, &info);
        airc_la_store(&k->out[0], &b, s.p[2], 0);
    }
    airc_la_bufs_free(k, &s);
    return st;
}

/* A matrix BLAS reads row-major but not column-major (torch's
 * is_blas_compatible_row_major_order, the column-major test first) */
static bool row_major_only(const airc_tview *m)
{
    int64_t r = m->shape[0], c = m->shape[1];
    if (m->strides[0] == 1 && m->strides[1] >= (r > 1 ? r : 1))
        return false;
    return m->strides[1] == 1 && m->strides[0] >= (c > 1 ? c : 1);
}

/* linalg_solve_triangular(A, B, *, upper, left, unitriangular) -> X, and
 * triangular_solve(b, A, upper, transpose, unitriangular) -> (X, A's
 * broadcast copy): trsm of A's triangle over the result's batch. */
airc_status airc_cpu_k_linalg_solve_triangular(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    bool legacy = k->nout == 2; /* triangular_solve: (b, A, ...) */
    const airc_tview *a = k->in ? k->in[legacy ? 1 : 0] : NULL;
    const airc_tview *rhs = k->in ? k->in[legacy ? 0 : 1] : NULL, *x = &k->out[0];
    if (!a || !rhs || a->ndim < 2 || rhs->ndim < 2 || x->ndim < 2)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A and B must be matrices");
    bool upper = airc_cpu_arg_bool(k, 2, legacy);
    bool left = legacy || airc_cpu_arg_bool(k, 3, true);
    bool trans = legacy && airc_cpu_arg_bool(k, 3, false);
    bool unit = airc_cpu_arg_bool(k, 4, false);
    int64_t n = a->shape[a->ndim - 1];
    int64_t rows = x->shape[x->ndim - 2], cols = x->shape[x->ndim - 1];
    airc_la_bufs s = {{0}};
    airc_status st = airc_la_buf(k, &s, 0, a->dtype, n, n, "a matrix");
    if (st == AIRC_OK)
        st = airc_la_buf(k, &s, 1, a->dtype, rows, cols, "the right-hand side");
    airc_la_batch b;
    airc_la_batch_of(&b, x, 2);
    for (int64_t p = 0; p < b.count && st == AIRC_OK; p++, airc_la_next(&b)) {
        /* torch hands BLAS a row-major A as its transpose (the other
         * triangle, transposed): the same solve, its arithmetic in
         * another order */
        airc_tview am = airc_la_at(a, 2, &b);
        bool t = !legacy && row_major_only(&am);
        if (t) {
            airc_tview at = am;
            at.strides[0] = am.strides[1];
            at.strides[1] = am.strides[0];
            airc_tview dst = airc_la_colmajor(s.p[0], a->dtype, n, n);
            airc_cpu_copy(&dst, &at);
        } else
            airc_la_load(a, &b, s.p[0], a->dtype);
        airc_la_load(rhs, &b, s.p[1], a->dtype);
        airc_la_trsm(a->dtype, left ? 'L' : 'R', upper != t ? 'U' : 'L', trans != t ? 'T' : 'N',
                     unit ? 'U' : 'N', (int)rows, (int)cols, s.p[0], (int)(n > 1 ? n : 1), s.p[1],
                     (int)(rows > 1 ? rows : 1));
        airc_la_store(x, &b, s.p[1], rows > 1 ? rows : 1);
        if (legacy)
            airc_la_store(&k->out[1], &b, s.p[0], n > 1 ? n : 1);
    }
    airc_la_bufs_free(k, &s);
    return st;
}
