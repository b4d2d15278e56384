/* Special functions to and from Ascend IR (TorchAir has converters for
 * none of these): Igamma / Igammac (a, x -> z), NextAfter (x1, x2 ->
 * output), Gcd (x1, x2 -> y), Ndtri and BesselI0e (x -> y), CANN's ops,
 * computed in f32 for f16 / bf16 and cast back (NextAfter has no bf16
 * form: a step in f32 would round back, so bf16 is refused); lcm as
 * |a / Gcd * b| (int8 / int16 / uint8 multiplied in int32, as torch's int
 * promotion); i0 as Exp(|x|) * BesselI0e(x) (torch's overflow past 710
 * included); special_zeta is CANN's Zeta (x, q -> z); angle, entr, erfcx
 * and log_ndtr as composites; polygamma of order 0 is Digamma, 1 trigamma's
 * series as torch computes it, higher (-1)^(n+1) n! Zeta(n + 1, x);
 * polygamma_ (self, n), which has no functional twin, Assigns it;
 * mvlgamma a sum of Lgammas, frexp from Log, Floor and Pow of 2. */
#include "backends/ge/ge_comp.h"
#include "ops/meta_util.h"

#include <math.h>
#include <string.h>

static const special_op s_igamma = {"Igamma", "aten.igamma.default", {"a", "x"}, "z", 2};
static const special_op s_igammac = {"Igammac", "aten.igammac.default", {"a", "x"}, "z", 2};
static const special_op s_nextafter = {
    "NextAfter", "aten.nextafter.default", {"x1", "x2"}, "output", 2};
static const special_op s_gcd = {"Gcd", "aten.gcd.default", {"x1", "x2"}, "y", 2};
static const special_op s_ndtri = {"Ndtri", "aten.special_ndtri.default", {"x"}, "y", 1};
static const special_op s_i0e = {"BesselI0e", "aten.special_i0e.default", {"x"}, "y", 1};
static const special_op s_zeta = {"Zeta", "aten.special_zeta.default", {"x", "q"}, "z", 2};

/* The op of e on in[] with one output of (dt, nd, shape) */
airc_status airc_ge_special(airc_ge_builder *b, const special_op *e, const airc_ge_tensor *in,
                            airc_dtype dt, int32_t nd, const int64_t *shape, airc_ge_tensor *out)
{
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, e->ge, &op));
    for (size_t i = 0; i < e->nin; i++)
        AIRC_TRY(airc_ge_op_input(op, e->in[i], in[i]));
    return airc_ge_op_output(op, e->out, dt, nd, shape, out);
}

/* A direct lowering: the operands in the compute dtype, the op, a Cast back */
airc_status airc_ge_special_conv(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const special_op *e = ud;
    const airc_tmeta *om = &n->out[0];
    if (e == &s_nextafter && om->dtype == AIRC_DTYPE_BF16)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "nextafter of bfloat16 has no Ascend IR lowering: NextAfter takes "
                         "float32 / float64, and a float32 step rounds back to the bfloat16 "
                         "it started from");
    airc_dtype dt = airc_ge_compute_dtype(om->dtype);
    airc_ge_tensor in[2], y;
    for (size_t i = 0; i < e->nin; i++)
        AIRC_TRY(airc_ge_operand(b, i, dt, &in[i]));
    AIRC_TRY(airc_ge_special(b, e, in, dt, om->ndim, om->shape, &y));
    AIRC_TRY(airc_ge_cast(b, y, om->dtype, &y));
    return airc_ge_set_result(b, 0, y);
}

airc_status airc_ge_special_raise(ge_raise *r)
{
    const special_op *e = r->data;
    AIRC_TRY(airc_ge_raise_arity(r, e->nin));
    const airc_value *args[2] = {NULL, NULL};
    for (size_t i = 0; i < e->nin; i++)
        args[i] = airc_ge_vnode(r, r->in[i]);
    return airc_ge_raise_call(r, e->aten, args, e->nin, NULL, NULL, 0, &r->out[0]);
}

