/* The reduction engine behind sum/mean/prod/amax/amin/max/min/argmax/
 * argmin/any/all/var/var_mean: splits the input's dims into kept dims (one
 * output each) and reduced dims, coalesces both, and reduces either one
 * output at a time (innermost reduced dim contiguous: SIMD row loops) or a
 * block of contiguous outputs at once (reduced dims outer: SIMD column
 * loops, so sum(x, 0) streams memory instead of striding through it).
 *
 * Domains: floating results accumulate in double; integer sums/products in
 * int64 with two's-complement wrap-around, as torch's; integer max/min stay
 * exact in int64. */
#include "backends/cpu/k_reduce_engine.h"

#include "backends/cpu/ew.h"

#include <inttypes.h>
#include <stdlib.h>

#define D AIRC_MAX_DIMS
#define CHUNK 256 /* elements converted at once in the generic loops */
#define COLS 4096 /* outputs accumulated at once in the column path (heap scratch) */

typedef struct kr_plan {
    int32_t nk, nr;
    int64_t ksize[D], kin[D], kout[2][D];
    int64_t rsize[D], rin[D];
    int64_t nred, nout;
} kr_plan;

typedef struct kr_acc {
    double d;    /* double domain: sum, product, extreme; sqdev */
    int64_t i;   /* int domain; any/all flag */
    int64_t idx; /* arg ops: best index so far, -1 before the first */
    int64_t seen; /* elements visited (arg ops' running index) */
} kr_acc;

static bool commutes(kr_op op)
{
    return op != KR_ARGMAX && op != KR_ARGMIN;
}

static airc_status build_plan(const airc_kernel_ctx *k, const kr_spec *s, kr_plan *p)
{
    const airc_tview *in = s->in;
    memset(p, 0, sizeof *p);
    p->nred = p->nout = 1;
    bool keep = s->out[0]->ndim == in->ndim;
    int32_t oj = 0;
    for (int32_t d = 0; d < in->ndim; d++) {
        int64_t n = in->shape[d];
        if (s->mask[d]) {
            p->nred *= n;
            if (n != 1) {
                p->rsize[p->nr] = n;
                p->rin[p->nr++] = in->strides[d];
            }
            continue;
        }
        int32_t j = keep ? d : oj++;
        for (int o = 0; o < s->nouts; o++)
            if (j >= s->out[o]->ndim || s->out[o]->shape[j] != n)
                return airc_kred_fail(k, AIRC_E_RUNTIME,
                                      "output %d does not have the reduction's shape", o);
        p->nout *= n;
        if (n == 1)
            continue;
        p->ksize[p->nk] = n;
        p->kin[p->nk] = in->strides[d];
        for (int o = 0; o < s->nouts; o++)
            p->kout[o][p->nk] = s->out[o]->strides[j];
        p->nk++;
    }
    if (commutes(s->op) && p->nr > 1) {
        /* innermost = smallest stride, so the inner loop is the contiguous one */
        for (int32_t i = 1; i < p->nr; i++)
            for (int32_t j = i; j > 0 && llabs(p->rin[j - 1]) < llabs(p->rin[j]); j--) {
                int64_t t = p->rin[j];
                p->rin[j] = p->rin[j - 1];
                p->rin[j - 1] = t;
                t = p->rsize[j];
                p->rsize[j] = p->rsize[j - 1];
                p->rsize[j - 1] = t;
            }
    }
    /* coalesce d into d+1 when they walk memory as one dim */
    int32_t n = 0;
    for (int32_t d = 0; d < p->nr; d++) {
        if (n > 0 && p->rin[n - 1] == p->rin[d] * p->rsize[d]) {
            p->rsize[n - 1] *= p->rsize[d];
            p->rin[n - 1] = p->rin[d];
            continue;
        }
        p->rsize[n] = p->rsize[d];
        p->rin[n++] = p->rin[d];
    }
    p->nr = n;
    n = 0;
    for (int32_t d = 0; d < p->nk; d++) {
        bool merge = n > 0 && p->kin[n - 1] == p->kin[d] * p->ksize[d];
        for (int o = 0; merge && o < s->nouts; o++)
            merge = p->kout[o][n - 1] == p->kout[o][d] * p->ksize[d];
        if (merge) {
            p->ksize[n - 1] *= p->ksize[d];
            p->kin[n - 1] = p->kin[d];
            for (int o = 0; o < s->nouts; o++)
                p->kout[o][n - 1] = p->kout[o][d];
            continue;
        }
        p->ksize[n] = p->ksize[d];
        p->kin[n] = p->kin[d];
        for (int o = 0; o < s->nouts; o++)
            p->kout[o][n] = p->kout[o][d];
        n++;
    }
    p->nk = n;
    return AIRC_OK;
}

