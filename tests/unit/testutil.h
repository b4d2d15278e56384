/* Shared helpers for the cmocka unit tests. */
#ifndef AIRC_TESTUTIL_H
#define AIRC_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "airc/airc.h"

/* A counting allocator that can fail the Nth allocation (fail_at, 1-based;
 * 0 = never) and tracks live blocks, to assert no leaks. */
typedef struct airc_test_alloc {
    size_t count;    /* allocations attempted (malloc + growing realloc) */
    size_t fail_at;  /* fail when count reaches this; 0 = never */
    long live;       /* blocks currently allocated */
    size_t failures; /* allocations refused */
} airc_test_alloc;

/* Fills `out` with a hook on state (which must outlive the context). */
void airc_test_alloc_init(airc_test_alloc *state, airc_allocator *out);

/* Asserts st == AIRC_OK, printing airc_last_error() otherwise. */
#define AIRC_ASSERT_OK(expr)                                                                       \
    do {                                                                                           \
        airc_status st_ = (expr);                                                                  \
        if (st_ != AIRC_OK)                                                                        \
            print_error("%s failed: %s: %s\n", #expr, airc_status_name(st_), airc_last_error());   \
        assert_int_equal(st_, AIRC_OK);                                                            \
    } while (0)

/* Asserts st == code and that the last error contains `needle` (or any
 * message when NULL). */
void airc_test_expect(airc_status st, airc_status code, const char *needle);
#define AIRC_EXPECT(expr, code, needle) airc_test_expect((expr), (code), (needle))

/* Whether `op` (a qualname or a case name that holds one) is a linear
 * algebra call with an info result (int32, its last) that want[] reports
 * nonzero: a singular or indefinite matrix, whose other results LAPACK
 * leaves undefined and whose info max-autotune's device ops do not report
 * (the sweeps skip such a draw there, as a data check). */
bool airc_test_linalg_info_failed(const char *op, airc_tensor *const *want, size_t nwant);

/* Reads a whole file (malloc'd, NUL-terminated); NULL if missing. */
char *airc_test_read_file(const char *path, size_t *len);
/* 1 when ../shared/conformance exists. */
int airc_test_have_shared(void);
/* Parses text (asserting success) into a graph of ctx. */
airc_graph *airc_test_parse(airc_context *ctx, const char *text);
/* Compiles text in mode ("eager", "reduce-overhead", "max-autotune") and
 * runs it on in[0..nin); its results go to out[0..cap), *n of them (the
 * caller destroys them). Returns the compile's or the run's status. */
airc_status airc_test_compile_run(airc_context *ctx, const char *text, const char *mode,
                                  airc_tensor *const *in, size_t nin, airc_tensor **out, size_t cap,
                                  size_t *n);
/* Prints g with flags; returns a malloc'd copy (caller frees). */
char *airc_test_print(const airc_graph *g, uint32_t flags);

#endif
