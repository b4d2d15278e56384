/* LU-based kernels on LAPACK getrf / getrs, as torch 1.13 computes them:
 * linalg_lu_factor_ex, linalg_lu, _linalg_solve_ex, linalg_inv_ex (a
 * solve against the identity), _linalg_det and _linalg_slogdet. Where A
 * is contiguous (row-major), torch's solve, inverse and determinants
 * factor A^T, whose column-major copy is A's own memory, and solve with
 * the transpose; the LU and pivots they return are then A^T's, and so
 * are airc's. */
#include "backends/cpu/k_lapack.h"
#include "ops/meta_util.h"

#include <math.h>
#include <string.h>

static airc_tview transposed(const airc_tview *m)
{
    airc_tview t = *m;
    t.shape[0] = m->shape[1];
    t.shape[1] = m->shape[0];
    t.strides[0] = m->strides[1];
    t.strides[1] = m->strides[0];
    return t;
}

/* A 2-d matrix (or its transpose) copied into the column-major scratch
 * lu and factored; LAPACK's 1-based pivots in ipiv. Returns getrf's info. */
static int lu_factor(const airc_tview *a, bool t, void *lu, int *ipiv)
{
    airc_tview src = t ? transposed(a) : *a;
    airc_tview dst = airc_la_colmajor(lu, a->dtype, src.shape[0], src.shape[1]);
    airc_cpu_copy(&dst, &src);
    return airc_la_getrf(a->dtype, (int)src.shape[0], (int)src.shape[1], lu, (int)dst.strides[1],
                         ipiv);
}

/* Writes a factorization's LU (rows x cols), its k pivots and info into
 * the outputs at the batch's index (any of them NULL: not written). */
static void put_lu(const airc_tview *lu_out, const airc_tview *piv_out, const airc_tview *info_out,
                   const airc_la_batch *b, void *lu, const int *ipiv, int info)
{
    if (lu_out) {
        airc_tview dst = airc_la_at(lu_out, 2, b);
        airc_tview src = airc_la_colmajor(lu, lu_out->dtype, dst.shape[0], dst.shape[1]);
        airc_cpu_copy(&dst, &src);
    }
    if (piv_out) {
        airc_tview dst = airc_la_at(piv_out, 1, b);
        for (int64_t i = 0; i < dst.shape[0]; i++)
            ((int32_t *)dst.data)[i * dst.strides[0]] = ipiv[i];
    }
    if (info_out) {
        airc_tview dst = airc_la_at(info_out, 0, b);
        *(int32_t *)dst.data = info;
    }
}

/* Scratch of one factorization: the matrix and its pivots. */
typedef struct lu_scratch {
    void *lu;
    int *ipiv;
} lu_scratch;

static airc_status scratch_new(const airc_kernel_ctx *k, airc_dtype dt, int64_t m, int64_t n,
                               lu_scratch *s)
{
    size_t elems = 0;
    memset(s, 0, sizeof *s);
    AIRC_TRY(airc_la_dims(k, "a matrix", m, n, &elems));
    s->lu = airc_la_alloc(k, dt, elems, "the LU factorization");
    s->ipiv = airc_malloc(k->ctx, (size_t)(m < n ? n : m) * sizeof(int) + sizeof(int));
    if (s->lu && s->ipiv)
        return AIRC_OK;
    airc_free(k->ctx, s->lu);
    airc_free(k->ctx, s->ipiv);
    return airc_cpu_oom(k, "the LU factorization");
}

static void scratch_free(const airc_kernel_ctx *k, lu_scratch *s)
{
    airc_free(k->ctx, s->lu);
    airc_free(k->ctx, s->ipiv);
}

/* linalg_lu_factor_ex(A, *, pivot, check_errors) -> (LU, pivots, info) */
airc_status airc_cpu_k_linalg_lu_factor_ex(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL;
    if (!a || a->ndim < 2 || k->nout != 3)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A must be a matrix or a batch of them");
    lu_scratch s;
    AIRC_TRY(scratch_new(k, a->dtype, a->shape[a->ndim - 2], a->shape[a->ndim - 1], &s));
    airc_la_batch b;
    airc_la_batch_of(&b, a, 2);
    for (int64_t p = 0; p < b.count; p++, airc_la_next(&b)) {
        airc_tview m = airc_la_at(a, 2, &b);
        int info = lu_factor(&m, false, s.lu, s.ipiv);
        put_lu(&k->out[0], &k->out[1], &k->out[2], &b, s.lu, s.ipiv, info);
    }
    scratch_free(k, &s);
    if (airc_cpu_arg_bool(k, 2, false))
        return airc_la_check_infos(k, &k->out[2], "torch.linalg.lu_factor_ex", a->ndim == 2);
    return AIRC_OK;
}