/* ---- one output: the reduced region at input offset `base` -------------- */

static void acc_init(kr_op op, kr_acc *a)
{
    memset(a, 0, sizeof *a);
    a->idx = -1;
    switch (op) {
    case KR_PROD: a->d = 1; a->i = 1; break;
    case KR_MAX: a->d = -INFINITY; a->i = INT64_MIN; break;
    case KR_NORM: a->d = 0; break; /* -inf: set by the caller */
    case KR_MIN: a->d = INFINITY; a->i = INT64_MAX; break;
    case KR_ALL: a->i = 1; break;
    default: break;
    }
}

/* One step of |x|^p (KR_NORM). */
static void row_norm(double p, kr_acc *a, const double *v, int64_t n)
{
    for (int64_t j = 0; j < n; j++) {
        double x = fabs(v[j]);
        if (p == 2)
            a->d += x * x;
        else if (p == 1)
            a->d += x;
        else if (p == 0)
            a->d += x != 0;
        else if (isinf(p) && p > 0)
            a->d = x > a->d || x != x ? x : a->d;
        else if (isinf(p))
            a->d = x < a->d || x != x ? x : a->d;
        else
            a->d += pow(x, p);
    }
}

/* param: the mean (KR_SQDEV), the order (KR_NORM), the max (KR_SUMEXP). */
static void row_double(kr_op op, double param, kr_acc *a, const double *v, int64_t n)
{
    const double mean = param;
    switch (op) {
    case KR_NORM: row_norm(param, a, v, n); break;
    case KR_SUMEXP:
        for (int64_t j = 0; j < n; j++)
            a->d += exp(v[j] - param);
        break;
    case KR_SUM:
        for (int64_t j = 0; j < n; j++)
            a->d += v[j];
        break;
    case KR_NANSUM:
        for (int64_t j = 0; j < n; j++)
            a->d += v[j] != v[j] ? 0 : v[j];
        break;
    case KR_SQDEV:
        for (int64_t j = 0; j < n; j++)
            a->d += (v[j] - mean) * (v[j] - mean);
        break;
    case KR_PROD:
        for (int64_t j = 0; j < n; j++)
            a->d *= v[j];
        break;
    case KR_MAX:
        for (int64_t j = 0; j < n; j++)
            if (v[j] > a->d || v[j] != v[j])
                a->d = v[j];
        break;
    case KR_MIN:
        for (int64_t j = 0; j < n; j++)
            if (v[j] < a->d || v[j] != v[j])
                a->d = v[j];
        break;
    case KR_ANY:
        for (int64_t j = 0; j < n; j++)
            a->i |= v[j] != 0;
        break;
    case KR_ALL:
        for (int64_t j = 0; j < n; j++)
            a->i &= v[j] != 0;
        break;
    case KR_ARGMAX:
    case KR_ARGMIN:
        for (int64_t j = 0; j < n; j++) {
            /* first occurrence wins ties; the first NaN wins for good */
            bool take = a->idx < 0 ||
                        (a->d == a->d &&
                         (v[j] != v[j] || (op == KR_ARGMAX ? v[j] > a->d : v[j] < a->d)));
            if (take) {
                a->d = v[j];
                a->idx = a->seen + j;
            }
        }
        break;
    }
    a->seen += n;
}

static void row_int(kr_op op, kr_acc *a, const int64_t *v, int64_t n)
{
    switch (op) {
    case KR_SUM:
    case KR_NANSUM: {
        uint64_t s = (uint64_t)a->i; /* wraps like torch, without C's UB */
        for (int64_t j = 0; j < n; j++)
            s += (uint64_t)v[j];
        a->i = (int64_t)s;
        break;
    }
    case KR_PROD: {
        uint64_t s = (uint64_t)a->i;
        for (int64_t j = 0; j < n; j++)
            s *= (uint64_t)v[j];
        a->i = (int64_t)s;
        break;
    }
    case KR_MAX:
        for (int64_t j = 0; j < n; j++)
            if (v[j] > a->i)
                a->i = v[j];
        break;
    case KR_MIN:
        for (int64_t j = 0; j < n; j++)
            if (v[j] < a->i)
                a->i = v[j];
        break;
    case KR_ARGMAX:
    case KR_ARGMIN:
        for (int64_t j = 0; j < n; j++)
            if (a->idx < 0 || (op == KR_ARGMAX ? v[j] > a->i : v[j] < a->i)) {
                a->i = v[j];
                a->idx = a->seen + j;
            }
        break;
    default:
        break;
    }
    a->seen += n;
}