/* angle(x) = SelectV2(IsNan(x), x, SelectV2(x < 0, pi, 0)) */
static airc_status conv_angle(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    comp c;
    airc_ge_tensor x, t, pi, zero, y;
    AIRC_TRY(begin(b, n, 0, &c, &x));
    AIRC_TRY(num(&c, 0, &zero));
    AIRC_TRY(num(&c, 3.14159265358979323846, &pi));
    AIRC_TRY(op2(&c, "Less", x, zero, &t));
    AIRC_TRY(select_(&c, t, pi, zero, &y));
    AIRC_TRY(airc_ge_ew_op(b, "IsNan", &x, 1, AIRC_DTYPE_BOOL, c.nd, c.s, &t));
    AIRC_TRY(select_(&c, t, x, y, &y));
    return finish(&c, n, y);
}

/* entr(x) = x > 0: -x Log(x); x == 0: 0; below: -inf; NaN kept */
static airc_status conv_entr(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    comp c;
    airc_ge_tensor x, t, l, y, zero, ninf;
    AIRC_TRY(begin(b, n, 0, &c, &x));
    AIRC_TRY(op1(&c, "Log", x, &l));
    AIRC_TRY(op2(&c, "Mul", x, l, &l));
    AIRC_TRY(op1(&c, "Neg", l, &l));
    AIRC_TRY(num(&c, 0, &zero));
    AIRC_TRY(num(&c, -INFINITY, &ninf));
    AIRC_TRY(op2(&c, "Equal", x, zero, &t));
    AIRC_TRY(select_(&c, t, zero, ninf, &y));
    AIRC_TRY(op2(&c, "Less", zero, x, &t));
    AIRC_TRY(select_(&c, t, l, y, &y));
    AIRC_TRY(airc_ge_ew_op(b, "IsNan", &x, 1, AIRC_DTYPE_BOOL, c.nd, c.s, &t));
    AIRC_TRY(select_(&c, t, x, y, &y));
    return finish(&c, n, y);
}

/* erfcx(x) = Exp(x^2) Erfc(x) below 5 (both factors normal in f32 there),
 * else the asymptotic series 1 / (x sqrt(pi)) sum_k (-1)^k (2k-1)!! /
 * (2x^2)^k to k = 10 (relative error below 1e-8 at 5), in Horner form */
static airc_status erfcx(const comp *c, airc_ge_tensor x, airc_ge_tensor *out)
{
    airc_ge_tensor t, e, z, p, lt;
    AIRC_TRY(op2(c, "Mul", x, x, &t));
    AIRC_TRY(op1(c, "Exp", t, &e));
    AIRC_TRY(op1(c, "Erfc", x, &p));
    AIRC_TRY(op2(c, "Mul", e, p, &e));
    AIRC_TRY(op_num(c, "Mul", t, 2, &z));
    AIRC_TRY(num(c, 1, &p));
    AIRC_TRY(op2(c, "RealDiv", p, z, &z)); /* 1 / 2x^2 */
    AIRC_TRY(num(c, 1, &p));
    for (int k = 10; k >= 1; k--) { /* p = 1 - (2k - 1) z p */
        AIRC_TRY(op2(c, "Mul", z, p, &p));
        AIRC_TRY(op_num(c, "Mul", p, 2 * k - 1, &p));
        AIRC_TRY(num(c, 1, &t));
        AIRC_TRY(op2(c, "Sub", t, p, &p));
    }
    AIRC_TRY(op_num(c, "Mul", x, 1.77245385090551602730, &t));
    AIRC_TRY(op2(c, "RealDiv", p, t, &p));
    AIRC_TRY(op_num(c, "Less", x, 5, &lt));
    return select_(c, lt, e, p, out);
}

static airc_status conv_erfcx(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    comp c;
    airc_ge_tensor x, y;
    AIRC_TRY(begin(b, n, 0, &c, &x));
    AIRC_TRY(erfcx(&c, x, &y));
    return finish(&c, n, y);
}

/* log_ndtr(x), t = x / sqrt 2: x < -1: Log(erfcx(-t) / 2) - t^2, else
 * Log1p(-Erfc(t) / 2) (torch's split) */
