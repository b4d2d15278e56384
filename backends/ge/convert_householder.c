/* Lowerings of LAPACK's Householder QR pieces to Ascend IR: geqrf,
 * linalg_householder_product (orgqr) and ormqr. CANN has no op giving
 * LAPACK's compact form (R above the diagonal, the reflectors' vectors
 * below it, their scales tau), so each is a composite of basic ops
 * (GatherV2, SelectV2 on const masks, ReduceSum, Sqrt, BatchMatMul,
 * broadcast Mul / Sub), unrolled over the reflectors, up to
 * MAX_REFLECTORS. The batch is flattened into one dim throughout.
 *
 * Reflector i is H_i = I - tau_i v_i v_i^T, v_i = (0 .. 0, 1, A[i+1:, i]).
 * One applied to C from the left is C - v (tau w) with w = v^T C, from the
 * right C - w (tau v^T) with w = C v: LAPACK's dlarf (a gemv, then a ger
 * scaling w, or v, by tau), its sums in the device's order.
 *
 * geqrf follows the unblocked dgeqr2 + dlarfg that dgeqrf runs for fewer
 * than 128 columns: for column j, alpha = a[j, j], x = a[j+1:, j]; where
 * ||x|| is 0, tau = 0 and the column stays; else beta = -sign(alpha)
 * dlapy2(alpha, ||x||) (sign(-0) is -, as gfortran's SIGN), tau =
 * (beta - alpha) / beta, v = x * (1 / (alpha - beta)), a[j, j] = beta,
 * and H_j is applied to the columns after j. dlarfg's rescaling of a
 * beta below safmin (|alpha| and ||x|| near the underflow) is skipped,
 * and ||x|| is the plain root of the sum of squares (dnrm2 scales it), so
 * columns near the dtype's underflow or overflow may differ. orgqr's Q = H_1 .. H_k I[:, :n]
 * applies H_k first, as dorg2r; ormqr applies the k reflectors in the order of dorm2r: Q C and C
 * Q^T H_k first, Q^T C and C Q H_1 first. */
#include "backends/ge/lapack_internal.h"

#include <string.h>

/* Most reflectors unrolled (a few dozen ops each). */
#define MAX_REFLECTORS 64

static airc_status refuse_reflectors(const airc_node *n, int64_t k)
{
    return airc_gla_refuse_unrolled(n, k, "Householder reflectors", MAX_REFLECTORS);
}

/* One call's dtype, batch (nb dims, bf elements) and 0-d constants */
typedef struct hh {
    airc_dtype dt;
    int32_t nb;
    int64_t bf;
    airc_ge_tensor zero, one;
} hh;

/* From the meta of a result of the call (a matrix batch) */
static airc_status hh_init(airc_ge_builder *b, const airc_tmeta *m, hh *h)
{
    h->dt = m->dtype;
    h->nb = m->ndim - 2;
    h->bf = 1;
    for (int32_t i = 0; i < h->nb; i++)
        h->bf *= m->shape[i];
    AIRC_TRY(airc_ge_const_scalar(b, h->dt, 0, &h->zero));
    return airc_ge_const_scalar(b, h->dt, 1, &h->one);
}

/* Argument i reshaped to [bf, rows, cols]: a matrix batch's last two
 * dims, tau [*, k] as [bf, 1, k] */
static airc_status flat_input(airc_ge_builder *b, const hh *h, size_t i, airc_ge_tensor *out)
{
    airc_dtype dt;
    int32_t nd;
    const int64_t *s;
    AIRC_TRY(airc_ge_input(b, i, out));
    AIRC_TRY(airc_ge_tensor_meta(b, *out, &dt, &nd, &s));
    const int64_t shape[3] = {h->bf, nd == h->nb + 1 ? 1 : s[nd - 2], s[nd - 1]};
    return airc_ge_reshape(b, *out, dt, 3, shape, out);
}

/* A const bool of positions p = 0..len-1 along `axis` (shape [len, 1]
 * for axis 0, [1, len] for 1): p > at where after, else p == at */
