/* torch.special's Bessel functions and orthogonal polynomials in one
 * floating type, included by k_bessel.c once per type: T the type, FN(name)
 * the function's name for it, EPS its machine epsilon. Written over
 * <tgmath.h>, so that f32 computes in float as torch 1.13's CPU kernels do
 * (their rounding and overflow, to inf and then NaN, are the results).
 * The coefficient tables are doubles, each converted to T where used (as
 * torch's T tables round them). Where torch's expression a * b +- c is
 * built into a fused multiply-add (its CPU kernels are compiled with
 * -mfma and GCC's default -ffp-contract=fast), so is airc's: Horner's and
 * Clenshaw's steps and the polynomials' recurrences, which makes the
 * polynomials torch's bit for bit (overflow to inf, not NaN, included).
 * The Bessel functions are Cephes' rational and Chebyshev approximations
 * (the coefficients are Cephes' published ones), evaluated as torch's
 * kernels evaluate them. No global state: thread-safe. */

/* c[0] z^(len-1) + ... + c[len-1], Horner's rule from 0 as torch's loops */
static T FN(horner)(T z, const double *c, int len)
{
    T r = 0;
    for (int i = 0; i < len; i++)
        r = fma(r, z, (T)c[i]);
    return r;
}

/* the sum of a Chebyshev series at y (Cephes' chbevl: Clenshaw's rule) */
static T FN(chbevl)(T y, const double *c, int len)
{
    T b0 = (T)c[0], b1 = 0, b2 = 0;
    for (int i = 1; i < len; i++) {
        b2 = b1;
        b1 = b0;
        b0 = fma(y, b1, -b2) + (T)c[i];
    }
    return (T)0.5 * (b0 - b2);
}

/* Ai(x): NaN at ±inf, 0 past 103.892; below -2.09 the asymptotic form
 * with sin / cos, from 2.09 the exponentially small rational one, and
 * between the Maclaurin series of f and g until a term is below epsilon. */
T FN(airc_airy_ai)(T x)
{
    const T inv_sqrt_pi = (T)5.64189583547756286948e-01;
    if (isinf(x))
        return NAN;
    if (x > (T)103.892)
        return 0;
    if (x < (T)-2.09) {
        T zeta = (T)-2.0 * x * sqrt(-x) / (T)3.0, z = (T)1.0 / zeta, zz = z * z;
        T f = (T)1.0 + zz * FN(horner)(zz, airc_airy.afn, 9) / FN(horner)(zz, airc_airy.afd, 9);
        T g = z * FN(horner)(zz, airc_airy.agn, 11) / FN(horner)(zz, airc_airy.agd, 10);
        T t = zeta + (T)0.25 * (T)AIRC_BESSEL_PI;
        return inv_sqrt_pi / sqrt(sqrt(-x)) * (sin(t) * f - cos(t) * g);
    }
    if (x >= (T)2.09) {
        T zeta = (T)2.0 * x * sqrt(x) / (T)3.0, iz = (T)1.0 / zeta;
        return inv_sqrt_pi * (FN(horner)(iz, airc_airy.an, 8) / FN(horner)(iz, airc_airy.ad, 8)) /
               ((T)2.0 * sqrt(sqrt(x)) * exp(zeta));
    }
    T f = 1, g = x, k = 1, m = 1, n = x, t = 1, z = x * x * x;
    while (t > EPS) {
        m *= z;
        k += 1;
        m /= k;
        n *= z;
        k += 1;
        n /= k;
        m /= k;
        f += m;
        k += 1;
        n /= k;
        g += n;
        t = fabs(m / f);
    }
    return (T)0.355028053887817239260 * f - (T)0.258819403792806798405 * g;
}

/* J0 / Y0's and J1 / Y1's shared asymptotic form past 5, of the modulus
 * P / Q rational functions and the phase x - pi/4 (x - 3pi/4): sqrt(2 /
 * (pi x)) (P cos(x - phase) - 5 / x Q sin(...)) for J, (P sin + 5 / x Q
 * cos) for Y; order 1 takes w as
 * (5 / x)(5 / x), order 0 as 25 / (x x), torch's roundings */
