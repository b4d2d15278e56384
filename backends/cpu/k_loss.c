/* Built-in CPU kernels: the loss ops. The pointwise losses (mse_loss,
 * smooth_l1_loss, huber_loss, soft_margin_loss, binary_cross_entropy,
 * binary_cross_entropy_with_logits) run through the elementwise engine
 * into the result (reduction none) or into a temporary of their compute
 * type (f32 for f16 / bf16: rounded once, at the end) that is then summed
 * in double (sum) and divided by its count (mean). nll_loss_forward and
 * nll_loss2d_forward gather -weight[t] * x[.., t, ..] per target. The
 * margin losses (multi_margin_loss, multilabel_margin_loss_forward) walk
 * self's rows as torch's CPU kernels do, rounding where they round.
 * _ctc_loss runs torch's forward recursion per batch. */
#include "backends/cpu/cpu_kernels.h"
#include "backends/cpu/ew.h"
#include "backends/cpu/k_reduce_internal.h"
#include "backends/cpu/k_strided.h"

#include <math.h>
#include <string.h>

#define FN_ARGS airc_ew *op, int64_t n, void *out, const void *const *in, const int *inc

/* out = F(a, b) with op->f[0] as p (beta, delta) */
#define LOSS2(T, NAME, EXPR)                                                                       \
    static void NAME(FN_ARGS)                                                                      \
    {                                                                                              \
        const T p = (T)op->f[0];                                                                   \
        (void)p;                                                                                   \
        T *o = out;                                                                                \
        const T *pa = in[0], *pb = in[1];                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const T a = pa[i * inc[0]], b = pb[i * inc[1]];                                        \
            o[i] = (EXPR);                                                                         \
        }                                                                                          \
    }

#define SQ(x) ((x) * (x))
LOSS2(float, mse_f32, SQ(a - b))
LOSS2(double, mse_f64, SQ(a - b))
/* |a - b| < beta ? 0.5 z^2 / beta : z - 0.5 beta (beta 0: z) */
LOSS2(float, smooth_l1_f32,
      fabsf(a - b) < p ? 0.5f * SQ(fabsf(a - b)) / p : fabsf(a - b) - 0.5f * p)
LOSS2(double, smooth_l1_f64, fabs(a - b) < p ? 0.5 * SQ(fabs(a - b)) / p : fabs(a - b) - 0.5 * p)
/* |a - b| < delta ? 0.5 z^2 : delta (z - 0.5 delta) */
LOSS2(float, huber_f32, fabsf(a - b) < p ? 0.5f * SQ(a - b) : p * (fabsf(a - b) - 0.5f * p))
LOSS2(double, huber_f64, fabs(a - b) < p ? 0.5 * SQ(a - b) : p * (fabs(a - b) - 0.5 * p))
LOSS2(float, mul_f32, a *b)
LOSS2(double, mul_f64, a *b)

/* binary cross entropy of x against t: (t - 1) max(log1p(-x), -100) -
 * t max(log x, -100); x outside [0, 1] (or NaN) stops the run, as
 * torch's TORCH_CHECK in its kernel */
#define BCE(T, NAME, LOG, LOG1P, FMAX)                                                             \
    static void NAME(FN_ARGS)                                                                      \
    {                                                                                              \
        T *o = out;                                                                                \
        const T *px = in[0], *pt = in[1];                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const T x = px[i * inc[0]], t = pt[i * inc[1]];                                        \
            if (!(x >= 0 && x <= 1)) {                                                             \
                op->status = AIRC_E_RUNTIME;                                                       \
                op->message = "all elements of input should be between 0 and 1";                   \
                return;                                                                            \
            }                                                                                      \
            o[i] = (t - 1) * FMAX(LOG1P(-x), (T)-100) - t * FMAX(LOG(x), (T)-100);                 \
        }                                                                                          \
    }
BCE(float, bce_f32, logf, log1pf, fmaxf)
BCE(double, bce_f64, log, log1p, fmax)

/* binary_cross_entropy_with_logits of (t, x, pos_weight), torch's
 * composite: m = max(-x, 0); (1 - t) x + lw (log(exp(-m) + exp(-x - m)) +
 * m), lw = (pw - 1) t + 1 (1 without pos_weight, op->i[0] = 0) */
