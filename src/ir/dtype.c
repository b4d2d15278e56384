/* dtype names and sizes. */
#include "ir/ir.h"

#include <string.h>

static const struct {
    const char *short_name;
    const char *torch_name;
    size_t size;
} dtypes[] = {
    [AIRC_DTYPE_F32] = {"f32", "torch.float32", 4}, [AIRC_DTYPE_F64] = {"f64", "torch.float64", 8},
    [AIRC_DTYPE_F16] = {"f16", "torch.float16", 2}, [AIRC_DTYPE_BF16] = {"bf16", "torch.bfloat16", 2},
    [AIRC_DTYPE_I64] = {"i64", "torch.int64", 8},   [AIRC_DTYPE_I32] = {"i32", "torch.int32", 4},
    [AIRC_DTYPE_I16] = {"i16", "torch.int16", 2},   [AIRC_DTYPE_I8] = {"i8", "torch.int8", 1},
    [AIRC_DTYPE_U8] = {"u8", "torch.uint8", 1},     [AIRC_DTYPE_BOOL] = {"b8", "torch.bool", 1},
};
#define NDTYPES ((int32_t)(sizeof dtypes / sizeof dtypes[0]))

/* torch's aliases for the same dtypes */
static const struct {
    const char *name;
    airc_dtype dtype;
} aliases[] = {
    {"torch.float", AIRC_DTYPE_F32}, {"torch.double", AIRC_DTYPE_F64},
    {"torch.half", AIRC_DTYPE_F16},  {"torch.long", AIRC_DTYPE_I64},
    {"torch.int", AIRC_DTYPE_I32},   {"torch.short", AIRC_DTYPE_I16},
};

const char *airc_dtype_name(airc_dtype d)
{
    return d > 0 && d < NDTYPES ? dtypes[d].short_name : NULL;
}

const char *airc_dtype_torch_name(airc_dtype d)
{
    return d > 0 && d < NDTYPES ? dtypes[d].torch_name : NULL;
}

size_t airc_dtype_size(airc_dtype d)
{
    return d > 0 && d < NDTYPES ? dtypes[d].size : 0;
}

airc_status airc_dtype_from_name(const char *name, airc_dtype *out)
{
    if (!name || !out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_dtype_from_name: NULL argument");
    for (airc_dtype d = 1; d < NDTYPES; d++) {
        if (!strcmp(name, dtypes[d].short_name) || !strcmp(name, dtypes[d].torch_name)) {
            *out = d;
            return AIRC_OK;
        }
    }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        if (!strcmp(name, aliases[i].name)) {
            *out = aliases[i].dtype;
            return AIRC_OK;
        }
    }
    return airc_fail(AIRC_E_NOT_FOUND, "unknown dtype '%.64s'", name);
}
