/* max-autotune: the compiled graph lowered to one GE ModelDef per input
 * signature (backends/ge), serialized, read back, validated and raised by
 * the reference executor, which then runs every call on the CPU kernels.
 * So each run checks the very bytes airc emits. Dumps
 * (debug.graph_dump.type txt | pbtxt | pb) go under debug.graph_dump.path
 * as dynamo_original_graph_<N>.<ext>, N counting the models lowered.
 * debug.fx_summary's csv is written from the same typed clone. */
#include "backends/ge/dump.h"
#include "backends/ge/execute.h"
#include "compile/compile.h"
#include "compile/fx_summary.h"
#include "io/io.h"
#include "ir/ir.h"

#include <stdio.h>
#include <string.h>

void airc_compiled_free_model(airc_compiled *c)
{
    airc_free(c->ctx, c->model_bytes);
    c->model_bytes = NULL;
    c->model_len = 0;
    airc_graph_destroy(c->model_graph);
    c->model_graph = NULL;
    c->model_valid = false;
}

static airc_status dump_model(airc_compiled *c, const Ge__Proto__ModelDef *m)
{
    char path[4096];
    const char *ext = c->dump_type;
    AIRC_TRY(airc_make_dirs(c->dump_dir));
    snprintf(path, sizeof path, "%s/dynamo_original_graph_%llu.%s", c->dump_dir,
             (unsigned long long)c->models, ext);
    if (!strcmp(ext, "pb"))
        return airc_write_file(path, c->model_bytes, c->model_len);
    airc_strbuf sb;
    airc_sb_init(&sb, c->ctx);
    airc_status st = !strcmp(ext, "txt") ? airc_ge_dump_txt(m->graph[0], &sb)
                                         : airc_ge_dump_pbtxt(m->graph[0], &sb);
    if (st == AIRC_OK)
        st = sb.oom ? airc_fail_oom("dump") : airc_write_file(path, airc_sb_cstr(&sb), sb.len);
    airc_sb_free(&sb);
    return st;
}

/* A clone of the compiled graph with the signature's meta. */
static airc_status typed_clone(airc_compiled *c, airc_graph **out)
{
    airc_graph *g;
    AIRC_TRY(airc_graph_clone(c->graph, &g));
    size_t i = 0;
    airc_status st = AIRC_OK;
    for (airc_node *n = g->root.next; st == AIRC_OK && n != &g->root; n = n->next)
        if (n->kind == AIRC_NODE_PLACEHOLDER) {
            const airc_capture_sig *s = &c->sigs[i++];
            st = airc_node_set_meta(n, s->dtype, s->ndim, s->shape, s->strides);
        }
    if (st == AIRC_OK)
        st = airc_graph_propagate_meta(g);
    if (st != AIRC_OK) {
        airc_graph_destroy(g);
        return st;
    }
    *out = g;
    return AIRC_OK;
}

airc_status airc_compiled_write_fx_summary(airc_compiled *c)
{
    airc_graph *g;
    AIRC_TRY(typed_clone(c, &g));
    char path[4096];
    airc_status st = airc_fx_summary_write(g, c->fx_summary_dir, path, sizeof path);
    airc_graph_destroy(g);
    if (st != AIRC_OK)
        return st;
    c->fx_summary_pending = false;
    airc_log(c->ctx, AIRC_LOG_INFO, "debug.fx_summary: wrote %s", path);
    return AIRC_OK;
}

airc_status airc_compiled_lower(airc_compiled *c)
{
    airc_compiled_free_model(c);
    airc_graph *g;
    AIRC_TRY(typed_clone(c, &g));
    airc_ge_builder b;
    airc_status st = airc_ge_builder_init(&b, c->ctx, g, "airc_graph");
    airc_ge_lower_options o = {c->config, "airc_graph"};
    if (st == AIRC_OK)
        st = airc_ge_lower(&b, g, &o);
    if (st == AIRC_OK)
        st = airc_ge_pack(c->ctx, b.model, &c->model_bytes, &c->model_len);
    airc_ge_builder_free(&b);
    airc_graph_destroy(g);
    /* read back what was written: the executor runs the bytes */
    Ge__Proto__ModelDef *m = NULL;
    if (st == AIRC_OK)
        st = airc_ge_unpack(c->ctx, c->model_bytes, c->model_len, &m);
    size_t nin = 0;
    if (st == AIRC_OK)
        st = airc_ge_raise_model(c->ctx, m, &c->model_graph, &nin);
    if (st == AIRC_OK && nin != c->ninputs)
        st = airc_fail(AIRC_E_INTERNAL, "the lowered model has %zu inputs, the graph %zu", nin,
                       c->ninputs);
    if (st == AIRC_OK && c->dump_type)
        st = dump_model(c, m);
    airc_ge_unpacked_free(c->ctx, m);
    if (st != AIRC_OK) {
        airc_compiled_free_model(c);
        return st;
    }
    memcpy(c->model_sigs, c->sigs, sizeof *c->sigs * c->ninputs);
    c->model_valid = true;
    c->models++;
    return AIRC_OK;
}

bool airc_compiled_model_matches(const airc_compiled *c)
{
    if (!c->model_valid)
        return false;
    uint64_t key = airc_capture_key(c->sigs, c->ninputs);
    return key == airc_capture_key(c->model_sigs, c->ninputs) &&
           !memcmp(c->sigs, c->model_sigs, sizeof *c->sigs * c->ninputs);
}

airc_status airc_compiled_model(const airc_compiled *c, const uint8_t **data, size_t *len)
{
    AIRC_TRY(airc_check_compiled(c, "airc_compiled_model"));
    if (!data || !len)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_compiled_model: NULL data or len");
    if (!c->model_valid)
        return airc_fail(AIRC_E_NOT_FOUND,
                         "airc_compiled_model: no model yet (compile in max-autotune with "
                         "example inputs, or run once)");
    *data = c->model_bytes;
    *len = c->model_len;
    return AIRC_OK;
}