static airc_status conv_log_ndtr(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    comp c;
    airc_ge_tensor x, t, u, lo, hi, cond;
    AIRC_TRY(begin(b, n, 0, &c, &x));
    AIRC_TRY(op_num(&c, "Mul", x, 0.70710678118654752440, &t));
    AIRC_TRY(op1(&c, "Neg", t, &u));
    AIRC_TRY(erfcx(&c, u, &lo));
    AIRC_TRY(op_num(&c, "Mul", lo, 0.5, &lo));
    AIRC_TRY(op1(&c, "Log", lo, &lo));
    AIRC_TRY(op2(&c, "Mul", t, t, &u));
    AIRC_TRY(op2(&c, "Sub", lo, u, &lo));
    AIRC_TRY(op1(&c, "Erfc", t, &hi));
    AIRC_TRY(op_num(&c, "Mul", hi, -0.5, &hi));
    AIRC_TRY(op1(&c, "Log1p", hi, &hi));
    AIRC_TRY(op_num(&c, "Less", x, -1, &cond));
    AIRC_TRY(select_(&c, cond, lo, hi, &t));
    return finish(&c, n, t);
}

/* i0(x) = Exp(|x|) * BesselI0e(x) */
static airc_status conv_i0(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    comp c;
    airc_ge_tensor x, a, e;
    AIRC_TRY(begin(b, n, 0, &c, &x));
    AIRC_TRY(airc_ge_special(b, &s_i0e, &x, c.dt, c.nd, c.s, &e));
    AIRC_TRY(op1(&c, "Abs", x, &a));
    AIRC_TRY(op1(&c, "Exp", a, &a));
    AIRC_TRY(op2(&c, "Mul", a, e, &a));
    return finish(&c, n, a);
}

/* trigamma(x) as torch's kernel, in the compute dtype (float for f32, as
 * torch's, whose float pi makes the poles finite): below 1/2 the
 * reflection pi^2 / sin^2(pi x) - trigamma(1 - x); six recurrence steps
 * sum 1 / (x + i)^2, then (1 + 1 / 2x + (1/6 - (1/30 - 1/42x^2) / x^2) /
 * x^2) / x at x + 6 */
static airc_status trigamma(const comp *c, airc_ge_tensor x, airc_ge_tensor *out)
{
    airc_ge_tensor lt, one, xr, s, t, u, sum, ixx;
    AIRC_TRY(op_num(c, "Less", x, 0.5, &lt));
    AIRC_TRY(num(c, 1, &one));
    AIRC_TRY(op2(c, "Sub", one, x, &t));
    AIRC_TRY(select_(c, lt, t, x, &xr));
    AIRC_TRY(op1(c, "Reciprocal", xr, &t));
    AIRC_TRY(op2(c, "Mul", t, t, &sum));
    for (int i = 1; i < 6; i++) {
        AIRC_TRY(op_num(c, "Add", xr, i, &t));
        AIRC_TRY(op1(c, "Reciprocal", t, &t));
        AIRC_TRY(op2(c, "Mul", t, t, &t));
        AIRC_TRY(op2(c, "Add", sum, t, &sum));
    }
    AIRC_TRY(op_num(c, "Add", xr, 6, &u));
    AIRC_TRY(op2(c, "Mul", u, u, &t));
    AIRC_TRY(op1(c, "Reciprocal", t, &ixx));
    AIRC_TRY(op_num(c, "Mul", ixx, 1.0 / 42, &t));
    AIRC_TRY(num(c, 1.0 / 30, &s));
    AIRC_TRY(op2(c, "Sub", s, t, &t));
    AIRC_TRY(op2(c, "Mul", ixx, t, &t));
    AIRC_TRY(num(c, 1.0 / 6, &s));
    AIRC_TRY(op2(c, "Sub", s, t, &t));
    AIRC_TRY(op2(c, "Mul", ixx, t, &t));
    AIRC_TRY(op_num(c, "Mul", u, 2, &s));
    AIRC_TRY(op1(c, "Reciprocal", s, &s));
    AIRC_TRY(op2(c, "Add", t, s, &t));
    AIRC_TRY(op2(c, "Add", t, one, &t));
    AIRC_TRY(op2(c, "RealDiv", t, u, &t));
    AIRC_TRY(op2(c, "Add", sum, t, &sum));
    /* the reflection: pi^2 / sin(pi x)^2 - sum */
    AIRC_TRY(op_num(c, "Mul", x, 3.14159265358979323846, &s));
    AIRC_TRY(op1(c, "Sin", s, &s));
    AIRC_TRY(op2(c, "Mul", s, s, &s));
    AIRC_TRY(num(c, 3.14159265358979323846 * 3.14159265358979323846, &t));
    AIRC_TRY(op2(c, "RealDiv", t, s, &t));
    AIRC_TRY(op2(c, "Sub", t, sum, &t));
    return select_(c, lt, t, sum, out);
}

