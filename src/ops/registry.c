/* The op registry of a context. Built-in ops come from a static sorted table
 * and are parsed into the context the first time they are looked up, so a
 * new context costs nothing; custom ops are parsed at registration. One
 * mutex guards the registry: registering and looking up are safe from any
 * thread, while other threads compile with the context. */
#include "ops/ops.h"

#include <stdio.h>
#include <string.h>

/* A replaced callback's user_data, kept until the context dies. */
typedef struct retired_cb {
    void *user_data;
    airc_free_fn free_user_data;
    void *block; /* airc_free'd too (a replaced meta record), or NULL */
} retired_cb;

struct airc_registry {
    pthread_mutex_t lock;
    airc_arena arena;    /* built-in ops */
    airc_strmap by_name; /* qualname -> airc_op (materialized built-ins + custom) */
    airc_op **ops;       /* every op materialized, for destroy */
    size_t nops, ops_cap;
    airc_op **custom;    /* custom ops in registration order */
    airc_arena **custom_arenas;
    size_t ncustom, custom_cap, arenas_cap;
    retired_cb *retired; /* replaced callbacks, kept until the context dies */
    size_t nretired, retired_cap;
};

airc_status airc_registry_create(airc_context *ctx)
{
    airc_registry *r = airc_calloc(ctx, 1, sizeof *r);
    if (!r)
        return airc_fail_oom("op registry");
    if (pthread_mutex_init(&r->lock, NULL)) {
        airc_free(ctx, r);
        return airc_fail(AIRC_E_INTERNAL, "op registry: pthread_mutex_init failed");
    }
    airc_arena_init(&r->arena, ctx);
    airc_strmap_init(&r->by_name, ctx);
    ctx->registry = r;
    return AIRC_OK;
}

static void free_kernels(airc_context *ctx, airc_op *op)
{
    for (size_t i = 0; i < op->nkernels; i++) {
        if (op->kernels[i].free_user_data)
            op->kernels[i].free_user_data(op->kernels[i].user_data);
        airc_free(ctx, op->kernels[i].device_type);
    }
    airc_free(ctx, op->kernels);
    op->kernels = NULL;
    op->nkernels = op->kernels_cap = 0;
}

static void free_op_callbacks(airc_context *ctx, airc_op *op)
{
    const airc_op_meta *m = atomic_load_explicit(&op->meta, memory_order_relaxed);
    if (m->free_user_data)
        m->free_user_data(m->user_data);
    if (m != &op->meta0)
        airc_free(ctx, (void *)m);
    free_kernels(ctx, op);
    if (op->converter_free)
        op->converter_free(op->converter_user_data);
    op->magic = AIRC_MAGIC_DEAD;
}

void airc_registry_destroy(airc_context *ctx)
{
    airc_registry *r = ctx->registry;
    if (!r)
        return;
    for (size_t i = 0; i < r->nops; i++)
        free_op_callbacks(ctx, r->ops[i]);
    for (size_t i = 0; i < r->nretired; i++) {
        if (r->retired[i].free_user_data)
            r->retired[i].free_user_data(r->retired[i].user_data);
        airc_free(ctx, r->retired[i].block);
    }
    airc_free(ctx, r->retired);
    for (size_t i = 0; i < r->ncustom; i++) {
        airc_arena_free(r->custom_arenas[i]);
        airc_free(ctx, r->custom_arenas[i]);
    }
    airc_free(ctx, r->ops);
    airc_free(ctx, r->custom);
    airc_free(ctx, r->custom_arenas);
    airc_strmap_free(&r->by_name);
    airc_arena_free(&r->arena);
    pthread_mutex_destroy(&r->lock);
    airc_free(ctx, r);
    ctx->registry = NULL;
}

/* Canonical qualname of any accepted spelling, into buf: strips
 * "torch.ops.", turns "ns::" into "ns.". false when it cannot be a name. */
static bool canonical_name(const char *name, size_t len, char *buf, size_t cap)
{
    if (len >= 10 && !memcmp(name, "torch.ops.", 10)) {
        name += 10;
        len -= 10;
    }
    if (len == 0 || len + 16 >= cap)
        return false;
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (name[i] == ':' && i + 1 < len && name[i + 1] == ':') {
            buf[o++] = '.';
            i++;
        } else if (name[i] == '\0') {
            return false;
        } else {
            buf[o++] = name[i];
        }
    }
    buf[o] = '\0';
    return true;
}

