/* Linalg family: _compute_linear_combination (the linear combinations of
 * matrix_exp's polynomials), as torch 1.13's CPU kernel: out[i] starts
 * at zero, then out[i] += input[j] * coefficients[i, j] for j in order,
 * each product and sum in the dtype (rounded; integers wrap; bool: or of
 * ands). Meta required one dtype and coefficients [m, input.size(0)]. */
#include "backends/cpu/k_linalg_impl.h"

airc_status airc_cpu_k_linear_combination(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x = k->in ? k->in[0] : NULL, *c = k->in ? k->in[1] : NULL;
    const airc_tview *o = &k->out[0];
    if (!x || !c || c->ndim != 2 || x->ndim < 1 || c->shape[1] != x->shape[0] || o->ndim != x->ndim)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                             "input and coefficients [m, input.size(0)] are needed");
    airc_dtype dt = o->dtype;
    bool fl = airc_cpu_dtype_is_float(dt);
    int64_t idx[AIRC_MAX_DIMS] = {0};
    if (airc_cpu_numel(o) == 0)
        return AIRC_OK;
    do { /* idx over the result; idx[0] is its row i */
        int64_t i = idx[0], at[2] = {i, 0};
        double acc = 0;
        int64_t iacc = 0;
        for (int64_t j = 0; j < x->shape[0]; j++) {
            idx[0] = j;
            at[1] = j;
            const char *xp = airc_cpu_at(x, idx), *cp = airc_cpu_at(c, at);
            if (fl)
                acc = airc_cpu_round_f64(
                    dt, acc + airc_cpu_round_f64(dt, airc_cpu_load_f64(xp, dt) *
                                                         airc_cpu_load_f64(cp, dt)));
            else
                iacc = airc_cpu_round_i64(
                    dt, (int64_t)((uint64_t)iacc + (uint64_t)airc_cpu_load_i64(xp, dt) *
                                                       (uint64_t)airc_cpu_load_i64(cp, dt)));
        }
        idx[0] = i;
        char *op = airc_cpu_at(o, idx);
        if (fl)
            airc_cpu_store_f64(op, dt, acc);
        else
            airc_cpu_store_i64(op, dt, iacc);
    } while (airc_cpu_next_index(idx, o->shape, o->ndim));
    return AIRC_OK;
}