/* polygamma(n, self): order 0 Digamma, 1 trigamma's composite, n >= 2
 * (-1)^(n+1) n! Zeta(n + 1, x), torch's formula. polygamma_(self, n) has
 * no functional twin (its arguments are in the other order): the same
 * value, then Assign into self, as copy_ */
static airc_status conv_polygamma(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    bool inplace = !strcmp(n->target, "aten.polygamma_.default");
    int64_t order = airc_ge_int_arg(b, inplace ? 1 : 0, -1);
    comp c;
    airc_ge_tensor x, y, in[2];
    AIRC_TRY(begin(b, n, inplace ? 0 : 1, &c, &x));
    if (order == 0) {
        AIRC_TRY(op1(&c, "Digamma", x, &y));
    } else if (order == 1) {
        AIRC_TRY(trigamma(&c, x, &y));
    } else {
        /* Zeta's x is a Const of the compute dtype: n + 1 must be exact there
         * (its parity gives the sign of a negative q's powers) */
        if (order >= (c.dt == AIRC_DTYPE_F64 ? (int64_t)1 << 53 : (int64_t)1 << 24))
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "polygamma of order %lld has no Ascend IR lowering: n + 1 is not "
                             "exact in %s, the dtype Zeta computes in",
                             (long long)order, airc_dtype_name(c.dt));
        double fact = 1; /* n!, inf past 170 */
        for (int64_t k = 2; k <= order && k <= 200; k++)
            fact *= (double)k;
        AIRC_TRY(num(&c, (double)order + 1, &in[0]));
        in[1] = x;
        AIRC_TRY(airc_ge_special(b, &s_zeta, in, c.dt, c.nd, c.s, &y));
        AIRC_TRY(op_num(&c, "Mul", y, (order % 2 ? 1.0 : -1.0) * fact, &y));
    }
    if (!inplace)
        return finish(&c, n, y);
    AIRC_TRY(airc_ge_cast(b, y, n->out[0].dtype, &y));
    AIRC_TRY(airc_ge_input(b, 0, &in[0]));
    in[1] = y;
    static const char *const names[] = {"ref", "value"};
    return airc_ge_simple(b, "Assign", names, in, 2, NULL);
}

/* lcm(a, b) = SelectV2(g == 0, 0, |a / g' * b|), g = Gcd(a, b) in the
 * result's dtype, g' = g or 1 where 0; the product of int8 / int16 / uint8
 * in int32 (torch's int arithmetic), Cast back */
static airc_status conv_lcm(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_dtype dt = om->dtype;
    airc_ge_tensor in[2], g, z, one, t, y;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &in[0]));
    AIRC_TRY(airc_ge_operand(b, 1, dt, &in[1]));
    AIRC_TRY(airc_ge_special(b, &s_gcd, in, dt, om->ndim, om->shape, &g));
    comp c = {b, dt == AIRC_DTYPE_I64 ? dt : AIRC_DTYPE_I32, om->ndim, om->shape};
    for (int i = 0; i < 2; i++)
        AIRC_TRY(airc_ge_cast(b, in[i], c.dt, &in[i]));
    AIRC_TRY(airc_ge_cast(b, g, c.dt, &g));
    AIRC_TRY(num(&c, 0, &z));
    AIRC_TRY(num(&c, 1, &one));
    AIRC_TRY(op2(&c, "Equal", g, z, &t));
    AIRC_TRY(select_(&c, t, one, g, &g));
    AIRC_TRY(op2(&c, "FloorDiv", in[0], g, &y)); /* exact: g divides a */
    AIRC_TRY(op2(&c, "Mul", y, in[1], &y));
    AIRC_TRY(op1(&c, "Abs", y, &y));
    AIRC_TRY(select_(&c, t, z, y, &y));
    AIRC_TRY(airc_ge_cast(b, y, dt, &y));
    return airc_ge_set_result(b, 0, y);
}

