/* Linalg family: grid_sampler_2d(input [N, C, H, W], grid [N, Ho, Wo, 2],
 * interpolation_mode, padding_mode, align_corners) -> [N, C, Ho, Wo], as
 * torch's CPU kernel computes it, step for step in its scalar type (f32
 * results round every step to float):
 *  - a grid value g becomes a pixel coordinate (g + 1) * (size - 1) / 2
 *    (align_corners) or (g + 1) * size / 2 - 0.5;
 *  - padding: zeros (taps outside read 0), border (the coordinate clipped
 *    into [0, size - 1]), reflection (reflected about the edges, or the
 *    outer pixel borders without align_corners, then clipped);
 *  - bilinear (0): the 4 neighbours, weights from the distances; nearest
 *    (1): the coordinate rounded half to even; bicubic (2): 4 x 4 taps with
 *    cubic convolution weights (A = -0.75), each tap's coordinate padded.
 * A tap outside the input reads 0 but keeps its weight, so a NaN or
 * infinite grid value gives NaN, as in torch.
 * grid_sampler_3d(input [N, C, D, H, W], grid [N, Do, Ho, Wo, 3], ...) as
 * torch's scalar 3-d kernel: its own unnormalize, clip and reflection
 * formulas (the sampler's scalar flag), trilinear or nearest (halves
 * rounded away from 0, not to even).
 * And affine_grid_generator, which makes such grids from affine matrices. */
#include "backends/cpu/k_linalg_impl.h"
#include "backends/cpu/parallel.h"

#include <math.h>
#include <string.h>

typedef struct sampler {
    bool f32;    /* round every step to float */
    bool align;  /* align_corners */
    int64_t pad; /* 0 zeros, 1 border, 2 reflection */
    bool scalar; /* torch's scalar (3-d) formulas, not its vectorized 2-d ones */
} sampler;

static double rnd(const sampler *s, double v)
{
    return s->f32 ? (double)(float)v : v;
}

static double unnormalize(const sampler *s, double g, int64_t size)
{
    if (s->scalar && s->align) /* ((g + 1) / 2) * (size - 1) */
        return rnd(s, rnd(s, rnd(s, g + 1) / 2) * rnd(s, (double)(size - 1)));
    if (s->scalar) /* ((g + 1) * size - 1) / 2 */
        return rnd(s, rnd(s, rnd(s, rnd(s, g + 1) * rnd(s, (double)size)) - 1) / 2);
    if (s->align)
        return rnd(s, rnd(s, g + 1) * rnd(s, (double)(size - 1) / 2));
    return rnd(s, rnd(s, rnd(s, g + 1) * rnd(s, (double)size / 2)) - 0.5);
}

/* NaN-propagating min / max, as torch's vector ops */
static double nan_max(double a, double b)
{
    return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
}

static double nan_min(double a, double b)
{
    return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
}

/* Into [0, size - 1]: the vectorized kernel propagates NaN; the scalar
 * one's std::min(size - 1, std::max(x, 0)) makes it size - 1. */
static double clip(const sampler *s, double x, int64_t size)
{
    double hi = rnd(s, (double)(size - 1));
    if (s->scalar)
        return x < 0 ? 0 : x < hi ? x : hi;
    return nan_min(hi, nan_max(x, 0));
}

/* The scalar kernel's reflection: |x - low| folded by fmod into the span,
 * mirrored when the count of whole spans is odd; a count past int's range
 * (or NaN) converts to INT_MIN, even, as x86 converts it. */
static double reflect_scalar(const sampler *s, double x, int64_t size)
{
    int64_t twice_low = s->align ? 0 : -1, twice_high = s->align ? 2 * (size - 1) : 2 * size - 1;
    if (twice_low == twice_high)
        return 0;
    double low = (double)twice_low / 2, span = rnd(s, (double)(twice_high - twice_low)) / 2;
    double a = fabs(rnd(s, x - low));
    double extra = fmod(a, span), q = floor(rnd(s, a / span));
    bool odd = q >= -2147483648.0 && q < 2147483648.0 && ((int64_t)q & 1);
    return odd ? rnd(s, rnd(s, span - extra) + low) : rnd(s, extra + low);
}

