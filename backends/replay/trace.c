/* Chrome trace JSON of one traced replay (Trace Event Format, the object
 * form), readable by Perfetto and chrome://tracing:
 *
 *   {"displayTimeUnit":"ns","traceEvents":[
 *    {"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"airc replay"}},
 *    {"name":"thread_name","ph":"M","pid":1,"tid":S,"args":{"name":"<label>"}},
 *    {"name":"thread_sort_index","ph":"M","pid":1,"tid":S,"args":{"sort_index":S}},
 *    {"name":"<node>","cat":"launch","ph":"X","pid":1,"tid":S,"ts":T,"dur":D,
 *     "args":{"target":"aten.mm.default","stream":"<label>"}},
 *    {"name":"record e<N>","cat":"event","ph":"i","s":"t","pid":1,"tid":S,"ts":T,
 *     "args":{"event":N,"kind":"fork|data|user|join"}},
 *    {"name":"wait e<N>", ... same, on the waiting stream's track}
 *   ]}
 *
 * One track (tid) per stream, tid = stream index, named by its label (the
 * main stream is "main"). ts and dur are microseconds relative to the
 * trace's t0_ns, printed from integer nanoseconds with exactly 3 decimals
 * (no float rounding). An event timestamp of 0 means "not observed in this
 * replay" (an event recorded or waited for on a path the replay did not
 * take): that instant is left out. A launch whose end precedes its start
 * gets dur 0.
 *
 * The file is written straight through stdio: no allocation, so no context
 * is needed and a table built by hand (no kernel contexts) can be traced. */
#include "backends/replay/launch.h"
#include "backends/replay/stream_plan.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define TRACE_PID 1

/* Writes s as a JSON string body: '"' '\\' and control characters escaped,
 * valid UTF-8 copied, any byte that is not part of a valid UTF-8 sequence
 * replaced by U+FFFD (so that the file always parses). */
static void put_json_chars(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc((int)c, f);
            p++;
        } else if (c < 0x20) {
            switch (c) {
            case '\n': fputs("\\n", f); break;
            case '\t': fputs("\\t", f); break;
            case '\r': fputs("\\r", f); break;
            default: fprintf(f, "\\u%04x", c); break;
            }
            p++;
        } else if (c < 0x80) {
            fputc((int)c, f);
            p++;
        } else {
            /* length of a well-formed sequence starting at p, 0 if none */
            size_t n = c >= 0xc2 && c <= 0xdf   ? 2
                       : c >= 0xe0 && c <= 0xef ? 3
                       : c >= 0xf0 && c <= 0xf4 ? 4
                                                : 0;
            for (size_t i = 1; i < n; i++)
                if ((p[i] & 0xc0) != 0x80)
                    n = 0;
            /* overlong 3/4-byte forms, surrogates, code points past U+10FFFF */
            if ((n == 3 && c == 0xe0 && p[1] < 0xa0) || (n == 3 && c == 0xed && p[1] >= 0xa0) ||
                (n == 4 && c == 0xf0 && p[1] < 0x90) || (n == 4 && c == 0xf4 && p[1] >= 0x90))
                n = 0;
            if (n) {
                fwrite(p, 1, n, f);
                p += n;
            } else {
                fputs("\\ufffd", f);
                p++;
            }
        }
    }
}

static void put_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    put_json_chars(f, s ? s : "");
    fputc('"', f);
}

/* t - t0 in microseconds with 3 decimals, from integer nanoseconds. */
static void put_us(FILE *f, uint64_t t, uint64_t t0)
{
    uint64_t d = t >= t0 ? t - t0 : t0 - t;
    fprintf(f, "%s%" PRIu64 ".%03" PRIu64, t >= t0 ? "" : "-", d / 1000, d % 1000);
}

static const char *stream_label(const airc_launch_table *t, uint32_t s, char *buf, size_t size)
{
    if (t->stream_labels && t->stream_labels[s])
        return t->stream_labels[s];
    if (s == 0)
        return "main";
    snprintf(buf, size, "stream_%" PRIu32, s);
    return buf;
}

static const char *launch_name(const airc_launch *l)
{
    const char *name = l->k.node ? airc_node_name(l->k.node) : NULL;
    return name ? name : "?";
}

/* The op's qualname ("aten.mm.default"); the node's target text when the
 * launch has no op. */
static const char *launch_target(const airc_launch *l)
{
    if (l->k.op && l->k.op->qualname)
        return l->k.op->qualname;
    const char *target = l->k.node ? airc_node_target(l->k.node) : NULL;
    return target ? target : "?";
}

/* Everything the writer indexes is present and in range; checked before
 * the file is opened, so that a bad table leaves no file behind. */
