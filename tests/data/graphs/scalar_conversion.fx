graph():
    %u_1 : [#users=7] = placeholder[target=u_1]
    %h_1 : [#users=3] = placeholder[target=h_1]
    %x_1 : [#users=9] = placeholder[target=x_1]
    %b_1 : [#users=2] = placeholder[target=b_1]
    %i_1 : [#users=1] = placeholder[target=i_1]
    %clamp_max : [#users=1] = call_function[target=torch.ops.aten.clamp_max.default](args = (%u_1, -2), kwargs = {})
    %clamp : [#users=1] = call_function[target=torch.ops.aten.clamp.default](args = (%u_1, -2), kwargs = {})
    %gt : [#users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%u_1, -2), kwargs = {})
    %eq : [#users=1] = call_function[target=torch.ops.aten.eq.Scalar](args = (%u_1, -2), kwargs = {})
    %gt_1 : [#users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%u_1, 100), kwargs = {})
    %masked_fill : [#users=1] = call_function[target=torch.ops.aten.masked_fill.Scalar](args = (%u_1, %gt_1, -1), kwargs = {})
    %ge : [#users=1] = call_function[target=torch.ops.aten.ge.Scalar](args = (%u_1, -56), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%h_1, 70000), kwargs = {})
    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%h_1, 9223372036854775806), kwargs = {alpha: 0})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%h_1, 100000.0), kwargs = {})
    %eq_1 : [#users=1] = call_function[target=torch.ops.aten.eq.Scalar](args = (%b_1, 9223372036854775806), kwargs = {})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%b_1, 3), kwargs = {})
    %prod : [#users=1] = call_function[target=torch.ops.aten.prod.default](args = (%x_1,), kwargs = {dtype: torch.bool})
    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.default](args = (%x_1,), kwargs = {dtype: torch.bool})
    %sum_2 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x_1, [1]), kwargs = {dtype: torch.bool})
    %prod_1 : [#users=1] = call_function[target=torch.ops.aten.prod.dim_int](args = (%x_1, 0), kwargs = {dtype: torch.bool})
    %cumsum : [#users=1] = call_function[target=torch.ops.aten.cumsum.default](args = (%x_1, 0), kwargs = {dtype: torch.int32})
    %prod_2 : [#users=1] = call_function[target=torch.ops.aten.prod.default](args = (%x_1,), kwargs = {dtype: torch.int32})
    %sum_3 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x_1, [0]), kwargs = {dtype: torch.int32})
    %argmin : [#users=1] = call_function[target=torch.ops.aten.argmin.default](args = (%x_1, None, True), kwargs = {})
    %argmax : [#users=1] = call_function[target=torch.ops.aten.argmax.default](args = (%x_1, None, True), kwargs = {})
    %add_2 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%i_1, 4), kwargs = {alpha: -9223372036854775807})
    return (clamp_max, clamp, gt, eq, masked_fill, ge, add, sub, mul, eq_1, add_1, prod, sum_1, sum_2, prod_1, cumsum, prod_2, sum_3, argmin, argmax, add_2)