/* The address of element (i, j) of a 2-d view. */
static char *elem(const airc_tview *v, int64_t i, int64_t j)
{
    return (char *)v->data +
           (i * v->strides[0] + j * v->strides[1]) * (int64_t)airc_dtype_size(v->dtype);
}

/* P, L and U of an m x n factorization lu (a 2-d view of any dtype): L
 * unit lower m x k, U upper k x n (copied exactly), P the row permutation
 * the k 1-based pivots' swaps make (perm: m items of scratch). P, or L and
 * U, NULL: not written. */
static void unpack(const airc_tview *lu, const int *ipiv, int64_t *perm, const airc_tview *P,
                   const airc_tview *L, const airc_tview *U)
{
    int64_t m = lu->shape[0], n = lu->shape[1], kk = m < n ? m : n;
    size_t esz = airc_dtype_size(lu->dtype);
    if (P) {
        for (int64_t i = 0; i < m; i++)
            perm[i] = i;
        for (int64_t i = 0; i < kk; i++) {
            int64_t j = ipiv[i] - 1, t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < m; j++)
                airc_cpu_store_f64(elem(P, i, j), P->dtype, perm[j] == i ? 1.0 : 0.0);
    }
    for (int64_t i = 0; L && i < m; i++)
        for (int64_t j = 0; j < kk; j++) {
            if (i > j)
                memcpy(elem(L, i, j), elem(lu, i, j), esz);
            else
                airc_cpu_store_f64(elem(L, i, j), L->dtype, i == j ? 1.0 : 0.0);
        }
    for (int64_t i = 0; U && i < kk; i++)
        for (int64_t j = 0; j < n; j++) {
            if (j >= i)
                memcpy(elem(U, i, j), elem(lu, i, j), esz);
            else
                airc_cpu_store_f64(elem(U, i, j), U->dtype, 0.0);
        }
}

/* linalg_lu(A, *, pivot) -> (P, L, U): A = P L U from getrf. */
airc_status airc_cpu_k_linalg_lu(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL;
    if (!a || a->ndim < 2 || k->nout != 3)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A must be a matrix or a batch of them");
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    lu_scratch s;
    AIRC_TRY(scratch_new(k, a->dtype, m, n, &s));
    int64_t *perm = airc_malloc(k->ctx, (size_t)(m + 1) * sizeof *perm);
    if (!perm) {
        scratch_free(k, &s);
        return airc_cpu_oom(k, "the permutation");
    }
    airc_la_batch b;
    airc_la_batch_of(&b, a, 2);
    for (int64_t p = 0; p < b.count; p++, airc_la_next(&b)) {
        airc_tview src = airc_la_at(a, 2, &b);
        lu_factor(&src, false, s.lu, s.ipiv);
        /* pivot=False (only for an empty A) returns P as a [0] tensor */
        bool has_p = k->out[0].ndim >= 2;
        airc_tview P = has_p ? airc_la_at(&k->out[0], 2, &b) : k->out[0],
                   L = airc_la_at(&k->out[1], 2, &b), U = airc_la_at(&k->out[2], 2, &b);
        airc_tview f = airc_la_colmajor(s.lu, a->dtype, m, n);
        unpack(&f, s.ipiv, perm, has_p ? &P : NULL, &L, &U);
    }
    airc_free(k->ctx, perm);
    scratch_free(k, &s);
    return AIRC_OK;
}

/* lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots) -> (P, L, U)
 * over LU's batch (the pivots' broadcast to it) */