#define BCE_LOGITS(T, NAME, EXP, LOG)                                                              \
    static void NAME(FN_ARGS)                                                                      \
    {                                                                                              \
        T *o = out;                                                                                \
        const T *pt = in[0], *px = in[1], *pw = op->i[0] ? in[2] : NULL;                           \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const T t = pt[i * inc[0]], x = px[i * inc[1]];                                        \
            const T m = -x < 0 ? (T)0 : -x;                                                        \
            const T l = LOG(EXP(-m) + EXP(-x - m));                                                \
            if (pw) {                                                                              \
                const T lw = (pw[i * inc[2]] - 1) * t + 1;                                         \
                o[i] = (1 - t) * x + lw * (l + m);                                                 \
            } else {                                                                               \
                o[i] = (1 - t) * x + m + l;                                                        \
            }                                                                                      \
        }                                                                                          \
    }
BCE_LOGITS(float, bce_logits_f32, expf, logf)
BCE_LOGITS(double, bce_logits_f64, exp, log)

/* soft_margin_loss: log1p(exp(-x * t)) (torch rounds a bf16 loss at each
 * of its in-place steps, and its bf16 exp is VML's: airc rounds once) */
LOSS2(float, soft_margin_f32, log1pf(expf(-a *b)))
LOSS2(double, soft_margin_f64, log1p(exp(-a *b)))

typedef struct fn2 {
    airc_ew_fn f32, f64;
} fn2;

/* The broadcast shape of n views (they broadcast: meta checked). */
static void broadcast(const airc_tview *const *v, size_t n, airc_tview *out)
{
    int32_t nd = 0;
    for (size_t i = 0; i < n; i++)
        nd = v[i]->ndim > nd ? v[i]->ndim : nd;
    out->ndim = nd;
    for (int32_t d = 0; d < nd; d++) {
        int64_t s = 1;
        for (size_t i = 0; i < n; i++) {
            int32_t k = d - (nd - v[i]->ndim);
            if (k >= 0 && v[i]->shape[k] != 1)
                s = v[i]->shape[k];
        }
        out->shape[d] = s;
    }
    airc_cpu_set_contiguous(out);
}

/* Sum (reduction 2) or mean (1) of the n elements of t into out. */
static void reduce_into(const airc_tview *out, const airc_tview *t, int64_t reduction)
{
    int64_t n = airc_cpu_numel(t);
    size_t es = airc_dtype_size(t->dtype);
    double sum = 0;
    if (t->dtype == AIRC_DTYPE_F32 && n) /* the reduce family's SIMD sum, in double */
        sum = airc_kred_simd_best()->sum(t->data, n);
    else if (t->dtype == AIRC_DTYPE_F64)
        for (int64_t i = 0; i < n; i++)
            sum += ((const double *)t->data)[i];
    else
        for (int64_t i = 0; i < n; i++)
            sum += airc_cpu_load_f64((const char *)t->data + i * (int64_t)es, t->dtype);
    airc_cpu_store_f64(out->data, out->dtype, reduction == 1 ? sum / (double)n : sum);
}

/* Runs fn over in[0..nin) into the result, reduced as argument
 * `reduction_arg` says; a weight (`weight`, may be NULL) multiplies the
 * pointwise loss first. */
static airc_status pointwise_loss(airc_kernel_ctx *k, fn2 f, const airc_tview *const *in,
                                  size_t nin, const airc_tview *weight, uint32_t reduction_arg,
                                  double param, int64_t flag)
{
    const airc_tview *out = &k->out[0];
    int64_t reduction = airc_cpu_arg_int(k, reduction_arg, 1);
    if (reduction != 1 && reduction != 2)
        reduction = 0; /* torch: anything but mean and sum is none */
    airc_dtype ct = airc_ew_compute_type(out->dtype);
    airc_ew op;
    memset(&op, 0, sizeof op);
    op.threads = k->num_threads;
    op.fn = ct == AIRC_DTYPE_F64 ? f.f64 : f.f32;
    op.nin = (int32_t)nin;
    for (size_t i = 0; i < nin; i++)
        op.in_type[i] = ct;
    op.out_type = ct;
    op.f[0] = param;
    op.i[0] = flag;
    /* a half-type loss is rounded once: after the weight and the reduction */
    bool via_tmp = reduction || (weight && ct != out->dtype);
    airc_tview tmp = *out;
    if (via_tmp) {
        broadcast(in, nin, &tmp);
        tmp.dtype = ct;
        int64_t cells = airc_cpu_numel(&tmp);
        if (!(tmp.data =
                  airc_malloc(k->ctx, (size_t)(cells ? cells : 1) * airc_dtype_size(tmp.dtype))))
            return airc_cpu_oom(k, "the pointwise loss");
    }
    airc_status st = airc_ew_run(&op, &tmp, in);
    if (st == AIRC_OK && weight) {
        airc_ew w;
        memset(&w, 0, sizeof w);
        w.fn = ct == AIRC_DTYPE_F64 ? mul_f64 : mul_f32;
        w.nin = 2;
        w.in_type[0] = w.in_type[1] = w.out_type = ct;
        const airc_tview *lw[2] = {&tmp, weight};
        st = airc_ew_run(&w, reduction ? &tmp : out, lw);
    }
    if (st == AIRC_OK && reduction)
        reduce_into(out, &tmp, reduction);
    if (via_tmp)
        airc_free(k->ctx, tmp.data);
    return st == AIRC_OK ? st : airc_fail_prefix("%s", airc_ew_name(k));
}

