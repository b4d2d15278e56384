/* Shared builders of the linear-algebra lowerings (convert_lapack*.c,
 * convert_householder.c): results, batches, masks and CANN's matrix ops. */
#ifndef AIRC_GE_LAPACK_INTERNAL_H
#define AIRC_GE_LAPACK_INTERNAL_H

#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/meta_util.h"

/* Whether result j of n is read (a getitem of it has users). */
AIRC_HIDDEN bool airc_gla_result_read(const airc_node *n, int64_t j);
/* Result j: zeros (an info, or an output the call does not compute) */
AIRC_HIDDEN airc_status airc_gla_zeros_result(airc_ge_builder *b, const airc_node *n, size_t j);
/* x with its last two dims swapped */
AIRC_HIDDEN airc_status airc_gla_swap_last(airc_ge_builder *b, airc_ge_tensor x,
                                           airc_ge_tensor *out);
/* x broadcast to batch[0..nb) and its own last two dims */
AIRC_HIDDEN airc_status airc_gla_to_batch(airc_ge_builder *b, airc_ge_tensor x, int32_t nb,
                                          const int64_t *batch, airc_ge_tensor *out);
/* a and rhs broadcast to the result's batch (meta m, nd >= 2) */
AIRC_HIDDEN airc_status airc_gla_batch_both(airc_ge_builder *b, const airc_tmeta *m,
                                            airc_ge_tensor *a, airc_ge_tensor *rhs);
/* One op of `type` on x (input name `in`), its outputs named outs[] of
 * the given metas. */
AIRC_HIDDEN airc_status airc_gla_unary_op(airc_ge_builder *b, const char *type, const char *in,
                                          airc_ge_tensor x, const char *const *outs,
                                          const airc_tmeta *const *metas, size_t nout,
                                          airc_ge_op **opp, airc_ge_tensor *ys);
/* A const int32 vector [n]: 0..n-1 (one_at < 0), else 1 at one_at, 0
 * elsewhere */
AIRC_HIDDEN airc_status airc_gla_const_i32(airc_ge_builder *b, int64_t n, int64_t one_at,
                                           airc_ge_tensor *out);
/* A binary elementwise op of result dtype dt and shape */
AIRC_HIDDEN airc_status airc_gla_ew2(airc_ge_builder *b, const char *type, airc_ge_tensor x,
                                     airc_ge_tensor y, airc_dtype dt, int32_t nd,
                                     const int64_t *shape, airc_ge_tensor *out);
/* A const bool [rows, cols] mask of i > j (which < 0), i == j (0) or
 * i <= j */
AIRC_HIDDEN airc_status airc_gla_tri_mask(airc_ge_builder *b, int64_t rows, int64_t cols, int which,
                                          airc_ge_tensor *out);
/* x1 @ x2 (either adjoint), both of the result's batch: one BatchMatMul
 * over the batch flattened; the result of dtype dt and shape (nd, shape) */
AIRC_HIDDEN airc_status airc_gla_matmul(airc_ge_builder *b, airc_ge_tensor x1, airc_ge_tensor x2,
                                        bool adj1, bool adj2, airc_dtype dt, int32_t nd,
                                        const int64_t *shape, airc_ge_tensor *out);
/* The permutation matrix [*batch, m, m] of dtype dt of a row
 * permutation perm (int32 [*batch, m]): (perm[j] == i) where transposed is
 * false (torch's P, A = P L U), else (perm[i] == j) */
AIRC_HIDDEN airc_status airc_gla_perm_matrix(airc_ge_builder *b, airc_ge_tensor perm, int32_t nb,
                                             const int64_t *batch, int64_t m, bool transposed,
                                             airc_dtype dt, airc_ge_tensor *out);
/* A with ones on its diagonal (unitriangular) */
AIRC_HIDDEN airc_status airc_gla_unit_diagonal(airc_ge_builder *b, airc_ge_tensor a,
                                               airc_ge_tensor *out);
/* MatrixTriangularSolve(matrix, rhs; lower, adjoint), matrix and rhs of
 * one batch, its result of meta m */
AIRC_HIDDEN airc_status airc_gla_tri_solve(airc_ge_builder *b, airc_ge_tensor a, airc_ge_tensor rhs,
                                           bool lower, bool adjoint, const airc_tmeta *m,
                                           airc_ge_tensor *out);
/* x's first count items along its last axis (axis_from_end 1) or the one
 * before (2): GatherV2 at a constant index; x itself where it has count */
AIRC_HIDDEN airc_status airc_gla_leading(airc_ge_builder *b, airc_ge_tensor x,
                                         int32_t axis_from_end, int64_t count, airc_ge_tensor *out);
/* AIRC_E_UNSUPPORTED for node n, whose count `what` (a plural) would be
 * unrolled past max: "node '<n>' has no Ascend IR lowering here: its
 * <count> <what> are unrolled, up to <max>" */
AIRC_HIDDEN airc_status airc_gla_refuse_unrolled(const airc_node *n, int64_t count,
                                                 const char *what, int max);
/* The meta of the node's tensor argument i (NULL: not a tensor) */
AIRC_HIDDEN const airc_tmeta *airc_gla_arg_meta(airc_ge_builder *b, size_t i);

#endif
