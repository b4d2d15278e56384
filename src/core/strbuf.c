/* Growable text buffer with a sticky out-of-memory flag. */
#include "core/core.h"

#include <stdio.h>
#include <string.h>

void airc_sb_init(airc_strbuf *sb, airc_context *ctx)
{
    memset(sb, 0, sizeof *sb);
    sb->ctx = ctx;
}

void airc_sb_free(airc_strbuf *sb)
{
    airc_free(sb->ctx, sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

static bool reserve(airc_strbuf *sb, size_t extra)
{
    if (sb->oom)
        return false;
    if (extra > SIZE_MAX - sb->len - 1 ||
        !airc_grow(sb->ctx, (void **)&sb->data, &sb->cap, sb->len + extra + 1, 1)) {
        sb->oom = true;
        return false;
    }
    return true;
}

void airc_sb_putn(airc_strbuf *sb, const char *s, size_t n)
{
    if (!reserve(sb, n))
        return;
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void airc_sb_puts(airc_strbuf *sb, const char *s)
{
    airc_sb_putn(sb, s, strlen(s));
}

void airc_sb_putc(airc_strbuf *sb, char c)
{
    airc_sb_putn(sb, &c, 1);
}

void airc_sb_printf(airc_strbuf *sb, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        airc_sb_putn(sb, small, (size_t)n);
        return;
    }
    if (!reserve(sb, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

const char *airc_sb_cstr(airc_strbuf *sb)
{
    return sb->data && !sb->oom ? sb->data : "";
}

airc_status airc_sb_detach(airc_strbuf *sb, char **out)
{
    if (sb->oom) {
        airc_sb_free(sb);
        return airc_fail_oom("text buffer");
    }
    /* a big text (a printed graph of a million nodes) becomes the caller
     * string in place: a copy would cost a second block as big, page
     * faults included */
    size_t need = sb->len + airc_string_header_size() + 1;
    char *block = sb->len >= 65536 ? sb->data : NULL;
    if (block && (sb->cap < need || sb->cap - need > need / 8)) {
        /* room for the header, and most of the doubling slack given back */
        char *exact = airc_realloc(sb->ctx, block, need);
        block = exact ? exact : sb->cap >= need ? block : NULL;
        if (exact)
            sb->data = exact;
    }
    if (block) {
        *out = airc_string_adopt(sb->ctx, block, sb->len);
        sb->data = NULL;
        sb->len = sb->cap = 0;
        return AIRC_OK;
    }
    char *s = airc_string_new(sb->ctx, sb->data ? sb->data : "", sb->len);
    airc_sb_free(sb);
    if (!s)
        return airc_fail_oom("text buffer");
    *out = s;
    return AIRC_OK;
}
