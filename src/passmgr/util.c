/* Small services shared by the pass manager, the pipeline and the passes:
 * user-facing error recording, timing, debug logging of graph changes. */
#include "passmgr/passmgr.h"

#include <stdio.h>
#include <time.h>

airc_status airc_pass_fail(airc_status code, const char *fmt, ...)
{
    char msg[1024] = "";
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
    }
    if (code == AIRC_OK) /* a "failure" with OK would read as success */
        code = AIRC_E_PASS;
    return airc_fail(code, "%s", msg);
}

void airc_clear_error(void)
{
    (void)airc_fail(AIRC_OK, "%s", "");
}

double airc_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void airc_log_pass_change(airc_graph *g, const char *name, double ms)
{
    if (!airc_log_enabled(g->ctx, AIRC_LOG_DEBUG))
        return;
    /* printing is best effort: a debug log never fails a compile, and the
     * thread's last error is kept for the caller */
    char saved[1024];
    snprintf(saved, sizeof saved, "%s", airc_last_error());
    airc_status code = airc_last_error_code();
    char *text = NULL;
    if (airc_graph_print(g, AIRC_PRINT_DEFAULT, &text) != AIRC_OK)
        text = NULL;
    airc_log(g->ctx, AIRC_LOG_DEBUG, "pass %s changed the graph in %.3f ms\n%s", name, ms,
             text ? text : "(graph text unavailable: out of memory)\n");
    airc_string_free(text);
    (void)airc_fail(code, "%s", saved);
}

airc_status airc_pass_each_graph(airc_graph *g, airc_graph_pass_fn one, int32_t *changed)
{
    int32_t any = 0;
    AIRC_TRY(one(g, &any));
    for (size_t i = 0; i < g->nsubs; i++) {
        int32_t sub = 0;
        AIRC_TRY(airc_pass_each_graph(g->subs[i], one, &sub));
        any |= sub;
    }
    if (changed)
        *changed = any;
    return AIRC_OK;
}