static airc_status need(const airc_kernel_ctx *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!k->in || i >= k->nargs || !k->in[i])
            return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "argument %zu must be a tensor", i);
    return k->nout ? AIRC_OK : airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "no output");
}

static const airc_tview *opt_input(const airc_kernel_ctx *k, size_t i)
{
    return k->in && i < k->nargs ? k->in[i] : NULL;
}

/* mse_loss(self, target, reduction) */
static airc_status k_mse_loss(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need(k, 2));
    return pointwise_loss(k, (fn2){mse_f32, mse_f64}, k->in, 2, NULL, 2, 0, 0);
}

/* smooth_l1_loss(self, target, reduction, beta) */
static airc_status k_smooth_l1_loss(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need(k, 2));
    return pointwise_loss(k, (fn2){smooth_l1_f32, smooth_l1_f64}, k->in, 2, NULL, 2,
                          airc_cpu_arg_double(k, 3, 1.0), 0);
}

/* huber_loss(self, target, reduction, delta) */
static airc_status k_huber_loss(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need(k, 2));
    return pointwise_loss(k, (fn2){huber_f32, huber_f64}, k->in, 2, NULL, 2,
                          airc_cpu_arg_double(k, 3, 1.0), 0);
}

/* binary_cross_entropy(self, target, weight, reduction) */
static airc_status k_bce(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need(k, 2));
    return pointwise_loss(k, (fn2){bce_f32, bce_f64}, k->in, 2, opt_input(k, 2), 3, 0, 0);
}

/* binary_cross_entropy_with_logits(self, target, weight, pos_weight,
 * reduction): computed over (target, self, pos_weight) */
static airc_status k_bce_logits(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need(k, 2));
    const airc_tview *pw = opt_input(k, 3);
    const airc_tview *in[3] = {k->in[1], k->in[0], pw};
    return pointwise_loss(k, (fn2){bce_logits_f32, bce_logits_f64}, in, pw ? 3 : 2, opt_input(k, 2),
                          4, 0, pw != NULL);
}

/* soft_margin_loss(self, target, reduction): the loss has self's shape
 * (meta: target broadcasts to it) */
static airc_status k_soft_margin_loss(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need(k, 2));
    return pointwise_loss(k, (fn2){soft_margin_f32, soft_margin_f64}, k->in, 2, NULL, 2, 0, 0);
}

/* nll_loss_forward / nll_loss2d_forward(self, target, weight, reduction,
 * ignore_index) -> (output, total_weight). self [N, C] ([C]: N = 1, a
 * 0-dim target) or [N, C, H, W] with target [N, H, W]. */
static airc_status k_nll_loss(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need(k, 2));
    const airc_tview *x = k->in[0], *t = k->in[1], *w = opt_input(k, 2);
    int64_t reduction = airc_cpu_arg_int(k, 3, 1), ignore = airc_cpu_arg_int(k, 4, -100);
    /* none is per element for a batch; else mean (1) or a sum (anything
     * else, none of a 1-d self too), with the total weight */
    bool per_element = reduction == 0 && x->ndim > 1;
    if (k->nout < 2 || x->ndim < 1 || (x->ndim != 1 && x->ndim != 2 && x->ndim != 4))
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "input of 1, 2 or 4 dims");
    const airc_tview *out = &k->out[0], *total = &k->out[1];
    int32_t cd = x->ndim == 1 ? 0 : 1; /* the class dim */
    int64_t classes = x->shape[cd], batch = x->ndim == 1 ? 1 : x->shape[0];
    int64_t h = x->ndim == 4 ? x->shape[2] : 1, wd = x->ndim == 4 ? x->shape[3] : 1;
    size_t xs = airc_dtype_size(x->dtype), ts = airc_dtype_size(t->dtype);
    double sum = 0, tw = 0;
    int64_t o = 0;
    for (int64_t b = 0; b < batch; b++)
        for (int64_t i = 0; i < h; i++)
            for (int64_t j = 0; j < wd; j++, o++) {
                int64_t tpos = x->ndim == 4
                                   ? b * t->strides[0] + i * t->strides[1] + j * t->strides[2]
                               : x->ndim == 2 ? b * t->strides[0]
                                              : 0;
                int64_t c = airc_cpu_load_i64((const char *)t->data + tpos * (int64_t)ts, t->dtype);
                double v = 0;
                if (c != ignore) {
                    if (c < 0 || c >= classes)
                        return airc_cpu_fail(k, AIRC_E_RUNTIME, "Target %lld is out of bounds.",
                                             (long long)c);
                    int64_t xpos = (x->ndim == 1 ? 0 : b * x->strides[0]) + c * x->strides[cd] +
                                   (x->ndim == 4 ? i * x->strides[2] + j * x->strides[3] : 0);
                    double wc = w ? airc_cpu_load_f64((const char *)w->data +
                                                          c * w->strides[0] *
                                                              (int64_t)airc_dtype_size(w->dtype),
                                                      w->dtype)
                                  : 1.0;
                    v = -wc *
                        airc_cpu_load_f64((const char *)x->data + xpos * (int64_t)xs, x->dtype);
                    tw += wc;
                }
                sum += v;
                if (per_element) /* contiguous, in target order */
                    airc_cpu_store_f64((char *)out->data + o * (int64_t)airc_dtype_size(out->dtype),
                                       out->dtype, v);
            }
    if (!per_element)
        airc_cpu_store_f64(out->data, out->dtype, reduction == 1 ? sum / tw : sum);
    airc_cpu_store_f64(total->data, total->dtype, per_element ? 0 : tw);
    return AIRC_OK;
}

