/* f32 forward convolutions through oneDNN (k_conv_dnnl.h). The caller's
 * tensors are described with their own strides; oneDNN picks its layouts
 * (format "any": blocked channels for its AVX-512 kernels), and reorders
 * bring the input and weight in and the result out, as PyTorch's mkldnn
 * path does per call. Primitives come from oneDNN's primitive cache, so a
 * repeated shape builds no kernel. Each call runs on one OpenMP thread
 * (airc_cpu_dnnl_one_thread) and a batch is split over airc's pool.
 * Anything oneDNN declines or fails at leaves the result to airc's own
 * im2col path. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "backends/cpu/k_conv_dnnl.h"
#include "backends/cpu/parallel.h"

#ifdef AIRC_HAVE_DNNL
#include <dlfcn.h>
#include <dnnl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

static dnnl_engine_t engine; /* the process's CPU engine; NULL: unusable */
static void (*set_omp_threads)(int);
static pthread_once_t engine_once = PTHREAD_ONCE_INIT;

static void engine_init(void)
{
    if (dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success)
        engine = NULL;
    /* libgomp came in with libdnnl; without it, OpenMP's default count */
    *(void **)&set_omp_threads = dlsym(RTLD_DEFAULT, "omp_set_num_threads");
}

bool airc_cpu_dnnl_one_thread(void)
{
    if (pthread_once(&engine_once, engine_init) || !engine)
        return false;
    if (set_omp_threads)
        set_omp_threads(1);
    return true;
}

/* The descriptor of an airc view's last nd dims of the 5-d view t, with
 * its strides (nd 3..5: [N, C, spatial...]). */
static bool plain_md(dnnl_memory_desc_t *md, const airc_tview *t, int32_t sp)
{
    dnnl_dims_t dims, strides;
    int32_t nd = sp + 2;
    for (int32_t d = 0; d < nd; d++) {
        int32_t s = d < 2 ? d : d + 3 - sp;
        dims[d] = t->shape[s];
        strides[d] = t->strides[s];
    }
    return dnnl_memory_desc_init_by_strides(md, nd, dims, dnnl_f32, strides) == dnnl_success;
}

/* The weight [O, C/g, k...] as oneDNN's grouped [g, O/g, C/g, k...]. */
static bool weight_md(dnnl_memory_desc_t *md, const airc_tview *w, int32_t sp, int64_t groups)
{
    if (groups == 1)
        return plain_md(md, w, sp);
    dnnl_dims_t dims, strides;
    dims[0] = groups;
    strides[0] = (w->shape[0] / groups) * w->strides[0];
    for (int32_t d = 0; d < sp + 2; d++) {
        int32_t s = d < 2 ? d : d + 3 - sp;
        dims[d + 1] = d == 0 ? w->shape[0] / groups : w->shape[s];
        strides[d + 1] = w->strides[s];
    }
    return dnnl_memory_desc_init_by_strides(md, sp + 3, dims, dnnl_f32, strides) == dnnl_success;
}

typedef struct run {
    dnnl_stream_t stream;
    dnnl_memory_t mem[9];
    int nmem;
    dnnl_primitive_t prim[4];
    int nprim;
    dnnl_primitive_desc_t pd[4];
    int npd;
    void *scratch; /* the convolution's scratchpad, from the context's allocator */
} run;

static dnnl_memory_t memory(run *r, const dnnl_memory_desc_t *md, void *data)
{
    dnnl_memory_t m = NULL;
    if (r->nmem < 9 && dnnl_memory_create(&m, md, engine, data) == dnnl_success)
        return r->mem[r->nmem++] = m;
    return NULL;
}

/* from -> to through a reorder primitive (executed in stream order) */
static bool reorder(run *r, dnnl_memory_t from, const dnnl_memory_desc_t *fmd, dnnl_memory_t to,
                    const dnnl_memory_desc_t *tmd)
{
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_t p = NULL;
    if (r->npd >= 4 || r->nprim >= 4 ||
        dnnl_reorder_primitive_desc_create(&pd, fmd, engine, tmd, engine, NULL) != dnnl_success)
        return false;
    r->pd[r->npd++] = pd;
    if (dnnl_primitive_create(&p, pd) != dnnl_success)
        return false;
    r->prim[r->nprim++] = p;
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
    return dnnl_primitive_execute(p, r->stream, 2, args) == dnnl_success;
}

/* The user's memory for a role, or a oneDNN-allocated one in the layout
 * the convolution wants, reordered from the user's when `in`. */
