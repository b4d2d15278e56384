/* Shared pieces of airc's fuzz targets (fuzz/fuzz_*.c).
 *
 * Each target defines LLVMFuzzerTestOneInput; it is linked either with
 * libFuzzer (AIRC_FUZZ, clang) or with replay_main.c (a plain main that
 * replays corpus files and deterministic mutations of them). Objects that
 * live for the whole process (the context, a one-thread CPU runtime) are
 * made once in LLVMFuzzerInitialize, so that what an input leaves behind
 * is a leak LeakSanitizer can see. */
#ifndef AIRC_FUZZ_COMMON_H
#define AIRC_FUZZ_COMMON_H

#include <airc/airc.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Messages go nowhere: a fuzzer logs a warning per input otherwise. */
static inline void fuzz_log_quiet(void *user_data, int32_t level, const char *message)
{
    (void)user_data;
    (void)level;
    (void)message;
}

/* An invariant of airc broken by this input: says which and aborts, which
 * libFuzzer reports as a crash (and the corpus replay test as a failure). */
static inline void fuzz_require(int ok, const char *what, const char *detail)
{
    if (!ok) {
        fprintf(stderr, "fuzz: %s\n%s\n", what, detail ? detail : "");
        abort();
    }
}

/* Prints g, parses the text back and prints that: the parse must succeed
 * and the two texts must be equal (out of memory excepted). */
static inline void fuzz_require_reprint(airc_context *ctx, const airc_graph *g)
{
    char *text = NULL, *text2 = NULL;
    if (airc_graph_print(g, AIRC_PRINT_DEFAULT, &text) != AIRC_OK)
        return;
    airc_graph *again = NULL;
    airc_status st = airc_graph_parse(ctx, text, strlen(text), "reprint", &again);
    fuzz_require(st == AIRC_OK || st == AIRC_E_OUT_OF_MEMORY, "a printed graph does not parse back",
                 airc_last_error());
    if (again && airc_graph_print(again, AIRC_PRINT_DEFAULT, &text2) == AIRC_OK) {
        fuzz_require(!strcmp(text, text2), "a printed graph prints differently once re-parsed",
                     text2);
        airc_string_free(text2);
    }
    airc_graph_destroy(again);
    airc_string_free(text);
}

/* The fuzzed process has a memory budget, as an embedding application
 * would: one block of more than FUZZ_MAX_ALLOC bytes is refused (NULL),
 * and airc must report AIRC_E_OUT_OF_MEMORY. Without it a graph asking for
 * a 2^61-element tensor reaches the sanitizer's allocator, which aborts on
 * sizes past its limit instead of returning NULL as libc does. */
#define FUZZ_MAX_ALLOC ((size_t)256 << 20)

static inline void *fuzz_malloc(void *user_data, size_t n)
{
    (void)user_data;
    return n > FUZZ_MAX_ALLOC ? NULL : malloc(n);
}

static inline void *fuzz_realloc(void *user_data, void *p, size_t n)
{
    (void)user_data;
    return n > FUZZ_MAX_ALLOC ? NULL : realloc(p, n);
}

static inline void fuzz_free(void *user_data, void *p)
{
    (void)user_data;
    free(p);
}

/* A context with the built-in ops, the capped allocator and a silent log,
 * or NULL (the caller then skips the input; creation does not fail short
 * of memory). */
static inline airc_context *fuzz_context_create(void)
{
    airc_context *ctx = NULL;
    airc_allocator a = {sizeof a, fuzz_malloc, fuzz_realloc, fuzz_free, NULL};
    if (airc_context_create(&a, &ctx) != AIRC_OK)
        return NULL;
    airc_context_set_log(ctx, fuzz_log_quiet, NULL, NULL);
    airc_context_set_log_level(ctx, AIRC_LOG_ERROR);
    return ctx;
}

/* The bytes as a NUL-terminated string (an embedded NUL ends it early);
 * free() it. NULL when out of memory. */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return NULL;
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* Defines `static airc_context *name` and an LLVMFuzzerInitialize that
 * creates it once for the process (the targets that need nothing else). */
#define FUZZ_PROCESS_CONTEXT(name)                                                                 \
    static airc_context *name;                                                                     \
    int LLVMFuzzerInitialize(int *argc, char ***argv)                                              \
    {                                                                                              \
        (void)argc;                                                                                \
        (void)argv;                                                                                \
        name = fuzz_context_create();                                                              \
        return 0;                                                                                  \
    }

/* Reads every byte of a tensor so that ASan sees a short buffer. */
static inline uint32_t fuzz_touch_tensor(const airc_tensor *t)
{
    const uint8_t *p = airc_tensor_data(t);
    size_t n = airc_tensor_nbytes(t);
    int32_t ndim = airc_tensor_ndim(t);
    const int64_t *shape = airc_tensor_shape(t);
    uint32_t h = (uint32_t)airc_tensor_dtype(t);
    for (int32_t d = 0; d < ndim; d++)
        h = h * 31u + (uint32_t)shape[d];
    for (size_t i = 0; p && i < n; i++)
        h = h * 31u + p[i];
    return h;
}

#endif