static double load_at(const airc_tview *v, int64_t off)
{
    return airc_cpu_load_f64((const char *)v->data + off * (int64_t)airc_dtype_size(v->dtype),
                             v->dtype);
}

static int64_t load_i64_at(const airc_tview *v, int64_t off)
{
    return airc_cpu_load_i64((const char *)v->data + off * (int64_t)airc_dtype_size(v->dtype),
                             v->dtype);
}

/* A margin loss's self as `frames` rows of `classes` (0, 1 or 2 dims, as
 * meta checked): the offsets of a row's start and of one class step. */
typedef struct margin_rows {
    int64_t frames, classes, row_stride, class_stride;
} margin_rows;

static airc_status margin_rows_of(const airc_kernel_ctx *k, const airc_tview *x, margin_rows *m)
{
    if (x->ndim > 2 || (x->ndim && !x->shape[x->ndim - 1]))
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "self of 0, 1 or 2 dims expected");
    m->frames = x->ndim == 2 ? x->shape[0] : 1;
    m->classes = x->ndim ? x->shape[x->ndim - 1] : 1;
    m->row_stride = x->ndim == 2 ? x->strides[0] : 0;
    m->class_stride = x->ndim ? x->strides[x->ndim - 1] : 0;
    return AIRC_OK;
}

/* One row's multi margin loss as torch's CPU kernel computes it, in the
 * scalar type T: sum over d != t of (w[t] *) max(margin - x[t] + x[d],
 * 0)^p, divided by the class count */
#define MULTI_MARGIN_ROW(T, NAME)                                                                  \
    static T NAME(const airc_tview *x, const margin_rows *m, int64_t row, int64_t t, int p,        \
                  T margin, bool weighted, T wt)                                                   \
    {                                                                                              \
        const T xt = (T)load_at(x, row + t * m->class_stride);                                     \
        T sum = 0;                                                                                 \
        for (int64_t d = 0; d < m->classes; d++) {                                                 \
            if (d == t)                                                                            \
                continue;                                                                          \
            const T z = margin - xt + (T)load_at(x, row + d * m->class_stride);                    \
            if (z > 0) {                                                                           \
                T h = p == 1 ? z : z * z;                                                          \
                if (weighted)                                                                      \
                    h *= wt;                                                                       \
                sum += h;                                                                          \
            }                                                                                      \
        }                                                                                          \
        return sum / (T)m->classes;                                                                \
    }
MULTI_MARGIN_ROW(float, multi_margin_row_f32)
MULTI_MARGIN_ROW(double, multi_margin_row_f64)

/* multi_margin_loss(self, target, p, margin, weight, reduction): per row,
 * in self's type; a reduction (anything but 0, or a 0-dim result) sums
 * the rows in double, mean divides by their count. A target outside
 * [0, classes) is torch's data-dependent "target out of range". */
