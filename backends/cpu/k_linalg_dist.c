/* Linalg family: pairwise distances (_cdist_forward; each operation
 * rounded to the operands' dtype, as torch's kernel computes) and the
 * cross product (linalg_cross: floats in double, rounded once; integers
 * wrap as torch's). */
#include "backends/cpu/k_linalg_impl.h"

#include <math.h>
#include <string.h>

static double load(const airc_tview *t, const int64_t *idx)
{
    return airc_cpu_load_f64(airc_cpu_at(t, idx), t->dtype);
}

/* v rounded to the dtype distances are computed in: torch's kernel works
 * in the operands' dtype (f32 for the half types), so a square past
 * float's range is inf there, as here */
static double rnd(airc_dtype ct, double v)
{
    return ct == AIRC_DTYPE_F64 ? v : airc_cpu_round_f64(AIRC_DTYPE_F32, v);
}

/* The p-norm distance of rows a and b (m elements, strides sa, sb), torch's
 * p = 0 (a count of min(ceil |d|, 1): a NaN difference makes it NaN), 1, 2,
 * inf (std::max: a NaN difference is skipped) and general p. */
static double pdist(airc_dtype ct, const char *a, int64_t sa, const char *b, int64_t sb, int64_t m,
                    double p)
{
    double acc = 0;
    for (int64_t k = 0; k < m; k++) {
        double d =
            rnd(ct, fabs(airc_cpu_load_f64(a + k * sa, ct) - airc_cpu_load_f64(b + k * sb, ct)));
        if (p == 0)
            acc += isnan(d) ? d : d != 0;
        else if (p == 1)
            acc = rnd(ct, acc + d);
        else if (p == 2)
            acc = rnd(ct, acc + rnd(ct, d * d));
        else if (isinf(p))
            acc = d > acc ? d : acc;
        else
            acc = rnd(ct, acc + rnd(ct, pow(d, p)));
    }
    return rnd(ct, p == 0 || p == 1 || isinf(p) ? acc : p == 2 ? sqrt(acc) : pow(acc, 1.0 / p));
}

/* torch's matrix form of the euclidean distance (its choice for rows past
 * 25, or compute_mode 1): the sum of -2 a_k b_k, |a|^2 and |b|^2 (one
 * product's terms), clamped at 0, its root */
static double euclid_mm(airc_dtype ct, const char *a, int64_t sa, const char *b, int64_t sb,
                        int64_t m)
{
    double na = 0, nb = 0, ab = 0;
    for (int64_t k = 0; k < m; k++) {
        double u = airc_cpu_load_f64(a + k * sa, ct), v = airc_cpu_load_f64(b + k * sb, ct);
        na = rnd(ct, na + rnd(ct, u * u));
        nb = rnd(ct, nb + rnd(ct, v * v));
        ab = rnd(ct, ab + rnd(ct, -2 * u * v));
    }
    double r = rnd(ct, rnd(ct, ab + na) + nb);
    return rnd(ct, sqrt(r < 0 ? 0 : r)); /* clamp_min: NaN stays */
}

/* The f32 distance of rows a and b (contiguous, m long) for p = 0, 1, 2
 * and inf in 8 lanes, as torch's vectorized kernel accumulates (float
 * throughout, so a square past float's range is inf); the lanes are then
 * summed in order. */
static float pdist_f32(const float *a, const float *b, int64_t m, double p)
{
    float lane[8] = {0}, acc = 0;
    int64_t k = 0, full = m - m % 8;
#define LANES(STEP)                                                                                \
    for (; k < full; k += 8)                                                                       \
        for (int j = 0; j < 8; j++) {                                                              \
            float d = fabsf(a[k + j] - b[k + j]), *l = &lane[j];                                   \
            STEP;                                                                                  \
        }
    if (p == 0)
        LANES(*l += isnan(d) ? d : (float)(d != 0))
    else if (p == 1)
        LANES(*l += d)
    else if (p == 2)
        LANES(*l += d * d)
    else
        LANES(*l = d > *l ? d : *l)
#undef LANES
    for (int j = 0; j < 8; j++)
        acc = isinf(p) ? (lane[j] > acc ? lane[j] : acc) : acc + lane[j];
    for (; k < m; k++) {
        float d = fabsf(a[k] - b[k]);
        acc = p == 0   ? acc + (isnan(d) ? d : (float)(d != 0))
              : p == 1 ? acc + d
              : p == 2 ? acc + d * d
                       : (d > acc ? d : acc);
    }
    return p == 2 ? sqrtf(acc) : acc;
}

