/* Body of the reduce family's SIMD loops, compiled once per ISA: the
 * including file sets the target (#pragma GCC target) before any include,
 * then defines KS_VW (f32 lanes), KS_EXPF(v) (SLEEF's exp for that width,
 * on ks_vf), KS_ISA and KS_TABLE, and includes this file. Written with GCC
 * vector extensions so one text serves every width; no run-time ISA test
 * here (the dispatcher in k_reduce_rows.c picks the table).
 *
 * Numerics: sums are accumulated in double (halves of a float vector
 * converted), max/min propagate NaN as torch does, softmax subtracts the
 * row max and uses SLEEF's 1-ulp exp. Tails go through the same vector code
 * on a padded copy, so a row's result does not depend on where it ends. */
#include <string.h>

typedef float ks_vf __attribute__((vector_size(KS_VW * 4)));
typedef int32_t ks_vi __attribute__((vector_size(KS_VW * 4)));
typedef float ks_vh __attribute__((vector_size(KS_VW * 2)));
typedef double ks_vd __attribute__((vector_size(KS_VW * 4)));

#define KS_H (KS_VW / 2)
#define KS_INLINE static inline __attribute__((always_inline))

#ifndef KS_EXPF
/* no SLEEF variant for this target: libm per lane */
KS_INLINE ks_vf ks_expf_lanes(ks_vf v)
{
    for (int l = 0; l < KS_VW; l++)
        v[l] = expf(v[l]);
    return v;
}
#define KS_EXPF(v) ks_expf_lanes(v)
#endif

KS_INLINE ks_vf ks_load(const float *p)
{
    ks_vf v;
    memcpy(&v, p, sizeof v);
    return v;
}

KS_INLINE void ks_store(float *p, ks_vf v)
{
    memcpy(p, &v, sizeof v);
}

/* cnt < KS_VW lanes from p, the rest `fill` */
KS_INLINE ks_vf ks_load_part(const float *p, int64_t cnt, float fill)
{
    float buf[KS_VW];
    for (int64_t l = 0; l < KS_VW; l++)
        buf[l] = l < cnt ? p[l] : fill;
    return ks_load(buf);
}

KS_INLINE void ks_store_part(float *p, ks_vf v, int64_t cnt)
{
    float buf[KS_VW];
    ks_store(buf, v);
    memcpy(p, buf, (size_t)cnt * sizeof *p);
}

KS_INLINE ks_vd ks_load_dv(const double *p)
{
    ks_vd v;
    memcpy(&v, p, sizeof v);
    return v;
}

KS_INLINE void ks_store_dv(double *p, ks_vd v)
{
    memcpy(p, &v, sizeof v);
}

/* KS_H floats at p widened to double */
KS_INLINE ks_vd ks_widen(const float *p)
{
    ks_vh h;
    memcpy(&h, p, sizeof h);
    return __builtin_convertvector(h, ks_vd);
}

/* half h (0 low, 1 high) of v widened */
KS_INLINE ks_vd ks_widen_half(ks_vf v, int h)
{
    ks_vh p;
    memcpy(&p, (const char *)&v + h * sizeof p, sizeof p);
    return __builtin_convertvector(p, ks_vd);
}

/* both halves of v, widened and added */
KS_INLINE ks_vd ks_widen_sum(ks_vf v)
{
    ks_vh lo, hi;
    memcpy(&lo, &v, sizeof lo);
    memcpy(&hi, (const char *)&v + sizeof lo, sizeof hi);
    return __builtin_convertvector(lo, ks_vd) + __builtin_convertvector(hi, ks_vd);
}

KS_INLINE ks_vf ks_splat(float f)
{
    ks_vf z = {0};
    return z + f;
}

KS_INLINE ks_vf ks_select(ks_vi m, ks_vf a, ks_vf b)
{
    return (ks_vf)(((ks_vi)a & m) | ((ks_vi)b & ~m));
}

/* torch's max/min: a NaN wins and stays */
KS_INLINE ks_vf ks_vmax(ks_vf v, ks_vf m)
{
    return ks_select((v > m) | (v != v), v, m);
}

KS_INLINE ks_vf ks_vmin(ks_vf v, ks_vf m)
{
    return ks_select((v < m) | (v != v), v, m);
}

KS_INLINE float ks_max1(float v, float m)
{
    return (v > m || v != v) ? v : m;
}

KS_INLINE float ks_min1(float v, float m)
{
    return (v < m || v != v) ? v : m;
}

KS_INLINE double ks_hsum(ks_vd v)
{
    double s = 0;
    for (int l = 0; l < KS_H; l++)
        s += v[l];
    return s;
}

