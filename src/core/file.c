/* Whole-file reads through the context's allocator. */
#include "core/core.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

airc_status airc_read_file(airc_context *ctx, const char *path, char **data, size_t *len)
{
    bool is_stdin = !strcmp(path, "-");
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return airc_fail(errno == ENOENT ? AIRC_E_NOT_FOUND : AIRC_E_IO, "%s: cannot open: %s",
                         path, strerror(errno));
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (!airc_grow(ctx, (void **)&buf, &cap, n + 65536 + 1, 1)) {
            airc_free(ctx, buf);
            if (!is_stdin)
                fclose(f);
            return airc_fail_oom(path);
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    bool err = ferror(f);
    int saved = errno;
    if (!is_stdin)
        fclose(f);
    if (err) {
        airc_free(ctx, buf);
        return airc_fail(AIRC_E_IO, "%s: read error: %s", path, strerror(saved));
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return AIRC_OK;
}

airc_status airc_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return airc_fail(AIRC_E_IO, "cannot write '%s': %s", path, strerror(errno));
    bool ok = fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        return airc_fail(AIRC_E_IO, "writing '%s' failed: %s", path, strerror(errno));
    return AIRC_OK;
}

airc_status airc_make_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n >= sizeof buf)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "path too long: '%.100s...'", path);
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char c = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return airc_fail(AIRC_E_IO, "cannot create folder '%s': %s", buf, strerror(errno));
        buf[i] = c;
    }
    return AIRC_OK;
}