static airc_status position_mask(airc_ge_builder *b, int64_t len, int64_t at, bool after, int axis,
                                 airc_ge_tensor *out)
{
    bool *m = airc_malloc(b->ctx, (size_t)(len > 0 ? len : 1));
    if (!m)
        return airc_fail(AIRC_E_OUT_OF_MEMORY, "out of memory: a position mask");
    for (int64_t p = 0; p < len; p++)
        m[p] = after ? p > at : p == at;
    const int64_t s[2] = {axis ? 1 : len, axis ? len : 1};
    airc_status st = airc_ge_const(b, AIRC_DTYPE_BOOL, 2, s, m, out);
    airc_free(b->ctx, m);
    return st;
}

/* x [bf, r, c]'s slice i along axis (1 or 2), that dim kept */
static airc_status slice_at(airc_ge_builder *b, airc_ge_tensor x, int64_t i, int64_t axis,
                            airc_ge_tensor *out)
{
    airc_dtype dt;
    int32_t nd;
    const int64_t *s;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &nd, &s));
    int64_t shape[3] = {s[0], s[1], s[2]};
    shape[axis] = 1;
    airc_ge_tensor idx;
    AIRC_TRY(airc_ge_const_ints(b, &i, 1, &idx));
    return airc_ge_gather(b, x, idx, axis, dt, 3, shape, out);
}

/* Reflector i of a [bf, m, n]: v [bf, m, 1] (zeros above row i, 1 at it,
 * a's column i below) and tau_i [bf, 1, 1] of tau [bf, 1, k] */
static airc_status reflector(airc_ge_builder *b, const hh *h, airc_ge_tensor a, airc_ge_tensor tau,
                             int64_t m, int64_t i, airc_ge_tensor *v, airc_ge_tensor *t)
{
    const int64_t vs[3] = {h->bf, m, 1};
    airc_ge_tensor below, at, col;
    AIRC_TRY(position_mask(b, m, i, true, 0, &below));
    AIRC_TRY(position_mask(b, m, i, false, 0, &at));
    AIRC_TRY(slice_at(b, a, i, 2, &col));
    AIRC_TRY(airc_ge_select(b, below, col, h->zero, h->dt, 3, vs, &col));
    AIRC_TRY(airc_ge_select(b, at, h->one, col, h->dt, 3, vs, v));
    return slice_at(b, tau, i, 2, t);
}

/* H = I - t v v^T applied to c [bf, r, p]: H c (left; v [bf, r, 1]) or
 * c H (v [bf, p, 1]); t [bf, 1, 1] */
static airc_status apply_reflector(airc_ge_builder *b, const hh *h, airc_ge_tensor c,
                                   airc_ge_tensor v, airc_ge_tensor t, bool left,
                                   airc_ge_tensor *out)
{
    airc_dtype dt = h->dt;
    const int64_t *cs;
    int32_t nd;
    AIRC_TRY(airc_ge_tensor_meta(b, c, NULL, &nd, &cs));
    int64_t shape[3] = {h->bf, cs[1], cs[2]}, ws[3] = {h->bf, 1, cs[2]};
    airc_ge_tensor w, tv, upd;
    if (left) { /* w = v^T c [bf, 1, p]; c - v (t w) */
        AIRC_TRY(airc_gla_matmul(b, v, c, true, false, dt, 3, ws, &w));
        AIRC_TRY(airc_gla_ew2(b, "Mul", t, w, dt, 3, ws, &w));
        AIRC_TRY(airc_gla_ew2(b, "Mul", v, w, dt, 3, shape, &upd));
    } else { /* w = c v [bf, r, 1]; c - w (t v^T) */
        ws[1] = cs[1];
        ws[2] = 1;
        AIRC_TRY(airc_gla_matmul(b, c, v, false, false, dt, 3, ws, &w));
        int64_t vs[3] = {h->bf, cs[2], 1}, row[3] = {h->bf, 1, cs[2]};
        AIRC_TRY(airc_gla_ew2(b, "Mul", t, v, dt, 3, vs, &tv));
        AIRC_TRY(airc_ge_reshape(b, tv, dt, 3, row, &tv));
        AIRC_TRY(airc_gla_ew2(b, "Mul", w, tv, dt, 3, shape, &upd));
    }
    return airc_gla_ew2(b, "Sub", c, upd, dt, 3, shape, out);
}

