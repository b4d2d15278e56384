graph():
    %x_1 : [#users=6] = placeholder[target=x_1]
    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x_1, [0, 2], True), kwargs = {})
    %mean : [#users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%x_1, [-1]), kwargs = {})
    %amax : [#users=1] = call_function[target=torch.ops.aten.amax.default](args = (%x_1, [-2, -1]), kwargs = {})
    %amin : [#users=1] = call_function[target=torch.ops.aten.amin.default](args = (%x_1, [0], True), kwargs = {})
    %var : [#users=1] = call_function[target=torch.ops.aten.var.correction](args = (%x_1, [1]), kwargs = {correction: 1})
    %sum_2 : [#users=1] = call_function[target=torch.ops.aten.sum.default](args = (%x_1,), kwargs = {})
    return (sum_1, mean, amax, amin, var, sum_2)