static T FN(bessel_far)(T x, int order, bool y)
{
    T w = order ? (T)5.0 / x * ((T)5.0 / x) : (T)25.0 / (x * x);
    const double *pp = order ? bessel_j1_pp : bessel_j0_pp,
                 *pq = order ? bessel_j1_pq : bessel_j0_pq;
    const double *qp = order ? bessel_j1_qp : bessel_j0_qp,
                 *qq = order ? bessel_j1_qq : bessel_j0_qq;
    T p = FN(horner)(w, pp, 7) / FN(horner)(w, pq, 7);
    T q = FN(horner)(w, qp, 8) / FN(horner)(w, qq, 7);
    T ph = x - (order ? (T)2.356194490192344928846982537459627163
                      : (T)0.785398163397448309615660845819875721);
    T v = y ? p * sin(ph) + (T)5.0 / x * q * cos(ph) : p * cos(ph) - (T)5.0 / x * q * sin(ph);
    return v * (T)0.797884560802865355879892119868763737 / sqrt(x);
}

T FN(airc_bessel_j0)(T x)
{
    static const double rp[] = {-4.79443220978201773821e+09, 1.95617491946556577543e+12,
                                -2.49248344360967716204e+14, 9.70862251047306323952e+15};
    static const double rq[] = {4.99563147152651017219e+02, 1.73785401676374683123e+05,
                                4.84409658339962045305e+07, 1.11855537045356834862e+10,
                                2.11277520115489217587e+12, 3.10518229857422583814e+14,
                                3.18121955943204943306e+16, 1.71086294081043136091e+18};
    if (x < 0)
        x = -x;
    if (x > (T)5.0 || x != x)
        return FN(bessel_far)(x, 0, false);
    if (x < (T)0.00001)
        return (T)1.0 - x * x / (T)4.0;
    T z = x * x;
    return (z - (T)5.78318596294678452118e+00) * (z - (T)3.04712623436620863991e+01) *
           FN(horner)(z, rp, 4) / FN(horner)(z, rq, 8);
}

T FN(airc_bessel_j1)(T x)
{
    static const double rp[] = {-8.99971225705559398224e+08, 4.52228297998194034323e+11,
                                -7.27494245221818276015e+13, 3.68295732863852883286e+15};
    static const double rq[] = {6.20836478118054335476e+02, 2.56987256757748830383e+05,
                                8.35146791431949253037e+07, 2.21511595479792499675e+10,
                                4.74914122079991414898e+12, 7.84369607876235854894e+14,
                                8.95222336184627338078e+16, 5.32278620332680085395e+18};
    if (x < 0)
        return -FN(airc_bessel_j1)(-x);
    if (x > (T)5.0 || x != x)
        return FN(bessel_far)(x, 1, false);
    T z = x * x;
    return FN(horner)(z, rp, 4) / FN(horner)(z, rq, 8) * x * (z - (T)1.46819706421238932572e+01) *
           (z - (T)4.92184563216946036703e+01);
}

/* Y0 / Y1: -inf at 0, NaN below (x <= 5 holds for -inf) */
T FN(airc_bessel_y0)(T x)
{
    static const double yp[] = {1.55924367855235737965e+04, -1.46639295903971606143e+07,
                                5.43526477051876500413e+09, -9.82136065717911466409e+11,
                                8.75906394395366999549e+13, -3.46628303384729719441e+15,
                                4.42733268572569800351e+16, -1.84950800436986690637e+16};
    static const double yq[] = {1.04128353664259848412e+03, 6.26107330137134956842e+05,
                                2.68919633393814121987e+08, 8.64002487103935000337e+10,
                                2.02979612750105546709e+13, 3.17157752842975028269e+15,
                                2.50596256172653059228e+17};
    if (!(x <= (T)5.0))
        return FN(bessel_far)(x, 0, true);
    if (x == 0)
        return -INFINITY;
    if (x < 0)
        return NAN;
    T z = x * x;
    return FN(horner)(z, yp, 8) / FN(horner)(z, yq, 7) +
           (T)0.636619772367581343075535053490057448 * log(x) * FN(airc_bessel_j0)(x);
}