static dnnl_memory_t operand(run *r, const dnnl_memory_desc_t *user, void *data,
                             const dnnl_memory_desc_t *want, bool in, dnnl_memory_t *user_mem)
{
    *user_mem = memory(r, user, data);
    if (!*user_mem || dnnl_memory_desc_equal(user, want))
        return *user_mem;
    dnnl_memory_t m = memory(r, want, DNNL_MEMORY_ALLOCATE);
    if (m && in && !reorder(r, *user_mem, user, m, want))
        return NULL;
    return m;
}

static bool conv(run *r, const airc_kernel_ctx *k, int32_t sp, const airc_tview *x,
                 const airc_tview *w, const airc_tview *bias, const airc_tview *o,
                 const int64_t *stride, const int64_t *pad, const int64_t *dil, int64_t groups)
{
    /* first: oneDNN sizes the scratchpad for the thread count at creation */
    if (!airc_cpu_dnnl_one_thread())
        return false;
    dnnl_memory_desc_t xmd, wmd, bmd, omd, xany, wany, oany;
    dnnl_dims_t st, dl, pl;
    for (int32_t d = 0; d < sp; d++) {
        st[d] = stride[3 - sp + d];
        dl[d] = dil[3 - sp + d] - 1; /* oneDNN counts the taps skipped */
        pl[d] = pad[3 - sp + d];
    }
    if (!plain_md(&xmd, x, sp) || !weight_md(&wmd, w, sp, groups) || !plain_md(&omd, o, sp))
        return false;
    if (bias) {
        dnnl_dims_t bd = {bias->shape[0]}, bs = {bias->strides[0]};
        if (dnnl_memory_desc_init_by_strides(&bmd, 1, bd, dnnl_f32, bs) != dnnl_success)
            return false;
    }
    if (dnnl_memory_desc_init_by_tag(&xany, xmd.ndims, xmd.dims, dnnl_f32, dnnl_format_tag_any) !=
            dnnl_success ||
        dnnl_memory_desc_init_by_tag(&wany, wmd.ndims, wmd.dims, dnnl_f32, dnnl_format_tag_any) !=
            dnnl_success ||
        dnnl_memory_desc_init_by_tag(&oany, omd.ndims, omd.dims, dnnl_f32, dnnl_format_tag_any) !=
            dnnl_success)
        return false;
    dnnl_convolution_desc_t cd;
    if (dnnl_dilated_convolution_forward_desc_init(
            &cd, dnnl_forward_inference, dnnl_convolution_direct, &xany, &wany, bias ? &bmd : NULL,
            &oany, st, dl, pl, pl) != dnnl_success)
        return false;
    /* the scratchpad is ours (oneDNN's own is per thread, and a stream's
     * worker is new on every eager run: its pages faulted in each time) */
    dnnl_primitive_attr_t attr = NULL;
    if (dnnl_primitive_attr_create(&attr) != dnnl_success)
        return false;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_status_t made = dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user);
    if (made == dnnl_success)
        made = dnnl_primitive_desc_create(&pd, &cd, attr, engine, NULL);
    dnnl_primitive_attr_destroy(attr);
    if (made != dnnl_success)
        return false;
    r->pd[r->npd++] = pd;
    const dnnl_memory_desc_t *smd = dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
    size_t sbytes = smd ? dnnl_memory_desc_get_size(smd) : 0;
    dnnl_memory_t sm = NULL;
    if (sbytes) {
        if (!(r->scratch = airc_malloc(k->ctx, sbytes + 63)))
            return false;
        sm = memory(r, smd, (void *)(((uintptr_t)r->scratch + 63) & ~(uintptr_t)63));
        if (!sm)
            return false;
    }
    dnnl_primitive_t p = NULL;
    if (dnnl_primitive_create(&p, pd) != dnnl_success)
        return false;
    r->prim[r->nprim++] = p;
    dnnl_memory_t xu, wu, ou, bu = NULL;
    dnnl_memory_t xm = operand(r, &xmd, x->data,
                               dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0), true, &xu);
    dnnl_memory_t wm = operand(
        r, &wmd, w->data, dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0), true, &wu);
    const dnnl_memory_desc_t *want_o = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
    dnnl_memory_t om = operand(r, &omd, o->data, want_o, false, &ou);
    if (bias && !(bu = memory(r, &bmd, bias->data)))
        return false;
    if (!xm || !wm || !om)
        return false;
    dnnl_exec_arg_t args[5] = {{DNNL_ARG_SRC, xm}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_DST, om}};
    int nargs = 3;
    if (sm)
        args[nargs++] = (dnnl_exec_arg_t){DNNL_ARG_SCRATCHPAD, sm};
    if (bu)
        args[nargs++] = (dnnl_exec_arg_t){DNNL_ARG_BIAS, bu};
    if (dnnl_primitive_execute(p, r->stream, nargs, args) != dnnl_success)
        return false;
    if (om != ou && !reorder(r, om, want_o, ou, &omd))
        return false;
    return dnnl_stream_wait(r->stream) == dnnl_success;
}