static airc_status k_multi_margin_loss(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need(k, 2));
    const airc_tview *x = k->in[0], *t = k->in[1], *w = opt_input(k, 4), *out = &k->out[0];
    margin_rows m;
    AIRC_TRY(margin_rows_of(k, x, &m));
    int p = (int)airc_cpu_arg_double(k, 2, 1.0);
    double margin = airc_cpu_arg_double(k, 3, 1.0);
    int64_t reduction = airc_cpu_arg_int(k, 5, 1);
    bool per_row = reduction == 0 && out->ndim == 1;
    bool f32 = x->dtype == AIRC_DTYPE_F32;
    if ((p != 1 && p != 2) || airc_cpu_numel(t) != m.frames || t->ndim > 1 ||
        (per_row && out->shape[0] != m.frames))
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "p, target or result unlike meta's");
    if (m.frames && !f32 && x->dtype != AIRC_DTYPE_F64)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "self of f32 or f64 expected");
    int64_t wn = w ? airc_cpu_numel(w) : 0;
    double sum = 0;
    for (int64_t f = 0; f < m.frames; f++) {
        int64_t c = load_i64_at(t, t->ndim ? f * t->strides[0] : 0);
        if (c < 0 || c >= m.classes)
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "target out of range");
        if (w && c >= wn)
            return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "weight of %lld elements",
                                 (long long)wn);
        double wt = w ? load_at(w, airc_cpu_flat_offset(w, 0, c)) : 1.0;
        double v = f32 ? (double)multi_margin_row_f32(x, &m, f * m.row_stride, c, p, (float)margin,
                                                      w != NULL, (float)wt)
                       : multi_margin_row_f64(x, &m, f * m.row_stride, c, p, margin, w != NULL, wt);
        if (per_row)
            airc_cpu_store_f64((char *)out->data +
                                   f * out->strides[0] * (int64_t)airc_dtype_size(out->dtype),
                               out->dtype, v);
        sum += v;
    }
    if (!per_row)
        airc_cpu_store_f64(out->data, out->dtype, reduction == 1 ? sum / (double)m.frames : sum);
    return AIRC_OK;
}

/* One row's multilabel margin loss as torch's CPU kernel computes it: the
 * labels are the row's targets up to the first negative; over each label
 * j and each non-label d, max(1 - x[j] + x[d], 0) (in T), summed in
 * double and returned in T */
#define MULTILABEL_ROW(T, NAME)                                                                    \
    static T NAME(const airc_tview *x, const margin_rows *m, int64_t row, const int64_t *labels,   \
                  const unsigned char *is_label)                                                   \
    {                                                                                              \
        double sum = 0;                                                                            \
        for (int64_t j = 0; j < m->classes && labels[j] >= 0; j++) {                               \
            const T xt = (T)load_at(x, row + labels[j] * m->class_stride);                         \
            for (int64_t d = 0; d < m->classes; d++) {                                             \
                if (is_label[d])                                                                   \
                    continue;                                                                      \
                const T z = (T)1 - xt + (T)load_at(x, row + d * m->class_stride);                  \
                if (z > 0)                                                                         \
                    sum += z;                                                                      \
            }                                                                                      \
        }                                                                                          \
        return (T)sum;                                                                             \
    }
MULTILABEL_ROW(float, multilabel_row_f32)
MULTILABEL_ROW(double, multilabel_row_f64)

/* multilabel_margin_loss_forward(self, target, reduction) -> (output,
 * is_target): target of self's shape ([classes] for a 0-dim or 1-d self);
 * every target value must lie in [-1, classes) (torch's data-dependent
 * "argument #2 'target' is out of range"), even past a row's first -1.
 * Per row the sum divided by the class count in T (reduction 0 with a
 * [frames] result), else the rows' sums in double, divided by the class
 * count (and, mean, the row count). is_target marks each row's labels. */
