/* Special functions of the unary kernels (k_special.h). */
#define _DEFAULT_SOURCE /* lgamma_r, lgammaf_r */
#include "backends/cpu/k_special.h"

#include <math.h>

#define AIRC_PI 3.14159265358979323846

/* erfinv: Winitzki's closed form (relative error ~2e-3) as the start,
 * then Newton steps on erf(x) = y; in the tails on erfc(x) = 1 - |y|,
 * which keeps the digits erf loses next to 1. */
double airc_erfinv(double y)
{
    if (isnan(y) || y < -1 || y > 1)
        return NAN;
    if (y == 1 || y == -1)
        return copysign(INFINITY, y);
    if (y == 0)
        return y; /* keeps -0 */
    const double a = 0.147, two_over_sqrt_pi = 1.12837916709551257390;
    double ay = fabs(y), l = log1p(-ay * ay), t = 2.0 / (AIRC_PI * a) + l / 2.0;
    double x = sqrt(sqrt(t * t - l / a) - t);
    bool tail = ay > 0.5;
    double q = 1.0 - ay; /* exact for ay > 0.5 */
    for (int i = 0; i < 4; i++) {
        double slope = two_over_sqrt_pi * exp(-x * x);
        if (slope == 0)
            break;
        double r = tail ? erfc(x) - q : ay - erf(x);
        x += r / slope;
    }
    return copysign(x, y);
}

double airc_lgamma(double x)
{
    int sign;
    return lgamma_r(x, &sign);
}

float airc_lgammaf(float x)
{
    int sign;
    return lgammaf_r(x, &sign);
}

/* digamma: the reflection formula for x < 0, the recurrence psi(x) =
 * psi(x + 1) - 1 / x up to x >= 10, then the asymptotic series
 * log x - 1 / 2x - sum B_2k / (2k x^2k) (the Bernoulli numbers' terms). */
double airc_digamma(double x)
{
    if (x == 0)
        return copysign(INFINITY, -x);
    if (x < 0) {
        if (x == trunc(x))
            return NAN;
        double ip, frac = modf(x, &ip);
        return airc_digamma(1 - x) - AIRC_PI / tan(AIRC_PI * frac);
    }
    double result = 0;
    while (x < 10) {
        result -= 1 / x;
        x += 1;
    }
    if (x == 10)
        return result + 2.25175258906672110764; /* psi(10) */
    /* B_2k / 2k for k = 7 .. 1, in Horner order over z = 1 / x^2 */
    static const double c[] = {1.0 / 12,  -691.0 / 32760, 1.0 / 132, -1.0 / 240,
                               1.0 / 252, -1.0 / 120,     1.0 / 12};
    double series = 0;
    if (x < 1e17) {
        double z = 1 / (x * x), p = c[0];
        for (int i = 1; i < 7; i++)
            p = p * z + c[i];
        series = z * p;
    }
    return result + log(x) - 0.5 / x - series;
}
