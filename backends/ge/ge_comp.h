/* Shorthands of the elementwise composites (convert_special.c,
 * convert_bessel.c): GE ops over one result shape in one compute dtype,
 * and the direct lowering of an aten op to one CANN op of its semantics. */
#ifndef AIRC_GE_COMP_H
#define AIRC_GE_COMP_H

#include "backends/ge/ge_internal.h"
#include "ir/ir.h"

#include <string.h>

/* A CANN op of an aten op's semantics: its GE type, the aten op its raiser
 * emits, its input names and output name */
typedef struct special_op {
    const char *ge;
    const char *aten;
    const char *in[2];
    const char *out;
    size_t nin;
} special_op;

/* The op of e on in[] with one output of (dt, nd, shape). */
AIRC_HIDDEN airc_status airc_ge_special(airc_ge_builder *b, const special_op *e,
                                        const airc_ge_tensor *in, airc_dtype dt, int32_t nd,
                                        const int64_t *shape, airc_ge_tensor *out);
/* A converter (ud: the special_op): the operands in the compute dtype, the
 * op, a Cast back to the result's dtype. */
AIRC_HIDDEN airc_status airc_ge_special_conv(airc_ge_builder *b, const airc_node *n, void *ud);
/* Its raiser (r->data: the special_op): the aten op on the inputs. */
AIRC_HIDDEN airc_status airc_ge_special_raise(ge_raise *r);

/* Shorthands over the node's result shape (nd, s) in dtype dt */
typedef struct comp {
    airc_ge_builder *b;
    airc_dtype dt;
    int32_t nd;
    const int64_t *s;
} comp;

static inline airc_status op1(const comp *c, const char *type, airc_ge_tensor x,
                              airc_ge_tensor *out)
{
    return airc_ge_ew_op(c->b, type, &x, 1, c->dt, c->nd, c->s, out);
}

/* x type y; a comparison's or logical op's result is bool */
static inline airc_status op2(const comp *c, const char *type, airc_ge_tensor x, airc_ge_tensor y,
                              airc_ge_tensor *out)
{
    static const char *const cmp[] = {"Less",       "LessEqual", "Equal",
                                      "NotEqual",   "Greater",   "GreaterEqual",
                                      "LogicalAnd", "LogicalOr", NULL};
    bool boolean = false;
    for (size_t i = 0; cmp[i] && !boolean; i++)
        boolean = !strcmp(type, cmp[i]);
    airc_ge_tensor in[2] = {x, y};
    return airc_ge_ew_op(c->b, type, in, 2, boolean ? AIRC_DTYPE_BOOL : c->dt, c->nd, c->s, out);
}

static inline airc_status num(const comp *c, double v, airc_ge_tensor *out)
{
    return airc_ge_const_scalar(c->b, c->dt, v, out);
}

static inline airc_status select_(const comp *c, airc_ge_tensor cond, airc_ge_tensor t,
                                  airc_ge_tensor f, airc_ge_tensor *out)
{
    return airc_ge_select(c->b, cond, t, f, c->dt, c->nd, c->s, out);
}

/* x type number */
static inline airc_status op_num(const comp *c, const char *type, airc_ge_tensor x, double v,
                                 airc_ge_tensor *out)
{
    airc_ge_tensor k;
    AIRC_TRY(num(c, v, &k));
    return op2(c, type, x, k, out);
}

/* c over n's result (in its compute dtype) and argument arg in it */
static inline airc_status begin(airc_ge_builder *b, const airc_node *n, size_t arg, comp *c,
                                airc_ge_tensor *x)
{
    const airc_tmeta *om = &n->out[0];
    *c = (comp){b, airc_ge_compute_dtype(om->dtype), om->ndim, om->shape};
    return airc_ge_operand(b, arg, c->dt, x);
}

/* y Cast to n's result dtype, set as its result */
static inline airc_status finish(const comp *c, const airc_node *n, airc_ge_tensor y)
{
    AIRC_TRY(airc_ge_cast(c->b, y, n->out[0].dtype, &y));
    return airc_ge_set_result(c->b, 0, y);
}

#endif