/* torch's matrix form for a batch of f32 / f64 rows, its exact structure:
 * [-2 x1, |x1|^2, 1] @ [x2, 1, |x2|^2]^T as one GEMM, clamped at 0 (NaN
 * stays), its root. a [P, M] and b [R, M] contiguous; o a [P, R] view. */
static airc_status euclid_gemm(airc_kernel_ctx *k, airc_dtype dt, const char *a, const char *b,
                               int64_t P, int64_t R, int64_t M, airc_cpu_mat o)
{
    int64_t w = M + 2;
    size_t es = airc_dtype_size(dt);
    char *ta = airc_malloc(k->ctx, (size_t)((P + R) * w) * es);
    if (!ta)
        return airc_cpu_oom(k, "the augmented cdist operands");
    char *tb = ta + P * w * (int64_t)es;
#define AUGMENT(T)                                                                                 \
    for (int pass = 0; pass < 2; pass++) {                                                         \
        const T *src = (const T *)(pass ? b : a);                                                  \
        T *dst = (T *)(pass ? tb : ta);                                                            \
        for (int64_t r = 0; r < (pass ? R : P); r++) {                                             \
            double norm = 0;                                                                       \
            for (int64_t c = 0; c < M; c++) {                                                      \
                T v = src[r * M + c];                                                              \
                norm += (double)v * v;                                                             \
                dst[r * w + c] = pass ? v : -2 * v;                                                \
            }                                                                                      \
            dst[r * w + M] = pass ? 1 : (T)norm;                                                   \
            dst[r * w + M + 1] = pass ? (T)norm : 1;                                               \
        }                                                                                          \
    }
    if (dt == AIRC_DTYPE_F32)
        AUGMENT(float)
    else
        AUGMENT(double)
#undef AUGMENT
    airc_cpu_mat ma = {ta, P, w, w, 1}, mb = {tb, w, R, 1, w};
    airc_status st = airc_cpu_gemm(k, dt, 1.0, ma, mb, 0.0, o);
    airc_free(k->ctx, ta);
    for (int64_t i = 0; st == AIRC_OK && i < P; i++)
        for (int64_t j = 0; j < R; j++) {
            int64_t at = i * o.rs + j * o.cs;
            if (dt == AIRC_DTYPE_F32) {
                float *v = (float *)o.p + at;
                *v = sqrtf(*v < 0 ? 0 : *v);
            } else {
                double *v = (double *)o.p + at;
                *v = sqrt(*v < 0 ? 0 : *v);
            }
        }
    return st;
}

/* _cdist_forward(x1 [..., P, M], x2 [..., R, M], p, compute_mode), and
 * _euclidean_dist(x1, x2) (`matrix`: always the matrix form) */
