/* .npz archives: numpy's np.savez / np.savez_compressed, a zip file whose
 * members are .npy files ("w.npy" holds the array named "w").
 *
 * The central directory is the index (local headers may defer their sizes
 * to a data descriptor); each member's local header is checked against it.
 * Members are stored (method 0) or deflated (method 8, inflated with zlib);
 * each CRC-32 is verified. numpy writes a zip64 extra field into every
 * local header (force_zip64), so zip64 extra fields are read; a zip64 end
 * of central directory (over 65535 members or 4 GiB) is refused. No offset
 * or size read from the file is trusted before it is checked against the
 * bytes present. */
#include "airc/exec.h"
#include "io/io.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

#define SIG_LOCAL 0x04034b50u
#define SIG_CENTRAL 0x02014b50u
#define SIG_END 0x06054b50u
#define SIG_END64_LOCATOR 0x07064b50u
#define END_LEN 22
#define CENTRAL_LEN 46
#define LOCAL_LEN 30
#define MAX_COMMENT 0xffff
/* deflate cannot compress better than about 1032:1 */
#define MAX_DEFLATE_RATIO 1032u

typedef struct zip_reader {
    airc_context *ctx;
    const unsigned char *p;
    size_t len;
    const char *src;
} zip_reader;

static uint32_t le16(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
    return le16(p) | le16(p + 2) << 16;
}

