/* The example's two custom ops (seed 002's six steps, in C):
 *   demo::my_op(Tensor x, float alpha) -> Tensor          y = x * alpha + 1
 *   demo::my_inplace(Tensor(a!) x, float alpha) -> ()     x = max(x, 0) * alpha
 * Registered with schema, meta function, CPU kernel and Ascend IR converter
 * (custom IR types MyOp and MyInplace), by the plugin and by the program. */
#ifndef CUSTOM_OP_OPS_H
#define CUSTOM_OP_OPS_H

#include <airc/airc.h>

airc_status custom_op_register(airc_context *ctx);

#endif
