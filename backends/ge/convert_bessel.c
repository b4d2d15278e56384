/* torch.special's Bessel functions and orthogonal polynomials to Ascend IR
 * (TorchAir has converters for none of them). bessel_j0 / j1 / y0 / y1,
 * modified_bessel_i0 / i1 / k0 / k1 and scaled_modified_bessel_k0 / k1
 * are CANN's BesselJ0 .. BesselK1e (x -> y), ops of the same Cephes
 * definitions (zeros, poles and NaN domains included); airy_ai and
 * spherical_bessel_j0 are composites of torch's own algorithms (SelectV2
 * over the regions, the series unrolled). A polynomial of a Scalar degree
 * (.n_scalar) is its recurrence unrolled n steps with torch's edges and
 * closed forms; a tensor degree (.default, .x_scalar) decides each
 * element's step count, and a GE graph has no loop: refused, but for
 * Hermite's, whose recurrences reach NaN by a bounded degree. All in
 * f32 for f32 (torch's kernels compute in float) and f64 for f64. */
#include "backends/cpu/k_bessel.h"
#include "backends/ge/ge_comp.h"
#include "ops/meta_util.h"

#include <math.h>

static const special_op s_j0 = {"BesselJ0", "aten.special_bessel_j0.default", {"x"}, "y", 1};
static const special_op s_j1 = {"BesselJ1", "aten.special_bessel_j1.default", {"x"}, "y", 1};
static const special_op s_y0 = {"BesselY0", "aten.special_bessel_y0.default", {"x"}, "y", 1};
static const special_op s_y1 = {"BesselY1", "aten.special_bessel_y1.default", {"x"}, "y", 1};
static const special_op s_i0 = {
    "BesselI0", "aten.special_modified_bessel_i0.default", {"x"}, "y", 1};
static const special_op s_i1 = {
    "BesselI1", "aten.special_modified_bessel_i1.default", {"x"}, "y", 1};
/* torch.special.i1e (Cephes' i1e, as torch's calc_i1e) */
static const special_op s_i1e = {"BesselI1e", "aten.special_i1e.default", {"x"}, "y", 1};
static const special_op s_k0 = {
    "BesselK0", "aten.special_modified_bessel_k0.default", {"x"}, "y", 1};
static const special_op s_k1 = {
    "BesselK1", "aten.special_modified_bessel_k1.default", {"x"}, "y", 1};
static const special_op s_k0e = {
    "BesselK0e", "aten.special_scaled_modified_bessel_k0.default", {"x"}, "y", 1};
static const special_op s_k1e = {
    "BesselK1e", "aten.special_scaled_modified_bessel_k1.default", {"x"}, "y", 1};

/* c[0] z^(len-1) + ... + c[len-1] by Horner's rule */
static airc_status horner(const comp *c, airc_ge_tensor z, const double *k, int len,
                          airc_ge_tensor *out)
{
    airc_ge_tensor r;
    AIRC_TRY(num(c, k[0], &r));
    for (int i = 1; i < len; i++) {
        AIRC_TRY(op2(c, "Mul", r, z, &r));
        AIRC_TRY(op_num(c, "Add", r, k[i], &r));
    }
    *out = r;
    return AIRC_OK;
}

/* horner(z, p) / horner(z, q) */
static airc_status rational(const comp *c, airc_ge_tensor z, const double *p, int np,
                            const double *q, int nq, airc_ge_tensor *out)
{
    airc_ge_tensor a, d;
    AIRC_TRY(horner(c, z, p, np, &a));
    AIRC_TRY(horner(c, z, q, nq, &d));
    return op2(c, "RealDiv", a, d, out);
}

/* spherical_bessel_j0(x) = Sin(x) / x, its Taylor polynomial in x^2 below
 * |x| = 1/2, 0 at ±inf */
static airc_status conv_spherical_j0(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    static const double taylor[] = {1.0 / 6227020800.0,
                                    -1.0 / 39916800.0,
                                    1.0 / 362880.0,
                                    -1.0 / 5040.0,
                                    1.0 / 120.0,
                                    -1.0 / 6.0,
                                    1.0};
    comp c;
    airc_ge_tensor x, z, p, s, ax, t, zero;
    AIRC_TRY(begin(b, n, 0, &c, &x));
    AIRC_TRY(op2(&c, "Mul", x, x, &z));
    AIRC_TRY(horner(&c, z, taylor, 7, &p));
    AIRC_TRY(op1(&c, "Sin", x, &s));
    AIRC_TRY(op2(&c, "RealDiv", s, x, &s));
    AIRC_TRY(op1(&c, "Abs", x, &ax));
    AIRC_TRY(op_num(&c, "Less", ax, 0.5, &t));
    AIRC_TRY(select_(&c, t, p, s, &s));
    AIRC_TRY(num(&c, 0, &zero));
    AIRC_TRY(op_num(&c, "Equal", ax, INFINITY, &t));
    AIRC_TRY(select_(&c, t, zero, s, &s));
    return finish(&c, n, s);
}