static airc_status cdist(airc_kernel_ctx *k, bool matrix)
{
    const airc_tview *x1 = k->in ? k->in[0] : NULL, *x2 = k->in ? k->in[1] : NULL;
    const airc_tview *o = &k->out[0];
    if (!x1 || !x2 || x1->ndim < 2 || x2->ndim < 2 || o->ndim < 2)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "two operands of at least 2 dims");
    double p = airc_cpu_arg_double(k, 2, 2.0);
    int64_t mode = airc_cpu_arg_int(k, 3, 0);
    int32_t nb = o->ndim - 2;
    int64_t P = o->shape[nb], R = o->shape[nb + 1], M = x1->shape[x1->ndim - 1];
    bool mm = matrix || (p == 2 && (mode == 1 || (mode == 0 && (P > 25 || R > 25))));
    /* the operands broadcast over the result's batch dims */
    int64_t s1[AIRC_MAX_DIMS], s2[AIRC_MAX_DIMS];
    memcpy(s1, o->shape, sizeof *s1 * (size_t)nb);
    memcpy(s2, o->shape, sizeof *s2 * (size_t)nb);
    s1[nb] = P;
    s2[nb] = R;
    s1[nb + 1] = s2[nb + 1] = M;
    airc_tview e1, e2;
    if (!airc_cpu_expand(x1, s1, nb + 2, &e1) || !airc_cpu_expand(x2, s2, nb + 2, &e2))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "batch dims do not broadcast");
    if (airc_cpu_numel(o) == 0)
        return AIRC_OK;
    int64_t idx[AIRC_MAX_DIMS] = {0};
    int64_t es1 = (int64_t)airc_dtype_size(x1->dtype), es2 = (int64_t)airc_dtype_size(x2->dtype);
    bool fast = (x1->dtype == AIRC_DTYPE_F32 || (mm && x1->dtype == AIRC_DTYPE_F64)) &&
                x2->dtype == x1->dtype && M > 0 && e1.strides[nb + 1] == 1 &&
                e2.strides[nb + 1] == 1 && e1.strides[nb] == M && e2.strides[nb] == M &&
                (mm || p == 0 || p == 1 || p == 2 || isinf(p));
    if (fast) { /* one batch at a time: contiguous rows */
        int64_t bi[AIRC_MAX_DIMS] = {0}, pi[AIRC_MAX_DIMS] = {0};
        do {
            memcpy(pi, bi, sizeof *pi * (size_t)nb);
            pi[nb] = pi[nb + 1] = 0;
            const char *a = airc_cpu_at(&e1, pi), *b = airc_cpu_at(&e2, pi);
            airc_cpu_mat c = {airc_cpu_at(o, pi), P, R, o->strides[nb], o->strides[nb + 1]};
            if (mm) {
                AIRC_TRY(euclid_gemm(k, x1->dtype, a, b, P, R, M, c));
                continue;
            }
            for (int64_t i = 0; i < P; i++)
                for (int64_t j = 0; j < R; j++)
                    ((float *)c.p)[i * c.rs + j * c.cs] =
                        pdist_f32((const float *)a + i * M, (const float *)b + j * M, M, p);
        } while (airc_cpu_next_index(bi, o->shape, nb));
        return AIRC_OK;
    }
    do { /* idx: [batch..., i, j] of the result */
        int64_t j1[AIRC_MAX_DIMS], j2[AIRC_MAX_DIMS];
        memcpy(j1, idx, sizeof *j1 * (size_t)nb);
        memcpy(j2, idx, sizeof *j2 * (size_t)nb);
        j1[nb] = idx[nb];
        j2[nb] = idx[nb + 1];
        j1[nb + 1] = j2[nb + 1] = 0;
        const char *a = M ? airc_cpu_at(&e1, j1) : NULL, *b = M ? airc_cpu_at(&e2, j2) : NULL;
        int64_t sa = e1.strides[nb + 1] * es1, sb = e2.strides[nb + 1] * es2;
        double v =
            mm ? euclid_mm(x1->dtype, a, sa, b, sb, M) : pdist(x1->dtype, a, sa, b, sb, M, p);
        airc_cpu_store_f64(airc_cpu_at(o, idx), o->dtype, v);
    } while (airc_cpu_next_index(idx, o->shape, o->ndim));
    return AIRC_OK;
}

airc_status airc_cpu_k_cdist(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return cdist(k, false);
}

airc_status airc_cpu_k_euclidean_dist(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return cdist(k, true);
}

/* linalg_cross(self, other, dim): (a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 -
 * a1 b0) along dim, the operands broadcast to the result */
