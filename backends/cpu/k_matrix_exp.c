/* linalg_matrix_exp(A), as torch 1.13 computes it (Bader, Blanes and
 * Casas' optimized Taylor polynomials with scaling and squaring):
 *
 * - n == 0: nothing; n == 1: exp of each element.
 * - n >= 2, each matrix on its own: its 1-norm (largest column sum of
 *   |a_ij|) picks the polynomial of degree 1, 2, 4, 8 or 12 whose bound
 *   theta (torch's per-dtype table) it does not pass, lower bounds
 *   exclusive; from theta_12 up (inclusive), degree 18 on A / 2^s with
 *   s = max(0, ceil(log2(norm / theta_18))), squared s times. Torch 1.13
 *   picks per matrix in a batch as well.
 * - torch scales by a 2^s it computes in int64: s = 63 divides by -2^63
 *   (the sign flips: what comes out is exp(-A) squared back), s >= 64 by
 *   0, which makes every entry NaN. airc does the same.
 * - a matrix whose norm is NaN or infinite gives NaN: torch 1.13 leaves
 *   it uninitialized (no interval matches NaN) or NaN (an infinity off
 *   the diagonal); newer torch returns NaN.
 * - f32 and f64 in their own precision (GEMMs on OpenBLAS, the linear
 *   combinations in the dtype, in torch's order); bf16 as f32 (thetas
 *   included), rounded once. f16 has no matmul in torch 1.13's CPU build:
 *   torch fails with "bmm" when a matrix needs degree 2 to 12 and with
 *   "log2_vml_cpu" when one needs scaling, unless every matrix is zero
 *   (I + A) or NaN; this kernel raises the same.
 *
 * Each matrix is copied into column-major scratch of the compute dtype;
 * scratch for all the powers and products is one block per call. */
#include "backends/cpu/k_lapack.h"
#include "ops/meta_util.h"

#include <math.h>
#include <string.h>

enum { NDEG = 6, NBUF = 11 };

/* Degree 12: B_i = sum_j b12[i][j] A^j (j = 0..3) */
static const double b12[4][4] = {
    {9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740},
    {5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031,
     0.01108844528519167989},
    {0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968,
     0.00610700528898058230},
    {-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079, -0.00675951846863086359}};

/* One call's state: n x n column-major matrices of the compute dtype ct. */
typedef struct mexp {
    airc_kernel_ctx *k;
    airc_dtype ct;
    int64_t n, nn;
    char *buf[NBUF];
} mexp;

static double *d64(const mexp *m, int i)
{
    return (double *)m->buf[i];
}

static float *d32(const mexp *m, int i)
{
    return (float *)m->buf[i];
}

/* buf[out] = sum_j c[j] * buf[src[j]], accumulated from 0 in the compute
 * dtype, the coefficients rounded to it (torch's
 * _compute_linear_combination); out may be one of the sources only when
 * it is the first. */
static void lincomb(const mexp *m, int out, const int *src, const double *c, int count)
{
    for (int64_t e = 0; e < m->nn; e++) {
        if (m->ct == AIRC_DTYPE_F32) {
            float s = 0;
            for (int j = 0; j < count; j++)
                s += (float)c[j] * d32(m, src[j])[e];
            d32(m, out)[e] = s;
        } else {
            double s = 0;
            for (int j = 0; j < count; j++)
                s += c[j] * d64(m, src[j])[e];
            d64(m, out)[e] = s;
        }
    }
}

/* buf[dst] += buf[src] */
static void add_into(const mexp *m, int dst, int src)
{
    const int s[2] = {dst, src};
    const double one[2] = {1, 1};
    lincomb(m, dst, s, one, 2);
}

/* buf[c] = buf[a] @ buf[b] */
static airc_status mm(const mexp *m, int c, int a, int b)
{
    airc_cpu_mat ma = {m->buf[a], m->n, m->n, 1, m->n}, mb = {m->buf[b], m->n, m->n, 1, m->n},
                 mc = {m->buf[c], m->n, m->n, 1, m->n};
    return airc_cpu_gemm(m->k, m->ct, 1.0, ma, mb, 0.0, mc);
}

