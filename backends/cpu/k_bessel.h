/* torch.special's Bessel functions (airy_ai, bessel_j0 / j1 / y0 / y1,
 * modified_bessel_i0 / i1 / k0 / k1, scaled_modified_bessel_k0 / k1,
 * spherical_bessel_j0; special_i1 / i1e, Cephes' i1 as torch's calc_i1) and
 * orthogonal polynomials (chebyshev_polynomial_t /
 * u / v / w and their shifted forms, hermite_polynomial_h / he,
 * laguerre_polynomial_l, legendre_polynomial_p, of x and the degree n) as
 * torch 1.13's CPU kernels compute them: _f32 in float, _f64 in double.
 * Thread-safe. A polynomial whose recurrence would run past
 * AIRC_POLY_MAX_STEPS steps (torch's loop runs n steps: a huge degree of
 * a bounded polynomial runs for ever) sets *st to AIRC_E_UNSUPPORTED and
 * gives NaN; *st is left alone otherwise. */
#ifndef AIRC_CPU_K_BESSEL_H
#define AIRC_CPU_K_BESSEL_H

#include "core/core.h"

#define AIRC_POLY_MAX_STEPS ((int64_t)1 << 20)

#define AIRC_BESSEL_UNARY(X)                                                                       \
    X(airy_ai)                                                                                     \
    X(bessel_j0)                                                                                   \
    X(bessel_j1)                                                                                   \
    X(bessel_y0)                                                                                   \
    X(bessel_y1) X(modified_bessel_i0) X(modified_bessel_i1) X(modified_bessel_k0)                 \
        X(modified_bessel_k1) X(scaled_modified_bessel_k0) X(scaled_modified_bessel_k1)            \
            X(spherical_bessel_j0) X(i1) X(i1e)
#define AIRC_BESSEL_POLY(X)                                                                        \
    X(chebyshev_t)                                                                                 \
    X(chebyshev_u)                                                                                 \
    X(chebyshev_v)                                                                                 \
    X(chebyshev_w) X(shifted_chebyshev_t) X(shifted_chebyshev_u) X(shifted_chebyshev_v)            \
        X(shifted_chebyshev_w) X(hermite_h) X(hermite_he) X(laguerre_l) X(legendre_p)

#define AIRC_BESSEL_DECLARE1(name)                                                                 \
    AIRC_HIDDEN float airc_##name##_f32(float x);                                                  \
    AIRC_HIDDEN double airc_##name##_f64(double x);
#define AIRC_BESSEL_DECLARE2(name)                                                                 \
    AIRC_HIDDEN float airc_##name##_f32(float x, float n, airc_status *st);                        \
    AIRC_HIDDEN double airc_##name##_f64(double x, double n, airc_status *st);
AIRC_BESSEL_UNARY(AIRC_BESSEL_DECLARE1)
AIRC_BESSEL_POLY(AIRC_BESSEL_DECLARE2)
/* Cephes' coefficients of Ai's rational functions (k_bessel.c), which the
 * max-autotune composite (convert_bessel.c) evaluates too */
typedef struct airc_airy_coefficients {
    double an[8], ad[8], afn[9], afd[9], agn[11], agd[10];
} airc_airy_coefficients;
AIRC_HIDDEN extern const airc_airy_coefficients airc_airy;

#undef AIRC_BESSEL_DECLARE1
#undef AIRC_BESSEL_DECLARE2

#endif
