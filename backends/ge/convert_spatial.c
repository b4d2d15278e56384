/* pixel_shuffle, pixel_unshuffle and roll to and from Ascend IR.
 * pixel_shuffle -> Reshape to [*, C, r, r, H, W], Transpose to [*, C, H, r,
 * W, r], Reshape to the result (TorchAir decomposes it the same way);
 * pixel_unshuffle the other way round (ud non-NULL); roll -> Roll with the
 * shifts and dims attributes (no dims: the flattened tensor), raised back
 * to roll. (The reflection and replication pads are PadV3 modes, in
 * convert_shape.c.) */
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"

#include <string.h>

static airc_status conv_pixel_shuffle(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor x, perm, y;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    const int64_t *s;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &nd, &s));
    int64_t r = airc_ge_int_arg(b, 1, 1);
    int32_t nb = nd - 3;
    if (nb < 0 || nb + 5 > AIRC_MAX_DIMS || r <= 0)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: a %d-d input", n->target, (int)nd);
    bool un = ud != NULL;
    int64_t split[AIRC_MAX_DIMS], moved[AIRC_MAX_DIMS], order[AIRC_MAX_DIMS];
    for (int32_t i = 0; i < nb; i++) {
        split[i] = moved[i] = s[i];
        order[i] = i;
    }
    int64_t c = un ? s[nb] : s[nb] / (r * r), h = s[nb + 1] / (un ? r : 1),
            w = s[nb + 2] / (un ? r : 1);
    int64_t sp[5] = {c, r, r, h, w}, mv[5] = {c, h, r, w, r}, pm[5] = {0, 3, 1, 4, 2};
    if (un) { /* [*, C, H, r, W, r] -> [*, C, r, r, H, W] */
        int64_t usp[5] = {c, h, r, w, r}, umv[5] = {c, r, r, h, w}, upm[5] = {0, 2, 4, 1, 3};
        memcpy(sp, usp, sizeof sp);
        memcpy(mv, umv, sizeof mv);
        memcpy(pm, upm, sizeof pm);
    }
    for (int32_t i = 0; i < 5; i++) {
        split[nb + i] = sp[i];
        moved[nb + i] = mv[i];
        order[nb + i] = nb + pm[i];
    }
    AIRC_TRY(airc_ge_reshape(b, x, dt, nb + 5, split, &x));
    AIRC_TRY(airc_ge_const_ints(b, order, (size_t)(nb + 5), &perm));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Transpose", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "perm", perm));
    AIRC_TRY(airc_ge_op_output(op, "y", dt, nb + 5, moved, &x));
    AIRC_TRY(airc_ge_reshape(b, x, dt, n->out[0].ndim, n->out[0].shape, &y));
    return airc_ge_set_result(b, 0, y);
}

static airc_status conv_roll(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    int64_t shifts[AIRC_MAX_DIMS], dims[AIRC_MAX_DIMS];
    size_t ns = 0, nd = 0;
    AIRC_TRY(airc_ge_ints_arg(b, 1, shifts, AIRC_MAX_DIMS, &ns));
    AIRC_TRY(airc_ge_ints_arg(b, 2, dims, AIRC_MAX_DIMS, &nd));
    static const char *const names[] = {"x"};
    airc_ge_op *op;
    AIRC_TRY(airc_ge_simple(b, "Roll", names, &x, 1, &op));
    AIRC_TRY(airc_ge_op_attr_ints(op, "shifts", shifts, ns));
    return airc_ge_op_attr_ints(op, "dims", dims, nd);
}

static airc_status raise_roll(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    int64_t shifts[AIRC_MAX_DIMS], dims[AIRC_MAX_DIMS];
    size_t ns = 0, nd = 0;
    AIRC_TRY(airc_ge_attr_ints(r, "shifts", true, shifts, AIRC_MAX_DIMS, &ns));
    AIRC_TRY(airc_ge_attr_ints(r, "dims", false, dims, AIRC_MAX_DIMS, &nd));
    const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vints(r, shifts, ns),
                                 airc_ge_vints(r, dims, nd)};
    return airc_ge_raise_call(r, "aten.roll.default", args, 3, NULL, NULL, 0, &r->out[0]);
}

static const ge_conv_entry conv[] = {
    {"aten.pixel_shuffle.default", conv_pixel_shuffle, NULL},
    {"aten.pixel_unshuffle.default", conv_pixel_shuffle, "unshuffle"},
    {"aten.roll.default", conv_roll, NULL},
};

static const ge_raise_entry raise[] = {
    {"Roll", raise_roll, NULL},
};

const ge_family airc_ge_family_spatial = {conv, sizeof conv / sizeof *conv, raise,
                                          sizeof raise / sizeof *raise};