/* Ai below -2.09: 1/sqrt(pi) / (-x)^(1/4) (sin(t) (1 + z^2 F(z^2)) - cos(t)
 * z G(z^2)), zeta = 2/3 (-x)^(3/2), z = 1 / zeta, t = zeta + pi/4 */
static airc_status airy_neg(const comp *c, airc_ge_tensor x, airc_ge_tensor *out)
{
    airc_ge_tensor nx, r, zeta, z, zz, f, g, t, s, one;
    AIRC_TRY(op1(c, "Neg", x, &nx));
    AIRC_TRY(op1(c, "Sqrt", nx, &r));
    AIRC_TRY(op_num(c, "Mul", x, -2.0, &zeta));
    AIRC_TRY(op2(c, "Mul", zeta, r, &zeta));
    AIRC_TRY(op_num(c, "RealDiv", zeta, 3.0, &zeta));
    AIRC_TRY(num(c, 1, &one));
    AIRC_TRY(op2(c, "RealDiv", one, zeta, &z));
    AIRC_TRY(op2(c, "Mul", z, z, &zz));
    AIRC_TRY(rational(c, zz, airc_airy.afn, 9, airc_airy.afd, 9, &f));
    AIRC_TRY(op2(c, "Mul", zz, f, &f));
    AIRC_TRY(op2(c, "Add", one, f, &f));
    AIRC_TRY(rational(c, zz, airc_airy.agn, 11, airc_airy.agd, 10, &g));
    AIRC_TRY(op2(c, "Mul", z, g, &g));
    AIRC_TRY(op_num(c, "Add", zeta, 0.25 * 3.14159265358979323846, &t));
    AIRC_TRY(op1(c, "Sin", t, &s));
    AIRC_TRY(op2(c, "Mul", s, f, &f));
    AIRC_TRY(op1(c, "Cos", t, &s));
    AIRC_TRY(op2(c, "Mul", s, g, &g));
    AIRC_TRY(op2(c, "Sub", f, g, &f));
    AIRC_TRY(op1(c, "Sqrt", r, &r));
    AIRC_TRY(op_num(c, "Mul", one, 5.64189583547756286948e-01, &t));
    AIRC_TRY(op2(c, "RealDiv", t, r, &t));
    return op2(c, "Mul", t, f, out);
}

/* Ai from 2.09: 1/sqrt(pi) A(1 / zeta) / (2 x^(1/4) exp(zeta)), zeta = 2/3
 * x^(3/2) */
static airc_status airy_pos(const comp *c, airc_ge_tensor x, airc_ge_tensor *out)
{
    airc_ge_tensor r, zeta, iz, a, d;
    AIRC_TRY(op1(c, "Sqrt", x, &r));
    AIRC_TRY(op_num(c, "Mul", x, 2.0, &zeta));
    AIRC_TRY(op2(c, "Mul", zeta, r, &zeta));
    AIRC_TRY(op_num(c, "RealDiv", zeta, 3.0, &zeta));
    AIRC_TRY(num(c, 1, &iz));
    AIRC_TRY(op2(c, "RealDiv", iz, zeta, &iz));
    AIRC_TRY(rational(c, iz, airc_airy.an, 8, airc_airy.ad, 8, &a));
    AIRC_TRY(op_num(c, "Mul", a, 5.64189583547756286948e-01, &a));
    AIRC_TRY(op1(c, "Sqrt", r, &d));
    AIRC_TRY(op_num(c, "Mul", d, 2.0, &d));
    AIRC_TRY(op1(c, "Exp", zeta, &zeta));
    AIRC_TRY(op2(c, "Mul", d, zeta, &d));
    return op2(c, "RealDiv", a, d, out);
}

/* Ai on [-2.09, 2.09): c1 f - c2 g, the Maclaurin series f = sum 3^k
 * (1/3)_k x^3k / (3k)!, g = sum 3^k (2/3)_k x^(3k+1) / (3k+1)!, as torch's
 * loop steps them. Torch stops at a term below epsilon (relative); the 14
 * terms here reach below 1e-19 at |x|^3 = 9.2, so those past its stop are
 * below its last one's rounding */
