graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %y_1 : [#users=1] = placeholder[target=y_1]
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %y_1), kwargs = {})
    %mul : [#users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, 2), kwargs = {})
    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.default](args = (%mul,), kwargs = {})
    %copy_ : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%x_1, %mul), kwargs = {})
    return sum_1