static airc_status k_multilabel_margin_loss(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need(k, 2));
    const airc_tview *x = k->in[0], *t = k->in[1];
    if (k->nout < 2)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "two results expected");
    const airc_tview *out = &k->out[0], *ist = &k->out[1];
    margin_rows m;
    AIRC_TRY(margin_rows_of(k, x, &m));
    int64_t reduction = airc_cpu_arg_int(k, 2, 1);
    bool per_row = reduction == 0 && out->ndim == 1;
    int64_t n = m.frames * m.classes;
    if (airc_cpu_numel(t) != n || t->ndim > 2 || airc_cpu_numel(ist) != n ||
        (per_row && out->shape[0] != m.frames))
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "target or results unlike meta's");
    bool f32 = x->dtype == AIRC_DTYPE_F32;
    if (n && !f32 && x->dtype != AIRC_DTYPE_F64)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "self of f32 or f64 expected");
    /* the targets as rows, and their range check, before anything */
    int64_t *labels = airc_malloc(k->ctx, (size_t)(n ? n : 1) * sizeof *labels);
    unsigned char *is_label = airc_malloc(k->ctx, (size_t)(m.classes ? m.classes : 1));
    if (!labels || !is_label) {
        airc_free(k->ctx, labels);
        airc_free(k->ctx, is_label);
        return airc_cpu_oom(k, "the margin loss's targets");
    }
    airc_status st = AIRC_OK;
    for (int64_t i = 0; i < n && st == AIRC_OK; i++) {
        labels[i] = load_i64_at(t, airc_cpu_flat_offset(t, 0, i));
        if (labels[i] < -1 || labels[i] >= m.classes)
            st = airc_cpu_fail(k, AIRC_E_RUNTIME, "argument #2 'target' is out of range");
    }
    size_t es = airc_dtype_size(ist->dtype);
    double sum = 0;
    for (int64_t f = 0; f < m.frames && st == AIRC_OK; f++) {
        const int64_t *row = labels + f * m.classes;
        memset(is_label, 0, (size_t)m.classes);
        for (int64_t j = 0; j < m.classes && row[j] >= 0; j++)
            is_label[row[j]] = 1;
        for (int64_t d = 0; d < m.classes; d++) /* contiguous, as meta laid it out */
            airc_cpu_store_f64((char *)ist->data + (f * m.classes + d) * (int64_t)es, ist->dtype,
                               is_label[d]);
        if (per_row) {
            double v = f32 ? (double)(multilabel_row_f32(x, &m, f * m.row_stride, row, is_label) /
                                      (float)m.classes)
                           : multilabel_row_f64(x, &m, f * m.row_stride, row, is_label) /
                                 (double)m.classes;
            airc_cpu_store_f64((char *)out->data +
                                   f * out->strides[0] * (int64_t)airc_dtype_size(out->dtype),
                               out->dtype, v);
        } else {
            sum += f32 ? (double)multilabel_row_f32(x, &m, f * m.row_stride, row, is_label)
                       : multilabel_row_f64(x, &m, f * m.row_stride, row, is_label);
        }
    }
    if (st == AIRC_OK && !per_row) {
        sum /= (double)m.classes;
        airc_cpu_store_f64(out->data, out->dtype, reduction == 1 ? sum / (double)m.frames : sum);
    }
    airc_free(k->ctx, labels);
    airc_free(k->ctx, is_label);
    return st;
}

/* ---- _ctc_loss ---------------------------------------------------------------- */

typedef struct ctc {
    const airc_tview *lp, *tg, *alpha;
    const int64_t *il, *tl, *off; /* per batch: lengths, targets' offset */
    int64_t tstride, blank;
} ctc;

/* l'(s): the blank between labels, label s / 2 at odd s */
static int64_t ctc_prime(const ctc *c, int64_t b, int64_t s)
{
    if (s % 2 == 0)
        return c->blank;
    const char *p = (const char *)c->tg->data +
                    (c->off[b] + c->tstride * (s / 2)) * (int64_t)airc_dtype_size(c->tg->dtype);
    return airc_cpu_load_i64(p, c->tg->dtype);
}

/* torch's forward recursion for batch b in T (float: expf / logf and float
 * sums, as its kernel): alpha[t][s] = log(sum of exp(alpha[t - 1][s - k] -
 * max)) + max + lp[t][l'(s)], k = 0, 1 and 2 where l'(s - 2) != l'(s). */
#define CTC_BATCH(T, NAME, EXP, LOG)                                                               \
    static T NAME(const ctc *c, int64_t b)                                                         \
    {                                                                                              \
        const airc_tview *lp = c->lp, *al = c->alpha;                                              \
        const char *lb = (const char *)lp->data + b * lp->strides[1] * (int64_t)sizeof(T);         \
        T *ab = (T *)al->data + b * al->strides[0];                                                \
        int64_t il = c->il[b], tl = c->tl[b], S = 2 * tl + 1;                                      \
        const T ninf = -(T)INFINITY;                                                               \
        for (int64_t s = 0; s < 2 && s < S; s++)                                                   \
            ab[s * al->strides[2]] =                                                               \
                *(const T *)(lb + (ctc_prime(c, b, s) * lp->strides[2]) * (int64_t)sizeof(T));     \
        for (int64_t t = 1; t < il; t++)                                                           \
            for (int64_t s = 0; s < S; s++) {                                                      \
                const T *prev = ab + (t - 1) * al->strides[1];                                     \
                int64_t l = ctc_prime(c, b, s), st = al->strides[2];                               \
                T la1 = prev[s * st], lamax = la1, la2 = ninf, la3 = ninf;                         \
                if (s > 0) {                                                                       \
                    la2 = prev[(s - 1) * st];                                                      \
                    if (la2 > lamax)                                                               \
                        lamax = la2;                                                               \
                }                                                                                  \
                if (s > 1 && ctc_prime(c, b, s - 2) != l) {                                        \
                    la3 = prev[(s - 2) * st];                                                      \
                    if (la3 > lamax)                                                               \
                        lamax = la3;                                                               \
                }                                                                                  \
                if (lamax == ninf)                                                                 \
                    lamax = 0;                                                                     \
                T sum = EXP(la1 - lamax) + EXP(la2 - lamax);                                       \
                sum = sum + EXP(la3 - lamax);                                                      \
                T v = LOG(sum) + lamax;                                                            \
                v = v + *(const T *)(lb + (t * lp->strides[0] + l * lp->strides[2]) *              \
                                              (int64_t)sizeof(T));                                 \
                ab[t * al->strides[1] + s * st] = v;                                               \
            }                                                                                      \
        const T *last = ab + (il - 1) * al->strides[1];                                            \
        if (tl == 0)                                                                               \
            return -last[0];                                                                       \
        T l1 = last[2 * tl * al->strides[2]], l2 = last[(2 * tl - 1) * al->strides[2]];            \
        T m = l1 < l2 ? l2 : l1; /* std::max */                                                    \
        if (m == ninf)                                                                             \
            m = 0;                                                                                 \
        return -(LOG(EXP(l1 - m) + EXP(l2 - m)) + m);                                              \
    }