T FN(airc_bessel_y1)(T x)
{
    static const double yp[] = {1.26320474790178026440e+09, -6.47355876379160291031e+11,
                                1.14509511541823727583e+14, -8.12770255501325109621e+15,
                                2.02439475713594898196e+17, -7.78877196265950026825e+17};
    static const double yq[] = {5.94301592346128195359e+02, 2.35564092943068577943e+05,
                                7.34811944459721705660e+07, 1.87601316108706159478e+10,
                                3.88231277496238566008e+12, 6.20557727146953693363e+14,
                                6.87141087355300489866e+16, 3.97270608116560655612e+18};
    if (!(x <= (T)5.0))
        return FN(bessel_far)(x, 1, true);
    if (x == 0)
        return -INFINITY;
    if (x < 0)
        return NAN;
    T z = x * x;
    return x * (FN(horner)(z, yp, 6) / FN(horner)(z, yq, 8)) +
           (T)0.636619772367581343075535053490057448 *
               (FN(airc_bessel_j1)(x) * log(x) - (T)1.0 / x);
}

/* I0 / I1 by their Chebyshev series: exp(-|x|) I(x) (over |x| for I1) on
 * [0, 8] in |x| / 2 - 2, sqrt(x) exp(-x) I(x) past 8 in 32 / x - 2 */
T FN(airc_modified_bessel_i0)(T x)
{
    T ax = fabs(x);
    if (ax <= (T)8.0)
        return exp(ax) * FN(chbevl)(ax / (T)2.0 - (T)2.0, bessel_i0_a, 30);
    return exp(ax) * FN(chbevl)((T)32.0 / ax - (T)2.0, bessel_i0_b, 25) / sqrt(ax);
}

T FN(airc_modified_bessel_i1)(T x)
{
    T ax = fabs(x), v;
    if (ax <= (T)8.0)
        v = FN(chbevl)(ax / (T)2.0 - (T)2.0, bessel_i1_a, 29) * ax * exp(ax);
    else
        v = exp(ax) * FN(chbevl)((T)32.0 / ax - (T)2.0, bessel_i1_b, 25) / sqrt(ax);
    return x < 0 ? -v : v;
}

/* torch.special.i1 / i1e, torch's calc_i1 / calc_i1e (Cephes' i1 / i1e,
 * not modified_bessel_i1's evaluation): f32 with Cephes' float tables, the
 * double tables' last 17 and 7 terms; I1 = exp(|x|) |x| chbevl(..) on
 * [0, 8], exp(|x|) chbevl(..) / sqrt(|x|) past, in that order; i1e leaves
 * out exp(|x|); both odd. */
static T FN(i1_common)(T x, bool scaled)
{
    const bool narrow = sizeof(T) == sizeof(float);
    T ax = fabs(x), out;
    if (ax <= (T)8.0) {
        T c = FN(chbevl)(ax / (T)2.0 - (T)2.0, narrow ? bessel_i1_a + 12 : bessel_i1_a,
                         narrow ? 17 : 29);
        out = scaled ? c * ax : exp(ax) * ax * c;
    } else {
        T c = FN(chbevl)((T)32.0 / ax - (T)2.0, narrow ? bessel_i1_b + 18 : bessel_i1_b,
                         narrow ? 7 : 25);
        out = scaled ? c / sqrt(ax) : exp(ax) * c / sqrt(ax);
    }
    return x < 0 ? -out : out;
}

T FN(airc_i1)(T x)
{
    return FN(i1_common)(x, false);
}

T FN(airc_i1e)(T x)
{
    return FN(i1_common)(x, true);
}

/* K0 or K1 (order), scaled by exp(x) or not, by their Chebyshev series:
 * on (0, 2] in x^2 - 2 with the log term of I, past 2 sqrt(x) exp(x) K(x)
 * in 8 / x - 2. inf at 0, NaN below. The scaled forms multiply by exp(x)
 * on (0, 2] and leave out exp(-x) past. */
static T FN(bessel_k)(T x, int order, bool scaled)
{
    if (x == 0)
        return INFINITY;
    if (x < 0)
        return NAN;
    if (x <= (T)2.0) {
        T y = x * x - (T)2.0, v;
        if (order)
            v = log((T)0.5 * x) * FN(airc_modified_bessel_i1)(x) +
                FN(chbevl)(y, bessel_k1_a, 11) / x;
        else /* torch's log(0.5 * x) has a double 0.5: the term in double */
            v = (T)((double)FN(chbevl)(y, bessel_k0_a, 10) -
                    log(0.5 * (double)x) * (double)FN(airc_modified_bessel_i0)(x));
        return scaled ? v * exp(x) : v;
    }
    T s = FN(chbevl)((T)8.0 / x - (T)2.0, order ? bessel_k1_b : bessel_k0_b, 25);
    return scaled ? s / sqrt(x) : exp(-x) * s / sqrt(x);
}