static uint64_t le64(const unsigned char *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static airc_status bad(const zip_reader *z, const char *what)
{
    return airc_fail(AIRC_E_PARSE, "%s: not a valid .npz (zip) archive: %s", z->src, what);
}

/* The end of central directory record: the last one in the file (the
 * archive comment may follow it). */
static airc_status find_end(const zip_reader *z, size_t *out)
{
    if (z->len < END_LEN)
        return bad(z, "too short for a zip file");
    size_t lowest = z->len - END_LEN > MAX_COMMENT ? z->len - END_LEN - MAX_COMMENT : 0;
    for (size_t i = z->len - END_LEN + 1; i-- > lowest;) {
        if (le32(z->p + i) == SIG_END && i + END_LEN + le16(z->p + i + 20) <= z->len) {
            *out = i;
            return AIRC_OK;
        }
    }
    return bad(z, "no end of central directory record");
}

/* Reads the zip64 values that replace 0xffffffff fields, in the order the
 * format fixes (uncompressed size, compressed size, local header offset). */
static airc_status read_zip64(const zip_reader *z, const unsigned char *extra, size_t xlen,
                              uint64_t *usize, uint64_t *csize, uint64_t *offset,
                              const char *member)
{
    bool need_u = *usize == 0xffffffffu, need_c = *csize == 0xffffffffu;
    bool need_o = offset && *offset == 0xffffffffu;
    if (!need_u && !need_c && !need_o)
        return AIRC_OK;
    for (size_t i = 0; i + 4 <= xlen;) {
        uint32_t id = le16(extra + i), n = le16(extra + i + 2);
        if (i + 4 + n > xlen)
            break;
        if (id == 1) {
            const unsigned char *q = extra + i + 4;
            size_t left = n;
            uint64_t *want[3] = {need_u ? usize : NULL, need_c ? csize : NULL,
                                 need_o ? offset : NULL};
            for (int k = 0; k < 3; k++) {
                if (!want[k])
                    continue;
                if (left < 8)
                    return airc_fail(AIRC_E_PARSE, "%s: member '%s': short zip64 extra field",
                                     z->src, member);
                *want[k] = le64(q);
                q += 8;
                left -= 8;
            }
            return AIRC_OK;
        }
        i += 4 + n;
    }
    return airc_fail(AIRC_E_PARSE, "%s: member '%s': sizes need a zip64 extra field it lacks",
                     z->src, member);
}

typedef struct member {
    char name[1024 + 1];
    uint32_t method, flags, crc;
    uint64_t csize, usize, offset;
    const unsigned char *data; /* csize bytes */
} member;

/* Locates a member's bytes through its local header. */
static airc_status locate(const zip_reader *z, member *m)
{
    if (m->offset > z->len || z->len - m->offset < LOCAL_LEN ||
        le32(z->p + m->offset) != SIG_LOCAL)
        return airc_fail(AIRC_E_PARSE, "%s: member '%s': bad local header offset", z->src,
                         m->name);
    const unsigned char *h = z->p + m->offset;
    size_t nlen = le16(h + 26), xlen = le16(h + 28);
    size_t start = (size_t)m->offset + LOCAL_LEN + nlen + xlen;
    if (start > z->len || z->len - start < m->csize)
        return airc_fail(AIRC_E_PARSE, "%s: member '%s': data runs past the end of the file",
                         z->src, m->name);
    m->data = z->p + start;
    return AIRC_OK;
}

/* A member's .npy bytes: the stored ones, or inflated into *owned. */
static airc_status member_bytes(const zip_reader *z, const member *m, const unsigned char **out,
                                size_t *len, unsigned char **owned)
{
    *owned = NULL;
    if (m->method == 0) {
        if (m->csize != m->usize)
            return airc_fail(AIRC_E_PARSE, "%s: member '%s': stored sizes differ", z->src,
                             m->name);
        *out = m->data;
        *len = (size_t)m->csize;
        return AIRC_OK;
    }
    if (m->usize / MAX_DEFLATE_RATIO > m->csize + 1 || m->usize > SIZE_MAX - 1 ||
        m->csize > UINT32_MAX)
        return airc_fail(AIRC_E_PARSE, "%s: member '%s': impossible sizes (%llu from %llu)",
                         z->src, m->name, (unsigned long long)m->usize,
                         (unsigned long long)m->csize);
    unsigned char *buf = airc_malloc(z->ctx, (size_t)m->usize + 1);
    if (!buf)
        return airc_fail_oom(".npz member");
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, -MAX_WBITS) != Z_OK) {
        airc_free(z->ctx, buf);
        return airc_fail(AIRC_E_OUT_OF_MEMORY, "%s: cannot start inflating (zlib)", z->src);
    }
    /* zlib counts in uInt: feed and drain in chunks */
    size_t in_left = (size_t)m->csize, out_left = (size_t)m->usize + 1;
    s.next_in = (unsigned char *)m->data;
    s.next_out = buf;
    int rc = Z_OK;
    while (rc == Z_OK) {
        uInt in_chunk = in_left > UINT32_MAX ? UINT32_MAX : (uInt)in_left;
        uInt out_chunk = out_left > UINT32_MAX ? UINT32_MAX : (uInt)out_left;
        s.avail_in = in_chunk;
        s.avail_out = out_chunk;
        rc = inflate(&s, Z_NO_FLUSH);
        in_left -= in_chunk - s.avail_in;
        out_left -= out_chunk - s.avail_out;
        if (rc == Z_OK && in_chunk == s.avail_in && out_chunk == s.avail_out)
            rc = Z_BUF_ERROR; /* no progress: input ended early */
    }
    size_t got = (size_t)s.total_out;
    inflateEnd(&s);
    if (rc != Z_STREAM_END || got != m->usize) {
        airc_free(z->ctx, buf);
        return airc_fail(AIRC_E_PARSE, "%s: member '%s': corrupt deflate data (%s)", z->src,
                         m->name,
                         rc == Z_STREAM_END ? "wrong uncompressed size"
                         : rc == Z_MEM_ERROR ? "out of memory"
                                             : "truncated or invalid stream");
    }
    *out = buf;
    *len = got;
    *owned = buf;
    return AIRC_OK;
}