static int cmp_builtin(const void *key, const void *elem)
{
    return strcmp(key, ((const airc_builtin_op *)elem)->qualname);
}

static const airc_builtin_op *find_builtin(const char *qualname)
{
    size_t lo = 0, hi = airc_num_builtin_ops;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = cmp_builtin(qualname, &airc_builtin_ops[mid]);
        if (!c)
            return &airc_builtin_ops[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* Fills an op's names from its parsed schema, in arena a. */
static airc_status name_op(airc_arena *a, airc_op *op)
{
    const airc_schema *s = op->schema;
    const char *ovl = *s->overload ? s->overload : "default";
    char buf[1024];
    bool is_operator = !strcmp(s->ns, "operator");
    if (is_operator)
        snprintf(buf, sizeof buf, "operator.%s", s->name);
    else
        snprintf(buf, sizeof buf, "%s.%s.%s", s->ns, s->name, ovl);
    op->qualname = airc_arena_strdup(a, buf);
    if (!is_operator)
        snprintf(buf, sizeof buf, "torch.ops.%s.%s.%s", s->ns, s->name, ovl);
    op->target_string = airc_arena_strdup(a, buf);
    op->short_name = s->name;
    if (!op->qualname || !op->target_string)
        return airc_fail_oom("op name");
    return AIRC_OK;
}

static bool remember(airc_context *ctx, airc_registry *r, airc_op *op)
{
    if (!airc_grow(ctx, (void **)&r->ops, &r->ops_cap, r->nops + 1, sizeof *r->ops) ||
        !airc_strmap_reserve(&r->by_name, 1))
        return false;
    r->ops[r->nops++] = op;
    airc_strmap_put(&r->by_name, op->qualname, op);
    return true;
}

/* Parses a built-in entry into the context. Called with the lock held. */
static const airc_op *materialize(airc_context *ctx, airc_registry *r, const airc_builtin_op *b)
{
    airc_op *op = airc_arena_calloc(&r->arena, 1, sizeof *op);
    if (!op)
        return NULL;
    if (airc_schema_parse_in(ctx, &r->arena, b->schema, &op->schema) != AIRC_OK)
        return NULL; /* a test parses every entry: only OOM gets here */
    if (name_op(&r->arena, op) != AIRC_OK)
        return NULL;
    op->magic = AIRC_MAGIC_OP;
    op->flags = b->flags | (op->schema->is_mutable ? AIRC_OP_SIDE_EFFECT : 0);
    op->builtin = true;
    op->meta0.fn = b->meta;
    atomic_init(&op->meta, &op->meta0);
    if (!remember(ctx, r, op))
        return NULL;
    return op;
}

/* NULL with *oom set when a built-in could not be materialized. */
static const airc_op *lookup_locked(airc_context *ctx, airc_registry *r, const char *canon,
                                    bool *oom)
{
    const airc_op *op = airc_strmap_get(&r->by_name, canon);
    if (op)
        return op;
    const airc_builtin_op *b = find_builtin(canon);
    if (!b)
        return NULL;
    op = materialize(ctx, r, b);
    *oom = op == NULL;
    return op;
}

airc_status airc_registry_find(airc_context *ctx, const char *name, size_t len,
                               const airc_op **out)
{
    char buf[512];
    if (!name || !canonical_name(name, len, buf, sizeof buf))
        return airc_fail(AIRC_E_NOT_FOUND, "unknown op '%.*s'", (int)(len > 200 ? 200 : len),
                         name ? name : "");
    airc_registry *r = ctx->registry;
    bool oom = false;
    pthread_mutex_lock(&r->lock);
    const airc_op *op = lookup_locked(ctx, r, buf, &oom);
    if (!op && !oom && !strchr(strchr(buf, '.') ? strchr(buf, '.') + 1 : buf, '.')) {
        /* "aten.mm" means the default overload */
        strcat(buf, ".default");
        op = lookup_locked(ctx, r, buf, &oom);
    }
    pthread_mutex_unlock(&r->lock);
    if (oom)
        return airc_fail_oom("op registry entry");
    if (!op)
        return airc_fail(AIRC_E_NOT_FOUND, "unknown op '%.*s'", (int)(len > 200 ? 200 : len),
                         name);
    *out = op;
    return AIRC_OK;
}

const airc_op *airc_registry_lookupn(airc_context *ctx, const char *name, size_t len)
{
    const airc_op *op = NULL;
    return airc_registry_find(ctx, name, len, &op) == AIRC_OK ? op : NULL;
}

const airc_op *airc_registry_lookup(airc_context *ctx, const char *name)
{
    return name ? airc_registry_lookupn(ctx, name, strlen(name)) : NULL;
}

void airc_registry_lock(airc_context *ctx)
{
    pthread_mutex_lock(&ctx->registry->lock);
}

void airc_registry_unlock(airc_context *ctx)
{
    pthread_mutex_unlock(&ctx->registry->lock);
}

bool airc_registry_retire(airc_context *ctx, void *user_data, airc_free_fn free_user_data,
                          void *block)
{
    airc_registry *r = ctx->registry;
    if (!free_user_data && !block)
        return true;
    if (!airc_grow(ctx, (void **)&r->retired, &r->retired_cap, r->nretired + 1,
                   sizeof *r->retired)) {
        airc_fail_oom("replaced callback");
        return false;
    }
    r->retired[r->nretired++] = (retired_cb){user_data, free_user_data, block};
    return true;
}

bool airc_op_get_meta(const airc_op *op, airc_meta_fn *fn, void **user_data)
{
    const airc_op_meta *m = atomic_load_explicit(&op->meta, memory_order_acquire);
    *fn = m->fn;
    *user_data = m->user_data;
    return m->fn != NULL;
}

void airc_op_def_init(airc_op_def *def)
{
    if (!def)
        return;
    memset(def, 0, sizeof *def);
    def->struct_size = sizeof *def;
}

airc_status airc_context_register_op(airc_context *ctx, const airc_op_def *def,
                                     const airc_op **out)
{
    static const char fn[] = "airc_context_register_op";
    AIRC_TRY(airc_check_context(ctx, fn));
    if (!def || def->struct_size < sizeof(airc_op_def))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: def is NULL or has a bad struct_size", fn);
    if (!def->schema)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: schema is NULL", fn);
    if (def->flags & ~(uint32_t)(AIRC_OP_SIDE_EFFECT | AIRC_OP_VIEW))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: unknown flags 0x%x", fn,
                         (unsigned)def->flags);
    return airc_registry_add(ctx, def, NULL, NULL, out);
}

airc_status airc_registry_add(airc_context *ctx, const airc_op_def *def, airc_op_setup_fn setup,
                              void *setup_data, const airc_op **out)
{
    static const char fn[] = "airc_context_register_op";
    airc_registry *r = ctx->registry;
    airc_arena *a = airc_calloc(ctx, 1, sizeof *a);
    if (!a)
        return airc_fail_oom("op");
    airc_arena_init(a, ctx);
    airc_status st;
    airc_op *op = airc_arena_calloc(a, 1, sizeof *op);
    if (!op) {
        st = airc_fail_oom("op");
        goto fail;
    }
    if ((st = airc_schema_parse_in(ctx, a, def->schema, &op->schema)) != AIRC_OK)
        goto fail;
    if (!*op->schema->ns) {
        st = airc_fail(AIRC_E_INVALID_ARGUMENT,
                       "%s: schema '%.200s' needs a namespace (\"ns::name\")", fn, def->schema);
        goto fail;
    }
    if ((st = name_op(a, op)) != AIRC_OK)
        goto fail;
    op->magic = AIRC_MAGIC_OP;
    op->flags = def->flags | (op->schema->is_mutable ? AIRC_OP_SIDE_EFFECT : 0);
    op->meta0 = (airc_op_meta){def->meta, def->meta_user_data, NULL};
    atomic_init(&op->meta, &op->meta0);
    if (setup && (st = setup(op, a, setup_data)) != AIRC_OK)
        goto fail;

    pthread_mutex_lock(&r->lock);
    if (airc_strmap_get(&r->by_name, op->qualname) || find_builtin(op->qualname)) {
        pthread_mutex_unlock(&r->lock);
        st = airc_fail(AIRC_E_EXISTS, "%s: op '%s' is already registered", fn, op->qualname);
        goto fail;
    }
    size_t cap = r->custom_cap;
    bool ok = airc_grow(ctx, (void **)&r->custom, &cap, r->ncustom + 1, sizeof *r->custom);
    if (ok) {
        r->custom_cap = cap;
        ok = airc_grow(ctx, (void **)&r->custom_arenas, &r->arenas_cap, r->ncustom + 1,
                       sizeof *r->custom_arenas) &&
             remember(ctx, r, op);
    }
    if (!ok) {
        pthread_mutex_unlock(&r->lock);
        st = airc_fail_oom("op registry");
        goto fail;
    }
    /* only now does the registry own meta_user_data */
    op->meta0.free_user_data = def->meta_free;
    r->custom[r->ncustom] = op;
    r->custom_arenas[r->ncustom] = a;
    r->ncustom++;
    pthread_mutex_unlock(&r->lock);
    if (out)
        *out = op;
    return AIRC_OK;
fail:
    if (op)
        free_kernels(ctx, op);
    airc_arena_free(a);
    airc_free(ctx, a);
    return st;
}

airc_status airc_context_find_op(airc_context *ctx, const char *name, const airc_op **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_context_find_op"));
    if (!name || !out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_context_find_op: NULL argument");
    return airc_registry_find(ctx, name, strlen(name), out);
}

airc_status airc_context_set_op_meta(airc_context *ctx, const char *name, airc_meta_fn meta,
                                     void *user_data, airc_free_fn free_user_data)
{
    const airc_op *cop;
    AIRC_TRY(airc_context_find_op(ctx, name, &cop));
    airc_op *op = (airc_op *)cop;
    airc_op_meta *m = airc_malloc(ctx, sizeof *m);
    if (!m)
        return airc_fail_oom("op meta");
    *m = (airc_op_meta){meta, user_data, free_user_data};
    airc_registry *r = ctx->registry;
    pthread_mutex_lock(&r->lock);
    const airc_op_meta *old = atomic_load_explicit(&op->meta, memory_order_relaxed);
    bool kept = airc_registry_retire(ctx, old->user_data, old->free_user_data,
                                     old == &op->meta0 ? NULL : (void *)old);
    if (kept)
        atomic_store_explicit(&op->meta, m, memory_order_release);
    pthread_mutex_unlock(&r->lock);
    if (!kept) {
        airc_free(ctx, m);
        return AIRC_E_OUT_OF_MEMORY;
    }
    return AIRC_OK;
}

size_t airc_context_num_ops(airc_context *ctx)
{
    if (!ctx || ctx->magic != AIRC_MAGIC_CONTEXT)
        return 0;
    pthread_mutex_lock(&ctx->registry->lock);
    size_t n = airc_num_builtin_ops + ctx->registry->ncustom;
    pthread_mutex_unlock(&ctx->registry->lock);
    return n;
}

const char *airc_context_op_name(airc_context *ctx, size_t i)
{
    if (!ctx || ctx->magic != AIRC_MAGIC_CONTEXT)
        return NULL;
    if (i < airc_num_builtin_ops)
        return airc_builtin_ops[i].qualname;
    i -= airc_num_builtin_ops;
    airc_registry *r = ctx->registry;
    pthread_mutex_lock(&r->lock);
    const char *name = i < r->ncustom ? r->custom[i]->qualname : NULL;
    pthread_mutex_unlock(&r->lock);
    return name;
}

static bool live_op(const airc_op *op)
{
    return op && op->magic == AIRC_MAGIC_OP;
}

const char *airc_op_name(const airc_op *op)
{
    return live_op(op) ? op->qualname : NULL;
}

const char *airc_op_target_string(const airc_op *op)
{
    return live_op(op) ? op->target_string : NULL;
}

const airc_schema *airc_op_schema(const airc_op *op)
{
    return live_op(op) ? op->schema : NULL;
}

uint32_t airc_op_flags(const airc_op *op)
{
    return live_op(op) ? op->flags : 0;
}

int32_t airc_op_has_meta(const airc_op *op)
{
    airc_meta_fn fn;
    void *ud;
    return live_op(op) && airc_op_get_meta(op, &fn, &ud);
}
