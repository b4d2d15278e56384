graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %y_1 : [#users=1] = placeholder[target=y_1]
    %clone : [#users=0] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%y_1, 1), kwargs = {})
    return add