/* Reflection about [0, size - 1] (align_corners) or [-0.5, size - 0.5]. */
static double reflect(const sampler *s, double x, int64_t size)
{
    if (s->align ? size == 1 : size <= 0)
        return 0;
    double span = rnd(s, (double)(s->align ? (size - 1) * 2 : size * 2));
    double a = fabs(s->align ? x : rnd(s, x + 0.5));
    double flips = trunc(rnd(s, a / span));
    double extra = rnd(s, a - rnd(s, flips * span));
    double r = nan_min(extra, rnd(s, span - extra));
    return s->align ? r : rnd(s, r - 0.5);
}

/* The padding mode applied to a pixel coordinate. */
static double pad_coord(const sampler *s, double x, int64_t size)
{
    if (s->pad == 1)
        return clip(s, x, size);
    if (s->pad == 2)
        return clip(s, s->scalar ? reflect_scalar(s, x, size) : reflect(s, x, size), size);
    return x;
}

/* The element offset of integer coordinates (y, x) within a plane, or -1
 * outside it (a NaN or huge coordinate included): such a tap reads 0. */
static int64_t tap_at(const airc_tview *in, double y, double x)
{
    if (!(y >= 0 && y < (double)in->shape[2] && x >= 0 && x < (double)in->shape[3]))
        return -1;
    return (int64_t)y * in->strides[2] + (int64_t)x * in->strides[3];
}

static void cubic_coeffs(const sampler *s, double t, double c[4])
{
    const double a = -0.75;
    double x[4] = {rnd(s, t + 1), t, rnd(s, 1 - t), rnd(s, 2 - t)};
    for (int i = 0; i < 4; i++) {
        double v = x[i];
        if (i == 1 || i == 2) /* ((a + 2) x - (a + 3)) x x + 1 */
            c[i] = rnd(s, rnd(s, rnd(s, rnd(s, rnd(s, (a + 2) * v) - (a + 3)) * v) * v) + 1);
        else /* ((a x - 5a) x + 8a) x - 4a */
            c[i] = rnd(s, rnd(s, rnd(s, rnd(s, rnd(s, rnd(s, a * v) - 5 * a) * v) + 8 * a) * v) -
                              4 * a);
    }
}

/* The taps of one output pixel, the same for every channel: nearest, one
 * tap copied; bilinear, 4 taps weighted w[0..3] (nw, ne, sw, se), summed
 * in that order; bicubic, 16 taps (row-major), each row weighted by w[0..3]
 * and the rows by w[4..7]. */
typedef struct taps {
    int64_t off[16];
    double w[8];
} taps;

static void pixel_taps(const sampler *s, int64_t mode, const airc_tview *in, double y, double x,
                       taps *t)
{
    int64_t H = in->shape[2], W = in->shape[3];
    if (mode == 1) { /* nearest */
        t->off[0] = tap_at(in, nearbyint(pad_coord(s, y, H)), nearbyint(pad_coord(s, x, W)));
        return;
    }
    if (mode == 0) { /* bilinear */
        y = pad_coord(s, y, H);
        x = pad_coord(s, x, W);
        double x0 = floor(x), y0 = floor(y);
        double w = rnd(s, x - x0), e = rnd(s, 1 - w), n = rnd(s, y - y0), so = rnd(s, 1 - n);
        t->w[0] = rnd(s, so * e), t->w[1] = rnd(s, so * w);
        t->w[2] = rnd(s, n * e), t->w[3] = rnd(s, n * w);
        t->off[0] = tap_at(in, y0, x0), t->off[1] = tap_at(in, y0, x0 + 1);
        t->off[2] = tap_at(in, y0 + 1, x0), t->off[3] = tap_at(in, y0 + 1, x0 + 1);
        return;
    }
    /* bicubic: taps at floor - 1 .. floor + 2, each coordinate padded */
    double x0 = floor(x), y0 = floor(y);
    cubic_coeffs(s, rnd(s, x - x0), t->w);
    cubic_coeffs(s, rnd(s, y - y0), t->w + 4);
    for (int i = 0; i < 4; i++) {
        double ty = pad_coord(s, y0 - 1 + i, H);
        for (int j = 0; j < 4; j++)
            t->off[4 * i + j] = tap_at(in, ty, pad_coord(s, x0 - 1 + j, W));
    }
}

