/* Shared pieces of the LAPACK-backed ops' meta functions (meta_lapack*.c):
 * torch 1.13's input checks with its messages, and results shaped as
 * torch's batches of column-major matrices. */
#ifndef AIRC_OPS_META_LAPACK_H
#define AIRC_OPS_META_LAPACK_H

#include "ops/meta_util.h"

/* t's first `keep` dims, then `count` trailing sizes; batched column-major
 * strides where column_major, else contiguous */
AIRC_HIDDEN airc_tmeta airc_mla_shaped(const airc_tmeta *t, airc_dtype dt, int32_t keep,
                                       int32_t count, const int64_t *tail, bool column_major);
/* a [0] tensor: what torch returns for an output it does not compute */
AIRC_HIDDEN airc_tmeta airc_mla_empty1d(airc_dtype dt);
AIRC_HIDDEN airc_tmeta airc_mla_from_shape(airc_dtype dt, const int64_t *shape, int32_t ndim,
                                           bool column_major);
/* A's batch dims as int32 infos; a column-major tensor of t's shape */
AIRC_HIDDEN airc_tmeta airc_mla_infos(const airc_tmeta *t);
AIRC_HIDDEN airc_tmeta airc_mla_like_f(const airc_tmeta *t);
AIRC_HIDDEN bool airc_mla_is_f32_or_f64(airc_dtype d);

/* checkIsMatrix, squareCheckInputs, checkFloatingOrComplex (f16 / bf16
 * let through where low_ok), a kernel's float / double dispatch, and a
 * same-dtype check ("%sExpected na and nb to have the same dtype ...%s") */
AIRC_HIDDEN airc_status airc_mla_is_matrix(const airc_meta_args *a, const char *api,
                                           const char *name, const airc_tmeta *t);
AIRC_HIDDEN airc_status airc_mla_square(const airc_meta_args *a, const char *api,
                                        const airc_tmeta *t);
AIRC_HIDDEN airc_status airc_mla_floating(const airc_meta_args *a, const char *api,
                                          const airc_tmeta *t, bool low_ok);
AIRC_HIDDEN airc_status airc_mla_dispatch(const airc_meta_args *a, const char *kernel,
                                          const airc_tmeta *t);
AIRC_HIDDEN airc_status airc_mla_same_dtype(const airc_meta_args *a, const char *prefix,
                                            const char *na, const airc_tmeta *x, const char *nb,
                                            const airc_tmeta *y, const char *end);
/* _linalg_broadcast_batch_dims: x's batch broadcast with y's, then x's
 * own last two dims */
AIRC_HIDDEN airc_status airc_mla_broadcast_batch(const airc_meta_args *a, const airc_tmeta *x,
                                                 const airc_tmeta *y, int64_t *shape,
                                                 int32_t *ndim);
/* checkInputsSolver(A, B, left, api) */
AIRC_HIDDEN airc_status airc_mla_solver_inputs(const airc_meta_args *a, const char *api,
                                               const airc_tmeta *A, const airc_tmeta *B, bool left);

/* The ops' meta functions (meta_lapack_factor.c, meta_lapack_qr.c) */
AIRC_HIDDEN airc_status airc_mla_lu_unpack(airc_node *n, const airc_meta_args *a);
AIRC_HIDDEN airc_status airc_mla_lu_solve(airc_node *n, const airc_meta_args *a);
AIRC_HIDDEN airc_status airc_mla_ldl_factor(airc_node *n, const airc_meta_args *a);
AIRC_HIDDEN airc_status airc_mla_ldl_solve(airc_node *n, const airc_meta_args *a);
AIRC_HIDDEN airc_status airc_mla_symeig(airc_node *n, const airc_meta_args *a);
AIRC_HIDDEN airc_status airc_mla_geqrf(airc_node *n, const airc_meta_args *a);
AIRC_HIDDEN airc_status airc_mla_householder(airc_node *n, const airc_meta_args *a);
AIRC_HIDDEN airc_status airc_mla_ormqr(airc_node *n, const airc_meta_args *a);
AIRC_HIDDEN airc_status airc_mla_lstsq(airc_node *n, const airc_meta_args *a);

#endif