/* v converted to dt and back. */
static double round_through(airc_dtype dt, double v)
{
    union {
        double d;
        int64_t i;
        float f;
        uint16_t h;
    } tmp = {0};
    airc_kred_store_d(&tmp, 0, dt, v);
    return airc_kred_load_d(&tmp, 0, dt);
}

/* One contiguous or strided run of n elements at element offset off. */
static void run(const kr_spec *s, kr_op op, double mean, kr_acc *a, int64_t off, int64_t n,
                int64_t stride)
{
    const airc_tview *in = s->in;
    if (s->dbl && in->dtype == AIRC_DTYPE_F32 && !s->elem_dtype && stride == 1 && n > 0) {
        const float *x = (const float *)in->data + off;
        switch (op) {
        case KR_SUM: a->d += s->simd->sum(x, n); a->seen += n; return;
        case KR_SQDEV: a->d += s->simd->sqdev(x, n, mean); a->seen += n; return;
        case KR_MAX: {
            float m = s->simd->max(x, n);
            if (m > a->d || m != m)
                a->d = m;
            a->seen += n;
            return;
        }
        case KR_MIN: {
            float m = s->simd->min(x, n);
            if (m < a->d || m != m)
                a->d = m;
            a->seen += n;
            return;
        }
        default: break;
        }
    }
    for (int64_t j = 0; j < n; j += CHUNK) {
        int64_t c = n - j < CHUNK ? n - j : CHUNK;
        if (s->elem_dtype) {
            /* x.to(dtype) first, with the cast's rules (inf to i32 is
             * INT32_MIN as on x86), then to the accumulator's type */
            int64_t tmp[CHUNK]; /* c elements of elem_dtype, as ew.c's blocks */
            const char *src =
                (const char *)in->data + (off + j * stride) * (int64_t)airc_dtype_size(in->dtype);
            airc_cpu_cast(s->elem_dtype, tmp, 1, in->dtype, src, stride, c);
            if (s->dbl) {
                double buf[CHUNK];
                airc_cpu_cast(AIRC_DTYPE_F64, buf, 1, s->elem_dtype, tmp, 1, c);
                row_double(op, mean, a, buf, c);
            } else {
                int64_t buf[CHUNK];
                airc_cpu_cast(AIRC_DTYPE_I64, buf, 1, s->elem_dtype, tmp, 1, c);
                row_int(op, a, buf, c);
            }
        } else if (s->dbl) {
            double buf[CHUNK];
            airc_kred_load_row_d(in->data, off + j * stride, stride, c, in->dtype, buf);
            row_double(op, mean, a, buf, c);
        } else {
            int64_t buf[CHUNK];
            airc_kred_load_row_i(in->data, off + j * stride, stride, c, in->dtype, buf);
            row_int(op, a, buf, c);
        }
    }
}

static void region(const kr_spec *s, const kr_plan *p, kr_op op, double mean, kr_acc *a,
                   int64_t base)
{
    if (p->nred == 0)
        return;
    if (p->nr == 0) {
        run(s, op, mean, a, base, 1, 1);
        return;
    }
    int32_t last = p->nr - 1;
    int64_t idx[D] = {0}, off = base;
    for (;;) {
        run(s, op, mean, a, off, p->rsize[last], p->rin[last]);
        int32_t d = last - 1;
        for (; d >= 0; d--) {
            if (++idx[d] < p->rsize[d]) {
                off += p->rin[d];
                break;
            }
            off -= p->rin[d] * (p->rsize[d] - 1);
            idx[d] = 0;
        }
        if (d < 0)
            return;
    }
}

/* ---- writing results ------------------------------------------------------ */