/* One sub-batch [b, e) of images on the calling thread. */
static bool conv_images(const airc_kernel_ctx *k, int32_t sp, const airc_tview *x,
                        const airc_tview *w, const airc_tview *bias, const airc_tview *o,
                        const int64_t *stride, const int64_t *pad, const int64_t *dil,
                        int64_t groups, int64_t b, int64_t e)
{
    airc_tview xs = *x, os = *o;
    xs.shape[0] = os.shape[0] = e - b;
    xs.data = (float *)x->data + b * x->strides[0];
    os.data = (float *)o->data + b * o->strides[0];
    run r = {0};
    if (dnnl_stream_create(&r.stream, engine, dnnl_stream_default_flags) != dnnl_success)
        return false;
    bool ok = conv(&r, k, sp, &xs, w, bias, &os, stride, pad, dil, groups);
    if (!ok)
        dnnl_stream_wait(r.stream); /* nothing of a failed run may still be running */
    for (int i = 0; i < r.nprim; i++)
        dnnl_primitive_destroy(r.prim[i]);
    for (int i = 0; i < r.npd; i++)
        dnnl_primitive_desc_destroy(r.pd[i]);
    for (int i = 0; i < r.nmem; i++)
        dnnl_memory_destroy(r.mem[i]);
    dnnl_stream_destroy(r.stream);
    airc_free(k->ctx, r.scratch);
    return ok;
}

bool airc_cpu_have_dnnl(void)
{
    return true;
}

typedef struct images {
    const airc_kernel_ctx *k;
    int32_t sp;
    const airc_tview *x, *w, *bias, *o;
    const int64_t *stride, *pad, *dil;
    int64_t groups;
    atomic_bool failed;
} images;

static void images_chunk(void *arg, int64_t b, int64_t e)
{
    images *m = arg;
    if (!conv_images(m->k, m->sp, m->x, m->w, m->bias, m->o, m->stride, m->pad, m->dil, m->groups,
                     b, e))
        atomic_store(&m->failed, true);
}

bool airc_cpu_conv_dnnl(const airc_kernel_ctx *k, int32_t sp, const airc_tview *x,
                        const airc_tview *w, const airc_tview *bias, const airc_tview *o,
                        const int64_t *stride, const int64_t *pad, const int64_t *dil,
                        int64_t groups)
{
    int64_t n = x->shape[0];
    int32_t threads = k->num_threads > 1 ? k->num_threads : 1;
    /* oneDNN runs one OpenMP thread per call (a team's spinning threads
     * beside OpenBLAS's and airc's own made a busy machine 30x slower),
     * images split over airc's pool: fewer images than half the budget
     * leave the rest to OpenBLAS's threads in airc's own path */
    if (sp < 1 || sp > 3 || x->dtype != AIRC_DTYPE_F32 || n * 2 < threads ||
        pthread_once(&engine_once, engine_init) || !engine)
        return false;
    images m = {k, sp, x, w, bias, o, stride, pad, dil, groups, false};
    airc_cpu_parallel_for(threads, n, 1, images_chunk, &m);
    return !atomic_load(&m.failed);
}

#else

bool airc_cpu_have_dnnl(void)
{
    return false;
}

bool airc_cpu_dnnl_one_thread(void)
{
    return false;
}

bool airc_cpu_conv_dnnl(const airc_kernel_ctx *k, int32_t sp, const airc_tview *x,
                        const airc_tview *w, const airc_tview *bias, const airc_tview *o,
                        const int64_t *stride, const int64_t *pad, const int64_t *dil,
                        int64_t groups)
{
    (void)k, (void)sp, (void)x, (void)w, (void)bias, (void)o, (void)stride, (void)pad, (void)dil,
        (void)groups;
    return false;
}

#endif