static airc_status airy_mid(const comp *c, airc_ge_tensor x, airc_ge_tensor *out)
{
    airc_ge_tensor z, f, g, m, nn;
    AIRC_TRY(op2(c, "Mul", x, x, &z));
    AIRC_TRY(op2(c, "Mul", z, x, &z));
    AIRC_TRY(num(c, 1, &f));
    AIRC_TRY(num(c, 1, &m));
    g = nn = x;
    double k = 1;
    for (int i = 0; i < 14; i++) {
        AIRC_TRY(op2(c, "Mul", m, z, &m));
        AIRC_TRY(op_num(c, "RealDiv", m, k + 1, &m));
        AIRC_TRY(op2(c, "Mul", nn, z, &nn));
        AIRC_TRY(op_num(c, "RealDiv", nn, k + 2, &nn));
        AIRC_TRY(op_num(c, "RealDiv", m, k + 2, &m));
        AIRC_TRY(op2(c, "Add", f, m, &f));
        AIRC_TRY(op_num(c, "RealDiv", nn, k + 3, &nn));
        AIRC_TRY(op2(c, "Add", g, nn, &g));
        k += 3;
    }
    AIRC_TRY(op_num(c, "Mul", f, 0.355028053887817239260, &f));
    AIRC_TRY(op_num(c, "Mul", g, 0.258819403792806798405, &g));
    return op2(c, "Sub", f, g, out);
}

/* airy_ai: the three regions by SelectV2; 0 past 103.892, NaN at ±inf */
static airc_status conv_airy_ai(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    comp c;
    airc_ge_tensor x, y, v, t;
    AIRC_TRY(begin(b, n, 0, &c, &x));
    AIRC_TRY(airy_mid(&c, x, &y));
    AIRC_TRY(airy_pos(&c, x, &v));
    AIRC_TRY(op_num(&c, "GreaterEqual", x, 2.09, &t));
    AIRC_TRY(select_(&c, t, v, y, &y));
    AIRC_TRY(airy_neg(&c, x, &v));
    AIRC_TRY(op_num(&c, "Less", x, -2.09, &t));
    AIRC_TRY(select_(&c, t, v, y, &y));
    AIRC_TRY(num(&c, 0, &v));
    AIRC_TRY(op_num(&c, "Greater", x, 103.892, &t));
    AIRC_TRY(select_(&c, t, v, y, &y));
    AIRC_TRY(op1(&c, "Abs", x, &v));
    AIRC_TRY(op_num(&c, "Equal", v, INFINITY, &t));
    AIRC_TRY(num(&c, NAN, &v));
    AIRC_TRY(select_(&c, t, v, y, &y));
    return finish(&c, n, y);
}

/* ------------------------------------------------------------ polynomials */

typedef enum poly_family { P_CHEB, P_HERMITE_H, P_HERMITE_HE, P_LAGUERRE, P_LEGENDRE } poly_family;

typedef struct poly_op {
    poly_family family;
    char kind;            /* Chebyshev's t, u, v or w */
    bool shifted;         /* of y = 2x - 1, its ends at x == 1 and x == 0 */
    int64_t closed_above; /* the closed form's threshold on n (|y| < 1) */
} poly_op;

static const poly_op p_cheb_t = {P_CHEB, 't', false, 6};
static const poly_op p_cheb_u = {P_CHEB, 'u', false, 8};
static const poly_op p_cheb_v = {P_CHEB, 'v', false, 8};
static const poly_op p_cheb_w = {P_CHEB, 'w', false, 8};
static const poly_op p_scheb_t = {P_CHEB, 't', true, 6};
static const poly_op p_scheb_u = {P_CHEB, 'u', true, 6};
static const poly_op p_scheb_v = {P_CHEB, 'v', true, 6};
static const poly_op p_scheb_w = {P_CHEB, 'w', true, 4};
static const poly_op p_hermite_h = {P_HERMITE_H, 0, false, 0};
static const poly_op p_hermite_he = {P_HERMITE_HE, 0, false, 0};
static const poly_op p_laguerre = {P_LAGUERRE, 0, false, 0};
static const poly_op p_legendre = {P_LEGENDRE, 0, false, 0};

/* the most steps a Scalar degree unrolls to */
#define POLY_MAX_DEGREE 1024

/* p_{k+1} = f p_k - p_{k-1} from p_0 = 1, p_1 = q, to p_n (n >= 2) */
static airc_status cheb_steps(const comp *c, airc_ge_tensor f, airc_ge_tensor q, int64_t n,
                              airc_ge_tensor *out)
{
    airc_ge_tensor p, r;
    AIRC_TRY(num(c, 1, &p));
    for (int64_t k = 2; k <= n; k++) {
        AIRC_TRY(op2(c, "Mul", f, q, &r));
        AIRC_TRY(op2(c, "Sub", r, p, &r));
        p = q;
        q = r;
    }
    *out = q;
    return AIRC_OK;
}

