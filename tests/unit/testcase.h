/* Case files for the unit tests: NAME.fx with NAME.in0.npy... (inputs, in
 * placeholder order) and NAME.out0.npy... (PyTorch's flattened outputs),
 * as tests/gen_graphs.py and ../shared/conformance write them. */
#ifndef AIRC_TESTCASE_H
#define AIRC_TESTCASE_H

#include <stdbool.h>

#include "airc/airc.h"

#define AIRC_TEST_MAXIN 32
#define AIRC_TEST_MAXOUT 64

typedef struct airc_test_case {
    const char *dir;
    char name[256];
    airc_tensor *in[AIRC_TEST_MAXIN];
    size_t nin;
    airc_tensor *want[AIRC_TEST_MAXOUT];
    size_t nwant;
} airc_test_case;

/* Reads dir/name's inputs and expected outputs into ctx (k->dir and
 * k->name set by the caller); false, with the reason printed, on failure. */
bool airc_test_case_load(airc_context *ctx, airc_test_case *k);
void airc_test_case_free(airc_test_case *k);

/* airc_npy_read, plus Fortran-order arrays (PyTorch saves some results
 * that way), which airc_npy_read refuses. */
airc_status airc_test_read_npy(airc_context *ctx, const char *path, airc_tensor **out);

/* DESIGN.md's tolerance: rtol 1e-4, atol 1e-4 x (1 + max|want|); integers
 * and bools exactly; NaN matches NaN. Prints the first mismatch, prefixed
 * by `what`. */
bool airc_test_same_values(const airc_tensor *got, const airc_tensor *want, const char *what);
/* The same with tol for both 1e-4s; what NULL: prints nothing. */
bool airc_test_close_values(const airc_tensor *got, const airc_tensor *want, double tol,
                            const char *what);

/* Sizes written "2,3" in a case file, or "-" for none, into out (at most
 * AIRC_MAX_DIMS, asserted); returns the count. */
int32_t airc_test_parse_dims(const char *s, int64_t *out);

/* A contiguous copy of t in ctx (asserts success). */
airc_tensor *airc_test_clone(airc_context *ctx, const airc_tensor *t);
/* Destroys t[0..n) and sets them to NULL. */
void airc_test_destroy_all(airc_tensor **t, size_t n);

#endif
