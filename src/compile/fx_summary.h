/* debug.fx_summary (TorchAir's FX summary, max-autotune): a csv file with
 * one row per distinct call_function target of a graph whose meta is known
 * for one input signature, in the order the targets first appear:
 *
 *   目标函数  target: the op's name (`aten.mm.default`), or Python's str()
 *             of a builtin (`<built-in function getitem>`);
 *   函数类型  type: `builtin` (operator.*), `prims` (the name contains
 *             "prim"), else `aten` (custom ops too);
 *   支持状态  status: `已支持` (supported: a builtin, an op the lowering
 *             handles itself, or one with a GE converter) or `未注册` (no
 *             converter registered);
 *   调用次数  call count: the nodes of that target;
 *   输入统计  input statistics, one line per distinct argument signature,
 *             `<count>次：<repr>`, most frequent first (ties in the order
 *             first seen), repr being Python's repr() of the args tuple
 *             (followed by `, <kwargs dict>` when the node has kwargs) with
 *             each tensor written `<dtype>(<sizes>)`: `float32(4, 8)`,
 *             `float32(8,)`, `float32()`;
 *   输出统计  output statistics: the same for the node's result.
 *
 * The file is what TorchAir's Python writes (csv.writer, encoding
 * utf-8-sig): a UTF-8 byte order mark, rows ended by "\r\n", a field in
 * double quotes (its quotes doubled) when it holds a comma, a quote, "\r"
 * or "\n". docs/execution.md, "FX summary", has an example. */
#ifndef AIRC_FX_SUMMARY_H
#define AIRC_FX_SUMMARY_H

#include "core/core.h"

/* Appends the csv text of g (header row included) to sb. Every node's meta
 * must be propagated (a node without meta is written as `None`). Does not
 * change g. AIRC_E_OUT_OF_MEMORY (sb's content is then unspecified). */
AIRC_HIDDEN airc_status airc_fx_summary_csv(const airc_graph *g, airc_strbuf *sb);

/* Writes airc_fx_summary_csv(g) to
 * <dir>/summary_rank_0_pid_<pid>_ts_<UTC YYYYmmddHHMMSSffffff>.csv,
 * creating dir and its parents, and puts that path in path[cap] (also on
 * failure, when it fits). Errors start with "debug.fx_summary: " and name
 * the path: AIRC_E_IO (the folder or the file cannot be written),
 * AIRC_E_INVALID_ARGUMENT (the path does not fit in cap),
 * AIRC_E_OUT_OF_MEMORY. */
AIRC_HIDDEN airc_status airc_fx_summary_write(const airc_graph *g, const char *dir, char *path,
                                              size_t cap);

#endif