/* Chebyshev's t / u / v / w of degree n >= 1 (and their shifted forms):
 * the recurrence, the closed form where n passes the threshold and |y| <
 * 1, then the values at the two ends (torch's order of tests) */
static airc_status chebyshev(const comp *c, const poly_op *p, airc_ge_tensor x, int64_t n,
                             airc_ge_tensor *out)
{
    airc_ge_tensor y = x, f, q, v, t, a, s, w, one;
    if (p->shifted) {
        AIRC_TRY(op2(c, "Add", x, x, &y));
        AIRC_TRY(op_num(c, "Sub", y, 1, &y));
    }
    AIRC_TRY(op2(c, "Add", y, y, &f));
    q = p->kind == 't' ? y : f;
    if (p->kind == 'v' || p->kind == 'w')
        AIRC_TRY(op_num(c, p->kind == 'v' ? "Sub" : "Add", f, 1, &q));
    AIRC_TRY(n == 1 ? (v = q, AIRC_OK) : cheb_steps(c, f, q, n, &v));
    double dn = (double)n, odd = n % 2 ? -1.0 : 1.0;
    /* the values at y = 1 and y = -1 (and V's / W's where their closed
     * forms' divisor rounds to an end) */
    double plus = p->kind == 'u' ? dn + 1 : p->kind == 'w' ? 2 * dn + 1 : 1;
    double minus = p->kind == 'u' ? odd * (dn + 1) : p->kind == 'v' ? odd * (2 * dn + 1) : odd;
    if (n > p->closed_above) {
        AIRC_TRY(num(c, 1, &one));
        AIRC_TRY(op1(c, "Acos", y, &a));
        if (p->kind == 't') {
            AIRC_TRY(op_num(c, "Mul", a, dn, &w));
            AIRC_TRY(op1(c, "Cos", w, &w));
        } else if (p->kind == 'u') { /* sin((n+1) a) / sin(a), or (n+1) cos((n+1) a) / y */
            airc_ge_tensor sa, alt;
            AIRC_TRY(op_num(c, "Mul", a, dn + 1, &t));
            AIRC_TRY(op1(c, "Sin", t, &w));
            AIRC_TRY(op1(c, "Sin", a, &sa));
            AIRC_TRY(op2(c, "RealDiv", w, sa, &w));
            AIRC_TRY(op1(c, "Cos", t, &alt));
            AIRC_TRY(op_num(c, "Mul", alt, dn + 1, &alt));
            AIRC_TRY(op2(c, "RealDiv", alt, y, &alt));
            AIRC_TRY(op_num(c, "NotEqual", sa, 0, &s));
            AIRC_TRY(select_(c, s, w, alt, &w));
        } else { /* V: cos((n+1/2) a) / cos(a/2) unless sin(a/2) == 1; W: sin / sin
                  * unless cos(a/2) == 1 */
            bool isv = p->kind == 'v';
            airc_ge_tensor h, d, alt;
            AIRC_TRY(op_num(c, "Mul", a, dn + 0.5, &t));
            AIRC_TRY(op1(c, isv ? "Cos" : "Sin", t, &w));
            AIRC_TRY(op_num(c, "RealDiv", a, 2.0, &h));
            AIRC_TRY(op1(c, isv ? "Cos" : "Sin", h, &d));
            AIRC_TRY(op2(c, "RealDiv", w, d, &w));
            AIRC_TRY(op1(c, isv ? "Sin" : "Cos", h, &h));
            AIRC_TRY(op_num(c, "NotEqual", h, 1, &s));
            if (isv || p->shifted) {
                AIRC_TRY(num(c, minus, &alt));
            } else { /* W: 2n + 1 where x > 0, else (-1)^n */
                airc_ge_tensor pv, mv;
                AIRC_TRY(num(c, plus, &pv));
                AIRC_TRY(num(c, minus, &mv));
                AIRC_TRY(op_num(c, "Greater", x, 0, &t));
                AIRC_TRY(select_(c, t, pv, mv, &alt));
            }
            AIRC_TRY(select_(c, s, w, alt, &w));
        }
        AIRC_TRY(op1(c, "Abs", y, &t));
        AIRC_TRY(op2(c, "Less", t, one, &s));
        AIRC_TRY(select_(c, s, w, v, &v));
    }
    AIRC_TRY(num(c, minus, &w));
    AIRC_TRY(op_num(c, "Equal", x, p->shifted ? 0 : -1, &s));
    AIRC_TRY(select_(c, s, w, v, &v));
    AIRC_TRY(num(c, plus, &w));
    AIRC_TRY(op_num(c, "Equal", x, 1, &s));
    return select_(c, s, w, v, out);
}