/* Every channel of one output pixel, in T (float for f32 results: the
 * same roundings as the sampler's, which emulates float in double). */
#define SAMPLE_CHANNELS(T, NAME)                                                                   \
    static void NAME(int64_t mode, const taps *t, const char *x, int64_t xc, int64_t nc, char *o,  \
                     int64_t oc)                                                                   \
    {                                                                                              \
        T w[8];                                                                                    \
        for (int i = 0; i < 8; i++)                                                                \
            w[i] = (T)t->w[i];                                                                     \
        int ntaps = mode == 1 ? 1 : mode == 0 ? 4 : 16;                                            \
        for (int64_t c = 0; c < nc; c++) {                                                         \
            const T *p = (const T *)x + c * xc;                                                    \
            T v[16];                                                                               \
            for (int k = 0; k < ntaps; k++)                                                        \
                v[k] = t->off[k] < 0 ? (T)0 : p[t->off[k]];                                        \
            T r;                                                                                   \
            if (mode == 1) {                                                                       \
                r = v[0];                                                                          \
            } else if (mode == 0) {                                                                \
                r = w[0] * v[0];                                                                   \
                r = r + w[1] * v[1];                                                               \
                r = r + w[2] * v[2];                                                               \
                r = r + w[3] * v[3];                                                               \
            } else {                                                                               \
                r = 0;                                                                             \
                for (int i = 0; i < 4; i++) {                                                      \
                    T row = w[0] * v[4 * i];                                                       \
                    for (int j = 1; j < 4; j++)                                                    \
                        row = row + w[j] * v[4 * i + j];                                           \
                    r = i ? r + w[4 + i] * row : w[4] * row;                                       \
                }                                                                                  \
            }                                                                                      \
            ((T *)o)[c * oc] = r;                                                                  \
        }                                                                                          \
    }
SAMPLE_CHANNELS(float, sample_f32)
SAMPLE_CHANNELS(double, sample_f64)
#undef SAMPLE_CHANNELS

/* What both samplers check: input [N, C, sp spatial dims], grid [N, sp
 * result dims, sp], result [N, C, those dims], all f32 or f64; the
 * interpolation mode (0..max_mode) into *mode and the sampler into *s. */
static airc_status sampler_args(airc_kernel_ctx *k, int32_t sp, int64_t max_mode, bool scalar,
                                int64_t *mode, sampler *s)
{
    const airc_tview *in = k->nargs >= 2 && k->in ? k->in[0] : NULL;
    const airc_tview *grid = in ? k->in[1] : NULL, *out = &k->out[0];
    int32_t nd = sp + 2;
    bool ok = in && grid && in->ndim == nd && grid->ndim == nd && out->ndim == nd &&
              grid->shape[nd - 1] == sp && grid->shape[0] == in->shape[0] &&
              out->shape[0] == in->shape[0] && out->shape[1] == in->shape[1];
    for (int32_t d = 0; ok && d < sp; d++)
        ok = out->shape[2 + d] == grid->shape[1 + d];
    if (!ok)
        return airc_cpu_fail(
            k, AIRC_E_INVALID_ARGUMENT, "expects input [N, C, %s] and grid [N, %s, %d]",
            sp == 2 ? "H, W" : "D, H, W", sp == 2 ? "Ho, Wo" : "Do, Ho, Wo", (int)sp);
    if ((out->dtype != AIRC_DTYPE_F32 && out->dtype != AIRC_DTYPE_F64) || in->dtype != out->dtype ||
        grid->dtype != out->dtype)
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED, "input, grid and result must be f32 or f64");
    *mode = airc_cpu_arg_int(k, 2, 0);
    *s = (sampler){out->dtype == AIRC_DTYPE_F32, airc_cpu_arg_bool(k, 4, false),
                   airc_cpu_arg_int(k, 3, 0), scalar};
    if (*mode < 0 || *mode > max_mode || s->pad < 0 || s->pad > 2)
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED, "interpolation or padding mode out of range");
    return AIRC_OK;
}