CTC_BATCH(float, ctc_batch_f32, expf, logf)
CTC_BATCH(double, ctc_batch_f64, exp, log)
#undef CTC_BATCH

/* The lengths argument i: an int list (.default) or an integral tensor
 * (.Tensor), its B items into out. */
static airc_status ctc_lengths(airc_kernel_ctx *k, size_t i, int64_t B, int64_t *out)
{
    const airc_tview *t = k->in ? k->in[i] : NULL;
    if (!t) {
        int32_t n = 0;
        AIRC_TRY(airc_cpu_arg_ints(k, i, out, (int32_t)B, &n));
        return n == B ? AIRC_OK
                      : airc_cpu_fail(k, AIRC_E_RUNTIME, "argument %zu must have %lld lengths", i,
                                      (long long)B);
    }
    if (airc_cpu_numel(t) != B)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "argument %zu must have %lld lengths", i,
                             (long long)B);
    for (int64_t b = 0; b < B; b++)
        out[b] = airc_cpu_load_i64((const char *)t->data + airc_cpu_flat_offset(t, 0, b) *
                                                               (int64_t)airc_dtype_size(t->dtype),
                                   t->dtype);
    return AIRC_OK;
}

/* Torch's checks that read the lengths (the .Tensor overload's are data)
 * and airc's: lengths torch would read outside log_alpha with, targets
 * outside [0, C) (torch reads outside log_probs), a longest target other
 * than the one meta sized log_alpha by. */
static airc_status ctc_check(airc_kernel_ctx *k, ctc *c, int64_t *off)
{
    const airc_tview *lp = c->lp, *tg = c->tg;
    int64_t T = lp->shape[0], B = lp->shape[1], C = lp->shape[2], S = 0, pos = 0;
    const char *chk = "(while checking arguments for ctc_loss_cpu)";
    for (int64_t b = 0; b < B; b++) {
        if (c->tl[b] < 0 || c->il[b] < 1)
            return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                                 "input_lengths[%lld] = %lld and target_lengths[%lld] = %lld: airc "
                                 "needs at least 1 and 0 (torch reads outside log_alpha)",
                                 (long long)b, (long long)c->il[b], (long long)b,
                                 (long long)c->tl[b]);
        if (__builtin_add_overflow(pos, c->tl[b], &pos))
            return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "target_lengths overflow int64");
        S = c->tl[b] > S ? c->tl[b] : S;
    }
    if (tg->ndim == 1 && tg->shape[0] != pos)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                             "Expected tensor to have size %lld at dimension 0, but got size %lld "
                             "for argument #2 'targets' %s",
                             (long long)pos, (long long)tg->shape[0], chk);
    if (tg->ndim == 2 && tg->shape[1] < S)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                             "Expected tensor to have size at least %lld at dimension 1, but got "
                             "size %lld for argument #2 'targets' %s",
                             (long long)S, (long long)tg->shape[1], chk);
    for (int64_t b = 0; b < B; b++)
        if (c->il[b] > T)
            return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                                 "Expected input_lengths to have value at most %lld, but got value "
                                 "%lld %s",
                                 (long long)T, (long long)c->il[b], chk);
    if ((c->alpha->shape[2] - 1) / 2 != S)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                             "log_alpha was sized for targets of %lld (targets' length), but "
                             "max(target_lengths) is %lld: torch sizes it by the lengths' values",
                             (long long)(c->alpha->shape[2] - 1) / 2, (long long)S);
    /* the targets now lie inside targets: torch 1.13 offsets a 1-d one by
     * the element count before it, not that many strides (wrong for a
     * strided one); airc reads the targets it is given */
    for (int64_t b = 0, p = 0; b < B; p += c->tl[b], b++)
        off[b] = tg->ndim == 1 ? p * tg->strides[0] : b * tg->strides[0];
    for (int64_t b = 0; b < B; b++)
        for (int64_t s = 1; s < 2 * c->tl[b] + 1; s += 2) {
            int64_t l = ctc_prime(c, b, s);
            if (l < 0 || l >= C)
                return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                                     "target %lld of batch %lld is %lld, outside [0, %lld)",
                                     (long long)(s / 2), (long long)b, (long long)l, (long long)C);
        }
    return AIRC_OK;
}