/* Hermite's, Laguerre's and Legendre's recurrences to degree n >= 1, with
 * Laguerre's 1 at x == 0 and Legendre's ±1 at |x| == 1 */
static airc_status three_term(const comp *c, const poly_op *p, airc_ge_tensor x, int64_t n,
                              airc_ge_tensor *out)
{
    airc_ge_tensor q, pp, r, t, s, w, one;
    AIRC_TRY(num(c, 1, &one));
    if (p->family == P_HERMITE_H)
        AIRC_TRY(op2(c, "Add", x, x, &q));
    else if (p->family == P_LAGUERRE)
        AIRC_TRY(op2(c, "Sub", one, x, &q));
    else
        q = x;
    pp = one;
    for (int64_t k = 1; k < n; k++) {
        double dk = (double)k;
        if (p->family == P_HERMITE_H) { /* 2x q - 2k p */
            AIRC_TRY(op2(c, "Add", x, x, &t));
            AIRC_TRY(op2(c, "Mul", t, q, &t));
            AIRC_TRY(op_num(c, "Mul", pp, 2 * dk, &r));
        } else if (p->family == P_HERMITE_HE) { /* x q - k p */
            AIRC_TRY(op2(c, "Mul", x, q, &t));
            AIRC_TRY(op_num(c, "Mul", pp, dk, &r));
        } else if (p->family == P_LAGUERRE) { /* ((2k + (1 - x)) q - k p) / (k + 1) */
            AIRC_TRY(op2(c, "Sub", one, x, &t));
            AIRC_TRY(op_num(c, "Add", t, 2 * dk, &t));
            AIRC_TRY(op2(c, "Mul", t, q, &t));
            AIRC_TRY(op_num(c, "Mul", pp, dk, &r));
        } else { /* ((2k + 1) x q - k p) / (k + 1) */
            AIRC_TRY(op_num(c, "Mul", x, 2 * dk + 1, &t));
            AIRC_TRY(op2(c, "Mul", t, q, &t));
            AIRC_TRY(op_num(c, "Mul", pp, dk, &r));
        }
        AIRC_TRY(op2(c, "Sub", t, r, &r));
        if (p->family == P_LAGUERRE || p->family == P_LEGENDRE)
            AIRC_TRY(op_num(c, "RealDiv", r, dk + 1, &r));
        pp = q;
        q = r;
    }
    if (p->family == P_LAGUERRE) {
        AIRC_TRY(op_num(c, "Equal", x, 0, &s));
        return select_(c, s, one, q, out);
    }
    if (p->family == P_LEGENDRE) {
        AIRC_TRY(op1(c, "Abs", x, &t));
        AIRC_TRY(op2(c, "Equal", t, one, &s));
        AIRC_TRY(num(c, n % 2 ? -1 : 1, &w));
        AIRC_TRY(op_num(c, "Greater", x, 0, &t));
        AIRC_TRY(select_(c, t, one, w, &w));
        return select_(c, s, w, q, out);
    }
    *out = q;
    return AIRC_OK;
}

/* Hermite's H / He of a tensor degree n. Torch's recurrences overflow to
 * inf and then NaN, which stays: past degree 70 in float and 350 in double
 * every x gives NaN (swept over x), so the steps are unrolled to K = 128 /
 * 512 (the limits later torch releases return NaN past), each element
 * keeping p_k where n >= k; NaN from K + 1. torch's int64 cast of n: trunc
 * toward 0, so the degree is >= k (k >= 1) where n >= k; it is below 0
 * where n <= -1, n is NaN, or |n| >= 2^63 (INT64_MIN) */
/* The degree past which Hermite's polynomials are NaN in dt (k_bessel.c's
 * HERMITE_NAN) */
static int64_t hermite_nan(airc_dtype dt)
{
    return dt == AIRC_DTYPE_F64 ? 512 : 128;
}

