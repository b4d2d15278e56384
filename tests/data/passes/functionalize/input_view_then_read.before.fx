graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %y_1 : [#users=1] = placeholder[target=y_1]
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%x_1,), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%t, 0, 0), kwargs = {})
    %add_ : [#users=0] = call_function[target=torch.ops.aten.add_.Tensor](args = (%select, %y_1), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x_1, 2), kwargs = {})
    return mul