/* The flattened result r reshaped to the node's result j */
static airc_status set_flat_result(airc_ge_builder *b, const airc_node *n, size_t j,
                                   airc_ge_tensor r)
{
    const airc_tmeta *m = &n->out[j];
    AIRC_TRY(airc_ge_reshape(b, r, m->dtype, m->ndim, m->shape, &r));
    return airc_ge_set_result(b, j, r);
}

/* LAPACK's dlapy2(x, y) of y >= 0, [bf, 1, 1]: sqrt(x^2 + y^2) as w
 * sqrt(1 + (z / w)^2) of w = max(|x|, y), z = min(|x|, y); w where z is
 * 0 (its rounding, which a rank-deficient f32 matrix's next columns
 * amplify) */
static airc_status lapy2(airc_ge_builder *b, const hh *h, airc_ge_tensor x, airc_ge_tensor y,
                         airc_ge_tensor *out)
{
    airc_dtype dt = h->dt;
    const int64_t ss[3] = {h->bf, 1, 1};
    airc_ge_tensor w, z, q, zero;
    AIRC_TRY(airc_ge_ew_op(b, "Abs", &x, 1, dt, 3, ss, &x));
    AIRC_TRY(airc_gla_ew2(b, "Maximum", x, y, dt, 3, ss, &w));
    AIRC_TRY(airc_gla_ew2(b, "Minimum", x, y, dt, 3, ss, &z));
    AIRC_TRY(airc_gla_ew2(b, "Equal", z, h->zero, AIRC_DTYPE_BOOL, 3, ss, &zero));
    AIRC_TRY(airc_gla_ew2(b, "RealDiv", z, w, dt, 3, ss, &q));
    AIRC_TRY(airc_gla_ew2(b, "Mul", q, q, dt, 3, ss, &q));
    AIRC_TRY(airc_gla_ew2(b, "Add", h->one, q, dt, 3, ss, &q));
    AIRC_TRY(airc_ge_ew_op(b, "Sqrt", &q, 1, dt, 3, ss, &q));
    AIRC_TRY(airc_gla_ew2(b, "Mul", w, q, dt, 3, ss, &q));
    return airc_ge_select(b, zero, w, q, dt, 3, ss, out);
}

/* dlarfg of column j (col [bf, m, 1], below its rows after j): beta (the
 * new col[j]), tau and v (col below row j scaled, zeros at and above j),
 * each [bf, 1, 1] but v [bf, m, 1]; tau 0, beta alpha and v x where
 * ||x|| is 0 */
static airc_status householder_vector(airc_ge_builder *b, const hh *h, airc_ge_tensor col,
                                      airc_ge_tensor below, int64_t m, int64_t j,
                                      airc_ge_tensor *beta, airc_ge_tensor *tau, airc_ge_tensor *v)
{
    airc_dtype dt = h->dt;
    const int64_t cs[3] = {h->bf, m, 1}, ss[3] = {h->bf, 1, 1}, axis = 1;
    airc_ge_tensor x, alpha, xx, nrm, neg, minus, scal, flat;
    AIRC_TRY(airc_ge_select(b, below, col, h->zero, dt, 3, cs, &x));
    AIRC_TRY(slice_at(b, col, j, 1, &alpha));
    AIRC_TRY(airc_gla_ew2(b, "Mul", x, x, dt, 3, cs, &xx));
    AIRC_TRY(airc_ge_reduce(b, "ReduceSum", xx, &axis, 1, true, dt, 3, ss, &xx));
    AIRC_TRY(airc_ge_ew_op(b, "Sqrt", &xx, 1, dt, 3, ss, &nrm));
    AIRC_TRY(airc_gla_ew2(b, "Equal", nrm, h->zero, AIRC_DTYPE_BOOL, 3, ss, &flat));
    /* beta = -sign(alpha) dlapy2(alpha, ||x||) */
    AIRC_TRY(lapy2(b, h, alpha, nrm, &nrm));
    AIRC_TRY(airc_ge_ew_op(b, "Neg", &nrm, 1, dt, 3, ss, &minus));
    AIRC_TRY(airc_ge_sign_bit(b, alpha, dt, 3, ss, &neg));
    AIRC_TRY(airc_ge_select(b, neg, nrm, minus, dt, 3, ss, beta));
    /* tau = (beta - alpha) / beta, v = x * (1 / (alpha - beta)) */
    AIRC_TRY(airc_gla_ew2(b, "Sub", *beta, alpha, dt, 3, ss, tau));
    AIRC_TRY(airc_gla_ew2(b, "RealDiv", *tau, *beta, dt, 3, ss, tau));
    AIRC_TRY(airc_gla_ew2(b, "Sub", alpha, *beta, dt, 3, ss, &scal));
    AIRC_TRY(airc_ge_ew_op(b, "Reciprocal", &scal, 1, dt, 3, ss, &scal));
    AIRC_TRY(airc_gla_ew2(b, "Mul", x, scal, dt, 3, cs, v));
    /* ||x|| == 0: H = I */
    AIRC_TRY(airc_ge_select(b, flat, h->zero, *tau, dt, 3, ss, tau));
    AIRC_TRY(airc_ge_select(b, flat, alpha, *beta, dt, 3, ss, beta));
    return airc_ge_select(b, flat, x, *v, dt, 3, cs, v);
}

