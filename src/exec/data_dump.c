/* debug.data_dump's files (data_dump.h). */
#include "exec/data_dump.h"

#include "exec/exec.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

bool airc_data_dump_wants(const airc_data_dump *d, const char *name)
{
    return !d->filter || !*d->filter || fnmatch(d->filter, name, 0) == 0;
}

void airc_data_dump_stamp(char *buf, size_t cap)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char day[32];
    strftime(day, sizeof day, "%Y%m%d%H%M%S", &tm);
    snprintf(buf, cap, "%s%06ld", day, ts.tv_nsec / 1000);
}

void airc_data_dump_init(airc_data_dump *d, char *buf, size_t cap, const char *path,
                         const char *name, uint64_t step, const char *filter)
{
    snprintf(buf, cap, "%s/worldsize1_global_rank0/%s/%llu", path && *path ? path : ".", name,
             (unsigned long long)step);
    d->dir = buf;
    d->filter = filter;
    d->inputs = d->outputs = true;
    airc_data_dump_stamp(d->stamp, sizeof d->stamp);
}

airc_status airc_data_dump_view(const airc_data_dump *d, airc_context *ctx,
                                const airc_runtime_vtable *vt, void *rctx, bool host,
                                const char *node, const char *target, const char *what,
                                const airc_tview *t)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s-%s.%s.%s.npy", d->dir, node, target, what, d->stamp);
    if (n < 0 || (size_t)n >= sizeof path)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "data dump: the path of node '%s' is too long",
                         node);
    AIRC_TRY(airc_make_dirs(d->dir));
    size_t numel = 1;
    for (int32_t i = 0; i < t->ndim; i++)
        numel *= (size_t)t->shape[i];
    size_t bytes = numel * airc_dtype_size(t->dtype), span = airc_tview_span_bytes(t);
    void *dense = airc_malloc(ctx, bytes ? bytes : 1);
    void *staged = !host && span ? airc_malloc(ctx, span) : NULL;
    airc_status st = dense && (host || !span || staged) ? AIRC_OK : airc_fail_oom("data dump");
    if (st == AIRC_OK && staged) {
        airc_set_error(AIRC_OK, "");
        if (vt->copy(rctx, staged, t->data, span, AIRC_COPY_DEVICE_TO_HOST, NULL) != AIRC_OK)
            st = airc_fail_prefix("data dump of node '%s': copying to the host", node);
    }
    if (st == AIRC_OK && numel)
        airc_exec_gather(dense, host ? t->data : staged, t);
    airc_tensor *w = NULL;
    if (st == AIRC_OK)
        st = airc_tensor_wrap(ctx, t->dtype, t->ndim, t->shape, dense, &w);
    if (st == AIRC_OK)
        st = airc_npy_write(w, path);
    airc_tensor_destroy(w);
    airc_free(ctx, staged);
    airc_free(ctx, dense);
    return st;
}