/* Output rows (image n, row i) of one grid_sampler_2d call. */
typedef struct rows2d {
    sampler s;
    int64_t mode;
    const airc_tview *in, *grid, *out;
} rows2d;

static void rows2d_chunk(void *arg, int64_t first, int64_t end)
{
    const rows2d *r = arg;
    const airc_tview *in = r->in, *grid = r->grid, *out = r->out;
    int64_t esz = (int64_t)airc_dtype_size(out->dtype);
    for (int64_t row = first; row < end; row++) {
        int64_t n = row / out->shape[2], i = row % out->shape[2];
        for (int64_t j = 0; j < out->shape[3]; j++) {
            const char *g =
                (const char *)grid->data +
                (n * grid->strides[0] + i * grid->strides[1] + j * grid->strides[2]) * esz;
            double gx = airc_cpu_load_f64(g, grid->dtype);
            double gy = airc_cpu_load_f64(g + grid->strides[3] * esz, grid->dtype);
            taps t;
            pixel_taps(&r->s, r->mode, in, unnormalize(&r->s, gy, in->shape[2]),
                       unnormalize(&r->s, gx, in->shape[3]), &t);
            const char *x = (const char *)in->data + n * in->strides[0] * esz;
            char *o = (char *)out->data +
                      (n * out->strides[0] + i * out->strides[2] + j * out->strides[3]) * esz;
            (r->s.f32 ? sample_f32 : sample_f64)(r->mode, &t, x, in->strides[1], out->shape[1], o,
                                                 out->strides[1]);
        }
    }
}

/* Each output pixel's taps, then its channels; output rows split between
 * threads. */
airc_status airc_cpu_k_grid_sampler_2d(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    rows2d r;
    AIRC_TRY(sampler_args(k, 2, 2, false, &r.mode, &r.s));
    r.in = k->in[0];
    r.grid = k->in[1];
    r.out = &k->out[0];
    /* a row costs its width times the channels */
    int64_t per_row = r.out->shape[3] * (r.out->shape[1] > 0 ? r.out->shape[1] : 1);
    airc_cpu_parallel_for(k->num_threads, r.out->shape[0] * r.out->shape[2],
                          airc_cpu_grain(per_row, (int64_t)1 << 14), rows2d_chunk, &r);
    return AIRC_OK;
}

/* ---- grid_sampler_3d ------------------------------------------------------- */

/* torch's 3-d kernel is scalar: it skips the taps outside the input (a
 * NaN or huge coordinate converts to an index outside it), so a voxel keeps
 * only its in-bounds taps, in torch's order (top then bottom; north then
 * south; west then east), and sums v * w over them from 0. The taps of a
 * block of voxels are found first, then each channel runs over the block:
 * a channel's plane stays in cache while the block reads it. */
enum { VOXEL_BLOCK = 256 };

typedef struct voxel_taps {
    int64_t off[8];
    double w[8];
    float wf[8];
    int n;
} voxel_taps;

/* The in-bounds integer coordinate, or false: floor / nearbyint of a NaN or
 * out-of-range value converts to INT64_MIN in torch, outside the input. */
static bool in_range(double c, int64_t size)
{
    return c >= 0 && c < (double)size;
}