static double ks_sum(const float *x, int64_t n)
{
    ks_vd a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};
    int64_t i = 0;
    for (; i + 2 * KS_VW <= n; i += 2 * KS_VW) {
        a0 += ks_widen(x + i);
        a1 += ks_widen(x + i + KS_H);
        a2 += ks_widen(x + i + 2 * KS_H);
        a3 += ks_widen(x + i + 3 * KS_H);
    }
    double s = ks_hsum((a0 + a1) + (a2 + a3));
    for (; i < n; i++)
        s += x[i];
    return s;
}

static double ks_sqdev(const float *x, int64_t n, double mean)
{
    ks_vd a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};
    ks_vd m = {0};
    m += mean;
    int64_t i = 0;
    for (; i + 2 * KS_VW <= n; i += 2 * KS_VW) {
        ks_vd d0 = ks_widen(x + i) - m, d1 = ks_widen(x + i + KS_H) - m;
        ks_vd d2 = ks_widen(x + i + 2 * KS_H) - m, d3 = ks_widen(x + i + 3 * KS_H) - m;
        a0 += d0 * d0;
        a1 += d1 * d1;
        a2 += d2 * d2;
        a3 += d3 * d3;
    }
    double s = ks_hsum((a0 + a1) + (a2 + a3));
    for (; i < n; i++) {
        double d = (double)x[i] - mean;
        s += d * d;
    }
    return s;
}

static float ks_max(const float *x, int64_t n)
{
    float m = x[0];
    int64_t i = 0;
    if (n >= KS_VW) {
        ks_vf m0 = ks_load(x), m1 = m0;
        for (i = KS_VW; i + 2 * KS_VW <= n; i += 2 * KS_VW) {
            m0 = ks_vmax(ks_load(x + i), m0);
            m1 = ks_vmax(ks_load(x + i + KS_VW), m1);
        }
        m0 = ks_vmax(m1, m0);
        for (int l = 0; l < KS_VW; l++)
            m = ks_max1(m0[l], m);
    }
    for (; i < n; i++)
        m = ks_max1(x[i], m);
    return m;
}

static float ks_min(const float *x, int64_t n)
{
    float m = x[0];
    int64_t i = 0;
    if (n >= KS_VW) {
        ks_vf m0 = ks_load(x), m1 = m0;
        for (i = KS_VW; i + 2 * KS_VW <= n; i += 2 * KS_VW) {
            m0 = ks_vmin(ks_load(x + i), m0);
            m1 = ks_vmin(ks_load(x + i + KS_VW), m1);
        }
        m0 = ks_vmin(m1, m0);
        for (int l = 0; l < KS_VW; l++)
            m = ks_min1(m0[l], m);
    }
    for (; i < n; i++)
        m = ks_min1(x[i], m);
    return m;
}

static void ks_col_sum(const float *x, double *acc, int64_t n)
{
    int64_t j = 0;
    for (; j + KS_H <= n; j += KS_H)
        ks_store_dv(acc + j, ks_load_dv(acc + j) + ks_widen(x + j));
    for (; j < n; j++)
        acc[j] += x[j];
}

static void ks_col_sqdev(const float *x, const double *mean, double *acc, int64_t n)
{
    int64_t j = 0;
    for (; j + KS_H <= n; j += KS_H) {
        ks_vd d = ks_widen(x + j) - ks_load_dv(mean + j);
        ks_store_dv(acc + j, ks_load_dv(acc + j) + d * d);
    }
    for (; j < n; j++) {
        double d = (double)x[j] - mean[j];
        acc[j] += d * d;
    }
}

static void ks_col_max(const float *x, float *acc, int64_t n)
{
    int64_t j = 0;
    for (; j + KS_VW <= n; j += KS_VW)
        ks_store(acc + j, ks_vmax(ks_load(x + j), ks_load(acc + j)));
    for (; j < n; j++)
        acc[j] = ks_max1(x[j], acc[j]);
}

static void ks_col_min(const float *x, float *acc, int64_t n)
{
    int64_t j = 0;
    for (; j + KS_VW <= n; j += KS_VW)
        ks_store(acc + j, ks_vmin(ks_load(x + j), ks_load(acc + j)));
    for (; j < n; j++)
        acc[j] = ks_min1(x[j], acc[j]);
}

/* exp(x - m) summed: float lanes over blocks of at most 64 vectors (error
 * well under 1e-5 relative), flushed into double */