static airc_status check_args(const airc_launch_table *t, const airc_replay_trace *tr,
                              const char *path)
{
    if (!t || !tr || !path)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_replay_trace_write: %s is NULL",
                         !t    ? "table"
                         : !tr ? "trace"
                               : "path");
    if (t->nstreams == 0)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_replay_trace_write: the table has no stream (main is required)");
    if (tr->nlaunches != t->nlaunches || tr->nevents != t->nevents)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_replay_trace_write: trace of %zu launches/%" PRIu32
                         " events for a table of %zu/%" PRIu32,
                         tr->nlaunches, tr->nevents, t->nlaunches, t->nevents);
    if (t->nlaunches && (!t->launches || !tr->start_ns || !tr->end_ns))
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_replay_trace_write: launches or their timestamps are NULL");
    if (t->nevents && (!t->event_kind || !t->event_record_stream || !t->event_wait_stream ||
                       !tr->record_ns || !tr->wait_ns))
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_replay_trace_write: events or their timestamps are NULL");
    for (size_t i = 0; i < t->nlaunches; i++)
        if (t->launches[i].stream >= t->nstreams)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "airc_replay_trace_write: launch %zu (%s) on stream %" PRIu32
                             " of %" PRIu32,
                             i, launch_name(&t->launches[i]), t->launches[i].stream, t->nstreams);
    for (uint32_t e = 0; e < t->nevents; e++)
        if (t->event_record_stream[e] >= t->nstreams || t->event_wait_stream[e] >= t->nstreams)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "airc_replay_trace_write: event e%" PRIu32 " names stream %" PRIu32
                             " -> %" PRIu32 " of %" PRIu32,
                             e, t->event_record_stream[e], t->event_wait_stream[e], t->nstreams);
    return AIRC_OK;
}

static void put_instant(FILE *f, const airc_launch_table *t, const char *what, uint32_t e,
                        uint32_t stream, uint64_t ts, uint64_t t0)
{
    fprintf(f,
            ",\n{\"name\":\"%s e%" PRIu32 "\",\"cat\":\"event\",\"ph\":\"i\",\"s\":\"t\","
            "\"pid\":%d,\"tid\":%" PRIu32 ",\"ts\":",
            what, e, TRACE_PID, stream);
    put_us(f, ts, t0);
    fprintf(f, ",\"args\":{\"event\":%" PRIu32 ",\"kind\":", e);
    put_json_string(f, airc_stream_event_kind_name(t->event_kind[e]));
    fputs("}}", f);
}

static void put_trace(FILE *f, const airc_launch_table *t, const airc_replay_trace *tr)
{
    char buf[32];
    fprintf(f,
            "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
            "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,"
            "\"args\":{\"name\":\"airc replay\"}}",
            TRACE_PID);
    for (uint32_t s = 0; s < t->nstreams; s++) {
        fprintf(f,
                ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%" PRIu32
                ",\"args\":{\"name\":",
                TRACE_PID, s);
        put_json_string(f, stream_label(t, s, buf, sizeof buf));
        fprintf(f,
                "}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%" PRIu32
                ",\"args\":{\"sort_index\":%" PRIu32 "}}",
                TRACE_PID, s, s);
    }
    for (size_t i = 0; i < t->nlaunches; i++) {
        const airc_launch *l = &t->launches[i];
        uint64_t start = tr->start_ns[i], end = tr->end_ns[i];
        fputs(",\n{\"name\":", f);
        put_json_string(f, launch_name(l));
        fprintf(f, ",\"cat\":\"launch\",\"ph\":\"X\",\"pid\":%d,\"tid\":%" PRIu32 ",\"ts\":",
                TRACE_PID, l->stream);
        put_us(f, start, tr->t0_ns);
        fputs(",\"dur\":", f);
        put_us(f, end > start ? end : start, start);
        fputs(",\"args\":{\"target\":", f);
        put_json_string(f, launch_target(l));
        fputs(",\"stream\":", f);
        put_json_string(f, stream_label(t, l->stream, buf, sizeof buf));
        fputs("}}", f);
    }
    for (uint32_t e = 0; e < t->nevents; e++) {
        if (tr->record_ns[e])
            put_instant(f, t, "record", e, t->event_record_stream[e], tr->record_ns[e], tr->t0_ns);
        if (tr->wait_ns[e])
            put_instant(f, t, "wait", e, t->event_wait_stream[e], tr->wait_ns[e], tr->t0_ns);
    }
    fputs("\n]}\n", f);
}

airc_status airc_replay_trace_write(const airc_launch_table *table, const airc_replay_trace *trace,
                                    const char *path)
{
    AIRC_TRY(check_args(table, trace, path));
    FILE *f = fopen(path, "w");
    if (!f)
        return airc_fail(AIRC_E_IO, "%s: cannot open trace for writing: %s", path, strerror(errno));
    put_trace(f, table, trace);
    bool err = ferror(f) != 0;
    int saved = errno;
    if (fclose(f) != 0 && !err) {
        err = true;
        saved = errno;
    }
    /* a partial file is left as it is: removing whatever `path` names
     * (a device, a pipe) is not the writer's call */
    if (err)
        return airc_fail(AIRC_E_IO, "%s: error writing trace: %s", path, strerror(saved));
    return AIRC_OK;
}