airc_status airc_cpu_k_linalg_cross(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x = k->in ? k->in[0] : NULL, *y = k->in ? k->in[1] : NULL;
    const airc_tview *o = &k->out[0];
    int32_t d = o->ndim ? airc_cpu_wrap_dim(airc_cpu_arg_int(k, 2, -1), o->ndim) : -1;
    airc_tview a, b;
    if (!x || !y || d < 0 || d >= o->ndim || o->shape[d] != 3 ||
        !airc_cpu_expand(x, o->shape, o->ndim, &a) || !airc_cpu_expand(y, o->shape, o->ndim, &b))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "operands of length 3 along dim expected");
    if (airc_cpu_numel(o) == 0)
        return AIRC_OK;
    bool fp = airc_cpu_dtype_is_float(o->dtype);
    int64_t idx[AIRC_MAX_DIMS] = {0}, shape[AIRC_MAX_DIMS];
    memcpy(shape, o->shape, sizeof *shape * (size_t)o->ndim);
    shape[d] = 1; /* visit each vector once */
    do {
        double af[3], bf[3];
        uint64_t ai[3], bi[3];
        for (int c = 0; c < 3; c++) {
            idx[d] = c;
            af[c] = load(&a, idx);
            bf[c] = load(&b, idx);
            ai[c] = (uint64_t)airc_cpu_load_i64(airc_cpu_at(&a, idx), a.dtype);
            bi[c] = (uint64_t)airc_cpu_load_i64(airc_cpu_at(&b, idx), b.dtype);
        }
        for (int c = 0; c < 3; c++) {
            int u = (c + 1) % 3, v = (c + 2) % 3;
            idx[d] = c;
            char *p = airc_cpu_at(o, idx);
            if (fp)
                airc_cpu_store_f64(p, o->dtype, af[u] * bf[v] - af[v] * bf[u]);
            else
                airc_cpu_store_i64(p, o->dtype, (int64_t)(ai[u] * bi[v] - ai[v] * bi[u]));
        }
        idx[d] = 0;
    } while (airc_cpu_next_index(idx, shape, o->ndim));
    return AIRC_OK;
}

/* The p = 0 (a count) or inf-norm distance of rows a and b as torch's
 * pdist kernel takes them: its vector min(ceil |d|, 1) and max let a NaN
 * difference win */
static double pdist_nan(airc_dtype ct, const char *a, const char *b, int64_t es, int64_t m,
                        bool count)
{
    double acc = 0;
    for (int64_t k = 0; k < m && !isnan(acc); k++) {
        double d = fabs(airc_cpu_load_f64(a + k * es, ct) - airc_cpu_load_f64(b + k * es, ct));
        if (count)
            acc = isnan(d) ? d : acc + (d != 0);
        else
            acc = isnan(d) || d > acc ? d : acc;
    }
    return acc;
}

/* _pdist_forward(self, p): the distance of rows i < j of a contiguous
 * [n, m] self, in row-major pair order, each as _cdist_forward computes it
 * without the matrix form (torch's pdist never takes it), but for p = 0
 * and inf (a NaN difference wins) and m = 0 (0 whatever p, as torch
 * fills it) */
airc_status airc_cpu_k_pdist(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x = k->in && k->nargs ? k->in[0] : NULL, *o = &k->out[0];
    if (!x || o->ndim != 1)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "self must be a tensor");
    int64_t n = x->ndim ? x->shape[0] : 0;
    if (n < 2 && o->shape[0] == 0) /* torch's early return, any self */
        return AIRC_OK;
    if (x->ndim != 2 || !airc_cpu_is_contiguous(x) ||
        (x->dtype != AIRC_DTYPE_F32 && x->dtype != AIRC_DTYPE_F64) || o->dtype != x->dtype ||
        o->shape[0] != n * (n - 1) / 2)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                             "a contiguous 2-d f32 / f64 self and n (n - 1) / 2 results");
    double p = airc_cpu_arg_double(k, 1, 2.0);
    if (x->dtype == AIRC_DTYPE_F32) /* torch picks the norm by p in self's type: 1e39 is inf */
        p = (float)p;
    int64_t m = x->shape[1], es = (int64_t)airc_dtype_size(x->dtype);
    bool fast = x->dtype == AIRC_DTYPE_F32 && m > 0 && (p == 1 || p == 2);
    char *out = o->data;
    for (int64_t i = 0, c = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++, c++) {
            const char *a = (const char *)x->data + i * m * es;
            const char *b = (const char *)x->data + j * m * es;
            double v = m == 0               ? 0
                       : isinf(p) || p == 0 ? pdist_nan(x->dtype, a, b, es, m, p == 0)
                       : fast               ? pdist_f32((const float *)a, (const float *)b, m, p)
                                            : pdist(x->dtype, a, es, b, es, m, p);
            airc_cpu_store_f64(out + c * o->strides[0] * es, o->dtype, v);
        }
    return AIRC_OK;
}
