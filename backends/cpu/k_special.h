/* Special functions of one real argument for the unary kernels, as torch
 * 1.13 defines them on the CPU (NaN, the poles and the signs of zero
 * included). Thread-safe: no libm global (signgam) is written. */
#ifndef AIRC_CPU_K_SPECIAL_H
#define AIRC_CPU_K_SPECIAL_H

#include "core/core.h"

/* The inverse of erf on [-1, 1]: ±inf at ±1, NaN outside. */
AIRC_HIDDEN double airc_erfinv(double y);
/* log |Gamma(x)|: libm's lgamma / lgammaf through their reentrant forms. */
AIRC_HIDDEN double airc_lgamma(double x);
AIRC_HIDDEN float airc_lgammaf(float x);
/* psi(x) = Gamma'(x) / Gamma(x): -inf at +0 and inf at -0 (torch's sign
 * rule), NaN at the negative integers and -inf. */
AIRC_HIDDEN double airc_digamma(double x);

#endif