static void fill(const mexp *m, int i, double v)
{
    for (int64_t e = 0; e < m->nn; e++) {
        if (m->ct == AIRC_DTYPE_F32)
            d32(m, i)[e] = (float)v;
        else
            d64(m, i)[e] = v;
    }
}

static void scale(const mexp *m, int i, double f)
{
    for (int64_t e = 0; e < m->nn; e++) {
        if (m->ct == AIRC_DTYPE_F32)
            d32(m, i)[e] *= (float)f;
        else
            d64(m, i)[e] *= f;
    }
}

/* buffers: P0 = I, P1 = A (scaled), P2 = A^2, P3, P4 the higher powers;
 * B0..B4 the degree 12 / 18 combinations; T a product; the result lands
 * in the buffer returned through *res. */
enum { P0, P1, P2, P3, P4, B0, B1, B2, B3, B4, T };

/* The last steps of degrees 12 and 18, in torch's order: buf[z] +=
 * buf[x] @ buf[y]; buf[w] += buf[z]; buf[v] += buf[w] @ buf[z] */
static airc_status nested(const mexp *m, int x, int y, int z, int w, int v)
{
    AIRC_TRY(mm(m, T, x, y));
    add_into(m, z, T);
    add_into(m, w, z);
    AIRC_TRY(mm(m, T, w, z));
    add_into(m, v, T);
    return AIRC_OK;
}

/* The Taylor polynomial of degree deg at buf[P1]; buf[P0] holds I. */
static airc_status taylor(const mexp *m, int deg, int *res)
{
    const double one2[2] = {1, 1};
    const int ia[5] = {P0, P1, P2, P3, P4};
    if (deg == 1) {
        lincomb(m, T, ia, one2, 2);
        *res = T;
        return AIRC_OK;
    }
    AIRC_TRY(mm(m, P2, P1, P1));
    if (deg == 2) {
        const double c[3] = {1, 1, 0.5};
        lincomb(m, T, ia, c, 3);
        *res = T;
        return AIRC_OK;
    }
    if (deg == 4) { /* I + A + A^2 (I/2 + A/6 + A^2/24) */
        const double c[3] = {1 / 2.0, 1 / 6.0, 1 / 24.0}, r[4] = {1, 1, 0, 1};
        lincomb(m, B0, ia, c, 3);
        AIRC_TRY(mm(m, P3, P2, B0));
        lincomb(m, T, ia, r, 4);
        *res = T;
        return AIRC_OK;
    }
    if (deg == 8) {
        const double sq = 0.1330413469565007072504e+2, x3 = 2. / 3.;
        const double x1 = x3 * ((1. + sq) / 88.), x2 = x3 * ((1. + sq) / 352.);
        const double c4[4] = {(-271. + 29. * sq) / (315. * x3), (-11. + 11. * sq) / (1260. * x3),
                              (-99. + 11. * sq) / (5040. * x3), (89. - sq) / (5040. * x3)};
        const double c1[2] = {x1, x2}, c2[2] = {x3, 1},
                     r[5] = {1, 1, (857. - 58. * sq) / 630., 0, 1};
        lincomb(m, B0, ia + 1, c1, 2);
        AIRC_TRY(mm(m, P3, P2, B0)); /* A4 = A2 (x1 A + x2 A2) */
        lincomb(m, B0, ia + 2, c2, 2);
        lincomb(m, B1, ia, c4, 4);
        AIRC_TRY(mm(m, P4, B0, B1)); /* A8 = (x3 A2 + A4)(x4 I + x5 A + x6 A2 + x7 A4) */
        lincomb(m, T, ia, r, 5);
        *res = T;
        return AIRC_OK;
    }
    AIRC_TRY(mm(m, P3, P1, P2)); /* A^3 */
    if (deg == 12) {
        for (int i = 0; i < 4; i++)
            lincomb(m, B0 + i, ia, b12[i], 4);
        *res = B0; /* B0 + (B1 + B2 + B3^2)(B2 + B3^2) */
        return nested(m, B3, B3, B2, B1, B0);
    }
    AIRC_TRY(mm(m, P4, P3, P3)); /* A^6 */
    for (int i = 0; i < 5; i++)
        lincomb(m, B0 + i, ia, airc_matrix_exp_b18[i], 5);
    *res = B1; /* B1 + (B2 + B3 + B0 B4)(B3 + B0 B4) */
    return nested(m, B0, B4, B3, B2, B1);
}