static void emit(const kr_spec *s, const kr_plan *p, const kr_acc *a, double mean,
                 const int64_t *oo)
{
    airc_tview *o0 = s->out[0];
    double n = (double)p->nred;
    switch (s->fin) {
    case KR_FIN_VALUE:
        if (s->dbl)
            airc_kred_store_d(o0->data, oo[0], o0->dtype, a->d);
        else
            airc_kred_store_i(o0->data, oo[0], o0->dtype, a->i);
        break;
    case KR_FIN_FLAG: airc_kred_store_i(o0->data, oo[0], o0->dtype, a->i); break;
    case KR_FIN_MEAN:
        /* torch's mean is sum(x, dtype) / n: the sum rounds to the result
         * dtype before the division */
        airc_kred_store_d(o0->data, oo[0], o0->dtype,
                          (o0->dtype == AIRC_DTYPE_F64 ? a->d : round_through(o0->dtype, a->d)) /
                              n);
        break;
    case KR_FIN_NORM: {
        double v = a->d, ord = s->p;
        if (ord == 2)
            v = sqrt(v);
        else if (ord != 1 && ord != 0 && !isinf(ord))
            v = pow(v, 1.0 / ord);
        airc_kred_store_d(o0->data, oo[0], o0->dtype, p->nred ? v : 0);
        break;
    }
    case KR_FIN_LSE: airc_kred_store_d(o0->data, oo[0], o0->dtype, mean + log(a->d)); break;
    case KR_FIN_STD:
    case KR_FIN_STD_MEAN:
    case KR_FIN_VAR:
    case KR_FIN_VAR_MEAN: {
        double den = n - s->correction, var = a->d / (den > 0 ? den : 0);
        bool root = s->fin == KR_FIN_STD || s->fin == KR_FIN_STD_MEAN;
        airc_kred_store_d(o0->data, oo[0], o0->dtype, root ? sqrt(var) : var);
        if (s->fin == KR_FIN_VAR_MEAN || s->fin == KR_FIN_STD_MEAN)
            airc_kred_store_d(s->out[1]->data, oo[1], s->out[1]->dtype, mean);
        break;
    }
    case KR_FIN_INDEX: airc_kred_store_i(o0->data, oo[0], o0->dtype, a->idx); break;
    case KR_FIN_VALUE_INDEX:
        if (s->dbl)
            airc_kred_store_d(o0->data, oo[0], o0->dtype, a->d);
        else
            airc_kred_store_i(o0->data, oo[0], o0->dtype, a->i);
        airc_kred_store_i(s->out[1]->data, oo[1], s->out[1]->dtype, a->idx);
        break;
    }
}

/* ---- drivers ------------------------------------------------------------- */

/* The finishes of the variance family (two passes: mean, then squared
 * deviations). */
static bool is_var(kr_fin f)
{
    return f == KR_FIN_VAR || f == KR_FIN_VAR_MEAN || f == KR_FIN_STD || f == KR_FIN_STD_MEAN;
}

static void reduce_one(const kr_spec *s, const kr_plan *p, int64_t base, const int64_t *oo)
{
    kr_acc a;
    double mean = 0;
    bool var = is_var(s->fin);
    acc_init(s->op, &a);
    if (s->op == KR_NORM && isinf(s->p) && s->p < 0)
        a.d = INFINITY;
    region(s, p, var ? KR_SUM : s->op, s->op == KR_NORM ? s->p : 0, &a, base);
    if (var) {
        mean = a.d / (double)p->nred;
        acc_init(KR_SQDEV, &a);
        region(s, p, KR_SQDEV, mean, &a, base);
    } else if (s->fin == KR_FIN_LSE) {
        /* torch subtracts the max, but a 0 for an infinite one */
        mean = isinf(a.d) ? 0 : a.d;
        acc_init(KR_SUMEXP, &a);
        region(s, p, KR_SUMEXP, mean, &a, base);
    }
    emit(s, p, &a, mean, oo);
}

/* Visits every reduced offset of the region (as region() does, one at a
 * time) for the column path. */
typedef struct col_walk {
    int64_t idx[D], off;
    bool done;
} col_walk;

static void col_start(col_walk *w)
{
    memset(w, 0, sizeof *w);
}

static void col_next(const kr_plan *p, col_walk *w)
{
    for (int32_t d = p->nr - 1; d >= 0; d--) {
        if (++w->idx[d] < p->rsize[d]) {
            w->off += p->rin[d];
            return;
        }
        w->off -= p->rin[d] * (p->rsize[d] - 1);
        w->idx[d] = 0;
    }
    w->done = true;
}

/* cn outputs whose inputs are contiguous at x (f32), reduced over the plan's
 * reduced dims. */
