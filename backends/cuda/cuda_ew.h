/* The CUDA elementwise launchers: the boundary between airc's C kernels
 * (kernels_ew.c: arguments, dtypes, layouts) and the device code
 * (kernels_ew.cu). C and C++ alike; no airc headers, so nvcc never sees
 * airc's internals. Every launcher enqueues on `stream` and returns the
 * cudaError_t of the launch (cudaSuccess = 0). */
#ifndef AIRC_CUDA_EW_H
#define AIRC_CUDA_EW_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Equal to AIRC_MAX_DIMS (kernels_ew.c checks). */
#define AIRC_CUDA_MAX_DIMS 16

/* An iteration space of up to three operands (0: the output, 1 and 2: the
 * inputs), strides in elements, stride 0 for a broadcast dimension. The
 * host coalesces dimensions before launching, so ndim is usually 1 or 2;
 * ndim 1 with unit strides takes the contiguous path. */
typedef struct airc_cuda_ew_layout {
    int32_t ndim;
    int64_t numel;
    int64_t shape[AIRC_CUDA_MAX_DIMS];
    int64_t stride[3][AIRC_CUDA_MAX_DIMS];
} airc_cuda_ew_layout;

enum {
    AIRC_CUDA_UNARY_RELU,
    AIRC_CUDA_UNARY_ABS,
    AIRC_CUDA_UNARY_NEG,
    AIRC_CUDA_UNARY_EXP,
    AIRC_CUDA_UNARY_TANH,
    AIRC_CUDA_UNARY_SIGMOID,
    AIRC_CUDA_UNARY_COPY /* out = a: strided copies (clone, reshape of a view) */
};

enum { AIRC_CUDA_BINARY_ADD, AIRC_CUDA_BINARY_SUB, AIRC_CUDA_BINARY_MUL, AIRC_CUDA_BINARY_DIV };

/* out = op(a) over l (f32). */
int airc_cuda_ew_unary_f32(int op, const airc_cuda_ew_layout *l, float *out, const float *a,
                           cudaStream_t stream);

/* out = op(a, b) over l (f32). An operand whose pointer is NULL is the
 * number given beside it (a Scalar argument). ADD and SUB compute
 * a + alpha * b and a - alpha * b, as torch's alpha does. */
int airc_cuda_ew_binary_f32(int op, const airc_cuda_ew_layout *l, float *out, const float *a,
                            float a_value, const float *b, float b_value, float alpha,
                            cudaStream_t stream);

/* out (its own layout) = a read in row-major order (reshape's copy): both
 * have numel elements; shapes and strides may differ. */
int airc_cuda_reshape_copy_f32(int64_t numel, int32_t out_ndim, const int64_t *out_shape,
                               const int64_t *out_strides, float *out, int32_t a_ndim,
                               const int64_t *a_shape, const int64_t *a_strides, const float *a,
                               cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
