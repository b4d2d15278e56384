/* debug.data_dump (TorchAir's eager data dump): while a graph runs eagerly,
 * every call_function node whose name matches the filter has its tensor
 * inputs saved before its kernel runs and its results after, as .npy:
 *   <dir>/<node>-<target>.INPUT.<i>.<stamp>.npy      argument i
 *   <dir>/<node>-<target>.INPUT.<i>.<j>.<stamp>.npy  item j of a Tensor[] argument
 *   <dir>/<node>-<target>.OUTPUT.<i>.<stamp>.npy     result i
 * (target: the op's qualname, "aten.mm.default"; stamp: the run's UTC time,
 * YYYYmmddHHMMSSffffff). TorchAir also saves non-tensor arguments; airc
 * saves tensors only. */
#ifndef AIRC_DATA_DUMP_H
#define AIRC_DATA_DUMP_H

#include "airc/kernel.h"
#include "airc/runtime.h"
#include "core/core.h"

typedef struct airc_data_dump {
    const char *dir;      /* created before the first file */
    const char *filter;   /* fnmatch(3) pattern on node names; NULL or "": every node */
    bool inputs, outputs; /* which files (airc_data_dump_init: both) */
    char stamp[32];
} airc_data_dump;

/* Whether node `name` is dumped. */
AIRC_HIDDEN bool airc_data_dump_wants(const airc_data_dump *d, const char *name);

/* Saves view t (runtime memory: copied to the host first when the runtime
 * is not "cpu") as <dir>/<node>-<target>.<what>.<stamp>.npy, what being
 * "INPUT.0", "OUTPUT.1", ... */
AIRC_HIDDEN airc_status airc_data_dump_view(const airc_data_dump *d, airc_context *ctx,
                                            const airc_runtime_vtable *vt, void *rctx, bool host,
                                            const char *node, const char *target, const char *what,
                                            const airc_tview *t);

/* The dump folder of run `step` of a compiled graph:
 * <path>/worldsize1_global_rank0/<name>/<step> (TorchAir's layout, one
 * rank), and a fresh stamp, into d (dir points into buf). */
AIRC_HIDDEN void airc_data_dump_init(airc_data_dump *d, char *buf, size_t cap, const char *path,
                                     const char *name, uint64_t step, const char *filter);

/* The current UTC time as YYYYmmddHHMMSSffffff. */
AIRC_HIDDEN void airc_data_dump_stamp(char *buf, size_t cap);

#endif
