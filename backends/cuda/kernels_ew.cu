/* Device code of the CUDA elementwise kernels (f32): unary and binary ops
 * over strided, broadcast operands, and reshape's row-major copy. One
 * thread per element in a grid-stride loop; a contiguous layout skips the
 * index arithmetic. The host side (kernels_ew.c) validates and coalesces. */
#include "cuda_ew.h"

#include <cuda_runtime.h>

namespace
{

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = int64_t(1) << 20;

int blocks_for(int64_t n)
{
    int64_t b = (n + kThreads - 1) / kThreads;
    return int(b < kMaxBlocks ? b : kMaxBlocks);
}

template <int OP> __device__ __forceinline__ float unary(float x)
{
    if constexpr (OP == AIRC_CUDA_UNARY_RELU)
        return isnan(x) ? x : (x > 0.0f ? x : 0.0f);
    else if constexpr (OP == AIRC_CUDA_UNARY_ABS)
        return fabsf(x);
    else if constexpr (OP == AIRC_CUDA_UNARY_NEG)
        return -x;
    else if constexpr (OP == AIRC_CUDA_UNARY_EXP)
        return expf(x);
    else if constexpr (OP == AIRC_CUDA_UNARY_TANH)
        return tanhf(x);
    else if constexpr (OP == AIRC_CUDA_UNARY_SIGMOID)
        return 1.0f / (1.0f + expf(-x));
    else
        return x;
}

template <int OP> __device__ __forceinline__ float binary(float a, float b, float alpha)
{
    if constexpr (OP == AIRC_CUDA_BINARY_ADD)
        return a + alpha * b;
    else if constexpr (OP == AIRC_CUDA_BINARY_SUB)
        return a - alpha * b;
    else if constexpr (OP == AIRC_CUDA_BINARY_MUL)
        return a * b;
    else
        return a / b;
}

/* Offsets (elements) of linear index i in each of the NOPS operands. */
template <int NOPS>
__device__ __forceinline__ void offsets(const airc_cuda_ew_layout &l, int64_t i, int64_t *off)
{
    for (int k = 0; k < NOPS; k++)
        off[k] = 0;
    for (int d = l.ndim - 1; d >= 0; d--) {
        int64_t s = l.shape[d];
        int64_t idx = i % s;
        i /= s;
        for (int k = 0; k < NOPS; k++)
            off[k] += idx * l.stride[k][d];
    }
}

template <int OP, bool CONTIG>
__global__ void unary_kernel(const airc_cuda_ew_layout l, float *out, const float *a)
{
    int64_t step = int64_t(gridDim.x) * blockDim.x;
    for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < l.numel; i += step) {
        if (CONTIG) {
            out[i] = unary<OP>(a[i]);
        } else {
            int64_t off[2];
            offsets<2>(l, i, off);
            out[off[0]] = unary<OP>(a[off[1]]);
        }
    }
}

template <int OP, bool CONTIG>
__global__ void binary_kernel(const airc_cuda_ew_layout l, float *out, const float *a,
                              float a_value, const float *b, float b_value, float alpha)
{
    int64_t step = int64_t(gridDim.x) * blockDim.x;
    for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < l.numel; i += step) {
        if (CONTIG) {
            float x = a ? a[i] : a_value, y = b ? b[i] : b_value;
            out[i] = binary<OP>(x, y, alpha);
        } else {
            int64_t off[3];
            offsets<3>(l, i, off);
            float x = a ? a[off[1]] : a_value, y = b ? b[off[2]] : b_value;
            out[off[0]] = binary<OP>(x, y, alpha);
        }
    }
}

/* Unit strides on every operand of a 1-d layout (a NULL operand's strides
 * are ignored: the host sets them to 0). */
bool contiguous(const airc_cuda_ew_layout *l, int nops, const void *const *ptrs)
{
    if (l->ndim > 1)
        return false;
    if (l->ndim == 0)
        return true;
    for (int k = 0; k < nops; k++)
        if (ptrs[k] && l->stride[k][0] != 1)
            return false;
    return true;
}

template <int OP>
cudaError_t launch_unary(const airc_cuda_ew_layout *l, float *out, const float *a, cudaStream_t s)
{
    const void *ptrs[2] = {out, a};
    if (contiguous(l, 2, ptrs))
        unary_kernel<OP, true><<<blocks_for(l->numel), kThreads, 0, s>>>(*l, out, a);
    else
        unary_kernel<OP, false><<<blocks_for(l->numel), kThreads, 0, s>>>(*l, out, a);
    return cudaGetLastError();
}

