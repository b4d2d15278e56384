graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %y_1 : [#users=2] = placeholder[target=y_1]
    %neg : [#users=2] = call_function[target=torch.ops.aten.neg.default](args = (%x_1,), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%neg,), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%relu, %y_1), kwargs = {})
    %abs_1 : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%neg,), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%abs_1, %y_1), kwargs = {})
    return (add, mul)