/* _ctc_loss(log_probs [T, B, C], targets, input_lengths, target_lengths,
 * blank, zero_infinity) -> (neg_log_likelihood [B], log_alpha [B, T, 2 S +
 * 1]), both overloads. zero_infinity only matters to torch's backward.
 * log_alpha's cells past a batch's input length or 2 target length + 1
 * are -inf (torch leaves them unwritten). */
static airc_status k_ctc_loss(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *lp = k->nargs >= 4 && k->in ? k->in[0] : NULL, *tg = lp ? k->in[1] : NULL;
    if (!lp || !tg || k->nout != 2 || lp->ndim != 3 || (tg->ndim != 1 && tg->ndim != 2) ||
        k->out[1].ndim != 3 || k->out[1].shape[0] != lp->shape[1] ||
        k->out[1].shape[1] != lp->shape[0] || k->out[1].dtype != lp->dtype ||
        (lp->dtype != AIRC_DTYPE_F32 && lp->dtype != AIRC_DTYPE_F64))
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                             "expects f32 / f64 log_probs [T, B, C], targets and two results");
    int64_t B = lp->shape[1];
    if (B == 0)
        return AIRC_OK;
    int64_t *buf = airc_malloc(k->ctx, (size_t)B * 3 * sizeof *buf);
    if (!buf)
        return airc_cpu_oom(k, "the lengths");
    ctc c = {lp,
             tg,
             &k->out[1],
             buf,
             buf + B,
             buf + 2 * B,
             tg->strides[tg->ndim - 1],
             airc_cpu_arg_int(k, 4, 0)};
    airc_status st = ctc_lengths(k, 2, B, buf);
    if (st == AIRC_OK)
        st = ctc_lengths(k, 3, B, buf + B);
    if (st == AIRC_OK)
        st = ctc_check(k, &c, buf + 2 * B);
    if (st == AIRC_OK && (c.blank < 0 || c.blank >= lp->shape[2]))
        st = airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "blank must be in label range");
    if (st == AIRC_OK) {
        airc_cpu_scalar ninf = {true, 0, -INFINITY};
        airc_cpu_fill(&k->out[1], &ninf);
        const airc_tview *nll = &k->out[0];
        for (int64_t b = 0; b < B; b++) {
            double v =
                lp->dtype == AIRC_DTYPE_F32 ? (double)ctc_batch_f32(&c, b) : ctc_batch_f64(&c, b);
            airc_cpu_store_f64((char *)nll->data +
                                   b * nll->strides[0] * (int64_t)airc_dtype_size(nll->dtype),
                               nll->dtype, v);
        }
    }
    airc_free(k->ctx, buf);
    return st;
}

/* Sorted by qualname (strcmp); a unit test checks it. */
const airc_cpu_kernel_entry airc_cpu_kernels_loss[] = {
    {"aten._ctc_loss.Tensor", k_ctc_loss},
    {"aten._ctc_loss.default", k_ctc_loss},
    {"aten.binary_cross_entropy.default", k_bce},
    {"aten.binary_cross_entropy_with_logits.default", k_bce_logits},
    {"aten.huber_loss.default", k_huber_loss},
    {"aten.mse_loss.default", k_mse_loss},
    {"aten.multi_margin_loss.default", k_multi_margin_loss},
    {"aten.multilabel_margin_loss_forward.default", k_multilabel_margin_loss},
    {"aten.nll_loss2d_forward.default", k_nll_loss},
    {"aten.nll_loss_forward.default", k_nll_loss},
    {"aten.smooth_l1_loss.default", k_smooth_l1_loss},
    {"aten.soft_margin_loss.default", k_soft_margin_loss},
};
const size_t airc_cpu_num_kernels_loss =
    sizeof airc_cpu_kernels_loss / sizeof airc_cpu_kernels_loss[0];