static void voxel_taps_of(const sampler *s, int64_t mode, const airc_tview *in, double z, double y,
                          double x, voxel_taps *t)
{
    const int64_t *sz = in->shape + 2, *st = in->strides + 2;
    t->n = 0;
    if (mode == 1) { /* nearest: torch 1.13's 3-d kernel rounds halves away from 0 */
        z = round(z), y = round(y), x = round(x);
        if (in_range(z, sz[0]) && in_range(y, sz[1]) && in_range(x, sz[2])) {
            t->off[0] = (int64_t)z * st[0] + (int64_t)y * st[1] + (int64_t)x * st[2];
            t->n = 1;
        }
        return;
    }
    double c0[3] = {floor(z), floor(y), floor(x)}, c[3] = {z, y, x}, lo[3], hi[3];
    for (int d = 0; d < 3; d++) { /* (c0 + 1) - c and c - c0 */
        lo[d] = rnd(s, rnd(s, c0[d] + 1) - c[d]);
        hi[d] = rnd(s, c[d] - rnd(s, c0[d]));
    }
    for (int k = 0; k < 8; k++) { /* bit 2: bottom (z + 1), bit 1: south, bit 0: east */
        int dz = k >> 2, dy = (k >> 1) & 1, dx = k & 1;
        double tz = c0[0] + dz, ty = c0[1] + dy, tx = c0[2] + dx;
        if (!in_range(tz, sz[0]) || !in_range(ty, sz[1]) || !in_range(tx, sz[2]))
            continue;
        double w = rnd(s, (dx ? hi[2] : lo[2]) * (dy ? hi[1] : lo[1]));
        t->w[t->n] = rnd(s, w * (dz ? hi[0] : lo[0]));
        t->wf[t->n] = (float)t->w[t->n];
        t->off[t->n++] = (int64_t)tz * st[0] + (int64_t)ty * st[1] + (int64_t)tx * st[2];
    }
}

/* One channel of a block of voxels, in T (float for f32: every product and
 * sum rounded as torch's float kernel). */
#define SAMPLE_BLOCK(T, W, NAME)                                                                   \
    static void NAME(int64_t mode, const voxel_taps *t, int64_t nv, const T *p, T *o,              \
                     const int64_t *ooff)                                                          \
    {                                                                                              \
        for (int64_t v = 0; v < nv; v++) {                                                         \
            const voxel_taps *tv = &t[v];                                                          \
            T r = 0;                                                                               \
            if (mode == 1) {                                                                       \
                if (tv->n)                                                                         \
                    r = p[tv->off[0]];                                                             \
            } else {                                                                               \
                for (int k = 0; k < tv->n; k++)                                                    \
                    r = r + p[tv->off[k]] * (T)tv->W[k];                                           \
            }                                                                                      \
            o[ooff[v]] = r;                                                                        \
        }                                                                                          \
    }
SAMPLE_BLOCK(float, wf, block_f32)
SAMPLE_BLOCK(double, w, block_f64)
#undef SAMPLE_BLOCK

airc_status airc_cpu_k_grid_sampler_3d(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    int64_t mode;
    sampler s;
    AIRC_TRY(sampler_args(k, 3, 1, true, &mode, &s));
    const airc_tview *in = k->in[0], *grid = k->in[1], *out = &k->out[0];
    if (airc_cpu_numel(out) == 0)
        return AIRC_OK;
    int64_t Do = out->shape[2], Ho = out->shape[3], Wo = out->shape[4];
    int64_t nvox = Do * Ho * Wo; /* the (non-empty) result's element count bounds it */
    voxel_taps *t = airc_malloc(k->ctx, VOXEL_BLOCK * (sizeof *t + sizeof(int64_t)));
    if (!t)
        return airc_cpu_oom(k, "the taps of a block of voxels");
    int64_t *ooff = (int64_t *)(t + VOXEL_BLOCK);
    int64_t esz = (int64_t)airc_dtype_size(out->dtype);
    const int64_t *gs = grid->strides;
    for (int64_t n = 0; n < out->shape[0]; n++) {
        int64_t d = 0, h = 0, w = 0; /* the block's next voxel */
        for (int64_t v0 = 0; v0 < nvox; v0 += VOXEL_BLOCK) {
            int64_t nv = nvox - v0 < VOXEL_BLOCK ? nvox - v0 : VOXEL_BLOCK;
            for (int64_t v = 0; v < nv; v++) {
                const char *g = (const char *)grid->data +
                                (n * gs[0] + d * gs[1] + h * gs[2] + w * gs[3]) * esz;
                ooff[v] = d * out->strides[2] + h * out->strides[3] + w * out->strides[4];
                double c[3];
                for (int i = 0; i < 3; i++) { /* x, y, z sample W, H, D */
                    const char *gi = g + i * gs[4] * esz;
                    c[i] = unnormalize(&s, s.f32 ? (double)*(const float *)gi : *(const double *)gi,
                                       in->shape[4 - i]);
                }
                voxel_taps_of(&s, mode, in, pad_coord(&s, c[2], in->shape[2]),
                              pad_coord(&s, c[1], in->shape[3]), pad_coord(&s, c[0], in->shape[4]),
                              &t[v]);
                if (++w == Wo && (w = 0, ++h == Ho))
                    h = 0, d++;
            }
            for (int64_t ch = 0; ch < out->shape[1]; ch++) {
                const char *p =
                    (const char *)in->data + (n * in->strides[0] + ch * in->strides[1]) * esz;
                char *o = (char *)out->data + (n * out->strides[0] + ch * out->strides[1]) * esz;
                if (s.f32)
                    block_f32(mode, t, nv, (const float *)p, (float *)o, ooff);
                else
                    block_f64(mode, t, nv, (const double *)p, (double *)o, ooff);
            }
        }
    }
    airc_free(k->ctx, t);
    return AIRC_OK;
}