static airc_status hermite_tensor(airc_ge_builder *b, const airc_node *n, const poly_op *p)
{
    comp c;
    airc_ge_tensor x, deg, f, q, pp, r, t, s, v, w;
    AIRC_TRY(begin(b, n, 0, &c, &x));
    AIRC_TRY(airc_ge_broadcast(b, x, c.nd, c.s, &x));
    AIRC_TRY(airc_ge_operand(b, 1, c.dt, &deg));
    AIRC_TRY(airc_ge_broadcast(b, deg, c.nd, c.s, &deg));
    int64_t steps = hermite_nan(c.dt);
    bool h = p->family == P_HERMITE_H;
    if (h)
        AIRC_TRY(op2(&c, "Add", x, x, &f));
    else
        f = x;
    q = f;
    AIRC_TRY(airc_ge_fill(b, c.dt, c.nd, c.s, 1.0, &pp));
    AIRC_TRY(op_num(&c, "GreaterEqual", deg, 1, &t));
    AIRC_TRY(select_(&c, t, q, pp, &v));
    for (int64_t k = 2; k <= steps; k++) { /* p_k = f p_{k-1} - m (k - 1) p_{k-2} */
        AIRC_TRY(op2(&c, "Mul", f, q, &r));
        AIRC_TRY(op_num(&c, "Mul", pp, (double)(h ? 2 * (k - 1) : k - 1), &t));
        AIRC_TRY(op2(&c, "Sub", r, t, &r));
        pp = q;
        q = r;
        AIRC_TRY(op_num(&c, "GreaterEqual", deg, (double)k, &t));
        AIRC_TRY(select_(&c, t, q, v, &v));
    }
    AIRC_TRY(num(&c, NAN, &w));
    AIRC_TRY(op_num(&c, "GreaterEqual", deg, (double)(steps + 1), &t));
    AIRC_TRY(select_(&c, t, w, v, &v));
    AIRC_TRY(num(&c, 0, &w));
    AIRC_TRY(op_num(&c, "GreaterEqual", deg, 9223372036854775808.0, &t));
    AIRC_TRY(select_(&c, t, w, v, &v));
    AIRC_TRY(op_num(&c, "Greater", deg, -1, &s));
    AIRC_TRY(select_(&c, s, v, w, &v));
    return finish(&c, n, v);
}

/* torch's int64 cast of a degree n in the compute dtype: NaN, ±inf and
 * values past int64 to INT64_MIN */
static int64_t degree_of(airc_dtype dt, double nf)
{
    if (dt == AIRC_DTYPE_F32 && fabs(nf) <= 3.4028234663852886e38) /* beyond: past int64 */
        nf = (float)nf;
    return isnan(nf) || !(fabs(nf) < 9223372036854775808.0) ? INT64_MIN : (int64_t)nf;
}

/* The polynomial of one degree of x (the result's shape): below 0 a Fill
 * of 0, 0 a Fill of 1, Hermite's NaN past its limit, else the unrolled
 * recurrence (up to POLY_MAX_DEGREE steps) */
static airc_status of_degree(const comp *c, const airc_node *n, const poly_op *p, airc_ge_tensor x,
                             int64_t deg, airc_ge_tensor *y)
{
    bool hermite = p->family == P_HERMITE_H || p->family == P_HERMITE_HE;
    if (hermite && deg > hermite_nan(c->dt))
        return airc_ge_fill(c->b, c->dt, c->nd, c->s, NAN, y);
    if (deg > POLY_MAX_DEGREE)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s of degree %lld has no Ascend IR lowering: the recurrence is "
                         "unrolled, up to degree %d",
                         n->target, (long long)deg, POLY_MAX_DEGREE);
    if (deg <= 0)
        return airc_ge_fill(c->b, c->dt, c->nd, c->s, deg < 0 ? 0.0 : 1.0, y);
    if (p->family == P_CHEB)
        return chebyshev(c, p, x, deg, y);
    return three_term(c, p, x, deg, y);
}

/* Most distinct degrees a constant degree tensor may hold (one unrolled
 * recurrence each) */
#define MAX_CONST_DEGREES 16

/* Element i (row-major) of a constant of a real or integer dtype as a
 * double; false for another dtype */
static bool const_item(airc_dtype dt, const void *data, int32_t nd, const int64_t *shape,
                       const int64_t *strides, int64_t i, double *out)
{
    int64_t off = 0;
    for (int32_t d = nd - 1; d >= 0; d--) {
        off += (i % shape[d]) * strides[d];
        i /= shape[d];
    }
    switch (dt) {
    case AIRC_DTYPE_F64: *out = ((const double *)data)[off]; return true;
    case AIRC_DTYPE_F32: *out = ((const float *)data)[off]; return true;
    case AIRC_DTYPE_I64: *out = (double)((const int64_t *)data)[off]; return true;
    case AIRC_DTYPE_I32: *out = ((const int32_t *)data)[off]; return true;
    case AIRC_DTYPE_I16: *out = ((const int16_t *)data)[off]; return true;
    case AIRC_DTYPE_I8: *out = ((const int8_t *)data)[off]; return true;
    case AIRC_DTYPE_U8: *out = ((const uint8_t *)data)[off]; return true;
    case AIRC_DTYPE_BOOL: *out = ((const bool *)data)[off]; return true;
    default: return false;
    }
}