/* The 1-norm of buf[P1] in the compute dtype (NaN if any sum is) */
static double one_norm(const mexp *m)
{
    double best = 0;
    for (int64_t j = 0; j < m->n; j++) {
        double s = 0;
        float sf = 0;
        for (int64_t i = 0; i < m->n; i++) {
            if (m->ct == AIRC_DTYPE_F32)
                sf += fabsf(d32(m, P1)[j * m->n + i]);
            else
                s += fabs(d64(m, P1)[j * m->n + i]);
        }
        if (m->ct == AIRC_DTYPE_F32)
            s = sf;
        if (isnan(s))
            return s;
        best = j == 0 || s > best ? s : best;
    }
    return best;
}

/* value v rounded to the compute dtype */
static double in_ct(const mexp *m, double v)
{
    return m->ct == AIRC_DTYPE_F32 ? (double)(float)v : v;
}

/* The degree torch picks for `norm` (18: with scaling), thetas th */
static int degree_of(const mexp *m, double norm, const double *th)
{
    static const int degs[NDEG - 1] = {1, 2, 4, 8, 12};
    for (int i = 0; i < NDEG - 2; i++)
        if (norm <= in_ct(m, th[i]))
            return degs[i];
    return norm < in_ct(m, th[NDEG - 2]) ? 12 : 18;
}

/* exp of buf[P1] into *res; a NaN-filled T where torch's result is NaN
 * or undefined */
static airc_status expm_one(const mexp *m, const double *th, int *res)
{
    double norm = one_norm(m);
    if (!isfinite(norm)) {
        fill(m, T, NAN);
        *res = T;
        return AIRC_OK;
    }
    int deg = degree_of(m, norm, th);
    int64_t s = 0;
    if (deg == 18) {
        double q = in_ct(m, norm / in_ct(m, th[NDEG - 1]));
        double e = m->ct == AIRC_DTYPE_F32 ? (double)ceilf(log2f((float)q)) : ceil(log2(q));
        s = e > 0 ? (int64_t)e : 0; /* norm finite: e < 2^11 */
        if (s >= 64) {              /* torch's int64 2^s wraps to 0 */
            fill(m, T, NAN);
            *res = T;
            return AIRC_OK;
        }
        scale(m, P1, s == 63 ? -ldexp(1, -63) : ldexp(1, (int)-s));
    }
    AIRC_TRY(taylor(m, deg, res));
    for (int64_t i = 0; i < s; i++) {
        int to = *res == T ? P2 : T;
        AIRC_TRY(mm(m, to, *res, *res));
        *res = to;
    }
    return AIRC_OK;
}

/* n == 1: exp of each element (bf16 through f32, rounded once) */
static void exp_elements(const airc_tview *a, const airc_tview *out)
{
    int64_t total = airc_cpu_numel(out);
    for (int64_t p = 0; p < total; p++) {
        double v = airc_cpu_load_f64((const char *)a->data + airc_cpu_flat_offset(a, 0, p) *
                                                                 (int64_t)airc_dtype_size(a->dtype),
                                     a->dtype);
        double r = a->dtype == AIRC_DTYPE_F64 ? exp(v) : (double)expf((float)v);
        airc_cpu_store_f64((char *)out->data + airc_cpu_flat_offset(out, 0, p) *
                                                   (int64_t)airc_dtype_size(out->dtype),
                           out->dtype, r);
    }
}

/* f16, n >= 2: torch 1.13's CPU build has no f16 matmul nor log2; its
 * degree-1 polynomial (a zero matrix: I) is all it can compute. */
