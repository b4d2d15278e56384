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

/* A context with the built-in ops and a silent log, or NULL (the caller
 * then skips the input; creation does not fail short of memory). */
static inline airc_context *fuzz_context_create(void)
{
    airc_context *ctx = NULL;
    if (airc_context_create(NULL, &ctx) != AIRC_OK)
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