/* A tensor degree bound as a constant (what make_fx records for a Python
 * tensor, folded): each distinct degree's recurrence, picked per element
 * by a Const of the degrees' indices. *done false (nothing built) where n
 * is not such a constant, or holds too many degrees. */
static airc_status const_degree(const comp *c, const airc_node *n, const poly_op *p,
                                airc_ge_tensor x, bool *done)
{
    *done = false;
    const airc_value *v = airc_ge_arg(c->b, 1);
    const airc_node *dn = v && airc_value_get_kind(v) == AIRC_VALUE_NODE ? v->u.node : NULL;
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape, *strides;
    void *data;
    if (!dn || dn->kind != AIRC_NODE_GET_ATTR ||
        airc_graph_get_constant(c->b->g, dn->target, &dt, &nd, &shape, &strides, &data) !=
            AIRC_OK ||
        !data)
        return AIRC_OK;
    int64_t count = 1, degs[MAX_CONST_DEGREES];
    for (int32_t d = 0; d < nd; d++)
        count *= shape[d];
    if (count > ((int64_t)1 << 20))
        return AIRC_OK;
    int32_t *which = airc_malloc(c->b->ctx, (size_t)(count > 0 ? count : 1) * sizeof *which);
    if (!which)
        return airc_fail(AIRC_E_OUT_OF_MEMORY, "out of memory: a degree index");
    int ndeg = 0;
    bool fits = true;
    for (int64_t i = 0; i < count && fits; i++) {
        double f = 0;
        fits = const_item(dt, data, nd, shape, strides, i, &f);
        int64_t deg = degree_of(c->dt, f);
        int j = 0;
        while (j < ndeg && degs[j] != deg)
            j++;
        if (j == ndeg && (fits = ndeg < MAX_CONST_DEGREES))
            degs[ndeg++] = deg;
        which[i] = j;
    }
    airc_ge_tensor idx, y, t, out;
    airc_status st = fits ? airc_ge_const(c->b, AIRC_DTYPE_I32, nd, shape, which, &idx) : AIRC_OK;
    airc_free(c->b->ctx, which);
    if (!fits || st != AIRC_OK)
        return st;
    AIRC_TRY(airc_ge_broadcast(c->b, idx, c->nd, c->s, &idx));
    AIRC_TRY(airc_ge_broadcast(c->b, x, c->nd, c->s, &x));
    for (int j = 0; j < ndeg; j++) {
        AIRC_TRY(of_degree(c, n, p, x, degs[j], &y));
        if (!j) {
            out = y;
            continue;
        }
        airc_ge_tensor k;
        AIRC_TRY(airc_ge_const_scalar(c->b, AIRC_DTYPE_I32, j, &k));
        airc_ge_tensor eq[2] = {idx, k};
        AIRC_TRY(airc_ge_ew_op(c->b, "Equal", eq, 2, AIRC_DTYPE_BOOL, c->nd, c->s, &t));
        AIRC_TRY(select_(c, t, y, out, &out));
    }
    if (!ndeg) /* an empty degree tensor: an empty result */
        AIRC_TRY(airc_ge_fill(c->b, c->dt, c->nd, c->s, 0, &out));
    *done = true;
    return finish(c, n, out);
}

/* A polynomial of a Scalar degree: n in the compute dtype, then torch's
 * int64 cast, then of_degree. A tensor degree: a constant's degrees each
 * unrolled; else Hermite's bounded unroll, and refused for the others. */
static airc_status conv_poly(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const poly_op *p = ud;
    const char *dot = strrchr(n->target, '.');
    bool hermite = p->family == P_HERMITE_H || p->family == P_HERMITE_HE;
    comp c;
    airc_ge_tensor x, y;
    AIRC_TRY(begin(b, n, 0, &c, &x));
    if (!dot || strcmp(dot, ".n_scalar")) {
        bool done;
        AIRC_TRY(const_degree(&c, n, p, x, &done));
        if (done)
            return AIRC_OK;
        if (hermite)
            return hermite_tensor(b, n, p);
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s has no Ascend IR lowering: its tensor degree n decides each "
                         "element's number of recurrence steps, and a GE graph has no loop (the "
                         ".n_scalar overload, a Scalar n, is unrolled, and so is a constant n)",
                         n->target);
    }
    AIRC_TRY(of_degree(&c, n, p, x, degree_of(c.dt, airc_ge_number_arg(b, 1, NAN)), &y));
    return finish(&c, n, y);
}