airc_status airc_cpu_k_lu_unpack(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *lu = k->in ? k->in[0] : NULL, *piv = k->in ? k->in[1] : NULL;
    if (!lu || !piv || lu->ndim < 2 || k->nout != 3)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "LU must be a matrix or a batch of them");
    bool data = airc_cpu_arg_bool(k, 2, true), pivots = airc_cpu_arg_bool(k, 3, true);
    int64_t m = lu->shape[lu->ndim - 2], n = lu->shape[lu->ndim - 1], kk = m < n ? m : n;
    int64_t *perm = airc_malloc(k->ctx, (size_t)(m + 1) * sizeof *perm);
    int *ipiv = airc_malloc(k->ctx, (size_t)(kk + 1) * sizeof *ipiv);
    airc_status st = perm && ipiv ? AIRC_OK : airc_cpu_oom(k, "the permutation");
    static const char msg[] = "pivots passed to lu_unpack must be between 1 and LU.size(-2) "
                              "inclusive.Did you properly pass the result of lu_factor?";
    airc_la_batch b;
    airc_la_batch_of(&b, lu, 2);
    for (int64_t p = 0; p < b.count && st == AIRC_OK; p++, airc_la_next(&b)) {
        airc_tview f = airc_la_at(lu, 2, &b), P, L, U;
        if (pivots) {
            airc_tview pv = airc_la_at(piv, 1, &b);
            int64_t lo = 1, hi = 1;
            airc_la_read_pivots(&pv, kk, ipiv, &lo, &hi);
            if (kk && (lo < 1 || hi > m)) { /* torch's check (unpacking reads rows by them) */
                st = airc_cpu_fail(k, AIRC_E_RUNTIME, "%s", msg);
                break;
            }
            P = airc_la_at(&k->out[0], 2, &b);
        }
        if (data) {
            L = airc_la_at(&k->out[1], 2, &b);
            U = airc_la_at(&k->out[2], 2, &b);
        }
        unpack(&f, ipiv, perm, pivots ? &P : NULL, data ? &L : NULL, data ? &U : NULL);
    }
    airc_free(k->ctx, ipiv);
    airc_free(k->ctx, perm);
    return st;
}

/* A solve's operands: X = A^-1 B (left) or B A^-1, B a batch of matrices
 * (a vector right-hand side already unsqueezed), broadcast over the
 * result's batch; lu / pivots / info outputs have A's batch (NULL: not
 * returned). */
typedef struct solve_call {
    const airc_tview *a, *b, *x;
    const airc_tview *lu_out, *piv_out, *info_out;
    bool left;
} solve_call;

static airc_status solve(const airc_kernel_ctx *k, const solve_call *c)
{
    const airc_tview *a = c->a;
    airc_dtype dt = a->dtype;
    int64_t n = a->shape[a->ndim - 1];
    int64_t rows = c->x->shape[c->x->ndim - 2], cols = c->x->shape[c->x->ndim - 1];
    int64_t nrhs = c->left ? cols : rows;
    size_t be = 0;
    AIRC_TRY(airc_la_dims(k, "the right-hand side", n, nrhs, &be));
    bool use_t = airc_la_row_major(a);
    char trans = use_t != !c->left ? 'T' : 'N';
    lu_scratch s;
    AIRC_TRY(scratch_new(k, dt, n, n, &s));
    void *rhs = airc_la_alloc(k, dt, be, "the right-hand side");
    if (!rhs) {
        scratch_free(k, &s);
        return AIRC_E_OUT_OF_MEMORY;
    }
    airc_la_batch b;
    airc_la_batch_of(&b, c->x, 2);
    const void *factored = NULL;
    int info = 0;
    if (!b.count) { /* an empty batch of right-hand sides: A is still factored */
        airc_la_batch_of(&b, a, 2);
        for (int64_t p = 0; p < b.count; p++, airc_la_next(&b)) {
            airc_tview am = airc_la_at(a, 2, &b);
            info = lu_factor(&am, use_t, s.lu, s.ipiv);
            put_lu(c->lu_out, c->piv_out, c->info_out, &b, s.lu, s.ipiv, info);
        }
        airc_la_batch_of(&b, c->x, 2);
    }
    for (int64_t p = 0; p < b.count; p++, airc_la_next(&b)) {
        airc_tview am = airc_la_at(a, 2, &b);
        if (am.data != factored || p == 0) {
            info = lu_factor(&am, use_t, s.lu, s.ipiv);
            put_lu(c->lu_out, c->piv_out, c->info_out, &b, s.lu, s.ipiv, info);
            factored = am.data;
        }
        airc_tview bm = airc_la_at(c->b, 2, &b), xm = airc_la_at(c->x, 2, &b);
        if (!c->left) {
            bm = transposed(&bm);
            xm = transposed(&xm);
        }
        airc_tview r = airc_la_colmajor(rhs, dt, n, nrhs);
        airc_cpu_copy(&r, &bm);
        if (n && nrhs)
            airc_la_getrs(dt, trans, (int)n, (int)nrhs, s.lu, (int)(n > 1 ? n : 1), s.ipiv, rhs,
                          (int)r.strides[1]);
        airc_cpu_copy(&xm, &r);
    }
    airc_free(k->ctx, rhs);
    scratch_free(k, &s);
    return AIRC_OK;
}