static void ks_softmax(const float *x, float *y, int64_t n, bool take_log)
{
    if (n <= 0)
        return;
    float m = ks_max(x, n);
    ks_vf mv = ks_splat(m);
    ks_vd sd = {0};
    int64_t i = 0;
    while (i + 2 * KS_VW <= n) {
        ks_vf s0 = {0}, s1 = {0};
        int64_t end = i + 64 * KS_VW < n ? i + 64 * KS_VW : n;
        for (; i + 2 * KS_VW <= end; i += 2 * KS_VW) {
            ks_vf e0 = KS_EXPF(ks_load(x + i) - mv);
            ks_vf e1 = KS_EXPF(ks_load(x + i + KS_VW) - mv);
            if (!take_log) {
                ks_store(y + i, e0);
                ks_store(y + i + KS_VW, e1);
            }
            s0 += e0;
            s1 += e1;
        }
        sd += ks_widen_sum(s0 + s1);
    }
    for (; i < n; i += KS_VW) {
        int64_t cnt = n - i < KS_VW ? n - i : KS_VW;
        /* padding exp(-inf - m) = 0 adds nothing */
        ks_vf e = KS_EXPF(ks_load_part(x + i, cnt, -INFINITY) - mv);
        if (!take_log)
            ks_store_part(y + i, e, cnt);
        sd += ks_widen_sum(e);
    }
    double s = ks_hsum(sd);
    if (!take_log) {
        ks_vf scale = ks_splat((float)(1.0 / s));
        for (i = 0; i + KS_VW <= n; i += KS_VW)
            ks_store(y + i, ks_load(y + i) * scale);
        for (; i < n; i++)
            y[i] *= scale[0];
        return;
    }
    float ls = (float)log(s);
    ks_vf lv = ks_splat(ls);
    for (i = 0; i + KS_VW <= n; i += KS_VW)
        ks_store(y + i, (ks_load(x + i) - mv) - lv);
    for (; i < n; i++)
        y[i] = (x[i] - m) - ls;
}

static void ks_softmax_cols(const float *x, float *y, int64_t n, int64_t inner, bool take_log,
                            void *ws)
{
    if (n <= 0 || inner <= 0)
        return;
    double *sm = ws;
    float *mx = (float *)(sm + inner), *aux = mx + inner;
    memcpy(mx, x, (size_t)inner * sizeof *mx);
    for (int64_t r = 1; r < n; r++)
        ks_col_max(x + r * inner, mx, inner);
    memset(sm, 0, (size_t)inner * sizeof *sm);
    for (int64_t r = 0; r < n; r++) {
        const float *xr = x + r * inner;
        float *yr = y + r * inner;
        int64_t j = 0;
        for (; j + KS_VW <= inner; j += KS_VW) {
            ks_vf e = KS_EXPF(ks_load(xr + j) - ks_load(mx + j));
            if (!take_log)
                ks_store(yr + j, e);
            ks_store_dv(sm + j, ks_load_dv(sm + j) + ks_widen_half(e, 0));
            ks_store_dv(sm + j + KS_H, ks_load_dv(sm + j + KS_H) + ks_widen_half(e, 1));
        }
        if (j < inner) {
            int64_t cnt = inner - j;
            ks_vf e = KS_EXPF(ks_load_part(xr + j, cnt, 0) - ks_load_part(mx + j, cnt, 0));
            float eb[KS_VW];
            ks_store(eb, e);
            if (!take_log)
                memcpy(yr + j, eb, (size_t)cnt * sizeof *eb);
            for (int64_t l = 0; l < cnt; l++)
                sm[j + l] += eb[l];
        }
    }
    for (int64_t j = 0; j < inner; j++)
        aux[j] = take_log ? (float)log(sm[j]) : (float)(1.0 / sm[j]);
    for (int64_t r = 0; r < n; r++) {
        const float *xr = x + r * inner;
        float *yr = y + r * inner;
        int64_t j = 0;
        for (; j + KS_VW <= inner; j += KS_VW) {
            if (take_log)
                ks_store(yr + j, (ks_load(xr + j) - ks_load(mx + j)) - ks_load(aux + j));
            else
                ks_store(yr + j, ks_load(yr + j) * ks_load(aux + j));
        }
        for (; j < inner; j++)
            yr[j] = take_log ? (xr[j] - mx[j]) - aux[j] : yr[j] * aux[j];
    }
}

static void ks_norm_apply(const float *x, float *y, int64_t n, float a, float c, const float *w,
                          const float *b)
{
    ks_vf av = ks_splat(a), cv = ks_splat(c);
    int64_t i = 0;
    if (w && b) {
        for (; i + KS_VW <= n; i += KS_VW)
            ks_store(y + i, (ks_load(x + i) * av + cv) * ks_load(w + i) + ks_load(b + i));
        for (; i < n; i++)
            y[i] = (x[i] * a + c) * w[i] + b[i];
    } else {
        for (; i + KS_VW <= n; i += KS_VW)
            ks_store(y + i, ks_load(x + i) * av + cv);
        for (; i < n; i++)
            y[i] = x[i] * a + c;
    }
}

const airc_kred_simd KS_TABLE = {
    KS_ISA,      ks_sum,     ks_sqdev,   ks_max,          ks_min,        ks_col_sum,
    ks_col_sqdev, ks_col_max, ks_col_min, ks_softmax, ks_softmax_cols, ks_norm_apply,
};