#define POLY_CONV(name, op)                                                                        \
    {"aten.special_" name ".default", conv_poly, &op},                                             \
        {"aten.special_" name ".n_scalar", conv_poly, &op},                                        \
    {                                                                                              \
        "aten.special_" name ".x_scalar", conv_poly, &op                                           \
    }

/* torch.special.i1: BesselI1e(x) * Exp(|x|) (torch's exp(|x|) |x| chbevl
 * to the rounding: both overflow to inf past exp's range) */
static airc_status conv_i1(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_ge_tensor x, in[2], y;
    AIRC_TRY(airc_ge_operand(b, 0, om->dtype, &x));
    AIRC_TRY(airc_ge_special(b, &s_i1e, &x, om->dtype, om->ndim, om->shape, &in[0]));
    AIRC_TRY(airc_ge_ew_op(b, "Abs", &x, 1, om->dtype, om->ndim, om->shape, &in[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Exp", &in[1], 1, om->dtype, om->ndim, om->shape, &in[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Mul", in, 2, om->dtype, om->ndim, om->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

static const ge_conv_entry conv[] = {
    {"aten.special_i1.default", conv_i1, NULL},
    {"aten.special_i1e.default", airc_ge_special_conv, &s_i1e},
    {"aten.special_bessel_j0.default", airc_ge_special_conv, &s_j0},
    {"aten.special_bessel_j1.default", airc_ge_special_conv, &s_j1},
    {"aten.special_bessel_y0.default", airc_ge_special_conv, &s_y0},
    {"aten.special_bessel_y1.default", airc_ge_special_conv, &s_y1},
    {"aten.special_modified_bessel_i0.default", airc_ge_special_conv, &s_i0},
    {"aten.special_modified_bessel_i1.default", airc_ge_special_conv, &s_i1},
    {"aten.special_modified_bessel_k0.default", airc_ge_special_conv, &s_k0},
    {"aten.special_modified_bessel_k1.default", airc_ge_special_conv, &s_k1},
    {"aten.special_scaled_modified_bessel_k0.default", airc_ge_special_conv, &s_k0e},
    {"aten.special_scaled_modified_bessel_k1.default", airc_ge_special_conv, &s_k1e},
    {"aten.special_spherical_bessel_j0.default", conv_spherical_j0, NULL},
    {"aten.special_airy_ai.default", conv_airy_ai, NULL},
    POLY_CONV("chebyshev_polynomial_t", p_cheb_t),
    POLY_CONV("chebyshev_polynomial_u", p_cheb_u),
    POLY_CONV("chebyshev_polynomial_v", p_cheb_v),
    POLY_CONV("chebyshev_polynomial_w", p_cheb_w),
    POLY_CONV("shifted_chebyshev_polynomial_t", p_scheb_t),
    POLY_CONV("shifted_chebyshev_polynomial_u", p_scheb_u),
    POLY_CONV("shifted_chebyshev_polynomial_v", p_scheb_v),
    POLY_CONV("shifted_chebyshev_polynomial_w", p_scheb_w),
    POLY_CONV("hermite_polynomial_h", p_hermite_h),
    POLY_CONV("hermite_polynomial_he", p_hermite_he),
    POLY_CONV("laguerre_polynomial_l", p_laguerre),
    POLY_CONV("legendre_polynomial_p", p_legendre),
};

static const ge_raise_entry raise[] = {
    {"BesselJ0", airc_ge_special_raise, &s_j0},   {"BesselJ1", airc_ge_special_raise, &s_j1},
    {"BesselY0", airc_ge_special_raise, &s_y0},   {"BesselY1", airc_ge_special_raise, &s_y1},
    {"BesselI0", airc_ge_special_raise, &s_i0},   {"BesselI1", airc_ge_special_raise, &s_i1},
    {"BesselI1e", airc_ge_special_raise, &s_i1e}, {"BesselK0", airc_ge_special_raise, &s_k0},
    {"BesselK1", airc_ge_special_raise, &s_k1},   {"BesselK0e", airc_ge_special_raise, &s_k0e},
    {"BesselK1e", airc_ge_special_raise, &s_k1e},
};

const ge_family airc_ge_family_bessel = {conv, sizeof conv / sizeof *conv, raise,
                                         sizeof raise / sizeof *raise};