/* Step j of dgeqr2 on a [bf, m, n]: column j becomes R's entry and the
 * reflector's vector, H_j applies to the columns after it; tau_j goes to
 * taus [bf, 1, k] */
static airc_status geqr2_step(airc_ge_builder *b, const hh *h, int64_t m, int64_t n, int64_t k,
                              int64_t j, airc_ge_tensor *a, airc_ge_tensor *taus)
{
    airc_dtype dt = h->dt;
    const int64_t shape[3] = {h->bf, m, n}, cs[3] = {h->bf, m, 1}, ts[3] = {h->bf, 1, k};
    airc_ge_tensor col, beta, tau, v, at, below, newcol, mask;
    AIRC_TRY(position_mask(b, m, j, false, 0, &at));
    AIRC_TRY(position_mask(b, m, j, true, 0, &below));
    AIRC_TRY(slice_at(b, *a, j, 2, &col));
    AIRC_TRY(householder_vector(b, h, col, below, m, j, &beta, &tau, &v));
    AIRC_TRY(airc_ge_select(b, below, v, col, dt, 3, cs, &newcol));
    AIRC_TRY(airc_ge_select(b, at, beta, newcol, dt, 3, cs, &newcol));
    if (j + 1 < n) { /* the columns after j: H_j a (v 1 at row j) */
        airc_ge_tensor upd;
        AIRC_TRY(airc_ge_select(b, at, h->one, v, dt, 3, cs, &v));
        AIRC_TRY(apply_reflector(b, h, *a, v, tau, true, &upd));
        AIRC_TRY(position_mask(b, n, j, true, 1, &mask));
        AIRC_TRY(airc_ge_select(b, mask, upd, *a, dt, 3, shape, a));
    }
    AIRC_TRY(position_mask(b, n, j, false, 1, &mask));
    AIRC_TRY(airc_ge_select(b, mask, newcol, *a, dt, 3, shape, a));
    AIRC_TRY(position_mask(b, k, j, false, 1, &mask));
    return airc_ge_select(b, mask, tau, *taus, dt, 3, ts, taus);
}

/* geqrf(A) -> (a, tau) */
static airc_status conv_geqrf(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *am = &n->out[0];
    int32_t nd = am->ndim;
    int64_t m = am->shape[nd - 2], c = am->shape[nd - 1], k = m < c ? m : c;
    if (!airc_tmeta_numel(am)) {
        AIRC_TRY(airc_gla_zeros_result(b, n, 0));
        return airc_gla_zeros_result(b, n, 1);
    }
    if (k > MAX_REFLECTORS)
        return refuse_reflectors(n, k);
    hh h;
    AIRC_TRY(hh_init(b, am, &h));
    airc_ge_tensor a, taus;
    const int64_t ts[3] = {h.bf, 1, k};
    AIRC_TRY(flat_input(b, &h, 0, &a));
    AIRC_TRY(airc_ge_fill(b, h.dt, 3, ts, 0, &taus));
    for (int64_t j = 0; j < k; j++)
        AIRC_TRY(geqr2_step(b, &h, m, c, k, j, &a, &taus));
    AIRC_TRY(set_flat_result(b, n, 0, a));
    return set_flat_result(b, n, 1, taus);
}