/* mvlgamma(self, p): sum over j < p of Lgamma(self + (j + 1 - p) / 2)
 * (Add of a Const each), plus p (p - 1) / 4 log(pi); in f32 for bf16
 * (rounded once, where torch rounds each step) */
static airc_status conv_mvlgamma(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    comp c;
    airc_ge_tensor x, t, y;
    AIRC_TRY(begin(b, n, 0, &c, &x));
    int64_t p = airc_ge_int_arg(b, 1, 1);
    if (p < 1 || p > 4096)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "mvlgamma of p = %lld has no Ascend IR form (one Lgamma per term; p in "
                         "[1, 4096])",
                         (long long)p);
    for (int64_t j = 0; j < p; j++) {
        AIRC_TRY(op_num(&c, "Add", x, (double)(j + 1 - p) * 0.5, &t));
        AIRC_TRY(op1(&c, "Lgamma", t, &t));
        if (j)
            AIRC_TRY(op2(&c, "Add", y, t, &y));
        else
            y = t;
    }
    double k = (double)p * (double)(p - 1) * log(3.14159265358979323846) * 0.25;
    AIRC_TRY(op_num(&c, "Add", y, k, &y));
    return finish(&c, n, y);
}

/* 2^-e as the Mul of two factors, Pow(2, -h) and Pow(2, h - e) with h =
 * Floor(e / 2), so that neither over- nor underflows for any exponent of
 * a double: x * 2^-e, exactly */
static airc_status scale_down(const comp *c, airc_ge_tensor x, airc_ge_tensor e,
                              airc_ge_tensor *out)
{
    airc_ge_tensor h, two, t;
    AIRC_TRY(op_num(c, "Mul", e, 0.5, &h));
    AIRC_TRY(op1(c, "Floor", h, &h));
    AIRC_TRY(num(c, 2, &two));
    AIRC_TRY(op1(c, "Neg", h, &t));
    AIRC_TRY(op2(c, "Pow", two, t, &t));
    AIRC_TRY(op2(c, "Mul", x, t, out));
    AIRC_TRY(op2(c, "Sub", h, e, &t));
    AIRC_TRY(op2(c, "Pow", two, t, &t));
    return op2(c, "Mul", *out, t, out);
}

/* frexp(self) -> (mantissa, exponent), in f64 (GE has no frexp): e =
 * Floor(Log|x| / ln 2) + 1, corrected by one where |x| 2^-e is not in
 * [0.5, 1); the mantissa x 2^-e (scale_down), Cast to self's dtype (exact),
 * the exponent Cast to int32; ±0, ±inf and NaN (SelectV2 on 0 < |x| < inf)
 * keep their value with exponent 0. */