T FN(airc_modified_bessel_k0)(T x)
{
    return FN(bessel_k)(x, 0, false);
}

T FN(airc_modified_bessel_k1)(T x)
{
    return FN(bessel_k)(x, 1, false);
}

/* the scaled K0 computes its log term in T (torch's kernel does) */
T FN(airc_scaled_modified_bessel_k0)(T x)
{
    if (x > 0 && x <= (T)2.0)
        return (FN(chbevl)(x * x - (T)2.0, bessel_k0_a, 10) -
                log((T)0.5 * x) * FN(airc_modified_bessel_i0)(x)) *
               exp(x);
    return FN(bessel_k)(x, 0, true);
}

T FN(airc_scaled_modified_bessel_k1)(T x)
{
    return FN(bessel_k)(x, 1, true);
}

/* sin(x) / x: 0 at ±inf, its Taylor polynomial below 1/2 */
T FN(airc_spherical_bessel_j0)(T x)
{
    if (isinf(x))
        return 0;
    if (fabs(x) < (T)0.5) {
        T z = x * x;
        return (T)1.0 +
               z * ((T)-1.0 / (T)6.0 +
                    z * ((T)1.0 / (T)120.0 +
                         z * ((T)-1.0 / (T)5040.0 +
                              z * ((T)1.0 / (T)362880.0 + z * ((T)-1.0 / (T)39916800.0 +
                                                               z * ((T)1.0 / (T)6227020800.0))))));
    }
    return sin(x) / x;
}

/* ------------------------------------------------------------ polynomials
 * The degree is n converted to int64 as torch's static_cast does on x86
 * (NaN, ±inf and values past int64 are INT64_MIN: a negative degree, 0).
 * Below 0 the value is 0. The three-term recurrences stop at a NaN, which
 * no later step changes (the result is the NaN). */
static int64_t FN(degree)(T n)
{
    return n != n || !(fabs(n) < (T)9.2233720368547758e18) ? INT64_MIN : (int64_t)n;
}

/* Whether step k of a recurrence passes AIRC_POLY_MAX_STEPS: then *st is
 * set (the kernel fails; torch would run that many steps per element) */
static bool FN(too_long)(int64_t k, airc_status *st)
{
    if (k <= AIRC_POLY_MAX_STEPS)
        return false;
    *st = AIRC_E_UNSUPPORTED;
    return true;
}

/* p_{k+1} = (a x + b) p_k - p_{k-1}: the Chebyshev recurrences' tail from
 * p0 = 1, p1 = q (t the doubled argument), for n >= 2 */
static T FN(cheb_tail)(T t, T q, int64_t n, airc_status *st)
{
    T p = 1, r = q;
    for (int64_t k = 2; k <= n && !isnan(q); k++) {
        if (FN(too_long)(k, st))
            return NAN;
        r = fma(t, q, -p);
        p = q;
        q = r;
    }
    return r;
}

/* Chebyshev's T / U / V / W (kind) of x, or shifted, of y = 2x - 1, in
 * torch's order of tests: the values at the ends (x == 1; x == -1, the
 * shifted ones' x == 0), the closed forms where n passes closed_above and
 * |y| < 1 (with torch's fallbacks where a divisor rounds to an end), then
 * the recurrence with the factor y + y */
static T FN(chebyshev)(T x, T nf, char kind, bool shifted, int64_t closed_above, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    T sign = n % 2 == 0 ? 1 : -1, odd = (T)2 * (T)n + 1;
    T plus = kind == 'u' ? (T)(n + 1) : kind == 'w' ? odd : 1;
    T minus = kind == 'u' ? sign * (T)(n + 1) : kind == 'v' ? sign * odd : sign;
    if (x == 1)
        return plus;
    if (shifted ? x == 0 : x == -1)
        return minus;
    T y = shifted ? x + x - 1 : x;
    if (n > closed_above && fabs(y) < 1) {
        T a = acos(y);
        if (kind == 't')
            return cos((T)n * a);
        if (kind == 'u') {
            if (sin(a) != 0)
                return sin((T)(n + 1) * a) / sin(a);
            return (T)(n + 1) * cos((T)(n + 1) * a) / y;
        }
        if (kind == 'v')
            return sin(a / (T)2.0) != 1 ? cos(((T)n + (T)0.5) * a) / cos(a / (T)2.0) : minus;
        if (cos(a / (T)2.0) != 1)
            return sin(((T)n + (T)0.5) * a) / sin(a / (T)2.0);
        return shifted || !(x > 0) ? minus : plus;
    }
    if (n == 0)
        return 1;
    T q = kind == 't' ? y : kind == 'u' ? y + y : kind == 'v' ? y + y - 1 : y + y + 1;
    return n == 1 ? q : FN(cheb_tail)(y + y, q, n, st);
}

