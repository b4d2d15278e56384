/* The reduce-overhead `txt` dump (DESIGN.md "Dumps"): the FX text of the
 * graph after the backend passes, as airc_graph_print(AIRC_PRINT_TYPES)
 * prints it, then the launch table and the memory plan as comment lines,
 * so that the whole dump still parses as FX text:
 *
 *   <FX text>
 *
 *   # launch table: <L> launches, <S> streams, <E> events
 *   # streams: 0=main 1=stream_1 ...
 *   # event e<N> <kind> <record stream> -> <wait stream>      one per event
 *   # start <stream> record=[e<N>,...]        one per stream recording
 *                                             events before its first launch
 *   #  <i> <stream> <node> <target> wait=[e<N>,...] record=[e<N>,...] [offset=<bytes>|offset=-]
 *                                             one per launch, in launch order
 *   # output wait=[e<N>,...]                  what the main stream waits for
 *                                             before the outputs
 *   # memory plan: arena=<bytes> lower_bound=<bytes> naive=<bytes> align=<bytes>
 *       planned=<buffers> strategy=<name>     (one line; "# memory plan: none"
 *                                             without a plan)
 *
 * <kind> is fork, data, user or join; <target> the op's qualname
 * ("aten.mm.default"); offset= appears only when the caller passes the
 * per-node arena offsets ("-": the output lives outside the arena). Lists
 * are printed in table order and may be empty ("[]"). */
#include "backends/replay/dump.h"

#include "backends/replay/stream_plan.h"
#include "ir/ir.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *label(const airc_launch_table *t, uint32_t s, char *buf, size_t size)
{
    if (t->stream_labels && t->stream_labels[s])
        return t->stream_labels[s];
    if (s == 0)
        return "main";
    snprintf(buf, size, "stream_%" PRIu32, s);
    return buf;
}

static void put_events(airc_strbuf *sb, const char *key, const uint32_t *ids, size_t n)
{
    airc_sb_printf(sb, "%s=[", key);
    for (size_t i = 0; i < n; i++)
        airc_sb_printf(sb, "%se%" PRIu32, i ? "," : "", ids[i]);
    airc_sb_putc(sb, ']');
}

static bool ids_ok(const airc_launch_table *t, const uint32_t *ids, size_t n)
{
    if (n && !ids)
        return false;
    for (size_t i = 0; i < n; i++)
        if (ids[i] >= t->nevents)
            return false;
    return true;
}

/* Everything the dump indexes is present and in range. */
static airc_status check_table(const airc_graph *g, const airc_launch_table *t)
{
    const char *fn = "airc_replay_dump_txt";
    if (t->nstreams == 0)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: the table has no stream", fn);
    if (t->nlaunches && !t->launches)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: launches are NULL", fn);
    if (t->nevents && (!t->event_kind || !t->event_record_stream || !t->event_wait_stream))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: event arrays are NULL", fn);
    for (uint32_t e = 0; e < t->nevents; e++)
        if (t->event_record_stream[e] >= t->nstreams || t->event_wait_stream[e] >= t->nstreams)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: event e%" PRIu32 " names a stream out of range", fn, e);
    for (size_t i = 0; i < t->nlaunches; i++) {
        const airc_launch *l = &t->launches[i];
        if (l->stream >= t->nstreams || (l->k.node && l->k.node->graph != g) ||
            !ids_ok(t, t->waits ? t->waits + l->wait_first : NULL, l->nwait) ||
            !ids_ok(t, t->records ? t->records + l->record_first : NULL, l->nrecord))
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: launch %zu: stream, node or events out of range", fn, i);
    }
    if (!ids_ok(t, t->start_records, t->nstart_records) ||
        (t->nstart_records && !t->start_record_stream) || !ids_ok(t, t->out_waits, t->nout_waits))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: start records or output waits out of range",
                         fn);
    for (uint32_t i = 0; i < t->nstart_records; i++)
        if (t->start_record_stream[i] >= t->nstreams)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: start record %" PRIu32 " on a stream out of range", fn, i);
    return AIRC_OK;
}

static void put_start_records(airc_strbuf *sb, const airc_launch_table *t)
{
    char buf[32];
    for (uint32_t s = 0; s < t->nstreams; s++) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < t->nstart_records; i++)
            n += t->start_record_stream[i] == s;
        if (!n)
            continue;
        airc_sb_printf(sb, "# start %s record=[", label(t, s, buf, sizeof buf));
        for (uint32_t i = 0, k = 0; i < t->nstart_records; i++)
            if (t->start_record_stream[i] == s)
                airc_sb_printf(sb, "%se%" PRIu32, k++ ? "," : "", t->start_records[i]);
        airc_sb_puts(sb, "]\n");
    }
}

