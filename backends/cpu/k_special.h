/* Special functions of real arguments for the unary and binary kernels, as
 * torch 1.13 defines them on the CPU (NaN, the poles and the signs of zero
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

/* torch.special's entr (-x log x; 0 at 0, -inf below), erfcx (exp(x^2)
 * erfc(x)), log_ndtr (log of the normal CDF) and ndtri (its inverse: ±inf
 * at 1 and 0, NaN outside [0, 1]). */
AIRC_HIDDEN double airc_entr(double x);
AIRC_HIDDEN double airc_erfcx(double x);
AIRC_HIDDEN double airc_log_ndtr(double x);
AIRC_HIDDEN double airc_ndtri(double p);
/* The modified Bessel function I0 and exp(-|x|) I0(x). */
AIRC_HIDDEN double airc_i0(double x);
AIRC_HIDDEN double airc_i0e(double x);
/* Hurwitz zeta(x, q) (Cephes' domain: NaN for x < 1) and polygamma(n, x)
 * for n >= 0 (digamma, trigamma, then by zeta). */
AIRC_HIDDEN double airc_zeta(double x, double q);
AIRC_HIDDEN double airc_polygamma(int64_t n, double x);
AIRC_HIDDEN float airc_trigammaf(float x);
/* The regularized lower / upper incomplete gamma functions P(a, x) and
 * Q(a, x), with torch's edges (NaN for a or x negative). */
AIRC_HIDDEN double airc_igamma(double a, double x);
AIRC_HIDDEN double airc_igammac(double a, double x);

/* k_special_ops.c: kernels of frexp.Tensor and mvlgamma (k_unary.c's
 * table). */
#include "ops/kernel.h"
AIRC_HIDDEN airc_status airc_cpu_k_frexp(airc_kernel_ctx *k, void *ud);
AIRC_HIDDEN airc_status airc_cpu_k_mvlgamma(airc_kernel_ctx *k, void *ud);
/* k_quant.c: the fake-quantization ops (k_unary.c's table). */
AIRC_HIDDEN airc_status airc_cpu_k_fake_quantize_per_tensor(airc_kernel_ctx *k, void *ud);
AIRC_HIDDEN airc_status airc_cpu_k_fake_quantize_tensor_qparams(airc_kernel_ctx *k, void *ud);
AIRC_HIDDEN airc_status airc_cpu_k_fake_quantize_learnable_per_tensor(airc_kernel_ctx *k, void *ud);
AIRC_HIDDEN airc_status airc_cpu_k_fake_quantize_per_channel(airc_kernel_ctx *k, void *ud);
AIRC_HIDDEN airc_status airc_cpu_k_fake_quantize_learnable_per_channel(airc_kernel_ctx *k,
                                                                       void *ud);

#endif
