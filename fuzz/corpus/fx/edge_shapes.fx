graph():
    %s_1 : [#users=2] = placeholder[target=s_1]
    %x_1 : [#users=3] = placeholder[target=x_1]
    %y_1 : [#users=3] = placeholder[target=y_1]
    %e_1 : [#users=6] = placeholder[target=e_1]
    %zeros_like : [#users=1] = call_function[target=torch.ops.aten.zeros_like.default](args = (%e_1,), kwargs = {dtype: torch.float32, layout: torch.strided, device: cpu, pin_memory: False})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%y_1, %s_1), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %mul), kwargs = {})
    %exp : [#users=1] = call_function[target=torch.ops.aten.exp.default](args = (%s_1,), kwargs = {})
    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%e_1, [0]), kwargs = {})
    %mul_1 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%e_1, 2), kwargs = {})
    %cat : [#users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%e_1, %y_1],), kwargs = {})
    %expand : [#users=1] = call_function[target=torch.ops.aten.expand.default](args = (%x_1, [3, 4]), kwargs = {})
    %sum_2 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%expand, [1]), kwargs = {})
    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, %y_1), kwargs = {})
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%mm,), kwargs = {})
    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%e_1, [0, 2, 2]), kwargs = {})
    %amax : [#users=1] = call_function[target=torch.ops.aten.amax.default](args = (%e_1, [1]), kwargs = {})
    return (add, exp, sum_1, mul_1, cat, zeros_like, sum_2, t, view, amax)
