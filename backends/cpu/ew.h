/* The elementwise engine of the CPU kernels (unary and binary families):
 * dtype conversion, wrapped-number operands, and a driver that runs a
 * compute function over contiguous blocks of a few "compute types" while
 * the iterator (iter.h) handles strides, broadcasting and layouts.
 *
 * A compute function sees only contiguous arrays of its compute types
 * (f32, f64, i64 or bool): inputs whose dtype or stride differ are
 * converted into a block buffer first and the result converted on the way
 * out, so each op is written once per compute type and still runs at full
 * speed on the common same-dtype, unit-stride case. */
#ifndef AIRC_CPU_EW_H
#define AIRC_CPU_EW_H

#include "backends/cpu/iter.h"

/* ---- dtype conversion (torch's static_cast semantics, x86 flavour) ----- */

/* Round-to-nearest-even, as c10::Half / c10::BFloat16 do. */
AIRC_HIDDEN uint16_t airc_f32_to_f16(float f);
AIRC_HIDDEN float airc_f16_to_f32(uint16_t h);
AIRC_HIDDEN uint16_t airc_f32_to_bf16(float f);
AIRC_HIDDEN float airc_bf16_to_f32(uint16_t h);

/* Converts n elements src (dtype st, stride ss elements) into dst (dtype
 * dt, stride ds). Floats to integers truncate toward zero; out-of-range
 * values and NaN give INT64_MIN for i64 and go through int32 (INT32_MIN)
 * for narrower types, as torch on x86 does; anything to bool is != 0. */
AIRC_HIDDEN void airc_cpu_cast(airc_dtype dt, void *dst, int64_t ds, airc_dtype st,
                               const void *src, int64_t ss, int64_t n);

/* Stores the number v (INT, FLOAT or BOOL) as one element of dtype dt.
 * false (dst untouched) when v is not a number. */
AIRC_HIDDEN bool airc_cpu_store_number(airc_dtype dt, void *dst, const airc_value *v);

/* Element-wise copy with conversion: out[...] = (out dtype) in[...], with in
 * broadcast to out's shape; both strided. */
AIRC_HIDDEN airc_status airc_cpu_copy_cast(const airc_tview *out, const airc_tview *in);

/* ---- the engine -------------------------------------------------------- */

#define AIRC_EW_MAX_IN 3

typedef struct airc_ew airc_ew;
/* n results into out (type op->out_type); in[i] holds n values of type
 * op->in_type[i] when inc[i] is 1, or one value repeated when it is 0
 * (never 0 when op->contiguous). out may alias an input exactly. */
typedef void (*airc_ew_fn)(airc_ew *op, int64_t n, void *out, const void *const *in,
                           const int *inc);

struct airc_ew {
    airc_ew_fn fn;
    int32_t nin;
    airc_dtype in_type[AIRC_EW_MAX_IN];
    airc_dtype out_type;
    bool contiguous; /* fn wants every inc == 1 */
    /* op parameters (alpha, bounds, slope...) in the compute type's kind */
    double f[3];
    int64_t i[3];
    /* torch's common dtype, which a number operand converts to before the
     * compute type: -2 is 254 next to a u8 tensor, 70000 inf next to f16.
     * UNDEFINED (0): straight to the compute type. */
    airc_dtype common;
    /* inputs the common dtype does not apply to (where's condition) */
    bool no_common[AIRC_EW_MAX_IN];
    /* set by fn to stop the run (integer division by zero) */
    airc_status status;
    const char *message;
    /* the kernel's thread budget (airc_kernel_ctx.num_threads); 0 or 1:
     * the caller's thread only. A contiguous run of one dtype is split
     * between threads, each chunk on its own copy of the op. */
    int32_t threads;
};

/* f64 for f64, f32 for other floats, i64 for integers and bool. */
AIRC_HIDDEN airc_dtype airc_ew_compute_type(airc_dtype d);
AIRC_HIDDEN bool airc_ew_is_float(airc_dtype d);

/* Runs op over out and op->nin inputs (0-d or broadcastable views). */
AIRC_HIDDEN airc_status airc_ew_run(airc_ew *op, const airc_tview *out,
                                    const airc_tview *const *in);

/* ---- kernel arguments -------------------------------------------------- */

/* "aten.add.Tensor" (or "kernel") for messages. */
AIRC_HIDDEN const char *airc_ew_name(const airc_kernel_ctx *k);
/* torch's value.item() of a 0-dim tensor converted to dtype with the
 * overflow check (masked_fill.Tensor, fill.Tensor): AIRC_E_RUNTIME with
 * torch's message when it does not fit; a bool item always does. */
AIRC_HIDDEN airc_status airc_ew_check_item(const airc_kernel_ctx *k, const airc_tview *value,
                                           airc_dtype dtype);

/* A tensor-or-number operand: argument i's tensor, or the number bound to
 * it stored as `dt` in *storage and viewed as a 0-d tensor through *tmp,
 * or as `common` when that is narrower than `dt` (airc_ew.common).
 * *present false when the argument is None/absent (out-params then unset).
 * AIRC_E_UNSUPPORTED when it is neither. */
typedef union airc_ew_scalar {
    double f;
    int64_t i;
    float f32;
    uint8_t b;
    unsigned char bytes[8];
} airc_ew_scalar;
AIRC_HIDDEN airc_status airc_ew_operand(const airc_kernel_ctx *k, uint32_t i, airc_dtype dt,
                                        airc_dtype common, airc_ew_scalar *storage,
                                        airc_tview *tmp, const airc_tview **out, bool *present);
/* v converted to the integer type dt and back (wrapping), for dtypes
 * narrower than int64; v itself otherwise. */
AIRC_HIDDEN int64_t airc_ew_wrap_int(airc_dtype dt, int64_t v);

/* torch.result_type of arguments args[0..n) (tensors by their views,
 * numbers as wrapped numbers, None skipped). */
AIRC_HIDDEN airc_dtype airc_ew_result_type(const airc_kernel_ctx *k, const uint32_t *args,
                                           int32_t n);

/* Argument i as a double / int64 (numbers only; def when None/absent). */
AIRC_HIDDEN airc_status airc_ew_arg_double(const airc_kernel_ctx *k, uint32_t i, double def,
                                           double *out);
AIRC_HIDDEN airc_status airc_ew_arg_int(const airc_kernel_ctx *k, uint32_t i, int64_t def,
                                        int64_t *out);
/* Argument i as a string, NULL when None/absent. */
AIRC_HIDDEN const char *airc_ew_arg_string(const airc_kernel_ctx *k, uint32_t i);

#endif