template <int OP>
cudaError_t launch_binary(const airc_cuda_ew_layout *l, float *out, const float *a, float av,
                          const float *b, float bv, float alpha, cudaStream_t s)
{
    const void *ptrs[3] = {out, a, b};
    if (contiguous(l, 3, ptrs))
        binary_kernel<OP, true>
            <<<blocks_for(l->numel), kThreads, 0, s>>>(*l, out, a, av, b, bv, alpha);
    else
        binary_kernel<OP, false>
            <<<blocks_for(l->numel), kThreads, 0, s>>>(*l, out, a, av, b, bv, alpha);
    return cudaGetLastError();
}

/* reshape: element i of out (its layout) is element i of a in row-major
 * order (a's layout). */
struct reshape_args {
    int32_t ndim[2];
    int64_t shape[2][AIRC_CUDA_MAX_DIMS];
    int64_t stride[2][AIRC_CUDA_MAX_DIMS];
};

__device__ __forceinline__ int64_t offset_of(const reshape_args &r, int k, int64_t i)
{
    int64_t off = 0;
    for (int d = r.ndim[k] - 1; d >= 0; d--) {
        int64_t s = r.shape[k][d];
        off += (i % s) * r.stride[k][d];
        i /= s;
    }
    return off;
}

__global__ void reshape_kernel(const reshape_args r, int64_t n, float *out, const float *a)
{
    int64_t step = int64_t(gridDim.x) * blockDim.x;
    for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
        out[offset_of(r, 0, i)] = a[offset_of(r, 1, i)];
}

} // namespace

extern "C" int airc_cuda_ew_unary_f32(int op, const airc_cuda_ew_layout *l, float *out,
                                      const float *a, cudaStream_t s)
{
    if (l->numel <= 0)
        return cudaSuccess;
    switch (op) {
    case AIRC_CUDA_UNARY_RELU: return launch_unary<AIRC_CUDA_UNARY_RELU>(l, out, a, s);
    case AIRC_CUDA_UNARY_ABS: return launch_unary<AIRC_CUDA_UNARY_ABS>(l, out, a, s);
    case AIRC_CUDA_UNARY_NEG: return launch_unary<AIRC_CUDA_UNARY_NEG>(l, out, a, s);
    case AIRC_CUDA_UNARY_EXP: return launch_unary<AIRC_CUDA_UNARY_EXP>(l, out, a, s);
    case AIRC_CUDA_UNARY_TANH: return launch_unary<AIRC_CUDA_UNARY_TANH>(l, out, a, s);
    case AIRC_CUDA_UNARY_SIGMOID: return launch_unary<AIRC_CUDA_UNARY_SIGMOID>(l, out, a, s);
    case AIRC_CUDA_UNARY_COPY: return launch_unary<AIRC_CUDA_UNARY_COPY>(l, out, a, s);
    default: return cudaErrorInvalidValue;
    }
}

extern "C" int airc_cuda_ew_binary_f32(int op, const airc_cuda_ew_layout *l, float *out,
                                       const float *a, float av, const float *b, float bv,
                                       float alpha, cudaStream_t s)
{
    if (l->numel <= 0)
        return cudaSuccess;
    switch (op) {
    case AIRC_CUDA_BINARY_ADD:
        return launch_binary<AIRC_CUDA_BINARY_ADD>(l, out, a, av, b, bv, alpha, s);
    case AIRC_CUDA_BINARY_SUB:
        return launch_binary<AIRC_CUDA_BINARY_SUB>(l, out, a, av, b, bv, alpha, s);
    case AIRC_CUDA_BINARY_MUL:
        return launch_binary<AIRC_CUDA_BINARY_MUL>(l, out, a, av, b, bv, alpha, s);
    case AIRC_CUDA_BINARY_DIV:
        return launch_binary<AIRC_CUDA_BINARY_DIV>(l, out, a, av, b, bv, alpha, s);
    default: return cudaErrorInvalidValue;
    }
}

extern "C" int airc_cuda_reshape_copy_f32(int64_t numel, int32_t out_ndim, const int64_t *out_shape,
                                          const int64_t *out_strides, float *out, int32_t a_ndim,
                                          const int64_t *a_shape, const int64_t *a_strides,
                                          const float *a, cudaStream_t s)
{
    if (numel <= 0)
        return cudaSuccess;
    if (out_ndim < 0 || out_ndim > AIRC_CUDA_MAX_DIMS || a_ndim < 0 || a_ndim > AIRC_CUDA_MAX_DIMS)
        return cudaErrorInvalidValue;
    reshape_args r = {};
    r.ndim[0] = out_ndim;
    r.ndim[1] = a_ndim;
    for (int d = 0; d < out_ndim; d++) {
        r.shape[0][d] = out_shape[d];
        r.stride[0][d] = out_strides[d];
    }
    for (int d = 0; d < a_ndim; d++) {
        r.shape[1][d] = a_shape[d];
        r.stride[1][d] = a_strides[d];
    }
    reshape_kernel<<<blocks_for(numel), kThreads, 0, s>>>(r, numel, out, a);
    return cudaGetLastError();
}
