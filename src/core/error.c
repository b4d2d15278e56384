/* Statuses and the thread-local last error. */
#include "core/core.h"

#include <stdio.h>
#include <string.h>

#define AIRC_ERROR_CAP 1024

static _Thread_local airc_status tl_code;
static _Thread_local char tl_msg[AIRC_ERROR_CAP];

airc_status airc_fail(airc_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tl_msg, sizeof tl_msg, fmt, ap);
    va_end(ap);
    tl_code = code;
    return code;
}

airc_status airc_fail_prefix(const char *fmt, ...)
{
    char prefix[AIRC_ERROR_CAP];
    char old[AIRC_ERROR_CAP];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, tl_msg, sizeof old);
    size_t n = strlen(prefix);
    if (n > sizeof tl_msg - 3)
        n = sizeof tl_msg - 3;
    memcpy(tl_msg, prefix, n);
    memcpy(tl_msg + n, ": ", 2);
    size_t rest = sizeof tl_msg - n - 3;
    size_t olen = strnlen(old, rest);
    memcpy(tl_msg + n + 2, old, olen);
    tl_msg[n + 2 + olen] = '\0';
    return tl_code;
}

airc_status airc_fail_oom(const char *what)
{
    return airc_fail(AIRC_E_OUT_OF_MEMORY, "out of memory: allocating %s", what);
}

airc_status airc_set_error(airc_status code, const char *message)
{
    return airc_fail(code, "%s", message ? message : "");
}

const char *airc_last_error(void)
{
    return tl_msg;
}

airc_status airc_last_error_code(void)
{
    return tl_code;
}

const char *airc_status_name(airc_status status)
{
    static const char *const names[] = {
        "AIRC_OK",           "AIRC_E_INVALID_ARGUMENT", "AIRC_E_OUT_OF_MEMORY",
        "AIRC_E_MISUSE",     "AIRC_E_PARSE",            "AIRC_E_NOT_FOUND",
        "AIRC_E_EXISTS",     "AIRC_E_INVALID_GRAPH",    "AIRC_E_SHAPE",
        "AIRC_E_UNSUPPORTED", "AIRC_E_IO",              "AIRC_E_PASS",
        "AIRC_E_RUNTIME",    "AIRC_E_INTERNAL",
    };
    if (status < 0 || (size_t)status >= sizeof names / sizeof names[0])
        return "AIRC_E_UNKNOWN";
    return names[status];
}

const char *airc_version(void)
{
    return AIRC_VERSION_STRING;
}

int32_t airc_abi_version(void)
{
    return AIRC_ABI_VERSION;
}