/* _linalg_solve_ex(A, B, *, left, check_errors) -> (result, LU, pivots, info) */
airc_status airc_cpu_k_linalg_solve_ex(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL, *b = k->in ? k->in[1] : NULL;
    if (!a || !b || a->ndim < 2 || k->nout != 4 || b->ndim >= AIRC_MAX_DIMS)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A and B must be tensors");
    solve_call c = {
        a, b, &k->out[0], &k->out[1], &k->out[2], &k->out[3], airc_cpu_arg_bool(k, 2, true)};
    airc_tview bu, xu;
    if (airc_linalg_vector_rhs(a->shape, a->ndim, b->shape, b->ndim)) {
        bu = airc_la_unsqueezed(b);
        xu = airc_la_unsqueezed(&k->out[0]);
        c.b = &bu;
        c.x = &xu;
    }
    AIRC_TRY(solve(k, &c));
    if (airc_cpu_arg_bool(k, 3, false))
        return airc_la_check_infos(k, &k->out[3], "torch.linalg.solve_ex", a->ndim == 2);
    return AIRC_OK;
}

/* linalg_lu_solve(LU, pivots, B, *, left, adjoint) -> X: getrs with lu_factor's
 * LU and pivots (LU broadcast over B's batch); X A = B solved as A^T X^T =
 * B^T. Every pivot is checked first, as torch does. */
airc_status airc_cpu_k_linalg_lu_solve(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *lu = k->in ? k->in[0] : NULL, *piv = k->in ? k->in[1] : NULL;
    const airc_tview *rhs = k->in ? k->in[2] : NULL, *x = &k->out[0];
    if (!lu || !piv || !rhs || lu->ndim < 2 || rhs->ndim < 2 || k->nout != 1)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "LU, pivots and B must be tensors");
    bool left = airc_cpu_arg_bool(k, 3, true), adjoint = airc_cpu_arg_bool(k, 4, false) != !left;
    int64_t n = lu->shape[lu->ndim - 1];
    if (!airc_cpu_numel(x))
        return AIRC_OK;
    lu_scratch s;
    AIRC_TRY(scratch_new(k, lu->dtype, n, n, &s));
    int64_t lo = 1, hi = 1;
    airc_la_batch pb;
    airc_la_batch_of(&pb, piv, 1);
    for (int64_t p = 0; p < pb.count; p++, airc_la_next(&pb)) {
        airc_tview pv = airc_la_at(piv, 1, &pb);
        airc_la_read_pivots(&pv, n, NULL, &lo, &hi);
    }
    airc_status st = AIRC_OK;
    if (lo < 1 || hi > n) /* torch's checks (getrs would read past the matrix) */
        st = airc_cpu_fail(k, AIRC_E_RUNTIME,
                           "Pivots given to lu_solve must all be %s. Did you properly pass the "
                           "result of lu_factor?",
                           lo < 1 ? "greater or equal to 1" : "smaller or equal to LU.size(-2)");
    int64_t nrhs = x->shape[x->ndim - (left ? 1 : 2)];
    size_t be = 0;
    void *buf = NULL;
    if (st == AIRC_OK && (st = airc_la_dims(k, "the right-hand side", n, nrhs, &be)) == AIRC_OK &&
        !(buf = airc_la_alloc(k, lu->dtype, be, "the right-hand side")))
        st = AIRC_E_OUT_OF_MEMORY;
    airc_la_batch b;
    airc_la_batch_of(&b, x, 2);
    for (int64_t p = 0; p < b.count && st == AIRC_OK; p++, airc_la_next(&b)) {
        airc_la_load(lu, &b, s.lu, lu->dtype);
        airc_tview pv = airc_la_at(piv, 1, &b);
        airc_la_read_pivots(&pv, n, s.ipiv, &lo, &hi);
        airc_tview bm = airc_la_at(rhs, 2, &b), xm = airc_la_at(x, 2, &b);
        if (!left) {
            bm = transposed(&bm);
            xm = transposed(&xm);
        }
        airc_tview r = airc_la_colmajor(buf, lu->dtype, n, nrhs);
        airc_cpu_copy(&r, &bm);
        airc_la_getrs(lu->dtype, adjoint ? 'T' : 'N', (int)n, (int)nrhs, s.lu, (int)(n > 1 ? n : 1),
                      s.ipiv, buf, (int)r.strides[1]);
        airc_cpu_copy(&xm, &r);
    }
    airc_free(k->ctx, buf);
    scratch_free(k, &s);
    return st;
}