/* ---- affine_grid_generator ------------------------------------------------- */

void airc_cpu_affine_base(airc_dtype dt, int64_t n, bool align, double *out)
{
    sampler s = {dt != AIRC_DTYPE_F64, align, 0, false};
    double step = n > 1 ? rnd(&s, 2.0 / (double)(n - 1)) : 0;
    for (int64_t i = 0; i < n; i++) {
        double v = 0;
        if (n > 1) { /* torch's linspace (from both ends towards the middle),
                      * then tensor ops in dt */
            v = airc_cpu_round_f64(dt, i < n / 2
                                           ? rnd(&s, -1 + rnd(&s, step * (double)i))
                                           : rnd(&s, 1 - rnd(&s, step * (double)(n - 1 - i))));
            if (!align)
                v = airc_cpu_round_f64(dt, airc_cpu_round_f64(dt, v * (double)(n - 1)) / (double)n);
        }
        out[i] = v;
    }
}

/* affine_grid_generator(theta [N, 2, 3], size [N, C, H, W], align_corners)
 * -> [N, H, W, 2]: the base grid (x, y, 1) of each pixel times theta's
 * rows, as torch's bmm of the two (in the opmath type). */
airc_status airc_cpu_k_affine_grid_generator(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *t = k->nargs && k->in ? k->in[0] : NULL, *o = &k->out[0];
    if (!t || t->ndim != 3 || t->shape[2] != 3 || o->ndim != 4 || o->shape[0] != t->shape[0] ||
        o->shape[3] != 2)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                             "expects theta [N, 2, 3] and a result [N, H, W, 2]");
    if (airc_cpu_numel(o) == 0)
        return AIRC_OK;
    if (t->shape[1] != 2)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "expects theta [N, 2, 3]");
    int64_t H = o->shape[1], W = o->shape[2];
    double *base = airc_malloc(k->ctx, (size_t)(H + W + 1) * sizeof *base);
    if (!base)
        return airc_cpu_oom(k, "the base grid");
    bool align = airc_cpu_arg_bool(k, 2, false);
    airc_cpu_affine_base(o->dtype, W, align, base);
    airc_cpu_affine_base(o->dtype, H, align, base + W);
    sampler s = {o->dtype != AIRC_DTYPE_F64, align, 0, false};
    int64_t te = (int64_t)airc_dtype_size(t->dtype), oe = (int64_t)airc_dtype_size(o->dtype);
    for (int64_t n = 0; n < o->shape[0]; n++)
        for (int64_t r = 0; r < 2; r++) {
            double th[3];
            for (int j = 0; j < 3; j++)
                th[j] = airc_cpu_load_f64(
                    (const char *)t->data +
                        (n * t->strides[0] + r * t->strides[1] + j * t->strides[2]) * te,
                    t->dtype);
            for (int64_t h = 0; h < H; h++)
                for (int64_t w = 0; w < W; w++) {
                    double v = rnd(&s, base[w] * th[0]);
                    v = rnd(&s, v + rnd(&s, base[W + h] * th[1]));
                    v = rnd(&s, v + th[2]);
                    int64_t off = n * o->strides[0] + h * o->strides[1] + w * o->strides[2] +
                                  r * o->strides[3];
                    airc_cpu_store_f64((char *)o->data + off * oe, o->dtype, v);
                }
        }
    airc_free(k->ctx, base);
    return AIRC_OK;
}
