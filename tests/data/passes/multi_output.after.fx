graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %y_1 : [#users=2] = placeholder[target=y_1]
    %sigmoid_default : [#users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%x_1,), kwargs = {})
    %tanh_default : [#users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%x_1,), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%sigmoid_default, %y_1), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%tanh_default, %y_1), kwargs = {})
    return (add, mul)