/* linalg_inv_ex(A, *, check_errors) -> (inverse, info): torch solves A X = I. */
airc_status airc_cpu_k_linalg_inv_ex(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL;
    if (!a || a->ndim < 2 || k->nout != 2)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A must be a matrix or a batch of them");
    int64_t n = a->shape[a->ndim - 1];
    size_t elems = 0;
    AIRC_TRY(airc_la_dims(k, "the identity", n, n, &elems));
    void *eye = airc_malloc(k->ctx, elems * airc_dtype_size(a->dtype));
    if (!eye)
        return airc_cpu_oom(k, "the identity");
    airc_tview e = airc_la_colmajor(eye, a->dtype, n, n);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
            airc_cpu_store_f64((char *)eye + (j * n + i) * (int64_t)airc_dtype_size(a->dtype),
                               a->dtype, i == j ? 1.0 : 0.0);
    solve_call c = {a, &e, &k->out[0], NULL, NULL, &k->out[1], true};
    airc_status st = solve(k, &c);
    airc_free(k->ctx, eye);
    AIRC_TRY(st);
    if (airc_cpu_arg_bool(k, 1, false))
        return airc_la_check_infos(k, &k->out[1], "linalg.inv_ex", a->ndim == 2);
    return AIRC_OK;
}

/* _linalg_det(A) -> (det, LU, pivots) and _linalg_slogdet(A) -> (sign,
 * logabsdet, LU, pivots): torch's product of U's diagonal (in the dtype,
 * first to last) times the pivots' parity; the sum of the logs of its
 * absolute values and the product of its signs. */
airc_status airc_cpu_k_linalg_det(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL;
    bool slog = k->nout == 4;
    if (!a || a->ndim < 2 || (k->nout != 3 && !slog))
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A must be a matrix or a batch of them");
    int64_t n = a->shape[a->ndim - 1];
    bool use_t = airc_la_row_major(a), f32 = a->dtype == AIRC_DTYPE_F32;
    size_t esz = airc_dtype_size(a->dtype);
    lu_scratch s;
    AIRC_TRY(scratch_new(k, a->dtype, n, n, &s));
    airc_la_batch b;
    airc_la_batch_of(&b, a, 2);
    const airc_tview *lu_out = &k->out[slog ? 2 : 1], *piv_out = &k->out[slog ? 3 : 2];
    for (int64_t p = 0; p < b.count; p++, airc_la_next(&b)) {
        airc_tview m = airc_la_at(a, 2, &b);
        int info = lu_factor(&m, use_t, s.lu, s.ipiv);
        put_lu(lu_out, piv_out, NULL, &b, s.lu, s.ipiv, info);
        bool odd = false;
        for (int64_t i = 0; i < n; i++)
            odd ^= s.ipiv[i] != i + 1;
        double prod = 1, sgn = 1, logsum = 0;
        float prodf = 1, logsumf = 0;
        for (int64_t i = 0; i < n; i++) {
            double d = airc_cpu_load_f64((char *)s.lu + (i * n + i) * (int64_t)esz, a->dtype);
            prod *= d;
            prodf *= (float)d;
            sgn *= d > 0 ? 1 : d < 0 ? -1 : 0; /* torch's sgn: 0 for NaN */
            logsum += log(fabs(d));
            logsumf += logf(fabsf((float)d));
        }
        double parity = odd ? -1 : 1;
        airc_tview r0 = airc_la_at(&k->out[0], 0, &b);
        if (!slog) {
            airc_cpu_store_f64(r0.data, a->dtype, (f32 ? (double)prodf : prod) * parity);
            continue;
        }
        airc_tview r1 = airc_la_at(&k->out[1], 0, &b);
        airc_cpu_store_f64(r0.data, a->dtype, sgn * parity);
        airc_cpu_store_f64(r1.data, a->dtype, f32 ? (double)logsumf : logsum);
    }
    scratch_free(k, &s);
    return AIRC_OK;
}
