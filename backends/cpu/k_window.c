/* Shape family: the window factories (hann, hamming, bartlett, blackman,
 * kaiser) and torch.fft's fftfreq / rfftfreq, as torch 1.13 composes
 * them from tensor ops: arange, then each multiply, cos, add rounded to
 * the dtype, the double scalars converted to the dtype first, as torch's
 * binary kernels take them (bf16: 2 pi / 5 is 1.2578125). The GE lowering emits the same values as
 * a Const (airc_cpu_window). */
#include "backends/cpu/k_shape_impl.h"
#include "backends/cpu/k_special.h"

#include <math.h>
#include <string.h>

#define PI 3.14159265358979323846

/* a result of the opmath type rounded to the dtype (bf16 through float,
 * as torch stores a float result) */
static double R(airc_dtype dt, double v)
{
    return dt == AIRC_DTYPE_F64 ? v : airc_cpu_round_f64(dt, (double)(float)v);
}

/* a double scalar as torch's binary kernels take it: converted to the
 * tensor's dtype (bf16 through float) */
#define S R

static double num(const airc_value *v, double def)
{
    int64_t i;
    double f;
    if (v && airc_value_get_float(v, &f) == AIRC_OK)
        return f;
    if (v && airc_value_get_int(v, &i) == AIRC_OK)
        return (double)i;
    return def;
}

/* One window value i of length n (periodic already added to n, n > 1). */
static double window_value(const char *name, airc_dtype dt, int64_t n, int64_t i, double alpha,
                           double beta)
{
    double x = R(dt, (double)i), d = (double)(n - 1);
    if (!strcmp(name, "bartlett_window")) {
        x = R(dt, x * S(dt, 2.0 / d));
        return i >= ((n - 1) >> 1) + 1 ? R(dt, S(dt, 2.0) - x) : x;
    }
    if (!strcmp(name, "blackman_window")) {
        x = R(dt, x * S(dt, PI / d));
        double a = R(dt, R(dt, cos(R(dt, x * 4.0))) * S(dt, 0.08));
        double b = R(dt, R(dt, cos(R(dt, x * 2.0))) * S(dt, 0.5));
        return R(dt, R(dt, a - b) + S(dt, 0.42));
    }
    if (!strcmp(name, "kaiser_window")) {
        /* torch's kernel, each step in the dtype:
         * i0(beta sqrt(1 - ((x - a) / a)^2)) / i0(beta), a = (n - 1) / 2 */
        double a = R(dt, d / 2.0), bt = R(dt, beta), r = R(dt, R(dt, x - a) / a);
        double arg = R(dt, bt * R(dt, sqrt(R(dt, 1.0 - R(dt, r * r)))));
        return R(dt, R(dt, airc_i0(arg)) / R(dt, airc_i0(bt)));
    }
    /* hamming (hann: alpha = beta = 0.5): alpha - beta cos(2 pi i / (n - 1)) */
    x = R(dt, cos(R(dt, x * S(dt, PI * 2.0 / d))));
    return R(dt, R(dt, x * S(dt, -beta)) + S(dt, alpha));
}

void airc_cpu_window(airc_tview *out, const char *qualname, const airc_value *const *args,
                     size_t nargs)
{
    char name[32] = "";
    const char *dot = strchr(qualname + 5, '.'), *overload = dot ? dot + 1 : "default";
    size_t len = dot ? (size_t)(dot - (qualname + 5)) : strlen(qualname + 5);
    if (len < sizeof name)
        memcpy(name, qualname + 5, len), name[len] = '\0';
    airc_dtype dt = out->dtype;
    const airc_value *arg[4] = {NULL, NULL, NULL, NULL};
    for (size_t i = 0; i < 4 && i < nargs; i++)
        arg[i] = args[i];
    int64_t n = (int64_t)num(arg[0], 0), count = out->ndim == 1 ? out->shape[0] : 0;
    size_t esz = airc_dtype_size(dt);
    char *p = out->data;
    if (!strncmp(name, "fft_", 4)) {
        /* arange(n), its second half from -(n / 2), times 1 / (n d) */
        double scale = S(dt, 1.0 / ((double)n * num(arg[1], 1.0)));
        int64_t half = (n + 1) / 2;
        bool full = !strcmp(name, "fft_fftfreq");
        for (int64_t i = 0; i < count; i++) {
            double v = full && i >= half ? (double)(i - half - n / 2) : (double)i;
            airc_cpu_store_f64(p + i * out->strides[0] * (int64_t)esz, dt, R(dt, R(dt, v) * scale));
        }
        return;
    }
    /* the overloads: periodic (default true), hamming's alpha and beta
     * (0.54, 0.46; hann 0.5, 0.5), kaiser's beta (12) */
    bool custom = strcmp(overload, "default") != 0, periodic = custom ? num(arg[1], 1) != 0 : true;
    bool hann = !strcmp(name, "hann_window"), kaiser = !strcmp(name, "kaiser_window");
    double alpha = hann ? 0.5 : 0.54, beta = hann ? 0.5 : kaiser ? 12.0 : 0.46;
    if (kaiser && !strcmp(overload, "beta"))
        beta = num(arg[2], beta);
    if (!strncmp(overload, "periodic_alpha", 14)) {
        alpha = num(arg[2], alpha);
        if (!strcmp(overload, "periodic_alpha_beta"))
            beta = num(arg[3], beta);
    }
    int64_t full_n = n + (periodic ? 1 : 0);
    for (int64_t i = 0; i < count; i++) {
        double v = n == 1 ? 1.0 : window_value(name, dt, full_n, i, alpha, beta);
        airc_cpu_store_f64(p + i * out->strides[0] * (int64_t)esz, dt, v);
    }
}

/* the window factories and fft_fftfreq / fft_rfftfreq */
airc_status airc_cpu_k_window(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    if (!k->op || k->out[0].ndim != 1)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "a 1-d result is needed");
    airc_cpu_window(&k->out[0], k->op->qualname, k->args, k->nargs);
    return AIRC_OK;
}