static void put_launch(airc_strbuf *sb, const airc_graph *g, const airc_launch_table *t, size_t i,
                       const uint64_t *node_offsets)
{
    char buf[32];
    const airc_launch *l = &t->launches[i];
    const char *name = l->k.node ? airc_node_name(l->k.node) : NULL;
    const char *target = l->k.op && l->k.op->qualname ? l->k.op->qualname
                         : l->k.node                  ? airc_node_target(l->k.node)
                                                      : NULL;
    airc_sb_printf(sb, "#  %zu %s %s %s ", i, label(t, l->stream, buf, sizeof buf),
                   name ? name : "?", target ? target : "?");
    put_events(sb, "wait", t->waits ? t->waits + l->wait_first : NULL, l->nwait);
    airc_sb_putc(sb, ' ');
    put_events(sb, "record", t->records ? t->records + l->record_first : NULL, l->nrecord);
    if (node_offsets) {
        uint64_t off = l->k.node && l->k.node->id < g->next_id ? node_offsets[l->k.node->id]
                                                               : AIRC_MEM_UNPLANNED;
        if (off == AIRC_MEM_UNPLANNED)
            airc_sb_puts(sb, " offset=-");
        else
            airc_sb_printf(sb, " offset=%" PRIu64, off);
    }
    airc_sb_putc(sb, '\n');
}

airc_status airc_replay_dump_txt(const airc_graph *g, const airc_launch_table *t,
                                 const airc_mem_plan *plan, const uint64_t *node_offsets,
                                 airc_strbuf *out)
{
    if (!g || !t || !out || !out->ctx)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_replay_dump_txt: %s is NULL",
                         !g     ? "graph"
                         : !t   ? "table"
                         : !out ? "out"
                                : "out's context");
    AIRC_TRY(airc_check_graph(g, "airc_replay_dump_txt"));
    AIRC_TRY(check_table(g, t));
    char *text = NULL;
    AIRC_TRY(airc_graph_print(g, AIRC_PRINT_TYPES, &text));
    size_t len = strlen(text);
    bool newline = len && text[len - 1] == '\n';
    airc_sb_putn(out, text, len);
    airc_string_free(text);
    airc_sb_puts(out, newline ? "\n" : "\n\n"); /* one blank line before the table */

    char buf[32];
    airc_sb_printf(out, "# launch table: %zu launches, %" PRIu32 " streams, %" PRIu32 " events\n",
                   t->nlaunches, t->nstreams, t->nevents);
    airc_sb_puts(out, "# streams:");
    for (uint32_t s = 0; s < t->nstreams; s++)
        airc_sb_printf(out, " %" PRIu32 "=%s", s, label(t, s, buf, sizeof buf));
    airc_sb_putc(out, '\n');
    for (uint32_t e = 0; e < t->nevents; e++) {
        char rbuf[32];
        airc_sb_printf(out, "# event e%" PRIu32 " %s %s -> %s\n", e,
                       airc_stream_event_kind_name(t->event_kind[e]),
                       label(t, t->event_record_stream[e], rbuf, sizeof rbuf),
                       label(t, t->event_wait_stream[e], buf, sizeof buf));
    }
    put_start_records(out, t);
    for (size_t i = 0; i < t->nlaunches; i++)
        put_launch(out, g, t, i, node_offsets);
    airc_sb_puts(out, "# output ");
    put_events(out, "wait", t->out_waits, t->nout_waits);
    airc_sb_putc(out, '\n');
    if (plan)
        airc_sb_printf(out,
                       "# memory plan: arena=%" PRIu64 " lower_bound=%" PRIu64 " naive=%" PRIu64
                       " align=%" PRIu64 " planned=%zu strategy=%s\n",
                       plan->arena_bytes, plan->lower_bound_bytes, plan->naive_bytes,
                       plan->arena_align, plan->planned, airc_mem_strategy_name(plan->strategy));
    else
        airc_sb_puts(out, "# memory plan: none\n");
    if (out->oom)
        return airc_fail_oom("reduce-overhead dump");
    return AIRC_OK;
}
