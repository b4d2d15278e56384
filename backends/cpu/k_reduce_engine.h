/* The reduction engine shared by the reduce family's kernels (k_reduce.c):
 * a kernel describes its reduction in a kr_spec and calls
 * airc_kred_reduce. Internal to backends/cpu. */
#ifndef AIRC_CPU_K_REDUCE_ENGINE_H
#define AIRC_CPU_K_REDUCE_ENGINE_H

#include "backends/cpu/k_reduce_internal.h"

typedef enum kr_op {
    KR_SUM,
    KR_SQDEV, /* sum of (x - mean)^2: var's second pass */
    KR_PROD,
    KR_MAX,
    KR_MIN,
    KR_ANY,
    KR_ALL,
    KR_ARGMAX,
    KR_ARGMIN,
    KR_NORM,   /* sum of |x|^p (p 0: count of nonzeros; +-inf: max / min of |x|) */
    KR_SUMEXP, /* sum of exp(x - max): logsumexp's second pass */
    KR_NANSUM  /* sum with NaNs as 0 */
} kr_op;

/* What is written per output. */
typedef enum kr_fin {
    KR_FIN_VALUE,       /* the accumulated value */
    KR_FIN_FLAG,        /* any/all: 0 or 1 */
    KR_FIN_MEAN,        /* sum / count */
    KR_FIN_VAR,         /* op KR_SUM: two passes, sqdev / max(0, count - correction) */
    KR_FIN_VAR_MEAN,    /* the same into out[0], the mean into out[1] */
    KR_FIN_INDEX,       /* arg ops: the index */
    KR_FIN_VALUE_INDEX, /* max.dim/min.dim: value into out[0], index into out[1] */
    KR_FIN_STD,         /* the square root of KR_FIN_VAR */
    KR_FIN_NORM,        /* op KR_NORM: the p-th root (0 for an empty reduction) */
    KR_FIN_LSE,         /* op KR_MAX, then KR_SUMEXP: max + log(sum) */
    KR_FIN_STD_MEAN     /* KR_FIN_STD into out[0], the mean into out[1] */
} kr_fin;

typedef struct kr_spec {
    const airc_tview *in;
    airc_tview *out[2];
    int nouts;                  /* 1 or 2 */
    bool mask[AIRC_MAX_DIMS];   /* reduced dims of in */
    kr_op op;
    kr_fin fin;
    bool dbl;                   /* accumulate in double (else int64) */
    airc_dtype elem_dtype;      /* each element converts to it first (dtype=), or 0 */
    bool needs_elements;        /* no identity: empty reductions fail */
    double correction;          /* var */
    double p;                   /* norm's order */
    const airc_kred_simd *simd; /* set by airc_kred_reduce */
} kr_spec;

/* Runs the reduction; out tensors must have the reduced shape (keepdim or
 * not). AIRC_E_RUNTIME (empty reduction without identity, shape mismatch). */
AIRC_HIDDEN airc_status airc_kred_reduce(const airc_kernel_ctx *k, kr_spec *s);

#endif