static airc_status half_matrices(mexp *m, const airc_tview *a, const airc_tview *out)
{
    airc_la_batch b;
    bool bmm = false, need_log2 = false;
    airc_la_batch_of(&b, a, 2);
    for (int64_t p = 0; p < b.count; p++, airc_la_next(&b)) {
        airc_la_load(a, &b, m->buf[P1], m->ct);
        double norm = one_norm(m); /* torch compares in half */
        bmm |= norm > airc_cpu_round_f64(AIRC_DTYPE_F16, airc_matrix_exp_theta_f64[0]) &&
               norm <= airc_cpu_round_f64(AIRC_DTYPE_F16, airc_matrix_exp_theta_f64[NDEG - 2]);
        need_log2 |=
            norm >= airc_cpu_round_f64(AIRC_DTYPE_F16, airc_matrix_exp_theta_f64[NDEG - 2]);
    }
    if (bmm || need_log2)
        return airc_cpu_fail(m->k, AIRC_E_RUNTIME, "\"%s\" not implemented for 'Half'",
                             bmm ? "bmm" : "log2_vml_cpu");
    airc_la_batch_of(&b, a, 2);
    for (int64_t p = 0; p < b.count; p++, airc_la_next(&b)) {
        airc_la_load(a, &b, m->buf[P1], m->ct);
        int res = T;
        if (isnan(one_norm(m)))
            fill(m, T, NAN);
        else
            lincomb(m, T, (const int[]){P0, P1}, (const double[]){1, 1}, 2);
        airc_tview src = airc_la_colmajor(m->buf[res], m->ct, m->n, m->n);
        airc_tview dst = airc_la_at(out, 2, &b);
        airc_cpu_copy(&dst, &src);
    }
    return AIRC_OK;
}

airc_status airc_cpu_k_linalg_matrix_exp(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL, *out = &k->out[0];
    if (!a || a->ndim < 2 || k->nout != 1 || a->shape[a->ndim - 1] != a->shape[a->ndim - 2])
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A must be a batch of square matrices");
    if (!airc_cpu_numel(a))
        return AIRC_OK;
    int64_t n = a->shape[a->ndim - 1];
    if (n == 1) {
        exp_elements(a, out);
        return AIRC_OK;
    }
    mexp m = {.k = k, .ct = a->dtype == AIRC_DTYPE_F64 ? AIRC_DTYPE_F64 : AIRC_DTYPE_F32, .n = n};
    size_t elems = 0;
    AIRC_TRY(airc_la_dims(k, "a matrix", n, n, &elems));
    m.nn = (int64_t)elems;
    char *block = airc_la_alloc(k, m.ct, elems * NBUF, "matrix_exp's scratch");
    if (!block)
        return AIRC_E_OUT_OF_MEMORY;
    for (int i = 0; i < NBUF; i++)
        m.buf[i] = block + (size_t)i * elems * airc_dtype_size(m.ct);
    fill(&m, P0, 0);
    for (int64_t i = 0; i < n; i++) {
        if (m.ct == AIRC_DTYPE_F32)
            d32(&m, P0)[i * n + i] = 1;
        else
            d64(&m, P0)[i * n + i] = 1;
    }
    airc_status st = AIRC_OK;
    if (a->dtype == AIRC_DTYPE_F16) {
        st = half_matrices(&m, a, out);
    } else {
        const double *th =
            m.ct == AIRC_DTYPE_F32 ? airc_matrix_exp_theta_f32 : airc_matrix_exp_theta_f64;
        airc_la_batch b;
        airc_la_batch_of(&b, a, 2);
        for (int64_t p = 0; p < b.count && st == AIRC_OK; p++, airc_la_next(&b)) {
            airc_la_load(a, &b, m.buf[P1], m.ct);
            int res = T;
            st = expm_one(&m, th, &res);
            if (st == AIRC_OK) {
                airc_tview src = airc_la_colmajor(m.buf[res], m.ct, n, n);
                airc_tview dst = airc_la_at(out, 2, &b);
                airc_cpu_copy(&dst, &src);
            }
        }
    }
    airc_free(k->ctx, block);
    return st;
}