static airc_status read_member(const zip_reader *z, member *m, airc_npz_fn fn, void *user_data)
{
    if (m->flags & 1u)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: member '%s' is encrypted", z->src, m->name);
    if (m->method != 0 && m->method != 8)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: member '%s': compression method %u is not supported (only "
                         "stored and deflated, as numpy writes)",
                         z->src, m->name, m->method);
    AIRC_TRY(locate(z, m));
    const unsigned char *bytes = NULL;
    size_t len = 0;
    unsigned char *owned;
    AIRC_TRY(member_bytes(z, m, &bytes, &len, &owned));
    airc_status st = AIRC_OK;
    uLong crc = crc32(0L, Z_NULL, 0);
    for (size_t done = 0; done < len;) {
        uInt chunk = len - done > UINT32_MAX ? UINT32_MAX : (uInt)(len - done);
        crc = crc32(crc, bytes + done, chunk);
        done += chunk;
    }
    if ((uint32_t)crc != m->crc)
        st = airc_fail(AIRC_E_PARSE, "%s: member '%s': CRC-32 mismatch (corrupt archive)", z->src,
                       m->name);
    char source[1536];
    snprintf(source, sizeof source, "%.400s:%s", z->src, m->name);
    airc_tensor *t = NULL;
    if (st == AIRC_OK)
        st = airc_npy_read_buffer(z->ctx, bytes, len, source, &t);
    airc_free(z->ctx, owned);
    if (st != AIRC_OK)
        return st;
    size_t nlen = strlen(m->name);
    if (nlen > 4 && !strcmp(m->name + nlen - 4, ".npy"))
        m->name[nlen - 4] = '\0';
    return fn(user_data, m->name, t);
}

airc_status airc_npz_read_buffer(airc_context *ctx, const void *data, size_t len,
                                 const char *source, airc_npz_fn fn, void *user_data)
{
    AIRC_TRY(airc_check_context(ctx, "airc_npz_read_buffer"));
    if ((!data && len) || !fn)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_npz_read_buffer: NULL data or fn");
    zip_reader z = {ctx, data, len, source ? source : "<npz>"};
    size_t end = 0;
    AIRC_TRY(find_end(&z, &end));
    const unsigned char *e = z.p + end;
    uint32_t count = le16(e + 10);
    uint64_t cd_size = le32(e + 12), cd_off = le32(e + 16);
    if (count == 0xffff || cd_size == 0xffffffffu || cd_off == 0xffffffffu ||
        (end >= 20 && le32(z.p + end - 20) == SIG_END64_LOCATOR))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: zip64 archives (over 65535 arrays or 4 GiB) are not supported",
                         z.src);
    if (le16(e + 4) != 0 || le16(e + 6) != 0 || le16(e + 8) != count)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: multi-disk zip archives are not supported",
                         z.src);
    if (cd_off > end || cd_size > end - cd_off)
        return bad(&z, "central directory outside the file");
    size_t pos = (size_t)cd_off, cd_end = (size_t)(cd_off + cd_size);
    for (uint32_t i = 0; i < count; i++) {
        if (cd_end - pos < CENTRAL_LEN || le32(z.p + pos) != SIG_CENTRAL)
            return bad(&z, "truncated central directory");
        const unsigned char *c = z.p + pos;
        member m;
        memset(&m, 0, sizeof m);
        m.flags = le16(c + 8);
        m.method = le16(c + 10);
        m.crc = le32(c + 16);
        m.csize = le32(c + 20);
        m.usize = le32(c + 24);
        size_t nlen = le16(c + 28), xlen = le16(c + 30), clen = le16(c + 32);
        m.offset = le32(c + 42);
        if (cd_end - pos - CENTRAL_LEN < nlen + xlen + clen)
            return bad(&z, "truncated central directory entry");
        if (nlen == 0 || nlen >= sizeof m.name || memchr(c + CENTRAL_LEN, 0, nlen))
            return bad(&z, "a member name that is empty, too long or holds a NUL byte");
        memcpy(m.name, c + CENTRAL_LEN, nlen);
        pos += CENTRAL_LEN + nlen + xlen + clen;
        AIRC_TRY(read_zip64(&z, c + CENTRAL_LEN + nlen, xlen, &m.usize, &m.csize, &m.offset,
                            m.name));
        if (m.name[nlen - 1] == '/')
            continue; /* a directory entry */
        AIRC_TRY(read_member(&z, &m, fn, user_data));
    }
    return AIRC_OK;
}

airc_status airc_npz_read(airc_context *ctx, const char *path, airc_npz_fn fn, void *user_data)
{
    AIRC_TRY(airc_check_context(ctx, "airc_npz_read"));
    if (!path || !fn)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_npz_read: NULL path or fn");
    char *data;
    size_t len;
    AIRC_TRY(airc_read_file(ctx, path, &data, &len));
    airc_status st = airc_npz_read_buffer(ctx, data, len, path, fn, user_data);
    airc_free(ctx, data);
    return st;
}