/* torch's thresholds of the closed forms: n > 6 for T, 8 for U / V / W;
 * shifted 6, W 4 */
#define CHEBYSHEV(name, kind, shifted, above)                                                      \
    T FN(airc_##name)(T x, T nf, airc_status * st)                                                 \
    {                                                                                              \
        return FN(chebyshev)(x, nf, kind, shifted, above, st);                                     \
    }
CHEBYSHEV(chebyshev_t, 't', false, 6)
CHEBYSHEV(chebyshev_u, 'u', false, 8)
CHEBYSHEV(chebyshev_v, 'v', false, 8)
CHEBYSHEV(chebyshev_w, 'w', false, 8)
CHEBYSHEV(shifted_chebyshev_t, 't', true, 6)
CHEBYSHEV(shifted_chebyshev_u, 'u', true, 6)
CHEBYSHEV(shifted_chebyshev_v, 'v', true, 6)
CHEBYSHEV(shifted_chebyshev_w, 'w', true, 4)
#undef CHEBYSHEV

/* Steps k = 1 .. n - 1 of a three-term recurrence from p_0 = 1, p_1 = q:
 * Hermite's H (h: p_{k+1} = 2x p_k - 2k p_{k-1}) and He (e: x p_k - k
 * p_{k-1}), Laguerre's (l: ((2k + 1 - x) p_k - k p_{k-1}) / (k + 1)) and
 * Legendre's (p: ((2k + 1) x p_k - k p_{k-1}) / (k + 1)), in torch's
 * roundings; a NaN stays (torch's Hermite loops run on, to the same NaN) */
static T FN(three_term)(char family, T x, T q, int64_t n, airc_status *st)
{
    T p = 1, r = q;
    for (int64_t k = 1; k < n && !isnan(q); k++) {
        if (FN(too_long)(k + 1, st))
            return NAN;
        if (family == 'h')
            r = fma(x + x, q, -((T)(k + k) * p));
        else if (family == 'e')
            r = fma(x, q, -((T)k * p));
        else if (family == 'l')
            r = fma((T)(k + k) + (1 - x), q, -((T)k * p)) / (T)(k + 1);
        else
            r = fma((T)(k + k + 1) * x, q, -((T)k * p)) / (T)(k + 1);
        p = q;
        q = r;
    }
    return r;
}

/* Hermite's H (physicists') or He: they overflow to inf and then NaN by
 * degree 70 in float, 350 in double, for every x: past HERMITE_NAN the
 * value is NaN without the steps (later torch releases return NaN past the
 * same degrees) */
static T FN(hermite)(T x, T nf, bool physicists, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    T q = physicists ? x + x : x;
    if (n < 0)
        return 0;
    if (n <= 1)
        return n ? q : 1;
    return n > HERMITE_NAN ? NAN : FN(three_term)(physicists ? 'h' : 'e', x, q, n, st);
}

T FN(airc_hermite_h)(T x, T nf, airc_status *st)
{
    return FN(hermite)(x, nf, true, st);
}

T FN(airc_hermite_he)(T x, T nf, airc_status *st)
{
    return FN(hermite)(x, nf, false, st);
}

/* Laguerre's: 1 at x == 0 */
T FN(airc_laguerre_l)(T x, T nf, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    if (fabs(x) == 0 || n == 0)
        return 1;
    return n == 1 ? 1 - x : FN(three_term)('l', x, 1 - x, n, st);
}

/* Legendre's: ±1 at |x| == 1 */
T FN(airc_legendre_p)(T x, T nf, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    if (fabs(x) == 1)
        return x > 0 || n % 2 == 0 ? 1 : -1;
    if (n <= 1)
        return n ? x : 1;
    return FN(three_term)('p', x, x, n, st);
}