static airc_status conv_frexp(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    comp c = {b, AIRC_DTYPE_F64, om->ndim, om->shape};
    airc_ge_tensor x, ax, ok, t, e, m, one, zero;
    AIRC_TRY(airc_ge_operand(b, 0, c.dt, &x));
    AIRC_TRY(op1(&c, "Abs", x, &ax));
    AIRC_TRY(op_num(&c, "Less", ax, INFINITY, &ok));
    AIRC_TRY(num(&c, 0, &zero));
    AIRC_TRY(airc_ge_ew_op(b, "Greater", (airc_ge_tensor[]){ax, zero}, 2, AIRC_DTYPE_BOOL, c.nd,
                           c.s, &t));
    AIRC_TRY(airc_ge_ew_op(b, "LogicalAnd", (airc_ge_tensor[]){ok, t}, 2, AIRC_DTYPE_BOOL, c.nd,
                           c.s, &ok));
    AIRC_TRY(num(&c, 1, &one));
    AIRC_TRY(select_(&c, ok, ax, one, &ax));
    AIRC_TRY(op1(&c, "Log", ax, &e));
    AIRC_TRY(op_num(&c, "Mul", e, 1.0 / log(2.0), &e));
    AIRC_TRY(op1(&c, "Floor", e, &e));
    AIRC_TRY(op_num(&c, "Add", e, 1, &e));
    AIRC_TRY(scale_down(&c, ax, e, &m));
    airc_ge_tensor hi, lo;
    AIRC_TRY(airc_ge_ew_op(b, "GreaterEqual", (airc_ge_tensor[]){m, one}, 2, AIRC_DTYPE_BOOL, c.nd,
                           c.s, &hi));
    AIRC_TRY(op_num(&c, "Less", m, 0.5, &lo));
    AIRC_TRY(airc_ge_cast(b, hi, c.dt, &hi));
    AIRC_TRY(airc_ge_cast(b, lo, c.dt, &lo));
    AIRC_TRY(op2(&c, "Add", e, hi, &e));
    AIRC_TRY(op2(&c, "Sub", e, lo, &e));
    AIRC_TRY(select_(&c, ok, e, zero, &e));
    AIRC_TRY(scale_down(&c, x, e, &m));
    AIRC_TRY(select_(&c, ok, m, x, &m));
    AIRC_TRY(airc_ge_cast(b, m, om->dtype, &m));
    AIRC_TRY(airc_ge_cast(b, e, AIRC_DTYPE_I32, &e));
    AIRC_TRY(airc_ge_set_result(b, 0, m));
    return airc_ge_set_result(b, 1, e);
}

static const ge_conv_entry conv[] = {
    {"aten.igamma.default", airc_ge_special_conv, &s_igamma},
    {"aten.igammac.default", airc_ge_special_conv, &s_igammac},
    {"aten.nextafter.default", airc_ge_special_conv, &s_nextafter},
    {"aten.gcd.default", airc_ge_special_conv, &s_gcd},
    {"aten.special_ndtri.default", airc_ge_special_conv, &s_ndtri},
    {"aten.special_i0e.default", airc_ge_special_conv, &s_i0e},
    {"aten.special_zeta.default", airc_ge_special_conv, &s_zeta},
    {"aten.special_zeta.self_scalar", airc_ge_special_conv, &s_zeta},
    {"aten.special_zeta.other_scalar", airc_ge_special_conv, &s_zeta},
    {"aten.lcm.default", conv_lcm, NULL},
    {"aten.i0.default", conv_i0, NULL},
    {"aten.angle.default", conv_angle, NULL},
    {"aten.special_entr.default", conv_entr, NULL},
    {"aten.special_erfcx.default", conv_erfcx, NULL},
    {"aten.special_log_ndtr.default", conv_log_ndtr, NULL},
    {"aten.polygamma.default", conv_polygamma, NULL},
    {"aten.polygamma_.default", conv_polygamma, NULL},
    {"aten.mvlgamma.default", conv_mvlgamma, NULL},
    {"aten.frexp.Tensor", conv_frexp, NULL},
};

static const ge_raise_entry raise[] = {
    {"Igamma", airc_ge_special_raise, &s_igamma},
    {"Igammac", airc_ge_special_raise, &s_igammac},
    {"NextAfter", airc_ge_special_raise, &s_nextafter},
    {"Gcd", airc_ge_special_raise, &s_gcd},
    {"Ndtri", airc_ge_special_raise, &s_ndtri},
    {"BesselI0e", airc_ge_special_raise, &s_i0e},
    {"Zeta", airc_ge_special_raise, &s_zeta},
};

const ge_family airc_ge_family_special = {conv, sizeof conv / sizeof *conv, raise,
                                          sizeof raise / sizeof *raise};