static void reduce_cols(const kr_spec *s, const kr_plan *p, const float *x, int64_t cn,
                        const int64_t *oo, int64_t ostep0, int64_t ostep1, double *scratch)
{
    double *acc = scratch, *mean = scratch + COLS;
    float *facc = (float *)(scratch + 2 * COLS);
    bool var = is_var(s->fin);
    col_walk w;
    if (s->op == KR_MAX || s->op == KR_MIN) {
        memcpy(facc, x, (size_t)cn * sizeof *facc);
        col_start(&w);
        for (col_next(p, &w); !w.done; col_next(p, &w))
            (s->op == KR_MAX ? s->simd->col_max : s->simd->col_min)(x + w.off, facc, cn);
    } else {
        memset(acc, 0, (size_t)cn * sizeof *acc);
        for (col_start(&w); !w.done; col_next(p, &w))
            s->simd->col_sum(x + w.off, acc, cn);
        if (var) {
            for (int64_t j = 0; j < cn; j++)
                mean[j] = acc[j] / (double)p->nred;
            memset(acc, 0, (size_t)cn * sizeof *acc);
            for (col_start(&w); !w.done; col_next(p, &w))
                s->simd->col_sqdev(x + w.off, mean, acc, cn);
        }
    }
    for (int64_t j = 0; j < cn; j++) {
        kr_acc a;
        acc_init(s->op, &a);
        a.d = s->op == KR_MAX || s->op == KR_MIN ? facc[j] : acc[j];
        int64_t o[2] = {oo[0] + j * ostep0, oo[1] + j * ostep1};
        emit(s, p, &a, var ? mean[j] : 0, o);
    }
}

airc_status airc_kred_reduce(const airc_kernel_ctx *k, kr_spec *s)
{
    kr_plan p;
    AIRC_TRY(build_plan(k, s, &p));
    if (p.nout == 0)
        return AIRC_OK;
    if (p.nred == 0 && s->needs_elements)
        return airc_kred_fail(k, AIRC_E_RUNTIME,
                              "Expected reduction dim to have non-zero size (cannot reduce an "
                              "empty tensor without an identity)");
    s->simd = airc_kred_simd_best();
    /* columns: the kept inner dim is contiguous and the reduced ones are not */
    bool cols = s->dbl && s->in->dtype == AIRC_DTYPE_F32 && !s->elem_dtype && p.nk >= 1 &&
                p.nred > 1 && p.kin[p.nk - 1] == 1 && p.nr >= 1 && p.rin[p.nr - 1] != 1 &&
                (s->op == KR_SUM || s->op == KR_MAX || s->op == KR_MIN) &&
                (s->fin == KR_FIN_VALUE || s->fin == KR_FIN_MEAN || s->fin == KR_FIN_VAR ||
                 s->fin == KR_FIN_VAR_MEAN || s->fin == KR_FIN_STD || s->fin == KR_FIN_STD_MEAN);
    int32_t nk = cols ? p.nk - 1 : p.nk;
    int64_t nouter = 1;
    for (int32_t d = 0; d < nk; d++)
        nouter *= p.ksize[d];
    int64_t idx[D] = {0}, oin = 0, oo[2] = {0, 0};
    const float *xf = s->in->data;
    /* column accumulators: acc and mean in double, max/min in float */
    double *scratch = NULL;
    if (cols) {
        scratch = airc_malloc(k->ctx, (2 * COLS + COLS / 2) * sizeof *scratch);
        if (!scratch)
            return airc_fail_oom("reduction scratch");
    }
    for (int64_t o = 0; o < nouter; o++) {
        if (cols) {
            int64_t kn = p.ksize[p.nk - 1];
            for (int64_t j = 0; j < kn; j += COLS) {
                int64_t c = kn - j < COLS ? kn - j : COLS;
                int64_t o2[2] = {oo[0] + j * p.kout[0][p.nk - 1], oo[1] + j * p.kout[1][p.nk - 1]};
                reduce_cols(s, &p, xf + oin + j, c, o2, p.kout[0][p.nk - 1],
                            p.kout[1][p.nk - 1], scratch);
            }
        } else {
            reduce_one(s, &p, oin, oo);
        }
        for (int32_t d = nk - 1; d >= 0; d--) {
            if (++idx[d] < p.ksize[d]) {
                oin += p.kin[d];
                oo[0] += p.kout[0][d];
                oo[1] += p.kout[1][d];
                break;
            }
            oin -= p.kin[d] * (p.ksize[d] - 1);
            oo[0] -= p.kout[0][d] * (p.ksize[d] - 1);
            oo[1] -= p.kout[1][d] * (p.ksize[d] - 1);
            idx[d] = 0;
        }
    }
    airc_free(k->ctx, scratch);
    return AIRC_OK;
}