/* linalg_householder_product(A, tau) -> Q [*, m, n] = H_1 .. H_k applied
 * to the identity's first n columns, H_k first */
static airc_status conv_householder_product(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *qm = &n->out[0], *tm = airc_gla_arg_meta(b, 1);
    if (!tm)
        return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': tau is not a tensor", n->name);
    if (!airc_tmeta_numel(qm))
        return airc_gla_zeros_result(b, n, 0);
    int32_t nd = qm->ndim;
    int64_t m = qm->shape[nd - 2], c = qm->shape[nd - 1], k = tm->shape[tm->ndim - 1];
    if (k > MAX_REFLECTORS)
        return refuse_reflectors(n, k);
    hh h;
    AIRC_TRY(hh_init(b, qm, &h));
    const int64_t shape[3] = {h.bf, m, c};
    airc_ge_tensor a = {0}, tau = {0}, q, v, t; /* a, tau: read where k > 0 */
    AIRC_TRY(airc_gla_tri_mask(b, m, c, 0, &q));
    AIRC_TRY(airc_ge_cast(b, q, h.dt, &q));
    AIRC_TRY(airc_ge_broadcast(b, q, 3, shape, &q));
    if (k) {
        AIRC_TRY(flat_input(b, &h, 0, &a));
        AIRC_TRY(flat_input(b, &h, 1, &tau));
    }
    for (int64_t i = k - 1; i >= 0; i--) {
        AIRC_TRY(reflector(b, &h, a, tau, m, i, &v, &t));
        AIRC_TRY(apply_reflector(b, &h, q, v, t, true, &q));
    }
    return set_flat_result(b, n, 0, q);
}

/* ormqr(A, tau, C, left, transpose) -> Q C, Q^T C, C Q or C Q^T */
static airc_status conv_ormqr(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *cm = &n->out[0], *am = airc_gla_arg_meta(b, 0), *tm = airc_gla_arg_meta(b, 1);
    if (!am || !tm)
        return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': input and tau must be tensors", n->name);
    if (!airc_tmeta_numel(cm))
        return airc_gla_zeros_result(b, n, 0);
    int64_t m = am->shape[am->ndim - 2], k = tm->shape[tm->ndim - 1];
    if (k > MAX_REFLECTORS)
        return refuse_reflectors(n, k);
    bool left = airc_ge_bool_arg(b, 3, true), transpose = airc_ge_bool_arg(b, 4, false);
    bool first_to_last = left == transpose; /* H_1 applied first */
    hh h;
    AIRC_TRY(hh_init(b, cm, &h));
    airc_ge_tensor a = {0}, tau = {0}, c, v, t;
    AIRC_TRY(flat_input(b, &h, 2, &c));
    if (k) {
        AIRC_TRY(flat_input(b, &h, 0, &a));
        AIRC_TRY(flat_input(b, &h, 1, &tau));
    }
    for (int64_t s = 0; s < k; s++) {
        int64_t i = first_to_last ? s : k - 1 - s;
        AIRC_TRY(reflector(b, &h, a, tau, m, i, &v, &t));
        AIRC_TRY(apply_reflector(b, &h, c, v, t, left, &c));
    }
    return set_flat_result(b, n, 0, c);
}

static const ge_conv_entry conv[] = {
    {"aten.geqrf.default", conv_geqrf, NULL},
    {"aten.linalg_householder_product.default", conv_householder_product, NULL},
    {"aten.ormqr.default", conv_ormqr, NULL},
};

const ge_family airc_ge_family_householder = {conv, sizeof conv / sizeof *conv, NULL, 0};
